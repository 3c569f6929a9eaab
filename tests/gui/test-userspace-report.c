/* test-userspace-report.c: the userspace views (issue 18) in a real window
 * under Xvfb show what `ttv-report --analysis` prints.  The Functions view
 * against `--analysis callstack` on the recorded glxgears trace of
 * ../shared: every function's calls, total and self time, minimum, mean,
 * maximum and percentiles, over the whole trace and then over a selection
 * (calls cut by it counted with their part inside, as the report does).
 * Given a trace of tests/userspace/ustwork.c in $TTV_UST_TRACE (as
 * test-userspace-views.sh records it), the same for its functions, whose
 * names come from the binary's symbols, and the Memory view's potential
 * leaks against `--analysis memory`; then the same on that trace beside a
 * copy of it from another machine (its host name changed): each function
 * and each leak twice, named after its machine as the report names it. */
#include "ttv-config.h"

#include "ttv-gui-test-util.h"
#include "ttv-test-util.h"

#include <string.h>

/* The view's columns (modules/userspace/ttv-functions-view.c): the
 * function, then calls and durations in ns (-1: none), then the location. */
enum { COL_FUNCTION, COL_CALLS, COL_TOTAL, COL_SELF, COL_MIN, COL_MEAN, COL_MAX, COL_P50, COL_P90, COL_P99 };

static const char *const modules[] = { TTV_USERSPACE_MODULE_PATH, NULL };

/* One function as the report gives it: its name and the view's numbers. */
typedef struct {
  char *name;
  gint64 values[COL_P99 - COL_CALLS + 1];
} Function;

static void
function_clear (gpointer data)
{
  g_free (((Function *) data)->name);
}

/* ttv-report on @traces (NULL-terminated) with @args (NULL-terminated)
 * after them: its output. */
static char *
run_report (const char *const *traces, const char *const *args)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_ptr_array_add (argv, (gpointer) TTV_REPORT_PATH);
  for (guint i = 0; traces[i]; i++)
    g_ptr_array_add (argv, (gpointer) traces[i]);
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  return ttv_test_run_ok ((const char *const *) argv->pdata);
}

/* `ttv-report TRACES --analysis callstack [--start S --end E]`'s functions. */
static GArray *
report_functions (const char *const *traces, const char *start, const char *end)
{
  const char *args[] = { "--analysis", "callstack", "--format=jsonl", "--no-cache", start ? "--start" : NULL, start,
                         "--end", end, NULL };
  g_autofree char *out = run_report (traces, args);
  g_auto (GStrv) lines = g_strsplit (out, "\n", -1);
  GArray *functions = g_array_new (FALSE, TRUE, sizeof (Function));
  g_array_set_clear_func (functions, function_clear);
  static const char *const keys[] = { "calls", "total_ns", "self_ns", "min_ns", "mean_ns", "max_ns",
                                      "p50_ns", "p90_ns", "p99_ns" };
  for (guint i = 0; lines[i]; i++)
    {
      if (!g_str_has_prefix (lines[i], "{\"type\":\"function\""))
        continue;
      Function f = { 0 };
      g_autofree char *name = ttv_test_json_text (lines[i], "name");
      g_autofree char *machine = ttv_test_json_text (lines[i], "machine");
      /* With several machines, the view names a function after its
       * machine's (ttv-report's "machine" member). */
      f.name = machine ? g_strdup_printf ("%s: %s", machine, name) : g_strdup (name);
      for (guint k = 0; k < G_N_ELEMENTS (keys); k++)
        {
          g_autofree char *raw = ttv_test_json_raw (lines[i], keys[k]);
          g_assert_nonnull (raw);
          /* The mean has decimals in the report; the view keeps whole ns. */
          f.values[k] = (gint64) g_ascii_strtod (raw, NULL);
        }
      g_array_append_val (functions, f);
    }
  return functions;
}

typedef struct {
  GtkTreeModel *model;
  GArray *want;
  GString *why;      /* the last difference seen */
} Compare;

/* TRUE when the view's rows are the report's functions, value for value;
 * else says the first difference in c->why. */
