/* test-view-layout.c: the panes of a tab's views under Xvfb (issue 16):
 * the default layout shows the histogram, control flow and event list
 * together; views shown, split, moved and closed as the View actions do;
 * the layout kept in GSettings and restored in a new tab; bad settings;
 * the event details pane (fields, contexts, process and CPU, Copy). */
#include "ttv-config.h"

#include "ttv-gui-test-util.h"
#include "ttv-settings.h"
#include "ttv-tab-layout.h"
#include "ttv-tab.h"
#include "ttv-test-util.h"
#include "ttv-viewer-registry.h"

#include <string.h>

#define DEFAULT_LAYOUT "V(0.180,[histogram],V(0.450,[controlflow],H(0.720,[events],[details])))"

static const char *const modules[] = { TTV_EVENTS_MODULE_PATH, TTV_TIMELINE_MODULE_PATH,
                                       TTV_HISTOGRAM_MODULE_PATH, NULL };

/* The top of @name's viewer in the tab, or fails when it is not on screen. */
static gint
viewer_top (TtvTab *tab, const char *name)
{
  GtkWidget *viewer = ttv_gui_test_viewer (tab, name);
  gint x, y;

  g_assert_nonnull (viewer);
  g_assert_true (gtk_widget_get_mapped (viewer));
  g_assert_cmpint (gtk_widget_get_allocated_height (viewer), >, 40);
  g_assert_true (gtk_widget_translate_coordinates (viewer, GTK_WIDGET (tab), 0, 0, &x, &y));
  return y;
}

static char *
kept_layout (void)
{
  return g_settings_get_string (ttv_settings_get (), "view-layout");
}

static void
assert_layout (TtvTab *tab, const char *expected)
{
  g_autofree char *now = NULL, *kept = NULL;

  ttv_gui_test_spin_pending ();
  now = ttv_tab_layout_to_string (ttv_tab_get_layout (tab));
  kept = kept_layout ();
  g_assert_cmpstr (now, ==, expected);
  g_assert_cmpstr (kept, ==, expected);
}

/* First open: the histogram strip above the control flow above the event
 * list, all three on screen at once. */
static void
test_default (void)
{
  TtvGuiTestTab f;

  g_settings_reset (ttv_settings_get (), "view-layout");
  if (!ttv_gui_test_tab_setup (&f, modules))
    return;
  ttv_gui_test_spin_for (300);
  gint histogram = viewer_top (f.tab, "histogram");
  gint controlflow = viewer_top (f.tab, "controlflow");
  gint events = viewer_top (f.tab, "events");
  g_assert_cmpint (histogram, <, controlflow);
  g_assert_cmpint (controlflow, <, events);
  /* The details beside the event list, right of it. */
  g_assert_cmpint (viewer_top (f.tab, "details"), ==, events);
  gint x_events, x_details, y;
  gtk_widget_translate_coordinates (ttv_gui_test_viewer (f.tab, "events"), GTK_WIDGET (f.tab), 0, 0, &x_events, &y);
  gtk_widget_translate_coordinates (ttv_gui_test_viewer (f.tab, "details"), GTK_WIDGET (f.tab), 0, 0, &x_details, &y);
  g_assert_cmpint (x_details, >, x_events + gtk_widget_get_allocated_width (ttv_gui_test_viewer (f.tab, "events")) - 1);
  assert_layout (f.tab, DEFAULT_LAYOUT);
  /* Their tabs' and menu items' icons are in the icon theme (a missing one
   * shows as a broken image). */
  for (guint i = 0; i < ttv_viewer_registry_get_n_viewers (); i++)
    {
      const TtvViewerInfo *info = ttv_viewer_registry_get_viewer (i);
      if (info->icon_name && ttv_gui_test_viewer (f.tab, info->name))
        g_assert_true (gtk_icon_theme_has_icon (gtk_icon_theme_get_default (), info->icon_name));
    }
  ttv_gui_test_tab_teardown (&f);
}

