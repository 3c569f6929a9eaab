/* test-kernel-views.c: the kernel analysis views (issue 17) in a real
 * window under Xvfb, on a generated trace with the simulator's probe,
 * against `ttv-report --analysis` on the same trace: the system call
 * latency view's statistics and longest call, one thread's statistics,
 * the CPU usage's threads, the critical path's participants; selecting a
 * record selects its interval and thread in the tab (the critical path
 * follows it); the control flow's tooltip says why a thread was blocked
 * and who woke it; every view's export draws something.  The time line
 * widget is compiled in (as in test-timeline-views.c): the time-line
 * module is not loaded. */
#include "ttv-config.h"

#include "ttv-gui-test-util.h"
#include "ttv-test-util.h"
#include "ttv-timeline.h"
#include "ttv-timeline-test-util.h"

#include <glib/gstdio.h>
#include <string.h>
#include <sys/wait.h>

#define CLIENT 4194301u   /* the probe's threads (src/libttv/sim/ttv-sim-probe.c) */
#define SERVER 4194302u
#define WORKER 4194303u

static const char *dir;   /* the program's temporary directory: the trace and images */
static char *trace;       /* owned */

static const char *const modules[] = {
  TTV_LATENCY_MODULE_PATH, TTV_CPU_USAGE_MODULE_PATH, TTV_CRITICAL_PATH_MODULE_PATH, NULL,
};

/* --- ttv-report's JSON lines -------------------------------------------------------- */

/* The raw value of @key in the flat JSON object @line ("12", "\"read\"", "null"). */
static char *
json_raw (const char *line, const char *key)
{
  g_autofree char *pattern = g_strdup_printf ("\"%s\":", key);
  const char *p = strstr (line, pattern);
  if (p == NULL)
    return NULL;
  p += strlen (pattern);
  const char *e = p;
  if (*p == '"')
    {
      for (e = p + 1; *e && *e != '"'; e++)
        if (*e == '\\' && e[1])
          e++;
      e++;
    }
  else
    while (*e && *e != ',' && *e != '}')
      e++;
  return g_strndup (p, (gsize) (e - p));
}

static gint64
json_int (const char *line, const char *key)
{
  g_autofree char *raw = json_raw (line, key);
  g_assert_nonnull (raw);
  return g_ascii_strtoll (raw, NULL, 10);
}

static char *
json_str (const char *line, const char *key)
{
  g_autofree char *raw = json_raw (line, key);
  g_assert_nonnull (raw);
  if (raw[0] != '"')
    return g_strdup (raw);
  return g_strndup (raw + 1, strlen (raw) - 2);
}

/* The lines of `ttv-report TRACE --analysis ... --format=jsonl` of table @table. */
static GPtrArray *
report (const char *table, const char *const *args)
{
  GPtrArray *argv = g_ptr_array_new ();
  g_ptr_array_add (argv, (gpointer) TTV_REPORT_PATH);
  g_ptr_array_add (argv, trace);
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, (gpointer) "--format=jsonl");
  g_ptr_array_add (argv, (gpointer) "--no-cache");
  g_ptr_array_add (argv, NULL);
  g_autofree char *out = ttv_test_run_ok ((const char *const *) argv->pdata);
  g_ptr_array_unref (argv);
  g_auto (GStrv) lines = g_strsplit (out, "\n", -1);
  GPtrArray *rows = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *want = g_strdup_printf ("\"table\":\"%s\"", table);
  for (guint i = 0; lines[i]; i++)
    if (strstr (lines[i], want))
      g_ptr_array_add (rows, g_strdup (lines[i]));
  return rows;
}

/* --- The window --------------------------------------------------------------------- */

static void
setup_trace (void)
{
  if (trace)
    return;
  trace = g_build_filename (dir, "trace", NULL);
  const char *argv[] = { TTV_GEN_PATH, "-q", "-f", "ctf", "--probe", "--cpus", "2", "--duration", "0.25", "-s", "7",
                         "-o", trace, NULL };
  g_autofree char *out = ttv_test_run_ok (argv);
}

