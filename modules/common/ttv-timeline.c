/* ttv-timeline.c: the time-line widget of the control flow and resources
 * modules: each row's states over the tab's time window, one
 * query_pixels() per visible row (O(width) at any zoom), marks, wakeup
 * arrows, lost events, current time, selection; zoom, pan, select, export. */
#include "ttv-timeline.h"

#include <cairo-svg.h>
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

/* Wakeup arrows are drawn when the visible rows have at most this many marks. */
#define MAX_ARROWS 100
/* Marks of a row are drawn when they are this many pixels apart on average,
 * wakeup arrows when four times as far. */
#define MARK_SPACING 6
#define DRAG_THRESHOLD 3.0

static TtvPaletteColor
mode_color (TtvExecMode mode)
{
  switch (mode)
    {
    case TTV_MODE_USER: return TTV_PALETTE_RUN_USER;
    case TTV_MODE_SYSCALL: return TTV_PALETTE_RUN_SYSCALL;
    case TTV_MODE_TRAP: return TTV_PALETTE_RUN_TRAP;
    case TTV_MODE_IRQ: return TTV_PALETTE_RUN_IRQ;
    case TTV_MODE_SOFTIRQ: return TTV_PALETTE_RUN_SOFTIRQ;
    default: return TTV_PALETTE_RUN_UNKNOWN;
    }
}

gboolean
ttv_timeline_color_of_state (TtvHistoryRowKind kind, guint16 state, TtvPaletteColor *color)
{
  guint low = ttv_history_state_low (state);

  if (state == TTV_HISTORY_STATE_NONE)
    return FALSE;
  switch (kind)
    {
    case TTV_HISTORY_ROW_PROCESS:
      switch ((TtvProcessStatus) low)
        {
        case TTV_PROCESS_RUN: *color = mode_color (ttv_history_state_mode (state)); return TRUE;
        case TTV_PROCESS_WAIT_CPU: *color = TTV_PALETTE_WAIT_CPU; return TRUE;
        case TTV_PROCESS_WAIT_FORK: *color = TTV_PALETTE_WAIT_FORK; return TRUE;
        case TTV_PROCESS_WAIT: *color = TTV_PALETTE_BLOCKED; return TRUE;
        case TTV_PROCESS_ZOMBIE: *color = TTV_PALETTE_ZOMBIE; return TRUE;
        case TTV_PROCESS_EXIT: *color = TTV_PALETTE_EXITED; return TRUE;
        case TTV_PROCESS_DEAD: return FALSE;
        default: *color = TTV_PALETTE_UNKNOWN; return TRUE;
        }
    case TTV_HISTORY_ROW_CPU:
      if (low == TTV_HISTORY_CPU_IDLE)
        *color = TTV_PALETTE_CPU_IDLE;
      else if (low == TTV_HISTORY_CPU_BUSY)
        *color = mode_color (ttv_history_state_mode (state));
      else
        *color = TTV_PALETTE_UNKNOWN;
      return TRUE;
    case TTV_HISTORY_ROW_IRQ:
    case TTV_HISTORY_ROW_SOFTIRQ:
      *color = TTV_PALETTE_IRQ_ACTIVE;
      return low != 0;
    case TTV_HISTORY_ROW_BLOCKDEV:
      *color = TTV_PALETTE_BLOCKDEV_BUSY;
      return low != 0;
    default:
      return FALSE;
    }
}

const char *
ttv_timeline_describe_state (TtvHistoryRowKind kind, guint16 state)
{
  TtvPaletteColor color;

  if (state == TTV_HISTORY_STATE_NONE)
    return _("Not present");
  if (kind == TTV_HISTORY_ROW_PROCESS && ttv_history_state_low (state) == TTV_PROCESS_DEAD)
    return _("Exited");
  if ((kind == TTV_HISTORY_ROW_IRQ || kind == TTV_HISTORY_ROW_SOFTIRQ
       || kind == TTV_HISTORY_ROW_BLOCKDEV) && ttv_history_state_low (state) == 0)
    return _("Inactive");
  if (!ttv_timeline_color_of_state (kind, state, &color))
    return _("Unknown");
  return ttv_palette_get_label (color);
}

TtvTimelineRow *
ttv_timeline_row_new (TtvHistoryRowKind kind, guint row, const char *label)
{
  TtvTimelineRow *r = g_new0 (TtvTimelineRow, 1);

  r->kind = kind;
  r->row = row;
  r->label = g_strdup (label);
  return r;
}

void
ttv_timeline_row_free (TtvTimelineRow *row)
{
  if (!row)
    return;
  g_clear_pointer (&row->merged, g_array_unref);
  g_free (row->label);
  g_free (row);
}

/* --- The widget ------------------------------------------------------------ */

struct _TtvTimeline {
  GtkGrid parent_instance;

  TtvTabState *state;          /* owned reference */
  gulong handlers[4];
  GSettings *settings;         /* owned, NULL without the schema */
  TtvViewerHistory *history;   /* owned, may be NULL */
  GPtrArray *rows;             /* owned, of TtvTimelineRow * */
  GHashTable *pid_rows;        /* owned: pid -> display index + 1 (process rows) */
  GArray *legend;              /* of TtvPaletteColor */
  double colors[TTV_PALETTE_N_COLORS][3];
  double now_color[3], sel_color[3];
  GtkWidget *area;
  GtkAdjustment *vadj;         /* weak: the scrollbar's */
  gint cursor;                 /* the keyboard row, -1: none */
  guint adjust_id;             /* idle updating the scroll bar after an allocation */
  gboolean has_tree;           /* a row has an expander or a depth */
  char *status;                /* owned, may be NULL */

  /* Pointer interaction. */
  gboolean pressed, panning, banding;
  double press_x, press_y, cur_x;
  TtvTime press_t0, press_t1;
};

/* Each module compiling this file registers its own type name
 * (TTV_TIMELINE_TYPE_NAME from its meson.build): two modules in one process
 * must not both register "TtvTimeline". */
#ifndef TTV_TIMELINE_TYPE_NAME
#define TTV_TIMELINE_TYPE_NAME "TtvTimeline"
#endif

static gpointer ttv_timeline_parent_class;
static guint toggle_row_signal, toggle_all_signal;
static void ttv_timeline_class_init (TtvTimelineClass *klass);
static void ttv_timeline_init (TtvTimeline *self);

static void
ttv_timeline_intern_init (GTypeInstance *instance, gpointer klass)
{
  ttv_timeline_init ((TtvTimeline *) instance);
}

static void
ttv_timeline_class_intern_init (gpointer klass, gpointer data)
{
  ttv_timeline_parent_class = g_type_class_peek_parent (klass);
  ttv_timeline_class_init (klass);
}

