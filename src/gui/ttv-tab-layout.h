/* ttv-tab-layout.h: the panes of a tab's views: GtkPaned splits holding
 * notebooks of viewers, kept per user (the view-layout setting); ttv-tab.c
 * holds one, the window's View actions move, split and close its views. */
#pragma once

#include "ttv-tab-state-private.h"

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define TTV_TYPE_TAB_LAYOUT (ttv_tab_layout_get_type ())
G_DECLARE_FINAL_TYPE (TtvTabLayout, ttv_tab_layout, TTV, TAB_LAYOUT, GtkBin)

/* The layout of the view-layout setting (or the default one without the
 * schema), with the viewers it names that are registered. */
GtkWidget  *ttv_tab_layout_new (TtvTabState *state);
/* Shows the viewer registered as @name (made in the active pane when it
 * is not shown yet) and makes it the active view. */
gboolean    ttv_tab_layout_show_viewer (TtvTabLayout *self, const char *name);
/* The active view (the current page of the pane that last had the focus
 * or was acted on), or NULL when no view is shown. */
GtkWidget  *ttv_tab_layout_get_active_viewer (TtvTabLayout *self);
/* Every viewer shown, pane after pane (transfer container). */
GList      *ttv_tab_layout_get_viewers (TtvTabLayout *self);
/* Moves the active view into a new pane beside (HORIZONTAL) or below
 * (VERTICAL) its own; FALSE when it is alone in its pane. */
gboolean    ttv_tab_layout_split (TtvTabLayout *self, GtkOrientation orientation);
/* Moves the active view to the next pane (wrapping); FALSE with one pane. */
gboolean    ttv_tab_layout_move_to_next_pane (TtvTabLayout *self);
/* Closes the active view (an emptied pane goes away). */
gboolean    ttv_tab_layout_close_viewer (TtvTabLayout *self);
/* Back to the default layout (and forgets the user's). */
void        ttv_tab_layout_reset (TtvTabLayout *self);
/* The layout as kept in the setting, e.g. "V(0.150,[histogram],V(0.450,
 * [*controlflow,resources],[events]))": a pane lists its views, * marking
 * its current one; H puts two side by side, V one above the other, the
 * number being the first one's share. */
char       *ttv_tab_layout_to_string (TtvTabLayout *self);
/* Replaces the layout by @text's; FALSE (nothing changed) when @text is
 * not a layout or names no registered viewer. */
gboolean    ttv_tab_layout_load (TtvTabLayout *self, const char *text);

G_END_DECLS
