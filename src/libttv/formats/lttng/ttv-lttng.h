/* ttv-lttng.h: the LTTng 0.x trace format of seed 001 (see docs/lttng-format.md).
 * The reader is a TtvFormatClass; the writer (ttv-lttng-writer.h) serves ttv-gen and tests. */
#pragma once

#include "ttv-trace.h"
#include "formats/ltt/ttv-ltt.h"

G_BEGIN_DECLS

extern const TtvFormatClass ttv_lttng_format_class;

/* The `process` and `interrupt` events (any channel) of control/processes_N
 * and control/interrupts_N: the system state at trace start, in the LTT
 * reader's types (state_name from the seed 000 process state names, since
 * markers carry no enum labels).  NULL when @trace is not LTTng 0.x.
 * Borrowed: valid while the trace is open. */
const GArray *ttv_lttng_get_processes (const TtvTrace *trace);
const GArray *ttv_lttng_get_interrupts (const TtvTrace *trace);

G_END_DECLS
