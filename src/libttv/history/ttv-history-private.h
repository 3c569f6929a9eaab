/* ttv-history-private.h: the compact representation of a state
 * history, the same in memory and in its cache file, shared by the builder
 * (ttv-history-builder.c), the writer (-writer.c), the coding of
 * records (-codec.c), the summary (-summary.c), the cache (-cache.c), the
 * queries (ttv-history.c) and the tests. */
#pragma once

#include "ttv-history.h"

#include <stdio.h>
#include <string.h>

G_BEGIN_DECLS

/* A record: one interval start (or one mark), decoded.  Process rows keep
 * their CPU (-1 unknown); an interval with more than TTV_HISTORY_MAX_COUNT
 * events is split into records of equal state.  @aux: see
 * TtvHistoryInterval (syscalls: a string index).  Marks: @key is the
 * TtvHistoryMarkKind, @aux the other pid (exec: string index of the name). */
typedef struct {
  gint64 start;
  guint16 key;             /* visual state, 8 bits */
  gint16 cpu;
  guint32 aux;
  guint32 count;
} TtvHistoryRec;

#define TTV_HISTORY_MAX_COUNT 0xfffu

/* A record waiting in its encoder to be coded (TtvHistoryEncoder.pending):
 * its key, CPU + 1 (0: unknown) and aux in one word, as the block's
 * dictionary holds them, so that the builder makes it from a row's state
 * word and the coder reads it without either splitting it. */
typedef struct {
  gint64 start;
  guint64 word;            /* key (8 bits) | (CPU + 1) << 8 | aux << 32 */
  guint32 count;
} TtvHistoryPending;

/* The word of a record's (@key, @cpu, @aux). */
static inline guint64
ttv_history_pending_word (guint key, gint cpu, guint32 aux)
{
  guint64 cpu1 = cpu < 0 ? 0 : (guint64) cpu + 1;   /* -1, unknown: 0 */
  return (guint64) (key & 0xff) | cpu1 << 8 | (guint64) aux << 32;
}

/* Records are coded in blocks of TTV_HISTORY_BLOCK.  A block holds a
 * dictionary of its distinct (key, aux, CPU) and, per record, bit-packed at
 * fixed widths: the time since the record before (0 for the first), the
 * event count and the dictionary index.  Reading a record costs a few loads
 * and shifts, and no data-dependent branch.
 *   7 header bytes: n (records, 1-TTV_HISTORY_BLOCK), bits of the time
 *   delta (0-64), of the count (0-32), of the index (0-5), dictionary
 *   entries (1-n), bytes of its aux values and CPUs + 1 (0, 1, 2 or 4);
 *   the dictionary by columns: keys (a byte each), aux, CPUs + 1, all
 *   little-endian; then the records' bits, from bit 0 of the first byte.
 *
 * Blocks are written out while the trace is read, so the blocks of a row
 * lie in runs between other rows' blocks.  Each block has an index entry
 * (its first record's start time and its offset in the representation);
 * entries are grouped in pieces of TTV_HISTORY_PIECE, written out as they
 * fill, and a row's directory lists its pieces (first start, offset).
 * Finding the record at a time costs a binary search over the directory
 * (in memory), one over a piece, then at most TTV_HISTORY_BLOCK additions,
 * and reads two small places of the file whatever the history's size.
 *
 * A history in a file is read with pread into the cursor's buffers, not
 * mapped: mapped page-cache folios (up to hundreds of KiB each) would
 * count whole in the viewer's memory for each place a view touches. */
#define TTV_HISTORY_BLOCK 32
#define TTV_HISTORY_BLOCK_HEADER 7
#define TTV_HISTORY_PIECE 128

typedef struct {
  gint64 start;            /* of the block's (or the piece's first block's) first record */
  guint64 offset;          /* of its first byte in the representation */
} TtvHistoryBlock;

/* A coded sequence of records (a row's intervals or its marks). */
typedef struct {
  const guint8 *data;      /* the whole representation in memory (weak), or NULL: */
  int fd;                  /* read from this file, */
  const guint8 *unwritten; /* but the bytes from @unwritten_from on from here (a
                            * writer's buffer not yet written out, weak), or NULL */
  guint64 unwritten_from;
  guint64 size;            /* of the representation */
  const TtvHistoryBlock *dir; /* one entry per piece, in memory (weak) */
  guint64 n_blocks;        /* (n_recs + TTV_HISTORY_BLOCK - 1) / TTV_HISTORY_BLOCK */
  guint64 n_recs;
} TtvHistorySeq;

