/* ttv-stats-csv.h: the statistics CSV that the viewer's statistics view
 * exports and ttv-report --stats --format=csv prints (key,name,count,
 * total_s,min_s,max_s,average_s), read back and checked against the
 * oracle (ttv-stats-oracle.h).  Used by the statistics tests. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  char *name;
  guint64 count;
  gint64 total, min, max, average;   /* ns; -1: empty */
} TtvStatsCsvRow;

/* key -> TtvStatsCsvRow * of @text; @order (may be NULL) gets the keys in
 * the file's order.  Fails the test on a malformed line or a key twice. */
GHashTable *ttv_stats_csv_parse (const char *text, GPtrArray *order);
/* The rows the oracle computes too, under its keys: the user and unknown
 * modes together as "base", IRQ names without "IRQ N ". */
GHashTable *ttv_stats_csv_to_oracle (GHashTable *csv);
/* Fails the test unless group rows are the sums of their children, the
 * event types sum to the traceset, and the processes' CPU time is the
 * CPUs' busy time. */
void        ttv_stats_csv_assert_group_sums (GHashTable *csv);
/* The rows equal the oracle's @want (ttv_stats_oracle_assert_same), and
 * their parts sum to their wholes (both checks above). */
void        ttv_stats_csv_check (GHashTable *csv, GHashTable *want, const char *what);

G_END_DECLS
