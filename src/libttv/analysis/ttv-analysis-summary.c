/* ttv-analysis-summary.c: what latency tables keep besides their records:
 * the duration histogram by start time, the scatter levels (which duration
 * buckets hold a record, per time bin, each level's bins 8 times finer),
 * and per-group statistics with exact percentiles, computed in two reads of
 * the records with bounded memory (when a table is written, the first as
 * its records are pushed).  Used by the table builder and queries. */
#include "ttv-analysis-private.h"
#include "ttv-error.h"

#include <math.h>
#include <string.h>

/* Finer scatter levels while they have at most one bin per this many records. */
#define RECORDS_PER_BIN 8
#define LEVEL_STEP 3

/* ---- statistics ---- */

static const double percentiles[3] = { 50, 90, 99 };

typedef struct {
  TtvAnalysisStats s;
  double m2;                    /* Welford's sum of squared deviations */
  guint64 hist[TTV_DURATION_BUCKETS];
  guint target[3];              /* bucket of each percentile's duration */
  guint64 rank[3];              /* its rank among that bucket's durations (from 1) */
  /* Of gint64: that bucket's durations, second read.  Percentiles whose
   * durations lie in one bucket (the buckets go up with k) share one. */
  GArray *found[3];
} Acc;

static void
acc_init (Acc *a, gint64 key)
{
  memset (a, 0, sizeof *a);
  a->s.key = key;
  a->s.min = G_MAXINT64;
  a->s.max = G_MININT64;
}

static void
acc_free (Acc *a)
{
  for (guint k = 0; k < 3; k++)
    if (a->found[k])
      g_array_unref (a->found[k]);
  g_free (a);
}

/* @d in bucket @b (ttv_duration_bucket, computed once per record). */
static void
acc_add (Acc *a, gint64 d, guint b)
{
  a->s.count++;
  /* Saturates: durations from a damaged cache file may be anything. */
  a->s.total = ttv_time_add_saturating (a->s.total, d);
  a->s.min = MIN (a->s.min, d);
  a->s.max = MAX (a->s.max, d);
  double delta = (double) d - a->s.mean;
  a->s.mean += delta / (double) a->s.count;
  a->m2 += delta * ((double) d - a->s.mean);
  a->hist[b]++;
}

/* After the first read: where each percentile's duration lies. */
static void
acc_plan (Acc *a)
{
  for (guint k = 0; k < 3; k++)
    {
      guint64 r = (guint64) ceil (percentiles[k] * (double) a->s.count / 100.0);
      r = CLAMP (r, 1, MAX (a->s.count, 1));
      guint64 below = 0;
      guint b = 0;
      for (; b < TTV_DURATION_BUCKETS; b++)
        {
          if (below + a->hist[b] >= r)
            break;
          below += a->hist[b];
        }
      a->target[k] = MIN (b, TTV_DURATION_BUCKETS - 1);
      a->rank[k] = r - below;
      /* As large as the first read counted: grown by doubling, the array
       * was copied into fresh pages at each step, and a page fault costs
       * microseconds on a virtual machine (bench/README.md, issue 15,
       * "large buffers in huge pages"). */
      if (k > 0 && a->target[k] == a->target[k - 1])
        a->found[k] = g_array_ref (a->found[k - 1]);
      else
        a->found[k] = g_array_sized_new (FALSE, FALSE, sizeof (gint64),
                                         (guint) MIN (a->hist[a->target[k]], G_MAXUINT32));
    }
}

static void
acc_collect (Acc *a, gint64 d, guint b)
{
  for (guint k = 0; k < 3; k++)
    if (b == a->target[k] && (k == 0 || a->found[k] != a->found[k - 1]))
      g_array_append_val (a->found[k], d);
}

static gint
compare_i64 (gconstpointer x, gconstpointer y)
{
  gint64 a = *(const gint64 *) x, b = *(const gint64 *) y;
  return a < b ? -1 : a > b;
}

/* The value of rank @k (from 0) among @v's @n: Hoare's selection, which
 * leaves the others in any order, where sorting them all for one value
 * took 13 % of a table's summaries. */
static gint64
select_rank (gint64 *v, gssize n, gssize k)
{
  gssize lo = 0, hi = n - 1;
  while (lo < hi)
    {
      gint64 pivot = v[lo + (hi - lo) / 2];
      gssize i = lo, j = hi;
      /* Afterwards v[lo..j] <= pivot <= v[i..hi], and whatever lies
       * between them equals the pivot. */
      while (i <= j)
        {
          while (v[i] < pivot)
            i++;
          while (v[j] > pivot)
            j--;
          if (i <= j)
            {
              gint64 t = v[i];
              v[i++] = v[j];
              v[j--] = t;
            }
        }
      if (k <= j)
        hi = j;
      else if (k >= i)
        lo = i;
      else
        return pivot;
    }
  return v[k];
}

