/* test-analysis-tables.c: analysis tables answer their queries as a walk
 * of every record does (windows, series, clipped sums, histograms,
 * scatter columns, statistics with exact percentiles), in memory and from
 * their cache file; the cache is reused when the trace is unchanged, and
 * never trusted when damaged, truncated, stale or another analysis's. */
#include "ttv-kernel-analyses.h"
#include "ttv-analysis-private.h"
#include "ttv-ctf-sim.h"
#include "ttv-error.h"
#include "ttv-test-util.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>

typedef struct {
  const char *dir;              /* the test's temporary directory */
  char *trace;
  char *cache;
  TtvTraceset *ts;
} Fixture;

/* A simulated CTF kernel trace of @events events at @path, host @host,
 * from @start_s seconds. */
static void
write_trace (const char *path, guint64 events, const char *host, gint64 start_s)
{
  g_autoptr (GError) error = NULL;
  TtvSimOptions o;
  ttv_sim_options_init (&o);
  o.seed = 5;
  o.n_cpus = 4;
  o.n_processes = 40;
  o.max_events = events;
  o.probe = TRUE;
  o.start_time = start_s * G_GINT64_CONSTANT (1000000000);
  g_autoptr (TtvSim) sim = ttv_sim_new (&o, &error);
  TtvCtfWriterOptions wo = { .byte_order = TTV_BYTE_ORDER_LITTLE, .header = TTV_CTF_HEADER_COMPACT,
                             .packet_size = 65536, .long_bits = 64, .hostname = host };
  g_assert_true (ttv_ctf_write_simulation (path, sim, &wo, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
}

static void
fixture_open (Fixture *f, guint64 events)
{
  g_autoptr (GError) error = NULL;
  f->dir = ttv_test_get_tmp_dir ();
  f->trace = g_build_filename (f->dir, "trace", NULL);
  f->cache = g_build_filename (f->dir, "cache", NULL);
  write_trace (f->trace, events, "test", 1700000000);
  f->ts = ttv_traceset_new ();
  g_assert_true (ttv_traceset_add_path (f->ts, f->trace, &error));
}

static void
fixture_close (Fixture *f)
{
  ttv_traceset_unref (f->ts);
  g_free (f->trace);
  g_free (f->cache);
}

static TtvAnalysis *
run (Fixture *f, const TtvAnalysisClass *cls, gboolean cached)
{
  g_autoptr (GError) error = NULL;
  TtvAnalysisOptions o = { .no_cache = !cached, .cache_dir = f->cache, .max_memory = 64 << 10 };
  TtvAnalysis *a = ttv_analysis_run (f->ts, cls, &o, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  return a;
}

/* Every record of @t, by a query over everything. */
static GArray *
all_records (const TtvAnalysisTable *t)
{
  g_autoptr (GError) error = NULL;
  GArray *all = ttv_analysis_table_query (t, TTV_QUERY_OVERLAP, TTV_TIME_MIN, TTV_TIME_MAX, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (all->len, ==, ttv_analysis_table_get_n_records (t));
  return all;
}

#define REC(a, i, size) ((const guint8 *) (a)->data + (gsize) (i) * (size))

static gboolean
selected (TtvQueryMode mode, const void *r, TtvTime t0, TtvTime t1)
{
  TtvTime s = ttv_analysis_record_start (r), e = ttv_analysis_record_end (r);
  return mode == TTV_QUERY_START_IN ? s >= t0 && s <= t1 : s <= t1 && e >= t0;
}

static gint
compare_pair_desc (gconstpointer a, gconstpointer b)
{
  const TtvTime *x = a, *y = b;  /* duration, start */
  if (x[0] != y[0])
    return x[0] > y[0] ? -1 : 1;
  return x[1] < y[1] ? -1 : x[1] > y[1];
}

/* The longest records of a window: the walk's, sorted, cut. */
static void
check_longest (const TtvAnalysisTable *t, GArray *all, TtvTime t0, TtvTime t1)
{
  gsize size = ttv_analysis_table_get_spec (t)->record_size;
  g_autoptr (GArray) want = g_array_new (FALSE, FALSE, 2 * sizeof (TtvTime));
  for (guint i = 0; i < all->len; i++)
    {
      const guint8 *r = REC (all, i, size);
      TtvTime pair[2] = { ttv_analysis_record_end (r) - ttv_analysis_record_start (r), ttv_analysis_record_start (r) };
      if (pair[1] >= t0 && pair[1] <= t1)
        g_array_append_vals (want, pair, 1);
    }
  g_array_sort (want, compare_pair_desc);
  static const guint maxes[] = { 1, 7, 100, 100000 };
  for (guint m = 0; m < G_N_ELEMENTS (maxes); m++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (GArray) got = ttv_analysis_table_query_longest (t, t0, t1, maxes[m], &error);
      g_assert_no_error (error);
      g_assert_cmpuint (got->len, ==, MIN (maxes[m], want->len));
      for (guint i = 0; i < got->len; i++)
        {
          const guint8 *r = REC (got, i, size);
          const TtvTime *w = &g_array_index (want, TtvTime, 2 * i);
          g_assert_cmpint (ttv_analysis_record_end (r) - ttv_analysis_record_start (r), ==, w[0]);
          g_assert_cmpint (ttv_analysis_record_start (r), ==, w[1]);
        }
    }
}

/* Random windows: the queries select what a walk selects. */
static void
check_windows (const TtvAnalysisTable *t, GArray *all, GRand *rand)
{
  g_autoptr (GError) error = NULL;
  gsize size = ttv_analysis_table_get_spec (t)->record_size;
  TtvTime lo = G_MAXINT64, hi = G_MININT64;
  for (guint i = 0; i < all->len; i++)
    {
      lo = MIN (lo, ttv_analysis_record_start (REC (all, i, size)));
      hi = MAX (hi, ttv_analysis_record_end (REC (all, i, size)));
    }
  for (guint w = 0; w < 12; w++)
    {
      TtvTime t0 = lo + (TtvTime) (g_rand_double (rand) * (double) (hi - lo));
      TtvTime t1 = t0 + (TtvTime) (g_rand_double (rand) * (double) (hi - t0) / (w % 3 == 0 ? 1 : 50));
      for (TtvQueryMode mode = TTV_QUERY_OVERLAP; mode <= TTV_QUERY_START_IN; mode++)
        {
          g_autoptr (GArray) got = ttv_analysis_table_query (t, mode, t0, t1, &error);
          g_assert_no_error (error);
          guint want = 0;
          for (guint i = 0; i < all->len; i++)
            want += selected (mode, REC (all, i, size), t0, t1);
          g_assert_cmpuint (got->len, ==, want);
          for (guint i = 0; i < got->len; i++)
            {
              g_assert_true (selected (mode, REC (got, i, size), t0, t1));
              if (i > 0)
                g_assert_cmpint (ttv_analysis_record_start (REC (got, i - 1, size)), <=,
                                 ttv_analysis_record_start (REC (got, i, size)));
            }
        }
      if (!ttv_analysis_table_get_spec (t)->summaries)
        continue;
      /* The durations of what starts in the window: exact. */
      guint64 counts[TTV_DURATION_BUCKETS], want[TTV_DURATION_BUCKETS] = { 0 };
      g_assert_true (ttv_analysis_table_histogram (t, t0, t1, counts, &error));
      g_autoptr (GArray) durations = g_array_new (FALSE, FALSE, sizeof (TtvTime));
      for (guint i = 0; i < all->len; i++)
        if (selected (TTV_QUERY_START_IN, REC (all, i, size), t0, t1))
          {
            TtvTime d = ttv_analysis_record_end (REC (all, i, size)) - ttv_analysis_record_start (REC (all, i, size));
            want[ttv_duration_bucket (d)]++;
            g_array_append_val (durations, d);
          }
      for (guint b = 0; b < TTV_DURATION_BUCKETS; b++)
        g_assert_cmpuint (counts[b], ==, want[b]);
      TtvDurationSummary all_got, all_want;
      g_autoptr (GArray) groups = ttv_analysis_table_summarize (t, t0, t1, &all_got, &error);
      g_assert_no_error (error);
      ttv_duration_summary_compute (&all_want, -1, (TtvTime *) durations->data, durations->len);
      g_assert_cmpuint (all_got.count, ==, all_want.count);
      g_assert_cmpint (all_got.total, ==, all_want.total);
      if (all_want.count)
        {
          g_assert_cmpint (all_got.min, ==, all_want.min);
          g_assert_cmpint (all_got.max, ==, all_want.max);
          g_assert_cmpint (all_got.p50, ==, all_want.p50);
          g_assert_cmpint (all_got.p90, ==, all_want.p90);
          g_assert_cmpint (all_got.p99, ==, all_want.p99);
          g_assert_cmpfloat_with_epsilon (all_got.mean, all_want.mean, 1e-6 * all_want.mean + 1e-6);
          g_assert_cmpfloat_with_epsilon (all_got.stddev, all_want.stddev, 1e-6 * all_want.stddev + 1e-3);
        }
      guint64 sum = 0;
      for (guint g = 0; g < groups->len; g++)
        sum += g_array_index (groups, TtvDurationSummary, g).count;
      g_assert_cmpuint (sum, ==, all_want.count);
      /* The scatter: every record's bucket in its column, counts per column. */
      guint width = 300;
      g_autofree TtvScatterColumn *cols = g_new0 (TtvScatterColumn, width);
      gboolean exact;
      g_assert_true (ttv_analysis_table_scatter (t, t0, t1 + 1, width, cols, &exact, &error));
      guint64 total = 0;
      for (guint x = 0; x < width; x++)
        total += cols[x].count;
      for (guint i = 0; i < all->len; i++)
        {
          const guint8 *r = REC (all, i, size);
          TtvTime s = ttv_analysis_record_start (r);
          if (s < t0 || s > t1)
            continue;
          guint b = ttv_duration_bucket (ttv_analysis_record_end (r) - s);
          guint x = (guint) ((double) (s - t0) * width / (double) (t1 + 1 - t0));
          /* Exact: that very column; from the summaries: within a bin, so
           * a column or two around it may hold it. */
          gboolean found = FALSE;
          for (guint dx = exact ? x : (x > 2 ? x - 2 : 0); dx <= MIN (x + (exact ? 0 : 2), width - 1) && !found; dx++)
            found = (cols[dx].mask[b / 64] >> (b % 64)) & 1;
          if (!found)
            g_error ("scatter (%s): record at %" G_GINT64_FORMAT " of bucket %u not in column %u",
                     exact ? "exact" : "summary", s, b, x);
        }
      if (exact)
        g_assert_cmpuint (total, ==, all_want.count);
      check_longest (t, all, t0, t1);
    }
}

/* The last record of a series in a window is the query's last, as a
 * thread's last name in the CPU usage view is. */
static void
check_last_in_series (const TtvAnalysisTable *t, guint which, guint32 key, TtvTime t0, TtvTime t1, GArray *queried)
{
  g_autoptr (GError) error = NULL;
  gsize size = ttv_analysis_table_get_spec (t)->record_size;
  g_autofree guint8 *last = g_malloc (size);
  gboolean found;
  g_assert_true (ttv_analysis_table_last_in_series (t, which, key, t0, t1, last, &found, &error));
  g_assert_no_error (error);
  g_assert_cmpint (found, ==, queried->len > 0);
  if (!found)
    return;
  const guint8 *want = REC (queried, queried->len - 1, size);
  g_assert_cmpint (ttv_analysis_record_start (last), ==, ttv_analysis_record_start (want));
  g_assert_cmpint (ttv_analysis_record_end (last), ==, ttv_analysis_record_end (want));
  /* Records equal in time sort in any order: the one found is one of them. */
  gboolean member = FALSE;
  for (guint i = queried->len; i-- > 0 && !member;)
    {
      const guint8 *r = REC (queried, i, size);
      if (ttv_analysis_record_start (r) != ttv_analysis_record_start (want)
          || ttv_analysis_record_end (r) != ttv_analysis_record_end (want))
        break;
      member = memcmp (r, last, size) == 0;
    }
  g_assert_true (member);
}

/* A series' records and clipped sums, against the walk. */
static void
check_series (const TtvAnalysisTable *t, GArray *all, guint which, GRand *rand)
{
  g_autoptr (GError) error = NULL;
  const TtvAnalysisTableSpec *spec = ttv_analysis_table_get_spec (t);
  gsize size = spec->record_size;
  g_autoptr (GArray) keys = ttv_analysis_table_dup_series_keys (t, which);
  g_assert_cmpuint (keys->len, >, 0);
  TtvTime lo = G_MAXINT64, hi = G_MININT64;
  for (guint i = 0; i < all->len; i++)
    {
      lo = MIN (lo, ttv_analysis_record_start (REC (all, i, size)));
      hi = MAX (hi, ttv_analysis_record_end (REC (all, i, size)));
    }
  /* Every key over the whole table, and just before its end. */
  for (guint k = 0; k < keys->len; k++)
    {
      guint32 key = g_array_index (keys, guint32, k);
      TtvTime windows[][2] = { { TTV_TIME_MIN, TTV_TIME_MAX }, { lo, hi - (hi - lo) / 3 } };
      for (guint w = 0; w < G_N_ELEMENTS (windows); w++)
        {
          g_autoptr (GArray) got = ttv_analysis_table_query_series (t, which, key, windows[w][0], windows[w][1],
                                                                    &error);
          g_assert_no_error (error);
          check_last_in_series (t, which, key, windows[w][0], windows[w][1], got);
        }
    }
  for (guint k = 0; k < MIN (keys->len, 20); k++)
    {
      guint32 key = g_array_index (keys, guint32, g_rand_int_range (rand, 0, (gint32) keys->len));
      TtvTime t0 = lo + (TtvTime) (g_rand_double (rand) * (double) (hi - lo));
      TtvTime t1 = t0 + (TtvTime) (g_rand_double (rand) * (double) (hi - t0));
      g_autoptr (GArray) got = ttv_analysis_table_query_series (t, which, key, t0, t1, &error);
      g_assert_no_error (error);
      guint want = 0;
      TtvTime clipped = 0;
      for (guint i = 0; i < all->len; i++)
        {
          const guint8 *r = REC (all, i, size);
          guint32 v;
          memcpy (&v, r + spec->series_offset[which], sizeof v);
          if (v != key || !selected (TTV_QUERY_OVERLAP, r, t0, t1))
            continue;
          want++;
          clipped += MIN (ttv_analysis_record_end (r), t1) - MAX (ttv_analysis_record_start (r), t0);
        }
      g_assert_cmpuint (got->len, ==, want);
      check_last_in_series (t, which, key, t0, t1, got);
      TtvTime sum;
      g_assert_true (ttv_analysis_table_sum_series (t, which, key, t0, t1, &sum, &error));
      g_assert_cmpint (sum, ==, clipped);
    }
}

static gint64
record_group (const TtvAnalysisTableSpec *spec, const guint8 *r)
{
  if (spec->group_is_64)
    {
      gint64 key;
      memcpy (&key, r + spec->group_offset, sizeof key);
      return key;
    }
  guint32 v;
  memcpy (&v, r + spec->group_offset, sizeof v);
  return v;
}

/* Each group's count, total and extremes in @groups (of
 * TtvDurationSummary) against a walk of the records: the statistics find
 * a record's group through a cache in front of their table. */
static void
check_groups_by_walk (const TtvAnalysisTableSpec *spec, const GArray *all, const GArray *groups)
{
  if (spec->group_offset < 0)
    return;
  g_autoptr (GHashTable) walked = g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL, g_free);
  for (guint i = 0; i < all->len; i++)
    {
      const guint8 *r = REC (all, i, spec->record_size);
      gint64 key = record_group (spec, r);
      TtvDurationSummary *w = g_hash_table_lookup (walked, &key);
      if (w == NULL)
        {
          w = g_new0 (TtvDurationSummary, 1);
          w->key = key;
          w->min = G_MAXINT64;
          w->max = G_MININT64;
          g_hash_table_insert (walked, &w->key, w);
        }
      TtvTime d = ttv_analysis_record_duration (r);
      w->count++;
      w->total += d;
      w->min = MIN (w->min, d);
      w->max = MAX (w->max, d);
    }
  g_assert_cmpuint (groups->len, ==, g_hash_table_size (walked));
  for (guint g = 0; g < groups->len; g++)
    {
      const TtvDurationSummary *x = &g_array_index (groups, TtvDurationSummary, g);
      const TtvDurationSummary *w = g_hash_table_lookup (walked, &x->key);
      g_assert_nonnull (w);
      g_assert_cmpuint (x->count, ==, w->count);
      g_assert_cmpint (x->total, ==, w->total);
      g_assert_cmpint (x->min, ==, w->min);
      g_assert_cmpint (x->max, ==, w->max);
    }
}

static void
check_tables (TtvAnalysis *a, GRand *rand)
{
  for (guint i = 0; i < ttv_analysis_get_n_tables (a); i++)
    {
      const TtvAnalysisTable *t = ttv_analysis_get_table (a, i);
      g_autoptr (GArray) all = all_records (t);
      if (all->len == 0)
        continue;
      check_windows (t, all, rand);
      for (guint k = 0; k < TTV_ANALYSIS_MAX_SERIES; k++)
        if (ttv_analysis_table_get_spec (t)->series_offset[k] >= 0)
          check_series (t, all, k, rand);
      /* The whole table's statistics, stored when it was built. */
      if (ttv_analysis_table_get_spec (t)->summaries)
        {
          g_autoptr (GError) error = NULL;
          TtvDurationSummary stored, computed;
          g_autoptr (GArray) s1 = ttv_analysis_table_summarize (t, TTV_TIME_MIN, TTV_TIME_MAX, &stored, &error);
          g_autoptr (GArray) s2 = ttv_analysis_table_summarize (t, TTV_TIME_MIN + 1, TTV_TIME_MAX, &computed, &error);
          g_assert_no_error (error);
          g_assert_cmpuint (s1->len, ==, s2->len);
          g_assert_cmpuint (stored.count, ==, computed.count);
          g_assert_cmpint (stored.p99, ==, computed.p99);
          for (guint g = 0; g < s1->len; g++)
            {
              const TtvDurationSummary *x = &g_array_index (s1, TtvDurationSummary, g);
              const TtvDurationSummary *y = &g_array_index (s2, TtvDurationSummary, g);
              g_assert_cmpint (x->key, ==, y->key);
              g_assert_cmpuint (x->count, ==, y->count);
              g_assert_cmpint (x->p50, ==, y->p50);
              g_assert_cmpint (x->p90, ==, y->p90);
            }
          check_groups_by_walk (ttv_analysis_table_get_spec (t), all, s1);
          check_groups_by_walk (ttv_analysis_table_get_spec (t), all, s2);
        }
    }
}

/* Queries against the walk, for every analysis, in memory and from a file. */
static void
test_queries (void)
{
  Fixture f;
  fixture_open (&f, 60000);
  g_autoptr (GRand) rand = g_rand_new_with_seed (42);
  for (const TtvAnalysisClass *const *c = ttv_analysis_list (); *c; c++)
    for (int cached = 0; cached < 2; cached++)
      {
        g_autoptr (TtvAnalysis) a = run (&f, *c, cached);
        check_tables (a, rand);
      }
  fixture_close (&f);
}

/* Each thread of the CPU usage over a window has the name and process of
 * its last slice in the window (read from the slices when it was renamed,
 * else what the build stored), at windows ending before, at and after
 * renamings. */
static void
check_thread_names (const TtvAnalysis *a, TtvTime t0, TtvTime t1, guint *renamed_seen)
{
  g_autoptr (GError) error = NULL;
  const TtvAnalysisTable *t = ttv_analysis_find_table (a, "slices");
  g_autoptr (GArray) top = ttv_cpu_usage_top_threads (a, t0, t1, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < top->len; i++)
    {
      const TtvThreadUsage *u = &g_array_index (top, TtvThreadUsage, i);
      if (u->tid == 0)
        continue;
      guint32 key = ttv_thread_key (u->machine, u->tid);
      g_autoptr (GArray) slices = ttv_analysis_table_query_series (t, 1, key, t0, t1, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (slices->len, >, 0);
      const TtvCpuSlice *last = &g_array_index (slices, TtvCpuSlice, slices->len - 1);
      g_assert_cmpstr (u->name, ==, ttv_analysis_get_string (a, last->name));
      g_assert_cmpuint (u->tgid, ==, last->tgid);
      char name_key[48];
      gint64 v;
      g_snprintf (name_key, sizeof name_key, "renamed/%u", key);
      if (ttv_analysis_get_value (a, name_key, &v))
        (*renamed_seen)++;
    }
}

static void
test_thread_names (void)
{
  Fixture f;
  fixture_open (&f, 60000);
  g_autoptr (GRand) rand = g_rand_new_with_seed (7);
  for (int cached = 0; cached < 2; cached++)
    {
      g_autoptr (TtvAnalysis) a = run (&f, &ttv_cpu_usage_analysis, cached);
      const TtvAnalysisTable *t = ttv_analysis_find_table (a, "slices");
      g_autoptr (GArray) all = all_records (t);
      TtvTime lo = G_MAXINT64, hi = G_MININT64;
      for (guint i = 0; i < all->len; i++)
        {
          lo = MIN (lo, g_array_index (all, TtvCpuSlice, i).start);
          hi = MAX (hi, g_array_index (all, TtvCpuSlice, i).end);
        }
      guint renamed_seen = 0;
      check_thread_names (a, TTV_TIME_MIN, TTV_TIME_MAX, &renamed_seen);
      g_assert_cmpuint (renamed_seen, >, 0);
      for (guint w = 0; w < 40; w++)
        {
          TtvTime t0 = lo + (TtvTime) (g_rand_double (rand) * (double) (hi - lo));
          TtvTime t1 = t0 + (TtvTime) (g_rand_double (rand) * (double) (hi - t0));
          check_thread_names (a, t0, t1, &renamed_seen);
          check_thread_names (a, lo, t1, &renamed_seen);
        }
    }
  fixture_close (&f);
}

/* Two captures six years apart (issue 19): the scatter of one capture's
 * span, too full to be drawn from its records, is drawn from bins of a
 * fraction of a column, not from bins minutes long spread over every
 * column: the tables' bins leave the idle gap between the captures out.
 * A mark is where a record of its bucket starts (a column or two away at
 * most), and every record has its mark. */
static void
test_scatter_far_apart (void)
{
  g_autoptr (GError) error = NULL;
  const char *dir = ttv_test_get_tmp_dir ();
  g_autofree char *old = g_build_filename (dir, "old", NULL);
  g_autofree char *new = g_build_filename (dir, "new", NULL);
  write_trace (old, 60000, "alpha", 1500000000);
  write_trace (new, 60000, "beta", 1700000000);
  g_autoptr (TtvTraceset) ts = ttv_traceset_new ();
  g_assert_true (ttv_traceset_add_path (ts, old, &error));
  g_assert_true (ttv_traceset_add_path (ts, new, &error));
  g_assert_no_error (error);
  g_autofree char *cache = g_build_filename (dir, "cache", NULL);
  for (int cached = 0; cached < 2; cached++)
    {
      TtvAnalysisOptions o = { .no_cache = !cached, .cache_dir = cache };
      g_autoptr (TtvAnalysis) a = ttv_analysis_run (ts, &ttv_syscall_analysis, &o, NULL, NULL, NULL, &error);
      g_assert_no_error (error);
      const TtvAnalysisTable *t = ttv_analysis_find_table (a, "calls");
      g_autoptr (GArray) all = all_records (t);
      gsize size = ttv_analysis_table_get_spec (t)->record_size;
      for (guint m = 0; m < 2; m++)
        {
          TtvTime t0, t1;
          g_assert_true (ttv_traceset_get_machine_span (ts, m, &t0, &t1));
          guint width = 100;
          TtvScatterColumn cols[100];
          gboolean exact;
          g_assert_true (ttv_analysis_table_scatter (t, t0, t1 + 1, width, cols, &exact, &error));
          g_assert_no_error (error);
          g_assert_false (exact);
          /* Per column and bucket, the records starting there. */
          g_autofree guint64 *want_cells = g_new0 (guint64, (gsize) width * TTV_DURATION_BUCKETS);
          guint64 (*want)[TTV_DURATION_BUCKETS] = (guint64 (*)[TTV_DURATION_BUCKETS]) want_cells;
          for (guint i = 0; i < all->len; i++)
            {
              const guint8 *r = REC (all, i, size);
              TtvTime s = ttv_analysis_record_start (r);
              if (s < t0 || s > t1)
                continue;
              guint x = (guint) ((double) (s - t0) * width / (double) (t1 + 1 - t0));
              want[x][ttv_duration_bucket (ttv_analysis_record_end (r) - s)]++;
            }
          for (guint x = 0; x < width; x++)
            for (guint b = 0; b < TTV_DURATION_BUCKETS; b++)
              {
                gboolean marked = (cols[x].mask[b / 64] >> (b % 64)) & 1, near = FALSE, near_mark = FALSE;
                for (guint dx = x > 2 ? x - 2 : 0; dx <= MIN (x + 2, width - 1); dx++)
                  {
                    near = near || want[dx][b] > 0;
                    near_mark = near_mark || ((cols[dx].mask[b / 64] >> (b % 64)) & 1);
                  }
                if (marked && !near)
                  g_error ("machine %u: column %u marks bucket %u where no record of it starts", m, x, b);
                if (want[x][b] && !near_mark)
                  g_error ("machine %u: the records of bucket %u in column %u have no mark", m, b, x);
              }
        }
    }
}

/* The longest calls of windows too full for the records' own scatter
 * (more than 32 a column): found from the summaries as from a walk. */
static void
test_longest (void)
{
  Fixture f;
  fixture_open (&f, 250000);
  g_autoptr (TtvAnalysis) a = run (&f, &ttv_syscall_analysis, FALSE);
  const TtvAnalysisTable *t = ttv_analysis_find_table (a, "calls");
  g_autoptr (GArray) all = all_records (t);
  g_assert_cmpuint (all->len, >, 512 * 32);
  TtvTime lo = ttv_analysis_record_start (all->data);
  TtvTime hi = ttv_analysis_record_end (REC (all, all->len - 1, ttv_analysis_table_get_spec (t)->record_size));
  check_longest (t, all, TTV_TIME_MIN, TTV_TIME_MAX);
  check_longest (t, all, lo, hi);
  check_longest (t, all, lo + (hi - lo) / 7, hi - (hi - lo) / 5);
  fixture_close (&f);
}

/* The records of @a, as bytes (to compare two runs). */
static GByteArray *
dump (TtvAnalysis *a)
{
  GByteArray *out = g_byte_array_new ();
  for (guint i = 0; i < ttv_analysis_get_n_tables (a); i++)
    {
      const TtvAnalysisTable *t = ttv_analysis_get_table (a, i);
      g_autoptr (GArray) all = all_records (t);
      g_byte_array_append (out, (const guint8 *) all->data, all->len * (guint) ttv_analysis_table_get_spec (t)->record_size);
    }
  return out;
}

static void
assert_same_records (TtvAnalysis *a, TtvAnalysis *b)
{
  g_autoptr (GByteArray) x = dump (a), y = dump (b);
  g_assert_cmpmem (x->data, x->len, y->data, y->len);
}

static char *
report (TtvAnalysis *a)
{
  g_autoptr (GError) error = NULL;
  GString *out = g_string_new (NULL);
  g_assert_true (ttv_analysis_write (a, TTV_ANALYSIS_FORMAT_JSONL, NULL, out, &error));
  g_assert_no_error (error);
  return g_string_free (out, FALSE);
}

/* A class that adds a hook of its own for every event (counting them):
 * a pass with it reads the trace through the hooks. */
static gboolean
count_event (gpointer data, gpointer call_data)
{
  (*(guint64 *) data)++;
  return FALSE;
}

static gpointer
hooked_attach (TtvAnalysisPass *pass, const TtvAnalysisOptions *options, GError **error)
{
  guint64 *n = g_new0 (guint64, 1);
  ttv_analysis_pass_add_hook (pass, NULL, count_event, n, TTV_PRIO_DEFAULT);
  return n;
}

static const TtvAnalysisClass hooked_class = {
  .name = "test-hooked", .needs_state = TRUE, .attach = hooked_attach, .free = g_free,
};

/* The kernel analyses in one read, as the pass runs them: alone, each
 * observes the state itself and the pass reads the events with no hooks;
 * all six together (more observers than the state takes) with a class
 * that adds a hook, through the fan-out and the hooks.  The same records
 * and reports either way. */
static void
test_one_read (void)
{
  static const TtvAnalysisClass *const kernel[] = {
    &ttv_cpu_usage_analysis, &ttv_syscall_analysis, &ttv_sched_analysis,
    &ttv_irq_analysis, &ttv_block_analysis, &ttv_futex_analysis,
  };
  Fixture f;
  fixture_open (&f, 30000);
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) classes = g_ptr_array_new ();
  for (guint i = 0; i < G_N_ELEMENTS (kernel); i++)
    g_ptr_array_add (classes, (gpointer) kernel[i]);
  g_ptr_array_add (classes, (gpointer) &hooked_class);
  TtvAnalysisOptions o = { .no_cache = TRUE };
  g_autoptr (GPtrArray) together = ttv_analysis_run_many (f.ts, classes, &o, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  const guint64 *hooked = ttv_analysis_get_data (g_ptr_array_index (together, G_N_ELEMENTS (kernel)));
  g_assert_cmpuint (*hooked, ==, ttv_analysis_get_n_events (g_ptr_array_index (together, 0)));
  g_assert_cmpuint (*hooked, >=, 30000);
  for (guint i = 0; i < G_N_ELEMENTS (kernel); i++)
    {
      g_autoptr (TtvAnalysis) alone = run (&f, kernel[i], FALSE);
      TtvAnalysis *with = g_ptr_array_index (together, i);
      g_assert_cmpuint (ttv_analysis_get_n_events (alone), ==, *hooked);
      assert_same_records (alone, with);
      g_autofree char *want = report (with), *got = report (alone);
      g_assert_cmpstr (got, ==, want);
    }
  fixture_close (&f);
}

/* Counts that wrap when multiplied (found by fuzz-analysis-file): 2^63
 * value pairs made 2 * n wrap to none (2^63 + 1: to one pair), and the
 * reader went on reading pairs past its copy.  Refused, naming the values. */
static void
test_hostile_counts (void)
{
  Fixture f;
  fixture_open (&f, 3000);
  const TtvAnalysisClass *cls = &ttv_syscall_analysis;
  g_autoptr (TtvAnalysis) first = run (&f, cls, TRUE);
  g_autofree char *contents = NULL;
  gsize len;

  g_assert_true (g_file_get_contents (ttv_analysis_get_cache_path (first), &contents, &len, NULL));
  g_assert_cmpuint (len, >, sizeof (TtvAnalysisHeader));
  for (guint k = 0; k < 2; k++)
    {
      g_autofree char *bad = g_memdup2 (contents, len);
      TtvAnalysisHeader *hd = (TtvAnalysisHeader *) bad;
      g_autoptr (GError) error = NULL;

      hd->n_values = (G_GUINT64_CONSTANT (1) << 63) + k;
      g_autoptr (GBytes) bytes = g_bytes_new (bad, len);
      g_autoptr (TtvAnalysis) a = ttv_analysis_load_bytes (bytes, NULL, cls, &error);
      g_assert_null (a);
      g_assert_nonnull (error);
      g_assert_nonnull (strstr (error->message, "bad values"));
    }
  fixture_close (&f);
}

static void
test_cache (void)
{
  Fixture f;
  fixture_open (&f, 30000);
  const TtvAnalysisClass *cls = &ttv_syscall_analysis;
  g_autoptr (TtvAnalysis) first = run (&f, cls, TRUE);
  g_autoptr (TtvAnalysis) memory = run (&f, cls, FALSE);
  g_assert_false (ttv_analysis_is_from_cache (first));
  g_assert_false (ttv_analysis_is_from_cache (memory));
  assert_same_records (first, memory);
  TtvAnalysisOptions o = { .cache_dir = f.cache };
  g_autofree char *path = ttv_analysis_cache_path (f.ts, cls, &o);
  g_assert_cmpstr (ttv_analysis_get_cache_path (first), ==, path);
  g_assert_true (g_str_has_suffix (path, ".syscalls.ttva"));
  g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));

  /* Reused: the same records, from the file. */
  g_autoptr (TtvAnalysis) again = run (&f, cls, TRUE);
  g_assert_true (ttv_analysis_is_from_cache (again));
  assert_same_records (first, again);
  gint64 v1, v2;
  g_assert_cmpuint (ttv_analysis_get_n_events (again), ==, ttv_analysis_get_n_events (first));
  g_assert_false (ttv_analysis_get_value (again, "no-such-value", &v1));
  (void) v2;

  /* Damaged anywhere (a byte in the middle), truncated, or another
   * analysis's file under its name: refused, rebuilt, replaced. */
  g_autofree char *contents = NULL;
  gsize len;
  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  for (guint k = 0; k < 3; k++)
    {
      g_autoptr (GError) error = NULL;
      if (k == 0)
        {
          g_autofree char *bad = g_memdup2 (contents, len);
          bad[len / 2] ^= 0x40;
          g_assert_true (g_file_set_contents (path, bad, (gssize) len, NULL));
        }
      else if (k == 1)
        g_assert_true (g_file_set_contents (path, contents, (gssize) (len / 3), NULL));
      else
        {
          g_autoptr (TtvAnalysis) other = run (&f, &ttv_irq_analysis, TRUE);
          g_assert_no_errno (g_rename (ttv_analysis_get_cache_path (other), path));
        }
      g_autoptr (TtvAnalysis) loaded = ttv_analysis_load (path, f.ts, cls, &error);
      g_assert_null (loaded);
      g_assert_nonnull (error);
      /* The message names the file. */
      g_assert_nonnull (strstr (error->message, path));
      g_autoptr (TtvAnalysis) rebuilt = run (&f, cls, TRUE);
      g_assert_false (ttv_analysis_is_from_cache (rebuilt));
      assert_same_records (first, rebuilt);
      g_autoptr (TtvAnalysis) reused = run (&f, cls, TRUE);
      g_assert_true (ttv_analysis_is_from_cache (reused));
    }

  /* The trace changed: the file describes another state of it. */
  g_autoptr (GDir) d = g_dir_open (f.trace, 0, NULL);
  const char *name;
  while ((name = g_dir_read_name (d)))
    if (g_str_has_prefix (name, "channel"))
      {
        g_autofree char *stream = g_build_filename (f.trace, name, NULL);
        struct stat st;
        g_assert_no_errno (stat (stream, &st));
        struct timespec times[2] = { st.st_atim, { st.st_mtim.tv_sec + 10, 0 } };
        g_assert_no_errno (utimensat (AT_FDCWD, stream, times, 0));
        break;
      }
  g_autoptr (GError) stale_error = NULL;
  g_autoptr (TtvAnalysis) stale = ttv_analysis_load (path, f.ts, cls, &stale_error);
  g_assert_null (stale);
  g_assert_error (stale_error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_INVALID);
  g_autoptr (TtvAnalysis) fresh = run (&f, cls, TRUE);
  g_assert_false (ttv_analysis_is_from_cache (fresh));
  fixture_close (&f);
}

/* Buckets: the largest whose lower bound is at most the duration, four
 * per power of two, every duration in one. */
static void
test_buckets (void)
{
  g_assert_cmpuint (ttv_duration_bucket (-5), ==, 0);
  g_assert_cmpuint (ttv_duration_bucket (0), ==, 0);
  g_assert_cmpuint (ttv_duration_bucket (1), ==, 1);
  g_assert_cmpint (ttv_duration_bucket_lower (0), ==, 0);
  g_assert_cmpint (ttv_duration_bucket_lower (5), ==, 2);     /* ceil (2^1) */
  g_assert_cmpint (ttv_duration_bucket_lower (6), ==, 3);     /* ceil (2^1.25) */
  g_autoptr (GRand) rand = g_rand_new_with_seed (3);
  for (guint i = 0; i < 200000; i++)
    {
      TtvTime d = i < 100000 ? (TtvTime) i : (TtvTime) (g_rand_double (rand) * exp2 (g_rand_double_range (rand, 0, 62)));
      /* Powers of two and their neighbours: where a bucket's search starts. */
      if (i % 1000 >= 997)
        d = ((TtvTime) 1 << (i / 1000 % 63)) + (TtvTime) (i % 1000) - 998;
      if (i == 199999)
        d = G_MAXINT64;
      guint b = ttv_duration_bucket (d);
      g_assert_cmpuint (b, <, TTV_DURATION_BUCKETS);
      if (d >= 1)
        {
          g_assert_cmpint (ttv_duration_bucket_lower (b), <=, d);
          if (b + 1 < TTV_DURATION_BUCKETS)
            g_assert_cmpint (ttv_duration_bucket_lower (b + 1), >, d);
        }
    }
}

/* @a and @b hold the same summaries and tree. */
static void
assert_same_seq (const TtvAnalysisSeq *a, const TtvAnalysisSeq *b)
{
  g_assert_cmpmem (&a->h, sizeof a->h, &b->h, sizeof b->h);
  g_assert_cmpmem (a->chunks, a->h.n_chunks * sizeof (TtvAnalysisBlock), b->chunks,
                   b->h.n_chunks * sizeof (TtvAnalysisBlock));
  g_assert_cmpuint (a->tree_base, ==, b->tree_base);
  /* Nodes from 1 (0 is not one). */
  gsize tree = (2 * a->tree_base - 1) * sizeof (gint64);
  g_assert_cmpmem (a->tree_min_start + 1, tree, b->tree_min_start + 1, tree);
  g_assert_cmpmem (a->tree_max_start + 1, tree, b->tree_max_start + 1, tree);
  g_assert_cmpmem (a->tree_max_end + 1, tree, b->tree_max_end + 1, tree);
}

/* A table's series are loaded through a read-ahead window, one read for
 * the summaries of many: the same summaries as read one by one, loaded in
 * file order (the window moving), backwards, skipping, through windows of
 * several sizes, and from a file cut short (refused alike). */
static void
test_series_read_ahead (void)
{
  enum { N_SEQS = 300 };
  TtvHistoryWriter w;
  g_assert_true (ttv_history_writer_init_file (&w, ttv_test_get_tmp_dir (), TRUE, NULL));
  TtvAnalysisSeqHeader h[N_SEQS];
  for (guint s = 0; s < N_SEQS; s++)
    {
      TtvAnalysisSeqWriter sw;
      ttv_analysis_seq_writer_init (&sw, sizeof (TtvAnalysisSeriesEntry), NULL);
      /* One to three blocks between two sequences' summaries, and one
       * sequence of two chunks (its summaries far from the last's). */
      guint n = s == 7 ? TTV_ANALYSIS_BLOCK * TTV_ANALYSIS_CHUNK + 5 : 1 + (s * 37) % (3 * TTV_ANALYSIS_BLOCK);
      for (guint i = 0; i < n; i++)
        {
          gint64 start = (gint64) s * 1000000 + i * 10;
          TtvAnalysisSeriesEntry e = { start, start + i % 13, i };
          ttv_analysis_seq_writer_add (&sw, &w, &e);
        }
      ttv_analysis_seq_writer_finish (&sw, &w, &h[s]);
      ttv_analysis_seq_writer_clear (&sw);
    }
  g_assert_true (ttv_history_writer_flush (&w));
  g_assert_cmpuint (h[7].n_chunks, ==, 2);

  for (guint cut = 0; cut < 2; cut++)
    {
      /* The whole file, then its first half. */
      TtvAnalysisSource src = { NULL, w.fd, cut ? w.offset / 2 : w.offset, "series" };
      TtvAnalysisSeq want[N_SEQS];
      gboolean loaded[N_SEQS];
      for (guint s = 0; s < N_SEQS; s++)
        loaded[s] = ttv_analysis_seq_load (&want[s], &src, &h[s], sizeof (TtvAnalysisSeriesEntry), NULL);
      g_assert_true (loaded[N_SEQS - 1] == !cut);
      static const gsize caps[] = { 256, 4096, 64 * 1024 };
      /* Forward, backward, every third. */
      static const int steps[] = { 1, -1, 3 };
      for (guint c = 0; c < G_N_ELEMENTS (caps); c++)
        for (guint k = 0; k < G_N_ELEMENTS (steps); k++)
          {
            g_autofree guint8 *buf = g_malloc (caps[c]);
            TtvHistoryReadWindow ahead = { buf, caps[c], 0, 0 };
            guint moves = 0, loads = 0;
            guint64 last_offset = 0;
            for (guint j = 0; j < N_SEQS; j++)
              {
                guint s = steps[k] == -1 ? N_SEQS - 1 - j : j;
                if (steps[k] == 3 && s % 3 != 0)
                  continue;
                TtvAnalysisSeq got;
                gboolean ok = ttv_analysis_seq_load (&got, &src, &h[s], sizeof (TtvAnalysisSeriesEntry), &ahead);
                g_assert_true (ok == loaded[s]);
                if (ok)
                  assert_same_seq (&got, &want[s]);
                ttv_analysis_seq_clear (&got);
                loads++;
                moves += ahead.offset != last_offset;
                last_offset = ahead.offset;
              }
            /* Forward, the window moved along, and a large one served
             * many loads a read (a window of 256 bytes only the first:
             * the others lie further than a quarter of it past it). */
            if (steps[k] == 1 && !cut && caps[c] >= 4096)
              g_assert_cmpuint (moves, >, 1);
            if (steps[k] == 1 && !cut && caps[c] == 64 * 1024)
              g_assert_cmpuint (moves * 8, <, loads);
          }
      for (guint s = 0; s < N_SEQS; s++)
        ttv_analysis_seq_clear (&want[s]);
    }
  ttv_history_writer_clear (&w);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/analysis/tables/buckets", test_buckets);
  g_test_add_func ("/analysis/tables/queries", test_queries);
  g_test_add_func ("/analysis/tables/thread-names", test_thread_names);
  g_test_add_func ("/analysis/tables/longest", test_longest);
  g_test_add_func ("/analysis/tables/scatter-far-apart", test_scatter_far_apart);
  g_test_add_func ("/analysis/tables/cache", test_cache);
  g_test_add_func ("/analysis/tables/one-read", test_one_read);
  g_test_add_func ("/analysis/tables/hostile-counts", test_hostile_counts);
  g_test_add_func ("/analysis/tables/series-read-ahead", test_series_read_ahead);
  return g_test_run ();
}