static inline guint64
ttv_history_n_blocks (guint64 n_recs)
{
  return n_recs / TTV_HISTORY_BLOCK + (n_recs % TTV_HISTORY_BLOCK != 0);
}

static inline guint64
ttv_history_n_pieces (guint64 n_blocks)
{
  return n_blocks / TTV_HISTORY_PIECE + (n_blocks % TTV_HISTORY_PIECE != 0);
}

/* Bytes a cursor reads from a file at a time: a row's blocks lie in runs. */
#define TTV_HISTORY_WINDOW 16384
/* The most bytes a block takes: its header, a dictionary entry per record
 * (key, aux and cpu of at most 4 bytes each) and records of at most
 * 64 + 32 + 5 bits (the bounds ttv_history_cursor_load () checks). */
#define TTV_HISTORY_BLOCK_MAX_BYTES \
  (TTV_HISTORY_BLOCK_HEADER + TTV_HISTORY_BLOCK * 9 + (TTV_HISTORY_BLOCK * 101 + 7) / 8)

/* Reading, forward from any record. */
typedef struct {
  const TtvHistorySeq *seq;   /* weak */
  guint64 index;           /* of the next record */
  guint64 block;           /* the block loaded, or G_MAXUINT64 */
  gint64 time;             /* start of the record before the next, in the block */
  guint n;                 /* the block's records, ... */
  guint bt, bc, bi, rb;    /* bits of its fields, and of a record */
  guint64 mt, mc, mi;      /* masks of the fields */
  guint nd, wa, wp;        /* its dictionary */
  const guint8 *dkeys, *daux, *dcpus, *bits;
  const guint8 *limit;     /* end of the bytes readable after them */
  guint64 n_reads;         /* reads from the file, and their bytes */
  guint64 read_bytes;
  const TtvHistoryBlock *piece; /* the piece loaded: in the data or @piece_buf */
  guint64 piece_no;        /* its number + 1, 0: none */
  guint piece_count;
  guint64 win_off;         /* what @win holds of the file */
  gsize win_len;
  /* Buffers for a file (not cleared by init). */
  TtvHistoryBlock piece_buf[TTV_HISTORY_PIECE];
  guint8 win[TTV_HISTORY_WINDOW];
} TtvHistoryCursor;

/* ---- writing the representation (ttv-history-writer.c) ---- */

/* Appends go to memory or to a file (through a buffer); regions reserved
 * ahead are filled later at their offset. */
typedef struct {
  GByteArray *bytes;       /* owned: in memory, or NULL */
  int fd;                  /* or a file, -1 */
  char *tmp_path;          /* a named temporary file to rename, or NULL */
  guint64 offset;          /* where the next append goes */
  guint8 *buf;             /* owned: appends not written to the file yet */
  gsize len;
  guint64 spill_limit;     /* in memory beyond this: go on in a file (0: never) */
  char *spill_dir;         /* owned: where that file goes */
  gboolean failed;
  int err;                 /* errno of the first failure */
  gsize header_size;       /* bytes the checksum skips (0: a state history's header);
                            * the analyses' files (analysis/) set their own */
  struct _TtvHistoryRunningHash *running;  /* owned: the checksum as the bytes go out, or NULL */
} TtvHistoryWriter;

void     ttv_history_writer_init_memory (TtvHistoryWriter *w, guint64 spill_limit, const char *spill_dir);
/* A new file in @dir: unlinked if @anonymous, else to be committed. */
gboolean ttv_history_writer_init_file (TtvHistoryWriter *w, const char *dir, gboolean anonymous, GError **error);
void     ttv_history_writer_clear (TtvHistoryWriter *w);
/* Returns the offset of what was appended. */
guint64  ttv_history_writer_append (TtvHistoryWriter *w, const void *data, gsize size);
void     ttv_history_writer_align (TtvHistoryWriter *w);
/* Where ttv_history_writer_append_strings () put a table of strings. */
typedef struct {
  guint64 strings_offset;  /* the strings, NUL-terminated, back to back */
  guint64 strings_size;
  guint64 index_offset;    /* 8-aligned: each string's guint64 offset from the first */
} TtvHistoryStringTable;
/* Appends @strings (of char *) and their index, as both the history and
 * the analysis files keep their names. */
TtvHistoryStringTable ttv_history_writer_append_strings (TtvHistoryWriter *w, const GPtrArray *strings);
/* Returns the offset of @size bytes (zeros) appended, to be written with pwrite. */
guint64  ttv_history_writer_reserve (TtvHistoryWriter *w, gsize size);
/* Writes @data at @offset, before the end: in the buffer when it waits
 * there.  Several threads may write at once only after a flush, each to a
 * region of its own. */
