/* ttv-view-export.h: writing a view's drawing to a PNG or SVG file, and the
 * Export… dialog; shared by the time line and the histogram (compiled
 * into each module). */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Draws the view of @width x @height pixels into @cr. */
typedef void (*TtvViewDrawFunc) (gpointer data, cairo_t *cr, int width, int height);

#define TTV_VIEW_EXPORT_MIN_SIZE 1
#define TTV_VIEW_EXPORT_MAX_SIZE 32767

/* Writes @draw's picture to @path: SVG when it ends in .svg, else PNG.
 * FALSE with @error (naming @path) when it cannot be written or the size
 * is out of range. */
gboolean    ttv_view_export_to_file (const char *path, int width, int height, TtvViewDrawFunc draw,
                                     gpointer data, GError **error);

/* Writes the file the user chose (@save returns FALSE with an error, shown
 * in a message dialog). */
typedef gboolean (*TtvViewSaveFunc) (GtkWidget *view, const char *path, GError **error);

/* A save dialog (PNG or SVG) over @view's window, proposing @file_name;
 * @view is kept alive until it closes. */
void        ttv_view_export_dialog (GtkWidget *view, const char *title, const char *file_name,
                                    TtvViewSaveFunc save);

G_END_DECLS
