/* ttv-type.c: building and inspecting the common field type tree.
 * Readers build it while parsing their descriptions; the decoder walks it. */
#include "ttv-type.h"
#include "ttv-decode-plan.h"

static TtvType *
type_new (TtvTypeKind kind)
{
  TtvType *t = g_new0 (TtvType, 1);
  t->kind = kind;
  t->ref_count = 1;
  t->align_bits = 8;
  t->base = 10;
  t->fixed_size_bits = -1;
  return t;
}

TtvType *
ttv_type_new_integer (guint size_bits, gboolean is_signed, TtvByteOrder order, guint align_bits)
{
  g_return_val_if_fail (size_bits >= 1 && size_bits <= 64, NULL);
  TtvType *t = type_new (TTV_TYPE_INTEGER);
  t->size_bits = size_bits;
  t->is_signed = is_signed;
  t->byte_order = order;
  t->align_bits = align_bits ? align_bits : 1;
  return t;
}

TtvType *
ttv_type_new_float (guint size_bits, TtvByteOrder order, guint align_bits)
{
  g_return_val_if_fail (size_bits == 16 || size_bits == 32 || size_bits == 64, NULL);
  TtvType *t = type_new (TTV_TYPE_FLOAT);
  t->size_bits = size_bits;
  t->byte_order = order;
  t->align_bits = align_bits ? align_bits : 1;
  t->mant_dig = size_bits == 16 ? 11 : size_bits == 32 ? 24 : 53;
  t->exp_dig = size_bits == 16 ? 5 : size_bits == 32 ? 8 : 11;
  return t;
}

TtvType *
ttv_type_new_string (void)
{
  return type_new (TTV_TYPE_STRING);
}

TtvType *
ttv_type_new_enum (TtvType *container)
{
  g_return_val_if_fail (container != NULL && container->kind == TTV_TYPE_INTEGER, NULL);
  TtvType *t = type_new (TTV_TYPE_ENUM);
  t->container = container;
  t->size_bits = container->size_bits;
  t->is_signed = container->is_signed;
  t->byte_order = container->byte_order;
  t->align_bits = container->align_bits;
  t->mappings = g_array_new (FALSE, FALSE, sizeof (TtvEnumMapping));
  t->mappings_ascending = TRUE;
  return t;
}

TtvType *
ttv_type_new_array (TtvType *element, guint64 length)
{
  g_return_val_if_fail (element != NULL, NULL);
  TtvType *t = type_new (TTV_TYPE_ARRAY);
  t->element = element;
  t->length = length;
  t->align_bits = element->align_bits;
  return t;
}

TtvType *
ttv_type_new_sequence_prefixed (TtvType *element, TtvType *length_prefix)
{
  g_return_val_if_fail (element != NULL && length_prefix != NULL, NULL);
  TtvType *t = type_new (TTV_TYPE_SEQUENCE);
  t->element = element;
  t->prefix = length_prefix;
  t->align_bits = length_prefix->align_bits;
  return t;
}

TtvType *
ttv_type_new_sequence_ref (TtvType *element, const char *length_ref)
{
  g_return_val_if_fail (element != NULL && length_ref != NULL, NULL);
  TtvType *t = type_new (TTV_TYPE_SEQUENCE);
  t->element = element;
  t->ref = g_strdup (length_ref);
  t->align_bits = element->align_bits;
  return t;
}

TtvType *
ttv_type_new_struct (void)
{
  TtvType *t = type_new (TTV_TYPE_STRUCT);
  t->align_bits = 1;
  t->fields = g_ptr_array_new ();
  return t;
}

TtvType *
ttv_type_new_variant_prefixed (TtvType *tag_prefix)
{
  g_return_val_if_fail (tag_prefix != NULL, NULL);
  TtvType *t = type_new (TTV_TYPE_VARIANT);
  t->prefix = tag_prefix;
  t->align_bits = tag_prefix->align_bits;
  t->fields = g_ptr_array_new ();
  return t;
}

TtvType *
ttv_type_new_variant_ref (const char *tag_ref)
{
  g_return_val_if_fail (tag_ref != NULL, NULL);
  TtvType *t = type_new (TTV_TYPE_VARIANT);
  t->ref = g_strdup (tag_ref);
  t->align_bits = 1;
  t->fields = g_ptr_array_new ();
  return t;
}

TtvType *
ttv_type_new_variant_ranges (const char *selector_ref)
{
  TtvType *t = ttv_type_new_variant_ref (selector_ref);
  t->option_ranges = g_array_new (FALSE, FALSE, sizeof (TtvOptionRange));
  return t;
}

