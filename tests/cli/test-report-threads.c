/* test-report-threads.c: the plain report (ttv-report TRACE, babeltrace,
 * jsonl, --position) on two and three threads against one thread, run as
 * a user would: the same standard output, standard error and exit status,
 * on generated traces (LTT, LTTng 0.x, CTF 1.8 and 2, several CPUs, lost
 * events, two machines) and on every trace under the shared traces
 * (damaged ones included).  TTV_REPORT_CHUNK_BYTES=1 cuts a chunk at every
 * block or packet, so that these short traces have many chunks: each chunk
 * edge is a place where a wrong first line (its babeltrace delta, its lost
 * marks) or a lost or doubled event would show.  TTV_REPORT_CHUNK_STATS
 * makes ttv-report say whether the workers wrote every chunk (the fast
 * path) or one thread read on (its fallback). */
#include "ttv-test-util.h"

#include <string.h>

#ifndef TTV_REPORT_PATH
#error "TTV_REPORT_PATH must be defined by the build"
#endif
#ifndef TTV_GEN_PATH
#error "TTV_GEN_PATH must be defined by the build"
#endif

static const char *const formats[][2] = {
  { "--format=text", NULL }, { "--format=babeltrace", NULL }, { "--format=jsonl", NULL }, { "--position", NULL },
  { "--format=babeltrace", "--start=+0.01" },
};

/* ttv-report --threads @threads @options @trace, with small chunks. */
static void
run_report (TtvTestRun *r, const char *trace, const char *threads, const char *const options[2], gboolean stats)
{
  g_auto (GStrv) env = g_get_environ ();
  env = g_environ_setenv (env, "TTV_REPORT_CHUNK_BYTES", "1", TRUE);
  if (stats)
    env = g_environ_setenv (env, "TTV_REPORT_CHUNK_STATS", "1", TRUE);
  const char *argv[] = { TTV_REPORT_PATH, "--threads", threads, options[0], options[1] ? options[1] : trace,
                         options[1] ? trace : NULL, NULL };
  ttv_test_run (r, NULL, env, argv);
}

/* The report of @trace on 2 (and with @three, 3) threads against 1, in
 * every format and option of formats[] (with @three), or in the first
 * three (the output formats: enough for the many shared traces, which are
 * small, to keep the test short under ASan). */
static void
check_same (const char *trace, gboolean three)
{
  for (guint f = 0; f < (three ? G_N_ELEMENTS (formats) : 3u); f++)
    {
      g_auto (TtvTestRun) one = { 0 };
      run_report (&one, trace, "1", formats[f], FALSE);
      for (guint n = 2; n <= (three ? 3u : 2u); n++)
        {
          g_auto (TtvTestRun) many = { 0 };
          g_autofree char *threads = g_strdup_printf ("%u", n);
          run_report (&many, trace, threads, formats[f], FALSE);
          if (one.status != many.status || strcmp (one.out, many.out) != 0 || strcmp (one.err, many.err) != 0)
            g_error ("%s %s on %u threads: exit %d, %zu bytes out, stderr «%s»; on one: exit %d, %zu bytes, «%s»",
                     trace, formats[f][0], n, many.status, strlen (many.out), many.err, one.status,
                     strlen (one.out), one.err);
        }
    }
}

/* Whether the workers wrote every chunk of @trace's babeltrace report, and
 * there were many: the fast path itself was compared, not its fallback. */
static void
check_all_by_workers (const char *trace)
{
  g_auto (TtvTestRun) r = { 0 };
  run_report (&r, trace, "2", formats[1], TRUE);
  g_autoptr (GRegex) re = g_regex_new ("^ttv-report: ([0-9]+) chunks on 2 threads, all written$",
                                       G_REGEX_MULTILINE, 0, NULL);
  g_autoptr (GMatchInfo) m = NULL;
  g_test_message ("%s: %s", trace, r.err);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_regex_match (re, r.err, 0, &m));
  g_autofree char *n = g_match_info_fetch (m, 1);
  guint64 chunks = g_ascii_strtoull (n, NULL, 10);
  g_assert_cmpuint (chunks, >=, 10);
}

static void
generate (const char *out, const char *const *options)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_ptr_array_add (argv, (gpointer) TTV_GEN_PATH);
  for (guint i = 0; options[i]; i++)
    g_ptr_array_add (argv, (gpointer) options[i]);
  g_ptr_array_add (argv, (gpointer) "-o");
  g_ptr_array_add (argv, (gpointer) out);
  g_ptr_array_add (argv, NULL);
  g_free (ttv_test_run_ok ((const char *const *) argv->pdata));
}

static void
test_generated (gconstpointer data)
{
  const char *const *options = data;
  g_autofree char *dir = ttv_test_dup_tmp_path ("generated");
  ttv_test_remove_tree (dir);
  generate (dir, options);
  check_all_by_workers (dir);
  check_same (dir, TRUE);
  ttv_test_remove_tree (dir);
}

