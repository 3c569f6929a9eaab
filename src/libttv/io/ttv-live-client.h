/* ttv-live-client.h: one viewer connection to lttng-relayd: connect and
 * agree on a protocol version, then one blocking call per command (run it
 * in a worker thread; a GCancellable stops it).  Used by the live source
 * (ttv-live-source.c) and to list a relay's sessions.  docs/live.md. */
#pragma once

#include <gio/gio.h>

#include "ttv-live-protocol.h"

G_BEGIN_DECLS

typedef struct _TtvLiveClient TtvLiveClient;

/* Seconds a relay may stay silent in the middle of an exchange before the
 * connection is given up (TTV_LIVE_ERROR_TIMEOUT): TTV_LIVE_TIMEOUT in the
 * environment, else 20. */
guint          ttv_live_client_get_timeout (void);

/* Connects to @host:@port and agrees on the protocol version (the lower of
 * the relay's and ttv's).  @cancellable (may be NULL) stops this call and
 * every later one on the client. */
TtvLiveClient *ttv_live_client_connect (const char *host, guint16 port, GCancellable *cancellable,
                                        GError **error);
void           ttv_live_client_free (TtvLiveClient *client);
/* The minor protocol version agreed on (major is 2). */
guint32        ttv_live_client_get_minor (const TtvLiveClient *client);
/* "HOST:PORT", for messages. */
const char    *ttv_live_client_get_relay (const TtvLiveClient *client);

/* The sessions the relay serves (of TtvLiveSessionInfo); before 2.15, the
 * relay leaves out its CTF 2 sessions. */
GPtrArray     *ttv_live_client_list_sessions (TtvLiveClient *client, GError **error);
/* CREATE_SESSION then ATTACH_SESSION from the session's beginning: its
 * streams (of TtvLiveStreamInfo).  TTV_LIVE_ERROR_REFUSED says why the relay
 * refused. */
GPtrArray     *ttv_live_client_attach (TtvLiveClient *client, guint64 session_id, GError **error);
/* GET_NEW_STREAMS: a TTV_LIVE_NEW_STREAMS_* status; OK appends the new
 * streams to @streams. */
gboolean       ttv_live_client_get_new_streams (TtvLiveClient *client, guint64 session_id, guint32 *status,
                                                GPtrArray *streams, GError **error);
gboolean       ttv_live_client_get_next_index (TtvLiveClient *client, guint64 stream_id, TtvLiveIndex *index,
                                               GError **error);
/* GET_PACKET of @len bytes at @offset: *status (TTV_LIVE_PACKET_*), *flags;
 * on OK, @data holds exactly @len bytes (a reply of another size is a
 * protocol error).  @data grows as bytes arrive, never ahead of them. */
gboolean       ttv_live_client_get_packet (TtvLiveClient *client, guint64 stream_id, guint64 offset, guint32 len,
                                           GByteArray *data, guint32 *status, guint32 *flags, GError **error);
/* GET_METADATA: *status (TTV_LIVE_METADATA_*); on OK, the new bytes replace
 * @data's contents. */
gboolean       ttv_live_client_get_metadata (TtvLiveClient *client, guint64 stream_id, GByteArray *data,
                                             guint32 *status, GError **error);
gboolean       ttv_live_client_detach (TtvLiveClient *client, guint64 session_id, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvLiveClient, ttv_live_client_free)

G_END_DECLS
