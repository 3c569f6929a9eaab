/* test-type.c: building type trees, fixed sizes and signatures. */
#include "ttv-type.h"

static void
test_fixed_size (void)
{
  g_autoptr (TtvType) s = ttv_type_new_struct ();
  ttv_type_add_field (s, "a", ttv_type_new_integer (8, FALSE, TTV_BYTE_ORDER_LITTLE, 8), NULL);
  ttv_type_add_field (s, "b", ttv_type_new_integer (32, TRUE, TTV_BYTE_ORDER_LITTLE, 32), NULL);
  ttv_type_add_field (s, "c", ttv_type_new_array (ttv_type_new_integer (16, FALSE, TTV_BYTE_ORDER_BIG, 16), 3), NULL);
  ttv_type_finish (s);
  /* a at 0, pad to 32, b 32 bits, c 48 bits */
  g_assert_cmpint (s->fixed_size_bits, ==, 32 + 32 + 48);
  g_assert_cmpuint (s->align_bits, ==, 32);
  g_autofree char *sig = ttv_type_dup_signature (s);
  g_assert_cmpstr (sig, ==, "struct { uint8 a; int32 b; uint16[3] c; }");

  ttv_type_add_field (s, "d", ttv_type_new_string (), NULL);
  ttv_type_finish (s);
  g_assert_cmpint (s->fixed_size_bits, ==, -1);
}

static void
test_enum (void)
{
  g_autoptr (TtvType) e = ttv_type_new_enum (ttv_type_new_integer (8, TRUE, TTV_BYTE_ORDER_LITTLE, 8));
  ttv_type_add_mapping (e, "NEG", (guint64) -5, (guint64) -1);
  ttv_type_add_mapping (e, "ZERO", 0, 0);
  g_assert_cmpstr (ttv_type_enum_label (e, (guint64) -3), ==, "NEG");
  g_assert_cmpstr (ttv_type_enum_label (e, 0), ==, "ZERO");
  g_assert_null (ttv_type_enum_label (e, 7));
  g_autoptr (TtvType) copy = ttv_type_copy (e);
  g_assert_cmpstr (ttv_type_enum_label (copy, 0), ==, "ZERO");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/type/fixed-size", test_fixed_size);
  g_test_add_func ("/core/type/enum", test_enum);
  return g_test_run ();
}
