/* ttv-ctf2-writer.c: CTF 2 metadata for the CTF writer, as lttng-modules'
 * CTF 2 serializer (LTTng 2.15) writes it: a preamble, field class aliases
 * for the packet header, packet context and event headers, the trace
 * class, one clock class, one data stream class and the event record
 * classes, in metadata packets (major 2).  ttv-gen --format ctf2 uses it. */
#include "ttv-ctf2-writer.h"

#include "ttv-json-out.h"

#include <string.h>

#define METADATA_PACKET_BYTES 4096
#define METADATA_HEADER_BYTES 37

static const char *
order_name (TtvByteOrder o)
{
  return o == TTV_BYTE_ORDER_BIG ? "big-endian" : "little-endian";
}

/* A fixed-length unsigned integer field class. */
static void
append_uint (GString *j, guint bits, guint align, TtvByteOrder o, const char *role)
{
  g_string_append_printf (j, "{\"type\":\"fixed-length-unsigned-integer\",\"length\":%u,\"byte-order\":\"%s\"",
                          bits, order_name (o));
  if (align > 1)
    g_string_append_printf (j, ",\"alignment\":%u", align);
  if (role)
    g_string_append_printf (j, ",\"roles\":[\"%s\"]", role);
  g_string_append_c (j, '}');
}

static void
begin_fragment (GString *j, const char *type)
{
  g_string_append_printf (j, "\x1e{\"type\":\"%s\"", type);
}

static void
end_fragment (GString *j)
{
  g_string_append (j, "}\n");
}

static void
member (GString *j, gboolean first, const char *name)
{
  g_string_append (j, first ? "{\"name\":" : ",{\"name\":");
  ttv_json_append_string (j, name, -1);
  g_string_append (j, ",\"field-class\":");
}

/* A member whose field class is a fixed-length unsigned integer. */
static void
member_uint (GString *j, gboolean first, const char *name, guint bits, guint align, TtvByteOrder o,
             const char *role)
{
  member (j, first, name);
  append_uint (j, bits, align, o, role);
  g_string_append_c (j, '}');
}

static void
alias (GString *j, const char *name, const char *fc)
{
  begin_fragment (j, "field-class-alias");
  g_string_append_printf (j, ",\"name\":\"%s\",\"field-class\":%s", name, fc);
  end_fragment (j);
}

/* The aliases lttng-modules declares, with this writer's layout: 32-bit
 * words 32-aligned, 64-bit ones 64-aligned, as TSDL's uint32_t/uint64_t. */
