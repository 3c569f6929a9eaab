/* ttv-block-analysis.c: the "block" analysis: every block request from
 * its issue to the device to its completion (matched by machine, device
 * and sector), who issued it and from which file where the trace says;
 * and bytes per disk and per process of each machine.  See
 * ttv-kernel-analyses.h. */
#include "ttv-kernel-context.h"

#include <glib/gi18n-lib.h>

#include <string.h>

G_STATIC_ASSERT (sizeof (TtvBlockRecord) == 80);

static const char *const directions[] = { "read", "write", NULL };

static const TtvAnalysisColumn request_columns[] = {
  { "start", N_("Issued"), TTV_COLUMN_TIME, G_STRUCT_OFFSET (TtvBlockRecord, start), NULL },
  { "end", N_("Completed"), TTV_COLUMN_TIME, G_STRUCT_OFFSET (TtvBlockRecord, end), NULL },
  { "duration", N_("Latency"), TTV_COLUMN_DURATION, -1, NULL },
  { TTV_ANALYSIS_MACHINE_COLUMN, N_("Machine"), TTV_COLUMN_STRING, G_STRUCT_OFFSET (TtvBlockRecord, machine), NULL },
  { "device", N_("Device"), TTV_COLUMN_STRING, G_STRUCT_OFFSET (TtvBlockRecord, device), NULL },
  { "rw", N_("Direction"), TTV_COLUMN_ENUM, G_STRUCT_OFFSET (TtvBlockRecord, write), directions },
  { "sector", N_("Sector"), TTV_COLUMN_INT, G_STRUCT_OFFSET (TtvBlockRecord, sector), NULL },
  { "bytes", N_("Bytes"), TTV_COLUMN_INT, G_STRUCT_OFFSET (TtvBlockRecord, bytes), NULL },
  { "tid", N_("TID"), TTV_COLUMN_TID, G_STRUCT_OFFSET (TtvBlockRecord, tid), NULL },
  { "tgid", N_("PID"), TTV_COLUMN_TID, G_STRUCT_OFFSET (TtvBlockRecord, tgid), NULL },
  { "name", N_("Name"), TTV_COLUMN_STRING, G_STRUCT_OFFSET (TtvBlockRecord, name), NULL },
  { "file", N_("File"), TTV_COLUMN_STRING, G_STRUCT_OFFSET (TtvBlockRecord, file), NULL },
  { "cpu", N_("CPU"), TTV_COLUMN_CPU, G_STRUCT_OFFSET (TtvBlockRecord, cpu), NULL },
};

static const TtvAnalysisTableSpec requests_spec = {
  "requests", sizeof (TtvBlockRecord), request_columns, G_N_ELEMENTS (request_columns),
  { G_STRUCT_OFFSET (TtvBlockRecord, key), -1 },
  G_STRUCT_OFFSET (TtvBlockRecord, device), FALSE, TRUE,
};

static const TtvAnalysisTableSpec *const tables[] = { &requests_spec };

typedef struct {
  TtvAnalysisBuilder *b;
  TtvTableBuilder *requests;
  TtvFdTracker *fds;
  GHashTable *pending;          /* Key -> GQueue of TtvBlockRecord *, owned */
  GArray *machine_names;        /* per machine: guint32 string of its name (none with one machine) */
} Block;

/* A request in flight: two machines' disks of the same number are two disks. */
typedef struct {
  guint32 machine;
  guint32 dev;
  guint64 sector;
} Key;

static guint
key_hash (gconstpointer p)
{
  const Key *k = p;
  return g_int64_hash (&k->sector) ^ (k->dev * 2654435761u) ^ (k->machine * 40503u);
}

static gboolean
key_equal (gconstpointer a, gconstpointer b)
{
  const Key *x = a, *y = b;
  return x->machine == y->machine && x->dev == y->dev && x->sector == y->sector;
}

static void
queue_free (GQueue *q)
{
  g_queue_free_full (q, g_free);
}

static gpointer
block_attach (TtvAnalysisPass *pass, const TtvAnalysisOptions *options, GError **error)
{
  TtvAnalysisBuilder *b = ttv_analysis_pass_get_builder (pass);
  Block *k = g_new0 (Block, 1);
  k->b = b;
  k->requests = ttv_analysis_builder_get_table (b, 0);
  k->fds = ttv_fd_tracker_new (FALSE);
  k->pending = g_hash_table_new_full (key_hash, key_equal, g_free, (GDestroyNotify) queue_free);
  k->machine_names = ttv_kernel_machine_names (b);
  return k;
}

