/* ttv-state-pass.c: the state pass and interval statistics in GTask
 * threads (see ttv-state-pass.h).  The tracker is used only by the thread
 * that builds it until the result is handed to the main thread. */
#include "ttv-state-pass.h"

#include "ttv-pass-memory.h"

#include "ttv-stats-tree.h"

/* --- The shared tracker ---------------------------------------------------- */

static void
shared_clear (TtvSharedTracker *shared)
{
  ttv_state_tracker_free (shared->tracker);
  g_mutex_clear (&shared->lock);
}

TtvSharedTracker *
ttv_shared_tracker_new (TtvStateTracker *tracker)
{
  TtvSharedTracker *shared = g_atomic_rc_box_new0 (TtvSharedTracker);

  g_mutex_init (&shared->lock);
  shared->tracker = tracker;
  return shared;
}

TtvSharedTracker *
ttv_shared_tracker_ref (TtvSharedTracker *shared)
{
  return g_atomic_rc_box_acquire (shared);
}

void
ttv_shared_tracker_unref (TtvSharedTracker *shared)
{
  if (shared)
    g_atomic_rc_box_release_full (shared, (GDestroyNotify) shared_clear);
}

TtvState *
ttv_shared_tracker_dup_state_at (TtvSharedTracker *shared, TtvTime time, GError **error)
{
  TtvState *state;

  g_mutex_lock (&shared->lock);
  state = ttv_state_tracker_dup_state_at (shared->tracker, time, error);
  g_mutex_unlock (&shared->lock);
  return state;
}

/* --- The whole pass -------------------------------------------------------- */

typedef struct {
  TtvTraceset *traceset;   /* owned reference */
  guint64 interval;
  gint *progress;          /* owned reference (g_atomic_rc_box) */
} PassJob;

static void
pass_job_free (PassJob *job)
{
  ttv_traceset_unref (job->traceset);
  g_atomic_rc_box_release (job->progress);
  g_free (job);
}

void
ttv_state_pass_result_free (TtvStatePassResult *result)
{
  if (!result)
    return;
  ttv_state_tracker_free (result->tracker);
  ttv_statistics_free (result->statistics);
  g_free (result);
}

static void
pass_progress (double fraction, gpointer data)
{
  g_atomic_int_set ((gint *) data, (gint) CLAMP (fraction * 1000, 0, 1000));
}

