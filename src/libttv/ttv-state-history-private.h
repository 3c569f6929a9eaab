/* ttv-state-history-private.h: the compact representation of a state
 * history, the same in memory and in its cache file, shared by the builder
 * (ttv-state-history.c), the coding of records (-codec.c), the summary
 * (-summary.c), the cache (-cache.c) and the tests. */
#pragma once

#include "ttv-state-history.h"

#include <stdio.h>
#include <string.h>

G_BEGIN_DECLS

/* A record: one interval start (or one mark), decoded.  Process rows keep
 * their CPU (-1 unknown); an interval with more than TTV_HIST_MAX_COUNT
 * events is split into records of equal state.  @aux: see
 * TtvHistoryInterval (syscalls: a string index).  Marks: @key is the
 * TtvHistoryMarkKind, @aux the other pid (exec: string index of the name). */
typedef struct {
  gint64 start;
  guint16 key;             /* visual state, 8 bits */
  gint16 cpu;
  guint32 aux;
  guint32 count;
} TtvHistRec;

#define TTV_HIST_MAX_COUNT 0xfffu

/* Records are stored in blocks of TTV_HIST_BLOCK, each with a full start
 * time in the block index, so that finding the record at a time costs a
 * binary search over blocks, then at most TTV_HIST_BLOCK additions.  A
 * block holds a dictionary of its distinct (key, aux, CPU) and, per
 * record, bit-packed at fixed widths: the time since the record before
 * (0 for the first), the event count and the dictionary index.  Reading a
 * record costs a few loads and shifts, and no data-dependent branch.
 *   7 header bytes: n (records, 1-TTV_HIST_BLOCK), bits of the time
 *   delta (0-64), of the count (0-32), of the index (0-5), dictionary
 *   entries (1-n), bytes of its aux values and CPUs + 1 (0, 1, 2 or 4);
 *   the dictionary by columns: keys (a byte each), aux, CPUs + 1, all
 *   little-endian; then the records' bits, from bit 0 of the first byte. */
#define TTV_HIST_BLOCK 32
#define TTV_HIST_BLOCK_HEADER 7

typedef struct {
  gint64 start;            /* of the block's first record */
  guint64 offset;          /* of its first byte, in the sequence's bytes */
} TtvHistBlock;

/* A coded sequence of records (a row's intervals or its marks). */
typedef struct {
  const guint8 *bytes;
  guint64 size;
  const TtvHistBlock *blocks;
  guint64 n_blocks;        /* (n_recs + TTV_HIST_BLOCK - 1) / TTV_HIST_BLOCK */
  guint64 n_recs;
} TtvHistSeq;

/* Reading, forward from any record. */
typedef struct {
  const TtvHistSeq *seq;   /* weak */
  guint64 index;           /* of the next record */
  guint64 block;           /* the block loaded, or G_MAXUINT64 */
  gint64 time;             /* start of the record before the next, in the block */
  guint n;                 /* the block's records, ... */
  guint bt, bc, bi, rb;    /* bits of its fields, and of a record */
  guint64 mt, mc, mi;      /* masks of the fields */
  guint nd, wa, wp;        /* its dictionary */
  const guint8 *dkeys, *daux, *dcpus, *bits;
  const guint8 *limit;     /* end of the sequence's bytes */
} TtvHistCursor;

/* Writing: records gather into a block, coded when full; the coded bytes
 * stay in memory until flushed (spilled). */
typedef struct {
  guint8 *data;            /* owned: the bytes since the last flush */
  gsize len;
  gsize cap;
  guint64 flushed;         /* bytes given away before @data */
  GArray *blocks;          /* of TtvHistBlock, owned */
  guint64 n_recs;          /* pushed, coded or not */
  TtvHistRec *pending;     /* owned: TTV_HIST_BLOCK records, or NULL */
  guint n_pending;
  gint64 last_start;
  gboolean finished;       /* no more records: a partial block is coded */
} TtvHistEncoder;

void     ttv_hist_encoder_init (TtvHistEncoder *e);
void     ttv_hist_encoder_clear (TtvHistEncoder *e);
/* Starts must not decrease (an earlier one is taken as the last). */
void     ttv_hist_encoder_push (TtvHistEncoder *e, const TtvHistRec *rec);
/* Codes the last, partial block: no record can follow. */
void     ttv_hist_encoder_finish (TtvHistEncoder *e);
/* A sequence reading what is in memory (finished, nothing flushed). */
void     ttv_hist_encoder_view (const TtvHistEncoder *e, TtvHistSeq *seq);

