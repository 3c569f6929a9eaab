/* test-decoder.c: the common decoder on hand-built bytes: bit fields in both
 * byte orders, references for sequences and variants, and bad data. */
#include "ttv-decoder.h"
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

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/decoder/bits", test_bits);
  g_test_add_func ("/core/decoder/struct-refs", test_struct_refs);
  g_test_add_func ("/core/decoder/bad-data", test_bad_data);
  return g_test_run ();
}
