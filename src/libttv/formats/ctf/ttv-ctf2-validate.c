/* ttv-ctf2-validate.c: the CTF 2 metadata reader's validation pass: every
 * fragment and field class is checked against CTF2-SPEC-2.0 (property
 * names, JSON types, allowed values) before the conversion trusts it.
 * The late-draft names of the ctf2/ test traces are accepted too. */
#include "ttv-ctf2-private.h"
#include "ttv-error.h"

#include <glib/gi18n-lib.h>
#include <string.h>

/* JSON kinds a property may have. */
enum {
  K_NULL = 1 << CTF2_JSON_NULL,
  K_BOOL = 1 << CTF2_JSON_BOOL,
  K_INT = 1 << CTF2_JSON_INT,
  K_REAL = 1 << CTF2_JSON_REAL,
  K_STR = 1 << CTF2_JSON_STRING,
  K_ARR = 1 << CTF2_JSON_ARRAY,
  K_OBJ = 1 << CTF2_JSON_OBJECT,
};

/* What a property's value must be beyond its JSON kind. */
typedef enum {
  C_ANY,
  C_POSITIVE,        /* integer > 0 */
  C_NON_NEGATIVE,    /* integer >= 0 */
  C_POWER_OF_TWO,    /* integer, a positive power of two */
  C_BYTE_ORDER,
  C_BIT_ORDER,
  C_ENCODING,
  C_BASE,
  C_ROLES,
  C_MAPPINGS,
  C_FLAGS,
  C_FIELD_CLASS,     /* a field class object or the name of an alias */
  C_MEMBERS,
  C_OPTIONS,
  C_LOCATION,
  C_RANGES,
  C_UUID,
  C_ORIGIN,
  C_OFFSET,
  C_ENVIRONMENT,
  C_VERSION,
} Check;

typedef struct {
  const char *name;
  guint kinds;
  gboolean required;
  Check check;
} Prop;

typedef struct {
  const char *type;
  const Prop *props;
  const Prop *more;          /* a second list (shared properties), may be NULL */
} Schema;

typedef struct {
  const char *path;
  const char *text;
  GError *error;
} Validator;

#define END { NULL, 0, FALSE, C_ANY }

/* Every object may carry attributes (draft: user-attributes) and extensions. */
static const Prop common_props[] = {
  { "attributes", K_OBJ, FALSE, C_ANY },
  { "user-attributes", K_OBJ, FALSE, C_ANY },
  { "extensions", K_OBJ, FALSE, C_ANY },
  END
};

static const Prop bit_array_props[] = {
  { "length", K_INT, TRUE, C_POSITIVE },
  { "byte-order", K_STR, TRUE, C_BYTE_ORDER },
  { "bit-order", K_STR, FALSE, C_BIT_ORDER },
  { "alignment", K_INT, FALSE, C_POWER_OF_TWO },
  { "attributes", K_OBJ, FALSE, C_ANY },
  { "user-attributes", K_OBJ, FALSE, C_ANY },
  { "extensions", K_OBJ, FALSE, C_ANY },
  END
};

static const Prop bit_map_props[] = {
  { "flags", K_OBJ, TRUE, C_FLAGS },
  END
};

static const Prop fixed_int_props[] = {
  { "preferred-display-base", K_INT, FALSE, C_BASE },
  { "mappings", K_OBJ, FALSE, C_MAPPINGS },
  { "roles", K_ARR, FALSE, C_ROLES },
  END
};

static const Prop fixed_enum_props[] = {
  { "preferred-display-base", K_INT, FALSE, C_BASE },
  { "mappings", K_OBJ, TRUE, C_MAPPINGS },
  { "roles", K_ARR, FALSE, C_ROLES },
  END
};

static const Prop var_int_props[] = {
  { "preferred-display-base", K_INT, FALSE, C_BASE },
  { "mappings", K_OBJ, FALSE, C_MAPPINGS },
  { "roles", K_ARR, FALSE, C_ROLES },
  END
};

static const Prop var_enum_props[] = {
  { "preferred-display-base", K_INT, FALSE, C_BASE },
  { "mappings", K_OBJ, TRUE, C_MAPPINGS },
  { "roles", K_ARR, FALSE, C_ROLES },
  END
};

