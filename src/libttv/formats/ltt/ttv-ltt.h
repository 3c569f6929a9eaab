/* ttv-ltt.h: the LTT trace format of seed 000 (see docs/ltt-format.md).
 * The reader is a TtvFormatClass (its control files' processes and interrupts
 * through ttv_trace_get_processes/_interrupts); the writer, ttv-ltt-writer.h,
 * is used by ttv-gen and tests. */
#pragma once

#include "ttv-trace.h"

G_BEGIN_DECLS

extern const TtvFormatClass ttv_ltt_format_class;

G_END_DECLS
