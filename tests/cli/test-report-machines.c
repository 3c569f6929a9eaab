/* test-report-machines.c: several machines in one traceset (issue 19,
 * docs/multi-machine.md), run as a user would: two generated traces of
 * different hosts with the same pids opened together keep their own
 * processes, CPUs and IRQs in ttv-report --state, --state-at and --stats
 * (each machine's part equals the trace opened alone); traces of one host
 * share one machine; ttv-gen --host refuses what it cannot write. */
#include "ttv-test-util.h"

#include <string.h>

#ifndef TTV_REPORT_PATH
#error "TTV_REPORT_PATH must be defined by the build"
#endif
#ifndef TTV_GEN_PATH
#error "TTV_GEN_PATH must be defined by the build"
#endif

typedef struct {
  char *alpha;     /* LTT, host alpha, 2 CPUs */
  char *beta;      /* CTF, host beta, 3 CPUs, starts 0.5 ms later, the same pids */
  char *alpha2;    /* LTT, host alpha again, another seed */
} Traces;

static Traces traces;

static void
generate (const char *out, const char *format, const char *host, const char *seed, const char *cpus,
          const char *start)
{
  ttv_test_generate_machine (TTV_GEN_PATH, out, format, host, seed, cpus, start);
}

static void
setup_traces (void)
{
  traces.alpha = ttv_test_dup_tmp_path ("alpha");
  traces.beta = ttv_test_dup_tmp_path ("beta");
  traces.alpha2 = ttv_test_dup_tmp_path ("alpha2");
  generate (traces.alpha, "ltt", "alpha", "1", "2", "1700000000");
  generate (traces.beta, "ctf", "beta", "2", "3", "1700000000.0005");
  generate (traces.alpha2, "ltt", "alpha", "3", "2", "1700000000.0002");
}

static char *
report (const char *a1, const char *a2, const char *a3, const char *t1, const char *t2)
{
  const char *argv[] = { TTV_REPORT_PATH, a1, a2, a3, t1, t2, NULL };
  /* Arguments after a NULL one are dropped. */
  return ttv_test_run_ok (argv);
}

/* key -> "count,total" of ttv-report --stats --format csv. */
static GHashTable *
stats_rows (const char *t1, const char *t2)
{
  const char *argv[] = { TTV_REPORT_PATH, "--stats", "-f", "csv", t1, t2, NULL };
  g_autofree char *out = ttv_test_run_ok (argv);
  g_auto (GStrv) lines = g_strsplit (out, "\n", -1);
  GHashTable *rows = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  for (guint i = 1; lines[i]; i++)
    {
      g_auto (GStrv) f = g_strsplit (lines[i], ",", -1);
      if (g_strv_length (f) < 4)
        continue;
      g_hash_table_insert (rows, g_strdup (f[0]), g_strdup_printf ("%s,%s,%s", f[1], f[2], f[3]));
    }
  return rows;
}

/* Every CPU and process row of @alone is in @both under machine @machine,
 * with the same name, count and CPU time, and machine @machine has no
 * other row. */
static void
assert_machine_stats (GHashTable *both, GHashTable *alone, guint machine)
{
  static const char *const groups[] = { "cpu", "process" };
  guint n_alone = 0, n_both = 0;
  GHashTableIter it;
  gpointer key, value;

  g_hash_table_iter_init (&it, alone);
  while (g_hash_table_iter_next (&it, &key, &value))
    for (guint g = 0; g < G_N_ELEMENTS (groups); g++)
      {
        g_autofree char *prefix = g_strdup_printf ("%s/", groups[g]);
        if (!g_str_has_prefix (key, prefix))
          continue;
        g_autofree char *mkey = g_strdup_printf ("%s/machine/%u/%s", groups[g], machine,
                                                 (const char *) key + strlen (prefix));
        const char *got = g_hash_table_lookup (both, mkey);
        if (g_strcmp0 (got, value) != 0)
          g_error ("%s: %s, alone %s: %s", mkey, got ? got : "(none)", (const char *) key, (const char *) value);
        n_alone++;
      }
  g_hash_table_iter_init (&it, both);
  while (g_hash_table_iter_next (&it, &key, &value))
    for (guint g = 0; g < G_N_ELEMENTS (groups); g++)
      {
        g_autofree char *prefix = g_strdup_printf ("%s/machine/%u/", groups[g], machine);
        if (g_str_has_prefix (key, prefix))
          n_both++;
      }
  g_assert_cmpuint (n_alone, >, 10);
  g_assert_cmpuint (n_both, ==, n_alone);
}

