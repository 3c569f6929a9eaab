/* ttv-test-fixtures.c: the per-test fixtures every test program shares: its
 * temporary directory, the real traces of ../shared, and trees it must leave
 * untouched (see ttv-test-util.h). */
#include "ttv-test-util.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

/* --- Temporary directories ---------------------------------------------- */

/* A process that outlives the test program and removes, when the program
 * ends however it ends (an assertion's abort, a crash, _exit in a test
 * subprocess, meson's SIGTERM or SIGKILL on a timeout), the directories it
 * was told about.  It reads their paths on its standard input, one a line,
 * and acts at end of file: when the last copy of the write end closes,
 * that is, when the test program is gone.  In its own session, so that a
 * signal to the test's process group leaves it alive. */
static const char watchdog_script[] =
  "trap '' HUP INT TERM\n"
  "set --\n"
  "while IFS= read -r d; do set -- \"$@\" \"$d\"; done\n"
  "[ $# -eq 0 ] || rm -rf -- \"$@\"\n";

static int watchdog_fd = -1;

static void
watchdog_child_setup (gpointer unused)
{
  setsid ();
}

static void
watchdog_tell (const char *path)
{
  if (watchdog_fd < 0)
    {
      const char *argv[] = { "/bin/sh", "-c", watchdog_script, "ttv-test-tmp-watchdog", NULL };
      g_autoptr (GError) error = NULL;

      /* Without G_SPAWN_DO_NOT_REAP_CHILD, GLib forks twice: the watchdog
       * is no child of the test, whose waitpid() calls never see it. */
      if (!g_spawn_async_with_pipes (NULL, (char **) argv, NULL,
                                     G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                                     watchdog_child_setup, NULL, NULL, &watchdog_fd, NULL, NULL, &error))
        g_error ("cannot start the temporary directory watchdog: %s", error->message);
      fcntl (watchdog_fd, F_SETFD, FD_CLOEXEC);
    }
  g_autofree char *line = g_strconcat (path, "\n", NULL);
  gsize len = strlen (line);
  for (gsize done = 0; done < len;)
    {
      ssize_t n = write (watchdog_fd, line + done, len - done);
      if (n < 0 && errno == EINTR)
        continue;
      g_assert_cmpint (n, >, 0);
      done += (gsize) n;
    }
}

static gboolean
keep_tmp (void)
{
  return g_getenv ("TTV_TEST_KEEP_TMP") != NULL;
}

static void
remove_tmp_dir (gpointer path)
{
  if (keep_tmp ())
    g_test_message ("kept %s (TTV_TEST_KEEP_TMP)", (char *) path);
  else
    ttv_test_remove_tree (path);
  g_free (path);
}

static char *program_tmp_dir;   /* the program's, made outside any test */
static char *test_tmp_dir;      /* weak: the running test's, freed by its teardown */
static char *test_tmp_dir_test; /* the test it belongs to */

static void
remove_program_tmp_dir (void)
{
  remove_tmp_dir (g_steal_pointer (&program_tmp_dir));
}

static void
forget_test_tmp_dir (gpointer path)
{
  if (test_tmp_dir == path)
    {
      test_tmp_dir = NULL;
      g_clear_pointer (&test_tmp_dir_test, g_free);
    }
  remove_tmp_dir (path);
}

/* "ttv-" and @what with every byte a file name would not want made '-'. */
static char *
tmp_template (const char *what)
{
  GString *name = g_string_new ("ttv-");

  while (*what == '/')
    what++;
  for (const char *p = what; *p && name->len < 100; p++)
    g_string_append_c (name, g_ascii_isalnum (*p) || *p == '.' || *p == '_' ? *p : '-');
  g_string_append (name, "-XXXXXX");
  return g_string_free (name, FALSE);
}

