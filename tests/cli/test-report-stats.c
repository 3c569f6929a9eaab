/* test-report-stats.c: ttv-report --stats (the tree, as CSV) and
 * --stats-tables, run as a user would, against the
 * statistics the tests compute themselves from ttv-report --format=jsonl
 * (tests/common/ttv-stats-oracle.c): counts per event type, CPU and
 * process, CPU time per CPU (busy by mode, idle) and per process and mode,
 * syscall, IRQ and soft IRQ counts and durations and IRQ names, over the
 * whole trace and over a window; on traces ttv-gen writes in each format
 * and on the real CTF kernel traces.  Plus the invariants (parts sum to
 * their whole) and bad input. */
#include "ttv-stats-csv.h"
#include "ttv-stats-oracle.h"
#include "ttv-test-util.h"

#include <glib/gstdio.h>
#include <string.h>

#ifndef TTV_REPORT_PATH
#error "TTV_REPORT_PATH must be defined by the build"
#endif
#ifndef TTV_GEN_PATH
#error "TTV_GEN_PATH must be defined by the build"
#endif

/* --- ttv-report --stats as rows under the oracle's keys ------------------ */

static TtvOracleRow *
put (GHashTable *rows, char *key /* owned */, guint64 count, gint64 total, gint64 min, gint64 max)
{
  TtvOracleRow *r;

  g_assert_false (g_hash_table_contains (rows, key));
  r = ttv_stats_oracle_row (rows, key);
  g_free (key);
  r->count = count;
  r->total = total;
  r->min = min;
  r->max = max;
  return r;
}

/* The words of @line. */
static GPtrArray *
words_of (const char *line)
{
  g_auto (GStrv) w = g_strsplit (line, " ", -1);
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; w[i]; i++)
    if (w[i][0])
      g_ptr_array_add (out, g_strdup (w[i]));
  return out;
}

#define SEC(words, i) ttv_stats_oracle_parse_seconds ((words)->pdata[i])

/* The mode columns after the totals: user syscall trap irq softirq unknown.
 * "base" (user + unknown) is what the oracle can tell apart. */
static void
put_modes (GHashTable *rows, const char *prefix, GPtrArray *w, guint first)
{
  static const char *const modes[] = { NULL, "syscall", "trap", "irq", "softirq" };

  put (rows, g_strdup_printf ("%s/base", prefix), 0, SEC (w, first) + SEC (w, first + 5), -1, -1);
  for (guint m = 1; m < G_N_ELEMENTS (modes); m++)
    put (rows, g_strdup_printf ("%s/%s", prefix, modes[m]), 0, SEC (w, first + m), -1, -1);
}

static GHashTable *
parse_stats (const char *text)
{
  GHashTable *rows = ttv_stats_oracle_rows_new ();
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  const char *section = NULL;

  for (guint i = 0; lines[i]; i++)
    {
      g_autoptr (GPtrArray) w = words_of (lines[i]);
      const char *first;
      guint n = w->len;

      if (n == 0)
        {
          section = NULL;
          continue;
        }
      first = w->pdata[0];
      if (!section)
        {
          if (strcmp (first, "events") == 0)
            put (rows, g_strdup ("traceset"), g_ascii_strtoull (w->pdata[1], NULL, 10), 0, -1, -1);
          else
            section = g_intern_string (strcmp (first, "event") == 0 ? "type" : first);
          continue;
        }
      if (strcmp (section, "type") == 0)
        put (rows, g_strdup_printf ("type/%s", first), g_ascii_strtoull (w->pdata[1], NULL, 10), 0, -1, -1);
      else if (strcmp (section, "cpu") == 0)
        {
          g_autofree char *prefix = g_strdup_printf ("cpu/%s", first);

          g_assert_cmpuint (n, ==, 10);
          put (rows, g_strdup (prefix), g_ascii_strtoull (w->pdata[1], NULL, 10), SEC (w, 2), -1, -1);
          put (rows, g_strdup_printf ("%s/idle", prefix), 0, SEC (w, 3), -1, -1);
          put_modes (rows, prefix, w, 4);
        }
      else if (strcmp (section, "pid") == 0)
        {
          /* pid name… events cpu user syscall trap irq softirq unknown */
          g_autofree char *prefix = g_strdup_printf ("process/%s", first);

          g_assert_cmpuint (n, >=, 10);
          put (rows, g_strdup (prefix), g_ascii_strtoull (w->pdata[n - 8], NULL, 10), SEC (w, n - 7), -1, -1);
          put_modes (rows, prefix, w, n - 6);
        }
      else if (strcmp (section, "syscall") == 0)
        {
          g_assert_cmpuint (n, ==, 5);
          put (rows, g_strdup_printf ("syscall/%s", first), g_ascii_strtoull (w->pdata[1], NULL, 10),
               SEC (w, 2), SEC (w, 3), SEC (w, 4));
        }
      else if (strcmp (section, "irq") == 0 || strcmp (section, "softirq") == 0)
        {
          /* number name… count total min max */
          TtvOracleRow *r;

          g_assert_cmpuint (n, >=, 6);
          r = put (rows, g_strdup_printf ("%s/%s", section, first), g_ascii_strtoull (w->pdata[n - 4], NULL, 10),
                   SEC (w, n - 3), SEC (w, n - 2), SEC (w, n - 1));
          g_ptr_array_set_size (w, n - 4);
          g_ptr_array_remove_index (w, 0);
          g_ptr_array_add (w, NULL);
          r->name = g_strjoinv (" ", (char **) w->pdata);
          if (strcmp (r->name, "-") == 0)
            g_clear_pointer (&r->name, g_free);
        }
      else
        g_error ("unexpected section %s in the --stats output", section);
    }
  return rows;
}