/* Lost events in the first packets and later (CTF 1.8: babeltrace2's
 * warnings on stderr between the lines), lost packets (CTF 2). */
static void
test_lost (void)
{
  TtvTestLostOptions ctf = { .first_discarded = 4, .later_discarded = 9 };
  TtvTestLostOptions ctf2 = { .ctf2 = TRUE, .first_discarded = 4, .later_discarded = 9, .skip_packets = TRUE };
  g_autofree char *a = ttv_test_write_lost_ctf ("lost-ctf", &ctf);
  g_autofree char *b = ttv_test_write_lost_ctf ("lost-ctf2", &ctf2);
  check_all_by_workers (a);
  check_same (a, TRUE);
  check_same (b, TRUE);
}

/* An LTT trace beside a CTF one that lost events, in babeltrace2's
 * format with positions: the LTT events print as text lines with their
 * position tokens, which one thread writes eight at a time, and the CTF
 * trace's losses print babeltrace2's warnings on stderr, for which
 * ttv-report writes its standard output first: every token must be whole
 * by then (one thread against two, whose workers write each token at
 * once). */
static void
test_lost_beside_ltt (void)
{
  TtvTestLostOptions lost = { .first_discarded = 4, .later_discarded = 9 };
  g_autofree char *ctf_trace = ttv_test_write_lost_ctf ("lost-beside-ltt", &lost);
  g_autofree char *dir = ttv_test_dup_tmp_path ("beside-ltt");
  const char *const options[] = { "-q", "-c", "2", "-n", "3000", "-b", "4096", "--replace", NULL };
  generate (dir, options);
  const char *const bt_position[2] = { "--format=babeltrace", "--position" };
  g_auto (TtvTestRun) one = { 0 }, two = { 0 };
  const char *argv1[] = { TTV_REPORT_PATH, "--threads", "1", bt_position[0], bt_position[1], dir, ctf_trace, NULL };
  const char *argv2[] = { TTV_REPORT_PATH, "--threads", "2", bt_position[0], bt_position[1], dir, ctf_trace, NULL };
  g_auto (GStrv) env = g_environ_setenv (g_get_environ (), "TTV_REPORT_CHUNK_BYTES", "1", TRUE);
  ttv_test_run (&one, NULL, env, argv1);
  ttv_test_run (&two, NULL, env, argv2);
  g_assert_cmpint (one.status, ==, 0);
  g_assert_nonnull (strstr (one.err, "WARNING"));
  g_assert_null (strstr (one.err, "CRITICAL"));
  g_assert_cmpstr (one.err, ==, two.err);
  g_assert_true (strcmp (one.out, two.out) == 0);
  ttv_test_remove_tree (dir);
}

/* Two machines in one report: each line says its trace. */
static void
test_machines (void)
{
  g_autofree char *dir = ttv_test_dup_tmp_path ("machines");
  const char *const options[] = { "-q", "-f", "ctf", "--machines", "2", "-c", "2", "-n", "20000", "-b", "4096",
                                  "--replace", NULL };
  generate (dir, options);
  g_autofree char *a = g_build_filename (dir, "ttv-gen-1", NULL);
  g_autofree char *b = g_build_filename (dir, "ttv-gen-2", NULL);
  for (guint f = 0; f < 3; f++)
    {
      g_auto (TtvTestRun) one = { 0 }, two = { 0 };
      g_auto (GStrv) env = g_environ_setenv (g_get_environ (), "TTV_REPORT_CHUNK_BYTES", "1", TRUE);
      const char *argv1[] = { TTV_REPORT_PATH, "--threads", "1", formats[f][0], a, b, NULL };
      const char *argv2[] = { TTV_REPORT_PATH, "--threads", "2", formats[f][0], a, b, NULL };
      ttv_test_run (&one, NULL, env, argv1);
      ttv_test_run (&two, NULL, env, argv2);
      g_assert_cmpint (one.status, ==, 0);
      g_assert_cmpint (two.status, ==, 0);
      g_assert_cmpstr (one.err, ==, two.err);
      g_assert_true (strcmp (one.out, two.out) == 0);
    }
  ttv_test_remove_tree (dir);
}

/* The trace directories under @dir: those with CTF metadata or LTT's
 * info/system.xml. */
static void
find_traces (const char *dir, GPtrArray *out)
{
  g_autofree char *metadata = g_build_filename (dir, "metadata", NULL);
  g_autofree char *system = g_build_filename (dir, "info", "system.xml", NULL);
  if (g_file_test (metadata, G_FILE_TEST_EXISTS) || g_file_test (system, G_FILE_TEST_EXISTS))
    {
      g_ptr_array_add (out, g_strdup (dir));
      return;
    }
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  while (d && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *sub = g_build_filename (dir, name, NULL);
      if (g_file_test (sub, G_FILE_TEST_IS_DIR) && !g_file_test (sub, G_FILE_TEST_IS_SYMLINK))
        find_traces (sub, out);
    }
}

