/* ttv-bookmarks.c: reading and writing bookmarks.xml (seed 000), and where a
 * trace keeps it.  Used by the GUI's bookmarks panel and by ttv-report. */
#include "ttv-bookmarks.h"
#include "ttv-archive.h"
#include "ttv-atomic-file.h"
#include "ttv-error.h"
#include "ttv-safe-xml.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <libxml/parser.h>
#include <libxml/xmlsave.h>
#include <libxml/tree.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LTT_MEMBER "info/bookmarks.xml"
#define CTF_MEMBER ".ttv-bookmarks.xml"

/* A bookmarks file is a few kilobytes; anything far beyond is hostile or
 * not a bookmarks file, and is refused quickly (the viewer reads it in
 * the background, but must not wait minutes for it). */
static const TtvXmlLimits bookmark_limits = {
  .max_bytes = 16u << 20,
  .max_depth = 64,
  .max_attributes = 64,
  .max_seconds = 5,
};

struct _TtvBookmarks {
  GPtrArray *items;             /* of TtvBookmark *, owned */
  gboolean has_clock;
  gint64 clock_offset;          /* ns, with has_clock */
};

/* A manual clock offset beyond this is a typo or hostile. */
#define MAX_CLOCK_OFFSET_NS (G_GINT64_CONSTANT (1000000) * TTV_NSEC_PER_SEC)

/* --- One bookmark ---------------------------------------------------------- */

static char *
dup_nonempty (const char *s)
{
  return s && *s ? g_strdup (s) : NULL;
}

TtvBookmark *
ttv_bookmark_new (const char *name, TtvTime start, TtvTime end, const char *text)
{
  TtvBookmark *b = g_new0 (TtvBookmark, 1);
  b->name = g_strdup (name);
  b->cpu = -1;
  b->kind = start == end ? TTV_BOOKMARK_TIME : TTV_BOOKMARK_INTERVAL;
  b->start = MIN (start, end);
  b->end = MAX (start, end);
  b->text = dup_nonempty (text);
  return b;
}

TtvBookmark *
ttv_bookmark_new_cycles (const char *name, guint64 start_cycle, guint64 end_cycle,
                         const char *text)
{
  TtvBookmark *b = g_new0 (TtvBookmark, 1);
  b->name = g_strdup (name);
  b->cpu = -1;
  b->kind = start_cycle == end_cycle ? TTV_BOOKMARK_CYCLE : TTV_BOOKMARK_CYCLE_INTERVAL;
  b->start_cycle = MIN (start_cycle, end_cycle);
  b->end_cycle = MAX (start_cycle, end_cycle);
  b->text = dup_nonempty (text);
  return b;
}

TtvBookmark *
ttv_bookmark_copy (const TtvBookmark *b)
{
  g_return_val_if_fail (b != NULL, NULL);
  TtvBookmark *c = g_memdup2 (b, sizeof *b);
  c->name = g_strdup (b->name);
  c->text = g_strdup (b->text);
  return c;
}

void
ttv_bookmark_free (TtvBookmark *b)
{
  if (b == NULL)
    return;
  g_free (b->name);
  g_free (b->text);
  g_free (b);
}

static gboolean
is_cycle_kind (TtvBookmarkKind kind)
{
  return kind == TTV_BOOKMARK_CYCLE || kind == TTV_BOOKMARK_CYCLE_INTERVAL;
}

gboolean
ttv_bookmark_equal (const TtvBookmark *a, const TtvBookmark *b)
{
  if (a->kind != b->kind || a->cpu != b->cpu || g_strcmp0 (a->name, b->name) != 0
      || g_strcmp0 (a->text, b->text) != 0)
    return FALSE;
  if (is_cycle_kind (a->kind))
    return a->start_cycle == b->start_cycle && a->end_cycle == b->end_cycle;
  return a->start == b->start && a->end == b->end;
}

/* --- The list ---------------------------------------------------------------- */

TtvBookmarks *
ttv_bookmarks_new (void)
{
  TtvBookmarks *l = g_new0 (TtvBookmarks, 1);
  l->items = g_ptr_array_new_with_free_func ((GDestroyNotify) ttv_bookmark_free);
  return l;
}

void
ttv_bookmarks_free (TtvBookmarks *l)
{
  if (l == NULL)
    return;
  g_ptr_array_unref (l->items);
  g_free (l);
}

guint
ttv_bookmarks_get_n (const TtvBookmarks *l)
{
  g_return_val_if_fail (l != NULL, 0);
  return l->items->len;
}

const TtvBookmark *
ttv_bookmarks_get (const TtvBookmarks *l, guint index)
{
  g_return_val_if_fail (l != NULL && index < l->items->len, NULL);
  return g_ptr_array_index (l->items, index);
}

guint
ttv_bookmarks_add (TtvBookmarks *l, TtvBookmark *b)
{
  g_return_val_if_fail (l != NULL && b != NULL, 0);
  g_ptr_array_add (l->items, b);
  return l->items->len - 1;
}

