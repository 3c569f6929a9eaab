/* ttv-view-export.h: the image export of the analysis views (CPU usage,
 * critical path, latency; compiled into each): the actions "export" (s: a
 * path) and "export-dialog" writing what the view shows as PNG or SVG. */
#pragma once

#include "ttv-viewer.h"

G_BEGIN_DECLS

/* Adds "export" and "export-dialog" to @actions for @viewer: both write
 * what @draw (called with @viewer) draws at @viewer's size, at least
 * 200x200; the dialog is titled @dialog_title and proposes @file_name. */
void        ttv_view_export_add_actions (GActionMap *actions, GtkWidget *viewer, const char *dialog_title,
                                         const char *file_name, TtvViewerDrawFunc draw);

G_END_DECLS
