/* ttv-viewer-history.h: a built state history wrapped as the SDK's
 * refcounted TtvViewerHistory (held by the tab's state, which hands it to
 * modules through ttv_tab_state_dup_history()). */
#pragma once

#include "ttv-history.h"
#include "ttv-viewer-model.h"

G_BEGIN_DECLS

/* Takes @history (transfer full), built from @traceset (its machines'
 * names are copied). */
TtvViewerHistory *ttv_viewer_history_new (TtvHistory *history, TtvTraceset *traceset);
/* Borrowed. */
const TtvHistory *ttv_viewer_history_get_history (TtvViewerHistory *history);

G_END_DECLS
