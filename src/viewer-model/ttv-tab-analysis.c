/* ttv-tab-analysis.c: a tab's analysis results (see ttv-tab-analysis.h) and
 * the SDK's queries on them: event count and density, the system state at a
 * time, the statistics of the traceset or of an interval, the state
 * history. */
#include "ttv-config.h"

#include "ttv-tab-analysis.h"

#include "ttv-stats-tree.h"
#include "ttv-tab-state-private.h"
#include "ttv-viewer-history.h"

#include <string.h>

struct _TtvTabAnalysis {
  guint64 n_events;
  gboolean n_events_complete;
  GArray *density;               /* owned, may be NULL */
  TtvDensityBins density_bins;   /* how density cuts time, when there is one */
  GHashTable *type_density;      /* owned, may be NULL: name -> GArray of guint32 */
  TtvSharedTracker *shared;      /* owned reference, NULL until the state pass is done */
  TtvKernelModel *model;         /* owned, with @shared: applies events to requests' states */
  TtvStatistics *statistics;     /* owned, with @shared */
  TtvStatsNode *stats;           /* owned: their tree, made when first asked for */
  TtvViewerHistory *history;     /* owned, NULL until built */
  guint n_workers;               /* statistics computations reading the traceset */
};

TtvTabAnalysis *
ttv_tab_analysis_new (void)
{
  return g_new0 (TtvTabAnalysis, 1);
}

static void
forget_state (TtvTabAnalysis *a)
{
  g_clear_pointer (&a->shared, ttv_shared_tracker_unref);
  g_clear_pointer (&a->model, ttv_kernel_model_free);
  g_clear_pointer (&a->stats, ttv_stats_node_unref);
  g_clear_pointer (&a->statistics, ttv_statistics_free);
}

gboolean
ttv_tab_analysis_reset (TtvTabAnalysis *a)
{
  gboolean had_history = a->history != NULL;

  a->n_events = 0;
  a->n_events_complete = FALSE;
  g_clear_pointer (&a->density, g_array_unref);
  g_clear_pointer (&a->type_density, g_hash_table_unref);
  forget_state (a);
  g_clear_pointer (&a->history, ttv_viewer_history_unref);
  return had_history;
}

void
ttv_tab_analysis_free (TtvTabAnalysis *a)
{
  if (!a)
    return;
  ttv_tab_analysis_reset (a);
  g_free (a);
}

void
ttv_tab_analysis_set_density (TtvTabAnalysis *a, guint64 n_events, GArray *density, GHashTable *type_density,
                              const TtvDensityBins *bins)
{
  a->density_bins = *bins;
  a->n_events = n_events;
  a->n_events_complete = TRUE;
  g_clear_pointer (&a->density, g_array_unref);
  a->density = density;
  g_clear_pointer (&a->type_density, g_hash_table_unref);
  a->type_density = type_density;
}

GArray *
ttv_tab_analysis_get_density (TtvTabAnalysis *a)
{
  return a->density;
}

const TtvDensityBins *
ttv_tab_analysis_get_density_bins (TtvTabAnalysis *a)
{
  return a->density ? &a->density_bins : NULL;
}

void
ttv_tab_analysis_set_state_pass (TtvTabAnalysis *a, TtvTraceset *ts, TtvStateTracker *tracker,
                                 TtvStatistics *statistics)
{
  g_autoptr (GPtrArray) traces = g_ptr_array_new ();

  forget_state (a);
  if (!tracker)
    {
      ttv_statistics_free (statistics);
      return;
    }
  for (guint i = 0; i < ttv_traceset_get_n_traces (ts); i++)
    g_ptr_array_add (traces, ttv_traceset_get_trace (ts, i));
  a->shared = ttv_shared_tracker_new (tracker);
  a->model = ttv_kernel_model_new (traces);
  a->statistics = statistics;
}

TtvSharedTracker *
ttv_tab_analysis_get_shared (TtvTabAnalysis *a)
{
  return a->shared;
}

TtvKernelModel *
ttv_tab_analysis_get_model (TtvTabAnalysis *a)
{
  return a->model;
}

void
ttv_tab_analysis_set_history (TtvTabAnalysis *a, TtvTraceset *traceset, TtvHistory *history)
{
  g_clear_pointer (&a->history, ttv_viewer_history_unref);
  if (history)
    a->history = ttv_viewer_history_new (history, traceset);
}