static void
test_stats (void)
{
  g_autoptr (GHashTable) both = stats_rows (traces.alpha, traces.beta);
  g_autoptr (GHashTable) alpha = stats_rows (traces.alpha, NULL);
  g_autoptr (GHashTable) beta = stats_rows (traces.beta, NULL);

  assert_machine_stats (both, alpha, 0);
  assert_machine_stats (both, beta, 1);
  /* The machines' groups are named after the hosts, and the CPUs of both
   * sum into the CPUs group. */
  g_assert_nonnull (g_hash_table_lookup (both, "cpu/machine/0"));
  g_assert_nonnull (g_hash_table_lookup (both, "process/machine/1"));
  g_assert_null (g_hash_table_lookup (both, "cpu/0"));
  g_auto (GStrv) a = g_strsplit (g_hash_table_lookup (alpha, "cpu"), ",", -1);
  g_auto (GStrv) b = g_strsplit (g_hash_table_lookup (beta, "cpu"), ",", -1);
  g_auto (GStrv) ab = g_strsplit (g_hash_table_lookup (both, "cpu"), ",", -1);
  g_assert_cmpint (g_ascii_strtoll (ab[0], NULL, 10), ==,
                   g_ascii_strtoll (a[0], NULL, 10) + g_ascii_strtoll (b[0], NULL, 10));

  g_autofree char *tree = report ("--stats", traces.alpha, traces.beta, NULL, NULL);
  g_assert_nonnull (strstr (tree, "\n    alpha "));
  g_assert_nonnull (strstr (tree, "\n    beta "));
}

/* The lines of @text without "position" members (they name the traceset's
 * shape), keeping only those of trace @name. */
static GPtrArray *
jsonl_of_trace (const char *text, const char *name)
{
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  g_autofree char *member = g_strdup_printf ("\"trace\":\"%s\"", name);
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; lines[i]; i++)
    {
      if (!strstr (lines[i], member))
        continue;
      char *line = g_strdup (lines[i]);
      char *pos = strstr (line, "\"position\":\"");
      if (pos)
        {
          char *end = strchr (pos + 12, '"');
          memmove (pos, end + 2, strlen (end + 2) + 1);
        }
      g_ptr_array_add (out, line);
    }
  return out;
}

static void
test_state_lines (void)
{
  g_autofree char *both = report ("--state", "-f", "jsonl", traces.alpha, traces.beta);
  g_autofree char *alpha = report ("--state", "-f", "jsonl", traces.alpha, NULL);
  g_autofree char *beta = report ("--state", "-f", "jsonl", traces.beta, NULL);
  g_autoptr (GPtrArray) got_a = jsonl_of_trace (both, "alpha");
  g_autoptr (GPtrArray) want_a = jsonl_of_trace (alpha, "alpha");
  g_autoptr (GPtrArray) got_b = jsonl_of_trace (both, "beta");
  g_autoptr (GPtrArray) want_b = jsonl_of_trace (beta, "beta");
  g_assert_cmpuint (want_a->len, >, 1000);
  g_assert_cmpuint (want_b->len, >, 1000);
  ttv_test_assert_same_lines (got_a, want_a);
  ttv_test_assert_same_lines (got_b, want_b);
}

/* The lines of @text after "machine @machine HOST" up to the next machine,
 * or after the heading when there is no machine line. */
static char *
state_section (const char *text, guint machine, const char *host)
{
  g_autofree char *heading = g_strdup_printf ("\nmachine %u %s\n", machine, host);
  const char *start = host ? strstr (text, heading) : strchr (text, '\n');
  g_assert_nonnull (start);
  start += host ? strlen (heading) : 1;
  const char *end = strstr (start, "\nmachine ");
  return end ? g_strndup (start, (gsize) (end - start) + 1) : g_strdup (start);
}

