/* test-render.c: `ttv --render` with no display at all (this test runs
 * without an X server, and ttv without DISPLAY or WAYLAND_DISPLAY): the
 * control flow, resources, histogram and statistics views of the sample
 * trace as PNG (its size, not blank, a colour the sample's history or
 * events say is there) and SVG; a view without a render refuses; task
 * names that are not UTF-8 drawn, not the end of the drawing.  And the
 * viewer run from the build tree without GSETTINGS_SCHEMA_DIR finds its
 * settings schema: a render draws in a colour the settings hold, a short
 * run under Xvfb keeps the trace it opened among the recent ones, one in
 * a folder whose name is not UTF-8 too. */
#include "ttv-config.h"

#include "ttv-context.h"
#include "ttv-gui-test-util.h"
#include "ttv-history.h"
#include "ttv-test-util.h"
#include "ttv-timeline-test-util.h"
#include "ttv-timeline.h"

#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define CPU_IDLE 0xe3d7bf       /* the palette's default "cpu-idle" */
#define HISTOGRAM_BAR 0x3366bf  /* the histogram's bars */

typedef struct {
  const char *dir;              /* the test's temporary directory: the images */
  TtvTraceset *ts;              /* owned */
} Fixture;

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  f->ts = ttv_gui_test_open_sample ();
  if (!f->ts)
    return;
  f->dir = ttv_test_get_tmp_dir ();
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  g_clear_pointer (&f->ts, ttv_traceset_unref);
}

static char *
time_arg (TtvTime t)
{
  return g_strdup_printf ("%" G_GINT64_FORMAT ".%09" G_GINT64_FORMAT, t / 1000000000, t % 1000000000);
}

/* Runs `ttv --render VIEW` on the sample into @out; ttv's exit status,
 * its error output in *@err. */
static gint
render_env (GStrv env, const char *view, const char *window, const char *size, const char *out, char **err)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  gint status = -1;

  g_assert_null (g_environ_getenv (env, "DISPLAY"));
  g_assert_null (g_environ_getenv (env, "WAYLAND_DISPLAY"));
  g_ptr_array_add (argv, (gpointer) TTV_EXE_PATH);
  g_ptr_array_add (argv, (gpointer) "--render");
  g_ptr_array_add (argv, (gpointer) view);
  g_ptr_array_add (argv, (gpointer) "--trace");
  g_ptr_array_add (argv, (gpointer) g_getenv ("TTV_SAMPLE_TRACE"));
  if (window)
    {
      g_ptr_array_add (argv, (gpointer) "--window");
      g_ptr_array_add (argv, (gpointer) window);
    }
  g_ptr_array_add (argv, (gpointer) "--size");
  g_ptr_array_add (argv, (gpointer) size);
  g_ptr_array_add (argv, (gpointer) "-o");
  g_ptr_array_add (argv, (gpointer) out);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, env, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL,
                               NULL, err, &status, &error));
  g_assert_no_error (error);
  if (g_spawn_check_wait_status (status, &error))
    return 0;
  g_test_message ("ttv --render %s: %s\n%s", view, error->message, *err);
  return g_error_matches (error, G_SPAWN_EXIT_ERROR, 1) ? 1 : -1;
}

static gint
render (const char *view, const char *window, const char *size, const char *out, char **err)
{
  g_auto (GStrv) env = ttv_gui_test_headless_environ ();

  return render_env (env, view, window, size, out, err);
}

/* The PNG at @path: @width x @height, many colours (not blank). */
static cairo_surface_t *
load_image (const char *path, int width, int height)
{
  cairo_surface_t *s = ttv_test_load_png (path);
  g_autoptr (GHashTable) colours = g_hash_table_new (NULL, NULL);

  g_assert_cmpint (cairo_image_surface_get_width (s), ==, width);
  g_assert_cmpint (cairo_image_surface_get_height (s), ==, height);
  for (int y = 0; y < height; y += 3)
    for (int x = 0; x < width; x += 3)
      g_hash_table_add (colours, GUINT_TO_POINTER (ttv_test_pixel (s, x, y)));
  g_test_message ("%s: %u colours", path, g_hash_table_size (colours));
  g_assert_cmpuint (g_hash_table_size (colours), >, 10);
  return s;
}

