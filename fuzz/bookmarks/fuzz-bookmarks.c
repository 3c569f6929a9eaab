/* fuzz-bookmarks.c: libFuzzer target feeding arbitrary bytes to the
 * bookmarks.xml parser (ttv_bookmarks_parse), then writing and re-reading,
 * plain and merged into the input (ttv_bookmarks_to_xml_merged). */
#include "ttv-bookmarks.h"

#include <string.h>

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  GError *error = NULL;
  TtvBookmarks *l = ttv_bookmarks_parse ((const char *) data, size, "fuzz.xml", &error);
  if (l == NULL)
    {
      /* Every refusal is a GError naming the file. */
      g_assert (error != NULL);
      g_assert (strncmp (error->message, "fuzz.xml", 8) == 0);
      g_error_free (error);
      return 0;
    }
  g_assert (error == NULL);

  /* What we write we must read back identically. */
  gsize length;
  char *xml = ttv_bookmarks_to_xml (l, &length);
  TtvBookmarks *again = ttv_bookmarks_parse (xml, length, "fuzz-rewritten.xml", &error);
  if (again == NULL)
    g_error ("re-reading our own output failed: %s\n%s", error->message, xml);
  g_assert (ttv_bookmarks_equal (l, again));
  ttv_bookmarks_sort (again);
  ttv_bookmarks_free (again);
  g_free (xml);

  /* Saved over the input itself: the same bookmarks, the rest kept. */
  xml = ttv_bookmarks_to_xml_merged (l, (const char *) data, size, &length);
  again = ttv_bookmarks_parse (xml, length, "fuzz-merged.xml", &error);
  if (again == NULL)
    g_error ("re-reading the merged output failed: %s\n%s", error->message, xml);
  g_assert (ttv_bookmarks_equal (l, again));
  ttv_bookmarks_free (again);
  g_free (xml);
  ttv_bookmarks_free (l);
  return 0;
}