gboolean
ttv_bookmarks_remove (TtvBookmarks *l, guint index)
{
  g_return_val_if_fail (l != NULL, FALSE);
  if (index >= l->items->len)
    return FALSE;
  g_ptr_array_remove_index (l->items, index);
  return TRUE;
}

gboolean
ttv_bookmarks_replace (TtvBookmarks *l, guint index, TtvBookmark *b)
{
  g_return_val_if_fail (l != NULL && b != NULL, FALSE);
  if (index >= l->items->len)
    {
      ttv_bookmark_free (b);
      return FALSE;
    }
  ttv_bookmark_free (g_ptr_array_index (l->items, index));
  l->items->pdata[index] = b;
  return TRUE;
}

typedef struct {
  TtvBookmark *b;
  guint index;
} SortItem;

static int
compare_items (gconstpointer pa, gconstpointer pb)
{
  const SortItem *x = pa, *y = pb;
  const TtvBookmark *a = x->b, *b = y->b;
  gboolean ca = is_cycle_kind (a->kind), cb = is_cycle_kind (b->kind);
  if (ca != cb)
    return ca ? 1 : -1;
  if (ca)
    {
      if (a->start_cycle != b->start_cycle)
        return a->start_cycle < b->start_cycle ? -1 : 1;
      if (a->end_cycle != b->end_cycle)
        return a->end_cycle < b->end_cycle ? -1 : 1;
    }
  else
    {
      if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
      if (a->end != b->end)
        return a->end < b->end ? -1 : 1;
    }
  return x->index < y->index ? -1 : x->index > y->index;
}

void
ttv_bookmarks_sort (TtvBookmarks *l)
{
  g_return_if_fail (l != NULL);
  guint n = l->items->len;
  g_autofree SortItem *items = g_new (SortItem, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    items[i] = (SortItem) { g_ptr_array_index (l->items, i), i };
  qsort (items, n, sizeof *items, compare_items);
  for (guint i = 0; i < n; i++)
    l->items->pdata[i] = items[i].b;
}

gboolean
ttv_bookmarks_get_clock_offset (const TtvBookmarks *l, gint64 *offset_ns)
{
  g_return_val_if_fail (l != NULL, FALSE);
  if (l->has_clock && offset_ns)
    *offset_ns = l->clock_offset;
  return l->has_clock;
}

void
ttv_bookmarks_set_clock_offset (TtvBookmarks *l, gboolean set, gint64 offset_ns)
{
  g_return_if_fail (l != NULL);
  l->has_clock = set;
  l->clock_offset = set ? CLAMP (offset_ns, -MAX_CLOCK_OFFSET_NS, MAX_CLOCK_OFFSET_NS) : 0;
}

gboolean
ttv_bookmarks_equal (const TtvBookmarks *a, const TtvBookmarks *b)
{
  if (a->has_clock != b->has_clock || a->clock_offset != b->clock_offset)
    return FALSE;
  if (a->items->len != b->items->len)
    return FALSE;
  for (guint i = 0; i < a->items->len; i++)
    if (!ttv_bookmark_equal (g_ptr_array_index (a->items, i), g_ptr_array_index (b->items, i)))
      return FALSE;
  return TRUE;
}

/* --- Reading ------------------------------------------------------------------ */

static gboolean
invalid (GError **error, const char *file_name, xmlNodePtr node, const char *what)
{
  g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_INVALID, _("%s:%ld: %s"), file_name,
               xmlGetLineNo (node), what);
  return FALSE;
}

/* Text read from the file as valid UTF-8: libxml2 lets bytes that are not
 * UTF-8 through in CDATA and attributes after an encoding error, and the
 * writer replaces them (U+FFFD), so a saved file must read back the same. */
static char *
dup_parsed_text (xmlChar *v)
{
  if (v == NULL)
    return NULL;
  char *ret = g_utf8_make_valid ((const char *) v, -1);
  xmlFree (v);
  return ret;
}

static char *
get_attr (xmlNodePtr node, const char *name)
{
  return dup_parsed_text (xmlGetProp (node, (const xmlChar *) name));
}

static gboolean
parse_time_attr (xmlNodePtr node, const char *name, char *value, TtvTime *out,
                 const char *file_name, GError **error)
{
  if (ttv_time_parse (g_strstrip (value), out, NULL))
    return TRUE;
  g_autofree char *what = g_strdup_printf (_("%s=“%s” is not a time in seconds with up to 9 decimals"),
                                           name, value);
  return invalid (error, file_name, node, what);
}

static gboolean
parse_cycle_attr (xmlNodePtr node, const char *name, char *value, guint64 *out,
                  const char *file_name, GError **error)
{
  if (g_ascii_string_to_unsigned (g_strstrip (value), 10, 0, G_MAXUINT64, out, NULL))
    return TRUE;
  g_autofree char *what = g_strdup_printf (_("%s=“%s” is not an unsigned 64-bit cycle count"),
                                           name, value);
  return invalid (error, file_name, node, what);
}