void     ttv_history_writer_pwrite (TtvHistoryWriter *w, guint64 offset, const void *data, gsize size);
gboolean ttv_history_writer_flush (TtvHistoryWriter *w);
/* The checksum of the bytes after the header (TtvHistoryHeader.checksum). */
guint64  ttv_history_writer_checksum (TtvHistoryWriter *w);
/* Has the checksum computed as the bytes go to the file, not read back
 * after: for a file appended to in order, only its header (header_size,
 * set before) written again.  Bytes written out of order make the
 * checksum read back the file as without. */
void     ttv_history_writer_hash_as_written (TtvHistoryWriter *w);
/* The bytes from here on (after a flush) are left to the checksum to read
 * back: for regions filled in place from several threads (the history's
 * summaries), which would otherwise make it read back the whole file. */
void     ttv_history_writer_hash_stop (TtvHistoryWriter *w);
/* Gives the file the name @path atomically (a committed, named file). */
gboolean ttv_history_writer_commit (TtvHistoryWriter *w, const char *path, GError **error);
/* The error of a failed writer, naming @what. */
void     ttv_history_writer_set_error (TtvHistoryWriter *w, const char *what, GError **error);

/* A fast 64-bit hash (4 lanes of multiply-rotate over 32-byte stripes),
 * enough to tell a damaged cache file, at memory speed. */
typedef struct {
  guint64 v[4];
  guint8 tail[32];
  gsize tail_len;
  guint64 total;
} TtvHistoryHasher;

void     ttv_history_hasher_init (TtvHistoryHasher *s);
void     ttv_history_hasher_update (TtvHistoryHasher *s, const guint8 *data, gsize size);
guint64  ttv_history_hasher_finish (const TtvHistoryHasher *s);
guint64  ttv_history_hash (const guint8 *data, gsize size);
/* The checksum of the bytes [@from, @size) of the file @fd, read a MiB
 * at a time, into *@sum; FALSE when one cannot be read, the offset where
 * reading stopped in *@bad_at. */
gboolean ttv_history_hash_file (int fd, guint64 from, guint64 size, guint64 *sum, guint64 *bad_at);

/* ---- the builder's long-lived small blocks (ttv-history-slab.c) ---- */

/* Blocks carved from chunks (a large one in a chunk of its own), never
 * freed one by one: all go at once with the slab.  The chunks grow from
 * TTV_HISTORY_SLAB_FIRST_CHUNK to TTV_HISTORY_SLAB_CHUNK bytes, those of
 * half a megabyte and more in huge pages (ttv-large-buffer.h), so that a
 * small slab stays small and a large one takes few page faults.  One
 * thread only. */
typedef struct {
  GArray *chunks;          /* owned, of TtvHistorySlabChunk (owned) */
  guint8 *next;            /* the free part of the current chunk */
  gsize left;
  gsize size;              /* bytes of the chunks */
  gsize chunk_size;        /* of the next chunk */
  GArray *free_lists;      /* owned, NULL until a block is given back: of TtvHistorySlabFreeList */
} TtvHistorySlab;

#define TTV_HISTORY_SLAB_FIRST_CHUNK ((gsize) 256 << 10)
#define TTV_HISTORY_SLAB_CHUNK ((gsize) 1 << 20)

void     ttv_history_slab_init (TtvHistorySlab *s);
/* @size zeroed bytes, 16-aligned. */
gpointer ttv_history_slab_alloc0 (TtvHistorySlab *s, gsize size);
/* The same, its bytes undefined. */
gpointer ttv_history_slab_alloc (TtvHistorySlab *s, gsize size);
/* Block @p of @size bytes is no longer used: the next block of that size
 * taken from the slab may be it (arrays that grow by doubling give back
 * the smaller ones, which other arrays take). */
void     ttv_history_slab_give_back (TtvHistorySlab *s, gpointer p, gsize size);
/* Bytes of the chunks taken. */
gsize    ttv_history_slab_size (const TtvHistorySlab *s);
void     ttv_history_slab_clear (TtvHistorySlab *s);

/* ---- coding records (ttv-history-records.c) ---- */

/* Records gather into a block, coded when full; coded blocks gather in
 * @buf until written out, their index entries in the current piece (the
 * last @n_unplaced with offsets relative to @buf).  A full piece is
 * written out after the blocks it indexes.  When a second thread codes
 * (ttv-history-coding-thread.c), the reading thread owns the first group of
 * fields (records pending), the coding thread the others. */
