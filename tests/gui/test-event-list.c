/* test-event-list.c: the detailed event list under Xvfb, as a user meets
 * it: columns shown and hidden from the header menu and the Columns button
 * and remembered with their widths; the time format applied to the list,
 * the time bar and the bookmarks panel, and the entries reading it back;
 * the delta after a jump; lost-events rows where they happened, set apart;
 * Find by text in every visible column, next and previous, with F3 and
 * Shift+F3 in the list; the keyboard in the list when a tab opens; the
 * selected thread's events in bold, on its own machine only; names that
 * are not UTF-8 shown.
 * Expected values come from the engine read independently. */
#include "ttv-config.h"

#include "ttv-ctf-private.h"
#include "ttv-bookmarks-panel.h"
#include "ttv-filter-bar.h"
#include "ttv-gui-test-util.h"
#include "ttv-settings.h"
#include "ttv-state-tracker.h"
#include "ttv-tab-state-private.h"
#include "ttv-tab.h"
#include "ttv-test-util.h"
#include "ttv-time-display.h"
#include "ttv-time-bar.h"

#include <glib/gstdio.h>
#include <string.h>

/* The store of the list: texts at the column indexes, then the style,
 * the foreground and the row's machine. */
enum { COL_TIME, COL_DELTA, COL_TRACE, COL_CPU, COL_EVENT, COL_PID, COL_PROCESS, COL_MODE, COL_SYMBOL,
       COL_FIELDS, MODEL_STYLE, MODEL_FOREGROUND, MODEL_MACHINE };

static const char *const column_names[] = {
  "time", "delta", "trace", "cpu", "event", "pid", "process", "mode", "symbol", "fields",
};

/* --- A window with a tab on any traceset ------------------------------------- */

typedef struct {
  TtvTraceset *ts;
  GtkWidget *window;
  TtvTab *tab;
  TtvTabState *state;
  GtkTreeView *view;
} Fixture;

static gboolean
list_settled (gpointer data)
{
  Fixture *f = data;

  return ttv_tab_state_is_state_ready (f->state) && ttv_tab_state_get_n_requests (f->state) == 0;
}

/* Opens @ts (taken) in a window of the application's default size. */
static void
fixture_open (Fixture *f, TtvTraceset *ts)
{
  const char *const modules[] = { TTV_EVENTS_MODULE_PATH, NULL };
  TtvGuiTestTab t;

  ttv_gui_test_tab_open (&t, ts, modules);
  memset (f, 0, sizeof *f);
  f->ts = t.ts;
  f->window = t.window;
  f->tab = t.tab;
  f->state = t.state;
  f->view = GTK_TREE_VIEW (ttv_gui_test_find_widget (GTK_WIDGET (f->tab), GTK_TYPE_TREE_VIEW,
                                                     "event-list-view"));
  g_assert_nonnull (f->view);
  ttv_gui_test_spin_until (list_settled, f);
}

static gboolean
fixture_open_sample (Fixture *f)
{
  TtvTraceset *ts = ttv_gui_test_open_sample ();

  if (!ts)
    {
      g_test_skip ("TTV_SAMPLE_TRACE is not set or missing");
      return FALSE;
    }
  fixture_open (f, ts);
  return TRUE;
}

static void
fixture_close (Fixture *f)
{
  if (f->window)
    gtk_widget_destroy (f->window);
  ttv_gui_test_spin_pending ();
  g_clear_pointer (&f->ts, ttv_traceset_unref);
}

static GSettings *
settings_new (void)
{
  return g_settings_new ("org.ttv.Viewer");
}

static void
settings_reset (void)
{
  g_autoptr (GSettings) s = settings_new ();

  g_settings_reset (s, "event-list-columns");
  g_settings_reset (s, "event-list-column-widths");
  g_settings_reset (s, "time-format");
}

static GtkTreeViewColumn *
column (Fixture *f, guint index)
{
  return gtk_tree_view_get_column (f->view, (gint) index);
}

/* The text of the store's column @col at row @row (caller frees), or NULL. */
static char *
cell_text (Fixture *f, gint row, gint col)
{
  GtkTreeModel *model = gtk_tree_view_get_model (f->view);
  GtkTreeIter iter;
  char *text = NULL;

  if (gtk_tree_model_iter_nth_child (model, &iter, NULL, row))
    gtk_tree_model_get (model, &iter, col, &text, -1);
  return text;
}

static gint
n_rows (Fixture *f)
{
  return gtk_tree_model_iter_n_children (gtk_tree_view_get_model (f->view), NULL);
}

/* The selected row, or -1. */
static gint
selected_row (Fixture *f)
{
  GtkTreeModel *model;
  GtkTreeIter iter;
  g_autoptr (GtkTreePath) path = NULL;

  if (!gtk_tree_selection_get_selected (gtk_tree_view_get_selection (f->view), &model, &iter))
    return -1;
  path = gtk_tree_model_get_path (model, &iter);
  return gtk_tree_path_get_indices (path)[0];
}

/* --- The reference: every event, read by the engine ---------------------------- */

typedef struct {
  TtvTime time;
  const char *name;     /* interned */
  gint cpu;
  const char *process;  /* static: the process running on its CPU once applied ("-": unnamed),
                         * NULL: unknown */
  const char *mode;     /* static */
  char *lower_text;     /* owned: name, fields and mode in lower case, for text searches;
                         * only for the first and last REF_TEXT_EVENTS (decoding every
                         * event's fields would make the test slow under the sanitizers) */
} RefEvent;

#define REF_TEXT_EVENTS 3000

static void
ref_event_free (gpointer data)
{
  RefEvent *r = data;

  g_free (r->lower_text);
  g_free (r);
}

/* Every event with the process running its CPU, by a replay from the start
 * (what ttv-report --state prints). */
static GPtrArray *
read_reference (TtvTraceset *ts)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvStateTracker) tracker = ttv_state_tracker_new (ts, NULL);
  g_autoptr (TtvContext) ctx = ttv_context_new (ts, &error);
  GPtrArray *events = g_ptr_array_new_with_free_func (ref_event_free);
  const TtvEvent *ev;
  guint n = 0;

  g_assert_true (ttv_context_seek_begin (ctx, &error));
  while (ttv_context_next (ctx, &error))
    n++;
  g_assert_no_error (error);
  g_assert_true (ttv_context_seek_begin (ctx, &error));
  while ((ev = ttv_context_next (ctx, &error)) != NULL)
    {
      RefEvent *r = g_new0 (RefEvent, 1);
      const TtvProcessState *p;

      ttv_state_tracker_apply (tracker, NULL, ttv_traceset_get_stream_trace (ts, ttv_context_get_stream (ctx)), ev);
      r->time = ev->time;
      r->name = g_intern_string (ttv_viewer_event_get_name (TTV_GUI_TEST_EVENT (ev)));
      r->cpu = ev->tracefile->cpu;
      p = ttv_state_get_running (ttv_state_tracker_get_state (tracker), ev->tracefile->cpu);
      if (p)
        {
          r->process = p->name ? g_quark_to_string (p->name) : "-";
          r->mode = ttv_exec_mode_name (ttv_process_state_get_mode (p));
        }
      if (events->len < REF_TEXT_EVENTS || events->len + REF_TEXT_EVENTS >= n)
      {
        g_autofree char *fields = ttv_viewer_event_dup_fields (TTV_GUI_TEST_EVENT (ev));

        r->lower_text = g_strjoin ("\n", r->name, fields, r->mode ? r->mode : "", NULL);
        for (char *c = r->lower_text; *c; c++)
          *c = g_ascii_tolower (*c);
      }
      g_ptr_array_add (events, r);
    }
  g_assert_no_error (error);
  return events;
}

