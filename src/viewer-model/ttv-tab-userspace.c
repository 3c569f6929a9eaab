/* ttv-tab-userspace.c: a tab's userspace analyses (sdk's
 * ttv-viewer-userspace.h): the call stack, memory and symbols analyses of
 * libttv, run in a worker thread the first time a viewer asks, kept with
 * the tab's state until its traceset changes, and the SDK's accessors over
 * their results (the SDK's handles are libttv's TtvAnalysis, cast). */
#include "ttv-config.h"

#include "ttv-callstack.h"
#include "ttv-memory-analysis.h"
#include "ttv-settings.h"
#include "ttv-symbols-analysis.h"
#include "ttv-tab-analysis-run.h"
#include "ttv-tab-analysis.h"
#include "ttv-tab-state-private.h"
#include "ttv-ust-model.h"

#include <glib/gi18n.h>
#include <string.h>

#define N_ANALYSES 3

typedef struct {
  TtvAnalysis *result;          /* owned, NULL until done */
  GCancellable *cancel;         /* owned while running */
  gint *progress;               /* g_atomic_rc_box, owned reference, 0..1000 */
  GError *error;                /* owned: why the last run failed */
} Run;

typedef struct {
  TtvTabState *state;           /* weak: owns this */
  Run runs[N_ANALYSES];
  guint generation;             /* bumped when the traceset changes: older runs are dropped */
} Userspace;

typedef struct {
  TtvTabState *state;           /* owned reference */
  guint which;
  guint generation;
} Job;

static const TtvAnalysisClass *
class_of (guint which)
{
  switch (which)
    {
    case TTV_VIEWER_USERSPACE_CALLSTACKS: return &ttv_callstack_analysis;
    case TTV_VIEWER_USERSPACE_MEMORY: return &ttv_memory_analysis;
    default: return &ttv_symbols_analysis;
    }
}

static void
run_clear (Run *run)
{
  if (run->cancel)
    g_cancellable_cancel (run->cancel);
  g_clear_object (&run->cancel);
  g_clear_pointer (&run->result, ttv_analysis_unref);
  g_clear_error (&run->error);
  if (run->progress)
    g_atomic_rc_box_release (run->progress);
  run->progress = NULL;
}

static void
userspace_free (Userspace *u)
{
  for (guint i = 0; i < N_ANALYSES; i++)
    run_clear (&u->runs[i]);
  g_free (u);
}

static void
traceset_changed (TtvTabState *state, Userspace *u)
{
  u->generation++;
  for (guint i = 0; i < N_ANALYSES; i++)
    run_clear (&u->runs[i]);
  g_signal_emit_by_name (state, "userspace-ready");
}

static Userspace *
userspace_of (TtvTabState *state)
{
  Userspace *u = g_object_get_data (G_OBJECT (state), "ttv-userspace");
  if (u == NULL)
    {
      u = g_new0 (Userspace, 1);
      u->state = state;
      g_object_set_data_full (G_OBJECT (state), "ttv-userspace", u, (GDestroyNotify) userspace_free);
      g_signal_connect (state, "traceset-changed", G_CALLBACK (traceset_changed), u);
    }
  return u;
}

/* The user's directories of binaries and debug files (the
 * symbol-directories setting, when the schema has it). */
static GStrv
dup_symbol_dirs (void)
{
  g_autoptr (GSettings) settings = ttv_settings_dup_with_key ("symbol-directories");
  return settings ? g_settings_get_strv (settings, "symbol-directories") : NULL;
}

/* The options of a run: the symbols from @dirs (the user's directories,
 * owned by the caller), no cache (the results are not kept). */
static void
options_init (TtvAnalysisOptions *options, GStrv *dirs)
{
  memset (options, 0, sizeof *options);
  *dirs = dup_symbol_dirs ();
  options->debug_dirs = (const char *const *) *dirs;
  options->no_cache = TRUE;
}

static void
run_done (GObject *source, GAsyncResult *result, gpointer data)
{
  Job *job = data;
  GError *error = NULL;
  TtvAnalysis *a = ttv_analysis_run_finish (result, &error);
  Userspace *u = g_object_get_data (G_OBJECT (job->state), "ttv-userspace");

  ttv_tab_analysis_add_workers (ttv_tab_state_get_analysis (job->state), -1);
  if (u && u->generation == job->generation && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      Run *run = &u->runs[job->which];
      g_clear_object (&run->cancel);
      run->result = a;
      run->error = error;
      a = NULL;
      error = NULL;
      if (run->progress)
        g_atomic_int_set (run->progress, 1000);
      g_signal_emit_by_name (job->state, "userspace-ready");
    }
  if (a)
    ttv_analysis_unref (a);
  g_clear_error (&error);
  g_object_unref (job->state);
  g_free (job);
}

