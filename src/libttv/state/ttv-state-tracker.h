/* ttv-state-tracker.h: the state of a whole traceset as it is read, with
 * checkpoints for "state at time t" (seed 003's state seek_closest).
 * Installs itself as the PRIO_STATE hook; statistics ride on it. */
#pragma once

#include <gio/gio.h>

#include "ttv-context.h"
#include "ttv-kernel-model.h"
#include "ttv-statistics.h"

G_BEGIN_DECLS

typedef struct {
  guint64 interval_events;   /* a checkpoint every N events (default 100000) */
  gsize max_memory;          /* bytes of checkpoints in memory before thinning (default 256 MiB) */
  const char *spill_dir;     /* NULL: checkpoints stay in memory; else their states go to an
                              * unnamed file there and memory keeps only where to find them */
  guint64 max_spill;         /* bytes of that file before thinning (default 1 GiB) */
} TtvCheckpointPolicy;

typedef struct _TtvStateTracker TtvStateTracker;

/* @ts is referenced.  @policy may be NULL for the defaults. */
TtvStateTracker *ttv_state_tracker_new (TtvTraceset *ts, const TtvCheckpointPolicy *policy);
void             ttv_state_tracker_free (TtvStateTracker *tracker);

/* Back to the state before the first event (initial processes declared). */
void             ttv_state_tracker_reset (TtvStateTracker *tracker);
TtvState        *ttv_state_tracker_get_state (TtvStateTracker *tracker);   /* borrowed */
/* Statistics gathered while applying events (created on first call). */
TtvStatistics   *ttv_state_tracker_get_statistics (TtvStateTracker *tracker); /* borrowed */
/* Takes the statistics away (transfer full, NULL if none): later replays
 * (state at a time) no longer count into them. */
TtvStatistics   *ttv_state_tracker_steal_statistics (TtvStateTracker *tracker);

/* Applies one event of trace @trace_index; takes a checkpoint when due and
 * @ctx is given (it then must be positioned right after @event). */
void             ttv_state_tracker_apply (TtvStateTracker *tracker, TtvContext *ctx,
                                          guint trace_index, const TtvEvent *event);
/* A TtvHook for ttv_hooks_add (hook_data = the tracker, prio TTV_PRIO_STATE). */
gboolean         ttv_state_tracker_hook (gpointer tracker, gpointer call_data);

/* Applies the events of @ctx from its position while their time is <=
 * @end_time and they come before @end_position (may be NULL), through the
 * engine's hooks; returns how many.  Check @error for failure. */
guint64          ttv_state_tracker_run (TtvStateTracker *tracker, TtvContext *ctx, TtvTime end_time,
                                        const TtvPosition *end_position, GError **error);

/* Reads the whole traceset once from the start, computing the state, the
 * statistics and the checkpoints.  @progress (may be NULL) gets the
 * fraction done, @cancel may be NULL. */
gboolean         ttv_state_tracker_build (TtvStateTracker *tracker,
                                          void (*progress) (double fraction, gpointer data),
                                          gpointer progress_data, GCancellable *cancel,
                                          GError **error);

/* The state after every event whose time is <= @time: restores the nearest
 * earlier checkpoint and replays only the events after it.  Needs build(). */
TtvState        *ttv_state_tracker_dup_state_at (TtvStateTracker *tracker, TtvTime time,
                                                 GError **error);
/* The same, by replaying from the start (for tests and without build()). */
TtvState        *ttv_state_tracker_dup_state_by_replay (TtvStateTracker *tracker, TtvTime time,
                                                        GError **error);

guint            ttv_state_tracker_get_n_checkpoints (const TtvStateTracker *tracker);
/* Bytes of checkpoints in memory, and in the spill file. */
gsize            ttv_state_tracker_get_checkpoint_memory (const TtvStateTracker *tracker);
guint64          ttv_state_tracker_get_checkpoint_spill (const TtvStateTracker *tracker);
guint64          ttv_state_tracker_get_interval (const TtvStateTracker *tracker);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvStateTracker, ttv_state_tracker_free)

G_END_DECLS
