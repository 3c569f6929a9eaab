/* ttv-position-token.c: the position token writer of reports (see
 * ttv-position-token.h).  A position the context updates in place keeps
 * its token's bytes itself (ttv-position-bytes.h): the writer appends the
 * token from them.  Of any other position the writer keeps the bytes of
 * the last one and, for the next of the same traceset, rewrites the
 * tracefiles whose values changed.
 *
 * Deferred tokens: the checksum is a chain of dependent multiplications
 * (ttv_position_token_hash), about four cycles a byte whatever else the
 * processor could do meanwhile, a fifth of a kernel trace's jsonl report.
 * A deferred token keeps its place in the text and a copy of its bytes in
 * a slot; sixteen of them are hashed at once, as sixteen chains that do
 * not wait for each other (in two registers' lanes with AVX2,
 * ttv-position-hash-wide.h; else eight chains at a time), and their
 * digits written into their places (bench/README.md, issue 15). */
#include "ttv-position-token.h"
#include "ttv-position-bytes.h"
#include "ttv-position-digits.h"
#include "ttv-position-hash-wide.h"
#include "ttv-text.h"

/* Tokens hashed at once. */
#define DEFERRED_MAX TTV_POSITION_HASH_WIDE_N
/* Chains of the general path's loop. */
#define CHAINS 8
/* A deferred token's bytes (after the head's whole groups) take at most
 * this much, with the checksum, the digits' slack and the copy's overrun
 * (a longer one is written at once). */
#define SLOT_BYTES 256
#define SLOT_MAX_N (SLOT_BYTES - 2 - TTV_POSITION_TOKEN_DIGITS_SLACK - 64)
/* Bytes after a token's digits that their writers may write over. */
#define DIGITS_OVERRUN 32

struct _TtvPositionTokenWriter {
  TtvPositionBytes *last;       /* of the last position without bytes; NULL: none yet */
  guint32 shape;                /* its traceset's */
  TtvPositionEntry *seen;       /* [last->n]: its tracefiles' values */
  gboolean wide;                /* digits and checksums by AVX2: set_wide () */
  const char (*pairs)[2];       /* ttv_position_b32_pairs () */
  gboolean defer;               /* ttv_position_token_writer_set_deferred () */
  guint n_deferred;
  GString *out;                 /* weak: whose text holds the deferred tokens' places */
  guint32 hash_from;            /* their hash: of bytes[hash_from, n) from head_hash */
  guint32 head_hash;
  gsize at[DEFERRED_MAX];       /* where each one's digits go in out->str */
  guint32 n[DEFERRED_MAX];      /* its bytes before the checksum */
  guint8 slots[DEFERRED_MAX * SLOT_BYTES];
};

TtvPositionTokenWriter *
ttv_position_token_writer_new (void)
{
  TtvPositionTokenWriter *w = g_new0 (TtvPositionTokenWriter, 1);
  w->pairs = ttv_position_b32_pairs ();
  ttv_position_token_writer_set_wide (w, TRUE);
  return w;
}

void
ttv_position_token_writer_set_wide (TtvPositionTokenWriter *w, gboolean wide)
{
  ttv_position_token_writer_finish (w);
  w->wide = wide && ttv_cpu_has_avx2 ();
}

void
ttv_position_token_writer_free (TtvPositionTokenWriter *w)
{
  if (w == NULL)
    return;
  ttv_position_bytes_free (w->last);
  g_free (w->seen);
  g_free (w);
}

/* ---- Deferred tokens ---- */

/* The hashes of the eight slots from @first: eight chains in one loop,
 * none waiting for another's multiplications.  The lengths differ by a
 * few bytes from token to token: past its bytes a hash keeps its value by
 * a mask, not a branch that would mispredict where it ends (its loads
 * read the slot). */
