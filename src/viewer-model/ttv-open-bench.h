/* ttv-open-bench.h: the hooks of bench/gui-open in the viewer: with
 * TTV_BENCH_BACKGROUND set, one JSON line when the background passes are
 * done (time since start, memory), then the program quits. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A viewer drew its first content (@n_items rows, bars...): one JSON line
 * with TTV_BENCH_FIRST_PAINT set, once; then the program quits unless
 * TTV_BENCH_BACKGROUND is set too. */
void ttv_open_bench_first_paint (guint n_items);
/* The tab's last background stage is done (its history is in). */
void ttv_open_bench_background_done (gboolean from_cache);

G_END_DECLS
