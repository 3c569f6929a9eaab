/* ttv-analysis-seq.c: the sequences analysis tables are made of (see
 * ttv-analysis-private.h): written block by block while a trace is read,
 * then loaded as chunk summaries with a tree of their bounds and scanned
 * by time.  Used by the table builder and reader and the summaries. */
#include "ttv-analysis-private.h"
#include "ttv-error.h"
#include "ttv-temp-file.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>

/* ---- writing ---- */

static void
bounds_reset (TtvAnalysisBlock *b)
{
  memset (b, 0, sizeof *b);
  b->min_start = b->min_end = G_MAXINT64;
  b->max_start = b->max_end = G_MININT64;
}

static void
bounds_add (TtvAnalysisBlock *b, gint64 start, gint64 end)
{
  b->min_start = MIN (b->min_start, start);
  b->max_start = MAX (b->max_start, start);
  b->min_end = MIN (b->min_end, end);
  b->max_end = MAX (b->max_end, end);
}

static void
bounds_merge (TtvAnalysisBlock *into, const TtvAnalysisBlock *b)
{
  into->min_start = MIN (into->min_start, b->min_start);
  into->max_start = MAX (into->max_start, b->max_start);
  into->min_end = MIN (into->min_end, b->min_end);
  into->max_end = MAX (into->max_end, b->max_end);
}

void
ttv_analysis_seq_writer_init (TtvAnalysisSeqWriter *s, gsize entry_size, TtvHistorySlab *slab)
{
  memset (s, 0, sizeof *s);
  s->entry_size = entry_size;
  s->slab = slab;
  bounds_reset (&s->block);
  bounds_reset (&s->chunk);
  s->chunks = g_array_new (FALSE, FALSE, sizeof (TtvAnalysisBlock));
}

/* The pending entries' and the blocks' arrays go (the slab's stay in it). */
static void
drop_arrays (TtvAnalysisSeqWriter *s)
{
  if (s->slab == NULL)
    {
      g_free (s->pending);
      g_free (s->blocks);
    }
  s->pending = NULL;
  s->blocks = NULL;
  s->pending_cap = s->blocks_cap = 0;
}

void
ttv_analysis_seq_writer_clear (TtvAnalysisSeqWriter *s)
{
  drop_arrays (s);
  if (s->chunks)
    g_array_unref (s->chunks);
  memset (s, 0, sizeof *s);
}

gsize
ttv_analysis_seq_writer_memory (const TtvAnalysisSeqWriter *s)
{
  return sizeof *s + s->pending_cap * s->entry_size + s->blocks_cap * sizeof (TtvAnalysisBlock)
         + (s->chunks ? s->chunks->len * sizeof (TtvAnalysisBlock) : 0);
}

/* @old (@old_size bytes, NULL or from grow) made @new_size bytes long,
 * its bytes kept: by realloc, or a copy in the slab (the old array given
 * back to it, for another series' array of that size). */
static gpointer
grow (const TtvAnalysisSeqWriter *s, gpointer old, gsize old_size, gsize new_size)
{
  if (s->slab == NULL)
    return g_realloc (old, new_size);
  gpointer p = ttv_history_slab_alloc (s->slab, new_size);
  if (old_size > 0)
    {
      memcpy (p, old, old_size);
      ttv_history_slab_give_back (s->slab, old, old_size);
    }
  return p;
}

static void
flush_chunk (TtvAnalysisSeqWriter *s, TtvHistoryWriter *w)
{
  if (s->n_blocks == 0)
    return;
  ttv_history_writer_align (w);
  s->chunk.offset = ttv_history_writer_append (w, s->blocks, s->n_blocks * sizeof (TtvAnalysisBlock));
  s->chunk.n = s->n_blocks;
  g_array_append_val (s->chunks, s->chunk);
  s->n_blocks = 0;
  bounds_reset (&s->chunk);
}

