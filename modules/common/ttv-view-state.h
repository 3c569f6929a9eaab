/* ttv-view-state.h: a viewer's hold on its tab's state (the CPU usage,
 * critical path, latency and userspace views; compiled into each): let go
 * on dispose with the handlers the viewer connected to it. */
#pragma once

#include "ttv-viewer.h"

G_BEGIN_DECLS

/* Disconnects the @n_handlers ids of @handlers (0: none) from *@state and
 * drops *@state; nothing when it is already NULL (disposed twice). */
void        ttv_view_state_release (TtvTabState **state, gulong *handlers, guint n_handlers);

G_END_DECLS
