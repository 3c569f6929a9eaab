/* test-decoder.c: the common decoder on hand-built bytes: bit fields in both
 * byte orders, references for sequences and variants, and bad data; decode
 * plans against the walk of the type tree, CTF 2's field classes included. */
#include "ttv-decoder.h"
#include "ttv-decoder-private.h"
#include "ttv-decode-plan.h"
#include "ttv-error.h"

#include <string.h>

static void
test_bits (void)
{
  /* Little endian: bits counted from the least significant bit of byte 0. */
  const guint8 le[] = { 0xAB, 0xCD };
  g_assert_cmphex (ttv_read_bits (le, 0, 4, TTV_BYTE_ORDER_LITTLE), ==, 0xB);
  g_assert_cmphex (ttv_read_bits (le, 4, 8, TTV_BYTE_ORDER_LITTLE), ==, 0xDA);
  /* Big endian: bits counted from the most significant bit of byte 0. */
  g_assert_cmphex (ttv_read_bits (le, 0, 4, TTV_BYTE_ORDER_BIG), ==, 0xA);
  g_assert_cmphex (ttv_read_bits (le, 4, 8, TTV_BYTE_ORDER_BIG), ==, 0xBC);
  const guint8 q[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
  g_assert_cmphex (ttv_read_bits (q, 0, 64, TTV_BYTE_ORDER_BIG), ==, 0x0102030405060708);
  g_assert_cmphex (ttv_read_bits (q, 0, 64, TTV_BYTE_ORDER_LITTLE), ==, 0x0807060504030201);
  g_assert_cmphex (ttv_read_bits (q, 4, 64, TTV_BYTE_ORDER_BIG), ==, 0x1020304050607080);
}

static TtvType *
u (guint bits, guint align)
{
  return ttv_type_new_integer (bits, FALSE, TTV_BYTE_ORDER_LITTLE, align);
}

static void
test_struct_refs (void)
{
  /* struct { uint8 n; enum8 {A, B} tag; uint16 seq[n]; variant <tag> { uint8 A; string B; } v; } */
  g_autoptr (TtvType) s = ttv_type_new_struct ();
  ttv_type_add_field (s, "n", u (8, 8), NULL);
  TtvType *e = ttv_type_new_enum (u (8, 8));
  ttv_type_add_mapping (e, "A", 0, 0);
  ttv_type_add_mapping (e, "B", 1, 1);
  ttv_type_add_field (s, "tag", e, NULL);
  ttv_type_add_field (s, "seq", ttv_type_new_sequence_ref (u (16, 16), "n"), NULL);
  TtvType *v = ttv_type_new_variant_ref ("tag");
  ttv_type_add_field (v, "A", u (8, 8), NULL);
  ttv_type_add_field (v, "B", ttv_type_new_string (), NULL);
  ttv_type_add_field (s, "v", v, NULL);
  ttv_type_finish (s);

  const guint8 data[] = { 2, 1, 0x34, 0x12, 0x78, 0x56, 'h', 'i', 0 };
  g_autoptr (TtvDecoder) d = ttv_decoder_new ();
  guint64 pos = 0;
  g_autoptr (GError) error = NULL;
  gint32 root = ttv_decoder_decode (d, s, "event.fields", data, sizeof data * 8, &pos, &error);
  g_assert_no_error (error);
  g_assert_cmpint (root, >=, 0);
  g_assert_cmpuint (pos, ==, sizeof data * 8);
  GString *out = g_string_new (NULL);
  ttv_decoder_append_value (d, root, TTV_VALUE_STYLE_PLAIN, out);
  g_assert_cmpstr (out->str, ==, "n = 2, tag = B (1), seq = [ 4660, 22136 ], v = { B = \"hi\" }");
  g_string_truncate (out, 0);
  ttv_decoder_append_value (d, root, TTV_VALUE_STYLE_JSON, out);
  g_assert_cmpstr (out->str, ==, "{\"n\":2,\"tag\":{\"value\":1,\"labels\":[\"B\"]},\"seq\":[4660,22136],\"v\":{\"B\":\"hi\"}}");
  g_string_free (out, TRUE);

  /* Absolute reference into a registered scope. */
  g_autoptr (TtvType) s2 = ttv_type_new_struct ();
  ttv_type_add_field (s2, "x", ttv_type_new_sequence_ref (u (8, 8), "event.fields.n"), NULL);
  ttv_type_finish (s2);
  const guint8 data2[] = { 9, 8 };
  pos = 0;
  root = ttv_decoder_decode (d, s2, NULL, data2, sizeof data2 * 8, &pos, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ttv_decoder_get (d, root)->n_children, ==, 1);
  g_assert_cmpuint (ttv_decoder_get (d, ttv_decoder_get (d, root)->first_child)->n_children, ==, 2);
}

/* A packet's context decoded once per packet: the same packet of the same
 * tracefile at the same place gives the nodes kept (the bytes are not read
 * again: changed under it, they still give the first values), and any
 * other packet, tracefile or place decodes anew; a scope name registered
 * either way resolves references. */
static guint64
memo_decode (TtvDecoder *d, const TtvType *t, guint64 packet, guint stream, const guint8 *data,
             gsize size, guint64 start)
{
  g_autoptr (GError) error = NULL;
  guint64 pos = start;

  gint32 root = ttv_decoder_decode_first_memo (d, packet, stream, t, "stream.packet.context", data, size * 8,
                                               &pos, &error);
  g_assert_no_error (error);
  g_assert_cmpint (root, >=, 0);
  g_assert_cmpuint (pos, ==, start + 32);
  /* A later scope sees the registered one. */
  g_autoptr (TtvType) ref = ttv_type_new_struct ();
  ttv_type_add_field (ref, "x", ttv_type_new_sequence_ref (u (8, 8), "stream.packet.context.n"), NULL);
  ttv_type_finish (ref);
  const guint8 seq[64] = { 0 };
  guint64 p2 = 0;
  gint32 r2 = ttv_decoder_decode (d, ref, NULL, seq, sizeof seq * 8, &p2, &error);
  g_assert_no_error (error);
  const TtvValue *x = ttv_decoder_get (d, ttv_decoder_get (d, r2)->first_child);
  const TtvValue *first = ttv_decoder_get_children (d, ttv_decoder_get (d, (guint32) root));
  g_assert_cmpuint (x->n_children, ==, first[0].v.u);
  return first[0].v.u << 16 | first[1].v.u;
}

/* A packet context of two 16-bit members, n and cpu, for the memo tests. */
static TtvType *
memo_context_type (void)
{
  TtvType *ctx = ttv_type_new_struct ();
  ttv_type_add_field (ctx, "n", u (16, 8), NULL);
  ttv_type_add_field (ctx, "cpu", u (16, 8), NULL);
  ttv_type_finish (ctx);
  return ctx;
}

/* More memos than resident nodes may hold: the first ones are given up,
 * and put back from their copies, children's indices moved, when their
 * packet comes again. */
static void
test_first_memo_resident_limit (void)
{
  g_autoptr (TtvType) ctx = memo_context_type ();
  g_autoptr (TtvDecoder) d = ttv_decoder_new ();
  guint8 data[TTV_DECODER_MEMO_SLOTS][4];
  /* Every slot, each with packet after packet (3 nodes each): the limit
   * is passed during the last packets, whose first memos are then given
   * up and put back below. */
  guint64 n_packets = TTV_DECODER_RESIDENT_MAX / 3 / TTV_DECODER_MEMO_SLOTS + 1;
  for (guint64 packet = 0; packet < n_packets; packet++)
    for (guint i = 0; i < TTV_DECODER_MEMO_SLOTS; i++)
      {
        guint8 *b = data[i];
        b[0] = (guint8) packet, b[1] = 0, b[2] = (guint8) i, b[3] = 0;
        g_assert_cmpuint (memo_decode (d, ctx, packet, i, b, 4, 0), ==, packet << 16 | i);
      }
  for (guint round = 0; round < 2; round++)
    for (guint i = 0; i < TTV_DECODER_MEMO_SLOTS; i++)
      {
        /* The bytes changed: the memo's values, not a new decode. */
        data[i][2] = 0xff;
        g_assert_cmpuint (memo_decode (d, ctx, n_packets - 1, i, data[i], 4, 0), ==,
                          (n_packets - 1) << 16 | i);
      }
}

/* A merged read of more streams than a new decoder has memo slots (a
 * trace of many CPUs): the slots grow, and from then on each stream's
 * packet context is decoded once per packet, not again at each switch
 * between streams (the bytes are changed after a packet's first event:
 * a second decode would read them).  Streams read one after the other
 * (traces opened in turn) leave the slots as they were. */
static void
test_first_memo_many_streams (void)
{
  g_autoptr (TtvType) ctx = memo_context_type ();
  g_autoptr (TtvDecoder) d = ttv_decoder_new ();
  enum { STREAMS = 100, PACKETS = 3, EVENTS = 8 };
  guint8 data[STREAMS][4];
  /* Serials as a second trace's would be: not from 0. */
  const guint first = 77;
  for (guint packet = 0; packet < PACKETS; packet++)
    for (guint event = 0; event < EVENTS; event++)
      for (guint s = 0; s < STREAMS; s++)
        {
          if (event == 0)
            data[s][0] = (guint8) packet, data[s][1] = 0, data[s][2] = (guint8) s, data[s][3] = 0;
          guint64 got = memo_decode (d, ctx, packet, first + s, data[s], 4, 0);
          data[s][2] = 0xee;
          /* The first packet's turns are the slots' growth. */
          if (packet > 0)
            g_assert_cmpuint (got, ==, (guint64) packet << 16 | s);
        }
  g_assert_cmpuint (d->memo_mask + 1, >=, STREAMS);

  g_autoptr (TtvDecoder) one = ttv_decoder_new ();
  for (guint s = 0; s < 4 * STREAMS; s++)
    for (guint packet = 0; packet < PACKETS; packet++)
      for (guint event = 0; event < EVENTS; event++)
        {
          guint8 b[4] = { (guint8) packet, 0, (guint8) s, 0 };
          g_assert_cmpuint (memo_decode (one, ctx, packet, first + s, b, 4, 0), ==, (guint64) packet << 16 | (guint8) s);
        }
  g_assert_cmpuint (one->memo_mask + 1, ==, TTV_DECODER_MEMO_SLOTS);
}

static void
test_first_memo (void)
{
  g_autoptr (TtvType) ctx = memo_context_type ();
  g_autoptr (TtvDecoder) d = ttv_decoder_new ();
  guint8 data[12] = { 3, 0, 7, 0, 5, 0, 1, 0 };
  /* Two streams, as TtvTracefile.serial numbers them. */
  const guint tf_a = 40, tf_b = 41;

  g_assert_cmpuint (memo_decode (d, ctx, 1, tf_a, data, sizeof data, 0), ==, 3 << 16 | 7);
  /* Its nodes still in place: taken as they are. */
  g_assert_cmpuint (memo_decode (d, ctx, 1, tf_a, data, sizeof data, 0), ==, 3 << 16 | 7);
  /* Another decode since does not overwrite them: they are resident. */
  const guint8 other[4] = { 0xaa, 0xbb, 0xcc, 0xdd };
  guint64 p = 0;
  ttv_decoder_reset (d);
  g_assert_cmpint (ttv_decoder_decode (d, ctx, NULL, other, sizeof other * 8, &p, NULL), >, 0);
  g_assert_cmpuint (memo_decode (d, ctx, 1, tf_a, data, sizeof data, 0), ==, 3 << 16 | 7);
  g_assert_cmpuint (memo_decode (d, ctx, 1, tf_b, data, sizeof data, 32), ==, 5 << 16 | 1);
  data[0] = 2;   /* the same address holding something else */
  g_assert_cmpuint (memo_decode (d, ctx, 1, tf_a, data, sizeof data, 0), ==, 3 << 16 | 7);
  g_assert_cmpuint (memo_decode (d, ctx, 2, tf_a, data, sizeof data, 0), ==, 2 << 16 | 7);
  g_assert_cmpuint (memo_decode (d, ctx, 2, tf_b, data, sizeof data, 0), ==, 2 << 16 | 7);
  data[0] = 9;
  data[4] = 4;
  g_assert_cmpuint (memo_decode (d, ctx, 2, tf_b, data, sizeof data, 0), ==, 2 << 16 | 7);
  g_assert_cmpuint (memo_decode (d, ctx, 2, tf_b, data, sizeof data - 2, 0), ==, 9 << 16 | 7);
  g_assert_cmpuint (memo_decode (d, ctx, 2, tf_b, data, sizeof data - 2, 32), ==, 4 << 16 | 1);
}

static void assert_same_nodes (const TtvDecoder *a, const TtvDecoder *b);

/* Decodes @chain's scopes one call at a time, as readers did before
 * ttv_decoder_decode_chain: its reference. */
static gint32
chain_by_calls (TtvDecoder *d, const TtvDecoderChain *chain, TtvDecoderChainBytes *b, gint32 *out)
{
  gint32 r = -1;
  if (chain->memo)
    {
      guint64 p = chain->memo_start;
      r = ttv_decoder_decode_first_memo (d, b->packet, b->stream, chain->memo, chain->memo_name, b->buf,
                                         b->buf_bits, &p, NULL);
      if (r < 0)
        return -1;
    }
  else
    ttv_decoder_reset (d);
  out[chain->slots[0]] = r;
  for (guint i = 0; i < 2; i++)
    {
      r = -1;
      if (chain->contexts[i]
          && (r = ttv_decoder_decode (d, chain->contexts[i], chain->context_names[i], b->buf, b->buf_bits, &b->pos,
                                      NULL)) < 0)
        return -1;
      out[chain->slots[i + 1]] = r;
    }
  return ttv_decoder_decode (d, chain->payload, chain->payload_name, b->buf, b->buf_bits, &b->pos, NULL);
}

/* ttv_decoder_decode_chain against the calls one scope at a time: with
 * and without a memoized scope and contexts, a memo hit and miss, the
 * payload flat, sequential, walked (a string copied into the arena: the
 * next event clears it) and too short: the same result, nodes, scopes
 * and end. */
static void
test_decode_chain (void)
{
  g_autoptr (TtvType) packet = memo_context_type ();
  g_autoptr (TtvType) ctx = ttv_type_new_struct ();
  ttv_type_add_field (ctx, "tid", u (32, 8), NULL);
  ttv_type_add_field (ctx, "name", ttv_type_new_string (), NULL);
  ttv_type_finish (ctx);
  g_autoptr (TtvType) flat = ttv_type_new_struct ();
  ttv_type_add_field (flat, "a", u (16, 8), NULL);
  ttv_type_add_field (flat, "b", ttv_type_new_integer (32, TRUE, TTV_BYTE_ORDER_LITTLE, 8), NULL);
  ttv_type_finish (flat);
  g_autoptr (TtvType) walked = ttv_type_new_struct ();
  TtvType *sized = ttv_type_new_string ();
  sized->static_length = TRUE;
  sized->length = 4;
  ttv_type_add_field (walked, "s", sized, NULL);
  ttv_type_finish (walked);
  g_assert_false (ttv_decoder_has_plan (walked));
  const TtvType *payloads[] = { flat, ctx, walked };
  /* The packet context at byte 0, the event's bytes from byte 4. */
  guint8 data[32] = { 3, 0, 7, 0, 9, 0, 0, 0, 'a', 'b', 0, 0xfe, 0xff, 0xff, 0xff, 'w', 'x', 'y', 'z' };
  g_autoptr (TtvDecoder) d = ttv_decoder_new ();
  g_autoptr (TtvDecoder) r = ttv_decoder_new ();
  guint checked = 0;
  for (guint round = 0; round < 3; round++)
    for (guint shape = 0; shape < 8; shape++)
      for (guint k = 0; k < G_N_ELEMENTS (payloads); k++)
        for (guint cut = 0; cut < 2; cut++)
          {
            TtvDecoderChain chain = {
              .memo = shape & 1 ? packet : NULL,
              .memo_name = "stream.packet.context",
              .memo_start = 0,
              .contexts = { shape & 2 ? ctx : NULL, shape & 4 ? ctx : NULL },
              .context_names = { "stream.event.context", "event.context" },
              .payload = payloads[k],
              .payload_name = "event.fields",
              .slots = { 2, 0, 1 },
            };
            /* Cut: the bytes end inside the payload (or its context). */
            guint64 bits = cut ? (4 + (shape & 6 ? 6 : 3)) * 8 : sizeof data * 8;
            TtvDecoderChainBytes bd = { round % 2, round / 2 % 2, data, bits, 32 };
            TtvDecoderChainBytes br = bd;
            gint32 od[3] = { -5, -5, -5 }, orf[3] = { -5, -5, -5 };
            gint32 rd = ttv_decoder_decode_chain (d, &chain, &bd, od);
            gint32 rr = chain_by_calls (r, &chain, &br, orf);
            g_assert_cmpint (rd, ==, rr);
            /* Whole bytes decode; cut ones fail, the chain's as the calls'. */
            g_assert_true ((rr >= 0) == !cut);
            if (rr < 0)
              continue;
            checked++;
            g_assert_cmpmem (od, sizeof od, orf, sizeof orf);
            g_assert_cmpuint (bd.pos, ==, br.pos);
            assert_same_nodes (d, r);
            g_assert_cmpuint (d->n_scopes, ==, r->n_scopes);
            for (guint i = 0; i < d->n_scopes; i++)
              {
                g_assert_true (d->scopes[i].name == r->scopes[i].name);
                g_assert_cmpuint (d->scopes[i].node, ==, r->scopes[i].node);
              }
          }
  g_assert_cmpuint (checked, ==, 3 * 8 * 3);
}

/* The JSON text of node @node of @d, or "-" for none. */
static char *
node_json (TtvDecoder *d, gint32 node)
{
  GString *out = g_string_new (NULL);
  if (node < 0)
    g_string_append (out, "-");
  else
    ttv_decoder_append_value (d, (guint32) node, TTV_VALUE_STYLE_JSON, out);
  return g_string_free (out, FALSE);
}

/* ttv_decoder_decode_chain with a first context of constant layout (a
 * tid and a name, as LTTng's stream event context), kept by its memo
 * while its bytes repeat in a packet: over random events of many streams
 * (more memos than resident nodes hold), packets and buffers, the
 * contexts', payloads' and packet contexts' values are those of the
 * scopes decoded one call at a time, and so is where the event ends.
 * Buffers are rewritten in place between packets, so that a memo kept
 * across packets or buffers would show stale values. */
static void
test_decode_chain_context_memo (gconstpointer data)
{
  /* Wide: 48 more one-byte members, so that the memos of many streams
   * outgrow the resident nodes. */
  guint pad = GPOINTER_TO_UINT (data);
  g_autoptr (TtvType) packet = memo_context_type ();
  g_autoptr (TtvType) ctx = ttv_type_new_struct ();
  ttv_type_add_field (ctx, "tid", u (32, 8), NULL);
  TtvType *c = ttv_type_new_integer (8, FALSE, TTV_BYTE_ORDER_LITTLE, 8);
  c->encoding = TTV_ENCODING_UTF8;
  ttv_type_add_field (ctx, "name", ttv_type_new_array (c, 4), NULL);
  for (guint i = 0; i < pad; i++)
    {
      g_autofree char *name = g_strdup_printf ("pad%u", i);
      ttv_type_add_field (ctx, name, u (8, 8), NULL);
    }
  ttv_type_finish (ctx);
  g_autoptr (TtvType) payload = ttv_type_new_struct ();
  ttv_type_add_field (payload, "x", u (16, 8), NULL);
  ttv_type_finish (payload);
  TtvDecoderChain chain = {
    .memo = packet,
    .memo_name = "stream.packet.context",
    .memo_start = 0,
    .contexts = { ctx, NULL },
    .context_names = { "stream.event.context", "event.context" },
    .payload = payload,
    .payload_name = "event.fields",
    .slots = { 2, 0, 1 },
  };
  ttv_decoder_chain_prepare (&chain);
  g_assert_cmpuint (chain.context_memo_bits, ==, 64 + pad * 8);
  /* Each event: its context (8 bytes and the pads), then a payload of 2. */
  const guint ev_size = 10 + pad;
  /* Each stream's buffer: its packet context, then EVENTS events of
   * ev_size bytes (room for the wide ones). */
  enum { STREAMS = 400, EVENTS = 8, SIZE = 4 + EVENTS * (10 + 48) };
  guint8 (*bufs)[SIZE] = g_malloc0 (sizeof (guint8[SIZE]) * STREAMS);
  guint64 *packets = g_new0 (guint64, STREAMS);
  guint *next = g_new0 (guint, STREAMS);
  g_autoptr (TtvDecoder) d = ttv_decoder_new ();
  g_autoptr (TtvDecoder) r = ttv_decoder_new ();
  GRand *rand = g_rand_new_with_seed (42);
  guint hits_possible = 0;
  guint64 refills = 0;
  for (guint turn = 0; turn < 60000; turn++)
    {
      /* A few streams most of the time, all of them at times. */
      guint s = g_rand_int_range (rand, 0, turn % 1000 < 500 ? 3 : STREAMS);
      guint8 *b = bufs[s];
      if (next[s] % EVENTS == 0)
        {
          /* A new packet in the same buffer (a packet's number names its
           * bytes for good): new bytes where the last packet's were, many
           * of them the same. */
          packets[s]++;
          b[0] = (guint8) packets[s];
          b[2] = (guint8) s;
          guint8 tid = (guint8) g_rand_int_range (rand, 0, 3);
          for (guint e = 0; e < EVENTS; e++)
            {
              guint8 *ev = b + 4 + e * ev_size;
              if (g_rand_int_range (rand, 0, 4) == 0)
                tid = (guint8) g_rand_int_range (rand, 0, 3);
              ev[0] = tid;
              ev[1] = (guint8) (turn >> 8);
              memcpy (ev + 4, g_rand_int_range (rand, 0, 8) ? "bash" : "sshd", 4);
              ev[8 + pad] = (guint8) g_rand_int (rand);
              ev[9 + pad] = (guint8) e;
            }
        }
      guint e = next[s]++ % EVENTS;
      hits_possible += e > 0;
      TtvDecoderChainBytes bd = { packets[s], s, b, SIZE * 8, (4 + e * ev_size) * 8 };
      TtvDecoderChainBytes br = bd;
      gint32 od[3] = { -5, -5, -5 }, orf[3] = { -5, -5, -5 };
      gint32 rd = ttv_decoder_decode_chain (d, &chain, &bd, od);
      gint32 rr = chain_by_calls (r, &chain, &br, orf);
      g_assert_cmpint (rd, >=, 0);
      g_assert_cmpint (rr, >=, 0);
      g_assert_cmpuint (bd.pos, ==, br.pos);
      for (guint i = 0; i < 3; i++)
        {
          g_autofree char *got = node_json (d, od[i]);
          g_autofree char *want = node_json (r, orf[i]);
          g_assert_cmpstr (got, ==, want);
        }
      g_autofree char *got = node_json (d, rd);
      g_autofree char *want = node_json (r, rr);
      g_assert_cmpstr (got, ==, want);
      /* The scopes name the same values as the reference's. */
      g_assert_cmpuint (d->n_scopes, ==, r->n_scopes);
      for (guint i = 0; i < d->n_scopes; i++)
        {
          g_assert_true (d->scopes[i].name == r->scopes[i].name);
          g_autofree char *got_scope = node_json (d, (gint32) d->scopes[i].node);
          g_autofree char *want_scope = node_json (r, (gint32) r->scopes[i].node);
          g_assert_cmpstr (got_scope, ==, want_scope);
        }
      /* Memory stays bounded (a packet context's refill may pass the limit
       * by its own nodes); and once all the streams have been read
       * (the resident nodes full), a few streams' contexts are kept
       * again. */
      g_assert_cmpuint (d->resident_n, <=, d->resident_max + 3);   /* + a packet context's last refill */
      if (turn == 59000)
        refills = d->context_refills;
      /* Of these 500 events of three streams, whose contexts repeat in
       * about half of them, not every one decoded its context. */
      if (turn == 59499)
        g_assert_cmpuint (d->context_refills - refills, <, 350);
    }
  g_assert_cmpuint (hits_possible, >, 0);
  g_rand_free (rand);
  g_free (bufs);
  g_free (packets);
  g_free (next);
}

static void
test_bad_data (void)
{
  g_autoptr (TtvDecoder) d = ttv_decoder_new ();
  g_autoptr (TtvType) seq = ttv_type_new_sequence_prefixed (u (32, 32), u (32, 8));
  ttv_type_finish (seq);
  /* Length 0xFFFFFFFF with four bytes left: refused before allocating. */
  const guint8 huge[] = { 0xFF, 0xFF, 0xFF, 0xFF, 1, 2, 3, 4 };
  guint64 pos = 0;
  g_autoptr (GError) error = NULL;
  g_assert_cmpint (ttv_decoder_decode (d, seq, NULL, huge, sizeof huge * 8, &pos, &error), ==, -1);
  g_assert_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_CORRUPT);
  g_clear_error (&error);

  g_autoptr (TtvType) str = ttv_type_new_string ();
  const guint8 nonul[] = { 'a', 'b' };
  pos = 0;
  g_assert_false (ttv_decoder_skip (d, str, nonul, sizeof nonul * 8, &pos, &error));
  g_assert_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_TRUNCATED);
  g_clear_error (&error);

  g_autoptr (TtvType) var = ttv_type_new_variant_prefixed (u (8, 8));
  ttv_type_add_field (var, "only", u (8, 8), NULL);
  ttv_type_finish (var);
  const guint8 badtag[] = { 3, 0 };
  pos = 0;
  g_assert_cmpint (ttv_decoder_decode (d, var, NULL, badtag, 16, &pos, &error), ==, -1);
  g_assert_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_CORRUPT);
  g_clear_error (&error);

  g_autoptr (TtvType) dangling = ttv_type_new_sequence_ref (u (8, 8), "nowhere");
  ttv_type_finish (dangling);
  pos = 0;
  g_assert_cmpint (ttv_decoder_decode (d, dangling, NULL, badtag, 16, &pos, &error), ==, -1);
  g_assert_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_INVALID);
}

