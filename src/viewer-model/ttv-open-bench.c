/* ttv-open-bench.c: the reports of bench/gui-open (see ttv-open-bench.h):
 * the first paint, which a viewer announces (ttv_viewer_notify_first_paint
 * of the SDK, src/gui/ttv-first-paint.c: the event list's rows), and the
 * end of the background passes, which the tab state sees. */
#include "ttv-config.h"

#include "ttv-open-bench.h"

#include "ttv-process-memory.h"

#include <gio/gio.h>
#include <stdio.h>
#include <string.h>

typedef struct {
  gint64 rss, anon, file;   /* KiB, -1 unknown */
} Memory;

static Memory
read_memory (void)
{
  return (Memory) {
    ttv_process_status_kib ("VmRSS:"),
    ttv_process_status_kib ("RssAnon:"),
    ttv_process_status_kib ("RssFile:"),
  };
}

static double
seconds_since_start (void)
{
  const char *t0 = g_getenv ("TTV_BENCH_T0");

  return t0 ? (g_get_monotonic_time () - g_ascii_strtoll (t0, NULL, 10)) / 1e6 : -1.0;
}

/* After the first frame that shows rows: one JSON line, then quit (unless
 * the bench waits for the background passes, TTV_BENCH_BACKGROUND).
 * RssFile: pages of the memory-mapped trace (page cache, reclaimable);
 * RssAnon: the viewer's own memory. */
void
ttv_open_bench_first_paint (guint n_items)
{
  static gboolean done;
  GApplication *app = g_application_get_default ();
  Memory m;

  if (done || !g_getenv ("TTV_BENCH_FIRST_PAINT"))
    return;
  done = TRUE;
  m = read_memory ();
  printf ("{\"bench\": \"gui-first-paint\", \"seconds\": %.3f, \"rows\": %u, \"rss_kib\": %"
          G_GINT64_FORMAT ", \"rss_anon_kib\": %" G_GINT64_FORMAT ", \"rss_file_kib\": %"
          G_GINT64_FORMAT "}\n",
          seconds_since_start (), n_items, m.rss, m.anon, m.file);
  fflush (stdout);
  if (app && !g_getenv ("TTV_BENCH_BACKGROUND"))
    g_application_quit (app);
}

static gboolean from_cache_seen;

/* After the views had time to draw what the history changed. */
static gboolean
report (gpointer data)
{
  Memory m = read_memory ();
  printf ("{\"bench\": \"gui-background-done\", \"seconds\": %.3f, \"history_from_cache\": %s, "
          "\"rss_kib\": %" G_GINT64_FORMAT ", \"rss_anon_kib\": %" G_GINT64_FORMAT
          ", \"rss_file_kib\": %" G_GINT64_FORMAT "}\n",
          seconds_since_start (), from_cache_seen ? "true" : "false",
          m.rss, m.anon, m.file);
  fflush (stdout);
  GApplication *app = g_application_get_default ();
  if (app)
    g_application_quit (app);
  return G_SOURCE_REMOVE;
}

void
ttv_open_bench_background_done (gboolean from_cache)
{
  static gboolean done;
  if (done || !g_getenv ("TTV_BENCH_BACKGROUND"))
    return;
  done = TRUE;
  from_cache_seen = from_cache;
  g_timeout_add (500, report, NULL);
}
