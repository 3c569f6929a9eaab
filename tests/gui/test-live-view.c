/* test-live-view.c: File > Open Live Session under Xvfb.  Against a fake
 * relay (tests/live/fake_relay.py) serving a ttv-gen trace: the dialog lists
 * the relay's sessions without blocking the window, Open follows the chosen
 * one in a tab named after it whose views fill as packets arrive, whose time
 * window follows the newest events (growing, or sliding when zoomed on the
 * end) and stays where the user moved it, and
 * which ends with every event of the trace counted in the status bar and
 * drawn in the event list, and a message that the session ended; a relay
 * that stalls stops the tab with a message, the views keep what came; an
 * address nobody listens on says so in the dialog.  /gui/live/relayd does
 * the same against a real lttng-relayd (tests/live/test-live-relayd.sh gui). */
#include "ttv-config.h"

#include "ttv-context.h"

#include "ttv-gui-test-util.h"
#include "ttv-live-dialog.h"
#include "ttv-status-bar.h"
#include "ttv-tab.h"
#include "ttv-test-util.h"
#include "ttv-window.h"

#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>

static const char *tmp_base;    /* the program's temporary directory */
static char *trace_dir;          /* the ttv-gen trace the fake relay serves */
static guint trace_events;       /* in it: the simulation's 3000 and the statedump's */
#define TRACE_EVENTS trace_events

/* --- The fake relay --------------------------------------------------------- */

typedef struct {
  GPid pid;
  int stdin_fd;                  /* closing it stops the relay */
  int stdout_fd;                 /* where it said its port */
  guint16 port;
} Relay;

static void
relay_start (Relay *r, const char *const *scenario)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  char buf[32] = { 0 };
  gsize got = 0;

  g_ptr_array_add (argv, (gpointer) "python3");
  g_ptr_array_add (argv, (gpointer) TTV_FAKE_RELAY);
  g_ptr_array_add (argv, trace_dir);
  for (guint i = 0; scenario && scenario[i]; i++)
    g_ptr_array_add (argv, (gpointer) scenario[i]);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_async_with_pipes (NULL, (char **) argv->pdata, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                                           &r->pid, &r->stdin_fd, &r->stdout_fd, NULL, &error));
  g_assert_no_error (error);
  /* Its port, on a line. */
  while (got < sizeof buf - 1 && !memchr (buf, '\n', got))
    {
      gssize n = read (r->stdout_fd, buf + got, sizeof buf - 1 - got);
      g_assert_cmpint (n, >, 0);
      got += (gsize) n;
    }
  r->port = (guint16) g_ascii_strtoull (buf, NULL, 10);
  g_assert_cmpuint (r->port, >, 0);
}

/* Lifts the relay's next pause (scenario pause_after). */
static void
relay_resume (Relay *r)
{
  g_assert_cmpint (write (r->stdin_fd, "go\n", 3), ==, 3);
}

static void
relay_stop (Relay *r)
{
  close (r->stdin_fd);
  close (r->stdout_fd);
  kill (r->pid, SIGTERM);
  g_spawn_close_pid (r->pid);
}

/* --- Driving the window ------------------------------------------------------ */

static gboolean
listed (gpointer dialog)
{
  return !ttv_live_dialog_is_listing (dialog);
}

static gboolean
one_tab (gpointer window)
{
  return !ttv_window_is_opening (window) && ttv_window_get_n_tabs (window) == 1;
}

static TtvLiveDialog *
find_dialog (void)
{
  g_autoptr (GList) windows = gtk_window_list_toplevels ();

  for (GList *l = windows; l; l = l->next)
    if (TTV_IS_LIVE_DIALOG (l->data) && gtk_widget_get_visible (l->data))
      return l->data;
  return NULL;
}

/* File > Open Live Session, @relay typed, its sessions listed: the dialog. */
static TtvLiveDialog *
list_sessions (GtkWidget *window, const char *relay)
{
  TtvLiveDialog *dialog;

  g_action_group_activate_action (G_ACTION_GROUP (window), "open-live", NULL);
  dialog = find_dialog ();
  g_assert_nonnull (dialog);
  gtk_entry_set_text (GTK_ENTRY (ttv_gui_test_find_widget (GTK_WIDGET (dialog), GTK_TYPE_ENTRY, "relay_entry")),
                      relay);
  gtk_button_clicked (GTK_BUTTON (ttv_gui_test_find_widget (GTK_WIDGET (dialog), GTK_TYPE_BUTTON, "list_button")));
  /* The window keeps drawing while the relay is asked. */
  g_assert_true (ttv_live_dialog_is_listing (dialog));
  ttv_gui_test_spin_until (listed, dialog);
  return dialog;
}

