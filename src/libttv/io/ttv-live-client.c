/* ttv-live-client.c: a blocking viewer connection to lttng-relayd over
 * GIO sockets, with a timeout on every read (see ttv-live-client.h). */
#include "ttv-live-client.h"
#include "ttv-error.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <string.h>

#define DEFAULT_TIMEOUT_S 20
/* Replies with data are read in slices of this size, the buffer growing
 * only as the bytes arrive. */
#define READ_SLICE (64u << 10)

struct _TtvLiveClient {
  GSocketConnection *connection;  /* owned */
  GInputStream *in;               /* weak: the connection's */
  GOutputStream *out;             /* weak: the connection's */
  GCancellable *cancellable;      /* owned reference, may be NULL */
  char *relay;                    /* owned: "host:port" */
  guint32 minor;
  TtvLiveCommand command;         /* the command whose reply is awaited (messages) */
  gboolean broken;                /* an exchange failed half-way: the stream is out of step */
  GByteArray *request;            /* owned: reused */
};

guint
ttv_live_client_get_timeout (void)
{
  const char *env = g_getenv ("TTV_LIVE_TIMEOUT");
  guint64 v;
  if (env && g_ascii_string_to_unsigned (env, 10, 1, 3600, &v, NULL))
    return (guint) v;
  return DEFAULT_TIMEOUT_S;
}

static gboolean
fail_io (TtvLiveClient *c, GError *local, gboolean reading, GError **error)
{
  c->broken = TRUE;
  const char *cmd = ttv_live_command_name (c->command);
  if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_propagate_error (error, local);
  else if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_TIMED_OUT))
    {
      g_set_error (error, TTV_LIVE_ERROR, TTV_LIVE_ERROR_TIMEOUT,
                   _("the relay %s sent nothing for %u s while ttv waited for its reply to %s"), c->relay,
                   ttv_live_client_get_timeout (), cmd);
      g_error_free (local);
    }
  else
    {
      g_set_error (error, TTV_LIVE_ERROR, TTV_LIVE_ERROR_CLOSED,
                   reading ? _("reading the reply to %s from the relay %s failed: %s")
                           : _("sending %s to the relay %s failed: %s"),
                   cmd, c->relay, local->message);
      g_error_free (local);
    }
  return FALSE;
}

static gboolean
client_read (gpointer source, void *buf, gsize n, GError **error)
{
  TtvLiveClient *c = source;
  gsize got = 0;
  GError *local = NULL;
  if (!g_input_stream_read_all (c->in, buf, n, &got, c->cancellable, &local))
    return fail_io (c, local, TRUE, error);
  if (got < n)
    {
      c->broken = TRUE;
      g_set_error (error, TTV_LIVE_ERROR, TTV_LIVE_ERROR_CLOSED,
                   _("the relay %s closed the connection in its reply to %s (%zu of %zu bytes received)"),
                   c->relay, ttv_live_command_name (c->command), got, n);
      return FALSE;
    }
  return TRUE;
}

static TtvLiveInput
client_input (TtvLiveClient *c)
{
  TtvLiveInput in = { client_read, c };
  return in;
}

/* Sends the command in c->request (and remembers it for messages). */
static gboolean
send_request (TtvLiveClient *c, TtvLiveCommand command, GError **error)
{
  if (c->broken)
    {
      g_set_error (error, TTV_LIVE_ERROR, TTV_LIVE_ERROR_CLOSED,
                   _("the connection to the relay %s failed earlier"), c->relay);
      return FALSE;
    }
  c->command = command;
  GError *local = NULL;
  if (!g_output_stream_write_all (c->out, c->request->data, c->request->len, NULL, c->cancellable, &local))
    return fail_io (c, local, FALSE, error);
  return TRUE;
}

/* A reply that the protocol layer refused: name the relay and the command. */
static gboolean
fail_reply (TtvLiveClient *c, GError **error)
{
  c->broken = TRUE;
  if (error && *error && (*error)->domain == TTV_LIVE_ERROR
      && ((*error)->code == TTV_LIVE_ERROR_PROTOCOL || (*error)->code == TTV_LIVE_ERROR_TOO_LARGE))
    g_prefix_error (error, _("the relay %s answered %s wrongly: "), c->relay,
                    ttv_live_command_name (c->command));
  return FALSE;
}

