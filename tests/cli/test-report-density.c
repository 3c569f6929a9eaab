/* test-report-density.c: ttv-report --density, run as a user would: its
 * bins are the indexer's (what the viewer's histogram draws), per event
 * type too, in text, JSON lines and CSV; each bin holds the events its
 * printed bounds hold (counted again from ttv-report's own events); a
 * window; on the sample trace, a generated CTF trace and a real one; bad
 * input. */
#include "ttv-indexer.h"
#include "ttv-test-util.h"
#include "ttv-traceset.h"

#include <string.h>

#ifndef TTV_REPORT_PATH
#error "TTV_REPORT_PATH must be defined by the build"
#endif

/* --- The three outputs, read back ------------------------------------------ */

typedef struct {
  gint64 start, end;         /* ns */
  guint64 events;
  GHashTable *types;         /* name -> count (owned keys), with --density-types */
} Bin;

static void
bin_clear (gpointer data)
{
  Bin *b = data;

  g_clear_pointer (&b->types, g_hash_table_unref);
}

static GArray *
bins_new (void)
{
  GArray *bins = g_array_new (FALSE, TRUE, sizeof (Bin));

  g_array_set_clear_func (bins, bin_clear);
  return bins;
}

static Bin *
bin_add (GArray *bins)
{
  Bin *b;

  g_array_set_size (bins, bins->len + 1);
  b = &g_array_index (bins, Bin, bins->len - 1);
  b->types = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  return b;
}

static gint64
seconds_ns (const char *text)
{
  g_autoptr (GError) error = NULL;
  TtvTime t;

  g_assert_true (ttv_time_parse (text, &t, &error));
  g_assert_no_error (error);
  return t;
}

/* CSV: bin,start_s,end_s,events[,TYPE...] */
static GArray *
parse_csv (const char *text)
{
  g_autoptr (GPtrArray) lines = ttv_test_lines_of (text);
  g_auto (GStrv) head = g_strsplit (lines->pdata[0], ",", -1);
  GArray *bins = bins_new ();

  g_assert_cmpstr (head[0], ==, "bin");
  g_assert_cmpstr (head[1], ==, "start_s");
  g_assert_cmpstr (head[2], ==, "end_s");
  g_assert_cmpstr (head[3], ==, "events");
  for (guint i = 1; i < lines->len; i++)
    {
      g_auto (GStrv) f = g_strsplit (lines->pdata[i], ",", -1);
      Bin *b = bin_add (bins);

      g_assert_cmpuint (g_strv_length (f), ==, g_strv_length (head));
      g_assert_cmpuint (g_ascii_strtoull (f[0], NULL, 10), ==, i - 1);
      b->start = seconds_ns (f[1]);
      b->end = seconds_ns (f[2]);
      b->events = g_ascii_strtoull (f[3], NULL, 10);
      for (guint t = 4; head[t]; t++)
        {
          guint64 n = g_ascii_strtoull (f[t], NULL, 10);

          if (n)
            g_hash_table_insert (b->types, g_strdup (head[t]), GSIZE_TO_POINTER (n));
        }
    }
  return bins;
}

/* The number after "@key": in @line. */
static guint64
json_number (const char *line, const char *key)
{
  g_autofree char *quoted = g_strdup_printf ("\"%s\":", key);
  const char *at = strstr (line, quoted);

  g_assert_nonnull (at);
  return g_ascii_strtoull (at + strlen (quoted), NULL, 10);
}

/* JSON lines: {"bin":I,"start_ns":S,"end_ns":E,"events":N[,"types":{"NAME":N,...}]} */
static GArray *
parse_jsonl (const char *text)
{
  g_autoptr (GPtrArray) lines = ttv_test_lines_of (text);
  GArray *bins = bins_new ();

  for (guint i = 0; i < lines->len; i++)
    {
      const char *line = lines->pdata[i];
      const char *types = strstr (line, "\"types\":{");
      Bin *b = bin_add (bins);

      g_assert_true (g_str_has_prefix (line, "{\"bin\":"));
      g_assert_true (g_str_has_suffix (line, "}"));
      g_assert_cmpuint (json_number (line, "bin"), ==, i);
      b->start = (gint64) json_number (line, "start_ns");
      b->end = (gint64) json_number (line, "end_ns");
      b->events = json_number (line, "events");
      for (const char *p = types ? types + strlen ("\"types\":{") : NULL; p && *p == '"';)
        {
          const char *close = strchr (p + 1, '"');
          char *end = NULL;
          guint64 n;

          g_assert_nonnull (close);
          g_assert_true (close[1] == ':');
          n = g_ascii_strtoull (close + 2, &end, 10);
          g_hash_table_insert (b->types, g_strndup (p + 1, close - p - 1), GSIZE_TO_POINTER (n));
          p = *end == ',' ? end + 1 : NULL;
        }
    }
  return bins;
}

