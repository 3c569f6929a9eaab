/* ttv-flamechart.c: the call stack view: per thread, one row per depth
 * over the tab's time window, every call a box coloured by its function and
 * named when it has room (a flame chart).  Drawn from the tab's call stack
 * analysis, thinned to one call per pixel at any zoom.  Ctrl+wheel zooms
 * around the pointer, a drag pans, a click sets the current time, a right
 * drag selects; a click on a thread's header or name selects that thread
 * of its machine in the tab (the control flow follows), whose header is
 * then tinted; the tooltip gives the whole stack under the pointer with
 * each call's length and source line.  The same painting serves ttv
 * --render callstack. */
#include "ttv-flamechart.h"
#include "ttv-view-text.h"

#include "ttv-time-gestures.h"
#include "ttv-userspace-common.h"
#include "ttv-view-axis.h"
#include "ttv-view-state.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>
#include <math.h>

#define RULER_HEIGHT 24
#define LABEL_WIDTH 170
#define ROW_HEIGHT 17
#define HEADER_HEIGHT 20

struct _TtvFlameChart {
  GtkBox parent_instance;

  TtvTabState *state;           /* owned reference */
  TtvViewerCallstacks *cs;      /* owned, NULL until the analysis is there */
  TtvUserspaceWait *wait;       /* owned */
  GtkWidget *area;
  GtkLabel *status;
  GtkAdjustment *vadj;          /* rows scrolled by, in pixels */
  gulong handlers[TTV_USERSPACE_TIME_VIEW_HANDLERS];
  TtvTimeGestures gestures;
};

G_DEFINE_FINAL_TYPE (TtvFlameChart, ttv_flame_chart, GTK_TYPE_BOX)

/* What one painting needs. */
typedef struct {
  TtvTabState *state;
  TtvViewerCallstacks *cs;      /* may be NULL */
  TtvTime t0, t1;
  double scroll;                /* pixels of rows above the top */
  const char *message;          /* shown when there is nothing to draw, may be NULL */
} Paint;

/* Rows: per thread a header, then its depths. */
static double
thread_top (TtvViewerCallstacks *cs, guint thread)
{
  double y = 0;
  TtvViewerCallstackThread t;
  for (guint i = 0; i < thread && ttv_viewer_callstacks_get_thread (cs, i, &t); i++)
    y += HEADER_HEIGHT + t.n_depths * ROW_HEIGHT;
  return y;
}

static double
rows_height (TtvViewerCallstacks *cs)
{
  return cs ? thread_top (cs, ttv_viewer_callstacks_get_n_threads (cs)) : 0;
}

/* The window over the plot at @x0, @width wide: the tab's scale. */
static void
plot_scale (const Paint *p, double x0, double width, TtvTimeScale *scale)
{
  ttv_tab_state_get_time_scale (p->state, p->t0, MAX (p->t1, p->t0 + 1), x0, width, scale);
}

/* The calls of one linear piece of the scale, at its own resolution. */
static void
paint_piece_calls (const Paint *p, cairo_t *cr, const TtvTimeScale *scale, const TtvTimeScalePiece *piece,
                   guint thread, guint depth, double y)
{
  double ns_per_px = (double) (piece->t1 - piece->t0) / MAX (piece->x1 - piece->x0, 1);
  TtvTime resolution = MAX (1, (TtvTime) ns_per_px);
  g_autoptr (GArray) calls = ttv_viewer_callstacks_query_calls (p->cs, thread, depth, piece->t0, piece->t1,
                                                                resolution);
  for (guint i = 0; i < calls->len; i++)
    {
      const TtvViewerCall *c = &g_array_index (calls, TtvViewerCall, i);
      double a = MAX (piece->x0, ttv_time_scale_x_of_time (scale, c->start));
      double b = MIN (piece->x1, ttv_time_scale_x_of_time (scale, c->end));
      b = MAX (b, a + 1);
      double rgb[3];
      ttv_userspace_function_rgb (c->function, rgb);
      cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
      cairo_rectangle (cr, a, y + 1, b - a, ROW_HEIGHT - 2);
      cairo_fill (cr);
      if (c->hidden)   /* more calls than pixels here: a dark strip says so */
        {
          cairo_set_source_rgba (cr, 0, 0, 0, 0.35);
          cairo_rectangle (cr, a, y + ROW_HEIGHT - 4, MAX (b - a, 2), 3);
          cairo_fill (cr);
        }
      if (c->flags)    /* begun before the trace, or no exit: hatched edge */
        {
          cairo_set_source_rgba (cr, 0.2, 0.2, 0.2, 0.6);
          cairo_rectangle (cr, (c->flags & TTV_VIEWER_CALL_BEGAN_BEFORE) ? a : b - 2, y + 1, 2, ROW_HEIGHT - 2);
          cairo_fill (cr);
        }
      TtvViewerFunction f;
      if (b - a > 24 && ttv_viewer_callstacks_get_function (p->cs, c->function, &f))
        {
          cairo_set_source_rgb (cr, 0.1, 0.1, 0.1);
          ttv_userspace_show_text (cr, a + 3, y + ROW_HEIGHT - 5, b - a - 6, f.name);
        }
    }
}

