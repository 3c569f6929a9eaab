/* ttv-view-axis.h: the axes of the analysis views (control flow, resources,
 * histogram; compiled into each): a time ruler in the user's time format,
 * a count scale, lost-event marks. */
#pragma once

#include "ttv-viewer.h"

#include <cairo.h>

G_BEGIN_DECLS

/* The tick step of 1, 2 or 5 times a power of ten nearest above @raw (>= 1). */
guint64     ttv_view_axis_nice_step (double raw);


/* Draws a ruler in the band (@x, @y, @width, @height): ticks and labels of
 * [@t0, @t1] in the user's time format (ttv_viewer_format_tick(); @origin:
 * the traceset's start), the labels above the ticks.  @labels (may be NULL)
 * gets the labels drawn, one a line, for tests.  A view redraws on
 * "time-format-changed". */
void        ttv_view_axis_draw_time (cairo_t *cr, double x, double y, double width, double height,
                                     TtvTime origin, TtvTime t0, TtvTime t1, GString *labels);
/* The same ruler on @scale (ttv_tab_state_get_time_scale()) in the band
 * (@y, @height): each linear piece its ticks, each compressed gap its mark
 * (ttv_viewer_draw_time_gaps()). */
void        ttv_view_axis_draw_scale (cairo_t *cr, const TtvTimeScale *scale, double y, double height,
                                      TtvTime origin, GString *labels);
/* Draws a vertical count scale for 0..@max (linear, or log1p) along the
 * left edge of the plot (@x, @y, @width, @height): labels on a pale ground
 * and light grid lines across the plot (drawn over the bars). */
void        ttv_view_axis_draw_counts (cairo_t *cr, double x, double y, double width, double height,
                                       guint64 max, gboolean log_scale);

/* Draws @lost (of TtvViewerLostEvents: ttv_tab_state_dup_lost_events()) as marks of at least 2 px
 * in the band (@x, @y, @width, @height) over [@t0, @t1], in @rgb. */
void        ttv_view_axis_draw_lost (cairo_t *cr, const GArray *lost, double x, double y,
                                     double width, double height, TtvTime t0, TtvTime t1,
                                     const double rgb[3]);
void        ttv_view_axis_draw_lost_scale (cairo_t *cr, const GArray *lost, const TtvTimeScale *scale,
                                           double y, double height, const double rgb[3]);
/* The events and whole packets lost in the ranges of @lost meeting [@t0,
 * @t1], and whether any does (a count may be unknown: 0). */
gboolean    ttv_view_axis_lost_between (const GArray *lost, TtvTime t0, TtvTime t1, guint64 *count,
                                        guint64 *packets);

G_END_DECLS
