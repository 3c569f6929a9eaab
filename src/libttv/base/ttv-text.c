/* ttv-text.c: numbers as text without printf (see ttv-text.h): decimal by
 * pairs of digits from a table, "%g" by scaling into six digits. */
#include "ttv-text.h"

#include <math.h>
#include <stdio.h>

static const char digit_pairs[201] =
  "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
  "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
  "8081828384858687888990919293949596979899";

/* Digits of @v < 10^8. */
static inline guint
count_digits8 (guint32 v)
{
  if (v < 10000)
    return v < 100 ? (v < 10 ? 1 : 2) : (v < 1000 ? 3 : 4);
  return v < 1000000 ? (v < 100000 ? 5 : 6) : (v < 10000000 ? 7 : 8);
}

/* @v < 10^8 without leading zeros: 32-bit arithmetic, two digits at a time
 * from the end. */
static inline char *
put_u32_short (char *p, guint32 v)
{
  char *e = p + count_digits8 (v), *s = e;
  while (v >= 100)
    {
      guint32 r = v % 100;
      v /= 100;
      s -= 2;
      memcpy (s, digit_pairs + 2 * r, 2);
    }
  if (v >= 10)
    memcpy (s - 2, digit_pairs + 2 * v, 2);
  else
    s[-1] = (char) ('0' + v);
  return e;
}

/* @v < 10^8 in exactly 8 digits. */
static inline char *
put_8digits (char *p, guint32 v)
{
  guint32 a = v / 10000u, b = v % 10000u;
  memcpy (p, digit_pairs + 2 * (a / 100), 2);
  memcpy (p + 2, digit_pairs + 2 * (a % 100), 2);
  memcpy (p + 4, digit_pairs + 2 * (b / 100), 2);
  memcpy (p + 6, digit_pairs + 2 * (b % 100), 2);
  return p + 8;
}

char *
ttv_text_put_u64 (char *p, guint64 v)
{
  /* By groups of eight digits, each in 32-bit arithmetic: times in
   * nanoseconds and addresses have 15 to 20 digits. */
  if (v < 100000000u)
    return put_u32_short (p, (guint32) v);
  guint64 hi = v / 100000000u;
  guint32 lo = (guint32) (v % 100000000u);
  if (hi < 100000000u)
    p = put_u32_short (p, (guint32) hi);
  else
    {
      p = put_u32_short (p, (guint32) (hi / 100000000u));
      p = put_8digits (p, (guint32) (hi % 100000000u));
    }
  return put_8digits (p, lo);
}

char *
ttv_text_put_i64 (char *p, gint64 v)
{
  if (v < 0)
    {
      *p++ = '-';
      return ttv_text_put_u64 (p, (guint64) 0 - (guint64) v);
    }
  return ttv_text_put_u64 (p, (guint64) v);
}

char *
ttv_text_put_u64_padded (char *p, guint64 v, guint digits)
{
  char *e = p + digits, *s = e;
  while (s - p >= 2)
    {
      guint r = (guint) (v % 100);
      v /= 100;
      s -= 2;
      memcpy (s, digit_pairs + 2 * r, 2);
    }
  if (s > p)
    *--s = (char) ('0' + v % 10);
  return e;
}

char *
ttv_text_put_ns9 (char *p, guint32 ns)
{
  /* 1 + 4 + 4 digits in 32-bit arithmetic. */
  guint32 hi = ns / 100000000u, lo = ns % 100000000u;
  guint32 a = lo / 10000u, b = lo % 10000u;
  p[0] = (char) ('0' + hi);
  memcpy (p + 1, digit_pairs + 2 * (a / 100), 2);
  memcpy (p + 3, digit_pairs + 2 * (a % 100), 2);
  memcpy (p + 5, digit_pairs + 2 * (b / 100), 2);
  memcpy (p + 7, digit_pairs + 2 * (b % 100), 2);
  return p + 9;
}

char *
ttv_text_put_seconds (char *p, gint64 ns)
{
  /* The magnitude unsigned, so that G_MININT64 prints right. */
  guint64 mag = ns < 0 ? (guint64) 0 - (guint64) ns : (guint64) ns;
  if (ns < 0)
    *p++ = '-';
  p = ttv_text_put_u64 (p, mag / 1000000000u);
  *p++ = '.';
  return ttv_text_put_ns9 (p, (guint32) (mag % 1000000000u));
}

