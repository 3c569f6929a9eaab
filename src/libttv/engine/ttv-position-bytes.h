/* ttv-position-bytes.h: a position's token kept encoded (its binary form,
 * with where each tracefile's varints end), so that a change rewrites only
 * its own bytes.  The context keeps its peeked position's bytes as it
 * updates the position (ttv-context.c), and the report's token writer
 * (ttv-position-token.c) keeps one for the positions it is given; both then
 * append the token from them. */
#pragma once

#include "ttv-position-private.h"

G_BEGIN_DECLS

struct _TtvPositionBytes {
  guint n;                      /* tracefiles */
  gsize head_len;               /* version, shape and n */
  guint32 head_hash;            /* the checksum's hash state after the head */
  char head_digits[16];         /* of the head's whole 5-byte groups... */
  gsize head_groups;            /* ...1 or 2 */
  guint64 stream, time;         /* the varints' values after the head (time 0 at the end) */
  gsize entries_start;          /* after them */
  gsize *ends;                  /* [n]: where each tracefile's bytes end */
  guint8 *bytes;                /* the token's bytes, room for its checksum and the digits' slack */
  const char (*pairs)[2];       /* ttv_position_b32_pairs () */
  gboolean wide;                /* the digits by ttv_position_put_digits_wide () */
};

/* Where the token's bytes end before the checksum. */
static inline gsize
ttv_position_bytes_body_end (const TtvPositionBytes *b)
{
  return b->n > 0 ? b->ends[b->n - 1] : b->entries_start;
}

/* Bytes for positions of @n tracefiles, to lay out before use. */
TtvPositionBytes *ttv_position_bytes_new (guint n);
void              ttv_position_bytes_free (TtvPositionBytes *b);
/* Encodes all of @p (of b->n tracefiles) into @b. */
void              ttv_position_bytes_lay_out (TtvPositionBytes *b, const TtvPosition *p);
/* Rewrites the next stream and time: @p's, the rest as encoded. */
void              ttv_position_bytes_put_next (TtvPositionBytes *b, const TtvPosition *p);
/* Rewrites tracefile @i's varints with @e (resizing its span). */
void              ttv_position_bytes_put_entry (TtvPositionBytes *b, guint i, const TtvPositionEntry *e);
/* Appends the token of the bytes as they are: checksum, then base32. */
void              ttv_position_bytes_append_token (TtvPositionBytes *b, GString *out);

G_END_DECLS
