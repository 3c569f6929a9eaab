/* test-filter-view.c: the tab's filter expression under Xvfb: what filtered
 * requests deliver (checked against the engine read independently), the
 * state.* terms, parse errors in the filter bar (nothing applied), the
 * shared history, the event list's rows and Find by expression, and the
 * histogram's count of matching events. */
#include "ttv-config.h"

#include "ttv-error.h"
#include "ttv-filter-bar.h"
#include "ttv-gui-test-util.h"
#include "ttv-test-util.h"
#include "ttv-tab-state-private.h"
#include "ttv-tab.h"
#include "ttv-viewer-registry.h"

#include <glib/gstdio.h>
#include <string.h>

/* --- The reference: every event of the sample, read by the engine ---------- */

typedef struct {
  char *name;       /* "facility.event" */
  gint cpu;
  TtvTime time;
} RefEvent;

static void
ref_event_free (gpointer data)
{
  g_free (((RefEvent *) data)->name);
  g_free (data);
}

static GPtrArray *
read_reference (TtvTraceset *ts)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvContext) ctx = ttv_context_new (ts, &error);
  GPtrArray *events = g_ptr_array_new_with_free_func (ref_event_free);
  const TtvEvent *ev;

  g_assert_true (ttv_context_seek_begin (ctx, &error));
  while ((ev = ttv_context_next (ctx, &error)) != NULL)
    {
      RefEvent *r = g_new0 (RefEvent, 1);

      r->name = g_strdup (ttv_viewer_event_get_name (TTV_GUI_TEST_EVENT (ev)));
      r->cpu = ev->tracefile->cpu;
      r->time = ev->time;
      g_ptr_array_add (events, r);
    }
  g_assert_no_error (error);
  return events;
}

/* --- A window with a tab ---------------------------------------------------- */

typedef TtvGuiTestTab Fixture;

static gboolean
fixture_setup (Fixture *f)
{
  const char *const modules[] = { TTV_EVENTS_MODULE_PATH, TTV_HISTOGRAM_MODULE_PATH, NULL };

  return ttv_gui_test_tab_setup (f, modules);
}

/* --- Filtered requests -------------------------------------------------------- */

typedef struct {
  GPtrArray *names;
  GArray *cpus;
  GArray *tids;
  gboolean done;
  TtvRequestStatus status;
} Collect;

static void
collect_init (Collect *c)
{
  memset (c, 0, sizeof *c);
  c->names = g_ptr_array_new_with_free_func (g_free);
  c->cpus = g_array_new (FALSE, FALSE, sizeof (gint));
  c->tids = g_array_new (FALSE, FALSE, sizeof (guint32));
}

static void
collect_clear (Collect *c)
{
  g_ptr_array_unref (c->names);
  g_array_unref (c->cpus);
  g_array_unref (c->tids);
}

static gboolean
on_event (TtvEventRequest *req, const TtvViewerEvent *ev, gpointer data)
{
  Collect *c = data;
  TtvViewerProcessInfo info;
  gint cpu = ttv_viewer_event_get_cpu (ev);

  g_ptr_array_add (c->names, g_strdup (ttv_viewer_event_get_name (ev)));
  g_array_append_val (c->cpus, cpu);
  ttv_event_request_get_process (req, &info);
  g_array_append_val (c->tids, info.pid);
  return TRUE;
}

static void
on_done (TtvEventRequest *req, TtvRequestStatus status, const GError *error, gpointer data)
{
  Collect *c = data;

  c->status = status;
  c->done = TRUE;
}

static gboolean
collect_done (gpointer data)
{
  return ((Collect *) data)->done;
}

static void
collect_all (Fixture *f, TtvRequestFlags flags, Collect *c)
{
  collect_init (c);
  ttv_tab_state_request_from_position (f->state, c, NULL, 0, flags, on_event, on_done, c, NULL);
  ttv_gui_test_spin_until (collect_done, c);
  g_assert_cmpint (c->status, ==, TTV_REQUEST_COMPLETED);
}

