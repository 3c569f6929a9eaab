/* ttv-json-out.c: JSON strings from any bytes and floats that round-trip
 * (see ttv-json-out.h); used by the decoder's JSON values and jsonl reports. */
#include "ttv-json-out.h"
#include "ttv-text.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* Length of the valid UTF-8 sequence at @p (at most @left bytes), 0 when
 * the byte there does not start one. */
static gsize
utf8_sequence (const guchar *p, gsize left)
{
  guchar c = p[0];
  gsize n;
  gunichar min;
  if (c < 0x80)
    return 1;
  if (c >= 0xC2 && c <= 0xDF)
    n = 2, min = 0x80;
  else if (c >= 0xE0 && c <= 0xEF)
    n = 3, min = 0x800;
  else if (c >= 0xF0 && c <= 0xF4)
    n = 4, min = 0x10000;
  else
    return 0;
  if (left < n)
    return 0;
  gunichar u = c & (0x7F >> n);
  for (gsize i = 1; i < n; i++)
    {
      if ((p[i] & 0xC0) != 0x80)
        return 0;
      u = (u << 6) | (p[i] & 0x3F);
    }
  if (u < min || u > 0x10FFFF || (u >= 0xD800 && u <= 0xDFFF))
    return 0;
  return n;
}

/* Bytes written as they are: printable ASCII but the quote and backslash. */
static gboolean
json_plain_byte (guchar c)
{
  return c >= 0x20 && c < 0x7F && c != '"' && c != '\\';
}

/* Writes the byte (or the UTF-8 sequence) at @i of the @n at @in, escaped;
 * returns the index after it. */
static inline gsize
put_escaped (char **at, const guchar *in, gsize i, gsize n)
{
  static const char hex[] = "0123456789abcdef";
  char *p = *at;
  guchar c = in[i];
  if (G_LIKELY (json_plain_byte (c)))
    {
      *p++ = (char) c;
      i++;
    }
  else if (c == '"' || c == '\\')
    {
      *p++ = '\\';
      *p++ = (char) c;
      i++;
    }
  else if (c < 0x80)
    {
      p = ttv_text_put (p, (char[]) { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] }, 6);
      i++;
    }
  else
    {
      gsize k = utf8_sequence (in + i, n - i);
      if (k == 0)
        {
          p = ttv_text_put (p, "\xEF\xBF\xBD", 3);   /* U+FFFD */
          i++;
        }
      else
        {
          p = ttv_text_put (p, (const char *) in + i, k);
          i += k;
        }
    }
  *at = p;
  return i;
}

#define BYTES_01 G_GUINT64_CONSTANT (0x0101010101010101)
#define BYTES_80 G_GUINT64_CONSTANT (0x8080808080808080)

/* The top bit of a byte of the result set when a byte of @x is zero (and
 * maybe of others after it: only whether there is one is exact). */
static inline guint64
zero_byte_bits (guint64 x)
{
  return (x - BYTES_01) & ~x;
}

/* Whether the eight bytes of @w are all plain (json_plain_byte()): none
 * below 0x20, none equal to '"', '\\' or 0x7F, none from 0x80 on. */
static inline gboolean
word_is_plain (guint64 w)
{
  guint64 special = ((w - BYTES_01 * 0x20) & ~w) | zero_byte_bits (w ^ (BYTES_01 * '"'))
                    | zero_byte_bits (w ^ (BYTES_01 * '\\')) | zero_byte_bits (w ^ (BYTES_01 * 0x7F)) | w;
  return (special & BYTES_80) == 0;
}

