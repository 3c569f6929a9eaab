/* ttv-tab-kernel.c: a tab's kernel analyses (sdk's ttv-viewer-kernel.h):
 * libttv's CPU usage, system call, scheduling, IRQ, block and futex
 * analyses, run in a worker thread when a viewer first asks (those asked
 * meanwhile together, in one read; read back from the cache when the trace
 * was analysed before), kept with the tab's state until its traceset
 * changes, and the SDK's accessors over their tables. */
#include "ttv-config.h"

#include "ttv-kernel-analyses.h"
#include "ttv-settings.h"
#include "ttv-tab-analysis-run.h"
#include "ttv-tab-analysis.h"
#include "ttv-tab-state-private.h"

#include <glib/gi18n.h>
#include <string.h>

#define N_ANALYSES TTV_VIEWER_KERNEL_N_ANALYSES

typedef struct {
  TtvAnalysis *result;          /* owned, NULL until done */
  GError *error;                /* owned: why the last run failed */
  gboolean wanted;              /* asked for, not yet running */
  gboolean running;             /* in the batch under way */
} Run;

typedef struct {
  TtvTabState *state;           /* weak: owns this */
  Run runs[N_ANALYSES];
  GCancellable *cancel;         /* owned while a batch runs */
  gint *progress;               /* g_atomic_rc_box of the batch, 0..1000 */
  guint generation;             /* bumped when the traceset changes: older batches are dropped */
} Kernel;

typedef struct {
  TtvTabState *state;           /* owned reference */
  guint which[N_ANALYSES];
  guint n;
  guint generation;
} Batch;

static const TtvAnalysisClass *
class_of (guint which)
{
  static const TtvAnalysisClass *const classes[N_ANALYSES] = {
    &ttv_cpu_usage_analysis, &ttv_syscall_analysis, &ttv_sched_analysis,
    &ttv_irq_analysis, &ttv_block_analysis, &ttv_futex_analysis,
  };
  return classes[which];
}

static void
kernel_stop (Kernel *k)
{
  if (k->cancel)
    g_cancellable_cancel (k->cancel);
  g_clear_object (&k->cancel);
  if (k->progress)
    g_atomic_rc_box_release (k->progress);
  k->progress = NULL;
}

static void
kernel_free (Kernel *k)
{
  kernel_stop (k);
  for (guint i = 0; i < N_ANALYSES; i++)
    {
      g_clear_pointer (&k->runs[i].result, ttv_analysis_unref);
      g_clear_error (&k->runs[i].error);
    }
  g_free (k);
}

static void
traceset_changed (TtvTabState *state, Kernel *k)
{
  k->generation++;
  kernel_stop (k);
  for (guint i = 0; i < N_ANALYSES; i++)
    {
      g_clear_pointer (&k->runs[i].result, ttv_analysis_unref);
      g_clear_error (&k->runs[i].error);
      k->runs[i].wanted = k->runs[i].running = FALSE;
    }
  g_signal_emit_by_name (state, "kernel-ready");
}

static Kernel *
kernel_of (TtvTabState *state)
{
  Kernel *k = g_object_get_data (G_OBJECT (state), "ttv-kernel");
  if (k == NULL)
    {
      k = g_new0 (Kernel, 1);
      k->state = state;
      g_object_set_data_full (G_OBJECT (state), "ttv-kernel", k, (GDestroyNotify) kernel_free);
      g_signal_connect (state, "traceset-changed", G_CALLBACK (traceset_changed), k);
    }
  return k;
}

static void
options_init (TtvAnalysisOptions *options)
{
  memset (options, 0, sizeof *options);
  options->cache_max_bytes = ttv_settings_get_history_cache_max ();
}

static void start_batch (Kernel *k);

static void
batch_done (GObject *source, GAsyncResult *result, gpointer data)
{
  Batch *batch = data;
  GError *error = NULL;
  g_autoptr (GPtrArray) results = ttv_analysis_run_many_finish (result, &error);
  Kernel *k = g_object_get_data (G_OBJECT (batch->state), "ttv-kernel");

  ttv_tab_analysis_add_workers (ttv_tab_state_get_analysis (batch->state), -1);
  if (k && k->generation == batch->generation && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      for (guint i = 0; i < batch->n; i++)
        {
          Run *run = &k->runs[batch->which[i]];
          run->running = FALSE;
          if (results)
            run->result = ttv_analysis_ref (g_ptr_array_index (results, i));
          else
            run->error = g_error_copy (error);
        }
      g_clear_object (&k->cancel);
      start_batch (k);
      g_signal_emit_by_name (batch->state, "kernel-ready");
    }
  g_clear_error (&error);
  g_object_unref (batch->state);
  g_free (batch);
}

