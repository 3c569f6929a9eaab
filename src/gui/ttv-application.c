/* ttv-application.c: the GtkApplication org.ttv.Viewer: one instance,
 * files from the command line and the desktop open as tabs, application
 * actions and accelerators, recent traces in GSettings, the module loader. */
#include "ttv-config.h"

#include "ttv-application.h"

#include "ttv-archive.h"
#include "ttv-live-url.h"
#include "ttv-settings.h"
#include "ttv-viewer-registry.h"
#include "ttv-window.h"

#include <glib/gi18n.h>

#define RECENT_MAX 10

struct _TtvApplication {
  GtkApplication parent_instance;

  GSettings *settings;   /* owned, NULL without the schema */
};

G_DEFINE_FINAL_TYPE (TtvApplication, ttv_application, GTK_TYPE_APPLICATION)

static TtvWindow *
get_window (TtvApplication *self)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  if (!window)
    window = GTK_WINDOW (ttv_window_new (GTK_APPLICATION (self)));
  gtk_window_present (window);
  return TTV_WINDOW (window);
}

char *
ttv_recent_entry_from_path (const char *path)
{
  if (g_utf8_validate (path, -1, NULL))
    return g_strdup (path);
  return g_filename_to_uri (path, NULL, NULL);
}

char *
ttv_recent_entry_to_path (const char *entry)
{
  char *path = g_str_has_prefix (entry, "file://") ? g_filename_from_uri (entry, NULL, NULL) : NULL;
  return path ? path : g_strdup (entry);
}

char *
ttv_recent_entry_display_name (const char *entry)
{
  g_autofree char *path = ttv_recent_entry_to_path (entry);
  return g_filename_display_name (path);
}

void
ttv_application_fill_recent_menu (GMenu *menu, const char *const *recent)
{
  g_menu_remove_all (menu);
  for (guint i = 0; recent && recent[i]; i++)
    {
      g_autofree char *label = ttv_recent_entry_display_name (recent[i]);
      g_autoptr (GMenuItem) item = g_menu_item_new (label, NULL);
      g_menu_item_set_action_and_target_value (item, "app.open-recent", g_variant_new_string (recent[i]));
      g_menu_append_item (menu, item);
    }
  /* An item without an action shows greyed out: the submenu is never empty. */
  if (!recent || !recent[0])
    g_menu_append (menu, _("No Recent Traces"), NULL);
}

static void
rebuild_recent (TtvApplication *self)
{
  GMenu *menu = gtk_application_get_menu_by_id (GTK_APPLICATION (self), "recent-menu");
  g_auto (GStrv) recent = NULL;

  if (!menu)
    return;
  if (self->settings)
    recent = g_settings_get_strv (self->settings, "recent-traces");
  ttv_application_fill_recent_menu (menu, (const char *const *) recent);
}

void
ttv_application_add_recent (TtvApplication *self, const char *path)
{
  g_auto (GStrv) old = NULL;
  g_autoptr (GStrvBuilder) builder = NULL;
  g_auto (GStrv) recent = NULL;
  g_autofree char *absolute = NULL;
  guint n = 1;

  if (!self->settings)
    return;
  /* A live session's URL is no file name. */
  g_autofree char *canonical = ttv_live_url_is_live (path) ? g_strdup (path) : g_canonicalize_filename (path, NULL);
  absolute = ttv_recent_entry_from_path (canonical);
  if (!absolute)
    return;
  old = g_settings_get_strv (self->settings, "recent-traces");
  builder = g_strv_builder_new ();
  g_strv_builder_add (builder, absolute);
  for (guint i = 0; old[i] && n < RECENT_MAX; i++)
    if (g_strcmp0 (old[i], absolute) != 0)
      {
        g_strv_builder_add (builder, old[i]);
        n++;
      }
  recent = g_strv_builder_end (builder);
  g_settings_set_strv (self->settings, "recent-traces", (const char *const *) recent);
}

