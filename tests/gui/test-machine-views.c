/* test-machine-views.c: the control flow and resources viewers on a tab of
 * two machines (issue 19, docs/multi-machine.md), in a real window under
 * Xvfb: two generated traces of different hosts with the same pids and
 * different CPU counts show each machine's rows under a header row named
 * after the host (a pid of both machines twice, once under each; two CPUs
 * under one, three under the other); one machine shows no header.  The
 * viewers are compiled in (not the time-line module, which registers the
 * same types).  TTV_SCREENSHOT_DIR keeps the screenshots. */
#include "ttv-config.h"

#include "ttv-gui-test-util.h"
#include "ttv-history.h"
#include "ttv-tab-state-private.h"
#include "ttv-test-util.h"
#include "ttv-timeline-viewers.h"
#include "ttv-timeline.h"

#include <string.h>

#ifndef TTV_GEN_PATH
#error "TTV_GEN_PATH must be defined by the build"
#endif

static char *alpha, *beta;   /* LTT host alpha, 2 CPUs; CTF host beta, 3 CPUs, the same pids */

static void
generate (const char *out, const char *format, const char *host, const char *seed, const char *cpus,
          const char *start)
{
  ttv_test_generate_machine (TTV_GEN_PATH, out, format, host, seed, cpus, start);
}

/* A tab state on @a (and @b) with its history. */
static TtvTabState *
open_state (const char *a, const char *b)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvTraceset) ts = ttv_traceset_new ();
  TtvHistoryOptions opt = { .no_cache = TRUE };

  g_assert_true (ttv_traceset_add_path (ts, a, &error));
  if (b)
    g_assert_true (ttv_traceset_add_path (ts, b, &error));
  g_assert_no_error (error);
  TtvHistory *h = ttv_history_build (ts, &opt, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  TtvTabState *state = ttv_tab_state_new (ts);
  ttv_tab_state_set_history (state, h);
  return state;
}

typedef struct {
  GtkWidget *window;
  GtkWidget *viewer;
  TtvTimeline *timeline;
} Shown;

static void
show (Shown *s, TtvTabState *state, gboolean controlflow)
{
  s->viewer = controlflow ? ttv_controlflow_viewer_new (state) : ttv_resources_viewer_new (state);
  s->window = gtk_window_new (GTK_WINDOW_TOPLEVEL);
  gtk_window_set_default_size (GTK_WINDOW (s->window), 1200, 780);
  gtk_container_add (GTK_CONTAINER (s->window), s->viewer);
  gtk_widget_show_all (s->window);
  /* Every row, busy in the window or not. */
  g_action_group_change_action_state (gtk_widget_get_action_group (s->viewer, controlflow ? "controlflow" : "resources"),
                                      "hide-idle", g_variant_new_boolean (FALSE));
  s->timeline = TTV_TIMELINE (ttv_gui_test_find_widget (s->viewer, TTV_TYPE_TIMELINE, NULL));
  g_assert_nonnull (s->timeline);
  ttv_gui_test_spin_pending ();
}

static void
screenshot (Shown *s, const char *name)
{
  GdkWindow *window = gtk_widget_get_window (s->window);
  const char *keep = g_getenv ("TTV_SCREENSHOT_DIR");
  g_autofree char *png = g_build_filename (keep ? keep : ttv_test_get_tmp_dir (), name, NULL);

  ttv_gui_test_spin_for (200);
  g_autoptr (GdkPixbuf) shot = gdk_pixbuf_get_from_window (window, 0, 0, gdk_window_get_width (window),
                                                           gdk_window_get_height (window));
  g_assert_nonnull (shot);
  g_assert_true (gdk_pixbuf_save (shot, png, "png", NULL, NULL));
}

static void
hide (Shown *s)
{
  gtk_widget_destroy (s->window);
}

/* The header rows of the view, and that every other row is of the machine
 * of the header above it; @ids gets per machine the ids of its rows of
 * @kind. */
