/* ttv-view-state.c: a viewer's hold on its tab's state (see
 * ttv-view-state.h). */
#include "ttv-view-state.h"

void
ttv_view_state_release (TtvTabState **state, gulong *handlers, guint n_handlers)
{
  if (*state)
    for (guint i = 0; i < n_handlers; i++)
      g_clear_signal_handler (&handlers[i], *state);
  g_clear_object (state);
}
