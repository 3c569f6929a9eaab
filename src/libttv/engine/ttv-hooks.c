/* ttv-hooks.c: priority-ordered hook lists and per-event-type hook lists.
 * Used by the traceset context (ttv-context-process.c) and everything that hooks into it. */
#include "ttv-hooks-private.h"

TtvHooks *
ttv_hooks_new (void)
{
  TtvHooks *h = g_new0 (TtvHooks, 1);
  h->entries = g_array_new (FALSE, FALSE, sizeof (TtvHookEntry));
  return h;
}

void
ttv_hooks_free (TtvHooks *h)
{
  if (h == NULL)
    return;
  g_array_unref (h->entries);
  g_free (h);
}

/* After every change of @h's entries. */
static void
update_single (TtvHooks *h)
{
  gboolean one = h->entries->len == 1;
  h->single = one ? g_array_index (h->entries, TtvHookEntry, 0).func : NULL;
  h->single_data = one ? g_array_index (h->entries, TtvHookEntry, 0).hook_data : NULL;
}

void
ttv_hooks_add (TtvHooks *h, TtvHook func, gpointer hook_data, guint prio)
{
  g_return_if_fail (h != NULL && func != NULL);
  prio = MIN (prio, TTV_PRIO_LAST);
  /* Insert after every entry of lower or equal priority: stable order. */
  guint i = h->entries->len;
  while (i > 0 && g_array_index (h->entries, TtvHookEntry, i - 1).prio > prio)
    i--;
  TtvHookEntry e = { func, hook_data, prio };
  g_array_insert_val (h->entries, i, e);
  update_single (h);
}

void
ttv_hooks_add_list (TtvHooks *h, const TtvHooks *other)
{
  g_return_if_fail (h != NULL);
  if (other == NULL)
    return;
  for (guint i = 0; i < other->entries->len; i++)
    {
      const TtvHookEntry *e = &g_array_index (other->entries, TtvHookEntry, i);
      ttv_hooks_add (h, e->func, e->hook_data, e->prio);
    }
}

guint
ttv_hooks_remove (TtvHooks *h, TtvHook func, gpointer hook_data)
{
  g_return_val_if_fail (h != NULL, 0);
  guint removed = 0;
  for (guint i = h->entries->len; i > 0; i--)
    {
      const TtvHookEntry *e = &g_array_index (h->entries, TtvHookEntry, i - 1);
      if (e->func == func && e->hook_data == hook_data)
        {
          g_array_remove_index (h->entries, i - 1);
          removed++;
        }
    }
  update_single (h);
  return removed;
}

guint
ttv_hooks_get_n_hooks (const TtvHooks *h)
{
  return h ? h->entries->len : 0;
}

TtvHook
ttv_hooks_get (const TtvHooks *h, guint i, gpointer *hook_data, guint *prio)
{
  g_return_val_if_fail (h != NULL && i < h->entries->len, NULL);
  const TtvHookEntry *e = &g_array_index (h->entries, TtvHookEntry, i);
  if (hook_data)
    *hook_data = e->hook_data;
  if (prio)
    *prio = e->prio;
  return e->func;
}

gboolean
ttv_hooks_call (const TtvHooks *h, gpointer call_data)
{
  return h != NULL && ttv_hooks_run (h, call_data);
}

gboolean
ttv_hooks_call_merge (const TtvHooks *a, gpointer call_data_a,
                      const TtvHooks *b, gpointer call_data_b)
{
  guint na = ttv_hooks_get_n_hooks (a), nb = ttv_hooks_get_n_hooks (b);
  guint i = 0, j = 0;
  gboolean stop = FALSE;
  while (i < na || j < nb)
    {
      const TtvHookEntry *ea = i < na ? &g_array_index (a->entries, TtvHookEntry, i) : NULL;
      const TtvHookEntry *eb = j < nb ? &g_array_index (b->entries, TtvHookEntry, j) : NULL;
      if (ea && (eb == NULL || ea->prio <= eb->prio))
        {
          stop |= ea->func (ea->hook_data, call_data_a);
          i++;
        }
      else
        {
          stop |= eb->func (eb->hook_data, call_data_b);
          j++;
        }
    }
  return stop;
}

/* --- By event type ----------------------------------------------------- */

struct _TtvHooksById {
  GHashTable *by_name;          /* char * -> TtvHooks *, owned */
  GPtrArray *names;             /* of char *, weak (keys of by_name), registration order */
  GHashTable *by_id;            /* guint64 (trace << 32 | id) -> TtvHooks *, owned */
};

static void
hooks_free_cb (gpointer p)
{
  ttv_hooks_free (p);
}

TtvHooksById *
ttv_hooks_by_id_new (void)
{
  TtvHooksById *b = g_new0 (TtvHooksById, 1);
  b->by_name = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, hooks_free_cb);
  b->names = g_ptr_array_new ();
  b->by_id = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, hooks_free_cb);
  return b;
}

void
ttv_hooks_by_id_free (TtvHooksById *b)
{
  if (b == NULL)
    return;
  g_hash_table_unref (b->by_name);
  g_hash_table_unref (b->by_id);
  g_ptr_array_unref (b->names);
  g_free (b);
}

TtvHooks *
ttv_hooks_by_id_find (TtvHooksById *b, const char *event_name)
{
  g_return_val_if_fail (b != NULL && event_name != NULL, NULL);
  TtvHooks *h = g_hash_table_lookup (b->by_name, event_name);
  if (h == NULL)
    {
      char *key = g_strdup (event_name);
      h = ttv_hooks_new ();
      g_hash_table_insert (b->by_name, key, h);
      g_ptr_array_add (b->names, key);
    }
  return h;
}

TtvHooks *
ttv_hooks_by_id_get (const TtvHooksById *b, const char *event_name)
{
  g_return_val_if_fail (b != NULL && event_name != NULL, NULL);
  return g_hash_table_lookup (b->by_name, event_name);
}

TtvHooks *
ttv_hooks_by_id_find_id (TtvHooksById *b, guint trace_index, guint type_id)
{
  g_return_val_if_fail (b != NULL, NULL);
  gint64 k = ((gint64) trace_index << 32) | type_id;
  TtvHooks *h = g_hash_table_lookup (b->by_id, &k);
  if (h == NULL)
    {
      h = ttv_hooks_new ();
      g_hash_table_insert (b->by_id, g_memdup2 (&k, sizeof k), h);
    }
  return h;
}

TtvHooks *
ttv_hooks_by_id_get_id (const TtvHooksById *b, guint trace_index, guint type_id)
{
  g_return_val_if_fail (b != NULL, NULL);
  gint64 k = ((gint64) trace_index << 32) | type_id;
  return g_hash_table_lookup (b->by_id, &k);
}

guint
ttv_hooks_by_id_get_n_names (const TtvHooksById *b)
{
  return b ? b->names->len : 0;
}

const char *
ttv_hooks_by_id_get_name (const TtvHooksById *b, guint i)
{
  g_return_val_if_fail (b != NULL && i < b->names->len, NULL);
  return g_ptr_array_index (b->names, i);
}
