/* ttv-lttng.h: the LTTng 0.x trace format of seed 001 (see docs/lttng-format.md).
 * The reader is a TtvFormatClass; the writer (ttv-lttng-writer.h) serves ttv-gen and tests. */
#pragma once

#include "ttv-trace.h"

G_BEGIN_DECLS

extern const TtvFormatClass ttv_lttng_format_class;

G_END_DECLS