typedef struct {
  TtvHistoryPending *pending; /* owned, @pending_cap records, or NULL */
  guint n_pending;
  guint pending_cap;       /* never more than TTV_HISTORY_BLOCK */
  guint64 n_recs;          /* pushed, coded or not */
  gint64 last_start;       /* of the last record pushed; G_MININT64 before the first */
  gboolean finished;       /* no more records: everything written out */
  /* The two groups a cache line apart at least, so that the coding thread's
   * writes (a block at a time) do not take the line of the fields the
   * reading thread writes at every record from its cache. */
  guint8 apart[64];
  /* Coding. */
  gboolean listed;         /* in the coder's list of encoders holding bytes, */
  guint listed_at;         /* there */
  guint16 states_seen;     /* of the records coded: TtvHistoryRowInfo.states_seen */
  guint8 *buf;             /* owned: coded blocks not written yet */
  gsize len;
  gsize cap;
  TtvHistoryBlock *piece;     /* owned: @piece_cap entries (up to TTV_HISTORY_PIECE), or NULL */
  guint n_piece;
  guint piece_cap;
  guint n_unplaced;
  /* The directory: most rows have one piece, kept here rather than in
   * small blocks of the heap that would outlive the build's other
   * temporaries (ttv-history-slab.c says why that matters). */
  TtvHistoryBlock dir_first;
  TtvHistoryBlock *dir;       /* owned: the whole directory once it has two pieces, or NULL */
  guint n_dir;
  guint dir_cap;           /* of @dir */
} TtvHistoryEncoder;

/* The directory of @e's records: its one piece's entry in place, else
 * its array. */
static inline const TtvHistoryBlock *
ttv_history_encoder_dir (const TtvHistoryEncoder *e)
{
  return e->dir ? e->dir : &e->dir_first;
}

void     ttv_history_encoder_init (TtvHistoryEncoder *e);
void     ttv_history_encoder_clear (TtvHistoryEncoder *e);
/* Codes @n records (a block) after the ones coded; the pending ones. */
void     ttv_history_encoder_code (TtvHistoryEncoder *e, TtvHistoryWriter *w, const TtvHistoryPending *recs,
                                   guint n);
void     ttv_history_encoder_code_block (TtvHistoryEncoder *e, TtvHistoryWriter *w);
/* Makes room for more pending records. */
void     ttv_history_encoder_grow (TtvHistoryEncoder *e);
/* After the last block is coded: the partial piece written out, the
 * coding buffers freed (the coding side of finish). */
void     ttv_history_encoder_close (TtvHistoryEncoder *e, TtvHistoryWriter *w);

/* Adds the record from @start of @word (ttv_history_pending_word) with
 * @count events to the pending records; TRUE when they make a block, to be
 * coded before the next one is added.  Starts must not decrease (an
 * earlier one is taken as the last).  Inline: every state change of a row
 * comes here. */
static inline gboolean
ttv_history_encoder_add_word (TtvHistoryEncoder *e, gint64 start, guint64 word, guint32 count)
{
  if (G_UNLIKELY (e->n_pending == e->pending_cap))
    {
      ttv_history_encoder_grow (e);
      if (e->n_pending == e->pending_cap)
        return FALSE;   /* finished: nothing may follow */
    }
  /* Before the first record last_start is G_MININT64: no test of n_recs. */
  start = MAX (start, e->last_start);
  e->pending[e->n_pending] = (TtvHistoryPending) { start, word, count };
  e->last_start = start;
  e->n_recs++;
  return ++e->n_pending == TTV_HISTORY_BLOCK;
}

/* ttv_history_encoder_add_word () of @rec. */
static inline gboolean
ttv_history_encoder_add (TtvHistoryEncoder *e, const TtvHistoryRec *rec)
{
  return ttv_history_encoder_add_word (e, rec->start, ttv_history_pending_word (rec->key, rec->cpu, rec->aux),
                                       rec->count);
}

/* Takes the last record pushed back (it is still pending), for its
 * interval to go on: its start still bounds the next one's (the interval
 * goes on from there), nothing does when no record is left. */
static inline void
ttv_history_encoder_take_back (TtvHistoryEncoder *e)
{
  g_assert (e->n_pending > 0);
  e->n_pending--;
  if (--e->n_recs == 0)
    e->last_start = G_MININT64;
}

