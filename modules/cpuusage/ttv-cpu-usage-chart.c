/* ttv-cpu-usage-chart.c: the CPU usage picture (see ttv-cpu-usage-chart.h):
 * O(bins) reads of the CPU usage's prefix sums per CPU, O(threads) for
 * the table. */
#include "ttv-cpu-usage-chart.h"
#include "ttv-view-text.h"

#include "ttv-stats-table.h"
#include "ttv-view-axis.h"

#include <glib/gi18n-lib.h>
#include <math.h>

void
ttv_cpu_usage_picture_free (TtvCpuUsagePicture *p)
{
  if (p == NULL)
    return;
  g_free (p->edges);
  g_clear_pointer (&p->cpus, g_array_unref);
  g_free (p->busy);
  g_free (p->all);
  g_free (p->thread);
  g_free (p->machine_busy);
  g_clear_pointer (&p->threads, g_array_unref);
  ttv_viewer_cpu_usage_unref (p->usage);
  g_free (p);
}

TtvCpuUsagePicture *
ttv_cpu_usage_picture_compute (TtvViewerCpuUsage *usage, const TtvTimeScale *scale, guint n_bins, TtvTime r0,
                               TtvTime r1, guint machine, guint32 tid, GError **error)
{
  g_autoptr (TtvCpuUsagePicture) p = g_new0 (TtvCpuUsagePicture, 1);
  p->usage = ttv_viewer_cpu_usage_ref (usage);
  p->scale = *scale;
  p->t0 = scale->t0;
  p->t1 = MAX (scale->t1, scale->t0 + 1);
  p->n_bins = CLAMP (n_bins, 1, (guint) MIN ((guint64) (p->t1 - p->t0), 100000));
  p->edges = g_new (TtvTime, p->n_bins + 1);
  /* Equal pixel steps: equal times but across a compressed gap. */
  for (guint i = 0; i <= p->n_bins; i++)
    p->edges[i] = i == p->n_bins ? p->t1 : ttv_time_scale_time_of_x (scale, scale->x + scale->width * i / p->n_bins);
  for (guint i = 1; i <= p->n_bins; i++)
    p->edges[i] = MAX (p->edges[i], p->edges[i - 1]);
  p->cpus = ttv_viewer_cpu_usage_dup_cpus (usage);
  p->busy = g_new0 (double, MAX (p->cpus->len, 1) * p->n_bins);
  p->all = g_new0 (double, p->n_bins);
  g_autofree TtvTime *sums = g_new (TtvTime, p->n_bins);
  for (guint c = 0; c < p->cpus->len; c++)
    {
      if (!ttv_viewer_cpu_usage_get_busy (usage, g_array_index (p->cpus, gint, c), p->edges, p->n_bins + 1, sums, error))
        return NULL;
      for (guint i = 0; i < p->n_bins; i++)
        {
          double share = (double) sums[i] / (double) MAX (p->edges[i + 1] - p->edges[i], 1);
          p->busy[c * p->n_bins + i] = share;
          p->all[i] += share / p->cpus->len;
        }
    }
  p->tid = tid;
  p->machine = machine;
  p->n_machines = ttv_viewer_cpu_usage_get_n_machines (usage);
  if (tid != TTV_VIEWER_PID_NONE)
    {
      p->thread = g_new0 (double, p->n_bins);
      if (!ttv_viewer_cpu_usage_get_thread_time (usage, machine, tid, p->edges, p->n_bins + 1, sums, error))
        return NULL;
      for (guint i = 0; i < p->n_bins; i++)
        p->thread[i] = (double) sums[i] / (double) MAX (p->edges[i + 1] - p->edges[i], 1);
    }
  p->r0 = r0;
  p->r1 = r1;
  p->threads = ttv_viewer_cpu_usage_dup_threads (usage, r0, r1, error);
  if (p->threads == NULL)
    return NULL;
  p->machine_busy = g_new0 (TtvTime, MAX (p->n_machines, 1));
  for (guint i = 0; i < p->threads->len; i++)
    {
      const TtvViewerThreadUsage *u = &g_array_index (p->threads, TtvViewerThreadUsage, i);
      p->busy_total += u->cpu_time;
      p->machine_busy[MIN (u->machine, MAX (p->n_machines, 1) - 1)] += u->cpu_time;
    }
  return g_steal_pointer (&p);
}

double
ttv_cpu_usage_picture_share (const TtvCpuUsagePicture *p, const TtvViewerThreadUsage *u)
{
  TtvTime total = p->machine_busy[MIN (u->machine, MAX (p->n_machines, 1) - 1)];
  return (double) u->cpu_time / (double) MAX (total, 1);
}

