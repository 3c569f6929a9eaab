/* ttv-ctf2-convert.c: the CTF 2 metadata reader's last pass: validated
 * fragments become the model the CTF 1.8 reader builds (CtfMeta, TtvType
 * trees with roles), so that everything downstream reads CTF 2 unchanged.
 * Entry point of the CTF 2 reader: ttv_ctf2_parse() runs every pass. */
#include "ttv-ctf2-private.h"
#include "ttv-error.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>

#define MAX_ALIAS_DEPTH 64

/* The root field classes, for the roles each may hold and the scope names
 * of absolute references (what TtvDecoder registers). */
typedef enum {
  SCOPE_PACKET_HEADER,
  SCOPE_PACKET_CONTEXT,
  SCOPE_EVENT_HEADER,
  SCOPE_COMMON_CONTEXT,
  SCOPE_SPECIFIC_CONTEXT,
  SCOPE_PAYLOAD,
} Scope;

static const struct {
  const char *origin;        /* CTF 2 field location origin */
  const char *decoder;       /* TtvDecoder scope name */
  const char *what;          /* for messages */
} scopes[] = {
  { "packet-header", "trace.packet.header", N_("packet header") },
  { "packet-context", "stream.packet.context", N_("packet context") },
  { "event-record-header", "stream.event.header", N_("event record header") },
  { "event-record-common-context", "stream.event.context", N_("event record common context") },
  { "event-record-specific-context", "event.context", N_("event record specific context") },
  { "event-record-payload", "event.fields", N_("event record payload") },
};

static const struct {
  const char *name;
  guint32 role;
  guint32 scopes;            /* bit set of Scope */
} role_table[] = {
  { "packet-magic-number", TTV_ROLE_PACKET_MAGIC, 1u << SCOPE_PACKET_HEADER },
  { "metadata-stream-uuid", TTV_ROLE_METADATA_UUID, 1u << SCOPE_PACKET_HEADER },
  { "data-stream-class-id", TTV_ROLE_STREAM_CLASS_ID, 1u << SCOPE_PACKET_HEADER },
  { "data-stream-id", TTV_ROLE_STREAM_ID, 1u << SCOPE_PACKET_HEADER },
  { "packet-total-length", TTV_ROLE_PACKET_TOTAL_BITS, 1u << SCOPE_PACKET_CONTEXT },
  { "packet-content-length", TTV_ROLE_PACKET_CONTENT_BITS, 1u << SCOPE_PACKET_CONTEXT },
  { "default-clock-timestamp", TTV_ROLE_CLOCK_TIMESTAMP,
    (1u << SCOPE_PACKET_CONTEXT) | (1u << SCOPE_EVENT_HEADER) },
  { "packet-end-default-clock-timestamp", TTV_ROLE_PACKET_END_TIMESTAMP, 1u << SCOPE_PACKET_CONTEXT },
  { "discarded-event-record-counter-snapshot", TTV_ROLE_DISCARDED_EVENTS, 1u << SCOPE_PACKET_CONTEXT },
  { "packet-sequence-number", TTV_ROLE_PACKET_SEQ_NUM, 1u << SCOPE_PACKET_CONTEXT },
  { "event-record-class-id", TTV_ROLE_EVENT_CLASS_ID, 1u << SCOPE_EVENT_HEADER },
};

/* LTTng's log levels by name (lttng.org,2009 and babeltrace.org,2020
 * "log-level" attributes), numbered as TSDL's loglevel. */
static const char *const log_levels[] = {
  "emergency", "alert", "critical", "error", "warning", "notice", "info", "debug:system",
  "debug:program", "debug:process", "debug:module", "debug:unit", "debug:function", "debug:line",
  "debug",
};

typedef struct {
  const char *path;
  const char *text;          /* weak: the metadata text, for messages */
  CtfMeta *meta;
  GPtrArray *fragments;      /* of Ctf2Json *, owned: aliases point into them */
  GHashTable *aliases;       /* name -> const Ctf2Json * (weak) */
  GHashTable *clocks;        /* id (or draft name) -> CtfClock * (weak) */
  GHashTable *where;         /* TtvType * -> location text, for the resolution pass */
  gboolean have_preamble, have_trace_class;
  /* The data stream class whose field classes are converted (roles that
   * need its default clock). */
  const CtfStreamClass *stream;
  /* Converting an alias where it is declared: roles are checked where it
   * is used (its scope and data stream class are known there). */
  gboolean declaring_alias;
  guint alias_depth;
  GError *error;
} Conv;

static gboolean
fail (Conv *c, const Ctf2Json *at, gint code, const char *format, ...) G_GNUC_PRINTF (4, 5);