/* The sample's reference (@ts: the sample), read once for the tests. */
static GPtrArray *
sample_reference (TtvTraceset *ts)
{
  static GPtrArray *ref;   /* owned, kept until exit */

  if (!ref)
    ref = read_reference (ts);
  return ref;
}

/* The index of the event at @time named @name, or -1. */
static gint
ref_find (GPtrArray *ref, TtvTime time, const char *name)
{
  for (guint i = 0; i < ref->len; i++)
    {
      const RefEvent *r = ref->pdata[i];

      if (r->time == time && strcmp (r->name, name) == 0)
        return (gint) i;
    }
  return -1;
}

/* The time a row shows, read back. */
static TtvTime
row_time (Fixture *f, gint row)
{
  g_autofree char *text = cell_text (f, row, COL_TIME);
  TtvTime t = TTV_TIME_MIN;
  g_autoptr (GError) error = NULL;

  g_assert_nonnull (text);
  g_assert_true (ttv_time_display_parse (f->state, text, ttv_tab_state_get_current_time (f->state), &t,
                                           &error));
  g_assert_no_error (error);
  return t;
}

/* The reference index of the selected row. */
static gint
selected_event (Fixture *f, GPtrArray *ref)
{
  gint row = selected_row (f);
  g_autofree char *name = NULL;

  if (row < 0)
    return -1;
  name = cell_text (f, row, COL_EVENT);
  return ref_find (ref, row_time (f, row), name);
}

/* --- The Mode column ------------------------------------------------------------------ */

/* The idle task in its base mode shows "idle"; inside a call the Mode is
 * "syscall NAME"; the exit that ends a call shows "user ← NAME", NAME the
 * call the same process entered last in the rows above (when it did). */
static void
test_mode_column (void)
{
  Fixture f;
  g_autoptr (GHashTable) entered = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  guint idle = 0, exits = 0, seen = 0;
  TtvTime done = TTV_TIME_MIN;

  if (!fixture_open_sample (&f))
    return;
  ttv_gui_test_spin_until (list_settled, &f);
  /* Ten screens, each from just after the last row of the one before. */
  for (guint page = 0; page < 10; page++)
    {
      for (gint row = 0; row < n_rows (&f); row++)
        {
          g_autofree char *pid = cell_text (&f, row, COL_PID);
          g_autofree char *event = cell_text (&f, row, COL_EVENT);
          g_autofree char *mode = cell_text (&f, row, COL_MODE);
          g_autofree char *fields = cell_text (&f, row, COL_FIELDS);
          TtvTime t = row_time (&f, row);

          if (t <= done || !pid || !*pid)
            continue;
          done = t;
          seen++;
          if (strcmp (pid, "0") == 0)
            {
              g_assert_true (strcmp (mode, "idle") == 0 || g_str_has_prefix (mode, "irq")
                             || g_str_has_prefix (mode, "softirq") || g_str_has_prefix (mode, "trap"));
              idle += strcmp (mode, "idle") == 0;
            }
          if (g_str_has_suffix (event, "syscall_entry"))
            {
              /* "syscall_id = NAME (N), ..." */
              g_auto (GStrv) words = g_strsplit (fields, " ", 4);
              g_autofree char *want = g_strdup_printf ("syscall %s", words[2]);

              g_assert_cmpstr (words[0], ==, "syscall_id");
              g_assert_cmpstr (mode, ==, want);
              g_hash_table_replace (entered, g_strdup (pid), g_strdup (words[2]));
            }
          else if (g_str_has_suffix (event, "syscall_exit") && g_hash_table_contains (entered, pid))
            {
              g_autofree char *want = g_strdup_printf ("user ← %s", (char *) g_hash_table_lookup (entered, pid));

              g_assert_cmpstr (mode, ==, want);
              g_hash_table_remove (entered, pid);
              exits++;
            }
        }
      /* Just after the last row: not shown, so the list jumps there. */
      ttv_tab_state_set_current_time (f.state, done + 1);
      ttv_gui_test_spin_until (list_settled, &f);
      ttv_gui_test_spin_pending ();
    }
  g_test_message ("%u rows: %u idle, %u exits checked", seen, idle, exits);
  g_assert_cmpuint (idle, >, 0);
  g_assert_cmpuint (exits, >, 0);
  fixture_close (&f);
}

/* --- Columns ------------------------------------------------------------------------ */

/* The popup menu that a right-click on a column header opened, or NULL. */
static GtkMenu *
find_popup_menu (void)
{
  g_autoptr (GList) tops = gtk_window_list_toplevels ();

  for (GList *l = tops; l; l = l->next)
    {
      GtkWidget *child = GTK_IS_BIN (l->data) ? gtk_bin_get_child (l->data) : NULL;

      if (child && GTK_IS_MENU (child) && gtk_widget_get_mapped (child))
        return GTK_MENU (child);
    }
  return NULL;
}

static GtkWidget *
find_menu_item (GtkMenu *menu, const char *label)
{
  g_autoptr (GList) items = gtk_container_get_children (GTK_CONTAINER (menu));

  for (GList *l = items; l; l = l->next)
    {
      const char *text = gtk_menu_item_get_label (l->data);

      if (text && strcmp (text, label) == 0)
        return l->data;
    }
  return NULL;
}

/* Right-clicks the header of column @index. */
static void
header_right_click (Fixture *f, guint index)
{
  GtkWidget *button = gtk_tree_view_column_get_button (column (f, index));
  GdkEvent *ev = gdk_event_new (GDK_BUTTON_PRESS);
  gboolean handled = FALSE;

  ev->button.window = g_object_ref (gtk_widget_get_window (button));
  ev->button.button = 3;
  ev->button.x = ev->button.y = 5;
  ev->button.time = GDK_CURRENT_TIME;
  gdk_event_set_device (ev, gdk_seat_get_pointer (gdk_display_get_default_seat (gdk_display_get_default ())));
  g_signal_emit_by_name (button, "button-press-event", ev, &handled);
  gdk_event_free (ev);
  g_assert_true (handled);
}

static gboolean
column_visible_in_settings (const char *name, gboolean *visible)
{
  g_autoptr (GSettings) s = settings_new ();
  g_autoptr (GVariant) dict = g_settings_get_value (s, "event-list-columns");

  return g_variant_lookup (dict, name, "b", visible);
}