static void
open_tab (TtvGuiTestTab *f)
{
  setup_trace ();
  ttv_gui_test_tab_setup_path (f, trace, modules);
  gtk_window_resize (GTK_WINDOW (f->window), 1200, 800);
}

/* The viewer of the tab's notebook whose descendants include a widget named @name. */
static GtkWidget *
show (TtvGuiTestTab *f, const char *viewer, const char *name)
{
  g_assert_true (ttv_tab_show_viewer (f->tab, viewer));
  ttv_gui_test_spin_pending ();
  GtkNotebook *nb = GTK_NOTEBOOK (ttv_gui_test_find_widget (GTK_WIDGET (f->tab), GTK_TYPE_NOTEBOOK, NULL));
  GtkWidget *page = gtk_notebook_get_nth_page (nb, gtk_notebook_get_current_page (nb));
  GtkWidget *w = ttv_gui_test_find_widget (page, GTK_TYPE_WIDGET, name);
  g_assert_nonnull (w);
  return page;
}

typedef struct {
  GtkWidget *page;
  const char *name;
  guint min_rows;
} RowsWait;

static gboolean
has_rows (gpointer data)
{
  RowsWait *w = data;
  GtkWidget *view = ttv_gui_test_find_widget (w->page, GTK_TYPE_TREE_VIEW, w->name);
  GtkTreeModel *model = gtk_tree_view_get_model (GTK_TREE_VIEW (view));
  return model && (guint) gtk_tree_model_iter_n_children (model, NULL) >= w->min_rows;
}

/* Waits until the tree view @name of @page shows rows and the status
 * label @status says the statistics are there. */
static GtkTreeModel *
wait_rows (GtkWidget *page, const char *name, guint min_rows)
{
  RowsWait w = { page, name, MAX (min_rows, 1) };
  ttv_gui_test_spin_until (has_rows, &w);
  ttv_gui_test_spin_for (100);
  return gtk_tree_view_get_model (GTK_TREE_VIEW (ttv_gui_test_find_widget (page, GTK_TYPE_TREE_VIEW, name)));
}

static gboolean
label_contains (gpointer data)
{
  const char **w = data;
  GtkWidget *label = ttv_gui_test_find_widget ((GtkWidget *) w[0], GTK_TYPE_LABEL, w[1]);
  return strstr (gtk_label_get_text (GTK_LABEL (label)), w[2]) != NULL;
}

static void
wait_label (GtkWidget *page, const char *name, const char *text)
{
  const char *w[3] = { (const char *) page, name, text };
  ttv_gui_test_spin_until (label_contains, w);
}

/* The row of @model whose text column @column is @text, as strings of its
 * first @n columns; NULL when none. */
static GStrv
find_row (GtkTreeModel *model, gint column, const char *text, gint n)
{
  GtkTreeIter it;
  for (gboolean ok = gtk_tree_model_get_iter_first (model, &it); ok; ok = gtk_tree_model_iter_next (model, &it))
    {
      g_autofree char *cell = NULL;
      gtk_tree_model_get (model, &it, column, &cell, -1);
      if (g_strcmp0 (cell, text) != 0)
        continue;
      GStrv row = g_new0 (char *, n + 1);
      for (gint c = 0; c < n; c++)
        {
          GValue v = G_VALUE_INIT;
          gtk_tree_model_get_value (model, &it, c, &v);
          row[c] = G_VALUE_HOLDS_STRING (&v) ? g_value_dup_string (&v) : g_strdup_value_contents (&v);
          g_value_unset (&v);
        }
      return row;
    }
  return NULL;
}

/* The action group @prefix of the viewer in @page. */
static GActionGroup *
actions_of (GtkWidget *page, const char *prefix)
{
  GActionGroup *group = gtk_widget_get_action_group (page, prefix);
  if (group == NULL && GTK_IS_CONTAINER (page))
    {
      g_autoptr (GList) children = gtk_container_get_children (GTK_CONTAINER (page));
      for (GList *l = children; l && !group; l = l->next)
        group = actions_of (l->data, prefix);
    }
  return group;
}

