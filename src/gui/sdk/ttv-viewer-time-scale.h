/* ttv-viewer-time-scale.h: how a time view maps times to pixels, the same
 * way in every view of a tab.  Linear, but for the long idle gaps between
 * the spans of far-apart traces (an old capture beside a new one, machines
 * traced at different times: docs/multi-machine.md), which take a few
 * pixels each instead of almost the whole width, and are drawn with a mark
 * so that nobody reads them as time.
 * Part of the installed SDK: include ttv-viewer.h, not this file. */
#pragma once

#include "ttv-viewer-types.h"

G_BEGIN_DECLS

/* Gaps compressed at most in one scale (the longest; more are left
 * linear): TTV_TIME_MAX_IDLE_GAPS of libttv. */
#define TTV_TIME_SCALE_MAX_GAPS 8
/* The pixels of a compressed gap, when the width allows. */
#define TTV_TIME_SCALE_GAP_WIDTH 24.0

/* One linear piece of a scale: [@t0, @t1] over [@x0, @x1]. */
typedef struct {
  TtvTime t0, t1;
  double x0, x1;
  gboolean gap;       /* a compressed idle gap, not time to read */
} TtvTimeScalePiece;

/* Filled by the functions below (a plain value: views keep one in their
 * layout); the pieces are in time order and cover [t0, t1] and
 * [x, x + width] without holes. */
typedef struct {
  TtvTime t0, t1;
  double x, width;
  double ns_per_px;   /* where time is read (outside gaps) */
  guint n_pieces;
  TtvTimeScalePiece pieces[2 * TTV_TIME_SCALE_MAX_GAPS + 1];
} TtvTimeScale;

/* A linear scale of [@t0, @t1] over [@x, @x + @width]. */
void        ttv_time_scale_init_linear (TtvTimeScale *scale, TtvTime t0, TtvTime t1, double x, double width);
/* A scale of [@t0, @t1] over [@x, @x + @width] where the times that no
 * range of @busy covers (@n_busy ranges of two TtvTimes, start and end, in
 * any order, overlapping or not) are compressed where they would take more
 * of the width than all the busy time shown: each such gap takes
 * TTV_TIME_SCALE_GAP_WIDTH pixels (less on a narrow view), the busy time
 * shares the rest at one common ns per pixel, and shorter gaps stay at
 * that rate.  Linear when no gap is that long. */
void        ttv_time_scale_init (TtvTimeScale *scale, TtvTime t0, TtvTime t1, double x, double width,
                                 const TtvTime (*busy)[2], guint n_busy);
/* The tab's scale for the window [@t0, @t1] (usually the tab's time
 * window, or its whole span for an overview): busy are the spans of its
 * traces.  Every view of the tab drawing those times on that width draws
 * them at the same pixels. */
void        ttv_tab_state_get_time_scale (TtvTabState *state, TtvTime t0, TtvTime t1, double x, double width,
                                          TtvTimeScale *scale);

/* The same times over [@x, @x + @width]: every piece's pixels stretched
 * alike (a scale computed for a plot, drawn at its place). */
void        ttv_time_scale_place (TtvTimeScale *scale, double x, double width);
gboolean    ttv_time_scale_is_linear (const TtvTimeScale *scale);
/* For views that query per column (whole pixels from the scale's x, of
 * floor (width)): the columns [*@first, *@end) that linear piece @index
 * covers, each column it touches (one touched by two pieces goes to the
 * earlier), to fill with its times [t0, t1] split evenly.  FALSE for a
 * gap, or a piece with no column left. */
gboolean    ttv_time_scale_get_piece_columns (const TtvTimeScale *scale, guint index, guint *first, guint *end);
/* Monotonic; beyond the scale's ends, at the rate of the time read. */
double      ttv_time_scale_x_of_time (const TtvTimeScale *scale, TtvTime t);
TtvTime     ttv_time_scale_time_of_x (const TtvTimeScale *scale, double x);

G_END_DECLS