static void
test_state_at (void)
{
  static const char *const times[] = { "1700000000.0015", "1700000000.003" };
  for (guint i = 0; i < G_N_ELEMENTS (times); i++)
    {
      g_autofree char *at = g_strdup_printf ("--state-at=%s", times[i]);
      g_autofree char *both = report (at, traces.alpha, traces.beta, NULL, NULL);
      g_autofree char *alpha = report (at, traces.alpha, NULL, NULL, NULL);
      g_autofree char *beta = report (at, traces.beta, NULL, NULL, NULL);
      g_autofree char *got_a = state_section (both, 0, "alpha");
      g_autofree char *got_b = state_section (both, 1, "beta");
      g_autofree char *want_a = state_section (alpha, 0, NULL);
      g_autofree char *want_b = state_section (beta, 0, NULL);
      g_assert_cmpstr (got_a, ==, want_a);
      g_assert_cmpstr (got_b, ==, want_b);
      /* pid 5 exists on both, as two processes. */
      g_assert_nonnull (strstr (got_a, "process 5 "));
      g_assert_nonnull (strstr (got_b, "process 5 "));
    }
}

/* Traces of one host are one machine: one set of CPUs and processes. */
static void
test_same_host (void)
{
  g_autoptr (GHashTable) rows = stats_rows (traces.alpha, traces.alpha2);
  g_assert_nonnull (g_hash_table_lookup (rows, "cpu/0"));
  g_assert_null (g_hash_table_lookup (rows, "cpu/machine/0"));
  g_autofree char *state = report ("--state-at=1700000000.003", traces.alpha, traces.alpha2, NULL, NULL);
  g_assert_null (strstr (state, "\nmachine "));
}

/* The real scp capture (one side, host VM1) beside a generated peer (host
 * VM2) over the same seconds: each machine's CPUs, processes and state are
 * those of its trace alone. */
static void
test_scp_with_peer (void)
{
  g_autofree char *scp = ttv_test_dup_shared_ctf_trace ("scp-kernel");
  if (scp == NULL)
    return;
  g_autofree char *peer = ttv_test_dup_tmp_path ("vm2");
  const char *gen[] = { TTV_GEN_PATH, "-q", "-f", "ctf", "--host", "VM2", "-c", "2", "-n", "3000",
                        "--start-time", "1361214076.6", "-o", peer, NULL };
  g_free (ttv_test_run_ok (gen));

  g_autoptr (GHashTable) both = stats_rows (scp, peer);
  g_autoptr (GHashTable) scp_alone = stats_rows (scp, NULL);
  g_autoptr (GHashTable) peer_alone = stats_rows (peer, NULL);
  assert_machine_stats (both, scp_alone, 0);
  assert_machine_stats (both, peer_alone, 1);

  g_autofree char *at_both = report ("--state-at=1361214076.62", scp, peer, NULL, NULL);
  g_autofree char *at_scp = report ("--state-at=1361214076.62", scp, NULL, NULL, NULL);
  g_autofree char *at_peer = report ("--state-at=1361214076.62", peer, NULL, NULL, NULL);
  g_autofree char *got_scp = state_section (at_both, 0, "VM1");
  g_autofree char *got_peer = state_section (at_both, 1, "VM2");
  g_autofree char *want_scp = state_section (at_scp, 0, NULL);
  g_autofree char *want_peer = state_section (at_peer, 0, NULL);
  g_assert_cmpstr (got_scp, ==, want_scp);
  g_assert_cmpstr (got_peer, ==, want_peer);
  ttv_test_remove_tree (peer);
}

/* Traces without a host name (LTTng 0.x) are one machine when they come
 * from one session directory, else one machine each. */
static void
test_session_without_host (void)
{
  g_autofree char *session = ttv_test_dup_tmp_path ("session");
  g_autofree char *one = g_build_filename (session, "one", NULL);
  g_autofree char *two = g_build_filename (session, "two", NULL);
  const char *gen_one[] = { TTV_GEN_PATH, "-q", "-f", "lttng", "-c", "2", "-n", "1500", "-o", one, NULL };
  const char *gen_two[] = { TTV_GEN_PATH, "-q", "-f", "lttng", "-s", "2", "-c", "2", "-n", "1500", "-o", two, NULL };
  g_free (ttv_test_run_ok (gen_one));
  g_free (ttv_test_run_ok (gen_two));

  g_autofree char *together = report ("--state-at=1700000000.001", session, NULL, NULL, NULL);
  g_assert_null (strstr (together, "\nmachine "));
  g_autofree char *apart = report ("--state-at=1700000000.001", one, two, NULL, NULL);
  g_assert_nonnull (strstr (apart, "\nmachine 0 one\n"));
  g_assert_nonnull (strstr (apart, "\nmachine 1 two\n"));
  g_autofree char *host = report ("--filter=trace.host", one, NULL, NULL, NULL);
  g_assert_cmpstr (host, ==, "");
  ttv_test_remove_tree (session);
}

