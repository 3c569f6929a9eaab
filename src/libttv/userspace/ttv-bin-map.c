/* ttv-bin-map.c: the processes' binaries over time (see ttv-bin-map.h).
 * dlopen and dlclose are counted as the dynamic loader counts them: a
 * library opened twice stays until closed twice. */
#include "ttv-bin-map.h"

#include <string.h>

typedef struct {
  TtvBinMapping pub;
  guint references;             /* opens not yet closed; 0 once unloaded */
} Mapping;

typedef struct {
  guint trace;
  gint64 vpid;
  GPtrArray *mappings;          /* of Mapping *, owned, in the order described */
} Process;

struct _TtvBinMap {
  GHashTable *processes;        /* ProcessKey * -> Process *, owned */
  guint n_mappings;
};

static void
mapping_free (Mapping *m)
{
  g_free (m->pub.path);
  g_free (m->pub.debug_link);
  g_free (m);
}

static void
process_free (Process *p)
{
  g_ptr_array_unref (p->mappings);
  g_free (p);
}

static guint
process_hash (gconstpointer key)
{
  const Process *p = key;
  return g_int64_hash (&p->vpid) * 31 + p->trace;
}

static gboolean
process_equal (gconstpointer a, gconstpointer b)
{
  const Process *x = a, *y = b;
  return x->trace == y->trace && x->vpid == y->vpid;
}

TtvBinMap *
ttv_bin_map_new (void)
{
  TtvBinMap *map = g_new0 (TtvBinMap, 1);
  map->processes = g_hash_table_new_full (process_hash, process_equal, NULL, (GDestroyNotify) process_free);
  return map;
}

void
ttv_bin_map_free (TtvBinMap *map)
{
  if (map == NULL)
    return;
  g_hash_table_unref (map->processes);
  g_free (map);
}

static Process *
find_process (const TtvBinMap *map, guint trace, gint64 vpid)
{
  Process key = { trace, vpid < 0 ? -1 : vpid, NULL };
  return g_hash_table_lookup (map->processes, &key);
}

static Process *
ensure_process (TtvBinMap *map, guint trace, gint64 vpid)
{
  Process *p = find_process (map, trace, vpid);
  if (p == NULL)
    {
      p = g_new0 (Process, 1);
      p->trace = trace;
      p->vpid = vpid < 0 ? -1 : vpid;
      p->mappings = g_ptr_array_new_with_free_func ((GDestroyNotify) mapping_free);
      g_hash_table_add (map->processes, p);
    }
  return p;
}

/* The latest mapping at @baddr still loaded, or NULL. */
static Mapping *
loaded_at (Process *p, guint64 baddr)
{
  for (guint i = p->mappings->len; i-- > 0;)
    {
      Mapping *m = g_ptr_array_index (p->mappings, i);
      if (m->pub.baddr == baddr && m->references > 0)
        return m;
    }
  return NULL;
}

static void
describe (TtvBinMap *map, Process *p, const TtvUstEvent *e)
{
  Mapping *m = loaded_at (p, e->baddr);
  /* A second statedump, or a library opened again: the same mapping. */
  if (m && m->pub.memsz == e->memsz && g_strcmp0 (m->pub.path, e->path) == 0)
    {
      if (e->action == TTV_UST_LOAD)
        m->references++;
      return;
    }
  if (m)   /* something else took its place: the old one is gone */
    {
      m->references = 0;
      m->pub.unloaded = e->time;
    }
  m = g_new0 (Mapping, 1);
  m->pub.baddr = e->baddr;
  m->pub.memsz = e->memsz;
  m->pub.path = g_strdup (e->path);
  m->pub.is_pic = e->is_pic;
  m->pub.loaded = e->action == TTV_UST_BIN_INFO ? TTV_TIME_MIN : e->time;
  m->pub.unloaded = TTV_TIME_MAX;
  m->references = 1;
  g_ptr_array_add (p->mappings, m);
  map->n_mappings++;
}

void
ttv_bin_map_apply (TtvBinMap *map, const TtvUstEvent *e)
{
  Process *p;
  Mapping *m;
  switch (e->action)
    {
    case TTV_UST_BIN_INFO:
    case TTV_UST_LOAD:
      if (e->path)
        describe (map, ensure_process (map, e->trace, e->vpid), e);
      break;
    case TTV_UST_UNLOAD:
      if ((p = find_process (map, e->trace, e->vpid)) && (m = loaded_at (p, e->baddr)) && --m->references == 0)
        m->pub.unloaded = e->time;
      break;
    case TTV_UST_BUILD_ID:
      if ((p = find_process (map, e->trace, e->vpid)) && (m = loaded_at (p, e->baddr))
          && e->build_id_len > 0 && e->build_id_len <= TTV_UST_MAX_BUILD_ID)
        {
          memcpy (m->pub.build_id, e->build_id, e->build_id_len);
          m->pub.build_id_len = e->build_id_len;
        }
      break;
    case TTV_UST_DEBUG_LINK:
      if ((p = find_process (map, e->trace, e->vpid)) && (m = loaded_at (p, e->baddr)) && e->path)
        {
          g_free (m->pub.debug_link);
          m->pub.debug_link = g_strdup (e->path);
          m->pub.debug_link_crc = e->crc;
        }
      break;
    default:
      break;
    }
}

const TtvBinMapping *
ttv_bin_map_lookup (const TtvBinMap *map, guint trace, gint64 vpid, guint64 addr, TtvTime time)
{
  Process *p = find_process (map, trace, vpid);
  const TtvBinMapping *best = NULL;
  for (guint i = 0; p && i < p->mappings->len; i++)
    {
      const TtvBinMapping *m = &((Mapping *) g_ptr_array_index (p->mappings, i))->pub;
      if (addr >= m->baddr && addr - m->baddr < m->memsz && m->loaded <= time && time < m->unloaded
          && (best == NULL || m->loaded >= best->loaded))
        best = m;
    }
  return best;
}

static gint
compare_address (gconstpointer a, gconstpointer b)
{
  const TtvBinMapping *x = *(TtvBinMapping *const *) a, *y = *(TtvBinMapping *const *) b;
  return x->baddr < y->baddr ? -1 : x->baddr > y->baddr;
}

GPtrArray *
ttv_bin_map_list (const TtvBinMap *map, guint trace, gint64 vpid)
{
  GPtrArray *list = g_ptr_array_new ();
  Process *p = find_process (map, trace, vpid);
  for (guint i = 0; p && i < p->mappings->len; i++)
    g_ptr_array_add (list, &((Mapping *) g_ptr_array_index (p->mappings, i))->pub);
  g_ptr_array_sort (list, compare_address);
  return list;
}

GArray *
ttv_bin_map_dup_processes (const TtvBinMap *map)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (gint64));
  GHashTableIter it;
  gpointer key;
  g_hash_table_iter_init (&it, map->processes);
  while (g_hash_table_iter_next (&it, &key, NULL))
    {
      const Process *p = key;
      gint64 pair[2] = { p->trace, p->vpid };
      g_array_append_vals (out, pair, 2);
    }
  return out;
}

guint
ttv_bin_map_get_n_processes (const TtvBinMap *map)
{
  return g_hash_table_size (map->processes);
}

guint
ttv_bin_map_get_n_mappings (const TtvBinMap *map)
{
  return map->n_mappings;
}
