/* ttv-clock-offset-dialog.h: File > Clock Offsets: a constant correction of
 * each trace's clock, in seconds, typed by the user (what ttv-report
 * --offset TRACE=±S does), kept with the traces' bookmarks.  Used by the
 * window. */
#pragma once

#include "ttv-tab.h"

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define TTV_TYPE_CLOCK_OFFSET_DIALOG (ttv_clock_offset_dialog_get_type ())
G_DECLARE_FINAL_TYPE (TtvClockOffsetDialog, ttv_clock_offset_dialog, TTV, CLOCK_OFFSET_DIALOG, GtkDialog)

/* One line per trace of @tab's traceset, each with its offset now. */
GtkWidget  *ttv_clock_offset_dialog_new (GtkWindow *parent, TtvTab *tab);

G_END_DECLS