static void
test_columns_menu (void)
{
  Fixture f, g;
  GtkMenu *menu;
  GtkWidget *item;
  GActionGroup *actions;
  gboolean visible = TRUE;

  settings_reset ();
  if (!fixture_open_sample (&f))
    return;
  g_assert_true (gtk_tree_view_column_get_visible (column (&f, COL_CPU)));

  /* Right-click a header, choose "CPU" in the menu as a click does (the
   * menu is deactivated first, then the item activated). */
  header_right_click (&f, COL_EVENT);
  ttv_gui_test_spin_pending ();
  menu = find_popup_menu ();
  g_assert_nonnull (menu);
  item = find_menu_item (menu, "CPU");
  g_assert_nonnull (item);
  g_assert_true (GTK_IS_CHECK_MENU_ITEM (item));
  g_assert_true (gtk_check_menu_item_get_active (GTK_CHECK_MENU_ITEM (item)));
  gtk_menu_shell_activate_item (GTK_MENU_SHELL (menu), item, TRUE);
  ttv_gui_test_spin_pending ();
  g_assert_false (gtk_tree_view_column_get_visible (column (&f, COL_CPU)));
  g_assert_null (find_popup_menu ());
  g_assert_true (column_visible_in_settings ("cpu", &visible));
  g_assert_false (visible);

  /* The menu again: CPU unchecked; the time format is there too. */
  header_right_click (&f, COL_TIME);
  ttv_gui_test_spin_pending ();
  menu = find_popup_menu ();
  g_assert_nonnull (menu);
  g_assert_false (gtk_check_menu_item_get_active (GTK_CHECK_MENU_ITEM (find_menu_item (menu, "CPU"))));
  g_assert_nonnull (find_menu_item (menu, "Time of day, _UTC (HH:MM:SS.NZ)"));
  gtk_menu_shell_deactivate (GTK_MENU_SHELL (menu));
  ttv_gui_test_spin_pending ();

  /* A new tab remembers; the Columns button's actions show it again, in
   * both tabs. */
  fixture_open_sample (&g);
  g_assert_false (gtk_tree_view_column_get_visible (column (&g, COL_CPU)));
  g_assert_nonnull (ttv_gui_test_find_widget (GTK_WIDGET (g.tab), GTK_TYPE_MENU_BUTTON, "columns-button"));
  actions = gtk_widget_get_action_group (ttv_gui_test_find_widget (GTK_WIDGET (g.tab), GTK_TYPE_MENU_BUTTON,
                                                                   "columns-button"), "evlist");
  g_assert_nonnull (actions);
  g_action_group_activate_action (actions, "column-cpu", NULL);
  ttv_gui_test_spin_pending ();
  g_assert_true (gtk_tree_view_column_get_visible (column (&g, COL_CPU)));
  g_assert_true (gtk_tree_view_column_get_visible (column (&f, COL_CPU)));
  g_assert_true (column_visible_in_settings ("cpu", &visible));
  g_assert_true (visible);

  /* The last column shown stays. */
  for (guint i = 0; i < G_N_ELEMENTS (column_names); i++)
    {
      g_autofree char *name = g_strdup_printf ("column-%s", column_names[i]);

      if (gtk_tree_view_column_get_visible (column (&g, i)))
        g_action_group_activate_action (actions, name, NULL);
    }
  ttv_gui_test_spin_pending ();
  {
    guint shown = 0;

    for (guint i = 0; i < G_N_ELEMENTS (column_names); i++)
      shown += gtk_tree_view_column_get_visible (column (&g, i));
    g_assert_cmpuint (shown, ==, 1);
  }
  fixture_close (&g);
  fixture_close (&f);
  settings_reset ();
}

/* Fields is on screen at the default window size; the Trace column only
 * appears for several traces; saved widths are applied. */
static void
test_columns_layout (void)
{
  Fixture f;
  TtvTraceset *two;
  g_autoptr (GError) error = NULL;
  g_autoptr (GSettings) s = settings_new ();
  gint width;

  settings_reset ();
  if (!fixture_open_sample (&f))
    return;
  g_assert_false (gtk_tree_view_column_get_visible (column (&f, COL_TRACE)));
  /* A kernel trace: no addresses to name. */
  g_assert_false (gtk_tree_view_column_get_visible (column (&f, COL_SYMBOL)));
  width = gtk_widget_get_allocated_width (gtk_widget_get_parent (GTK_WIDGET (f.view)));
  g_test_message ("list %d px wide, Fields at %d, %d px wide", width,
                  gtk_tree_view_column_get_x_offset (column (&f, COL_FIELDS)),
                  gtk_tree_view_column_get_width (column (&f, COL_FIELDS)));
  g_assert_cmpint (gtk_tree_view_column_get_x_offset (column (&f, COL_FIELDS)) + 140, <=, width);
  for (guint i = 0; i < G_N_ELEMENTS (column_names); i++)
    if (gtk_tree_view_column_get_visible (column (&f, i)))
      g_assert_cmpint (gtk_tree_view_column_get_x_offset (column (&f, i))
                       + gtk_tree_view_column_get_width (column (&f, i)), <=, width);
  fixture_close (&f);

  /* Two traces: which trace an event is from matters. */
  two = ttv_gui_test_open_sample ();
  g_assert_true (ttv_traceset_add_path (two, g_getenv ("TTV_SAMPLE_TRACE"), &error));
  g_assert_no_error (error);
  fixture_open (&f, two);
  g_assert_true (gtk_tree_view_column_get_visible (column (&f, COL_TRACE)));
  fixture_close (&f);

  /* A width the user gave. */
  g_settings_set_value (s, "event-list-column-widths", g_variant_new_parsed ("{'event': 251}"));
  fixture_open_sample (&f);
  g_assert_cmpint (gtk_tree_view_column_get_fixed_width (column (&f, COL_EVENT)), ==, 251);
  fixture_close (&f);
  settings_reset ();
}

/* --- Time format ---------------------------------------------------------------- */

static GtkEntry *
time_bar_entry (Fixture *f, const char *name)
{
  GtkWidget *e = ttv_gui_test_find_widget (GTK_WIDGET (f->tab), GTK_TYPE_ENTRY, name);

  g_assert_nonnull (e);
  return GTK_ENTRY (e);
}

static char *
bookmark_time_text (Fixture *f)
{
  GtkWidget *panel = ttv_gui_test_find_widget (GTK_WIDGET (f->tab), TTV_TYPE_BOOKMARKS_PANEL, NULL);
  GtkWidget *view = ttv_gui_test_find_widget (panel, GTK_TYPE_TREE_VIEW, NULL);
  GtkTreeModel *model = gtk_tree_view_get_model (GTK_TREE_VIEW (view));
  GtkTreeIter iter;
  char *text = NULL;

  if (gtk_tree_model_get_iter_first (model, &iter))
    gtk_tree_model_get (model, &iter, 0, &text, -1);
  return text;
}

static void
type_in_entry (GtkEntry *entry, const char *text)
{
  gtk_entry_set_text (entry, text);
  g_signal_emit_by_name (entry, "activate");
  ttv_gui_test_spin_pending ();
}

static void
test_time_format (void)
{
  static const char *const settings[] = { "relative", "absolute", "utc" };
  Fixture f;
  g_autoptr (GSettings) s = settings_new ();
  TtvTime start, end, t;

  settings_reset ();
  if (!fixture_open_sample (&f))
    return;
  ttv_tab_state_get_time_span (f.state, &start, &end);
  ttv_tab_state_add_bookmark (f.state, ttv_viewer_bookmark_new ("b", "", -1, start + 500, start + 500));
  for (guint i = 0; i < G_N_ELEMENTS (settings); i++)
    {
      /* The first event's time in each form, written out here. */
      g_autoptr (GDateTime) utc = g_date_time_new_from_unix_utc (start / 1000000000);
      g_autofree char *hms = g_date_time_format (utc, "%H:%M:%S");
      g_autofree char *first_time =
        i == 0 ? g_strdup ("+0.000000000")
        : i == 1 ? g_strdup_printf ("%" G_GINT64_FORMAT ".%09" G_GINT64_FORMAT, start / 1000000000, start % 1000000000)
                 : g_strdup_printf ("%s.%09" G_GINT64_FORMAT "Z", hms, start % 1000000000);
      g_autofree char *row0 = NULL;
      g_autofree char *mark = NULL;
      g_autofree char *want_mark = NULL;

      g_settings_set_string (s, "time-format", settings[i]);
      ttv_gui_test_spin_until (list_settled, &f);
      ttv_gui_test_spin_pending ();
      row0 = cell_text (&f, 0, COL_TIME);
      g_assert_cmpstr (row0, ==, first_time);
      g_assert_cmpstr (gtk_entry_get_text (time_bar_entry (&f, "time-bar-start")), ==, first_time);
      mark = bookmark_time_text (&f);
      want_mark = ttv_tab_state_format_time (f.state, start + 500);
      g_assert_cmpstr (mark, ==, want_mark);
    }
  /* The bookmark in each form is not the same text: the formats differ. */

  /* What the entries read, in any format: +S.N from the start (the README's
   * promise), a time of day, seconds since the epoch. */
  g_settings_set_string (s, "time-format", "absolute");
  type_in_entry (time_bar_entry (&f, "time-bar-current"), "+0.2");
  g_assert_cmpint (ttv_tab_state_get_current_time (f.state), ==, start + 200000000);
  type_in_entry (time_bar_entry (&f, "time-bar-current"), "22:13:20.3Z");
  g_assert_cmpint (ttv_tab_state_get_current_time (f.state), ==, G_GINT64_CONSTANT (1700000000300000000));
  type_in_entry (time_bar_entry (&f, "time-bar-current"), "1700000000.4");
  g_assert_cmpint (ttv_tab_state_get_current_time (f.state), ==, G_GINT64_CONSTANT (1700000000400000000));
  /* Not a time: marked, said why, nothing moves. */
  type_in_entry (time_bar_entry (&f, "time-bar-current"), "soon");
  g_assert_cmpint (ttv_tab_state_get_current_time (f.state), ==, G_GINT64_CONSTANT (1700000000400000000));
  g_assert_true (gtk_style_context_has_class (gtk_widget_get_style_context (GTK_WIDGET (time_bar_entry (&f, "time-bar-current"))),
                                              "error"));
  {
    g_autofree char *tip = gtk_widget_get_tooltip_text (GTK_WIDGET (time_bar_entry (&f, "time-bar-current")));

    g_assert_nonnull (strstr (tip, "“soon” is not a time"));
  }
  /* The window's end, typed relative. */
  type_in_entry (time_bar_entry (&f, "time-bar-end"), "+0.5");
  ttv_tab_state_get_time_window (f.state, &t, &end);
  g_assert_cmpint (end, ==, start + 500000000);
  fixture_close (&f);
  settings_reset ();
}

