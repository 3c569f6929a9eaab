/* ttv-clock-correction.c: applying and inverting a trace's linear clock
 * correction (see the header); the context calls it on every event time. */
#include "ttv-clock-correction.h"

#include <math.h>
#include <string.h>

gboolean
ttv_clock_correction_is_identity (const TtvClockCorrection *c)
{
  return c == NULL || (c->offset_ns == 0 && c->drift == 0);
}

static TtvTime
saturate (double t)
{
  if (t >= 9.2e18)
    return TTV_TIME_MAX - 1;
  if (t <= -9.2e18)
    return TTV_TIME_MIN + 1;
  return (TtvTime) t;
}

TtvTime
ttv_clock_correction_apply (const TtvClockCorrection *c, TtvTime t)
{
  if (t == TTV_TIME_MIN || t == TTV_TIME_MAX)
    return t;
  /* The shift is small next to t: computed apart, it keeps every nanosecond. */
  double shift = c->offset_ns + c->drift * (double) (t - c->origin);
  gint64 step = saturate (floor (shift + 0.5));
  if (step > 0 && t > TTV_TIME_MAX - 1 - step)
    return TTV_TIME_MAX - 1;
  if (step < 0 && t < TTV_TIME_MIN + 1 - step)
    return TTV_TIME_MIN + 1;
  return t + step;
}

TtvTime
ttv_clock_correction_invert (const TtvClockCorrection *c, TtvTime corrected)
{
  if (corrected == TTV_TIME_MIN || corrected == TTV_TIME_MAX)
    return corrected;
  /* corrected - origin = (t - origin) (1 + drift) + offset */
  double rel = ((double) (corrected - c->origin) - c->offset_ns) / (1.0 + c->drift);
  TtvTime t = c->origin + saturate (floor (rel));
  /* Rounding: step down until the time maps below @corrected, then up to
   * the last that does not pass it. */
  while (t > TTV_TIME_MIN + 1 && ttv_clock_correction_apply (c, t) >= corrected)
    t--;
  while (t < TTV_TIME_MAX - 1 && ttv_clock_correction_apply (c, t + 1) < corrected)
    t++;
  return t + 1 <= TTV_TIME_MAX - 1 ? t + 1 : t;
}

void
ttv_clock_correction_compose (const TtvClockCorrection *first, const TtvClockCorrection *then,
                              TtvClockCorrection *out)
{
  /* then (first (t)) = t + c1 + d1 (t - o1) + c2 + d2 (t + c1 + d1 (t - o1) - o2) */
  TtvClockCorrection r = {
    .origin = first->origin,
    .offset_ns = first->offset_ns + then->offset_ns
                 + then->drift * ((double) (first->origin - then->origin) + first->offset_ns),
    .drift = first->drift + then->drift + first->drift * then->drift,
  };
  *out = r;
}

char *
ttv_clock_correction_to_string (const TtvClockCorrection *c)
{
  char offset[G_ASCII_DTOSTR_BUF_SIZE];
  g_ascii_formatd (offset, sizeof offset, "%.9f", fabs (c->offset_ns) / 1e9);
  const char *sign = c->offset_ns < 0 ? "-" : "+";
  if (c->drift == 0)
    return g_strdup_printf ("t %s %s s", sign, offset);
  char drift[G_ASCII_DTOSTR_BUF_SIZE], origin[32];
  g_ascii_formatd (drift, sizeof drift, "%.3f", fabs (c->drift) * 1e6);
  return g_strdup_printf ("t %s %s s %s %s ppm * (t - %s)", sign, offset, c->drift < 0 ? "-" : "+", drift,
                          ttv_time_to_string (c->origin, origin, sizeof origin));
}

gboolean
ttv_clock_offset_parse (const char *text, gint64 *offset_ns)
{
  g_autofree char *copy = g_strstrip (g_strdup (text ? text : ""));
  char *end = NULL;
  double seconds = g_ascii_strtod (copy, &end);

  /* strtod also reads hex, inf and nan: only digits, a point, a sign. */
  if (*copy == '\0' || end == copy || *end != '\0' || !isfinite (seconds) || fabs (seconds) > 1e9
      || copy[strspn (copy, "+-0123456789.")] != '\0')
    return FALSE;
  *offset_ns = (gint64) round (seconds * 1e9);
  return TRUE;
}
