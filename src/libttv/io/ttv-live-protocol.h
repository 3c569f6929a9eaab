/* ttv-live-protocol.h: the LTTng live protocol that lttng-relayd speaks to
 * viewers (versions 2.4 to 2.15), as bytes: commands written, replies read
 * and checked.  No sockets here: the client (ttv-live-client.c) feeds the
 * readers from its connection, the fuzz target from memory.  docs/live.md. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* What ttv speaks: major 2, minor 4 (the first live protocol) to 15 (CTF 2
 * sessions and variable-length session names). */
#define TTV_LIVE_MAJOR 2
#define TTV_LIVE_MINOR_MIN 4
#define TTV_LIVE_MINOR_MAX 15

/* Limits on what a reply may announce, beyond which it is refused as
 * hostile or broken (TTV_LIVE_ERROR_TOO_LARGE). */
#define TTV_LIVE_MAX_SESSIONS 65536
#define TTV_LIVE_MAX_STREAMS 65536               /* in one reply */
#define TTV_LIVE_MAX_NAME 4096                    /* a 2.15 host or session name */
#define TTV_LIVE_MAX_PACKET (256u << 20)          /* bytes of one data packet */
#define TTV_LIVE_MAX_METADATA (256u << 20)        /* bytes of one metadata reply */
/* And on a whole session. */
#define TTV_LIVE_MAX_SESSION_STREAMS 65536
#define TTV_LIVE_MAX_TRACE_METADATA (G_GUINT64_CONSTANT (1) << 30)   /* bytes of one trace's metadata */

/* Fixed sizes of the 2.4 structures (lttng-viewer-abi.h). */
#define TTV_LIVE_PATH_MAX 4096
#define TTV_LIVE_NAME_MAX 255
#define TTV_LIVE_HOST_NAME_MAX 64

typedef enum {
  TTV_LIVE_CMD_CONNECT = 1,
  TTV_LIVE_CMD_LIST_SESSIONS = 2,
  TTV_LIVE_CMD_ATTACH_SESSION = 3,
  TTV_LIVE_CMD_GET_NEXT_INDEX = 4,
  TTV_LIVE_CMD_GET_PACKET = 5,
  TTV_LIVE_CMD_GET_METADATA = 6,
  TTV_LIVE_CMD_GET_NEW_STREAMS = 7,
  TTV_LIVE_CMD_CREATE_SESSION = 8,
  TTV_LIVE_CMD_DETACH_SESSION = 9,
} TtvLiveCommand;

/* Reply codes (each command has its own numbering). */
enum { TTV_LIVE_CREATE_OK = 1 };
enum {
  TTV_LIVE_ATTACH_OK = 1,
  TTV_LIVE_ATTACH_ALREADY = 2,
  TTV_LIVE_ATTACH_UNKNOWN = 3,
  TTV_LIVE_ATTACH_NOT_LIVE = 4,
  TTV_LIVE_ATTACH_SEEK_ERROR = 5,
  TTV_LIVE_ATTACH_NO_SESSION = 6,
};
enum {
  TTV_LIVE_INDEX_OK = 1,
  TTV_LIVE_INDEX_RETRY = 2,
  TTV_LIVE_INDEX_HUP = 3,
  TTV_LIVE_INDEX_ERROR = 4,
  TTV_LIVE_INDEX_INACTIVE = 5,      /* a beacon: no event until timestamp_end */
  TTV_LIVE_INDEX_EOF = 6,
};
enum {
  TTV_LIVE_PACKET_OK = 1,
  TTV_LIVE_PACKET_RETRY = 2,
  TTV_LIVE_PACKET_ERROR = 3,
  TTV_LIVE_PACKET_EOF = 4,
};
enum {
  TTV_LIVE_METADATA_OK = 1,
  TTV_LIVE_METADATA_NO_NEW = 2,
  TTV_LIVE_METADATA_ERROR = 3,
};
enum {
  TTV_LIVE_NEW_STREAMS_OK = 1,
  TTV_LIVE_NEW_STREAMS_NO_NEW = 2,
  TTV_LIVE_NEW_STREAMS_ERROR = 3,
  TTV_LIVE_NEW_STREAMS_HUP = 4,
};
enum { TTV_LIVE_DETACH_OK = 1 };

/* Flags of index and packet replies. */
#define TTV_LIVE_FLAG_NEW_METADATA (1u << 0)
#define TTV_LIVE_FLAG_NEW_STREAM (1u << 1)

