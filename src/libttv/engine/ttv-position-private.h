/* ttv-position-private.h: the layout of TtvPosition, shared by the
 * position code (ttv-position.c) and the context that makes and restores them. */
#pragma once

#include "ttv-position.h"

#include <string.h>

G_BEGIN_DECLS

typedef struct {
  TtvTracefilePosition pos;
  gboolean at_end;
} TtvPositionEntry;

typedef struct _TtvPositionBytes TtvPositionBytes;

struct _TtvPosition {
  guint32 shape;                /* ttv_traceset_get_shape_hash () */
  guint n;                      /* tracefiles in the traceset */
  guint next;                   /* stream of the next event; n at the end */
  TtvTime next_time;            /* its time; TTV_TIME_MAX at the end */
  /* Owned, NULL but in a position updated in place (the context's peeked
   * one): its token's bytes, which whoever updates the values rewrites as
   * well (ttv-position-bytes.h), so that the token writer need not find
   * what changed.  Copies do not have them. */
  TtvPositionBytes *bytes;
  TtvPositionEntry tf[];        /* [n] */
};

TtvPosition *ttv_position_alloc (guint n);
/* Sets @p's entry @i to @pos, or to its end; TRUE when it changed. */
static inline gboolean
ttv_position_set_entry (TtvPosition *p, guint i, gboolean at_end, const TtvTracefilePosition *pos)
{
  TtvPositionEntry *e = &p->tf[i];
  if (G_UNLIKELY (at_end))
    {
      if (e->at_end)
        return FALSE;
      e->at_end = TRUE;
      memset (&e->pos, 0, sizeof e->pos);
      return TRUE;
    }
  /* One test, not four: the context compares every stream per event. */
  if (((e->pos.block ^ pos->block) | (e->pos.offset ^ pos->offset) | (e->pos.index ^ pos->index)
       | (guint64) e->at_end) == 0)
    return FALSE;
  e->at_end = FALSE;
  e->pos = *pos;
  return TRUE;
}

/* --- Token pieces, shared with the token writer (ttv-position-token.c) --- */

#define TTV_POSITION_TOKEN_VERSION 1

/* The token's bytes are at most: the head (5), three varints (30), three
 * per tracefile (30 each) and the checksum (2). */
#define TTV_POSITION_TOKEN_MAX_BYTES(n) (5 + 30 + 30 * (gsize) (n) + 2)

/* Writes @v as a LEB128 varint at @p; returns the end (at most 10 bytes). */
static inline guint8 *
ttv_position_put_varint (guint8 *p, guint64 v)
{
  while (v >= 0x80)
    {
      *p++ = (guint8) (v | 0x80);
      v >>= 7;
    }
  *p++ = (guint8) v;
  return p;
}

/* The head: version, shape and tracefile count, the same in every token
 * of a traceset. */
static inline guint8 *
ttv_position_put_head (guint8 *at, const TtvPosition *p)
{
  *at++ = TTV_POSITION_TOKEN_VERSION;
  *at++ = (guint8) p->shape;
  *at++ = (guint8) (p->shape >> 8);
  *at++ = (guint8) (p->shape >> 16);
  *at++ = (guint8) (p->shape >> 24);
  return ttv_position_put_varint (at, p->n);
}

/* After the head: the next stream (+ 1, 0 at the end) and, before the
 * end, its time (zigzag). */
static inline guint64
ttv_position_next_stream (const TtvPosition *p)
{
  return p->next >= p->n ? 0 : (guint64) p->next + 1;
}

static inline guint64
ttv_position_next_time (const TtvPosition *p)
{
  if (p->next >= p->n)
    return 0;
  return ((guint64) p->next_time << 1) ^ (guint64) (p->next_time >> 63);
}

static inline guint8 *
ttv_position_put_next (guint8 *at, guint64 stream, guint64 time)
{
  at = ttv_position_put_varint (at, stream);
  if (stream == 0)
    return at;
  return ttv_position_put_varint (at, time);
}

