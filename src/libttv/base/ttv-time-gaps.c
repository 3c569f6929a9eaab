/* ttv-time-gaps.c: the long idle gaps between busy time ranges. */
#include "ttv-time-gaps.h"

typedef struct {
  TtvTime start, end;
} Range;

static gint
range_cmp_start (gconstpointer a, gconstpointer b)
{
  const Range *ra = a, *rb = b;

  return ra->start < rb->start ? -1 : ra->start > rb->start;
}

static gint
range_cmp_longer (gconstpointer a, gconstpointer b)
{
  const Range *ra = a, *rb = b;
  guint64 la = ttv_time_span_ns (ra->start, ra->end), lb = ttv_time_span_ns (rb->start, rb->end);

  return la > lb ? -1 : la < lb;
}

/* @busy clipped to [@t0, @t1], sorted and merged; *@total gets their length. */
static GArray *
merge_busy (TtvTime t0, TtvTime t1, const TtvTime (*busy)[2], guint n_busy, guint64 *total)
{
  GArray *merged = g_array_new (FALSE, FALSE, sizeof (Range));
  guint n = 0;

  for (guint i = 0; i < n_busy; i++)
    {
      Range r = { MAX (MIN (busy[i][0], busy[i][1]), t0), MIN (MAX (busy[i][0], busy[i][1]), t1) };
      if (r.start <= r.end)
        g_array_append_val (merged, r);
    }
  g_array_sort (merged, range_cmp_start);
  for (guint i = 0; i < merged->len; i++)
    {
      Range r = g_array_index (merged, Range, i);
      Range *last = n > 0 ? &g_array_index (merged, Range, n - 1) : NULL;

      if (last && r.start <= last->end)
        last->end = MAX (last->end, r.end);
      else
        g_array_index (merged, Range, n++) = r;
    }
  g_array_set_size (merged, n);
  *total = 0;
  for (guint i = 0; i < n; i++)
    *total += ttv_time_span_ns (g_array_index (merged, Range, i).start, g_array_index (merged, Range, i).end);
  return merged;
}

guint
ttv_time_find_idle_gaps (TtvTime t0, TtvTime t1, const TtvTime (*busy)[2], guint n_busy,
                         TtvTime gaps[TTV_TIME_MAX_IDLE_GAPS][2])
{
  guint64 busy_total;
  TtvTime from = t0;

  if (t1 <= t0 || n_busy == 0)
    return 0;
  g_autoptr (GArray) merged = merge_busy (t0, t1, busy, n_busy, &busy_total);
  if (busy_total == 0)
    return 0;
  g_autoptr (GArray) found = g_array_new (FALSE, FALSE, sizeof (Range));
  for (guint i = 0; i <= merged->len; i++)
    {
      TtvTime to = i < merged->len ? g_array_index (merged, Range, i).start : t1;
      Range g = { from, to };

      if (to > from && ttv_time_span_ns (from, to) > busy_total)
        g_array_append_val (found, g);
      if (i < merged->len)
        from = g_array_index (merged, Range, i).end;
    }
  if (found->len > TTV_TIME_MAX_IDLE_GAPS)
    {
      g_array_sort (found, range_cmp_longer);
      g_array_set_size (found, TTV_TIME_MAX_IDLE_GAPS);
    }
  g_array_sort (found, range_cmp_start);
  for (guint i = 0; i < found->len; i++)
    {
      gaps[i][0] = g_array_index (found, Range, i).start;
      gaps[i][1] = g_array_index (found, Range, i).end;
    }
  return found->len;
}
