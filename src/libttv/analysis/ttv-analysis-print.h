/* ttv-analysis-print.h: the reports of analyses with tables (statistics
 * per group, every record, CPU usage over time, block throughput) as
 * aligned text, JSON lines or CSV, written by ttv_analysis_write(); and the
 * critical path's.  Used by ttv-report and the tests. */
#pragma once

#include "ttv-kernel-analyses.h"

G_BEGIN_DECLS

/* The critical path of @tid (segments of ttv_critical_path_compute), and
 * the time each thread and device spent on it. */
void     ttv_critical_path_print (GArray *segments, guint32 tid, TtvAnalysisFormat format, GString *out);

G_END_DECLS
