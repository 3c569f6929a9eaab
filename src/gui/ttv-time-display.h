/* ttv-time-display.h: the user's time format (GSettings "time-format"),
 * followed for the whole process; the tab states announce its changes.
 * The functions for viewers are in ttv-viewer.h ("Showing times"). */
#pragma once

#include "ttv-viewer.h"

G_BEGIN_DECLS

/* The settings key: "relative", "absolute", "utc" or "local". */
#define TTV_TIME_FORMAT_SETTINGS_KEY "time-format"

/* The settings holding the format (borrowed), NULL without the schema. */
GSettings  *ttv_time_display_get_settings (void);

/* A list of the formats bound to the setting, for Preferences. */
GtkWidget  *ttv_time_display_chooser_new (void);

/* Makes @state emit "time-format-changed" when the setting changes (for
 * as long as @state lives). */
void        ttv_time_display_watch (TtvTabState *state);

G_END_DECLS
