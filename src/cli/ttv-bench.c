/* ttv-bench.c: measured figures of libttv, one JSON object per line.
 * Each subcommand times one thing users wait for: reading, seeking, state,
 * the state history, filtering. */
#include "ttv-config.h"

#include "ttv-bench-chunked-read.h"
#include "ttv-bench-cpu.h"
#include "ttv-context.h"
#include "ttv-kernel-analyses.h"
#include "ttv-filter.h"
#include "ttv-locale.h"
#include "ttv-mapping-guard.h"
#include "ttv-window-io.h"
#include "ttv-process-memory.h"
#include "ttv-history.h"
#include "ttv-state-tracker.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>

/* --threads not given: text times 2, read reads on one thread only. */
#define THREADS_NOT_GIVEN G_MININT64
#define TEXT_THREADS_DEFAULT 2

static gint64 opt_samples = 1000;
static char *opt_analysis;
static gboolean opt_decode;
static gboolean opt_babeltrace;
static gint64 opt_repeat = 3;
static char *opt_format;
static guint64 opt_seed = 1;
static gboolean opt_after_read = TRUE;
static gboolean opt_cold;
static gint64 opt_threads = THREADS_NOT_GIVEN;

static const GOptionEntry entries[] = {
  { "samples", 0, 0, G_OPTION_ARG_INT64, &opt_samples, "Random samples for latency figures (default 1000)", "N" },
  { "decode", 0, 0, G_OPTION_ARG_NONE, &opt_decode, "read: also decode every event's fields", NULL },
  { "babeltrace", 0, 0, G_OPTION_ARG_NONE, &opt_babeltrace, "read, text, filter-payload: time babeltrace2 doing the same work on the same trace and report the ratio", NULL },
  { "repeat", 0, 0, G_OPTION_ARG_INT64, &opt_repeat, "open, read, state-pass, filter-payload, analysis: best of N measured runs (default 3)", "N" },
  { "format", 0, 0, G_OPTION_ARG_STRING, &opt_format, "text: babeltrace (default), jsonl or text", "FORMAT" },
  { "threads", 0, 0, G_OPTION_ARG_INT64, &opt_threads, "text: also time ttv-report --threads N (default 2); read: also read on N threads, by slices of time (the targets stay on one thread)", "N" },
  { "seed", 0, 0, G_OPTION_ARG_INT64, &opt_seed, "Random seed for sampled times", "N" },
  { "cold", 0, 0, G_OPTION_ARG_NONE, &opt_cold, "seek: without the first full read (no in-block index yet)", NULL },
  { "analysis", 0, 0, G_OPTION_ARG_STRING, &opt_analysis, "analysis: these analyses only, separated by commas (default: each, then all together)", "LIST" },
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

/* Closes a line print_json_head opened, after its figures: with the way
 * its reads took the bytes (mapped or copied, as the first window read of
 * the process measured: ttv-window-io.h), since on some machines one
 * costs several times the other. */
static void
print_json_tail (GString *out)
{
  /* Where two programs were compared, the CPU both ran on. */
  if (ttv_bench_cpu_pinned () >= 0)
    g_string_append_printf (out, ",\"pinned_cpu\":%d", ttv_bench_cpu_pinned ());
  g_string_append_printf (out, ",\"window_io\":\"%s\"}\n", ttv_window_io_name (ttv_window_io_get ()));
}

/* Resident memory of this process now, in KiB (0 if unknown). */
static guint64
rss_kib (void)
{
  return (guint64) MAX (ttv_process_status_kib ("VmRSS:"), 0);
}

/* CPU seconds of the process (every thread): less noisy than wall time
 * on a busy machine. */
static double
process_cpu_seconds (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

/* Resets the peak resident memory to the current one (Linux). */
static gboolean
reset_peak_rss (void)
{
  FILE *f = fopen ("/proc/self/clear_refs", "w");
  if (f == NULL)
    return FALSE;
  gboolean ok = fputs ("5", f) >= 0;
  return fclose (f) == 0 && ok;
}

/* Peak resident memory of this process in KiB since the last reset. */
static guint64
peak_rss_kib (void)
{
  return (guint64) MAX (ttv_process_status_kib ("VmHWM:"), 0);
}

typedef struct {
  double wall, cpu;       /* seconds */
  guint64 events;
  guint64 peak_rss_kib;   /* of the whole process (or child) */
} Measure;

/* A full merged read; with --decode every field of every event is decoded
 * into values (the contexts too, where the format has them: what
 * babeltrace2 decodes). */
static gboolean
measure_read (TtvTraceset *ts, gboolean decode, Measure *m, GError **error)
{
  g_autoptr (TtvContext) ctx = ttv_context_new (ts, error);
  if (ctx == NULL || !ttv_context_seek_begin (ctx, error))
    return FALSE;
  g_autoptr (TtvDecoder) decoder = ttv_decoder_new ();
  gint64 t0 = g_get_monotonic_time ();
  double c0 = process_cpu_seconds ();
  guint64 n = 0;
  const TtvEvent *ev;
  GError *local = NULL;
  gint32 scopes[TTV_EVENT_N_CONTEXTS];
  while ((ev = ttv_context_next (ctx, &local)) != NULL)
    {
      /* Resets the decoder itself. */
      if (decode)
        ttv_event_decode_contexts (ev, decoder, scopes, NULL);
      n++;
    }
  m->cpu = process_cpu_seconds () - c0;
  m->wall = (double) (g_get_monotonic_time () - t0) / 1e6;
  m->events = n;
  if (local)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  return TRUE;
}

/* Seconds of a full merged read; also counts events. */
static double
time_read (TtvTraceset *ts, guint64 *n_events, GError **error)
{
  Measure m;
  if (!measure_read (ts, opt_decode, &m, error))
    return -1;
  *n_events = m.events;
  return m.wall;
}

/* Keeps in @best the run with the least CPU time. */
static void
keep_best (Measure *best, const Measure *m, gint64 run)
{
  if (run == 0 || m->cpu < best->cpu)
    *best = *m;
}

/* Runs @argv with its output discarded (@setup, unless NULL, run in the
 * child before it starts): wall and CPU seconds and peak memory of the
 * child.  FALSE when it cannot run or fails. */
static gboolean
measure_command_setup (char **argv, GSpawnChildSetupFunc setup, Measure *m)
{
  GPid pid;
  gint out = -1;
  gint64 t0 = g_get_monotonic_time ();
  if (!g_spawn_async_with_pipes (NULL, argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD
                                 | G_SPAWN_STDERR_TO_DEV_NULL | G_SPAWN_STDOUT_TO_DEV_NULL,
                                 setup, NULL, &pid, NULL, &out, NULL, NULL))
    return FALSE;
  int status;
  struct rusage ru;
  pid_t r;
  while ((r = wait4 (pid, &status, 0, &ru)) < 0 && errno == EINTR)
    ;
  m->wall = (double) (g_get_monotonic_time () - t0) / 1e6;
  g_spawn_close_pid (pid);
  if (r < 0 || !WIFEXITED (status) || WEXITSTATUS (status) != 0)
    return FALSE;
  m->cpu = (double) ru.ru_utime.tv_sec + (double) ru.ru_utime.tv_usec / 1e6
           + (double) ru.ru_stime.tv_sec + (double) ru.ru_stime.tv_usec / 1e6;
  m->peak_rss_kib = (guint64) ru.ru_maxrss;
  return TRUE;
}

/* measure_command_setup where the child runs where this process runs. */
static gboolean
measure_command (char **argv, Measure *m)
{
  return measure_command_setup (argv, NULL, m);
}

/* babeltrace2's runs, of which the one with the least CPU time counts, as
 * ours do (--repeat): a single run's CPU time varied by 40 % from one
 * bench to the next on these machines.  At least this many, whatever
 * --repeat says. */
#define BABELTRACE_RUNS 3

/* babeltrace2 timed in turns with ours: one of its runs after each of
 * ours (measure_best, measure_commands_in_turns), so that a machine whose
 * speed drifts over seconds (a host shared with others: babeltrace2's
 * best of three took 1.15 s, then 1.33 s on the same trace, two bench
 * runs three minutes apart) slows both alike.
 * @ok FALSE once a run failed (babeltrace2 missing): no ratio then. */
typedef struct {
  GPtrArray *argv;        /* owned, NULL-terminated; NULL: not run */
  Measure best;           /* the run with the least CPU time, the highest peak memory */
  gboolean ok;
} BabeltraceTurns;

/* babeltrace2 on @paths with @args before them (NULL-terminated), to be
 * run in turns; with @run FALSE (no --babeltrace), nothing is run. */
static void
babeltrace_turns_init (BabeltraceTurns *bt, gboolean run, char **paths, const char *const *args)
{
  *bt = (BabeltraceTurns) { NULL, { 0 }, run };
  if (!run)
    return;
  ttv_bench_cpu_pin ();
  bt->argv = g_ptr_array_new ();
  g_ptr_array_add (bt->argv, "babeltrace2");
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (bt->argv, (gpointer) args[i]);
  for (guint i = 0; paths[i]; i++)
    g_ptr_array_add (bt->argv, paths[i]);
  g_ptr_array_add (bt->argv, NULL);
}

static void
babeltrace_turns_clear (BabeltraceTurns *bt)
{
  g_clear_pointer (&bt->argv, g_ptr_array_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (BabeltraceTurns, babeltrace_turns_clear)

/* How many runs of each in turns: --repeat, and at least BABELTRACE_RUNS
 * when babeltrace2 runs. */
static gint64
turns (const BabeltraceTurns *bt)
{
  gint64 n = MAX (opt_repeat, 1);
  return bt && bt->argv ? MAX (n, BABELTRACE_RUNS) : n;
}

/* babeltrace2's turn @run (0 first), after one of ours. */
static void
babeltrace_turn (BabeltraceTurns *bt, gint64 run)
{
  if (bt == NULL || bt->argv == NULL || !bt->ok)
    return;
  Measure one;
  if (!measure_command ((char **) bt->argv->pdata, &one))
    {
      bt->ok = FALSE;
      return;
    }
  guint64 peak = MAX (bt->best.peak_rss_kib, one.peak_rss_kib);
  keep_best (&bt->best, &one, run);
  bt->best.peak_rss_kib = peak;
}

static void
append_measure (GString *out, const char *prefix, const Measure *m)
{
  g_string_append_printf (out, ",\"%sseconds\":%.6f,\"%scpu_seconds\":%.6f,\"%speak_rss_kib\":%" G_GUINT64_FORMAT,
                          prefix, m->wall, prefix, m->cpu, prefix, m->peak_rss_kib);
}

/* Ratios of babeltrace2's times over ours, and its figures. */
static void
append_comparison (GString *out, const char *what, const Measure *ours, const Measure *bt, gboolean ok,
                   const char *ratio_name)
{
  g_string_append_printf (out, ",\"babeltrace2_mode\":\"%s\"", what);
  if (!ok)
    {
      g_string_append (out, ",\"babeltrace2_seconds\":null");
      return;
    }
  append_measure (out, "babeltrace2_", bt);
  g_string_append_printf (out, ",\"%s\":%.2f,\"cpu_%s\":%.2f", ratio_name,
                          ours->wall > 0 ? bt->wall / ours->wall : 0.0, ratio_name,
                          ours->cpu > 0 ? bt->cpu / ours->cpu : 0.0);
}

/* One measured run of what a bench times, into @m (events, wall, cpu). */
typedef gboolean (*MeasureRun) (TtvTraceset *ts, gpointer data, Measure *m, GError **error);

/* A read first (it warms the page cache, as for a trace the user just
 * opened, with @warm_decode as its decoding), then --repeat runs of @run,
 * each followed by a run of @bt's babeltrace2 (unless NULL): the one with
 * the least CPU time in @best, with the peak memory of them all. */
static gboolean
measure_best (TtvTraceset *ts, gboolean warm_decode, MeasureRun run, gpointer data, Measure *best,
              BabeltraceTurns *bt, GError **error)
{
  Measure warm;
  if (!measure_read (ts, warm_decode, &warm, error))
    return FALSE;
  gboolean peak = reset_peak_rss ();
  for (gint64 i = 0; i < turns (bt); i++)
    {
      Measure m = { 0 };
      if (!run (ts, data, &m, error))
        return FALSE;
      keep_best (best, &m, i);
      babeltrace_turn (bt, i);
    }
  best->peak_rss_kib = peak ? peak_rss_kib () : 0;
  return TRUE;
}

/* ",\"events_per_s\":...,\"cpu_events_per_s\":..." of @m. */
static void
append_rates (GString *out, const Measure *m)
{
  g_string_append_printf (out, ",\"events_per_s\":%.0f,\"cpu_events_per_s\":%.0f",
                          m->wall > 0 ? (double) m->events / m->wall : 0.0,
                          m->cpu > 0 ? (double) m->events / m->cpu : 0.0);
}

static gboolean
run_read (TtvTraceset *ts, gpointer data, Measure *m, GError **error)
{
  return measure_read (ts, GPOINTER_TO_INT (data), m, error);
}

/* Bytes this process has read by read() and pread() so far ("rchar" of
 * /proc/self/io), -1 when unknown: what opening a trace copies from the
 * page cache or the disk, whatever the reader. */
static gint64
process_read_bytes (void)
{
  g_autofree char *text = NULL;
  if (!g_file_get_contents ("/proc/self/io", &text, NULL, NULL))
    return -1;
  const char *at = strstr (text, "rchar:");
  return at ? g_ascii_strtoll (at + 6, NULL, 10) : -1;
}

/* The traceset opened (--repeat times, the least CPU kept): its metadata,
 * every tracefile's block or packet index read or built, its first and
 * last times.  With the bytes read meanwhile against the tracefiles'
 * sizes: an open must not read a trace whole (a 10 GB trace). */
static int
bench_open (char **paths, GString *out, GError **error)
{
  Measure best = { 0 };
  gint64 read = -1;
  guint64 size = 0;
  guint n = 0;
  for (gint64 run = 0; run < MAX (opt_repeat, 1); run++)
    {
      gint64 r0 = process_read_bytes ();
      gint64 t0 = g_get_monotonic_time ();
      double c0 = process_cpu_seconds ();
      g_autoptr (TtvTraceset) ts = open_traceset (paths, error);
      Measure m = { .cpu = process_cpu_seconds () - c0, .wall = (double) (g_get_monotonic_time () - t0) / 1e6 };
      gint64 r1 = process_read_bytes ();
      if (ts == NULL)
        return 1;
      if (run == 0 || m.cpu < best.cpu)
        best = m;
      read = r0 >= 0 && r1 >= r0 ? r1 - r0 : -1;
      n = ttv_traceset_get_n_tracefiles (ts);
      size = 0;
      for (guint i = 0; i < n; i++)
        size += ttv_traceset_get_tracefile (ts, i)->size;
    }
  print_json_head (out, "open", paths);
  g_string_append_printf (out, ",\"opened\":\"metadata, each tracefile's block or packet index (read or built),"
                          " first and last times\",\"tracefiles\":%u,\"tracefile_bytes\":%" G_GUINT64_FORMAT
                          ",\"read_bytes\":%" G_GINT64_FORMAT, n, size, read);
  if (read >= 0 && size > 0)
    g_string_append_printf (out, ",\"read_percent_of_tracefiles\":%.2f", 100.0 * (double) read / (double) size);
  g_string_append_printf (out, ",\"seconds\":%.6f,\"cpu_seconds\":%.6f", best.wall, best.cpu);
  print_json_tail (out);
  return 0;
}

/* --threads, checked: 1 to 64 when given. */
static gboolean
threads_valid (GError **error)
{
  if (opt_threads == THREADS_NOT_GIVEN || (opt_threads >= 1 && opt_threads <= 64))
    return TRUE;
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "--threads: 1 to 64");
  return FALSE;
}

/* The best of --repeat reads of @ts on --threads threads, by slices of
 * its time, into @best (wall and CPU time of all threads, its events,
 * which the caller compares with the read on one thread); its slices in
 * *@slices. */
static gboolean
measure_chunked_read_best (TtvTraceset *ts, gboolean decode, Measure *best, guint *slices, GError **error)
{
  for (gint64 i = 0; i < turns (NULL); i++)
    {
      TtvBenchChunkedRead r;
      gint64 t0 = g_get_monotonic_time ();
      double c0 = process_cpu_seconds ();
      if (!ttv_bench_chunked_read (ts, (guint) opt_threads, decode, &r, error))
        return FALSE;
      Measure m = { .cpu = process_cpu_seconds () - c0, .wall = (double) (g_get_monotonic_time () - t0) / 1e6,
                    .events = r.events };
      keep_best (best, &m, i);
      *slices = r.slices;
    }
  return TRUE;
}

/* The read on several threads, after the one-thread read's figures: its
 * wall and CPU time, its events (a slice's reader must find the same),
 * the wall speedup over one thread, and babeltrace2's wall time over it
 * when it ran. */
static void
append_chunked_read (GString *out, const Measure *r, guint slices, const Measure *one, const BabeltraceTurns *bt)
{
  g_string_append_printf (out, ",\"threads\":%" G_GINT64_FORMAT ",\"threads_slices\":%u,\"threads_events\":%"
                          G_GUINT64_FORMAT ",\"threads_seconds\":%.6f,\"threads_cpu_seconds\":%.6f"
                          ",\"threads_wall_speedup\":%.2f", opt_threads, slices, r->events, r->wall, r->cpu,
                          r->wall > 0 ? one->wall / r->wall : 0.0);
  if (bt->argv && bt->ok)
    g_string_append_printf (out, ",\"threads_wall_speedup_vs_babeltrace2\":%.2f",
                            r->wall > 0 ? bt->best.wall / r->wall : 0.0);
}

static int
bench_read (char **paths, GString *out, GError **error)
{
  if (!threads_valid (error))
    return 2;
  g_autoptr (TtvTraceset) ts = open_traceset (paths, error);
  if (ts == NULL)
    return 1;
  static const char *const dummy[] = { "-o", "dummy", NULL };
  g_auto (BabeltraceTurns) bt = { 0 };
  babeltrace_turns_init (&bt, opt_babeltrace, paths, dummy);
  Measure best = { 0 };
  if (!measure_best (ts, opt_decode, run_read, GINT_TO_POINTER (opt_decode), &best, &bt, error))
    return 1;
  Measure chunked = { 0 };
  guint slices = 0;
  if (opt_threads > 1 && !measure_chunked_read_best (ts, opt_decode, &chunked, &slices, error))
    return 1;
  print_json_head (out, opt_decode ? "read_decode_all" : "read_headers", paths);
  g_string_append_printf (out, ",\"decoded\":\"%s\",\"tracefiles\":%u,\"events\":%" G_GUINT64_FORMAT,
                          opt_decode ? "every field of every event (contexts and payload)"
                                     : "event headers only (time, type, size)",
                          ttv_traceset_get_n_tracefiles (ts), best.events);
  append_measure (out, "", &best);
  append_rates (out, &best);
  g_string_append_printf (out, ",\"rss_kib_after\":%" G_GUINT64_FORMAT, rss_kib ());
  /* babeltrace2 -o dummy decodes every field: against a read of the
   * headers alone, the ratio says how much less work we do, not how much
   * faster we do the same. */
  if (opt_babeltrace)
    append_comparison (out, "babeltrace2 TRACE -o dummy (every field decoded)", &best, &bt.best, bt.ok,
                       opt_decode ? "speedup" : "headers_only_vs_full_decode");
  if (opt_threads > 1)
    append_chunked_read (out, &chunked, slices, &best, &bt);
  print_json_tail (out);
  return 0;
}

/* The path of a program built beside this one (ttv-report). */
static char *
sibling_program (const char *name)
{
  g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);
  if (self)
    {
      g_autofree char *dir = g_path_get_dirname (self);
      char *path = g_build_filename (dir, name, NULL);
      if (g_file_test (path, G_FILE_TEST_IS_EXECUTABLE))
        return path;
      g_free (path);
    }
  return g_strdup (name);
}

/* The best of --repeat runs of @a and (unless NULL) of @b, run in turns
 * after a warm-up run of each (@setup, unless NULL, run in each child
 * before it starts), and of @bt's babeltrace2 (unless NULL) after each
 * turn.  This machine's speed drifts by a third from minute to minute (a
 * host shared with others): a ratio of two bests taken minutes apart
 * measures the drift as much as the programs, two taken in turns do not. */
static gboolean
measure_commands_in_turns (char **a, char **b, GSpawnChildSetupFunc setup, Measure *best_a, Measure *best_b,
                           BabeltraceTurns *bt)
{
  Measure warm;
  if (!measure_command_setup (a, setup, &warm) || (b && !measure_command_setup (b, setup, &warm)))
    return FALSE;
  for (gint64 i = 0; i < turns (bt); i++)
    {
      Measure ma = { 0 }, mb = { 0 };
      if (!measure_command_setup (a, setup, &ma) || (b && !measure_command_setup (b, setup, &mb)))
        return FALSE;
      keep_best (best_a, &ma, i);
      if (b)
        keep_best (best_b, &mb, i);
      babeltrace_turn (bt, i);
    }
  return TRUE;
}

/* The best of --repeat runs of @argv (after one warm-up run), free to run
 * on every CPU the bench could (a run on several threads). */
static gboolean
measure_command_best_all_cpus (char **argv, Measure *best)
{
  return measure_commands_in_turns (argv, NULL, ttv_bench_cpu_unpin_self, best, NULL, NULL);
}

/* The text bench times ttv-report, another process, which would choose
 * on its own how its windows read (ttv-window-io.h): the way is chosen
 * here, by a read of the headers (which warms the page cache too), and
 * handed to every run by TTV_WINDOW_IO, so that the line's window_io is
 * theirs. */
static gboolean
window_io_for_children (char **paths, GError **error)
{
  g_autoptr (TtvTraceset) ts = open_traceset (paths, error);
  Measure m;
  if (ts == NULL || !measure_read (ts, FALSE, &m, error))
    return FALSE;
  TtvWindowIo io = ttv_window_io_get ();
  if (io != TTV_WINDOW_IO_UNDECIDED)
    g_setenv ("TTV_WINDOW_IO", ttv_window_io_name (io), TRUE);
  return TRUE;
}

/* ttv-report --format=FORMAT TRACE > /dev/null, the program as users run
 * it, on one thread (the targets' figures) and on --threads N (issue 15:
 * wall and CPU time of both), against babeltrace2 --clock-gmt TRACE >
 * /dev/null (the same text).  A format but babeltrace's is timed in turns
 * with ttv-report --format=babeltrace (the jsonl target is a ratio to
 * it). */
static int
bench_text (char **paths, GString *out, GError **error)
{
  const char *format = opt_format ? opt_format : "babeltrace";
  if (!g_str_equal (format, "babeltrace") && !g_str_equal (format, "jsonl") && !g_str_equal (format, "text"))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "--format: babeltrace, jsonl or text");
      return 2;
    }
  if (!threads_valid (error))
    return 2;
  if (opt_threads == THREADS_NOT_GIVEN)
    opt_threads = TEXT_THREADS_DEFAULT;
  if (!window_io_for_children (paths, error))
    return 1;
  g_autofree char *report = sibling_program ("ttv-report");
  g_autofree char *format_arg = g_strconcat ("--format=", format, NULL);
  g_autofree char *threads_arg = g_strdup ("--threads=1");
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_ptr_array_add (argv, report);
  g_ptr_array_add (argv, format_arg);
  g_ptr_array_add (argv, threads_arg);
  for (guint i = 0; paths[i]; i++)
    g_ptr_array_add (argv, paths[i]);
  g_ptr_array_add (argv, NULL);
  static const char *const clock_gmt[] = { "--clock-gmt", NULL };
  g_auto (BabeltraceTurns) bt = { 0 };
  babeltrace_turns_init (&bt, opt_babeltrace, paths, clock_gmt);
  Measure best = { 0 }, threaded = { 0 }, bt_text = { 0 };
  gboolean against_text = !g_str_equal (format, "babeltrace");
  if (against_text)
    ttv_bench_cpu_pin ();
  g_autoptr (GPtrArray) text_argv = NULL;
  if (against_text)
    {
      text_argv = g_ptr_array_copy (argv, NULL, NULL);
      text_argv->pdata[1] = "--format=babeltrace";
    }
  gboolean measured = measure_commands_in_turns ((char **) argv->pdata,
                                                 text_argv ? (char **) text_argv->pdata : NULL, NULL, &best,
                                                 &bt_text, &bt);
  if (!measured)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s failed", report);
      return 1;
    }
  g_free (argv->pdata[2]);
  argv->pdata[2] = threads_arg = g_strdup_printf ("--threads=%" G_GINT64_FORMAT, opt_threads);
  if (!measure_command_best_all_cpus ((char **) argv->pdata, &threaded))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s %s failed", report, threads_arg);
      return 1;
    }
  g_autofree char *bench = g_strconcat ("text_", g_str_equal (format, "text") ? "plain" : format, NULL);
  print_json_head (out, bench, paths);
  g_string_append_printf (out, ",\"command\":\"ttv-report --format=%s --threads=1 TRACE > /dev/null\"", format);
  append_measure (out, "", &best);
  g_string_append_printf (out, ",\"threads\":%" G_GINT64_FORMAT, opt_threads);
  append_measure (out, "threads_", &threaded);
  g_string_append_printf (out, ",\"threads_wall_speedup\":%.2f",
                          threaded.wall > 0 ? best.wall / threaded.wall : 0.0);
  if (against_text)
    {
      /* Ours over the babeltrace text's, taken in turns. */
      append_measure (out, "babeltrace_text_", &bt_text);
      g_string_append_printf (out, ",\"vs_babeltrace_text\":%.3f,\"cpu_vs_babeltrace_text\":%.3f",
                              bt_text.wall > 0 ? best.wall / bt_text.wall : 0.0,
                              bt_text.cpu > 0 ? best.cpu / bt_text.cpu : 0.0);
    }
  if (opt_babeltrace)
    append_comparison (out, "babeltrace2 --clock-gmt TRACE > /dev/null (the same text)", &best, &bt.best, bt.ok,
                       "speedup");
  print_json_tail (out);
  return 0;
}