static void
paint_calls (const Paint *p, cairo_t *cr, guint thread, guint depth, double y, double x0, double width)
{
  TtvTimeScale scale;
  plot_scale (p, x0, width, &scale);
  for (guint i = 0; i < scale.n_pieces; i++)
    if (!scale.pieces[i].gap)
      paint_piece_calls (p, cr, &scale, &scale.pieces[i], thread, depth, y);
}

static void
paint_labels (const Paint *p, cairo_t *cr, guint thread, double y, double height)
{
  TtvViewerCallstackThread t;
  if (!ttv_viewer_callstacks_get_thread (p->cs, thread, &t))
    return;
  g_autofree char *thread_label = t.tid == TTV_VIEWER_PID_NONE ? g_strdup (*t.name ? t.name : _("(all threads)"))
                                                                 : g_strdup_printf ("%s [%u]", t.name, t.tid);
  g_autofree char *label = ttv_userspace_dup_machine_label (p->state, t.machine, thread_label);
  gboolean selected = t.tid != TTV_VIEWER_PID_NONE && t.tid == ttv_tab_state_get_selected_thread (p->state)
                      && t.machine == ttv_tab_state_get_selected_machine (p->state);
  if (selected)
    cairo_set_source_rgb (cr, 0.78, 0.86, 0.97);
  else
    cairo_set_source_rgb (cr, 0.92, 0.92, 0.94);
  cairo_rectangle (cr, 0, y, 10000, HEADER_HEIGHT);
  cairo_fill (cr);
  cairo_set_source_rgb (cr, 0.1, 0.1, 0.1);
  cairo_select_font_face (cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
  g_autofree char *calls = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s (%" PRIu64 " call)",
                                                         "%s (%" PRIu64 " calls)", (gulong) t.n_calls),
                                            label, (guint64) t.n_calls);
  ttv_userspace_show_text (cr, 6, y + HEADER_HEIGHT - 6, 600, calls);
  cairo_select_font_face (cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
}

static void
paint_markers (const Paint *p, cairo_t *cr, double x0, double width, double top, double bottom)
{
  TtvTimeScale scale;
  TtvTime s0, s1;
  GdkRGBA c;
  plot_scale (p, x0, width, &scale);
  ttv_viewer_draw_time_gaps (cr, &scale, top, bottom - top);
  if (ttv_tab_state_get_selection (p->state, &s0, &s1) && s1 > p->t0 && s0 < p->t1)
    {
      ttv_viewer_get_marker_rgba (TTV_VIEWER_MARKER_SELECTION, &c);
      double a = ttv_time_scale_x_of_time (&scale, MAX (s0, p->t0)), b = ttv_time_scale_x_of_time (&scale, MIN (s1, p->t1));
      cairo_set_source_rgba (cr, c.red, c.green, c.blue, 0.18);
      cairo_rectangle (cr, a, top, MAX (b - a, 1), bottom - top);
      cairo_fill (cr);
    }
  TtvTime now = ttv_tab_state_get_current_time (p->state);
  if (now >= p->t0 && now <= p->t1)
    {
      ttv_viewer_get_marker_rgba (TTV_VIEWER_MARKER_CURRENT_TIME, &c);
      double x = floor (ttv_time_scale_x_of_time (&scale, now)) + 0.5;
      cairo_set_source_rgba (cr, c.red, c.green, c.blue, c.alpha);
      cairo_set_line_width (cr, 1);
      cairo_move_to (cr, x, top);
      cairo_line_to (cr, x, bottom);
      cairo_stroke (cr);
    }
}