/* trace.host names a machine's traces in filters. */
static void
test_filter_host (void)
{
  g_autofree char *all = report ("-f", "jsonl", traces.alpha, traces.beta, NULL);
  g_autofree char *beta = report ("--filter=trace.host == \"beta\"", "-f", "jsonl", traces.alpha, traces.beta);
  g_autofree char *not_beta = report ("--filter=trace.host != be*", "-f", "jsonl", traces.alpha, traces.beta);
  g_autoptr (GPtrArray) all_b = jsonl_of_trace (all, "beta");
  g_autoptr (GPtrArray) got_b = jsonl_of_trace (beta, "beta");
  g_autoptr (GPtrArray) got_a = jsonl_of_trace (beta, "alpha");
  g_autoptr (GPtrArray) not_b = jsonl_of_trace (not_beta, "beta");
  g_autoptr (GPtrArray) not_a = jsonl_of_trace (not_beta, "alpha");
  g_autoptr (GPtrArray) all_a = jsonl_of_trace (all, "alpha");
  ttv_test_assert_same_lines (got_b, all_b);
  g_assert_cmpuint (got_a->len, ==, 0);
  g_assert_cmpuint (not_b->len, ==, 0);
  ttv_test_assert_same_lines (not_a, all_a);
}

static void
test_gen_host_bad (void)
{
  static const TtvTestBadRun cases[] = {
    { { "--host", "", "-o", "unused", NULL }, 2, "--host" },
    { { "--host", "a<b", "-o", "unused", NULL }, 2, "is not a host name" },
    { { "-f", "lttng", "--host", "gamma", "-o", "unused", NULL }, 2, "LTTng 0.x traces do not record a host name" },
    /* Not UTF-8 (or not ASCII in the C locale): the option is named. */
    { { "--host", "al\xff" "pha", "-o", "unused", NULL }, 2, "--host: the value is not " },
    { { "--clock-offset=0.\xfe", "--machines=2", "-o", "unused", NULL }, 2, "--clock-offset: the value is not " },
  };
  ttv_test_assert_runs_fail (TTV_GEN_PATH, cases, G_N_ELEMENTS (cases));
}

/* ttv-report --analysis cpu -f jsonl's rows: "cpus/CPU" -> busy ns and
 * "threads/TID" -> "tgid,name,cpu_time", each under "MACHINE/" when the
 * rows name their machine. */
static GHashTable *
cpu_rows (const char *t1, const char *t2)
{
  const char *argv[] = { TTV_REPORT_PATH, "--analysis", "cpu", "-f", "jsonl", t1, t2, NULL };
  g_autofree char *out = ttv_test_run_ok (argv);
  g_auto (GStrv) lines = g_strsplit (out, "\n", -1);
  GHashTable *rows = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  for (guint i = 0; lines[i]; i++)
    {
      g_autofree char *table = ttv_test_json_text (lines[i], "table");
      g_autofree char *machine = ttv_test_json_text (lines[i], "machine");
      g_autofree char *prefix = machine ? g_strdup_printf ("%s/", machine) : g_strdup ("");
      if (g_strcmp0 (table, "cpus") == 0)
        {
          g_autofree char *cpu = ttv_test_json_text (lines[i], "cpu");
          g_hash_table_insert (rows, g_strdup_printf ("%scpus/%s", prefix, cpu), ttv_test_json_text (lines[i], "busy"));
        }
      else if (g_strcmp0 (table, "threads") == 0)
        {
          g_autofree char *tid = ttv_test_json_text (lines[i], "tid");
          g_autofree char *tgid = ttv_test_json_text (lines[i], "tgid");
          g_autofree char *name = ttv_test_json_text (lines[i], "name");
          g_autofree char *time = ttv_test_json_text (lines[i], "cpu_time");
          g_hash_table_insert (rows, g_strdup_printf ("%sthreads/%s", prefix, tid),
                               g_strdup_printf ("%s,%s,%s", tgid, name, time));
        }
    }
  return rows;
}

