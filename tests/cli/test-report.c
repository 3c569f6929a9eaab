/* test-report.c: ttv-report run as a user runs it: golden outputs on the
 * committed traces in tests/data/traces/good, clear failures on the damaged
 * ones in bad/, and options checked against the full output. */
#include "ttv-test-util.h"

#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>


static const char *
data_dir (void)
{
  return TTV_TEST_SRCDIR "/data/traces";
}

/* Runs ttv-report with @args (NULL-terminated) from the source tree's
 * tests/data/traces, so that paths in messages are short and stable. */
static void
run_report (TtvTestRun *r, const char *const *args)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_ptr_array_add (argv, (gpointer) TTV_REPORT_PATH);
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  ttv_test_run (r, data_dir (), NULL, (const char *const *) argv->pdata);
}

#define RUN(r, ...) run_report (r, (const char *const[]) { __VA_ARGS__, NULL })

static void
check_golden (const char *name, const char *what, const char *output)
{
  g_autofree char *file = g_strdup_printf ("%s/good/%s.%s.expect", data_dir (), name, what);
  if (g_getenv ("TTV_UPDATE_GOLDEN"))
    {
      g_assert_true (g_file_set_contents (file, output, -1, NULL));
      return;
    }
  g_autofree char *expected = NULL;
  g_autoptr (GError) error = NULL;
  if (!g_file_get_contents (file, &expected, NULL, &error))
    g_error ("%s: %s (regenerate with TTV_UPDATE_GOLDEN=1)", file, error->message);
  if (g_strcmp0 (expected, output) != 0)
    {
      g_auto (GStrv) a = g_strsplit (expected, "\n", -1);
      g_auto (GStrv) b = g_strsplit (output, "\n", -1);
      for (guint i = 0; a[i] || b[i]; i++)
        if (g_strcmp0 (a[i], b[i]) != 0)
          g_error ("%s: line %u differs:\nexpected: %s\nactual:   %s", file, i + 1,
                   a[i] ? a[i] : "(end)", b[i] ? b[i] : "(end)");
    }
}

typedef struct {
  const char *name;       /* output kind, the .expect suffix */
  const char *args[4];    /* options before the trace */
} GoldenCase;

static const GoldenCase golden_cases[] = {
  { "text", { NULL } },
  { "jsonl", { "--format=jsonl", NULL } },
  { "info", { "--info", NULL } },
  { "list-events", { "--list-events", NULL } },
  { "state", { "--state", "--position", NULL } },
  { "stats", { "--stats-tables", NULL } },
  { "stats-tree", { "--stats", NULL } },
  { "density", { "--density", "--density-bins=32", "--density-types", NULL } },
  { "state-at", { "--state-at", "+0.005", NULL } },
};

static void
test_golden (gconstpointer data)
{
  const char *trace = data;
  g_autofree char *rel = g_build_filename ("good", trace, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (golden_cases); i++)
    {
      const GoldenCase *c = &golden_cases[i];
      const char *args[8];
      guint n = 0;
      for (guint j = 0; c->args[j]; j++)
        args[n++] = c->args[j];
      args[n++] = rel;
      args[n] = NULL;
      g_auto (TtvTestRun) r;
      run_report (&r, args);
      if (r.status != 0)
        g_error ("ttv-report %s %s: exit %d: %s", c->name, trace, r.status, r.err);
      g_assert_cmpstr (r.err, ==, "");
      check_golden (trace, c->name, r.out);
    }
}

/* A damaged trace: exit 1, and the message names the file and where. */
typedef struct {
  const char *trace;
  int status;
  const char *message;    /* expected inside stderr */
} BadCase;

static const BadCase bad_cases[] = {
  { "bad-last-offset", 1, "bad/bad-last-offset/cpu/2: byte offset 2044: last-event offset 3000" },
  { "malformed-eventdefs", 1, "bad/malformed-eventdefs/eventdefs/core.xml:5: malformed XML" },
  { "missing-system-xml", 1, "bad/missing-system-xml/info/system.xml" },
  { "unknown-event-id", 1, "bad/unknown-event-id/cpu/0: byte offset 1052 (block 1): unknown event id 32766" },
  /* Whole blocks still read, but the events of the partial one are lost:
   * the report is not whole, and its exit status says so. */
  { "truncated-cpu", 1, "damaged data skipped: bad/truncated-cpu/cpu/0: truncated" },
};

