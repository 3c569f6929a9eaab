/* ttv-view-bar.h: the bar over the CPU usage and critical path views
 * (compiled into each): a status line and an Export… button. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* A bar with a left-aligned status label named @status_name (returned in
 * *@status) and an Export… button activating @export_action. */
GtkWidget  *ttv_view_bar_new (const char *status_name, const char *export_action, GtkWidget **status);

G_END_DECLS
