/* test-timeline.c: the control flow and resources modules under Xvfb,
 * checked on pixels: `ttv --render` PNGs show a known process's RUN-user
 * colour where the state history says it runs in user mode, one striped row
 * per history row (sample and real CTF traces), lost-event marks, a colour
 * changed in GSettings; the modules' options, the history pass, export to
 * PNG/SVG, and bad --render arguments. */
#include "ttv-config.h"

#include "ttv-context.h"
#include "ttv-gui-test-util.h"
#include "ttv-history-pass.h"
#include "ttv-palette-editor.h"
#include "ttv-settings.h"
#include "ttv-viewer-history.h"
#include "ttv-history.h"
#include "ttv-state-tracker.h"
#include "ttv-tab-state-private.h"
#include "ttv-tab.h"
#include "ttv-test-util.h"
#include "ttv-timeline-test-util.h"
#include "ttv-timeline.h"
#include "ttv-viewer-registry.h"

#include <cairo.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>

/* The sample with its history (built once): the tests' tab state. */
static TtvTabState *sample_tab;        /* owned */
static TtvViewerHistory *sample_vh;    /* owned: its history */

static const char *
sample_path (void)
{
  const char *path = g_getenv ("TTV_SAMPLE_TRACE");

  return path && g_file_test (path, G_FILE_TEST_IS_DIR) ? path : NULL;
}

static TtvTraceset *
open_sample (void)
{
  g_autoptr (GError) error = NULL;
  TtvTraceset *ts = ttv_traceset_new ();

  g_assert_true (ttv_traceset_add_path (ts, sample_path (), &error));
  g_assert_no_error (error);
  return ts;
}

static TtvTabState *
sample_state (void)
{
  if (!sample_tab)
    {
      g_autoptr (TtvTraceset) ts = open_sample ();
      g_autoptr (GError) error = NULL;
      TtvHistoryOptions opt = { .no_cache = TRUE };
      TtvHistory *h = ttv_history_build (ts, &opt, NULL, NULL, NULL, &error);

      g_assert_no_error (error);
      sample_tab = ttv_tab_state_new (ts);
      ttv_tab_state_set_history (sample_tab, h);
      sample_vh = ttv_tab_state_dup_history (sample_tab);
    }
  return sample_tab;
}

static const TtvHistory *
history (void)
{
  sample_state ();
  return ttv_viewer_history_get_history (sample_vh);
}

/* Runs ttv with @argv (NULL-terminated, after the program); returns its status. */
static gint
run_ttv (const char *const *args, char **err)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) env = ttv_gui_test_headless_environ ();
  gint status = -1;

  g_ptr_array_add (argv, (gpointer) TTV_EXE_PATH);
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  /* No display: a render needs none. */
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, env, G_SPAWN_DEFAULT, NULL, NULL,
                               NULL, err, &status, &error));
  g_assert_no_error (error);
  if (g_spawn_check_wait_status (status, &error))
    return 0;
  /* Exactly ttv's failure status: a sanitizer's report or a crash is not. */
  if (g_error_matches (error, G_SPAWN_EXIT_ERROR, 1))
    return 1;
  g_test_message ("ttv: %s\n%s", error->message, *err);
  return -1;
}

static guint32
rgb_of (const char *text)
{
  guint r, g, b;

  g_assert_cmpint (sscanf (text, "#%02x%02x%02x", &r, &g, &b), ==, 3);
  return (r << 16) | (g << 8) | b;
}

/* The colour of the GSettings schema (the test's memory backend: its default). */
static guint32
configured_color (const char *name)
{
  g_autoptr (GSettings) settings = g_settings_new ("org.ttv.Viewer");
  g_autoptr (GVariant) dict = g_settings_get_value (settings, "timeline-colors");
  g_autofree char *value = NULL;

  g_assert_true (g_variant_lookup (dict, name, "s", &value));
  return rgb_of (value);
}

/* Room for the header however many lines the legend takes. */
#define MAX_HEADER (4 * TTV_TIMELINE_LEGEND_LINE + TTV_TIMELINE_RULER_HEIGHT)

/* The longest RUN-user interval of a process row other than pid 0. */
static gboolean
find_user_run (const TtvHistory *h, guint *row_out, TtvHistoryInterval *out)
{
  return ttv_test_find_interval (h, TTV_PROCESS_RUN, TTV_MODE_USER, row_out, out);
}

/* The leader row of a thread's process (the rule of the view, written
 * again from the history: the leader born last before the thread), -1 when
 * the row is no thread of another process or its leader has no row. */
static gint
leader_of (const TtvHistory *h, guint r)
{
  const TtvHistoryRowInfo *t = ttv_history_get_row (h, TTV_HISTORY_ROW_PROCESS, r);
  guint n = ttv_history_get_n_rows (h, TTV_HISTORY_ROW_PROCESS);
  gint best = -1;

  if (t->cpu >= 0 || t->tgid == t->id || t->tgid == 0 || t->tgid == TTV_PID_NONE)
    return -1;
  for (guint i = 0; i < n; i++)
    {
      const TtvHistoryRowInfo *l = ttv_history_get_row (h, TTV_HISTORY_ROW_PROCESS, i);

      if (l->cpu < 0 && l->id == t->tgid && l->birth <= t->birth
          && (best < 0 || l->birth > ttv_history_get_row (h, TTV_HISTORY_ROW_PROCESS, best)->birth))
        best = (gint) i;
    }
  return best;
}

static const TtvHistory *sort_history;

static int
compare_pid_order (gconstpointer a, gconstpointer b)
{
  guint x = *(const guint *) a, y = *(const guint *) b;
  const TtvHistoryRowInfo *p = ttv_history_get_row (sort_history, TTV_HISTORY_ROW_PROCESS, x);
  const TtvHistoryRowInfo *q = ttv_history_get_row (sort_history, TTV_HISTORY_ROW_PROCESS, y);

  if (p->id != q->id)
    return p->id < q->id ? -1 : 1;
  if (p->birth != q->birth)
    return p->birth < q->birth ? -1 : 1;
  return (x > y) - (x < y);
}

/* Where the control flow view shows history row @row, everything expanded
 * and sorted by PID: processes by PID, each followed by its threads. */
static guint
display_index (const TtvHistory *h, guint row)
{
  guint n = ttv_history_get_n_rows (h, TTV_HISTORY_ROW_PROCESS), pos = 0;
  g_autoptr (GArray) top = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autofree gint *leader = g_new (gint, n);

  for (guint r = 0; r < n; r++)
    {
      leader[r] = leader_of (h, r);
      if (leader[r] < 0)
        g_array_append_val (top, r);
    }
  sort_history = h;
  g_array_sort (top, compare_pid_order);
  for (guint t = 0; t < top->len; t++)
    {
      guint l = g_array_index (top, guint, t);
      g_autoptr (GArray) kids = g_array_new (FALSE, FALSE, sizeof (guint));

      if (l == row)
        return pos;
      pos++;
      for (guint r = 0; r < n; r++)
        if (leader[r] == (gint) l)
          g_array_append_val (kids, r);
      g_array_sort (kids, compare_pid_order);
      for (guint k = 0; k < kids->len; k++, pos++)
        if (g_array_index (kids, guint, k) == row)
          return pos;
    }
  g_assert_not_reached ();
  return 0;
}

