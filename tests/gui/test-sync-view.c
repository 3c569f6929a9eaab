/* test-sync-view.c: clock synchronization in the viewer (issue 19), in a
 * real window under Xvfb: a tab on two generated machines whose clocks
 * differ by half a second is synchronized from their packets in the
 * background, shows the quality, and its traceset then spans corrected
 * time; a clock offset saved with a trace's bookmarks applies when a tab
 * opens it; the CPU usage view shows each machine's threads with their machine, as
 * ttv-report --analysis cpu prints them, and picking one selects it on its
 * machine. */
#include "ttv-config.h"

#include "ttv-bookmarks.h"
#include "ttv-gui-test-util.h"
#include "ttv-notifications.h"
#include "ttv-tab.h"
#include "ttv-test-util.h"

#include <string.h>

#ifndef TTV_GEN_PATH
#error "TTV_GEN_PATH must be defined by the build"
#endif

static const char *const modules[] = { TTV_EVENTS_MODULE_PATH, TTV_CPU_USAGE_MODULE_PATH, TTV_LATENCY_MODULE_PATH,
                                        NULL };

/* @net_events: ttv-gen's --net-events (dev-xmit: an LTTng 0.x traceset, else CTF). */
static char *
generate (const char *name, const char *net_events)
{
  char *dir = ttv_test_dup_tmp_path (name);
  const char *format = g_str_has_prefix (net_events, "dev-xmit") ? "lttng" : "ctf";
  const char *argv[] = { TTV_GEN_PATH, "-q", "-f", format, "--machines", "2", "--clock-offset", "0.5",
                         "--clock-drift", "20", "-d", "0.05", "-c", "1", "-p", "5", "--host", "node",
                         "--net-events", net_events, "-o", dir, NULL };
  g_free (ttv_test_run_ok (argv));
  return dir;
}

static TtvTraceset *
open_machines (const char *dir)
{
  g_autoptr (GError) error = NULL;
  TtvTraceset *ts = ttv_traceset_new ();
  for (guint k = 1; k <= 2; k++)
    {
      g_autofree char *path = g_strdup_printf ("%s/node-%u", dir, k);
      g_assert_true (ttv_traceset_add_path (ts, path, &error));
    }
  return ts;
}

typedef struct {
  TtvTab *tab;
  const char *want;
} Waiting;

static gboolean
notified (gpointer data)
{
  Waiting *w = data;
  const char *text = ttv_notifications_get_text (ttv_tab_get_notifications (w->tab), "sync");
  return text && strstr (text, w->want);
}

/* @data: the packets' events, inet_sock or lttng-modules' net_dev ones
 * (among UDP and ARP packets the viewer says it ignored), or those of LTTng
 * 0.x kernels patched for synchronization (dev_xmit_extended...). */
