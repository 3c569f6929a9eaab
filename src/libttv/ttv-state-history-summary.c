/* ttv-state-history-summary.c: the multi-resolution summary of a history
 * row (levels of bins, each 16 times wider than the one below) and the
 * per-pixel query that uses it, so that any zoom costs O(pixels). */
#include "ttv-state-history-private.h"

#include <string.h>

/* Rows with this few records are always read exactly. */
#define MIN_RECS_FOR_LEVELS 64
#define MAX_KEYS 16

typedef struct {
  guint16 keys[MAX_KEYS];
  double weights[MAX_KEYS];
  guint n;
} KeyAcc;

static inline void
acc_add (KeyAcc *acc, guint16 key, double weight)
{
  for (guint i = 0; i < acc->n; i++)
    if (acc->keys[i] == key)
      {
        acc->weights[i] += weight;
        return;
      }
  if (acc->n < MAX_KEYS)
    {
      acc->keys[acc->n] = key;
      acc->weights[acc->n] = weight;
      acc->n++;
    }
}

/* The key with the largest weight (ties: the smallest key). */
static guint
acc_best (const KeyAcc *acc)
{
  guint best = 0;
  for (guint i = 1; i < acc->n; i++)
    if (acc->weights[i] > acc->weights[best]
        || (acc->weights[i] == acc->weights[best] && acc->keys[i] < acc->keys[best]))
      best = i;
  return best;
}

static void
build_level (GArray *bins, const TtvHistRec *recs, guint64 n, gint64 origin, gint64 end, guint shift,
             guint64 first, guint64 last)
{
  KeyAcc acc = { { 0 }, { 0 }, 0 };
  guint64 events = 0;
  guint64 cur = first;
  double width = (double) ((guint64) 1 << shift);
  for (guint64 i = 0; i < n && cur <= last; i++)
    {
      gint64 a = recs[i].start, b = i + 1 < n ? recs[i + 1].start : end;
      guint16 key = TTV_HIST_REC_KEY (recs[i].state);
      guint64 ja = (guint64) (a - origin) >> shift;
      while (cur < ja && cur <= last)
        {
          TtvHistBin bin = { acc.n ? acc.keys[acc_best (&acc)] : TTV_HISTORY_STATE_NONE,
                             acc.n ? (guint16) MIN (65535.0, acc.weights[acc_best (&acc)] * 65535.0 / width) : 0,
                             (guint32) MIN (events, G_MAXUINT32) };
          g_array_append_val (bins, bin);
          acc.n = 0;
          events = 0;
          cur++;
        }
      events += TTV_HIST_REC_COUNT (recs[i].state);
      while (a < b && cur <= last)
        {
          gint64 be = origin + (gint64) ((cur + 1) << shift);
          gint64 e = MIN (b, be);
          acc_add (&acc, key, (double) (e - a));
          a = e;
          if (a == be)
            {
              guint best = acc_best (&acc);
              TtvHistBin bin = { acc.keys[best], (guint16) MIN (65535.0, acc.weights[best] * 65535.0 / width),
                                 (guint32) MIN (events, G_MAXUINT32) };
              g_array_append_val (bins, bin);
              acc.n = 0;
              events = 0;
              cur++;
            }
        }
    }
  while (cur <= last)
    {
      TtvHistBin bin = { TTV_HISTORY_STATE_NONE, 0, (guint32) MIN (events, G_MAXUINT32) };
      if (acc.n)
        {
          guint best = acc_best (&acc);
          bin.key = acc.keys[best];
          bin.cover = (guint16) MIN (65535.0, acc.weights[best] * 65535.0 / width);
        }
      g_array_append_val (bins, bin);
      acc.n = 0;
      events = 0;
      cur++;
    }
}

void
ttv_hist_summary_write (TtvHistWriter *w, TtvHistRow *row, const TtvHistRec *recs, guint64 n,
                        gint64 origin, gint64 end)
{
  row->n_levels = 0;
  if (n < MIN_RECS_FOR_LEVELS || end <= recs[0].start || recs[0].start < origin)
    return;
  guint64 span = (guint64) (end - recs[0].start);
  /* The finest level has about a quarter as many bins as the row has
   * records: finer bins would cost about as much as reading the records
   * (which a query does up to 64 per pixel). */
  guint shift = 0;
  while (shift < 62 && (span >> shift) >= n / 4)
    shift++;
  GArray *bins = g_array_new (FALSE, FALSE, sizeof (TtvHistBin));
  GArray *upper = g_array_new (FALSE, FALSE, sizeof (TtvHistBin));
  guint64 first = (guint64) (recs[0].start - origin) >> shift;
  guint64 last = (guint64) (end - 1 - origin) >> shift;
  build_level (bins, recs, n, origin, end, shift, first, last);
  for (guint k = 0; k < TTV_HIST_MAX_LEVELS; k++)
    {
      ttv_hist_writer_align (w);
      row->level_shift[k] = shift;
      row->level_first_bin[k] = first;
      row->level_offset[k] = w->offset;
      row->level_n_bins[k] = bins->len;
      ttv_hist_writer_put (w, bins->data, bins->len * sizeof (TtvHistBin));
      row->n_levels = k + 1;
      if (last - first < 4 || shift + TTV_HIST_LEVEL_STEP >= 62)
        break;
      /* The next level merges 16 bins of this one: the dominant state is
       * the one whose bins' dominant cover adds up to the most. */
      guint64 ufirst = first >> TTV_HIST_LEVEL_STEP, ulast = last >> TTV_HIST_LEVEL_STEP;
      g_array_set_size (upper, 0);
      guint64 j = 0;
      for (guint64 u = ufirst; u <= ulast; u++)
        {
          KeyAcc acc = { { 0 }, { 0 }, 0 };
          guint64 events = 0;
          for (; j < bins->len && ((first + j) >> TTV_HIST_LEVEL_STEP) == u; j++)
            {
              const TtvHistBin *c = &g_array_index (bins, TtvHistBin, j);
              if (c->key != TTV_HISTORY_STATE_NONE)
                acc_add (&acc, c->key, c->cover);
              events += c->n_events;
            }
          TtvHistBin bin = { TTV_HISTORY_STATE_NONE, 0, (guint32) MIN (events, G_MAXUINT32) };
          if (acc.n)
            {
              guint best = acc_best (&acc);
              bin.key = acc.keys[best];
              bin.cover = (guint16) MIN (65535.0, acc.weights[best] / (1 << TTV_HIST_LEVEL_STEP));
            }
          g_array_append_val (upper, bin);
        }
      GArray *tmp = bins;
      bins = upper;
      upper = tmp;
      first = ufirst;
      last = ulast;
      shift += TTV_HIST_LEVEL_STEP;
    }
  g_array_unref (upper);
  g_array_unref (bins);
}

