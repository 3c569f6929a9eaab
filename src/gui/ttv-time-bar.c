/* ttv-time-bar.c: the tab's time bar (entries, zoom, ruler, overview).  It
 * only reads and sets the TtvTabState; it never talks to a viewer. */
#include "ttv-config.h"

#include "ttv-time-bar.h"
#include "ttv-time-display.h"

#include <glib/gi18n.h>
#include <math.h>

/* From the top: the window's ruler, lines joining its ends to the window's
 * box in the overview (the ruler magnifies that box), the overview of the
 * whole traceset, and the overview's own scale under it, in smaller type.
 * Each strip's marks sit by the labels of its own times.  As tall as the
 * ruler and overview were before they had separate scales. */
#define RULER_HEIGHT 20
#define ZOOM_HEIGHT 3
#define OVERVIEW_TOP (RULER_HEIGHT + ZOOM_HEIGHT)
#define OVERVIEW_HEIGHT 11
#define SCALE_TOP (OVERVIEW_TOP + OVERVIEW_HEIGHT)
#define SCALE_HEIGHT 10
#define SCALE_TYPE 0.75     /* the scale's type, of the ruler's */
#define AREA_HEIGHT (SCALE_TOP + SCALE_HEIGHT)

struct _TtvTimeBar {
  GtkBox parent_instance;

  TtvTabState *state;       /* owned reference */
  GtkEntry *start_entry;
  GtkEntry *end_entry;
  GtkEntry *current_entry;
  GtkWidget *area;          /* ruler over the overview */
  GtkWidget *format_button; /* the time format menu */
  gulong handlers[7];
  /* The ticks drawn last, of the ruler and of the overview's scale. */
  GArray *ticks[TTV_TIME_BAR_N_SCALES];   /* of TtvTimeBarTick */

  /* Dragging in the overview moves the window; in the ruler, selects. */
  enum { DRAG_NONE, DRAG_WINDOW, DRAG_SELECT } drag;
  double drag_x;
  TtvTime drag_window_start;
  TtvTime drag_time;
};

G_DEFINE_FINAL_TYPE (TtvTimeBar, ttv_time_bar, GTK_TYPE_BOX)

enum { SIG_NOTICE, N_SIGNALS };
static guint signals[N_SIGNALS];

/* An entry's help, shown as its tooltip when no mistake is shown there. */
#define ENTRY_HELP "ttv-time-bar-help"

static void
show_entry_help (GtkEntry *entry)
{
  gtk_widget_set_tooltip_text (GTK_WIDGET (entry),
                               g_object_get_data (G_OBJECT (entry), ENTRY_HELP));
}

/* The time an entry shows (what a time of day typed in it is near to). */
static TtvTime
entry_time (TtvTimeBar *self, GtkEntry *entry)
{
  TtvTime ws, we;

  ttv_tab_state_get_time_window (self->state, &ws, &we);
  return entry == self->start_entry ? ws : entry == self->end_entry ? we
    : ttv_tab_state_get_current_time (self->state);
}

static void
set_entry_time (TtvTimeBar *self, GtkEntry *entry)
{
  g_autofree char *text = NULL;

  /* Never overwrite what the user is typing. */
  if (gtk_widget_has_focus (GTK_WIDGET (entry)))
    return;
  text = ttv_tab_state_format_time (self->state, entry_time (self, entry));
  gtk_entry_set_text (entry, text);
  /* A valid time again: a mistake typed before is no longer shown. */
  gtk_style_context_remove_class (gtk_widget_get_style_context (GTK_WIDGET (entry)), "error");
  show_entry_help (entry);
}

static const char *
format_button_label (TtvTimeFormat format)
{
  switch (format)
    {
    case TTV_TIME_FORMAT_ABSOLUTE: return _("Epoch");
    case TTV_TIME_FORMAT_UTC: return _("UTC");
    case TTV_TIME_FORMAT_LOCAL: return _("Local");
    case TTV_TIME_FORMAT_RELATIVE:
    default: return _("Relative");
    }
}

static void
refresh (TtvTimeBar *self)
{
  set_entry_time (self, self->start_entry);
  set_entry_time (self, self->end_entry);
  set_entry_time (self, self->current_entry);
  gtk_button_set_label (GTK_BUTTON (self->format_button),
                        format_button_label (ttv_time_display_get_format ()));
  gtk_widget_queue_draw (self->area);
}

