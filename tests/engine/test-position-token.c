/* test-position-token.c: position tokens (ttv_position_append_token() and
 * the report's token writer) against a plain encoding written here from the
 * format's description, byte for byte (suite 'engine'). */
#include "ttv-position-token.h"
#include "ttv-position-bytes.h"
#include "ttv-position-digits.h"
#include "ttv-position-hash-wide.h"

#include <string.h>

/* --- The reference: the token format, one step at a time ------------- */

static void
ref_varint (GByteArray *b, guint64 v)
{
  do
    {
      guint8 c = v & 0x7f;
      v >>= 7;
      if (v != 0)
        c |= 0x80;
      g_byte_array_append (b, &c, 1);
    }
  while (v != 0);
}

static char *
ref_token (const TtvPosition *p)
{
  g_autoptr (GByteArray) b = g_byte_array_new ();
  guint8 head[5] = { 1, (guint8) p->shape, (guint8) (p->shape >> 8), (guint8) (p->shape >> 16),
                     (guint8) (p->shape >> 24) };
  g_byte_array_append (b, head, 5);
  ref_varint (b, p->n);
  if (p->next >= p->n)
    ref_varint (b, 0);
  else
    {
      ref_varint (b, (guint64) p->next + 1);
      /* zigzag */
      guint64 t = (guint64) p->next_time;
      ref_varint (b, p->next_time < 0 ? ~(t << 1) : t << 1);
    }
  for (guint i = 0; i < p->n; i++)
    {
      const TtvPositionEntry *e = &p->tf[i];
      if (e->at_end || e->pos.block == G_MAXUINT64)
        ref_varint (b, 0);
      else
        {
          ref_varint (b, e->pos.block + 1);
          ref_varint (b, e->pos.offset);
          ref_varint (b, e->pos.index);
        }
    }
  guint32 h = 2166136261u;
  for (guint i = 0; i < b->len; i++)
    h = (h ^ b->data[i]) * 16777619u;
  guint8 sum[2] = { (guint8) (h ^ (h >> 16)), (guint8) ((h ^ (h >> 16)) >> 8) };
  g_byte_array_append (b, sum, 2);

  /* Crockford base32, most significant bit first, zero bits to the end. */
  static const char alphabet[] = "0123456789abcdefghjkmnpqrstvwxyz";
  GString *s = g_string_new (NULL);
  for (gsize bit = 0; bit < (gsize) b->len * 8; bit += 5)
    {
      guint v = 0;
      for (gsize k = bit; k < bit + 5; k++)
        v = (v << 1) | (k < (gsize) b->len * 8 ? (b->data[k / 8] >> (7 - k % 8)) & 1 : 0);
      g_string_append_c (s, alphabet[v]);
    }
  return g_string_free (s, FALSE);
}

/* --- Positions ------------------------------------------------------- */

/* Values of every varint length, the extremes most often. */
static guint64
some_u64 (GRand *r)
{
  switch (g_rand_int_range (r, 0, 6))
    {
    case 0:
      return g_rand_int_range (r, 0, 200);
    case 1:
      return G_MAXUINT64 - (guint64) g_rand_int_range (r, 0, 3);
    case 2:
      return (guint64) 1 << g_rand_int_range (r, 0, 64);
    default:
      return (((guint64) g_rand_int (r) << 32) | g_rand_int (r)) >> g_rand_int_range (r, 0, 64);
    }
}

static void
random_entry (GRand *r, TtvPositionEntry *e)
{
  memset (e, 0, sizeof *e);
  switch (g_rand_int_range (r, 0, 8))
    {
    case 0:
      e->at_end = TRUE;
      /* What an entry at its end holds is not written. */
      e->pos.block = some_u64 (r);
      return;
    case 1:
      e->pos.block = G_MAXUINT64;
      e->pos.offset = some_u64 (r);
      return;
    default:
      e->pos.block = some_u64 (r);
      if (e->pos.block == G_MAXUINT64)
        e->pos.block--;
      e->pos.offset = some_u64 (r);
      e->pos.index = some_u64 (r);
    }
}

static void
random_next (GRand *r, TtvPosition *p)
{
  p->next = (guint) g_rand_int_range (r, 0, (gint32) p->n + 1);
  p->next_time = p->next >= p->n ? TTV_TIME_MAX : (TtvTime) some_u64 (r);
}

static TtvPosition *
random_position (GRand *r, guint n)
{
  TtvPosition *p = ttv_position_alloc (n);
  p->shape = g_rand_boolean (r) ? 0x12345678u : g_rand_int (r);
  for (guint i = 0; i < n; i++)
    random_entry (r, &p->tf[i]);
  random_next (r, p);
  return p;
}