static TtvBookmark *
parse_location (xmlNodePtr node, const char *file_name, GError **error)
{
  g_autofree char *time = get_attr (node, "time");
  g_autofree char *start_time = get_attr (node, "start_time");
  g_autofree char *end_time = get_attr (node, "end_time");
  g_autofree char *cycle = get_attr (node, "cycle");
  g_autofree char *start_cycle = get_attr (node, "start_cycle");
  g_autofree char *end_cycle = get_attr (node, "end_cycle");
  g_autofree char *cpu = get_attr (node, "cpu");
  g_autoptr (TtvBookmark) b = g_new0 (TtvBookmark, 1);
  b->cpu = -1;

  int forms = (time != NULL) + (start_time != NULL || end_time != NULL) + (cycle != NULL)
              + (start_cycle != NULL || end_cycle != NULL);
  if (forms == 0)
    {
      invalid (error, file_name, node,
               _("<location> needs time=, start_time= and end_time=, cycle=, "
                 "or start_cycle= and end_cycle="));
      return NULL;
    }
  if (forms > 1)
    {
      invalid (error, file_name, node,
               _("<location> gives its interval in more than one way "
                 "(time=, start_time=/end_time=, cycle=, start_cycle=/end_cycle=)"));
      return NULL;
    }
  if ((start_time != NULL) != (end_time != NULL) || (start_cycle != NULL) != (end_cycle != NULL))
    {
      invalid (error, file_name, node,
               start_time || end_time ? _("<location> needs both start_time= and end_time=")
                                      : _("<location> needs both start_cycle= and end_cycle="));
      return NULL;
    }
  if (time)
    {
      b->kind = TTV_BOOKMARK_TIME;
      if (!parse_time_attr (node, "time", time, &b->start, file_name, error))
        return NULL;
      b->end = b->start;
    }
  else if (start_time)
    {
      b->kind = TTV_BOOKMARK_INTERVAL;
      if (!parse_time_attr (node, "start_time", start_time, &b->start, file_name, error)
          || !parse_time_attr (node, "end_time", end_time, &b->end, file_name, error))
        return NULL;
      if (b->end < b->start)
        {
          invalid (error, file_name, node, _("<location> ends before it starts"));
          return NULL;
        }
    }
  else if (cycle)
    {
      b->kind = TTV_BOOKMARK_CYCLE;
      if (!parse_cycle_attr (node, "cycle", cycle, &b->start_cycle, file_name, error))
        return NULL;
      b->end_cycle = b->start_cycle;
    }
  else
    {
      b->kind = TTV_BOOKMARK_CYCLE_INTERVAL;
      if (!parse_cycle_attr (node, "start_cycle", start_cycle, &b->start_cycle, file_name, error)
          || !parse_cycle_attr (node, "end_cycle", end_cycle, &b->end_cycle, file_name, error))
        return NULL;
      if (b->end_cycle < b->start_cycle)
        {
          invalid (error, file_name, node, _("<location> ends before it starts"));
          return NULL;
        }
    }
  if (cpu != NULL)
    {
      guint64 v;
      if (!g_ascii_string_to_unsigned (g_strstrip (cpu), 10, 0, G_MAXINT, &v, NULL))
        {
          g_autofree char *what = g_strdup_printf (_("cpu=“%s” is not a CPU number"), cpu);
          invalid (error, file_name, node, what);
          return NULL;
        }
      b->cpu = (gint) v;
    }
  b->name = get_attr (node, "name");
  g_autofree char *text = dup_parsed_text (xmlNodeGetContent (node));
  b->text = dup_nonempty (text);
  return g_steal_pointer (&b);
}

/* The document of a bookmarks file, its root checked to be <bookmarks>:
 * parsed within limits (a hostile file is refused, quickly). */
static xmlDoc *
parse_document (const char *data, gsize length, const char *file_name, GError **error)
{
  g_autoptr (xmlDoc) doc = ttv_xml_parse (data, length, file_name, &bookmark_limits, 0, error);
  if (doc == NULL)
    return NULL;
  xmlNodePtr root = xmlDocGetRootElement (doc);
  if (xmlStrcmp (root->name, (const xmlChar *) "bookmarks") != 0)
    {
      g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_INVALID,
                   _("%s:%ld: the root element is <%s>, not <bookmarks>"), file_name,
                   xmlGetLineNo (root), (const char *) root->name);
      return NULL;
    }
  return g_steal_pointer (&doc);
}

static gboolean
is_location (xmlNodePtr n)
{
  return n->type == XML_ELEMENT_NODE && xmlStrcmp (n->name, (const xmlChar *) "location") == 0;
}

static gboolean
is_clock (xmlNodePtr n)
{
  return n->type == XML_ELEMENT_NODE && xmlStrcmp (n->name, (const xmlChar *) "clock") == 0;
}

