/* ttv-view-export.c: the image export of the analysis views (see
 * ttv-view-export.h); what to draw is kept on the viewer itself. */
#include "ttv-view-export.h"

#define EXPORT_KEY "ttv-view-export"

typedef struct {
  char *dialog_title;
  char *file_name;
  TtvViewerDrawFunc draw;
} Export;

static void
export_free (Export *export)
{
  g_free (export->dialog_title);
  g_free (export->file_name);
  g_free (export);
}

static gboolean
save_shown (GtkWidget *viewer, const char *path, GError **error)
{
  const Export *export = g_object_get_data (G_OBJECT (viewer), EXPORT_KEY);
  return ttv_viewer_write_image (path, MAX (gtk_widget_get_allocated_width (viewer), 200),
                                  MAX (gtk_widget_get_allocated_height (viewer), 200), export->draw, viewer, error);
}

static void
act_export (GSimpleAction *action, GVariant *param, gpointer viewer)
{
  g_autoptr (GError) error = NULL;
  if (!save_shown (viewer, g_variant_get_string (param, NULL), &error))
    g_warning ("%s", error->message);
}

static void
act_export_dialog (GSimpleAction *action, GVariant *param, gpointer viewer)
{
  const Export *export = g_object_get_data (G_OBJECT (viewer), EXPORT_KEY);
  ttv_viewer_export_dialog (viewer, export->dialog_title, export->file_name, save_shown);
}

void
ttv_view_export_add_actions (GActionMap *actions, GtkWidget *viewer, const char *dialog_title,
                             const char *file_name, TtvViewerDrawFunc draw)
{
  static const GActionEntry entries[] = {
    { "export", act_export, "s", NULL, NULL, { 0 } },
    { "export-dialog", act_export_dialog, NULL, NULL, NULL, { 0 } },
  };
  Export *export = g_new0 (Export, 1);
  export->dialog_title = g_strdup (dialog_title);
  export->file_name = g_strdup (file_name);
  export->draw = draw;
  g_object_set_data_full (G_OBJECT (viewer), EXPORT_KEY, export, (GDestroyNotify) export_free);
  g_action_map_add_action_entries (actions, entries, G_N_ELEMENTS (entries), viewer);
}
