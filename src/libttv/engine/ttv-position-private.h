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

/* The checksum is the FNV-1a hash of the bytes before it, folded to 16
 * bits: TTV_POSITION_TOKEN_HASH_START, then ttv_position_token_hash() over
 * the bytes in any number of pieces, then ttv_position_token_fold(). */
#define TTV_POSITION_TOKEN_HASH_START 2166136261u
guint32 ttv_position_token_hash (guint32 h, const guint8 *p, gsize len);

static inline guint16
ttv_position_token_fold (guint32 h)
{
  return (guint16) (h ^ (h >> 16));
}

/* The two base32 digits of every 10-bit value. */
const char (*ttv_position_b32_pairs (void))[2];

G_END_DECLS