/* What the next event of a report usually does to the position: the time
 * moves on, one tracefile moves on a little (or to another block, or to its
 * end), and once in a while more change.  Returns the tracefile it moved (n:
 * none). */
static guint
step (GRand *r, TtvPosition *p)
{
  guint moved = p->n;
  if (p->n > 0 && g_rand_int_range (r, 0, 10) > 0)
    {
      moved = (guint) g_rand_int_range (r, 0, (gint32) p->n);
      TtvPositionEntry *e = &p->tf[moved];
      switch (g_rand_int_range (r, 0, 10))
        {
        case 0:
          random_entry (r, e);
          break;
        case 1:
          e->pos.block++;
          e->pos.offset = 0;
          e->pos.index = 0;
          break;
        default:
          e->pos.offset += (guint64) g_rand_int_range (r, 1, 300);
          e->pos.index++;
        }
    }
  switch (g_rand_int_range (r, 0, 20))
    {
    case 0:
      random_next (r, p);
      break;
    case 1:
      p->next_time = G_MININT64 + g_rand_int_range (r, 0, 2);
      break;
    default:
      /* Unsigned: after random_next()'s extreme times a step may wrap
       * (any time must give its token). */
      p->next_time = (gint64) ((guint64) p->next_time + (guint64) g_rand_int_range (r, 0, 100000));
    }
  return moved;
}

/* @p as a position updated in place, which keeps its token's bytes (the
 * context's peeked one). */
static TtvPosition *
tracked_copy (const TtvPosition *p)
{
  TtvPosition *t = ttv_position_copy (p);
  t->bytes = ttv_position_bytes_new (p->n);
  ttv_position_bytes_lay_out (t->bytes, t);
  return t;
}

/* What the context does after moving tracefile @moved (n: none) of @t. */
static void
tell_bytes (TtvPosition *t, guint moved)
{
  if (moved < t->n)
    ttv_position_bytes_put_entry (t->bytes, moved, &t->tf[moved]);
  ttv_position_bytes_put_next (t->bytes, t);
}

/* Long tokens: says where they differ, not both whole. */
static void
assert_same (const char *got, const char *want)
{
  gsize i = 0;
  while (got[i] && got[i] == want[i])
    i++;
  if (got[i] != want[i])
    g_error ("tokens of %zu and %zu digits differ from digit %zu: …%.24s… instead of …%.24s…",
             strlen (got), strlen (want), i, got + i, want + i);
}

static void
check (TtvPositionTokenWriter *w, const TtvPosition *p)
{
  g_autofree char *want = ref_token (p);
  g_autoptr (GString) got = g_string_new ("prefix:");
  ttv_position_token_writer_append (w, p, got);
  assert_same (got->str + 7, want);
  g_autofree char *plain = ttv_position_to_string (p);
  assert_same (plain, want);
}

static const guint n_tracefiles[] = { 0, 1, 4, 40, 300 };

static void
test_random (void)
{
  g_autoptr (GRand) r = g_rand_new_with_seed (15);
  g_autoptr (TtvPositionTokenWriter) w = ttv_position_token_writer_new ();
  for (guint k = 0; k < 3000; k++)
    {
      guint n = n_tracefiles[g_rand_int_range (r, 0, G_N_ELEMENTS (n_tracefiles))];
      g_autoptr (TtvPosition) p = random_position (r, n);
      check (w, p);
    }
}

/* Steps of a report through one writer.  @told: the position keeps its
 * token's bytes, rewriting the tracefile that moved, as the context's
 * peeked position does; copies taken on the way (without bytes) then come
 * back late through the writer's own bytes. */
static void
run_steps (guint32 seed, gboolean told, gboolean narrow)
{
  g_autoptr (GRand) r = g_rand_new_with_seed (seed);
  for (guint k = 0; k < G_N_ELEMENTS (n_tracefiles); k++)
    {
      g_autoptr (TtvPositionTokenWriter) w = ttv_position_token_writer_new ();
      g_autoptr (TtvPosition) start = random_position (r, n_tracefiles[k]);
      g_autoptr (TtvPosition) p = told ? tracked_copy (start) : ttv_position_copy (start);
      if (told && narrow)
        p->bytes->wide = FALSE;         /* the digits by pairs, as without AVX2 */
      g_autoptr (TtvPosition) late = ttv_position_copy (p);
      for (guint i = 0; i < 3000; i++)
        {
          guint moved = step (r, p);
          if (told)
            tell_bytes (p, moved);
          check (w, p);
          if (told && i % 7 == 0)
            check (w, p);               /* the same update again */
          if (told && i % 50 == 0)
            {
              check (w, late);
              check (w, p);
              g_clear_pointer (&late, ttv_position_free);
              late = ttv_position_copy (p);
            }
        }
    }
}

