/* ttv-time-ticks.h: where a time ruler puts its ticks and what it writes
 * under them, in the user's time format, at any zoom (nanoseconds to years).
 * Used by the viewer's time bar and, through the SDK (ttv_viewer_format_tick()),
 * by the rulers of its views. */
#pragma once

#include "ttv-time.h"

G_BEGIN_DECLS

#define TTV_NSEC_PER_MIN (60 * TTV_NSEC_PER_SEC)
#define TTV_NSEC_PER_HOUR (60 * TTV_NSEC_PER_MIN)
#define TTV_NSEC_PER_DAY (24 * TTV_NSEC_PER_HOUR)

/* The smallest tick step >= @min_step: 1, 2 or 5 times a power of ten
 * nanoseconds up to 20 s, then clock steps (30 s, 1, 2, 5, 10, 15, 30 min,
 * 1, 2, 3, 6, 12 h), then 1, 2 or 5 times a power of ten days. */
TtvTime ttv_time_ticks_step (TtvTime min_step);
/* The first tick at or after @start: ticks fall on multiples of @step from
 * @origin (relative), the epoch (absolute, UTC) or local midnight (local). */
TtvTime ttv_time_ticks_first (TtvTime start, TtvTime step, TtvTimeFormat format, TtvTime origin);
/* The label of the tick at @t, as precise as @step needs: "+0.0125 s",
 * "+90 min", "1700000000.5", "10:13:20.25Z", "10:15", "2023-11-14".
 * @buf holds at least TTV_TIME_TEXT_MAX bytes. */
char   *ttv_time_ticks_label (TtvTime t, TtvTime step, TtvTimeFormat format, TtvTime origin,
                              char *buf, gsize buf_len);

G_END_DECLS
