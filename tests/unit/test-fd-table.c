/* test-fd-table.c: the fd tracker's (thread group, fd) -> file table
 * against a GHashTable on random opens and closes, clustered as a
 * process's fds are (so probes run long and removals move entries). */
#include "ttv-fd-table.h"

static gint64
ref_key (guint32 tgid, gint64 fd)
{
  return (gint64) ((guint64) tgid << 32 | (guint32) fd);
}

static void
check_same (const TtvFdTable *t, GHashTable *ref, guint32 n_tgids, gint64 n_fds)
{
  g_assert_cmpuint (ttv_fd_table_size (t), ==, g_hash_table_size (ref));
  for (guint32 tgid = 0; tgid < n_tgids; tgid++)
    for (gint64 fd = 0; fd < n_fds; fd++)
      {
        gint64 k = ref_key (tgid, fd);
        g_assert_true (ttv_fd_table_lookup (t, tgid, fd) == g_hash_table_lookup (ref, &k));
      }
}

static void
test_random (gconstpointer data)
{
  const guint32 n_tgids = GPOINTER_TO_UINT (data);
  const gint64 n_fds = 600 / n_tgids;
  static const char *const names[] = { "/etc/passwd", "/dev/null", "/var/log/syslog", "socket:[1234]" };
  g_autoptr (GRand) r = g_rand_new_with_seed (7 + n_tgids);
  g_autoptr (GHashTable) ref = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  TtvFdTable t;
  ttv_fd_table_init (&t);
  g_assert_null (ttv_fd_table_lookup (&t, 1, 3));
  ttv_fd_table_remove (&t, 1, 3);
  for (guint step = 0; step < 100000; step++)
    {
      guint32 tgid = (guint32) g_rand_int_range (r, 0, (gint32) n_tgids);
      gint64 fd = g_rand_int_range (r, 0, (gint32) n_fds);
      gint64 k = ref_key (tgid, fd);
      /* Closes as often as opens once the table is full enough: it grows,
       * then turns over at about its size. */
      if (g_rand_int_range (r, 0, 100) < (g_hash_table_size (ref) > 300 ? 50 : 30))
        {
          ttv_fd_table_remove (&t, tgid, fd);
          g_hash_table_remove (ref, &k);
        }
      else
        {
          const char *name = names[g_rand_int_range (r, 0, G_N_ELEMENTS (names))];
          ttv_fd_table_insert (&t, tgid, fd, name);
          g_hash_table_insert (ref, g_memdup2 (&k, sizeof k), (gpointer) name);
        }
      if (step % 5000 == 0)
        check_same (&t, ref, n_tgids, n_fds);
    }
  check_same (&t, ref, n_tgids, n_fds);
  /* A copy as another process's (fork): one process's fds under its key. */
  if (n_tgids == 1)
    {
      TtvFdTable child;
      ttv_fd_table_init (&child);
      ttv_fd_table_copy_as (&child, &t, 77);
      g_assert_cmpuint (ttv_fd_table_size (&child), ==, ttv_fd_table_size (&t));
      for (gint64 fd = 0; fd < n_fds; fd++)
        g_assert_true (ttv_fd_table_lookup (&child, 77, fd) == ttv_fd_table_lookup (&t, 0, fd));
      ttv_fd_table_clear (&child);
    }
  /* Only the low 32 bits of an fd count (the kernel's int). */
  ttv_fd_table_insert (&t, 5, G_GINT64_CONSTANT (0x100000003), "/tmp/x");
  g_assert_cmpstr (ttv_fd_table_lookup (&t, 5, 3), ==, "/tmp/x");
  ttv_fd_table_clear (&t);
  g_assert_cmpuint (ttv_fd_table_size (&t), ==, 0);
  g_assert_null (ttv_fd_table_lookup (&t, 5, 3));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_data_func ("/core/fd-table/one-process", GUINT_TO_POINTER (1), test_random);
  g_test_add_data_func ("/core/fd-table/many-processes", GUINT_TO_POINTER (40), test_random);
  return g_test_run ();
}
