/* ttv-tab-analysis.h: what a tab's background passes found (sdk's
 * ttv-viewer-analysis.h): the event count and density of the first read,
 * the state tracker and statistics of the state pass, the state history.
 * Owned by the tab's state (ttv-tab-state.c), which hands results over
 * and announces them; read by viewers and by the request queue (a request
 * with the state starts from the tracker's checkpoints). */
#pragma once

#include "ttv-density-bins.h"
#include "ttv-history.h"
#include "ttv-kernel-model.h"
#include "ttv-state-pass.h"
#include "ttv-traceset.h"
#include "ttv-viewer-model.h"

G_BEGIN_DECLS

typedef struct _TtvTabAnalysis TtvTabAnalysis;

TtvTabAnalysis *ttv_tab_analysis_new (void);
void        ttv_tab_analysis_free (TtvTabAnalysis *analysis);
/* Forgets every result (the traceset changed); TRUE when a history went. */
gboolean    ttv_tab_analysis_reset (TtvTabAnalysis *analysis);

/* The first read: @density and @type_density transfer full, may be NULL;
 * @bins (copied) how they cut time. */
void        ttv_tab_analysis_set_density (TtvTabAnalysis *analysis, guint64 n_events, GArray *density,
                                          GHashTable *type_density, const TtvDensityBins *bins);
/* Borrowed, may be NULL. */
GArray     *ttv_tab_analysis_get_density (TtvTabAnalysis *analysis);
/* NULL until the first read gave its density. */
const TtvDensityBins *ttv_tab_analysis_get_density_bins (TtvTabAnalysis *analysis);
/* The state pass over @ts (transfer full; @tracker NULL: forget them). */
void        ttv_tab_analysis_set_state_pass (TtvTabAnalysis *analysis, TtvTraceset *ts,
                                             TtvStateTracker *tracker, TtvStatistics *statistics);
/* Borrowed; NULL until the state pass is done.  The model applies events
 * of the traceset to a state (the requests' own). */
TtvSharedTracker *ttv_tab_analysis_get_shared (TtvTabAnalysis *analysis);
TtvKernelModel *ttv_tab_analysis_get_model (TtvTabAnalysis *analysis);
/* Transfer full (NULL: forget it). */
void        ttv_tab_analysis_set_history (TtvTabAnalysis *analysis, TtvTraceset *traceset,
                                          TtvHistory *history);
/* Statistics computations reading the traceset in threads now (the
 * traceset must not be refreshed meanwhile). */
guint       ttv_tab_analysis_get_n_workers (TtvTabAnalysis *analysis);
/* Counts @delta more (or fewer) of them (the analyses viewers ask for). */
void        ttv_tab_analysis_add_workers (TtvTabAnalysis *analysis, gint delta);

/* @info from the process running on @cpu in @state (may be NULL: unknown). */
gboolean    ttv_tab_analysis_fill_process_info (const TtvState *state, gint cpu, TtvViewerProcessInfo *info);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvTabAnalysis, ttv_tab_analysis_free)

G_END_DECLS
