/* ttv-analysis-table.c: analysis tables (see ttv-analysis-table.h):
 * building them while the trace is read, and their queries by time, by
 * series and by duration. */
#include "ttv-analysis-private.h"
#include "ttv-error.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

/* Level-0 duration histograms have at most this many bins over the span. */
#define MAX_HIST_BINS 4096
/* Below this many records per column, a scatter reads the records. */
#define EXACT_PER_COLUMN 32

/* ---- durations on a log scale ---- */

/* lower(b) = ceil(2^((b - 1) / 4)) for b >= 1, then G_MAXINT64 past the
 * last bucket (the three after it too, for the look-ahead below). */
#define BUCKET_LOOK_AHEAD 3
static TtvTime bucket_lower[TTV_DURATION_BUCKETS + 1 + BUCKET_LOOK_AHEAD];
/* of_log2[k]: the bucket of 2^k (the largest b with lower(b) <= 2^k). */
static guint8 of_log2[64];

static void
init_buckets (void)
{
  static gsize done;
  if (g_once_init_enter (&done))
    {
      bucket_lower[0] = G_MININT64;
      for (guint b = 1; b < TTV_DURATION_BUCKETS; b++)
        bucket_lower[b] = (TtvTime) ceil (exp2 ((double) (b - 1) / 4.0));
      for (guint b = TTV_DURATION_BUCKETS; b < G_N_ELEMENTS (bucket_lower); b++)
        bucket_lower[b] = G_MAXINT64;
      for (guint k = 0; k < 63; k++)
        {
          guint b = 1;
          while (b + 1 < TTV_DURATION_BUCKETS && bucket_lower[b + 1] <= (TtvTime) 1 << k)
            b++;
          of_log2[k] = (guint8) b;
        }
      of_log2[63] = TTV_DURATION_BUCKETS - 1;
      g_once_init_leave (&done, 1);
    }
}

guint
ttv_duration_bucket (TtvTime d)
{
  init_buckets ();
  if (d < 1)
    return 0;
  /* The largest b with lower(b) <= d: from the bucket of 2^k, as many
   * more as there are lower bounds <= d among the next three (the lower
   * bounds strictly between 2^k and 2^(k+1) are those of (b - 1) / 4 =
   * k + 1/4, k + 1/2 and k + 3/4), counted without a branch: each record
   * of a latency table goes through here twice. */
  guint k = 63 - (guint) __builtin_clzll ((guint64) d);
  guint b = of_log2[k];
  const TtvTime *next = &bucket_lower[b + 1];
  b += (guint) (next[0] <= d) + (guint) (next[1] <= d) + (guint) (next[2] <= d);
  return MIN (b, TTV_DURATION_BUCKETS - 1);
}

TtvTime
ttv_duration_bucket_lower (guint bucket)
{
  init_buckets ();
  return bucket < TTV_DURATION_BUCKETS ? (bucket ? bucket_lower[bucket] : 0) : G_MAXINT64;
}

gint64
ttv_analysis_column_get (const TtvAnalysisColumn *c, const void *record)
{
  const guint8 *p = record;
  if (c->offset < 0)
    return ttv_analysis_record_duration (record);
  switch (c->type)
    {
    case TTV_COLUMN_TIME:
    case TTV_COLUMN_DURATION:
    case TTV_COLUMN_INT:
    case TTV_COLUMN_HEX:
      {
        gint64 v;
        memcpy (&v, p + c->offset, sizeof v);
        return v;
      }
    case TTV_COLUMN_CPU:
      {
        gint32 v;
        memcpy (&v, p + c->offset, sizeof v);
        return v;
      }
    default:
      {
        guint32 v;
        memcpy (&v, p + c->offset, sizeof v);
        return v;
      }
    }
}

/* ---- building ---- */

static guint32
get_u32 (const void *record, gint offset)
{
  guint32 v;
  memcpy (&v, (const guint8 *) record + offset, sizeof v);
  return v;
}

TtvTableBuilder *
ttv_table_builder_new (TtvAnalysisBuilder *owner, const TtvAnalysisTableSpec *spec, const TtvBusyClock *clock)
{
  g_return_val_if_fail (spec->record_size >= 16 && spec->record_size % 8 == 0, NULL);
  TtvTableBuilder *t = g_new0 (TtvTableBuilder, 1);
  t->owner = owner;
  t->spec = spec;
  ttv_analysis_seq_writer_init (&t->main, spec->record_size, NULL);
  ttv_history_slab_init (&t->slab);
  for (guint k = 0; k < TTV_ANALYSIS_MAX_SERIES; k++)
    if (spec->series_offset[k] >= 0)
      /* Its writers lie in the slab: cleared, not freed. */
      t->series[k] = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL,
                                            (GDestroyNotify) ttv_analysis_seq_writer_clear);
  t->clock = clock;
  if (spec->summaries)
    {
      guint64 span = clock->busy;
      guint shift = 0;
      while ((span >> shift) >= MAX_HIST_BINS)
        shift++;
      t->hist_shift = shift;
      t->hist_bins = (guint32) (span >> shift) + 1;
      t->hist = g_new0 (guint32 *, t->hist_bins);
    }
  if (spec->summaries || spec->group_offset >= 0)
    t->stats = ttv_analysis_stats_acc_new (spec);
  return t;
}

