/* ttv-request-queue.h: a tab's event requests (sdk/ttv-viewer-request.h):
 * queued, served in chunks from an idle handler through one merged reader
 * of the traceset (engine/ttv-event-reader.h), each finished exactly once.
 * Owned by the tab's state (ttv-tab-state.c), which tells it when requests
 * go stale and when the traceset changes. */
#pragma once

#include "ttv-state.h"
#include "ttv-viewer-model.h"

G_BEGIN_DECLS

typedef struct _TtvRequestQueue TtvRequestQueue;

/* The queue of @state (weak: its owner, which it serves events of). */
TtvRequestQueue *ttv_request_queue_new (TtvTabState *state);
/* Cancels what is queued first. */
void        ttv_request_queue_free (TtvRequestQueue *queue);
/* Cancels the requests of @owner (when set), those with one of @flags, or
 * @all of them; their done callbacks run before this returns (but for one
 * delivering an event, which stops after it). */
void        ttv_request_queue_cancel (TtvRequestQueue *queue, gpointer owner, TtvRequestFlags flags,
                                      gboolean all);
/* Forgets its reader of the traceset (the traceset changed, or is about to
 * be refreshed: the formats refresh only without cursors). */
void        ttv_request_queue_drop_reader (TtvRequestQueue *queue);
/* Requests queued or running. */
guint       ttv_request_queue_get_length (TtvRequestQueue *queue);
/* Cancels everything; what is asked for afterwards is cancelled at once. */
void        ttv_request_queue_shutdown (TtvRequestQueue *queue);
gboolean    ttv_request_queue_is_shut_down (TtvRequestQueue *queue);

/* The state a request tracks (TTV_REQUEST_WITH_STATE, or a filter on
 * state.*), borrowed, NULL when none. */
const TtvState *ttv_event_request_get_state (TtvEventRequest *request);

G_END_DECLS
