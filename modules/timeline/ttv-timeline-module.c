/* ttv-timeline-module.c: the time-line module's entry point: registers its
 * two viewers, control flow and resources, which share the time-line
 * widget compiled into this module once. */
#include "ttv-timeline-viewers.h"

#include <glib/gi18n-lib.h>

static const TtvViewerInfo controlflow = {
  .name = "controlflow",
  .title = N_("Control Flow"),
  .icon_name = "view-list-symbolic",
  .menu_label = N_("_Control Flow"),
  .new_viewer = ttv_controlflow_viewer_new,
  .render = ttv_controlflow_viewer_render,
  .show_by_default = TRUE,
  .translation_domain = GETTEXT_PACKAGE,
};

static const TtvViewerInfo resources = {
  .name = "resources",
  .title = N_("Resources"),
  .icon_name = "computer-symbolic",
  .menu_label = N_("_Resources"),
  .new_viewer = ttv_resources_viewer_new,
  .render = ttv_resources_viewer_render,
  .translation_domain = GETTEXT_PACKAGE,
};

TTV_VIEWER_MODULE (timeline_init)

static void
timeline_init (void)
{
  ttv_viewer_register (&controlflow);
  ttv_viewer_register (&resources);
}
