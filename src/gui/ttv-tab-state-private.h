/* ttv-tab-state-private.h: the parts of TtvTabState that only the
 * application (window, tab, bookmarks panel, tests) uses, not modules. */
#pragma once

#include "ttv-state-tracker.h"
#include "ttv-traceset.h"
#include "ttv-viewer.h"

G_BEGIN_DECLS

/* Takes a reference on @traceset; the time window starts as the whole span. */
TtvTabState *ttv_tab_state_new (TtvTraceset *traceset);
TtvTraceset *ttv_tab_state_get_traceset (TtvTabState *state);          /* borrowed */
/* Replaces the traceset (after adding a trace): cancels every request. */
void        ttv_tab_state_set_traceset (TtvTabState *state, TtvTraceset *traceset);
/* Re-reads what live traces appended (ttv_traceset_refresh) and extends the
 * time window when it showed the end.  Does nothing (TRUE, *@changed FALSE)
 * while requests or statistics computations are under way: call it again
 * later; the caller makes sure no background pass reads the traceset. */
gboolean    ttv_tab_state_refresh (TtvTabState *state, gboolean *changed, GError **error);
/* Cancels every request; the state serves nothing more afterwards. */
void        ttv_tab_state_shutdown (TtvTabState *state);

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

/* Background indexing results: @density (of guint32, transfer full, may be
 * NULL) counts events per bin over the traceset span. */
void        ttv_tab_state_set_statistics (TtvTabState *state, guint64 n_events, gboolean complete,
                                          GArray *density);
/* Borrowed, may be NULL. */
GArray     *ttv_tab_state_get_density (TtvTabState *state);
/* Per event type density (transfer full, may be NULL): "facility.event" ->
 * GArray of guint32, the same bins as the density.  No signal: call before
 * ttv_tab_state_set_statistics(). */
void        ttv_tab_state_set_type_density (TtvTabState *state, GHashTable *type_density);
/* The state pass's results (transfer full; both NULL: forget them); emits
 * "statistics-changed". */
void        ttv_tab_state_set_state_pass (TtvTabState *state, TtvStateTracker *tracker,
                                          TtvStatistics *statistics);

/* The state a request tracks (TTV_REQUEST_WITH_STATE, or a filter on
 * state.*), borrowed, NULL when none. */
const TtvState *ttv_event_request_get_state (TtvEventRequest *request);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvViewerBookmark, ttv_viewer_bookmark_free)

G_END_DECLS