/* --- plans against the walk of the type tree, on random types and bytes --- */

typedef struct {
  GRand *rand;
  guint names;
  gboolean ctf2;    /* also CTF 2's field classes (which plans leave to the walk) */
} Gen;

static guint
rnd (Gen *g, guint n)
{
  return (guint) g_rand_int_range (g->rand, 0, (gint32) n);
}

/* A random length up to @size and as many bytes into @buf: small values
 * mostly (lengths and selectors that decode), any byte one time in @odds,
 * and half of the time a NUL somewhere (strings end).  Returns the length. */
static guint
random_bytes (Gen *g, guint8 *buf, guint size, guint odds)
{
  guint len = rnd (g, size);
  for (guint i = 0; i < len; i++)
    buf[i] = (guint8) (rnd (g, odds) ? rnd (g, 4) : rnd (g, 256));
  if (len && rnd (g, 2))
    buf[rnd (g, len)] = 0;
  return len;
}

static guint
random_align (Gen *g)
{
  static const guint aligns[] = { 1, 8, 8, 8, 16, 32, 64 };
  return aligns[rnd (g, G_N_ELEMENTS (aligns))];
}

static TtvByteOrder
random_order (Gen *g)
{
  return rnd (g, 3) ? TTV_BYTE_ORDER_LITTLE : TTV_BYTE_ORDER_BIG;
}

