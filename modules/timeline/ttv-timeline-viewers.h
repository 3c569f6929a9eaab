/* ttv-timeline-viewers.h: the two viewers of the time-line module, made of
 * the time line (ttv-timeline.h) and registered by ttv-timeline-module.c:
 * control flow (ttv-controlflow-viewer.c) and resources
 * (ttv-resources-viewer.c). */
#pragma once

#include "ttv-timeline.h"

G_BEGIN_DECLS

GtkWidget  *ttv_controlflow_viewer_new (TtvTabState *state);
GtkWidget  *ttv_resources_viewer_new (TtvTabState *state);
/* The display-free renders (TtvViewerRenderFunc): what a new viewer of
 * @state shows, drawn without a widget. */
gboolean    ttv_controlflow_viewer_render (TtvTabState *state, cairo_t *cr, int width, int height,
                                           GError **error);
gboolean    ttv_resources_viewer_render (TtvTabState *state, cairo_t *cr, int width, int height,
                                         GError **error);

G_END_DECLS