static void
test_tab_expression (void)
{
  Fixture f;
  g_autoptr (GPtrArray) ref = NULL;
  g_autoptr (GError) error = NULL;
  Collect c;
  guint expected = 0;

  if (!fixture_setup (&f))
    return;
  ref = read_reference (f.ts);

  /* A name glob and a CPU: counted independently on the engine's read. */
  g_assert_true (ttv_tab_state_set_filter (f.state, "event.name = \"*sched_switch\" & cpu = 1", &error));
  g_assert_no_error (error);
  for (guint i = 0; i < ref->len; i++)
    {
      const RefEvent *r = ref->pdata[i];
      expected += g_str_has_suffix (r->name, "sched_switch") && r->cpu == 1;
    }
  g_assert_cmpuint (expected, >, 0);
  collect_all (&f, TTV_REQUEST_FILTERED, &c);
  g_assert_cmpuint (c.names->len, ==, expected);
  for (guint i = 0; i < c.names->len; i++)
    {
      g_assert_true (g_str_has_suffix (c.names->pdata[i], "sched_switch"));
      g_assert_cmpint (g_array_index (c.cpus, gint, i), ==, 1);
    }
  collect_clear (&c);

  /* A bare word is a pattern on event names. */
  g_assert_true (ttv_tab_state_set_filter (f.state, "sched_switch", &error));
  expected = 0;
  for (guint i = 0; i < ref->len; i++)
    expected += strstr (((RefEvent *) ref->pdata[i])->name, "sched_switch") != NULL;
  collect_all (&f, TTV_REQUEST_FILTERED, &c);
  g_assert_cmpuint (c.names->len, ==, expected);
  collect_clear (&c);

  /* A parse error names the column and changes nothing. */
  g_assert_false (ttv_tab_state_set_filter (f.state, "event.name = sched & (cpu = ", &error));
  g_assert_error (error, TTV_FILTER_ERROR, TTV_FILTER_ERROR_SYNTAX);
  g_assert_nonnull (strstr (error->message, "column"));
  g_clear_error (&error);
  g_assert_cmpstr (ttv_tab_state_get_filter (f.state), ==, "sched_switch");
  g_assert_true (ttv_tab_state_set_filter (f.state, "", &error));
  ttv_gui_test_tab_teardown (&f);
}

/* state.* terms: the events a filter on the running thread delivers are
 * exactly those an unfiltered request with the state attributes to it. */
static void
test_state_expression (void)
{
  Fixture f;
  g_autoptr (GError) error = NULL;
  g_autofree char *expr = NULL;
  Collect all, some;
  guint32 tid = TTV_VIEWER_PID_NONE;
  guint expected = 0;

  if (!fixture_setup (&f))
    return;
  collect_all (&f, TTV_REQUEST_WITH_STATE, &all);
  /* A thread that runs somewhere in the middle of the trace. */
  for (guint i = all.tids->len / 2; i < all.tids->len && tid == TTV_VIEWER_PID_NONE; i++)
    if (g_array_index (all.tids, guint32, i) > 0 && g_array_index (all.tids, guint32, i) != TTV_VIEWER_PID_NONE)
      tid = g_array_index (all.tids, guint32, i);
  g_assert_cmpuint (tid, !=, TTV_VIEWER_PID_NONE);
  for (guint i = 0; i < all.tids->len; i++)
    expected += g_array_index (all.tids, guint32, i) == tid;

  expr = g_strdup_printf ("state.tid = %u", tid);
  g_assert_true (ttv_tab_state_set_filter (f.state, expr, &error));
  g_assert_no_error (error);
  g_assert_true (ttv_tab_state_filter_needs_state (f.state));
  /* No TTV_REQUEST_WITH_STATE: the filter asks for the state itself. */
  collect_all (&f, TTV_REQUEST_FILTERED, &some);
  g_assert_cmpuint (some.names->len, ==, expected);
  g_assert_cmpuint (some.names->len, <, all.names->len);
  collect_clear (&some);
  collect_clear (&all);
  ttv_gui_test_tab_teardown (&f);
}

/* --- Hook groups from the user's file ----------------------------------------------- */

/* event.group = NAME with a group of the file the hook-groups-file key
 * names (ttv-report --groups' format): what the requests deliver against
 * the engine; a broken file is an error naming its line; the key's reset
 * leaves the built-in groups only. */
