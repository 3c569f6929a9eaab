/* ttv-position-token.c: the position token writer of reports (see
 * ttv-position-token.h).  The token (ttv-position.c) is base32 of: a head
 * (version, shape, tracefile count), the next stream and time, each
 * tracefile's varints, and a checksum of all that.  A report writes one per
 * event and consecutive events change little: the head never, the next time
 * always, and usually one tracefile.  So the writer keeps the last token's
 * bytes in place, rewrites the spans whose values changed (of the time only
 * its low bytes) and hashes from after the head.  The checksum itself cannot
 * be kept: the time comes before the tracefiles.  Keeping the digits of the
 * unchanged 5-byte groups as well did not pay (bench/README.md, issue 15),
 * even with a mask of the groups changed (about 4.7 of 6 an event on the
 * kernel shape).  A position the context updates in place says which
 * tracefile moved (ttv-position-private.h): then the others are not
 * compared. */
#include "ttv-position-token.h"
#include "ttv-position-private.h"
#include "ttv-text.h"

#include <string.h>

struct _TtvPositionTokenWriter {
  /* The last token, laid out for (shape, n) once laid_out is set. */
  gboolean laid_out;
  guint32 shape;
  guint n;
  gsize head_len;               /* version, shape and n */
  guint32 head_hash;            /* the checksum's hash state after the head */
  guint64 stream, time;         /* mid_stream (), mid_time () (0 at the end) */
  gsize entries_start;          /* after them */
  TtvPositionEntry *seen;       /* [n]: the tracefiles' values written... */
  gsize *ends;                  /* [n]: ...and where their bytes end */
  guint8 *bytes;                /* [size]: the token's bytes, then zeros to a whole group */
  gsize len;                    /* of the token's bytes, with the checksum */
  gsize size;
  char head_digits[16];         /* of the head's whole 5-byte groups... */
  gsize head_groups;            /* ...1 or 2 */
  guint64 origin, serial;       /* of the position written last (origin 0: none) */
  const char (*pairs)[2];
};

TtvPositionTokenWriter *
ttv_position_token_writer_new (void)
{
  TtvPositionTokenWriter *w = g_new0 (TtvPositionTokenWriter, 1);
  w->pairs = ttv_position_b32_pairs ();
  return w;
}

void
ttv_position_token_writer_free (TtvPositionTokenWriter *w)
{
  if (w == NULL)
    return;
  g_free (w->seen);
  g_free (w->ends);
  g_free (w->bytes);
  g_free (w);
}

/* Bytes of a varint by the leading zero bits of its value: a load, not a
 * division by 7. */
static const guint8 varint_len_by_clz[64] = {
  10, 9, 9, 9, 9, 9, 9, 9, 8, 8, 8, 8, 8, 8, 8, 7, 7, 7, 7, 7, 7, 7,
  6, 6, 6, 6, 6, 6, 6, 5, 5, 5, 5, 5, 5, 5, 4, 4, 4, 4, 4, 4, 4,
  3, 3, 3, 3, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1,
};

/* Bytes of @v as a varint (1 to 10). */
static inline gsize
varint_len (guint64 v)
{
  return varint_len_by_clz[__builtin_clzll (v | 1)];
}

/* What a tracefile's bytes say: 0 at its end (or when it has no event),
 * else its block + 1, offset and index. */
static inline gboolean
entry_is_void (const TtvPositionEntry *e)
{
  return e->at_end || e->pos.block == G_MAXUINT64;
}

static inline gboolean
entry_equal (const TtvPositionEntry *a, const TtvPositionEntry *b)
{
  return a->pos.block == b->pos.block && a->pos.offset == b->pos.offset
         && a->pos.index == b->pos.index && a->at_end == b->at_end;
}

static inline gsize
entry_len (const TtvPositionEntry *e)
{
  if (entry_is_void (e))
    return 1;
  return varint_len (e->pos.block + 1) + varint_len (e->pos.offset) + varint_len (e->pos.index);
}

static inline guint8 *
put_entry (guint8 *at, const TtvPositionEntry *e)
{
  if (entry_is_void (e))
    return ttv_position_put_varint (at, 0);
  at = ttv_position_put_varint (at, e->pos.block + 1);
  at = ttv_position_put_varint (at, e->pos.offset);
  return ttv_position_put_varint (at, e->pos.index);
}