static gboolean
view_equals_report (gpointer data)
{
  Compare *c = data;
  g_string_truncate (c->why, 0);
  guint n = (guint) gtk_tree_model_iter_n_children (c->model, NULL);
  if (n != c->want->len)
    {
      g_string_printf (c->why, "%u rows in the view, %u functions in the report", n, c->want->len);
      return FALSE;
    }
  for (guint i = 0; i < c->want->len; i++)
    {
      const Function *f = &g_array_index (c->want, Function, i);
      gboolean found = FALSE;
      GtkTreeIter it;
      for (gboolean ok = gtk_tree_model_get_iter_first (c->model, &it); ok && !found;
           ok = gtk_tree_model_iter_next (c->model, &it))
        {
          g_autofree char *name = NULL;
          gtk_tree_model_get (c->model, &it, COL_FUNCTION, &name, -1);
          if (g_strcmp0 (name, f->name) != 0)
            continue;
          found = TRUE;
          for (gint col = COL_CALLS; col <= COL_P99; col++)
            {
              gint64 shown;
              gtk_tree_model_get (c->model, &it, col, &shown, -1);
              gint64 want = f->values[col - COL_CALLS];
              /* The mean: the report's truncated, the view's rounded. */
              gboolean same = col == COL_MEAN ? shown - want >= -1 && shown - want <= 1 : shown == want;
              if (!same)
                {
                  g_string_printf (c->why, "%s, column %d: %" G_GINT64_FORMAT " in the view, %" G_GINT64_FORMAT
                                   " in the report", f->name, col, shown, want);
                  return FALSE;
                }
            }
        }
      if (!found)
        {
          g_string_printf (c->why, "%s is not in the view", f->name);
          return FALSE;
        }
    }
  return TRUE;
}

static gboolean
equal_or_late (gpointer data)
{
  Compare *c = data;
  return view_equals_report (c) || GPOINTER_TO_INT (g_object_get_data (G_OBJECT (c->model), "late"));
}

static gboolean
mark_late (gpointer model)
{
  g_object_set_data (model, "late", GINT_TO_POINTER (1));
  return G_SOURCE_REMOVE;
}

/* Waits (at most 30 s: the view computes in a worker thread) until the
 * view shows @want, and fails with the last difference if it never does. */
static void
assert_view_shows (GtkTreeModel *model, GArray *want)
{
  g_autoptr (GString) why = g_string_new (NULL);
  Compare c = { model, want, why };
  g_object_set_data (G_OBJECT (model), "late", NULL);
  guint timer = g_timeout_add_seconds (30, mark_late, model);
  ttv_gui_test_spin_until (equal_or_late, &c);
  if (!GPOINTER_TO_INT (g_object_get_data (G_OBJECT (model), "late")))
    g_source_remove (timer);
  if (!view_equals_report (&c))
    g_error ("the Functions view differs from ttv-report --analysis callstack: %s", why->str);
}

/* A tab on @traces (NULL-terminated), in a window of 1200x800, showing
 * the view @viewer. */
static void
open_tab (TtvGuiTestTab *f, const char *const *traces, const char *viewer)
{
  g_autoptr (GError) error = NULL;
  TtvTraceset *ts = ttv_traceset_new ();
  for (guint i = 0; traces[i]; i++)
    g_assert_true (ttv_traceset_add_path (ts, traces[i], &error));
  ttv_gui_test_tab_open (f, ts, modules);
  gtk_window_resize (GTK_WINDOW (f->window), 1200, 800);
  g_assert_true (ttv_tab_show_viewer (f->tab, viewer));
}

/* A tab on @traces showing the view @viewer; the model of its table @table. */
static GtkTreeModel *
open_table (TtvGuiTestTab *f, const char *const *traces, const char *viewer, const char *table)
{
  open_tab (f, traces, viewer);
  ttv_gui_test_spin_pending ();
  GtkWidget *view = ttv_gui_test_viewer (f->tab, viewer);
  g_assert_nonnull (view);
  GtkWidget *tree = ttv_gui_test_find_widget (view, GTK_TYPE_TREE_VIEW, table);
  g_assert_nonnull (tree);
  return gtk_tree_view_get_model (GTK_TREE_VIEW (tree));
}

/* The Functions view of @traces: the report's functions, whole trace, and
 * with @selection, over two seconds from 1.4 s after the start. */