/* --- The delta after a jump ----------------------------------------------------------- */

static void
test_delta_after_jump (void)
{
  Fixture f;
  GPtrArray *ref;
  guint target;
  gint first;
  g_autofree char *delta = NULL;
  g_autofree char *want = NULL;
  g_autofree char *name = NULL;

  settings_reset ();
  if (!fixture_open_sample (&f))
    return;
  ref = sample_reference (f.ts);
  /* An event in the middle whose time no other event shares. */
  for (target = ref->len / 2; target + 1 < ref->len; target++)
    if (((RefEvent *) ref->pdata[target])->time != ((RefEvent *) ref->pdata[target - 1])->time
        && ((RefEvent *) ref->pdata[target])->time != ((RefEvent *) ref->pdata[target + 1])->time)
      break;
  ttv_tab_state_set_current_time (f.state, ((RefEvent *) ref->pdata[target])->time);
  ttv_gui_test_spin_until (list_settled, &f);
  ttv_gui_test_spin_pending ();
  /* The list starts at the current time; the first row's delta is from
   * the event before it, which the list never showed. */
  g_assert_cmpint (n_rows (&f), >, 0);
  name = cell_text (&f, 0, COL_EVENT);
  first = ref_find (ref, row_time (&f, 0), name);
  g_assert_cmpint (first, ==, (gint) target);
  delta = cell_text (&f, 0, COL_DELTA);
  {
    TtvTime d = ((RefEvent *) ref->pdata[target])->time - ((RefEvent *) ref->pdata[target - 1])->time;

    want = g_strdup_printf ("%" G_GINT64_FORMAT ".%09" G_GINT64_FORMAT, d / 1000000000, d % 1000000000);
  }
  g_assert_cmpstr (delta, ==, want);
  fixture_close (&f);
}

/* --- Lost events ------------------------------------------------------------------------- */

/* A copy of the real LTTng kernel trace scp-kernel whose packets 3 to 5
 * say 5 events were discarded so far, 12 from packet 6 on: two lost
 * ranges (as tests/formats/ctf does).  NULL when the trace is absent. */
static char *
lost_events_trace (void)
{
  g_autofree char *src = ttv_test_dup_shared_ctf_trace ("scp-kernel");
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) offsets = g_array_new (FALSE, FALSE, sizeof (guint64));
  char *dst;

  if (!src)
    return NULL;
  dst = ttv_test_dup_tmp_path ("lost-events");
  ttv_test_copy_dir (src, dst);
  {
    g_autoptr (TtvTrace) t = ttv_trace_open (dst, &error);
    CtfStreamFile *sf;

    g_assert_no_error (error);
    sf = ((TtvTracefile *) t->tracefiles->pdata[0])->priv;
    for (guint i = 0; i < sf->packets->len; i++)
      g_array_append_val (offsets, g_array_index (sf->packets, CtfPacket, i).offset);
  }
  /* events_discarded: 64-bit little-endian after the magic, uuid,
   * stream_id and four 64-bit context fields. */
  for (guint i = 3; i < offsets->len; i++)
    {
      guint64 v = GUINT64_TO_LE (i < 6 ? 5 : 12);

      ttv_test_patch_file (dst, "channel0_0", g_array_index (offsets, guint64, i) + 56, &v, 8);
    }
  return dst;
}

/* The rows on screen: each lost-events row comes right before the first
 * event at or after its start, after the events before it; it looks
 * different from an event row. */
static guint
check_lost_rows (Fixture *f, GPtrArray *ref, const TtvLostRange *ranges, guint n_ranges)
{
  guint seen = 0;

  for (gint row = 0; row < n_rows (f); row++)
    {
      g_autofree char *event = cell_text (f, row, COL_EVENT);
      g_autofree char *colour = cell_text (f, row, MODEL_FOREGROUND);
      GtkTreeIter iter;
      PangoStyle style;
      gboolean lost = g_str_has_suffix (event, " lost");

      g_assert_true (gtk_tree_model_iter_nth_child (gtk_tree_view_get_model (f->view), &iter, NULL, row));
      gtk_tree_model_get (gtk_tree_view_get_model (f->view), &iter, MODEL_STYLE, &style, -1);
      /* Set apart: italics, a colour, a warning sign; events have none. */
      g_assert_cmpint (style == PANGO_STYLE_ITALIC, ==, lost);
      g_assert_cmpint (colour != NULL, ==, lost);
      g_assert_cmpint (g_str_has_prefix (event, "\u26a0 "), ==, lost);
      if (!lost)
        continue;
      {
        TtvTime start = row_time (f, row);
        const TtvLostRange *range = NULL;
        g_autofree char *next_name = NULL;
        g_autofree char *want = NULL;
        gint next = -1;

        for (guint k = 0; k < n_ranges; k++)
          if (ranges[k].start == start)
            range = &ranges[k];
        g_assert_nonnull (range);
        if (range->count)
          want = g_strdup_printf ("\u26a0 %" G_GUINT64_FORMAT " events lost", range->count);
        else
          want = g_strdup_printf ("\u26a0 %" G_GUINT64_FORMAT " packets lost", range->packets);
        g_assert_cmpstr (event, ==, want);
        /* The first event at or after the range's start comes next. */
        for (guint i = 0; i < ref->len && next < 0; i++)
          if (((RefEvent *) ref->pdata[i])->time >= start)
            next = (gint) i;
        g_assert_cmpint (row + 1, <, n_rows (f));
        next_name = cell_text (f, row + 1, COL_EVENT);
        g_assert_cmpint (ref_find (ref, row_time (f, row + 1), next_name), ==, next);
        if (row > 0)
          {
            g_autofree char *prev_name = cell_text (f, row - 1, COL_EVENT);

            g_assert_cmpint (ref_find (ref, row_time (f, row - 1), prev_name), ==, next - 1);
          }
        seen++;
      }
    }
  return seen;
}

/* Opens @dir in a tab: each lost range of its first tracefile (@n_ranges)
 * shows as one marker row where it happened, reached from before it and
 * from elsewhere.  Removes @dir. */
