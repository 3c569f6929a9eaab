/* ttv-safe-xml.c: XML from files that may be hostile, read within limits
 * (see ttv-safe-xml.h). */
#include "ttv-safe-xml.h"
#include "ttv-error.h"
#include "ttv-regular-file.h"

#include <glib/gi18n-lib.h>
#include <libxml/parser.h>
#include <string.h>

const TtvXmlLimits ttv_xml_default_limits = {
  .max_bytes = 64u << 20,
  .max_depth = 128,
  .max_attributes = 64,
  .max_seconds = 10,
};

/* libxml2 is fed this much at a time, so that the time bound is checked
 * often while each piece costs little (the markup checks bound the work
 * per byte). */
#define CHUNK_BYTES (64u << 10)

gboolean
ttv_xml_read_file (const char *path, const TtvXmlLimits *limits, char **data, gsize *length,
                   GError **error)
{
  g_autoptr (GError) local = NULL;
  if (limits == NULL)
    limits = &ttv_xml_default_limits;
  if (ttv_regular_file_read (path, limits->max_bytes, data, length, &local))
    return TRUE;
  g_set_error (error, TTV_FORMAT_ERROR,
               g_error_matches (local, G_FILE_ERROR, G_FILE_ERROR_NOENT) ? TTV_FORMAT_ERROR_MISSING
                                                                         : TTV_FORMAT_ERROR_IO,
               "%s", local->message);
  return FALSE;
}

/* --- The markup pass: limits, and bare attribute values quoted ---------------- */

typedef struct {
  const char *name;             /* for messages */
  const TtvXmlLimits *limits;
  const char *p, *end;
  guint line;                   /* of *p, from 1 */
  GString *out;                 /* what libxml2 will read: the same lines */
} Scan;

static gboolean
refuse (Scan *s, GError **error, const char *what)
{
  g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_UNSUPPORTED, _("%s:%u: %s; not read"), s->name,
               s->line, what);
  return FALSE;
}

/* Copies @n bytes from the current position, counting lines. */
static void
copy (Scan *s, gsize n)
{
  for (gsize i = 0; i < n; i++)
    s->line += s->p[i] == '\n';
  g_string_append_len (s->out, s->p, (gssize) n);
  s->p += n;
}

/* Copies up to and including @close (or the rest when it is missing: the
 * parser then says what is wrong). */
static void
copy_through (Scan *s, const char *close)
{
  const char *q = g_strstr_len (s->p, s->end - s->p, close);
  copy (s, q ? (gsize) (q - s->p) + strlen (close) : (gsize) (s->end - s->p));
}

/* A start tag from its '<': counts its attributes, quotes bare values
 * (escaping '"' in them), says whether it closes itself. */
static gboolean
scan_start_tag (Scan *s, gboolean *self_closing, GError **error)
{
  guint n_attributes = 0;
  *self_closing = FALSE;
  copy (s, 1);
  while (s->p < s->end && *s->p != '>')
    {
      char c = *s->p;
      if (c == '"' || c == '\'')
        {
          const char *q = memchr (s->p + 1, c, (gsize) (s->end - s->p - 1));
          copy (s, q ? (gsize) (q - s->p) + 1 : (gsize) (s->end - s->p));
          continue;
        }
      if (c == '<')
        return TRUE;            /* malformed: the parser says where */
      *self_closing = c == '/' && s->p + 1 < s->end && s->p[1] == '>';
      copy (s, 1);
      if (c != '=')
        continue;
      if (++n_attributes > s->limits->max_attributes)
        {
          g_autofree char *what = g_strdup_printf (_("an element with more than %u attributes"),
                                                   s->limits->max_attributes);
          return refuse (s, error, what);
        }
      while (s->p < s->end && g_ascii_isspace (*s->p))
        copy (s, 1);
      if (s->p >= s->end || *s->p == '"' || *s->p == '\'' || *s->p == '>' || *s->p == '<')
        continue;
      /* Seed 000's bare value, up to a blank, '>' or '/>'. */
      g_string_append_c (s->out, '"');
      while (s->p < s->end && !g_ascii_isspace (*s->p) && *s->p != '>' && *s->p != '<'
             && !(*s->p == '/' && s->p + 1 < s->end && s->p[1] == '>'))
        {
          if (*s->p == '"')
            {
              g_string_append (s->out, "&quot;");
              s->p++;
            }
          else
            copy (s, 1);
        }
      g_string_append_c (s->out, '"');
    }
  if (s->p < s->end)
    copy (s, 1);
  return TRUE;
}

