/* ttv-marker-colors.c: the marker colours of GSettings org.ttv.Viewer,
 * read for drawing and edited with colour buttons in Preferences. */
#include "ttv-config.h"

#include "ttv-marker-colors.h"

#include "ttv-settings.h"

#include <glib/gi18n.h>

static const struct {
  const char *key;
  const char *label;
  const char *fallback;
} markers[TTV_VIEWER_N_MARKERS] = {
  [TTV_VIEWER_MARKER_CURRENT_TIME] = { "current-time-color", N_("Current time marker"), "#d91a1a" },
  [TTV_VIEWER_MARKER_SELECTION] = { "selection-color", N_("Selected interval"), "#3366e6" },
  [TTV_VIEWER_MARKER_BOOKMARK] = { "bookmark-color", N_("Bookmarks"), "#e69900" },
};

const char *
ttv_marker_get_key (TtvViewerMarker marker)
{
  g_return_val_if_fail (marker < TTV_VIEWER_N_MARKERS, NULL);
  return markers[marker].key;
}

const char *
ttv_marker_get_label (TtvViewerMarker marker)
{
  g_return_val_if_fail (marker < TTV_VIEWER_N_MARKERS, NULL);
  return _(markers[marker].label);
}

const char *
ttv_marker_get_default (TtvViewerMarker marker)
{
  g_return_val_if_fail (marker < TTV_VIEWER_N_MARKERS, NULL);
  return markers[marker].fallback;
}

void
ttv_viewer_get_marker_rgba (TtvViewerMarker marker, GdkRGBA *rgba)
{
  GSettings *settings = ttv_settings_get ();
  g_autofree char *text = NULL;

  g_return_if_fail (marker < TTV_VIEWER_N_MARKERS && rgba != NULL);
  if (settings)
    text = g_settings_get_string (settings, markers[marker].key);
  /* A colour typed by hand into dconf may not parse: the default then. */
  if (!text || !gdk_rgba_parse (rgba, text))
    gdk_rgba_parse (rgba, markers[marker].fallback);
}

static void
settings_changed (GSettings *settings, const char *key, GtkWidget *widget)
{
  for (guint i = 0; i < TTV_VIEWER_N_MARKERS; i++)
    if (g_strcmp0 (key, markers[i].key) == 0)
      gtk_widget_queue_draw (widget);
}

void
ttv_viewer_watch_marker_colors (GtkWidget *widget)
{
  GSettings *settings = ttv_settings_get ();

  g_return_if_fail (GTK_IS_WIDGET (widget));
  if (settings)
    g_signal_connect_object (settings, "changed", G_CALLBACK (settings_changed), widget, 0);
}

/* --- Preferences ---------------------------------------------------------------- */

static gboolean
string_to_rgba (GValue *value, GVariant *variant, gpointer data)
{
  GdkRGBA rgba;

  if (!gdk_rgba_parse (&rgba, g_variant_get_string (variant, NULL))
      && !gdk_rgba_parse (&rgba, data))
    return FALSE;
  g_value_set_boxed (value, &rgba);
  return TRUE;
}

static GVariant *
rgba_to_string (const GValue *value, const GVariantType *type, gpointer data)
{
  const GdkRGBA *rgba = g_value_get_boxed (value);
  g_autofree char *text = NULL;

  if (!rgba)
    return NULL;
  text = g_strdup_printf ("#%02x%02x%02x", (guint) (CLAMP (rgba->red, 0, 1) * 255 + 0.5),
                          (guint) (CLAMP (rgba->green, 0, 1) * 255 + 0.5),
                          (guint) (CLAMP (rgba->blue, 0, 1) * 255 + 0.5));
  return g_variant_new_string (text);
}

guint
ttv_marker_editor_attach (GSettings *settings, GtkGrid *grid, guint row)
{
  g_return_val_if_fail (G_IS_SETTINGS (settings) && GTK_IS_GRID (grid), row);

  for (guint i = 0; i < TTV_VIEWER_N_MARKERS; i++, row++)
    {
      GtkWidget *button = gtk_color_button_new ();
      GtkWidget *label = gtk_label_new_with_mnemonic (ttv_marker_get_label (i));

      gtk_widget_set_name (button, markers[i].key);
      gtk_color_chooser_set_use_alpha (GTK_COLOR_CHOOSER (button), FALSE);
      gtk_color_button_set_title (GTK_COLOR_BUTTON (button), ttv_marker_get_label (i));
      gtk_widget_set_halign (button, GTK_ALIGN_START);
      g_settings_bind_with_mapping (settings, markers[i].key, button, "rgba",
                                    G_SETTINGS_BIND_DEFAULT, string_to_rgba, rgba_to_string,
                                    (gpointer) markers[i].fallback, NULL);
      gtk_label_set_xalign (GTK_LABEL (label), 1.0);
      gtk_label_set_mnemonic_widget (GTK_LABEL (label), button);
      gtk_grid_attach (grid, label, 0, (gint) row, 1, 1);
      gtk_grid_attach (grid, button, 1, (gint) row, 1, 1);
    }
  return row;
}
