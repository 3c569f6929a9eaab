/* ttv-time.c: printing and parsing TtvTime, and cycle conversions.
 * Used by every reader (conversion) and by the CLI and GUI (text). */
#include "ttv-time.h"
#include "ttv-error.h"
#include "ttv-text.h"

#include <glib/gi18n-lib.h>
#include <stdio.h>
#include <string.h>

char *
ttv_time_to_string (TtvTime t, char *buf, gsize buf_len)
{
  /* Without printf (views and reports print many), into a buffer long
   * enough for any time, then cut to @buf_len as g_snprintf would. */
  char text[TTV_TEXT_NUMBER_MAX];
  *ttv_text_put_seconds (text, t) = '\0';
  g_strlcpy (buf, text, buf_len);
  return buf;
}

char *
ttv_time_dup_string (TtvTime t)
{
  char buf[32];
  return g_strdup (ttv_time_to_string (t, buf, sizeof buf));
}

char *
ttv_time_dup_duration (TtvTime duration)
{
  static const struct { gint64 scale; const char *unit; } units[] = {
    { 1, "ns" }, { 1000, "µs" }, { 1000000, "ms" }, { 1000000000, "s" },
  };
  const char *sign = duration < 0 ? "−" : "";
  guint64 ns = duration < 0 ? -(guint64) duration : (guint64) duration;
  guint u = 0;

  if (ns < 1000)
    return g_strdup_printf ("%s%" G_GUINT64_FORMAT " ns", sign, ns);
  while (u + 1 < G_N_ELEMENTS (units) && ns >= (guint64) units[u + 1].scale)
    u++;
  for (;;)
    {
      double v = (double) ns / (double) units[u].scale;
      int decimals = v < 9.9995 ? 3 : v < 99.995 ? 2 : 1;
      char buf[64];

      g_snprintf (buf, sizeof buf, "%.*f", decimals, v);
      /* 999.96 µs rounds to "1000.0 µs": write it as 1.000 ms. */
      if (g_ascii_strtod (buf, NULL) >= 1000 && u + 1 < G_N_ELEMENTS (units))
        {
          u++;
          continue;
        }
      return g_strdup_printf ("%s%s %s", sign, buf, units[u].unit);
    }
}

gboolean
ttv_time_parse (const char *text, TtvTime *out, GError **error)
{
  const char *p = text;
  gboolean negative = FALSE;
  guint64 sec = 0, nsec = 0;
  int ndigits = 0, nfrac = 0;

  g_return_val_if_fail (text != NULL && out != NULL, FALSE);
  if (*p == '-')
    {
      negative = TRUE;
      p++;
    }
  for (; g_ascii_isdigit (*p); p++, ndigits++)
    {
      if (sec > (G_MAXINT64 / TTV_NSEC_PER_SEC))
        goto bad;
      sec = sec * 10 + (guint64) (*p - '0');
    }
  if (*p == '.')
    {
      p++;
      for (; g_ascii_isdigit (*p); p++, nfrac++)
        {
          if (nfrac >= 9)
            goto bad;
          nsec = nsec * 10 + (guint64) (*p - '0');
        }
      if (nfrac == 0 && ndigits == 0)
        goto bad;
      for (int i = nfrac; i < 9; i++)
        nsec *= 10;
    }
  if (*p != '\0' || (ndigits == 0 && nfrac == 0))
    goto bad;
  if (sec > (guint64) G_MAXINT64 / 1000000000u
      || sec * 1000000000u > (guint64) G_MAXINT64 - nsec)
    goto bad;
  *out = (TtvTime) (sec * 1000000000u + nsec);
  if (negative)
    *out = -*out;
  return TRUE;

bad:
  g_set_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT,
               _("“%s” is not a time: expected seconds with up to 9 decimals, such as 1700000000.123456789"),
               text);
  return FALSE;
}

gboolean
ttv_time_parse_argument (const char *text, const TtvTime *origin, TtvTime *out, GError **error)
{
  g_return_val_if_fail (text != NULL && out != NULL, FALSE);
  gboolean relative = text[0] == '+';
  if (!ttv_time_parse (relative ? text + 1 : text, out, error))
    return FALSE;
  if (!relative)
    return TRUE;
  if (origin == NULL)
    {
      g_set_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT,
                   _("“%s” counts from the first event, but there is no event"), text);
      return FALSE;
    }
  if (__builtin_add_overflow (*origin, *out, out))
    *out = *out < 0 ? TTV_TIME_MAX : TTV_TIME_MIN;  /* wrapped the other way */
  return TRUE;
}

/* --- Times as the viewer shows them ------------------------------------------ */

static const char *const format_names[] = { "relative", "absolute", "utc", "local" };

const char *
ttv_time_format_to_name (TtvTimeFormat format)
{
  g_return_val_if_fail ((guint) format < G_N_ELEMENTS (format_names), format_names[0]);
  return format_names[format];
}