static void
append_aliases (GString *j, const TtvCtf2MetadataInfo *info)
{
  TtvByteOrder o = info->byte_order;
  g_autoptr (GString) fc = g_string_new (NULL);
  append_uint (fc, 32, 32, o, "event-record-class-id");
  alias (j, "u32-erc-id", fc->str);
  g_string_truncate (fc, 0);
  append_uint (fc, 64, 64, o, "default-clock-timestamp");
  alias (j, "u64-ts", fc->str);

  gboolean compact = info->header == TTV_CTF_HEADER_COMPACT;
  guint id_bits = compact ? 5 : 16, ts_bits = compact ? 27 : 32;
  guint64 ext = compact ? 31 : 65535;
  g_string_truncate (fc, 0);
  g_string_append_printf (fc, "{\"type\":\"structure\",\"minimum-alignment\":%u,\"member-classes\":[",
                          compact ? 32 : 16);
  member (fc, TRUE, "id");
  g_string_append_printf (fc, "{\"type\":\"fixed-length-unsigned-integer\",\"length\":%u,\"byte-order\":\"%s\","
                          "%s\"mappings\":{\"compact\":[[0,%" G_GUINT64_FORMAT "]],\"extended\":[[%" G_GUINT64_FORMAT
                          ",%" G_GUINT64_FORMAT "]]},\"roles\":[\"event-record-class-id\"]}}",
                          id_bits, order_name (o), compact ? "" : "\"alignment\":16,", ext - 1, ext, ext);
  member (fc, FALSE, "v");
  g_string_append_printf (fc, "{\"type\":\"variant\",\"selector-field-location\":{\"path\":[\"id\"]},\"options\":["
                          "{\"name\":\"compact\",\"selector-field-ranges\":[[0,%" G_GUINT64_FORMAT "]],"
                          "\"field-class\":{\"type\":\"structure\",\"member-classes\":[",
                          ext - 1);
  member_uint (fc, TRUE, "timestamp", ts_bits, compact ? 1 : 32, o, "default-clock-timestamp");
  g_string_append_printf (fc, "]}},{\"name\":\"extended\",\"selector-field-ranges\":[[%" G_GUINT64_FORMAT ",%"
                          G_GUINT64_FORMAT "]],\"field-class\":{\"type\":\"structure\",\"member-classes\":[",
                          ext, ext);
  member (fc, TRUE, "id");
  g_string_append (fc, "\"u32-erc-id\"}");
  member (fc, FALSE, "timestamp");
  g_string_append (fc, "\"u64-ts\"}]}}]}}]}");
  alias (j, compact ? "er-header-compact" : "er-header-large", fc->str);

  g_string_truncate (fc, 0);
  g_string_append (fc, "{\"type\":\"structure\",\"member-classes\":[");
  member (fc, TRUE, "timestamp_begin");
  g_string_append (fc, "\"u64-ts\"}");
  member_uint (fc, FALSE, "timestamp_end", 64, 64, o, "packet-end-default-clock-timestamp");
  member_uint (fc, FALSE, "content_size", 64, 64, o, "packet-content-length");
  member_uint (fc, FALSE, "packet_size", 64, 64, o, "packet-total-length");
  member_uint (fc, FALSE, "packet_seq_num", 64, 64, o, "packet-sequence-number");
  member_uint (fc, FALSE, "events_discarded", info->long_bits, info->long_bits, o,
               "discarded-event-record-counter-snapshot");
  member_uint (fc, FALSE, "cpu_id", 32, 32, o, NULL);
  g_string_append (fc, "]}");
  alias (j, "pkt-ctx", fc->str);

  g_string_truncate (fc, 0);
  g_string_append (fc, "{\"type\":\"structure\",\"member-classes\":[");
  member_uint (fc, TRUE, "magic", 32, 32, o, "packet-magic-number");
  member (fc, FALSE, "uuid");
  g_string_append (fc, "{\"type\":\"static-length-blob\",\"length\":16,\"roles\":[\"metadata-stream-uuid\"]}}");
  member_uint (fc, FALSE, "stream_id", 32, 32, o, "data-stream-class-id");
  member_uint (fc, FALSE, "stream_instance_id", 64, 64, o, "data-stream-id");
  g_string_append (fc, "]}");
  alias (j, "pkt-header", fc->str);
}

static void append_field_class (GString *j, const TtvType *t, TtvByteOrder o);

static gboolean
is_text_array (const TtvType *t)
{
  return t->element && t->element->kind == TTV_TYPE_INTEGER && t->element->size_bits == 8
         && t->element->encoding == TTV_ENCODING_UTF8;
}

/* A length reference of the writer (a member of the same structure, or an
 * absolute path) as a field location. */
static void
append_location (GString *j, const char *ref)
{
  static const struct { const char *prefix, *origin; } roots[] = {
    { "trace.packet.header.", "packet-header" }, { "stream.packet.context.", "packet-context" },
    { "stream.event.header.", "event-record-header" }, { "stream.event.context.", "event-record-common-context" },
    { "event.context.", "event-record-specific-context" }, { "event.fields.", "event-record-payload" },
  };
  const char *rest = ref;
  g_string_append_c (j, '{');
  for (guint i = 0; i < G_N_ELEMENTS (roots); i++)
    if (g_str_has_prefix (ref, roots[i].prefix))
      {
        g_string_append_printf (j, "\"origin\":\"%s\",", roots[i].origin);
        rest = ref + strlen (roots[i].prefix);
        break;
      }
  g_string_append (j, "\"path\":[");
  g_auto (GStrv) parts = g_strsplit (rest, ".", -1);
  for (guint i = 0; parts[i]; i++)
    {
      if (i)
        g_string_append_c (j, ',');
      ttv_json_append_string (j, parts[i], -1);
    }
  g_string_append (j, "]}");
}

