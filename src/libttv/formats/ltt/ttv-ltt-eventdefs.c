/* ttv-ltt-eventdefs.c: eventdefs/NAME.xml (facilities, events, named types) to
 * the common type system, sizes resolved for the traced arch.  Reader and writer. */
#include "ttv-ltt-private.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#define MAX_DEPTH 32
#define MAX_ARRAY_LENGTH (1u << 24)

typedef struct {
  const char *file;
  const TtvLttSystem *sys;
  GHashTable *named;        /* name -> xmlNode <type> (weak) */
  GHashTable *done;         /* name -> TtvType (owned ref) */
  GHashTable *busy;         /* names being converted (cycle guard) */
} Ctx;

void
ttv_ltt_facility_free (TtvLttFacility *f)
{
  if (f == NULL)
    return;
  for (guint i = 0; f->events && i < f->events->len; i++)
    {
      TtvLttEventDef *e = g_ptr_array_index (f->events, i);
      g_free (e->name);
      g_free (e->description);
      if (e->fields)
        ttv_type_unref (e->fields);
      g_free (e);
    }
  if (f->events)
    g_ptr_array_unref (f->events);
  if (f->event_types)
    g_ptr_array_unref (f->event_types);
  g_free (f->name);
  g_free (f->description);
  g_free (f->file);
  g_free (f);
}

static gboolean
fail (GError **error, const Ctx *c, xmlNode *node, const char *format, ...) G_GNUC_PRINTF (4, 5);

static gboolean
fail (GError **error, const Ctx *c, xmlNode *node, const char *format, ...)
{
  va_list ap;
  va_start (ap, format);
  g_autofree char *msg = g_strdup_vprintf (format, ap);
  va_end (ap);
  g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_INVALID, "%s:%ld: %s", c->file,
               node ? xmlGetLineNo (node) : 0, msg);
  return FALSE;
}

static gboolean
is_element (xmlNode *n, const char *name)
{
  return n->type == XML_ELEMENT_NODE && strcmp ((const char *) n->name, name) == 0;
}

/* Text of the <description> child, or NULL. */
static char *
description_of (xmlNode *node)
{
  for (xmlNode *c = node->children; c; c = c->next)
    if (is_element (c, "description"))
      {
        xmlChar *t = xmlNodeGetContent (c);
        char *s = t ? g_strstrip (g_strdup ((const char *) t)) : NULL;
        xmlFree (t);
        return s;
      }
  return NULL;
}

/* The type element inside an <event>, <type> or <field>: the first element
 * that is not a <description>. */
static xmlNode *
type_child (xmlNode *node)
{
  for (xmlNode *c = node->children; c; c = c->next)
    if (c->type == XML_ELEMENT_NODE && !is_element (c, "description"))
      return c;
  return NULL;
}

/* isize: short, medium, long, 1, 2, 4, 8; fills bits and the native kind. */
static gboolean
parse_size (const Ctx *c, xmlNode *node, const char *attr, gboolean is_float, guint *bits,
            TtvNativeSize *native, GError **error)
{
  g_autofree char *v = ttv_ltt_xml_attr (node, attr);
  *native = TTV_NATIVE_NONE;
  if (v == NULL)
    return fail (error, c, node, _("<%s> needs a %s attribute"), (const char *) node->name, attr);
  g_strstrip (v);
  if (strcmp (v, "short") == 0 && !is_float)
    *native = TTV_NATIVE_SHORT, *bits = c->sys->short_bits;
  else if (strcmp (v, "medium") == 0)
    *native = TTV_NATIVE_INT, *bits = c->sys->int_bits;
  else if (strcmp (v, "long") == 0)
    *native = TTV_NATIVE_LONG, *bits = c->sys->long_bits;
  else if (strcmp (v, "1") == 0 && !is_float)
    *bits = 8;
  else if (strcmp (v, "2") == 0 && !is_float)
    *bits = 16;
  else if (strcmp (v, "4") == 0)
    *bits = 32;
  else if (strcmp (v, "8") == 0)
    *bits = 64;
  else
    return fail (error, c, node, _("%s=“%s” is not %s"), attr, v,
                 is_float ? _("medium, long, 4 or 8") : _("short, medium, long, 1, 2, 4 or 8"));
  if (is_float && *bits != 32 && *bits != 64)
    return fail (error, c, node, _("a float of %s size is %u bits on %s; only 32 and 64 are supported"),
                 v, *bits, ttv_ltt_arch_name (c->sys->arch));
  return TRUE;
}

