/* test-bookmarks.c: bookmarks.xml (seed 000) parsing, writing, atomic saves,
 * and where each kind of trace keeps them (ttv-bookmarks.c). */
#include "ttv-archive.h"
#include "ttv-atomic-file.h"
#include "ttv-bookmarks.h"
#include "ttv-error.h"
#include "ttv-test-util.h"

#include <archive.h>
#include <archive_entry.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <utime.h>
#include <unistd.h>

static const char *tmp_base;    /* the program's temporary directory */

/* The seed's own forms, values bare as the seed writes them, and quoted. */
static const char seed_doc[] =
  "<bookmarks>\n"
  "  <location name=boot cpu=1 start_time=1.5 end_time=2.000000001>Some text</location>\n"
  "  <location name=\"point\" time=\"3\">a point</location>\n"
  "  <location name=c cycle=18446744073709551615>max cycle</location>\n"
  "  <location start_cycle=10 end_cycle=20 cpu=3/>\n"
  "  <!-- a comment with name=x inside -->\n"
  "  <future-element attr=1/>\n"
  "</bookmarks>\n";

static const char seed_doc_saved[] =
  "<bookmarks>\n"
  "  <location name=\"boot\" cpu=\"1\" start_time=\"1.500000000\" end_time=\"2.000000001\">Some text</location>\n"
  "  <location name=\"point\" time=\"3.000000000\">a point</location>\n"
  "  <location name=\"c\" cycle=\"18446744073709551615\">max cycle</location>\n"
  "  <location cpu=\"3\" start_cycle=\"10\" end_cycle=\"20\"></location>\n"
  "</bookmarks>\n";

static char *
tmp_path (const char *name)
{
  return g_build_filename (tmp_base, name, NULL);
}

static void
test_parse_seed_forms (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvBookmarks) l = ttv_bookmarks_parse (seed_doc, strlen (seed_doc), "seed.xml",
                                                    &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ttv_bookmarks_get_n (l), ==, 4);

  const TtvBookmark *b = ttv_bookmarks_get (l, 0);
  g_assert_cmpstr (b->name, ==, "boot");
  g_assert_cmpint (b->cpu, ==, 1);
  g_assert_cmpint (b->kind, ==, TTV_BOOKMARK_INTERVAL);
  g_assert_cmpint (b->start, ==, G_GINT64_CONSTANT (1500000000));
  g_assert_cmpint (b->end, ==, G_GINT64_CONSTANT (2000000001));
  g_assert_cmpstr (b->text, ==, "Some text");

  b = ttv_bookmarks_get (l, 1);
  g_assert_cmpint (b->kind, ==, TTV_BOOKMARK_TIME);
  g_assert_cmpint (b->cpu, ==, -1);
  g_assert_cmpint (b->start, ==, G_GINT64_CONSTANT (3000000000));
  g_assert_cmpint (b->end, ==, b->start);

  b = ttv_bookmarks_get (l, 2);
  g_assert_cmpint (b->kind, ==, TTV_BOOKMARK_CYCLE);
  g_assert_cmpuint (b->start_cycle, ==, G_MAXUINT64);
  g_assert_cmpuint (b->end_cycle, ==, G_MAXUINT64);

  b = ttv_bookmarks_get (l, 3);
  g_assert_cmpint (b->kind, ==, TTV_BOOKMARK_CYCLE_INTERVAL);
  g_assert_null (b->name);
  g_assert_null (b->text);
  g_assert_cmpint (b->cpu, ==, 3);
  g_assert_cmpuint (b->start_cycle, ==, 10);
  g_assert_cmpuint (b->end_cycle, ==, 20);

  /* Written back in the seed's form (quoted), cycles kept as cycles. */
  gsize len;
  g_autofree char *xml = ttv_bookmarks_to_xml (l, &len);
  g_assert_cmpstr (xml, ==, seed_doc_saved);
  g_assert_cmpuint (len, ==, strlen (seed_doc_saved));

  /* save, reload: equal */
  g_autofree char *path = tmp_path ("seed-bookmarks.xml");
  g_assert_true (ttv_bookmarks_save (l, path, &error));
  g_assert_no_error (error);
  g_autoptr (TtvBookmarks) again = ttv_bookmarks_load (path, &error);
  g_assert_no_error (error);
  g_assert_true (ttv_bookmarks_equal (l, again));
}

typedef struct {
  const char *name;
  const char *doc;
  int code;
  const char *where;            /* "file:line" expected in the message */
} BadCase;

