/* test-userspace-threads.c: userspace threads in the state and the state
 * history, and the call stack analysis, on the real glxgears trace of
 * ../shared/traces/ctf/glxgears-ust (LTTng-UST 2.3: vtid and procname
 * contexts, no vpid, cyg-profile events, no statedump, no binaries).  The
 * recorded traces of test-userspace.sh check the rest; this runs without
 * root. */
#include "ttv-callstack.h"
#include "ttv-context.h"
#include "ttv-event-owner.h"
#include "ttv-history.h"
#include "ttv-kernel-model.h"
#include "ttv-test-util.h"

/* Every event's own thread is the vtid its context names. */
static void
test_state_names_threads (void)
{
  g_autofree char *path = ttv_test_dup_shared_ctf_trace ("glxgears-ust");
  if (path == NULL)
    return;
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvTraceset) ts = ttv_traceset_new ();
  g_assert_true (ttv_traceset_add_path (ts, path, &error));
  g_autoptr (GPtrArray) traces = g_ptr_array_new ();
  g_ptr_array_add (traces, ttv_traceset_get_trace (ts, 0));
  g_autoptr (TtvKernelModel) model = ttv_kernel_model_new (traces);
  g_autoptr (TtvState) state = ttv_state_new ();
  g_autoptr (TtvContext) ctx = ttv_context_new (ts, &error);
  g_assert_true (ttv_context_seek_begin (ctx, &error));
  g_autoptr (TtvDecoder) decoder = ttv_decoder_new ();
  const TtvEvent *ev;
  guint64 n = 0;
  while ((ev = ttv_context_next (ctx, &error)) != NULL)
    {
      ttv_kernel_model_apply (model, state, 0, ev);
      TtvEventOwner owner;
      g_assert_true (ttv_event_owner_from_context (ev, decoder, &owner));
      const TtvProcessState *p = ttv_state_get_event_process (state, ev->tracefile->cpu);
      g_assert_nonnull (p);
      g_assert_cmpint (p->pid, ==, owner.tid);
      g_assert_cmpstr (g_quark_to_string (p->name), ==, "glxgears");
      /* No vpid context: the process is not known, never guessed. */
      g_assert_cmpint (ttv_process_state_get_tgid (p), ==, -1);
      /* Nothing says it runs between its events. */
      g_assert_cmpint (p->status, ==, TTV_PROCESS_UNNAMED);
      g_assert_null (ttv_state_get_running (state, ev->tracefile->cpu));
      n++;
    }
  g_assert_no_error (error);
  g_assert_cmpuint (n, ==, 4977);
}

/* The control flow's rows: the thread, named, with its events. */
static void
test_history_rows (void)
{
  g_autofree char *path = ttv_test_dup_shared_ctf_trace ("glxgears-ust");
  if (path == NULL)
    return;
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvTraceset) ts = ttv_traceset_new ();
  g_assert_true (ttv_traceset_add_path (ts, path, &error));
  TtvHistoryOptions opt = { .no_cache = TRUE };
  g_autoptr (TtvHistory) h = ttv_history_build (ts, &opt, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ttv_history_get_n_rows (h, TTV_HISTORY_ROW_PROCESS), ==, 1);
  const TtvHistoryRowInfo *row = ttv_history_get_row (h, TTV_HISTORY_ROW_PROCESS, 0);
  g_assert_cmpuint (row->id, ==, 16073);
  g_assert_cmpstr (row->name, ==, "glxgears");
  g_assert_cmpuint (row->tgid, ==, TTV_PID_NONE);
  g_assert_cmpuint (row->n_events, ==, 4977);
  g_assert_cmpint (row->birth, ==, ttv_traceset_get_start (ts));
  /* Its state between events is unknown, and drawn so. */
  TtvHistoryInterval iv;
  g_assert_true (ttv_history_get_interval_at (h, TTV_HISTORY_ROW_PROCESS, 0, ttv_traceset_get_start (ts) + 1000,
                                              &iv));
  g_assert_cmpuint (ttv_history_state_low (iv.state), ==, TTV_PROCESS_UNNAMED);
  g_assert_cmpuint (ttv_history_get_n_rows (h, TTV_HISTORY_ROW_CPU), ==, 0);
}

