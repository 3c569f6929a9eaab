/* test-text.c: the report's number writers give the bytes printf gives:
 * decimal, hexadecimal, octal, padded, and "%g" on millions of doubles;
 * times as ttv_time_to_string() writes them; JSON strings of any bytes. */
#include "ttv-json-out.h"
#include "ttv-text.h"
#include "ttv-time.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static void
check_u64 (guint64 v)
{
  char a[TTV_TEXT_NUMBER_MAX + 1], b[TTV_TEXT_NUMBER_MAX + 1];
  *ttv_text_put_u64 (a, v) = '\0';
  snprintf (b, sizeof b, "%" G_GUINT64_FORMAT, v);
  g_assert_cmpstr (a, ==, b);
  *ttv_text_put_i64 (a, (gint64) v) = '\0';
  snprintf (b, sizeof b, "%" G_GINT64_FORMAT, (gint64) v);
  g_assert_cmpstr (a, ==, b);
  *ttv_text_put_hex (a, v, TRUE) = '\0';
  snprintf (b, sizeof b, "%" G_GINT64_MODIFIER "X", v);
  g_assert_cmpstr (a, ==, b);
  *ttv_text_put_hex (a, v, FALSE) = '\0';
  snprintf (b, sizeof b, "%" G_GINT64_MODIFIER "x", v);
  g_assert_cmpstr (a, ==, b);
  *ttv_text_put_octal (a, v) = '\0';
  snprintf (b, sizeof b, "%" G_GINT64_MODIFIER "o", v);
  g_assert_cmpstr (a, ==, b);
  *ttv_text_put_u64_padded (a, v % 1000000000u, 9) = '\0';
  snprintf (b, sizeof b, "%09" G_GUINT64_FORMAT, v % 1000000000u);
  g_assert_cmpstr (a, ==, b);
  *ttv_text_put_ns9 (a, (guint32) (v % 1000000000u)) = '\0';
  g_assert_cmpstr (a, ==, b);
  char q[16];
  memset (q, 'x', sizeof q);
  char *end = ttv_text_put_ns9_twice (a, q, (guint32) (v % 1000000000u));
  g_assert_true (end == a + 9);
  *end = '\0';
  g_assert_cmpstr (a, ==, b);
  g_assert_cmpmem (q, 9, b, 9);
  g_assert_cmpint (q[9], ==, 'x');
}

static void
test_integers (void)
{
  static const guint64 edges[] = { 0, 1, 9, 10, 99, 100, 999, 1000, G_MAXINT32, G_MAXUINT32,
                                   G_MAXINT64, (guint64) G_MAXINT64 + 1, G_MAXUINT64 };
  for (guint i = 0; i < G_N_ELEMENTS (edges); i++)
    {
      check_u64 (edges[i]);
      check_u64 (edges[i] - 1);
    }
  g_autoptr (GRand) r = g_rand_new_with_seed (7);
  for (guint i = 0; i < 200000; i++)
    {
      guint64 v = ((guint64) g_rand_int (r) << 32) | g_rand_int (r);
      check_u64 (v >> g_rand_int_range (r, 0, 64));
    }
}

/* The decimal writers write the digits and nothing past them: callers may
 * have made room for exactly those (the digits of up to 8 at a time are
 * made in a 64-bit word, then stored in pieces). */
static void
check_u64_exact (guint64 v)
{
  char a[32], b[32];
  memset (a, '#', sizeof a);
  int n = snprintf (b, sizeof b, "%" G_GUINT64_FORMAT, v);
  char *end = ttv_text_put_u64 (a, v);
  g_assert_cmpint (end - a, ==, n);
  g_assert_cmpmem (a, n, b, n);
  for (gsize i = (gsize) n; i < sizeof a; i++)
    g_assert_cmpint (a[i], ==, '#');
}

/* Every value below 10^6 (each digit count of the 8-digit groups and their
 * leading zeros), around every power of ten, and every count of digits
 * after the first group. */
