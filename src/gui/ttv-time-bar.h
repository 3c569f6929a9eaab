/* ttv-time-bar.h: the tab's time bar: start / end / current time entries,
 * zoom buttons, a ruler and a draggable trace overview; edits a TtvTabState. */
#pragma once

#include "ttv-tab-state-private.h"

#include "ttv-viewer.h"

G_BEGIN_DECLS

#define TTV_TYPE_TIME_BAR (ttv_time_bar_get_type ())
G_DECLARE_FINAL_TYPE (TtvTimeBar, ttv_time_bar, TTV, TIME_BAR, GtkBox)

GtkWidget  *ttv_time_bar_new (TtvTabState *state);

/* Zoom helpers shared with the window's actions: factor < 1 zooms in,
 * around the current time when it is in the window. */
void        ttv_time_bar_zoom (TtvTabState *state, double factor);
void        ttv_time_bar_zoom_fit (TtvTabState *state);

G_END_DECLS