/* Text: a heading, then START END EVENTS [NAME=N...] */
static GArray *
parse_text (const char *text)
{
  g_autoptr (GPtrArray) lines = ttv_test_lines_of (text);
  GArray *bins = bins_new ();

  g_assert_true (g_str_has_prefix (lines->pdata[0], "START "));
  for (guint i = 1; i < lines->len; i++)
    {
      g_autoptr (GPtrArray) w = ttv_test_split (lines->pdata[i], " ");
      Bin *b = bin_add (bins);

      g_assert_cmpuint (w->len, >=, 3);
      b->start = seconds_ns (w->pdata[0]);
      b->end = seconds_ns (w->pdata[1]);
      b->events = g_ascii_strtoull (w->pdata[2], NULL, 10);
      for (guint t = 3; t < w->len; t++)
        {
          const char *eq = strrchr (w->pdata[t], '=');

          g_assert_nonnull (eq);
          g_hash_table_insert (b->types, g_strndup (w->pdata[t], eq - (char *) w->pdata[t]),
                               GSIZE_TO_POINTER (g_ascii_strtoull (eq + 1, NULL, 10)));
        }
    }
  return bins;
}

/* --- Checks -------------------------------------------------------------------- */

/* `ttv-report --density --density-types ARGS... TRACE` in @format. */
static char *
run_density (const char *trace, const char *format, const char *const *args)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autofree char *f = g_strdup_printf ("--format=%s", format);

  g_ptr_array_add (argv, (gpointer) TTV_REPORT_PATH);
  g_ptr_array_add (argv, (gpointer) "--density");
  g_ptr_array_add (argv, (gpointer) "--density-types");
  g_ptr_array_add (argv, f);
  for (guint i = 0; args && args[i]; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, (gpointer) trace);
  g_ptr_array_add (argv, NULL);
  return ttv_test_run_ok ((const char *const *) argv->pdata);
}

/* The printed bins are the indexer's: bounds, events, events per type. */
static void
assert_same_as_indexer (GArray *bins, const TtvIndexResult *want)
{
  guint64 total = 0;

  g_assert_cmpuint (bins->len, ==, want->density->len);
  for (guint i = 0; i < bins->len; i++)
    {
      const Bin *b = &g_array_index (bins, Bin, i);
      GHashTableIter it;
      gpointer name, bins_of_type;
      guint types = 0;

      g_assert_cmpint (b->start, ==, ttv_index_result_get_bin_start (want, i));
      g_assert_cmpint (b->end, ==, i + 1 < bins->len ? ttv_index_result_get_bin_start (want, i + 1) : want->end);
      g_assert_cmpuint (b->events, ==, g_array_index (want->density, guint32, i));
      total += b->events;
      g_hash_table_iter_init (&it, want->type_density);
      while (g_hash_table_iter_next (&it, &name, &bins_of_type))
        {
          guint32 n = g_array_index ((GArray *) bins_of_type, guint32, i);

          g_assert_cmpuint (GPOINTER_TO_SIZE (g_hash_table_lookup (b->types, name)), ==, n);
          types += n > 0;
        }
      g_assert_cmpuint (g_hash_table_size (b->types), ==, types);
    }
  g_assert_cmpuint (total, ==, want->n_events);
}