/* An SVG file of @width x @height holding @text (NULL: any). */
static void
check_svg (const char *path, int width, int height, const char *text)
{
  g_autofree char *svg = NULL;
  g_autofree char *size = g_strdup_printf ("width=\"%d", width);

  g_assert_true (g_file_get_contents (path, &svg, NULL, NULL));
  g_assert_true (g_str_has_prefix (svg, "<?xml"));
  g_assert_nonnull (strstr (svg, "<svg"));
  g_assert_nonnull (strstr (svg, size));
  g_assert_nonnull (strstr (svg, "</svg>"));
  if (text)
    g_assert_nonnull (strstr (svg, text));
  (void) height;
}

/* The longest stretch CPU row 0 of the history idles (no interrupt). */
static TtvHistoryInterval
longest_idle (const TtvHistory *h)
{
  g_autoptr (GArray) ivs = ttv_history_query_intervals (h, TTV_HISTORY_ROW_CPU, 0, TTV_TIME_MIN, TTV_TIME_MAX);
  TtvHistoryInterval best = { 0 };

  for (guint i = 0; i < ivs->len; i++)
    {
      const TtvHistoryInterval *iv = &g_array_index (ivs, TtvHistoryInterval, i);

      if (ttv_history_state_low (iv->state) == TTV_HISTORY_CPU_IDLE
          && ttv_history_state_mode (iv->state) != TTV_MODE_IRQ
          && ttv_history_state_mode (iv->state) != TTV_MODE_SOFTIRQ
          && iv->end - iv->start > best.end - best.start)
        best = *iv;
    }
  g_assert_cmpint (best.end, >, best.start);
  return best;
}

