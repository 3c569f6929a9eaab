/* test-ctf-follow.c: CTF traces still being written: a writer in the test
 * appends the packets (and metadata) of a generated trace to a live copy
 * while the library refreshes it and while ttv-report --follow reads it. */
#include "ttv-test-util.h"
#include "formats/ctf/ttv-ctf-sim.h"
#include "formats/ctf/ttv-ctf-private.h"
#include "ttv-error.h"
#include "ttv-trace.h"

#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>

#define PACKET 4096u

static char *tmp_dir;
static char *src_dir;   /* the finished trace */

/* --- The finished trace, packet by packet ----------------------------- */

typedef struct {
  guint64 n_events;
  TtvTime last;
} PacketInfo;

typedef struct {
  char *name;
  char *data;           /* owned: the whole stream file */
  gsize len;
  GArray *packets;      /* of PacketInfo, from reading the finished trace */
  gsize written;        /* bytes in the live copy */
  FILE *f;
} Stream;

typedef struct {
  char *dir;
  GPtrArray *streams;   /* of Stream *, by name */
} Live;

static void
stream_free (Stream *s)
{
  g_free (s->name);
  g_free (s->data);
  g_array_unref (s->packets);
  if (s->f)
    fclose (s->f);
  g_free (s);
}

static void
make_source (void)
{
  static const guint cpu_ids[] = { 0, 1, 2 };
  TtvSimOptions so;
  ttv_sim_options_init (&so);
  so.seed = 5;
  so.cpu_ids = cpu_ids;
  so.n_cpus = G_N_ELEMENTS (cpu_ids);
  so.n_processes = 20;
  so.max_events = 6000;
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvSim) sim = ttv_sim_new (&so, &error);
  g_assert_no_error (error);
  TtvCtfWriterOptions wo = { .byte_order = TTV_BYTE_ORDER_LITTLE, .packet_size = PACKET };
  g_assert_true (ttv_ctf_write_simulation (src_dir, sim, &wo, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
}

static Live *
live_new (const char *name)
{
  Live *l = g_new0 (Live, 1);
  l->dir = g_build_filename (tmp_dir, name, NULL);
  g_assert_cmpint (g_mkdir_with_parents (l->dir, 0755), ==, 0);
  l->streams = g_ptr_array_new_with_free_func ((GDestroyNotify) stream_free);
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvTrace) t = ttv_trace_open (src_dir, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < t->tracefiles->len; i++)
    {
      TtvTracefile *tf = g_ptr_array_index (t->tracefiles, i);
      Stream *s = g_new0 (Stream, 1);
      s->name = g_strdup (tf->name);
      g_autofree char *path = g_build_filename (src_dir, tf->name, NULL);
      g_assert_true (g_file_get_contents (path, &s->data, &s->len, NULL));
      g_assert_cmpuint (s->len % PACKET, ==, 0);
      s->packets = g_array_new (FALSE, TRUE, sizeof (PacketInfo));
      g_array_set_size (s->packets, s->len / PACKET);
      g_assert_cmpuint (tf->n_blocks, ==, s->packets->len);
      g_autoptr (TtvCursor) c = ttv_cursor_new (tf, &error);
      g_assert_no_error (error);
      TtvEvent ev;
      while (ttv_cursor_next (c, &ev, &error))
        {
          g_assert_cmpuint (ev.pos.block, <, s->packets->len);
          PacketInfo *p = &g_array_index (s->packets, PacketInfo, ev.pos.block);
          p->n_events++;
          p->last = ev.time;
        }
      g_assert_no_error (error);
      g_ptr_array_add (l->streams, s);
    }
  g_assert_cmpuint (l->streams->len, ==, 3);
  return l;
}

static void
live_free (Live *l)
{
  g_ptr_array_unref (l->streams);
  g_free (l->dir);
  g_free (l);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Live, live_free)

