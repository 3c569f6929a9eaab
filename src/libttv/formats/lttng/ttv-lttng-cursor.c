/* ttv-lttng-cursor.c: reading the events of one LTTng 0.x cpu file, seeking
 * by time (binary search over the block index, then a scan of one block) and by position. */
#include "ttv-lttng-private.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>

typedef struct {
  guint64 block;             /* index in file->blocks */
  guint32 pos;               /* next byte to read in the block; 0: block not started */
  guint64 cycles;            /* full cycle count of the previous event */
  guint64 index;             /* events delivered from this block */
} CursorState;

typedef struct {
  TtvCursor parent;
  const TtvLttngFile *file;  /* weak */
  const TtvLttngTrace *trace; /* weak */
  CursorState s;
  TtvFileWindow window;      /* owned: holds the current block */
} LttngCursor;

TtvCursor *
ttv_lttng_cursor_new (TtvTracefile *tf, GError **error)
{
  LttngCursor *c = g_new0 (LttngCursor, 1);
  c->parent.tracefile = tf;
  c->file = tf->priv;
  c->trace = tf->trace->priv;
  c->window = (TtvFileWindow) TTV_FILE_WINDOW_INIT (c->file->file);
  return &c->parent;
}

void
ttv_lttng_cursor_free (TtvCursor *cursor)
{
  LttngCursor *c = (LttngCursor *) cursor;
  ttv_file_window_clear (&c->window);
  g_free (c);
}

/* Reads the next event of the file into @ev; *got is FALSE at the end. */
static gboolean
read_next (LttngCursor *c, TtvEvent *ev, gboolean *got, GError **error)
{
  const TtvLttngFile *f = c->file;
  CursorState *s = &c->s;
  *got = FALSE;
  while (s->block < f->blocks->len)
    {
      const TtvLttngBlock *b = &g_array_index (f->blocks, TtvLttngBlock, s->block);
      const guint8 *data = ttv_file_window_get (&c->window, b->file_offset, f->layout.buf_size, error);
      if (data == NULL)
        return FALSE;
      if (s->pos == 0)
        {
          s->pos = f->layout.first_event;
          s->cycles = b->begin_cc;
          s->index = 0;
        }
      TtvLttngEventHeader eh;
      gint r = ttv_lttng_event_header_read (&f->layout, data, b->data_end, &s->pos, &s->cycles,
                                            &eh, f->path, b->file_offset, error);
      if (r < 0)
        return FALSE;
      if (r == 0)
        {
          s->block++;
          s->pos = 0;
          continue;
        }
      if (eh.facility_id == TTV_LTTNG_CORE_FACILITY)
        {
          /* Heartbeats (and stray core markers) are for the reader only;
           * anything else there is an event whose facility byte was hit. */
          if ((eh.event_id == TTV_LTTNG_CORE_TIME_HEARTBEAT && eh.size == 0)
              || ((eh.event_id == TTV_LTTNG_CORE_MARKER_ID || eh.event_id == TTV_LTTNG_CORE_MARKER_FORMAT)
                  && eh.size > 0))
            continue;
          g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_CORRUPT,
                       _("%s: event at byte offset %" PRIu64 " has facility_id 0 (core) with event_id %u "
                         "and event_size %u, which no core event has"),
                       f->path, b->file_offset + eh.offset, eh.event_id, eh.size);
          return FALSE;
        }
      TtvEventType **table = c->trace->by_id[eh.facility_id];
      const TtvEventType *et = table ? table[eh.event_id] : NULL;
      if (et == NULL)
        {
          g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_CORRUPT,
                       _("%s: event at byte offset %" PRIu64 " has facility_id %u and "
                         "event_id %u, which no marker_id in control/facilities_N describes"),
                       f->path, b->file_offset + eh.offset, eh.facility_id, eh.event_id);
          return FALSE;
        }
      ev->time = ttv_lttng_cycles_to_time (&f->layout, eh.cycles);
      ev->cycles = eh.cycles;
      ev->type = et;
      ev->tracefile = c->parent.tracefile;
      ev->pos.block = s->block;
      ev->pos.offset = eh.offset;
      ev->pos.index = s->index++;
      ev->data = data;
      ev->data_bits = (guint64) eh.next * 8;
      ev->payload_bit = (guint64) eh.payload * 8;
      ev->priv = NULL;
      *got = TRUE;
      return TRUE;
    }
  return TRUE;
}