static void
hash_eight (const TtvPositionTokenWriter *w, guint first, const guint32 len[CHAINS], guint32 h[CHAINS])
{
  const guint8 *base = w->slots + first * SLOT_BYTES + w->hash_from;
  guint32 shortest = G_MAXUINT32, longest = 0;
  for (guint i = 0; i < CHAINS; i++)
    {
      shortest = MIN (shortest, len[i]);
      longest = MAX (longest, len[i]);
    }
  guint32 h0 = w->head_hash, h1 = h0, h2 = h0, h3 = h0, h4 = h0, h5 = h0, h6 = h0, h7 = h0;
  guint32 k = 0;
  for (; k < shortest; k++)
    {
      const guint8 *q = base + k;
      h0 = ttv_position_token_hash_step (h0, q[0 * SLOT_BYTES]);
      h1 = ttv_position_token_hash_step (h1, q[1 * SLOT_BYTES]);
      h2 = ttv_position_token_hash_step (h2, q[2 * SLOT_BYTES]);
      h3 = ttv_position_token_hash_step (h3, q[3 * SLOT_BYTES]);
      h4 = ttv_position_token_hash_step (h4, q[4 * SLOT_BYTES]);
      h5 = ttv_position_token_hash_step (h5, q[5 * SLOT_BYTES]);
      h6 = ttv_position_token_hash_step (h6, q[6 * SLOT_BYTES]);
      h7 = ttv_position_token_hash_step (h7, q[7 * SLOT_BYTES]);
    }
  h[0] = h0; h[1] = h1; h[2] = h2; h[3] = h3; h[4] = h4; h[5] = h5; h[6] = h6; h[7] = h7;
  for (; k < longest; k++)
    for (guint i = 0; i < CHAINS; i++)
      {
        guint32 m = -(guint32) (k < len[i]);
        h[i] ^= (ttv_position_token_hash_step (h[i], base[i * SLOT_BYTES + k]) ^ h[i]) & m;
      }
}

/* The hashes of a full batch of slots. */
static void
hash_all (const TtvPositionTokenWriter *w, guint32 h[DEFERRED_MAX])
{
  guint32 len[DEFERRED_MAX];
  for (guint i = 0; i < DEFERRED_MAX; i++)
    len[i] = w->n[i] - w->hash_from;
#ifdef TTV_POSITION_HASH_WIDE
  if (G_LIKELY (w->wide))
    {
      ttv_position_token_hash_sixteen (w->slots + w->hash_from, SLOT_BYTES, len, w->head_hash, h);
      return;
    }
#endif
  for (guint first = 0; first < DEFERRED_MAX; first += CHAINS)
    hash_eight (w, first, len + first, h + first);
}

/* Writes slot @i's digits into their place; what their writers write
 * past them is put back. */
static inline void
put_digits_of (TtvPositionTokenWriter *w, guint i)
{
  guint8 *bytes = w->slots + i * SLOT_BYTES;
  gsize len = w->n[i] + 2, n_digits = (len * 8 + 4) / 5, at = w->at[i];
  GString *out = w->out;
  if (G_UNLIKELY (at > out->len || out->len - at < n_digits || out->allocated_len - at - n_digits <= DIGITS_OVERRUN))
    {
      g_critical ("%s: a deferred position token's text was cut before it was finished", G_STRFUNC);
      return;
    }
  char *s = out->str + at;
  char after[DIGITS_OVERRUN];
  memcpy (after, s + n_digits, DIGITS_OVERRUN);
#ifdef TTV_POSITION_DIGITS_WIDE
  if (G_LIKELY (w->wide))
    ttv_position_put_digits_wide_padded (s, bytes, len, 0);
  else
#endif
    ttv_position_put_digits (s, bytes, len, 0, w->pairs);
  memcpy (s + n_digits, after, DIGITS_OVERRUN);
}

/* Slot @i's checksum of hash @h after its bytes, then the zeros that pad
 * the digits' last group, in one store. */
static inline void
put_checksum_padded (TtvPositionTokenWriter *w, guint i, guint32 h)
{
  guint64 word = GUINT64_TO_LE ((guint64) ttv_position_token_fold (h));
  memcpy (w->slots + i * SLOT_BYTES + w->n[i], &word, 8);
}

void
ttv_position_token_writer_finish (TtvPositionTokenWriter *w)
{
  g_return_if_fail (w != NULL);
  guint k = w->n_deferred;
  guint32 h[DEFERRED_MAX];
  if (k == DEFERRED_MAX)
    hash_all (w, h);
  else
    for (guint i = 0; i < k; i++)
      h[i] = ttv_position_token_hash (w->head_hash, w->slots + i * SLOT_BYTES + w->hash_from,
                                      w->n[i] - w->hash_from);
  /* Every checksum and its padding, then every token's digits: the
   * digits' wide loads then find those stores written, not still on
   * their way (a load that overlaps a recent narrower store waits for
   * it: a fifth of the digits' time when each token padded its own). */
  for (guint i = 0; i < k; i++)
    put_checksum_padded (w, i, h[i]);
  for (guint i = 0; i < k; i++)
    put_digits_of (w, i);
  w->n_deferred = 0;
}

