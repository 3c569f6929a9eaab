/* test-field-accessor.c: the named-field reader the kernel model, the
 * filters and the statistics use.  Its inline path (whole bytes at a
 * fixed offset, in either byte order) must give what the general path
 * gives, for every size, sign and byte order, at any payload start, and
 * on events too short. */
#include "ttv-field-accessor.h"

#include <string.h>

static TtvType *
int_type (guint bits, gboolean is_signed, TtvByteOrder order, guint align)
{
  return ttv_type_new_integer (bits, is_signed, order, align);
}

typedef struct {
  const char *name;
  guint bits;
  gboolean is_signed;
  TtvByteOrder order;
  guint align;
  gboolean is_enum;    /* an enum of that integer, labelling -1 */
} IntField;

/* An event type @name whose fields are the integers @fields. */
static TtvEventType *
event_type_new (const char *name, const IntField *fields, guint n_fields)
{
  TtvEventType *et = g_new0 (TtvEventType, 1);
  et->name = g_strdup (name);
  et->full_name = g_strdup (name);
  et->fields = ttv_type_new_struct ();
  for (guint i = 0; i < n_fields; i++)
    {
      const IntField *f = &fields[i];
      TtvType *t = int_type (f->bits, f->is_signed, f->order, f->align);
      if (f->is_enum)
        {
          t = ttv_type_new_enum (t);
          ttv_type_add_mapping (t, "MINUS_ONE", (guint64) -1, (guint64) -1);
        }
      ttv_type_add_field (et->fields, f->name, t, NULL);
    }
  ttv_type_finish (et->fields);
  return et;
}

#define LE TTV_BYTE_ORDER_LITTLE
#define BE TTV_BYTE_ORDER_BIG

/* Every size and sign in both byte orders, enums, one bit field, a 64-bit
 * aligned member (so that the payload start is aligned up). */
static const IntField everything[] = {
  { "a", 8, FALSE, LE, 8, FALSE },  { "b", 8, TRUE, LE, 8, FALSE },   { "c", 16, TRUE, LE, 8, FALSE },
  { "d", 32, FALSE, BE, 8, FALSE }, { "e", 32, TRUE, LE, 8, FALSE },  { "f", 64, TRUE, LE, 64, FALSE },
  { "g", 64, FALSE, LE, 8, FALSE }, { "h", 16, TRUE, LE, 8, TRUE },   { "i", 5, TRUE, LE, 1, FALSE },
  { "j", 16, FALSE, LE, 8, FALSE }, { "k", 16, TRUE, BE, 8, FALSE },  { "l", 64, TRUE, BE, 8, FALSE },
  { "m", 32, TRUE, BE, 8, TRUE },   { "n", 8, TRUE, BE, 8, FALSE },   { "o", 16, FALSE, BE, 8, FALSE },
  { "p", 64, FALSE, BE, 8, FALSE },
};

/* A bit-packed struct: its start, hence its members, need not be on a byte. */
static const IntField packed[] = {
  { "x", 16, TRUE, LE, 1, FALSE },
  { "y", 32, FALSE, LE, 1, FALSE },
};

static void
event_type_free (TtvEventType *et)
{
  ttv_type_unref (et->fields);
  g_free (et->name);
  g_free (et->full_name);
  g_free (et);
}

static void
test_known_values (void)
{
  TtvEventType *et = event_type_new ("everything", everything, G_N_ELEMENTS (everything));
  TtvDecoder *scratch = ttv_decoder_new ();
  guint8 data[64];
  memset (data, 0xff, sizeof data);
  TtvEvent ev = { 0 };
  ev.type = et;
  ev.data = data;
  ev.data_bits = sizeof data * 8;
  /* All ones: -1 when signed, the largest value when not. */
  static const gint64 want[] = { 255, -1, -1, 0xffffffff, -1, -1, -1, -1, -1, 0xffff, -1, -1, -1, -1, 0xffff, -1 };
  g_assert_cmpuint (G_N_ELEMENTS (want), ==, G_N_ELEMENTS (everything));
  for (guint i = 0; i < G_N_ELEMENTS (everything); i++)
    {
      TtvFieldAccessor acc;
      ttv_field_accessor_init (&acc, et, everything[i].name);
      gint64 v = 0;
      g_assert_true (ttv_field_accessor_get_int (&acc, &ev, scratch, &v));
      g_assert_cmpint (v, ==, want[i]);
      /* Every whole-byte integer takes the inline path; the bit field not. */
      g_assert_cmpint (acc.load_bytes != 0, ==, everything[i].bits % 8 == 0);
    }
  /* 0x80 0x00: c = 128 (little-endian), b's sign bit alone: -128. */
  memset (data, 0, sizeof data);
  data[1] = 0x80;
  data[2] = 0x80;
  TtvFieldAccessor b, c;
  ttv_field_accessor_init (&b, et, "b");
  ttv_field_accessor_init (&c, et, "c");
  gint64 v = 0;
  g_assert_true (ttv_field_accessor_get_int (&b, &ev, scratch, &v));
  g_assert_cmpint (v, ==, -128);
  g_assert_true (ttv_field_accessor_get_int (&c, &ev, scratch, &v));
  g_assert_cmpint (v, ==, 128);
  /* Big-endian: the same two bytes at k's place are 0x8080 (negative). */
  TtvFieldAccessor k;
  ttv_field_accessor_init (&k, et, "k");
  guint k_byte = k.load.byte;
  data[k_byte] = 0x80;
  data[k_byte + 1] = 0x01;
  g_assert_true (ttv_field_accessor_get_int (&k, &ev, scratch, &v));
  g_assert_cmpint (v, ==, -32767);
  ttv_decoder_free (scratch);
  event_type_free (et);
}

