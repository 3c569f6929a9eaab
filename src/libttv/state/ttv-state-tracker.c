/* ttv-state-tracker.c: state over a traceset with checkpoints (see the header).
 * Checkpoints are thinned (every other one dropped, interval doubled) when
 * they outgrow their budget, so memory stays bounded on any trace; with a
 * spill directory their states live in an unnamed file, read back when a
 * state at some time is asked for. */
#include "ttv-state-tracker.h"
#include "ttv-error.h"
#include "ttv-temp-file.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <glib/gi18n-lib.h>
#include <unistd.h>

typedef struct {
  TtvTime time;              /* time of the last event applied */
  TtvPosition *position;     /* owned: the next event to apply */
  TtvState *state;           /* owned, or NULL: in the spill file */
  guint64 offset;            /* of its snapshot in the spill file */
  gsize size;                /* bytes of that snapshot */
  gsize memory;
} Checkpoint;

struct _TtvStateTracker {
  TtvTraceset *traceset;     /* owned reference */
  GPtrArray *traces;         /* weak TtvTrace *, for the model and statistics */
  TtvKernelModel *model;     /* owned */
  TtvState *state;           /* owned */
  TtvStatistics *stats;      /* owned, may be NULL */
  TtvCheckpointPolicy policy;
  GArray *checkpoints;       /* of Checkpoint, by time */
  gsize checkpoint_memory;
  int spill_fd;              /* the spill file, -1 when none (yet, or failed) */
  gboolean spill_failed;
  guint64 spill_end;         /* where the next snapshot goes */
  guint64 spill_live;        /* bytes of snapshots still used */
  GByteArray *snapshot;      /* owned: scratch */
  guint64 since_checkpoint;  /* events applied since the last checkpoint */
  gboolean recording;        /* taking checkpoints (during build) */
};

static void
checkpoint_clear (Checkpoint *c)
{
  ttv_position_free (c->position);
  ttv_state_free (c->state);
}

/* A snapshot no longer used: its bytes of the file are given back. */
static void
spill_drop (TtvStateTracker *tr, const Checkpoint *c)
{
  if (c->state || c->size == 0 || tr->spill_fd < 0)
    return;
#ifdef FALLOC_FL_PUNCH_HOLE
  fallocate (tr->spill_fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t) c->offset, (off_t) c->size);
#endif
  tr->spill_live -= c->size;
}

/* Writes the state of @c to the spill file; FALSE when it stays in memory. */
static gboolean
spill_state (TtvStateTracker *tr, Checkpoint *c, const TtvState *state)
{
  if (tr->policy.spill_dir == NULL || tr->spill_failed)
    return FALSE;
  if (tr->spill_fd < 0)
    {
      g_autoptr (GError) error = NULL;
      tr->spill_fd = ttv_temp_file_new (tr->policy.spill_dir, NULL, &error);
      if (tr->spill_fd < 0)
        {
          g_warning ("State checkpoints stay in memory: %s", error->message);
          tr->spill_failed = TRUE;
          return FALSE;
        }
    }
  g_byte_array_set_size (tr->snapshot, 0);
  ttv_state_snapshot (state, tr->snapshot);
  if (!ttv_file_write_at (tr->spill_fd, tr->snapshot->data, tr->snapshot->len, tr->spill_end))
    {
      g_warning ("State checkpoints stay in memory: %s", g_strerror (errno));
      tr->spill_failed = TRUE;
      return FALSE;
    }
  c->offset = tr->spill_end;
  c->size = tr->snapshot->len;
  tr->spill_end += c->size;
  tr->spill_live += c->size;
  return TRUE;
}

/* The state of checkpoint @c, a copy the caller owns. */
static TtvState *
checkpoint_state (TtvStateTracker *tr, const Checkpoint *c, GError **error)
{
  if (c->state)
    return ttv_state_copy (c->state);
  g_autofree guint8 *buf = g_malloc (MAX (c->size, 1));
  TtvState *state = ttv_file_read_at (tr->spill_fd, buf, c->size, c->offset)
                      ? ttv_state_from_snapshot (buf, c->size) : NULL;
  if (state == NULL)
    g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_IO,
                 _("Cannot read back a state checkpoint at byte %" PRIu64 " of its file"), c->offset);
  return state;
}

