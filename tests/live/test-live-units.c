/* test-live-units.c: the pieces of the live client on their own: net://
 * URLs (forms babeltrace2 reads, IPv6, ports, what is refused), the replies
 * of protocol 2.4 and 2.15 as lttng-relayd encodes them (session lists,
 * streams, indexes) and the limits, the spool's names (nothing outside it)
 * and its removal, with the spools that dead processes left. */
#include "ttv-error.h"
#include "ttv-live-protocol.h"
#include "ttv-live-spool.h"
#include "ttv-live-url.h"
#include "ttv-test-util.h"

#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

/* --- URLs ------------------------------------------------------------------ */

static void
test_url_forms (void)
{
  static const struct {
    const char *text, *host, *target, *session;
    guint16 port;
  } ok[] = {
    { "net://relay", "relay", NULL, NULL, 5344 },
    { "net://relay/", "relay", NULL, NULL, 5344 },
    { "net://relay:25344", "relay", NULL, NULL, 25344 },
    { "net4://10.0.0.1/host/box", "10.0.0.1", "box", NULL, 5344 },
    { "net://relay/host/box/", "relay", "box", NULL, 5344 },
    { "net://relay:1/host/box/my-session", "relay", "box", "my-session", 1 },
    { "net6://[::1]:5345/host/box/s", "::1", "box", "s", 5345 },
    { "net6://[fe80::1]/host/box/s/", "fe80::1", "box", "s", 5344 },
  };
  for (guint i = 0; i < G_N_ELEMENTS (ok); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (TtvLiveUrl) url = ttv_live_url_parse (ok[i].text, &error);
      g_assert_no_error (error);
      g_assert_true (ttv_live_url_is_live (ok[i].text));
      g_assert_cmpstr (url->relay_host, ==, ok[i].host);
      g_assert_cmpuint (url->port, ==, ok[i].port);
      g_assert_cmpstr (url->target_host, ==, ok[i].target);
      g_assert_cmpstr (url->session, ==, ok[i].session);
      /* What we build we read back. */
      g_autofree char *again = ttv_live_url_build (url->relay_host, url->port, url->target_host, url->session);
      g_autoptr (TtvLiveUrl) url2 = ttv_live_url_parse (again, &error);
      g_assert_no_error (error);
      g_assert_cmpstr (url2->relay_host, ==, url->relay_host);
      g_assert_cmpuint (url2->port, ==, url->port);
      g_assert_cmpstr (url2->session, ==, url->session);
    }
  g_autofree char *built = ttv_live_url_build ("::1", 5344, "h", "s");
  g_assert_cmpstr (built, ==, "net://[::1]:5344/host/h/s");
  g_assert_false (ttv_live_url_is_live ("/var/trace/net://x"));
  g_assert_false (ttv_live_url_is_live ("trace.tar.gz"));
}