/* --- Checks ------------------------------------------------------------------ */

/* Each CPU's busy and idle time together cover at most the window. */
static void
assert_within (GHashTable *rows, gint64 span)
{
  GHashTableIter it;
  gpointer key, value;

  g_hash_table_iter_init (&it, rows);
  while (g_hash_table_iter_next (&it, &key, &value))
    if (g_str_has_prefix (key, "cpu/") && !strchr ((char *) key + 4, '/'))
      {
        g_autofree char *idle = g_strdup_printf ("%s/idle", (char *) key);
        gint64 covered = ((TtvOracleRow *) value)->total + ttv_stats_oracle_lookup (rows, idle)->total;

        g_assert_cmpint (covered, <=, span);
      }
}

/* --- Cases -------------------------------------------------------------------- */

/* ttv-report --stats, the tree, as CSV: its rows as the oracle's. */
static GHashTable *
report_tree (const char *trace, const char *start, const char *end)
{
  const char *whole[] = { TTV_REPORT_PATH, "--stats", "--format=csv", trace, NULL };
  const char *window[] = { TTV_REPORT_PATH, "--stats", "--format=csv", "--start", start, "--end", end, trace, NULL };
  g_autofree char *text = ttv_test_run_ok (start ? window : whole);
  g_autoptr (GHashTable) csv = ttv_stats_csv_parse (text, NULL);

  ttv_stats_csv_assert_group_sums (csv);
  return ttv_stats_csv_to_oracle (csv);
}

/* The tree (--stats) and the tables (--stats-tables) against the oracle. */
static void
check_trace (const char *trace)
{
  const char *argv[] = { TTV_REPORT_PATH, "--stats-tables", trace, NULL };
  g_autofree char *text = ttv_test_run_ok (argv);
  g_autoptr (GHashTable) got = parse_stats (text);
  g_autoptr (GHashTable) tree = report_tree (trace, NULL, NULL);
  gint64 first, last, a, b;
  /* The whole trace, and a window from 30% to 60% of the events' span
   * (CPU time clipped to it). */
  g_autoptr (GPtrArray) want = ttv_stats_oracle_compute_whole_and_window (TTV_REPORT_PATH, trace, &a, &b);

  ttv_test_trace_span (trace, &first, &last);
  ttv_stats_oracle_assert_same (got, want->pdata[0], "whole trace");
  ttv_stats_oracle_assert_sums (got);
  assert_within (got, last - first);
  ttv_stats_oracle_assert_same (tree, want->pdata[0], "whole trace, tree");
  ttv_stats_oracle_assert_sums (tree);
  {
    g_autofree char *sa = ttv_test_dup_seconds (a), *sb = ttv_test_dup_seconds (b);
    const char *wargv[] = { TTV_REPORT_PATH, "--stats-tables", "--start", sa, "--end", sb, trace, NULL };
    g_autofree char *wtext = ttv_test_run_ok (wargv);
    g_autoptr (GHashTable) wgot = parse_stats (wtext);
    g_autoptr (GHashTable) wtree = report_tree (trace, sa, sb);

    ttv_stats_oracle_assert_same (wgot, want->pdata[1], "window");
    ttv_stats_oracle_assert_sums (wgot);
    assert_within (wgot, b - a);
    ttv_stats_oracle_assert_same (wtree, want->pdata[1], "window, tree");
    ttv_stats_oracle_assert_sums (wtree);
    g_assert_cmpuint (ttv_stats_oracle_lookup (wgot, "traceset")->count, <,
                      ttv_stats_oracle_lookup (got, "traceset")->count);
  }
}