static gboolean
parse_entry (TtvTimeBar *self, GtkEntry *entry, TtvTime *out)
{
  g_autoptr (GError) error = NULL;

  if (ttv_time_display_parse (self->state, gtk_entry_get_text (entry), entry_time (self, entry),
                                out, &error))
    {
      gtk_style_context_remove_class (gtk_widget_get_style_context (GTK_WIDGET (entry)), "error");
      show_entry_help (entry);
      return TRUE;
    }
  gtk_style_context_add_class (gtk_widget_get_style_context (GTK_WIDGET (entry)), "error");
  gtk_widget_set_tooltip_text (GTK_WIDGET (entry), error->message);
  return FALSE;
}

/* A typed time outside the traceset is moved to its nearest edge, and the
 * tab says so ("notice"), so that nobody reads the edge as what they typed. */
static TtvTime
clamp_to_span (TtvTimeBar *self, TtvTime t)
{
  TtvTime ss, se;
  g_autofree char *typed = NULL, *first = NULL, *last = NULL, *edge = NULL;
  g_autofree char *text = NULL;

  ttv_tab_state_get_time_span (self->state, &ss, &se);
  if (t >= ss && t <= se)
    {
      g_signal_emit (self, signals[SIG_NOTICE], 0, NULL);
      return t;
    }
  typed = ttv_tab_state_format_time (self->state, t);
  first = ttv_tab_state_format_time (self->state, ss);
  last = ttv_tab_state_format_time (self->state, se);
  edge = t < ss ? g_strdup (first) : g_strdup (last);
  text = g_strdup_printf (t < ss
                          ? _("%s is before the traceset (%s to %s): its start, %s, is used instead.")
                          : _("%s is after the traceset (%s to %s): its end, %s, is used instead."),
                          typed, first, last, edge);
  g_signal_emit (self, signals[SIG_NOTICE], 0, text);
  return CLAMP (t, ss, se);
}

static void
entry_activated (GtkEntry *entry, TtvTimeBar *self)
{
  TtvTime t, ws, we;

  if (!parse_entry (self, entry, &t))
    return;
  t = clamp_to_span (self, t);
  ttv_tab_state_get_time_window (self->state, &ws, &we);
  if (entry == self->start_entry)
    ttv_tab_state_set_time_window (self->state, t, MAX (t + 1, we));
  else if (entry == self->end_entry)
    ttv_tab_state_set_time_window (self->state, MIN (ws, t - 1), t);
  else
    ttv_tab_state_set_current_time (self->state, t);
  gtk_widget_grab_focus (self->area);
  refresh (self);
}

static gboolean
entry_focus_out (GtkWidget *entry, GdkEvent *event, TtvTimeBar *self)
{
  refresh (self);
  return GDK_EVENT_PROPAGATE;
}

/* --- Zoom ------------------------------------------------------------------ */

void
ttv_time_bar_zoom (TtvTabState *state, double factor)
{
  TtvTime ws, we, ss, se, center, width;

  ttv_tab_state_get_time_window (state, &ws, &we);
  ttv_tab_state_get_time_span (state, &ss, &se);
  center = ttv_tab_state_get_current_time (state);
  if (center < ws || center > we)
    center = ws + (we - ws) / 2;
  width = (TtvTime) MAX (10.0, (double) (we - ws) * factor);
  width = MIN (width, se - ss);
  /* Keep the center's relative place, so that repeated zooms converge on it. */
  {
    double rel = we > ws ? (double) (center - ws) / (double) (we - ws) : 0.5;
    TtvTime start = center - (TtvTime) (rel * (double) width);
    ttv_tab_state_set_time_window (state, start, start + width);
  }
}

void
ttv_time_bar_zoom_fit (TtvTabState *state)
{
  TtvTime ss, se;

  ttv_tab_state_get_time_span (state, &ss, &se);
  ttv_tab_state_set_time_window (state, ss, se);
}

/* --- Drawing --------------------------------------------------------------- */

/* The tab's scale (long idle gaps between traces compressed, as in every
 * view) of the time window (the ruler) or the whole span (the overview). */
