/* ttv-tab-analysis-run.c: a libttv analysis run here and now for a tab
 * (see ttv-tab-analysis-run.h). */
#include "ttv-config.h"

#include "ttv-tab-analysis-run.h"
#include "ttv-tab-analysis.h"
#include "ttv-tab-state-private.h"

TtvAnalysis *
ttv_tab_state_run_analysis (TtvTabState *state, const TtvAnalysisClass *cls, const TtvAnalysisOptions *options,
                            GCancellable *cancellable, GError **error)
{
  /* Counted: the traceset is not refreshed under a reading thread. */
  ttv_tab_analysis_add_workers (ttv_tab_state_get_analysis (state), 1);
  TtvAnalysis *a = ttv_analysis_run (ttv_tab_state_get_traceset (state), cls, options, NULL, NULL, cancellable,
                                     error);
  ttv_tab_analysis_add_workers (ttv_tab_state_get_analysis (state), -1);
  return a;
}
