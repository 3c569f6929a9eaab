/* ttv-analysis-table.h: one table of an analysis's results: fixed-size
 * records, each an interval (start and end come first), queried by time in
 * O(log n + answer), by series (per thread, per CPU), with duration
 * histograms, scatter summaries and per-group statistics.  Built once in
 * one read of the trace, then immutable: in memory, or read a few KiB at a
 * time from the analysis's cache file, safe to query from any thread.
 * Used by every analysis (ttv-analysis.h), ttv-report and the viewer. */
#pragma once

#include <gio/gio.h>

#include "ttv-time.h"

G_BEGIN_DECLS

/* --- What a record holds --------------------------------------------------- */

typedef enum {
  TTV_COLUMN_TIME,         /* gint64 ns since the epoch */
  TTV_COLUMN_DURATION,     /* gint64 ns; offset -1: the record's end - start */
  TTV_COLUMN_INT,          /* gint64 */
  TTV_COLUMN_UINT,         /* guint32 */
  TTV_COLUMN_HEX,          /* guint64, written 0x... */
  TTV_COLUMN_TID,          /* guint32, G_MAXUINT32: none */
  TTV_COLUMN_CPU,          /* gint32, -1: none */
  TTV_COLUMN_STRING,       /* guint32: index in the result's strings, G_MAXUINT32: none */
  TTV_COLUMN_ENUM,         /* guint32, named by the column's labels */
} TtvColumnType;

typedef struct {
  const char *name;        /* "tid": the JSON key and CSV heading */
  const char *title;       /* translatable (marked N_): the text heading */
  TtvColumnType type;
  gint offset;             /* in the record; -1: computed (DURATION) */
  const char *const *labels; /* ENUM: names by value, NULL-terminated */
} TtvAnalysisColumn;

#define TTV_ANALYSIS_NO_STRING G_MAXUINT32
/* The name of the column (a STRING: the machine's name) of the records of
 * an analysis that is per machine: reports and views show it only when
 * the result has several machines (ttv_analysis_column_is_shown). */
#define TTV_ANALYSIS_MACHINE_COLUMN "machine"
#define TTV_ANALYSIS_MAX_SERIES 2

/* The shape of a table, static in the analysis that makes it. */
typedef struct {
  const char *name;        /* "calls" */
  gsize record_size;       /* a multiple of 8; the record starts with gint64 start, end */
  const TtvAnalysisColumn *columns;
  guint n_columns;
  /* Series: records grouped by the guint32 at this offset (a thread, a
   * CPU), -1 for none.  A series' records must not overlap one another
   * (then their clipped durations can be summed by time range). */
  gint series_offset[TTV_ANALYSIS_MAX_SERIES];
  /* What statistics group by (a guint32 or, with group_is_64, a guint64
   * column), -1 for no per-group statistics. */
  gint group_offset;
  gboolean group_is_64;
  /* Duration histograms and scatter summaries (latency tables). */
  gboolean summaries;
} TtvAnalysisTableSpec;

typedef struct _TtvAnalysisTable TtvAnalysisTable;

static inline TtvTime
ttv_analysis_record_start (const void *record)
{
  return ((const gint64 *) record)[0];
}

static inline TtvTime
ttv_analysis_record_end (const void *record)
{
  return ((const gint64 *) record)[1];
}

/* end - start: 0 when the record ends before it starts, saturated at
 * TTV_TIME_MAX (records read from a damaged cache hold anything). */
static inline TtvTime
ttv_analysis_record_duration (const void *record)
{
  TtvTime start = ttv_analysis_record_start (record), end = ttv_analysis_record_end (record), d;
  if (end <= start)
    return 0;
  return __builtin_sub_overflow (end, start, &d) ? TTV_TIME_MAX : d;
}

/* GCompareFunc of records: the longest first, then the earliest start. */
gint        ttv_analysis_record_compare_longest (gconstpointer a, gconstpointer b);

/* A column's value as an integer (times, durations, ids, strings' indices). */
gint64      ttv_analysis_column_get (const TtvAnalysisColumn *column, const void *record);

/* --- Durations on a log scale ------------------------------------------------ */

/* Four buckets per power of two, from 1 ns to 2^40 ns (18 min): bucket b
 * holds the durations d with lower(b) <= d < lower(b + 1); 0 holds d < 1 ns,
 * the last one everything from 2^(159/4) ns up. */
#define TTV_DURATION_BUCKETS 160
guint       ttv_duration_bucket (TtvTime duration);
TtvTime     ttv_duration_bucket_lower (guint bucket);

/* A scatter column: which duration buckets hold a record (bit b of
 * mask[b / 64]) among the records that start in the column's time. */
typedef struct {
  guint64 mask[(TTV_DURATION_BUCKETS + 63) / 64];
  guint64 count;           /* records starting in the column */
} TtvScatterColumn;

/* --- Statistics -------------------------------------------------------------- */

typedef struct {
  gint64 key;              /* the group's value (a string index, an IRQ...); all: -1 */
  guint64 count;
  TtvTime total;
  TtvTime min, max;
  double mean;
  double stddev;           /* of the population */
  TtvTime p50, p90, p99;   /* exact: the smallest duration with at least that share at or below it */
} TtvDurationSummary;

/* --- The table ----------------------------------------------------------------- */

const TtvAnalysisTableSpec *ttv_analysis_table_get_spec (const TtvAnalysisTable *table);
guint64     ttv_analysis_table_get_n_records (const TtvAnalysisTable *table);
const TtvAnalysisColumn *ttv_analysis_table_find_column (const TtvAnalysisTable *table, const char *name);