/* Runs every analysis asked for and not running, in one read. */
static void
start_batch (Kernel *k)
{
  if (k->cancel)
    return;
  Batch *batch = g_new0 (Batch, 1);
  g_autoptr (GPtrArray) classes = g_ptr_array_new ();
  for (guint i = 0; i < N_ANALYSES; i++)
    if (k->runs[i].wanted)
      {
        k->runs[i].wanted = FALSE;
        k->runs[i].running = TRUE;
        batch->which[batch->n++] = i;
        g_ptr_array_add (classes, (gpointer) class_of (i));
      }
  if (batch->n == 0)
    {
      g_free (batch);
      return;
    }
  batch->state = g_object_ref (k->state);
  batch->generation = k->generation;
  k->cancel = g_cancellable_new ();
  if (k->progress)
    g_atomic_rc_box_release (k->progress);
  k->progress = g_atomic_rc_box_new0 (gint);
  TtvAnalysisOptions options;
  options_init (&options);
  /* Counted: the traceset is not refreshed under a reading thread. */
  ttv_tab_analysis_add_workers (ttv_tab_state_get_analysis (k->state), 1);
  ttv_analysis_run_many_async (ttv_tab_state_get_traceset (k->state), classes, &options, k->progress, k->cancel,
                               batch_done, batch);
}

gboolean
ttv_tab_state_request_kernel (TtvTabState *state, TtvViewerKernelAnalysis which)
{
  g_return_val_if_fail (TTV_IS_TAB_STATE (state) && which < N_ANALYSES, FALSE);
  Kernel *k = kernel_of (state);
  Run *run = &k->runs[which];
  if (run->result)
    return TRUE;
  if (run->running || run->wanted)
    return FALSE;
  g_clear_error (&run->error);
  run->wanted = TRUE;
  start_batch (k);
  return FALSE;
}

double
ttv_tab_state_get_kernel_progress (TtvTabState *state, TtvViewerKernelAnalysis which)
{
  g_return_val_if_fail (TTV_IS_TAB_STATE (state) && which < N_ANALYSES, 0);
  Kernel *k = kernel_of (state);
  Run *run = &k->runs[which];
  if (run->result)
    return 1;
  /* Below 1 until the result is there: the run's count reaches its end
   * before the main loop takes the result, and 1 means done. */
  return run->running && k->progress ? MIN (g_atomic_int_get (k->progress) / 1000.0, 0.999) : 0;
}

const GError *
ttv_tab_state_get_kernel_error (TtvTabState *state, TtvViewerKernelAnalysis which)
{
  g_return_val_if_fail (TTV_IS_TAB_STATE (state) && which < N_ANALYSES, NULL);
  return kernel_of (state)->runs[which].error;
}

gboolean
ttv_tab_state_compute_kernel (TtvTabState *state, TtvViewerKernelAnalysis which, GCancellable *cancellable,
                              GError **error)
{
  g_return_val_if_fail (TTV_IS_TAB_STATE (state) && which < N_ANALYSES, FALSE);
  Kernel *k = kernel_of (state);
  Run *run = &k->runs[which];
  if (run->result)
    return TRUE;
  TtvAnalysisOptions options;
  options_init (&options);
  TtvAnalysis *a = ttv_tab_state_run_analysis (state, class_of (which), &options, cancellable, error);
  if (a == NULL)
    return FALSE;
  /* A background run of it still gives its result; this one is used now. */
  run->wanted = FALSE;
  g_clear_error (&run->error);
  run->result = a;
  g_signal_emit_by_name (state, "kernel-ready");
  return TRUE;
}

static const TtvAnalysis *
result_of (TtvTabState *state, guint which)
{
  g_return_val_if_fail (TTV_IS_TAB_STATE (state), NULL);
  return kernel_of (state)->runs[which].result;
}

/* --- Tables --------------------------------------------------------------------------- */

#define TTV_VIEWER_MAX_COLUMNS 32

struct _TtvViewerTable {
  gint ref_count;
  TtvAnalysis *analysis;        /* owned reference */
  const TtvAnalysisTable *table;
  const TtvAnalysisTableSpec *spec;
  gint tid_column;              /* of the spec, -1: none */
  gint machine_column;          /* of the spec, -1: none (the analysis merges machines) */
  /* The columns views see (ttv_analysis_column_is_shown: the machine's
   * only with several machines), as indices of the spec's. */
  guint columns[TTV_VIEWER_MAX_COLUMNS];
  guint n_columns;
  GMutex lock;                  /* of @labels: tables are read from any thread */
  GStringChunk *labels;         /* the statistics' group labels given out */
};

struct _TtvViewerRecords {
  TtvViewerTable *table;        /* owned reference */
  GArray *records;              /* of the table's records */
};

