/* ttv-bookmark-dialog.h: the dialog that adds or edits one bookmark
 * (name, text, optional CPU, start and end time); used by the tab. */
#pragma once

#include "ttv-tab-state-private.h"

#include "ttv-viewer.h"

G_BEGIN_DECLS

#define TTV_TYPE_BOOKMARK_DIALOG (ttv_bookmark_dialog_get_type ())
G_DECLARE_FINAL_TYPE (TtvBookmarkDialog, ttv_bookmark_dialog, TTV, BOOKMARK_DIALOG, GtkDialog)

/* @initial is copied into the entries; times are shown and read in the
 * user's time format, relative to @state's traceset. */
GtkWidget  *ttv_bookmark_dialog_new (GtkWindow *parent, const char *title, TtvTabState *state,
                                     const TtvViewerBookmark *initial);
/* The bookmark as typed, or NULL with @error naming the bad entry. */
TtvViewerBookmark *ttv_bookmark_dialog_dup_bookmark (TtvBookmarkDialog *self, GError **error);
void        ttv_bookmark_dialog_show_error (TtvBookmarkDialog *self, const char *message);

G_END_DECLS