static void
test_render_controlflow (void)
{
  const TtvHistory *h;
  TtvHistoryInterval iv = { 0 };
  guint row = 0, n_rows, matches = 0;
  TtvTime len, t0, t1;
  const char *dir;
  g_autofree char *png = NULL, *window = NULL, *size = NULL, *err = NULL;
  g_autofree char *a = NULL, *b = NULL;
  cairo_surface_t *s;
  int width = 1000, height, plot;
  guint32 expected = configured_color ("run-user");

  if (!sample_path ())
    {
      g_test_skip ("TTV_SAMPLE_TRACE is not set: no sample trace");
      return;
    }
  h = history ();
  g_assert_true (find_user_run (h, &row, &iv));
  n_rows = ttv_history_get_n_rows (h, TTV_HISTORY_ROW_PROCESS);
  /* The run fills the middle third of the window. */
  len = iv.end - iv.start;
  t0 = iv.start - len;
  t1 = iv.end + len;
  a = g_strdup_printf ("%" G_GINT64_FORMAT ".%09" G_GINT64_FORMAT, t0 / 1000000000, t0 % 1000000000);
  b = g_strdup_printf ("%" G_GINT64_FORMAT ".%09" G_GINT64_FORMAT, t1 / 1000000000, t1 % 1000000000);
  window = g_strdup_printf ("%s:%s", a, b);
  height = MAX_HEADER + (int) n_rows * TTV_TIMELINE_ROW_HEIGHT + 20;
  size = g_strdup_printf ("%dx%d", width, height);
  dir = ttv_test_get_tmp_dir ();
  png = g_build_filename (dir, "cf.png", NULL);
  {
    const char *args[] = { "--render", "controlflow", "--trace", sample_path (), "--window", window,
                           "--size", size, "-o", png, NULL };
    g_assert_cmpint (run_ttv (args, &err), ==, 0);
  }
  s = ttv_test_load_png (png);
  g_assert_cmpint (cairo_image_surface_get_width (s), ==, width);
  g_assert_cmpint (cairo_image_surface_get_height (s), ==, height);
  /* One row per process row of the history (nothing hidden by default). */
  g_assert_cmpuint (ttv_test_count_rows (s), ==, n_rows);
  /* The known process's bar at 5 times inside its run: the configured
   * colour (a wakeup arrow may cross one of them). */
  plot = width - TTV_TIMELINE_PROCESS_LABEL_WIDTH;
  for (int k = 1; k <= 5; k++)
    {
      TtvTime t = iv.start + len * k / 6;
      int x = TTV_TIMELINE_PROCESS_LABEL_WIDTH + (int) ((double) (t - t0) / (double) (t1 - t0) * plot);
      int y = ttv_test_header_of (s) + (int) display_index (h, row) * TTV_TIMELINE_ROW_HEIGHT
              + TTV_TIMELINE_ROW_HEIGHT / 2 + 2;

      if (ttv_test_pixel (s, x, y) == expected)
        matches++;
    }
  g_assert_cmpuint (matches, >=, 4);
  /* And before the process's run, outside it: not that colour at the row's
   * first pixel, unless the state there is RUN-user too. */
  {
    TtvHistoryInterval before;
    int y = ttv_test_header_of (s) + (int) display_index (h, row) * TTV_TIMELINE_ROW_HEIGHT
            + TTV_TIMELINE_ROW_HEIGHT / 2 + 2;

    if (ttv_history_get_interval_at (h, TTV_HISTORY_ROW_PROCESS, row, t0 + len / 6, &before)
        && before.end < iv.start
        && !(ttv_history_state_low (before.state) == TTV_PROCESS_RUN
             && ttv_history_state_mode (before.state) == TTV_MODE_USER))
      g_assert_cmphex (ttv_test_pixel (s, TTV_TIMELINE_PROCESS_LABEL_WIDTH + plot / 6, y), !=, expected);
  }
  cairo_surface_destroy (s);
}

static void
test_render_resources (void)
{
  const TtvHistory *h;
  guint n = 0;
  const char *dir;
  g_autofree char *png = NULL, *svg = NULL, *err = NULL;
  cairo_surface_t *s;

  if (!sample_path ())
    {
      g_test_skip ("TTV_SAMPLE_TRACE is not set: no sample trace");
      return;
    }
  h = history ();
  for (TtvHistoryRowKind k = TTV_HISTORY_ROW_CPU; k < TTV_HISTORY_ROW_N_KINDS; k++)
    n += ttv_history_get_n_rows (h, k);
  g_assert_cmpuint (n, >, 4);
  dir = ttv_test_get_tmp_dir ();
  png = g_build_filename (dir, "res.png", NULL);
  svg = g_build_filename (dir, "res.svg", NULL);
  {
    const char *args[] = { "--render", "resources", "--trace", sample_path (), "--size", "800x600",
                           "-o", png, NULL };
    g_assert_cmpint (run_ttv (args, &err), ==, 0);
  }
  s = ttv_test_load_png (png);
  g_assert_cmpuint (ttv_test_count_rows (s), ==, n);
  cairo_surface_destroy (s);
  {
    g_autofree char *text = NULL, *err2 = NULL;
    const char *args[] = { "--render", "resources", "--trace", sample_path (), "--window",
                           "+0.1:+0.2", "-o", svg, NULL };
    g_assert_cmpint (run_ttv (args, &err2), ==, 0);
    g_assert_true (g_file_get_contents (svg, &text, NULL, NULL));
    g_assert_nonnull (strstr (text, "<svg"));
  }
}

/* The real LTTng kernel traces of ../shared: one row per process row. */
static void
test_render_real (void)
{
  const char *names[] = { "arm64-kernel", "bigendian-kernel", "scp-kernel" };
  const char *dir = ttv_test_get_tmp_dir ();

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = ttv_test_dup_shared_ctf_trace (names[i]);
      g_autofree char *png = g_build_filename (dir, "real.png", NULL);
      g_autofree char *size = NULL, *err = NULL;
      g_autoptr (TtvTraceset) ts = ttv_traceset_new ();
      g_autoptr (TtvHistory) h = NULL;
      g_autoptr (GError) error = NULL;
      TtvHistoryOptions opt = { .no_cache = TRUE };
      cairo_surface_t *s;
      guint n;

      if (!path)
        continue;
      g_assert_true (ttv_traceset_add_path (ts, path, &error));
      g_assert_no_error (error);
      h = ttv_history_build (ts, &opt, NULL, NULL, NULL, &error);
      g_assert_no_error (error);
      n = ttv_history_get_n_rows (h, TTV_HISTORY_ROW_PROCESS);
      g_test_message ("%s: %u process rows", names[i], n);
      g_assert_cmpuint (n, >, 0);
      size = g_strdup_printf ("900x%u", MAX_HEADER + n * TTV_TIMELINE_ROW_HEIGHT + 10);
      {
        const char *args[] = { "--render", "controlflow", "--trace", path, "--size", size, "-o", png, NULL };
        g_assert_cmpint (run_ttv (args, &err), ==, 0);
      }
      s = ttv_test_load_png (png);
      g_assert_cmpuint (ttv_test_count_rows (s), ==, n);
      cairo_surface_destroy (s);
      g_unlink (png);
    }
}

static void
test_render_bad (void)
{
  const char *sample = sample_path ();
  g_autofree char *out = g_build_filename (ttv_test_get_tmp_dir (), "x.png", NULL);
  const char *cases[][10] = {
    { "--render", "controlflow", "--trace", sample, "--size", "0x10", "-o", out, NULL },
    { "--render", "controlflow", "--trace", sample, "--size", "big", "-o", out, NULL },
    { "--render", "controlflow", "--trace", sample, "--window", "+2:+1", "-o", out, NULL },
    { "--render", "controlflow", "--trace", sample, "--window", "abc", "-o", out, NULL },
    { "--render", "no-such-view", "--trace", sample, "-o", out, NULL },
    { "--render", "controlflow", "--trace", "/nonexistent/trace", "-o", out, NULL },
    { "--render", "controlflow", "--trace", sample, "-o", "/nonexistent/dir/x.png", NULL },
    { "--render", "controlflow", "--trace", sample, "--size", "100x100", "-o", out, NULL },
    { "--render", "controlflow", NULL },
  };

  if (!sample)
    {
      g_test_skip ("TTV_SAMPLE_TRACE is not set: no sample trace");
      return;
    }
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *err = NULL;

      g_test_message ("case %u", i);
      g_assert_cmpint (run_ttv (cases[i], &err), ==, 1);
      g_assert_nonnull (strstr (err, "ttv: "));
    }
  g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
}

/* --- In process: the modules on a tab state ------------------------------- */

static void
load_modules (void)
{
  const char *const paths[] = { TTV_TIMELINE_MODULE_PATH, NULL };

  ttv_gui_test_load_modules (paths);
}

/* A render height that shows every process row of @h, below a legend of
 * up to 8 lines (it wraps on narrow renders) and the ruler. */
static int
all_rows (const TtvHistory *h)
{
  return 8 * TTV_TIMELINE_LEGEND_LINE + TTV_TIMELINE_RULER_HEIGHT + (int) (ttv_history_get_n_rows (h, TTV_HISTORY_ROW_PROCESS) + 2)
         * TTV_TIMELINE_ROW_HEIGHT;
}

