/* test-archive.c: traces given as .tar.gz / .tar: safe extraction, the cache,
 * hostile archives and the atomic member rewrite (ttv-archive.c). */
#include "ttv-archive.h"
#include "ttv-remove-tree.h"
#include "ttv-error.h"
#include "ttv-test-util.h"
#include "ttv-trace.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *tmp_base;    /* the program's temporary directory: archives, cache and data homes */

typedef enum { M_FILE, M_DIR, M_SYMLINK, M_HARDLINK, M_CHAR, M_FIFO } MemberType;

typedef struct {
  const char *name;
  MemberType type;
  const char *data;             /* contents, or link target */
  int mode;                     /* 0: 0644 / 0755 */
} Member;

static const Member good_trace[] = {
  { "mytrace/", M_DIR, NULL, 0 },
  { "mytrace/info/", M_DIR, NULL, 0 },
  { "mytrace/info/system.xml", M_FILE, "<system node_name=\"x\" cpu=\"1\">\n</system>\n", 0 },
  { "mytrace/cpu/0", M_FILE, "\x01\x02\x03\xff binary", 0 },
  { "mytrace/control/facilities", M_FILE, "facilities", 04755 },
  { "mytrace/cpu/latest", M_SYMLINK, "0", 0 },
};

static char *
tmp_path (const char *name)
{
  return g_build_filename (tmp_base, name, NULL);
}

static void
write_archive_full (const char *path, gboolean gzip, const Member *m, guint n, time_t mtime)
{
  struct archive *w = archive_write_new ();
  g_assert_cmpint (archive_write_set_format_pax_restricted (w), ==, ARCHIVE_OK);
  if (gzip)
    {
      g_assert_cmpint (archive_write_add_filter_gzip (w), ==, ARCHIVE_OK);
      archive_write_set_filter_option (w, "gzip", "compression-level", "1");
    }
  g_assert_cmpint (archive_write_open_filename (w, path), ==, ARCHIVE_OK);
  for (guint i = 0; i < n; i++)
    {
      struct archive_entry *e = archive_entry_new ();
      archive_entry_set_pathname (e, m[i].name);
      archive_entry_set_mtime (e, mtime + i, 0);
      switch (m[i].type)
        {
        case M_FILE:
          archive_entry_set_filetype (e, AE_IFREG);
          archive_entry_set_perm (e, m[i].mode ? m[i].mode : 0644);
          archive_entry_set_size (e, (la_int64_t) strlen (m[i].data));
          break;
        case M_DIR:
          archive_entry_set_filetype (e, AE_IFDIR);
          archive_entry_set_perm (e, m[i].mode ? m[i].mode : 0755);
          break;
        case M_SYMLINK:
          archive_entry_set_filetype (e, AE_IFLNK);
          archive_entry_set_perm (e, 0777);
          archive_entry_set_symlink (e, m[i].data);
          break;
        case M_HARDLINK:
          archive_entry_set_filetype (e, AE_IFREG);
          archive_entry_set_perm (e, 0644);
          archive_entry_set_hardlink (e, m[i].data);
          archive_entry_set_size (e, 0);
          break;
        case M_CHAR:
          archive_entry_set_filetype (e, AE_IFCHR);
          archive_entry_set_perm (e, 0666);
          archive_entry_set_rdev (e, makedev (1, 3));
          break;
        case M_FIFO:
          archive_entry_set_filetype (e, AE_IFIFO);
          archive_entry_set_perm (e, 0666);
          break;
        }
      g_assert_cmpint (archive_write_header (w, e), ==, ARCHIVE_OK);
      if (m[i].type == M_FILE)
        g_assert_cmpint (archive_write_data (w, m[i].data, strlen (m[i].data)), ==,
                         (la_ssize_t) strlen (m[i].data));
      archive_entry_free (e);
    }
  g_assert_cmpint (archive_write_close (w), ==, ARCHIVE_OK);
  archive_write_free (w);
}

static void
write_archive (const char *path, gboolean gzip, const Member *m, guint n)
{
  write_archive_full (path, gzip, m, n, 1700000000);
}

static char *
read_file (const char *path)
{
  char *text = NULL;
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return text;
}

/* Every name in the tree below @dir (relative, sorted), links not followed. */
static GPtrArray *names_found;
static gsize names_prefix;

static int
collect (const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
  g_ptr_array_add (names_found, g_strdup (path + names_prefix));
  return 0;
}

static int
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

static char *
list_tree (const char *dir)
{
  names_found = g_ptr_array_new_with_free_func (g_free);
  names_prefix = strlen (dir);
  nftw (dir, collect, 16, FTW_PHYS);
  g_ptr_array_sort (names_found, compare_names);
  g_ptr_array_add (names_found, NULL);
  char *joined = g_strjoinv (" ", (char **) names_found->pdata);
  g_ptr_array_unref (names_found);
  return joined;
}

static char *
cache_dir (void)
{
  return ttv_archive_dup_cache_dir ();
}

/* No half-extracted or temporary folder left in the cache. */
static void
assert_no_leftovers (void)
{
  g_autofree char *cache = cache_dir ();
  g_autoptr (GDir) d = g_dir_open (cache, 0, NULL);
  if (d == NULL)
    return;
  const char *name;
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_assert_null (strstr (name, ".tmp-"));
      g_assert_null (strstr (name, ".old-"));
    }
}

static void
test_is_archive (void)
{
  g_autofree char *tgz = tmp_path ("is.tar.gz");
  g_autofree char *bin = tmp_path ("is-gzip.bin");
  g_autofree char *tar_bin = tmp_path ("is-tar.bin");
  g_autofree char *txt = tmp_path ("is.txt");
  write_archive (tgz, TRUE, good_trace, G_N_ELEMENTS (good_trace));
  write_archive (bin, TRUE, good_trace, 1);
  write_archive (tar_bin, FALSE, good_trace, 1);
  g_assert_true (g_file_set_contents (txt, "hello", -1, NULL));

  g_assert_true (ttv_archive_is_archive (tgz));
  g_assert_true (ttv_archive_is_archive (bin));         /* gzip magic */
  g_assert_true (ttv_archive_is_archive (tar_bin));     /* ustar at 257 */
  g_assert_false (ttv_archive_is_archive (txt));
  g_assert_false (ttv_archive_is_archive (tmp_base));   /* a directory */
  g_assert_true (ttv_archive_is_archive ("/nonexistent/x.TGZ"));
  g_assert_true (ttv_archive_is_archive ("/nonexistent/x.tar"));
  g_assert_false (ttv_archive_is_archive ("/nonexistent/x"));
}

