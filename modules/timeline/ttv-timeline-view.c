/* ttv-timeline-view.c: a time-line picture's model without a widget: its
 * rows and history, columns and colours, and its geometry (layout, time
 * and rows under a point); the widget (ttv-timeline.c) holds one, and the
 * display-free render of the control flow and resources views draws one
 * of its own (ttv_timeline_view_render). */
#include "ttv-timeline-view.h"
#include "ttv-view-text.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

static void
rgb_of (const GdkRGBA *c, double rgb[3])
{
  rgb[0] = c->red;
  rgb[1] = c->green;
  rgb[2] = c->blue;
}

void
ttv_timeline_view_load_colors (TtvTimelineView *v, GSettings *settings)
{
  GdkRGBA now, sel, bookmark;

  for (guint i = 0; i < TTV_PALETTE_N_COLORS; i++)
    {
      GdkRGBA c;

      ttv_palette_get_rgba (settings, i, &c);
      rgb_of (&c, v->colors[i]);
    }
  ttv_viewer_get_marker_rgba (TTV_VIEWER_MARKER_CURRENT_TIME, &now);
  ttv_viewer_get_marker_rgba (TTV_VIEWER_MARKER_SELECTION, &sel);
  rgb_of (&now, v->now_color);
  rgb_of (&sel, v->sel_color);
  ttv_viewer_get_marker_rgba (TTV_VIEWER_MARKER_BOOKMARK, &bookmark);
  rgb_of (&bookmark, v->bookmark_color);
}

static void
column_clear (gpointer data)
{
  Column *c = data;

  g_free (c->title);
}

void
ttv_timeline_view_init (TtvTimelineView *v, TtvTabState *state, const TtvPaletteColor *legend,
                        guint n_legend, GSettings *settings)
{
  memset (v, 0, sizeof *v);
  v->state = g_object_ref (state);
  v->rows = g_ptr_array_new_with_free_func ((GDestroyNotify) ttv_timeline_row_free);
  v->pid_rows = g_array_new (FALSE, FALSE, sizeof (TtvTimelinePidRow));
  v->legend = g_array_new (FALSE, FALSE, sizeof (TtvPaletteColor));
  g_array_append_vals (v->legend, legend, n_legend);
  v->columns = g_array_new (FALSE, FALSE, sizeof (Column));
  g_array_set_clear_func (v->columns, column_clear);
  v->label_width = TTV_TIMELINE_LABEL_WIDTH;
  v->sort_column = -1;
  v->show_arrows = TRUE;
  v->show_thread_arrows = TRUE;
  v->cursor = -1;
  ttv_timeline_view_load_colors (v, settings);
}

void
ttv_timeline_view_clear (TtvTimelineView *v)
{
  g_clear_object (&v->state);
  g_clear_pointer (&v->history, ttv_viewer_history_unref);
  g_clear_pointer (&v->rows, g_ptr_array_unref);
  g_clear_pointer (&v->pid_rows, g_array_unref);
  g_clear_pointer (&v->legend, g_array_unref);
  g_clear_pointer (&v->columns, g_array_unref);
  g_clear_pointer (&v->status, g_free);
  g_clear_pointer (&v->ruler_labels, g_free);
}

static guint64
pid_key (guint machine, guint32 pid)
{
  return (guint64) machine << 32 | pid;
}

/* Process rows by machine and pid, for the arrows (the first row of a
 * pid; threads folded into a collapsed row point at it): entries appended
 * in the order of preference, sorted by pid_key() then. */
static void
index_pid (TtvTimelineView *v, const TtvViewerRowInfo *info, guint index)
{
  TtvTimelinePidRow e;

  if (!info)
    return;
  e.key = pid_key (info->machine, info->id);
  e.index = index;
  e.order = v->pid_rows->len;
  g_array_append_val (v->pid_rows, e);
}

static gint
compare_pid_rows (gconstpointer a, gconstpointer b)
{
  const TtvTimelinePidRow *x = a, *y = b;

  if (x->key != y->key)
    return x->key < y->key ? -1 : 1;
  return (x->order > y->order) - (x->order < y->order);
}

/* Sorts the entries and keeps the first of each pid. */
static void
sort_pid_rows (TtvTimelineView *v)
{
  GArray *a = v->pid_rows;
  guint kept = 0;

  g_array_sort (a, compare_pid_rows);
  for (guint i = 0; i < a->len; i++)
    if (kept == 0 || g_array_index (a, TtvTimelinePidRow, i).key != g_array_index (a, TtvTimelinePidRow, kept - 1).key)
      g_array_index (a, TtvTimelinePidRow, kept++) = g_array_index (a, TtvTimelinePidRow, i);
  g_array_set_size (a, kept);
}

