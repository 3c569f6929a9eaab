/* ttv-timeline.c: the time-line widget of the control flow and resources
 * viewers: rows, columns and history in, zoom, pan, select, resize the
 * label area, keyboard rows, export and render out.  The drawing is in
 * ttv-timeline-draw.c, the tooltips in ttv-timeline-tooltip.c. */
#include "ttv-timeline-view.h"
#include "ttv-view-text.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#define DRAG_THRESHOLD 3.0
#define EDGE_GRAB 4.0           /* pixels either side of the label area's edge */

struct _TtvTimeline {
  GtkGrid parent_instance;

  TtvTimelineView view;        /* what is drawn */
  gulong handlers[7];
  GSettings *settings;         /* owned, NULL without the schema */
  gboolean thread_arrows_setting; /* the schema has timeline-thread-arrows */
  GActionMap *actions;         /* weak: the owner's, holding show-arrows */
  GtkWidget *area;
  GtkAdjustment *vadj;         /* weak: the scrollbar's */
  guint adjust_id;             /* idle updating the scroll bar after an allocation */
  double header;               /* the header's height at the area's width (last layout) */

  /* Pointer interaction. */
  gboolean pressed, panning, banding, resizing;
  double press_x, press_y, cur_x;
  TtvTime press_t0, press_t1;
  double press_label_width;
  GtkWidget *row_popup;        /* weak: the last row menu */
};

static guint toggle_row_signal, toggle_all_signal, column_clicked_signal, cursor_changed_signal, row_menu_signal;

G_DEFINE_FINAL_TYPE (TtvTimeline, ttv_timeline, GTK_TYPE_GRID)

/* The palette and the marker colours, again whenever a setting changes. */
static void
load_colors (TtvTimeline *self)
{
  ttv_timeline_view_load_colors (&self->view, self->settings);
  if (self->area)
    gtk_widget_queue_draw (self->area);
}

/* The layout of the widget as shown. */
static void
widget_layout (TtvTimeline *self, TimelineLayout *l)
{
  ttv_timeline_view_layout (&self->view, l, MAX (gtk_widget_get_allocated_width (self->area), 1),
                       MAX (gtk_widget_get_allocated_height (self->area), 1),
                       gtk_adjustment_get_value (self->vadj));
}

/* --- Drawing -------------------------------------------------------------------- */

static gboolean
area_draw (GtkWidget *area, cairo_t *cr, TtvTimeline *self)
{
  double x0, y0, x1, y1;
  gint64 start = g_get_monotonic_time ();
  TimelineLayout l;

  widget_layout (self, &l);
  self->header = l.header;
  self->view.focused = gtk_widget_has_focus (area);
  cairo_clip_extents (cr, &x0, &y0, &x1, &y1);
  ttv_timeline_view_draw (&self->view, cr, &l, y0, y1);
  /* What the ruler says, for tests (the plugin API has no getter). */
  g_object_set_data_full (G_OBJECT (area), "ttv-ruler-labels", g_strdup (self->view.ruler_labels), g_free);
  if (self->banding)
    {
      double a = MIN (self->press_x, self->cur_x), b = MAX (self->press_x, self->cur_x);

      cairo_set_source_rgba (cr, self->view.sel_color[0], self->view.sel_color[1], self->view.sel_color[2], 0.25);
      cairo_rectangle (cr, a, l.header, b - a, l.height);
      cairo_fill (cr);
    }
  g_debug ("timeline frame: %.2f ms", (g_get_monotonic_time () - start) / 1000.0);
  return GDK_EVENT_STOP;
}

