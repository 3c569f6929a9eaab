/* ttv-latency-viewer.h: the latency views of the latency module (system
 * calls, scheduling, IRQs, block I/O, futex waits): the widget
 * (ttv-latency-viewer.c, with the block throughput lists of
 * ttv-latency-throughput.c) and the picture a render or an export draws
 * (ttv-latency-picture.c). */
#pragma once

#include "ttv-latency-data.h"

G_BEGIN_DECLS

GtkWidget  *ttv_latency_viewer_new (TtvTabState *state, const TtvLatencyKind *kind);

/* The Block I/O view's throughput lists (ttv-latency-throughput.c): a
 * sortable list per device or per process, named "latency-devices" or
 * "latency-processes", and its rows from @usage (of TtvViewerBlockUsage,
 * may be NULL: no rows). */
GtkWidget  *ttv_latency_throughput_view_new (gboolean by_process);
void        ttv_latency_throughput_fill (GtkWidget *view, TtvViewerTable *table, GArray *usage);

/* A table's title for people ("System calls"), translated. */
const char *ttv_latency_table_title (const char *table);

/* The whole view as one picture: a title, the scatter and the density over
 * the statistics table, from @data (may be NULL: a message says why). */
void        ttv_latency_draw_picture (TtvTabState *state, const TtvLatencyKind *kind, const TtvLatencyData *data,
                                      gboolean log_counts, cairo_t *cr, int width, int height);

/* ttv --render NAME: the view's first table over the tab's time window, of
 * the selected thread when there is one, the analysis run here and now. */
gboolean    ttv_latency_render (TtvTabState *state, const TtvLatencyKind *kind, cairo_t *cr, int width, int height,
                                GError **error);

G_END_DECLS
