/* ttv-analysis.h: the analysis framework.  An analysis is a set of hooks
 * run over the merged traceset with the kernel model's state (its
 * observer, and calls before and after each event is applied); what it
 * finds goes into tables (ttv-analysis-table.h) of an immutable result,
 * kept in a cache file beside the state history's and reused when the
 * trace opens again unchanged.  Several analyses share one read.  Used by
 * the kernel analyses (ttv-kernel-analyses.h), the userspace ones, the
 * viewer's analysis pass and ttv-report --analysis. */
#pragma once

#include <gio/gio.h>

#include "ttv-analysis-table.h"
#include "ttv-kernel-model.h"
#include "ttv-state-private.h"
#include "ttv-traceset.h"

G_BEGIN_DECLS

typedef struct _TtvAnalysisBuilder TtvAnalysisBuilder;
typedef struct _TtvTableBuilder TtvTableBuilder;
typedef struct _TtvAnalysisResult TtvAnalysisResult;
typedef struct _TtvAnalysisPrintOptions TtvAnalysisPrintOptions;   /* ttv-analysis-print.h */

/* One event as the analyses see it. */
typedef struct {
  TtvTraceset *traceset;        /* weak */
  TtvKernelModel *model;        /* weak: the meaning of the event's fields */
  TtvState *state;              /* weak: before or after the event is applied */
  const TtvEvent *event;
  guint trace;                  /* index of the event's trace */
  TtvKernelAction action;       /* what the kernel model makes of it */
} TtvAnalysisEvent;

typedef struct {
  const char *name;             /* "syscalls": ttv-report --analysis NAME, the cache file's name */
  const char *title;            /* translatable (marked N_): "System calls" */
  const char *description;      /* translatable (marked N_): one line on what it measures */
  guint version;                /* bumped whenever what it stores changes */
  /* Its tables: static shapes, in the order of ttv_analysis_builder_get_table()
   * and ttv_analysis_result_get_table(). */
  const TtvAnalysisTableSpec *const *tables;
  guint n_tables;
  /* Starts building (its tables are ready: ttv_analysis_builder_get_table)
   * and returns its own data, passed to everything below. */
  gpointer (*begin) (TtvAnalysisBuilder *builder);
  /* Told of the state's changes (may be NULL). */
  const TtvStateObserver *observer;
  /* Called for every event before and after the state applies it (each
   * may be NULL). */
  void (*before_event) (gpointer self, const TtvAnalysisEvent *event);
  void (*after_event) (gpointer self, const TtvAnalysisEvent *event);
  /* The last event was applied (its time is @end): records still open end
   * here.  May be NULL. */
  void (*end) (gpointer self, const TtvState *state, TtvTime end);
  void (*free) (gpointer self);
  /* Optional, for an analysis whose findings are not tables (the call
   * stack tree; names from the binaries found on this machine): after
   * end(), hands over its own immutable data (@self itself, typically),
   * which the result keeps (ttv_analysis_result_get_data) and frees with
   * @free_data; free() is then not called.  Such results are computed on
   * every run, never cached. */
  gpointer (*steal_data) (gpointer self);
  GDestroyNotify free_data;
  /* Optional: prints the result for ttv-report --analysis instead of the
   * tables' printer (ttv_analysis_print), which calls it. */
  gboolean (*print) (const TtvAnalysisResult *result, const TtvAnalysisPrintOptions *options, GString *out,
                     GError **error);
} TtvAnalysisClass;

/* --- Building (for the analyses' own code) ------------------------------------ */

/* Table @index of the class's tables (borrowed). */
TtvTableBuilder *ttv_analysis_builder_get_table (TtvAnalysisBuilder *builder, guint index);
/* Adds a record: @record points to spec->record_size bytes, start and end
 * first.  Records of a series must come in the order of their ends. */
void        ttv_table_builder_push (TtvTableBuilder *table, const void *record);
/* Index of @text in the result's strings (TTV_ANALYSIS_NO_STRING for NULL). */
guint32     ttv_analysis_builder_intern (TtvAnalysisBuilder *builder, const char *text);
guint32     ttv_analysis_builder_intern_quark (TtvAnalysisBuilder *builder, GQuark quark);
/* A named number of the result (what the analysis counted besides its tables). */
void        ttv_analysis_builder_set_value (TtvAnalysisBuilder *builder, const char *key, gint64 value);
TtvTraceset *ttv_analysis_builder_get_traceset (TtvAnalysisBuilder *builder);
/* The state being built (to look up names, running tasks, open frames). */
const TtvState *ttv_analysis_builder_get_state (TtvAnalysisBuilder *builder);
/* What the run was asked (never NULL; zeros for defaults). */
const struct _TtvAnalysisOptions *ttv_analysis_builder_get_options (TtvAnalysisBuilder *builder);

