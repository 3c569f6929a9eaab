/* test-ctf2.c: the CTF 2 reader: a hand-built trace using every field class
 * of CTF2-SPEC-2.0 (decoded values, babeltrace and JSON text), packetized
 * CTF 2 metadata, and metadata errors naming the place. */
#include "ttv-ctf.h"
#include "ttv-ctf2-private.h"
#include "ttv-ctf-text.h"
#include "ttv-error.h"
#include "ttv-test-util.h"

#include <glib/gstdio.h>
#include <string.h>

#define RS "\x1e"

#ifndef TTV_REPORT_PATH
#error "TTV_REPORT_PATH must be defined by the build"
#endif

/* Every field class, named as CTF2-SPEC-2.0 names them; a few late-draft
 * forms are in the ctf2/ traces the conformance test reads. */
static const char metadata[] =
  RS "{\"type\":\"preamble\",\"version\":2,\"uuid\":[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16]}\n"
  RS "{\"type\":\"field-class-alias\",\"name\":\"u8\",\"field-class\":{\"type\":\"fixed-length-unsigned-integer\","
  "\"length\":8,\"byte-order\":\"little-endian\",\"alignment\":8}}\n"
  RS "{\"type\":\"field-class-alias\",\"name\":\"ts64\",\"field-class\":{\"type\":\"fixed-length-unsigned-integer\","
  "\"length\":64,\"byte-order\":\"little-endian\",\"alignment\":8,\"roles\":[\"default-clock-timestamp\"]}}\n"
  RS "{\"type\":\"trace-class\",\"environment\":{\"hostname\":\"box\",\"procname\":\"app\",\"vpid\":42},"
  "\"packet-header-field-class\":{\"type\":\"structure\",\"member-classes\":["
  "{\"name\":\"magic\",\"field-class\":{\"type\":\"fixed-length-unsigned-integer\",\"length\":32,"
  "\"byte-order\":\"little-endian\",\"alignment\":32,\"roles\":[\"packet-magic-number\"]}},"
  "{\"name\":\"the uuid\",\"field-class\":{\"type\":\"static-length-blob\",\"length\":16,\"roles\":[\"metadata-stream-uuid\"]}},"
  "{\"name\":\"sc\",\"field-class\":{\"type\":\"variable-length-unsigned-integer\",\"roles\":[\"data-stream-class-id\"]}}]}}\n"
  RS "{\"type\":\"clock-class\",\"id\":\"clk\",\"name\":\"monotonic\",\"frequency\":1000000000,\"origin\":\"unix-epoch\","
  "\"offset-from-origin\":{\"seconds\":1700000000,\"cycles\":5}}\n"
  RS "{\"type\":\"data-stream-class\",\"id\":3,\"default-clock-class-id\":\"clk\","
  "\"packet-context-field-class\":{\"type\":\"structure\",\"member-classes\":["
  "{\"name\":\"begin\",\"field-class\":\"ts64\"},"
  "{\"name\":\"end\",\"field-class\":{\"type\":\"fixed-length-unsigned-integer\",\"length\":64,"
  "\"byte-order\":\"little-endian\",\"alignment\":8,\"roles\":[\"packet-end-default-clock-timestamp\"]}},"
  "{\"name\":\"total\",\"field-class\":{\"type\":\"fixed-length-unsigned-integer\",\"length\":32,"
  "\"byte-order\":\"little-endian\",\"alignment\":8,\"roles\":[\"packet-total-length\"]}},"
  "{\"name\":\"content\",\"field-class\":{\"type\":\"fixed-length-unsigned-integer\",\"length\":32,"
  "\"byte-order\":\"little-endian\",\"alignment\":8,\"roles\":[\"packet-content-length\"]}},"
  "{\"name\":\"seq\",\"field-class\":{\"type\":\"variable-length-unsigned-integer\",\"roles\":[\"packet-sequence-number\"]}},"
  "{\"name\":\"lost\",\"field-class\":{\"type\":\"fixed-length-unsigned-integer\",\"length\":32,"
  "\"byte-order\":\"little-endian\",\"alignment\":8,\"roles\":[\"discarded-event-record-counter-snapshot\"]}},"
  "{\"name\":\"cpu_id\",\"field-class\":\"u8\"}]},"
  "\"event-record-header-field-class\":{\"type\":\"structure\",\"member-classes\":["
  "{\"name\":\"the id\",\"field-class\":{\"type\":\"variable-length-unsigned-integer\",\"roles\":[\"event-record-class-id\"]}},"
  "{\"name\":\"ts\",\"field-class\":{\"type\":\"fixed-length-unsigned-integer\",\"length\":32,"
  "\"byte-order\":\"little-endian\",\"alignment\":8,\"roles\":[\"default-clock-timestamp\"]}}]},"
  "\"event-record-common-context-field-class\":{\"type\":\"structure\",\"member-classes\":["
  "{\"name\":\"vtid\",\"field-class\":{\"type\":\"fixed-length-signed-integer\",\"length\":16,"
  "\"byte-order\":\"big-endian\",\"alignment\":8}}]}}\n"
  RS "{\"type\":\"event-record-class\",\"id\":5,\"data-stream-class-id\":3,\"name\":\"app:all\","
  "\"attributes\":{\"lttng.org,2009\":{\"log-level\":\"debug:line\",\"emf-uri\":\"http://example.org\"},"
  "\"example.org,2024\":{\"anything\":[1,2,{\"x\":null}]}},"
  "\"specific-context-field-class\":{\"type\":\"structure\",\"member-classes\":["
  "{\"name\":\"sel\",\"field-class\":{\"type\":\"fixed-length-signed-integer\",\"length\":8,"
  "\"byte-order\":\"little-endian\",\"alignment\":8}}]},"
  "\"payload-field-class\":{\"type\":\"structure\",\"member-classes\":["
  "{\"name\":\"flag\",\"field-class\":{\"type\":\"fixed-length-boolean\",\"length\":8,\"byte-order\":\"little-endian\",\"alignment\":8}},"
  "{\"name\":\"bits\",\"field-class\":{\"type\":\"fixed-length-bit-map\",\"length\":8,\"byte-order\":\"little-endian\","
  "\"flags\":{\"A\":[[0,0]],\"B\":[[1,2]],\"C\":[[7,7]]}}},"
  "{\"name\":\"rev\",\"field-class\":{\"type\":\"fixed-length-unsigned-integer\",\"length\":8,"
  "\"byte-order\":\"little-endian\",\"bit-order\":\"last-to-first\"}},"
  "{\"name\":\"raw\",\"field-class\":{\"type\":\"fixed-length-bit-array\",\"length\":8,\"byte-order\":\"little-endian\"}},"
  "{\"name\":\"half\",\"field-class\":{\"type\":\"fixed-length-floating-point-number\",\"length\":16,"
  "\"byte-order\":\"little-endian\",\"alignment\":8}},"
  "{\"name\":\"n\",\"field-class\":{\"type\":\"variable-length-unsigned-integer\"}},"
  "{\"name\":\"neg\",\"field-class\":{\"type\":\"variable-length-signed-integer\",\"mappings\":{\"MINUS\":[[-1000,-1]]}}},"
  "{\"name\":\"s16\",\"field-class\":{\"type\":\"null-terminated-string\",\"encoding\":\"utf-16le\"}},"
  "{\"name\":\"s32\",\"field-class\":{\"type\":\"static-length-string\",\"length\":8,\"encoding\":\"utf-32be\"}},"
  "{\"name\":\"fixed\",\"field-class\":{\"type\":\"static-length-string\",\"length\":4}},"
  "{\"name\":\"dyn\",\"field-class\":{\"type\":\"dynamic-length-string\",\"length-field-location\":{\"path\":[\"n\"]}}},"
  "{\"name\":\"blob\",\"field-class\":{\"type\":\"dynamic-length-blob\",\"media-type\":\"application/x-test\","
  "\"length-field-location\":{\"origin\":\"event-record-payload\",\"path\":[\"n\"]}}},"
  "{\"name\":\"arr\",\"field-class\":{\"type\":\"static-length-array\",\"length\":2,\"element-field-class\":"
  "{\"type\":\"structure\",\"member-classes\":["
  "{\"name\":\"k\",\"field-class\":\"u8\"},"
  "{\"name\":\"v\",\"field-class\":{\"type\":\"dynamic-length-array\",\"length-field-location\":{\"path\":[\"k\"]},"
  "\"element-field-class\":\"u8\"}},"
  "{\"name\":\"up\",\"field-class\":{\"type\":\"optional\",\"selector-field-location\":{\"path\":[null,\"flag\"]},"
  "\"field-class\":\"u8\"}}]}}},"
  "{\"name\":\"opt\",\"field-class\":{\"type\":\"optional\",\"selector-field-location\":"
  "{\"origin\":\"event-record-specific-context\",\"path\":[\"sel\"]},\"selector-field-ranges\":[[-5,-1]],"
  "\"field-class\":{\"type\":\"null-terminated-string\"}}},"
  "{\"name\":\"var\",\"field-class\":{\"type\":\"variant\",\"selector-field-location\":"
  "{\"origin\":\"event-record-specific-context\",\"path\":[\"sel\"]},\"options\":["
  "{\"name\":\"minus\",\"selector-field-ranges\":[[-128,-1]],\"field-class\":{\"type\":\"fixed-length-signed-integer\","
  "\"length\":16,\"byte-order\":\"little-endian\",\"alignment\":8}},"
  "{\"selector-field-ranges\":[[0,127]],\"field-class\":{\"type\":\"null-terminated-string\"}}]}},"
  "{\"name\":\"big\",\"field-class\":{\"type\":\"fixed-length-unsigned-integer\",\"length\":64,"
  "\"byte-order\":\"big-endian\",\"alignment\":8,\"mappings\":{\"HIGH\":[[9223372036854775808,18446744073709551614]],"
  "\"MAX\":[[18446744073709551615,18446744073709551615]],\"ANY\":[[0,18446744073709551615]]}}}"
  "]}}\n";

