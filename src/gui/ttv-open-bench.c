/* ttv-open-bench.c: the report of bench/gui-open once the background
 * passes are done (see ttv-open-bench.h); the first-paint report is the
 * event list's (modules/events). */
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

static gboolean from_cache_seen;

/* After the views had time to draw what the history changed. */
static gboolean
report (gpointer data)
{
  const char *t0 = g_getenv ("TTV_BENCH_T0");
  gint64 now = g_get_monotonic_time ();
  Memory m = read_memory ();
  printf ("{\"bench\": \"gui-background-done\", \"seconds\": %.3f, \"history_from_cache\": %s, "
          "\"rss_kib\": %" G_GINT64_FORMAT ", \"rss_anon_kib\": %" G_GINT64_FORMAT
          ", \"rss_file_kib\": %" G_GINT64_FORMAT "}\n",
          t0 ? (now - g_ascii_strtoll (t0, NULL, 10)) / 1e6 : -1.0, from_cache_seen ? "true" : "false",
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