static TtvType *
random_integer (Gen *g)
{
  static const guint sizes[] = { 8, 16, 32, 64 };
  guint size = rnd (g, 3) ? sizes[rnd (g, 4)] : 1 + rnd (g, 64);
  guint align = rnd (g, 4) ? MAX (size >= 8 && (size & (size - 1)) == 0 ? size : 1, 1) : random_align (g);
  TtvType *t = ttv_type_new_integer (size, rnd (g, 2), random_order (g), align);
  t->base = rnd (g, 4) ? 10 : 16;
  return t;
}

/* A small count (2 to 4 bits) so that sequences and tags mostly fit. */
static TtvType *
random_count (Gen *g)
{
  return ttv_type_new_integer (2 + rnd (g, 3), FALSE, random_order (g), rnd (g, 2) ? 1 : 8);
}

static char *
new_name (Gen *g)
{
  return g_strdup_printf ("f%u", g->names++);
}

static TtvType *random_type (Gen *g, guint depth, TtvType *parent);

/* An enum over a small count whose labels name the options of a variant
 * (some of them, with ranges, and a label without option). */
static TtvType *
random_tag_enum (Gen *g, TtvType *variant_options[], guint n_options, char *labels[])
{
  TtvType *e = ttv_type_new_enum (random_count (g));
  for (guint i = 0; i < n_options; i++)
    ttv_type_add_mapping (e, labels[i], i * 2, i * 2 + rnd (g, 2));
  ttv_type_add_mapping (e, "nowhere", 15, 15);
  (void) variant_options;
  return e;
}