G_STATIC_ASSERT ((gint) TTV_VIEWER_COLUMN_ENUM == (gint) TTV_COLUMN_ENUM);
G_STATIC_ASSERT ((gint) TTV_VIEWER_COLUMN_STRING == (gint) TTV_COLUMN_STRING);
G_STATIC_ASSERT ((gint) TTV_VIEWER_COLUMN_TID == (gint) TTV_COLUMN_TID);
G_STATIC_ASSERT (TTV_VIEWER_DURATION_BUCKETS == TTV_DURATION_BUCKETS);
G_STATIC_ASSERT (sizeof (TtvViewerScatterColumn) == sizeof (TtvScatterColumn));
G_STATIC_ASSERT ((gint) TTV_VIEWER_QUERY_START_IN == (gint) TTV_QUERY_START_IN);
G_STATIC_ASSERT ((gint) TTV_VIEWER_PATH_BLOCKED == (gint) TTV_PATH_BLOCKED);
G_STATIC_ASSERT ((gint) TTV_VIEWER_WAKER_SOFTIRQ == (gint) TTV_WAKER_SOFTIRQ);
G_STATIC_ASSERT ((gint) TTV_VIEWER_BLOCKED_OTHER == (gint) TTV_BLOCKED_OTHER);

TtvViewerTable *
ttv_tab_state_dup_kernel_table (TtvTabState *state, TtvViewerKernelAnalysis which, const char *name)
{
  g_return_val_if_fail (which < N_ANALYSES && name != NULL, NULL);
  const TtvAnalysis *a = result_of (state, which);
  const TtvAnalysisTable *t = a ? ttv_analysis_find_table (a, name) : NULL;
  if (t == NULL)
    return NULL;
  TtvViewerTable *table = g_new0 (TtvViewerTable, 1);
  table->ref_count = 1;
  table->analysis = ttv_analysis_ref ((TtvAnalysis *) a);
  table->table = t;
  table->spec = ttv_analysis_table_get_spec (t);
  table->tid_column = -1;
  table->machine_column = -1;
  g_mutex_init (&table->lock);
  table->labels = g_string_chunk_new (256);
  for (guint c = 0; c < table->spec->n_columns; c++)
    {
      if (g_str_equal (table->spec->columns[c].name, "tid"))
        table->tid_column = (gint) c;
      if (g_str_equal (table->spec->columns[c].name, TTV_ANALYSIS_MACHINE_COLUMN))
        table->machine_column = (gint) c;
      if (ttv_analysis_column_is_shown (a, &table->spec->columns[c]) && table->n_columns < TTV_VIEWER_MAX_COLUMNS)
        table->columns[table->n_columns++] = c;
    }
  return table;
}

TtvViewerTable *
ttv_viewer_table_ref (TtvViewerTable *table)
{
  g_atomic_int_inc (&table->ref_count);
  return table;
}

void
ttv_viewer_table_unref (TtvViewerTable *table)
{
  if (table && g_atomic_int_dec_and_test (&table->ref_count))
    {
      ttv_analysis_unref (table->analysis);
      g_mutex_clear (&table->lock);
      g_string_chunk_free (table->labels);
      g_free (table);
    }
}

const char *
ttv_viewer_table_get_name (TtvViewerTable *table)
{
  return table->spec->name;
}

guint
ttv_viewer_table_get_n_machines (TtvViewerTable *table)
{
  return table->machine_column >= 0 ? ttv_analysis_get_n_machines (table->analysis) : 1;
}

const char *
ttv_viewer_table_get_machine_name (TtvViewerTable *table, guint machine)
{
  return ttv_analysis_get_machine_name (table->analysis, machine);
}

guint64
ttv_viewer_table_get_n_records (TtvViewerTable *table)
{
  return ttv_analysis_table_get_n_records (table->table);
}

guint
ttv_viewer_table_get_n_columns (TtvViewerTable *table)
{
  return table->n_columns;
}

const char *
ttv_viewer_table_get_column_name (TtvViewerTable *table, guint column)
{
  g_return_val_if_fail (column < table->n_columns, NULL);
  return table->spec->columns[table->columns[column]].name;
}

const char *
ttv_viewer_table_get_column_title (TtvViewerTable *table, guint column)
{
  g_return_val_if_fail (column < table->n_columns, NULL);
  return _(table->spec->columns[table->columns[column]].title);
}

TtvViewerColumnType
ttv_viewer_table_get_column_type (TtvViewerTable *table, guint column)
{
  g_return_val_if_fail (column < table->n_columns, TTV_VIEWER_COLUMN_INT);
  return (TtvViewerColumnType) table->spec->columns[table->columns[column]].type;
}

gint
ttv_viewer_table_find_column (TtvViewerTable *table, const char *name)
{
  for (guint c = 0; c < table->n_columns; c++)
    if (g_str_equal (table->spec->columns[table->columns[c]].name, name))
      return (gint) c;
  return -1;
}

gint
ttv_viewer_table_get_group_column (TtvViewerTable *table)
{
  const TtvAnalysisColumn *col = ttv_analysis_table_get_group_column (table->table);
  return col ? (gint) (col - table->spec->columns) : -1;
}

/* --- Records --------------------------------------------------------------------------- */

static TtvViewerRecords *
records_new (TtvViewerTable *table, GArray *records)
{
  TtvViewerRecords *r = g_new0 (TtvViewerRecords, 1);
  r->table = ttv_viewer_table_ref (table);
  r->records = records;
  return r;
}

