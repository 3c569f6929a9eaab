/* test-analysis.c: the background state pass and the analysis viewers under
 * Xvfb: PID/process/mode delivered with events equal a replay from the start
 * (what ttv-report --state prints), the histogram's drag sets the time
 * window, its log toggle and PNG/SVG export.  The statistics viewer has its
 * own test (test-statistics.c). */
#include "ttv-config.h"

#include "ttv-gui-test-util.h"
#include "ttv-test-util.h"
#include "ttv-state-tracker.h"
#include "ttv-tab-state-private.h"
#include "ttv-tab.h"
#include "ttv-viewer-registry.h"

#include <glib/gstdio.h>
#include <string.h>

typedef TtvGuiTestTab Fixture;

static gboolean
fixture_setup (Fixture *f)
{
  const char *const modules[] = { TTV_EVENTS_MODULE_PATH, TTV_STATISTICS_MODULE_PATH, TTV_HISTOGRAM_MODULE_PATH, NULL };

  return ttv_gui_test_tab_setup (f, modules);
}

/* --- PID / process / mode with the events ---------------------------------- */

typedef struct {
  GPtrArray *lines;
  gboolean done;
} Collect;

static gboolean
on_event (TtvEventRequest *req, const TtvViewerEvent *ev, gpointer data)
{
  Collect *c = data;
  TtvViewerProcessInfo info;

  if (ttv_event_request_get_process (req, &info))
    g_ptr_array_add (c->lines, g_strdup_printf ("pid %u %s %s", info.pid, info.name[0] ? info.name : "-",
                                                info.mode));
  else
    g_ptr_array_add (c->lines, g_strdup ("pid - - unknown"));
  return TRUE;
}

static void
on_done (TtvEventRequest *req, TtvRequestStatus status, const GError *error, gpointer data)
{
  ((Collect *) data)->done = TRUE;
}

static gboolean
collect_done (gpointer data)
{
  return ((Collect *) data)->done;
}

/* The same columns as ttv-report --state: a replay from the start. */
static GPtrArray *
reference_state_lines (TtvTraceset *ts, guint skip, guint n)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvStateTracker) tracker = ttv_state_tracker_new (ts, NULL);
  g_autoptr (TtvContext) ctx = ttv_context_new (ts, &error);
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);
  const TtvEvent *ev;

  g_assert_true (ttv_context_seek_begin (ctx, &error));
  for (guint i = 0; i < skip + n && (ev = ttv_context_next (ctx, &error)); i++)
    {
      const TtvProcessState *p;

      ttv_state_tracker_apply (tracker, NULL, ttv_traceset_get_stream_trace (ts, ttv_context_get_stream (ctx)), ev);
      if (i < skip)
        continue;
      p = ttv_state_get_running (ttv_state_tracker_get_state (tracker), ev->tracefile->cpu);
      if (p)
        g_ptr_array_add (lines, g_strdup_printf ("pid %u %s %s", p->pid,
                                                 p->name ? g_quark_to_string (p->name) : "-",
                                                 ttv_exec_mode_name (ttv_process_state_get_mode (p))));
      else
        g_ptr_array_add (lines, g_strdup ("pid - - unknown"));
    }
  g_assert_no_error (error);
  return lines;
}

static void
check_state_from (Fixture *f, guint skip, guint n)
{
  Collect c = { g_ptr_array_new_with_free_func (g_free), FALSE };
  g_autoptr (GPtrArray) expected = reference_state_lines (f->ts, skip, n);
  guint known = 0;

  ttv_tab_state_request_from_position (f->state, &c, NULL, skip + n, TTV_REQUEST_WITH_STATE,
                                       on_event, on_done, &c, NULL);
  ttv_gui_test_spin_until (collect_done, &c);
  g_assert_cmpuint (c.lines->len, ==, skip + n);
  for (guint i = 0; i < n; i++)
    {
      g_assert_cmpstr (c.lines->pdata[skip + i], ==, expected->pdata[i]);
      known += !g_str_has_prefix (expected->pdata[i], "pid -");
    }
  g_assert_cmpuint (known, >, 0);
  g_ptr_array_unref (c.lines);
}

typedef struct {
  TtvViewerPosition *pos;
  guint seen, want;
  gboolean done;
} Nth;

static gboolean
nth_event (TtvEventRequest *req, const TtvViewerEvent *ev, gpointer data)
{
  Nth *n = data;

  if (n->seen++ == n->want)
    {
      n->pos = ttv_event_request_dup_position (req);
      return FALSE;
    }
  return TRUE;
}