static guint
render_rows (GtkWidget *viewer, const char *prefix, const char *path, int height)
{
  GActionGroup *group = gtk_widget_get_action_group (viewer, prefix);
  cairo_surface_t *s;
  guint n;

  g_unlink (path);
  g_action_group_activate_action (group, "render", g_variant_new ("(sii)", path, 600, height));
  s = ttv_test_load_png (path);
  n = ttv_test_count_rows (s);
  cairo_surface_destroy (s);
  return n;
}

typedef struct {
  GMainLoop *loop;
  TtvHistory *history;
  GError *error;
} PassWait;

static void
pass_done (GObject *source, GAsyncResult *result, gpointer data)
{
  PassWait *w = data;

  w->history = ttv_history_pass_run_finish (result, &w->error);
  g_main_loop_quit (w->loop);
}

/* --- Threads as tree rows --------------------------------------------------- */

static gboolean
is_thread_of (const TtvHistory *h, guint32 pid, guint32 tgid)
{
  for (guint i = 0; i < ttv_history_get_n_rows (h, TTV_HISTORY_ROW_PROCESS); i++)
    {
      const TtvHistoryRowInfo *t = ttv_history_get_row (h, TTV_HISTORY_ROW_PROCESS, i);

      if (t->cpu < 0 && t->id == pid && t->tgid == tgid && pid != tgid)
        return TRUE;
    }
  return FALSE;
}

/* Every thread shown right after its process's row, or after a sibling. */
static void
check_children_follow_parent (GtkWidget *cf, const TtvHistory *h)
{
  g_autoptr (GArray) pids = ttv_test_shown_pids (cf);
  guint n = ttv_history_get_n_rows (h, TTV_HISTORY_ROW_PROCESS), checked = 0;

  for (guint r = 0; r < n; r++)
    {
      const TtvHistoryRowInfo *t = ttv_history_get_row (h, TTV_HISTORY_ROW_PROCESS, r);
      gint l = leader_of (h, r);
      guint pos;

      if (l < 0)
        continue;
      for (pos = 0; pos < pids->len && g_array_index (pids, guint32, pos) != t->id; pos++)
        ;
      g_assert_cmpuint (pos, <, pids->len);
      /* Back over the thread's siblings to its leader. */
      while (pos > 0 && g_array_index (pids, guint32, pos - 1) != t->tgid)
        {
          pos--;
          g_assert_true (is_thread_of (h, g_array_index (pids, guint32, pos), t->tgid));
        }
      g_assert_cmpuint (pos, >, 0);
      checked++;
    }
  g_test_message ("%u threads checked under their process", checked);
}

static void
check_tree (GtkWidget *cf, const TtvHistory *h, const char *png)
{
  GActionGroup *group = gtk_widget_get_action_group (cf, "controlflow");
  guint n = ttv_history_get_n_rows (h, TTV_HISTORY_ROW_PROCESS), n_top = 0, n_threads = 0;
  gint thread = -1, leader = -1;
  guint leader_threads = 0, leader_pos = 0;
  const TtvHistoryRowInfo *ti, *li;

  for (guint r = 0; r < n; r++)
    {
      gint l = leader_of (h, r);

      if (l < 0)
        n_top++;
      else
        {
          n_threads++;
          if (thread < 0)
            {
              thread = (gint) r;
              leader = l;
            }
        }
    }
  for (guint r = 0; r < n; r++)
    leader_threads += leader >= 0 && leader_of (h, r) == leader;
  g_test_message ("%u process rows: %u at the top, %u threads under a process", n, n_top, n_threads);
  /* The sample has threads (ttv-gen makes some): the test means something. */
  g_assert_cmpint (thread, >=, 0);
  ti = ttv_history_get_row (h, TTV_HISTORY_ROW_PROCESS, thread);
  li = ttv_history_get_row (h, TTV_HISTORY_ROW_PROCESS, leader);

  g_action_group_activate_action (group, "collapse-all", NULL);
  g_assert_cmpuint (render_rows (cf, "controlflow", png, all_rows (h)), ==, n_top);
  {
    g_autoptr (GArray) pids = ttv_test_shown_pids (cf);

    g_assert_cmpuint (pids->len, ==, n_top);
    g_assert_false (ttv_test_pids_contain (pids, ti->id));
    for (leader_pos = 0; g_array_index (pids, guint32, leader_pos) != li->id; leader_pos++)
      g_assert_cmpuint (leader_pos + 1, <, pids->len);
  }
  /* Opening one group adds its threads, right below it. */
  g_action_group_activate_action (group, "toggle-row", g_variant_new_uint32 (leader_pos));
  g_assert_cmpuint (render_rows (cf, "controlflow", png, all_rows (h)), ==, n_top + leader_threads);
  {
    g_autoptr (GArray) pids = ttv_test_shown_pids (cf);
    gboolean below = FALSE;

    for (guint i = leader_pos + 1; i <= leader_pos + leader_threads; i++)
      below |= g_array_index (pids, guint32, i) == ti->id;
    g_assert_true (below);
  }
  /* And closing it again. */
  g_action_group_activate_action (group, "toggle-row", g_variant_new_uint32 (leader_pos));
  g_assert_cmpuint (render_rows (cf, "controlflow", png, all_rows (h)), ==, n_top);

  /* A search matching a thread of a collapsed group shows the group open
   * with that thread. */
  {
    g_autofree char *pid = g_strdup_printf ("%u", ti->id);
    g_autoptr (GArray) pids = NULL;

    ttv_test_set_search (cf, pid);
    pids = ttv_test_shown_pids (cf);
    g_assert_cmpuint (pids->len, ==, 2);
    g_assert_cmpuint (g_array_index (pids, guint32, 0), ==, li->id);
    g_assert_cmpuint (g_array_index (pids, guint32, 1), ==, ti->id);
    ttv_test_set_search (cf, "");
  }

  g_action_group_activate_action (group, "expand-all", NULL);
  g_assert_cmpuint (render_rows (cf, "controlflow", png, all_rows (h)), ==, n);
}

/* The pids hide-idle keeps over [t0, t1), written again from the
 * intervals: rows running or waiting for a CPU there (not the idle tasks),
 * and the processes of such threads. */
static GHashTable *
busy_pids (const TtvHistory *h, TtvTime t0, TtvTime t1)
{
  GHashTable *pids = g_hash_table_new (NULL, NULL);
  guint n = ttv_history_get_n_rows (h, TTV_HISTORY_ROW_PROCESS);

  for (guint r = 0; r < n; r++)
    {
      const TtvHistoryRowInfo *info = ttv_history_get_row (h, TTV_HISTORY_ROW_PROCESS, r);
      g_autoptr (GArray) ivs = NULL;
      gboolean busy = FALSE;

      if (info->id == 0 && info->cpu >= 0)
        continue;
      ivs = ttv_history_query_intervals (h, TTV_HISTORY_ROW_PROCESS, r, t0, t1 - 1);
      for (guint i = 0; i < ivs->len && !busy; i++)
        {
          const TtvHistoryInterval *iv = &g_array_index (ivs, TtvHistoryInterval, i);
          guint low = ttv_history_state_low (iv->state);

          busy = iv->end > t0 && iv->start < t1
                 && (low == TTV_PROCESS_RUN || low == TTV_PROCESS_WAIT_CPU || low == TTV_PROCESS_WAIT_FORK);
        }
      if (!busy)
        continue;
      g_hash_table_add (pids, GUINT_TO_POINTER (info->id));
      if (leader_of (h, r) >= 0)
        g_hash_table_add (pids, GUINT_TO_POINTER (info->tgid));
    }
  return pids;
}