static void
assert_same_bins (GArray *got, GArray *want, const char *what)
{
  g_test_message ("%s: %u bins", what, got->len);
  g_assert_cmpuint (got->len, ==, want->len);
  for (guint i = 0; i < got->len; i++)
    {
      const Bin *g = &g_array_index (got, Bin, i), *w = &g_array_index (want, Bin, i);
      GHashTableIter it;
      gpointer name, n;

      g_assert_cmpint (g->start, ==, w->start);
      g_assert_cmpint (g->end, ==, w->end);
      g_assert_cmpuint (g->events, ==, w->events);
      g_assert_cmpuint (g_hash_table_size (g->types), ==, g_hash_table_size (w->types));
      g_hash_table_iter_init (&it, w->types);
      while (g_hash_table_iter_next (&it, &name, &n))
        g_assert_cmpuint (GPOINTER_TO_SIZE (g_hash_table_lookup (g->types, name)), ==, GPOINTER_TO_SIZE (n));
    }
}

/* Each bin holds the events of ttv-report --format=jsonl whose time is in
 * its printed bounds (the last one's end included), by event type too. */
static void
assert_bins_hold_the_events (GArray *bins, const char *trace, const char *const *window)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autofree char *text = NULL;
  g_autoptr (GPtrArray) lines = NULL;
  g_autoptr (GArray) counted = bins_new ();
  guint b = 0;

  g_ptr_array_add (argv, (gpointer) TTV_REPORT_PATH);
  g_ptr_array_add (argv, (gpointer) "--format=jsonl");
  for (guint i = 0; window && window[i]; i++)
    g_ptr_array_add (argv, (gpointer) window[i]);
  g_ptr_array_add (argv, (gpointer) trace);
  g_ptr_array_add (argv, NULL);
  text = ttv_test_run_ok ((const char *const *) argv->pdata);
  lines = ttv_test_lines_of (text);
  for (guint i = 0; i < bins->len; i++)
    {
      Bin *c = bin_add (counted);

      c->start = g_array_index (bins, Bin, i).start;
      c->end = g_array_index (bins, Bin, i).end;
    }
  /* The events come in time order. */
  for (guint i = 0; i < lines->len; i++)
    {
      const char *line = lines->pdata[i];
      gint64 t = (gint64) json_number (line, "time_ns");
      const char *name = strstr (line, "\"event\":\"") + strlen ("\"event\":\"");
      g_autofree char *type = g_strndup (name, strchr (name, '"') - name);
      Bin *c;

      while (b + 1 < counted->len && t >= g_array_index (counted, Bin, b).end)
        b++;
      c = &g_array_index (counted, Bin, b);
      g_assert_cmpint (t, >=, c->start);
      g_assert_cmpint (t, <=, c->end);
      c->events++;
      g_hash_table_insert (c->types, g_strdup (type),
                           GSIZE_TO_POINTER (GPOINTER_TO_SIZE (g_hash_table_lookup (c->types, type)) + 1));
    }
  g_assert_cmpuint (lines->len, >, 0);
  assert_same_bins (counted, bins, "the events of ttv-report");
}

/* The whole span in 1024 bins (the histogram's), in CSV and, with
 * @count_events, in the other formats, and the events each bin holds
 * counted again; then a window from 20% to 70% of the span in 64 bins. */
