/* test-viewer-api.c: the module plugin API (ttv-viewer.h) under Xvfb: the
 * test module receives every notification, event requests deliver, replace,
 * go stale and resume from positions; broken modules are refused. */
#include "ttv-config.h"

#include "ttv-gui-test-util.h"
#include "ttv-test-util.h"
#include "ttv-tab-state-private.h"
#include "ttv-viewer-registry.h"

#include <glib/gstdio.h>
#include <string.h>

typedef struct {
  GPtrArray *times;        /* of TtvTime *, owned */
  GPtrArray *names;        /* of char *, owned */
  GPtrArray *positions;    /* of TtvViewerPosition *, owned */
  guint done_calls;
  TtvRequestStatus status;
} Collect;

static void
collect_init (Collect *c)
{
  c->times = g_ptr_array_new_with_free_func (g_free);
  c->names = g_ptr_array_new_with_free_func (g_free);
  c->positions = g_ptr_array_new_with_free_func ((GDestroyNotify) ttv_viewer_position_free);
  c->done_calls = 0;
}

static void
collect_clear (Collect *c)
{
  g_ptr_array_unref (c->times);
  g_ptr_array_unref (c->names);
  g_ptr_array_unref (c->positions);
}

static gboolean
on_event (TtvEventRequest *req, const TtvViewerEvent *ev, gpointer data)
{
  Collect *c = data;
  TtvTime time = ttv_viewer_event_get_time (ev);

  g_ptr_array_add (c->times, g_memdup2 (&time, sizeof time));
  g_ptr_array_add (c->names, g_strdup (ttv_viewer_event_get_name (ev)));
  g_ptr_array_add (c->positions, ttv_event_request_dup_position (req));
  return TRUE;
}

static void
on_done (TtvEventRequest *req, TtvRequestStatus status, const GError *error, gpointer data)
{
  Collect *c = data;

  c->done_calls++;
  c->status = status;
}