static void
paint (const Paint *p, cairo_t *cr, int width, int height)
{
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  cairo_set_font_size (cr, 11);
  double plot_x = LABEL_WIDTH, plot_w = MAX (1, width - LABEL_WIDTH);
  TtvTime origin, end;
  ttv_tab_state_get_time_span (p->state, &origin, &end);
  if (p->t1 > p->t0)
    {
      TtvTimeScale scale;
      plot_scale (p, plot_x, plot_w, &scale);
      ttv_view_axis_draw_scale (cr, &scale, 0, RULER_HEIGHT, origin, NULL);
    }
  if (p->cs == NULL || ttv_viewer_callstacks_get_n_threads (p->cs) == 0 || p->t1 <= p->t0)
    {
      cairo_set_source_rgb (cr, 0.35, 0.35, 0.35);
      cairo_move_to (cr, 12, RULER_HEIGHT + 24);
      ttv_view_show_text (cr, p->message ? p->message : "");
      return;
    }
  cairo_save (cr);
  cairo_rectangle (cr, 0, RULER_HEIGHT, width, height - RULER_HEIGHT);
  cairo_clip (cr);
  double y = RULER_HEIGHT - p->scroll;
  for (guint t = 0; t < ttv_viewer_callstacks_get_n_threads (p->cs) && y < height; t++)
    {
      TtvViewerCallstackThread th;
      ttv_viewer_callstacks_get_thread (p->cs, t, &th);
      double bottom = y + HEADER_HEIGHT + th.n_depths * ROW_HEIGHT;
      if (bottom >= RULER_HEIGHT)
        {
          paint_labels (p, cr, t, y, bottom - y);
          cairo_save (cr);
          cairo_rectangle (cr, plot_x, y + HEADER_HEIGHT, plot_w, bottom - y - HEADER_HEIGHT);
          cairo_clip (cr);
          for (guint d = 0; d < th.n_depths; d++)
            {
              double row_y = y + HEADER_HEIGHT + d * ROW_HEIGHT;
              if (row_y + ROW_HEIGHT >= RULER_HEIGHT && row_y < height)
                paint_calls (p, cr, t, d, row_y, plot_x, plot_w);
            }
          cairo_restore (cr);
          cairo_set_source_rgb (cr, 0.45, 0.45, 0.45);
          for (guint d = 0; d < th.n_depths; d++)
            {
              double row_y = y + HEADER_HEIGHT + d * ROW_HEIGHT;
              if (row_y + ROW_HEIGHT < RULER_HEIGHT || row_y >= height)
                continue;
              g_autofree char *depth = g_strdup_printf (_("depth %u"), d);
              ttv_userspace_show_text (cr, 14, row_y + ROW_HEIGHT - 5, LABEL_WIDTH - 20, depth);
            }
        }
      y = bottom;
    }
  paint_markers (p, cr, plot_x, plot_w, RULER_HEIGHT, MIN (height, y));
  cairo_set_source_rgb (cr, 0.75, 0.75, 0.75);
  cairo_move_to (cr, plot_x - 0.5, RULER_HEIGHT);
  cairo_line_to (cr, plot_x - 0.5, height);
  cairo_stroke (cr);
  cairo_restore (cr);
}

/* --- The widget ------------------------------------------------------------------ */

static void
fill_paint (TtvFlameChart *self, Paint *p)
{
  p->state = self->state;
  p->cs = self->cs;
  ttv_tab_state_get_time_window (self->state, &p->t0, &p->t1);
  p->scroll = gtk_adjustment_get_value (self->vadj);
  p->message = gtk_label_get_text (self->status);
}