TtvType *
ttv_type_new_optional (TtvType *type, const char *selector_ref)
{
  g_return_val_if_fail (type != NULL, NULL);
  TtvType *t = ttv_type_new_variant_ranges (selector_ref);
  t->optional = TRUE;
  ttv_type_add_field (t, NULL, type, NULL);
  return t;
}

void
ttv_type_add_option_range (TtvType *variant, guint option, guint64 start, guint64 end)
{
  g_return_if_fail (variant != NULL && variant->option_ranges != NULL);
  TtvOptionRange r = { option, start, end };
  g_array_append_val (variant->option_ranges, r);
}

/* @a <= @b, the bits read as gint64 when @is_signed. */
static gboolean
value_le (gboolean is_signed, guint64 a, guint64 b)
{
  return is_signed ? (gint64) a <= (gint64) b : a <= b;
}

static gboolean
in_range (gboolean is_signed, guint64 v, guint64 start, guint64 end)
{
  return value_le (is_signed, start, v) && value_le (is_signed, v, end);
}

gint
ttv_type_select_option (const TtvType *t, guint64 selector, gboolean selector_signed)
{
  g_return_val_if_fail (t != NULL && t->kind == TTV_TYPE_VARIANT && t->option_ranges, -1);
  for (guint i = 0; i < t->option_ranges->len; i++)
    {
      const TtvOptionRange *r = &g_array_index (t->option_ranges, TtvOptionRange, i);
      if (in_range (selector_signed, selector, r->start, r->end))
        return (gint) r->option;
    }
  return -1;
}

TtvType *
ttv_type_ref (TtvType *type)
{
  g_return_val_if_fail (type != NULL, NULL);
  g_atomic_int_inc (&type->ref_count);
  return type;
}

static void
field_free (TtvField *f)
{
  g_free (f->name);
  g_free (f->description);
  ttv_type_unref (f->type);
  g_free (f);
}

void
ttv_type_unref (TtvType *type)
{
  if (type == NULL || !g_atomic_int_dec_and_test (&type->ref_count))
    return;
  g_free (type->description);
  g_free (type->format);
  g_free (type->name);
  g_free (type->clock_name);
  g_free (type->ref);
  g_free (type->media_type);
  if (type->option_ranges)
    g_array_unref (type->option_ranges);
  if (type->container)
    ttv_type_unref (type->container);
  if (type->element)
    ttv_type_unref (type->element);
  if (type->prefix)
    ttv_type_unref (type->prefix);
  if (type->mappings)
    {
      for (guint i = 0; i < type->mappings->len; i++)
        g_free (g_array_index (type->mappings, TtvEnumMapping, i).label);
      g_array_unref (type->mappings);
    }
  if (type->fields)
    {
      for (guint i = 0; i < type->fields->len; i++)
        field_free (g_ptr_array_index (type->fields, i));
      g_ptr_array_unref (type->fields);
    }
  ttv_decode_plan_free (type->plan);
  g_free (type);
}

TtvType *
ttv_type_copy (const TtvType *src)
{
  g_return_val_if_fail (src != NULL, NULL);
  TtvType *t = g_new0 (TtvType, 1);
  *t = *src;
  t->ref_count = 1;
  t->plan = NULL;
  t->description = g_strdup (src->description);
  t->format = g_strdup (src->format);
  t->name = g_strdup (src->name);
  t->clock_name = g_strdup (src->clock_name);
  t->ref = g_strdup (src->ref);
  t->media_type = g_strdup (src->media_type);
  if (src->option_ranges)
    t->option_ranges = g_array_copy (src->option_ranges);
  /* Children are immutable once built, so sharing them is safe. */
  if (src->container)
    t->container = ttv_type_ref (src->container);
  if (src->element)
    t->element = ttv_type_ref (src->element);
  if (src->prefix)
    t->prefix = ttv_type_ref (src->prefix);
  if (src->mappings)
    {
      t->mappings = g_array_new (FALSE, FALSE, sizeof (TtvEnumMapping));
      for (guint i = 0; i < src->mappings->len; i++)
        {
          TtvEnumMapping m = g_array_index (src->mappings, TtvEnumMapping, i);
          m.label = g_strdup (m.label);
          g_array_append_val (t->mappings, m);
        }
    }
  if (src->fields)
    {
      t->fields = g_ptr_array_new ();
      for (guint i = 0; i < src->fields->len; i++)
        {
          const TtvField *f = g_ptr_array_index (src->fields, i);
          ttv_type_add_field (t, f->name, ttv_type_ref (f->type), f->description);
        }
    }
  return t;
}

