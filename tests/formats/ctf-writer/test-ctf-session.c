/* test-ctf-session.c: LTTng session directories (kernel/ + ust/uid/UID/64-bit/)
 * and archives of them opened as one traceset (src/libttv/ttv-session.c). */
#include "ttv-test-util.h"
#include "ttv-ctf-sim.h"
#include "ttv-context.h"
#include "ttv-error.h"
#include "ttv-session.h"
#include "ttv-traceset.h"

#include <glib/gstdio.h>
#include <string.h>

static guint64
count_events (TtvTraceset *ts)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvContext) ctx = ttv_context_new (ts, &error);
  g_assert_no_error (error);
  g_assert_true (ttv_context_seek_begin (ctx, &error));
  guint64 n = 0;
  TtvTime prev = TTV_TIME_MIN;
  const TtvEvent *ev;
  while ((ev = ttv_context_next (ctx, &error)))
    {
      g_assert_cmpint (ev->time, >=, prev);
      prev = ev->time;
      n++;
    }
  g_assert_no_error (error);
  return n;
}

static guint64
count_path (const char *path)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvTraceset) ts = ttv_traceset_new ();
  g_assert_true (ttv_traceset_add_path (ts, path, &error));
  g_assert_no_error (error);
  return count_events (ts);
}

static void
write_trace (const char *dir, guint64 seed, guint64 n_events, guint64 *n_written)
{
  g_autoptr (GError) error = NULL;
  TtvSimOptions so;
  ttv_sim_options_init (&so);
  so.seed = seed;
  so.n_cpus = 2;
  so.n_processes = 10;
  so.max_events = n_events;
  g_autoptr (TtvSim) sim = ttv_sim_new (&so, &error);
  g_assert_no_error (error);
  TtvCtfWriterOptions wo = { .packet_size = 4096 };
  TtvCtfSimStats stats;
  g_assert_true (ttv_ctf_write_simulation (dir, sim, &wo, NULL, NULL, &stats, &error));
  g_assert_no_error (error);
  *n_written = stats.n_events;
}

static gboolean
make_tar_gz (const char *parent, const char *member, const char *archive)
{
  g_autofree char *tar = g_find_program_in_path ("tar");
  if (tar == NULL)
    return FALSE;
  const char *argv[] = { tar, "-czf", archive, "-C", parent, member, NULL };
  gint status = 0;
  g_autoptr (GError) error = NULL;
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL,
                               NULL, NULL, &status, &error));
  g_assert_no_error (error);
  return g_spawn_check_wait_status (status, NULL);
}