/* Appends bytes [written, @upto) of stream @i to its live file. */
static void
live_write (Live *l, guint i, gsize upto)
{
  Stream *s = g_ptr_array_index (l->streams, i);
  upto = MIN (upto, s->len);
  if (s->f == NULL)
    {
      g_autofree char *path = g_build_filename (l->dir, s->name, NULL);
      s->f = fopen (path, "ab");
      g_assert_nonnull (s->f);
    }
  if (upto > s->written)
    g_assert_cmpuint (fwrite (s->data + s->written, 1, upto - s->written, s->f), ==, upto - s->written);
  fflush (s->f);
  s->written = MAX (s->written, upto);
}

/* Completes the packet being written and appends @n more. */
static void
live_packets (Live *l, guint i, guint n)
{
  Stream *s = g_ptr_array_index (l->streams, i);
  live_write (l, i, (s->written + PACKET - 1) / PACKET * PACKET + (gsize) n * PACKET);
}

static gboolean
live_done (const Live *l)
{
  for (guint i = 0; i < l->streams->len; i++)
    {
      const Stream *s = g_ptr_array_index (l->streams, i);
      if (s->written < s->len)
        return FALSE;
    }
  return TRUE;
}

static void
copy_metadata (const char *to_dir)
{
  g_autofree char *from = g_build_filename (src_dir, "metadata", NULL);
  g_autofree char *to = g_build_filename (to_dir, "metadata", NULL);
  g_autofree char *data = NULL;
  gsize len;
  g_assert_true (g_file_get_contents (from, &data, &len, NULL));
  g_assert_true (g_file_set_contents (to, data, (gssize) len, NULL));
}

/* The live trace holds, per stream, the events of its whole packets. */
static void
check_trace (const Live *l, TtvTrace *t)
{
  guint64 total = 0, want_total = 0;
  for (guint i = 0; i < l->streams->len; i++)
    {
      const Stream *s = g_ptr_array_index (l->streams, i);
      guint whole = (guint) (s->written / PACKET);
      guint64 want = 0;
      TtvTime want_last = TTV_TIME_MIN;
      for (guint p = 0; p < whole; p++)
        {
          const PacketInfo *pi = &g_array_index (s->packets, PacketInfo, p);
          want += pi->n_events;
          if (pi->n_events)
            want_last = pi->last;
        }
      want_total += want;
      TtvTracefile *tf = NULL;
      for (guint j = 0; j < t->tracefiles->len; j++)
        if (strcmp (((TtvTracefile *) g_ptr_array_index (t->tracefiles, j))->name, s->name) == 0)
          tf = g_ptr_array_index (t->tracefiles, j);
      if (whole == 0)
        {
          g_assert_true (tf == NULL || tf->n_blocks == 0);
          continue;
        }
      g_assert_nonnull (tf);
      g_assert_cmpuint (tf->n_blocks, ==, whole);
      g_autoptr (GError) error = NULL;
      g_autoptr (TtvCursor) c = ttv_cursor_new (tf, &error);
      g_assert_no_error (error);
      TtvEvent ev;
      guint64 n = 0;
      TtvTime last = TTV_TIME_MIN;
      while (ttv_cursor_next (c, &ev, &error))
        {
          n++;
          last = ev.time;
        }
      g_assert_no_error (error);
      g_assert_cmpuint (n, ==, want);
      g_assert_cmpint (last, ==, want_last);
      total += n;
    }
  g_assert_cmpuint (total, ==, want_total);
}

/* --- (a) the library refresh ------------------------------------------ */