static void
block_free (gpointer data)
{
  Block *k = data;
  ttv_fd_tracker_free (k->fds);
  g_hash_table_unref (k->pending);
  g_array_unref (k->machine_names);
  g_free (k);
}

static void
block_before_event (gpointer data, const TtvAnalysisEvent *ev)
{
  Block *k = data;
  ttv_fd_tracker_before_event (k->fds, ev);
  if (ev->action != TTV_KM_BLOCK_ISSUE && ev->action != TTV_KM_BLOCK_COMPLETE && ev->action != TTV_KM_BLOCK_REQUEUE)
    return;
  gint64 dev, sector, nr;
  if (!ttv_kernel_model_get_int (ev->model, ev->trace, ev->event, TTV_KM_BLOCK_DEV, &dev)
      || !ttv_kernel_model_get_int (ev->model, ev->trace, ev->event, TTV_KM_BLOCK_SECTOR, &sector)
      || !ttv_kernel_model_get_int (ev->model, ev->trace, ev->event, TTV_KM_BLOCK_NR_SECTOR, &nr) || dev == 0)
    return;
  guint machine = MIN (ttv_state_get_machine (ev->state), TTV_ANALYSIS_MAX_MACHINES - 1);
  Key key = { machine, (guint32) dev, (guint64) sector };
  GQueue *q = g_hash_table_lookup (k->pending, &key);
  if (ev->action == TTV_KM_BLOCK_ISSUE)
    {
      gint cpu = ev->event->tracefile->cpu;
      const TtvProcessState *p = ttv_state_get_running (ev->state, cpu);
      TtvBlockRecord *r = g_new0 (TtvBlockRecord, 1);
      r->start = ev->event->time;
      r->sector = (guint64) sector;
      r->nr_sector = (guint32) nr;
      r->bytes = (guint64) nr * 512;
      r->dev = (guint32) dev;
      gint64 rw;
      r->write = ttv_kernel_model_get_int (ev->model, ev->trace, ev->event, TTV_KM_BLOCK_RW, &rw) && (rw & 1);
      r->cpu = cpu;
      r->tid = p ? p->pid : TTV_PID_NONE;
      r->key = ttv_thread_key (machine, r->tid);
      r->machine = ttv_kernel_machine_name (k->machine_names, machine);
      r->name = p ? ttv_kernel_thread_name (k->b, ev->state, p->pid, &r->tgid) : TTV_ANALYSIS_NO_STRING;
      if (p == NULL)
        {
          /* The event's own comm names the issuer when the state does not. */
          g_autofree char *comm = ttv_kernel_model_dup_string (ev->model, ev->trace, ev->event, TTV_KM_BLOCK_COMM);
          r->name = ttv_analysis_builder_intern (k->b, comm);
          r->tgid = TTV_PID_NONE;
        }
      r->file = p ? ttv_fd_tracker_get_file_string (k->fds, ttv_thread_key (machine, p->pid), k->b)
                  : TTV_ANALYSIS_NO_STRING;
      char device[32];
      g_snprintf (device, sizeof device, "%u:%u", r->dev >> 20, r->dev & 0xfffff);
      r->device = ttv_analysis_builder_intern (k->b, device);
      if (q == NULL)
        {
          q = g_queue_new ();
          g_hash_table_insert (k->pending, g_memdup2 (&key, sizeof key), q);
        }
      g_queue_push_tail (q, r);
      return;
    }
  /* Completed (or back in the queue): the oldest request for that sector. */
  g_autofree TtvBlockRecord *r = q ? g_queue_pop_head (q) : NULL;
  if (q && g_queue_is_empty (q))
    g_hash_table_remove (k->pending, &key);
  if (r == NULL || ev->action == TTV_KM_BLOCK_REQUEUE)
    return;
  r->end = ev->event->time;
  ttv_table_builder_push (k->requests, r);
}

const TtvAnalysisClass ttv_block_analysis = {
  .name = "block",
  .title = N_("Block I/O"),
  .description = N_("Block request latency from issue to completion, and throughput per disk and process"),
  .formats = TTV_ANALYSIS_FORMAT_BIT (TTV_ANALYSIS_FORMAT_TEXT) | TTV_ANALYSIS_FORMAT_BIT (TTV_ANALYSIS_FORMAT_JSONL)
             | TTV_ANALYSIS_FORMAT_BIT (TTV_ANALYSIS_FORMAT_CSV),
  .needs_state = TRUE,
  .attach = block_attach,
  .free = block_free,
  .tables = tables,
  .n_tables = G_N_ELEMENTS (tables),
  .version = 2,
  .before_event = block_before_event,
};

/* ---- throughput ---- */

