/* ttv-stats-oracle.h: the statistics of a trace computed by the tests
 * themselves, independently of libttv's state and statistics, from the
 * events that `ttv-report --format=jsonl` prints (what the kernel events
 * mean, written down again from the tracers' documentation).  Used to check
 * ttv-report --stats and the statistics viewer's CSV. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* One line of the statistics, under the key the viewer's CSV uses:
 * "traceset", "type/NAME", "cpu/N", "cpu/N/MODE", "cpu/N/idle",
 * "process/PID", "process/PID/MODE", "syscall/NAME", "irq/N", "softirq/N".
 * MODE is syscall, trap, irq, softirq, or "base" for the time a task ran
 * outside of them (the viewer's user plus unknown mode).  Times in ns;
 * min/max -1 where they do not apply. */
typedef struct {
  guint64 count;            /* events, or calls */
  gint64 total;             /* CPU time or the sum of the durations */
  gint64 min, max;
  char *name;               /* IRQs and soft IRQs: the name, NULL when unknown */
} TtvOracleRow;

/* Runs @report (the ttv-report program) with --format=jsonl on @trace and
 * computes the statistics of the events with @start <= time <= @end
 * (G_MININT64 / G_MAXINT64: no bound): CPU time is counted inside the
 * window only, up to @end or to the last event when the events end before
 * it; durations count whole when they end inside it.  Returns key ->
 * TtvOracleRow *; fails the test when the report fails.  @first, @last
 * (may be NULL): the times of the trace's first and last events.
 * The work (some allocations per event) happens in the ttv-stats-oracle
 * program, apart from the test: under ASan with LeakSanitizer's slow
 * stacks (the GUI tests'), in the test it would take a minute a trace;
 * the test's environment passes on (the GUI tests give their children
 * the shared suppressions and fast stacks). */
GHashTable *ttv_stats_oracle_compute (const char *report, const char *trace, gint64 start, gint64 end,
                                      gint64 *first, gint64 *last);
/* The statistics of several windows at once, in one read of the events:
 * window i runs from @bounds[2 i] to @bounds[2 i + 1].  Returns a
 * GHashTable * a window, as ttv_stats_oracle_compute() does. */
GPtrArray  *ttv_stats_oracle_compute_windows (const char *report, const char *trace, const gint64 *bounds,
                                              guint n_windows, gint64 *first, gint64 *last);
/* The statistics of the whole trace and of a window from 30% to 60% of the
 * span of its events (@a to @b, from libttv's reading of the trace, which
 * is checked to be the oracle's first and last events), in one read: the
 * cases the statistics tests check. */
GPtrArray  *ttv_stats_oracle_compute_whole_and_window (const char *report, const char *trace, gint64 *a,
                                                       gint64 *b);
/* The same computed in this process (what ttv-stats-oracle runs), and the
 * text it prints for ttv_stats_oracle_compute_windows(). */
GPtrArray  *ttv_stats_oracle_compute_windows_here (const char *report, const char *trace, const gint64 *bounds,
                                                   guint n_windows, gint64 *first, gint64 *last);
void        ttv_stats_oracle_append_windows (GPtrArray *windows, gint64 first, gint64 last, GString *out);

/* An empty table: key (owned) -> TtvOracleRow * (owned). */
GHashTable *ttv_stats_oracle_rows_new (void);
/* The row of @key in @rows, added empty (min and max -1) when missing. */
TtvOracleRow *ttv_stats_oracle_row (GHashTable *rows, const char *key);
/* The row of @key, or an empty one (nothing counted) when there is none. */
const TtvOracleRow *ttv_stats_oracle_lookup (GHashTable *rows, const char *key);
/* Fails the test unless every row of either table equals the other's
 * (count, total, min, max, and the name where @want has one). */
void        ttv_stats_oracle_assert_same (GHashTable *got, GHashTable *want, const char *what);
/* Fails the test unless the parts sum to their whole: a CPU's busy time
 * is the sum of its modes, a process's CPU time too, and the processes'
 * CPU time is the CPUs' busy time (the idle time apart). */
void        ttv_stats_oracle_assert_sums (GHashTable *rows);

/* "S.NNNNNNNNN" (ttv-report's seconds) as ns; fails the test if malformed. */
gint64      ttv_stats_oracle_parse_seconds (const char *text);

G_END_DECLS
