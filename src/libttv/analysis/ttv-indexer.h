/* ttv-indexer.h: the first read of a traceset, in a worker thread: event
 * count and density histogram (all events and per event type); the tab shows its progress. */
#pragma once

#include <gio/gio.h>

#include "ttv-traceset.h"

G_BEGIN_DECLS

/* The density's bins over the traceset span (the tab's, ttv --render's). */
#define TTV_INDEXER_DENSITY_BINS 1024

typedef struct {
  guint64 n_events;
  GArray *density;          /* of guint32, owned: events per bin over the span */
  GHashTable *type_density; /* owned: "facility.event" -> GArray of guint32 (same bins) */
} TtvIndexResult;

void        ttv_index_result_free (TtvIndexResult *result);

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

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvIndexResult, ttv_index_result_free)

G_END_DECLS