static void
test_integers_exact (void)
{
  for (guint64 v = 0; v < 1000000; v++)
    check_u64_exact (v);
  for (guint64 pow = 10; pow <= G_GUINT64_CONSTANT (10000000000000000000); pow *= 10)
    for (guint64 d = 0; d < 3; d++)
      {
        check_u64_exact (pow - d);
        check_u64_exact (pow + d);
        check_u64_exact (pow * 3 + 41);
      }
  for (guint64 k = 0; k < 100000000; k += 4999)
    {
      check_u64_exact (k);
      check_u64_exact (k * 100000000 + 99999999 - k);
      check_u64_exact (k % 1844 * G_GUINT64_CONSTANT (10000000000000000) + k);
    }
  check_u64_exact (G_MAXUINT64);
}

static void
check_g (double v)
{
  char a[TTV_TEXT_NUMBER_MAX + 1], b[TTV_TEXT_NUMBER_MAX + 1];
  *ttv_text_put_double_g (a, v) = '\0';
  snprintf (b, sizeof b, "%g", v);
  if (g_strcmp0 (a, b) != 0)
    g_error ("%%g of %.17g: ttv %s, printf %s", v, a, b);
}

static void
test_double_g (void)
{
  static const double edges[] = { 0.0, -0.0, 1, -1, 0.1, 0.5, 1.5, 2.5, 1e-4, 9.99999e-5, 1e-5, 123456,
                                  999999, 999999.5, 999999.4999, 1e6, 1234567, 1e15, 1e16, 1e17, 1e22,
                                  1e23, 1e300, 1e-300, 5e-324, 1.7976931348623157e308, 0.000123456789,
                                  3.14159265358979, 1.0 / 3, 2.0 / 3, 100000, 99999.95, 0.0001234565 };
  for (guint i = 0; i < G_N_ELEMENTS (edges); i++)
    {
      check_g (edges[i]);
      check_g (-edges[i]);
    }
  check_g (INFINITY);
  check_g (-INFINITY);
  check_g (NAN);
  check_g (-NAN);
  g_autoptr (GRand) r = g_rand_new_with_seed (11);
  for (guint i = 0; i < 150000; i++)
    {
      /* Any bits; decimals of a few digits, and their neighbours (ties of
       * rounding live there); float values widened, as CTF floats are. */
      guint64 bits = ((guint64) g_rand_int (r) << 32) | g_rand_int (r);
      double d;
      memcpy (&d, &bits, 8);
      check_g (d);
      double dec = (double) g_rand_int_range (r, -10000000, 10000000) / pow (10, g_rand_int_range (r, 0, 12));
      check_g (dec);
      check_g (nextafter (dec, INFINITY));
      check_g (nextafter (dec, -INFINITY));
      check_g ((float) dec);
      check_g (g_rand_double_range (r, -1000, 1000));
    }
}

/* The writer grows its string as pieces come. */
static void
test_writer (void)
{
  g_autoptr (GString) out = g_string_new ("head:");
  g_autoptr (GString) expect = g_string_new ("head:");
  TtvTextWriter w;
  ttv_text_writer_begin (&w, out);
  for (guint64 i = 0; i < 100000; i++)
    {
      char *p = ttv_text_writer_need (&w, TTV_TEXT_NUMBER_MAX + 1);
      p = ttv_text_put_u64 (p, i * 7919);
      *p++ = ' ';
      w.p = p;
      g_string_append_printf (expect, "%" G_GUINT64_FORMAT " ", i * 7919);
    }
  ttv_text_writer_end (&w);
  g_assert_cmpuint (out->len, ==, expect->len);
  g_assert_cmpstr (out->str, ==, expect->str);
}

/* Seconds with nine decimals, as ttv_time_to_string() prints them. */
static void
test_seconds (void)
{
  const gint64 fixed[] = { 0, 1, -1, 999999999, 1000000000, -1000000000, -1000000001, 1700000000022352000,
                           G_MAXINT64, G_MININT64, G_MININT64 + 1 };
  g_autoptr (GRand) rand = g_rand_new_with_seed (15);
  for (guint i = 0; i < G_N_ELEMENTS (fixed) + 100000; i++)
    {
      gint64 t = i < G_N_ELEMENTS (fixed) ? fixed[i]
                 : (gint64) (((guint64) g_rand_int (rand) << 32) | g_rand_int (rand)) >> g_rand_int_range (rand, 0, 63);
      char a[TTV_TEXT_NUMBER_MAX + 1], b[32];
      *ttv_text_put_seconds (a, t) = '\0';
      g_assert_cmpstr (a, ==, ttv_time_to_string (t, b, sizeof b));
    }
}