void
ttv_tab_analysis_add_workers (TtvTabAnalysis *a, gint delta)
{
  a->n_workers = (guint) ((gint) a->n_workers + delta);
}

guint
ttv_tab_analysis_get_n_workers (TtvTabAnalysis *a)
{
  return a->n_workers;
}

/* --- Event count and density ------------------------------------------------------ */

guint64
ttv_tab_state_get_event_count (TtvTabState *state, gboolean *complete)
{
  TtvTabAnalysis *a;

  g_return_val_if_fail (TTV_IS_TAB_STATE (state), 0);
  a = ttv_tab_state_get_analysis (state);
  if (complete)
    *complete = a->n_events_complete;
  return a->n_events;
}

GArray *
ttv_tab_state_dup_density (TtvTabState *state, const char *event_name)
{
  TtvTabAnalysis *a;
  GArray *src, *copy;

  g_return_val_if_fail (TTV_IS_TAB_STATE (state), NULL);
  a = ttv_tab_state_get_analysis (state);
  if (!event_name)
    src = a->density;
  else
    src = a->type_density ? g_hash_table_lookup (a->type_density, event_name) : NULL;
  if (!src)
    return event_name && a->density ? g_array_set_size (g_array_sized_new (FALSE, TRUE, sizeof (guint32),
                                                                           a->density->len),
                                                        a->density->len)
                                    : NULL;
  copy = g_array_sized_new (FALSE, FALSE, sizeof (guint32), src->len);
  g_array_append_vals (copy, src->data, src->len);
  return copy;
}

TtvTime
ttv_tab_state_get_density_bin_start (TtvTabState *state, guint bin)
{
  const TtvDensityBins *bins;
  TtvTime s0, s1;

  g_return_val_if_fail (TTV_IS_TAB_STATE (state), 0);
  bins = ttv_tab_analysis_get_density_bins (ttv_tab_state_get_analysis (state));
  if (bins)
    return ttv_density_bins_get_bin_start (bins, bin);
  ttv_tab_state_get_time_span (state, &s0, &s1);
  return bin == 0 ? s0 : s1;
}

guint
ttv_tab_state_get_density_bin_of (TtvTabState *state, TtvTime time)
{
  const TtvDensityBins *bins;

  g_return_val_if_fail (TTV_IS_TAB_STATE (state), 0);
  bins = ttv_tab_analysis_get_density_bins (ttv_tab_state_get_analysis (state));
  return bins ? ttv_density_bins_bin_of (bins, time) : 0;
}

static gint
compare_strings (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(char * const *) a, *(char * const *) b);
}

GStrv
ttv_tab_state_dup_density_names (TtvTabState *state)
{
  GPtrArray *names = g_ptr_array_new ();
  GHashTable *types;
  GHashTableIter iter;
  gpointer key;

  g_return_val_if_fail (TTV_IS_TAB_STATE (state), NULL);
  types = ttv_tab_state_get_analysis (state)->type_density;
  if (types)
    {
      g_hash_table_iter_init (&iter, types);
      while (g_hash_table_iter_next (&iter, &key, NULL))
        g_ptr_array_add (names, g_strdup (key));
    }
  g_ptr_array_sort (names, compare_strings);
  g_ptr_array_add (names, NULL);
  return (GStrv) g_ptr_array_free (names, FALSE);
}

/* --- System state ------------------------------------------------------------------ */

gboolean
ttv_tab_analysis_fill_process_info (const TtvState *state, gint cpu, TtvViewerProcessInfo *info)
{
  const TtvProcessState *p = state && cpu >= 0 ? ttv_state_get_event_process (state, cpu) : NULL;

  memset (info, 0, sizeof *info);
  info->pid = TTV_VIEWER_PID_NONE;
  info->tgid = TTV_VIEWER_PID_NONE;
  info->name = "";
  info->mode = ttv_exec_mode_name (TTV_MODE_UNKNOWN);
  if (!p)
    return FALSE;
  info->pid = p->pid;
  info->tgid = p->tgid;
  info->name = p->name ? g_quark_to_string (p->name) : "";
  info->mode = ttv_exec_mode_name (ttv_process_state_get_mode (p));
  info->syscall = ttv_state_get_event_syscall (state, cpu);
  return TRUE;
}