static void
test_refresh (void)
{
  g_autoptr (Live) l = live_new ("live-refresh");
  copy_metadata (l->dir);
  /* Streams 0 and 1 have a packet; stream 0 also the first bytes of its
   * second (a header cut short); stream 2 does not exist yet. */
  live_packets (l, 0, 1);
  live_packets (l, 1, 1);
  live_write (l, 0, PACKET + 40);
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvTrace) t = ttv_trace_open (l->dir, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (t->tracefiles->len, ==, 2);
  check_trace (l, t);

  gboolean changed = TRUE;
  g_assert_true (ttv_trace_refresh (t, &changed, &error));
  g_assert_no_error (error);
  g_assert_false (changed);

  /* The cut packet completed, the next one written up to its last byte. */
  live_packets (l, 0, 0);
  live_write (l, 0, 3 * PACKET - 1);
  g_assert_true (ttv_trace_refresh (t, &changed, &error));
  g_assert_no_error (error);
  g_assert_true (changed);
  check_trace (l, t);

  /* A new stream file, first with a part of a packet only. */
  live_write (l, 2, 100);
  g_assert_true (ttv_trace_refresh (t, &changed, &error));
  g_assert_no_error (error);
  g_assert_false (changed);
  g_assert_cmpuint (t->tracefiles->len, ==, 2);
  live_packets (l, 2, 0);
  g_assert_true (ttv_trace_refresh (t, &changed, &error));
  g_assert_no_error (error);
  g_assert_true (changed);
  g_assert_cmpuint (t->tracefiles->len, ==, 3);
  check_trace (l, t);

  /* Then a packet at a time, round robin, with half packets between. */
  guint steps = 0;
  for (guint round = 0; !live_done (l); round++)
    for (guint i = 0; i < l->streams->len; i++)
      {
        Stream *s = g_ptr_array_index (l->streams, i);
        if (s->written >= s->len)
          continue;
        live_packets (l, i, 1);
        live_write (l, i, s->written + PACKET / 2);
        g_assert_true (ttv_trace_refresh (t, &changed, &error));
        g_assert_no_error (error);
        check_trace (l, t);
        steps++;
      }
  g_assert_cmpuint (steps, >, 3);
  g_autoptr (TtvTrace) src = ttv_trace_open (src_dir, &error);
  g_assert_no_error (error);
  g_assert_cmpint (t->start, ==, src->start);
  g_assert_cmpint (t->end, ==, src->end);
}

/* --- Metadata that grows ---------------------------------------------- */

/* Offsets in @text where top-level event declarations start. */
static GArray *
event_starts (const char *text)
{
  GArray *a = g_array_new (FALSE, FALSE, sizeof (gsize));
  for (const char *p = text; (p = strstr (p, "\nevent {")); p++)
    {
      gsize at = (gsize) (p - text) + 1;
      g_array_append_val (a, at);
    }
  return a;
}

/* One metadata packet (little endian) holding @len bytes of @text. */
static void
append_metadata_packet (GByteArray *out, const char *text, gsize len, gsize padding)
{
  guint8 h[37] = { 0 };
  guint32 magic = GUINT32_TO_LE (0x75D11D57u);
  guint32 content = GUINT32_TO_LE ((guint32) ((37 + len) * 8));
  guint32 packet = GUINT32_TO_LE ((guint32) ((37 + len + padding) * 8));
  memcpy (h, &magic, 4);
  memcpy (h + 24, &content, 4);
  memcpy (h + 28, &packet, 4);
  h[35] = 1;
  h[36] = 8;
  g_byte_array_append (out, h, sizeof h);
  g_byte_array_append (out, (const guint8 *) text, (guint) len);
  for (gsize i = 0; i < padding; i++)
    g_byte_array_append (out, (const guint8 *) "", 1);
}

static void
append_file (const char *path, const void *data, gsize len)
{
  FILE *f = fopen (path, "ab");
  g_assert_nonnull (f);
  g_assert_cmpuint (fwrite (data, 1, len, f), ==, len);
  fclose (f);
}

