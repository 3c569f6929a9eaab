/* ttv-settings.c: the process's GSettings org.ttv.Viewer, created on first
 * use when the schema is installed. */
#include "ttv-config.h"

#include "ttv-settings.h"
#include "ttv-viewer-model.h"

#include "ttv-locale.h"

#define SCHEMA_ID "org.ttv.Viewer"

/* The schema: the one compiled into the build tree's data/ when the viewer
 * runs from that tree (README's first command; an installed one may be
 * stale or absent), unless GSETTINGS_SCHEMA_DIR says where; else the
 * installed one. */
static GSettingsSchema *
lookup_schema (void)
{
  GSettingsSchemaSource *installed = g_settings_schema_source_get_default ();

  if (ttv_running_from_build_tree () && !g_getenv ("GSETTINGS_SCHEMA_DIR"))
    {
      g_autofree char *dir = g_build_filename (TTV_BUILD_ROOT, "data", NULL);
      g_autoptr (GSettingsSchemaSource) built
        = g_settings_schema_source_new_from_directory (dir, installed, FALSE, NULL);
      GSettingsSchema *schema = built ? g_settings_schema_source_lookup (built, SCHEMA_ID, FALSE) : NULL;
      if (schema)
        return schema;
    }
  return installed ? g_settings_schema_source_lookup (installed, SCHEMA_ID, TRUE) : NULL;
}

GSettings *
ttv_settings_get (void)
{
  static GSettings *settings;
  static gsize once;

  if (g_once_init_enter (&once))
    {
      g_autoptr (GSettingsSchema) schema = lookup_schema ();

      if (schema)
        settings = g_settings_new_full (schema, NULL, NULL);
      else
        g_message ("GSettings schema " SCHEMA_ID " not found: preferences and recent traces "
                   "are not kept");
      g_once_init_leave (&once, 1);
    }
  return settings;
}

GSettings *
ttv_settings_dup_with_key (const char *key)
{
  GSettings *settings = ttv_settings_get ();
  g_autoptr (GSettingsSchema) schema = NULL;

  if (!settings)
    return NULL;
  g_object_get (settings, "settings-schema", &schema, NULL);
  return g_settings_schema_has_key (schema, key) ? g_object_ref (settings) : NULL;
}

GSettings *
ttv_viewer_dup_settings (const char *key)
{
  g_return_val_if_fail (key != NULL, NULL);
  return ttv_settings_dup_with_key (key);
}

guint64
ttv_settings_get_history_cache_max (void)
{
  g_autoptr (GSettings) settings = g_getenv ("TTV_CACHE_MAX") ? NULL
                                  : ttv_settings_dup_with_key ("history-cache-size");

  if (!settings)
    return 0;
  return (guint64) g_settings_get_uint (settings, "history-cache-size") << 20;
}
