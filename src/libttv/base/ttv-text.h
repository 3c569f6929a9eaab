/* ttv-text.h: writing report text fast: numbers by table, no printf, into
 * one growing buffer.  The babeltrace2, text and JSON lines reports use it. */
#pragma once

#include <glib.h>
#include <string.h>

G_BEGIN_DECLS

/* Makes room for @n more bytes after out->len; returns where they go.
 * Write them, then ttv_text_commit() the end. */
static inline char *
ttv_text_reserve (GString *out, gsize n)
{
  if (G_UNLIKELY (out->allocated_len <= out->len + n))
    {
      gsize len = out->len;
      g_string_set_size (out, len + n);
      out->len = len;
    }
  return out->str + out->len;
}

/* Ends what was written from ttv_text_reserve() at @end. */
static inline void
ttv_text_commit (GString *out, char *end)
{
  out->len = (gsize) (end - out->str);
  *end = '\0';
}

/* Short pieces (names, separators) are copied inline: a call to memcpy
 * costs more than the copy. */
static inline char *
ttv_text_put (char *p, const char *s, gsize len)
{
  if (G_LIKELY (len <= 16))
    {
      if (len >= 8)
        {
          guint64 a, b;
          memcpy (&a, s, 8);
          memcpy (&b, s + len - 8, 8);
          memcpy (p, &a, 8);
          memcpy (p + len - 8, &b, 8);
        }
      else if (len >= 4)
        {
          guint32 a, b;
          memcpy (&a, s, 4);
          memcpy (&b, s + len - 4, 4);
          memcpy (p, &a, 4);
          memcpy (p + len - 4, &b, 4);
        }
      else
        for (gsize i = 0; i < len; i++)
          p[i] = s[i];
      return p + len;
    }
  memcpy (p, s, len);
  return p + len;
}

#define TTV_TEXT_PUT_LITERAL(p, lit) ttv_text_put ((p), (lit), sizeof (lit) - 1)

/* The block of ttv_text_put_blocks(). */
#define TTV_TEXT_BLOCK 32

/* Copies @len bytes of @s to @p in whole blocks of TTV_TEXT_BLOCK bytes:
 * for pieces of a line too long for ttv_text_put()'s inline copies, kept
 * in buffers of whole blocks (@s readable and @p writable up to @len
 * rounded up to a block).  No call to memcpy, whose entry costs more than
 * the copy of a few blocks. */
static inline char *
ttv_text_put_blocks (char *p, const char *s, gsize len)
{
  for (gsize k = 0; k < len; k += TTV_TEXT_BLOCK)
    memcpy (p + k, s + k, TTV_TEXT_BLOCK);
  return p + len;
}

/* Appends @len bytes of @s to @out: for the short pieces of a line, where
 * g_string_append_len () costs a call and its checks (about 60
 * instructions each, several an event). */
static inline void
ttv_text_append (GString *out, const char *s, gsize len)
{
  ttv_text_commit (out, ttv_text_put (ttv_text_reserve (out, len), s, len));
}

#define TTV_TEXT_APPEND_LITERAL(out, lit) ttv_text_append ((out), (lit), sizeof (lit) - 1)

/* Writing many pieces into a GString with one check of room each and one
 * update of its length at the end:
 *   TtvTextWriter w; ttv_text_writer_begin (&w, out);
 *   char *p = ttv_text_writer_need (&w, n); ...; w.p = p;  (repeat)
 *   ttv_text_writer_end (&w);
 * Nothing else may write to @out in between. */
typedef struct {
  GString *out;
  char *p;           /* where the next byte goes */
  char *end;         /* end of the room */
} TtvTextWriter;

void ttv_text_writer_grow (TtvTextWriter *w, gsize n);

static inline void
ttv_text_writer_begin (TtvTextWriter *w, GString *out)
{
  w->out = out;
  w->p = out->str + out->len;
  w->end = out->str + out->allocated_len - 1;
}

/* Room for @n more bytes at w->p; returns w->p. */
static inline char *
ttv_text_writer_need (TtvTextWriter *w, gsize n)
{
  if (G_UNLIKELY ((gsize) (w->end - w->p) < n))
    ttv_text_writer_grow (w, n);
  return w->p;
}

static inline void
ttv_text_writer_end (TtvTextWriter *w)
{
  ttv_text_commit (w->out, w->p);
}

/* Longest text of the number writers below. */
#define TTV_TEXT_NUMBER_MAX 72

/* Decimal digits of @v (at most 20). */
char *ttv_text_put_u64 (char *p, guint64 v);
char *ttv_text_put_i64 (char *p, gint64 v);
/* ttv_text_put_u64 for the printers of event fields: a single digit
 * inline (ids, descriptors, flags and counts mostly are one), others by
 * the call. */
static inline char *
ttv_text_put_decimal (char *p, guint64 v)
{
  if (v < 10)
    {
      *p = (char) ('0' + v);
      return p + 1;
    }
  return ttv_text_put_u64 (p, v);
}
/* @v in exactly @digits decimal digits, zero-padded (@v < 10^digits). */
char *ttv_text_put_u64_padded (char *p, guint64 v, guint digits);
/* @v (< 100) in 2 digits. */
static inline char *
ttv_text_put_2digits (char *p, guint v)
{
  p[0] = (char) ('0' + v / 10);
  p[1] = (char) ('0' + v % 10);
  return p + 2;
}
/* Nanoseconds (< 10^9) in 9 digits. */
char *ttv_text_put_ns9 (char *p, guint32 ns);
/* The same digits at @p and at @q (not overlapping); returns @p + 9.  For
 * a line that shows them twice: a copy of the first would load bytes just
 * stored in pieces, which the CPU cannot forward (a stall of about 15
 * cycles); the digits are computed in a register and stored twice. */
char *ttv_text_put_ns9_twice (char *p, char *q, guint32 ns);
/* A time in nanoseconds as seconds with 9 decimals ("-1.000000005"), as
 * ttv_time_to_string() writes it. */
char *ttv_text_put_seconds (char *p, gint64 ns);
/* "HH:MM:SS.nnnnnnnnn": the time of day in UTC of @ns nanoseconds since the
 * epoch (times before it too). */
char *ttv_text_put_clock (char *p, gint64 ns);
/* Hexadecimal digits of @v, without prefix. */
char *ttv_text_put_hex (char *p, guint64 v, gboolean upper);
/* Octal digits of @v. */
char *ttv_text_put_octal (char *p, guint64 v);
/* @v as printf's "%g" writes it (in the C locale): the same bytes. */
char *ttv_text_put_double_g (char *p, double v);
/* The shortest "%.Pg" text that reads back as @v at @bits precision (32:
 * binary32, 64: binary64), P from FLT_DIG or DBL_DIG up, as
 * ttv_json_append_double() writes it, when long double arithmetic can
 * tell; NULL otherwise (subnormal, infinite or NaN values, values beyond
 * 10^±27 or too near a tie): the caller then searches with printf and
 * strtod. */
char *ttv_text_put_double_shortest (char *p, double v, guint bits);

G_END_DECLS
