/* test-type.c: building type trees, fixed sizes and signatures, enum
 * labels. */
#include "ttv-type.h"
#include "ttv-decoder.h"

#include <string.h>

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

/* The labels of @raw by testing every mapping: each label that applies
 * once, in the order of first declaration, joined by '|' ("?" for none),
 * and the first that applies (NULL for none).  (The labels of enums not
 * in order are L0 to L5 here: none is in another.) */
static char *
labels_by_scan (const TtvType *e, guint64 raw, const char **first)
{
  GString *s = g_string_new (NULL);
  *first = NULL;
  for (guint i = 0; i < e->mappings->len; i++)
    {
      const TtvEnumMapping *m = &g_array_index (e->mappings, TtvEnumMapping, i);
      if (!ttv_type_mapping_matches (e, m, raw))
        continue;
      if (*first == NULL)
        *first = m->label;
      gboolean seen = FALSE;
      for (guint j = 0; j < i && !seen; j++)
        {
          const TtvEnumMapping *o = &g_array_index (e->mappings, TtvEnumMapping, j);
          seen = ttv_type_mapping_matches (e, o, raw) && strcmp (o->label, m->label) == 0;
        }
      if (!seen)
        g_string_append_printf (s, "%s%s", s->len ? "|" : "", m->label);
    }
  if (s->len == 0)
    g_string_append_c (s, '?');
  return g_string_free (s, FALSE);
}

/* Enums of ascending mappings (found by bisection) and of others (every
 * mapping tested): the same labels as a test of every mapping, for values
 * around each mapping's ends, signed and unsigned, with single values,
 * ranges, gaps, overlaps and repeated labels; and as the decoder prints
 * them ("LABELS (value)"). */
static void
test_enum_bisection (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (15);
  g_autoptr (TtvDecoder) d = ttv_decoder_new ();
  guint ascending = 0, other = 0;
  for (guint round = 0; round < 400; round++)
    {
      gboolean is_signed = round % 2;
      TtvType *e = ttv_type_new_enum (ttv_type_new_integer (64, is_signed, TTV_BYTE_ORDER_LITTLE, 8));
      gboolean sorted = round % 4 < 2;
      guint n = g_rand_int_range (rand, 0, 40);
      gint64 at = is_signed ? -200 : 0;
      for (guint i = 0; i < n; i++)
        {
          gint64 start = sorted ? at + g_rand_int_range (rand, 1, 4) : g_rand_int_range (rand, -20, 120);
          gint64 end = start + g_rand_int_range (rand, 0, 3);
          if (!is_signed && start < 0)
            start = -start, end = start + 1;
          g_autofree char *label = g_strdup_printf ("L%u", g_rand_int_range (rand, 0, sorted ? 1000 : 6));
          ttv_type_add_mapping (e, label, (guint64) start, (guint64) end);
          at = end;
        }
      g_autoptr (TtvType) s = ttv_type_new_struct ();
      ttv_type_add_field (s, "e", e, NULL);
      ttv_type_finish (s);
      if (e->mappings_ascending)
        ascending++;
      else
        other++;
      for (gint64 v = (is_signed ? -210 : 0); v < at + 5; v++)
        {
          const char *first;
          g_autofree char *want = labels_by_scan (e, (guint64) v, &first);
          /* One label that applies (the first with ascending mappings,
           * where only one can). */
          const char *label = ttv_type_enum_label (e, (guint64) v);
          g_assert_true ((label == NULL) == (first == NULL));
          if (e->mappings_ascending)
            g_assert_cmpstr (label, ==, first);
          else if (label)
            g_assert_nonnull (strstr (want, label));
          guint8 bytes[8];
          guint64 le = GUINT64_TO_LE ((guint64) v);
          memcpy (bytes, &le, 8);
          guint64 pos = 0;
          ttv_decoder_reset (d);
          gint32 root = ttv_decoder_decode (d, s, NULL, bytes, 64, &pos, NULL);
          g_assert_cmpint (root, >=, 0);
          g_autoptr (GString) got = g_string_new (NULL);
          ttv_decoder_append_value (d, (guint32) root, TTV_VALUE_STYLE_PLAIN, got);
          g_autofree char *expect = g_strdup_printf ("e = %s (%" G_GINT64_FORMAT ")", want, v);
          if (!is_signed)
            {
              g_free (expect);
              expect = g_strdup_printf ("e = %s (%" G_GUINT64_FORMAT ")", want, (guint64) v);
            }
          g_assert_cmpstr (got->str, ==, expect);
        }
    }
  /* Both ways were taken. */
  g_assert_cmpuint (ascending, >, 100);
  g_assert_cmpuint (other, >, 100);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/type/fixed-size", test_fixed_size);
  g_test_add_func ("/core/type/enum", test_enum);
  g_test_add_func ("/core/type/enum-bisection", test_enum_bisection);
  return g_test_run ();
}