static double thread_cpu_us (void);

/* CPU seconds of a full merged read that evaluates @filter on every event,
 * or (@filter NULL) of the same loop without it; with @tracker, the state
 * is tracked at every event first (what state.* terms need).  CPU time of
 * this thread rather than wall time: the machine is shared. */
static double
time_filtered_read (TtvTraceset *ts, TtvFilter *filter, TtvStateTracker *tracker, guint64 *n_events,
                    guint64 *n_matched, GError **error)
{
  g_autoptr (TtvContext) ctx = ttv_context_new (ts, error);
  if (ctx == NULL || !ttv_context_seek_begin (ctx, error))
    return -1;
  if (tracker)
    ttv_state_tracker_reset (tracker);
  double t0 = thread_cpu_us ();
  guint64 n = 0, m = 0;
  const TtvEvent *ev;
  GError *local = NULL;
  if (tracker)
    {
      const TtvState *state = ttv_state_tracker_get_state (tracker);
      while ((ev = ttv_context_next (ctx, &local)) != NULL)
        {
          n++;
          ttv_state_tracker_apply (tracker, NULL, ttv_traceset_get_stream_trace (ts, ttv_context_get_stream (ctx)), ev);
          if (filter)
            m += ttv_filter_matches (filter, ev, state);
        }
    }
  else if (filter)
    while ((ev = ttv_context_next (ctx, &local)) != NULL)
      {
        n++;
        m += ttv_filter_matches (filter, ev, NULL);
      }
  else
    while ((ev = ttv_context_next (ctx, &local)) != NULL)
      n++;
  double s = (thread_cpu_us () - t0) / 1e6;
  if (local)
    {
      g_propagate_error (error, local);
      return -1;
    }
  *n_events = n;
  *n_matched = m;
  return s;
}

