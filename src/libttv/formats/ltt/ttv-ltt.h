/* ttv-ltt.h: the LTT trace format of seed 000 (see docs/ltt-format.md).
 * The reader is a TtvFormatClass; the writer is used by ttv-gen and tests. */
#pragma once

#include "ttv-trace.h"

G_BEGIN_DECLS

extern const TtvFormatClass ttv_ltt_format_class;

G_END_DECLS
