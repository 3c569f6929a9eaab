/* ttv-view-drag.c: a drag across a time chart (see ttv-view-drag.h); the
 * viewers turn its pixels into times. */
#include "ttv-view-drag.h"

#include <math.h>

/* Shorter than this, a drag is a click (the hand shakes). */
#define MIN_SPAN 3

gboolean
ttv_view_drag_press (GtkWidget *area, GdkEventButton *ev, TtvViewDrag *drag)
{
  if (ev->button != GDK_BUTTON_PRIMARY || ev->type != GDK_BUTTON_PRESS)
    return GDK_EVENT_PROPAGATE;
  drag->active = TRUE;
  drag->x0 = drag->x1 = ev->x;
  return GDK_EVENT_STOP;
}

gboolean
ttv_view_drag_motion (GtkWidget *area, GdkEventMotion *ev, TtvViewDrag *drag)
{
  if (!drag->active)
    return GDK_EVENT_PROPAGATE;
  drag->x1 = ev->x;
  gtk_widget_queue_draw (area);
  return GDK_EVENT_STOP;
}

TtvViewDragEnd
ttv_view_drag_release (TtvViewDrag *drag, const GdkEventButton *ev, double *left, double *right)
{
  if (!drag->active || ev->button != GDK_BUTTON_PRIMARY)
    return TTV_VIEW_DRAG_NONE;
  drag->active = FALSE;
  if (fabs (ev->x - drag->x0) < MIN_SPAN)
    {
      *left = *right = ev->x;
      return TTV_VIEW_DRAG_CLICK;
    }
  *left = MIN (ev->x, drag->x0);
  *right = MAX (ev->x, drag->x0);
  return TTV_VIEW_DRAG_SPAN;
}

void
ttv_view_drag_draw_band (const TtvViewDrag *drag, cairo_t *cr, double top, double height)
{
  if (!drag->active)
    return;
  double a = MIN (drag->x0, drag->x1), b = MAX (drag->x0, drag->x1);
  cairo_set_source_rgba (cr, 0.1, 0.3, 0.9, 0.25);
  cairo_rectangle (cr, a, top, MAX (b - a, 1), height);
  cairo_fill (cr);
}
