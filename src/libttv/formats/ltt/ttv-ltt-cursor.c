/* ttv-ltt-cursor.c: reading events of one LTT tracefile in time order: next,
 * seek by time (binary search over blocks) and by position.  The hot loop. */
#include "ttv-ltt-private.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>

void
ttv_ltt_code_set (TtvLttCode *code, TtvLttCodeKind kind, const TtvType *fields,
                  const TtvEventType *type)
{
  memset (code, 0, sizeof *code);
  code->kind = (guint8) kind;
  code->fields = fields;
  code->type = type;
  code->fixed_size = G_MAXUINT32;
  if (fields)
    {
      guint align = fields->align_bits >= 8 ? fields->align_bits / 8 : 1;
      code->align_mask = align - 1;
      if (kind == TTV_LTT_CODE_KIND_EVENT && fields->fixed_size_bits >= 0
          && fields->fixed_size_bits % 8 == 0 && fields->fixed_size_bits / 8 < G_MAXUINT32)
        code->fixed_size = (guint32) (fields->fixed_size_bits / 8);
    }
  for (guint o = 0; o < G_N_ELEMENTS (code->step); o++)
    {
      guint64 payload = o + TTV_LTT_HEADER_SIZE;
      guint64 next = ((payload + code->align_mask) & ~(guint64) code->align_mask) + code->fixed_size;
      gboolean fits = code->fixed_size != G_MAXUINT32 && code->align_mask < G_N_ELEMENTS (code->step);
      code->step[o] = fits ? (guint32) (next - o) : G_MAXUINT32;
    }
}

static const TtvLttFineIndex *
fine_index (const TtvLttFile *f, guint64 b)
{
  return b < f->n_fine ? g_atomic_pointer_get (&f->fine[b]) : NULL;
}

/* Called when a block read from its first event is finished. */
static void
publish_fine_index (TtvLttCursor *c)
{
  TtvLttIter *it = &c->it;
  GArray *entries = it->fine;
  it->fine = NULL;
  if (entries == NULL)
    return;
  if (it->block < c->file->n_fine && fine_index (c->file, it->block) == NULL)
    {
      TtvLttFineIndex *fi = ttv_ltt_fine_index_new ((const TtvLttFineEntry *) entries->data, entries->len);
      if (!g_atomic_pointer_compare_and_exchange (&c->file->fine[it->block], NULL, fi))
        g_free (fi);
    }
  g_array_unref (entries);
}

/* Seeks read ahead then step back: the iterator is saved and restored, and
 * a fine index being recorded must neither leak nor be shared by the two. */
static void
stop_recording (TtvLttIter *it)
{
  if (it->fine)
    g_array_unref (it->fine);
  it->fine = NULL;
}

/* The bytes of block @b, through the cursor's window (which moves when
 * the block is not in it: the previous block's bytes are then gone), of
 * which only those from byte @from of the block on are read. */
static const guint8 *
block_bytes (TtvLttCursor *c, guint64 b, guint64 from, GError **error)
{
  const TtvLttBlock *blk = &g_array_index (c->file->blocks, TtvLttBlock, b);
  guint64 start = blk->slot * c->file->block_size;
  return ttv_file_window_get_tail (&c->window, start, c->file->block_size, start + from, error);
}

/* Positions the iterator at the start of block @b, its bytes not read
 * yet; FALSE, the iterator at the end, when there is no block @b. */
static gboolean
enter_block (TtvLttCursor *c, guint64 b)
{
  TtvLttIter *it = &c->it;
  TtvLttFile *f = c->file;
  if (it->fine)
    g_array_unref (it->fine);
  memset (it, 0, sizeof *it);
  if (b >= f->blocks->len)
    {
      it->block = f->blocks->len;
      return FALSE;
    }
  const TtvLttBlock *blk = &g_array_index (f->blocks, TtvLttBlock, b);
  it->block = b;
  it->offset = TTV_LTT_FIRST_EVENT;
  it->end_offset = blk->end_offset;
  it->cycles = it->block_cycles = blk->start_cycles;
  it->block_time = blk->start;
  it->time_base = (guint64) it->block_time - it->block_cycles;
  it->fast_end = c->fast ? it->end_offset : 0;
  if (b < f->n_fine && fine_index (f, b) == NULL)
    it->fine = g_array_new (FALSE, FALSE, sizeof (TtvLttFineEntry));
  return TRUE;
}

