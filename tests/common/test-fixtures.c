/* test-fixtures.c: the fixtures of ttv-test-util.h checked the way tests
 * fail: each case runs in a test subprocess that passes, fails an
 * assertion, aborts or is killed, and the parent checks what it left. */
#include "ttv-test-util.h"

#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>

/* The child writes what it made into $TTV_FIXTURE_REPORT for the parent. */
static void
report_path (const char *path)
{
  g_assert_true (g_file_set_contents (g_getenv ("TTV_FIXTURE_REPORT"), path, -1, NULL));
}

/* The watchdog acts once the child is gone, a moment after. */
static void
assert_removed_soon (const char *path)
{
  for (guint i = 0; i < 500 && g_file_test (path, G_FILE_TEST_EXISTS); i++)
    g_usleep (10000);
  if (g_file_test (path, G_FILE_TEST_EXISTS))
    g_error ("%s is still there", path);
}

static char *
make_test_tmp_dir (void)
{
  const char *dir = ttv_test_get_tmp_dir ();
  g_autofree char *sub = g_build_filename (dir, "a", NULL);
  g_autofree char *file = g_build_filename (sub, "b.txt", NULL);

  g_assert_cmpint (g_mkdir_with_parents (sub, 0700), ==, 0);
  g_assert_true (g_file_set_contents (file, "x", -1, NULL));
  report_path (dir);
  return g_strdup (dir);
}

/* --- Children ------------------------------------------------------------------ */

static void
child_pass (void)
{
  g_autofree char *dir = make_test_tmp_dir ();
  g_autofree char *base = g_path_get_basename (dir);

  /* Named after the test; the same directory all through it. */
  g_assert_true (g_str_has_prefix (base, "ttv-fixtures-tmp-dir-removed-after-pass-"));
  g_assert_cmpstr (ttv_test_get_tmp_dir (), ==, dir);
}

static void
child_assert (void)
{
  /* Made, then the child dies: the fixture must remove it all the same. */
  g_autofree char *dir = make_test_tmp_dir ();
  (void) dir;
  g_assert_cmpint (1, ==, 2);
}

static void
child_abort (void)
{
  /* Made, then the child dies: the fixture must remove it all the same. */
  g_autofree char *dir = make_test_tmp_dir ();
  (void) dir;
  abort ();
}

static void
child_kill (void)
{
  /* Made, then the child dies: the fixture must remove it all the same. */
  g_autofree char *dir = make_test_tmp_dir ();
  (void) dir;
  kill (getpid (), SIGKILL);
}

static void
child_program (void)
{
  /* Made in main(): named after the program. */
  const char *dir = g_getenv ("TTV_FIXTURE_PROGRAM_DIR");
  g_autofree char *base = g_path_get_basename (dir);

  g_assert_true (g_str_has_prefix (base, "ttv-test-fixtures-"));
  g_assert_true (g_file_test (dir, G_FILE_TEST_IS_DIR));
  report_path (dir);
}

/* A copy of a trace, guarded, then changed by @change. */
static void
guarded_child (void (*change) (const char *trace))
{
  g_autofree char *trace = ttv_test_dup_tmp_path ("trace");
  g_autofree char *file = g_build_filename (trace, "cpu", "0", NULL);
  g_autofree char *parent = g_path_get_dirname (file);

  g_assert_cmpint (g_mkdir_with_parents (parent, 0700), ==, 0);
  g_assert_true (g_file_set_contents (file, "events", -1, NULL));
  report_path (trace);
  ttv_test_guard_tree (trace);
  if (change)
    change (trace);
}

static void
read_trace (const char *trace)
{
  g_autofree char *file = g_build_filename (trace, "cpu", "0", NULL);
  g_autofree char *text = NULL;

  g_assert_true (g_file_get_contents (file, &text, NULL, NULL));
}

static void
rewrite_trace (const char *trace)
{
  g_autofree char *file = g_build_filename (trace, "cpu", "0", NULL);

  g_assert_true (g_file_set_contents (file, "eventz", -1, NULL));
}

static void
add_to_trace (const char *trace)
{
  g_autofree char *file = g_build_filename (trace, "bookmarks.xml", NULL);

  g_assert_true (g_file_set_contents (file, "", -1, NULL));
}

static void
child_guard_read (void)
{
  guarded_child (read_trace);
}

static void
child_guard_rewrite (void)
{
  guarded_child (rewrite_trace);
}

static void
child_guard_add (void)
{
  guarded_child (add_to_trace);
}

static void
child_shared_absent (void)
{
  g_autofree char *path = ttv_test_dup_shared_trace ("ctf/no-such-trace");

  g_assert_null (path);
  report_path ("skipped");
}

/* --- Tests: each runs its child in a subprocess, then checks ---------------------- */

/* Runs the running test again as a subprocess, which calls @child;
 * returns what the child reported. */
static char *
run_child (void (*child) (void))
{
  g_autofree char *report = NULL;
  char *reported = NULL;

  if (g_test_subprocess ())
    {
      child ();
      return NULL;
    }
  report = g_build_filename (ttv_test_get_tmp_dir (), "report", NULL);
  g_setenv ("TTV_FIXTURE_REPORT", report, TRUE);
  g_test_trap_subprocess (NULL, 30 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_DEFAULT);
  g_unsetenv ("TTV_FIXTURE_REPORT");
  g_assert_true (g_file_get_contents (report, &reported, NULL, NULL));
  g_remove (report);
  return reported;
}