static guint32
record_tid (const TtvViewerTable *table, const void *record)
{
  if (table->tid_column < 0)
    return TTV_VIEWER_PID_NONE;
  return (guint32) ttv_analysis_column_get (&table->spec->columns[table->tid_column], record);
}

/* The records of @tid (TTV_VIEWER_PID_NONE: all) whose machine column
 * holds @only_machine (a string of the result; -1: any machine). */
static TtvViewerRecords *
query_records (TtvViewerTable *table, TtvViewerQueryMode mode, TtvTime t0, TtvTime t1, guint32 tid,
               gint64 only_machine, GError **error)
{
  GArray *records;
  const TtvAnalysisColumn *machine_col = only_machine >= 0 ? &table->spec->columns[table->machine_column] : NULL;
  if (tid == TTV_VIEWER_PID_NONE)
    records = ttv_analysis_table_query (table->table, (TtvQueryMode) mode, t0, t1, error);
  else if (table->tid_column >= 0 && table->spec->series_offset[0] == table->spec->columns[table->tid_column].offset)
    /* The thread's own series: its records only are read. */
    records = ttv_analysis_table_query_series (table->table, 0, tid, t0, t1, error);
  else
    records = ttv_analysis_table_query (table->table, (TtvQueryMode) mode, t0, t1, error);
  if (records == NULL)
    return NULL;
  if (tid != TTV_VIEWER_PID_NONE || mode == TTV_VIEWER_QUERY_START_IN || machine_col)
    {
      /* Keep what the mode and the thread select (a series is queried by overlap). */
      gsize size = table->spec->record_size;
      guint kept = 0;
      for (guint i = 0; i < records->len; i++)
        {
          const guint8 *r = (const guint8 *) records->data + i * size;
          TtvTime s = ttv_analysis_record_start (r);
          if ((tid != TTV_VIEWER_PID_NONE && record_tid (table, r) != tid)
              || (mode == TTV_VIEWER_QUERY_START_IN && (s < t0 || s > t1))
              || (machine_col && ttv_analysis_column_get (machine_col, r) != only_machine))
            continue;
          if (kept != i)
            memcpy ((guint8 *) records->data + kept * size, r, size);
          kept++;
        }
      g_array_set_size (records, kept);
    }
  return records_new (table, records);
}

TtvViewerRecords *
ttv_viewer_table_query (TtvViewerTable *table, TtvViewerQueryMode mode, TtvTime t0, TtvTime t1, guint32 tid,
                        GError **error)
{
  return query_records (table, mode, t0, t1, tid, -1, error);
}

TtvViewerRecords *
ttv_viewer_table_query_thread (TtvViewerTable *table, TtvViewerQueryMode mode, TtvTime t0, TtvTime t1,
                               guint machine, guint32 tid, GError **error)
{
  gint64 name;
  if (ttv_viewer_table_get_n_machines (table) < 2 || !ttv_analysis_get_machine_string (table->analysis, machine, &name))
    name = -1;   /* one machine (or a name the file lacks): any record of @tid */
  return query_records (table, mode, t0, t1, tid, name, error);
}

TtvViewerRecords *
ttv_viewer_table_query_longest (TtvViewerTable *table, TtvTime t0, TtvTime t1, guint max, GError **error)
{
  GArray *records = ttv_analysis_table_query_longest (table->table, t0, t1, max, error);
  return records ? records_new (table, records) : NULL;
}

void
ttv_viewer_records_free (TtvViewerRecords *records)
{
  if (records == NULL)
    return;
  g_array_unref (records->records);
  ttv_viewer_table_unref (records->table);
  g_free (records);
}

guint
ttv_viewer_records_get_n (TtvViewerRecords *records)
{
  return records->records->len;
}

static const void *
record_at (TtvViewerRecords *records, guint index)
{
  g_return_val_if_fail (index < records->records->len, NULL);
  return (const guint8 *) records->records->data + (gsize) index * records->table->spec->record_size;
}

TtvTime
ttv_viewer_records_get_start (TtvViewerRecords *records, guint index)
{
  const void *r = record_at (records, index);
  return r ? ttv_analysis_record_start (r) : 0;
}

TtvTime
ttv_viewer_records_get_end (TtvViewerRecords *records, guint index)
{
  const void *r = record_at (records, index);
  return r ? ttv_analysis_record_end (r) : 0;
}

guint32
ttv_viewer_records_get_tid (TtvViewerRecords *records, guint index)
{
  const void *r = record_at (records, index);
  return r ? record_tid (records->table, r) : TTV_VIEWER_PID_NONE;
}

guint
ttv_viewer_records_get_machine (TtvViewerRecords *records, guint index)
{
  const TtvViewerTable *table = records->table;
  const void *r = record_at (records, index);
  guint n = ttv_analysis_get_n_machines (table->analysis);
  if (r == NULL || table->machine_column < 0 || n < 2)
    return 0;
  /* The record holds its machine's name (a string of the result). */
  guint32 s = (guint32) ttv_analysis_column_get (&table->spec->columns[table->machine_column], r);
  return ttv_analysis_find_machine (table->analysis, ttv_analysis_get_string (table->analysis, s));
}

