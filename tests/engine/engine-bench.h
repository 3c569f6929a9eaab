/* engine-bench.h: benchmark of the traceset context over the in-memory
 * format (merged reading, middle, seek_time); test-engine --bench and ttv-bench call it. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Appends one JSON object per line to @out: merged read events/s over 1, 4
 * and 16 tracefiles (@n_events in all, randomly interleaved and in bursts),
 * and the mean latency of @n_seeks seek_time calls.  Times are the thread's
 * CPU time. */
void ttv_engine_bench_run (GString *out, guint n_events, guint n_seeks);

G_END_DECLS