static void
test_bad (gconstpointer unused)
{
  for (guint i = 0; i < G_N_ELEMENTS (bad_cases); i++)
    {
      const BadCase *c = &bad_cases[i];
      g_autofree char *rel = g_build_filename ("bad", c->trace, NULL);
      g_auto (TtvTestRun) r;
      RUN (&r, rel);
      if (r.status != c->status || strstr (r.err, c->message) == NULL)
        g_error ("%s: exit %d (want %d), stderr «%s», want «%s»", c->trace, r.status, c->status,
                 r.err, c->message);
    }
}

/* --keep-going on a trace with one damaged block: the damage is named and
 * the exit status is 1, as without it, but the report goes on.  What it
 * prints is the undamaged trace's report (the damaged copy differs only in
 * cpu/0) less one run of consecutive cpu 0 events: the damaged block's. */
static void
test_keep_going (gconstpointer unused)
{
  g_auto (TtvTestRun) good = { 0 };
  g_auto (TtvTestRun) bad = { 0 };
  g_auto (TtvTestRun) kept = { 0 };
  g_autoptr (GPtrArray) all = NULL, got = NULL, stopped = NULL;
  guint g = 0, missing = 0, runs = 0;
  gboolean in_run = FALSE;

  RUN (&good, "good/small-ltt");
  RUN (&bad, "bad/unknown-event-id");
  RUN (&kept, "--keep-going", "bad/unknown-event-id");
  g_assert_cmpint (good.status, ==, 0);
  g_assert_cmpint (bad.status, ==, 1);
  g_assert_cmpint (kept.status, ==, 1);
  g_assert_nonnull (strstr (kept.err, "damaged data skipped: bad/unknown-event-id/cpu/0: byte offset 1052 "
                                      "(block 1): unknown event id 32766"));
  all = ttv_test_lines_of (good.out);
  got = ttv_test_lines_of (kept.out);
  stopped = ttv_test_lines_of (bad.out);
  g_assert_cmpuint (got->len, >, stopped->len);
  for (guint i = 0; i < all->len; i++)
    {
      const char *line = all->pdata[i];
      gboolean cpu0 = strstr (line, " cpu0 ") != NULL;

      if (g < got->len && strcmp (got->pdata[g], line) == 0)
        {
          g++;
          if (cpu0)
            in_run = FALSE;
          continue;
        }
      /* Missing: a cpu 0 event, in the one run of them that is missing. */
      g_assert_true (cpu0);
      missing++;
      if (!in_run)
        runs++;
      in_run = TRUE;
    }
  g_assert_cmpuint (g, ==, got->len);
  g_assert_cmpuint (missing, >, 0);
  g_assert_cmpuint (runs, ==, 1);
}

static void
test_usage (gconstpointer unused)
{
  static const char *const cases[][4] = {
    { "--format=xml", "good/small-ltt", NULL },
    { "--start", "yesterday", "good/small-ltt", NULL },
    { "--end", "1.2.3", "good/small-ltt", NULL },
    { "--after", "not-a-position", "good/small-ltt", NULL },
    { "--count", "many", "good/small-ltt", NULL },
    { "--no-such-option", "good/small-ltt", NULL },
    { "--info", NULL },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto (TtvTestRun) r;
      run_report (&r, cases[i]);
      if (r.status != 2 || !g_str_has_prefix (r.err, "ttv-report: "))
        g_error ("%s: exit %d, stderr «%s»: want exit 2 and a message", cases[i][0], r.status, r.err);
    }
  g_auto (TtvTestRun) r;
  RUN (&r, "good/no-such-trace");
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "good/no-such-trace"));
}

/* Arguments GOption accepts but that make no sense are refused, naming
 * the option; times past the representable range saturate. */