gint64
ttv_viewer_records_get_value (TtvViewerRecords *records, guint index, guint column)
{
  const void *r = record_at (records, index);
  g_return_val_if_fail (column < records->table->n_columns, 0);
  return r ? ttv_analysis_column_get (&records->table->spec->columns[records->table->columns[column]], r) : 0;
}

char *
ttv_viewer_records_dup_text (TtvViewerRecords *records, guint index, guint column)
{
  const void *r = record_at (records, index);
  g_return_val_if_fail (column < records->table->n_columns, NULL);
  if (r == NULL)
    return g_strdup ("");
  const TtvAnalysisColumn *c = &records->table->spec->columns[records->table->columns[column]];
  gint64 v = ttv_analysis_column_get (c, r);
  /* No priority, no string: nothing to show. */
  if ((c->type == TTV_COLUMN_INT && v == TTV_ANALYSIS_NO_PRIO)
      || (c->type == TTV_COLUMN_STRING && (guint32) v == TTV_ANALYSIS_NO_STRING))
    return g_strdup ("");
  char *text = ttv_analysis_format_value (records->table->analysis, c, r, TTV_TIME_MIN);
  return text ? text : g_strdup ("");
}

/* --- System calls' arguments ------------------------------------------------------------- */

typedef struct {
  TtvTraceset *traceset;        /* owned reference */
  TtvViewerRecords *records;    /* owned */
  GArray *indices;              /* of guint, owned */
} ArgsJob;

static void
args_job_free (ArgsJob *job)
{
  ttv_traceset_unref (job->traceset);
  ttv_viewer_records_free (job->records);
  g_array_unref (job->indices);
  g_free (job);
}

static void
args_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  ArgsJob *job = data;
  g_auto (GStrv) out = g_new0 (char *, job->indices->len + 1);
  for (guint i = 0; i < job->indices->len; i++)
    {
      GError *error = NULL;
      if (g_cancellable_set_error_if_cancelled (cancellable, &error))
        {
          g_task_return_error (task, error);
          return;
        }
      const void *call = record_at (job->records, g_array_index (job->indices, guint, i));
      out[i] = call ? ttv_syscall_dup_arguments (job->traceset, call, &error) : NULL;
      if (error)
        {
          g_task_return_error (task, error);
          return;
        }
      if (out[i] == NULL)
        out[i] = g_strdup ("");
    }
  g_task_return_pointer (task, g_steal_pointer (&out), (GDestroyNotify) g_strfreev);
}

/* The worker is done reading the traceset (which a live refresh waits
 * for): the caller's task completes. */
static void
args_done (GObject *source, GAsyncResult *result, gpointer data)
{
  GTask *outer = data;
  GError *error = NULL;
  ttv_tab_analysis_add_workers (ttv_tab_state_get_analysis (g_task_get_source_object (outer)), -1);
  GStrv args = g_task_propagate_pointer (G_TASK (result), &error);
  if (args)
    g_task_return_pointer (outer, args, (GDestroyNotify) g_strfreev);
  else
    g_task_return_error (outer, error);
  g_object_unref (outer);
}

void
ttv_tab_state_read_syscall_arguments_async (TtvTabState *state, TtvViewerRecords *records, const guint *indices,
                                            guint n, GCancellable *cancellable, GAsyncReadyCallback callback,
                                            gpointer user_data)
{
  g_return_if_fail (TTV_IS_TAB_STATE (state) && records != NULL);
  g_return_if_fail (ttv_analysis_get_class (records->table->analysis) == &ttv_syscall_analysis);
  GTask *outer = g_task_new (state, cancellable, callback, user_data);
  g_task_set_source_tag (outer, ttv_tab_state_read_syscall_arguments_async);
  ArgsJob *job = g_new0 (ArgsJob, 1);
  job->traceset = ttv_traceset_ref (ttv_tab_state_get_traceset (state));
  job->records = records_new (records->table, g_array_ref (records->records));
  job->indices = g_array_sized_new (FALSE, FALSE, sizeof (guint), n);
  g_array_append_vals (job->indices, indices, n);
  /* Counted: the traceset is not refreshed under a reading thread. */
  ttv_tab_analysis_add_workers (ttv_tab_state_get_analysis (state), 1);
  g_autoptr (GTask) inner = g_task_new (NULL, cancellable, args_done, outer);
  g_task_set_task_data (inner, job, (GDestroyNotify) args_job_free);
  g_task_run_in_thread (inner, args_thread);
}

GStrv
ttv_tab_state_read_syscall_arguments_finish (TtvTabState *state, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, state), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

/* --- Scatter, density, statistics -------------------------------------------------------- */

