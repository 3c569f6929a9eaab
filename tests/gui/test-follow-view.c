/* test-follow-view.c: File > Follow Live Trace under Xvfb: a trace whose
 * cpu files grow a block at a time while the tab follows it ends with the
 * whole trace's span and event count, the time window glued to the end,
 * and the event list, sent to the end with End, ends on the last event;
 * a tab that does not follow sees nothing new; damage appended to a live
 * trace stops following with a message, no crash. */
#include "ttv-config.h"

#include "ttv-gui-test-util.h"
#include "ttv-tab-state-private.h"
#include "ttv-tab.h"
#include "ttv-test-util.h"
#include "ttv-viewer-registry.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

#define BLOCK 65536   /* the sample trace's ltt_block_size */

/* A copy of the sample whose cpu files hold only their first block, and
 * the blocks still to append. */
typedef struct {
  char *dir;                 /* owned: the live trace, in the test's temporary directory */
  GPtrArray *paths;          /* of char *: the live cpu files */
  GPtrArray *data;           /* of GBytes *: the complete cpu files */
  guint next_block;
  guint max_blocks;
} LiveTrace;

static void
copy_tree (const char *from, const char *to, gboolean cpu_first_block, LiveTrace *live)
{
  g_autoptr (GDir) d = g_dir_open (from, 0, NULL);
  const char *name;

  g_assert_nonnull (d);
  g_assert_cmpint (g_mkdir_with_parents (to, 0755), ==, 0);
  while ((name = g_dir_read_name (d)))
    {
      g_autofree char *a = g_build_filename (from, name, NULL);
      g_autofree char *b = g_build_filename (to, name, NULL);
      g_autofree char *contents = NULL;
      gsize len;

      if (g_file_test (a, G_FILE_TEST_IS_DIR))
        {
          copy_tree (a, b, strcmp (name, "cpu") == 0, live);
          continue;
        }
      g_assert_true (g_file_get_contents (a, &contents, &len, NULL));
      if (cpu_first_block)
        {
          g_assert_cmpuint (len % BLOCK, ==, 0);
          g_ptr_array_add (live->paths, g_strdup (b));
          g_ptr_array_add (live->data, g_bytes_new (contents, len));
          live->max_blocks = MAX (live->max_blocks, len / BLOCK);
          len = BLOCK;
        }
      g_assert_true (g_file_set_contents (b, contents, (gssize) len, NULL));
    }
}

static void
live_trace_init (LiveTrace *live)
{
  memset (live, 0, sizeof *live);
  live->dir = ttv_test_dup_tmp_path ("live");
  live->paths = g_ptr_array_new_with_free_func (g_free);
  live->data = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  copy_tree (g_getenv ("TTV_SAMPLE_TRACE"), live->dir, FALSE, live);
  live->next_block = 1;
  g_assert_cmpuint (live->max_blocks, >, 4);
}

static void
live_trace_clear (LiveTrace *live)
{
  g_free (live->dir);
  g_ptr_array_unref (live->paths);
  g_ptr_array_unref (live->data);
}

/* Appends the next block of every cpu file that has one, as a tracer
 * finishing a sub-buffer; FALSE once everything is written. */
static gboolean
append_round (gpointer data)
{
  LiveTrace *live = data;

  if (live->next_block >= live->max_blocks)
    return G_SOURCE_REMOVE;
  for (guint i = 0; i < live->paths->len; i++)
    {
      gsize len;
      const char *all = g_bytes_get_data (live->data->pdata[i], &len);
      FILE *f;

      if ((gsize) (live->next_block + 1) * BLOCK > len)
        continue;
      f = fopen (live->paths->pdata[i], "ab");
      g_assert_nonnull (f);
      g_assert_cmpuint (fwrite (all + (gsize) live->next_block * BLOCK, 1, BLOCK, f), ==, BLOCK);
      fclose (f);
    }
  live->next_block++;
  return G_SOURCE_CONTINUE;
}

typedef struct {
  TtvTabState *state;
  guint64 n_events;
  TtvTime end;
} Goal;

static gboolean
caught_up (gpointer data)
{
  Goal *g = data;
  gboolean complete;
  TtvTime ss, se;

  ttv_tab_state_get_time_span (g->state, &ss, &se);
  return se == g->end && ttv_tab_state_get_event_count (g->state, &complete) == g->n_events
         && complete && ttv_tab_state_is_state_ready (g->state);
}

/* The event list's view: its selected row's time column (0), or NULL. */
static char *
dup_selected_time (GtkTreeView *view)
{
  GtkTreeModel *model;
  GtkTreeIter iter;
  char *text = NULL;

  if (gtk_tree_selection_get_selected (gtk_tree_view_get_selection (view), &model, &iter))
    gtk_tree_model_get (model, &iter, 0, &text, -1);
  return text;
}

typedef struct {
  GtkTreeView *view;
  const char *want;
} Selected;

static gboolean
selected_is (gpointer data)
{
  Selected *s = data;
  g_autofree char *text = dup_selected_time (s->view);

  return text && strcmp (text, s->want) == 0;
}

