/* ttv-bookmark-saver.h: saves a tab's bookmarks in a worker thread, one
 * save at a time (rewriting a large archive takes seconds), with progress
 * and cancel; the application stays up until the last save is done.  Used
 * by the tab's bookmarks (ttv-tab-bookmarks.c). */
#pragma once

#include <gio/gio.h>

#include "ttv-bookmarks.h"
#include "ttv-traceset.h"

G_BEGIN_DECLS

#define TTV_TYPE_BOOKMARK_SAVER (ttv_bookmark_saver_get_type ())
G_DECLARE_FINAL_TYPE (TtvBookmarkSaver, ttv_bookmark_saver, TTV, BOOKMARK_SAVER, GObject)

/* Signals (main thread):
 *   "started"  (gpointer trace): a save of that trace begins;
 *   "finished" (gpointer trace, gpointer error): it ended; error is a
 *              const GError * (NULL: saved; G_IO_ERROR_CANCELLED: cancelled,
 *              the previous file untouched). */
TtvBookmarkSaver *ttv_bookmark_saver_new (void);
/* Saves @bookmarks (transfer full) of @trace, one of @traceset's traces
 * (kept alive meanwhile), at @place.  While a save runs the request waits,
 * replacing an older waiting request for the same trace. */
void        ttv_bookmark_saver_save (TtvBookmarkSaver *self, TtvTraceset *traceset,
                                     TtvTrace *trace, TtvBookmarksPlace place,
                                     TtvBookmarks *bookmarks);
gboolean    ttv_bookmark_saver_is_busy (TtvBookmarkSaver *self);
/* The trace being saved (borrowed), NULL when idle. */
TtvTrace   *ttv_bookmark_saver_get_current (TtvBookmarkSaver *self);
/* How far the running save is, 0 to 1 (0 when idle). */
double      ttv_bookmark_saver_get_fraction (TtvBookmarkSaver *self);
/* Cancels the running save and drops the waiting ones. */
void        ttv_bookmark_saver_cancel (TtvBookmarkSaver *self);

G_END_DECLS
