/* ttv-render.c: the headless render of ttv-main.c, with no display at all:
 * opens the trace, runs the tab's background stages a view draws from (the
 * first read: event count and density; the state history, or its cache)
 * for a tab state no window shows, and writes what the view module's
 * display-free render (TtvViewerInfo.render) draws on cairo to a PNG or SVG
 * file.  GTK is never initialised: no widget is made. */
#include "ttv-config.h"

#include "ttv-render.h"

#include "ttv-history-pass.h"
#include "ttv-settings.h"
#include "ttv-indexer.h"
#include "ttv-tab-state-private.h"
#include "ttv-viewer-registry.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>

gboolean
ttv_render_requested (int argc, char **argv)
{
  for (int i = 1; i < argc; i++)
    if (strcmp (argv[i], "--render") == 0 || g_str_has_prefix (argv[i], "--render="))
      return TRUE;
  return FALSE;
}

/* "T" absolute (seconds.nanoseconds), or "+T" from @base. */
static gboolean
parse_time (const char *text, TtvTime base, TtvTime *out, GError **error)
{
  TtvTime t;

  if (text[0] == '+')
    {
      if (!ttv_time_parse (text + 1, &t, error))
        return FALSE;
      *out = base + t;
      return TRUE;
    }
  return ttv_time_parse (text, out, error);
}

static gboolean
parse_window (const char *text, TtvTime base, TtvTime *t0, TtvTime *t1, GError **error)
{
  g_auto (GStrv) parts = g_strsplit (text, ":", 2);

  if (!parts[0] || !parts[1])
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--window wants T0:T1, not “%s”"), text);
      return FALSE;
    }
  if (!parse_time (parts[0], base, t0, error) || !parse_time (parts[1], base, t1, error))
    return FALSE;
  if (*t1 <= *t0)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--window: the end must be after the start in “%s”"), text);
      return FALSE;
    }
  return TRUE;
}

static gboolean
parse_size (const char *text, int *w, int *h, GError **error)
{
  char *end = NULL;
  guint64 a, b;

  a = g_ascii_strtoull (text, &end, 10);
  if (end == text || (*end != 'x' && *end != 'X'))
    goto bad;
  text = end + 1;
  b = g_ascii_strtoull (text, &end, 10);
  if (end == text || *end || a == 0 || b == 0 || a > 32767 || b > 32767)
    goto bad;
  *w = (int) a;
  *h = (int) b;
  return TRUE;
bad:
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
               _("--size wants WIDTHxHEIGHT (1 to 32767), not “%s”"), text);
  return FALSE;
}

static int
fail (const char *message)
{
  g_printerr ("ttv: %s\n", message);
  return 1;
}

/* The tab's first stage, waited for: the event count and density (the
 * histogram draws them; the time bar's overview in a window). */
static gboolean
run_index (TtvTabState *state, TtvTraceset *ts, GError **error)
{
  g_autoptr (TtvIndexResult) result = ttv_indexer_run (ts, TTV_INDEXER_DENSITY_BINS, NULL, error);

  if (!result)
    return FALSE;
  ttv_tab_state_set_density (state, result->n_events, g_steal_pointer (&result->density),
                             g_steal_pointer (&result->type_density), &result->bins);
  return TRUE;
}

/* Draws the view once into @path: the module's SVG writer for .svg when
 * it has one, else its render on a cairo surface; a failed render leaves
 * no file. */
typedef struct {
  const TtvViewerInfo *info;
  TtvTabState *state;
  gboolean ok;
  GError *error;
} RenderCall;

static void
render_draw (gpointer data, cairo_t *cr, int width, int height)
{
  RenderCall *call = data;

  call->ok = call->info->render (call->state, cr, width, height, &call->error);
}

/* @frame: the image surface every frame of a PNG is drawn on, or NULL. */
static gboolean
render_once (const TtvViewerInfo *info, TtvTabState *state, const char *path, int width, int height,
             cairo_surface_t *frame, GError **error)
{
  RenderCall call = { info, state, FALSE, NULL };
  gboolean svg = g_str_has_suffix (path, ".svg") || g_str_has_suffix (path, ".SVG");
  gboolean written;

  if (svg && info->write_svg)
    return info->write_svg (state, path, width, height, error);
  written = frame ? ttv_viewer_write_png_on (frame, path, render_draw, &call, error)
                  : ttv_viewer_write_image (path, width, height, render_draw, &call, error);
  if (!written)
    {
      g_clear_error (&call.error);
      return FALSE;
    }
  if (!call.ok)
    {
      g_unlink (path);
      g_propagate_error (error, call.error);
      return FALSE;
    }
  return TRUE;
}

/* For ttv --help (the application's own options do not list it). */
const char *
ttv_render_help (void)
{
  return _("Headless render of a view to an image file:\n"
           "  ttv --render VIEW --trace TRACE [--window T0:T1] [--size WxH] [--thread TID] -o FILE.png|.svg\n"
           "  VIEW: controlflow, resources, histogram, statistics, syscall-latency, sched-latency, irq-latency,\n"
           "  block-latency, futex-latency, cpu-usage, critical-path; ttv --render VIEW --help lists every option");
}