static void
check_functions (const char *const *traces, gboolean selection)
{
  TtvGuiTestTab f;
  GtkTreeModel *model = open_table (&f, traces, "functions", "functions-table");

  /* The whole trace: its time window when nothing is selected. */
  g_autoptr (GArray) whole = report_functions (traces, NULL, NULL);
  g_assert_cmpuint (whole->len, >, 5);
  assert_view_shows (model, whole);

  if (selection)
    {
      /* The calls cut by the selection count with their part inside. */
      TtvTime t0 = ttv_traceset_get_start (f.ts) + 1400000000;
      TtvTime t1 = t0 + 2000000000;
      char start[32], end[32];
      ttv_time_to_string (t0, start, sizeof start);
      ttv_time_to_string (t1, end, sizeof end);
      g_autoptr (GArray) part = report_functions (traces, start, end);
      g_assert_cmpuint (part->len, >, 0);
      ttv_tab_state_set_selection (ttv_tab_get_state (f.tab), t0, t1);
      assert_view_shows (model, part);
    }
  ttv_gui_test_tab_teardown (&f);
}

static void
test_functions (void)
{
  g_autofree char *trace = ttv_test_dup_shared_ctf_trace ("glxgears-ust");
  if (trace == NULL)
    return;
  const char *traces[] = { trace, NULL };
  check_functions (traces, TRUE);
}

/* --- The Memory view ------------------------------------------------------------ */

/* The leaks table's columns (modules/userspace/ttv-memory-view.c). */
enum { LEAK_PROCESS, LEAK_BLOCKS, LEAK_BYTES, LEAK_SITE };

static gboolean
has_rows (gpointer model)
{
  return gtk_tree_model_iter_n_children (model, NULL) > 0;
}

/* Whether a label under @widget shows a text containing @text. */
static gboolean
has_label_with (GtkWidget *widget, const char *text)
{
  if (GTK_IS_LABEL (widget) && strstr (gtk_label_get_text (GTK_LABEL (widget)), text))
    return TRUE;
  if (!GTK_IS_CONTAINER (widget))
    return FALSE;
  g_autoptr (GList) children = gtk_container_get_children (GTK_CONTAINER (widget));
  for (GList *l = children; l; l = l->next)
    if (has_label_with (l->data, text))
      return TRUE;
  return FALSE;
}

/* The view lists the program's own potential leaks by call site, as the
 * report's leak_site lines of owner "program" give them; those of the
 * loader and the tracer are only counted, in the status line. */
static void
check_memory (const char *const *traces, guint n_machines)
{
  const char *args[] = { "--analysis", "memory", "--format=jsonl", "--no-cache", NULL };
  g_autofree char *out = run_report (traces, args);
  g_auto (GStrv) lines = g_strsplit (out, "\n", -1);
  g_autoptr (GPtrArray) want = g_ptr_array_new_with_free_func (g_free);
  guint64 kept = 0;
  for (guint i = 0; lines[i]; i++)
    {
      if (!g_str_has_prefix (lines[i], "{\"type\":\"leak_site\""))
        continue;
      g_autofree char *owner = ttv_test_json_raw (lines[i], "owner");
      g_autofree char *blocks = ttv_test_json_raw (lines[i], "blocks");
      if (g_strcmp0 (owner, "\"program\"") != 0)
        {
          kept += g_ascii_strtoull (blocks, NULL, 10);
          continue;
        }
      g_autofree char *process = ttv_test_json_text (lines[i], "process");
      g_autofree char *pid = ttv_test_json_raw (lines[i], "pid");
      g_autofree char *bytes = ttv_test_json_raw (lines[i], "bytes");
      g_autofree char *site = ttv_test_json_text (lines[i], "site");
      g_autofree char *machine = ttv_test_json_text (lines[i], "machine");
      g_autofree char *on = machine ? g_strdup_printf ("%s: ", machine) : g_strdup ("");
      g_ptr_array_add (want, g_strdup_printf ("%s%s [%s] %s %s %s", on, process, pid, blocks, bytes, site));
    }
  g_assert_cmpuint (want->len, >=, n_machines);   /* ustwork.c leaks one block on purpose, on each */

  TtvGuiTestTab f;
  GtkTreeModel *model = open_table (&f, traces, "memory", "leaks-table");
  GtkWidget *view = ttv_gui_test_viewer (f.tab, "memory");
  ttv_gui_test_spin_until (has_rows, model);
  g_autoptr (GPtrArray) shown = g_ptr_array_new_with_free_func (g_free);
  GtkTreeIter it;
  for (gboolean ok = gtk_tree_model_get_iter_first (model, &it); ok; ok = gtk_tree_model_iter_next (model, &it))
    {
      g_autofree char *process = NULL, *site = NULL;
      guint64 blocks, bytes;
      gtk_tree_model_get (model, &it, LEAK_PROCESS, &process, LEAK_BLOCKS, &blocks, LEAK_BYTES, &bytes, LEAK_SITE,
                          &site, -1);
      g_ptr_array_add (shown, g_strdup_printf ("%s %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %s", process, blocks,
                                               bytes, site));
    }
  g_assert_cmpuint (shown->len, ==, want->len);
  for (guint i = 0; i < want->len; i++)
    {
      gboolean found = FALSE;
      for (guint k = 0; k < shown->len && !found; k++)
        found = g_str_equal (want->pdata[i], shown->pdata[k]);
      if (!found)
        g_error ("the Memory view lacks the report's leak “%s”", (const char *) want->pdata[i]);
    }
  /* The status line counts what the loader and the tracer kept. */
  g_autofree char *kept_text = g_strdup_printf ("the loader and the tracer kept %" G_GUINT64_FORMAT " (", kept);
  g_assert_true (has_label_with (view, kept_text));
  ttv_gui_test_tab_teardown (&f);
}