static guint
check_groups (Shown *s, TtvTabState *state, TtvViewerRowKind kind, GHashTable *ids[2], const char *names[2])
{
  g_autoptr (TtvViewerHistory) h = ttv_tab_state_dup_history (state);
  gint machine = -1;
  guint n_headers = 0;

  for (guint i = 0; i < ttv_timeline_get_n_rows (s->timeline); i++)
    {
      const TtvTimelineRow *r = ttv_timeline_get_row (s->timeline, i);

      if (ttv_timeline_row_is_machine (r))
        {
          g_assert_cmpint ((gint) r->row, ==, machine + 1);   /* machine 0, then 1 */
          machine = (gint) r->row;
          g_assert_cmpstr (r->label, ==, names[machine]);
          n_headers++;
          continue;
        }
      g_assert_cmpint (machine, >=, 0);                       /* nothing before the first header */
      const TtvViewerRowInfo *info = ttv_viewer_history_get_row (h, r->kind, r->row);
      g_assert_nonnull (info);
      g_assert_cmpuint (info->machine, ==, (guint) machine);
      if (r->kind == kind && ids[machine])
        g_hash_table_add (ids[machine], GUINT_TO_POINTER (info->id + 1));
    }
  return n_headers;
}

static void
test_controlflow (void)
{
  g_autoptr (TtvTabState) state = open_state (alpha, beta);
  g_autoptr (GHashTable) a = g_hash_table_new (NULL, NULL);
  g_autoptr (GHashTable) b = g_hash_table_new (NULL, NULL);
  GHashTable *ids[2] = { a, b };
  const char *names[2] = { "alpha", "beta" };
  Shown s;
  guint n_both = 0;

  show (&s, state, TRUE);
  g_assert_cmpuint (check_groups (&s, state, TTV_VIEWER_ROW_PROCESS, ids, names), ==, 2);
  /* The same pids on both machines: each shows twice, once under each
   * header, never merged into one row. */
  GHashTableIter it;
  gpointer key;
  g_hash_table_iter_init (&it, a);
  while (g_hash_table_iter_next (&it, &key, NULL))
    n_both += GPOINTER_TO_UINT (key) > 1 && g_hash_table_contains (b, key);
  g_assert_cmpuint (n_both, >, 3);

  /* A header's tooltip names its machine; over the plot of the first row. */
  double y = ttv_timeline_get_header_height (s.timeline) + TTV_TIMELINE_ROW_HEIGHT / 2.0;
  g_autofree char *tip = ttv_timeline_dup_tooltip (s.timeline, ttv_timeline_get_label_width (s.timeline) + 50, y);
  g_assert_nonnull (tip);
  g_assert_true (g_str_has_prefix (tip, "alpha\n"));
  screenshot (&s, "gui-machines-controlflow.png");
  hide (&s);
  ttv_tab_state_shutdown (state);
}

static void
test_resources (void)
{
  g_autoptr (TtvTabState) state = open_state (alpha, beta);
  g_autoptr (GHashTable) a = g_hash_table_new (NULL, NULL);
  g_autoptr (GHashTable) b = g_hash_table_new (NULL, NULL);
  GHashTable *ids[2] = { a, b };
  const char *names[2] = { "alpha", "beta" };
  Shown s;

  show (&s, state, FALSE);
  g_assert_cmpuint (check_groups (&s, state, TTV_VIEWER_ROW_CPU, ids, names), ==, 2);
  g_assert_cmpuint (g_hash_table_size (a), ==, 2);
  g_assert_cmpuint (g_hash_table_size (b), ==, 3);
  screenshot (&s, "gui-machines-resources.png");
  hide (&s);
  ttv_tab_state_shutdown (state);
}

/* The display row of pid @pid of @machine, -1 when not shown. */
static gint
find_row (Shown *s, TtvTabState *state, guint machine, guint32 pid)
{
  g_autoptr (TtvViewerHistory) h = ttv_tab_state_dup_history (state);

  for (guint i = 0; i < ttv_timeline_get_n_rows (s->timeline); i++)
    {
      const TtvTimelineRow *r = ttv_timeline_get_row (s->timeline, i);
      const TtvViewerRowInfo *info = ttv_timeline_row_is_machine (r) || r->kind != TTV_VIEWER_ROW_PROCESS
                                       ? NULL : ttv_viewer_history_get_row (h, r->kind, r->row);

      if (info && info->machine == machine && info->id == pid)
        return (gint) i;
    }
  return -1;
}

/* A pid (not 0 or 1) shown on both machines, its row on the second not the
 * first under the header (a row above it to come from). */
static guint32
shared_pid (Shown *s, TtvTabState *state)
{
  for (guint32 pid = 2; pid < 100000; pid++)
    {
      gint b = find_row (s, state, 1, pid);

      if (b > 0 && !ttv_timeline_row_is_machine (ttv_timeline_get_row (s->timeline, (guint) b - 1))
          && find_row (s, state, 0, pid) >= 0)
        return pid;
    }
  g_assert_not_reached ();
}