static void
get_scale (TtvTimeBar *self, TtvTimeBarScale which, double width, TtvTimeScale *scale)
{
  TtvTime a, b;

  if (which == TTV_TIME_BAR_RULER)
    ttv_tab_state_get_time_window (self->state, &a, &b);
  else
    ttv_tab_state_get_time_span (self->state, &a, &b);
  ttv_tab_state_get_time_scale (self->state, a, MAX (b, a + 1), 0, MAX (width, 1), scale);
}

static double
time_to_x (TtvTimeBar *self, TtvTimeBarScale which, TtvTime t, double width)
{
  TtvTimeScale scale;

  get_scale (self, which, width, &scale);
  return ttv_time_scale_x_of_time (&scale, t);
}

static TtvTime
x_to_time (TtvTimeBar *self, TtvTimeBarScale which, double x, double width)
{
  TtvTimeScale scale;

  get_scale (self, which, width, &scale);
  return ttv_time_scale_time_of_x (&scale, CLAMP (x, 0, width));
}

/* Pixels between two labels of a scale, at least. */
#define TICK_LABEL_GAP 14

static TtvTime
origin_of (TtvTimeBar *self)
{
  TtvTime ss;

  ttv_tab_state_get_time_span (self->state, &ss, NULL);
  return ss;
}

/* The width in pixels of the widest of the labels at @a and @b. */
static int
label_width (TtvTimeBar *self, PangoLayout *layout, TtvTime a, TtvTime b, TtvTime step)
{
  int widest = 0;

  for (int i = 0; i < 2; i++)
    {
      g_autofree char *text = ttv_viewer_format_tick (i ? b : a, step, origin_of (self));
      int w;

      pango_layout_set_text (layout, text, -1);
      pango_layout_get_pixel_size (layout, &w, NULL);
      widest = MAX (widest, w);
    }
  return widest;
}

/* The smallest round step whose labels do not overlap over [@a, @b]. */
static TtvTime
scale_step (TtvTimeBar *self, PangoLayout *layout, TtvTime a, TtvTime b, double width)
{
  double ns_per_px = (double) (b - a) / width;
  TtvTime step = ttv_viewer_tick_step ((TtvTime) MIN (ns_per_px * 40, 4e18));

  /* Longer labels (more decimals, bigger offsets) need more room. */
  for (int tries = 0; tries < 12; tries++)
    {
      TtvTime first = ttv_viewer_first_tick (a, step, origin_of (self));

      if (label_width (self, layout, first, b, step) + TICK_LABEL_GAP <= (double) step / ns_per_px
          || step >= G_MAXINT64 / 4)
        break;
      step = ttv_viewer_tick_step (step + 1);
    }
  return step;
}

static void
tick_clear (gpointer data)
{
  g_free (((TtvTimeBarTick *) data)->label);
}

/* The ticks of [@a, @b] over [@x, @x + @width], in the band
 * @top..@top+@height: the ticks on the edge towards the strip they measure
 * (@ticks_up: the top edge, the labels under them; else the bottom edge,
 * the labels over them), appended to the ticks of @scale. */
static void
draw_ticks (TtvTimeBar *self, TtvTimeBarScale scale, cairo_t *cr, PangoLayout *layout, TtvTime a, TtvTime b,
            double x, double width, double top, double height, gboolean ticks_up)
{
  TtvTime step = scale_step (self, layout, a, b, width);

  cairo_save (cr);
  cairo_rectangle (cr, x, top, width, height);
  cairo_clip (cr);
  for (TtvTime t = ttv_viewer_first_tick (a, step, origin_of (self)); t <= b; t += step)
    {
      TtvTimeBarTick tick = { floor (x + (double) (t - a) / (double) (b - a) * width) + 0.5, t, NULL };
      int text_h;

      tick.label = ttv_viewer_format_tick (t, step, origin_of (self));
      cairo_move_to (cr, tick.x, ticks_up ? top : top + height - 6);
      cairo_line_to (cr, tick.x, ticks_up ? top + 5 : top + height);
      cairo_stroke (cr);
      pango_layout_set_text (layout, tick.label, -1);
      pango_layout_get_pixel_size (layout, NULL, &text_h);
      /* Under the ticks up, its top against the strip (the rest of its
       * line's height is room under the glyphs); over the ticks down. */
      cairo_move_to (cr, tick.x + 2, ticks_up ? top + MIN (0, height - text_h + 2) : top);
      pango_cairo_show_layout (cr, layout);
      g_array_append_val (self->ticks[scale], tick);
      if (t > G_MAXINT64 - step)
        break;
    }
  cairo_restore (cr);
}

