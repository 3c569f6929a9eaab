/* test-statistics.c: the statistics viewer in a real window under Xvfb, as
 * a user drives it: its CSV against the statistics the tests compute from
 * ttv-report --format=jsonl (whole trace and a selection; generated and
 * real CTF traces), the sums of parts, sorting by clicking the headers,
 * Ctrl+C and the copy action, PNG/SVG export of the rows shown,
 * `ttv --render statistics`, bad paths included, and the selection's
 * header in the user's time format. */
#include "ttv-config.h"

#include "ttv-gui-test-util.h"
#include "ttv-settings.h"
#include "ttv-stats-csv.h"
#include "ttv-stats-oracle.h"
#include "ttv-test-util.h"

#include <glib/gstdio.h>
#include <string.h>

typedef struct {
  TtvGuiTestTab tab;
  GtkWidget *viewer;
  GActionGroup *actions;
  GtkTreeView *view;
  const char *dir;           /* the test's temporary directory, for exports */
} Fixture;

static const char *const modules[] = { TTV_STATISTICS_MODULE_PATH, NULL };

static gboolean
has_actions (GtkWidget *widget, gconstpointer unused)
{
  return gtk_widget_get_action_group (widget, "statistics") != NULL;
}

static GtkWidget *
find (GtkWidget *widget, gboolean (*match) (GtkWidget *, gconstpointer), gconstpointer data)
{
  g_autoptr (GList) children = NULL;

  if (match (widget, data))
    return widget;
  if (!GTK_IS_CONTAINER (widget))
    return NULL;
  children = gtk_container_get_children (GTK_CONTAINER (widget));
  for (GList *l = children; l; l = l->next)
    {
      GtkWidget *found = find (l->data, match, data);
      if (found)
        return found;
    }
  return NULL;
}

/* The view has its tree and computes nothing. */
static gboolean
view_settled (gpointer data)
{
  Fixture *f = data;
  GtkWidget *spinner = ttv_gui_test_find_widget (f->viewer, GTK_TYPE_SPINNER, NULL);
  GtkTreeIter iter;
  gboolean active;

  g_object_get (spinner, "active", &active, NULL);
  return !active && gtk_tree_model_get_iter_first (gtk_tree_view_get_model (f->view), &iter);
}

static void
fixture_open (Fixture *f, const char *trace)
{
  memset (f, 0, sizeof *f);
  ttv_gui_test_tab_setup_path (&f->tab, trace, modules);
  g_assert_true (ttv_tab_show_viewer (f->tab.tab, "statistics"));
  f->viewer = find (GTK_WIDGET (f->tab.tab), has_actions, NULL);
  g_assert_nonnull (f->viewer);
  f->actions = gtk_widget_get_action_group (f->viewer, "statistics");
  f->view = GTK_TREE_VIEW (ttv_gui_test_find_widget (f->viewer, GTK_TYPE_TREE_VIEW, NULL));
  g_assert_nonnull (f->view);
  ttv_gui_test_spin_until (view_settled, f);
  f->dir = ttv_test_get_tmp_dir ();
}

static void
fixture_close (Fixture *f)
{
  ttv_gui_test_tab_teardown (&f->tab);
}

/* A trace of ttv-gen in @dir: CPU ids 0, 2 and 10 (names that sort
 * differently as text and as numbers). */
static char *
generate (const char *dir, const char *format)
{
  char *trace = g_build_filename (dir, format, NULL);
  const char *argv[] = { TTV_GEN_PATH, "-q", "-f", format, "--cpu-ids", "0,2,10", "-p", "24",
                         "-n", "30000", "-s", "3", "-o", trace, NULL };
  g_autofree char *out = ttv_test_run_ok (argv);

  return trace;
}

/* --- The CSV --------------------------------------------------------------- */

/* The CSV the view exports: key -> TtvStatsTtvStatsCsvRow; @order (may be NULL)
 * gets the keys in file order; @text (may be NULL) the file. */
static GHashTable *
export_csv_text (Fixture *f, GPtrArray *order, char **text)
{
  g_autofree char *path = g_build_filename (f->dir, "statistics.csv", NULL);
  g_autofree char *contents = NULL;
  GHashTable *rows;

  g_remove (path);
  g_action_group_activate_action (f->actions, "export-csv-to", g_variant_new_string (path));
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  rows = ttv_stats_csv_parse (contents, order);
  if (text)
    *text = g_steal_pointer (&contents);
  return rows;
}

static GHashTable *
export_csv (Fixture *f, GPtrArray *order)
{
  return export_csv_text (f, order, NULL);
}

static gboolean
traceset_count_is (gpointer data)
{
  gpointer *args = data;
  Fixture *f = args[0];
  g_autoptr (GHashTable) csv = NULL;

  if (!view_settled (f))
    return FALSE;
  csv = export_csv (f, NULL);
  return ((TtvStatsCsvRow *) g_hash_table_lookup (csv, "traceset"))->count == *(guint64 *) args[1];
}

/* ttv-report --stats prints the tree the view shows: its CSV, line for
 * line, is the view's export (@view_csv), of the whole traceset or, with
 * @a < @b, of the selection from @a to @b. */
