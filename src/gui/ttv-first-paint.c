/* ttv-first-paint.c: the SDK's ttv_viewer_notify_first_paint()
 * (sdk/ttv-viewer-widget.h): a view's first drawing with content, handed to
 * the open benchmark's report (ttv-open-bench.h). */
#include "ttv-config.h"

#include "ttv-viewer.h"

#include "ttv-open-bench.h"

void
ttv_viewer_notify_first_paint (GtkWidget *viewer, guint n_items)
{
  g_return_if_fail (GTK_IS_WIDGET (viewer));
  ttv_open_bench_first_paint (n_items);
}
