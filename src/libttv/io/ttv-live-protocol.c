/* ttv-live-protocol.c: the LTTng live protocol's commands and replies as
 * bytes (see ttv-live-protocol.h).  Every number on the wire is big-endian;
 * every structure is packed. */
#include "ttv-live-protocol.h"
#include "ttv-error.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>

/* Reply layouts, in bytes. */
#define CONNECT_BYTES 20          /* viewer session id, major, minor, type */
#define SESSION_2_4_BYTES (20 + TTV_LIVE_HOST_NAME_MAX + TTV_LIVE_NAME_MAX)
#define SESSION_2_15_BYTES 32     /* common part, host and name lengths, trace format */
#define STREAM_BYTES (20 + TTV_LIVE_PATH_MAX + TTV_LIVE_NAME_MAX)
#define INDEX_BYTES 64

#define VIEWER_CLIENT_COMMAND 1

const char *
ttv_live_command_name (TtvLiveCommand command)
{
  static const char *const names[] = {
    NULL, "CONNECT", "LIST_SESSIONS", "ATTACH_SESSION", "GET_NEXT_INDEX", "GET_PACKET",
    "GET_METADATA", "GET_NEW_STREAMS", "CREATE_SESSION", "DETACH_SESSION",
  };
  return command >= 1 && command < G_N_ELEMENTS (names) ? names[command] : "?";
}

void
ttv_live_session_info_free (TtvLiveSessionInfo *info)
{
  if (info == NULL)
    return;
  g_free (info->hostname);
  g_free (info->name);
  g_free (info);
}

void
ttv_live_stream_info_free (TtvLiveStreamInfo *info)
{
  if (info == NULL)
    return;
  g_free (info->path);
  g_free (info->channel);
  g_free (info);
}

/* --- Writing ------------------------------------------------------------ */

static void
put_u32 (GByteArray *out, guint32 v)
{
  guint32 be = GUINT32_TO_BE (v);
  g_byte_array_append (out, (const guint8 *) &be, 4);
}

static void
put_u64 (GByteArray *out, guint64 v)
{
  guint64 be = GUINT64_TO_BE (v);
  g_byte_array_append (out, (const guint8 *) &be, 8);
}

/* The command header: payload size, command, command version (0). */
static void
put_header (GByteArray *out, TtvLiveCommand command, guint64 payload)
{
  put_u64 (out, payload);
  put_u32 (out, command);
  put_u32 (out, 0);
}

void
ttv_live_encode_connect (GByteArray *out)
{
  put_header (out, TTV_LIVE_CMD_CONNECT, 20);
  put_u64 (out, 0);               /* the viewer session id: the relay assigns it */
  put_u32 (out, TTV_LIVE_MAJOR);
  put_u32 (out, TTV_LIVE_MINOR_MAX);
  put_u32 (out, VIEWER_CLIENT_COMMAND);
}

void
ttv_live_encode_simple (GByteArray *out, TtvLiveCommand command)
{
  put_header (out, command, 0);
}

void
ttv_live_encode_id (GByteArray *out, TtvLiveCommand command, guint64 id)
{
  put_header (out, command, 8);
  put_u64 (out, id);
}

void
ttv_live_encode_attach (GByteArray *out, guint64 session_id, guint32 seek)
{
  put_header (out, TTV_LIVE_CMD_ATTACH_SESSION, 20);
  put_u64 (out, session_id);
  put_u64 (out, 0);               /* offset: unused by the relay */
  put_u32 (out, seek);
}

void
ttv_live_encode_get_packet (GByteArray *out, guint64 stream_id, guint64 offset, guint32 len)
{
  put_header (out, TTV_LIVE_CMD_GET_PACKET, 20);
  put_u64 (out, stream_id);
  put_u64 (out, offset);
  put_u32 (out, len);
}

/* --- Reading ------------------------------------------------------------ */

static guint32
get_u32 (const guint8 *p)
{
  guint32 v;
  memcpy (&v, p, 4);
  return GUINT32_FROM_BE (v);
}

static guint64
get_u64 (const guint8 *p)
{
  guint64 v;
  memcpy (&v, p, 8);
  return GUINT64_FROM_BE (v);
}

static gboolean
protocol_error (GError **error, gint code, const char *format, ...) G_GNUC_PRINTF (3, 4);

static gboolean
protocol_error (GError **error, gint code, const char *format, ...)
{
  va_list args;
  va_start (args, format);
  g_autofree char *msg = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error_literal (error, TTV_LIVE_ERROR, code, msg);
  return FALSE;
}

/* A fixed-size, NUL-terminated text field as valid UTF-8; NULL when the
 * field has no terminator. */