/* --- A packet, byte by byte ------------------------------------------------ */

static void
put (GByteArray *b, guint64 v, guint bytes, gboolean big)
{
  for (guint i = 0; i < bytes; i++)
    {
      guint shift = big ? 8 * (bytes - 1 - i) : 8 * i;
      guint8 c = (guint8) (v >> shift);
      g_byte_array_append (b, &c, 1);
    }
}

static void
put_uleb (GByteArray *b, guint64 v)
{
  do
    {
      guint8 c = v & 0x7F;
      v >>= 7;
      if (v)
        c |= 0x80;
      g_byte_array_append (b, &c, 1);
    }
  while (v);
}

static void
put_sleb (GByteArray *b, gint64 v)
{
  for (;;)
    {
      guint8 c = v & 0x7F;
      v >>= 7;
      gboolean done = (v == 0 && !(c & 0x40)) || (v == -1 && (c & 0x40));
      if (!done)
        c |= 0x80;
      g_byte_array_append (b, &c, 1);
      if (done)
        break;
    }
}

static void
put_bytes (GByteArray *b, const char *s, gsize n)
{
  g_byte_array_append (b, (const guint8 *) s, (guint) n);
}

/* One event: @sel chooses the optional and the variant, @flag the
 * optionals inside the array. */
static void
put_event (GByteArray *b, guint32 ts, gint8 sel, gboolean flag)
{
  put_uleb (b, 5);                  /* the id */
  put (b, ts, 4, FALSE);
  put (b, (guint16) -7, 2, TRUE);   /* vtid, big-endian */
  put (b, (guint8) sel, 1, FALSE);
  put (b, flag, 1, FALSE);
  put (b, 0x83, 1, FALSE);          /* bits A, B, C */
  put (b, 0x01, 1, FALSE);          /* rev: reversed, 0x80 */
  put (b, 0xA5, 1, FALSE);          /* raw */
  put (b, 0x3E00, 2, FALSE);        /* half: 1.5 */
  put_uleb (b, 3);                  /* n */
  put_sleb (b, -300);               /* neg */
  put_bytes (b, "h\0\xe9\0\0\0", 6);        /* s16: "hé" */
  put_bytes (b, "\0\0\0Z\0\0\0\0", 8);      /* s32: "Z", then padding */
  put_bytes (b, "abcd", 4);         /* fixed, no NUL */
  put_bytes (b, "xyz", 3);          /* dyn */
  put_bytes (b, "\xde\xad\xbe", 3); /* blob */
  put (b, 1, 1, FALSE);             /* arr[0].k */
  put (b, 7, 1, FALSE);             /* arr[0].v[0] */
  if (flag)
    put (b, 9, 1, FALSE);           /* arr[0].up */
  put (b, 0, 1, FALSE);             /* arr[1].k */
  if (flag)
    put (b, 8, 1, FALSE);           /* arr[1].up */
  if (sel < 0)
    {
      put_bytes (b, "on", 3);       /* opt */
      put (b, (guint16) -2, 2, FALSE);
    }
  else
    put_bytes (b, "var", 4);
  put (b, G_MAXUINT64, 8, TRUE);    /* big */
}