GType
ttv_timeline_get_type (void)
{
  static gsize type_id;

  if (g_once_init_enter (&type_id))
    {
      GType t = g_type_register_static_simple (GTK_TYPE_GRID,
                                               g_intern_static_string (TTV_TIMELINE_TYPE_NAME),
                                               sizeof (TtvTimelineClass), ttv_timeline_class_intern_init,
                                               sizeof (TtvTimeline), ttv_timeline_intern_init,
                                               G_TYPE_FLAG_FINAL);
      g_once_init_leave (&type_id, t);
    }
  return type_id;
}

static void
parse_color (const char *text, const char *fallback, double rgb[3])
{
  GdkRGBA c;

  if (!text || !gdk_rgba_parse (&c, text))
    gdk_rgba_parse (&c, fallback);
  rgb[0] = c.red;
  rgb[1] = c.green;
  rgb[2] = c.blue;
}

static void
load_colors (TtvTimeline *self)
{
  g_autofree char *now = NULL, *sel = NULL;

  if (self->settings)
    {
      now = g_settings_get_string (self->settings, "current-time-color");
      sel = g_settings_get_string (self->settings, "selection-color");
    }
  for (guint i = 0; i < TTV_PALETTE_N_COLORS; i++)
    {
      GdkRGBA c;

      ttv_palette_get_rgba (self->settings, i, &c);
      self->colors[i][0] = c.red;
      self->colors[i][1] = c.green;
      self->colors[i][2] = c.blue;
    }
  parse_color (now, "#d91a1a", self->now_color);
  parse_color (sel, "#3366e6", self->sel_color);
  if (self->area)
    gtk_widget_queue_draw (self->area);
}

static double
plot_width (double width)
{
  return MAX (width - TTV_TIMELINE_LABEL_WIDTH, 1);
}

static void
get_window (TtvTimeline *self, TtvTime *t0, TtvTime *t1)
{
  ttv_tab_state_get_time_window (self->state, t0, t1);
  if (*t1 <= *t0)
    *t1 = *t0 + 1;
}

static double
x_of_time (TtvTime t, TtvTime t0, TtvTime t1, double pw)
{
  return TTV_TIMELINE_LABEL_WIDTH + (double) (t - t0) / (double) (t1 - t0) * pw;
}

static TtvTime
time_of_x (TtvTimeline *self, double x)
{
  TtvTime t0, t1;
  double pw = plot_width (gtk_widget_get_allocated_width (self->area));

  get_window (self, &t0, &t1);
  return t0 + (TtvTime) ((x - TTV_TIMELINE_LABEL_WIDTH) / pw * (double) (t1 - t0));
}

static void
set_rgb (cairo_t *cr, const double rgb[3])
{
  cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
}

static void
draw_legend (TtvTimeline *self, cairo_t *cr, double width)
{
  double x = 4;

  cairo_set_font_size (cr, 10);
  for (guint i = 0; i < self->legend->len; i++)
    {
      TtvPaletteColor c = g_array_index (self->legend, TtvPaletteColor, i);
      const char *label = ttv_palette_get_label (c);
      cairo_text_extents_t ext;

      cairo_text_extents (cr, label, &ext);
      if (x + 14 + ext.x_advance > width)
        break;
      set_rgb (cr, self->colors[c]);
      cairo_rectangle (cr, x, 4, 10, 10);
      cairo_fill (cr);
      cairo_set_source_rgb (cr, 0.2, 0.2, 0.2);
      cairo_move_to (cr, x + 13, 13);
      cairo_show_text (cr, label);
      x += 13 + ext.x_advance + 10;
    }
}

static void
draw_scale (TtvTimeline *self, cairo_t *cr, double width, TtvTime t0, TtvTime t1)
{
  double pw = plot_width (width);
  double y0 = TTV_TIMELINE_LEGEND_HEIGHT;
  guint n_ticks = (guint) MAX (pw / 200, 1);

  cairo_set_source_rgb (cr, 0.93, 0.93, 0.93);
  cairo_rectangle (cr, 0, y0, width, TTV_TIMELINE_HEADER - y0);
  cairo_fill (cr);
  cairo_set_font_size (cr, 10);
  for (guint i = 0; i <= n_ticks; i++)
    {
      double x = TTV_TIMELINE_LABEL_WIDTH + pw * i / n_ticks;
      TtvTime t = t0 + (TtvTime) ((double) (t1 - t0) * i / n_ticks);
      g_autofree char *text = ttv_viewer_time_to_string (t);
      cairo_text_extents_t ext;

      cairo_set_source_rgb (cr, 0.3, 0.3, 0.3);
      cairo_rectangle (cr, floor (x) - (i == n_ticks ? 1 : 0), y0 + 12, 1, 10);
      cairo_fill (cr);
      cairo_text_extents (cr, text, &ext);
      cairo_move_to (cr, CLAMP (x - ext.x_advance / 2, TTV_TIMELINE_LABEL_WIDTH, width - ext.x_advance),
                     y0 + 10);
      cairo_show_text (cr, text);
    }
  /* Lost events: red marks along the scale's bottom. */
  cairo_set_source_rgb (cr, 0.85, 0.1, 0.1);
  for (guint t = 0; t < ttv_tab_state_get_n_traces (self->state); t++)
    {
      TtvTrace *trace = ttv_tab_state_get_trace (self->state, t);

      for (guint f = 0; trace && f < trace->tracefiles->len; f++)
        {
          const TtvTracefile *tf = trace->tracefiles->pdata[f];

          for (guint i = 0; tf->lost && i < tf->lost->len; i++)
            {
              const TtvLostRange *r = &g_array_index (tf->lost, TtvLostRange, i);
              double a, b;

              if (r->end < t0 || r->start > t1)
                continue;
              a = x_of_time (MAX (r->start, t0), t0, t1, pw);
              b = x_of_time (MIN (r->end, t1), t0, t1, pw);
              cairo_rectangle (cr, a, TTV_TIMELINE_HEADER - 4, MAX (b - a, 2), 4);
            }
        }
    }
  cairo_fill (cr);
}

