/* ttv-memory-private.h: between the memory analysis (ttv-memory-analysis.c)
 * and its report writer (ttv-memory-report.c). */
#pragma once

#include "ttv-analysis-print.h"
#include "ttv-memory-analysis.h"

G_BEGIN_DECLS

gboolean ttv_memory_print (const TtvAnalysisResult *result, const TtvAnalysisPrintOptions *options,
                           GString *out, GError **error);

G_END_DECLS
