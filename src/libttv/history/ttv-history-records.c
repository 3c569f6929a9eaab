/* ttv-history-records.c: the compact coding of a state history's
 * records (blocks of fixed-width columns, indexed by pieces and a
 * directory), their reading from memory or a file, used by the builder,
 * the summary, the queries and the cache file's checks. */
#include "ttv-history-private.h"
#include "ttv-temp-file.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

/* Bytes for values up to @max: 0, 1, 2 or 4. */
static guint
bytes_for (guint64 max)
{
  return max == 0 ? 0 : max <= 0xff ? 1 : max <= 0xffff ? 2 : 4;
}

static inline guint
bits_for (guint64 max)
{
  return max ? 64 - (guint) __builtin_clzll (max) : 0;
}

/* ORs @w bits of @v at bit @pos of @base (zeroed). */
static inline void
put_bits (guint8 *base, guint64 pos, guint64 v, guint w)
{
  while (w > 0)
    {
      guint sh = (guint) (pos & 7), take = MIN (8 - sh, w);
      base[pos >> 3] |= (guint8) ((v & ((1u << take) - 1)) << sh);
      v = take < 64 ? v >> take : 0;
      pos += take;
      w -= take;
    }
}

static void write_piece (TtvHistoryEncoder *e, TtvHistoryWriter *w);

/* @w (0, 1, 2 or 4) bytes of @v, little-endian, storing 4 (the caller
 * leaves room: the next bytes are written after). */
static inline guint8 *
put_le4 (guint8 *p, guint64 v, guint w)
{
  guint32 le = GUINT32_TO_LE ((guint32) v);
  memcpy (p, &le, 4);
  return p + w;
}

void
ttv_history_encoder_code_block (TtvHistoryEncoder *e, TtvHistoryWriter *w)
{
  ttv_history_encoder_code (e, w, e->pending, e->n_pending);
  e->n_pending = 0;
}

/* The dictionary's hash table: twice the most entries a block has, each
 * slot an entry's index + 1 (0: empty).  A walk over the entries cost
 * about 18 instructions a record (most blocks hold several states that
 * alternate), the table about 8. */
#define DICT_SLOTS (2 * TTV_HISTORY_BLOCK)
G_STATIC_ASSERT (DICT_SLOTS == 64);   /* dict_slot's 6 bits */

/* The top bits of the word times 2^64 / phi (Fibonacci hashing). */
static inline guint
dict_slot (guint64 word)
{
  return (guint) ((word * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15)) >> 58);
}

