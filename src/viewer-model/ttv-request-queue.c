/* ttv-request-queue.c: the servicing of viewers' event requests (see
 * ttv-request-queue.h): one idle round serves the head request a chunk of
 * events (8 ms or 4096 events at most, so that drawing and input keep up),
 * then moves it to the back when others wait; a request tracking the
 * system state starts from the nearest checkpoint of the tab's analysis. */
#include "ttv-config.h"

#include "ttv-request-queue.h"

#include "ttv-event-reader.h"
#include "ttv-kernel-model.h"
#include "ttv-position.h"
#include "ttv-tab-analysis.h"
#include "ttv-tab-state-private.h"

#define CHUNK_USEC 8000
#define CHUNK_EVENTS 4096

typedef enum {
  REQUEST_RANGE,
  REQUEST_FROM_POSITION,
} RequestKind;

/* Reference counted: the queue holds one until the request finishes
 * (ttv-viewer-request.h: valid until its done callback returns, longer
 * for a holder of a reference). */
struct _TtvEventRequest {
  gint ref_count;
  TtvRequestQueue *queue;        /* weak, NULL once finished */
  gpointer owner;                /* weak, compared only */
  RequestKind kind;
  TtvTime start, end;
  guint64 max_events;            /* 0: no limit */
  guint64 delivered;
  TtvViewerPosition *pos;        /* owned: start, then resume point */
  gboolean skip_one;             /* resuming: pos is the last delivered event */
  gboolean in_delivery;
  gboolean cancelled;
  gboolean finished;             /* its done callback has run */
  TtvRequestFlags flags;
  TtvEventFunc event_func;
  TtvRequestDoneFunc done_func;
  gpointer user_data;
  GDestroyNotify destroy;
  TtvState *sys_state;           /* owned: TTV_REQUEST_WITH_STATE, once the state is ready */
  const TtvEvent *current;       /* weak: the event being delivered */
};

struct _TtvRequestQueue {
  TtvTabState *state;            /* weak: the owner */
  GQueue requests;               /* of TtvEventRequest *, a reference each */
  TtvEventReader *reader;        /* owned, created on first use */
  TtvEventRequest *positioned;   /* weak: the request the reader is positioned for */
  guint idle_id;
  gboolean shut_down;
};

TtvRequestQueue *
ttv_request_queue_new (TtvTabState *state)
{
  TtvRequestQueue *q = g_new0 (TtvRequestQueue, 1);

  q->state = state;
  g_queue_init (&q->requests);
  return q;
}

void
ttv_request_queue_free (TtvRequestQueue *q)
{
  if (!q)
    return;
  ttv_request_queue_shutdown (q);
  g_clear_pointer (&q->reader, ttv_event_reader_free);
  g_free (q);
}

void
ttv_request_queue_drop_reader (TtvRequestQueue *q)
{
  g_clear_pointer (&q->reader, ttv_event_reader_free);
  q->positioned = NULL;
}

guint
ttv_request_queue_get_length (TtvRequestQueue *q)
{
  return q->requests.length;
}

/* --- A request's life ------------------------------------------------------------ */

TtvEventRequest *
ttv_event_request_ref (TtvEventRequest *req)
{
  g_return_val_if_fail (req != NULL, NULL);
  g_atomic_int_inc (&req->ref_count);
  return req;
}

void
ttv_event_request_unref (TtvEventRequest *req)
{
  if (req && g_atomic_int_dec_and_test (&req->ref_count))
    g_free (req);
}

gboolean
ttv_event_request_is_finished (TtvEventRequest *req)
{
  g_return_val_if_fail (req != NULL, TRUE);
  return req->finished;
}

/* Takes the request out of the queue, calls its done callback, frees what
 * it holds and drops the queue's reference. */
static void
request_finish (TtvEventRequest *req, TtvRequestStatus status, const GError *error)
{
  TtvRequestQueue *q = req->queue;

  g_queue_remove (&q->requests, req);
  if (q->positioned == req)
    q->positioned = NULL;
  req->finished = TRUE;
  if (req->done_func)
    req->done_func (req, status, error, req->user_data);
  if (req->destroy)
    req->destroy (req->user_data);
  g_clear_pointer (&req->pos, ttv_viewer_position_free);
  g_clear_pointer (&req->sys_state, ttv_state_free);
  req->queue = NULL;
  req->event_func = NULL;
  req->done_func = NULL;
  req->destroy = NULL;
  req->user_data = NULL;
  ttv_event_request_unref (req);
}