/* What a query selects: the records that overlap [t0, t1], or those that
 * start in it (what the latency views and their statistics count). */
typedef enum {
  TTV_QUERY_OVERLAP,
  TTV_QUERY_START_IN,
} TtvQueryMode;

/* Called per record selected (valid during the call only); return FALSE
 * to stop. */
typedef gboolean (*TtvRecordFunc) (const void *record, gpointer data);

/* Every record selected by @mode over [t0, t1], in the order they were
 * stored (by end, roughly).  Costs O(log n + answer) reads of 64 records.
 * FALSE with @error when the table's file cannot be read. */
gboolean    ttv_analysis_table_foreach (const TtvAnalysisTable *table, TtvQueryMode mode, TtvTime t0,
                                        TtvTime t1, TtvRecordFunc func, gpointer data, GError **error);
/* The same as a GArray of records, sorted by start (then end). */
GArray     *ttv_analysis_table_query (const TtvAnalysisTable *table, TtvQueryMode mode, TtvTime t0,
                                      TtvTime t1, GError **error);

/* Series @which (0 or 1 of the spec's series_offset): the keys, sorted. */
GArray     *ttv_analysis_table_dup_series_keys (const TtvAnalysisTable *table, guint which);
/* The records of one series overlapping [t0, t1], sorted by start:
 * O(log n + answer). */
GArray     *ttv_analysis_table_query_series (const TtvAnalysisTable *table, guint which, guint32 key,
                                             TtvTime t0, TtvTime t1, GError **error);
/* The record of one series overlapping [t0, t1] that sorts last (what
 * ttv_analysis_table_query_series would give last) into @record
 * (record_size bytes); *found FALSE when there is none.  O(log n): a
 * thread's last name in a window without reading its every slice. */
gboolean    ttv_analysis_table_last_in_series (const TtvAnalysisTable *table, guint which, guint32 key,
                                               TtvTime t0, TtvTime t1, void *record, gboolean *found,
                                               GError **error);
/* Whether the last record of a series (the greatest start, and the
 * greatest end) overlaps [t0, t1]: then, the series' records not
 * overlapping one another, it is the one ttv_analysis_table_last_in_series
 * would read.  O(1), no read. */
gboolean    ttv_analysis_table_series_last_overlaps (const TtvAnalysisTable *table, guint which, guint32 key,
                                                     TtvTime t0, TtvTime t1);
/* The first start and the last end of one series' records; FALSE when
 * the series has none.  O(1). */
gboolean    ttv_analysis_table_get_series_span (const TtvAnalysisTable *table, guint which, guint32 key,
                                                TtvTime *first_start, TtvTime *last_end);
/* The sum over one series of its records' durations clipped to [t0, t1]
 * (CPU time of a thread, busy time of a CPU): O(log n), two reads. */
gboolean    ttv_analysis_table_sum_series (const TtvAnalysisTable *table, guint which, guint32 key,
                                           TtvTime t0, TtvTime t1, TtvTime *sum, GError **error);
/* The same at many edges: @sums[i] is the sum over [edges[i], edges[i+1]]
 * for @n_edges sorted edges (n_edges - 1 sums): an XY chart's points. */
gboolean    ttv_analysis_table_sum_series_bins (const TtvAnalysisTable *table, guint which, guint32 key,
                                                const TtvTime *edges, guint n_edges, TtvTime *sums,
                                                GError **error);

/* The @max longest records that start in [t0, t1], longest first (ties:
 * earliest first): the histogram says how long they are at least, the
 * scatter summary where such records start, and only those places are
 * read.  Tables without summaries are read whole over the window. */
GArray     *ttv_analysis_table_query_longest (const TtvAnalysisTable *table, TtvTime t0, TtvTime t1, guint max,
                                              GError **error);
/* The column the statistics group by, or NULL. */
const TtvAnalysisColumn *ttv_analysis_table_get_group_column (const TtvAnalysisTable *table);

/* Summaries of the records that start in [t0, t1] (summaries tables). */
/* The count of each duration bucket: exact, in O(bins + records of the
 * two partial bins at the edges). */
gboolean    ttv_analysis_table_histogram (const TtvAnalysisTable *table, TtvTime t0, TtvTime t1,
                                          guint64 counts[TTV_DURATION_BUCKETS], GError **error);
/* @width columns splitting [t0, t1) evenly: in O(@width) from the
 * summaries, or from the records themselves when the window holds few
 * (then *exact is TRUE). */
gboolean    ttv_analysis_table_scatter (const TtvAnalysisTable *table, TtvTime t0, TtvTime t1, guint width,
                                        TtvScatterColumn *columns, gboolean *exact, GError **error);

/* Statistics per group (the spec's group_offset) of the records that
 * start in [t0, t1] (TTV_TIME_MIN, TTV_TIME_MAX: the whole table, read
 * from what the build stored), sorted by total duration, largest first;
 * @all (may be NULL) gets the statistics of every record together. */
GArray     *ttv_analysis_table_summarize (const TtvAnalysisTable *table, TtvTime t0, TtvTime t1,
                                          TtvDurationSummary *all, GError **error);
/* The same for the records whose @only column holds @value (a machine's:
 * the machine column and its name's string), computed from the records
 * in one streaming read whatever the window. */
GArray     *ttv_analysis_table_summarize_where (const TtvAnalysisTable *table, const TtvAnalysisColumn *only,
                                                gint64 value, TtvTime t0, TtvTime t1, TtvDurationSummary *all,
                                                GError **error);
/* The same over any set of durations (a viewer's selection, tests). */
void        ttv_duration_summary_compute (TtvDurationSummary *out, gint64 key, TtvTime *durations, gsize n);

G_END_DECLS
