/* ttv-module-loader.h: the viewer's module loader: GModule plugins from
 * the build tree or the install directory, each refused unless built for
 * this SDK version (TTV_VIEWER_API_VERSION); the application and
 * `ttv --render` load them, their init registers their views. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Loads every module of every module directory, once.  Failures are logged
 * (a broken module must not keep the viewer from starting). */
void        ttv_module_loader_load_all (void);
/* Loads one module file. */
gboolean    ttv_module_loader_load (const char *path, GError **error);
/* $TTV_MODULE_DIR (a search path), else the build tree's modules/ when the
 * program runs uninstalled, else libdir/ttv/modules. */
char      **ttv_module_loader_dup_dirs (void);

G_END_DECLS
