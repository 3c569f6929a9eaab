/* ttv-stats-format.h: how the statistics viewer writes its numbers for
 * people (the cells, copies and image exports; CSV keeps exact values):
 * durations with a unit, counts with the locale's digit grouping. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* "850 ns", "1.234 µs", "12.35 ms", "2.462 s": four significant digits at
 * most; "" for a negative value (not applicable).  Caller frees. */
char *ttv_stats_format_duration (gint64 ns);
/* "199946" (or "199,946" in locales that group digits); "" for 0 when
 * @blank_zero.  Caller frees. */
char *ttv_stats_format_count (guint64 n, gboolean blank_zero);

G_END_DECLS
