/* ttv-memory-private.h: between the memory analysis (ttv-memory-analysis.c)
 * and its report writer (ttv-memory-report.c). */
#pragma once

#include "ttv-memory-analysis.h"

G_BEGIN_DECLS

gboolean ttv_memory_write (gpointer self, TtvAnalysisFormat format, const TtvAnalysisOptions *options,
                           GString *out, GError **error);
/* The traceset the analysis read (borrowed). */
TtvTraceset *ttv_memory_get_traceset (const TtvMemory *memory);

G_END_DECLS