gboolean
ttv_tab_state_is_state_ready (TtvTabState *state)
{
  g_return_val_if_fail (TTV_IS_TAB_STATE (state), FALSE);
  return ttv_tab_state_get_analysis (state)->shared != NULL;
}

gboolean
ttv_tab_state_get_process_at (TtvTabState *state, TtvTime time, gint cpu, TtvViewerProcessInfo *info)
{
  TtvSharedTracker *shared;
  g_autoptr (TtvState) at = NULL;
  g_autoptr (GError) error = NULL;

  g_return_val_if_fail (TTV_IS_TAB_STATE (state), FALSE);
  g_return_val_if_fail (info != NULL, FALSE);
  shared = ttv_tab_state_get_analysis (state)->shared;
  if (shared)
    at = ttv_shared_tracker_dup_state_at (shared, time, &error);
  if (error)
    g_warning ("state at %" G_GINT64_FORMAT ": %s", time, error->message);
  return ttv_tab_analysis_fill_process_info (at, cpu, info);
}

/* --- Statistics --------------------------------------------------------------------
 * The SDK's statistics nodes are the analysis layer's tree nodes, read
 * through accessors (ttv-viewer-stats.c). */

#define VIEWER_NODE(n) ((TtvViewerStatsNode *) (n))

TtvViewerStatsNode *
ttv_tab_state_get_statistics (TtvTabState *state)
{
  TtvTabAnalysis *a;

  g_return_val_if_fail (TTV_IS_TAB_STATE (state), NULL);
  a = ttv_tab_state_get_analysis (state);
  if (a->stats == NULL && a->statistics)
    a->stats = ttv_stats_tree_new (a->statistics, ttv_tab_state_get_traceset (state));
  return VIEWER_NODE (a->stats);
}

/* A statistics computation in a thread: counted, so that the traceset is
 * not refreshed under its feet. */
typedef struct {
  TtvTabState *state;            /* owned reference: it owns the analysis */
  GAsyncReadyCallback callback;
  gpointer user_data;
} StatsCall;

static void
stats_call_done (GObject *source, GAsyncResult *result, gpointer data)
{
  StatsCall *call = data;

  ttv_tab_state_get_analysis (call->state)->n_workers--;
  call->callback (source, result, call->user_data);
  g_object_unref (call->state);
  g_free (call);
}

void
ttv_tab_state_compute_statistics_async (TtvTabState *state, TtvTime start, TtvTime end,
                                        GCancellable *cancellable, GAsyncReadyCallback callback,
                                        gpointer user_data)
{
  TtvTabAnalysis *a;
  StatsCall *call;

  g_return_if_fail (TTV_IS_TAB_STATE (state));
  a = ttv_tab_state_get_analysis (state);
  call = g_new0 (StatsCall, 1);
  call->state = g_object_ref (state);
  call->callback = callback;
  call->user_data = user_data;
  a->n_workers++;
  ttv_interval_stats_run_async (ttv_tab_state_get_traceset (state), a->shared, MIN (start, end),
                                MAX (start, end), cancellable, stats_call_done, call);
}

TtvViewerStatsNode *
ttv_tab_state_compute_statistics_finish (TtvTabState *state, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (TTV_IS_TAB_STATE (state), NULL);
  return VIEWER_NODE (ttv_interval_stats_run_finish (result, error));
}

TtvViewerStatsNode *
ttv_tab_state_compute_statistics (TtvTabState *state, TtvTime start, TtvTime end,
                                  GCancellable *cancellable, GError **error)
{
  TtvTabAnalysis *a;
  TtvStatsNode *node;

  g_return_val_if_fail (TTV_IS_TAB_STATE (state), NULL);
  a = ttv_tab_state_get_analysis (state);
  a->n_workers++;
  node = ttv_interval_stats_run (ttv_tab_state_get_traceset (state), a->shared, MIN (start, end),
                                 MAX (start, end), cancellable, error);
  a->n_workers--;
  return VIEWER_NODE (node);
}

/* --- State history ------------------------------------------------------------------ */

TtvViewerHistory *
ttv_tab_state_dup_history (TtvTabState *state)
{
  TtvViewerHistory *h;

  g_return_val_if_fail (TTV_IS_TAB_STATE (state), NULL);
  h = ttv_tab_state_get_analysis (state)->history;
  return h ? ttv_viewer_history_ref (h) : NULL;
}
