/* ttv-id-table.c: integer-id maps for per-event lookups (see the header):
 * linear probing, at most half full, deletion by moving back the records
 * after the hole. */
#include "ttv-id-table.h"

#include <string.h>

#define MIN_CAPACITY 16

void
ttv_id_table_init (TtvIdTable *t)
{
  memset (t, 0, sizeof *t);
}

void
ttv_id_table_clear (TtvIdTable *t)
{
  for (guint i = 0; i < t->capacity; i++)
    g_free (t->records[i]);
  g_free (t->ids);
  g_free (t->records);
  memset (t, 0, sizeof *t);
}

static void
resize (TtvIdTable *t, guint capacity)
{
  guint32 *ids = t->ids;
  gpointer *records = t->records;
  guint old = t->capacity;
  t->ids = g_new (guint32, capacity);
  t->records = g_new0 (gpointer, capacity);
  t->capacity = capacity;
  for (guint i = 0; i < old; i++)
    if (records[i])
      {
        guint j = ttv_id_table_slot (ids[i], capacity);
        while (t->records[j])
          j = (j + 1) & (capacity - 1);
        t->ids[j] = ids[i];
        t->records[j] = records[i];
      }
  g_free (ids);
  g_free (records);
}

void
ttv_id_table_copy (TtvIdTable *dst, const TtvIdTable *src, gsize record_size)
{
  ttv_id_table_init (dst);
  /* As small as the records allow: a checkpoint's copy lives long. */
  guint capacity = MIN_CAPACITY;
  while (capacity < 2 * src->n)
    capacity *= 2;
  if (src->n == 0)
    return;
  if (capacity == src->capacity)
    {
      dst->ids = g_memdup2 (src->ids, sizeof (guint32) * capacity);
      dst->records = g_new (gpointer, capacity);
      dst->capacity = capacity;
      for (guint i = 0; i < capacity; i++)
        dst->records[i] = src->records[i] ? g_memdup2 (src->records[i], record_size) : NULL;
      dst->n = src->n;
      return;
    }
  dst->ids = g_new (guint32, capacity);
  dst->records = g_new0 (gpointer, capacity);
  dst->capacity = capacity;
  for (guint i = 0; i < src->capacity; i++)
    if (src->records[i])
      {
        guint j = ttv_id_table_slot (src->ids[i], capacity);
        while (dst->records[j])
          j = (j + 1) & (capacity - 1);
        dst->ids[j] = src->ids[i];
        dst->records[j] = g_memdup2 (src->records[i], record_size);
      }
  dst->n = src->n;
}

void
ttv_id_table_insert (TtvIdTable *t, guint32 id, gpointer record)
{
  g_return_if_fail (record != NULL);
  if (2 * (t->n + 1) > t->capacity)
    resize (t, t->capacity ? 2 * t->capacity : MIN_CAPACITY);
  guint i = ttv_id_table_slot (id, t->capacity);
  while (t->records[i] && t->ids[i] != id)
    i = (i + 1) & (t->capacity - 1);
  if (t->records[i])
    g_free (t->records[i]);
  else
    t->n++;
  t->ids[i] = id;
  t->records[i] = record;
}

void
ttv_id_table_remove (TtvIdTable *t, guint32 id)
{
  if (t->capacity == 0)
    return;
  guint mask = t->capacity - 1;
  guint i = ttv_id_table_slot (id, t->capacity);
  while (t->records[i] && t->ids[i] != id)
    i = (i + 1) & mask;
  if (t->records[i] == NULL)
    return;
  g_free (t->records[i]);
  t->records[i] = NULL;
  t->n--;
  /* Records after the hole that probed past it move back into it. */
  for (guint j = (i + 1) & mask; t->records[j]; j = (j + 1) & mask)
    {
      guint home = ttv_id_table_slot (t->ids[j], t->capacity);
      gboolean past_hole = i <= j ? (home <= i || home > j) : (home <= i && home > j);
      if (past_hole)
        {
          t->ids[i] = t->ids[j];
          t->records[i] = t->records[j];
          t->records[j] = NULL;
          i = j;
        }
    }
  /* Shrink when a burst of records is gone (a checkpoint copies the table). */
  if (t->capacity > MIN_CAPACITY && 8 * t->n < t->capacity)
    resize (t, t->capacity / 2);
}

guint
ttv_id_table_size (const TtvIdTable *t)
{
  return t->n;
}

gsize
ttv_id_table_get_memory (const TtvIdTable *t)
{
  return t->capacity * (sizeof (guint32) + sizeof (gpointer));
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
  for (guint i = 0; i < t->capacity; i++)
    if (t->records[i])
      g_array_append_val (ids, t->ids[i]);
  g_array_sort (ids, compare_uint);
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