/* The next stream (+ 1, 0 at the end) and, before the end, its time
 * (zigzag). */
static inline guint64
mid_stream (const TtvPosition *p)
{
  return p->next >= p->n ? 0 : (guint64) p->next + 1;
}

static inline guint64
mid_time (const TtvPosition *p)
{
  if (p->next >= p->n)
    return 0;
  return ((guint64) p->next_time << 1) ^ (guint64) (p->next_time >> 63);
}

static inline gsize
mid_len (const TtvPosition *p)
{
  return p->next >= p->n ? 1 : varint_len (mid_stream (p)) + varint_len (mid_time (p));
}

static inline guint8 *
put_mid (guint8 *at, const TtvPosition *p)
{
  at = ttv_position_put_varint (at, mid_stream (p));
  if (p->next >= p->n)
    return at;
  return ttv_position_put_varint (at, mid_time (p));
}

static inline gsize
body_end (const TtvPositionTokenWriter *w)
{
  return w->n > 0 ? w->ends[w->n - 1] : w->entries_start;
}

/* The eight digits of the five bytes at @b (and three readable after). */
static inline void
put_group (char *s, const guint8 *b, const char (*pairs)[2])
{
  guint64 v;
  memcpy (&v, b, 8);
  v = GUINT64_FROM_BE (v) >> 24;
  memcpy (s, pairs[(v >> 30) & 1023], 2);
  memcpy (s + 2, pairs[(v >> 20) & 1023], 2);
  memcpy (s + 4, pairs[(v >> 10) & 1023], 2);
  memcpy (s + 6, pairs[v & 1023], 2);
}

/* Room for a token of @n tracefiles, a zero-padded last group and the
 * three bytes a group's 8-byte load reads past it. */
static void
ensure_size (TtvPositionTokenWriter *w, guint n)
{
  gsize size = TTV_POSITION_TOKEN_MAX_BYTES (n) + 8;
  if (size <= w->size)
    return;
  /* Zeros: the loads past the end read defined bytes.  A new size comes
   * with a new layout, which writes all. */
  g_free (w->bytes);
  w->bytes = g_malloc0 (size);
  w->size = size;
}

/* Writes the whole token body of @p (a new traceset, or the first token). */
static void
lay_out (TtvPositionTokenWriter *w, const TtvPosition *p)
{
  ensure_size (w, p->n);
  if (!w->laid_out || w->n != p->n)
    {
      w->seen = g_renew (TtvPositionEntry, w->seen, p->n);
      w->ends = g_renew (gsize, w->ends, p->n);
    }
  w->shape = p->shape;
  w->n = p->n;
  guint8 *at = w->bytes;
  *at++ = TTV_POSITION_TOKEN_VERSION;
  *at++ = (guint8) p->shape;
  *at++ = (guint8) (p->shape >> 8);
  *at++ = (guint8) (p->shape >> 16);
  *at++ = (guint8) (p->shape >> 24);
  at = ttv_position_put_varint (at, p->n);
  w->head_len = (gsize) (at - w->bytes);
  w->head_hash = ttv_position_token_hash (TTV_POSITION_TOKEN_HASH_START, w->bytes, w->head_len);
  /* The same in every token of the traceset: the first 8 or 16 digits. */
  w->head_groups = w->head_len / 5;
  for (gsize g = 0; g < w->head_groups; g++)
    put_group (w->head_digits + g * 8, w->bytes + g * 5, w->pairs);
  at = put_mid (at, p);
  w->stream = mid_stream (p);
  w->time = mid_time (p);
  w->entries_start = (gsize) (at - w->bytes);
  for (guint i = 0; i < p->n; i++)
    {
      w->seen[i] = p->tf[i];
      at = put_entry (at, &p->tf[i]);
      w->ends[i] = (gsize) (at - w->bytes);
    }
  w->laid_out = TRUE;
}

/* Makes the span of @old_len bytes at @at @new_len long, moving the bytes
 * of the tracefiles from @first on (which follow it). */
