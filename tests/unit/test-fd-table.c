/* test-fd-table.c: the fd tracker's per-process fd -> file table against
 * a GHashTable on random opens and closes, of fds in a run as a process's
 * are (so probes run long and removals move entries) and spread out. */
#include "ttv-fd-table.h"

/* The fds a test draws from: 0 to 599, @stride apart. */
static gint64
nth_fd (guint i, gint64 stride)
{
  return (gint64) i * stride;
}

#define N_FDS 600u

static void
check_same (const TtvFdTable *t, GHashTable *ref, gint64 stride)
{
  g_assert_cmpuint (ttv_fd_table_size (t), ==, g_hash_table_size (ref));
  for (guint i = 0; i < N_FDS; i++)
    {
      gint64 fd = nth_fd (i, stride);
      g_assert_true (ttv_fd_table_lookup (t, fd) == g_hash_table_lookup (ref, &fd));
    }
}

static void
test_random (gconstpointer data)
{
  const gint64 stride = GPOINTER_TO_UINT (data);
  static const char *const names[] = { "/etc/passwd", "/dev/null", "/var/log/syslog", "socket:[1234]" };
  g_autoptr (GRand) r = g_rand_new_with_seed (7 + (guint32) stride);
  g_autoptr (GHashTable) ref = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  TtvFdTable t;
  ttv_fd_table_init (&t);
  g_assert_null (ttv_fd_table_lookup (&t, 3));
  ttv_fd_table_remove (&t, 3);
  for (guint step = 0; step < 100000; step++)
    {
      gint64 fd = nth_fd ((guint) g_rand_int_range (r, 0, N_FDS), stride);
      /* Closes as often as opens once the table is full enough: it grows,
       * then turns over at about its size. */
      if (g_rand_int_range (r, 0, 100) < (g_hash_table_size (ref) > 300 ? 50 : 30))
        {
          ttv_fd_table_remove (&t, fd);
          g_hash_table_remove (ref, &fd);
        }
      else
        {
          const char *name = names[g_rand_int_range (r, 0, G_N_ELEMENTS (names))];
          ttv_fd_table_insert (&t, fd, name);
          g_hash_table_insert (ref, g_memdup2 (&fd, sizeof fd), (gpointer) name);
        }
      if (step % 5000 == 0)
        check_same (&t, ref, stride);
    }
  check_same (&t, ref, stride);
  /* A copy (a child's files after fork): the same fds, apart from the
   * original's later changes. */
  TtvFdTable child;
  ttv_fd_table_init (&child);
  ttv_fd_table_copy (&child, &t);
  check_same (&child, ref, stride);
  ttv_fd_table_insert (&t, 1, "/tmp/only-the-parent");
  g_assert_true (ttv_fd_table_lookup (&child, 1) == g_hash_table_lookup (ref, &(gint64) { 1 }));
  ttv_fd_table_clear (&child);
  /* Only the low 32 bits of an fd count (the kernel's int). */
  ttv_fd_table_insert (&t, G_GINT64_CONSTANT (0x100000003), "/tmp/x");
  g_assert_cmpstr (ttv_fd_table_lookup (&t, 3), ==, "/tmp/x");
  ttv_fd_table_clear (&t);
  g_assert_cmpuint (ttv_fd_table_size (&t), ==, 0);
  g_assert_null (ttv_fd_table_lookup (&t, 3));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_data_func ("/core/fd-table/in-a-run", GUINT_TO_POINTER (1), test_random);
  g_test_add_data_func ("/core/fd-table/spread", GUINT_TO_POINTER (1009), test_random);
  return g_test_run ();
}
