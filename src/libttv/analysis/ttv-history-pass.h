/* ttv-history-pass.h: the viewer's third background stage, the state
 * history of a traceset, built in a worker thread after the state pass (or
 * waited for, by ttv --render and tests). */
#pragma once

#include <gio/gio.h>

#include "ttv-history.h"

G_BEGIN_DECLS

/* Builds the history of @traceset in a thread (on-disk cache in the user's
 * cache dir unless $TTV_HISTORY_NO_CACHE is set, capped at @cache_max bytes,
 * 0: automatic).  *@progress (a g_atomic_rc_box gint, 0..1000) is updated
 * as it goes. */
void        ttv_history_pass_run_async (TtvTraceset *traceset, guint64 cache_max, gint *progress,
                                        GCancellable *cancellable,
                                        GAsyncReadyCallback callback, gpointer user_data);
/* Transfer full. */
TtvHistory *ttv_history_pass_run_finish (GAsyncResult *result, GError **error);
/* The same, synchronously (ttv --render). */
TtvHistory *ttv_history_pass_build (TtvTraceset *traceset, guint64 cache_max,
                                    GCancellable *cancellable, GError **error);

G_END_DECLS