void
ttv_table_builder_free (TtvTableBuilder *t)
{
  if (t == NULL)
    return;
  ttv_analysis_seq_writer_clear (&t->main);
  for (guint k = 0; k < TTV_ANALYSIS_MAX_SERIES; k++)
    if (t->series[k])
      g_hash_table_unref (t->series[k]);
  g_free (t->hist);
  ttv_history_slab_clear (&t->slab);
  ttv_analysis_stats_acc_free (t->stats);
  g_free (t);
}

gsize
ttv_table_builder_memory (const TtvTableBuilder *t)
{
  gsize m = sizeof *t + ttv_analysis_seq_writer_memory (&t->main) + ttv_history_slab_size (&t->slab);
  for (guint k = 0; k < TTV_ANALYSIS_MAX_SERIES; k++)
    if (t->series[k])
      {
        GHashTableIter it;
        gpointer v;
        g_hash_table_iter_init (&it, t->series[k]);
        /* The slab counts the arrays; the chunks' summaries and the
         * table's node remain. */
        while (g_hash_table_iter_next (&it, NULL, &v))
          m += ((TtvAnalysisSeqWriter *) v)->chunks->len * sizeof (TtvAnalysisBlock) + 32;
      }
  m += t->hist_bins * sizeof (guint32 *);
  if (t->stats)
    m += ttv_analysis_stats_acc_memory (t->stats);
  return m;
}

void
ttv_table_builder_push (TtvTableBuilder *t, const void *record)
{
  TtvHistoryWriter *w = ttv_analysis_builder_get_writer (t->owner);
  ttv_analysis_seq_writer_add (&t->main, w, record);
  guint64 index = t->main.n_entries - 1;
  gint64 start = ttv_analysis_record_start (record), end = ttv_analysis_record_end (record);
  for (guint k = 0; k < TTV_ANALYSIS_MAX_SERIES; k++)
    {
      if (t->series[k] == NULL)
        continue;
      guint32 key = get_u32 (record, t->spec->series_offset[k]);
      /* Consecutive records are often of one series (a CPU's, a thread's). */
      TtvAnalysisSeqWriter *s = t->last_series[k] && t->last_key[k] == key
                                  ? t->last_series[k] : g_hash_table_lookup (t->series[k], GUINT_TO_POINTER (key));
      if (s == NULL)
        {
          s = ttv_history_slab_alloc (&t->slab, sizeof *s);
          ttv_analysis_seq_writer_init (s, sizeof (TtvAnalysisSeriesEntry), &t->slab);
          g_hash_table_insert (t->series[k], GUINT_TO_POINTER (key), s);
        }
      t->last_key[k] = key;
      t->last_series[k] = s;
      TtvAnalysisSeriesEntry e = { start, end, index };
      ttv_analysis_seq_writer_add (s, w, &e);
    }
  if (t->hist == NULL && t->stats == NULL)
    return;
  /* Once for the histogram and the statistics. */
  guint bucket = ttv_duration_bucket (ttv_analysis_record_duration (record));
  if (t->hist)
    {
      guint32 b = ttv_analysis_busy_bin (t->clock, t->hist_shift, t->hist_bins, start);
      if (t->hist[b] == NULL)
        t->hist[b] = ttv_history_slab_alloc0 (&t->slab, TTV_DURATION_BUCKETS * sizeof (guint32));
      t->hist[b][bucket]++;
    }
  if (t->stats)
    ttv_analysis_stats_acc_add (t->stats, record, bucket);
}

static gint
compare_u32 (gconstpointer a, gconstpointer b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;
  return x < y ? -1 : x > y;
}

gboolean
ttv_table_builder_finish (TtvTableBuilder *t, TtvHistoryWriter *w, TtvAnalysisTableHeader *h, guint32 name,
                          GCancellable *cancel, GError **error)
{
  memset (h, 0, sizeof *h);
  h->name = name;
  h->record_size = (guint32) t->spec->record_size;
  h->origin = t->clock->start;
  ttv_analysis_seq_writer_finish (&t->main, w, &h->main);
  for (guint k = 0; k < TTV_ANALYSIS_MAX_SERIES; k++)
    {
      if (t->series[k] == NULL)
        continue;
      h->n_series = k + 1;
      g_autoptr (GArray) keys = g_array_new (FALSE, FALSE, sizeof (guint32));
      GHashTableIter it;
      gpointer key;
      g_hash_table_iter_init (&it, t->series[k]);
      while (g_hash_table_iter_next (&it, &key, NULL))
        {
          guint32 v = GPOINTER_TO_UINT (key);
          g_array_append_val (keys, v);
        }
      g_array_sort (keys, compare_u32);
      g_autoptr (GArray) dir = g_array_sized_new (FALSE, TRUE, sizeof (TtvAnalysisSeriesKey), keys->len);
      for (guint i = 0; i < keys->len; i++)
        {
          guint32 v = g_array_index (keys, guint32, i);
          TtvAnalysisSeriesKey sk = { v, 0, { 0 } };
          ttv_analysis_seq_writer_finish (g_hash_table_lookup (t->series[k], GUINT_TO_POINTER (v)), w, &sk.seq);
          /* Done: its buffers go now, not after every series. */
          g_hash_table_remove (t->series[k], GUINT_TO_POINTER (v));
          t->last_series[k] = NULL;
          g_array_append_val (dir, sk);
        }
      ttv_history_writer_align (w);
      h->series_offset[k] = ttv_history_writer_append (w, dir->data, dir->len * sizeof (TtvAnalysisSeriesKey));
      h->n_keys[k] = dir->len;
    }
  TtvAnalysisSource src;
  ttv_analysis_writer_source (w, &src);
  if (w->failed)
    return TRUE;   /* the caller reports the writer's error */
  return ttv_analysis_summaries_write (t, w, &src, &h->main, h, cancel, error);
}