/* The traceset of @paths and the filter of TTV_BENCH_FILTER (which
 * replaces @default_expr, to compare filters); *@expr gets its text. */
static gboolean
open_filter_bench (char **paths, const char *default_expr, TtvTraceset **ts, TtvFilter **filter,
                   const char **expr, GError **error)
{
  *expr = g_getenv ("TTV_BENCH_FILTER");
  if (*expr == NULL)
    *expr = default_expr;
  *ts = open_traceset (paths, error);
  if (*ts == NULL)
    return FALSE;
  *filter = ttv_filter_new (*expr, NULL, error);
  return *filter != NULL;
}

/* The cost of filtering (issue 8: at most 20% over the plain read): best
 * of seven plain reads against best of seven filtered reads, interleaved.
 * A filter with state.* terms needs the state at every event: the read
 * with the state tracker alone is then timed too, and the filter's cost is
 * given over both (the state is what most of it is). */
static int
bench_filter (char **paths, GString *out, GError **error)
{
  const char *expr;
  g_autoptr (TtvTraceset) ts = NULL;
  g_autoptr (TtvFilter) filter = NULL;
  if (!open_filter_bench (paths, "cpu != 3 & (event.field.ret < 0 | event.name = \"sched_*\")", &ts, &filter,
                          &expr, error))
    return 1;
  gboolean with_state = ttv_filter_needs_state (filter);
  g_autoptr (TtvStateTracker) tracker = with_state ? ttv_state_tracker_new (ts, NULL) : NULL;
  guint64 n = 0, m = 0, unused;
  if (time_read (ts, &n, error) < 0)
    return 1;
  double plain = G_MAXDOUBLE, state_read = G_MAXDOUBLE, filtered = G_MAXDOUBLE;
  for (guint i = 0; i < 7; i++)
    {
      double a = time_filtered_read (ts, NULL, NULL, &n, &unused, error);
      double b = a < 0 || !with_state ? a : time_filtered_read (ts, NULL, tracker, &n, &unused, error);
      double c = b < 0 ? -1 : time_filtered_read (ts, filter, tracker, &n, &m, error);
      if (a < 0 || b < 0 || c < 0)
        return 1;
      plain = MIN (plain, a);
      state_read = MIN (state_read, b);
      filtered = MIN (filtered, c);
    }
  g_autofree char *escaped = g_strescape (expr, NULL);
  print_json_head (out, with_state ? "filter+state" : "filter", paths);
  g_string_append_printf (out, ",\"filter\":\"%s\",\"events\":%" G_GUINT64_FORMAT ",\"matched\":%" G_GUINT64_FORMAT
                          ",\"read_seconds\":%.6f", escaped, n, m, plain);
  if (with_state)
    g_string_append_printf (out, ",\"state_read_seconds\":%.6f,\"filtered_seconds\":%.6f"
                            ",\"overhead_over_state_read_percent\":%.1f",
                            state_read, filtered, state_read > 0 ? (filtered / state_read - 1) * 100 : 0.0);
  else
    g_string_append_printf (out, ",\"filtered_seconds\":%.6f", filtered);
  g_string_append_printf (out, ",\"overhead_percent\":%.1f", plain > 0 ? (filtered / plain - 1) * 100 : 0.0);
  print_json_tail (out);
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
  gboolean peak = reset_peak_rss ();
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
  g_string_append_printf (out, ",\"samples\":%" G_GINT64_FORMAT ",\"peak_rss_kib\":%" G_GUINT64_FORMAT,
                          opt_samples, peak ? peak_rss_kib () : 0);
  append_latency (out, "seek", us);
  append_latency (out, "seek_cpu", cpu_us);
  print_json_tail (out);
  return 0;
}

