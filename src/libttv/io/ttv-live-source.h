/* ttv-live-source.h: a live LTTng session followed through lttng-relayd:
 * attached from its beginning, then a worker thread asks the relay for
 * new streams, metadata, indexes and packets, and writes them to a spool
 * (ttv-live-spool.h) that the trace readers open as a session directory.
 * What the worker learnt (beacons, packet ends, the session's end, a
 * failure) is read under the source's lock, which also keeps the spool
 * still while it is read.  Used by the traceset (engine/ttv-traceset-live.c)
 * and the CLI's session list.  docs/live.md. */
#pragma once

#include <gio/gio.h>

#include "ttv-live-protocol.h"
#include "ttv-live-url.h"

G_BEGIN_DECLS

typedef struct _TtvLiveSource TtvLiveSource;

typedef enum {
  TTV_LIVE_SOURCE_RUNNING,      /* the session goes on */
  TTV_LIVE_SOURCE_ENDED,        /* the session ended and every packet is in the spool */
  TTV_LIVE_SOURCE_FAILED,       /* the relay went away or misbehaved; the spool keeps what came */
} TtvLiveSourceState;

/* What one data stream promises: no event before @mark (a clock value of
 * its trace) will still come, from a packet's end or an inactivity beacon. */
typedef struct {
  const char *trace_dir;        /* weak (valid while the source lives): relative to the spool */
  gboolean hung_up;             /* the stream ended: no event at all will come */
  gboolean has_mark;            /* FALSE: nothing is known yet */
  guint64 mark;
} TtvLiveStreamMark;

/* The sessions of the relay in @url (of TtvLiveSessionInfo), those of the
 * URL's host name only when it names one; the relay agreed on protocol
 * 2.*@minor (may be NULL). */
GPtrArray     *ttv_live_list_sessions (const TtvLiveUrl *url, GCancellable *cancellable, guint32 *minor,
                                       GError **error);

/* Connects, finds the session that @url names (the newest of that name and
 * host) and attaches to it from its beginning, then starts the worker.
 * TTV_LIVE_ERROR_NO_SESSION names the sessions the relay does serve. */
TtvLiveSource *ttv_live_source_open (const TtvLiveUrl *url, GCancellable *cancellable, GError **error);
/* Stops the worker (it is never waited for more than one exchange with
 * the relay), closes the connection and removes the spool. */
void           ttv_live_source_close (TtvLiveSource *source);

const char    *ttv_live_source_get_spool_path (const TtvLiveSource *source);
const TtvLiveSessionInfo *ttv_live_source_get_session (const TtvLiveSource *source);
/* "HOST:PORT" */
const char    *ttv_live_source_get_relay (const TtvLiveSource *source);

/* While held, the worker writes nothing to the spool: readers see whole
 * packets, and metadata before the packets that need it. */
void           ttv_live_source_lock (TtvLiveSource *source);
void           ttv_live_source_unlock (TtvLiveSource *source);

/* With the lock held. */
TtvLiveSourceState ttv_live_source_get_state (TtvLiveSource *source, const GError **error);
/* The trace directories (relative to the spool) that received metadata. */
GPtrArray     *ttv_live_source_dup_trace_dirs (TtvLiveSource *source);
/* One TtvLiveStreamMark per data stream. */
GArray        *ttv_live_source_dup_marks (TtvLiveSource *source);
/* Bytes of metadata and packets received. */
guint64        ttv_live_source_get_received (TtvLiveSource *source);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvLiveSource, ttv_live_source_close)

G_END_DECLS