static void
check_trace (const char *trace, gboolean count_events)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvTraceset) ts = ttv_traceset_new ();
  g_autoptr (TtvIndexResult) want = NULL, wwant = NULL;
  g_autofree char *csv = run_density (trace, "csv", NULL);
  g_autoptr (GArray) bins = parse_csv (csv);
  gint64 a, b;

  g_assert_true (ttv_traceset_add_path (ts, trace, &error));
  g_assert_no_error (error);
  want = ttv_indexer_run (ts, TTV_INDEXER_DENSITY_BINS, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (want->start, ==, ttv_traceset_get_start (ts));
  g_assert_cmpint (want->end, ==, ttv_traceset_get_end (ts));
  assert_same_as_indexer (bins, want);
  if (count_events)
    {
      g_autofree char *jsonl = run_density (trace, "jsonl", NULL);
      g_autofree char *text = run_density (trace, "text", NULL);
      g_autoptr (GArray) jbins = parse_jsonl (jsonl);
      g_autoptr (GArray) tbins = parse_text (text);

      assert_same_bins (jbins, bins, "jsonl");
      assert_same_bins (tbins, bins, "text");
      assert_bins_hold_the_events (bins, trace, NULL);
    }

  a = want->start + (want->end - want->start) * 2 / 10;
  b = want->start + (want->end - want->start) * 7 / 10;
  {
    g_autofree char *from = ttv_test_dup_seconds (a), *to = ttv_test_dup_seconds (b);
    const char *window[] = { "--start", from, "--end", to, NULL };
    const char *args[] = { "--density-bins=64", "--start", from, "--end", to, NULL };
    g_autofree char *wcsv = run_density (trace, "csv", args);
    g_autoptr (GArray) wbins = parse_csv (wcsv);

    wwant = ttv_indexer_run_range (ts, 64, a, b, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpint (wwant->start, ==, a);
    g_assert_cmpint (wwant->end, ==, b);
    assert_same_as_indexer (wbins, wwant);
    g_assert_cmpuint (wwant->n_events, <, want->n_events);
    if (count_events)
      assert_bins_hold_the_events (wbins, trace, window);
  }
  /* More bins than nanoseconds: most are empty, none overlaps. */
  if (count_events)
    {
      g_autofree char *from = ttv_test_dup_seconds (want->start), *to = ttv_test_dup_seconds (want->start + 300);
      const char *window[] = { "--start", from, "--end", to, NULL };
      const char *args[] = { "--start", from, "--end", to, NULL };
      g_autofree char *ncsv = run_density (trace, "csv", args);
      g_autoptr (GArray) nbins = parse_csv (ncsv);
      g_autoptr (TtvIndexResult) nwant = ttv_indexer_run_range (ts, TTV_INDEXER_DENSITY_BINS, want->start,
                                                                want->start + 300, NULL, &error);

      g_assert_no_error (error);
      assert_same_as_indexer (nbins, nwant);
      for (guint i = 0; i < nbins->len; i++)
        g_assert_cmpint (g_array_index (nbins, Bin, i).start, <=, g_array_index (nbins, Bin, i).end);
      assert_bins_hold_the_events (nbins, trace, window);
    }
}

/* --- Cases --------------------------------------------------------------------- */

static void
test_sample (void)
{
  /* 200000 events: the bins against the indexer (the formats and the
   * events are checked on the smaller traces). */
  check_trace (TTV_SAMPLE_TRACE_PATH, FALSE);
}

static void
test_generated_ctf (void)
{
  g_autofree char *trace = g_build_filename (ttv_test_get_tmp_dir (), "ctf", NULL);
  const char *argv[] = { TTV_GEN_PATH, "-q", "-f", "ctf", "--cpu-ids", "0,1,3", "-p", "20", "-n", "20000",
                         "-s", "5", "-o", trace, NULL };

  g_free (ttv_test_run_ok (argv));
  check_trace (trace, TRUE);
}

/* Two captures six years apart (issue 19): the bins leave the idle years
 * out, so both captures are binned finely; one bin holds the gap.  The
 * printed bins are still the indexer's. */
static void
test_gap_left_out (void)
{
  g_autofree char *a = g_build_filename (ttv_test_get_tmp_dir (), "gap-a", NULL);
  g_autofree char *b = g_build_filename (ttv_test_get_tmp_dir (), "gap-b", NULL);
  const char *argv[] = { TTV_REPORT_PATH, "--density", "--density-types", "--format=csv", a, b, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvTraceset) ts = ttv_traceset_new ();
  guint long_bins = 0, busy_bins = 0;

  ttv_test_generate_machine (TTV_GEN_PATH, a, "ctf", "alpha", "1", "2", "1500000000");
  ttv_test_generate_machine (TTV_GEN_PATH, b, "ctf", "beta", "2", "2", "1700000000");
  g_autofree char *csv = ttv_test_run_ok (argv);
  g_autoptr (GArray) bins = parse_csv (csv);
  g_assert_true (ttv_traceset_add_path (ts, a, &error));
  g_assert_true (ttv_traceset_add_path (ts, b, &error));
  g_assert_no_error (error);
  g_autoptr (TtvIndexResult) want = ttv_indexer_run (ts, TTV_INDEXER_DENSITY_BINS, NULL, &error);
  g_assert_no_error (error);
  assert_same_as_indexer (bins, want);
  for (guint i = 0; i < bins->len; i++)
    {
      const Bin *bin = &g_array_index (bins, Bin, i);

      long_bins += bin->end - bin->start > (gint64) 86400 * 1000000000;
      busy_bins += bin->events > 0;
    }
  g_assert_cmpuint (long_bins, ==, 1);
  g_assert_cmpuint (busy_bins, >, 500);
}

static void
test_real (gconstpointer name)
{
  g_autofree char *trace = ttv_test_dup_shared_ctf_trace (name);

  if (trace)
    check_trace (trace, TRUE);
}

#define GOOD_TRACE TTV_TEST_SRCDIR "/data/traces/good/small-ltt"
#define BAD_TRACE TTV_TEST_SRCDIR "/data/traces/bad/unknown-event-id"

static const TtvTestBadRun bad_cases[] = {
  { { "--density", "/nonexistent/trace" }, 1, "/nonexistent/trace" },
  { { "--density", BAD_TRACE }, 1, "unknown-event-id/cpu/0: byte offset 1052 (block 1): unknown event id 32766" },
  { { "--density", "--density-bins=0", GOOD_TRACE }, 2, "--density-bins: expected a number of bins from 1 to 16384" },
  { { "--density", "--density-bins=16385", GOOD_TRACE }, 2, "--density-bins: expected a number of bins" },
  { { "--density-types", GOOD_TRACE }, 2, "--density-bins and --density-types go with --density" },
  { { "--density-bins=8", GOOD_TRACE }, 2, "--density-bins and --density-types go with --density" },
  { { "--density", "--stats", GOOD_TRACE }, 2, "--density and --stats cannot be used together" },
  { { "--density", "--format=babeltrace", GOOD_TRACE }, 2, "--stats and --density print text, jsonl or csv" },
  { { "--density", "--follow", GOOD_TRACE }, 2, "cannot be used with --stats, --density" },
  { { "--density", "--start", "+5", GOOD_TRACE }, 2, "--density: --start is after the end of the traces" },
  { { "--density", "--start", "+0.009", "--end", "+0.001", GOOD_TRACE }, 2, "is after --end" },
};

static void
test_bad_input (void)
{
  ttv_test_assert_runs_fail (TTV_REPORT_PATH, bad_cases, G_N_ELEMENTS (bad_cases));
}

/* Past damaged blocks: the density of what could be read, the damage
 * named, exit status 1. */
static void
test_keep_going (void)
{
  const char *argv[] = { TTV_REPORT_PATH, "--density", "--density-bins=4", "--format=csv", "--keep-going",
                         BAD_TRACE, NULL };
  const char *good[] = { TTV_REPORT_PATH, "--density", "--density-bins=4", "--format=csv", GOOD_TRACE, NULL };
  g_auto (TtvTestRun) r = { 0 };
  g_autofree char *all = ttv_test_run_ok (good);
  g_autoptr (GArray) bins = NULL, all_bins = parse_csv (all);
  guint64 n = 0, n_all = 0;

  ttv_test_run (&r, NULL, NULL, argv);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "damaged data skipped: "));
  g_assert_nonnull (strstr (r.err, "unknown-event-id/cpu/0: byte offset 1052"));
  bins = parse_csv (r.out);
  g_assert_cmpuint (bins->len, ==, 4);
  for (guint i = 0; i < 4; i++)
    {
      n += g_array_index (bins, Bin, i).events;
      n_all += g_array_index (all_bins, Bin, i).events;
    }
  /* The damaged trace is a copy of the good one with a block broken. */
  g_assert_cmpuint (n, >, 0);
  g_assert_cmpuint (n, <, n_all);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/report-density/sample", test_sample);
  g_test_add_func ("/report-density/generated-ctf", test_generated_ctf);
  g_test_add_func ("/report-density/gap-left-out", test_gap_left_out);
  g_test_add_data_func ("/report-density/ctf/scp-kernel", "scp-kernel", test_real);
  g_test_add_data_func ("/report-density/ctf/glxgears-ust", "glxgears-ust", test_real);
  g_test_add_func ("/report-density/bad-input", test_bad_input);
  g_test_add_func ("/report-density/keep-going", test_keep_going);
  return g_test_run ();
}