static void
update_adjustment (TtvTimeline *self)
{
  double header = ttv_timeline_view_header_height (&self->view, MAX (gtk_widget_get_allocated_width (self->area), 1));
  double page = MAX (gtk_widget_get_allocated_height (self->area) - header, 1);
  double upper = (double) (self->view.rows ? self->view.rows->len : 0) * TTV_TIMELINE_ROW_HEIGHT;

  self->header = header;
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

/* --- Pointer --------------------------------------------------------------------- */

static void
zoom_around (TtvTimeline *self, const TimelineLayout *l, double x, double factor)
{
  TtvTime t, span_s, span_e;
  double left, right;

  ttv_tab_state_get_time_span (self->view.state, &span_s, &span_e);
  t = x >= l->label ? ttv_timeline_time_of_x (l, x) : l->t0 + (l->t1 - l->t0) / 2;
  left = (double) (t - l->t0) * factor;
  right = (double) (l->t1 - t) * factor;
  if (left + right < 100)   /* 100 ns: enough zoom */
    return;
  ttv_tab_state_set_time_window (self->view.state, MAX (t - (TtvTime) left, span_s),
                                 MIN (t + (TtvTime) right, span_e));
}

static void
pan (TtvTimeline *self, TtvTime t0, TtvTime t1, TtvTime delta)
{
  TtvTime span_s, span_e;

  ttv_tab_state_get_time_span (self->view.state, &span_s, &span_e);
  if (t0 + delta < span_s)
    delta = span_s - t0;
  if (t1 + delta > span_e)
    delta = span_e - t1;
  ttv_tab_state_set_time_window (self->view.state, t0 + delta, t1 + delta);
}

static gboolean
area_scroll (GtkWidget *area, GdkEventScroll *ev, TtvTimeline *self)
{
  TimelineLayout l;
  gboolean up = ev->direction == GDK_SCROLL_UP, down = ev->direction == GDK_SCROLL_DOWN;

  widget_layout (self, &l);
  if ((ev->state & GDK_CONTROL_MASK) && (up || down))
    zoom_around (self, &l, ev->x, up ? 0.8 : 1.25);
  else if (ev->direction == GDK_SCROLL_LEFT || ((ev->state & GDK_SHIFT_MASK) && up))
    pan (self, l.t0, l.t1, -(l.t1 - l.t0) / 10);
  else if (ev->direction == GDK_SCROLL_RIGHT || ((ev->state & GDK_SHIFT_MASK) && down))
    pan (self, l.t0, l.t1, (l.t1 - l.t0) / 10);
  else if (up || down)
    gtk_adjustment_set_value (self->vadj, gtk_adjustment_get_value (self->vadj)
                              + (up ? -3 : 3) * TTV_TIMELINE_ROW_HEIGHT);
  return GDK_EVENT_STOP;
}

static void
toggle (TtvTimeline *self, gint index, gboolean expand)
{
  const TtvTimelineRow *r;

  if (index < 0 || (guint) index >= self->view.rows->len)
    return;
  r = self->view.rows->pdata[index];
  if (r->expander == TTV_TIMELINE_EXPANDER_NONE
      || (r->expander == TTV_TIMELINE_EXPANDER_EXPANDED) == expand)
    return;
  g_signal_emit (self, toggle_row_signal, 0, (guint) index, expand);
}

static gboolean
near_edge (const TimelineLayout *l, double x, double y)
{
  return fabs (x - l->label) <= EDGE_GRAB && y >= l->header - TTV_TIMELINE_RULER_HEIGHT;
}

/* A click on a column title: its index, or -1. */
static gint
title_at (TtvTimeline *self, const TimelineLayout *l, double x, double y)
{
  double cx[16], cw[16];
  guint n;

  if (y < l->header - TTV_TIMELINE_RULER_HEIGHT || y >= l->header || x >= l->label)
    return -1;
  n = ttv_timeline_view_column_layout (&self->view, l->label, cx, cw);
  for (guint i = 0; i < n && i < 16; i++)
    if (x >= cx[i] && x < cx[i] + cw[i])
      return (gint) i;
  return -1;
}

/* In the label area a click picks the keyboard row (or opens a group,
 * or sorts by a column); its edge drags; in the plot, left drag pans,
 * Shift+left or right drag selects an interval, a click sets the current time. */
static gboolean
area_press (GtkWidget *area, GdkEventButton *ev, TtvTimeline *self)
{
  TimelineLayout l;

  if (ev->type == GDK_2BUTTON_PRESS && ev->button == 1)
    {
      TtvTime s0, s1, t;
      widget_layout (self, &l);
      t = ttv_timeline_time_of_x (&l, ev->x);
      /* A double click in the selection zooms to it. */
      if (ev->x >= l.label && ttv_tab_state_get_selection (self->view.state, &s0, &s1) && s1 > s0
          && t >= s0 && t <= s1)
        {
          ttv_tab_state_set_time_window (self->view.state, s0, s1);
          return GDK_EVENT_STOP;
        }
    }
  if (ev->type != GDK_BUTTON_PRESS || (ev->button != 1 && ev->button != 3))
    return GDK_EVENT_PROPAGATE;
  widget_layout (self, &l);
  if (ev->button == 1 && near_edge (&l, ev->x, ev->y))
    {
      self->resizing = TRUE;
      self->pressed = TRUE;
      self->press_x = ev->x;
      self->press_label_width = l.label;
      return GDK_EVENT_STOP;
    }
  /* A right click on a row's name: the row's menu (its owner's). */
  if (ev->x < l.label && ev->button == 3 && l.header <= ev->y)
    {
      gint i = ttv_timeline_view_row_at (&self->view, &l, ev->y);

      gtk_widget_grab_focus (area);
      if (i >= 0)
        ttv_timeline_set_cursor (self, i);
      /* (The rows may have been rebuilt: the cursor stays on its row.) */
      if (i >= 0 && self->view.cursor >= 0)
        g_signal_emit (self, row_menu_signal, 0, (guint) self->view.cursor, (GdkEvent *) ev);
      return GDK_EVENT_STOP;
    }
  if (ev->x < l.label && ev->button == 1)
    {
      gint i = ttv_timeline_view_row_at (&self->view, &l, ev->y), c = title_at (self, &l, ev->x, ev->y);

      if (c >= 0)
        {
          g_signal_emit (self, column_clicked_signal, 0, (guint) c);
          return GDK_EVENT_STOP;
        }
      gtk_widget_grab_focus (area);
      if (i >= 0)
        {
          const TtvTimelineRow *r = self->view.rows->pdata[i];
          double ex = 4 + r->depth * TTV_TIMELINE_INDENT;
          gboolean on_expander = r->expander != TTV_TIMELINE_EXPANDER_NONE && ev->x >= ex - 2
                                 && ev->x < ex + TTV_TIMELINE_EXPANDER_WIDTH;

          /* The owner may rebuild the rows when the cursor moves (a
           * follow ends): @r is not used after, the cursor's row is. */
          ttv_timeline_set_cursor (self, i);
          if (on_expander && self->view.cursor >= 0)
            {
              r = self->view.rows->pdata[self->view.cursor];
              toggle (self, self->view.cursor, r->expander == TTV_TIMELINE_EXPANDER_COLLAPSED);
              return GDK_EVENT_STOP;
            }
        }
    }
  self->pressed = TRUE;
  self->panning = FALSE;
  self->banding = ev->button == 3 || (ev->state & GDK_SHIFT_MASK);
  self->press_x = self->cur_x = ev->x;
  self->press_y = ev->y;
  ttv_timeline_view_get_window (&self->view, &self->press_t0, &self->press_t1);
  return GDK_EVENT_STOP;
}

static void
set_cursor (GtkWidget *area, const char *name)
{
  GdkWindow *window = gtk_widget_get_window (area);
  g_autoptr (GdkCursor) cursor = NULL;

  if (!window)
    return;
  if (name)
    cursor = gdk_cursor_new_from_name (gtk_widget_get_display (area), name);
  gdk_window_set_cursor (window, cursor);
}

static gboolean
area_motion (GtkWidget *area, GdkEventMotion *ev, TtvTimeline *self)
{
  TimelineLayout l;

  widget_layout (self, &l);
  if (!self->pressed)
    {
      set_cursor (area, near_edge (&l, ev->x, ev->y) ? "col-resize" : NULL);
      return GDK_EVENT_PROPAGATE;
    }
  self->cur_x = ev->x;
  if (self->resizing)
    {
      ttv_timeline_set_label_width (self, self->press_label_width + ev->x - self->press_x);
      self->view.label_width_set = TRUE;
    }
  else if (self->banding)
    gtk_widget_queue_draw (area);
  else if (self->panning || fabs (ev->x - self->press_x) >= DRAG_THRESHOLD)
    {
      TtvTime delta = (TtvTime) ((self->press_x - ev->x) / l.plot * (double) (self->press_t1 - self->press_t0));

      self->panning = TRUE;
      pan (self, self->press_t0, self->press_t1, delta);
    }
  return GDK_EVENT_STOP;
}

static gboolean
area_release (GtkWidget *area, GdkEventButton *ev, TtvTimeline *self)
{
  TimelineLayout l;

  if (!self->pressed)
    return GDK_EVENT_PROPAGATE;
  widget_layout (self, &l);
  self->pressed = FALSE;
  if (self->resizing)
    self->resizing = FALSE;
  else if (self->banding)
    {
      self->banding = FALSE;
      if (fabs (ev->x - self->press_x) >= DRAG_THRESHOLD)
        ttv_tab_state_set_selection (self->view.state, ttv_timeline_time_of_x (&l, MAX (MIN (ev->x, self->press_x), l.label)),
                                     ttv_timeline_time_of_x (&l, MAX (ev->x, self->press_x)));
      else
        ttv_tab_state_clear_selection (self->view.state);   /* a click clears it */
      gtk_widget_queue_draw (area);
    }
  else if (!self->panning && ev->x >= l.label)
    {
      TtvTime t = ttv_timeline_time_of_x (&l, ev->x), s0, s1;
      /* A click out of the selection clears it (in it: a double click zooms). */
      if (ttv_tab_state_get_selection (self->view.state, &s0, &s1) && (t < s0 || t > s1))
        ttv_tab_state_clear_selection (self->view.state);
      ttv_tab_state_set_current_time (self->view.state, t);
    }
  self->panning = FALSE;
  return GDK_EVENT_STOP;
}

/* Left/Right: the current time to the keyboard row's previous/next state
 * change (Trace Compass's keys; the window follows the current time). */
static void
jump_to_change (TtvTimeline *self, gboolean forward)
{
  TtvTime t;

  if (self->view.cursor >= 0
      && ttv_timeline_view_find_change (&self->view, (guint) self->view.cursor,
                                        ttv_tab_state_get_current_time (self->view.state), forward, &t))
    ttv_tab_state_set_current_time (self->view.state, t);
  else
    gtk_widget_error_bell (self->area);
}

/* Up/Down/Home/End move the keyboard row; Left/Right jump to its
 * previous/next state change; +/- expand and collapse it (- on a thread:
 * to its process); * and / expand and collapse every row. */
static gboolean
area_key (GtkWidget *area, GdkEventKey *ev, TtvTimeline *self)
{
  gint n = (gint) self->view.rows->len, c = self->view.cursor;
  const TtvTimelineRow *r = c >= 0 && c < n ? self->view.rows->pdata[c] : NULL;

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
    case GDK_KEY_Right: case GDK_KEY_KP_Right:
    case GDK_KEY_Left: case GDK_KEY_KP_Left:
      jump_to_change (self, ev->keyval == GDK_KEY_Right || ev->keyval == GDK_KEY_KP_Right);
      return GDK_EVENT_STOP;
    case GDK_KEY_plus: case GDK_KEY_KP_Add:
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
    case GDK_KEY_minus: case GDK_KEY_KP_Subtract:
      if (r && r->expander == TTV_TIMELINE_EXPANDER_EXPANDED)
        toggle (self, c, FALSE);
      else if (r && r->depth > 0)
        {
          gint p = c;

          while (p > 0 && ((const TtvTimelineRow *) self->view.rows->pdata[p])->depth >= r->depth)
            p--;
          ttv_timeline_set_cursor (self, p);
        }
      return GDK_EVENT_STOP;
    default:
      return GDK_EVENT_PROPAGATE;
    }
}

