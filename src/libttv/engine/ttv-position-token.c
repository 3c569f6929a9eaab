/* ttv-position-token.c: the position token writer of reports (see
 * ttv-position-token.h).  The token (ttv-position.c) is base32 of: a head
 * (version, shape, tracefile count), the next stream and time, each
 * tracefile's varints, and a checksum of all that.  A report writes one per
 * event and consecutive events change little: the head never, the next time
 * always, and usually one tracefile.  So the writer keeps the last token's
 * bytes in place, rewrites the spans whose values changed, hashes from after
 * the head and redoes the digits of the 5-byte groups that changed.  The
 * checksum itself cannot be kept: the time comes before the tracefiles. */
#include "ttv-position-token.h"
#include "ttv-position-private.h"
#include "ttv-text.h"

#include <string.h>

/* What one tracefile's bytes say: the varints written for it. */
typedef struct {
  guint64 block;                /* block + 1; 0 at its end (then nothing more) */
  guint64 offset;
  guint64 index;
} EntryKey;

struct _TtvPositionTokenWriter {
  /* The last token, laid out for (shape, n) once laid_out is set. */
  gboolean laid_out;
  guint32 shape;
  guint n;
  gsize head_len;               /* version, shape and n */
  guint32 head_hash;            /* the checksum's hash state after the head */
  gsize entries_start;          /* after the next stream and time */
  EntryKey *keys;               /* [n]: each tracefile's values... */
  gsize *ends;                  /* [n]: ...and where its bytes end */
  guint8 *bytes;                /* [size]: the token's bytes, then zeros to a whole group */
  gsize len;                    /* of the token's bytes, with the checksum */
  gsize size;
  /* The digits of each 5-byte group in coded[] (n_coded groups): a group of
   * bytes[] equal to its coded[] one has these digits. */
  guint8 *coded;                /* [size] */
  char *digits;                 /* [size / 5 * 8] */
  gsize n_coded;
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
  g_free (w->keys);
  g_free (w->ends);
  g_free (w->bytes);
  g_free (w->coded);
  g_free (w->digits);
  g_free (w);
}

/* Bytes of @v as a varint (1 to 10). */
static inline gsize
varint_len (guint64 v)
{
  return 1 + (63 - (gsize) __builtin_clzll (v | 1)) / 7;
}

static inline EntryKey
entry_key (const TtvPositionEntry *e)
{
  if (e->at_end || e->pos.block == G_MAXUINT64)
    return (EntryKey) { 0, 0, 0 };
  return (EntryKey) { e->pos.block + 1, e->pos.offset, e->pos.index };
}

static inline gboolean
entry_key_equal (const EntryKey *a, const EntryKey *b)
{
  return a->block == b->block && a->offset == b->offset && a->index == b->index;
}

static inline gsize
entry_len (const EntryKey *k)
{
  if (k->block == 0)
    return 1;
  return varint_len (k->block) + varint_len (k->offset) + varint_len (k->index);
}

static inline guint8 *
put_entry (guint8 *at, const EntryKey *k)
{
  at = ttv_position_put_varint (at, k->block);
  if (k->block == 0)
    return at;
  at = ttv_position_put_varint (at, k->offset);
  return ttv_position_put_varint (at, k->index);
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

/* Room for a token of @n tracefiles, a zero-padded last group, and the
 * digits of all groups; what is coded stays coded. */
static void
ensure_size (TtvPositionTokenWriter *w, guint n)
{
  gsize size = TTV_POSITION_TOKEN_MAX_BYTES (n) + 5;
  if (size <= w->size)
    return;
  w->bytes = g_realloc (w->bytes, size);
  w->coded = g_realloc (w->coded, size);
  w->digits = g_realloc (w->digits, size / 5 * 8);
  w->size = size;
}

/* Writes the whole token body of @p (a new traceset, or the first token). */
static void
lay_out (TtvPositionTokenWriter *w, const TtvPosition *p)
{
  ensure_size (w, p->n);
  if (!w->laid_out || w->n != p->n)
    {
      w->keys = g_renew (EntryKey, w->keys, p->n);
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
  at = put_mid (at, p);
  w->entries_start = (gsize) (at - w->bytes);
  for (guint i = 0; i < p->n; i++)
    {
      w->keys[i] = entry_key (&p->tf[i]);
      at = put_entry (at, &w->keys[i]);
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

/* Rewrites the spans of the last token (same shape and count) whose values
 * @p changes. */
static void
update (TtvPositionTokenWriter *w, const TtvPosition *p)
{
  gsize len = mid_len (p), old_len = w->entries_start - w->head_len;
  if (len != old_len)
    {
      resize_span (w, w->head_len, old_len, len, 0);
      w->entries_start = w->head_len + len;
    }
  put_mid (w->bytes + w->head_len, p);

  for (guint i = 0; i < p->n; i++)
    {
      EntryKey k = entry_key (&p->tf[i]);
      if (entry_key_equal (&k, &w->keys[i]))
        continue;
      gsize start = i > 0 ? w->ends[i - 1] : w->entries_start;
      len = entry_len (&k);
      if (len != w->ends[i] - start)
        resize_span (w, start, w->ends[i] - start, len, i);
      put_entry (w->bytes + start, &k);
      w->keys[i] = k;
    }
}

/* The eight digits of a group of five bytes. */
static inline void
put_group (char *s, const guint8 *b, const char (*pairs)[2])
{
  guint64 v = ((guint64) b[0] << 32) | ((guint64) b[1] << 24) | ((guint64) b[2] << 16)
              | ((guint64) b[3] << 8) | b[4];
  memcpy (s, pairs[(v >> 30) & 1023], 2);
  memcpy (s + 2, pairs[(v >> 20) & 1023], 2);
  memcpy (s + 4, pairs[(v >> 10) & 1023], 2);
  memcpy (s + 6, pairs[v & 1023], 2);
}

/* Brings the digits of bytes[0, len) up to date.  The last group is
 * padded with zero bytes: its first digits are those of the bytes it has,
 * padded with zero bits, as the token's last digit is. */
static void
code_groups (TtvPositionTokenWriter *w)
{
  memset (w->bytes + w->len, 0, 4);
  gsize n_groups = (w->len + 4) / 5;
  for (gsize g = 0; g < n_groups; g++)
    {
      const guint8 *b = w->bytes + g * 5;
      guint8 *c = w->coded + g * 5;
      if (g < w->n_coded && memcmp (b, c, 5) == 0)
        continue;
      put_group (w->digits + g * 8, b, w->pairs);
      memcpy (c, b, 5);
    }
  w->n_coded = MAX (w->n_coded, n_groups);
}

void
ttv_position_token_writer_append (TtvPositionTokenWriter *w, const TtvPosition *p, GString *out)
{
  g_return_if_fail (w != NULL && p != NULL);
  if (w->laid_out && w->shape == p->shape && w->n == p->n)
    update (w, p);
  else
    lay_out (w, p);

  gsize end = body_end (w);
  guint32 h = ttv_position_token_hash (w->head_hash, w->bytes + w->head_len, end - w->head_len);
  guint16 sum = ttv_position_token_fold (h);
  w->bytes[end] = (guint8) sum;
  w->bytes[end + 1] = (guint8) (sum >> 8);
  w->len = end + 2;
  code_groups (w);

  gsize n_digits = (w->len * 8 + 4) / 5;
  char *s = ttv_text_reserve (out, n_digits);
  ttv_text_commit (out, ttv_text_put (s, w->digits, n_digits));
}
