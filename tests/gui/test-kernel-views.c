/* test-kernel-views.c: the kernel analysis views (issue 17) in a real
 * window under Xvfb, on a generated trace with the simulator's probe,
 * against `ttv-report --analysis` on the same trace: the system call
 * latency view's statistics and longest call (with its arguments), a click
 * on a point of its scatter, one
 * thread's statistics,
 * the Block I/O view's throughput per device and process, the CPU usage's
 * threads, the critical path's participants; selecting a
 * record selects its interval and thread in the tab (the critical path
 * follows it); the control flow's tooltip says why a thread was blocked
 * and who woke it; every view's export draws something; the scatter's
 * marks, drawn through a mask, are the pixels of their rectangles.  The time line
 * widget is compiled in (as in test-timeline-views.c): the time-line
 * module is not loaded. */
#include "ttv-config.h"

#include "ttv-gui-test-util.h"
#include "ttv-latency-data.h"
#include "ttv-test-util.h"
#include "ttv-timeline.h"
#include "ttv-timeline-test-util.h"

#include <gdk/gdktestutils.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <sys/wait.h>

#define CLIENT 4194301u   /* the probe's threads (src/libttv/sim/ttv-sim-probe.c) */
#define SERVER 4194302u
#define WORKER 4194303u

static const char *dir;   /* the program's temporary directory: the trace and images */
static char *trace;       /* owned */
static char *beta;        /* owned: another machine's trace, host "beta" */
static const char *second_trace;  /* while set (beta), the reports read both traces */

static const char *const modules[] = {
  TTV_LATENCY_MODULE_PATH, TTV_CPU_USAGE_MODULE_PATH, TTV_CRITICAL_PATH_MODULE_PATH, NULL,
};

/* --- ttv-report's JSON lines -------------------------------------------------------- */

static gint64
json_int (const char *line, const char *key)
{
  g_autofree char *raw = ttv_test_json_raw (line, key);
  g_assert_nonnull (raw);
  return g_ascii_strtoll (raw, NULL, 10);
}

static char *
json_str (const char *line, const char *key)
{
  char *text = ttv_test_json_text (line, key);
  g_assert_nonnull (text);
  return text;
}

/* What `ttv-report TRACE ARGS FORMAT --no-cache` writes. */
static char *
report_output (const char *const *args, const char *format)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_ptr_array_add (argv, (gpointer) TTV_REPORT_PATH);
  g_ptr_array_add (argv, trace);
  if (second_trace)
    g_ptr_array_add (argv, (gpointer) second_trace);
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, (gpointer) format);
  g_ptr_array_add (argv, (gpointer) "--no-cache");
  g_ptr_array_add (argv, NULL);
  return ttv_test_run_ok ((const char *const *) argv->pdata);
}

/* The lines of `ttv-report TRACE --analysis ... --format=jsonl` of table @table. */
static GPtrArray *
report (const char *table, const char *const *args)
{
  g_autofree char *out = report_output (args, "--format=jsonl");
  g_auto (GStrv) lines = g_strsplit (out, "\n", -1);
  GPtrArray *rows = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *want = g_strdup_printf ("\"table\":\"%s\"", table);
  for (guint i = 0; lines[i]; i++)
    if (strstr (lines[i], want))
      g_ptr_array_add (rows, g_strdup (lines[i]));
  return rows;
}

/* Whether CSV line @line is a table's header: column names only, where
 * a row has figures. */
static gboolean
is_csv_header (const char *line)
{
  g_auto (GStrv) cells = g_strsplit (line, ",", -1);
  for (guint i = 0; cells[i]; i++)
    if (!g_ascii_islower (cells[i][0]))
      return FALSE;
  return TRUE;
}

/* The rows of the table whose CSV header line is @header in `ttv-report
 * TRACE ARGS --format=csv` (each a GStrv of its cells, written as the text
 * table writes them), up to the next table's header. */
