/* ttv-viewer-export.c: image files and the Export… dialog for viewer modules
 * (sdk/ttv-viewer-widget.h): a drawing written to PNG or SVG with cairo
 * alone, no display needed (the views' Export…, `ttv --render`). */
#include "ttv-config.h"

#include "ttv-viewer.h"

#include <cairo-svg.h>
#include <glib/gi18n.h>

#define MIN_SIZE 1
#define MAX_SIZE 32767

static gboolean
check_status (cairo_status_t status, const char *path, GError **error)
{
  if (status == CAIRO_STATUS_SUCCESS)
    return TRUE;
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("Cannot write %s: %s"), path,
               cairo_status_to_string (status));
  return FALSE;
}

gboolean
ttv_viewer_write_png_on (cairo_surface_t *surface, const char *path, TtvViewerDrawFunc draw, gpointer data,
                         GError **error)
{
  cairo_t *cr;

  if (cairo_surface_status (surface) != CAIRO_STATUS_SUCCESS)
    return check_status (cairo_surface_status (surface), path, error);
  cr = cairo_create (surface);
  /* What a new surface holds: a frame drawn on it is the same. */
  cairo_set_operator (cr, CAIRO_OPERATOR_CLEAR);
  cairo_paint (cr);
  cairo_set_operator (cr, CAIRO_OPERATOR_OVER);
  draw (data, cr, cairo_image_surface_get_width (surface), cairo_image_surface_get_height (surface));
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  return check_status (cairo_surface_write_to_png (surface, path), path, error);
}

gboolean
ttv_viewer_write_image (const char *path, int width, int height, TtvViewerDrawFunc draw,
                        gpointer data, GError **error)
{
  cairo_surface_t *surface;
  gboolean ok;

  g_return_val_if_fail (path != NULL && draw != NULL, FALSE);
  if (width < MIN_SIZE || height < MIN_SIZE || width > MAX_SIZE || height > MAX_SIZE)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("Cannot draw %s at %dx%d: the size must be from 1x1 to 32767x32767"),
                   path, width, height);
      return FALSE;
    }
  if (g_str_has_suffix (path, ".svg") || g_str_has_suffix (path, ".SVG"))
    {
      cairo_t *cr;

      surface = cairo_svg_surface_create (path, width, height);
      cr = cairo_create (surface);
      draw (data, cr, width, height);
      cairo_destroy (cr);
      cairo_surface_finish (surface);
      ok = check_status (cairo_surface_status (surface), path, error);
    }
  else
    {
      surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, width, height);
      ok = ttv_viewer_write_png_on (surface, path, draw, data, error);
    }
  cairo_surface_destroy (surface);
  return ok;
}

static void
chooser_response (GtkNativeDialog *dialog, gint response, GtkWidget *view)
{
  TtvViewerSaveFunc save = g_object_get_data (G_OBJECT (dialog), "ttv-viewer-save");

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autofree char *path = gtk_file_chooser_get_filename (GTK_FILE_CHOOSER (dialog));
      g_autoptr (GError) error = NULL;

      if (path && !save (view, path, &error))
        {
          GtkWidget *top = gtk_widget_get_toplevel (view);
          GtkWidget *msg = gtk_message_dialog_new (GTK_IS_WINDOW (top) ? GTK_WINDOW (top) : NULL,
                                                   GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                                   GTK_MESSAGE_ERROR, GTK_BUTTONS_CLOSE, "%s",
                                                   error->message);

          g_signal_connect (msg, "response", G_CALLBACK (gtk_widget_destroy), NULL);
          gtk_widget_show (msg);
        }
    }
  g_object_unref (dialog);
  g_object_unref (view);
}

void
ttv_viewer_export_dialog (GtkWidget *view, const char *title, const char *file_name,
                          TtvViewerSaveFunc save)
{
  GtkWidget *top;
  GtkFileChooserNative *chooser;

  g_return_if_fail (GTK_IS_WIDGET (view) && save != NULL);
  top = gtk_widget_get_toplevel (view);
  chooser = gtk_file_chooser_native_new (title, GTK_IS_WINDOW (top) ? GTK_WINDOW (top) : NULL,
                                         GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"), _("_Cancel"));
  gtk_file_chooser_set_do_overwrite_confirmation (GTK_FILE_CHOOSER (chooser), TRUE);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), file_name);
  g_object_set_data (G_OBJECT (chooser), "ttv-viewer-save", save);
  g_signal_connect (chooser, "response", G_CALLBACK (chooser_response), g_object_ref (view));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}