/* ---- per-pixel queries ---- */

typedef struct {
  TtvHistoryPixel *out;
  guint width;
  gint64 t0;
  gint64 t1;
  guint64 span;
  guint cur;
  gint64 cur_end;
  KeyAcc acc;
} Pixels;

static inline gint64
pixel_edge (const Pixels *px, guint p)
{
  guint64 q = px->span / px->width, r = px->span % px->width;
  return (gint64) ((guint64) px->t0 + q * p + r * p / px->width);
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
  px->acc.n = 0;
  px->cur++;
  px->cur_end = px->cur < px->width ? pixel_edge (px, px->cur + 1) : px->t1;
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
    px->out[px->cur].n_events = (guint32) MIN ((guint64) px->out[px->cur].n_events + n, G_MAXUINT32);
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

static gint64
first_rec (const TtvHistRec *recs, guint64 n, gint64 t)
{
  guint64 lo = 0, hi = n;
  while (lo < hi)
    {
      guint64 mid = lo + (hi - lo) / 2;
      if (recs[mid].start <= t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return (gint64) lo - 1;
}

guint64
ttv_state_history_query_pixels (const TtvStateHistory *h, TtvHistoryRowKind kind, guint row,
                                TtvTime t0, TtvTime t1, guint width, TtvHistoryPixel *out)
{
  return ttv_hist_query_pixels_full (h, kind, row, t0, t1, width, out, NULL);
}

guint64
ttv_hist_query_pixels_full (const TtvStateHistory *h, TtvHistoryRowKind kind, guint row,
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
  if (kind >= TTV_HISTORY_ROW_N_KINDS || row >= ttv_state_history_get_n_rows (h, kind) || width == 0
      || t1 <= t0)
    return 0;
  const TtvHistRow *r = &h->rows[h->row_base[kind] + row];
  if (r->n_recs == 0)
    return 0;
  const TtvHistRec *recs = (const TtvHistRec *) (h->data + r->recs_offset);
  Pixels px = { out, width, t0, t1, (guint64) t1 - (guint64) t0, 0, 0, { { 0 }, { 0 }, 0 } };
  px.cur_end = pixel_edge (&px, 1);
  guint64 pixel_width = px.span / width;

  gint64 i0 = first_rec (recs, r->n_recs, t0);
  gint64 i1 = first_rec (recs, r->n_recs, t1 - 1);
  if (i1 < 0)
    return 0;
  if (i0 < 0)
    i0 = 0;
  guint64 n_in = (guint64) (i1 - i0 + 1);

  /* The level of the widest bins not wider than a pixel. */
  gint level = -1;
  if (r->n_levels > 0 && n_in > 4 * (guint64) width)
    {
      for (guint k = 0; k < r->n_levels && k < TTV_HIST_MAX_LEVELS; k++)
        if (((guint64) 1 << r->level_shift[k]) <= pixel_width)
          level = (gint) k;
      if (level < 0 && n_in > 64 * (guint64) width)
        level = 0;
    }

  guint64 cost = 0;
  if (exact)
    *exact = level < 0;
  if (level < 0)
    {
      for (guint64 i = (guint64) i0; i <= (guint64) i1 && px.cur < width; i++)
        {
          gint64 a = recs[i].start, b = i + 1 < r->n_recs ? recs[i + 1].start : r->end;
          pixel_events (&px, a, TTV_HIST_REC_COUNT (recs[i].state));
          pixel_cover (&px, a, b, TTV_HIST_REC_KEY (recs[i].state), 1.0);
          cost++;
        }
    }
  else
    {
      guint shift = r->level_shift[level];
      const TtvHistBin *bins = (const TtvHistBin *) (h->data + r->level_offset[level]);
      guint64 first = r->level_first_bin[level], n_bins = r->level_n_bins[level];
      gint64 origin = h->header->origin;
      guint64 j0 = t0 > origin ? (guint64) (t0 - origin) >> shift : 0;
      guint64 j1 = (guint64) (t1 - 1 - origin) >> shift;
      j0 = MAX (j0, first);
      for (guint64 j = j0; j <= j1 && j - first < n_bins && px.cur < width; j++)
        {
          const TtvHistBin *bin = &bins[j - first];
          gint64 a = origin + (gint64) (j << shift), b = origin + (gint64) ((j + 1) << shift);
          pixel_events (&px, a, bin->n_events);
          if (bin->key != TTV_HISTORY_STATE_NONE)
            pixel_cover (&px, a, b, bin->key, bin->cover / 65535.0);
          cost++;
        }
    }
  while (px.cur < width)
    pixel_finish (&px);
  return cost;
}