gboolean
ttv_time_format_from_name (const char *name, TtvTimeFormat *format)
{
  for (guint i = 0; name && i < G_N_ELEMENTS (format_names); i++)
    if (strcmp (name, format_names[i]) == 0)
      {
        *format = (TtvTimeFormat) i;
        return TRUE;
      }
  return FALSE;
}

/* ".NNN" with the first @decimals digits of @nsec (0 to 999999999), or "". */
static void
format_fraction (guint64 nsec, guint decimals, char out[12])
{
  char digits[12];

  out[0] = '\0';
  if (decimals == 0)
    return;
  /* Without printf: the event list's Time column, formatted for each of
   * millions of events by Find. */
  ttv_text_put_ns9 (digits, (guint32) nsec);
  decimals = MIN (decimals, 9u);
  out[0] = '.';
  memcpy (out + 1, digits, decimals);
  out[1 + decimals] = '\0';
}

/* Whole seconds and nanoseconds in [0, 1e9): the floor, for clock times. */
static void
split_floor (TtvTime t, gint64 *sec, gint64 *nsec)
{
  *sec = t / TTV_NSEC_PER_SEC;
  *nsec = t % TTV_NSEC_PER_SEC;
  if (*nsec < 0)
    {
      *nsec += TTV_NSEC_PER_SEC;
      *sec -= 1;
    }
}

static char *
format_magnitude (const char *sign, guint64 mag, guint decimals, char *buf, gsize buf_len)
{
  char frac[12];

  char text[TTV_TEXT_NUMBER_MAX + 16], *p;

  format_fraction (mag % 1000000000u, decimals, frac);
  p = ttv_text_put (text, sign, strlen (sign));
  p = ttv_text_put_u64 (p, mag / 1000000000u);
  p = ttv_text_put (p, frac, strlen (frac));
  *p = '\0';
  g_strlcpy (buf, text, buf_len);
  return buf;
}

gboolean
ttv_time_text_may_contain (const char *needle)
{
  /* Every character ttv_time_format_text() below can write. */
  return needle[strspn (needle, "0123456789+-.:Zz")] == '\0';
}

char *
ttv_time_format_text (TtvTime t, TtvTimeFormat format, TtvTime origin, guint decimals,
                      char *buf, gsize buf_len)
{
  g_autoptr (GTimeZone) zone = NULL;
  g_autoptr (GDateTime) dt = NULL;
  gint64 sec, nsec;
  char frac[12];

  switch (format)
    {
    case TTV_TIME_FORMAT_RELATIVE:
      /* Unsigned: the distance between any two times fits. */
      if (t >= origin)
        return format_magnitude ("+", (guint64) t - (guint64) origin, decimals, buf, buf_len);
      return format_magnitude ("+-", (guint64) origin - (guint64) t, decimals, buf, buf_len);
    case TTV_TIME_FORMAT_UTC:
    case TTV_TIME_FORMAT_LOCAL:
      split_floor (t, &sec, &nsec);
      zone = format == TTV_TIME_FORMAT_UTC ? g_time_zone_new_utc () : g_time_zone_new_local ();
      {
        g_autoptr (GDateTime) utc = g_date_time_new_from_unix_utc (sec);
        dt = utc ? g_date_time_to_timezone (utc, zone) : NULL;
      }
      if (dt)
        {
          format_fraction ((guint64) nsec, decimals, frac);
          g_snprintf (buf, buf_len, "%02d:%02d:%02d%s%s", g_date_time_get_hour (dt),
                      g_date_time_get_minute (dt), g_date_time_get_second (dt), frac,
                      format == TTV_TIME_FORMAT_UTC ? "Z" : "");
          return buf;
        }
      G_GNUC_FALLTHROUGH;   /* outside the calendar: as seconds */
    case TTV_TIME_FORMAT_ABSOLUTE:
    default:
      return format_magnitude (t < 0 ? "-" : "", t < 0 ? (guint64) 0 - (guint64) t : (guint64) t,
                               decimals, buf, buf_len);
    }
}

/* Reads @min_digits to @max_digits digits at *@p into @value. */
static gboolean
read_number (const char **p, int min_digits, int max_digits, int *value)
{
  int n = 0;

  *value = 0;
  for (; n < max_digits && g_ascii_isdigit (**p); (*p)++, n++)
    *value = *value * 10 + (**p - '0');
  return n >= min_digits;
}

/* The time @zone shows as @y-@mo-@d @h:@mi:@s plus @nsec, or FALSE when
 * that is no date or outside TtvTime. */
static gboolean
clock_to_time (GTimeZone *zone, int y, int mo, int d, int h, int mi, int s, gint64 nsec, TtvTime *out)
{
  g_autoptr (GDateTime) dt = g_date_time_new (zone, y, mo, d, h, mi, s);
  gint64 sec;

  if (!dt)
    return FALSE;
  sec = g_date_time_to_unix (dt);
  if (sec > G_MAXINT64 / TTV_NSEC_PER_SEC - 1 || sec < G_MININT64 / TTV_NSEC_PER_SEC + 1)
    return FALSE;
  *out = sec * TTV_NSEC_PER_SEC + nsec;
  return TRUE;
}

