/* ttv-indexer.c: the first read of a traceset in a GTask thread (event
 * count, density histogram); cancellable, with progress by blocks read. */
#include "ttv-indexer.h"

#include "ttv-pass-memory.h"

typedef struct {
  TtvTraceset *traceset;    /* owned reference */
  guint n_bins;
  gint *progress;           /* owned reference: a g_atomic_rc_box shared with the tab */
  gboolean range;           /* only the events in start..end (else the span, all of them) */
  TtvTime start, end;
} IndexJob;

static void
index_job_free (IndexJob *job)
{
  ttv_traceset_unref (job->traceset);
  g_atomic_rc_box_release (job->progress);
  g_free (job);
}

void
ttv_index_result_free (TtvIndexResult *result)
{
  if (!result)
    return;
  g_clear_pointer (&result->density, g_array_unref);
  g_clear_pointer (&result->type_density, g_hash_table_unref);
  g_free (result);
}

TtvTime
ttv_index_result_get_bin_start (const TtvIndexResult *result, guint bin)
{
  g_return_val_if_fail (bin < result->density->len, result->end);
  return ttv_density_bins_get_bin_start (&result->bins, bin);
}

static GArray *
new_bins (guint n)
{
  GArray *a = g_array_sized_new (FALSE, TRUE, sizeof (guint32), n);

  g_array_set_size (a, n);
  return a;
}

static void
bins_unref (gpointer bins)
{
  if (bins)
    g_array_unref (bins);
}

/* Per-type bins are counted by (trace, type id), then merged by name. */
static void
merge_type_bins (GHashTable *by_name, GPtrArray *per_type, const TtvTrace *trace, guint n_bins)
{
  for (guint id = 0; id < per_type->len; id++)
    {
      GArray *bins = per_type->pdata[id];
      const TtvEventType *et;
      const char *name;
      GArray *into;

      if (!bins || id >= trace->event_types->len)
        continue;
      et = trace->event_types->pdata[id];
      name = et->full_name ? et->full_name : et->name;
      into = g_hash_table_lookup (by_name, name);
      if (!into)
        {
          g_hash_table_insert (by_name, g_strdup (name), g_array_ref (bins));
          continue;
        }
      for (guint b = 0; b < n_bins; b++)
        g_array_index (into, guint32, b) += g_array_index (bins, guint32, b);
    }
}