/* <clock offset="±S.NNNNNNNNN"/>: exact to the nanosecond. */
static gboolean
parse_clock (xmlNodePtr node, TtvBookmarks *l, const char *file_name, GError **error)
{
  if (l->has_clock)
    return invalid (error, file_name, node, _("more than one <clock>"));
  g_autofree char *value = get_attr (node, "offset");
  if (value == NULL)
    return invalid (error, file_name, node, _("<clock> needs offset="));
  const char *text = g_strstrip (value);
  gboolean negative = *text == '-';
  if (*text == '-' || *text == '+')
    text++;
  TtvTime magnitude;
  if (!g_ascii_isdigit (*text) || !ttv_time_parse (text, &magnitude, NULL) || magnitude > MAX_CLOCK_OFFSET_NS)
    {
      g_autofree char *what = g_strdup_printf (_("offset=“%s” is not a number of seconds between -1000000 and "
                                                 "1000000 with up to 9 decimals"), value);
      return invalid (error, file_name, node, what);
    }
  l->has_clock = TRUE;
  l->clock_offset = negative ? -magnitude : magnitude;
  return TRUE;
}

/* "+0.250000000" */
static char *
dup_clock_offset (gint64 offset_ns)
{
  char buf[32];
  ttv_time_to_string (offset_ns < 0 ? -offset_ns : offset_ns, buf, sizeof buf);
  return g_strconcat (offset_ns < 0 ? "-" : "+", buf, NULL);
}

TtvBookmarks *
ttv_bookmarks_parse (const char *data, gsize length, const char *file_name, GError **error)
{
  g_return_val_if_fail (data != NULL || length == 0, NULL);
  if (file_name == NULL)
    file_name = "bookmarks.xml";
  g_autoptr (xmlDoc) doc = parse_document (data, length, file_name, error);
  if (doc == NULL)
    return NULL;

  g_autoptr (TtvBookmarks) list = ttv_bookmarks_new ();
  for (xmlNodePtr n = xmlDocGetRootElement (doc)->children; n; n = n->next)
    {
      /* Unknown elements are for future versions: skipped (and kept when
       * saving, see ttv_bookmarks_to_xml_merged). */
      if (is_clock (n))
        {
          if (!parse_clock (n, list, file_name, error))
            return NULL;
          continue;
        }
      if (!is_location (n))
        continue;
      TtvBookmark *b = parse_location (n, file_name, error);
      if (b == NULL)
        return NULL;
      ttv_bookmarks_add (list, b);
    }
  return g_steal_pointer (&list);
}

TtvBookmarks *
ttv_bookmarks_load (const char *path, GError **error)
{
  g_return_val_if_fail (path != NULL, NULL);
  g_autofree char *data = NULL;
  gsize length = 0;
  g_autoptr (GError) local = NULL;
  /* What killed saves left beside it goes now. */
  ttv_atomic_file_clean_stale (path);
  if (!ttv_xml_read_file (path, &bookmark_limits, &data, &length, &local))
    {
      if (g_error_matches (local, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_MISSING))
        return ttv_bookmarks_new ();
      g_propagate_error (error, g_steal_pointer (&local));
      return NULL;
    }
  return ttv_bookmarks_parse (data, length, path, error);
}

/* --- Writing ------------------------------------------------------------------ */

static void
append_escaped (GString *out, const char *s, gboolean attribute)
{
  g_autofree char *valid = g_utf8_make_valid (s, -1);
  for (const char *p = valid; *p; p++)
    {
      guchar c = (guchar) *p;
      switch (c)
        {
        case '&': g_string_append (out, "&amp;"); break;
        case '<': g_string_append (out, "&lt;"); break;
        case '>': g_string_append (out, "&gt;"); break;
        case '"': g_string_append (out, attribute ? "&quot;" : "\""); break;
        case '\r': g_string_append (out, "&#13;"); break;
        case '\n': g_string_append (out, attribute ? "&#10;" : "\n"); break;
        case '\t': g_string_append (out, attribute ? "&#9;" : "\t"); break;
        default:
          if (c >= 0x20)
            g_string_append_c (out, (char) c);
          /* other control characters cannot appear in XML 1.0: dropped */
          break;
        }
    }
}

static void
append_attr (GString *out, const char *name, const char *value)
{
  g_string_append_printf (out, " %s=\"", name);
  append_escaped (out, value, TRUE);
  g_string_append_c (out, '"');
}

/* The attributes of @b's <location>, in the order the file gets them: one
 * writer for the plain output and for locations added to a kept document. */