static char *
make_tmp_dir (const char *what)
{
  g_autofree char *template = tmp_template (what);
  g_autoptr (GError) error = NULL;
  char *dir = g_dir_make_tmp (template, &error);

  g_assert_no_error (error);
  if (!keep_tmp ())
    watchdog_tell (dir);
  return dir;
}

const char *
ttv_test_get_tmp_dir (void)
{
  const char *test = g_test_get_path ();

  if (test == NULL || !*test)
    {
      /* Outside any test: the program's own, for what its tests share. */
      if (program_tmp_dir == NULL)
        {
          /* Before g_test_init() (XDG folders are set before GTK reads
           * them), the program has no name yet: its file's. */
          g_autofree char *exe = g_get_prgname () ? NULL : g_file_read_link ("/proc/self/exe", NULL);
          g_autofree char *program = g_path_get_basename (g_get_prgname () ? g_get_prgname () : exe ? exe : "test");
          program_tmp_dir = make_tmp_dir (program);
          atexit (remove_program_tmp_dir);
        }
      return program_tmp_dir;
    }
  if (test_tmp_dir == NULL || g_strcmp0 (test_tmp_dir_test, test) != 0)
    {
      test_tmp_dir = make_tmp_dir (test);
      g_free (test_tmp_dir_test);
      test_tmp_dir_test = g_strdup (test);
      g_test_queue_destroy (forget_test_tmp_dir, test_tmp_dir);
    }
  return test_tmp_dir;
}

/* The paths ttv_test_dup_tmp_path() gave (in directories of their own:
 * they never meet again). */
static GHashTable *given_paths;

char *
ttv_test_dup_tmp_path (const char *name)
{
  const char *dir = ttv_test_get_tmp_dir ();
  char *path = g_build_filename (dir, name, NULL);

  if (given_paths == NULL)
    given_paths = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint n = 2; g_file_test (path, G_FILE_TEST_EXISTS) || g_hash_table_contains (given_paths, path); n++)
    {
      g_autofree char *numbered = g_strdup_printf ("%s-%u", name, n);
      g_free (path);
      path = g_build_filename (dir, numbered, NULL);
    }
  g_hash_table_add (given_paths, g_strdup (path));
  return path;
}

/* --- Trees a test must leave untouched ------------------------------------- */

static gint
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

static void list_tree (const char *root, const char *rel, GString *out);

/* The line of @root/@rel: a directory with a '/' (then its entries), a
 * link with its target, a file with its size and SHA-256. */
static void
list_entry (const char *root, const char *rel, GString *out)
{
  g_autofree char *path = g_build_filename (root, rel, NULL);
  GStatBuf st;

  if (g_lstat (path, &st) != 0)
    return;
  if (S_ISLNK (st.st_mode))
    {
      g_autofree char *target = g_file_read_link (path, NULL);
      g_string_append_printf (out, "%s -> %s\n", rel, target ? target : "?");
    }
  else if (S_ISDIR (st.st_mode))
    {
      g_string_append_printf (out, "%s/\n", rel);
      list_tree (root, rel, out);
    }
  else
    {
      g_autofree char *contents = NULL;
      g_autofree char *sum = NULL;
      gsize len = 0;

      if (g_file_get_contents (path, &contents, &len, NULL))
        sum = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) contents, len);
      g_string_append_printf (out, "%s %" G_GSIZE_FORMAT " %s\n", rel, len, sum ? sum : "unreadable");
    }
}

/* The lines of the entries under @root/@rel (@rel NULL: @root), sorted. */
static void
list_tree (const char *root, const char *rel, GString *out)
{
  g_autofree char *dir = rel ? g_build_filename (root, rel, NULL) : g_strdup (root);
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  if (d == NULL)
    return;
  while ((name = g_dir_read_name (d)))
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *child = rel ? g_build_filename (rel, names->pdata[i], NULL) : g_strdup (names->pdata[i]);
      list_entry (root, child, out);
    }
}