gboolean
ttv_tab_state_request_userspace (TtvTabState *state, TtvViewerUserspaceAnalysis which)
{
  g_return_val_if_fail (TTV_IS_TAB_STATE (state) && which < N_ANALYSES, FALSE);
  Userspace *u = userspace_of (state);
  Run *run = &u->runs[which];
  if (run->result)
    return TRUE;
  if (run->cancel)
    return FALSE;
  g_clear_error (&run->error);
  run->cancel = g_cancellable_new ();
  if (!run->progress)
    run->progress = g_atomic_rc_box_new0 (gint);
  g_atomic_int_set (run->progress, 0);
  g_auto (GStrv) dirs = NULL;
  TtvAnalysisOptions options;
  options_init (&options, &dirs);
  Job *job = g_new0 (Job, 1);
  job->state = g_object_ref (state);
  job->which = which;
  job->generation = u->generation;
  /* Counted: the traceset is not refreshed under a reading thread. */
  ttv_tab_analysis_add_workers (ttv_tab_state_get_analysis (state), 1);
  ttv_analysis_run_async (ttv_tab_state_get_traceset (state), class_of (which), &options, run->progress,
                          run->cancel, run_done, job);
  return FALSE;
}

double
ttv_tab_state_get_userspace_progress (TtvTabState *state, TtvViewerUserspaceAnalysis which)
{
  g_return_val_if_fail (TTV_IS_TAB_STATE (state) && which < N_ANALYSES, 0);
  Run *run = &userspace_of (state)->runs[which];
  if (run->result)
    return 1;
  /* Below 1 until the result is there (1 means done). */
  return run->progress ? MIN (g_atomic_int_get (run->progress) / 1000.0, 0.999) : 0;
}

const GError *
ttv_tab_state_get_userspace_error (TtvTabState *state, TtvViewerUserspaceAnalysis which)
{
  g_return_val_if_fail (TTV_IS_TAB_STATE (state) && which < N_ANALYSES, NULL);
  return userspace_of (state)->runs[which].error;
}

gboolean
ttv_tab_state_compute_userspace (TtvTabState *state, TtvViewerUserspaceAnalysis which, GCancellable *cancellable,
                                 GError **error)
{
  g_return_val_if_fail (TTV_IS_TAB_STATE (state) && which < N_ANALYSES, FALSE);
  Userspace *u = userspace_of (state);
  Run *run = &u->runs[which];
  if (run->result)
    return TRUE;
  g_auto (GStrv) dirs = NULL;
  TtvAnalysisOptions options;
  options_init (&options, &dirs);
  TtvAnalysis *a = ttv_tab_state_run_analysis (state, class_of (which), &options, cancellable, error);
  if (a == NULL)
    return FALSE;
  /* A background run of the same, if any, is no longer needed. */
  run_clear (run);
  run->result = a;
  g_signal_emit_by_name (state, "userspace-ready");
  return TRUE;
}

static TtvAnalysis *
dup_result (TtvTabState *state, guint which)
{
  g_return_val_if_fail (TTV_IS_TAB_STATE (state), NULL);
  Run *run = &userspace_of (state)->runs[which];
  return run->result ? ttv_analysis_ref (run->result) : NULL;
}

/* --- Call stacks ------------------------------------------------------------------------ */

#define CALLSTACK(c) ttv_callstack_from_analysis ((const TtvAnalysis *) (c))

/* The SDK's records are libttv's, handed over as they are. */
G_STATIC_ASSERT (sizeof (TtvViewerCall) == sizeof (TtvCallstackCall));
G_STATIC_ASSERT (G_STRUCT_OFFSET (TtvViewerCall, function) == G_STRUCT_OFFSET (TtvCallstackCall, function));
G_STATIC_ASSERT (G_STRUCT_OFFSET (TtvViewerCall, hidden) == G_STRUCT_OFFSET (TtvCallstackCall, hidden));
G_STATIC_ASSERT (sizeof (TtvViewerFunctionStats) == sizeof (TtvCallstackFunctionStats));
G_STATIC_ASSERT (G_STRUCT_OFFSET (TtvViewerFunctionStats, mean) == G_STRUCT_OFFSET (TtvCallstackFunctionStats, mean));
G_STATIC_ASSERT (G_STRUCT_OFFSET (TtvViewerFunctionStats, p99) == G_STRUCT_OFFSET (TtvCallstackFunctionStats, p99));
G_STATIC_ASSERT ((guint) TTV_VIEWER_CALL_BEGAN_BEFORE == (guint) TTV_CALL_BEGAN_BEFORE);
G_STATIC_ASSERT ((guint) TTV_VIEWER_CALL_NO_EXIT == (guint) TTV_CALL_NO_EXIT);

