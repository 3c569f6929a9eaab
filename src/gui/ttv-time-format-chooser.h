/* ttv-time-format-chooser.h: Preferences' list of the time formats, bound
 * to the user's choice (GSettings "time-format", ttv-time-display.h). */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* A list of the formats bound to the setting (insensitive without the
 * schema). */
GtkWidget  *ttv_time_format_chooser_new (void);

G_END_DECLS