static void
acc_finish (Acc *a)
{
  if (a->s.count == 0)
    {
      memset (&a->s, 0, sizeof a->s);
      a->s.key = -1;
      return;
    }
  a->s.stddev = sqrt (a->m2 / (double) a->s.count);
  gint64 *values[3] = { &a->s.p50, &a->s.p90, &a->s.p99 };
  for (guint k = 0; k < 3; k++)
    {
      GArray *f = a->found[k];
      *values[k] = a->rank[k] >= 1 && a->rank[k] <= f->len
                     ? select_rank ((gint64 *) f->data, f->len, (gssize) a->rank[k] - 1) : a->s.max;
    }
}

/* ---- histogram and scatter levels: what their read does per record ---- */

typedef struct {
  TtvAnalysisLevel lv;
  TtvScatterColumn *bins;       /* owned */
} Level;

typedef struct {
  const TtvBusyClock *clock;
  Level *levels;
  guint n_levels;
} LevelScan;

/* A record starting at @start, its duration in bucket @b. */
static void
level_add (LevelScan *s, gint64 start, guint b)
{
  guint64 bit = G_GUINT64_CONSTANT (1) << (b % 64);
  for (guint k = 0; k < s->n_levels; k++)
    {
      Level *l = &s->levels[k];
      guint32 i = ttv_analysis_busy_bin (s->clock, l->lv.shift, l->lv.n_bins, start);
      l->bins[i].mask[b / 64] |= bit;
      l->bins[i].count++;
    }
}

/* Slots of the groups' lookup cache: a table has few groups (system
 * calls, IRQs, CPUs), and each record asks for its own. */
#define GROUP_CACHE_SLOTS 64

/* TtvAnalysisStatsAcc: the first read's, taken as a table's records are
 * pushed (ttv_analysis_stats_acc_new). */
typedef struct _TtvAnalysisStatsAcc {
  const TtvAnalysisTableSpec *spec;
  TtvTime t0, t1;
  const TtvAnalysisColumn *only;   /* NULL: every record */
  gint64 only_value;
  GHashTable *groups;           /* gint64 key -> Acc *, owned */
  /* Groups found in @groups, by their key's slot (group_slot): a hash
   * lookup (g_int64_hash, g_int64_equal through pointers) twice a record
   * was most of the statistics' cost.  NULL: nothing cached there. */
  Acc *cached[GROUP_CACHE_SLOTS];
  Acc *all;
  gboolean second;
  guint64 n;
  GCancellable *cancel;
  gboolean cancelled;
} StatsScan;

static gint64
group_key (const TtvAnalysisTableSpec *spec, const void *record)
{
  const guint8 *p = (const guint8 *) record + spec->group_offset;
  if (spec->group_is_64)
    {
      guint64 v;
      memcpy (&v, p, sizeof v);
      return (gint64) v;
    }
  guint32 v;
  memcpy (&v, p, sizeof v);
  return v;
}

static guint
group_slot (gint64 key)
{
  /* Fibonacci hashing: keys that differ in any bits spread over the slots. */
  return (guint) (((guint64) key * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15)) >> 58);
}

G_STATIC_ASSERT (GROUP_CACHE_SLOTS == 1 << (64 - 58));

/* The group of @key, through the cache; created in the first read only
 * (the second reads the groups the first found). */
static Acc *
find_group (StatsScan *s, gint64 key)
{
  guint slot = group_slot (key);
  Acc *g = s->cached[slot];
  if (g && g->s.key == key)
    return g;
  g = g_hash_table_lookup (s->groups, &key);
  if (g == NULL && !s->second)
    {
      g = g_new (Acc, 1);
      acc_init (g, key);
      g_hash_table_insert (s->groups, &g->s.key, g);
    }
  if (g)
    s->cached[slot] = g;
  return g;
}

/* Whether @s counts @record (in its window and selection); FALSE too when
 * the read is cancelled (then s->cancelled). */