static char *
fixed_string (const guint8 *field, gsize size)
{
  const guint8 *nul = memchr (field, '\0', size);
  if (nul == NULL)
    return NULL;
  return g_utf8_make_valid ((const char *) field, nul - field);
}

gboolean
ttv_live_read_connect_reply (const TtvLiveInput *in, guint64 *viewer_session_id, guint32 *major,
                             guint32 *minor, GError **error)
{
  guint8 b[CONNECT_BYTES];
  if (!in->read (in->source, b, sizeof b, error))
    return FALSE;
  *viewer_session_id = get_u64 (b);
  *major = get_u32 (b + 8);
  *minor = get_u32 (b + 12);
  return TRUE;
}

gboolean
ttv_live_read_status (const TtvLiveInput *in, guint32 *status, GError **error)
{
  guint8 b[4];
  if (!in->read (in->source, b, sizeof b, error))
    return FALSE;
  *status = get_u32 (b);
  return TRUE;
}

/* A 2.15 session's host or session name: @len bytes, no NUL among them. */
static char *
read_counted_string (const TtvLiveInput *in, guint32 len, const char *what, GError **error)
{
  if (len > TTV_LIVE_MAX_NAME)
    {
      protocol_error (error, TTV_LIVE_ERROR_TOO_LARGE,
                      _("the session list announces a %s of %" PRIu32 " bytes (at most %u accepted)"),
                      what, len, TTV_LIVE_MAX_NAME);
      return NULL;
    }
  g_autofree char *raw = g_malloc (len + 1);
  if (!in->read (in->source, raw, len, error))
    return NULL;
  raw[len] = '\0';
  if (memchr (raw, '\0', len))
    {
      protocol_error (error, TTV_LIVE_ERROR_PROTOCOL, _("the session list holds a %s with a NUL byte"), what);
      return NULL;
    }
  return g_utf8_make_valid (raw, len);
}

static TtvLiveSessionInfo *
read_session (const TtvLiveInput *in, guint32 minor, GError **error)
{
  guint8 b[MAX (SESSION_2_4_BYTES, SESSION_2_15_BYTES)];
  gsize size = minor >= 15 ? SESSION_2_15_BYTES : SESSION_2_4_BYTES;
  if (!in->read (in->source, b, size, error))
    return NULL;
  g_autoptr (TtvLiveSessionInfo) s = g_new0 (TtvLiveSessionInfo, 1);
  s->id = get_u64 (b);
  s->live_timer_us = get_u32 (b + 8);
  s->clients = get_u32 (b + 12);
  s->streams = get_u32 (b + 16);
  if (minor >= 15)
    {
      guint32 host_len = get_u32 (b + 20), name_len = get_u32 (b + 24);
      s->trace_format = get_u32 (b + 28);
      if ((s->hostname = read_counted_string (in, host_len, _("host name"), error)) == NULL
          || (s->name = read_counted_string (in, name_len, _("session name"), error)) == NULL)
        return NULL;
    }
  else
    {
      s->trace_format = TTV_LIVE_TRACE_FORMAT_CTF_1_8;
      s->hostname = fixed_string (b + 20, TTV_LIVE_HOST_NAME_MAX);
      s->name = fixed_string (b + 20 + TTV_LIVE_HOST_NAME_MAX, TTV_LIVE_NAME_MAX);
      if (s->hostname == NULL || s->name == NULL)
        {
          protocol_error (error, TTV_LIVE_ERROR_PROTOCOL,
                          _("the session list holds a name without its terminating NUL byte"));
          return NULL;
        }
    }
  if (s->trace_format > TTV_LIVE_TRACE_FORMAT_CTF_2)
    {
      protocol_error (error, TTV_LIVE_ERROR_PROTOCOL,
                      _("session “%s” has an unknown trace format %" PRIu32), s->name, s->trace_format);
      return NULL;
    }
  return g_steal_pointer (&s);
}

GPtrArray *
ttv_live_read_session_list (const TtvLiveInput *in, guint32 minor, GError **error)
{
  guint32 count;
  if (!ttv_live_read_status (in, &count, error))
    return NULL;
  if (count > TTV_LIVE_MAX_SESSIONS)
    {
      protocol_error (error, TTV_LIVE_ERROR_TOO_LARGE,
                      _("the relay announces %" PRIu32 " sessions (at most %u accepted)"), count,
                      TTV_LIVE_MAX_SESSIONS);
      return NULL;
    }
  g_autoptr (GPtrArray) sessions = g_ptr_array_new_with_free_func ((GDestroyNotify) ttv_live_session_info_free);
  for (guint32 i = 0; i < count; i++)
    {
      TtvLiveSessionInfo *s = read_session (in, minor, error);
      if (s == NULL)
        return NULL;
      g_ptr_array_add (sessions, s);
    }
  return g_steal_pointer (&sessions);
}

