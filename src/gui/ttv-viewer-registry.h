/* ttv-viewer-registry.h: the registered viewer kinds and the module loader
 * (GModule plugins from the build tree or the install dir). */
#pragma once

#include "ttv-viewer.h"

G_BEGIN_DECLS

/* Loads every module of every module directory, once.  Failures are logged
 * (a broken module must not keep the viewer from starting). */
void        ttv_viewer_registry_load_modules (void);
/* Loads one module file. */
gboolean    ttv_viewer_registry_load_module (const char *path, GError **error);
/* $TTV_MODULE_DIR (a search path), else the build tree's modules/ when the
 * program runs uninstalled, else libdir/ttv/modules. */
char      **ttv_viewer_registry_dup_module_dirs (void);
/* The registered viewers, sorted by name. */
guint       ttv_viewer_registry_get_n_viewers (void);
const TtvViewerInfo *ttv_viewer_registry_get_viewer (guint index);
const TtvViewerInfo *ttv_viewer_registry_find (const char *name);

G_END_DECLS