static void
test_modules (void)
{
  g_autoptr (TtvTraceset) ts = NULL;
  g_autoptr (TtvTabState) state = NULL;
  g_autoptr (GCancellable) cancel = g_cancellable_new ();
  const char *dir;
  g_autofree char *png = NULL, *svg = NULL;
  GtkWidget *cf, *res;
  PassWait w = { 0 };
  gint *progress = g_atomic_rc_box_new0 (gint);
  const TtvHistory *h;
  guint n_proc, n_busy = 0;
  TtvTime t0, t1;

  if (!sample_path ())
    {
      g_test_skip ("TTV_SAMPLE_TRACE is not set: no sample trace");
      g_atomic_rc_box_release (progress);
      return;
    }
  load_modules ();
  h = history ();
  n_proc = ttv_history_get_n_rows (h, TTV_HISTORY_ROW_PROCESS);
  ts = open_sample ();
  state = ttv_tab_state_new (ts);
  cf = g_object_ref_sink (ttv_viewer_registry_find ("controlflow")->new_viewer (state));
  res = g_object_ref_sink (ttv_viewer_registry_find ("resources")->new_viewer (state));
  dir = ttv_test_get_tmp_dir ();
  png = g_build_filename (dir, "v.png", NULL);
  svg = g_build_filename (dir, "v.svg", NULL);
  /* No history yet: no rows. */
  g_assert_null (ttv_tab_state_dup_history (state));
  g_assert_cmpuint (render_rows (cf, "controlflow", png, 300), ==, 0);

  /* The pass in a thread, then handed over: the views fill. */
  w.loop = g_main_loop_new (NULL, FALSE);
  ttv_history_pass_run_async (ts, ttv_settings_get_history_cache_max (), progress, cancel, pass_done, &w);
  g_main_loop_run (w.loop);
  g_main_loop_unref (w.loop);
  g_assert_no_error (w.error);
  g_assert_nonnull (w.history);
  g_assert_cmpint (g_atomic_int_get (progress), ==, 1000);
  g_atomic_rc_box_release (progress);
  ttv_tab_state_set_history (state, w.history);
  {
    g_autoptr (TtvViewerHistory) vh = ttv_tab_state_dup_history (state);
    g_assert_nonnull (vh);
    g_assert_cmpuint (ttv_viewer_history_get_n_rows (vh, TTV_VIEWER_ROW_PROCESS), ==, n_proc);
  }
  g_assert_cmpuint (render_rows (cf, "controlflow", png, all_rows (h)), ==, n_proc);

  /* Hide idle: a 1 ms window keeps exactly the rows that run or wait for
   * a CPU in it (from the intervals), and the processes of such threads;
   * the CPUs' idle tasks go. */
  ttv_tab_state_get_time_span (state, &t0, &t1);
  t0 += (t1 - t0) / 2;
  t1 = t0 + 1000000;
  ttv_tab_state_set_time_window (state, t0, t1);
  g_action_group_change_action_state (gtk_widget_get_action_group (cf, "controlflow"), "hide-idle",
                                      g_variant_new_boolean (TRUE));
  {
    g_autoptr (GHashTable) expected = busy_pids (h, t0, t1);
    g_autoptr (GArray) pids = ttv_test_shown_pids (cf);

    n_busy = g_hash_table_size (expected);
    g_test_message ("hide idle over 1 ms: %u of %u rows busy", n_busy, n_proc);
    g_assert_cmpuint (n_busy, >, 0);
    g_assert_cmpuint (n_busy, <, n_proc);
    g_assert_cmpuint (render_rows (cf, "controlflow", png, all_rows (h)), ==, pids->len);
    g_assert_cmpuint (pids->len, ==, n_busy);
    for (guint i = 0; i < pids->len; i++)
      g_assert_true (g_hash_table_contains (expected, GUINT_TO_POINTER (g_array_index (pids, guint32, i))));
  }
  /* Another 1 ms window, with other busy rows: its own rows (what the view
   * remembered of the first window is forgotten); then a search typed
   * there, each keystroke building the rows again from what it
   * remembers: the busy rows that match. */
  {
    g_autoptr (GHashTable) first = busy_pids (h, t0, t1);
    TtvTime s0, s1;

    ttv_tab_state_get_time_span (state, &s0, &s1);
    s0 += (s1 - s0) / 4;
    s1 = s0 + 1000000;
    ttv_tab_state_set_time_window (state, s0, s1);

    g_autoptr (GHashTable) expected = busy_pids (h, s0, s1);
    g_autoptr (GArray) pids = ttv_test_shown_pids (cf);
    gboolean differ = g_hash_table_size (first) != g_hash_table_size (expected);
    GHashTableIter it;
    gpointer pid;

    g_hash_table_iter_init (&it, expected);
    while (g_hash_table_iter_next (&it, &pid, NULL))
      differ |= !g_hash_table_contains (first, pid);
    g_assert_true (differ);
    g_assert_cmpuint (pids->len, ==, g_hash_table_size (expected));
    for (guint i = 0; i < pids->len; i++)
      g_assert_true (g_hash_table_contains (expected, GUINT_TO_POINTER (g_array_index (pids, guint32, i))));

    guint32 one = g_array_index (pids, guint32, 0);
    g_autofree char *needle = g_strdup_printf ("%u", one);
    g_autoptr (GArray) found = NULL;

    ttv_test_set_search (cf, needle);
    found = ttv_test_shown_pids (cf);
    g_assert_true (ttv_test_pids_contain (found, one));
    for (guint i = 0; i < found->len; i++)
      g_assert_true (g_hash_table_contains (expected, GUINT_TO_POINTER (g_array_index (found, guint32, i))));
    ttv_test_set_search (cf, "");
    g_clear_pointer (&pids, g_array_unref);
    pids = ttv_test_shown_pids (cf);
    g_assert_cmpuint (pids->len, ==, g_hash_table_size (expected));
  }
  /* The whole trace, the window a view opens with: each row's whole life
   * lies in it, and the view tells the busy ones from the states the
   * history says each row takes (TtvViewerRowInfo.states_seen), without
   * reading their intervals; the same rows. */
  {
    TtvTime s0, s1;

    ttv_tab_state_get_time_span (state, &s0, &s1);
    ttv_tab_state_set_time_window (state, s0, s1);

    g_autoptr (GHashTable) expected = busy_pids (h, s0, s1);
    g_autoptr (GArray) pids = ttv_test_shown_pids (cf);

    g_test_message ("hide idle over the whole trace: %u of %u rows busy", g_hash_table_size (expected),
                    n_proc);
    g_assert_cmpuint (pids->len, ==, g_hash_table_size (expected));
    for (guint i = 0; i < pids->len; i++)
      g_assert_true (g_hash_table_contains (expected, GUINT_TO_POINTER (g_array_index (pids, guint32, i))));
  }
  /* Inside one long run without events: the running process stays. */
  {
    guint row = 0;
    TtvHistoryInterval iv = { 0 };
    g_autoptr (GArray) pids = NULL;
    const TtvHistoryRowInfo *info;

    g_assert_true (find_user_run (h, &row, &iv));
    info = ttv_history_get_row (h, TTV_HISTORY_ROW_PROCESS, row);
    ttv_tab_state_set_time_window (state, iv.start + (iv.end - iv.start) / 3,
                                   iv.start + (iv.end - iv.start) / 3 + 1000);
    pids = ttv_test_shown_pids (cf);
    g_assert_true (ttv_test_pids_contain (pids, info->id));
  }
  g_action_group_change_action_state (gtk_widget_get_action_group (cf, "controlflow"), "hide-idle",
                                      g_variant_new_boolean (FALSE));
  /* Threads under their process: expanded by default (every row, as
   * checked above), collapsed: one row per process. */
  check_tree (cf, h, png);
  /* Sorting keeps them all. */
  g_action_group_change_action_state (gtk_widget_get_action_group (cf, "controlflow"), "sort",
                                      g_variant_new_string ("cpu-time"));
  g_assert_cmpuint (render_rows (cf, "controlflow", png, all_rows (h)), ==, n_proc);
  check_children_follow_parent (cf, h);

  /* A colour changed in GSettings: the next drawing uses it. */
  g_action_group_change_action_state (gtk_widget_get_action_group (cf, "controlflow"), "sort",
                                      g_variant_new_string ("pid"));
  {
    g_autoptr (GSettings) settings = g_settings_new ("org.ttv.Viewer");
    TtvHistoryInterval iv = { 0 };
    guint row = 0;
    cairo_surface_t *s;
    int x, y;

    g_assert_true (find_user_run (h, &row, &iv));
    ttv_tab_state_set_time_window (state, iv.start - (iv.end - iv.start), iv.end + (iv.end - iv.start));
    /* Colours… opens the window's Preferences: outside a window, nothing. */
    g_action_group_activate_action (gtk_widget_get_action_group (cf, "controlflow"), "edit-colors", NULL);
    /* Only run-user: the others keep their defaults. */
    g_settings_set_value (settings, "timeline-colors", g_variant_new_parsed ("{'run-user': '#102030'}"));
    g_unlink (png);
    g_action_group_activate_action (gtk_widget_get_action_group (cf, "controlflow"), "render",
                                    g_variant_new ("(sii)", png, TTV_TIMELINE_PROCESS_LABEL_WIDTH + 600, all_rows (h)));
    s = ttv_test_load_png (png);
    /* The middle of the run: the middle of the plot (600 px wide). */
    x = TTV_TIMELINE_PROCESS_LABEL_WIDTH + 300;
    y = ttv_test_header_of (s) + (int) display_index (h, row) * TTV_TIMELINE_ROW_HEIGHT
        + TTV_TIMELINE_ROW_HEIGHT / 2 + 2;
    g_assert_true (ttv_test_pixel (s, x, y) == 0x102030 || ttv_test_pixel (s, x + 20, y) == 0x102030);
    cairo_surface_destroy (s);
    g_settings_reset (settings, "timeline-colors");
  }

  /* Lost events (CTF's discarded events; none in the sample): a range added
   * to a tracefile shows as a red mark along the time scale's bottom. */
  {
    TtvTrace *trace = ttv_traceset_get_trace (ts, 0);
    TtvTracefile *tf = trace->tracefiles->pdata[0];
    TtvLostRange lost = { 0 };
    TtvTime s0, s1;
    cairo_surface_t *s;
    int plot = 600, y;
    guint32 in, out;

    ttv_tab_state_get_time_span (state, &s0, &s1);
    ttv_tab_state_set_time_window (state, s0, s1);
    lost.start = s0 + (s1 - s0) * 40 / 100;
    lost.end = s0 + (s1 - s0) * 45 / 100;
    lost.count = 123;
    g_array_append_val (tf->lost, lost);
    g_unlink (png);
    g_action_group_activate_action (gtk_widget_get_action_group (cf, "controlflow"), "render",
                                    g_variant_new ("(sii)", png, TTV_TIMELINE_PROCESS_LABEL_WIDTH + plot, 400));
    s = ttv_test_load_png (png);
    y = ttv_test_header_of (s) - 2;
    in = ttv_test_pixel (s, TTV_TIMELINE_PROCESS_LABEL_WIDTH + plot * 42 / 100, y);
    out = ttv_test_pixel (s, TTV_TIMELINE_PROCESS_LABEL_WIDTH + plot * 20 / 100, y);
    g_assert_cmpuint (in >> 16, >, 0xc0);
    g_assert_cmpuint ((in >> 8) & 0xff, <, 0x40);
    g_assert_cmpuint (out >> 16, ==, (out >> 8) & 0xff);   /* grey: no mark */
    cairo_surface_destroy (s);
    g_array_set_size (tf->lost, tf->lost->len - 1);
  }

  /* Export at the widget's size (unrealized: the minimum), SVG too. */
  g_action_group_activate_action (gtk_widget_get_action_group (res, "resources"), "export",
                                  g_variant_new_string (svg));
  g_assert_true (g_file_test (svg, G_FILE_TEST_IS_REGULAR));
  g_assert_cmpuint (render_rows (res, "resources", png, 600), >, 4);

  /* The traceset changes: the history is forgotten. */
  ttv_tab_state_set_traceset (state, ts);
  g_assert_null (ttv_tab_state_dup_history (state));
  g_assert_cmpuint (render_rows (cf, "controlflow", png, 300), ==, 0);

  gtk_widget_destroy (cf);
  gtk_widget_destroy (res);
  g_object_unref (cf);
  g_object_unref (res);
  ttv_tab_state_shutdown (state);
}