static void
wait_done (Collect *c)
{
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

  while (c->done_calls == 0 && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (c->done_calls, ==, 1);
}

static void
test_requests (void)
{
  g_autoptr (TtvTraceset) ts = ttv_gui_test_open_sample ();
  g_autoptr (TtvTabState) state = NULL;
  Collect a, b, c;
  TtvTime ss, se;
  int owner;

  if (!ts)
    {
      g_test_skip ("TTV_SAMPLE_TRACE is not set or missing");
      return;
    }
  state = ttv_tab_state_new (ts);
  ttv_tab_state_get_time_span (state, &ss, &se);
  g_assert_cmpint (ss, <, se);

  /* N events from the start, in time order. */
  collect_init (&a);
  ttv_tab_state_request_from_position (state, NULL, NULL, 50, 0, on_event, on_done, &a, NULL);
  wait_done (&a);
  g_assert_cmpint (a.status, ==, TTV_REQUEST_COMPLETED);
  g_assert_cmpuint (a.times->len, ==, 50);
  g_assert_cmpint (*(TtvTime *) a.times->pdata[0], ==, ss);
  for (guint i = 1; i < a.times->len; i++)
    g_assert_cmpint (*(TtvTime *) a.times->pdata[i - 1], <=, *(TtvTime *) a.times->pdata[i]);

  /* Resuming from the position of the 20th event gives the same events. */
  collect_init (&b);
  ttv_tab_state_request_from_position (state, NULL, a.positions->pdata[20], 10, 0, on_event,
                                       on_done, &b, NULL);
  wait_done (&b);
  g_assert_cmpuint (b.times->len, ==, 10);
  for (guint i = 0; i < 10; i++)
    {
      g_assert_cmpint (*(TtvTime *) b.times->pdata[i], ==, *(TtvTime *) a.times->pdata[20 + i]);
      g_assert_cmpstr (b.names->pdata[i], ==, a.names->pdata[20 + i]);
      g_assert_cmpint (ttv_viewer_position_compare (b.positions->pdata[i], a.positions->pdata[20 + i]), ==, 0);
    }
  g_assert_cmpint (ttv_viewer_position_compare (a.positions->pdata[3], a.positions->pdata[4]), <, 0);
  collect_clear (&b);

  /* A time range: every event inside it, none outside. */
  collect_init (&b);
  {
    TtvTime t0 = *(TtvTime *) a.times->pdata[10], t1 = *(TtvTime *) a.times->pdata[30];
    ttv_tab_state_request_time_range (state, NULL, t0, t1, 0, 0, on_event, on_done, &b, NULL);
    wait_done (&b);
    g_assert_cmpuint (b.times->len, >=, 21);
    for (guint i = 0; i < b.times->len; i++)
      {
        g_assert_cmpint (*(TtvTime *) b.times->pdata[i], >=, t0);
        g_assert_cmpint (*(TtvTime *) b.times->pdata[i], <=, t1);
      }
  }
  collect_clear (&b);

  /* REPLACE cancels the owner's older request; staleness cancels too. */
  collect_init (&b);
  collect_init (&c);
  ttv_tab_state_request_from_position (state, &owner, NULL, 0, TTV_REQUEST_REPLACE, on_event,
                                       on_done, &b, NULL);
  ttv_tab_state_request_from_position (state, &owner, NULL, 5, TTV_REQUEST_REPLACE, on_event,
                                       on_done, &c, NULL);
  g_assert_cmpuint (b.done_calls, ==, 1);
  g_assert_cmpint (b.status, ==, TTV_REQUEST_CANCELLED);
  wait_done (&c);
  g_assert_cmpint (c.status, ==, TTV_REQUEST_COMPLETED);
  g_assert_cmpuint (c.times->len, ==, 5);
  collect_clear (&b);
  collect_clear (&c);

  collect_init (&b);
  ttv_tab_state_request_time_range (state, NULL, ss, se, 0, TTV_REQUEST_STALE_ON_TIME_WINDOW,
                                    on_event, on_done, &b, NULL);
  ttv_tab_state_set_time_window (state, ss, ss + (se - ss) / 2);
  g_assert_cmpuint (b.done_calls, ==, 1);
  g_assert_cmpint (b.status, ==, TTV_REQUEST_CANCELLED);
  collect_clear (&b);

  /* Filtered requests see only matching events. */
  ttv_tab_state_set_filter (state, "sched_switch", NULL);
  collect_init (&b);
  ttv_tab_state_request_from_position (state, NULL, NULL, 20, TTV_REQUEST_FILTERED, on_event,
                                       on_done, &b, NULL);
  wait_done (&b);
  g_assert_cmpuint (b.names->len, ==, 20);
  for (guint i = 0; i < b.names->len; i++)
    g_assert_nonnull (strstr (b.names->pdata[i], "sched_switch"));
  collect_clear (&b);

  /* Shutting the tab down cancels what is queued, exactly once. */
  collect_init (&b);
  ttv_tab_state_request_from_position (state, NULL, NULL, 0, 0, on_event, on_done, &b, NULL);
  ttv_tab_state_shutdown (state);
  g_assert_cmpuint (b.done_calls, ==, 1);
  g_assert_cmpint (b.status, ==, TTV_REQUEST_CANCELLED);
  g_assert_cmpuint (ttv_tab_state_get_n_requests (state), ==, 0);
  collect_clear (&b);
  collect_clear (&a);
}

static void
test_module_notifications (void)
{
  g_autoptr (TtvTraceset) ts = ttv_gui_test_open_sample ();
  g_autoptr (TtvTabState) state = NULL;
  g_autoptr (GError) error = NULL;
  const TtvViewerInfo *info;
  GtkWidget *viewer;
  GString *log;
  TtvTime ss, se;
  static const char *const expected[] = {
    "traceset-changed", "time-window-changed", "current-time-changed", "selection-changed",
    "filter-changed", "bookmarks-changed", "density-ready", "history-changed",
  };

  if (!ts)
    {
      g_test_skip ("TTV_SAMPLE_TRACE is not set or missing");
      return;
    }
  g_assert_true (ttv_module_loader_load (TTV_TEST_MODULE_PATH, &error));
  g_assert_no_error (error);
  info = ttv_viewer_registry_find ("test");
  g_assert_nonnull (info);
  g_assert_cmpstr (info->title, ==, "Test");

  state = ttv_tab_state_new (ts);
  viewer = g_object_ref_sink (info->new_viewer (state));
  ttv_tab_state_get_time_span (state, &ss, &se);
  ttv_tab_state_set_time_window (state, ss + 10, se - 10);
  ttv_tab_state_set_current_time (state, ss + 100);
  ttv_tab_state_set_selection (state, ss + 100, ss + 200);
  ttv_tab_state_set_filter (state, "syscall", NULL);
  ttv_tab_state_add_bookmark (state, ttv_viewer_bookmark_new ("here", "text", -1, ss + 5, ss + 5));
  ttv_tab_state_set_density (state, 42, NULL, NULL, NULL);
  ttv_tab_state_set_history (state, NULL);
  ttv_tab_state_set_traceset (state, ts);

  log = g_object_get_data (G_OBJECT (viewer), "ttv-test-log");
  g_assert_nonnull (log);
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      g_autofree char *line = g_strdup_printf ("%s\n", expected[i]);
      g_test_message ("looking for %s", expected[i]);
      g_assert_nonnull (strstr (log->str, line));
    }
  /* Unchanged values notify nobody. */
  {
    gsize before = log->len;
    ttv_tab_state_set_filter (state, "syscall", NULL);
    ttv_tab_state_set_current_time (state, ttv_tab_state_get_current_time (state));
    g_assert_cmpuint (log->len, ==, before);
  }
  /* Values are clamped to the traceset. */
  ttv_tab_state_set_current_time (state, se + 1000000);
  g_assert_cmpint (ttv_tab_state_get_current_time (state), ==, se);
  g_assert_cmpuint (ttv_tab_state_get_bookmarks (state)->len, ==, 1);
  gtk_widget_destroy (viewer);
  g_object_unref (viewer);
  /* After its widget is gone the module hears nothing (no crash). */
  ttv_tab_state_set_filter (state, "", NULL);
  ttv_tab_state_shutdown (state);
}

