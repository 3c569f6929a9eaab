/* ttv-ctf-writer.c: writes CTF 1.8 as LTTng 2.x kernel traces look (see the
 * header); used by ttv-gen --format ctf through ttv-ctf-sim.c and by tests. */
#include "ttv-ctf-writer.h"
#include "ttv-ctf2-writer.h"

#include "ttv-error.h"
#include "ttv-writer-common.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define PACKET_MAGIC 0xC1FC1FC1u
#define DEFAULT_PACKET_SIZE 65536u
#define MAX_CPU_ID 65535u

typedef struct {
  char *name;
  TtvType *fields;                /* owned reference */
  guint align;                    /* bytes: alignment of the payload struct */
} EventClass;

typedef struct {
  guint cpu_id;
  char *path;
  FILE *file;
  guint8 *buf;                    /* one packet */
  gsize pos;                      /* bytes used in buf */
  guint n_in_packet;
  guint64 begin, end, prev;       /* clock values: packet begin, last event, header base */
  gboolean any;                   /* an event was written (end is valid) */
  guint64 seq_num;                /* of the next packet (CTF 2 layout) */
} Stream;

struct _TtvCtfWriter {
  char *dir;
  TtvCtfWriterOptions opt;        /* strings below are owned copies */
  char *clock_name, *channel, *hostname, *domain, *tracer_name, *sysname, *release, *version;
  gsize packet_size;
  gsize context_end;              /* bytes of packet header + context */
  GPtrArray *events;              /* of EventClass *, owned */
  GPtrArray *streams;             /* of Stream *, owned, by creation */
  Stream **by_cpu;                /* weak, indexed by cpu id, n_by_cpu slots */
  guint n_by_cpu;
  guint64 n_events, n_packets;
};

typedef enum { ENC_OK, ENC_FULL, ENC_BAD } EncResult;

typedef struct {
  guint8 *buf;
  gsize pos, cap;
  guint bit;                      /* bits of buf[pos] used by bit fields (0..7) */
  gboolean big;
  const TtvScalar *values;
  guint n_values, next;
  GError **error;
  const char *event;
} Enc;

/* --- Small helpers -------------------------------------------------------- */

static void
store (guint8 *p, guint64 v, guint bytes, gboolean big)
{
  for (guint i = 0; i < bytes; i++)
    p[big ? bytes - 1 - i : i] = (guint8) (v >> (8 * i));
}

static gboolean
valid_identifier (const char *s)
{
  if (s == NULL || !(g_ascii_isalpha (*s) || *s == '_'))
    return FALSE;
  for (; *s; s++)
    if (!(g_ascii_isalnum (*s) || *s == '_'))
      return FALSE;
  return TRUE;
}

static void
append_quoted (GString *out, const char *s)
{
  g_string_append_c (out, '"');
  for (; s && *s; s++)
    {
      if (*s == '"' || *s == '\\')
        g_string_append_c (out, '\\');
      if ((guchar) *s < 0x20)
        g_string_append_c (out, ' ');
      else
        g_string_append_c (out, *s);
    }
  g_string_append_c (out, '"');
}

/* --- Types: alignment, checks, TSDL ---------------------------------------- */

static guint
type_align (const TtvType *t)
{
  guint a = MAX (t->align_bits, 8) / 8;
  switch (t->kind)
    {
    case TTV_TYPE_ENUM:
      return MAX (a, type_align (t->container));
    case TTV_TYPE_ARRAY:
    case TTV_TYPE_SEQUENCE:
      return MAX (a, type_align (t->element));
    case TTV_TYPE_STRUCT:
      for (guint i = 0; i < t->fields->len; i++)
        a = MAX (a, type_align (((TtvField *) g_ptr_array_index (t->fields, i))->type));
      return a;
    case TTV_TYPE_VARIANT:
      return 1;   /* each option aligns itself (CTF 1.8: the selected field's alignment) */
    default:
      return a;
    }
}

/* Bit fields: integers whose size or alignment is not a whole byte, as
 * lttng-modules declares the IP and TCP header fields (4-bit version, 9-bit
 * flags...). */
static gboolean
is_bit_field (const TtvType *t)
{
  return t->size_bits % 8 != 0 || t->align_bits % 8 != 0;
}

/* A power of two, as CTF wants alignments. */
static gboolean
is_power_of_two (guint x)
{
  return x != 0 && (x & (x - 1)) == 0;
}

static gboolean
is_text_array (const TtvType *t)
{
  return t->kind == TTV_TYPE_ARRAY && t->element->kind == TTV_TYPE_INTEGER
         && t->element->size_bits == 8 && t->element->encoding == TTV_ENCODING_UTF8;
}

static gboolean check_type (const TtvType *t, const char *event, const char *field, GError **error);

/* The tag of variant @f, member @index of @parent: an enum member before
 * it, with a label for each option (how CTF 1.8 and 2 select it). */
static gboolean
check_variant_tag (const TtvType *parent, guint index, const TtvField *f, const char *event, GError **error)
{
  if (parent->kind != TTV_TYPE_STRUCT)
    return ttv_writer_bad_argument (error,
                                    _("CTF writer: event “%s”, field “%s”: a variant must be a "
                                      "struct member"), event, f->name);
  gint tag = ttv_type_find_field (parent, f->type->ref);
  const TtvType *tt = tag < 0 || (guint) tag >= index ? NULL
                      : ((const TtvField *) g_ptr_array_index (parent->fields, tag))->type;
  if (tt == NULL || tt->kind != TTV_TYPE_ENUM)
    return ttv_writer_bad_argument (error,
                                    _("CTF writer: event “%s”, field “%s”: the tag “%s” is not an "
                                      "enum member before the variant"), event, f->name, f->type->ref);
  /* Options are written without an underscore: not a TSDL keyword then. */
  static const char *const keywords[] = {
    "align", "callsite", "char", "clock", "const", "double", "enum", "env", "event", "floating_point", "float",
    "int", "integer", "long", "short", "signed", "stream", "string", "struct", "trace", "typealias", "typedef",
    "unsigned", "variant", "void", NULL,
  };
  for (guint k = 0; k < f->type->fields->len; k++)
    {
      const char *option = ((const TtvField *) g_ptr_array_index (f->type->fields, k))->name;
      if (g_strv_contains (keywords, option))
        return ttv_writer_bad_argument (error,
                                        _("CTF writer: event “%s”, field “%s”: the option “%s” is a "
                                          "TSDL keyword"), event, f->name, option);
      gboolean found = FALSE;
      for (guint m = 0; m < tt->mappings->len && !found; m++)
        found = g_strcmp0 (g_array_index (tt->mappings, TtvEnumMapping, m).label, option) == 0;
      if (!found)
        return ttv_writer_bad_argument (error,
                                        _("CTF writer: event “%s”, field “%s”: no label of the tag "
                                          "“%s” selects the option “%s”"), event, f->name, f->type->ref,
                                        option);
    }
  return TRUE;
}

