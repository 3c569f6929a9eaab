/* ttv-text.c: numbers as text without printf (see ttv-text.h): decimal by
 * pairs of digits from a table, "%g" and the shortest text of a float that
 * reads back by scaling into 6 to 17 digits in long double. */
#include "ttv-text.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

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
  /* Most fields (ids, descriptors, flags) have one or two digits. */
  if (v < 100)
    {
      if (v < 10)
        {
          *p = (char) ('0' + v);
          return p + 1;
        }
      memcpy (p, digit_pairs + 2 * v, 2);
      return p + 2;
    }
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
  /* 1 + 8 digits in 32-bit arithmetic. */
  p[0] = (char) ('0' + ns / 100000000u);
  return put_8digits (p + 1, ns % 100000000u);
}

/* The eight digits of @v (< 10^8) as the bytes of a word, the first
 * lowest, computed in registers (SWAR): the halves of four digits in two
 * 32-bit lanes, split into 16-bit lanes of two, then into bytes of one.
 * Each division is a multiplication by a reciprocal and a shift, exact
 * for the lanes' ranges (below 10^4: x / 100 = x * 10486 >> 20; below
 * 100: x / 10 = x * 103 >> 10), with a mask to drop what the shift
 * brought in from the lane above. */
static inline guint64
eight_digits_word (guint32 v)
{
  guint64 x = (v / 10000u) | (guint64) (v % 10000u) << 32;
  guint64 hundreds = ((x * 10486) >> 20) & G_GUINT64_CONSTANT (0x0000007F0000007F);
  guint64 pairs = hundreds | (x - hundreds * 100) << 16;
  guint64 tens = ((pairs * 103) >> 10) & G_GUINT64_CONSTANT (0x000F000F000F000F);
  guint64 digits = tens | (pairs - tens * 10) << 8;
  return GUINT64_TO_LE (digits + G_GUINT64_CONSTANT (0x3030303030303030));
}

