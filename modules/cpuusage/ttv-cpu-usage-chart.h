/* ttv-cpu-usage-chart.h: the CPU usage view's picture: the busy share of
 * each CPU and of them all over the time window (an XY chart), the
 * selected thread's share over it, and the threads' CPU time of an
 * interval; computed at once (a worker thread, or here for ttv --render)
 * and drawn in O(pixels) by the widget and the render alike. */
#pragma once

#include "ttv-viewer.h"

#include <cairo.h>

G_BEGIN_DECLS

typedef struct {
  TtvTime t0, t1;                   /* the chart's window */
  TtvTimeScale scale;               /* the window over the plot (the tab's: long idle gaps compressed) */
  guint n_bins;                     /* points at equal pixel steps */
  TtvTime *edges;                   /* owned, n_bins + 1 */
  GArray *cpus;                     /* owned, of gint */
  double *busy;                     /* owned: n_cpus rows of n_bins shares, 0..1 */
  double *all;                      /* owned: n_bins, every CPU together, 0..1 */
  guint32 tid;                      /* the selected thread, TTV_VIEWER_PID_NONE: none */
  guint machine;                    /* and its machine */
  guint n_machines;                 /* what the CPU usage tells apart: with several, cpus are CPU keys */
  double *thread;                   /* owned: n_bins, its share of one CPU, or NULL */
  TtvTime r0, r1;                   /* the threads' interval */
  GArray *threads;                  /* owned, of TtvViewerThreadUsage, largest first */
  TtvTime busy_total;               /* of every CPU over [r0, r1] */
  TtvTime *machine_busy;            /* owned, n_machines: of each machine's CPUs over [r0, r1] */
  TtvViewerCpuUsage *usage;         /* owned reference: the threads' names live with it */
} TtvCpuUsagePicture;

/* The chart of @scale's window (ttv_tab_state_get_time_scale() over the
 * plot) in @n_bins points at equal pixel steps, the threads of [@r0,
 * @r1], and thread @tid's line (TTV_VIEWER_PID_NONE: none). */
TtvCpuUsagePicture *ttv_cpu_usage_picture_compute (TtvViewerCpuUsage *usage, const TtvTimeScale *scale, guint n_bins,
                                                   TtvTime r0, TtvTime r1, guint machine, guint32 tid,
                                                   GError **error);
/* "CPU 2", or with several machines "beta CPU 2" (caller frees). */
char       *ttv_cpu_usage_picture_dup_cpu_label (const TtvCpuUsagePicture *picture, guint index);
/* "Thread 5", or with several machines "beta thread 5" (caller frees). */
char       *ttv_cpu_usage_picture_dup_thread_label (const TtvCpuUsagePicture *picture);
void        ttv_cpu_usage_picture_free (TtvCpuUsagePicture *picture);
/* A thread's share of its machine's busy time over [r0, r1], 0..1. */
double      ttv_cpu_usage_picture_share (const TtvCpuUsagePicture *picture, const TtvViewerThreadUsage *usage);

#define TTV_CPU_USAGE_LEFT 44       /* the share labels */
#define TTV_CPU_USAGE_TOP 20        /* title and legend */
#define TTV_CPU_USAGE_BOTTOM 22     /* the time ruler */
#define TTV_CPU_USAGE_RIGHT 8

/* The chart in the band (@x, @y, @width, @height); @origin: the traceset's start. */
void        ttv_cpu_usage_draw_chart (cairo_t *cr, const TtvCpuUsagePicture *p, double x, double y, double width,
                                      double height, TtvTime origin, TtvTime now);
/* The whole view as one picture (render, export): the chart over the
 * table of the busiest threads. */
void        ttv_cpu_usage_draw_picture (TtvTabState *state, const TtvCpuUsagePicture *p, cairo_t *cr, int width,
                                        int height);
/* The colour of CPU line @index. */
void        ttv_cpu_usage_color (guint index, double rgb[3]);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvCpuUsagePicture, ttv_cpu_usage_picture_free)

G_END_DECLS