/* Reads the bytes of the iterator's block from @from on (a seek reads
 * only those from the event it starts at); FALSE, the iterator at the
 * end, when they cannot be read. */
static gboolean
read_block_from (TtvLttCursor *c, guint64 from, GError **error)
{
  TtvLttIter *it = &c->it;
  it->base = block_bytes (c, it->block, from, error);
  if (it->base != NULL)
    return TRUE;
  stop_recording (it);
  it->block = c->file->blocks->len;
  return FALSE;
}

/* Positions the iterator at the start of block @b (or at the end); FALSE
 * when the block cannot be read (the iterator is then at the end). */
static gboolean
load_block (TtvLttCursor *c, guint64 b, GError **error)
{
  if (!enter_block (c, b))
    return TRUE;
  return read_block_from (c, 0, error);
}

void
ttv_ltt_cursor_init (TtvLttCursor *c, TtvLttFile *file, const TtvLttCode *codes, guint n_codes)
{
  c->file = file;
  c->codes = codes;
  c->n_codes = n_codes;
  c->window = (TtvFileWindow) TTV_FILE_WINDOW_INIT (file->file);
  c->fast = file->order == TTV_BYTE_ORDER_NATIVE && file->freq == 1000000000u && n_codes > 0;
  c->skipper = ttv_decoder_new ();
  c->load_error = NULL;
  load_block (c, 0, &c->load_error);
}

void
ttv_ltt_cursor_clear (TtvLttCursor *c)
{
  if (c->it.fine)
    g_array_unref (c->it.fine);
  c->it.fine = NULL;
  g_clear_pointer (&c->skipper, ttv_decoder_free);
  g_clear_error (&c->load_error);
  ttv_file_window_clear (&c->window);
}

static gboolean
bad_event (GError **error, const TtvLttCursor *c, guint64 offset, const char *what)
{
  const TtvLttBlock *blk = &g_array_index (c->file->blocks, TtvLttBlock, c->it.block);
  g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_CORRUPT,
               _("%s: byte offset %" PRIu64 " (block %" PRIu64 "): %s"),
               c->file->path, blk->slot * c->file->block_size + offset, blk->slot, what);
  return FALSE;
}

static inline guint16
rd16 (const guint8 *p, gboolean swap)
{
  guint16 v;
  memcpy (&v, p, 2);
  return swap ? GUINT16_SWAP_LE_BE (v) : v;
}

static inline guint32
rd32 (const guint8 *p, gboolean swap)
{
  guint32 v;
  memcpy (&v, p, 4);
  return swap ? GUINT32_SWAP_LE_BE (v) : v;
}

static inline guint64
rd64 (const guint8 *p, gboolean swap)
{
  guint64 v;
  memcpy (&v, p, 8);
  return swap ? GUINT64_SWAP_LE_BE (v) : v;
}

static gboolean next_slow (TtvLttCursor *c, TtvEvent *ev, GError **error);

/* The fields of @ev the same for every event of the block. */
static G_ALWAYS_INLINE inline void
emit_block_fields (const TtvLttCursor *c, const TtvLttIter *it, TtvEvent *ev)
{
  ev->tracefile = c->parent.tracefile;
  ev->pos.block = it->block;
  ev->data = it->base;
  ev->data_bits = it->end_offset * 8;
}

/* Fills the fields of @ev (its time and cycles set, and its block fields)
 * of the event of @code at byte @off, whose payload starts at @payload,
 * and moves the iterator to @next. */
static G_ALWAYS_INLINE inline void
emit_event (TtvLttIter *it, const TtvLttCode *code, guint64 off, guint64 payload, guint64 next,
            TtvEvent *ev)
{
  ev->type = code->type;
  ev->pos.offset = off;
  ev->pos.index = it->index++;
  ev->payload_bit = payload * 8;
  ev->priv = (gpointer) code;
  it->offset = next;
}

/* The hot loop of every LTT read: an event of fixed size inside the block,
 * in the machine's byte order, with a 1 GHz clock (it->fast_end is 0
 * otherwise), takes this way; any other (block ends, heartbeats, variable
 * sizes, damage) next_slow.  @kept (a constant): @ev is the event handed
 * at the last call, untouched but for its time, so that its block fields
 * are written once per block. */
