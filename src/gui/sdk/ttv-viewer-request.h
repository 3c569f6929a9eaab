/* ttv-viewer-request.h: viewers' requests for events: queued on the tab,
 * served in chunks from an idle handler of the main loop (the window stays
 * responsive), delivered one event at a time, finished exactly once.
 * Part of the installed SDK: include ttv-viewer.h, not this file. */
#pragma once

#include "ttv-viewer-types.h"

G_BEGIN_DECLS

typedef enum {
  TTV_REQUEST_DEFAULT = 0,
  /* A new request from the same owner cancels its older ones. */
  TTV_REQUEST_REPLACE = 1 << 0,
  /* Cancelled when the time window / current time / filter changes. */
  TTV_REQUEST_STALE_ON_TIME_WINDOW = 1 << 1,
  TTV_REQUEST_STALE_ON_CURRENT_TIME = 1 << 2,
  TTV_REQUEST_STALE_ON_FILTER = 1 << 3,
  /* Deliver only events that match the tab's filter (when it reads
   * state.*, the request tracks the state as with TTV_REQUEST_WITH_STATE). */
  TTV_REQUEST_FILTERED = 1 << 4,
  /* Track the system state along the delivered events, so that
   * ttv_event_request_get_process() answers in the event callback.  Costs
   * a replay from the nearest checkpoint when the request starts; has no
   * effect until the state is ready ("state-ready"). */
  TTV_REQUEST_WITH_STATE = 1 << 5,
} TtvRequestFlags;

typedef enum {
  TTV_REQUEST_COMPLETED,    /* the end criterion was reached, or the traceset ended */
  TTV_REQUEST_STOPPED,      /* the event callback returned FALSE */
  TTV_REQUEST_CANCELLED,    /* cancelled by its owner, made stale, or the tab closed */
  TTV_REQUEST_FAILED,       /* a trace failed to read: see the error */
} TtvRequestStatus;

/* Called once per event; @event is valid only during the call.  Return
 * FALSE to stop the request. */
typedef gboolean (*TtvEventFunc) (TtvEventRequest *request, const TtvViewerEvent *event,
                                  gpointer user_data);
/* Called exactly once per request, last (@destroy, if any, runs right
 * after it); @error is set for FAILED only. */
typedef void (*TtvRequestDoneFunc) (TtvEventRequest *request, TtvRequestStatus status,
                                    const GError *error, gpointer user_data);

/* Lifetime: a request belongs to its tab.  The pointer the functions below
 * return, and the one the callbacks get, stays valid until the done
 * callback returns; it is NULL when the tab is shut down (the done callback
 * has then already run, with CANCELLED).  A viewer that keeps a request
 * longer (to cancel it later without following its done callback) holds a
 * reference: ttv_event_request_cancel() on a finished request does
 * nothing.  @owner (may be NULL) is only compared: REPLACE and
 * ttv_tab_state_cancel_requests() find a viewer's requests by it. */

/* Events with start <= time <= end, at most @max_events (0: no limit). */
TtvEventRequest *ttv_tab_state_request_time_range (TtvTabState *state, gpointer owner,
                                                   TtvTime start, TtvTime end,
                                                   guint64 max_events, TtvRequestFlags flags,
                                                   TtvEventFunc event_func,
                                                   TtvRequestDoneFunc done_func,
                                                   gpointer user_data, GDestroyNotify destroy);
/* @n_events events (0: up to the end) from @pos, or from the traceset's
 * start when @pos is NULL. */
TtvEventRequest *ttv_tab_state_request_from_position (TtvTabState *state, gpointer owner,
                                                      const TtvViewerPosition *pos,
                                                      guint64 n_events, TtvRequestFlags flags,
                                                      TtvEventFunc event_func,
                                                      TtvRequestDoneFunc done_func,
                                                      gpointer user_data, GDestroyNotify destroy);
/* Cancels every request of @owner (their done callbacks run before this
 * returns, but for one delivering an event right now, which stops after it). */
void        ttv_tab_state_cancel_requests (TtvTabState *state, gpointer owner);

TtvEventRequest *ttv_event_request_ref (TtvEventRequest *request);
void        ttv_event_request_unref (TtvEventRequest *request);
/* The done callback runs (with CANCELLED) before this returns, unless the
 * request is delivering an event right now, in which case it stops after
 * it; nothing happens when the request is finished already. */
void        ttv_event_request_cancel (TtvEventRequest *request);
/* Whether its done callback has run. */
gboolean    ttv_event_request_is_finished (TtvEventRequest *request);
/* From an event callback: the position of the event being delivered. */
TtvViewerPosition *ttv_event_request_dup_position (TtvEventRequest *request);

/* The process running on a CPU, as the tab's state knows it. */
typedef struct {
  guint32 pid;               /* thread id; TTV_VIEWER_PID_NONE when unknown */
  guint32 tgid;
  const char *name;          /* static (interned), "" when unnamed */
  const char *mode;          /* static: "user", "syscall", "trap", "irq", "softirq", "unknown" */
  const char *syscall;       /* static: the syscall the task is in, or, on a syscall's exit
                              * event, the call it ends (@mode is then the one after the
                              * exit); NULL when neither */
} TtvViewerProcessInfo;

/* From an event callback of a TTV_REQUEST_WITH_STATE request: the process
 * running on the event's CPU once the event is applied (what `ttv-report
 * --state` prints).  FALSE (info->pid = TTV_VIEWER_PID_NONE) when unknown. */
gboolean    ttv_event_request_get_process (TtvEventRequest *request, TtvViewerProcessInfo *info);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvEventRequest, ttv_event_request_unref)

G_END_DECLS
