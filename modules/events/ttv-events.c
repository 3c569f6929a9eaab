/* ttv-events.c: registers the detailed event list (ttv-event-list.c) and
 * the event details pane (ttv-event-details.c) with the viewer: the
 * module's only entry point. */
#include "ttv-event-details.h"
#include "ttv-event-list.h"

#include <glib/gi18n-lib.h>

static const TtvViewerInfo info = {
  .name = "events",
  .title = N_("Events"),
  .icon_name = "view-list-symbolic",
  .menu_label = N_("_Detailed Event List"),
  .new_viewer = ttv_event_list_new,
  .translation_domain = GETTEXT_PACKAGE,
  .find = ttv_event_list_find,
  .show_by_default = TRUE,
};

static const TtvViewerInfo details = {
  .name = "details",
  .title = N_("Event Details"),
  .icon_name = "dialog-information-symbolic",
  .menu_label = N_("Event _Details"),
  .new_viewer = ttv_event_details_new,
  .translation_domain = GETTEXT_PACKAGE,
};

TTV_VIEWER_MODULE (events_init)

static void
events_init (void)
{
  ttv_viewer_register (&info);
  ttv_viewer_register (&details);
}
