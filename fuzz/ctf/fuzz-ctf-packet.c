/* fuzz-ctf-packet.c: libFuzzer target reading arbitrary bytes as a CTF stream
 * file under fixed LTTng-UST metadata: index, cursor, seeks, decoding, text.
 * The trace is opened once; each input is a stream file opened in it. */
#include "ttv-ctf.h"
#include "ttv-ctf-text.h"
#include "ttv-ctf-private.h"
#include "../fuzz-files.h"

#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

/* glxgears-ust's metadata plus an event class with every kind of type. */
static const char metadata[] =
  "/* CTF 1.8 */\n"
  "typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
  "typealias integer { size = 16; align = 8; signed = false; } := uint16_t;\n"
  "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
  "typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
  "typealias integer { size = 64; align = 8; signed = false; } := unsigned long;\n"
  "typealias integer { size = 5; align = 1; signed = false; } := uint5_t;\n"
  "typealias integer { size = 27; align = 1; signed = false; } := uint27_t;\n"
  "trace { major = 1; minor = 8; uuid = \"8580e349-f7cc-4160-85bd-7b4fbbf6f516\"; byte_order = le;\n"
  "  packet.header := struct { uint32_t magic; uint8_t uuid[16]; uint32_t stream_id; }; };\n"
  "env { hostname = \"loki\"; domain = \"ust\"; };\n"
  "clock { name = monotonic; freq = 1000000000; offset = 1378824328246018520; };\n"
  "typealias integer { size = 27; align = 1; signed = false; map = clock.monotonic.value; } := uint27_clock_monotonic_t;\n"
  "typealias integer { size = 64; align = 8; signed = false; map = clock.monotonic.value; } := uint64_clock_monotonic_t;\n"
  "struct packet_context { uint64_clock_monotonic_t timestamp_begin; uint64_clock_monotonic_t timestamp_end;\n"
  "  uint64_t content_size; uint64_t packet_size; unsigned long events_discarded; uint32_t cpu_id; };\n"
  "struct event_header_compact { enum : uint5_t { compact = 0 ... 30, extended = 31 } id;\n"
  "  variant <id> { struct { uint27_clock_monotonic_t timestamp; } compact;\n"
  "    struct { uint32_t id; uint64_clock_monotonic_t timestamp; } extended; } v; } align(8);\n"
  "stream { id = 0; event.header := struct event_header_compact; packet.context := struct packet_context;\n"
  "  event.context := struct { integer { size = 8; align = 8; signed = 1; encoding = UTF8; } _procname[17];\n"
  "    integer { size = 32; align = 8; signed = 1; } _vtid; }; };\n"
  "event { name = \"lttng_ust_cyg_profile:func_entry\"; id = 0; stream_id = 0;\n"
  "  fields := struct { integer { size = 64; align = 8; signed = 0; base = 16; } _addr;\n"
  "    integer { size = 64; align = 8; signed = 0; base = 16; } _call_site; }; };\n"
  "event { name = \"lttng_ust_cyg_profile:func_exit\"; id = 1; stream_id = 0;\n"
  "  fields := struct { integer { size = 64; align = 8; signed = 0; base = 16; } _addr;\n"
  "    integer { size = 64; align = 8; signed = 0; base = 16; } _call_site; }; };\n"
  "event { name = \"all\"; id = 2; stream_id = 0; context := struct { uint8_t _n; };\n"
  "  fields := struct { uint16_t _s[event.context.n]; string _str; enum : uint8_t { A, B } _tag;\n"
  "    variant <_tag> { uint32_t A; string B; } _v; floating_point { exp_dig = 8; mant_dig = 24; } _f;\n"
  "    integer { size = 3; align = 1; signed = 1; base = 2; } _b; integer { size = 9; align = 1; base = 8; } _o; }; };\n";

static char *dir;
static TtvTrace *trace;         /* the metadata, parsed once: the stream changes per input */

static void
remove_dir (void)
{
  ttv_trace_close (trace);
  fuzz_remove_tree (dir);
}