static GPtrArray *
report_csv (const char *header, const char *const *args)
{
  g_autofree char *out = report_output (args, "--format=csv");
  g_auto (GStrv) lines = g_strsplit (out, "\n", -1);
  guint i = 0;
  while (lines[i] && !g_str_equal (lines[i], header))
    i++;
  g_assert_nonnull (lines[i]);
  g_auto (GStrv) keys = g_strsplit (header, ",", -1);
  GPtrArray *rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  for (i++; lines[i] && *lines[i] && !is_csv_header (lines[i]); i++)
    {
      char **cells = g_strsplit (lines[i], ",", -1);
      g_assert_cmpuint (g_strv_length (cells), ==, g_strv_length (keys));   /* no quoted comma */
      g_ptr_array_add (rows, cells);
    }
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
  g_action_group_activate_action (ttv_gui_test_find_actions (page, "latency"), "select-longest",
                                  g_variant_new_uint32 (0));
  TtvTime s0, s1;
  g_assert_true (ttv_tab_state_get_selection (f.state, &s0, &s1));
  g_assert_cmpint (s0, ==, json_int (longest->pdata[0], "start"));
  g_assert_cmpint (s1, ==, json_int (longest->pdata[0], "end"));
  g_assert_cmpint (ttv_tab_state_get_current_time (f.state), ==, s0);
  g_assert_cmpuint (ttv_tab_state_get_selected_thread (f.state), ==, json_int (longest->pdata[0], "tid"));
  /* Its export draws the charts and the table. */
  g_autofree char *png = g_build_filename (dir, "syscalls.png", NULL);
  g_action_group_activate_action (ttv_gui_test_find_actions (page, "latency"), "export", g_variant_new_string (png));
  cairo_surface_t *s = ttv_test_load_png (png);
  g_assert_cmpint (cairo_image_surface_get_width (s), >, 200);
  cairo_surface_destroy (s);
  g_unlink (png);
  ttv_gui_test_tab_teardown (&f);
}

typedef struct {
  GtkTreeModel *model;
  gint column;
} CellWait;

/* Some row's cell of the column is filled. */
static gboolean
column_filled (gpointer data)
{
  CellWait *w = data;
  GtkTreeIter it;
  for (gboolean ok = gtk_tree_model_get_iter_first (w->model, &it); ok; ok = gtk_tree_model_iter_next (w->model, &it))
    {
      g_autofree char *text = NULL;
      gtk_tree_model_get (w->model, &it, w->column, &text, -1);
      if (text && *text)
        return TRUE;
    }
  return FALSE;
}

/* A JSON string value as text: null is "", \" and \\ unescaped (all
 * ttv-report escapes in the probe's arguments). */
static char *
json_text (const char *line, const char *key)
{
  g_autofree char *raw = ttv_test_json_raw (line, key);
  g_assert_nonnull (raw);
  if (g_str_equal (raw, "null"))
    return g_strdup ("");
  g_assert_true (raw[0] == '"');
  GString *out = g_string_new (NULL);
  for (const char *p = raw + 1; *p && p[1]; p++)
    {
      if (*p == '\\')
        p++;
      g_string_append_c (out, *p);
    }
  return g_string_free (out, FALSE);
}

/* The longest calls' list has each call's arguments, as ttv-report
 * --records prints them: the probe's server's 40 longest (its sleeps, which
 * the simulator writes without arguments, then its futex waits), row by row,
 * each row selecting the report's call. */
static void
test_syscall_arguments (void)
{
  TtvGuiTestTab f;
  open_tab (&f);
  ttv_tab_state_set_selected_thread (f.state, SERVER);
  GtkWidget *page = show (&f, "syscall-latency", "latency-longest");
  g_action_group_change_action_state (ttv_gui_test_find_actions (page, "latency"), "thread-only", g_variant_new_boolean (TRUE));
  g_autofree char *tid = g_strdup_printf ("%u", SERVER);
  const char *const args[] = { "--analysis", "syscalls", "--records", "--tid", tid, "--top", "40", NULL };
  g_autoptr (GPtrArray) want = report ("calls", args);
  g_assert_cmpuint (want->len, ==, 40);
  g_autofree char *status = g_strdup_printf ("of thread %u", SERVER);
  wait_label (page, "latency-status", status);
  GtkTreeModel *model = wait_rows (page, "latency-longest", want->len);
  /* The arguments come last, read in a worker thread after the list. */
  CellWait w = { model, gtk_tree_model_get_n_columns (model) - 1 };
  ttv_gui_test_spin_until (column_filled, &w);
  GtkTreeIter it;
  gboolean ok = gtk_tree_model_get_iter_first (model, &it);
  guint futexes = 0;
  for (guint i = 0; i < want->len; i++, ok = gtk_tree_model_iter_next (model, &it))
    {
      g_assert_true (ok);
      const char *line = want->pdata[i];
      g_autofree char *shown = NULL;
      gtk_tree_model_get (model, &it, w.column, &shown, -1);
      g_autofree char *expected = json_text (line, "args");
      g_test_message ("call %u: %s", i, shown);
      g_assert_cmpstr (shown, ==, expected);
      futexes += g_str_has_prefix (shown, "uaddr = 0x7f00dead0040, op = 128");
      /* The row is the report's call. */
      g_action_group_activate_action (ttv_gui_test_find_actions (page, "latency"), "select-longest", g_variant_new_uint32 (i));
      TtvTime s0, s1;
      g_assert_true (ttv_tab_state_get_selection (f.state, &s0, &s1));
      g_assert_cmpint (s0, ==, json_int (line, "start"));
      g_assert_cmpint (s1, ==, json_int (line, "end"));
    }
  /* After its sleeps, the server's longest calls are its futex waits. */
  g_assert_cmpuint (futexes, >, 0);
  ttv_gui_test_tab_teardown (&f);
}