/* The trace of ustwork.c test-userspace-views.sh recorded, or NULL after
 * marking the test skipped. */
static const char *
recorded_trace (void)
{
  const char *trace = g_getenv ("TTV_UST_TRACE");
  if (trace == NULL)
    g_test_skip ("needs a recorded trace in $TTV_UST_TRACE (tests/userspace/test-userspace-views.sh gives one)");
  return trace;
}

static void
test_recorded (void)
{
  const char *trace = recorded_trace ();
  if (trace == NULL)
    return;
  const char *traces[] = { trace, NULL };
  check_functions (traces, FALSE);
  check_memory (traces, 1);
}

/* Every metadata file under @dir with its `hostname = "…";` changed to
 * as many 'q's ('r's where it was all 'q'): the metadata's packets keep
 * their length. */
static void
rename_host (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  while (d && (name = g_dir_read_name (d)))
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        rename_host (path);
      if (!g_str_equal (name, "metadata"))
        continue;
      g_autofree char *data = NULL;
      gsize len;
      g_assert_true (g_file_get_contents (path, &data, &len, NULL));
      /* Packetized metadata holds NULs: not a string search. */
      char *host = memmem (data, len, "hostname = \"", strlen ("hostname = \""));
      g_assert_nonnull (host);
      host += strlen ("hostname = \"");
      char *end = memchr (host, '"', len - (host - data));
      g_assert_nonnull (end);
      gboolean all_q = TRUE;
      for (char *c = host; c < end; c++)
        all_q = all_q && *c == 'q';
      memset (host, all_q ? 'r' : 'q', end - host);
      g_assert_true (g_file_set_contents (path, data, len, NULL));
    }
}

/* The call stack view's layout (modules/userspace/ttv-flamechart.c). */
#define FLAME_RULER_HEIGHT 24
#define FLAME_LABEL_WIDTH 170
#define FLAME_ROW_HEIGHT 17
#define FLAME_HEADER_HEIGHT 20

static gboolean
callstacks_ready (gpointer state)
{
  return ttv_tab_state_get_userspace_progress (state, TTV_VIEWER_USERSPACE_CALLSTACKS) >= 1;
}

/* The call stack view's area has its size in the resized window (a loaded
 * machine may take a while: the clicks below need its rows on screen). */
static gboolean
area_sized (gpointer area)
{
  return gtk_widget_get_allocated_height (area) > 300;
}

/* A click on a thread's header in the call stack view selects that thread
 * on its machine: each thread of each machine in turn, the second
 * machine's tids being the first's; a click in the calls does not. */
