/* ttv-tab-state-private.h: the parts of TtvTabState that only the
 * application (window, tab, bookmarks panel, render, tests) uses, not
 * modules: the traceset itself, the bookmarks' editing, the hand-over of
 * the background passes' results, and its two parts (request queue,
 * analysis results). */
#pragma once

#include "ttv-density-bins.h"
#include "ttv-history.h"
#include "ttv-state-pass.h"
#include "ttv-traceset.h"
#include "ttv-viewer-model.h"

G_BEGIN_DECLS

/* Takes a reference on @traceset; the time window starts as the whole span. */
TtvTabState *ttv_tab_state_new (TtvTraceset *traceset);
TtvTraceset *ttv_tab_state_get_traceset (TtvTabState *state);          /* borrowed */
/* Replaces the traceset (after adding a trace): cancels every request and
 * forgets every result of the background passes. */
void        ttv_tab_state_set_traceset (TtvTabState *state, TtvTraceset *traceset);
/* Re-reads what live traces appended (ttv_traceset_refresh) and extends the
 * time window when it showed the end.  Does nothing (TRUE, *@changed FALSE)
 * while requests or statistics computations are under way: call it again
 * later; the caller makes sure no background pass reads the traceset. */
gboolean    ttv_tab_state_refresh (TtvTabState *state, gboolean *changed, GError **error);
/* Cancels every request; the state serves nothing more afterwards. */
void        ttv_tab_state_shutdown (TtvTabState *state);
/* Requests queued or running (tests, the status display). */
guint       ttv_tab_state_get_n_requests (TtvTabState *state);

/* Bookmarks: the state keeps them sorted and emits "bookmarks-changed";
 * saving is the tab's business. */
TtvViewerBookmark *ttv_viewer_bookmark_new (const char *name, const char *text, gint cpu,
                                            TtvTime start, TtvTime end);
TtvViewerBookmark *ttv_viewer_bookmark_copy (const TtvViewerBookmark *bookmark);
void        ttv_viewer_bookmark_free (TtvViewerBookmark *bookmark);
/* @bookmarks: of TtvViewerBookmark *, transfer full (may be NULL: none). */
void        ttv_tab_state_set_bookmarks (TtvTabState *state, GPtrArray *bookmarks);
void        ttv_tab_state_add_bookmark (TtvTabState *state, TtvViewerBookmark *bookmark /* transfer full */);
/* Replaces or removes (@bookmark NULL) the bookmark at @index. */
void        ttv_tab_state_replace_bookmark (TtvTabState *state, guint index,
                                            TtvViewerBookmark *bookmark /* transfer full */);

/* --- Results of the background passes, handed over on the main thread ------ */

/* The first read: @n_events, @density (of guint32, events per bin over the
 * span) and @type_density ("facility.event" -> GArray of guint32, the same
 * bins), both transfer full and may be NULL, and @bins (copied; NULL: of
 * equal time over the span) how they cut time; emits "density-ready". */
void        ttv_tab_state_set_density (TtvTabState *state, guint64 n_events, GArray *density,
                                       GHashTable *type_density, const TtvDensityBins *bins);
/* Borrowed, may be NULL (the time bar's overview). */
GArray     *ttv_tab_state_get_density (TtvTabState *state);
/* The state pass's results (transfer full; both NULL: forget them); emits
 * "state-ready" when there are some. */
void        ttv_tab_state_set_state_pass (TtvTabState *state, TtvStateTracker *tracker,
                                          TtvStatistics *statistics);
/* The state history (transfer full; NULL forgets it); emits "history-changed". */
void        ttv_tab_state_set_history (TtvTabState *state, TtvHistory *history);

/* The tab's request queue (ttv-request-queue.h) and analysis results
 * (ttv-tab-analysis.h), which the state owns; borrowed. */
typedef struct _TtvRequestQueue TtvRequestQueue;
typedef struct _TtvTabAnalysis TtvTabAnalysis;
TtvRequestQueue *ttv_tab_state_get_request_queue (TtvTabState *state);
TtvTabAnalysis *ttv_tab_state_get_analysis (TtvTabState *state);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvViewerBookmark, ttv_viewer_bookmark_free)

G_END_DECLS
