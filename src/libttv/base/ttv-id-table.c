/* ttv-id-table.c: integer-id maps for per-event lookups (see the header). */
#include "ttv-id-table.h"

#include <string.h>

void
ttv_id_table_init (TtvIdTable *t)
{
  t->dense = g_ptr_array_new ();
  t->sparse = NULL;
  t->n = 0;
}

void
ttv_id_table_clear (TtvIdTable *t)
{
  if (t->dense)
    {
      for (guint i = 0; i < t->dense->len; i++)
        g_free (g_ptr_array_index (t->dense, i));
      g_ptr_array_unref (t->dense);
      t->dense = NULL;
    }
  if (t->sparse)
    g_hash_table_unref (t->sparse);
  t->sparse = NULL;
  t->n = 0;
}

void
ttv_id_table_copy (TtvIdTable *dst, const TtvIdTable *src, gsize record_size)
{
  ttv_id_table_init (dst);
  g_ptr_array_set_size (dst->dense, src->dense->len);
  for (guint i = 0; i < src->dense->len; i++)
    {
      gpointer r = g_ptr_array_index (src->dense, i);
      g_ptr_array_index (dst->dense, i) = r ? g_memdup2 (r, record_size) : NULL;
    }
  if (src->sparse)
    {
      dst->sparse = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
      GHashTableIter it;
      gpointer k, v;
      g_hash_table_iter_init (&it, src->sparse);
      while (g_hash_table_iter_next (&it, &k, &v))
        g_hash_table_insert (dst->sparse, k, g_memdup2 (v, record_size));
    }
  dst->n = src->n;
}

void
ttv_id_table_insert (TtvIdTable *t, guint32 id, gpointer record)
{
  ttv_id_table_remove (t, id);
  if (id < TTV_ID_TABLE_DENSE)
    {
      if (id >= t->dense->len)
        g_ptr_array_set_size (t->dense, id + 1);
      g_ptr_array_index (t->dense, id) = record;
    }
  else
    {
      if (t->sparse == NULL)
        t->sparse = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
      g_hash_table_insert (t->sparse, GUINT_TO_POINTER (id), record);
    }
  t->n++;
}

void
ttv_id_table_remove (TtvIdTable *t, guint32 id)
{
  if (id < TTV_ID_TABLE_DENSE)
    {
      if (id < t->dense->len && g_ptr_array_index (t->dense, id))
        {
          g_free (g_ptr_array_index (t->dense, id));
          g_ptr_array_index (t->dense, id) = NULL;
          t->n--;
        }
    }
  else if (t->sparse && g_hash_table_remove (t->sparse, GUINT_TO_POINTER (id)))
    t->n--;
}

guint
ttv_id_table_size (const TtvIdTable *t)
{
  return t->n;
}

static gint
compare_uint (gconstpointer a, gconstpointer b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;
  return x < y ? -1 : x > y;
}

GArray *
ttv_id_table_list_ids (const TtvIdTable *t)
{
  GArray *ids = g_array_sized_new (FALSE, FALSE, sizeof (guint32), t->n);
  for (guint32 i = 0; i < t->dense->len; i++)
    if (g_ptr_array_index (t->dense, i))
      g_array_append_val (ids, i);
  if (t->sparse)
    {
      guint first_sparse = ids->len;
      GHashTableIter it;
      gpointer k;
      g_hash_table_iter_init (&it, t->sparse);
      while (g_hash_table_iter_next (&it, &k, NULL))
        {
          guint32 id = GPOINTER_TO_UINT (k);
          g_array_append_val (ids, id);
        }
      /* Sparse ids are all above the dense ones: sort only that tail. */
      qsort (&g_array_index (ids, guint32, first_sparse), ids->len - first_sparse,
             sizeof (guint32), compare_uint);
    }
  return ids;
}

GPtrArray *
ttv_id_table_list (const TtvIdTable *t)
{
  g_autoptr (GArray) ids = ttv_id_table_list_ids (t);
  GPtrArray *out = g_ptr_array_sized_new (ids->len);
  for (guint i = 0; i < ids->len; i++)
    g_ptr_array_add (out, ttv_id_table_lookup (t, g_array_index (ids, guint32, i)));
  return out;
}