void
ttv_history_encoder_code (TtvHistoryEncoder *e, TtvHistoryWriter *w, const TtvHistoryPending *r, guint n)
{
  if (n == 0)
    return;
  /* The dictionary of (key, aux, CPU), each packed in a word, in the
   * order of first use; found through @slots, not a walk over it. */
  guint64 dict[TTV_HISTORY_BLOCK];
  guint8 slots[DICT_SLOTS] = { 0 };
  guint8 idx[TTV_HISTORY_BLOCK];
  guint64 delta[TTV_HISTORY_BLOCK];
  guint nd = 0;
  /* ORs, not maxima: the widths below depend only on the highest bit set. */
  guint64 or_d = 0, or_c = 0, or_a = 0, or_p = 0;
  guint states = 0;        /* bit k: a key of low 4 bits k (TtvHistoryEncoder.states_seen) */
  guint64 prev_start = (guint64) r[0].start;   /* the first record's delta: 0 */
  for (guint i = 0; i < n; i++)
    {
      guint64 word = r[i].word;
      guint s = dict_slot (word), k;
      for (;; s = (s + 1) % DICT_SLOTS)
        {
          guint entry = slots[s];
          if (entry == 0)
            {
              k = nd;
              dict[nd++] = word;
              slots[s] = (guint8) nd;
              or_a |= word >> 32;
              or_p |= (word >> 8) & 0xffffff;
              states |= 1u << (word & 0xf);
              break;
            }
          if (dict[entry - 1] == word)
            {
              k = entry - 1;
              break;
            }
        }
      idx[i] = (guint8) k;
      delta[i] = (guint64) r[i].start - prev_start;
      prev_start = (guint64) r[i].start;
      or_d |= delta[i];
      or_c |= r[i].count;
    }
  e->states_seen |= (guint16) states;
  guint bt = bits_for (or_d), bc = bits_for (or_c), bi = bits_for (nd - 1);
  guint wa = bytes_for (or_a), wp = bytes_for (or_p);
  guint rb = bt + bc + bi;
  gsize n_bits = ((gsize) n * rb + 7) / 8;
  gsize need = TTV_HISTORY_BLOCK_HEADER + nd * (1 + wa + wp) + n_bits;
  /* 8 bytes more: words are stored whole past the end. */
  if (e->cap - e->len < need + 8)
    {
      gsize cap = MAX (MAX (e->cap * 2, 256), e->len + need + 8);
      e->buf = g_realloc (e->buf, cap);
      e->cap = cap;
    }
  if (e->n_piece == e->piece_cap)
    {
      /* Grown as needed: many rows never fill a piece. */
      e->piece_cap = e->piece_cap ? MIN (e->piece_cap * 4, TTV_HISTORY_PIECE) : 8;
      e->piece = g_renew (TtvHistoryBlock, e->piece, e->piece_cap);
    }
  /* Relative to @buf until it is written out. */
  e->piece[e->n_piece].start = r[0].start;
  e->piece[e->n_piece].offset = e->len;
  e->n_piece++;
  e->n_unplaced++;
  guint8 *p = e->buf + e->len;
  *p++ = (guint8) n;
  *p++ = (guint8) bt;
  *p++ = (guint8) bc;
  *p++ = (guint8) bi;
  *p++ = (guint8) nd;
  *p++ = (guint8) wa;
  *p++ = (guint8) wp;
  for (guint k = 0; k < nd; k++)
    *p++ = (guint8) dict[k];
  for (guint k = 0; k < nd; k++)
    p = put_le4 (p, dict[k] >> 32, wa);
  for (guint k = 0; k < nd; k++)
    p = put_le4 (p, (dict[k] >> 8) & 0xffffff, wp);
  if (rb <= 57)
    {
      /* A record's bits in one word, gathered in a register and stored a
       * whole word at a time (no load of what was just stored). */
      guint8 *out = p;
      guint64 acc = 0;
      guint nacc = 0;
      for (guint i = 0; i < n; i++)
        {
          guint64 v = delta[i] | (guint64) r[i].count << bt | (guint64) idx[i] << (bt + bc);
          acc |= v << nacc;
          if (nacc + rb >= 64)
            {
              guint64 le = GUINT64_TO_LE (acc);
              memcpy (out, &le, 8);
              out += 8;
              /* nacc > 0 here, as rb < 64. */
              acc = v >> (64 - nacc);
              nacc = nacc + rb - 64;
            }
          else
            nacc += rb;
        }
      guint64 le = GUINT64_TO_LE (acc);
      memcpy (out, &le, 8);
    }
  else
    {
      memset (p, 0, n_bits);
      for (guint i = 0; i < n; i++)
        {
          guint64 pos = (guint64) i * rb;
          put_bits (p, pos, delta[i], bt);
          put_bits (p, pos + bt, r[i].count, bc);
          put_bits (p, pos + bt + bc, idx[i], bi);
        }
    }
  p += n_bits;
  e->len = (gsize) (p - e->buf);
  if (e->n_piece == TTV_HISTORY_PIECE)
    write_piece (e, w);
}

void
ttv_history_encoder_init (TtvHistoryEncoder *e)
{
  memset (e, 0, sizeof *e);
  e->last_start = G_MININT64;
}

void
ttv_history_encoder_clear (TtvHistoryEncoder *e)
{
  g_free (e->pending);
  g_free (e->buf);
  g_free (e->piece);
  g_free (e->dir);
  memset (e, 0, sizeof *e);
}

void
ttv_history_encoder_flush (TtvHistoryEncoder *e, TtvHistoryWriter *w)
{
  if (e->len == 0)
    return;
  guint64 at = ttv_history_writer_append (w, e->buf, e->len);
  for (guint k = e->n_piece - e->n_unplaced; k < e->n_piece; k++)
    e->piece[k].offset += at;
  e->n_unplaced = 0;
  e->len = 0;
  /* The buffer goes too: most rows are quiet most of the time. */
  g_clear_pointer (&e->buf, g_free);
  e->cap = 0;
}

static void
add_dir_entry (TtvHistoryEncoder *e, const TtvHistoryBlock *d)
{
  if (e->n_dir == 0)
    e->dir_first = *d;
  else
    {
      if (e->n_dir >= e->dir_cap)
        {
          e->dir_cap = MAX (e->dir_cap * 2, 4);
          gboolean first_move = e->dir == NULL;
          e->dir = g_renew (TtvHistoryBlock, e->dir, e->dir_cap);
          if (first_move)
            e->dir[0] = e->dir_first;
        }
      e->dir[e->n_dir] = *d;
    }
  e->n_dir++;
}