static G_ALWAYS_INLINE inline gboolean
cursor_next (TtvCursor *cursor, TtvEvent *ev, GError **error, gboolean kept)
{
  TtvLttCursor *c = (TtvLttCursor *) cursor;
  TtvLttIter *it = &c->it;
  guint64 off = it->offset;
  if (G_LIKELY (off + TTV_LTT_HEADER_SIZE <= it->fast_end))
    {
      const guint8 *p = it->base + off;
      guint16 id;
      guint32 delta;
      memcpy (&id, p, 2);
      memcpy (&delta, p + 2, 4);
      if (G_UNLIKELY (id >= c->n_codes))
        return next_slow (c, ev, error);
      const TtvLttCode *code = &c->codes[id];
      guint64 payload = off + TTV_LTT_HEADER_SIZE;
      guint64 next = off + code->step[off % G_N_ELEMENTS (code->step)];
      /* Unknown and builtin codes and variable sizes (a step of
       * G_MAXUINT32 puts next past any block), events past the block end
       * and the events a fine index being recorded notes all fail these. */
      if (G_LIKELY (next <= it->fast_end && (it->fine == NULL || it->index % TTV_LTT_FINE_STEP != 0)))
        {
          guint64 cycles = it->cycles + delta;
          it->cycles = cycles;
          ev->cycles = cycles;
          ev->time = (TtvTime) (it->time_base + cycles);
          if (!kept)
            emit_block_fields (c, it, ev);
          else if (G_UNLIKELY (it->kept != ev))
            {
              emit_block_fields (c, it, ev);
              it->kept = ev;
            }
          emit_event (it, code, off, payload, next, ev);
          ttv_file_window_prefetch (it->base, next);
          return TRUE;
        }
    }
  return next_slow (c, ev, error);
}

gboolean
ttv_ltt_cursor_next (TtvCursor *cursor, TtvEvent *ev, GError **error)
{
  return cursor_next (cursor, ev, error, FALSE);
}

gboolean
ttv_ltt_cursor_next_kept (TtvCursor *cursor, TtvEvent *ev, GError **error)
{
  return cursor_next (cursor, ev, error, TRUE);
}

static G_NO_INLINE gboolean
next_slow (TtvLttCursor *c, TtvEvent *ev, GError **error)
{
  TtvLttIter *it = &c->it;
  const gboolean swap = c->file->order != TTV_BYTE_ORDER_NATIVE;

  for (;;)
    {
      guint64 off = it->offset;
      if (G_UNLIKELY (off + TTV_LTT_HEADER_SIZE > it->end_offset))
        {
          if (G_UNLIKELY (c->load_error != NULL))
            {
              /* The first block could not be read when the cursor was made. */
              g_propagate_error (error, g_steal_pointer (&c->load_error));
              return FALSE;
            }
          if (it->block >= c->file->blocks->len)
            return FALSE;
          if (off != it->end_offset)
            return bad_event (error, c, off, _("event header runs past the block_end event"));
          publish_fine_index (c);
          if (!load_block (c, it->block + 1, error))
            return FALSE;
          continue;
        }
      const guint8 *p = it->base + off;
      guint16 id = rd16 (p, swap);
      guint32 delta = rd32 (p + 2, swap);
      if (G_UNLIKELY (id >= c->n_codes || c->codes[id].kind == TTV_LTT_CODE_KIND_UNKNOWN))
        {
          g_autofree char *what = g_strdup_printf (_("unknown event id %u"), id);
          return bad_event (error, c, off, what);
        }
      const TtvLttCode *code = &c->codes[id];
      guint64 payload = off + TTV_LTT_HEADER_SIZE;

      if (G_LIKELY (code->kind == TTV_LTT_CODE_KIND_EVENT))
        {
          guint64 next;
          if (G_UNLIKELY (it->fine != NULL) && it->index % TTV_LTT_FINE_STEP == 0)
            {
              TtvLttFineEntry e = { (guint32) off, (guint32) it->index, it->cycles };
              g_array_append_val (it->fine, e);
            }
          it->cycles += delta;
          if (G_LIKELY (code->fixed_size != G_MAXUINT32))
            {
              next = ((payload + code->align_mask) & ~(guint64) code->align_mask) + code->fixed_size;
              if (G_UNLIKELY (next > it->end_offset))
                return bad_event (error, c, off, _("event runs past the block_end event"));
            }
          else
            {
              guint64 bit = payload * 8;
              g_autoptr (GError) local = NULL;
              ttv_decoder_reset (c->skipper);
              if (!ttv_decoder_skip (c->skipper, code->fields, it->base, it->end_offset * 8, &bit,
                                     &local))
                {
                  g_autofree char *what = g_strdup_printf (_("event id %u runs past the block_end "
                                                             "event or is malformed: %s"),
                                                           id, local->message);
                  return bad_event (error, c, off, what);
                }
              next = (bit + 7) / 8;
            }
          ev->cycles = it->cycles;
          if (G_LIKELY (c->file->freq == 1000000000u))
            ev->time = (TtvTime) (it->time_base + it->cycles);
          else
            ev->time = ttv_ltt_time_from_cycles (it->block_time, it->block_cycles, it->cycles,
                                                 c->file->freq);
          emit_block_fields (c, it, ev);
          emit_event (it, code, off, payload, next, ev);
          return TRUE;
        }

      switch (code->kind)
        {
        case TTV_LTT_CODE_KIND_HEARTBEAT:
          {
            guint64 pl = ttv_ltt_ts_payload (off);
            if (pl + TTV_LTT_HEARTBEAT_SIZE > it->end_offset)
              return bad_event (error, c, off, _("time_heartbeat runs past the block_end event"));
            it->cycles = rd64 (it->base + pl + 8, swap);
            it->offset = pl + TTV_LTT_HEARTBEAT_SIZE;
          }
          break;
        case TTV_LTT_CODE_KIND_SKIP:
          {
            guint64 bit = payload * 8;
            g_autoptr (GError) local = NULL;
            ttv_decoder_reset (c->skipper);
            if (!ttv_decoder_skip (c->skipper, code->fields, it->base, it->end_offset * 8, &bit, &local))
              return bad_event (error, c, off, local->message);
            it->cycles += delta;
            it->offset = (bit + 7) / 8;
          }
          break;
        case TTV_LTT_CODE_KIND_BLOCK_END:
          return bad_event (error, c, off, _("block_end event before the block's last-event offset"));
        default:
          return bad_event (error, c, off, _("block_start event inside a block"));
        }
    }
}