static void
test_synchronize (gconstpointer data)
{
  const char *net_events = data;
  g_autofree char *dir = generate (net_events, net_events);
  TtvGuiTestTab f;
  ttv_gui_test_tab_open (&f, open_machines (dir), modules);
  const TtvTime t0 = G_GINT64_CONSTANT (1700000000) * TTV_NSEC_PER_SEC;
  /* machine 2's clock is half a second ahead: the traceset spans 0.55 s */
  g_assert_cmpint (ttv_traceset_get_end (f.ts) - t0, >, 520000000);

  ttv_tab_synchronize (f.tab);
  Waiting w = { f.tab, "node-2): accurate" };
  ttv_gui_test_spin_until (notified, &w);
  ttv_gui_test_spin_until (ttv_gui_test_state_ready, f.state);
  ttv_gui_test_spin_until (ttv_gui_test_no_requests, f.state);
  const char *text = ttv_notifications_get_text (ttv_tab_get_notifications (f.tab), "sync");
  g_assert_nonnull (strstr (text, "reference machine node-1"));
  /* what the user sees (TTV_SCREENSHOT_DIR keeps it) */
  ttv_gui_test_spin_pending ();
  GdkWindow *window = gtk_widget_get_window (f.window);
  g_autoptr (GdkPixbuf) shot = gdk_pixbuf_get_from_window (window, 0, 0, gdk_window_get_width (window),
                                                           gdk_window_get_height (window));
  g_assert_nonnull (shot);
  const char *keep = g_getenv ("TTV_SCREENSHOT_DIR");
  g_autofree char *file = g_strdup_printf ("gui-sync-%s.png", net_events);
  g_autofree char *png = g_build_filename (keep ? keep : ttv_test_get_tmp_dir (), file, NULL);
  g_assert_true (gdk_pixbuf_save (shot, png, "png", NULL, NULL));
  g_assert_nonnull (strstr (text, "corrected time: t - 0.5"));
  gboolean net_dev = g_str_equal (net_events, "net-dev");
  g_assert_true ((strstr (text, " other packets (not TCP over IPv4 or IPv6) ignored") != NULL) == net_dev);

  /* corrected: both machines within the same 0.05 s, to the packets' latency */
  const TtvTrace *second = ttv_traceset_get_trace (f.ts, 1);
  g_assert_false (ttv_clock_correction_is_identity (&second->clock));
  g_assert_cmpint (ttv_traceset_get_end (f.ts) - t0, <, 51000000);
  g_assert_cmpint (second->start - t0, <, 1000000);
  g_assert_cmpint (second->start - t0, >, -1000000);
  ttv_gui_test_tab_teardown (&f);

  /* a single machine: the reason, no change */
  g_autofree char *one = g_strdup_printf ("%s/node-1", dir);
  ttv_gui_test_tab_setup_path (&f, one, modules);
  ttv_tab_synchronize (f.tab);
  w = (Waiting) { f.tab, "two machines or more" };
  ttv_gui_test_spin_until (notified, &w);
  ttv_gui_test_tab_teardown (&f);
}

/* ttv-report --save-offsets writes what the viewer applies. */
static void
test_saved_offset (void)
{
  g_autofree char *dir = generate ("saved", "inet-sock");
  g_autofree char *path = g_strdup_printf ("%s/node-1", dir);
  g_autoptr (GError) error = NULL;
  TtvTrace *trace = ttv_trace_open (path, &error);
  g_assert_no_error (error);
  TtvTime start = trace->start;
  g_autoptr (TtvBookmarks) l = ttv_bookmarks_load_for_trace (trace, &error);
  g_assert_no_error (error);
  ttv_bookmarks_set_clock_offset (l, TRUE, -2 * TTV_NSEC_PER_SEC);
  g_assert_true (ttv_bookmarks_save_for_trace (l, trace, &error));
  ttv_trace_close (trace);

  TtvGuiTestTab f;
  ttv_gui_test_tab_setup_path (&f, path, modules);
  g_assert_cmpint (ttv_traceset_get_start (f.ts), ==, start - 2 * TTV_NSEC_PER_SEC);
  ttv_gui_test_tab_teardown (&f);
}

static gboolean
has_rows (gpointer view)
{
  GtkTreeModel *model = gtk_tree_view_get_model (view);
  return model && gtk_tree_model_iter_n_children (model, NULL) > 0;
}

/* "MACHINE/TID" -> CPU time (ns) of ttv-report --analysis cpu's threads. */
static GHashTable *
report_threads (const char *dir)
{
  g_autofree char *one = g_strdup_printf ("%s/node-1", dir);
  g_autofree char *two = g_strdup_printf ("%s/node-2", dir);
  const char *argv[] = { TTV_REPORT_PATH, "--analysis", "cpu", "-f", "jsonl", "--no-cache", one, two, NULL };
  g_autofree char *out = ttv_test_run_ok (argv);
  g_auto (GStrv) lines = g_strsplit (out, "\n", -1);
  GHashTable *rows = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; lines[i]; i++)
    {
      if (!strstr (lines[i], "\"table\":\"threads\""))
        continue;
      g_autofree char *machine = ttv_test_json_raw (lines[i], "machine");
      g_autofree char *tid = ttv_test_json_raw (lines[i], "tid");
      g_autofree char *time = ttv_test_json_raw (lines[i], "cpu_time");
      g_assert_nonnull (machine);
      g_hash_table_insert (rows, g_strdup_printf ("%s/%s", machine, tid),
                           GSIZE_TO_POINTER ((gsize) g_ascii_strtoll (time, NULL, 10)));
    }
  return rows;
}

