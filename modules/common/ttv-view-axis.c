/* ttv-view-axis.c: the axes of the analysis views: a time ruler in the
 * user's time format (as the tab's time bar shows it), a count scale and
 * lost-event marks; used by the time line and the histogram. */
#include "ttv-view-axis.h"
#include "ttv-view-text.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#define TICK_SPACING 110.0   /* pixels between labelled ticks, about */
#define LABEL_GAP 14.0       /* pixels between two labels, at least */
#define COUNT_SPACING 28.0

guint64
ttv_view_axis_nice_step (double raw)
{
  double p;

  if (!(raw > 1))
    return 1;
  if (raw > 1e18)
    return 1000000000000000000ull;
  p = pow (10, floor (log10 (raw)));
  if (raw <= p)
    return (guint64) p;
  if (raw <= 2 * p)
    return (guint64) (2 * p);
  if (raw <= 5 * p)
    return (guint64) (5 * p);
  return (guint64) (10 * p);
}

/* The smallest round step (ttv_viewer_tick_step()) whose labels over
 * [@t0, @t1] keep apart, at least TICK_SPACING / 2 pixels. */
static TtvTime
ruler_step (cairo_t *cr, TtvTime origin, TtvTime t0, TtvTime t1, double ns_per_px)
{
  TtvTime step = ttv_viewer_tick_step ((TtvTime) MIN (ns_per_px * TICK_SPACING / 2, 4e18));

  for (int tries = 0; tries < 12 && step < G_MAXINT64 / 4; tries++)
    {
      double widest = 0;

      for (int i = 0; i < 2; i++)
        {
          g_autofree char *text = ttv_viewer_format_tick (i ? t1 : ttv_viewer_first_tick (t0, step, origin),
                                                          step, origin);
          cairo_text_extents_t ext;

          ttv_view_text_extents (cr, text, &ext);
          widest = MAX (widest, ext.x_advance);
        }
      if (widest + LABEL_GAP <= (double) step / ns_per_px)
        break;
      step = ttv_viewer_tick_step (step + 1);
    }
  return step;
}

/* Minor ticks: fifths of a 1 or 5 step, quarters of a 2 step (of a clock
 * step too: 30 s in 6 s, 2 h in 30 min), none when under 6 pixels apart. */
static TtvTime
minor_step (TtvTime step, double ns_per_px)
{
  TtvTime lead = step, minor;

  while (lead % 10 == 0)
    lead /= 10;
  minor = lead == 2 ? step / 4 : step / 5;
  if (minor == 0 || step % minor != 0 || (double) minor / ns_per_px < 6)
    return step;
  return minor;
}

/* The ruler of one linear piece. */
static void
draw_time_piece (cairo_t *cr, double x, double y, double width, double height, TtvTime origin,
                 TtvTime t0, TtvTime t1, GString *labels)
{
  TtvTime step, minor, major;
  double ns_per_px;

  if (width < 1 || t1 <= t0)
    return;
  ns_per_px = (double) (t1 - t0) / width;
  cairo_save (cr);
  cairo_rectangle (cr, x, y, width, height);
  cairo_clip (cr);
  cairo_set_font_size (cr, 10);
  step = ruler_step (cr, origin, t0, t1, ns_per_px);
  minor = minor_step (step, ns_per_px);
  /* Ticks fall where the user's format makes round times (from the
   * traceset's start, the epoch or midnight): majors on a lattice of
   * @step, minors on the same lattice's divisions. */
  major = ttv_viewer_first_tick (t0, step, origin);
  for (TtvTime t = ttv_viewer_first_tick (t0, minor, origin); t <= t1; t += minor)
    {
      double tx = floor (x + (double) (t - t0) / ns_per_px);
      gboolean is_major = t >= major && (t - major) % step == 0;

      cairo_set_source_rgb (cr, 0.35, 0.35, 0.35);
      cairo_rectangle (cr, MIN (tx, x + width - 1), y + height - (is_major ? 7 : 3), 1, is_major ? 7 : 3);
      cairo_fill (cr);
      if (is_major)
        {
          g_autofree char *text = ttv_viewer_format_tick (t, step, origin);
          cairo_text_extents_t ext;

          ttv_view_text_extents (cr, text, &ext);
          if (tx + 3 + ext.x_advance <= x + width)
            {
              cairo_set_source_rgb (cr, 0.2, 0.2, 0.2);
              cairo_move_to (cr, tx + 3, y + height - 8);
              ttv_view_show_text (cr, text);
              if (labels)
                g_string_append_printf (labels, "%s%s", labels->len ? "\n" : "", text);
            }
        }
      if (t > G_MAXINT64 - minor)
        break;
    }
  cairo_restore (cr);
}

void
ttv_view_axis_draw_time (cairo_t *cr, double x, double y, double width, double height,
                         TtvTime origin, TtvTime t0, TtvTime t1, GString *labels)
{
  draw_time_piece (cr, x, y, width, height, origin, t0, t1, labels);
}

