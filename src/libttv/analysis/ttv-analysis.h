/* ttv-analysis.h: the analysis framework.  An analysis (call stacks,
 * memory, CPU usage, latencies...) is a TtvAnalysisClass: it reads a
 * traceset once through the engine's hooks, after the state when it needs
 * it, then answers its own queries and writes its reports.  An analysis
 * may keep what it finds in tables (ttv-analysis-table.h: records queried
 * by time in O(log n + answer), with summaries), which the framework
 * stores in a cache file beside the state history's, validated against
 * the trace, and reuses when the trace opens again; its reports are then
 * written by the framework.  Several analyses share one read.  ttv-report
 * --analysis NAME, the viewer's modules and the tests all run analyses
 * through here, so the three always agree. */
#pragma once

#include <gio/gio.h>

#include "ttv-analysis-table.h"
#include "ttv-context.h"
#include "ttv-kernel-model.h"
#include "ttv-state-private.h"

G_BEGIN_DECLS

/* Report formats; a class says which it writes in its @formats mask. */
typedef enum {
  TTV_ANALYSIS_FORMAT_TEXT,     /* aligned tables for people */
  TTV_ANALYSIS_FORMAT_JSONL,    /* one JSON object per line */
  TTV_ANALYSIS_FORMAT_CSV,      /* a header line, then one row per line */
  TTV_ANALYSIS_FORMAT_FOLDED,   /* "a;b;c 1234" stacks, as flame graph tools read them */
  TTV_ANALYSIS_N_FORMATS
} TtvAnalysisFormat;

#define TTV_ANALYSIS_FORMAT_BIT(f) (1u << (f))

/* What a run and its reports are told.  Zero-initialised means: the whole
 * traceset, the default places for symbols, every row, statistics of the
 * tables, the default cache. */
typedef struct {
  TtvTime start;               /* reports describe start..end (0 / 0: the whole traceset) */
  TtvTime end;
  const char *const *debug_dirs; /* weak, NULL-terminated, may be NULL: directories searched for
                                  * binaries and debug files before the defaults (symbols) */
  gboolean symbols_only_in_dirs; /* and nowhere else (not at the paths the trace recorded) */
  guint max_rows;              /* text tables: at most this many rows per table (0: all) */
  /* Reports of analyses with tables. */
  gboolean records;            /* every record rather than statistics */
  const char *table;           /* one table, NULL: each */
  const char *group_by;        /* the column statistics group by, NULL: the table's */
  guint64 top;                 /* records: the N longest only; threads: the N busiest (0: all) */
  guint bins;                  /* CPU usage in this many bins of the interval (0: none) */
  gboolean one_thread;         /* records of thread @tid only */
  guint32 tid;
  const char *machine;         /* with @one_thread and several machines: @tid's machine's name
                                * (analyses that are per machine), NULL: any */
  TtvTraceset *traceset;       /* weak, may be NULL: what records may read back (syscall arguments) */
  /* Results of analyses with tables, kept in the cache. */
  gboolean no_cache;           /* neither read nor write cache files */
  const char *cache_dir;       /* NULL: the state history's ($XDG_CACHE_HOME/ttv/history) */
  guint64 cache_max_bytes;     /* the cache directory's cap (0: as the state history's) */
  gsize max_memory;            /* bytes of results in memory before going on in a file when
                                * not cached (0: 8 MiB) */
} TtvAnalysisOptions;

/* One read of a traceset serving one or more analyses. */
typedef struct _TtvAnalysisPass TtvAnalysisPass;
/* What an analysis with tables fills in while the pass reads. */
typedef struct _TtvAnalysisBuilder TtvAnalysisBuilder;
typedef struct _TtvTableBuilder TtvTableBuilder;

/* One event as analyses with tables see it (before_event, after_event). */
typedef struct {
  TtvTraceset *traceset;        /* weak */
  TtvKernelModel *model;        /* weak: the meaning of the event's fields */
  TtvState *state;              /* weak: before or after the event is applied */
  const TtvEvent *event;
  guint trace;                  /* index of the event's trace */
  TtvKernelAction action;       /* what the kernel model makes of it */
} TtvAnalysisEvent;