static void add_ctf2_member (Gen *g, TtvType *s, guint depth);

static void
add_random_member (Gen *g, TtvType *s, guint depth)
{
  if (g->ctf2 && rnd (g, 3) == 0)
    {
      add_ctf2_member (g, s, depth);
      return;
    }
  guint kind = rnd (g, depth > 3 ? 6 : 11);
  g_autofree char *name = new_name (g);
  switch (kind)
    {
    case 0: case 1: case 2:
      ttv_type_add_field (s, name, random_integer (g), NULL);
      break;
    case 3:
      ttv_type_add_field (s, name, ttv_type_new_float (rnd (g, 2) ? 32 : 64, random_order (g),
                                                       rnd (g, 4) ? 32 : random_align (g)), NULL);
      break;
    case 4:
      ttv_type_add_field (s, name, ttv_type_new_string (), NULL);
      break;
    case 5:
      {
        /* char text[N] */
        TtvType *c = ttv_type_new_integer (8, FALSE, TTV_BYTE_ORDER_LITTLE, 8);
        c->encoding = TTV_ENCODING_UTF8;
        ttv_type_add_field (s, name, ttv_type_new_array (c, rnd (g, 20)), NULL);
        break;
      }
    case 6:
      ttv_type_add_field (s, name, ttv_type_new_array (random_type (g, depth + 1, s), rnd (g, 4)), NULL);
      break;
    case 7: case 8:
      {
        /* A count, then a sequence of it (text or not), by reference or prefix. */
        g_autofree char *count = new_name (g);
        ttv_type_add_field (s, count, random_count (g), NULL);
        TtvType *e;
        if (rnd (g, 3) == 0)
          {
            e = ttv_type_new_integer (8, FALSE, TTV_BYTE_ORDER_LITTLE, 8);
            e->encoding = TTV_ENCODING_UTF8;
          }
        else
          e = random_type (g, depth + 1, s);
        ttv_type_add_field (s, name, rnd (g, 4) ? ttv_type_new_sequence_ref (e, count)
                                                : ttv_type_new_sequence_prefixed (e, random_count (g)), NULL);
        break;
      }
    case 9:
      {
        /* A tag (enum or integer), then a variant selected by it. */
        guint n = 1 + rnd (g, 4);
        char *labels[4];
        TtvType *options[4];
        for (guint i = 0; i < n; i++)
          {
            labels[i] = new_name (g);
            options[i] = random_type (g, depth + 1, s);
          }
        g_autofree char *tag = new_name (g);
        gboolean prefixed = rnd (g, 4) == 0;
        TtvType *v;
        if (prefixed)
          v = ttv_type_new_variant_prefixed (random_count (g));
        else
          {
            ttv_type_add_field (s, tag, rnd (g, 2) ? random_tag_enum (g, options, n, labels) : random_count (g), NULL);
            v = ttv_type_new_variant_ref (tag);
          }
        for (guint i = 0; i < n; i++)
          {
            ttv_type_add_field (v, labels[i], options[i], NULL);
            g_free (labels[i]);
          }
        ttv_type_add_field (s, name, v, NULL);
        break;
      }
    default:
      ttv_type_add_field (s, name, random_type (g, depth + 1, s), NULL);
      break;
    }
}

static const TtvEncoding string_encodings[] = {
  TTV_ENCODING_UTF8, TTV_ENCODING_UTF16BE, TTV_ENCODING_UTF16LE, TTV_ENCODING_UTF32BE, TTV_ENCODING_UTF32LE,
};

/* A member of a field class CTF 2 adds (ttv-ctf2-convert.c builds them
 * so): LEB128 and reversed-bit integers, booleans, bit arrays and bit
 * maps, binary16, sized and UTF-16/32 strings, variants chosen by ranges,
 * optionals, locations that climb ('^'), CTF 1.8 labels of one leading
 * underscore.  Each comes after the members it refers to. */