/* The Menu key or Shift+F10: the keyboard row's menu, under the row. */
static gboolean
area_popup_menu (GtkWidget *area, TtvTimeline *self)
{
  if (self->view.cursor < 0)
    return FALSE;
  g_signal_emit (self, row_menu_signal, 0, (guint) self->view.cursor, NULL);
  return TRUE;
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
  g_autofree char *text = ttv_timeline_dup_tooltip (self, x, y);

  if (!text)
    return FALSE;
  ttv_view_set_tooltip_text (tooltip, text);
  return TRUE;
}

/* --- Public ---------------------------------------------------------------- */

char *
ttv_timeline_dup_tooltip (TtvTimeline *self, double x, double y)
{
  TimelineLayout l;

  g_return_val_if_fail (TTV_IS_TIMELINE (self), NULL);
  widget_layout (self, &l);
  return ttv_timeline_view_dup_tooltip (&self->view, &l, x, y,
                                        g_signal_has_handler_pending (self, column_clicked_signal, 0, FALSE));
}

void
ttv_timeline_set_history (TtvTimeline *self, TtvViewerHistory *history)
{
  g_return_if_fail (TTV_IS_TIMELINE (self));
  ttv_timeline_view_set_history (&self->view, history);
  update_adjustment (self);
  gtk_widget_queue_draw (self->area);
}

