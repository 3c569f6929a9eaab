/* ttv-position.c: positions in a traceset: copy, compare, and the text
 * token used by the CLI (--after) and bookmarks.  The context makes and restores them. */
#include "ttv-position-bytes.h"
#include "ttv-error.h"
#include "ttv-text.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>

TtvPosition *
ttv_position_alloc (guint n)
{
  TtvPosition *p = g_malloc0 (sizeof (TtvPosition) + (gsize) n * sizeof (TtvPositionEntry));
  p->n = n;
  p->next = n;
  p->next_time = TTV_TIME_MAX;
  return p;
}

TtvPosition *
ttv_position_copy (const TtvPosition *p)
{
  g_return_val_if_fail (p != NULL, NULL);
  TtvPosition *copy = g_memdup2 (p, sizeof (TtvPosition) + (gsize) p->n * sizeof (TtvPositionEntry));
  copy->bytes = NULL;           /* the original's, and immutable copies need none */
  return copy;
}

void
ttv_position_free (TtvPosition *p)
{
  if (p == NULL)
    return;
  ttv_position_bytes_free (p->bytes);
  g_free (p);
}

guint
ttv_position_get_n_tracefiles (const TtvPosition *p)
{
  g_return_val_if_fail (p != NULL, 0);
  return p->n;
}

gboolean
ttv_position_get_tracefile (const TtvPosition *p, guint stream, TtvTracefilePosition *out)
{
  g_return_val_if_fail (p != NULL && stream < p->n, FALSE);
  if (p->tf[stream].at_end)
    return FALSE;
  if (out)
    *out = p->tf[stream].pos;
  return TRUE;
}

gboolean
ttv_position_is_end (const TtvPosition *p)
{
  g_return_val_if_fail (p != NULL, TRUE);
  return p->next >= p->n;
}

TtvTime
ttv_position_get_time (const TtvPosition *p)
{
  g_return_val_if_fail (p != NULL, TTV_TIME_MAX);
  return p->next_time;
}

guint
ttv_position_get_stream (const TtvPosition *p)
{
  g_return_val_if_fail (p != NULL, 0);
  return p->next;
}

static int
entry_compare (const TtvPositionEntry *a, const TtvPositionEntry *b)
{
  if (a->at_end || b->at_end)
    return (int) a->at_end - (int) b->at_end;
  int c = ttv_tracefile_position_compare (&a->pos, &b->pos);
  if (c != 0)
    return c;
  if (a->pos.index != b->pos.index)
    return a->pos.index < b->pos.index ? -1 : 1;
  return 0;
}

int
ttv_position_compare (const TtvPosition *a, const TtvPosition *b)
{
  g_return_val_if_fail (a != NULL && b != NULL, 0);
  g_return_val_if_fail (a->n == b->n && a->shape == b->shape, 0);
  gboolean a_end = a->next >= a->n, b_end = b->next >= b->n;
  if (a_end || b_end)
    {
      if (a_end != b_end)
        return a_end ? 1 : -1;
    }
  else
    {
      if (a->next_time != b->next_time)
        return a->next_time < b->next_time ? -1 : 1;
      if (a->next != b->next)
        return a->next < b->next ? -1 : 1;
      int c = entry_compare (&a->tf[a->next], &b->tf[b->next]);
      if (c != 0)
        return c;
    }
  /* Same next event: only inconsistent positions differ further; still a
   * total order. */
  for (guint i = 0; i < a->n; i++)
    {
      int c = entry_compare (&a->tf[i], &b->tf[i]);
      if (c != 0)
        return c;
    }
  return 0;
}

gboolean
ttv_position_equal (const TtvPosition *a, const TtvPosition *b)
{
  g_return_val_if_fail (a != NULL && b != NULL, FALSE);
  return a->n == b->n && a->shape == b->shape && ttv_position_compare (a, b) == 0;
}

/* --- Token ------------------------------------------------------------- */

static const char b32_alphabet[] = "0123456789abcdefghjkmnpqrstvwxyz";

