/* ttv-filter-count.c: the number of events matching the tab's filter,
 * counted by a filtered request over the whole traceset. */
#include "ttv-filter-count.h"

/* How often the count so far is announced (microseconds). */
#define ANNOUNCE_INTERVAL 200000

struct _TtvFilterCount {
  TtvTabState *state;              /* weak: the owner */
  void (*changed) (TtvTabState *state);
  guint64 matched;
  gboolean complete;
  gboolean running;
  gint64 announced_at;             /* monotonic time of the last announcement */
};

TtvFilterCount *
ttv_filter_count_new (TtvTabState *state, void (*changed) (TtvTabState *state))
{
  TtvFilterCount *count = g_new0 (TtvFilterCount, 1);

  count->state = state;
  count->changed = changed;
  count->complete = TRUE;
  return count;
}

void
ttv_filter_count_free (TtvFilterCount *count)
{
  g_free (count);
}

static gboolean
count_event (TtvEventRequest *request, const TtvViewerEvent *event, gpointer data)
{
  TtvFilterCount *count = data;

  /* Delivered filtered: each is a match. */
  if ((++count->matched & 16383) == 0 && g_get_monotonic_time () - count->announced_at >= ANNOUNCE_INTERVAL)
    {
      count->announced_at = g_get_monotonic_time ();
      count->changed (count->state);
    }
  return TRUE;
}

static void
count_done (TtvEventRequest *request, TtvRequestStatus status, const GError *error, gpointer data)
{
  TtvFilterCount *count = data;

  count->running = FALSE;
  /* Cancelled: a new count replaces it, or the tab closes. */
  if (status == TTV_REQUEST_CANCELLED)
    return;
  /* A read error ends the count where it is: what was read is counted. */
  count->complete = TRUE;
  count->changed (count->state);
}

void
ttv_filter_count_restart (TtvFilterCount *count)
{
  TtvTime start, end;

  if (count->running)
    ttv_tab_state_cancel_requests (count->state, count);
  count->running = FALSE;
  count->matched = 0;
  count->complete = TRUE;
  if (!*ttv_tab_state_get_filter (count->state))
    return;
  ttv_tab_state_get_time_span (count->state, &start, &end);
  count->complete = FALSE;
  count->running = TRUE;
  count->announced_at = g_get_monotonic_time ();
  ttv_tab_state_request_time_range (count->state, count, start, end, 0,
                                    TTV_REQUEST_FILTERED | TTV_REQUEST_REPLACE,
                                    count_event, count_done, count, NULL);
}

guint64
ttv_filter_count_get (const TtvFilterCount *count, gboolean *complete)
{
  if (complete)
    *complete = count->complete;
  return count->matched;
}
