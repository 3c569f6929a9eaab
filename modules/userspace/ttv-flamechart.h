/* ttv-flamechart.h: the call stack view (a flame chart per thread over
 * the time window) of the userspace module, and its display-free render. */
#pragma once

#include "ttv-viewer.h"

G_BEGIN_DECLS

#define TTV_TYPE_FLAME_CHART (ttv_flame_chart_get_type ())
G_DECLARE_FINAL_TYPE (TtvFlameChart, ttv_flame_chart, TTV, FLAME_CHART, GtkBox)

GtkWidget  *ttv_flame_chart_new (TtvTabState *state);
gboolean    ttv_flame_chart_render (TtvTabState *state, cairo_t *cr, int width, int height, GError **error);

G_END_DECLS
