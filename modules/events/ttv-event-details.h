/* ttv-event-details.h: the event details pane: every field of the event at
 * the current time, its contexts, the process and CPU state there;
 * registered by ttv-events.c beside the event list. */
#pragma once

#include "ttv-viewer.h"

G_BEGIN_DECLS

#define TTV_TYPE_EVENT_DETAILS (ttv_event_details_get_type ())
G_DECLARE_FINAL_TYPE (TtvEventDetails, ttv_event_details, TTV, EVENT_DETAILS, GtkBox)

GtkWidget  *ttv_event_details_new (TtvTabState *state);
/* What the pane shows as text, a line per row ("name = value", indented
 * under its parent): the selected row and those under it, or everything
 * when none is selected; what Copy puts on the clipboard.  Caller frees. */
char       *ttv_event_details_dup_text (TtvEventDetails *self);

G_END_DECLS