#define TTV_LIVE_SEEK_BEGINNING 1
#define TTV_LIVE_SEEK_LAST 2

typedef enum {
  TTV_LIVE_TRACE_FORMAT_CTF_1_8 = 0,
  TTV_LIVE_TRACE_FORMAT_CTF_2 = 1,
} TtvLiveTraceFormat;

/* One session the relay serves. */
typedef struct {
  guint64 id;
  guint32 live_timer_us;    /* the session's live timer period */
  guint32 clients;          /* viewers attached */
  guint32 streams;
  char *hostname;           /* owned: the traced host */
  char *name;               /* owned */
  guint32 trace_format;     /* TtvLiveTraceFormat (CTF 1.8 from relays before 2.15) */
} TtvLiveSessionInfo;

/* One stream of an attached session. */
typedef struct {
  guint64 id;               /* the relay's stream handle */
  guint64 ctf_trace_id;     /* the trace it belongs to (its metadata stream shares it) */
  gboolean metadata;
  char *path;               /* owned: the trace's directory, relative ("ust/uid/1000/64-bit") */
  char *channel;            /* owned: the stream's file name ("channel0_1", "metadata") */
} TtvLiveStreamInfo;

/* A GET_NEXT_INDEX reply (sizes in bits, timestamps in clock cycles). */
typedef struct {
  guint64 offset, packet_size, content_size;
  guint64 timestamp_begin, timestamp_end;
  guint64 events_discarded;
  guint64 stream_class_id;  /* the CTF stream class (OK and INACTIVE replies) */
  guint32 status, flags;
} TtvLiveIndex;

/* Where the readers take their bytes: reads exactly @n bytes or fails. */
typedef struct {
  gboolean (*read) (gpointer source, void *buf, gsize n, GError **error);
  gpointer source;
} TtvLiveInput;

const char *ttv_live_command_name (TtvLiveCommand command);
void        ttv_live_session_info_free (TtvLiveSessionInfo *info);
void        ttv_live_stream_info_free (TtvLiveStreamInfo *info);

/* --- Commands (appended to @out, header and payload as one write) -------- */

void ttv_live_encode_connect (GByteArray *out);
void ttv_live_encode_simple (GByteArray *out, TtvLiveCommand command);   /* LIST_SESSIONS, CREATE_SESSION */
/* GET_NEW_STREAMS, DETACH_SESSION (a session id), GET_NEXT_INDEX, GET_METADATA (a stream id). */
void ttv_live_encode_id (GByteArray *out, TtvLiveCommand command, guint64 id);
void ttv_live_encode_attach (GByteArray *out, guint64 session_id, guint32 seek);
void ttv_live_encode_get_packet (GByteArray *out, guint64 stream_id, guint64 offset, guint32 len);

/* --- Replies ------------------------------------------------------------ */

/* Errors are TTV_LIVE_ERROR_PROTOCOL (malformed) or _TOO_LARGE (a count or
 * length past the limits above), or whatever @in's read reports. */
gboolean ttv_live_read_connect_reply (const TtvLiveInput *in, guint64 *viewer_session_id, guint32 *major,
                                      guint32 *minor, GError **error);
gboolean ttv_live_read_status (const TtvLiveInput *in, guint32 *status, GError **error);
/* A session list in the layout of protocol 2.@minor; of TtvLiveSessionInfo. */
GPtrArray *ttv_live_read_session_list (const TtvLiveInput *in, guint32 minor, GError **error);
/* ATTACH_SESSION and GET_NEW_STREAMS replies: a status, then @count streams. */
gboolean ttv_live_read_streams_header (const TtvLiveInput *in, guint32 *status, guint32 *count, GError **error);
/* Appends @count streams (TtvLiveStreamInfo) to @streams. */
gboolean ttv_live_read_streams (const TtvLiveInput *in, guint32 count, GPtrArray *streams, GError **error);
gboolean ttv_live_read_index (const TtvLiveInput *in, TtvLiveIndex *index, GError **error);
/* GET_PACKET: the header; @len bytes of data follow an OK status. */
gboolean ttv_live_read_packet_header (const TtvLiveInput *in, guint32 *status, guint32 *len, guint32 *flags,
                                      GError **error);
/* GET_METADATA: the header; @len bytes follow an OK status. */
gboolean ttv_live_read_metadata_header (const TtvLiveInput *in, guint64 *len, guint32 *status, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvLiveSessionInfo, ttv_live_session_info_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvLiveStreamInfo, ttv_live_stream_info_free)

G_END_DECLS