/* ---- reading ---- */

const TtvAnalysisTableSpec *
ttv_analysis_table_get_spec (const TtvAnalysisTable *t)
{
  return t->spec;
}

guint64
ttv_analysis_table_get_n_records (const TtvAnalysisTable *t)
{
  return t->h.main.n_entries;
}

const TtvAnalysisColumn *
ttv_analysis_table_find_column (const TtvAnalysisTable *t, const char *name)
{
  for (guint i = 0; i < t->spec->n_columns; i++)
    if (g_str_equal (t->spec->columns[i].name, name))
      return &t->spec->columns[i];
  return NULL;
}

static const TtvAnalysisSource *
source (const TtvAnalysisTable *t)
{
  return &t->result->src;
}

static inline gboolean
selected (TtvQueryMode mode, const void *record, TtvTime t0, TtvTime t1)
{
  gint64 start = ttv_analysis_record_start (record);
  if (mode == TTV_QUERY_START_IN)
    return start >= t0 && start <= t1;
  return start <= t1 && ttv_analysis_record_end (record) >= t0;
}

typedef struct {
  TtvQueryMode mode;
  TtvTime t0, t1;
  TtvRecordFunc func;
  gpointer data;
} ForeachData;

static gboolean
foreach_entry (const void *entry, guint64 index, gpointer data)
{
  ForeachData *fd = data;
  if (!selected (fd->mode, entry, fd->t0, fd->t1))
    return TRUE;
  return fd->func (entry, fd->data);
}

gboolean
ttv_analysis_table_foreach (const TtvAnalysisTable *t, TtvQueryMode mode, TtvTime t0, TtvTime t1,
                            TtvRecordFunc func, gpointer data, GError **error)
{
  ForeachData fd = { mode, t0, t1, func, data };
  return ttv_analysis_seq_scan (&t->main, source (t), mode, t0, t1, foreach_entry, &fd, error);
}

static gboolean
collect (const void *record, gpointer data)
{
  g_array_append_vals (data, record, 1);
  return TRUE;
}

static gint
compare_records (gconstpointer a, gconstpointer b, gpointer size)
{
  gint64 sa = ttv_analysis_record_start (a), sb = ttv_analysis_record_start (b);
  if (sa != sb)
    return sa < sb ? -1 : 1;
  gint64 ea = ttv_analysis_record_end (a), eb = ttv_analysis_record_end (b);
  if (ea != eb)
    return ea < eb ? -1 : 1;
  /* The sort is not stable: the whole record decides ties. */
  return memcmp (a, b, GPOINTER_TO_SIZE (size));
}

void
ttv_analysis_records_sort (GArray *records, gsize record_size)
{
  g_array_sort_with_data (records, compare_records, GSIZE_TO_POINTER (record_size));
}

GArray *
ttv_analysis_table_query (const TtvAnalysisTable *t, TtvQueryMode mode, TtvTime t0, TtvTime t1,
                          GError **error)
{
  GArray *out = g_array_new (FALSE, FALSE, (guint) t->spec->record_size);
  if (!ttv_analysis_table_foreach (t, mode, t0, t1, collect, out, error))
    {
      g_array_unref (out);
      return NULL;
    }
  ttv_analysis_records_sort (out, t->spec->record_size);
  return out;
}

/* ---- series ---- */