char *
ttv_cpu_usage_picture_dup_cpu_label (const TtvCpuUsagePicture *p, guint index)
{
  gint key = g_array_index (p->cpus, gint, index);
  if (p->n_machines < 2)
    return g_strdup_printf (_("CPU %d"), key);
  /* TRANSLATORS: a machine's name, then its CPU's number */
  return g_strdup_printf (_("%s CPU %d"),
                          ttv_viewer_cpu_usage_get_machine_name (p->usage, ttv_viewer_cpu_key_machine (key)),
                          ttv_viewer_cpu_key_cpu (key));
}

char *
ttv_cpu_usage_picture_dup_thread_label (const TtvCpuUsagePicture *p)
{
  if (p->n_machines < 2)
    return g_strdup_printf (_("Thread %u"), p->tid);
  /* TRANSLATORS: a machine's name, then a thread's id */
  return g_strdup_printf (_("%s thread %u"), ttv_viewer_cpu_usage_get_machine_name (p->usage, p->machine), p->tid);
}

void
ttv_cpu_usage_color (guint index, double rgb[3])
{
  static const double colors[][3] = {
    { 0.12, 0.47, 0.71 }, { 1.00, 0.50, 0.05 }, { 0.17, 0.63, 0.17 }, { 0.58, 0.40, 0.74 },
    { 0.55, 0.34, 0.29 }, { 0.89, 0.47, 0.76 }, { 0.74, 0.74, 0.13 }, { 0.09, 0.75, 0.81 },
  };
  for (guint k = 0; k < 3; k++)
    rgb[k] = colors[index % G_N_ELEMENTS (colors)][k];
}

/* A line through the shares, rasterised here as one box of whole pixels
 * per pixel column (@width pixels thick) and filled at once: cairo fills
 * aligned boxes fast,
 * where stroking a zigzag of hundreds of points costs it tens of
 * milliseconds (the frame's budget is 50 ms). */
static void
line (cairo_t *cr, const TtvCpuUsagePicture *p, const double *share, double px, double py, double pw, double ph,
      double width)
{
  double step = pw / p->n_bins;
  double half = width / 2;
  for (guint i = 0; i + 1 < p->n_bins; i++)
    {
      double x0 = px + (i + 0.5) * step, x1 = x0 + step;
      double y0 = py + ph - CLAMP (share[i], 0, 1) * ph, y1 = py + ph - CLAMP (share[i + 1], 0, 1) * ph;
      for (double x = floor (x0); x < x1; x += 1)
        {
          /* The line's heights at this column's edges. */
          double a = MAX (x, x0), b = MIN (x + 1, x1);
          double ya = y0 + (y1 - y0) * (a - x0) / step, yb = y0 + (y1 - y0) * (b - x0) / step;
          /* Whole pixels: cairo's fast path for aligned boxes. */
          double top = floor (MIN (ya, yb) - half + 0.5), bottom = MAX (floor (MAX (ya, yb) + half + 0.5), top + 1);
          cairo_rectangle (cr, x, top, 1, bottom - top);
        }
    }
  cairo_fill (cr);
}