static const Prop nt_string_props[] = {
  { "encoding", K_STR, FALSE, C_ENCODING },
  END
};

static const Prop sl_string_props[] = {
  { "length", K_INT, TRUE, C_NON_NEGATIVE },
  { "encoding", K_STR, FALSE, C_ENCODING },
  END
};

static const Prop dl_string_props[] = {
  { "length-field-location", K_OBJ | K_ARR, TRUE, C_LOCATION },
  { "encoding", K_STR, FALSE, C_ENCODING },
  END
};

static const Prop sl_blob_props[] = {
  { "length", K_INT, TRUE, C_NON_NEGATIVE },
  { "media-type", K_STR, FALSE, C_ANY },
  { "roles", K_ARR, FALSE, C_ROLES },
  END
};

static const Prop dl_blob_props[] = {
  { "length-field-location", K_OBJ | K_ARR, TRUE, C_LOCATION },
  { "media-type", K_STR, FALSE, C_ANY },
  END
};

static const Prop struct_props[] = {
  { "member-classes", K_ARR, FALSE, C_MEMBERS },
  { "minimum-alignment", K_INT, FALSE, C_POWER_OF_TWO },
  END
};

static const Prop sl_array_props[] = {
  { "element-field-class", K_OBJ | K_STR, TRUE, C_FIELD_CLASS },
  { "length", K_INT, TRUE, C_NON_NEGATIVE },
  { "minimum-alignment", K_INT, FALSE, C_POWER_OF_TWO },
  END
};

static const Prop dl_array_props[] = {
  { "element-field-class", K_OBJ | K_STR, TRUE, C_FIELD_CLASS },
  { "length-field-location", K_OBJ | K_ARR, TRUE, C_LOCATION },
  { "minimum-alignment", K_INT, FALSE, C_POWER_OF_TWO },
  END
};

static const Prop optional_props[] = {
  { "field-class", K_OBJ | K_STR, TRUE, C_FIELD_CLASS },
  { "selector-field-location", K_OBJ | K_ARR, TRUE, C_LOCATION },
  { "selector-field-ranges", K_ARR, FALSE, C_RANGES },
  END
};

static const Prop variant_props[] = {
  { "options", K_ARR, TRUE, C_OPTIONS },
  { "selector-field-location", K_OBJ | K_ARR, TRUE, C_LOCATION },
  END
};

/* The field classes, with the late-draft enumeration type names. */
static const Schema field_classes[] = {
  { "fixed-length-bit-array", bit_array_props, NULL },
  { "fixed-length-bit-map", bit_array_props, bit_map_props },
  { "fixed-length-boolean", bit_array_props, NULL },
  { "fixed-length-unsigned-integer", bit_array_props, fixed_int_props },
  { "fixed-length-signed-integer", bit_array_props, fixed_int_props },
  { "fixed-length-unsigned-enumeration", bit_array_props, fixed_enum_props },
  { "fixed-length-signed-enumeration", bit_array_props, fixed_enum_props },
  { "fixed-length-floating-point-number", bit_array_props, NULL },
  { "variable-length-unsigned-integer", common_props, var_int_props },
  { "variable-length-signed-integer", common_props, var_int_props },
  { "variable-length-unsigned-enumeration", common_props, var_enum_props },
  { "variable-length-signed-enumeration", common_props, var_enum_props },
  { "null-terminated-string", common_props, nt_string_props },
  { "static-length-string", common_props, sl_string_props },
  { "dynamic-length-string", common_props, dl_string_props },
  { "static-length-blob", common_props, sl_blob_props },
  { "dynamic-length-blob", common_props, dl_blob_props },
  { "structure", common_props, struct_props },
  { "static-length-array", common_props, sl_array_props },
  { "dynamic-length-array", common_props, dl_array_props },
  { "optional", common_props, optional_props },
  { "variant", common_props, variant_props },
};

static const Prop preamble_props[] = {
  { "version", K_INT, TRUE, C_VERSION },
  { "uuid", K_ARR, FALSE, C_UUID },
  END
};