/* The state alone over the whole traceset (no statistics, no checkpoints):
 * events, wall and CPU seconds. */
static gboolean
time_state_alone (TtvTraceset *ts, guint64 *n, double *wall, double *cpu, GError **error)
{
  g_autoptr (TtvStateTracker) plain = ttv_state_tracker_new (ts, NULL);
  g_autoptr (TtvContext) ctx = ttv_context_new (ts, error);
  if (ctx == NULL || !ttv_context_seek_begin (ctx, error))
    return FALSE;
  gint64 t0 = g_get_monotonic_time ();
  double c0 = process_cpu_seconds ();
  GError *local = NULL;
  *n = ttv_state_tracker_run (plain, ctx, TTV_TIME_MAX, NULL, &local);
  *wall = (double) (g_get_monotonic_time () - t0) / 1e6;
  *cpu = process_cpu_seconds () - c0;
  if (local)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  return TRUE;
}

/* Wall-clock latencies (µs) of the state at random times. */
static GArray *
state_at_latencies (TtvStateTracker *tracker, TtvTraceset *ts, GError **error)
{
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
        return NULL;
      double d = (double) (g_get_monotonic_time () - t1);
      ttv_state_free (state);
      g_array_append_val (us, d);
    }
  return g_steal_pointer (&us);
}