/* --- Request lifetime ------------------------------------------------------------- */

typedef struct {
  guint done_calls;
  TtvEventRequest *other;     /* cancelled from this one's done callback */
} Done;

static gboolean
count_nothing (TtvEventRequest *req, const TtvViewerEvent *ev, gpointer data)
{
  return TRUE;
}

static void
done_and_cancel (TtvEventRequest *req, TtvRequestStatus status, const GError *error, gpointer data)
{
  Done *d = data;

  d->done_calls++;
  g_assert_false (ttv_event_request_is_finished (req) && d->done_calls > 1);
  if (d->other)
    ttv_event_request_cancel (d->other);
}

/* A request held by a reference outlives its done callback: cancelling it
 * then does nothing; a done callback cancelling another request of the
 * same cancellation is safe; each done callback runs once. */
static void
test_request_lifetime (void)
{
  g_autoptr (TtvTraceset) ts = ttv_gui_test_open_sample ();
  g_autoptr (TtvTabState) state = NULL;
  TtvEventRequest *req, *a, *b;
  Done d = { 0 }, da = { 0 }, db = { 0 };
  int owner;

  if (!ts)
    {
      g_test_skip ("TTV_SAMPLE_TRACE is not set or missing");
      return;
    }
  state = ttv_tab_state_new (ts);
  req = ttv_event_request_ref (ttv_tab_state_request_from_position (state, NULL, NULL, 10, 0, count_nothing,
                                                                    done_and_cancel, &d, NULL));
  g_assert_false (ttv_event_request_is_finished (req));
  while (d.done_calls == 0)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (ttv_event_request_is_finished (req));
  ttv_event_request_cancel (req);            /* finished: nothing happens */
  g_assert_cmpuint (d.done_calls, ==, 1);
  ttv_event_request_unref (req);

  /* Two requests of one owner, the first one's done callback cancelling
   * the second while the owner's requests are being cancelled. */
  a = ttv_tab_state_request_from_position (state, &owner, NULL, 0, 0, count_nothing, done_and_cancel, &da, NULL);
  b = ttv_tab_state_request_from_position (state, &owner, NULL, 0, 0, count_nothing, done_and_cancel, &db, NULL);
  g_assert_nonnull (a);
  g_assert_nonnull (b);
  da.other = b;
  ttv_tab_state_cancel_requests (state, &owner);
  g_assert_cmpuint (da.done_calls, ==, 1);
  g_assert_cmpuint (db.done_calls, ==, 1);
  g_assert_cmpuint (ttv_tab_state_get_n_requests (state), ==, 0);

  /* After shutdown a request finishes at once, and none is returned. */
  ttv_tab_state_shutdown (state);
  memset (&d, 0, sizeof d);
  g_assert_null (ttv_tab_state_request_time_range (state, NULL, 0, TTV_TIME_MAX, 0, 0, count_nothing,
                                                   done_and_cancel, &d, NULL));
  g_assert_cmpuint (d.done_calls, ==, 1);
}