char *
ttv_test_dup_tree_listing (const char *path)
{
  GString *out = g_string_new (NULL);

  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    list_tree (path, NULL, out);
  else
    {
      /* A file (an archive): its own line. */
      g_autofree char *parent = g_path_get_dirname (path), *base = g_path_get_basename (path);
      list_entry (parent, base, out);
    }
  return g_string_free (out, FALSE);
}

typedef struct {
  char *dir;
  char *before;
} TreeGuard;

/* The first lines of @a not in @b, each behind @mark. */
static void
append_missing (GString *msg, const char *a, const char *b, const char *mark)
{
  g_auto (GStrv) la = g_strsplit (a, "\n", -1);
  g_autoptr (GHashTable) lb = g_hash_table_new (g_str_hash, g_str_equal);
  g_auto (GStrv) vb = g_strsplit (b, "\n", -1);
  guint shown = 0;

  for (guint i = 0; vb[i]; i++)
    g_hash_table_add (lb, vb[i]);
  for (guint i = 0; la[i] && shown < 10; i++)
    if (*la[i] && !g_hash_table_contains (lb, la[i]))
      {
        g_string_append_printf (msg, "\n  %s %s", mark, la[i]);
        shown++;
      }
}

static void
tree_guard_check (gpointer data)
{
  TreeGuard *g = data;
  g_autofree char *after = ttv_test_dup_tree_listing (g->dir);

  if (strcmp (after, g->before) != 0)
    {
      g_autoptr (GString) msg = g_string_new (NULL);

      g_string_printf (msg, "%s changed during %s (a test must leave the traces it reads as they were):",
                       g->dir, g_test_get_path ());
      append_missing (msg, g->before, after, "was");
      append_missing (msg, after, g->before, "now");
      g_assertion_message (G_LOG_DOMAIN, __FILE__, __LINE__, G_STRFUNC, msg->str);
    }
  g_free (g->dir);
  g_free (g->before);
  g_free (g);
}

void
ttv_test_guard_tree (const char *dir)
{
  TreeGuard *g;

  g_assert_true (g_test_get_path () != NULL && *g_test_get_path ());
  g = g_new0 (TreeGuard, 1);
  g->dir = g_strdup (dir);
  g->before = ttv_test_dup_tree_listing (dir);
  g_test_queue_destroy (tree_guard_check, g);
}

typedef struct {
  char *tree;
  gconstpointer data;
  GTestDataFunc func;
} GuardedTest;

static void
guarded_test_free (gpointer data)
{
  GuardedTest *t = data;

  g_free (t->tree);
  g_free (t);
}

static void
run_guarded (gconstpointer data)
{
  const GuardedTest *t = data;

  ttv_test_guard_tree (t->tree);
  t->func (t->data);
}

void
ttv_test_add_guarded (const char *testpath, const char *tree, gconstpointer data, GTestDataFunc func)
{
  GuardedTest *t = g_new0 (GuardedTest, 1);

  t->tree = g_strdup (tree);
  t->data = data;
  t->func = func;
  g_test_add_data_func_full (testpath, t, run_guarded, guarded_test_free);
}

/* --- The real traces of ../shared --------------------------------------------- */

char *
ttv_test_dup_shared_trace (const char *relative)
{
  const char *shared = g_getenv ("TTV_SHARED_DIR");
  g_autofree char *path = g_build_filename (shared ? shared : "../shared", "traces", relative, NULL);

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_autofree char *msg = g_strdup_printf ("%s absent: the real traces of ../shared are not beside the "
                                              "project (TTV_SHARED_DIR=%s)", path, shared ? shared : "unset");
      g_test_skip (msg);
      return NULL;
    }
  ttv_test_guard_tree (path);
  return g_steal_pointer (&path);
}

char *
ttv_test_dup_shared_ctf_trace (const char *name)
{
  g_autofree char *relative = g_build_filename ("ctf", name, NULL);

  return ttv_test_dup_shared_trace (relative);
}