static void
test_metadata (gconstpointer data)
{
  gboolean packetized = GPOINTER_TO_INT (data);
  g_autoptr (Live) l = live_new (packetized ? "live-meta-packets" : "live-meta-text");
  g_autofree char *src_meta = g_build_filename (src_dir, "metadata", NULL);
  g_autofree char *meta = g_build_filename (l->dir, "metadata", NULL);
  g_autofree char *text = NULL;
  gsize len;
  g_assert_true (g_file_get_contents (src_meta, &text, &len, NULL));
  g_autoptr (GArray) starts = event_starts (text);
  g_assert_cmpuint (starts->len, >, 100);
  /* Pieces: the head with the first 40 event classes, then groups of the others. */
  gsize cut1 = g_array_index (starts, gsize, 40), cut2 = g_array_index (starts, gsize, starts->len / 2);
  g_autoptr (GByteArray) bytes = g_byte_array_new ();
  gsize whole1, whole2;
  if (packetized)
    {
      append_metadata_packet (bytes, text, cut1, 11);
      whole1 = bytes->len;
      append_metadata_packet (bytes, text + cut1, cut2 - cut1, 0);
      whole2 = bytes->len;
      append_metadata_packet (bytes, text + cut2, len - cut2, 3);
    }
  else
    {
      g_byte_array_append (bytes, (const guint8 *) text, (guint) len);
      whole1 = cut1;
      whole2 = cut2;
    }
  append_file (meta, bytes->data, whole1);
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvTrace) t = ttv_trace_open (l->dir, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (t->event_types->len, ==, 40);
  g_assert_cmpuint (t->tracefiles->len, ==, 0);

  /* The start of the next piece: nothing whole yet. */
  gsize half = whole1 + 20;
  append_file (meta, bytes->data + whole1, half - whole1);
  gboolean changed = TRUE;
  g_assert_true (ttv_trace_refresh (t, &changed, &error));
  g_assert_no_error (error);
  g_assert_false (changed);
  g_assert_cmpuint (t->event_types->len, ==, 40);

  append_file (meta, bytes->data + half, whole2 - half);
  g_assert_true (ttv_trace_refresh (t, &changed, &error));
  g_assert_no_error (error);
  g_assert_true (changed);
  g_assert_cmpuint (t->event_types->len, ==, starts->len / 2);

  /* The rest, and every packet: all events decode with the grown metadata. */
  append_file (meta, bytes->data + whole2, bytes->len - whole2);
  for (guint i = 0; i < l->streams->len; i++)
    live_packets (l, i, G_MAXUINT16);
  g_assert_true (ttv_trace_refresh (t, &changed, &error));
  g_assert_no_error (error);
  g_assert_true (changed);
  g_assert_cmpuint (t->event_types->len, ==, starts->len);
  check_trace (l, t);
  g_autoptr (TtvDecoder) d = ttv_decoder_new ();
  guint64 decoded = 0;
  for (guint i = 0; i < t->tracefiles->len; i++)
    {
      g_autoptr (TtvCursor) c = ttv_cursor_new (g_ptr_array_index (t->tracefiles, i), &error);
      TtvEvent ev;
      while (ttv_cursor_next (c, &ev, &error))
        {
          ttv_decoder_reset (d);
          g_assert_cmpint (ttv_event_decode_fields (&ev, d, &error), >=, 0);
          g_assert_no_error (error);
          decoded++;
        }
      g_assert_no_error (error);
    }
  g_assert_cmpuint (decoded, >, 1000);

  /* Metadata rewritten rather than appended to: a clear refusal. */
  text[10] = text[10] == 'x' ? 'y' : 'x';
  g_autoptr (GByteArray) other = g_byte_array_new ();
  if (packetized)
    append_metadata_packet (other, text, len, 0);
  else
    g_byte_array_append (other, (const guint8 *) text, (guint) len);
  g_byte_array_append (other, (const guint8 *) "\n", 1);
  g_assert_true (g_file_set_contents (meta, (const char *) other->data, other->len, NULL));
  g_assert_false (ttv_trace_refresh (t, &changed, &error));
  g_assert_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_UNSUPPORTED);
  g_assert_nonnull (strstr (error->message, "metadata"));
  g_assert_nonnull (strstr (error->message, "rewritten"));
}

/* --- A damaged packet appended ---------------------------------------- */

/* Waits (up to 10 s) until ttv-report wrote something to @path: it has
 * opened the trace. */
static void
wait_output (const char *path)
{
  for (guint i = 0; i < 400; i++)
    {
      GStatBuf st;
      if (g_stat (path, &st) == 0 && st.st_size > 0)
        return;
      g_usleep (25000);
    }
  g_error ("ttv-report --follow wrote nothing to %s", path);
}

/* Waits up to 20 s for @pid to exit; returns its wait status. */
static int
wait_exit (GPid pid)
{
  int status = 0;
  for (guint i = 0; i < 400; i++)
    {
      pid_t r = waitpid (pid, &status, WNOHANG);
      g_assert_cmpint (r, >=, 0);
      if (r == pid)
        {
          g_spawn_close_pid (pid);
          return status;
        }
      g_usleep (50000);
    }
  kill (pid, SIGKILL);
  waitpid (pid, &status, 0);
  g_spawn_close_pid (pid);
  g_error ("ttv-report --follow did not stop");
  return status;
}

