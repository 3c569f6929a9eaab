/* test-ctf-follow.c: CTF traces still being written: a writer in the test
 * appends the packets (and metadata) of a generated trace to a live copy
 * while the library refreshes it and while ttv-report --follow reads it;
 * CTF 1.8 and CTF 2 (LTTng 2.15's JSON metadata, cut across packets). */
#include "ttv-test-util.h"
#include "ttv-ctf-sim.h"
#include "ttv-ctf-writer.h"
#include "ttv-ctf-private.h"
#include "ttv-error.h"
#include "ttv-trace.h"

#include <glib/gstdio.h>
#include <string.h>

#define PACKET 4096u

static char *src_dir;   /* the finished trace */
static char *src2_dir;  /* the same simulation in CTF 2 */

/* --- The finished trace, packet by packet ----------------------------- */

static void
make_source (const char *dir, TtvCtfMetadataFormat metadata)
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
  TtvCtfWriterOptions wo = { .byte_order = TTV_BYTE_ORDER_LITTLE, .packet_size = PACKET,
                             .metadata = metadata };
  g_assert_true (ttv_ctf_write_simulation (dir, sim, &wo, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
}

static guint
file_block (TtvTracefile *tf, const TtvEvent *ev)
{
  return (guint) ev->pos.block;
}

static guint
n_file_blocks (TtvTracefile *tf)
{
  return tf->n_blocks;
}

/* The streams of the finished trace @src, to be written to @name in the tmp dir. */
static TtvTestLive *
live_new_from (const char *src, const char *name)
{
  g_autofree char *dir = g_build_filename (ttv_test_get_tmp_dir (), name, NULL);
  TtvTestLive *l = ttv_test_live_new (src, dir, PACKET, file_block, n_file_blocks);
  g_assert_cmpuint (l->streams->len, ==, 3);
  return l;
}

static TtvTestLive *
live_new (const char *name)
{
  return live_new_from (src_dir, name);
}

static void
copy_metadata_from (const char *src, const char *to_dir)
{
  g_autofree char *from = g_build_filename (src, "metadata", NULL);
  g_autofree char *to = g_build_filename (to_dir, "metadata", NULL);
  ttv_test_copy_file (from, to);
}

static void
copy_metadata (const char *to_dir)
{
  copy_metadata_from (src_dir, to_dir);
}

/* --- (a) the library refresh ------------------------------------------ */

static void
test_refresh (void)
{
  g_autoptr (TtvTestLive) l = live_new ("live-refresh");
  copy_metadata (l->dir);
  /* Streams 0 and 1 have a packet; stream 0 also the first bytes of its
   * second (a header cut short); stream 2 does not exist yet. */
  ttv_test_live_packets (l, 0, 1);
  ttv_test_live_packets (l, 1, 1);
  ttv_test_live_write (l, 0, PACKET + 40);
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvTrace) t = ttv_trace_open (l->dir, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (t->tracefiles->len, ==, 2);
  ttv_test_live_check (l, t);

  gboolean changed = TRUE;
  g_assert_true (ttv_trace_refresh (t, &changed, &error));
  g_assert_no_error (error);
  g_assert_false (changed);

  ttv_test_live_refresh_rest (l, t);
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
test_metadata (gconstpointer data)
{
  gboolean packetized = GPOINTER_TO_INT (data);
  g_autoptr (TtvTestLive) l = live_new (packetized ? "live-meta-packets" : "live-meta-text");
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
  ttv_test_append_file (meta, bytes->data, whole1);
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvTrace) t = ttv_trace_open (l->dir, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (t->event_types->len, ==, 40);
  g_assert_cmpuint (t->tracefiles->len, ==, 0);

  /* The start of the next piece: nothing whole yet. */
  gsize half = whole1 + 20;
  ttv_test_append_file (meta, bytes->data + whole1, half - whole1);
  gboolean changed = TRUE;
  g_assert_true (ttv_trace_refresh (t, &changed, &error));
  g_assert_no_error (error);
  g_assert_false (changed);
  g_assert_cmpuint (t->event_types->len, ==, 40);

  ttv_test_append_file (meta, bytes->data + half, whole2 - half);
  g_assert_true (ttv_trace_refresh (t, &changed, &error));
  g_assert_no_error (error);
  g_assert_true (changed);
  g_assert_cmpuint (t->event_types->len, ==, starts->len / 2);

  /* The rest, and every packet: all events decode with the grown metadata. */
  ttv_test_append_file (meta, bytes->data + whole2, bytes->len - whole2);
  ttv_test_live_finish (l, t);
  g_assert_cmpuint (t->event_types->len, ==, starts->len);
  g_assert_cmpuint (ttv_test_decode_all (t), >, 1000);

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

static void
test_corrupt (void)
{
  g_autoptr (TtvTestLive) l = live_new ("live-corrupt");
  copy_metadata (l->dir);
  /* Stream 1's second packet with a bad magic. */
  ttv_test_live_corrupt (l, TTV_REPORT_PATH, ttv_test_get_tmp_dir (), 0);
}

/* --- (b) ttv-report --follow ------------------------------------------ */

static void
test_report (void)
{
  g_autoptr (TtvTestLive) l = live_new ("live-report");
  copy_metadata (l->dir);
  /* Every stream starts with a packet (so that the report knows how far
   * each CPU got); stream 0 also has half of its second. */
  for (guint i = 0; i < l->streams->len; i++)
    ttv_test_live_packets (l, i, 1);
  ttv_test_live_write (l, 0, PACKET + PACKET / 2);
  g_autofree char *out_path = g_build_filename (ttv_test_get_tmp_dir (), "follow-ctf.txt", NULL);
  ttv_test_live_follow_report (l, TTV_REPORT_PATH, out_path, FALSE);
}

/* The same on the CTF 2 trace: LTTng 2.15 writes the whole metadata before
 * the first data packet. */
static void
test_report_ctf2 (void)
{
  g_autoptr (TtvTestLive) l = live_new_from (src2_dir, "live-report-ctf2");
  copy_metadata_from (src2_dir, l->dir);
  for (guint i = 0; i < l->streams->len; i++)
    ttv_test_live_packets (l, i, 1);
  g_autofree char *out_path = g_build_filename (ttv_test_get_tmp_dir (), "follow-ctf2.txt", NULL);
  ttv_test_live_follow_report (l, TTV_REPORT_PATH, out_path, FALSE);
}

/* --- Two streams ending at the same time ------------------------------- */

#define TIE_PACKET 512u
#define TIE_BASE ((TtvTime) 1700000000 * 1000000000)
#define TIE_T 1000

/* Writes @n_events "tick" events of stream 0 at @times0, then stream 1's.
 * Returns how many of stream 0's fit in its first packet (from the
 * writer's packet count). */
static guint
write_tie_trace (const char *dir, const TtvTime *times0, guint n0, const TtvTime *times1, guint n1)
{
  g_autoptr (GError) error = NULL;
  TtvCtfWriterOptions wo = { .byte_order = TTV_BYTE_ORDER_LITTLE, .packet_size = TIE_PACKET,
                             .clock_offset = TIE_BASE };
  TtvCtfWriter *w = ttv_ctf_writer_new (dir, &wo, &error);
  g_autoptr (TtvType) fields = ttv_type_new_struct ();
  guint first_packet = n0;

  g_assert_no_error (error);
  ttv_type_add_field (fields, "n", ttv_type_new_integer (32, FALSE, TTV_BYTE_ORDER_LITTLE, 8), NULL);
  g_assert_cmpint (ttv_ctf_writer_add_event (w, "tick", fields, &error), ==, 0);
  for (guint i = 0; i < n0; i++)
    {
      TtvScalar v = TTV_SCALAR_UINT (i);
      g_assert_true (ttv_ctf_writer_write_event (w, 0, times0[i], 0, &v, 1, &error));
      if (ttv_ctf_writer_get_n_packets (w) > 1 && first_packet == n0)
        first_packet = i;
    }
  for (guint i = 0; i < n1; i++)
    {
      TtvScalar v = TTV_SCALAR_UINT (i);
      g_assert_true (ttv_ctf_writer_write_event (w, 1, times1[i], 0, &v, 1, &error));
    }
  g_assert_true (ttv_ctf_writer_close (w, &error));
  return first_packet;
}

/* Stream 0's first packet ends with an event at T and its second begins
 * with another at T; stream 1 ends at T too.  `ttv-report --follow`, given
 * stream 0's first packet and stream 1, must not print the events at T
 * before the second packet arrives: in time order the new one may come
 * before them, and every event must be printed once. */
static void
test_tie (void)
{
  g_autofree char *probe = g_build_filename (ttv_test_get_tmp_dir (), "tie-probe", NULL);
  g_autofree char *src = g_build_filename (ttv_test_get_tmp_dir (), "tie-src", NULL);
  g_autofree char *live_dir = g_build_filename (ttv_test_get_tmp_dir (), "tie-live", NULL);
  g_autofree char *out_path = g_build_filename (ttv_test_get_tmp_dir (), "follow-tie.txt", NULL);
  TtvTime times0[200], times1[2] = { TIE_BASE + 1, TIE_BASE + TIE_T };
  guint k;

  /* How many events fill stream 0's first packet. */
  for (guint i = 0; i < G_N_ELEMENTS (times0); i++)
    times0[i] = TIE_BASE + 1 + i;
  k = write_tie_trace (probe, times0, G_N_ELEMENTS (times0), times1, 0);
  g_assert_cmpuint (k, >, 2);
  g_assert_cmpuint (k + 5, <, G_N_ELEMENTS (times0));
  /* Events k - 1 (the first packet's last) and k (the second's first) at T. */
  for (guint i = 0; i < k + 5; i++)
    times0[i] = i < k - 1 ? TIE_BASE + 1 + i : i <= k ? TIE_BASE + TIE_T : TIE_BASE + TIE_T + (TtvTime) (i - k);
  g_assert_cmpuint (write_tie_trace (src, times0, k + 5, times1, 2), ==, k);

  g_autoptr (TtvTestLive) l = ttv_test_live_new (src, live_dir, TIE_PACKET, file_block, n_file_blocks);
  g_autofree char *from = g_build_filename (src, "metadata", NULL);
  g_autofree char *to = g_build_filename (live_dir, "metadata", NULL);
  ttv_test_copy_file (from, to);
  g_assert_cmpuint (l->streams->len, ==, 2);
  ttv_test_live_packets (l, 0, 1);
  ttv_test_live_packets (l, 1, 1);
  GPid pid = ttv_test_follow_start (TTV_REPORT_PATH, live_dir, out_path, NULL);
  ttv_test_follow_wait_output (out_path);
  gsize midway = ttv_test_follow_midway (out_path);
  ttv_test_live_packets (l, 0, 1);
  g_assert_true (ttv_test_live_done (l));
  ttv_test_follow_stop (pid, 600);
  ttv_test_follow_assert_complete (TTV_REPORT_PATH, src, out_path, midway);
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

/* Rebuilds the finished trace @src (@name: for the copy's folder and the
 * log) in a live copy, a metadata packet and a half data packet at a time,
 * refreshing after each: at the end it is the same trace. */
static void
follow_rebuilt (const char *src, const char *name)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvTrace) orig = ttv_trace_open (src, &error);
  g_assert_no_error (error);
  g_autofree char *dir_name = g_strconcat ("real-", name, NULL);
  g_autofree char *live = g_build_filename (ttv_test_get_tmp_dir (), dir_name, NULL);
  g_assert_cmpint (g_mkdir_with_parents (live, 0755), ==, 0);

  /* Metadata packets one by one, until the trace opens (LTTng may cut a
   * declaration across packets), then the others with a refresh each;
   * plain text metadata in eighths. */
  g_autofree char *src_meta = g_build_filename (src, "metadata", NULL);
  g_autofree char *meta = g_build_filename (live, "metadata", NULL);
  g_autofree char *mdata = NULL;
  gsize mlen;
  g_assert_true (g_file_get_contents (src_meta, &mdata, &mlen, NULL));
  guint32 magic;
  memcpy (&magic, mdata, 4);
  gboolean big = GUINT32_FROM_BE (magic) == TTV_CTF_METADATA_MAGIC;
  gboolean packets = big || GUINT32_FROM_LE (magic) == TTV_CTF_METADATA_MAGIC;
  g_autoptr (GArray) mends = g_array_new (FALSE, FALSE, sizeof (gsize));
  for (guint k = 1; !packets && k <= 8; k++)
    {
      gsize at = mlen * k / 8;
      g_array_append_val (mends, at);
    }
  for (gsize at = 0; packets && at < mlen;)
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
      ttv_test_append_file (meta, mdata + from, (to - from) / 2);
      g_assert_true (ttv_trace_refresh (t, &changed, &error));
      g_assert_no_error (error);
      ttv_test_append_file (meta, mdata + from + (to - from) / 2, to - from - (to - from) / 2);
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
          ttv_test_append_file (p, d + pk->offset, half);
          g_assert_true (ttv_trace_refresh (t, &changed, &error));
          g_assert_no_error (error);
          ttv_test_append_file (p, d + pk->offset + half, pk->packet_bits / 8 - half);
          g_assert_true (ttv_trace_refresh (t, &changed, &error));
          g_assert_no_error (error);
          g_assert_true (changed);
          steps++;
        }
    }
  g_test_message ("%s: %u metadata pieces, %u data packets appended", name, mends->len, steps);
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

static void
test_real (gconstpointer data)
{
  g_autofree char *src = ttv_test_dup_shared_ctf_trace (data);

  if (src)
    follow_rebuilt (src, data);
}

/* A real LTTng UST trace in CTF 2 (shared traces ctf2/), its JSON metadata
 * fragments cut across packets. */
static void
test_real_ctf2 (gconstpointer data)
{
  g_autofree char *rel = g_strconcat ("../ctf2/", (const char *) data, NULL);
  g_autofree char *src = ttv_test_dup_shared_ctf_trace (rel);
  g_autofree char *name = g_strconcat ("ctf2-", (const char *) data, NULL);

  if (src)
    follow_rebuilt (src, name);
}

/* LTTng 2.15's kernel trace shape: 34 metadata packets, fragments cut
 * anywhere in them. */
static void
test_generated_ctf2 (void)
{
  follow_rebuilt (src2_dir, "ctf2-generated");
}

/* --- Packets that come to overlap under a cursor ------------------------ */

/* The events of packet @block of @tf, in order. */
static GArray *
packet_events (TtvTracefile *tf, guint64 block)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvCursor) c = ttv_cursor_new (tf, &error);
  g_assert_no_error (error);
  GArray *a = g_array_new (FALSE, FALSE, sizeof (TtvEvent));
  TtvEvent ev;
  while (ttv_cursor_next (c, &ev, &error))
    if (ev.pos.block == block)
      g_array_append_val (a, ev);
  g_assert_no_error (error);
  g_assert_cmpuint (a->len, >, 2);
  return a;
}