static void
assert_report_tree (const char *trace, const char *view_csv, gint64 a, gint64 b)
{
  g_autofree char *from = ttv_test_dup_seconds (a), *to = ttv_test_dup_seconds (b);
  const char *whole[] = { TTV_REPORT_PATH, "--stats", "--format=csv", trace, NULL };
  const char *window[] = { TTV_REPORT_PATH, "--stats", "--format=csv", "--start", from, "--end", to, trace, NULL };
  g_autofree char *report_csv = ttv_test_run_ok (a < b ? window : whole);
  g_autoptr (GPtrArray) got = ttv_test_lines_of (report_csv), want = ttv_test_lines_of (view_csv);

  ttv_test_assert_same_lines (got, want);
  g_assert_cmpuint (got->len, >, 20);
}

/* The whole trace, then a selection from 30% to 60% of the events' span;
 * the statistics of both computed in one read of the events; the tree
 * ttv-report --stats prints, the same as the view's. */
static void
check_against_oracle (const char *trace)
{
  Fixture f;
  gint64 a, b;
  g_autoptr (GPtrArray) want = ttv_stats_oracle_compute_whole_and_window (TTV_REPORT_PATH, trace, &a, &b);
  g_autoptr (GHashTable) csv = NULL;
  g_autofree char *text = NULL;
  guint64 n;
  gpointer args[2];

  fixture_open (&f, trace);
  csv = export_csv_text (&f, NULL, &text);
  ttv_stats_csv_check (csv, want->pdata[0], "whole trace");
  assert_report_tree (trace, text, 0, 0);
  g_clear_pointer (&csv, g_hash_table_unref);
  g_clear_pointer (&text, g_free);

  n = ttv_stats_oracle_lookup (want->pdata[1], "traceset")->count;
  ttv_tab_state_set_selection (f.tab.state, a, b);
  args[0] = &f;
  args[1] = &n;
  ttv_gui_test_spin_until (traceset_count_is, args);
  csv = export_csv_text (&f, NULL, &text);
  ttv_stats_csv_check (csv, want->pdata[1], "selection");
  assert_report_tree (trace, text, a, b);
  fixture_close (&f);
}

static void
test_oracle_generated (gconstpointer data)
{
  const char *dir = ttv_test_get_tmp_dir ();
  g_autofree char *trace = generate (dir, data);

  check_against_oracle (trace);
}

static void
test_oracle_ctf (gconstpointer data)
{
  g_autofree char *path = ttv_test_dup_shared_ctf_trace (data);

  if (path)
    check_against_oracle (path);
}

/* The sample trace (200000 events: no oracle here, the analysis tests
 * check it): the view's tree and ttv-report's, whole and a selection. */
static void
test_report_sample (void)
{
  const char *trace = g_getenv ("TTV_SAMPLE_TRACE");
  g_autoptr (GHashTable) csv = NULL;
  g_autofree char *text = NULL;
  gint64 first, last, a, b;
  gpointer args[2];
  guint64 n;
  Fixture f;

  if (!trace)
    {
      g_test_skip ("TTV_SAMPLE_TRACE is not set: no sample trace");
      return;
    }
  fixture_open (&f, trace);
  csv = export_csv_text (&f, NULL, &text);
  ttv_stats_csv_assert_group_sums (csv);
  assert_report_tree (trace, text, 0, 0);
  g_clear_pointer (&csv, g_hash_table_unref);
  g_clear_pointer (&text, g_free);

  /* A selection of a tenth of the span; its event count from the report. */
  ttv_test_trace_span (trace, &first, &last);
  a = first + (last - first) * 4 / 10;
  b = first + (last - first) * 5 / 10;
  {
    g_autofree char *from = ttv_test_dup_seconds (a), *to = ttv_test_dup_seconds (b);
    const char *argv[] = { TTV_REPORT_PATH, "--format=jsonl", "--start", from, "--end", to, trace, NULL };
    g_autofree char *lines = ttv_test_run_ok (argv);
    g_autoptr (GPtrArray) events = ttv_test_lines_of (lines);

    n = events->len;
  }
  ttv_tab_state_set_selection (f.tab.state, a, b);
  args[0] = &f;
  args[1] = &n;
  ttv_gui_test_spin_until (traceset_count_is, args);
  csv = export_csv_text (&f, NULL, &text);
  ttv_stats_csv_assert_group_sums (csv);
  assert_report_tree (trace, text, a, b);
  fixture_close (&f);
}

/* --- Rows of the view ---------------------------------------------------------- */

typedef struct {
  const char *key;
  GtkTreePath *path;
} FindKey;

static gboolean
find_key (GtkTreeModel *model, GtkTreePath *path, GtkTreeIter *iter, gpointer data)
{
  FindKey *fk = data;
  g_autofree char *key = NULL;

  gtk_tree_model_get (model, iter, 6 /* COL_KEY */, &key, -1);
  if (g_strcmp0 (key, fk->key) != 0)
    return FALSE;
  fk->path = gtk_tree_path_copy (path);
  return TRUE;
}