static void
act_open_folder (GSimpleAction *a, GVariant *p, gpointer self)
{
  ttv_window_choose (get_window (self), TRUE);
}

static void
act_open_archive (GSimpleAction *a, GVariant *p, gpointer self)
{
  ttv_window_choose (get_window (self), FALSE);
}

static void
act_open_recent (GSimpleAction *a, GVariant *p, gpointer self)
{
  g_autofree char *path = ttv_recent_entry_to_path (g_variant_get_string (p, NULL));
  const char *paths[] = { path, NULL };

  ttv_window_open (get_window (self), paths, FALSE);
}

static void
act_quit (GSimpleAction *a, GVariant *p, gpointer self)
{
  GList *windows = gtk_application_get_windows (GTK_APPLICATION (self));

  /* Destroying the windows closes the tabs (stops their background work). */
  while (windows)
    {
      gtk_widget_destroy (windows->data);
      windows = gtk_application_get_windows (GTK_APPLICATION (self));
    }
}

static void
act_about (GSimpleAction *a, GVariant *p, gpointer self)
{
  static const char *const authors[] = { "The ttv authors", NULL };

  gtk_show_about_dialog (gtk_application_get_active_window (GTK_APPLICATION (self)),
                         "program-name", "ttv",
                         "version", TTV_VERSION,
                         "comments", _("A viewer and analysis toolkit for operating-system traces "
                                       "(LTT, LTTng, CTF)."),
                         "logo-icon-name", "org.ttv.Viewer",
                         "license-type", GTK_LICENSE_GPL_2_0,
                         "authors", authors,
                         NULL);
}

static const GActionEntry app_entries[] = {
  { "open-folder", act_open_folder, NULL, NULL, NULL, { 0 } },
  { "open-archive", act_open_archive, NULL, NULL, NULL, { 0 } },
  { "open-recent", act_open_recent, "s", NULL, NULL, { 0 } },
  { "quit", act_quit, NULL, NULL, NULL, { 0 } },
  { "about", act_about, NULL, NULL, NULL, { 0 } },
};

/* What an archive extraction killed midway left in the cache (gigabytes
 * perhaps) goes at start, away from the main loop. */
static gpointer
clean_dead_extractions (gpointer data)
{
  ttv_archive_clean_dead ();
  return NULL;
}