/* The ticks of @ts, @scale's times over the width, in the band
 * @top..@top+@height, each linear piece its own, a mark on each compressed
 * gap.  Kept as the ticks of @scale. */
static void
draw_scale (TtvTimeBar *self, TtvTimeBarScale scale, const TtvTimeScale *ts, cairo_t *cr, GtkWidget *area,
            double top, double height, gboolean ticks_up)
{
  g_autoptr (PangoLayout) layout = gtk_widget_create_pango_layout (area, NULL);

  if (scale == TTV_TIME_BAR_OVERVIEW)
    {
      g_autoptr (PangoAttrList) attrs = pango_attr_list_new ();

      pango_attr_list_insert (attrs, pango_attr_scale_new (SCALE_TYPE));
      pango_layout_set_attributes (layout, attrs);
    }
  g_array_set_size (self->ticks[scale], 0);
  cairo_set_line_width (cr, 1);
  for (guint i = 0; i < ts->n_pieces; i++)
    {
      const TtvTimeScalePiece *p = &ts->pieces[i];

      if (!p->gap && p->t1 > p->t0 && p->x1 - p->x0 >= 1)
        draw_ticks (self, scale, cr, layout, p->t0, p->t1, p->x0, p->x1 - p->x0, top, height, ticks_up);
    }
  ttv_viewer_draw_time_gaps (cr, ts, top, height);
}

/* A vertical line at @x from @top, @height long. */
static void
vline (cairo_t *cr, double x, double top, double height)
{
  cairo_move_to (cr, floor (x) + 0.5, top);
  cairo_line_to (cr, floor (x) + 0.5, top + height);
  cairo_stroke (cr);
}

static void
draw_ruler (TtvTimeBar *self, cairo_t *cr, GtkWidget *area, double width, const GdkRGBA *fg)
{
  TtvTime ws, we, sel_s, sel_e;
  GdkRGBA cur_color, sel_color;
  TtvTimeScale scale;

  get_scale (self, TTV_TIME_BAR_RULER, width, &scale);

  ttv_viewer_get_marker_rgba (TTV_VIEWER_MARKER_CURRENT_TIME, &cur_color);
  ttv_viewer_get_marker_rgba (TTV_VIEWER_MARKER_SELECTION, &sel_color);
  ttv_tab_state_get_time_window (self->state, &ws, &we);
  cairo_set_source_rgb (cr, 0.95, 0.95, 0.93);
  cairo_rectangle (cr, 0, 0, width, RULER_HEIGHT);
  cairo_fill (cr);
  if (ttv_tab_state_get_selection (self->state, &sel_s, &sel_e))
    {
      double x0 = ttv_time_scale_x_of_time (&scale, sel_s), x1 = ttv_time_scale_x_of_time (&scale, sel_e);
      cairo_set_source_rgba (cr, sel_color.red, sel_color.green, sel_color.blue, 0.3);
      cairo_rectangle (cr, x0, 0, MAX (1, x1 - x0), RULER_HEIGHT);
      cairo_fill (cr);
    }
  g_array_set_size (self->ticks[TTV_TIME_BAR_RULER], 0);
  if (we > ws && width > 0)
    {
      gdk_cairo_set_source_rgba (cr, fg);
      draw_scale (self, TTV_TIME_BAR_RULER, &scale, cr, area, 0, RULER_HEIGHT, FALSE);
    }
  gdk_cairo_set_source_rgba (cr, &cur_color);
  vline (cr, ttv_time_scale_x_of_time (&scale, ttv_tab_state_get_current_time (self->state)), 0, RULER_HEIGHT);
}

/* Lines from the ruler's ends down to the window's box in the overview:
 * the ruler shows that box, magnified. */
static void
draw_zoom_lines (TtvTimeBar *self, cairo_t *cr, double width, const TtvTimeScale *overview)
{
  TtvTime ws, we;

  ttv_tab_state_get_time_window (self->state, &ws, &we);
  cairo_set_source_rgba (cr, 0.2, 0.4, 0.9, 0.15);
  cairo_move_to (cr, 0, RULER_HEIGHT);
  cairo_line_to (cr, width, RULER_HEIGHT);
  cairo_line_to (cr, ttv_time_scale_x_of_time (overview, we), OVERVIEW_TOP);
  cairo_line_to (cr, ttv_time_scale_x_of_time (overview, ws), OVERVIEW_TOP);
  cairo_close_path (cr);
  cairo_fill_preserve (cr);
  cairo_set_source_rgba (cr, 0.2, 0.4, 0.9, 0.6);
  cairo_set_line_width (cr, 1);
  cairo_stroke (cr);
}

