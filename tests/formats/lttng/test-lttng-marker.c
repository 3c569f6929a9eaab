/* test-lttng-marker.c: LTTng 0.x marker format strings to field types, for each
 * arch_size and alignment, the writer's inverse, and formats that do not parse. */
#include "ttv-lttng-private.h"

#include <string.h>

static TtvLttngLayout
layout (guint arch, guint align)
{
  TtvLttngLayout l = { .byte_order = TTV_BYTE_ORDER_BIG, .arch_size = arch, .alignment = align };
  return l;
}

static void
check_field (const TtvType *st, guint i, const char *name, TtvTypeKind kind, guint bits,
             gboolean is_signed, guint align_bits)
{
  const TtvField *f = g_ptr_array_index (st->fields, i);
  g_assert_cmpstr (f->name, ==, name);
  g_assert_cmpint (f->type->kind, ==, kind);
  if (kind == TTV_TYPE_INTEGER)
    {
      g_assert_cmpuint (f->type->size_bits, ==, bits);
      g_assert_cmpint (f->type->is_signed, ==, is_signed);
      g_assert_cmpint (f->type->byte_order, ==, TTV_BYTE_ORDER_BIG);
    }
  g_assert_cmpuint (f->type->align_bits, ==, align_bits);
}

static void
test_conversions (void)
{
  const char *fmt = "a %hhd b %hd c %ld d %lu e %lld f %llu g %zu h %p i %c j %x k %u s %s";
  g_autoptr (GError) error = NULL;
  /* 32-bit arch, aligned on 4 */
  TtvLttngLayout l = layout (4, 4);
  g_autoptr (TtvType) t = ttv_lttng_marker_parse (fmt, &l, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (t->fields->len, ==, 12);
  check_field (t, 0, "a", TTV_TYPE_INTEGER, 8, TRUE, 8);
  check_field (t, 1, "b", TTV_TYPE_INTEGER, 16, TRUE, 16);
  check_field (t, 2, "c", TTV_TYPE_INTEGER, 32, TRUE, 32);
  check_field (t, 3, "d", TTV_TYPE_INTEGER, 32, FALSE, 32);
  check_field (t, 4, "e", TTV_TYPE_INTEGER, 64, TRUE, 32);   /* capped at alignment */
  check_field (t, 5, "f", TTV_TYPE_INTEGER, 64, FALSE, 32);
  check_field (t, 6, "g", TTV_TYPE_INTEGER, 32, FALSE, 32);
  check_field (t, 7, "h", TTV_TYPE_INTEGER, 32, FALSE, 32);
  check_field (t, 8, "i", TTV_TYPE_INTEGER, 8, TRUE, 8);
  check_field (t, 9, "j", TTV_TYPE_INTEGER, 32, FALSE, 32);
  check_field (t, 10, "k", TTV_TYPE_INTEGER, 32, FALSE, 32);
  check_field (t, 11, "s", TTV_TYPE_STRING, 0, FALSE, 8);
  g_assert_cmpint (((TtvField *) g_ptr_array_index (t->fields, 7))->type->native_size, ==,
                   TTV_NATIVE_POINTER);
  g_assert_cmpuint (((TtvField *) g_ptr_array_index (t->fields, 7))->type->base, ==, 16);

  /* 64-bit arch, aligned on 8 */
  l = layout (8, 8);
  g_autoptr (TtvType) t8 = ttv_lttng_marker_parse (fmt, &l, &error);
  g_assert_no_error (error);
  check_field (t8, 2, "c", TTV_TYPE_INTEGER, 64, TRUE, 64);
  check_field (t8, 4, "e", TTV_TYPE_INTEGER, 64, TRUE, 64);
  check_field (t8, 6, "g", TTV_TYPE_INTEGER, 64, FALSE, 64);
  check_field (t8, 7, "h", TTV_TYPE_INTEGER, 64, FALSE, 64);
  g_assert_cmpuint (t8->align_bits, ==, 64);

  /* packed: nothing aligned */
  l = layout (8, 0);
  g_autoptr (TtvType) tp = ttv_lttng_marker_parse (fmt, &l, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < tp->fields->len; i++)
    g_assert_cmpuint (((TtvField *) g_ptr_array_index (tp->fields, i))->type->align_bits, ==, 8);
  check_field (tp, 7, "h", TTV_TYPE_INTEGER, 64, FALSE, 8);
}

static void
test_lenient (void)
{
  TtvLttngLayout l = layout (8, 8);
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvType) t = ttv_lttng_marker_parse ("  x=%d y: %-08.3u %% %s  ", &l, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (t->fields->len, ==, 3);
  check_field (t, 0, "x", TTV_TYPE_INTEGER, 32, TRUE, 32);
  check_field (t, 1, "y", TTV_TYPE_INTEGER, 32, FALSE, 32);
  check_field (t, 2, "arg2", TTV_TYPE_STRING, 0, FALSE, 8);
  g_autoptr (TtvType) empty = ttv_lttng_marker_parse ("", &l, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (empty->fields->len, ==, 0);
}

static void
test_bad (void)
{
  static const char *bad[] = {
    "pid %q", "pid %", "pid %d name", "pid %d pid %u", "w %*d", "p %.*s", "x %ls", "x %lp",
    "x %hc", "x %f", "(pid) %d", "pid %d, name %s", "x %hhh",
  };
  TtvLttngLayout l = layout (8, 8);
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (TtvType) t = ttv_lttng_marker_parse (bad[i], &l, &error);
      g_test_message ("%s: %s", bad[i], error ? error->message : "(parsed)");
      g_assert_null (t);
      g_assert_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_SYNTAX);
      g_assert_nonnull (strstr (error->message, bad[i]));
      g_assert_nonnull (strstr (error->message, "column"));
    }
}