typedef struct {
  const char *name;            /* [a-z0-9-]+, what --analysis takes: "callstack" */
  const char *title;           /* untranslated (N_ in the source): translate where shown */
  const char *description;     /* untranslated, one line */
  guint formats;               /* TTV_ANALYSIS_FORMAT_BIT()s it writes */
  gboolean needs_state;        /* its hooks read ttv_analysis_pass_get_state() */
  /* Creates the analysis' data for this pass and adds its hooks
   * (ttv_analysis_pass_add_hook); NULL with @error when it cannot run. */
  gpointer (*attach) (TtvAnalysisPass *pass, const TtvAnalysisOptions *options, GError **error);
  /* After the last event (@end: the last event's time): closes what is
   * still open.  The data is immutable afterwards, safe to query from any
   * thread. */
  void     (*finish) (gpointer self, TtvTime end);
  void     (*free) (gpointer self);
  /* Appends the report over options->start..end in @format; NULL for an
   * analysis with tables: the framework writes their statistics or
   * records (ttv_analysis_write). */
  gboolean (*write) (gpointer self, TtvAnalysisFormat format, const TtvAnalysisOptions *options,
                     GString *out, GError **error);

  /* --- Analyses whose results are tables --------------------------------------
   * Their attach() takes ttv_analysis_pass_get_builder() and its tables;
   * after finish() the tables are written, the data freed: the analysis is
   * its tables, from then on or when read back from the cache. */
  const TtvAnalysisTableSpec *const *tables;   /* static shapes, in order */
  guint n_tables;
  guint version;               /* bumped whenever what it stores changes (part of the cache's key) */
  /* Told of the state's changes (needs_state; may be NULL), with the data. */
  const TtvStateObserver *observer;
  /* Called for every event before and after the state applies it (each
   * may be NULL). */
  void     (*before_event) (gpointer self, const TtvAnalysisEvent *event);
  void     (*after_event) (gpointer self, const TtvAnalysisEvent *event);
} TtvAnalysisClass;

/* --- Inside attach() ----------------------------------------------------------- */

TtvTraceset *ttv_analysis_pass_get_traceset (TtvAnalysisPass *pass);   /* borrowed */
/* Calls @hook (call_data: a TtvHookCall) for every event named @event_name
 * (full or plain name, as ttv_hooks_by_id_find), or for every event when
 * @event_name is NULL, at priority @prio (after the state: > TTV_PRIO_STATE). */
void         ttv_analysis_pass_add_hook (TtvAnalysisPass *pass, const char *event_name, TtvHook hook,
                                         gpointer hook_data, guint prio);
/* From a hook: the state once the event being delivered is applied (NULL
 * unless a class of the pass has needs_state). */
const TtvState *ttv_analysis_pass_get_state (TtvAnalysisPass *pass);
/* The builder of the class being attached (a class with tables), borrowed:
 * it lives until the pass has written its tables. */
TtvAnalysisBuilder *ttv_analysis_pass_get_builder (TtvAnalysisPass *pass);

/* --- Building tables ------------------------------------------------------------ */

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
/* The state being built (names, running tasks, open frames). */
const TtvState *ttv_analysis_builder_get_state (TtvAnalysisBuilder *builder);

/* --- The classes --------------------------------------------------------------- */

/* Every analysis, in the order ttv-report --analysis lists them; NULL-terminated. */
const TtvAnalysisClass * const *ttv_analysis_list (void);
const TtvAnalysisClass *ttv_analysis_find (const char *name);
/* "text", "jsonl", "csv", "folded" and back (FALSE: unknown name). */
const char  *ttv_analysis_format_name (TtvAnalysisFormat format);
gboolean     ttv_analysis_format_parse (const char *name, TtvAnalysisFormat *format);

/* --- Running ------------------------------------------------------------------- */

