/* test-ltt-encoder.c: ttv_encode round trips through ttv_decoder_decode for
 * every type kind in both byte orders, and values that do not fit. */
#include "ttv-error.h"
#include "ltt-test-util.h"

static TtvType *
integer (guint bits, gboolean is_signed, TtvByteOrder o)
{
  return ttv_type_new_integer (bits, is_signed, o, bits);
}

/* struct { every kind } in byte order @o. */
static TtvType *
all_kinds (TtvByteOrder o)
{
  TtvType *s = ttv_type_new_struct ();
  ttv_type_add_field (s, "u8", integer (8, FALSE, o), NULL);
  ttv_type_add_field (s, "s16", integer (16, TRUE, o), NULL);
  ttv_type_add_field (s, "u32", integer (32, FALSE, o), NULL);
  ttv_type_add_field (s, "s64", integer (64, TRUE, o), NULL);
  ttv_type_add_field (s, "u64", integer (64, FALSE, o), NULL);
  ttv_type_add_field (s, "f32", ttv_type_new_float (32, o, 32), NULL);
  ttv_type_add_field (s, "f64", ttv_type_new_float (64, o, 64), NULL);
  ttv_type_add_field (s, "str", ttv_type_new_string (), NULL);
  TtvType *e = ttv_type_new_enum (integer (16, FALSE, o));
  ttv_type_add_mapping (e, "A", 0, 0);
  ttv_type_add_mapping (e, "B", 1, 1);
  ttv_type_add_field (s, "e", e, NULL);
  ttv_type_add_field (s, "arr", ttv_type_new_array (integer (16, FALSE, o), 3), NULL);
  ttv_type_add_field (s, "seq", ttv_type_new_sequence_prefixed (ttv_type_new_string (),
                                                                integer (8, FALSE, o)), NULL);
  TtvType *inner = ttv_type_new_struct ();
  ttv_type_add_field (inner, "a", integer (8, TRUE, o), NULL);
  ttv_type_add_field (inner, "b", integer (64, FALSE, o), NULL);
  ttv_type_add_field (s, "inner", inner, NULL);
  TtvType *v = ttv_type_new_variant_prefixed (integer (8, FALSE, o));
  ttv_type_add_field (v, "x", integer (32, TRUE, o), NULL);
  ttv_type_add_field (v, "y", ttv_type_new_string (), NULL);
  ttv_type_add_field (s, "v", v, NULL);
  ttv_type_add_field (s, "seq2", ttv_type_new_sequence_prefixed (integer (32, FALSE, o),
                                                                 integer (16, FALSE, o)), NULL);
  ttv_type_finish (s);
  return s;
}

static void
test_round_trip (gconstpointer data)
{
  TtvByteOrder o = GPOINTER_TO_INT (data);
  g_autoptr (TtvType) t = all_kinds (o);
  const TtvScalar in[] = {
    TTV_SCALAR_UINT (255), TTV_SCALAR_INT (-32768), TTV_SCALAR_UINT (0xDEADBEEF),
    TTV_SCALAR_INT (G_MININT64), TTV_SCALAR_UINT (G_MAXUINT64), TTV_SCALAR_FLOAT (1.5),
    TTV_SCALAR_FLOAT (-2.25e300), TTV_SCALAR_STRING ("héllo"), TTV_SCALAR_UINT (1),
    TTV_SCALAR_UINT (1), TTV_SCALAR_UINT (2), TTV_SCALAR_UINT (65535),
    TTV_SCALAR_UINT (2), TTV_SCALAR_STRING (""), TTV_SCALAR_STRING ("two"),
    TTV_SCALAR_INT (-1), TTV_SCALAR_UINT (G_GUINT64_CONSTANT (0x0102030405060708)),
    TTV_SCALAR_UINT (1), TTV_SCALAR_STRING ("why"),
    TTV_SCALAR_UINT (2), TTV_SCALAR_UINT (7), TTV_SCALAR_UINT (8),
  };
  /* Start at an odd offset: alignment is relative to the buffer start. */
  g_autoptr (GByteArray) buf = g_byte_array_new ();
  g_byte_array_append (buf, (const guint8 *) "x", 1);
  guint used = 0;
  g_autoptr (GError) error = NULL;
  g_assert_true (ttv_encode (buf, t, in, G_N_ELEMENTS (in), &used, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (used, ==, G_N_ELEMENTS (in));

  g_autoptr (TtvDecoder) d = ttv_decoder_new ();
  guint64 pos = 8;
  gint32 root = ttv_decoder_decode (d, t, "event.fields", buf->data, buf->len * 8, &pos, &error);
  g_assert_no_error (error);
  g_assert_cmpint (root, >=, 0);
  g_assert_cmpuint (pos, ==, buf->len * 8);
  g_autoptr (GArray) got = g_array_new (FALSE, FALSE, sizeof (TtvScalar));
  ltt_test_flatten (d, (guint32) root, got);
  ltt_test_assert_scalars (in, G_N_ELEMENTS (in), got);

  /* Byte order is visible on the wire: the struct starts at 8 (aligned on its
   * 64-bit members), so u32 0xDEADBEEF sits at 12. */
  g_assert_cmphex (buf->data[12], ==, (o == TTV_BYTE_ORDER_LITTLE ? 0xEF : 0xDE));
}

static void
test_refuses (void)
{
  g_autoptr (TtvType) u8 = integer (8, FALSE, TTV_BYTE_ORDER_LITTLE);
  g_autoptr (TtvType) s8 = integer (8, TRUE, TTV_BYTE_ORDER_LITTLE);
  g_autoptr (TtvType) odd = integer (12, FALSE, TTV_BYTE_ORDER_LITTLE);
  g_autoptr (TtvType) seq = ttv_type_new_sequence_prefixed (integer (8, FALSE, TTV_BYTE_ORDER_LITTLE),
                                                            integer (8, FALSE, TTV_BYTE_ORDER_LITTLE));
  g_autoptr (GByteArray) buf = g_byte_array_new ();
  struct { const TtvType *t; TtvScalar v; guint n; } cases[] = {
    { u8, TTV_SCALAR_UINT (256), 1 },           /* out of range */
    { u8, TTV_SCALAR_INT (-1), 1 },             /* negative for unsigned */
    { s8, TTV_SCALAR_INT (128), 1 },
    { s8, TTV_SCALAR_INT (-129), 1 },
    { u8, TTV_SCALAR_STRING ("x"), 1 },         /* wrong kind */
    { u8, TTV_SCALAR_UINT (1), 0 },             /* too few */
    { odd, TTV_SCALAR_UINT (1), 1 },            /* not byte sized */
    { seq, TTV_SCALAR_UINT (300), 1 },          /* count does not fit its prefix */
    { seq, TTV_SCALAR_UINT (G_MAXUINT64), 1 },  /* hostile count: too few values */
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;
      g_assert_false (ttv_encode (buf, cases[i].t, &cases[i].v, cases[i].n, NULL, &error));
      g_assert_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT);
    }
  g_autoptr (GError) error = NULL;
  TtvScalar ok[] = { TTV_SCALAR_INT (-128) };
  g_assert_true (ttv_encode (buf, s8, ok, 1, NULL, &error));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_data_func ("/ltt/encoder/round-trip/little", GINT_TO_POINTER (TTV_BYTE_ORDER_LITTLE),
                        test_round_trip);
  g_test_add_data_func ("/ltt/encoder/round-trip/big", GINT_TO_POINTER (TTV_BYTE_ORDER_BIG),
                        test_round_trip);
  g_test_add_func ("/ltt/encoder/refuses", test_refuses);
  return g_test_run ();
}