void
ttv_type_add_field (TtvType *compound, const char *name, TtvType *type, const char *description)
{
  g_return_if_fail (compound != NULL && compound->fields != NULL && type != NULL);
  TtvField *f = g_new0 (TtvField, 1);
  f->name = g_strdup (name);
  f->type = type;
  f->description = g_strdup (description);
  g_ptr_array_add (compound->fields, f);
  /* A struct is aligned on its most aligned member. */
  if (compound->kind == TTV_TYPE_STRUCT && type->align_bits > compound->align_bits)
    compound->align_bits = type->align_bits;
}

void
ttv_type_add_mapping (TtvType *enum_type, const char *label, guint64 start, guint64 end)
{
  g_return_if_fail (enum_type != NULL && enum_type->kind == TTV_TYPE_ENUM);
  TtvEnumMapping m = { g_strdup (label), start, end };
  GArray *all = enum_type->mappings;
  gboolean is_signed = enum_type->is_signed;
  /* Ascending while each starts after the end of the one before. */
  if (!value_le (is_signed, start, end)
      || (all->len > 0 && value_le (is_signed, start, g_array_index (all, TtvEnumMapping, all->len - 1).end)))
    enum_type->mappings_ascending = FALSE;
  g_array_append_val (all, m);
}

gint
ttv_type_enum_find_ascending (const TtvType *t, guint64 raw)
{
  g_return_val_if_fail (t != NULL && t->kind == TTV_TYPE_ENUM, -2);
  if (!t->mappings_ascending || t->bit_flags)
    return -2;
  /* The last mapping starting at or before @raw, if it reaches it. */
  guint lo = 0, hi = t->mappings->len;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (value_le (t->is_signed, g_array_index (t->mappings, TtvEnumMapping, mid).start, raw))
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == 0)
    return -1;
  const TtvEnumMapping *m = &g_array_index (t->mappings, TtvEnumMapping, lo - 1);
  return in_range (t->is_signed, raw, m->start, m->end) ? (gint) lo - 1 : -1;
}

gboolean
ttv_type_is_text_array (const TtvType *t)
{
  const TtvType *e = t->element;
  return (t->kind == TTV_TYPE_ARRAY || t->kind == TTV_TYPE_SEQUENCE) && e->kind == TTV_TYPE_INTEGER
         && e->size_bits == 8 && e->align_bits == 8 && e->encoding == TTV_ENCODING_UTF8 && !e->leb128
         && !e->reverse_bits && e->int_kind == TTV_INT_NUMBER && t->media_type == NULL;
}

gint
ttv_type_find_field (const TtvType *compound, const char *name)
{
  if (compound == NULL || compound->fields == NULL)
    return -1;
  for (guint i = 0; i < compound->fields->len; i++)
    {
      const TtvField *f = g_ptr_array_index (compound->fields, i);
      if (g_strcmp0 (f->name, name) == 0)
        return (gint) i;
    }
  return -1;
}

const char *
ttv_type_enum_label (const TtvType *enum_type, guint64 raw)
{
  g_return_val_if_fail (enum_type != NULL && enum_type->kind == TTV_TYPE_ENUM, NULL);
  /* Most enums number their labels 0, 1, 2...: try the direct slot first. */
  if (raw < enum_type->mappings->len)
    {
      const TtvEnumMapping *m = &g_array_index (enum_type->mappings, TtvEnumMapping, raw);
      if (m->start == raw && m->end == raw)
        return m->label;
    }
  gint one = ttv_type_enum_find_ascending (enum_type, raw);
  if (one != -2)
    return one >= 0 ? g_array_index (enum_type->mappings, TtvEnumMapping, one).label : NULL;
  for (guint i = 0; i < enum_type->mappings->len; i++)
    {
      const TtvEnumMapping *m = &g_array_index (enum_type->mappings, TtvEnumMapping, i);
      if (ttv_type_mapping_matches (enum_type, m, raw))
        return m->label;
    }
  return NULL;
}

gboolean
ttv_type_mapping_matches (const TtvType *t, const TtvEnumMapping *m, guint64 raw)
{
  if (!t->bit_flags)
    return in_range (t->is_signed, raw, m->start, m->end);
  /* A bit map flag: any of bits start..end set (indexes past 63 never are). */
  if (m->start > 63 || m->end < m->start)
    return FALSE;
  guint64 last = MIN (m->end, 63);
  guint64 width = last - m->start + 1;
  guint64 mask = width >= 64 ? ~(guint64) 0 : ((G_GUINT64_CONSTANT (1) << width) - 1) << m->start;
  return (raw & mask) != 0;
}