static int
bench_state (char **paths, GString *out, GError **error)
{
  g_autoptr (TtvTraceset) ts = open_traceset (paths, error);
  if (ts == NULL)
    return 1;
  /* The state alone first (no statistics, no checkpoints), then the full
   * background pass that also gathers statistics and checkpoints. */
  guint64 n_plain;
  double plain_s, plain_cpu;
  if (!time_state_alone (ts, &n_plain, &plain_s, &plain_cpu, error))
    return 1;

  g_autoptr (TtvStateTracker) tracker = ttv_state_tracker_new (ts, NULL);
  gint64 t0 = g_get_monotonic_time ();
  if (!ttv_state_tracker_build (tracker, NULL, NULL, NULL, error))
    return 1;
  double s = (double) (g_get_monotonic_time () - t0) / 1e6;
  guint64 n = ttv_state_get_n_events (ttv_state_tracker_get_state (tracker));

  g_autoptr (GArray) us = state_at_latencies (tracker, ts, error);
  if (us == NULL)
    return 1;

  /* As the viewer keeps them: the checkpoints' states in a file, one every
   * 50000 events, at most 16 MiB of memory. */
  g_autofree char *spill_dir = g_dir_make_tmp ("ttv-bench-checkpoints-XXXXXX", error);
  if (spill_dir == NULL)
    return 1;
  TtvCheckpointPolicy spill_policy = { 50000, 16u << 20, spill_dir, 0 };
  g_autoptr (TtvStateTracker) spilled = ttv_state_tracker_new (ts, &spill_policy);
  gint64 t2 = g_get_monotonic_time ();
  if (!ttv_state_tracker_build (spilled, NULL, NULL, NULL, error))
    return 1;
  double spill_s = (double) (g_get_monotonic_time () - t2) / 1e6;
  g_autoptr (GArray) spill_us = state_at_latencies (spilled, ts, error);
  g_remove (spill_dir);
  if (spill_us == NULL)
    return 1;

  print_json_head (out, "state", paths);
  g_string_append_printf (out, ",\"state_only_events_per_s\":%.0f", plain_s > 0 ? (double) n_plain / plain_s : 0.0);
  g_string_append_printf (out, ",\"events\":%" G_GUINT64_FORMAT ",\"seconds\":%.6f,\"events_per_s\":%.0f"
                          ",\"checkpoints\":%u,\"checkpoint_interval\":%" G_GUINT64_FORMAT ",\"checkpoint_bytes\":%" G_GSIZE_FORMAT,
                          n, s, s > 0 ? (double) n / s : 0.0, ttv_state_tracker_get_n_checkpoints (tracker),
                          ttv_state_tracker_get_interval (tracker), ttv_state_tracker_get_checkpoint_memory (tracker));
  append_latency (out, "state_at", us);
  g_string_append_printf (out, ",\"spill_seconds\":%.6f,\"spill_checkpoints\":%u,\"spill_checkpoint_interval\":%"
                          G_GUINT64_FORMAT ",\"spill_checkpoint_bytes\":%" G_GSIZE_FORMAT
                          ",\"spill_file_bytes\":%" G_GUINT64_FORMAT,
                          spill_s, ttv_state_tracker_get_n_checkpoints (spilled),
                          ttv_state_tracker_get_interval (spilled), ttv_state_tracker_get_checkpoint_memory (spilled),
                          ttv_state_tracker_get_checkpoint_spill (spilled));
  append_latency (out, "spill_state_at", spill_us);
  print_json_tail (out);
  return 0;
}

typedef struct {
  double wall, cpu;
  gint64 peak_growth_kib;  /* -1: unknown */
} Timing;

/* Builds the history of @ts with @opt and $TTV_HISTORY_THREADS @threads
 * (NULL: the default), timing it. */
static TtvHistory *
timed_history (TtvTraceset *ts, const TtvHistoryOptions *opt, const char *threads, Timing *t,
               GError **error)
{
  if (threads)
    g_setenv ("TTV_HISTORY_THREADS", threads, TRUE);
  gboolean peak = reset_peak_rss ();
  gint64 rss0 = ttv_process_status_kib ("VmRSS:");
  gint64 t0 = g_get_monotonic_time ();
  double c0 = process_cpu_seconds ();
  TtvHistory *h = ttv_history_build (ts, opt, NULL, NULL, NULL, error);
  t->wall = (double) (g_get_monotonic_time () - t0) / 1e6;
  t->cpu = process_cpu_seconds () - c0;
  t->peak_growth_kib = peak ? ttv_process_status_kib ("VmHWM:") - rss0 : -1;
  if (threads)
    g_unsetenv ("TTV_HISTORY_THREADS");
  return h;
}

/* The state history: the background pass that builds it (as the viewer
 * does: written to its cache file, two threads when there are two cores;
 * and in one thread) against the state alone and the state pass, wall and
 * CPU time; the memory the build holds and the history's size per
 * million events; reusing the cache file; query_pixels at W=1920 over the
 * whole trace and a 1 ms window (busiest rows). */