/* Show, split, move and close as the View menu does; each step kept. */
static void
test_commands (void)
{
  TtvGuiTestTab f;
  TtvTabLayout *layout;

  g_settings_reset (ttv_settings_get (), "view-layout");
  if (!ttv_gui_test_tab_setup (&f, modules))
    return;
  layout = ttv_tab_get_layout (f.tab);
  /* A view shown goes to the pane acted on last: the event list's. */
  g_assert_true (ttv_tab_show_viewer (f.tab, "resources"));
  assert_layout (f.tab, "V(0.180,[histogram],V(0.450,[controlflow],H(0.720,[events,*resources],[details])))");
  /* Split right: resources beside the event list, both on screen. */
  g_assert_true (ttv_tab_layout_split (layout, GTK_ORIENTATION_HORIZONTAL));
  ttv_gui_test_spin_for (200);
  assert_layout (f.tab, "V(0.180,[histogram],V(0.450,[controlflow],H(0.720,H(0.500,[events],[resources]),[details])))");
  g_assert_cmpint (viewer_top (f.tab, "resources"), ==, viewer_top (f.tab, "events"));
  g_assert_true (ttv_tab_layout_get_active_viewer (layout) == ttv_gui_test_viewer (f.tab, "resources"));
  /* A view alone in its pane cannot be split off it. */
  g_assert_false (ttv_tab_layout_split (layout, GTK_ORIENTATION_VERTICAL));
  /* Move to the next pane: its emptied pane goes away. */
  g_assert_true (ttv_tab_layout_move_to_next_pane (layout));
  assert_layout (f.tab, "V(0.180,[histogram],V(0.450,[controlflow],H(0.720,[events],[details,*resources])))");
  /* From the last pane, the next is the first. */
  g_assert_true (ttv_tab_layout_move_to_next_pane (layout));
  assert_layout (f.tab, "V(0.180,[histogram,*resources],V(0.450,[controlflow],H(0.720,[events],[details])))");
  /* Close: the view goes, its requests with it. */
  g_assert_true (ttv_tab_layout_close_viewer (layout));
  g_assert_null (ttv_gui_test_viewer (f.tab, "resources"));
  assert_layout (f.tab, DEFAULT_LAYOUT);
  ttv_gui_test_spin_until (ttv_gui_test_no_requests, f.state);
  /* Closing every view leaves one empty pane, where a view shown goes. */
  while (ttv_tab_layout_close_viewer (layout))
    ;
  assert_layout (f.tab, "[]");
  g_assert_true (ttv_tab_show_viewer (f.tab, "events"));
  assert_layout (f.tab, "[events]");
  ttv_tab_layout_reset (layout);
  ttv_gui_test_spin_pending ();
  g_assert_nonnull (ttv_gui_test_viewer (f.tab, "controlflow"));
  g_autofree char *after_reset = ttv_tab_layout_to_string (layout);
  g_assert_cmpstr (after_reset, ==, DEFAULT_LAYOUT);
  ttv_gui_test_tab_teardown (&f);
}

/* The split @data is at 65 % of its width, or as near as the views'
 * minimum sizes let it be (they change as the views fill in). */
static gboolean
split_at_share (gpointer data)
{
  GtkWidget *split = data;
  gint min, max, width = gtk_widget_get_allocated_width (split);

  g_object_get (split, "min-position", &min, "max-position", &max, NULL);
  return width > 1 && ABS (gtk_paned_get_position (GTK_PANED (split)) - CLAMP (width * 650 / 1000, min, max)) <= 2;
}

/* The user's layout comes back in the next tab; bad or foreign settings
 * give a usable layout. */