/* The state before the first event: one machine per machine of the
 * traceset, named, with the processes each trace declares initially. */
static TtvState *
initial_state (TtvStateTracker *tr)
{
  TtvState *state = ttv_state_new ();
  guint n_machines = ttv_traceset_get_n_machines (tr->traceset);
  if (n_machines > 1)
    for (guint m = 0; m < n_machines; m++)
      ttv_state_set_machine_name (state, m, ttv_traceset_get_machine_name (tr->traceset, m));
  for (guint i = 0; i < tr->traces->len; i++)
    ttv_kernel_model_apply_initial (tr->model, state, g_ptr_array_index (tr->traces, i));
  ttv_state_select_machine (state, 0);
  return state;
}

static void
new_state (TtvStateTracker *tr)
{
  ttv_state_free (tr->state);
  tr->state = initial_state (tr);
  if (tr->stats)
    ttv_statistics_observe (tr->stats, tr->state);
}

TtvStateTracker *
ttv_state_tracker_new (TtvTraceset *ts, const TtvCheckpointPolicy *policy)
{
  TtvStateTracker *tr = g_new0 (TtvStateTracker, 1);
  tr->traceset = ttv_traceset_ref (ts);
  tr->traces = g_ptr_array_new ();
  for (guint i = 0; i < ttv_traceset_get_n_traces (ts); i++)
    g_ptr_array_add (tr->traces, ttv_traceset_get_trace (ts, i));
  tr->model = ttv_kernel_model_new (tr->traces);
  tr->policy.interval_events = policy && policy->interval_events ? policy->interval_events : 100000;
  tr->policy.max_memory = policy && policy->max_memory ? policy->max_memory : 256u << 20;
  tr->policy.spill_dir = policy && policy->spill_dir ? g_strdup (policy->spill_dir) : NULL;
  tr->policy.max_spill = policy && policy->max_spill ? policy->max_spill : (guint64) 1 << 30;
  tr->spill_fd = -1;
  tr->snapshot = g_byte_array_new ();
  tr->checkpoints = g_array_new (FALSE, FALSE, sizeof (Checkpoint));
  g_array_set_clear_func (tr->checkpoints, (GDestroyNotify) checkpoint_clear);
  new_state (tr);
  return tr;
}

void
ttv_state_tracker_free (TtvStateTracker *tr)
{
  if (tr == NULL)
    return;
  g_array_unref (tr->checkpoints);
  if (tr->spill_fd >= 0)
    close (tr->spill_fd);
  g_byte_array_unref (tr->snapshot);
  g_free ((char *) tr->policy.spill_dir);
  ttv_state_free (tr->state);
  ttv_statistics_free (tr->stats);
  ttv_kernel_model_free (tr->model);
  g_ptr_array_unref (tr->traces);
  ttv_traceset_unref (tr->traceset);
  g_free (tr);
}

void
ttv_state_tracker_reset (TtvStateTracker *tr)
{
  if (tr->stats)
    {
      ttv_statistics_free (tr->stats);
      tr->stats = ttv_statistics_new (tr->traces);
    }
  new_state (tr);
  tr->since_checkpoint = 0;
}

TtvState *
ttv_state_tracker_get_state (TtvStateTracker *tr)
{
  return tr->state;
}

TtvStatistics *
ttv_state_tracker_get_statistics (TtvStateTracker *tr)
{
  if (tr->stats == NULL)
    {
      tr->stats = ttv_statistics_new (tr->traces);
      ttv_statistics_observe (tr->stats, tr->state);
    }
  return tr->stats;
}

TtvStatistics *
ttv_state_tracker_steal_statistics (TtvStateTracker *tr)
{
  if (tr->stats == NULL)
    return NULL;
  /* The state observed by them is replaced by a copy, which is not. */
  TtvState *copy = ttv_state_copy (tr->state);
  ttv_state_free (tr->state);
  tr->state = copy;
  return g_steal_pointer (&tr->stats);
}

