/* ttv-view-list.c: the sortable lists of text under the analysis charts
 * (see ttv-view-list.h). */
#include "ttv-view-list.h"

GtkWidget *
ttv_view_list_new (GtkTreeModel *model, const TtvViewListColumn *columns, guint n_columns, gboolean resizable)
{
  GtkWidget *view = gtk_tree_view_new_with_model (model);
  for (guint c = 0; c < n_columns; c++)
    {
      GtkCellRenderer *cell = gtk_cell_renderer_text_new ();
      if (c > 0)
        g_object_set (cell, "xalign", 1.0, NULL);
      GtkTreeViewColumn *col = gtk_tree_view_column_new_with_attributes (columns[c].title, cell, "text",
                                                                          columns[c].column, NULL);
      gtk_tree_view_column_set_sort_column_id (col, columns[c].sort);
      if (resizable)
        gtk_tree_view_column_set_resizable (col, TRUE);
      gtk_tree_view_column_set_expand (col, c == 0);
      gtk_tree_view_append_column (GTK_TREE_VIEW (view), col);
    }
  return view;
}

GtkWidget *
ttv_view_list_scrolled (GtkWidget *child)
{
  GtkWidget *s = gtk_scrolled_window_new (NULL, NULL);
  gtk_container_add (GTK_CONTAINER (s), child);
  return s;
}
