/* ttv-bench.c: measured figures of libttv, one JSON object per line.
 * Each subcommand times one thing users wait for: reading, seeking, state. */
#include "ttv-config.h"

#include "ttv-context.h"
#include "ttv-state-tracker.h"

#include <glib/gi18n.h>
#include <locale.h>
#include <stdio.h>
#include <time.h>

static gint64 opt_samples = 1000;
static gboolean opt_decode;
static gboolean opt_babeltrace;
static guint64 opt_seed = 1;
static gboolean opt_after_read = TRUE;
static gboolean opt_cold;

static const GOptionEntry entries[] = {
  { "samples", 0, 0, G_OPTION_ARG_INT64, &opt_samples, "Random samples for latency figures (default 1000)", "N" },
  { "decode", 0, 0, G_OPTION_ARG_NONE, &opt_decode, "read: also decode every event's fields", NULL },
  { "babeltrace", 0, 0, G_OPTION_ARG_NONE, &opt_babeltrace, "read: time `babeltrace2 -o dummy` on the same trace and report the ratio", NULL },
  { "seed", 0, 0, G_OPTION_ARG_INT64, &opt_seed, "Random seed for sampled times", "N" },
  { "cold", 0, 0, G_OPTION_ARG_NONE, &opt_cold, "seek: without the first full read (no in-block index yet)", NULL },
  { NULL }
};

static TtvTraceset *
open_traceset (char **paths, GError **error)
{
  g_autoptr (TtvTraceset) ts = ttv_traceset_new ();
  for (guint i = 0; paths[i]; i++)
    if (!ttv_traceset_add_path (ts, paths[i], error))
      return NULL;
  return g_steal_pointer (&ts);
}

static void
print_json_head (GString *out, const char *bench, char **paths)
{
  g_string_append_printf (out, "{\"bench\":\"%s\",\"trace\":\"", bench);
  for (guint i = 0; paths[i]; i++)
    {
      g_autofree char *escaped = g_strescape (paths[i], NULL);
      g_string_append_printf (out, "%s%s", i ? " " : "", escaped);
    }
  g_string_append_c (out, '"');
}

/* Seconds of a full merged read; also counts events. */
static double
time_read (TtvTraceset *ts, guint64 *n_events, GError **error)
{
  g_autoptr (TtvContext) ctx = ttv_context_new (ts, error);
  if (ctx == NULL || !ttv_context_seek_begin (ctx, error))
    return -1;
  g_autoptr (TtvDecoder) decoder = ttv_decoder_new ();
  gint64 t0 = g_get_monotonic_time ();
  guint64 n = 0;
  const TtvEvent *ev;
  GError *local = NULL;
  while ((ev = ttv_context_next (ctx, &local)) != NULL)
    {
      if (opt_decode)
        {
          ttv_decoder_reset (decoder);
          ttv_event_decode_fields (ev, decoder, NULL);
        }
      n++;
    }
  if (local)
    {
      g_propagate_error (error, local);
      return -1;
    }
  *n_events = n;
  return (double) (g_get_monotonic_time () - t0) / 1e6;
}

static double
time_babeltrace (char **paths)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_ptr_array_add (argv, "babeltrace2");
  for (guint i = 0; paths[i]; i++)
    g_ptr_array_add (argv, paths[i]);
  g_ptr_array_add (argv, "-o");
  g_ptr_array_add (argv, "dummy");
  g_ptr_array_add (argv, NULL);
  gint64 t0 = g_get_monotonic_time ();
  gint status = 0;
  if (!g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL
                     | G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, NULL, NULL, &status, NULL))
    return -1;
  double s = (double) (g_get_monotonic_time () - t0) / 1e6;
  return g_spawn_check_wait_status (status, NULL) ? s : -1;
}