static void
test_steps (void)
{
  run_steps (4, FALSE, FALSE);
}

static void
test_told_steps (void)
{
  run_steps (18, TRUE, FALSE);
}

static void
test_told_steps_narrow (void)
{
  run_steps (18, TRUE, TRUE);
}

/* Told steps across 2^21, where a tracefile's values stop being written
 * as tiny varints (three bytes at most, 4-byte stores) and become short
 * ones (8-byte stores), each value alone and all together, in both
 * directions; tracefiles on both sides keep their bytes. */
static void
test_told_steps_tiny_edge (void)
{
  const guint64 edge = G_GUINT64_CONSTANT (1) << 21;
  g_autoptr (GRand) r = g_rand_new_with_seed (21);
  for (guint which = 0; which < 4; which++)
    {
      g_autoptr (TtvPositionTokenWriter) w = ttv_position_token_writer_new ();
      g_autoptr (TtvPosition) start = ttv_position_alloc (4);
      for (guint i = 0; i < 4; i++)
        {
          start->tf[i].pos.block = 3 + i;
          start->tf[i].pos.offset = 1000 * i;
          start->tf[i].pos.index = 7 * i;
        }
      start->next = 1;
      start->next_time = G_GINT64_CONSTANT (1700000000000000000);
      g_autoptr (TtvPosition) p = tracked_copy (start);
      TtvTracefilePosition *pos = &p->tf[1].pos;
      for (guint i = 0; i < 400; i++)
        {
          /* Below the edge, then above it, then back below. */
          guint64 v = edge - 200 + (guint64) (i < 200 ? i : 400 - i) * 2;
          if (which == 0 || which == 3)
            pos->block = v - 1;         /* written as block + 1 */
          if (which == 1 || which == 3)
            pos->offset = v;
          if (which == 2 || which == 3)
            pos->index = v;
          if (which != 1 && which != 3)
            pos->offset += (guint64) g_rand_int_range (r, 1, 300);
          p->next_time += g_rand_int_range (r, 1, 1000);
          tell_bytes (p, 1);
          check (w, p);
        }
    }
}

/* The writer believes a position's bytes: a tracefile changed without
 * rewriting them keeps its old bytes.  Only the context's own updates
 * keep bytes; here it shows that the told steps took the shortcut. */
static void
test_told_is_believed (void)
{
  g_autoptr (TtvPosition) plain = ttv_position_alloc (4);
  for (guint i = 0; i < 4; i++)
    {
      plain->tf[i].pos.block = 3;
      plain->tf[i].pos.offset = 100 * i;
      plain->tf[i].pos.index = i;
    }
  plain->next = 1;
  plain->next_time = 1000;
  g_autoptr (TtvPosition) p = tracked_copy (plain);
  g_autoptr (TtvPositionTokenWriter) w = ttv_position_token_writer_new ();
  check (w, p);
  p->tf[1].pos.offset += 1000;
  p->tf[2].pos.offset += 1;
  tell_bytes (p, 1);
  g_autoptr (GString) got = g_string_new (NULL);
  ttv_position_token_writer_append (w, p, got);
  p->tf[2].pos.offset -= 1;
  g_autofree char *want = ref_token (p);
  assert_same (got->str, want);
}

/* Two reports' positions through one writer, copies and other tracesets in
 * between: the writer goes by values, never by which position it gets. */
static void
test_interleaved (void)
{
  g_autoptr (GRand) r = g_rand_new_with_seed (99);
  g_autoptr (TtvPositionTokenWriter) w = ttv_position_token_writer_new ();
  g_autoptr (TtvPosition) a = random_position (r, 4);
  g_autoptr (TtvPosition) b = random_position (r, 4);
  b->shape = a->shape;
  for (guint i = 0; i < 3000; i++)
    {
      step (r, g_rand_boolean (r) ? a : b);
      check (w, a);
      check (w, b);
      g_autoptr (TtvPosition) copy = ttv_position_copy (a);
      check (w, copy);
      if (i % 100 == 0)
        {
          g_autoptr (TtvPosition) other = random_position (r, n_tracefiles[i / 100 % G_N_ELEMENTS (n_tracefiles)]);
          check (w, other);
        }
    }
}