void
ttv_json_append_string (GString *out, const char *s, gssize len)
{
  gsize n = len < 0 ? strlen (s) : (gsize) len;
  const guchar *in = (const guchar *) s;
  /* At most 6 bytes per byte (\u00XX; U+FFFD takes 3) and the quotes: one
   * check of room, then bytes stored directly (a report writes every field
   * name and string of every event through here). */
  char *p = ttv_text_reserve (out, 6 * n + 2);
  *p++ = '"';
  gsize i = 0;
  while (i < n)
    {
      /* Eight plain bytes (names, commands, paths) copied at once, else
       * these eight (or the last few) byte by byte. */
      gsize stop = n;
      if (n - i >= 8)
        {
          guint64 w;
          memcpy (&w, in + i, 8);
          if (G_LIKELY (word_is_plain (w)))
            {
              memcpy (p, &w, 8);
              p += 8;
              i += 8;
              continue;
            }
          stop = i + 8;
        }
      while (i < stop)
        i = put_escaped (&p, in, i, n);
    }
  *p++ = '"';
  ttv_text_commit (out, p);
}

/* @v with @prec significant digits, '.' whatever the locale; whether it
 * reads back as @v (as a float when @bits is 32). */
static gboolean
format_round_trips (char *buf, gsize size, double v, guint prec, guint bits)
{
  char format[8];
  g_snprintf (format, sizeof format, "%%.%ug", prec);
  g_ascii_formatd (buf, size, format, v);
  double back = g_ascii_strtod (buf, NULL);
  return bits == 32 ? (float) back == (float) v : back == v;
}

/* The significant digits of a %g text: its mantissa's digits without the
 * leading and trailing zeros ("0.00120" and "1200" have 2). */
static guint
significant_digits (const char *text)
{
  const char *first = NULL, *last = NULL;
  for (const char *p = text; *p && *p != 'e' && *p != 'E'; p++)
    if (*p >= '1' && *p <= '9')
      {
        if (first == NULL)
          first = p;
        last = p;
      }
  guint n = 0;
  for (const char *p = first; p && p <= last; p++)
    n += g_ascii_isdigit (*p);
  return MAX (n, 1);
}

/* The digits before the point of a %g text in fixed notation, 0 for "0.x". */
static guint
integer_digits (const char *text)
{
  const char *p = text + (*text == '-');
  guint n = 0;
  if (*p == '0')
    return 0;
  while (g_ascii_isdigit (p[n]))
    n++;
  return n;
}

void
ttv_json_append_double (GString *out, double v, guint bits)
{
  if (isnan (v))
    {
      g_string_append (out, "\"NaN\"");
      return;
    }
  if (isinf (v))
    {
      g_string_append (out, v > 0 ? "\"Infinity\"" : "\"-Infinity\"");
      return;
    }
  /* Most values without printf nor strtod (a jsonl line per event). */
  char *p = ttv_text_reserve (out, TTV_TEXT_NUMBER_MAX);
  char *end = ttv_text_put_double_shortest (p, v, bits);
  if (end)
    {
      ttv_text_commit (out, end);
      return;
    }
  char buf[40];
  /* The shortest precision that reads back, written with that precision
   * (%g's choice of notation depends on it).  Any value of at most DIG
   * digits (FLT_DIG, DBL_DIG) round-trips, and then the text at DIG digits
   * is those digits: one try at DIG finds the shortest precision of most
   * values; beyond it the next ones are tried.  Subnormal values have fewer
   * bits than DIG assumes: they search from 1. */
  guint dig = bits == 32 ? 6 : 15, max = bits == 32 ? 9 : 17;
  gboolean normal = bits == 32 ? fabsf ((float) v) >= FLT_MIN : fabs (v) >= DBL_MIN;
  guint prec = 1;
  if (normal || v == 0)
    {
      if (format_round_trips (buf, sizeof buf, v, dig, bits))
        {
          /* At k digits %g writes the same text, unless the exponent is
           * at least k but less than DIG: "1200" then is "1.2e+03". */
          guint k = significant_digits (buf);
          if (k != dig && !strchr (buf, 'e') && integer_digits (buf) > k)
            format_round_trips (buf, sizeof buf, v, k, bits);
          g_string_append (out, buf);
          return;
        }
      prec = dig + 1;
    }
  while (prec < max && !format_round_trips (buf, sizeof buf, v, prec, bits))
    prec++;
  if (prec == max)
    format_round_trips (buf, sizeof buf, v, max, bits);
  g_string_append (out, buf);
}
