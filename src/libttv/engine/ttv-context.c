/* ttv-context.c: the traceset context: one cursor per tracefile, merged in
 * (time, stream) order, seek by time and by position.  Used by CLI, GUI, state. */
#include "ttv-context-private.h"
#include "ttv-position-bytes.h"
#include "ttv-error.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>

TtvContext *
ttv_context_new (TtvTraceset *ts, GError **error)
{
  g_return_val_if_fail (ts != NULL, NULL);
  g_autoptr (TtvContext) ctx = g_new0 (TtvContext, 1);
  ctx->traceset = ttv_traceset_ref (ts);
  ctx->n = ttv_traceset_get_n_tracefiles (ts);
  ctx->shape = ttv_traceset_get_shape_hash (ts);
  ctx->streams = g_new0 (TtvStream, ctx->n);
  ttv_merge_init (&ctx->merge, ctx->n);
  ctx->state = TTV_CONTEXT_AT_BEGIN;
  ctx->registrations = g_array_new (FALSE, FALSE, sizeof (TtvRegistration));
  ctx->owned_hooks = g_ptr_array_new_with_free_func ((GDestroyNotify) ttv_hooks_free);
  ctx->call.context = ctx;
  for (guint i = 0; i < ctx->n; i++)
    {
      TtvStream *s = &ctx->streams[i];
      s->tracefile = ttv_traceset_get_tracefile (ts, i);
      s->trace = ttv_traceset_get_stream_trace (ts, i);
      s->at_end = TRUE;
      s->clock = ttv_clock_correction_is_identity (&s->tracefile->trace->clock) ? NULL
                                                                                : &s->tracefile->trace->clock;
      s->cursor = ttv_cursor_new (s->tracefile, error);
      if (s->cursor == NULL)
        return NULL;
      /* The reader itself in the hot loop, unless damage is to be skipped;
       * s->event is the only event handed to it, and only its time is
       * written here (the clock correction). */
      const TtvFormatClass *format = s->tracefile->trace->format;
      s->next = s->tracefile->trace->damage ? ttv_cursor_next
                : format->cursor_next_kept ? format->cursor_next_kept
                                           : format->cursor_next;
    }
  return g_steal_pointer (&ctx);
}

void
ttv_context_free (TtvContext *ctx)
{
  if (ctx == NULL)
    return;
  ttv_context_process_clear (ctx);
  g_array_unref (ctx->registrations);
  g_ptr_array_unref (ctx->owned_hooks);
  for (guint i = 0; i < ctx->n; i++)
    if (ctx->streams[i].cursor)
      ttv_cursor_free (ctx->streams[i].cursor);
  g_free (ctx->streams);
  ttv_merge_clear (&ctx->merge);
  g_clear_error (&ctx->error);
  ttv_position_free (ctx->peeked);
  ttv_traceset_unref (ctx->traceset);
  g_free (ctx);
}

TtvTraceset *
ttv_context_get_traceset (const TtvContext *ctx)
{
  g_return_val_if_fail (ctx != NULL, NULL);
  return ctx->traceset;
}

static const char *
stream_trace_name (const TtvStream *s)
{
  const TtvTrace *t = s->tracefile->trace;
  return t->display_path ? t->display_path : t->name ? t->name : "?";
}

void
ttv_context_fail_read (TtvContext *ctx, TtvStream *s, const TtvTracefilePosition *last,
                       GError *reader_error)
{
  g_clear_error (&ctx->error);
  g_set_error (&ctx->error, TTV_ENGINE_ERROR, TTV_ENGINE_ERROR_READ,
               _("%s: tracefile %s: reading after the event at block %" PRIu64
                 ", offset %" PRIu64 ": %s"),
               stream_trace_name (s), s->tracefile->name, last->block, last->offset,
               reader_error->message);
  g_error_free (reader_error);
  ctx->state = TTV_CONTEXT_FAILED;
  ctx->pending = FALSE;
}

gboolean
ttv_context_advance_none (TtvContext *ctx, TtvStream *s, GError *reader_error)
{
  ctx->pending = FALSE;
  if (G_UNLIKELY (reader_error != NULL))
    {
      ttv_context_fail_read (ctx, s, &s->event.pos, reader_error);
      return FALSE;
    }
  s->at_end = TRUE;
  ttv_merge_advance_end (&ctx->merge);
  return TRUE;
}

G_NO_INLINE TtvTime
ttv_stream_correct_time (TtvStream *s)
{
  s->event.time = ttv_clock_correction_apply (s->clock, s->event.time);
  return s->event.time;
}

