/* ttv-controlflow-rows-kept.h: the control flow rows a user hid and pinned,
 * kept per traceset across restarts (the "controlflow-rows" setting). */
#pragma once

#include "ttv-viewer.h"

G_BEGIN_DECLS

/* Fills @hidden (a set of guint64 row keys, allocated: the table frees
 * them) and @pinned (of guint64 row keys, in the order pinned) with what
 * was kept for @state's traceset (nothing when none, or without the
 * setting). */
void ttv_controlflow_rows_load (TtvTabState *state, GHashTable *hidden, GArray *pinned);
/* Keeps @hidden and @pinned for @state's traceset (forgets it when both are
 * empty). */
void ttv_controlflow_rows_save (TtvTabState *state, GHashTable *hidden, GArray *pinned);

G_END_DECLS