static TtvType *
new_uint (const Ctx *c, guint bits, TtvNativeSize native, gboolean is_signed)
{
  TtvType *t = ttv_type_new_integer (bits, is_signed, c->sys->byte_order, bits);
  t->native_size = native;
  return t;
}

static TtvType *convert (Ctx *c, xmlNode *node, guint depth, GError **error);

static TtvType *
convert_fields (Ctx *c, xmlNode *node, TtvType *compound, guint depth, GError **error)
{
  g_autoptr (TtvType) owned = compound;
  for (xmlNode *f = node->children; f; f = f->next)
    {
      if (f->type != XML_ELEMENT_NODE || is_element (f, "description"))
        continue;
      if (!is_element (f, "field"))
        {
          fail (error, c, f, _("<%s> inside <%s>: expected <field>"), (const char *) f->name,
                (const char *) node->name);
          return NULL;
        }
      g_autofree char *name = ttv_ltt_xml_attr (f, "name");
      if (name == NULL || *name == '\0')
        {
          fail (error, c, f, _("<field> needs a name attribute"));
          return NULL;
        }
      xmlNode *tn = type_child (f);
      if (tn == NULL)
        {
          fail (error, c, f, _("field “%s” has no type"), name);
          return NULL;
        }
      TtvType *ft = convert (c, tn, depth + 1, error);
      if (ft == NULL)
        return NULL;
      g_autofree char *desc = description_of (f);
      ttv_type_add_field (owned, name, ft, desc);
    }
  return g_steal_pointer (&owned);
}