static GtkTreePath *
path_of (Fixture *f, const char *key)
{
  FindKey fk = { key, NULL };

  gtk_tree_model_foreach (gtk_tree_view_get_model (f->view), find_key, &fk);
  g_assert_nonnull (fk.path);
  return fk.path;
}

/* The names of the children of @key, in the view's order. */
static GPtrArray *
child_names (Fixture *f, const char *key)
{
  GtkTreeModel *model = gtk_tree_view_get_model (f->view);
  g_autoptr (GtkTreePath) path = path_of (f, key);
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);
  GtkTreeIter parent, child;

  g_assert_true (gtk_tree_model_get_iter (model, &parent, path));
  if (gtk_tree_model_iter_children (model, &child, &parent))
    do
      {
        char *name;
        gtk_tree_model_get (model, &child, 0, &name, -1);
        g_ptr_array_add (out, name);
      }
    while (gtk_tree_model_iter_next (model, &child));
  return out;
}

/* Their CPU time or total duration, in the view's order. */
static GArray *
child_totals (Fixture *f, const char *key)
{
  GtkTreeModel *model = gtk_tree_view_get_model (f->view);
  g_autoptr (GtkTreePath) path = path_of (f, key);
  GArray *out = g_array_new (FALSE, FALSE, sizeof (gint64));
  GtkTreeIter parent, child;

  g_assert_true (gtk_tree_model_get_iter (model, &parent, path));
  if (gtk_tree_model_iter_children (model, &child, &parent))
    do
      {
        gint64 total;
        gtk_tree_model_get (model, &child, 2, &total, -1);
        g_array_append_val (out, total);
      }
    while (gtk_tree_model_iter_next (model, &child));
  return out;
}

/* What the tracer lost (issue 14 §3.6): the view shows the events and the
 * packets lost, by trace and tracefile, right after the traces, as
 * ttv-report --stats prints them; a selection before the losses has none. */
static void
test_lost (void)
{
  static const TtvTestLostOptions lost = { .ctf2 = TRUE, .later_discarded = 9, .skip_packets = TRUE };
  g_autofree char *trace = ttv_test_write_lost_ctf ("lost", &lost);
  g_autoptr (GHashTable) csv = NULL;
  g_autofree char *text = NULL;
  gint64 first, last;
  gpointer args[2];
  guint64 n;
  Fixture f;

  fixture_open (&f, trace);
  csv = export_csv_text (&f, NULL, &text);
  ttv_stats_csv_assert_group_sums (csv);
  assert_report_tree (trace, text, 0, 0);
  g_assert_cmpuint (((TtvStatsCsvRow *) g_hash_table_lookup (csv, "lost-events/trace/0/channel0_0"))->count, ==, 9);
  g_assert_cmpuint (((TtvStatsCsvRow *) g_hash_table_lookup (csv, "lost-packets/trace/0/channel0_0"))->count, ==, 2);
  {
    g_autoptr (GPtrArray) groups = child_names (&f, "traceset");
    g_autoptr (GPtrArray) files = child_names (&f, "lost-events/trace/0");

    g_assert_cmpuint (groups->len, >, 3);
    g_assert_cmpstr (groups->pdata[0], ==, "Traces");
    g_assert_cmpstr (groups->pdata[1], ==, "Lost events");
    g_assert_cmpstr (groups->pdata[2], ==, "Lost packets");
    g_assert_cmpuint (files->len, ==, 1);
    g_assert_cmpstr (files->pdata[0], ==, "channel0_0");
  }
  g_clear_pointer (&csv, g_hash_table_unref);
  g_clear_pointer (&text, g_free);

  /* The first tenth of the events: the losses come later. */
  ttv_test_trace_span (trace, &first, &last);
  {
    g_autofree char *from = ttv_test_dup_seconds (first), *to = ttv_test_dup_seconds (first + (last - first) / 10);
    const char *argv[] = { TTV_REPORT_PATH, "--stats", "--format=csv", "--start", from, "--end", to, trace, NULL };
    g_autofree char *report = ttv_test_run_ok (argv);
    g_autoptr (GHashTable) rows = ttv_stats_csv_parse (report, NULL);

    n = ((TtvStatsCsvRow *) g_hash_table_lookup (rows, "traceset"))->count;
    g_assert_null (g_hash_table_lookup (rows, "lost-events"));
  }
  ttv_tab_state_set_selection (f.tab.state, first, first + (last - first) / 10);
  args[0] = &f;
  args[1] = &n;
  ttv_gui_test_spin_until (traceset_count_is, args);
  csv = export_csv_text (&f, NULL, &text);
  g_assert_null (g_hash_table_lookup (csv, "lost-events"));
  g_assert_null (g_hash_table_lookup (csv, "lost-packets"));
  assert_report_tree (trace, text, first, first + (last - first) / 10);
  fixture_close (&f);
}

static void
click_header (Fixture *f, guint column)
{
  GtkTreeViewColumn *col = gtk_tree_view_get_column (f->view, (gint) column);

  gtk_button_clicked (GTK_BUTTON (gtk_tree_view_column_get_button (col)));
  ttv_gui_test_spin_pending ();
}