static void
test_url_refused (void)
{
  static const struct {
    const char *text, *why;
  } bad[] = {
    { "http://relay", "does not start with net://" },
    { "net://", "no relay host" },
    { "net://:5344", "no relay host" },
    { "net://relay:0", "port is not a number from 1 to 65535" },
    { "net://relay:65536", "port is not a number from 1 to 65535" },
    { "net://relay:12ab", "port is not a number" },
    { "net://[::1", "unclosed or empty [address]" },
    { "net://[]:1", "unclosed or empty [address]" },
    { "net://[::1]x/host/h/s", "text after the [address]" },
    { "net://relay/session", "the path is not /host/HOSTNAME/SESSION" },
    { "net://relay/hosts/h/s", "the path is not /host/HOSTNAME/SESSION" },
    { "net://relay/host/h/s/extra", "the path is not /host/HOSTNAME/SESSION" },
    { "net://relay/host//s", "an empty host or session name" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (TtvLiveUrl) url = ttv_live_url_parse (bad[i].text, &error);
      g_assert_null (url);
      g_assert_error (error, TTV_LIVE_ERROR, TTV_LIVE_ERROR_URL);
      g_assert_true (g_str_has_prefix (error->message, bad[i].text));
      g_assert_nonnull (strstr (error->message, bad[i].why));
    }
}

/* --- Replies -------------------------------------------------------------- */

typedef struct {
  GByteArray *bytes;
  guint pos;
} Bytes;

static gboolean
bytes_read (gpointer source, void *buf, gsize n, GError **error)
{
  Bytes *b = source;
  if (n > b->bytes->len - b->pos)
    {
      g_set_error (error, TTV_LIVE_ERROR, TTV_LIVE_ERROR_CLOSED, "closed");
      return FALSE;
    }
  memcpy (buf, b->bytes->data + b->pos, n);
  b->pos += (guint) n;
  return TRUE;
}

static void
put32 (GByteArray *a, guint32 v)
{
  v = GUINT32_TO_BE (v);
  g_byte_array_append (a, (const guint8 *) &v, 4);
}

static void
put64 (GByteArray *a, guint64 v)
{
  v = GUINT64_TO_BE (v);
  g_byte_array_append (a, (const guint8 *) &v, 8);
}

static void
put_fixed (GByteArray *a, const char *s, guint size)
{
  g_autofree guint8 *field = g_malloc0 (size);
  memcpy (field, s, MIN (strlen (s), size));
  g_byte_array_append (a, field, size);
}

/* A session list of one session, as protocol 2.@minor lays it out: fixed
 * fields before 2.15 (@host, @name), else lengths (@host_len, @name_len:
 * G_MAXUINT32 for the strings' own), the trace format and the strings. */
static void
put_one_session (GByteArray *a, guint minor, guint64 id, const char *host, const char *name, guint32 host_len,
                 guint32 name_len, guint32 format)
{
  g_byte_array_set_size (a, 0);
  put32 (a, 1);
  put64 (a, id);
  put32 (a, 1000000);
  put32 (a, 1);
  put32 (a, 5);
  if (minor < 15)
    {
      put_fixed (a, host, TTV_LIVE_HOST_NAME_MAX);
      put_fixed (a, name, TTV_LIVE_NAME_MAX);
      return;
    }
  put32 (a, host_len == G_MAXUINT32 ? (guint32) strlen (host) : host_len);
  put32 (a, name_len == G_MAXUINT32 ? (guint32) strlen (name) : name_len);
  put32 (a, format);
  g_byte_array_append (a, (const guint8 *) host, (guint) strlen (host));
  g_byte_array_append (a, (const guint8 *) name, (guint) strlen (name));
}

/* The list in @b, read in protocol 2.@minor: NULL with the error's @code
 * and @message when @code >= 0. */
static GPtrArray *
read_list (Bytes *b, guint minor, gint code, const char *message)
{
  TtvLiveInput in = { bytes_read, b };
  g_autoptr (GError) error = NULL;
  GPtrArray *list;

  b->pos = 0;
  list = ttv_live_read_session_list (&in, minor, &error);
  if (code < 0)
    {
      g_assert_no_error (error);
      return list;
    }
  g_assert_null (list);
  g_assert_error (error, TTV_LIVE_ERROR, code);
  g_assert_nonnull (strstr (error->message, message));
  return NULL;
}

static void
test_session_lists (void)
{
  g_autoptr (GByteArray) a = g_byte_array_new ();
  Bytes b = { a, 0 };
  g_autofree char *long_name = g_strnfill (300, 'n');
  g_autofree char *unterminated = g_strnfill (TTV_LIVE_NAME_MAX, 'x');

  /* 2.4: fixed fields. */
  put_one_session (a, 13, 9, "box", "demo", 0, 0, 0);
  g_autoptr (GPtrArray) l24 = read_list (&b, 13, -1, NULL);
  g_assert_cmpuint (l24->len, ==, 1);
  const TtvLiveSessionInfo *s = l24->pdata[0];
  g_assert_cmpuint (s->id, ==, 9);
  g_assert_cmpuint (s->live_timer_us, ==, 1000000);
  g_assert_cmpuint (s->clients, ==, 1);
  g_assert_cmpuint (s->streams, ==, 5);
  g_assert_cmpstr (s->hostname, ==, "box");
  g_assert_cmpstr (s->name, ==, "demo");
  g_assert_cmpuint (s->trace_format, ==, TTV_LIVE_TRACE_FORMAT_CTF_1_8);

  /* 2.15: lengths, names longer than 2.4 allowed, the trace format. */
  put_one_session (a, 15, 10, "box", long_name, G_MAXUINT32, G_MAXUINT32, TTV_LIVE_TRACE_FORMAT_CTF_2);
  g_autoptr (GPtrArray) l215 = read_list (&b, 15, -1, NULL);
  s = l215->pdata[0];
  g_assert_cmpstr (s->name, ==, long_name);
  g_assert_cmpuint (s->trace_format, ==, TTV_LIVE_TRACE_FORMAT_CTF_2);

  /* Refused: too many, too long, no terminator, an unknown format, cut short. */
  g_byte_array_set_size (a, 0);
  put32 (a, TTV_LIVE_MAX_SESSIONS + 1);
  read_list (&b, 13, TTV_LIVE_ERROR_TOO_LARGE, "announces 65537 sessions");
  put_one_session (a, 15, 1, "h", "s", TTV_LIVE_MAX_NAME + 1, 1, 0);
  read_list (&b, 15, TTV_LIVE_ERROR_TOO_LARGE, "host name of 4097 bytes");
  put_one_session (a, 13, 1, "box", unterminated, 0, 0, 0);
  read_list (&b, 13, TTV_LIVE_ERROR_PROTOCOL, "without its terminating NUL byte");
  put_one_session (a, 15, 1, "h", "s", G_MAXUINT32, G_MAXUINT32, 7);
  read_list (&b, 15, TTV_LIVE_ERROR_PROTOCOL, "unknown trace format 7");
  g_byte_array_set_size (a, a->len - 1);
  read_list (&b, 15, TTV_LIVE_ERROR_CLOSED, "closed");
}

static void
test_streams_and_indexes (void)
{
  g_autoptr (GByteArray) a = g_byte_array_new ();
  g_autoptr (GError) error = NULL;
  Bytes b = { a, 0 };
  TtvLiveInput in = { bytes_read, &b };
  guint32 status, count;

  put32 (a, TTV_LIVE_ATTACH_OK);
  put32 (a, 2);
  put64 (a, 1);
  put64 (a, 7);
  put32 (a, 0);
  put_fixed (a, "ust/uid/1000/64-bit", TTV_LIVE_PATH_MAX);
  put_fixed (a, "channel0_0", TTV_LIVE_NAME_MAX);
  put64 (a, 3);
  put64 (a, 7);
  put32 (a, 1);
  put_fixed (a, "ust/uid/1000/64-bit", TTV_LIVE_PATH_MAX);
  put_fixed (a, "metadata", TTV_LIVE_NAME_MAX);
  g_assert_true (ttv_live_read_streams_header (&in, &status, &count, &error));
  g_assert_cmpuint (count, ==, 2);
  g_autoptr (GPtrArray) streams = g_ptr_array_new_with_free_func ((GDestroyNotify) ttv_live_stream_info_free);
  g_assert_true (ttv_live_read_streams (&in, count, streams, &error));
  g_assert_no_error (error);
  const TtvLiveStreamInfo *s0 = streams->pdata[0], *s1 = streams->pdata[1];
  g_assert_cmpstr (s0->path, ==, "ust/uid/1000/64-bit");
  g_assert_cmpstr (s0->channel, ==, "channel0_0");
  g_assert_false (s0->metadata);
  g_assert_true (s1->metadata);
  g_assert_cmpuint (s1->ctf_trace_id, ==, 7);

  /* An index: a packet of 4096 bytes; its sizes are in bits. */
  g_byte_array_set_size (a, 0);
  b.pos = 0;
  guint64 fields[] = { 0, 32768, 15200, 100, 200, 3, 0 };
  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    put64 (a, fields[i]);
  put32 (a, TTV_LIVE_INDEX_OK);
  put32 (a, TTV_LIVE_FLAG_NEW_METADATA | TTV_LIVE_FLAG_NEW_STREAM);
  TtvLiveIndex idx;
  g_assert_true (ttv_live_read_index (&in, &idx, &error));
  g_assert_cmpuint (idx.packet_size, ==, 32768);
  g_assert_cmpuint (idx.timestamp_end, ==, 200);
  g_assert_cmpuint (idx.events_discarded, ==, 3);
  g_assert_cmpuint (idx.flags, ==, 3);

  /* Content past the packet, sizes that are no bytes, a huge packet. */
  static const guint64 wrong[][2] = { { 32768, 32776 }, { 32769, 8 }, { 0, 0 },
                                      { (guint64) (TTV_LIVE_MAX_PACKET + 1) * 8, 8 } };
  for (guint i = 0; i < G_N_ELEMENTS (wrong); i++)
    {
      g_byte_array_set_size (a, 0);
      b.pos = 0;
      put64 (a, 0);
      put64 (a, wrong[i][0]);
      put64 (a, wrong[i][1]);
      for (guint k = 0; k < 4; k++)
        put64 (a, 0);
      put32 (a, TTV_LIVE_INDEX_OK);
      put32 (a, 0);
      g_assert_false (ttv_live_read_index (&in, &idx, &error));
      g_assert_true (g_error_matches (error, TTV_LIVE_ERROR, i == 3 ? TTV_LIVE_ERROR_TOO_LARGE
                                                                    : TTV_LIVE_ERROR_PROTOCOL));
      g_clear_error (&error);
    }

  /* A beacon: only its end counts. */
  g_byte_array_set_size (a, 0);
  b.pos = 0;
  for (guint k = 0; k < 4; k++)
    put64 (a, 0);
  put64 (a, 12345);
  put64 (a, 0);
  put64 (a, 2);
  put32 (a, TTV_LIVE_INDEX_INACTIVE);
  put32 (a, 0);
  g_assert_true (ttv_live_read_index (&in, &idx, &error));
  g_assert_cmpuint (idx.status, ==, TTV_LIVE_INDEX_INACTIVE);
  g_assert_cmpuint (idx.timestamp_end, ==, 12345);
  g_assert_cmpuint (idx.stream_class_id, ==, 2);

  /* Commands: header and payload, big-endian. */
  g_byte_array_set_size (a, 0);
  ttv_live_encode_get_packet (a, 5, 4096, 8192);
  g_assert_cmpuint (a->len, ==, 16 + 20);
  g_assert_cmpuint (GUINT64_FROM_BE (*(guint64 *) a->data), ==, 20);
  g_assert_cmpuint (GUINT32_FROM_BE (*(guint32 *) (a->data + 8)), ==, TTV_LIVE_CMD_GET_PACKET);
  g_assert_cmpuint (GUINT32_FROM_BE (*(guint32 *) (a->data + 32)), ==, 8192);
}

/* --- The spool ------------------------------------------------------------- */

static void
test_spool_names (void)
{
  static const struct {
    const char *dir, *name;
    gboolean ok;
  } cases[] = {
    { "kernel", "channel0_0", TRUE }, { "ust/uid/1000/64-bit", "metadata", TRUE },
    { "ust/pid/app-42-20240101-101010", "chan_3", TRUE },
    { "../x", "c", FALSE }, { "a/../../x", "c", FALSE }, { "/etc", "c", FALSE }, { "a/./b", "c", FALSE },
    { "a//b", "c", FALSE }, { "", "c", FALSE }, { "a", "", FALSE }, { "a", "..", FALSE },
    { "a", "b/c", FALSE }, { "a", ".hidden", FALSE }, { ".git", "c", FALSE }, { "a\\b", "c", FALSE },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;
      g_assert_cmpint (ttv_live_spool_check_name (cases[i].dir, cases[i].name, &error), ==, cases[i].ok);
      if (!cases[i].ok)
        g_assert_error (error, TTV_LIVE_ERROR, TTV_LIVE_ERROR_PROTOCOL);
    }
}

static void
test_spool_life (void)
{
  const char *cache = ttv_test_get_tmp_dir ();
  g_autofree char *root = g_build_filename (cache, "ttv", "live", NULL);
  /* A spool left by a process that is gone (pid 0x7ffffffe never runs
   * here), and one of a running process (ours, as another spool). */
  g_autofree char *stale = g_build_filename (root, "2147483646-abcdef", "kernel", NULL);
  g_autofree char *alive = g_strdup_printf ("%s/%d-keep", root, (int) getppid ());
  g_autoptr (GError) error = NULL;

  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  g_assert_cmpint (g_mkdir_with_parents (stale, 0700), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (alive, 0700), ==, 0);
  TtvLiveSpool *spool = ttv_live_spool_new (&error);
  g_assert_no_error (error);
  g_assert_false (g_file_test (stale, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (alive, G_FILE_TEST_IS_DIR));
  g_assert_true (g_str_has_prefix (ttv_live_spool_get_path (spool), root));

  g_assert_true (ttv_live_spool_append (spool, "ust/uid/0/64-bit", "metadata", (const guint8 *) "ab", 2, &error));
  g_assert_true (ttv_live_spool_append (spool, "ust/uid/0/64-bit", "metadata", (const guint8 *) "cd", 2, &error));
  g_assert_no_error (error);
  g_autofree char *meta = g_build_filename (ttv_live_spool_get_path (spool), "ust/uid/0/64-bit/metadata", NULL);
  g_autofree char *contents = NULL;
  g_assert_true (g_file_get_contents (meta, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "abcd");
  g_assert_cmpuint (ttv_live_spool_get_size (spool), ==, 4);
  ttv_live_spool_close_file (spool, "ust/uid/0/64-bit", "metadata");
  g_autofree char *path = g_strdup (ttv_live_spool_get_path (spool));
  ttv_live_spool_free (spool);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/live/url/forms", test_url_forms);
  g_test_add_func ("/live/url/refused", test_url_refused);
  g_test_add_func ("/live/protocol/session-lists", test_session_lists);
  g_test_add_func ("/live/protocol/streams-and-indexes", test_streams_and_indexes);
  g_test_add_func ("/live/spool/names", test_spool_names);
  g_test_add_func ("/live/spool/life", test_spool_life);
  return g_test_run ();
}
