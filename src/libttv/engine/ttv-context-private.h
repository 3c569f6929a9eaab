/* ttv-context-private.h: the traceset context's insides, shared by the
 * reading/seeking code (ttv-context.c) and the hook processing (ttv-context-process.c). */
#pragma once

#include "ttv-context.h"
#include "ttv-merge-private.h"

G_BEGIN_DECLS

typedef gboolean (*TtvCursorNextFunc) (TtvCursor *cursor, TtvEvent *event, GError **error);

typedef struct {
  TtvEvent event;               /* the stream's next event, when !at_end */
  TtvCursor *cursor;            /* owned */
  TtvCursorNextFunc next;       /* the reader's cursor_next, cached */
  TtvTracefile *tracefile;      /* weak */
  const TtvClockCorrection *clock;  /* weak: the trace's, NULL when it has none */
  guint trace;                  /* trace index */
  gboolean at_end;
  TtvHooks **dispatch;          /* weak: event hooks per type id of this trace */
  guint n_dispatch;
} TtvStream;

typedef enum {
  TTV_CONTEXT_READY,            /* streams hold their next events */
  TTV_CONTEXT_AT_BEGIN,         /* not read yet: seek_begin on first use */
  TTV_CONTEXT_UNSET,            /* a seek failed */
  TTV_CONTEXT_FAILED,           /* reading failed: @error */
} TtvContextState;

typedef struct {
  TtvHooks *event;              /* weak: identifies the begin */
  TtvHooksById *by_id;          /* weak */
} TtvRegistration;

struct _TtvContext {
  TtvTraceset *traceset;        /* owned reference */
  guint n;                      /* streams */
  guint32 shape;                /* ttv_traceset_get_shape_hash () */
  TtvStream *streams;           /* owned, [n] */
  TtvMerge merge;
  TtvContextState state;
  /* The winner's event was delivered and its cursor not yet advanced: the
   * event stays valid until the next call. */
  gboolean pending;
  guint last_stream;
  TtvStream *current;           /* &streams[last_stream] while pending */
  gboolean in_hooks;            /* process_middle is calling event hooks */
  GError *error;                /* owned, in state FAILED */
  /* Where the streams' cursors report errors, NULL between reads: a field
   * and not a local, so that the per-event loops need no stack slot. */
  GError *read_error;
  GError **next_error;          /* ttv_context_next()'s @error, during its reader's call only */
  TtvPosition *peeked;          /* owned: ttv_context_peek_position()'s, reused */
  /* What can have moved since ctx->peeked was brought up to date, so that
   * the next peek need not compare every stream: the stream then current
   * (peeked_stream), which ttv_context_next() and ttv_context_advance()
   * move; with one replay of the merge since (replays), the stream current
   * now too; anything else that moves streams or makes another current (a
   * seek's build, process_middle, next_slow's delivery) counts in epoch and
   * makes the peek compare all.  (A failed seek or read leaves no position
   * to peek until a seek builds the merge again.) */
  guint64 epoch, replays;
  guint64 peeked_epoch, peeked_replays;
  guint peeked_stream;

  /* Processing (ttv-context-process.c) */
  GArray *registrations;        /* of TtvRegistration */
  TtvHooks *event_hooks;        /* owned: all general event lists merged; NULL if none */
  GPtrArray *owned_hooks;       /* of TtvHooks *, owned: per type lists */
  TtvHooks ***dispatch;         /* owned, per trace: [n_event_types] weak lists */
  TtvHookCall call;
};

/* Reads the failed stream's error into ctx->error (state FAILED); the
 * stream's event is still the one before (a cursor that fails leaves the
 * event's position as it was). */
void     ttv_context_fail_read (TtvContext *ctx, TtvStream *s, const TtvTracefilePosition *last,
                                GError *reader_error);
gboolean ttv_context_prepare_slow (TtvContext *ctx, GError **error);

/* The winner's cursor gave no event (@reader_error set when it failed):
 * the stream is at its end (TRUE) or the context FAILED (FALSE).  Out of
 * line: the hot loops only call it at the ends of streams. */
gboolean ttv_context_advance_none (TtvContext *ctx, TtvStream *s, GError *reader_error);

TtvTime  ttv_stream_correct_time (TtvStream *s);

/* @s read its next event: its time, corrected where the trace has a
 * clock correction (out of line: the per-event loops then keep fewer
 * values across the call). */
G_ALWAYS_INLINE static inline TtvTime
ttv_stream_corrected_time (TtvStream *s)
{
  if (G_UNLIKELY (s->clock != NULL))
    return ttv_stream_correct_time (s);
  return s->event.time;
}

/* The winner @s read its next event: in corrected time, into the merge. */
G_ALWAYS_INLINE static inline void
ttv_context_advanced (TtvContext *ctx, TtvStream *s)
{
  ttv_merge_advance (&ctx->merge, ttv_stream_corrected_time (s));
}

/* The event of stream @w, the merge's winner, is delivered. */
static inline void
ttv_context_set_pending (TtvContext *ctx, guint w)
{
  ctx->pending = TRUE;
  ctx->last_stream = w;
  ctx->current = &ctx->streams[w];
}

/* Moves the delivered stream's cursor to its next event. */
G_ALWAYS_INLINE static inline gboolean
ttv_context_advance (TtvContext *ctx)
{
  TtvStream *s = ctx->current;
  ctx->pending = FALSE;
  if (G_UNLIKELY (!s->next (s->cursor, &s->event, &ctx->read_error)))
    return ttv_context_advance_none (ctx, s, g_steal_pointer (&ctx->read_error));
  ttv_context_advanced (ctx, s);
  return TRUE;
}

/* Makes the streams hold their next events (READY, nothing pending). */
G_ALWAYS_INLINE static inline gboolean
ttv_context_prepare (TtvContext *ctx, GError **error)
{
  if (G_UNLIKELY (ctx->state != TTV_CONTEXT_READY))
    return ttv_context_prepare_slow (ctx, error);
  if (ctx->pending && !ttv_context_advance (ctx))
    {
      g_propagate_error (error, g_error_copy (ctx->error));
      return FALSE;
    }
  return TRUE;
}

void     ttv_context_process_clear (TtvContext *ctx);

G_END_DECLS
