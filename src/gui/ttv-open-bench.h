/* ttv-open-bench.h: the hooks of bench/gui-open in the viewer: with
 * TTV_BENCH_BACKGROUND set, one JSON line when the background passes are
 * done (time since start, memory), then the program quits. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The tab's last background stage is done (its history is in). */
void ttv_open_bench_background_done (gboolean from_cache);

G_END_DECLS