static void
test_generated (gconstpointer data)
{
  const char *format = data;
  const char *dir = ttv_test_get_tmp_dir ();
  g_autofree char *trace = g_build_filename (dir, "trace", NULL);
  const char *argv[] = { TTV_GEN_PATH, "-q", "-f", format, "--cpu-ids", "0,1,3,6", "-p", "30",
                         "-n", "30000", "-s", "7", "-o", trace, NULL };
  g_free (ttv_test_run_ok (argv));

  check_trace (trace);
}

static void
test_real_ctf (gconstpointer data)
{
  g_autofree char *path = ttv_test_dup_shared_ctf_trace (data);

  if (path)
    check_trace (path);
}

/* The idle task's time is the CPUs' idle time: not a process's user time,
 * and not at the top of the processes by CPU time. */
static void
test_idle (void)
{
  const char *dir = ttv_test_get_tmp_dir ();
  g_autofree char *trace = g_build_filename (dir, "trace", NULL);
  const char *gen[] = { TTV_GEN_PATH, "-q", "--cpu-ids", "0,2", "-p", "8", "-n", "20000", "-o", trace, NULL };
  const char *argv[] = { TTV_REPORT_PATH, "--stats-tables", trace, NULL };
  g_free (ttv_test_run_ok (gen));
  g_autofree char *text = ttv_test_run_ok (argv);
  g_autoptr (GHashTable) rows = parse_stats (text);
  gint64 idle = ttv_stats_oracle_lookup (rows, "cpu/0/idle")->total
                + ttv_stats_oracle_lookup (rows, "cpu/2/idle")->total;
  gint64 swapper = ttv_stats_oracle_lookup (rows, "process/0")->total, top = 0;
  GHashTableIter it;
  gpointer key, value;

  g_assert_cmpint (ttv_stats_oracle_lookup (rows, "process/0/base")->total, ==, 0);
  g_assert_cmpint (idle, >, 10 * swapper);
  g_hash_table_iter_init (&it, rows);
  while (g_hash_table_iter_next (&it, &key, &value))
    if (g_str_has_prefix (key, "process/") && !strchr ((char *) key + 8, '/'))
      top = MAX (top, ((TtvOracleRow *) value)->total);
  g_assert_cmpint (swapper, <, top);
}

/* --- What the tracer lost ------------------------------------------------------ */

/* The count of row @key of a --stats CSV, 0 when the row is absent. */
static guint64
lost_row (GHashTable *csv, const char *key)
{
  const TtvStatsCsvRow *r = g_hash_table_lookup (csv, key);

  return r ? r->count : 0;
}

/* ttv-report --stats --format=csv of @trace (from @start to @end when
 * not NULL), its groups checked. */
static GHashTable *
report_csv (const char *trace, const char *start, const char *end)
{
  const char *whole[] = { TTV_REPORT_PATH, "--stats", "--format=csv", trace, NULL };
  const char *window[] = { TTV_REPORT_PATH, "--stats", "--format=csv", "--start", start, "--end", end, trace, NULL };
  g_autofree char *text = ttv_test_run_ok (start ? window : whole);
  GHashTable *csv = ttv_stats_csv_parse (text, NULL);

  ttv_stats_csv_assert_group_sums (csv);
  return csv;
}

/* Whether any row of @csv is about losses. */
static gboolean
has_lost_rows (GHashTable *csv)
{
  GHashTableIter it;
  gpointer key;

  g_hash_table_iter_init (&it, csv);
  while (g_hash_table_iter_next (&it, &key, NULL))
    if (g_str_has_prefix (key, "lost"))
      return TRUE;
  return FALSE;
}

/* The start and end (ns) of the lost range ttv-report --format=jsonl
 * prints with "@what":@count. */
static void
lost_range_times (const char *jsonl, const char *what, guint64 count, gint64 *start, gint64 *end)
{
  g_autoptr (GPtrArray) lines = ttv_test_lines_of (jsonl);

  for (guint i = 0; i < lines->len; i++)
    {
      const char *line = lines->pdata[i];
      g_autofree char *field = g_strdup_printf ("\"%s\":%" G_GUINT64_FORMAT ",", what, count);
      const char *s = strstr (line, "\"start_ns\":"), *e = strstr (line, "\"end_ns\":");

      if (!g_str_has_prefix (line, "{\"lost_events\"") || !strstr (line, field))
        continue;
      g_assert_nonnull (s);
      g_assert_nonnull (e);
      *start = g_ascii_strtoll (s + strlen ("\"start_ns\":"), NULL, 10);
      *end = g_ascii_strtoll (e + strlen ("\"end_ns\":"), NULL, 10);
      return;
    }
  g_error ("no lost range with %s %" G_GUINT64_FORMAT " in:\n%s", what, count, jsonl);
}