static void
test_follow (void)
{
  g_autoptr (TtvTraceset) full = ttv_gui_test_open_sample ();
  g_autoptr (TtvTraceset) ts = ttv_traceset_new ();
  g_autoptr (GError) error = NULL;
  LiveTrace live;
  GtkWidget *window;
  TtvTab *tab;
  Goal goal = { 0 };
  TtvTime ss, se, ws, we, first_end;
  gboolean complete;
  GtkTreeView *list;
  Selected last = { NULL, NULL };
  g_autofree char *end_text = NULL;

  if (!full)
    {
      g_test_skip ("TTV_SAMPLE_TRACE is not set or missing");
      return;
    }
  /* What following must end with: the complete trace's span and count. */
  {
    g_autoptr (TtvContext) ctx = ttv_context_new (full, &error);
    g_assert_true (ttv_context_seek_begin (ctx, &error));
    while (ttv_context_next (ctx, &error))
      goal.n_events++;
    g_assert_no_error (error);
    goal.end = ttv_traceset_get_end (full);
  }

  live_trace_init (&live);
  g_assert_true (ttv_traceset_add_path (ts, live.dir, &error));
  g_assert_no_error (error);
  g_assert_true (ttv_module_loader_load (TTV_EVENTS_MODULE_PATH, &error));
  g_assert_no_error (error);
  window = gtk_window_new (GTK_WINDOW_TOPLEVEL);
  gtk_window_set_default_size (GTK_WINDOW (window), 900, 600);
  tab = TTV_TAB (ttv_tab_new (ts));
  gtk_container_add (GTK_CONTAINER (window), GTK_WIDGET (tab));
  gtk_widget_show_all (window);
  goal.state = ttv_tab_get_state (tab);
  ttv_tab_state_get_time_span (goal.state, &ss, &first_end);
  g_assert_cmpint (first_end, <, goal.end);

  /* Not following: the trace grows, the tab does not move. */
  append_round (&live);
  ttv_gui_test_spin_for (2500);
  ttv_tab_state_get_time_span (goal.state, &ss, &se);
  g_assert_cmpint (se, ==, first_end);
  g_assert_false (ttv_tab_get_following (tab));

  /* The event list at the end (End key) stays there. */
  list = GTK_TREE_VIEW (ttv_gui_test_find_widget (GTK_WIDGET (tab), GTK_TYPE_TREE_VIEW, NULL));
  g_assert_nonnull (list);
  while (ttv_tab_state_get_n_requests (goal.state) > 0 || !ttv_tab_state_is_state_ready (goal.state))
    ttv_gui_test_spin_for (50);
  gtk_widget_grab_focus (GTK_WIDGET (list));
  g_assert_true (gtk_test_widget_send_key (GTK_WIDGET (list), GDK_KEY_End, 0));

  /* Following while the tracer writes a round every 150 ms. */
  ttv_tab_set_following (tab, TRUE);
  g_assert_true (ttv_tab_get_following (tab));
  g_timeout_add (150, append_round, &live);
  g_test_message ("waiting for the whole trace");
  ttv_gui_test_spin_until (caught_up, &goal);
  g_assert_cmpuint (live.next_block, ==, live.max_blocks);
  ttv_tab_state_get_time_window (goal.state, &ws, &we);
  g_assert_cmpint (we, ==, goal.end);    /* the window showed the end: it still does */
  g_assert_cmpuint (ttv_tab_state_get_event_count (goal.state, &complete), ==, goal.n_events);
  end_text = ttv_tab_state_format_time (goal.state, goal.end);   /* as the list shows it */
  last.view = list;
  last.want = end_text;
  g_test_message ("waiting for the event list to select the last event, at %s", end_text);
  ttv_gui_test_spin_until (selected_is, &last);

  ttv_tab_set_following (tab, FALSE);
  gtk_widget_destroy (window);
  live_trace_clear (&live);
}

/* A block of garbage appended to a followed trace: a message in the tab,
 * following stops, the window lives on. */
static void
test_follow_damage (void)
{
  g_autoptr (TtvTraceset) ts = ttv_traceset_new ();
  g_autoptr (GError) error = NULL;
  g_autofree char *junk = g_malloc (BLOCK);
  LiveTrace live;
  GtkWidget *window;
  TtvTab *tab;
  FILE *f;

  if (!g_getenv ("TTV_SAMPLE_TRACE"))
    {
      g_test_skip ("TTV_SAMPLE_TRACE is not set");
      return;
    }
  live_trace_init (&live);
  g_assert_true (ttv_traceset_add_path (ts, live.dir, &error));
  window = gtk_window_new (GTK_WINDOW_TOPLEVEL);
  tab = TTV_TAB (ttv_tab_new (ts));
  gtk_container_add (GTK_CONTAINER (window), GTK_WIDGET (tab));
  gtk_widget_show_all (window);
  ttv_tab_set_following (tab, TRUE);
  memset (junk, 0xA5, BLOCK);
  f = fopen (live.paths->pdata[0], "ab");
  g_assert_nonnull (f);
  g_assert_cmpuint (fwrite (junk, 1, BLOCK, f), ==, BLOCK);
  fclose (f);
  for (guint i = 0; i < 100 && ttv_tab_get_following (tab); i++)
    ttv_gui_test_spin_for (100);
  g_assert_false (ttv_tab_get_following (tab));
  g_assert_true (gtk_widget_get_visible (window));
  gtk_widget_destroy (window);
  live_trace_clear (&live);
}

int
main (int argc, char **argv)
{
  gtk_test_init (&argc, &argv, NULL);
  g_test_add_func ("/gui/follow/live-trace", test_follow);
  g_test_add_func ("/gui/follow/damage", test_follow_damage);
  return g_test_run ();
}
