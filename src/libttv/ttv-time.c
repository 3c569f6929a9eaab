/* ttv-time.c: printing and parsing TtvTime, and cycle conversions.
 * Used by every reader (conversion) and by the CLI and GUI (text). */
#include "ttv-time.h"
#include "ttv-error.h"

#include <glib/gi18n-lib.h>
#include <stdio.h>

char *
ttv_time_to_string (TtvTime t, char *buf, gsize buf_len)
{
  /* Work in unsigned magnitude so that TTV_TIME_MIN prints correctly. */
  guint64 mag = t < 0 ? (guint64) 0 - (guint64) t : (guint64) t;
  g_snprintf (buf, buf_len, "%s%" G_GUINT64_FORMAT ".%09" G_GUINT64_FORMAT,
              t < 0 ? "-" : "", mag / 1000000000u, mag % 1000000000u);
  return buf;
}

char *
ttv_time_dup_string (TtvTime t)
{
  char buf[32];
  return g_strdup (ttv_time_to_string (t, buf, sizeof buf));
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