guint32
ttv_type_collect_roles (const TtvType *t)
{
  if (t == NULL)
    return 0;
  guint32 roles = t->roles | ttv_type_collect_roles (t->container) | ttv_type_collect_roles (t->element);
  for (guint i = 0; t->fields && i < t->fields->len; i++)
    roles |= ttv_type_collect_roles (((const TtvField *) g_ptr_array_index (t->fields, i))->type);
  return roles;
}

void
ttv_type_finish (TtvType *t)
{
  g_return_if_fail (t != NULL);
  switch (t->kind)
    {
    case TTV_TYPE_INTEGER:
    case TTV_TYPE_FLOAT:
      t->fixed_size_bits = t->leb128 ? -1 : (gint64) t->size_bits;
      break;
    case TTV_TYPE_ENUM:
      ttv_type_finish (t->container);
      t->fixed_size_bits = t->container->fixed_size_bits;
      break;
    case TTV_TYPE_STRING:
      t->fixed_size_bits = t->static_length && t->length <= (guint64) G_MAXINT64 / 8
                           ? (gint64) t->length * 8 : -1;
      break;
    case TTV_TYPE_ARRAY:
      ttv_type_finish (t->element);
      /* Only when no element padding can appear between elements. */
      if (t->element->fixed_size_bits >= 0
          && t->element->fixed_size_bits % t->element->align_bits == 0
          && t->length <= (guint64) (G_MAXINT64 / (t->element->fixed_size_bits + 1)))
        t->fixed_size_bits = t->element->fixed_size_bits * (gint64) t->length;
      else
        t->fixed_size_bits = -1;
      break;
    case TTV_TYPE_SEQUENCE:
      ttv_type_finish (t->element);
      if (t->prefix)
        ttv_type_finish (t->prefix);
      t->fixed_size_bits = -1;
      break;
    case TTV_TYPE_VARIANT:
      if (t->prefix)
        ttv_type_finish (t->prefix);
      for (guint i = 0; i < t->fields->len; i++)
        ttv_type_finish (((TtvField *) g_ptr_array_index (t->fields, i))->type);
      t->fixed_size_bits = -1;
      break;
    case TTV_TYPE_STRUCT:
      {
        /* Fixed only if the layout does not depend on where the struct
         * starts: every member offset stays a multiple of its alignment when
         * the struct itself starts aligned. */
        gint64 off = 0;
        gboolean fixed = TRUE;
        for (guint i = 0; i < t->fields->len; i++)
          {
            TtvType *ft = ((TtvField *) g_ptr_array_index (t->fields, i))->type;
            ttv_type_finish (ft);
            if (ft->fixed_size_bits < 0)
              fixed = FALSE;
            if (!fixed)
              continue;
            off = (off + ft->align_bits - 1) / ft->align_bits * ft->align_bits;
            off += ft->fixed_size_bits;
          }
        t->fixed_size_bits = fixed ? off : -1;
      }
      break;
    }
}

gboolean
ttv_type_refers_to (const TtvType *t, const char *prefix)
{
  if (t == NULL)
    return FALSE;
  if (t->ref && g_str_has_prefix (t->ref, prefix))
    return TRUE;
  if (ttv_type_refers_to (t->element, prefix) || ttv_type_refers_to (t->prefix, prefix))
    return TRUE;
  for (guint i = 0; t->fields && i < t->fields->len; i++)
    if (ttv_type_refers_to (((const TtvField *) g_ptr_array_index (t->fields, i))->type, prefix))
      return TRUE;
  return FALSE;
}

