/* test-report-lost.c: ttv-report on generated CTF 1.8 and CTF 2 traces
 * whose stream's first packet already counts discarded events (a snapshot,
 * a buffer whose oldest packets were overwritten: lost since the stream
 * began), then more later: every output says so (issue 14 §3.6): text and
 * JSON lines where it happened, babeltrace2's warnings on stderr (the same
 * as babeltrace2's own on the CTF 1.8 trace), --stats, --stats-tables and
 * --info. */
#include "ttv-stats-csv.h"
#include "ttv-test-util.h"

#include <stdarg.h>
#include <string.h>

#ifndef TTV_REPORT_PATH
#error "TTV_REPORT_PATH must be defined by the build"
#endif

/* 4 events counted in the first packet, 9 more from packet 6 on. */
static char *
write_trace (gboolean ctf2)
{
  TtvTestLostOptions lost = { .ctf2 = ctf2, .first_discarded = 4, .later_discarded = 9 };

  return ttv_test_write_lost_ctf (ctf2 ? "first-packet-ctf2" : "first-packet-ctf", &lost);
}

/* ttv-report's output with the options that follow @trace, up to NULL. */
static char *
report (const char *trace, ...)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  const char *option;
  va_list ap;

  g_ptr_array_add (argv, (gpointer) TTV_REPORT_PATH);
  va_start (ap, trace);
  while ((option = va_arg (ap, const char *)) != NULL)
    g_ptr_array_add (argv, (gpointer) option);
  va_end (ap);
  g_ptr_array_add (argv, (gpointer) trace);
  g_ptr_array_add (argv, NULL);
  return ttv_test_run_ok ((const char *const *) argv->pdata);
}

/* The lines of @text that start with @prefix. */
static GPtrArray *
lines_with (const char *text, const char *prefix)
{
  g_autoptr (GPtrArray) lines = ttv_test_lines_of (text);
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < lines->len; i++)
    if (g_str_has_prefix (lines->pdata[i], prefix))
      g_ptr_array_add (out, g_strdup (lines->pdata[i]));
  return out;
}

/* The text report: the loss since the stream began first, before any
 * event, up to the end of the first packet; the later one where it was. */
static void
check_text (const char *trace)
{
  g_autofree char *text = report (trace, NULL);
  g_autoptr (GPtrArray) lines = ttv_test_lines_of (text);
  g_autoptr (GRegex) since = g_regex_new ("^[0-9.]+ cpu0 --- 4 events lost before ([0-9.]+) "
                                          "\\(counted since the stream began\\) ---$", 0, 0, NULL);
  g_autoptr (GMatchInfo) m = NULL;
  guint later = 0;

  g_assert_cmpuint (lines->len, >, 3000);
  g_assert_true (g_regex_match (since, lines->pdata[0], 0, &m));
  for (guint i = 1; i < lines->len; i++)
    {
      g_assert_null (strstr (lines->pdata[i], "since the stream began"));
      later += strstr (lines->pdata[i], " --- 9 events lost between ") != NULL;
    }
  g_assert_cmpuint (later, ==, 1);
}

/* JSON lines: the first line is the loss, flagged since_stream_start; the
 * later one is not. */
static void
check_jsonl (const char *trace)
{
  g_autofree char *text = report (trace, "--format=jsonl", NULL);
  g_autoptr (GPtrArray) lost = lines_with (text, "{\"lost_events\":");

  g_assert_true (g_str_has_prefix (text, "{\"lost_events\":4,\"lost_packets\":0,\"since_stream_start\":true,"
                                         "\"start_ns\":"));
  g_assert_cmpuint (lost->len, ==, 2);
  g_assert_true (g_str_has_prefix (lost->pdata[1], "{\"lost_events\":9,\"lost_packets\":0,\"start_ns\":"));
  g_assert_nonnull (strstr (lost->pdata[1], ",\"tracefile\":\"channel0_0\"}"));
}

/* --format=babeltrace: babeltrace2's warnings on stderr, "may have
 * discarded" for the first packet (babeltrace2 2.0 knows no count there);
 * on CTF 1.8, babeltrace2's own stdout and warnings when it is installed. */
static void
check_babeltrace (const char *trace, gboolean ctf2)
{
  const char *argv[] = { TTV_REPORT_PATH, "--format=babeltrace", trace, NULL };
  g_autofree char *bt = g_find_program_in_path ("babeltrace2");
  g_auto (TtvTestRun) r = { 0 };
  g_autoptr (GPtrArray) warnings = NULL;

  ttv_test_run (&r, NULL, NULL, argv);
  g_assert_cmpint (r.status, ==, 0);
  warnings = lines_with (r.err, "WARNING: Tracer");
  g_assert_cmpuint (warnings->len, ==, 2);
  g_assert_true (g_str_has_prefix (warnings->pdata[0], "WARNING: Tracer may have discarded events between ["));
  g_assert_true (g_str_has_prefix (warnings->pdata[1], "WARNING: Tracer discarded 9 events between ["));
  if (ctf2)
    return;
  if (!bt)
    {
      g_test_message ("babeltrace2 not in PATH: its warnings are not compared");
      return;
    }
  {
    const char *bt_argv[] = { bt, "--clock-gmt", trace, NULL };
    g_auto (TtvTestRun) b = { 0 };
    g_autoptr (GPtrArray) want = NULL, got = ttv_test_lines_of (r.out), want_out = NULL;

    ttv_test_run (&b, NULL, NULL, bt_argv);
    g_assert_cmpint (b.status, ==, 0);
    want = lines_with (b.err, "WARNING: Tracer");
    ttv_test_assert_same_lines (warnings, want);
    want_out = ttv_test_lines_of (b.out);
    ttv_test_assert_same_lines (got, want_out);
  }
}

