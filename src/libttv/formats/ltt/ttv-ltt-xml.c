/* ttv-ltt-xml.c: reading the XML files of an LTT trace with libxml2, and the
 * facility checksum.  Used by the system.xml and eventdefs passes and the writer. */
#include "ttv-ltt-private.h"

#include <glib/gi18n-lib.h>
#include <libxml/parser.h>
#include <string.h>

#define TTV_LTT_MAX_XML_SIZE (64u << 20)

/* The seed writes attributes unquoted (cpu=4, size=4/>); quote them so that
 * libxml2 accepts the seed's own examples.  Lines are kept. */
static GString *
quote_attributes (const char *in, gsize len)
{
  GString *out = g_string_sized_new (len + 64);
  gsize i = 0;
  while (i < len)
    {
      char c = in[i];
      if (c != '<')
        {
          g_string_append_c (out, c);
          i++;
          continue;
        }
      /* Comments, CDATA, doctype, processing instructions: copy verbatim. */
      if (i + 1 < len && (in[i + 1] == '!' || in[i + 1] == '?'))
        {
          const char *end_mark = (i + 3 < len && in[i + 2] == '-' && in[i + 3] == '-') ? "-->"
                                 : (i + 8 < len && strncmp (in + i, "<![CDATA[", 9) == 0) ? "]]>"
                                 : ">";
          const char *end = g_strstr_len (in + i + 1, (gssize) (len - i - 1), end_mark);
          gsize stop = end ? (gsize) (end - in) + strlen (end_mark) : len;
          g_string_append_len (out, in + i, (gssize) (stop - i));
          i = stop;
          continue;
        }
      /* A tag: copy, quoting bare values after '='. */
      char quote = 0;
      for (; i < len; i++)
        {
          c = in[i];
          g_string_append_c (out, c);
          if (quote)
            {
              if (c == quote)
                quote = 0;
              continue;
            }
          if (c == '"' || c == '\'')
            quote = c;
          else if (c == '>')
            {
              i++;
              break;
            }
          else if (c == '=')
            {
              gsize j = i + 1;
              while (j < len && g_ascii_isspace (in[j]))
                g_string_append_c (out, in[j++]);
              if (j < len && in[j] != '"' && in[j] != '\'')
                {
                  g_string_append_c (out, '"');
                  while (j < len && !g_ascii_isspace (in[j]) && in[j] != '>'
                         && !(in[j] == '/' && j + 1 < len && in[j + 1] == '>')
                         && in[j] != '"' && in[j] != '<')
                    g_string_append_c (out, in[j++]);
                  g_string_append_c (out, '"');
                }
              i = j - 1;
            }
        }
    }
  return out;
}

xmlDoc *
ttv_ltt_xml_read (const char *path, const char *data, gsize len, GError **error)
{
  g_autofree char *contents = NULL;
  if (data == NULL)
    {
      g_autoptr (GError) local = NULL;
      if (!g_file_get_contents (path, &contents, &len, &local))
        {
          g_set_error (error, TTV_FORMAT_ERROR,
                       g_error_matches (local, G_FILE_ERROR, G_FILE_ERROR_NOENT)
                         ? TTV_FORMAT_ERROR_MISSING : TTV_FORMAT_ERROR_IO,
                       _("%s: cannot read: %s"), path, local->message);
          return NULL;
        }
      data = contents;
    }
  if (len > TTV_LTT_MAX_XML_SIZE)
    {
      g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_UNSUPPORTED,
                   _("%s: XML file larger than %u MiB"), path, TTV_LTT_MAX_XML_SIZE >> 20);
      return NULL;
    }
  GString *fixed = quote_attributes (data, len);
  xmlParserCtxt *ctxt = xmlNewParserCtxt ();
  if (ctxt == NULL)
    {
      g_string_free (fixed, TRUE);
      g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_IO, _("%s: out of memory"), path);
      return NULL;
    }
  xmlDoc *doc = xmlCtxtReadMemory (ctxt, fixed->str, (int) fixed->len, NULL, NULL,
                                   XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING
                                   | XML_PARSE_NOCDATA);
  g_string_free (fixed, TRUE);
  if (doc == NULL || xmlDocGetRootElement (doc) == NULL)
    {
      const xmlError *e = xmlCtxtGetLastError (ctxt);
      g_autofree char *msg = g_strstrip (g_strdup (e && e->message ? e->message : "no root element"));
      g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_SYNTAX,
                   _("%s:%d: malformed XML: %s"), path, e ? e->line : 0, msg);
      if (doc)
        xmlFreeDoc (doc);
      doc = NULL;
    }
  else if (doc->intSubset || doc->extSubset)
    {
      /* No entity can then expand: nothing to fear from entity bombs. */
      g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_UNSUPPORTED,
                   _("%s:%ld: document type declarations (DTD) are not allowed"), path,
                   xmlGetLineNo ((xmlNode *) (doc->intSubset ? doc->intSubset : doc->extSubset)));
      xmlFreeDoc (doc);
      doc = NULL;
    }
  xmlFreeParserCtxt (ctxt);
  return doc;
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