static void
check_lost_marks (const char *dir, guint n_ranges)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) ref = NULL;
  TtvTraceset *ts;
  const TtvTracefile *tf;
  Fixture f;

  settings_reset ();
  ts = ttv_traceset_new ();
  g_assert_true (ttv_traceset_add_path (ts, dir, &error));
  g_assert_no_error (error);
  fixture_open (&f, ts);
  ref = read_reference (f.ts);
  tf = ttv_traceset_get_trace (ttv_tab_state_get_traceset (f.state), 0)->tracefiles->pdata[0];
  g_assert_cmpuint (tf->lost->len, ==, n_ranges);
  for (guint k = 0; k < tf->lost->len; k++)
    {
      const TtvLostRange *range = &g_array_index (tf->lost, TtvLostRange, k);

      /* Rows from a little before: the marker in the middle of the screen. */
      ttv_tab_state_set_current_time (f.state, range->start - 2000);
      ttv_gui_test_spin_until (list_settled, &f);
      ttv_gui_test_spin_pending ();
      g_assert_cmpuint (check_lost_rows (&f, ref, (const TtvLostRange *) tf->lost->data, tf->lost->len), ==, 1);
      /* Rows from its start (coming from elsewhere: the list reads anew):
       * the marker first, known once the list found the event before. */
      ttv_tab_state_set_current_time (f.state, ((RefEvent *) ref->pdata[ref->len - 1])->time);
      ttv_gui_test_spin_until (list_settled, &f);
      ttv_tab_state_set_current_time (f.state, range->start);
      ttv_gui_test_spin_until (list_settled, &f);
      ttv_gui_test_spin_pending ();
      g_assert_cmpuint (check_lost_rows (&f, ref, (const TtvLostRange *) tf->lost->data, tf->lost->len), ==, 1);
    }
  fixture_close (&f);
}

static void
test_lost_events (void)
{
  g_autofree char *dir = lost_events_trace ();

  if (dir)    /* else skipped, said why */
    check_lost_marks (dir, 2);
}

static void
test_lost_packets (void)
{
  /* A CTF 2 kernel trace as LTTng 2.15 writes it whose packet sequence
   * numbers skip two packets after packet 2, and whose packets from 6 on
   * say 9 events were discarded: a range of lost packets, then one of lost
   * events. */
  static const TtvTestLostOptions lost = { .ctf2 = TRUE, .later_discarded = 9, .skip_packets = TRUE };
  g_autofree char *dir = ttv_test_write_lost_ctf ("lost-packets", &lost);

  check_lost_marks (dir, 2);
}

/* --- Find -------------------------------------------------------------------------------- */


/* Whether another name of @names holds @needle (lower case). */
static gboolean
in_other_name (GHashTable *names, const char *name, const char *needle)
{
  GHashTableIter iter;
  gpointer key;

  g_hash_table_iter_init (&iter, names);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      g_autofree char *lower = g_ascii_strdown (key, -1);

      if (strcmp (key, name) != 0 && strstr (lower, needle))
        return TRUE;
    }
  return FALSE;
}

/* A process name that no event name, field or mode holds (among those
 * whose text the reference has), nor another process's name, on at least
 * three events after the first among the first REF_TEXT_EVENTS, and on one
 * among the last REF_TEXT_EVENTS less 100: Find must read the Process
 * column to find it. */
static const char *
process_only_text (GPtrArray *ref)
{
  g_autoptr (GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) tried = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < ref->len; i++)
    if (((RefEvent *) ref->pdata[i])->process)
      g_hash_table_add (names, (gpointer) ((RefEvent *) ref->pdata[i])->process);
  for (guint i = 1; i < MIN (ref->len, REF_TEXT_EVENTS); i++)
    {
      const char *p = ((RefEvent *) ref->pdata[i])->process;
      g_autofree char *needle = NULL;
      guint hits = 0, tail_hits = 0;
      gboolean elsewhere;

      if (!p || strlen (p) < 4 || g_hash_table_contains (tried, p))
        continue;
      g_hash_table_add (tried, (gpointer) p);
      needle = g_ascii_strdown (p, -1);
      elsewhere = in_other_name (names, p, needle);
      for (guint j = 0; j < ref->len && !elsewhere; j++)
        {
          const RefEvent *r = ref->pdata[j];

          elsewhere = r->lower_text && strstr (r->lower_text, needle) != NULL;
          if (r->process && strcmp (r->process, p) == 0)
            {
              hits += j > 0 && j < REF_TEXT_EVENTS;
              tail_hits += j + REF_TEXT_EVENTS - 100 >= ref->len;
            }
        }
      if (!elsewhere && hits >= 3 && tail_hits >= 1)
        return p;
    }
  return NULL;
}

/* The first event after @from (backward: before) whose process is @p. */
static gint
next_with_process (GPtrArray *ref, gint from, const char *p, gboolean backward)
{
  for (gint i = from + (backward ? -1 : 1); i >= 0 && i < (gint) ref->len; i += backward ? -1 : 1)
    if (((RefEvent *) ref->pdata[i])->process && strcmp (((RefEvent *) ref->pdata[i])->process, p) == 0)
      return i;
  return -1;
}

typedef struct {
  Fixture *f;
  GPtrArray *ref;
  gint want;
} SelectedIs;

static gboolean
selected_is (gpointer data)
{
  SelectedIs *s = data;

  return list_settled (s->f) && selected_event (s->f, s->ref) == s->want;
}

static gboolean
says_not_found (gpointer label)
{
  return strcmp (gtk_label_get_text (label), "Not found") == 0;
}

static void
test_find_text (void)
{
  Fixture f;
  GPtrArray *ref;
  const char *needle;
  GtkWidget *entry;
  GtkLabel *status = NULL;
  gint h1, h2, h3;
  guint tail;
  SelectedIs sel;

  settings_reset ();
  if (!fixture_open_sample (&f))
    return;
  ref = sample_reference (f.ts);
  g_assert_cmpuint (ref->len, >, 2 * REF_TEXT_EVENTS);
  needle = process_only_text (ref);
  g_assert_nonnull (needle);
  g_test_message ("looking for “%s”, only in the Process column", needle);
  h1 = next_with_process (ref, 0, needle, FALSE);
  h2 = next_with_process (ref, h1, needle, FALSE);
  h3 = next_with_process (ref, h2, needle, FALSE);
  g_assert_cmpint (h3, >, h2);
  sel = (SelectedIs) { &f, ref, h1 };

  /* Ctrl+F, type, Enter: from the first row on. */
  gtk_widget_grab_focus (GTK_WIDGET (f.view));
  g_assert_true (gtk_widget_is_focus (GTK_WIDGET (f.view)));
  entry = ttv_gui_test_find_widget (GTK_WIDGET (f.tab), GTK_TYPE_ENTRY, "find-entry");
  g_assert_nonnull (entry);
  gtk_entry_set_text (GTK_ENTRY (entry), needle);
  g_signal_emit_by_name (entry, "activate");
  ttv_gui_test_spin_until (selected_is, &sel);

  /* F3 in the list: the next one; again; Shift+F3: back. */
  gtk_widget_grab_focus (GTK_WIDGET (f.view));
  g_assert_true (gtk_test_widget_send_key (GTK_WIDGET (f.view), GDK_KEY_F3, 0));
  sel.want = h2;
  ttv_gui_test_spin_until (selected_is, &sel);
  g_assert_true (gtk_test_widget_send_key (GTK_WIDGET (f.view), GDK_KEY_F3, 0));
  sel.want = h3;
  ttv_gui_test_spin_until (selected_is, &sel);
  g_assert_true (gtk_test_widget_send_key (GTK_WIDGET (f.view), GDK_KEY_F3, GDK_SHIFT_MASK));
  sel.want = h2;
  ttv_gui_test_spin_until (selected_is, &sel);
  g_assert_true (gtk_widget_is_focus (GTK_WIDGET (f.view)));

  /* Previous again: the first hit; once more: none before it, which the
   * status beside the entry says (keys arrive through the X server: wait
   * for the answer, not for the list to be idle). */
  g_assert_true (gtk_test_widget_send_key (GTK_WIDGET (f.view), GDK_KEY_F3, GDK_SHIFT_MASK));
  sel.want = h1;
  ttv_gui_test_spin_until (selected_is, &sel);
  status = GTK_LABEL (ttv_gui_test_find_widget (GTK_WIDGET (f.tab), GTK_TYPE_LABEL, "find-status"));
  g_assert_nonnull (status);
  g_assert_cmpstr (gtk_label_get_text (status), ==, "");
  g_assert_true (gtk_test_widget_send_key (GTK_WIDGET (f.view), GDK_KEY_F3, GDK_SHIFT_MASK));
  ttv_gui_test_spin_until (says_not_found, status);
  ttv_gui_test_spin_until (list_settled, &f);
  g_assert_cmpint (selected_event (&f, ref), ==, h1);

  /* Near the end (an event alone at its time), with the Process column
   * hidden: the text is nowhere visible any more. */
  for (tail = ref->len - REF_TEXT_EVENTS + 1; tail + 1 < ref->len; tail++)
    if (((RefEvent *) ref->pdata[tail])->time != ((RefEvent *) ref->pdata[tail - 1])->time)
      break;
  ttv_tab_state_set_current_time (f.state, ((RefEvent *) ref->pdata[tail])->time);
  sel.want = (gint) tail;
  ttv_gui_test_spin_until (selected_is, &sel);
  gtk_tree_view_column_set_visible (column (&f, COL_PROCESS), FALSE);
  gtk_label_set_text (status, "");
  g_assert_true (gtk_test_widget_send_key (GTK_WIDGET (f.view), GDK_KEY_F3, 0));
  ttv_gui_test_spin_until (says_not_found, status);
  ttv_gui_test_spin_until (list_settled, &f);
  g_assert_cmpint (selected_event (&f, ref), ==, (gint) tail);
  /* Shown again, the process's next event is found. */
  gtk_tree_view_column_set_visible (column (&f, COL_PROCESS), TRUE);
  g_assert_true (gtk_test_widget_send_key (GTK_WIDGET (f.view), GDK_KEY_F3, 0));
  sel.want = next_with_process (ref, (gint) tail, needle, FALSE);
  g_assert_cmpint (sel.want, >, (gint) tail);
  ttv_gui_test_spin_until (selected_is, &sel);
  fixture_close (&f);
  settings_reset ();
}