void
ttv_event_request_cancel (TtvEventRequest *req)
{
  g_return_if_fail (req != NULL);

  if (req->finished)
    return;
  if (req->in_delivery)
    req->cancelled = TRUE;
  else
    request_finish (req, TTV_REQUEST_CANCELLED, NULL);
}

void
ttv_request_queue_cancel (TtvRequestQueue *q, gpointer owner, TtvRequestFlags flags, gboolean all)
{
  /* Copy first: done callbacks may queue new requests, or cancel others
   * of the victims (held meanwhile: cancelling them again does nothing). */
  g_autoptr (GPtrArray) victims = g_ptr_array_new_with_free_func ((GDestroyNotify) ttv_event_request_unref);

  for (GList *l = q->requests.head; l; l = l->next)
    {
      TtvEventRequest *req = l->data;

      if (all || (owner && req->owner == owner) || (req->flags & flags))
        g_ptr_array_add (victims, ttv_event_request_ref (req));
    }
  for (guint i = 0; i < victims->len; i++)
    ttv_event_request_cancel (victims->pdata[i]);
}

void
ttv_request_queue_shutdown (TtvRequestQueue *q)
{
  q->shut_down = TRUE;
  ttv_request_queue_cancel (q, NULL, 0, TRUE);
  g_clear_handle_id (&q->idle_id, g_source_remove);
}

gboolean
ttv_request_queue_is_shut_down (TtvRequestQueue *q)
{
  return q->shut_down;
}

/* --- Queueing (the SDK's entry points) ---------------------------------------------- */

static gboolean serve_idle (gpointer data);

static TtvEventRequest *
request_new (TtvRequestQueue *q, gpointer owner, TtvRequestFlags flags, TtvEventFunc event_func,
             TtvRequestDoneFunc done_func, gpointer user_data, GDestroyNotify destroy)
{
  TtvEventRequest *req;

  if (flags & TTV_REQUEST_REPLACE && owner)
    ttv_request_queue_cancel (q, owner, 0, FALSE);
  req = g_new0 (TtvEventRequest, 1);
  req->ref_count = 1;
  req->queue = q;
  req->owner = owner;
  req->flags = flags;
  req->event_func = event_func;
  req->done_func = done_func;
  req->user_data = user_data;
  req->destroy = destroy;
  return req;
}

static TtvEventRequest *
request_queue (TtvRequestQueue *q, TtvEventRequest *req)
{
  g_queue_push_tail (&q->requests, req);
  if (q->shut_down)
    {
      /* Still exactly one done call. */
      request_finish (req, TTV_REQUEST_CANCELLED, NULL);
      return NULL;
    }
  if (!q->idle_id)
    q->idle_id = g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, serve_idle, q, NULL);
  return req;
}

TtvEventRequest *
ttv_tab_state_request_time_range (TtvTabState *state, gpointer owner, TtvTime start, TtvTime end,
                                  guint64 max_events, TtvRequestFlags flags,
                                  TtvEventFunc event_func, TtvRequestDoneFunc done_func,
                                  gpointer user_data, GDestroyNotify destroy)
{
  TtvEventRequest *req;

  g_return_val_if_fail (TTV_IS_TAB_STATE (state), NULL);
  g_return_val_if_fail (event_func != NULL, NULL);

  req = request_new (ttv_tab_state_get_request_queue (state), owner, flags, event_func, done_func,
                     user_data, destroy);
  req->kind = REQUEST_RANGE;
  req->start = start;
  req->end = end;
  req->max_events = max_events;
  return request_queue (req->queue, req);
}

TtvEventRequest *
ttv_tab_state_request_from_position (TtvTabState *state, gpointer owner,
                                     const TtvViewerPosition *pos, guint64 n_events,
                                     TtvRequestFlags flags, TtvEventFunc event_func,
                                     TtvRequestDoneFunc done_func, gpointer user_data,
                                     GDestroyNotify destroy)
{
  TtvEventRequest *req;

  g_return_val_if_fail (TTV_IS_TAB_STATE (state), NULL);
  g_return_val_if_fail (event_func != NULL, NULL);

  req = request_new (ttv_tab_state_get_request_queue (state), owner, flags, event_func, done_func,
                     user_data, destroy);
  req->kind = REQUEST_FROM_POSITION;
  req->pos = ttv_viewer_position_copy (pos);
  req->start = TTV_TIME_MIN;
  req->end = TTV_TIME_MAX;
  req->max_events = n_events;
  return request_queue (req->queue, req);
}

