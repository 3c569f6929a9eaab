/* ttv-flamegraph.h: the flame graph view of the userspace module (the
 * calls of the selection aggregated by call path), and its render. */
#pragma once

#include "ttv-viewer.h"

G_BEGIN_DECLS

#define TTV_TYPE_FLAME_GRAPH (ttv_flame_graph_get_type ())
G_DECLARE_FINAL_TYPE (TtvFlameGraph, ttv_flame_graph, TTV, FLAME_GRAPH, GtkBox)

GtkWidget  *ttv_flame_graph_new (TtvTabState *state);
gboolean    ttv_flame_graph_render (TtvTabState *state, cairo_t *cr, int width, int height, GError **error);

G_END_DECLS