static void
write_trace (const char *dir, gboolean packetized)
{
  g_autofree char *meta = g_build_filename (dir, "metadata", NULL);
  if (!packetized)
    g_assert_true (g_file_set_contents (meta, metadata, -1, NULL));
  else
    {
      /* LTTng 2.15: metadata packets (CTF2 major 2) holding the JSON text,
       * cut in the middle of a fragment. */
      g_autoptr (GByteArray) m = g_byte_array_new ();
      gsize len = strlen (metadata), cut = len / 3;
      for (guint p = 0; p < 2; p++)
        {
          gsize from = p ? cut : 0, n = p ? len - cut : cut;
          put (m, 0x75D11D57, 4, FALSE);
          for (guint i = 0; i < 16; i++)
            put (m, i + 1, 1, FALSE);
          put (m, 0, 4, FALSE);
          put (m, (37 + n) * 8, 4, FALSE);
          put (m, (37 + n + 3) * 8, 4, FALSE);
          put (m, 0, 3, FALSE);
          put (m, 2, 1, FALSE);     /* major */
          put (m, 0, 1, FALSE);
          put_bytes (m, metadata + from, n);
          put (m, 0, 3, FALSE);     /* padding */
        }
      g_assert_true (g_file_set_contents (meta, (const char *) m->data, m->len, NULL));
    }
  g_autoptr (GByteArray) b = g_byte_array_new ();
  put (b, 0xC1FC1FC1, 4, FALSE);
  for (guint i = 0; i < 16; i++)
    put (b, i + 1, 1, FALSE);
  put_uleb (b, 3);
  gsize ctx = b->len;
  put (b, 100, 8, FALSE);           /* begin */
  put (b, 900, 8, FALSE);           /* end */
  put (b, 0, 4, FALSE);             /* total, patched below */
  put (b, 0, 4, FALSE);             /* content */
  put_uleb (b, 0);                  /* seq */
  put (b, 0, 4, FALSE);             /* lost */
  put (b, 1, 1, FALSE);             /* cpu_id */
  put_event (b, 200, -3, TRUE);
  put_event (b, 300, 5, FALSE);
  guint32 content = b->len * 8;
  put (b, 0, 7, FALSE);             /* padding */
  guint32 total = b->len * 8;
  for (guint i = 0; i < 4; i++)
    {
      b->data[ctx + 16 + i] = (guint8) (total >> (8 * i));
      b->data[ctx + 20 + i] = (guint8) (content >> (8 * i));
    }
  g_autofree char *stream = g_build_filename (dir, "stream_1", NULL);
  g_assert_true (g_file_set_contents (stream, (const char *) b->data, b->len, NULL));
}

