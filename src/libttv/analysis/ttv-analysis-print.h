/* ttv-analysis-print.h: analysis results as ttv-report --analysis prints
 * them: an aligned text table, JSON lines or CSV; per-group statistics
 * (the default), every record, CPU usage over time, throughput, the
 * critical path.  Used by ttv-report and the tests. */
#pragma once

#include "ttv-kernel-analyses.h"

G_BEGIN_DECLS

typedef enum {
  TTV_ANALYSIS_FORMAT_TEXT,
  TTV_ANALYSIS_FORMAT_JSONL,
  TTV_ANALYSIS_FORMAT_CSV,
  TTV_ANALYSIS_FORMAT_FOLDED,   /* "a;b;c 1234" stacks for flame graph tools (call stacks only) */
} TtvAnalysisFormat;

struct _TtvAnalysisPrintOptions {
  TtvAnalysisFormat format;
  TtvTime start, end;       /* the window: TTV_TIME_MIN, TTV_TIME_MAX for the whole trace */
  gboolean records;         /* every record rather than statistics */
  const char *table;        /* one table of the analysis, NULL: each */
  const char *group_by;     /* the column statistics group by, NULL: the table's */
  guint64 top;              /* records: only the N longest (0: all) */
  guint bins;               /* cpu: busy time in this many bins of the window (0: none) */
  guint32 tid;              /* records: only this thread's (G_MAXUINT32: all) */
  TtvTraceset *traceset;    /* weak, may be NULL: system calls' arguments with the records */
};

void     ttv_analysis_print_options_init (TtvAnalysisPrintOptions *options);

/* Appends what @options ask of @result to @out; FALSE with @error (an
 * unknown table or column: TTV_USAGE_ERROR; a damaged result file). */
gboolean ttv_analysis_print (const TtvAnalysisResult *result, const TtvAnalysisPrintOptions *options,
                             GString *out, GError **error);
/* The critical path of @tid (segments of ttv_critical_path_compute). */
void     ttv_critical_path_print (GArray *segments, guint32 tid, const TtvAnalysisPrintOptions *options,
                                  GString *out);

G_END_DECLS
