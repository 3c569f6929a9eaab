/* ttv-density-bins.h: how the density (the first read's events per bin,
 * ttv-indexer.h) cuts time into bins: of equal width over a span, the long
 * idle gaps between far-apart traces left out (ttv-time-gaps.h), so that a
 * traceset of two captures years apart gets its bins where its events are,
 * not one bin for each capture.  Without gaps, bins of equal time. */
#pragma once

#include "ttv-busy-clock.h"

G_BEGIN_DECLS

typedef struct {
  TtvBusyClock clock;              /* what the bins cover, gaps left out */
  guint n_bins;
} TtvDensityBins;

/* @n_gaps gaps of @gaps (ttv_time_find_idle_gaps(): in time order, not
 * overlapping), clipped to [@start, @end]. */
void        ttv_density_bins_init (TtvDensityBins *bins, TtvTime start, TtvTime end, guint n_bins,
                                   const TtvTime (*gaps)[2], guint n_gaps);
/* The bin of an event at @t: before start in the first, after end (or at
 * end) in the last, in a gap in the bin of the gap's start. */
guint       ttv_density_bins_bin_of (const TtvDensityBins *bins, TtvTime t);
/* The first time that falls in bin @bin (bin n_bins: end): bin @bin holds
 * the events from its start up to, not including, the next bin's. */
TtvTime     ttv_density_bins_get_bin_start (const TtvDensityBins *bins, guint bin);

G_END_DECLS