static const Prop alias_props[] = {
  { "name", K_STR, TRUE, C_ANY },
  { "field-class", K_OBJ | K_STR, TRUE, C_FIELD_CLASS },
  END
};

static const Prop trace_class_props[] = {
  { "namespace", K_STR, FALSE, C_ANY },
  { "name", K_STR, FALSE, C_ANY },
  { "uid", K_STR, FALSE, C_ANY },
  { "environment", K_OBJ, FALSE, C_ENVIRONMENT },
  { "packet-header-field-class", K_OBJ | K_STR, FALSE, C_FIELD_CLASS },
  END
};

/* A clock class has an id (final) or a name (late draft: the name is what
 * a data stream class names it by): checked by the conversion. */
static const Prop clock_class_props[] = {
  { "id", K_STR, FALSE, C_ANY },
  { "namespace", K_STR, FALSE, C_ANY },
  { "name", K_STR, FALSE, C_ANY },
  { "uid", K_STR, FALSE, C_ANY },
  { "frequency", K_INT, TRUE, C_POSITIVE },
  { "origin", K_STR | K_OBJ, FALSE, C_ORIGIN },
  { "offset-from-origin", K_OBJ, FALSE, C_OFFSET },
  { "offset", K_OBJ, FALSE, C_OFFSET },
  { "precision", K_INT, FALSE, C_NON_NEGATIVE },
  { "accuracy", K_INT, FALSE, C_NON_NEGATIVE },
  { "description", K_STR, FALSE, C_ANY },
  END
};

static const Prop data_stream_class_props[] = {
  { "id", K_INT, FALSE, C_NON_NEGATIVE },
  { "namespace", K_STR, FALSE, C_ANY },
  { "name", K_STR, FALSE, C_ANY },
  { "uid", K_STR, FALSE, C_ANY },
  { "default-clock-class-id", K_STR, FALSE, C_ANY },
  { "default-clock-class-name", K_STR, FALSE, C_ANY },
  { "packet-context-field-class", K_OBJ | K_STR, FALSE, C_FIELD_CLASS },
  { "event-record-header-field-class", K_OBJ | K_STR, FALSE, C_FIELD_CLASS },
  { "event-record-common-context-field-class", K_OBJ | K_STR, FALSE, C_FIELD_CLASS },
  END
};

static const Prop event_record_class_props[] = {
  { "id", K_INT, FALSE, C_NON_NEGATIVE },
  { "data-stream-class-id", K_INT, FALSE, C_NON_NEGATIVE },
  { "namespace", K_STR, FALSE, C_ANY },
  { "name", K_STR, FALSE, C_ANY },
  { "uid", K_STR, FALSE, C_ANY },
  { "specific-context-field-class", K_OBJ | K_STR, FALSE, C_FIELD_CLASS },
  { "payload-field-class", K_OBJ | K_STR, FALSE, C_FIELD_CLASS },
  END
};

static const Schema fragments[] = {
  { "preamble", common_props, preamble_props },
  { "field-class-alias", common_props, alias_props },
  { "trace-class", common_props, trace_class_props },
  { "clock-class", common_props, clock_class_props },
  { "data-stream-class", common_props, data_stream_class_props },
  { "event-record-class", common_props, event_record_class_props },
};

static const char *const roles[] = {
  "packet-magic-number", "metadata-stream-uuid", "data-stream-class-id", "data-stream-id",
  "packet-total-length", "packet-content-length", "default-clock-timestamp",
  "packet-end-default-clock-timestamp", "discarded-event-record-counter-snapshot",
  "packet-sequence-number", "event-record-class-id", NULL,
};

static const char *const origins[] = {
  "packet-header", "packet-context", "event-record-header", "event-record-common-context",
  "event-record-specific-context", "event-record-payload", NULL,
};

static gboolean
fail (Validator *v, const Ctf2Json *at, const char *format, ...) G_GNUC_PRINTF (3, 4);

static gboolean
fail (Validator *v, const Ctf2Json *at, const char *format, ...)
{
  va_list ap;
  va_start (ap, format);
  ttv_ctf2_set_error_va (&v->error, TTV_FORMAT_ERROR_INVALID, v->path, v->text, at->offset, format, ap);
  va_end (ap);
  return FALSE;
}