static void
add_ctf2_member (Gen *g, TtvType *s, guint depth)
{
  g_autofree char *name = new_name (g);
  switch (rnd (g, 11))
    {
    case 0:
      {
        TtvType *t = ttv_type_new_integer (64, rnd (g, 2), TTV_BYTE_ORDER_LITTLE, 8);
        t->leb128 = TRUE;
        if (rnd (g, 2))
          {
            /* An enum over it reads its bytes as LEB128 too. */
            TtvType *e = ttv_type_new_enum (t);
            ttv_type_add_mapping (e, "small", 0, 3);
            t = e;
          }
        ttv_type_add_field (s, name, t, NULL);
        break;
      }
    case 1:
      {
        TtvType *t = random_integer (g);
        t->reverse_bits = TRUE;
        ttv_type_add_field (s, name, t, NULL);
        break;
      }
    case 2:
      {
        TtvType *t = random_integer (g);
        t->int_kind = rnd (g, 2) ? TTV_INT_BOOLEAN : TTV_INT_BIT_ARRAY;
        if (t->int_kind == TTV_INT_BIT_ARRAY && rnd (g, 2))
          {
            TtvType *e = ttv_type_new_enum (t);
            e->bit_flags = TRUE;
            ttv_type_add_mapping (e, "low", 0, 0);
            ttv_type_add_mapping (e, "high", 1, 2);
            t = e;
          }
        ttv_type_add_field (s, name, t, NULL);
        break;
      }
    case 3:
      ttv_type_add_field (s, name, ttv_type_new_float (16, random_order (g), rnd (g, 2) ? 8 : 16), NULL);
      break;
    case 4:
      {
        TtvType *t = ttv_type_new_string ();
        t->encoding = string_encodings[rnd (g, G_N_ELEMENTS (string_encodings))];
        t->static_length = TRUE;
        t->length = rnd (g, 9);
        ttv_type_add_field (s, name, t, NULL);
        break;
      }
    case 5:
      {
        g_autofree char *count = new_name (g);
        ttv_type_add_field (s, count, random_count (g), NULL);
        TtvType *t = ttv_type_new_string ();
        t->encoding = string_encodings[rnd (g, G_N_ELEMENTS (string_encodings))];
        if (rnd (g, 2))
          t->ref = g_strdup (count);
        ttv_type_add_field (s, name, t, NULL);
        break;
      }
    case 6: case 7:
      {
        /* A selector, then a variant of ranges of it or an optional. */
        g_autofree char *sel = new_name (g);
        TtvType *st = random_count (g);
        gboolean optional = rnd (g, 2);
        if (optional && rnd (g, 2))
          st->int_kind = TTV_INT_BOOLEAN;
        ttv_type_add_field (s, sel, st, NULL);
        TtvType *v;
        if (optional)
          {
            v = ttv_type_new_optional (random_type (g, depth + 1, s), sel);
            ttv_type_add_option_range (v, 0, 1, 2);
          }
        else
          {
            v = ttv_type_new_variant_ranges (sel);
            guint n = 1 + rnd (g, 3);
            for (guint i = 0; i < n; i++)
              {
                g_autofree char *opt = new_name (g);
                ttv_type_add_field (v, opt, random_type (g, depth + 1, s), NULL);
                ttv_type_add_option_range (v, i, i * 3, i * 3 + rnd (g, 3));
              }
          }
        ttv_type_add_field (s, name, v, NULL);
        break;
      }
    case 8:
      {
        /* A count here, a sequence in a struct inside that climbs to it. */
        g_autofree char *count = new_name (g);
        g_autofree char *climb = g_strconcat ("^", count, NULL);
        ttv_type_add_field (s, count, random_count (g), NULL);
        TtvType *inner = ttv_type_new_struct ();
        g_autofree char *seq = new_name (g);
        ttv_type_add_field (inner, seq, ttv_type_new_sequence_ref (random_type (g, depth + 2, inner), climb), NULL);
        ttv_type_add_field (s, name, inner, NULL);
        break;
      }
    case 9:
      {
        /* CTF 1.8: labels "_fN" select the options named "fN". */
        g_autofree char *tag = new_name (g);
        TtvType *e = ttv_type_new_enum (random_count (g));
        TtvType *v = ttv_type_new_variant_ref (tag);
        guint n = 1 + rnd (g, 3);
        for (guint i = 0; i < n; i++)
          {
            g_autofree char *opt = new_name (g);
            g_autofree char *label = g_strconcat ("_", opt, NULL);
            ttv_type_add_mapping (e, label, i, i);
            ttv_type_add_field (v, opt, random_type (g, depth + 1, s), NULL);
          }
        ttv_type_add_field (s, tag, e, NULL);
        ttv_type_add_field (s, name, v, NULL);
        break;
      }
    default:
      {
        /* A BLOB: bytes shown in hexadecimal, not text. */
        TtvType *byte = ttv_type_new_integer (8, FALSE, TTV_BYTE_ORDER_LITTLE, 8);
        byte->base = 16;
        TtvType *t = ttv_type_new_array (byte, rnd (g, 17));
        t->media_type = g_strdup ("application/octet-stream");
        ttv_type_add_field (s, name, t, NULL);
        break;
      }
    }
}

static TtvType *
random_struct (Gen *g, guint depth)
{
  TtvType *s = ttv_type_new_struct ();
  guint n = rnd (g, 7);
  for (guint i = 0; i < n; i++)
    add_random_member (g, s, depth);
  return s;
}

static TtvType *
random_type (Gen *g, guint depth, TtvType *parent)
{
  if (depth < 4 && rnd (g, 3) == 0)
    return random_struct (g, depth);
  return rnd (g, 5) ? random_integer (g) : rnd (g, 2) ? ttv_type_new_string ()
                                                      : ttv_type_new_float (64, random_order (g), 64);
}

static void
assert_same_nodes (const TtvDecoder *a, const TtvDecoder *b)
{
  g_assert_cmpuint (a->n_nodes, ==, b->n_nodes);
  for (guint32 i = 0; i < a->n_nodes; i++)
    {
      TtvValue x = a->nodes[i], y = b->nodes[i];
      /* Strings converted for the event (CTF 2) are in each decoder's own
       * arena: the same text at other addresses. */
      if (x.type == y.type && x.type->kind == TTV_TYPE_STRING && x.v.string.len == y.v.string.len
          && memcmp (x.v.string.str, y.v.string.str, x.v.string.len) == 0)
        x.v.string.str = y.v.string.str = NULL;
      if (memcmp (&x, &y, sizeof (TtvValue)) != 0)
        g_error ("node %u differs (type kind %d, name %s)", i, x.type->kind, x.name ? x.name : "-");
    }
}

/* A struct's members read by its sequential layout (ttv_seq_member_load,
 * as the printers read them from the bytes): the values of the plan's
 * nodes (@root, from @start to @end), an array's elements too, and a
 * failure where decoding failed (@root < 0).  Counts the types checked in
 * *@checked, the arrays compared in *@arrays. */
static void
check_seq_layout (const TtvType *type, const TtvDecoder *d, gint32 root, const guint8 *buf, guint64 bits,
                  guint64 start, guint64 end, guint *checked, guint *arrays)
{
  const TtvSeqLayout *seq = ttv_type_get_seq_layout (type);
  if (seq == NULL)
    return;
  g_assert_null (ttv_type_get_flat_layout (type));
  const TtvValue *nodes = root >= 0 ? ttv_decoder_get_children (d, ttv_decoder_get (d, (guint32) root)) : NULL;
  guint64 at = ttv_align_up (start, seq->align_bits);
  guint64 counts[TTV_SEQ_MAX_COUNTS];
  gboolean ok = TRUE;
  for (guint i = 0; i < seq->n_members && ok; i++)
    {
      const TtvSeqMember *sm = &seq->members[i];
      TtvValue v = { 0 };
      ok = ttv_seq_member_load (sm, buf, bits, &at, counts, &v);
      if (!ok || nodes == NULL)
        continue;
      if (sm->array)
        {
          /* Each element as its node. */
          g_assert_cmpuint (v.v.string.len, ==, nodes[i].n_children);
          for (guint32 k = 0; k < v.v.string.len; k++)
            {
              TtvValue e;
              ttv_seq_element_load (sm, &v, k, &e);
              g_assert_cmpuint (e.v.u, ==, ttv_decoder_get (d, nodes[i].first_child + k)->v.u);
            }
          (*arrays)++;
        }
      else if (sm->string || sm->load.load == TTV_FLAT_LOAD_TEXT)
        {
          g_assert_true (v.v.string.str == nodes[i].v.string.str);
          g_assert_cmpuint (v.v.string.len, ==, nodes[i].v.string.len);
        }
      else
        g_assert_cmpuint (v.v.u, ==, nodes[i].v.u);
    }
  g_assert_cmpint (ok, ==, root >= 0);
  if (ok)
    g_assert_cmpuint (at, ==, end);
  /* The cursor's step over the whole struct agrees with the loop. */
  guint64 skipped_to = G_MAXUINT64;
  g_assert_cmpint (ttv_seq_layout_skip (seq, buf, bits, start, &skipped_to), ==, ok);
  if (ok)
    g_assert_cmpuint (skipped_to, ==, end);
  (*checked)++;
}

/* Random types decoded from random bytes by plans and by the walk: the same
 * nodes, JSON and errors.  With @ctf2, types have CTF 2's field classes
 * too: plans must refuse those they do not do (the two then agree because
 * both walk), and do the rest. */