static void
activate (Shown *s, const char *action, guint machine, guint32 pid)
{
  g_action_group_activate_action (gtk_widget_get_action_group (s->viewer, "controlflow"), action,
                                  g_variant_new_uint64 ((guint64) machine << 32 | pid));
  ttv_gui_test_spin_pending ();
}

/* A pid of both machines is two threads: picking it on the second
 * machine (the keyboard moving onto its row) selects that machine's, the
 * keyboard stays there, and hiding, pinning and following act on that
 * row alone. */
static void
test_thread_of_machine (void)
{
  g_autoptr (TtvTabState) state = open_state (alpha, beta);
  Shown s;

  show (&s, state, TRUE);
  guint32 pid = shared_pid (&s, state);
  gint row = find_row (&s, state, 1, pid);
  GtkWidget *area = ttv_gui_test_find_widget (GTK_WIDGET (s.timeline), GTK_TYPE_DRAWING_AREA, NULL);
  g_assert_nonnull (area);
  g_test_message ("pid %u: row %d on beta, %d on alpha", pid, row, find_row (&s, state, 0, pid));

  ttv_timeline_set_cursor (s.timeline, row - 1);
  gtk_widget_grab_focus (area);
  g_assert_true (gtk_test_widget_send_key (area, GDK_KEY_Down, 0));
  ttv_gui_test_spin_pending ();
  g_assert_cmpuint (ttv_tab_state_get_selected_thread (state), ==, pid);
  g_assert_cmpuint (ttv_tab_state_get_selected_machine (state), ==, 1);
  g_assert_cmpint (ttv_timeline_get_cursor (s.timeline), ==, row);
  /* Another view picking the thread of the first machine moves there. */
  ttv_tab_state_select_thread_on (state, 0, pid);
  ttv_gui_test_spin_pending ();
  g_assert_cmpint (ttv_timeline_get_cursor (s.timeline), ==, find_row (&s, state, 0, pid));

  activate (&s, "hide-row", 1, pid);
  g_assert_cmpint (find_row (&s, state, 1, pid), <, 0);
  g_assert_cmpint (find_row (&s, state, 0, pid), >=, 0);
  g_action_group_activate_action (gtk_widget_get_action_group (s.viewer, "controlflow"), "show-hidden", NULL);
  ttv_gui_test_spin_pending ();
  g_assert_cmpint (find_row (&s, state, 1, pid), >=, 0);

  /* Pinned: the first row, before the machines' headers. */
  activate (&s, "pin-row", 1, pid);
  g_assert_cmpint (find_row (&s, state, 1, pid), ==, 0);
  g_assert_cmpint (find_row (&s, state, 0, pid), >, 0);
  g_assert_true (g_str_has_suffix (ttv_timeline_get_row (s.timeline, 0)->label, " (beta)"));
  screenshot (&s, "gui-machines-pinned.png");
  activate (&s, "pin-row", 1, pid);
  g_assert_cmpint (find_row (&s, state, 1, pid), >, 0);

  activate (&s, "follow-thread", 1, pid);
  g_assert_cmpuint (ttv_tab_state_get_selected_thread (state), ==, pid);
  g_assert_cmpuint (ttv_tab_state_get_selected_machine (state), ==, 1);
  g_assert_cmpint (ttv_timeline_get_cursor (s.timeline), ==, find_row (&s, state, 1, pid));
  hide (&s);
  ttv_tab_state_shutdown (state);
}

/* The control flow's `shown-threads`: (machine, pid) pairs. */
static GVariant *
shown_threads (Shown *s)
{
  return g_action_group_get_action_state (gtk_widget_get_action_group (s->viewer, "controlflow"),
                                          "shown-threads");
}

static gboolean
threads_contain (GVariant *threads, guint machine, guint32 pid)
{
  GVariantIter iter;
  guint32 m, p;

  g_variant_iter_init (&iter, threads);
  while (g_variant_iter_next (&iter, "(uu)", &m, &p))
    if (m == machine && p == pid)
      return TRUE;
  return FALSE;
}

/* The tab's filter keeps one machine's events: the control flow shows the
 * threads that ran them on that machine, not the other machine's threads
 * of the same pids; `shown-threads` names each row's machine. */
