/* test-ttv-bench.c: ttv-bench run as bench/run runs it, on small traces
 * ttv-gen writes: one JSON line per measure, each with the events it
 * read and the way its reads took the bytes (window_io), and clear
 * failures on wrong arguments and on what is not a trace.  The figures
 * themselves are not tested (benchmarks, not timed tests). */
#include "ttv-test-util.h"
#include "ttv-sanitizer.h"

#include <glib/gstdio.h>
#include <string.h>

#ifndef TTV_BENCH_PATH
#error "TTV_BENCH_PATH must be defined by the build"
#endif
#ifndef TTV_GEN_PATH
#error "TTV_GEN_PATH must be defined by the build"
#endif
#ifndef TTV_REPORT_PATH
#error "TTV_REPORT_PATH must be defined by the build"
#endif

#define N_EVENTS "20000"

static char *ltt_trace, *ctf_trace;
static char *ltt_events, *ctf_events;   /* what ttv-report --stats counts in each */

static char *
generate (const char *format)
{
  char *out = ttv_test_dup_tmp_path (format);
  const char *argv[] = { TTV_GEN_PATH, "--format", format, "--cpus", "2", "--events", N_EVENTS, "-o", out, NULL };
  g_free (ttv_test_run_ok (argv));
  return out;
}

/* The events ttv-report --stats counts in @trace (its "Traceset" row), as
 * text. */
static char *
count_events (const char *trace)
{
  const char *argv[] = { TTV_REPORT_PATH, "--stats", trace, NULL };
  g_autofree char *out = ttv_test_run_ok (argv);
  g_auto (GStrv) lines = g_strsplit (out, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), >, 2);
  g_auto (GStrv) words = g_strsplit_set (lines[1], " ", -1);
  char *count = NULL;
  for (guint i = 1; words[i] && count == NULL; i++)
    if (*words[i])
      count = g_strdup (words[i]);
  g_assert_cmpstr (words[0], ==, "Traceset");
  g_assert_nonnull (count);
  return count;
}

/* ttv-bench with @args, TTV_WINDOW_IO=@io (NULL: unset) and PATH=@path
 * (NULL: this one's); fails unless it exits 0.  Its lines. */
static GStrv
bench_lines_path (const char *io, const char *path, const char *const *args)
{
  g_auto (GStrv) envp = g_get_environ ();
  envp = io ? g_environ_setenv (envp, "TTV_WINDOW_IO", io, TRUE) : g_environ_unsetenv (envp, "TTV_WINDOW_IO");
  if (path)
    envp = g_environ_setenv (envp, "PATH", path, TRUE);
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_ptr_array_add (argv, (gpointer) TTV_BENCH_PATH);
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  g_auto (TtvTestRun) r = { 0 };
  ttv_test_run (&r, NULL, envp, (const char *const *) argv->pdata);
  if (r.status != 0)
    g_error ("ttv-bench %s failed (%d): %s", args[0], r.status, r.err);
  g_assert_true (g_str_has_suffix (r.out, "}\n"));
  g_strchomp (r.out);
  return g_strsplit (r.out, "\n", -1);
}

static GStrv
bench_lines (const char *io, const char *const *args)
{
  return bench_lines_path (io, NULL, args);
}

/* One JSON object per line, closed once, which says window_io once. */
static void
assert_line_shape (const char *line, const char *bench)
{
  g_test_message ("%s", line);
  g_assert_true (g_str_has_prefix (line, "{\"bench\":\""));
  g_assert_true (g_str_has_suffix (line, "}"));
  g_assert_null (strchr (line, '\n'));
  g_autofree char *name = ttv_test_json_text (line, "bench");
  g_assert_cmpstr (name, ==, bench);
  const char *io = strstr (line, "\"window_io\":");
  g_assert_nonnull (io);
  g_assert_null (strstr (io + 1, "\"window_io\":"));
}

static void
assert_events (const char *line, const char *want)
{
  g_autofree char *n = ttv_test_json_raw (line, "events");
  g_assert_cmpstr (n, ==, want);
}

/* A sanitized build reads every window by copies without asking which
 * way (ttv-sanitizer.h): its lines say undecided. */
static void
assert_window_io (const char *line, const char *want)
{
  if (TTV_SANITIZED)
    want = "undecided";
  g_autofree char *io = ttv_test_json_text (line, "window_io");
  g_assert_cmpstr (io, ==, want);
}

/* A full read, each way the bytes may be taken: every event counted, and
 * the line says the way the environment chose. */