static void
check_plans_match_walk (gboolean ctf2)
{
  Gen g = { g_rand_new_with_seed (20261128), 0, ctf2 };
  g_autoptr (TtvDecoder) plan_d = ttv_decoder_new ();
  g_autoptr (TtvDecoder) walk_d = ttv_decoder_new ();
  guint8 buf[512];
  guint decoded = 0, failed = 0, planned = 0, sequential = 0, seq_arrays = 0;
  for (guint t = 0; t < 2000; t++)
    {
      g_autoptr (TtvType) type = random_struct (&g, 0);
      ttv_type_finish (type);
      planned += ttv_decode_plan_get (type) != NULL;
      for (guint k = 0; k < 24; k++)
        {
          guint len = random_bytes (&g, buf, sizeof buf, 3);
          guint64 start = MIN (rnd (&g, 16), len * 8);
          guint64 p1 = start, p2 = start, p3 = start;
          g_autoptr (GError) e1 = NULL;
          g_autoptr (GError) e2 = NULL;
          g_autoptr (GError) e3 = NULL;
          ttv_decoder_reset (plan_d);
          ttv_decoder_reset (walk_d);
          gint32 r1 = ttv_decoder_decode (plan_d, type, "event.fields", buf, len * 8, &p1, &e1);
          gint32 r2 = ttv_decoder_decode_walk (walk_d, type, "event.fields", buf, len * 8, &p2, &e2);
          g_assert_cmpint (r1, ==, r2);
          check_seq_layout (type, plan_d, r1, buf, len * 8, start, p1, &sequential, &seq_arrays);
          if (r1 < 0)
            {
              g_assert_cmpstr (e1->message, ==, e2->message);
              g_assert_cmpint (e1->code, ==, e2->code);
              failed++;
            }
          else
            {
              g_assert_cmpuint (p1, ==, p2);
              assert_same_nodes (plan_d, walk_d);
              g_autoptr (GString) o1 = g_string_new (NULL);
              g_autoptr (GString) o2 = g_string_new (NULL);
              ttv_decoder_append_value (plan_d, (guint32) r1, TTV_VALUE_STYLE_JSON, o1);
              ttv_decoder_append_value (walk_d, (guint32) r2, TTV_VALUE_STYLE_JSON, o2);
              g_assert_cmpstr (o1->str, ==, o2->str);
              decoded++;
            }
          /* Skipping ends where decoding does (a value of fixed size is
           * refused by skipping when its padding passes the end; its
           * bytes are not looked at, so a fixed-size CTF 2 string of odd
           * UTF-16 length is skipped while decoding it fails). */
          gboolean s = ttv_decoder_skip (plan_d, type, buf, len * 8, &p3, &e3);
          if (r1 < 0 && s && !(type->fixed_size_bits >= 0 && e1->code == TTV_FORMAT_ERROR_CORRUPT))
            {
              g_autofree char *sig = ttv_type_dup_signature (type);
              g_error ("skipped what fails to decode (%s): %s", e1->message, sig);
            }
          else if (r1 >= 0 && p1 <= len * 8)
            {
              g_assert_true (s);
              g_assert_cmpuint (p3, ==, p1);
            }
        }
    }
  g_test_message ("%u decoded, %u refused; %u types of 2000 with a plan; %u reads by a sequential layout "
                  "(%u arrays)", decoded, failed, planned, sequential, seq_arrays);
  /* Only references through variants or out of the type have none, and
   * (@ctf2) the types with a CTF 2 field class a plan does not do. */
  g_assert_cmpuint (planned, >, ctf2 ? 500 : 1900);
  if (ctf2)
    g_assert_cmpuint (planned, <, 1900);
  g_assert_cmpuint (decoded, >, ctf2 ? 3000 : 5000);
  g_assert_cmpuint (sequential, >, 1000);
  g_assert_cmpuint (seq_arrays, >, 100);
  g_assert_cmpuint (failed, >, ctf2 ? 3000 : 5000);
  g_rand_free (g.rand);
}

static void
test_plans_match_walk (void)
{
  check_plans_match_walk (FALSE);
}

static void
test_plans_match_walk_ctf2 (void)
{
  check_plans_match_walk (TRUE);
}

/* Each CTF 2 field class a plan does not do makes the walk decode the
 * type; those it does (booleans, bit arrays, BLOBs) keep their plan. */
static void
test_plan_refuses_ctf2 (void)
{
  TtvType *leb = ttv_type_new_integer (64, FALSE, TTV_BYTE_ORDER_LITTLE, 8);
  leb->leb128 = TRUE;
  TtvType *rev = ttv_type_new_integer (16, FALSE, TTV_BYTE_ORDER_LITTLE, 8);
  rev->reverse_bits = TRUE;
  TtvType *leb_in_enum = ttv_type_new_integer (64, FALSE, TTV_BYTE_ORDER_LITTLE, 8);
  leb_in_enum->leb128 = TRUE;
  TtvType *leb_enum = ttv_type_new_enum (leb_in_enum);
  ttv_type_add_mapping (leb_enum, "a", 0, 0);
  TtvType *half = ttv_type_new_float (16, TTV_BYTE_ORDER_LITTLE, 16);
  TtvType *sized = ttv_type_new_string ();
  sized->static_length = TRUE;
  sized->length = 4;
  TtvType *utf16 = ttv_type_new_string ();
  utf16->encoding = TTV_ENCODING_UTF16LE;
  TtvType *ranges = ttv_type_new_variant_ranges ("sel");
  ttv_type_add_field (ranges, "a", ttv_type_new_integer (8, FALSE, TTV_BYTE_ORDER_LITTLE, 8), NULL);
  ttv_type_add_option_range (ranges, 0, 0, 10);
  TtvType *optional = ttv_type_new_optional (ttv_type_new_integer (8, FALSE, TTV_BYTE_ORDER_LITTLE, 8), "sel");
  TtvType *climbing = ttv_type_new_struct ();
  ttv_type_add_field (climbing, "s", ttv_type_new_sequence_ref (ttv_type_new_integer (8, FALSE,
                                                                                      TTV_BYTE_ORDER_LITTLE, 8),
                                                                "^sel"), NULL);
  TtvType *refused[] = { leb, rev, leb_enum, half, sized, utf16, ranges, optional, climbing };
  TtvType *boolean = ttv_type_new_integer (8, FALSE, TTV_BYTE_ORDER_LITTLE, 8);
  boolean->int_kind = TTV_INT_BOOLEAN;
  TtvType *bits = ttv_type_new_integer (13, FALSE, TTV_BYTE_ORDER_LITTLE, 1);
  bits->int_kind = TTV_INT_BIT_ARRAY;
  TtvType *blob = ttv_type_new_array (ttv_type_new_integer (8, FALSE, TTV_BYTE_ORDER_LITTLE, 8), 16);
  blob->media_type = g_strdup ("application/octet-stream");
  TtvType *kept[] = { boolean, bits, blob };
  for (guint i = 0; i < G_N_ELEMENTS (refused) + G_N_ELEMENTS (kept); i++)
    {
      gboolean refuse = i < G_N_ELEMENTS (refused);
      TtvType *member = refuse ? refused[i] : kept[i - G_N_ELEMENTS (refused)];
      g_autoptr (TtvType) s = ttv_type_new_struct ();
      ttv_type_add_field (s, "sel", ttv_type_new_integer (8, FALSE, TTV_BYTE_ORDER_LITTLE, 8), NULL);
      ttv_type_add_field (s, "m", member, NULL);
      ttv_type_finish (s);
      g_autofree char *sig = ttv_type_dup_signature (s);
      if (ttv_decoder_has_plan (s) == refuse)
        g_error ("%s: %s", sig, refuse ? "has a plan" : "has no plan");
    }
}

/* The plan of a kernel-like payload: flat, with a text array; read at
 * constant offsets into the same nodes as the walk. */
static void
test_plan_text_array (void)
{
  g_autoptr (TtvType) s = ttv_type_new_struct ();
  TtvType *c = ttv_type_new_integer (8, FALSE, TTV_BYTE_ORDER_LITTLE, 8);
  c->encoding = TTV_ENCODING_UTF8;
  ttv_type_add_field (s, "comm", ttv_type_new_array (c, 16), NULL);
  ttv_type_add_field (s, "tid", ttv_type_new_integer (32, TRUE, TTV_BYTE_ORDER_LITTLE, 32), NULL);
  ttv_type_finish (s);
  guint8 data[20] = { 'b', 'a', 's', 'h', 0 };
  data[16] = 0xfe;
  data[17] = data[18] = data[19] = 0xff;
  g_autoptr (TtvDecoder) d = ttv_decoder_new ();
  guint64 pos = 0;
  gint32 root = ttv_decoder_decode (d, s, NULL, data, sizeof data * 8, &pos, NULL);
  const TtvValue *comm = ttv_decoder_get_field (d, ttv_decoder_get (d, root), "comm");
  g_assert_cmpuint (comm->n_children, ==, 0);
  g_assert_cmpuint (ttv_value_get_n_elements (comm), ==, 16);
  g_assert_true (comm->v.string.str == (const char *) data);
  TtvValue scratch;
  g_assert_cmpuint (ttv_decoder_get_element (d, comm, 1, &scratch)->v.u, ==, 'a');
  GString *out = g_string_new (NULL);
  ttv_decoder_append_value (d, root, TTV_VALUE_STYLE_PLAIN, out);
  g_assert_cmpstr (out->str, ==, "comm = \"bash\", tid = -2");
  g_string_free (out, TRUE);
}

