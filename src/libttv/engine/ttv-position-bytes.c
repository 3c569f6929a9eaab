/* ttv-position-bytes.c: a position's token kept encoded (see
 * ttv-position-bytes.h).  The token (ttv-position.c) is base32 of: a head
 * (version, shape, tracefile count), the next stream and time, each
 * tracefile's varints, and a checksum of all that.  Consecutive events of a
 * report change little: the head never, the next time always (its low
 * bytes), and usually one tracefile; whoever changes a value rewrites its
 * bytes here, with no walk over the others.  The checksum cannot be kept
 * (the time comes before the tracefiles) and neither, for what it would
 * spare, can the digits of the 5-byte groups that did not change
 * (bench/README.md, issue 15). */
#include "ttv-position-bytes.h"
#include "ttv-position-digits.h"
#include "ttv-text.h"

#include <string.h>

TtvPositionBytes *
ttv_position_bytes_new (guint n)
{
  TtvPositionBytes *b = g_new0 (TtvPositionBytes, 1);
  b->n = n;
  b->ends = g_new0 (gsize, n);
  /* Zeros, so that the digits' 8-byte loads past the token read defined
   * bytes. */
  b->bytes = g_malloc0 (TTV_POSITION_TOKEN_MAX_BYTES (n) + TTV_POSITION_TOKEN_DIGITS_SLACK);
  b->pairs = ttv_position_b32_pairs ();
#ifdef TTV_POSITION_DIGITS_WIDE
  b->wide = ttv_cpu_has_avx2 ();
#endif
  return b;
}

void
ttv_position_bytes_free (TtvPositionBytes *b)
{
  if (b == NULL)
    return;
  g_free (b->ends);
  g_free (b->bytes);
  g_free (b);
}

/* Bytes of a varint by the index of its highest bit: a load, not a
 * division by 7 (indexed by 63 - clz, which is bsr's own result). */
static const guint8 varint_len_by_top_bit[64] = {
  1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3,
  4, 4, 4, 4, 4, 4, 4, 5, 5, 5, 5, 5, 5, 5, 6, 6, 6, 6, 6, 6, 6,
  7, 7, 7, 7, 7, 7, 7, 8, 8, 8, 8, 8, 8, 8, 9, 9, 9, 9, 9, 9, 9, 10,
};

/* Bytes of @v as a varint (1 to 10). */
static inline gsize
varint_len (guint64 v)
{
  return varint_len_by_top_bit[63 ^ __builtin_clzll (v | 1)];
}

static inline gsize
entry_len (const TtvPositionEntry *e)
{
  if (ttv_position_entry_is_void (e))
    return 1;
  return varint_len (e->pos.block + 1) + varint_len (e->pos.offset) + varint_len (e->pos.index);
}

/* Values below 2^56 take at most 8 bytes as varints: one 8-byte store. */
#define SHORT_VARINT_MAX G_GUINT64_CONSTANT (0x00FFFFFFFFFFFFFF)

/* @x (at most SHORT_VARINT_MAX) as 8 bytes of 7 bits each, lowest first,
 * without their continuation bits: halves, quarters, then eighths moved
 * apart. */
static inline guint64
spread_7bit (guint64 x)
{
  x = (x & G_GUINT64_CONSTANT (0x000000000FFFFFFF)) | ((x << 4) & G_GUINT64_CONSTANT (0x0FFFFFFF00000000));
  x = (x & G_GUINT64_CONSTANT (0x00003FFF00003FFF)) | ((x << 2) & G_GUINT64_CONSTANT (0x3FFF00003FFF0000));
  return (x & G_GUINT64_CONSTANT (0x007F007F007F007F)) | ((x << 1) & G_GUINT64_CONSTANT (0x7F007F007F007F00));
}

/* The continuation bits of a varint of 1 to 8 bytes: all but the last. */
static const guint64 continuation_by_len[9] = {
  0, 0, G_GUINT64_CONSTANT (0x80), G_GUINT64_CONSTANT (0x8080), G_GUINT64_CONSTANT (0x808080),
  G_GUINT64_CONSTANT (0x80808080), G_GUINT64_CONSTANT (0x8080808080), G_GUINT64_CONSTANT (0x808080808080),
  G_GUINT64_CONSTANT (0x80808080808080),
};

void
ttv_position_bytes_lay_out (TtvPositionBytes *b, const TtvPosition *p)
{
  g_return_if_fail (p->n == b->n);
  guint8 *at = ttv_position_put_head (b->bytes, p);
  b->head_len = (gsize) (at - b->bytes);
  b->head_hash = ttv_position_token_hash (TTV_POSITION_TOKEN_HASH_START, b->bytes, b->head_len);
  /* The same in every token of the traceset: the first 8 or 16 digits. */
  b->head_groups = b->head_len / 5;
  for (gsize g = 0; g < b->head_groups; g++)
    ttv_position_put_group (b->head_digits + g * 8, b->bytes + g * 5, b->pairs);
  b->stream = ttv_position_next_stream (p);
  b->time = ttv_position_next_time (p);
  at = ttv_position_put_next (at, b->stream, b->time);
  b->entries_start = (gsize) (at - b->bytes);
  for (guint i = 0; i < p->n; i++)
    {
      at = ttv_position_put_entry (at, &p->tf[i]);
      b->ends[i] = (gsize) (at - b->bytes);
    }
}

