/* ttv-state-pass.h: the tab's background state pass (a TtvStateTracker
 * built in a worker thread: checkpoints and statistics) and the statistics
 * of an interval, computed in a worker thread from the built tracker. */
#pragma once

#include <gio/gio.h>

#include "ttv-state-tracker.h"
#include "ttv-stats-tree.h"

G_BEGIN_DECLS

/* A built tracker shared between the main thread and interval jobs:
 * every use of @tracker holds @lock (its queries replay through it). */
typedef struct {
  GMutex lock;
  TtvStateTracker *tracker;   /* owned, built */
} TtvSharedTracker;

/* Takes @tracker (transfer full); g_atomic_rc_box: acquire / release with
 * ttv_shared_tracker_ref / unref. */
TtvSharedTracker *ttv_shared_tracker_new (TtvStateTracker *tracker);
TtvSharedTracker *ttv_shared_tracker_ref (TtvSharedTracker *shared);
void        ttv_shared_tracker_unref (TtvSharedTracker *shared);
/* The state after every event with time <= @time (takes the lock). */
TtvState   *ttv_shared_tracker_dup_state_at (TtvSharedTracker *shared, TtvTime time, GError **error);

typedef struct {
  TtvStateTracker *tracker;      /* owned, built */
  TtvStatistics *statistics;     /* owned: the whole traceset's (its tree is made when a view asks) */
} TtvStatePassResult;

void        ttv_state_pass_result_free (TtvStatePassResult *result);

/* Builds a tracker over @traceset in a thread.  *@progress (a
 * g_atomic_rc_box gint, 0..1000) is updated as it goes. */
void        ttv_state_pass_run_async (TtvTraceset *traceset, guint64 checkpoint_interval,
                                      gint *progress, GCancellable *cancellable,
                                      GAsyncReadyCallback callback, gpointer user_data);
TtvStatePassResult *ttv_state_pass_run_finish (GAsyncResult *result, GError **error);

/* Statistics of the events with @start <= time <= @end, in a thread; from
 * the tracker's checkpoints, or without @shared (NULL) by a replay from
 * the start of the traceset. */
void        ttv_interval_stats_run_async (TtvTraceset *traceset, TtvSharedTracker *shared,
                                          TtvTime start, TtvTime end, GCancellable *cancellable,
                                          GAsyncReadyCallback callback, gpointer user_data);
TtvStatsNode *ttv_interval_stats_run_finish (GAsyncResult *result, GError **error);
/* The same in the calling thread. */
TtvStatsNode *ttv_interval_stats_run (TtvTraceset *traceset, TtvSharedTracker *shared,
                                      TtvTime start, TtvTime end, GCancellable *cancellable,
                                      GError **error);
/* The statistics the interval job makes its tree of, computed here, by a
 * replay from the start of the traceset (ttv-report --stats; TTV_TIME_MIN
 * and TTV_TIME_MAX: the whole traceset, whose statistics are the state
 * pass's). */
TtvStatistics *ttv_interval_statistics_run (TtvTraceset *traceset, TtvTime start, TtvTime end,
                                            GCancellable *cancellable, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvStatePassResult, ttv_state_pass_result_free)

G_END_DECLS
