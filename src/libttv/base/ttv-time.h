/* ttv-time.h: TtvTime, the one time representation of the toolkit.
 * Every reader converts its clock to TtvTime once; everything above uses it. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Signed 64-bit nanoseconds since the Unix epoch (covers years 1678..2262). */
typedef gint64 TtvTime;

#define TTV_TIME_MIN G_MININT64
#define TTV_TIME_MAX G_MAXINT64
#define TTV_NSEC_PER_SEC G_GINT64_CONSTANT (1000000000)

/* "SSSSSSSSSS.NNNNNNNNN" (negative times get a leading '-'); buf >= 32 bytes. */
char   *ttv_time_to_string   (TtvTime t, char *buf, gsize buf_len);
char   *ttv_time_dup_string  (TtvTime t);
/* A duration readable at a glance, with its unit and four significant
 * digits: "850 ns", "12.35 µs", "1.000 ms" (not "1000.0 µs"), "2.463 s";
 * "−" before a negative one.  Caller frees. */
char   *ttv_time_dup_duration (TtvTime duration);
/* Accepts "S", "S.N" (1 to 9 decimals), optional leading '-'. */
gboolean ttv_time_parse      (const char *text, TtvTime *out, GError **error);
/* --- Times as the viewer shows them ---------------------------------------
 * The user picks one form (the viewer's "time-format" setting); every view
 * prints with ttv_time_format_text() and every entry reads with
 * ttv_time_parse_text(), which accepts all the forms whatever the choice. */
typedef enum {
  TTV_TIME_FORMAT_RELATIVE,   /* "+S.NNNNNNNNN" after an origin (the traceset's start) */
  TTV_TIME_FORMAT_ABSOLUTE,   /* "S.NNNNNNNNN" seconds since the epoch */
  TTV_TIME_FORMAT_UTC,        /* "HH:MM:SS.NNNNNNNNNZ", the time of day in UTC */
  TTV_TIME_FORMAT_LOCAL,      /* "HH:MM:SS.NNNNNNNNN", the time of day in the local zone */
} TtvTimeFormat;

/* Enough for any text of ttv_time_format_text(). */
#define TTV_TIME_TEXT_MAX 48

/* "relative", "absolute", "utc", "local": the settings' names. */
const char *ttv_time_format_to_name (TtvTimeFormat format);
gboolean ttv_time_format_from_name (const char *name, TtvTimeFormat *format);
/* @t in @format with @decimals (0 to 9) digits of the second, truncated;
 * relative to @origin for TTV_TIME_FORMAT_RELATIVE ("+-S.N" before it).
 * @buf holds at least TTV_TIME_TEXT_MAX bytes. */
/* Whether text written by ttv_time_format_text, in any format, can hold
 * @needle (ignoring ASCII case): it has digits, "+-.:" and "Z" only. */
gboolean ttv_time_text_may_contain (const char *needle);
char   *ttv_time_format_text (TtvTime t, TtvTimeFormat format, TtvTime origin, guint decimals,
                              char *buf, gsize buf_len);
/* Reads any form ttv_time_format_text() prints, in any format:
 *   "S[.N]", "-S[.N]"          seconds since the epoch;
 *   "+S[.N]", "+-S[.N]"        seconds after (before) @origin;
 *   "[YYYY-MM-DD ]HH:MM[:SS[.N]][Z]"  a time of day: Z for UTC, else UTC
 *                              when @format is TTV_TIME_FORMAT_UTC and the
 *                              local zone otherwise; without a date, the
 *                              day that puts it closest to @near.
 * Surrounding spaces are ignored.  FALSE with @error (TTV_USAGE_ERROR)
 * naming the text otherwise. */
gboolean ttv_time_parse_text (const char *text, TtvTimeFormat format, TtvTime origin, TtvTime near,
                              TtvTime *out, GError **error);

/* A time on a command line (ttv-report --start, --end, --state-at):
 * "S[.N]" seconds since the epoch, or "+S[.N]" after *@origin.  Past the
 * range of TtvTime, "+S" saturates (an --end beyond the last
 * representable time means "to the end").  @origin NULL means there is
 * none (a traceset without events): "+S" is then an error
 * (TTV_USAGE_ERROR) saying so, as is text of another form. */
gboolean ttv_time_parse_argument (const char *text, const TtvTime *origin, TtvTime *out, GError **error);

/* Converts a count of cycles at freq Hz into nanoseconds without overflow. */
gint64  ttv_time_cycles_to_ns (guint64 cycles, guint64 freq_hz);

/* @a + @b, saturating at TTV_TIME_MIN / TTV_TIME_MAX: sums of durations
 * read from files (analysis caches) that may be damaged. */
static inline TtvTime
ttv_time_add_saturating (TtvTime a, TtvTime b)
{
  TtvTime r;
  if (__builtin_add_overflow (a, b, &r))
    return b < 0 ? TTV_TIME_MIN : TTV_TIME_MAX;
  return r;
}

/* @a - @b, saturating at TTV_TIME_MIN / TTV_TIME_MAX: a time shown
 * relative to another when either may come from a damaged file. */
static inline TtvTime
ttv_time_sub_saturating (TtvTime a, TtvTime b)
{
  TtvTime r;
  if (__builtin_sub_overflow (a, b, &r))
    return b > 0 ? TTV_TIME_MIN : TTV_TIME_MAX;
  return r;
}

/* @b - @a in nanoseconds, for @a <= @b: exact over the whole range of
 * TtvTime, where the signed difference of far-apart times (a damaged
 * trace's start and end) overflows. */
static inline guint64
ttv_time_span_ns (TtvTime a, TtvTime b)
{
  return (guint64) b - (guint64) a;
}

/* @b - @a as a TtvTime, saturating at TTV_TIME_MAX, 0 when @b is not after
 * @a: a duration between times that may be more than 2^63 ns apart (read
 * from a damaged trace or cache), to be summed, binned or printed. */
static inline TtvTime
ttv_time_span_saturating (TtvTime a, TtvTime b)
{
  if (b <= a)
    return 0;
  guint64 span = ttv_time_span_ns (a, b);
  return span > (guint64) TTV_TIME_MAX ? TTV_TIME_MAX : (TtvTime) span;
}

G_END_DECLS