static void
test_arguments (gconstpointer unused)
{
  static const char *const cases[][6] = {
    { "-n", "-1", "good/small-ltt", NULL, "-n: expected a number of events, 0 or more" },
    { "--checkpoint-interval=0", "good/small-ltt", NULL, "--checkpoint-interval: expected a number of events above 0" },
    { "--checkpoint-interval=-5", "good/small-ltt", NULL, "--checkpoint-interval: expected a number of events above 0" },
    { "--start=+0.002", "--end=+0.001", "good/small-ltt", NULL, "--start +0.002 is after --end +0.001" },
    /* Not UTF-8 (LANG=C.UTF-8) or not ASCII (LANG=C). */
    { "--filter", "event.name = \"\xff\"", "good/small-ltt", NULL, "(byte 0xff at byte 14)" },
    { "-d", "sched\xc3", "good/small-ltt", NULL, "-d: the value is not " },
    { "--state-at", "+0.5\xfe", "good/small-ltt", NULL, "--state-at: the value is not " },
    { "--analysis", "cp\xffu", "good/small-ltt", NULL, "--analysis: the value is not " },
    { "--analysis=syscalls", "--table", "c\xff" "alls", "good/small-ltt", NULL, "--table: the value is not " },
    { "--analysis=syscalls", "--group-by=n\xe9", "good/small-ltt", NULL, "--group-by: the value is not " },
    { "--offset", "small-ltt=+\xff" "1", "good/small-ltt", NULL, "--offset: the value is not " },
    { "--state-at=+9223372036.854775807x", "good/small-ltt", NULL, "--state-at: " },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const char *const *argv = cases[i];
      guint n = 0;
      while (argv[n])
        n++;
      const char *want = argv[n + 1];
      g_auto (TtvTestRun) r;
      run_report (&r, argv);
      if (r.status != 2 || strstr (r.err, want) == NULL || !g_utf8_validate (r.err, -1, NULL))
        g_error ("%s: exit %d, stderr «%s»: want exit 2 and «%s»", argv[0], r.status, r.err, want);
    }

  /* --end past the last representable time: everything, as without it;
   * --state-at likewise: the state at the end. */
  g_auto (TtvTestRun) all;
  g_auto (TtvTestRun) to_end;
  g_auto (TtvTestRun) state_end;
  RUN (&all, "good/small-ltt");
  RUN (&to_end, "--start=+0", "--end=+9223372036.854775807", "good/small-ltt");
  g_assert_cmpint (to_end.status, ==, 0);
  g_assert_cmpstr (to_end.out, ==, all.out);
  RUN (&state_end, "--state-at=+9223372036.854775807", "good/small-ltt");
  g_assert_cmpint (state_end.status, ==, 0);
  g_assert_nonnull (strstr (state_end.out, "pid"));
}

static GPtrArray *
lines_of (const char *text)
{
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);
  g_auto (GStrv) parts = g_strsplit (text, "\n", -1);
  for (guint i = 0; parts[i]; i++)
    if (*parts[i])
      g_ptr_array_add (lines, g_strdup (parts[i]));
  return lines;
}

static gint64
line_time_ns (const char *line)
{
  /* "SSSSSSSSSS.NNNNNNNNN ..." */
  return g_ascii_strtoll (line, NULL, 10) * 1000000000 + g_ascii_strtoll (line + 11, NULL, 10);
}

/* --start, --end and --count select exactly what filtering the full
 * report by time and count selects. */
static void
test_window (gconstpointer unused)
{
  g_auto (TtvTestRun) full;
  RUN (&full, "good/small-ltt");
  g_autoptr (GPtrArray) all = lines_of (full.out);
  g_assert_cmpuint (all->len, >, 100);
  gint64 first = line_time_ns (g_ptr_array_index (all, 0));
  GRand *rand = g_rand_new_with_seed (5);
  for (guint k = 0; k < 25; k++)
    {
      guint a = (guint) g_rand_int_range (rand, 0, (gint) all->len);
      guint b = (guint) g_rand_int_range (rand, (gint) a, (gint) all->len);
      gint64 t0 = line_time_ns (g_ptr_array_index (all, a)) - (k % 2);
      gint64 t1 = line_time_ns (g_ptr_array_index (all, b));
      guint count = (guint) g_rand_int_range (rand, 0, 50);
      /* Relative start on odd rounds. */
      g_autofree char *start = k % 2
        ? g_strdup_printf ("+%" G_GINT64_FORMAT ".%09" G_GINT64_FORMAT, (t0 - first) / 1000000000, (t0 - first) % 1000000000)
        : g_strdup_printf ("%" G_GINT64_FORMAT ".%09" G_GINT64_FORMAT, t0 / 1000000000, t0 % 1000000000);
      g_autofree char *end = g_strdup_printf ("%" G_GINT64_FORMAT ".%09" G_GINT64_FORMAT, t1 / 1000000000, t1 % 1000000000);
      g_autofree char *count_s = g_strdup_printf ("%u", count);
      g_auto (TtvTestRun) r;
      RUN (&r, "--start", start, "--end", end, "--count", count_s, "good/small-ltt");
      g_assert_cmpint (r.status, ==, 0);
      g_autoptr (GString) want = g_string_new (NULL);
      guint n = 0;
      for (guint i = 0; i < all->len && n < count; i++)
        {
          gint64 t = line_time_ns (g_ptr_array_index (all, i));
          if (t >= t0 && t <= t1)
            {
              g_string_append_printf (want, "%s\n", (char *) g_ptr_array_index (all, i));
              n++;
            }
        }
      g_assert_cmpstr (r.out, ==, want->str);
    }
  g_rand_free (rand);
}