static TtvType *
convert (Ctx *c, xmlNode *node, guint depth, GError **error)
{
  if (depth > MAX_DEPTH)
    {
      fail (error, c, node, _("types nested more than %u deep"), MAX_DEPTH);
      return NULL;
    }
  const char *kind = (const char *) node->name;
  guint bits = 0;
  TtvNativeSize native;
  TtvType *t = NULL;

  if (strcmp (kind, "int") == 0 || strcmp (kind, "uint") == 0)
    {
      if (!parse_size (c, node, "size", FALSE, &bits, &native, error))
        return NULL;
      t = new_uint (c, bits, native, kind[0] == 'i');
    }
  else if (strcmp (kind, "float") == 0)
    {
      if (!parse_size (c, node, "size", TRUE, &bits, &native, error))
        return NULL;
      t = ttv_type_new_float (bits, c->sys->byte_order, bits);
    }
  else if (strcmp (kind, "string") == 0)
    t = ttv_type_new_string ();
  else if (strcmp (kind, "enum") == 0)
    {
      if (!parse_size (c, node, "size", FALSE, &bits, &native, error))
        return NULL;
      t = ttv_type_new_enum (new_uint (c, bits, native, FALSE));
      t->native_size = native;
      xmlChar *text = xmlNodeGetContent (node);
      g_auto (GStrv) words = g_strsplit_set (text ? (const char *) text : "", " \t\r\n", -1);
      xmlFree (text);
      guint64 value = 0;
      for (char **w = words; *w; w++)
        if (**w)
          {
            ttv_type_add_mapping (t, *w, value, value);
            value++;
          }
    }
  else if (strcmp (kind, "array") == 0 || strcmp (kind, "sequence") == 0)
    {
      gboolean is_array = kind[0] == 'a';
      guint64 length = 0;
      TtvType *prefix = NULL;
      if (is_array)
        {
          g_autofree char *n = ttv_ltt_xml_attr (node, "size");
          if (n == NULL || !g_ascii_string_to_unsigned (g_strstrip (n), 10, 0, MAX_ARRAY_LENGTH,
                                                        &length, NULL))
            {
              fail (error, c, node, _("<array> needs size=N (0 to %u)"), MAX_ARRAY_LENGTH);
              return NULL;
            }
        }
      else
        {
          if (!parse_size (c, node, "lengthsize", FALSE, &bits, &native, error))
            return NULL;
          prefix = new_uint (c, bits, native, FALSE);
        }
      xmlNode *en = type_child (node);
      if (en == NULL)
        {
          if (prefix)
            ttv_type_unref (prefix);
          fail (error, c, node, _("<%s> has no element type"), kind);
          return NULL;
        }
      TtvType *elem = convert (c, en, depth + 1, error);
      if (elem == NULL)
        {
          if (prefix)
            ttv_type_unref (prefix);
          return NULL;
        }
      t = is_array ? ttv_type_new_array (elem, length) : ttv_type_new_sequence_prefixed (elem, prefix);
    }
  else if (strcmp (kind, "struct") == 0)
    t = convert_fields (c, node, ttv_type_new_struct (), depth, error);
  else if (strcmp (kind, "union") == 0)
    {
      if (!parse_size (c, node, "typecodesize", FALSE, &bits, &native, error))
        return NULL;
      t = convert_fields (c, node, ttv_type_new_variant_prefixed (new_uint (c, bits, native, FALSE)),
                          depth, error);
      if (t && t->fields->len == 0)
        {
          ttv_type_unref (t);
          fail (error, c, node, _("<union> has no field"));
          return NULL;
        }
    }
  else if (strcmp (kind, "typeref") == 0)
    {
      g_autofree char *name = ttv_ltt_xml_attr (node, "name");
      TtvType *done = name ? g_hash_table_lookup (c->done, name) : NULL;
      if (done)
        return ttv_type_ref (done);
      xmlNode *def = name ? g_hash_table_lookup (c->named, name) : NULL;
      if (def == NULL)
        {
          fail (error, c, node, _("<typeref name=“%s”> names no <type> of this facility"),
                name ? name : "");
          return NULL;
        }
      if (g_hash_table_contains (c->busy, name))
        {
          fail (error, c, node, _("type “%s” refers to itself"), name);
          return NULL;
        }
      xmlNode *tn = type_child (def);
      if (tn == NULL)
        {
          fail (error, c, def, _("<type name=“%s”> is empty"), name);
          return NULL;
        }
      g_hash_table_add (c->busy, g_strdup (name));
      t = convert (c, tn, depth + 1, error);
      g_hash_table_remove (c->busy, name);
      if (t == NULL)
        return NULL;
      g_free (t->name);
      t->name = g_strdup (name);
      if (t->description == NULL)
        t->description = description_of (def);
      g_hash_table_insert (c->done, g_strdup (name), ttv_type_ref (t));
      return t;
    }
  else
    {
      fail (error, c, node, _("unknown type element <%s>"), kind);
      return NULL;
    }
  if (t == NULL)
    return NULL;
  g_autofree char *format = ttv_ltt_xml_attr (node, "format");
  if (format)
    t->format = g_steal_pointer (&format);
  return t;
}

