/* ttv-bench-find.c: the event list's Find against a filter pass, on one
 * trace, as the viewer runs them (issue 16: "Find on 10 M events
 * cancellable and within 2x a filter pass").  Both read every event of the
 * traceset through the tab's requests, with the state when the visible
 * columns need it; the filter pass tests each event against an expression
 * of the state that matches nothing, the Find looks for a text that is nowhere (the
 * worst case: every column of every event is looked at).  Prints one JSON
 * line; CPU seconds are the process's, wall seconds the clock's, the best
 * of three runs of each.
 *
 *   ttv-bench-find TRACE [TEXT [EXPRESSION]] */
#include "ttv-event-matcher.h"
#include "ttv-tab-state-private.h"
#include "ttv-traceset.h"

#include <stdio.h>
#include <time.h>

typedef struct {
  TtvEventMatcher *matcher;
  guint64 events, hits;
  gboolean done;
  TtvRequestStatus status;
} Pass;

static gboolean
on_event (TtvEventRequest *req, const TtvViewerEvent *ev, gpointer data)
{
  Pass *p = data;

  p->events++;
  if (ttv_event_matcher_matches (p->matcher, req, ev))
    p->hits++;
  return TRUE;
}

static void
on_done (TtvEventRequest *req, TtvRequestStatus status, const GError *error, gpointer data)
{
  Pass *p = data;

  p->done = TRUE;
  p->status = status;
  if (error)
    g_printerr ("ttv-bench-find: %s\n", error->message);
}

static double
cpu_seconds (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

/* Reads every event of @state testing it with @matcher; its CPU and wall
 * seconds into @cpu and @wall. */
static Pass
run_pass (TtvTabState *state, TtvEventMatcher *matcher, double *cpu, double *wall)
{
  Pass p = { matcher, 0, 0, FALSE, TTV_REQUEST_COMPLETED };
  TtvRequestFlags flags = TTV_REQUEST_FILTERED;
  double c0 = cpu_seconds ();
  gint64 w0 = g_get_monotonic_time ();

  if (ttv_event_matcher_needs_state (matcher))
    flags |= TTV_REQUEST_WITH_STATE;
  ttv_tab_state_request_from_position (state, NULL, NULL, 0, flags, on_event, on_done, &p, NULL);
  while (!p.done)
    g_main_context_iteration (NULL, TRUE);
  *cpu = cpu_seconds () - c0;
  *wall = (double) (g_get_monotonic_time () - w0) / 1e6;
  return p;
}

int
main (int argc, char **argv)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvTraceset) ts = ttv_traceset_new ();
  g_autoptr (TtvTabState) state = NULL;
  const char *text = argc > 2 ? argv[2] : "zqxj-not-there";
  /* The state too: the list's Process, PID and Mode columns need it. */
  const char *expr = argc > 3 ? argv[3] : "state.process_name = zqxj_not_there";
  guint columns = 0;
  double filter_cpu, filter_wall, find_cpu, find_wall;

  if (argc < 2)
    {
      g_printerr ("usage: ttv-bench-find TRACE [TEXT [EXPRESSION]]\n");
      return 2;
    }
  if (!ttv_traceset_add_path (ts, argv[1], &error))
    {
      g_printerr ("ttv-bench-find: %s\n", error->message);
      return 1;
    }
  state = ttv_tab_state_new (ts);
  /* The columns the list shows by default. */
  for (guint c = 0; c < TTV_EVENT_N_COLUMNS; c++)
    if (ttv_event_columns_get_visible (NULL, (TtvEventColumn) c, state))
      columns |= TTV_EVENT_COLUMN_BIT (c);
  g_autoptr (TtvEventMatcher) filter = ttv_event_matcher_new (expr, TRUE, state, columns, &error);
  g_autoptr (TtvEventMatcher) find = filter ? ttv_event_matcher_new (text, FALSE, state, columns, &error) : NULL;
  if (!find)
    {
      g_printerr ("ttv-bench-find: %s\n", error->message);
      return 1;
    }
  /* The best of three of each, alternating: a shared machine slows some. */
  Pass fp = { 0 }, tp = { 0 };
  filter_cpu = filter_wall = find_cpu = find_wall = G_MAXDOUBLE;
  for (guint i = 0; i < 3; i++)
    {
      double c, w;
      fp = run_pass (state, filter, &c, &w);
      filter_cpu = MIN (filter_cpu, c);
      filter_wall = MIN (filter_wall, w);
      tp = run_pass (state, find, &c, &w);
      find_cpu = MIN (find_cpu, c);
      find_wall = MIN (find_wall, w);
    }
  printf ("{\"bench\": \"find\", \"trace\": \"%s\", \"events\": %" G_GUINT64_FORMAT ", "
          "\"filter_pass_cpu_s\": %.3f, \"filter_pass_wall_s\": %.3f, "
          "\"find_text_cpu_s\": %.3f, \"find_text_wall_s\": %.3f, \"find_text_hits\": %" G_GUINT64_FORMAT ", "
          "\"find_vs_filter_cpu\": %.2f, \"find_text_events_per_s\": %.0f}\n",
          argv[1], tp.events, filter_cpu, filter_wall, find_cpu, find_wall, tp.hits,
          filter_cpu > 0 ? find_cpu / filter_cpu : 0.0, find_cpu > 0 ? (double) tp.events / find_cpu : 0.0);
  return fp.events == tp.events ? 0 : 1;
}
