/* ttv-field-accessor.c: fast access to named payload fields (see the header).
 * The fixed-offset path reads bits directly; everything else decodes. */
#include "ttv-field-accessor.h"

#include <string.h>

/* char name[16] in CTF and LTTng: an array of bytes holding NUL-padded text. */
static gboolean
is_char_array (const TtvType *t)
{
  return t->kind == TTV_TYPE_ARRAY && t->element->kind == TTV_TYPE_INTEGER
         && t->element->size_bits == 8 && t->element->align_bits % 8 == 0;
}

/* The inline path of ttv_field_accessor_get_int(): an integer (or enum)
 * of whole bytes at a fixed offset in bytes, in either byte order. */
static void
init_fast_load (TtvFieldAccessor *acc)
{
  const TtvType *t = acc->type;
  if (acc->fixed_offset_bits < 0 || acc->fixed_offset_bits % 8 != 0
      || acc->fixed_offset_bits / 8 > G_MAXUINT32)
    return;
  /* What the general path reads: the type's own size, sign and order. */
  if ((t->kind != TTV_TYPE_INTEGER && t->kind != TTV_TYPE_ENUM) || t->leb128 || t->reverse_bits)
    return;
  TtvFlatLoad kind;
  if (!ttv_flat_load_of_integer (t->size_bits, t->is_signed, t->byte_order, &kind))
    return;
  acc->load_bytes = (guint8) (t->size_bits / 8);
  acc->load.byte = (guint32) (acc->fixed_offset_bits / 8);
  acc->load.load = kind;
}

void
ttv_field_accessor_init (TtvFieldAccessor *acc, const TtvEventType *et, const char *name)
{
  memset (acc, 0, sizeof *acc);
  acc->fixed_offset_bits = -1;
  acc->field_index = -1;
  const TtvType *s = et->fields;
  gint idx = ttv_type_find_field (s, name);
  if (idx < 0)
    return;
  acc->is_field = TRUE;
  acc->field_index = idx;
  acc->type = ((const TtvField *) g_ptr_array_index (s->fields, idx))->type;

  gint64 off = ttv_field_fixed_offset (s, idx);
  gboolean scalar = acc->type->kind == TTV_TYPE_INTEGER || acc->type->kind == TTV_TYPE_ENUM
                    || acc->type->kind == TTV_TYPE_STRING || is_char_array (acc->type);
  if (scalar && off >= 0)
    acc->fixed_offset_bits = off;
  init_fast_load (acc);
}

gint64
ttv_field_fixed_offset (const TtvType *s, gint idx)
{
  /* Members before it must all have a fixed size for a fixed offset; the
   * offsets are relative to the payload start aligned to the struct. */
  guint64 off = 0;
  for (gint i = 0; i <= idx; i++)
    {
      const TtvType *ft = ((const TtvField *) g_ptr_array_index (s->fields, i))->type;
      off = ttv_align_up (off, ft->align_bits);
      if (i == idx)
        break;
      if (ft->fixed_size_bits < 0)
        return -1;
      off += (guint64) ft->fixed_size_bits;
    }
  return (gint64) off;
}

gboolean
ttv_field_accessor_is_valid (const TtvFieldAccessor *acc)
{
  return acc->is_field;
}

static const TtvValue *
decode_member (const TtvFieldAccessor *acc, const TtvEvent *ev, TtvDecoder *scratch)
{
  ttv_decoder_reset (scratch);
  gint32 root = ttv_event_decode_fields (ev, scratch, NULL);
  if (root < 0)
    return NULL;
  const TtvValue *r = ttv_decoder_get (scratch, (guint32) root);
  if ((guint32) acc->field_index >= r->n_children)
    return NULL;
  return ttv_decoder_get (scratch, r->first_child + (guint32) acc->field_index);
}

gboolean
ttv_field_accessor_get_int_slow (const TtvFieldAccessor *acc, const TtvEvent *ev,
                                 TtvDecoder *scratch, gint64 *out)
{
  if (!acc->is_field)
    return FALSE;
  const TtvType *t = acc->type;
  if (acc->fixed_offset_bits >= 0 && t->kind != TTV_TYPE_STRING)
    {
      guint64 base = ttv_align_up (ev->payload_bit, ev->type->fields->align_bits);
      guint64 pos = base + (guint64) acc->fixed_offset_bits;
      if (pos > ev->data_bits || ev->data_bits - pos < t->size_bits)
        return FALSE;
      guint64 raw = ttv_read_bits (ev->data, pos, t->size_bits, t->byte_order);
      if (t->is_signed && t->size_bits < 64 && (raw >> (t->size_bits - 1)) & 1)
        raw |= ~(guint64) 0 << t->size_bits;
      *out = (gint64) raw;
      return TRUE;
    }
  const TtvValue *v = decode_member (acc, ev, scratch);
  return v && ttv_value_get_int (v, out);
}

const char *
ttv_field_accessor_get_string (const TtvFieldAccessor *acc, const TtvEvent *ev,
                               TtvDecoder *scratch, gsize *len)
{
  if (!acc->is_field)
    return NULL;
  const TtvType *t = acc->type;
  if (t->kind == TTV_TYPE_STRING && acc->fixed_offset_bits >= 0)
    {
      guint64 base = ttv_align_up (ev->payload_bit, ev->type->fields->align_bits);
      guint64 pos = ttv_align_up (base + (guint64) acc->fixed_offset_bits, 8);
      if (pos >= ev->data_bits)
        return NULL;
      const char *s = (const char *) ev->data + pos / 8;
      const char *nul = memchr (s, '\0', (ev->data_bits - pos) / 8);
      if (nul == NULL)
        return NULL;
      if (len)
        *len = (gsize) (nul - s);
      return s;
    }
  if (is_char_array (t) && acc->fixed_offset_bits >= 0)
    {
      guint64 base = ttv_align_up (ev->payload_bit, ev->type->fields->align_bits);
      guint64 pos = ttv_align_up (base + (guint64) acc->fixed_offset_bits, t->align_bits);
      if (pos > ev->data_bits || (ev->data_bits - pos) / 8 < t->length)
        return NULL;
      const char *s = (const char *) ev->data + pos / 8;
      if (len)
        *len = strnlen (s, t->length);
      return s;
    }
  if (t->kind == TTV_TYPE_ENUM)
    {
      gint64 raw;
      if (!ttv_field_accessor_get_int (acc, ev, scratch, &raw))
        return NULL;
      const char *label = ttv_type_enum_label (t, (guint64) raw);
      if (label && len)
        *len = strlen (label);
      return label;
    }
  const TtvValue *v = decode_member (acc, ev, scratch);
  if (v == NULL || v->type->kind != TTV_TYPE_STRING)
    return NULL;
  if (len)
    *len = v->v.string.len;
  return v->v.string.str;
}
