/* ttv-density-bins.c: the density's bins, long idle gaps left out: of
 * equal busy width (ttv-busy-clock.h). */
#include "ttv-density-bins.h"

void
ttv_density_bins_init (TtvDensityBins *bins, TtvTime start, TtvTime end, guint n_bins,
                       const TtvTime (*gaps)[2], guint n_gaps)
{
  ttv_busy_clock_init (&bins->clock, start, end, gaps, n_gaps);
  bins->n_bins = MAX (n_bins, 1);
}

static guint
bin_of_offset (const TtvDensityBins *bins, guint64 off)
{
  double busy = bins->clock.busy > 0 ? (double) bins->clock.busy : 1.0;
  gint64 bin = (gint64) CLAMP ((double) off / busy * bins->n_bins, -1.0, (double) bins->n_bins);

  return (guint) CLAMP (bin, 0, (gint64) bins->n_bins - 1);
}

guint
ttv_density_bins_bin_of (const TtvDensityBins *bins, TtvTime t)
{
  return bin_of_offset (bins, ttv_busy_clock_offset (&bins->clock, t));
}

TtvTime
ttv_density_bins_get_bin_start (const TtvDensityBins *bins, guint bin)
{
  guint64 off;
  guint64 busy = bins->clock.busy;

  if (bin == 0)
    return bins->clock.start;
  if (bin >= bins->n_bins)
    return bins->clock.end;
  /* Near busy × bin / n, then exactly where bin_of_offset() changes. */
  off = (guint64) ((double) busy * bin / bins->n_bins);
  while (off > 0 && bin_of_offset (bins, off - 1) >= bin)
    off--;
  while (off < busy && bin_of_offset (bins, off) < bin)
    off++;
  return ttv_busy_clock_time (&bins->clock, off);
}
