/* ttv-time-gestures.h: the pointer over a userspace view's time plot (the
 * flame chart, the memory view): a drag pans the window, a right (or
 * Shift) drag selects, a click sets the current time, a right click clears
 * the selection, Ctrl+wheel zooms around the pointer. */
#pragma once

#include "ttv-viewer.h"

#include <gtk/gtk.h>

G_BEGIN_DECLS

typedef struct {
  TtvTabState *state;           /* borrowed: the view's */
  double left, right;           /* the plot's margins in its area, pixels */
  int button;                   /* of the drag under way (3 for Shift+1), 0: none */
  double x0;                    /* where it began */
  TtvTime t0, t1;               /* the window then */
  gboolean dragged;             /* moved more than a click's shake */
} TtvTimeGestures;

void        ttv_time_gestures_init (TtvTimeGestures *gestures, TtvTabState *state, double left, double right);
/* The time at @x in @area (the window across the plot). */
TtvTime     ttv_time_gestures_time_at (const TtvTimeGestures *gestures, GtkWidget *area, double x);
/* Ctrl+wheel: the window zoomed in (@dy < 0) or out a step around @x. */
void        ttv_time_gestures_zoom (const TtvTimeGestures *gestures, GtkWidget *area, double x, double dy);
/* "button-press-event", "motion-notify-event" and "button-release-event"
 * handlers of the plot's area, @gestures their data. */
gboolean    ttv_time_gestures_press (GtkWidget *area, GdkEventButton *ev, TtvTimeGestures *gestures);
gboolean    ttv_time_gestures_motion (GtkWidget *area, GdkEventMotion *ev, TtvTimeGestures *gestures);
gboolean    ttv_time_gestures_release (GtkWidget *area, GdkEventButton *ev, TtvTimeGestures *gestures);

G_END_DECLS