/* A flat struct whose nodes or scope do not fit the decoder's arrays (a
 * new decoder: 64 nodes, 8 scopes) is decoded once they have grown:
 * the same nodes and scopes as the walk's, event after event. */
static void
test_plan_flat_grows (void)
{
  g_autoptr (TtvType) s = ttv_type_new_struct ();
  guint8 data[100 * 4];
  for (guint i = 0; i < 100; i++)
    {
      g_autofree char *name = g_strdup_printf ("m%u", i);
      ttv_type_add_field (s, name, ttv_type_new_integer (32, i % 2, TTV_BYTE_ORDER_LITTLE, 32), NULL);
      guint32 x = 0x9e3779b9u * (i + 1);
      memcpy (data + 4 * i, &x, 4);
    }
  ttv_type_finish (s);
  g_assert_nonnull (ttv_type_get_flat_layout (s));
  g_autoptr (TtvDecoder) d = ttv_decoder_new ();
  g_autoptr (TtvDecoder) w = ttv_decoder_new ();
  static const char *const names[] = { "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l" };
  for (guint event = 0; event < 2; event++)
    {
      ttv_decoder_reset (d);
      ttv_decoder_reset (w);
      for (guint i = 0; i < G_N_ELEMENTS (names); i++)
        {
          guint64 pos = 0, wpos = 0;
          gint32 r = ttv_decoder_decode (d, s, names[i], data, sizeof data * 8, &pos, NULL);
          gint32 wr = ttv_decoder_decode_walk (w, s, names[i], data, sizeof data * 8, &wpos, NULL);
          g_assert_cmpint (r, ==, wr);
          g_assert_cmpuint (pos, ==, wpos);
          g_assert_cmpuint (pos, ==, sizeof data * 8);
        }
      assert_same_nodes (d, w);
      g_assert_cmpuint (d->n_scopes, ==, G_N_ELEMENTS (names));
      g_assert_cmpuint (w->n_scopes, ==, d->n_scopes);
      for (guint i = 0; i < d->n_scopes; i++)
        {
          g_assert_true (d->scopes[i].name == w->scopes[i].name);
          g_assert_cmpuint (d->scopes[i].node, ==, w->scopes[i].node);
        }
    }
}

/* An empty struct (a kernel event without fields) has a flat layout
 * whatever its alignment: printers write it from the bytes, "{ }", where
 * it ends no later than the data, and the decoder agrees on its end. */
static void
test_plan_empty_struct (void)
{
  static const guint aligns[] = { 1, 8, 32 };
  const guint8 data[8] = { 0 };
  for (guint i = 0; i < G_N_ELEMENTS (aligns); i++)
    {
      g_autoptr (TtvType) s = ttv_type_new_struct ();
      s->align_bits = aligns[i];   /* as a CTF struct's align(N) */
      ttv_type_finish (s);
      g_assert_cmpuint (s->align_bits, ==, aligns[i]);
      const TtvFlatLayout *flat = ttv_type_get_flat_layout (s);
      g_assert_nonnull (flat);
      g_assert_cmpuint (flat->align_bits, ==, aligns[i]);
      g_assert_cmpuint (flat->size_bits, ==, 0);
      g_assert_cmpuint (flat->n_members, ==, 0);
      g_assert_null (ttv_type_get_seq_layout (s));
      g_autoptr (TtvDecoder) d = ttv_decoder_new ();
      guint64 pos = 3;
      g_assert_cmpint (ttv_decoder_decode (d, s, NULL, data, sizeof data * 8, &pos, NULL), >=, 0);
      g_assert_cmpuint (pos, ==, ttv_align_up (3, aligns[i]));
    }
}

/* A byte-aligned integer type for the UST-like structs below. */
static TtvType *
random_load_integer (Gen *g)
{
  static const guint sizes[] = { 8, 16, 32, 64 };
  guint size = sizes[rnd (g, 4)];
  return ttv_type_new_integer (size, rnd (g, 2), random_order (g), rnd (g, 2) ? 8 : size);
}

/* A member of an LTTng-UST payload: integers, floats, strings, text
 * arrays, arrays of integers, and sequences after their length (of a
 * byte or more: random bytes give short ones and corrupt ones); now and
 * then one a sequential layout does not do (a bit field, a prefixed
 * sequence). */
static void
add_ust_member (Gen *g, TtvType *s)
{
  g_autofree char *name = new_name (g);
  switch (rnd (g, 9))
    {
    case 0: case 1:
      ttv_type_add_field (s, name, random_load_integer (g), NULL);
      break;
    case 2:
      ttv_type_add_field (s, name, ttv_type_new_float (rnd (g, 2) ? 32 : 64, random_order (g), 8), NULL);
      break;
    case 3:
      ttv_type_add_field (s, name, ttv_type_new_string (), NULL);
      break;
    case 4:
      ttv_type_add_field (s, name, ttv_type_new_array (rnd (g, 4) ? random_load_integer (g)
                                                                  : ttv_type_new_float (32, random_order (g), 32),
                                                       rnd (g, 5)), NULL);
      break;
    case 5: case 6:
      {
        g_autofree char *count = g_strconcat ("_", name, "_length", NULL);
        TtvType *length = random_load_integer (g);
        if (rnd (g, 4) == 0)
          {
            /* An enum as the length. */
            length = ttv_type_new_enum (length);
            ttv_type_add_mapping (length, "few", 0, 3);
          }
        ttv_type_add_field (s, count, length, NULL);
        ttv_type_add_field (s, name, ttv_type_new_sequence_ref (random_load_integer (g), count), NULL);
        break;
      }
    case 7:
      {
        /* Two sequences of one length. */
        g_autofree char *count = new_name (g);
        g_autofree char *other = new_name (g);
        ttv_type_add_field (s, count, random_load_integer (g), NULL);
        ttv_type_add_field (s, name, ttv_type_new_sequence_ref (random_load_integer (g), count), NULL);
        ttv_type_add_field (s, other, ttv_type_new_sequence_ref (random_load_integer (g), count), NULL);
        break;
      }
    default:
      if (rnd (g, 2))
        ttv_type_add_field (s, name, random_count (g), NULL);
      else
        ttv_type_add_field (s, name, ttv_type_new_sequence_prefixed (random_load_integer (g), random_count (g)),
                            NULL);
      break;
    }
}

/* UST-like payloads with arrays and sequences: their sequential layouts
 * read what the plan decodes (check_seq_layout), element by element, and
 * fail where it fails (short packets, corrupt lengths). */
static void
test_seq_layout_arrays (void)
{
  Gen g = { g_rand_new_with_seed (20261130), 0, FALSE };
  g_autoptr (TtvDecoder) d = ttv_decoder_new ();
  g_autoptr (TtvDecoder) walk_d = ttv_decoder_new ();
  guint8 buf[256];
  guint sequential = 0, arrays = 0, failed = 0;
  for (guint t = 0; t < 1000; t++)
    {
      g_autoptr (TtvType) type = ttv_type_new_struct ();
      guint n = 1 + rnd (&g, 5);
      for (guint i = 0; i < n; i++)
        add_ust_member (&g, type);
      ttv_type_finish (type);
      for (guint k = 0; k < 16; k++)
        {
          guint len = random_bytes (&g, buf, sizeof buf, 4);
          guint64 start = MIN (rnd (&g, 16), len * 8);
          guint64 end = start, walk_end = start;
          ttv_decoder_reset (d);
          ttv_decoder_reset (walk_d);
          gint32 root = ttv_decoder_decode (d, type, "event.fields", buf, len * 8, &end, NULL);
          /* The plan's nodes are the walk's (two sequences of one length
           * once were not: an element wrote over the length). */
          g_assert_cmpint (root, ==, ttv_decoder_decode_walk (walk_d, type, "event.fields", buf, len * 8,
                                                              &walk_end, NULL));
          if (root >= 0)
            {
              g_assert_cmpuint (end, ==, walk_end);
              assert_same_nodes (d, walk_d);
            }
          failed += root < 0;
          check_seq_layout (type, d, root, buf, len * 8, start, end, &sequential, &arrays);
        }
    }
  g_test_message ("%u reads by a sequential layout, %u arrays compared, %u failed", sequential, arrays, failed);
  g_assert_cmpuint (sequential, >, 4000);
  g_assert_cmpuint (arrays, >, 3000);
  g_assert_cmpuint (failed, >, 1000);
  g_rand_free (g.rand);
}