static void
test_corrupt (void)
{
  g_autoptr (Live) l = live_new ("live-corrupt");
  copy_metadata (l->dir);
  for (guint i = 0; i < l->streams->len; i++)
    live_packets (l, i, 1);
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvTrace) t = ttv_trace_open (l->dir, &error);
  g_assert_no_error (error);
  check_trace (l, t);
  /* ttv-report --follow reads along (its errors go to a file). */
  g_autofree char *err_path = g_build_filename (tmp_dir, "corrupt-err.txt", NULL);
  g_autofree char *out_path = g_build_filename (tmp_dir, "corrupt-out.txt", NULL);
  g_autofree char *q_report = g_shell_quote (TTV_REPORT_PATH), *q_dir = g_shell_quote (l->dir);
  g_autofree char *q_err = g_shell_quote (err_path), *q_out = g_shell_quote (out_path);
  g_autofree char *cmd = g_strdup_printf ("exec %s --follow -o %s %s 2>%s", q_report, q_out, q_dir, q_err);
  const char *argv[] = { "/bin/sh", "-c", cmd, NULL };
  GPid pid;
  g_assert_true (g_spawn_async (NULL, (char **) argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, &pid,
                                &error));
  g_assert_no_error (error);
  wait_output (out_path);

  /* Stream 1's second packet with a bad magic. */
  Stream *s = g_ptr_array_index (l->streams, 1);
  g_assert_cmpuint (s->len, >=, 2 * PACKET);
  s->data[PACKET] ^= 0x5a;
  live_packets (l, 1, 1);
  gboolean changed;
  g_assert_false (ttv_trace_refresh (t, &changed, &error));
  g_assert_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_CORRUPT);
  g_autofree char *offset = g_strdup_printf ("byte offset %u", PACKET);
  g_assert_nonnull (strstr (error->message, s->name));
  g_assert_nonnull (strstr (error->message, offset));
  g_assert_nonnull (strstr (error->message, "magic"));
  g_test_message ("%s", error->message);

  /* ttv-report stops with that message. */
  int status = wait_exit (pid);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), !=, 0);
  g_autofree char *err = NULL;
  g_assert_true (g_file_get_contents (err_path, &err, NULL, NULL));
  g_assert_nonnull (strstr (err, s->name));
  g_assert_nonnull (strstr (err, offset));
}

/* --- (b) ttv-report --follow ------------------------------------------ */

static GPtrArray *
lines_of (const char *text)
{
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);
  g_auto (GStrv) v = g_strsplit (text, "\n", -1);
  for (guint i = 0; v[i]; i++)
    if (v[i][0])
      g_ptr_array_add (lines, g_strdup (v[i]));
  return lines;
}

