/* ttv-ctf-stream.c: CTF data stream files: packet headers and contexts, the
 * packet index (LTTng index/NAME.idx when valid, else a scan), lost events. */
#include "ttv-ctf-private.h"
#include "ttv-regular-file.h"
#include "ttv-error.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>

#define IDX_ENTRY_MIN_BYTES 56
#define IDX_MAX_BYTES ((gsize) 1 << 30)

typedef struct {
  CtfStreamClass *sc;
  guint64 stream_instance_id;
  guint64 packet_bits, content_bits;  /* 0 when absent */
  gboolean has_packet_size, has_content_size;  /* a size of 0 is damage, not absence */
  guint64 ts_begin, ts_end;
  gboolean has_ts_begin, has_ts_end;
  guint64 events_discarded;
  guint64 seq_num;
  gboolean has_seq_num;
  gint64 cpu_id;
  guint64 events_bit;
} PacketHead;

const TtvValue *
ttv_ctf_find_role (const TtvDecoder *d, const TtvValue *v, guint32 role)
{
  const TtvValue *best = NULL;
  for (guint32 i = 0; i < v->n_children; i++)
    {
      const TtvValue *c = ttv_decoder_get (d, v->first_child + i);
      if (c->type->roles & role)
        best = c;
      else if (c->type->kind == TTV_TYPE_STRUCT || c->type->kind == TTV_TYPE_VARIANT)
        {
          const TtvValue *below = ttv_ctf_find_role (d, c, role);
          if (below)
            best = below;
        }
    }
  return best;
}

/* The unsigned integer of @role in the decoded scope @node. */
static gboolean
get_role (TtvDecoder *d, gint32 node, guint32 role, guint64 *out)
{
  if (node < 0)
    return FALSE;
  const TtvValue *v = ttv_ctf_find_role (d, ttv_decoder_get (d, (guint32) node), role);
  return v && ttv_value_get_uint (v, out);
}

static gboolean
get_uint (TtvDecoder *d, gint32 node, const char *name, guint64 *out)
{
  if (node < 0)
    return FALSE;
  const TtvValue *v = ttv_decoder_get_field (d, ttv_decoder_get (d, (guint32) node), name);
  return v && ttv_value_get_uint (v, out);
}

static gboolean
head_error (GError **error, gint code, const CtfStreamFile *sf, guint64 offset, const char *what)
{
  g_set_error (error, TTV_FORMAT_ERROR, code, _("%s: packet at byte offset %" PRIu64 ": %s"),
               sf->path, offset, what);
  return FALSE;
}

/* Decodes the packet header and context of the packet at byte @offset,
 * whose bytes (@avail_bits of them) are at @buf. */