static void
assert_same_event (const TtvEvent *ev, guint64 block, const TtvEvent *want)
{
  g_assert_cmpint (ev->time, ==, want->time);
  g_assert_cmpuint (ev->pos.block, ==, block);
  g_assert_cmpuint (ev->pos.index, ==, want->pos.index);
}

/* A followed stream file whose packets come to overlap while a cursor
 * reads it directly: the copy holds the second packet of stream 0 of the
 * finished trace; the cursor reads half its events; then the first packet
 * arrives after it, the refresh finds that it begins before the other
 * ends, and the same cursor must merge: the first packet's events (all
 * earlier), then the rest of the second.  A cursor whose usual turn is not
 * told of the re-index reads the second packet through first; one that
 * drops its direct lane when it starts merging loses that rest. */
static void
test_overlap_under_cursor (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvTrace) orig = ttv_trace_open (src_dir, &error);
  g_assert_no_error (error);
  TtvTracefile *otf = g_ptr_array_index (orig->tracefiles, 0);
  const CtfStreamFile *osf = otf->priv;
  g_assert_cmpuint (osf->packets->len, >, 2);
  const CtfPacket *p0 = &g_array_index (osf->packets, CtfPacket, 0);
  const CtfPacket *p1 = &g_array_index (osf->packets, CtfPacket, 1);
  g_autoptr (GArray) first = packet_events (otf, 0);
  g_autoptr (GArray) second = packet_events (otf, 1);
  guint half = second->len / 2;
  g_assert_cmpint (g_array_index (second, TtvEvent, half).time, >,
                   g_array_index (first, TtvEvent, first->len - 1).time);

  g_autofree char *live = g_build_filename (ttv_test_get_tmp_dir (), "overlap-live", NULL);
  g_assert_cmpint (g_mkdir_with_parents (live, 0755), ==, 0);
  copy_metadata (live);
  g_autofree char *src_file = g_build_filename (src_dir, otf->name, NULL);
  g_autofree char *live_file = g_build_filename (live, otf->name, NULL);
  g_autofree char *data = NULL;
  g_assert_true (g_file_get_contents (src_file, &data, NULL, NULL));
  ttv_test_append_file (live_file, data + p1->offset, p1->packet_bits / 8);
  g_autoptr (TtvTrace) t = ttv_trace_open (live, &error);
  g_assert_no_error (error);
  TtvTracefile *tf = g_ptr_array_index (t->tracefiles, 0);
  g_assert_false (((const CtfStreamFile *) tf->priv)->overlapping);

  g_autoptr (TtvCursor) c = ttv_cursor_new (tf, &error);
  g_assert_no_error (error);
  TtvEvent ev;
  for (guint i = 0; i < half; i++)
    {
      g_assert_true (ttv_cursor_next (c, &ev, &error));
      assert_same_event (&ev, 0, &g_array_index (second, TtvEvent, i));
    }
  ttv_test_append_file (live_file, data + p0->offset, p0->packet_bits / 8);
  gboolean changed;
  g_assert_true (ttv_trace_refresh (t, &changed, &error));
  g_assert_no_error (error);
  g_assert_true (((const CtfStreamFile *) tf->priv)->overlapping);
  for (guint i = 0; i < first->len; i++)
    {
      g_assert_true (ttv_cursor_next (c, &ev, &error));
      assert_same_event (&ev, 1, &g_array_index (first, TtvEvent, i));
    }
  for (guint i = half; i < second->len; i++)
    {
      g_assert_true (ttv_cursor_next (c, &ev, &error));
      assert_same_event (&ev, 0, &g_array_index (second, TtvEvent, i));
    }
  g_assert_false (ttv_cursor_next (c, &ev, &error));
  g_assert_no_error (error);
}

