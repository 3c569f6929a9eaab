/* test-timeline.c: the control flow and resources modules under Xvfb,
 * checked on pixels: `ttv --render` PNGs show a known process's RUN-user
 * colour where the state history says it runs in user mode, one striped row
 * per history row (sample and real CTF traces), lost-event marks, a colour
 * changed in GSettings; the modules' options, the history pass, export to
 * PNG/SVG, and bad --render arguments. */
#include "ttv-config.h"

#include "ttv-history-pass.h"
#include "ttv-state-history.h"
#include "ttv-tab-state-private.h"
#include "ttv-timeline.h"
#include "ttv-viewer-registry.h"

#include <cairo.h>
#include <glib/gstdio.h>
#include <string.h>

static TtvStateHistory *sample_history;

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

static const TtvStateHistory *
history (void)
{
  if (!sample_history)
    {
      g_autoptr (TtvTraceset) ts = open_sample ();
      g_autoptr (GError) error = NULL;
      TtvStateHistoryOptions opt = { .no_cache = TRUE };

      sample_history = ttv_state_history_build (ts, &opt, NULL, NULL, NULL, &error);
      g_assert_no_error (error);
    }
  return sample_history;
}

/* Runs ttv with @argv (NULL-terminated, after the program); returns its status. */
static gint
run_ttv (const char *const *args, char **err)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  gint status = -1;

  g_ptr_array_add (argv, (gpointer) TTV_EXE_PATH);
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL,
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
pixel (cairo_surface_t *s, int x, int y)
{
  const guint8 *data = cairo_image_surface_get_data (s);
  int stride = cairo_image_surface_get_stride (s);

  g_assert_cmpint (x, >=, 0);
  g_assert_cmpint (y, >=, 0);
  g_assert_cmpint (x, <, cairo_image_surface_get_width (s));
  g_assert_cmpint (y, <, cairo_image_surface_get_height (s));
  return *(const guint32 *) (data + y * stride + x * 4) & 0xffffffu;
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

/* Rows drawn: the striped label column, counted from the header down. */
static guint
count_rows (cairo_surface_t *s)
{
  int h = cairo_image_surface_get_height (s);
  guint n = 0;

  for (int y = TTV_TIMELINE_HEADER + TTV_TIMELINE_ROW_HEIGHT / 2; y < h; y += TTV_TIMELINE_ROW_HEIGHT)
    {
      guint32 p = pixel (s, 1, y);

      if (p == 0xffffff)
        break;
      /* Alternating stripes: tells a row from the next. */
      g_assert_cmphex (p, ==, n % 2 == 0 ? 0xe6e6e6 : 0xf7f7f7);
      n++;
    }
  return n;
}

static cairo_surface_t *
load_png (const char *path)
{
  cairo_surface_t *s = cairo_image_surface_create_from_png (path);

  g_assert_cmpint (cairo_surface_status (s), ==, CAIRO_STATUS_SUCCESS);
  cairo_surface_flush (s);
  return s;
}

/* The longest RUN-user interval of a process row other than pid 0. */
static gboolean
find_user_run (const TtvStateHistory *h, guint *row_out, TtvHistoryInterval *out)
{
  TtvTime best = 0;
  guint n = ttv_state_history_get_n_rows (h, TTV_HISTORY_ROW_PROCESS);

  for (guint r = 0; r < n; r++)
    {
      const TtvHistoryRowInfo *info = ttv_state_history_get_row (h, TTV_HISTORY_ROW_PROCESS, r);
      g_autoptr (GArray) ivs = NULL;

      if (info->id == 0)
        continue;
      ivs = ttv_state_history_query_intervals (h, TTV_HISTORY_ROW_PROCESS, r, G_MININT64, G_MAXINT64);
      for (guint i = 0; i < ivs->len; i++)
        {
          const TtvHistoryInterval *iv = &g_array_index (ivs, TtvHistoryInterval, i);

          if (ttv_history_state_low (iv->state) == TTV_PROCESS_RUN
              && ttv_history_state_mode (iv->state) == TTV_MODE_USER && iv->end - iv->start > best)
            {
              best = iv->end - iv->start;
              *row_out = r;
              *out = *iv;
            }
        }
    }
  return best > 0;
}

static void
test_render_controlflow (void)
{
  const TtvStateHistory *h;
  TtvHistoryInterval iv = { 0 };
  guint row = 0, n_rows, matches = 0;
  TtvTime len, t0, t1;
  g_autofree char *dir = NULL, *png = NULL, *window = NULL, *size = NULL, *err = NULL;
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
  n_rows = ttv_state_history_get_n_rows (h, TTV_HISTORY_ROW_PROCESS);
  /* The run fills the middle third of the window. */
  len = iv.end - iv.start;
  t0 = iv.start - len;
  t1 = iv.end + len;
  a = g_strdup_printf ("%" G_GINT64_FORMAT ".%09" G_GINT64_FORMAT, t0 / 1000000000, t0 % 1000000000);
  b = g_strdup_printf ("%" G_GINT64_FORMAT ".%09" G_GINT64_FORMAT, t1 / 1000000000, t1 % 1000000000);
  window = g_strdup_printf ("%s:%s", a, b);
  height = TTV_TIMELINE_HEADER + (int) n_rows * TTV_TIMELINE_ROW_HEIGHT + 20;
  size = g_strdup_printf ("%dx%d", width, height);
  dir = g_dir_make_tmp ("ttv-render-XXXXXX", NULL);
  png = g_build_filename (dir, "cf.png", NULL);
  {
    const char *args[] = { "--render", "controlflow", "--trace", sample_path (), "--window", window,
                           "--size", size, "-o", png, NULL };
    g_assert_cmpint (run_ttv (args, &err), ==, 0);
  }
  s = load_png (png);
  g_assert_cmpint (cairo_image_surface_get_width (s), ==, width);
  g_assert_cmpint (cairo_image_surface_get_height (s), ==, height);
  /* One row per process row of the history (nothing hidden by default). */
  g_assert_cmpuint (count_rows (s), ==, n_rows);
  /* The known process's bar at 5 times inside its run: the configured
   * colour (a wakeup arrow may cross one of them). */
  plot = width - TTV_TIMELINE_LABEL_WIDTH;
  for (int k = 1; k <= 5; k++)
    {
      TtvTime t = iv.start + len * k / 6;
      int x = TTV_TIMELINE_LABEL_WIDTH + (int) ((double) (t - t0) / (double) (t1 - t0) * plot);
      int y = TTV_TIMELINE_HEADER + (int) row * TTV_TIMELINE_ROW_HEIGHT + TTV_TIMELINE_ROW_HEIGHT / 2 + 2;

      if (pixel (s, x, y) == expected)
        matches++;
    }
  g_assert_cmpuint (matches, >=, 4);
  /* And before the process's run, outside it: not that colour at the row's
   * first pixel, unless the state there is RUN-user too. */
  {
    TtvHistoryInterval before;
    int y = TTV_TIMELINE_HEADER + (int) row * TTV_TIMELINE_ROW_HEIGHT + TTV_TIMELINE_ROW_HEIGHT / 2 + 2;

    if (ttv_state_history_get_interval_at (h, TTV_HISTORY_ROW_PROCESS, row, t0 + len / 6, &before)
        && before.end < iv.start
        && !(ttv_history_state_low (before.state) == TTV_PROCESS_RUN
             && ttv_history_state_mode (before.state) == TTV_MODE_USER))
      g_assert_cmphex (pixel (s, TTV_TIMELINE_LABEL_WIDTH + plot / 6, y), !=, expected);
  }
  cairo_surface_destroy (s);
  g_unlink (png);
  g_rmdir (dir);
}

static void
test_render_resources (void)
{
  const TtvStateHistory *h;
  guint n = 0;
  g_autofree char *dir = NULL, *png = NULL, *svg = NULL, *err = NULL;
  cairo_surface_t *s;

  if (!sample_path ())
    {
      g_test_skip ("TTV_SAMPLE_TRACE is not set: no sample trace");
      return;
    }
  h = history ();
  for (TtvHistoryRowKind k = TTV_HISTORY_ROW_CPU; k < TTV_HISTORY_ROW_N_KINDS; k++)
    n += ttv_state_history_get_n_rows (h, k);
  g_assert_cmpuint (n, >, 4);
  dir = g_dir_make_tmp ("ttv-render-XXXXXX", NULL);
  png = g_build_filename (dir, "res.png", NULL);
  svg = g_build_filename (dir, "res.svg", NULL);
  {
    const char *args[] = { "--render", "resources", "--trace", sample_path (), "--size", "800x600",
                           "-o", png, NULL };
    g_assert_cmpint (run_ttv (args, &err), ==, 0);
  }
  s = load_png (png);
  g_assert_cmpuint (count_rows (s), ==, n);
  cairo_surface_destroy (s);
  {
    g_autofree char *text = NULL, *err2 = NULL;
    const char *args[] = { "--render", "resources", "--trace", sample_path (), "--window",
                           "+0.1:+0.2", "-o", svg, NULL };
    g_assert_cmpint (run_ttv (args, &err2), ==, 0);
    g_assert_true (g_file_get_contents (svg, &text, NULL, NULL));
    g_assert_nonnull (strstr (text, "<svg"));
  }
  g_unlink (png);
  g_unlink (svg);
  g_rmdir (dir);
}

/* The real LTTng kernel traces of ../shared: one row per process row. */
static void
test_render_real (void)
{
  const char *shared = g_getenv ("TTV_SHARED_DIR");
  const char *names[] = { "arm64-kernel", "bigendian-kernel", "scp-kernel" };
  g_autofree char *dir = NULL;

  if (!shared || !g_file_test (shared, G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("TTV_SHARED_DIR is not set or absent: no real traces");
      return;
    }
  dir = g_dir_make_tmp ("ttv-render-XXXXXX", NULL);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = g_build_filename (shared, "traces", "ctf", names[i], NULL);
      g_autofree char *png = g_build_filename (dir, "real.png", NULL);
      g_autofree char *size = NULL, *err = NULL;
      g_autoptr (TtvTraceset) ts = ttv_traceset_new ();
      g_autoptr (TtvStateHistory) h = NULL;
      g_autoptr (GError) error = NULL;
      TtvStateHistoryOptions opt = { .no_cache = TRUE };
      cairo_surface_t *s;
      guint n;

      if (!g_file_test (path, G_FILE_TEST_IS_DIR))
        continue;
      g_assert_true (ttv_traceset_add_path (ts, path, &error));
      g_assert_no_error (error);
      h = ttv_state_history_build (ts, &opt, NULL, NULL, NULL, &error);
      g_assert_no_error (error);
      n = ttv_state_history_get_n_rows (h, TTV_HISTORY_ROW_PROCESS);
      g_test_message ("%s: %u process rows", names[i], n);
      g_assert_cmpuint (n, >, 0);
      size = g_strdup_printf ("900x%u", TTV_TIMELINE_HEADER + n * TTV_TIMELINE_ROW_HEIGHT + 10);
      {
        const char *args[] = { "--render", "controlflow", "--trace", path, "--size", size, "-o", png, NULL };
        g_assert_cmpint (run_ttv (args, &err), ==, 0);
      }
      s = load_png (png);
      g_assert_cmpuint (count_rows (s), ==, n);
      cairo_surface_destroy (s);
      g_unlink (png);
    }
  g_rmdir (dir);
}

static void
test_render_bad (void)
{
  const char *sample = sample_path ();
  const char *cases[][10] = {
    { "--render", "controlflow", "--trace", sample, "--size", "0x10", "-o", "/tmp/x.png", NULL },
    { "--render", "controlflow", "--trace", sample, "--size", "big", "-o", "/tmp/x.png", NULL },
    { "--render", "controlflow", "--trace", sample, "--window", "+2:+1", "-o", "/tmp/x.png", NULL },
    { "--render", "controlflow", "--trace", sample, "--window", "abc", "-o", "/tmp/x.png", NULL },
    { "--render", "no-such-view", "--trace", sample, "-o", "/tmp/x.png", NULL },
    { "--render", "controlflow", "--trace", "/nonexistent/trace", "-o", "/tmp/x.png", NULL },
    { "--render", "controlflow", "--trace", sample, "-o", "/nonexistent/dir/x.png", NULL },
    { "--render", "controlflow", "--trace", sample, "--size", "100x100", "-o", "/tmp/x.png", NULL },
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
}

/* --- In process: the modules on a tab state ------------------------------- */

static void
load_modules (void)
{
  static gboolean loaded;
  const char *paths[] = { TTV_CONTROLFLOW_MODULE_PATH, TTV_RESOURCES_MODULE_PATH };

  if (loaded)
    return;
  loaded = TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      g_autoptr (GError) error = NULL;
      g_assert_true (ttv_viewer_registry_load_module (paths[i], &error));
      g_assert_no_error (error);
    }
}

static guint
render_rows (GtkWidget *viewer, const char *prefix, const char *path, int height)
{
  GActionGroup *group = gtk_widget_get_action_group (viewer, prefix);
  cairo_surface_t *s;
  guint n;

  g_unlink (path);
  g_action_group_activate_action (group, "render", g_variant_new ("(sii)", path, 600, height));
  s = load_png (path);
  n = count_rows (s);
  cairo_surface_destroy (s);
  return n;
}

typedef struct {
  GMainLoop *loop;
  TtvStateHistory *history;
  GError *error;
} PassWait;

static void
pass_done (GObject *source, GAsyncResult *result, gpointer data)
{
  PassWait *w = data;

  w->history = ttv_history_pass_run_finish (result, &w->error);
  g_main_loop_quit (w->loop);
}

static void
test_modules (void)
{
  g_autoptr (TtvTraceset) ts = NULL;
  g_autoptr (TtvTabState) state = NULL;
  g_autoptr (GCancellable) cancel = g_cancellable_new ();
  g_autofree char *dir = NULL, *png = NULL, *svg = NULL;
  GtkWidget *cf, *res;
  PassWait w = { 0 };
  gint *progress = g_atomic_rc_box_new0 (gint);
  const TtvStateHistory *h;
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
  n_proc = ttv_state_history_get_n_rows (h, TTV_HISTORY_ROW_PROCESS);
  ts = open_sample ();
  state = ttv_tab_state_new (ts);
  cf = g_object_ref_sink (ttv_viewer_registry_find ("controlflow")->new_viewer (state));
  res = g_object_ref_sink (ttv_viewer_registry_find ("resources")->new_viewer (state));
  dir = g_dir_make_tmp ("ttv-render-XXXXXX", NULL);
  png = g_build_filename (dir, "v.png", NULL);
  svg = g_build_filename (dir, "v.svg", NULL);
  /* No history yet: no rows. */
  g_assert_null (ttv_tab_state_dup_history (state));
  g_assert_cmpuint (render_rows (cf, "controlflow", png, 300), ==, 0);

  /* The pass in a thread, then handed over: the views fill. */
  w.loop = g_main_loop_new (NULL, FALSE);
  ttv_history_pass_run_async (ts, progress, cancel, pass_done, &w);
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
    g_assert_cmpuint (ttv_viewer_history_get_n_rows (vh, TTV_HISTORY_ROW_PROCESS), ==, n_proc);
  }
  g_assert_cmpuint (render_rows (cf, "controlflow", png, 3000), ==, n_proc);

  /* Hide idle: a 1 ms window keeps only the rows with events in it. */
  ttv_tab_state_get_time_span (state, &t0, &t1);
  t0 += (t1 - t0) / 2;
  t1 = t0 + 1000000;
  ttv_tab_state_set_time_window (state, t0, t1);
  for (guint r = 0; r < n_proc; r++)
    {
      g_autoptr (GArray) ivs = ttv_state_history_query_intervals (h, TTV_HISTORY_ROW_PROCESS, r, t0, t1);
      guint64 events = 0;

      for (guint i = 0; i < ivs->len; i++)
        {
          const TtvHistoryInterval *iv = &g_array_index (ivs, TtvHistoryInterval, i);
          /* Only intervals wholly inside count surely; a straddling one may
           * hold its events outside. */
          if (iv->start >= t0 && iv->end <= t1)
            events += iv->n_events;
        }
      n_busy += events > 0;
    }
  g_action_group_change_action_state (gtk_widget_get_action_group (cf, "controlflow"), "hide-idle",
                                      g_variant_new_boolean (TRUE));
  {
    guint shown = render_rows (cf, "controlflow", png, 3000);
    g_assert_cmpuint (shown, <, n_proc);
    g_assert_cmpuint (shown, >=, n_busy);
    g_assert_cmpuint (shown, >, 0);
  }
  g_action_group_change_action_state (gtk_widget_get_action_group (cf, "controlflow"), "hide-idle",
                                      g_variant_new_boolean (FALSE));
  /* Grouping threads never adds rows; sorting keeps them all. */
  g_action_group_change_action_state (gtk_widget_get_action_group (cf, "controlflow"), "group-threads",
                                      g_variant_new_boolean (TRUE));
  g_assert_cmpuint (render_rows (cf, "controlflow", png, 3000), <=, n_proc);
  g_action_group_change_action_state (gtk_widget_get_action_group (cf, "controlflow"), "group-threads",
                                      g_variant_new_boolean (FALSE));
  g_action_group_change_action_state (gtk_widget_get_action_group (cf, "controlflow"), "sort",
                                      g_variant_new_string ("cpu-time"));
  g_assert_cmpuint (render_rows (cf, "controlflow", png, 3000), ==, n_proc);

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
    /* Only run-user: the others keep their defaults. */
    g_settings_set_value (settings, "timeline-colors", g_variant_new_parsed ("{'run-user': '#102030'}"));
    g_unlink (png);
    g_action_group_activate_action (gtk_widget_get_action_group (cf, "controlflow"), "render",
                                    g_variant_new ("(sii)", png, 820, 3000));
    s = load_png (png);
    /* The middle of the run: the middle of the plot (600 px wide). */
    x = TTV_TIMELINE_LABEL_WIDTH + 300;
    y = TTV_TIMELINE_HEADER + (int) row * TTV_TIMELINE_ROW_HEIGHT + TTV_TIMELINE_ROW_HEIGHT / 2 + 2;
    g_assert_true (pixel (s, x, y) == 0x102030 || pixel (s, x + 20, y) == 0x102030);
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
    int plot = 600, y = TTV_TIMELINE_HEADER - 2;
    guint32 in, out;

    ttv_tab_state_get_time_span (state, &s0, &s1);
    ttv_tab_state_set_time_window (state, s0, s1);
    lost.start = s0 + (s1 - s0) * 40 / 100;
    lost.end = s0 + (s1 - s0) * 45 / 100;
    lost.count = 123;
    g_array_append_val (tf->lost, lost);
    g_unlink (png);
    g_action_group_activate_action (gtk_widget_get_action_group (cf, "controlflow"), "render",
                                    g_variant_new ("(sii)", png, TTV_TIMELINE_LABEL_WIDTH + plot, 400));
    s = load_png (png);
    in = pixel (s, TTV_TIMELINE_LABEL_WIDTH + plot * 42 / 100, y);
    out = pixel (s, TTV_TIMELINE_LABEL_WIDTH + plot * 20 / 100, y);
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
  g_unlink (png);
  g_unlink (svg);
  g_rmdir (dir);
}

static void
test_pass_cancel (void)
{
  g_autoptr (TtvTraceset) ts = NULL;
  g_autoptr (GCancellable) cancel = g_cancellable_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvStateHistory) h = NULL;

  if (!sample_path ())
    {
      g_test_skip ("TTV_SAMPLE_TRACE is not set: no sample trace");
      return;
    }
  ts = open_sample ();
  g_cancellable_cancel (cancel);
  h = ttv_history_pass_build (ts, cancel, &error);
  g_assert_null (h);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
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
  g_test_add_func ("/timeline/pass-cancel", test_pass_cancel);
  ret = g_test_run ();
  g_clear_pointer (&sample_history, ttv_state_history_free);
  return ret;
}