static GtkSortType
sort_order (Fixture *f, gint expected_column)
{
  gint column;
  GtkSortType order;

  g_assert_true (gtk_tree_sortable_get_sort_column_id (GTK_TREE_SORTABLE (gtk_tree_view_get_model (f->view)),
                                                       &column, &order));
  g_assert_cmpint (column, ==, expected_column);
  return order;
}

static void
assert_totals_sorted (GArray *totals, GtkSortType order)
{
  g_assert_cmpuint (totals->len, >, 3);
  for (guint i = 1; i < totals->len; i++)
    {
      gint64 prev = g_array_index (totals, gint64, i - 1), cur = g_array_index (totals, gint64, i);

      if (order == GTK_SORT_ASCENDING)
        g_assert_cmpint (prev, <=, cur);
      else
        g_assert_cmpint (prev, >=, cur);
    }
}

static void
save_shot (Fixture *f, const char *name)
{
  const char *shots = g_getenv ("TTV_GUI_SHOTS");
  GdkWindow *win;
  g_autoptr (GdkPixbuf) pix = NULL;
  g_autofree char *path = NULL;

  if (!shots)
    return;
  ttv_gui_test_spin_for (300);
  win = gtk_widget_get_window (f->tab.window);
  pix = gdk_pixbuf_get_from_window (win, 0, 0, gdk_window_get_width (win), gdk_window_get_height (win));
  path = g_build_filename (shots, name, NULL);
  gdk_pixbuf_save (pix, path, "png", NULL, NULL);
}

/* Clicking the headers: names in the order people count (CPU 2 before
 * CPU 10), CPU time both ways, the idle task not on top. */
static void
test_sort (void)
{
  const char *dir = ttv_test_get_tmp_dir ();
  g_autofree char *trace = generate (dir, "ltt");
  g_autoptr (GPtrArray) cpus = NULL, procs = NULL;
  g_autoptr (GArray) totals = NULL, totals2 = NULL;
  Fixture f;
  GtkSortType first;

  fixture_open (&f, trace);
  click_header (&f, 0);
  g_assert_cmpint (sort_order (&f, 0), ==, GTK_SORT_ASCENDING);
  cpus = child_names (&f, "cpu");
  g_assert_cmpuint (cpus->len, ==, 3);
  g_assert_cmpstr (cpus->pdata[0], ==, "CPU 0");
  g_assert_cmpstr (cpus->pdata[1], ==, "CPU 2");
  g_assert_cmpstr (cpus->pdata[2], ==, "CPU 10");

  click_header (&f, 2);
  first = sort_order (&f, 2);
  totals = child_totals (&f, "process");
  assert_totals_sorted (totals, first);
  click_header (&f, 2);
  g_assert_cmpint (sort_order (&f, 2), !=, first);
  totals2 = child_totals (&f, "process");
  assert_totals_sorted (totals2, first == GTK_SORT_ASCENDING ? GTK_SORT_DESCENDING : GTK_SORT_ASCENDING);
  if (sort_order (&f, 2) == GTK_SORT_ASCENDING)
    click_header (&f, 2);
  procs = child_names (&f, "process");
  g_assert_false (g_str_has_prefix (procs->pdata[0], "swapper"));
  /* The CSV follows the view's order. */
  {
    g_autoptr (GPtrArray) order = g_ptr_array_new_with_free_func (g_free);
    g_autoptr (GHashTable) csv = export_csv (&f, order);
    g_autofree char *top = NULL;

    for (guint i = 0; i < order->len && !top; i++)
      if (g_str_has_prefix (order->pdata[i], "process/") && !strchr ((char *) order->pdata[i] + 8, '/'))
        top = g_strdup (((TtvStatsCsvRow *) g_hash_table_lookup (csv, order->pdata[i]))->name);
    g_assert_cmpstr (top, ==, procs->pdata[0]);
  }
  {
    g_autoptr (GtkTreePath) path = path_of (&f, "process");
    gtk_tree_view_expand_to_path (f.view, path);
    gtk_tree_view_expand_row (f.view, path, FALSE);
  }
  save_shot (&f, "ttv-statistics-sorted.png");
  fixture_close (&f);
}

/* --- Copy ---------------------------------------------------------------------- */

