/* ttv-view-list.h: the sortable lists of text under the analysis charts
 * (the CPU usage's threads, the critical path's participants, the latency
 * statistics; compiled into each). */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

typedef struct {
  const char *title;           /* translated */
  gint column;                 /* the text shown */
  gint sort;                   /* what it sorts by (a number for figures) */
} TtvViewListColumn;

/* A tree view of @model with @columns: the first one left-aligned and
 * taking the room left, the others (figures) right-aligned; resizable by
 * the user when @resizable. */
GtkWidget  *ttv_view_list_new (GtkTreeModel *model, const TtvViewListColumn *columns, guint n_columns,
                               gboolean resizable);
/* @child in a new scrolled window. */
GtkWidget  *ttv_view_list_scrolled (GtkWidget *child);

G_END_DECLS