/* The piece after the blocks it indexes, then its directory entry. */
static void
write_piece (TtvHistoryEncoder *e, TtvHistoryWriter *w)
{
  if (e->n_piece == 0)
    return;
  ttv_history_encoder_flush (e, w);
  ttv_history_writer_align (w);
  TtvHistoryBlock d = { e->piece[0].start, ttv_history_writer_append (w, e->piece, e->n_piece * sizeof (TtvHistoryBlock)) };
  add_dir_entry (e, &d);
  e->n_piece = 0;
}

void
ttv_history_encoder_grow (TtvHistoryEncoder *e)
{
  g_return_if_fail (!e->finished);
  /* Grown as needed: many rows never hold a whole block. */
  e->pending_cap = e->pending_cap ? MIN (e->pending_cap * 2, TTV_HISTORY_BLOCK) : 4;
  e->pending = g_renew (TtvHistoryPending, e->pending, e->pending_cap);
}

void
ttv_history_encoder_close (TtvHistoryEncoder *e, TtvHistoryWriter *w)
{
  write_piece (e, w);
  g_clear_pointer (&e->piece, g_free);
  g_clear_pointer (&e->buf, g_free);
  e->cap = 0;
  e->piece_cap = 0;
}

void
ttv_history_encoder_finish (TtvHistoryEncoder *e, TtvHistoryWriter *w)
{
  if (e->finished)
    return;
  ttv_history_encoder_code_block (e, w);
  ttv_history_encoder_close (e, w);
  g_clear_pointer (&e->pending, g_free);
  e->pending_cap = 0;
  e->finished = TRUE;
}

gsize
ttv_history_encoder_memory (const TtvHistoryEncoder *e)
{
  return e->pending_cap * sizeof (TtvHistoryRec) + e->cap + e->piece_cap * sizeof (TtvHistoryBlock)
         + e->dir_cap * sizeof (TtvHistoryBlock);
}

void
ttv_history_encoder_seq (const TtvHistoryEncoder *e, const guint8 *data, guint64 size, TtvHistorySeq *seq)
{
  g_assert (e->finished || e->n_recs == 0);
  seq->data = data;
  seq->fd = -1;
  seq->unwritten = NULL;
  seq->unwritten_from = size;
  seq->size = size;
  seq->dir = ttv_history_encoder_dir (e);
  seq->n_recs = e->n_recs;
  seq->n_blocks = ttv_history_n_blocks (e->n_recs);
}

const guint8 *
ttv_history_source_get (const guint8 *data, int fd, guint64 size, guint64 offset, gsize len, guint8 *buf)
{
  if (offset > size || size - offset < len)
    return NULL;
  /* In place, unless a damaged offset would misalign the structures read
   * there: then copied, as from a file. */
  if (data && (((guintptr) (data + offset)) % 8 == 0 || buf == NULL))
    return data + offset;
  if (data)
    return memcpy (buf, data + offset, len);
  return ttv_file_read_at (fd, buf, len, offset) ? buf : NULL;
}

const guint8 *
ttv_history_read_window_get (TtvHistoryReadWindow *w, int fd, guint64 size, guint64 offset, gsize len, guint8 *buf)
{
  const guint8 *p = offset >= w->offset ? ttv_history_source_get (w->buf, -1, w->len, offset - w->offset, len, buf)
                                        : NULL;
  if (p != NULL)
    return p;
  if (len > w->cap || offset > size || size - offset < len)
    return NULL;
  gsize n = (gsize) MIN ((guint64) w->cap, size - offset);
  w->len = 0;
  if (!ttv_file_read_at (fd, w->buf, n, offset))
    return NULL;
  w->offset = offset;
  w->len = n;
  return ttv_history_source_get (w->buf, -1, w->len, 0, len, buf);
}

void
ttv_history_cursor_init (TtvHistoryCursor *c, const TtvHistorySeq *seq, guint64 index)
{
  /* Not the buffers: a cursor is made for every query. */
  memset (c, 0, G_STRUCT_OFFSET (TtvHistoryCursor, piece_buf));
  c->seq = seq;
  c->index = MIN (index, seq->n_recs);
  c->block = G_MAXUINT64;
}

/* @n bytes of @s's file at @off: those before s->unwritten_from read from
 * the file, the others copied from the buffer that holds them.  An early
 * summary reads a row just closed this way, without a write of the
 * writer's buffer and a read back of it (two system calls a row). */