static void
draw_marks (TtvTimeline *self, cairo_t *cr, const TtvTimelineRow *r, double y, TtvTime t0,
            TtvTime t1, double pw, double scroll, guint *n_arrows)
{
  const TtvHistoryRowInfo *info = ttv_viewer_history_get_row (self->history, r->kind, r->row);
  g_autoptr (GArray) marks = NULL;
  TtvTime life, seen;

  /* Zoomed out, a row may have millions of marks: estimate from the row's
   * total before asking, so that a frame stays O(width). */
  if (!info)
    return;
  life = MAX (info->end - info->birth, 1);
  seen = MIN (t1, info->end) - MAX (t0, info->birth);
  if (seen <= 0
      || (double) info->n_marks * ((double) seen / (double) life) * MARK_SPACING > 4 * pw)
    return;
  marks = ttv_viewer_history_query_marks (self->history, r->row, t0, t1);
  if (!marks || marks->len * MARK_SPACING > pw)
    return;   /* too many to tell apart: the states say enough */
  for (guint i = 0; i < marks->len; i++)
    {
      const TtvHistoryMark *m = &g_array_index (marks, TtvHistoryMark, i);
      double x = floor (x_of_time (m->time, t0, t1, pw)) + 0.5;

      switch (m->kind)
        {
        case TTV_HISTORY_MARK_FORK: cairo_set_source_rgb (cr, 0.0, 0.5, 0.0); break;
        case TTV_HISTORY_MARK_EXEC: cairo_set_source_rgb (cr, 0.0, 0.2, 0.8); break;
        case TTV_HISTORY_MARK_EXIT: cairo_set_source_rgb (cr, 0.0, 0.0, 0.0); break;
        default: cairo_set_source_rgb (cr, 0.9, 0.45, 0.0); break;
        }
      cairo_move_to (cr, x - 3, y);
      cairo_line_to (cr, x + 3, y);
      cairo_line_to (cr, x, y + TTV_TIMELINE_BAR_INSET);
      cairo_close_path (cr);
      cairo_fill (cr);
      if (m->kind == TTV_HISTORY_MARK_WAKEUP && m->other != TTV_VIEWER_PID_NONE
          && *n_arrows < MAX_ARROWS && marks->len * MARK_SPACING * 4 <= pw)
        {
          guint from = GPOINTER_TO_UINT (g_hash_table_lookup (self->pid_rows,
                                                              GUINT_TO_POINTER (m->other)));
          double yf, yt = y + TTV_TIMELINE_ROW_HEIGHT / 2.0;

          if (!from)
            continue;
          yf = TTV_TIMELINE_HEADER + (from - 1) * TTV_TIMELINE_ROW_HEIGHT - scroll
               + TTV_TIMELINE_ROW_HEIGHT / 2.0;
          (*n_arrows)++;
          cairo_set_line_width (cr, 1);
          cairo_move_to (cr, x, yf);
          cairo_line_to (cr, x, yt);
          cairo_stroke (cr);
          cairo_move_to (cr, x, yt);
          cairo_line_to (cr, x - 3, yt + (yt > yf ? -5 : 5));
          cairo_line_to (cr, x + 3, yt + (yt > yf ? -5 : 5));
          cairo_close_path (cr);
          cairo_fill (cr);
        }
    }
}

/* The label column of a row: indent, expander triangle, text; the keyboard
 * row framed. */
static void
draw_label (TtvTimeline *self, cairo_t *cr, const TtvTimelineRow *r, gint index, double y)
{
  double x = 4 + r->depth * TTV_TIMELINE_INDENT;

  cairo_save (cr);
  cairo_rectangle (cr, 0, y, TTV_TIMELINE_LABEL_WIDTH - 4, TTV_TIMELINE_ROW_HEIGHT);
  cairo_clip (cr);
  if (r->expander != TTV_TIMELINE_EXPANDER_NONE)
    {
      double cx = x + TTV_TIMELINE_EXPANDER_WIDTH / 2.0 - 2, cy = y + TTV_TIMELINE_ROW_HEIGHT / 2.0;

      cairo_set_source_rgb (cr, 0.25, 0.25, 0.25);
      if (r->expander == TTV_TIMELINE_EXPANDER_COLLAPSED)
        {
          cairo_move_to (cr, cx - 3, cy - 5);
          cairo_line_to (cr, cx + 3, cy);
          cairo_line_to (cr, cx - 3, cy + 5);
        }
      else
        {
          cairo_move_to (cr, cx - 5, cy - 3);
          cairo_line_to (cr, cx + 5, cy - 3);
          cairo_line_to (cr, cx, cy + 3);
        }
      cairo_close_path (cr);
      cairo_fill (cr);
    }
  /* In a tree, every row keeps the triangles' column: names align. */
  if (self->has_tree)
    x += TTV_TIMELINE_EXPANDER_WIDTH;
  cairo_set_source_rgb (cr, 0.1, 0.1, 0.1);
  cairo_move_to (cr, x, y + TTV_TIMELINE_ROW_HEIGHT - 5);
  cairo_show_text (cr, r->label);
  cairo_restore (cr);
  if (index == self->cursor && gtk_widget_has_focus (self->area))
    {
      /* Inside the stripe's edge, so that the stripe colour stays countable. */
      cairo_set_source_rgb (cr, 0.2, 0.4, 0.9);
      cairo_set_line_width (cr, 1);
      cairo_rectangle (cr, 2.5, y + 0.5, TTV_TIMELINE_LABEL_WIDTH - 5, TTV_TIMELINE_ROW_HEIGHT - 1);
      cairo_stroke (cr);
    }
}

/* How much a process state says about its process, for a collapsed row:
 * running beats waiting for a CPU beats blocked, so that a pixel shows
 * the busiest thread. */
static guint
state_weight (guint16 state)
{
  if (state == TTV_HISTORY_STATE_NONE)
    return 0;
  switch ((TtvProcessStatus) ttv_history_state_low (state))
    {
    case TTV_PROCESS_RUN: return 7;
    case TTV_PROCESS_WAIT_CPU: return 6;
    case TTV_PROCESS_WAIT_FORK: return 5;
    case TTV_PROCESS_WAIT: return 4;
    case TTV_PROCESS_ZOMBIE: return 3;
    case TTV_PROCESS_EXIT: return 2;
    case TTV_PROCESS_DEAD: return 0;
    default: return 1;
    }
}

/* A collapsed process row shows its threads combined, not the leader's
 * own state: a server's leader often sleeps in poll() while its workers
 * run, and the collapsed row must not look idle then.  Per pixel, the
 * busiest state of the group (state_weight); O(width) per thread. */
static void
merge_pixels (TtvTimeline *self, const TtvTimelineRow *r, TtvTime t0, TtvTime t1, guint w,
              TtvHistoryPixel *px)
{
  g_autofree TtvHistoryPixel *other = g_new (TtvHistoryPixel, MAX (w, 1));

  for (guint m = 0; m < r->merged->len; m++)
    {
      ttv_viewer_history_query_pixels (self->history, r->kind, g_array_index (r->merged, guint, m),
                                       t0, t1, w, other);
      for (guint x = 0; x < w; x++)
        {
          if (state_weight (other[x].state) > state_weight (px[x].state))
            px[x].state = other[x].state;
          px[x].n_events += other[x].n_events;
        }
    }
}

static void
draw_status (TtvTimeline *self, cairo_t *cr, double width, double height)
{
  cairo_text_extents_t ext;

  if (!self->status || !*self->status)
    return;
  cairo_set_font_size (cr, 11);
  cairo_text_extents (cr, self->status, &ext);
  cairo_set_source_rgba (cr, 1, 1, 0.85, 0.95);
  cairo_rectangle (cr, width - ext.x_advance - 16, height - 20, ext.x_advance + 12, 18);
  cairo_fill (cr);
  cairo_set_source_rgb (cr, 0.2, 0.2, 0.2);
  cairo_move_to (cr, width - ext.x_advance - 10, height - 7);
  cairo_show_text (cr, self->status);
}

