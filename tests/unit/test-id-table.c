/* test-id-table.c: the id map of the state and the statistics against a
 * GHashTable on random inserts and removals, and the size of its copies
 * (a state checkpoint): following the records held, not the highest id. */
#include "ttv-id-table.h"

static void
check_same (const TtvIdTable *t, GHashTable *ref)
{
  g_assert_cmpuint (ttv_id_table_size (t), ==, g_hash_table_size (ref));
  GHashTableIter it;
  gpointer k, v;
  g_hash_table_iter_init (&it, ref);
  while (g_hash_table_iter_next (&it, &k, &v))
    {
      guint32 *r = ttv_id_table_lookup (t, GPOINTER_TO_UINT (k));
      g_assert_nonnull (r);
      g_assert_cmpuint (*r, ==, GPOINTER_TO_UINT (v));
    }
  g_autoptr (GArray) ids = ttv_id_table_list_ids (t);
  g_assert_cmpuint (ids->len, ==, g_hash_table_size (ref));
  for (guint i = 1; i < ids->len; i++)
    g_assert_cmpuint (g_array_index (ids, guint32, i - 1), <, g_array_index (ids, guint32, i));
}

static void
test_random (void)
{
  g_autoptr (GRand) r = g_rand_new_with_seed (5);
  g_autoptr (GHashTable) ref = g_hash_table_new (g_direct_hash, g_direct_equal);
  TtvIdTable t;
  ttv_id_table_init (&t);
  for (guint step = 0; step < 200000; step++)
    {
      /* Ids in a few clusters, as pids and IRQ lines come, and some wide. */
      guint32 id = g_rand_boolean (r) ? (guint32) g_rand_int_range (r, 0, 3000)
                                      : (guint32) g_rand_int_range (r, 0, 4000000);
      guint32 value = g_rand_int (r);
      if (g_rand_int_range (r, 0, 3) == 0)
        {
          ttv_id_table_remove (&t, id);
          g_hash_table_remove (ref, GUINT_TO_POINTER (id));
        }
      else
        {
          ttv_id_table_insert (&t, id, g_memdup2 (&value, sizeof value));
          g_hash_table_insert (ref, GUINT_TO_POINTER (id), GUINT_TO_POINTER (value));
        }
      g_assert_null (ttv_id_table_lookup (&t, 4000001 + step));
      if (step % 20000 == 0)
        check_same (&t, ref);
    }
  check_same (&t, ref);
  TtvIdTable copy;
  ttv_id_table_copy (&copy, &t, sizeof (guint32));
  check_same (&copy, ref);
  ttv_id_table_clear (&copy);
  ttv_id_table_clear (&t);
}

/* Sixty live processes after pids up to 4 million: a copy is small. */
static void
test_copy_size (void)
{
  TtvIdTable t;
  ttv_id_table_init (&t);
  for (guint32 pid = 1; pid < 4000000; pid += 997)
    {
      guint32 v = pid;
      ttv_id_table_insert (&t, pid, g_memdup2 (&v, sizeof v));
      if (pid > 60 * 997)
        ttv_id_table_remove (&t, pid - 60 * 997);
    }
  g_assert_cmpuint (ttv_id_table_size (&t), ==, 60);
  TtvIdTable copy;
  ttv_id_table_copy (&copy, &t, sizeof (guint32));
  g_assert_cmpuint (ttv_id_table_get_memory (&copy), <=, 128 * (sizeof (guint32) + sizeof (gpointer)));
  g_assert_cmpuint (ttv_id_table_get_memory (&t), <=, 512 * (sizeof (guint32) + sizeof (gpointer)));
  ttv_id_table_clear (&copy);
  ttv_id_table_clear (&t);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/id-table/random", test_random);
  g_test_add_func ("/core/id-table/copy-size", test_copy_size);
  return g_test_run ();
}