static gboolean
decode_head (CtfStreamFile *sf, const guint8 *buf, guint64 offset, guint64 avail_bits, TtvDecoder *d,
             PacketHead *h, gint32 *hdr_node, gint32 *ctx_node, GError **error)
{
  CtfMeta *m = sf->meta;
  guint64 pos = 0;
  g_autoptr (GError) local = NULL;
  memset (h, 0, sizeof *h);
  h->cpu_id = -1;
  ttv_decoder_reset (d);
  gint32 hn = -1, cn = -1;
  if (m->packet_header)
    {
      hn = ttv_decoder_decode (d, m->packet_header, "trace.packet.header", buf, avail_bits, &pos, &local);
      if (hn < 0)
        {
          g_autofree char *msg = g_strdup_printf (_("truncated or invalid packet header (%s)"), local->message);
          return head_error (error, local->code, sf, offset, msg);
        }
      guint64 magic;
      if (get_role (d, hn, TTV_ROLE_PACKET_MAGIC, &magic) && magic != TTV_CTF_PACKET_MAGIC)
        {
          g_autofree char *msg = g_strdup_printf (_("bad packet magic 0x%08" PRIx64 " (expected 0x%08x)"),
                                                  magic, TTV_CTF_PACKET_MAGIC);
          return head_error (error, TTV_FORMAT_ERROR_CORRUPT, sf, offset, msg);
        }
      const TtvValue *hv = ttv_decoder_get (d, (guint32) hn);
      const TtvValue *uuid = ttv_ctf_find_role (d, hv, TTV_ROLE_METADATA_UUID);
      if (uuid && m->has_uuid && uuid->n_children == 16)
        {
          for (guint i = 0; i < 16; i++)
            if (ttv_decoder_get (d, uuid->first_child + i)->v.u != m->uuid[i])
              return head_error (error, TTV_FORMAT_ERROR_CORRUPT, sf, offset,
                                 _("packet uuid differs from the trace uuid in the metadata"));
        }
      guint64 sid;
      if (get_role (d, hn, TTV_ROLE_STREAM_CLASS_ID, &sid))
        {
          h->sc = ttv_ctf_meta_find_stream (m, sid);
          if (!h->sc)
            {
              g_autofree char *msg = g_strdup_printf (_("unknown stream id %" PRIu64), sid);
              return head_error (error, TTV_FORMAT_ERROR_CORRUPT, sf, offset, msg);
            }
        }
      get_role (d, hn, TTV_ROLE_STREAM_ID, &h->stream_instance_id);
    }
  if (!h->sc)
    {
      if (m->streams->len != 1)
        return head_error (error, TTV_FORMAT_ERROR_INVALID, sf, offset,
                           _("packet without stream_id in a trace with several stream classes"));
      h->sc = g_ptr_array_index (m->streams, 0);
    }
  if (h->sc->packet_context)
    {
      cn = ttv_decoder_decode (d, h->sc->packet_context, "stream.packet.context", buf, avail_bits,
                               &pos, &local);
      if (cn < 0)
        {
          g_autofree char *msg = g_strdup_printf (_("truncated or invalid packet context (%s)"), local->message);
          return head_error (error, local->code, sf, offset, msg);
        }
      h->has_packet_size = get_role (d, cn, TTV_ROLE_PACKET_TOTAL_BITS, &h->packet_bits);
      h->has_content_size = get_role (d, cn, TTV_ROLE_PACKET_CONTENT_BITS, &h->content_bits);
      if (!h->has_content_size)
        h->content_bits = h->packet_bits;
      h->has_ts_begin = get_role (d, cn, TTV_ROLE_CLOCK_TIMESTAMP, &h->ts_begin);
      h->has_ts_end = get_role (d, cn, TTV_ROLE_PACKET_END_TIMESTAMP, &h->ts_end);
      get_role (d, cn, TTV_ROLE_DISCARDED_EVENTS, &h->events_discarded);
      h->has_seq_num = get_role (d, cn, TTV_ROLE_PACKET_SEQ_NUM, &h->seq_num);
      guint64 cpu;
      if (get_uint (d, cn, "cpu_id", &cpu) && cpu < G_MAXINT32)
        h->cpu_id = (gint64) cpu;
    }
  h->events_bit = pos;
  if (hdr_node)
    *hdr_node = hn;
  if (ctx_node)
    *ctx_node = cn;
  return TRUE;
}

/* Packet headers and contexts are small: a window of this much holds them
 * (a bigger one is read for the rare one that is not). */
#define HEAD_BYTES (64u << 10)

/* What a sparse read of a packet's head reads first: LTTng's header and
 * context take about a hundred bytes. */
#define HEAD_PROBE_BYTES 4096u

/* The same, reading the bytes through @w: at most @avail_bits of them.
 * @sparse: only the pages of the head are read (HEAD_PROBE_BYTES first,
 * then more as the head needs), not a window. */
