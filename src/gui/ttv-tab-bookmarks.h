/* ttv-tab-bookmarks.h: a tab's bookmarks: loaded when traces open, saved
 * in the background after each change (one save at a time, progress and
 * Cancel in the status bar), read-only traces (say so, ask where to save),
 * the add / edit dialogs, delete with Undo, jumping.  Private to the tab:
 * the public entry points are ttv_tab_*_bookmark* in ttv-tab.h. */
#pragma once

#include "ttv-bookmark-saver.h"
#include "ttv-notifications.h"
#include "ttv-status-bar.h"
#include "ttv-tab-state-private.h"

G_BEGIN_DECLS

typedef struct _TtvTabBookmarks TtvTabBookmarks;

/* Where a read-only trace's bookmarks go, as the user chose for the tab. */
typedef enum {
  TTV_SAVE_CHOICE_ASK,          /* not asked yet */
  TTV_SAVE_CHOICE_BESIDE,
  TTV_SAVE_CHOICE_USER_DIR,
  TTV_SAVE_CHOICE_DONT_SAVE,
} TtvSaveChoice;

/* All borrowed: @tab (for dialogs' parent window) owns the others. */
TtvTabBookmarks *ttv_tab_bookmarks_new (GtkWidget *tab, TtvTabState *state,
                                        TtvNotifications *notifications, TtvStatusBar *status);
/* Waits for nothing: a save under way goes on alone (the application stays
 * up until it is done). */
void        ttv_tab_bookmarks_free (TtvTabBookmarks *self);

/* Reads the bookmarks of the traces from index @from on into the state,
 * in the background (the files may be slow or hostile: they never hold up
 * the window); says which traces are read-only.  A trace's changes made
 * while its file is read are saved once it is read.  Called when the tab
 * opens (0) and when a trace is added (its index). */
void        ttv_tab_bookmarks_load (TtvTabBookmarks *self, guint from);
/* Whether a load is under way. */
gboolean    ttv_tab_bookmarks_is_loading (TtvTabBookmarks *self);
void        ttv_tab_bookmarks_add_interactive (TtvTabBookmarks *self);
/* Adds @bookmark (transfer full; its trace_index is set from its start
 * unless it has cycles) and saves. */
void        ttv_tab_bookmarks_add (TtvTabBookmarks *self, TtvViewerBookmark *bookmark);
void        ttv_tab_bookmarks_edit (TtvTabBookmarks *self, guint index);
/* Deletes at once and offers Undo in a notification. */
void        ttv_tab_bookmarks_delete (TtvTabBookmarks *self, guint index);
/* Puts back the bookmark deleted last (what the Undo button does); FALSE
 * when there is none. */
gboolean    ttv_tab_bookmarks_undo_delete (TtvTabBookmarks *self);
void        ttv_tab_bookmarks_jump (TtvTabBookmarks *self, guint index);
/* To the first bookmark after the current time (@forward) or the last one
 * before it (F2, Shift+F2); FALSE, saying so over the views, when none. */
gboolean    ttv_tab_bookmarks_jump_next (TtvTabBookmarks *self, gboolean forward);

/* Where each trace's bookmarks are saved, a line per trace ("Saved in
 * /t/.ttv-bookmarks.xml"), for the bookmarks panel: a CTF trace's file is
 * hidden, and users look for it to share it. */
char       *ttv_tab_bookmarks_dup_location (TtvTabBookmarks *self);

/* Keeps the clock offset of trace @trace_index (@set FALSE: none) with its
 * bookmarks, and saves them when it changed (as ttv-report --save-offsets does). */
void        ttv_tab_bookmarks_set_clock_offset (TtvTabBookmarks *self, guint trace_index, gboolean set,
                                                gint64 offset_ns);

/* For tests and the window: the save machinery and the choice made for a
 * read-only trace. */
TtvBookmarkSaver *ttv_tab_bookmarks_get_saver (TtvTabBookmarks *self);
TtvSaveChoice ttv_tab_bookmarks_get_choice (TtvTabBookmarks *self, guint trace_index);

G_END_DECLS