static const BadCase bad_cases[] = {
  { "unclosed", "<bookmarks>\n\n<location time=\"1\">x</loc>\n</bookmarks>", TTV_FORMAT_ERROR_SYNTAX, "bad.xml:3:" },
  { "not-xml", "hello", TTV_FORMAT_ERROR_SYNTAX, "bad.xml:1:" },
  { "empty", "", TTV_FORMAT_ERROR_SYNTAX, "bad.xml:" },
  { "truncated", "<bookmarks>\n<location time=1>", TTV_FORMAT_ERROR_SYNTAX, "bad.xml:2:" },
  { "nul-inside", "<bookmarks>\n<loc\0ation/></bookmarks>", TTV_FORMAT_ERROR_SYNTAX, "bad.xml:" },
  { "wrong-root", "<system/>", TTV_FORMAT_ERROR_INVALID, "bad.xml:1:" },
  { "no-interval", "<bookmarks>\n<location name=\"x\"/></bookmarks>", TTV_FORMAT_ERROR_INVALID, "bad.xml:2:" },
  { "bad-time", "<bookmarks>\n\n\n<location time=\"1.0000000001\"/></bookmarks>", TTV_FORMAT_ERROR_INVALID, "bad.xml:4:" },
  { "negative-cycle", "<bookmarks><location cycle=\"-1\"/></bookmarks>", TTV_FORMAT_ERROR_INVALID, "bad.xml:1:" },
  { "cycle-overflow", "<bookmarks><location cycle=\"18446744073709551616\"/></bookmarks>", TTV_FORMAT_ERROR_INVALID, "bad.xml:1:" },
  { "half-interval", "<bookmarks><location start_time=\"1\"/></bookmarks>", TTV_FORMAT_ERROR_INVALID, "bad.xml:1:" },
  { "reversed", "<bookmarks><location start_time=\"2\" end_time=\"1\"/></bookmarks>", TTV_FORMAT_ERROR_INVALID, "bad.xml:1:" },
  { "two-forms", "<bookmarks><location time=\"2\" cycle=\"1\"/></bookmarks>", TTV_FORMAT_ERROR_INVALID, "bad.xml:1:" },
  { "bad-cpu", "<bookmarks><location time=\"2\" cpu=\"-1\"/></bookmarks>", TTV_FORMAT_ERROR_INVALID, "bad.xml:1:" },
  /* No DTD: no entity can be fetched or expanded. */
  { "external-entity", "<!DOCTYPE b [<!ENTITY e SYSTEM \"file:///etc/passwd\">]>\n<bookmarks><location time=\"1\">&e;</location></bookmarks>", TTV_FORMAT_ERROR_UNSUPPORTED, "bad.xml:1:" },
  { "quadratic-blowup", "<!DOCTYPE b [<!ENTITY a \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\">]>\n<bookmarks><location time=\"1\" name=\"&a;&a;&a;&a;&a;&a;&a;&a;\"/></bookmarks>", TTV_FORMAT_ERROR_UNSUPPORTED, "bad.xml:1:" },
};

static void
test_parse_bad (gconstpointer data)
{
  const BadCase *c = data;
  gsize len = strlen (c->doc);
  if (strcmp (c->name, "nul-inside") == 0)
    len = 25;
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvBookmarks) l = ttv_bookmarks_parse (c->doc, len, "bad.xml", &error);
  g_assert_null (l);
  g_assert_error (error, TTV_FORMAT_ERROR, c->code);
  g_test_message ("%s", error->message);
  g_assert_true (g_str_has_prefix (error->message, c->where));
}

static void
test_load_missing (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvBookmarks) l = ttv_bookmarks_load ("/nonexistent/info/bookmarks.xml", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ttv_bookmarks_get_n (l), ==, 0);

  /* A folder where the file should be is an I/O error, not "empty". */
  g_autoptr (TtvBookmarks) l2 = ttv_bookmarks_load (tmp_base, &error);
  g_assert_null (l2);
  g_assert_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_IO);
}

static void
test_edit (void)
{
  g_autoptr (TtvBookmarks) l = ttv_bookmarks_new ();
  ttv_bookmarks_add (l, ttv_bookmark_new ("c", 30, 30, NULL));
  ttv_bookmarks_add (l, ttv_bookmark_new_cycles ("cyc", 5, 1, "reversed"));
  ttv_bookmarks_add (l, ttv_bookmark_new ("a", 10, 20, "first"));
  ttv_bookmarks_add (l, ttv_bookmark_new ("b", 10, 15, ""));
  ttv_bookmarks_add (l, ttv_bookmark_new ("a2", 10, 20, "same time, later"));
  g_assert_cmpuint (ttv_bookmarks_get_n (l), ==, 5);
  g_assert_cmpint (ttv_bookmarks_get (l, 1)->kind, ==, TTV_BOOKMARK_CYCLE_INTERVAL);
  g_assert_cmpuint (ttv_bookmarks_get (l, 1)->start_cycle, ==, 1);
  g_assert_null (ttv_bookmarks_get (l, 3)->text);

  ttv_bookmarks_sort (l);
  const char *order[] = { "b", "a", "a2", "c", "cyc" };
  for (guint i = 0; i < 5; i++)
    g_assert_cmpstr (ttv_bookmarks_get (l, i)->name, ==, order[i]);

  g_assert_true (ttv_bookmarks_replace (l, 0, ttv_bookmark_new ("B", 1, 1, "replaced")));
  g_assert_cmpstr (ttv_bookmarks_get (l, 0)->name, ==, "B");
  g_assert_false (ttv_bookmarks_replace (l, 99, ttv_bookmark_new ("x", 1, 1, NULL)));
  g_assert_true (ttv_bookmarks_remove (l, 4));
  g_assert_false (ttv_bookmarks_remove (l, 4));
  g_assert_cmpuint (ttv_bookmarks_get_n (l), ==, 4);

  g_autoptr (TtvBookmark) copy = ttv_bookmark_copy (ttv_bookmarks_get (l, 1));
  g_assert_true (ttv_bookmark_equal (copy, ttv_bookmarks_get (l, 1)));
  g_assert_false (ttv_bookmark_equal (copy, ttv_bookmarks_get (l, 2)));
}

static void
test_escaping (void)
{
  g_autoptr (TtvBookmarks) l = ttv_bookmarks_new ();
  TtvBookmark *b = ttv_bookmark_new ("a \"quoted\" <name> & 'more'\nline", -5, 7,
                                     "text with <tags> & \"quotes\"\nand\ttabs\r\x01");
  b->cpu = 12;
  ttv_bookmarks_add (l, b);
  gsize len;
  g_autofree char *xml = ttv_bookmarks_to_xml (l, &len);
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvBookmarks) again = ttv_bookmarks_parse (xml, len, "escaped.xml", &error);
  g_assert_no_error (error);
  const TtvBookmark *r = ttv_bookmarks_get (again, 0);
  g_assert_cmpstr (r->name, ==, b->name);
  g_assert_cmpstr (r->text, ==, "text with <tags> & \"quotes\"\nand\ttabs\r");  /* \x01 dropped */
  g_assert_cmpint (r->start, ==, -5);
  g_assert_cmpint (r->cpu, ==, 12);
}

/* A file whose text holds bytes that are not UTF-8 (libxml2 lets them
 * through in CDATA after an encoding error): read as U+FFFD, so that
 * saving and reading again gives the same bookmarks (found by fuzzing). */