static void
flush_block (TtvAnalysisSeqWriter *s, TtvHistoryWriter *w)
{
  if (s->n_pending == 0)
    return;
  ttv_history_writer_align (w);
  s->block.offset = ttv_history_writer_append (w, s->pending, s->n_pending * s->entry_size);
  s->block.n = s->n_pending;
  if (s->n_blocks == s->blocks_cap)
    {
      /* Grown as needed: most series (a short-lived thread's) stay small. */
      guint cap = MIN (MAX (s->blocks_cap * 2, 4), TTV_ANALYSIS_CHUNK);
      s->blocks = grow (s, s->blocks, s->blocks_cap * sizeof (TtvAnalysisBlock), cap * sizeof (TtvAnalysisBlock));
      s->blocks_cap = cap;
    }
  if (s->n_blocks == 0)
    s->chunk.cum = s->block.cum;
  s->blocks[s->n_blocks++] = s->block;
  bounds_merge (&s->chunk, &s->block);
  s->n_blocks_total++;
  s->n_pending = 0;
  bounds_reset (&s->block);
  if (s->n_blocks == TTV_ANALYSIS_CHUNK)
    flush_chunk (s, w);
}

void
ttv_analysis_seq_writer_add (TtvAnalysisSeqWriter *s, TtvHistoryWriter *w, const void *entry)
{
  if (s->n_pending == s->pending_cap)
    {
      guint cap = MIN (MAX (s->pending_cap * 2, 4), TTV_ANALYSIS_BLOCK);
      s->pending = grow (s, s->pending, s->pending_cap * s->entry_size, cap * s->entry_size);
      s->pending_cap = cap;
    }
  gint64 start = ttv_analysis_record_start (entry), end = ttv_analysis_record_end (entry);
  if (s->n_pending == 0)
    s->block.cum = s->total;
  memcpy (s->pending + s->n_pending * s->entry_size, entry, s->entry_size);
  bounds_add (&s->block, start, end);
  if (end > start)
    s->total = ttv_time_add_saturating (s->total, ttv_time_span_saturating (start, end));
  s->n_entries++;
  if (++s->n_pending == TTV_ANALYSIS_BLOCK)
    flush_block (s, w);
}

void
ttv_analysis_seq_writer_finish (TtvAnalysisSeqWriter *s, TtvHistoryWriter *w, TtvAnalysisSeqHeader *h)
{
  flush_block (s, w);
  flush_chunk (s, w);
  ttv_history_writer_align (w);
  memset (h, 0, sizeof *h);
  h->n_entries = s->n_entries;
  h->n_blocks = s->n_blocks_total;
  h->n_chunks = s->chunks->len;
  h->chunks_offset = ttv_history_writer_append (w, s->chunks->data, s->chunks->len * sizeof (TtvAnalysisBlock));
  h->total = s->total;
  drop_arrays (s);
}

/* ---- reading ---- */

const guint8 *
ttv_analysis_source_get (const TtvAnalysisSource *src, guint64 offset, gsize len, guint8 *buf)
{
  return ttv_history_source_get (src->data, src->fd, src->size, offset, len, buf);
}

void
ttv_analysis_set_read_error (GError **error, const TtvAnalysisSource *src, guint64 offset)
{
  g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_CORRUPT,
               _("%s: cannot read the analysis results at byte %" PRIu64), src->what ? src->what : "-",
               offset);
}

static guint64
next_pow2 (guint64 n)
{
  guint64 p = 1;
  while (p < n)
    p <<= 1;
  return p;
}

/* The @len bytes at @offset for a load, in @buf or @ahead's window.
 * Through the window while the loads go forward and close together (a
 * table's series end one after another at the end of its file, a few KiB
 * apart).  A load that goes back, or further than a quarter of the window
 * past the bytes it holds, is read on its own and the window waits there
 * for the next: loads far apart or out of order cost what they did
 * without it, and a window read serves several loads. */