static void
test_filter_of_machine (void)
{
  g_autoptr (GError) error = NULL;
  const char *const no_modules[] = { NULL };
  TtvTraceset *ts = ttv_traceset_new ();
  TtvGuiTestTab tab;
  Shown s;

  /* A whole tab: the filter reads the events with the state's pids. */
  g_assert_true (ttv_traceset_add_path (ts, alpha, &error));
  g_assert_true (ttv_traceset_add_path (ts, beta, &error));
  g_assert_no_error (error);
  ttv_gui_test_tab_open (&tab, ts, no_modules);
  TtvTabState *state = tab.state;
  /* Built in the background: until it is, the rows are not all known (a
   * loaded machine failed to find a pid of both here). */
  ttv_gui_test_spin_until (ttv_gui_test_history_ready, state);
  show (&s, state, TRUE);
  ttv_gui_test_spin_until (ttv_gui_test_no_requests, state);
  guint32 pid = shared_pid (&s, state);
  {
    g_autoptr (GVariant) all = shown_threads (&s);
    g_assert_true (threads_contain (all, 0, pid));
    g_assert_true (threads_contain (all, 1, pid));
  }
  g_assert_true (ttv_tab_state_set_filter (state, "trace.host = beta", &error));
  g_assert_no_error (error);
  ttv_gui_test_spin_until (ttv_gui_test_no_requests, state);
  ttv_gui_test_spin_pending ();
  g_autoptr (GVariant) kept = shown_threads (&s);
  GVariantIter iter;
  guint32 m, p;
  guint n = 0;

  g_variant_iter_init (&iter, kept);
  while (g_variant_iter_next (&iter, "(uu)", &m, &p))
    {
      g_assert_cmpuint (m, ==, 1);
      n++;
    }
  g_test_message ("%u threads of beta ran its events; pid %u is beta's only", n, pid);
  g_assert_cmpuint (n, >, 0);
  g_assert_cmpint (find_row (&s, state, 0, pid), <, 0);
  screenshot (&s, "gui-machines-filtered.png");
  hide (&s);
  ttv_gui_test_tab_teardown (&tab);
}

/* The first display row of (@machine, @pid), by a scan of every row: the
 * rows themselves before the threads folded into them (-1: none). */
static gint
first_row_of_pid (Shown *s, TtvViewerHistory *h, guint machine, guint32 pid)
{
  for (guint pass = 0; pass < 2; pass++)
    for (guint i = 0; i < ttv_timeline_get_n_rows (s->timeline); i++)
      {
        const TtvTimelineRow *r = ttv_timeline_get_row (s->timeline, i);

        if (r->kind != TTV_VIEWER_ROW_PROCESS)
          continue;
        for (guint m = 0; m < (pass == 0 ? 1 : r->merged ? r->merged->len : 0); m++)
          {
            guint row = pass == 0 ? r->row : g_array_index (r->merged, guint, m);
            const TtvViewerRowInfo *info = ttv_viewer_history_get_row (h, TTV_VIEWER_ROW_PROCESS, row);

            if (info && info->machine == machine && info->id == pid)
              return (gint) i;
          }
      }
  return -1;
}

/* Checks every row's cells and details, formatted when asked for, against
 * what the history says (the columns as the rows stored them before), and
 * the pid index of the arrows against a scan of the rows. */