static void
test_groups_file (void)
{
  Fixture f;
  g_autoptr (GPtrArray) ref = NULL;
  g_autoptr (GError) error = NULL;
  Collect some;

  if (!fixture_setup (&f))
    return;
  ref = read_reference (f.ts);
  /* Two event types of the sample, the first and one other. */
  const char *a = ((RefEvent *) ref->pdata[0])->name, *b = NULL;
  for (guint i = 1; i < ref->len && b == NULL; i++)
    if (strcmp (((RefEvent *) ref->pdata[i])->name, a) != 0)
      b = ((RefEvent *) ref->pdata[i])->name;
  g_assert_nonnull (b);
  guint expected = 0;
  for (guint i = 0; i < ref->len; i++)
    {
      const char *n = ((RefEvent *) ref->pdata[i])->name;
      expected += strcmp (n, a) == 0 || strcmp (n, b) == 0;
    }
  const char *dir = ttv_test_get_tmp_dir ();
  g_autofree char *path = g_build_filename (dir, "groups", NULL);
  g_autofree char *text = g_strdup_printf ("# mine\nmine: %s\nmine: %s\n", a, b);
  g_assert_true (g_file_set_contents (path, text, -1, &error));
  g_autoptr (GSettings) settings = g_settings_new ("org.ttv.Viewer");
  g_settings_set_string (settings, "hook-groups-file", path);

  g_assert_true (ttv_tab_state_set_filter (f.state, "event.group = mine", &error));
  g_assert_no_error (error);
  collect_all (&f, TTV_REQUEST_FILTERED, &some);
  g_assert_cmpuint (some.names->len, ==, expected);
  for (guint i = 0; i < some.names->len; i++)
    g_assert_true (strcmp (some.names->pdata[i], a) == 0 || strcmp (some.names->pdata[i], b) == 0);
  collect_clear (&some);

  /* A broken file: the filter is refused with the file's line. */
  g_assert_true (g_file_set_contents (path, "mine: x\n@bad\n", -1, &error));
  g_assert_false (ttv_tab_state_set_filter (f.state, "event.group = sched", &error));
  g_assert_nonnull (error);
  g_autofree char *where = g_strdup_printf ("%s:2", path);
  g_assert_nonnull (strstr (error->message, where));
  g_clear_error (&error);
  /* Back to the built-in groups: "mine" is unknown again, "sched" is not. */
  g_settings_reset (settings, "hook-groups-file");
  g_assert_true (ttv_tab_state_set_filter (f.state, "cpu = 0", &error));   /* not the current text */
  g_assert_false (ttv_tab_state_set_filter (f.state, "event.group = mine", &error));
  g_assert_nonnull (strstr (error->message, "unknown hook group 'mine'"));
  g_clear_error (&error);
  g_assert_true (ttv_tab_state_set_filter (f.state, "event.group = sched", &error));
  ttv_gui_test_tab_teardown (&f);
}

/* --- The filter bar --------------------------------------------------------------- */

static void
test_filter_bar (void)
{
  Fixture f;
  TtvFilterBar *bar;
  GtkWidget *entry;
  GtkComboBox *combo;
  GtkTreeModel *model;
  GtkTreeIter iter;
  g_autofree char *first = NULL;
  g_autofree char *tooltip = NULL;

  if (!fixture_setup (&f))
    return;
  bar = TTV_FILTER_BAR (ttv_gui_test_find_widget (GTK_WIDGET (f.tab), TTV_TYPE_FILTER_BAR, NULL));
  g_assert_nonnull (bar);
  combo = GTK_COMBO_BOX (ttv_gui_test_find_widget (GTK_WIDGET (bar), GTK_TYPE_COMBO_BOX, NULL));
  entry = gtk_bin_get_child (GTK_BIN (combo));

  g_assert_true (ttv_filter_bar_apply (bar, "cpu = 0"));
  g_assert_cmpstr (ttv_tab_state_get_filter (f.state), ==, "cpu = 0");
  g_assert_false (gtk_style_context_has_class (gtk_widget_get_style_context (entry), GTK_STYLE_CLASS_ERROR));

  /* Bad: marked in the entry with the parser's message; the tab keeps its filter. */
  g_assert_false (ttv_filter_bar_apply (bar, "cpu = = 1"));
  g_assert_cmpstr (ttv_tab_state_get_filter (f.state), ==, "cpu = 0");
  g_assert_true (gtk_style_context_has_class (gtk_widget_get_style_context (entry), GTK_STYLE_CLASS_ERROR));
  tooltip = gtk_entry_get_icon_tooltip_text (GTK_ENTRY (entry), GTK_ENTRY_ICON_SECONDARY);
  g_assert_nonnull (strstr (tooltip, "column"));

  /* History: most recent first, no duplicates, offered by the drop-down. */
  g_assert_true (ttv_filter_bar_apply (bar, "event.name = sched_*"));
  g_assert_true (ttv_filter_bar_apply (bar, "cpu = 0"));
  model = gtk_combo_box_get_model (combo);
  g_assert_cmpint (gtk_tree_model_iter_n_children (model, NULL), ==, 2);
  g_assert_true (gtk_tree_model_get_iter_first (model, &iter));
  gtk_tree_model_get (model, &iter, 0, &first, -1);
  g_assert_cmpstr (first, ==, "cpu = 0");
  /* Choosing from the history applies it. */
  gtk_combo_box_set_active (combo, 1);
  g_assert_cmpstr (ttv_tab_state_get_filter (f.state), ==, "event.name = sched_*");
  /* Set from elsewhere: the bar shows it. */
  g_assert_true (ttv_tab_state_set_filter (f.state, "", NULL));
  g_assert_cmpstr (gtk_entry_get_text (GTK_ENTRY (entry)), ==, "");
  ttv_gui_test_tab_teardown (&f);
}

