/* ttv-history-summary.c: the multi-resolution summary of a history
 * row (levels of bins, each 16 times wider than the one below) and the
 * per-pixel query that uses it, so that any zoom costs O(pixels). */
#include "ttv-history-private.h"

#include <string.h>

/* Rows with this few records are always read exactly. */
#define MIN_RECS_FOR_LEVELS 64
#define MAX_KEYS 16

/* An accumulator of weights by key: up to MAX_KEYS keys, each with the
 * sum of its weights; acc_best() gives the heaviest (ties: the smallest
 * key).  Two kinds, the same code: KeyAcc for the queries (weights in
 * fractions of a pixel, double) and IntAcc for building (integer ns, or
 * covers of the level below, exact). */
#define DEFINE_KEY_ACC(TypeName, prefix, WeightType)                          \
  typedef struct {                                                            \
    guint16 keys[MAX_KEYS];                                                   \
    WeightType weights[MAX_KEYS];                                             \
    guint n;                                                                  \
  } TypeName;                                                                 \
                                                                              \
  static inline void                                                          \
  prefix##_add (TypeName *acc, guint16 key, WeightType weight)                \
  {                                                                           \
    /* Mostly the key added last. */                                          \
    if (acc->n && acc->keys[acc->n - 1] == key)                               \
      {                                                                       \
        acc->weights[acc->n - 1] += weight;                                   \
        return;                                                               \
      }                                                                       \
    for (guint i = 0; i < acc->n; i++)                                        \
      if (acc->keys[i] == key)                                                \
        {                                                                     \
          acc->weights[i] += weight;                                          \
          return;                                                             \
        }                                                                     \
    if (acc->n < MAX_KEYS)                                                    \
      {                                                                       \
        acc->keys[acc->n] = key;                                              \
        acc->weights[acc->n] = weight;                                        \
        acc->n++;                                                             \
      }                                                                       \
  }                                                                           \
                                                                              \
  static guint                                                                \
  prefix##_best (const TypeName *acc)                                         \
  {                                                                           \
    guint best = 0;                                                           \
    for (guint i = 1; i < acc->n; i++)                                        \
      if (acc->weights[i] > acc->weights[best]                                \
          || (acc->weights[i] == acc->weights[best]                           \
              && acc->keys[i] < acc->keys[best]))                             \
        best = i;                                                             \
    return best;                                                              \
  }

DEFINE_KEY_ACC (KeyAcc, acc, double)
DEFINE_KEY_ACC (IntAcc, iacc, guint64)

guint16
ttv_history_count_encode (guint64 n)
{
  if (n < 4096)
    return (guint16) (n < 2048 ? n : (1u << 11) | (n & 0x7ff));
  /* 12 significant bits, rounded to nearest. */
  guint e = 64 - (guint) __builtin_clzll (n) - 11;   /* n >> (e - 1) has 12 bits */
  guint64 m = (n + (G_GUINT64_CONSTANT (1) << (e - 2))) >> (e - 1);
  if (m == 4096)
    {
      m = 2048;
      e++;
    }
  if (e > 31)
    return 0xffff;
  return (guint16) (e << 11 | (m & 0x7ff));
}

typedef struct {
  guint8 key;
  guint8 cover;            /* 0: no state */
  guint64 n_events;
} Bin;

/* The bin of @acc: its cover is the best weight over @width, 1..255. */
static inline Bin
make_bin (const IntAcc *acc, double width, guint64 events)
{
  Bin bin = { 0xff, 0, events };
  if (acc->n)
    {
      guint best = iacc_best (acc);
      double cover = (double) acc->weights[best] * 255.0 / width;
      bin.key = (guint8) acc->keys[best];
      bin.cover = (guint8) CLAMP (cover + 0.5, 1.0, 255.0);
    }
  return bin;
}