guint
ttv_viewer_duration_bucket (TtvTime duration)
{
  return ttv_duration_bucket (duration);
}

TtvTime
ttv_viewer_duration_bucket_lower (guint bucket)
{
  return ttv_duration_bucket_lower (bucket);
}

gboolean
ttv_viewer_table_query_scatter (TtvViewerTable *table, TtvTime t0, TtvTime t1, guint width,
                                TtvViewerScatterColumn *columns, GError **error)
{
  gboolean exact;
  return ttv_analysis_table_scatter (table->table, t0, t1, width, (TtvScatterColumn *) columns, &exact, error);
}

gboolean
ttv_viewer_table_query_density (TtvViewerTable *table, TtvTime t0, TtvTime t1,
                                guint64 counts[TTV_VIEWER_DURATION_BUCKETS], GError **error)
{
  return ttv_analysis_table_histogram (table->table, t0, t1, counts, error);
}

/* Called with @table's lock held.  @machine: the group's, with several. */
static const char *
group_label (TtvViewerTable *table, const TtvAnalysisColumn *col, guint machine, gint64 key)
{
  GStringChunk *labels = table->labels;
  const char *name = ttv_analysis_get_machine_group_name (table->analysis, table->table, machine, key);
  char buf[64];
  switch (col->type)
    {
    case TTV_COLUMN_STRING:
      return ttv_analysis_get_string (table->analysis, (guint32) key);
    case TTV_COLUMN_HEX:
      g_snprintf (buf, sizeof buf, "0x%" G_GINT64_MODIFIER "x", (guint64) key);
      return g_string_chunk_insert_const (labels, buf);
    case TTV_COLUMN_INT:
      if (key == TTV_ANALYSIS_NO_PRIO)
        return "";
      g_snprintf (buf, sizeof buf, "%" G_GINT64_FORMAT, key);
      return g_string_chunk_insert_const (labels, buf);
    default:
      {
        g_autofree char *text = name ? g_strdup_printf ("%" G_GINT64_FORMAT " %s", key, name)
                                     : g_strdup_printf ("%" G_GINT64_FORMAT, key);
        return g_string_chunk_insert_const (labels, text);
      }
    }
}

/* With several machines a group is of one machine, and its label says
 * which ("beta: 8:0"), as the CPU usage's threads do. */
static const char *
machine_group_label (TtvViewerTable *table, const TtvAnalysisColumn *col, guint machine, gint64 key)
{
  const char *label = col ? group_label (table, col, machine, key) : "";
  if (ttv_viewer_table_get_n_machines (table) < 2)
    return label;
  g_autofree char *text = g_strdup_printf ("%s: %s", ttv_analysis_get_machine_name (table->analysis, machine),
                                           label);
  return g_string_chunk_insert_const (table->labels, text);
}

static void
stats_from (TtvViewerDurationStats *out, const TtvDurationSummary *s, const char *label)
{
  out->key = s->key;
  out->label = label ? label : "";
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

typedef struct {
  TtvDurationSummary s;
  guint machine;
} MachineGroup;

static gint
compare_group_total (gconstpointer a, gconstpointer b)
{
  const MachineGroup *x = a, *y = b;
  if (x->s.total != y->s.total)
    return x->s.total > y->s.total ? -1 : 1;
  if (x->s.key != y->s.key)
    return x->s.key < y->s.key ? -1 : 1;
  return x->machine < y->machine ? -1 : x->machine > y->machine;
}

/* The groups of each machine of a table that tells several apart (of
 * MachineGroup), largest total first. */
static GArray *
summarize_machines (TtvViewerTable *table, TtvTime t0, TtvTime t1, GError **error)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (MachineGroup));
  const TtvAnalysisColumn *machine_col = &table->spec->columns[table->machine_column];
  for (guint m = 0; m < ttv_viewer_table_get_n_machines (table); m++)
    {
      gint64 name;
      if (!ttv_analysis_get_machine_string (table->analysis, m, &name))
        continue;
      g_autoptr (GArray) groups = ttv_analysis_table_summarize_where (table->table, machine_col, name, t0, t1,
                                                                       NULL, error);
      if (groups == NULL)
        {
          g_array_unref (out);
          return NULL;
        }
      for (guint i = 0; i < groups->len; i++)
        {
          MachineGroup g = { g_array_index (groups, TtvDurationSummary, i), m };
          g_array_append_val (out, g);
        }
    }
  g_array_sort (out, compare_group_total);
  return out;
}