/* Every row of @alone is in @both under @machine, the same. */
static void
assert_machine_rows (GHashTable *both, GHashTable *alone, const char *machine)
{
  GHashTableIter it;
  gpointer key, value;
  g_hash_table_iter_init (&it, alone);
  while (g_hash_table_iter_next (&it, &key, &value))
    {
      g_autofree char *mkey = g_strdup_printf ("%s/%s", machine, (const char *) key);
      const char *got = g_hash_table_lookup (both, mkey);
      if (g_strcmp0 (got, value) != 0)
        g_error ("%s: %s, alone %s: %s", mkey, got ? got : "(none)", (const char *) key, (const char *) value);
    }
}

/* --analysis cpu over two machines whose CPUs and threads have the same
 * numbers and other loads: each machine's CPU busy times (its own "all"
 * included) and threads' CPU times are those of its trace alone, under a
 * machine column; and nothing else. */
static void
test_analysis_cpu_per_machine (void)
{
  g_autoptr (GHashTable) both = cpu_rows (traces.alpha, traces.beta);
  g_autoptr (GHashTable) alpha = cpu_rows (traces.alpha, NULL);
  g_autoptr (GHashTable) beta = cpu_rows (traces.beta, NULL);
  assert_machine_rows (both, alpha, "alpha");
  assert_machine_rows (both, beta, "beta");
  g_assert_cmpuint (g_hash_table_size (both), ==, g_hash_table_size (alpha) + g_hash_table_size (beta));
  /* 2 and 3 CPUs, and each machine's all. */
  g_assert_nonnull (g_hash_table_lookup (both, "alpha/cpus/all"));
  g_assert_nonnull (g_hash_table_lookup (both, "beta/cpus/2"));
  g_assert_null (g_hash_table_lookup (both, "alpha/cpus/2"));
  g_assert_null (g_hash_table_lookup (alpha, "alpha/cpus/0"));
  /* The same numbers carry other loads: read as one machine, they would
   * have been summed. */
  g_assert_cmpstr (g_hash_table_lookup (alpha, "cpus/0"), !=, g_hash_table_lookup (beta, "cpus/0"));
  guint shared = 0;
  GHashTableIter it;
  gpointer key, value;
  g_hash_table_iter_init (&it, alpha);
  while (g_hash_table_iter_next (&it, &key, &value))
    if (g_str_has_prefix (key, "threads/") && g_hash_table_lookup (beta, key)
        && g_strcmp0 (g_hash_table_lookup (beta, key), value) != 0)
      shared++;
  g_assert_cmpuint (shared, >=, 5);

  /* The text: a machine column with two, none with one. */
  g_autofree char *text = report ("--analysis", "cpu", "--bins=2", traces.alpha, traces.beta);
  g_assert_nonnull (strstr (text, "Machine"));
  g_assert_nonnull (strstr (text, "\nbeta "));
  g_assert_nonnull (strstr (text, "beta/cpu2"));
  g_assert_nonnull (strstr (text, "alpha/all"));
  g_autofree char *one = report ("--analysis", "cpu", "--bins=2", traces.alpha, traces.alpha2);
  g_assert_null (strstr (one, "Machine"));
  g_assert_null (strstr (one, "alpha/"));
}

/* The JSON lines of ttv-report --analysis ARGS over a window both machines
 * were traced in (the rates are of the window), on @t1 (and @t2). */
static GPtrArray *
report_lines (const char *const *args, gboolean whole, const char *t1, const char *t2)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  const char *fixed[] = { TTV_REPORT_PATH, "-f", "jsonl", "--start", "1700000000.001", "--end", "1700000000.1" };
  for (guint i = 0; i < (whole ? 3 : G_N_ELEMENTS (fixed)); i++)
    g_ptr_array_add (argv, (gpointer) fixed[i]);
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, (gpointer) t1);
  if (t2)
    g_ptr_array_add (argv, (gpointer) t2);
  g_ptr_array_add (argv, NULL);
  g_autofree char *out = ttv_test_run_ok ((const char *const *) argv->pdata);
  g_auto (GStrv) lines = g_strsplit (out, "\n", -1);
  GPtrArray *kept = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; lines[i]; i++)
    if (*lines[i])
      g_ptr_array_add (kept, g_strdup (lines[i]));
  return kept;
}