static const TtvAnalysisSeries *
find_series (const TtvAnalysisTable *t, guint which, guint32 key)
{
  if (which >= TTV_ANALYSIS_MAX_SERIES || t->series[which] == NULL)
    return NULL;
  const TtvAnalysisSeries *s = t->series[which];
  guint64 lo = 0, hi = t->h.n_keys[which];
  while (lo < hi)
    {
      guint64 mid = lo + (hi - lo) / 2;
      if (s[mid].key < key)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo < t->h.n_keys[which] && s[lo].key == key ? &s[lo] : NULL;
}

GArray *
ttv_analysis_table_dup_series_keys (const TtvAnalysisTable *t, guint which)
{
  GArray *keys = g_array_new (FALSE, FALSE, sizeof (guint32));
  for (guint64 i = 0; which < TTV_ANALYSIS_MAX_SERIES && t->series[which] && i < t->h.n_keys[which]; i++)
    g_array_append_val (keys, t->series[which][i].key);
  return keys;
}

/* A series' first start, last start and last end, from its chunks'
 * bounds in memory; FALSE when it has no record. */
static gboolean
series_bounds (const TtvAnalysisSeries *s, TtvTime *first_start, TtvTime *last_start, TtvTime *last_end)
{
  if (s == NULL || s->seq.h.n_chunks == 0)
    return FALSE;
  *first_start = G_MAXINT64;
  *last_start = *last_end = G_MININT64;
  for (guint64 c = 0; c < s->seq.h.n_chunks; c++)
    {
      *first_start = MIN (*first_start, s->seq.chunks[c].min_start);
      *last_start = MAX (*last_start, s->seq.chunks[c].max_start);
      *last_end = MAX (*last_end, s->seq.chunks[c].max_end);
    }
  return TRUE;
}

gboolean
ttv_analysis_table_get_series_span (const TtvAnalysisTable *t, guint which, guint32 key, TtvTime *first_start,
                                    TtvTime *last_end)
{
  TtvTime last_start;
  return series_bounds (find_series (t, which, key), first_start, &last_start, last_end);
}

gboolean
ttv_analysis_table_series_last_overlaps (const TtvAnalysisTable *t, guint which, guint32 key, TtvTime t0,
                                         TtvTime t1)
{
  TtvTime first_start, last_start, last_end;
  return t0 <= t1 && series_bounds (find_series (t, which, key), &first_start, &last_start, &last_end)
         && last_start <= t1 && last_end >= t0;
}

typedef struct {
  const TtvAnalysisTable *table;
  TtvTime t0, t1;
  GArray *out;
  guint8 *record;
  GError **error;
  gboolean failed;
} SeriesQuery;

static gboolean
series_entry (const void *entry, guint64 index, gpointer data)
{
  SeriesQuery *q = data;
  const TtvAnalysisSeriesEntry *e = entry;
  if (e->start > q->t1 || e->end < q->t0)
    return TRUE;
  if (!ttv_analysis_seq_read_entry (&q->table->main, source (q->table), e->index, q->record, q->error))
    {
      q->failed = TRUE;
      return FALSE;
    }
  g_array_append_vals (q->out, q->record, 1);
  return TRUE;
}

GArray *
ttv_analysis_table_query_series (const TtvAnalysisTable *t, guint which, guint32 key, TtvTime t0, TtvTime t1,
                                 GError **error)
{
  GArray *out = g_array_new (FALSE, FALSE, (guint) t->spec->record_size);
  const TtvAnalysisSeries *s = find_series (t, which, key);
  if (s == NULL)
    return out;
  g_autofree guint8 *record = g_malloc (t->spec->record_size);
  SeriesQuery q = { t, t0, t1, out, record, error, FALSE };
  if (!ttv_analysis_seq_scan (&s->seq, source (t), TTV_QUERY_OVERLAP, t0, t1, series_entry, &q, error)
      || q.failed)
    {
      g_array_unref (out);
      return NULL;
    }
  ttv_analysis_records_sort (out, t->spec->record_size);
  return out;
}

gboolean
ttv_analysis_table_last_in_series (const TtvAnalysisTable *t, guint which, guint32 key, TtvTime t0, TtvTime t1,
                                   void *record, gboolean *found, GError **error)
{
  *found = FALSE;
  const TtvAnalysisSeries *s = find_series (t, which, key);
  if (s == NULL)
    return TRUE;
  TtvAnalysisSeriesEntry e;
  if (!ttv_analysis_seq_find_last (&s->seq, source (t), t0, t1, &e, found, error))
    return FALSE;
  if (!*found)
    return TRUE;
  if (!ttv_analysis_seq_read_entry (&t->main, source (t), e.index, record, error))
    {
      *found = FALSE;
      return FALSE;
    }
  return TRUE;
}

/* The sum of a series' durations clipped to (-inf, @t], with the chunk and
 * block last read kept in @cache for the next edge. */
typedef struct {
  guint64 chunk;                           /* + 1, 0: none */
  TtvAnalysisBlock blocks[TTV_ANALYSIS_CHUNK];
  const TtvAnalysisBlock *chunk_blocks;
  guint64 block;                           /* + 1 */
  TtvAnalysisSeriesEntry entries[TTV_ANALYSIS_BLOCK];
  const TtvAnalysisSeriesEntry *block_entries;
  guint n_entries;
} SumCache;

static gboolean
cumulative_at (const TtvAnalysisTable *t, const TtvAnalysisSeq *seq, TtvTime at, SumCache *c, TtvTime *out,
               GError **error)
{
  const TtvAnalysisSource *src = source (t);
  /* The first chunk, then block, whose entries end after @at: everything
   * before it ends by @at (a series' entries do not overlap). */
  guint64 lo = 0, hi = seq->h.n_chunks;
  while (lo < hi)
    {
      guint64 mid = lo + (hi - lo) / 2;
      if (seq->chunks[mid].max_end <= at)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == seq->h.n_chunks)
    {
      *out = seq->h.total;
      return TRUE;
    }
  if (c->chunk != lo + 1)
    {
      const TtvAnalysisBlock *ch = &seq->chunks[lo];
      const guint8 *p = ttv_analysis_source_get (src, ch->offset, ch->n * sizeof (TtvAnalysisBlock),
                                                 (guint8 *) c->blocks);
      if (p == NULL)
        {
          ttv_analysis_set_read_error (error, src, ch->offset);
          return FALSE;
        }
      c->chunk_blocks = (const TtvAnalysisBlock *) p;
      c->chunk = lo + 1;
      c->block = 0;
    }
  guint n = seq->chunks[lo].n;
  guint b = 0;
  while (b + 1 < n && c->chunk_blocks[b].max_end <= at)
    b++;
  const TtvAnalysisBlock *be = &c->chunk_blocks[b];
  guint64 block_no = lo * TTV_ANALYSIS_CHUNK + b;
  if (c->block != block_no + 1)
    {
      const guint8 *p = be->n <= TTV_ANALYSIS_BLOCK
                          ? ttv_analysis_source_get (src, be->offset, be->n * sizeof (TtvAnalysisSeriesEntry),
                                                     (guint8 *) c->entries)
                          : NULL;
      if (p == NULL)
        {
          ttv_analysis_set_read_error (error, src, be->offset);
          return FALSE;
        }
      c->block_entries = (const TtvAnalysisSeriesEntry *) p;
      c->n_entries = be->n;
      c->block = block_no + 1;
    }
  TtvTime sum = be->cum;
  for (guint i = 0; i < c->n_entries; i++)
    {
      const TtvAnalysisSeriesEntry *e = &c->block_entries[i];
      if (e->start >= at)
        break;
      /* Damaged caches hold anything: an entry ending before it starts
       * counts nothing, and the sum saturates. */
      if (e->end > e->start)
        sum = ttv_time_add_saturating (sum, ttv_time_span_saturating (e->start, MIN (e->end, at)));
    }
  *out = sum;
  return TRUE;
}

gboolean
ttv_analysis_table_sum_series_bins (const TtvAnalysisTable *t, guint which, guint32 key, const TtvTime *edges,
                                    guint n_edges, TtvTime *sums, GError **error)
{
  const TtvAnalysisSeries *s = find_series (t, which, key);
  for (guint i = 0; i + 1 < n_edges; i++)
    sums[i] = 0;
  if (s == NULL || n_edges < 2)
    return TRUE;
  g_autofree SumCache *cache = g_new0 (SumCache, 1);
  TtvTime prev = 0;
  for (guint i = 0; i < n_edges; i++)
    {
      TtvTime cum;
      if (!cumulative_at (t, &s->seq, edges[i], cache, &cum, error))
        return FALSE;
      /* Cumulative sums read back from a damaged cache may fall or be
       * far apart: the difference saturates (fuzz-analysis-file). */
      if (i > 0)
        sums[i - 1] = ttv_time_span_saturating (prev, cum);
      prev = cum;
    }
  return TRUE;
}

gboolean
ttv_analysis_table_sum_series (const TtvAnalysisTable *t, guint which, guint32 key, TtvTime t0, TtvTime t1,
                               TtvTime *sum, GError **error)
{
  /* A series the window holds whole, or misses: no read (the CPU time of
   * every thread over a window costs reads for those at its edges only). */
  const TtvAnalysisSeries *series = find_series (t, which, key);
  TtvTime first, last_start, last;
  if (series_bounds (series, &first, &last_start, &last))
    {
      if (t1 <= first || t0 >= last)
        {
          *sum = 0;
          return TRUE;
        }
      if (t0 <= first && t1 >= last)
        {
          *sum = series->seq.h.total;
          return TRUE;
        }
    }
  TtvTime edges[2] = { t0, MAX (t0, t1) };
  return ttv_analysis_table_sum_series_bins (t, which, key, edges, 2, sum, error);
}

/* ---- durations of the records that start in a window ---- */

typedef struct {
  TtvTime t0, t1;
  guint64 *counts;
} HistogramScan;

static gboolean
histogram_entry (const void *entry, guint64 index, gpointer data)
{
  HistogramScan *h = data;
  gint64 start = ttv_analysis_record_start (entry);
  if (start >= h->t0 && start <= h->t1)
    h->counts[ttv_duration_bucket (ttv_analysis_record_duration (entry))]++;
  return TRUE;
}

/* The times bin @b covers: [lo, hi], the first and last bins open-ended. */
static void
bin_bounds (const TtvAnalysisTable *t, guint32 b, TtvTime *lo, TtvTime *hi)
{
  *lo = b == 0 ? G_MININT64 : ttv_busy_clock_time (&t->clock, (guint64) b << t->h.hist_shift);
  *hi = b + 1 >= t->h.hist_bins ? G_MAXINT64
                                : ttv_busy_clock_time (&t->clock, (guint64) (b + 1) << t->h.hist_shift) - 1;
}

static guint32
hist_bin (const TtvAnalysisTable *t, TtvTime start)
{
  return ttv_analysis_busy_bin (&t->clock, t->h.hist_shift, t->h.hist_bins, start);
}

gboolean
ttv_analysis_table_histogram (const TtvAnalysisTable *t, TtvTime t0, TtvTime t1,
                              guint64 counts[TTV_DURATION_BUCKETS], GError **error)
{
  memset (counts, 0, TTV_DURATION_BUCKETS * sizeof counts[0]);
  if (t1 < t0 || t->h.main.n_entries == 0)
    return TRUE;
  if (t->bin_first == NULL)
    {
      /* No summaries: every record of the window is read. */
      HistogramScan hs = { t0, t1, counts };
      return ttv_analysis_seq_scan (&t->main, source (t), TTV_QUERY_START_IN, t0, t1, histogram_entry, &hs, error);
    }
  guint32 b0 = hist_bin (t, t0);
  guint32 b1 = hist_bin (t, t1);
  for (guint32 b = b0; b <= b1; b++)
    {
      TtvTime lo, hi;
      bin_bounds (t, b, &lo, &hi);
      if (lo >= t0 && hi <= t1)
        {
          for (guint32 c = t->bin_first[b]; c < t->bin_first[b + 1]; c++)
            counts[MIN (t->cells[2 * c], TTV_DURATION_BUCKETS - 1)] += t->cells[2 * c + 1];
          continue;
        }
      /* A bin the window cuts: its records, exactly. */
      HistogramScan hs = { MAX (lo, t0), MIN (hi, t1), counts };
      if (!ttv_analysis_seq_scan (&t->main, source (t), TTV_QUERY_START_IN, hs.t0, hs.t1, histogram_entry, &hs,
                                  error))
        return FALSE;
    }
  return TRUE;
}

typedef struct {
  TtvTime t0, t1;
  guint width;
  TtvScatterColumn *columns;
} ScatterScan;

static gboolean
scatter_entry (const void *entry, guint64 index, gpointer data)
{
  ScatterScan *s = data;
  gint64 start = ttv_analysis_record_start (entry);
  if (start < s->t0 || start >= s->t1)
    return TRUE;
  guint x = (guint) ((double) ttv_time_span_ns (s->t0, start) * s->width / (double) ttv_time_span_ns (s->t0, s->t1));
  x = MIN (x, s->width - 1);
  guint b = ttv_duration_bucket (ttv_analysis_record_duration (entry));
  s->columns[x].mask[b / 64] |= G_GUINT64_CONSTANT (1) << (b % 64);
  s->columns[x].count++;
  return TRUE;
}

/* Records starting in [t0, t1) by the level-0 bins (an upper bound: the
 * bins the window touches). */
static guint64
count_upper_bound (const TtvAnalysisTable *t, TtvTime t0, TtvTime t1)
{
  guint32 b0 = hist_bin (t, t0);
  guint32 b1 = hist_bin (t, t1);
  guint64 n = 0;
  for (guint32 b = b0; b <= b1; b++)
    for (guint32 c = t->bin_first[b]; c < t->bin_first[b + 1]; c++)
      n += t->cells[2 * c + 1];
  return n;
}

gboolean
ttv_analysis_table_scatter (const TtvAnalysisTable *t, TtvTime t0, TtvTime t1, guint width,
                            TtvScatterColumn *columns, gboolean *exact, GError **error)
{
  memset (columns, 0, width * sizeof *columns);
  *exact = TRUE;
  if (width == 0 || t1 <= t0 || t->h.main.n_entries == 0)
    return TRUE;
  ScatterScan ss = { t0, t1, width, columns };
  if (t->bin_first == NULL || count_upper_bound (t, t0, t1) <= (guint64) width * EXACT_PER_COLUMN)
    return ttv_analysis_seq_scan (&t->main, source (t), TTV_QUERY_START_IN, t0, t1 - 1, scatter_entry, &ss, error);
  *exact = FALSE;
  /* The coarsest level whose bins are no wider than a column, else the
   * finest (then a bin spreads over the columns it covers).  Bins are of
   * busy time (the long idle gaps left out), columns of time. */
  guint64 o0 = ttv_busy_clock_offset (&t->clock, t0), o1 = ttv_busy_clock_offset (&t->clock, t1);
  double column_busy = (double) (o1 - o0) / width;
  double column_ns = (double) ttv_time_span_ns (t0, t1) / width;
  guint level = 0;
  for (guint k = 0; k < t->h.n_levels; k++)
    {
      level = k;
      if ((double) ((guint64) 1 << t->levels[k].shift) <= column_busy)
        break;
    }
  const TtvAnalysisLevel *lv = &t->levels[level];
  gint64 first = (gint64) MIN (o0 >> lv->shift, (guint64) G_MAXINT32);
  /* After the end, the last bin (which holds what starts at the end). */
  gint64 last = t1 > t->clock.end ? (gint64) lv->n_bins - 1
                : o1 == 0 ? 0 : (gint64) MIN ((o1 - 1) >> lv->shift, (guint64) G_MAXINT32);
  last = MIN (last, (gint64) lv->n_bins - 1);
  if (first > last || t0 > t->clock.end)
    return TRUE;
  gsize n = (gsize) (last - first + 1);
  g_autofree TtvScatterColumn *bins = g_new (TtvScatterColumn, n);
  guint64 at = lv->offset + (guint64) first * sizeof (TtvScatterColumn);
  const guint8 *p = ttv_analysis_source_get (source (t), at, n * sizeof (TtvScatterColumn), (guint8 *) bins);
  if (p == NULL)
    {
      ttv_analysis_set_read_error (error, source (t), at);
      return FALSE;
    }
  const TtvScatterColumn *in = (const TtvScatterColumn *) p;
  for (gsize i = 0; i < n; i++)
    {
      if (in[i].count == 0)
        continue;
      TtvTime lo = ttv_busy_clock_time (&t->clock, (guint64) (first + (gint64) i) << lv->shift);
      TtvTime hi = ttv_busy_clock_time (&t->clock, (guint64) (first + (gint64) i + 1) << lv->shift);
      if (ttv_busy_clock_crosses_gap (&t->clock, lo, hi))
        {
          /* Its records are on both sides of an idle gap: a mark of one
           * side must not be drawn on the other.  Few bins are: they are
           * read exactly. */
          if (!ttv_analysis_seq_scan (&t->main, source (t), TTV_QUERY_START_IN, MAX (lo, t0), MIN (hi, t1) - 1,
                                      scatter_entry, &ss, error))
            return FALSE;
          continue;
        }
      double x0 = ((double) MAX (lo, t0) - (double) t0) / column_ns;
      double x1 = ((double) MIN (hi, t1) - (double) t0) / column_ns;
      guint a = (guint) MIN (x0, width - 1), b = (guint) MIN (MAX (ceil (x1) - 1, x0), width - 1);
      for (guint x = a; x <= b; x++)
        {
          for (guint k = 0; k < G_N_ELEMENTS (in[i].mask); k++)
            columns[x].mask[k] |= in[i].mask[k];
          /* A bin spread over columns counts once, in its first. */
          if (x == a)
            columns[x].count += in[i].count;
        }
    }
  return TRUE;
}

/* ---- the longest records ---- */

typedef struct {
  GArray *out;
  TtvTime t0, t1;
  TtvTime at_least;
} LongScan;

static gboolean
long_entry (const void *record, gpointer data)
{
  LongScan *ls = data;
  gint64 start = ttv_analysis_record_start (record);
  if (start >= ls->t0 && start <= ls->t1 && ttv_analysis_record_duration (record) >= ls->at_least)
    g_array_append_vals (ls->out, record, 1);
  return TRUE;
}

/* The records that start in [t0, t1] lasting @ls->at_least or more. */
static gboolean
foreach_lasting (const TtvAnalysisTable *t, TtvTime t0, TtvTime t1, LongScan *ls, GError **error)
{
  ForeachData fd = { TTV_QUERY_START_IN, t0, t1, long_entry, ls };
  return ttv_analysis_seq_scan_lasting (&t->main, source (t), TTV_QUERY_START_IN, t0, t1, ls->at_least,
                                        foreach_entry, &fd, error);
}

gint
ttv_analysis_record_compare_longest (gconstpointer a, gconstpointer b)
{
  gint64 da = ttv_analysis_record_duration (a);
  gint64 db = ttv_analysis_record_duration (b);
  if (da != db)
    return da > db ? -1 : 1;
  gint64 sa = ttv_analysis_record_start (a), sb = ttv_analysis_record_start (b);
  return sa < sb ? -1 : sa > sb;
}

/* The start of column @x of @width splitting [t0, t0 + span) evenly, in
 * integers (a double loses nanoseconds at epoch times). */
static TtvTime
column_start (TtvTime t0, guint64 span, guint width, guint x)
{
  return t0 + (TtvTime) ((span / width) * x + (span % width) * x / width);
}

#define LONGEST_COLUMNS 512

/* Whether a scatter column holds a duration of @bucket or longer. */
static gboolean
column_reaches (const TtvScatterColumn *c, guint bucket)
{
  for (guint b = bucket; b < TTV_DURATION_BUCKETS; b++)
    if ((c->mask[b / 64] >> (b % 64)) & 1)
      return TRUE;
  return FALSE;
}

GArray *
ttv_analysis_table_query_longest (const TtvAnalysisTable *t, TtvTime t0, TtvTime t1, guint max, GError **error)
{
  g_autoptr (GArray) out = g_array_new (FALSE, FALSE, (guint) t->spec->record_size);
  if (max == 0 || t1 < t0 || t->h.main.n_entries == 0)
    return g_steal_pointer (&out);
  LongScan ls = { out, t0, t1, 0 };
  /* The shortest duration bucket that the longest @max reach. */
  guint64 counts[TTV_DURATION_BUCKETS];
  if (!ttv_analysis_table_histogram (t, t0, t1, counts, error))
    return NULL;
  guint64 n = 0;
  guint bucket = TTV_DURATION_BUCKETS;
  while (bucket > 0 && n < max)
    n += counts[--bucket];
  ls.at_least = ttv_duration_bucket_lower (bucket);
  gboolean exact;
  TtvScatterColumn columns[LONGEST_COLUMNS];
  /* Columns over the traced time only (the first and last reach out to
   * the window's edges). */
  TtvTime first, last;
  ttv_analysis_get_time_range (t->result, &first, &last);
  TtvTime c0 = MAX (t0, first), end = MIN (t1, last);
  end = end == G_MAXINT64 ? end : end + 1;
  guint64 span = end > c0 ? (guint64) end - (guint64) c0 : 0;
  if (bucket == 0 || span < LONGEST_COLUMNS
      || !ttv_analysis_table_scatter (t, c0, end, LONGEST_COLUMNS, columns, &exact, NULL))
    {
      if (!foreach_lasting (t, t0, t1, &ls, error))
        return NULL;
    }
  else
    {
      /* Only the columns holding such a duration, each widened by one
       * column on both sides (the summaries' bins do not fall on the
       * columns' edges); columns [a, z) at a time, never twice. */
      guint done = 0;
      for (guint x = 0; x < LONGEST_COLUMNS; x++)
        {
          if (!column_reaches (&columns[x], bucket))
            continue;
          guint a = x > done ? x - 1 : done;
          while (x + 1 < LONGEST_COLUMNS && column_reaches (&columns[x + 1], bucket))
            x++;
          guint z = MIN (x + 2, LONGEST_COLUMNS);
          TtvTime lo = a == 0 ? t0 : column_start (c0, span, LONGEST_COLUMNS, a);
          TtvTime hi = z == LONGEST_COLUMNS ? t1 : column_start (c0, span, LONGEST_COLUMNS, z) - 1;
          if (!foreach_lasting (t, lo, hi, &ls, error))
            return NULL;
          done = z;
        }
    }
  g_array_sort (out, ttv_analysis_record_compare_longest);
  if (out->len > max)
    g_array_set_size (out, max);
  return g_steal_pointer (&out);
}

const TtvAnalysisColumn *
ttv_analysis_table_get_group_column (const TtvAnalysisTable *t)
{
  for (guint c = 0; c < t->spec->n_columns && t->spec->group_offset >= 0; c++)
    if (t->spec->columns[c].offset == t->spec->group_offset)
      return &t->spec->columns[c];
  return NULL;
}

static void
summary_from_stored (TtvDurationSummary *out, const TtvAnalysisStats *s)
{
  out->key = s->key;
  out->count = s->count;
  out->total = s->total;
  out->min = s->min;
  out->max = s->max;
  out->mean = s->mean;
  out->stddev = s->stddev;
  out->p50 = s->p50;
  out->p90 = s->p90;
  out->p99 = s->p99;
}

static gint
compare_total (gconstpointer a, gconstpointer b)
{
  const TtvDurationSummary *x = a, *y = b;
  if (x->total != y->total)
    return x->total > y->total ? -1 : 1;
  return x->key < y->key ? -1 : x->key > y->key;
}

GArray *
ttv_analysis_table_summarize (const TtvAnalysisTable *t, TtvTime t0, TtvTime t1, TtvDurationSummary *all,
                              GError **error)
{
  return ttv_analysis_table_summarize_where (t, NULL, 0, t0, t1, all, error);
}

GArray *
ttv_analysis_table_summarize_where (const TtvAnalysisTable *t, const TtvAnalysisColumn *only, gint64 value,
                                    TtvTime t0, TtvTime t1, TtvDurationSummary *all, GError **error)
{
  GArray *out = g_array_new (FALSE, TRUE, sizeof (TtvDurationSummary));
  if (all)
    {
      memset (all, 0, sizeof *all);
      all->key = -1;
    }
  if (only == NULL && t0 == TTV_TIME_MIN && t1 == TTV_TIME_MAX && t->stats)
    {
      if (all)
        summary_from_stored (all, &t->stats[0]);
      for (guint64 i = 0; i < t->h.n_groups; i++)
        {
          TtvDurationSummary d;
          summary_from_stored (&d, &t->stats[i + 1]);
          g_array_append_val (out, d);
        }
    }
  else
    {
      TtvAnalysisStats a;
      g_autoptr (GArray) groups = ttv_analysis_stats_compute (t->spec, source (t), &t->main, t0, t1, only, value,
                                                              &a, NULL, error);
      if (groups == NULL)
        {
          g_array_unref (out);
          return NULL;
        }
      if (all)
        summary_from_stored (all, &a);
      for (guint i = 0; i < groups->len; i++)
        {
          TtvDurationSummary d;
          summary_from_stored (&d, &g_array_index (groups, TtvAnalysisStats, i));
          g_array_append_val (out, d);
        }
    }
  g_array_sort (out, compare_total);
  return out;
}