static void
test_invalid_utf8 (void)
{
  static const char doc[] = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<bookmarks>\n"
                            "  <location time=\"1.5\"><![CDATA[bad <\xC1\x88> bytes]]></location>\n</bookmarks>\n";
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvBookmarks) l = ttv_bookmarks_parse (doc, sizeof doc - 1, "utf8.xml", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ttv_bookmarks_get_n (l), ==, 1);
  const char *text = ttv_bookmarks_get (l, 0)->text;
  g_assert_true (g_utf8_validate (text, -1, NULL));
  g_assert_cmpstr (text, ==, "bad <\xEF\xBF\xBD\xEF\xBF\xBD> bytes");
  gsize len;
  g_autofree char *xml = ttv_bookmarks_to_xml (l, &len);
  g_autoptr (TtvBookmarks) again = ttv_bookmarks_parse (xml, len, "utf8-saved.xml", &error);
  g_assert_no_error (error);
  g_assert_true (ttv_bookmarks_equal (l, again));
}

static gboolean
dir_holds_only (const char *dir, const char *name)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *n;
  guint count = 0;
  while ((n = g_dir_read_name (d)) != NULL)
    {
      if (strcmp (n, name) != 0)
        {
          g_test_message ("unexpected %s in %s", n, dir);
          return FALSE;
        }
      count++;
    }
  return count == 1;
}

static guint
count_entries (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  guint n = 0;
  while (d && g_dir_read_name (d))
    n++;
  return n;
}

/* Sets the times of every file of @dir @seconds back. */
static void
age_files (const char *dir, guint seconds)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *n;
  gint64 now = g_get_real_time () / G_USEC_PER_SEC;
  while (d && (n = g_dir_read_name (d)))
    {
      g_autofree char *p = g_build_filename (dir, n, NULL);
      struct utimbuf t = { (time_t) (now - seconds), (time_t) (now - seconds) };
      g_assert_cmpint (utime (p, &t), ==, 0);
    }
}

static void
test_save_atomic (void)
{
  g_autofree char *dir = tmp_path ("atomic");
  g_autofree char *path = g_build_filename (dir, "bookmarks.xml", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvBookmarks) l = ttv_bookmarks_parse (seed_doc, strlen (seed_doc), "s", &error);
  g_assert_no_error (error);
  for (int i = 0; i < 3; i++)
    {
      g_assert_true (ttv_bookmarks_save (l, path, &error));
      g_assert_no_error (error);
      g_assert_true (dir_holds_only (dir, "bookmarks.xml"));
      ttv_bookmarks_add (l, ttv_bookmark_new ("more", i, i, NULL));
    }

  /* A failing save keeps the file as it was. */
  g_autofree char *before = NULL;
  g_assert_true (g_file_get_contents (path, &before, NULL, NULL));
  g_autofree char *below_file = g_build_filename (path, "x.xml", NULL);
  g_assert_false (ttv_bookmarks_save (l, below_file, &error));
  g_assert_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_IO);
  g_autofree char *after = NULL;
  g_assert_true (g_file_get_contents (path, &after, NULL, NULL));
  g_assert_cmpstr (before, ==, after);
  g_assert_true (dir_holds_only (dir, "bookmarks.xml"));
}

/* Hostile files where bookmarks.xml should be: refused at once, without
 * reading them whole or waiting on them; a save replaces them. */
static void
test_hostile_files (void)
{
  g_autofree char *dir = tmp_path ("hostile");
  g_autofree char *path = g_build_filename (dir, "bookmarks.xml", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvBookmarks) l = ttv_bookmarks_new ();
  ttv_bookmarks_add (l, ttv_bookmark_new ("kept", 5, 5, NULL));
  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);

  /* 200,000 attributes: libxml2 alone checks their names pairwise. */
  g_autoptr (GString) many = g_string_new ("<bookmarks><location time=\"1\"");
  for (guint i = 0; i < 200000; i++)
    g_string_append_printf (many, " a%u=\"\"", i);
  g_string_append (many, "/></bookmarks>");
  g_assert_true (g_file_set_contents (path, many->str, (gssize) many->len, NULL));
  gint64 t0 = g_get_monotonic_time ();
  g_assert_null (ttv_bookmarks_load (path, &error));
  g_assert_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_UNSUPPORTED);
  g_assert_nonnull (strstr (error->message, "attributes"));
  g_assert_cmpint (g_get_monotonic_time () - t0, <, 2 * G_USEC_PER_SEC);
  g_clear_error (&error);

  /* 1 GB (sparse): refused by its size, before reading. */
  g_assert_cmpint (truncate (path, (off_t) 1 << 30), ==, 0);
  t0 = g_get_monotonic_time ();
  g_assert_null (ttv_bookmarks_load (path, &error));
  g_assert_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_IO);
  g_assert_nonnull (strstr (error->message, "larger than"));
  g_assert_cmpint (g_get_monotonic_time () - t0, <, G_USEC_PER_SEC);
  g_clear_error (&error);

  /* A link to /dev/zero and a FIFO: refused without blocking; saving
   * replaces them with the file. */
  const char *kinds[] = { "character device", "FIFO" };
  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    {
      g_assert_cmpint (g_unlink (path), ==, 0);
      if (k == 0)
        g_assert_cmpint (symlink ("/dev/zero", path), ==, 0);
      else
        g_assert_cmpint (mkfifo (path, 0644), ==, 0);
      g_assert_null (ttv_bookmarks_load (path, &error));
      g_assert_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_IO);
      g_assert_nonnull (strstr (error->message, kinds[k]));
      g_clear_error (&error);
      g_assert_true (ttv_bookmarks_save (l, path, &error));
      g_assert_no_error (error);
      g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR) && !g_file_test (path, G_FILE_TEST_IS_SYMLINK));
      g_autoptr (TtvBookmarks) back = ttv_bookmarks_load (path, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (ttv_bookmarks_get_n (back), ==, 1);
    }
}