/* A window whose middle third is CPU 0's longest idle stretch. */
static char *
idle_window (TtvTraceset *ts, TtvHistoryInterval *idle, TtvTime *t0, TtvTime *t1)
{
  TtvHistoryOptions opt = { .no_cache = TRUE };
  g_autoptr (TtvHistory) history = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *a = NULL, *b = NULL;
  TtvTime len;

  /* What the history says is where. */
  history = ttv_history_build (ts, &opt, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  *idle = longest_idle (history);
  len = idle->end - idle->start;
  *t0 = idle->start - len;
  *t1 = idle->end + len;
  a = time_arg (*t0);
  b = time_arg (*t1);
  return g_strdup_printf ("%s:%s", a, b);
}

/* The x of @t in a time line of @width with labels of @label px. */
static int
x_at (TtvTime t, TtvTime t0, TtvTime t1, int width, int label)
{
  return label + (int) ((double) (t - t0) / (double) (t1 - t0) * (width - label));
}

/* Control flow and resources: where CPU 0 idles (its longest idle
 * stretch, the middle third of the window), the first row (CPU 0's idle
 * task; CPU 0) draws CPU idle, five times out of five. */
static void
test_timelines (Fixture *f, gconstpointer data)
{
  static const struct {
    const char *view;
    int label;                  /* the label area's width at 1000 px */
  } views[] = {
    { "controlflow", TTV_TIMELINE_PROCESS_LABEL_WIDTH },
    { "resources", TTV_TIMELINE_LABEL_WIDTH },
  };
  TtvHistoryInterval idle;
  TtvTime t0, t1;
  g_autofree char *window = NULL;
  const int width = 1000, height = 500;

  if (!f->ts)
    {
      g_test_skip ("TTV_SAMPLE_TRACE is not set: no sample trace");
      return;
    }
  window = idle_window (f->ts, &idle, &t0, &t1);
  for (guint v = 0; v < G_N_ELEMENTS (views); v++)
    {
      g_autofree char *png = g_strdup_printf ("%s/%s.png", f->dir, views[v].view);
      g_autofree char *svg = g_strdup_printf ("%s/%s.svg", f->dir, views[v].view);
      g_autofree char *err = NULL, *err2 = NULL;
      cairo_surface_t *s;
      guint idle_pixels = 0;
      int y;

      g_assert_cmpint (render (views[v].view, window, "1000x500", png, &err), ==, 0);
      s = load_image (png, width, height);
      y = ttv_test_header_of (s) + TTV_TIMELINE_ROW_HEIGHT / 2 + 2;
      for (int k = 1; k <= 5; k++)
        {
          TtvTime t = idle.start + (idle.end - idle.start) * k / 6;
          int x = x_at (t, t0, t1, width, views[v].label);

          idle_pixels += ttv_test_pixel (s, x, y) == CPU_IDLE;
        }
      g_assert_cmpuint (idle_pixels, ==, 5);
      cairo_surface_destroy (s);
      g_assert_cmpint (render (views[v].view, window, "1000x500", svg, &err2), ==, 0);
      check_svg (svg, width, height, NULL);
    }
}

/* The histogram: bars over (nearly) every column just above the
 * lost-events strip and the ruler, every event of the sample counted. */
static void
test_histogram (Fixture *f, gconstpointer data)
{
  g_autofree char *png = NULL, *svg = NULL, *err = NULL, *err2 = NULL;
  const int width = 1200, height = 300;
  cairo_surface_t *s;
  guint with_bar = 0;

  if (!f->ts)
    {
      g_test_skip ("TTV_SAMPLE_TRACE is not set: no sample trace");
      return;
    }
  png = g_build_filename (f->dir, "histogram.png", NULL);
  svg = g_build_filename (f->dir, "histogram.svg", NULL);
  g_assert_cmpint (render ("histogram", NULL, "1200x300", png, &err), ==, 0);
  s = load_image (png, width, height);
  for (int x = 0; x < width; x++)
    with_bar += ttv_test_pixel (s, x, height - 24 - 6 - 2) == HISTOGRAM_BAR;
  g_assert_cmpuint (with_bar, >, (guint) width * 95 / 100);
  cairo_surface_destroy (s);
  g_assert_cmpint (render ("histogram", NULL, "1200x300", svg, &err2), ==, 0);
  check_svg (svg, width, height, NULL);
}

/* Statistics: the table as PNG, and as SVG text whose traceset row counts
 * every event of the sample. */
static void
test_statistics (Fixture *f, gconstpointer data)
{
  g_autofree char *png = NULL, *svg = NULL, *err = NULL, *err2 = NULL, *count = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvContext) ctx = NULL;
  guint64 n = 0;

  if (!f->ts)
    {
      g_test_skip ("TTV_SAMPLE_TRACE is not set: no sample trace");
      return;
    }
  ctx = ttv_context_new (f->ts, &error);
  g_assert_true (ttv_context_seek_begin (ctx, &error));
  while (ttv_context_next (ctx, &error))
    n++;
  g_assert_no_error (error);
  png = g_build_filename (f->dir, "statistics.png", NULL);
  svg = g_build_filename (f->dir, "statistics.svg", NULL);
  g_assert_cmpint (render ("statistics", NULL, "900x600", png, &err), ==, 0);
  cairo_surface_destroy (load_image (png, 900, 600));
  g_assert_cmpint (render ("statistics", NULL, "900x600", svg, &err2), ==, 0);
  /* Text, not glyph outlines: the names and numbers can be found. */
  check_svg (svg, 900, 600, ">Traceset</text>");
  count = g_strdup_printf (">%" G_GUINT64_FORMAT "</text>", n);
  check_svg (svg, 900, 600, count);
}

/* The event list has no render: a clear refusal, status 1, no file. */
/* The pixels of column @x of @s (a PNG's) that are a machine's header row
 * (modules/timeline: #ccd9ee), in separate bands: how many bands. */
static guint
header_bands (cairo_surface_t *s, int x)
{
  guint bands = 0;
  gboolean in = FALSE;
  for (int y = 0; y < cairo_image_surface_get_height (s); y++)
    {
      gboolean header = (ttv_test_pixel (s, x, y) & 0xffffff) == 0xccd9ee;
      bands += header && !in;
      in = header;
    }
  return bands;
}

/* Several --trace: one traceset; two machines' rows each under a header
 * row (the machine's name), none with one machine. */
