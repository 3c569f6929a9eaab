/* ttv-latency-data.c: a latency view's picture of a table over a window:
 * from the table's summaries for every thread (O(pixels + groups), the
 * statistics from the records of the window), from the thread's own
 * records for one thread.  See ttv-latency-data.h. */
#include "ttv-latency-data.h"

#include <math.h>
#include <string.h>

void
ttv_latency_stats_figures (const TtvViewerDurationStats *stats, gint64 figures[TTV_LATENCY_N_FIGURES])
{
  const gint64 all[TTV_LATENCY_N_FIGURES] = {
    (gint64) stats->count, stats->total, stats->min, (gint64) llround (stats->mean), stats->max,
    (gint64) llround (stats->stddev), stats->p50, stats->p90, stats->p99,
  };
  memcpy (figures, all, sizeof all);
}

char *
ttv_latency_figure_text (guint figure, gint64 value)
{
  return figure == 0 ? g_strdup_printf ("%" G_GUINT64_FORMAT, (guint64) value) : ttv_viewer_format_duration (value);
}

void
ttv_latency_data_free (TtvLatencyData *d)
{
  if (d == NULL)
    return;
  g_free (d->columns);
  g_clear_pointer (&d->groups, g_array_unref);
  g_clear_pointer (&d->longest, ttv_viewer_records_free);
  g_clear_pointer (&d->order, g_array_unref);
  g_clear_pointer (&d->devices, g_array_unref);
  g_clear_pointer (&d->processes, g_array_unref);
  if (d->labels)
    g_string_chunk_free (d->labels);
  ttv_viewer_table_unref (d->table);
  g_free (d);
}

static gint
compare_time (gconstpointer a, gconstpointer b)
{
  TtvTime x = *(const TtvTime *) a, y = *(const TtvTime *) b;
  return x < y ? -1 : x > y;
}

/* Statistics of @durations (sorted here), as the SDK's: exact percentiles. */
static void
summarize (TtvViewerDurationStats *out, gint64 key, const char *label, GArray *durations)
{
  memset (out, 0, sizeof *out);
  out->key = key;
  out->label = label;
  guint n = durations->len;
  if (n == 0)
    return;
  g_array_sort (durations, compare_time);
  const TtvTime *d = (const TtvTime *) durations->data;
  double sum = 0, sq = 0;
  for (guint i = 0; i < n; i++)
    {
      out->total += d[i];
      sum += (double) d[i];
    }
  out->count = n;
  out->min = d[0];
  out->max = d[n - 1];
  out->mean = sum / n;
  for (guint i = 0; i < n; i++)
    sq += ((double) d[i] - out->mean) * ((double) d[i] - out->mean);
  out->stddev = sqrt (sq / n);
  /* The least duration with at least that share at or below it. */
  static const double shares[3] = { 0.50, 0.90, 0.99 };
  TtvTime *p[3] = { &out->p50, &out->p90, &out->p99 };
  for (guint k = 0; k < 3; k++)
    {
      guint64 rank = (guint64) ceil (shares[k] * n);
      *p[k] = d[MAX (rank, 1) - 1];
    }
}

static gint
compare_total_desc (gconstpointer a, gconstpointer b)
{
  const TtvViewerDurationStats *x = a, *y = b;
  if (x->total != y->total)
    return x->total > y->total ? -1 : 1;
  return x->key < y->key ? -1 : x->key > y->key;
}

static gint
compare_longest (gconstpointer a, gconstpointer b, gpointer data)
{
  TtvViewerRecords *r = data;
  guint i = *(const guint *) a, j = *(const guint *) b;
  TtvTime di = ttv_viewer_records_get_end (r, i) - ttv_viewer_records_get_start (r, i);
  TtvTime dj = ttv_viewer_records_get_end (r, j) - ttv_viewer_records_get_start (r, j);
  if (di != dj)
    return di > dj ? -1 : 1;
  return i < j ? -1 : i > j;
}

/* The scatter's columns: the table's own query, over each linear piece of
 * the scale on its columns (none in a compressed gap). */
static gboolean
query_scatter (TtvLatencyData *d, GError **error)
{
  const TtvTimeScale *scale = &d->scale;

  if (ttv_time_scale_is_linear (scale))
    {
      TtvTime end = d->t1 == TTV_TIME_MAX ? d->t1 : d->t1 + 1;
      return ttv_viewer_table_query_scatter (d->table, d->t0, end, d->width, d->columns, error);
    }
  for (guint i = 0; i < scale->n_pieces; i++)
    {
      const TtvTimeScalePiece *p = &scale->pieces[i];
      guint a, b;

      if (!ttv_time_scale_get_piece_columns (scale, i, &a, &b))
        continue;
      /* Records that start in [t0, t1]: the end is exclusive. */
      TtvTime t1 = p->t1 == TTV_TIME_MAX ? p->t1 : p->t1 + 1;
      if (!ttv_viewer_table_query_scatter (d->table, p->t0, t1, MIN (b, d->width) - MIN (a, d->width),
                                           d->columns + MIN (a, d->width), error))
        return FALSE;
    }
  return TRUE;
}