static gboolean
read_head (CtfStreamFile *sf, TtvFileWindow *w, guint64 offset, guint64 avail_bits, gboolean sparse,
           TtvDecoder *d, PacketHead *h, gint32 *hdr_node, gint32 *ctx_node, GError **error)
{
  guint64 bytes = MIN (avail_bits / 8, (guint64) (sparse ? HEAD_PROBE_BYTES : HEAD_BYTES));
  for (;;)
    {
      const guint8 *buf = ttv_file_window_get_in_block (w, offset, bytes, 0, bytes, sparse, error);
      if (buf == NULL)
        return FALSE;
      guint64 bits = MIN (avail_bits, bytes * 8);
      GError *local = NULL;
      if (decode_head (sf, buf, offset, bits, d, h, hdr_node, ctx_node, &local))
        return TRUE;
      /* A probe's failure may be any error (an array that runs past the
       * bytes read is "corrupt" to the decoder): the usual read decides.
       * Past that, only a head cut short reads the rest of the file. */
      gboolean probe = bytes < HEAD_BYTES && bits < avail_bits;
      if (bits == avail_bits
          || (!probe && !g_error_matches (local, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_TRUNCATED)))
        {
          g_propagate_error (error, local);
          return FALSE;
        }
      g_error_free (local);
      bytes = bytes < HEAD_BYTES ? MIN (avail_bits / 8, (guint64) HEAD_BYTES) : (avail_bits + 7) / 8;
      if (bytes * 8 == bits)
        bytes = (avail_bits + 7) / 8;
    }
}

/* Packet @pk of @sf takes what its decoded head @h says: where its events
 * start, and what an index file lacks; FALSE with @error when the head
 * does not fit the stream or the packet. */
static gboolean
packet_take_head (CtfStreamFile *sf, CtfPacket *pk, const PacketHead *h, GError **error)
{
  if (h->sc != sf->sc)
    return head_error (error, TTV_FORMAT_ERROR_CORRUPT, sf, pk->offset,
                       _("packet of another stream class than the file's first packet"));
  if (h->events_bit > pk->content_bits)
    return head_error (error, TTV_FORMAT_ERROR_CORRUPT, sf, pk->offset,
                       _("packet context ends after the packet content"));
  pk->events_bit = h->events_bit;
  /* The index file may lack what only the context has. */
  if (!pk->has_ts && h->has_ts_begin)
    {
      pk->ts_begin = h->ts_begin;
      pk->ts_end = h->has_ts_end ? h->ts_end : h->ts_begin;
      pk->has_ts_end = h->has_ts_end;
      pk->has_ts = TRUE;
    }
  pk->cpu_id = h->cpu_id;
  if (!pk->has_seq_num && h->has_seq_num)
    {
      pk->seq_num = h->seq_num;
      pk->has_seq_num = TRUE;
    }
  return TRUE;
}

gboolean
ttv_ctf_packet_read_context (CtfStreamFile *sf, guint64 index, const guint8 *data, TtvDecoder *d,
                             gint32 *hdr_node, gint32 *ctx_node, GError **error)
{
  CtfPacket *pk = &g_array_index (sf->packets, CtfPacket, index);
  PacketHead h;
  return decode_head (sf, data, pk->offset, pk->content_bits, d, &h, hdr_node, ctx_node, error)
         && packet_take_head (sf, pk, &h, error);
}

gboolean
ttv_ctf_packet_read_head_pages (CtfStreamFile *sf, guint64 index, TtvDecoder *d, GError **error)
{
  CtfPacket *pk = &g_array_index (sf->packets, CtfPacket, index);
  g_auto (TtvFileWindow) w = TTV_FILE_WINDOW_INIT (sf->file);
  PacketHead h;
  return read_head (sf, &w, pk->offset, pk->content_bits, TRUE, d, &h, NULL, NULL, error)
         && packet_take_head (sf, pk, &h, error);
}

static guint64
be64 (const guint8 *p)
{
  guint64 v;
  memcpy (&v, p, 8);
  return GUINT64_FROM_BE (v);
}

static guint32
be32 (const guint8 *p)
{
  guint32 v;
  memcpy (&v, p, 4);
  return GUINT32_FROM_BE (v);
}

/* LTTng's index/NAME.idx: header (magic, major, minor, entry size), then per
 * packet: offset, packet_size, content_size, timestamp_begin, timestamp_end,
 * events_discarded, stream_id (big-endian u64; sizes in bits). */
