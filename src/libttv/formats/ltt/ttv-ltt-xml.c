/* ttv-ltt-xml.c: reading the XML files of an LTT trace with libxml2, and the
 * facility checksum.  Used by the system.xml and eventdefs passes and the writer;
 * the file is read within limits (io/ttv-safe-xml.c). */
#include "ttv-ltt-private.h"

#include <glib/gi18n-lib.h>
#include <libxml/parser.h>
#include <string.h>

xmlDoc *
ttv_ltt_xml_read (const char *path, const char *data, gsize len, GError **error)
{
  g_autofree char *contents = NULL;
  if (data == NULL)
    {
      if (!ttv_xml_read_file (path, &ttv_xml_default_limits, &contents, &len, error))
        return NULL;
      data = contents;
    }
  /* The seed's unquoted attributes are quoted by the safe parser. */
  return ttv_xml_parse (data, len, path, &ttv_xml_default_limits, XML_PARSE_NOCDATA, error);
}

char *
ttv_ltt_xml_attr (xmlNode *node, const char *name)
{
  xmlChar *v = xmlGetProp (node, (const xmlChar *) name);
  if (v == NULL)
    return NULL;
  char *s = g_strdup ((const char *) v);
  xmlFree (v);
  return s;
}

guint32
ttv_ltt_crc32 (const guint8 *data, gsize len)
{
  static guint32 table[256];
  static gsize init = 0;
  if (g_once_init_enter (&init))
    {
      for (guint32 i = 0; i < 256; i++)
        {
          guint32 c = i;
          for (int k = 0; k < 8; k++)
            c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
          table[i] = c;
        }
      g_once_init_leave (&init, 1);
    }
  guint32 crc = 0xFFFFFFFFu;
  for (gsize i = 0; i < len; i++)
    crc = table[(crc ^ data[i]) & 0xFF] ^ (crc >> 8);
  return crc ^ 0xFFFFFFFFu;
}

static int
compare_strings (gconstpointer a, gconstpointer b)
{
  return strcmp (*(char * const *) a, *(char * const *) b);
}

static void
canonical (xmlNode *node, GString *out, guint depth)
{
  if (depth > 256)
    return;
  g_string_append_printf (out, "<%s", (const char *) node->name);
  g_autoptr (GPtrArray) attrs = g_ptr_array_new_with_free_func (g_free);
  for (xmlAttr *a = node->properties; a; a = a->next)
    {
      if (strcmp ((const char *) a->name, "format") == 0)
        continue;
      xmlChar *v = xmlNodeListGetString (node->doc, a->children, 1);
      g_ptr_array_add (attrs, g_strdup_printf ("%s=\"%s\"", (const char *) a->name,
                                               v ? (const char *) v : ""));
      xmlFree (v);
    }
  g_ptr_array_sort (attrs, compare_strings);
  for (guint i = 0; i < attrs->len; i++)
    g_string_append_printf (out, " %s", (const char *) g_ptr_array_index (attrs, i));
  g_string_append_c (out, '>');
  gboolean first_word = TRUE;
  for (xmlNode *c = node->children; c; c = c->next)
    {
      if (c->type == XML_ELEMENT_NODE)
        {
          if (strcmp ((const char *) c->name, "description") != 0)
            canonical (c, out, depth + 1);
        }
      else if (c->type == XML_TEXT_NODE && c->content)
        {
          g_auto (GStrv) words = g_strsplit_set ((const char *) c->content, " \t\r\n", -1);
          for (char **w = words; *w; w++)
            if (**w)
              {
                if (!first_word)
                  g_string_append_c (out, ' ');
                g_string_append (out, *w);
                first_word = FALSE;
              }
        }
    }
  g_string_append_printf (out, "</%s>", (const char *) node->name);
}

guint32
ttv_ltt_facility_checksum (xmlNode *facility)
{
  GString *s = g_string_new (NULL);
  canonical (facility, s, 0);
  guint32 crc = ttv_ltt_crc32 ((const guint8 *) s->str, s->len);
  g_string_free (s, TRUE);
  return crc;
}