/* --- The palette and its Preferences section ------------------------------- */

static guint32
rgba_hex (const GdkRGBA *c)
{
  return ((guint32) (c->red * 255 + 0.5) << 16) | ((guint32) (c->green * 255 + 0.5) << 8)
         | (guint32) (c->blue * 255 + 0.5);
}

static void
test_palette (void)
{
  g_autoptr (GSettings) settings = g_settings_new ("org.ttv.Viewer");
  g_autoptr (GSettingsSchema) schema = NULL;
  g_autoptr (GSettingsSchemaKey) key = NULL;
  g_autoptr (GVariant) defaults = NULL;
  g_autoptr (GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);
  GtkWidget *editor, *button;
  GdkRGBA c;

  g_object_get (settings, "settings-schema", &schema, NULL);
  key = g_settings_schema_get_key (schema, TTV_PALETTE_SETTINGS_KEY);
  defaults = g_settings_schema_key_get_default_value (key);
  /* The palette and the schema agree: names unique, same defaults. */
  for (guint i = 0; i < TTV_PALETTE_N_COLORS; i++)
    {
      g_autofree char *value = NULL;

      g_assert_true (g_hash_table_add (names, (gpointer) ttv_palette_get_name (i)));
      g_assert_nonnull (ttv_palette_get_label (i));
      g_assert_true (g_variant_lookup (defaults, ttv_palette_get_name (i), "s", &value));
      g_assert_cmpstr (value, ==, ttv_palette_get_default (i));
      ttv_palette_get_rgba (NULL, i, &c);
      g_assert_cmphex (rgba_hex (&c), ==, rgb_of (ttv_palette_get_default (i)));
    }
  g_assert_cmpuint (g_variant_n_children (defaults), ==, TTV_PALETTE_N_COLORS);

  /* Set one: the others stay; a value that is no colour reads as the default. */
  gdk_rgba_parse (&c, "#102030");
  ttv_palette_set_rgba (settings, TTV_PALETTE_BLOCKED, &c);
  ttv_palette_get_rgba (settings, TTV_PALETTE_BLOCKED, &c);
  g_assert_cmphex (rgba_hex (&c), ==, 0x102030);
  ttv_palette_get_rgba (settings, TTV_PALETTE_RUN_USER, &c);
  g_assert_cmphex (rgba_hex (&c), ==, rgb_of (ttv_palette_get_default (TTV_PALETTE_RUN_USER)));
  g_settings_set_value (settings, TTV_PALETTE_SETTINGS_KEY,
                        g_variant_new_parsed ("{'zombie': 'not a colour', 'no-such-state': '#000000'}"));
  ttv_palette_get_rgba (settings, TTV_PALETTE_ZOMBIE, &c);
  g_assert_cmphex (rgba_hex (&c), ==, rgb_of (ttv_palette_get_default (TTV_PALETTE_ZOMBIE)));
  g_settings_reset (settings, TTV_PALETTE_SETTINGS_KEY);

  /* The Preferences section: a button per entry showing the setting,
   * following changes, writing on "color-set"; Reset restores. */
  editor = g_object_ref_sink (ttv_palette_editor_new (settings));
  button = ttv_gui_test_find_widget (editor, GTK_TYPE_WIDGET, "wait-cpu");
  g_assert_true (GTK_IS_COLOR_BUTTON (button));
  gtk_color_chooser_get_rgba (GTK_COLOR_CHOOSER (button), &c);
  g_assert_cmphex (rgba_hex (&c), ==, rgb_of (ttv_palette_get_default (TTV_PALETTE_WAIT_CPU)));
  gdk_rgba_parse (&c, "#abcdef");
  ttv_palette_set_rgba (settings, TTV_PALETTE_WAIT_CPU, &c);
  ttv_gui_test_spin_pending ();
  gtk_color_chooser_get_rgba (GTK_COLOR_CHOOSER (button), &c);
  g_assert_cmphex (rgba_hex (&c), ==, 0xabcdef);
  gdk_rgba_parse (&c, "#010203");
  gtk_color_chooser_set_rgba (GTK_COLOR_CHOOSER (button), &c);
  g_signal_emit_by_name (button, "color-set");
  ttv_palette_get_rgba (settings, TTV_PALETTE_WAIT_CPU, &c);
  g_assert_cmphex (rgba_hex (&c), ==, 0x010203);
  gtk_button_clicked (GTK_BUTTON (ttv_gui_test_find_button (editor, _("_Reset to defaults"))));
  ttv_gui_test_spin_pending ();
  ttv_palette_get_rgba (settings, TTV_PALETTE_WAIT_CPU, &c);
  g_assert_cmphex (rgba_hex (&c), ==, rgb_of (ttv_palette_get_default (TTV_PALETTE_WAIT_CPU)));
  gtk_color_chooser_get_rgba (GTK_COLOR_CHOOSER (button), &c);
  g_assert_cmphex (rgba_hex (&c), ==, rgb_of (ttv_palette_get_default (TTV_PALETTE_WAIT_CPU)));
  gtk_widget_destroy (editor);
  g_object_unref (editor);
  /* Destroyed: a change reaches no button any more. */
  gdk_rgba_parse (&c, "#445566");
  ttv_palette_set_rgba (settings, TTV_PALETTE_WAIT_CPU, &c);
  ttv_gui_test_spin_pending ();
  g_settings_reset (settings, TTV_PALETTE_SETTINGS_KEY);
}