static void
for_each_attr (const TtvBookmark *b, void (*add) (gpointer data, const char *name, const char *value),
               gpointer data)
{
  char buf[32];

  if (b->name)
    add (data, "name", b->name);
  if (b->cpu >= 0)
    {
      g_snprintf (buf, sizeof buf, "%d", b->cpu);
      add (data, "cpu", buf);
    }
  switch (b->kind)
    {
    case TTV_BOOKMARK_TIME:
      add (data, "time", ttv_time_to_string (b->start, buf, sizeof buf));
      break;
    case TTV_BOOKMARK_INTERVAL:
      add (data, "start_time", ttv_time_to_string (b->start, buf, sizeof buf));
      add (data, "end_time", ttv_time_to_string (b->end, buf, sizeof buf));
      break;
    case TTV_BOOKMARK_CYCLE:
      g_snprintf (buf, sizeof buf, "%" G_GUINT64_FORMAT, b->start_cycle);
      add (data, "cycle", buf);
      break;
    case TTV_BOOKMARK_CYCLE_INTERVAL:
    default:
      g_snprintf (buf, sizeof buf, "%" G_GUINT64_FORMAT, b->start_cycle);
      add (data, "start_cycle", buf);
      g_snprintf (buf, sizeof buf, "%" G_GUINT64_FORMAT, b->end_cycle);
      add (data, "end_cycle", buf);
      break;
    }
}

static void
append_attr_to (gpointer out, const char *name, const char *value)
{
  append_attr (out, name, value);
}

char *
ttv_bookmarks_to_xml (const TtvBookmarks *l, gsize *length)
{
  g_return_val_if_fail (l != NULL, NULL);
  GString *out = g_string_new ("<bookmarks>\n");
  if (l->has_clock)
    {
      g_autofree char *offset = dup_clock_offset (l->clock_offset);
      g_string_append_printf (out, "  <clock offset=\"%s\"/>\n", offset);
    }
  for (guint i = 0; i < l->items->len; i++)
    {
      const TtvBookmark *b = g_ptr_array_index (l->items, i);
      g_string_append (out, "  <location");
      for_each_attr (b, append_attr_to, out);
      g_string_append_c (out, '>');
      if (b->text)
        append_escaped (out, b->text, FALSE);
      g_string_append (out, "</location>\n");
    }
  g_string_append (out, "</bookmarks>\n");
  if (length)
    *length = out->len;
  return g_string_free (out, FALSE);
}

/* --- Keeping a hand-edited file's other content ------------------------------ */

/* The same place and words, however the file spelled them (time= or an
 * empty start_time=/end_time= interval, a missing or empty name). */
static gboolean
same_location (const TtvBookmark *a, const TtvBookmark *b)
{
  if (is_cycle_kind (a->kind) != is_cycle_kind (b->kind) || a->cpu != b->cpu
      || g_strcmp0 (a->name ? a->name : "", b->name ? b->name : "") != 0
      || g_strcmp0 (a->text ? a->text : "", b->text ? b->text : "") != 0)
    return FALSE;
  if (is_cycle_kind (a->kind))
    return a->start_cycle == b->start_cycle && a->end_cycle == b->end_cycle;
  return a->start == b->start && a->end == b->end;
}

static gboolean
is_blank_text (xmlNodePtr n)
{
  return n != NULL && n->type == XML_TEXT_NODE && xmlIsBlankNode (n);
}

static void
set_attr (gpointer node, const char *name, const char *value)
{
  g_autofree char *valid = g_utf8_make_valid (value, -1);
  xmlSetProp (node, (const xmlChar *) name, (const xmlChar *) valid);
}

/* Text XML 1.0 can hold: valid UTF-8 without control characters. */
static char *
dup_xml_text (const char *s)
{
  char *valid = g_utf8_make_valid (s, -1);
  char *out = valid;
  for (const char *p = valid; *p; p++)
    if ((guchar) *p >= 0x20 || *p == '\n' || *p == '\t' || *p == '\r')
      *out++ = *p;
  *out = 0;
  return valid;
}

static xmlNodePtr
new_location_node (const TtvBookmark *b)
{
  xmlNodePtr node = xmlNewNode (NULL, (const xmlChar *) "location");

  for_each_attr (b, set_attr, node);
  if (b->text)
    {
      g_autofree char *text = dup_xml_text (b->text);
      xmlNodeAddContent (node, (const xmlChar *) text);
    }
  return node;
}

/* Puts @node after *@after (or at the end of @root), on a line of its own. */
static void
insert_location (xmlNodePtr root, xmlNodePtr *after, xmlNodePtr node)
{
  if (*after)
    {
      /* Element first, then the indent before it: no text node merges. */
      xmlAddNextSibling (*after, node);
      xmlAddPrevSibling (node, xmlNewText ((const xmlChar *) "\n  "));
    }
  else if (is_blank_text (root->last))
    {
      xmlAddPrevSibling (root->last, node);
      xmlAddPrevSibling (node, xmlNewText ((const xmlChar *) "\n  "));
    }
  else
    {
      xmlAddChild (root, xmlNewText ((const xmlChar *) "\n  "));
      xmlAddChild (root, node);
      xmlAddChild (root, xmlNewText ((const xmlChar *) "\n"));
    }
  *after = node;
}