/* A finished analysis: its class and its data, or its tables.  Immutable,
 * reference counted, safe to query from any thread. */
typedef struct _TtvAnalysis TtvAnalysis;

/* Runs every class of @classes (of const TtvAnalysisClass *) over @ts:
 * those with tables from their cache file when it matches the traceset,
 * the others in the same read of @ts from its start (whose tables are then
 * cached); returns the analyses in the same order (of TtvAnalysis *,
 * transfer full), or NULL with @error.  @progress (may be NULL) gets the
 * fraction done; @cancel may be NULL. */
GPtrArray   *ttv_analysis_run_many (TtvTraceset *ts, GPtrArray *classes, const TtvAnalysisOptions *options,
                                    void (*progress) (double fraction, gpointer data), gpointer progress_data,
                                    GCancellable *cancel, GError **error);
/* The same for one class. */
TtvAnalysis *ttv_analysis_run (TtvTraceset *ts, const TtvAnalysisClass *cls, const TtvAnalysisOptions *options,
                               void (*progress) (double fraction, gpointer data), gpointer progress_data,
                               GCancellable *cancel, GError **error);
/* ttv_analysis_run() in a worker thread; *@progress (a g_atomic_rc_box
 * gint, 0..1000, the task keeps a reference) is updated as it goes.
 * @options' strings are copied. */
void         ttv_analysis_run_async (TtvTraceset *ts, const TtvAnalysisClass *cls,
                                     const TtvAnalysisOptions *options, gint *progress,
                                     GCancellable *cancel, GAsyncReadyCallback callback, gpointer user_data);
TtvAnalysis *ttv_analysis_run_finish (GAsyncResult *result, GError **error);
/* ttv_analysis_run_many() in a worker thread, as above; finish gives the
 * analyses in @classes' order (transfer full). */
void         ttv_analysis_run_many_async (TtvTraceset *ts, GPtrArray *classes,
                                          const TtvAnalysisOptions *options, gint *progress,
                                          GCancellable *cancel, GAsyncReadyCallback callback,
                                          gpointer user_data);
GPtrArray   *ttv_analysis_run_many_finish (GAsyncResult *result, GError **error);

TtvAnalysis *ttv_analysis_ref (TtvAnalysis *analysis);
void         ttv_analysis_unref (TtvAnalysis *analysis);
const TtvAnalysisClass *ttv_analysis_get_class (const TtvAnalysis *analysis);
/* The class's own data, for its own query functions (borrowed; NULL for
 * an analysis with tables). */
gpointer     ttv_analysis_get_data (const TtvAnalysis *analysis);
/* The report over options->start..end (NULL options: the whole traceset);
 * TTV_USAGE_ERROR when the class does not write @format (or, with tables,
 * options name a table or column it lacks). */
gboolean     ttv_analysis_write (const TtvAnalysis *analysis, TtvAnalysisFormat format,
                                 const TtvAnalysisOptions *options, GString *out, GError **error);

/* For reports: the interval @options asks for, the whole of @ts when unset. */
void         ttv_analysis_options_get_range (const TtvAnalysisOptions *options, TtvTraceset *ts,
                                             TtvTime *start, TtvTime *end);

/* --- Analyses with tables ---------------------------------------------------------- */

guint        ttv_analysis_get_n_tables (const TtvAnalysis *analysis);
const TtvAnalysisTable *ttv_analysis_get_table (const TtvAnalysis *analysis, guint index);
/* The table named @name, or NULL. */
const TtvAnalysisTable *ttv_analysis_find_table (const TtvAnalysis *analysis, const char *name);
/* String @index of the result ("" for TTV_ANALYSIS_NO_STRING, "?" for an
 * index a damaged record holds). */