/* --- The event list and the histogram follow the filter ------------------------- */

static GtkTreeView *
event_list_view (Fixture *f)
{
  GtkWidget *w = ttv_gui_test_find_widget (GTK_WIDGET (f->tab), GTK_TYPE_TREE_VIEW, NULL);

  g_assert_nonnull (w);
  return GTK_TREE_VIEW (w);
}

/* The "Event" column (4) of every row on screen. */
static GPtrArray *
list_event_names (Fixture *f)
{
  GtkTreeModel *model = gtk_tree_view_get_model (event_list_view (f));
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  GtkTreeIter iter;

  if (gtk_tree_model_get_iter_first (model, &iter))
    do
      {
        char *name;
        gtk_tree_model_get (model, &iter, 4, &name, -1);
        g_ptr_array_add (names, name);
      }
    while (gtk_tree_model_iter_next (model, &iter));
  return names;
}

static void
test_event_list (void)
{
  Fixture f;
  g_autoptr (GPtrArray) names = NULL;

  if (!fixture_setup (&f))
    return;
  g_assert_true (ttv_tab_state_set_filter (f.state, "event.name = *exit*", NULL));
  ttv_gui_test_spin_until (ttv_gui_test_no_requests, f.state);
  names = list_event_names (&f);
  g_assert_cmpuint (names->len, >, 5);
  for (guint i = 0; i < names->len; i++)
    g_assert_nonnull (strstr (names->pdata[i], "exit"));
  g_clear_pointer (&names, g_ptr_array_unref);

  /* Find by expression, inside the filtered list: the first event whose
   * name also says "syscall" gets selected. */
  {
    GtkWidget *expression = ttv_gui_test_find_widget (GTK_WIDGET (f.tab), GTK_TYPE_CHECK_BUTTON, "find-expression");
    GtkWidget *search = ttv_gui_test_find_widget (GTK_WIDGET (f.tab), GTK_TYPE_ENTRY, "find-entry");
    GtkTreeSelection *sel = gtk_tree_view_get_selection (event_list_view (&f));
    GtkTreeModel *model;
    GtkTreeIter iter;
    g_autofree char *name = NULL;

    g_assert_nonnull (expression);
    g_assert_nonnull (search);
    gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (expression), TRUE);
    /* A bad expression: the error, no search. */
    gtk_entry_set_text (GTK_ENTRY (search), "event.name = ");
    g_signal_emit_by_name (search, "activate");
    g_assert_cmpuint (ttv_tab_state_get_n_requests (f.state), ==, 0);
    gtk_entry_set_text (GTK_ENTRY (search), "event.name = *syscall*");
    g_signal_emit_by_name (search, "activate");
    ttv_gui_test_spin_until (ttv_gui_test_no_requests, f.state);
    g_assert_true (gtk_tree_selection_get_selected (sel, &model, &iter));
    gtk_tree_model_get (model, &iter, 4, &name, -1);
    g_assert_nonnull (strstr (name, "syscall"));
    g_assert_nonnull (strstr (name, "exit"));
  }
  ttv_gui_test_tab_teardown (&f);
}

static gboolean
histogram_counted (gpointer data)
{
  GtkLabel *label = data;

  return g_str_has_suffix (gtk_label_get_text (label), "matching events")
         || g_str_has_suffix (gtk_label_get_text (label), "matching event");
}

static void
test_histogram (void)
{
  Fixture f;
  g_autoptr (GPtrArray) ref = NULL;
  const TtvViewerInfo *info;
  GtkWidget *viewer;
  GtkLabel *status;
  g_autofree char *want = NULL;
  guint expected = 0;

  if (!fixture_setup (&f))
    return;
  info = ttv_viewer_registry_find ("histogram");
  g_assert_nonnull (info);
  viewer = g_object_ref_sink (info->new_viewer (f.state));
  status = GTK_LABEL (ttv_gui_test_find_widget (viewer, GTK_TYPE_LABEL, "histogram-status"));
  g_assert_nonnull (status);
  g_assert_cmpstr (gtk_label_get_text (status), ==, "");

  ref = read_reference (f.ts);
  for (guint i = 0; i < ref->len; i++)
    expected += ((RefEvent *) ref->pdata[i])->cpu == 0;
  g_assert_true (ttv_tab_state_set_filter (f.state, "cpu = 0", NULL));
  ttv_gui_test_spin_until (histogram_counted, status);
  want = g_strdup_printf ("%u matching events", expected);
  g_assert_cmpstr (gtk_label_get_text (status), ==, want);
  /* No filter: back to every event. */
  g_assert_true (ttv_tab_state_set_filter (f.state, "", NULL));
  g_assert_cmpstr (gtk_label_get_text (status), ==, "");
  gtk_widget_destroy (viewer);
  g_object_unref (viewer);
  ttv_gui_test_tab_teardown (&f);
}