static void
test_kept (void)
{
  TtvGuiTestTab f;
  const char *mine = "H(0.650,[events],V(0.600,[controlflow,*resources],[histogram]))";
  g_autofree char *restored = NULL;

  g_settings_set_string (ttv_settings_get (), "view-layout", mine);
  if (!ttv_gui_test_tab_setup (&f, modules))
    return;
  ttv_gui_test_spin_for (200);
  restored = ttv_tab_layout_to_string (ttv_tab_get_layout (f.tab));
  g_assert_cmpstr (restored, ==, mine);
  g_assert_cmpint (viewer_top (f.tab, "events"), ==, viewer_top (f.tab, "resources"));
  g_assert_true (gtk_widget_get_mapped (ttv_gui_test_viewer (f.tab, "resources")));
  g_assert_false (gtk_widget_get_mapped (ttv_gui_test_viewer (f.tab, "controlflow")));   /* behind resources */
  /* The first pane's share is what was kept: 65 % of the width, unless
   * the views' minimum sizes say otherwise. */
  GtkWidget *split = gtk_widget_get_parent (gtk_widget_get_parent (ttv_gui_test_viewer (f.tab, "events")));
  ttv_gui_test_spin_until (split_at_share, split);
  /* Not a layout: nothing changes. */
  const char *bad[] = { "V(2,[events],[x])", "[events", "H(0.5,[events])", "Q", "[events]]", "" };
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    g_assert_false (ttv_tab_layout_load (ttv_tab_get_layout (f.tab), bad[i]));
  g_free (restored);
  restored = ttv_tab_layout_to_string (ttv_tab_get_layout (f.tab));
  g_assert_cmpstr (restored, ==, mine);
  /* Unknown views are left out; their panes with them. */
  g_assert_true (ttv_tab_layout_load (ttv_tab_get_layout (f.tab), "V(0.5,[nosuch],H(0.5,[events,nosuch2],[other]))"));
  assert_layout (f.tab, "[events]");
  ttv_gui_test_tab_teardown (&f);

  /* A setting naming no installed view: the default layout. */
  g_settings_set_string (ttv_settings_get (), "view-layout", "[nosuch]");
  ttv_gui_test_tab_setup (&f, modules);
  g_free (restored);
  restored = ttv_tab_layout_to_string (ttv_tab_get_layout (f.tab));
  g_assert_cmpstr (restored, ==, DEFAULT_LAYOUT);
  ttv_gui_test_tab_teardown (&f);
  g_settings_reset (ttv_settings_get (), "view-layout");
}

/* --- The event details pane ------------------------------------------------------ */

static gboolean
header_says (gpointer data)
{
  void **args = data;
  GtkWidget *header = ttv_gui_test_find_widget (args[0], GTK_TYPE_LABEL, "event-details-header");
  return header && strstr (gtk_label_get_text (GTK_LABEL (header)), args[1]) != NULL;
}

/* Waits until the details pane's header says @text; its text then. */
static char *
details_text (GtkWidget *details, const char *text)
{
  void *args[] = { details, (void *) text };

  ttv_gui_test_spin_until (header_says, args);
  ttv_gui_test_spin_pending ();
  /* What Ctrl+C copies, as the clipboard gets it. */
  GtkWidget *view = ttv_gui_test_find_widget (details, GTK_TYPE_TREE_VIEW, "event-details");
  GtkClipboard *clipboard = gtk_widget_get_clipboard (view, GDK_SELECTION_CLIPBOARD);
  gtk_clipboard_set_text (clipboard, "", -1);
  ttv_gui_test_send_key (view, GDK_KEY_c, GDK_CONTROL_MASK);
  return gtk_clipboard_wait_for_text (clipboard);
}

/* The sample (LTT): the event at the current time, its fields, its process
 * and CPU; the next event when none is at the current time; Copy. */