/* Fills stream @s with its next event after a cursor seek. */
static gboolean
stream_load (TtvContext *ctx, TtvStream *s, GError **error)
{
  GError *local = NULL;
  s->at_end = !s->next (s->cursor, &s->event, &local);
  if (!s->at_end)
    ttv_stream_corrected_time (s);
  if (local)
    {
      g_set_error (error, TTV_ENGINE_ERROR, TTV_ENGINE_ERROR_READ,
                   _("%s: tracefile %s: %s"), stream_trace_name (s), s->tracefile->name,
                   local->message);
      g_error_free (local);
      return FALSE;
    }
  return TRUE;
}

static void
build (TtvContext *ctx)
{
  g_autofree TtvMergeKey *keys = g_new (TtvMergeKey, MAX (ctx->n, 1));
  for (guint i = 0; i < ctx->n; i++)
    {
      const TtvStream *s = &ctx->streams[i];
      keys[i] = s->at_end ? TTV_MERGE_KEY (TTV_TIME_MAX, TTV_MERGE_RANK_END | i)
                          : TTV_MERGE_KEY (s->event.time, i);
    }
  ttv_merge_build (&ctx->merge, keys);
  ctx->epoch++;
  ctx->pending = FALSE;
  ctx->state = TTV_CONTEXT_READY;
  g_clear_error (&ctx->error);
}

gboolean
ttv_context_seek_time (TtvContext *ctx, TtvTime time, GError **error)
{
  g_return_val_if_fail (ctx != NULL && !ctx->in_hooks, FALSE);
  ctx->state = TTV_CONTEXT_UNSET;
  ctx->pending = FALSE;
  for (guint i = 0; i < ctx->n; i++)
    {
      TtvStream *s = &ctx->streams[i];
      GError *local = NULL;
      /* The first event at or after @time in corrected time is the first
       * at or after its inverse in the trace's own clock. */
      TtvTime own = s->clock ? ttv_clock_correction_invert (s->clock, time) : time;
      if (!ttv_cursor_seek_time (s->cursor, own, &local))
        {
          g_set_error (error, TTV_ENGINE_ERROR, TTV_ENGINE_ERROR_READ,
                       _("%s: tracefile %s: %s"), stream_trace_name (s), s->tracefile->name,
                       local ? local->message : _("seek failed"));
          g_clear_error (&local);
          return FALSE;
        }
      if (!stream_load (ctx, s, error))
        return FALSE;
    }
  build (ctx);
  return TRUE;
}

gboolean
ttv_context_seek_begin (TtvContext *ctx, GError **error)
{
  return ttv_context_seek_time (ctx, TTV_TIME_MIN, error);
}

static gboolean
bad_position (GError **error, const TtvStream *s, const char *why)
{
  g_set_error (error, TTV_ENGINE_ERROR, TTV_ENGINE_ERROR_BAD_POSITION,
               _("%s: tracefile %s: the position does not match this trace: %s"),
               stream_trace_name (s), s->tracefile->name, why);
  return FALSE;
}

gboolean
ttv_context_seek_position (TtvContext *ctx, const TtvPosition *pos, GError **error)
{
  g_return_val_if_fail (ctx != NULL && pos != NULL && !ctx->in_hooks, FALSE);
  guint32 shape = ctx->shape;
  if (pos->n != ctx->n || pos->shape != shape)
    {
      g_set_error (error, TTV_ENGINE_ERROR, TTV_ENGINE_ERROR_BAD_POSITION,
                   _("The position was saved for another traceset (%u tracefiles, shape %08x; "
                     "this one has %u tracefiles, shape %08x)"),
                   pos->n, pos->shape, ctx->n, shape);
      return FALSE;
    }
  ctx->state = TTV_CONTEXT_UNSET;
  ctx->pending = FALSE;
  for (guint i = 0; i < ctx->n; i++)
    {
      TtvStream *s = &ctx->streams[i];
      const TtvPositionEntry *e = &pos->tf[i];
      if (e->at_end)
        {
          /* The cursor is not read again before the next seek. */
          s->at_end = TRUE;
          continue;
        }
      GError *local = NULL;
      if (!ttv_cursor_seek_position (s->cursor, &e->pos, &local))
        {
          gboolean r = bad_position (error, s, local ? local->message : _("seek failed"));
          g_clear_error (&local);
          return r;
        }
      if (!stream_load (ctx, s, error))
        return FALSE;
      if (s->at_end)
        return bad_position (error, s, _("no event there"));
      if (ttv_tracefile_position_compare (&s->event.pos, &e->pos) != 0
          || s->event.pos.index != e->pos.index)
        return bad_position (error, s, _("no event starts there"));
    }
  build (ctx);
  /* The saved next event must be the one the merge finds. */
  gboolean end = ttv_merge_at_end (&ctx->merge);
  if (end != (pos->next >= pos->n)
      || (!end && (ttv_merge_winner (&ctx->merge) != pos->next
                   || ctx->streams[pos->next].event.time != pos->next_time)))
    {
      ctx->state = TTV_CONTEXT_UNSET;
      g_set_error (error, TTV_ENGINE_ERROR, TTV_ENGINE_ERROR_BAD_POSITION,
                   _("The position does not match the events of this traceset"));
      return FALSE;
    }
  return TRUE;
}