static gboolean
draw (GtkWidget *area, cairo_t *cr, TtvFlameChart *self)
{
  Paint p;
  fill_paint (self, &p);
  paint (&p, cr, gtk_widget_get_allocated_width (area), gtk_widget_get_allocated_height (area));
  return FALSE;
}

static void
update_scroll (TtvFlameChart *self)
{
  double page = MAX (1, gtk_widget_get_allocated_height (self->area) - RULER_HEIGHT);
  double upper = MAX (rows_height (self->cs), page);
  gtk_adjustment_configure (self->vadj, MIN (gtk_adjustment_get_value (self->vadj), upper - page), 0, upper,
                            ROW_HEIGHT, page * 0.9, page);
}

static void
analysis_ready (gpointer data)
{
  TtvFlameChart *self = data;
  ttv_userspace_take_callstacks (self->state, self->wait, self->status, &self->cs);
  if (self->cs && ttv_viewer_callstacks_get_n_threads (self->cs) > 0)
    {
      guint64 calls = 0;
      TtvViewerCallstackThread t;
      for (guint i = 0; ttv_viewer_callstacks_get_thread (self->cs, i, &t); i++)
        calls += t.n_calls;
      g_autofree char *text = g_strdup_printf (_("%u threads, %" PRIu64 " calls; Ctrl+wheel zooms, "
                                                 "drag pans, right-drag selects"),
                                               ttv_viewer_callstacks_get_n_threads (self->cs), calls);
      gtk_label_set_text (self->status, text);
      ttv_viewer_notify_first_paint (GTK_WIDGET (self), ttv_viewer_callstacks_get_n_threads (self->cs));
    }
  update_scroll (self);
  gtk_widget_queue_draw (self->area);
}

static TtvTime
time_at (TtvFlameChart *self, double x)
{
  return ttv_time_gestures_time_at (&self->gestures, self->area, x);
}

/* Where @thread's header starts in the area, scrolled. */
static double
header_top (TtvFlameChart *self, guint thread)
{
  return RULER_HEIGHT - gtk_adjustment_get_value (self->vadj) + thread_top (self->cs, thread);
}

/* The thread whose rows (its header, its depths) are at @y, or -1. */
static gint
thread_at (TtvFlameChart *self, double y)
{
  if (self->cs == NULL || y < RULER_HEIGHT)
    return -1;
  double bottom = RULER_HEIGHT - gtk_adjustment_get_value (self->vadj);
  TtvViewerCallstackThread t;
  for (guint thread = 0; ttv_viewer_callstacks_get_thread (self->cs, thread, &t); thread++)
    {
      bottom += HEADER_HEIGHT + t.n_depths * ROW_HEIGHT;
      if (y < bottom)
        return (gint) thread;
    }
  return -1;
}

/* A click on a thread's header or name selects it (of its machine) in
 * the tab; elsewhere the time gestures take the press. */
static gboolean
on_press (GtkWidget *area, GdkEventButton *ev, TtvFlameChart *self)
{
  if (ev->button != 1 || ev->type != GDK_BUTTON_PRESS || (ev->state & GDK_SHIFT_MASK))
    return GDK_EVENT_PROPAGATE;
  gint thread = thread_at (self, ev->y);
  TtvViewerCallstackThread t;
  if (thread < 0 || (ev->x >= LABEL_WIDTH && ev->y >= header_top (self, (guint) thread) + HEADER_HEIGHT)
      || !ttv_viewer_callstacks_get_thread (self->cs, (guint) thread, &t) || t.tid == TTV_VIEWER_PID_NONE)
    return GDK_EVENT_PROPAGATE;
  ttv_tab_state_select_thread_on (self->state, t.machine, t.tid);
  return GDK_EVENT_STOP;
}

/* The thread and depth under (@x, @y); FALSE on a header or nothing. */
static gboolean
row_at (TtvFlameChart *self, double y, guint *thread, guint *depth)
{
  gint found = thread_at (self, y);
  if (found < 0)
    return FALSE;
  double rows = header_top (self, (guint) found) + HEADER_HEIGHT;
  *thread = (guint) found;
  *depth = (guint) MAX (0, (y - rows) / ROW_HEIGHT);
  return y >= rows;
}