/* Deferred tokens: lines of text around each token, in two texts taken
 * in turns at random, finished at random points (after a full batch, in
 * the middle of one, when the text changes); positions told and not, of
 * every size (300 tracefiles: too long to defer, written at once).  Each
 * text must read as the same lines written with the tokens at once; the
 * texts grow (and move) while tokens wait in them. */
static void
test_deferred (void)
{
  g_autoptr (GRand) r = g_rand_new_with_seed (43);
  for (guint k = 0; k < G_N_ELEMENTS (n_tracefiles); k++)
    for (guint way = 0; way < 4; way++)
      {
        /* Positions told and not, each the wide way where the CPU has
         * AVX2, then the general one. */
        gboolean told = way % 2, wide = way < 2;
        g_autoptr (TtvPositionTokenWriter) w = ttv_position_token_writer_new ();
        ttv_position_token_writer_set_wide (w, wide);
        ttv_position_token_writer_set_deferred (w, TRUE);
        g_autoptr (TtvPosition) start = random_position (r, n_tracefiles[k]);
        g_autoptr (TtvPosition) p = told ? tracked_copy (start) : ttv_position_copy (start);
        g_autoptr (GString) got_a = g_string_sized_new (1);
        g_autoptr (GString) got_b = g_string_sized_new (1);
        g_autoptr (GString) want_a = g_string_new (NULL);
        g_autoptr (GString) want_b = g_string_new (NULL);
        for (guint i = 0; i < 2000; i++)
          {
            guint moved = step (r, p);
            if (told)
              tell_bytes (p, moved);
            gboolean to_a = g_rand_int_range (r, 0, 4) != 0;
            GString *got = to_a ? got_a : got_b, *want = to_a ? want_a : want_b;
            g_string_append_printf (got, "line %u \"", i);
            ttv_position_token_writer_append (w, p, got);
            g_string_append_printf (got, "\" after %u\n", i);
            g_autofree char *token = ref_token (p);
            g_string_append_printf (want, "line %u \"%s\" after %u\n", i, token, i);
            if (g_rand_int_range (r, 0, 23) == 0)
              ttv_position_token_writer_finish (w);
          }
        ttv_position_token_writer_set_deferred (w, FALSE);
        assert_same (got_a->str, want_a->str);
        assert_same (got_b->str, want_b->str);
        /* Not deferred any more: each token written at once. */
        g_string_truncate (got_a, 0);
        ttv_position_token_writer_append (w, p, got_a);
        g_autofree char *token = ref_token (p);
        g_assert_cmpstr (got_a->str, ==, token);
      }
}

/* The reference itself, on a token worked out by hand: shape 0, one
 * tracefile at block 0, offset 0, index 0, time 1. */
static void
test_reference (void)
{
  g_autoptr (TtvPosition) p = ttv_position_alloc (1);
  p->next = 0;
  p->next_time = 1;
  g_autofree char *token = ref_token (p);
  /* Bytes 01 00 00 00 00 01 01 02 01 00 00 and the checksum: 13 bytes,
   * 21 digits; the first eight are of 01 00 00 00 00. */
  g_assert_cmpuint (strlen (token), ==, 21);
  g_assert_true (g_str_has_prefix (token, "04000000"));
  g_autoptr (TtvPosition) copy = ttv_position_copy (p);
  g_autofree char *plain = ttv_position_to_string (copy);
  g_assert_cmpstr (plain, ==, token);
}

/* The report's digits (four groups a turn with AVX2) against the general
 * ones (a pair of digits a lookup), for bytes of every length and from
 * every first group: the same digits, and none written past their room. */