/* --- Rows of the tab's filter ------------------------------------------------- */

static gboolean
history_ready (gpointer data)
{
  g_autoptr (TtvViewerHistory) h = ttv_tab_state_dup_history (data);

  return h && ttv_tab_state_is_state_ready (data);
}

/* The pids running on the CPU of each event in [t0, t1] whose name
 * contains @word, after the event (a replay from the start). */
static GHashTable *
reference_pids (TtvTraceset *ts, const char *word, TtvTime t0, TtvTime t1)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvStateTracker) tracker = ttv_state_tracker_new (ts, NULL);
  g_autoptr (TtvContext) ctx = ttv_context_new (ts, &error);
  GHashTable *pids = g_hash_table_new (NULL, NULL);
  const TtvEvent *ev;

  g_assert_true (ttv_context_seek_begin (ctx, &error));
  while ((ev = ttv_context_next (ctx, &error)) && ev->time <= t1)
    {
      const TtvProcessState *p;

      ttv_state_tracker_apply (tracker, NULL, ttv_traceset_get_stream_trace (ts, ttv_context_get_stream (ctx)), ev);
      if (ev->time < t0 || !strstr (ttv_viewer_event_get_name (TTV_GUI_TEST_EVENT (ev)), word))
        continue;
      p = ttv_state_get_running (ttv_state_tracker_get_state (tracker), ev->tracefile->cpu);
      if (p)
        g_hash_table_add (pids, GUINT_TO_POINTER (p->pid));
    }
  g_assert_no_error (error);
  return pids;
}

/* The pids the view must show for @pids: each process row whose pid ran a
 * matching event, and the process (leader) of each such thread; in history
 * order, sorted for comparison. */
static GArray *
expected_rows (const TtvHistory *h, GHashTable *pids)
{
  guint n = ttv_history_get_n_rows (h, TTV_HISTORY_ROW_PROCESS);
  g_autofree gboolean *show = g_new0 (gboolean, n);
  GArray *out = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint r = 0; r < n; r++)
    if (g_hash_table_contains (pids, GUINT_TO_POINTER (ttv_history_get_row (h, TTV_HISTORY_ROW_PROCESS, r)->id)))
      {
        gint l = leader_of (h, r);

        show[r] = TRUE;
        if (l >= 0)
          show[l] = TRUE;
      }
  for (guint r = 0; r < n; r++)
    if (show[r])
      g_array_append_val (out, ttv_history_get_row (h, TTV_HISTORY_ROW_PROCESS, r)->id);
  return out;
}

static int
compare_u32 (gconstpointer a, gconstpointer b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;

  return (x > y) - (x < y);
}

static void
assert_same_pids (GArray *shown, GArray *expected)
{
  g_array_sort (shown, compare_u32);
  g_array_sort (expected, compare_u32);
  g_assert_cmpuint (shown->len, ==, expected->len);
  for (guint i = 0; i < shown->len; i++)
    g_assert_cmpuint (g_array_index (shown, guint32, i), ==, g_array_index (expected, guint32, i));
}

static void
set_filter (TtvTabState *state, const char *filter)
{
#if TTV_VIEWER_API_VERSION >= 2
  g_autoptr (GError) error = NULL;

  g_assert_true (ttv_tab_state_set_filter (state, filter, &error));
  g_assert_no_error (error);
#else
  ttv_tab_state_set_filter (state, filter);
#endif
}

static void
test_filter_rows (void)
{
  g_autoptr (TtvTraceset) ts = NULL;
  GtkWidget *window, *cf;
  TtvTab *tab;
  TtvTabState *state;
  const TtvHistory *h;
  guint n_proc;
  TtvTime s0, s1;

  if (!sample_path ())
    {
      g_test_skip ("TTV_SAMPLE_TRACE is not set: no sample trace");
      return;
    }
  load_modules ();
  h = history ();
  n_proc = ttv_history_get_n_rows (h, TTV_HISTORY_ROW_PROCESS);
  ts = open_sample ();
  window = gtk_window_new (GTK_WINDOW_TOPLEVEL);
  tab = TTV_TAB (ttv_tab_new (ts));
  gtk_container_add (GTK_CONTAINER (window), GTK_WIDGET (tab));
  gtk_widget_show_all (window);
  state = ttv_tab_get_state (tab);
  cf = g_object_ref_sink (ttv_viewer_registry_find ("controlflow")->new_viewer (state));
  ttv_gui_test_spin_until (history_ready, state);
  ttv_gui_test_spin_until (ttv_gui_test_no_requests, state);
  {
    g_autoptr (GArray) all = ttv_test_shown_pids (cf);
    g_assert_cmpuint (all->len, ==, n_proc);
  }

  /* "fork": a name substring with the old filter, a bare word of the
   * filter language: the processes that forked, and their processes. */
  ttv_tab_state_get_time_span (state, &s0, &s1);
  for (guint pass = 0; pass < 2; pass++)
    {
      g_autoptr (GHashTable) ref = NULL;
      g_autoptr (GArray) expected = NULL, shown = NULL;
      TtvTime t0, t1;

      if (pass == 1)   /* The first half: the request follows the window. */
        ttv_tab_state_set_time_window (state, s0, s0 + (s1 - s0) / 2);
      else
        set_filter (state, "fork");
      ttv_tab_state_get_time_window (state, &t0, &t1);
      ttv_gui_test_spin_until (ttv_gui_test_no_requests, state);
      ref = reference_pids (ts, "fork", t0, t1);
      expected = expected_rows (h, ref);
      shown = ttv_test_shown_pids (cf);
      g_test_message ("window %u: %u pids ran a fork, %u rows expected, %u shown", pass,
                      g_hash_table_size (ref), expected->len, shown->len);
      g_assert_cmpuint (expected->len, >, 0);
      g_assert_cmpuint (expected->len, <, n_proc);
      assert_same_pids (shown, expected);
    }

#if TTV_VIEWER_API_VERSION >= 2
  /* state.pid: one process's rows only. */
  {
    g_autoptr (GHashTable) ref = reference_pids (ts, "fork", s0, s0 + (s1 - s0) / 2);
    g_autoptr (GHashTable) one = g_hash_table_new (NULL, NULL);
    g_autoptr (GArray) expected = NULL, shown = NULL;
    GHashTableIter iter;
    gpointer pid = NULL;
    g_autofree char *expr = NULL;

    g_hash_table_iter_init (&iter, ref);
    while (g_hash_table_iter_next (&iter, &pid, NULL) && GPOINTER_TO_UINT (pid) == 0)
      ;
    g_assert_cmpuint (GPOINTER_TO_UINT (pid), !=, 0);
    g_hash_table_add (one, pid);
    expr = g_strdup_printf ("state.pid == %u", GPOINTER_TO_UINT (pid));
    set_filter (state, expr);
    ttv_gui_test_spin_until (ttv_gui_test_no_requests, state);
    expected = expected_rows (h, one);
    shown = ttv_test_shown_pids (cf);
    g_test_message ("%s: %u rows expected, %u shown", expr, expected->len, shown->len);
    assert_same_pids (shown, expected);
  }
#endif

  /* No filter: every row again, at once. */
  set_filter (state, "");
  {
    g_autoptr (GArray) all = ttv_test_shown_pids (cf);
    g_assert_cmpuint (all->len, ==, n_proc);
  }
  /* A filter matching nothing: no row. */
  set_filter (state, "no-such-event-name-at-all");
  ttv_gui_test_spin_until (ttv_gui_test_no_requests, state);
  {
    g_autoptr (GArray) none = ttv_test_shown_pids (cf);
    g_assert_cmpuint (none->len, ==, 0);
  }
  /* Closing with a request running: its request goes with it (the tab's
   * own views have theirs too). */
  set_filter (state, "fork");
  {
    guint before = ttv_tab_state_get_n_requests (state);

    g_assert_cmpuint (before, >=, 1);
    gtk_widget_destroy (cf);
    g_object_unref (cf);
    g_assert_cmpuint (ttv_tab_state_get_n_requests (state), ==, before - 1);
  }
  gtk_widget_destroy (window);
}