/* Find on a trace large enough to take a while: it says how far it is,
 * and Stop ends it where it is, the list unchanged and usable. */
typedef struct {
  GPtrArray *texts;            /* of char *: what the status said, in order */
} StatusLog;

static void
status_changed (GObject *label, GParamSpec *pspec, gpointer data)
{
  StatusLog *log = data;

  g_ptr_array_add (log->texts, g_strdup (gtk_label_get_text (GTK_LABEL (label))));
}

static gboolean
percent_shown (gpointer data)
{
  StatusLog *log = data;

  for (guint i = 0; i < log->texts->len; i++)
    {
      int pct = -1;
      if (sscanf (log->texts->pdata[i], "Searching… %d %%", &pct) == 1 && pct > 0)
        return TRUE;
    }
  return FALSE;
}

static void
test_find_progress_stop (void)
{
  g_autofree char *dir = ttv_test_dup_tmp_path ("find-big");
  const char *argv[] = { TTV_GEN_PATH, "-q", "-f", "ctf", "-c", "4", "-d", "15", "-s", "9", "-o", dir, NULL };
  StatusLog log = { g_ptr_array_new_with_free_func (g_free) };
  g_autoptr (GError) error = NULL;
  TtvTraceset *ts = ttv_traceset_new ();
  GtkWidget *entry, *stop;
  GtkLabel *status;
  Fixture f;
  gint before;

  g_free (ttv_test_run_ok (argv));
  g_assert_true (ttv_traceset_add_path (ts, dir, &error));
  g_assert_no_error (error);
  fixture_open (&f, ts);
  entry = ttv_gui_test_find_widget (GTK_WIDGET (f.tab), GTK_TYPE_ENTRY, "find-entry");
  stop = ttv_gui_test_find_widget (GTK_WIDGET (f.tab), GTK_TYPE_BUTTON, "find-stop");
  status = GTK_LABEL (ttv_gui_test_find_widget (GTK_WIDGET (f.tab), GTK_TYPE_LABEL, "find-status"));
  g_assert_nonnull (entry);
  g_assert_nonnull (stop);
  g_assert_false (gtk_widget_get_visible (stop));
  g_signal_connect (status, "notify::label", G_CALLBACK (status_changed), &log);
  before = selected_row (&f);

  /* Text that is nowhere: the whole trace is read, with its progress. */
  gtk_entry_set_text (GTK_ENTRY (entry), "zqxj-nowhere");
  g_signal_emit_by_name (entry, "activate");
  g_assert_true (gtk_widget_get_visible (stop));
  g_assert_cmpstr (gtk_label_get_text (status), ==, "Searching…");
  ttv_gui_test_spin_until (percent_shown, &log);
  /* Stop: the reading ends at once, the list where it was. */
  gtk_button_clicked (GTK_BUTTON (stop));
  g_assert_false (gtk_widget_get_visible (stop));
  g_assert_cmpstr (gtk_label_get_text (status), ==, "Stopped");
  g_assert_cmpuint (ttv_tab_state_get_n_requests (f.state), ==, 0);
  ttv_gui_test_spin_until (list_settled, &f);
  g_assert_cmpint (selected_row (&f), ==, before);
  g_assert_cmpstr (gtk_label_get_text (status), ==, "Stopped");

  /* Again, to the end this time: not found, the button gone. */
  g_signal_emit_by_name (entry, "activate");
  ttv_gui_test_spin_until (says_not_found, status);
  g_assert_false (gtk_widget_get_visible (stop));
  /* The list still moves. */
  g_assert_true (gtk_test_widget_send_key (GTK_WIDGET (f.view), GDK_KEY_End, 0));
  ttv_gui_test_spin_until (list_settled, &f);
  g_ptr_array_unref (log.texts);
  fixture_close (&f);
}

/* --- The Symbol column ----------------------------------------------------------------- */

typedef struct {
  Fixture *f;
  const char *event;           /* the end of the selected event's name */
} SelectedNames;

/* The selected row is an @event in make_leak ("make_leak (ustwork.c:58)"
 * for its own entry, "make_leak+0x24 (ustwork.c:60)" for its malloc). */
static gboolean
selected_names (gpointer data)
{
  SelectedNames *s = data;
  gint row = selected_row (s->f);
  g_autofree char *symbol = row >= 0 ? cell_text (s->f, row, COL_SYMBOL) : NULL;
  g_autofree char *event = row >= 0 ? cell_text (s->f, row, COL_EVENT) : NULL;

  return list_settled (s->f) && symbol && g_str_has_prefix (symbol, "make_leak")
         && strchr ("+ ", symbol[strlen ("make_leak")]) && event && g_str_has_suffix (event, s->event);
}

/* Every row of an event with an ip names it, once the symbols are there. */
static gboolean
rows_named (gpointer data)
{
  Fixture *f = data;
  gint named = 0;

  if (!list_settled (f))
    return FALSE;
  for (gint row = 0; row < n_rows (f); row++)
    {
      g_autofree char *event = cell_text (f, row, COL_EVENT);
      g_autofree char *symbol = cell_text (f, row, COL_SYMBOL);

      if (event && g_str_has_prefix (event, "lttng_ust_") && !(symbol && *symbol))
        return FALSE;
      named += symbol != NULL;
    }
  return named > 0;
}

/* The Symbol column is shown by default only when a trace has the ip
 * context: not for the kernel sample (test_columns_layout) nor glxgears'
 * cyg-profile trace.  On a trace of ustwork.c recorded with it
 * ($TTV_UST_TRACE, which tests/userspace/test-userspace-views.sh sets),
 * every userspace event's row names its caller, from the program's ELF
 * symbols and DWARF lines, and Find finds the deliberate leak's malloc by
 * its caller's name, in no other column. */