/* The time of day as gmtime_r gives it, for ttv_text_put_clock. */
static void
check_clock (gint64 t)
{
  gint64 sec = t / 1000000000, ns = t % 1000000000;
  if (ns < 0)
    {
      ns += 1000000000;
      sec--;
    }
  time_t tt = (time_t) sec;
  struct tm tm;
  g_assert_nonnull (gmtime_r (&tt, &tm));
  char a[TTV_TEXT_NUMBER_MAX + 1], b[32];
  *ttv_text_put_clock (a, t) = '\0';
  snprintf (b, sizeof b, "%02d:%02d:%02d.%09d", tm.tm_hour, tm.tm_min, tm.tm_sec, (int) ns);
  if (strcmp (a, b) != 0)
    g_error ("clock of %" G_GINT64_FORMAT ": ttv %s, gmtime %s", t, a, b);
}

/* The clock remembers its last second: steps within one, across second,
 * minute, hour and day boundaries (before 1970 too), jumps back, and the
 * ends of the range, whose seconds do not fit (a memo there would wrap
 * around to the other end). */
static void
test_clock (void)
{
  const gint64 s = 1000000000;
  const gint64 starts[] = { 0, -1, 1700000000 * s, 1700006399 * s + 999999990, 1700092799 * s, -86400 * s,
                            -86400 * s - 5, -3600 * s - 1, -1 * s, 59 * s + 999999999, 3599 * s,
                            G_MININT64, G_MININT64 + 1, G_MAXINT64 - 3 * s, G_MAXINT64 - 10,
                            (G_MININT64 / s) * s, (G_MININT64 / s) * s - 1, (G_MAXINT64 / s) * s - 1,
                            (G_MAXINT64 / s) * s };
  const gint64 steps[] = { 1, 7, 999999999, s, 1000003, s / 3, 60 * s - 1 };
  for (guint i = 0; i < G_N_ELEMENTS (starts); i++)
    for (guint j = 0; j < G_N_ELEMENTS (steps); j++)
      {
        gint64 t = starts[i];
        for (guint k = 0; k < 12; k++)
          {
            check_clock (t);
            if (t > G_MAXINT64 - steps[j])
              break;
            t += steps[j];
          }
        check_clock (starts[i]);
      }
  /* The memo's second, then one of the other end at the same distance
   * modulo 2^64. */
  check_clock (G_MAXINT64);
  check_clock (G_MININT64);
  check_clock ((G_MAXINT64 / s) * s - 1);
  check_clock (G_MININT64 + 10);
  check_clock (G_MAXINT64);
  g_autoptr (GRand) rand = g_rand_new_with_seed (21);
  gint64 t = 0;
  for (guint i = 0; i < 300000; i++)
    {
      switch (g_rand_int_range (rand, 0, 4))
        {
        case 0:
          t = (gint64) (((guint64) g_rand_int (rand) << 32) | g_rand_int (rand)) >> g_rand_int_range (rand, 0, 63);
          break;
        case 1:
          t = t > G_MININT64 + 3000 ? t - g_rand_int_range (rand, 0, 3000) : t;
          break;
        default:
          t = t < G_MAXINT64 - s ? t + g_rand_int_range (rand, 0, 300000000) : 0;
          break;
        }
      check_clock (t);
    }
}

/* What JSON strings were before they were written byte by byte into the
 * buffer: one GString call per byte.  The writer must give the same bytes. */
static void
json_string_reference (GString *out, const guchar *p, gsize n)
{
  g_string_append_c (out, '"');
  for (gsize i = 0; i < n;)
    {
      guchar c = p[i];
      const char *end;
      if (c == '"' || c == '\\')
        g_string_append_printf (out, "\\%c", c), i++;
      else if (c < 0x20 || c == 0x7F)
        g_string_append_printf (out, "\\u%04x", c), i++;
      else if (c < 0x80)
        g_string_append_c (out, (char) c), i++;
      else if (g_utf8_validate ((const char *) p + i, (gssize) MIN (n - i, (gsize) 4), &end) || end > (const char *) p + i)
        {
          gsize k = (gsize) g_utf8_skip[c];
          g_string_append_len (out, (const char *) p + i, (gssize) k);
          i += k;
        }
      else
        g_string_append (out, "\xEF\xBF\xBD"), i++;
    }
  g_string_append_c (out, '"');
}