static gboolean
seq_read_at (const TtvHistorySeq *s, guint8 *buf, gsize n, guint64 off)
{
  gsize from_file = s->unwritten == NULL || off + n <= s->unwritten_from ? n
                    : off >= s->unwritten_from                           ? 0
                                                                          : (gsize) (s->unwritten_from - off);
  if (from_file && !ttv_file_read_at (s->fd, buf, from_file, off))
    return FALSE;
  if (from_file < n)
    memcpy (buf + from_file, s->unwritten + (off + from_file - s->unwritten_from), n - from_file);
  return TRUE;
}

/* Loads piece @p's entries (reading them if the sequence is in a file). */
static gboolean
cursor_piece (TtvHistoryCursor *c, guint64 p)
{
  if (c->piece_no == p + 1)
    return TRUE;
  const TtvHistorySeq *s = c->seq;
  guint64 off = s->dir[p].offset;
  guint64 n = MIN ((guint64) TTV_HISTORY_PIECE, s->n_blocks - p * TTV_HISTORY_PIECE);
  if (off % 8 != 0 || off > s->size || (s->size - off) / sizeof (TtvHistoryBlock) < n)
    return FALSE;
  if (s->data)
    c->piece = (const TtvHistoryBlock *) (s->data + off);
  else
    {
      if (!seq_read_at (s, (guint8 *) c->piece_buf, n * sizeof (TtvHistoryBlock), off))
        return FALSE;
      c->n_reads++;
      c->read_bytes += n * sizeof (TtvHistoryBlock);
      c->piece = c->piece_buf;
    }
  c->piece_no = p + 1;
  c->piece_count = (guint) n;
  return TRUE;
}

/* @len bytes at @off (at most the window), and what is readable after
 * them in c->limit; a file is read @want bytes at a time (at most the
 * window, at least @len). */
static const guint8 *
cursor_bytes (TtvHistoryCursor *c, guint64 off, gsize len, gsize want)
{
  const TtvHistorySeq *s = c->seq;
  if (off > s->size || s->size - off < len)
    return NULL;
  if (s->data)
    {
      c->limit = s->data + s->size;
      return s->data + off;
    }
  if (off < c->win_off || off + len > c->win_off + c->win_len)
    {
      gsize n = (gsize) MIN ((guint64) want, s->size - off);
      if (len > n || !seq_read_at (s, c->win, n, off))
        {
          c->win_len = 0;
          return NULL;
        }
      c->n_reads++;
      c->read_bytes += n;
      c->win_off = off;
      c->win_len = n;
    }
  c->limit = c->win + c->win_len;
  return c->win + (off - c->win_off);
}

/* What to read of a file for block @b (at @off) of the piece loaded: the
 * window when the row's next block lies in it (a run of the row's
 * blocks), else the block alone, with the 8 bytes the unchecked loads of
 * ttv_history_cursor_next_block () want after it.  A row's blocks are
 * often far apart (its neighbours in the file are other rows' blocks):
 * the summaries of a build read each block once, and reading a window for
 * each copied five times the history's size. */
static gsize
block_read_size (const TtvHistoryCursor *c, guint64 b, guint64 off)
{
  guint i = (guint) (b % TTV_HISTORY_PIECE);
  if (i + 1 < c->piece_count && c->piece[i + 1].offset > off
      && c->piece[i + 1].offset - off <= TTV_HISTORY_WINDOW - TTV_HISTORY_BLOCK_MAX_BYTES - 8)
    return TTV_HISTORY_WINDOW;
  return TTV_HISTORY_BLOCK_MAX_BYTES + 8;
}