static gboolean
get_varint (const guint8 *p, gsize len, gsize *at, guint64 *out)
{
  guint64 v = 0;
  for (guint shift = 0; shift < 64; shift += 7)
    {
      if (*at >= len)
        return FALSE;
      guint8 c = p[(*at)++];
      if (shift == 63 && (c & 0x7e))
        return FALSE;                   /* more than 64 bits */
      v |= (guint64) (c & 0x7f) << shift;
      if (!(c & 0x80))
        {
          *out = v;
          return TRUE;
        }
    }
  return FALSE;
}

guint32
ttv_position_token_hash (guint32 h, const guint8 *p, gsize len)
{
  const guint8 *end = p + len;
  /* Eight bytes a turn: the loop's own test and jump cost as much as a
   * byte's work (a report writes one token per event)... */
  for (const guint8 *whole = p + (len & ~(gsize) 7); p < whole; p += 8)
    for (guint k = 0; k < 8; k++)
      h = ttv_position_token_hash_step (h, p[k]);
  /* ...and the last ones by a jump into their steps, not a loop. */
  switch (len & 7)
    {
    case 7: h = ttv_position_token_hash_step (h, end[-7]); /* fallthrough */
    case 6: h = ttv_position_token_hash_step (h, end[-6]); /* fallthrough */
    case 5: h = ttv_position_token_hash_step (h, end[-5]); /* fallthrough */
    case 4: h = ttv_position_token_hash_step (h, end[-4]); /* fallthrough */
    case 3: h = ttv_position_token_hash_step (h, end[-3]); /* fallthrough */
    case 2: h = ttv_position_token_hash_step (h, end[-2]); /* fallthrough */
    case 1: h = ttv_position_token_hash_step (h, end[-1]); /* fallthrough */
    default: break;
    }
  return h;
}

static guint16
token_checksum (const guint8 *p, gsize len)
{
  return ttv_position_token_fold (ttv_position_token_hash (TTV_POSITION_TOKEN_HASH_START, p, len));
}

/* The two digits of every 10-bit value: a token is written two digits
 * at a time (a report writes one per event). */
const char (*ttv_position_b32_pairs (void))[2]
{
  static char pairs[1024][2];
  static gsize ready;
  if (g_once_init_enter (&ready))
    {
      for (guint v = 0; v < 1024; v++)
        {
          pairs[v][0] = b32_alphabet[v >> 5];
          pairs[v][1] = b32_alphabet[v & 31];
        }
      g_once_init_leave (&ready, 1);
    }
  return (const char (*)[2]) pairs;
}

/* Writes the token's binary form into @b (TTV_POSITION_TOKEN_MAX_BYTES (p->n)
 * bytes); returns its length. */
static gsize
token_bytes (const TtvPosition *p, guint8 *b)
{
  guint8 *at = ttv_position_put_head (b, p);
  at = ttv_position_put_next (at, ttv_position_next_stream (p), ttv_position_next_time (p));
  for (guint i = 0; i < p->n; i++)
    at = ttv_position_put_entry (at, &p->tf[i]);
  at = ttv_position_put_checksum (at, ttv_position_token_hash (TTV_POSITION_TOKEN_HASH_START, b, (gsize) (at - b)));
  return (gsize) (at - b);
}

void
ttv_position_append_token (const TtvPosition *p, GString *out)
{
  g_return_if_fail (p != NULL);
  /* On the stack for the usual few dozen tracefiles. */
  guint8 stack[1024];
  gsize max = TTV_POSITION_TOKEN_MAX_BYTES (p->n) + TTV_POSITION_TOKEN_DIGITS_SLACK;
  g_autofree guint8 *heap = max > sizeof stack ? g_malloc (max) : NULL;
  guint8 *b = heap ? heap : stack;
  gsize len = token_bytes (p, b);
  char *s = ttv_text_reserve (out, (len + 4) / 5 * 8);
  gsize n_digits = ttv_position_put_digits (s, b, len, 0, ttv_position_b32_pairs ());
  ttv_text_commit (out, s + n_digits);
}

char *
ttv_position_to_string (const TtvPosition *p)
{
  g_return_val_if_fail (p != NULL, NULL);
  GString *s = g_string_new (NULL);
  ttv_position_append_token (p, s);
  return g_string_free (s, FALSE);
}

static int
b32_value (char c)
{
  c = g_ascii_tolower (c);
  if (c == 'o')
    return 0;
  if (c == 'i' || c == 'l')
    return 1;
  const char *at = c ? strchr (b32_alphabet, c) : NULL;
  return at ? (int) (at - b32_alphabet) : -1;
}