static const guint8 *
load_get (const TtvAnalysisSource *src, TtvHistoryReadWindow *ahead, guint64 offset, gsize len, guint8 *buf)
{
  if (ahead == NULL || src->data != NULL || len > ahead->cap)
    return ttv_analysis_source_get (src, offset, len, buf);
  if (offset < ahead->offset || offset - ahead->offset > ahead->len + ahead->cap / 4)
    {
      ahead->offset = offset;
      ahead->len = 0;
      return ttv_analysis_source_get (src, offset, len, buf);
    }
  return ttv_history_read_window_get (ahead, src->fd, src->size, offset, len, buf);
}

gboolean
ttv_analysis_seq_load (TtvAnalysisSeq *seq, const TtvAnalysisSource *src, const TtvAnalysisSeqHeader *h,
                       gsize entry_size, TtvHistoryReadWindow *ahead)
{
  memset (seq, 0, sizeof *seq);
  seq->h = *h;
  seq->entry_size = entry_size;
  guint64 max_blocks = h->n_chunks * TTV_ANALYSIS_CHUNK;
  if (h->n_chunks > src->size / sizeof (TtvAnalysisBlock) || h->n_blocks > max_blocks
      || h->n_entries > h->n_blocks * TTV_ANALYSIS_BLOCK
      || (h->n_blocks > 0 && h->n_entries <= (h->n_blocks - 1) * TTV_ANALYSIS_BLOCK)
      || (h->n_chunks > 0 && h->n_blocks <= (h->n_chunks - 1) * TTV_ANALYSIS_CHUNK)
      || (h->n_entries > 0) != (h->n_chunks > 0))
    return FALSE;
  gsize bytes = h->n_chunks * sizeof (TtvAnalysisBlock);
  seq->chunks = g_new (TtvAnalysisBlock, MAX (h->n_chunks, 1));
  if (bytes)
    {
      const guint8 *p = load_get (src, ahead, h->chunks_offset, bytes, (guint8 *) seq->chunks);
      if (p == NULL)
        return FALSE;
      if (p != (const guint8 *) seq->chunks)
        memcpy (seq->chunks, p, bytes);
    }
  for (guint64 i = 0; i < h->n_chunks; i++)
    {
      const TtvAnalysisBlock *c = &seq->chunks[i];
      guint32 want = i + 1 < h->n_chunks ? TTV_ANALYSIS_CHUNK : (guint32) (h->n_blocks - i * TTV_ANALYSIS_CHUNK);
      if (c->n != want || c->offset % 8 != 0 || c->offset > src->size
          || (src->size - c->offset) / sizeof (TtvAnalysisBlock) < c->n)
        return FALSE;
    }
  seq->tree_base = next_pow2 (MAX (h->n_chunks, 1));
  seq->tree_min_start = g_new (gint64, 2 * seq->tree_base);
  seq->tree_max_start = g_new (gint64, 2 * seq->tree_base);
  seq->tree_max_end = g_new (gint64, 2 * seq->tree_base);
  for (guint64 i = 0; i < seq->tree_base; i++)
    {
      guint64 k = seq->tree_base + i;
      gboolean used = i < h->n_chunks;
      seq->tree_min_start[k] = used ? seq->chunks[i].min_start : G_MAXINT64;
      seq->tree_max_start[k] = used ? seq->chunks[i].max_start : G_MININT64;
      seq->tree_max_end[k] = used ? seq->chunks[i].max_end : G_MININT64;
    }
  for (guint64 k = seq->tree_base; k-- > 1;)
    {
      seq->tree_min_start[k] = MIN (seq->tree_min_start[2 * k], seq->tree_min_start[2 * k + 1]);
      seq->tree_max_start[k] = MAX (seq->tree_max_start[2 * k], seq->tree_max_start[2 * k + 1]);
      seq->tree_max_end[k] = MAX (seq->tree_max_end[2 * k], seq->tree_max_end[2 * k + 1]);
    }
  return TRUE;
}