gboolean
ttv_context_prepare_slow (TtvContext *ctx, GError **error)
{
  switch (ctx->state)
    {
    case TTV_CONTEXT_READY:
      return ttv_context_prepare (ctx, error);
    case TTV_CONTEXT_AT_BEGIN:
      return ttv_context_seek_begin (ctx, error) && ttv_context_prepare (ctx, error);
    case TTV_CONTEXT_UNSET:
      g_set_error (error, TTV_ENGINE_ERROR, TTV_ENGINE_ERROR_BAD_POSITION,
                   _("The traceset has no current position: the last seek failed"));
      return FALSE;
    case TTV_CONTEXT_FAILED:
    default:
      g_propagate_error (error, g_error_copy (ctx->error));
      return FALSE;
    }
}

const TtvEvent *
ttv_context_peek (TtvContext *ctx, GError **error)
{
  g_return_val_if_fail (ctx != NULL && !ctx->in_hooks, NULL);
  if (!ttv_context_prepare (ctx, error) || ttv_merge_at_end (&ctx->merge))
    return NULL;
  ctx->last_stream = ttv_merge_winner (&ctx->merge);
  return &ctx->streams[ctx->last_stream].event;
}

/* Delivers the winner's event (the merge is not at its end). */
G_ALWAYS_INLINE static inline const TtvEvent *
deliver (TtvContext *ctx)
{
  ttv_context_set_pending (ctx, ttv_merge_winner (&ctx->merge));
  return &ctx->current->event;
}

static G_NO_INLINE const TtvEvent *
next_slow (TtvContext *ctx, GError **error)
{
  g_return_val_if_fail (ctx != NULL && !ctx->in_hooks, NULL);
  ctx->epoch++;
  if (!ttv_context_prepare (ctx, error) || ttv_merge_at_end (&ctx->merge))
    return NULL;
  return deliver (ctx);
}

/* The winner's cursor gave no event: its end, or an error. */
static G_NO_INLINE const TtvEvent *
next_none (TtvContext *ctx)
{
  GError **error = ctx->next_error;
  if (!ttv_context_advance_none (ctx, ctx->current, g_steal_pointer (&ctx->read_error)))
    {
      g_propagate_error (error, g_error_copy (ctx->error));
      return NULL;
    }
  return next_slow (ctx, error);
}

/* The winner's next event is at @t, after another stream's. */
static G_NO_INLINE const TtvEvent *
next_replay (TtvContext *ctx, TtvTime t)
{
  ttv_merge_step (&ctx->merge, t);
  ctx->replays++;
  return deliver (ctx);
}

/* ttv_context_next() after stream @s read its event, in a trace with a
 * clock correction. */
static G_NO_INLINE const TtvEvent *
next_corrected (TtvContext *ctx, TtvStream *s)
{
  TtvTime t = ttv_stream_correct_time (s);
  if (ttv_merge_stays (&ctx->merge, t))
    return &s->event;
  return next_replay (ctx, t);
}

/* Per event of every merged read: kept to the common case, the stream of
 * the event delivered last reading its next one (with which the merge
 * cannot be at its end) and staying the oldest, so that it saves one
 * register and needs no stack frame (the stream is loaded again after the
 * reader's call and @error kept in the context); the merge's replay when
 * another stream wins takes next_replay(), a clock correction
 * next_corrected(), ends, errors, the first event after a seek and calls
 * from hooks next_slow(). */
const TtvEvent *
ttv_context_next (TtvContext *ctx, GError **error)
{
  /* pending implies READY: every change of state clears it.  A NULL
   * context and a call from a hook (pending there too) are refused by
   * next_slow(). */
  if (G_UNLIKELY (ctx == NULL || !ctx->pending || ctx->in_hooks))
    return next_slow (ctx, error);
  TtvStream *s = ctx->current;
  ctx->next_error = error;
  if (G_UNLIKELY (!s->next (s->cursor, &s->event, &ctx->read_error)))
    return next_none (ctx);
  s = ctx->current;
  if (G_UNLIKELY (s->clock != NULL))
    return next_corrected (ctx, s);
  TtvTime t = s->event.time;
  /* The same stream still holds the oldest event: the merge, pending,
   * last_stream and current (the winner's while pending) are as they
   * were. */
  if (G_LIKELY (ttv_merge_stays (&ctx->merge, t)))
    return &s->event;
  return next_replay (ctx, t);
}

guint
ttv_context_get_stream (const TtvContext *ctx)
{
  g_return_val_if_fail (ctx != NULL, 0);
  return ctx->last_stream;
}

