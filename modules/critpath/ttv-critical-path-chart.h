/* ttv-critical-path-chart.h: the critical path view's picture: the path of
 * a thread over the time window as rows, one per participant (the thread,
 * the threads that woke it, the devices), each segment coloured by what
 * the thread waited for, the hops between rows drawn; and the time per
 * participant.  Computed at once (a worker thread, or here for ttv
 * --render), drawn in O(segments) clipped to pixels. */
#pragma once

#include "ttv-viewer.h"

#include <cairo.h>

G_BEGIN_DECLS

typedef struct {
  gboolean device;                  /* an IRQ or soft IRQ, else a thread */
  guint32 id;                       /* tid, or line / vector */
  gboolean softirq;
  char *label;                      /* owned: "probe-client 4194301", "IRQ 21 probe-disk" */
  TtvTime total;                    /* time on the path */
} TtvPathRow;

typedef struct {
  TtvTabState *state;               /* owned reference: the tab's time scale */
  guint32 tid;
  TtvTime t0, t1;
  GArray *segments;                 /* owned, of TtvViewerPathSegment */
  guint *row_of;                    /* owned: each segment's row */
  GPtrArray *rows;                  /* owned, of TtvPathRow *, first seen first (the thread first) */
  TtvTime by_kind[TTV_VIEWER_PATH_BLOCKED + 1];
} TtvPathPicture;

/* The path of @tid over [@t0, @t1]; NULL with @error when the scheduling
 * analysis is not there or cannot be read. */
TtvPathPicture *ttv_path_picture_compute (TtvTabState *state, guint32 tid, TtvTime t0, TtvTime t1, GError **error);
void        ttv_path_picture_free (TtvPathPicture *picture);

#define TTV_PATH_ROW_HEIGHT 22
#define TTV_PATH_LABEL_WIDTH 200
#define TTV_PATH_HEADER 42          /* title, legend */
#define TTV_PATH_RULER 22

const char *ttv_path_kind_label (TtvViewerPathKind kind);
void        ttv_path_kind_color (TtvViewerPathKind kind, double rgb[3]);

/* The rows in the band (@x, @y, @width, @height); @origin: the traceset's start. */
void        ttv_path_draw_chart (cairo_t *cr, const TtvPathPicture *p, double x, double y, double width,
                                 double height, TtvTime origin);
/* The segment under (@x, @y) of a chart drawn at (0, 0, @width, ...), or -1. */
gint        ttv_path_segment_at (const TtvPathPicture *p, double width, double x, double y);
/* The row under @y, or -1. */
gint        ttv_path_row_at (const TtvPathPicture *p, double y);
/* The whole view as one picture (render, export): the chart over the
 * time per participant. */
void        ttv_path_draw_picture (TtvTabState *state, const TtvPathPicture *p, cairo_t *cr, int width, int height);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvPathPicture, ttv_path_picture_free)

G_END_DECLS