TtvViewerHistory *
ttv_timeline_get_history (TtvTimeline *self)
{
  g_return_val_if_fail (TTV_IS_TIMELINE (self), NULL);
  return self->view.history;
}

void
ttv_timeline_set_rows (TtvTimeline *self, GPtrArray *rows)
{
  g_return_if_fail (TTV_IS_TIMELINE (self));
  ttv_timeline_view_set_rows (&self->view, rows);
  update_adjustment (self);
  gtk_widget_queue_draw (self->area);
}

const TtvTimelineRow *
ttv_timeline_get_row (TtvTimeline *self, guint index)
{
  g_return_val_if_fail (TTV_IS_TIMELINE (self), NULL);
  return index < self->view.rows->len ? self->view.rows->pdata[index] : NULL;
}

void
ttv_timeline_set_columns (TtvTimeline *self, const TtvTimelineColumn *columns, guint n_columns)
{
  g_return_if_fail (TTV_IS_TIMELINE (self));
  ttv_timeline_view_set_columns (&self->view, columns, n_columns);
  gtk_widget_queue_draw (self->area);
}

double
ttv_timeline_get_column_width (TtvTimeline *self, guint column)
{
  g_return_val_if_fail (TTV_IS_TIMELINE (self), 0);
  g_return_val_if_fail (column < self->view.columns->len, 0);
  return g_array_index (self->view.columns, Column, column).width;
}