static const char *const babeltrace_lines[] = {
  "[22:13:20.000000205] (+?.\?\?\?\?\?\?\?\?\?) box:app:(42) app:all: { cpu_id = 1 }, { vtid = -7 }, { sel = -3 }, "
  "{ flag = true, bits = ( \"A\", \"B\", \"C\" : container = 0x83 ), rev = 128, raw = 0xA5, half = 1.5, n = 3, "
  "neg = ( \"MINUS\" : container = -300 ), s16 = \"h\xc3\xa9\", s32 = \"Z\", fixed = \"abcd\", dyn = \"xyz\", "
  "blob = [ [0] = 0xDE, [1] = 0xAD, [2] = 0xBE ], arr = [ [0] = { k = 1, v = [ [0] = 7 ], up = { 9 } }, "
  "[1] = { k = 0, v = [ ], up = { 8 } } ], opt = { \"on\" }, var = { -2 }, "
  "big = ( \"MAX\", \"ANY\" : container = 18446744073709551615 ) }",
  "[22:13:20.000000305] (+0.000000100) box:app:(42) app:all: { cpu_id = 1 }, { vtid = -7 }, { sel = 5 }, "
  "{ flag = false, bits = ( \"A\", \"B\", \"C\" : container = 0x83 ), rev = 128, raw = 0xA5, half = 1.5, n = 3, "
  "neg = ( \"MINUS\" : container = -300 ), s16 = \"h\xc3\xa9\", s32 = \"Z\", fixed = \"abcd\", dyn = \"xyz\", "
  "blob = [ [0] = 0xDE, [1] = 0xAD, [2] = 0xBE ], arr = [ [0] = { k = 1, v = [ [0] = 7 ], up = <none> }, "
  "[1] = { k = 0, v = [ ], up = <none> } ], opt = <none>, var = { \"var\" }, "
  "big = ( \"MAX\", \"ANY\" : container = 18446744073709551615 ) }",
};