static gboolean
fail (Conv *c, const Ctf2Json *at, gint code, const char *format, ...)
{
  va_list ap;
  va_start (ap, format);
  ttv_ctf2_set_error_va (&c->error, code, c->path, c->text, at->offset, format, ap);
  va_end (ap);
  return FALSE;
}

static guint64
json_u64 (const Ctf2Json *j, guint64 fallback)
{
  guint64 u;
  return ttv_ctf2_json_uint (j, &u) ? u : fallback;
}

/* An integer range bound as the 64 bits of a TtvEnumMapping: negative
 * values in two's complement. */
static guint64
json_bits (const Ctf2Json *j)
{
  return j->v.i.negative ? 0 - j->v.i.magnitude : j->v.i.magnitude;
}

static TtvByteOrder
byte_order (const Ctf2Json *fc)
{
  const char *o = ttv_ctf2_json_get_string (fc, "byte-order");
  return o && (strcmp (o, "big-endian") == 0 || strcmp (o, "be") == 0) ? TTV_BYTE_ORDER_BIG
                                                                      : TTV_BYTE_ORDER_LITTLE;
}

/* --- Field locations ------------------------------------------------------ */

/* A field location as a TtvType reference (syntax in ttv-type.h): with an
 * origin, the decoder's scope name and the path; without, the path from
 * the structure holding the field, one '^' per structure climbed.  The
 * late-draft form is an array whose first element may be the origin. */
static char *
location_ref (Conv *c, const Ctf2Json *loc)
{
  const Ctf2Json *path = loc;
  const char *origin = NULL;
  guint first = 0;
  if (loc->kind == CTF2_JSON_OBJECT)
    {
      origin = ttv_ctf2_json_get_string (loc, "origin");
      path = ttv_ctf2_json_get (loc, "path");
    }
  else
    for (guint s = 0; s < G_N_ELEMENTS (scopes); s++)
      if (path->v.a.items[0]->kind == CTF2_JSON_STRING && strcmp (path->v.a.items[0]->v.s, scopes[s].origin) == 0)
        {
          origin = scopes[s].origin;
          first = 1;
        }
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  guint climb = 0;
  for (guint i = first; i < path->v.a.n; i++)
    {
      const Ctf2Json *e = path->v.a.items[i];
      if (e->kind == CTF2_JSON_STRING)
        {
          /* The decoder's references split at dots and climb with '^'. */
          if (strchr (e->v.s, '.') || e->v.s[0] == '^' || e->v.s[0] == '\0')
            return (fail (c, e, TTV_FORMAT_ERROR_UNSUPPORTED,
                          _("field locations through member names with a dot, or starting with “^”,"
                            " are not supported")), NULL);
          g_ptr_array_add (names, e->v.s);
        }
      else if (names->len > 0)
        g_ptr_array_remove_index (names, names->len - 1);
      else if (origin == NULL)
        climb++;
      else
        return (fail (c, e, TTV_FORMAT_ERROR_INVALID, _("this field location climbs above its origin")), NULL);
    }
  if (names->len == 0)
    return (fail (c, loc, TTV_FORMAT_ERROR_INVALID, _("this field location names no field")), NULL);
  g_ptr_array_add (names, NULL);
  g_autofree char *joined = g_strjoinv (".", (char **) names->pdata);
  if (origin)
    for (guint s = 0; s < G_N_ELEMENTS (scopes); s++)
      if (strcmp (origin, scopes[s].origin) == 0)
        return g_strconcat (scopes[s].decoder, ".", joined, NULL);
  GString *ref = g_string_new (NULL);
  for (guint i = 0; i < climb; i++)
    g_string_append_c (ref, '^');
  g_string_append (ref, joined);
  return g_string_free (ref, FALSE);
}

static void
remember_where (Conv *c, const TtvType *t, const Ctf2Json *at)
{
  g_hash_table_replace (c->where, (gpointer) t, ttv_ctf2_where (c->path, c->text, at->offset));
}

/* --- Field classes --------------------------------------------------------- */

static TtvType *convert_fc (Conv *c, const Ctf2Json *fc, Scope scope);