void
ttv_tab_state_cancel_requests (TtvTabState *state, gpointer owner)
{
  g_return_if_fail (TTV_IS_TAB_STATE (state));
  if (owner)
    ttv_request_queue_cancel (ttv_tab_state_get_request_queue (state), owner, 0, FALSE);
}

/* --- What a delivered event's callback may ask ---------------------------------------- */

TtvViewerPosition *
ttv_event_request_dup_position (TtvEventRequest *req)
{
  g_return_val_if_fail (req != NULL, NULL);
  g_return_val_if_fail (req->in_delivery, NULL);
  return (TtvViewerPosition *) ttv_event_reader_dup_event_position (req->queue->reader);
}

gboolean
ttv_event_request_get_process (TtvEventRequest *req, TtvViewerProcessInfo *info)
{
  g_return_val_if_fail (req != NULL && info != NULL, FALSE);
  return ttv_tab_analysis_fill_process_info (req->current ? req->sys_state : NULL,
                                             req->current ? req->current->tracefile->cpu : -1, info);
}

const TtvState *
ttv_event_request_get_state (TtvEventRequest *req)
{
  return req->sys_state;
}

/* --- Serving ------------------------------------------------------------------------ */

static TtvTraceset *
traceset_of (TtvRequestQueue *q)
{
  return ttv_tab_state_get_traceset (q->state);
}

static guint
trace_index_of (TtvRequestQueue *q, const TtvEvent *ev)
{
  TtvTraceset *ts = traceset_of (q);
  guint n = ttv_traceset_get_n_traces (ts);

  for (guint i = 0; i < n; i++)
    if (ttv_traceset_get_trace (ts, i) == ev->tracefile->trace)
      return i;
  return 0;
}

/* The state just before the event at @pos: the state at the time before
 * it (nearest checkpoint and replay), then the events of the same time that
 * come before it in traceset order. */
static TtvState *
dup_state_before (TtvRequestQueue *q, TtvTabAnalysis *analysis, const TtvPosition *pos, GError **error)
{
  TtvTraceset *ts = traceset_of (q);
  TtvTime t0 = ttv_position_get_time (pos);
  g_autoptr (TtvState) state = ttv_shared_tracker_dup_state_at (ttv_tab_analysis_get_shared (analysis),
                                                                t0 == TTV_TIME_MIN ? t0 : t0 - 1,
                                                                error);
  g_autoptr (TtvContext) ctx = NULL;

  if (!state)
    return NULL;
  ctx = ttv_context_new (ts, error);
  if (!ctx || !ttv_context_seek_time (ctx, t0, error))
    return NULL;
  for (guint guard = 0; guard < 1000000; guard++)
    {
      g_autoptr (TtvPosition) here = ttv_context_get_position (ctx, NULL);
      const TtvEvent *ev;
      GError *local = NULL;

      if (!here || ttv_position_compare (here, pos) >= 0)
        break;
      ev = ttv_context_next (ctx, &local);
      if (!ev)
        {
          if (local)
            {
              g_propagate_error (error, local);
              return NULL;
            }
          break;
        }
      ttv_kernel_model_apply (ttv_tab_analysis_get_model (analysis), state,
                              ttv_traceset_get_stream_trace (ts, ttv_context_get_stream (ctx)), ev);
    }
  return g_steal_pointer (&state);
}

/* Whether @req tracks the state along its events: asked for, or needed by
 * the tab's filter. */
static gboolean
needs_state (TtvRequestQueue *q, TtvEventRequest *req)
{
  return (req->flags & TTV_REQUEST_WITH_STATE)
         || ((req->flags & TTV_REQUEST_FILTERED) && ttv_tab_state_filter_needs_state (q->state));
}

