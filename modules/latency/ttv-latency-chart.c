/* ttv-latency-chart.c: the latency views' charts on cairo, for the widget
 * and ttv --render alike: the scatter of duration (log scale) against
 * time, one mark per duration bucket a column holds, and the density of
 * durations on the same log scale with its percentiles.  O(pixels) from a
 * TtvLatencyData (ttv-latency-data.h). */
#include "ttv-latency-data.h"
#include "ttv-view-text.h"
#include "ttv-view-axis.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#define LEFT 58                /* the duration labels */
#define TOP 18                 /* the chart's title */
#define BOTTOM 22              /* the time ruler or duration labels */
#define RIGHT 8

char *
ttv_latency_format_decade (double e)
{
  static const char *const units[] = { "ns", "µs", "ms", "s" };
  gint decade = (gint) floor (e + 1e-9);
  if (decade < 0)
    return g_strdup ("0");
  guint unit = (guint) MIN (decade / 3, 3);
  gint rest = decade - (gint) unit * 3;
  return g_strdup_printf ("%.0f %s", pow (10, rest), units[unit]);
}

void
ttv_latency_scale_init (TtvLatencyScale *scale, const TtvLatencyData *d)
{
  gint lo = -1, hi = -1;
  for (guint b = 0; d && b < TTV_VIEWER_DURATION_BUCKETS; b++)
    if (d->counts[b])
      {
        if (lo < 0)
          lo = (gint) b;
        hi = (gint) b;
      }
  if (lo < 0)
    {
      scale->lo = 3;   /* 1 µs .. 1 s when there is nothing */
      scale->hi = 9;
      return;
    }
  double a = log10 (MAX (ttv_viewer_duration_bucket_lower ((guint) lo), 1));
  double b = log10 ((double) ttv_viewer_duration_bucket_lower ((guint) hi + 1));
  scale->lo = floor (a);
  scale->hi = MAX (ceil (b), scale->lo + 1);
}

void
ttv_latency_frame_init (TtvLatencyFrame *f, double x, double y, double width, double height)
{
  f->x = x;
  f->y = y;
  f->width = width;
  f->height = height;
  f->px = x + LEFT;
  f->py = y + TOP;
  f->pw = MAX (width - LEFT - RIGHT, 1);
  f->ph = MAX (height - TOP - BOTTOM, 1);
}

/* Where duration @ns is along a scale of @length pixels. */
static double
along (const TtvLatencyScale *s, double ns, double length)
{
  double e = ns < 1 ? 0 : log10 (ns);
  return (e - s->lo) / (s->hi - s->lo) * length;
}

static void
title (cairo_t *cr, const TtvLatencyFrame *f, const char *text)
{
  cairo_set_font_size (cr, 11);
  cairo_set_source_rgb (cr, 0.15, 0.15, 0.15);
  cairo_move_to (cr, f->x + 4, f->y + TOP - 5);
  ttv_view_show_text (cr, text);
}

/* Decade lines across the plot, labelled on the left (vertical) or
 * under it (horizontal). */
static void
decades (cairo_t *cr, const TtvLatencyScale *s, const TtvLatencyFrame *f, gboolean vertical)
{
  cairo_set_font_size (cr, 9);
  for (double e = s->lo; e <= s->hi + 1e-9; e += 1)
    {
      g_autofree char *label = ttv_latency_format_decade (e);
      cairo_text_extents_t ext;
      ttv_view_text_extents (cr, label, &ext);
      cairo_set_source_rgb (cr, 0.88, 0.88, 0.88);
      if (vertical)
        {
          double y = floor (f->py + f->ph - along (s, pow (10, e), f->ph)) + 0.5;
          cairo_move_to (cr, f->px, y);
          cairo_line_to (cr, f->px + f->pw, y);
          cairo_stroke (cr);
          cairo_set_source_rgb (cr, 0.3, 0.3, 0.3);
          cairo_move_to (cr, f->px - ext.x_advance - 4, y + 3);
        }
      else
        {
          double x = floor (f->px + along (s, pow (10, e), f->pw)) + 0.5;
          cairo_move_to (cr, x, f->py);
          cairo_line_to (cr, x, f->py + f->ph);
          cairo_stroke (cr);
          cairo_set_source_rgb (cr, 0.3, 0.3, 0.3);
          cairo_move_to (cr, CLAMP (x - ext.x_advance / 2, f->x, f->x + f->width - ext.x_advance), f->py + f->ph + 12);
        }
      ttv_view_show_text (cr, label);
    }
}

static void
frame_ground (cairo_t *cr, const TtvLatencyFrame *f)
{
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_rectangle (cr, f->x, f->y, f->width, f->height);
  cairo_fill (cr);
  cairo_set_source_rgb (cr, 0.98, 0.98, 0.99);
  cairo_rectangle (cr, f->px, f->py, f->pw, f->ph);
  cairo_fill (cr);
  cairo_set_line_width (cr, 1);
}