gint
ttv_timeline_view_find_pid_row (TtvTimelineView *v, guint machine, guint32 pid)
{
  guint64 key = pid_key (machine, pid);
  guint lo = 0, hi = v->pid_rows->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (v->pid_rows, TtvTimelinePidRow, mid).key < key)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo < v->pid_rows->len && g_array_index (v->pid_rows, TtvTimelinePidRow, lo).key == key)
    return (gint) g_array_index (v->pid_rows, TtvTimelinePidRow, lo).index;
  return -1;
}

static void
index_rows (TtvTimelineView *v)
{
  /* Sized for the rows (threads folded into collapsed ones add more). */
  g_array_unref (v->pid_rows);
  v->pid_rows = g_array_sized_new (FALSE, FALSE, sizeof (TtvTimelinePidRow), v->rows->len);
  for (guint i = 0; v->history && i < v->rows->len; i++)
    {
      const TtvTimelineRow *r = v->rows->pdata[i];

      if (r->kind == TTV_VIEWER_ROW_PROCESS)
        index_pid (v, ttv_viewer_history_get_row (v->history, r->kind, r->row), i);
    }
  for (guint i = 0; v->history && i < v->rows->len; i++)
    {
      const TtvTimelineRow *r = v->rows->pdata[i];

      for (guint m = 0; r->merged && m < r->merged->len; m++)
        index_pid (v, ttv_viewer_history_get_row (v->history, r->kind, g_array_index (r->merged, guint, m)), i);
    }
  sort_pid_rows (v);
}

void
ttv_timeline_view_set_history (TtvTimelineView *v, TtvViewerHistory *history)
{
  if (history)
    ttv_viewer_history_ref (history);
  g_clear_pointer (&v->history, ttv_viewer_history_unref);
  v->history = history;
  g_ptr_array_set_size (v->rows, 0);
  v->has_tree = FALSE;
  v->cursor = -1;
  index_rows (v);
}

void
ttv_timeline_view_set_rows (TtvTimelineView *v, GPtrArray *rows)
{
  gboolean had_cursor = v->cursor >= 0 && (guint) v->cursor < v->rows->len;
  TtvViewerRowKind kind = 0;
  guint row = 0;

  if (had_cursor)
    {
      const TtvTimelineRow *r = v->rows->pdata[v->cursor];

      kind = r->kind;
      row = r->row;
    }
  g_ptr_array_unref (v->rows);
  v->rows = rows ? rows : g_ptr_array_new_with_free_func ((GDestroyNotify) ttv_timeline_row_free);
  /* The keyboard row stays on its history row (a collapse keeps the
   * process under the cursor). */
  v->cursor = -1;
  for (guint i = 0; had_cursor && i < v->rows->len; i++)
    {
      const TtvTimelineRow *r = v->rows->pdata[i];

      if (r->kind == kind && r->row == row)
        {
          v->cursor = (gint) i;
          break;
        }
    }
  v->has_tree = FALSE;
  for (guint i = 0; i < v->rows->len && !v->has_tree; i++)
    {
      const TtvTimelineRow *r = v->rows->pdata[i];

      v->has_tree = r->expander != TTV_TIMELINE_EXPANDER_NONE || r->depth > 0;
    }
  index_rows (v);
}

/* The width @title needs as drawn in the header (ttv-timeline-draw.c:
 * 10 px text, 2 px before it, 6 after, the sort arrow), so that a longer
 * translation ("Temps processeur") is not cut. */
static double
title_width (const char *title)
{
  g_autofree char *marked = g_strdup_printf ("%s ▼", title ? title : "");
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_A8, 1, 1);
  cairo_t *cr = cairo_create (surface);
  cairo_text_extents_t ext;

  cairo_set_font_size (cr, 10);
  ttv_view_text_extents (cr, marked, &ext);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  return ceil (ext.x_advance) + 10;
}

void
ttv_timeline_view_set_columns (TtvTimelineView *v, const TtvTimelineColumn *columns, guint n_columns)
{
  g_array_set_size (v->columns, 0);
  for (guint i = 0; i < n_columns; i++)
    {
      Column c = { g_strdup (columns[i].title), MAX (columns[i].width, title_width (columns[i].title)),
                   columns[i].numeric };

      g_array_append_val (v->columns, c);
    }
}

/* --- Geometry ------------------------------------------------------------------ */

