/* ttv-report-lost.c: the lost-events marks of a report. */
#include "ttv-config.h"

#include "ttv-report-lost.h"
#include "ttv-trace-info.h"

static gint
compare_lost (gconstpointer a, gconstpointer b)
{
  const TtvLostMark *x = a, *y = b;
  return x->range.start < y->range.start ? -1 : x->range.start > y->range.start;
}

GArray *
ttv_lost_marks_collect (TtvTraceset *ts)
{
  GArray *marks = g_array_new (FALSE, FALSE, sizeof (TtvLostMark));
  for (guint i = 0; i < ttv_traceset_get_n_tracefiles (ts); i++)
    {
      const TtvTracefile *tf = ttv_traceset_get_tracefile (ts, i);
      for (guint j = 0; tf->lost && j < tf->lost->len; j++)
        {
          TtvLostMark m = { tf, g_array_index (tf->lost, TtvLostRange, j) };
          g_array_append_val (marks, m);
        }
    }
  g_array_sort (marks, compare_lost);
  return marks;
}

guint
ttv_lost_marks_after (const GArray *lost, TtvTime time)
{
  guint lo = 0, hi = lost->len;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (g_array_index (lost, TtvLostMark, mid).range.start <= time)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

gboolean
ttv_lost_marks_append_until (TtvReportPrinter *printer, const GArray *lost, guint *next_lost, TtvTime time,
                             TtvTime start, GString *out, GString *warnings, TtvLostWarningsFunc warned,
                             gpointer data, GError **error)
{
  for (; *next_lost < lost->len && g_array_index (lost, TtvLostMark, *next_lost).range.start <= time; (*next_lost)++)
    {
      const TtvLostMark *mark = &g_array_index (lost, TtvLostMark, *next_lost);
      if (mark->range.end < start)
        continue;
      ttv_report_printer_append_lost (printer, mark->tracefile, &mark->range, out, warnings);
      if (warnings->len && !warned (warnings, data, error))
        return FALSE;
    }
  return TRUE;
}

void
ttv_lost_marks_append_summary (const GArray *lost, TtvTime start, TtvTime end, GString *out)
{
  guint64 events = 0, packets = 0;
  guint n = 0;
  for (guint i = 0; i < lost->len; i++)
    {
      const TtvLostMark *m = &g_array_index (lost, TtvLostMark, i);
      if (!ttv_lost_range_in_interval (m->tracefile, &m->range, start, end))
        continue;
      events += m->range.count;
      packets += m->range.packets;
      n++;
    }
  if (n == 0)
    return;
  g_string_append_printf (out, "\nlost by the tracer: %" G_GUINT64_FORMAT " events, %" G_GUINT64_FORMAT
                          " packets, in %u ranges\n", events, packets, n);
  for (guint i = 0; i < lost->len; i++)
    {
      const TtvLostMark *m = &g_array_index (lost, TtvLostMark, i);
      if (!ttv_lost_range_in_interval (m->tracefile, &m->range, start, end))
        continue;
      g_string_append_printf (out, "  %s/%s\n", m->tracefile->trace->name, m->tracefile->name);
      ttv_lost_range_append_text (&m->range, out);
    }
}