static void
test_symbol_column (void)
{
  const char *ust = g_getenv ("TTV_UST_TRACE");
  g_autofree char *glxgears = ttv_test_dup_shared_ctf_trace ("glxgears-ust");
  g_autoptr (GError) error = NULL;
  Fixture f;
  GtkWidget *entry;

  settings_reset ();
  if (glxgears)   /* else marked skipped, saying which trace is absent */
    {
      TtvTraceset *ts = ttv_traceset_new ();

      g_assert_true (ttv_traceset_add_path (ts, glxgears, &error));
      g_assert_no_error (error);
      fixture_open (&f, ts);
      g_assert_false (gtk_tree_view_column_get_visible (column (&f, COL_SYMBOL)));
      fixture_close (&f);
    }
  if (!ust)
    {
      g_test_skip ("TTV_UST_TRACE is not set (tests/userspace/test-userspace-views.sh records one)");
      return;
    }
  {
    TtvTraceset *ts = ttv_traceset_new ();

    g_assert_true (ttv_traceset_add_path (ts, ust, &error));
    g_assert_no_error (error);
    fixture_open (&f, ts);
  }
  g_assert_true (gtk_tree_view_column_get_visible (column (&f, COL_SYMBOL)));
  ttv_gui_test_spin_until (rows_named, &f);
  entry = ttv_gui_test_find_widget (GTK_WIDGET (f.tab), GTK_TYPE_ENTRY, "find-entry");
  g_assert_nonnull (entry);
  gtk_entry_set_text (GTK_ENTRY (entry), "make_leak");
  g_signal_emit_by_name (entry, "activate");
  /* First the function's own entry (its ip is in it), then the malloc it
   * calls (F3), at the line of the call. */
  for (guint hit = 0; hit < 2; hit++)
    {
      if (hit > 0)
        {
          gtk_widget_grab_focus (GTK_WIDGET (f.view));
          g_assert_true (gtk_test_widget_send_key (GTK_WIDGET (f.view), GDK_KEY_F3, 0));
        }
      SelectedNames want = { &f, hit == 0 ? ":func_entry" : "lttng_ust_libc:malloc" };

      ttv_gui_test_spin_until (selected_names, &want);
      {
        g_autofree char *symbol = cell_text (&f, selected_row (&f), COL_SYMBOL);

        g_test_message ("found %s at %s", want.event, symbol);
        if (hit == 0)
          g_assert_cmpstr (symbol, ==, "make_leak (ustwork.c:58)");
        else
          g_assert_nonnull (strstr (symbol, "(ustwork.c:60)"));
      }
    }
  fixture_close (&f);
  settings_reset ();
}

static gboolean
entry_has_focus (gpointer entry)
{
  return gtk_widget_is_focus (entry);
}

/* F3 with an empty find bar opens it, keyboard in the entry. */
static void
test_find_keys (void)
{
  Fixture f;
  GtkWidget *entry, *bar;

  settings_reset ();
  if (!fixture_open_sample (&f))
    return;
  /* The keyboard is in the list when the tab opens. */
  g_assert_true (gtk_widget_is_focus (GTK_WIDGET (f.view)));
  entry = ttv_gui_test_find_widget (GTK_WIDGET (f.tab), GTK_TYPE_ENTRY, "find-entry");
  bar = gtk_widget_get_ancestor (entry, GTK_TYPE_SEARCH_BAR);
  g_assert_false (gtk_search_bar_get_search_mode (GTK_SEARCH_BAR (bar)));
  g_assert_true (gtk_test_widget_send_key (GTK_WIDGET (f.view), GDK_KEY_F3, 0));
  ttv_gui_test_spin_until (entry_has_focus, entry);
  g_assert_true (gtk_search_bar_get_search_mode (GTK_SEARCH_BAR (bar)));
  fixture_close (&f);
}

/* --- The selected thread's events in bold, by machine ------------------------ */

/* Whether row @row's PID cell is drawn bold. */
static gboolean
row_is_bold (Fixture *f, gint row)
{
  GtkTreeModel *model = gtk_tree_view_get_model (f->view);
  GtkTreeViewColumn *c = column (f, COL_PID);
  g_autoptr (GList) cells = gtk_cell_layout_get_cells (GTK_CELL_LAYOUT (c));
  GtkTreeIter iter;
  gint weight = 0;

  g_assert_true (gtk_tree_model_iter_nth_child (model, &iter, NULL, row));
  gtk_tree_view_column_cell_set_cell_data (c, model, &iter, FALSE, FALSE);
  g_object_get (cells->data, "weight", &weight, NULL);
  return weight == PANGO_WEIGHT_BOLD;
}

/* Row @row's pid (0: none) and machine. */
static guint32
row_thread (Fixture *f, gint row, guint *machine)
{
  GtkTreeModel *model = gtk_tree_view_get_model (f->view);
  g_autofree char *text = cell_text (f, row, COL_PID);
  GtkTreeIter iter;

  g_assert_true (gtk_tree_model_iter_nth_child (model, &iter, NULL, row));
  gtk_tree_model_get (model, &iter, MODEL_MACHINE, machine, -1);
  return text && *text ? (guint32) g_ascii_strtoull (text, NULL, 10) : 0;
}

static void
show_time (Fixture *f, TtvTime t)
{
  ttv_tab_state_set_current_time (f->state, t);
  ttv_gui_test_spin_until (list_settled, f);
  ttv_gui_test_spin_pending ();
}

/* Checks that the rows on screen are bold exactly where they are events of
 * @pid on @machine, and that some are. */
static void
check_bold_rows (Fixture *f, guint machine, guint32 pid)
{
  guint n_bold = 0;

  for (gint r = 0; r < n_rows (f); r++)
    {
      g_autofree char *trace = cell_text (f, r, COL_TRACE);
      guint m;
      guint32 p = row_thread (f, r, &m);
      gboolean bold = row_is_bold (f, r);

      /* The row's machine is its trace's. */
      g_assert_cmpuint (m, ==, strstr (trace, "bold-beta") ? 1 : 0);
      g_assert_true (bold == (p == pid && m == machine));
      n_bold += bold;
    }
  g_assert_cmpuint (n_bold, >, 0);
}

/* Two generated machines with the same pids (alpha, LTT, and beta, CTF):
 * the thread selected on one machine is bold in that machine's events
 * only, not in the other's events of the same pid. */
