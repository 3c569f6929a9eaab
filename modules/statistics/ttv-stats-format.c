/* ttv-stats-format.c: numbers of the statistics viewer written for people
 * (see ttv-stats-format.h). */
#include "ttv-stats-format.h"

#include <stdio.h>

char *
ttv_stats_format_duration (gint64 ns)
{
  static const struct { gint64 scale; const char *unit; } units[] = {
    { 1, "ns" }, { 1000, "µs" }, { 1000000, "ms" }, { 1000000000, "s" },
  };
  guint u = 0;

  if (ns < 0)
    return g_strdup ("");
  if (ns < 1000)
    return g_strdup_printf ("%" G_GINT64_FORMAT " ns", ns);
  while (u + 1 < G_N_ELEMENTS (units) && ns >= units[u + 1].scale)
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
      return g_strdup_printf ("%s %s", buf, units[u].unit);
    }
}

char *
ttv_stats_format_count (guint64 n, gboolean blank_zero)
{
  char buf[64];

  if (n == 0 && blank_zero)
    return g_strdup ("");
  /* The ' flag groups digits as the locale says (none in C). */
  snprintf (buf, sizeof buf, "%'" G_GUINT64_FORMAT, n);
  return g_strdup (buf);
}