/* The temporary file of a save killed midway (its writer died, so its
 * lock is free) is removed by the next load and the next save; that of a
 * save still running (locked) is left alone. */
static void
test_stale_temporary_files (void)
{
  g_autofree char *dir = tmp_path ("stale");
  g_autofree char *path = g_build_filename (dir, "bookmarks.xml", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvBookmarks) l = ttv_bookmarks_new ();
  ttv_bookmarks_add (l, ttv_bookmark_new ("x", 1, 1, NULL));
  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_assert_true (ttv_bookmarks_save (l, path, &error));

  for (guint round = 0; round < 2; round++)
    {
      /* Saves killed in the middle: each child dies holding its lock. */
      for (guint i = 0; i < 3; i++)
        {
          pid_t pid = fork ();
          g_assert_cmpint (pid, >=, 0);
          if (pid == 0)
            {
              TtvAtomicFile *f = ttv_atomic_file_begin (path, NULL);
              if (f == NULL || write (ttv_atomic_file_get_fd (f), "<bookm", 6) != 6)
                _exit (1);
              _exit (0);        /* killed: no commit, no abort */
            }
          int status;
          g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
          g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
        }
      /* One still being written. */
      TtvAtomicFile *live = ttv_atomic_file_begin (path, NULL);
      g_assert_nonnull (live);
      g_assert_cmpuint (count_entries (dir), ==, 5);
      /* Past the age under which a file may not be locked yet. */
      age_files (dir, 10);
      if (round == 0)
        {
          g_autoptr (TtvBookmarks) back = ttv_bookmarks_load (path, &error);
          g_assert_no_error (error);
          g_assert_nonnull (back);
        }
      else
        g_assert_true (ttv_bookmarks_save (l, path, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (count_entries (dir), ==, 2);
      ttv_atomic_file_abort (live);
      g_assert_true (dir_holds_only (dir, "bookmarks.xml"));
    }
}

/* --- Per trace ---------------------------------------------------------------- */

static const TtvFormatClass fake_ltt = { .name = "ltt" };
static const TtvFormatClass fake_ctf = { .name = "ctf" };

static TtvTrace *
fake_trace (const char *path, const char *display_path, const TtvFormatClass *format)
{
  TtvTrace *t = g_new0 (TtvTrace, 1);
  t->format = format;
  t->path = g_strdup (path);
  t->display_path = g_strdup (display_path ? display_path : path);
  t->name = g_path_get_basename (t->display_path);
  return t;
}

static void
fake_trace_free (TtvTrace *t)
{
  g_free (t->path);
  g_free (t->display_path);
  g_free (t->name);
  g_free (t);
}

static TtvBookmarks *
sample (void)
{
  TtvBookmarks *l = ttv_bookmarks_parse (seed_doc, strlen (seed_doc), "seed", NULL);
  g_assert_nonnull (l);
  return l;
}

static void
test_trace_dir (void)
{
  g_autofree char *dir = tmp_path ("ltt-trace");
  g_autofree char *info = g_build_filename (dir, "info", NULL);
  g_assert_cmpint (g_mkdir_with_parents (info, 0755), ==, 0);
  g_autofree char *sys = g_build_filename (info, "system.xml", NULL);
  g_assert_true (g_file_set_contents (sys, "<system/>", -1, NULL));
  TtvTrace *t = fake_trace (dir, NULL, &fake_ltt);

  g_autoptr (GError) error = NULL;
  g_autoptr (TtvBookmarks) none = ttv_bookmarks_load_for_trace (t, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ttv_bookmarks_get_n (none), ==, 0);

  g_autoptr (TtvBookmarks) l = sample ();
  g_assert_true (ttv_bookmarks_trace_is_writable (t));
  g_assert_true (ttv_bookmarks_save_for_trace (l, t, &error));
  g_assert_no_error (error);
  g_autofree char *file = g_build_filename (info, "bookmarks.xml", NULL);
  g_assert_true (g_file_test (file, G_FILE_TEST_IS_REGULAR));
  g_autoptr (TtvBookmarks) again = ttv_bookmarks_load_for_trace (t, &error);
  g_assert_no_error (error);
  g_assert_true (ttv_bookmarks_equal (l, again));
  /* Only info/bookmarks.xml was touched. */
  g_autofree char *text = NULL;
  g_assert_true (g_file_get_contents (sys, &text, NULL, NULL));
  g_assert_cmpstr (text, ==, "<system/>");
  fake_trace_free (t);
}

static void
test_trace_read_only (void)
{
  g_autofree char *dir = tmp_path ("ro-trace");
  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  TtvTrace *t = fake_trace (dir, NULL, &fake_ltt);
  t->flags |= TTV_TRACE_FLAG_READ_ONLY;
  g_autoptr (TtvBookmarks) l = sample ();
  g_autoptr (GError) error = NULL;
  g_assert_false (ttv_bookmarks_trace_is_writable (t));
  g_assert_false (ttv_bookmarks_save_for_trace (l, t, &error));
  g_assert_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_IO);
  g_assert_nonnull (strstr (error->message, "read-only"));
  g_autofree char *info = g_build_filename (dir, "info", NULL);
  g_assert_false (g_file_test (info, G_FILE_TEST_EXISTS));

  /* The fallback beside it in the user's data folder, found again on load. */
  g_autofree char *fallback = ttv_bookmarks_dup_fallback_path (t);
  g_autofree char *data_home = g_build_filename (tmp_base, "data", NULL);
  g_assert_true (g_str_has_prefix (fallback, data_home));
  g_assert_nonnull (strstr (fallback, "ro-trace"));
  g_assert_nonnull (strstr (error->message, fallback));
  g_clear_error (&error);
  g_assert_true (ttv_bookmarks_save (l, fallback, &error));
  g_assert_no_error (error);
  g_autoptr (TtvBookmarks) again = ttv_bookmarks_load_for_trace (t, &error);
  g_assert_no_error (error);
  g_assert_true (ttv_bookmarks_equal (l, again));
  fake_trace_free (t);
}

static char *
run_sh (const char *script)
{
  const char *argv[] = { "/bin/sh", "-c", script, NULL };
  char *out = NULL;
  int status;
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out,
                               NULL, &status, NULL));
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  return g_strstrip (out);
}