static gboolean
handshake (TtvLiveClient *c, GError **error)
{
  g_byte_array_set_size (c->request, 0);
  ttv_live_encode_connect (c->request);
  if (!send_request (c, TTV_LIVE_CMD_CONNECT, error))
    return FALSE;
  TtvLiveInput in = client_input (c);
  guint64 viewer_session_id;
  guint32 major, minor;
  GError *local = NULL;
  if (!ttv_live_read_connect_reply (&in, &viewer_session_id, &major, &minor, &local))
    {
      /* A relay of another major version closes the connection unanswered. */
      if (g_error_matches (local, TTV_LIVE_ERROR, TTV_LIVE_ERROR_CLOSED))
        {
          g_set_error (error, TTV_LIVE_ERROR, TTV_LIVE_ERROR_VERSION,
                       _("the relay %s closed the connection during the version check: it is no "
                         "lttng-relayd speaking the live protocol %u.%u to %u.%u"),
                       c->relay, TTV_LIVE_MAJOR, TTV_LIVE_MINOR_MIN, TTV_LIVE_MAJOR, TTV_LIVE_MINOR_MAX);
          g_error_free (local);
          return FALSE;
        }
      g_propagate_error (error, local);
      return fail_reply (c, error);
    }
  if (major != TTV_LIVE_MAJOR || minor < TTV_LIVE_MINOR_MIN)
    {
      c->broken = TRUE;
      g_set_error (error, TTV_LIVE_ERROR, TTV_LIVE_ERROR_VERSION,
                   _("the relay %s speaks the live protocol %" PRIu32 ".%" PRIu32 "; ttv speaks %u.%u to %u.%u"),
                   c->relay, major, minor, TTV_LIVE_MAJOR, TTV_LIVE_MINOR_MIN, TTV_LIVE_MAJOR,
                   TTV_LIVE_MINOR_MAX);
      return FALSE;
    }
  c->minor = MIN (minor, TTV_LIVE_MINOR_MAX);
  return TRUE;
}

TtvLiveClient *
ttv_live_client_connect (const char *host, guint16 port, GCancellable *cancellable, GError **error)
{
  g_return_val_if_fail (host != NULL, NULL);
  g_autoptr (TtvLiveClient) c = g_new0 (TtvLiveClient, 1);
  c->relay = strchr (host, ':') ? g_strdup_printf ("[%s]:%u", host, port) : g_strdup_printf ("%s:%u", host, port);
  c->cancellable = cancellable ? g_object_ref (cancellable) : NULL;
  c->request = g_byte_array_new ();
  g_autoptr (GSocketClient) sc = g_socket_client_new ();
  g_socket_client_set_timeout (sc, ttv_live_client_get_timeout ());
  g_autoptr (GSocketConnectable) address = g_network_address_new (host, port);
  GError *local = NULL;
  c->connection = g_socket_client_connect (sc, address, cancellable, &local);
  if (c->connection == NULL)
    {
      if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_propagate_error (error, local);
      else
        {
          g_set_error (error, TTV_LIVE_ERROR, TTV_LIVE_ERROR_CONNECT, _("cannot connect to the relay %s: %s"),
                       c->relay, local->message);
          g_error_free (local);
        }
      return NULL;
    }
  /* Requests are small and each waits for its reply: no Nagle delay. */
  g_socket_set_option (g_socket_connection_get_socket (c->connection), IPPROTO_TCP, TCP_NODELAY, 1, NULL);
  c->in = g_io_stream_get_input_stream (G_IO_STREAM (c->connection));
  c->out = g_io_stream_get_output_stream (G_IO_STREAM (c->connection));
  if (!handshake (c, error))
    return NULL;
  return g_steal_pointer (&c);
}

void
ttv_live_client_free (TtvLiveClient *c)
{
  if (c == NULL)
    return;
  if (c->connection)
    {
      g_io_stream_close (G_IO_STREAM (c->connection), NULL, NULL);
      g_object_unref (c->connection);
    }
  g_clear_object (&c->cancellable);
  g_byte_array_unref (c->request);
  g_free (c->relay);
  g_free (c);
}

guint32
ttv_live_client_get_minor (const TtvLiveClient *c)
{
  return c->minor;
}