TtvViewerCallstacks *
ttv_tab_state_dup_callstacks (TtvTabState *state)
{
  return (TtvViewerCallstacks *) dup_result (state, TTV_VIEWER_USERSPACE_CALLSTACKS);
}

TtvViewerCallstacks *
ttv_viewer_callstacks_ref (TtvViewerCallstacks *c)
{
  return (TtvViewerCallstacks *) ttv_analysis_ref ((TtvAnalysis *) c);
}

void
ttv_viewer_callstacks_unref (TtvViewerCallstacks *c)
{
  ttv_analysis_unref ((TtvAnalysis *) c);
}

guint
ttv_viewer_callstacks_get_n_threads (TtvViewerCallstacks *c)
{
  g_return_val_if_fail (c != NULL, 0);
  return ttv_callstack_get_n_threads (CALLSTACK (c));
}

gboolean
ttv_viewer_callstacks_get_thread (TtvViewerCallstacks *c, guint thread, TtvViewerCallstackThread *out)
{
  g_return_val_if_fail (c != NULL && out != NULL, FALSE);
  if (thread >= ttv_callstack_get_n_threads (CALLSTACK (c)))
    return FALSE;
  const TtvCallstackThread *t = ttv_callstack_get_thread (CALLSTACK (c), thread);
  *out = (TtvViewerCallstackThread) { t->tid, t->pid, t->name, t->n_depths, t->n_calls, t->first, t->last,
                                      t->machine };
  return TRUE;
}

gboolean
ttv_viewer_callstacks_get_function (TtvViewerCallstacks *c, guint32 function, TtvViewerFunction *out)
{
  g_return_val_if_fail (c != NULL && out != NULL, FALSE);
  if (function >= ttv_callstack_get_n_functions (CALLSTACK (c)))
    return FALSE;
  const TtvCallstackFunction *f = ttv_callstack_get_function (CALLSTACK (c), function);
  *out = (TtvViewerFunction) { f->addr, f->name, f->resolved, f->file, f->line, f->binary, f->machine };
  return TRUE;
}

GArray *
ttv_viewer_callstacks_query_calls (TtvViewerCallstacks *c, guint thread, guint depth, TtvTime t0, TtvTime t1,
                                   TtvTime resolution)
{
  g_return_val_if_fail (c != NULL, NULL);
  return ttv_callstack_query_calls (CALLSTACK (c), thread, depth, t0, t1, resolution);
}

GArray *
ttv_viewer_callstacks_dup_stack_at (TtvViewerCallstacks *c, guint thread, TtvTime time)
{
  g_return_val_if_fail (c != NULL, NULL);
  return ttv_callstack_dup_stack_at (CALLSTACK (c), thread, time);
}

GArray *
ttv_viewer_callstacks_dup_flame_graph (TtvViewerCallstacks *c, TtvTime t0, TtvTime t1, GArray *threads)
{
  g_return_val_if_fail (c != NULL, NULL);
  TtvCallstack *cs = CALLSTACK (c);
  g_autoptr (GArray) stats = ttv_callstack_dup_node_stats (cs, t0, t1, threads);
  GArray *out = g_array_sized_new (FALSE, FALSE, sizeof (TtvViewerFlameNode), stats->len);
  for (guint32 i = 0; i < stats->len; i++)
    {
      const TtvCallstackNode *n = ttv_callstack_get_node (cs, i);
      const TtvCallstackNodeStats *s = &g_array_index (stats, TtvCallstackNodeStats, i);
      TtvViewerFlameNode f = { n->parent, n->function, n->depth, n->name, s->calls, s->total, s->self };
      g_array_append_val (out, f);
    }
  return out;
}

GArray *
ttv_viewer_callstacks_dup_function_stats (TtvViewerCallstacks *c, TtvTime t0, TtvTime t1, GArray *threads)
{
  g_return_val_if_fail (c != NULL, NULL);
  return ttv_callstack_dup_function_stats (CALLSTACK (c), t0, t1, threads);
}

/* --- Memory ---------------------------------------------------------------------------- */

#define MEMORY(m) ttv_memory_from_analysis ((const TtvAnalysis *) (m))

TtvViewerMemory *
ttv_tab_state_dup_memory (TtvTabState *state)
{
  return (TtvViewerMemory *) dup_result (state, TTV_VIEWER_USERSPACE_MEMORY);
}