static gboolean
apply_roles (Conv *c, const Ctf2Json *fc, TtvType *t, Scope scope, gboolean blob)
{
  const Ctf2Json *roles = ttv_ctf2_json_get (fc, "roles");
  for (guint i = 0; roles && i < roles->v.a.n; i++)
    {
      const char *name = roles->v.a.items[i]->v.s;
      for (guint r = 0; r < G_N_ELEMENTS (role_table); r++)
        {
          if (strcmp (name, role_table[r].name) != 0)
            continue;
          gboolean uuid = role_table[r].role == TTV_ROLE_METADATA_UUID;
          if (!c->declaring_alias && !(role_table[r].scopes & (1u << scope)))
            return fail (c, roles->v.a.items[i], TTV_FORMAT_ERROR_INVALID,
                         _("the role “%s” is not allowed here (%s)"), name, _(scopes[scope].what));
          if (uuid != blob || (!blob && (t->is_signed || t->int_kind != TTV_INT_NUMBER)))
            return fail (c, roles->v.a.items[i], TTV_FORMAT_ERROR_INVALID,
                         uuid ? _("the role “%s” needs a static-length BLOB of 16 bytes")
                              : _("the role “%s” needs an unsigned integer"), name);
          if (uuid && t->length != 16)
            return fail (c, roles->v.a.items[i], TTV_FORMAT_ERROR_INVALID,
                         _("the role “%s” needs a static-length BLOB of 16 bytes"), name);
          if ((role_table[r].role & (TTV_ROLE_CLOCK_TIMESTAMP | TTV_ROLE_PACKET_END_TIMESTAMP))
              && !c->declaring_alias && (c->stream == NULL || c->stream->clock == NULL))
            return fail (c, roles->v.a.items[i], TTV_FORMAT_ERROR_INVALID,
                         _("the role “%s” needs a data stream class with a default clock class"), name);
          t->roles |= role_table[r].role;
        }
    }
  return TRUE;
}

static TtvType *
with_mappings (Conv *c, const Ctf2Json *fc, TtvType *integer, gboolean flags)
{
  const Ctf2Json *m = ttv_ctf2_json_get (fc, flags ? "flags" : "mappings");
  if (m == NULL || m->v.o.n == 0)
    return integer;
  TtvType *e = ttv_type_new_enum (integer);
  e->bit_flags = flags;
  for (guint i = 0; i < m->v.o.n; i++)
    {
      const Ctf2Json *ranges = m->v.o.values[i];
      for (guint k = 0; k < ranges->v.a.n; k++)
        {
          const Ctf2Json *r = ranges->v.a.items[k];
          ttv_type_add_mapping (e, m->v.o.keys[i], json_bits (r->v.a.items[0]), json_bits (r->v.a.items[1]));
        }
    }
  (void) c;
  return e;
}

/* Fixed-length bit arrays and what is built on them: integers (with
 * mappings, an enum), booleans, bit maps, floats. */
static TtvType *
convert_fixed (Conv *c, const Ctf2Json *fc, const char *type, Scope scope)
{
  guint64 length = json_u64 (ttv_ctf2_json_get (fc, "length"), 0);
  guint64 align = json_u64 (ttv_ctf2_json_get (fc, "alignment"), 1);
  TtvByteOrder order = byte_order (fc);
  const char *bit_order = ttv_ctf2_json_get_string (fc, "bit-order");
  gboolean reverse = bit_order
                     && strcmp (bit_order, order == TTV_BYTE_ORDER_LITTLE ? "last-to-first" : "first-to-last") == 0;
  if (align > 4096 * 8)
    return (fail (c, fc, TTV_FORMAT_ERROR_UNSUPPORTED, _("alignments above 4096 bytes are not supported")), NULL);
  if (strcmp (type, "fixed-length-floating-point-number") == 0)
    {
      if (length != 16 && length != 32 && length != 64)
        return (fail (c, fc, TTV_FORMAT_ERROR_UNSUPPORTED,
                      _("floating-point numbers of %" PRIu64 " bits are not supported (16, 32 and 64 are)"),
                      length), NULL);
      if (reverse)
        return (fail (c, fc, TTV_FORMAT_ERROR_UNSUPPORTED,
                      _("floating-point numbers in reversed bit order are not supported")), NULL);
      return ttv_type_new_float ((guint) length, order, (guint) align);
    }
  if (length > 64)
    return (fail (c, fc, TTV_FORMAT_ERROR_UNSUPPORTED,
                  _("fixed-length fields of more than 64 bits are not supported")), NULL);
  gboolean is_signed = strstr (type, "-signed-") != NULL;
  TtvType *t = ttv_type_new_integer ((guint) length, is_signed, order, (guint) align);
  t->reverse_bits = reverse;
  t->base = (guint) json_u64 (ttv_ctf2_json_get (fc, "preferred-display-base"), 10);
  if (strcmp (type, "fixed-length-boolean") == 0)
    t->int_kind = TTV_INT_BOOLEAN;
  else if (strcmp (type, "fixed-length-bit-array") == 0 || strcmp (type, "fixed-length-bit-map") == 0)
    {
      t->int_kind = TTV_INT_BIT_ARRAY;
      t->base = 16;
    }
  t = with_mappings (c, fc, t, strcmp (type, "fixed-length-bit-map") == 0);
  if (!apply_roles (c, fc, t, scope, FALSE))
    {
      ttv_type_unref (t);
      return NULL;
    }
  return t;
}