static void
test_details (void)
{
  TtvGuiTestTab f;
  TtvTime start, end;
  GtkWidget *details;

  g_settings_reset (ttv_settings_get (), "view-layout");
  if (!ttv_gui_test_tab_setup (&f, modules))
    return;
  details = ttv_gui_test_viewer (f.tab, "details");
  g_assert_nonnull (details);
  viewer_top (f.tab, "details");
  ttv_tab_state_get_time_span (f.state, &start, &end);
  g_autofree char *first = details_text (details, "1 event at +0.000000000");
  g_assert_nonnull (strstr (first, "core.trap_entry = +0.000000000\n"));
  g_assert_nonnull (strstr (first, "  CPU = 2\n"));
  g_assert_null (strstr (first, "Log level"));   /* LTT has none */
  g_assert_nonnull (strstr (first, "    trap_id = 14\n"));
  g_assert_nonnull (strstr (first, "    address = 139705411696048\n"));
  /* A scheduling switch: the process running once it is applied. */
  ttv_tab_state_set_current_time (f.state, start + 32700);
  g_autofree char *sw = details_text (details, "1 event at +0.000032700");
  g_assert_nonnull (strstr (sw, "core.sched_switch = +0.000032700\n"));
  g_assert_nonnull (strstr (sw, "    next_pid = 45\n"));
  g_assert_nonnull (strstr (sw, "  Process\n    Name = JS Helper\n    Thread ID = 45\n"));
  g_assert_nonnull (strstr (sw, "  CPU state\n    CPU = 2\n    Running = JS Helper (45)\n"));
  /* Between two events: the next one, said so. */
  ttv_tab_state_set_current_time (f.state, start + 32701);
  g_autofree char *next = details_text (details, "No event at +0.000032701; the next one, at +0.000062200");
  g_assert_nonnull (strstr (next, "core.syscall_entry = +0.000062200\n"));
  /* A selected row copies itself and what is under it. */
  GtkWidget *view = ttv_gui_test_find_widget (details, GTK_TYPE_TREE_VIEW, "event-details");
  GtkTreePath *path = gtk_tree_path_new_from_string ("0:2");   /* Fields */
  gtk_tree_selection_select_path (gtk_tree_view_get_selection (GTK_TREE_VIEW (view)), path);
  gtk_tree_path_free (path);
  g_autofree char *fields = NULL;
  g_action_group_activate_action (gtk_widget_get_action_group (details, "details"), "copy", NULL);
  fields = gtk_clipboard_wait_for_text (gtk_widget_get_clipboard (view, GDK_SELECTION_CLIPBOARD));
  g_assert_true (g_str_has_prefix (fields, "Fields\n  syscall_id = "));
  g_assert_null (strstr (fields, "core.syscall_entry"));
  ttv_gui_test_tab_teardown (&f);
}

/* A userspace CTF trace: the stream event context (procname, vtid). */
static void
test_details_contexts (void)
{
  TtvGuiTestTab f;
  g_autofree char *path = ttv_test_dup_shared_ctf_trace ("glxgears-ust");

  if (!path)    /* skipped, said why */
    return;
  g_settings_reset (ttv_settings_get (), "view-layout");
  ttv_gui_test_tab_setup_path (&f, path, modules);
  g_autofree char *text = details_text (ttv_gui_test_viewer (f.tab, "details"), "1 event at +0.000000000");
  g_assert_nonnull (strstr (text, "lttng_ust_cyg_profile:func_entry = +0.000000000\n"));
  g_assert_nonnull (strstr (text, "  CPU = 0\n  Log level = TRACE_DEBUG_FUNCTION (12)\n  Fields\n"));
  g_assert_null (strstr (text, "EMF URI"));
  g_assert_nonnull (strstr (text, "  Stream event context\n    procname = glxgears\n    vtid = 16073\n"));
  g_assert_nonnull (strstr (text, "  Packet context\n"));
  g_assert_nonnull (strstr (text, "    cpu_id = 0\n"));
  g_assert_nonnull (strstr (text, "    addr = 4212523\n"));   /* 0x40472B */
  ttv_gui_test_tab_teardown (&f);
}

/* The time of the first event named @name of the one-stream trace @dir. */
static TtvTime
first_event_named (const char *dir, const char *name)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvTrace) t = ttv_trace_open (dir, &error);
  g_autoptr (TtvCursor) c = NULL;
  TtvEvent ev;

  g_assert_no_error (error);
  g_assert_cmpuint (t->tracefiles->len, ==, 1);
  c = ttv_cursor_new (t->tracefiles->pdata[0], &error);
  g_assert_no_error (error);
  while (ttv_cursor_next (c, &ev, &error))
    if (strcmp (ev.type->name, name) == 0)
      return ev.time;
  g_error ("no %s event in %s", name, dir);
}