static void
test_extract_good (void)
{
  g_autofree char *tgz = tmp_path ("good.tar.gz");
  write_archive (tgz, TRUE, good_trace, G_N_ELEMENTS (good_trace));
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = ttv_archive_extract (tgz, &error);
  g_assert_no_error (error);
  g_assert_nonnull (dir);
  g_autofree char *cache = cache_dir ();
  g_assert_true (g_str_has_prefix (dir, cache));
  g_assert_true (g_str_has_suffix (dir, "/mytrace"));

  g_autofree char *sys = g_build_filename (dir, "info", "system.xml", NULL);
  g_autofree char *text = read_file (sys);
  g_assert_cmpstr (text, ==, good_trace[2].data);
  g_autofree char *cpu = g_build_filename (dir, "cpu", "0", NULL);
  g_autofree char *bin = NULL;
  gsize len;
  g_assert_true (g_file_get_contents (cpu, &bin, &len, NULL));
  g_assert_cmpmem (bin, len, good_trace[3].data, strlen (good_trace[3].data));

  /* setuid dropped; mtime kept */
  g_autofree char *fac = g_build_filename (dir, "control", "facilities", NULL);
  struct stat st;
  g_assert_cmpint (stat (fac, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 07777, ==, 0755);
  g_assert_cmpint (st.st_mtime, ==, 1700000004);

  g_autofree char *link = g_build_filename (dir, "cpu", "latest", NULL);
  g_autofree char *target = g_file_read_link (link, NULL);
  g_assert_cmpstr (target, ==, "0");
  assert_no_leftovers ();
}

static void
test_extract_no_top (void)
{
  static const Member flat[] = {
    { "metadata", M_FILE, "/* CTF 1.8 */", 0 },
    { "./channel0_0", M_FILE, "data", 0 },
  };
  g_autofree char *tgz = tmp_path ("flat.tgz");
  write_archive (tgz, TRUE, flat, G_N_ELEMENTS (flat));
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = ttv_archive_extract (tgz, &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_suffix (dir, "/root"));
  g_autofree char *tree = list_tree (dir);
  g_assert_cmpstr (tree, ==, " /channel0_0 /metadata");
}

static void
test_cache_reuse (void)
{
  g_autofree char *tgz = tmp_path ("reuse.tar.gz");
  write_archive (tgz, TRUE, good_trace, G_N_ELEMENTS (good_trace));
  g_autoptr (GError) error = NULL;
  g_autofree char *dir1 = ttv_archive_extract (tgz, &error);
  g_assert_no_error (error);
  g_autofree char *sys = g_build_filename (dir1, "info", "system.xml", NULL);
  struct stat st1, st2;
  g_assert_cmpint (stat (sys, &st1), ==, 0);
  g_autofree char *marker = g_build_filename (dir1, "marker", NULL);
  g_assert_true (g_file_set_contents (marker, "x", -1, NULL));

  g_autofree char *dir2 = ttv_archive_extract (tgz, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (dir1, ==, dir2);
  g_assert_cmpint (stat (sys, &st2), ==, 0);
  g_assert_cmpuint (st1.st_ino, ==, st2.st_ino);
  g_assert_cmpint (st1.st_mtim.tv_sec, ==, st2.st_mtim.tv_sec);
  g_assert_cmpint (st1.st_mtim.tv_nsec, ==, st2.st_mtim.tv_nsec);
  g_assert_true (g_file_test (marker, G_FILE_TEST_EXISTS));

  /* Another name (symlink) for the same archive shares the cache. */
  g_autofree char *alias = tmp_path ("reuse-alias.tgz");
  g_assert_cmpint (symlink (tgz, alias), ==, 0);
  g_autofree char *dir3 = ttv_archive_extract (alias, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (dir1, ==, dir3);
}

static void
test_cache_rebuild (void)
{
  g_autofree char *tgz = tmp_path ("rebuild.tar.gz");
  write_archive (tgz, TRUE, good_trace, G_N_ELEMENTS (good_trace));
  g_autoptr (GError) error = NULL;
  g_autofree char *dir1 = ttv_archive_extract (tgz, &error);
  g_assert_no_error (error);
  g_autofree char *marker = g_build_filename (dir1, "marker", NULL);
  g_assert_true (g_file_set_contents (marker, "x", -1, NULL));

  Member changed[G_N_ELEMENTS (good_trace)];
  memcpy (changed, good_trace, sizeof changed);
  changed[2].data = "<system node_name=\"changed\"/>\n";
  write_archive (tgz, TRUE, changed, G_N_ELEMENTS (changed));
  g_autofree char *dir2 = ttv_archive_extract (tgz, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (dir1, ==, dir2);
  g_autofree char *sys = g_build_filename (dir2, "info", "system.xml", NULL);
  g_autofree char *text = read_file (sys);
  g_assert_cmpstr (text, ==, changed[2].data);
  g_assert_false (g_file_test (marker, G_FILE_TEST_EXISTS));
  assert_no_leftovers ();
}

typedef struct {
  const char *archive;
  char *result;
} ThreadArg;

static gpointer
extract_thread (gpointer data)
{
  ThreadArg *arg = data;
  arg->result = ttv_archive_extract (arg->archive, NULL);
  return NULL;
}

static void
test_cache_concurrent (void)
{
  g_autofree char *tgz = tmp_path ("concurrent.tar.gz");
  write_archive (tgz, TRUE, good_trace, G_N_ELEMENTS (good_trace));
  ThreadArg args[4];
  GThread *threads[4];
  for (int i = 0; i < 4; i++)
    {
      args[i] = (ThreadArg) { tgz, NULL };
      threads[i] = g_thread_new ("extract", extract_thread, &args[i]);
    }
  for (int i = 0; i < 4; i++)
    g_thread_join (threads[i]);
  for (int i = 0; i < 4; i++)
    {
      g_assert_nonnull (args[i].result);
      g_assert_cmpstr (args[i].result, ==, args[0].result);
    }
  g_autofree char *sys = g_build_filename (args[0].result, "info", "system.xml", NULL);
  g_autofree char *text = read_file (sys);
  g_assert_cmpstr (text, ==, good_trace[2].data);
  for (int i = 0; i < 4; i++)
    g_free (args[i].result);
  assert_no_leftovers ();
}

typedef struct {
  const char *test_name;
  Member members[3];
  guint n;
  int code;
  const char *bad_member;       /* the member the message must name */
} HostileCase;

static void
test_hostile (gconstpointer data)
{
  const HostileCase *c = data;
  g_autofree char *file = g_strdup_printf ("hostile-%s.tar.gz", c->test_name);
  g_autofree char *tgz = tmp_path (file);
  g_autofree char *outside_dir = tmp_path ("outside");
  g_mkdir_with_parents (outside_dir, 0755);
  write_archive (tgz, TRUE, c->members, c->n);
  g_autofree char *before = list_tree (tmp_base);

  g_autoptr (GError) error = NULL;
  g_autofree char *dir = ttv_archive_extract (tgz, &error);
  g_assert_null (dir);
  g_assert_error (error, TTV_ARCHIVE_ERROR, c->code);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, tgz));
  g_assert_nonnull (strstr (error->message, c->bad_member));

  /* Nothing written anywhere: not in the cache, not outside it. */
  g_autofree char *after = list_tree (tmp_base);
  g_auto (GStrv) old_names = g_strsplit (before, " ", -1);
  g_auto (GStrv) new_names = g_strsplit (after, " ", -1);
  g_autoptr (GHashTable) known = g_hash_table_new (g_str_hash, g_str_equal);
  for (char **n = old_names; *n; n++)
    g_hash_table_add (known, *n);
  static const char *const allowed[] = { "/cache", "/cache/ttv", "/cache/ttv/archives",
                                         "/cache/ttv/archives/last-clean" };
  for (guint i = 0; i < G_N_ELEMENTS (allowed); i++)
    g_hash_table_add (known, (gpointer) allowed[i]);
  for (char **n = new_names; *n; n++)
    if (!g_hash_table_contains (known, *n))
      g_error ("extraction of a hostile archive left %s behind", *n);
  g_assert_false (g_file_test ("/tmp/ttv-test-abs-evil", G_FILE_TEST_EXISTS));
  g_autofree char *evil = g_build_filename (outside_dir, "evil", NULL);
  g_assert_false (g_file_test (evil, G_FILE_TEST_EXISTS));
  assert_no_leftovers ();
}

static const HostileCase hostile_cases[] = {
  { "dotdot", { { "../evil", M_FILE, "x", 0 } }, 1, TTV_ARCHIVE_ERROR_HOSTILE, "../evil" },
  { "dotdot-deep", { { "a/", M_DIR, NULL, 0 }, { "a/../../outside/evil", M_FILE, "x", 0 } }, 2,
    TTV_ARCHIVE_ERROR_HOSTILE, "a/../../outside/evil" },
  { "absolute", { { "/tmp/ttv-test-abs-evil", M_FILE, "x", 0 } }, 1,
    TTV_ARCHIVE_ERROR_HOSTILE, "/tmp/ttv-test-abs-evil" },
  { "symlink-escape", { { "link", M_SYMLINK, "../../etc", 0 }, { "link/file", M_FILE, "x", 0 } },
    2, TTV_ARCHIVE_ERROR_HOSTILE, "link" },
  { "symlink-absolute", { { "link", M_SYMLINK, "/etc", 0 } }, 1, TTV_ARCHIVE_ERROR_HOSTILE,
    "/etc" },
  { "symlink-dotdot-after-name", { { "d/", M_DIR, NULL, 0 }, { "d/l", M_SYMLINK, "x/../..", 0 } },
    2, TTV_ARCHIVE_ERROR_HOSTILE, "d/l" },
  { "through-symlink", { { "sub/", M_DIR, NULL, 0 }, { "link", M_SYMLINK, "sub", 0 },
                         { "link/file", M_FILE, "x", 0 } },
    3, TTV_ARCHIVE_ERROR_HOSTILE, "link/file" },
  { "hardlink-outside", { { "h", M_HARDLINK, "../outside/evil", 0 } }, 1,
    TTV_ARCHIVE_ERROR_HOSTILE, "../outside/evil" },
  { "hardlink-absolute", { { "h", M_HARDLINK, "/etc/passwd", 0 } }, 1,
    TTV_ARCHIVE_ERROR_HOSTILE, "/etc/passwd" },
  { "hardlink-to-symlink", { { "l", M_SYMLINK, "x", 0 }, { "h", M_HARDLINK, "l", 0 } }, 2,
    TTV_ARCHIVE_ERROR_HOSTILE, "h" },
  { "device", { { "trace/", M_DIR, NULL, 0 }, { "trace/null", M_CHAR, NULL, 0 } }, 2,
    TTV_ARCHIVE_ERROR_HOSTILE, "trace/null" },
  { "fifo", { { "fifo", M_FIFO, NULL, 0 } }, 1, TTV_ARCHIVE_ERROR_HOSTILE, "fifo" },
};

static void
test_hardlink_inside (void)
{
  static const Member m[] = {
    { "t/", M_DIR, NULL, 0 },
    { "t/a", M_FILE, "same", 0 },
    { "t/b", M_HARDLINK, "t/a", 0 },
  };
  g_autofree char *tgz = tmp_path ("hardlink.tgz");
  write_archive (tgz, TRUE, m, G_N_ELEMENTS (m));
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = ttv_archive_extract (tgz, &error);
  g_assert_no_error (error);
  g_autofree char *b = g_build_filename (dir, "b", NULL);
  g_autofree char *text = read_file (b);
  g_assert_cmpstr (text, ==, "same");
}

static void
test_bomb (void)
{
  g_autofree char *tgz = tmp_path ("bomb.tar.gz");
  struct archive *w = archive_write_new ();
  archive_write_set_format_pax_restricted (w);
  archive_write_add_filter_gzip (w);
  archive_write_set_filter_option (w, "gzip", "compression-level", "1");
  g_assert_cmpint (archive_write_open_filename (w, tgz), ==, ARCHIVE_OK);
  struct archive_entry *e = archive_entry_new ();
  const gsize total = 100 << 20;
  archive_entry_set_pathname (e, "zeros");
  archive_entry_set_filetype (e, AE_IFREG);
  archive_entry_set_perm (e, 0644);
  archive_entry_set_size (e, (la_int64_t) total);
  g_assert_cmpint (archive_write_header (w, e), ==, ARCHIVE_OK);
  g_autofree char *zeros = g_malloc0 (1 << 20);
  for (gsize done = 0; done < total; done += 1 << 20)
    g_assert_cmpint (archive_write_data (w, zeros, 1 << 20), ==, 1 << 20);
  archive_entry_free (e);
  archive_write_close (w);
  archive_write_free (w);
  struct stat st;
  g_assert_cmpint (stat (tgz, &st), ==, 0);
  g_assert_cmpint (st.st_size, <, 1 << 20);     /* tiny outside, huge inside */

  ttv_archive_set_size_cap (1 << 20);
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = ttv_archive_extract (tgz, &error);
  ttv_archive_set_size_cap (0);
  g_assert_null (dir);
  g_assert_error (error, TTV_ARCHIVE_ERROR, TTV_ARCHIVE_ERROR_TOO_LARGE);
  g_assert_nonnull (strstr (error->message, "zeros"));
  g_assert_nonnull (strstr (error->message, "1048576"));
  assert_no_leftovers ();

  /* Many small members: the sum counts, not each one. */
  Member many[40];
  for (guint i = 0; i < G_N_ELEMENTS (many); i++)
    many[i] = (Member) { g_strdup_printf ("f%u", i), M_FILE, "0123456789", 0 };
  g_autofree char *many_tgz = tmp_path ("many.tgz");
  write_archive (many_tgz, TRUE, many, G_N_ELEMENTS (many));
  g_clear_error (&error);
  ttv_archive_set_size_cap (100);
  dir = ttv_archive_extract (many_tgz, &error);
  ttv_archive_set_size_cap (0);
  g_assert_error (error, TTV_ARCHIVE_ERROR, TTV_ARCHIVE_ERROR_TOO_LARGE);
  g_assert_nonnull (strstr (error->message, "f10"));

  /* Too many members. */
  g_clear_error (&error);
  ttv_archive_set_entry_cap (20);
  dir = ttv_archive_extract (many_tgz, &error);
  ttv_archive_set_entry_cap (0);
  g_assert_null (dir);
  g_assert_error (error, TTV_ARCHIVE_ERROR, TTV_ARCHIVE_ERROR_TOO_LARGE);
  for (guint i = 0; i < G_N_ELEMENTS (many); i++)
    g_free ((char *) many[i].name);
  assert_no_leftovers ();
}

static void
test_corrupt (void)
{
  g_autofree char *tgz = tmp_path ("corrupt.tar.gz");
  write_archive (tgz, TRUE, good_trace, G_N_ELEMENTS (good_trace));
  g_autofree char *data = NULL;
  gsize len;
  g_assert_true (g_file_get_contents (tgz, &data, &len, NULL));
  g_assert_cmpuint (len, >, 40);
  for (gsize i = 20; i < len - 8; i++)
    data[i] = (char) (data[i] ^ 0x5a);
  g_assert_true (g_file_set_contents (tgz, data, (gssize) len, NULL));
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = ttv_archive_extract (tgz, &error);
  g_assert_null (dir);
  g_assert_error (error, TTV_ARCHIVE_ERROR, TTV_ARCHIVE_ERROR_READ);
  g_assert_nonnull (strstr (error->message, tgz));

  /* truncated */
  g_autofree char *trunc = tmp_path ("truncated.tar.gz");
  write_archive (trunc, TRUE, good_trace, G_N_ELEMENTS (good_trace));
  g_autofree char *tdata = NULL;
  g_assert_true (g_file_get_contents (trunc, &tdata, &len, NULL));
  g_assert_true (g_file_set_contents (trunc, tdata, (gssize) len / 2, NULL));
  g_clear_error (&error);
  dir = ttv_archive_extract (trunc, &error);
  g_assert_null (dir);
  g_assert_error (error, TTV_ARCHIVE_ERROR, TTV_ARCHIVE_ERROR_READ);

  /* not an archive at all, and missing */
  g_autofree char *junk = tmp_path ("junk.tar");
  g_assert_true (g_file_set_contents (junk, "this is not a tar file", -1, NULL));
  g_clear_error (&error);
  dir = ttv_archive_extract (junk, &error);
  g_assert_error (error, TTV_ARCHIVE_ERROR, TTV_ARCHIVE_ERROR_READ);
  g_clear_error (&error);
  dir = ttv_archive_extract ("/nonexistent/trace.tar.gz", &error);
  g_assert_error (error, TTV_ARCHIVE_ERROR, TTV_ARCHIVE_ERROR_READ);
  g_assert_nonnull (strstr (error->message, "/nonexistent/trace.tar.gz"));
  assert_no_leftovers ();
}

/* name -> "mode mtime contents" of every member, in order. */
static GPtrArray *
list_archive (const char *path, int *filter)
{
  struct archive *r = archive_read_new ();
  archive_read_support_filter_all (r);
  archive_read_support_format_all (r);
  g_assert_cmpint (archive_read_open_filename (r, path, 10240), ==, ARCHIVE_OK);
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);
  struct archive_entry *e;
  while (archive_read_next_header (r, &e) == ARCHIVE_OK)
    {
      GString *s = g_string_new (NULL);
      g_string_printf (s, "%s %o %ld %s ", archive_entry_pathname (e), archive_entry_mode (e),
                       (long) archive_entry_mtime (e),
                       archive_entry_symlink (e) ? archive_entry_symlink (e) : "");
      char buf[4096];
      la_ssize_t n;
      while ((n = archive_read_data (r, buf, sizeof buf)) > 0)
        g_string_append_len (s, buf, n);
      g_ptr_array_add (out, g_string_free (s, FALSE));
    }
  if (filter)
    *filter = archive_filter_code (r, 0);
  archive_read_free (r);
  return out;
}

static void
test_replace_round_trip (gconstpointer data)
{
  gboolean gzip = GPOINTER_TO_INT (data);
  g_autofree char *tgz = tmp_path (gzip ? "replace.tar.gz" : "replace.tar");
  write_archive (tgz, gzip, good_trace, G_N_ELEMENTS (good_trace));
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = ttv_archive_extract (tgz, &error);
  g_assert_no_error (error);
  g_autofree char *marker = g_build_filename (dir, "marker", NULL);
  g_assert_true (g_file_set_contents (marker, "x", -1, NULL));
  g_autoptr (GPtrArray) before = list_archive (tgz, NULL);

  /* Added: lands in the top-level folder. */
  const char *v1 = "<bookmarks>\n</bookmarks>\n";
  g_assert_true (ttv_archive_replace_member (tgz, "info/bookmarks.xml", v1, strlen (v1), &error));
  g_assert_no_error (error);
  int filter = -1;
  g_autoptr (GPtrArray) after = list_archive (tgz, &filter);
  g_assert_cmpint (filter, ==, gzip ? ARCHIVE_FILTER_GZIP : ARCHIVE_FILTER_NONE);
  g_assert_cmpuint (after->len, ==, before->len + 1);
  for (guint i = 0; i < before->len; i++)
    g_assert_cmpstr (g_ptr_array_index (after, i), ==, g_ptr_array_index (before, i));
  const char *added = g_ptr_array_index (after, before->len);
  g_assert_true (g_str_has_prefix (added, "mytrace/info/bookmarks.xml 100644 "));
  g_assert_true (g_str_has_suffix (added, v1));

  /* The cache follows without extracting again (the marker survives). */
  g_autofree char *dir2 = ttv_archive_extract (tgz, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (dir, ==, dir2);
  g_assert_true (g_file_test (marker, G_FILE_TEST_EXISTS));
  g_autofree char *bm = g_build_filename (dir, "info", "bookmarks.xml", NULL);
  g_autofree char *bm_text = read_file (bm);
  g_assert_cmpstr (bm_text, ==, v1);

  /* Replaced in place: same position, nothing added. */
  const char *v2 = "<bookmarks>\n  <location time=\"1.000000000\">x</location>\n</bookmarks>\n";
  g_assert_true (ttv_archive_replace_member (tgz, "info/bookmarks.xml", v2, strlen (v2), &error));
  g_autoptr (GPtrArray) again = list_archive (tgz, NULL);
  g_assert_cmpuint (again->len, ==, after->len);
  for (guint i = 0; i < before->len; i++)
    g_assert_cmpstr (g_ptr_array_index (again, i), ==, g_ptr_array_index (before, i));
  g_assert_true (g_str_has_suffix (g_ptr_array_index (again, before->len), v2));
  g_autofree char *dir3 = ttv_archive_extract (tgz, &error);
  g_assert_no_error (error);
  g_assert_nonnull (dir3);
  g_free (bm_text);
  bm_text = read_file (bm);
  g_assert_cmpstr (bm_text, ==, v2);
  g_assert_true (g_file_test (marker, G_FILE_TEST_EXISTS));

  /* No temporary file left beside it. */
  g_autofree char *tree = list_tree (tmp_base);
  g_assert_null (strstr (tree, "/.replace.tar"));

  /* Bad member names are refused. */
  g_assert_false (ttv_archive_replace_member (tgz, "../x", "", 0, &error));
  g_assert_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (ttv_archive_replace_member (tgz, "info", "", 0, &error));  /* a folder */
  g_assert_error (error, TTV_ARCHIVE_ERROR, TTV_ARCHIVE_ERROR_WRITE);
}

static void
test_replace_failure (void)
{
  g_autofree char *tgz = tmp_path ("replace-fail.tar.gz");
  write_archive (tgz, TRUE, good_trace, G_N_ELEMENTS (good_trace));
  /* Damage the end: the copy fails after writing part of the new archive. */
  g_autofree char *data = NULL;
  gsize len;
  g_assert_true (g_file_get_contents (tgz, &data, &len, NULL));
  for (gsize i = len / 2; i < len; i++)
    data[i] = (char) 0xa5;
  g_assert_true (g_file_set_contents (tgz, data, (gssize) len, NULL));

  g_autoptr (GError) error = NULL;
  g_assert_false (ttv_archive_replace_member (tgz, "info/bookmarks.xml", "x", 1, &error));
  g_assert_error (error, TTV_ARCHIVE_ERROR, TTV_ARCHIVE_ERROR_READ);
  g_autofree char *now = NULL;
  gsize now_len;
  g_assert_true (g_file_get_contents (tgz, &now, &now_len, NULL));
  g_assert_cmpmem (now, now_len, data, len);
  g_autofree char *tree = list_tree (tmp_base);
  g_assert_null (strstr (tree, "/.replace-fail"));

  /* A path below a file: nothing can be written there. */
  g_autofree char *file = tmp_path ("plain-file");
  g_assert_true (g_file_set_contents (file, "x", -1, NULL));
  g_autofree char *below = g_build_filename (file, "t.tar.gz", NULL);
  g_clear_error (&error);
  g_assert_false (ttv_archive_replace_member (below, "info/bookmarks.xml", "x", 1, &error));
  g_assert_nonnull (error);
  g_autofree char *text = read_file (file);
  g_assert_cmpstr (text, ==, "x");
}

static void
test_clean_stale (void)
{
  g_autofree char *old_tgz = tmp_path ("stale-old.tgz");
  g_autofree char *new_tgz = tmp_path ("stale-new.tgz");
  write_archive (old_tgz, TRUE, good_trace, 3);
  write_archive (new_tgz, TRUE, good_trace, 4);
  g_autofree char *old_dir = ttv_archive_extract (old_tgz, NULL);
  g_autofree char *new_dir = ttv_archive_extract (new_tgz, NULL);
  g_assert_nonnull (old_dir);
  g_assert_nonnull (new_dir);

  /* old_dir is <cache>/<key>/root/mytrace: age its stamp by 40 days. */
  g_autofree char *root = g_path_get_dirname (old_dir);
  g_autofree char *entry = g_path_get_dirname (root);
  g_autofree char *stamp = g_build_filename (entry, "stamp", NULL);
  struct timespec times[2] = { { time (NULL) - 40 * 86400, 0 }, { time (NULL) - 40 * 86400, 0 } };
  g_assert_cmpint (utimensat (AT_FDCWD, stamp, times, 0), ==, 0);

  ttv_archive_clean_stale (30);
  g_assert_false (g_file_test (entry, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (new_dir, G_FILE_TEST_IS_DIR));

  /* Using it again extracts it again. */
  g_autofree char *again = ttv_archive_extract (old_tgz, NULL);
  g_assert_cmpstr (again, ==, old_dir);
  g_assert_true (g_file_test (again, G_FILE_TEST_IS_DIR));
}

static void
test_trace_open (void)
{
  /* Opening goes through extraction: errors come from there. */
  g_autofree char *tgz = tmp_path ("open-hostile.tar.gz");
  write_archive (tgz, TRUE, hostile_cases[0].members, 1);
  g_autoptr (GError) error = NULL;
  TtvTrace *t = ttv_trace_open (tgz, &error);
  g_assert_null (t);
  g_assert_error (error, TTV_ARCHIVE_ERROR, TTV_ARCHIVE_ERROR_HOSTILE);

  /* A good archive of something that is not a trace: no reader takes it. */
  static const Member not_trace[] = { { "x/readme", M_FILE, "hello", 0 } };
  g_autofree char *tgz2 = tmp_path ("open-not-trace.tgz");
  write_archive (tgz2, TRUE, not_trace, 1);
  g_clear_error (&error);
  t = ttv_trace_open (tgz2, &error);
  g_assert_null (t);
  g_assert_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_UNKNOWN_FORMAT);
}

/* An archive with one large member (hard to compress), so that reading it
 * takes many blocks: progress is reported, and cancellation can hit. */
static char *
write_large_archive (const char *name, gsize size)
{
  g_autofree char *path = tmp_path (name);
  g_autofree char *big = g_malloc (size + 1);
  GRand *rand = g_rand_new_with_seed (7);
  for (gsize i = 0; i < size; i++)
    big[i] = (char) ('!' + g_rand_int_range (rand, 0, 90));
  big[size] = 0;
  g_rand_free (rand);
  const Member members[] = {
    { "large/", M_DIR, NULL, 0 },
    { "large/info/", M_DIR, NULL, 0 },
    { "large/info/system.xml", M_FILE, "<system/>\n", 0 },
    { "large/cpu/0", M_FILE, big, 0 },
    { "large/cpu/1", M_FILE, "tail", 0 },
  };
  write_archive (path, TRUE, members, G_N_ELEMENTS (members));
  return g_steal_pointer (&path);
}

typedef struct {
  GArray *done;                 /* of guint64: each call's @done */
  guint64 total;
  guint64 cancel_after;         /* cancel once done passes this (G_MAXUINT64: never) */
  GCancellable *cancellable;
} ProgressLog;

static void
log_progress (guint64 done, guint64 total, gpointer data)
{
  ProgressLog *log = data;
  g_array_append_val (log->done, done);
  log->total = total;
  if (done > log->cancel_after)
    g_cancellable_cancel (log->cancellable);
}

static void
test_replace_progress (void)
{
  g_autofree char *tgz = write_large_archive ("progress.tar.gz", 4 << 20);
  g_autoptr (GError) error = NULL;
  ProgressLog log = { g_array_new (FALSE, FALSE, sizeof (guint64)), 0, G_MAXUINT64, NULL };
  struct stat st;

  g_assert_cmpint (stat (tgz, &st), ==, 0);
  g_assert_true (ttv_archive_replace_member_full (tgz, "info/bookmarks.xml", "<bookmarks/>", 12,
                                                  NULL, log_progress, &log, &error));
  g_assert_no_error (error);
  /* Two readings of the whole file, reported in order. */
  g_assert_cmpuint (log.total, ==, 2 * (guint64) st.st_size);
  g_assert_cmpuint (log.done->len, >=, 2);
  for (guint i = 1; i < log.done->len; i++)
    g_assert_cmpuint (g_array_index (log.done, guint64, i), >=, g_array_index (log.done, guint64, i - 1));
  g_assert_cmpuint (g_array_index (log.done, guint64, log.done->len - 1), >, log.total / 2);
  g_assert_cmpuint (g_array_index (log.done, guint64, log.done->len - 1), <=, log.total);
  g_array_unref (log.done);
}

static void
test_replace_cancel (gconstpointer data)
{
  gboolean in_copy = GPOINTER_TO_INT (data);
  g_autofree char *tgz = write_large_archive (in_copy ? "cancel-copy.tar.gz" : "cancel-scan.tar.gz",
                                              4 << 20);
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GError) error = NULL;
  g_autofree char *before = NULL, *after = NULL;
  gsize before_len, after_len;
  struct stat st;
  ProgressLog log = { g_array_new (FALSE, FALSE, sizeof (guint64)), 0, 0, cancellable };

  g_assert_cmpint (stat (tgz, &st), ==, 0);
  /* In the scan: at the first report; in the copy: once the new archive is
   * partly written. */
  log.cancel_after = in_copy ? (guint64) st.st_size + 1 : 0;
  g_assert_true (g_file_get_contents (tgz, &before, &before_len, NULL));
  g_assert_false (ttv_archive_replace_member_full (tgz, "info/bookmarks.xml", "x", 1, cancellable,
                                                   log_progress, &log, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_true (g_file_get_contents (tgz, &after, &after_len, NULL));
  g_assert_cmpmem (after, after_len, before, before_len);
  g_autofree char *tree = list_tree (tmp_base);
  g_assert_null (strstr (tree, in_copy ? "/.cancel-copy" : "/.cancel-scan"));
  g_array_unref (log.done);
}

static void
test_extract_cancel (void)
{
  g_autofree char *tgz = write_large_archive ("extract-cancel.tar.gz", 4 << 20);
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GError) error = NULL;
  ProgressLog log = { g_array_new (FALSE, FALSE, sizeof (guint64)), 0, 0, cancellable };

  g_assert_null (ttv_archive_extract_full (tgz, cancellable, log_progress, &log, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
  /* Nothing half-extracted is left in the cache, and it extracts later. */
  g_autofree char *cache = ttv_archive_dup_cache_dir ();
  g_autofree char *tree = list_tree (cache);
  g_assert_null (strstr (tree, ".tmp-"));
  g_autofree char *dir = ttv_archive_extract_full (tgz, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_autofree char *tail = g_build_filename (dir, "cpu", "1", NULL);
  g_autofree char *text = read_file (tail);
  g_assert_cmpstr (text, ==, "tail");
  g_array_unref (log.done);
}

/* --- Depth, dead extractions, sizes, damaged gzip, names ------------------- */

/* In a child extracting: once some data is written, says so on the pipe
 * and waits to be killed. */
static void
stall_progress (guint64 done, guint64 total, gpointer data)
{
  if (done < total / 4)
    return;
  char c = 1;
  if (write (GPOINTER_TO_INT (data), &c, 1) != 1)
    _exit (2);
  for (;;)
    pause ();
}

/* DEEP levels of DEEP_NAME: 5,400 bytes of path, beyond PATH_MAX. */
#define DEEP 600
#define DEEP_NAME "deep-dir"

/* A folder DEEP levels deep under @dir, a file in each level. */
static void
make_deep_tree (const char *dir)
{
  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  int fd = open (dir, O_RDONLY | O_DIRECTORY);
  g_assert_cmpint (fd, >=, 0);
  for (guint i = 0; i < DEEP; i++)
    {
      int f = openat (fd, "f", O_WRONLY | O_CREAT, 0644);
      g_assert_cmpint (f, >=, 0);
      close (f);
      g_assert_cmpint (mkdirat (fd, DEEP_NAME, 0755), ==, 0);
      int next = openat (fd, DEEP_NAME, O_RDONLY | O_DIRECTORY);
      g_assert_cmpint (next, >=, 0);
      close (fd);
      fd = next;
    }
  close (fd);
}

/* A tree deeper than PATH_MAX goes whole, by descriptor-relative calls
 * (nftw and remove () gave up beyond PATH_MAX). */
static void
test_remove_deep_tree (void)
{
  g_autofree char *dir = tmp_path ("deep-remove");
  make_deep_tree (dir);
  g_assert_true (ttv_remove_tree (dir));
  g_assert_false (g_file_test (dir, G_FILE_TEST_EXISTS));
}

/* An archive whose paths are deeper than PATH_MAX: extracted or refused,
 * it leaves nothing behind in the cache, and its cache entry goes whole
 * when the archive changes. */
static void
test_deep_archive (void)
{
  g_autofree char *tgz = tmp_path ("deep.tar.gz");
  g_autoptr (GString) name = g_string_new ("deep/");
  for (guint i = 0; i < DEEP; i++)
    g_string_append (name, DEEP_NAME "/");
  g_string_append (name, "f");
  Member m[] = { { name->str, M_FILE, "bottom", 0 } };
  write_archive_full (tgz, TRUE, m, 1, 1700000000);
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = ttv_archive_extract (tgz, &error);
  g_test_message ("%s", error ? error->message : dir);
  assert_no_leftovers ();
  /* Changed: the old entry is moved aside and removed. */
  write_archive_full (tgz, TRUE, m, 1, 1700000100);
  g_clear_error (&error);
  g_autofree char *again = ttv_archive_extract (tgz, &error);
  g_assert_cmpint (again == NULL, ==, dir == NULL);
  assert_no_leftovers ();

  /* Refused after the deep tree was written: all of it goes. */
  Member refused[] = { { name->str, M_FILE, "bottom", 0 }, { "deep/fifo", M_FIFO, NULL, 0 } };
  g_autofree char *refused_tgz = tmp_path ("deep-refused.tar.gz");
  write_archive_full (refused_tgz, TRUE, refused, 2, 1700000000);
  g_clear_error (&error);
  g_assert_null (ttv_archive_extract (refused_tgz, &error));
  g_assert_error (error, TTV_ARCHIVE_ERROR, TTV_ARCHIVE_ERROR_HOSTILE);
  assert_no_leftovers ();
  /* The other tests list the cache: not through this tree. */
  if (again)
    {
      g_autofree char *root = g_path_get_dirname (again);
      g_autofree char *entry = g_path_get_dirname (root);
      g_assert_true (ttv_remove_tree (entry));
    }
}

/* What an extraction killed midway left goes at the next extraction,
 * whatever its age; a live one's folder (locked) stays. */
static void
test_dead_extraction (void)
{
  g_autofree char *tgz = write_large_archive ("dead.tar.gz", 8 << 20);
  g_autofree char *cache = cache_dir ();
  g_assert_cmpint (g_mkdir_with_parents (cache, 0700), ==, 0);
  int sync_pipe[2];
  g_assert_cmpint (pipe (sync_pipe), ==, 0);
  pid_t pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      /* Stops in the middle of writing, says so, waits to be killed. */
      close (sync_pipe[0]);
      ttv_archive_extract_full (tgz, NULL, stall_progress, GINT_TO_POINTER (sync_pipe[1]), NULL);
      _exit (1);
    }
  close (sync_pipe[1]);
  char c;
  g_assert_cmpint (read (sync_pipe[0], &c, 1), ==, 1);
  close (sync_pipe[0]);
  g_autofree char *tree = list_tree (cache);
  g_assert_nonnull (strstr (tree, ".tmp-"));
  /* Alive: its folder is left alone. */
  ttv_archive_clean_dead ();
  g_free (tree);
  tree = list_tree (cache);
  g_assert_nonnull (strstr (tree, ".tmp-"));
  g_assert_cmpint (kill (pid, SIGKILL), ==, 0);
  g_assert_cmpint (waitpid (pid, NULL, 0), ==, pid);
  g_usleep (2100 * 1000);       /* past the age under which a folder may not be locked yet */

  /* The next extraction (of any archive) removes it. */
  g_autofree char *other = tmp_path ("dead-other.tgz");
  write_archive (other, TRUE, good_trace, G_N_ELEMENTS (good_trace));
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = ttv_archive_extract (other, &error);
  g_assert_no_error (error);
  g_assert_nonnull (dir);
  assert_no_leftovers ();
}

/* A raw ustar header for a regular file @name declaring @size bytes
 * (base-256 when it does not fit in octal), its checksum set. */
static void
ustar_header (guint8 block[512], const char *name, guint64 size)
{
  memset (block, 0, 512);
  strcpy ((char *) block, name);
  memcpy (block + 100, "0000644", 7);
  memcpy (block + 108, "0000000", 7);
  memcpy (block + 116, "0000000", 7);
  block[124] = 0x80;            /* base-256 size */
  for (int i = 0; i < 8; i++)
    block[135 - i] = (guint8) (size >> (8 * i));
  memcpy (block + 136, "14620000000", 11);
  block[156] = '0';
  memcpy (block + 257, "ustar", 6);
  memcpy (block + 263, "00", 2);
  memset (block + 148, ' ', 8);
  guint sum = 0;
  for (int i = 0; i < 512; i++)
    sum += block[i];
  g_snprintf ((char *) block + 148, 8, "%06o", sum);
}

/* Members that say they hold more than the cache can take, or more than
 * 200 times the archive's size, are refused before anything is written. */
static void
test_declared_sizes (void)
{
  /* 2^60 bytes, beyond any free space. */
  g_autofree char *tar = tmp_path ("huge.tar");
  guint8 block[512 * 4] = { 0 };
  ustar_header (block, "huge/cpu0", G_GUINT64_CONSTANT (1) << 60);
  g_assert_true (g_file_set_contents (tar, (const char *) block, sizeof block, NULL));
  g_autoptr (GError) error = NULL;
  gint64 t0 = g_get_monotonic_time ();
  g_autofree char *dir = ttv_archive_extract (tar, &error);
  g_assert_null (dir);
  g_assert_error (error, TTV_ARCHIVE_ERROR, TTV_ARCHIVE_ERROR_TOO_LARGE);
  g_assert_nonnull (strstr (error->message, "free space"));
  g_assert_cmpint (g_get_monotonic_time () - t0, <, 2 * G_USEC_PER_SEC);
  assert_no_leftovers ();

  /* 1 GiB said by a gzip archive of a few hundred bytes. */
  g_autofree char *tgz = tmp_path ("bomb-header.tar.gz");
  ustar_header (block, "bomb/cpu0", G_GUINT64_CONSTANT (1) << 30);
  gsize n = sizeof block;
  g_autofree guint8 *gz = NULL;
  {
    g_autoptr (GZlibCompressor) comp = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, 9);
    gz = g_malloc (4096);
    gsize read, written;
    g_assert_cmpint (g_converter_convert (G_CONVERTER (comp), block, n, gz, 4096, G_CONVERTER_INPUT_AT_END,
                                          &read, &written, NULL), ==, G_CONVERTER_FINISHED);
    n = written;
  }
  g_assert_true (g_file_set_contents (tgz, (const char *) gz, (gssize) n, NULL));
  g_clear_error (&error);
  dir = ttv_archive_extract (tgz, &error);
  g_assert_null (dir);
  g_assert_error (error, TTV_ARCHIVE_ERROR, TTV_ARCHIVE_ERROR_TOO_LARGE);
  g_assert_nonnull (strstr (error->message, "200 times"));
  assert_no_leftovers ();
}

/* gzip's CRC-32 and length are checked, a cut is called one; names from
 * the archive are escaped in messages. */
static void
test_gzip_damage_and_names (void)
{
  g_autofree char *tgz = tmp_path ("crc.tar.gz");
  write_archive (tgz, TRUE, good_trace, G_N_ELEMENTS (good_trace));
  g_autofree char *data = NULL;
  gsize len;
  g_assert_true (g_file_get_contents (tgz, &data, &len, NULL));
  data[len - 8] ^= 0x01;       /* the CRC-32 */
  g_assert_true (g_file_set_contents (tgz, data, (gssize) len, NULL));
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = ttv_archive_extract (tgz, &error);
  g_assert_null (dir);
  g_assert_error (error, TTV_ARCHIVE_ERROR, TTV_ARCHIVE_ERROR_READ);
  g_assert_nonnull (strstr (error->message, "CRC-32"));
  assert_no_leftovers ();

  data[len - 8] ^= 0x01;
  data[len - 4] ^= 0x01;       /* the length */
  g_assert_true (g_file_set_contents (tgz, data, (gssize) len, NULL));
  g_clear_error (&error);
  g_assert_null (ttv_archive_extract (tgz, &error));
  g_assert_nonnull (strstr (error->message, "length"));

  g_assert_true (g_file_set_contents (tgz, data, (gssize) len - 20, NULL));
  g_clear_error (&error);
  g_assert_null (ttv_archive_extract (tgz, &error));
  g_assert_nonnull (strstr (error->message, "truncated"));
  g_assert_null (strstr (error->message, "unknown error"));

  /* A byte changed anywhere in the compressed data of a trace's files: the
   * archive is said damaged (a damaged stream may unpack to a header of
   * garbage, which was called "a member has no name"), never hostile, and
   * nothing is left. */
  {
    g_autofree char *big_tgz = tmp_path ("flipped.tar.gz");
    GPtrArray *texts = g_ptr_array_new_with_free_func (g_free);
    Member big[12];
    guint32 x = 12345;
    for (guint i = 0; i < G_N_ELEMENTS (big); i++)
      {
        GString *text = g_string_new (NULL);
        /* Trace-like records: compressible, but not too much. */
        for (guint k = 0; k < 6000; k++)
          {
            x = x * 1103515245u + 12345u;
            g_string_append_printf (text, "%08x ev%u cpu%u\n", x, (x >> 8) % 40, (x >> 16) % 4);
          }
        g_ptr_array_add (texts, g_string_free (text, FALSE));
        big[i] = (Member) { g_strdup_printf ("big/cpu/%u", i), M_FILE, texts->pdata[i], 0 };
      }
    write_archive (big_tgz, TRUE, big, G_N_ELEMENTS (big));
    g_autofree char *packed = NULL;
    gsize packed_len;
    g_assert_true (g_file_get_contents (big_tgz, &packed, &packed_len, NULL));
    guint no_name = 0;
    for (guint pct = 5; pct <= 95; pct += 5)
      {
        g_autofree char *flipped = g_memdup2 (packed, packed_len);
        flipped[packed_len * pct / 100] ^= 0x5a;
        g_assert_true (g_file_set_contents (big_tgz, flipped, (gssize) packed_len, NULL));
        g_clear_error (&error);
        g_autofree char *out = ttv_archive_extract (big_tgz, &error);
        g_assert_null (out);
        if (error->code != TTV_ARCHIVE_ERROR_READ
            || (!strstr (error->message, "damaged") && !strstr (error->message, "truncated")))
          g_error ("byte at %u%% changed: '%s' does not say the archive is damaged", pct, error->message);
        no_name += strstr (error->message, "has no name") != NULL;
        assert_no_leftovers ();
      }
    g_test_message ("%u of 19 damaged archives unpacked to a member without a name", no_name);
    for (guint i = 0; i < G_N_ELEMENTS (big); i++)
      g_free ((char *) big[i].name);
    g_ptr_array_unref (texts);
  }

  /* A newline and an ANSI escape in a member's name. */
  g_autofree char *evil = tmp_path ("evil-name.tgz");
  const Member m[] = { { "/\x1b[31mred\nforged line", M_FILE, "x", 0 } };
  write_archive (evil, TRUE, m, 1);
  g_clear_error (&error);
  g_assert_null (ttv_archive_extract (evil, &error));
  g_assert_error (error, TTV_ARCHIVE_ERROR, TTV_ARCHIVE_ERROR_HOSTILE);
  g_assert_null (strchr (error->message, '\n'));
  g_assert_null (strchr (error->message, '\x1b'));
  g_assert_nonnull (strstr (error->message, "\\e[31mred\\nforged line"));
}

/* The temporary copy of a rewrite killed midway goes when the archive is
 * next opened. */
static void
test_dead_rewrite (void)
{
  g_autofree char *tgz = tmp_path ("rewrite-dead.tgz");
  write_archive (tgz, TRUE, good_trace, G_N_ELEMENTS (good_trace));
  g_autofree char *stale = tmp_path (".rewrite-dead.tgz.ttv-tmp-AbC123");
  g_assert_true (g_file_set_contents (stale, "half a copy", -1, NULL));
  struct timespec times[2] = { { time (NULL) - 60, 0 }, { time (NULL) - 60, 0 } };
  g_assert_cmpint (utimensat (AT_FDCWD, stale, times, 0), ==, 0);
  g_autofree char *dir = ttv_archive_extract (tgz, NULL);
  g_assert_nonnull (dir);
  g_assert_false (g_file_test (stale, G_FILE_TEST_EXISTS));
}

int
main (int argc, char **argv)
{
  /* A private cache per run: tests look at everything in it. */
  tmp_base = ttv_test_get_tmp_dir ();
  g_autofree char *cache = g_build_filename (tmp_base, "cache", NULL);
  g_autofree char *data = g_build_filename (tmp_base, "data", NULL);
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  g_setenv ("XDG_DATA_HOME", data, TRUE);
  g_unsetenv ("TTV_ARCHIVE_MAX_BYTES");

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/archive/is-archive", test_is_archive);
  g_test_add_func ("/archive/extract/good", test_extract_good);
  g_test_add_func ("/archive/extract/no-top-folder", test_extract_no_top);
  g_test_add_func ("/archive/extract/hardlink-inside", test_hardlink_inside);
  g_test_add_func ("/archive/cache/reuse", test_cache_reuse);
  g_test_add_func ("/archive/cache/rebuild", test_cache_rebuild);
  g_test_add_func ("/archive/cache/concurrent", test_cache_concurrent);
  g_test_add_func ("/archive/cache/clean-stale", test_clean_stale);
  for (guint i = 0; i < G_N_ELEMENTS (hostile_cases); i++)
    {
      g_autofree char *name = g_strdup_printf ("/archive/hostile/%s", hostile_cases[i].test_name);
      g_test_add_data_func (name, &hostile_cases[i], test_hostile);
    }
  g_test_add_func ("/archive/hostile/bomb", test_bomb);
  g_test_add_func ("/archive/corrupt", test_corrupt);
  g_test_add_data_func ("/archive/replace/round-trip-gzip", GINT_TO_POINTER (TRUE),
                        test_replace_round_trip);
  g_test_add_data_func ("/archive/replace/round-trip-tar", GINT_TO_POINTER (FALSE),
                        test_replace_round_trip);
  g_test_add_func ("/archive/replace/failure-keeps-original", test_replace_failure);
  g_test_add_func ("/archive/trace-open", test_trace_open);
  g_test_add_func ("/archive/replace/progress", test_replace_progress);
  g_test_add_data_func ("/archive/replace/cancel-in-scan", GINT_TO_POINTER (FALSE),
                        test_replace_cancel);
  g_test_add_data_func ("/archive/replace/cancel-in-copy", GINT_TO_POINTER (TRUE),
                        test_replace_cancel);
  g_test_add_func ("/archive/extract/cancel", test_extract_cancel);
  g_test_add_func ("/archive/cache/remove-deep-tree", test_remove_deep_tree);
  g_test_add_func ("/archive/cache/deep-archive", test_deep_archive);
  g_test_add_func ("/archive/cache/dead-extraction", test_dead_extraction);
  g_test_add_func ("/archive/hostile/declared-sizes", test_declared_sizes);
  g_test_add_func ("/archive/corrupt/gzip-and-names", test_gzip_damage_and_names);
  g_test_add_func ("/archive/replace/dead-rewrite", test_dead_rewrite);
  return g_test_run ();
}