static TtvType *
convert_leb128 (Conv *c, const Ctf2Json *fc, const char *type, Scope scope)
{
  TtvType *t = ttv_type_new_integer (64, strstr (type, "-signed-") != NULL, TTV_BYTE_ORDER_LITTLE, 8);
  t->leb128 = TRUE;
  t->base = (guint) json_u64 (ttv_ctf2_json_get (fc, "preferred-display-base"), 10);
  t = with_mappings (c, fc, t, FALSE);
  if (!apply_roles (c, fc, t, scope, FALSE))
    {
      ttv_type_unref (t);
      return NULL;
    }
  return t;
}

static TtvEncoding
encoding (const Ctf2Json *fc)
{
  const char *e = ttv_ctf2_json_get_string (fc, "encoding");
  if (e == NULL || strcmp (e, "utf-8") == 0)
    return TTV_ENCODING_UTF8;
  if (strcmp (e, "utf-16be") == 0)
    return TTV_ENCODING_UTF16BE;
  if (strcmp (e, "utf-16le") == 0)
    return TTV_ENCODING_UTF16LE;
  if (strcmp (e, "utf-32be") == 0)
    return TTV_ENCODING_UTF32BE;
  return TTV_ENCODING_UTF32LE;
}

static TtvType *
convert_string (Conv *c, const Ctf2Json *fc, const char *type)
{
  TtvType *t = ttv_type_new_string ();
  t->encoding = encoding (fc);
  if (strcmp (type, "static-length-string") == 0)
    {
      t->static_length = TRUE;
      t->length = json_u64 (ttv_ctf2_json_get (fc, "length"), 0);
    }
  else if (strcmp (type, "dynamic-length-string") == 0)
    {
      t->ref = location_ref (c, ttv_ctf2_json_get (fc, "length-field-location"));
      if (t->ref == NULL)
        {
          ttv_type_unref (t);
          return NULL;
        }
      remember_where (c, t, fc);
    }
  return t;
}

/* BLOBs are arrays of bytes shown in hexadecimal, as TSDL's uint8_t[16]. */
/* An array of @element (taken) with the static "length" of @fc, or a
 * sequence whose length is at its "length-field-location". */
static TtvType *
new_sized (Conv *c, const Ctf2Json *fc, TtvType *element, gboolean is_static)
{
  if (is_static)
    return ttv_type_new_array (element, json_u64 (ttv_ctf2_json_get (fc, "length"), 0));
  g_autofree char *ref = location_ref (c, ttv_ctf2_json_get (fc, "length-field-location"));
  if (ref == NULL)
    {
      ttv_type_unref (element);
      return NULL;
    }
  TtvType *t = ttv_type_new_sequence_ref (element, ref);
  remember_where (c, t, fc);
  return t;
}

static TtvType *
convert_blob (Conv *c, const Ctf2Json *fc, const char *type, Scope scope)
{
  TtvType *byte = ttv_type_new_integer (8, FALSE, TTV_BYTE_ORDER_LITTLE, 8);
  byte->base = 16;
  TtvType *t = new_sized (c, fc, byte, strcmp (type, "static-length-blob") == 0);
  if (t == NULL)
    return NULL;
  const char *media = ttv_ctf2_json_get_string (fc, "media-type");
  t->media_type = g_strdup (media ? media : "application/octet-stream");
  if (!apply_roles (c, fc, t, scope, TRUE))
    {
      ttv_type_unref (t);
      return NULL;
    }
  return t;
}

static guint
min_align (const Ctf2Json *fc)
{
  return (guint) MIN (json_u64 (ttv_ctf2_json_get (fc, "minimum-alignment"), 1), 4096 * 8);
}

static TtvType *
convert_struct (Conv *c, const Ctf2Json *fc, Scope scope)
{
  TtvType *t = ttv_type_new_struct ();
  t->align_bits = min_align (fc);
  const Ctf2Json *members = ttv_ctf2_json_get (fc, "member-classes");
  for (guint i = 0; members && i < members->v.a.n; i++)
    {
      const Ctf2Json *m = members->v.a.items[i];
      const char *name = ttv_ctf2_json_get_string (m, "name");
      if (ttv_type_find_field (t, name) >= 0)
        {
          ttv_type_unref (t);
          return (fail (c, m, TTV_FORMAT_ERROR_INVALID, _("two members are named “%s”"), name), NULL);
        }
      TtvType *mt = convert_fc (c, ttv_ctf2_json_get (m, "field-class"), scope);
      if (mt == NULL)
        {
          ttv_type_unref (t);
          return NULL;
        }
      /* The magic number opens the packet header (CTF2-SPEC-2.0 5.6.1). */
      if ((mt->roles & TTV_ROLE_PACKET_MAGIC) && (i != 0 || mt->size_bits != 32))
        {
          ttv_type_unref (mt);
          ttv_type_unref (t);
          return (fail (c, m, TTV_FORMAT_ERROR_INVALID,
                        _("the packet magic number must be the packet header's first member, of 32 bits")),
                  NULL);
        }
      ttv_type_add_field (t, name, mt, NULL);
    }
  return t;
}