static int
bench_read (char **paths, GString *out, GError **error)
{
  g_autoptr (TtvTraceset) ts = open_traceset (paths, error);
  if (ts == NULL)
    return 1;
  guint64 n = 0;
  /* A first read warms the page cache, as for a trace the user just opened. */
  if (time_read (ts, &n, error) < 0)
    return 1;
  double s = time_read (ts, &n, error);
  if (s < 0)
    return 1;
  print_json_head (out, opt_decode ? "read+decode" : "read", paths);
  g_string_append_printf (out, ",\"tracefiles\":%u,\"events\":%" G_GUINT64_FORMAT ",\"seconds\":%.6f,\"events_per_s\":%.0f",
                          ttv_traceset_get_n_tracefiles (ts), n, s, s > 0 ? (double) n / s : 0.0);
  if (opt_babeltrace)
    {
      double bs = time_babeltrace (paths);
      if (bs > 0)
        g_string_append_printf (out, ",\"babeltrace2_seconds\":%.6f,\"babeltrace2_events_per_s\":%.0f,\"speedup\":%.2f",
                                bs, (double) n / bs, s > 0 ? bs / s : 0.0);
      else
        g_string_append (out, ",\"babeltrace2_seconds\":null");
    }
  g_string_append (out, "}\n");
  return 0;
}

/* CPU time of this thread in microseconds: with other work on the machine,
 * wall-clock latencies measure the scheduler as much as the code. */
static double
thread_cpu_us (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double) ts.tv_sec * 1e6 + (double) ts.tv_nsec / 1e3;
}

static int
compare_double (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

static void
append_latency (GString *out, const char *name, GArray *us)
{
  g_array_sort (us, compare_double);
  double median = us->len ? g_array_index (us, double, us->len / 2) : 0;
  double p99 = us->len ? g_array_index (us, double, MIN (us->len - 1, us->len * 99 / 100)) : 0;
  g_string_append_printf (out, ",\"%s_median_us\":%.2f,\"%s_p99_us\":%.2f", name, median, name, p99);
}

static int
bench_seek (char **paths, GString *out, GError **error)
{
  g_autoptr (TtvTraceset) ts = open_traceset (paths, error);
  if (ts == NULL)
    return 1;
  g_autoptr (TtvContext) ctx = ttv_context_new (ts, error);
  if (ctx == NULL)
    return 1;
  /* Like the viewer, which reads the trace once in the background before
   * the user seeks around: that first read also indexes inside blocks. */
  guint64 n;
  if (opt_after_read && time_read (ts, &n, error) < 0)
    return 1;
  TtvTime start = ttv_traceset_get_start (ts), end = ttv_traceset_get_end (ts);
  g_autoptr (GRand) rand = g_rand_new_with_seed ((guint32) opt_seed);
  g_autoptr (GArray) us = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GArray) cpu_us = g_array_new (FALSE, FALSE, sizeof (double));
  for (gint64 i = 0; i < opt_samples; i++)
    {
      TtvTime t = start + (TtvTime) (g_rand_double (rand) * (double) (end - start));
      gint64 t0 = g_get_monotonic_time ();
      double c0 = thread_cpu_us ();
      /* Seeking and reading the event there: what a viewer does. */
      if (!ttv_context_seek_time (ctx, t, error))
        return 1;
      ttv_context_peek (ctx, NULL);
      double c = thread_cpu_us () - c0;
      double d = (double) (g_get_monotonic_time () - t0);
      g_array_append_val (us, d);
      g_array_append_val (cpu_us, c);
    }
  print_json_head (out, opt_after_read ? "seek_time" : "seek_time_cold", paths);
  g_string_append_printf (out, ",\"samples\":%" G_GINT64_FORMAT, opt_samples);
  append_latency (out, "seek", us);
  append_latency (out, "seek_cpu", cpu_us);
  g_string_append (out, "}\n");
  return 0;
}