/* Appends @b's token to @out: the head's digits and the place of the
 * others, which a batch of deferred tokens get at once.  FALSE (nothing
 * appended) for a token too long to defer. */
static inline gboolean
defer_token (TtvPositionTokenWriter *w, const TtvPositionBytes *b, GString *out)
{
  gsize start = b->head_groups * 5;
  gsize n = ttv_position_bytes_body_end (b) - start;
  guint32 hash_from = (guint32) (b->head_len - start);
  if (G_UNLIKELY (n > SLOT_MAX_N))
    return FALSE;
  if (G_UNLIKELY (w->n_deferred > 0 && (out != w->out || hash_from != w->hash_from || b->head_hash != w->head_hash)))
    ttv_position_token_writer_finish (w);
  w->out = out;
  w->hash_from = hash_from;
  w->head_hash = b->head_hash;
  guint i = w->n_deferred;
  guint8 *dst = w->slots + i * SLOT_BYTES;
  /* Two fixed copies of 32 bytes (the bytes have the digits' slack after
   * them), a loop for the rare longer token. */
  memcpy (dst, b->bytes + start, 32);
  memcpy (dst + 32, b->bytes + start + 32, 32);
  for (gsize k = 64; G_UNLIKELY (k < n); k += 32)
    memcpy (dst + k, b->bytes + start + k, 32);
  w->n[i] = (guint32) n;
  gsize n_digits = ((n + 2) * 8 + 4) / 5;
  char *s = ttv_text_reserve (out, 16 + n_digits + DIGITS_OVERRUN);
  memcpy (s, b->head_digits, 16);
  s += b->head_groups * 8;
  w->at[i] = (gsize) (s - out->str);
  ttv_text_commit (out, s + n_digits);
  if (++w->n_deferred == DEFERRED_MAX)
    ttv_position_token_writer_finish (w);
  return TRUE;
}

/* ---- Positions without bytes ---- */

static inline gboolean
entry_equal (const TtvPositionEntry *a, const TtvPositionEntry *b)
{
  return a->pos.block == b->pos.block && a->pos.offset == b->pos.offset
         && a->pos.index == b->pos.index && a->at_end == b->at_end;
}

/* Encodes all of @p (the first position, or of another traceset). */
static void
lay_out (TtvPositionTokenWriter *w, const TtvPosition *p)
{
  if (w->last == NULL || w->last->n != p->n)
    {
      ttv_position_bytes_free (w->last);
      w->last = ttv_position_bytes_new (p->n);
      w->seen = g_renew (TtvPositionEntry, w->seen, p->n);
    }
  w->shape = p->shape;
  ttv_position_bytes_lay_out (w->last, p);
  for (guint i = 0; i < p->n; i++)
    w->seen[i] = p->tf[i];
}

/* Rewrites what @p (same traceset) changes of the last position. */
static void
update (TtvPositionTokenWriter *w, const TtvPosition *p)
{
  ttv_position_bytes_put_next (w->last, p);
  for (guint i = 0; i < p->n; i++)
    if (!entry_equal (&p->tf[i], &w->seen[i]))
      {
        ttv_position_bytes_put_entry (w->last, i, &p->tf[i]);
        w->seen[i] = p->tf[i];
      }
}

/* The token of @p, which has no bytes of its own, from the writer's.
 * Out of line: the usual call (a peeked position, with its bytes) then
 * saves no registers. */
static G_NO_INLINE void
append_from_last (TtvPositionTokenWriter *w, const TtvPosition *p, GString *out)
{
  if (w->last != NULL && w->last->n == p->n && w->shape == p->shape)
    update (w, p);
  else
    lay_out (w, p);
  if (!w->defer || !defer_token (w, w->last, out))
    ttv_position_bytes_append_token (w->last, out);
}

void
ttv_position_token_writer_set_deferred (TtvPositionTokenWriter *w, gboolean defer)
{
  g_return_if_fail (w != NULL);
  if (!defer)
    ttv_position_token_writer_finish (w);
  w->defer = defer;
}

void
ttv_position_token_writer_append (TtvPositionTokenWriter *w, const TtvPosition *p, GString *out)
{
  g_return_if_fail (w != NULL && p != NULL);
  if (p->bytes != NULL)
    {
      if (!w->defer || !defer_token (w, p->bytes, out))
        ttv_position_bytes_append_token (p->bytes, out);
    }
  else
    append_from_last (w, p, out);
}
