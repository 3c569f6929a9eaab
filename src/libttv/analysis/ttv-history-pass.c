/* ttv-history-pass.c: builds a traceset's state history in a GTask thread
 * (the viewer's third background stage) or waited for (ttv --render). */
#include "ttv-history-pass.h"

#include "ttv-pass-memory.h"

typedef struct {
  TtvTraceset *traceset;       /* owned reference */
  gint *progress;              /* owned reference (g_atomic_rc_box), may be NULL */
  guint64 cache_max;           /* the cache's cap in bytes, 0: automatic */
} PassJob;

static void
pass_job_free (PassJob *job)
{
  ttv_traceset_unref (job->traceset);
  if (job->progress)
    g_atomic_rc_box_release (job->progress);
  g_free (job);
}

static void
pass_progress (double fraction, gpointer data)
{
  if (data)
    g_atomic_int_set ((gint *) data, (gint) CLAMP (fraction * 1000, 0, 1000));
}

static TtvHistory *
build (TtvTraceset *traceset, guint64 cache_max, gint *progress, GCancellable *cancellable,
       GError **error)
{
  TtvHistoryOptions opt = { 0 };

  opt.no_cache = g_getenv ("TTV_HISTORY_NO_CACHE") != NULL;
  opt.cache_max_bytes = cache_max;
  return ttv_history_build (traceset, &opt, pass_progress, progress, cancellable, error);
}

static void
pass_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  PassJob *job = data;
  GError *error = NULL;
  TtvHistory *h = build (job->traceset, job->cache_max, job->progress, cancellable, &error);

  if (!h)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, h, (GDestroyNotify) ttv_history_free);
  ttv_pass_give_back_memory ();
}

void
ttv_history_pass_run_async (TtvTraceset *traceset, guint64 cache_max, gint *progress,
                            GCancellable *cancellable, GAsyncReadyCallback callback,
                            gpointer user_data)
{
  g_autoptr (GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  PassJob *job = g_new0 (PassJob, 1);

  job->traceset = ttv_traceset_ref (traceset);
  job->progress = progress ? g_atomic_rc_box_acquire (progress) : NULL;
  job->cache_max = cache_max;
  g_task_set_task_data (task, job, (GDestroyNotify) pass_job_free);
  g_task_run_in_thread (task, pass_thread);
}

TtvHistory *
ttv_history_pass_run_finish (GAsyncResult *result, GError **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

TtvHistory *
ttv_history_pass_build (TtvTraceset *traceset, guint64 cache_max, GCancellable *cancellable,
                        GError **error)
{
  return build (traceset, cache_max, NULL, cancellable, error);
}
