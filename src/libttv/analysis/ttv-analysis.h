/* ttv-analysis.h: the analysis framework.  An analysis (call stacks,
 * memory, CPU usage, latencies...) is a TtvAnalysisClass: it reads a
 * traceset once through the engine's hooks, after the state when it needs
 * it, then answers its own queries and writes its reports.  ttv-report
 * --analysis NAME, the viewer's modules and the tests all run analyses
 * through here, so the three always agree. */
#pragma once

#include <gio/gio.h>

#include "ttv-context.h"
#include "ttv-state.h"

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
 * traceset, the default places for symbols, every row. */
typedef struct {
  TtvTime start;               /* reports describe start..end (0 / 0: the whole traceset) */
  TtvTime end;
  const char *const *debug_dirs; /* weak, NULL-terminated, may be NULL: directories searched for
                                  * binaries and debug files before the defaults (symbols) */
  guint max_rows;              /* text tables: at most this many rows per table (0: all) */
} TtvAnalysisOptions;

/* One read of a traceset serving one or more analyses. */
typedef struct _TtvAnalysisPass TtvAnalysisPass;

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
  /* Appends the report over options->start..end in @format. */
  gboolean (*write) (gpointer self, TtvAnalysisFormat format, const TtvAnalysisOptions *options,
                     GString *out, GError **error);
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

/* --- The classes --------------------------------------------------------------- */

/* Every analysis, in the order ttv-report --analysis lists them; NULL-terminated. */
const TtvAnalysisClass * const *ttv_analysis_list (void);
const TtvAnalysisClass *ttv_analysis_find (const char *name);
/* "text", "jsonl", "csv", "folded" and back (FALSE: unknown name). */
const char  *ttv_analysis_format_name (TtvAnalysisFormat format);
gboolean     ttv_analysis_format_parse (const char *name, TtvAnalysisFormat *format);

/* --- Running ------------------------------------------------------------------- */

/* A finished analysis: its class and its data.  Immutable, reference
 * counted, safe to query from any thread. */
typedef struct _TtvAnalysis TtvAnalysis;

/* Reads @ts once from its start, running every class of @classes (of
 * const TtvAnalysisClass *) in the same read; returns the analyses in the
 * same order (of TtvAnalysis *, transfer full), or NULL with @error.
 * @progress (may be NULL) gets the fraction done; @cancel may be NULL. */
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

TtvAnalysis *ttv_analysis_ref (TtvAnalysis *analysis);
void         ttv_analysis_unref (TtvAnalysis *analysis);
const TtvAnalysisClass *ttv_analysis_get_class (const TtvAnalysis *analysis);
/* The class's own data, for its own query functions (borrowed). */
gpointer     ttv_analysis_get_data (const TtvAnalysis *analysis);
/* The report over options->start..end (NULL options: the whole traceset);
 * TTV_USAGE_ERROR when the class does not write @format. */
gboolean     ttv_analysis_write (const TtvAnalysis *analysis, TtvAnalysisFormat format,
                                 const TtvAnalysisOptions *options, GString *out, GError **error);

/* For reports: the interval @options asks for, the whole of @ts when unset. */
void         ttv_analysis_options_get_range (const TtvAnalysisOptions *options, TtvTraceset *ts,
                                             TtvTime *start, TtvTime *end);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvAnalysis, ttv_analysis_unref)

G_END_DECLS