/* The integer's own byte order (the IP headers are big-endian in any
 * trace), and bit fields' alignment as they declare it. */
static void
append_integer (GString *j, const TtvType *t)
{
  gboolean bit_field = t->size_bits % 8 != 0 || t->align_bits % 8 != 0;
  g_string_append_printf (j, "\"type\":\"fixed-length-%ssigned-integer\",\"length\":%u,\"byte-order\":\"%s\","
                          "\"alignment\":%u", t->is_signed ? "" : "un", t->size_bits, order_name (t->byte_order),
                          bit_field ? MAX (t->align_bits, 1) : MAX (t->align_bits, 8));
  if (t->base && t->base != 10)
    g_string_append_printf (j, ",\"preferred-display-base\":%u", t->base);
}

/* Mappings grouped by label, in order of first appearance. */
static void
append_mappings (GString *j, const TtvType *t)
{
  g_string_append (j, ",\"mappings\":{");
  gboolean first = TRUE;
  for (guint i = 0; i < t->mappings->len; i++)
    {
      const TtvEnumMapping *m = &g_array_index (t->mappings, TtvEnumMapping, i);
      gboolean seen = FALSE;
      for (guint k = 0; k < i && !seen; k++)
        seen = strcmp (g_array_index (t->mappings, TtvEnumMapping, k).label, m->label) == 0;
      if (seen)
        continue;
      if (!first)
        g_string_append_c (j, ',');
      first = FALSE;
      ttv_json_append_string (j, m->label, -1);
      g_string_append (j, ":[");
      gboolean first_range = TRUE;
      for (guint k = i; k < t->mappings->len; k++)
        {
          const TtvEnumMapping *r = &g_array_index (t->mappings, TtvEnumMapping, k);
          if (strcmp (r->label, m->label) != 0)
            continue;
          if (!first_range)
            g_string_append_c (j, ',');
          first_range = FALSE;
          if (t->container->is_signed)
            g_string_append_printf (j, "[%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT "]", (gint64) r->start,
                                    (gint64) r->end);
          else
            g_string_append_printf (j, "[%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT "]", r->start, r->end);
        }
      g_string_append_c (j, ']');
    }
  g_string_append_c (j, '}');
}

/* The ranges of @tag's mappings labelled @label. */
static void
append_label_ranges (GString *j, const TtvType *tag, const char *label)
{
  gboolean first = TRUE;
  g_string_append_c (j, '[');
  for (guint k = 0; k < tag->mappings->len; k++)
    {
      const TtvEnumMapping *r = &g_array_index (tag->mappings, TtvEnumMapping, k);
      if (strcmp (r->label, label) != 0)
        continue;
      if (!first)
        g_string_append_c (j, ',');
      first = FALSE;
      if (tag->container->is_signed)
        g_string_append_printf (j, "[%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT "]", (gint64) r->start, (gint64) r->end);
      else
        g_string_append_printf (j, "[%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT "]", r->start, r->end);
    }
  g_string_append_c (j, ']');
}

/* A variant member of @parent, selected as lttng-modules' CTF 2 serializer
 * writes it: by its enum tag, a member of the same structure, each option
 * taking the ranges of the tag's mappings with its name. */
static void
append_variant (GString *j, const TtvType *t, const TtvType *parent, TtvByteOrder o)
{
  gint tag_index = ttv_type_find_field (parent, t->ref);
  const TtvType *tag = tag_index < 0 ? NULL
                       : ((const TtvField *) g_ptr_array_index (parent->fields, tag_index))->type;
  g_string_append (j, "{\"type\":\"variant\",\"selector-field-location\":");
  append_location (j, t->ref);
  g_string_append (j, ",\"options\":[");
  for (guint i = 0; i < t->fields->len; i++)
    {
      const TtvField *f = g_ptr_array_index (t->fields, i);
      g_string_append (j, i ? ",{\"name\":" : "{\"name\":");
      ttv_json_append_string (j, f->name, -1);
      g_string_append (j, ",\"selector-field-ranges\":");
      if (tag && tag->kind == TTV_TYPE_ENUM)
        append_label_ranges (j, tag, f->name);
      else
        g_string_append_printf (j, "[[%u,%u]]", i, i);   /* an integer tag: the option's index */
      g_string_append (j, ",\"field-class\":");
      append_field_class (j, f->type, o);
      g_string_append_c (j, '}');
    }
  g_string_append (j, "]}");
}

