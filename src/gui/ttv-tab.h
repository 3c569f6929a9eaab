/* ttv-tab.h: one notebook page of the window: a traceset with its shared
 * state, time bar, viewers, bookmarks panel and background indexing. */
#pragma once

#include "ttv-notifications.h"
#include "ttv-status-bar.h"
#include "ttv-tab-bookmarks.h"
#include "ttv-tab-layout.h"
#include "ttv-tab-state-private.h"

G_BEGIN_DECLS

#define TTV_TYPE_TAB (ttv_tab_get_type ())
G_DECLARE_FINAL_TYPE (TtvTab, ttv_tab, TTV, TAB, GtkBox)

/* Takes a reference on @traceset; loads the bookmarks, starts indexing and
 * shows the viewers registered with show_by_default. */
GtkWidget  *ttv_tab_new (TtvTraceset *traceset);
TtvTabState *ttv_tab_get_state (TtvTab *self);
/* "name" or "name +2" for a traceset of several traces. */
char       *ttv_tab_dup_title (TtvTab *self);
/* Shows (creating if needed) the viewer registered as @name. */
gboolean    ttv_tab_show_viewer (TtvTab *self, const char *name);
/* The panes of the tab's viewers (split, move, close: View menu). */
TtvTabLayout *ttv_tab_get_layout (TtvTab *self);
/* Escape (when no view uses it), a click out of the selection: FALSE when
 * there was none. */
gboolean    ttv_tab_clear_selection (TtvTab *self);
/* The time window becomes the selection (Ctrl+9, a double click in it);
 * FALSE without a selection. */
gboolean    ttv_tab_zoom_to_selection (TtvTab *self);
/* Ctrl+F: the focused viewer's find, else the first viewer that has one. */
void        ttv_tab_find (TtvTab *self);
/* Appends @trace (transfer full) to the traceset, once the background
 * passes stopped reading it ("traceset-changed" then). */
void        ttv_tab_add_trace (TtvTab *self, TtvTrace *trace);
/* Synchronizes the machines' clocks from their network packets in the
 * background (docs/multi-machine.md), then corrects the traces and reloads
 * the views; the quality of each trace's correction, or why there is
 * none, is shown under the notification key "sync". */
void        ttv_tab_synchronize (TtvTab *self);
/* Corrects the clock of each trace by a constant offset (@offsets_ns, one
 * per trace of the traceset; 0: none), in place of any correction it had,
 * reloads the views and keeps the offsets with the traces' bookmarks
 * (where ttv-report finds them too). */
void        ttv_tab_set_clock_offsets (TtvTab *self, const gint64 *offsets_ns);
/* Bookmark at the current time or the selected interval, through a dialog. */
void        ttv_tab_add_bookmark_interactive (TtvTab *self);
/* Adds @bookmark (transfer full) and saves it with the trace's others. */
void        ttv_tab_add_bookmark (TtvTab *self, TtvViewerBookmark *bookmark);
void        ttv_tab_edit_bookmark (TtvTab *self, guint index);
/* Deletes at once; a message over the views offers Undo. */
void        ttv_tab_delete_bookmark (TtvTab *self, guint index);
/* Puts back the bookmark deleted last; FALSE when there is none. */
gboolean    ttv_tab_undo_delete_bookmark (TtvTab *self);
void        ttv_tab_jump_to_bookmark (TtvTab *self, guint index);
void        ttv_tab_set_bookmarks_visible (TtvTab *self, gboolean visible);
gboolean    ttv_tab_get_bookmarks_visible (TtvTab *self);
/* The bookmarks machinery (saves, read-only choices); NULL once the tab is
 * closed. */
TtvTabBookmarks *ttv_tab_get_bookmarks (TtvTab *self);
/* A message over the views under @key (replacing the previous one). */
void        ttv_tab_notify (TtvTab *self, const char *key, GtkMessageType type, const char *text);
TtvNotifications *ttv_tab_get_notifications (TtvTab *self);
TtvStatusBar *ttv_tab_get_status_bar (TtvTab *self);
/* Background passes: whether one runs; cancel; run again the one that
 * was cancelled or failed (FALSE when none was). */
gboolean    ttv_tab_is_busy (TtvTab *self);
void        ttv_tab_cancel_background (TtvTab *self);
gboolean    ttv_tab_restart_background (TtvTab *self);
/* Puts the keyboard focus in the tab's filter bar (Ctrl+L). */
void        ttv_tab_focus_filter (TtvTab *self);
/* Following a live trace: what the tracer appends is read once a second,
 * the time window extended when it showed the end (File > Follow). */
void        ttv_tab_set_following (TtvTab *self, gboolean follow);
gboolean    ttv_tab_get_following (TtvTab *self);
/* Whether some events of the traceset are lost to damage (found while
 * opening, or skipped while reading); notified as the "damaged" property. */
gboolean    ttv_tab_get_damaged (TtvTab *self);
/* Stops background work and requests (before the tab goes away). */
void        ttv_tab_shutdown (TtvTab *self);

G_END_DECLS