static void
test_wide_digits (void)
{
#ifdef TTV_POSITION_DIGITS_WIDE
  if (!ttv_cpu_has_avx2 ())
    {
      g_test_skip ("no AVX2");
      return;
    }
  g_autoptr (GRand) r = g_rand_new_with_seed (24);
  const char (*pairs)[2] = ttv_position_b32_pairs ();
  for (gsize len = 0; len <= 200; len++)
    for (gsize first = 0; first <= 3 && first * 5 <= len; first++)
      for (guint k = 0; k < 8; k++)
        {
          guint8 b[200 + TTV_POSITION_TOKEN_DIGITS_SLACK], wide_b[sizeof b];
          for (gsize i = 0; i < sizeof b; i++)
            b[i] = (guint8) g_rand_int (r);
          memcpy (wide_b, b, sizeof b);
          gsize room = TTV_POSITION_DIGITS_WIDE_ROOM (len);
          char want[TTV_POSITION_DIGITS_WIDE_ROOM (200) + 1], got[sizeof want];
          memset (want, '-', sizeof want);
          memset (got, '-', sizeof got);
          gsize n = ttv_position_put_digits (want, b, len, first, pairs);
          gsize wide_n = ttv_position_put_digits_wide (got, wide_b, len, first);
          g_assert_cmpuint (wide_n, ==, n);
          g_assert_cmpmem (got + first * 8, n - MIN (n, first * 8), want + first * 8, n - MIN (n, first * 8));
          g_assert_cmpint (got[room], ==, '-');
          /* The padded way, on bytes whose four after them are zeros
           * already: the same digits, and those bytes left as they were. */
          memcpy (wide_b, b, sizeof b);
          memset (wide_b + len, 0, 4);
          memset (got, '-', sizeof got);
          gsize padded_n = ttv_position_put_digits_wide_padded (got, wide_b, len, first);
          g_assert_cmpuint (padded_n, ==, n);
          g_assert_cmpmem (got + first * 8, n - MIN (n, first * 8), want + first * 8, n - MIN (n, first * 8));
          g_assert_cmpint (got[room], ==, '-');
          g_assert_cmpmem (wide_b, len, b, len);
        }
#else
  g_test_skip ("not x86");
#endif
}

/* The sixteen chains of the wide hash against the plain hash, one token
 * at a time: lengths all equal, all different, some zero, one far longer
 * than the others (the steps past the shortest then mask), from a random
 * start; the rows' bytes past each length are random too and must not
 * count. */
static void
test_hash_sixteen (void)
{
#ifdef TTV_POSITION_HASH_WIDE
  if (!ttv_cpu_has_avx2 ())
    {
      g_test_skip ("no AVX2");
      return;
    }
  enum { STRIDE = 200, LONGEST = 180 };
  g_autoptr (GRand) r = g_rand_new_with_seed (61);
  g_autofree guint8 *rows = g_malloc (TTV_POSITION_HASH_WIDE_N * STRIDE);
  for (guint round = 0; round < 400; round++)
    {
      for (gsize i = 0; i < TTV_POSITION_HASH_WIDE_N * STRIDE; i++)
        rows[i] = (guint8) g_rand_int (r);
      guint32 len[TTV_POSITION_HASH_WIDE_N], got[TTV_POSITION_HASH_WIDE_N];
      guint32 same = (guint32) g_rand_int_range (r, 0, LONGEST + 1);
      for (guint i = 0; i < TTV_POSITION_HASH_WIDE_N; i++)
        switch (round % 4)
          {
          case 0: len[i] = same; break;
          case 1: len[i] = (guint32) g_rand_int_range (r, 0, LONGEST + 1); break;
          case 2: len[i] = g_rand_boolean (r) ? 0 : (guint32) g_rand_int_range (r, 0, 40); break;
          default: len[i] = (guint32) g_rand_int_range (r, 20, 30); break;
          }
      if (round % 4 == 3)
        len[g_rand_int_range (r, 0, TTV_POSITION_HASH_WIDE_N)] = LONGEST;
      guint32 start = g_rand_int (r);
      ttv_position_token_hash_sixteen (rows, STRIDE, len, start, got);
      for (guint i = 0; i < TTV_POSITION_HASH_WIDE_N; i++)
        g_assert_cmphex (got[i], ==, ttv_position_token_hash (start, rows + i * STRIDE, len[i]));
    }
#else
  g_test_skip ("not x86");
#endif
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/engine/position-token/reference", test_reference);
  g_test_add_func ("/engine/position-token/random", test_random);
  g_test_add_func ("/engine/position-token/steps", test_steps);
  g_test_add_func ("/engine/position-token/interleaved", test_interleaved);
  g_test_add_func ("/engine/position-token/told-steps", test_told_steps);
  g_test_add_func ("/engine/position-token/told-steps-narrow", test_told_steps_narrow);
  g_test_add_func ("/engine/position-token/told-steps-tiny-edge", test_told_steps_tiny_edge);
  g_test_add_func ("/engine/position-token/told-is-believed", test_told_is_believed);
  g_test_add_func ("/engine/position-token/deferred", test_deferred);
  g_test_add_func ("/engine/position-token/wide-digits", test_wide_digits);
  g_test_add_func ("/engine/position-token/hash-sixteen", test_hash_sixteen);
  return g_test_run ();
}