static gboolean
nth_done (gpointer data)
{
  return ((Nth *) data)->done;
}

static void
nth_finished (TtvEventRequest *req, TtvRequestStatus status, const GError *error, gpointer data)
{
  ((Nth *) data)->done = TRUE;
}

static void
test_state_columns (void)
{
  Fixture f;
  Nth nth = { NULL, 0, 1500, FALSE };
  Collect c = { NULL, FALSE };
  g_autoptr (GPtrArray) expected = NULL;

  if (!fixture_setup (&f))
    return;
  /* From the start, as the event list's first screen. */
  check_state_from (&f, 0, 200);
  /* From a position in the middle: checkpoint + replay + events before it. */
  ttv_tab_state_request_from_position (f.state, &nth, NULL, 0, 0, nth_event, nth_finished, &nth, NULL);
  ttv_gui_test_spin_until (nth_done, &nth);
  g_assert_nonnull (nth.pos);
  c.lines = g_ptr_array_new_with_free_func (g_free);
  ttv_tab_state_request_from_position (f.state, &c, nth.pos, 100, TTV_REQUEST_WITH_STATE,
                                       on_event, on_done, &c, NULL);
  ttv_gui_test_spin_until (collect_done, &c);
  expected = reference_state_lines (f.ts, 1500, 100);
  g_assert_cmpuint (c.lines->len, ==, expected->len);
  for (guint i = 0; i < c.lines->len; i++)
    g_assert_cmpstr (c.lines->pdata[i], ==, expected->pdata[i]);
  g_ptr_array_unref (c.lines);
  ttv_viewer_position_free (nth.pos);
  ttv_gui_test_tab_teardown (&f);
}

/* --- Histogram ------------------------------------------------------------- */

static void
send_motion (GtkWidget *area, double x, double y)
{
  GdkEvent *ev = gdk_event_new (GDK_MOTION_NOTIFY);

  ev->motion.window = g_object_ref (gtk_widget_get_window (area));
  ev->motion.x = x;
  ev->motion.y = y;
  ev->motion.state = GDK_BUTTON1_MASK;
  gdk_event_set_device (ev, gdk_seat_get_pointer (gdk_display_get_default_seat (gdk_display_get_default ())));
  gtk_widget_event (area, ev);
  gdk_event_free (ev);
}

static GActionGroup *
find_group (GtkWidget *w, const char *prefix)
{
  for (; w; w = gtk_widget_get_parent (w))
    {
      GActionGroup *g = gtk_widget_get_action_group (w, prefix);
      if (g)
        return g;
    }
  return NULL;
}