static void
check_trace (const char *dir)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvTrace) t = ttv_trace_open (dir, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (ttv_trace_get_info (t, "ctf_version"), ==, "2");
  g_assert_cmpstr (ttv_trace_get_info (t, "hostname"), ==, "box");
  g_assert_cmpuint (t->event_types->len, ==, 1);
  const TtvEventType *et = g_ptr_array_index (t->event_types, 0);
  g_assert_cmpstr (et->facility, ==, "app");
  g_assert_cmpstr (et->name, ==, "all");
  const CtfEventClass *ec = et->priv;
  g_assert_cmpint (ec->loglevel, ==, 13);
  g_assert_cmpstr (ec->emf_uri, ==, "http://example.org");
  /* The same through the format table, and as ttv-report --list-events
   * shows them (the lttng.org,2009 attributes). */
  TtvEventTypeAttributes attr;
  ttv_event_type_get_attributes (t, et, &attr);
  g_assert_cmpint (attr.log_level, ==, 13);
  g_assert_cmpstr (attr.emf_uri, ==, "http://example.org");
  {
    const char *argv[] = { TTV_REPORT_PATH, "--list-events", dir, NULL };
    g_autofree char *list = ttv_test_run_ok (argv);
    g_assert_true (g_str_has_prefix (list, "005   app:all "));
    g_assert_true (g_str_has_suffix (list, "  (loglevel: TRACE_DEBUG_LINE (13))  (emf-uri: http://example.org)\n"));
  }
  g_assert_cmpuint (t->tracefiles->len, ==, 1);
  TtvTracefile *tf = g_ptr_array_index (t->tracefiles, 0);
  g_assert_cmpint (tf->cpu, ==, 1);

  g_autoptr (TtvCursor) c = ttv_cursor_new (tf, &error);
  g_assert_no_error (error);
  g_autoptr (TtvDecoder) d = ttv_decoder_new ();
  g_autoptr (GString) line = g_string_new (NULL);
  TtvEvent ev;
  TtvTime prev = TTV_TIME_MIN;
  guint n = 0;
  while (ttv_cursor_next (c, &ev, &error))
    {
      g_assert_cmpuint (n, <, G_N_ELEMENTS (babeltrace_lines));
      g_assert_cmpint (ev.time, ==, 1700000000000000005 + (n ? 300 : 200));
      g_string_truncate (line, 0);
      ttv_ctf_append_babeltrace_line (line, &ev, prev, d);
      g_strchomp (line->str);
      g_assert_cmpstr (line->str, ==, babeltrace_lines[n]);
      prev = ev.time;
      /* JSON: every value of the event; enums with their number and labels. */
      ttv_decoder_reset (d);
      gint32 root = ttv_event_decode_fields (&ev, d, &error);
      g_assert_no_error (error);
      g_string_truncate (line, 0);
      ttv_decoder_append_value (d, (guint32) root, TTV_VALUE_STYLE_JSON, line);
      g_assert_nonnull (strstr (line->str, "\"big\":{\"value\":18446744073709551615,\"labels\":[\"MAX\",\"ANY\"]}"));
      g_assert_nonnull (strstr (line->str, n ? "\"opt\":null" : "\"opt\":\"on\""));
      g_assert_nonnull (strstr (line->str, "\"half\":1.5"));
      n++;
    }
  g_assert_no_error (error);
  g_assert_cmpuint (n, ==, 2);
}