static TtvType *
convert_array (Conv *c, const Ctf2Json *fc, const char *type, Scope scope)
{
  TtvType *element = convert_fc (c, ttv_ctf2_json_get (fc, "element-field-class"), scope);
  if (element == NULL)
    return NULL;
  TtvType *t = new_sized (c, fc, element, strcmp (type, "static-length-array") == 0);
  if (t == NULL)
    return NULL;
  t->align_bits = MAX (t->align_bits, min_align (fc));
  return t;
}

static gboolean
add_ranges (TtvType *t, guint option, const Ctf2Json *ranges)
{
  for (guint k = 0; ranges && k < ranges->v.a.n; k++)
    {
      const Ctf2Json *r = ranges->v.a.items[k];
      ttv_type_add_option_range (t, option, json_bits (r->v.a.items[0]), json_bits (r->v.a.items[1]));
    }
  return TRUE;
}

static TtvType *
convert_optional (Conv *c, const Ctf2Json *fc, Scope scope)
{
  g_autofree char *ref = location_ref (c, ttv_ctf2_json_get (fc, "selector-field-location"));
  if (ref == NULL)
    return NULL;
  TtvType *inner = convert_fc (c, ttv_ctf2_json_get (fc, "field-class"), scope);
  if (inner == NULL)
    return NULL;
  TtvType *t = ttv_type_new_optional (inner, ref);
  add_ranges (t, 0, ttv_ctf2_json_get (fc, "selector-field-ranges"));
  remember_where (c, t, fc);
  return t;
}

static TtvType *
convert_variant (Conv *c, const Ctf2Json *fc, Scope scope)
{
  g_autofree char *ref = location_ref (c, ttv_ctf2_json_get (fc, "selector-field-location"));
  if (ref == NULL)
    return NULL;
  TtvType *t = ttv_type_new_variant_ranges (ref);
  const Ctf2Json *options = ttv_ctf2_json_get (fc, "options");
  for (guint i = 0; i < options->v.a.n; i++)
    {
      const Ctf2Json *o = options->v.a.items[i];
      const char *name = ttv_ctf2_json_get_string (o, "name");
      if (name && ttv_type_find_field (t, name) >= 0)
        {
          ttv_type_unref (t);
          return (fail (c, o, TTV_FORMAT_ERROR_INVALID, _("two options are named “%s”"), name), NULL);
        }
      TtvType *ot = convert_fc (c, ttv_ctf2_json_get (o, "field-class"), scope);
      if (ot == NULL)
        {
          ttv_type_unref (t);
          return NULL;
        }
      ttv_type_add_field (t, name, ot, NULL);
      add_ranges (t, i, ttv_ctf2_json_get (o, "selector-field-ranges"));
    }
  remember_where (c, t, fc);
  return t;
}

/* A field class (or an alias's name) as a new TtvType tree. */
static TtvType *
convert_fc (Conv *c, const Ctf2Json *fc, Scope scope)
{
  if (fc->kind == CTF2_JSON_STRING)
    {
      const Ctf2Json *alias = g_hash_table_lookup (c->aliases, fc->v.s);
      if (alias == NULL)
        return (fail (c, fc, TTV_FORMAT_ERROR_INVALID, _("no field class alias “%s” is declared before"),
                      fc->v.s), NULL);
      if (++c->alias_depth > MAX_ALIAS_DEPTH)
        return (fail (c, fc, TTV_FORMAT_ERROR_INVALID, _("field class aliases nested too deeply")), NULL);
      TtvType *t = convert_fc (c, alias, scope);
      c->alias_depth--;
      return t;
    }
  const char *type = ttv_ctf2_json_get_string (fc, "type");
  if (g_str_has_prefix (type, "fixed-length-"))
    return convert_fixed (c, fc, type, scope);
  if (g_str_has_prefix (type, "variable-length-"))
    return convert_leb128 (c, fc, type, scope);
  if (g_str_has_suffix (type, "-string"))
    return convert_string (c, fc, type);
  if (g_str_has_suffix (type, "-blob"))
    return convert_blob (c, fc, type, scope);
  if (strcmp (type, "structure") == 0)
    return convert_struct (c, fc, scope);
  if (g_str_has_suffix (type, "-array"))
    return convert_array (c, fc, type, scope);
  if (strcmp (type, "optional") == 0)
    return convert_optional (c, fc, scope);
  return convert_variant (c, fc, scope);
}