/* "1.234 ms" -> ns; "" -> -1. */
static gint64
parse_shown_duration (const char *text)
{
  static const struct { const char *unit; double scale; } units[] = {
    { "ns", 1 }, { "µs", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
  };
  char *end = NULL;
  double v;

  if (!*text)
    return -1;
  v = g_ascii_strtod (text, &end);
  g_assert_true (end != text && *end == ' ');
  for (guint i = 0; i < G_N_ELEMENTS (units); i++)
    if (strcmp (end + 1, units[i].unit) == 0)
      return (gint64) (v * units[i].scale + 0.5);
  g_error ("no unit in “%s”", text);
}

/* Shown with four significant digits: within 0.05% of the exact value. */
static void
assert_close (const char *shown, gint64 exact)
{
  gint64 v = parse_shown_duration (shown);

  if (exact < 0)
    {
      g_assert_cmpint (v, ==, -1);
      return;
    }
  g_assert_cmpint (ABS (v - exact), <=, exact / 2000 + 1);
}

static void
assert_copied_row (const char *line, const TtvStatsCsvRow *row)
{
  g_auto (GStrv) cells = g_strsplit (line, "\t", -1);
  g_autofree char *count = row->count ? g_strdup_printf ("%" G_GUINT64_FORMAT, row->count) : g_strdup ("");

  g_assert_cmpuint (g_strv_length (cells), ==, 6);
  g_assert_cmpstr (cells[0], ==, row->name);
  g_assert_cmpstr (cells[1], ==, count);
  assert_close (cells[2], row->total);
  assert_close (cells[3], row->average);
  assert_close (cells[4], row->min);
  assert_close (cells[5], row->max);
}

static void
select_keys (Fixture *f, const char *const *keys)
{
  GtkTreeSelection *sel = gtk_tree_view_get_selection (f->view);

  gtk_tree_selection_unselect_all (sel);
  for (guint i = 0; keys[i]; i++)
    {
      g_autoptr (GtkTreePath) path = path_of (f, keys[i]);

      gtk_tree_view_expand_to_path (f->view, path);
      gtk_tree_selection_select_path (sel, path);
    }
}

/* The key event as the window would deliver it to the focused view (the
 * X server of the tests gives no window the keyboard focus). */
static void
send_ctrl_c (GtkWidget *view)
{
  GdkEvent *ev = gdk_event_new (GDK_KEY_PRESS);

  ev->key.window = g_object_ref (gtk_widget_get_window (view));
  ev->key.keyval = GDK_KEY_c;
  ev->key.state = GDK_CONTROL_MASK;
  ev->key.time = GDK_CURRENT_TIME;
  gdk_event_set_device (ev, gdk_seat_get_keyboard (gdk_display_get_default_seat (gdk_display_get_default ())));
  g_assert_true (gtk_widget_event (view, ev));
  gdk_event_free (ev);
}

static char *
clipboard_text (void)
{
  GtkClipboard *clipboard = gtk_clipboard_get (GDK_SELECTION_CLIPBOARD);

  return gtk_clipboard_wait_for_text (clipboard);
}

/* Ctrl+C and the copy action: the selected rows as shown, tab separated,
 * with durations that agree with the CSV's exact values. */
static void
test_copy (void)
{
  const char *dir = ttv_test_get_tmp_dir ();
  g_autofree char *trace = generate (dir, "ltt");
  const char *const two[] = { "cpu/2", "syscall/read", NULL };
  const char *const one[] = { "irq/0", NULL };
  g_autoptr (GHashTable) csv = NULL;
  g_autofree char *text = NULL, *text2 = NULL;
  g_auto (GStrv) lines = NULL, lines2 = NULL;
  Fixture f;

  fixture_open (&f, trace);
  csv = export_csv (&f, NULL);
  select_keys (&f, two);
  gtk_clipboard_set_text (gtk_clipboard_get (GDK_SELECTION_CLIPBOARD), "", 0);
  gtk_widget_grab_focus (GTK_WIDGET (f.view));
  send_ctrl_c (GTK_WIDGET (f.view));
  text = clipboard_text ();
  g_assert_nonnull (text);
  lines = g_strsplit (text, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 3);
  g_assert_cmpstr (lines[2], ==, "");
  assert_copied_row (lines[0], g_hash_table_lookup (csv, "cpu/2"));
  assert_copied_row (lines[1], g_hash_table_lookup (csv, "syscall/read"));

  select_keys (&f, one);
  g_action_group_activate_action (f.actions, "copy", NULL);
  text2 = clipboard_text ();
  lines2 = g_strsplit (text2, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines2), ==, 2);
  assert_copied_row (lines2[0], g_hash_table_lookup (csv, "irq/0"));
  g_assert_true (g_str_has_prefix (lines2[0], "IRQ 0 timer\t"));
  fixture_close (&f);
}

/* --- Images ---------------------------------------------------------------------- */

static void
export_image (Fixture *f, const char *name, int *width, int *height)
{
  g_autofree char *path = g_build_filename (f->dir, name, NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GdkPixbuf) pix = NULL;

  g_remove (path);
  g_action_group_activate_action (f->actions, "export", g_variant_new_string (path));
  pix = gdk_pixbuf_new_from_file (path, &error);
  g_assert_no_error (error);
  *width = gdk_pixbuf_get_width (pix);
  *height = gdk_pixbuf_get_height (pix);
}

typedef struct {
  GPtrArray *texts;        /* the <text> contents, in order */
  GString *cur;            /* inside a <text>, else NULL */
  gboolean svg_root;
  gint width, height;
} SvgScan;