static void
test_report (void)
{
  g_autoptr (Live) l = live_new ("live-report");
  copy_metadata (l->dir);
  /* Every stream starts with a packet (so that the report knows how far
   * each CPU got); stream 0 also has half of its second. */
  for (guint i = 0; i < l->streams->len; i++)
    live_packets (l, i, 1);
  live_write (l, 0, PACKET + PACKET / 2);
  g_autofree char *out_path = g_build_filename (tmp_dir, "follow-ctf.txt", NULL);
  const char *argv[] = { TTV_REPORT_PATH, "--follow", "-o", out_path, l->dir, NULL };
  GPid pid;
  g_autoptr (GError) error = NULL;
  g_assert_true (g_spawn_async (NULL, (char **) argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDERR_TO_DEV_NULL,
                                NULL, NULL, &pid, &error));
  g_assert_no_error (error);
  gsize seen_midway = 0;
  guint round = 0;
  while (!live_done (l))
    {
      for (guint i = 0; i < l->streams->len; i++)
        {
          live_packets (l, i, 1);
          if (round % 2 == 0)
            live_write (l, i, ((Stream *) g_ptr_array_index (l->streams, i))->written + 200);
        }
      g_usleep (60000);
      if (++round == 3)
        {
          g_autofree char *so_far = NULL;
          g_usleep (300000);
          g_file_get_contents (out_path, &so_far, &seen_midway, NULL);
        }
    }
  g_usleep (300000);
  kill (pid, SIGINT);
  int status = wait_exit (pid);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
  g_assert_cmpuint (round, >, 3);
  g_assert_cmpuint (seen_midway, >, 0);

  const char *plain[] = { TTV_REPORT_PATH, src_dir, NULL };
  g_autofree char *want = NULL, *got = NULL;
  g_assert_true (g_spawn_sync (NULL, (char **) plain, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &want,
                               NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (out_path, &got, NULL, NULL));
  g_autoptr (GPtrArray) gl = lines_of (got), wl = lines_of (want);
  g_test_message ("follow: %u lines, %" G_GSIZE_FORMAT " bytes midway", gl->len, seen_midway);
  for (guint i = 0; i < MIN (gl->len, wl->len); i++)
    if (strcmp (g_ptr_array_index (gl, i), g_ptr_array_index (wl, i)) != 0)
      g_error ("line %u:\n got  %s\n want %s", i + 1, (char *) g_ptr_array_index (gl, i),
               (char *) g_ptr_array_index (wl, i));
  g_assert_cmpuint (gl->len, ==, wl->len);
  g_assert_cmpuint (wl->len, >, 1000);
  g_assert_cmpuint (seen_midway, <, strlen (got));
}

/* --- Real LTTng traces rebuilt a packet at a time ---------------------- */

static guint64
count_events (TtvTracefile *tf)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvCursor) c = ttv_cursor_new (tf, &error);
  g_assert_no_error (error);
  TtvEvent ev;
  guint64 n = 0;
  while (ttv_cursor_next (c, &ev, &error))
    n++;
  g_assert_no_error (error);
  return n;
}