void
ttv_timeline_set_sort_column (TtvTimeline *self, gint column, gboolean descending)
{
  g_return_if_fail (TTV_IS_TIMELINE (self));
  self->view.sort_column = column;
  self->view.sort_descending = descending;
  gtk_widget_queue_draw (self->area);
}

double
ttv_timeline_get_label_width (TtvTimeline *self)
{
  TimelineLayout l;

  g_return_val_if_fail (TTV_IS_TIMELINE (self), TTV_TIMELINE_LABEL_WIDTH);
  widget_layout (self, &l);
  return l.label;
}

void
ttv_timeline_set_label_width (TtvTimeline *self, double width)
{
  double max = MAX (gtk_widget_get_allocated_width (self->area) - 100, TTV_TIMELINE_LABEL_MIN);

  g_return_if_fail (TTV_IS_TIMELINE (self));
  /* Before the widget has a size, any width up to 2000 px. */
  if (!gtk_widget_get_realized (self->area))
    max = 2000;
  self->view.label_width = CLAMP (floor (width), TTV_TIMELINE_LABEL_MIN, max);
  gtk_widget_queue_draw (self->area);
}

double
ttv_timeline_get_header_height (TtvTimeline *self)
{
  g_return_val_if_fail (TTV_IS_TIMELINE (self), 0);
  return ttv_timeline_view_header_height (&self->view, MAX (gtk_widget_get_allocated_width (self->area), 1));
}

void
ttv_timeline_set_show_arrows (TtvTimeline *self, gboolean show)
{
  g_return_if_fail (TTV_IS_TIMELINE (self));
  self->view.show_arrows = show;
  gtk_widget_queue_draw (self->area);
}

guint
ttv_timeline_get_n_cpu_names_drawn (TtvTimeline *self)
{
  g_return_val_if_fail (TTV_IS_TIMELINE (self), 0);
  return self->view.n_cpu_names_drawn;
}

guint
ttv_timeline_get_n_arrows_drawn (TtvTimeline *self)
{
  g_return_val_if_fail (TTV_IS_TIMELINE (self), 0);
  return self->view.n_arrows_drawn;
}

gint
ttv_timeline_get_cursor (TtvTimeline *self)
{
  g_return_val_if_fail (TTV_IS_TIMELINE (self), -1);
  return self->view.cursor;
}

void
ttv_timeline_set_cursor (TtvTimeline *self, gint index)
{
  double top, page;

  g_return_if_fail (TTV_IS_TIMELINE (self));
  if (index < 0 || (guint) index >= self->view.rows->len)
    index = -1;
  gboolean moved = index != self->view.cursor;
  self->view.cursor = index;
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
  if (moved)
    g_signal_emit (self, cursor_changed_signal, 0);
}