/* Drops every other checkpoint (keeping the first) and doubles the interval. */
static void
thin_checkpoints (TtvStateTracker *tr)
{
  GArray *kept = g_array_new (FALSE, FALSE, sizeof (Checkpoint));
  tr->checkpoint_memory = 0;
  for (guint i = 0; i < tr->checkpoints->len; i++)
    {
      Checkpoint *c = &g_array_index (tr->checkpoints, Checkpoint, i);
      if (i % 2 == 0)
        {
          g_array_append_val (kept, *c);
          tr->checkpoint_memory += c->memory;
        }
      else
        {
          spill_drop (tr, c);
          checkpoint_clear (c);
        }
    }
  g_array_set_clear_func (tr->checkpoints, NULL);
  g_array_unref (tr->checkpoints);
  g_array_set_clear_func (kept, (GDestroyNotify) checkpoint_clear);
  tr->checkpoints = kept;
  tr->policy.interval_events *= 2;
}

static void
take_checkpoint (TtvStateTracker *tr, TtvContext *ctx)
{
  g_autoptr (GError) error = NULL;
  TtvPosition *pos = ttv_context_get_position (ctx, &error);
  if (pos == NULL)
    return;
  Checkpoint c = { ttv_state_get_time (tr->state), pos, NULL, 0, 0, 0 };
  c.memory = sizeof c + 64 * ttv_traceset_get_n_tracefiles (tr->traceset);
  if (!spill_state (tr, &c, tr->state))
    {
      c.state = ttv_state_copy (tr->state);
      c.memory += ttv_state_get_memory_size (c.state);
    }
  g_array_append_val (tr->checkpoints, c);
  tr->checkpoint_memory += c.memory;
  tr->since_checkpoint = 0;
  while ((tr->checkpoint_memory > tr->policy.max_memory || tr->spill_live > tr->policy.max_spill)
         && tr->checkpoints->len > 2)
    thin_checkpoints (tr);
}

void
ttv_state_tracker_apply (TtvStateTracker *tr, TtvContext *ctx, guint trace_index, const TtvEvent *ev)
{
  ttv_kernel_model_apply (tr->model, tr->state, trace_index, ev);
  if (tr->stats)
    ttv_statistics_count_event (tr->stats, trace_index, ev, tr->state);
  if (tr->recording && ctx && ++tr->since_checkpoint >= tr->policy.interval_events)
    take_checkpoint (tr, ctx);
}

static G_NO_INLINE gboolean
hook_with_statistics (TtvStateTracker *tr, const TtvHookCall *call)
{
  /* Checkpoints are only taken by build(), which reads by itself. */
  ttv_state_tracker_apply (tr, NULL, call->trace, call->event);
  return FALSE;
}

gboolean
ttv_state_tracker_hook (gpointer data, gpointer call_data)
{
  TtvStateTracker *tr = data;
  const TtvHookCall *call = call_data;
  if (tr->stats)
    return hook_with_statistics (tr, call);
  /* The state alone (the state pass): out of line above, the statistics
   * keep this path from saving registers across the call. */
  ttv_kernel_model_apply (tr->model, tr->state, call->trace, call->event);
  return FALSE;
}

gboolean
ttv_state_tracker_build (TtvStateTracker *tr, void (*progress) (double, gpointer),
                         gpointer progress_data, GCancellable *cancel, GError **error)
{
  g_autoptr (TtvContext) ctx = ttv_context_new (tr->traceset, error);
  if (ctx == NULL || !ttv_context_seek_begin (ctx, error))
    return FALSE;
  g_array_set_size (tr->checkpoints, 0);
  tr->checkpoint_memory = 0;
  if (tr->spill_fd >= 0 && ftruncate (tr->spill_fd, 0) != 0)
    g_debug ("cannot empty the checkpoint file: %s", g_strerror (errno));
  tr->spill_end = tr->spill_live = 0;
  ttv_state_tracker_reset (tr);
  ttv_state_tracker_get_statistics (tr);

  /* The first checkpoint is the initial state, at the first event. */
  take_checkpoint (tr, ctx);
  tr->recording = TRUE;
  TtvTime start = ttv_traceset_get_start (tr->traceset);
  TtvTime end = ttv_traceset_get_end (tr->traceset);
  guint64 n = 0;
  const TtvEvent *ev;
  GError *local = NULL;
  while ((ev = ttv_context_next (ctx, &local)) != NULL)
    {
      guint trace = ttv_traceset_get_stream_trace (tr->traceset, ttv_context_get_stream (ctx));
      ttv_state_tracker_apply (tr, ctx, trace, ev);
      if ((++n & 0xffff) == 0)
        {
          if (g_cancellable_set_error_if_cancelled (cancel, &local))
            break;
          if (progress && end > start)
            progress ((double) (ev->time - start) / (double) (end - start), progress_data);
        }
    }
  tr->recording = FALSE;
  if (local)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  if (progress)
    progress (1.0, progress_data);
  return TRUE;
}