/* Positions the reader for @req; FALSE with @error on failure. */
static gboolean
position_for (TtvRequestQueue *q, TtvEventRequest *req, GError **error)
{
  TtvTabAnalysis *analysis = ttv_tab_state_get_analysis (q->state);

  if (!q->reader)
    {
      q->reader = ttv_event_reader_new (traceset_of (q), error);
      if (!q->reader)
        return FALSE;
    }
  if (q->positioned == req)
    return TRUE;
  q->positioned = NULL;
  if (req->pos)
    {
      if (!ttv_event_reader_seek_position (q->reader, (const TtvPosition *) req->pos, error))
        return FALSE;
      if (req->skip_one)
        {
          const TtvEvent *ev;

          if (!ttv_event_reader_next (q->reader, &ev, error) && error && *error)
            return FALSE;
        }
    }
  else if (!ttv_event_reader_seek_time (q->reader, req->start, error))
    return FALSE;
  if (needs_state (q, req) && ttv_tab_analysis_get_shared (analysis) && !req->sys_state)
    {
      g_autoptr (TtvViewerPosition) next = (TtvViewerPosition *) ttv_event_reader_dup_next_position (q->reader);

      /* At the end of the traceset there is nothing to deliver. */
      if (next)
        {
          req->sys_state = dup_state_before (q, analysis, (const TtvPosition *) next, error);
          if (!req->sys_state)
            return FALSE;
        }
    }
  q->positioned = req;
  return TRUE;
}

/* Serves @req a chunk of events; FALSE when it finished. */
static gboolean
serve_chunk (TtvRequestQueue *q, TtvEventRequest *req)
{
  TtvKernelModel *model = ttv_tab_analysis_get_model (ttv_tab_state_get_analysis (q->state));
  gint64 deadline = g_get_monotonic_time () + CHUNK_USEC;
  g_autoptr (GError) error = NULL;

  if (!position_for (q, req, &error))
    {
      request_finish (req, TTV_REQUEST_FAILED, error);
      return FALSE;
    }
  for (guint n = 0;; n++)
    {
      const TtvEvent *ev;
      gboolean go_on;

      if (req->max_events && req->delivered >= req->max_events)
        {
          request_finish (req, TTV_REQUEST_COMPLETED, NULL);
          return FALSE;
        }
      if (!ttv_event_reader_next (q->reader, &ev, &error))
        {
          q->positioned = NULL;
          request_finish (req, error ? TTV_REQUEST_FAILED : TTV_REQUEST_COMPLETED, error);
          return FALSE;
        }
      if (ev->time > req->end)
        {
          request_finish (req, TTV_REQUEST_COMPLETED, NULL);
          return FALSE;
        }
      if (req->sys_state)
        ttv_kernel_model_apply (model, req->sys_state, trace_index_of (q, ev), ev);
      if (ev->time >= req->start
          && (!(req->flags & TTV_REQUEST_FILTERED)
              || ttv_tab_state_event_matches_filter (q->state, req, (const TtvViewerEvent *) ev)))
        {
          req->delivered++;
          req->in_delivery = TRUE;
          req->current = ev;
          go_on = req->event_func (req, (const TtvViewerEvent *) ev, req->user_data);
          req->current = NULL;
          req->in_delivery = FALSE;
          if (req->cancelled || q->shut_down)
            {
              request_finish (req, TTV_REQUEST_CANCELLED, NULL);
              return FALSE;
            }
          if (!go_on)
            {
              request_finish (req, TTV_REQUEST_STOPPED, NULL);
              return FALSE;
            }
          /* The callback may have queued requests: they wait their turn. */
        }
      if (n % 64 == 63 && (n >= CHUNK_EVENTS || g_get_monotonic_time () > deadline))
        return TRUE;
    }
}

static gboolean
serve_idle (gpointer data)
{
  TtvRequestQueue *q = data;
  TtvEventRequest *req = g_queue_peek_head (&q->requests);
  /* Callbacks may close the tab: its state (and this queue) stay until
   * this round ends. */
  g_autoptr (TtvTabState) hold = g_object_ref (q->state);

  if (req && serve_chunk (q, req) && q->requests.length > 1)
    {
      /* Give the others a turn: remember where this one stands. */
      ttv_viewer_position_free (req->pos);
      req->pos = (TtvViewerPosition *) ttv_event_reader_dup_event_position (q->reader);
      req->skip_one = TRUE;
      g_queue_remove (&q->requests, req);
      g_queue_push_tail (&q->requests, req);
    }
  if (g_queue_is_empty (&q->requests) || q->shut_down)
    {
      q->idle_id = 0;
      return G_SOURCE_REMOVE;
    }
  return G_SOURCE_CONTINUE;
}