gboolean
ttv_history_cursor_load (TtvHistoryCursor *c, guint64 b)
{
  const TtvHistorySeq *s = c->seq;
  c->block = G_MAXUINT64;
  if (b >= s->n_blocks || !cursor_piece (c, b / TTV_HISTORY_PIECE))
    return FALSE;
  TtvHistoryBlock entry = c->piece[b % TTV_HISTORY_PIECE];
  gsize want = block_read_size (c, b, entry.offset);
  const guint8 *p = cursor_bytes (c, entry.offset, TTV_HISTORY_BLOCK_HEADER, want);
  if (p == NULL)
    return FALSE;
  guint n = p[0], bt = p[1], bc = p[2], bi = p[3], nd = p[4], wa = p[5], wp = p[6];
  if (n == 0 || n > TTV_HISTORY_BLOCK || bt > 64 || bc > 32 || bi > 5 || nd == 0 || nd > n
      || (wa > 2 && wa != 4) || (wp > 2 && wp != 4))
    return FALSE;
  guint rb = bt + bc + bi;
  gsize len = TTV_HISTORY_BLOCK_HEADER + (gsize) nd * (1 + wa + wp) + ((gsize) n * rb + 7) / 8;
  p = cursor_bytes (c, entry.offset, len, want);
  if (p == NULL)
    return FALSE;
  c->n = n;
  c->bt = bt;
  c->bc = bc;
  c->bi = bi;
  c->rb = rb;
  c->mt = bt >= 64 ? G_MAXUINT64 : (G_GUINT64_CONSTANT (1) << bt) - 1;
  c->mc = (G_GUINT64_CONSTANT (1) << bc) - 1;
  c->mi = (G_GUINT64_CONSTANT (1) << bi) - 1;
  c->nd = nd;
  c->wa = wa;
  c->wp = wp;
  c->dkeys = p + TTV_HISTORY_BLOCK_HEADER;
  c->daux = c->dkeys + nd;
  c->dcpus = c->daux + nd * wa;
  c->bits = c->dcpus + nd * wp;
  c->time = entry.start;
  c->block = b;
  return TRUE;
}

gboolean
ttv_history_cursor_next (TtvHistoryCursor *c, TtvHistoryRec *out)
{
  return ttv_history_cursor_next_inline (c, out);
}

guint
ttv_history_cursor_next_block (TtvHistoryCursor *c, gint64 *starts, guint8 *keys, guint32 *counts)
{
  if (c->index >= c->seq->n_recs)
    return 0;
  guint64 b = c->index / TTV_HISTORY_BLOCK;
  if (b != c->block && !ttv_history_cursor_load (c, b))
    return 0;
  guint i0 = (guint) (c->index % TTV_HISTORY_BLOCK), n = c->n, rb = c->rb, bt = c->bt, bc = c->bc;
  guint64 mt = c->mt, mc = c->mc, mi = c->mi;
  const guint8 *bits = c->bits, *limit = c->limit, *dkeys = c->dkeys;
  guint nd = c->nd;
  guint64 time = (guint64) c->time;
  guint k = 0;
  guint64 pos = (guint64) i0 * rb;
  if (rb <= 57 && limit - (bits + (((guint64) n * rb) >> 3)) >= 8)
    {
      /* Every load within the bytes: no check per record. */
      for (guint i = i0; i < n; i++, k++, pos += rb)
        {
          guint64 x;
          memcpy (&x, bits + (pos >> 3), 8);
          x = GUINT64_FROM_LE (x) >> (pos & 7);
          guint idx = (guint) ((x >> (bt + bc)) & mi);
          if (G_UNLIKELY (idx >= nd))
            break;
          time += x & mt;
          starts[k] = (gint64) time;
          keys[k] = dkeys[idx];
          counts[k] = (guint32) ((x >> bt) & mc);
        }
    }
  else
    for (guint i = i0; i < n; i++, k++, pos += rb)
      {
        guint64 delta, count;
        guint idx;
        if (rb <= 57)
          {
            guint64 x = ttv_history_load64 (bits + (pos >> 3), limit) >> (pos & 7);
            delta = x & mt;
            count = (x >> bt) & mc;
            idx = (guint) ((x >> (bt + bc)) & mi);
          }
        else
          {
            delta = ttv_history_read_bits (bits, pos, bt, limit);
            count = ttv_history_read_bits (bits, pos + bt, bc, limit);
            idx = (guint) ttv_history_read_bits (bits, pos + bt + bc, c->bi, limit);
          }
        if (G_UNLIKELY (idx >= nd))
          break;
        time += delta;
        starts[k] = (gint64) time;
        keys[k] = dkeys[idx];
        counts[k] = (guint32) count;
      }
  c->time = (gint64) time;
  c->index += k;
  return k;
}