static void
copy_tree (const char *from, const char *to)
{
  g_autofree char *script = g_strdup_printf ("cp -r '%s' '%s' && chmod -R u+w '%s'", from, to,
                                             to);
  g_free (run_sh (script));
}

static char *
babeltrace2_lines (const char *dir)
{
  g_autofree char *script = g_strdup_printf ("babeltrace2 '%s' 2>&1 | wc -l", dir);
  return run_sh (script);
}

static void
test_trace_ctf (void)
{
  /* A fake CTF trace: where the file goes. */
  g_autofree char *dir = tmp_path ("ctf-fake");
  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  TtvTrace *t = fake_trace (dir, NULL, &fake_ctf);
  g_assert_cmpstr (ttv_bookmarks_get_member_path (t), ==, ".ttv-bookmarks.xml");
  g_autoptr (TtvBookmarks) l = sample ();
  g_autoptr (GError) error = NULL;
  g_assert_true (ttv_bookmarks_save_for_trace (l, t, &error));
  g_assert_no_error (error);
  g_assert_true (dir_holds_only (dir, ".ttv-bookmarks.xml"));
  fake_trace_free (t);

  /* A real one: babeltrace2 still reads all of it with our file inside. */
  g_autofree char *src = ttv_test_dup_shared_ctf_trace ("bigendian-kernel");
  g_autofree char *bt2 = g_find_program_in_path ("babeltrace2");
  if (src == NULL)
    return;
  if (bt2 == NULL)
    {
      g_test_skip ("babeltrace2 is not installed");
      return;
    }
  g_autofree char *dest = tmp_path ("ctf-real");
  copy_tree (src, dest);
  g_autofree char *before = babeltrace2_lines (dest);
  t = fake_trace (dest, NULL, &fake_ctf);
  g_assert_true (ttv_bookmarks_save_for_trace (l, t, &error));
  g_assert_no_error (error);
  g_autofree char *after = babeltrace2_lines (dest);
  g_assert_cmpstr (before, ==, after);
  g_assert_cmpstr (after, ==, "14310");
  fake_trace_free (t);
}

static void
write_trace_archive (const char *path)
{
  static const char *const names[] = { "mytrace/", "mytrace/info/", "mytrace/info/system.xml",
                                        "mytrace/cpu/0" };
  struct archive *w = archive_write_new ();
  archive_write_set_format_pax_restricted (w);
  archive_write_add_filter_gzip (w);
  g_assert_cmpint (archive_write_open_filename (w, path), ==, ARCHIVE_OK);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      struct archive_entry *e = archive_entry_new ();
      gboolean is_dir = g_str_has_suffix (names[i], "/");
      archive_entry_set_pathname (e, names[i]);
      archive_entry_set_filetype (e, is_dir ? AE_IFDIR : AE_IFREG);
      archive_entry_set_perm (e, is_dir ? 0755 : 0644);
      archive_entry_set_size (e, is_dir ? 0 : 4);
      archive_entry_set_mtime (e, 1700000000, 0);
      archive_write_header (w, e);
      if (!is_dir)
        archive_write_data (w, "data", 4);
      archive_entry_free (e);
    }
  archive_write_close (w);
  archive_write_free (w);
}

static void
test_trace_archive (void)
{
  g_autofree char *tgz = tmp_path ("bm-trace.tar.gz");
  write_trace_archive (tgz);
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = ttv_archive_extract (tgz, &error);
  g_assert_no_error (error);
  TtvTrace *t = fake_trace (dir, tgz, &fake_ltt);
  g_autoptr (TtvBookmarks) l = sample ();
  g_assert_true (ttv_bookmarks_save_for_trace (l, t, &error));
  g_assert_no_error (error);
  /* This open trace sees them at once. */
  g_autoptr (TtvBookmarks) now = ttv_bookmarks_load_for_trace (t, &error);
  g_assert_no_error (error);
  g_assert_true (ttv_bookmarks_equal (l, now));
  fake_trace_free (t);

  /* Re-open: from the cache, then from the archive alone. */
  for (int pass = 0; pass < 2; pass++)
    {
      if (pass == 1)
        ttv_archive_clean_stale (0);
      g_autofree char *dir2 = ttv_archive_extract (tgz, &error);
      g_assert_no_error (error);
      g_assert_cmpstr (dir2, ==, dir);
      t = fake_trace (dir2, tgz, &fake_ltt);
      g_autoptr (TtvBookmarks) again = ttv_bookmarks_load_for_trace (t, &error);
      g_assert_no_error (error);
      g_assert_true (ttv_bookmarks_equal (l, again));
      fake_trace_free (t);
    }

  /* No temporary file left beside the archive. */
  g_autofree char *tmp_name = g_strdup (".bm-trace.tar.gz.");
  g_autoptr (GDir) d = g_dir_open (tmp_base, 0, NULL);
  const char *n;
  while ((n = g_dir_read_name (d)) != NULL)
    g_assert_false (g_str_has_prefix (n, tmp_name));

  /* Read-only archive trace: an archive error naming it. */
  t = fake_trace (dir, tgz, &fake_ltt);
  t->flags |= TTV_TRACE_FLAG_READ_ONLY;
  g_assert_false (ttv_bookmarks_save_for_trace (l, t, &error));
  g_assert_error (error, TTV_ARCHIVE_ERROR, TTV_ARCHIVE_ERROR_WRITE);
  g_assert_nonnull (strstr (error->message, tgz));
  fake_trace_free (t);
}

