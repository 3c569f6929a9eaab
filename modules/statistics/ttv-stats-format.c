/* ttv-stats-format.c: numbers of the statistics viewer written for people
 * (see ttv-stats-format.h). */
#include "ttv-stats-format.h"
#include "ttv-viewer.h"

#include <stdio.h>

char *
ttv_stats_format_duration (gint64 ns)
{
  /* Negative: no duration (an empty cell). */
  return ns < 0 ? g_strdup ("") : ttv_viewer_format_duration (ns);
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
