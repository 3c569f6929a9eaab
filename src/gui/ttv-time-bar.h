/* ttv-time-bar.h: the tab's time bar: start / end / current time entries,
 * zoom buttons, a ruler of the time window and a draggable overview of the
 * whole traceset with its own scale; edits a TtvTabState. */
#pragma once

#include "ttv-tab-state-private.h"

#include "ttv-viewer.h"

G_BEGIN_DECLS

#define TTV_TYPE_TIME_BAR (ttv_time_bar_get_type ())
G_DECLARE_FINAL_TYPE (TtvTimeBar, ttv_time_bar, TTV, TIME_BAR, GtkBox)

GtkWidget  *ttv_time_bar_new (TtvTabState *state);

/* The time bar's two scales: the ruler of the time window (at the top), and
 * the overview of the whole traceset with its own labels under it. */
typedef enum {
  TTV_TIME_BAR_RULER,
  TTV_TIME_BAR_OVERVIEW,
  TTV_TIME_BAR_N_SCALES
} TtvTimeBarScale;

typedef struct {
  double x;          /* in the drawing area */
  TtvTime time;
  char *label;       /* owned */
} TtvTimeBarTick;

/* The ticks of @scale the last drawing drew (of TtvTimeBarTick), for tests
 * and what they check: each mark of a strip lies under its own times. */
const GArray *ttv_time_bar_get_ticks (TtvTimeBar *self, TtvTimeBarScale scale);
/* The band of @scale's marks (the window's current time and selection,
 * or the overview's density, bookmarks, window box) and of its labels, in
 * the drawing area's y. */
void        ttv_time_bar_get_strip (TtvTimeBar *self, TtvTimeBarScale scale, double *top, double *height,
                                    double *labels_top, double *labels_height);
/* The x of @t in @scale's strip. */
double      ttv_time_bar_time_to_x (TtvTimeBar *self, TtvTimeBarScale scale, TtvTime t);

/* Zoom helpers shared with the window's actions: factor < 1 zooms in,
 * around the current time when it is in the window. */
void        ttv_time_bar_zoom (TtvTabState *state, double factor);
void        ttv_time_bar_zoom_fit (TtvTabState *state);

G_END_DECLS