GArray *
ttv_viewer_table_dup_statistics (TtvViewerTable *table, TtvTime t0, TtvTime t1, TtvViewerDurationStats *all,
                                 GError **error)
{
  TtvDurationSummary every;
  /* Over everything the analysis saw: the statistics stored at build time. */
  TtvTime first, last;
  ttv_analysis_get_time_range (table->analysis, &first, &last);
  if (t0 <= first && t1 >= last)
    {
      t0 = TTV_TIME_MIN;
      t1 = TTV_TIME_MAX;
    }
  g_autoptr (GArray) everything = ttv_analysis_table_summarize (table->table, t0, t1, &every, error);
  if (everything == NULL)
    return NULL;
  g_autoptr (GArray) groups = NULL;
  if (ttv_viewer_table_get_n_machines (table) < 2)
    {
      groups = g_array_sized_new (FALSE, FALSE, sizeof (MachineGroup), everything->len);
      for (guint i = 0; i < everything->len; i++)
        {
          MachineGroup g = { g_array_index (everything, TtvDurationSummary, i), 0 };
          g_array_append_val (groups, g);
        }
    }
  else if ((groups = summarize_machines (table, t0, t1, error)) == NULL)
    return NULL;
  const TtvAnalysisColumn *col = ttv_analysis_table_get_group_column (table->table);
  GArray *out = g_array_sized_new (FALSE, FALSE, sizeof (TtvViewerDurationStats), groups->len);
  g_mutex_lock (&table->lock);
  for (guint i = 0; i < groups->len; i++)
    {
      const MachineGroup *g = &g_array_index (groups, MachineGroup, i);
      TtvViewerDurationStats d;
      stats_from (&d, &g->s, machine_group_label (table, col, g->machine, g->s.key));
      g_array_append_val (out, d);
    }
  g_mutex_unlock (&table->lock);
  if (all)
    stats_from (all, &every, "");
  return out;
}

/* --- Block I/O throughput ------------------------------------------------------------------- */

G_STATIC_ASSERT (sizeof (TtvViewerBlockUsage) == sizeof (TtvBlockUsage));
G_STATIC_ASSERT (G_STRUCT_OFFSET (TtvViewerBlockUsage, machine) == G_STRUCT_OFFSET (TtvBlockUsage, machine));
G_STATIC_ASSERT (G_STRUCT_OFFSET (TtvViewerBlockUsage, name) == G_STRUCT_OFFSET (TtvBlockUsage, name));
G_STATIC_ASSERT (G_STRUCT_OFFSET (TtvViewerBlockUsage, busy) == G_STRUCT_OFFSET (TtvBlockUsage, busy));
G_STATIC_ASSERT (G_STRUCT_OFFSET (TtvViewerBlockUsage, write_rate) == G_STRUCT_OFFSET (TtvBlockUsage, write_rate));

GArray *
ttv_viewer_table_dup_block_usage (TtvViewerTable *table, gboolean by_process, TtvTime t0, TtvTime t1,
                                  GError **error)
{
  g_return_val_if_fail (ttv_analysis_get_class (table->analysis) == &ttv_block_analysis, NULL);
  GArray *usage = ttv_block_usage (table->analysis, by_process, t0, t1, error);
  /* The SDK's strings are never NULL. */
  for (guint i = 0; usage && i < usage->len; i++)
    if (g_array_index (usage, TtvBlockUsage, i).name == NULL)
      g_array_index (usage, TtvBlockUsage, i).name = "";
  return usage;
}

/* --- CPU usage ----------------------------------------------------------------------------
 * The SDK's handle is libttv's "cpu" analysis, cast. */

#define CPU_USAGE(u) ((const TtvAnalysis *) (u))

G_STATIC_ASSERT (sizeof (TtvViewerThreadUsage) == sizeof (TtvThreadUsage));
G_STATIC_ASSERT (G_STRUCT_OFFSET (TtvViewerThreadUsage, name) == G_STRUCT_OFFSET (TtvThreadUsage, name));
G_STATIC_ASSERT (G_STRUCT_OFFSET (TtvViewerThreadUsage, cpu_time) == G_STRUCT_OFFSET (TtvThreadUsage, cpu_time));
G_STATIC_ASSERT (G_STRUCT_OFFSET (TtvViewerThreadUsage, machine) == G_STRUCT_OFFSET (TtvThreadUsage, machine));

TtvViewerCpuUsage *
ttv_tab_state_dup_cpu_usage (TtvTabState *state)
{
  const TtvAnalysis *a = result_of (state, TTV_VIEWER_KERNEL_CPU);
  return a ? (TtvViewerCpuUsage *) ttv_analysis_ref ((TtvAnalysis *) a) : NULL;
}

TtvViewerCpuUsage *
ttv_viewer_cpu_usage_ref (TtvViewerCpuUsage *usage)
{
  return (TtvViewerCpuUsage *) ttv_analysis_ref ((TtvAnalysis *) usage);
}

void
ttv_viewer_cpu_usage_unref (TtvViewerCpuUsage *usage)
{
  if (usage)
    ttv_analysis_unref ((TtvAnalysis *) usage);
}

GArray *
ttv_viewer_cpu_usage_dup_cpus (TtvViewerCpuUsage *usage)
{
  g_autoptr (GArray) cpus = ttv_cpu_usage_list_cpus (CPU_USAGE (usage));
  GArray *out = g_array_sized_new (FALSE, FALSE, sizeof (gint), cpus->len);
  for (guint i = 0; i < cpus->len; i++)
    {
      gint cpu = (gint) g_array_index (cpus, guint32, i);
      g_array_append_val (out, cpu);
    }
  return out;
}