/* --- Traces, events and fields through the SDK ------------------------------------- */

typedef struct {
  guint n;
  guint n_switch, n_syscall;
  GString *problems;
  gboolean done;
} Fields;

static void
fields_done (TtvEventRequest *req, TtvRequestStatus status, const GError *error, gpointer data)
{
  Fields *f = data;

  g_assert_cmpint (status, ==, TTV_REQUEST_COMPLETED);
  f->done = TRUE;
}

static gboolean
check_fields (TtvEventRequest *req, const TtvViewerEvent *ev, gpointer data)
{
  Fields *f = data;
  const char *name = ttv_viewer_event_get_name (ev);
  const TtvViewerTrace *trace = ttv_viewer_event_get_trace (ev);
  guint stream = ttv_viewer_event_get_stream (ev);
  gint64 v;
  guint64 u;

  f->n++;
  if (ttv_viewer_trace_get_stream_cpu (trace, stream) != ttv_viewer_event_get_cpu (ev))
    g_string_append_printf (f->problems, "event %u: the stream's CPU is not the event's\n", f->n);
  if (g_strcmp0 (ttv_viewer_trace_get_event_type_name (trace, ttv_viewer_event_get_type_index (ev)), name) != 0)
    g_string_append_printf (f->problems, "event %u: its type's name is not its name\n", f->n);
  if (ttv_viewer_event_get_field_int (ev, "no_such_field", &v)
      || ttv_viewer_event_dup_field_text (ev, "no_such_field") != NULL)
    g_string_append_printf (f->problems, "event %u: a field that is not there\n", f->n);
  if (g_strcmp0 (name, "core.sched_switch") == 0)
    {
      g_autofree char *state = ttv_viewer_event_dup_field_text (ev, "prev_state");
      g_autofree char *fields = ttv_viewer_event_dup_fields (ev);
      g_autofree char *want = NULL;

      f->n_switch++;
      g_assert_true (ttv_viewer_event_get_field_uint (ev, "next_pid", &u));
      g_assert_true (ttv_viewer_event_get_field_int (ev, "prev_state", &v));
      /* The same as the fields' text: "prev_state = WAIT_INTERRUPTIBLE (1)". */
      want = g_strdup_printf ("next_pid = %" G_GUINT64_FORMAT ", prev_state = %s (%" G_GINT64_FORMAT ")",
                              u, state, v);
      if (!strstr (fields, want))
        g_string_append_printf (f->problems, "sched_switch: “%s” not in “%s”\n", want, fields);
    }
  else if (g_strcmp0 (name, "core.syscall_entry") == 0)
    {
      g_autofree char *call = ttv_viewer_event_dup_field_text (ev, "syscall_id");
      g_autofree char *address = ttv_viewer_event_dup_field_text (ev, "address");
      g_autofree char *fields = ttv_viewer_event_dup_fields (ev);
      g_autofree char *want = NULL;

      f->n_syscall++;
      g_assert_true (ttv_viewer_event_get_field_int (ev, "syscall_id", &v));
      want = g_strdup_printf ("syscall_id = %s (%" G_GINT64_FORMAT "), address = %s", call, v, address);
      if (g_strcmp0 (fields, want) != 0)
        g_string_append_printf (f->problems, "syscall_entry: “%s”, not “%s”\n", fields, want);
    }
  return TRUE;
}

