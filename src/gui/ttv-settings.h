/* ttv-settings.h: the viewer's preferences (GSettings org.ttv.Viewer), one
 * object per process shared by the application, tabs and marker colours. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Borrowed; NULL when the schema is not installed (then every preference
 * has its default and nothing is kept). */
GSettings  *ttv_settings_get (void);

G_END_DECLS