/* A root field class: a structure, finished. */
static gboolean
convert_scope (Conv *c, const Ctf2Json *fragment, const char *key, Scope scope, TtvType **out)
{
  const Ctf2Json *fc = ttv_ctf2_json_get (fragment, key);
  if (fc == NULL)
    return TRUE;
  TtvType *t = convert_fc (c, fc, scope);
  if (t == NULL)
    return FALSE;
  if (t->kind != TTV_TYPE_STRUCT)
    {
      ttv_type_unref (t);
      return fail (c, fc, TTV_FORMAT_ERROR_INVALID, _("“%s” must be a structure"), key);
    }
  *out = t;
  return TRUE;
}

/* --- Fragments ------------------------------------------------------------ */

static const Ctf2Json *
attribute (const Ctf2Json *fragment, const char *ns, const char *key)
{
  const Ctf2Json *attrs = ttv_ctf2_json_get (fragment, "attributes");
  if (attrs == NULL)
    attrs = ttv_ctf2_json_get (fragment, "user-attributes");
  return ttv_ctf2_json_get (ttv_ctf2_json_get (attrs, ns), key);
}

static gboolean
do_preamble (Conv *c, const Ctf2Json *f)
{
  if (c->have_preamble)
    return fail (c, f, TTV_FORMAT_ERROR_INVALID, _("a second preamble fragment"));
  c->have_preamble = TRUE;
  const Ctf2Json *ext = ttv_ctf2_json_get (f, "extensions");
  for (guint i = 0; ext && i < ext->v.o.n; i++)
    {
      const Ctf2Json *names = ext->v.o.values[i];
      /* An extension may change the format itself: a consumer that does not
       * know one must not read the data (CTF2-SPEC-2.0 5.1). */
      return fail (c, ext, TTV_FORMAT_ERROR_UNSUPPORTED, _("the metadata needs the extension “%s/%s”, which ttv does not know"),
                   ext->v.o.keys[i], names->kind == CTF2_JSON_OBJECT && names->v.o.n ? names->v.o.keys[0] : "?");
    }
  const Ctf2Json *uuid = ttv_ctf2_json_get (f, "uuid");
  if (uuid)
    {
      for (guint i = 0; i < 16; i++)
        c->meta->uuid[i] = (guint8) json_u64 (uuid->v.a.items[i], 0);
      c->meta->has_uuid = TRUE;
    }
  return TRUE;
}

static gboolean
do_trace_class (Conv *c, const Ctf2Json *f)
{
  if (c->have_trace_class)
    return fail (c, f, TTV_FORMAT_ERROR_INVALID, _("a second trace class fragment"));
  if (c->meta->streams->len > 0)
    return fail (c, f, TTV_FORMAT_ERROR_INVALID, _("the trace class fragment must come before any data stream class"));
  c->have_trace_class = TRUE;
  const Ctf2Json *env = ttv_ctf2_json_get (f, "environment");
  for (guint i = 0; env && i < env->v.o.n; i++)
    {
      const Ctf2Json *v = env->v.o.values[i];
      gint64 n = 0;
      g_ptr_array_add (c->meta->env_keys, g_strdup (env->v.o.keys[i]));
      if (v->kind == CTF2_JSON_STRING)
        g_ptr_array_add (c->meta->env_values, g_strdup (v->v.s));
      else
        {
          ttv_ctf2_json_int (v, &n);
          g_ptr_array_add (c->meta->env_values, g_strdup_printf ("%" G_GINT64_FORMAT, n));
        }
      g_ptr_array_add (c->meta->env_is_string, GINT_TO_POINTER (v->kind == CTF2_JSON_STRING));
    }
  if (!convert_scope (c, f, "packet-header-field-class", SCOPE_PACKET_HEADER, &c->meta->packet_header))
    return FALSE;
  if ((ttv_type_collect_roles (c->meta->packet_header) & TTV_ROLE_METADATA_UUID) && !c->meta->has_uuid)
    return fail (c, f, TTV_FORMAT_ERROR_INVALID,
                 _("the packet header holds the metadata stream UUID but the preamble has none"));
  return TRUE;
}

static gboolean
do_clock_class (Conv *c, const Ctf2Json *f)
{
  const char *id = ttv_ctf2_json_get_string (f, "id");
  const char *name = ttv_ctf2_json_get_string (f, "name");
  const char *key = id ? id : name;
  if (key == NULL)
    return fail (c, f, TTV_FORMAT_ERROR_INVALID, _("a clock class needs an “id”"));
  if (g_hash_table_contains (c->clocks, key))
    return fail (c, f, TTV_FORMAT_ERROR_INVALID, _("two clock classes have the id “%s”"), key);
  CtfClock *clock = g_new0 (CtfClock, 1);
  g_ptr_array_add (c->meta->clocks, clock);
  clock->name = g_strdup (name ? name : id);
  clock->description = g_strdup (ttv_ctf2_json_get_string (f, "description"));
  clock->freq = json_u64 (ttv_ctf2_json_get (f, "frequency"), 1000000000);
  const Ctf2Json *offset = ttv_ctf2_json_get (f, "offset-from-origin");
  if (offset == NULL)
    offset = ttv_ctf2_json_get (f, "offset");
  gint64 secs = 0;
  ttv_ctf2_json_int (ttv_ctf2_json_get (offset, "seconds"), &secs);
  clock->offset_s = secs;
  clock->offset = json_u64 (ttv_ctf2_json_get (offset, "cycles"), 0);
  const Ctf2Json *origin = ttv_ctf2_json_get (f, "origin");
  clock->absolute = origin && origin->kind == CTF2_JSON_STRING;
  g_hash_table_insert (c->clocks, (gpointer) key, clock);
  return TRUE;
}