/* The CPU usage view of two machines with the same pids: a Machine
 * column, each row the CPU time ttv-report prints for that thread of that
 * machine, and a row picked selects the thread on its own machine. */
static void
test_cpu_usage_machines (void)
{
  g_autofree char *dir = generate ("cpu-usage", "inet-sock");
  g_autoptr (GHashTable) want = report_threads (dir);
  TtvGuiTestTab f;
  ttv_gui_test_tab_open (&f, open_machines (dir), modules);
  gtk_window_resize (GTK_WINDOW (f.window), 1000, 700);
  g_assert_true (ttv_tab_show_viewer (f.tab, "cpu-usage"));
  GtkTreeView *view = GTK_TREE_VIEW (ttv_gui_test_find_widget (GTK_WIDGET (f.tab), GTK_TYPE_TREE_VIEW,
                                                               "cpu-usage-threads"));
  g_assert_nonnull (view);
  ttv_gui_test_spin_until (has_rows, view);
  ttv_gui_test_spin_for (200);
  g_assert_true (gtk_tree_view_column_get_visible (gtk_tree_view_get_column (view, 0)));
  g_assert_cmpstr (gtk_tree_view_column_get_title (gtk_tree_view_get_column (view, 0)), ==, "Machine");

  GtkTreeModel *model = gtk_tree_view_get_model (view);
  GtkTreeIter it, on_two;
  gboolean found_two = FALSE;
  guint rows = 0, two_tid = 0;
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (gboolean ok = gtk_tree_model_get_iter_first (model, &it); ok; ok = gtk_tree_model_iter_next (model, &it))
    {
      guint tid, machine;
      gint64 time;
      g_autofree char *name = NULL;
      gtk_tree_model_get (model, &it, 0, &tid, 5, &time, 6, &machine, 7, &name, -1);
      g_autofree char *key = g_strdup_printf ("\"%s\"/%u", name, tid);
      if (!g_hash_table_contains (want, key))
        g_error ("%s is not in ttv-report's threads", key);
      g_assert_cmpint (time, ==, (gint64) GPOINTER_TO_SIZE (g_hash_table_lookup (want, key)));
      g_assert_cmpuint (machine, ==, g_str_equal (name, "node-2") ? 1 : 0);
      g_hash_table_add (seen, g_strdup_printf ("%u", tid));
      rows++;
      /* A thread of the second machine whose tid the first has too. */
      g_autofree char *on_one = g_strdup_printf ("\"node-1\"/%u", tid);
      if (machine == 1 && tid != 0 && !found_two && g_hash_table_contains (want, on_one))
        {
          on_two = it;
          two_tid = tid;
          found_two = TRUE;
        }
    }
  g_assert_cmpuint (rows, ==, g_hash_table_size (want));
  g_assert_true (found_two);
  gtk_tree_selection_select_iter (gtk_tree_view_get_selection (view), &on_two);
  ttv_gui_test_spin_pending ();
  g_assert_cmpuint (ttv_tab_state_get_selected_thread (f.state), ==, two_tid);
  g_assert_cmpuint (ttv_tab_state_get_selected_machine (f.state), ==, 1);
  ttv_gui_test_spin_for (300);
  /* The selection stays on the second machine's row once the view has
   * redrawn for the selected thread. */
  GtkTreeModel *m2;
  GtkTreeIter sel;
  g_assert_true (gtk_tree_selection_get_selected (gtk_tree_view_get_selection (view), &m2, &sel));
  guint sel_tid, sel_machine;
  gtk_tree_model_get (m2, &sel, 0, &sel_tid, 6, &sel_machine, -1);
  g_assert_cmpuint (sel_tid, ==, two_tid);
  g_assert_cmpuint (sel_machine, ==, 1);
  const char *keep = g_getenv ("TTV_SCREENSHOT_DIR");
  g_autofree char *png = g_build_filename (keep ? keep : ttv_test_get_tmp_dir (), "gui-sync-cpu-usage.png", NULL);
  GdkWindow *window = gtk_widget_get_window (f.window);
  g_autoptr (GdkPixbuf) shot = gdk_pixbuf_get_from_window (window, 0, 0, gdk_window_get_width (window),
                                                           gdk_window_get_height (window));
  g_assert_nonnull (shot);
  g_assert_true (gdk_pixbuf_save (shot, png, "png", NULL, NULL));
  ttv_gui_test_tab_teardown (&f);
}