/* Removes element @n with the indent before it. */
static void
remove_element (xmlNodePtr n)
{
  if (is_blank_text (n->prev))
    {
      xmlNodePtr blank = n->prev;
      xmlUnlinkNode (blank);
      xmlFreeNode (blank);
    }
  xmlUnlinkNode (n);
  xmlFreeNode (n);
}

/* Removes the locations of @root that are not in @l (each kept one marks
 * its bookmark used) and returns the last location kept. */
static xmlNodePtr
keep_listed_locations (xmlNodePtr root, const TtvBookmarks *l, gboolean *used)
{
  xmlNodePtr last = NULL, next;

  for (xmlNodePtr n = root->children; n; n = next)
    {
      g_autoptr (TtvBookmark) old = NULL;
      guint j;

      next = n->next;
      if (!is_location (n))
        continue;
      old = parse_location (n, "", NULL);
      if (old == NULL)
        {
          /* Not ours to judge: kept as written (loading reports it). */
          last = n;
          continue;
        }
      for (j = 0; j < l->items->len; j++)
        if (!used[j] && same_location (old, g_ptr_array_index (l->items, j)))
          break;
      if (j < l->items->len)
        {
          used[j] = TRUE;
          last = n;
          continue;
        }
      remove_element (n);
    }
  return last;
}

/* The document's <clock> elements give way to the list's, first in the root. */
static void
replace_clock (xmlNodePtr root, const TtvBookmarks *l)
{
  xmlNodePtr next;
  for (xmlNodePtr n = root->children; n; n = next)
    {
      next = n->next;
      if (!is_clock (n))
        continue;
      remove_element (n);
    }
  if (!l->has_clock)
    return;
  xmlNodePtr node = xmlNewNode (NULL, (const xmlChar *) "clock");
  g_autofree char *offset = dup_clock_offset (l->clock_offset);
  xmlSetProp (node, (const xmlChar *) "offset", (const xmlChar *) offset);
  if (root->children)
    {
      xmlAddPrevSibling (root->children, node);
      xmlAddPrevSibling (node, xmlNewText ((const xmlChar *) "\n  "));
    }
  else
    {
      xmlAddChild (root, xmlNewText ((const xmlChar *) "\n  "));
      xmlAddChild (root, node);
      xmlAddChild (root, xmlNewText ((const xmlChar *) "\n"));
    }
}

static gboolean
has_declaration (const char *data, gsize length)
{
  gsize i = 0;
  if (length >= 3 && memcmp (data, "\xef\xbb\xbf", 3) == 0)
    i = 3;
  while (i < length && g_ascii_isspace (data[i]))
    i++;
  return length - i >= 5 && memcmp (data + i, "<?xml", 5) == 0;
}

char *
ttv_bookmarks_to_xml_merged (const TtvBookmarks *l, const char *old, gsize old_length,
                             gsize *length)
{
  g_return_val_if_fail (l != NULL, NULL);
  g_autoptr (xmlDoc) doc = old ? parse_document (old, old_length, "", NULL) : NULL;
  if (doc == NULL)
    return ttv_bookmarks_to_xml (l, length);

  xmlNodePtr root = xmlDocGetRootElement (doc);
  g_autofree gboolean *used = g_new0 (gboolean, MAX (l->items->len, 1));
  replace_clock (root, l);
  xmlNodePtr after = keep_listed_locations (root, l, used);
  for (guint j = 0; j < l->items->len; j++)
    if (!used[j])
      insert_location (root, &after, new_location_node (g_ptr_array_index (l->items, j)));

  xmlBufferPtr buf = xmlBufferCreate ();
  xmlSaveCtxtPtr save = xmlSaveToBuffer (buf, "UTF-8",
                                         has_declaration (old, old_length) ? 0 : XML_SAVE_NO_DECL);
  xmlSaveDoc (save, doc);
  xmlSaveClose (save);
  GString *out = g_string_new_len ((const char *) xmlBufferContent (buf), xmlBufferLength (buf));
  xmlBufferFree (buf);
  if (out->len == 0 || out->str[out->len - 1] != '\n')
    g_string_append_c (out, '\n');
  if (length)
    *length = out->len;
  return g_string_free (out, FALSE);
}

/* --- Saving ------------------------------------------------------------------- */

static gboolean
write_file (const char *path, const char *data, gsize length, GError **error)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr (GError) local = NULL;
  if (g_mkdir_with_parents (dir, 0755) != 0)
    {
      int errsv = errno;
      g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_IO,
                   _("%s: cannot create the folder: %s"), dir, g_strerror (errsv));
      return FALSE;
    }
  /* A temporary file in the same folder, fsync'ed, renamed over @path,
   * the folder fsync'ed; those of killed saves are removed first. */
  if (!ttv_atomic_file_set_contents (path, data, length, 0644, &local))
    {
      g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_IO,
                   _("Cannot save the bookmarks: %s"), local->message);
      return FALSE;
    }
  return TRUE;
}

