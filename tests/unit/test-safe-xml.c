/* test-safe-xml.c: the time bound of ttv_xml_parse() (ttv-safe-xml.c), which
 * stops libxml2 between pieces of a document that stays within the other
 * limits but takes too long: a bound of 0 s is past after the first piece
 * of a document of many, which then fails naming the bound; the same
 * document parses under the default limits. */
#include "ttv-error.h"
#include "ttv-safe-xml.h"

#include <string.h>

/* About 1 MiB of small elements: many of the parser's 64 KiB pieces. */
static GString *
big_document (void)
{
  GString *doc = g_string_new ("<trace>\n");

  for (guint i = 0; doc->len < (1u << 20); i++)
    g_string_append_printf (doc, "  <event id=\"%u\" name=\"e%u\" cpu=\"%u\"/>\n", i, i, i % 8);
  g_string_append (doc, "</trace>\n");
  return doc;
}

static void
test_time_bound (void)
{
  g_autoptr (GString) doc = big_document ();
  g_autoptr (GError) error = NULL;
  TtvXmlLimits limits = ttv_xml_default_limits;

  g_autoptr (xmlDoc) ok = ttv_xml_parse (doc->str, doc->len, "big.xml", &limits, 0, &error);
  g_assert_no_error (error);
  g_assert_nonnull (ok);

  limits.max_seconds = 0;
  g_autoptr (xmlDoc) late = ttv_xml_parse (doc->str, doc->len, "big.xml", &limits, 0, &error);
  g_assert_null (late);
  g_assert_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_UNSUPPORTED);
  g_assert_cmpstr (error->message, ==, "big.xml: parsing took more than 0 s; not read");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/safe-xml/time-bound", test_time_bound);
  return g_test_run ();
}