static void
test_read_each_way (void)
{
  const char *traces[] = { ltt_trace, ctf_trace };
  const char *counts[] = { ltt_events, ctf_events };
  const char *ways[] = { "map", "copy" };
  for (guint t = 0; t < G_N_ELEMENTS (traces); t++)
    for (guint w = 0; w < G_N_ELEMENTS (ways); w++)
      {
        const char *args[] = { "read", "--repeat", "1", traces[t], NULL };
        g_auto (GStrv) lines = bench_lines (ways[w], args);
        g_assert_cmpuint (g_strv_length (lines), ==, 1);
        assert_line_shape (lines[0], "read_headers");
        assert_events (lines[0], counts[t]);
        assert_window_io (lines[0], ways[w]);
      }
}

/* Unset, the program measures the two ways and says which it kept. */
static void
test_read_measured_way (void)
{
  const char *args[] = { "read", "--decode", "--repeat", "1", ctf_trace, NULL };
  g_auto (GStrv) lines = bench_lines (NULL, args);
  g_assert_cmpuint (g_strv_length (lines), ==, 1);
  assert_line_shape (lines[0], "read_decode_all");
  assert_events (lines[0], ctf_events);
  g_autofree char *io = ttv_test_json_text (lines[0], "window_io");
  if (TTV_SANITIZED)
    g_assert_cmpstr (io, ==, "undecided");
  else
    g_assert_true (g_strcmp0 (io, "map") == 0 || g_strcmp0 (io, "copy") == 0);
  g_autofree char *decoded = ttv_test_json_text (lines[0], "decoded");
  g_assert_cmpstr (decoded, ==, "every field of every event (contexts and payload)");
}

/* A kernel CTF trace whose events lie on a grid of 48 steps, three at
 * each step on each of two CPUs: the read on 2 or 3 threads cuts it in 16
 * or 24 slices, whose every boundary falls on events (each must be read
 * once, by the slice it begins).  Its path; its events in *@n_events. */
static char *
write_grid_trace (char **n_events)
{
  char *path = ttv_test_dup_tmp_path ("grid");
  g_autoptr (GError) error = NULL;
  TtvCtfWriter *w = ttv_test_kernel_ctf_writer_new (path);
  const char *const names[] = { "step", NULL };
  g_autoptr (TtvType) fields = ttv_test_kernel_fields (names);
  g_assert_cmpint (ttv_ctf_writer_add_event (w, "grid_tick", fields, &error), ==, 0);
  guint n = 0;
  for (guint step = 0; step <= 48; step++)
    for (guint cpu = 0; cpu < 2; cpu++)
      for (guint k = 0; k < 3; k++, n++)
        {
          TtvScalar v[] = { TTV_SCALAR_INT (step) };
          g_assert_true (ttv_ctf_writer_write_event (w, cpu, 1000000000 + (TtvTime) step * 1000, 0, v, 1, &error));
        }
  g_assert_true (ttv_ctf_writer_close (w, &error));
  *n_events = g_strdup_printf ("%u", n);
  return path;
}

/* --threads: the read again on several threads, each taking slices of
 * the trace's time, which together read every event once (the same count
 * as the read on one thread); one thread: no such read. */
static void
test_read_on_threads (void)
{
  g_autofree char *grid_events = NULL;
  g_autofree char *grid = write_grid_trace (&grid_events);
  const char *traces[] = { ltt_trace, ctf_trace, grid, grid };
  const char *counts[] = { ltt_events, ctf_events, grid_events, grid_events };
  const char *threads_arg[] = { "3", "3", "2", "3" };
  for (guint t = 0; t < G_N_ELEMENTS (traces); t++)
    {
      const char *args[] = { "read", "--decode", "--threads", threads_arg[t], "--repeat", "1", traces[t], NULL };
      g_auto (GStrv) lines = bench_lines ("copy", args);
      assert_line_shape (lines[0], "read_decode_all");
      assert_events (lines[0], counts[t]);
      g_autofree char *threads = ttv_test_json_raw (lines[0], "threads");
      g_autofree char *events = ttv_test_json_raw (lines[0], "threads_events");
      g_autofree char *slices = ttv_test_json_raw (lines[0], "threads_slices");
      g_autofree char *speedup = ttv_test_json_raw (lines[0], "threads_wall_speedup");
      g_assert_cmpstr (threads, ==, threads_arg[t]);
      g_assert_cmpstr (events, ==, counts[t]);
      g_assert_cmpuint (g_ascii_strtoull (slices, NULL, 10), >, g_ascii_strtoull (threads, NULL, 10));
      /* A number: the grid's read on threads takes longer than on one. */
      g_assert_cmpfloat (g_ascii_strtod (speedup, NULL), >=, 0);
    }
  const char *one[] = { "read", "--threads", "1", "--repeat", "1", ctf_trace, NULL };
  g_auto (GStrv) lines = bench_lines ("copy", one);
  assert_events (lines[0], ctf_events);
  g_assert_null (strstr (lines[0], "\"threads"));
}