static void
test_every_field_class (void)
{
  const char *dir = ttv_test_get_tmp_dir ();

  write_trace (dir, FALSE);
  check_trace (dir);
}

static void
test_packetized (void)
{
  const char *dir = ttv_test_get_tmp_dir ();

  write_trace (dir, TRUE);
  check_trace (dir);
}

/* --- Bad metadata: refused, naming the place ---------------------------------- */

static const char preamble[] = RS "{\"type\":\"preamble\",\"version\":2}\n";
static const char dsc[] = RS "{\"type\":\"data-stream-class\"}\n";

static void
expect_error (const char *text, gint code, const char *where, const char *message)
{
  g_autoptr (GError) error = NULL;
  CtfMeta *m = ttv_ctf_metadata_parse (text, strlen (text), "/t/metadata", FALSE, &error);
  g_assert_null (m);
  g_assert_nonnull (error);
  g_test_message ("%s", error->message);
  if (!g_error_matches (error, TTV_FORMAT_ERROR, code) || !g_str_has_prefix (error->message, where)
      || strstr (error->message, message) == NULL)
    g_error ("for %s\nexpected %s ... %s\ngot %s", text, where, message, error->message);
}

static void
test_errors (void)
{
  /* JSON syntax, with line, column and byte offset. */
  expect_error (RS "{\"type\":\"preamble\",\n \"version\":2,}", TTV_FORMAT_ERROR_SYNTAX,
                "/t/metadata:2:14 (byte offset 34)", "expected a member name");
  expect_error (RS "{\"type\":\"preamble\",\"version\":2 \"x\":1}", TTV_FORMAT_ERROR_SYNTAX,
                "/t/metadata:1:33 (byte offset 32)", "expected “,” or “}”");
  expect_error (RS "{\"type\":\"preamble\",\"type\":\"x\"}", TTV_FORMAT_ERROR_SYNTAX,
                "/t/metadata:1:21", "member “type” appears twice");
  expect_error (RS "{\"type\":\"preamble\",\"version\":99999999999999999999}", TTV_FORMAT_ERROR_SYNTAX,
                "/t/metadata:1:31", "integer out of the 64-bit range");
  expect_error (RS "{\"type\":\"pre\xff\"}", TTV_FORMAT_ERROR_SYNTAX, "/t/metadata:1:", "not UTF-8");
  {
    GString *deep = g_string_new (RS "{\"type\":\"preamble\",\"version\":2,\"attributes\":");
    for (guint i = 0; i < 10000; i++)
      g_string_append_c (deep, '[');
    expect_error (deep->str, TTV_FORMAT_ERROR_SYNTAX, "/t/metadata:1:", "nested too deeply");
    g_string_free (deep, TRUE);
  }
  /* Validation. */
  expect_error (RS "{\"type\":\"preamble\",\"version\":1}", TTV_FORMAT_ERROR_INVALID, "/t/metadata:1:31",
                "preamble version is not 2");
  expect_error (RS "{\"type\":\"trace-class\"}", TTV_FORMAT_ERROR_INVALID, "/t/metadata:1:2",
                "begins with a preamble fragment");
  /* A payload member that validation refuses, that CTF 2 forbids, or that
   * ttv does not support. */
  static const struct {
    const char *members;
    gint code;
    const char *message;
  } payloads[] = {
    { "{\"name\":\"x\",\"field-class\":{\"type\":\"fixed-length-unsigned-integer\","
      "\"length\":0,\"byte-order\":\"little-endian\"}}",
      TTV_FORMAT_ERROR_INVALID, "“length” must be a positive integer" },
    { "{\"name\":\"x\",\"field-class\":{\"type\":\"fixed-length-unsigned-integer\",\"length\":8}}",
      TTV_FORMAT_ERROR_INVALID, "needs the property “byte-order”" },
    { "{\"name\":\"x\",\"field-class\":{\"type\":\"quantum-integer\"}}",
      TTV_FORMAT_ERROR_INVALID, "unknown field class type “quantum-integer”" },
    { "{\"name\":\"x\",\"field-class\":{\"type\":\"fixed-length-unsigned-integer\","
      "\"length\":8,\"byte-order\":\"le\",\"roles\":[\"packet-magic-number\"]}}",
      TTV_FORMAT_ERROR_INVALID, "the role “packet-magic-number” is not allowed here" },
    { "{\"name\":\"x\",\"field-class\":{\"type\":\"fixed-length-floating-point-number\","
      "\"length\":128,\"byte-order\":\"little-endian\"}}",
      TTV_FORMAT_ERROR_UNSUPPORTED, "floating-point numbers of 128 bits" },
    { "{\"name\":\"x\",\"field-class\":\"nowhere\"}",
      TTV_FORMAT_ERROR_INVALID, "no field class alias “nowhere”" },
    { "{\"name\":\"s\",\"field-class\":{\"type\":\"dynamic-length-string\","
      "\"length-field-location\":{\"path\":[\"n\"]}}},"
      "{\"name\":\"n\",\"field-class\":{\"type\":\"variable-length-unsigned-integer\"}}",
      TTV_FORMAT_ERROR_INVALID, "the length “n” of this sequence or string is not a field declared before it" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (payloads); i++)
    {
      g_autofree char *t = g_strconcat (preamble, dsc, RS "{\"type\":\"event-record-class\",\"payload-field-class\":"
                                        "{\"type\":\"structure\",\"member-classes\":[", payloads[i].members,
                                        "]}}\n", NULL);
      expect_error (t, payloads[i].code, "/t/metadata:3:", payloads[i].message);
    }
  {
    g_autofree char *t = g_strconcat (preamble, dsc, RS "{\"type\":\"event-record-class\",\"data-stream-class-id\":9}\n", NULL);
    expect_error (t, TTV_FORMAT_ERROR_INVALID, "/t/metadata:3:", "no data stream class 9");
  }
  expect_error (RS "{\"type\":\"preamble\",\"version\":2,\"extensions\":{\"x.org,2024\":{\"zip\":true}}}\n",
                TTV_FORMAT_ERROR_UNSUPPORTED, "/t/metadata:1:", "the extension “x.org,2024/zip”");
  expect_error (preamble, TTV_FORMAT_ERROR_INVALID, "/t/metadata", "no data stream class");
}

/* A fragment still being written is left for later when following. */
static void
test_partial_fragment (void)
{
  g_autofree char *text = g_strconcat (preamble, dsc, RS "{\"type\":\"event-record-class\",\"na", NULL);
  g_autoptr (GError) error = NULL;
  CtfMeta *m = ttv_ctf2_parse (text, strlen (text), "m", TRUE, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (m->events->len, ==, 0);
  ttv_ctf_meta_free (m);
  m = ttv_ctf2_parse (text, strlen (text), "m", FALSE, &error);
  g_assert_null (m);
  g_assert_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_SYNTAX);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ctf2/every-field-class", test_every_field_class);
  g_test_add_func ("/ctf2/packetized", test_packetized);
  g_test_add_func ("/ctf2/errors", test_errors);
  g_test_add_func ("/ctf2/partial-fragment", test_partial_fragment);
  return g_test_run ();
}