const char *
ttv_live_client_get_relay (const TtvLiveClient *c)
{
  return c->relay;
}

GPtrArray *
ttv_live_client_list_sessions (TtvLiveClient *c, GError **error)
{
  g_byte_array_set_size (c->request, 0);
  ttv_live_encode_simple (c->request, TTV_LIVE_CMD_LIST_SESSIONS);
  if (!send_request (c, TTV_LIVE_CMD_LIST_SESSIONS, error))
    return NULL;
  TtvLiveInput in = client_input (c);
  GPtrArray *sessions = ttv_live_read_session_list (&in, c->minor, error);
  if (sessions == NULL)
    fail_reply (c, error);
  return sessions;
}

static const char *
attach_refusal (guint32 status)
{
  switch (status)
    {
    case TTV_LIVE_ATTACH_ALREADY:
      return _("another viewer is attached to it");
    case TTV_LIVE_ATTACH_UNKNOWN:
      return _("the relay does not know it (it ended, or it is a CTF 2 session and the relay expects "
               "a viewer older than 2.15)");
    case TTV_LIVE_ATTACH_NOT_LIVE:
      return _("it is not a live session");
    case TTV_LIVE_ATTACH_SEEK_ERROR:
      return _("the relay cannot seek to its beginning");
    case TTV_LIVE_ATTACH_NO_SESSION:
      return _("the relay has no viewer session for this connection");
    default:
      return NULL;
    }
}

GPtrArray *
ttv_live_client_attach (TtvLiveClient *c, guint64 session_id, GError **error)
{
  TtvLiveInput in = client_input (c);
  guint32 status, count;
  g_byte_array_set_size (c->request, 0);
  ttv_live_encode_simple (c->request, TTV_LIVE_CMD_CREATE_SESSION);
  if (!send_request (c, TTV_LIVE_CMD_CREATE_SESSION, error))
    return NULL;
  if (!ttv_live_read_status (&in, &status, error))
    {
      fail_reply (c, error);
      return NULL;
    }
  if (status != TTV_LIVE_CREATE_OK)
    {
      g_set_error (error, TTV_LIVE_ERROR, TTV_LIVE_ERROR_REFUSED,
                   _("the relay %s cannot create a viewer session (status %" PRIu32 ")"), c->relay, status);
      return NULL;
    }
  g_byte_array_set_size (c->request, 0);
  ttv_live_encode_attach (c->request, session_id, TTV_LIVE_SEEK_BEGINNING);
  if (!send_request (c, TTV_LIVE_CMD_ATTACH_SESSION, error))
    return NULL;
  if (!ttv_live_read_streams_header (&in, &status, &count, error))
    {
      fail_reply (c, error);
      return NULL;
    }
  if (status != TTV_LIVE_ATTACH_OK)
    {
      const char *why = attach_refusal (status);
      if (why)
        g_set_error (error, TTV_LIVE_ERROR, TTV_LIVE_ERROR_REFUSED,
                     _("the relay %s refused to attach to session %" PRIu64 ": %s"), c->relay, session_id, why);
      else
        {
          c->broken = TRUE;
          g_set_error (error, TTV_LIVE_ERROR, TTV_LIVE_ERROR_PROTOCOL,
                       _("the relay %s answered ATTACH_SESSION with the unknown status %" PRIu32), c->relay,
                       status);
        }
      return NULL;
    }
  g_autoptr (GPtrArray) streams = g_ptr_array_new_with_free_func ((GDestroyNotify) ttv_live_stream_info_free);
  if (!ttv_live_read_streams (&in, count, streams, error))
    {
      fail_reply (c, error);
      return NULL;
    }
  return g_steal_pointer (&streams);
}

gboolean
ttv_live_client_get_new_streams (TtvLiveClient *c, guint64 session_id, guint32 *status, GPtrArray *streams,
                                 GError **error)
{
  TtvLiveInput in = client_input (c);
  guint32 count;
  g_byte_array_set_size (c->request, 0);
  ttv_live_encode_id (c->request, TTV_LIVE_CMD_GET_NEW_STREAMS, session_id);
  if (!send_request (c, TTV_LIVE_CMD_GET_NEW_STREAMS, error))
    return FALSE;
  if (!ttv_live_read_streams_header (&in, status, &count, error))
    return fail_reply (c, error);
  if (*status != TTV_LIVE_NEW_STREAMS_OK)
    count = 0;                    /* the relay sends none with another status */
  if (!ttv_live_read_streams (&in, count, streams, error))
    return fail_reply (c, error);
  return TRUE;
}

