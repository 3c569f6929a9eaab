/* ttv-viewer-registry.c: the registered viewer kinds, which modules add
 * (ttv_viewer_register of sdk/ttv-viewer-widget.h) when the module loader
 * (ttv-module-loader.c) initialises them; the window builds its View menu
 * and each tab's viewers from it. */
#include "ttv-config.h"

#include "ttv-viewer-registry.h"

#include <string.h>

static GPtrArray *viewers;   /* of TtvViewerInfo *, owned, never freed */

void
ttv_viewer_register (const TtvViewerInfo *info)
{
  TtvViewerInfo *copy;
  guint i;

  g_return_if_fail (info != NULL);
  g_return_if_fail (info->name != NULL && info->new_viewer != NULL);

  if (!viewers)
    viewers = g_ptr_array_new ();
  if (ttv_viewer_registry_find (info->name))
    {
      g_warning ("viewer '%s' registered twice; keeping the first", info->name);
      return;
    }
  copy = g_memdup2 (info, sizeof *info);
  /* The module's titles in the user's language, from its own catalogue. */
  if (info->translation_domain)
    {
      copy->title = info->title ? g_dgettext (info->translation_domain, info->title) : NULL;
      copy->menu_label = info->menu_label ? g_dgettext (info->translation_domain, info->menu_label) : NULL;
    }
  /* By name, whatever the order modules load and register in: the View
   * menu keeps one order (a module may register several viewers). */
  for (i = 0; i < viewers->len; i++)
    if (strcmp (((TtvViewerInfo *) viewers->pdata[i])->name, copy->name) > 0)
      break;
  g_ptr_array_insert (viewers, (gint) i, copy);
}

guint
ttv_viewer_registry_get_n_viewers (void)
{
  return viewers ? viewers->len : 0;
}

const TtvViewerInfo *
ttv_viewer_registry_get_viewer (guint index)
{
  g_return_val_if_fail (index < ttv_viewer_registry_get_n_viewers (), NULL);
  return viewers->pdata[index];
}

const TtvViewerInfo *
ttv_viewer_registry_find (const char *name)
{
  for (guint i = 0; i < ttv_viewer_registry_get_n_viewers (); i++)
    if (strcmp (((TtvViewerInfo *) viewers->pdata[i])->name, name) == 0)
      return viewers->pdata[i];
  return NULL;
}