/* Selects the session named @name and presses Open: the window's live tab. */
static TtvTab *
open_session (GtkWidget *window, TtvLiveDialog *dialog, const char *name)
{
  GtkTreeView *view = GTK_TREE_VIEW (ttv_gui_test_find_widget (GTK_WIDGET (dialog), GTK_TYPE_TREE_VIEW,
                                                               "sessions_view"));
  GtkTreeModel *model = gtk_tree_view_get_model (view);
  GtkTreeIter iter;
  gboolean found = FALSE;

  for (gboolean more = gtk_tree_model_get_iter_first (model, &iter); more && !found;
       more = gtk_tree_model_iter_next (model, &iter))
    {
      g_autofree char *n = NULL;
      gtk_tree_model_get (model, &iter, 0, &n, -1);
      if (g_strcmp0 (n, name) == 0)
        {
          gtk_tree_selection_select_iter (gtk_tree_view_get_selection (view), &iter);
          found = TRUE;
        }
    }
  g_assert_true (found);
  gtk_button_clicked (GTK_BUTTON (ttv_gui_test_find_widget (GTK_WIDGET (dialog), GTK_TYPE_BUTTON, "open_button")));
  ttv_gui_test_spin_until (one_tab, window);
  return TTV_TAB (ttv_window_get_current_tab (TTV_WINDOW (window)));
}

/* The events the index pass counted (0 before it ran). */
static guint64
n_events (TtvTabState *state)
{
  gboolean complete;
  guint64 n = ttv_tab_state_get_event_count (state, &complete);

  return complete ? n : 0;
}

static gboolean
has_events (gpointer tab)
{
  TtvTabState *state = ttv_tab_get_state (tab);

  return ttv_tab_state_get_n_traces (state) > 0 && n_events (state) > 0;
}

/* The session is over, the tab stopped following and its passes ran. */
static gboolean
settled (gpointer tab)
{
  return !ttv_tab_get_following (tab) && !ttv_tab_is_busy (tab)
         && ttv_tab_state_is_state_ready (ttv_tab_get_state (tab));
}

/* The window as a PNG in the build tree (to look at), and whether the event
 * list's area is drawn: not one flat colour. */
static gboolean
shot_has_rows (GtkWidget *window, const char *name)
{
  GdkWindow *w = gtk_widget_get_window (window);
  gint width = gdk_window_get_width (w), height = gdk_window_get_height (w);
  g_autoptr (GdkPixbuf) pixbuf = NULL;
  g_autofree char *path = g_build_filename (TTV_TEST_BUILDDIR, name, NULL);
  const guint8 *px;
  gint stride, channels;
  guint distinct = 0;
  guint32 first = 0;

  ttv_gui_test_spin_pending ();
  pixbuf = gdk_pixbuf_get_from_window (w, 0, 0, width, height);
  g_assert_nonnull (pixbuf);
  gdk_pixbuf_save (pixbuf, path, "png", NULL, NULL);
  px = gdk_pixbuf_read_pixels (pixbuf);
  stride = gdk_pixbuf_get_rowstride (pixbuf);
  channels = gdk_pixbuf_get_n_channels (pixbuf);
  /* The middle of the window, where the event list's rows are. */
  for (gint y = height / 2; y < height / 2 + 100 && y < height; y++)
    for (gint x = 10; x < width / 2; x++)
      {
        const guint8 *p = px + y * stride + x * channels;
        guint32 c = (guint32) p[0] << 16 | (guint32) p[1] << 8 | p[2];
        if (x == 10 && y == height / 2)
          first = c;
        distinct += c != first;
      }
  return distinct > 100;
}

static GtkWidget *
new_window (void)
{
  GtkWidget *window = ttv_window_new (NULL);

  gtk_window_resize (GTK_WINDOW (window), 1200, 760);
  gtk_widget_show (window);
  return window;
}

/* --- Tests -------------------------------------------------------------------- */

/* The events the index pass counted grew past *@data and the passes ran. */
static gboolean
grew (gpointer tab)
{
  guint64 *before = g_object_get_data (G_OBJECT (tab), "ttv-test-n");

  return n_events (ttv_tab_get_state (tab)) > *before && !ttv_tab_is_busy (tab);
}

/* Resumes the relay and waits for the tab to show more events. */
static void
resume_and_grow (Relay *relay, TtvTab *tab)
{
  guint64 n = n_events (ttv_tab_get_state (tab));

  g_object_set_data (G_OBJECT (tab), "ttv-test-n", &n);
  relay_resume (relay);
  ttv_gui_test_spin_until (grew, tab);
}

/* A whole session, held by the relay after 4, 8 and 12 packets: the tab
 * fills as it goes, its window shows everything while the user leaves it
 * alone, slides when zoomed on the end, stays where the user moved it, and
 * the tab ends with every event of the trace. */