/* How many of the @n entries from @lo start at or before @t (sorted). */
static guint64
count_at_or_before (const TtvHistoryBlock *entries, guint64 lo, guint64 n, gint64 t)
{
  guint64 hi = n;
  while (lo < hi)
    {
      guint64 mid = lo + (hi - lo) / 2;
      if (entries[mid].start <= t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

gint64
ttv_history_seq_find (const TtvHistorySeq *seq, gint64 t, TtvHistoryCursor *c, TtvHistoryRec *rec)
{
  /* The last piece, then the last block, starting at or before @t. */
  guint64 lo = count_at_or_before (seq->dir, 0, seq->n_recs ? ttv_history_n_pieces (seq->n_blocks) : 0, t);
  if (lo == 0)
    {
      ttv_history_cursor_init (c, seq, 0);
      return -1;
    }
  guint64 p = lo - 1;
  ttv_history_cursor_init (c, seq, 0);
  if (!cursor_piece (c, p))
    {
      ttv_history_cursor_init (c, seq, seq->n_recs);
      return -1;
    }
  /* The piece's first block starts at or before @t (as its entry says). */
  guint64 b = p * TTV_HISTORY_PIECE + count_at_or_before (c->piece, 1, c->piece_count, t) - 1;
  c->index = b * TTV_HISTORY_BLOCK;
  if (!ttv_history_cursor_load (c, b))
    {
      ttv_history_cursor_init (c, seq, seq->n_recs);
      return -1;
    }
  /* Then the last record of the block at or before @t: the time deltas
   * add up (the first record is at the block's start). */
  guint64 tcur = (guint64) c->time, tprev = tcur;
  guint k = 0;
  for (guint i = 1; i < c->n; i++)
    {
      guint64 pos = (guint64) i * c->rb;
      guint64 delta = c->rb <= 57 ? (ttv_history_load64 (c->bits + (pos >> 3), c->limit) >> (pos & 7)) & c->mt
                                  : ttv_history_read_bits (c->bits, pos, c->bt, c->limit);
      if ((guint64) t - tcur < delta)
        break;
      tprev = tcur;
      tcur += delta;
      k = i;
    }
  c->index = b * TTV_HISTORY_BLOCK + k;
  c->time = (gint64) tprev;
  if (!ttv_history_cursor_next_inline (c, rec))
    {
      ttv_history_cursor_init (c, seq, seq->n_recs);
      return -1;
    }
  return (gint64) c->index - 1;
}

gboolean
ttv_history_seq_validate (const TtvHistorySeq *seq, guint64 *bad_offset)
{
  *bad_offset = 0;
  if (seq->n_recs > G_MAXUINT64 - TTV_HISTORY_BLOCK || seq->n_blocks != ttv_history_n_blocks (seq->n_recs))
    return FALSE;
  if (seq->n_recs == 0)
    return TRUE;
  gint64 last = G_MININT64;
  /* A cursor is large: not on the stack of every caller. */
  g_autofree TtvHistoryCursor *c = g_new (TtvHistoryCursor, 1);
  ttv_history_cursor_init (c, seq, 0);
  guint64 n_pieces = ttv_history_n_pieces (seq->n_blocks);
  for (guint64 p = 0; p < n_pieces; p++)
    {
      *bad_offset = seq->dir[p].offset;
      /* The directory agrees with its pieces (searches go through both). */
      if (!cursor_piece (c, p) || c->piece[0].start != seq->dir[p].start)
        return FALSE;
      for (guint k = 0; k < c->piece_count; k++)
        {
          guint64 b = p * TTV_HISTORY_PIECE + k;
          *bad_offset = c->piece[k].offset;
          guint64 n = MIN (TTV_HISTORY_BLOCK, seq->n_recs - b * TTV_HISTORY_BLOCK);
          if (c->piece[k].start < last || !ttv_history_cursor_load (c, b) || c->n != n
              || ttv_history_read_bits (c->bits, 0, c->bt, c->limit) != 0)
            return FALSE;
          guint64 time = (guint64) c->time;
          for (guint i = 0; i < c->n; i++)
            {
              guint64 pos = (guint64) i * c->rb, delta;
              guint idx;
              if (c->rb <= 57)
                {
                  guint64 x = ttv_history_load64 (c->bits + (pos >> 3), c->limit) >> (pos & 7);
                  delta = x & c->mt;
                  idx = (guint) ((x >> (c->bt + c->bc)) & c->mi);
                }
              else
                {
                  delta = ttv_history_read_bits (c->bits, pos, c->bt, c->limit);
                  idx = (guint) ttv_history_read_bits (c->bits, pos + c->bt + c->bc, c->bi, c->limit);
                }
              /* No time past TTV_TIME_MAX, indices in the dictionary. */
              if (delta > (guint64) G_MAXINT64 - time || idx >= c->nd)
                return FALSE;
              time += delta;
            }
          for (guint d = 0; d < c->nd; d++)
            if (ttv_history_read_le (c->dcpus + d * c->wp, c->wp) > 0x8000)
              return FALSE;
          last = (gint64) time;
        }
    }
  return TRUE;
}