/* --after TOKEN continues right after the event that printed TOKEN. */
static void
test_after (gconstpointer unused)
{
  g_auto (TtvTestRun) full;
  RUN (&full, "--position", "good/small-ltt-be32");
  g_autoptr (GPtrArray) all = lines_of (full.out);
  for (guint k = 0; k < all->len; k += 37)
    {
      const char *at = strchr (g_ptr_array_index (all, k), '@');
      g_assert_nonnull (at);
      g_autofree char *token = g_strndup (at + 1, strcspn (at + 1, " "));
      g_auto (TtvTestRun) r;
      RUN (&r, "--position", "--after", token, "good/small-ltt-be32");
      g_assert_cmpint (r.status, ==, 0);
      g_autoptr (GString) want = g_string_new (NULL);
      for (guint i = k + 1; i < all->len; i++)
        g_string_append_printf (want, "%s\n", (char *) g_ptr_array_index (all, i));
      g_assert_cmpstr (r.out, ==, want->str);
    }
  /* A token of another traceset is refused. */
  const char *at = strchr (g_ptr_array_index (all, 3), '@');
  g_autofree char *token = g_strndup (at + 1, strcspn (at + 1, " "));
  g_auto (TtvTestRun) r;
  RUN (&r, "--after", token, "good/small-ltt");
  g_assert_cmpint (r.status, ==, 2);
}

/* Two traces merge by time; equal times keep the command line's order. */
static void
test_multi (gconstpointer unused)
{
  g_auto (TtvTestRun) a;
  RUN (&a, "--format=jsonl", "good/small-ltt");
  g_auto (TtvTestRun) b;
  RUN (&b, "--format=jsonl", "good/small-lttng");
  g_auto (TtvTestRun) m;
  RUN (&m, "--format=jsonl", "good/small-ltt", "good/small-lttng");
  g_assert_cmpint (m.status, ==, 0);
  g_autoptr (GPtrArray) la = lines_of (a.out);
  g_autoptr (GPtrArray) lb = lines_of (b.out);
  g_autoptr (GPtrArray) lm = lines_of (m.out);
  g_assert_cmpuint (lm->len, ==, la->len + lb->len);
  guint i = 0, j = 0;
  for (guint k = 0; k < lm->len; k++)
    {
      const char *x = i < la->len ? g_ptr_array_index (la, i) : NULL;
      const char *y = j < lb->len ? g_ptr_array_index (lb, j) : NULL;
      gint64 tx = x ? g_ascii_strtoll (x + strlen ("{\"time_ns\":"), NULL, 10) : G_MAXINT64;
      gint64 ty = y ? g_ascii_strtoll (y + strlen ("{\"time_ns\":"), NULL, 10) : G_MAXINT64;
      const char *want = tx <= ty ? x : y;
      if (tx <= ty)
        i++;
      else
        j++;
      /* Positions differ (they name the whole traceset): compare the rest. */
      const char *got = g_ptr_array_index (lm, k);
      g_autofree char *got_cut = g_strndup (got, strstr (got, ",\"position\"") - got);
      g_autofree char *want_cut = g_strndup (want, strstr (want, ",\"position\"") - want);
      g_assert_cmpstr (got_cut, ==, want_cut);
    }
}

/* A .tar.gz of a trace reports exactly as the directory. */
static void
test_archive (gconstpointer unused)
{
  const char *tmp = ttv_test_get_tmp_dir ();
  g_autofree char *tgz = g_build_filename (tmp, "small-ltt.tar.gz", NULL);
  g_autofree char *good = g_build_filename (data_dir (), "good", NULL);
  const char *tar_argv[] = { "tar", "-C", good, "-czf", tgz, "small-ltt", NULL };
  int st = 0;
  g_assert_true (g_spawn_sync (NULL, (char **) tar_argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, &st, NULL));
  g_assert_true (g_spawn_check_wait_status (st, NULL));
  g_auto (TtvTestRun) d;
  RUN (&d, "--state", "good/small-ltt");
  g_auto (TtvTestRun) a;
  RUN (&a, "--state", tgz);
  g_assert_cmpint (a.status, ==, 0);
  g_assert_cmpstr (a.out, ==, d.out);
}