static void
svg_start (GMarkupParseContext *ctx, const char *element, const char **names, const char **values,
           gpointer data, GError **error)
{
  SvgScan *s = data;

  if (strcmp (element, "svg") == 0)
    {
      s->svg_root = TRUE;
      for (guint i = 0; names[i]; i++)
        if (strcmp (names[i], "width") == 0)
          s->width = (gint) g_ascii_strtoll (values[i], NULL, 10);
        else if (strcmp (names[i], "height") == 0)
          s->height = (gint) g_ascii_strtoll (values[i], NULL, 10);
    }
  else if (strcmp (element, "text") == 0)
    s->cur = g_string_new (NULL);
}

static void
svg_end (GMarkupParseContext *ctx, const char *element, gpointer data, GError **error)
{
  SvgScan *s = data;

  if (strcmp (element, "text") == 0 && s->cur)
    g_ptr_array_add (s->texts, g_string_free (g_steal_pointer (&s->cur), FALSE));
}

static void
svg_text (GMarkupParseContext *ctx, const char *text, gsize len, gpointer data, GError **error)
{
  SvgScan *s = data;

  if (s->cur)
    g_string_append_len (s->cur, text, (gssize) len);
}

/* The SVG parses (well-formed XML); its texts in order. */
static GPtrArray *
scan_svg (const char *path, SvgScan *s)
{
  static const GMarkupParser parser = { svg_start, svg_end, svg_text, NULL, NULL };
  g_autofree char *text = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GMarkupParseContext) ctx = NULL;

  memset (s, 0, sizeof *s);
  s->texts = g_ptr_array_new_with_free_func (g_free);
  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  ctx = g_markup_parse_context_new (&parser, 0, s, NULL);
  g_assert_true (g_markup_parse_context_parse (ctx, text, -1, &error) && g_markup_parse_context_end_parse (ctx, &error));
  g_assert_no_error (error);
  g_assert_true (s->svg_root);
  return s->texts;
}

static gboolean
has_text (GPtrArray *texts, const char *text)
{
  for (guint i = 0; i < texts->len; i++)
    if (strcmp (texts->pdata[i], text) == 0)
      return TRUE;
  return FALSE;
}

/* Pixels that are not the white background, and whether the header's
 * grey is there. */
static void
scan_png (const char *path, double *inked, gboolean *header)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GdkPixbuf) pix = gdk_pixbuf_new_from_file (path, &error);
  int w, h, stride, n, count = 0;
  const guchar *px;

  g_assert_no_error (error);
  w = gdk_pixbuf_get_width (pix);
  h = gdk_pixbuf_get_height (pix);
  stride = gdk_pixbuf_get_rowstride (pix);
  n = gdk_pixbuf_get_n_channels (pix);
  px = gdk_pixbuf_read_pixels (pix);
  *header = FALSE;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        const guchar *p = px + y * stride + x * n;
        count += p[0] != 0xff || p[1] != 0xff || p[2] != 0xff;
        *header |= p[0] == 0xe6 && p[1] == 0xe6 && p[2] == 0xe6;
      }
  *inked = (double) count / (w * h);
}

static const char *
scope_text (Fixture *f)
{
  GtkWidget *label = ttv_gui_test_find_widget (f->viewer, GTK_TYPE_LABEL, NULL);
  return gtk_label_get_text (GTK_LABEL (label));
}

/* PNG and SVG of the rows shown: one more row per expanded child, the
 * names in the SVG's text, bad paths reported. */
