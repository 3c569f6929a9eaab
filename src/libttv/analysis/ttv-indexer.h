/* ttv-indexer.h: the first read of a traceset, in a worker thread: event
 * count and density histogram (all events and per event type); the tab shows its progress. */
#pragma once

#include <gio/gio.h>

#include "ttv-density-bins.h"
#include "ttv-traceset.h"

G_BEGIN_DECLS

/* The density's bins over the traceset span (the tab's, ttv --render's). */
#define TTV_INDEXER_DENSITY_BINS 1024

typedef struct {
  guint64 n_events;
  GArray *density;          /* of guint32, owned: events per bin over start..end */
  GHashTable *type_density; /* owned: "facility.event" -> GArray of guint32 (same bins) */
  TtvTime start, end;       /* what the bins cover: the traceset's span, or the range asked for */
  /* The bins: of equal width over start..end; over the whole span, the
   * long idle gaps between the traces left out (ttv-density-bins.h). */
  TtvDensityBins bins;
} TtvIndexResult;

void        ttv_index_result_free (TtvIndexResult *result);
/* The first time that falls in bin @bin (an event at @end falls in the
 * last): bin @bin holds the events from its start up to, not including,
 * the next bin's. */
TtvTime     ttv_index_result_get_bin_start (const TtvIndexResult *result, guint bin);

/* Reads every tracefile once in a thread.  *@progress (0..1000, allocated
 * with g_atomic_rc_box_new0: the task keeps a reference) is updated with
 * atomic stores as it goes; poll it from the main loop. */
void        ttv_indexer_run_async (TtvTraceset *traceset, guint n_bins, gint *progress,
                                   GCancellable *cancellable, GAsyncReadyCallback callback,
                                   gpointer user_data);
TtvIndexResult *ttv_indexer_run_finish (GAsyncResult *result, GError **error);
/* The same, waited for (ttv --render, tests). */
TtvIndexResult *ttv_indexer_run (TtvTraceset *traceset, guint n_bins, GCancellable *cancellable,
                                 GError **error);
/* The events with @start <= time <= @end only, in @n_bins bins of equal
 * time over that range (no gap left out); each tracefile read from @start
 * (ttv-report --density --start). */
TtvIndexResult *ttv_indexer_run_range (TtvTraceset *traceset, guint n_bins, TtvTime start, TtvTime end,
                                       GCancellable *cancellable, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvIndexResult, ttv_index_result_free)

G_END_DECLS
