/* ttv-timeline-navigate.c: the previous and next state change of a time-line
 * row, where Left and Right take the current time (ttv-timeline.c). */
#include "ttv-timeline-view.h"

/* Stored intervals may be split where the state does not change: a few
 * hops in practice; a bound keeps a pathological history from stalling
 * the keyboard. */
#define MAX_HOPS 4096

/* The first time after @from when history row @row changes its visual
 * state (or ends, before @span_end); FALSE when none. */
static gboolean
next_change (TtvViewerHistory *h, TtvViewerRowKind kind, guint row, TtvTime from, TtvTime span_end,
             TtvTime *out)
{
  const TtvViewerRowInfo *info = ttv_viewer_history_get_row (h, kind, row);
  TtvViewerInterval iv, next;

  if (!info)
    return FALSE;
  if (!ttv_viewer_history_get_interval_at (h, kind, row, from, &iv))
    {
      /* Not born yet: its birth is its first change. */
      *out = info->birth;
      return info->birth > from && info->birth < span_end;
    }
  for (guint hop = 0; hop < MAX_HOPS; hop++)
    {
      if (iv.end <= from || iv.end >= span_end)
        return FALSE;
      if (!ttv_viewer_history_get_interval_at (h, kind, row, iv.end, &next) || next.state != iv.state)
        {
          *out = iv.end;
          return TRUE;
        }
      iv = next;
    }
  return FALSE;
}

/* The last time before @from when history row @row changed its visual
 * state (or was born); FALSE when none. */
static gboolean
prev_change (TtvViewerHistory *h, TtvViewerRowKind kind, guint row, TtvTime from, TtvTime *out)
{
  const TtvViewerRowInfo *info = ttv_viewer_history_get_row (h, kind, row);
  TtvViewerInterval cur, prev;

  if (!info || from <= info->birth)
    return FALSE;
  /* After its end: from its last interval. */
  if (!ttv_viewer_history_get_interval_at (h, kind, row, MIN (from, info->end) - 1, &cur))
    return FALSE;
  if (from > info->end && info->end > cur.start)
    {
      *out = info->end;
      return TRUE;
    }
  for (guint hop = 0; hop < MAX_HOPS; hop++)
    {
      if (cur.start <= info->birth
          || !ttv_viewer_history_get_interval_at (h, kind, row, cur.start - 1, &prev))
        {
          *out = cur.start;
          return cur.start < from;
        }
      if (prev.state != cur.state && cur.start < from)
        {
          *out = cur.start;
          return TRUE;
        }
      /* The same state split in two, or @from is on this change: on. */
      cur = prev;
    }
  return FALSE;
}

/* One history row of a display row, the leader or a merged thread. */
static gboolean
row_change (TtvTimelineView *v, TtvViewerRowKind kind, guint row, TtvTime from, gboolean forward,
            TtvTime span_end, TtvTime *out)
{
  return forward ? next_change (v->history, kind, row, from, span_end, out)
                 : prev_change (v->history, kind, row, from, out);
}

gboolean
ttv_timeline_view_find_change (TtvTimelineView *v, guint index, TtvTime from, gboolean forward,
                               TtvTime *out)
{
  const TtvTimelineRow *r;
  TtvTime span_start, span_end, best = 0, t;
  gboolean found = FALSE;

  if (!v->history || index >= v->rows->len)
    return FALSE;
  r = v->rows->pdata[index];
  ttv_tab_state_get_time_span (v->state, &span_start, &span_end);
  /* A collapsed process changes when any of its threads does. */
  for (guint i = 0; i <= (r->merged ? r->merged->len : 0); i++)
    {
      guint row = i == 0 ? r->row : g_array_index (r->merged, guint, i - 1);

      if (row_change (v, r->kind, row, from, forward, span_end, &t)
          && (!found || (forward ? t < best : t > best)))
        {
          best = t;
          found = TRUE;
        }
    }
  if (found)
    *out = CLAMP (best, span_start, span_end);
  return found;
}