static gboolean
one_of (const char *s, const char *const *allowed)
{
  for (guint i = 0; allowed[i]; i++)
    if (strcmp (s, allowed[i]) == 0)
      return TRUE;
  return FALSE;
}

static gboolean check_field_class (Validator *v, const Ctf2Json *fc);

/* Integer ranges: a non-empty array of [lower, upper], lower <= upper. */
static gboolean
check_ranges (Validator *v, const Ctf2Json *r, const char *what)
{
  if (r->kind != CTF2_JSON_ARRAY || r->v.a.n == 0)
    return fail (v, r, _("%s must be a non-empty array of integer ranges"), what);
  for (guint i = 0; i < r->v.a.n; i++)
    {
      const Ctf2Json *p = r->v.a.items[i];
      if (p->kind != CTF2_JSON_ARRAY || p->v.a.n != 2 || p->v.a.items[0]->kind != CTF2_JSON_INT
          || p->v.a.items[1]->kind != CTF2_JSON_INT)
        return fail (v, p, _("an integer range of %s must be [lower, upper]"), what);
      const Ctf2Json *lo = p->v.a.items[0], *hi = p->v.a.items[1];
      gboolean ordered;
      if (lo->v.i.negative != hi->v.i.negative)
        ordered = lo->v.i.negative;
      else if (lo->v.i.negative)
        ordered = lo->v.i.magnitude >= hi->v.i.magnitude;
      else
        ordered = lo->v.i.magnitude <= hi->v.i.magnitude;
      if (!ordered)
        return fail (v, p, _("an integer range of %s ends before it begins"), what);
    }
  return TRUE;
}

static gboolean
check_location (Validator *v, const Ctf2Json *loc)
{
  const Ctf2Json *path = loc;
  if (loc->kind == CTF2_JSON_OBJECT)
    {
      const Ctf2Json *origin = ttv_ctf2_json_get (loc, "origin");
      path = ttv_ctf2_json_get (loc, "path");
      if (origin && (origin->kind != CTF2_JSON_STRING || !one_of (origin->v.s, origins)))
        return fail (v, origin, _("unknown field location origin"));
      if (path == NULL)
        return fail (v, loc, _("a field location needs a “path”"));
    }
  if (path->kind != CTF2_JSON_ARRAY || path->v.a.n == 0)
    return fail (v, path, _("a field location path must be a non-empty array"));
  for (guint i = 0; i < path->v.a.n; i++)
    {
      const Ctf2Json *e = path->v.a.items[i];
      if (e->kind != CTF2_JSON_STRING && e->kind != CTF2_JSON_NULL)
        return fail (v, e, _("a field location path holds member names and nulls only"));
    }
  if (path->v.a.items[path->v.a.n - 1]->kind != CTF2_JSON_STRING)
    return fail (v, path, _("a field location path must end with a member name"));
  return TRUE;
}