void
ttv_analysis_seq_clear (TtvAnalysisSeq *seq)
{
  g_free (seq->chunks);
  g_free (seq->tree_min_start);
  g_free (seq->tree_max_start);
  g_free (seq->tree_max_end);
  memset (seq, 0, sizeof *seq);
}

static inline gboolean
may_hold (TtvQueryMode mode, gint64 min_start, gint64 max_start, gint64 max_end, TtvTime t0, TtvTime t1)
{
  if (min_start > t1)
    return FALSE;
  return mode == TTV_QUERY_START_IN ? max_start >= t0 : max_end >= t0;
}

/* The block entries of chunk @c of @seq, in @buf (TTV_ANALYSIS_CHUNK). */
static const TtvAnalysisBlock *
read_chunk (const TtvAnalysisSeq *seq, const TtvAnalysisSource *src, guint64 c, TtvAnalysisBlock *buf,
            GError **error)
{
  const TtvAnalysisBlock *ch = &seq->chunks[c];
  const guint8 *p = ttv_analysis_source_get (src, ch->offset, ch->n * sizeof (TtvAnalysisBlock), (guint8 *) buf);
  if (p == NULL)
    {
      ttv_analysis_set_read_error (error, src, ch->offset);
      return NULL;
    }
  return (const TtvAnalysisBlock *) p;
}

/* The entries of block @b (whose index entry is @be), in @buf. */
static const guint8 *
read_block (const TtvAnalysisSeq *seq, const TtvAnalysisSource *src, const TtvAnalysisBlock *be, guint8 *buf,
            GError **error)
{
  const guint8 *p = be->n <= TTV_ANALYSIS_BLOCK
                      ? ttv_analysis_source_get (src, be->offset, be->n * seq->entry_size, buf) : NULL;
  if (p == NULL)
    ttv_analysis_set_read_error (error, src, be->offset);
  return p;
}

/* A scan of every block of a sequence in a file reads them in file order
 * (the summaries' second read of a table just written): through a window
 * of this many bytes, one pread for the dozens of blocks in it (the
 * sequence's blocks lie between the series' blocks), instead of one
 * pread each, whose system call cost more than the bytes read between. */
#define READ_AHEAD_BYTES (256u * 1024)

typedef struct {
  const TtvAnalysisSeq *seq;
  const TtvAnalysisSource *src;
  TtvQueryMode mode;
  TtvTime t0, t1;
  TtvTime min_duration;
  TtvEntryFunc func;
  gpointer data;
  TtvAnalysisBlock blocks[TTV_ANALYSIS_CHUNK];
  guint8 *entries;
  gboolean stopped;
  TtvHistoryReadWindow ahead;   /* .buf NULL: blocks read one by one */
} Scan;

/* The entries of block @be for a scan, in sc->entries or its window. */
static const guint8 *
scan_read_block (Scan *sc, const TtvAnalysisBlock *be, GError **error)
{
  if (sc->ahead.buf == NULL)
    return read_block (sc->seq, sc->src, be, sc->entries, error);
  const guint8 *p = be->n <= TTV_ANALYSIS_BLOCK
                      ? ttv_history_read_window_get (&sc->ahead, sc->src->fd, sc->src->size, be->offset,
                                                     be->n * sc->seq->entry_size, sc->entries)
                      : NULL;
  if (p == NULL)
    ttv_analysis_set_read_error (error, sc->src, be->offset);
  return p;
}

/* Whether bounds from @min_start to @max_end may hold an entry lasting
 * @min_duration: none lasts longer than from the first start to the last
 * end. */
static inline gboolean
may_last (TtvTime min_duration, gint64 min_start, gint64 max_end)
{
  return min_duration <= 0 || ttv_time_span_saturating (min_start, max_end) >= min_duration;
}