static gboolean
has_selection (gpointer state)
{
  TtvTime s0, s1;
  return ttv_tab_state_get_selection (state, &s0, &s1);
}

/* A click on a point of the scatter (a real X click on the drawing area,
 * where the chart draws that call: its start across, its duration up the
 * log scale) selects that call as picking it in the list does: its
 * interval, its start as the current time, its thread.  The point: one of
 * the probe client's reads (1.82 ms, every 10 ms), in a 2 ms window of
 * every thread's calls. */
static void
test_scatter_pick (void)
{
  TtvGuiTestTab f;
  open_tab (&f);
  g_autofree char *tid = g_strdup_printf ("%u", CLIENT);
  const char *const args[] = { "--analysis", "syscalls", "--records", "--tid", tid, NULL };
  g_autoptr (GPtrArray) calls = report ("calls", args);
  const char *read = NULL;
  TtvTime s0, s1;
  ttv_tab_state_get_time_span (f.state, &s0, &s1);
  for (guint i = 0; i < calls->len && !read; i++)
    {
      g_autofree char *name = json_str (calls->pdata[i], "syscall");
      if (g_str_equal (name, "read") && json_int (calls->pdata[i], "start") > s0 + 100000000)
        read = calls->pdata[i];
    }
  g_assert_nonnull (read);
  TtvTime start = json_int (read, "start"), end = json_int (read, "end");
  g_assert_cmpint (end - start, ==, 1820000);
  TtvTime t0 = start - 1000000, t1 = start + 1000000;
  ttv_tab_state_set_time_window (f.state, t0, t1);
  GtkWidget *page = show (&f, "syscall-latency", "latency-scatter");
  wait_label (page, "latency-status", "calls start in the window");
  g_assert_false (has_selection (f.state));
  g_assert_cmpuint (ttv_tab_state_get_selected_thread (f.state), !=, CLIENT);
  /* Where the chart draws it: the same picture as the view's, computed here. */
  GtkWidget *scatter = ttv_gui_test_find_widget (page, GTK_TYPE_DRAWING_AREA, "latency-scatter");
  ttv_gui_test_spin_for (300);
  int width = gtk_widget_get_allocated_width (scatter), height = gtk_widget_get_allocated_height (scatter);
  g_autoptr (TtvViewerTable) table = ttv_tab_state_dup_kernel_table (f.state, TTV_VIEWER_KERNEL_SYSCALLS, "calls");
  g_assert_nonnull (table);
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvLatencyData) data = ttv_latency_data_compute (table, t0, t1, (guint) MAX (width - 66, 1), NULL,
                                                              0, TTV_VIEWER_PID_NONE, FALSE, NULL, &error);
  g_assert_no_error (error);
  TtvLatencyScale scale;
  ttv_latency_scale_init (&scale, data);
  TtvLatencyFrame frame;
  ttv_latency_frame_init (&frame, 0, 0, width, height);
  double x = frame.px + (double) (start - t0) / (double) (t1 - t0) * frame.pw;
  double y = frame.py + frame.ph - (log10 ((double) (end - start)) - scale.lo) / (scale.hi - scale.lo) * frame.ph;
  guint column;
  TtvTime duration;
  g_assert_true (ttv_latency_scatter_pick (data, &scale, &frame, x, y, &column, &duration));
  g_test_message ("clicking (%.0f, %.0f) of %dx%d: column %u, %" G_GINT64_FORMAT " ns", x, y, width, height, column,
                  duration);
  GdkWindow *win = gtk_widget_get_window (scatter);
  g_assert_true (gdk_test_simulate_button (win, (gint) lround (x), (gint) lround (y), 1, 0, GDK_BUTTON_PRESS));
  g_assert_true (gdk_test_simulate_button (win, (gint) lround (x), (gint) lround (y), 1, 0, GDK_BUTTON_RELEASE));
  ttv_gui_test_spin_until (has_selection, f.state);
  TtvTime a, b;
  g_assert_true (ttv_tab_state_get_selection (f.state, &a, &b));
  g_assert_cmpint (a, ==, start);
  g_assert_cmpint (b, ==, end);
  g_assert_cmpint (ttv_tab_state_get_current_time (f.state), ==, start);
  g_assert_cmpuint (ttv_tab_state_get_selected_thread (f.state), ==, CLIENT);
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
  g_action_group_change_action_state (ttv_gui_test_find_actions (page, "latency"), "thread-only",
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

/* --- Block I/O throughput -------------------------------------------------------------- */

/* "0.052731100" (ttv-report's seconds) in ns. */
static gint64
seconds_ns (const char *text)
{
  g_auto (GStrv) parts = g_strsplit (text, ".", 2);
  g_assert_cmpuint (g_strv_length (parts), ==, 2);
  g_assert_cmpuint (strlen (parts[1]), ==, 9);
  return g_ascii_strtoll (parts[0], NULL, 10) * 1000000000 + g_ascii_strtoll (parts[1], NULL, 10);
}

/* The throughput list @name of @page equals @want, the report's rows,
 * row by row: device (or PID and name), requests, bytes and bytes per
 * second as the report writes them, the request time as the views write
 * durations. */
static void
assert_throughput (GtkWidget *page, const char *name, GPtrArray *want, gboolean by_process)
{
  GtkWidget *view = ttv_gui_test_find_widget (page, GTK_TYPE_TREE_VIEW, name);
  GtkTreeModel *model = gtk_tree_view_get_model (GTK_TREE_VIEW (view));
  g_assert_cmpint (gtk_tree_model_iter_n_children (model, NULL), ==, want->len);
  GtkTreeIter it;
  gboolean ok = gtk_tree_model_get_iter_first (model, &it);
  for (guint r = 0; r < want->len; r++, ok = gtk_tree_model_iter_next (model, &it))
    {
      g_assert_true (ok);
      char **cells = want->pdata[r];
      g_autofree char *key = NULL, *label = NULL;
      gtk_tree_model_get (model, &it, 0, &key, 1, &label, -1);
      g_test_message ("%s row %u: %s %s", name, r, key, label);
      if (by_process)
        g_assert_cmpstr (key, ==, cells[0]);
      g_assert_cmpstr (label, ==, cells[by_process ? 1 : 0]);
      guint first = by_process ? 2 : 1;    /* the report's requests */
      for (guint c = 0; c < 5; c++)
        {
          g_autofree char *text = NULL;
          gtk_tree_model_get (model, &it, 2 + (gint) c, &text, -1);
          g_assert_cmpstr (text, ==, cells[first + c]);
        }
      g_autofree char *busy = NULL;
      gtk_tree_model_get (model, &it, 7, &busy, -1);
      assert_duration (busy, seconds_ns (cells[first + 5]));
    }
}

/* Once the view shows the statistics of the window @args selects, its
 * throughput lists are the report's. */
static void
check_throughput (GtkWidget *page, const char *const *args)
{
  g_autoptr (GPtrArray) stats = report ("requests/stats", args);
  const char *all = NULL;
  for (guint i = 0; i < stats->len; i++)
    {
      g_autofree char *device = json_str (stats->pdata[i], "device");
      if (g_str_equal (device, "all"))
        all = stats->pdata[i];
    }
  g_assert_nonnull (all);
  g_autofree char *status = g_strdup_printf ("%" G_GINT64_FORMAT " requests start in the window",
                                             json_int (all, "count"));
  wait_label (page, "latency-status", status);
  g_autoptr (GPtrArray) devices = report_csv ("device,requests,read_bytes,write_bytes,read_bps,write_bps,busy", args);
  g_autoptr (GPtrArray) processes = report_csv ("tgid,name,requests,read_bytes,write_bytes,read_bps,write_bps,busy",
                                                args);
  /* The simulated disk and the probe's (8:16, its worker's reads). */
  g_assert_cmpuint (devices->len, >=, 2);
  g_assert_cmpuint (processes->len, >=, 2);
  assert_throughput (page, "latency-devices", devices, FALSE);
  assert_throughput (page, "latency-processes", processes, TRUE);
}

/* The Block I/O view's throughput per device and per process, of the
 * window, as `ttv-report --analysis block` prints them: of the whole trace,
 * then of a window that does not fall on round numbers (rates rounded as
 * the report rounds them). */
static void
test_block_throughput (void)
{
  TtvGuiTestTab f;
  open_tab (&f);
  GtkWidget *page = show (&f, "block-latency", "latency-devices");
  static const char *const whole[] = { "--analysis", "block", NULL };
  check_throughput (page, whole);
  TtvTime s0, s1;
  ttv_tab_state_get_time_span (f.state, &s0, &s1);
  ttv_tab_state_set_time_window (f.state, s0 + 21300000, s0 + 118700000);
  static const char *const part[] = { "--analysis", "block", "--start", "+0.0213", "--end", "+0.1187", NULL };
  check_throughput (page, part);
  ttv_gui_test_tab_teardown (&f);
}

/* The rows of a report's table of several machines as the view's lists
 * show them: the machine before the device's or the process's name. */
static void
join_machine (GPtrArray *rows, guint name_cell)
{
  for (guint r = 0; r < rows->len; r++)
    {
      char **cells = rows->pdata[r];
      g_autofree char *machine = cells[0];
      char *joined = g_strdup_printf ("%s: %s", machine, cells[name_cell]);
      g_free (cells[name_cell]);
      cells[name_cell] = joined;
      memmove (cells, cells + 1, g_strv_length (cells) * sizeof *cells);
    }
}

/* Two machines whose disks have the same numbers (issue 19): the Block
 * I/O view's throughput lists and statistics are per machine, as
 * `ttv-report --analysis block` prints them, each row naming its machine
 * ("beta: 8:16"); the disks were one before. */
static void
test_block_two_machines (void)
{
  setup_trace ();
  beta = g_build_filename (dir, "beta", NULL);
  const char *gen[] = { TTV_GEN_PATH, "-q", "-f", "ctf", "--probe", "--cpus", "2", "--duration", "0.2", "-s", "8",
                        "--host", "beta", "-o", beta, NULL };
  g_free (ttv_test_run_ok (gen));
  second_trace = beta;
  g_autoptr (GError) error = NULL;
  TtvTraceset *ts = ttv_traceset_new ();
  g_assert_true (ttv_traceset_add_path (ts, trace, &error));
  g_assert_true (ttv_traceset_add_path (ts, beta, &error));
  g_assert_no_error (error);
  TtvGuiTestTab f;
  ttv_gui_test_tab_open (&f, ts, modules);
  gtk_window_resize (GTK_WINDOW (f.window), 1200, 800);
  GtkWidget *page = show (&f, "block-latency", "latency-devices");
  static const char *const args[] = { "--analysis", "block", NULL };
  g_autoptr (GPtrArray) stats = report ("requests/stats", args);
  gint64 requests = 0;
  guint machines = 0;
  for (guint i = 0; i < stats->len; i++)
    {
      g_autofree char *device = json_str (stats->pdata[i], "device");
      if (g_str_equal (device, "all"))
        {
          requests += json_int (stats->pdata[i], "count");
          machines++;
        }
    }
  g_assert_cmpuint (machines, ==, 2);
  g_autofree char *status = g_strdup_printf ("%" G_GINT64_FORMAT " requests start in the window", requests);
  wait_label (page, "latency-status", status);
  g_autoptr (GPtrArray) devices = report_csv ("machine,device,requests,read_bytes,write_bytes,read_bps,write_bps,busy",
                                              args);
  g_autoptr (GPtrArray) processes = report_csv ("machine,tgid,name,requests,read_bytes,write_bytes,read_bps,"
                                                "write_bps,busy", args);
  /* Each machine's simulated disk and its probe's. */
  g_assert_cmpuint (devices->len, >=, 4);
  join_machine (devices, 1);
  join_machine (processes, 2);
  assert_throughput (page, "latency-devices", devices, FALSE);
  assert_throughput (page, "latency-processes", processes, TRUE);
  /* The statistics: a row per device of each machine, then all. */
  GtkTreeModel *model = wait_rows (page, "latency-statistics", stats->len - 1);
  g_assert_cmpint (gtk_tree_model_iter_n_children (model, NULL), ==, stats->len - 1);
  for (guint i = 0; i < stats->len; i++)
    {
      g_autofree char *device = json_str (stats->pdata[i], "device");
      g_autofree char *machine = json_str (stats->pdata[i], "machine");
      if (g_str_equal (device, "all"))
        continue;
      g_autofree char *label = g_strdup_printf ("%s: %s", machine, device);
      g_auto (GStrv) row = find_row (model, 0, label, 10);
      g_assert_nonnull (row);
      g_autofree char *count = g_strdup_printf ("%" G_GINT64_FORMAT, json_int (stats->pdata[i], "count"));
      g_assert_cmpstr (row[1], ==, count);
      assert_duration (row[2], json_int (stats->pdata[i], "total"));
      assert_duration (row[9], json_int (stats->pdata[i], "p99"));
    }
  g_autofree char *all_count = g_strdup_printf ("%" G_GINT64_FORMAT, requests);
  g_auto (GStrv) all = find_row (model, 0, "all", 10);
  g_assert_nonnull (all);
  g_assert_cmpstr (all[1], ==, all_count);
  g_autofree char *png = g_build_filename (dir, "block-two-machines.png", NULL);
  g_action_group_activate_action (ttv_gui_test_find_actions (page, "latency"), "export", g_variant_new_string (png));
  cairo_surface_destroy (ttv_test_load_png (png));
  second_trace = NULL;
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
  ttv_gui_test_spin_until (ttv_gui_test_history_ready, f.state);
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

/* The scatter as drawn with @columns, on a white @width x @height image
 * at @device_scale; with @reference, the marks are filled as rectangles
 * (cairo's union of them: what the chart drew before its mask) over the
 * chart drawn without them. */
static cairo_surface_t *
draw_scatter_marks (TtvLatencyData *d, const TtvLatencyScale *scale, int width, int height, double device_scale,
                    gboolean reference)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_RGB24, (int) (width * device_scale),
                                                   (int) (height * device_scale));
  cairo_surface_set_device_scale (s, device_scale, device_scale);
  cairo_t *cr = cairo_create (s);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  TtvLatencyFrame f;
  ttv_latency_frame_init (&f, 0, 0, width, height);
  TtvViewerScatterColumn *columns = d->columns;
  if (reference)
    d->columns = g_new0 (TtvViewerScatterColumn, d->width);
  ttv_latency_draw_scatter (cr, d, scale, &f, d->t0, NULL);
  if (reference)
    {
      g_free (d->columns);
      d->columns = columns;
      cairo_set_source_rgba (cr, 0.15, 0.35, 0.75, 0.85);
      double colw = f.pw / d->width, range = scale->hi - scale->lo;
      for (guint x = 0; x < d->width; x++)
        for (guint b = 0; b < TTV_VIEWER_DURATION_BUCKETS; b++)
          {
            if (!((columns[x].mask[b / 64] >> (b % 64)) & 1))
              continue;
            double hi = (double) ttv_viewer_duration_bucket_lower (b + 1);
            double lo = MAX ((double) ttv_viewer_duration_bucket_lower (b), 1);
            double y0 = f.py + f.ph - (log10 (hi) - scale->lo) / range * f.ph;
            double y1 = f.py + f.ph - (lo < 1 ? 0 : log10 (lo) - scale->lo) / range * f.ph;
            double top = floor (MIN (y0, y1 - 2)), bottom = MAX (ceil (y1), top + 2);
            double left = floor (f.px + x * colw);
            cairo_rectangle (cr, left, top, MAX (floor (f.px + (x + 1) * colw) - left, 2), bottom - top);
          }
      cairo_fill (cr);
    }
  cairo_destroy (cr);
  cairo_surface_flush (s);
  return s;
}