void
ttv_latency_draw_message (cairo_t *cr, double x, double y, double width, double height, const char *message)
{
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_rectangle (cr, x, y, width, height);
  cairo_fill (cr);
  cairo_set_source_rgb (cr, 0.4, 0.4, 0.4);
  cairo_set_font_size (cr, 12);
  cairo_move_to (cr, x + 8, y + height / 2);
  ttv_view_show_text (cr, message);
}

/* The rows a duration bucket's marks cover, [top, bottom): the bucket's
 * band on the log scale in whole pixels, 2 at least. */
static void
scatter_band (const TtvLatencyScale *s, const TtvLatencyFrame *f, guint b, int *top, int *bottom)
{
  double y0 = f->py + f->ph - along (s, (double) ttv_viewer_duration_bucket_lower (b + 1), f->ph);
  double y1 = f->py + f->ph - along (s, MAX ((double) ttv_viewer_duration_bucket_lower (b), 1), f->ph);
  double t = floor (MIN (y0, y1 - 2));
  *top = (int) t;
  *bottom = (int) MAX (ceil (y1), t + 2);
}

/* Covers rows [top, bottom) of columns [left, right) of @mask (clipped). */
static void
mask_fill_box (guint8 *pixels, int stride, int width, int height, int left, int right, int top, int bottom)
{
  left = CLAMP (left, 0, width);
  right = CLAMP (right, left, width);
  for (int y = MAX (top, 0); y < MIN (bottom, height); y++)
    memset (pixels + (gsize) y * (gsize) stride + left, 0xff, (gsize) (right - left));
}

/* One mark per bucket a column holds: the bucket's band over the column,
 * 2 pixels wide at least.  The marks overlap (a column's neighbouring
 * buckets, a column's second pixel over the next), so filling them as
 * rectangles made cairo compute their union: 26 ms for the 46,000 marks
 * of a 5M-event trace's whole window.  They are whole pixels, so their
 * union is drawn here into an A8 mask, in O(pixels), and painted through
 * it in one composite: the same pixels. */
static void
scatter_draw_marks (cairo_t *cr, const TtvLatencyData *d, const TtvLatencyScale *s, const TtvLatencyFrame *f)
{
  /* The plot, and a column's second pixel past its right edge. */
  int x0 = (int) floor (f->px), y0 = (int) floor (f->py);
  int width = (int) ceil (f->px + f->pw) + 2 - x0, height = (int) ceil (f->py + f->ph) + 2 - y0;
  cairo_surface_t *mask = cairo_image_surface_create (CAIRO_FORMAT_A8, width, height);
  if (cairo_surface_status (mask) != CAIRO_STATUS_SUCCESS)
    {
      cairo_surface_destroy (mask);
      return;
    }
  int top[TTV_VIEWER_DURATION_BUCKETS], bottom[TTV_VIEWER_DURATION_BUCKETS];
  for (guint b = 0; b < TTV_VIEWER_DURATION_BUCKETS; b++)
    {
      scatter_band (s, f, b, &top[b], &bottom[b]);
      top[b] -= y0;
      bottom[b] -= y0;
    }
  cairo_surface_flush (mask);
  guint8 *pixels = cairo_image_surface_get_data (mask);
  int stride = cairo_image_surface_get_stride (mask);
  double colw = f->pw / d->width;
  for (guint x = 0; x < d->width; x++)
    {
      const TtvViewerScatterColumn *c = &d->columns[x];
      int left = (int) floor (f->px + x * colw);
      int right = left + MAX ((int) floor (f->px + (x + 1) * colw) - left, 2);
      for (guint w = 0; w < G_N_ELEMENTS (c->mask); w++)
        for (guint64 bits = c->mask[w]; bits != 0; bits &= bits - 1)
          {
            guint b = w * 64 + (guint) __builtin_ctzll (bits);
            if (b < TTV_VIEWER_DURATION_BUCKETS)
              mask_fill_box (pixels, stride, width, height, left - x0, right - x0, top[b], bottom[b]);
          }
    }
  cairo_surface_mark_dirty (mask);
  cairo_pattern_t *pattern = cairo_pattern_create_for_surface (mask);
  cairo_matrix_t at;
  cairo_matrix_init_translate (&at, -x0, -y0);
  cairo_pattern_set_matrix (pattern, &at);
  /* Whole pixels stay whole at any device scale. */
  cairo_pattern_set_filter (pattern, CAIRO_FILTER_NEAREST);
  cairo_set_source_rgba (cr, 0.15, 0.35, 0.75, 0.85);
  cairo_mask (cr, pattern);
  cairo_pattern_destroy (pattern);
  cairo_surface_destroy (mask);
}