gboolean
ttv_viewer_cpu_usage_get_busy (TtvViewerCpuUsage *usage, gint cpu, const TtvTime *edges, guint n_edges,
                               TtvTime *busy, GError **error)
{
  return ttv_cpu_usage_get_busy_bins (CPU_USAGE (usage), cpu, edges, n_edges, busy, error);
}

guint
ttv_viewer_cpu_usage_get_n_machines (TtvViewerCpuUsage *usage)
{
  return ttv_analysis_get_n_machines (CPU_USAGE (usage));
}

const char *
ttv_viewer_cpu_usage_get_machine_name (TtvViewerCpuUsage *usage, guint machine)
{
  return ttv_analysis_get_machine_name (CPU_USAGE (usage), machine);
}

gboolean
ttv_viewer_cpu_usage_get_thread_time (TtvViewerCpuUsage *usage, guint machine, guint32 tid, const TtvTime *edges,
                                      guint n_edges, TtvTime *cpu_time, GError **error)
{
  const TtvAnalysisTable *t = ttv_analysis_find_table (CPU_USAGE (usage), "slices");
  for (guint i = 0; i + 1 < n_edges; i++)
    cpu_time[i] = 0;
  return ttv_analysis_table_sum_series_bins (t, 1, ttv_thread_key (machine, tid), edges, n_edges, cpu_time, error);
}

GArray *
ttv_viewer_cpu_usage_dup_threads (TtvViewerCpuUsage *usage, TtvTime t0, TtvTime t1, GError **error)
{
  return ttv_cpu_usage_top_threads (CPU_USAGE (usage), t0, t1, error);
}

/* --- Why a thread was not running ----------------------------------------------------------- */

gboolean
ttv_tab_state_get_blocked_at (TtvTabState *state, guint machine, guint32 tid, TtvTime time, TtvViewerBlocked *out)
{
  const TtvAnalysis *a = result_of (state, TTV_VIEWER_KERNEL_SCHED);
  const TtvAnalysisTable *t = a ? ttv_analysis_find_table (a, "blocked") : NULL;
  if (t == NULL)
    return FALSE;
  g_autoptr (GArray) found = ttv_analysis_table_query_series (t, 0, ttv_thread_key (machine, tid), time, time, NULL);
  for (guint i = 0; found && i < found->len; i++)
    {
      const TtvBlockedRecord *b = &g_array_index (found, TtvBlockedRecord, i);
      /* [start, end): at its end the thread runs again. */
      if (time < b->start || time >= b->end)
        continue;
      const char *syscall = ttv_analysis_get_string (a, b->syscall);
      const char *waker = ttv_analysis_get_string (a, b->waker_name);
      *out = (TtvViewerBlocked) {
        .start = b->start, .end = b->end, .woken = b->woken, .tid = b->tid, .cpu = b->cpu,
        .syscall = syscall ? syscall : "", .state = (TtvViewerBlockedState) b->state,
        .waker_kind = (TtvViewerWakerKind) b->waker_kind, .waker_tid = b->waker_tid, .waker_id = b->waker_id,
        .waker_name = waker ? waker : "", .waker_cpu = b->waker_cpu, .unfinished = b->unfinished != 0,
      };
      return TRUE;
    }
  return FALSE;
}

/* --- The critical path ------------------------------------------------------------------------ */

G_STATIC_ASSERT (sizeof (TtvViewerPathSegment) == sizeof (TtvPathSegment));
G_STATIC_ASSERT (G_STRUCT_OFFSET (TtvViewerPathSegment, irq) == G_STRUCT_OFFSET (TtvPathSegment, irq));
G_STATIC_ASSERT (G_STRUCT_OFFSET (TtvViewerPathSegment, syscall) == G_STRUCT_OFFSET (TtvPathSegment, syscall));

GArray *
ttv_tab_state_dup_critical_path (TtvTabState *state, guint machine, guint32 tid, TtvTime t0, TtvTime t1,
                                 GError **error)
{
  const TtvAnalysis *sched = result_of (state, TTV_VIEWER_KERNEL_SCHED);
  if (sched == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_PENDING, _("The scheduling analysis has not run yet"));
      return NULL;
    }
  /* Only where the machine was traced: after its traces end (a later
   * capture of another machine in the window), its threads are not
   * preempted, they are unknown. */
  TtvTime m0, m1;
  if (ttv_traceset_get_machine_span (ttv_tab_state_get_traceset (state), machine, &m0, &m1))
    {
      t0 = MAX (t0, m0);
      t1 = MIN (t1, m1);
    }
  /* The segments' strings are the results', which the tab keeps. */
  return ttv_critical_path_compute (sched, result_of (state, TTV_VIEWER_KERNEL_CPU), machine, tid, t0, t1, error);
}
