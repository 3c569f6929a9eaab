/* ttv-busy-clock.h: time with the long idle gaps between far-apart traces
 * left out (ttv-time-gaps.h).  A time's *busy offset* is the nanoseconds
 * from the start less the gaps before it: bins of equal busy width (the
 * density's, an analysis table's histogram and scatter levels) are where
 * the events are, not one bin per capture of two captures years apart.
 * Without gaps, the offset is the time since the start. */
#pragma once

#include "ttv-time-gaps.h"

G_BEGIN_DECLS

typedef struct {
  TtvTime start, end;              /* what it measures */
  guint n_gaps;                    /* left out, in time order, inside start..end */
  TtvTime gaps[TTV_TIME_MAX_IDLE_GAPS][2];
  guint64 busy;                    /* end - start, less the gaps */
} TtvBusyClock;

/* @n_gaps gaps of @gaps (ttv_time_find_idle_gaps(): in time order, not
 * overlapping), clipped to [@start, @end]; gaps out of order or
 * overlapping the previous are dropped (a damaged file's). */
void        ttv_busy_clock_init (TtvBusyClock *clock, TtvTime start, TtvTime end, const TtvTime (*gaps)[2],
                                 guint n_gaps);
/* The busy nanoseconds from start to @t: 0 before start, busy after end,
 * a gap's start offset within it. */
guint64     ttv_busy_clock_offset (const TtvBusyClock *clock, TtvTime t);
/* The first time whose busy offset is @offset (end after busy). */
TtvTime     ttv_busy_clock_time (const TtvBusyClock *clock, guint64 offset);
/* Whether [@lo, @hi) reaches into a gap: a bin of busy time that does holds
 * times from both sides of it. */
gboolean    ttv_busy_clock_crosses_gap (const TtvBusyClock *clock, TtvTime lo, TtvTime hi);

G_END_DECLS