static inline void
ttv_history_encoder_push (TtvHistoryEncoder *e, TtvHistoryWriter *w, const TtvHistoryRec *rec)
{
  if (ttv_history_encoder_add (e, rec))
    ttv_history_encoder_code_block (e, w);
}
/* Writes out the coded blocks held in @buf. */
void     ttv_history_encoder_flush (TtvHistoryEncoder *e, TtvHistoryWriter *w);
/* Codes the last, partial block and writes everything out: no record can
 * follow; only the directory stays in memory. */
void     ttv_history_encoder_finish (TtvHistoryEncoder *e, TtvHistoryWriter *w);
/* Heap bytes held (buffers, not the directory). */
gsize    ttv_history_encoder_memory (const TtvHistoryEncoder *e);
/* A sequence reading a finished encoder's records in @data (its
 * directory in @e: valid while @e is, unless @e's directory is taken). */
void     ttv_history_encoder_seq (const TtvHistoryEncoder *e, const guint8 *data, guint64 size, TtvHistorySeq *seq);

/* Positions @c before record @index (n_recs: at the end). */
void     ttv_history_cursor_init (TtvHistoryCursor *c, const TtvHistorySeq *seq, guint64 index);
/* Loads a block's header; FALSE when it does not fit the representation. */
gboolean ttv_history_cursor_load (TtvHistoryCursor *c, guint64 block);
gboolean ttv_history_cursor_next (TtvHistoryCursor *c, TtvHistoryRec *out);
/* What loops over many records need (not aux nor CPU), from the cursor to
 * the end of its block: returns how many (0 at the end or on bad bytes). */
guint    ttv_history_cursor_next_block (TtvHistoryCursor *c, gint64 *starts, guint8 *keys, guint32 *counts);
/* Finds the last record starting at or before @t: its index (-1 when none:
 * then @c is at the first record), @rec filled and @c just after it. */
gint64   ttv_history_seq_find (const TtvHistorySeq *seq, gint64 t, TtvHistoryCursor *c, TtvHistoryRec *rec);

/* @len bytes at @offset of a representation, in memory or read from
 * @fd into @buf; NULL when they do not fit or cannot be read. */
const guint8 *ttv_history_source_get (const guint8 *data, int fd, guint64 size, guint64 offset, gsize len,
                                   guint8 *buf);

/* A window of a file read in order, one pread for many small pieces
 * (their system calls cost more than the bytes between them). */
typedef struct {
  guint8 *buf;             /* @cap bytes (owned by the caller) */
  gsize cap;
  guint64 offset;          /* of the bytes held */
  gsize len;
} TtvHistoryReadWindow;

/* The @len bytes at @offset of @fd (@size bytes), as
 * ttv_history_source_get () gives them (in @buf when they would be
 * misaligned in the window), from the window, moved to @offset when it
 * does not hold them; NULL when they do not fit, are more than the window
 * or cannot be read.  Valid until the next call. */
const guint8 *ttv_history_read_window_get (TtvHistoryReadWindow *w, int fd, guint64 size, guint64 offset, gsize len,
                                           guint8 *buf);

static inline guint64
ttv_history_read_le (const guint8 *p, guint w)
{
  switch (w)
    {
    case 0:
      return 0;
    case 1:
      return p[0];
    case 2:
      return (guint64) p[0] | (guint64) p[1] << 8;
    default:
      return (guint64) p[0] | (guint64) p[1] << 8 | (guint64) p[2] << 16 | (guint64) p[3] << 24;
    }
}

/* 8 bytes at @p, little-endian; bytes at or past @limit read as 0. */
G_ALWAYS_INLINE static inline guint64
ttv_history_load64 (const guint8 *p, const guint8 *limit)
{
  guint64 x = 0;
  if (G_LIKELY (limit - p >= 8))
    {
      memcpy (&x, p, 8);
      return GUINT64_FROM_LE (x);
    }
  for (guint k = 0; p + k < limit; k++)
    x |= (guint64) p[k] << (8 * k);
  return x;
}

/* @w bits (0-64) at bit @pos of @base; bytes at or past @limit read as 0. */
G_ALWAYS_INLINE static inline guint64
ttv_history_read_bits (const guint8 *base, guint64 pos, guint w, const guint8 *limit)
{
  const guint8 *p = base + (pos >> 3);
  guint sh = (guint) (pos & 7);
  guint64 x = 0;
  if (G_LIKELY (limit - p >= 9))
    {
      memcpy (&x, p, 8);
      x = GUINT64_FROM_LE (x);
    }
  else
    for (guint k = 0; k < 8 && p + k < limit; k++)
      x |= (guint64) p[k] << (8 * k);
  x >>= sh;
  if (G_UNLIKELY (w + sh > 64) && p + 8 < limit)
    x |= (guint64) p[8] << (64 - sh);
  return w >= 64 ? x : x & ((G_GUINT64_CONSTANT (1) << w) - 1);
}