static void
test_real (gconstpointer data)
{
  const char *name = data;
  g_autofree char *src = ttv_test_dup_shared_ctf_trace (name);
  if (src == NULL)
    return;
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvTrace) orig = ttv_trace_open (src, &error);
  g_assert_no_error (error);
  g_autofree char *dir_name = g_strconcat ("real-", name, NULL);
  g_autofree char *live = g_build_filename (tmp_dir, dir_name, NULL);
  g_assert_cmpint (g_mkdir_with_parents (live, 0755), ==, 0);

  /* Metadata packets one by one, until the trace opens (LTTng may cut a
   * declaration across packets), then the others with a refresh each. */
  g_autofree char *src_meta = g_build_filename (src, "metadata", NULL);
  g_autofree char *meta = g_build_filename (live, "metadata", NULL);
  g_autofree char *mdata = NULL;
  gsize mlen;
  g_assert_true (g_file_get_contents (src_meta, &mdata, &mlen, NULL));
  guint32 magic;
  memcpy (&magic, mdata, 4);
  gboolean big = GUINT32_FROM_BE (magic) == TTV_CTF_METADATA_MAGIC;
  g_assert_true (big || GUINT32_FROM_LE (magic) == TTV_CTF_METADATA_MAGIC);
  g_autoptr (GArray) mends = g_array_new (FALSE, FALSE, sizeof (gsize));
  for (gsize at = 0; at < mlen;)
    {
      guint32 bits;
      memcpy (&bits, mdata + at + 28, 4);
      at += (big ? GUINT32_FROM_BE (bits) : GUINT32_FROM_LE (bits)) / 8;
      g_assert_cmpuint (at, <=, mlen);
      g_array_append_val (mends, at);
    }
  g_autoptr (TtvTrace) t = NULL;
  guint m = 0;
  for (; t == NULL && m < mends->len; m++)
    {
      g_assert_true (g_file_set_contents (meta, mdata, (gssize) g_array_index (mends, gsize, m), NULL));
      g_clear_error (&error);
      t = ttv_trace_open (live, &error);
    }
  g_assert_no_error (error);
  g_assert_nonnull (t);
  gboolean changed;
  for (; m < mends->len; m++)
    {
      gsize from = g_array_index (mends, gsize, m - 1), to = g_array_index (mends, gsize, m);
      append_file (meta, mdata + from, (to - from) / 2);
      g_assert_true (ttv_trace_refresh (t, &changed, &error));
      g_assert_no_error (error);
      append_file (meta, mdata + from + (to - from) / 2, to - from - (to - from) / 2);
      g_assert_true (ttv_trace_refresh (t, &changed, &error));
      g_assert_no_error (error);
    }
  g_assert_cmpuint (t->event_types->len, ==, orig->event_types->len);

  /* Data packets round robin, each in two halves. */
  guint n_files = orig->tracefiles->len;
  g_autofree guint *next = g_new0 (guint, n_files);
  g_autoptr (GPtrArray) datas = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < n_files; i++)
    {
      TtvTracefile *tf = g_ptr_array_index (orig->tracefiles, i);
      g_autofree char *p = g_build_filename (src, tf->name, NULL);
      char *d;
      g_assert_true (g_file_get_contents (p, &d, NULL, NULL));
      g_ptr_array_add (datas, d);
    }
  guint steps = 0;
  for (gboolean more = TRUE; more;)
    {
      more = FALSE;
      for (guint i = 0; i < n_files; i++)
        {
          TtvTracefile *tf = g_ptr_array_index (orig->tracefiles, i);
          const CtfStreamFile *sf = tf->priv;
          if (next[i] >= sf->packets->len)
            continue;
          more = TRUE;
          const CtfPacket *pk = &g_array_index (sf->packets, CtfPacket, next[i]++);
          g_autofree char *p = g_build_filename (live, tf->name, NULL);
          const char *d = g_ptr_array_index (datas, i);
          gsize half = pk->packet_bits / 16;
          append_file (p, d + pk->offset, half);
          g_assert_true (ttv_trace_refresh (t, &changed, &error));
          g_assert_no_error (error);
          append_file (p, d + pk->offset + half, pk->packet_bits / 8 - half);
          g_assert_true (ttv_trace_refresh (t, &changed, &error));
          g_assert_no_error (error);
          g_assert_true (changed);
          steps++;
        }
    }
  g_test_message ("%s: %u metadata packets, %u data packets appended", name, mends->len, steps);
  g_assert_cmpuint (t->tracefiles->len, ==, n_files);
  for (guint i = 0; i < n_files; i++)
    {
      TtvTracefile *a = g_ptr_array_index (orig->tracefiles, i), *b = g_ptr_array_index (t->tracefiles, i);
      g_assert_cmpstr (a->name, ==, b->name);
      g_assert_cmpuint (a->n_blocks, ==, b->n_blocks);
      g_assert_cmpint (a->start, ==, b->start);
      g_assert_cmpint (a->end, ==, b->end);
      g_assert_cmpuint (count_events (a), ==, count_events (b));
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  tmp_dir = g_dir_make_tmp ("ttv-ctf-follow-XXXXXX", NULL);
  g_assert_nonnull (tmp_dir);
  src_dir = g_build_filename (tmp_dir, "src", NULL);
  make_source ();
  g_test_add_func ("/ctf/follow/refresh", test_refresh);
  g_test_add_data_func ("/ctf/follow/metadata-text", GINT_TO_POINTER (FALSE), test_metadata);
  g_test_add_data_func ("/ctf/follow/metadata-packets", GINT_TO_POINTER (TRUE), test_metadata);
  g_test_add_func ("/ctf/follow/corrupt", test_corrupt);
  g_test_add_func ("/ctf/follow/report", test_report);
  static const char *const real[] = { "glxgears-ust", "arm64-kernel", "bigendian-kernel", "scp-kernel" };
  for (guint i = 0; i < G_N_ELEMENTS (real); i++)
    {
      g_autofree char *path = g_strconcat ("/ctf/follow/real/", real[i], NULL);
      g_test_add_data_func (path, real[i], test_real);
    }
  int status = g_test_run ();
  ttv_test_remove_tree (tmp_dir);
  g_free (src_dir);
  g_free (tmp_dir);
  return status;
}