void
ttv_timeline_popup_row_menu (TtvTimeline *self, GMenuModel *model, guint index, const GdkEvent *event)
{
  TimelineLayout l;
  GdkRectangle rect;
  GtkMenu *menu;

  g_return_if_fail (TTV_IS_TIMELINE (self));
  /* The last menu goes with the next one (or with the widget). */
  if (self->row_popup)
    gtk_widget_destroy (self->row_popup);
  menu = GTK_MENU (gtk_menu_new_from_model (model));
  g_set_weak_pointer (&self->row_popup, GTK_WIDGET (menu));
  gtk_menu_attach_to_widget (menu, self->area, NULL);
  if (event)
    {
      gtk_menu_popup_at_pointer (menu, event);
      return;
    }
  widget_layout (self, &l);
  rect.x = 8;
  rect.y = (int) (l.header + index * TTV_TIMELINE_ROW_HEIGHT - l.scroll);
  rect.width = (int) l.label - 16;
  rect.height = TTV_TIMELINE_ROW_HEIGHT;
  gtk_menu_popup_at_rect (menu, gtk_widget_get_window (self->area), &rect, GDK_GRAVITY_SOUTH_WEST,
                          GDK_GRAVITY_NORTH_WEST, NULL);
}

void
ttv_timeline_filter_on (TtvTimeline *self, const char *field, guint32 value)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *filter = g_strdup_printf ("%s = %u", field, value);

  g_return_if_fail (TTV_IS_TIMELINE (self));
  if (!ttv_tab_state_set_filter (self->view.state, filter, &error))
    g_warning ("%s", error->message);
}

void
ttv_timeline_menu_append (GMenu *menu, const char *label, const char *action, guint32 value)
{
  g_autoptr (GMenuItem) item = g_menu_item_new (label, NULL);

  g_menu_item_set_action_and_target_value (item, action, g_variant_new_uint32 (value));
  g_menu_append_item (menu, item);
}

void
ttv_timeline_menu_append_key (GMenu *menu, const char *label, const char *action, guint64 value)
{
  g_autoptr (GMenuItem) item = g_menu_item_new (label, NULL);

  g_menu_item_set_action_and_target_value (item, action, g_variant_new_uint64 (value));
  g_menu_append_item (menu, item);
}

gint
ttv_timeline_find_pid_row (TtvTimeline *self, guint machine, guint32 pid)
{
  g_return_val_if_fail (TTV_IS_TIMELINE (self), -1);
  return ttv_timeline_view_find_pid_row (&self->view, machine, pid);
}

void
ttv_timeline_set_status (TtvTimeline *self, const char *status)
{
  g_return_if_fail (TTV_IS_TIMELINE (self));
  if (g_strcmp0 (status, self->view.status) == 0)
    return;
  g_free (self->view.status);
  self->view.status = g_strdup (status);
  gtk_widget_queue_draw (self->area);
}

guint
ttv_timeline_get_n_rows (TtvTimeline *self)
{
  g_return_val_if_fail (TTV_IS_TIMELINE (self), 0);
  return self->view.rows->len;
}

/* --- Export and render ----------------------------------------------------------- */

typedef struct {
  TtvTimeline *self;
  double scroll;
} RenderJob;

static void
render_draw (gpointer data, cairo_t *cr, int width, int height)
{
  RenderJob *job = data;

  ttv_timeline_view_render (&job->self->view, cr, width, height, job->scroll, NULL);
}

gboolean
ttv_timeline_render (TtvTimeline *self, const char *path, int width, int height, GError **error)
{
  RenderJob job = { self, 0 };
  double header;

  g_return_val_if_fail (TTV_IS_TIMELINE (self), FALSE);
  header = ttv_timeline_view_header_height (&self->view, width);
  if (width < TTV_TIMELINE_LABEL_MIN + 100 || height < header + 1)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("Cannot render %dx%d: the size must be from %dx%d to 32767x32767"),
                   width, height, TTV_TIMELINE_LABEL_MIN + 100, (int) header + 1);
      return FALSE;
    }
  /* What is shown: scrolled as the widget is (the widget's own page). */
  job.scroll = gtk_adjustment_get_value (self->vadj);
  return ttv_viewer_write_image (path, width, height, render_draw, &job, error);
}

