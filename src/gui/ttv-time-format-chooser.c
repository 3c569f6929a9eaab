/* ttv-time-format-chooser.c: Preferences' list of the time formats (see
 * ttv-time-format-chooser.h); the window's Preferences dialog shows it. */
#include "ttv-config.h"

#include "ttv-time-format-chooser.h"

#include "ttv-time-display.h"

GtkWidget *
ttv_time_format_chooser_new (void)
{
  GSettings *settings = ttv_time_display_get_settings ();
  GtkComboBoxText *combo = GTK_COMBO_BOX_TEXT (gtk_combo_box_text_new ());

  for (guint i = 0; i < ttv_time_display_get_n_choices (); i++)
    {
      /* A list shows no mnemonics: drop the underscore. */
      g_autoptr (GString) label = g_string_new (ttv_time_display_get_choice_label (i));

      g_string_replace (label, "_", "", 1);
      gtk_combo_box_text_append (combo, ttv_time_display_get_choice_name (i), label->str);
    }
  if (settings)
    g_settings_bind (settings, TTV_TIME_FORMAT_SETTINGS_KEY, combo, "active-id", G_SETTINGS_BIND_DEFAULT);
  else
    gtk_widget_set_sensitive (GTK_WIDGET (combo), FALSE);
  return GTK_WIDGET (combo);
}