static void
test_removed_after_pass (void)
{
  g_autofree char *dir = run_child (child_pass);

  if (!dir)
    return;
  g_test_trap_assert_passed ();
  /* Removed by the test's teardown, before the child ended. */
  g_assert_false (g_file_test (dir, G_FILE_TEST_EXISTS));
}

static void
test_removed_after_failure (gconstpointer child)
{
  g_autofree char *dir = run_child (child);

  if (!dir)
    return;
  g_test_trap_assert_failed ();
  assert_removed_soon (dir);
}

static void
test_program_dir (void)
{
  g_autofree char *dir = run_child (child_program);

  if (!dir)
    return;
  g_test_trap_assert_passed ();
  assert_removed_soon (dir);
}

static void
test_guard_read (void)
{
  g_autofree char *trace = run_child (child_guard_read);

  if (!trace)
    return;
  g_test_trap_assert_passed ();
}

static void
test_guard_rewritten (void)
{
  g_autofree char *trace = run_child (child_guard_rewrite);

  if (!trace)
    return;
  g_test_trap_assert_failed ();
  g_test_trap_assert_stderr ("*changed during /fixtures/guard/rewritten*was cpu/0 6 *now cpu/0 6 *");
}

static void
test_guard_added (void)
{
  g_autofree char *trace = run_child (child_guard_add);

  if (!trace)
    return;
  g_test_trap_assert_failed ();
  g_test_trap_assert_stderr ("*changed during /fixtures/guard/added*now bookmarks.xml 0 *");
}

static const char *program;

/* Run as a user reads it (TAP): skipped, with the path that is absent. */
static void
test_shared_absent (void)
{
  const char *argv[] = { program, "--tap", "-p", "/fixtures/shared/absent", NULL };
  g_auto (TtvTestRun) r = { 0 };
  g_autofree char *report = NULL, *reported = NULL;

  if (g_getenv ("TTV_FIXTURE_CHILD"))
    {
      child_shared_absent ();
      return;
    }
  report = g_build_filename (ttv_test_get_tmp_dir (), "report", NULL);
  g_setenv ("TTV_FIXTURE_REPORT", report, TRUE);
  g_setenv ("TTV_FIXTURE_CHILD", "1", TRUE);
  ttv_test_run (&r, NULL, NULL, argv);
  g_unsetenv ("TTV_FIXTURE_CHILD");
  g_unsetenv ("TTV_FIXTURE_REPORT");
  g_assert_true (g_file_get_contents (report, &reported, NULL, NULL));
  g_assert_cmpstr (reported, ==, "skipped");
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "# SKIP "));
  g_assert_nonnull (strstr (r.out, "traces/ctf/no-such-trace absent: the real traces of ../shared"));
}

static void
test_shared_present (void)
{
  g_autofree char *path = ttv_test_dup_shared_trace ("ctf/glxgears-ust");
  g_autofree char *listing = NULL;

  if (!path)
    return;
  listing = ttv_test_dup_tree_listing (path);
  g_assert_nonnull (strstr (listing, "metadata "));
}

static void
test_tmp_path (void)
{
  g_autofree char *a = ttv_test_dup_tmp_path ("trace");
  g_autofree char *b = ttv_test_dup_tmp_path ("trace");
  g_autofree char *c = NULL, *d = NULL;
  g_autofree char *made = g_build_filename (ttv_test_get_tmp_dir (), "made", NULL);
  g_autofree char *first = g_build_filename (ttv_test_get_tmp_dir (), "trace", NULL);

  /* Given, not made yet: still taken. */
  g_assert_cmpstr (a, ==, first);
  g_assert_true (g_str_has_suffix (b, "/trace-2"));
  c = ttv_test_dup_tmp_path ("trace");
  g_assert_true (g_str_has_suffix (c, "/trace-3"));
  /* Made by the test: taken. */
  g_assert_cmpint (g_mkdir (made, 0700), ==, 0);
  d = ttv_test_dup_tmp_path ("made");
  g_assert_true (g_str_has_suffix (d, "/made-2"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  program = argv[0];
  g_setenv ("TTV_FIXTURE_PROGRAM_DIR", ttv_test_get_tmp_dir (), TRUE);

  g_test_add_func ("/fixtures/tmp-dir/removed-after-pass", test_removed_after_pass);
  g_test_add_data_func ("/fixtures/tmp-dir/removed-after-assertion", child_assert, test_removed_after_failure);
  g_test_add_data_func ("/fixtures/tmp-dir/removed-after-abort", child_abort, test_removed_after_failure);
  g_test_add_data_func ("/fixtures/tmp-dir/removed-after-kill", child_kill, test_removed_after_failure);
  g_test_add_func ("/fixtures/tmp-dir/program", test_program_dir);
  g_test_add_func ("/fixtures/tmp-dir/numbered-paths", test_tmp_path);
  g_test_add_func ("/fixtures/guard/read", test_guard_read);
  g_test_add_func ("/fixtures/guard/rewritten", test_guard_rewritten);
  g_test_add_func ("/fixtures/guard/added", test_guard_added);
  g_test_add_func ("/fixtures/shared/absent", test_shared_absent);
  g_test_add_func ("/fixtures/shared/present", test_shared_present);
  return g_test_run ();
}
