/* ttv-view-job.h: a viewer's computation in a worker thread (the CPU usage,
 * critical path, latency and userspace views; compiled into each): the
 * newer job cancels the one still running, whose result is then dropped. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Cancels the job of *@computing, if any, and forgets it. */
void        ttv_view_job_cancel (GCancellable **computing);
/* Cancels the job of *@computing and runs @thread on @job (freed with
 * @job_free) in a worker thread under a new *@computing; @done then gets a
 * reference to @viewer as its data, which it releases. */
void        ttv_view_job_run (GCancellable **computing, gpointer viewer, gpointer job, GDestroyNotify job_free,
                              GTaskThreadFunc thread, GAsyncReadyCallback done);
/* From @thread: @result (freed with @result_free if never taken), or
 * @error (taken over) when @result is NULL. */
void        ttv_view_job_return (GTask *task, gpointer result, GDestroyNotify result_free, GError *error);
/* TRUE when the job that gave @result was cancelled (its result is stale). */
gboolean    ttv_view_job_is_stale (GAsyncResult *result);

G_END_DECLS
