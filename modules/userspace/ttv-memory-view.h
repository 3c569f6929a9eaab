/* ttv-memory-view.h: the memory view of the userspace module (bytes in
 * use per process over time, and the leaks by call site), its render. */
#pragma once

#include "ttv-viewer.h"

G_BEGIN_DECLS

#define TTV_TYPE_MEMORY_VIEW (ttv_memory_view_get_type ())
G_DECLARE_FINAL_TYPE (TtvMemoryView, ttv_memory_view, TTV, MEMORY_VIEW, GtkBox)

GtkWidget  *ttv_memory_view_new (TtvTabState *state);
gboolean    ttv_memory_view_render (TtvTabState *state, cairo_t *cr, int width, int height, GError **error);

G_END_DECLS