static gboolean
do_stream_class (Conv *c, const Ctf2Json *f)
{
  guint64 id = json_u64 (ttv_ctf2_json_get (f, "id"), 0);
  if (ttv_ctf_meta_find_stream (c->meta, id))
    return fail (c, f, TTV_FORMAT_ERROR_INVALID, _("two data stream classes have the id %" PRIu64), id);
  CtfStreamClass *s = g_new0 (CtfStreamClass, 1);
  s->events = g_ptr_array_new ();
  s->id = id;
  s->has_id = TRUE;
  g_ptr_array_add (c->meta->streams, s);
  const Ctf2Json *clock = ttv_ctf2_json_get (f, "default-clock-class-id");
  if (clock == NULL)
    clock = ttv_ctf2_json_get (f, "default-clock-class-name");
  if (clock)
    {
      s->clock = g_hash_table_lookup (c->clocks, clock->v.s);
      if (s->clock == NULL)
        return fail (c, clock, TTV_FORMAT_ERROR_INVALID, _("no clock class “%s” is declared before"), clock->v.s);
    }
  c->stream = s;
  gboolean ok = convert_scope (c, f, "packet-context-field-class", SCOPE_PACKET_CONTEXT, &s->packet_context)
                && convert_scope (c, f, "event-record-header-field-class", SCOPE_EVENT_HEADER, &s->event_header)
                && convert_scope (c, f, "event-record-common-context-field-class", SCOPE_COMMON_CONTEXT,
                                  &s->event_context);
  c->stream = NULL;
  return ok;
}

static gint64
log_level (const Ctf2Json *f)
{
  const Ctf2Json *l = attribute (f, "lttng.org,2009", "log-level");
  if (l == NULL)
    l = attribute (f, "babeltrace.org,2020", "log-level");
  gint64 n;
  if (l && l->kind == CTF2_JSON_STRING)
    {
      for (guint i = 0; i < G_N_ELEMENTS (log_levels); i++)
        if (strcmp (l->v.s, log_levels[i]) == 0)
          return i;
    }
  else if (ttv_ctf2_json_int (l, &n) && n >= 0)
    return n;
  return -1;
}

static gboolean
do_event_class (Conv *c, const Ctf2Json *f)
{
  guint64 id = json_u64 (ttv_ctf2_json_get (f, "id"), 0);
  guint64 sid = json_u64 (ttv_ctf2_json_get (f, "data-stream-class-id"), 0);
  CtfStreamClass *s = ttv_ctf_meta_find_stream (c->meta, sid);
  if (s == NULL)
    return fail (c, f, TTV_FORMAT_ERROR_INVALID,
                 _("no data stream class %" PRIu64 " is declared before this event record class"), sid);
  for (guint i = 0; i < c->meta->events->len; i++)
    {
      const CtfEventClass *o = g_ptr_array_index (c->meta->events, i);
      if (o->id == id && o->stream_id == sid)
        return fail (c, f, TTV_FORMAT_ERROR_INVALID,
                     _("two event record classes have the id %" PRIu64 " in data stream class %" PRIu64),
                     id, sid);
    }
  CtfEventClass *e = g_new0 (CtfEventClass, 1);
  g_ptr_array_add (c->meta->events, e);
  e->name = g_strdup (ttv_ctf2_json_get_string (f, "name"));
  if (e->name == NULL)
    e->name = g_strdup_printf ("event-%" G_GUINT64_FORMAT, id);
  e->id = id;
  e->has_id = TRUE;
  e->stream_id = sid;
  e->has_stream_id = TRUE;
  e->loglevel = log_level (f);
  const Ctf2Json *uri = attribute (f, "lttng.org,2009", "emf-uri");
  if (uri && uri->kind == CTF2_JSON_STRING)
    e->emf_uri = g_strdup (uri->v.s);
  c->stream = s;
  gboolean ok = convert_scope (c, f, "specific-context-field-class", SCOPE_SPECIFIC_CONTEXT, &e->context)
                && convert_scope (c, f, "payload-field-class", SCOPE_PAYLOAD, &e->fields);
  c->stream = NULL;
  return ok;
}

