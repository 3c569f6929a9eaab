/* ttv-id-table.h: a map from integer ids (pids, IRQ numbers, syscall
 * quarks) to owned records: an open-addressing hash table whose size
 * follows the records it holds, not the highest id ever seen (a state
 * checkpoint copies it).  The state and the statistics look ids up for
 * nearly every event. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  guint32 *ids;            /* [capacity] */
  gpointer *records;       /* [capacity], owned; NULL: an empty slot */
  guint capacity;          /* 0 or a power of two */
  guint n;                 /* records held */
} TtvIdTable;

void     ttv_id_table_init (TtvIdTable *table);
void     ttv_id_table_clear (TtvIdTable *table);          /* frees the records (g_free) */
/* Deep copy; records are @record_size bytes copied with memcpy. */
void     ttv_id_table_copy (TtvIdTable *dst, const TtvIdTable *src, gsize record_size);

/* Fibonacci hashing: ids in runs (pids, IRQ lines) spread over the slots. */
static inline guint
ttv_id_table_slot (guint32 id, guint capacity)
{
  return (guint) (((guint64) id * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15)) >> 32) & (capacity - 1);
}

static inline gpointer
ttv_id_table_lookup (const TtvIdTable *table, guint32 id)
{
  if (table->capacity == 0)
    return NULL;
  for (guint i = ttv_id_table_slot (id, table->capacity);; i = (i + 1) & (table->capacity - 1))
    {
      gpointer r = table->records[i];
      if (r == NULL || table->ids[i] == id)
        return r;
    }
}

/* Stores @record (owned) for @id, freeing any previous one. */
void     ttv_id_table_insert (TtvIdTable *table, guint32 id, gpointer record);
/* Frees the record of @id, if any. */
void     ttv_id_table_remove (TtvIdTable *table, guint32 id);
guint    ttv_id_table_size (const TtvIdTable *table);
/* Bytes the table itself takes (not its records). */
gsize    ttv_id_table_get_memory (const TtvIdTable *table);
/* All records, in id order (the array does not own them). */
GPtrArray *ttv_id_table_list (const TtvIdTable *table);
/* All ids, ascending. */
GArray  *ttv_id_table_list_ids (const TtvIdTable *table);

G_END_DECLS