/* "[YYYY-MM-DD ]HH:MM[:SS[.N]][Z]"; see ttv_time_parse_text(). */
static gboolean
parse_time_of_day (const char *text, TtvTimeFormat format, TtvTime near, TtvTime *out)
{
  const char *p = text;
  int y = 0, mo = 0, d = 0, h, mi, s = 0, digits = 0;
  gint64 nsec = 0;
  gboolean has_date = FALSE;
  g_autoptr (GTimeZone) zone = NULL;

  if (g_ascii_isdigit (p[0]) && g_ascii_isdigit (p[1]) && g_ascii_isdigit (p[2])
      && g_ascii_isdigit (p[3]) && p[4] == '-')
    {
      if (!read_number (&p, 4, 4, &y) || *p++ != '-' || !read_number (&p, 1, 2, &mo)
          || *p++ != '-' || !read_number (&p, 1, 2, &d) || (*p != ' ' && *p != 'T'))
        return FALSE;
      while (*p == ' ' || *p == 'T')
        p++;
      has_date = TRUE;
    }
  if (!read_number (&p, 1, 2, &h) || *p++ != ':' || !read_number (&p, 2, 2, &mi))
    return FALSE;
  if (*p == ':')
    {
      p++;
      if (!read_number (&p, 2, 2, &s))
        return FALSE;
      if (*p == '.')
        {
          for (p++; g_ascii_isdigit (*p); p++, digits++)
            if (digits < 9)
              nsec = nsec * 10 + (*p - '0');
            else
              return FALSE;
          if (digits == 0)
            return FALSE;
          for (int i = digits; i < 9; i++)
            nsec *= 10;
        }
    }
  if (*p == 'Z' || g_ascii_strcasecmp (p, " UTC") == 0)
    {
      zone = g_time_zone_new_utc ();
      p += *p == 'Z' ? 1 : 4;
    }
  else
    zone = format == TTV_TIME_FORMAT_UTC ? g_time_zone_new_utc () : g_time_zone_new_local ();
  if (*p != '\0' || h > 23 || mi > 59 || s > 59)
    return FALSE;
  if (has_date)
    return clock_to_time (zone, y, mo, d, h, mi, s, nsec, out);
  {
    gint64 near_sec, near_nsec;
    gboolean found = FALSE;
    g_autoptr (GDateTime) utc = NULL;
    g_autoptr (GDateTime) day = NULL;

    split_floor (near, &near_sec, &near_nsec);
    utc = g_date_time_new_from_unix_utc (near_sec);
    day = utc ? g_date_time_to_timezone (utc, zone) : NULL;
    if (!day)
      return FALSE;
    /* The day before, of, or after @near: the closest. */
    for (int k = -1; k <= 1; k++)
      {
        g_autoptr (GDateTime) other = g_date_time_add_days (day, k);
        TtvTime t;

        if (other && clock_to_time (zone, g_date_time_get_year (other), g_date_time_get_month (other),
                                    g_date_time_get_day_of_month (other), h, mi, s, nsec, &t)
            && (!found || (t > near ? (guint64) t - (guint64) near : (guint64) near - (guint64) t)
                          < (*out > near ? (guint64) *out - (guint64) near : (guint64) near - (guint64) *out)))
          {
            *out = t;
            found = TRUE;
          }
      }
    return found;
  }
}

gboolean
ttv_time_parse_text (const char *text, TtvTimeFormat format, TtvTime origin, TtvTime near,
                     TtvTime *out, GError **error)
{
  g_autofree char *s = NULL;
  TtvTime t;
  gboolean ok;

  g_return_val_if_fail (text != NULL && out != NULL, FALSE);
  s = g_strstrip (g_strdup (text));
  if (s[0] == '+')
    ok = ttv_time_parse (s + 1, &t, NULL) && !__builtin_add_overflow (origin, t, &t);
  else if (strchr (s, ':'))
    ok = parse_time_of_day (s, format, near, &t);
  else
    ok = ttv_time_parse (s, &t, NULL);
  if (!ok)
    {
      g_set_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT,
                   _("“%s” is not a time: write seconds since the epoch (1700000000.123456789), "
                     "seconds from the start with a plus sign (+0.5), or a time of day "
                     "(10:13:20.5, with Z for UTC)"), text);
      return FALSE;
    }
  *out = t;
  return TRUE;
}

gint64
ttv_time_cycles_to_ns (guint64 cycles, guint64 freq_hz)
{
  if (freq_hz == 0)
    return 0;
  if (freq_hz == 1000000000u)
    return (gint64) cycles;
  /* Split to keep the product inside 64 bits for any realistic frequency. */
  guint64 whole = cycles / freq_hz;
  guint64 rest = cycles % freq_hz;
  return (gint64) (whole * 1000000000u
                   + (guint64) (((unsigned __int128) rest * 1000000000u) / freq_hz));
}
