/* ttv-time-gestures.c: the pointer over a userspace view's time plot (see
 * ttv-time-gestures.h). */
#include "ttv-time-gestures.h"

#include <math.h>

/* Within this, a press and release are a click (the hand shakes). */
#define CLICK_SHAKE 3
/* The narrowest window a zoom gives, ns. */
#define MIN_WINDOW 100

void
ttv_time_gestures_init (TtvTimeGestures *g, TtvTabState *state, double left, double right)
{
  *g = (TtvTimeGestures) { .state = state, .left = left, .right = right };
}

static double
plot_width (const TtvTimeGestures *g, GtkWidget *area)
{
  return MAX (1, gtk_widget_get_allocated_width (area) - g->left - g->right);
}

/* The time at @x with the window [@t0, @t1] across the plot: the tab's
 * scale (long idle gaps between traces compressed, as every view draws). */
static TtvTime
time_at_window (const TtvTimeGestures *g, GtkWidget *area, double x, TtvTime t0, TtvTime t1)
{
  TtvTimeScale scale;
  ttv_tab_state_get_time_scale (g->state, t0, MAX (t1, t0 + 1), g->left, plot_width (g, area), &scale);
  return ttv_time_scale_time_of_x (&scale, x);
}

TtvTime
ttv_time_gestures_time_at (const TtvTimeGestures *g, GtkWidget *area, double x)
{
  TtvTime t0, t1;
  ttv_tab_state_get_time_window (g->state, &t0, &t1);
  return time_at_window (g, area, x, t0, t1);
}

void
ttv_time_gestures_zoom (const TtvTimeGestures *g, GtkWidget *area, double x, double dy)
{
  TtvTime t0, t1;
  ttv_tab_state_get_time_window (g->state, &t0, &t1);
  double factor = dy < 0 ? 0.8 : 1.25;
  TtvTime at = ttv_time_gestures_time_at (g, area, x);
  TtvTime n0 = at - (TtvTime) ((double) (at - t0) * factor);
  TtvTime n1 = at + (TtvTime) ((double) (t1 - at) * factor);
  if (n1 - n0 >= MIN_WINDOW)
    ttv_tab_state_set_time_window (g->state, n0, n1);
}

gboolean
ttv_time_gestures_press (GtkWidget *area, GdkEventButton *ev, TtvTimeGestures *g)
{
  if (ev->type != GDK_BUTTON_PRESS || ev->x < g->left)
    return GDK_EVENT_PROPAGATE;
  g->button = (ev->button == 1 && (ev->state & GDK_SHIFT_MASK)) ? 3 : (int) ev->button;
  g->x0 = ev->x;
  g->dragged = FALSE;
  ttv_tab_state_get_time_window (g->state, &g->t0, &g->t1);
  return GDK_EVENT_STOP;
}

gboolean
ttv_time_gestures_motion (GtkWidget *area, GdkEventMotion *ev, TtvTimeGestures *g)
{
  if (!g->button)
    return GDK_EVENT_PROPAGATE;
  g->dragged |= fabs (ev->x - g->x0) > CLICK_SHAKE;
  if (!g->dragged)
    return GDK_EVENT_STOP;
  if (g->button == 1)
    {
      /* What moved under the pointer, on the window the drag began with. */
      TtvTime shift = time_at_window (g, area, g->x0, g->t0, g->t1) - time_at_window (g, area, ev->x, g->t0, g->t1);
      ttv_tab_state_set_time_window (g->state, g->t0 + shift, g->t1 + shift);
    }
  else if (g->button == 3)
    {
      TtvTime a = ttv_time_gestures_time_at (g, area, g->x0), b = ttv_time_gestures_time_at (g, area, ev->x);
      ttv_tab_state_set_selection (g->state, MIN (a, b), MAX (a, b));
    }
  return GDK_EVENT_STOP;
}

gboolean
ttv_time_gestures_release (GtkWidget *area, GdkEventButton *ev, TtvTimeGestures *g)
{
  if (!g->button)
    return GDK_EVENT_PROPAGATE;
  if (!g->dragged && g->button == 1)
    ttv_tab_state_set_current_time (g->state, ttv_time_gestures_time_at (g, area, ev->x));
  else if (!g->dragged && g->button == 3)
    ttv_tab_state_clear_selection (g->state);
  g->button = 0;
  return GDK_EVENT_STOP;
}