/* Issue 14 §3.6: --stats says what the tracer lost, as --stats-tables and
 * the event list do: the events and the whole packets, by trace and
 * tracefile, in text, JSON lines and CSV; in a window only the losses
 * within it; none in a window before them. */
static void
test_lost (void)
{
  /* 2 packets lost after packet 2, 9 events discarded in packet 6. */
  static const TtvTestLostOptions lost = { .ctf2 = TRUE, .later_discarded = 9, .skip_packets = TRUE };
  g_autofree char *trace = ttv_test_write_lost_ctf ("lost", &lost);
  const char *tables[] = { TTV_REPORT_PATH, "--stats-tables", trace, NULL };
  const char *text_argv[] = { TTV_REPORT_PATH, "--stats", trace, NULL };
  const char *jsonl_argv[] = { TTV_REPORT_PATH, "--stats", "--format=jsonl", trace, NULL };
  const char *events_argv[] = { TTV_REPORT_PATH, "--format=jsonl", trace, NULL };
  g_autofree char *tables_out = ttv_test_run_ok (tables);
  g_autofree char *text = ttv_test_run_ok (text_argv);
  g_autofree char *jsonl = ttv_test_run_ok (jsonl_argv);
  g_autofree char *events = ttv_test_run_ok (events_argv);
  g_autoptr (GHashTable) whole = report_csv (trace, NULL, NULL);
  gint64 first, last, ps, pe, es, ee;

  g_assert_nonnull (strstr (tables_out, "lost by the tracer: 9 events, 2 packets, in 2 ranges"));
  g_assert_cmpuint (lost_row (whole, "lost-events"), ==, 9);
  g_assert_cmpuint (lost_row (whole, "lost-events/trace/0"), ==, 9);
  g_assert_cmpuint (lost_row (whole, "lost-events/trace/0/channel0_0"), ==, 9);
  g_assert_cmpuint (lost_row (whole, "lost-packets"), ==, 2);
  g_assert_cmpuint (lost_row (whole, "lost-packets/trace/0"), ==, 2);
  g_assert_cmpuint (lost_row (whole, "lost-packets/trace/0/channel0_0"), ==, 2);
  g_assert_cmpstr (((TtvStatsCsvRow *) g_hash_table_lookup (whole, "lost-events"))->name, ==, "Lost events");
  g_assert_cmpstr (((TtvStatsCsvRow *) g_hash_table_lookup (whole, "lost-packets"))->name, ==, "Lost packets");
  /* The text: the groups and the tracefile, indented under their trace. */
  g_assert_true (g_regex_match_simple ("^  Lost events +9$", text, G_REGEX_MULTILINE, 0));
  g_assert_true (g_regex_match_simple ("^  Lost packets +2$", text, G_REGEX_MULTILINE, 0));
  g_assert_true (g_regex_match_simple ("^      channel0_0 +9$", text, G_REGEX_MULTILINE, 0));
  g_assert_nonnull (strstr (jsonl, "{\"key\":\"lost-events/trace/0/channel0_0\",\"parent\":\"lost-events/trace/0\","
                                   "\"name\":\"channel0_0\",\"count\":9,"));
  g_assert_nonnull (strstr (jsonl, "{\"key\":\"lost-packets\",\"parent\":\"traceset\",\"name\":\"Lost packets\","
                                   "\"count\":2,"));

  /* Windows: before the losses, around the lost packets only, around the
   * discarded events only. */
  ttv_test_trace_span (trace, &first, &last);
  lost_range_times (events, "lost_packets", 2, &ps, &pe);
  lost_range_times (events, "lost_events", 9, &es, &ee);
  g_assert_cmpint (pe, <, es);
  {
    g_autofree char *a = ttv_test_dup_seconds (first), *b = ttv_test_dup_seconds (ps - 1);
    g_autoptr (GHashTable) csv = report_csv (trace, a, b);

    g_assert_false (has_lost_rows (csv));
  }
  {
    g_autofree char *a = ttv_test_dup_seconds (ps), *b = ttv_test_dup_seconds (pe);
    g_autoptr (GHashTable) csv = report_csv (trace, a, b);

    g_assert_cmpuint (lost_row (csv, "lost-packets/trace/0/channel0_0"), ==, 2);
    g_assert_null (g_hash_table_lookup (csv, "lost-events"));
  }
  {
    g_autofree char *a = ttv_test_dup_seconds (ee), *b = ttv_test_dup_seconds (last);
    g_autoptr (GHashTable) csv = report_csv (trace, a, b);

    g_assert_cmpuint (lost_row (csv, "lost-events/trace/0/channel0_0"), ==, 9);
    g_assert_null (g_hash_table_lookup (csv, "lost-packets"));
  }
}