static void
test_pass_cancel (void)
{
  g_autoptr (TtvTraceset) ts = NULL;
  g_autoptr (GCancellable) cancel = g_cancellable_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvHistory) h = NULL;

  if (!sample_path ())
    {
      g_test_skip ("TTV_SAMPLE_TRACE is not set: no sample trace");
      return;
    }
  ts = open_sample ();
  g_cancellable_cancel (cancel);
  h = ttv_history_pass_build (ts, ttv_settings_get_history_cache_max (), cancel, &error);
  g_assert_null (h);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

/* --- The modules on the sample with its history ---------------------------------- */


/* --- The control flow module: names and search ---------------------------------- */

typedef struct {
  GtkWidget *cf;
  const char *earlier;
  guint32 pid;
} NamesWait;

/* The module found the names: searching an earlier one finds the row. */
static gboolean
earlier_name_found (gpointer data)
{
  NamesWait *w = data;
  g_autoptr (GArray) pids = NULL;

  ttv_test_set_search (w->cf, w->earlier);
  pids = ttv_test_shown_pids (w->cf);
  return ttv_test_pids_contain (pids, w->pid);
}

static void
test_controlflow_names (void)
{
  GtkWidget *cf, *window;
  guint n, found_row = G_MAXUINT;
  const char *earlier = NULL;
  const TtvHistoryRowInfo *info = NULL;

  if (!sample_path ())
    {
      g_test_skip ("TTV_SAMPLE_TRACE is not set: no sample trace");
      return;
    }
  load_modules ();
  n = ttv_history_get_n_rows (history (), TTV_HISTORY_ROW_PROCESS);
  /* A row with an earlier name (an exec's, or its parent's at the fork)
   * that its last name does not hold: only the names over time find it. */
  for (guint r = 0; r < n && !earlier; r++)
    {
      const TtvHistoryRowInfo *ri = ttv_history_get_row (history (), TTV_HISTORY_ROW_PROCESS, r);
      g_auto (GStrv) names = ttv_history_dup_process_names (history (), r);
      g_autofree char *last = g_utf8_casefold (ri->name ? ri->name : "", -1);

      for (guint k = 0; names && names[k + 1] && !earlier; k++)
        {
          g_autofree char *name = g_utf8_casefold (names[k], -1);

          if (!strstr (last, name))
            {
              earlier = g_intern_string (names[k]);
              found_row = r;
              info = ri;
            }
        }
    }
  if (!earlier)
    {
      g_test_skip ("no process of the sample changed its name twice");
      return;
    }
  g_test_message ("row %u: %s earlier, %s at the end", found_row, earlier, info->name);
  cf = g_object_ref_sink (ttv_viewer_registry_find ("controlflow")->new_viewer (sample_state ()));
  /* Shown in a window: the names are looked for once the view is mapped. */
  window = gtk_window_new (GTK_WINDOW_TOPLEVEL);
  gtk_container_add (GTK_CONTAINER (window), cf);
  gtk_widget_show_all (window);
  {
    NamesWait w = { cf, earlier, info->id };

    /* The names come from a worker thread. */
    ttv_gui_test_spin_until (earlier_name_found, &w);
  }
  {
    /* The earlier name in capitals: the search ignores case (each name
     * is casefolded once for all the rows). */
    g_autofree char *upper = g_utf8_strup (earlier, -1);
    g_autoptr (GArray) by_upper = NULL, by_pid = NULL, by_zero = NULL;

    ttv_test_set_search (cf, upper);
    by_upper = ttv_test_shown_pids (cf);
    g_assert_true (ttv_test_pids_contain (by_upper, info->id));
    /* The PID finds the row; with a leading zero it is no PID ("%u"
     * writes none), and the row has no name that holds it. */
    g_autofree char *pid = g_strdup_printf ("%u", info->id);
    g_autofree char *zero_pid = g_strdup_printf ("0%u", info->id);
    ttv_test_set_search (cf, pid);
    by_pid = ttv_test_shown_pids (cf);
    g_assert_true (ttv_test_pids_contain (by_pid, info->id));
    ttv_test_set_search (cf, zero_pid);
    by_zero = ttv_test_shown_pids (cf);
    g_assert_false (ttv_test_pids_contain (by_zero, info->id));
  }
  ttv_test_set_search (cf, "");
  gtk_widget_destroy (window);
  g_object_unref (cf);
}

/* --- The control flow's sort: ▲ ascending, ▼ descending, amounts largest first --- */

/* The CPU time of @pid's rows together. */
static TtvTime
cpu_time_of (guint32 pid)
{
  TtvTime sum = 0;

  for (guint r = 0; r < ttv_history_get_n_rows (history (), TTV_HISTORY_ROW_PROCESS); r++)
    {
      const TtvHistoryRowInfo *ri = ttv_history_get_row (history (), TTV_HISTORY_ROW_PROCESS, r);
      if (ri->id == pid)
        sum += ri->cpu_time;
    }
  return sum;
}

/* The CPU times of the shown rows but the idle tasks (PID 0), in order. */
static GArray *
shown_cpu_times (GtkWidget *cf)
{
  g_autoptr (GArray) pids = ttv_test_shown_pids (cf);
  GArray *times = g_array_new (FALSE, FALSE, sizeof (TtvTime));

  for (guint i = 0; i < pids->len; i++)
    if (g_array_index (pids, guint32, i) != 0)
      {
        TtvTime t = cpu_time_of (g_array_index (pids, guint32, i));
        g_array_append_val (times, t);
      }
  return times;
}

static gboolean
sort_descending (GActionGroup *group)
{
  g_autoptr (GVariant) v = g_action_group_get_action_state (group, "sort-descending");

  return g_variant_get_boolean (v);
}

/* The first click on the CPU time title sorts it descending (the most CPU
 * time first, the arrow ▼ since the flag is the arrow's); the second
 * reverses; a click on Name then sorts ascending. */
static void
test_controlflow_sort (void)
{
  GtkWidget *cf, *window, *timeline;
  GActionGroup *group;
  g_autoptr (GArray) most = NULL, least = NULL;
  g_autoptr (GVariant) key = NULL;
  gboolean descending;

  if (!sample_path ())
    {
      g_test_skip ("TTV_SAMPLE_TRACE is not set: no sample trace");
      return;
    }
  load_modules ();
  cf = g_object_ref_sink (ttv_viewer_registry_find ("controlflow")->new_viewer (sample_state ()));
  window = gtk_window_new (GTK_WINDOW_TOPLEVEL);
  gtk_container_add (GTK_CONTAINER (window), cf);
  gtk_widget_show_all (window);
  group = gtk_widget_get_action_group (cf, "controlflow");
  g_action_group_change_action_state (group, "hide-idle", g_variant_new_boolean (FALSE));
  timeline = ttv_gui_test_find_widget (cf, g_type_from_name ("TtvTimeline"), NULL);
  g_assert_nonnull (timeline);

  g_signal_emit_by_name (timeline, "column-clicked", 4u);   /* CPU time */
  key = g_action_group_get_action_state (group, "sort");
  g_assert_cmpstr (g_variant_get_string (key, NULL), ==, "cpu-time");
  descending = sort_descending (group);
  g_assert_true (descending);
  most = shown_cpu_times (cf);
  g_assert_cmpuint (most->len, >, 2);
  g_assert_cmpint (g_array_index (most, TtvTime, 0), >, 0);
  g_assert_cmpint (g_array_index (most, TtvTime, 0), >=, g_array_index (most, TtvTime, most->len - 1));

  g_signal_emit_by_name (timeline, "column-clicked", 4u);   /* reversed: least first */
  descending = sort_descending (group);
  g_assert_false (descending);
  least = shown_cpu_times (cf);
  g_assert_cmpint (g_array_index (least, TtvTime, 0), <, g_array_index (most, TtvTime, 0));
  g_assert_cmpint (g_array_index (least, TtvTime, 0), <=, g_array_index (least, TtvTime, least->len - 1));

  g_signal_emit_by_name (timeline, "column-clicked", 0u);   /* Name: A first */
  descending = sort_descending (group);
  g_assert_false (descending);

  g_action_group_change_action_state (group, "sort", g_variant_new_string ("pid"));
  gtk_widget_destroy (window);
  g_object_unref (cf);
}