/* The cycle count below which every event of the current block is before
 * @time (a lower bound when the clock is not 1 GHz, so never too far). */
static guint64
block_target_cycles (const TtvLttCursor *c, TtvTime time)
{
  const TtvLttIter *it = &c->it;
  if (time <= it->block_time)
    return it->block_cycles;
  guint64 dt = (guint64) (time - it->block_time);
  if (c->file->freq == 1000000000u)
    return it->block_cycles + dt;
  guint64 cycles = (guint64) (((unsigned __int128) dt * c->file->freq) / 1000000000u);
  return it->block_cycles + (cycles > 0 ? cycles - 1 : 0);
}

/* Seeking scans inside one block: skip fixed-size events known to be before
 * the target by their cycle count alone, without building events.  Anything
 * unusual (variable size, heartbeat, block end, damage) is left to next(). */
static void
skip_before_cycles (TtvLttCursor *c, guint64 target)
{
  TtvLttIter *it = &c->it;
  const gboolean swap = c->file->order != TTV_BYTE_ORDER_NATIVE;
  for (;;)
    {
      guint64 off = it->offset;
      if (off + TTV_LTT_HEADER_SIZE > it->end_offset)
        return;
      const guint8 *p = it->base + off;
      guint16 id = rd16 (p, swap);
      if (id >= c->n_codes)
        return;
      const TtvLttCode *code = &c->codes[id];
      if (code->kind != TTV_LTT_CODE_KIND_EVENT || code->fixed_size == G_MAXUINT32)
        return;
      guint64 cycles = it->cycles + rd32 (p + 2, swap);
      if (cycles >= target)
        return;
      guint64 payload = off + TTV_LTT_HEADER_SIZE;
      guint64 next = ((payload + code->align_mask) & ~(guint64) code->align_mask) + code->fixed_size;
      if (next > it->end_offset)
        return;
      it->cycles = cycles;
      it->offset = next;
      it->index++;
    }
}

static gboolean
restore_iter (TtvLttCursor *c, const TtvLttIter *saved, GError **error)
{
  stop_recording (&c->it);
  c->it = *saved;
  /* The window may give the block's bytes at another address now. */
  c->it.kept = NULL;
  /* Reading ahead may have moved the window off the saved block. */
  return c->it.block >= c->file->blocks->len || read_block_from (c, c->it.offset, error);
}

/* Moves @it to entry @k of its block's fine index @fi: the event recorded
 * there, and the cycle count before it. Nothing when @k is -1 (no entry
 * fits: the scan starts at the block's first event). */
