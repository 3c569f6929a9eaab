/* ttv-id-table.h: a map from small integer ids (pids, IRQ numbers, syscall
 * quarks) to owned records, indexed directly for ids below 65536 and hashed
 * above.  The state and the statistics look ids up for nearly every event. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  GPtrArray *dense;        /* id -> record, for id < TTV_ID_TABLE_DENSE */
  GHashTable *sparse;      /* id -> record, for larger ids */
  guint n;                 /* records held */
} TtvIdTable;

#define TTV_ID_TABLE_DENSE 65536u

void     ttv_id_table_init (TtvIdTable *table);
void     ttv_id_table_clear (TtvIdTable *table);          /* frees the records (g_free) */
/* Deep copy; records are @record_size bytes copied with memcpy. */
void     ttv_id_table_copy (TtvIdTable *dst, const TtvIdTable *src, gsize record_size);

static inline gpointer
ttv_id_table_lookup (const TtvIdTable *table, guint32 id)
{
  if (id < TTV_ID_TABLE_DENSE)
    return id < table->dense->len ? g_ptr_array_index (table->dense, id) : NULL;
  return table->sparse ? g_hash_table_lookup (table->sparse, GUINT_TO_POINTER (id)) : NULL;
}

/* Stores @record (owned) for @id, freeing any previous one. */
void     ttv_id_table_insert (TtvIdTable *table, guint32 id, gpointer record);
/* Frees the record of @id, if any. */
void     ttv_id_table_remove (TtvIdTable *table, guint32 id);
guint    ttv_id_table_size (const TtvIdTable *table);
/* All records, in id order (the array does not own them). */
GPtrArray *ttv_id_table_list (const TtvIdTable *table);
/* All ids, ascending. */
GArray  *ttv_id_table_list_ids (const TtvIdTable *table);

G_END_DECLS