static gboolean
check_value (Validator *v, const Prop *prop, const Ctf2Json *val)
{
  guint64 u;
  switch (prop->check)
    {
    case C_ANY:
      return TRUE;
    case C_POSITIVE:
      if (!ttv_ctf2_json_uint (val, &u) || u == 0)
        return fail (v, val, _("“%s” must be a positive integer"), prop->name);
      return TRUE;
    case C_NON_NEGATIVE:
      if (!ttv_ctf2_json_uint (val, &u))
        return fail (v, val, _("“%s” must be a non-negative integer"), prop->name);
      return TRUE;
    case C_POWER_OF_TWO:
      if (!ttv_ctf2_json_uint (val, &u) || u == 0 || (u & (u - 1)))
        return fail (v, val, _("“%s” must be a positive power of two"), prop->name);
      return TRUE;
    case C_VERSION:
      if (!ttv_ctf2_json_uint (val, &u) || u != 2)
        return fail (v, val, _("this is not a CTF 2 metadata stream (preamble version is not 2)"));
      return TRUE;
    case C_BYTE_ORDER:
      {
        static const char *const orders[] = { "big-endian", "little-endian", "be", "le", NULL };
        return one_of (val->v.s, orders) || fail (v, val, _("unknown byte order “%s”"), val->v.s);
      }
    case C_BIT_ORDER:
      {
        static const char *const orders[] = { "first-to-last", "last-to-first", NULL };
        return one_of (val->v.s, orders) || fail (v, val, _("unknown bit order “%s”"), val->v.s);
      }
    case C_ENCODING:
      {
        static const char *const encodings[] = { "utf-8", "utf-16be", "utf-16le", "utf-32be", "utf-32le", NULL };
        return one_of (val->v.s, encodings) || fail (v, val, _("unknown string encoding “%s”"), val->v.s);
      }
    case C_BASE:
      if (!ttv_ctf2_json_uint (val, &u) || (u != 2 && u != 8 && u != 10 && u != 16))
        return fail (v, val, _("“%s” must be 2, 8, 10 or 16"), prop->name);
      return TRUE;
    case C_ROLES:
      for (guint i = 0; i < val->v.a.n; i++)
        {
          const Ctf2Json *r = val->v.a.items[i];
          if (r->kind != CTF2_JSON_STRING || !one_of (r->v.s, roles))
            return fail (v, r, _("unknown role"));
        }
      return TRUE;
    case C_MAPPINGS:
    case C_FLAGS:
      if (prop->check == C_FLAGS && val->v.o.n == 0)
        return fail (v, val, _("a bit map needs at least one flag"));
      for (guint i = 0; i < val->v.o.n; i++)
        if (!check_ranges (v, val->v.o.values[i], val->v.o.keys[i]))
          return FALSE;
      return TRUE;
    case C_FIELD_CLASS:
      return val->kind == CTF2_JSON_STRING || check_field_class (v, val);
    case C_MEMBERS:
      for (guint i = 0; i < val->v.a.n; i++)
        {
          const Ctf2Json *m = val->v.a.items[i];
          const Ctf2Json *fc = ttv_ctf2_json_get (m, "field-class");
          if (m->kind != CTF2_JSON_OBJECT || !ttv_ctf2_json_get_string (m, "name") || fc == NULL)
            return fail (v, m, _("a structure member needs a “name” and a “field-class”"));
          if (fc->kind != CTF2_JSON_STRING && !check_field_class (v, fc))
            return FALSE;
        }
      return TRUE;
    case C_OPTIONS:
      if (val->v.a.n == 0)
        return fail (v, val, _("a variant needs at least one option"));
      for (guint i = 0; i < val->v.a.n; i++)
        {
          const Ctf2Json *o = val->v.a.items[i];
          const Ctf2Json *fc = ttv_ctf2_json_get (o, "field-class");
          const Ctf2Json *ranges = ttv_ctf2_json_get (o, "selector-field-ranges");
          const Ctf2Json *name = ttv_ctf2_json_get (o, "name");
          if (o->kind != CTF2_JSON_OBJECT || fc == NULL || ranges == NULL)
            return fail (v, o, _("a variant option needs a “field-class” and “selector-field-ranges”"));
          if (name && name->kind != CTF2_JSON_STRING)
            return fail (v, name, _("“%s” must be a string"), "name");
          if (!check_ranges (v, ranges, "selector-field-ranges"))
            return FALSE;
          if (fc->kind != CTF2_JSON_STRING && !check_field_class (v, fc))
            return FALSE;
        }
      return TRUE;
    case C_LOCATION:
      return check_location (v, val);
    case C_RANGES:
      return check_ranges (v, val, prop->name);
    case C_UUID:
      if (val->v.a.n != 16)
        return fail (v, val, _("a UUID is 16 integers"));
      for (guint i = 0; i < 16; i++)
        if (!ttv_ctf2_json_uint (val->v.a.items[i], &u) || u > 255)
          return fail (v, val->v.a.items[i], _("a UUID is 16 integers from 0 to 255"));
      return TRUE;
    case C_ORIGIN:
      if (val->kind == CTF2_JSON_STRING && strcmp (val->v.s, "unix-epoch") != 0)
        return fail (v, val, _("a clock origin is “unix-epoch” or an object"));
      if (val->kind == CTF2_JSON_OBJECT
          && (!ttv_ctf2_json_get_string (val, "name") || !ttv_ctf2_json_get_string (val, "uid")))
        return fail (v, val, _("a clock origin object needs a “name” and a “uid”"));
      return TRUE;
    case C_OFFSET:
      {
        gint64 s;
        const Ctf2Json *secs = ttv_ctf2_json_get (val, "seconds");
        const Ctf2Json *cycles = ttv_ctf2_json_get (val, "cycles");
        if (secs && !ttv_ctf2_json_int (secs, &s))
          return fail (v, secs, _("“%s” must be a 64-bit signed integer"), "seconds");
        if (cycles && !ttv_ctf2_json_uint (cycles, &u))
          return fail (v, cycles, _("“%s” must be a non-negative integer"), "cycles");
        return TRUE;
      }
    case C_ENVIRONMENT:
      for (guint i = 0; i < val->v.o.n; i++)
        {
          gint64 s;
          const Ctf2Json *e = val->v.o.values[i];
          if (e->kind != CTF2_JSON_STRING && !ttv_ctf2_json_int (e, &s))
            return fail (v, e, _("an environment entry is a string or a 64-bit signed integer"));
        }
      return TRUE;
    }
  return TRUE;
}

