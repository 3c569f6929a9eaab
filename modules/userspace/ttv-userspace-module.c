/* ttv-userspace-module.c: the userspace module: four views of the tab's
 * userspace analyses, registered together: call stacks (flame chart per
 * thread), flame graph (the selection by call path), functions (duration
 * statistics) and memory (bytes in use per process, leaks). */
#include "ttv-flamechart.h"
#include "ttv-flamegraph.h"
#include "ttv-functions-view.h"
#include "ttv-memory-view.h"

#include <glib/gi18n-lib.h>

static const TtvViewerInfo views[] = {
  { .name = "callstack", .title = N_("Call Stacks"), .icon_name = "view-list-symbolic",
    .menu_label = N_("C_all Stacks"), .new_viewer = ttv_flame_chart_new, .translation_domain = GETTEXT_PACKAGE,
    .render = ttv_flame_chart_render },
  { .name = "flamegraph", .title = N_("Flame Graph"), .icon_name = "view-paged-symbolic",
    .menu_label = N_("_Flame Graph"), .new_viewer = ttv_flame_graph_new, .translation_domain = GETTEXT_PACKAGE,
    .render = ttv_flame_graph_render },
  { .name = "functions", .title = N_("Functions"), .icon_name = "view-sort-descending-symbolic",
    .menu_label = N_("F_unction Statistics"), .new_viewer = ttv_functions_view_new,
    .translation_domain = GETTEXT_PACKAGE, .render = ttv_functions_view_render },
  { .name = "memory", .title = N_("Memory"), .icon_name = "drive-harddisk-symbolic",
    .menu_label = N_("_Memory"), .new_viewer = ttv_memory_view_new, .translation_domain = GETTEXT_PACKAGE,
    .render = ttv_memory_view_render },
};

TTV_VIEWER_MODULE (userspace_init)

static void
userspace_init (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    ttv_viewer_register (&views[i]);
}