gboolean
ttv_live_read_streams_header (const TtvLiveInput *in, guint32 *status, guint32 *count, GError **error)
{
  guint8 b[8];
  if (!in->read (in->source, b, sizeof b, error))
    return FALSE;
  *status = get_u32 (b);
  *count = get_u32 (b + 4);
  if (*count > TTV_LIVE_MAX_STREAMS)
    return protocol_error (error, TTV_LIVE_ERROR_TOO_LARGE,
                           _("the relay announces %" PRIu32 " streams (at most %u accepted)"), *count,
                           TTV_LIVE_MAX_STREAMS);
  return TRUE;
}

gboolean
ttv_live_read_streams (const TtvLiveInput *in, guint32 count, GPtrArray *streams, GError **error)
{
  g_autofree guint8 *b = g_malloc (STREAM_BYTES);
  for (guint32 i = 0; i < count; i++)
    {
      if (!in->read (in->source, b, STREAM_BYTES, error))
        return FALSE;
      g_autoptr (TtvLiveStreamInfo) s = g_new0 (TtvLiveStreamInfo, 1);
      s->id = get_u64 (b);
      s->ctf_trace_id = get_u64 (b + 8);
      s->metadata = get_u32 (b + 16) != 0;
      s->path = fixed_string (b + 20, TTV_LIVE_PATH_MAX);
      s->channel = fixed_string (b + 20 + TTV_LIVE_PATH_MAX, TTV_LIVE_NAME_MAX);
      if (s->path == NULL || s->channel == NULL)
        return protocol_error (error, TTV_LIVE_ERROR_PROTOCOL,
                               _("stream %" PRIu64 " has a path or channel name without its terminating NUL byte"),
                               s->id);
      g_ptr_array_add (streams, g_steal_pointer (&s));
    }
  return TRUE;
}

gboolean
ttv_live_read_index (const TtvLiveInput *in, TtvLiveIndex *index, GError **error)
{
  guint8 b[INDEX_BYTES];
  if (!in->read (in->source, b, sizeof b, error))
    return FALSE;
  index->offset = get_u64 (b);
  index->packet_size = get_u64 (b + 8);
  index->content_size = get_u64 (b + 16);
  index->timestamp_begin = get_u64 (b + 24);
  index->timestamp_end = get_u64 (b + 32);
  index->events_discarded = get_u64 (b + 40);
  index->stream_class_id = get_u64 (b + 48);
  index->status = get_u32 (b + 56);
  index->flags = get_u32 (b + 60);
  if (index->status != TTV_LIVE_INDEX_OK)
    return TRUE;
  /* Sizes are in bits: whole bytes, content within the packet. */
  if (index->packet_size == 0 || index->packet_size % 8 || index->content_size > index->packet_size)
    return protocol_error (error, TTV_LIVE_ERROR_PROTOCOL,
                           _("an index announces a packet of %" PRIu64 " bits with %" PRIu64 " bits of content"),
                           index->packet_size, index->content_size);
  if (index->packet_size / 8 > TTV_LIVE_MAX_PACKET)
    return protocol_error (error, TTV_LIVE_ERROR_TOO_LARGE,
                           _("an index announces a packet of %" PRIu64 " bytes (at most %u accepted)"),
                           index->packet_size / 8, TTV_LIVE_MAX_PACKET);
  return TRUE;
}

gboolean
ttv_live_read_packet_header (const TtvLiveInput *in, guint32 *status, guint32 *len, guint32 *flags, GError **error)
{
  guint8 b[12];
  if (!in->read (in->source, b, sizeof b, error))
    return FALSE;
  *status = get_u32 (b);
  *len = get_u32 (b + 4);
  *flags = get_u32 (b + 8);
  if (*status == TTV_LIVE_PACKET_OK && *len > TTV_LIVE_MAX_PACKET)
    return protocol_error (error, TTV_LIVE_ERROR_TOO_LARGE,
                           _("a packet reply announces %" PRIu32 " bytes (at most %u accepted)"), *len,
                           TTV_LIVE_MAX_PACKET);
  return TRUE;
}

gboolean
ttv_live_read_metadata_header (const TtvLiveInput *in, guint64 *len, guint32 *status, GError **error)
{
  guint8 b[12];
  if (!in->read (in->source, b, sizeof b, error))
    return FALSE;
  *len = get_u64 (b);
  *status = get_u32 (b + 8);
  if (*status == TTV_LIVE_METADATA_OK && *len > TTV_LIVE_MAX_METADATA)
    return protocol_error (error, TTV_LIVE_ERROR_TOO_LARGE,
                           _("a metadata reply announces %" PRIu64 " bytes (at most %u accepted)"), *len,
                           TTV_LIVE_MAX_METADATA);
  return TRUE;
}
