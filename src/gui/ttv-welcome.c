/* ttv-welcome.c: the page the window shows without a tab: the open
 * buttons and the recent traces (GSettings recent-traces), one click each.
 * Used by the window. */
#include "ttv-config.h"

#include "ttv-welcome.h"

#include "ttv-application.h"
#include "ttv-settings.h"

#include <glib/gi18n.h>

struct _TtvWelcome {
  GtkBox parent_instance;

  GtkListBox *recent;
  GtkWidget *recent_box;       /* the list's scrolled window */
  GtkWidget *no_recent;
};

G_DEFINE_FINAL_TYPE (TtvWelcome, ttv_welcome, GTK_TYPE_BOX)

static GtkWidget *
recent_row (const char *entry)
{
  g_autofree char *path = ttv_recent_entry_to_path (entry);
  g_autofree char *shown = g_filename_display_name (path);
  g_autofree char *name = g_filename_display_basename (path);
  g_autofree char *markup = g_markup_printf_escaped ("<b>%s</b>", name);
  gboolean exists = g_file_test (path, G_FILE_TEST_EXISTS);
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *title = gtk_label_new (NULL), *where = gtk_label_new (shown);

  gtk_label_set_markup (GTK_LABEL (title), markup);
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_label_set_xalign (GTK_LABEL (where), 0);
  gtk_label_set_ellipsize (GTK_LABEL (where), PANGO_ELLIPSIZE_MIDDLE);
  gtk_style_context_add_class (gtk_widget_get_style_context (where), "dim-label");
  g_object_set (box, "margin", 6, NULL);
  gtk_box_pack_start (GTK_BOX (box), title, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (box), where, FALSE, FALSE, 0);
  gtk_container_add (GTK_CONTAINER (row), box);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (row), "app.open-recent");
  gtk_actionable_set_action_target_value (GTK_ACTIONABLE (row), g_variant_new_string (entry));
  /* Moved or deleted since: shown, but not offered. */
  gtk_widget_set_sensitive (row, exists);
  gtk_widget_set_tooltip_text (row, exists ? shown : _("This trace is no longer there"));
  gtk_widget_show_all (row);
  return row;
}

static void
refill (TtvWelcome *self)
{
  GSettings *settings = ttv_settings_get ();
  g_auto (GStrv) recent = settings ? g_settings_get_strv (settings, "recent-traces") : NULL;
  g_autoptr (GList) rows = gtk_container_get_children (GTK_CONTAINER (self->recent));

  for (GList *l = rows; l; l = l->next)
    gtk_widget_destroy (l->data);
  for (guint i = 0; recent && recent[i]; i++)
    gtk_list_box_insert (self->recent, recent_row (recent[i]), -1);
  gtk_widget_set_visible (self->recent_box, recent && recent[0]);
  gtk_widget_set_visible (self->no_recent, !recent || !recent[0]);
}

guint
ttv_welcome_get_n_recent (TtvWelcome *self)
{
  g_autoptr (GList) rows = NULL;

  g_return_val_if_fail (TTV_IS_WELCOME (self), 0);
  rows = gtk_container_get_children (GTK_CONTAINER (self->recent));
  return g_list_length (rows);
}

static void
ttv_welcome_class_init (TtvWelcomeClass *klass)
{
}

static GtkWidget *
open_button (const char *label, const char *icon, const char *action)
{
  GtkWidget *button = gtk_button_new_with_mnemonic (label);

  gtk_button_set_image (GTK_BUTTON (button), gtk_image_new_from_icon_name (icon, GTK_ICON_SIZE_BUTTON));
  gtk_button_set_always_show_image (GTK_BUTTON (button), TRUE);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), action);
  return button;
}

static void
ttv_welcome_init (TtvWelcome *self)
{
  GtkWidget *icon = gtk_image_new_from_icon_name ("org.ttv.Viewer", GTK_ICON_SIZE_DIALOG);
  GtkWidget *title = gtk_label_new (NULL);
  GtkWidget *buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *heading = gtk_label_new (NULL);
  GtkWidget *scrolled = gtk_scrolled_window_new (NULL, NULL);
  g_autofree char *markup = g_markup_printf_escaped ("<span size='x-large' weight='bold'>%s</span>",
                                                     _("ttv Trace Viewer"));
  g_autofree char *recent_markup = g_markup_printf_escaped ("<b>%s</b>", _("Recent traces"));

  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_VERTICAL);
  gtk_box_set_spacing (GTK_BOX (self), 12);
  g_object_set (self, "halign", GTK_ALIGN_CENTER, "valign", GTK_ALIGN_CENTER,
                "margin", 24, NULL);
  gtk_image_set_pixel_size (GTK_IMAGE (icon), 96);
  gtk_label_set_markup (GTK_LABEL (title), markup);
  gtk_box_pack_start (GTK_BOX (self), icon, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (self), title, FALSE, FALSE, 0);

  gtk_widget_set_halign (buttons, GTK_ALIGN_CENTER);
  gtk_box_pack_start (GTK_BOX (buttons),
                      open_button (_("Open Trace _Folder…"), "folder-open", "app.open-folder"),
                      FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (buttons),
                      open_button (_("Open Trace _Archive…"), "package-x-generic", "app.open-archive"),
                      FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (self), buttons, FALSE, FALSE, 6);

  gtk_label_set_markup (GTK_LABEL (heading), recent_markup);
  gtk_label_set_xalign (GTK_LABEL (heading), 0);
  gtk_box_pack_start (GTK_BOX (self), heading, FALSE, FALSE, 0);
  self->recent = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_widget_set_name (GTK_WIDGET (self->recent), "welcome-recent");
  gtk_list_box_set_selection_mode (self->recent, GTK_SELECTION_NONE);
  gtk_list_box_set_activate_on_single_click (self->recent, TRUE);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER,
                                  GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scrolled), TRUE);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scrolled), 360);
  gtk_scrolled_window_set_shadow_type (GTK_SCROLLED_WINDOW (scrolled), GTK_SHADOW_IN);
  gtk_widget_set_size_request (scrolled, 520, -1);
  gtk_container_add (GTK_CONTAINER (scrolled), GTK_WIDGET (self->recent));
  gtk_box_pack_start (GTK_BOX (self), scrolled, FALSE, FALSE, 0);
  self->recent_box = scrolled;
  self->no_recent = gtk_label_new (_("No recent traces. Open a trace folder (Ctrl+O) or a "
                                     ".tar.gz archive (Ctrl+Shift+O); ttv also opens the "
                                     "traces given on its command line."));
  gtk_label_set_line_wrap (GTK_LABEL (self->no_recent), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (self->no_recent), 60);
  gtk_style_context_add_class (gtk_widget_get_style_context (self->no_recent), "dim-label");
  gtk_box_pack_start (GTK_BOX (self), self->no_recent, FALSE, FALSE, 0);

  gtk_widget_show_all (GTK_WIDGET (self));
  gtk_widget_set_no_show_all (self->recent_box, TRUE);
  gtk_widget_set_no_show_all (self->no_recent, TRUE);
  if (ttv_settings_get ())
    g_signal_connect_object (ttv_settings_get (), "changed::recent-traces", G_CALLBACK (refill),
                             self, G_CONNECT_SWAPPED);
  refill (self);
}

GtkWidget *
ttv_welcome_new (void)
{
  return g_object_new (TTV_TYPE_WELCOME, NULL);
}