void
ttv_cpu_usage_draw_chart (cairo_t *cr, const TtvCpuUsagePicture *p, double x, double y, double width, double height,
                          TtvTime origin, TtvTime now)
{
  double px = x + TTV_CPU_USAGE_LEFT, py = y + TTV_CPU_USAGE_TOP;
  double pw = MAX (width - TTV_CPU_USAGE_LEFT - TTV_CPU_USAGE_RIGHT, 1);
  double ph = MAX (height - TTV_CPU_USAGE_TOP - TTV_CPU_USAGE_BOTTOM, 1);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_rectangle (cr, x, y, width, height);
  cairo_fill (cr);
  cairo_set_source_rgb (cr, 0.98, 0.98, 0.99);
  cairo_rectangle (cr, px, py, pw, ph);
  cairo_fill (cr);
  cairo_select_font_face (cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  /* Shares: a line every 25 %. */
  cairo_set_font_size (cr, 9);
  cairo_set_line_width (cr, 1);
  for (guint k = 0; k <= 4; k++)
    {
      double gy = floor (py + ph - k * ph / 4) + 0.5;
      g_autofree char *label = g_strdup_printf ("%u %%", k * 25);
      cairo_text_extents_t ext;
      cairo_set_source_rgb (cr, 0.88, 0.88, 0.88);
      cairo_move_to (cr, px, gy);
      cairo_line_to (cr, px + pw, gy);
      cairo_stroke (cr);
      ttv_view_text_extents (cr, label, &ext);
      cairo_set_source_rgb (cr, 0.3, 0.3, 0.3);
      cairo_move_to (cr, px - ext.x_advance - 4, gy + 3);
      ttv_view_show_text (cr, label);
    }
  /* A line per CPU, every CPU together in black, the thread dashed. */
  for (guint c = 0; c < p->cpus->len; c++)
    {
      double rgb[3];
      ttv_cpu_usage_color (c, rgb);
      cairo_set_source_rgba (cr, rgb[0], rgb[1], rgb[2], 0.85);
      line (cr, p, p->busy + c * p->n_bins, px, py, pw, ph, 1.2);
    }
  cairo_set_source_rgb (cr, 0.1, 0.1, 0.1);
  line (cr, p, p->all, px, py, pw, ph, 2.2);
  if (p->thread)
    {
      cairo_set_source_rgba (cr, 0.85, 0.1, 0.1, 0.9);
      line (cr, p, p->thread, px, py, pw, ph, 2);
    }
  /* Long idle gaps between traces; the current time. */
  TtvTimeScale scale = p->scale;
  ttv_time_scale_place (&scale, px, pw);
  ttv_viewer_draw_time_gaps (cr, &scale, py, ph);
  if (now >= p->t0 && now <= p->t1)
    {
      GdkRGBA c;
      ttv_viewer_get_marker_rgba (TTV_VIEWER_MARKER_CURRENT_TIME, &c);
      gdk_cairo_set_source_rgba (cr, &c);
      cairo_rectangle (cr, floor (ttv_time_scale_x_of_time (&scale, now)), py, 1, ph);
      cairo_fill (cr);
    }
  /* The legend, as the title. */
  cairo_set_font_size (cr, 10);
  double lx = x + 4;
  for (guint c = 0; c <= p->cpus->len + (p->thread ? 1 : 0); c++)
    {
      g_autofree char *label = NULL;
      double rgb[3] = { 0.1, 0.1, 0.1 };
      if (c < p->cpus->len)
        {
          label = ttv_cpu_usage_picture_dup_cpu_label (p, c);
          ttv_cpu_usage_color (c, rgb);
        }
      else if (c == p->cpus->len)
        label = g_strdup (_("All CPUs"));
      else
        {
          label = ttv_cpu_usage_picture_dup_thread_label (p);
          rgb[0] = 0.85;
        }
      cairo_text_extents_t ext;
      ttv_view_text_extents (cr, label, &ext);
      if (lx + 14 + ext.x_advance > x + width)
        break;
      cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
      cairo_rectangle (cr, lx, y + 7, 10, 4);
      cairo_fill (cr);
      cairo_set_source_rgb (cr, 0.2, 0.2, 0.2);
      cairo_move_to (cr, lx + 13, y + 13);
      ttv_view_show_text (cr, label);
      lx += 13 + ext.x_advance + 12;
    }
  cairo_set_source_rgb (cr, 0.93, 0.93, 0.93);
  cairo_rectangle (cr, px, py + ph, pw, TTV_CPU_USAGE_BOTTOM);
  cairo_fill (cr);
  ttv_view_axis_draw_scale (cr, &scale, py + ph, TTV_CPU_USAGE_BOTTOM, origin, NULL);
}

void
ttv_cpu_usage_draw_picture (TtvTabState *state, const TtvCpuUsagePicture *p, cairo_t *cr, int width, int height)
{
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  TtvTime ss, se;
  ttv_tab_state_get_time_span (state, &ss, &se);
  double chart_h = floor (height * 0.55);
  ttv_cpu_usage_draw_chart (cr, p, 0, 0, width, chart_h, ss, ttv_tab_state_get_current_time (state));
  g_autofree char *from = ttv_tab_state_format_time (state, p->r0);
  g_autofree char *length = ttv_viewer_format_duration (p->r1 - p->r0);
  g_autofree char *title = g_strdup_printf (_("CPU time per thread from %s for %s"), from, length);
  g_autoptr (TtvStatsTable) t = ttv_stats_table_new (title, 5);
  const char *headers[5] = { _("Name"), _("TID"), _("PID"), _("CPU time"), _("Share") };
  for (guint c = 0; c < 5; c++)
    {
      t->headers[c] = headers[c];
      t->right_aligned[c] = c > 0;
    }
  for (guint i = 0; i < p->threads->len; i++)
    {
      const TtvViewerThreadUsage *u = &g_array_index (p->threads, TtvViewerThreadUsage, i);
      g_autofree char *tid = g_strdup_printf ("%u", u->tid);
      g_autofree char *pid = g_strdup_printf ("%u", u->tgid);
      g_autofree char *time = ttv_viewer_format_duration (u->cpu_time);
      g_autofree char *share = g_strdup_printf ("%.1f %%", 100.0 * ttv_cpu_usage_picture_share (p, u));
      /* With several machines, a thread's name says its machine. */
      const char *name = u->name && *u->name ? u->name : "?";
      g_autofree char *on_machine = p->n_machines > 1
        ? g_strdup_printf ("%s: %s", ttv_viewer_cpu_usage_get_machine_name (p->usage, u->machine), name) : NULL;
      const char *cells[5] = { on_machine ? on_machine : name, tid, pid, time, share };
      ttv_stats_table_add_row (t, 0, FALSE, FALSE, cells);
    }
  cairo_save (cr);
  cairo_translate (cr, 0, chart_h);
  ttv_stats_table_draw (t, cr, width, (int) (height - chart_h));
  cairo_restore (cr);
}
