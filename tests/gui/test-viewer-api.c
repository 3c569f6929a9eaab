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
on_event (TtvEventRequest *req, const TtvEvent *ev, gpointer data)
{
  Collect *c = data;

  g_ptr_array_add (c->times, g_memdup2 (&ev->time, sizeof ev->time));
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
    "filter-changed", "bookmarks-changed", "statistics-changed",
  };

  if (!ts)
    {
      g_test_skip ("TTV_SAMPLE_TRACE is not set or missing");
      return;
    }
  g_assert_true (ttv_viewer_registry_load_module (TTV_TEST_MODULE_PATH, &error));
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
  ttv_tab_state_set_statistics (state, 42, TRUE, NULL);
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

static void
test_bad_modules (void)
{
  const char *dir = ttv_test_get_tmp_dir ();
  g_autofree char *junk = g_build_filename (dir, "libjunk.so", NULL);
  g_autoptr (GError) error = NULL;

  g_assert_true (g_file_set_contents (junk, "not an ELF file", -1, NULL));
  g_assert_false (ttv_viewer_registry_load_module (junk, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, junk));
  g_clear_error (&error);
  g_assert_false (ttv_viewer_registry_load_module ("/nonexistent/libnothing.so", &error));
  g_assert_nonnull (error);
  g_clear_error (&error);
  /* A real library without our entry point. */
  g_assert_false (ttv_viewer_registry_load_module (TTV_PLAIN_LIBRARY_PATH, &error));
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
  g_test_add_func ("/gui/api/bad-modules", test_bad_modules);
  return g_test_run ();
}