static void
check_json_string (const guchar *s, gsize n)
{
  g_autoptr (GString) got = g_string_new ("x");
  g_autoptr (GString) want = g_string_new ("x");
  ttv_json_append_string (got, (const char *) s, (gssize) n);
  json_string_reference (want, s, n);
  g_assert_cmpuint (got->len, ==, want->len);
  g_assert_cmpmem (got->str, got->len, want->str, want->len);
  g_assert_true (g_utf8_validate (got->str, (gssize) got->len, NULL));
}

static void
test_json_string (void)
{
  static const char *const fixed[] = { "", "plain", "quote \" back \\ slash", "tab\tnl\n\x01\x1f\x7f",
                                       "\xC3\xA9t\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80",
                                       "bad \xFF\xFE", "cut \xE2\x82", "overlong \xC0\xAF", "surrogate \xED\xA0\x80",
                                       "above \xF4\x90\x80\x80" };
  for (guint i = 0; i < G_N_ELEMENTS (fixed); i++)
    check_json_string ((const guchar *) fixed[i], strlen (fixed[i]));
  g_autoptr (GString) out = g_string_new (NULL);
  ttv_json_append_string (out, "a\"\x7f\xff", -1);
  g_assert_cmpstr (out->str, ==, "\"a\\\"\\u007f\xEF\xBF\xBD\"");
  /* Random bytes, mostly ASCII and UTF-8 lead and continuation bytes. */
  g_autoptr (GRand) rand = g_rand_new_with_seed (16);
  static const guchar pool[] = { 'a', 'Z', '"', '\\', 0, 0x1f, 0x7f, 0x80, 0xbf, 0xc2, 0xc3, 0xdf, 0xe0, 0xe2,
                                 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff };
  for (guint i = 0; i < 50000; i++)
    {
      guchar buf[16];
      gsize n = (gsize) g_rand_int_range (rand, 0, sizeof buf + 1);
      for (gsize k = 0; k < n; k++)
        buf[k] = g_rand_boolean (rand) ? pool[g_rand_int_range (rand, 0, sizeof pool)] : (guchar) g_rand_int (rand);
      check_json_string (buf, n);
    }
}

/* Long strings of plain bytes with a few others at every place: the
 * writer copies eight plain bytes at once and must see any other byte in
 * them (the bounds of the plain range, the quote, the backslash, DEL,
 * UTF-8 and bytes that are not). */
static void
test_json_string_words (void)
{
  static const guchar others[] = { 0, 0x1f, '"', '\\', 0x7f, 0x80, 0xc3, 0xa9, 0xe2, 0xff };
  static const guchar plain[] = { 0x20, 0x21, 0x23, 'a', 'Z', '[', ']', 0x7e };
  g_autoptr (GRand) rand = g_rand_new_with_seed (24);
  for (gsize n = 0; n <= 40; n++)
    for (gsize at = 0; at < MAX (n, 1); at++)
      for (guint k = 0; k < G_N_ELEMENTS (others); k++)
        {
          guchar buf[40];
          for (gsize i = 0; i < n; i++)
            buf[i] = plain[g_rand_int_range (rand, 0, G_N_ELEMENTS (plain))];
          if (n > 0)
            buf[at] = others[k];
          if (n > 1 && g_rand_int_range (rand, 0, 4) == 0)
            buf[g_rand_int_range (rand, 0, (gint32) n)] = others[g_rand_int_range (rand, 0, G_N_ELEMENTS (others))];
          check_json_string (buf, n);
        }
}

/* The shortest precision whose %g text reads back, searched from 1: what
 * ttv_json_append_double() writes (it finds it in one or two tries). */