/* The next record; FALSE at the end of the sequence or on bad bytes. */
G_ALWAYS_INLINE static inline gboolean
ttv_history_cursor_next_inline (TtvHistoryCursor *c, TtvHistoryRec *out)
{
  if (G_UNLIKELY (c->index >= c->seq->n_recs))
    return FALSE;
  guint64 b = c->index / TTV_HISTORY_BLOCK;
  if (G_UNLIKELY (b != c->block) && !ttv_history_cursor_load (c, b))
    return FALSE;
  guint i = (guint) (c->index % TTV_HISTORY_BLOCK);
  if (G_UNLIKELY (i >= c->n))
    return FALSE;
  guint64 pos = (guint64) i * c->rb;
  guint64 delta, count;
  guint idx;
  if (G_LIKELY (c->rb <= 57))
    {
      /* The three fields in one load. */
      guint64 x = ttv_history_load64 (c->bits + (pos >> 3), c->limit) >> (pos & 7);
      delta = x & c->mt;
      count = (x >> c->bt) & c->mc;
      idx = (guint) ((x >> (c->bt + c->bc)) & c->mi);
    }
  else
    {
      delta = ttv_history_read_bits (c->bits, pos, c->bt, c->limit);
      count = ttv_history_read_bits (c->bits, pos + c->bt, c->bc, c->limit);
      idx = (guint) ttv_history_read_bits (c->bits, pos + c->bt + c->bc, c->bi, c->limit);
    }
  if (G_UNLIKELY (idx >= c->nd))
    return FALSE;
  c->time = (gint64) ((guint64) c->time + delta);
  out->start = c->time;
  out->count = (guint32) count;
  out->key = c->dkeys[idx];
  out->aux = (guint32) ttv_history_read_le (c->daux + idx * c->wa, c->wa);
  out->cpu = (gint16) ((gint) ttv_history_read_le (c->dcpus + idx * c->wp, c->wp) - 1);
  c->index++;
  return TRUE;
}

/* Decodes the whole sequence checking that it holds exactly its records,
 * with times in order and an index that agrees; on failure, @bad_offset
 * says where. */
gboolean ttv_history_seq_validate (const TtvHistorySeq *seq, guint64 *bad_offset);

/* ---- the summary (ttv-history-summary.c) ---- */

/* A summary level: per bin (a run of 1 << shift ns from the origin), 4
 * bytes: the dominant visual state, the fraction of the bin it covers
 * (1..255, 0: no state) and the row's events starting in the bin (a
 * 16-bit count, see ttv_history_count_decode). */
typedef struct {
  guint64 offset;          /* of the bins, TTV_HISTORY_BIN_SIZE bytes each */
  guint64 first_bin;       /* number of the first bin: (t - origin) >> shift */
  guint64 n_bins;
  guint32 shift;
  guint32 pad;
} TtvHistoryLevel;

#define TTV_HISTORY_BIN_SIZE 4
#define TTV_HISTORY_MAX_LEVELS 12
#define TTV_HISTORY_LEVEL_STEP 4     /* each level's bins are 16 times wider */
#define TTV_HISTORY_NO_STRING G_MAXUINT32

/* Event counts of bins: exact below 4096, then 12 significant bits
 * (within 1/4096, rounded), up to 4095 << 30: a 5-bit exponent and an
 * 11-bit mantissa, so that every bin has the same size whatever its count. */
guint16  ttv_history_count_encode (guint64 n);

static inline guint64
ttv_history_count_decode (guint16 v)
{
  guint e = v >> 11, m = v & 0x7ffu;
  return e == 0 ? m : (guint64) (m | 0x800u) << (e - 1);
}

/* The levels a row of @recs ending at @end has (0 when it is read
 * exactly): shift, first bin and bin count of each, not the offsets. */
guint    ttv_history_summary_plan (const TtvHistorySeq *recs, gint64 origin, gint64 end,
                                TtvHistoryLevel levels[TTV_HISTORY_MAX_LEVELS]);
/* Computes the bins of the planned levels in one read of @recs and
 * writes them at their offsets. */
void     ttv_history_summary_write (TtvHistoryWriter *w, const TtvHistorySeq *recs, gint64 origin, gint64 end,
                                 const TtvHistoryLevel *levels, guint n_levels);