static void
ttv_application_startup (GApplication *app)
{
  TtvApplication *self = TTV_APPLICATION (app);
  GMenu *viewers;
  static const struct { const char *action; const char *accels[4]; } accels[] = {
    { "app.open-folder", { "<Primary>o", NULL } },
    { "app.open-archive", { "<Primary><Shift>o", NULL } },
    { "app.quit", { "<Primary>q", NULL } },
    { "win.add-trace", { "<Primary><Shift>a", NULL } },
    { "win.add-trace-archive", { "<Primary><Alt>a", NULL } },
    { "win.close-tab", { "<Primary>w", NULL } },
    { "win.zoom-in", { "<Primary>plus", "<Primary>equal", "<Primary>KP_Add", NULL } },
    { "win.zoom-out", { "<Primary>minus", "<Primary>KP_Subtract", NULL } },
    { "win.zoom-fit", { "<Primary>0", "<Primary>KP_0", NULL } },
    { "win.zoom-selection", { "<Primary>9", "<Primary>KP_9", NULL } },
    { "win.add-bookmark", { "<Primary>d", NULL } },
    { "win.next-bookmark", { "F2", NULL } },
    { "win.previous-bookmark", { "<Shift>F2", NULL } },
    { "win.show-bookmarks", { "<Primary>b", NULL } },
    { "win.find", { "<Primary>f", NULL } },
    { "win.split-view-right", { "<Primary><Shift>e", NULL } },
    { "win.split-view-down", { "<Primary><Shift>d", NULL } },
    { "win.move-view", { "<Primary><Shift>m", NULL } },
    { "win.close-view", { "<Primary><Shift>w", NULL } },
    { "win.filter", { "<Primary>l", NULL } },
    { "win.follow", { "<Primary><Shift>f", NULL } },
    { "win.open-live", { "<Primary><Shift>l", NULL } },
    { "win.info", { "<Primary>i", NULL } },
    { "win.preferences", { "<Primary>comma", NULL } },
    /* GtkApplication adds it from gtk/help-overlay.ui (ttv-help-overlay.ui). */
    { "win.show-help-overlay", { "F1", "<Primary>question", NULL } },
  };

  G_APPLICATION_CLASS (ttv_application_parent_class)->startup (app);
  /* ▲ ascending, ▼ descending in the tree views' headers too, as in the
   * time lines' (GTK 3 draws a down arrow for ascending otherwise). */
  g_object_set (gtk_settings_get_default (), "gtk-alternative-sort-arrows", TRUE, NULL);
  g_thread_unref (g_thread_new ("ttv-clean-cache", clean_dead_extractions, NULL));

  self->settings = ttv_settings_get ();
  if (self->settings)
    g_object_ref (self->settings);

  g_action_map_add_action_entries (G_ACTION_MAP (app), app_entries, G_N_ELEMENTS (app_entries), app);
  for (guint i = 0; i < G_N_ELEMENTS (accels); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (app), accels[i].action, accels[i].accels);

  ttv_module_loader_load_all ();
  viewers = gtk_application_get_menu_by_id (GTK_APPLICATION (app), "viewers-section");
  for (guint i = 0; viewers && i < ttv_viewer_registry_get_n_viewers (); i++)
    {
      const TtvViewerInfo *info = ttv_viewer_registry_get_viewer (i);
      g_autoptr (GMenuItem) item = g_menu_item_new (info->menu_label ? info->menu_label : info->title, NULL);
      g_menu_item_set_action_and_target_value (item, "win.show-viewer", g_variant_new_string (info->name));
      if (info->icon_name)
        {
          g_autoptr (GIcon) icon = g_themed_icon_new (info->icon_name);
          g_menu_item_set_icon (item, icon);
        }
      g_menu_append_item (viewers, item);
    }
  if (self->settings)
    g_signal_connect_swapped (self->settings, "changed::recent-traces", G_CALLBACK (rebuild_recent), self);
  rebuild_recent (self);
}

static void
ttv_application_activate (GApplication *app)
{
  get_window (TTV_APPLICATION (app));
}

static void
ttv_application_open (GApplication *app, GFile **files, gint n_files, const gchar *hint)
{
  TtvWindow *window = get_window (TTV_APPLICATION (app));
  g_autoptr (GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);

  for (gint i = 0; i < n_files; i++)
    {
      char *path = g_file_get_path (files[i]);
      /* Non-local URIs cannot be traces: say so through the same dialog. */
      g_ptr_array_add (paths, path ? path : g_file_get_uri (files[i]));
    }
  g_ptr_array_add (paths, NULL);
  ttv_window_open (window, (const char *const *) paths->pdata, FALSE);
}

static void
ttv_application_finalize (GObject *object)
{
  g_clear_object (&TTV_APPLICATION (object)->settings);
  G_OBJECT_CLASS (ttv_application_parent_class)->finalize (object);
}

static void
ttv_application_class_init (TtvApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = ttv_application_finalize;
  app_class->startup = ttv_application_startup;
  app_class->activate = ttv_application_activate;
  app_class->open = ttv_application_open;
}

static void
ttv_application_init (TtvApplication *self)
{
}

TtvApplication *
ttv_application_new (void)
{
  return g_object_new (TTV_TYPE_APPLICATION, "application-id", "org.ttv.Viewer",
                       "flags", G_APPLICATION_HANDLES_OPEN,
                       "resource-base-path", "/org/ttv/Viewer", NULL);
}