static void
assert_duration (const char *shown, gint64 ns)
{
  g_autofree char *want = ttv_viewer_format_duration (ns);
  g_assert_cmpstr (shown, ==, want);
}

/* --- System calls --------------------------------------------------------------------- */

/* Every call's statistics as the report gives them; the longest call
 * selected selects its interval and thread. */
static void
test_syscalls (void)
{
  TtvGuiTestTab f;
  open_tab (&f);
  GtkWidget *page = show (&f, "syscall-latency", "latency-statistics");
  static const char *const args[] = { "--analysis", "syscalls", NULL };
  g_autoptr (GPtrArray) want = report ("calls/stats", args);
  g_assert_cmpuint (want->len, >, 10);
  GtkTreeModel *model = wait_rows (page, "latency-statistics", want->len);
  g_assert_cmpint (gtk_tree_model_iter_n_children (model, NULL), ==, want->len);
  for (guint i = 0; i < want->len; i++)
    {
      const char *line = want->pdata[i];
      g_autofree char *name = json_str (line, "syscall");
      g_auto (GStrv) row = find_row (model, 0, g_str_equal (name, "all") ? "all" : name, 10);
      g_assert_nonnull (row);
      g_autofree char *count = g_strdup_printf ("%" G_GINT64_FORMAT, json_int (line, "count"));
      g_assert_cmpstr (row[1], ==, count);
      assert_duration (row[2], json_int (line, "total"));
      assert_duration (row[3], json_int (line, "min"));
      assert_duration (row[5], json_int (line, "max"));
      assert_duration (row[7], json_int (line, "p50"));
      assert_duration (row[8], json_int (line, "p90"));
      assert_duration (row[9], json_int (line, "p99"));
    }
  /* The probe client's read: 1820 µs each time (the simulator's truth). */
  g_auto (GStrv) read = find_row (model, 0, "read", 10);
  g_assert_nonnull (read);
  /* The longest call, selected: its interval and thread in the tab. */
  static const char *const top[] = { "--analysis", "syscalls", "--records", "--top", "1", NULL };
  g_autoptr (GPtrArray) longest = report ("calls", top);
  g_assert_cmpuint (longest->len, ==, 1);
  wait_rows (page, "latency-longest", 1);
  g_action_group_activate_action (actions_of (page, "latency"), "select-longest",
                                  g_variant_new_uint32 (0));
  TtvTime s0, s1;
  g_assert_true (ttv_tab_state_get_selection (f.state, &s0, &s1));
  g_assert_cmpint (s0, ==, json_int (longest->pdata[0], "start"));
  g_assert_cmpint (s1, ==, json_int (longest->pdata[0], "end"));
  g_assert_cmpint (ttv_tab_state_get_current_time (f.state), ==, s0);
  g_assert_cmpuint (ttv_tab_state_get_selected_thread (f.state), ==, json_int (longest->pdata[0], "tid"));
  /* Its export draws the charts and the table. */
  g_autofree char *png = g_build_filename (dir, "syscalls.png", NULL);
  g_action_group_activate_action (actions_of (page, "latency"), "export", g_variant_new_string (png));
  cairo_surface_t *s = ttv_test_load_png (png);
  g_assert_cmpint (cairo_image_surface_get_width (s), >, 200);
  cairo_surface_destroy (s);
  g_unlink (png);
  ttv_gui_test_tab_teardown (&f);
}

