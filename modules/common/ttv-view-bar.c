/* ttv-view-bar.c: the bar over the CPU usage and critical path views (see
 * ttv-view-bar.h). */
#include "ttv-view-bar.h"

#include <glib/gi18n-lib.h>

GtkWidget *
ttv_view_bar_new (const char *status_name, const char *export_action, GtkWidget **status)
{
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_container_set_border_width (GTK_CONTAINER (bar), 4);
  *status = gtk_label_new ("");
  gtk_widget_set_name (*status, status_name);
  gtk_label_set_ellipsize (GTK_LABEL (*status), PANGO_ELLIPSIZE_END);
  gtk_label_set_xalign (GTK_LABEL (*status), 0);
  gtk_box_pack_start (GTK_BOX (bar), *status, TRUE, TRUE, 0);
  GtkWidget *export = gtk_button_new_with_mnemonic (_("E_xport…"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (export), export_action);
  gtk_box_pack_end (GTK_BOX (bar), export, FALSE, FALSE, 0);
  return bar;
}