/* One thread: everything from its records of the window. */
static gboolean
compute_thread (TtvLatencyData *d, gboolean with_stats, GCancellable *cancellable, GError **error)
{
  g_autoptr (TtvViewerRecords) records = ttv_viewer_table_query_thread (d->table, TTV_VIEWER_QUERY_START_IN, d->t0,
                                                                        d->t1, d->machine, d->tid, error);
  if (records == NULL)
    return FALSE;
  guint n = ttv_viewer_records_get_n (records);
  gint group = ttv_viewer_table_get_group_column (d->table);
  g_autoptr (GHashTable) by_group = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free,
                                                           (GDestroyNotify) g_array_unref);
  g_autoptr (GArray) every = g_array_new (FALSE, FALSE, sizeof (TtvTime));
  for (guint i = 0; i < n; i++)
    {
      TtvTime s = ttv_viewer_records_get_start (records, i), e = ttv_viewer_records_get_end (records, i);
      TtvTime dur = e - s;
      guint b = ttv_viewer_duration_bucket (dur);
      guint x = (guint) CLAMP (ttv_time_scale_x_of_time (&d->scale, s), 0, d->width - 1);
      d->columns[x].mask[b / 64] |= G_GUINT64_CONSTANT (1) << (b % 64);
      d->columns[x].count++;
      d->counts[b]++;
      d->n++;
      if (!with_stats)
        continue;
      g_array_append_val (every, dur);
      gint64 key = group >= 0 ? ttv_viewer_records_get_value (records, i, (guint) group) : -1;
      GArray *durations = g_hash_table_lookup (by_group, &key);
      if (durations == NULL)
        {
          durations = g_array_new (FALSE, FALSE, sizeof (TtvTime));
          g_hash_table_insert (by_group, g_memdup2 (&key, sizeof key), durations);
        }
      g_array_append_val (durations, dur);
    }
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  if (!with_stats)
    return TRUE;
  d->has_stats = TRUE;
  summarize (&d->all, -1, "", every);
  d->labels = g_string_chunk_new (256);
  d->groups = g_array_new (FALSE, FALSE, sizeof (TtvViewerDurationStats));
  GHashTableIter it;
  gpointer key, value;
  g_hash_table_iter_init (&it, by_group);
  while (g_hash_table_iter_next (&it, &key, &value))
    {
      TtvViewerDurationStats s;
      summarize (&s, *(gint64 *) key, "", value);
      g_array_append_val (d->groups, s);
    }
  g_array_sort (d->groups, compare_total_desc);
  /* Labels: the text of a record of each group. */
  for (guint i = 0; i < n && group >= 0; i++)
    {
      gint64 k = ttv_viewer_records_get_value (records, i, (guint) group);
      for (guint g = 0; g < d->groups->len; g++)
        {
          TtvViewerDurationStats *s = &g_array_index (d->groups, TtvViewerDurationStats, g);
          if (s->key == k && *s->label == '\0')
            {
              g_autofree char *label = ttv_viewer_records_dup_text (records, i, (guint) group);
              s->label = g_string_chunk_insert_const (d->labels, label);
            }
        }
    }
  /* The longest: the records' indices by duration. */
  d->order = g_array_sized_new (FALSE, FALSE, sizeof (guint), n);
  for (guint i = 0; i < n; i++)
    g_array_append_val (d->order, i);
  g_array_sort_with_data (d->order, compare_longest, records);
  g_array_set_size (d->order, MIN (n, TTV_LATENCY_LONGEST));
  d->longest = g_steal_pointer (&records);
  return TRUE;
}

TtvLatencyData *
ttv_latency_data_compute (TtvViewerTable *table, TtvTime t0, TtvTime t1, guint width, const TtvTimeScale *scale,
                          guint machine, guint32 tid, gboolean with_stats, GCancellable *cancellable, GError **error)
{
  g_autoptr (TtvLatencyData) d = g_new0 (TtvLatencyData, 1);
  d->table = ttv_viewer_table_ref (table);
  d->t0 = t0;
  d->t1 = MAX (t0, t1);
  d->machine = machine;
  d->tid = tid;
  d->width = MAX (width, 1);
  d->columns = g_new0 (TtvViewerScatterColumn, d->width);
  if (scale)
    {
      d->scale = *scale;
      ttv_time_scale_place (&d->scale, 0, d->width);
    }
  else
    ttv_time_scale_init_linear (&d->scale, d->t0, MAX (d->t1, d->t0 + 1), 0, d->width);
  if (tid != TTV_VIEWER_PID_NONE)
    return compute_thread (d, with_stats, cancellable, error) ? g_steal_pointer (&d) : NULL;
  if (!query_scatter (d, error)
      || !ttv_viewer_table_query_density (table, d->t0, d->t1, d->counts, error))
    return NULL;
  for (guint b = 0; b < TTV_VIEWER_DURATION_BUCKETS; b++)
    d->n += d->counts[b];
  if (!with_stats || g_cancellable_set_error_if_cancelled (cancellable, error))
    return with_stats ? NULL : g_steal_pointer (&d);
  d->groups = ttv_viewer_table_dup_statistics (table, d->t0, d->t1, &d->all, error);
  if (d->groups == NULL || g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;
  d->longest = ttv_viewer_table_query_longest (table, d->t0, d->t1, TTV_LATENCY_LONGEST, error);
  if (d->longest == NULL)
    return NULL;
  d->order = g_array_sized_new (FALSE, FALSE, sizeof (guint), ttv_viewer_records_get_n (d->longest));
  for (guint i = 0; i < ttv_viewer_records_get_n (d->longest); i++)
    g_array_append_val (d->order, i);
  d->has_stats = TRUE;
  return g_steal_pointer (&d);
}

gboolean
ttv_latency_data_add_throughput (TtvLatencyData *d, GError **error)
{
  d->devices = ttv_viewer_table_dup_block_usage (d->table, FALSE, d->t0, d->t1, error);
  if (d->devices)
    d->processes = ttv_viewer_table_dup_block_usage (d->table, TRUE, d->t0, d->t1, error);
  return d->processes != NULL;
}