static void
draw_overview (TtvTimeBar *self, cairo_t *cr, GtkWidget *area, double width, const GdkRGBA *fg,
               const TtvTimeScale *scale)
{
  TtvTime ws, we, ss, se;
  GdkRGBA cur_color, mark_color;
  GArray *density = ttv_tab_state_get_density (self->state);
  GPtrArray *bookmarks = ttv_tab_state_get_bookmarks (self->state);

  ttv_viewer_get_marker_rgba (TTV_VIEWER_MARKER_CURRENT_TIME, &cur_color);
  ttv_viewer_get_marker_rgba (TTV_VIEWER_MARKER_BOOKMARK, &mark_color);
  ttv_tab_state_get_time_window (self->state, &ws, &we);
  ttv_tab_state_get_time_span (self->state, &ss, &se);
  cairo_save (cr);
  cairo_translate (cr, 0, OVERVIEW_TOP);
  cairo_set_source_rgb (cr, 0.88, 0.89, 0.92);
  cairo_rectangle (cr, 0, 0, width, OVERVIEW_HEIGHT);
  cairo_fill (cr);
  if (density && density->len)
    {
      guint32 max = 1;
      for (guint i = 0; i < density->len; i++)
        max = MAX (max, g_array_index (density, guint32, i));
      /* The bins leave the long idle gaps out; the scale places each.  A
       * bin ends where the next starts. */
      cairo_set_source_rgb (cr, 0.55, 0.6, 0.7);
      double x0 = ttv_time_scale_x_of_time (scale, ttv_tab_state_get_density_bin_start (self->state, 0));
      for (guint i = 0; i < density->len; i++)
        {
          double h = (double) g_array_index (density, guint32, i) / max * (OVERVIEW_HEIGHT - 2);
          double x1 = ttv_time_scale_x_of_time (scale, ttv_tab_state_get_density_bin_start (self->state, i + 1));
          cairo_rectangle (cr, x0, OVERVIEW_HEIGHT - h, MAX (1, x1 - x0), h);
          x0 = x1;
        }
      cairo_fill (cr);
    }
  gdk_cairo_set_source_rgba (cr, &mark_color);
  for (guint i = 0; i < bookmarks->len; i++)
    vline (cr, ttv_time_scale_x_of_time (scale, ((const TtvViewerBookmark *) bookmarks->pdata[i])->start), 0,
           OVERVIEW_HEIGHT);
  {
    double x0 = ttv_time_scale_x_of_time (scale, ws), x1 = ttv_time_scale_x_of_time (scale, we);
    cairo_set_source_rgba (cr, 0.2, 0.4, 0.9, 0.25);
    cairo_rectangle (cr, x0, 0, MAX (2, x1 - x0), OVERVIEW_HEIGHT);
    cairo_fill_preserve (cr);
    cairo_set_source_rgb (cr, 0.2, 0.4, 0.9);
    cairo_stroke (cr);
    gdk_cairo_set_source_rgba (cr, &cur_color);
    vline (cr, ttv_time_scale_x_of_time (scale, ttv_tab_state_get_current_time (self->state)), 0, OVERVIEW_HEIGHT);
  }
  cairo_restore (cr);
  /* The overview's scale: the whole traceset, ticks up against the strip. */
  cairo_set_source_rgb (cr, 0.95, 0.95, 0.93);
  cairo_rectangle (cr, 0, SCALE_TOP, width, SCALE_HEIGHT);
  cairo_fill (cr);
  g_array_set_size (self->ticks[TTV_TIME_BAR_OVERVIEW], 0);
  if (se > ss && width > 0)
    {
      gdk_cairo_set_source_rgba (cr, fg);
      draw_scale (self, TTV_TIME_BAR_OVERVIEW, scale, cr, area, SCALE_TOP, SCALE_HEIGHT, TRUE);
    }
}

