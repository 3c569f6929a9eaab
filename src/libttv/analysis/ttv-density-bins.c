/* ttv-density-bins.c: the density's bins, long idle gaps left out.  Times
 * map to their *busy offset* (the nanoseconds since start, less the gaps
 * before them), and the bins are of equal busy width. */
#include "ttv-density-bins.h"

#include <string.h>

void
ttv_density_bins_init (TtvDensityBins *bins, TtvTime start, TtvTime end, guint n_bins,
                       const TtvTime (*gaps)[2], guint n_gaps)
{
  memset (bins, 0, sizeof *bins);
  bins->start = start;
  bins->end = MAX (start, end);
  bins->n_bins = MAX (n_bins, 1);
  bins->busy = ttv_time_span_ns (bins->start, bins->end);
  for (guint i = 0; i < MIN (n_gaps, TTV_TIME_MAX_IDLE_GAPS); i++)
    {
      TtvTime s = MAX (gaps[i][0], bins->start), e = MIN (gaps[i][1], bins->end);

      if (e <= s || (bins->n_gaps > 0 && s < bins->gaps[bins->n_gaps - 1][1]))
        continue;
      bins->gaps[bins->n_gaps][0] = s;
      bins->gaps[bins->n_gaps][1] = e;
      bins->n_gaps++;
      bins->busy -= ttv_time_span_ns (s, e);
    }
}

/* The busy nanoseconds from start to @t (0 before start, busy after end). */
static guint64
busy_offset (const TtvDensityBins *bins, TtvTime t)
{
  guint64 off;

  if (t <= bins->start)
    return 0;
  if (t >= bins->end)
    return bins->busy;
  off = ttv_time_span_ns (bins->start, t);
  for (guint i = 0; i < bins->n_gaps && bins->gaps[i][0] < t; i++)
    off -= ttv_time_span_ns (bins->gaps[i][0], MIN (bins->gaps[i][1], t));
  return off;
}

/* The first time whose busy offset is @off. */
static TtvTime
time_of_offset (const TtvDensityBins *bins, guint64 off)
{
  TtvTime t = (TtvTime) ((guint64) bins->start + off);

  for (guint i = 0; i < bins->n_gaps && bins->gaps[i][0] < t; i++)
    t = (TtvTime) ((guint64) t + ttv_time_span_ns (bins->gaps[i][0], bins->gaps[i][1]));
  return t;
}

static guint
bin_of_offset (const TtvDensityBins *bins, guint64 off)
{
  double busy = bins->busy > 0 ? (double) bins->busy : 1.0;
  gint64 bin = (gint64) CLAMP ((double) off / busy * bins->n_bins, -1.0, (double) bins->n_bins);

  return (guint) CLAMP (bin, 0, (gint64) bins->n_bins - 1);
}

guint
ttv_density_bins_bin_of (const TtvDensityBins *bins, TtvTime t)
{
  return bin_of_offset (bins, busy_offset (bins, t));
}

TtvTime
ttv_density_bins_get_bin_start (const TtvDensityBins *bins, guint bin)
{
  guint64 off;

  if (bin == 0)
    return bins->start;
  if (bin >= bins->n_bins)
    return bins->end;
  /* Near busy × bin / n, then exactly where bin_of_offset() changes. */
  off = (guint64) ((double) bins->busy * bin / bins->n_bins);
  while (off > 0 && bin_of_offset (bins, off - 1) >= bin)
    off--;
  while (off < bins->busy && bin_of_offset (bins, off) < bin)
    off++;
  return time_of_offset (bins, off);
}