/* The XML to write at @path: the list, merged into what the file holds. */
static char *
dup_merged_for (const TtvBookmarks *l, const char *path, gsize *length)
{
  g_autofree char *old = NULL;
  gsize old_length = 0;

  /* Within limits: a FIFO or /dev/zero in its place must not block or
   * fill the memory; it is replaced by a plain file. */
  if (!ttv_xml_read_file (path, &bookmark_limits, &old, &old_length, NULL))
    return ttv_bookmarks_to_xml (l, length);
  return ttv_bookmarks_to_xml_merged (l, old, old_length, length);
}

gboolean
ttv_bookmarks_save (const TtvBookmarks *l, const char *path, GError **error)
{
  g_return_val_if_fail (l != NULL && path != NULL, FALSE);
  gsize length;
  g_autofree char *xml = dup_merged_for (l, path, &length);
  return write_file (path, xml, length, error);
}

/* --- Per trace ------------------------------------------------------------------ */

const char *
ttv_bookmarks_get_member_path (const TtvTrace *trace)
{
  g_return_val_if_fail (trace != NULL, LTT_MEMBER);
  if (trace->format && g_strcmp0 (trace->format->name, "ctf") == 0)
    return CTF_MEMBER;
  return LTT_MEMBER;
}

static gboolean
opened_from_archive (const TtvTrace *trace)
{
  return trace->display_path && trace->path && strcmp (trace->display_path, trace->path) != 0
         && ttv_archive_is_archive (trace->display_path);
}

/* What the user opened: the archive, or the trace folder. */
static const char *
user_path (const TtvTrace *trace)
{
  return trace->display_path ? trace->display_path : trace->path;
}

