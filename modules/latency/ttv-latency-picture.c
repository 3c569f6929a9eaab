/* ttv-latency-picture.c: a latency view as one picture (ttv --render, the
 * Export… dialog): a title, the scatter and the density side by side, the
 * statistics per group under them (modules/statistics' table drawing). */
#include "ttv-latency-viewer.h"
#include "ttv-view-text.h"

#include "ttv-stats-table.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <time.h>

#define HEADER 24

const char *
ttv_latency_table_title (const char *table)
{
  static const struct { const char *name, *title; } titles[] = {
    { "calls", N_("System calls") },
    { "wakeups", N_("Wakeup latency") },
    { "blocked", N_("Blocked intervals") },
    { "irqs", N_("IRQs") },
    { "softirqs", N_("Soft IRQs") },
    { "raises", N_("Soft IRQ raise latency") },
    { "requests", N_("Block requests") },
    { "waits", N_("Futex waits") },
  };
  for (guint i = 0; i < G_N_ELEMENTS (titles); i++)
    if (g_str_equal (titles[i].name, table))
      return _(titles[i].title);
  return table;
}

static TtvStatsTable *
stats_table (const TtvLatencyData *d)
{
  static const char *const headers[10] = {
    N_("Group"), N_("Count"), N_("Total"), N_("Min"), N_("Mean"), N_("Max"), N_("Std dev"), N_("P50"), N_("P90"),
    N_("P99"),
  };
  TtvStatsTable *t = ttv_stats_table_new (_("Statistics of the records that start in the window"), 10);
  for (guint c = 0; c < 10; c++)
    {
      t->headers[c] = _(headers[c]);
      t->right_aligned[c] = c > 0;
    }
  /* The groups are of the table's group column: "System call", "IRQ"... */
  gint group = ttv_viewer_table_get_group_column (d->table);
  if (group >= 0)
    t->headers[0] = ttv_viewer_table_get_column_title (d->table, (guint) group);
  for (guint i = 0; d->groups && i <= d->groups->len; i++)
    {
      const TtvViewerDurationStats *s = i < d->groups->len ? &g_array_index (d->groups, TtvViewerDurationStats, i)
                                                           : &d->all;
      if (s->count == 0)
        continue;
      gint64 figures[TTV_LATENCY_N_FIGURES];
      ttv_latency_stats_figures (s, figures);
      char *texts[TTV_LATENCY_N_FIGURES];
      const char *cells[1 + TTV_LATENCY_N_FIGURES] = { i < d->groups->len ? s->label : _("all") };
      for (guint f = 0; f < TTV_LATENCY_N_FIGURES; f++)
        cells[1 + f] = texts[f] = ttv_latency_figure_text (f, figures[f]);
      ttv_stats_table_add_row (t, 0, FALSE, FALSE, cells);
      for (guint f = 0; f < TTV_LATENCY_N_FIGURES; f++)
        g_free (texts[f]);
    }
  return t;
}

