/* ttv-filter-count.h: how many events of the traceset match the tab's
 * filter, counted in the background after each change (a request of the
 * tab's queue, sharing its turns with the viewers'), for the filter bar and
 * the status bar.  Owned by the tab state, which restarts it. */
#pragma once

#include "ttv-viewer-model.h"

G_BEGIN_DECLS

typedef struct _TtvFilterCount TtvFilterCount;

/* @state: weak (the owner); @changed is called on it as the count goes
 * (at most every 200 ms) and when it is done. */
TtvFilterCount *ttv_filter_count_new (TtvTabState *state, void (*changed) (TtvTabState *state));
void        ttv_filter_count_free (TtvFilterCount *count);
/* Counts again from the start: the filter or the traceset changed (no
 * filter: nothing to count, complete at 0). */
void        ttv_filter_count_restart (TtvFilterCount *count);
/* The matching events counted so far; *@complete (may be NULL): whether
 * the count covers the whole traceset. */
guint64     ttv_filter_count_get (const TtvFilterCount *count, gboolean *complete);

G_END_DECLS