void
ttv_view_axis_draw_scale (cairo_t *cr, const TtvTimeScale *scale, double y, double height, TtvTime origin,
                          GString *labels)
{
  for (guint i = 0; i < scale->n_pieces; i++)
    {
      const TtvTimeScalePiece *p = &scale->pieces[i];

      if (!p->gap)
        draw_time_piece (cr, p->x0, y, p->x1 - p->x0, height, origin, p->t0, p->t1, labels);
    }
  ttv_viewer_draw_time_gaps (cr, scale, y, height);
}

static double
count_y (guint64 v, guint64 max, gboolean log_scale, double y, double height)
{
  double f = max == 0 ? 0 : log_scale ? log1p ((double) v) / log1p ((double) max) : (double) v / (double) max;

  return y + height - f * height;
}

void
ttv_view_axis_draw_counts (cairo_t *cr, double x, double y, double width, double height,
                           guint64 max, gboolean log_scale)
{
  g_autoptr (GArray) ticks = g_array_new (FALSE, FALSE, sizeof (guint64));

  if (max == 0 || height < 10)
    return;
  if (log_scale)
    {
      /* 1, 10, 100… as far as they stay apart. */
      for (guint64 v = 1; v <= max; v *= 10)
        {
          g_array_append_val (ticks, v);
          if (v > G_MAXUINT64 / 10)
            break;
        }
    }
  else
    {
      guint64 step = ttv_view_axis_nice_step ((double) max / MAX (height / COUNT_SPACING, 1));

      for (guint64 v = step; v <= max; v += step)
        g_array_append_val (ticks, v);
    }
  cairo_save (cr);
  cairo_set_font_size (cr, 9);
  cairo_set_line_width (cr, 1);
  for (guint i = 0; i < ticks->len; i++)
    {
      guint64 v = g_array_index (ticks, guint64, i);
      double ty = floor (count_y (v, max, log_scale, y, height)) + 0.5;
      g_autofree char *text = NULL;

      if ((i > 0 && count_y (g_array_index (ticks, guint64, i - 1), max, log_scale, y, height) - ty < 12)
          || ty < y + 8)
        continue;
      text = v >= 10000000 ? g_strdup_printf ("%" G_GUINT64_FORMAT "M", v / 1000000)
             : v >= 10000 ? g_strdup_printf ("%" G_GUINT64_FORMAT "k", v / 1000)
             : g_strdup_printf ("%" G_GUINT64_FORMAT, v);
      cairo_set_source_rgba (cr, 0, 0, 0, 0.10);
      cairo_move_to (cr, x, ty);
      cairo_line_to (cr, x + width, ty);
      cairo_stroke (cr);
      /* Over the bars: on a pale ground. */
      {
        cairo_text_extents_t ext;

        ttv_view_text_extents (cr, text, &ext);
        cairo_set_source_rgba (cr, 1, 1, 1, 0.8);
        cairo_rectangle (cr, x + 1, ty - 11, ext.x_advance + 4, 10);
        cairo_fill (cr);
      }
      cairo_set_source_rgb (cr, 0.25, 0.25, 0.25);
      cairo_move_to (cr, x + 3, ty - 2);
      ttv_view_show_text (cr, text);
    }
  cairo_restore (cr);
}

void
ttv_view_axis_draw_lost (cairo_t *cr, const GArray *lost, double x, double y, double width,
                         double height, TtvTime t0, TtvTime t1, const double rgb[3])
{
  TtvTimeScale scale;

  ttv_time_scale_init_linear (&scale, t0, MAX (t1, t0 + 1), x, width);
  ttv_view_axis_draw_lost_scale (cr, lost, &scale, y, height, rgb);
}

void
ttv_view_axis_draw_lost_scale (cairo_t *cr, const GArray *lost, const TtvTimeScale *scale, double y,
                               double height, const double rgb[3])
{
  double x = scale->x, width = scale->width;

  if (!lost || lost->len == 0)
    return;
  cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
  for (guint i = 0; i < lost->len; i++)
    {
      const TtvViewerLostEvents *r = &g_array_index (lost, TtvViewerLostEvents, i);
      double a, b;

      if (r->end < scale->t0 || r->start > scale->t1)
        continue;
      a = ttv_time_scale_x_of_time (scale, MAX (r->start, scale->t0));
      b = ttv_time_scale_x_of_time (scale, MIN (r->end, scale->t1));
      /* At least 2 px, centred on a short range, inside the band. */
      if (b - a < 2)
        {
          a = (a + b) / 2 - 1;
          b = a + 2;
        }
      a = MAX (a, x);
      b = MIN (b, x + width);
      cairo_rectangle (cr, a, y, MAX (b - a, 1), height);
    }
  cairo_fill (cr);
}

gboolean
ttv_view_axis_lost_between (const GArray *lost, TtvTime t0, TtvTime t1, guint64 *count,
                            guint64 *packets)
{
  gboolean any = FALSE;

  *count = 0;
  *packets = 0;
  for (guint i = 0; lost && i < lost->len; i++)
    {
      const TtvViewerLostEvents *r = &g_array_index (lost, TtvViewerLostEvents, i);

      if (r->end >= t0 && r->start <= t1)
        {
          any = TRUE;
          *count += r->count;
          *packets += r->packets;
        }
    }
  return any;
}