/* Every field, every payload start (byte or not), every length of the
 * event around the field's end: the inline path against the general one. */
static void
check_against_general_path (TtvEventType *et, const IntField *fields, guint n_fields)
{
  TtvDecoder *scratch = ttv_decoder_new ();
  GRand *rand = g_rand_new_with_seed (15);
  guint8 data[96];
  guint n_checked = 0, n_true = 0;
  for (guint round = 0; round < 50; round++)
    {
      for (guint k = 0; k < sizeof data; k++)
        data[k] = (guint8) g_rand_int (rand);
      for (guint64 payload = 0; payload < 80; payload += 1 + round % 7)
        for (guint i = 0; i < n_fields; i++)
          {
            TtvFieldAccessor acc;
            ttv_field_accessor_init (&acc, et, fields[i].name);
            g_assert_true (ttv_field_accessor_is_valid (&acc));
            for (guint64 bits = payload; bits <= payload + 300 && bits <= sizeof data * 8; bits += 1 + bits % 5)
              {
                TtvEvent ev = { 0 };
                ev.type = et;
                ev.data = data;
                ev.data_bits = bits;
                ev.payload_bit = payload;
                gint64 fast = 42, general = 42;
                gboolean got = ttv_field_accessor_get_int (&acc, &ev, scratch, &fast);
                gboolean want = ttv_field_accessor_get_int_slow (&acc, &ev, scratch, &general);
                g_assert_cmpint (got, ==, want);
                if (want)
                  g_assert_cmpint (fast, ==, general);
                n_checked++;
                n_true += want;
              }
          }
    }
  /* Both outcomes were seen many times. */
  g_assert_cmpuint (n_true, >, n_checked / 8);
  g_assert_cmpuint (n_true, <, n_checked);
  g_rand_free (rand);
  ttv_decoder_free (scratch);
}

static void
test_same_as_general_path (void)
{
  TtvEventType *et = event_type_new ("everything", everything, G_N_ELEMENTS (everything));
  check_against_general_path (et, everything, G_N_ELEMENTS (everything));
  event_type_free (et);
}

static void
test_packed_struct (void)
{
  TtvEventType *et = event_type_new ("packed", packed, G_N_ELEMENTS (packed));
  check_against_general_path (et, packed, G_N_ELEMENTS (packed));
  /* At bit 3: x is bits 3..18, read whatever the byte boundaries. */
  guint8 data[8] = { 0xf8, 0xff, 0x07, 0, 0, 0, 0, 0 };
  TtvEvent ev = { 0 };
  ev.type = et;
  ev.data = data;
  ev.data_bits = 64;
  ev.payload_bit = 3;
  TtvFieldAccessor acc;
  ttv_field_accessor_init (&acc, et, "x");
  TtvDecoder *scratch = ttv_decoder_new ();
  gint64 v = 0;
  g_assert_true (ttv_field_accessor_get_int (&acc, &ev, scratch, &v));
  g_assert_cmpint (v, ==, -1);
  ttv_decoder_free (scratch);
  event_type_free (et);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/field-accessor/known-values", test_known_values);
  g_test_add_func ("/core/field-accessor/same-as-general-path", test_same_as_general_path);
  g_test_add_func ("/core/field-accessor/packed-struct", test_packed_struct);
  return g_test_run ();
}