static void
test_from_type (void)
{
  g_autoptr (TtvType) st = ttv_type_new_struct ();
  ttv_type_add_field (st, "a", ttv_type_new_integer (8, FALSE, TTV_BYTE_ORDER_LITTLE, 8), NULL);
  ttv_type_add_field (st, "b", ttv_type_new_integer (16, TRUE, TTV_BYTE_ORDER_LITTLE, 16), NULL);
  TtvType *hex = ttv_type_new_integer (32, FALSE, TTV_BYTE_ORDER_LITTLE, 32);
  hex->base = 16;
  ttv_type_add_field (st, "c", hex, NULL);
  TtvType *lng = ttv_type_new_integer (64, TRUE, TTV_BYTE_ORDER_LITTLE, 64);
  lng->native_size = TTV_NATIVE_LONG;
  ttv_type_add_field (st, "d", lng, NULL);
  TtvType *ptr = ttv_type_new_integer (64, FALSE, TTV_BYTE_ORDER_LITTLE, 64);
  ptr->native_size = TTV_NATIVE_POINTER;
  ttv_type_add_field (st, "e", ptr, NULL);
  TtvType *en = ttv_type_new_enum (ttv_type_new_integer (32, FALSE, TTV_BYTE_ORDER_LITTLE, 32));
  ttv_type_add_mapping (en, "RUNNING", 0, 0);
  ttv_type_add_field (st, "f", en, NULL);
  ttv_type_add_field (st, "g", ttv_type_new_integer (64, FALSE, TTV_BYTE_ORDER_LITTLE, 64), NULL);
  ttv_type_add_field (st, "name", ttv_type_new_string (), NULL);
  g_autoptr (GError) error = NULL;
  g_autofree char *fmt = ttv_lttng_marker_format_from_type (st, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (fmt, ==, "a %hhu b %hd c %x d %ld e %p f %u g %llu name %s");

  g_autoptr (TtvType) bad = ttv_type_new_struct ();
  ttv_type_add_field (bad, "x", ttv_type_new_float (64, TTV_BYTE_ORDER_LITTLE, 64), NULL);
  g_autofree char *none = ttv_lttng_marker_format_from_type (bad, &error);
  g_assert_null (none);
  g_assert_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT);
  g_clear_error (&error);
  g_autoptr (TtvType) badname = ttv_type_new_struct ();
  ttv_type_add_field (badname, "a b", ttv_type_new_string (), NULL);
  g_autofree char *none2 = ttv_lttng_marker_format_from_type (badname, &error);
  g_assert_null (none2);
  g_assert_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/lttng/marker/conversions", test_conversions);
  g_test_add_func ("/lttng/marker/lenient", test_lenient);
  g_test_add_func ("/lttng/marker/bad", test_bad);
  g_test_add_func ("/lttng/marker/from-type", test_from_type);
  return g_test_run ();
}
