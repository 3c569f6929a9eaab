/* ttv-busy-clock.c: time less the long idle gaps (ttv-busy-clock.h). */
#include "ttv-busy-clock.h"

#include <string.h>

void
ttv_busy_clock_init (TtvBusyClock *clock, TtvTime start, TtvTime end, const TtvTime (*gaps)[2], guint n_gaps)
{
  memset (clock, 0, sizeof *clock);
  clock->start = start;
  clock->end = MAX (start, end);
  clock->busy = ttv_time_span_ns (clock->start, clock->end);
  for (guint i = 0; i < MIN (n_gaps, TTV_TIME_MAX_IDLE_GAPS); i++)
    {
      TtvTime s = MAX (gaps[i][0], clock->start), e = MIN (gaps[i][1], clock->end);

      if (e <= s || (clock->n_gaps > 0 && s < clock->gaps[clock->n_gaps - 1][1]))
        continue;
      clock->gaps[clock->n_gaps][0] = s;
      clock->gaps[clock->n_gaps][1] = e;
      clock->n_gaps++;
      clock->busy -= ttv_time_span_ns (s, e);
    }
}

guint64
ttv_busy_clock_offset (const TtvBusyClock *clock, TtvTime t)
{
  guint64 off;

  if (t <= clock->start)
    return 0;
  if (t >= clock->end)
    return clock->busy;
  off = ttv_time_span_ns (clock->start, t);
  for (guint i = 0; i < clock->n_gaps && clock->gaps[i][0] < t; i++)
    off -= ttv_time_span_ns (clock->gaps[i][0], MIN (clock->gaps[i][1], t));
  return off;
}

gboolean
ttv_busy_clock_crosses_gap (const TtvBusyClock *clock, TtvTime lo, TtvTime hi)
{
  for (guint i = 0; i < clock->n_gaps; i++)
    if (lo < clock->gaps[i][1] && hi > clock->gaps[i][0])
      return TRUE;
  return FALSE;
}

TtvTime
ttv_busy_clock_time (const TtvBusyClock *clock, guint64 offset)
{
  if (offset >= clock->busy)
    return clock->end;
  TtvTime t = (TtvTime) ((guint64) clock->start + offset);

  for (guint i = 0; i < clock->n_gaps && clock->gaps[i][0] < t; i++)
    t = (TtvTime) ((guint64) t + ttv_time_span_ns (clock->gaps[i][0], clock->gaps[i][1]));
  return t;
}