static void
test_histogram (void)
{
  Fixture f;
  GtkWidget *area;
  GActionGroup *group;
  TtvTime ss, se, ws, we, want_s, want_e;
  double w;
  const char *dir = ttv_test_get_tmp_dir ();
  g_autofree char *lin = g_build_filename (dir, "linear.png", NULL);
  g_autofree char *log = g_build_filename (dir, "log.png", NULL);
  g_autofree char *svg = g_build_filename (dir, "hist.svg", NULL);
  g_autofree char *a = NULL, *b = NULL, *s = NULL;
  gsize la, lb;
  g_autoptr (GVariant) st = NULL;
  const char *shots = g_getenv ("TTV_GUI_SHOTS");

  if (!fixture_setup (&f))
    return;
  g_assert_true (ttv_tab_show_viewer (f.tab, "histogram"));
  ttv_gui_test_spin_for (500);
  /* The time bar has drawing areas too: the histogram's is the one with the action group. */
  {
    GList *stack = g_list_prepend (NULL, f.tab);
    area = NULL;
    while (stack)
      {
        GtkWidget *x = stack->data;
        stack = g_list_delete_link (stack, stack);
        if (GTK_IS_DRAWING_AREA (x) && gtk_widget_get_mapped (x) && find_group (x, "histogram"))
          {
            area = x;
            break;
          }
        if (GTK_IS_CONTAINER (x))
          stack = g_list_concat (stack, gtk_container_get_children (GTK_CONTAINER (x)));
      }
    g_list_free (stack);
  }
  g_assert_nonnull (area);
  group = find_group (area, "histogram");
  g_assert_nonnull (group);

  /* Drag from x=100 to x=300: the time window follows. */
  w = gtk_widget_get_allocated_width (area);
  g_assert_cmpfloat (w, >, 320);
  ttv_tab_state_get_time_span (f.state, &ss, &se);
  ttv_gui_test_send_button (area, GDK_BUTTON_PRESS, 100, 40);
  send_motion (area, 200, 40);
  send_motion (area, 300, 40);
  ttv_gui_test_send_button (area, GDK_BUTTON_RELEASE, 300, 40);
  ttv_tab_state_get_time_window (f.state, &ws, &we);
  want_s = ss + (TtvTime) (100 / w * (double) (se - ss));
  want_e = ss + (TtvTime) (300 / w * (double) (se - ss));
  g_assert_cmpint (ws, ==, want_s);
  g_assert_cmpint (we, ==, want_e);
  /* A click sets the current time. */
  ttv_gui_test_send_button (area, GDK_BUTTON_PRESS, 150, 40);
  ttv_gui_test_send_button (area, GDK_BUTTON_RELEASE, 150, 40);
  g_assert_cmpint (ttv_tab_state_get_current_time (f.state), ==, ss + (TtvTime) (150 / w * (double) (se - ss)));

  /* Linear, then log scale: different pictures; SVG export. */
  ttv_gui_test_spin_for (300);
  g_action_group_activate_action (group, "export", g_variant_new_string (lin));
  g_action_group_change_action_state (group, "log-scale", g_variant_new_boolean (TRUE));
  st = g_action_group_get_action_state (group, "log-scale");
  g_assert_true (g_variant_get_boolean (st));
  ttv_gui_test_spin_for (300);
  g_action_group_activate_action (group, "export", g_variant_new_string (log));
  g_action_group_activate_action (group, "export", g_variant_new_string (svg));
  g_assert_true (g_file_get_contents (lin, &a, &la, NULL));
  g_assert_true (g_file_get_contents (log, &b, &lb, NULL));
  g_assert_true (g_file_get_contents (svg, &s, NULL, NULL));
  g_assert_true (la > 8 && memcmp (a, "\x89PNG", 4) == 0);
  g_assert_true (lb > 8 && memcmp (b, "\x89PNG", 4) == 0);
  g_assert_true (la != lb || memcmp (a, b, la) != 0);
  g_assert_nonnull (strstr (s, "<svg"));
  /* Bad path: a warning, no crash. */
  g_test_expect_message ("ttv-histogram", G_LOG_LEVEL_WARNING, "*Cannot write*");
  g_action_group_activate_action (group, "export", g_variant_new_string ("/nonexistent/dir/x.png"));
  g_test_assert_expected_messages ();

  if (shots)
    {
      GdkWindow *win = gtk_widget_get_window (f.window);
      g_autoptr (GdkPixbuf) pix = NULL;
      g_autofree char *p1 = g_build_filename (shots, "ttv-histogram.png", NULL);

      ttv_gui_test_spin_for (300);
      pix = gdk_pixbuf_get_from_window (win, 0, 0, gdk_window_get_width (win), gdk_window_get_height (win));
      gdk_pixbuf_save (pix, p1, "png", NULL, NULL);
      g_assert_true (ttv_tab_show_viewer (f.tab, "statistics"));
      ttv_gui_test_spin_for (300);
      g_clear_object (&pix);
      pix = gdk_pixbuf_get_from_window (win, 0, 0, gdk_window_get_width (win), gdk_window_get_height (win));
      g_free (p1);
      p1 = g_build_filename (shots, "ttv-statistics.png", NULL);
      gdk_pixbuf_save (pix, p1, "png", NULL, NULL);
      g_assert_true (ttv_tab_show_viewer (f.tab, "events"));
      ttv_gui_test_spin_for (500);
      g_clear_object (&pix);
      pix = gdk_pixbuf_get_from_window (win, 0, 0, gdk_window_get_width (win), gdk_window_get_height (win));
      g_free (p1);
      p1 = g_build_filename (shots, "ttv-events-state.png", NULL);
      gdk_pixbuf_save (pix, p1, "png", NULL, NULL);
    }
  ttv_gui_test_tab_teardown (&f);
}

int
main (int argc, char **argv)
{
  gtk_test_init (&argc, &argv, NULL);
  g_test_add_func ("/gui/analysis/state-columns", test_state_columns);
  g_test_add_func ("/gui/analysis/histogram", test_histogram);
  return g_test_run ();
}