/* The text view column @title of @view shows for @iter ("" when no such
 * column). */
static char *
column_text (GtkTreeView *view, GtkTreeIter *iter, const char *title)
{
  for (guint c = 0; c < gtk_tree_view_get_n_columns (view); c++)
    {
      GtkTreeViewColumn *col = gtk_tree_view_get_column (view, (gint) c);
      if (g_strcmp0 (gtk_tree_view_column_get_title (col), title) != 0)
        continue;
      g_autoptr (GList) cells = gtk_cell_layout_get_cells (GTK_CELL_LAYOUT (col));
      char *text = NULL;
      gtk_tree_view_column_cell_set_cell_data (col, gtk_tree_view_get_model (view), iter, FALSE, FALSE);
      g_object_get (cells->data, "text", &text, NULL);
      return text;
    }
  return g_strdup ("");
}

/* A scheduling latency picked in its list selects its thread on its own
 * machine: the longest wakeups of both machines, each selecting the tid
 * and the machine its row names. */
static void
test_latency_machines (void)
{
  g_autofree char *dir = generate ("latency", "inet-sock");
  TtvGuiTestTab f;
  ttv_gui_test_tab_open (&f, open_machines (dir), modules);
  g_assert_true (ttv_tab_show_viewer (f.tab, "sched-latency"));
  GtkTreeView *view = GTK_TREE_VIEW (ttv_gui_test_find_widget (GTK_WIDGET (f.tab), GTK_TYPE_TREE_VIEW,
                                                               "latency-longest"));
  g_assert_nonnull (view);
  ttv_gui_test_spin_until (has_rows, view);
  ttv_gui_test_spin_for (200);
  GActionGroup *actions = ttv_gui_test_find_actions (GTK_WIDGET (f.tab), "latency");
  g_assert_nonnull (actions);
  GtkTreeModel *model = gtk_tree_view_get_model (view);
  GtkTreeIter it;
  guint seen[2] = { 0, 0 }, i = 0;
  for (gboolean ok = gtk_tree_model_get_iter_first (model, &it); ok; ok = gtk_tree_model_iter_next (model, &it), i++)
    {
      g_autofree char *machine = column_text (view, &it, "Machine");
      g_autofree char *tid = column_text (view, &it, "TID");
      g_assert_true (g_str_equal (machine, "node-1") || g_str_equal (machine, "node-2"));
      guint m = g_str_equal (machine, "node-2");
      /* From the other machine's thread of the same tid, if any. */
      ttv_tab_state_select_thread_on (f.state, 1 - m, (guint32) g_ascii_strtoull (tid, NULL, 10));
      g_action_group_activate_action (actions, "select-longest", g_variant_new_uint32 (i));
      ttv_gui_test_spin_pending ();
      g_assert_cmpuint (ttv_tab_state_get_selected_thread (f.state), ==, g_ascii_strtoull (tid, NULL, 10));
      g_assert_cmpuint (ttv_tab_state_get_selected_machine (f.state), ==, m);
      seen[m]++;
    }
  g_test_message ("longest wakeups: %u of node-1, %u of node-2", seen[0], seen[1]);
  g_assert_cmpuint (seen[0], >, 0);
  g_assert_cmpuint (seen[1], >, 0);
  ttv_gui_test_tab_teardown (&f);
}

typedef struct {
  GtkWidget *root;
  const char *text;
} LabelWait;

static gboolean
status_says (gpointer data)
{
  LabelWait *w = data;
  GtkWidget *label = ttv_gui_test_find_widget (w->root, GTK_TYPE_LABEL, "latency-status");
  return label && strstr (gtk_label_get_text (GTK_LABEL (label)), w->text) != NULL;
}

/* The system call latency view of the selected thread alone, on two
 * machines whose threads have the same tids: its records are those of
 * the thread of the selected machine, as `ttv-report --tid HOST:TID`
 * counts them (they were both machines' threads of that tid). */