guint64
ttv_state_tracker_run (TtvStateTracker *tr, TtvContext *ctx, TtvTime end_time,
                       const TtvPosition *end_position, GError **error)
{
  g_autoptr (TtvHooks) hooks = ttv_hooks_new ();
  ttv_hooks_add (hooks, ttv_state_tracker_hook, tr, TTV_PRIO_STATE);
  ttv_context_process_begin (ctx, NULL, NULL, NULL, hooks, NULL);
  guint64 n = ttv_context_process_middle (ctx, end_time, TTV_CONTEXT_NO_LIMIT, end_position, error);
  ttv_context_process_end (ctx, NULL, NULL, NULL, hooks, NULL);
  return n;
}

/* Replays events from the context's position while their time is <= @time. */
static gboolean
replay_until (TtvStateTracker *tr, TtvContext *ctx, TtvTime time, GError **error)
{
  GError *local = NULL;
  ttv_state_tracker_run (tr, ctx, time, NULL, &local);
  if (local)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  return TRUE;
}

/* Runs a replay with a scratch state, leaving the tracker's own untouched. */
static TtvState *
replay_from (TtvStateTracker *tr, TtvState *start_state, const TtvPosition *pos, TtvTime time,
             GError **error)
{
  g_autoptr (TtvContext) ctx = ttv_context_new (tr->traceset, error);
  if (ctx == NULL)
    return NULL;
  if (!(pos ? ttv_context_seek_position (ctx, pos, error) : ttv_context_seek_begin (ctx, error)))
    return NULL;
  TtvState *saved = tr->state;
  tr->state = start_state;
  gboolean ok = replay_until (tr, ctx, time, error);
  TtvState *result = tr->state;
  tr->state = saved;
  if (!ok)
    {
      ttv_state_free (result);
      return NULL;
    }
  return result;
}

TtvState *
ttv_state_tracker_dup_state_at (TtvStateTracker *tr, TtvTime time, GError **error)
{
  if (tr->checkpoints->len == 0)
    return ttv_state_tracker_dup_state_by_replay (tr, time, error);
  /* Last checkpoint whose state is not past @time (the first always is). */
  guint lo = 0, hi = tr->checkpoints->len;
  while (hi - lo > 1)
    {
      guint mid = lo + (hi - lo) / 2;
      if (g_array_index (tr->checkpoints, Checkpoint, mid).time <= time)
        lo = mid;
      else
        hi = mid;
    }
  const Checkpoint *c = &g_array_index (tr->checkpoints, Checkpoint, lo);
  TtvState *state = checkpoint_state (tr, c, error);
  if (state == NULL)
    return NULL;
  return replay_from (tr, state, c->position, time, error);
}

TtvState *
ttv_state_tracker_dup_state_by_replay (TtvStateTracker *tr, TtvTime time, GError **error)
{
  return replay_from (tr, initial_state (tr), NULL, time, error);
}

guint
ttv_state_tracker_get_n_checkpoints (const TtvStateTracker *tr)
{
  return tr->checkpoints->len;
}

gsize
ttv_state_tracker_get_checkpoint_memory (const TtvStateTracker *tr)
{
  return tr->checkpoint_memory;
}

guint64
ttv_state_tracker_get_checkpoint_spill (const TtvStateTracker *tr)
{
  return tr->spill_live;
}

guint64
ttv_state_tracker_get_interval (const TtvStateTracker *tr)
{
  return tr->policy.interval_events;
}
