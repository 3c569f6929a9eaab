/* ttv-settings.h: the viewer's preferences (GSettings org.ttv.Viewer), one
 * object per process shared by the application, tabs and marker colours. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Borrowed; NULL when the schema is not installed (then every preference
 * has its default and nothing is kept). */
GSettings  *ttv_settings_get (void);

/* A new reference to the same settings when their schema has @key, else
 * NULL (no schema, or an older one installed): what ttv_viewer_dup_settings()
 * of the module API returns. */
GSettings  *ttv_settings_dup_with_key (const char *key);

/* The cap of the state history cache in bytes: the history-cache-size
 * setting (MiB), unless $TTV_CACHE_MAX says otherwise; 0: automatic. */
guint64     ttv_settings_get_history_cache_max (void);

G_END_DECLS