static gboolean
on_scroll (GtkWidget *area, GdkEventScroll *ev, TtvFlameChart *self)
{
  double dx = 0, dy = 0;
  if (ev->direction == GDK_SCROLL_UP)
    dy = -1;
  else if (ev->direction == GDK_SCROLL_DOWN)
    dy = 1;
  else if (ev->direction == GDK_SCROLL_LEFT)
    dx = -1;
  else if (ev->direction == GDK_SCROLL_RIGHT)
    dx = 1;
  else
    gdk_event_get_scroll_deltas ((GdkEvent *) ev, &dx, &dy);
  TtvTime t0, t1;
  ttv_tab_state_get_time_window (self->state, &t0, &t1);
  if (ev->state & GDK_CONTROL_MASK)
    ttv_time_gestures_zoom (&self->gestures, area, ev->x, dy);
  else if ((ev->state & GDK_SHIFT_MASK) || dx != 0)
    {
      TtvTime shift = (TtvTime) ((dx != 0 ? dx : dy) * (double) (t1 - t0) / 10);
      ttv_tab_state_set_time_window (self->state, t0 + shift, t1 + shift);
    }
  else
    gtk_adjustment_set_value (self->vadj, gtk_adjustment_get_value (self->vadj) + dy * 3 * ROW_HEIGHT);
  return GDK_EVENT_STOP;
}

/* The stack under the pointer, innermost last. */
static gboolean
on_tooltip (GtkWidget *area, int x, int y, gboolean keyboard, GtkTooltip *tooltip, TtvFlameChart *self)
{
  guint thread, depth;
  if (x < LABEL_WIDTH || !row_at (self, y, &thread, &depth))
    return FALSE;
  TtvTime at = time_at (self, x);
  g_autoptr (GArray) stack = ttv_viewer_callstacks_dup_stack_at (self->cs, thread, at);
  if (stack->len == 0)
    return FALSE;
  g_autoptr (GString) text = g_string_new (NULL);
  g_autofree char *when = ttv_tab_state_format_time (self->state, at);
  g_string_append_printf (text, _("Stack at %s:"), when);
  for (guint i = 0; i < stack->len; i++)
    {
      const TtvViewerCall *c = &g_array_index (stack, TtvViewerCall, i);
      TtvViewerFunction f;
      ttv_viewer_callstacks_get_function (self->cs, c->function, &f);
      g_autofree char *length = ttv_viewer_format_duration (c->end - c->start);
      g_string_append_printf (text, "\n%s%s  %s", i == depth ? "▶ " : "  ", f.name, length);
      if (f.file)
        {
          const char *base = strrchr (f.file, '/');
          g_string_append_printf (text, "  (%s:%u)", base ? base + 1 : f.file, f.line);
        }
      if (c->flags & TTV_VIEWER_CALL_BEGAN_BEFORE)
        g_string_append (text, _(" — began before the trace"));
      if (c->flags & TTV_VIEWER_CALL_NO_EXIT)
        g_string_append (text, _(" — no exit in the trace"));
    }
  ttv_view_set_tooltip_text (tooltip, text->str);
  return TRUE;
}

static void
redraw (TtvFlameChart *self)
{
  gtk_widget_queue_draw (self->area);
}

static void
traceset_changed (TtvFlameChart *self)
{
  g_clear_pointer (&self->cs, ttv_viewer_callstacks_unref);
  ttv_userspace_wait_start (self->wait);
  redraw (self);
}

static void
ttv_flame_chart_dispose (GObject *object)
{
  TtvFlameChart *self = TTV_FLAME_CHART (object);
  g_clear_pointer (&self->wait, ttv_userspace_wait_free);
  ttv_view_state_release (&self->state, self->handlers, G_N_ELEMENTS (self->handlers));
  g_clear_pointer (&self->cs, ttv_viewer_callstacks_unref);
  G_OBJECT_CLASS (ttv_flame_chart_parent_class)->dispose (object);
}

static void
ttv_flame_chart_class_init (TtvFlameChartClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = ttv_flame_chart_dispose;
}