/* Sets the planned levels' offsets: their bins one after the other from
 * @at, each level's rounded up to 8 bytes; returns the bytes they take. */
gsize    ttv_history_summary_layout (TtvHistoryLevel *levels, guint n_levels, guint64 at);
/* The level after @level as the plan and the layout make it: bins
 * 1 << TTV_HISTORY_LEVEL_STEP times wider over the same span, its bins
 * after @level's. */
void     ttv_history_level_next (const TtvHistoryLevel *level, TtvHistoryLevel *next);
/* ttv_history_summary_write () into memory: the bins at @bins plus the
 * levels' offsets (laid out from 0), the padding left as it is. */
void     ttv_history_summary_compute (const TtvHistorySeq *recs, gint64 origin, gint64 end,
                                   const TtvHistoryLevel *levels, guint n_levels, guint8 *bins);

/* ---- the file ---- */

typedef struct {
  guint32 kind;
  guint32 id;
  gint32 cpu;
  guint32 tgid;
  guint32 ppid;
  guint32 name;            /* string index or TTV_HISTORY_NO_STRING */
  gint64 birth;
  gint64 end;
  gint64 cpu_time;
  guint64 n_events;
  guint32 dead;
  guint32 n_levels;
  guint32 machine;         /* of the traceset: rows are sorted by kind, machine, id */
  guint32 states_seen;     /* TtvHistoryRowInfo.states_seen */
  guint64 n_recs;          /* coded intervals */
  guint64 recs_dir_offset; /* their directory (TtvHistoryBlock per piece; 8-aligned) */
  guint64 n_marks;
  guint64 marks_dir_offset;
  guint64 levels_offset;   /* TtvHistoryLevel[n_levels] */
} TtvHistoryRow;

/* ---- a row's region (ttv-history-row-region.c) ---- */

/* What follows a row's records in the representation, in one region:
 * the directory of its records, that of its marks, its summary levels and
 * their bins.  The builder writes it in its tail for a row alive at the
 * end, and the coder as soon as a row that ended is written out (so that
 * the row holds no memory of the build's after that). */
typedef struct {
  gsize dir_bytes;
  gsize mark_dir_bytes;
  guint n_levels;
  TtvHistoryLevel levels[TTV_HISTORY_MAX_LEVELS];   /* bins from the region's start until placed */
  gsize bins_bytes;
  gsize size;              /* of the whole region */
} TtvHistoryRowRegion;

/* The region of a row whose records are @recs, with @n_marks marks, from
 * @origin to @end. */
void     ttv_history_row_region_plan (TtvHistoryRowRegion *g, const TtvHistorySeq *recs, guint64 n_marks,
                                      gint64 origin, gint64 end);
/* The region at @at (8-aligned): its levels' offsets, and @row's
 * recs_dir_offset, marks_dir_offset, levels_offset and n_levels. */
void     ttv_history_row_region_place (TtvHistoryRowRegion *g, guint64 at, TtvHistoryRow *row);
/* Where the region's levels go, and their bins (at the levels' offsets),
 * relative to its start. */
gsize    ttv_history_row_region_levels_at (const TtvHistoryRowRegion *g);
/* The region reserved in @w (8-aligned) and placed there, its
 * directories (@dir and @mark_dir, either NULL where it is empty) and its
 * levels written in place; its bins are the caller's to write. */
void     ttv_history_row_region_reserve (TtvHistoryRowRegion *g, TtvHistoryWriter *w, const TtvHistoryBlock *dir,
                                         const TtvHistoryBlock *mark_dir, TtvHistoryRow *row);

#define TTV_HISTORY_MAGIC "TTVHIST"
#define TTV_HISTORY_VERSION 7u   /* 3: written while read (pieces), fixed-size bins; 4: per-CPU
                               * interrupts, block requests matched by sector; 5: soft IRQ
                               * rows named; 6: rows per machine; 7: the states a row
                               * takes */
#define TTV_HISTORY_BOM 0x01020304u

typedef struct {
  char magic[8];
  guint32 version;
  guint32 bom;
  guint64 file_size;
  guint64 checksum;        /* of bytes [sizeof header, file_size) */
  guint64 fingerprint_offset;
  guint64 fingerprint_size;
  guint64 strings_offset;  /* NUL-terminated strings, back to back */
  guint64 strings_size;
  guint64 string_index_offset; /* guint64 offsets into strings */
  guint64 n_strings;
  guint64 rows_offset;
  guint64 n_rows;
  guint64 n_events;
  gint64 origin;
  gint64 start;
  gint64 end;
  guint32 n_rows_by_kind[TTV_HISTORY_ROW_N_KINDS];
  guint32 n_machines;      /* of the traceset, at least 1 */
} TtvHistoryHeader;