/* The selected thread's calls alone: its own statistics, as ttv-report --tid. */
static void
test_thread_only (void)
{
  TtvGuiTestTab f;
  open_tab (&f);
  ttv_tab_state_set_selected_thread (f.state, CLIENT);
  GtkWidget *page = show (&f, "syscall-latency", "latency-statistics");
  g_action_group_change_action_state (actions_of (page, "latency"), "thread-only",
                                      g_variant_new_boolean (TRUE));
  g_autofree char *tid = g_strdup_printf ("%u", CLIENT);
  const char *const args[] = { "--analysis", "syscalls", "--records", "--tid", tid, NULL };
  g_autoptr (GPtrArray) calls = report ("calls", args);
  g_assert_cmpuint (calls->len, >, 0);
  g_autofree char *status = g_strdup_printf ("of thread %u", CLIENT);
  wait_label (page, "latency-status", status);
  GtkTreeModel *model = wait_rows (page, "latency-statistics", 2);
  /* Per call: count and longest, from the report's records. */
  g_autoptr (GHashTable) count = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GHashTable) max = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; i < calls->len; i++)
    {
      char *name = json_str (calls->pdata[i], "syscall");
      gint64 d = json_int (calls->pdata[i], "duration");
      g_hash_table_insert (count, g_strdup (name), GSIZE_TO_POINTER (GPOINTER_TO_SIZE (g_hash_table_lookup (count, name)) + 1));
      gint64 m = GPOINTER_TO_SIZE (g_hash_table_lookup (max, name));
      g_hash_table_insert (max, name, GSIZE_TO_POINTER ((gsize) MAX (m, d)));
    }
  g_assert_cmpint (gtk_tree_model_iter_n_children (model, NULL), ==, g_hash_table_size (count) + 1);
  GHashTableIter it;
  gpointer key, value;
  g_hash_table_iter_init (&it, count);
  while (g_hash_table_iter_next (&it, &key, &value))
    {
      g_auto (GStrv) row = find_row (model, 0, key, 10);
      g_assert_nonnull (row);
      g_autofree char *n = g_strdup_printf ("%" G_GSIZE_FORMAT, GPOINTER_TO_SIZE (value));
      g_assert_cmpstr (row[1], ==, n);
      assert_duration (row[5], (gint64) GPOINTER_TO_SIZE (g_hash_table_lookup (max, key)));
    }
  /* The client reads for 1820 µs, every time. */
  g_auto (GStrv) read = find_row (model, 0, "read", 10);
  g_assert_nonnull (read);
  assert_duration (read[5], 1820000);
  assert_duration (read[7], 1820000);
  ttv_gui_test_tab_teardown (&f);
}

/* --- CPU usage --------------------------------------------------------------------------- */

static void
test_cpu_usage (void)
{
  TtvGuiTestTab f;
  open_tab (&f);
  GtkWidget *page = show (&f, "cpu-usage", "cpu-usage-threads");
  static const char *const args[] = { "--analysis", "cpu", NULL };
  g_autoptr (GPtrArray) want = report ("threads", args);
  GtkTreeModel *model = wait_rows (page, "cpu-usage-threads", want->len);
  g_assert_cmpint (gtk_tree_model_iter_n_children (model, NULL), ==, want->len);
  /* The same threads with the same CPU time, largest first. */
  g_autoptr (GHashTable) times = g_hash_table_new (NULL, NULL);
  for (guint i = 0; i < want->len; i++)
    g_hash_table_insert (times, GUINT_TO_POINTER ((guint) json_int (want->pdata[i], "tid")),
                         GSIZE_TO_POINTER ((gsize) json_int (want->pdata[i], "cpu_time")));
  GtkTreeIter it;
  gint64 last = G_MAXINT64;
  for (gboolean ok = gtk_tree_model_get_iter_first (model, &it); ok; ok = gtk_tree_model_iter_next (model, &it))
    {
      guint tid;
      gint64 time;
      gtk_tree_model_get (model, &it, 0, &tid, 5, &time, -1);
      g_assert_true (g_hash_table_contains (times, GUINT_TO_POINTER (tid)));
      g_assert_cmpint (time, ==, (gint64) GPOINTER_TO_SIZE (g_hash_table_lookup (times, GUINT_TO_POINTER (tid))));
      g_assert_cmpint (time, <=, last);
      last = time;
    }
  /* A thread picked in the list is the tab's selected thread. */
  gtk_tree_model_get_iter_first (model, &it);
  guint first;
  gtk_tree_model_get (model, &it, 0, &first, -1);
  GtkWidget *view = ttv_gui_test_find_widget (page, GTK_TYPE_TREE_VIEW, "cpu-usage-threads");
  gtk_tree_selection_select_iter (gtk_tree_view_get_selection (GTK_TREE_VIEW (view)), &it);
  g_assert_cmpuint (ttv_tab_state_get_selected_thread (f.state), ==, first);
  ttv_gui_test_tab_teardown (&f);
}