void
ttv_text_writer_grow (TtvTextWriter *w, gsize n)
{
  GString *out = w->out;
  gsize len = (gsize) (w->p - out->str);
  out->len = len;
  /* Room for this and the next pieces: a few KiB at least. */
  ttv_text_reserve (out, MAX (n, (gsize) 4096) + len / 2);
  w->p = out->str + len;
  w->end = out->str + out->allocated_len - 1;
}

char *
ttv_text_put_hex (char *p, guint64 v, gboolean upper)
{
  const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  char tmp[16];
  char *e = tmp + sizeof tmp, *s = e;
  do
    {
      *--s = digits[v & 15];
      v >>= 4;
    }
  while (v);
  return ttv_text_put (p, s, (gsize) (e - s));
}

char *
ttv_text_put_octal (char *p, guint64 v)
{
  char tmp[22];
  char *e = tmp + sizeof tmp, *s = e;
  do
    {
      *--s = (char) ('0' + (v & 7));
      v >>= 3;
    }
  while (v);
  return ttv_text_put (p, s, (gsize) (e - s));
}

/* Exact powers of ten in long double (64-bit mantissa: up to 10^27). */
#define MAX_EXACT_POW10 27

static long double
pow10_exact (guint k)
{
  static long double table[MAX_EXACT_POW10 + 1];
  static gsize ready;
  if (g_once_init_enter (&ready))
    {
      long double x = 1;
      for (guint i = 0; i <= MAX_EXACT_POW10; i++, x *= 10)
        table[i] = x;
      g_once_init_leave (&ready, 1);
    }
  return table[k];
}

static char *
put_g_printf (char *p, double v)
{
  /* TTV_TEXT_NUMBER_MAX holds "%g" of any double. */
  int n = snprintf (p, TTV_TEXT_NUMBER_MAX, "%g", v);
  return p + (n > 0 ? n : 0);
}

/* Six significant digits of |v| (nonzero, finite) and the decimal exponent
 * of the first, rounded as printf rounds (to nearest, ties to even on the
 * exact binary value); FALSE when the scaled value is too near a tie to
 * tell in long double, or out of the exact powers of ten. */
static gboolean
six_digits (double v, guint32 *digits, int *exponent)
{
  long double a = fabsl ((long double) v);
  /* The decimal exponent from the binary one (off by one at most: the
   * loop below corrects it). */
  int bin;
  frexp (v, &bin);
  int e = (int) floor ((bin - 1) * 0.30102999566398120);
  for (int tries = 0; tries < 3; tries++)
    {
      int k = 5 - e;
      if (k > MAX_EXACT_POW10 || -k > MAX_EXACT_POW10)
        return FALSE;
      long double y = k >= 0 ? a * pow10_exact ((guint) k) : a / pow10_exact ((guint) -k);
      if (y < 100000.0L)
        {
          e--;
          continue;
        }
      if (y >= 1000000.0L)
        {
          e++;
          continue;
        }
      long double whole = floorl (y);
      long double frac = y - whole;
      if (fabsl (frac - 0.5L) < 1e-7L)
        return FALSE;
      guint32 d = (guint32) whole + (frac > 0.5L);
      if (d == 1000000)
        {
          d = 100000;
          e++;
        }
      *digits = d;
      *exponent = e;
      return TRUE;
    }
  return FALSE;
}

char *
ttv_text_put_double_g (char *p, double v)
{
  if (!isfinite (v) || v == 0)
    return put_g_printf (p, v);
  guint32 d;
  int x;
  if (!six_digits (v, &d, &x))
    return put_g_printf (p, v);
  if (signbit (v))
    *p++ = '-';
  char ds[6];
  ttv_text_put_u64_padded (ds, d, 6);
  /* Significant digits after the first, less trailing zeros. */
  int last = 5;
  while (last > 0 && ds[last] == '0')
    last--;
  if (x < -4 || x >= 6)
    {
      *p++ = ds[0];
      if (last > 0)
        {
          *p++ = '.';
          p = ttv_text_put (p, ds + 1, (gsize) last);
        }
      *p++ = 'e';
      *p++ = x < 0 ? '-' : '+';
      guint ax = (guint) (x < 0 ? -x : x);
      if (ax < 10)
        *p++ = '0';
      return ttv_text_put_u64 (p, ax);
    }
  if (x >= 0)
    {
      p = ttv_text_put (p, ds, (gsize) x + 1);
      if (last > x)
        {
          *p++ = '.';
          p = ttv_text_put (p, ds + x + 1, (gsize) (last - x));
        }
      return p;
    }
  *p++ = '0';
  *p++ = '.';
  for (int i = -1; i > x; i--)
    *p++ = '0';
  return ttv_text_put (p, ds, (gsize) last + 1);
}