static void
test_machines (Fixture *f, gconstpointer data)
{
  if (!f->ts)
    return;
  g_autofree char *dir = g_build_filename (f->dir, "machines", NULL);
  g_autofree char *alpha = g_build_filename (dir, "alpha", NULL);
  g_autofree char *beta = g_build_filename (dir, "beta", NULL);
  const char *gen_a[] = { TTV_GEN_PATH, "-q", "-f", "ctf", "--host", "alpha", "--cpus", "2", "--duration", "0.05",
                          "-s", "3", "-o", alpha, NULL };
  const char *gen_b[] = { TTV_GEN_PATH, "-q", "-f", "ctf", "--host", "beta", "--cpus", "3", "--duration", "0.05",
                          "-s", "4", "-o", beta, NULL };
  g_free (ttv_test_run_ok (gen_a));
  g_free (ttv_test_run_ok (gen_b));
  g_autofree char *both = g_build_filename (dir, "both.png", NULL);
  g_autofree char *one = g_build_filename (dir, "one.png", NULL);
  g_auto (GStrv) env = ttv_gui_test_headless_environ ();
  const char *argv_both[] = { TTV_EXE_PATH, "--render", "resources", "--trace", alpha, "--trace", beta, "--size",
                              "1000x600", "-o", both, NULL };
  const char *argv_one[] = { TTV_EXE_PATH, "--render", "resources", "--trace", beta, "--size", "1000x600", "-o",
                             one, NULL };
  for (guint i = 0; i < 2; i++)
    {
      g_autoptr (GError) error = NULL;
      gint status = -1;
      g_assert_true (g_spawn_sync (NULL, (char **) (i ? argv_one : argv_both), env, G_SPAWN_DEFAULT, NULL, NULL, NULL,
                                   NULL, &status, &error));
      g_assert_true (g_spawn_check_wait_status (status, &error));
    }
  cairo_surface_t *s = load_image (both, 1000, 600);
  g_assert_cmpuint (header_bands (s, 600), ==, 2);
  cairo_surface_destroy (s);
  s = load_image (one, 1000, 600);
  g_assert_cmpuint (header_bands (s, 600), ==, 0);
  cairo_surface_destroy (s);
}

/* Task names that are not UTF-8: cairo refuses such text by stopping all
 * drawing on its context, so the control flow drew nothing from the first
 * such row on; its rows are now all drawn (the bad byte as U+FFFD), and
 * the viewer says nothing of it on stderr. */
static void
test_names_not_utf8 (Fixture *f, gconstpointer data)
{
  if (!f->ts)
    {
      g_test_skip ("TTV_SAMPLE_TRACE is not set: no sample trace");
      return;
    }
  g_autofree char *trace = g_build_filename (f->dir, "not-utf8", NULL);
  g_autofree char *png = g_build_filename (f->dir, "not-utf8.png", NULL);
  const char *gen[] = { TTV_GEN_PATH, "-q", "-f", "ctf", "--cpus", "2", "--events", "20000", "-o", trace, NULL };
  g_free (ttv_test_run_ok (gen));
  ttv_gui_test_spoil_names (trace, "find");
  g_auto (GStrv) env = ttv_gui_test_headless_environ ();
  const char *argv[] = { TTV_EXE_PATH, "--render", "controlflow", "--trace", trace, "--size", "600x1400", "-o", png,
                         NULL };
  g_autoptr (GError) error = NULL;
  g_autofree char *err = NULL;
  gint status = -1;
  g_assert_true (g_spawn_sync (NULL, (char **) argv, env, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, &err, &status,
                               &error));
  g_assert_true (g_spawn_check_wait_status (status, &error));
  g_test_message ("%s", err);
  g_assert_null (strstr (err, "UTF-8"));
  g_assert_null (strstr (err, "drawing failure"));
  /* The rows far below the first "fi\ufffdd" (pid 50, about the 50th
   * row): many colours, not a blank area. */
  cairo_surface_t *s = load_image (png, 600, 1400);
  g_autoptr (GHashTable) colours = g_hash_table_new (NULL, NULL);
  for (int y = 1000; y < 1400; y += 2)
    for (int x = 0; x < 600; x += 2)
      g_hash_table_add (colours, GUINT_TO_POINTER (ttv_test_pixel (s, x, y)));
  g_assert_cmpuint (g_hash_table_size (colours), >, 20);
  cairo_surface_destroy (s);
}

static void
test_no_render (Fixture *f, gconstpointer data)
{
  g_autofree char *png = NULL, *err = NULL;

  if (!f->ts)
    {
      g_test_skip ("TTV_SAMPLE_TRACE is not set: no sample trace");
      return;
    }
  png = g_build_filename (f->dir, "events.png", NULL);
  g_assert_cmpint (render ("events", NULL, "800x600", png, &err), ==, 1);
  /* (In the C locale the quotes print as ?.) */
  g_assert_nonnull (strstr (err, "events"));
  g_assert_nonnull (strstr (err, "cannot render to a file"));
  g_assert_false (g_file_test (png, G_FILE_TEST_EXISTS));
}