static gboolean
stats_takes (StatsScan *s, const void *record)
{
  gint64 start = ttv_analysis_record_start (record);
  if (start < s->t0 || start > s->t1)
    return FALSE;
  if (s->only && ttv_analysis_column_get (s->only, record) != s->only_value)
    return FALSE;
  if ((++s->n & 0xffff) == 0 && g_cancellable_is_cancelled (s->cancel))
    {
      s->cancelled = TRUE;
      return FALSE;
    }
  return TRUE;
}

/* @record, of duration @d in bucket @b (ttv_duration_bucket, computed once
 * per record for all its uses). */
static void
stats_add (StatsScan *s, const void *record, gint64 d, guint b)
{
  Acc *g = s->spec->group_offset >= 0 ? find_group (s, group_key (s->spec, record)) : NULL;
  if (s->second)
    {
      acc_collect (s->all, d, b);
      if (g)
        acc_collect (g, d, b);
    }
  else
    {
      acc_add (s->all, d, b);
      if (g)
        acc_add (g, d, b);
    }
}

static gboolean
stats_entry (const void *record, guint64 index, gpointer data)
{
  StatsScan *s = data;
  if (!stats_takes (s, record))
    return !s->cancelled;
  gint64 d = ttv_analysis_record_duration (record);
  stats_add (s, record, d, ttv_duration_bucket (d));
  return TRUE;
}

static gint
compare_key (gconstpointer x, gconstpointer y)
{
  const TtvAnalysisStats *a = x, *b = y;
  return a->key < b->key ? -1 : a->key > b->key;
}

static void
stats_scan_init (StatsScan *s, const TtvAnalysisTableSpec *spec, TtvTime t0, TtvTime t1,
                 const TtvAnalysisColumn *only, gint64 only_value, GCancellable *cancel)
{
  memset (s, 0, sizeof *s);
  s->spec = spec;
  s->t0 = t0;
  s->t1 = t1;
  s->only = only;
  s->only_value = only_value;
  s->cancel = cancel;
  s->groups = g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL, (GDestroyNotify) acc_free);
  s->all = g_new (Acc, 1);
  acc_init (s->all, -1);
}

static void
stats_scan_clear (StatsScan *s)
{
  g_hash_table_unref (s->groups);
  acc_free (s->all);
}

/* Between the two reads: where each percentile lies. */
static void
stats_plan (StatsScan *s)
{
  s->second = TRUE;
  acc_plan (s->all);
  GHashTableIter it;
  gpointer v;
  g_hash_table_iter_init (&it, s->groups);
  while (g_hash_table_iter_next (&it, NULL, &v))
    acc_plan (v);
}

/* After the second read: the groups' statistics by key, and @all. */
static GArray *
stats_result (StatsScan *s, TtvAnalysisStats *all)
{
  GArray *out = g_array_new (FALSE, TRUE, sizeof (TtvAnalysisStats));
  acc_finish (s->all);
  *all = s->all->s;
  GHashTableIter it;
  gpointer v;
  g_hash_table_iter_init (&it, s->groups);
  while (g_hash_table_iter_next (&it, NULL, &v))
    {
      acc_finish (v);
      g_array_append_val (out, ((Acc *) v)->s);
    }
  g_array_sort (out, compare_key);
  return out;
}

/* The read's cancellation, once it returned @ok. */
static gboolean
read_done (gboolean ok, gboolean cancelled, GCancellable *cancel, GError **error)
{
  if (ok && cancelled)
    return !g_cancellable_set_error_if_cancelled (cancel, error);
  return ok;
}

GArray *
ttv_analysis_stats_compute (const TtvAnalysisTableSpec *spec, const TtvAnalysisSource *src,
                            const TtvAnalysisSeq *seq, TtvTime t0, TtvTime t1, const TtvAnalysisColumn *only,
                            gint64 only_value, TtvAnalysisStats *all, GCancellable *cancel, GError **error)
{
  StatsScan s;
  stats_scan_init (&s, spec, t0, t1, only, only_value, cancel);
  gboolean ok = ttv_analysis_seq_scan (seq, src, TTV_QUERY_START_IN, t0, t1, stats_entry, &s, error);
  ok = read_done (ok, s.cancelled, cancel, error);
  if (ok)
    {
      stats_plan (&s);
      ok = ttv_analysis_seq_scan (seq, src, TTV_QUERY_START_IN, t0, t1, stats_entry, &s, error);
      ok = read_done (ok, s.cancelled, cancel, error);
    }
  GArray *out = ok ? stats_result (&s, all) : NULL;
  stats_scan_clear (&s);
  return out;
}

/* ---- the first read as the records are pushed ---- */