static gboolean
parse_facility (xmlNode *fnode, const char *file, const TtvLttSystem *sys, GPtrArray *out,
                GError **error)
{
  Ctx c = { file, sys, g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL),
            g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) ttv_type_unref),
            g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL) };
  TtvLttFacility *f = g_new0 (TtvLttFacility, 1);
  f->events = g_ptr_array_new ();
  f->file = g_strdup (file);
  f->name = ttv_ltt_xml_attr (fnode, "name");
  f->description = description_of (fnode);
  gboolean ok = TRUE;
  if (f->name == NULL || *f->name == '\0')
    ok = fail (error, &c, fnode, _("<facility> needs a name attribute"));

  for (xmlNode *n = fnode->children; ok && n; n = n->next)
    if (is_element (n, "type"))
      {
        xmlChar *name = xmlGetProp (n, (const xmlChar *) "name");
        if (name == NULL)
          ok = fail (error, &c, n, _("<type> needs a name attribute"));
        else
          g_hash_table_insert (c.named, g_strdup ((const char *) name), n);
        xmlFree (name);
      }
  for (xmlNode *n = fnode->children; ok && n; n = n->next)
    {
      if (n->type != XML_ELEMENT_NODE || is_element (n, "type") || is_element (n, "description"))
        continue;
      if (!is_element (n, "event"))
        {
          ok = fail (error, &c, n, _("<%s> inside <facility>: expected <event>, <type> or <description>"),
                     (const char *) n->name);
          break;
        }
      TtvLttEventDef *e = g_new0 (TtvLttEventDef, 1);
      g_ptr_array_add (f->events, e);
      e->name = ttv_ltt_xml_attr (n, "name");
      e->description = description_of (n);
      if (e->name == NULL || *e->name == '\0')
        {
          ok = fail (error, &c, n, _("<event> needs a name attribute"));
          break;
        }
      xmlNode *tn = type_child (n);
      if (tn == NULL)
        e->fields = ttv_type_new_struct ();
      else
        {
          TtvType *t = convert (&c, tn, 0, error);
          if (t == NULL)
            {
              ok = FALSE;
              break;
            }
          if (t->kind == TTV_TYPE_STRUCT)
            e->fields = t;
          else
            {
              e->fields = ttv_type_new_struct ();
              ttv_type_add_field (e->fields, "value", t, NULL);
            }
        }
      ttv_type_finish (e->fields);
    }
  if (ok)
    {
      f->checksum = ttv_ltt_facility_checksum (fnode);
      g_ptr_array_add (out, f);
    }
  else
    ttv_ltt_facility_free (f);
  g_hash_table_unref (c.named);
  g_hash_table_unref (c.done);
  g_hash_table_unref (c.busy);
  return ok;
}

gboolean
ttv_ltt_eventdefs_parse (xmlDoc *doc, const char *file, const TtvLttSystem *sys, GPtrArray *out,
                         GError **error)
{
  xmlNode *root = xmlDocGetRootElement (doc);
  if (root == NULL)
    {
      g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_SYNTAX, _("%s: empty XML document"), file);
      return FALSE;
    }
  if (is_element (root, "facility"))
    return parse_facility (root, file, sys, out, error);
  guint n = 0;
  for (xmlNode *c = root->children; c; c = c->next)
    if (is_element (c, "facility"))
      {
        if (!parse_facility (c, file, sys, out, error))
          return FALSE;
        n++;
      }
  if (n == 0)
    {
      g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_INVALID,
                   _("%s:%ld: no <facility> element"), file, xmlGetLineNo (root));
      return FALSE;
    }
  return TRUE;
}

static int
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(char * const *) a, *(char * const *) b);
}

gboolean
ttv_ltt_eventdefs_read_dir (const char *dir, const TtvLttSystem *sys, GPtrArray *out, GError **error)
{
  g_autoptr (GError) local = NULL;
  g_autoptr (GDir) d = g_dir_open (dir, 0, &local);
  if (d == NULL)
    {
      g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_MISSING, _("%s: cannot read: %s"), dir,
                   local->message);
      return FALSE;
    }
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;
  while ((name = g_dir_read_name (d)))
    if (g_str_has_suffix (name, ".xml"))
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = g_build_filename (dir, g_ptr_array_index (names, i), NULL);
      g_autoptr (xmlDoc) doc = ttv_ltt_xml_read (path, NULL, 0, error);
      if (doc == NULL || !ttv_ltt_eventdefs_parse (doc, path, sys, out, error))
        return FALSE;
    }
  return TRUE;
}

TtvType *
ttv_ltt_facility_load_type_new (TtvByteOrder order)
{
  TtvType *t = ttv_type_new_struct ();
  ttv_type_add_field (t, "name", ttv_type_new_string (), NULL);
  ttv_type_add_field (t, "checksum", ttv_type_new_integer (32, FALSE, order, 32), NULL);
  ttv_type_add_field (t, "base_code", ttv_type_new_integer (32, FALSE, order, 32), NULL);
  ttv_type_finish (t);
  return t;
}