static guint
check_row_text (Shown *s, TtvTabState *state)
{
  g_autoptr (TtvViewerHistory) h = ttv_tab_state_dup_history (state);
  TtvTime origin, end;
  guint n_names = 0, n_idle = 0, n_merged = 0;

  ttv_tab_state_get_time_span (state, &origin, &end);
  for (guint i = 0; i < ttv_timeline_get_n_rows (s->timeline); i++)
    {
      const TtvTimelineRow *r = ttv_timeline_get_row (s->timeline, i);
      g_auto (GStrv) cells = ttv_timeline_row_dup_cells (r);
      g_autofree char *details = ttv_timeline_row_dup_details (r);

      if (ttv_timeline_row_is_machine (r))
        {
          g_assert_null (cells);
          g_assert_cmpstr (details, ==, "The rows below are this machine's");
          continue;
        }
      const TtvViewerRowInfo *info = ttv_viewer_history_get_row (h, r->kind, r->row);
      g_autofree char *pid = g_strdup_printf ("%u", info->id);
      g_autofree char *tgid = info->tgid == TTV_VIEWER_PID_NONE ? g_strdup ("—") : g_strdup_printf ("%u", info->tgid);
      g_autofree char *ppid = info->ppid == TTV_VIEWER_PID_NONE ? g_strdup ("—") : g_strdup_printf ("%u", info->ppid);
      g_autofree char *cpu_time = ttv_viewer_format_duration (info->cpu_time);
      g_autofree char *since = ttv_viewer_format_duration (info->birth - origin);
      g_autofree char *birth = g_strdup_printf ("+%s", since);
      const char *want[] = { pid, tgid, ppid, cpu_time, birth, NULL };

      g_assert_nonnull (cells);
      g_assert_cmpstrv (cells, want);
      if (ttv_timeline_is_idle_task (info))
        {
          g_autofree char *idle = g_strdup_printf ("The idle task of CPU %d: drawn when the CPU idles", info->cpu);

          g_assert_cmpstr (details, ==, idle);
          n_idle++;
        }
      else if (details)
        {
          /* Every name the process had, the last its name now. */
          g_assert_true (g_str_has_prefix (details, "Names: "));
          g_assert_true (g_str_has_suffix (details, info->name));
          n_names++;
        }
      g_assert_cmpint (ttv_timeline_find_pid_row (s->timeline, info->machine, info->id), ==,
                       first_row_of_pid (s, h, info->machine, info->id));
      for (guint m = 0; r->merged && m < r->merged->len; m++)
        {
          const TtvViewerRowInfo *t = ttv_viewer_history_get_row (h, r->kind, g_array_index (r->merged, guint, m));

          g_assert_cmpint (ttv_timeline_find_pid_row (s->timeline, t->machine, t->id), ==,
                           first_row_of_pid (s, h, t->machine, t->id));
          n_merged++;
        }
    }
  g_assert_cmpuint (n_idle, ==, 5);   /* 2 CPUs of alpha, 3 of beta */
  g_test_message ("%u rows with names", n_names);
  g_assert_cmpint (ttv_timeline_find_pid_row (s->timeline, 0, 0x7ffffff0), ==, -1);
  return n_merged;
}

/* The control flow's columns and details are formatted when drawn or
 * asked for, not kept with the rows (issue 15): they say what the history
 * says, groups open and collapsed. */
static void
test_controlflow_row_text (void)
{
  g_autoptr (TtvTabState) state = open_state (alpha, beta);
  Shown s;

  show (&s, state, TRUE);
  g_assert_cmpuint (check_row_text (&s, state), ==, 0);
  g_action_group_activate_action (gtk_widget_get_action_group (s.viewer, "controlflow"), "collapse-all", NULL);
  ttv_gui_test_spin_pending ();
  g_assert_cmpuint (check_row_text (&s, state), >, 0);   /* threads folded into their process's row */
  hide (&s);
  ttv_tab_state_shutdown (state);
}

/* One machine: no header row, in either view. */
static void
test_one_machine (void)
{
  g_autoptr (TtvTabState) state = open_state (beta, NULL);

  for (guint v = 0; v < 2; v++)
    {
      Shown s;

      show (&s, state, v == 0);
      g_assert_cmpuint (ttv_timeline_get_n_rows (s.timeline), >, 3);
      for (guint i = 0; i < ttv_timeline_get_n_rows (s.timeline); i++)
        g_assert_false (ttv_timeline_row_is_machine (ttv_timeline_get_row (s.timeline, i)));
      hide (&s);
    }
  ttv_tab_state_shutdown (state);
}

int
main (int argc, char **argv)
{
  const char *tmp = ttv_test_get_tmp_dir ();
  g_autofree char *data = g_build_filename (tmp, "data", NULL);
  g_setenv ("XDG_DATA_HOME", data, TRUE);
  gtk_test_init (&argc, &argv, NULL);
  alpha = ttv_test_dup_tmp_path ("alpha");
  beta = ttv_test_dup_tmp_path ("beta");
  generate (alpha, "ltt", "alpha", "1", "2", "1700000000");
  generate (beta, "ctf", "beta", "2", "3", "1700000000.0005");
  g_test_add_func ("/gui/machines/controlflow", test_controlflow);
  g_test_add_func ("/gui/machines/controlflow-row-text", test_controlflow_row_text);
  g_test_add_func ("/gui/machines/resources", test_resources);
  g_test_add_func ("/gui/machines/one-machine", test_one_machine);
  g_test_add_func ("/gui/machines/thread-of-machine", test_thread_of_machine);
  g_test_add_func ("/gui/machines/filter-of-machine", test_filter_of_machine);
  int status = g_test_run ();
  g_free (alpha);
  g_free (beta);
  return status;
}
