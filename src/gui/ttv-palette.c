/* ttv-palette.c: the named colours of the time-line views: names, labels
 * and defaults for the viewer modules, and the Preferences section editing them. */
#include "ttv-config.h"

#include "ttv-palette-editor.h"

#include <glib/gi18n.h>
#include <string.h>

/* The defaults must equal the schema's (data/org.ttv.Viewer.gschema.xml):
 * tests/gui/test-timeline.c checks it. */
static const struct {
  const char *name;
  const char *label;
  const char *color;
} palette_info[TTV_PALETTE_N_COLORS] = {
  { "run-user", N_("Running, user"), "#33a02c" },
  { "run-syscall", N_("Running, system call"), "#1f78b4" },
  { "run-trap", N_("Running, trap"), "#ff7f00" },
  { "run-irq", N_("Running, IRQ"), "#e31a1c" },
  { "run-softirq", N_("Running, soft IRQ"), "#fb9a99" },
  { "run-unknown", N_("Running, mode unknown"), "#b2df8a" },
  { "wait-cpu", N_("Waiting for a CPU"), "#ffd92f" },
  { "wait-fork", N_("Forked, not yet run"), "#a6cee3" },
  { "blocked", N_("Blocked"), "#cab2d6" },
  { "zombie", N_("Zombie"), "#6a3d9a" },
  { "exited", N_("Exiting"), "#525252" },
  { "unknown", N_("Unknown"), "#d9d9d9" },
  { "cpu-idle", N_("CPU idle"), "#e3d7bf" },
  { "irq-active", N_("IRQ active"), "#a50f15" },
  { "blockdev-busy", N_("Disk busy"), "#8c510a" },
  { "mark-fork", N_("Fork"), "#238b45" },
  { "mark-exec", N_("Exec"), "#3f007d" },
  { "mark-exit", N_("Exit"), "#000000" },
  { "wakeup", N_("Wakeup"), "#0097a7" },
  { "lost-events", N_("Lost events"), "#e7298a" },
  { "mixed", N_("Several states in a pixel"), "#404040" },
};

const char *
ttv_palette_get_name (TtvPaletteColor color)
{
  g_return_val_if_fail (color < TTV_PALETTE_N_COLORS, NULL);
  return palette_info[color].name;
}

const char *
ttv_palette_get_label (TtvPaletteColor color)
{
  g_return_val_if_fail (color < TTV_PALETTE_N_COLORS, NULL);
  return g_dgettext (GETTEXT_PACKAGE, palette_info[color].label);
}

const char *
ttv_palette_get_default (TtvPaletteColor color)
{
  g_return_val_if_fail (color < TTV_PALETTE_N_COLORS, NULL);
  return palette_info[color].color;
}

void
ttv_palette_get_rgba (GSettings *settings, TtvPaletteColor color, GdkRGBA *rgba)
{
  g_autoptr (GVariant) dict = NULL;
  g_autofree char *value = NULL;

  g_return_if_fail (color < TTV_PALETTE_N_COLORS);
  if (settings)
    {
      dict = g_settings_get_value (settings, TTV_PALETTE_SETTINGS_KEY);
      g_variant_lookup (dict, palette_info[color].name, "s", &value);
    }
  if (!value || !gdk_rgba_parse (rgba, value))
    gdk_rgba_parse (rgba, palette_info[color].color);
}

void
ttv_palette_set_rgba (GSettings *settings, TtvPaletteColor color, const GdkRGBA *rgba)
{
  g_autoptr (GVariant) old = NULL;
  g_auto (GVariantBuilder) builder = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE ("a{ss}"));
  g_autofree char *text = NULL;
  GVariantIter iter;
  const char *key, *value;

  g_return_if_fail (G_IS_SETTINGS (settings));
  g_return_if_fail (color < TTV_PALETTE_N_COLORS);
  text = g_strdup_printf ("#%02x%02x%02x", (guint) (CLAMP (rgba->red, 0, 1) * 255 + 0.5),
                          (guint) (CLAMP (rgba->green, 0, 1) * 255 + 0.5),
                          (guint) (CLAMP (rgba->blue, 0, 1) * 255 + 0.5));
  old = g_settings_get_value (settings, TTV_PALETTE_SETTINGS_KEY);
  g_variant_iter_init (&iter, old);
  while (g_variant_iter_next (&iter, "{&s&s}", &key, &value))
    if (strcmp (key, palette_info[color].name) != 0)
      g_variant_builder_add (&builder, "{ss}", key, value);
  g_variant_builder_add (&builder, "{ss}", palette_info[color].name, text);
  g_settings_set_value (settings, TTV_PALETTE_SETTINGS_KEY, g_variant_builder_end (&builder));
}

