/* ttv-critical-path-chart.c: the critical path picture (see
 * ttv-critical-path-chart.h). */
#include "ttv-critical-path-chart.h"
#include "ttv-view-text.h"

#include "ttv-stats-table.h"
#include "ttv-view-axis.h"

#include <glib/gi18n-lib.h>
#include <math.h>

static void
row_free (TtvPathRow *r)
{
  g_free (r->label);
  g_free (r);
}

void
ttv_path_picture_free (TtvPathPicture *p)
{
  if (p == NULL)
    return;
  g_clear_pointer (&p->segments, g_array_unref);
  g_clear_object (&p->state);
  g_free (p->row_of);
  g_clear_pointer (&p->rows, g_ptr_array_unref);
  g_free (p);
}

const char *
ttv_path_kind_label (TtvViewerPathKind kind)
{
  switch (kind)
    {
    case TTV_VIEWER_PATH_RUNNING: return _("running");
    case TTV_VIEWER_PATH_PREEMPTED: return _("preempted");
    case TTV_VIEWER_PATH_WAIT_CPU: return _("waiting for a CPU");
    case TTV_VIEWER_PATH_DEVICE: return _("waiting for a device");
    default: return _("blocked");
    }
}

void
ttv_path_kind_color (TtvViewerPathKind kind, double rgb[3])
{
  static const double colors[][3] = {
    { 0.20, 0.63, 0.17 },   /* running */
    { 0.99, 0.55, 0.24 },   /* preempted */
    { 0.95, 0.80, 0.20 },   /* waiting for a CPU */
    { 0.22, 0.49, 0.80 },   /* a device */
    { 0.70, 0.70, 0.70 },   /* blocked */
  };
  for (guint k = 0; k < 3; k++)
    rgb[k] = colors[MIN ((guint) kind, G_N_ELEMENTS (colors) - 1)][k];
}

static guint
row_for (TtvPathPicture *p, GHashTable *index, const TtvViewerPathSegment *s)
{
  gboolean device = s->kind == TTV_VIEWER_PATH_DEVICE;
  guint64 key = device ? ((guint64) 1 << 40) | ((guint64) s->softirq << 33) | s->irq : s->tid;
  gpointer found;
  if (g_hash_table_lookup_extended (index, &key, NULL, &found))
    return GPOINTER_TO_UINT (found);
  TtvPathRow *r = g_new0 (TtvPathRow, 1);
  r->device = device;
  r->id = device ? s->irq : s->tid;
  r->softirq = s->softirq;
  if (!device)
    r->label = g_strdup_printf ("%s %u", s->name && *s->name ? s->name : "?", s->tid);
  else if (s->softirq)
    r->label = g_strdup_printf (_("soft IRQ %s"), s->name && *s->name ? s->name : "?");
  else
    r->label = g_strdup_printf (_("IRQ %u %s"), s->irq, s->name ? s->name : "");
  g_ptr_array_add (p->rows, r);
  g_hash_table_insert (index, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (p->rows->len - 1));
  return p->rows->len - 1;
}

TtvPathPicture *
ttv_path_picture_compute (TtvTabState *state, guint32 tid, TtvTime t0, TtvTime t1, GError **error)
{
  /* The selected thread's machine (the path is of one machine). */
  g_autoptr (GArray) segments = ttv_tab_state_dup_critical_path (state, ttv_tab_state_get_selected_machine (state),
                                                                 tid, t0, t1, error);
  if (segments == NULL)
    return NULL;
  TtvPathPicture *p = g_new0 (TtvPathPicture, 1);
  p->state = g_object_ref (state);
  p->tid = tid;
  p->t0 = t0;
  p->t1 = t1;
  p->segments = g_steal_pointer (&segments);
  p->row_of = g_new0 (guint, MAX (p->segments->len, 1));
  p->rows = g_ptr_array_new_with_free_func ((GDestroyNotify) row_free);
  g_autoptr (GHashTable) index = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  /* The thread itself on the first row, even when it never ran in the window. */
  TtvViewerPathSegment self = { .kind = TTV_VIEWER_PATH_RUNNING, .tid = tid, .name = "" };
  for (guint i = 0; i < p->segments->len; i++)
    {
      const TtvViewerPathSegment *s = &g_array_index (p->segments, TtvViewerPathSegment, i);
      if (s->kind != TTV_VIEWER_PATH_DEVICE && s->tid == tid)
        {
          self.name = s->name;
          break;
        }
    }
  row_for (p, index, &self);
  for (guint i = 0; i < p->segments->len; i++)
    {
      const TtvViewerPathSegment *s = &g_array_index (p->segments, TtvViewerPathSegment, i);
      p->row_of[i] = row_for (p, index, s);
      TtvPathRow *r = p->rows->pdata[p->row_of[i]];
      r->total += s->end - s->start;
      p->by_kind[MIN ((guint) s->kind, TTV_VIEWER_PATH_BLOCKED)] += s->end - s->start;
    }
  return p;
}

/* The window over the plot of a chart at @x, @width wide: the tab's scale
 * (long idle gaps between traces compressed, as in every view). */