static gboolean
load_index (CtfStreamFile *sf, const char *dir, const char *name, TtvTrace *trace)
{
  g_autofree char *path = g_build_filename (dir, "index", NULL);
  g_autofree char *file = g_strconcat (name, ".idx", NULL);
  g_autofree char *idx = g_build_filename (path, file, NULL);
  g_autofree char *contents = NULL;
  gsize len = 0;
  g_autoptr (GError) local = NULL;
  if (!ttv_regular_file_read (idx, IDX_MAX_BYTES, &contents, &len, &local))
    {
      /* No index is normal; an index that is not a file is worth a word. */
      if (!g_error_matches (local, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        ttv_trace_add_warning (trace, _("%s; rebuilding the packet index from the stream"), local->message);
      return FALSE;
    }
  const guint8 *p = (const guint8 *) contents;
  const char *why = NULL;
  guint32 entry = 0;
  if (len < CTF_INDEX_HEADER_BYTES || be32 (p) != TTV_CTF_INDEX_MAGIC)
    why = "bad magic";
  else if (be32 (p + 4) != 1)
    why = "unknown major version";
  else if ((entry = be32 (p + 12)) < IDX_ENTRY_MIN_BYTES || entry > 4096)
    why = "bad entry size";
  else if ((len - CTF_INDEX_HEADER_BYTES) % entry != 0 || len == CTF_INDEX_HEADER_BYTES)
    why = "size is not a whole number of entries";
  guint64 expect_offset = 0;
  g_autoptr (GArray) packets = g_array_new (FALSE, TRUE, sizeof (CtfPacket));
  for (gsize at = CTF_INDEX_HEADER_BYTES; !why && at + entry <= len; at += entry)
    {
      CtfPacket pk = { 0 };
      pk.offset = be64 (p + at);
      pk.packet_bits = be64 (p + at + 8);
      pk.content_bits = be64 (p + at + 16);
      pk.ts_begin = be64 (p + at + 24);
      pk.ts_end = be64 (p + at + 32);
      pk.has_ts_end = TRUE;
      pk.events_discarded = be64 (p + at + 40);
      /* Index 1.1 (entries of 72 bytes or more): stream instance id, then
       * the packet's sequence number. */
      if (entry >= 72)
        {
          pk.seq_num = be64 (p + at + 64);
          pk.has_seq_num = TRUE;
        }
      pk.has_ts = TRUE;
      pk.cpu_id = -1;
      /* An entry LTTng wrote for a packet the file no longer holds whole:
       * remembered, the packet header decides (scan_packets). */
      if (pk.offset == expect_offset && pk.offset < sf->size && pk.packet_bits % 8 == 0
          && pk.packet_bits / 8 > sf->size - pk.offset)
        sf->index_claimed_end = pk.offset + pk.packet_bits / 8;
      if (pk.offset != expect_offset || pk.packet_bits % 8 || pk.packet_bits == 0
          || pk.content_bits > pk.packet_bits || pk.packet_bits / 8 > sf->size
          || pk.offset > sf->size - pk.packet_bits / 8)
        why = "entry does not match the stream file";
      expect_offset = pk.offset + pk.packet_bits / 8;
      g_array_append_val (packets, pk);
    }
  if (!why && expect_offset != sf->size)
    why = "entries do not cover the stream file";
  if (why)
    {
      ttv_trace_add_warning (trace, _("%s: %s; rebuilding the packet index from the stream"), idx, why);
      return FALSE;
    }
  g_array_append_vals (sf->packets, packets->data, packets->len);
  sf->from_index = TRUE;
  return TRUE;
}

/* What is wrong with the sizes of packet @pk (@avail bits left in the
 * file), or NULL.  A size of 0 is damage: LTTng never writes one, and
 * taking it for "absent" reads the rest of the file, padding included, as
 * events. */
static char *
dup_size_problem (const PacketHead *h, const CtfPacket *pk)
{
  if (h->has_packet_size && h->packet_bits == 0)
    return g_strdup (_("packet_size is 0"));
  if (h->has_content_size && h->content_bits == 0 && pk->events_bit > 0)
    return g_strdup (_("content_size is 0"));
  if (pk->packet_bits % 8 || pk->content_bits > pk->packet_bits || pk->events_bit > pk->content_bits
      || pk->packet_bits < 8)
    return g_strdup_printf (_("inconsistent sizes (content %" PRIu64 " bits, packet %" PRIu64
                              " bits, header and context %" PRIu64 " bits)"),
                            pk->content_bits, pk->packet_bits, pk->events_bit);
  return NULL;
}

/* Whether the packet's own size can still be trusted to find the next
 * packet when its content size is wrong. */
static gboolean
packet_size_usable (const PacketHead *h, const CtfPacket *pk, guint64 avail)
{
  return h->has_packet_size && pk->packet_bits % 8 == 0 && pk->packet_bits >= pk->events_bit
         && pk->packet_bits >= 8 && pk->packet_bits <= avail;
}

/* Indexes the packets from byte @offset on.  Opening (@live FALSE), damage
 * becomes a damage warning (events are lost: ttv_trace_is_damaged) and
 * ends the stream, or skips the packet when its size still says where the
 * next one starts.  Following a trace still being written (@live TRUE), a
 * trailing packet that is not whole yet is left for later, and damage in a
 * whole packet is an error. */
static gboolean
scan_packets (CtfStreamFile *sf, TtvTrace *trace, TtvDecoder *d, guint64 offset, gboolean live,
              GError **live_error)
{
  /* Only the packets' heads are read, through one window moving along the
   * file, freed at the end. */
  g_auto (TtvFileWindow) w = TTV_FILE_WINDOW_INIT (sf->file);
  /* The first head by its pages too, then as the last packet's size says
   * (TTV_FILE_WINDOW_SPARSE_BYTES). */
  gboolean sparse = TRUE;
  while (offset < sf->size)
    {
      PacketHead h;
      g_autoptr (GError) error = NULL;
      guint64 avail = (sf->size - offset) * 8;
      if (!read_head (sf, &w, offset, avail, sparse, d, &h, NULL, NULL, &error))
        {
          if (live && g_error_matches (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_TRUNCATED))
            return TRUE;        /* the header is still being written */
          if (live)
            {
              g_propagate_error (live_error, g_steal_pointer (&error));
              return FALSE;
            }
          if (g_error_matches (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_TRUNCATED))
            ttv_trace_add_tail_damage_warning (trace, _("%s; ignoring the rest of the stream"), error->message);
          else
            ttv_trace_add_damage_warning (trace, _("%s; ignoring the rest of the stream"), error->message);
          break;
        }
      if (sf->sc == NULL)
        {
          sf->sc = h.sc;
          sf->stream_instance_id = h.stream_instance_id;
        }
      else if (h.sc != sf->sc)
        {
          if (live)
            return head_error (live_error, TTV_FORMAT_ERROR_CORRUPT, sf, offset,
                               _("packet of another stream class than the file's first packet"));
          ttv_trace_add_damage_warning (trace, _("%s: packet at byte offset %" PRIu64
                                                 " belongs to another stream class; ignoring the rest of the stream"),
                                        sf->path, offset);
          break;
        }
      CtfPacket pk = { 0 };
      pk.offset = offset;
      pk.packet_bits = h.has_packet_size ? h.packet_bits : avail;
      pk.content_bits = h.has_content_size ? h.content_bits : pk.packet_bits;
      pk.ts_begin = h.ts_begin;
      pk.ts_end = h.has_ts_end ? h.ts_end : h.ts_begin;
      pk.has_ts_end = h.has_ts_end;
      pk.has_ts = h.has_ts_begin;
      pk.events_discarded = h.events_discarded;
      pk.events_bit = h.events_bit;
      pk.cpu_id = h.cpu_id;
      pk.seq_num = h.seq_num;
      pk.has_seq_num = h.has_seq_num;
      if (live && !h.has_packet_size)
        return TRUE;            /* without a size, a packet is whole only when the trace is */
      g_autofree char *problem = dup_size_problem (&h, &pk);
      if (problem)
        {
          if (live)
            return head_error (live_error, TTV_FORMAT_ERROR_CORRUPT, sf, offset, problem);
          if (packet_size_usable (&h, &pk, avail))
            {
              ttv_trace_add_damage_warning (trace, _("%s: packet at byte offset %" PRIu64 ": %s; "
                                                     "skipping the packet"),
                                            sf->path, offset, problem);
              offset += pk.packet_bits / 8;
              continue;
            }
          ttv_trace_add_damage_warning (trace, _("%s: packet at byte offset %" PRIu64 ": %s; "
                                                 "ignoring the rest of the stream"),
                                        sf->path, offset, problem);
          break;
        }
      if (live && pk.packet_bits > avail)
        return TRUE;            /* still being written */
      if (pk.packet_bits > avail)
        {
          if (pk.content_bits > avail && (trace->flags & TTV_TRACE_FLAG_GROWING))
            {
              /* Being written: read once whole (ttv_ctf_stream_file_index_more). */
              ttv_trace_add_tail_damage_warning (trace, _("%s: packet at byte offset %" PRIu64
                                                          " is truncated (%" PRIu64 " of %" PRIu64
                                                          " bytes present); ignoring it"),
                                                 sf->path, offset, avail / 8, pk.packet_bits / 8);
              break;
            }
          if (pk.content_bits > avail)
            {
              /* Its whole events are read, not the CPU's last packet lost
               * (often its only one: the CPU vanished). */
              ttv_trace_add_tail_damage_warning (trace, _("%s: packet at byte offset %" PRIu64
                                                          " is truncated (%" PRIu64 " of %" PRIu64
                                                          " bytes present); reading the events"
                                                          " it holds whole"),
                                                 sf->path, offset, avail / 8, pk.packet_bits / 8);
              pk.content_bits = pk.packet_bits = avail;
              pk.truncated = TRUE;
              g_array_append_val (sf->packets, pk);
              break;
            }
          /* The index LTTng wrote after the packet says the same size: the
           * file lost its end (a packet being written has no entry yet). */
          if (!live && sf->index_claimed_end == offset + pk.packet_bits / 8)
            {
              g_set_error (&sf->open_error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_TRUNCATED,
                           _("%s: packet at byte offset %" PRIu64 " is %" PRIu64 " bytes long (its header"
                             " and the index agree) but the file ends %" PRIu64 " bytes after it:"
                             " the stream file is truncated"),
                           sf->path, offset, pk.packet_bits / 8, avail / 8);
              break;
            }
          ttv_trace_add_tail_warning (trace, _("%s: the padding of the last packet (byte offset %" PRIu64
                                          ") is truncated"), sf->path, offset);
          pk.packet_bits = avail;
        }
      g_array_append_val (sf->packets, pk);
      offset += pk.packet_bits / 8;
      sparse = pk.packet_bits / 8 >= TTV_FILE_WINDOW_SPARSE_BYTES;
    }
  return TRUE;
}

/* A clock value past 64-bit nanoseconds since the epoch (a clock whose
 * frequency is far below what its values count, say): the time saturates,
 * and the events of such packets all show one time.  Said once per file. */
static void
warn_saturated (CtfStreamFile *sf, const CtfPacket *pk)
{
  sf->saturated = TRUE;
  ttv_trace_add_warning (sf->tracefile->trace,
                         _("%s: packet at byte offset %" PRIu64 ": its clock values (%" PRIu64 " to %" PRIu64
                           " cycles of clock “%s”) are past the times 64-bit nanoseconds since the epoch"
                           " hold (years 1677 to 2262); its events' times are shown as the nearest of them,"
                           " their order kept but not their spacing"),
                         sf->path, pk->offset, pk->ts_begin, pk->truncated ? pk->ts_last : pk->ts_end,
                         sf->sc && sf->sc->clock ? sf->sc->clock->name : "");
}

/* Times, the tracefile's range, overlaps and lost events of packets
 * @from..end; @before (may be NULL) is the packet of the same stream before
 * packet 0, in another file (session chunks, snapshots). */
static void
finish_index (CtfStreamFile *sf, guint from, const CtfPacket *before)
{
  TtvTracefile *tf = sf->tracefile;
  CtfClock *clock = sf->sc ? sf->sc->clock : NULL;
  /* Packets, times and @overlapping change under the cursors of a
   * followed trace: their direct turn must be decided again. */
  sf->index_generation++;
  for (guint i = from; i < sf->packets->len; i++)
    {
      CtfPacket *pk = &g_array_index (sf->packets, CtfPacket, i);
      pk->t_begin = ttv_ctf_clock_to_time (clock, pk->ts_begin);
      pk->t_end = ttv_ctf_clock_to_time (clock, pk->truncated ? pk->ts_last : pk->ts_end);
      if (pk->has_ts && pk->ts_end < pk->ts_begin)
        pk->t_end = pk->t_begin;
      if (pk->has_ts && !sf->saturated && (pk->t_end == TTV_TIME_MAX || pk->t_begin == TTV_TIME_MIN))
        warn_saturated (sf, pk);
      if (pk->has_ts)
        {
          tf->start = MIN (tf->start, pk->t_begin);
          tf->end = MAX (tf->end, pk->t_end);
        }
      TtvLostFlags unknown = pk->has_ts ? 0 : TTV_LOST_TIME_UNKNOWN;
      const CtfPacket *prev = i > 0 ? &g_array_index (sf->packets, CtfPacket, i - 1) : before;
      if (prev == NULL)
        {
          /* Counted since the stream began: a snapshot, or a buffer whose
           * oldest packets were overwritten (babeltrace2 says the tracer
           * "may have discarded" them). */
          if (pk->events_discarded > 0)
            {
              TtvLostRange r = { pk->t_begin, pk->t_end, pk->events_discarded, 0,
                                 TTV_LOST_SINCE_STREAM_START | unknown };
              g_array_append_val (tf->lost, r);
            }
          continue;
        }
      if (i > 0 && pk->t_begin < prev->t_end)
        sf->overlapping = TRUE;
      if (pk->events_discarded > prev->events_discarded)
        {
          TtvLostRange r = { prev->t_end, pk->t_end, pk->events_discarded - prev->events_discarded, 0, unknown };
          g_array_append_val (tf->lost, r);
        }
      /* A gap in the packets' sequence numbers: packets lost whole
       * (overwrite mode, snapshots), their events not counted. */
      if (prev->has_seq_num && pk->has_seq_num && pk->seq_num > prev->seq_num + 1)
        {
          TtvLostRange r = { prev->t_end, pk->t_begin, 0, pk->seq_num - prev->seq_num - 1, unknown };
          g_array_append_val (tf->lost, r);
        }
    }
  tf->n_blocks = sf->packets->len;
}

void
ttv_ctf_stream_file_reindex (CtfStreamFile *sf, const CtfPacket *before)
{
  TtvTracefile *tf = sf->tracefile;
  tf->start = TTV_TIME_MAX;
  tf->end = TTV_TIME_MIN;
  g_array_set_size (tf->lost, 0);
  sf->overlapping = FALSE;
  finish_index (sf, 0, before);
}

CtfStreamFile *
ttv_ctf_stream_file_open (CtfMeta *meta, const char *dir, const char *name, TtvTrace *trace,
                          GError **error)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr (GError) local = NULL;
  TtvWindowedFile *file = ttv_windowed_file_open (path, &local);
  if (!file)
    {
      g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_IO, "%s", local->message);
      return NULL;
    }
  CtfStreamFile *sf = g_new0 (CtfStreamFile, 1);
  ttv_ctf_fine_indexes_init (&sf->fine);
  sf->meta = meta;
  sf->path = g_steal_pointer (&path);
  sf->file = file;
  sf->size = ttv_windowed_file_get_size (file);
  sf->packets = g_array_new (FALSE, TRUE, sizeof (CtfPacket));
  g_autoptr (TtvDecoder) d = ttv_decoder_new ();
  sf->tracefile = ttv_trace_add_tracefile (trace, name, -1);
  sf->tracefile->size = sf->size;
  sf->tracefile->priv = sf;
  if (load_index (sf, dir, name, trace))
    {
      /* The stream class and cpu come from the first packet's context. */
      PacketHead h;
      CtfPacket *pk = &g_array_index (sf->packets, CtfPacket, 0);
      g_auto (TtvFileWindow) w = TTV_FILE_WINDOW_INIT (sf->file);
      if (read_head (sf, &w, 0, pk->content_bits, TRUE, d, &h, NULL, NULL, &local))
        {
          sf->sc = h.sc;
          sf->stream_instance_id = h.stream_instance_id;
          pk->cpu_id = h.cpu_id;
        }
      else
        {
          ttv_trace_add_warning (trace, _("%s; ignoring the index file"), local->message);
          g_clear_error (&local);
          g_array_set_size (sf->packets, 0);
          sf->from_index = FALSE;
        }
    }
  if (!sf->from_index)
    scan_packets (sf, trace, d, 0, FALSE, NULL);
  CtfPacket *last = sf->packets->len ? &g_array_index (sf->packets, CtfPacket, sf->packets->len - 1) : NULL;
  if (last && last->truncated && sf->sc)
    last->ts_last = ttv_ctf_packet_last_clock (sf->tracefile, sf->packets->len - 1);
  if (sf->open_error)
    {
      g_propagate_error (error, g_steal_pointer (&sf->open_error));
      sf->tracefile->priv = NULL;
      ttv_ctf_stream_file_free (sf);
      return NULL;
    }
  if (sf->packets->len > 0)
    sf->tracefile->cpu = (gint) g_array_index (sf->packets, CtfPacket, 0).cpu_id;
  finish_index (sf, 0, NULL);
  return sf;
}