/* The state pass reads every event too; opening reads only what it needs
 * (where no window was read through yet: undecided). */
static void
test_state_pass_and_open (void)
{
  const char *pass[] = { "state-pass", "--repeat", "1", ltt_trace, NULL };
  g_auto (GStrv) lines = bench_lines ("copy", pass);
  assert_line_shape (lines[0], "state_pass");
  assert_events (lines[0], ltt_events);
  assert_window_io (lines[0], "copy");

  const char *open[] = { "open", "--repeat", "1", ctf_trace, NULL };
  g_auto (GStrv) opened = bench_lines (NULL, open);
  assert_line_shape (opened[0], "open");
  g_autofree char *io = ttv_test_json_text (opened[0], "window_io");
  g_assert_true (g_strv_contains ((const char *const[]) { "undecided", "map", "copy", NULL }, io));
}

/* ttv-report is another process: the text bench hands it the way its
 * own read chose (or the environment's), which the line says. */
static void
test_text_children_way (void)
{
  const char *args[] = { "text", "--format=jsonl", "--repeat", "1", ctf_trace, NULL };
  g_auto (GStrv) copied = bench_lines ("copy", args);
  g_assert_cmpuint (g_strv_length (copied), ==, 1);
  assert_line_shape (copied[0], "text_jsonl");
  assert_window_io (copied[0], "copy");
  g_autofree char *ratio = ttv_test_json_raw (copied[0], "vs_babeltrace_text");
  g_assert_nonnull (ratio);
  g_assert_cmpfloat (g_ascii_strtod (ratio, NULL), >, 0);

  g_auto (GStrv) measured = bench_lines (NULL, args);
  g_autofree char *io = ttv_test_json_text (measured[0], "window_io");
  if (TTV_SANITIZED)
    g_assert_cmpstr (io, ==, "undecided");
  else
    g_assert_true (g_strcmp0 (io, "map") == 0 || g_strcmp0 (io, "copy") == 0);
}

/* --babeltrace: babeltrace2 timed in turns with the read, its figures and
 * the ratio in the line; where babeltrace2 is not found, null and no
 * ratio, the rest measured. */
static void
test_against_babeltrace (void)
{
  const char *args[] = { "read", "--decode", "--babeltrace", "--repeat", "1", ctf_trace, NULL };
  g_auto (GStrv) missing = bench_lines_path ("copy", "/nonexistent", args);
  assert_line_shape (missing[0], "read_decode_all");
  assert_events (missing[0], ctf_events);
  g_autofree char *none = ttv_test_json_raw (missing[0], "babeltrace2_seconds");
  g_assert_cmpstr (none, ==, "null");
  g_assert_null (strstr (missing[0], "\"speedup\""));

  g_autofree char *babeltrace = g_find_program_in_path ("babeltrace2");
  if (babeltrace == NULL)
    {
      g_test_skip ("babeltrace2 is not installed (.ci/install-deps installs it)");
      return;
    }
  g_auto (GStrv) lines = bench_lines ("copy", args);
  assert_line_shape (lines[0], "read_decode_all");
  g_autofree char *seconds = ttv_test_json_raw (lines[0], "babeltrace2_cpu_seconds");
  g_autofree char *speedup = ttv_test_json_raw (lines[0], "cpu_speedup");
  g_assert_nonnull (seconds);
  g_assert_nonnull (speedup);
  g_assert_cmpfloat (g_ascii_strtod (seconds, NULL), >, 0);
  g_assert_cmpfloat (g_ascii_strtod (speedup, NULL), >, 0);
}

/* A babeltrace2 that writes down the CPUs it may run on (its
 * Cpus_allowed_list) beside itself, then exits 0 without output.  The
 * folder it is in. */
static char *
write_fake_babeltrace (void)
{
  char *dir = ttv_test_dup_tmp_path ("fake-babeltrace");
  g_assert_no_errno (g_mkdir_with_parents (dir, 0755));
  g_autofree char *script = g_build_filename (dir, "babeltrace2", NULL);
  /* Shell built-ins only: PATH is this folder alone. */
  const char *text = "#!/bin/sh\n"
                     "while read -r key value; do\n"
                     "  if [ \"$key\" = Cpus_allowed_list: ]; then echo \"$value\" >> \"$0.cpus\"; fi\n"
                     "done < /proc/self/status\n";
  g_assert_true (g_file_set_contents (script, text, -1, NULL));
  g_assert_no_errno (g_chmod (script, 0755));
  return dir;
}

