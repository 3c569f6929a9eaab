/* ttv-module-loader.c: the module loader (see ttv-module-loader.h): GModule
 * plugins from the build tree or the install directory, refused when built
 * for another SDK version; a module's init registers its views
 * (src/gui/ttv-viewer-registry.c). */
#include "ttv-config.h"

#include "ttv-module-loader.h"

#include "ttv-viewer-model.h"

#include <gmodule.h>
#include <glib/gi18n.h>
#include <string.h>

static GHashTable *loaded;   /* module basenames already loaded */

gboolean
ttv_module_loader_load (const char *path, GError **error)
{
  GModule *module;
  guint (*api_version) (void);
  void (*init) (void);
  g_autofree char *base = g_path_get_basename (path);

  if (!loaded)
    loaded = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  if (g_hash_table_contains (loaded, base))
    return TRUE;   /* the same module found in two directories: the first wins */

  module = g_module_open (path, G_MODULE_BIND_LAZY | G_MODULE_BIND_LOCAL);
  if (!module)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("Cannot load module %s: %s"),
                   path, g_module_error ());
      return FALSE;
    }
  if (!g_module_symbol (module, "ttv_viewer_module_api_version", (gpointer *) &api_version)
      || !g_module_symbol (module, "ttv_viewer_module_init", (gpointer *) &init))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s is not a ttv viewer module (no TTV_VIEWER_MODULE entry point)"), path);
      g_module_close (module);
      return FALSE;
    }
  if (api_version () != TTV_VIEWER_API_VERSION)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   _("Module %s was built for viewer API %u, this viewer has API %u"),
                   path, api_version (), TTV_VIEWER_API_VERSION);
      g_module_close (module);
      return FALSE;
    }
  /* Modules stay loaded: their widgets and strings live as long as the program. */
  g_module_make_resident (module);
  g_hash_table_add (loaded, g_steal_pointer (&base));
  init ();
  return TRUE;
}

char **
ttv_module_loader_dup_dirs (void)
{
  const char *env = g_getenv ("TTV_MODULE_DIR");
  g_autofree char *exe = NULL;
  g_autofree char *exe_dir = NULL;

  if (env && *env)
    return g_strsplit (env, G_SEARCHPATH_SEPARATOR_S, -1);
  /* Uninstalled: the program runs from the build tree it was built in. */
  exe = g_file_read_link ("/proc/self/exe", NULL);
  if (exe)
    {
      exe_dir = g_path_get_dirname (exe);
      if (g_strcmp0 (exe_dir, TTV_GUI_BUILD_DIR) == 0)
        return g_strsplit (TTV_MODULE_BUILD_DIR, G_SEARCHPATH_SEPARATOR_S, -1);
    }
  return g_strsplit (TTV_MODULE_INSTALL_DIR, G_SEARCHPATH_SEPARATOR_S, -1);
}

static gint
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(char * const *) a, *(char * const *) b);
}

static void
load_dir (const char *dir, guint depth)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  if (!d)
    return;
  while ((name = g_dir_read_name (d)))
    g_ptr_array_add (names, g_strdup (name));
  /* Sorted, so that the View menu has a stable order. */
  g_ptr_array_sort (names, compare_names);
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = g_build_filename (dir, names->pdata[i], NULL);
      g_autoptr (GError) error = NULL;

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        {
          if (depth > 0)
            load_dir (path, depth - 1);
        }
      else if (g_str_has_suffix (path, "." G_MODULE_SUFFIX)
               && !ttv_module_loader_load (path, &error))
        g_warning ("%s", error->message);
    }
}

void
ttv_module_loader_load_all (void)
{
  static gboolean done;
  g_auto (GStrv) dirs = NULL;

  if (done)
    return;
  done = TRUE;
  dirs = ttv_module_loader_dup_dirs ();
  for (guint i = 0; dirs[i]; i++)
    if (*dirs[i])
      load_dir (dirs[i], 1);
}
