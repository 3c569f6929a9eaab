/* ttv-tab-analysis-run.h: a libttv analysis run here and now for a tab
 * (its kernel and userspace analyses, ttv-tab-kernel.c and
 * ttv-tab-userspace.c), counted as one of the tab's reading workers. */
#pragma once

#include "ttv-analysis.h"
#include "ttv-viewer-model.h"

G_BEGIN_DECLS

/* Runs @cls over @state's traceset in this thread; the traceset is not
 * refreshed meanwhile.  NULL with @error when it fails or is cancelled. */
TtvAnalysis *ttv_tab_state_run_analysis (TtvTabState *state, const TtvAnalysisClass *cls,
                                         const TtvAnalysisOptions *options, GCancellable *cancellable,
                                         GError **error);

G_END_DECLS