const char  *ttv_analysis_get_string (const TtvAnalysis *analysis, guint32 index);
/* A value set with ttv_analysis_builder_set_value; FALSE when none. */
gboolean     ttv_analysis_get_value (const TtvAnalysis *analysis, const char *key, gint64 *value);
/* The machines of the traceset it read (docs/multi-machine.md): 1 for
 * one machine (its results are then as before machines existed), and
 * each one's name ("?" for a number it does not know); at most
 * TTV_ANALYSIS_MAX_MACHINES, whatever a damaged file says.  Every
 * analysis's records say their machine, and its reports name it when
 * there are several. */
guint        ttv_analysis_get_n_machines (const TtvAnalysis *analysis);
const char  *ttv_analysis_get_machine_name (const TtvAnalysis *analysis, guint machine);
/* The machine named @name (a record's machine column), 0 when none is:
 * with one machine, or for a name a damaged file holds. */
guint        ttv_analysis_find_machine (const TtvAnalysis *analysis, const char *name);
/* Machine @machine's name as a string of the result (what its records'
 * machine column holds); FALSE with one machine. */
gboolean     ttv_analysis_get_machine_string (const TtvAnalysis *analysis, guint machine, gint64 *string);
/* The span of @machine's traces (what its figures speak of); with one
 * machine, or where the result does not say (a damaged file), the
 * result's time range. */
void         ttv_analysis_get_machine_span (const TtvAnalysis *analysis, guint machine, TtvTime *start,
                                            TtvTime *end);
/* Whether reports and views show @column of @analysis' records: all but
 * the machine column of a result of one machine. */
gboolean     ttv_analysis_column_is_shown (const TtvAnalysis *analysis, const TtvAnalysisColumn *column);
/* The span of the traceset it describes, and the events read. */
void         ttv_analysis_get_time_range (const TtvAnalysis *analysis, TtvTime *start, TtvTime *end);
guint64      ttv_analysis_get_n_events (const TtvAnalysis *analysis);
/* TRUE when read back from a cache file rather than computed. */
gboolean     ttv_analysis_is_from_cache (const TtvAnalysis *analysis);
/* The file it lives in (the cache), or NULL in memory or unnamed. */
const char  *ttv_analysis_get_cache_path (const TtvAnalysis *analysis);
/* Heap bytes held, and bytes of its file (0 in memory). */
gsize        ttv_analysis_get_memory (const TtvAnalysis *analysis);
guint64      ttv_analysis_get_file_size (const TtvAnalysis *analysis);
/* A column's value as text ("" for none): times as seconds since the epoch
 * (@relative_to: + seconds from it, TTV_TIME_MIN: absolute), strings and
 * enum labels by name; caller frees. */
char        *ttv_analysis_format_value (const TtvAnalysis *analysis, const TtvAnalysisColumn *column,
                                        const void *record, TtvTime relative_to);
/* The name of a statistics group of @table keyed by a number (an IRQ
 * line, a soft IRQ vector): what the analysis stored for it, else NULL. */
const char  *ttv_analysis_get_group_name (const TtvAnalysis *analysis, const TtvAnalysisTable *table,
                                          gint64 key);
/* The same on @machine (machine 0's are those above): an IRQ line is
 * named by its own machine. */
const char  *ttv_analysis_get_machine_group_name (const TtvAnalysis *analysis, const TtvAnalysisTable *table,
                                                  guint machine, gint64 key);

/* The cache file of @cls's tables for @ts (whether it exists or not). */
char        *ttv_analysis_cache_path (TtvTraceset *ts, const TtvAnalysisClass *cls,
                                      const TtvAnalysisOptions *options);
/* Reads tables back from @path, checking they describe @ts as it is now
 * and hold what @cls stores: any damage gives NULL with @error naming the
 * file and the byte.  For tests. */
TtvAnalysis *ttv_analysis_load (const char *path, TtvTraceset *ts, const TtvAnalysisClass *cls, GError **error);
/* The same over bytes in memory (@fingerprint NULL: not compared): the
 * fuzzer's entry. */
TtvAnalysis *ttv_analysis_load_bytes (GBytes *bytes, const char *fingerprint, const TtvAnalysisClass *cls,
                                      GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvAnalysis, ttv_analysis_unref)

G_END_DECLS