guint
ttv_history_summary_plan (const TtvHistorySeq *recs, gint64 origin, gint64 end, TtvHistoryLevel levels[TTV_HISTORY_MAX_LEVELS])
{
  guint64 n = recs->n_recs;
  if (n < MIN_RECS_FOR_LEVELS || recs->n_blocks == 0)
    return 0;
  gint64 rstart = recs->dir[0].start;
  if (end <= rstart || rstart < origin)
    return 0;
  guint64 span = ttv_time_span_ns (rstart, end);
  /* The finest level has about a quarter as many bins as the row has
   * records: finer bins would cost about as much as reading the records
   * (which a query does up to 64 per pixel). */
  guint shift = 0;
  while (shift < 62 && (span >> shift) >= n / 4)
    shift++;
  guint64 first = ttv_time_span_ns (origin, rstart) >> shift;
  guint64 last = ttv_time_span_ns (origin, end - 1) >> shift;
  guint n_levels = 0;
  for (guint k = 0; k < TTV_HISTORY_MAX_LEVELS; k++)
    {
      memset (&levels[k], 0, sizeof levels[k]);
      levels[k].shift = shift;
      levels[k].first_bin = first;
      levels[k].n_bins = last - first + 1;
      n_levels = k + 1;
      if (last - first < 4 || shift + TTV_HISTORY_LEVEL_STEP >= 62)
        break;
      first >>= TTV_HISTORY_LEVEL_STEP;
      last >>= TTV_HISTORY_LEVEL_STEP;
      shift += TTV_HISTORY_LEVEL_STEP;
    }
  return n_levels;
}

/* One level being computed: the bin under way and the bins done, written
 * out a buffer at a time. */
typedef struct {
  const TtvHistoryLevel *level;
  guint64 cur;             /* number of the bin under way */
  IntAcc acc;
  guint64 events;
  guint8 out[4096];
  guint n_out;             /* bytes in @out */
  guint64 written;         /* bytes of bins written */
} LevelOut;

/* Where the bins go: the writer at the levels' offsets, or memory at
 * them (@mem not NULL). */
typedef struct {
  TtvHistoryWriter *w;
  guint8 *mem;
  LevelOut lv[TTV_HISTORY_MAX_LEVELS];
  guint n_levels;
} SummaryOut;

static void
level_flush (SummaryOut *so, LevelOut *lo)
{
  if (lo->n_out == 0)
    return;
  if (so->mem)
    memcpy (so->mem + lo->level->offset + lo->written, lo->out, lo->n_out);
  else
    ttv_history_writer_pwrite (so->w, lo->level->offset + lo->written, lo->out, lo->n_out);
  lo->written += lo->n_out;
  lo->n_out = 0;
}

static void level_add (SummaryOut *so, guint k, guint64 bin_number, const Bin *bin);

/* Level @k's bin under way is complete: out, and into the level above. */
static void
level_emit (SummaryOut *so, guint k)
{
  LevelOut *lo = &so->lv[k];
  double width = k == 0 ? (double) ((guint64) 1 << lo->level->shift) : 255.0 * (1 << TTV_HISTORY_LEVEL_STEP);
  Bin bin = make_bin (&lo->acc, width, lo->events);
  guint16 events = ttv_history_count_encode (bin.n_events);
  guint8 *p = lo->out + lo->n_out;
  p[0] = bin.key;
  p[1] = bin.cover;
  p[2] = (guint8) events;
  p[3] = (guint8) (events >> 8);
  lo->n_out += TTV_HISTORY_BIN_SIZE;
  if (lo->n_out == sizeof lo->out)
    level_flush (so, lo);
  if (k + 1 < so->n_levels)
    level_add (so, k + 1, lo->cur, &bin);
  lo->acc.n = 0;
  lo->events = 0;
  lo->cur++;
}

/* The level above merges 16 bins: the dominant state is the one whose
 * bins' dominant cover adds up to the most; events add up exactly. */
static void
level_add (SummaryOut *so, guint k, guint64 below, const Bin *bin)
{
  LevelOut *lo = &so->lv[k];
  guint64 u = below >> TTV_HISTORY_LEVEL_STEP;
  while (lo->cur < u)
    level_emit (so, k);
  if (bin->cover)
    iacc_add (&lo->acc, bin->key, bin->cover);
  lo->events += bin->n_events;
}

/* The bytes of @level's bins, rounded up to 8. */
static guint64
level_bytes (const TtvHistoryLevel *level)
{
  return (level->n_bins * TTV_HISTORY_BIN_SIZE + 7) & ~(guint64) 7;
}

gsize
ttv_history_summary_layout (TtvHistoryLevel *levels, guint n_levels, guint64 at)
{
  guint64 from = at;
  for (guint k = 0; k < n_levels; k++)
    {
      levels[k].offset = at;
      at += level_bytes (&levels[k]);
    }
  return (gsize) (at - from);
}

void
ttv_history_level_next (const TtvHistoryLevel *level, TtvHistoryLevel *next)
{
  /* ttv_history_summary_plan's step, then the layout's. */
  guint64 first = level->first_bin >> TTV_HISTORY_LEVEL_STEP;
  guint64 last = (level->first_bin + level->n_bins - 1) >> TTV_HISTORY_LEVEL_STEP;
  *next = (TtvHistoryLevel) { level->offset + level_bytes (level), first, last - first + 1,
                              level->shift + TTV_HISTORY_LEVEL_STEP, 0 };
}