void
ttv_type_resolve_native (TtvType *t, guint short_bits, guint int_bits, guint long_bits,
                         guint pointer_bits)
{
  g_return_if_fail (t != NULL);
  guint bits = 0;
  switch (t->native_size)
    {
    case TTV_NATIVE_NONE: break;
    case TTV_NATIVE_SHORT: bits = short_bits; break;
    case TTV_NATIVE_INT: bits = int_bits; break;
    case TTV_NATIVE_LONG: bits = long_bits; break;
    case TTV_NATIVE_POINTER: bits = pointer_bits; break;
    }
  if (bits && (t->kind == TTV_TYPE_INTEGER || t->kind == TTV_TYPE_ENUM))
    {
      gboolean natural = t->align_bits == t->size_bits;
      t->size_bits = bits;
      if (natural)
        t->align_bits = bits;
    }
  if (t->container)
    ttv_type_resolve_native (t->container, short_bits, int_bits, long_bits, pointer_bits);
  if (t->kind == TTV_TYPE_ENUM)
    {
      t->size_bits = t->container->size_bits;
      t->align_bits = t->container->align_bits;
    }
  if (t->element)
    ttv_type_resolve_native (t->element, short_bits, int_bits, long_bits, pointer_bits);
  if (t->prefix)
    ttv_type_resolve_native (t->prefix, short_bits, int_bits, long_bits, pointer_bits);
  if (t->fields)
    {
      guint align = 1;
      for (guint i = 0; i < t->fields->len; i++)
        {
          TtvType *ft = ((TtvField *) g_ptr_array_index (t->fields, i))->type;
          ttv_type_resolve_native (ft, short_bits, int_bits, long_bits, pointer_bits);
          align = MAX (align, ft->align_bits);
        }
      if (t->kind == TTV_TYPE_STRUCT)
        t->align_bits = align;
    }
}

const char *
ttv_type_kind_name (TtvTypeKind kind)
{
  static const char *names[] = { "integer", "float", "string", "enum", "array",
                                 "sequence", "struct", "variant" };
  return kind < G_N_ELEMENTS (names) ? names[kind] : "?";
}

static void
append_signature (GString *s, const TtvType *t)
{
  switch (t->kind)
    {
    case TTV_TYPE_INTEGER:
      if (t->int_kind == TTV_INT_BOOLEAN)
        g_string_append_printf (s, "bool%u", t->size_bits);
      else if (t->int_kind == TTV_INT_BIT_ARRAY)
        g_string_append_printf (s, "bits%u", t->size_bits);
      else if (t->leb128)
        g_string_append (s, t->is_signed ? "sleb128" : "uleb128");
      else
        g_string_append_printf (s, "%s%u", t->is_signed ? "int" : "uint", t->size_bits);
      break;
    case TTV_TYPE_FLOAT:
      g_string_append_printf (s, "float%u", t->size_bits);
      break;
    case TTV_TYPE_STRING:
      g_string_append (s, "string");
      if (t->static_length)
        g_string_append_printf (s, "[%" G_GUINT64_FORMAT "]", t->length);
      else if (t->ref)
        g_string_append_printf (s, "[%s]", t->ref);
      break;
    case TTV_TYPE_ENUM:
      g_string_append_printf (s, "%s%u {", t->bit_flags ? "flags" : "enum", t->size_bits);
      for (guint i = 0; i < t->mappings->len; i++)
        g_string_append_printf (s, "%s%s", i ? ", " : " ",
                                g_array_index (t->mappings, TtvEnumMapping, i).label);
      g_string_append (s, " }");
      break;
    case TTV_TYPE_ARRAY:
      if (t->media_type)
        g_string_append (s, "blob");
      else
        append_signature (s, t->element);
      g_string_append_printf (s, "[%" G_GUINT64_FORMAT "]", t->length);
      break;
    case TTV_TYPE_SEQUENCE:
      if (t->media_type)
        g_string_append (s, "blob");
      else
        append_signature (s, t->element);
      if (t->ref)
        g_string_append_printf (s, "[%s]", t->ref);
      else
        g_string_append_printf (s, "[uint%u]", t->prefix->size_bits);
      break;
    case TTV_TYPE_STRUCT:
    case TTV_TYPE_VARIANT:
      if (t->optional)
        {
          g_string_append (s, "optional<");
          append_signature (s, ((const TtvField *) g_ptr_array_index (t->fields, 0))->type);
          g_string_append_c (s, '>');
          break;
        }
      g_string_append (s, t->kind == TTV_TYPE_STRUCT ? "struct {" : "variant {");
      for (guint i = 0; i < t->fields->len; i++)
        {
          const TtvField *f = g_ptr_array_index (t->fields, i);
          g_string_append_c (s, ' ');
          append_signature (s, f->type);
          if (f->name)
            g_string_append_printf (s, " %s;", f->name);
          else
            g_string_append_c (s, ';');
        }
      g_string_append (s, " }");
      break;
    }
}

char *
ttv_type_dup_signature (const TtvType *type)
{
  g_return_val_if_fail (type != NULL, NULL);
  GString *s = g_string_new (NULL);
  append_signature (s, type);
  return g_string_free (s, FALSE);
}
