/* ttv-stats-oracle-main.c: the ttv-stats-oracle program, which computes the
 * statistics of ttv-stats-oracle.c apart from the test that asks for them
 * (ttv_stats_oracle_compute_windows()).
 * Usage: ttv-stats-oracle REPORT TRACE START END [START END]... (ns;
 * G_MININT64 and G_MAXINT64 for no bound). */
#include "ttv-stats-oracle.h"

#include <stdio.h>

int
main (int argc, char **argv)
{
  g_autoptr (GPtrArray) windows = NULL;
  g_autoptr (GString) out = g_string_new (NULL);
  g_autofree gint64 *bounds = NULL;
  gint64 first = G_MAXINT64, last = G_MININT64;
  guint n;

  if (argc < 5 || (argc - 3) % 2 != 0)
    {
      fprintf (stderr, "usage: ttv-stats-oracle REPORT TRACE START END [START END]...\n");
      return 2;
    }
  n = (guint) (argc - 3) / 2;
  bounds = g_new0 (gint64, 2 * n);
  for (guint i = 0; i < 2 * n; i++)
    bounds[i] = g_ascii_strtoll (argv[3 + i], NULL, 10);
  windows = ttv_stats_oracle_compute_windows_here (argv[1], argv[2], bounds, n, &first, &last);
  ttv_stats_oracle_append_windows (windows, first, last, out);
  fwrite (out->str, 1, out->len, stdout);
  return fflush (stdout) == 0 ? 0 : 1;
}