static GPtrArray *
window_lines (const char *const *args, const char *t1, const char *t2)
{
  return report_lines (args, FALSE, t1, t2);
}

/* The lines of @both of machine @machine, without their machine member,
 * are the lines of @alone, in order. */
static void
assert_machine_lines (GPtrArray *both, GPtrArray *alone, const char *machine)
{
  g_autofree char *member = g_strdup_printf (",\"machine\":\"%s\"", machine);
  guint n = 0;
  for (guint i = 0; i < both->len; i++)
    {
      const char *at = strstr (both->pdata[i], member);
      if (at == NULL)
        continue;
      g_autoptr (GString) line = g_string_new (both->pdata[i]);
      g_string_erase (line, at - (const char *) both->pdata[i], strlen (member));
      g_assert_cmpuint (n, <, alone->len);
      g_assert_cmpstr (line->str, ==, alone->pdata[n]);
      n++;
    }
  g_assert_cmpuint (n, ==, alone->len);
}

/* --analysis sched over two machines with the same pids: each machine's
 * statistics (wakeup latency by priority, blocked time by call) and one
 * thread's records are those of its trace alone; the first machine's and
 * the second's differ. */
static void
test_analysis_sched_per_machine (void)
{
  static const char *const stats[] = { "--analysis", "sched", NULL };
  g_autoptr (GPtrArray) both = window_lines (stats, traces.alpha, traces.beta);
  g_autoptr (GPtrArray) alpha = window_lines (stats, traces.alpha, NULL);
  g_autoptr (GPtrArray) beta = window_lines (stats, traces.beta, NULL);
  g_assert_cmpuint (alpha->len, >, 4);
  g_assert_cmpuint (beta->len, >, 4);
  assert_machine_lines (both, alpha, "alpha");
  assert_machine_lines (both, beta, "beta");
  g_assert_cmpuint (both->len, ==, alpha->len + beta->len);

  /* One thread's records, by HOST:TID. */
  g_autoptr (GPtrArray) tids = window_lines ((const char *const[]) { "--analysis", "cpu", NULL }, traces.beta, NULL);
  guint checked = 0;
  for (guint i = 0; i < tids->len && checked < 3; i++)
    {
      g_autofree char *table = ttv_test_json_text (tids->pdata[i], "table");
      g_autofree char *tid = ttv_test_json_text (tids->pdata[i], "tid");
      if (g_strcmp0 (table, "threads") != 0 || g_strcmp0 (tid, "0") == 0)
        continue;
      g_autofree char *on_beta = g_strdup_printf ("--tid=beta:%s", tid);
      g_autofree char *plain = g_strdup_printf ("--tid=%s", tid);
      const char *args_both[] = { "--analysis", "sched", "--records", on_beta, NULL };
      const char *args_alone[] = { "--analysis", "sched", "--records", plain, NULL };
      g_autoptr (GPtrArray) rb = window_lines (args_both, traces.alpha, traces.beta);
      g_autoptr (GPtrArray) ra = window_lines (args_alone, traces.beta, NULL);
      /* The headings' counts aside (text only), the records are the same. */
      assert_machine_lines (rb, ra, "beta");
      checked++;
    }
  g_assert_cmpuint (checked, ==, 3);
}

/* --analysis irq (futex) over two machines whose CPUs and IRQ lines (pids)
 * have the same numbers: each machine's statistics per line and vector
 * (their names its own; per address) and its records are those of its
 * trace alone. */
static void
check_stats_and_records (const char *analysis, const char *table, guint min_in_window)
{
  const char *const stats[] = { "--analysis", analysis, NULL };
  const char *const records[] = { "--analysis", analysis, "--records", "--table", table, NULL };
  for (guint k = 0; k < 2; k++)
    {
      /* The statistics over the window (their rates are of it), the
       * records over each trace's whole (they do not depend on it). */
      const char *const *args = k ? records : stats;
      g_autoptr (GPtrArray) both = report_lines (args, k, traces.alpha, traces.beta);
      g_autoptr (GPtrArray) alpha = report_lines (args, k, traces.alpha, NULL);
      g_autoptr (GPtrArray) beta = report_lines (args, k, traces.beta, NULL);
      guint min_alpha = min_in_window;
      g_assert_cmpuint (alpha->len, >=, min_alpha);
      g_assert_cmpuint (beta->len, >=, 1);
      assert_machine_lines (both, alpha, "alpha");
      assert_machine_lines (both, beta, "beta");
      g_assert_cmpuint (both->len, ==, alpha->len + beta->len);
    }
}