/* The count of row @key of a --stats CSV, 0 when absent. */
static guint64
row_count (GHashTable *csv, const char *key)
{
  const TtvStatsCsvRow *r = g_hash_table_lookup (csv, key);

  return r ? r->count : 0;
}

/* --stats: both losses in the whole trace; a window on the first packet
 * has the first only, a window after it and before the later loss none;
 * --stats-tables and --info say the same. */
static void
check_stats (const char *trace)
{
  g_autofree char *whole_text = report (trace, "--stats", "--format=csv", NULL);
  g_autofree char *tables = report (trace, "--stats-tables", NULL);
  g_autofree char *info = report (trace, "--info", NULL);
  g_autofree char *jsonl = report (trace, "--format=jsonl", NULL);
  g_autoptr (GHashTable) whole = ttv_stats_csv_parse (whole_text, NULL);
  g_autoptr (GPtrArray) lost = lines_with (jsonl, "{\"lost_events\":");
  const char *first_end = strstr (lost->pdata[0], "\"end_ns\":");
  const char *later_start = strstr (lost->pdata[1], "\"start_ns\":");
  gint64 a, b;

  ttv_stats_csv_assert_group_sums (whole);
  g_assert_cmpuint (row_count (whole, "lost-events"), ==, 13);
  g_assert_cmpuint (row_count (whole, "lost-events/trace/0/channel0_0"), ==, 13);
  g_assert_null (g_hash_table_lookup (whole, "lost-packets"));
  g_assert_nonnull (strstr (tables, "lost by the tracer: 13 events, 0 packets, in 2 ranges\n"));
  g_assert_true (g_regex_match_simple ("^    4 events lost before [0-9.]+ \\(counted since the stream began\\)$", info,
                                       G_REGEX_MULTILINE, 0));

  g_assert_nonnull (first_end);
  g_assert_nonnull (later_start);
  a = g_ascii_strtoll (first_end + strlen ("\"end_ns\":"), NULL, 10);
  b = g_ascii_strtoll (later_start + strlen ("\"start_ns\":"), NULL, 10);
  g_assert_cmpint (a + 2, <, b);
  {
    g_autofree char *to = ttv_test_dup_seconds (a);
    g_autofree char *text = report (trace, "--stats", "--format=csv", "--end", to, NULL);
    g_autoptr (GHashTable) csv = ttv_stats_csv_parse (text, NULL);

    g_assert_cmpuint (row_count (csv, "lost-events/trace/0/channel0_0"), ==, 4);
  }
  {
    g_autofree char *from = ttv_test_dup_seconds (a + 1), *to = ttv_test_dup_seconds (b - 1);
    g_autofree char *text = report (trace, "--stats", "--format=csv", "--start", from, "--end", to, NULL);
    g_autoptr (GHashTable) csv = ttv_stats_csv_parse (text, NULL);

    g_assert_null (g_hash_table_lookup (csv, "lost-events"));
  }
}

/* ttv-report's usual report (no selection, filter, state or timer) has a
 * loop of its own: it must print what the general loop prints, which a
 * filter that every event matches sends the report through.  In every
 * output format, for the whole trace (both losses), for the first events
 * (--count), and from a time between the losses on. */
static void
check_plain_loop (const char *trace)
{
  g_autofree char *jsonl = report (trace, "--format=jsonl", NULL);
  g_autoptr (GPtrArray) lost = lines_with (jsonl, "{\"lost_events\":");
  const char *first_end = strstr (lost->pdata[0], "\"end_ns\":");
  g_assert_nonnull (first_end);
  g_autofree char *from = ttv_test_dup_seconds (g_ascii_strtoll (first_end + strlen ("\"end_ns\":"), NULL, 10) + 1);
  const char *formats[] = { "--format=text", "--format=jsonl", "--format=babeltrace" };
  const char *windows[][4] = {
    { NULL },
    { "--count", "1000", NULL },
    { "--start", from, NULL },
    { "--start", from, "--count", "1000" },
  };

  for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
    for (guint w = 0; w < G_N_ELEMENTS (windows); w++)
      {
        g_autofree char *plain = report (trace, formats[f], windows[w][0], windows[w][1], windows[w][2],
                                         windows[w][3], NULL);
        g_autofree char *general = report (trace, "--filter", "event.name = *", formats[f], windows[w][0],
                                           windows[w][1], windows[w][2], windows[w][3], NULL);
        g_assert_cmpstr (plain, ==, general);
        g_assert_cmpuint (strlen (plain), >, 1000);
      }
}

static void
test_first_packet (gconstpointer data)
{
  gboolean ctf2 = GPOINTER_TO_INT (data);
  g_autofree char *trace = write_trace (ctf2);

  check_text (trace);
  check_jsonl (trace);
  check_babeltrace (trace, ctf2);
  check_stats (trace);
  check_plain_loop (trace);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_data_func ("/report-lost/first-packet/ctf", GINT_TO_POINTER (FALSE), test_first_packet);
  g_test_add_data_func ("/report-lost/first-packet/ctf2", GINT_TO_POINTER (TRUE), test_first_packet);
  return g_test_run ();
}