TtvAnalysisStatsAcc *
ttv_analysis_stats_acc_new (const TtvAnalysisTableSpec *spec)
{
  StatsScan *s = g_new (StatsScan, 1);
  stats_scan_init (s, spec, G_MININT64, G_MAXINT64, NULL, 0, NULL);
  return s;
}

void
ttv_analysis_stats_acc_add (TtvAnalysisStatsAcc *a, const void *record, guint bucket)
{
  /* Every record, in a window of all time: nothing to select. */
  stats_add (a, record, ttv_analysis_record_duration (record), bucket);
}

void
ttv_analysis_stats_acc_free (TtvAnalysisStatsAcc *a)
{
  if (a == NULL)
    return;
  stats_scan_clear (a);
  g_free (a);
}

gsize
ttv_analysis_stats_acc_memory (const TtvAnalysisStatsAcc *a)
{
  return sizeof *a + (g_hash_table_size (a->groups) + 1) * (sizeof (Acc) + 32);
}

/* A table's one read when it is written, its statistics' first read done
 * as its records were pushed: the statistics' second read and the
 * scatter levels. */
typedef struct {
  LevelScan *levels;
  StatsScan *stats;
} SecondRead;

static gboolean
second_read_entry (const void *record, guint64 index, gpointer data)
{
  SecondRead *r = data;
  if (!stats_takes (r->stats, record))
    return !r->stats->cancelled;
  gint64 d = ttv_analysis_record_duration (record);
  guint b = ttv_duration_bucket (d);
  level_add (r->levels, ttv_analysis_record_start (record), b);
  stats_add (r->stats, record, d, b);
  return TRUE;
}

/* @t's statistics from its accumulator, @levels (none: n_levels 0) filled
 * in the same read of every record. */
static GArray *
stats_finish_pushed (TtvTableBuilder *t, const TtvAnalysisSource *src, const TtvAnalysisSeq *seq,
                     LevelScan *levels, TtvAnalysisStats *all, GCancellable *cancel, GError **error)
{
  StatsScan *s = t->stats;
  s->cancel = cancel;
  stats_plan (s);
  SecondRead second = { levels, s };
  gboolean ok = ttv_analysis_seq_scan (seq, src, TTV_QUERY_START_IN, G_MININT64, G_MAXINT64, second_read_entry,
                                       &second, error);
  ok = read_done (ok, s->cancelled, cancel, error);
  return ok ? stats_result (s, all) : NULL;
}

void
ttv_duration_summary_compute (TtvDurationSummary *out, gint64 key, TtvTime *durations, gsize n)
{
  memset (out, 0, sizeof *out);
  out->key = key;
  if (n == 0)
    return;
  qsort (durations, n, sizeof *durations, compare_i64);
  Acc a;
  acc_init (&a, key);
  for (gsize i = 0; i < n; i++)
    acc_add (&a, durations[i], ttv_duration_bucket (durations[i]));
  out->count = a.s.count;
  out->total = a.s.total;
  out->min = a.s.min;
  out->max = a.s.max;
  out->mean = a.s.mean;
  out->stddev = sqrt (a.m2 / (double) n);
  TtvTime *values[3] = { &out->p50, &out->p90, &out->p99 };
  for (guint k = 0; k < 3; k++)
    {
      gsize r = (gsize) ceil (percentiles[k] * (double) n / 100.0);
      *values[k] = durations[CLAMP (r, 1, n) - 1];
    }
}

/* ---- histogram and scatter levels ---- */

/* Merges the histogram's bins 2^@merge at a time. */
static void
coarsen_histogram (TtvTableBuilder *t, guint merge)
{
  if (merge == 0)
    return;
  guint32 n = ((t->hist_bins - 1) >> merge) + 1;
  guint32 **bins = g_new0 (guint32 *, n);
  for (guint32 b = 0; b < t->hist_bins; b++)
    {
      if (t->hist[b] == NULL)
        continue;
      guint32 *to = bins[b >> merge];
      if (to == NULL)
        to = bins[b >> merge] = ttv_history_slab_alloc0 (&t->slab, TTV_DURATION_BUCKETS * sizeof (guint32));
      for (guint k = 0; k < TTV_DURATION_BUCKETS; k++)
        to[k] += t->hist[b][k];
    }
  g_free (t->hist);
  t->hist = bins;
  t->hist_bins = n;
  t->hist_shift += merge;
}