/* The lines of the block analysis' devices and processes tables. */
static GPtrArray *
usage_lines (const char *const *argv)
{
  g_autofree char *out = ttv_test_run_ok (argv);
  g_auto (GStrv) lines = g_strsplit (out, "\n", -1);
  GPtrArray *kept = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; lines[i]; i++)
    {
      g_autofree char *table = ttv_test_json_text (lines[i], "table");
      if (g_strcmp0 (table, "devices") == 0 || g_strcmp0 (table, "processes") == 0)
        g_ptr_array_add (kept, g_strdup (lines[i]));
    }
  return kept;
}

/* Over the whole span of two captures years apart (issue 19), a thread's
 * critical path is its path on its own trace: it ends where its machine's
 * trace ends, not preempted through the other machine's years (it was
 * 200000000 s "preempted" before). */
static void
test_analysis_critical_path_far_apart (void)
{
  g_autofree char *old = ttv_test_dup_tmp_path ("path-2017");
  g_autofree char *new = ttv_test_dup_tmp_path ("path-2023");
  generate (old, "ctf", "alpha", "1", "2", "1500000000");
  generate (new, "ctf", "beta", "2", "3", "1700000000");
  for (guint tid = 1; tid <= 12; tid += 3)
    {
      g_autofree char *named = g_strdup_printf ("--tid=alpha:%u", tid);
      g_autofree char *plain = g_strdup_printf ("--tid=%u", tid);
      const char *args_both[] = { "--analysis", "critical-path", named, NULL };
      const char *args_alone[] = { "--analysis", "critical-path", plain, NULL };
      g_autoptr (GPtrArray) both = report_lines (args_both, TRUE, old, new);
      g_autoptr (GPtrArray) alone = report_lines (args_alone, TRUE, old, NULL);
      g_assert_cmpuint (both->len, >, 0);
      g_assert_cmpuint (both->len, ==, alone->len);
      for (guint i = 0; i < alone->len; i++)
        g_assert_cmpstr (both->pdata[i], ==, alone->pdata[i]);
    }
}

static void
test_analysis_irq_per_machine (void)
{
  check_stats_and_records ("irq", "irqs", 2);
}

static void
test_analysis_syscalls_per_machine (void)
{
  check_stats_and_records ("syscalls", "calls", 2);
}

static void
test_analysis_futex_per_machine (void)
{
  /* The first machine's trace (LTT) does not give the futex calls'
   * arguments: its waits are none, alone or beside the second's. */
  check_stats_and_records ("futex", "waits", 0);
}

/* Two machines' disks of the same number (8:0) are two disks: each
 * machine's devices, processes, statistics and requests are those of its
 * trace alone (they were one disk's, with requests of one machine
 * completed by the other's). */
static void
test_analysis_block_per_machine (void)
{
  /* The first machine's requests come after the window: its statistics
   * there are none, its records are checked. */
  check_stats_and_records ("block", "requests", 0);

  /* Bytes and rates per device and process over a window where both
   * machines read and write, longer than the second's trace: a machine's
   * rates are over its own trace's time, as on it alone. */
  const char *argv[] = { TTV_REPORT_PATH, "-f", "jsonl", "--start", "1700000000.05", "--end", "1700000001.2",
                         "--analysis", "block", traces.alpha, traces.beta, NULL };
  g_autoptr (GPtrArray) both = usage_lines (argv);
  argv[10] = NULL;
  g_autoptr (GPtrArray) alpha = usage_lines (argv);
  argv[9] = traces.beta;
  g_autoptr (GPtrArray) beta = usage_lines (argv);
  g_assert_cmpuint (alpha->len, >=, 2);
  g_assert_cmpuint (beta->len, >=, 2);
  assert_machine_lines (both, alpha, "alpha");
  assert_machine_lines (both, beta, "beta");
  g_assert_cmpuint (both->len, ==, alpha->len + beta->len);
}

/* --analysis critical-path --tid HOST:TID over two machines is the path of
 * that thread on its machine, as on its trace alone (a pid of both
 * machines has two); without HOST, or with an unknown one, ttv-report says
 * which machines there are. */
