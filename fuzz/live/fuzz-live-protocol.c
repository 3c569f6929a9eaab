/* fuzz-live-protocol.c: libFuzzer target feeding arbitrary bytes to the
 * readers of lttng-relayd's replies (ttv-live-protocol.h), in the order a
 * viewer meets them, and to the net:// URL parser.  The first byte picks
 * the protocol version the session list is read in (2.13 or 2.15). */
#include "ttv-error.h"
#include "ttv-live-protocol.h"
#include "ttv-live-url.h"

#include <string.h>

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

typedef struct {
  const guint8 *data;
  gsize size, pos;
} Bytes;

static gboolean
bytes_read (gpointer source, void *buf, gsize n, GError **error)
{
  Bytes *b = source;
  if (n > b->size - b->pos)
    {
      g_set_error (error, TTV_LIVE_ERROR, TTV_LIVE_ERROR_CLOSED, "closed after %zu bytes", b->size - b->pos);
      b->pos = b->size;
      return FALSE;
    }
  memcpy (buf, b->data + b->pos, n);
  b->pos += n;
  return TRUE;
}

/* Every refusal is a GError of the live domain. */
static void
check_error (gboolean ok, GError **error)
{
  g_assert (ok == (*error == NULL));
  if (*error)
    g_assert ((*error)->domain == TTV_LIVE_ERROR && (*error)->message[0]);
  g_clear_error (error);
}

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  if (size == 0)
    return 0;
  guint32 minor = data[0] & 1 ? 15 : 13;
  Bytes b = { data + 1, size - 1, 0 };
  TtvLiveInput in = { bytes_read, &b };
  GError *error = NULL;

  guint64 id;
  guint32 major, got_minor, status, count, len32, flags;
  check_error (ttv_live_read_connect_reply (&in, &id, &major, &got_minor, &error), &error);
  GPtrArray *sessions = ttv_live_read_session_list (&in, minor, &error);
  check_error (sessions != NULL, &error);
  for (guint i = 0; sessions && i < sessions->len; i++)
    {
      const TtvLiveSessionInfo *s = sessions->pdata[i];
      g_assert (g_utf8_validate (s->hostname, -1, NULL) && g_utf8_validate (s->name, -1, NULL));
      g_assert (s->trace_format <= TTV_LIVE_TRACE_FORMAT_CTF_2);
    }
  if (sessions)
    g_ptr_array_unref (sessions);
  if (ttv_live_read_streams_header (&in, &status, &count, &error))
    {
      g_assert (count <= TTV_LIVE_MAX_STREAMS);
      GPtrArray *streams = g_ptr_array_new_with_free_func ((GDestroyNotify) ttv_live_stream_info_free);
      check_error (ttv_live_read_streams (&in, MIN (count, 64), streams, &error), &error);
      g_ptr_array_unref (streams);
    }
  check_error (error == NULL, &error);
  TtvLiveIndex index;
  if (ttv_live_read_index (&in, &index, &error) && index.status == 1)
    g_assert (index.packet_size % 8 == 0 && index.packet_size / 8 <= TTV_LIVE_MAX_PACKET
              && index.content_size <= index.packet_size);
  check_error (error == NULL, &error);
  if (ttv_live_read_packet_header (&in, &status, &len32, &flags, &error) && status == 1)
    g_assert (len32 <= TTV_LIVE_MAX_PACKET);
  check_error (error == NULL, &error);
  guint64 len64;
  if (ttv_live_read_metadata_header (&in, &len64, &status, &error) && status == 1)
    g_assert (len64 <= TTV_LIVE_MAX_METADATA);
  check_error (error == NULL, &error);
  check_error (ttv_live_read_status (&in, &status, &error), &error);

  /* The same bytes as a URL. */
  char *text = g_strndup ((const char *) data, MIN (size, 512));
  TtvLiveUrl *url = ttv_live_url_parse (text, &error);
  check_error (url != NULL, &error);
  if (url)
    {
      g_assert (url->relay_host[0] && url->port > 0);
      char *again = ttv_live_url_build (url->relay_host, url->port, url->target_host, url->session);
      TtvLiveUrl *url2 = ttv_live_url_parse (again, &error);
      /* What we write we read back (hosts and names without '/'). */
      if (url2)
        {
          g_assert (strcmp (url2->relay_host, url->relay_host) == 0 && url2->port == url->port);
          ttv_live_url_free (url2);
        }
      g_clear_error (&error);
      g_free (again);
      ttv_live_url_free (url);
    }
  g_free (text);
  return 0;
}
