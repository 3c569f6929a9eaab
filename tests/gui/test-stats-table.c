/* test-stats-table.c: the statistics viewer's number formats and table
 * images without a display: durations with units and their rounding,
 * sizes, the rows left out, names escaped in the SVG, names that are not
 * UTF-8, bad sizes and paths. */
#include "ttv-stats-format.h"
#include "ttv-stats-table.h"
#include "ttv-test-util.h"

#include <gdk-pixbuf/gdk-pixbuf.h>
#include <glib/gstdio.h>
#include <string.h>

static void
test_durations (void)
{
  static const struct { gint64 ns; const char *text; } cases[] = {
    { -1, "" }, { 0, "0 ns" }, { 1, "1 ns" }, { 999, "999 ns" }, { 1000, "1.000 µs" },
    { 1234, "1.234 µs" }, { 12346, "12.35 µs" }, { 123456, "123.5 µs" },
    { 999949, "999.9 µs" }, { 999960, "1.000 ms" }, { 999999, "1.000 ms" },
    { 1234567, "1.235 ms" }, { 99996000, "100.0 ms" }, { 999960000, "1.000 s" },
    { 2462766300, "2.463 s" }, { 61000000000, "61.00 s" }, { 3725400000000, "3725.4 s" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = ttv_stats_format_duration (cases[i].ns);
      g_assert_cmpstr (text, ==, cases[i].text);
    }
}

static void
test_counts (void)
{
  g_autofree char *a = ttv_stats_format_count (0, TRUE);
  g_autofree char *b = ttv_stats_format_count (0, FALSE);
  g_autofree char *c = ttv_stats_format_count (199946, TRUE);

  g_assert_cmpstr (a, ==, "");
  g_assert_cmpstr (b, ==, "0");
  g_assert_cmpstr (c, ==, "199946");     /* the tests run in the C locale: no grouping */
}

/* A table of @n rows: a root, then children named "row N" (one with
 * characters that XML escapes). */
static TtvStatsTable *
make_table (guint n)
{
  TtvStatsTable *t = ttv_stats_table_new ("Statistics of <test> & co", 3);

  t->headers[0] = "Name";
  t->headers[1] = "Count";
  t->headers[2] = "Total";
  t->right_aligned[1] = t->right_aligned[2] = TRUE;
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *name = i == 1 ? g_strdup ("a<b>&\"c\"") : g_strdup_printf ("row %u", i);
      g_autofree char *count = g_strdup_printf ("%u", i * 10);
      const char *cells[] = { name, count, "1.234 ms" };

      ttv_stats_table_add_row (t, i ? 1 : 0, i == 0, i == 0, cells);
    }
  return t;
}

static void
png_size (const char *path, int *w, int *h)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GdkPixbuf) pix = gdk_pixbuf_new_from_file (path, &error);

  g_assert_no_error (error);
  *w = gdk_pixbuf_get_width (pix);
  *h = gdk_pixbuf_get_height (pix);
}

static void
test_sizes (void)
{
  const char *dir = ttv_test_get_tmp_dir ();
  g_autofree char *png = g_build_filename (dir, "t.png", NULL);
  g_autoptr (TtvStatsTable) small = make_table (5);
  g_autoptr (TtvStatsTable) big = make_table (15);
  g_autoptr (GError) error = NULL;
  int w5, h5, w15, h15, w, h, nw, nh;

  ttv_stats_table_get_natural_size (small, &w5, &h5);
  ttv_stats_table_get_natural_size (big, &w15, &h15);
  g_assert_cmpint ((h15 - h5) % 10, ==, 0);
  g_assert_cmpint ((h15 - h5) / 10, >=, 12);
  g_assert_cmpint (w15, >=, w5);
  /* 0x0: the natural size. */
  g_assert_true (ttv_stats_table_write (big, png, 0, 0, &error));
  png_size (png, &nw, &nh);
  g_assert_cmpint (nw, ==, w15);
  g_assert_cmpint (nh, ==, h15);
  /* Any size asked, narrower than the names too. */
  g_assert_true (ttv_stats_table_write (big, png, 120, 90, &error));
  png_size (png, &w, &h);
  g_assert_cmpint (w, ==, 120);
  g_assert_cmpint (h, ==, 90);
  g_assert_true (ttv_stats_table_write (big, png, 2000, 1000, &error));
  png_size (png, &w, &h);
  g_assert_cmpint (w, ==, 2000);
  g_assert_cmpint (h, ==, 1000);
  g_assert_no_error (error);
}

/* A title wider than the table: the table still spans the image (its
 * header's grey reaches the right margin). */