static void
append_field_class (GString *j, const TtvType *t, TtvByteOrder o)
{
  g_string_append_c (j, '{');
  switch (t->kind)
    {
    case TTV_TYPE_INTEGER:
      append_integer (j, t);
      break;
    case TTV_TYPE_ENUM:
      append_integer (j, t->container);
      append_mappings (j, t);
      break;
    case TTV_TYPE_FLOAT:
      g_string_append_printf (j, "\"type\":\"fixed-length-floating-point-number\",\"length\":%u,"
                              "\"byte-order\":\"%s\",\"alignment\":%u", t->size_bits, order_name (o),
                              MAX (t->align_bits, 8));
      break;
    case TTV_TYPE_STRING:
      g_string_append (j, "\"type\":\"null-terminated-string\"");
      break;
    case TTV_TYPE_ARRAY:
      if (is_text_array (t))
        g_string_append_printf (j, "\"type\":\"static-length-string\",\"length\":%" G_GUINT64_FORMAT, t->length);
      else
        {
          g_string_append_printf (j, "\"type\":\"static-length-array\",\"length\":%" G_GUINT64_FORMAT
                                  ",\"element-field-class\":", t->length);
          append_field_class (j, t->element, o);
        }
      break;
    case TTV_TYPE_SEQUENCE:
      if (is_text_array (t))
        g_string_append (j, "\"type\":\"dynamic-length-string\"");
      else
        {
          g_string_append (j, "\"type\":\"dynamic-length-array\",\"element-field-class\":");
          append_field_class (j, t->element, o);
        }
      g_string_append (j, ",\"length-field-location\":");
      append_location (j, t->ref);
      break;
    case TTV_TYPE_STRUCT:
      g_string_append (j, "\"type\":\"structure\"");
      if (t->align_bits > 8)
        g_string_append_printf (j, ",\"minimum-alignment\":%u", t->align_bits);
      g_string_append (j, ",\"member-classes\":[");
      for (guint i = 0; i < t->fields->len; i++)
        {
          const TtvField *f = g_ptr_array_index (t->fields, i);
          member (j, i == 0, f->name);
          if (f->type->kind == TTV_TYPE_VARIANT)
            append_variant (j, f->type, t, o);
          else
            append_field_class (j, f->type, o);
          g_string_append_c (j, '}');
        }
      g_string_append_c (j, ']');
      break;
    case TTV_TYPE_VARIANT:
      break;   /* a member: append_variant, which needs the structure */
    }
  g_string_append_c (j, '}');
}

static void
append_env_string (GString *j, const char *key, const char *value, gboolean first)
{
  g_string_append_printf (j, "%s\"%s\":", first ? "" : ",", key);
  ttv_json_append_string (j, value, -1);
}