/* --- The critical path --------------------------------------------------------------------- */

static void
test_critical_path (void)
{
  TtvGuiTestTab f;
  open_tab (&f);
  TtvTime s0, s1;
  ttv_tab_state_get_time_span (f.state, &s0, &s1);
  ttv_tab_state_set_time_window (f.state, s0 + 20000000, s0 + 50000000);
  GtkWidget *page = show (&f, "critical-path", "critical-path-participants");
  wait_label (page, "critical-path-status", "Select a thread");
  ttv_tab_state_set_selected_thread (f.state, CLIENT);
  static const char *const args[] = { "--analysis", "critical-path", "--tid", "4194301", "--start", "+0.02",
                                      "--end", "+0.05", NULL };
  g_autoptr (GPtrArray) want = report ("participants", args);
  /* Per thread or device, the report's kinds together. */
  g_autoptr (GHashTable) total = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; i < want->len; i++)
    {
      g_autofree char *kind = json_str (want->pdata[i], "kind");
      g_autofree char *name = json_str (want->pdata[i], "name");
      char *label = g_str_equal (kind, "device")
                    ? g_strdup_printf ("IRQ %" G_GINT64_FORMAT " %s", json_int (want->pdata[i], "irq"), name)
                    : g_strdup_printf ("%s %" G_GINT64_FORMAT, name, json_int (want->pdata[i], "tid"));
      gint64 t = GPOINTER_TO_SIZE (g_hash_table_lookup (total, label));
      g_hash_table_insert (total, label, GSIZE_TO_POINTER ((gsize) (t + json_int (want->pdata[i], "total"))));
    }
  GtkTreeModel *model = wait_rows (page, "critical-path-participants", g_hash_table_size (total));
  g_assert_cmpint (gtk_tree_model_iter_n_children (model, NULL), ==, g_hash_table_size (total));
  GHashTableIter it;
  gpointer key, value;
  g_hash_table_iter_init (&it, total);
  while (g_hash_table_iter_next (&it, &key, &value))
    {
      g_auto (GStrv) row = find_row (model, 0, key, 3);
      g_test_message ("participant %s", (const char *) key);
      g_assert_nonnull (row);
      assert_duration (row[1], (gint64) GPOINTER_TO_SIZE (value));
    }
  /* The chain the probe makes: the timer, the server, the worker, the disk. */
  g_autofree char *server = g_strdup_printf ("probe-server %u", SERVER);
  g_autofree char *worker = g_strdup_printf ("probe-worker %u", WORKER);
  g_assert_true (g_hash_table_contains (total, server));
  g_assert_true (g_hash_table_contains (total, worker));
  g_assert_true (g_hash_table_contains (total, "IRQ 21 probe-disk"));
  ttv_gui_test_tab_teardown (&f);
}

/* --- The control flow's why ------------------------------------------------------------- */

static gboolean
history_ready (gpointer state)
{
  g_autoptr (TtvViewerHistory) h = ttv_tab_state_dup_history (state);
  return h != NULL;
}

static gboolean
sched_ready (gpointer state)
{
  return ttv_tab_state_request_kernel (state, TTV_VIEWER_KERNEL_SCHED);
}

/* The server blocks in futex until the worker wakes it: its row's tooltip
 * there says so, as the report's blocked interval does. */
