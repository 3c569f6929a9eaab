/* test-analysis-output.c: what every analysis report is written with
 * (ttv-analysis-output.h): CSV fields and tables, aligned text, JSON
 * strings of any bytes. */
#include "ttv-analysis-output.h"

#include <string.h>

static char *
csv_field (const char *text)
{
  GString *out = g_string_new (NULL);
  ttv_csv_append_field (out, text);
  return g_string_free (out, FALSE);
}

/* RFC 4180: quoted only when it must be, quotes doubled. */
static void
test_csv_field (void)
{
  static const struct {
    const char *text, *want;
  } cases[] = {
    { "", "" },
    { "read", "read" },
    { "a b;c", "a b;c" },
    { "a,b", "\"a,b\"" },
    { "say \"hi\"", "\"say \"\"hi\"\"\"" },
    { "two\nlines", "\"two\nlines\"" },
    { "cr\rhere", "\"cr\rhere\"" },
    { "caf\xc3\xa9", "caf\xc3\xa9" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *got = csv_field (cases[i].text);
      g_assert_cmpstr (got, ==, cases[i].want);
    }
}

/* A table as CSV (headings, then rows, lines ending in CRLF; a '>' heading's mark not shown,
 * NULL cells empty) and as aligned text (columns as wide as their widest
 * cell in characters, numbers to the right, rows cut with a count). */
static void
test_table (void)
{
  const char *headings[] = { "name", ">count" };
  g_autoptr (TtvTable) t = ttv_table_new_after ("machine", G_N_ELEMENTS (headings), headings);
  const char *rows[][3] = {
    { "host-a", "caf\xc3\xa9, bar", "7" },
    { "host-b", "x", "1234" },
    { "host-b", NULL, "5" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    ttv_table_add_row (t, rows[i]);
  g_assert_cmpuint (ttv_table_get_n_rows (t), ==, 3);

  g_autoptr (GString) csv = g_string_new (NULL);
  ttv_table_append_csv (t, csv);
  g_assert_cmpstr (csv->str, ==,
                   "machine,name,count\r\n"
                   "host-a,\"caf\xc3\xa9, bar\",7\r\n"
                   "host-b,x,1234\r\n"
                   "host-b,,5\r\n");

  g_autoptr (GString) text = g_string_new (NULL);
  ttv_table_append_text (t, text, "  ", 2);
  g_auto (GStrv) lines = g_strsplit (text->str, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 5);
  g_assert_true (g_str_has_prefix (lines[0], "  machine"));
  /* "café, bar" is nine characters (ten bytes): the count column starts
   * at the same character on every line, and ends there too. */
  glong end = g_utf8_strlen (lines[0], -1);
  g_assert_true (g_str_has_suffix (lines[0], "count"));
  g_assert_true (g_str_has_suffix (lines[1], "    7"));
  g_assert_cmpint (g_utf8_strlen (lines[1], -1), ==, end);
  g_assert_true (g_str_has_suffix (lines[2], " 1234"));
  g_assert_cmpint (g_utf8_strlen (lines[2], -1), ==, end);
  g_assert_nonnull (strstr (lines[3], "1 more row"));
  g_assert_cmpstr (lines[4], ==, "");
}

/* JSON strings of names a trace may hold: escapes, and U+FFFD for a byte
 * that is not UTF-8, so that every line parses. */
static void
test_json_strings (void)
{
  g_autoptr (GString) out = g_string_new (NULL);
  ttv_json_append_member_string (out, "na\"me", "a\\b\x01" "c\xff" "d\xc3\xa9");
  g_assert_cmpstr (out->str, ==, ",\"na\\\"me\":\"a\\\\b\\u0001c\xef\xbf\xbd" "d\xc3\xa9\"");
  g_assert_true (g_utf8_validate (out->str, -1, NULL));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/analysis/output/csv-field", test_csv_field);
  g_test_add_func ("/analysis/output/table", test_table);
  g_test_add_func ("/analysis/output/json-strings", test_json_strings);
  return g_test_run ();
}