void
ttv_latency_draw_picture (TtvTabState *state, const TtvLatencyKind *kind, const TtvLatencyData *d,
                          gboolean log_counts, cairo_t *cr, int width, int height)
{
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  cairo_select_font_face (cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  if (d == NULL)
    {
      ttv_latency_draw_message (cr, 0, 0, width, height, _("Waiting for the analysis…"));
      return;
    }
  /* The title: what, how many, over which window. */
  g_autofree char *from = ttv_tab_state_format_time (state, d->t0);
  g_autofree char *length = ttv_viewer_format_duration (d->t1 - d->t0);
  g_autofree char *count = g_strdup_printf ("%" G_GUINT64_FORMAT, d->n);
  g_autofree char *who = d->tid != TTV_VIEWER_PID_NONE ? g_strdup_printf (_(", thread %u"), d->tid) : g_strdup ("");
  g_autofree char *title = g_strdup_printf (_("%s: %s %s start in %s from %s%s"),
                                            ttv_latency_table_title (ttv_viewer_table_get_name (d->table)), count,
                                            _(kind->noun), length, from, who);
  cairo_set_font_size (cr, 13);
  cairo_set_source_rgb (cr, 0.1, 0.1, 0.1);
  cairo_move_to (cr, 8, 17);
  ttv_view_show_text (cr, title);

  double charts_h = d->has_stats ? floor ((height - HEADER) * 0.55) : height - HEADER;
  double split = floor (width * 0.62);
  TtvLatencyScale scale;
  TtvLatencyFrame f;
  TtvTime ss, se, sel[2];
  ttv_latency_scale_init (&scale, d);
  ttv_tab_state_get_time_span (state, &ss, &se);
  gboolean has_sel = ttv_tab_state_get_selection (state, &sel[0], &sel[1]);
  ttv_latency_frame_init (&f, 0, HEADER, split, charts_h);
  ttv_latency_draw_scatter (cr, d, &scale, &f, ss, has_sel ? sel : NULL);
  ttv_latency_frame_init (&f, split, HEADER, width - split, charts_h);
  ttv_latency_draw_density (cr, d, &scale, &f, log_counts);
  if (!d->has_stats)
    return;
  g_autoptr (TtvStatsTable) table = stats_table (d);
  cairo_save (cr);
  cairo_translate (cr, 0, HEADER + charts_h);
  ttv_stats_table_draw (table, cr, width, (int) (height - HEADER - charts_h));
  cairo_restore (cr);
}

/* This thread's CPU time, µs (the benchmarks' figures on a busy machine). */
static gint64
cpu_now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (gint64) ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
}

gboolean
ttv_latency_render (TtvTabState *state, const TtvLatencyKind *kind, cairo_t *cr, int width, int height,
                    GError **error)
{
  if (width < 320 || height < 200)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("A latency view needs at least 320x200 pixels, not %dx%d"), width, height);
      return FALSE;
    }
  if (!ttv_tab_state_compute_kernel (state, kind->analysis, NULL, error))
    return FALSE;
  g_autoptr (TtvViewerTable) table = ttv_tab_state_dup_kernel_table (state, kind->analysis, kind->tables[0]);
  if (table == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("The analysis has no table %s"), kind->tables[0]);
      return FALSE;
    }
  TtvTime t0, t1;
  ttv_tab_state_get_time_window (state, &t0, &t1);
  TtvLatencyFrame f;
  ttv_latency_frame_init (&f, 0, 0, floor (width * 0.62), 100);
  guint32 tid = ttv_tab_state_get_selected_thread (state);
  guint machine = ttv_tab_state_get_selected_machine (state);
  /* What a zoom costs the widget (the scatter and density, computed then
   * drawn), apart from the statistics of the window (a worker's). */
  gint64 start = g_get_monotonic_time (), cpu_start = cpu_now ();
  TtvTimeScale scale;
  ttv_tab_state_get_time_scale (state, t0, MAX (t1, t0 + 1), 0, (guint) f.pw, &scale);
  g_autoptr (TtvLatencyData) charts = ttv_latency_data_compute (table, t0, t1, (guint) f.pw, &scale, machine, tid, FALSE, NULL,
                                                                error);
  gint64 charted = g_get_monotonic_time (), cpu_charted = cpu_now ();
  g_autoptr (TtvLatencyData) d = charts ? ttv_latency_data_compute (table, t0, t1, (guint) f.pw, &scale, machine, tid, TRUE,
                                                                    NULL, error)
                                        : NULL;
  if (d == NULL)
    return FALSE;
  gint64 counted = g_get_monotonic_time (), cpu_counted = cpu_now ();
  ttv_latency_draw_picture (state, kind, d, FALSE, cr, width, height);
  cairo_surface_flush (cairo_get_target (cr));
  /* bench/render: the frame alone, without the PNG encoding. */
  if (g_getenv ("TTV_BENCH_RENDER"))
    g_print ("{\"bench\": \"view-draw\", \"view\": \"%s\", \"records\": %" G_GUINT64_FORMAT
             ", \"draw_ms\": %.2f, \"draw_cpu_ms\": %.2f, \"statistics_ms\": %.2f}\n", kind->name, d->n,
             ((charted - start) + (g_get_monotonic_time () - counted)) / 1000.0,
             ((cpu_charted - cpu_start) + (cpu_now () - cpu_counted)) / 1000.0, (counted - charted) / 1000.0);
  return TRUE;
}
