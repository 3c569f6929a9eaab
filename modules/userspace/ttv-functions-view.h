/* ttv-functions-view.h: the function statistics view of the userspace
 * module (calls, total and self time, duration percentiles), its render. */
#pragma once

#include "ttv-viewer.h"

G_BEGIN_DECLS

#define TTV_TYPE_FUNCTIONS_VIEW (ttv_functions_view_get_type ())
G_DECLARE_FINAL_TYPE (TtvFunctionsView, ttv_functions_view, TTV, FUNCTIONS_VIEW, GtkBox)

GtkWidget  *ttv_functions_view_new (TtvTabState *state);
gboolean    ttv_functions_view_render (TtvTabState *state, cairo_t *cr, int width, int height, GError **error);

G_END_DECLS