/* Positions @c before record @index (n_recs: at the end). */
void     ttv_hist_cursor_init (TtvHistCursor *c, const TtvHistSeq *seq, guint64 index);
/* Loads a block's header; FALSE when it does not fit its bytes. */
gboolean ttv_hist_cursor_load (TtvHistCursor *c, guint64 block);
gboolean ttv_hist_cursor_next (TtvHistCursor *c, TtvHistRec *out);
/* What loops over many records need (not aux nor CPU), from the cursor to
 * the end of its block: returns how many (0 at the end or on bad bytes). */
guint    ttv_hist_cursor_next_block (TtvHistCursor *c, gint64 *starts, guint8 *keys, guint32 *counts);
/* Finds the last record starting at or before @t: its index (-1 when none:
 * then @c is at the first record), @rec filled and @c just after it. */
gint64   ttv_hist_seq_find (const TtvHistSeq *seq, gint64 t, TtvHistCursor *c, TtvHistRec *rec);

static inline guint64
ttv_hist_read_le (const guint8 *p, guint w)
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
ttv_hist_load64 (const guint8 *p, const guint8 *limit)
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
ttv_hist_read_bits (const guint8 *base, guint64 pos, guint w, const guint8 *limit)
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
ttv_hist_cursor_next_inline (TtvHistCursor *c, TtvHistRec *out)
{
  if (G_UNLIKELY (c->index >= c->seq->n_recs))
    return FALSE;
  guint64 b = c->index / TTV_HIST_BLOCK;
  if (G_UNLIKELY (b != c->block) && !ttv_hist_cursor_load (c, b))
    return FALSE;
  guint i = (guint) (c->index % TTV_HIST_BLOCK);
  if (G_UNLIKELY (i >= c->n))
    return FALSE;
  guint64 pos = (guint64) i * c->rb;
  guint64 delta, count;
  guint idx;
  if (G_LIKELY (c->rb <= 57))
    {
      /* The three fields in one load. */
      guint64 x = ttv_hist_load64 (c->bits + (pos >> 3), c->limit) >> (pos & 7);
      delta = x & c->mt;
      count = (x >> c->bt) & c->mc;
      idx = (guint) ((x >> (c->bt + c->bc)) & c->mi);
    }
  else
    {
      delta = ttv_hist_read_bits (c->bits, pos, c->bt, c->limit);
      count = ttv_hist_read_bits (c->bits, pos + c->bt, c->bc, c->limit);
      idx = (guint) ttv_hist_read_bits (c->bits, pos + c->bt + c->bc, c->bi, c->limit);
    }
  if (G_UNLIKELY (idx >= c->nd))
    return FALSE;
  c->time = (gint64) ((guint64) c->time + delta);
  out->start = c->time;
  out->count = (guint32) count;
  out->key = c->dkeys[idx];
  out->aux = (guint32) ttv_hist_read_le (c->daux + idx * c->wa, c->wa);
  out->cpu = (gint16) ((gint) ttv_hist_read_le (c->dcpus + idx * c->wp, c->wp) - 1);
  c->index++;
  return TRUE;
}

/* Decodes the whole sequence checking that it holds exactly its records,
 * with times in order; on failure, @bad_offset says where. */
gboolean ttv_hist_seq_validate (const TtvHistSeq *seq, guint64 *bad_offset);

/* A summary level: per bin (a run of 1 << shift ns from the origin), the
 * dominant visual state (a byte), the fraction of the bin it covers
 * (1..255, 0: no state) and the row's events starting in the bin
 * (little-endian, @event_bytes of 1, 2 or 4, saturating). */
typedef struct {
  guint64 offset;          /* of the bins, each 2 + event_bytes bytes */
  guint64 first_bin;       /* number of the first bin: (t - origin) >> shift */
  guint64 n_bins;
  guint32 shift;
  guint32 event_bytes;
} TtvHistLevel;

#define TTV_HIST_MAX_LEVELS 12
#define TTV_HIST_LEVEL_STEP 4     /* each level's bins are 16 times wider */
#define TTV_HIST_NO_STRING G_MAXUINT32