static void
plot_scale (const TtvPathPicture *p, double x, double width, TtvTimeScale *scale)
{
  ttv_tab_state_get_time_scale (p->state, p->t0, MAX (p->t1, p->t0 + 1), x + TTV_PATH_LABEL_WIDTH,
                                MAX (width - TTV_PATH_LABEL_WIDTH - 8, 1), scale);
}

static double
x_of (const TtvPathPicture *p, const TtvTimeScale *scale, TtvTime t)
{
  return ttv_time_scale_x_of_time (scale, CLAMP (t, p->t0, p->t1));
}

void
ttv_path_draw_chart (cairo_t *cr, const TtvPathPicture *p, double x, double y, double width, double height,
                     TtvTime origin)
{
  double px = x + TTV_PATH_LABEL_WIDTH, pw = MAX (width - TTV_PATH_LABEL_WIDTH - 8, 1);
  double top = y + TTV_PATH_HEADER;
  TtvTimeScale scale;
  plot_scale (p, x, width, &scale);
  cairo_select_font_face (cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_rectangle (cr, x, y, width, height);
  cairo_fill (cr);
  /* Title and legend. */
  g_autofree char *title = g_strdup_printf (_("Critical path of thread %u: what it waited for, and who made it wait"),
                                            p->tid);
  cairo_set_font_size (cr, 12);
  cairo_set_source_rgb (cr, 0.1, 0.1, 0.1);
  cairo_move_to (cr, x + 6, y + 15);
  ttv_view_show_text (cr, title);
  cairo_set_font_size (cr, 10);
  double lx = x + 6;
  for (guint k = 0; k <= TTV_VIEWER_PATH_BLOCKED; k++)
    {
      double rgb[3];
      g_autofree char *share = g_strdup_printf ("%s %.0f %%", ttv_path_kind_label (k),
                                                100.0 * p->by_kind[k] / (double) MAX (p->t1 - p->t0, 1));
      cairo_text_extents_t ext;
      ttv_view_text_extents (cr, share, &ext);
      ttv_path_kind_color (k, rgb);
      cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
      cairo_rectangle (cr, lx, y + 24, 12, 10);
      cairo_fill (cr);
      cairo_set_source_rgb (cr, 0.2, 0.2, 0.2);
      cairo_move_to (cr, lx + 16, y + 33);
      ttv_view_show_text (cr, share);
      lx += 16 + ext.x_advance + 14;
    }
  /* The rows: labels, a light band each. */
  guint n_rows = p->rows->len;
  double rows_h = MIN (n_rows * TTV_PATH_ROW_HEIGHT, MAX (height - TTV_PATH_HEADER - TTV_PATH_RULER, 0));
  for (guint r = 0; r < n_rows && (r + 1) * TTV_PATH_ROW_HEIGHT <= rows_h; r++)
    {
      const TtvPathRow *row = p->rows->pdata[r];
      double ry = top + r * TTV_PATH_ROW_HEIGHT;
      cairo_set_source_rgb (cr, r % 2 ? 0.97 : 0.99, r % 2 ? 0.97 : 0.99, r % 2 ? 0.97 : 0.99);
      cairo_rectangle (cr, x, ry, width, TTV_PATH_ROW_HEIGHT);
      cairo_fill (cr);
      cairo_set_source_rgb (cr, 0.15, 0.15, 0.15);
      cairo_save (cr);
      cairo_rectangle (cr, x, ry, TTV_PATH_LABEL_WIDTH - 4, TTV_PATH_ROW_HEIGHT);
      cairo_clip (cr);
      cairo_move_to (cr, x + 6, ry + 15);
      ttv_view_show_text (cr, row->label);
      cairo_restore (cr);
    }
  /* The segments, each at least a pixel; then the hops between rows. */
  cairo_save (cr);
  cairo_rectangle (cr, px, top, pw, rows_h);
  cairo_clip (cr);
  /* Per row, the last pixel a segment thinner than a pixel filled: the
   * next ones there are not drawn again (O(pixels) at any zoom). */
  g_autofree gint64 *last_px = g_new (gint64, MAX (n_rows, 1));
  for (guint r = 0; r < n_rows; r++)
    last_px[r] = -1;
  for (guint i = 0; i < p->segments->len; i++)
    {
      const TtvViewerPathSegment *s = &g_array_index (p->segments, TtvViewerPathSegment, i);
      double rgb[3];
      double a = x_of (p, &scale, s->start), b = x_of (p, &scale, s->end);
      if (b - a < 1 && (gint64) a == last_px[p->row_of[i]])
        continue;
      last_px[p->row_of[i]] = (gint64) a;
      ttv_path_kind_color (s->kind, rgb);
      cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
      cairo_rectangle (cr, a, top + p->row_of[i] * TTV_PATH_ROW_HEIGHT + 4, MAX (b - a, 1), TTV_PATH_ROW_HEIGHT - 8);
      cairo_fill (cr);
    }
  cairo_set_source_rgba (cr, 0.1, 0.1, 0.1, 0.7);
  cairo_set_line_width (cr, 1);
  double last_x = -1;
  for (guint i = 1; i < p->segments->len; i++)
    {
      if (p->row_of[i] == p->row_of[i - 1])
        continue;
      const TtvViewerPathSegment *s = &g_array_index (p->segments, TtvViewerPathSegment, i);
      double hx = floor (x_of (p, &scale, s->start)) + 0.5;
      if (fabs (hx - last_x) < 1)
        continue;   /* one hop a pixel */
      last_x = hx;
      cairo_move_to (cr, hx, top + p->row_of[i - 1] * TTV_PATH_ROW_HEIGHT + TTV_PATH_ROW_HEIGHT / 2.0);
      cairo_line_to (cr, hx, top + p->row_of[i] * TTV_PATH_ROW_HEIGHT + TTV_PATH_ROW_HEIGHT / 2.0);
    }
  cairo_stroke (cr);
  cairo_restore (cr);
  ttv_viewer_draw_time_gaps (cr, &scale, top, rows_h);
  if (n_rows * TTV_PATH_ROW_HEIGHT > rows_h)
    {
      g_autofree char *more = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "… %u more participant",
                                                            "… %u more participants",
                                                            (gulong) (n_rows - (guint) (rows_h / TTV_PATH_ROW_HEIGHT))),
                                               n_rows - (guint) (rows_h / TTV_PATH_ROW_HEIGHT));
      cairo_set_source_rgb (cr, 0.4, 0.4, 0.4);
      cairo_move_to (cr, x + 6, top + rows_h + TTV_PATH_RULER + 14);
      ttv_view_show_text (cr, more);
    }
  cairo_set_source_rgb (cr, 0.93, 0.93, 0.93);
  cairo_rectangle (cr, px, top + rows_h, pw, TTV_PATH_RULER);
  cairo_fill (cr);
  ttv_view_axis_draw_scale (cr, &scale, top + rows_h, TTV_PATH_RULER, origin, NULL);
}

