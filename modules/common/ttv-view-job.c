/* ttv-view-job.c: a viewer's computation in a worker thread (see
 * ttv-view-job.h); the viewers' cancellable is the job's identity. */
#include "ttv-view-job.h"

void
ttv_view_job_cancel (GCancellable **computing)
{
  if (*computing)
    g_cancellable_cancel (*computing);
  g_clear_object (computing);
}

void
ttv_view_job_run (GCancellable **computing, gpointer viewer, gpointer job, GDestroyNotify job_free,
                  GTaskThreadFunc thread, GAsyncReadyCallback done)
{
  ttv_view_job_cancel (computing);
  *computing = g_cancellable_new ();
  g_autoptr (GTask) task = g_task_new (NULL, *computing, done, g_object_ref (viewer));
  g_task_set_task_data (task, job, job_free);
  g_task_run_in_thread (task, thread);
}

void
ttv_view_job_return (GTask *task, gpointer result, GDestroyNotify result_free, GError *error)
{
  if (result)
    g_task_return_pointer (task, result, result_free);
  else
    g_task_return_error (task, error);
}

gboolean
ttv_view_job_is_stale (GAsyncResult *result)
{
  return g_cancellable_is_cancelled (g_task_get_cancellable (G_TASK (result)));
}