/* --- Settings of a viewer run from its build tree ---------------------------------- */

/* ttv's environment for the settings tests: no display, no
 * GSETTINGS_SCHEMA_DIR and no installed ttv schema to fall back on (the
 * data dirs are the system's, /usr/share, where nothing installs ttv, not
 * /usr/local/share where a `meson install` would), the keyfile backend in
 * @dir's config. */
static GStrv
settings_environ (const char *dir)
{
  GStrv env = ttv_gui_test_headless_environ ();
  g_autofree char *config = g_build_filename (dir, "config", NULL);
  g_autofree char *data = g_build_filename (dir, "data", NULL);
  g_autofree char *installed = g_build_filename ("/usr/share", "glib-2.0", "schemas", "org.ttv.Viewer.gschema.xml", NULL);

  g_assert_false (g_file_test (installed, G_FILE_TEST_EXISTS));
  g_assert_cmpint (g_mkdir_with_parents (data, 0700), ==, 0);
  env = g_environ_unsetenv (env, "GSETTINGS_SCHEMA_DIR");
  env = g_environ_setenv (env, "XDG_DATA_DIRS", "/usr/share", TRUE);
  env = g_environ_setenv (env, "XDG_DATA_HOME", data, TRUE);
  env = g_environ_setenv (env, "XDG_CONFIG_HOME", config, TRUE);
  return g_environ_setenv (env, "GSETTINGS_BACKEND", "keyfile", TRUE);
}

static char *
keyfile_path (const char *dir)
{
  return g_build_filename (dir, "config", "glib-2.0", "settings", "keyfile", NULL);
}

/* A colour the settings hold is what the render draws: the schema was
 * found in the build tree and the keyfile read; nothing says it was not. */
static void
test_settings_render (Fixture *f, gconstpointer data)
{
  g_auto (GStrv) env = NULL;
  g_autofree char *keyfile = NULL, *keydir = NULL, *window = NULL, *png = NULL, *err = NULL;
  TtvHistoryInterval idle;
  TtvTime t0, t1;
  cairo_surface_t *s;
  guint magenta = 0;
  int y;

  if (!f->ts)
    {
      g_test_skip ("TTV_SAMPLE_TRACE is not set: no sample trace");
      return;
    }
  env = settings_environ (f->dir);
  keyfile = keyfile_path (f->dir);
  keydir = g_path_get_dirname (keyfile);
  g_assert_cmpint (g_mkdir_with_parents (keydir, 0700), ==, 0);
  g_assert_true (g_file_set_contents (keyfile, "[org/ttv/Viewer]\ntimeline-colors={'cpu-idle': '#ff00ff'}\n",
                                      -1, NULL));
  window = idle_window (f->ts, &idle, &t0, &t1);
  png = g_build_filename (f->dir, "settings.png", NULL);
  g_assert_cmpint (render_env (env, "resources", window, "1000x500", png, &err), ==, 0);
  g_assert_null (strstr (err, "not found"));
  s = load_image (png, 1000, 500);
  y = ttv_test_header_of (s) + TTV_TIMELINE_ROW_HEIGHT / 2 + 2;
  for (int k = 1; k <= 5; k++)
    magenta += ttv_test_pixel (s, x_at (idle.start + (idle.end - idle.start) * k / 6, t0, t1, 1000,
                                        TTV_TIMELINE_LABEL_WIDTH), y) == 0xff00ff;
  g_assert_cmpuint (magenta, ==, 5);
  cairo_surface_destroy (s);
}

/* Whether the settings on disk hold @entry among the recent traces. */
static gboolean
recent_kept (const char *keyfile, const char *entry)
{
  g_autofree char *text = NULL;

  return g_file_get_contents (keyfile, &text, NULL, NULL) && strstr (text, "recent-traces")
         && strstr (text, entry);
}

/* The session of the viewer (its bus, X server and itself) in a process
 * group of its own, to end it whole. */
static void
own_group (gpointer data)
{
  setpgid (0, 0);
}