static void
test_follow (void)
{
  Relay relay;
  const char *const scenario[] = { "interval=0.02", "tail=0.2", "pause_after=[4, 8, 12]",
                                   "hostname='fakehost'", "session='gui-live'", NULL };
  GtkWidget *window = new_window ();
  g_autofree char *address = NULL;
  TtvLiveDialog *dialog;
  TtvTab *tab;
  TtvTabState *state;
  TtvTime start, end, wstart, wend;
  g_autofree char *title = NULL;
  g_autofree char *count = NULL;

  relay_start (&relay, scenario);
  address = g_strdup_printf ("127.0.0.1:%u", relay.port);
  dialog = list_sessions (window, address);
  g_assert_nonnull (strstr (ttv_live_dialog_get_status (dialog), "serves 1 live session"));
  tab = open_session (window, dialog, "gui-live");
  state = ttv_tab_get_state (tab);
  title = ttv_tab_dup_title (tab);
  g_assert_cmpstr (title, ==, "gui-live");
  g_assert_true (ttv_tab_get_following (tab));

  /* Events while the session runs, all shown. */
  ttv_gui_test_spin_until (has_events, tab);
  g_assert_cmpuint (n_events (state), <, TRACE_EVENTS);
  g_assert_cmpint (ttv_traceset_get_live_state (ttv_tab_state_get_traceset (state), NULL, NULL), ==,
                   TTV_LIVE_SOURCE_RUNNING);
  ttv_tab_state_get_time_span (state, &start, &end);
  ttv_tab_state_get_time_window (state, &wstart, &wend);
  g_assert_cmpint (wstart, ==, start);
  g_assert_cmpint (wend, ==, end);

  /* More: the whole span still shown. */
  resume_and_grow (&relay, tab);
  ttv_tab_state_get_time_span (state, &start, &end);
  ttv_tab_state_get_time_window (state, &wstart, &wend);
  g_assert_cmpint (wstart, ==, start);
  g_assert_cmpint (wend, ==, end);

  /* Zoomed on the end: slides. */
  ttv_tab_state_set_time_window (state, end - 1000000, end);
  resume_and_grow (&relay, tab);
  ttv_tab_state_get_time_span (state, &start, &end);
  ttv_tab_state_get_time_window (state, &wstart, &wend);
  g_assert_cmpint (wend, ==, end);
  g_assert_cmpint (wend - wstart, ==, 1000000);

  /* Moved away from the end: stays while the rest comes. */
  ttv_tab_state_set_time_window (state, start, start + 1000000);
  relay_resume (&relay);
  ttv_gui_test_spin_until (settled, tab);
  relay_stop (&relay);
  ttv_tab_state_get_time_window (state, &wstart, &wend);
  g_assert_cmpint (wstart, ==, start);
  g_assert_cmpint (wend, ==, start + 1000000);

  g_assert_cmpuint (n_events (state), ==, TRACE_EVENTS);
  count = g_strdup_printf ("%u events", TRACE_EVENTS);   /* no thousands separator in the C locale */
  g_assert_true (g_str_has_prefix (ttv_status_bar_get_summary (ttv_tab_get_status_bar (tab)), count));
  g_assert_nonnull (strstr (ttv_notifications_get_text (ttv_tab_get_notifications (tab), "follow"),
                            "“gui-live” ended"));
  /* The whole session drawn. */
  ttv_tab_state_get_time_span (state, &start, &end);
  ttv_tab_state_set_time_window (state, start, end);
  g_assert_true (shot_has_rows (window, "live-view-follow.png"));
  gtk_widget_destroy (window);
}

/* A relay that stops answering: the tab says so and keeps what came. */
static void
test_relay_stalls (void)
{
  Relay relay;
  const char *const scenario[] = { "fault='stall'", "after=6", NULL };
  GtkWidget *window = new_window ();
  g_autofree char *address = NULL;
  TtvTab *tab;
  TtvTabState *state;
  const char *text;

  g_setenv ("TTV_LIVE_TIMEOUT", "1", TRUE);
  relay_start (&relay, scenario);
  address = g_strdup_printf ("127.0.0.1:%u", relay.port);
  tab = open_session (window, list_sessions (window, address), "fake-session");
  state = ttv_tab_get_state (tab);
  ttv_gui_test_spin_until (settled, tab);
  relay_stop (&relay);
  g_unsetenv ("TTV_LIVE_TIMEOUT");
  text = ttv_notifications_get_text (ttv_tab_get_notifications (tab), "follow");
  g_assert_nonnull (text);
  g_assert_nonnull (strstr (text, "stopped: the relay 127.0.0.1:"));
  g_assert_nonnull (strstr (text, "sent nothing for 1 s"));
  g_assert_cmpuint (n_events (state), >, 0);
  g_assert_cmpuint (n_events (state), <, TRACE_EVENTS);
  /* Still usable: zoom to a part of what came. */
  {
    TtvTime start, end, wstart, wend;
    ttv_tab_state_get_time_span (state, &start, &end);
    ttv_tab_state_set_time_window (state, start, start + (end - start) / 2);
    ttv_tab_state_get_time_window (state, &wstart, &wend);
    g_assert_cmpint (wend, ==, start + (end - start) / 2);
  }
  g_assert_true (shot_has_rows (window, "live-view-stalled.png"));
  gtk_widget_destroy (window);
}