/* The line of a --list-events output @list that lists event type @type. */
static char *
list_line (const char *list, const char *type)
{
  g_autoptr (GPtrArray) lines = ttv_test_lines_of (list);
  g_autofree char *name = g_strdup_printf (" %s ", type);

  for (guint i = 0; i < lines->len; i++)
    if (strstr (lines->pdata[i], name))
      return g_strdup (lines->pdata[i]);
  g_error ("no event type %s in:\n%s", type, list);
}

/* LTTng's log levels and EMF URIs in --list-events, as `lttng list` writes
 * them: on a CTF 1.8 trace whose TSDL gives them (generated, and recorded
 * by LTTng-UST), on a CTF 2 trace (and the same as on its CTF 1.8 twin);
 * nothing on the event types and traces without. */
static void
test_list_events_log_levels (gconstpointer unused)
{
  g_autofree char *trace = ttv_test_write_ctf_log_levels ("log-levels");
  const char *argv[] = { TTV_REPORT_PATH, "--list-events", trace, NULL };
  g_autofree char *list = ttv_test_run_ok (argv);
  g_autoptr (GPtrArray) lines = ttv_test_lines_of (list);
  g_autofree char *sched = list_line (list, "sched_switch");
  g_autofree char *irq = list_line (list, "irq_handler_entry");
  guint with = 0;

  g_assert_true (g_str_has_suffix (sched, "; }  (loglevel: TRACE_WARNING (4))  (emf-uri: http://example.org/sched)"));
  g_assert_true (g_str_has_suffix (irq, "; }  (loglevel: TRACE_DEBUG_LINE (13))"));
  for (guint i = 0; i < lines->len; i++)
    with += strstr (lines->pdata[i], "(loglevel:") != NULL;
  g_assert_cmpuint (with, ==, 2);
  {
    static const TtvTestLostOptions none = { FALSE };
    g_autofree char *plain = ttv_test_write_lost_ctf ("no-log-levels", &none);
    const char *plain_argv[] = { TTV_REPORT_PATH, "--list-events", plain, NULL };
    g_autofree char *plain_list = ttv_test_run_ok (plain_argv);

    g_assert_null (strstr (plain_list, "(loglevel:"));
    g_assert_null (strstr (plain_list, "(emf-uri:"));
  }
  {
    g_autofree char *ust = ttv_test_dup_shared_ctf_trace ("glxgears-ust");
    g_autofree char *ctf2 = ttv_test_dup_shared_trace ("ctf2/lttng-crash");
    g_autofree char *twin = ttv_test_dup_shared_trace ("bt2-suite/succeed/lttng-crash");

    if (!ust || !ctf2 || !twin)
      return;
    const char *ust_argv[] = { TTV_REPORT_PATH, "--list-events", ust, NULL };
    const char *ctf2_argv[] = { TTV_REPORT_PATH, "--list-events", ctf2, NULL };
    const char *twin_argv[] = { TTV_REPORT_PATH, "--list-events", twin, NULL };
    g_autofree char *ust_list = ttv_test_run_ok (ust_argv);
    g_autofree char *ctf2_list = ttv_test_run_ok (ctf2_argv);
    g_autofree char *twin_list = ttv_test_run_ok (twin_argv);
    g_autofree char *entry = list_line (ust_list, "lttng_ust_cyg_profile:func_entry");
    g_autofree char *temp = list_line (ctf2_list, "my_app:current_temp");

    g_assert_true (g_str_has_suffix (entry, "  (loglevel: TRACE_DEBUG_FUNCTION (12))"));
    g_assert_true (g_str_has_suffix (temp, "  (loglevel: TRACE_DEBUG_LINE (13))"));
    g_assert_cmpstr (ctf2_list, ==, twin_list);
  }
}

/* Whether every line of @err is a message of ttv-report: no line forged by
 * a newline in a name, no terminal escape, valid UTF-8. */
static void
assert_messages_safe (const char *err)
{
  g_auto (GStrv) lines = g_strsplit (err, "\n", -1);

  g_assert_true (g_utf8_validate (err, -1, NULL));
  g_assert_null (strchr (err, '\x1b'));
  g_assert_null (strchr (err, '\a'));
  for (guint i = 0; lines[i] && *lines[i]; i++)
    if (!g_str_has_prefix (lines[i], "ttv-report: "))
      g_error ("a line of stderr is not ttv-report's: «%s»", lines[i]);
}

