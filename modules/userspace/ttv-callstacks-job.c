/* ttv-callstacks-job.c: a userspace view's computation over the call
 * stacks in its interval (see ttv-callstacks-job.h). */
#include "ttv-callstacks-job.h"
#include "ttv-userspace-common.h"
#include "ttv-view-job.h"

static void
job_free (TtvCallstacksJob *job)
{
  ttv_viewer_callstacks_unref (job->cs);
  g_strfreev (job->machines);
  g_free (job);
}

void
ttv_callstacks_job_run (GCancellable **building, gpointer view, TtvTabState *state, TtvViewerCallstacks *cs,
                        GTaskThreadFunc thread, GAsyncReadyCallback done)
{
  ttv_view_job_cancel (building);
  if (cs == NULL)
    return;
  TtvCallstacksJob *job = g_new0 (TtvCallstacksJob, 1);
  job->cs = ttv_viewer_callstacks_ref (cs);
  job->machines = ttv_userspace_dup_machine_names (state);
  ttv_userspace_get_interval (state, &job->t0, &job->t1);
  ttv_view_job_run (building, view, job, (GDestroyNotify) job_free, thread, done);
}