static void
test_events_and_traces (void)
{
  g_autoptr (TtvTraceset) ts = ttv_gui_test_open_sample ();
  g_autoptr (TtvTabState) state = NULL;
  const TtvViewerTrace *trace;
  g_auto (GStrv) fields = NULL;
  Fields f = { 0 };
  TtvTime start, end, ss, se;
  gint switch_type = -1;

  if (!ts)
    {
      g_test_skip ("TTV_SAMPLE_TRACE is not set or missing");
      return;
    }
  state = ttv_tab_state_new (ts);
  trace = ttv_tab_state_get_trace (state, 0);
  /* The sample: ttv-gen's LTT trace of CPUs 0, 1, 2 and 4. */
  g_assert_cmpstr (ttv_viewer_trace_get_name (trace), ==, "sample-trace");
  g_assert_true (g_str_has_suffix (ttv_viewer_trace_get_path (trace), "sample-trace"));
  g_assert_cmpstr (ttv_viewer_trace_get_info (trace, "node_name"), ==, "ttv-gen");
  g_assert_null (ttv_viewer_trace_get_info (trace, "no such key"));
  g_assert_cmpuint (ttv_viewer_trace_get_n_streams (trace), ==, 4);
  g_assert_cmpstr (ttv_viewer_trace_get_stream_name (trace, 3), ==, "cpu/4");
  g_assert_cmpint (ttv_viewer_trace_get_stream_cpu (trace, 3), ==, 4);
  ttv_viewer_trace_get_time_span (trace, &start, &end);
  ttv_tab_state_get_time_span (state, &ss, &se);
  g_assert_cmpint (start, ==, ss);
  g_assert_cmpint (end, ==, se);
  for (guint t = 0; t < ttv_viewer_trace_get_n_event_types (trace); t++)
    if (g_strcmp0 (ttv_viewer_trace_get_event_type_name (trace, t), "core.sched_switch") == 0)
      switch_type = (gint) t;
  g_assert_cmpint (switch_type, >=, 0);
  fields = ttv_viewer_trace_dup_event_type_fields (trace, (guint) switch_type);
  g_assert_cmpuint (g_strv_length (fields), ==, 3);
  g_assert_cmpstr (fields[0], ==, "prev_pid");
  g_assert_cmpstr (fields[2], ==, "prev_state");

  /* Every field read by name agrees with the fields' text. */
  f.problems = g_string_new (NULL);
  ttv_tab_state_request_from_position (state, NULL, NULL, 20000, 0, check_fields, fields_done, &f, NULL);
  while (!f.done)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (f.n, ==, 20000);
  g_assert_cmpuint (f.n_switch, >, 100);
  g_assert_cmpuint (f.n_syscall, >, 100);
  g_assert_cmpstr (f.problems->str, ==, "");
  g_string_free (f.problems, TRUE);
  ttv_tab_state_shutdown (state);
}

static void
test_bad_modules (void)
{
  const char *dir = ttv_test_get_tmp_dir ();
  g_autofree char *junk = g_build_filename (dir, "libjunk.so", NULL);
  g_autoptr (GError) error = NULL;

  g_assert_true (g_file_set_contents (junk, "not an ELF file", -1, NULL));
  g_assert_false (ttv_module_loader_load (junk, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, junk));
  g_clear_error (&error);
  g_assert_false (ttv_module_loader_load ("/nonexistent/libnothing.so", &error));
  g_assert_nonnull (error);
  g_clear_error (&error);
  /* A real library without our entry point. */
  g_assert_false (ttv_module_loader_load (TTV_PLAIN_LIBRARY_PATH, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  if (!gtk_init_check (&argc, &argv))
    {
      g_test_message ("no display: run under xvfb-run");
      return 77;
    }
  g_test_add_func ("/gui/api/requests", test_requests);
  g_test_add_func ("/gui/api/module-notifications", test_module_notifications);
  g_test_add_func ("/gui/api/request-lifetime", test_request_lifetime);
  g_test_add_func ("/gui/api/events-and-traces", test_events_and_traces);
  g_test_add_func ("/gui/api/bad-modules", test_bad_modules);
  return g_test_run ();
}