static gboolean
do_alias (Conv *c, const Ctf2Json *f)
{
  const char *name = ttv_ctf2_json_get_string (f, "name");
  if (g_hash_table_contains (c->aliases, name))
    return fail (c, f, TTV_FORMAT_ERROR_INVALID, _("two field class aliases are named “%s”"), name);
  const Ctf2Json *fc = ttv_ctf2_json_get (f, "field-class");
  /* Converted once here so that its errors point at it; each use converts
   * it again (roles are checked where it is used). */
  g_autoptr (GHashTable) where = c->where;
  c->where = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  c->declaring_alias = TRUE;
  TtvType *t = convert_fc (c, fc, SCOPE_PAYLOAD);
  c->declaring_alias = FALSE;
  g_hash_table_unref (c->where);
  c->where = g_steal_pointer (&where);
  if (t == NULL)
    return FALSE;
  ttv_type_unref (t);
  g_hash_table_insert (c->aliases, (gpointer) name, (gpointer) fc);
  return TRUE;
}

static gboolean
do_fragment (Conv *c, const Ctf2Json *f, gboolean first)
{
  const char *type = ttv_ctf2_json_get_string (f, "type");
  if (first != (strcmp (type, "preamble") == 0))
    return fail (c, f, TTV_FORMAT_ERROR_INVALID,
                 first ? _("a CTF 2 metadata stream begins with a preamble fragment")
                       : _("a second preamble fragment"));
  if (strcmp (type, "preamble") == 0)
    return do_preamble (c, f);
  if (strcmp (type, "field-class-alias") == 0)
    return do_alias (c, f);
  if (strcmp (type, "trace-class") == 0)
    return do_trace_class (c, f);
  if (strcmp (type, "clock-class") == 0)
    return do_clock_class (c, f);
  if (strcmp (type, "data-stream-class") == 0)
    return do_stream_class (c, f);
  return do_event_class (c, f);
}

CtfMeta *
ttv_ctf2_parse (const char *text, gsize len, const char *path, gboolean whole_only, GError **error)
{
  if (len > CTF2_METADATA_MAX_BYTES)
    {
      g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_UNSUPPORTED,
                   _("%s: metadata of %zu bytes is larger than the %" PRIu64 " MiB ttv reads"),
                   path, len, CTF2_METADATA_MAX_BYTES >> 20);
      return NULL;
    }
  Conv c = { .path = path, .text = text };
  c.meta = ttv_ctf_meta_new ();
  c.meta->major = 2;
  c.meta->minor = 0;
  c.meta->path = g_strdup (path);
  c.fragments = g_ptr_array_new_with_free_func ((GDestroyNotify) ttv_ctf2_json_free);
  c.aliases = g_hash_table_new (g_str_hash, g_str_equal);
  c.clocks = g_hash_table_new (g_str_hash, g_str_equal);
  c.where = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  g_autoptr (GArray) records = ttv_ctf2_split_sequence (text, len);
  gboolean ok = TRUE;
  for (guint i = 0; ok && i < records->len; i++)
    {
      const Ctf2Record *r = &g_array_index (records, Ctf2Record, i);
      GError *local = NULL;
      Ctf2Json *f = ttv_ctf2_json_parse (text, r->offset, r->len, path, &local);
      /* Following a live trace, a last fragment may be half written. */
      if (f == NULL && whole_only && !r->ended && i == records->len - 1)
        {
          g_error_free (local);
          break;
        }
      if (f == NULL)
        {
          c.error = local;
          ok = FALSE;
          break;
        }
      g_ptr_array_add (c.fragments, f);
      ok = ttv_ctf2_validate_fragment (f, path, text, &c.error) && do_fragment (&c, f, i == 0);
    }
  if (ok && records->len == 0)
    {
      g_set_error (&c.error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_INVALID,
                   _("%s: the CTF 2 metadata stream holds no fragment"), path);
      ok = FALSE;
    }
  if (ok && c.meta->streams->len == 0)
    {
      g_set_error (&c.error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_INVALID,
                   _("%s: the CTF 2 metadata stream has no data stream class"), path);
      ok = FALSE;
    }
  if (ok)
    {
      ttv_ctf_meta_finish (c.meta);
      ok = ttv_ctf_resolve_refs (c.meta, c.where, &c.error);
    }
  g_hash_table_unref (c.aliases);
  g_hash_table_unref (c.clocks);
  g_hash_table_unref (c.where);
  g_ptr_array_unref (c.fragments);
  if (!ok)
    {
      g_propagate_error (error, c.error);
      ttv_ctf_meta_free (c.meta);
      return NULL;
    }
  return c.meta;
}
