/* ttv-history-pass.h: the tab's third background stage, the state history
 * (built in a worker thread after the state pass), and its hand-over to
 * the tab's state, where modules find it (ttv_tab_state_dup_history). */
#pragma once

#include <gio/gio.h>

#include "ttv-state-history.h"
#include "ttv-viewer.h"

G_BEGIN_DECLS

/* Builds the history of @traceset in a thread (on-disk cache in the user's
 * cache dir unless $TTV_HISTORY_NO_CACHE is set).  *@progress (a
 * g_atomic_rc_box gint, 0..1000) is updated as it goes. */
void        ttv_history_pass_run_async (TtvTraceset *traceset, gint *progress,
                                        GCancellable *cancellable,
                                        GAsyncReadyCallback callback, gpointer user_data);
/* Transfer full. */
TtvStateHistory *ttv_history_pass_run_finish (GAsyncResult *result, GError **error);
/* The same, synchronously (ttv --render). */
TtvStateHistory *ttv_history_pass_build (TtvTraceset *traceset, GCancellable *cancellable,
                                         GError **error);

/* Takes @history (transfer full; NULL forgets it) and emits
 * "statistics-changed".  Forgotten when the traceset changes. */
void        ttv_tab_state_set_history (TtvTabState *state, TtvStateHistory *history);

G_END_DECLS
