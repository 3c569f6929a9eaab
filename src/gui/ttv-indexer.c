/* ttv-indexer.c: the first read of a traceset in a GTask thread (event
 * count, density histogram); cancellable, with progress by blocks read. */
#include "ttv-config.h"

#include "ttv-indexer.h"

typedef struct {
  TtvTraceset *traceset;    /* owned reference */
  guint n_bins;
  gint *progress;           /* owned reference: a g_atomic_rc_box shared with the tab */
} IndexJob;

static void
index_job_free (IndexJob *job)
{
  ttv_traceset_unref (job->traceset);
  g_atomic_rc_box_release (job->progress);
  g_free (job);
}

void
ttv_index_result_free (TtvIndexResult *result)
{
  if (!result)
    return;
  g_clear_pointer (&result->density, g_array_unref);
  g_free (result);
}

static void
index_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  IndexJob *job = data;
  TtvTraceset *ts = job->traceset;
  g_autoptr (TtvIndexResult) result = g_new0 (TtvIndexResult, 1);
  TtvTime start = ttv_traceset_get_start (ts), end = ttv_traceset_get_end (ts);
  double span = end > start ? (double) (end - start) : 1.0;
  guint n = ttv_traceset_get_n_tracefiles (ts);
  guint64 total_blocks = 0, done_blocks = 0;

  result->density = g_array_sized_new (FALSE, TRUE, sizeof (guint32), job->n_bins);
  g_array_set_size (result->density, job->n_bins);
  for (guint i = 0; i < n; i++)
    total_blocks += ttv_traceset_get_tracefile (ts, i)->n_blocks;

  for (guint i = 0; i < n; i++)
    {
      TtvTracefile *tf = ttv_traceset_get_tracefile (ts, i);
      g_autoptr (TtvCursor) cursor = NULL;
      GError *error = NULL;
      TtvEvent ev;
      guint64 k = 0;

      cursor = ttv_cursor_new (tf, &error);
      if (!cursor)
        {
          g_task_return_error (task, error);
          return;
        }
      while (ttv_cursor_next (cursor, &ev, &error))
        {
          gint64 bin = (gint64) ((double) (ev.time - start) / span * job->n_bins);

          bin = CLAMP (bin, 0, (gint64) job->n_bins - 1);
          g_array_index (result->density, guint32, bin)++;
          result->n_events++;
          if (++k % 8192 == 0)
            {
              if (g_cancellable_is_cancelled (cancellable))
                {
                  g_task_return_error_if_cancelled (task);
                  return;
                }
              if (total_blocks)
                g_atomic_int_set (job->progress,
                                  (gint) (1000 * (done_blocks + ev.pos.block) / total_blocks));
            }
        }
      if (error)
        {
          g_task_return_error (task, error);
          return;
        }
      done_blocks += tf->n_blocks;
    }
  g_atomic_int_set (job->progress, 1000);
  g_task_return_pointer (task, g_steal_pointer (&result), (GDestroyNotify) ttv_index_result_free);
}

void
ttv_indexer_run_async (TtvTraceset *traceset, guint n_bins, gint *progress,
                       GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr (GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  IndexJob *job = g_new0 (IndexJob, 1);

  job->traceset = ttv_traceset_ref (traceset);
  job->n_bins = MAX (1, n_bins);
  job->progress = g_atomic_rc_box_acquire (progress);
  g_task_set_task_data (task, job, (GDestroyNotify) index_job_free);
  g_task_set_return_on_cancel (task, FALSE);
  g_task_run_in_thread (task, index_thread);
}

TtvIndexResult *
ttv_indexer_run_finish (GAsyncResult *result, GError **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}