/* A trace that lost nothing has no rows about losses. */
static void
test_nothing_lost (void)
{
  static const TtvTestLostOptions lost = { .ctf2 = TRUE };
  g_autofree char *trace = ttv_test_write_lost_ctf ("nothing-lost", &lost);
  g_autoptr (GHashTable) csv = report_csv (trace, NULL, NULL);

  g_assert_false (has_lost_rows (csv));
}

/* Bad input: a message naming what is wrong, the exit status of its kind
 * (1: a trace, 2: usage), no statistics. */
#define BAD_TRACE TTV_TEST_SRCDIR "/data/traces/bad/unknown-event-id"
#define GOOD_TRACE TTV_TEST_SRCDIR "/data/traces/good/small-ltt"

static const TtvTestBadRun bad_cases[] = {
  { { "--stats", "/nonexistent/trace" }, 1, "/nonexistent/trace" },
  { { "--stats-tables", "/nonexistent/trace" }, 1, "/nonexistent/trace" },
  { { "--stats", BAD_TRACE }, 1, "unknown-event-id/cpu/0: byte offset 1052 (block 1): unknown event id 32766" },
  { { "--stats", "--stats-tables", GOOD_TRACE }, 2, "--stats and --stats-tables cannot be used together" },
  { { "--stats-tables", "--format=csv", GOOD_TRACE }, 2, "--stats-tables prints text tables only" },
  { { "--stats", "--format=babeltrace", GOOD_TRACE }, 2, "--stats and --density print text, jsonl or csv" },
  { { "--stats", "--format=folded", GOOD_TRACE }, 2, "--stats and --density print text, jsonl or csv" },
  { { "--format=csv", GOOD_TRACE }, 2, "--format=csv goes with --stats, --density and --analysis" },
  { { "--stats", "--follow", GOOD_TRACE }, 2, "cannot be used with --stats" },
  { { "--stats", "--start", "+0.009", "--end", "+0.001", GOOD_TRACE }, 2, "is after --end" },
};

static void
test_bad_input (void)
{
  ttv_test_assert_runs_fail (TTV_REPORT_PATH, bad_cases, G_N_ELEMENTS (bad_cases));
}

/* Past damaged blocks (--keep-going): the tree of what could be read, the
 * damage named, exit status 1. */
static void
test_keep_going (void)
{
  const char *argv[] = { TTV_REPORT_PATH, "--stats", "--format=csv", "--keep-going", BAD_TRACE, NULL };
  g_auto (TtvTestRun) r = { 0 };
  g_autoptr (GHashTable) csv = NULL;

  ttv_test_run (&r, NULL, NULL, argv);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "damaged data skipped"));
  g_assert_nonnull (strstr (r.err, "unknown-event-id/cpu/0: byte offset 1052"));
  csv = ttv_stats_csv_parse (r.out, NULL);
  g_assert_cmpuint (((TtvStatsCsvRow *) g_hash_table_lookup (csv, "traceset"))->count, >, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_data_func ("/report-stats/generated/ltt", "ltt", test_generated);
  g_test_add_data_func ("/report-stats/generated/lttng", "lttng", test_generated);
  g_test_add_data_func ("/report-stats/generated/ctf", "ctf", test_generated);
  g_test_add_data_func ("/report-stats/ctf/arm64-kernel", "arm64-kernel", test_real_ctf);
  g_test_add_data_func ("/report-stats/ctf/bigendian-kernel", "bigendian-kernel", test_real_ctf);
  g_test_add_data_func ("/report-stats/ctf/scp-kernel", "scp-kernel", test_real_ctf);
  g_test_add_func ("/report-stats/idle", test_idle);
  g_test_add_func ("/report-stats/lost", test_lost);
  g_test_add_func ("/report-stats/nothing-lost", test_nothing_lost);
  g_test_add_func ("/report-stats/bad-input", test_bad_input);
  g_test_add_func ("/report-stats/keep-going", test_keep_going);
  return g_test_run ();
}