/* Where a row's sequences and summary are.  Of its summary levels only
 * the first is kept, with their count: the others follow from it as
 * ttv_history_summary_plan and ttv_history_summary_layout make them
 * (ttv_history_level_next), which opening a history checks.  A level in
 * memory for each took a third of what a process row kept (80 of 236
 * bytes: 6 MB of a viewer on a 1 GB trace of 79,000 processes). */
typedef struct {
  const TtvHistoryBlock *dir;
  const TtvHistoryBlock *mark_dir;
  guint64 level_offset;      /* the first level's */
  guint64 level_first_bin;
  guint64 level_n_bins;
  guint32 level_shift;
  guint32 n_levels;
} TtvHistoryRowIndex;

/* Level @k (below the index's n_levels) of a row's summary. */
void     ttv_history_row_level (const TtvHistoryRowIndex *index, guint k, TtvHistoryLevel *out);

struct _TtvStateHistory {
  /* The representation: a heap blob, or a file read with pread. */
  const guint8 *data;         /* the heap blob, or NULL */
  guint8 *heap;               /* owned, or NULL */
  int fd;                     /* owned, or -1 */
  gsize size;
  TtvHistoryHeader header;
  /* In memory for both: per row its directories and levels (into the
   * blob, or into @meta_rows for a file); the rest is in @infos. */
  TtvHistoryRowIndex *index;     /* owned, n_rows */
  guint8 *meta;               /* owned: strings read from a file, or NULL */
  guint8 *meta_rows;          /* owned: directories and levels read from a file, or NULL */
  guint row_base[TTV_HISTORY_ROW_N_KINDS + 1];
  /* Decoded for the API. */
  TtvHistoryRowInfo *infos;   /* owned, n_rows */
  GQuark *quarks;             /* owned: string index -> quark */
  const char **strings;       /* owned array, strings in the data or @meta */
  guint64 n_strings;
  gboolean from_cache;
  char *cache_path;
};

/* The sequences of row @i (of all kinds) of a history. */
void     ttv_history_row_recs (const TtvHistory *h, guint64 i, TtvHistorySeq *seq);
void     ttv_history_row_marks (const TtvHistory *h, guint64 i, TtvHistorySeq *seq);

/* The first row of @kind at or after (@machine, @id) in the rows' order. */
guint    ttv_history_lower_bound (const TtvHistory *h, TtvHistoryRowKind kind, guint machine, guint32 id);

/* ttv_history_query_pixels, also telling whether it read the
 * intervals themselves (@exact) rather than summary bins. */
guint64  ttv_history_query_pixels_full (const TtvHistory *h, TtvHistoryRowKind kind, guint row,
                                     TtvTime t0, TtvTime t1, guint width, TtvHistoryPixel *out,
                                     gboolean *exact);

/* Checks a representation (@h->data, or @h->fd of @h->size bytes):
 * header, bounds, strings, and unless @trusted every record; reads what
 * queries need in memory.  FALSE when it cannot be trusted. */
gboolean ttv_history_open_data (TtvHistory *h, gboolean trusted, GError **error);

/* ---- the cache (ttv-history-cache.c) ---- */

/* The file name for a traceset, its fingerprint (paths, sizes, mtimes,
 * formats, a hash of each file's first bytes), loading. */
char    *ttv_history_cache_path (TtvTraceset *ts, const TtvHistoryOptions *opt);
char    *ttv_history_fingerprint (TtvTraceset *ts);
TtvHistory *ttv_history_cache_load (const char *path, const char *fingerprint);
/* The same, telling why a file is not used (file name and byte offset). */
TtvHistory *ttv_history_cache_load_full (const char *path, const char *fingerprint, GError **error);
/* The size cap of the cache directory @dir. */
guint64  ttv_history_cache_limit (const TtvHistoryOptions *opt, const char *dir);
/* Removes the least recently used files of @dir (and stale temporary
 * files) until it holds at most @limit bytes, never @keep unless it alone
 * is over the limit.  Returns TRUE when @keep is still there. */
gboolean ttv_history_cache_evict (const char *dir, guint64 limit, const char *keep);
/* Marks a cache file as just used (its access time). */
void     ttv_history_cache_touch (const char *path);

G_END_DECLS