/* Scans chunk @c; FALSE on a read error. */
static gboolean
scan_chunk (Scan *sc, guint64 c, GError **error)
{
  const TtvAnalysisBlock *blocks = read_chunk (sc->seq, sc->src, c, sc->blocks, error);
  if (blocks == NULL)
    return FALSE;
  guint n = sc->seq->chunks[c].n;
  for (guint b = 0; b < n && !sc->stopped; b++)
    {
      const TtvAnalysisBlock *be = &blocks[b];
      if (!may_hold (sc->mode, be->min_start, be->max_start, be->max_end, sc->t0, sc->t1)
          || !may_last (sc->min_duration, be->min_start, be->max_end))
        continue;
      TtvAnalysisBlock copy = *be;
      const guint8 *e = scan_read_block (sc, &copy, error);
      if (e == NULL)
        return FALSE;
      guint64 first = (c * TTV_ANALYSIS_CHUNK + b) * TTV_ANALYSIS_BLOCK;
      for (guint i = 0; i < copy.n; i++)
        if (!sc->func (e + i * sc->seq->entry_size, first + i, sc->data))
          {
            sc->stopped = TRUE;
            break;
          }
    }
  return TRUE;
}

gboolean
ttv_analysis_seq_scan (const TtvAnalysisSeq *seq, const TtvAnalysisSource *src, TtvQueryMode mode, TtvTime t0,
                       TtvTime t1, TtvEntryFunc func, gpointer data, GError **error)
{
  return ttv_analysis_seq_scan_lasting (seq, src, mode, t0, t1, 0, func, data, error);
}

gboolean
ttv_analysis_seq_scan_lasting (const TtvAnalysisSeq *seq, const TtvAnalysisSource *src, TtvQueryMode mode,
                               TtvTime t0, TtvTime t1, TtvTime min_duration, TtvEntryFunc func, gpointer data,
                               GError **error)
{
  if (seq->h.n_chunks == 0 || t1 < t0)
    return TRUE;
  Scan sc = { seq, src, mode, t0, t1, min_duration, func, data, { { 0 } }, NULL, FALSE,
              { NULL, READ_AHEAD_BYTES, 0, 0 } };
  sc.entries = g_malloc (TTV_ANALYSIS_BLOCK * seq->entry_size);
  if (src->data == NULL && t0 == G_MININT64 && t1 == G_MAXINT64 && min_duration <= 0)
    sc.ahead.buf = g_malloc (READ_AHEAD_BYTES);
  /* Depth-first, left to right: chunks in file order. */
  guint64 stack[128];
  guint depth = 0;
  gboolean ok = TRUE;
  stack[depth++] = 1;
  while (depth > 0 && ok && !sc.stopped)
    {
      guint64 k = stack[--depth];
      if (!may_hold (mode, seq->tree_min_start[k], seq->tree_max_start[k], seq->tree_max_end[k], t0, t1)
          || !may_last (min_duration, seq->tree_min_start[k], seq->tree_max_end[k]))
        continue;
      if (k >= seq->tree_base)
        {
          if (k - seq->tree_base < seq->h.n_chunks)
            ok = scan_chunk (&sc, k - seq->tree_base, error);
          continue;
        }
      stack[depth++] = 2 * k + 1;
      stack[depth++] = 2 * k;
    }
  g_free (sc.entries);
  g_free (sc.ahead.buf);
  return ok;
}

/* The best entry so far of ttv_analysis_seq_find_last. */
typedef struct {
  const TtvAnalysisSeq *seq;
  const TtvAnalysisSource *src;
  TtvTime t0, t1;
  gboolean found;
  gint64 start, end;           /* of the best entry */
  void *buf;                   /* its bytes */
} FindLast;

/* Whether bounds whose greatest start is @max_start and greatest end
 * @max_end may hold an entry that sorts after the best one. */
static inline gboolean
may_beat (const FindLast *fl, gint64 max_start, gint64 max_end)
{
  return !fl->found || max_start > fl->start || (max_start == fl->start && max_end > fl->end);
}