gboolean
ttv_lttng_cursor_next (TtvCursor *cursor, TtvEvent *event, GError **error)
{
  gboolean got;
  return read_next ((LttngCursor *) cursor, event, &got, error) && got;
}

gboolean
ttv_lttng_cursor_seek_time (TtvCursor *cursor, TtvTime time, GError **error)
{
  LttngCursor *c = (LttngCursor *) cursor;
  const GArray *blocks = c->file->blocks;
  /* First block that ends at or after @time: every earlier block holds only
   * earlier events, since a block's end cycle count bounds its events. */
  guint64 lo = 0, hi = blocks->len;
  while (lo < hi)
    {
      guint64 mid = lo + (hi - lo) / 2;
      if (g_array_index (blocks, TtvLttngBlock, mid).end_time < time)
        lo = mid + 1;
      else
        hi = mid;
    }
  c->s = (CursorState) { .block = lo };
  while (TRUE)
    {
      CursorState before = c->s;
      TtvEvent ev;
      gboolean got;
      if (!read_next (c, &ev, &got, error))
        return FALSE;
      if (!got || ev.time >= time)
        {
          c->s = before;
          return TRUE;
        }
    }
}

gboolean
ttv_lttng_cycles_to_time_of_trace (const TtvTrace *trace, guint64 cycles, TtvTime *time)
{
  const TtvLttngTrace *lt = trace->priv;

  /* One layout (start time and frequency) for every cpu file. */
  if (lt == NULL || lt->files->len == 0)
    return FALSE;
  *time = ttv_lttng_cycles_to_time (&lt->layout, cycles);
  return TRUE;
}

gboolean
ttv_lttng_cursor_skip_block (TtvCursor *cursor, GError **error)
{
  LttngCursor *c = (LttngCursor *) cursor;

  /* A failed read left the state in the damaged block. */
  c->s = (CursorState) { .block = MIN (c->s.block + 1, c->file->blocks->len) };
  return TRUE;
}

gboolean
ttv_lttng_cursor_seek_position (TtvCursor *cursor, const TtvTracefilePosition *pos, GError **error)
{
  LttngCursor *c = (LttngCursor *) cursor;
  if (pos->block >= c->file->blocks->len)
    {
      c->s = (CursorState) { .block = c->file->blocks->len };
      return TRUE;
    }
  /* With 32-bit timestamps the cycle count is rebuilt from the block's
   * start, so scan the block up to the position. */
  c->s = (CursorState) { .block = pos->block };
  while (TRUE)
    {
      CursorState before = c->s;
      TtvEvent ev;
      gboolean got;
      if (!read_next (c, &ev, &got, error))
        return FALSE;
      if (!got || ev.pos.block != pos->block || ev.pos.offset > pos->offset
          || (ev.pos.offset == pos->offset && ev.pos.index != pos->index))
        {
          g_set_error (error, TTV_ENGINE_ERROR, TTV_ENGINE_ERROR_BAD_POSITION,
                       _("%s: no event at block %" PRIu64 ", offset %" PRIu64
                         ", index %" PRIu64),
                       c->file->path, pos->block, pos->offset, pos->index);
          c->s = before;
          return FALSE;
        }
      if (ev.pos.offset == pos->offset)
        {
          c->s = before;
          return TRUE;
        }
    }
}

gint32
ttv_lttng_decode_fields (const TtvEvent *event, TtvDecoder *decoder, GError **error)
{
  const TtvLttngFile *f = event->tracefile->priv;
  guint64 bit = event->payload_bit;
  g_autoptr (GError) local = NULL;
  gint32 root = ttv_decoder_decode (decoder, event->type->fields, "event.fields", event->data,
                                    event->data_bits, &bit, &local);
  if (root < 0)
    {
      const TtvLttngBlock *b = &g_array_index (f->blocks, TtvLttngBlock, event->pos.block);
      g_set_error (error, TTV_FORMAT_ERROR, local->code,
                   _("%s: %s event at byte offset %" PRIu64 " (offsets below are from its block, at byte offset %" PRIu64 "): %s"),
                   f->path, event->type->full_name, b->file_offset + event->pos.offset,
                   b->file_offset, local->message);
    }
  return root;
}
