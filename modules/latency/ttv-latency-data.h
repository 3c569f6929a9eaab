/* ttv-latency-data.h: what a latency view shows of one table over one time
 * window, computed at once (in a worker thread for the widget, here and
 * now for ttv --render): the scatter of duration against time, the density
 * of durations, the statistics per group and the longest records; and its
 * drawing (ttv-latency-chart.c), the same for the widget and the render. */
#pragma once

#include "ttv-viewer.h"

#include <cairo.h>

G_BEGIN_DECLS

/* Which latency view: its analysis and tables. */
typedef struct {
  const char *name;                  /* "syscall-latency" */
  TtvViewerKernelAnalysis analysis;
  const char *const *tables;         /* NULL-terminated: "calls" */
  const char *noun;                  /* "calls", marked N_ */
  gboolean throughput;               /* block I/O: throughput per device and process */
  gboolean arguments;                /* system calls: the longest calls' arguments */
} TtvLatencyKind;

#define TTV_LATENCY_LONGEST 500

typedef struct {
  TtvViewerTable *table;             /* owned reference (the strings below live with it) */
  TtvTime t0, t1;                    /* the window: records that start in it */
  TtvTimeScale scale;                /* the window over the columns (x 0..width): the tab's */
  guint machine;                     /* with @tid: its machine's */
  guint32 tid;                       /* one thread's records, TTV_VIEWER_PID_NONE: all */
  guint width;                       /* scatter columns */
  TtvViewerScatterColumn *columns;   /* owned, @width */
  guint64 counts[TTV_VIEWER_DURATION_BUCKETS];
  guint64 n;                         /* records starting in the window */
  /* With the statistics (the slower part): */
  gboolean has_stats;
  TtvViewerDurationStats all;
  GArray *groups;                    /* of TtvViewerDurationStats, largest total first, owned */
  TtvViewerRecords *longest;         /* owned: holds the longest records */
  GArray *order;                     /* owned, of guint: indices in @longest, the longest first,
                                      * at most TTV_LATENCY_LONGEST */
  GStringChunk *labels;              /* owned: group labels of one thread's statistics */
  /* With the throughput (block I/O), of every thread: */
  GArray *devices, *processes;       /* owned, of TtvViewerBlockUsage, NULL: not computed */
} TtvLatencyData;

/* Computes @table's picture of [@t0, @t1] at @width columns placed by
 * @scale (the tab's scale of that window, ttv_tab_state_get_time_scale():
 * long idle gaps between traces compressed; NULL: linear), of thread @tid
 * of @machine or every thread, with the statistics and longest records when
 * @with_stats.  NULL with @error when the table cannot be read or
 * @cancellable was cancelled. */
TtvLatencyData *ttv_latency_data_compute (TtvViewerTable *table, TtvTime t0, TtvTime t1, guint width,
                                          const TtvTimeScale *scale, guint machine, guint32 tid, gboolean with_stats,
                                          GCancellable *cancellable, GError **error);
void        ttv_latency_data_free (TtvLatencyData *data);
/* Adds the block requests' throughput of @data's window (every thread's)
 * per device and per process; FALSE with @error when the table cannot be
 * read. */
gboolean    ttv_latency_data_add_throughput (TtvLatencyData *data, GError **error);

/* The figures of a group's statistics, in the order the views show them:
 * count, total, min, mean, max, std dev, p50, p90, p99 (ns but the count;
 * the mean and std dev rounded). */
#define TTV_LATENCY_N_FIGURES 9
void        ttv_latency_stats_figures (const TtvViewerDurationStats *stats, gint64 figures[TTV_LATENCY_N_FIGURES]);
/* Figure @figure (of the above) as shown: a count, or a duration with its
 * unit. */
char       *ttv_latency_figure_text (guint figure, gint64 value);

/* --- Drawing (ttv-latency-chart.c) ---------------------------------------------- */

/* The durations' log scale of a picture: decades around what it holds. */
typedef struct {
  double lo, hi;                     /* log10 of ns */
} TtvLatencyScale;

void        ttv_latency_scale_init (TtvLatencyScale *scale, const TtvLatencyData *data);

/* The plot areas of a scatter or density drawn at (x, y, width, height):
 * room for the axes' labels around them. */
typedef struct {
  double x, y, width, height;        /* the whole band */
  double px, py, pw, ph;             /* the plot inside it */
} TtvLatencyFrame;

void        ttv_latency_frame_init (TtvLatencyFrame *frame, double x, double y, double width, double height);

/* Scatter: duration (log, up) against start time over the picture's
 * window; @selection (may be NULL) a record to ring. */
void        ttv_latency_draw_scatter (cairo_t *cr, const TtvLatencyData *data, const TtvLatencyScale *scale,
                                      const TtvLatencyFrame *frame, TtvTime origin, const TtvTime *selection);
/* Density: records per duration bucket (log durations across, counts up,
 * linear or log1p), with p50/p90/p99 marked when known. */
void        ttv_latency_draw_density (cairo_t *cr, const TtvLatencyData *data, const TtvLatencyScale *scale,
                                      const TtvLatencyFrame *frame, gboolean log_counts);
/* A message in the middle of a band (waiting, nothing to show). */
void        ttv_latency_draw_message (cairo_t *cr, double x, double y, double width, double height,
                                      const char *message);

/* The column and duration under (@x, @y) of a scatter frame; FALSE
 * outside the plot. */
gboolean    ttv_latency_scatter_pick (const TtvLatencyData *data, const TtvLatencyScale *scale,
                                      const TtvLatencyFrame *frame, double x, double y, guint *column,
                                      TtvTime *duration);
/* The time range of scatter column @column. */
void        ttv_latency_column_range (const TtvLatencyData *data, guint column, TtvTime *t0, TtvTime *t1);

/* "12.3 µs" style short duration labels of the axes. */
char       *ttv_latency_format_decade (double log10_ns);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvLatencyData, ttv_latency_data_free)

G_END_DECLS