static int
bench_history (char **paths, GString *out, GError **error)
{
  g_autoptr (TtvTraceset) ts = open_traceset (paths, error);
  if (ts == NULL)
    return 1;
  /* The state alone, as ttv-bench state measures it (the reference of
   * issue 6's "background pass throughput"), then the state pass. */
  guint64 n;
  double state_s, state_cpu;
  if (!time_state_alone (ts, &n, &state_s, &state_cpu, error))
    return 1;

  g_autofree char *cache_dir = g_dir_make_tmp ("ttv-bench-history-XXXXXX", error);
  if (cache_dir == NULL)
    return 1;
  TtvHistoryOptions copt = { 0, FALSE, cache_dir, G_MAXUINT64 };
  Timing built, one, reuse;
  g_autoptr (TtvHistory) h = timed_history (ts, &copt, NULL, &built, error);
  if (h == NULL)
    return 1;
  gboolean cached = ttv_history_get_cache_path (h) != NULL;
  g_autoptr (TtvHistory) hr = timed_history (ts, &copt, NULL, &reuse, error);
  if (hr == NULL)
    return 1;
  gboolean reused = ttv_history_is_from_cache (hr);
  g_clear_pointer (&hr, ttv_history_free);
  TtvHistoryOptions nopt = { 0, TRUE, NULL, 0 };
  g_autoptr (TtvHistory) h1 = timed_history (ts, &nopt, "1", &one, error);
  if (h1 == NULL)
    return 1;
  g_clear_pointer (&h1, ttv_history_free);

  /* query_pixels: every row of a 1080-pixel-high view is at most ~50 rows;
   * time all CPU rows and the 50 busiest process rows. */
  TtvTime start = ttv_traceset_get_start (ts), end = ttv_traceset_get_end (ts);
  guint n_proc = ttv_history_get_n_rows (h, TTV_HISTORY_ROW_PROCESS);
  g_autoptr (GArray) busy = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint i = 0; i < n_proc; i++)
    g_array_append_val (busy, i);
  for (guint i = 0; i < busy->len && i < 50; i++)
    for (guint j = i + 1; j < busy->len; j++)
      {
        guint a = g_array_index (busy, guint, i), b = g_array_index (busy, guint, j);
        if (ttv_history_get_row (h, TTV_HISTORY_ROW_PROCESS, b)->n_intervals
            > ttv_history_get_row (h, TTV_HISTORY_ROW_PROCESS, a)->n_intervals)
          {
            g_array_index (busy, guint, i) = b;
            g_array_index (busy, guint, j) = a;
          }
      }
  g_array_set_size (busy, MIN (busy->len, 50));
  enum { W = 1920 };
  g_autofree TtvHistoryPixel *px = g_new (TtvHistoryPixel, W);
  double per_row_us[2] = { 0, 0 };
  double frame_ms[2] = { 0, 0 };
  guint64 cells[2] = { 0, 0 };
  TtvTime mid = start + (end - start) / 2;
  for (int zoom = 0; zoom < 2; zoom++)
    {
      TtvTime a = zoom ? mid : start, b = zoom ? mid + 1000000 : end;
      guint rows = 0;
      gint64 q0 = g_get_monotonic_time ();
      for (guint rep = 0; rep < 5; rep++)
        {
          for (guint c = 0; c < ttv_history_get_n_rows (h, TTV_HISTORY_ROW_CPU); c++, rows++)
            cells[zoom] += ttv_history_query_pixels (h, TTV_HISTORY_ROW_CPU, c, a, b, W, px);
          for (guint i = 0; i < busy->len; i++, rows++)
            cells[zoom] += ttv_history_query_pixels (h, TTV_HISTORY_ROW_PROCESS,
                                                           g_array_index (busy, guint, i), a, b, W, px);
        }
      double us = (double) (g_get_monotonic_time () - q0);
      per_row_us[zoom] = rows ? us / rows : 0;
      frame_ms[zoom] = us / 5 / 1000;
      cells[zoom] /= MAX (rows, 1);
    }

  gsize data = ttv_history_get_data_size (h);
  if (ttv_history_get_cache_path (h))
    g_remove (ttv_history_get_cache_path (h));
  g_remove (cache_dir);
  double state_rate = state_s > 0 ? n / state_s : 0.0;
  print_json_head (out, "history", paths);
  g_string_append_printf (out, ",\"events\":%" G_GUINT64_FORMAT ",\"threads\":%u"
                          ",\"state_seconds\":%.3f,\"state_events_per_s\":%.0f,\"state_cpu_seconds\":%.3f"
                          ",\"history_seconds\":%.3f,\"history_events_per_s\":%.0f,\"history_cpu_seconds\":%.3f"
                          ",\"speed_vs_state\":%.3f,\"cpu_vs_state\":%.2f"
                          ",\"history_1thread_seconds\":%.3f,\"history_1thread_cpu_seconds\":%.3f"
                          ",\"speed_1thread_vs_state\":%.3f",
                          n, MIN (g_get_num_processors (), 2), state_s, state_rate, state_cpu,
                          built.wall, built.wall > 0 ? n / built.wall : 0.0, built.cpu,
                          built.wall > 0 ? state_s / built.wall : 0.0, state_cpu > 0 ? built.cpu / state_cpu : 0.0,
                          one.wall, one.cpu, one.wall > 0 ? state_s / one.wall : 0.0);
  g_string_append_printf (out, ",\"rows\":{\"process\":%u,\"cpu\":%u,\"irq\":%u,\"softirq\":%u,\"blockdev\":%u}"
                          ",\"history_bytes\":%" G_GSIZE_FORMAT ",\"bytes_per_million_events\":%.0f"
                          ",\"heap_bytes\":%" G_GSIZE_FORMAT ",\"heap_bytes_per_million_events\":%.0f"
                          ",\"build_peak_rss_growth_kib\":%" G_GINT64_FORMAT
                          ",\"cached\":%s,\"cache_reuse_seconds\":%.3f,\"cache_reused\":%s"
                          ",\"reuse_peak_rss_growth_kib\":%" G_GINT64_FORMAT,
                          n_proc, ttv_history_get_n_rows (h, TTV_HISTORY_ROW_CPU),
                          ttv_history_get_n_rows (h, TTV_HISTORY_ROW_IRQ),
                          ttv_history_get_n_rows (h, TTV_HISTORY_ROW_SOFTIRQ),
                          ttv_history_get_n_rows (h, TTV_HISTORY_ROW_BLOCKDEV),
                          data, n ? (double) data * 1e6 / (double) n : 0.0, ttv_history_get_memory (h),
                          n ? (double) ttv_history_get_memory (h) * 1e6 / (double) n : 0.0,
                          built.peak_growth_kib, cached ? "true" : "false", reuse.wall,
                          reused ? "true" : "false", reuse.peak_growth_kib);
  g_string_append_printf (out, ",\"pixels_width\":%d,\"view_rows\":%u"
                          ",\"whole_us_per_row\":%.1f,\"whole_ms_per_view\":%.2f,\"whole_cells_per_row\":%" G_GUINT64_FORMAT
                          ",\"ms1_us_per_row\":%.1f,\"ms1_ms_per_view\":%.2f,\"ms1_cells_per_row\":%" G_GUINT64_FORMAT,
                          W, ttv_history_get_n_rows (h, TTV_HISTORY_ROW_CPU) + busy->len,
                          per_row_us[0], frame_ms[0], cells[0], per_row_us[1], frame_ms[1], cells[1]);
  print_json_tail (out);
  return 0;
}

static gboolean
run_state_alone (TtvTraceset *ts, gpointer data, Measure *m, GError **error)
{
  return time_state_alone (ts, &m->events, &m->wall, &m->cpu, error);
}

/* The state of the kernel model alone over the whole traceset (no
 * statistics, no checkpoints): the pass every state-dependent view waits for. */
static int
bench_state_pass (char **paths, GString *out, GError **error)
{
  g_autoptr (TtvTraceset) ts = open_traceset (paths, error);
  if (ts == NULL)
    return 1;
  Measure best = { 0 };
  if (!measure_best (ts, FALSE, run_state_alone, NULL, &best, NULL, error))
    return 1;
  print_json_head (out, "state_pass", paths);
  g_string_append_printf (out, ",\"events\":%" G_GUINT64_FORMAT, best.events);
  append_measure (out, "", &best);
  append_rates (out, &best);
  print_json_tail (out);
  return 0;
}

typedef struct {
  TtvFilter *filter;
  guint64 matched;
} FilterRun;

static gboolean
run_filtered_read (TtvTraceset *ts, gpointer data, Measure *m, GError **error)
{
  FilterRun *fr = data;
  gint64 t0 = g_get_monotonic_time ();
  double c0 = process_cpu_seconds ();
  if (time_filtered_read (ts, fr->filter, NULL, &m->events, &fr->matched, error) < 0)
    return FALSE;
  m->cpu = process_cpu_seconds () - c0;
  m->wall = (double) (g_get_monotonic_time () - t0) / 1e6;
  return TRUE;
}

/* A read that tests a filter on a payload field at every event (the
 * field decoded where the filter needs it), against babeltrace2 -o dummy,
 * which decodes every field. */