/* The filter bar and the status bar say how many events match, counted in
 * the background (as the engine counts them); a histogram opened once the
 * filter is set counts the matching events at once. */
static gboolean
filter_counted (gpointer state)
{
  gboolean complete;

  ttv_tab_state_get_filter_count (state, &complete);
  return complete;
}

static void
test_match_count (void)
{
  Fixture f;
  g_autoptr (GPtrArray) ref = NULL;
  g_autofree char *bar_text = NULL, *status_text = NULL, *histogram_text = NULL;
  GtkLabel *bar_status, *summary, *histogram_status;
  const TtvViewerInfo *info;
  GtkWidget *viewer;
  guint expected = 0;
  gboolean complete;

  if (!fixture_setup (&f))
    return;
  bar_status = GTK_LABEL (ttv_gui_test_find_widget (GTK_WIDGET (f.tab), GTK_TYPE_LABEL, "filter-status"));
  summary = GTK_LABEL (ttv_gui_test_find_widget (GTK_WIDGET (f.tab), GTK_TYPE_LABEL, "status-summary"));
  g_assert_nonnull (bar_status);
  g_assert_nonnull (summary);
  ttv_gui_test_spin_until (ttv_gui_test_state_ready, f.state);
  g_assert_cmpuint (ttv_tab_state_get_filter_count (f.state, &complete), ==, 0);
  g_assert_true (complete);

  ref = read_reference (f.ts);
  for (guint i = 0; i < ref->len; i++)
    expected += strstr (((RefEvent *) ref->pdata[i])->name, "exit") != NULL;
  g_assert_cmpuint (expected, >, 0);
  g_assert_true (ttv_tab_state_set_filter (f.state, "event.name = *exit*", NULL));
  g_assert_true (g_str_has_prefix (gtk_label_get_text (bar_status), "Counting matching events"));
  ttv_gui_test_spin_until (filter_counted, f.state);
  g_assert_cmpuint (ttv_tab_state_get_filter_count (f.state, NULL), ==, expected);
  bar_text = g_strdup_printf ("%u of %u events match", expected, ref->len);
  g_assert_cmpstr (gtk_label_get_text (bar_status), ==, bar_text);
  status_text = g_strdup_printf ("%u match the filter", expected);
  g_assert_nonnull (strstr (gtk_label_get_text (summary), status_text));

  /* A histogram opened now: the matching events, without touching the filter. */
  info = ttv_viewer_registry_find ("histogram");
  viewer = g_object_ref_sink (info->new_viewer (f.state));
  histogram_status = GTK_LABEL (ttv_gui_test_find_widget (viewer, GTK_TYPE_LABEL, "histogram-status"));
  ttv_gui_test_spin_until (histogram_counted, histogram_status);
  histogram_text = g_strdup_printf ("%u matching events", expected);
  g_assert_cmpstr (gtk_label_get_text (histogram_status), ==, histogram_text);
  gtk_widget_destroy (viewer);
  g_object_unref (viewer);

  /* No filter: nothing said, nothing counted. */
  g_assert_true (ttv_tab_state_set_filter (f.state, "", NULL));
  g_assert_cmpstr (gtk_label_get_text (bar_status), ==, "");
  g_assert_null (strstr (gtk_label_get_text (summary), "match"));
  g_assert_cmpuint (ttv_tab_state_get_filter_count (f.state, &complete), ==, 0);
  g_assert_true (complete);
  ttv_gui_test_tab_teardown (&f);
}

int
main (int argc, char **argv)
{
  gtk_test_init (&argc, &argv, NULL);
  g_test_add_func ("/gui/filter/tab-expression", test_tab_expression);
  g_test_add_func ("/gui/filter/state-expression", test_state_expression);
  g_test_add_func ("/gui/filter/groups-file", test_groups_file);
  g_test_add_func ("/gui/filter/filter-bar", test_filter_bar);
  g_test_add_func ("/gui/filter/event-list", test_event_list);
  g_test_add_func ("/gui/filter/histogram", test_histogram);
  g_test_add_func ("/gui/filter/match-count", test_match_count);
  return g_test_run ();
}