/* --- The Preferences section ----------------------------------------------- */

typedef struct {
  GSettings *settings;         /* owned */
  GtkWidget *buttons[TTV_PALETTE_N_COLORS];   /* weak: children */
  gboolean updating;
} Editor;

static void
editor_free (Editor *e)
{
  g_signal_handlers_disconnect_by_data (e->settings, e);
  g_object_unref (e->settings);
  g_free (e);
}

static void
editor_load (Editor *e)
{
  e->updating = TRUE;
  for (guint i = 0; i < TTV_PALETTE_N_COLORS; i++)
    {
      GdkRGBA c;

      ttv_palette_get_rgba (e->settings, i, &c);
      gtk_color_chooser_set_rgba (GTK_COLOR_CHOOSER (e->buttons[i]), &c);
    }
  e->updating = FALSE;
}

static void
editor_color_set (GtkColorButton *button, Editor *e)
{
  guint i = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "ttv-palette-index"));
  GdkRGBA c;

  if (e->updating)
    return;
  gtk_color_chooser_get_rgba (GTK_COLOR_CHOOSER (button), &c);
  ttv_palette_set_rgba (e->settings, i, &c);
}

static void
editor_reset (GtkButton *button, Editor *e)
{
  g_settings_reset (e->settings, TTV_PALETTE_SETTINGS_KEY);
}

GtkWidget *
ttv_palette_editor_new (GSettings *settings)
{
  Editor *e;
  GtkWidget *frame, *grid, *reset;
  /* Two columns of label + button pairs: the dialog stays short. */
  const guint per_column = (TTV_PALETTE_N_COLORS + 1) / 2;

  g_return_val_if_fail (G_IS_SETTINGS (settings), NULL);
  e = g_new0 (Editor, 1);
  e->settings = g_object_ref (settings);
  frame = gtk_frame_new (_("Time line colours"));
  gtk_widget_set_name (frame, "ttv-palette-editor");
  grid = gtk_grid_new ();
  g_object_set (grid, "margin", 8, "row-spacing", 4, "column-spacing", 8, NULL);
  for (guint i = 0; i < TTV_PALETTE_N_COLORS; i++)
    {
      guint col = i / per_column * 2, row = i % per_column;
      GtkWidget *label = g_object_new (GTK_TYPE_LABEL, "label", ttv_palette_get_label (i),
                                       "xalign", 1.0, "hexpand", TRUE, NULL);

      e->buttons[i] = gtk_color_button_new ();
      gtk_widget_set_name (e->buttons[i], palette_info[i].name);
      gtk_color_chooser_set_use_alpha (GTK_COLOR_CHOOSER (e->buttons[i]), FALSE);
      gtk_color_button_set_title (GTK_COLOR_BUTTON (e->buttons[i]), ttv_palette_get_label (i));
      gtk_widget_set_tooltip_text (e->buttons[i], palette_info[i].name);
      g_object_set_data (G_OBJECT (e->buttons[i]), "ttv-palette-index", GUINT_TO_POINTER (i));
      g_signal_connect (e->buttons[i], "color-set", G_CALLBACK (editor_color_set), e);
      gtk_grid_attach (GTK_GRID (grid), label, col, row, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), e->buttons[i], col + 1, row, 1, 1);
    }
  reset = gtk_button_new_with_mnemonic (_("_Reset to defaults"));
  gtk_widget_set_halign (reset, GTK_ALIGN_END);
  gtk_widget_set_tooltip_text (reset, _("Give every state of the time lines its default colour"));
  g_signal_connect (reset, "clicked", G_CALLBACK (editor_reset), e);
  gtk_grid_attach (GTK_GRID (grid), reset, 0, per_column, 4, 1);
  gtk_container_add (GTK_CONTAINER (frame), grid);
  editor_load (e);
  /* Reset, or another window's dialog: the buttons follow. */
  g_signal_connect_swapped (settings, "changed::" TTV_PALETTE_SETTINGS_KEY, G_CALLBACK (editor_load), e);
  /* "destroy" runs before the buttons go: no change reaches them after. */
  g_signal_connect_swapped (frame, "destroy", G_CALLBACK (editor_free), e);
  return frame;
}