static int
bench_filter_payload (char **paths, GString *out, GError **error)
{
  const char *expr;
  g_autoptr (TtvTraceset) ts = NULL;
  g_autoptr (TtvFilter) filter = NULL;
  if (!open_filter_bench (paths, "event.field.fd = 3", &ts, &filter, &expr, error))
    return 1;
  static const char *const dummy[] = { "-o", "dummy", NULL };
  g_auto (BabeltraceTurns) bt = { 0 };
  babeltrace_turns_init (&bt, opt_babeltrace, paths, dummy);
  Measure best = { 0 };
  FilterRun fr = { filter, 0 };
  if (!measure_best (ts, FALSE, run_filtered_read, &fr, &best, &bt, error))
    return 1;
  guint64 matched = fr.matched;
  g_autofree char *escaped = g_strescape (expr, NULL);
  print_json_head (out, "filter_payload", paths);
  g_string_append_printf (out, ",\"filter\":\"%s\",\"events\":%" G_GUINT64_FORMAT ",\"matched\":%" G_GUINT64_FORMAT,
                          escaped, best.events, matched);
  append_measure (out, "", &best);
  append_rates (out, &best);
  if (opt_babeltrace)
    append_comparison (out, "babeltrace2 TRACE -o dummy (every field decoded)", &best, &bt.best, bt.ok, "speedup");
  print_json_tail (out);
  return 0;
}

/* --- analysis: each kernel analysis against the viewer's state pass ------------ */

/* The viewer's state pass: statistics and checkpoints, one every 50000
 * events, their states in a file. */
static gboolean
time_state_pass (TtvTraceset *ts, double *wall, double *cpu, GError **error)
{
  g_autofree char *spill_dir = g_dir_make_tmp ("ttv-bench-checkpoints-XXXXXX", error);
  if (spill_dir == NULL)
    return FALSE;
  TtvCheckpointPolicy policy = { 50000, 16u << 20, spill_dir, 0 };
  g_autoptr (TtvStateTracker) tracker = ttv_state_tracker_new (ts, &policy);
  gint64 t0 = g_get_monotonic_time ();
  double c0 = process_cpu_seconds ();
  gboolean ok = ttv_state_tracker_build (tracker, NULL, NULL, NULL, error);
  *wall = (double) (g_get_monotonic_time () - t0) / 1e6;
  *cpu = process_cpu_seconds () - c0;
  g_remove (spill_dir);
  return ok;
}

/* Runs @classes into the cache directory @dir (built anew); wall and CPU seconds. */
static GPtrArray *
time_analyses (TtvTraceset *ts, GPtrArray *classes, const char *dir, double *wall, double *cpu, GError **error)
{
  TtvAnalysisOptions o = { .cache_dir = dir };
  gint64 t0 = g_get_monotonic_time ();
  double c0 = process_cpu_seconds ();
  GPtrArray *done = ttv_analysis_run_many (ts, classes, &o, NULL, NULL, NULL, error);
  *wall = (double) (g_get_monotonic_time () - t0) / 1e6;
  *cpu = process_cpu_seconds () - c0;
  return done;
}

static void
remove_dir (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  while (d && (name = g_dir_read_name (d)))
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_remove (path);
    }
  g_rmdir (dir);
}

/* The best (least CPU) of --repeat builds of @classes, each into a cache
 * of its own under @dir (built anew: @dir/@i.R), and of as many state
 * passes, one before each build: the ratio divides one by the other, and
 * this host's speed moves by a third within a minute, so the two sides
 * are timed in turns, not one after the other.  The last build's results,
 * its cache kept in @run_dir for the read back, the others' removed. */
static GPtrArray *
best_analyses (TtvTraceset *ts, GPtrArray *classes, const char *dir, guint i, char **run_dir, Measure *best,
               Measure *state, GError **error)
{
  GPtrArray *done = NULL;
  best->wall = best->cpu = state->wall = state->cpu = G_MAXDOUBLE;
  *run_dir = NULL;
  for (gint64 r = 0; r < MAX (opt_repeat, 1); r++)
    {
      g_clear_pointer (&done, g_ptr_array_unref);
      if (*run_dir)
        remove_dir (*run_dir);
      g_clear_pointer (run_dir, g_free);
      *run_dir = g_strdup_printf ("%s/%u.%" G_GINT64_FORMAT, dir, i, r);
      double w, c;
      if (!time_state_pass (ts, &w, &c, error))
        return NULL;
      state->wall = MIN (state->wall, w);
      state->cpu = MIN (state->cpu, c);
      done = time_analyses (ts, classes, *run_dir, &w, &c, error);
      if (done == NULL)
        return NULL;
      best->wall = MIN (best->wall, w);
      best->cpu = MIN (best->cpu, c);
    }
  return done;
}

/* Milliseconds (CPU) per view of @width pixels over [t0, t1]: the latency
 * views' scatter and density, the CPU usage chart. */
static void
time_views (TtvAnalysis *syscalls, TtvAnalysis *cpu, TtvTime t0, TtvTime t1, guint width, double *scatter_ms,
            double *density_ms, double *usage_ms, GError **error)
{
  const TtvAnalysisTable *calls = ttv_analysis_get_table (syscalls, 0);
  g_autofree TtvScatterColumn *columns = g_new (TtvScatterColumn, width);
  guint64 counts[TTV_DURATION_BUCKETS];
  gboolean exact;
  double c0 = process_cpu_seconds ();
  ttv_analysis_table_scatter (calls, t0, t1, width, columns, &exact, error);
  double c1 = process_cpu_seconds ();
  ttv_analysis_table_histogram (calls, t0, t1, counts, error);
  double c2 = process_cpu_seconds ();
  g_autofree TtvTime *edges = g_new (TtvTime, width + 1);
  g_autofree TtvTime *busy = g_new (TtvTime, width);
  for (guint i = 0; i <= width; i++)
    edges[i] = t0 + (TtvTime) ((double) (t1 - t0) * i / width);
  g_autoptr (GArray) cpus = ttv_cpu_usage_list_cpus (cpu);
  for (guint c = 0; c < cpus->len; c++)
    ttv_cpu_usage_get_busy_bins (cpu, (gint) g_array_index (cpus, guint32, c), edges, width + 1, busy, error);
  double c3 = process_cpu_seconds ();
  *scatter_ms = (c1 - c0) * 1e3;
  *density_ms = (c2 - c1) * 1e3;
  *usage_ms = (c3 - c2) * 1e3;
}