TtvViewerMemory *
ttv_viewer_memory_ref (TtvViewerMemory *m)
{
  return (TtvViewerMemory *) ttv_analysis_ref ((TtvAnalysis *) m);
}

void
ttv_viewer_memory_unref (TtvViewerMemory *m)
{
  ttv_analysis_unref ((TtvAnalysis *) m);
}

guint
ttv_viewer_memory_get_n_processes (TtvViewerMemory *m)
{
  g_return_val_if_fail (m != NULL, 0);
  return ttv_memory_get_n_processes (MEMORY (m));
}

gboolean
ttv_viewer_memory_get_process (TtvViewerMemory *m, guint process, TtvViewerMemoryProcess *out)
{
  g_return_val_if_fail (m != NULL && out != NULL, FALSE);
  if (process >= ttv_memory_get_n_processes (MEMORY (m)))
    return FALSE;
  const TtvMemoryProcess *p = ttv_memory_get_process (MEMORY (m), process);
  *out = (TtvViewerMemoryProcess) { p->pid, p->name, p->n_allocations + p->n_reallocations, p->n_frees,
                                    p->n_unknown_frees, p->n_failures, p->bytes_allocated, p->peak,
                                    p->in_use_at_end, p->peak_time, p->n_leaks, p->first, p->last, p->machine,
                                    p->traced_from, p->traced_to };
  return TRUE;
}

guint64
ttv_viewer_memory_get_usage_at (TtvViewerMemory *m, guint process, TtvTime time)
{
  g_return_val_if_fail (m != NULL && process < ttv_memory_get_n_processes (MEMORY (m)), 0);
  return ttv_memory_get_usage_at (MEMORY (m), process, time);
}

void
ttv_viewer_memory_query_usage (TtvViewerMemory *m, guint process, TtvTime t0, TtvTime t1, guint width,
                               guint64 *min, guint64 *max)
{
  g_return_if_fail (m != NULL && process < ttv_memory_get_n_processes (MEMORY (m)));
  ttv_memory_query_usage (MEMORY (m), process, t0, t1, width, min, max);
}

GArray *
ttv_viewer_memory_dup_leaks (TtvViewerMemory *m)
{
  g_return_val_if_fail (m != NULL, NULL);
  g_autoptr (GArray) groups = ttv_memory_dup_leak_groups (MEMORY (m));
  GArray *out = g_array_sized_new (FALSE, FALSE, sizeof (TtvViewerLeak), groups->len);
  for (guint i = 0; i < groups->len; i++)
    {
      const TtvMemoryLeakGroup *g = &g_array_index (groups, TtvMemoryLeakGroup, i);
      const TtvMemorySite *s = ttv_memory_get_site (MEMORY (m), g->site);
      TtvViewerLeak leak = { g->process, g->count, g->bytes, g->first, g->last, s->name, s->function, s->file,
                             s->line, s->owner != TTV_MEMORY_OWNER_PROGRAM };
      g_array_append_val (out, leak);
    }
  return out;
}

/* --- Symbols of events ---------------------------------------------------------------- */

char *
ttv_tab_state_dup_event_symbol (TtvTabState *state, const TtvViewerEvent *event, const char *field)
{
  g_return_val_if_fail (TTV_IS_TAB_STATE (state) && event != NULL && field != NULL, NULL);
  guint64 addr;
  if (!ttv_viewer_event_get_field_uint (event, field, &addr))
    return NULL;
  if (!ttv_tab_state_request_userspace (state, TTV_VIEWER_USERSPACE_SYMBOLS))
    return NULL;
  TtvTraceset *ts = ttv_tab_state_get_traceset (state);
  const TtvTrace *trace = (const TtvTrace *) ttv_viewer_event_get_trace (event);
  guint index = 0;
  while (index < ttv_traceset_get_n_traces (ts) && ttv_traceset_get_trace (ts, index) != trace)
    index++;
  gint64 vpid;
  if (!ttv_viewer_event_get_field_int (event, "vpid", &vpid))
    vpid = -1;
  /* ip (but cyg-profile's) and call_site are where a call returns to: the
   * call's line. */
  gboolean return_address = ttv_ust_field_is_return_address (ttv_viewer_event_get_name (event), field);
  const TtvSymbols *symbols = ttv_symbols_from_analysis (userspace_of (state)->runs[TTV_VIEWER_USERSPACE_SYMBOLS].result);
  return ttv_symbols_dup_name (symbols, index, vpid, addr, ttv_viewer_event_get_time (event), return_address);
}