static gboolean
area_draw (GtkWidget *area, cairo_t *cr, TtvTimeBar *self)
{
  GtkStyleContext *style = gtk_widget_get_style_context (area);
  double width = gtk_widget_get_allocated_width (area);
  GdkRGBA fg;
  TtvTimeScale overview;

  gtk_style_context_get_color (style, gtk_style_context_get_state (style), &fg);
  /* Each scale is built once a draw: its pieces place every mark. */
  get_scale (self, TTV_TIME_BAR_OVERVIEW, width, &overview);
  draw_ruler (self, cr, area, width, &fg);
  draw_zoom_lines (self, cr, width, &overview);
  draw_overview (self, cr, area, width, &fg, &overview);
  return FALSE;
}

static gboolean
area_press (GtkWidget *area, GdkEventButton *ev, TtvTimeBar *self)
{
  double width = gtk_widget_get_allocated_width (area);
  TtvTime ws, we, ss, se;

  if (ev->button != 1 || ev->type != GDK_BUTTON_PRESS)
    return FALSE;
  gtk_widget_grab_focus (area);
  ttv_tab_state_get_time_window (self->state, &ws, &we);
  ttv_tab_state_get_time_span (self->state, &ss, &se);
  if (ev->y < RULER_HEIGHT)
    {
      /* Click: current time; drag: selection. */
      self->drag = DRAG_SELECT;
      self->drag_time = x_to_time (self, TTV_TIME_BAR_RULER, ev->x, width);
      ttv_tab_state_set_current_time (self->state, self->drag_time);
    }
  else
    {
      TtvTime t = x_to_time (self, TTV_TIME_BAR_OVERVIEW, ev->x, width);
      if (t < ws || t > we)
        {
          /* Center the window on the click, then drag from there. */
          ttv_tab_state_set_time_window (self->state, t - (we - ws) / 2, t + (we - ws) / 2);
          ttv_tab_state_get_time_window (self->state, &ws, &we);
        }
      self->drag = DRAG_WINDOW;
      self->drag_x = ev->x;
      self->drag_window_start = ws;
    }
  return TRUE;
}

static gboolean
area_motion (GtkWidget *area, GdkEventMotion *ev, TtvTimeBar *self)
{
  double width = gtk_widget_get_allocated_width (area);
  TtvTime ws, we, ss, se;

  ttv_tab_state_get_time_window (self->state, &ws, &we);
  ttv_tab_state_get_time_span (self->state, &ss, &se);
  if (self->drag == DRAG_WINDOW && width > 0)
    {
      TtvTime delta = x_to_time (self, TTV_TIME_BAR_OVERVIEW, ev->x, width)
                      - x_to_time (self, TTV_TIME_BAR_OVERVIEW, self->drag_x, width);
      TtvTime start = self->drag_window_start + delta;
      ttv_tab_state_set_time_window (self->state, start, start + (we - ws));
    }
  else if (self->drag == DRAG_SELECT)
    {
      TtvTime t = x_to_time (self, TTV_TIME_BAR_RULER, ev->x, width);
      if (t != self->drag_time)
        ttv_tab_state_set_selection (self->state, self->drag_time, t);
    }
  return TRUE;
}

static gboolean
area_release (GtkWidget *area, GdkEventButton *ev, TtvTimeBar *self)
{
  self->drag = DRAG_NONE;
  return TRUE;
}

static gboolean
area_scroll (GtkWidget *area, GdkEventScroll *ev, TtvTimeBar *self)
{
  if (ev->direction == GDK_SCROLL_UP)
    ttv_time_bar_zoom (self->state, 0.5);
  else if (ev->direction == GDK_SCROLL_DOWN)
    ttv_time_bar_zoom (self->state, 2.0);
  return TRUE;
}

/* --- Construction ---------------------------------------------------------- */

static void
ttv_time_bar_dispose (GObject *object)
{
  TtvTimeBar *self = TTV_TIME_BAR (object);

  if (self->state)
    for (guint i = 0; i < G_N_ELEMENTS (self->handlers); i++)
      g_clear_signal_handler (&self->handlers[i], self->state);
  g_clear_object (&self->state);
  G_OBJECT_CLASS (ttv_time_bar_parent_class)->dispose (object);
}