static void
test_why (void)
{
  TtvGuiTestTab f;
  open_tab (&f);
  ttv_gui_test_spin_until (history_ready, f.state);
  g_autoptr (TtvViewerHistory) h = ttv_tab_state_dup_history (f.state);
  static const char *const args[] = { "--analysis", "sched", "--table", "blocked", "--records", "--tid", "4194302",
                                      NULL };
  g_autoptr (GPtrArray) blocked = report ("blocked", args);
  const char *futex = NULL;
  for (guint i = 0; i < blocked->len && !futex; i++)
    {
      g_autofree char *call = json_str (blocked->pdata[i], "syscall");
      if (g_str_equal (call, "futex"))
        futex = blocked->pdata[i];
    }
  g_assert_nonnull (futex);
  TtvTime b0 = json_int (futex, "start"), b1 = json_int (futex, "woken");
  static const TtvPaletteColor legend[] = { TTV_PALETTE_BLOCKED };
  GtkWidget *tl = ttv_timeline_new (f.state, legend, 1);
  GtkWidget *win = gtk_window_new (GTK_WINDOW_TOPLEVEL);
  gtk_window_set_default_size (GTK_WINDOW (win), 900, 300);
  gtk_container_add (GTK_CONTAINER (win), tl);
  gtk_widget_show_all (win);
  ttv_timeline_set_history (TTV_TIMELINE (tl), h);
  gint row = ttv_viewer_history_find_process (h, 0, SERVER, -1, b0);
  g_assert_cmpint (row, >=, 0);
  g_autoptr (GPtrArray) rows = g_ptr_array_new_with_free_func ((GDestroyNotify) ttv_timeline_row_free);
  g_ptr_array_add (rows, ttv_timeline_row_new (TTV_VIEWER_ROW_PROCESS, (guint) row, "probe-server"));
  ttv_timeline_set_rows (TTV_TIMELINE (tl), g_steal_pointer (&rows));
  ttv_tab_state_set_time_window (f.state, b0 - (b1 - b0), b1 + (b1 - b0));
  ttv_gui_test_spin_pending ();
  GtkWidget *area = ttv_gui_test_find_widget (tl, GTK_TYPE_DRAWING_AREA, NULL);
  double label = ttv_timeline_get_label_width (TTV_TIMELINE (tl));
  double plot = gtk_widget_get_allocated_width (area) - label;
  double x = label + plot / 2;   /* the middle of the window: blocked */
  double y = ttv_timeline_get_header_height (TTV_TIMELINE (tl)) + TTV_TIMELINE_ROW_HEIGHT / 2.0;
  /* The first tooltip asks for the scheduling analysis. */
  g_autofree char *first = ttv_timeline_dup_tooltip (TTV_TIMELINE (tl), x, y);
  g_test_message ("tooltip: %s", first);
  ttv_gui_test_spin_until (sched_ready, f.state);
  g_autofree char *text = ttv_timeline_dup_tooltip (TTV_TIMELINE (tl), x, y);
  g_test_message ("tooltip: %s", text);
  g_assert_nonnull (strstr (text, "Why: blocked in futex (S, interruptible), off its CPU for"));
  g_autofree char *woken = g_strdup_printf ("Woken by probe-worker (TID %u)", WORKER);
  g_assert_nonnull (strstr (text, woken));
  g_autofree char *wait = ttv_viewer_format_duration (json_int (futex, "end") - b1);
  g_autofree char *later = g_strdup_printf ("ran %s later", wait);
  g_assert_nonnull (strstr (text, later));
  gtk_widget_destroy (win);
  ttv_gui_test_tab_teardown (&f);
}

/* --- ttv --render, no display at all ----------------------------------------------------- */

/* Runs `ttv --render` with @args without a display; its exit status, and
 * its error output in *@err. */
static int
render (const char *const *args, char **err)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_ptr_array_add (argv, (gpointer) TTV_EXE_PATH);
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  g_auto (GStrv) env = ttv_gui_test_headless_environ ();
  g_autoptr (GError) error = NULL;
  int status;
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, env, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, err,
                               &status, &error));
  g_assert_no_error (error);
  return WIFEXITED (status) ? WEXITSTATUS (status) : -1;
}