static void
json_double_reference (GString *out, double v, guint bits)
{
  char buf[40];
  guint max = bits == 32 ? 9 : 17;
  for (guint prec = 1; prec <= max; prec++)
    {
      char format[8];
      g_snprintf (format, sizeof format, "%%.%ug", prec);
      g_ascii_formatd (buf, sizeof buf, format, v);
      double back = g_ascii_strtod (buf, NULL);
      if (bits == 32 ? (float) back == (float) v : back == v)
        break;
    }
  g_string_append (out, buf);
}

static void
check_json_double (double v, guint bits)
{
  if (!isfinite (v))
    return;   /* the reference knows no infinities */
  g_autoptr (GString) got = g_string_new (NULL);
  g_autoptr (GString) want = g_string_new (NULL);

  ttv_json_append_double (got, v, bits);
  json_double_reference (want, v, bits);
  if (strcmp (got->str, want->str) != 0)
    g_error ("%a (%u bits): «%s», want «%s»", v, bits, got->str, want->str);
}

/* Random bit patterns (subnormals, huge and tiny exponents), decimals of
 * few digits as people write them, integers and the edges. */
static void
test_json_double (void)
{
  static const double edges[] = { 0.0, -0.0, 1.0, -1.0, 0.1, 0.3, 1e10, 1e16, 1e17, 1e21, 1e-5, 1e-4, 123456.0,
                                  1200.0, 5e-324, 2.2250738585072014e-308, 2.225073858507201e-308,
                                  1.7976931348623157e308, 1.1754943508222875e-38, 1.401298464324817e-45,
                                  3.4028234663852886e38, 16777217.0, 9007199254740993.0,
                                  /* Short decimals (put_short_decimal) and its edges: 15 digits,
                                   * 16, 22 after the point, 23. */
                                  54.781, -0.000123, 123456789012345.0, 0.123456789012345, 999999999999999.0,
                                  1234567890123456.0, 1e-22, 1.5e-22, 1e-23, 2.5e-7, -7.0 };
  GRand *rand = g_rand_new_with_seed (21);

  for (guint i = 0; i < G_N_ELEMENTS (edges); i++)
    for (guint bits = 32; bits <= 64; bits += 32)
      check_json_double (bits == 32 ? (double) (float) edges[i] : edges[i], bits);
  for (guint i = 0; i < 20000; i++)
    {
      guint64 pattern = (guint64) g_rand_int (rand) << 32 | g_rand_int (rand);
      double d;
      float f;
      guint32 fp = (guint32) pattern;

      memcpy (&d, &pattern, sizeof d);
      memcpy (&f, &fp, sizeof f);
      if (isfinite (d))
        check_json_double (d, 64);
      if (isfinite (f))
        check_json_double (f, 32);
      /* A decimal of 1 to 17 digits, at any scale. */
      double dec = (double) g_rand_int_range (rand, 1, 1000000) * pow (10, g_rand_int_range (rand, -30, 30));
      check_json_double (dec, 64);
      check_json_double ((float) dec, 32);
      check_json_double ((double) g_rand_int (rand) / 1000.0, 64);
      /* Decimals of up to 15 digits and their neighbours, which need more:
       * the edge of the fast path (ttv_text_put_double_shortest()). */
      guint64 digits = (((guint64) g_rand_int (rand) << 32) | g_rand_int (rand)) % G_GUINT64_CONSTANT (1000000000000000);
      double d15 = (double) (digits >> g_rand_int_range (rand, 0, 50)) / pow (10, g_rand_int_range (rand, -10, 25));
      check_json_double (d15, 64);
      check_json_double (nextafter (d15, 0), 64);
      check_json_double (nextafter (d15, INFINITY), 64);
      check_json_double ((float) d15, 32);
      check_json_double (nextafterf ((float) d15, 0), 32);
    }
  g_rand_free (rand);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/text/integers", test_integers);
  g_test_add_func ("/core/text/integers-exact", test_integers_exact);
  g_test_add_func ("/core/text/double-g", test_double_g);
  g_test_add_func ("/core/text/writer", test_writer);
  g_test_add_func ("/core/text/seconds", test_seconds);
  g_test_add_func ("/core/text/clock", test_clock);
  g_test_add_func ("/core/text/json-string", test_json_string);
  g_test_add_func ("/core/text/json-string-words", test_json_string_words);
  g_test_add_func ("/core/text/json-double", test_json_double);
  return g_test_run ();
}