/* Then each tracefile: 0 at its end (or when it has no event), else its
 * block + 1, offset and index. */
static inline gboolean
ttv_position_entry_is_void (const TtvPositionEntry *e)
{
  return e->at_end || e->pos.block == G_MAXUINT64;
}

static inline guint8 *
ttv_position_put_entry (guint8 *at, const TtvPositionEntry *e)
{
  if (ttv_position_entry_is_void (e))
    return ttv_position_put_varint (at, 0);
  at = ttv_position_put_varint (at, e->pos.block + 1);
  at = ttv_position_put_varint (at, e->pos.offset);
  return ttv_position_put_varint (at, e->pos.index);
}

/* The checksum is the FNV-1a hash of the bytes before it, folded to 16
 * bits: TTV_POSITION_TOKEN_HASH_START, then ttv_position_token_hash() over
 * the bytes in any number of pieces, then ttv_position_token_fold(). */
#define TTV_POSITION_TOKEN_HASH_START 2166136261u
guint32 ttv_position_token_hash (guint32 h, const guint8 *p, gsize len);
/* One step of the hash: FNV-1a's, of @byte. */
static inline guint32
ttv_position_token_hash_step (guint32 h, guint8 byte)
{
  return (h ^ byte) * 16777619u;
}

static inline guint16
ttv_position_token_fold (guint32 h)
{
  return (guint16) (h ^ (h >> 16));
}

/* The checksum of hash @h at @at (little-endian); returns its end. */
static inline guint8 *
ttv_position_put_checksum (guint8 *at, guint32 h)
{
  guint16 sum = ttv_position_token_fold (h);
  at[0] = (guint8) sum;
  at[1] = (guint8) (sum >> 8);
  return at + 2;
}

/* The two base32 digits of every 10-bit value. */
const char (*ttv_position_b32_pairs (void))[2];

/* Room a token's bytes need after them for ttv_position_put_digits(): a
 * zero-padded last group and the three bytes a group's 8-byte load reads
 * past it; for ttv_position_put_digits_wide() (ttv-position-digits.h), the
 * 16-byte loads of four groups, up to three of them past the token. */
#define TTV_POSITION_TOKEN_DIGITS_SLACK 32

/* The eight digits of the five bytes at @b (and three readable after). */
static inline void
ttv_position_put_group (char *s, const guint8 *b, const char (*pairs)[2])
{
  guint64 v;
  memcpy (&v, b, 8);
  v = GUINT64_FROM_BE (v) >> 24;
  memcpy (s, pairs[(v >> 30) & 1023], 2);
  memcpy (s + 2, pairs[(v >> 20) & 1023], 2);
  memcpy (s + 4, pairs[(v >> 10) & 1023], 2);
  memcpy (s + 6, pairs[v & 1023], 2);
}

/* Writes the digits of the token of the @len bytes at @b (followed by
 * TTV_POSITION_TOKEN_DIGITS_SLACK bytes of room), from its 5-byte group
 * @first_group on, at @s: whole groups of eight, @s has room for
 * (@len + 4) / 5 of them.  The last group is padded with zero bytes: its
 * first digits are those of the bytes it has padded with zero bits, as the
 * token's last digit is.  Returns the token's number of digits. */
static inline gsize
ttv_position_put_digits (char *s, guint8 *b, gsize len, gsize first_group, const char (*pairs)[2])
{
  memset (b + len, 0, 4);
  /* In locals: the digits' stores could alias the bytes' pointer, which
   * would be loaded again for every group. */
  const guint8 *end = b + (len + 4) / 5 * 5;
  char *at = s + first_group * 8;
  for (const guint8 *g = b + first_group * 5; g < end; g += 5, at += 8)
    ttv_position_put_group (at, g, pairs);
  return (len * 8 + 4) / 5;
}

G_END_DECLS