static void
test_analysis_critical_path_per_machine (void)
{
  static const char *const hosts[] = { "alpha", "beta" };
  const char *alone_traces[] = { traces.alpha, traces.beta };
  guint differ = 0;
  for (guint tid = 1; tid <= 12; tid++)
    {
      GPtrArray *paths[2] = { NULL, NULL };
      for (guint m = 0; m < 2; m++)
        {
          g_autofree char *named = g_strdup_printf ("--tid=%s:%u", hosts[m], tid);
          g_autofree char *plain = g_strdup_printf ("--tid=%u", tid);
          const char *args_both[] = { "--analysis", "critical-path", named, NULL };
          const char *args_alone[] = { "--analysis", "critical-path", plain, NULL };
          paths[m] = window_lines (args_both, traces.alpha, traces.beta);
          g_autoptr (GPtrArray) alone = window_lines (args_alone, alone_traces[m], NULL);
          g_assert_cmpuint (paths[m]->len, ==, alone->len);
          for (guint i = 0; i < alone->len; i++)
            g_assert_cmpstr (paths[m]->pdata[i], ==, alone->pdata[i]);
        }
      gboolean same = paths[0]->len == paths[1]->len;
      for (guint i = 0; same && i < paths[0]->len; i++)
        same = g_str_equal (paths[0]->pdata[i], paths[1]->pdata[i]);
      differ += !same;
      g_ptr_array_unref (paths[0]);
      g_ptr_array_unref (paths[1]);
    }
  g_assert_cmpuint (differ, >=, 3);

  const char *a = traces.alpha, *b = traces.beta;
  const TtvTestBadRun cases[] = {
    { { "--analysis", "critical-path", "--tid=2", a, b, NULL }, 2,
      "several machines (alpha, beta): which one's thread? (--tid HOST:TID)" },
    { { "--analysis", "critical-path", "--tid=gamma:2", a, b, NULL }, 2,
      "--tid: no machine gamma in the traces (their machines: alpha, beta)" },
    { { "--analysis", "sched", "--tid=gamma:2", a, NULL }, 2, "--tid: no machine gamma" },
    { { "--analysis", "sched", "--tid=alpha:", a, NULL }, 2, "--tid: expected a thread's number" },
    { { "--analysis", "sched", "--tid=:2", a, NULL }, 2, "--tid: expected a thread's number" },
    { { "--analysis", "sched", "--tid=-1", a, NULL }, 2, "--tid: expected a thread's number" },
  };
  ttv_test_assert_runs_fail (TTV_REPORT_PATH, cases, G_N_ELEMENTS (cases));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  setup_traces ();
  g_test_add_func ("/machines/stats", test_stats);
  g_test_add_func ("/machines/state-lines", test_state_lines);
  g_test_add_func ("/machines/state-at", test_state_at);
  g_test_add_func ("/machines/same-host", test_same_host);
  g_test_add_func ("/machines/session-without-host", test_session_without_host);
  g_test_add_func ("/machines/scp-kernel-with-peer", test_scp_with_peer);
  g_test_add_func ("/machines/filter-host", test_filter_host);
  g_test_add_func ("/machines/gen-host-bad", test_gen_host_bad);
  g_test_add_func ("/machines/analysis-block-per-machine", test_analysis_block_per_machine);
  g_test_add_func ("/machines/analysis-cpu", test_analysis_cpu_per_machine);
  g_test_add_func ("/machines/analysis-sched", test_analysis_sched_per_machine);
  g_test_add_func ("/machines/analysis-critical-path", test_analysis_critical_path_per_machine);
  g_test_add_func ("/machines/analysis-critical-path-far-apart", test_analysis_critical_path_far_apart);
  g_test_add_func ("/machines/analysis-irq", test_analysis_irq_per_machine);
  g_test_add_func ("/machines/analysis-futex", test_analysis_futex_per_machine);
  g_test_add_func ("/machines/analysis-syscalls", test_analysis_syscalls_per_machine);
  int status = g_test_run ();
  ttv_test_remove_tree (traces.alpha);
  ttv_test_remove_tree (traces.beta);
  ttv_test_remove_tree (traces.alpha2);
  g_free (traces.alpha);
  g_free (traces.beta);
  g_free (traces.alpha2);
  return status;
}
