/* ttv-position-private.h: the layout of TtvPosition, shared by the
 * position code (ttv-position.c) and the context that makes and restores them. */
#pragma once

#include "ttv-position.h"

G_BEGIN_DECLS

typedef struct {
  TtvTracefilePosition pos;
  gboolean at_end;
} TtvPositionEntry;

struct _TtvPosition {
  guint32 shape;                /* ttv_traceset_get_shape_hash () */
  guint n;                      /* tracefiles in the traceset */
  guint next;                   /* stream of the next event; n at the end */
  TtvTime next_time;            /* its time; TTV_TIME_MAX at the end */
  TtvPositionEntry tf[];        /* [n] */
};

TtvPosition *ttv_position_alloc (guint n);

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
