/* ttv-marker-colors.h: the marker colours (current time, selection,
 * bookmarks) kept in GSettings: lookup for whoever draws them (the time
 * bar, modules through ttv-viewer.h) and their rows in Preferences. */
#pragma once

#include "ttv-viewer.h"

G_BEGIN_DECLS

#define TTV_VIEWER_N_MARKERS 3

/* The settings key ("current-time-color"), a translated label, and the
 * default ("#d91a1a", also without the schema). */
const char *ttv_marker_get_key (TtvViewerMarker marker);
const char *ttv_marker_get_label (TtvViewerMarker marker);
const char *ttv_marker_get_default (TtvViewerMarker marker);
/* The Preferences rows: a label and a colour button per marker, attached
 * to @grid from @row on; returns the next free row. */
guint       ttv_marker_editor_attach (GSettings *settings, GtkGrid *grid, guint row);

G_END_DECLS