static void
test_bold_by_machine (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *alpha = ttv_test_dup_tmp_path ("bold-alpha");
  g_autofree char *beta = ttv_test_dup_tmp_path ("bold-beta");
  TtvTraceset *ts = ttv_traceset_new ();
  Fixture f;

  settings_reset ();
  ttv_test_generate_machine (TTV_GEN_PATH, alpha, "ltt", "alpha", "1", "2", "1700000000");
  ttv_test_generate_machine (TTV_GEN_PATH, beta, "ctf", "beta", "2", "3", "1700000000.0000005");
  g_assert_true (ttv_traceset_add_path (ts, alpha, &error));
  g_assert_true (ttv_traceset_add_path (ts, beta, &error));
  g_assert_no_error (error);
  fixture_open (&f, ts);
  g_assert_cmpuint (ttv_traceset_get_n_machines (f.ts), ==, 2);

  /* Screens across the traces: a time where each (machine, pid) shows. */
  g_autoptr (GHashTable) at = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  TtvTime s0, s1;
  ttv_tab_state_get_time_span (f.state, &s0, &s1);
  for (guint k = 0; k < 24; k++)
    {
      TtvTime t = s0 + (s1 - s0) / 24 * k;

      show_time (&f, t);
      for (gint r = 0; r < n_rows (&f); r++)
        {
          guint m;
          guint32 p = row_thread (&f, r, &m);
          gint64 key = (gint64) m << 32 | p;

          if (p && !g_hash_table_contains (at, &key))
            g_hash_table_insert (at, g_memdup2 (&key, sizeof key), g_memdup2 (&t, sizeof t));
        }
    }
  /* A pid both machines show, each somewhere. */
  guint32 pid = 0;
  for (guint32 p = 2; p < 100000 && pid == 0; p++)
    {
      gint64 k0 = p, k1 = (gint64) 1 << 32 | p;

      if (g_hash_table_contains (at, &k0) && g_hash_table_contains (at, &k1))
        pid = p;
    }
  g_assert_cmpuint (pid, !=, 0);
  g_test_message ("pid %u shows on both machines", pid);

  for (guint machine = 0; machine < 2; machine++)
    {
      gint64 key = (gint64) machine << 32 | pid;

      show_time (&f, *(TtvTime *) g_hash_table_lookup (at, &key));
      ttv_tab_state_select_thread_on (f.state, machine, pid);
      ttv_gui_test_spin_pending ();
      check_bold_rows (&f, machine, pid);
      /* The same pid on the other machine: no row of this screen is bold. */
      ttv_tab_state_select_thread_on (f.state, 1 - machine, pid);
      ttv_gui_test_spin_pending ();
      for (gint r = 0; r < n_rows (&f); r++)
        {
          guint m;
          guint32 p = row_thread (&f, r, &m);

          g_assert_true (row_is_bold (&f, r) == (p == pid && m == 1 - machine));
        }
    }
  fixture_close (&f);
}

/* A keyboard user: Tab from the filter bar reaches the list and Shift+Tab
 * comes back; in the list the arrows move the current event. */
static void
test_keyboard_reaches_list (void)
{
  Fixture f;
  GtkWidget *filter;
  GPtrArray *ref;
  guint tabs = 0;

  settings_reset ();
  if (!fixture_open_sample (&f))
    return;
  ref = sample_reference (f.ts);
  /* As the tab opened: the keyboard in the list, no row selected yet;
   * Down selects the first, then moves on. */
  g_assert_true (gtk_widget_is_focus (GTK_WIDGET (f.view)));
  g_assert_cmpint (selected_row (&f), ==, -1);
  g_assert_true (gtk_test_widget_send_key (GTK_WIDGET (f.view), GDK_KEY_Down, 0));
  {
    SelectedIs sel = { &f, ref, 0 };

    ttv_gui_test_spin_until (selected_is, &sel);
    g_assert_true (gtk_test_widget_send_key (GTK_WIDGET (f.view), GDK_KEY_Down, 0));
    sel.want = 1;
    ttv_gui_test_spin_until (selected_is, &sel);
  }
  g_assert_cmpint (ttv_tab_state_get_current_time (f.state), ==, ((RefEvent *) ref->pdata[1])->time);

  filter = ttv_gui_test_find_widget (ttv_gui_test_find_widget (GTK_WIDGET (f.tab), TTV_TYPE_FILTER_BAR, NULL),
                                     GTK_TYPE_ENTRY, NULL);
  g_assert_nonnull (filter);
  gtk_widget_grab_focus (filter);
  while (tabs < 20 && !gtk_widget_is_focus (GTK_WIDGET (f.view)))
    {
      gtk_widget_child_focus (f.window, GTK_DIR_TAB_FORWARD);
      tabs++;
    }
  g_test_message ("Tab pressed %u times from the filter to the list", tabs);
  g_assert_true (gtk_widget_is_focus (GTK_WIDGET (f.view)));
  for (guint i = 0; i < tabs + 5 && !gtk_widget_is_focus (filter); i++)
    gtk_widget_child_focus (f.window, GTK_DIR_TAB_BACKWARD);
  g_assert_true (gtk_widget_is_focus (filter));
  fixture_close (&f);
}

/* A task and an event type named with a byte that is not UTF-8 (a
 * generated trace's "find" and "trap_entry" spoiled): its rows' cells
 * hold valid UTF-8, the byte as U+FFFD, and measuring and drawing them
 * warns of nothing (a warning fails the test). */
static void
test_names_not_utf8 (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *trace = ttv_test_dup_tmp_path ("not-utf8");
  const char *gen[] = { TTV_GEN_PATH, "-q", "-f", "ctf", "--cpus", "2", "--events", "20000", "-o", trace, NULL };
  g_free (ttv_test_run_ok (gen));
  ttv_gui_test_spoil_names (trace, "find");
  ttv_gui_test_spoil_metadata_value (trace, "name", "trap_entry", 4);
  TtvTraceset *ts = ttv_traceset_new ();
  g_assert_true (ttv_traceset_add_path (ts, trace, &error));
  g_assert_no_error (error);
  Fixture f;
  fixture_open (&f, ts);
  guint found = 0, traps = 0;
  TtvTime done = TTV_TIME_MIN;
  for (guint page = 0; page < 20 && (found < 3 || traps < 3); page++)
    {
      for (gint row = 0; row < n_rows (&f); row++)
        {
          for (gint c = COL_TIME; c <= COL_FIELDS; c++)
            {
              g_autofree char *text = cell_text (&f, row, c);
              g_assert_true (text == NULL || g_utf8_validate (text, -1, NULL));
            }
          g_autofree char *pid = cell_text (&f, row, COL_PID);
          g_autofree char *process = cell_text (&f, row, COL_PROCESS);
          g_autofree char *event = cell_text (&f, row, COL_EVENT);
          if (g_strcmp0 (pid, "50") == 0)
            {
              g_assert_cmpstr (process, ==, "fi\xef\xbf\xbd" "d");
              found++;
            }
          if (g_str_has_prefix (event, "trap\xef\xbf\xbd"))
            {
              g_assert_cmpstr (event, ==, "trap\xef\xbf\xbd" "entry");
              traps++;
            }
          done = MAX (done, row_time (&f, row));
        }
      /* The rows are drawn (and Pango given their text) before the next
       * screen. */
      gtk_widget_queue_draw (GTK_WIDGET (f.view));
      ttv_gui_test_spin_pending ();
      ttv_tab_state_set_current_time (f.state, done + 1);
      ttv_gui_test_spin_until (list_settled, &f);
    }
  g_assert_cmpuint (found, >, 0);
  g_assert_cmpuint (traps, >, 0);
  fixture_close (&f);
}

int
main (int argc, char **argv)
{
  gtk_test_init (&argc, &argv, NULL);
  /* The event list alone in its tab (a layout a user may keep): the
   * column tests measure it at the tab's width, not beside the details. */
  if (ttv_settings_get ())
    g_settings_set_string (ttv_settings_get (), "view-layout", "[events]");
  g_test_add_func ("/gui/event-list/columns-menu", test_columns_menu);
  g_test_add_func ("/gui/event-list/mode-column", test_mode_column);
  g_test_add_func ("/gui/event-list/symbol-column", test_symbol_column);
  g_test_add_func ("/gui/event-list/columns-layout", test_columns_layout);
  g_test_add_func ("/gui/event-list/time-format", test_time_format);
  g_test_add_func ("/gui/event-list/delta-after-jump", test_delta_after_jump);
  g_test_add_func ("/gui/event-list/lost-events", test_lost_events);
  g_test_add_func ("/gui/event-list/lost-packets", test_lost_packets);
  g_test_add_func ("/gui/event-list/find-text", test_find_text);
  g_test_add_func ("/gui/event-list/find-keys", test_find_keys);
  g_test_add_func ("/gui/event-list/find-progress-stop", test_find_progress_stop);
  g_test_add_func ("/gui/event-list/keyboard", test_keyboard_reaches_list);
  g_test_add_func ("/gui/event-list/bold-by-machine", test_bold_by_machine);
  g_test_add_func ("/gui/event-list/names-not-utf8", test_names_not_utf8);
  return g_test_run ();
}