static int
bench_analysis (char **paths, GString *out, GError **error)
{
  g_autoptr (TtvTraceset) ts = open_traceset (paths, error);
  if (ts == NULL)
    return 1;
  /* Once untimed: the trace's pages in the page cache for both sides. */
  double warm_wall, warm_cpu;
  if (!time_state_pass (ts, &warm_wall, &warm_cpu, error))
    return 1;
  g_autofree char *dir = g_dir_make_tmp ("ttv-bench-analysis-XXXXXX", error);
  if (dir == NULL)
    return 1;
  g_autoptr (GPtrArray) all = g_ptr_array_new ();
  g_auto (GStrv) names = opt_analysis ? g_strsplit (opt_analysis, ",", -1) : NULL;
  for (const TtvAnalysisClass *const *c = ttv_analysis_list (); *c; c++)
    if (names == NULL || g_strv_contains ((const char *const *) names, (*c)->name))
      g_ptr_array_add (all, (gpointer) *c);
  if (all->len == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "no analysis %s", opt_analysis);
      return 1;
    }
  guint64 n_events = 0;
  TtvAnalysis *syscalls = NULL, *cpu = NULL;
  g_autoptr (GPtrArray) keep = g_ptr_array_new_with_free_func ((GDestroyNotify) ttv_analysis_unref);
  /* Each alone, then read back from its cache. */
  for (guint i = 0; i <= all->len; i++)
    {
      g_autoptr (GPtrArray) classes = g_ptr_array_new ();
      if (i < all->len)
        g_ptr_array_add (classes, all->pdata[i]);
      else if (all->len > 1)
        g_ptr_array_extend (classes, all, NULL, NULL);
      else
        break;
      Measure built = { 0 }, state = { 0 };
      /* Each run into a cache of its own: built, then read back. */
      g_autofree char *run_dir = NULL;
      g_autoptr (GPtrArray) done = best_analyses (ts, classes, dir, i, &run_dir, &built, &state, error);
      if (done == NULL)
        return 1;
      guint64 bytes = 0;
      gsize memory = 0;
      for (guint k = 0; k < done->len; k++)
        {
          bytes += ttv_analysis_get_file_size (done->pdata[k]);
          memory += ttv_analysis_get_memory (done->pdata[k]);
          n_events = ttv_analysis_get_n_events (done->pdata[k]);
        }
      double reload_wall, reload_cpu;
      g_autoptr (GPtrArray) again = time_analyses (ts, classes, run_dir, &reload_wall, &reload_cpu, error);
      if (again == NULL)
        return 1;
      gboolean cached = ttv_analysis_is_from_cache (again->pdata[0]);
      print_json_head (out, "analysis", paths);
      g_string_append_printf (out, ",\"analysis\":\"%s\",\"events\":%" G_GUINT64_FORMAT
                              ",\"repeat\":%" G_GINT64_FORMAT ",\"seconds\":%.3f,\"cpu_seconds\":%.3f,\"state_seconds\":%.3f,\"state_cpu_seconds\":%.3f"
                              ",\"ratio\":%.3f,\"ratio_wall\":%.3f,\"file_bytes\":%" G_GUINT64_FORMAT
                              ",\"bytes_per_event\":%.2f,\"heap_bytes\":%" G_GSIZE_FORMAT
                              ",\"reload_seconds\":%.3f,\"reload_cpu_seconds\":%.3f,\"reloaded_from_cache\":%s",
                              i < all->len ? ((const TtvAnalysisClass *) all->pdata[i])->name : "all",
                              n_events, MAX (opt_repeat, 1), built.wall, built.cpu, state.wall, state.cpu,
                              state.cpu > 0 ? built.cpu / state.cpu : 0, state.wall > 0 ? built.wall / state.wall : 0, bytes,
                              n_events ? (double) bytes / (double) n_events : 0, memory, reload_wall, reload_cpu,
                              cached ? "true" : "false");
      print_json_tail (out);
      for (guint k = 0; k < again->len; k++)
        {
          TtvAnalysis *a = again->pdata[k];
          if (ttv_analysis_get_class (a) == &ttv_syscall_analysis && syscalls == NULL)
            g_ptr_array_add (keep, syscalls = ttv_analysis_ref (a));
          if (ttv_analysis_get_class (a) == &ttv_cpu_usage_analysis && cpu == NULL)
            g_ptr_array_add (keep, cpu = ttv_analysis_ref (a));
        }
    }
  /* The views' queries at W = 1920: the whole trace, and 1 ms. */
  if (syscalls && cpu)
    {
      TtvTime start = ttv_traceset_get_start (ts), end = ttv_traceset_get_end (ts);
      double ms[2][3];
      time_views (syscalls, cpu, start, end, 1920, &ms[0][0], &ms[0][1], &ms[0][2], error);
      TtvTime mid = start + (end - start) / 2;
      time_views (syscalls, cpu, mid, mid + 1000000, 1920, &ms[1][0], &ms[1][1], &ms[1][2], error);
      print_json_head (out, "analysis_views", paths);
      g_string_append_printf (out, ",\"width\":1920,\"whole_scatter_ms\":%.3f,\"whole_density_ms\":%.3f"
                              ",\"whole_usage_ms\":%.3f,\"ms1_scatter_ms\":%.3f,\"ms1_density_ms\":%.3f"
                              ",\"ms1_usage_ms\":%.3f", ms[0][0], ms[0][1], ms[0][2], ms[1][0], ms[1][1], ms[1][2]);
      print_json_tail (out);
    }
  for (guint i = 0; i <= all->len; i++)
    {
      /* The last build's cache of each (best_analyses removed the others). */
      g_autofree char *run_dir = g_strdup_printf ("%s/%u.%" G_GINT64_FORMAT, dir, i, MAX (opt_repeat, 1) - 1);
      remove_dir (run_dir);
    }
  remove_dir (dir);
  return 0;
}

int
main (int argc, char **argv)
{
  ttv_locale_init ();
  ttv_mapping_guard_install ("ttv-bench");
  g_autoptr (GOptionContext) oc = g_option_context_new ("open|read|text|state-pass|filter-payload|seek|state|history|filter|analysis TRACE… — measure libttv");
  g_option_context_add_main_entries (oc, entries, NULL);
  g_option_context_set_description (oc,
    "open     the traceset opened (metadata, indexes, first and last times): CPU seconds,\n"
    "         bytes read against the tracefiles' sizes\n"
    "read     full merged read of the traceset (read_headers, events/s); --decode decodes\n"
    "         every field of every event, contexts included (read_decode_all); --babeltrace\n"
    "         times `babeltrace2 -o dummy` (every field decoded) on the same trace; --threads N\n"
    "         also reads it on N threads, each taking slices of its time (threads_*)\n"
    "text     ttv-report --format=babeltrace|jsonl|text (--format) to /dev/null, on one thread and on\n"
    "         --threads N (threads_*: wall and CPU time; default 2) (text_babeltrace,\n"
    "         text_jsonl, text_plain); --babeltrace times `babeltrace2 --clock-gmt` to /dev/null\n"
    "state-pass  the kernel model's state alone over the whole trace (events/s)\n"
    "filter-payload  a read testing a filter on a payload field (TTV_BENCH_FILTER, default\n"
    "         event.field.fd = 3) at every event; --babeltrace: against `babeltrace2 -o dummy`\n"
    "Wall and CPU seconds, and the peak resident memory of what was measured, in each.\n"
    "seek     seek_time latency at random times (median, p99); --cold without a first read\n"
    "state    state computation with checkpoints (events/s) and state_at latency\n"
    "history  state history build (cached, two threads; one thread) vs the state alone,\n"
    "         its memory, cache reuse, query_pixels at W=1920 (whole trace, 1 ms)\n"
    "filter   filtered read (3-clause filter) vs plain read, overhead in percent;\n"
    "         TTV_BENCH_FILTER=EXPR sets the filter; one with state.* terms is timed\n"
    "         with the state tracker (bench \"filter+state\"), the read with the tracker alone too\n"
    "analysis each kernel analysis (--analysis NAME: one), then all in one read, against the\n"
    "         viewer's state pass timed in turns with it (CPU and wall ratios), its file, its\n"
    "         reload from the cache;\n"
    "         the views' queries at W=1920 (scatter, density, CPU usage; whole trace, 1 ms)\n"
    "One JSON object per line on standard output; bench/run checks them against targets.\n");
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
  else if (g_str_equal (argv[1], "open"))
    status = bench_open (argv + 2, out, &error);
  else if (g_str_equal (argv[1], "text"))
    status = bench_text (argv + 2, out, &error);
  else if (g_str_equal (argv[1], "state-pass"))
    status = bench_state_pass (argv + 2, out, &error);
  else if (g_str_equal (argv[1], "filter-payload"))
    status = bench_filter_payload (argv + 2, out, &error);
  else if (g_str_equal (argv[1], "seek"))
    status = bench_seek (argv + 2, out, &error);
  else if (g_str_equal (argv[1], "state"))
    status = bench_state (argv + 2, out, &error);
  else if (g_str_equal (argv[1], "filter"))
    status = bench_filter (argv + 2, out, &error);
  else if (g_str_equal (argv[1], "history"))
    status = bench_history (argv + 2, out, &error);
  else if (g_str_equal (argv[1], "analysis"))
    status = bench_analysis (argv + 2, out, &error);
  else
    {
      g_printerr ("ttv-bench: unknown subcommand “%s” (open, read, text, state-pass, filter-payload, seek, "
                  "state, history, filter, analysis)\n", argv[1]);
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