char *
ttv_text_put_ns9_twice (char *p, char *q, guint32 ns)
{
  guint64 eight = eight_digits_word (ns % 100000000u);
  p[0] = q[0] = (char) ('0' + ns / 100000000u);
  memcpy (p + 1, &eight, 8);
  memcpy (q + 1, &eight, 8);
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

/* "HH:MM:SS." of a second, and the first nanosecond of that second.  Lines
 * of a trace mostly follow each other within the same second: its text is
 * then a copy, without the divisions.  Thread-local: the text functions
 * run from several threads, and a memo of a pure function in each thread
 * needs no caller's object nor lock.  Its first value is right (the first
 * second of the epoch). */
typedef struct {
  gint64 start;
  char hms[10];
} ClockMemo;

static _Thread_local ClockMemo clock_memo = { 0, "00:00:00." };

#define NS_PER_SEC G_GINT64_CONSTANT (1000000000)

/* ttv_text_put_clock when @ns is not in the memo's second: from the
 * divisions, then kept when the whole second is a gint64 range (the test
 * of the memo, by unsigned difference, would otherwise wrap around). */
static G_NO_INLINE char *
put_clock_divided (char *p, gint64 ns, ClockMemo *memo)
{
  gint64 sec = ns / NS_PER_SEC, frac = ns % NS_PER_SEC;
  if (frac < 0)
    {
      frac += NS_PER_SEC;
      sec--;
    }
  gint64 day = sec % 86400;
  if (day < 0)
    day += 86400;
  guint s = (guint) day;
  char *hms = p;
  p = ttv_text_put_2digits (p, s / 3600);
  *p++ = ':';
  p = ttv_text_put_2digits (p, s / 60 % 60);
  *p++ = ':';
  p = ttv_text_put_2digits (p, s % 60);
  *p++ = '.';
  if (sec >= G_MININT64 / NS_PER_SEC && sec < G_MAXINT64 / NS_PER_SEC)
    {
      memcpy (memo->hms, hms, 9);
      memo->start = sec * NS_PER_SEC;
    }
  return ttv_text_put_ns9 (p, (guint32) frac);
}

char *
ttv_text_put_clock (char *p, gint64 ns)
{
  ClockMemo *memo = &clock_memo;
  guint64 frac = (guint64) ns - (guint64) memo->start;
  if (G_UNLIKELY (frac >= (guint64) NS_PER_SEC))
    return put_clock_divided (p, ns, memo);
  p = ttv_text_put (p, memo->hms, 9);
  return ttv_text_put_ns9 (p, (guint32) frac);
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

/* Each literal is exact: 10^k = 2^k 5^k and 5^27 < 2^64. */
static const long double pow10_table[MAX_EXACT_POW10 + 1] = {
  1e0L, 1e1L, 1e2L, 1e3L, 1e4L, 1e5L, 1e6L, 1e7L, 1e8L, 1e9L, 1e10L, 1e11L, 1e12L, 1e13L,
  1e14L, 1e15L, 1e16L, 1e17L, 1e18L, 1e19L, 1e20L, 1e21L, 1e22L, 1e23L, 1e24L, 1e25L, 1e26L, 1e27L,
};

static inline long double
pow10_exact (guint k)
{
  return pow10_table[k];
}

static char *
put_g_printf (char *p, double v)
{
  /* TTV_TEXT_NUMBER_MAX holds "%g" of any double. */
  int n = snprintf (p, TTV_TEXT_NUMBER_MAX, "%g", v);
  return p + (n > 0 ? n : 0);
}

/* Whether long double arithmetic keeps a 64-bit mantissa, as the margins
 * of digits_round_trip() assume: asked of the arithmetic itself, since
 * valgrind runs x87 code with double's 53 bits (LDBL_MANT_DIG says 64). */
static gboolean
long_double_is_extended (void)
{
  static gsize answer;   /* 1: no, 2: yes */
  if (g_once_init_enter (&answer))
    {
      volatile long double one = 1.0L, last = 0x1p-63L;
      gboolean extended = LDBL_MANT_DIG >= 64 && one + last != one;
      g_once_init_leave (&answer, extended ? 2 : 1);
    }
  return answer == 2;
}

/* floorl (@y) as an integer, for 0 <= @y < 2^63.  A cast truncates,
 * which costs x87 two changes of rounding mode around the conversion
 * (fldcw: most of the time of the float paths, under perf).  Instead: in
 * y + 2^63 the arithmetic itself rounds y to an integer (to nearest, the
 * mode in force), which the x87 significand holds below its top bit;
 * then one less when it rounded up.  Only with a 64-bit mantissa, which
 * valgrind's long double lacks (long_double_is_extended ()). */
static inline guint64
floor_below_2_63 (long double y)
{
#if LDBL_MANT_DIG == 64 && (defined (__x86_64__) || defined (__i386__))
  if (G_LIKELY (long_double_is_extended ()))
    {
      long double big = y + 0x1p63L;
      guint64 significand;
      memcpy (&significand, &big, sizeof significand);
      guint64 r = significand - (G_GUINT64_CONSTANT (1) << 63);
      return (long double) (gint64) r > y ? r - 1 : r;
    }
#endif
  return (guint64) y;
}

/* Significant digits of |v| (nonzero, finite, of binary exponent @bin as
 * frexp gives it): @n of them (6 to 17), and the decimal exponent of the
 * first, rounded as printf rounds (to nearest, ties to even on the exact
 * binary value).  Also *@scaled, |v| scaled to have n digits before the
 * point, and *@off, how far the digits are from it (before a carry to
 * n + 1 digits is moved into the exponent).  FALSE when the scaled value
 * is too near a tie to tell in long double (@tie units), or out of the
 * exact powers of ten. */
static inline gboolean
scaled_digits (double v, int bin, guint n, long double tie, guint64 *digits, int *exponent, long double *scaled,
               long double *off)
{
  long double a = fabsl ((long double) v);
  long double lower = pow10_exact (n - 1), upper = pow10_exact (n);
  /* The decimal exponent from the binary one (off by one at most: the
   * loop below corrects it). */
  int e = (int) floor ((bin - 1) * 0.30102999566398120);
  for (int tries = 0; tries < 3; tries++)
    {
      int k = (int) n - 1 - e;
      if (k > MAX_EXACT_POW10 || -k > MAX_EXACT_POW10)
        return FALSE;
      long double y = k >= 0 ? a * pow10_exact ((guint) k) : a / pow10_exact ((guint) -k);
      if (y < lower)
        {
          e--;
          continue;
        }
      if (y >= upper)
        {
          e++;
          continue;
        }
      guint64 whole = floor_below_2_63 (y);   /* y < 10^17 */
      long double frac = y - (long double) whole;
      if (fabsl (frac - 0.5L) < tie)
        return FALSE;
      guint64 d = whole + (frac > 0.5L);
      *scaled = y;
      *off = (long double) d - y;
      /* Exact in long double (at most 10^17), without the conversion of
       * upper to an integer (fldcw). */
      if ((long double) (gint64) d == upper)
        {
          d = (guint64) lower;
          e++;
        }
      *digits = d;
      *exponent = e;
      return TRUE;
    }
  return FALSE;
}

/* The text of "%.Pg" for the @n digits @ds of exponent @x: fixed or
 * exponent notation by P's rule, trailing zeros dropped. */
static char *
put_g_text (char *p, gboolean negative, const char *ds, guint n, int x, int precision)
{
  if (negative)
    *p++ = '-';
  /* Significant digits after the first, less trailing zeros. */
  int last = (int) n - 1;
  while (last > 0 && ds[last] == '0')
    last--;
  if (x < -4 || x >= precision)
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

char *
ttv_text_put_double_g (char *p, double v)
{
  if (!isfinite (v) || v == 0)
    return put_g_printf (p, v);
  guint64 d;
  int x, bin;
  long double y, off;
  frexp (v, &bin);
  if (!scaled_digits (v, bin, 6, 1e-7L, &d, &x, &y, &off))
    return put_g_printf (p, v);
  char ds[6];
  ttv_text_put_u64_padded (ds, d, 6);
  return put_g_text (p, signbit (v), ds, 6, x, 6);
}

/* Whether the @n significant digits of @v read back as @v at @bits
 * precision: 1 yes (then *@digits and *@exponent are them), 0 no, -1 when
 * long double cannot tell. */
static int
digits_round_trip (double v, double m, int bin, guint bits, guint n, guint64 *digits, int *exponent)
{
  /* The scaled value is off by half a unit of long double's last place at
   * most: 2^-14 units of the last digit at 15 digits, 2^-8 at 17; a margin
   * of 10^-3 or 2^-6 units from a tie or a bound leaves nothing to chance. */
  long double tie = n <= 9 ? 1e-6L : n <= 15 ? 1e-3L : 1.0L / 64;
  long double y, off;
  if (!scaled_digits (v, bin, n, tie, digits, exponent, &y, &off))
    return -1;
  /* They read back when nearer to @v than half its unit in the last place
   * (ULP).  |v| = m 2^bin and an ULP is 2^(bin - p) (p: 24 or 53 bits),
   * so in units of the last digit half an ULP is y 2^(-p-1) / m: compared
   * times m, without a division. */
  m = fabs (m);
  long double half_ulp_m = y * (bits == 32 ? 0x1p-25L : 0x1p-54L);
  /* Below a power of two the values are twice as dense. */
  if (off < 0 && m == 0.5)
    half_ulp_m /= 2;
  long double dist_m = fabsl (off) * m, tie_m = tie * m;
  if (dist_m < half_ulp_m - tie_m)
    return 1;
  return dist_m > half_ulp_m + tie_m ? 0 : -1;
}

/* Powers of ten a double holds exactly: up to 10^22. */
static const double exact_pow10_double[] = {
  1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
  1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

/* The shortest text of the normal double @v when it is a decimal of at
 * most DBL_DIG (15) significant digits and at most 22 after the point,
 * as the values of most traces are (54.781, 0.25), found with no long
 * double: the decimal r 10^-k (r < 10^15, the first k that does) reads
 * back as @v when the division r / 10^k, of exact operands and so rounded
 * as strtod rounds the decimal, gives |@v|.  Such a decimal is within half
 * an ULP of @v, nearer than half a unit of its 15th digit: the digits the
 * search at DBL_DIG finds, so the same text.  NULL when @v is no such
 * decimal. */
static char *
put_short_decimal (char *p, double v)
{
  double a = fabs (v);
  for (guint k = 0; k < G_N_ELEMENTS (exact_pow10_double); k++)
    {
      double y = a * exact_pow10_double[k];
      if (y >= 1e15)
        return NULL;
      /* The nearest integer (y < 2^52: y + 0.5 exact); a cheap test that
       * it is y's before the division that decides. */
      double r = (double) (gint64) (y + 0.5);
      if (fabs (y - r) > y * 0x1p-50 || r == 0 || r / exact_pow10_double[k] != a)
        continue;
      /* r's digits (at most 15: r < 10^15), then zeros up to 15. */
      char ds[20];
      gsize n = (gsize) (ttv_text_put_u64 (ds, (guint64) r) - ds);
      if (n > DBL_DIG)
        return NULL;
      memset (ds + n, '0', DBL_DIG - n);
      int significant = (int) n;
      while (significant > 1 && ds[significant - 1] == '0')
        significant--;
      return put_g_text (p, signbit (v), ds, DBL_DIG, (int) n - 1 - (int) k, significant);
    }
  return NULL;
}

char *
ttv_text_put_double_shortest (char *p, double v, guint bits)
{
  if (v == 0)
    return signbit (v) ? TTV_TEXT_PUT_LITERAL (p, "-0") : TTV_TEXT_PUT_LITERAL (p, "0");
  gboolean single = bits == 32;
  if (!long_double_is_extended ())
    return NULL;
  if (!isfinite (v) || (single ? (double) (float) v != v || fabsf ((float) v) < FLT_MIN : fabs (v) < DBL_MIN))
    return NULL;
  /* DIG digits (FLT_DIG, DBL_DIG) hold any value of at most DIG digits:
   * when those read back, the shortest text is them less trailing zeros;
   * else the first of DIG + 1 up to 9 or 17 digits that reads back. */
  if (!single)
    {
      char *end = put_short_decimal (p, v);
      if (end)
        return end;
    }
  guint dig = single ? 6 : 15, max = single ? 9 : 17;
  int bin;
  double m = frexp (v, &bin);
  for (guint n = dig; n <= max; n++)
    {
      guint64 d;
      int x;
      int found = digits_round_trip (v, m, bin, bits, n, &d, &x);
      if (found < 0)
        return NULL;
      if (found == 0)
        continue;
      char ds[17];
      ttv_text_put_u64_padded (ds, d, n);
      /* %g at the precision found: at DIG, that of the digits left (its
       * notation changes with the precision); beyond, n itself. */
      int k = (int) n;
      while (n == dig && k > 1 && ds[k - 1] == '0')
        k--;
      return put_g_text (p, signbit (v), ds, n, x, k);
    }
  return NULL;
}