/* The real cyg-profile trace: a sensible call tree with every address in
 * hex.  2490 entries, 2487 exits: main and two callees still run at the
 * end; every exit matches its entry. */
static void
test_glxgears_callstack (void)
{
  g_autofree char *path = ttv_test_dup_shared_ctf_trace ("glxgears-ust");
  if (path == NULL)
    return;
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvTraceset) ts = ttv_traceset_new ();
  g_assert_true (ttv_traceset_add_path (ts, path, &error));
  TtvAnalysisOptions opt = { .no_cache = TRUE };
  g_autoptr (TtvAnalysis) a = ttv_analysis_run (ts, &ttv_callstack_analysis, &opt, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  TtvCallstack *cs = ttv_callstack_from_analysis (a);
  g_assert_cmpuint (ttv_callstack_get_n_threads (cs), ==, 1);
  const TtvCallstackThread *t = ttv_callstack_get_thread (cs, 0);
  g_assert_cmpuint (t->tid, ==, 16073);
  g_assert_cmpstr (t->name, ==, "glxgears");
  g_assert_cmpuint (t->n_calls, ==, 2490);
  g_assert_cmpuint (ttv_callstack_get_n_mismatches (cs), ==, 0);
  /* main (0x40472b) at depth 0 from its entry to the last event, without exit. */
  TtvCallstackCall main_call;
  g_assert_true (ttv_callstack_get_call_at (cs, 0, 0, t->last, &main_call));
  const TtvCallstackFunction *f = ttv_callstack_get_function (cs, main_call.function);
  g_assert_cmpstr (f->name, ==, "0x40472b");
  g_assert_false (f->resolved);
  g_assert_null (f->binary);
  g_assert_cmpint (main_call.start, ==, t->first);
  g_assert_cmpuint (main_call.flags, ==, TTV_CALL_NO_EXIT);
  /* At the last event: the three calls without exit, and the one whose
   * exit it is. */
  g_autoptr (GArray) open = ttv_callstack_dup_stack_at (cs, 0, t->last);
  g_assert_cmpuint (open->len, ==, 4);
  for (guint d = 0; d < 3; d++)
    g_assert_cmpuint (g_array_index (open, TtvCallstackCall, d).flags, ==, TTV_CALL_NO_EXIT);
  g_assert_cmpuint (g_array_index (open, TtvCallstackCall, 3).flags, ==, 0);
  guint incomplete = 0;
  for (guint d = 0; d < t->n_depths; d++)
    {
      g_autoptr (GArray) calls = ttv_callstack_query_calls (cs, 0, d, TTV_TIME_MIN, TTV_TIME_MAX, 0);
      for (guint i = 0; i < calls->len; i++)
        incomplete += g_array_index (calls, TtvCallstackCall, i).flags != 0;
    }
  g_assert_cmpuint (incomplete, ==, 3);
  /* The draw-time thinning keeps every call exactly once, hidden or shown. */
  for (guint d = 0; d < t->n_depths; d++)
    {
      g_autoptr (GArray) all = ttv_callstack_query_calls (cs, 0, d, TTV_TIME_MIN, TTV_TIME_MAX, 0);
      g_autoptr (GArray) thin = ttv_callstack_query_calls (cs, 0, d, t->first, t->last, (t->last - t->first) / 800);
      guint shown = thin->len, hidden = 0;
      for (guint i = 0; i < thin->len; i++)
        hidden += g_array_index (thin, TtvCallstackCall, i).hidden;
      g_assert_cmpuint (shown + hidden, ==, all->len);
      g_assert_cmpuint (shown, <=, 801);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/userspace/state/threads", test_state_names_threads);
  g_test_add_func ("/userspace/history/rows", test_history_rows);
  g_test_add_func ("/userspace/callstack/glxgears", test_glxgears_callstack);
  return g_test_run ();
}