static gboolean
save_shown (GtkWidget *widget, const char *path, GError **error)
{
  TtvTimeline *self = TTV_TIMELINE (widget);

  int width = MAX (gtk_widget_get_allocated_width (self->area), TTV_TIMELINE_LABEL_MIN + 100);

  return ttv_timeline_render (self, path, width,
                              MAX (gtk_widget_get_allocated_height (self->area),
                                   (int) ttv_timeline_view_header_height (&self->view, width) + 1),
                              error);
}

static void
act_export (GSimpleAction *action, GVariant *param, gpointer data)
{
  g_autoptr (GError) error = NULL;

  if (!save_shown (data, g_variant_get_string (param, NULL), &error))
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
act_export_dialog (GSimpleAction *action, GVariant *param, gpointer data)
{
  ttv_viewer_export_dialog (data, _("Export View (.png or .svg)"), "view.png", save_shown);
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

static void
change_show_arrows (GSimpleAction *action, GVariant *value, gpointer data)
{
  TtvTimeline *self = data;

  g_simple_action_set_state (action, value);
  ttv_timeline_set_show_arrows (self, g_variant_get_boolean (value));
  if (self->settings && g_settings_get_boolean (self->settings, "timeline-arrows") != g_variant_get_boolean (value))
    g_settings_set_boolean (self->settings, "timeline-arrows", g_variant_get_boolean (value));
}

/* The selected thread's arrows (the timeline-thread-arrows setting when
 * the schema has it). */
static void
change_thread_arrows (GSimpleAction *action, GVariant *value, gpointer data)
{
  TtvTimeline *self = data;
  gboolean on = g_variant_get_boolean (value);

  g_simple_action_set_state (action, value);
  self->view.show_thread_arrows = on;
  gtk_widget_queue_draw (self->area);
  if (self->thread_arrows_setting && g_settings_get_boolean (self->settings, "timeline-thread-arrows") != on)
    g_settings_set_boolean (self->settings, "timeline-thread-arrows", on);
}

static void
thread_arrows_setting_changed (TtvTimeline *self)
{
  gboolean on = g_settings_get_boolean (self->settings, "timeline-thread-arrows");
  GAction *action = self->actions ? g_action_map_lookup_action (self->actions, "thread-arrows") : NULL;

  if (action)
    g_simple_action_set_state (G_SIMPLE_ACTION (action), g_variant_new_boolean (on));
  self->view.show_thread_arrows = on;
  gtk_widget_queue_draw (self->area);
}

/* The setting changed elsewhere (another view, Preferences): the action's
 * state (a check menu item) follows. */
static void
arrows_setting_changed (TtvTimeline *self)
{
  gboolean on = g_settings_get_boolean (self->settings, "timeline-arrows");
  GAction *action = self->actions ? g_action_map_lookup_action (self->actions, "show-arrows") : NULL;

  if (action)
    g_simple_action_set_state (G_SIMPLE_ACTION (action), g_variant_new_boolean (on));
  ttv_timeline_set_show_arrows (self, on);
}

void
ttv_timeline_add_actions (TtvTimeline *self, GActionMap *map)
{
  const GActionEntry entries[] = {
    { "export", act_export, "s", NULL, NULL, { 0 } },
    { "export-dialog", act_export_dialog, NULL, NULL, NULL, { 0 } },
    { "render", act_render, "(sii)", NULL, NULL, { 0 } },
    { "edit-colors", act_edit_colors, NULL, NULL, NULL, { 0 } },
    { "show-arrows", NULL, NULL, self->view.show_arrows ? "true" : "false", change_show_arrows, { 0 } },
    { "thread-arrows", NULL, NULL, self->view.show_thread_arrows ? "true" : "false", change_thread_arrows, { 0 } },
  };

  g_action_map_add_action_entries (map, entries, G_N_ELEMENTS (entries), self);
  g_set_weak_pointer (&self->actions, map);
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

  if (self->view.state)
    for (guint i = 0; i < G_N_ELEMENTS (self->handlers); i++)
      g_clear_signal_handler (&self->handlers[i], self->view.state);
  g_clear_object (&self->settings);
  g_clear_weak_pointer (&self->actions);
  g_clear_weak_pointer (&self->row_popup);
  g_clear_handle_id (&self->adjust_id, g_source_remove);
  g_clear_object (&self->view.state);
  g_clear_pointer (&self->view.history, ttv_viewer_history_unref);
  G_OBJECT_CLASS (ttv_timeline_parent_class)->dispose (object);
}

static void
ttv_timeline_finalize (GObject *object)
{
  TtvTimeline *self = TTV_TIMELINE (object);

  ttv_timeline_view_clear (&self->view);
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
  column_clicked_signal = g_signal_new ("column-clicked", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                        NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
  /* The keyboard row moved (a click, a key): the control flow makes its
   * thread the tab's selected thread. */
  /* A row's menu was asked for (right click on its name: the button
   * event; the Menu key or Shift+F10: NULL): the owner pops it up with
   * ttv_timeline_popup_row_menu(). */
  row_menu_signal = g_signal_new ("row-menu", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                  NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_UINT, G_TYPE_POINTER);
  cursor_changed_signal = g_signal_new ("cursor-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                        NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
ttv_timeline_init (TtvTimeline *self)
{
}

GtkWidget *
ttv_timeline_new (TtvTabState *state, const TtvPaletteColor *legend, guint n_legend)
{
  TtvTimeline *self = g_object_new (TTV_TYPE_TIMELINE, NULL);
  g_autoptr (GSettings) arrows = ttv_viewer_dup_settings ("timeline-arrows");
  g_autoptr (GSettings) thread_arrows = ttv_viewer_dup_settings ("timeline-thread-arrows");
  GtkWidget *scrollbar;

  self->settings = ttv_viewer_dup_settings (TTV_PALETTE_SETTINGS_KEY);
  ttv_timeline_view_init (&self->view, state, legend, n_legend, self->settings);
  if (self->settings)
    {
      g_signal_connect_object (self->settings, "changed", G_CALLBACK (load_colors), self,
                               G_CONNECT_SWAPPED);
      if (arrows)
        {
          self->view.show_arrows = g_settings_get_boolean (self->settings, "timeline-arrows");
          g_signal_connect_object (self->settings, "changed::timeline-arrows",
                                   G_CALLBACK (arrows_setting_changed), self, G_CONNECT_SWAPPED);
        }
      if (thread_arrows)
        {
          self->thread_arrows_setting = TRUE;
          self->view.show_thread_arrows = g_settings_get_boolean (self->settings, "timeline-thread-arrows");
          g_signal_connect_object (self->settings, "changed::timeline-thread-arrows",
                                   G_CALLBACK (thread_arrows_setting_changed), self, G_CONNECT_SWAPPED);
        }
    }

  self->area = gtk_drawing_area_new ();
  gtk_widget_set_hexpand (self->area, TRUE);
  gtk_widget_set_vexpand (self->area, TRUE);
  gtk_widget_set_size_request (self->area, TTV_TIMELINE_LABEL_MIN + 200, 80);   /* a pane among others */
  gtk_widget_set_has_tooltip (self->area, TRUE);
  gtk_widget_add_events (self->area, GDK_BUTTON_PRESS_MASK | GDK_BUTTON_RELEASE_MASK
                         | GDK_POINTER_MOTION_MASK | GDK_SCROLL_MASK | GDK_KEY_PRESS_MASK);
  /* Focus only from a click in the label column (or Tab): never on its own,
   * so that the event list keeps the keyboard when both views are shown. */
  gtk_widget_set_can_focus (self->area, TRUE);
  g_signal_connect (self->area, "key-press-event", G_CALLBACK (area_key), self);
  g_signal_connect (self->area, "popup-menu", G_CALLBACK (area_popup_menu), self);
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
  /* Lost events of a followed trace change the legend (its height). */
  self->handlers[3] = g_signal_connect_swapped (state, "traceset-changed", G_CALLBACK (update_adjustment), self);
  self->handlers[4] = g_signal_connect_swapped (state, "selected-thread-changed", G_CALLBACK (queue_draw), self);
  self->handlers[5] = g_signal_connect_swapped (state, "bookmarks-changed", G_CALLBACK (queue_draw), self);
  /* The ruler's labels follow the user's time format. */
  self->handlers[6] = g_signal_connect_swapped (state, "time-format-changed", G_CALLBACK (queue_draw), self);
  return GTK_WIDGET (self);
}