gboolean
ttv_ctf_stream_file_index_more (CtfStreamFile *sf, TtvTrace *trace, GError **error)
{
  g_autoptr (TtvDecoder) d = ttv_decoder_new ();
  guint from = sf->packets->len;
  guint64 offset = 0;
  if (from > 0 && g_array_index (sf->packets, CtfPacket, from - 1).truncated)
    {
      /* At open, a last packet cut in its content was kept with its whole
       * events: it is read again from its start, once whole. */
      offset = g_array_index (sf->packets, CtfPacket, from - 1).offset;
      g_array_set_size (sf->packets, --from);
    }
  else if (from > 0)
    {
      /* At open, a last packet whose padding was cut was kept with the
       * bytes present: its real size is in its context. */
      CtfPacket *last = &g_array_index (sf->packets, CtfPacket, from - 1);
      PacketHead h;
      g_auto (TtvFileWindow) w = TTV_FILE_WINDOW_INIT (sf->file);
      if (read_head (sf, &w, last->offset, (sf->size - last->offset) * 8, TRUE, d, &h, NULL, NULL, NULL)
          && h.packet_bits > last->packet_bits && h.packet_bits % 8 == 0
          && h.packet_bits / 8 <= sf->size - last->offset)
        last->packet_bits = h.packet_bits;
      offset = last->offset + last->packet_bits / 8;
    }
  if (!scan_packets (sf, trace, d, offset, TRUE, error))
    return FALSE;
  if (sf->tracefile == NULL && sf->packets->len > 0)
    {
      g_autofree char *name = g_path_get_basename (sf->path);
      sf->tracefile = ttv_trace_add_tracefile (trace, name, -1);
      sf->tracefile->priv = sf;
    }
  if (sf->tracefile)
    {
      if (from == 0 && sf->packets->len > 0)
        sf->tracefile->cpu = (gint) g_array_index (sf->packets, CtfPacket, 0).cpu_id;
      finish_index (sf, from, NULL);
      sf->tracefile->size = sf->size;
    }
  return TRUE;
}

void
ttv_ctf_stream_file_free (CtfStreamFile *sf)
{
  if (sf == NULL)
    return;
  g_free (sf->path);
  g_clear_error (&sf->open_error);
  ttv_windowed_file_free (sf->file);
  g_array_unref (sf->packets);
  ttv_ctf_fine_indexes_clear (&sf->fine);
  g_free (sf);
}
