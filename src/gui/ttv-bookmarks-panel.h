/* ttv-bookmarks-panel.h: the list of a tab's bookmarks (time, name, text)
 * with add / edit / delete buttons; double-click jumps. */
#pragma once

#include "ttv-tab.h"

G_BEGIN_DECLS

#define TTV_TYPE_BOOKMARKS_PANEL (ttv_bookmarks_panel_get_type ())
G_DECLARE_FINAL_TYPE (TtvBookmarksPanel, ttv_bookmarks_panel, TTV, BOOKMARKS_PANEL, GtkBox)

GtkWidget  *ttv_bookmarks_panel_new (TtvTab *tab);

G_END_DECLS