static void
test_wide_title (void)
{
  const char *dir = ttv_test_get_tmp_dir ();
  g_autofree char *png = g_build_filename (dir, "t.png", NULL);
  g_autoptr (TtvStatsTable) t = make_table (2);
  g_autoptr (GError) error = NULL;
  g_autoptr (GdkPixbuf) pix = NULL;
  int w, h, narrow_w, narrow_h, grey = 0;

  ttv_stats_table_get_natural_size (t, &narrow_w, &narrow_h);
  g_free (t->title);
  t->title = g_strnfill (200, 'W');
  ttv_stats_table_get_natural_size (t, &w, &h);
  g_assert_cmpint (w, >, narrow_w + 100);
  g_assert_true (ttv_stats_table_write (t, png, 0, 0, &error));
  pix = gdk_pixbuf_new_from_file (png, &error);
  g_assert_no_error (error);
  for (int y = 0; y < h / 2; y++)
    {
      const guchar *p = gdk_pixbuf_read_pixels (pix) + y * gdk_pixbuf_get_rowstride (pix)
                        + (w - 12) * gdk_pixbuf_get_n_channels (pix);
      grey += p[0] == 0xe6 && p[1] == 0xe6 && p[2] == 0xe6;
    }
  g_assert_cmpint (grey, >, 10);
}

static void
test_svg (void)
{
  const char *dir = ttv_test_get_tmp_dir ();
  g_autofree char *svg = g_build_filename (dir, "t.svg", NULL);
  g_autoptr (TtvStatsTable) t = make_table (40);
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;
  int w, h;

  ttv_stats_table_get_natural_size (t, &w, &h);
  /* Room for about half the rows: the rest is counted in a last line. */
  g_assert_true (ttv_stats_table_write (t, svg, w, h / 2, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (svg, &text, NULL, NULL));
  g_assert_nonnull (strstr (text, "<title>Statistics of &lt;test&gt; &amp; co</title>"));
  g_assert_nonnull (strstr (text, ">a&lt;b&gt;&amp;&quot;c&quot;</text>"));
  g_assert_nonnull (strstr (text, ">row 2</text>"));
  g_assert_null (strstr (text, ">row 39</text>"));
  g_assert_nonnull (strstr (text, " more rows</text>"));
  g_assert_nonnull (strstr (text, "text-anchor=\"end\">1.234 ms</text>"));
}

/* Names that are not UTF-8 (a task's comm may hold any byte): drawn as
 * U+FFFD in the PNG (Pango warned of them, and a warning fails this
 * test) and written so in the SVG, which stays UTF-8. */
static void
test_names_not_utf8 (void)
{
  const char *dir = ttv_test_get_tmp_dir ();
  g_autofree char *png = g_build_filename (dir, "not-utf8.png", NULL);
  g_autofree char *svg = g_build_filename (dir, "not-utf8.svg", NULL);
  g_autoptr (TtvStatsTable) t = ttv_stats_table_new ("Statistics of fi\xff" "d", 2);
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;
  const char *cells[] = { "fi\xff" "d", "1.000 ms" };

  t->headers[0] = "Name";
  t->headers[1] = "Time";
  ttv_stats_table_add_row (t, 0, FALSE, FALSE, cells);
  g_assert_true (ttv_stats_table_write (t, png, 0, 0, &error));
  g_assert_no_error (error);
  g_assert_true (ttv_stats_table_write (t, svg, 0, 0, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (svg, &text, NULL, NULL));
  g_assert_true (g_utf8_validate (text, -1, NULL));
  g_assert_nonnull (strstr (text, "<title>Statistics of fi\xef\xbf\xbd" "d</title>"));
  g_assert_nonnull (strstr (text, ">fi\xef\xbf\xbd" "d</text>"));
}

static void
test_bad (void)
{
  g_autoptr (TtvStatsTable) t = make_table (3);
  g_autoptr (GError) e1 = NULL, e2 = NULL, e3 = NULL;
  g_autofree char *never = g_build_filename (ttv_test_get_tmp_dir (), "never.png", NULL);

  g_assert_false (ttv_stats_table_write (t, "/nonexistent/dir/t.png", 0, 0, &e1));
  g_assert_nonnull (strstr (e1->message, "/nonexistent/dir/t.png"));
  g_assert_false (ttv_stats_table_write (t, "/nonexistent/dir/t.svg", 0, 0, &e2));
  g_assert_nonnull (strstr (e2->message, "/nonexistent/dir/t.svg"));
  g_assert_false (ttv_stats_table_write (t, never, 40000, 10, &e3));
  g_assert_error (e3, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_assert_false (g_file_test (never, G_FILE_TEST_EXISTS));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/statistics/format/durations", test_durations);
  g_test_add_func ("/statistics/format/counts", test_counts);
  g_test_add_func ("/statistics/table/sizes", test_sizes);
  g_test_add_func ("/statistics/table/wide-title", test_wide_title);
  g_test_add_func ("/statistics/table/names-not-utf8", test_names_not_utf8);
  g_test_add_func ("/statistics/table/svg", test_svg);
  g_test_add_func ("/statistics/table/bad", test_bad);
  return g_test_run ();
}