static void
ttv_time_bar_finalize (GObject *object)
{
  TtvTimeBar *self = TTV_TIME_BAR (object);

  for (guint i = 0; i < TTV_TIME_BAR_N_SCALES; i++)
    g_array_unref (self->ticks[i]);
  G_OBJECT_CLASS (ttv_time_bar_parent_class)->finalize (object);
}

static void
ttv_time_bar_class_init (TtvTimeBarClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = ttv_time_bar_dispose;
  G_OBJECT_CLASS (klass)->finalize = ttv_time_bar_finalize;
  /* TtvTimeBar::notice: (nullable) what the user should know about a time
   * just typed (it was out of the traceset), or NULL when all is well. */
  signals[SIG_NOTICE] = g_signal_new ("notice", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                      NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
ttv_time_bar_init (TtvTimeBar *self)
{
  for (guint i = 0; i < TTV_TIME_BAR_N_SCALES; i++)
    {
      self->ticks[i] = g_array_new (FALSE, TRUE, sizeof (TtvTimeBarTick));
      g_array_set_clear_func (self->ticks[i], tick_clear);
    }
}

const GArray *
ttv_time_bar_get_ticks (TtvTimeBar *self, TtvTimeBarScale scale)
{
  g_return_val_if_fail (TTV_IS_TIME_BAR (self) && scale < TTV_TIME_BAR_N_SCALES, NULL);
  return self->ticks[scale];
}

void
ttv_time_bar_get_strip (TtvTimeBar *self, TtvTimeBarScale scale, double *top, double *height,
                        double *labels_top, double *labels_height)
{
  g_return_if_fail (TTV_IS_TIME_BAR (self) && scale < TTV_TIME_BAR_N_SCALES);
  /* The ruler is its own strip: its marks and its labels share the band. */
  *top = scale == TTV_TIME_BAR_RULER ? 0 : OVERVIEW_TOP;
  *height = scale == TTV_TIME_BAR_RULER ? RULER_HEIGHT : OVERVIEW_HEIGHT;
  *labels_top = scale == TTV_TIME_BAR_RULER ? 0 : SCALE_TOP;
  *labels_height = scale == TTV_TIME_BAR_RULER ? RULER_HEIGHT : SCALE_HEIGHT;
}

double
ttv_time_bar_time_to_x (TtvTimeBar *self, TtvTimeBarScale scale, TtvTime t)
{
  g_return_val_if_fail (TTV_IS_TIME_BAR (self) && scale < TTV_TIME_BAR_N_SCALES, 0);
  return time_to_x (self, scale, t, gtk_widget_get_allocated_width (self->area));
}

/* @name: the widget's name, for tests ("time-bar-start"). */
static GtkEntry *
add_entry (TtvTimeBar *self, GtkBox *row, const char *name, const char *label, const char *tooltip)
{
  GtkWidget *l = gtk_label_new_with_mnemonic (label);
  GtkWidget *e = gtk_entry_new ();
  /* What every entry accepts (ttv_time_display_parse()). */
  g_autofree char *help = g_strdup_printf ("%s\n%s", tooltip,
                                           _("Type +S.N for seconds from the traceset start, S.N for "
                                             "seconds since the epoch, or a time of day such as "
                                             "10:13:20.5 (10:13:20.5Z in UTC)."));

  gtk_widget_set_name (e, name);
  gtk_entry_set_width_chars (GTK_ENTRY (e), 21);
  g_object_set_data_full (G_OBJECT (e), ENTRY_HELP, g_steal_pointer (&help), g_free);
  show_entry_help (GTK_ENTRY (e));
  gtk_label_set_mnemonic_widget (GTK_LABEL (l), e);
  gtk_box_pack_start (row, l, FALSE, FALSE, 0);
  gtk_box_pack_start (row, e, FALSE, FALSE, 0);
  g_signal_connect (e, "activate", G_CALLBACK (entry_activated), self);
  g_signal_connect (e, "focus-out-event", G_CALLBACK (entry_focus_out), self);
  return GTK_ENTRY (e);
}

static void
add_button (GtkBox *row, const char *icon, const char *action, const char *tooltip)
{
  GtkWidget *b = gtk_button_new_from_icon_name (icon, GTK_ICON_SIZE_BUTTON);

  gtk_actionable_set_action_name (GTK_ACTIONABLE (b), action);
  gtk_widget_set_tooltip_text (b, tooltip);
  gtk_widget_set_focus_on_click (b, FALSE);
  gtk_box_pack_start (row, b, FALSE, FALSE, 0);
}

/* "Relative ▾": how times are shown, for every view (the time-format setting). */
static void
add_format_button (TtvTimeBar *self, GtkBox *row)
{
  g_autoptr (GAction) action = ttv_viewer_time_format_action_new ();
  g_autoptr (GSimpleActionGroup) group = g_simple_action_group_new ();
  g_autoptr (GMenuModel) menu = ttv_viewer_time_format_menu_new ("timebar");

  self->format_button = gtk_menu_button_new ();
  gtk_widget_set_name (self->format_button, "time-format-button");
  gtk_widget_set_tooltip_text (self->format_button, _("How times are shown in every view"));
  gtk_menu_button_set_menu_model (GTK_MENU_BUTTON (self->format_button), menu);
  if (action)
    g_action_map_add_action (G_ACTION_MAP (group), action);
  else
    gtk_widget_set_sensitive (self->format_button, FALSE);   /* no settings schema */
  gtk_widget_insert_action_group (GTK_WIDGET (self), "timebar", G_ACTION_GROUP (group));
  gtk_box_pack_end (row, self->format_button, FALSE, FALSE, 0);
}

GtkWidget *
ttv_time_bar_new (TtvTabState *state)
{
  TtvTimeBar *self = g_object_new (TTV_TYPE_TIME_BAR, "orientation", GTK_ORIENTATION_VERTICAL,
                                   "spacing", 2, NULL);
  GtkBox *row = GTK_BOX (gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6));
  static const char *const sigs[] = {
    "time-window-changed", "current-time-changed", "selection-changed", "bookmarks-changed",
    "density-ready", "traceset-changed", "time-format-changed",
  };

  self->state = g_object_ref (state);
  gtk_container_set_border_width (GTK_CONTAINER (row), 2);
  self->start_entry = add_entry (self, row, "time-bar-start", _("_Start"), _("Start of the time window; Enter applies."));
  self->end_entry = add_entry (self, row, "time-bar-end", _("E_nd"), _("End of the time window; Enter applies."));
  self->current_entry = add_entry (self, row, "time-bar-current", _("C_urrent"), _("Current time; Enter applies."));
  add_button (row, "zoom-in-symbolic", "win.zoom-in", _("Zoom in (Ctrl++)"));
  add_button (row, "zoom-out-symbolic", "win.zoom-out", _("Zoom out (Ctrl+-)"));
  add_button (row, "zoom-fit-best-symbolic", "win.zoom-fit", _("Show the whole traceset (Ctrl+0)"));
  add_format_button (self, row);
  gtk_box_pack_start (GTK_BOX (self), GTK_WIDGET (row), FALSE, FALSE, 0);

  self->area = gtk_drawing_area_new ();
  gtk_widget_set_size_request (self->area, 200, AREA_HEIGHT);
  gtk_widget_set_can_focus (self->area, TRUE);
  gtk_widget_set_tooltip_text (self->area, _("Ruler: click sets the current time, drag selects an "
                                             "interval.  Overview: drag the time window; "
                                             "wheel zooms."));
  gtk_widget_add_events (self->area, GDK_BUTTON_PRESS_MASK | GDK_BUTTON_RELEASE_MASK
                         | GDK_BUTTON1_MOTION_MASK | GDK_SCROLL_MASK);
  g_signal_connect (self->area, "draw", G_CALLBACK (area_draw), self);
  ttv_viewer_watch_marker_colors (self->area);
  g_signal_connect (self->area, "button-press-event", G_CALLBACK (area_press), self);
  g_signal_connect (self->area, "motion-notify-event", G_CALLBACK (area_motion), self);
  g_signal_connect (self->area, "button-release-event", G_CALLBACK (area_release), self);
  g_signal_connect (self->area, "scroll-event", G_CALLBACK (area_scroll), self);
  gtk_box_pack_start (GTK_BOX (self), self->area, FALSE, FALSE, 0);

  for (guint i = 0; i < G_N_ELEMENTS (sigs); i++)
    self->handlers[i] = g_signal_connect_swapped (state, sigs[i], G_CALLBACK (refresh), self);
  refresh (self);
  gtk_widget_show_all (GTK_WIDGET (self));
  return GTK_WIDGET (self);
}