gboolean
ttv_live_client_get_next_index (TtvLiveClient *c, guint64 stream_id, TtvLiveIndex *index, GError **error)
{
  TtvLiveInput in = client_input (c);
  g_byte_array_set_size (c->request, 0);
  ttv_live_encode_id (c->request, TTV_LIVE_CMD_GET_NEXT_INDEX, stream_id);
  if (!send_request (c, TTV_LIVE_CMD_GET_NEXT_INDEX, error))
    return FALSE;
  if (!ttv_live_read_index (&in, index, error))
    return fail_reply (c, error);
  return TRUE;
}

/* Reads @len bytes of reply data into @data, a slice at a time. */
static gboolean
read_data (TtvLiveClient *c, guint64 len, GByteArray *data, GError **error)
{
  g_byte_array_set_size (data, 0);
  while (data->len < len)
    {
      guint have = data->len;
      guint slice = (guint) MIN (len - have, READ_SLICE);
      g_byte_array_set_size (data, have + slice);
      if (!client_read (c, data->data + have, slice, error))
        {
          g_byte_array_set_size (data, have);
          return FALSE;
        }
    }
  return TRUE;
}

gboolean
ttv_live_client_get_packet (TtvLiveClient *c, guint64 stream_id, guint64 offset, guint32 len, GByteArray *data,
                            guint32 *status, guint32 *flags, GError **error)
{
  TtvLiveInput in = client_input (c);
  guint32 got;
  g_byte_array_set_size (c->request, 0);
  ttv_live_encode_get_packet (c->request, stream_id, offset, len);
  if (!send_request (c, TTV_LIVE_CMD_GET_PACKET, error))
    return FALSE;
  if (!ttv_live_read_packet_header (&in, status, &got, flags, error))
    return fail_reply (c, error);
  if (*status != TTV_LIVE_PACKET_OK)
    return TRUE;
  if (got != len)
    {
      c->broken = TRUE;
      g_set_error (error, TTV_LIVE_ERROR, TTV_LIVE_ERROR_PROTOCOL,
                   _("the relay %s answered GET_PACKET wrongly: %" PRIu32 " bytes instead of the %" PRIu32
                     " asked for"),
                   c->relay, got, len);
      return FALSE;
    }
  return read_data (c, got, data, error);
}

gboolean
ttv_live_client_get_metadata (TtvLiveClient *c, guint64 stream_id, GByteArray *data, guint32 *status,
                              GError **error)
{
  TtvLiveInput in = client_input (c);
  guint64 len;
  g_byte_array_set_size (c->request, 0);
  ttv_live_encode_id (c->request, TTV_LIVE_CMD_GET_METADATA, stream_id);
  if (!send_request (c, TTV_LIVE_CMD_GET_METADATA, error))
    return FALSE;
  if (!ttv_live_read_metadata_header (&in, &len, status, error))
    return fail_reply (c, error);
  g_byte_array_set_size (data, 0);
  if (*status != TTV_LIVE_METADATA_OK)
    return TRUE;
  return read_data (c, len, data, error);
}

gboolean
ttv_live_client_detach (TtvLiveClient *c, guint64 session_id, GError **error)
{
  TtvLiveInput in = client_input (c);
  guint32 status;
  g_byte_array_set_size (c->request, 0);
  ttv_live_encode_id (c->request, TTV_LIVE_CMD_DETACH_SESSION, session_id);
  if (!send_request (c, TTV_LIVE_CMD_DETACH_SESSION, error))
    return FALSE;
  if (!ttv_live_read_status (&in, &status, error))
    return fail_reply (c, error);
  if (status != TTV_LIVE_DETACH_OK)
    {
      g_set_error (error, TTV_LIVE_ERROR, TTV_LIVE_ERROR_REFUSED,
                   _("the relay %s refused to detach from session %" PRIu64 " (status %" PRIu32 ")"), c->relay,
                   session_id, status);
      return FALSE;
    }
  return TRUE;
}