/* --- Hide-idle from the states a row takes ---------------------------------------- */

/* A machine of 200 live processes, most asleep for its 6,000 events: over
 * the whole trace (each row's life inside the window, answered from the
 * states the history says each row takes, not from its intervals) and
 * over its first half (rows alive at its end read their intervals), the
 * control flow keeps exactly the rows that run or wait for a CPU there. */
static void
test_hide_idle_whole_lives (void)
{
  g_autofree char *dir = g_build_filename (ttv_test_get_tmp_dir (), "idle-trace", NULL);
  const char *gen[] = { TTV_GEN_PATH, "-q", "--cpus", "2", "--events", "6000", "--processes", "200",
                        "-s", "5", "-o", dir, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvTraceset) ts = ttv_traceset_new ();
  g_autoptr (TtvTabState) state = NULL;
  TtvHistoryOptions opt = { .no_cache = TRUE };
  TtvHistory *h;
  GtkWidget *cf;
  TtvTime s0, s1;
  gint status = -1;
  guint n_proc, n_whole_idle = 0;

  load_modules ();
  g_assert_true (g_spawn_sync (NULL, (char **) gen, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, &status,
                               &error));
  g_assert_no_error (error);
  g_assert_cmpint (status, ==, 0);
  g_assert_true (ttv_traceset_add_path (ts, dir, &error));
  g_assert_no_error (error);
  h = ttv_history_build (ts, &opt, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  state = ttv_tab_state_new (ts);
  ttv_tab_state_set_history (state, h);
  n_proc = ttv_history_get_n_rows (h, TTV_HISTORY_ROW_PROCESS);
  for (guint r = 0; r < n_proc; r++)
    {
      const TtvHistoryRowInfo *info = ttv_history_get_row (h, TTV_HISTORY_ROW_PROCESS, r);
      guint32 busy = 1u << TTV_PROCESS_RUN | 1u << TTV_PROCESS_WAIT_CPU | 1u << TTV_PROCESS_WAIT_FORK;

      n_whole_idle += !(info->id == 0 && info->cpu >= 0) && !(info->states_seen & busy);
    }
  g_test_message ("%u process rows, %u never run nor wait for a CPU", n_proc, n_whole_idle);
  g_assert_cmpuint (n_whole_idle, >, 10);
  cf = g_object_ref_sink (ttv_viewer_registry_find ("controlflow")->new_viewer (state));
  g_action_group_change_action_state (gtk_widget_get_action_group (cf, "controlflow"), "hide-idle",
                                      g_variant_new_boolean (TRUE));
  ttv_tab_state_get_time_span (state, &s0, &s1);
  for (guint half = 0; half < 2; half++)
    {
      TtvTime t1 = half ? s0 + (s1 - s0) / 2 : s1;
      g_autoptr (GHashTable) expected = NULL;
      g_autoptr (GArray) pids = NULL;

      ttv_tab_state_set_time_window (state, s0, t1);
      expected = busy_pids (h, s0, t1);
      pids = ttv_test_shown_pids (cf);
      g_test_message ("hide idle over %s: %u rows", half ? "the first half" : "the whole trace", pids->len);
      g_assert_cmpuint (g_hash_table_size (expected), >, 0);
      g_assert_cmpuint (pids->len, ==, g_hash_table_size (expected));
      for (guint i = 0; i < pids->len; i++)
        g_assert_true (g_hash_table_contains (expected, GUINT_TO_POINTER (g_array_index (pids, guint32, i))));
    }
  gtk_widget_destroy (cf);
  g_object_unref (cf);
}

/* --- The resources module: hide idle ------------------------------------------------ */

static gboolean
cpu_busy (guint16 state)
{
  return ttv_history_state_low (state) == TTV_HISTORY_CPU_BUSY;
}

static void
test_resources_hide_idle (void)
{
  g_autofree char *png = NULL;
  GtkWidget *res;
  GActionGroup *group;
  TtvTime s0, s1, t0, t1;
  guint expected = 0, all = 0;
  cairo_surface_t *s;

  if (!sample_path ())
    {
      g_test_skip ("TTV_SAMPLE_TRACE is not set: no sample trace");
      return;
    }
  load_modules ();
  png = g_build_filename (ttv_test_get_tmp_dir (), "res.png", NULL);
  ttv_tab_state_get_time_span (sample_state (), &s0, &s1);
  /* 50 µs in the middle: some CPUs run tasks, most IRQs rest. */
  t0 = s0 + (s1 - s0) / 2;
  t1 = t0 + 50000;
  ttv_tab_state_set_time_window (sample_state (), t0, t1);
  for (TtvHistoryRowKind k = TTV_HISTORY_ROW_CPU; k < TTV_HISTORY_ROW_N_KINDS; k++)
    for (guint r = 0; r < ttv_history_get_n_rows (history (), k); r++)
      {
        g_autofree gboolean *busy = ttv_test_active_pixels (history (), k, r, t0, t1, 1,
                                                            k == TTV_HISTORY_ROW_CPU ? cpu_busy : ttv_test_irq_active);

        expected += busy[0];
        all++;
      }
  g_test_message ("resources over 50 µs: %u of %u rows busy", expected, all);
  res = g_object_ref_sink (ttv_viewer_registry_find ("resources")->new_viewer (sample_state ()));
  group = gtk_widget_get_action_group (res, "resources");
  g_action_group_activate_action (group, "render", g_variant_new ("(sii)", png, 800, 600));
  s = ttv_test_load_png (png);
  g_assert_cmpuint (ttv_test_count_rows (s), ==, all);
  cairo_surface_destroy (s);
  g_action_group_change_action_state (group, "hide-idle", g_variant_new_boolean (TRUE));
  g_action_group_activate_action (group, "render", g_variant_new ("(sii)", png, 800, 600));
  s = ttv_test_load_png (png);
  g_assert_cmpuint (ttv_test_count_rows (s), ==, expected);
  g_assert_cmpuint (expected, <, all);
  cairo_surface_destroy (s);
  /* A search keeps the rows whose label holds the text. */
  g_action_group_change_action_state (group, "hide-idle", g_variant_new_boolean (FALSE));
  ttv_test_set_search (res, "cpu ");
  g_action_group_activate_action (group, "render", g_variant_new ("(sii)", png, 800, 600));
  s = ttv_test_load_png (png);
  g_assert_cmpuint (ttv_test_count_rows (s), ==, ttv_history_get_n_rows (history (), TTV_HISTORY_ROW_CPU));
  cairo_surface_destroy (s);
  ttv_tab_state_set_time_window (sample_state (), s0, s1);
  gtk_widget_destroy (res);
  g_object_unref (res);
}

int
main (int argc, char **argv)
{
  int ret;

  g_setenv ("TTV_HISTORY_NO_CACHE", "1", TRUE);
  gtk_test_init (&argc, &argv, NULL);
  g_test_add_func ("/timeline/render/controlflow", test_render_controlflow);
  g_test_add_func ("/timeline/render/resources", test_render_resources);
  g_test_add_func ("/timeline/render/real-traces", test_render_real);
  g_test_add_func ("/timeline/render/bad-arguments", test_render_bad);
  g_test_add_func ("/timeline/modules", test_modules);
  g_test_add_func ("/timeline/hide-idle-whole-lives", test_hide_idle_whole_lives);
  g_test_add_func ("/timeline/pass-cancel", test_pass_cancel);
  g_test_add_func ("/timeline/palette", test_palette);
  g_test_add_func ("/timeline/filter-rows", test_filter_rows);
  g_test_add_func ("/timeline/controlflow-names", test_controlflow_names);
  g_test_add_func ("/timeline/controlflow-sort", test_controlflow_sort);
  g_test_add_func ("/timeline/resources-hide-idle", test_resources_hide_idle);
  ret = g_test_run ();
  g_clear_pointer (&sample_vh, ttv_viewer_history_unref);
  if (sample_tab)
    ttv_tab_state_shutdown (sample_tab);
  g_clear_object (&sample_tab);
  return ret;
}
