/* ttv-event-list.h: the detailed event list, a virtual list over the whole
 * traceset that fetches only the rows on screen through event requests. */
#pragma once

#include "ttv-viewer.h"

G_BEGIN_DECLS

#define TTV_TYPE_EVENT_LIST (ttv_event_list_get_type ())
G_DECLARE_FINAL_TYPE (TtvEventList, ttv_event_list, TTV, EVENT_LIST, GtkBox)

GtkWidget  *ttv_event_list_new (TtvTabState *state);
/* Shows the search bar (Ctrl+F). */
void        ttv_event_list_find (GtkWidget *list);

G_END_DECLS
