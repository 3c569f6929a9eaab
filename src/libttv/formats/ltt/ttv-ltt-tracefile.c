/* ttv-ltt-tracefile.c: one LTT tracefile (cpu/N or control/X) read through
 * windows, and its block index read from each block's start and end events. */
#include "ttv-ltt-private.h"
#include "ttv-decoder.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>

TtvTime
ttv_ltt_time_from_cycles (TtvTime anchor_time, guint64 anchor_cycles, guint64 cycles, guint64 freq)
{
  /* Unsigned arithmetic: hostile cycle counts wrap instead of overflowing. */
  if (cycles >= anchor_cycles)
    return (TtvTime) ((guint64) anchor_time + (guint64) ttv_time_cycles_to_ns (cycles - anchor_cycles, freq));
  return (TtvTime) ((guint64) anchor_time - (guint64) ttv_time_cycles_to_ns (anchor_cycles - cycles, freq));
}

void
ttv_ltt_file_free (TtvLttFile *f)
{
  if (f == NULL)
    return;
  ttv_windowed_file_free (f->file);
  if (f->blocks)
    g_array_unref (f->blocks);
  for (guint64 i = 0; i < f->n_fine; i++)
    g_free (f->fine[i]);
  g_free (f->fine);
  g_free (f->path);
  g_free (f);
}

static gboolean
corrupt (GError **error, const TtvLttFile *f, guint64 offset, const char *what)
{
  g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_CORRUPT,
               _("%s: byte offset %" PRIu64 ": %s"), f->path, offset, what);
  return FALSE;
}

/* Reads one block_timestamp payload, at @payload. */
static void
read_timestamp (const TtvLttFile *f, const guint8 *payload, TtvTime *time, guint64 *cycles, guint32 *block_id)
{
  guint64 sec = ttv_read_bits (payload, 0, 32, f->order);
  guint64 nsec = ttv_read_bits (payload, 32, 32, f->order);
  *time = (TtvTime) (sec * 1000000000u + nsec);
  *cycles = ttv_read_bits (payload, 64, 64, f->order);
  if (block_id)
    *block_id = (guint32) ttv_read_bits (payload, 128, 32, f->order);
}

/* Blocks from this size on are indexed by the pages of their two ends
 * rather than through windows, which copy every event too: the index then
 * costs a few pages a block, not the whole trace read at open.  Four
 * times the usual bound: two system calls a block, most of the time, and
 * the window's copy was a whole block. */
#define SPARSE_BLOCK_BYTES (4 * TTV_FILE_WINDOW_SPARSE_BYTES)

/* Reads block @slot's start and end: the offset of its block_end event
 * (the block's last 4 bytes), that event, then its block_start.  The
 * checks in that order, whatever order the bytes are read in (the end's
 * pages first: the last 4 bytes and block_end are usually in the same
 * page). */
static gboolean
index_block (TtvLttFile *f, TtvFileWindow *w, guint64 slot, TtvLttBlock *blk, GError **error)
{
  guint32 bs = f->block_size;
  guint64 at = slot * bs;
  gboolean sparse = bs >= SPARSE_BLOCK_BYTES;
  const guint8 *b = ttv_file_window_get_in_block (w, at, bs, bs - 4, 4, sparse, error);
  if (b == NULL)
    return FALSE;
  guint64 end = ttv_read_bits (b, 0, 32, f->order);
  if (end < TTV_LTT_FIRST_EVENT || ttv_ltt_ts_payload (end) + TTV_LTT_BLOCK_TS_SIZE > bs - 4)
    {
      g_autofree char *what = g_strdup_printf (_("last-event offset %" PRIu64
                                                 " of block %" PRIu64
                                                 " lies outside the block (size %u)"),
                                               end, slot, bs);
      return corrupt (error, f, at + bs - 4, what);
    }
  guint64 end_payload = ttv_ltt_ts_payload (end);
  b = ttv_file_window_get_in_block (w, at, bs, end, end_payload + TTV_LTT_BLOCK_TS_SIZE - end, sparse, error);
  if (b == NULL)
    return FALSE;
  guint64 end_id = ttv_read_bits (b, 0, 16, f->order);
  TtvTime end_stamp;
  read_timestamp (f, b + (end_payload - end), &end_stamp, &blk->end_cycles, NULL);
  if ((b = ttv_file_window_get_in_block (w, at, bs, 0, TTV_LTT_FIRST_EVENT, sparse, error)) == NULL)
    return FALSE;
  guint64 id = ttv_read_bits (b, 0, 16, f->order);
  if (id != TTV_LTT_CODE_BLOCK_START)
    {
      g_autofree char *what = g_strdup_printf (_("block %" PRIu64 " starts with event id %"
                                                 PRIu64 ", not block_start"), slot, id);
      return corrupt (error, f, at, what);
    }
  if (end_id != TTV_LTT_CODE_BLOCK_END)
    {
      g_autofree char *what = g_strdup_printf (_("wrong last-event offset %" PRIu64
                                                 " in block %" PRIu64
                                                 ": event id %" PRIu64
                                                 " there is not block_end"), end, slot, end_id);
      return corrupt (error, f, at + end, what);
    }
  blk->slot = slot;
  blk->end_offset = (guint32) end;
  read_timestamp (f, b + ttv_ltt_ts_payload (0), &blk->start, &blk->start_cycles, &blk->block_id);
  /* Event times derive from the block_start anchor; so does the end. */
  blk->end = ttv_ltt_time_from_cycles (blk->start, blk->start_cycles, blk->end_cycles, f->freq);
  return TRUE;
}