/* Nobody listens: the dialog says why, the window has no tab. */
static void
test_no_relay (void)
{
  GtkWidget *window = new_window ();
  TtvLiveDialog *dialog = list_sessions (window, "127.0.0.1:1");

  g_assert_nonnull (strstr (ttv_live_dialog_get_status (dialog), "cannot connect to the relay 127.0.0.1:1"));
  g_assert_null (ttv_live_dialog_dup_url (dialog));
  gtk_widget_destroy (GTK_WIDGET (dialog));
  g_assert_cmpuint (ttv_window_get_n_tabs (TTV_WINDOW (window)), ==, 0);
  gtk_widget_destroy (window);
}

/* A real lttng-relayd (tests/live/test-live-relayd.sh gui sets it up). */
static void
test_relayd (void)
{
  const char *relay = g_getenv ("TTV_LIVE_RELAY"), *session = g_getenv ("TTV_LIVE_SESSION");
  const char *expect = g_getenv ("TTV_LIVE_EXPECT");
  GtkWidget *window;
  TtvTab *tab;
  TtvTabState *state;
  g_autofree char *count = NULL;

  if (!relay || !session || !expect)
    {
      g_test_skip ("run by tests/live/test-live-relayd.sh gui, with a real lttng-relayd");
      return;
    }
  window = new_window ();
  tab = open_session (window, list_sessions (window, relay), session);
  state = ttv_tab_get_state (tab);
  ttv_gui_test_spin_until (has_events, tab);
  ttv_gui_test_spin_until (settled, tab);
  g_assert_nonnull (strstr (ttv_notifications_get_text (ttv_tab_get_notifications (tab), "follow"), "ended"));
  g_assert_cmpuint (n_events (state), ==, g_ascii_strtoull (expect, NULL, 10));
  count = g_strdup_printf ("%s events", expect);
  g_assert_nonnull (strstr (ttv_status_bar_get_summary (ttv_tab_get_status_bar (tab)), count));
  g_assert_true (shot_has_rows (window, "live-view-relayd.png"));
  gtk_widget_destroy (window);
}

int
main (int argc, char **argv)
{
  g_autofree char *cache = NULL, *gen_out = NULL;
  int ret, status = 0;

  tmp_base = ttv_test_get_tmp_dir ();
  cache = g_build_filename (tmp_base, "cache", NULL);
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  trace_dir = g_build_filename (tmp_base, "trace", NULL);
  {
    const char *gen[] = { TTV_GEN_PATH, "-f", "ctf", "-o", trace_dir, "-n", "3000", "-c", "2", "-b", "4096",
                          "-s", "5", "-q", NULL };
    g_assert_true (g_spawn_sync (NULL, (char **) gen, NULL, 0, NULL, NULL, NULL, NULL, &status, NULL));
    g_assert_true (g_spawn_check_wait_status (status, NULL));
  }
  {
    g_autoptr (GError) error = NULL;
    g_autoptr (TtvTraceset) ts = ttv_traceset_new ();
    g_autoptr (TtvContext) ctx = NULL;

    g_assert_true (ttv_traceset_add_path (ts, trace_dir, &error));
    ctx = ttv_context_new (ts, &error);
    g_assert_no_error (error);
    while (ttv_context_next (ctx, &error))
      trace_events++;
    g_assert_no_error (error);
    g_assert_cmpuint (trace_events, >=, 3000);
  }

  gtk_test_init (&argc, &argv, NULL);
  ttv_gui_test_load_modules ((const char *const[]) { TTV_EVENTS_MODULE_PATH, NULL });
  g_test_add_func ("/gui/live/follow", test_follow);
  g_test_add_func ("/gui/live/relay-stalls", test_relay_stalls);
  g_test_add_func ("/gui/live/no-relay", test_no_relay);
  g_test_add_func ("/gui/live/relayd", test_relayd);
  ret = g_test_run ();
  g_free (trace_dir);
  return ret;
}