static gboolean
scan_markup (Scan *s, GError **error)
{
  guint depth = 0;
  while (s->p < s->end)
    {
      if (*s->p != '<')
        {
          const char *lt = memchr (s->p, '<', (gsize) (s->end - s->p));
          copy (s, (gsize) ((lt ? lt : s->end) - s->p));
          continue;
        }
      gsize left = (gsize) (s->end - s->p);
      if (left >= 4 && memcmp (s->p, "<!--", 4) == 0)
        copy_through (s, "-->");
      else if (left >= 9 && memcmp (s->p, "<![CDATA[", 9) == 0)
        copy_through (s, "]]>");
      else if (left >= 2 && s->p[1] == '?')
        copy_through (s, "?>");
      else if (left >= 2 && s->p[1] == '!')
        /* No DTD, so no entity: nothing can expand (billion laughs,
         * quadratic blow-up) nor be fetched. */
        return refuse (s, error, _("a document type declaration (DTD)"));
      else if (left >= 2 && s->p[1] == '/')
        {
          depth = depth > 0 ? depth - 1 : 0;
          copy_through (s, ">");
        }
      else
        {
          gboolean self_closing;
          if (!scan_start_tag (s, &self_closing, error))
            return FALSE;
          if (!self_closing && ++depth > s->limits->max_depth)
            {
              g_autofree char *what = g_strdup_printf (_("elements nested more than %u deep"),
                                                       s->limits->max_depth);
              return refuse (s, error, what);
            }
        }
    }
  return TRUE;
}

/* --- Parsing -------------------------------------------------------------------- */

typedef struct {
  int line;
  char *message;                /* owned: libxml2's first error */
} FirstError;

static void
record_first_error (void *user_data, const xmlError *e)
{
  FirstError *first = ((xmlParserCtxtPtr) user_data)->_private;
  if (first->message == NULL && e != NULL && e->level >= XML_ERR_ERROR)
    {
      first->line = e->line;
      first->message = g_strchomp (g_strdup (e->message ? e->message : "?"));
    }
}

xmlDoc *
ttv_xml_parse (const char *data, gsize length, const char *name, const TtvXmlLimits *limits,
               int options, GError **error)
{
  if (limits == NULL)
    limits = &ttv_xml_default_limits;
  if (length > limits->max_bytes)
    {
      g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_UNSUPPORTED,
                   _("%s: %zu bytes is more than the %zu an XML file of a trace may hold; not read"), name,
                   length, limits->max_bytes);
      return NULL;
    }
  g_autoptr (GString) fixed = g_string_sized_new (length + 64);
  Scan s = { name, limits, data ? data : "", (data ? data : "") + length, 1, fixed };
  if (!scan_markup (&s, error))
    return NULL;

  FirstError first = { 0, NULL };
  xmlParserCtxtPtr ctxt = xmlCreatePushParserCtxt (NULL, NULL, NULL, 0, name);
  if (ctxt == NULL)
    {
      g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_IO, _("%s: out of memory"), name);
      return NULL;
    }
  ctxt->_private = &first;
  ctxt->sax->serror = (xmlStructuredErrorFunc) record_first_error;
  /* Errors go to record_first_error, never to stderr. */
  xmlCtxtUseOptions (ctxt, options | XML_PARSE_NONET);
  gint64 deadline = g_get_monotonic_time () + (gint64) limits->max_seconds * G_USEC_PER_SEC;
  gboolean too_slow = FALSE;
  gsize at = 0;
  do
    {
      gsize n = MIN (CHUNK_BYTES, fixed->len - at);
      xmlParseChunk (ctxt, fixed->str + at, (int) n, at + n == fixed->len);
      at += n;
      too_slow = g_get_monotonic_time () > deadline;
    }
  while (at < fixed->len && !too_slow && !ctxt->disableSAX);
  if (at < fixed->len && !too_slow)
    xmlParseChunk (ctxt, NULL, 0, 1);     /* stopped at an error: finish */

  xmlDoc *doc = ctxt->myDoc;
  ctxt->myDoc = NULL;
  gboolean well_formed = ctxt->wellFormed && !too_slow;
  const xmlError *last = xmlCtxtGetLastError (ctxt);
  if (first.message == NULL && last != NULL && last->message != NULL)
    {
      first.line = last->line;
      first.message = g_strchomp (g_strdup (last->message));
    }
  xmlFreeParserCtxt (ctxt);
  if (too_slow)
    g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_UNSUPPORTED,
                 _("%s: parsing took more than %u s; not read"), name, limits->max_seconds);
  else if (!well_formed || doc == NULL || xmlDocGetRootElement (doc) == NULL)
    {
      g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_SYNTAX, _("%s:%d: malformed XML: %s"), name,
                   first.line, first.message ? first.message : _("no root element"));
      well_formed = FALSE;
    }
  g_free (first.message);
  if (!well_formed)
    {
      if (doc)
        xmlFreeDoc (doc);
      return NULL;
    }
  return doc;
}