typedef struct {
  guint32 kind;
  guint32 id;
  gint32 cpu;
  guint32 tgid;
  guint32 ppid;
  guint32 name;            /* string index or TTV_HIST_NO_STRING */
  gint64 birth;
  gint64 end;
  gint64 cpu_time;
  guint64 n_events;
  guint32 dead;
  guint32 n_levels;
  guint64 recs_offset;     /* file offsets (8-aligned): coded intervals */
  guint64 recs_size;       /* bytes */
  guint64 n_recs;
  guint64 blocks_offset;   /* their TtvHistBlock index */
  guint64 marks_offset;    /* coded marks */
  guint64 marks_size;
  guint64 n_marks;
  guint64 mark_blocks_offset;
  guint64 levels_offset;   /* TtvHistLevel[n_levels] */
} TtvHistRow;

#define TTV_HIST_MAGIC "TTVHIST"
#define TTV_HIST_VERSION 3u   /* 2: delta-coded records, compact bins; 3: per-CPU interrupts,
                                 * block requests matched by sector */
#define TTV_HIST_BOM 0x01020304u

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
  guint32 pad;
} TtvHistHeader;

struct _TtvStateHistory {
  /* The representation: a heap blob or a mapped cache file. */
  const guint8 *data;
  gsize size;
  guint8 *heap;            /* owned, or NULL */
  GMappedFile *mapped;     /* owned, or NULL */
  const TtvHistHeader *header;
  const TtvHistRow *rows;
  guint row_base[TTV_HISTORY_ROW_N_KINDS + 1];
  /* Decoded for the API. */
  TtvHistoryRowInfo *infos;   /* owned, n_rows */
  GQuark *quarks;             /* owned: string index -> quark */
  const char **strings;       /* owned array, strings in the data */
  guint64 n_strings;
  gboolean from_cache;
  char *cache_path;
};

/* The writer of the representation, to memory or to a file. */
typedef struct {
  GByteArray *bytes;       /* memory, or NULL */
  FILE *file;              /* or a file */
  guint64 offset;
  guint64 hash;
  gboolean failed;
} TtvHistWriter;

void     ttv_hist_writer_put (TtvHistWriter *w, const void *data, gsize size);
void     ttv_hist_writer_align (TtvHistWriter *w);
/* The seed of the checksum of a cache file (TtvHistHeader.checksum). */
#define TTV_HIST_HASH_SEED G_GUINT64_CONSTANT (0xcbf29ce484222325)
guint64  ttv_hist_hash (guint64 hash, const guint8 *data, gsize size);

/* Builds the levels of a row from its records ending at @end and writes
 * them (bins, then the level table); fills the level fields of @row. */
void     ttv_hist_summary_write (TtvHistWriter *w, TtvHistRow *row, const TtvHistSeq *recs,
                                 gint64 origin, gint64 end);

/* The sequences of a row in a representation. */
void     ttv_hist_row_recs (const TtvStateHistory *h, const TtvHistRow *r, TtvHistSeq *seq);
void     ttv_hist_row_marks (const TtvStateHistory *h, const TtvHistRow *r, TtvHistSeq *seq);

/* ttv_state_history_query_pixels, also telling whether it read the
 * intervals themselves (@exact) rather than summary bins. */
guint64  ttv_hist_query_pixels_full (const TtvStateHistory *h, TtvHistoryRowKind kind, guint row,
                                     TtvTime t0, TtvTime t1, guint width, TtvHistoryPixel *out,
                                     gboolean *exact);

/* Checks a representation (header, bounds, strings) and decodes it into
 * @h; FALSE when it cannot be trusted.  @fingerprint: must match if not NULL. */
gboolean ttv_hist_open_data (TtvStateHistory *h, const char *fingerprint, GError **error);

/* The cache: file name for a traceset, its fingerprint (paths, sizes,
 * mtimes, formats), loading. */
char    *ttv_hist_cache_path (TtvTraceset *ts, const TtvStateHistoryOptions *opt);
char    *ttv_hist_fingerprint (TtvTraceset *ts);
TtvStateHistory *ttv_hist_cache_load (const char *path, const char *fingerprint);
/* The same, telling why a file is not used (file name and byte offset). */
TtvStateHistory *ttv_hist_cache_load_full (const char *path, const char *fingerprint, GError **error);

G_END_DECLS