/* --- Results ------------------------------------------------------------------ */

TtvAnalysisResult *ttv_analysis_result_ref (TtvAnalysisResult *result);
void        ttv_analysis_result_unref (TtvAnalysisResult *result);
const TtvAnalysisClass *ttv_analysis_result_get_class (const TtvAnalysisResult *result);
guint       ttv_analysis_result_get_n_tables (const TtvAnalysisResult *result);
const TtvAnalysisTable *ttv_analysis_result_get_table (const TtvAnalysisResult *result, guint index);
/* The table named @name, or NULL. */
const TtvAnalysisTable *ttv_analysis_result_find_table (const TtvAnalysisResult *result, const char *name);
/* String @index of the result ("" for TTV_ANALYSIS_NO_STRING, "?" for an
 * index a damaged record holds). */
const char *ttv_analysis_result_get_string (const TtvAnalysisResult *result, guint32 index);
/* The value set with ttv_analysis_builder_set_value; FALSE when none. */
gboolean    ttv_analysis_result_get_value (const TtvAnalysisResult *result, const char *key, gint64 *value);
/* The span of the traceset it describes. */
void        ttv_analysis_result_get_time_range (const TtvAnalysisResult *result, TtvTime *start, TtvTime *end);
guint64     ttv_analysis_result_get_n_events (const TtvAnalysisResult *result);
/* TRUE when it was read from a cache file rather than computed. */
gboolean    ttv_analysis_result_is_from_cache (const TtvAnalysisResult *result);
/* The file it lives in (cache), or NULL when in memory or unnamed. */
const char *ttv_analysis_result_get_cache_path (const TtvAnalysisResult *result);
/* Heap bytes held, and bytes of its file (0 in memory). */
gsize       ttv_analysis_result_get_memory (const TtvAnalysisResult *result);
guint64     ttv_analysis_result_get_file_size (const TtvAnalysisResult *result);

/* The data of an analysis with steal_data (borrowed), else NULL. */
gpointer    ttv_analysis_result_get_data (const TtvAnalysisResult *result);

/* A column's value as text ("" for none): times as seconds since the epoch
 * (@relative_to: + seconds from it, TTV_TIME_MIN: absolute), strings and
 * enum labels by name; caller frees. */
char       *ttv_analysis_result_format_value (const TtvAnalysisResult *result,
                                              const TtvAnalysisColumn *column, const void *record,
                                              TtvTime relative_to);

/* --- Running ------------------------------------------------------------------- */

typedef struct _TtvAnalysisOptions {
  gboolean no_cache;            /* neither read nor write cache files */
  const char *cache_dir;        /* NULL: the state history's ($XDG_CACHE_HOME/ttv/history) */
  guint64 cache_max_bytes;      /* the cache directory's cap (0: as the history's) */
  gsize max_memory;             /* bytes in memory before results go on in a file when not
                                 * cached (0: 8 MiB) */
  const char *const *debug_dirs; /* weak, NULL-terminated, may be NULL: where the userspace
                                  * analyses look for traced binaries and debug files first */
  gboolean symbols_only_in_dirs; /* and nowhere else (not at the paths the trace recorded) */
} TtvAnalysisOptions;

/* The results of @classes over @ts, in that order: each from its cache
 * file when one matches the traceset, the others computed together in one
 * read (and cached).  @progress (fraction done), @cancel may be NULL. */
GPtrArray  *ttv_analysis_run (TtvTraceset *ts, const TtvAnalysisClass *const *classes, guint n_classes,
                              const TtvAnalysisOptions *options,
                              void (*progress) (double fraction, gpointer data), gpointer progress_data,
                              GCancellable *cancel, GError **error);
TtvAnalysisResult *ttv_analysis_run_one (TtvTraceset *ts, const TtvAnalysisClass *klass,
                                         const TtvAnalysisOptions *options,
                                         void (*progress) (double fraction, gpointer data),
                                         gpointer progress_data, GCancellable *cancel, GError **error);

/* The cache file of @klass's result for @ts (whether it exists or not). */
char       *ttv_analysis_cache_path (TtvTraceset *ts, const TtvAnalysisClass *klass,
                                     const TtvAnalysisOptions *options);
/* Loads a result file, checking it describes @ts as it is now and holds
 * what @klass stores (any damage: NULL with @error naming the file and
 * the byte).  For tests and the fuzzer. */
TtvAnalysisResult *ttv_analysis_result_load (const char *path, TtvTraceset *ts,
                                             const TtvAnalysisClass *klass, GError **error);
/* The same over bytes in memory (@fingerprint NULL: not compared). */
TtvAnalysisResult *ttv_analysis_result_load_bytes (GBytes *bytes, const char *fingerprint,
                                                   const TtvAnalysisClass *klass, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvAnalysisResult, ttv_analysis_result_unref)

G_END_DECLS
