/* ttv-view-drag.h: a drag across a time chart with the primary button (the
 * CPU usage chart, the latency scatter; compiled into each): the band
 * follows the pointer; released 3 pixels or more away it is a span to zoom
 * to, nearer a click. */
#pragma once

#include <cairo.h>
#include <gtk/gtk.h>

G_BEGIN_DECLS

typedef struct {
  gboolean active;
  double x0, x1;               /* where it started, where the pointer is */
} TtvViewDrag;

typedef enum {
  TTV_VIEW_DRAG_NONE,          /* no drag ended: the event is someone else's */
  TTV_VIEW_DRAG_CLICK,
  TTV_VIEW_DRAG_SPAN,
} TtvViewDragEnd;

/* "button-press-event" and "motion-notify-event" handlers, @drag their
 * data: a primary press starts the drag, a motion moves its end and redraws
 * @area. */
gboolean    ttv_view_drag_press (GtkWidget *area, GdkEventButton *ev, TtvViewDrag *drag);
gboolean    ttv_view_drag_motion (GtkWidget *area, GdkEventMotion *ev, TtvViewDrag *drag);
/* Ends the drag on a primary release: a span from *@left to *@right, or a
 * click at *@left (== *@right). */
TtvViewDragEnd ttv_view_drag_release (TtvViewDrag *drag, const GdkEventButton *ev, double *left, double *right);
/* The band of the drag in progress, from @top for @height pixels. */
void        ttv_view_drag_draw_band (const TtvViewDrag *drag, cairo_t *cr, double top, double height);

G_END_DECLS