void
ttv_timeline_view_get_window (TtvTimelineView *v, TtvTime *t0, TtvTime *t1)
{
  ttv_tab_state_get_time_window (v->state, t0, t1);
  if (*t1 <= *t0)
    *t1 = *t0 + 1;
}

TtvTime
ttv_timeline_view_origin (TtvTimelineView *v)
{
  TtvTime s0, s1;

  ttv_tab_state_get_time_span (v->state, &s0, &s1);
  return s0;
}

void
ttv_timeline_view_layout (TtvTimelineView *v, TimelineLayout *l, double width, double height, double scroll)
{
  l->width = width;
  l->height = height;
  /* Until the user sets it, the labels take at most 45% of a narrow view. */
  l->label = v->label_width_set ? v->label_width : MIN (v->label_width, floor (width * 0.45));
  l->label = CLAMP (l->label, TTV_TIMELINE_LABEL_MIN, MAX (width - 1, TTV_TIMELINE_LABEL_MIN));
  l->plot = MAX (floor (width - l->label), 1);
  l->header = ttv_timeline_view_header_height (v, width);
  l->scroll = scroll;
  ttv_timeline_view_get_window (v, &l->t0, &l->t1);
  ttv_tab_state_get_time_scale (v->state, l->t0, l->t1, l->label, l->plot, &l->scale);
}

double
ttv_timeline_x_of_time (const TimelineLayout *l, TtvTime t)
{
  return ttv_time_scale_x_of_time (&l->scale, t);
}

TtvTime
ttv_timeline_time_of_x (const TimelineLayout *l, double x)
{
  return ttv_time_scale_time_of_x (&l->scale, x);
}

gint
ttv_timeline_view_row_at (TtvTimelineView *v, const TimelineLayout *l, double y)
{
  double off = y - l->header + l->scroll;
  gint i;

  if (y < l->header)
    return -1;
  i = (gint) floor (off / TTV_TIMELINE_ROW_HEIGHT);
  return i >= 0 && (guint) i < v->rows->len ? i : -1;
}

/* --- Rendering ----------------------------------------------------------------- */

void
ttv_timeline_view_init_render (TtvTimelineView *v, TtvTabState *state, const TtvPaletteColor *legend,
                               guint n_legend, const TtvTimelineColumn *columns, guint n_columns)
{
  g_autoptr (GSettings) colors = ttv_viewer_dup_settings (TTV_PALETTE_SETTINGS_KEY);
  g_autoptr (GSettings) arrows = ttv_viewer_dup_settings ("timeline-arrows");
  g_autoptr (GSettings) thread_arrows = ttv_viewer_dup_settings ("timeline-thread-arrows");
  g_autoptr (TtvViewerHistory) history = ttv_tab_state_dup_history (state);

  ttv_timeline_view_init (v, state, legend, n_legend, colors);
  ttv_timeline_view_set_columns (v, columns, n_columns);
  v->show_arrows = !arrows || g_settings_get_boolean (arrows, "timeline-arrows");
  v->show_thread_arrows = !thread_arrows || g_settings_get_boolean (thread_arrows, "timeline-thread-arrows");
  ttv_timeline_view_set_history (v, history);
}

gboolean
ttv_timeline_view_render_once (TtvTimelineView *v, cairo_t *cr, int width, int height, GError **error)
{
  gboolean ok = ttv_timeline_view_render (v, cr, width, height, 0, error);

  ttv_timeline_view_clear (v);
  return ok;
}

gboolean
ttv_timeline_view_render (TtvTimelineView *v, cairo_t *cr, int width, int height, double scroll,
                          GError **error)
{
  double header = ttv_timeline_view_header_height (v, width);
  gint64 start = g_get_monotonic_time ();
  TimelineLayout l;

  if (width < TTV_TIMELINE_LABEL_MIN + 100 || height < header + 1)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("Cannot render %dx%d: the size must be from %dx%d to 32767x32767"),
                   width, height, TTV_TIMELINE_LABEL_MIN + 100, (int) header + 1);
      return FALSE;
    }
  ttv_timeline_view_layout (v, &l, width, height, scroll);
  ttv_timeline_view_draw (v, cr, &l, 0, height);
  cairo_surface_flush (cairo_get_target (cr));
  /* bench/render: the drawing alone, without the PNG encoding. */
  if (g_getenv ("TTV_BENCH_RENDER"))
    g_print ("{\"bench\": \"timeline-draw\", \"rows\": %u, \"width\": %d, \"height\": %d, "
             "\"draw_ms\": %.2f}\n", v->rows->len, width, height,
             (g_get_monotonic_time () - start) / 1000.0);
  return TRUE;
}
