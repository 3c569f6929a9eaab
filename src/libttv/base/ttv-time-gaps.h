/* ttv-time-gaps.h: the long idle gaps between busy time ranges, such as
 * the spans of far-apart traces (an old capture beside a new one): the
 * time views draw them in a few pixels (docs/multi-machine.md, "Time
 * gaps") and the density leaves them out of its bins.  One rule for all. */
#pragma once

#include "ttv-time.h"

G_BEGIN_DECLS

/* Gaps found at most; the longest are kept. */
#define TTV_TIME_MAX_IDLE_GAPS 8

/* Into @gaps, in time order: the holes of [@t0, @t1] that no range of
 * @busy covers (@n_busy ranges of two TtvTimes, start and end, in any
 * order, overlapping or not) and that are longer than all the busy time of
 * [@t0, @t1] together: a linear axis would give them more of its width
 * than everything there is to see.  None when nothing is busy there.
 * Returns how many (at most TTV_TIME_MAX_IDLE_GAPS, the longest). */
guint       ttv_time_find_idle_gaps (TtvTime t0, TtvTime t1, const TtvTime (*busy)[2], guint n_busy,
                                     TtvTime gaps[TTV_TIME_MAX_IDLE_GAPS][2]);

G_END_DECLS