static void
check_thread_clicks (const char *const *traces)
{
  TtvGuiTestTab f;
  open_tab (&f, traces, "callstack");
  ttv_gui_test_spin_until (callstacks_ready, f.state);
  ttv_gui_test_spin_pending ();
  GtkWidget *area = ttv_gui_test_find_widget (ttv_gui_test_viewer (f.tab, "callstack"), GTK_TYPE_DRAWING_AREA, NULL);
  g_assert_nonnull (area);
  ttv_gui_test_spin_until (area_sized, area);
  g_autoptr (TtvViewerCallstacks) cs = ttv_tab_state_dup_callstacks (f.state);
  guint n = ttv_viewer_callstacks_get_n_threads (cs), machines_seen = 0;
  double top = FLAME_RULER_HEIGHT;
  for (guint i = 0; i < n && top + FLAME_HEADER_HEIGHT < gtk_widget_get_allocated_height (area); i++)
    {
      TtvViewerCallstackThread t;
      g_assert_true (ttv_viewer_callstacks_get_thread (cs, i, &t));
      ttv_gui_test_send_button (area, GDK_BUTTON_PRESS, 400, top + FLAME_HEADER_HEIGHT / 2);
      ttv_gui_test_send_button (area, GDK_BUTTON_RELEASE, 400, top + FLAME_HEADER_HEIGHT / 2);
      g_test_message ("thread %u: %s [%u] of machine %u", i, t.name, t.tid, t.machine);
      g_assert_cmpuint (ttv_tab_state_get_selected_thread (f.state), ==, t.tid);
      g_assert_cmpuint (ttv_tab_state_get_selected_machine (f.state), ==, t.machine);
      machines_seen |= 1u << t.machine;
      /* In its calls, right of the names: the current time, not the thread. */
      if (i > 0 && t.n_depths > 0)
        {
          ttv_tab_state_select_thread_on (f.state, 0, 1);
          double y = top + FLAME_HEADER_HEIGHT + FLAME_ROW_HEIGHT / 2;
          ttv_gui_test_send_button (area, GDK_BUTTON_PRESS, FLAME_LABEL_WIDTH + 50, y);
          ttv_gui_test_send_button (area, GDK_BUTTON_RELEASE, FLAME_LABEL_WIDTH + 50, y);
          g_assert_cmpuint (ttv_tab_state_get_selected_thread (f.state), ==, 1);
        }
      top += FLAME_HEADER_HEIGHT + t.n_depths * FLAME_ROW_HEIGHT;
    }
  g_assert_cmpuint (machines_seen, ==, 3);
  ttv_gui_test_tab_teardown (&f);
}

/* The recorded trace beside a copy of itself whose host name differs:
 * two machines with the same pids, each function and each leak on each.
 * (Both are given: a folder holding both would open them as chunks of
 * one trace, their identity being the same.) */
static void
test_recorded_two_machines (void)
{
  const char *trace = recorded_trace ();
  if (trace == NULL)
    return;
  g_autofree char *both = ttv_test_dup_tmp_path ("two-machines");
  g_autofree char *first = g_build_filename (both, "first", NULL);
  g_autofree char *second = g_build_filename (both, "second", NULL);
  g_assert_cmpint (g_mkdir_with_parents (both, 0755), ==, 0);
  const char *copy1[] = { "/bin/cp", "-r", trace, first, NULL };
  const char *copy2[] = { "/bin/cp", "-r", trace, second, NULL };
  g_free (ttv_test_run_ok (copy1));
  g_free (ttv_test_run_ok (copy2));
  rename_host (second);
  const char *traces[] = { first, second, NULL };
  const char *args[] = { "--analysis", "callstack", "--format=jsonl", "--no-cache", NULL };
  g_autofree char *out = run_report (traces, args);
  g_assert_nonnull (strstr (out, "\"machine\":\"qq"));   /* the report names the machines */
  check_functions (traces, FALSE);
  check_memory (traces, 2);
  check_thread_clicks (traces);
}

int
main (int argc, char **argv)
{
  gtk_test_init (&argc, &argv, NULL);
  g_test_add_func ("/gui/userspace/functions-vs-report", test_functions);
  g_test_add_func ("/gui/userspace/recorded-vs-report", test_recorded);
  g_test_add_func ("/gui/userspace/recorded-two-machines", test_recorded_two_machines);
  return g_test_run ();
}