static void
test_export_image (void)
{
  const char *dir = ttv_test_get_tmp_dir ();
  g_autofree char *trace = generate (dir, "ctf");
  g_autoptr (GHashTable) csv = NULL;
  g_autoptr (GtkTreePath) procs = NULL, cpus = NULL;
  g_autofree char *svg = NULL, *png = NULL;
  GPtrArray *texts;
  guint n_procs = 0, n_cpus = 0;
  int w0, h0, w1, h1, w2, h2, row_h;
  GHashTableIter it;
  gpointer key, value;
  SvgScan scan;
  double inked;
  gboolean header;
  Fixture f;

  fixture_open (&f, trace);
  csv = export_csv (&f, NULL);
  g_hash_table_iter_init (&it, csv);
  while (g_hash_table_iter_next (&it, &key, NULL))
    {
      n_procs += g_str_has_prefix (key, "process/") && !strchr ((char *) key + 8, '/');
      n_cpus += g_str_has_prefix (key, "cpu/") && !strchr ((char *) key + 4, '/');
    }
  g_assert_cmpuint (n_procs, >, 5);

  g_action_group_activate_action (f.actions, "collapse-all", NULL);
  export_image (&f, "collapsed.png", &w0, &h0);
  procs = path_of (&f, "process");
  gtk_tree_view_expand_row (f.view, procs, FALSE);
  export_image (&f, "processes.png", &w1, &h1);
  row_h = (h1 - h0) / (int) n_procs;
  g_assert_cmpint ((h1 - h0) % (int) n_procs, ==, 0);
  g_assert_cmpint (row_h, >=, 12);
  g_assert_cmpint (w1, >=, w0);
  cpus = path_of (&f, "cpu");
  gtk_tree_view_expand_row (f.view, cpus, FALSE);
  export_image (&f, "cpus.png", &w2, &h2);
  g_assert_cmpint (h2 - h1, ==, (int) n_cpus * row_h);
  /* Title, header and the root with its 7 groups, and the margins. */
  g_assert_cmpint (h0, >, 10 * row_h);
  g_assert_cmpint (h0, <, 11 * row_h);

  png = g_build_filename (f.dir, "cpus.png", NULL);
  scan_png (png, &inked, &header);
  g_assert_true (header);
  g_assert_cmpfloat (inked, >, 0.02);

  svg = g_build_filename (f.dir, "statistics.svg", NULL);
  g_action_group_activate_action (f.actions, "export", g_variant_new_string (svg));
  texts = scan_svg (svg, &scan);
  g_assert_cmpint (scan.width, ==, w2);
  g_assert_cmpint (scan.height, ==, h2);
  {
    g_autofree char *title = g_strdup_printf ("ctf: %s", scope_text (&f));
    g_assert_cmpstr (texts->pdata[0], ==, title);
  }
  g_hash_table_iter_init (&it, csv);
  while (g_hash_table_iter_next (&it, &key, &value))
    if (g_str_has_prefix (key, "process/") && !strchr ((char *) key + 8, '/'))
      g_assert_true (has_text (texts, ((TtvStatsCsvRow *) value)->name));
  g_assert_true (has_text (texts, "CPU 0"));
  g_assert_false (has_text (texts, "read"));     /* syscalls: collapsed */

  /* Bad paths: a message naming the file, no crash. */
  g_action_group_activate_action (f.actions, "export", g_variant_new_string ("/nonexistent/dir/x.png"));
  g_assert_true (g_str_has_prefix (scope_text (&f), "Export failed"));
  g_assert_nonnull (strstr (scope_text (&f), "/nonexistent/dir/x.png"));
  g_action_group_activate_action (f.actions, "export", g_variant_new_string ("/nonexistent/dir/x.svg"));
  g_assert_nonnull (strstr (scope_text (&f), "/nonexistent/dir/x.svg"));
  g_action_group_activate_action (f.actions, "export-csv-to", g_variant_new_string ("/nonexistent/dir/x.csv"));
  g_assert_nonnull (strstr (scope_text (&f), "/nonexistent/dir/x.csv"));
  g_ptr_array_unref (texts);
  fixture_close (&f);
}

/* --- ttv --render statistics ------------------------------------------------------ */

/* The environment this test started with: ttv --render runs in it. */
static char **viewer_env;

static int
run_status (const char *const *argv, char **err)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *out = NULL;
  /* No display: none is needed. */
  g_auto (GStrv) env = g_environ_unsetenv (g_environ_unsetenv (g_strdupv (viewer_env), "DISPLAY"),
                                           "WAYLAND_DISPLAY");
  int status = 0;

  g_assert_true (g_spawn_sync (NULL, (char **) argv, env, G_SPAWN_DEFAULT, NULL, NULL, &out, err,
                               &status, &error));
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (status));
  return WEXITSTATUS (status);
}

static void
test_render (void)
{
  const char *dir = ttv_test_get_tmp_dir ();
  g_autofree char *trace = generate (dir, "lttng");
  g_autofree char *png = g_build_filename (dir, "render.png", NULL);
  g_autofree char *svg = g_build_filename (dir, "render.svg", NULL);
  g_autofree char *err = NULL, *err2 = NULL, *err3 = NULL, *window = NULL;
  g_autoptr (GHashTable) want = NULL;
  g_autoptr (GdkPixbuf) pix = NULL;
  g_autoptr (GError) error = NULL;
  gint64 first, last, a, b;
  g_autofree char *count = NULL;
  GPtrArray *texts;
  SvgScan scan;
  gboolean found = FALSE;

  {
    const char *argv[] = { TTV_EXE_PATH, "--render", "statistics", "--trace", trace, "--size", "900x600",
                           "-o", png, NULL };
    g_assert_cmpint (run_status (argv, &err), ==, 0);
  }
  pix = gdk_pixbuf_new_from_file (png, &error);
  g_assert_no_error (error);
  g_assert_cmpint (gdk_pixbuf_get_width (pix), ==, 900);
  g_assert_cmpint (gdk_pixbuf_get_height (pix), ==, 600);

  /* A window: the statistics of its events, as the events say. */
  ttv_test_trace_span (trace, &first, &last);
  a = first + (last - first) / 4;
  b = first + (last - first) / 2;
  want = ttv_stats_oracle_compute (TTV_REPORT_PATH, trace, a, b, NULL, NULL);
  window = g_strdup_printf ("%" G_GINT64_FORMAT ".%09" G_GINT64_FORMAT ":%" G_GINT64_FORMAT ".%09" G_GINT64_FORMAT,
                            a / 1000000000, a % 1000000000, b / 1000000000, b % 1000000000);
  {
    const char *argv[] = { TTV_EXE_PATH, "--render", "statistics", "--trace", trace, "--window", window,
                           "-o", svg, NULL };
    g_assert_cmpint (run_status (argv, &err2), ==, 0);
  }
  texts = scan_svg (svg, &scan);
  count = g_strdup_printf ("%" G_GUINT64_FORMAT, ttv_stats_oracle_lookup (want, "traceset")->count);
  for (guint i = 0; i + 1 < texts->len; i++)
    if (strcmp (texts->pdata[i], "Traceset") == 0)
      {
        g_assert_cmpstr (texts->pdata[i + 1], ==, count);
        found = TRUE;
      }
  g_assert_true (found);
  g_assert_nonnull (strstr (texts->pdata[0], "time window"));
  g_ptr_array_unref (texts);

  /* A trace that is not there: exit status 1, a message naming it. */
  {
    const char *argv[] = { TTV_EXE_PATH, "--render", "statistics", "--trace", "/nonexistent/trace",
                           "-o", png, NULL };
    g_assert_cmpint (run_status (argv, &err3), ==, 1);
    g_assert_nonnull (strstr (err3, "/nonexistent/trace"));
  }
}

