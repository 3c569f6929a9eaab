/* ttv-settings.c: the process's GSettings org.ttv.Viewer, created on first
 * use when the schema is installed. */
#include "ttv-config.h"

#include "ttv-settings.h"
#include "ttv-viewer.h"

#define SCHEMA_ID "org.ttv.Viewer"

GSettings *
ttv_settings_get (void)
{
  static GSettings *settings;
  static gsize once;

  if (g_once_init_enter (&once))
    {
      GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
      g_autoptr (GSettingsSchema) schema = source ? g_settings_schema_source_lookup (source, SCHEMA_ID, TRUE)
                                                  : NULL;

      if (schema)
        settings = g_settings_new (SCHEMA_ID);
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