static void
index_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  IndexJob *job = data;
  TtvTraceset *ts = job->traceset;
  g_autoptr (TtvIndexResult) result = g_new0 (TtvIndexResult, 1);
  TtvTime start = job->range ? job->start : ttv_traceset_get_start (ts);
  TtvTime end = job->range ? job->end : ttv_traceset_get_end (ts);
  guint n = ttv_traceset_get_n_tracefiles (ts);
  guint64 total_blocks = 0, done_blocks = 0;

  result->start = start;
  result->end = end;
  if (job->range)
    ttv_density_bins_init (&result->bins, start, end, job->n_bins, NULL, 0);
  else
    {
      TtvTime gaps[TTV_TIME_MAX_IDLE_GAPS][2];
      guint n_gaps = ttv_traceset_find_idle_gaps (ts, start, end, gaps);

      ttv_density_bins_init (&result->bins, start, end, job->n_bins, (const TtvTime (*)[2]) gaps, n_gaps);
    }
  result->density = new_bins (job->n_bins);
  result->type_density = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                (GDestroyNotify) g_array_unref);
  for (guint i = 0; i < n; i++)
    total_blocks += ttv_traceset_get_tracefile (ts, i)->n_blocks;

  for (guint i = 0; i < n; i++)
    {
      TtvTracefile *tf = ttv_traceset_get_tracefile (ts, i);
      g_autoptr (GPtrArray) per_type = g_ptr_array_new_with_free_func (bins_unref);
      g_autoptr (TtvCursor) cursor = NULL;
      GError *error = NULL;
      TtvEvent ev;
      guint64 k = 0;

      const TtvClockCorrection *clock = ttv_clock_correction_is_identity (&tf->trace->clock) ? NULL
                                                                                             : &tf->trace->clock;
      cursor = ttv_cursor_new (tf, &error);
      if (!cursor
          || (job->range && !ttv_cursor_seek_time (cursor, clock ? ttv_clock_correction_invert (clock, start) : start,
                                                   &error)))
        {
          g_task_return_error (task, error);
          return;
        }
      while (ttv_cursor_next (cursor, &ev, &error))
        {
          guint bin;

          if (clock)
            ev.time = ttv_clock_correction_apply (clock, ev.time);
          if (job->range && ev.time > end)
            break;
          if (job->range && ev.time < start)
            continue;
          bin = ttv_density_bins_bin_of (&result->bins, ev.time);
          g_array_index (result->density, guint32, bin)++;
          if (ev.type)
            {
              guint id = ev.type->id;

              if (id < 65536)
                {
                  if (id >= per_type->len)
                    g_ptr_array_set_size (per_type, id + 1);
                  if (!per_type->pdata[id])
                    per_type->pdata[id] = new_bins (job->n_bins);
                  g_array_index ((GArray *) per_type->pdata[id], guint32, bin)++;
                }
            }
          result->n_events++;
          if (++k % 8192 == 0)
            {
              if (g_cancellable_is_cancelled (cancellable))
                {
                  g_task_return_error_if_cancelled (task);
                  return;
                }
              if (total_blocks)
                g_atomic_int_set (job->progress,
                                  (gint) (1000 * (done_blocks + ev.pos.block) / total_blocks));
            }
        }
      if (error)
        {
          g_task_return_error (task, error);
          return;
        }
      merge_type_bins (result->type_density, per_type, tf->trace, job->n_bins);
      done_blocks += tf->n_blocks;
    }
  g_atomic_int_set (job->progress, 1000);
  g_task_return_pointer (task, g_steal_pointer (&result), (GDestroyNotify) ttv_index_result_free);
  ttv_pass_give_back_memory ();
}

static GTask *
new_task (TtvTraceset *traceset, guint n_bins, gint *progress, GCancellable *cancellable,
          GAsyncReadyCallback callback, gpointer user_data)
{
  GTask *task = g_task_new (NULL, cancellable, callback, user_data);
  IndexJob *job = g_new0 (IndexJob, 1);

  job->traceset = ttv_traceset_ref (traceset);
  job->n_bins = MAX (1, n_bins);
  job->progress = g_atomic_rc_box_acquire (progress);
  g_task_set_task_data (task, job, (GDestroyNotify) index_job_free);
  g_task_set_return_on_cancel (task, FALSE);
  return task;
}

void
ttv_indexer_run_async (TtvTraceset *traceset, guint n_bins, gint *progress,
                       GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr (GTask) task = new_task (traceset, n_bins, progress, cancellable, callback, user_data);

  g_task_run_in_thread (task, index_thread);
}

static TtvIndexResult *
run_sync (TtvTraceset *traceset, guint n_bins, gboolean range, TtvTime start, TtvTime end,
          GCancellable *cancellable, GError **error)
{
  gint *progress = g_atomic_rc_box_new0 (gint);
  g_autoptr (GTask) task = new_task (traceset, n_bins, progress, cancellable, NULL, NULL);
  IndexJob *job = g_task_get_task_data (task);

  job->range = range;
  job->start = start;
  job->end = end;
  g_atomic_rc_box_release (progress);
  g_task_run_in_thread_sync (task, index_thread);
  return g_task_propagate_pointer (task, error);
}

TtvIndexResult *
ttv_indexer_run (TtvTraceset *traceset, guint n_bins, GCancellable *cancellable, GError **error)
{
  return run_sync (traceset, n_bins, FALSE, 0, 0, cancellable, error);
}

TtvIndexResult *
ttv_indexer_run_range (TtvTraceset *traceset, guint n_bins, TtvTime start, TtvTime end,
                       GCancellable *cancellable, GError **error)
{
  g_return_val_if_fail (start <= end, NULL);
  return run_sync (traceset, n_bins, TRUE, start, end, cancellable, error);
}

TtvIndexResult *
ttv_indexer_run_finish (GAsyncResult *result, GError **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}
