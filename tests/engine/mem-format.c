/* mem-format.c: the in-memory test format (see mem-format.h).  Its cursor
 * seeks like a real reader: binary search over blocks, then a scan of one block. */
#include "mem-format.h"
#include "ttv-error.h"

typedef struct {
  TtvTime *times;
  guint16 *types;
  guint n;
  guint k;                      /* events per block */
  guint n_blocks;
  gint64 corrupt_at;
} MemFile;

typedef struct {
  TtvCursor parent;
  MemFile *f;
  const TtvEventType **types;   /* the trace's, by id */
  guint i;                      /* next event */
  guint block;                  /* i / k */
  guint index;                  /* i % k */
} MemCursor;

static guint
mem_probe (const char *path)
{
  return 0;
}

static gboolean
mem_open (TtvTrace *trace, GError **error)
{
  g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_UNSUPPORTED, "mem traces are built in memory");
  return FALSE;
}

static void
mem_close (TtvTrace *trace)
{
  for (guint i = 0; i < trace->tracefiles->len; i++)
    {
      TtvTracefile *tf = g_ptr_array_index (trace->tracefiles, i);
      MemFile *f = tf->priv;
      g_free (f->times);
      g_free (f->types);
      g_free (f);
    }
}

static TtvCursor *
mem_cursor_new (TtvTracefile *tf, GError **error)
{
  MemCursor *c = g_new0 (MemCursor, 1);
  c->f = tf->priv;
  c->types = (const TtvEventType **) tf->trace->event_types->pdata;
  return &c->parent;
}

static void
mem_cursor_free (TtvCursor *c)
{
  g_free (c);
}

static void
set_index (MemCursor *c, guint i)
{
  c->i = i;
  c->block = i / c->f->k;
  c->index = i % c->f->k;
}

static gboolean
mem_cursor_next (TtvCursor *cursor, TtvEvent *ev, GError **error)
{
  MemCursor *c = (MemCursor *) cursor;
  const MemFile *f = c->f;
  guint i = c->i;
  if (G_UNLIKELY (i >= f->n))
    return FALSE;
  if (G_UNLIKELY ((gint64) i == f->corrupt_at))
    {
      g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_CORRUPT,
                   "block %u, offset %u: event header contradicts the block size",
                   c->block, c->index * MEM_EVENT_SIZE);
      return FALSE;
    }
  ev->time = f->times[i];
  ev->cycles = (guint64) f->times[i];
  ev->type = c->types[f->types[i]];
  ev->tracefile = cursor->tracefile;
  ev->pos.block = c->block;
  ev->pos.offset = (guint64) c->index * MEM_EVENT_SIZE;
  ev->pos.index = c->index;
  ev->data = NULL;
  ev->data_bits = 0;
  ev->payload_bit = 0;
  ev->priv = NULL;
  c->i = i + 1;
  if (++c->index == f->k)
    {
      c->index = 0;
      c->block++;
    }
  return TRUE;
}

static gboolean
mem_cursor_seek_time (TtvCursor *cursor, TtvTime t, GError **error)
{
  MemCursor *c = (MemCursor *) cursor;
  const MemFile *f = c->f;
  /* The last block whose first event is before t holds the first event at
   * or after t, or it is the next block's first. */
  guint lo = 0, hi = f->n_blocks;      /* blocks [0, lo) start before t */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (f->times[(gsize) mid * f->k] < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == 0)
    {
      set_index (c, 0);
      return TRUE;
    }
  guint i = (lo - 1) * f->k;
  guint stop = MIN (f->n, lo * f->k);
  while (i < stop && f->times[i] < t)
    i++;
  set_index (c, i);
  return TRUE;
}

static gboolean
mem_cursor_seek_position (TtvCursor *cursor, const TtvTracefilePosition *pos, GError **error)
{
  MemCursor *c = (MemCursor *) cursor;
  const MemFile *f = c->f;
  if (pos->block >= f->n_blocks || pos->index >= f->k
      || pos->offset != pos->index * MEM_EVENT_SIZE
      || pos->block * f->k + pos->index >= f->n)
    {
      g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_INVALID,
                   "no event at block %" G_GUINT64_FORMAT ", offset %" G_GUINT64_FORMAT,
                   pos->block, pos->offset);
      return FALSE;
    }
  set_index (c, (guint) (pos->block * f->k + pos->index));
  return TRUE;
}

static gint32
mem_decode_fields (const TtvEvent *event, TtvDecoder *decoder, GError **error)
{
  g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_UNSUPPORTED, "mem events have no fields");
  return -1;
}

const TtvFormatClass mem_format = {
  .name = "mem",
  .description = "in-memory test traces",
  .probe = mem_probe,
  .open = mem_open,
  .close = mem_close,
  .cursor_new = mem_cursor_new,
  .cursor_free = mem_cursor_free,
  .cursor_next = mem_cursor_next,
  .cursor_seek_time = mem_cursor_seek_time,
  .cursor_seek_position = mem_cursor_seek_position,
  .decode_fields = mem_decode_fields,
};

TtvTrace *
mem_trace_new (const char *name, guint n_types)
{
  /* As ttv-trace.c's trace_new() does, by hand: no directory to open. */
  TtvTrace *t = g_new0 (TtvTrace, 1);
  t->format = &mem_format;
  t->path = g_strdup (name);
  t->display_path = g_strdup (name);
  t->name = g_strdup (name);
  t->tracefiles = g_ptr_array_new ();
  t->event_types = g_ptr_array_new ();
  t->info_keys = g_ptr_array_new_with_free_func (g_free);
  t->info = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  t->warnings = g_ptr_array_new_with_free_func (g_free);
  t->start = TTV_TIME_MAX;
  t->end = TTV_TIME_MIN;
  for (guint i = 0; i < n_types; i++)
    {
      g_autofree char *ev = g_strdup_printf ("ev%u", i);
      ttv_trace_add_event_type (t, "mem", ev, NULL);
    }
  return t;
}

TtvTracefile *
mem_trace_add_tracefile (TtvTrace *trace, const char *name, const TtvTime *times,
                         const guint *types, guint n, guint block_size)
{
  g_assert (block_size > 0);
  TtvTracefile *tf = ttv_trace_add_tracefile (trace, name, -1);
  MemFile *f = g_new0 (MemFile, 1);
  f->times = g_memdup2 (times, (gsize) n * sizeof (TtvTime));
  f->types = g_new (guint16, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      g_assert (types[i] < trace->event_types->len);
      g_assert (i == 0 || times[i] >= times[i - 1]);
      f->types[i] = (guint16) types[i];
    }
  f->n = n;
  f->k = block_size;
  f->n_blocks = (n + block_size - 1) / block_size;
  f->corrupt_at = -1;
  tf->priv = f;
  tf->n_blocks = f->n_blocks;
  tf->size = (guint64) n * MEM_EVENT_SIZE;
  if (n > 0)
    {
      tf->start = times[0];
      tf->end = times[n - 1];
    }
  return tf;
}

void
mem_tracefile_set_corrupt (TtvTracefile *tf, gint64 index)
{
  ((MemFile *) tf->priv)->corrupt_at = index;
}

void
mem_trace_finish (TtvTrace *trace)
{
  for (guint i = 0; i < trace->tracefiles->len; i++)
    {
      const TtvTracefile *tf = g_ptr_array_index (trace->tracefiles, i);
      if (tf->start < trace->start)
        trace->start = tf->start;
      if (tf->end > trace->end)
        trace->end = tf->end;
    }
}