/* Pixels of @s within 40 per channel of @rgb. */
static guint
count_near (cairo_surface_t *s, guint32 rgb)
{
  guint n = 0;
  int w = cairo_image_surface_get_width (s), h = cairo_image_surface_get_height (s);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        guint32 p = ttv_test_pixel (s, x, y);
        gboolean near = TRUE;
        for (guint shift = 0; shift < 24; shift += 8)
          near = near && ABS ((gint) ((p >> shift) & 0xff) - (gint) ((rgb >> shift) & 0xff)) <= 40;
        n += near;
      }
  return n;
}

/* Every view renders to PNG with no display: the scatter's marks, the CPU
 * lines, the path's device segments are there; wrong requests are refused
 * with a message and no file. */
static void
test_render (void)
{
  setup_trace ();
  static const struct { const char *view; guint32 rgb; guint at_least; } views[] = {
    { "syscall-latency", 0x3a5cbf, 300 }, { "sched-latency", 0x3a5cbf, 100 }, { "irq-latency", 0x3a5cbf, 100 },
    { "block-latency", 0x3a5cbf, 50 }, { "futex-latency", 0x3a5cbf, 20 }, { "cpu-usage", 0x1a1a1a, 200 },
    { "critical-path", 0x387dcc, 500 },
  };
  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    {
      g_autofree char *png = g_build_filename (dir, "render.png", NULL);
      g_autofree char *err = NULL;
      /* The latency views of every thread; the others of the probe's client. */
      gboolean of_thread = !g_str_has_suffix (views[i].view, "-latency");
      const char *args[] = { "--render", views[i].view, "--trace", trace, "--size", "1280x800", "-o", png,
                             "--window", "+0.02:+0.12", of_thread ? "--thread" : NULL, "4194301", NULL };
      g_assert_cmpint (render (args, &err), ==, 0);
      cairo_surface_t *s = ttv_test_load_png (png);
      g_assert_cmpint (cairo_image_surface_get_width (s), ==, 1280);
      guint n = count_near (s, views[i].rgb);
      g_test_message ("%s: %u pixels near #%06x", views[i].view, n, views[i].rgb);
      g_assert_cmpuint (n, >=, views[i].at_least);
      cairo_surface_destroy (s);
      g_unlink (png);
    }
  /* The critical path is a thread's; a view needs room; a tid is a number. */
  static const char *const bad[][12] = {
    { "--render", "critical-path", "--trace", NULL, "-o", NULL, NULL },
    { "--render", "syscall-latency", "--trace", NULL, "-o", NULL, "--size", "100x50", NULL },
    { "--render", "cpu-usage", "--trace", NULL, "-o", NULL, "--thread", "-5", NULL },
  };
  static const char *const says[] = { "give one with --thread", "at least 320x200", "--thread must be" };
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autofree char *png = g_build_filename (dir, "bad.png", NULL);
      const char *args[12];
      for (guint k = 0; k < 12; k++)
        args[k] = k == 3 ? trace : k == 5 ? png : bad[i][k];
      g_autofree char *err = NULL;
      g_assert_cmpint (render (args, &err), ==, 1);
      g_test_message ("%s", err);
      g_assert_nonnull (strstr (err, says[i]));
      g_assert_false (g_file_test (png, G_FILE_TEST_EXISTS));
    }
}

int
main (int argc, char **argv)
{
  gtk_test_init (&argc, &argv, NULL);
  dir = ttv_test_get_tmp_dir ();
  g_test_add_func ("/gui/kernel/syscalls", test_syscalls);
  g_test_add_func ("/gui/kernel/thread-only", test_thread_only);
  g_test_add_func ("/gui/kernel/cpu-usage", test_cpu_usage);
  g_test_add_func ("/gui/kernel/critical-path", test_critical_path);
  g_test_add_func ("/gui/kernel/why", test_why);
  g_test_add_func ("/gui/kernel/render", test_render);
  int status = g_test_run ();
  g_free (trace);
  return status;
}