/* A UST-like payload (a string, a float, a sequence after its length)
 * decoded by its sequential layout into the walk's nodes; past
 * TTV_SEQ_MAX_ELEMENTS the layout gives the sequence up and the
 * interpreter decodes it, into the same nodes too; a length past the
 * bytes fails as the walk does. */
static void
test_seq_decode_lengths (void)
{
  g_autoptr (TtvType) s = ttv_type_new_struct ();
  ttv_type_add_field (s, "name", ttv_type_new_string (), NULL);
  ttv_type_add_field (s, "ratio", ttv_type_new_float (32, TTV_BYTE_ORDER_LITTLE, 32), NULL);
  ttv_type_add_field (s, "_v_length", ttv_type_new_integer (32, FALSE, TTV_BYTE_ORDER_LITTLE, 8), NULL);
  ttv_type_add_field (s, "v", ttv_type_new_sequence_ref (ttv_type_new_integer (16, TRUE, TTV_BYTE_ORDER_LITTLE, 8),
                                                         "_v_length"), NULL);
  ttv_type_add_field (s, "tail", ttv_type_new_integer (8, FALSE, TTV_BYTE_ORDER_LITTLE, 8), NULL);
  ttv_type_finish (s);
  g_assert_nonnull (ttv_type_get_seq_layout (s));
  static const guint32 lengths[] = { 0, 3, TTV_SEQ_MAX_ELEMENTS, TTV_SEQ_MAX_ELEMENTS + 1, 40000 };
  gsize size = 8 + 4 + 4 + 2 * 40000 + 1;
  g_autofree guint8 *buf = g_malloc (size);
  for (gsize i = 0; i < size; i++)
    buf[i] = (guint8) (i * 7 + 1);
  memcpy (buf, "thread\0", 7);
  g_autoptr (TtvDecoder) d = ttv_decoder_new ();
  g_autoptr (TtvDecoder) walk_d = ttv_decoder_new ();
  for (guint i = 0; i < G_N_ELEMENTS (lengths); i++)
    {
      guint32 le = GUINT32_TO_LE (lengths[i]);
      /* "thread", its NUL, a byte of padding, the float, the length. */
      memcpy (buf + 12, &le, 4);
      /* The whole sequence and its tail, then one byte short of them. */
      guint64 bits[] = { (16 + 2 * (guint64) lengths[i] + 1) * 8, (16 + 2 * (guint64) lengths[i]) * 8 };
      for (guint k = 0; k < G_N_ELEMENTS (bits); k++)
        {
          guint64 end = 0, walk_end = 0;
          g_autoptr (GError) e1 = NULL;
          g_autoptr (GError) e2 = NULL;
          ttv_decoder_reset (d);
          ttv_decoder_reset (walk_d);
          gint32 root = ttv_decoder_decode (d, s, "event.fields", buf, bits[k], &end, &e1);
          g_assert_cmpint (root, ==, ttv_decoder_decode_walk (walk_d, s, "event.fields", buf, bits[k], &walk_end, &e2));
          if (k == 1)
            {
              g_assert_cmpint (root, <, 0);
              g_assert_cmpstr (e1->message, ==, e2->message);
              continue;
            }
          g_assert_cmpint (root, >=, 0);
          g_assert_cmpuint (end, ==, bits[k]);
          g_assert_cmpuint (end, ==, walk_end);
          assert_same_nodes (d, walk_d);
          const TtvValue *v = ttv_decoder_get_field (d, ttv_decoder_get (d, (guint32) root), "v");
          g_assert_cmpuint (v->n_children, ==, lengths[i]);
        }
    }
}

/* ttv_type_plain_text_may_contain() never says no to text that a value of
 * the type shows: every piece of the plain text of random values of random
 * types is allowed; and it does say no (a search then skips the events). */
static void
check_plain_text_alphabet (gboolean ctf2)
{
  Gen g = { g_rand_new_with_seed (20261129), 0, ctf2 };
  g_autoptr (TtvDecoder) d = ttv_decoder_new ();
  guint8 buf[512];
  guint checked = 0, refused = 0;
  for (guint t = 0; t < 1500; t++)
    {
      g_autoptr (TtvType) type = random_struct (&g, 0);
      ttv_type_finish (type);
      refused += !ttv_type_plain_text_may_contain (type, "zqj");
      gboolean seen[256] = { FALSE };   /* characters checked for this type */
      for (guint k = 0; k < 8; k++)
        {
          guint len = random_bytes (&g, buf, sizeof buf, 3);
          guint64 pos = 0;
          ttv_decoder_reset (d);
          gint32 root = ttv_decoder_decode (d, type, "event.fields", buf, len * 8, &pos, NULL);
          if (root < 0)
            continue;
          g_autoptr (GString) text = g_string_new (NULL);
          ttv_decoder_append_value (d, (guint32) root, TTV_VALUE_STYLE_PLAIN, text);
          for (gsize i = 0; i < text->len; i++)
            {
              guchar ch = (guchar) text->str[i];
              checked++;
              if (seen[ch])
                continue;
              seen[ch] = TRUE;
              /* In both cases: a search ignores it. */
              for (guint upper = 0; upper < 2; upper++)
                {
                  char c[2] = { upper ? g_ascii_toupper ((char) ch) : g_ascii_tolower ((char) ch), 0 };
                  if (!ttv_type_plain_text_may_contain (type, c))
                    {
                      g_autofree char *sig = ttv_type_dup_signature (type);
                      g_error ("'%s' is in \"%s\" but refused for %s", c, text->str, sig);
                    }
                }
            }
        }
    }
  g_rand_free (g.rand);
  g_test_message ("%u characters of text checked, %u types of 1500 cannot show \"zqj\"", checked, refused);
  g_assert_cmpuint (checked, >, 10000);
  g_assert_cmpuint (refused, >, 0);
}

static void
test_plain_text_alphabet (void)
{
  check_plain_text_alphabet (FALSE);
  check_plain_text_alphabet (TRUE);
  /* Numbers only: no letter but those of hex, "x" and the booleans. */
  g_autoptr (TtvType) ints = ttv_type_new_struct ();
  ttv_type_add_field (ints, "ret", ttv_type_new_integer (64, TRUE, TTV_BYTE_ORDER_LITTLE, 8), NULL);
  ttv_type_finish (ints);
  g_assert_true (ttv_type_plain_text_may_contain (ints, "RET = -1"));
  g_assert_false (ttv_type_plain_text_may_contain (ints, "python"));
  g_assert_false (ttv_type_plain_text_may_contain (ints, "0x"));
  ttv_type_add_field (ints, "comm", ttv_type_new_string (), NULL);
  g_assert_true (ttv_type_plain_text_may_contain (ints, "python"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/decoder/bits", test_bits);
  g_test_add_func ("/core/decoder/struct-refs", test_struct_refs);
  g_test_add_func ("/core/decoder/bad-data", test_bad_data);
  g_test_add_func ("/core/decoder/decode-chain", test_decode_chain);
  g_test_add_data_func ("/core/decoder/decode-chain-context-memo", GUINT_TO_POINTER (0),
                        test_decode_chain_context_memo);
  g_test_add_data_func ("/core/decoder/decode-chain-context-memo-wide", GUINT_TO_POINTER (48),
                        test_decode_chain_context_memo);
  g_test_add_func ("/core/decoder/first-memo", test_first_memo);
  g_test_add_func ("/core/decoder/first-memo-resident-limit", test_first_memo_resident_limit);
  g_test_add_func ("/core/decoder/first-memo-many-streams", test_first_memo_many_streams);
  g_test_add_func ("/core/decoder/plan-text-array", test_plan_text_array);
  g_test_add_func ("/core/decoder/plan-empty-struct", test_plan_empty_struct);
  g_test_add_func ("/core/decoder/plan-flat-grows", test_plan_flat_grows);
  g_test_add_func ("/core/decoder/seq-layout-arrays", test_seq_layout_arrays);
  g_test_add_func ("/core/decoder/seq-decode-lengths", test_seq_decode_lengths);
  g_test_add_func ("/core/decoder/plans-match-walk", test_plans_match_walk);
  g_test_add_func ("/core/decoder/plans-match-walk-ctf2", test_plans_match_walk_ctf2);
  g_test_add_func ("/core/decoder/plan-refuses-ctf2", test_plan_refuses_ctf2);
  g_test_add_func ("/core/decoder/plain-text-alphabet", test_plain_text_alphabet);
  return g_test_run ();
}