/* The members of a struct or the options of a variant. */
static gboolean
check_type_struct (const TtvType *t, const char *event, GError **error)
{
  for (guint i = 0; i < t->fields->len; i++)
    {
      const TtvField *f = g_ptr_array_index (t->fields, i);
      if (!valid_identifier (f->name))
        return ttv_writer_bad_argument (error,
                                        _("CTF writer: event “%s”: “%s” is not a valid "
                                          "field name"), event, f->name ? f->name : "");
      if (!check_type (f->type, event, f->name, error))
        return FALSE;
      if (f->type->kind == TTV_TYPE_VARIANT && !check_variant_tag (t, i, f, event, error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
check_type (const TtvType *t, const char *event, const char *field, GError **error)
{
  switch (t->kind)
    {
    case TTV_TYPE_INTEGER:
      if (t->size_bits < 1 || t->size_bits > 64 || (t->align_bits && !is_power_of_two (t->align_bits)))
        return ttv_writer_bad_argument (error,
                                        _("CTF writer: event “%s”, field “%s”: integers must have "
                                          "1 to 64 bits and a power of two as alignment"), event,
                                        field);
      return TRUE;
    case TTV_TYPE_FLOAT:
      if ((t->size_bits != 32 && t->size_bits != 64) || t->align_bits % 8 != 0)
        return ttv_writer_bad_argument (error,
                                        _("CTF writer: event “%s”, field “%s”: floats must be "
                                          "byte-aligned and of 32 or 64 bits"), event, field);
      return TRUE;
    case TTV_TYPE_STRING:
      return TRUE;
    case TTV_TYPE_ENUM:
      if (t->container == NULL || t->container->kind != TTV_TYPE_INTEGER)
        return ttv_writer_bad_argument (error,
                                        _("CTF writer: event “%s”, field “%s”: enum without an "
                                          "integer container"), event, field);
      return check_type (t->container, event, field, error);
    case TTV_TYPE_ARRAY:
      if (t->element->kind == TTV_TYPE_VARIANT)
        return ttv_writer_bad_argument (error,
                                        _("CTF writer: event “%s”, field “%s”: a variant must be a "
                                          "struct member"), event, field);
      return check_type (t->element, event, field, error);
    case TTV_TYPE_SEQUENCE:
      if (t->ref == NULL)
        return ttv_writer_bad_argument (error,
                                        _("CTF writer: event “%s”, field “%s”: sequences need a "
                                          "length field reference"), event, field);
      return check_type (t->element, event, field, error);
    case TTV_TYPE_STRUCT:
      return check_type_struct (t, event, error);
    case TTV_TYPE_VARIANT:
      if (t->ref == NULL || t->prefix != NULL || t->option_ranges != NULL || t->fields->len == 0)
        return ttv_writer_bad_argument (error,
                                        _("CTF writer: event “%s”, field “%s”: variants need a "
                                          "tag field reference and options"), event, field);
      return check_type_struct (t, event, error);
    default:
      return ttv_writer_bad_argument (error,
                                      _("CTF writer: event “%s”, field “%s”: type not supported"),
                                      event, field);
    }
}

static void append_specifier (GString *out, const TtvType *t, guint indent, TtvByteOrder order);

/* @order is the trace's: an integer of the other order says so (the IP
 * headers lttng-modules copies are big-endian in any trace). */
static void
append_integer (GString *out, const TtvType *t, TtvByteOrder order)
{
  g_string_append_printf (out, "integer { size = %u; align = %u; signed = %d; encoding = %s; "
                          "base = %u;", t->size_bits, is_bit_field (t) ? MAX (t->align_bits, 1)
                          : MAX (t->align_bits, 8), t->is_signed ? 1 : 0,
                          t->encoding == TTV_ENCODING_UTF8 ? "UTF8" : "none",
                          t->base ? t->base : 10);
  if (t->byte_order != order)
    g_string_append_printf (out, " byte_order = %s;", t->byte_order == TTV_BYTE_ORDER_BIG ? "be" : "le");
  if (t->clock_name)
    g_string_append_printf (out, " map = clock.%s.value;", t->clock_name);
  g_string_append (out, " }");
}

/* A sequence length reference, with the LTTng underscore on field names. */
static void
append_ref (GString *out, const char *ref)
{
  static const char * const roots[] = {
    "trace.packet.header.", "stream.packet.context.", "stream.event.header.",
    "stream.event.context.", "event.context.", "event.fields.",
  };
  const char *rest = ref;
  for (guint i = 0; i < G_N_ELEMENTS (roots); i++)
    if (g_str_has_prefix (ref, roots[i]))
      {
        g_string_append (out, roots[i]);
        rest = ref + strlen (roots[i]);
        break;
      }
  g_auto (GStrv) parts = g_strsplit (rest, ".", -1);
  for (guint i = 0; parts[i]; i++)
    g_string_append_printf (out, "%s_%s", i ? "." : "", parts[i]);
}

/* @option: a variant's option, named as the tag's label without LTTng's
 * underscore (babeltrace2 2.0.4 matches the two as written and stops on an
 * assertion when they differ; readers drop the underscore anyway). */
static void
append_declaration (GString *out, const char *name, const TtvType *t, guint indent, TtvByteOrder order,
                    gboolean option)
{
  const TtvType *inner = t;
  while (inner->kind == TTV_TYPE_ARRAY || inner->kind == TTV_TYPE_SEQUENCE)
    inner = inner->element;
  for (guint i = 0; i < indent; i++)
    g_string_append_c (out, '\t');
  append_specifier (out, inner, indent, order);
  g_string_append_printf (out, option ? " %s" : " _%s", name);
  for (const TtvType *d = t; d != inner; d = d->element)
    {
      g_string_append_c (out, '[');
      if (d->kind == TTV_TYPE_ARRAY)
        g_string_append_printf (out, "%" G_GUINT64_FORMAT, d->length);
      else
        append_ref (out, d->ref);
      g_string_append_c (out, ']');
    }
  g_string_append (out, ";\n");
}

/* The members of a struct or the options of a variant, one a line, then
 * the closing brace. */
static void
append_members (GString *out, const TtvType *t, guint indent, TtvByteOrder order)
{
  for (guint i = 0; i < t->fields->len; i++)
    {
      const TtvField *f = g_ptr_array_index (t->fields, i);
      append_declaration (out, f->name, f->type, indent + 1, order, t->kind == TTV_TYPE_VARIANT);
    }
  for (guint i = 0; i < indent; i++)
    g_string_append_c (out, '\t');
  g_string_append (out, "}");
}

static void
append_specifier (GString *out, const TtvType *t, guint indent, TtvByteOrder order)
{
  switch (t->kind)
    {
    case TTV_TYPE_INTEGER:
      append_integer (out, t, order);
      break;
    case TTV_TYPE_FLOAT:
      {
        guint exp = t->exp_dig ? t->exp_dig : t->size_bits == 32 ? 8 : 11;
        guint mant = t->mant_dig ? t->mant_dig : t->size_bits == 32 ? 24 : 53;
        g_string_append_printf (out, "floating_point { exp_dig = %u; mant_dig = %u; align = %u; }",
                                exp, mant, MAX (t->align_bits, 8));
      }
      break;
    case TTV_TYPE_STRING:
      g_string_append (out, "string");
      break;
    case TTV_TYPE_ENUM:
      g_string_append (out, "enum : ");
      append_integer (out, t->container, order);
      g_string_append (out, " { ");
      for (guint i = 0; i < t->mappings->len; i++)
        {
          const TtvEnumMapping *m = &g_array_index (t->mappings, TtvEnumMapping, i);
          if (i)
            g_string_append (out, ", ");
          append_quoted (out, m->label);
          if (t->container->is_signed)
            g_string_append_printf (out, " = %" G_GINT64_FORMAT, (gint64) m->start);
          else
            g_string_append_printf (out, " = %" G_GUINT64_FORMAT, m->start);
          if (m->end != m->start)
            {
              if (t->container->is_signed)
                g_string_append_printf (out, " ... %" G_GINT64_FORMAT, (gint64) m->end);
              else
                g_string_append_printf (out, " ... %" G_GUINT64_FORMAT, m->end);
            }
        }
      g_string_append (out, " }");
      break;
    case TTV_TYPE_STRUCT:
      g_string_append (out, "struct {\n");
      append_members (out, t, indent, order);
      /* In bits; an empty struct with one is lttng-modules' padding before an array. */
      if (t->align_bits > 8 || (t->fields->len == 0 && t->align_bits > 1))
        g_string_append_printf (out, " align(%u)", t->align_bits);
      break;
    case TTV_TYPE_VARIANT:
      /* The tag is an enum whose labels name the options (lttng-modules'
       * "variant <_network_header_type>"). */
      g_string_append (out, "variant <");
      append_ref (out, t->ref);
      g_string_append (out, "> {\n");
      append_members (out, t, indent, order);
      break;
    default:
      break;   /* refused by check_type */
    }
}

/* --- Encoding --------------------------------------------------------------- */

/* Past the byte a bit field left partly used. */
static EncResult
enc_end_bits (Enc *e)
{
  if (e->bit == 0)
    return ENC_OK;
  if (e->pos + 1 > e->cap)
    return ENC_FULL;
  e->pos++;
  e->bit = 0;
  return ENC_OK;
}

static EncResult
enc_align (Enc *e, guint align)
{
  if (enc_end_bits (e) != ENC_OK)
    return ENC_FULL;
  gsize p = (e->pos + align - 1) / align * align;
  if (p > e->cap)
    return ENC_FULL;
  memset (e->buf + e->pos, 0, p - e->pos);
  e->pos = p;
  return ENC_OK;
}

/* @v in @bytes bytes at the current position, already aligned as its
 * type declares (which may be less than its size: "size = 64; align = 32"). */
static EncResult
enc_store (Enc *e, guint64 v, guint bytes)
{
  if (e->pos + bytes > e->cap)
    return ENC_FULL;
  store (e->buf + e->pos, v, bytes, e->big);
  e->pos += bytes;
  return ENC_OK;
}

/* @v naturally aligned (the headers' fields). */
static EncResult
enc_uint (Enc *e, guint64 v, guint bytes)
{
  if (enc_align (e, bytes) != ENC_OK)
    return ENC_FULL;
  return enc_store (e, v, bytes);
}

/* @v in @bits bits at the next multiple of @align_bits, as CTF lays bit
 * fields out: little-endian ones from the least significant bit of each
 * byte, big-endian ones from the most significant, most significant bit of
 * the value first. */
static EncResult
enc_bits (Enc *e, guint64 v, guint bits, guint align_bits, gboolean big)
{
  guint64 at = (guint64) e->pos * 8 + e->bit;
  align_bits = MAX (align_bits, 1);
  at = (at + align_bits - 1) / align_bits * align_bits;
  guint64 end = at + bits;
  if ((end + 7) / 8 > e->cap)
    return ENC_FULL;
  /* The bytes not yet started are zero before bits are ORed in. */
  gsize fresh = e->pos + (e->bit ? 1 : 0);
  if ((end + 7) / 8 > fresh)
    memset (e->buf + fresh, 0, (gsize) ((end + 7) / 8 - fresh));
  for (guint i = 0; i < bits; i++)
    {
      guint64 b = at + i;
      guint bit = big ? (guint) ((v >> (bits - 1 - i)) & 1) : (guint) ((v >> i) & 1);
      if (bit)
        e->buf[b / 8] |= (guint8) (big ? 0x80u >> (b % 8) : 1u << (b % 8));
    }
  e->pos = (gsize) (end / 8);
  e->bit = (guint) (end % 8);
  return ENC_OK;
}

static const TtvScalar *
take (Enc *e, TtvTypeKind kind, const char *field)
{
  if (e->next >= e->n_values)
    {
      ttv_writer_bad_argument (e->error, _("CTF writer: event “%s”: too few values (field “%s”)"),
                               e->event, field);
      return NULL;
    }
  const TtvScalar *v = &e->values[e->next++];
  if (v->kind != kind)
    {
      ttv_writer_bad_argument (e->error,
                               _("CTF writer: event “%s”, field “%s”: expected a %s value"),
                               e->event, field, ttv_type_kind_name (kind));
      return NULL;
    }
  return v;
}

static EncResult encode (Enc *e, const TtvType *t, const char *field);

/* The @count elements of the array or sequence @t, aligned as @t. */
static EncResult
encode_elements (Enc *e, const TtvType *t, guint64 count, const char *field)
{
  if (enc_align (e, type_align (t)) != ENC_OK)
    return ENC_FULL;
  for (guint64 i = 0; i < count; i++)
    {
      EncResult r = encode (e, t->element, field);
      if (r != ENC_OK)
        return r;
    }
  return ENC_OK;
}

static EncResult
encode (Enc *e, const TtvType *t, const char *field)
{
  switch (t->kind)
    {
    case TTV_TYPE_ENUM:
      return encode (e, t->container, field);
    case TTV_TYPE_INTEGER:
      {
        const TtvScalar *v = take (e, TTV_TYPE_INTEGER, field);
        if (v == NULL)
          return ENC_BAD;
        guint bits = t->size_bits;
        gboolean fits = bits == 64
                        || (t->is_signed ? (v->s >= -(G_GINT64_CONSTANT (1) << (bits - 1))
                                            && v->s < (G_GINT64_CONSTANT (1) << (bits - 1)))
                                         : (v->u >> bits) == 0);
        if (!fits)
          {
            ttv_writer_bad_argument (e->error,
                                     _("CTF writer: event “%s”, field “%s”: value out of range "
                                       "for %u bits"), e->event, field, bits);
            return ENC_BAD;
          }
        gboolean big = t->byte_order == TTV_BYTE_ORDER_BIG;
        if (is_bit_field (t))
          return enc_bits (e, v->u, bits, t->align_bits, big);
        if (enc_align (e, MAX (t->align_bits, 8) / 8) != ENC_OK || e->pos + bits / 8 > e->cap)
          return ENC_FULL;
        store (e->buf + e->pos, v->u, bits / 8, big);
        e->pos += bits / 8;
        return ENC_OK;
      }
    case TTV_TYPE_FLOAT:
      {
        const TtvScalar *v = take (e, TTV_TYPE_FLOAT, field);
        if (v == NULL)
          return ENC_BAD;
        if (enc_align (e, MAX (t->align_bits, 8) / 8) != ENC_OK)
          return ENC_FULL;
        if (t->size_bits == 32)
          {
            union { float f; guint32 u; } c = { .f = (float) v->f };
            return enc_store (e, c.u, 4);
          }
        union { double f; guint64 u; } c = { .f = v->f };
        return enc_store (e, c.u, 8);
      }
    case TTV_TYPE_STRING:
      {
        const TtvScalar *v = take (e, TTV_TYPE_STRING, field);
        if (v == NULL)
          return ENC_BAD;
        const char *s = v->str ? v->str : "";
        gsize n = strlen (s) + 1;
        if (enc_end_bits (e) != ENC_OK || e->pos + n > e->cap)
          return ENC_FULL;
        memcpy (e->buf + e->pos, s, n);
        e->pos += n;
        return ENC_OK;
      }
    case TTV_TYPE_ARRAY:
      if (is_text_array (t))
        {
          const TtvScalar *v = take (e, TTV_TYPE_STRING, field);
          if (v == NULL)
            return ENC_BAD;
          if (enc_align (e, type_align (t)) != ENC_OK || e->pos + t->length > e->cap)
            return ENC_FULL;
          const char *s = v->str ? v->str : "";
          gsize n = strnlen (s, (gsize) t->length);
          memcpy (e->buf + e->pos, s, n);
          memset (e->buf + e->pos + n, 0, (gsize) t->length - n);
          e->pos += (gsize) t->length;
          return ENC_OK;
        }
      return encode_elements (e, t, t->length, field);
    case TTV_TYPE_SEQUENCE:
      {
        const TtvScalar *v = take (e, TTV_TYPE_INTEGER, field);
        if (v == NULL)
          return ENC_BAD;
        return encode_elements (e, t, v->u, field);
      }
    case TTV_TYPE_STRUCT:
      if (enc_align (e, type_align (t)) != ENC_OK)
        return ENC_FULL;
      for (guint i = 0; i < t->fields->len; i++)
        {
          const TtvField *f = g_ptr_array_index (t->fields, i);
          EncResult r = encode (e, f->type, f->name);
          if (r != ENC_OK)
            return r;
        }
      return ENC_OK;
    case TTV_TYPE_VARIANT:
      {
        /* The option's index; its tag, written before, must select it. */
        const TtvScalar *v = take (e, TTV_TYPE_INTEGER, field);
        if (v == NULL)
          return ENC_BAD;
        if (v->u >= t->fields->len)
          {
            ttv_writer_bad_argument (e->error,
                                     _("CTF writer: event “%s”, field “%s”: no option %" PRIu64),
                                     e->event, field, v->u);
            return ENC_BAD;
          }
        const TtvField *option = g_ptr_array_index (t->fields, (guint) v->u);
        return encode (e, option->type, option->name);
      }
    default:
      ttv_writer_bad_argument (e->error,
                               _("CTF writer: event “%s”, field “%s”: type not supported"),
                               e->event, field);
      return ENC_BAD;
    }
}

/* --- Streams and packets --------------------------------------------------- */

static void
stream_free (Stream *s)
{
  if (s->file)
    fclose (s->file);
  g_free (s->path);
  g_free (s->buf);
  g_free (s);
}

/* The packet header and context: CTF 1.8's, or LTTng 2.15's (CTF 2), which
 * adds a stream instance id and a packet sequence number. */
static void
fill_context (TtvCtfWriter *w, Stream *s)
{
  gboolean big = w->opt.byte_order == TTV_BYTE_ORDER_BIG;
  gboolean ctf2 = w->opt.metadata == TTV_CTF_METADATA_CTF2;
  guint8 *b = s->buf;
  store (b, PACKET_MAGIC, 4, big);
  memcpy (b + 4, w->opt.uuid, 16);
  store (b + 20, 0, 4, big);                           /* stream_id */
  guint o = 24;
  if (ctf2)
    {
      store (b + o, s->cpu_id, 8, big);                /* stream_instance_id */
      o += 8;
    }
  store (b + o, s->begin, 8, big);
  store (b + o + 8, s->end, 8, big);
  store (b + o + 16, (guint64) s->pos * 8, 8, big);    /* content_size */
  store (b + o + 24, (guint64) w->packet_size * 8, 8, big);
  o += 32;
  if (ctf2)
    {
      store (b + o, s->seq_num++, 8, big);             /* packet_seq_num */
      o += 8;
    }
  guint discarded_size = w->opt.long_bits == 32 ? 4 : 8;
  store (b + o, 0, discarded_size, big);               /* events_discarded */
  store (b + o + discarded_size, s->cpu_id, 4, big);
}

static gboolean
flush_packet (TtvCtfWriter *w, Stream *s, GError **error)
{
  if (s->n_in_packet == 0)
    return TRUE;
  fill_context (w, s);
  memset (s->buf + s->pos, 0, w->packet_size - s->pos);
  if (fwrite (s->buf, 1, w->packet_size, s->file) != w->packet_size)
    return ttv_writer_io_error (error, s->path, errno);
  w->n_packets++;
  s->n_in_packet = 0;
  s->pos = w->context_end;
  return TRUE;
}

static Stream *
stream_get (TtvCtfWriter *w, guint cpu_id, GError **error)
{
  if (cpu_id < w->n_by_cpu && w->by_cpu[cpu_id])
    return w->by_cpu[cpu_id];
  if (cpu_id > MAX_CPU_ID)
    {
      ttv_writer_bad_argument (error, _("CTF writer: CPU id %u is too large (at most %u)"), cpu_id,
                               MAX_CPU_ID);
      return NULL;
    }
  if (cpu_id >= w->n_by_cpu)
    {
      guint n = MAX (cpu_id + 1, w->n_by_cpu * 2);
      w->by_cpu = g_renew (Stream *, w->by_cpu, n);
      memset (w->by_cpu + w->n_by_cpu, 0, (n - w->n_by_cpu) * sizeof (Stream *));
      w->n_by_cpu = n;
    }
  Stream *s = g_new0 (Stream, 1);
  s->cpu_id = cpu_id;
  g_autofree char *base = g_strdup_printf ("%s_%u", w->channel, cpu_id);
  s->path = g_build_filename (w->dir, base, NULL);
  s->file = g_fopen (s->path, "wb");
  if (s->file == NULL)
    {
      int saved = errno;
      ttv_writer_io_error (error, s->path, saved);
      stream_free (s);
      return NULL;
    }
  s->buf = g_malloc0 (w->packet_size);
  s->pos = w->context_end;
  g_ptr_array_add (w->streams, s);
  w->by_cpu[cpu_id] = s;
  return s;
}

/* --- Public API -------------------------------------------------------------- */

static void
event_class_free (gpointer data)
{
  EventClass *ec = data;
  g_free (ec->name);
  ttv_type_unref (ec->fields);
  g_free (ec);
}

TtvCtfWriter *
ttv_ctf_writer_new (const char *dir, const TtvCtfWriterOptions *options, GError **error)
{
  g_return_val_if_fail (dir != NULL && options != NULL, NULL);
  TtvCtfWriterOptions o = *options;
  if (o.packet_size == 0)
    o.packet_size = DEFAULT_PACKET_SIZE;
  if (o.packet_size < 512 || o.packet_size > (1u << 30) || o.packet_size % 8 != 0)
    {
      ttv_writer_bad_argument (error,
                               _("CTF writer: packet size %u is not a multiple of 8 between 512 "
                                 "and 1073741824"), o.packet_size);
      return NULL;
    }
  if (o.long_bits == 0)
    o.long_bits = 64;
  if (o.long_bits != 32 && o.long_bits != 64)
    {
      ttv_writer_bad_argument (error, _("CTF writer: long size %u is neither 32 nor 64"),
                               o.long_bits);
      return NULL;
    }
  if (o.clock_name && !valid_identifier (o.clock_name))
    {
      ttv_writer_bad_argument (error, _("CTF writer: “%s” is not a valid clock name"),
                               o.clock_name);
      return NULL;
    }
  if (o.channel && (!*o.channel || strchr (o.channel, '/') || o.channel[0] == '.'
                    || g_str_equal (o.channel, "metadata")))
    {
      ttv_writer_bad_argument (error, _("CTF writer: “%s” is not a valid channel name"), o.channel);
      return NULL;
    }
  if (!ttv_writer_make_dir (dir, NULL, error))
    return NULL;
  g_autofree char *meta = g_build_filename (dir, "metadata", NULL);
  if (g_file_test (meta, G_FILE_TEST_EXISTS))
    {
      g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_IO,
                   _("%s: a trace is already there; not overwriting it"), dir);
      return NULL;
    }

  TtvCtfWriter *w = g_new0 (TtvCtfWriter, 1);
  w->dir = g_strdup (dir);
  w->opt = o;
  w->clock_name = g_strdup (o.clock_name ? o.clock_name : "monotonic");
  w->channel = g_strdup (o.channel ? o.channel : "channel0");
  w->hostname = g_strdup (o.hostname ? o.hostname : "ttv-gen");
  w->domain = g_strdup (o.domain ? o.domain : "kernel");
  w->tracer_name = g_strdup (o.tracer_name ? o.tracer_name : "lttng-modules");
  w->sysname = g_strdup (o.sysname ? o.sysname : "Linux");
  w->release = g_strdup (o.kernel_release ? o.kernel_release : "ttv-sim");
  w->version = g_strdup (o.kernel_version ? o.kernel_version : "#1 SMP");
  w->packet_size = o.packet_size;
  if (o.metadata == TTV_CTF_METADATA_CTF2)
    w->context_end = o.long_bits == 32 ? 80 : 84;
  else
    w->context_end = o.long_bits == 32 ? 64 : 68;
  w->events = g_ptr_array_new_with_free_func (event_class_free);
  w->streams = g_ptr_array_new_with_free_func ((GDestroyNotify) stream_free);

  static const guint8 zero[16] = { 0 };
  if (memcmp (w->opt.uuid, zero, 16) == 0)
    {
      g_autoptr (GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA1);
      g_autofree char *key = g_strdup_printf ("ttv-ctf-writer|%s|%s|%s|%" G_GINT64_FORMAT "|%u",
                                              w->hostname, w->domain, w->channel, o.clock_offset,
                                              o.packet_size);
      g_checksum_update (sum, (const guchar *) key, -1);
      guint8 digest[20];
      gsize len = sizeof digest;
      g_checksum_get_digest (sum, digest, &len);
      memcpy (w->opt.uuid, digest, 16);
      w->opt.uuid[6] = (guint8) ((w->opt.uuid[6] & 0x0f) | 0x40);
      w->opt.uuid[8] = (guint8) ((w->opt.uuid[8] & 0x3f) | 0x80);
    }
  /* The strings of opt are not kept (the copies above are). */
  w->opt.clock_name = w->opt.channel = w->opt.hostname = w->opt.domain = NULL;
  w->opt.tracer_name = w->opt.sysname = w->opt.kernel_release = w->opt.kernel_version = NULL;
  return w;
}

gint
ttv_ctf_writer_add_event (TtvCtfWriter *w, const char *name, TtvType *fields, GError **error)
{
  g_return_val_if_fail (w != NULL && name != NULL && fields != NULL, -1);
  if (w->n_events > 0)
    {
      ttv_writer_bad_argument (error, _("CTF writer: event “%s” declared after the first event"),
                               name);
      return -1;
    }
  if (!*name)
    {
      ttv_writer_bad_argument (error, _("CTF writer: empty event name"));
      return -1;
    }
  if (fields->kind != TTV_TYPE_STRUCT)
    {
      ttv_writer_bad_argument (error, _("CTF writer: event “%s”: the fields must be a struct"),
                               name);
      return -1;
    }
  if (!check_type (fields, name, name, error))
    return -1;
  if (w->events->len >= G_MAXINT32)
    {
      ttv_writer_bad_argument (error, _("CTF writer: too many event classes"));
      return -1;
    }
  EventClass *ec = g_new0 (EventClass, 1);
  ec->name = g_strdup (name);
  ec->fields = ttv_type_ref (fields);
  ec->align = type_align (fields);
  g_ptr_array_add (w->events, ec);
  return (gint) w->events->len - 1;
}

/* Writes the event header for @id at @clock; FALSE if the packet is full. */
static EncResult
encode_header (TtvCtfWriter *w, Stream *s, Enc *e, guint id, guint64 clock)
{
  guint64 delta = clock - s->prev;
  if (w->opt.header == TTV_CTF_HEADER_COMPACT)
    {
      if (id < 31 && delta < (G_GUINT64_CONSTANT (1) << 27))
        {
          guint32 ts = (guint32) (clock & 0x7ffffff);
          guint32 word = e->big ? (id << 27) | ts : id | (ts << 5);
          return enc_uint (e, word, 4);
        }
      /* The extended struct holds a 64-bit integer: it starts 8-aligned. */
      if (enc_uint (e, e->big ? 31u << 27 : 31u, 4) != ENC_OK || enc_align (e, 8) != ENC_OK
          || enc_uint (e, id, 4) != ENC_OK)
        return ENC_FULL;
      return enc_uint (e, clock, 8);
    }
  if (id < 65535 && delta <= G_MAXUINT32)
    {
      if (enc_uint (e, id, 2) != ENC_OK)
        return ENC_FULL;
      return enc_uint (e, clock & G_MAXUINT32, 4);
    }
  if (enc_uint (e, 65535, 2) != ENC_OK || enc_align (e, 8) != ENC_OK || enc_uint (e, id, 4) != ENC_OK)
    return ENC_FULL;
  return enc_uint (e, clock, 8);
}

gboolean
ttv_ctf_writer_write_event (TtvCtfWriter *w, guint cpu_id, TtvTime time, guint event,
                            const TtvScalar *values, guint n_values, GError **error)
{
  g_return_val_if_fail (w != NULL, FALSE);
  if (event >= w->events->len)
    return ttv_writer_bad_argument (error, _("CTF writer: unknown event handle %u"), event);
  const EventClass *ec = g_ptr_array_index (w->events, event);
  if (time < w->opt.clock_offset)
    return ttv_writer_bad_argument (error,
                                    _("CTF writer: event “%s” at %" PRId64 " ns is "
                                      "before the clock offset"), ec->name, time);
  guint64 clock = (guint64) (time - w->opt.clock_offset);
  Stream *s = stream_get (w, cpu_id, error);
  if (s == NULL)
    return FALSE;
  if (s->any && clock < s->end)
    return ttv_writer_bad_argument (error, _("CTF writer: event “%s” on CPU %u goes back in time"),
                                    ec->name, cpu_id);

  for (guint attempt = 0; attempt < 2; attempt++)
    {
      if (s->n_in_packet == 0)
        {
          s->begin = s->prev = clock;
          s->pos = w->context_end;
        }
      Enc e = { s->buf, s->pos, w->packet_size, 0, w->opt.byte_order == TTV_BYTE_ORDER_BIG,
                values, n_values, 0, error, ec->name };
      EncResult r = encode_header (w, s, &e, event, clock);
      if (r == ENC_OK)
        r = enc_align (&e, ec->align);
      if (r == ENC_OK)
        r = encode (&e, ec->fields, ec->name);
      if (r == ENC_OK)
        r = enc_end_bits (&e);   /* the next event starts on a byte */
      if (r == ENC_BAD)
        return FALSE;
      if (r == ENC_OK)
        {
          if (e.next != n_values)
            return ttv_writer_bad_argument (error,
                                            _("CTF writer: event “%s”: %u values given, %u used"),
                                            ec->name, n_values, e.next);
          s->pos = e.pos;
          s->prev = s->end = clock;
          s->any = TRUE;
          s->n_in_packet++;
          w->n_events++;
          return TRUE;
        }
      /* Full: flush and retry once in an empty packet. */
      if (s->n_in_packet == 0)
        break;
      if (!flush_packet (w, s, error))
        return FALSE;
    }
  return ttv_writer_bad_argument (error,
                                  _("CTF writer: event “%s” does not fit in a packet of %zu bytes"),
                                  ec->name, w->packet_size);
}

guint64
ttv_ctf_writer_get_n_events (const TtvCtfWriter *w)
{
  return w->n_events;
}

guint64
ttv_ctf_writer_get_n_packets (const TtvCtfWriter *w)
{
  guint64 n = w->n_packets;
  for (guint i = 0; i < w->streams->len; i++)
    n += ((const Stream *) g_ptr_array_index (w->streams, i))->n_in_packet > 0;
  return n;
}

static char *
build_metadata (TtvCtfWriter *w)
{
  GString *m = g_string_sized_new (4096 + w->events->len * 128);
  const guint8 *u = w->opt.uuid;
  g_autofree char *uuid = g_strdup_printf (
    "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0], u[1], u[2],
    u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
  gboolean big = w->opt.byte_order == TTV_BYTE_ORDER_BIG;
  const char *ul = w->opt.long_bits == 32 ? "32; align = 32" : "64; align = 64";

  g_string_append (m, "/* CTF 1.8 */\n\n");
  g_string_append (m,
    "typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
    "typealias integer { size = 16; align = 16; signed = false; } := uint16_t;\n"
    "typealias integer { size = 32; align = 32; signed = false; } := uint32_t;\n"
    "typealias integer { size = 64; align = 64; signed = false; } := uint64_t;\n");
  g_string_append_printf (m, "typealias integer { size = %s; signed = false; } := unsigned long;\n", ul);
  g_string_append (m,
    "typealias integer { size = 5; align = 1; signed = false; } := uint5_t;\n"
    "typealias integer { size = 27; align = 1; signed = false; } := uint27_t;\n\n");
  g_string_append_printf (m,
    "trace {\n"
    "\tmajor = 1;\n"
    "\tminor = 8;\n"
    "\tuuid = \"%s\";\n"
    "\tbyte_order = %s;\n"
    "\tpacket.header := struct {\n"
    "\t\tuint32_t magic;\n"
    "\t\tuint8_t  uuid[16];\n"
    "\t\tuint32_t stream_id;\n"
    "\t};\n"
    "};\n\n", uuid, big ? "be" : "le");

  g_string_append (m, "env {\n\thostname = ");
  append_quoted (m, w->hostname);
  g_string_append (m, ";\n\tdomain = ");
  append_quoted (m, w->domain);
  g_string_append (m, ";\n\tsysname = ");
  append_quoted (m, w->sysname);
  g_string_append (m, ";\n\tkernel_release = ");
  append_quoted (m, w->release);
  g_string_append (m, ";\n\tkernel_version = ");
  append_quoted (m, w->version);
  g_string_append (m, ";\n\ttracer_name = ");
  append_quoted (m, w->tracer_name);
  g_string_append (m, ";\n\ttracer_major = 2;\n\ttracer_minor = 5;\n\ttracer_patchlevel = 0;\n"
                   "};\n\n");

  TtvTime off = w->opt.clock_offset;
  gint64 off_s = off / TTV_NSEC_PER_SEC, off_ns = off % TTV_NSEC_PER_SEC;
  if (off_ns < 0)
    {
      off_s--;
      off_ns += TTV_NSEC_PER_SEC;
    }
  g_string_append_printf (m,
    "clock {\n"
    "\tname = %s;\n"
    "\tuuid = \"%s\";\n"
    "\tdescription = \"Monotonic Clock\";\n"
    "\tfreq = 1000000000; /* Frequency, in Hz */\n"
    "\t/* clock value offset from Epoch is: offset_s + offset * (1/freq) */\n"
    "\toffset_s = %" G_GINT64_FORMAT ";\n"
    "\toffset = %" G_GINT64_FORMAT ";\n"
    "};\n\n", w->clock_name, uuid, off_s, off_ns);

  const char *c = w->clock_name;
  g_string_append_printf (m,
    "typealias integer {\n\tsize = 27; align = 1; signed = false;\n\tmap = clock.%s.value;\n"
    "} := uint27_clock_monotonic_t;\n\n"
    "typealias integer {\n\tsize = 32; align = 32; signed = false;\n\tmap = clock.%s.value;\n"
    "} := uint32_clock_monotonic_t;\n\n"
    "typealias integer {\n\tsize = 64; align = 64; signed = false;\n\tmap = clock.%s.value;\n"
    "} := uint64_clock_monotonic_t;\n\n", c, c, c);

  g_string_append (m,
    "struct packet_context {\n"
    "\tuint64_clock_monotonic_t timestamp_begin;\n"
    "\tuint64_clock_monotonic_t timestamp_end;\n"
    "\tuint64_t content_size;\n"
    "\tuint64_t packet_size;\n"
    "\tunsigned long events_discarded;\n"
    "\tuint32_t cpu_id;\n"
    "};\n\n"
    "struct event_header_compact {\n"
    "\tenum : uint5_t { compact = 0 ... 30, extended = 31 } id;\n"
    "\tvariant <id> {\n"
    "\t\tstruct {\n"
    "\t\t\tuint27_clock_monotonic_t timestamp;\n"
    "\t\t} compact;\n"
    "\t\tstruct {\n"
    "\t\t\tuint32_t id;\n"
    "\t\t\tuint64_clock_monotonic_t timestamp;\n"
    "\t\t} extended;\n"
    "\t} v;\n"
    "} align(32);\n\n"
    "struct event_header_large {\n"
    "\tenum : uint16_t { compact = 0 ... 65534, extended = 65535 } id;\n"
    "\tvariant <id> {\n"
    "\t\tstruct {\n"
    "\t\t\tuint32_clock_monotonic_t timestamp;\n"
    "\t\t} compact;\n"
    "\t\tstruct {\n"
    "\t\t\tuint32_t id;\n"
    "\t\t\tuint64_clock_monotonic_t timestamp;\n"
    "\t\t} extended;\n"
    "\t} v;\n"
    "} align(16);\n\n");
  g_string_append_printf (m,
    "stream {\n"
    "\tid = 0;\n"
    "\tevent.header := struct event_header_%s;\n"
    "\tpacket.context := struct packet_context;\n"
    "};\n\n", w->opt.header == TTV_CTF_HEADER_COMPACT ? "compact" : "large");

  for (guint i = 0; i < w->events->len; i++)
    {
      const EventClass *ec = g_ptr_array_index (w->events, i);
      g_string_append (m, "event {\n\tname = ");
      append_quoted (m, ec->name);
      g_string_append_printf (m, ";\n\tid = %u;\n\tstream_id = 0;\n\tfields := ", i);
      append_specifier (m, ec->fields, 1, w->opt.byte_order);
      g_string_append (m, ";\n};\n\n");
    }
  return g_string_free (m, FALSE);
}

static GByteArray *
build_metadata_ctf2 (TtvCtfWriter *w)
{
  g_autofree const char **names = g_new0 (const char *, w->events->len + 1);
  g_autofree TtvType **fields = g_new0 (TtvType *, w->events->len + 1);
  for (guint i = 0; i < w->events->len; i++)
    {
      const EventClass *ec = g_ptr_array_index (w->events, i);
      names[i] = ec->name;
      fields[i] = ec->fields;
    }
  TtvCtf2MetadataInfo info = {
    .byte_order = w->opt.byte_order,
    .header = w->opt.header,
    .long_bits = w->opt.long_bits,
    .uuid = w->opt.uuid,
    .clock_name = w->clock_name,
    .clock_offset = w->opt.clock_offset,
    .hostname = w->hostname,
    .domain = w->domain,
    .tracer_name = w->tracer_name,
    .sysname = w->sysname,
    .kernel_release = w->release,
    .kernel_version = w->version,
    .n_events = w->events->len,
    .event_names = names,
    .event_fields = fields,
  };
  return ttv_ctf2_writer_metadata (&info);
}

static void
writer_free (TtvCtfWriter *w)
{
  g_ptr_array_unref (w->streams);
  g_ptr_array_unref (w->events);
  g_free (w->by_cpu);
  g_free (w->dir);
  g_free (w->clock_name);
  g_free (w->channel);
  g_free (w->hostname);
  g_free (w->domain);
  g_free (w->tracer_name);
  g_free (w->sysname);
  g_free (w->release);
  g_free (w->version);
  g_free (w);
}

gboolean
ttv_ctf_writer_close (TtvCtfWriter *w, GError **error)
{
  g_return_val_if_fail (w != NULL, FALSE);
  gboolean ok = TRUE;
  for (guint i = 0; i < w->streams->len && ok; i++)
    {
      Stream *s = g_ptr_array_index (w->streams, i);
      ok = flush_packet (w, s, error);
      if (ok && fclose (s->file) != 0)
        ok = ttv_writer_io_error (error, s->path, errno);
      s->file = NULL;
    }
  if (ok && w->opt.metadata == TTV_CTF_METADATA_CTF2)
    {
      g_autoptr (GByteArray) meta = build_metadata_ctf2 (w);
      g_autofree char *path = g_build_filename (w->dir, "metadata", NULL);
      ok = g_file_set_contents (path, (const char *) meta->data, meta->len, error);
    }
  else if (ok)
    {
      g_autofree char *meta = build_metadata (w);
      g_autofree char *path = g_build_filename (w->dir, "metadata", NULL);
      ok = g_file_set_contents (path, meta, -1, error);
    }
  writer_free (w);
  return ok;
}

void
ttv_ctf_writer_abort (TtvCtfWriter *w)
{
  if (w != NULL)
    writer_free (w);
}