/* jsonl's "time" is "time_ns" in seconds, nine decimals, on every line,
 * also when the second changes (both traces shifted across one). */
static void
test_jsonl_times (gconstpointer unused)
{
  g_auto (TtvTestRun) m;
  RUN (&m, "--format=jsonl", "--offset=small-ltt=0.996", "--offset=small-lttng=0.995", "good/small-ltt",
       "good/small-lttng");
  g_assert_cmpint (m.status, ==, 0);
  g_autoptr (GPtrArray) lines = lines_of (m.out);
  g_assert_cmpuint (lines->len, >, 100);
  gint64 previous = -1;
  guint changes = 0;
  for (guint i = 0; i < lines->len; i++)
    {
      const char *line = g_ptr_array_index (lines, i);
      gint64 ns = 0;
      char time[64];
      g_assert_cmpint (sscanf (line, "{\"time_ns\":%" G_GINT64_FORMAT ",\"time\":\"%63[^\"]\"", &ns, time), ==, 2);
      g_autofree char *want = g_strdup_printf ("%" G_GINT64_FORMAT ".%09" G_GINT64_FORMAT, ns / 1000000000,
                                               ns % 1000000000);
      g_assert_cmpstr (time, ==, want);
      g_autofree char *digits = g_strdup_printf ("%" G_GINT64_FORMAT, ns);
      g_assert_true (g_str_has_prefix (line + strlen ("{\"time_ns\":"), digits));
      gint64 second = ns / 1000000000;
      changes += previous >= 0 && second != previous;
      previous = second;
    }
  g_assert_cmpuint (changes, ==, 1);
}

/* A stream file whose name holds a newline, terminal escapes and a byte
 * that is not UTF-8, cut in its second packet: the damage messages quote
 * it escaped (\n, \e, \xNN), in plain mode and with --keep-going. */
static void
test_hostile_names (gconstpointer unused)
{
  TtvTestLostOptions none = { 0 };
  g_autofree char *trace = ttv_test_write_lost_ctf ("hostile-names", &none);
  g_autofree char *stream = g_build_filename (trace, "channel0_0", NULL);
  g_autofree char *hostile = g_build_filename (trace, "ch\x1b]0;pwned\a\n\x1b[31mRED\xff", NULL);
  g_autofree char *data = NULL;
  gsize len;

  g_assert_true (g_file_get_contents (stream, &data, &len, NULL));
  g_assert_cmpuint (len, >, 4096 + 100);
  g_assert_true (g_file_set_contents (hostile, data, 4096 + 100, NULL));
  g_assert_cmpint (g_remove (stream), ==, 0);
  for (guint keep = 0; keep < 2; keep++)
    {
      g_auto (TtvTestRun) r;

      if (keep)
        RUN (&r, "--keep-going", trace);
      else
        RUN (&r, trace);
      g_assert_cmpint (r.status, ==, 1);
      g_assert_nonnull (strstr (r.err, "ch\\e]0;pwned\\x07\\n\\e[31mRED\\xff"));
      assert_messages_safe (r.err);
    }
}

/* Every test reads the committed traces and checks it left them as they
 * were; but TTV_UPDATE_GOLDEN=1 rewrites the golden outputs beside them. */
static void
add_test (const char *path, gconstpointer data, GTestDataFunc func)
{
  if (g_getenv ("TTV_UPDATE_GOLDEN"))
    g_test_add_data_func (path, data, func);
  else
    ttv_test_add_guarded (path, data_dir (), data, func);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  add_test ("/cli/report/golden-small-ltt", "small-ltt", test_golden);
  add_test ("/cli/report/golden-small-ltt-be32", "small-ltt-be32", test_golden);
  add_test ("/cli/report/golden-small-lttng", "small-lttng", test_golden);
  add_test ("/cli/report/bad-traces", NULL, test_bad);
  add_test ("/cli/report/keep-going", NULL, test_keep_going);
  add_test ("/cli/report/usage", NULL, test_usage);
  add_test ("/cli/report/arguments", NULL, test_arguments);
  add_test ("/cli/report/window", NULL, test_window);
  add_test ("/cli/report/after", NULL, test_after);
  add_test ("/cli/report/multi", NULL, test_multi);
  add_test ("/cli/report/jsonl-times", NULL, test_jsonl_times);
  add_test ("/cli/report/archive", NULL, test_archive);
  add_test ("/cli/report/list-events-log-levels", NULL, test_list_events_log_levels);
  add_test ("/cli/report/hostile-names", NULL, test_hostile_names);
  return g_test_run ();
}
