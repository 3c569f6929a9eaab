/* ttv-timeline-viewers.h: the two viewers of the time-line module, made of
 * the time line (ttv-timeline.h) and registered by ttv-timeline-module.c:
 * control flow (ttv-controlflow-viewer.c) and resources
 * (ttv-resources-viewer.c). */
#pragma once

#include "ttv-timeline.h"

G_BEGIN_DECLS

GtkWidget  *ttv_controlflow_viewer_new (TtvTabState *state);
GtkWidget  *ttv_resources_viewer_new (TtvTabState *state);

G_END_DECLS