/* Everything but the pointer feedback; @scroll: pixels scrolled down;
 * rows outside [clip_y0, clip_y1) are not queried. */
static void
draw_view (TtvTimeline *self, cairo_t *cr, double width, double height, double scroll,
           double clip_y0, double clip_y1)
{
  TtvTime t0, t1, now, s0, s1;
  double pw = plot_width (width);
  guint w = (guint) pw;
  g_autofree TtvHistoryPixel *px = g_new (TtvHistoryPixel, MAX (w, 1));
  guint first, n_arrows = 0;

  get_window (self, &t0, &t1);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  cairo_select_font_face (cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  if (!self->history)
    {
      cairo_set_source_rgb (cr, 0.4, 0.4, 0.4);
      cairo_set_font_size (cr, 12);
      cairo_move_to (cr, 8, TTV_TIMELINE_HEADER + 14);
      cairo_show_text (cr, _("Waiting for the state history…"));
      return;
    }

  cairo_save (cr);
  cairo_rectangle (cr, 0, TTV_TIMELINE_HEADER, width, MAX (height - TTV_TIMELINE_HEADER, 0));
  cairo_clip (cr);
  cairo_set_font_size (cr, 11);
  first = (guint) MAX (floor (scroll / TTV_TIMELINE_ROW_HEIGHT), 0);
  for (guint i = first; i < self->rows->len; i++)
    {
      const TtvTimelineRow *r = self->rows->pdata[i];
      double y = TTV_TIMELINE_HEADER + (double) i * TTV_TIMELINE_ROW_HEIGHT - scroll;
      guint x = 0;

      if (y >= height)
        break;
      if (y + TTV_TIMELINE_ROW_HEIGHT <= clip_y0 || y >= clip_y1)
        continue;
      /* The label column, striped so that rows can be told (and counted). */
      if (i % 2 == 0)
        cairo_set_source_rgb (cr, 230 / 255.0, 230 / 255.0, 230 / 255.0);
      else
        cairo_set_source_rgb (cr, 247 / 255.0, 247 / 255.0, 247 / 255.0);
      cairo_rectangle (cr, 0, y, TTV_TIMELINE_LABEL_WIDTH, TTV_TIMELINE_ROW_HEIGHT);
      cairo_fill (cr);
      draw_label (self, cr, r, (gint) i, y);

      /* The states: runs of pixels with the same dominant state. */
      ttv_viewer_history_query_pixels (self->history, r->kind, r->row, t0, t1, w, px);
      if (r->merged && r->merged->len > 0)
        merge_pixels (self, r, t0, t1, w, px);
      while (x < w)
        {
          guint end = x + 1;
          TtvPaletteColor color;

          while (end < w && px[end].state == px[x].state)
            end++;
          if (ttv_timeline_color_of_state (r->kind, px[x].state, &color))
            {
              set_rgb (cr, self->colors[color]);
              cairo_rectangle (cr, TTV_TIMELINE_LABEL_WIDTH + x, y + TTV_TIMELINE_BAR_INSET,
                               end - x, TTV_TIMELINE_ROW_HEIGHT - 2 * TTV_TIMELINE_BAR_INSET);
              cairo_fill (cr);
            }
          x = end;
        }
      if (r->kind == TTV_HISTORY_ROW_PROCESS)
        draw_marks (self, cr, r, y, t0, t1, pw, scroll, &n_arrows);
    }
  cairo_restore (cr);

  /* The selection, then the current time over everything. */
  if (ttv_tab_state_get_selection (self->state, &s0, &s1) && s1 >= t0 && s0 <= t1)
    {
      double a = x_of_time (MAX (s0, t0), t0, t1, pw), b = x_of_time (MIN (s1, t1), t0, t1, pw);

      cairo_set_source_rgba (cr, self->sel_color[0], self->sel_color[1], self->sel_color[2], 0.2);
      cairo_rectangle (cr, a, TTV_TIMELINE_HEADER, MAX (b - a, 1), height - TTV_TIMELINE_HEADER);
      cairo_fill (cr);
    }
  now = ttv_tab_state_get_current_time (self->state);
  if (now >= t0 && now <= t1)
    {
      set_rgb (cr, self->now_color);
      cairo_rectangle (cr, floor (x_of_time (now, t0, t1, pw)), TTV_TIMELINE_LEGEND_HEIGHT, 1, height);
      cairo_fill (cr);
    }
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_rectangle (cr, 0, 0, width, TTV_TIMELINE_LEGEND_HEIGHT);
  cairo_fill (cr);
  draw_legend (self, cr, width);
  draw_scale (self, cr, width, t0, t1);
  draw_status (self, cr, width, height);
}

static gboolean
area_draw (GtkWidget *area, cairo_t *cr, TtvTimeline *self)
{
  double x0, y0, x1, y1;
  gint64 start = g_get_monotonic_time ();

  cairo_clip_extents (cr, &x0, &y0, &x1, &y1);
  draw_view (self, cr, gtk_widget_get_allocated_width (area), gtk_widget_get_allocated_height (area),
             gtk_adjustment_get_value (self->vadj), y0, y1);
  if (self->banding)
    {
      double a = MIN (self->press_x, self->cur_x), b = MAX (self->press_x, self->cur_x);

      cairo_set_source_rgba (cr, self->sel_color[0], self->sel_color[1], self->sel_color[2], 0.35);
      cairo_rectangle (cr, a, TTV_TIMELINE_HEADER, b - a, gtk_widget_get_allocated_height (area));
      cairo_fill (cr);
    }
  g_debug ("timeline frame: %.2f ms", (g_get_monotonic_time () - start) / 1000.0);
  return GDK_EVENT_STOP;
}

static void
update_adjustment (TtvTimeline *self)
{
  double page = MAX (gtk_widget_get_allocated_height (self->area) - TTV_TIMELINE_HEADER, 1);
  double upper = (double) (self->rows ? self->rows->len : 0) * TTV_TIMELINE_ROW_HEIGHT;

  gtk_adjustment_configure (self->vadj, CLAMP (gtk_adjustment_get_value (self->vadj), 0, MAX (upper - page, 0)),
                            0, MAX (upper, page), TTV_TIMELINE_ROW_HEIGHT, page * 0.9, page);
}

static gboolean
adjust_idle (gpointer data)
{
  TtvTimeline *self = data;

  self->adjust_id = 0;
  update_adjustment (self);
  return G_SOURCE_REMOVE;
}

/* Changing the scroll bar's adjustment while the grid allocates its
 * children is lost on the scroll bar (it kept a page size of the first,
 * small allocation): done after the allocation. */
static void
area_size (GtkWidget *area, GdkRectangle *alloc, TtvTimeline *self)
{
  if (!self->adjust_id)
    self->adjust_id = g_idle_add (adjust_idle, self);
}

/* --- Pointer ----------------------------------------------------------------- */

static gint
row_at (TtvTimeline *self, double y)
{
  double v = y - TTV_TIMELINE_HEADER + gtk_adjustment_get_value (self->vadj);
  gint i;

  if (y < TTV_TIMELINE_HEADER || !self->rows)
    return -1;
  i = (gint) floor (v / TTV_TIMELINE_ROW_HEIGHT);
  return i >= 0 && (guint) i < self->rows->len ? i : -1;
}

static void
zoom_around (TtvTimeline *self, double x, double factor)
{
  TtvTime t0, t1, t, span_s, span_e;
  double left, right;

  get_window (self, &t0, &t1);
  ttv_tab_state_get_time_span (self->state, &span_s, &span_e);
  t = x >= TTV_TIMELINE_LABEL_WIDTH ? time_of_x (self, x) : t0 + (t1 - t0) / 2;
  left = (double) (t - t0) * factor;
  right = (double) (t1 - t) * factor;
  if (left + right < 100)   /* 100 ns: enough zoom */
    return;
  ttv_tab_state_set_time_window (self->state, MAX (t - (TtvTime) left, span_s),
                                 MIN (t + (TtvTime) right, span_e));
}

static void
pan (TtvTimeline *self, TtvTime t0, TtvTime t1, TtvTime delta)
{
  TtvTime span_s, span_e;

  ttv_tab_state_get_time_span (self->state, &span_s, &span_e);
  if (t0 + delta < span_s)
    delta = span_s - t0;
  if (t1 + delta > span_e)
    delta = span_e - t1;
  ttv_tab_state_set_time_window (self->state, t0 + delta, t1 + delta);
}

static gboolean
area_scroll (GtkWidget *area, GdkEventScroll *ev, TtvTimeline *self)
{
  TtvTime t0, t1;
  gboolean up = ev->direction == GDK_SCROLL_UP, down = ev->direction == GDK_SCROLL_DOWN;

  get_window (self, &t0, &t1);
  if ((ev->state & GDK_CONTROL_MASK) && (up || down))
    zoom_around (self, ev->x, up ? 0.8 : 1.25);
  else if (ev->direction == GDK_SCROLL_LEFT || ((ev->state & GDK_SHIFT_MASK) && up))
    pan (self, t0, t1, -(t1 - t0) / 10);
  else if (ev->direction == GDK_SCROLL_RIGHT || ((ev->state & GDK_SHIFT_MASK) && down))
    pan (self, t0, t1, (t1 - t0) / 10);
  else if (up || down)
    gtk_adjustment_set_value (self->vadj, gtk_adjustment_get_value (self->vadj)
                              + (up ? -3 : 3) * TTV_TIMELINE_ROW_HEIGHT);
  return GDK_EVENT_STOP;
}

/* Left drag pans, Shift+left or right drag selects an interval, a click
 * sets the current time. */
static void
toggle (TtvTimeline *self, gint index, gboolean expand)
{
  const TtvTimelineRow *r;

  if (index < 0 || (guint) index >= self->rows->len)
    return;
  r = self->rows->pdata[index];
  if (r->expander == TTV_TIMELINE_EXPANDER_NONE
      || (r->expander == TTV_TIMELINE_EXPANDER_EXPANDED) == expand)
    return;
  g_signal_emit (self, toggle_row_signal, 0, (guint) index, expand);
}

static gboolean
area_press (GtkWidget *area, GdkEventButton *ev, TtvTimeline *self)
{
  if (ev->type != GDK_BUTTON_PRESS || (ev->button != 1 && ev->button != 3))
    return GDK_EVENT_PROPAGATE;
  if (ev->x < TTV_TIMELINE_LABEL_WIDTH && ev->button == 1)
    {
      gint i = row_at (self, ev->y);

      gtk_widget_grab_focus (area);
      if (i >= 0)
        {
          const TtvTimelineRow *r = self->rows->pdata[i];
          double ex = 4 + r->depth * TTV_TIMELINE_INDENT;

          ttv_timeline_set_cursor (self, i);
          if (r->expander != TTV_TIMELINE_EXPANDER_NONE && ev->x >= ex - 2
              && ev->x < ex + TTV_TIMELINE_EXPANDER_WIDTH)
            {
              toggle (self, i, r->expander == TTV_TIMELINE_EXPANDER_COLLAPSED);
              return GDK_EVENT_STOP;
            }
        }
    }
  self->pressed = TRUE;
  self->panning = FALSE;
  self->banding = ev->button == 3 || (ev->state & GDK_SHIFT_MASK);
  self->press_x = self->cur_x = ev->x;
  self->press_y = ev->y;
  get_window (self, &self->press_t0, &self->press_t1);
  return GDK_EVENT_STOP;
}

static gboolean
area_motion (GtkWidget *area, GdkEventMotion *ev, TtvTimeline *self)
{
  if (!self->pressed)
    return GDK_EVENT_PROPAGATE;
  self->cur_x = ev->x;
  if (self->banding)
    gtk_widget_queue_draw (area);
  else if (self->panning || fabs (ev->x - self->press_x) >= DRAG_THRESHOLD)
    {
      double pw = plot_width (gtk_widget_get_allocated_width (area));
      TtvTime delta = (TtvTime) ((self->press_x - ev->x) / pw * (double) (self->press_t1 - self->press_t0));

      self->panning = TRUE;
      pan (self, self->press_t0, self->press_t1, delta);
    }
  return GDK_EVENT_STOP;
}

static gboolean
area_release (GtkWidget *area, GdkEventButton *ev, TtvTimeline *self)
{
  if (!self->pressed)
    return GDK_EVENT_PROPAGATE;
  self->pressed = FALSE;
  if (self->banding)
    {
      self->banding = FALSE;
      if (fabs (ev->x - self->press_x) >= DRAG_THRESHOLD)
        ttv_tab_state_set_selection (self->state, time_of_x (self, MIN (ev->x, self->press_x)),
                                     time_of_x (self, MAX (ev->x, self->press_x)));
      gtk_widget_queue_draw (area);
    }
  else if (!self->panning && ev->x >= TTV_TIMELINE_LABEL_WIDTH)
    ttv_tab_state_set_current_time (self->state, time_of_x (self, ev->x));
  self->panning = FALSE;
  return GDK_EVENT_STOP;
}

/* Up/Down/Home/End move the keyboard row; Right/+ expand it, Left/-
 * collapse it (Left on a thread: to its process); * and / expand and
 * collapse every row. */
static gboolean
area_key (GtkWidget *area, GdkEventKey *ev, TtvTimeline *self)
{
  gint n = (gint) self->rows->len, c = self->cursor;
  const TtvTimelineRow *r = c >= 0 && c < n ? self->rows->pdata[c] : NULL;

  if (ev->state & (GDK_CONTROL_MASK | GDK_MOD1_MASK))
    return GDK_EVENT_PROPAGATE;
  switch (ev->keyval)
    {
    case GDK_KEY_Up: case GDK_KEY_KP_Up:
      ttv_timeline_set_cursor (self, MAX (c - 1, 0));
      return GDK_EVENT_STOP;
    case GDK_KEY_Down: case GDK_KEY_KP_Down:
      ttv_timeline_set_cursor (self, MIN (c + 1, n - 1));
      return GDK_EVENT_STOP;
    case GDK_KEY_Right: case GDK_KEY_KP_Right: case GDK_KEY_plus: case GDK_KEY_KP_Add:
      if (r)
        toggle (self, c, TRUE);
      return GDK_EVENT_STOP;
    case GDK_KEY_Home: case GDK_KEY_KP_Home:
      ttv_timeline_set_cursor (self, n > 0 ? 0 : -1);
      return GDK_EVENT_STOP;
    case GDK_KEY_End: case GDK_KEY_KP_End:
      ttv_timeline_set_cursor (self, n - 1);
      return GDK_EVENT_STOP;
    case GDK_KEY_asterisk: case GDK_KEY_KP_Multiply:
      g_signal_emit (self, toggle_all_signal, 0, TRUE);
      return GDK_EVENT_STOP;
    case GDK_KEY_slash: case GDK_KEY_KP_Divide:
      g_signal_emit (self, toggle_all_signal, 0, FALSE);
      return GDK_EVENT_STOP;
    case GDK_KEY_Left: case GDK_KEY_KP_Left: case GDK_KEY_minus: case GDK_KEY_KP_Subtract:
      if (r && r->expander == TTV_TIMELINE_EXPANDER_EXPANDED)
        toggle (self, c, FALSE);
      else if (r && r->depth > 0 && (ev->keyval == GDK_KEY_Left || ev->keyval == GDK_KEY_KP_Left))
        {
          gint p = c;

          while (p > 0 && ((const TtvTimelineRow *) self->rows->pdata[p])->depth >= r->depth)
            p--;
          ttv_timeline_set_cursor (self, p);
        }
      return GDK_EVENT_STOP;
    default:
      return GDK_EVENT_PROPAGATE;
    }
}

static void
area_focus_changed (TtvTimeline *self)
{
  gtk_widget_queue_draw (self->area);
}

static gboolean
area_tooltip (GtkWidget *area, gint x, gint y, gboolean keyboard, GtkTooltip *tooltip,
              TtvTimeline *self)
{
  gint i = row_at (self, y);
  const TtvTimelineRow *r;
  const TtvHistoryRowInfo *info;
  TtvHistoryInterval iv;
  TtvTime t;
  g_autofree char *when = NULL;
  g_autoptr (GString) text = NULL;

  if (i < 0 || !self->history || x < TTV_TIMELINE_LABEL_WIDTH)
    return FALSE;
  r = self->rows->pdata[i];
  info = ttv_viewer_history_get_row (self->history, r->kind, r->row);
  t = time_of_x (self, x);
  when = ttv_viewer_time_to_string (t);
  text = g_string_new (r->label);
  g_string_append_c (text, '\n');
  if (!ttv_viewer_history_get_interval_at (self->history, r->kind, r->row, t, &iv))
    g_string_append (text, _("Not present"));
  else
    {
      g_string_append (text, ttv_timeline_describe_state (r->kind, iv.state));
      if (r->kind == TTV_HISTORY_ROW_PROCESS && ttv_history_state_low (iv.state) == TTV_PROCESS_RUN
          && ttv_history_state_mode (iv.state) == TTV_MODE_SYSCALL
          && ttv_viewer_history_get_syscall_name (iv.aux))
        g_string_append_printf (text, " (%s)", ttv_viewer_history_get_syscall_name (iv.aux));
      if (r->kind == TTV_HISTORY_ROW_PROCESS && iv.cpu >= 0)
        g_string_append_printf (text, _(", CPU %d"), iv.cpu);
      if (r->kind == TTV_HISTORY_ROW_CPU && iv.aux != TTV_VIEWER_PID_NONE
          && ttv_history_state_low (iv.state) == TTV_HISTORY_CPU_BUSY)
        g_string_append_printf (text, _(", PID %u"), iv.aux);
    }
  if (info && r->kind == TTV_HISTORY_ROW_PROCESS)
    {
      /* The name as of @t: the last exec before it, if the row's name changed. */
      g_autoptr (GArray) marks = ttv_viewer_history_query_marks (self->history, r->row, info->birth, t);

      for (guint m = marks ? marks->len : 0; m > 0; m--)
        {
          const TtvHistoryMark *mk = &g_array_index (marks, TtvHistoryMark, m - 1);

          if (mk->kind == TTV_HISTORY_MARK_EXEC && mk->name)
            {
              if (g_strcmp0 (mk->name, info->name) != 0)
                g_string_append_printf (text, _("\nNamed %s then"), mk->name);
              break;
            }
        }
      g_string_append_printf (text, _("\nPID %u, TGID %u"), info->id, info->tgid);
    }
  g_string_append_printf (text, _("\nTime %s"), when);
  gtk_tooltip_set_text (tooltip, text->str);
  return TRUE;
}

/* --- Public ---------------------------------------------------------------- */

static void
index_rows (TtvTimeline *self)
{
  g_hash_table_remove_all (self->pid_rows);
  for (guint i = 0; self->rows && self->history && i < self->rows->len; i++)
    {
      const TtvTimelineRow *r = self->rows->pdata[i];
      const TtvHistoryRowInfo *info;

      if (r->kind != TTV_HISTORY_ROW_PROCESS)
        continue;
      info = ttv_viewer_history_get_row (self->history, r->kind, r->row);
      if (info && !g_hash_table_contains (self->pid_rows, GUINT_TO_POINTER (info->id)))
        g_hash_table_insert (self->pid_rows, GUINT_TO_POINTER (info->id), GUINT_TO_POINTER (i + 1));
    }
  /* Threads folded into a collapsed row: their wakeups point at it. */
  for (guint i = 0; self->rows && self->history && i < self->rows->len; i++)
    {
      const TtvTimelineRow *r = self->rows->pdata[i];

      for (guint m = 0; r->merged && m < r->merged->len; m++)
        {
          const TtvHistoryRowInfo *info =
            ttv_viewer_history_get_row (self->history, r->kind, g_array_index (r->merged, guint, m));

          if (info && !g_hash_table_contains (self->pid_rows, GUINT_TO_POINTER (info->id)))
            g_hash_table_insert (self->pid_rows, GUINT_TO_POINTER (info->id), GUINT_TO_POINTER (i + 1));
        }
    }
}

void
ttv_timeline_set_history (TtvTimeline *self, TtvViewerHistory *history)
{
  g_return_if_fail (TTV_IS_TIMELINE (self));
  if (history)
    ttv_viewer_history_ref (history);
  g_clear_pointer (&self->history, ttv_viewer_history_unref);
  self->history = history;
  g_ptr_array_set_size (self->rows, 0);
  self->has_tree = FALSE;
  self->cursor = -1;
  index_rows (self);
  update_adjustment (self);
  gtk_widget_queue_draw (self->area);
}

TtvViewerHistory *
ttv_timeline_get_history (TtvTimeline *self)
{
  g_return_val_if_fail (TTV_IS_TIMELINE (self), NULL);
  return self->history;
}

void
ttv_timeline_set_rows (TtvTimeline *self, GPtrArray *rows)
{
  gboolean had_cursor = self->cursor >= 0 && (guint) self->cursor < self->rows->len;
  TtvHistoryRowKind kind = 0;
  guint row = 0;

  g_return_if_fail (TTV_IS_TIMELINE (self));
  if (had_cursor)
    {
      const TtvTimelineRow *r = self->rows->pdata[self->cursor];

      kind = r->kind;
      row = r->row;
    }
  g_ptr_array_unref (self->rows);
  self->rows = rows ? rows : g_ptr_array_new_with_free_func ((GDestroyNotify) ttv_timeline_row_free);
  /* The keyboard row stays on its history row (a collapse keeps the
   * process under the cursor). */
  self->cursor = -1;
  for (guint i = 0; had_cursor && i < self->rows->len; i++)
    {
      const TtvTimelineRow *r = self->rows->pdata[i];

      if (r->kind == kind && r->row == row)
        {
          self->cursor = (gint) i;
          break;
        }
    }
  self->has_tree = FALSE;
  for (guint i = 0; i < self->rows->len && !self->has_tree; i++)
    {
      const TtvTimelineRow *r = self->rows->pdata[i];

      self->has_tree = r->expander != TTV_TIMELINE_EXPANDER_NONE || r->depth > 0;
    }
  index_rows (self);
  update_adjustment (self);
  gtk_widget_queue_draw (self->area);
}

const TtvTimelineRow *
ttv_timeline_get_row (TtvTimeline *self, guint index)
{
  g_return_val_if_fail (TTV_IS_TIMELINE (self), NULL);
  return index < self->rows->len ? self->rows->pdata[index] : NULL;
}

gint
ttv_timeline_get_cursor (TtvTimeline *self)
{
  g_return_val_if_fail (TTV_IS_TIMELINE (self), -1);
  return self->cursor;
}

void
ttv_timeline_set_cursor (TtvTimeline *self, gint index)
{
  double top, page;

  g_return_if_fail (TTV_IS_TIMELINE (self));
  if (index < 0 || (guint) index >= self->rows->len)
    index = -1;
  self->cursor = index;
  if (index >= 0)
    {
      /* Scrolled into view. */
      top = (double) index * TTV_TIMELINE_ROW_HEIGHT;
      page = gtk_adjustment_get_page_size (self->vadj);
      if (top < gtk_adjustment_get_value (self->vadj))
        gtk_adjustment_set_value (self->vadj, top);
      else if (top + TTV_TIMELINE_ROW_HEIGHT > gtk_adjustment_get_value (self->vadj) + page)
        gtk_adjustment_set_value (self->vadj, top + TTV_TIMELINE_ROW_HEIGHT - page);
    }
  gtk_widget_queue_draw (self->area);
}

void
ttv_timeline_set_status (TtvTimeline *self, const char *status)
{
  g_return_if_fail (TTV_IS_TIMELINE (self));
  if (g_strcmp0 (status, self->status) == 0)
    return;
  g_free (self->status);
  self->status = g_strdup (status);
  gtk_widget_queue_draw (self->area);
}

guint
ttv_timeline_get_n_rows (TtvTimeline *self)
{
  g_return_val_if_fail (TTV_IS_TIMELINE (self), 0);
  return self->rows->len;
}

gboolean
ttv_timeline_render (TtvTimeline *self, const char *path, int width, int height, GError **error)
{
  cairo_surface_t *surface;
  cairo_status_t status;
  cairo_t *cr;
  gboolean svg = g_str_has_suffix (path, ".svg") || g_str_has_suffix (path, ".SVG");

  g_return_val_if_fail (TTV_IS_TIMELINE (self), FALSE);
  if (width < TTV_TIMELINE_LABEL_WIDTH + 1 || height < TTV_TIMELINE_HEADER + 1
      || width > 32767 || height > 32767)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("Cannot render %dx%d: the size must be from %dx%d to 32767x32767"),
                   width, height, TTV_TIMELINE_LABEL_WIDTH + 1, TTV_TIMELINE_HEADER + 1);
      return FALSE;
    }
  surface = svg ? cairo_svg_surface_create (path, width, height)
                : cairo_image_surface_create (CAIRO_FORMAT_RGB24, width, height);
  cr = cairo_create (surface);
  {
    gint64 start = g_get_monotonic_time ();

    draw_view (self, cr, width, height, 0, 0, height);
    cairo_surface_flush (surface);
    /* bench/render: the drawing alone, without the PNG encoding. */
    if (g_getenv ("TTV_BENCH_RENDER"))
      g_print ("{\"bench\": \"timeline-draw\", \"rows\": %u, \"width\": %d, \"height\": %d, "
               "\"draw_ms\": %.2f}\n", self->rows->len, width, height,
               (g_get_monotonic_time () - start) / 1000.0);
  }
  cairo_destroy (cr);
  if (svg)
    {
      cairo_surface_finish (surface);
      status = cairo_surface_status (surface);
    }
  else
    status = cairo_surface_write_to_png (surface, path);
  cairo_surface_destroy (surface);
  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("Cannot write %s: %s"), path,
                   cairo_status_to_string (status));
      return FALSE;
    }
  return TRUE;
}