/* The details of an event whose type has an LTTng log level and an EMF
 * URI (a CTF 1.8 trace whose TSDL gives them): both, after its CPU; none
 * for an event type without. */
static void
test_details_log_level (void)
{
  g_autofree char *trace = ttv_test_write_ctf_log_levels ("log-levels");
  TtvTime sched = first_event_named (trace, "sched_switch");
  TtvTime trap = first_event_named (trace, "trap_entry");
  TtvTime start, end;
  TtvGuiTestTab f;

  g_settings_reset (ttv_settings_get (), "view-layout");
  ttv_gui_test_tab_setup_path (&f, trace, modules);
  ttv_tab_state_get_time_span (f.state, &start, &end);
  GtkWidget *details = ttv_gui_test_viewer (f.tab, "details");
  {
    g_autofree char *rel = ttv_test_dup_seconds (sched - start);
    g_autofree char *at = g_strdup_printf ("at +%s", rel);

    ttv_tab_state_set_current_time (f.state, sched);
    g_autofree char *text = details_text (details, at);
    g_assert_nonnull (strstr (text, "sched_switch = +"));
    g_assert_nonnull (strstr (text, "  CPU = 0\n  Log level = TRACE_WARNING (4)\n"
                                    "  EMF URI = http://example.org/sched\n  Fields\n"));
  }
  {
    g_autofree char *rel = ttv_test_dup_seconds (trap - start);
    g_autofree char *at = g_strdup_printf ("at +%s", rel);

    ttv_tab_state_set_current_time (f.state, trap);
    g_autofree char *text = details_text (details, at);
    g_assert_nonnull (strstr (text, "trap_entry = +"));
    g_assert_null (strstr (text, "Log level"));
    g_assert_null (strstr (text, "EMF URI"));
  }
  ttv_gui_test_tab_teardown (&f);
}

/* Every module's views, in the View menu and on their tabs, have an icon
 * that the icon theme (Adwaita 43, Debian 12's) has: a missing one shows
 * as a broken image.  Last: it loads every module. */
static void
test_icons (void)
{
  static const char *const every_module[] = {
    TTV_EVENTS_MODULE_PATH, TTV_TIMELINE_MODULE_PATH, TTV_HISTOGRAM_MODULE_PATH,
    TTV_STATISTICS_MODULE_PATH, TTV_LATENCY_MODULE_PATH, TTV_CPU_USAGE_MODULE_PATH,
    TTV_CRITICAL_PATH_MODULE_PATH, TTV_USERSPACE_MODULE_PATH, NULL
  };
  GtkIconTheme *theme = gtk_icon_theme_get_default ();

  ttv_gui_test_load_modules (every_module);
  g_assert_cmpuint (ttv_viewer_registry_get_n_viewers (), >=, 15);
  for (guint i = 0; i < ttv_viewer_registry_get_n_viewers (); i++)
    {
      const TtvViewerInfo *info = ttv_viewer_registry_get_viewer (i);
      g_autoptr (GtkIconInfo) icon = NULL;

      g_test_message ("%s: %s", info->name, info->icon_name);
      g_assert_nonnull (info->icon_name);
      g_assert_true (gtk_icon_theme_has_icon (theme, info->icon_name));
      /* What the menu and the tab draw: the icon itself, no fallback. */
      icon = gtk_icon_theme_lookup_icon (theme, info->icon_name, 16, 0);
      g_assert_nonnull (icon);
    }
}

int
main (int argc, char **argv)
{
  gtk_test_init (&argc, &argv, NULL);
  g_test_add_func ("/gui/layout/default", test_default);
  g_test_add_func ("/gui/layout/commands", test_commands);
  g_test_add_func ("/gui/layout/kept", test_kept);
  g_test_add_func ("/gui/layout/details", test_details);
  g_test_add_func ("/gui/layout/details-contexts", test_details_contexts);
  g_test_add_func ("/gui/layout/details-log-level", test_details_log_level);
  g_test_add_func ("/gui/layout/icons", test_icons);
  return g_test_run ();
}