/* --- The header ------------------------------------------------------------------ */

/* @t written out here in each format: "+S.N" after @origin, "S.N", and
 * "HH:MM:SS.NZ". */
static char *
time_text (const char *format, gint64 t, gint64 origin)
{
  g_autoptr (GDateTime) utc = g_date_time_new_from_unix_utc (t / 1000000000);
  g_autofree char *hms = g_date_time_format (utc, "%H:%M:%S");

  if (strcmp (format, "relative") == 0)
    return g_strdup_printf ("+%" G_GINT64_FORMAT ".%09" G_GINT64_FORMAT, (t - origin) / 1000000000,
                            (t - origin) % 1000000000);
  if (strcmp (format, "absolute") == 0)
    return g_strdup_printf ("%" G_GINT64_FORMAT ".%09" G_GINT64_FORMAT, t / 1000000000, t % 1000000000);
  return g_strdup_printf ("%s.%09" G_GINT64_FORMAT "Z", hms, t % 1000000000);
}

/* "Statistics of the selection A – B" gives A and B as every other view
 * does, and again when the user chooses another format (it printed epoch
 * seconds in the relative format: issue 16). */
static void
test_header_time_format (void)
{
  static const char *const formats[] = { "relative", "utc", "absolute", "relative" };
  const char *trace = g_getenv ("TTV_SAMPLE_TRACE");
  GSettings *settings = ttv_settings_get ();
  TtvTime start, end, a, b;
  Fixture f;

  if (!trace || !settings)
    {
      g_test_skip ("no sample trace (TTV_SAMPLE_TRACE) or no settings schema");
      return;
    }
  g_settings_set_string (settings, "time-format", "relative");
  fixture_open (&f, trace);
  ttv_tab_state_get_time_span (f.tab.state, &start, &end);
  a = start + (end - start) / 10 + 123;
  b = start + (end - start) / 5 + 4567;
  ttv_tab_state_set_selection (f.tab.state, a, b);
  ttv_gui_test_spin_until (view_settled, &f);
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      g_autofree char *from = time_text (formats[i], a, start), *to = time_text (formats[i], b, start);
      g_autofree char *want = g_strdup_printf ("Statistics of the selection %s – %s", from, to);

      g_settings_set_string (settings, "time-format", formats[i]);
      ttv_gui_test_spin_pending ();
      g_assert_cmpstr (scope_text (&f), ==, want);
    }
  /* The figures stay those of the selection. */
  g_assert_true (view_settled (&f));
  g_settings_reset (settings, "time-format");
  fixture_close (&f);
}

int
main (int argc, char **argv)
{
  int status;

  gtk_test_init (&argc, &argv, NULL);
  /* LeakSanitizer's slow, full stacks (this test's LSAN_OPTIONS) tell
   * GLib's and fontconfig's process-long allocations in the viewer from
   * leaks.  The command-line programs the test runs (ttv-gen, ttv-report)
   * are checked as in their own tests, with the shared suppressions and
   * fast stacks: ten times faster under ASan.  ttv --render keeps the
   * viewer's options. */
  viewer_env = g_get_environ ();
  g_setenv ("LSAN_OPTIONS", "suppressions=" TTV_TEST_SRCDIR "/lsan.supp", TRUE);
  g_test_add_data_func ("/gui/statistics/oracle/ltt", "ltt", test_oracle_generated);
  g_test_add_data_func ("/gui/statistics/oracle/ctf", "ctf", test_oracle_generated);
  g_test_add_data_func ("/gui/statistics/oracle/arm64-kernel", "arm64-kernel", test_oracle_ctf);
  g_test_add_data_func ("/gui/statistics/oracle/scp-kernel", "scp-kernel", test_oracle_ctf);
  g_test_add_func ("/gui/statistics/report/sample", test_report_sample);
  g_test_add_func ("/gui/statistics/lost", test_lost);
  g_test_add_func ("/gui/statistics/header-time-format", test_header_time_format);
  g_test_add_func ("/gui/statistics/sort", test_sort);
  g_test_add_func ("/gui/statistics/copy", test_copy);
  g_test_add_func ("/gui/statistics/export-image", test_export_image);
  g_test_add_func ("/gui/statistics/render", test_render);
  status = g_test_run ();
  g_strfreev (viewer_env);
  return status;
}