/* Two programs compared in turns run on one CPU, the same (the CPUs of a
 * virtual machine may differ in speed), which the line names: the bench
 * binds itself to it, babeltrace2's runs inherit it. */
static void
test_comparison_on_one_cpu (void)
{
  g_autofree char *dir = write_fake_babeltrace ();
  const char *args[] = { "read", "--babeltrace", "--repeat", "1", ctf_trace, NULL };
  g_auto (GStrv) lines = bench_lines_path ("copy", dir, args);
  assert_line_shape (lines[0], "read_headers");
  g_autofree char *cpu = ttv_test_json_raw (lines[0], "pinned_cpu");
  g_assert_nonnull (cpu);
  g_autofree char *cpus_path = g_build_filename (dir, "babeltrace2.cpus", NULL);
  g_autofree char *cpus = NULL;
  g_assert_true (g_file_get_contents (cpus_path, &cpus, NULL, NULL));
  g_auto (GStrv) runs = g_strsplit (g_strchomp (cpus), "\n", -1);
  /* At least three runs of babeltrace2, each on the line's CPU alone. */
  g_assert_cmpuint (g_strv_length (runs), >=, 3);
  for (guint i = 0; runs[i]; i++)
    g_assert_cmpstr (runs[i], ==, cpu);

  /* Nothing compared, nothing bound. */
  const char *alone[] = { "read", "--repeat", "1", ctf_trace, NULL };
  g_auto (GStrv) free_lines = bench_lines ("copy", alone);
  g_assert_null (strstr (free_lines[0], "pinned_cpu"));
}

/* Wrong arguments and what is not a trace: a message, a non-zero exit,
 * nothing on standard output. */
static void
test_bad_runs (void)
{
  g_autofree char *junk = ttv_test_dup_tmp_path ("junk");
  g_assert_no_errno (g_mkdir_with_parents (junk, 0755));
  g_autofree char *metadata = g_build_filename (junk, "metadata", NULL);
  g_assert_true (g_file_set_contents (metadata, "junk\n", -1, NULL));
  g_autofree char *missing = ttv_test_dup_tmp_path ("missing");
  const TtvTestBadRun cases[] = {
    { { NULL }, 2, "expected a subcommand and at least one trace" },
    { { "read", NULL }, 2, "expected a subcommand and at least one trace" },
    { { "frobnicate", ltt_trace, NULL }, 2, "unknown subcommand" },
    { { "read", "--repeat", "x", ltt_trace, NULL }, 2, "--repeat" },
    { { "text", "--format=xml", ltt_trace, NULL }, 2, "--format: babeltrace, jsonl or text" },
    { { "read", "--threads", "0", ltt_trace, NULL }, 2, "--threads: 1 to 64" },
    { { "text", "--threads", "65", ltt_trace, NULL }, 2, "--threads: 1 to 64" },
    { { "text", missing, NULL }, 1, "no such file or directory" },
    { { "read", missing, NULL }, 1, "no such file or directory" },
    { { "read", junk, NULL }, 1, "not a trace that ttv can read" },
  };
  ttv_test_assert_runs_fail (TTV_BENCH_PATH, cases, G_N_ELEMENTS (cases));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  ltt_trace = generate ("ltt");
  ctf_trace = generate ("ctf");
  ltt_events = count_events (ltt_trace);
  ctf_events = count_events (ctf_trace);
  /* CTF keeps every event ttv-gen writes (LTT's control channel is not
   * read as a tracefile). */
  g_assert_cmpstr (ctf_events, ==, N_EVENTS);
  g_test_add_func ("/ttv-bench/read-each-way", test_read_each_way);
  g_test_add_func ("/ttv-bench/read-measured-way", test_read_measured_way);
  g_test_add_func ("/ttv-bench/read-on-threads", test_read_on_threads);
  g_test_add_func ("/ttv-bench/state-pass-and-open", test_state_pass_and_open);
  g_test_add_func ("/ttv-bench/text-children-way", test_text_children_way);
  g_test_add_func ("/ttv-bench/against-babeltrace", test_against_babeltrace);
  g_test_add_func ("/ttv-bench/comparison-on-one-cpu", test_comparison_on_one_cpu);
  g_test_add_func ("/ttv-bench/bad-runs", test_bad_runs);
  int status = g_test_run ();
  g_free (ltt_trace);
  g_free (ctf_trace);
  g_free (ltt_events);
  g_free (ctf_events);
  return status;
}