/* Every shared trace, damaged ones included: read errors and warnings
 * where one thread has them. */
static void
test_shared_traces (void)
{
  g_autofree char *root = ttv_test_dup_shared_trace ("");
  if (root == NULL)
    return;   /* marked skipped, naming the absent directory */
  g_autoptr (GPtrArray) traces = g_ptr_array_new_with_free_func (g_free);
  find_traces (root, traces);
  g_assert_cmpuint (traces->len, >=, 20);
  for (guint i = 0; i < traces->len; i++)
    check_same (traces->pdata[i], FALSE);
}

/* A report that cannot be written says so, as with one thread. */
static void
test_full_disk (void)
{
  g_autofree char *dir = ttv_test_dup_tmp_path ("full");
  const char *const options[] = { "-q", "-f", "ctf", "-c", "4", "-n", "40000", "-b", "4096", "--replace", NULL };
  generate (dir, options);
  for (guint n = 1; n <= 3; n++)
    {
      g_autofree char *cmd = g_strdup_printf ("exec '%s' --threads %u --format=babeltrace '%s' > /dev/full",
                                              TTV_REPORT_PATH, n, dir);
      g_auto (GStrv) env = g_environ_setenv (g_get_environ (), "TTV_REPORT_CHUNK_BYTES", "1", TRUE);
      const char *argv[] = { "/bin/sh", "-c", cmd, NULL };
      g_auto (TtvTestRun) r = { 0 };
      ttv_test_run (&r, NULL, env, argv);
      g_assert_cmpint (r.status, ==, 1);
      g_assert_cmpstr (r.err, ==, "ttv-report: cannot write the report: No space left on device\n");
    }
  ttv_test_remove_tree (dir);
}

static void
test_bad_threads (void)
{
  g_autofree char *trace = ttv_test_dup_shared_ctf_trace ("scp-kernel");
  if (trace == NULL)
    return;
  static const TtvTestBadRun cases[] = {
    { { "--threads", "0", NULL }, 2, "--threads: expected a number of threads from 1 to 64, not 0" },
    { { "--threads", "-1", NULL }, 2, "--threads: expected a number of threads from 1 to 64, not -1" },
    { { "--threads", "65", NULL }, 2, "--threads: expected a number of threads from 1 to 64, not 65" },
    { { "--threads", "two", NULL }, 2, "--threads" },
    { { "--threads", NULL }, 2, "--threads" },
  };
  TtvTestBadRun with_trace[G_N_ELEMENTS (cases)];
  memcpy (with_trace, cases, sizeof cases);
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    for (guint i = 0; i < G_N_ELEMENTS (with_trace[c].args); i++)
      if (with_trace[c].args[i] == NULL)
        {
          with_trace[c].args[i] = trace;
          break;
        }
  ttv_test_assert_runs_fail (TTV_REPORT_PATH, with_trace, G_N_ELEMENTS (with_trace));
}

static const char *const ltt[] = { "-q", "-c", "3", "-n", "30000", "-b", "4096", "-p", "40", "--replace", NULL };
static const char *const lttng[] = { "-q", "-f", "lttng", "-c", "2", "-n", "20000", "-b", "4096", "--replace", NULL };
static const char *const ctf[] = { "-q", "-f", "ctf", "-c", "4", "-n", "30000", "-b", "4096", "--replace", NULL };
static const char *const ctf2[] = { "-q", "-f", "ctf2", "-c", "3", "-n", "20000", "-b", "4096", "--replace", NULL };
static const char *const flight[] = { "-q", "-c", "2", "-n", "30000", "-b", "4096",
                                      "--flight-recorder", "6", "--replace", NULL };

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_data_func ("/report-threads/ltt", ltt, test_generated);
  g_test_add_data_func ("/report-threads/lttng", lttng, test_generated);
  g_test_add_data_func ("/report-threads/ctf", ctf, test_generated);
  g_test_add_data_func ("/report-threads/ctf2", ctf2, test_generated);
  g_test_add_data_func ("/report-threads/flight-recorder", flight, test_generated);
  g_test_add_func ("/report-threads/lost", test_lost);
  g_test_add_func ("/report-threads/lost-beside-ltt", test_lost_beside_ltt);
  g_test_add_func ("/report-threads/machines", test_machines);
  g_test_add_func ("/report-threads/shared-traces", test_shared_traces);
  g_test_add_func ("/report-threads/full-disk", test_full_disk);
  g_test_add_func ("/report-threads/bad-threads", test_bad_threads);
  return g_test_run ();
}