/* --- Event classes that arrive under a cursor --------------------------- */

/* A followed trace whose metadata grows while a cursor reads it directly:
 * the copy starts with the metadata's head and the classes that packets 0
 * to k - 1 of stream 0 use (declared first: their ids are in the text),
 * and those packets, where packet k uses a class they do not; the cursor
 * reads all their events (the usual turn learns their classes); then the
 * other classes and packet k arrive (the stream class's by_id is
 * rebuilt), and the same cursor must read packet k as a new cursor over
 * the finished trace does.  A usual turn that kept the old by_id, or a
 * class for an id that another one came to hold, reads it wrong. */
static void
test_classes_under_cursor (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvTrace) orig = ttv_trace_open (src_dir, &error);
  g_assert_no_error (error);
  TtvTracefile *otf = g_ptr_array_index (orig->tracefiles, 0);
  const CtfStreamFile *osf = otf->priv;
  g_autofree char *src_meta = g_build_filename (src_dir, "metadata", NULL);
  g_autofree char *text = NULL;
  gsize len;
  g_assert_true (g_file_get_contents (src_meta, &text, &len, NULL));
  g_autoptr (GArray) starts = event_starts (text);
  g_assert_cmpuint (starts->len, ==, orig->event_types->len);
  g_autofree gboolean *used = g_new0 (gboolean, starts->len);
  g_autoptr (GPtrArray) packets = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  guint k = 0;
  for (gboolean found = FALSE; !found; k++)
    {
      g_assert_cmpuint (k, <, osf->packets->len);
      GArray *events = packet_events (otf, k);
      g_ptr_array_add (packets, events);
      for (guint i = 0; i < events->len; i++)
        found |= k > 0 && !used[g_array_index (events, TtvEvent, i).type->id];
      if (!found)
        for (guint i = 0; i < events->len; i++)
          used[g_array_index (events, TtvEvent, i).type->id] = TRUE;
    }
  k--;
  /* The declarations the first packets use, then the others. */
  g_autoptr (GString) known = g_string_new_len (text, (gssize) g_array_index (starts, gsize, 0));
  g_autoptr (GString) others = g_string_new (NULL);
  guint n_known = 0;
  for (guint i = 0; i < starts->len; i++)
    {
      gsize from = g_array_index (starts, gsize, i);
      gsize to = i + 1 < starts->len ? g_array_index (starts, gsize, i + 1) : len;
      g_string_append_len (used[i] ? known : others, text + from, (gssize) (to - from));
      n_known += used[i];
    }

  g_autofree char *live = g_build_filename (ttv_test_get_tmp_dir (), "classes-live", NULL);
  g_assert_cmpint (g_mkdir_with_parents (live, 0755), ==, 0);
  g_autofree char *meta = g_build_filename (live, "metadata", NULL);
  ttv_test_append_file (meta, known->str, known->len);
  g_autofree char *src_file = g_build_filename (src_dir, otf->name, NULL);
  g_autofree char *live_file = g_build_filename (live, otf->name, NULL);
  g_autofree char *data = NULL;
  g_assert_true (g_file_get_contents (src_file, &data, NULL, NULL));
  for (guint b = 0; b < k; b++)
    {
      const CtfPacket *pk = &g_array_index (osf->packets, CtfPacket, b);
      ttv_test_append_file (live_file, data + pk->offset, pk->packet_bits / 8);
    }
  g_autoptr (TtvTrace) t = ttv_trace_open (live, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (t->event_types->len, ==, n_known);
  TtvTracefile *tf = g_ptr_array_index (t->tracefiles, 0);

  g_autoptr (TtvCursor) c = ttv_cursor_new (tf, &error);
  g_assert_no_error (error);
  TtvEvent ev;
  for (guint b = 0; b < k; b++)
    {
      const GArray *events = g_ptr_array_index (packets, b);
      for (guint i = 0; i < events->len; i++)
        {
          g_assert_true (ttv_cursor_next (c, &ev, &error));
          assert_same_event (&ev, b, &g_array_index (events, TtvEvent, i));
        }
    }
  ttv_test_append_file (meta, others->str, others->len);
  const CtfPacket *pk = &g_array_index (osf->packets, CtfPacket, k);
  ttv_test_append_file (live_file, data + pk->offset, pk->packet_bits / 8);
  gboolean changed;
  g_assert_true (ttv_trace_refresh (t, &changed, &error));
  g_assert_no_error (error);
  g_assert_true (changed);
  g_assert_cmpuint (t->event_types->len, ==, starts->len);
  const GArray *events = g_ptr_array_index (packets, k);
  for (guint i = 0; i < events->len; i++)
    {
      const TtvEvent *want = &g_array_index (events, TtvEvent, i);
      g_assert_true (ttv_cursor_next (c, &ev, &error));
      assert_same_event (&ev, k, want);
      g_assert_cmpstr (ev.type->name, ==, want->type->name);
      g_assert_cmpuint (ev.payload_bit, ==, want->payload_bit);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  /* The finished trace, in CTF 1.8 and CTF 2, in the program's temporary
   * directory, for every test. */
  src_dir = g_build_filename (ttv_test_get_tmp_dir (), "src", NULL);
  src2_dir = g_build_filename (ttv_test_get_tmp_dir (), "src-ctf2", NULL);
  make_source (src_dir, TTV_CTF_METADATA_TSDL);
  make_source (src2_dir, TTV_CTF_METADATA_CTF2);
  g_test_add_func ("/ctf/follow/refresh", test_refresh);
  g_test_add_data_func ("/ctf/follow/metadata-text", GINT_TO_POINTER (FALSE), test_metadata);
  g_test_add_data_func ("/ctf/follow/metadata-packets", GINT_TO_POINTER (TRUE), test_metadata);
  g_test_add_func ("/ctf/follow/corrupt", test_corrupt);
  g_test_add_func ("/ctf/follow/report", test_report);
  g_test_add_func ("/ctf/follow/tie", test_tie);
  g_test_add_func ("/ctf/follow/overlap-under-cursor", test_overlap_under_cursor);
  g_test_add_func ("/ctf/follow/classes-under-cursor", test_classes_under_cursor);
  g_test_add_func ("/ctf/follow/ctf2/report", test_report_ctf2);
  g_test_add_func ("/ctf/follow/ctf2/generated", test_generated_ctf2);
  g_test_add_data_func ("/ctf/follow/ctf2/real/trace-with-index", "trace-with-index", test_real_ctf2);
  static const char *const real[] = { "glxgears-ust", "arm64-kernel", "bigendian-kernel", "scp-kernel" };
  for (guint i = 0; i < G_N_ELEMENTS (real); i++)
    {
      g_autofree char *path = g_strconcat ("/ctf/follow/real/", real[i], NULL);
      g_test_add_data_func (path, real[i], test_real);
    }
  int status = g_test_run ();
  g_free (src_dir);
  g_free (src2_dir);
  return status;
}