void
ttv_history_row_level (const TtvHistoryRowIndex *index, guint k, TtvHistoryLevel *out)
{
  *out = (TtvHistoryLevel) { index->level_offset, index->level_first_bin, index->level_n_bins,
                             index->level_shift, 0 };
  for (guint i = 0; i < k; i++)
    ttv_history_level_next (out, out);
}

static void summarize (SummaryOut *so, const TtvHistorySeq *seq, gint64 origin, gint64 end,
                       const TtvHistoryLevel *levels, guint n_levels);

/* summarize () into the writer @w, or else into @bins. */
static void
summarize_to (TtvHistoryWriter *w, guint8 *bins, const TtvHistorySeq *seq, gint64 origin, gint64 end,
              const TtvHistoryLevel *levels, guint n_levels)
{
  if (n_levels == 0)
    return;
  /* Not zeroed: the output buffers are large, and written before read. */
  SummaryOut *so = g_new (SummaryOut, 1);
  so->w = w;
  so->mem = bins;
  summarize (so, seq, origin, end, levels, n_levels);
  g_free (so);
}

void
ttv_history_summary_write (TtvHistoryWriter *w, const TtvHistorySeq *seq, gint64 origin, gint64 end,
                        const TtvHistoryLevel *levels, guint n_levels)
{
  summarize_to (w, NULL, seq, origin, end, levels, n_levels);
}

void
ttv_history_summary_compute (const TtvHistorySeq *seq, gint64 origin, gint64 end,
                          const TtvHistoryLevel *levels, guint n_levels, guint8 *bins)
{
  summarize_to (NULL, bins, seq, origin, end, levels, n_levels);
}

/* The bins of @levels from one read of @seq, out through @so. */
static void
summarize (SummaryOut *so, const TtvHistorySeq *seq, gint64 origin, gint64 end,
           const TtvHistoryLevel *levels, guint n_levels)
{
  so->n_levels = n_levels;
  for (guint k = 0; k < n_levels; k++)
    {
      LevelOut *lo = &so->lv[k];
      lo->level = &levels[k];
      lo->cur = levels[k].first_bin;
      lo->acc.n = 0;
      lo->events = 0;
      lo->n_out = 0;
      lo->written = 0;
    }
  LevelOut *l0 = &so->lv[0];
  guint shift = levels[0].shift;
  guint64 last = levels[0].first_bin + levels[0].n_bins - 1;
  g_autofree TtvHistoryCursor *c = g_new (TtvHistoryCursor, 1);
  ttv_history_cursor_init (c, seq, 0);
  gint64 starts[TTV_HISTORY_BLOCK + 1];
  guint8 keys[TTV_HISTORY_BLOCK + 1];
  guint32 counts[TTV_HISTORY_BLOCK + 1];
  /* Records a block at a time, the last of a block kept for the next. */
  guint nb = ttv_history_cursor_next_block (c, starts, keys, counts), bi = 0;
  gint64 bin_end = origin + (gint64) ((l0->cur + 1) << shift);   /* of bin l0->cur */
  while (bi < nb && l0->cur <= last)
    {
      if (bi + 1 == nb)
        {
          starts[0] = starts[bi];
          keys[0] = keys[bi];
          counts[0] = counts[bi];
          nb = 1 + ttv_history_cursor_next_block (c, starts + 1, keys + 1, counts + 1);
          bi = 0;
        }
      gboolean have_next = bi + 1 < nb;
      gint64 a = starts[bi], b = have_next ? starts[bi + 1] : end;
      guint16 key = keys[bi];
      if (a < b && b < bin_end && l0->cur <= last)
        {
          /* Most records lie within the bin under way (there are about
           * four a bin), which holds @a: the record before ended there. */
          l0->events += counts[bi];
          iacc_add (&l0->acc, key, ttv_time_span_ns (a, b));
          bi++;
          continue;
        }
      guint64 ja = ttv_time_span_ns (origin, a) >> shift;
      while (l0->cur < ja && l0->cur <= last)
        level_emit (so, 0);
      l0->events += counts[bi];
      while (a < b && l0->cur <= last)
        {
          gint64 be = origin + (gint64) ((l0->cur + 1) << shift);
          gint64 e = MIN (b, be);
          iacc_add (&l0->acc, key, ttv_time_span_ns (a, e));
          a = e;
          if (a == be)
            level_emit (so, 0);
        }
      bin_end = origin + (gint64) ((l0->cur + 1) << shift);
      bi++;
    }
  while (l0->cur <= last)
    level_emit (so, 0);
  /* The levels above end with their last bins, then everything is out. */
  for (guint k = 1; k < n_levels; k++)
    while (so->lv[k].cur <= levels[k].first_bin + levels[k].n_bins - 1)
      level_emit (so, k);
  for (guint k = 0; k < n_levels; k++)
    level_flush (so, &so->lv[k]);
}