/* The viewer, opening the sample in a virtual X server, keeps it among the
 * recent traces of the settings on disk (for the next run).  With @data,
 * a trace in a folder whose name holds a byte that is not UTF-8 (the
 * viewer quit without a window on it, its path refused by GSettings): it
 * opens, and is kept as a file URI. */
static void
test_settings_kept (Fixture *f, gconstpointer data)
{
  g_autofree char *xvfb = g_find_program_in_path ("xvfb-run");
  g_autofree char *dbus = g_find_program_in_path ("dbus-run-session");
  g_autofree char *keyfile = NULL, *log = NULL, *errors = NULL, *made = NULL, *entry = NULL;
  const char *trace = g_getenv ("TTV_SAMPLE_TRACE");
  g_auto (GStrv) env = NULL;
  g_autoptr (GError) error = NULL;
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  GPid pid;
  gint err_fd;

  if (!f->ts || !xvfb || !dbus)
    {
      g_test_skip ("no sample trace, xvfb-run or dbus-run-session");
      return;
    }
  if (data)
    {
      made = g_build_filename (f->dir, "tr\xff" "ce", NULL);
      const char *gen[] = { TTV_GEN_PATH, "-q", "-f", "ctf", "--cpus", "2", "--events", "2000", "-o", made, NULL };
      g_free (ttv_test_run_ok (gen));
      trace = made;
    }
  {
    g_autofree char *canonical = g_canonicalize_filename (trace, NULL);
    entry = data ? g_filename_to_uri (canonical, NULL, NULL) : g_strdup (canonical);
    g_assert_true (g_utf8_validate (entry, -1, NULL));
  }
  env = settings_environ (f->dir);
  keyfile = keyfile_path (f->dir);
  {
    const char *argv[] = { dbus, "--", xvfb, "-a", "-n", "225", "-s", "-screen 0 1024x768x24",
                           TTV_EXE_PATH, trace, NULL };

    g_assert_true (g_spawn_async_with_pipes (NULL, (char **) argv, env, G_SPAWN_DO_NOT_REAP_CHILD
                                             | G_SPAWN_STDOUT_TO_DEV_NULL, own_group, NULL, &pid, NULL,
                                             NULL, &err_fd, &error));
    g_assert_no_error (error);
  }
  while (!recent_kept (keyfile, entry) && g_get_monotonic_time () < deadline)
    g_usleep (100000);
  /* The whole session goes: ttv, its X server, its bus. */
  kill (-pid, SIGTERM);
  waitpid (pid, NULL, 0);
  g_spawn_close_pid (pid);
  {
    g_autoptr (GIOChannel) channel = g_io_channel_unix_new (err_fd);

    g_io_channel_set_close_on_unref (channel, TRUE);
    g_io_channel_read_to_end (channel, &errors, NULL, NULL);
  }
  g_test_message ("ttv said: %s", errors ? errors : "");
  g_assert_true (recent_kept (keyfile, entry));
  g_assert_null (strstr (errors ? errors : "", "not found"));
  g_assert_null (strstr (errors ? errors : "", "CRITICAL"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/render/headless/timelines", Fixture, NULL, fixture_set_up, test_timelines, fixture_tear_down);
  g_test_add ("/render/headless/histogram", Fixture, NULL, fixture_set_up, test_histogram, fixture_tear_down);
  g_test_add ("/render/headless/statistics", Fixture, NULL, fixture_set_up, test_statistics, fixture_tear_down);
  g_test_add ("/render/headless/no-render", Fixture, NULL, fixture_set_up, test_no_render, fixture_tear_down);
  g_test_add ("/render/headless/machines", Fixture, NULL, fixture_set_up, test_machines, fixture_tear_down);
  g_test_add ("/render/headless/names-not-utf8", Fixture, NULL, fixture_set_up, test_names_not_utf8,
              fixture_tear_down);
  g_test_add ("/render/settings/build-tree-schema", Fixture, NULL, fixture_set_up, test_settings_render,
              fixture_tear_down);
  g_test_add ("/render/settings/kept", Fixture, NULL, fixture_set_up, test_settings_kept, fixture_tear_down);
  g_test_add ("/render/settings/kept-not-utf8", Fixture, "not-utf8", fixture_set_up, test_settings_kept,
              fixture_tear_down);
  return g_test_run ();
}