/* End to end: a real LTT trace written by ttv-gen as .tar.gz, opened with
 * ttv_trace_open, bookmarked, closed, opened again from a cold cache. */
static void
test_trace_archive_real (void)
{
  const char *build = g_getenv ("TTV_BUILD_DIR");
  g_autofree char *gen = build ? g_build_filename (build, "src", "cli", "ttv-gen", NULL) : NULL;
  if (gen == NULL || !g_file_test (gen, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("needs ttv-gen in $TTV_BUILD_DIR/src/cli");
      return;
    }
  g_autofree char *tgz = tmp_path ("gen-trace.tar.gz");
  g_autofree char *script = g_strdup_printf ("'%s' -o '%s' -n 2000 -c 2 >/dev/null", gen, tgz);
  g_free (run_sh (script));

  g_autoptr (GError) error = NULL;
  TtvTrace *t = ttv_trace_open (tgz, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (t->display_path, ==, tgz);
  g_assert_cmpstr (ttv_bookmarks_get_member_path (t), ==, "info/bookmarks.xml");
  guint n_tracefiles = t->tracefiles->len;
  g_autoptr (TtvBookmarks) l = ttv_bookmarks_new ();
  ttv_bookmarks_add (l, ttv_bookmark_new ("start", t->start, t->start, "first event"));
  ttv_bookmarks_add (l, ttv_bookmark_new ("all", t->start, t->end, NULL));
  g_assert_true (ttv_bookmarks_save_for_trace (l, t, &error));
  g_assert_no_error (error);
  ttv_trace_close (t);

  ttv_archive_clean_stale (0);
  t = ttv_trace_open (tgz, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (t->tracefiles->len, ==, n_tracefiles);
  g_autoptr (TtvBookmarks) again = ttv_bookmarks_load_for_trace (t, &error);
  g_assert_no_error (error);
  g_assert_true (ttv_bookmarks_equal (l, again));
  ttv_trace_close (t);
}

/* A hand-edited file: its comments, unknown elements and attributes, and
 * the locations still listed stay as written; only the others change. */
static const char hand_doc[] =
  "<?xml version=\"1.0\"?>\n"
  "<!-- my notes on this trace -->\n"
  "<bookmarks version=\"2\">\n"
  "  <!-- first: the boot -->\n"
  "  <location name=boot time=1 colour=\"red\">boot</location>\n"
  "  <future-element attr=1/>\n"
  "  <location name=gone time=2>x</location>\n"
  "  <location cycle=5/>\n"
  "  <!-- end -->\n"
  "</bookmarks>\n";

static const char hand_doc_saved[] =
  "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
  "<!-- my notes on this trace -->\n"
  "<bookmarks version=\"2\">\n"
  "  <!-- first: the boot -->\n"
  "  <location name=\"boot\" time=\"1\" colour=\"red\">boot</location>\n"
  "  <future-element attr=\"1\"/>\n"
  "  <location cycle=\"5\"/>\n"
  "  <location name=\"new\" cpu=\"2\" start_time=\"3.000000000\" end_time=\"4.000000000\">a &lt;new&gt; one</location>\n"
  "  <!-- end -->\n"
  "</bookmarks>\n";

static void
test_merge_keeps_hand_edits (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvBookmarks) l = ttv_bookmarks_parse (hand_doc, strlen (hand_doc), "hand", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ttv_bookmarks_get_n (l), ==, 3);
  g_assert_true (ttv_bookmarks_remove (l, 1));
  TtvBookmark *b = ttv_bookmark_new ("new", 3000000000, 4000000000, "a <new> one");
  b->cpu = 2;
  ttv_bookmarks_add (l, b);

  gsize length;
  g_autofree char *xml = ttv_bookmarks_to_xml_merged (l, hand_doc, strlen (hand_doc), &length);
  g_assert_cmpstr (xml, ==, hand_doc_saved);
  g_assert_cmpuint (length, ==, strlen (hand_doc_saved));
  g_autoptr (TtvBookmarks) again = ttv_bookmarks_parse (xml, length, "saved", &error);
  g_assert_no_error (error);
  g_assert_true (ttv_bookmarks_equal (l, again));

  /* Saving the same list again changes nothing. */
  g_autofree char *twice = ttv_bookmarks_to_xml_merged (l, xml, length, NULL);
  g_assert_cmpstr (twice, ==, xml);

  /* Everything removed: the rest stays. */
  g_autoptr (TtvBookmarks) none = ttv_bookmarks_new ();
  g_autofree char *empty = ttv_bookmarks_to_xml_merged (none, hand_doc, strlen (hand_doc), NULL);
  g_assert_null (strstr (empty, "<location"));
  g_assert_nonnull (strstr (empty, "<!-- end -->"));
  g_assert_nonnull (strstr (empty, "<future-element"));

  /* The seed's file, without a declaration: none is added. */
  g_autoptr (TtvBookmarks) seed = ttv_bookmarks_parse (seed_doc, strlen (seed_doc), "seed", NULL);
  g_autofree char *seed_saved = ttv_bookmarks_to_xml_merged (seed, seed_doc, strlen (seed_doc), NULL);
  g_assert_true (g_str_has_prefix (seed_saved, "<bookmarks>\n"));
  g_assert_nonnull (strstr (seed_saved, "<!-- a comment with name=x inside -->"));
  g_assert_nonnull (strstr (seed_saved, "<future-element attr=\"1\"/>"));

  /* Not a bookmarks document: the plain output. */
  g_autofree char *plain = ttv_bookmarks_to_xml (l, NULL);
  g_autofree char *from_bad = ttv_bookmarks_to_xml_merged (l, "<oops", 5, NULL);
  g_assert_cmpstr (from_bad, ==, plain);
  g_autofree char *from_other = ttv_bookmarks_to_xml_merged (l, "<other/>", 8, NULL);
  g_assert_cmpstr (from_other, ==, plain);
}

static void
test_save_keeps_hand_edits (void)
{
  g_autofree char *path = tmp_path ("hand.xml");
  g_autoptr (GError) error = NULL;
  g_assert_true (g_file_set_contents (path, hand_doc, -1, NULL));
  g_autoptr (TtvBookmarks) l = ttv_bookmarks_load (path, &error);
  g_assert_no_error (error);
  g_assert_true (ttv_bookmarks_remove (l, 1));
  TtvBookmark *b = ttv_bookmark_new ("new", 3000000000, 4000000000, "a <new> one");
  b->cpu = 2;
  ttv_bookmarks_add (l, b);
  g_assert_true (ttv_bookmarks_save (l, path, &error));
  g_assert_no_error (error);
  g_autofree char *text = NULL;
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_cmpstr (text, ==, hand_doc_saved);
}

/* A read-only trace: its bookmarks beside it, or in the user's folder. */
static void
test_trace_places (void)
{
  g_autofree char *parent = tmp_path ("places");
  g_autofree char *dir = g_build_filename (parent, "ro", NULL);
  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  TtvTrace *t = fake_trace (dir, NULL, &fake_ltt);
  t->flags |= TTV_TRACE_FLAG_READ_ONLY;
  g_autoptr (TtvBookmarks) l = sample ();
  g_autoptr (GError) error = NULL;
  TtvBookmarksPlace place = TTV_BOOKMARKS_USER_DIR;

  g_autofree char *in = ttv_bookmarks_dup_path (t, TTV_BOOKMARKS_IN_TRACE);
  g_autofree char *beside = ttv_bookmarks_dup_path (t, TTV_BOOKMARKS_BESIDE_TRACE);
  g_autofree char *user = ttv_bookmarks_dup_path (t, TTV_BOOKMARKS_USER_DIR);
  g_autofree char *want_in = g_build_filename (dir, "info", "bookmarks.xml", NULL);
  g_autofree char *want_beside = g_build_filename (parent, "ro.ttv-bookmarks.xml", NULL);
  g_assert_cmpstr (in, ==, want_in);
  g_assert_cmpstr (beside, ==, want_beside);
  g_autofree char *fallback = ttv_bookmarks_dup_fallback_path (t);
  g_assert_cmpstr (user, ==, fallback);

  g_assert_false (ttv_bookmarks_place_is_writable (t, TTV_BOOKMARKS_IN_TRACE));
  g_assert_true (ttv_bookmarks_place_is_writable (t, TTV_BOOKMARKS_BESIDE_TRACE));
  g_assert_true (ttv_bookmarks_place_is_writable (t, TTV_BOOKMARKS_USER_DIR));
  g_assert_false (ttv_bookmarks_find_for_trace (t, &place));
  g_assert_false (ttv_bookmarks_save_for_trace_full (l, t, TTV_BOOKMARKS_IN_TRACE, NULL, NULL,
                                                     NULL, &error));
  g_assert_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_IO);
  g_clear_error (&error);

  /* Beside: found first after the trace's own file. */
  g_assert_true (ttv_bookmarks_save_for_trace_full (l, t, TTV_BOOKMARKS_USER_DIR, NULL, NULL,
                                                    NULL, &error));
  g_assert_no_error (error);
  g_assert_true (ttv_bookmarks_find_for_trace (t, &place));
  g_assert_cmpint (place, ==, TTV_BOOKMARKS_USER_DIR);
  g_autoptr (TtvBookmarks) one = ttv_bookmarks_new ();
  ttv_bookmarks_add (one, ttv_bookmark_new ("beside", 5, 5, NULL));
  g_assert_true (ttv_bookmarks_save_for_trace_full (one, t, TTV_BOOKMARKS_BESIDE_TRACE, NULL,
                                                    NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_test (want_beside, G_FILE_TEST_IS_REGULAR));
  g_assert_true (ttv_bookmarks_find_for_trace (t, &place));
  g_assert_cmpint (place, ==, TTV_BOOKMARKS_BESIDE_TRACE);
  g_autoptr (TtvBookmarks) loaded = ttv_bookmarks_load_for_trace (t, &error);
  g_assert_no_error (error);
  g_assert_true (ttv_bookmarks_equal (one, loaded));
  /* Nothing was written into the trace. */
  g_autofree char *info = g_build_filename (dir, "info", NULL);
  g_assert_false (g_file_test (info, G_FILE_TEST_EXISTS));

  /* Beside an archive: named after the archive. */
  g_autofree char *tgz = g_build_filename (parent, "t.tar.gz", NULL);
  fake_trace_free (t);
  t = fake_trace (dir, tgz, &fake_ltt);
  g_autofree char *beside_tgz = ttv_bookmarks_dup_path (t, TTV_BOOKMARKS_BESIDE_TRACE);
  g_autofree char *want_tgz = g_build_filename (parent, "t.tar.gz.ttv-bookmarks.xml", NULL);
  g_assert_cmpstr (beside_tgz, ==, want_tgz);
  fake_trace_free (t);
}

static void
test_trace_archive_cancel (void)
{
  g_autofree char *tgz = tmp_path ("bm-cancel.tar.gz");
  write_trace_archive (tgz);
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = ttv_archive_extract (tgz, &error);
  g_assert_no_error (error);
  TtvTrace *t = fake_trace (dir, tgz, &fake_ltt);
  g_autoptr (TtvBookmarks) l = sample ();
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autofree char *before = NULL, *after = NULL;
  gsize before_len, after_len;

  g_assert_true (g_file_get_contents (tgz, &before, &before_len, NULL));
  g_cancellable_cancel (cancellable);
  g_assert_false (ttv_bookmarks_save_for_trace_full (l, t, TTV_BOOKMARKS_IN_TRACE, cancellable,
                                                     NULL, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_true (g_file_get_contents (tgz, &after, &after_len, NULL));
  g_assert_cmpmem (after, after_len, before, before_len);
  /* The open trace's copy did not change either. */
  g_autoptr (GError) load_error = NULL;
  g_autoptr (TtvBookmarks) now = ttv_bookmarks_load_for_trace (t, &load_error);
  g_assert_no_error (load_error);
  g_assert_cmpuint (ttv_bookmarks_get_n (now), ==, 0);
  fake_trace_free (t);
}

/* The manual clock offset of the trace, in the same file: read, written,
 * kept and replaced in a hand-edited file, refused when malformed. */
static void
test_clock_offset (void)
{
  static const char doc[] = "<bookmarks>\n  <!-- mine -->\n  <clock offset=\"-1.500000001\"/>\n"
                            "  <location time=\"5\" name=\"a\"/>\n</bookmarks>\n";
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvBookmarks) l = ttv_bookmarks_parse (doc, sizeof doc - 1, "b.xml", &error);
  g_assert_no_error (error);
  gint64 offset = 0;
  g_assert_true (ttv_bookmarks_get_clock_offset (l, &offset));
  g_assert_cmpint (offset, ==, -1500000001);
  g_assert_cmpuint (ttv_bookmarks_get_n (l), ==, 1);

  /* written and read back */
  ttv_bookmarks_set_clock_offset (l, TRUE, 250000000);
  gsize length;
  g_autofree char *xml = ttv_bookmarks_to_xml (l, &length);
  g_assert_nonnull (strstr (xml, "<clock offset=\"+0.250000000\"/>"));
  g_autoptr (TtvBookmarks) again = ttv_bookmarks_parse (xml, length, "b.xml", &error);
  g_assert_no_error (error);
  g_assert_true (ttv_bookmarks_equal (l, again));

  /* merged into the hand-edited file: the comment kept, one clock */
  g_autofree char *merged = ttv_bookmarks_to_xml_merged (l, doc, sizeof doc - 1, &length);
  g_assert_nonnull (strstr (merged, "<!-- mine -->"));
  g_assert_nonnull (strstr (merged, "offset=\"+0.250000000\""));
  g_assert_null (strstr (merged, "-1.500000001"));
  g_clear_pointer (&again, ttv_bookmarks_free);
  again = ttv_bookmarks_parse (merged, length, "b.xml", &error);
  g_assert_no_error (error);
  g_assert_true (ttv_bookmarks_equal (l, again));
  /* removed */
  ttv_bookmarks_set_clock_offset (l, FALSE, 0);
  g_free (merged);
  merged = ttv_bookmarks_to_xml_merged (l, doc, sizeof doc - 1, &length);
  g_assert_null (strstr (merged, "<clock"));
  g_assert_false (ttv_bookmarks_get_clock_offset (l, NULL));

  static const struct {
    const char *xml;
    const char *message;
  } bad[] = {
    { "<bookmarks><clock/></bookmarks>", "b.xml:1: <clock> needs offset=" },
    { "<bookmarks><clock offset=\"soon\"/></bookmarks>", "is not a number of seconds" },
    { "<bookmarks><clock offset=\"1e9\"/></bookmarks>", "is not a number of seconds" },
    { "<bookmarks><clock offset=\"2000000\"/></bookmarks>", "is not a number of seconds" },
    { "<bookmarks><clock offset=\"--1\"/></bookmarks>", "is not a number of seconds" },
    { "<bookmarks><clock offset=\"1\"/>\n<clock offset=\"2\"/></bookmarks>", "b.xml:2: more than one <clock>" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_clear_error (&error);
      TtvBookmarks *b = ttv_bookmarks_parse (bad[i].xml, strlen (bad[i].xml), "b.xml", &error);
      g_assert_null (b);
      g_assert_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_INVALID);
      g_assert_nonnull (strstr (error->message, bad[i].message));
    }
}

int
main (int argc, char **argv)
{
  tmp_base = ttv_test_get_tmp_dir ();
  g_autofree char *cache = g_build_filename (tmp_base, "cache", NULL);
  g_autofree char *data = g_build_filename (tmp_base, "data", NULL);
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  g_setenv ("XDG_DATA_HOME", data, TRUE);

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/bookmarks/parse/seed-forms", test_parse_seed_forms);
  for (guint i = 0; i < G_N_ELEMENTS (bad_cases); i++)
    {
      g_autofree char *name = g_strdup_printf ("/bookmarks/parse/bad/%s", bad_cases[i].name);
      g_test_add_data_func (name, &bad_cases[i], test_parse_bad);
    }
  g_test_add_func ("/bookmarks/load/missing", test_load_missing);
  g_test_add_func ("/bookmarks/edit", test_edit);
  g_test_add_func ("/bookmarks/clock-offset", test_clock_offset);
  g_test_add_func ("/bookmarks/escaping", test_escaping);
  g_test_add_func ("/bookmarks/invalid-utf8", test_invalid_utf8);
  g_test_add_func ("/bookmarks/save/atomic", test_save_atomic);
  g_test_add_func ("/bookmarks/load/hostile-files", test_hostile_files);
  g_test_add_func ("/bookmarks/save/stale-temporary-files", test_stale_temporary_files);
  g_test_add_func ("/bookmarks/trace/directory", test_trace_dir);
  g_test_add_func ("/bookmarks/trace/read-only", test_trace_read_only);
  g_test_add_func ("/bookmarks/trace/ctf", test_trace_ctf);
  g_test_add_func ("/bookmarks/trace/archive", test_trace_archive);
  g_test_add_func ("/bookmarks/trace/archive-ttv-gen", test_trace_archive_real);
  g_test_add_func ("/bookmarks/merge/hand-edits", test_merge_keeps_hand_edits);
  g_test_add_func ("/bookmarks/save/hand-edits", test_save_keeps_hand_edits);
  g_test_add_func ("/bookmarks/trace/places", test_trace_places);
  g_test_add_func ("/bookmarks/trace/archive-cancel", test_trace_archive_cancel);
  return g_test_run ();
}