int
ttv_render_main (int argc, char **argv)
{
  g_autofree char *view = NULL, *window = NULL, *size = NULL, *output = NULL;
  g_auto (GStrv) trace_paths = NULL;
  gint repeat = 1;
  gint64 thread = -1;
  gboolean timing = FALSE;
  const GOptionEntry entries[] = {
    { "render", 0, 0, G_OPTION_ARG_STRING, &view, N_("Render the view VIEW (controlflow, resources, histogram, statistics, a latency view, cpu-usage, critical-path) headless"), N_("VIEW") },
    { "trace", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &trace_paths, N_("The trace to render (again for each trace of a traceset: several machines, a kernel and a userspace trace)"), N_("TRACE") },
    { "window", 0, 0, G_OPTION_ARG_STRING, &window, N_("Time window T0:T1 (seconds; +T: from the trace start)"), N_("T0:T1") },
    { "size", 0, 0, G_OPTION_ARG_STRING, &size, N_("Image size (default 1280x800)"), N_("WxH") },
    { "thread", 0, 0, G_OPTION_ARG_INT64, &thread, N_("The selected thread (the critical path's; the latency views' with it alone)"), N_("TID") },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_("The .png or .svg file to write"), N_("FILE") },
    { "repeat", 0, 0, G_OPTION_ARG_INT, &repeat, N_("Render N times (benchmarks)"), N_("N") },
    { "timing", 0, 0, G_OPTION_ARG_NONE, &timing, N_("Print the times as one JSON line"), NULL },
    { NULL, 0, 0, 0, NULL, NULL, NULL },
  };
  g_autoptr (GOptionContext) ctx = g_option_context_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvTraceset) ts = NULL;
  g_autoptr (TtvTabState) state = NULL;
  TtvHistory *history;
  const TtvViewerInfo *info;
  TtvTime t0, t1;
  int width = 1280, height = 800;
  gint64 start, indexed, built, rendered;
  cairo_surface_t *frame = NULL;
  gboolean rendered_all = TRUE;

  g_option_context_add_main_entries (ctx, entries, GETTEXT_PACKAGE);
  g_option_context_set_summary (ctx, _("Renders a view of a trace to an image, without a window."));
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    return fail (error->message);
  if (!view || !trace_paths || !output)
    return fail (_("--render needs --trace and -o FILE"));
  if (size && !parse_size (size, &width, &height, &error))
    return fail (error->message);
  if (repeat < 1 || repeat > 100000)
    return fail (_("--repeat must be from 1 to 100000"));
  if (thread != -1 && (thread < 0 || thread >= G_MAXUINT32))
    return fail (_("--thread must be a thread id (0 to 4294967294)"));
  ttv_module_loader_load_all ();
  info = ttv_viewer_registry_find (view);
  if (!info)
    {
      g_autofree char *msg = g_strdup_printf (_("No view named “%s”"), view);
      return fail (msg);
    }
  if (!info->render)
    {
      g_autofree char *msg = g_strdup_printf (_("The view “%s” cannot render to a file"), view);
      return fail (msg);
    }
  ts = ttv_traceset_new ();
  for (guint i = 0; trace_paths[i]; i++)
    if (!ttv_traceset_add_path (ts, trace_paths[i], &error))
      return fail (error->message);
  state = ttv_tab_state_new (ts);
  ttv_tab_state_get_time_span (state, &t0, &t1);
  if (window && !parse_window (window, t0, &t0, &t1, &error))
    return fail (error->message);
  start = g_get_monotonic_time ();
  if (!run_index (state, ts, &error))
    return fail (error->message);
  indexed = g_get_monotonic_time ();
  history = ttv_history_pass_build (ts, ttv_settings_get_history_cache_max (), NULL, &error);
  if (!history)
    return fail (error->message);
  ttv_tab_state_set_history (state, history);
  ttv_tab_state_set_time_window (state, t0, t1);
  if (thread >= 0)
    ttv_tab_state_set_selected_thread (state, (guint32) thread);
  built = g_get_monotonic_time ();

  g_unlink (output);
  /* The frames of --repeat on one surface, as a widget draws on the one
   * GDK keeps: a new 8 MB image each frame would fault its pages in
   * within the frame's time (bench/render). */
  if (repeat > 1 && !g_str_has_suffix (output, ".svg") && !g_str_has_suffix (output, ".SVG"))
    frame = cairo_image_surface_create (CAIRO_FORMAT_RGB24, width, height);
  for (gint i = 0; i < repeat && rendered_all; i++)
    rendered_all = render_once (info, state, output, width, height, frame, &error);
  if (frame)
    cairo_surface_destroy (frame);
  if (!rendered_all)
    {
      g_autofree char *msg = g_strdup_printf (_("Rendering to “%s” failed: %s"), output, error->message);
      ttv_tab_state_shutdown (state);
      return fail (msg);
    }
  rendered = g_get_monotonic_time ();
  if (timing)
    g_print ("{\"view\": \"%s\", \"width\": %d, \"height\": %d, \"window_ns\": %" G_GINT64_FORMAT
             ", \"index_ms\": %.1f, \"history_ms\": %.1f, \"frames\": %d, \"ms_per_frame\": %.2f}\n",
             view, width, height, (gint64) (t1 - t0), (indexed - start) / 1000.0,
             (built - indexed) / 1000.0, repeat,
             (rendered - built) / 1000.0 / repeat);
  ttv_tab_state_shutdown (state);
  return 0;
}
