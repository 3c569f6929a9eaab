/* ttv-live-dialog.h: File > Open Live Session: asks a relay (lttng-relayd)
 * for its live sessions without blocking the window, and lets the user pick
 * one.  The window opens the chosen session's URL (ttv_window_choose_live). */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define TTV_TYPE_LIVE_DIALOG (ttv_live_dialog_get_type ())
G_DECLARE_FINAL_TYPE (TtvLiveDialog, ttv_live_dialog, TTV, LIVE_DIALOG, GtkDialog)

/* Transient for @parent, @relay (may be NULL) in the address entry. */
GtkWidget  *ttv_live_dialog_new (GtkWindow *parent, const char *relay);
/* The address as typed. */
const char *ttv_live_dialog_get_relay (TtvLiveDialog *self);
/* The URL of the selected session (net://RELAY:PORT/host/HOSTNAME/SESSION),
 * NULL when none is selected. */
char       *ttv_live_dialog_dup_url (TtvLiveDialog *self);
/* Lists the relay's sessions in a worker thread (what List Sessions does). */
void        ttv_live_dialog_list (TtvLiveDialog *self);
/* For tests: whether a listing runs; the status line's text. */
gboolean    ttv_live_dialog_is_listing (TtvLiveDialog *self);
const char *ttv_live_dialog_get_status (TtvLiveDialog *self);

G_END_DECLS