static gboolean
bad_token (const char *token, GError **error)
{
  g_set_error (error, TTV_ENGINE_ERROR, TTV_ENGINE_ERROR_BAD_POSITION,
               _("“%.48s%s” is not a valid position token"),
               token, strlen (token) > 48 ? "…" : "");
  return FALSE;
}

TtvPosition *
ttv_position_parse (const char *token, const TtvTraceset *ts, GError **error)
{
  g_return_val_if_fail (token != NULL && ts != NULL, NULL);
  gsize len = strlen (token);
  if (len < 8 || len > 1u << 20)
    return bad_token (token, error), NULL;

  g_autofree guint8 *bytes = g_malloc (len * 5 / 8 + 1);
  gsize n_bytes = 0;
  guint32 acc = 0;
  guint bits = 0;
  for (gsize i = 0; i < len; i++)
    {
      int v = b32_value (token[i]);
      if (v < 0)
        return bad_token (token, error), NULL;
      acc = (acc << 5) | (guint32) v;
      bits += 5;
      if (bits >= 8)
        {
          bytes[n_bytes++] = (guint8) (acc >> (bits - 8));
          bits -= 8;
        }
    }
  /* Leftover bits are padding: they must be zero, and fewer than 5. */
  if (bits >= 5 || (acc & ((1u << bits) - 1)) != 0 || n_bytes < 9)
    return bad_token (token, error), NULL;
  guint16 sum = (guint16) (bytes[n_bytes - 2] | (bytes[n_bytes - 1] << 8));
  gsize body = n_bytes - 2;
  if (token_checksum (bytes, body) != sum || bytes[0] != TTV_POSITION_TOKEN_VERSION)
    return bad_token (token, error), NULL;

  guint32 shape = (guint32) bytes[1] | ((guint32) bytes[2] << 8)
                  | ((guint32) bytes[3] << 16) | ((guint32) bytes[4] << 24);
  gsize at = 5;
  guint64 n = 0, next = 0, ztime = 0;
  if (!get_varint (bytes, body, &at, &n) || !get_varint (bytes, body, &at, &next))
    return bad_token (token, error), NULL;
  guint ts_n = ttv_traceset_get_n_tracefiles (ts);
  guint32 ts_shape = ttv_traceset_get_shape_hash (ts);
  if (n != ts_n || shape != ts_shape)
    {
      g_set_error (error, TTV_ENGINE_ERROR, TTV_ENGINE_ERROR_BAD_POSITION,
                   _("Position “%.48s%s” was saved for another traceset "
                     "(%" PRIu64 " tracefiles, shape %08x; this one has %u tracefiles, shape %08x)"),
                   token, len > 48 ? "…" : "", n, shape, ts_n, ts_shape);
      return NULL;
    }
  if (next > n || (next > 0 && !get_varint (bytes, body, &at, &ztime)))
    return bad_token (token, error), NULL;

  g_autoptr (TtvPosition) p = ttv_position_alloc ((guint) n);
  p->shape = shape;
  p->next = next == 0 ? (guint) n : (guint) (next - 1);
  p->next_time = next == 0 ? TTV_TIME_MAX : (TtvTime) ((ztime >> 1) ^ (~(ztime & 1) + 1));
  for (guint i = 0; i < n; i++)
    {
      guint64 block;
      TtvPositionEntry *e = &p->tf[i];
      if (!get_varint (bytes, body, &at, &block))
        return bad_token (token, error), NULL;
      if (block == 0)
        {
          e->at_end = TRUE;
          continue;
        }
      e->pos.block = block - 1;
      if (!get_varint (bytes, body, &at, &e->pos.offset)
          || !get_varint (bytes, body, &at, &e->pos.index))
        return bad_token (token, error), NULL;
    }
  /* The next event's tracefile cannot be at its end, and the end of the
   * traceset has every tracefile at its end. */
  gboolean consistent = at == body;
  if (p->next < p->n)
    consistent = consistent && !p->tf[p->next].at_end;
  else
    for (guint i = 0; i < p->n; i++)
      consistent = consistent && p->tf[i].at_end;
  if (!consistent)
    return bad_token (token, error), NULL;
  return g_steal_pointer (&p);
}