static char *
json_text (const TtvCtf2MetadataInfo *info)
{
  GString *j = g_string_sized_new (8192 + info->n_events * 256);
  const guint8 *u = info->uuid;
  begin_fragment (j, "preamble");
  g_string_append (j, ",\"version\":2,\"uuid\":[");
  for (guint i = 0; i < 16; i++)
    g_string_append_printf (j, "%s%u", i ? "," : "", u[i]);
  g_string_append_c (j, ']');
  end_fragment (j);

  append_aliases (j, info);

  g_autofree char *uid = g_strdup_printf ("%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
                                          u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10],
                                          u[11], u[12], u[13], u[14], u[15]);
  begin_fragment (j, "trace-class");
  g_string_append_printf (j, ",\"namespace\":\"lttng.org,2009\",\"name\":\"\",\"uid\":\"%s\",\"environment\":{", uid);
  append_env_string (j, "hostname", info->hostname, TRUE);
  append_env_string (j, "domain", info->domain, FALSE);
  append_env_string (j, "sysname", info->sysname, FALSE);
  append_env_string (j, "kernel_release", info->kernel_release, FALSE);
  append_env_string (j, "kernel_version", info->kernel_version, FALSE);
  append_env_string (j, "tracer_name", info->tracer_name, FALSE);
  g_string_append (j, ",\"tracer_major\":2,\"tracer_minor\":15,\"tracer_patchlevel\":0");
  append_env_string (j, "trace_buffering_scheme", "global", FALSE);
  g_string_append (j, "},\"packet-header-field-class\":\"pkt-header\"");
  end_fragment (j);

  /* CTF 2 wants 0 <= cycles < frequency: a negative offset borrows a second. */
  TtvTime off = info->clock_offset;
  gint64 secs = off / TTV_NSEC_PER_SEC, cycles = off % TTV_NSEC_PER_SEC;
  if (cycles < 0)
    {
      secs--;
      cycles += TTV_NSEC_PER_SEC;
    }
  begin_fragment (j, "clock-class");
  g_string_append (j, ",\"id\":");
  ttv_json_append_string (j, info->clock_name, -1);
  g_string_append (j, ",\"name\":");
  ttv_json_append_string (j, info->clock_name, -1);
  g_string_append_printf (j, ",\"uid\":\"%s\",\"description\":\"Monotonic Clock\",\"frequency\":1000000000,"
                          "\"origin\":\"unix-epoch\",\"offset-from-origin\":{\"seconds\":%" G_GINT64_FORMAT
                          ",\"cycles\":%" G_GINT64_FORMAT "}", uid, secs, cycles);
  end_fragment (j);

  begin_fragment (j, "data-stream-class");
  g_string_append (j, ",\"id\":0,\"default-clock-class-id\":");
  ttv_json_append_string (j, info->clock_name, -1);
  g_string_append_printf (j, ",\"packet-context-field-class\":\"pkt-ctx\",\"event-record-header-field-class\":\"%s\"",
                          info->header == TTV_CTF_HEADER_COMPACT ? "er-header-compact" : "er-header-large");
  end_fragment (j);

  for (guint i = 0; i < info->n_events; i++)
    {
      begin_fragment (j, "event-record-class");
      g_string_append_printf (j, ",\"data-stream-class-id\":0,\"id\":%u,\"name\":", i);
      ttv_json_append_string (j, info->event_names[i], -1);
      g_string_append (j, ",\"payload-field-class\":");
      append_field_class (j, info->event_fields[i], info->byte_order);
      end_fragment (j);
    }
  return g_string_free (j, FALSE);
}

static void
store (guint8 *p, guint64 v, guint bytes, gboolean big)
{
  for (guint i = 0; i < bytes; i++)
    p[big ? bytes - 1 - i : i] = (guint8) (v >> (8 * i));
}

GByteArray *
ttv_ctf2_writer_metadata (const TtvCtf2MetadataInfo *info)
{
  g_autofree char *text = json_text (info);
  gsize len = strlen (text);
  gboolean big = info->byte_order == TTV_BYTE_ORDER_BIG;
  GByteArray *out = g_byte_array_new ();
  const gsize room = METADATA_PACKET_BYTES - METADATA_HEADER_BYTES;
  for (gsize at = 0; at < len; at += room)
    {
      guint8 packet[METADATA_PACKET_BYTES] = { 0 };
      gsize n = MIN (room, len - at);
      store (packet, 0x75D11D57u, 4, big);
      memcpy (packet + 4, info->uuid, 16);
      store (packet + 24, (METADATA_HEADER_BYTES + n) * 8, 4, big);   /* content size */
      store (packet + 28, METADATA_PACKET_BYTES * 8, 4, big);         /* packet size */
      packet[35] = 2;                                                 /* CTF 2 */
      memcpy (packet + METADATA_HEADER_BYTES, text + at, n);
      g_byte_array_append (out, packet, METADATA_PACKET_BYTES);
    }
  return out;
}