gint
ttv_path_row_at (const TtvPathPicture *p, double y)
{
  if (y < TTV_PATH_HEADER)
    return -1;
  guint r = (guint) ((y - TTV_PATH_HEADER) / TTV_PATH_ROW_HEIGHT);
  return r < p->rows->len ? (gint) r : -1;
}

gint
ttv_path_segment_at (const TtvPathPicture *p, double width, double x, double y)
{
  gint row = ttv_path_row_at (p, y);
  double px = TTV_PATH_LABEL_WIDTH, pw = MAX (width - TTV_PATH_LABEL_WIDTH - 8, 1);
  if (row < 0 || x < px || x >= px + pw)
    return -1;
  /* The segments are in time order: the one at the pointer's time, or the
   * nearest within two pixels on that row. */
  TtvTimeScale scale;
  plot_scale (p, 0, width, &scale);
  TtvTime t = ttv_time_scale_time_of_x (&scale, x);
  TtvTime slack = (TtvTime) (2.0 * scale.ns_per_px);
  for (guint i = 0; i < p->segments->len; i++)
    {
      const TtvViewerPathSegment *s = &g_array_index (p->segments, TtvViewerPathSegment, i);
      if (p->row_of[i] == (guint) row && s->start - slack <= t && t < s->end + slack)
        return (gint) i;
    }
  return -1;
}

void
ttv_path_draw_picture (TtvTabState *state, const TtvPathPicture *p, cairo_t *cr, int width, int height)
{
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  TtvTime ss, se;
  ttv_tab_state_get_time_span (state, &ss, &se);
  double chart_h = MIN (TTV_PATH_HEADER + TTV_PATH_RULER + 24 + p->rows->len * TTV_PATH_ROW_HEIGHT, height * 0.6);
  ttv_path_draw_chart (cr, p, 0, 0, width, chart_h, ss);
  g_autofree char *from = ttv_tab_state_format_time (state, p->t0);
  g_autofree char *length = ttv_viewer_format_duration (p->t1 - p->t0);
  g_autofree char *title = g_strdup_printf (_("Time on the path from %s for %s"), from, length);
  g_autoptr (TtvStatsTable) t = ttv_stats_table_new (title, 3);
  const char *headers[3] = { _("Participant"), _("Time"), _("Share") };
  for (guint c = 0; c < 3; c++)
    {
      t->headers[c] = headers[c];
      t->right_aligned[c] = c > 0;
    }
  for (guint r = 0; r < p->rows->len; r++)
    {
      const TtvPathRow *row = p->rows->pdata[r];
      g_autofree char *time = ttv_viewer_format_duration (row->total);
      g_autofree char *share = g_strdup_printf ("%.1f %%", 100.0 * row->total / (double) MAX (p->t1 - p->t0, 1));
      const char *cells[3] = { row->label, time, share };
      ttv_stats_table_add_row (t, 0, FALSE, FALSE, cells);
    }
  cairo_save (cr);
  cairo_translate (cr, 0, chart_h);
  ttv_stats_table_draw (t, cr, width, (int) (height - chart_h));
  cairo_restore (cr);
}
