/* ttv-viewer-registry.h: the registered viewer kinds, which the modules
 * that the module loader (ttv-module-loader.h) loads register. */
#pragma once

#include "ttv-module-loader.h"
#include "ttv-viewer.h"

G_BEGIN_DECLS

/* The registered viewers, sorted by name. */
guint       ttv_viewer_registry_get_n_viewers (void);
const TtvViewerInfo *ttv_viewer_registry_get_viewer (guint index);
const TtvViewerInfo *ttv_viewer_registry_find (const char *name);

G_END_DECLS