/* The next event's stream and time of @p: the merge's winner. */
static void
set_next (const TtvContext *ctx, TtvPosition *p)
{
  p->next = ctx->n;
  p->next_time = TTV_TIME_MAX;
  if (!ttv_merge_at_end (&ctx->merge))
    {
      p->next = ttv_merge_winner (&ctx->merge);
      p->next_time = ctx->streams[p->next].event.time;
    }
}

/* Fills @p, made for ctx->n tracefiles, with where the context is. */
static void
snapshot_into (const TtvContext *ctx, TtvPosition *p)
{
  p->shape = ctx->shape;
  for (guint i = 0; i < ctx->n; i++)
    ttv_position_set_entry (p, i, ctx->streams[i].at_end, &ctx->streams[i].event.pos);
  set_next (ctx, p);
}

/* Brings @p, the peeked position, to where the context is, with its
 * token's bytes (ttv-position-bytes.h): between two peeks of a report only
 * the stream of the event printed moves, and only its bytes and the next
 * time's are rewritten. */
static inline void
refresh_entry (const TtvContext *ctx, TtvPosition *p, guint i)
{
  const TtvStream *s = &ctx->streams[i];
  if (ttv_position_set_entry (p, i, s->at_end, &s->event.pos))
    ttv_position_bytes_put_entry (p->bytes, i, &p->tf[i]);
}

/* Brings the entries of @p, ctx->peeked, up to date: those of the streams
 * that can have moved since the last peek (see TtvContext), else all. */
static void
refresh_entries (const TtvContext *ctx, TtvPosition *p)
{
  if (ctx->epoch == ctx->peeked_epoch && ctx->replays - ctx->peeked_replays <= 1 && ctx->current != NULL)
    {
      guint now = (guint) (ctx->current - ctx->streams);
      refresh_entry (ctx, p, ctx->peeked_stream);
      if (now != ctx->peeked_stream)
        refresh_entry (ctx, p, now);
      return;
    }
  for (guint i = 0; i < ctx->n; i++)
    refresh_entry (ctx, p, i);
}

/* ctx->peeked is up to date: what moves from now on is counted from here. */
static void
peeked_now (TtvContext *ctx)
{
  ctx->peeked_replays = ctx->replays;
  /* Without a current stream, the next peek compares all. */
  ctx->peeked_epoch = ctx->current != NULL ? ctx->epoch : ctx->epoch - 1;
  ctx->peeked_stream = ctx->current != NULL ? (guint) (ctx->current - ctx->streams) : 0;
}

static void
refresh_peeked (TtvContext *ctx, TtvPosition *p)
{
  refresh_entries (ctx, p);
  set_next (ctx, p);
  ttv_position_bytes_put_next (p->bytes, p);
  peeked_now (ctx);
}

static TtvPosition *
snapshot (const TtvContext *ctx)
{
  TtvPosition *p = ttv_position_alloc (ctx->n);
  snapshot_into (ctx, p);
  return p;
}

TtvPosition *
ttv_context_get_position (TtvContext *ctx, GError **error)
{
  g_return_val_if_fail (ctx != NULL && !ctx->in_hooks, NULL);
  if (!ttv_context_prepare (ctx, error))
    return NULL;
  return snapshot (ctx);
}

/* ctx->peeked, brought to where the context is. */
static const TtvPosition *
peek_here (TtvContext *ctx)
{
  if (ctx->peeked == NULL || ctx->peeked->n != ctx->n)
    {
      ttv_position_free (ctx->peeked);
      ctx->peeked = ttv_position_alloc (ctx->n);
      snapshot_into (ctx, ctx->peeked);
      ctx->peeked->bytes = ttv_position_bytes_new (ctx->n);
      ttv_position_bytes_lay_out (ctx->peeked->bytes, ctx->peeked);
      peeked_now (ctx);
      return ctx->peeked;
    }
  refresh_peeked (ctx, ctx->peeked);
  return ctx->peeked;
}

const TtvPosition *
ttv_context_peek_position (TtvContext *ctx, GError **error)
{
  g_return_val_if_fail (ctx != NULL && !ctx->in_hooks, NULL);
  if (!ttv_context_prepare (ctx, error))
    return NULL;
  return peek_here (ctx);
}

const TtvPosition *
ttv_context_peek_event_position (TtvContext *ctx)
{
  g_return_val_if_fail (ctx != NULL, NULL);
  /* As ttv_context_get_event_position (). */
  if (ctx->state != TTV_CONTEXT_READY)
    return NULL;
  return peek_here (ctx);
}

TtvPosition *
ttv_context_get_event_position (const TtvContext *ctx)
{
  g_return_val_if_fail (ctx != NULL, NULL);
  /* While an event is pending the merge has not moved: its stream still
   * holds it and is still the winner. */
  if (ctx->state != TTV_CONTEXT_READY)
    return NULL;
  return snapshot (ctx);
}