/* The scatter's marks (drawn through a mask of whole pixels) cover the
 * pixels that filling each mark as a rectangle covers, in the same
 * colour: marks that overlap (neighbouring buckets, the 2-pixel minimum
 * over the next column), in every word of a column's buckets, with
 * columns wider and narrower than a pixel, at device scales 1 and 2. */
static void
test_scatter_marks (void)
{
  const int width = 700, height = 300;
  const guint columns[] = { 634, 211, 1500 };
  guint32 seed = 7;
  for (guint c = 0; c < G_N_ELEMENTS (columns); c++)
    for (double device_scale = 1; device_scale <= 2; device_scale++)
      {
        TtvLatencyData d = { .t0 = 1000000, .t1 = 2000000, .width = columns[c], .n = 1 };
        d.columns = g_new0 (TtvViewerScatterColumn, d.width);
        ttv_time_scale_init_linear (&d.scale, d.t0, d.t1, 0, d.width);
        guint marks = 0;
        for (guint x = 0; x < d.width; x++)
          for (guint b = 0; b < TTV_VIEWER_DURATION_BUCKETS; b++)
            {
              seed = seed * 1103515245u + 12345u;
              /* Runs of neighbouring buckets, some columns empty. */
              gboolean set = (seed >> 16) % 100 < (x % 3 == 0 ? 0 : b % 40 < 12 ? 70 : 8);
              if (!set)
                continue;
              d.columns[x].mask[b / 64] |= G_GUINT64_CONSTANT (1) << (b % 64);
              d.columns[x].count++;
              d.counts[b]++;
              marks++;
            }
        TtvLatencyScale scale;
        ttv_latency_scale_init (&scale, &d);
        cairo_surface_t *got = draw_scatter_marks (&d, &scale, width, height, device_scale, FALSE);
        cairo_surface_t *want = draw_scatter_marks (&d, &scale, width, height, device_scale, TRUE);
        /* The plot's rows: the time ruler is drawn over what lies under it. */
        TtvLatencyFrame f;
        ttv_latency_frame_init (&f, 0, 0, width, height);
        int stride = cairo_image_surface_get_stride (got);
        const guint8 *a = cairo_image_surface_get_data (got), *b = cairo_image_surface_get_data (want);
        guint marked = 0;
        for (int y = (int) (f.py * device_scale); y < (int) ((f.py + f.ph) * device_scale); y++)
          for (int x = 0; x < (int) (width * device_scale); x++)
            {
              guint32 pa = *(const guint32 *) (a + y * stride + x * 4) & 0xffffff;
              guint32 pb = *(const guint32 *) (b + y * stride + x * 4) & 0xffffff;
              if (pa != pb)
                g_error ("%u columns, scale %.0f: pixel (%d, %d) is #%06x, #%06x with rectangles", d.width,
                         device_scale, x, y, pa, pb);
              marked += (pa & 0xff) > ((pa >> 16) & 0xff) + 100;   /* blue */
            }
        g_test_message ("%u columns, scale %.0f: %u marks, %u pixels marked", d.width, device_scale, marks, marked);
        g_assert_cmpuint (marks, >, d.width);
        g_assert_cmpuint (marked, >, 10000);
        cairo_surface_destroy (got);
        cairo_surface_destroy (want);
        g_free (d.columns);
      }
}

int
main (int argc, char **argv)
{
  gtk_test_init (&argc, &argv, NULL);
  dir = ttv_test_get_tmp_dir ();
  g_test_add_func ("/gui/kernel/syscalls", test_syscalls);
  g_test_add_func ("/gui/kernel/thread-only", test_thread_only);
  g_test_add_func ("/gui/kernel/block-throughput", test_block_throughput);
  g_test_add_func ("/gui/kernel/block-two-machines", test_block_two_machines);
  g_test_add_func ("/gui/kernel/syscall-arguments", test_syscall_arguments);
  g_test_add_func ("/gui/kernel/scatter-pick", test_scatter_pick);
  g_test_add_func ("/gui/kernel/cpu-usage", test_cpu_usage);
  g_test_add_func ("/gui/kernel/critical-path", test_critical_path);
  g_test_add_func ("/gui/kernel/why", test_why);
  g_test_add_func ("/gui/kernel/render", test_render);
  g_test_add_func ("/gui/kernel/scatter-marks", test_scatter_marks);
  int status = g_test_run ();
  g_free (trace);
  g_free (beta);
  return status;
}