static void
pass_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  PassJob *job = data;
  /* The checkpoints' states go to an unnamed file in the cache directory:
   * memory keeps only where they are, whatever the trace's size (thinned
   * beyond 16 MiB if that file cannot be made). */
  g_autofree char *spill_dir = g_build_filename (g_get_user_cache_dir (), "ttv", NULL);
  TtvCheckpointPolicy policy = { job->interval, 16u << 20, spill_dir, 0 };
  g_autoptr (TtvStateTracker) tracker = ttv_state_tracker_new (job->traceset, &policy);
  TtvStatePassResult *result;
  GError *error = NULL;

  if (!ttv_state_tracker_build (tracker, pass_progress, job->progress, cancellable, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  result = g_new0 (TtvStatePassResult, 1);
  /* CPU time up to the last event, then the statistics taken from the
   * tracker, whose later replays would count into them.  Their tree
   * (hundreds of thousands of nodes on large traces) is made only when a
   * view asks for it. */
  ttv_statistics_account_until (ttv_state_tracker_get_statistics (tracker), ttv_state_tracker_get_state (tracker),
                                ttv_state_get_time (ttv_state_tracker_get_state (tracker)));
  result->statistics = ttv_state_tracker_steal_statistics (tracker);
  result->tracker = g_steal_pointer (&tracker);
  g_task_return_pointer (task, result, (GDestroyNotify) ttv_state_pass_result_free);
  ttv_pass_give_back_memory ();
}

void
ttv_state_pass_run_async (TtvTraceset *traceset, guint64 checkpoint_interval, gint *progress,
                          GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr (GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  PassJob *job = g_new0 (PassJob, 1);

  job->traceset = ttv_traceset_ref (traceset);
  job->interval = checkpoint_interval;
  job->progress = g_atomic_rc_box_acquire (progress);
  g_task_set_task_data (task, job, (GDestroyNotify) pass_job_free);
  g_task_run_in_thread (task, pass_thread);
}

TtvStatePassResult *
ttv_state_pass_run_finish (GAsyncResult *result, GError **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

/* --- Statistics of an interval -------------------------------------------- */

typedef struct {
  TtvTraceset *traceset;       /* owned reference */
  TtvSharedTracker *shared;    /* owned reference, NULL: replay from the trace start */
  TtvTime start, end;
} IntervalJob;

static void
interval_job_free (IntervalJob *job)
{
  ttv_traceset_unref (job->traceset);
  if (job->shared)
    ttv_shared_tracker_unref (job->shared);
  g_free (job);
}

/* The state before @start: from the tracker's checkpoints, or else a new
 * state that the events before @start are applied to. */
static TtvState *
state_before (IntervalJob *job, TtvKernelModel *model, GPtrArray *traces, GError **error)
{
  TtvState *state;

  if (job->shared)
    return ttv_shared_tracker_dup_state_at (job->shared, job->start == TTV_TIME_MIN ? job->start
                                            : job->start - 1, error);
  state = ttv_state_new ();
  for (guint i = 0; i < traces->len; i++)
    ttv_kernel_model_apply_initial (model, state, traces->pdata[i]);
  return state;
}

/* The statistics of the job's interval (NULL with @error when reading
 * fails or @cancellable is cancelled). */
static TtvStatistics *
interval_statistics (IntervalJob *job, GCancellable *cancellable, GError **error)
{
  TtvTraceset *ts = job->traceset;
  g_autoptr (GPtrArray) traces = g_ptr_array_new ();
  g_autoptr (TtvKernelModel) model = NULL;
  g_autoptr (TtvStatistics) stats = NULL;
  g_autoptr (TtvState) state = NULL;
  g_autoptr (TtvContext) ctx = NULL;
  const TtvEvent *ev;
  GError *local = NULL;
  guint64 n = 0;
  gboolean seek;

  for (guint i = 0; i < ttv_traceset_get_n_traces (ts); i++)
    g_ptr_array_add (traces, ttv_traceset_get_trace (ts, i));
  /* The state before the interval, then the interval's events applied with
   * a model and statistics of this computation's own. */
  model = ttv_kernel_model_new (traces);
  state = state_before (job, model, traces, error);
  if (!state)
    return NULL;
  stats = ttv_statistics_new (traces);
  ttv_statistics_observe (stats, state);
  ttv_statistics_set_start (stats, job->start);
  ctx = ttv_context_new (ts, error);
  seek = ctx && (job->shared ? ttv_context_seek_time (ctx, job->start, error)
                             : ttv_context_seek_begin (ctx, error));
  if (!seek)
    return NULL;
  while ((ev = ttv_context_next (ctx, &local)) != NULL && ev->time <= job->end)
    {
      guint trace = ttv_traceset_get_stream_trace (ts, ttv_context_get_stream (ctx));

      ttv_kernel_model_apply (model, state, trace, ev);
      if (ev->time >= job->start)
        ttv_statistics_count_event (stats, trace, ev, state);
      if ((++n & 0xffff) == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
    }
  if (local)
    {
      g_propagate_error (error, local);
      return NULL;
    }
  /* CPU time up to the end of the interval, or of the events when they
   * end before it: what follows the last event is not known. */
  ttv_statistics_account_until (stats, state, ev ? job->end : ttv_state_get_time (state));
  return g_steal_pointer (&stats);
}

static void
interval_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  IntervalJob *job = data;
  GError *error = NULL;
  g_autoptr (TtvStatistics) stats = interval_statistics (job, cancellable, &error);

  if (!stats)
    {
      g_task_return_error (task, error);
      return;
    }
  g_task_return_pointer (task, ttv_stats_tree_new_full (stats, job->traceset, job->start, job->end, TRUE),
                         (GDestroyNotify) ttv_stats_node_unref);
}

static GTask *
new_interval_task (TtvTraceset *traceset, TtvSharedTracker *shared, TtvTime start, TtvTime end,
                   GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  GTask *task = g_task_new (NULL, cancellable, callback, user_data);
  IntervalJob *job = g_new0 (IntervalJob, 1);

  job->traceset = ttv_traceset_ref (traceset);
  job->shared = shared ? ttv_shared_tracker_ref (shared) : NULL;
  job->start = start;
  job->end = end;
  g_task_set_task_data (task, job, (GDestroyNotify) interval_job_free);
  return task;
}

void
ttv_interval_stats_run_async (TtvTraceset *traceset, TtvSharedTracker *shared, TtvTime start,
                              TtvTime end, GCancellable *cancellable, GAsyncReadyCallback callback,
                              gpointer user_data)
{
  g_autoptr (GTask) task = new_interval_task (traceset, shared, start, end, cancellable, callback, user_data);

  g_task_run_in_thread (task, interval_thread);
}

TtvStatsNode *
ttv_interval_stats_run (TtvTraceset *traceset, TtvSharedTracker *shared, TtvTime start, TtvTime end,
                        GCancellable *cancellable, GError **error)
{
  IntervalJob job = { traceset, shared, start, end };
  g_autoptr (TtvStatistics) stats = interval_statistics (&job, cancellable, error);

  return stats ? ttv_stats_tree_new_full (stats, traceset, start, end, TRUE) : NULL;
}

TtvStatistics *
ttv_interval_statistics_run (TtvTraceset *traceset, TtvTime start, TtvTime end, GCancellable *cancellable,
                             GError **error)
{
  IntervalJob job = { traceset, NULL, start, end };

  return interval_statistics (&job, cancellable, error);
}

TtvStatsNode *
ttv_interval_stats_run_finish (GAsyncResult *result, GError **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}