void
ttv_latency_draw_scatter (cairo_t *cr, const TtvLatencyData *d, const TtvLatencyScale *s,
                          const TtvLatencyFrame *f, TtvTime origin, const TtvTime *selection)
{
  TtvTimeScale scale = d->scale;

  ttv_time_scale_place (&scale, f->px, f->pw);
  frame_ground (cr, f);
  g_autofree char *count = g_strdup_printf ("%" G_GUINT64_FORMAT, d->n);
  g_autofree char *text = g_strdup_printf (_("Duration against start time (%s records, log scale)"), count);
  title (cr, f, text);
  decades (cr, s, f, TRUE);
  /* Long idle gaps between traces, under the marks (none falls there). */
  ttv_viewer_draw_time_gaps (cr, &scale, f->py, f->ph);
  scatter_draw_marks (cr, d, s, f);
  /* The selected record, ringed. */
  if (selection && selection[0] >= d->t0 && selection[0] <= d->t1)
    {
      /* A selection as long as no record drawn here is no record's. */
      double x = ttv_time_scale_x_of_time (&scale, selection[0]);
      double y = f->py + f->ph - along (s, MAX ((double) (selection[1] - selection[0]), 1), f->ph);
      GdkRGBA sel;
      ttv_viewer_get_marker_rgba (TTV_VIEWER_MARKER_SELECTION, &sel);
      cairo_set_source_rgba (cr, sel.red, sel.green, sel.blue, 0.95);
      cairo_set_line_width (cr, 2);
      if (y >= f->py - 1 && y <= f->py + f->ph + 1)
        cairo_arc (cr, x, y, 6, 0, 2 * G_PI);
      cairo_stroke (cr);
      cairo_set_line_width (cr, 1);
    }
  cairo_set_source_rgb (cr, 0.93, 0.93, 0.93);
  cairo_rectangle (cr, f->px, f->py + f->ph, f->pw, BOTTOM);
  cairo_fill (cr);
  ttv_view_axis_draw_scale (cr, &scale, f->py + f->ph, BOTTOM, origin, NULL);
}

void
ttv_latency_draw_density (cairo_t *cr, const TtvLatencyData *d, const TtvLatencyScale *s,
                          const TtvLatencyFrame *f, gboolean log_counts)
{
  frame_ground (cr, f);
  title (cr, f, log_counts ? _("Records per duration (log scales)") : _("Records per duration (log durations)"));
  guint64 max = 0;
  for (guint b = 0; b < TTV_VIEWER_DURATION_BUCKETS; b++)
    max = MAX (max, d->counts[b]);
  decades (cr, s, f, FALSE);
  cairo_set_source_rgb (cr, 0.2, 0.45, 0.7);
  for (guint b = 0; b < TTV_VIEWER_DURATION_BUCKETS && max; b++)
    {
      if (!d->counts[b])
        continue;
      double x0 = f->px + along (s, MAX ((double) ttv_viewer_duration_bucket_lower (b), 1), f->pw);
      double x1 = f->px + along (s, (double) ttv_viewer_duration_bucket_lower (b + 1), f->pw);
      double v = log_counts ? log1p ((double) d->counts[b]) / log1p ((double) max) : (double) d->counts[b] / max;
      double h = MAX (v * f->ph, 1);
      cairo_rectangle (cr, x0, f->py + f->ph - h, MAX (x1 - x0 - 0.5, 1), h);
    }
  cairo_fill (cr);
  ttv_view_axis_draw_counts (cr, f->px, f->py, f->pw, f->ph, max, log_counts);
  if (!d->has_stats || d->all.count == 0)
    return;
  /* The percentiles: a line each, labelled at the top. */
  const struct { const char *name; TtvTime v; } marks[] = {
    { "p50", d->all.p50 }, { "p90", d->all.p90 }, { "p99", d->all.p99 },
  };
  cairo_set_font_size (cr, 9);
  for (guint k = 0; k < G_N_ELEMENTS (marks); k++)
    {
      double x = floor (f->px + along (s, MAX ((double) marks[k].v, 1), f->pw)) + 0.5;
      cairo_set_source_rgba (cr, 0.8, 0.2, 0.1, 0.8);
      cairo_move_to (cr, x, f->py);
      cairo_line_to (cr, x, f->py + f->ph);
      cairo_stroke (cr);
      cairo_move_to (cr, x + 2, f->py + 10 + 10 * k);
      ttv_view_show_text (cr, marks[k].name);
    }
}

gboolean
ttv_latency_scatter_pick (const TtvLatencyData *d, const TtvLatencyScale *s, const TtvLatencyFrame *f, double x,
                          double y, guint *column, TtvTime *duration)
{
  if (x < f->px || x >= f->px + f->pw || y < f->py || y > f->py + f->ph)
    return FALSE;
  *column = MIN ((guint) ((x - f->px) / f->pw * d->width), d->width - 1);
  double e = s->lo + (f->py + f->ph - y) / f->ph * (s->hi - s->lo);
  *duration = (TtvTime) pow (10, e);
  return TRUE;
}

void
ttv_latency_column_range (const TtvLatencyData *d, guint column, TtvTime *t0, TtvTime *t1)
{
  *t0 = ttv_time_scale_time_of_x (&d->scale, column);
  *t1 = MIN (ttv_time_scale_time_of_x (&d->scale, column + 1), d->t1);
}