static void
on_size (GtkWidget *area, GdkRectangle *allocation, TtvFlameChart *self)
{
  update_scroll (self);
}

static void
ttv_flame_chart_init (TtvFlameChart *self)
{
  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_VERTICAL);
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  self->area = gtk_drawing_area_new ();
  gtk_widget_set_hexpand (self->area, TRUE);
  gtk_widget_set_vexpand (self->area, TRUE);
  gtk_widget_set_has_tooltip (self->area, TRUE);
  gtk_widget_add_events (self->area, GDK_SCROLL_MASK | GDK_SMOOTH_SCROLL_MASK | GDK_BUTTON_PRESS_MASK
                                     | GDK_BUTTON_RELEASE_MASK | GDK_POINTER_MOTION_MASK);
  self->vadj = gtk_adjustment_new (0, 0, 1, ROW_HEIGHT, 100, 100);
  GtkWidget *bar = gtk_scrollbar_new (GTK_ORIENTATION_VERTICAL, self->vadj);
  gtk_box_pack_start (GTK_BOX (row), self->area, TRUE, TRUE, 0);
  gtk_box_pack_start (GTK_BOX (row), bar, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (self), row, TRUE, TRUE, 0);
  self->status = ttv_userspace_status_new (GTK_BOX (self));
  g_signal_connect (self->area, "draw", G_CALLBACK (draw), self);
  g_signal_connect (self->area, "scroll-event", G_CALLBACK (on_scroll), self);
  g_signal_connect (self->area, "button-press-event", G_CALLBACK (on_press), self);
  g_signal_connect (self->area, "button-press-event", G_CALLBACK (ttv_time_gestures_press), &self->gestures);
  g_signal_connect (self->area, "motion-notify-event", G_CALLBACK (ttv_time_gestures_motion), &self->gestures);
  g_signal_connect (self->area, "button-release-event", G_CALLBACK (ttv_time_gestures_release), &self->gestures);
  g_signal_connect (self->area, "query-tooltip", G_CALLBACK (on_tooltip), self);
  g_signal_connect (self->area, "size-allocate", G_CALLBACK (on_size), self);
  g_signal_connect_swapped (self->vadj, "value-changed", G_CALLBACK (redraw), self);
}

GtkWidget *
ttv_flame_chart_new (TtvTabState *state)
{
  TtvFlameChart *self = g_object_new (TTV_TYPE_FLAME_CHART, NULL);
  self->state = g_object_ref (state);
  ttv_time_gestures_init (&self->gestures, state, LABEL_WIDTH, 0);
  ttv_userspace_follow_time_view (state, self->handlers, G_CALLBACK (redraw), G_CALLBACK (traceset_changed), self);
  g_signal_connect_object (state, "selected-thread-changed", G_CALLBACK (redraw), self, G_CONNECT_SWAPPED);
  ttv_viewer_watch_marker_colors (self->area);
  self->wait = ttv_userspace_wait_new (state, TTV_VIEWER_USERSPACE_CALLSTACKS, self->status, analysis_ready, self);
  analysis_ready (self);
  gtk_widget_show_all (GTK_WIDGET (self));
  return GTK_WIDGET (self);
}

gboolean
ttv_flame_chart_render (TtvTabState *state, cairo_t *cr, int width, int height, GError **error)
{
  if (width <= LABEL_WIDTH + 10 || height <= RULER_HEIGHT + ROW_HEIGHT)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, _("the call stack view needs at least %dx%d pixels"),
                   LABEL_WIDTH + 11, RULER_HEIGHT + ROW_HEIGHT + 1);
      return FALSE;
    }
  if (!ttv_tab_state_compute_userspace (state, TTV_VIEWER_USERSPACE_CALLSTACKS, NULL, error))
    return FALSE;
  g_autoptr (TtvViewerCallstacks) cs = ttv_tab_state_dup_callstacks (state);
  Paint p = { state, cs, 0, 0, 0, _("No function entry or exit in these traces.") };
  ttv_tab_state_get_time_window (state, &p.t0, &p.t1);
  paint (&p, cr, width, height);
  return TRUE;
}