char *
ttv_bookmarks_dup_path (const TtvTrace *trace, TtvBookmarksPlace place)
{
  g_return_val_if_fail (trace != NULL, NULL);
  g_autofree char *abs = g_canonicalize_filename (user_path (trace), NULL);
  g_autofree char *base = g_path_get_basename (abs);

  switch (place)
    {
    case TTV_BOOKMARKS_BESIDE_TRACE:
      {
        g_autofree char *dir = g_path_get_dirname (abs);
        g_autofree char *file = g_strconcat (base, CTF_MEMBER, NULL);
        return g_build_filename (dir, file, NULL);
      }
    case TTV_BOOKMARKS_USER_DIR:
      {
        g_autofree char *sum = g_compute_checksum_for_string (G_CHECKSUM_SHA256, abs, -1);
        g_strcanon (base, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-", '_');
        g_autofree char *file = g_strdup_printf ("%s-%.16s.xml", base, sum);
        return g_build_filename (g_get_user_data_dir (), "ttv", "bookmarks", file, NULL);
      }
    case TTV_BOOKMARKS_IN_TRACE:
    default:
      return g_build_filename (trace->path, ttv_bookmarks_get_member_path (trace), NULL);
    }
}

char *
ttv_bookmarks_dup_fallback_path (const TtvTrace *trace)
{
  return ttv_bookmarks_dup_path (trace, TTV_BOOKMARKS_USER_DIR);
}

/* Whether @file can be replaced: its folder is writable, or (for a folder
 * still to create) the nearest existing one above it. */
static gboolean
file_is_writable (const char *file)
{
  g_autofree char *dir = g_path_get_dirname (file);
  while (!g_file_test (dir, G_FILE_TEST_EXISTS))
    {
      char *up = g_path_get_dirname (dir);
      gboolean top = strcmp (up, dir) == 0;
      g_free (dir);
      dir = up;
      if (top)
        break;
    }
  return g_file_test (dir, G_FILE_TEST_IS_DIR) && access (dir, W_OK) == 0
         && (access (file, F_OK) != 0 || access (file, W_OK) == 0);
}

gboolean
ttv_bookmarks_place_is_writable (const TtvTrace *trace, TtvBookmarksPlace place)
{
  g_return_val_if_fail (trace != NULL, FALSE);
  g_autofree char *file = ttv_bookmarks_dup_path (trace, place);

  if (place != TTV_BOOKMARKS_IN_TRACE)
    return file_is_writable (file);
  if (trace->flags & TTV_TRACE_FLAG_READ_ONLY)
    return FALSE;
  if (opened_from_archive (trace))
    {
      /* The rewrite goes to a temporary file beside the archive. */
      g_autofree char *dir = g_path_get_dirname (trace->display_path);
      return access (trace->display_path, W_OK) == 0 && access (dir, W_OK) == 0;
    }
  g_autofree char *dir = g_path_get_dirname (file);
  if (g_file_test (dir, G_FILE_TEST_IS_DIR))
    return access (dir, W_OK) == 0;
  return access (trace->path, W_OK) == 0;       /* info/ will be created */
}

gboolean
ttv_bookmarks_trace_is_writable (const TtvTrace *trace)
{
  return ttv_bookmarks_place_is_writable (trace, TTV_BOOKMARKS_IN_TRACE);
}

gboolean
ttv_bookmarks_find_for_trace (const TtvTrace *trace, TtvBookmarksPlace *place)
{
  static const TtvBookmarksPlace order[] = {
    TTV_BOOKMARKS_IN_TRACE, TTV_BOOKMARKS_BESIDE_TRACE, TTV_BOOKMARKS_USER_DIR,
  };
  g_return_val_if_fail (trace != NULL, FALSE);

  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    {
      g_autofree char *file = ttv_bookmarks_dup_path (trace, order[i]);
      if (g_file_test (file, G_FILE_TEST_EXISTS))
        {
          if (place)
            *place = order[i];
          return TRUE;
        }
    }
  return FALSE;
}

/* What killed saves left in the places of @trace's bookmarks (and beside
 * its archive) goes at each open and save. */
static void
clean_stale_saves (const TtvTrace *trace)
{
  for (TtvBookmarksPlace place = TTV_BOOKMARKS_IN_TRACE; place <= TTV_BOOKMARKS_USER_DIR; place++)
    {
      g_autofree char *file = ttv_bookmarks_dup_path (trace, place);
      ttv_atomic_file_clean_stale (file);
    }
  if (opened_from_archive (trace))
    ttv_atomic_file_clean_stale (trace->display_path);
}

TtvBookmarks *
ttv_bookmarks_load_for_trace (const TtvTrace *trace, GError **error)
{
  g_return_val_if_fail (trace != NULL, NULL);
  clean_stale_saves (trace);
  TtvBookmarksPlace place;
  if (!ttv_bookmarks_find_for_trace (trace, &place))
    return ttv_bookmarks_new ();
  g_autofree char *file = ttv_bookmarks_dup_path (trace, place);
  return ttv_bookmarks_load (file, error);
}

gboolean
ttv_bookmarks_save_for_trace (const TtvBookmarks *l, const TtvTrace *trace, GError **error)
{
  return ttv_bookmarks_save_for_trace_full (l, trace, TTV_BOOKMARKS_IN_TRACE, NULL, NULL, NULL,
                                            error);
}

gboolean
ttv_bookmarks_save_for_trace_full (const TtvBookmarks *l, const TtvTrace *trace,
                                   TtvBookmarksPlace place, GCancellable *cancellable,
                                   TtvArchiveProgressFunc progress, gpointer progress_data,
                                   GError **error)
{
  g_return_val_if_fail (l != NULL && trace != NULL, FALSE);
  gboolean archive = place == TTV_BOOKMARKS_IN_TRACE && opened_from_archive (trace);
  g_autofree char *file = ttv_bookmarks_dup_path (trace, place);
  clean_stale_saves (trace);

  if (!ttv_bookmarks_place_is_writable (trace, place))
    {
      g_autofree char *fallback = ttv_bookmarks_dup_fallback_path (trace);
      if (place != TTV_BOOKMARKS_IN_TRACE)
        g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_IO,
                     _("%s cannot be written: the bookmarks are not saved"), file);
      else
        g_set_error (error, archive ? TTV_ARCHIVE_ERROR : TTV_FORMAT_ERROR,
                     archive ? TTV_ARCHIVE_ERROR_WRITE : TTV_FORMAT_ERROR_IO,
                     _("%s is read-only: the bookmarks cannot be saved in it "
                       "(they can be saved to %s instead)"),
                     archive ? trace->display_path : trace->path, fallback);
      return FALSE;
    }

  gsize length;
  g_autofree char *xml = dup_merged_for (l, file, &length);
  if (!archive)
    return write_file (file, xml, length, error);

  if (!ttv_archive_replace_member_full (trace->display_path, ttv_bookmarks_get_member_path (trace),
                                        xml, length, cancellable, progress, progress_data, error))
    return FALSE;
  /* ttv_archive_replace_member updates a valid cache; when the cache was
   * stale, keep this open trace's copy in step anyway (the next open
   * extracts afresh). */
  g_autofree char *cached = NULL;
  gsize cached_length = 0;
  if (!ttv_xml_read_file (file, &bookmark_limits, &cached, &cached_length, NULL) || cached_length != length
      || memcmp (cached, xml, length) != 0)
    write_file (file, xml, length, NULL);
  return TRUE;
}

gboolean
ttv_bookmarks_load_clock_offset (const TtvTrace *trace, gint64 *offset_ns, GError **error)
{
  g_return_val_if_fail (trace != NULL, FALSE);
  if (!ttv_bookmarks_find_for_trace (trace, NULL))
    return FALSE;
  g_autoptr (TtvBookmarks) saved = ttv_bookmarks_load_for_trace (trace, error);
  return saved != NULL && ttv_bookmarks_get_clock_offset (saved, offset_ns);
}