/* Makes the span of @old_len bytes at @at @new_len long, moving the bytes
 * of the tracefiles from @first on (which follow it). */
static void
resize_span (TtvPositionBytes *b, gsize at, gsize old_len, gsize new_len, guint first)
{
  gsize end = ttv_position_bytes_body_end (b);
  memmove (b->bytes + at + new_len, b->bytes + at + old_len, end - at - old_len);
  for (guint i = first; i < b->n; i++)
    b->ends[i] = b->ends[i] - old_len + new_len;
}

/* Rewrites the low bytes of the time where they differ from @old (varints
 * begin with the low bits); @time has as many bytes as @old. */
static inline void
put_time_low_bytes (TtvPositionBytes *b, guint64 time, guint64 old, gsize len)
{
  guint8 *at = b->bytes + b->entries_start - len;
  gsize n_changed = varint_len (time ^ old);
  for (gsize i = 0; i < n_changed; i++, time >>= 7)
    at[i] = (guint8) (time | 0x80);
  at[len - 1] &= 0x7f;
}

/* Whether @time and @old both take 9 bytes: 2^56 to 2^63 - 1, as the
 * zigzagged times since the epoch in ns do. */
static inline gboolean
both_nine_bytes (guint64 time, guint64 old)
{
  return (time >> 56) != 0 && (old >> 56) != 0 && ((time | old) >> 63) == 0;
}

/* Rewrites a time of 9 bytes: its low 56 bits spread into 8 bytes of 7
 * bits each, with their continuation bits, in one store (a loop over the
 * bytes costs twice as much), then the last byte. */
static inline void
put_nine_byte_time (TtvPositionBytes *b, guint64 time)
{
  guint64 x = GUINT64_TO_LE (spread_7bit (time & SHORT_VARINT_MAX) | G_GUINT64_CONSTANT (0x8080808080808080));
  guint8 *at = b->bytes + b->entries_start - 9;
  memcpy (at, &x, 8);
  at[8] = (guint8) (time >> 56);
}

/* Rewrites the next stream and time of any lengths.  Out of line: the
 * usual case keeps few registers. */
static G_NO_INLINE void
put_next_any (TtvPositionBytes *b, guint64 stream, guint64 time)
{
  gsize time_len = varint_len (time);
  if (stream == b->stream && stream != 0 && time_len == varint_len (b->time))
    put_time_low_bytes (b, time, b->time, time_len);
  else
    {
      gsize len = stream == 0 ? 1 : varint_len (stream) + time_len;
      gsize old_len = b->entries_start - b->head_len;
      if (len != old_len)
        {
          resize_span (b, b->head_len, old_len, len, 0);
          b->entries_start = b->head_len + len;
        }
      ttv_position_put_next (b->bytes + b->head_len, stream, time);
    }
  b->stream = stream;
  b->time = time;
}

void
ttv_position_bytes_put_next (TtvPositionBytes *b, const TtvPosition *p)
{
  guint64 stream = ttv_position_next_stream (p), time = ttv_position_next_time (p);
  /* Usually: a stream of one byte (1 to 127, as the last) and a time of
   * nine. */
  if (stream - 1 < 127 && b->stream - 1 < 127 && both_nine_bytes (time, b->time))
    {
      b->bytes[b->head_len] = (guint8) stream;
      put_nine_byte_time (b, time);
      b->stream = stream;
      b->time = time;
    }
  else if (stream != b->stream || time != b->time)
    put_next_any (b, stream, time);
}

/* Tracefile @i's span at @start made @len bytes long, then @e's bytes.
 * Out of line: the usual case keeps few registers. */
static G_NO_INLINE void
put_entry_resized (TtvPositionBytes *b, guint i, gsize start, gsize len, const TtvPositionEntry *e)
{
  resize_span (b, start, b->ends[i] - start, len, i);
  ttv_position_put_entry (b->bytes + start, e);
}

/* Tracefile @i's bytes of any @e, byte by byte: the general path. */
static G_NO_INLINE void
put_entry_any (TtvPositionBytes *b, guint i, const TtvPositionEntry *e)
{
  gsize start = i > 0 ? b->ends[i - 1] : b->entries_start;
  gsize len = entry_len (e);
  if (G_UNLIKELY (len != b->ends[i] - start))
    put_entry_resized (b, i, start, len, e);
  else
    ttv_position_put_entry (b->bytes + start, e);
}

/* The varint of @v (at most SHORT_VARINT_MAX, @len bytes) at @at in one
 * 8-byte store; returns its end.  The bytes stored past the end are
 * rewritten after. */