static int
bench_state (char **paths, GString *out, GError **error)
{
  g_autoptr (TtvTraceset) ts = open_traceset (paths, error);
  if (ts == NULL)
    return 1;
  /* The state alone first (no statistics, no checkpoints), then the full
   * background pass that also gathers statistics and checkpoints. */
  g_autoptr (TtvStateTracker) plain = ttv_state_tracker_new (ts, NULL);
  g_autoptr (TtvContext) ctx = ttv_context_new (ts, error);
  if (ctx == NULL || !ttv_context_seek_begin (ctx, error))
    return 1;
  gint64 p0 = g_get_monotonic_time ();
  GError *local = NULL;
  guint64 n_plain = ttv_state_tracker_run (plain, ctx, TTV_TIME_MAX, NULL, &local);
  if (local)
    {
      g_propagate_error (error, local);
      return 1;
    }
  double plain_s = (double) (g_get_monotonic_time () - p0) / 1e6;

  g_autoptr (TtvStateTracker) tracker = ttv_state_tracker_new (ts, NULL);
  gint64 t0 = g_get_monotonic_time ();
  if (!ttv_state_tracker_build (tracker, NULL, NULL, NULL, error))
    return 1;
  double s = (double) (g_get_monotonic_time () - t0) / 1e6;
  guint64 n = ttv_state_get_n_events (ttv_state_tracker_get_state (tracker));

  TtvTime start = ttv_traceset_get_start (ts), end = ttv_traceset_get_end (ts);
  g_autoptr (GRand) rand = g_rand_new_with_seed ((guint32) opt_seed);
  g_autoptr (GArray) us = g_array_new (FALSE, FALSE, sizeof (double));
  gint64 samples = MIN (opt_samples, 200);
  for (gint64 i = 0; i < samples; i++)
    {
      TtvTime t = start + (TtvTime) (g_rand_double (rand) * (double) (end - start));
      gint64 t1 = g_get_monotonic_time ();
      TtvState *state = ttv_state_tracker_dup_state_at (tracker, t, error);
      if (state == NULL)
        return 1;
      double d = (double) (g_get_monotonic_time () - t1);
      ttv_state_free (state);
      g_array_append_val (us, d);
    }
  print_json_head (out, "state", paths);
  g_string_append_printf (out, ",\"state_only_events_per_s\":%.0f", plain_s > 0 ? (double) n_plain / plain_s : 0.0);
  g_string_append_printf (out, ",\"events\":%" G_GUINT64_FORMAT ",\"seconds\":%.6f,\"events_per_s\":%.0f"
                          ",\"checkpoints\":%u,\"checkpoint_interval\":%" G_GUINT64_FORMAT ",\"checkpoint_bytes\":%" G_GSIZE_FORMAT,
                          n, s, s > 0 ? (double) n / s : 0.0, ttv_state_tracker_get_n_checkpoints (tracker),
                          ttv_state_tracker_get_interval (tracker), ttv_state_tracker_get_checkpoint_memory (tracker));
  append_latency (out, "state_at", us);
  g_string_append (out, "}\n");
  return 0;
}

int
main (int argc, char **argv)
{
  setlocale (LC_ALL, "");
  g_autoptr (GOptionContext) oc = g_option_context_new ("read|seek|state TRACE… — measure libttv");
  g_option_context_add_main_entries (oc, entries, NULL);
  g_option_context_set_description (oc,
    "read   full merged read of the traceset (events/s); --decode decodes fields too;\n"
    "       --babeltrace times `babeltrace2 -o dummy` on the same trace in the same run\n"
    "seek   seek_time latency at random times (median, p99)\n"
    "state  state computation with checkpoints (events/s) and state_at latency\n");
  g_autoptr (GError) error = NULL;
  if (!g_option_context_parse (oc, &argc, &argv, &error))
    {
      g_printerr ("ttv-bench: %s\n", error->message);
      return 2;
    }
  if (argc < 3)
    {
      g_printerr ("ttv-bench: expected a subcommand and at least one trace (try --help)\n");
      return 2;
    }
  g_autoptr (GString) out = g_string_new (NULL);
  opt_after_read = !opt_cold;
  int status;
  if (g_str_equal (argv[1], "read"))
    status = bench_read (argv + 2, out, &error);
  else if (g_str_equal (argv[1], "seek"))
    status = bench_seek (argv + 2, out, &error);
  else if (g_str_equal (argv[1], "state"))
    status = bench_state (argv + 2, out, &error);
  else
    {
      g_printerr ("ttv-bench: unknown subcommand “%s” (read, seek, state)\n", argv[1]);
      return 2;
    }
  if (status)
    {
      g_printerr ("ttv-bench: %s\n", error ? error->message : "failed");
      return status;
    }
  fputs (out->str, stdout);
  return 0;
}
