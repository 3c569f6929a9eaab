/* ttv-info-dialog.h: File > Trace Information: the traceset's summary
 * (time span, CPUs, events), the system description (LTT system.xml or
 * CTF env), tracefiles, and event types per facility with their
 * descriptions and event counts; selectable, with Copy All.  Used by the
 * window. */
#pragma once

#include "ttv-tab-state-private.h"

#include "ttv-viewer.h"

G_BEGIN_DECLS

#define TTV_TYPE_INFO_DIALOG (ttv_info_dialog_get_type ())
G_DECLARE_FINAL_TYPE (TtvInfoDialog, ttv_info_dialog, TTV, INFO_DIALOG, GtkDialog)

/* Follows @state: the event counts appear when the first read ends. */
GtkWidget  *ttv_info_dialog_new (GtkWindow *parent, TtvTabState *state);
/* Everything the dialog shows, as plain text (what Copy All puts on the
 * clipboard); caller frees. */
char       *ttv_info_dialog_dup_text (TtvInfoDialog *self);

/* Response of the Copy All button. */
#define TTV_INFO_DIALOG_RESPONSE_COPY 1

G_END_DECLS