static const Prop *
find_prop (const Schema *s, const char *name)
{
  for (const Prop *p = s->props; p->name; p++)
    if (strcmp (p->name, name) == 0)
      return p;
  for (const Prop *p = s->more; p && p->name; p++)
    if (strcmp (p->name, name) == 0)
      return p;
  return NULL;
}

static gboolean
check_required (Validator *v, const Schema *s, const Prop *props, const Ctf2Json *obj)
{
  for (const Prop *p = props; p && p->name; p++)
    if (p->required && ttv_ctf2_json_get (obj, p->name) == NULL)
      return fail (v, obj, _("“%s” needs the property “%s”"), s->type, p->name);
  return TRUE;
}

/* Properties this reader does not know are ignored (later revisions may
 * add some); known ones must be right. */
static gboolean
check_object (Validator *v, const Schema *s, const Ctf2Json *obj)
{
  if (!check_required (v, s, s->props, obj) || !check_required (v, s, s->more, obj))
    return FALSE;
  for (guint i = 0; i < obj->v.o.n; i++)
    {
      const Prop *p = find_prop (s, obj->v.o.keys[i]);
      const Ctf2Json *val = obj->v.o.values[i];
      if (p == NULL)
        continue;
      if (!(p->kinds & (1u << val->kind)))
        return fail (v, val, _("the property “%s” of “%s” has the wrong JSON type"), p->name, s->type);
      if (!check_value (v, p, val))
        return FALSE;
    }
  return TRUE;
}

static gboolean
check_field_class (Validator *v, const Ctf2Json *fc)
{
  if (fc->kind != CTF2_JSON_OBJECT)
    return fail (v, fc, _("a field class must be an object"));
  const char *type = ttv_ctf2_json_get_string (fc, "type");
  if (type == NULL)
    return fail (v, fc, _("a field class needs a string “type”"));
  for (guint i = 0; i < G_N_ELEMENTS (field_classes); i++)
    if (strcmp (field_classes[i].type, type) == 0)
      return check_object (v, &field_classes[i], fc);
  return fail (v, fc, _("unknown field class type “%s”"), type);
}

gboolean
ttv_ctf2_validate_fragment (const Ctf2Json *fragment, const char *path, const char *text, GError **error)
{
  Validator v = { path, text, NULL };
  gboolean ok = FALSE;
  if (fragment->kind != CTF2_JSON_OBJECT)
    fail (&v, fragment, _("a fragment must be a JSON object"));
  else
    {
      const char *type = ttv_ctf2_json_get_string (fragment, "type");
      if (type == NULL)
        fail (&v, fragment, _("a fragment needs a string “type”"));
      else
        {
          guint i;
          for (i = 0; i < G_N_ELEMENTS (fragments); i++)
            if (strcmp (fragments[i].type, type) == 0)
              break;
          if (i == G_N_ELEMENTS (fragments))
            fail (&v, fragment, _("unknown fragment type “%s”"), type);
          else
            ok = check_object (&v, &fragments[i], fragment);
        }
    }
  if (!ok)
    g_propagate_error (error, v.error);
  return ok;
}
