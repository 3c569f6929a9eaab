/* ttv-state-history-codec.c: the compact coding of a state history's
 * records (blocks of fixed-width columns with an index of their start
 * times), used by the builder, the summary, the queries and the cache
 * file's checks. */
#include "ttv-state-history-private.h"

#include <string.h>

void
ttv_hist_encoder_init (TtvHistEncoder *e)
{
  memset (e, 0, sizeof *e);
  e->blocks = g_array_new (FALSE, FALSE, sizeof (TtvHistBlock));
}

void
ttv_hist_encoder_clear (TtvHistEncoder *e)
{
  g_free (e->data);
  g_free (e->pending);
  if (e->blocks)
    g_array_unref (e->blocks);
  memset (e, 0, sizeof *e);
}

/* Bytes for values up to @max: 0, 1, 2 or 4. */
static guint
bytes_for (guint64 max)
{
  return max == 0 ? 0 : max <= 0xff ? 1 : max <= 0xffff ? 2 : 4;
}

static guint
bits_for (guint64 max)
{
  guint w = 0;
  while (w < 64 && (max >> w) != 0)
    w++;
  return w;
}

static inline guint8 *
put_le (guint8 *p, guint64 v, guint w)
{
  for (guint k = 0; k < w; k++)
    *p++ = (guint8) (v >> (8 * k));
  return p;
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

static void
code_block (TtvHistEncoder *e)
{
  guint n = e->n_pending;
  if (n == 0)
    return;
  const TtvHistRec *r = e->pending;
  /* The dictionary of (key, aux, CPU), each packed in a word. */
  guint64 dict[TTV_HIST_BLOCK];
  guint8 idx[TTV_HIST_BLOCK];
  guint nd = 0;
  guint64 max_d = 0, max_c = 0, max_a = 0, max_p = 0;
  for (guint i = 0; i < n; i++)
    {
      guint64 cpu = (guint64) (MAX (r[i].cpu, -1) + 1);
      guint64 w = (guint64) (r[i].key & 0xff) | cpu << 8 | (guint64) r[i].aux << 32;
      /* States alternate: the entry of two or one records before first. */
      guint k = nd;
      if (i >= 2 && dict[idx[i - 2]] == w)
        k = idx[i - 2];
      else if (i >= 1 && dict[idx[i - 1]] == w)
        k = idx[i - 1];
      else
        for (k = 0; k < nd && dict[k] != w; k++)
          ;
      if (k == nd)
        {
          dict[nd++] = w;
          max_a = MAX (max_a, r[i].aux);
          max_p = MAX (max_p, cpu);
        }
      idx[i] = (guint8) k;
      if (i > 0)
        max_d = MAX (max_d, (guint64) r[i].start - (guint64) r[i - 1].start);
      max_c = MAX (max_c, r[i].count);
    }
  guint bt = bits_for (max_d), bc = bits_for (max_c), bi = bits_for (nd - 1);
  guint wa = bytes_for (max_a), wp = bytes_for (max_p);
  guint rb = bt + bc + bi;
  gsize n_bits = ((gsize) n * rb + 7) / 8;
  gsize need = TTV_HIST_BLOCK_HEADER + nd * (1 + wa + wp) + n_bits;
  if (e->cap - e->len < need)
    {
      gsize cap = MAX (MAX (e->cap * 2, 256), e->len + need);
      e->data = g_realloc (e->data, cap);
      e->cap = cap;
    }
  TtvHistBlock b = { r[0].start, e->flushed + e->len };
  g_array_append_val (e->blocks, b);
  guint8 *p = e->data + e->len;
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
    p = put_le (p, dict[k] >> 32, wa);
  for (guint k = 0; k < nd; k++)
    p = put_le (p, (dict[k] >> 8) & 0xffffff, wp);
  if (rb <= 57)
    {
      /* A record's bits in one word, gathered in a register and stored a
       * whole word at a time (no load of what was just stored). */
      guint8 tmp[(TTV_HIST_BLOCK * 57 + 7) / 8 + 8];
      guint8 *out = tmp;
      guint64 acc = 0;
      guint nacc = 0;
      for (guint i = 0; i < n; i++)
        {
          guint64 v = (i ? (guint64) r[i].start - (guint64) r[i - 1].start : 0) | (guint64) r[i].count << bt
                      | (guint64) idx[i] << (bt + bc);
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
      memcpy (p, tmp, n_bits);
    }
  else
    {
      memset (p, 0, n_bits);
      for (guint i = 0; i < n; i++)
        {
          guint64 pos = (guint64) i * rb;
          put_bits (p, pos, i ? (guint64) r[i].start - (guint64) r[i - 1].start : 0, bt);
          put_bits (p, pos + bt, r[i].count, bc);
          put_bits (p, pos + bt + bc, idx[i], bi);
        }
    }
  p += n_bits;
  e->len = (gsize) (p - e->data);
  e->n_pending = 0;
}

void
ttv_hist_encoder_push (TtvHistEncoder *e, const TtvHistRec *rec)
{
  /* A record after a partial block would break the index: never done. */
  g_return_if_fail (!e->finished || e->n_recs % TTV_HIST_BLOCK == 0);
  e->finished = FALSE;
  if (e->pending == NULL)
    e->pending = g_new (TtvHistRec, TTV_HIST_BLOCK);
  TtvHistRec *r = &e->pending[e->n_pending];
  *r = *rec;
  if (e->n_recs > 0 && r->start < e->last_start)
    r->start = e->last_start;
  e->last_start = r->start;
  e->n_recs++;
  if (++e->n_pending == TTV_HIST_BLOCK)
    code_block (e);
}

void
ttv_hist_encoder_finish (TtvHistEncoder *e)
{
  code_block (e);
  g_clear_pointer (&e->pending, g_free);
  e->finished = TRUE;
}

void
ttv_hist_encoder_view (const TtvHistEncoder *e, TtvHistSeq *seq)
{
  g_assert (e->n_pending == 0 && e->flushed == 0);
  if (e->data == NULL)
    {
      memset (seq, 0, sizeof *seq);
      return;
    }
  seq->bytes = e->data;
  seq->size = e->len;
  seq->blocks = (const TtvHistBlock *) e->blocks->data;
  seq->n_blocks = e->blocks->len;
  seq->n_recs = e->n_recs;
}

void
ttv_hist_cursor_init (TtvHistCursor *c, const TtvHistSeq *seq, guint64 index)
{
  memset (c, 0, sizeof *c);
  c->seq = seq;
  c->index = MIN (index, seq->n_recs);
  c->block = G_MAXUINT64;
}

gboolean
ttv_hist_cursor_load (TtvHistCursor *c, guint64 b)
{
  const TtvHistSeq *s = c->seq;
  c->block = G_MAXUINT64;
  if (b >= s->n_blocks)
    return FALSE;
  guint64 off = s->blocks[b].offset;
  guint64 end = b + 1 < s->n_blocks ? s->blocks[b + 1].offset : s->size;
  if (off > end || end > s->size || end - off < TTV_HIST_BLOCK_HEADER)
    return FALSE;
  const guint8 *p = s->bytes + off;
  guint n = p[0], bt = p[1], bc = p[2], bi = p[3], nd = p[4], wa = p[5], wp = p[6];
  if (n == 0 || n > TTV_HIST_BLOCK || bt > 64 || bc > 32 || bi > 5 || nd == 0 || nd > n
      || (wa > 2 && wa != 4) || (wp > 2 && wp != 4))
    return FALSE;
  guint rb = bt + bc + bi;
  if (end - off != TTV_HIST_BLOCK_HEADER + (guint64) nd * (1 + wa + wp) + ((guint64) n * rb + 7) / 8)
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
  c->dkeys = p + TTV_HIST_BLOCK_HEADER;
  c->daux = c->dkeys + nd;
  c->dcpus = c->daux + nd * wa;
  c->bits = c->dcpus + nd * wp;
  c->limit = s->bytes + s->size;
  c->time = s->blocks[b].start;
  c->block = b;
  return TRUE;
}

gboolean
ttv_hist_cursor_next (TtvHistCursor *c, TtvHistRec *out)
{
  return ttv_hist_cursor_next_inline (c, out);
}

guint
ttv_hist_cursor_next_block (TtvHistCursor *c, gint64 *starts, guint8 *keys, guint32 *counts)
{
  if (c->index >= c->seq->n_recs)
    return 0;
  guint64 b = c->index / TTV_HIST_BLOCK;
  if (b != c->block && !ttv_hist_cursor_load (c, b))
    return 0;
  guint i0 = (guint) (c->index % TTV_HIST_BLOCK), n = c->n, rb = c->rb, bt = c->bt, bc = c->bc;
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
            guint64 x = ttv_hist_load64 (bits + (pos >> 3), limit) >> (pos & 7);
            delta = x & mt;
            count = (x >> bt) & mc;
            idx = (guint) ((x >> (bt + bc)) & mi);
          }
        else
          {
            delta = ttv_hist_read_bits (bits, pos, bt, limit);
            count = ttv_hist_read_bits (bits, pos + bt, bc, limit);
            idx = (guint) ttv_hist_read_bits (bits, pos + bt + bc, c->bi, limit);
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

gint64
ttv_hist_seq_find (const TtvHistSeq *seq, gint64 t, TtvHistCursor *c, TtvHistRec *rec)
{
  /* The last block starting at or before @t. */
  guint64 lo = 0, hi = seq->n_blocks;
  while (lo < hi)
    {
      guint64 mid = lo + (hi - lo) / 2;
      if (seq->blocks[mid].start <= t)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == 0 || seq->n_recs == 0)
    {
      ttv_hist_cursor_init (c, seq, 0);
      return -1;
    }
  guint64 b = lo - 1;
  ttv_hist_cursor_init (c, seq, b * TTV_HIST_BLOCK);
  if (!ttv_hist_cursor_load (c, b))
    {
      ttv_hist_cursor_init (c, seq, seq->n_recs);
      return -1;
    }
  /* Then the last record of the block at or before @t: the time deltas
   * add up (the first record is at the block's start). */
  guint64 tcur = (guint64) c->time, tprev = tcur;
  guint k = 0;
  for (guint i = 1; i < c->n; i++)
    {
      guint64 pos = (guint64) i * c->rb;
      guint64 delta = c->rb <= 57 ? (ttv_hist_load64 (c->bits + (pos >> 3), c->limit) >> (pos & 7)) & c->mt
                                  : ttv_hist_read_bits (c->bits, pos, c->bt, c->limit);
      if ((guint64) t - tcur < delta)
        break;
      tprev = tcur;
      tcur += delta;
      k = i;
    }
  c->index = b * TTV_HIST_BLOCK + k;
  c->time = (gint64) tprev;
  if (!ttv_hist_cursor_next_inline (c, rec))
    {
      ttv_hist_cursor_init (c, seq, seq->n_recs);
      return -1;
    }
  return (gint64) c->index - 1;
}

gboolean
ttv_hist_seq_validate (const TtvHistSeq *seq, guint64 *bad_offset)
{
  *bad_offset = 0;
  if (seq->n_recs > G_MAXUINT64 - TTV_HIST_BLOCK
      || seq->n_blocks != (seq->n_recs + TTV_HIST_BLOCK - 1) / TTV_HIST_BLOCK)
    return FALSE;
  if (seq->n_recs == 0)
    return seq->size == 0;
  if (seq->blocks[0].offset != 0)
    return FALSE;
  gint64 last = G_MININT64;
  TtvHistCursor c;
  ttv_hist_cursor_init (&c, seq, 0);
  for (guint64 b = 0; b < seq->n_blocks; b++)
    {
      *bad_offset = seq->blocks[b].offset;
      guint64 n = MIN (TTV_HIST_BLOCK, seq->n_recs - b * TTV_HIST_BLOCK);
      if (seq->blocks[b].start < last || !ttv_hist_cursor_load (&c, b) || c.n != n
          || ttv_hist_read_bits (c.bits, 0, c.bt, c.limit) != 0)
        return FALSE;
      for (guint i = 0; i < c.n; i++)
        {
          guint64 pos = (guint64) i * c.rb;
          guint64 delta = ttv_hist_read_bits (c.bits, pos, c.bt, c.limit);
          guint idx = (guint) ttv_hist_read_bits (c.bits, pos + c.bt + c.bc, c.bi, c.limit);
          /* No time past TTV_TIME_MAX, indices in the dictionary. */
          if (delta > (guint64) G_MAXINT64 - (guint64) c.time || idx >= c.nd)
            return FALSE;
          c.time = (gint64) ((guint64) c.time + delta);
        }
      for (guint k = 0; k < c.nd; k++)
        if (ttv_hist_read_le (c.dcpus + k * c.wp, c.wp) > 0x8000)
          return FALSE;
      last = c.time;
    }
  return TRUE;
}