static int
compare_blocks (gconstpointer pa, gconstpointer pb)
{
  const TtvLttBlock *a = pa, *b = pb;
  if (a->start != b->start)
    return a->start < b->start ? -1 : 1;
  if (a->block_id != b->block_id)
    return a->block_id < b->block_id ? -1 : 1;
  return a->slot < b->slot ? -1 : a->slot > b->slot;
}

TtvLttFile *
ttv_ltt_file_open (const char *path, const TtvLttSystem *sys, TtvTrace *trace, GError **error)
{
  g_autoptr (GError) local = NULL;
  TtvLttFile *f = g_new0 (TtvLttFile, 1);
  f->path = g_strdup (path);
  f->block_size = sys->block_size;
  f->order = sys->byte_order;
  f->freq = sys->freq;
  f->blocks = g_array_new (FALSE, FALSE, sizeof (TtvLttBlock));

  /* A FIFO or a device in a tracefile's place is refused, not waited on. */
  f->file = ttv_windowed_file_open (path, &local);
  if (f->file == NULL)
    {
      g_set_error (error, TTV_FORMAT_ERROR,
                   g_error_matches (local, G_FILE_ERROR, G_FILE_ERROR_NOENT)
                     ? TTV_FORMAT_ERROR_MISSING : TTV_FORMAT_ERROR_IO,
                   "%s", local->message);
      ttv_ltt_file_free (f);
      return NULL;
    }
  f->size = ttv_windowed_file_get_size (f->file);
  guint64 n = f->size / f->block_size;
  guint64 rest = f->size % f->block_size;
  if (rest && trace)
    ttv_trace_add_tail_damage_warning (trace, _("%s: truncated: the last %" PRIu64
                                                " bytes (from byte offset %" PRIu64
                                                ") are not a whole block of %u bytes and were ignored"),
                                       path, rest, n * f->block_size, f->block_size);
  g_array_set_size (f->blocks, n);
  f->min_block_id = G_MAXUINT32;
  /* Only the first and last events of each block are read (index_block),
   * through one window that moves along the file (freed at the end). */
  g_auto (TtvFileWindow) w = TTV_FILE_WINDOW_INIT (f->file);
  for (guint64 s = 0; s < n; s++)
    {
      TtvLttBlock *blk = &g_array_index (f->blocks, TtvLttBlock, s);
      if (!index_block (f, &w, s, blk, error))
        {
          ttv_ltt_file_free (f);
          return NULL;
        }
      f->min_block_id = MIN (f->min_block_id, blk->block_id);
    }
  g_array_sort (f->blocks, compare_blocks);
  f->n_fine = n;
  f->fine = g_new0 (gpointer, n);
  return f;
}

/* The block of @f that starts last at or before @cycles (its first block
 * when all start after): NULL when @f has no block. */
static const TtvLttBlock *
anchor_block (const TtvLttFile *f, guint64 cycles)
{
  guint64 lo = 0, hi = f->blocks->len;

  if (hi == 0)
    return NULL;
  /* Blocks are in time order, so in cycle order too. */
  while (hi - lo > 1)
    {
      guint64 mid = lo + (hi - lo) / 2;
      if (g_array_index (f->blocks, TtvLttBlock, mid).start_cycles <= cycles)
        lo = mid;
      else
        hi = mid;
    }
  return &g_array_index (f->blocks, TtvLttBlock, lo);
}

gboolean
ttv_ltt_cycles_to_time (const TtvTrace *trace, guint64 cycles, TtvTime *time)
{
  const TtvLttBlock *best = NULL;
  const TtvLttFile *best_file = NULL;

  /* The CPUs' counters are one clock (seed 000): the anchor nearest below
   * @cycles, in whichever tracefile, gives the time an event with those
   * cycles would have there. */
  for (guint i = 0; i < trace->tracefiles->len; i++)
    {
      const TtvLttFile *f = ((const TtvTracefile *) trace->tracefiles->pdata[i])->priv;
      const TtvLttBlock *b = f ? anchor_block (f, cycles) : NULL;
      if (!b)
        continue;
      if (!best || (b->start_cycles <= cycles
                    ? best->start_cycles > cycles || b->start_cycles > best->start_cycles
                    : best->start_cycles > cycles && b->start_cycles < best->start_cycles))
        {
          best = b;
          best_file = f;
        }
    }
  if (!best)
    return FALSE;
  *time = ttv_ltt_time_from_cycles (best->start, best->start_cycles, cycles, best_file->freq);
  return TRUE;
}

void
ttv_ltt_tracefile_fill (TtvTracefile *tf, TtvLttFile *f)
{
  tf->priv = f;
  tf->size = f->size;
  tf->n_blocks = f->blocks->len;
  tf->start = TTV_TIME_MAX;
  tf->end = TTV_TIME_MIN;
  for (guint b = 0; b < f->blocks->len; b++)
    {
      const TtvLttBlock *blk = &g_array_index (f->blocks, TtvLttBlock, b);
      tf->start = MIN (tf->start, blk->start);
      tf->end = MAX (tf->end, blk->end);
    }
}