static void
test_latency_thread_of_machine (void)
{
  g_autofree char *dir = generate ("thread", "inet-sock");
  g_autofree char *one = g_strdup_printf ("%s/node-1", dir);
  g_autofree char *two = g_strdup_printf ("%s/node-2", dir);
  const char *argv[] = { TTV_REPORT_PATH, "--analysis", "syscalls", "--records", "-f", "jsonl", "--no-cache", one,
                         two, NULL };
  g_autofree char *out = ttv_test_run_ok (argv);
  g_auto (GStrv) lines = g_strsplit (out, "\n", -1);
  /* Calls per machine and tid. */
  g_autoptr (GHashTable) calls = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; lines[i]; i++)
    {
      g_autofree char *machine = ttv_test_json_raw (lines[i], "machine");
      g_autofree char *tid = ttv_test_json_raw (lines[i], "tid");
      if (machine == NULL || tid == NULL)
        continue;
      char *key = g_strdup_printf ("%s %s", machine, tid);
      g_hash_table_insert (calls, key, GSIZE_TO_POINTER (GPOINTER_TO_SIZE (g_hash_table_lookup (calls, key)) + 1));
    }
  /* A tid that made calls on both machines. */
  guint32 tid = 0;
  gsize on_one = 0, on_two = 0;
  for (guint32 t = 1; t < 100000 && tid == 0; t++)
    {
      g_autofree char *k1 = g_strdup_printf ("\"node-1\" %u", t), *k2 = g_strdup_printf ("\"node-2\" %u", t);
      on_one = GPOINTER_TO_SIZE (g_hash_table_lookup (calls, k1));
      on_two = GPOINTER_TO_SIZE (g_hash_table_lookup (calls, k2));
      if (on_one && on_two)
        tid = t;
    }
  g_assert_cmpuint (tid, >, 0);
  g_test_message ("thread %u: %zu calls on node-1, %zu on node-2", tid, on_one, on_two);

  TtvGuiTestTab f;
  ttv_gui_test_tab_open (&f, open_machines (dir), modules);
  ttv_tab_state_select_thread_on (f.state, 1, tid);
  g_assert_true (ttv_tab_show_viewer (f.tab, "syscall-latency"));
  ttv_gui_test_spin_pending ();
  /* The tab keeps the layout of the tests before: other latency views may be there. */
  GtkWidget *viewer = ttv_gui_test_viewer (f.tab, "syscall-latency");
  g_assert_nonnull (viewer);
  GActionGroup *actions = ttv_gui_test_find_actions (viewer, "latency");
  g_assert_nonnull (actions);
  g_action_group_change_action_state (actions, "thread-only", g_variant_new_boolean (TRUE));
  g_autofree char *want = g_strdup_printf ("%zu calls of thread %u start in the window", on_two, tid);
  LabelWait w = { viewer, want };
  ttv_gui_test_spin_until (status_says, &w);
  /* The same thread on the other machine: its own calls. */
  ttv_tab_state_select_thread_on (f.state, 0, tid);
  g_autofree char *want_one = g_strdup_printf ("%zu calls of thread %u start in the window", on_one, tid);
  w.text = want_one;
  ttv_gui_test_spin_until (status_says, &w);
  ttv_gui_test_tab_teardown (&f);
}

int
main (int argc, char **argv)
{
  const char *tmp = ttv_test_get_tmp_dir ();
  g_autofree char *data = g_build_filename (tmp, "data", NULL);
  g_setenv ("XDG_DATA_HOME", data, TRUE);
  gtk_test_init (&argc, &argv, NULL);
  g_test_add_data_func ("/gui/sync/synchronize", "inet-sock", test_synchronize);
  g_test_add_data_func ("/gui/sync/synchronize-net-dev", "net-dev", test_synchronize);
  g_test_add_data_func ("/gui/sync/synchronize-lttng0", "dev-xmit", test_synchronize);
  g_test_add_func ("/gui/sync/saved-offset", test_saved_offset);
  g_test_add_func ("/gui/sync/cpu-usage-machines", test_cpu_usage_machines);
  g_test_add_func ("/gui/sync/latency-machines", test_latency_machines);
  g_test_add_func ("/gui/sync/latency-thread-of-machine", test_latency_thread_of_machine);
  return g_test_run ();
}
