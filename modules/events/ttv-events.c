/* ttv-events.c: registers the detailed event list (ttv-event-list.c) with
 * the viewer: the module's only entry point. */
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

TTV_VIEWER_MODULE (events_init)

static void
events_init (void)
{
  ttv_viewer_register (&info);
}