static inline guint8 *
put_short_varint (guint8 *at, guint64 v, gsize len)
{
  guint64 x = GUINT64_TO_LE (spread_7bit (v) | continuation_by_len[len]);
  memcpy (at, &x, 8);
  return at + len;
}

/* Values below 2^21 take at most 3 bytes as varints: a packet's number,
 * an event's byte offset in it and its index usually are. */
#define TINY_VARINT_MAX G_GUINT64_CONSTANT (0x1FFFFF)

/* spread_7bit () of @x below 2^21: three bytes, with masks that fit in
 * an instruction's immediate (no 64-bit constants held in registers). */
static inline guint64
spread_7bit_tiny (guint64 x)
{
  return (x & 0x7f) | ((x << 1) & 0x7f00) | ((x << 2) & 0x7f0000);
}

/* The varint of @v (at most TINY_VARINT_MAX, @len bytes) at @at in one
 * 4-byte store; returns its end.  The bytes stored past the end are
 * rewritten after. */
static inline guint8 *
put_tiny_varint (guint8 *at, guint64 v, gsize len)
{
  guint32 x = GUINT32_TO_LE ((guint32) (spread_7bit_tiny (v) | continuation_by_len[len]));
  memcpy (at, &x, 4);
  return at + len;
}

/* Tracefile @i's bytes when its three values are below 2^21 and as long
 * as before: three 4-byte stores, then the 4 bytes that follow them as
 * they were.  The usual case of put_entry, without its 64-bit masks. */
static inline void
put_tiny_entry (TtvPositionBytes *b, gsize start, gsize end, guint64 block, gsize block_len, guint64 offset,
                gsize offset_len, guint64 index, gsize index_len)
{
  guint32 after;
  memcpy (&after, b->bytes + end, 4);
  guint8 *at = put_tiny_varint (b->bytes + start, block, block_len);
  at = put_tiny_varint (at, offset, offset_len);
  put_tiny_varint (at, index, index_len);
  memcpy (b->bytes + end, &after, 4);
}

/* Tracefile @i's bytes when its three values are below 2^56 and as long
 * as before: three 8-byte stores, then the 8 bytes that follow them as
 * they were.  Out of line: its masks would take registers from the usual
 * case. */
static G_NO_INLINE void
put_short_entry (TtvPositionBytes *b, gsize start, gsize end, guint64 block, gsize block_len, guint64 offset,
                 gsize offset_len, guint64 index, gsize index_len)
{
  guint64 after;
  memcpy (&after, b->bytes + end, 8);
  guint8 *at = put_short_varint (b->bytes + start, block, block_len);
  at = put_short_varint (at, offset, offset_len);
  put_short_varint (at, index, index_len);
  memcpy (b->bytes + end, &after, 8);
}

/* Tracefile @i's bytes: usually (none at its end, all three values short
 * and as long as before) three 8-byte stores, or 4-byte ones for values
 * below 2^21, then the bytes that follow them as they were (the next
 * tracefile's or the checksum's room, which the slack covers); else the
 * general path. */
void
ttv_position_bytes_put_entry (TtvPositionBytes *b, guint i, const TtvPositionEntry *e)
{
  guint64 block = e->pos.block + 1, offset = e->pos.offset, index = e->pos.index;
  /* block + 1 is 0 for a tracefile without events (is_void). */
  if (G_UNLIKELY (e->at_end || block == 0 || ((block | offset | index) & ~SHORT_VARINT_MAX) != 0))
    {
      put_entry_any (b, i, e);
      return;
    }
  gsize start = i > 0 ? b->ends[i - 1] : b->entries_start, end = b->ends[i];
  gsize block_len = varint_len (block), offset_len = varint_len (offset), index_len = varint_len (index);
  if (G_UNLIKELY (block_len + offset_len + index_len != end - start))
    {
      put_entry_resized (b, i, start, block_len + offset_len + index_len, e);
      return;
    }
  if (G_LIKELY (((block | offset | index) & ~TINY_VARINT_MAX) == 0))
    put_tiny_entry (b, start, end, block, block_len, offset, offset_len, index, index_len);
  else
    put_short_entry (b, start, end, block, block_len, offset, offset_len, index, index_len);
}

void
ttv_position_bytes_append_token (TtvPositionBytes *b, GString *out)
{
  gsize end = ttv_position_bytes_body_end (b);
  guint32 h = ttv_position_token_hash (b->head_hash, b->bytes + b->head_len, end - b->head_len);
  gsize len = (gsize) (ttv_position_put_checksum (b->bytes + end, h) - b->bytes);
  char *s = ttv_text_reserve (out, TTV_POSITION_DIGITS_WIDE_ROOM (len));
  gsize n_digits = ttv_position_put_digits_after_head (s, b->bytes, len, b->head_digits, b->head_groups, b->wide,
                                                       b->pairs);
  ttv_text_commit (out, s + n_digits);
}