typedef struct {
  GHashTable *by_key;           /* machine << 32 | key -> TtvBlockUsage * */
  GHashTable *machines;         /* a record's machine (string) -> its machine number + 1 */
  gboolean by_process;
  const TtvAnalysis *result;
  TtvTime t0, t1;
} UsageScan;

/* The machine of a record's machine column (found by name once). */
static guint
record_machine (UsageScan *u, guint32 name)
{
  gpointer found = g_hash_table_lookup (u->machines, GUINT_TO_POINTER (name));
  if (found == NULL)
    {
      guint m = ttv_analysis_find_machine (u->result, ttv_analysis_get_string (u->result, name));
      found = GUINT_TO_POINTER (m + 1);
      g_hash_table_insert (u->machines, GUINT_TO_POINTER (name), found);
    }
  return GPOINTER_TO_UINT (found) - 1;
}

static gboolean
usage_record (const void *record, gpointer data)
{
  UsageScan *u = data;
  const TtvBlockRecord *r = record;
  /* A request counts where it completed. */
  if (r->end < u->t0 || r->end > u->t1)
    return TRUE;
  guint32 key = u->by_process ? r->tgid : r->dev;
  guint machine = record_machine (u, r->machine);
  guint64 both = (guint64) machine << 32 | key;
  TtvBlockUsage *use = g_hash_table_lookup (u->by_key, &both);
  if (use == NULL)
    {
      use = g_new0 (TtvBlockUsage, 1);
      use->key = key;
      use->machine = machine;
      use->name = ttv_analysis_get_string (u->result, u->by_process ? r->name : r->device);
      g_hash_table_insert (u->by_key, g_memdup2 (&both, sizeof both), use);
    }
  use->requests++;
  if (r->write)
    use->write_bytes += r->bytes;
  else
    use->read_bytes += r->bytes;
  /* Records read back from a damaged cache may be 2^63 ns long. */
  use->busy = ttv_time_add_saturating (use->busy, ttv_time_span_saturating (r->start, r->end));
  return TRUE;
}

/* Most bytes first; a total order, so that each machine's rows keep the
 * order they have on its trace alone. */
static gint
compare_bytes (gconstpointer a, gconstpointer b)
{
  const TtvBlockUsage *x = a, *y = b;
  guint64 bx = x->read_bytes + x->write_bytes, by = y->read_bytes + y->write_bytes;
  if (bx != by)
    return bx > by ? -1 : 1;
  if (x->key != y->key)
    return x->key < y->key ? -1 : 1;
  return x->machine < y->machine ? -1 : x->machine > y->machine;
}

/* Seconds of [t0, t1] within [start, end] (at least a nanosecond). */
static double
seconds_within (TtvTime t0, TtvTime t1, TtvTime start, TtvTime end)
{
  t0 = MAX (t0, start);
  t1 = MAX (MIN (t1, end), t0);
  return (double) MAX (ttv_time_span_ns (t0, t1), 1) / 1e9;
}

GArray *
ttv_block_usage (const TtvAnalysis *r, gboolean by_process, TtvTime t0, TtvTime t1, GError **error)
{
  g_return_val_if_fail (ttv_analysis_get_class (r) == &ttv_block_analysis, NULL);
  TtvTime s, e;
  ttv_analysis_get_time_range (r, &s, &e);
  TtvTime w0 = MAX (t0, s), w1 = MAX (MIN (t1, e), w0);
  UsageScan u = { g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free),
                  g_hash_table_new (g_direct_hash, g_direct_equal), by_process, r, w0, w1 };
  GArray *out = NULL;
  if (ttv_analysis_table_foreach (ttv_analysis_get_table (r, 0), TTV_QUERY_OVERLAP, w0, w1, usage_record,
                                  &u, error))
    {
      out = g_array_new (FALSE, TRUE, sizeof (TtvBlockUsage));
      GHashTableIter it;
      gpointer v;
      g_hash_table_iter_init (&it, u.by_key);
      while (g_hash_table_iter_next (&it, NULL, &v))
        {
          TtvBlockUsage *use = v;
          /* A machine's rates are over the time its traces cover: a
           * capture beside it, longer or years apart, does not dilute
           * them. */
          TtvTime ms, me;
          ttv_analysis_get_machine_span (r, use->machine, &ms, &me);
          double seconds = seconds_within (t0, t1, ms, me);
          use->read_rate = (double) use->read_bytes / seconds;
          use->write_rate = (double) use->write_bytes / seconds;
          g_array_append_vals (out, use, 1);
        }
      g_array_sort (out, compare_bytes);
    }
  g_hash_table_unref (u.by_key);
  g_hash_table_unref (u.machines);
  return out;
}