/* ---- per-pixel queries ---- */

typedef struct {
  TtvHistoryPixel *out;
  guint width;
  gint64 t0;
  gint64 t1;
  guint64 span;
  guint cur;
  gint64 cur_end;          /* t0 + span * (cur + 1) / width, rounded down */
  guint64 q, rem;          /* span = q * width + rem */
  guint64 frac;            /* rem * (cur + 1) mod width */
  guint64 events;          /* of the current pixel (stored when it is done) */
  KeyAcc acc;
} Pixels;

/* Pixel edges one after the other, without a division per pixel. */
static void
pixels_init (Pixels *px, TtvHistoryPixel *out, guint width, gint64 t0, gint64 t1)
{
  memset (px, 0, sizeof *px);
  px->out = out;
  px->width = width;
  px->t0 = t0;
  px->t1 = t1;
  px->span = (guint64) t1 - (guint64) t0;
  px->q = px->span / width;
  px->rem = px->span % width;
  px->frac = px->rem;
  px->cur_end = width == 1 ? t1 : (gint64) ((guint64) t0 + px->q);
}

static void
pixel_finish (Pixels *px)
{
  TtvHistoryPixel *o = &px->out[px->cur];
  if (px->acc.n)
    {
      o->state = px->acc.keys[acc_best (&px->acc)];
      o->n_states = (guint16) px->acc.n;
    }
  o->n_events = (guint32) MIN (px->events, G_MAXUINT32);
  px->events = 0;
  px->acc.n = 0;
  px->cur++;
  if (px->cur + 1 >= px->width)
    px->cur_end = px->t1;
  else
    {
      px->cur_end = (gint64) ((guint64) px->cur_end + px->q);
      px->frac += px->rem;
      if (px->frac >= px->width)
        {
          px->frac -= px->width;
          px->cur_end++;
        }
    }
}

/* Events at time @t go to the pixel containing it. */
static inline void
pixel_events (Pixels *px, gint64 t, guint64 n)
{
  if (n == 0 || t < px->t0 || t >= px->t1)
    return;
  while (px->cur < px->width && px->cur_end <= t)
    pixel_finish (px);
  if (px->cur < px->width)
    px->events += n;
}

/* [a, b) was in state @key; @scale weighs it (the fraction of a bin). */
static inline void
pixel_cover (Pixels *px, gint64 a, gint64 b, guint16 key, double scale)
{
  a = MAX (a, px->t0);
  b = MIN (b, px->t1);
  while (a < b && px->cur < px->width)
    {
      if (px->cur_end <= a)
        {
          pixel_finish (px);
          continue;
        }
      gint64 e = MIN (b, px->cur_end);
      acc_add (&px->acc, key, (double) (e - a) * scale);
      a = e;
      if (a == px->cur_end)
        pixel_finish (px);
    }
}

guint64
ttv_history_query_pixels (const TtvHistory *h, TtvHistoryRowKind kind, guint row,
                                TtvTime t0, TtvTime t1, guint width, TtvHistoryPixel *out)
{
  return ttv_history_query_pixels_full (h, kind, row, t0, t1, width, out, NULL);
}