static gboolean
find_last_in_chunk (FindLast *fl, guint64 c, TtvAnalysisBlock *blocks_buf, guint8 *entries_buf, GError **error)
{
  const TtvAnalysisBlock *blocks = read_chunk (fl->seq, fl->src, c, blocks_buf, error);
  if (blocks == NULL)
    return FALSE;
  gsize size = fl->seq->entry_size;
  for (guint b = fl->seq->chunks[c].n; b-- > 0;)
    {
      TtvAnalysisBlock be = blocks[b];
      if (!may_hold (TTV_QUERY_OVERLAP, be.min_start, be.max_start, be.max_end, fl->t0, fl->t1)
          || !may_beat (fl, be.max_start, be.max_end))
        continue;
      const guint8 *e = read_block (fl->seq, fl->src, &be, entries_buf, error);
      if (e == NULL)
        return FALSE;
      /* From the last: among equal entries the one stored last wins. */
      for (guint i = be.n; i-- > 0;)
        {
          const guint8 *entry = e + i * size;
          gint64 start = ttv_analysis_record_start (entry), end = ttv_analysis_record_end (entry);
          if (start > fl->t1 || end < fl->t0)
            continue;
          if (fl->found && (start < fl->start || (start == fl->start && end <= fl->end)))
            continue;
          fl->found = TRUE;
          fl->start = start;
          fl->end = end;
          memcpy (fl->buf, entry, size);
        }
    }
  return TRUE;
}

gboolean
ttv_analysis_seq_find_last (const TtvAnalysisSeq *seq, const TtvAnalysisSource *src, TtvTime t0, TtvTime t1,
                            void *buf, gboolean *found, GError **error)
{
  FindLast fl = { seq, src, t0, t1, FALSE, 0, 0, buf };
  *found = FALSE;
  if (t1 < t0)
    return TRUE;
  TtvAnalysisBlock blocks[TTV_ANALYSIS_CHUNK];
  g_autofree guint8 *entries = g_malloc (TTV_ANALYSIS_BLOCK * seq->entry_size);
  /* From the last chunk: entries stored in time order (a series') make
   * every earlier chunk unable to beat the first one found. */
  for (guint64 c = seq->h.n_chunks; c-- > 0;)
    {
      const TtvAnalysisBlock *ch = &seq->chunks[c];
      if (!may_hold (TTV_QUERY_OVERLAP, ch->min_start, ch->max_start, ch->max_end, t0, t1)
          || !may_beat (&fl, ch->max_start, ch->max_end))
        continue;
      if (!find_last_in_chunk (&fl, c, blocks, entries, error))
        return FALSE;
    }
  *found = fl.found;
  return TRUE;
}

gboolean
ttv_analysis_seq_read_entry (const TtvAnalysisSeq *seq, const TtvAnalysisSource *src, guint64 index, void *buf,
                             GError **error)
{
  if (index >= seq->h.n_entries)
    {
      ttv_analysis_set_read_error (error, src, 0);
      return FALSE;
    }
  guint64 block = index / TTV_ANALYSIS_BLOCK, chunk = block / TTV_ANALYSIS_CHUNK;
  TtvAnalysisBlock be;
  const TtvAnalysisBlock *ch = &seq->chunks[chunk];
  guint b = (guint) (block % TTV_ANALYSIS_CHUNK);
  guint i = (guint) (index % TTV_ANALYSIS_BLOCK);
  guint64 at = ch->offset + b * sizeof (TtvAnalysisBlock);
  const guint8 *p = b < ch->n ? ttv_analysis_source_get (src, at, sizeof be, (guint8 *) &be) : NULL;
  if (p == NULL)
    {
      ttv_analysis_set_read_error (error, src, at);
      return FALSE;
    }
  memcpy (&be, p, sizeof be);
  at = be.offset + i * seq->entry_size;
  p = i < be.n ? ttv_analysis_source_get (src, at, seq->entry_size, buf) : NULL;
  if (p == NULL)
    {
      ttv_analysis_set_read_error (error, src, at);
      return FALSE;
    }
  if (p != buf)
    memcpy (buf, p, seq->entry_size);
  return TRUE;
}