static void
iter_move_to_entry (TtvLttIter *it, const TtvLttFineIndex *fi, gint k)
{
  if (k < 0)
    return;
  TtvLttFineEntry e;
  ttv_ltt_fine_index_get (fi, (guint) k, &e);
  it->offset = e.offset;
  it->index = e.index;
  it->cycles = e.cycles;
}

/* Jumps to the last recorded event of the current block whose cycle count
 * before it is below @target (all events before it are then earlier). */
static void
resume_near (TtvLttCursor *c, guint64 target)
{
  const TtvLttFineIndex *fi = fine_index (c->file, c->it.block);
  iter_move_to_entry (&c->it, fi, fi ? ttv_ltt_fine_index_find_cycles (fi, target) : -1);
}

gboolean
ttv_ltt_cursor_seek_time (TtvCursor *cursor, TtvTime time, GError **error)
{
  TtvLttCursor *c = (TtvLttCursor *) cursor;
  GArray *blocks = c->file->blocks;
  /* First block whose last event is at or after @time. */
  guint64 lo = 0, hi = blocks->len;
  while (lo < hi)
    {
      guint64 mid = lo + (hi - lo) / 2;
      if (g_array_index (blocks, TtvLttBlock, mid).end < time)
        lo = mid + 1;
      else
        hi = mid;
    }
  g_clear_error (&c->load_error);
  gboolean in_block = enter_block (c, lo);
  stop_recording (&c->it);
  guint64 block = c->it.block;
  guint64 target = block_target_cycles (c, time);
  resume_near (c, target);
  /* The block's bytes from the event the scan starts at on, not all. */
  if (in_block && !read_block_from (c, c->it.offset, error))
    return FALSE;
  for (;;)
    {
      if (c->it.block != block)
        {
          block = c->it.block;
          target = block_target_cycles (c, time);
        }
      skip_before_cycles (c, target);
      stop_recording (&c->it);
      TtvLttIter saved = c->it;
      TtvEvent ev;
      GError *local = NULL;
      if (!ttv_ltt_cursor_next (cursor, &ev, &local))
        {
          if (local)
            {
              g_propagate_error (error, local);
              return FALSE;
            }
          return TRUE;
        }
      if (ev.time >= time)
        return restore_iter (c, &saved, error);
    }
}

gboolean
ttv_ltt_cursor_skip_block (TtvCursor *cursor, GError **error)
{
  TtvLttCursor *c = (TtvLttCursor *) cursor;

  /* A failed next() or seek left the iterator in the damaged block. */
  g_clear_error (&c->load_error);
  return load_block (c, c->it.block + 1, error);
}

gboolean
ttv_ltt_cursor_seek_position (TtvCursor *cursor, const TtvTracefilePosition *pos, GError **error)
{
  TtvLttCursor *c = (TtvLttCursor *) cursor;
  guint64 n = c->file->blocks->len;
  if (pos->block >= n)
    {
      if (pos->block == n && pos->offset == 0 && pos->index == 0)
        return load_block (c, n, error);
      goto bad;
    }
  g_clear_error (&c->load_error);
  enter_block (c, pos->block);
  stop_recording (&c->it);
  /* Start from the last recorded event at or before the wanted one. */
  const TtvLttFineIndex *fi = fine_index (c->file, pos->block);
  iter_move_to_entry (&c->it, fi, fi ? ttv_ltt_fine_index_find_index (fi, pos->index) : -1);
  /* The block's bytes from the event the scan starts at on, not all. */
  if (!read_block_from (c, c->it.offset, error))
    return FALSE;
  for (;;)
    {
      stop_recording (&c->it);
      TtvLttIter saved = c->it;
      TtvEvent ev;
      GError *local = NULL;
      if (!ttv_ltt_cursor_next (cursor, &ev, &local))
        {
          if (local)
            {
              g_propagate_error (error, local);
              return FALSE;
            }
          goto bad;
        }
      if (ev.pos.block != pos->block || ev.pos.index > pos->index)
        goto bad;
      if (ev.pos.index == pos->index)
        {
          if (ev.pos.offset != pos->offset)
            goto bad;
          return restore_iter (c, &saved, error);
        }
    }

bad:
  g_set_error (error, TTV_ENGINE_ERROR, TTV_ENGINE_ERROR_BAD_POSITION,
               _("%s: no event number %" PRIu64 " at byte offset %" PRIu64
                 " of block %" PRIu64), c->file->path, pos->index, pos->offset, pos->block);
  return FALSE;
}