guint64
ttv_history_query_pixels_full (const TtvHistory *h, TtvHistoryRowKind kind, guint row,
                            TtvTime t0, TtvTime t1, guint width, TtvHistoryPixel *out,
                            gboolean *exact)
{
  if (exact)
    *exact = TRUE;
  for (guint p = 0; p < width; p++)
    {
      out[p].state = TTV_HISTORY_STATE_NONE;
      out[p].n_states = 0;
      out[p].n_events = 0;
    }
  if (kind >= TTV_HISTORY_ROW_N_KINDS || row >= ttv_history_get_n_rows (h, kind) || width == 0
      || t1 <= t0)
    return 0;
  guint64 ri = h->row_base[kind] + row;
  const TtvHistoryRowInfo *r = &h->infos[ri];
  const TtvHistoryRowIndex *index = &h->index[ri];
  if (r->n_intervals == 0)
    return 0;
  TtvHistorySeq seq;
  ttv_history_row_recs (h, ri, &seq);
  Pixels px;
  pixels_init (&px, out, width, t0, t1);
  guint64 pixel_width = px.span / width;

  TtvHistoryCursor c0, c1;
  TtvHistoryRec rec, rec1;
  gint64 i0 = ttv_history_seq_find (&seq, t0, &c0, &rec);
  gint64 i1 = ttv_history_seq_find (&seq, t1 - 1, &c1, &rec1);
  if (i1 < 0)
    return 0;
  if (i0 < 0 && !ttv_history_cursor_next (&c0, &rec))
    return 0;
  if (i0 < 0)
    i0 = 0;
  guint64 n_in = (guint64) (i1 - i0 + 1);

  /* The level of the widest bins not wider than a pixel. */
  gint level = -1;
  if (index->n_levels > 0 && n_in > 4 * (guint64) width)
    {
      for (guint k = 0; k < index->n_levels && k < TTV_HISTORY_MAX_LEVELS; k++)
        if (((guint64) 1 << (index->level_shift + k * TTV_HISTORY_LEVEL_STEP)) <= pixel_width)
          level = (gint) k;
      if (level < 0 && n_in > 64 * (guint64) width)
        level = 0;
    }

  guint64 cost = 0;
  if (exact)
    *exact = level < 0;
  if (level < 0)
    {
      /* @rec is record i0, @c0 just after it; the next ones a block at a time. */
      gint64 starts[TTV_HISTORY_BLOCK];
      guint8 keys[TTV_HISTORY_BLOCK];
      guint32 counts[TTV_HISTORY_BLOCK];
      guint nb = 0, bi = 0;
      gint64 a = rec.start;
      guint16 key = rec.key;
      guint32 count = rec.count;
      for (guint64 i = (guint64) i0; i <= (guint64) i1 && px.cur < width; i++)
        {
          if (bi == nb)
            {
              nb = ttv_history_cursor_next_block (&c0, starts, keys, counts);
              bi = 0;
            }
          gboolean have_next = bi < nb;
          gint64 b = have_next ? starts[bi] : r->end;
          if (a >= px.t0 && a < b && b < px.cur_end)
            {
              /* Within the current pixel (it holds @a: the record before
               * ended there). */
              px.events += count;
              acc_add (&px.acc, key, (double) (b - a));
            }
          else
            {
              pixel_events (&px, a, count);
              pixel_cover (&px, a, b, key, 1.0);
            }
          cost++;
          if (!have_next)
            break;
          a = starts[bi];
          key = keys[bi];
          count = counts[bi];
          bi++;
        }
    }
  else
    {
      TtvHistoryLevel level_k;
      ttv_history_row_level (index, (guint) level, &level_k);
      const TtvHistoryLevel *lv = &level_k;
      guint shift = lv->shift;
      guint64 first = lv->first_bin, n_bins = lv->n_bins;
      gint64 origin = h->header.origin;
      guint64 j0 = t0 > origin ? (guint64) (t0 - origin) >> shift : 0;
      guint64 j1 = (guint64) (t1 - 1 - origin) >> shift;
      j0 = MAX (j0, first);
      /* Bins a window at a time (read from the file into the window of
       * @c1, done with, or in memory). */
      const guint8 *bins = NULL;
      guint64 bins_from = 0, bins_n = 0;
      for (guint64 j = j0; j <= j1 && j - first < n_bins && px.cur < width; j++)
        {
          if (j - first >= bins_from + bins_n || bins == NULL)
            {
              bins_from = j - first;
              bins_n = MIN (n_bins - bins_from, (guint64) TTV_HISTORY_WINDOW / TTV_HISTORY_BIN_SIZE);
              bins = ttv_history_source_get (h->data, h->fd, h->size, lv->offset + bins_from * TTV_HISTORY_BIN_SIZE,
                                          bins_n * TTV_HISTORY_BIN_SIZE, c1.win);
              if (bins == NULL)
                break;
            }
          const guint8 *bin = bins + (j - first - bins_from) * TTV_HISTORY_BIN_SIZE;
          guint64 events = ttv_history_count_decode ((guint16) (bin[2] | bin[3] << 8));
          gint64 a = origin + (gint64) (j << shift), b = origin + (gint64) ((j + 1) << shift);
          pixel_events (&px, a, events);
          if (bin[1])
            pixel_cover (&px, a, b, bin[0], bin[1] / 255.0);
          cost++;
        }
    }
  while (px.cur < width)
    pixel_finish (&px);
  return cost;
}
