/* ttv-time-display.h: the user's time format (GSettings "time-format"),
 * followed for the whole process; the tab states announce its changes.
 * The functions for viewers are in sdk/ttv-viewer-tab.h ("Showing times");
 * here those the application alone uses (its time bar and entries).
 * GLib only: the tab state follows the setting through it. */
#pragma once

#include "ttv-time.h"
#include "ttv-viewer-model.h"

G_BEGIN_DECLS

/* The settings key: "relative", "absolute", "utc" or "local". */
#define TTV_TIME_FORMAT_SETTINGS_KEY "time-format"

/* The settings holding the format (borrowed), NULL without the schema. */
GSettings  *ttv_time_display_get_settings (void);

/* The formats the user chooses from, in the order menus list them: a
 * label (translated, with a mnemonic) and the setting's name for each. */
guint       ttv_time_display_get_n_choices (void);
const char *ttv_time_display_get_choice_label (guint index);
const char *ttv_time_display_get_choice_name (guint index);

/* Makes @state emit "time-format-changed" when the setting changes (for
 * as long as @state lives). */
void        ttv_time_display_watch (TtvTabState *state);

/* The user's choice (relative until the settings say otherwise). */
TtvTimeFormat ttv_time_display_get_format (void);
/* Reads any form that any format shows, and "+S.N" from @state's traceset
 * start; a time of day without a date is taken on the day that puts it
 * closest to @near (typically the time the entry showed).  FALSE with
 * @error naming the text when it is no time. */
gboolean    ttv_time_display_parse (TtvTabState *state, const char *text, TtvTime near,
                                    TtvTime *time, GError **error);

G_END_DECLS