gboolean
ttv_analysis_summaries_write (TtvTableBuilder *t, TtvHistoryWriter *w, const TtvAnalysisSource *src,
                              const TtvAnalysisSeqHeader *main, TtvAnalysisTableHeader *h, GCancellable *cancel,
                              GError **error)
{
  const TtvAnalysisTableSpec *spec = t->spec;
  TtvAnalysisSeq seq;
  if (!ttv_analysis_seq_load (&seq, src, main, spec->record_size, NULL))
    {
      ttv_analysis_seq_clear (&seq);
      ttv_analysis_set_read_error (error, src, main->chunks_offset);
      return FALSE;
    }
  gboolean ok = TRUE;
  Level levels[TTV_ANALYSIS_MAX_LEVELS];
  guint n_levels = 0;
  if (spec->summaries)
    {
      /* Level 0 has the histogram's bins; the others, 8 times finer each,
       * while they have few bins for the records. */
      /* Fewer, wider bins for a small table: as many as it has records
       * over 8, at least 16 (the histogram's were planned for any size). */
      guint merge = 0;
      while ((t->hist_bins >> merge) > 16 && ((guint64) t->hist_bins >> merge) * 8 > main->n_entries)
        merge++;
      coarsen_histogram (t, merge);
      guint32 shift = t->hist_shift;
      guint64 n_bins = t->hist_bins;
      for (;;)
        {
          Level *l = &levels[n_levels++];
          memset (l, 0, sizeof *l);
          l->lv.shift = shift;
          l->lv.n_bins = n_bins;
          l->bins = g_new0 (TtvScatterColumn, n_bins);
          guint64 next = n_bins << LEVEL_STEP;
          if (n_levels == TTV_ANALYSIS_MAX_LEVELS || shift < LEVEL_STEP
              || next * RECORDS_PER_BIN > main->n_entries)
            break;
          shift -= LEVEL_STEP;
          n_bins = next;
        }
    }
  /* The levels are filled in the statistics' second read (of every record:
   * each level counts them all), the first done as the records came. */
  LevelScan ls = { t->clock, levels, n_levels };
  TtvAnalysisStats all;
  g_autoptr (GArray) groups = NULL;
  if (spec->summaries || spec->group_offset >= 0)
    {
      groups = stats_finish_pushed (t, src, &seq, &ls, &all, cancel, error);
      ok = groups != NULL;
    }
  ttv_analysis_seq_clear (&seq);
  /* Everything read: now the writer may append (and move a blob in memory). */
  if (ok && spec->summaries)
    {
      g_autoptr (GArray) first = g_array_sized_new (FALSE, FALSE, sizeof (guint32), t->hist_bins + 1);
      g_autoptr (GArray) cells = g_array_new (FALSE, FALSE, sizeof (guint32));
      for (guint32 b = 0; b < t->hist_bins; b++)
        {
          guint32 at = cells->len / 2;
          g_array_append_val (first, at);
          for (guint k = 0; t->hist[b] && k < TTV_DURATION_BUCKETS; k++)
            if (t->hist[b][k])
              {
                guint32 cell[2] = { k, t->hist[b][k] };
                g_array_append_vals (cells, cell, 2);
              }
        }
      guint32 end = cells->len / 2;
      g_array_append_val (first, end);
      h->hist_shift = t->hist_shift;
      h->hist_bins = t->hist_bins;
      ttv_history_writer_align (w);
      h->bin_first_offset = ttv_history_writer_append (w, first->data, first->len * sizeof (guint32));
      ttv_history_writer_align (w);
      h->cells_offset = ttv_history_writer_append (w, cells->data, cells->len * sizeof (guint32));
      h->n_cells = end;
      TtvAnalysisLevel lvs[TTV_ANALYSIS_MAX_LEVELS];
      for (guint k = 0; k < n_levels; k++)
        {
          ttv_history_writer_align (w);
          levels[k].lv.offset = ttv_history_writer_append (w, levels[k].bins,
                                                           levels[k].lv.n_bins * sizeof (TtvScatterColumn));
          lvs[k] = levels[k].lv;
        }
      ttv_history_writer_align (w);
      h->levels_offset = ttv_history_writer_append (w, lvs, n_levels * sizeof (TtvAnalysisLevel));
      h->n_levels = n_levels;
    }
  for (guint k = 0; k < n_levels; k++)
    g_free (levels[k].bins);
  if (ok && groups)
    {
      ttv_history_writer_align (w);
      h->stats_offset = ttv_history_writer_append (w, &all, sizeof all);
      ttv_history_writer_append (w, groups->data, groups->len * sizeof (TtvAnalysisStats));
      h->n_groups = spec->group_offset >= 0 ? groups->len : 0;
    }
  return ok;
}