/* The stream file's tracefile, taken out of the trace again. */
static void
drop_stream (CtfStreamFile *sf)
{
  TtvTracefile *tf = sf->tracefile;
  g_ptr_array_remove (trace->tracefiles, tf);
  g_free (tf->name);
  if (tf->lost)
    g_array_unref (tf->lost);
  g_free (tf);
  ttv_ctf_stream_file_free (sf);
  g_ptr_array_set_size (trace->warnings, 0);
  g_clear_pointer (&trace->tail_warnings, g_ptr_array_unref);
  g_clear_pointer (&trace->damage_warnings, g_ptr_array_unref);
}

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  GError *error = NULL;
  if (dir == NULL)
    {
      dir = fuzz_make_tmp_dir ("ttv-fuzz-ctf");
      g_autofree char *m = g_build_filename (dir, "metadata", NULL);
      fuzz_write_file (m, metadata, strlen (metadata));
      /* Opened once, without a stream (parsing the metadata is most of
       * the cost of opening). */
      trace = ttv_trace_open (dir, &error);
      g_assert_no_error (error);
      atexit (remove_dir);
    }
  g_autofree char *s = g_build_filename (dir, "stream_0", NULL);
  fuzz_write_file (s, data, size);
  CtfTracePriv *priv = trace->priv;
  CtfStreamFile *sf = ttv_ctf_stream_file_open (priv->meta, dir, "stream_0", trace, &error);
  if (sf == NULL)
    {
      g_assert (error != NULL);
      g_error_free (error);
      return 0;
    }
  TtvDecoder *d = ttv_decoder_new ();
  GString *line = g_string_new (NULL);
  TtvCursor *c = ttv_cursor_new (sf->tracefile, &error);
  TtvEvent ev, mid = { 0 }, last = { 0 };
  guint n = 0;
  TtvTime prev = TTV_TIME_MIN;
  g_assert_no_error (error);
  GArray *all = g_array_new (FALSE, FALSE, sizeof (TtvTracefilePosition));
  gboolean ordered = !sf->overlapping;
  while (ttv_cursor_next (c, &ev, &error))
    {
      g_array_append_val (all, ev.pos);
      ordered &= ev.time >= prev;
      g_string_truncate (line, 0);
      ttv_ctf_append_babeltrace_line (line, &ev, prev, d);
      /* Every scope as a consumer asks (the format's quick way, then the
       * slow one): a failure comes with its message. */
      gint32 scopes[TTV_EVENT_N_CONTEXTS];
      GError *decode_error = NULL;
      if (ttv_event_decode_contexts (&ev, d, scopes, &decode_error) < 0)
        {
          g_assert (decode_error != NULL);
          g_error_free (decode_error);
        }
      prev = ev.time;
      if (n++ == 3)
        mid = ev;
      last = ev;
    }
  /* Read whole, in time order, packets apart: a seek by position then
   * finds the same order (damage that sends times back, or packets that
   * overlap, make the merge's order another one). */
  gboolean clean = error == NULL && ordered;
  g_clear_error (&error);
  if (n > 3)
    {
      /* Seeking back to an event delivered before finds it again. */
      g_assert (ttv_cursor_seek_position (c, &mid.pos, &error));
      g_assert (ttv_cursor_next (c, &ev, &error));
      g_assert (ev.pos.index == mid.pos.index && ev.pos.block == mid.pos.block);
      ttv_cursor_seek_time (c, mid.time, &error);
      g_clear_error (&error);
      /* And the last one, where a packet read through may have a fine
       * index to start from. */
      g_assert (ttv_cursor_seek_position (c, &last.pos, &error));
      g_assert (ttv_cursor_next (c, &ev, &error));
      g_assert (ev.pos.index == last.pos.index && ev.pos.block == last.pos.block);
      ttv_cursor_seek_time (c, last.time, &error);
      g_clear_error (&error);
      /* From the middle, where a seek into a large packet reads part of
       * it and more as it reads on: the same events to the end. */
      TtvTracefilePosition half = g_array_index (all, TtvTracefilePosition, n / 2);
      g_assert (ttv_cursor_seek_position (c, &half, &error));
      guint k = n / 2;
      while (ttv_cursor_next (c, &ev, &error))
        {
          const TtvTracefilePosition *want = k < n ? &g_array_index (all, TtvTracefilePosition, k) : NULL;
          g_assert (!clean || (want && ev.pos.block == want->block && ev.pos.index == want->index
                               && ev.pos.offset == want->offset));
          k++;
        }
      g_assert (!clean || (k == n && error == NULL));
      g_clear_error (&error);
    }
  g_array_free (all, TRUE);
  ttv_cursor_free (c);
  g_string_free (line, TRUE);
  ttv_decoder_free (d);
  drop_stream (sf);
  return 0;
}
