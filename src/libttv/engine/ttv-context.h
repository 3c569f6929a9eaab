/* ttv-context.h: the traceset context (seed 003): merged reading of every
 * tracefile of a traceset in time order, seek by time and by position, and
 * hook-driven processing (begin / middle / end).  Used by the CLI, the GUI,
 * state and statistics. */
#pragma once

#include "ttv-hooks.h"
#include "ttv-position.h"
#include "ttv-traceset.h"

G_BEGIN_DECLS

typedef struct _TtvContext TtvContext;

/* What every hook the context calls receives as call_data. */
typedef struct {
  TtvContext *context;
  const TtvEvent *event;        /* the event (middle); NULL for begin/end hooks */
  guint trace;                  /* trace index; G_MAXUINT in traceset-level hooks */
  guint stream;                 /* tracefile index in the traceset; G_MAXUINT in
                                 * traceset- and trace-level hooks */
} TtvHookCall;

/* Merged order: events by time; equal times by (trace index, tracefile
 * index), then file order.  So the order, and every position, is the same
 * every time the traceset is read. */
TtvContext *ttv_context_new (TtvTraceset *ts, GError **error);   /* refs @ts */
void        ttv_context_free (TtvContext *ctx);
TtvTraceset *ttv_context_get_traceset (const TtvContext *ctx);   /* borrowed */

/* A new context is at the beginning.  After a failed seek the context has
 * no position: reading fails until a seek succeeds. */
gboolean    ttv_context_seek_begin (TtvContext *ctx, GError **error);
/* Next event: the first at or after @time (each tracefile seeks with its
 * own index; never a scan from the start). */
gboolean    ttv_context_seek_time (TtvContext *ctx, TtvTime time, GError **error);
/* Restores a position exactly (event granularity).
 * TTV_ENGINE_ERROR_BAD_POSITION when it does not belong to this traceset. */
gboolean    ttv_context_seek_position (TtvContext *ctx, const TtvPosition *pos, GError **error);

/* The next event, and moves past it; NULL at the end (error unset) or on
 * error (TTV_ENGINE_ERROR_READ naming trace, tracefile and place).  The
 * event is valid until the context moves. */
const TtvEvent *ttv_context_next (TtvContext *ctx, GError **error);
/* The next event without moving past it. */
const TtvEvent *ttv_context_peek (TtvContext *ctx, GError **error);
/* The stream (tracefile index in the traceset) of the event last returned
 * by next() or peek(); its trace is ttv_traceset_get_stream_trace(). */
guint       ttv_context_get_stream (const TtvContext *ctx);
/* The position of the next event to be delivered; NULL on error.  Reads
 * ahead in one tracefile, so not allowed inside event hooks. */
TtvPosition *ttv_context_get_position (TtvContext *ctx, GError **error);
/* The same, owned by the context and valid until the next call: a report
 * writes one per event. */
const TtvPosition *ttv_context_peek_position (TtvContext *ctx, GError **error);
/* The position of the event last returned by next() or peek(), or being
 * delivered to the event hooks (seeking there makes it the next event
 * again): what a state checkpoint records.  Never reads; NULL when the
 * context has no position (before the first read, after a failure). */
TtvPosition *ttv_context_get_event_position (const TtvContext *ctx);
/* The same, owned by the context and valid until the next call of it or of
 * ttv_context_peek_position(): a report takes the position of each event
 * after ttv_context_next() has returned it, without reading again. */
const TtvPosition *ttv_context_peek_event_position (TtvContext *ctx);

/* --- Processing with hooks (ttv-context-process.c) ----------------------------- */

/* Event hooks must not move the context (next, peek, seek, get_position,
 * process_middle): they get a critical warning and a failure. */

/* Adds @event and @event_by_id to the hooks called for each event, then
 * calls before_traceset once, before_trace per trace, before_tracefile per
 * tracefile.  Several begins may be active: their event hooks are merged in
 * priority order (equal priority: earlier begin first, and within one begin
 * the general list before the by-id lists).  The lists are read at begin:
 * hooks added to them later take effect at the next begin.  Any argument
 * may be NULL. */
void        ttv_context_process_begin (TtvContext *ctx,
                                       TtvHooks *before_traceset,
                                       TtvHooks *before_trace,
                                       TtvHooks *before_tracefile,
                                       TtvHooks *event,
                                       TtvHooksById *event_by_id);

#define TTV_CONTEXT_NO_LIMIT G_MAXUINT64

/* Delivers events to the event hooks until the first of:
 * - the next event's time is > @end_time (inclusive bound: events at
 *   exactly @end_time are delivered; TTV_TIME_MAX for no bound);
 * - @max_events events were delivered (TTV_CONTEXT_NO_LIMIT for no bound);
 * - the next event is at or after @end_position (that event is not
 *   delivered; NULL for no bound);
 * - a hook returned TRUE (that event counts as delivered, the context is
 *   after it);
 * - the end of the traceset, or an error (@error set).
 * Returns the number of events delivered; the context is left at the
 * resume point (ttv_context_get_position()). */
guint64     ttv_context_process_middle (TtvContext *ctx, TtvTime end_time, guint64 max_events,
                                        const TtvPosition *end_position, GError **error);
/* Calls after_tracefile per tracefile, after_trace per trace, then
 * after_traceset, and removes the event hooks that the begin with the same
 * @event and @event_by_id added. */
void        ttv_context_process_end (TtvContext *ctx,
                                     TtvHooks *after_traceset,
                                     TtvHooks *after_trace,
                                     TtvHooks *after_tracefile,
                                     TtvHooks *event,
                                     TtvHooksById *event_by_id);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvContext, ttv_context_free)

G_END_DECLS
