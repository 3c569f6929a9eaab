/* ttv-palette-editor.h: the application's side of the time-line palette
 * (sdk/ttv-palette.h): the settings' names and defaults, and the
 * Preferences section that edits them. */
#pragma once

#include "ttv-palette.h"

G_BEGIN_DECLS

const char *ttv_palette_get_name (TtvPaletteColor color);     /* "run-user" */
const char *ttv_palette_get_default (TtvPaletteColor color);  /* "#33a02c", also without the schema */
/* Writes @color as "#rrggbb" into the dictionary, the other names kept. */
void        ttv_palette_set_rgba (GSettings *settings, TtvPaletteColor color, const GdkRGBA *rgba);
/* The "Time line colours" section of the Preferences dialog: a colour
 * button per entry and "Reset to defaults"; follows changes made
 * elsewhere. */
GtkWidget  *ttv_palette_editor_new (GSettings *settings);

G_END_DECLS