/* The real shared traces assembled as LTTng lays out a session. */
static void
test_shared_session (void)
{
  g_autofree char *kernel_src = ttv_test_dup_shared_ctf_trace ("bigendian-kernel");
  g_autofree char *ust_src = kernel_src ? ttv_test_dup_shared_ctf_trace ("glxgears-ust") : NULL;
  if (ust_src == NULL)
    return;
  g_autofree char *session = g_build_filename (ttv_test_get_tmp_dir (), "session-20240101-120000", NULL);
  g_autofree char *kernel = g_build_filename (session, "kernel", NULL);
  g_autofree char *ust = g_build_filename (session, "ust", "uid", "1000", "64-bit", NULL);
  ttv_test_copy_dir (kernel_src, kernel);
  ttv_test_copy_dir (ust_src, ust);

  g_autoptr (GError) error = NULL;
  g_autoptr (TtvTraceset) ts = ttv_traceset_new ();
  g_assert_true (ttv_traceset_add_path (ts, session, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (ttv_traceset_get_n_traces (ts), ==, 2);
  g_assert_cmpstr (ttv_traceset_get_trace (ts, 0)->name, ==, "kernel");
  g_assert_cmpstr (ttv_traceset_get_trace (ts, 1)->name, ==, "ust/uid/1000/64-bit");
  g_assert_cmpuint (ttv_traceset_get_n_tracefiles (ts), ==, 1 + 4);
  g_assert_cmpuint (count_events (ts), ==, 14310 + 4977);
  /* Each subtrace alone still opens as before. */
  g_assert_cmpuint (count_path (kernel), ==, 14310);

  g_autofree char *archive = g_build_filename (ttv_test_get_tmp_dir (), "session.tar.gz", NULL);
  if (!make_tar_gz (ttv_test_get_tmp_dir (), "session-20240101-120000", archive))
    {
      g_test_message ("no working tar: archive case not checked");
      ttv_test_remove_tree (session);
      return;
    }
  g_autoptr (TtvTraceset) ts2 = ttv_traceset_new ();
  g_assert_true (ttv_traceset_add_path (ts2, archive, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (ttv_traceset_get_n_traces (ts2), ==, 2);
  g_assert_true (g_str_has_prefix (ttv_traceset_get_trace (ts2, 1)->display_path, archive));
  g_assert_cmpuint (count_events (ts2), ==, 14310 + 4977);
  ttv_test_remove_tree (session);
  g_remove (archive);
}

/* Generated traces: depth limit, dot-files, an empty session, a broken subtrace. */
static void
test_generated_session (void)
{
  g_autofree char *session = g_build_filename (ttv_test_get_tmp_dir (), "gen-session", NULL);
  g_autofree char *kernel = g_build_filename (session, "kernel", NULL);
  g_autofree char *ust = g_build_filename (session, "ust", "pid", "app-42-20240101-120000", NULL);
  g_autofree char *hidden = g_build_filename (session, ".snapshot", NULL);
  /* Deeper than any layout LTTng writes (a rotated session is 6 levels). */
  g_autofree char *deep = g_build_filename (session, "a", "b", "c", "d", "e", "f", "g", "h", "i", NULL);
  guint64 nk, nu, nh, nd;
  write_trace (kernel, 1, 3000, &nk);
  write_trace (ust, 2, 2000, &nu);
  write_trace (hidden, 3, 1000, &nh);
  write_trace (deep, 4, 1000, &nd);

  g_autoptr (GPtrArray) found = ttv_session_find_traces (session, TTV_SESSION_MAX_DEPTH);
  g_assert_cmpuint (found->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (found, 0), ==, "kernel");
  g_assert_cmpstr (g_ptr_array_index (found, 1), ==, "ust/pid/app-42-20240101-120000");
  g_assert_false (ttv_session_is_trace_dir (session));
  g_assert_true (ttv_session_is_trace_dir (kernel));
  g_assert_cmpuint (count_path (session), ==, nk + nu);

  /* A trace that is found but cannot be opened fails the whole session. */
  g_autofree char *broken = g_build_filename (session, "ust", "uid", "0", "64-bit", NULL);
  g_assert_cmpint (g_mkdir_with_parents (broken, 0755), ==, 0);
  g_autofree char *meta = g_build_filename (broken, "metadata", NULL);
  g_assert_true (g_file_set_contents (meta, "/* CTF 1.8 */\ntrace { major = 1; minor = 8; ", -1, NULL));
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvTraceset) ts = ttv_traceset_new ();
  g_assert_false (ttv_traceset_add_path (ts, session, &error));
  g_assert_nonnull (error);
  g_assert_cmpuint (ttv_traceset_get_n_traces (ts), ==, 0);
  g_clear_error (&error);
  ttv_test_remove_tree (broken);

  /* No trace anywhere below: the usual "not a trace" error. */
  g_autofree char *empty = g_build_filename (ttv_test_get_tmp_dir (), "empty", "x", "y", NULL);
  g_assert_cmpint (g_mkdir_with_parents (empty, 0755), ==, 0);
  g_autofree char *empty_root = g_build_filename (ttv_test_get_tmp_dir (), "empty", NULL);
  g_assert_false (ttv_traceset_add_path (ts, empty_root, &error));
  g_assert_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_UNKNOWN_FORMAT);
  ttv_test_remove_tree (empty_root);
  ttv_test_remove_tree (session);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ctf-session/shared-traces", test_shared_session);
  g_test_add_func ("/ctf-session/generated", test_generated_session);
  return g_test_run ();
}
