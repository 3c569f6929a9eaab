/* ttv-view-axis.c: the axes of the analysis views: a time ruler relative to
 * the traceset's start (as the tab's time bar shows it), a count scale and
 * lost-event marks; used by the time line and the histogram. */
#include "ttv-view-axis.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#define TICK_SPACING 110.0   /* pixels between labelled ticks, about */
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

static const struct {
  guint64 ns;
  const char *name;
} units[] = {
  { 1000000000, "s" }, { 1000000, "ms" }, { 1000, "µs" }, { 1, "ns" },
};

static guint
unit_for (guint64 range)
{
  for (guint i = 0; i < G_N_ELEMENTS (units) - 1; i++)
    if (range >= units[i].ns)
      return i;
  return G_N_ELEMENTS (units) - 1;
}

/* @value ns in @unit with @decimals digits after the point (exact: no
 * rounding through a double). */
static char *
format_fixed (gint64 value, guint unit, guint decimals)
{
  guint64 mag = value < 0 ? (guint64) -(value + 1) + 1 : (guint64) value;
  guint64 whole = mag / units[unit].ns, frac = mag % units[unit].ns;
  guint digits = unit == 0 ? 9 : unit == 1 ? 6 : unit == 2 ? 3 : 0;
  char fbuf[16];

  decimals = MIN (decimals, digits);
  if (decimals == 0)
    return g_strdup_printf ("%s%" G_GUINT64_FORMAT " %s", value < 0 ? "−" : "", whole, units[unit].name);
  g_snprintf (fbuf, sizeof fbuf, "%0*" G_GUINT64_FORMAT, (int) digits, frac);
  fbuf[decimals] = '\0';
  return g_strdup_printf ("%s%" G_GUINT64_FORMAT ".%s %s", value < 0 ? "−" : "", whole, fbuf,
                          units[unit].name);
}

char *
ttv_view_axis_format_tick (gint64 rel, guint64 step, guint64 range)
{
  guint unit = unit_for (MAX (range, step));
  guint64 u = units[unit].ns;
  guint decimals = 0;

  /* As many decimals as the step has below the unit. */
  while (u > 1 && step % u != 0)
    {
      u /= 10;
      decimals++;
    }
  return format_fixed (rel, unit, decimals);
}

char *
ttv_view_axis_format_time (TtvTime time, TtvTime origin)
{
  g_autofree char *abs = ttv_viewer_time_to_string (time);
  g_autofree char *rel = format_fixed (time - origin, 0, 9);

  return g_strdup_printf ("%s%s (%s)", time >= origin ? "+" : "", rel, abs);
}

void
ttv_view_axis_draw_time (cairo_t *cr, double x, double y, double width, double height,
                         TtvTime origin, TtvTime t0, TtvTime t1)
{
  guint64 step, minor;
  gint64 first, range = MAX (t1 - origin, 1);
  double ns_per_px;

  if (width < 1 || t1 <= t0)
    return;
  ns_per_px = (double) (t1 - t0) / width;
  step = ttv_view_axis_nice_step (ns_per_px * TICK_SPACING);
  /* Minor ticks: fifths of a 1 or 5 step, quarters of a 2 step. */
  {
    guint64 lead = step;

    while (lead % 10 == 0)
      lead /= 10;
    minor = lead == 2 ? step / 4 : step / 5;
  }
  if (minor == 0 || (double) minor / ns_per_px < 6)
    minor = step;
  cairo_save (cr);
  cairo_rectangle (cr, x, y, width, height);
  cairo_clip (cr);
  cairo_set_font_size (cr, 10);
  first = (gint64) ((t0 - origin) / (gint64) minor) * (gint64) minor;
  if (origin + first < t0)
    first += (gint64) minor;
  for (gint64 rel = first; origin + rel <= t1; rel += (gint64) minor)
    {
      double tx = floor (x + (double) (origin + rel - t0) / ns_per_px);
      gboolean major = rel % (gint64) step == 0;

      cairo_set_source_rgb (cr, 0.35, 0.35, 0.35);
      cairo_rectangle (cr, MIN (tx, x + width - 1), y + height - (major ? 7 : 3), 1, major ? 7 : 3);
      cairo_fill (cr);
      if (major)
        {
          g_autofree char *text = ttv_view_axis_format_tick (rel, step, (guint64) range);
          cairo_text_extents_t ext;

          cairo_text_extents (cr, text, &ext);
          if (tx + 3 + ext.x_advance > x + width)
            continue;
          cairo_set_source_rgb (cr, 0.2, 0.2, 0.2);
          cairo_move_to (cr, tx + 3, y + height - 8);
          cairo_show_text (cr, text);
        }
    }
  cairo_restore (cr);
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

        cairo_text_extents (cr, text, &ext);
        cairo_set_source_rgba (cr, 1, 1, 1, 0.8);
        cairo_rectangle (cr, x + 1, ty - 11, ext.x_advance + 4, 10);
        cairo_fill (cr);
      }
      cairo_set_source_rgb (cr, 0.25, 0.25, 0.25);
      cairo_move_to (cr, x + 3, ty - 2);
      cairo_show_text (cr, text);
    }
  cairo_restore (cr);
}

void
ttv_view_axis_draw_lost (cairo_t *cr, const GArray *lost, double x, double y, double width,
                         double height, TtvTime t0, TtvTime t1, const double rgb[3])
{
  double span = (double) MAX (t1 - t0, 1);

  if (!lost || lost->len == 0)
    return;
  cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
  for (guint i = 0; i < lost->len; i++)
    {
      const TtvViewerLostEvents *r = &g_array_index (lost, TtvViewerLostEvents, i);
      double a, b;

      if (r->end < t0 || r->start > t1)
        continue;
      a = x + (double) (MAX (r->start, t0) - t0) / span * width;
      b = x + (double) (MIN (r->end, t1) - t0) / span * width;
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
