/* ttv-viewer-history.h: the hand-over of a built state history to the
 * tab's state, where modules find it (ttv_tab_state_dup_history). */
#pragma once

#include "ttv-history.h"
#include "ttv-viewer.h"

G_BEGIN_DECLS

/* Takes @history (transfer full; NULL forgets it) and emits
 * "statistics-changed".  Forgotten when the traceset changes. */
void        ttv_tab_state_set_history (TtvTabState *state, TtvHistory *history);

G_END_DECLS