static void
act_export (GSimpleAction *action, GVariant *param, gpointer data)
{
  TtvTimeline *self = data;
  g_autoptr (GError) error = NULL;

  if (!ttv_timeline_render (self, g_variant_get_string (param, NULL),
                            MAX (gtk_widget_get_allocated_width (self->area), TTV_TIMELINE_LABEL_WIDTH + 1),
                            MAX (gtk_widget_get_allocated_height (self->area), TTV_TIMELINE_HEADER + 1),
                            &error))
    g_warning ("%s", error->message);
}

static void
act_render (GSimpleAction *action, GVariant *param, gpointer data)
{
  g_autoptr (GError) error = NULL;
  const char *path;
  gint32 w, h;

  g_variant_get (param, "(&sii)", &path, &w, &h);
  if (!ttv_timeline_render (data, path, w, h, &error))
    g_warning ("%s", error->message);
}

static void
chooser_response (GtkNativeDialog *dialog, gint response, TtvTimeline *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autofree char *path = gtk_file_chooser_get_filename (GTK_FILE_CHOOSER (dialog));

      if (path)
        act_export (NULL, g_variant_new_string (path), self);
    }
  g_object_unref (dialog);
  g_object_unref (self);
}

static void
act_export_dialog (GSimpleAction *action, GVariant *param, gpointer data)
{
  TtvTimeline *self = data;
  GtkWidget *top = gtk_widget_get_toplevel (GTK_WIDGET (self));
  GtkFileChooserNative *chooser =
    gtk_file_chooser_native_new (_("Export View (.png or .svg)"),
                                 GTK_IS_WINDOW (top) ? GTK_WINDOW (top) : NULL,
                                 GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"), _("_Cancel"));

  gtk_file_chooser_set_do_overwrite_confirmation (GTK_FILE_CHOOSER (chooser), TRUE);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), "view.png");
  g_signal_connect (chooser, "response", G_CALLBACK (chooser_response), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

/* The palette is edited in Preferences (win.preferences of the main
 * window): one place for every view; they all reload on "changed". */
static void
act_edit_colors (GSimpleAction *action, GVariant *param, gpointer data)
{
  GtkWidget *top = gtk_widget_get_toplevel (GTK_WIDGET (data));

  if (G_IS_ACTION_GROUP (top) && g_action_group_has_action (G_ACTION_GROUP (top), "preferences"))
    g_action_group_activate_action (G_ACTION_GROUP (top), "preferences", NULL);
}

void
ttv_timeline_add_actions (TtvTimeline *self, GActionMap *map)
{
  const GActionEntry entries[] = {
    { "export", act_export, "s", NULL, NULL, { 0 } },
    { "export-dialog", act_export_dialog, NULL, NULL, NULL, { 0 } },
    { "render", act_render, "(sii)", NULL, NULL, { 0 } },
    { "edit-colors", act_edit_colors, NULL, NULL, NULL, { 0 } },
  };

  g_action_map_add_action_entries (map, entries, G_N_ELEMENTS (entries), self);
}

static void
queue_draw (TtvTimeline *self)
{
  gtk_widget_queue_draw (self->area);
}

static void
ttv_timeline_dispose (GObject *object)
{
  TtvTimeline *self = TTV_TIMELINE (object);

  if (self->state)
    for (guint i = 0; i < G_N_ELEMENTS (self->handlers); i++)
      g_clear_signal_handler (&self->handlers[i], self->state);
  g_clear_object (&self->state);
  g_clear_object (&self->settings);
  g_clear_handle_id (&self->adjust_id, g_source_remove);
  g_clear_pointer (&self->history, ttv_viewer_history_unref);
  G_OBJECT_CLASS (ttv_timeline_parent_class)->dispose (object);
}

static void
ttv_timeline_finalize (GObject *object)
{
  TtvTimeline *self = TTV_TIMELINE (object);

  g_ptr_array_unref (self->rows);
  g_hash_table_unref (self->pid_rows);
  g_array_unref (self->legend);
  g_free (self->status);
  G_OBJECT_CLASS (ttv_timeline_parent_class)->finalize (object);
}

static void
ttv_timeline_class_init (TtvTimelineClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = ttv_timeline_dispose;
  G_OBJECT_CLASS (klass)->finalize = ttv_timeline_finalize;
  toggle_row_signal = g_signal_new ("toggle-row", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                    NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_UINT, G_TYPE_BOOLEAN);
  toggle_all_signal = g_signal_new ("toggle-all", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                    NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_BOOLEAN);
}

static void
ttv_timeline_init (TtvTimeline *self)
{
  self->rows = g_ptr_array_new_with_free_func ((GDestroyNotify) ttv_timeline_row_free);
  self->pid_rows = g_hash_table_new (NULL, NULL);
  self->legend = g_array_new (FALSE, FALSE, sizeof (TtvPaletteColor));
  self->cursor = -1;
}

GtkWidget *
ttv_timeline_new (TtvTabState *state, const TtvPaletteColor *legend, guint n_legend)
{
  TtvTimeline *self = g_object_new (TTV_TYPE_TIMELINE, NULL);
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr (GSettingsSchema) schema = source ? g_settings_schema_source_lookup (source, "org.ttv.Viewer", TRUE)
                                              : NULL;
  GtkWidget *scrollbar;

  self->state = g_object_ref (state);
  g_array_append_vals (self->legend, legend, n_legend);
  if (schema && g_settings_schema_has_key (schema, "timeline-colors"))
    {
      self->settings = g_settings_new ("org.ttv.Viewer");
      g_signal_connect_object (self->settings, "changed", G_CALLBACK (load_colors), self,
                               G_CONNECT_SWAPPED);
    }
  load_colors (self);

  self->area = gtk_drawing_area_new ();
  gtk_widget_set_hexpand (self->area, TRUE);
  gtk_widget_set_vexpand (self->area, TRUE);
  gtk_widget_set_size_request (self->area, TTV_TIMELINE_LABEL_WIDTH + 100, TTV_TIMELINE_HEADER + 60);
  gtk_widget_set_has_tooltip (self->area, TRUE);
  gtk_widget_add_events (self->area, GDK_BUTTON_PRESS_MASK | GDK_BUTTON_RELEASE_MASK
                         | GDK_POINTER_MOTION_MASK | GDK_SCROLL_MASK | GDK_KEY_PRESS_MASK);
  /* Focus only from a click in the label column (or Tab): never on its own,
   * so that the event list keeps the keyboard when both views are shown. */
  gtk_widget_set_can_focus (self->area, TRUE);
  g_signal_connect (self->area, "key-press-event", G_CALLBACK (area_key), self);
  g_signal_connect_swapped (self->area, "notify::has-focus", G_CALLBACK (area_focus_changed), self);
  g_signal_connect (self->area, "draw", G_CALLBACK (area_draw), self);
  g_signal_connect (self->area, "size-allocate", G_CALLBACK (area_size), self);
  g_signal_connect (self->area, "scroll-event", G_CALLBACK (area_scroll), self);
  g_signal_connect (self->area, "button-press-event", G_CALLBACK (area_press), self);
  g_signal_connect (self->area, "motion-notify-event", G_CALLBACK (area_motion), self);
  g_signal_connect (self->area, "button-release-event", G_CALLBACK (area_release), self);
  g_signal_connect (self->area, "query-tooltip", G_CALLBACK (area_tooltip), self);
  gtk_grid_attach (GTK_GRID (self), self->area, 0, 0, 1, 1);

  scrollbar = gtk_scrollbar_new (GTK_ORIENTATION_VERTICAL, NULL);
  self->vadj = gtk_range_get_adjustment (GTK_RANGE (scrollbar));
  g_signal_connect_swapped (self->vadj, "value-changed", G_CALLBACK (queue_draw), self);
  gtk_grid_attach (GTK_GRID (self), scrollbar, 1, 0, 1, 1);

  self->handlers[0] = g_signal_connect_swapped (state, "time-window-changed", G_CALLBACK (queue_draw), self);
  self->handlers[1] = g_signal_connect_swapped (state, "current-time-changed", G_CALLBACK (queue_draw), self);
  self->handlers[2] = g_signal_connect_swapped (state, "selection-changed", G_CALLBACK (queue_draw), self);
  self->handlers[3] = 0;
  return GTK_WIDGET (self);
}