static void
resize_span (TtvPositionTokenWriter *w, gsize at, gsize old_len, gsize new_len, guint first)
{
  gsize end = body_end (w);
  memmove (w->bytes + at + new_len, w->bytes + at + old_len, end - at - old_len);
  for (guint i = first; i < w->n; i++)
    w->ends[i] = w->ends[i] - old_len + new_len;
}

/* Rewrites the next stream and time.  Usually only the time's low bytes
 * change (varints begin with the low bits): only those are rewritten. */
static void
update_mid (TtvPositionTokenWriter *w, const TtvPosition *p)
{
  guint64 stream = mid_stream (p), time = mid_time (p);
  if (stream == w->stream && time == w->time)
    return;
  gsize time_len = varint_len (time);
  if (stream == w->stream && stream != 0 && time_len == varint_len (w->time))
    {
      gsize at = w->entries_start - time_len;
      gsize n_changed = varint_len (time ^ w->time);
      guint8 *b = w->bytes + at;
      guint64 v = time;
      for (gsize i = 0; i < n_changed; i++, v >>= 7)
        b[i] = (guint8) (v | 0x80);
      b[time_len - 1] &= 0x7f;
    }
  else
    {
      gsize len = mid_len (p), old_len = w->entries_start - w->head_len;
      if (len != old_len)
        {
          resize_span (w, w->head_len, old_len, len, 0);
          w->entries_start = w->head_len + len;
        }
      put_mid (w->bytes + w->head_len, p);
    }
  w->stream = stream;
  w->time = time;
}

/* Rewrites tracefile @i's span if its value @e changed. */
static inline void
update_entry (TtvPositionTokenWriter *w, guint i, const TtvPositionEntry *e)
{
  if (entry_equal (e, &w->seen[i]))
    return;
  gsize start = i > 0 ? w->ends[i - 1] : w->entries_start;
  gsize len = entry_len (e);
  if (len != w->ends[i] - start)
    resize_span (w, start, w->ends[i] - start, len, i);
  put_entry (w->bytes + start, e);
  w->seen[i] = *e;
}

/* Whether the tracefiles of @p are those written last but tf[p->changed]
 * (ttv-position-private.h): the next update of the same position. */
static inline gboolean
knows_changes (const TtvPositionTokenWriter *w, const TtvPosition *p)
{
  return p->origin != 0 && p->origin == w->origin && p->changed != TTV_POSITION_CHANGED_ANY
         && p->serial == w->serial + 1;
}

/* Rewrites the spans of the last token (same shape and count) whose values
 * @p changes. */
static void
update (TtvPositionTokenWriter *w, const TtvPosition *p)
{
  update_mid (w, p);
  if (knows_changes (w, p))
    {
      if (p->changed < p->n)
        update_entry (w, p->changed, &p->tf[p->changed]);
      return;
    }
  if (p->origin != 0 && p->origin == w->origin && p->serial == w->serial)
    return;                     /* the same update again */
  for (guint i = 0; i < p->n; i++)
    update_entry (w, i, &p->tf[i]);
}

void
ttv_position_token_writer_append (TtvPositionTokenWriter *w, const TtvPosition *p, GString *out)
{
  g_return_if_fail (w != NULL && p != NULL);
  if (w->laid_out && w->shape == p->shape && w->n == p->n)
    update (w, p);
  else
    lay_out (w, p);
  w->origin = p->origin;
  w->serial = p->serial;

  gsize end = body_end (w);
  guint32 h = ttv_position_token_hash (w->head_hash, w->bytes + w->head_len, end - w->head_len);
  guint16 sum = ttv_position_token_fold (h);
  w->bytes[end] = (guint8) sum;
  w->bytes[end + 1] = (guint8) (sum >> 8);
  w->len = end + 2;

  /* Whole groups of five bytes, the last one padded with zero bytes: its
   * first digits are those of the bytes it has padded with zero bits, as
   * the token's last digit is. */
  memset (w->bytes + w->len, 0, 4);
  gsize n_digits = (w->len * 8 + 4) / 5;
  char *s = ttv_text_reserve (out, n_digits + 8);
  memcpy (s, w->head_digits, sizeof w->head_digits);
  for (gsize g = w->head_groups; g * 5 < w->len; g++)
    put_group (s + g * 8, w->bytes + g * 5, w->pairs);
  ttv_text_commit (out, s + n_digits);
}
