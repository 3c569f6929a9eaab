/* ttv-symbolizer.c: addresses to names and lines through the processes'
 * binaries (see ttv-symbolizer.h).  A binary is looked for once, the first
 * time one of its addresses is resolved; results are cached per address. */
#include "ttv-symbolizer.h"

#include "ttv-debug-search.h"

#include <string.h>

typedef struct {
  char *path;                   /* owned: as recorded */
  TtvDebugFiles files;          /* owned */
  TtvElfSymbols *functions;     /* weak: the file read for function names, or NULL */
  TtvElfSymbols *lines;         /* weak: the file read for lines, or NULL */
  guint64 first_load;
  guint index;                  /* in the symbolizer's order */
} Binary;

typedef struct {
  const TtvBinMapping *mapping; /* weak: mappings live as long as the map */
  guint64 addr;
  gboolean return_address;
} CacheKey;

typedef struct {
  CacheKey key;
  TtvSymbol symbol;
} CacheEntry;

struct _TtvSymbolizer {
  GMutex lock;                  /* every entry point takes it */
  char **dirs;                  /* owned, may be NULL */
  char **debug_dirs;            /* owned, may be NULL */
  gboolean only_dirs;
  TtvBinMap *map;               /* owned */
  GHashTable *binaries;         /* build id hex or path -> Binary *, owned */
  GPtrArray *order;             /* of Binary *, weak: first met first */
  GHashTable *cache;            /* CacheEntry * (key first) -> itself, owned */
};

static void
binary_free (Binary *b)
{
  ttv_debug_files_clear (&b->files);
  g_free (b->path);
  g_free (b);
}

static guint
cache_hash (gconstpointer p)
{
  const CacheKey *k = p;
  return g_direct_hash (k->mapping) ^ g_int64_hash (&k->addr) ^ (guint) k->return_address;
}

static gboolean
cache_equal (gconstpointer a, gconstpointer b)
{
  const CacheKey *x = a, *y = b;
  return x->mapping == y->mapping && x->addr == y->addr && x->return_address == y->return_address;
}

TtvSymbolizer *
ttv_symbolizer_new (const char *const *dirs, const char *const *debug_dirs, gboolean only_dirs)
{
  TtvSymbolizer *s = g_new0 (TtvSymbolizer, 1);
  s->only_dirs = only_dirs;
  g_mutex_init (&s->lock);
  s->dirs = g_strdupv ((char **) dirs);
  s->debug_dirs = g_strdupv ((char **) debug_dirs);
  s->map = ttv_bin_map_new ();
  s->binaries = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) binary_free);
  s->order = g_ptr_array_new ();
  s->cache = g_hash_table_new_full (cache_hash, cache_equal, g_free, NULL);
  return s;
}

void
ttv_symbolizer_free (TtvSymbolizer *s)
{
  if (s == NULL)
    return;
  g_hash_table_unref (s->cache);
  g_ptr_array_unref (s->order);
  g_hash_table_unref (s->binaries);
  ttv_bin_map_free (s->map);
  g_strfreev (s->dirs);
  g_strfreev (s->debug_dirs);
  g_mutex_clear (&s->lock);
  g_free (s);
}

void
ttv_symbolizer_apply (TtvSymbolizer *s, const TtvUstEvent *e)
{
  g_mutex_lock (&s->lock);
  ttv_bin_map_apply (s->map, e);
  g_mutex_unlock (&s->lock);
}

gboolean
ttv_symbolizer_has_binaries (TtvSymbolizer *s)
{
  g_mutex_lock (&s->lock);
  gboolean any = ttv_bin_map_get_n_mappings (s->map) > 0;
  g_mutex_unlock (&s->lock);
  return any;
}

/* One binary per build id (or path, without one): a library mapped by
 * many processes is opened once. */
static Binary *
binary_of (TtvSymbolizer *s, const TtvBinMapping *m)
{
  char key[2 * TTV_UST_MAX_BUILD_ID + 1];
  ttv_ust_build_id_to_hex (m->build_id, m->build_id_len, key);
  g_autofree char *owned = m->build_id_len ? g_strdup (key) : g_strconcat ("path:", m->path, NULL);
  Binary *b = g_hash_table_lookup (s->binaries, owned);
  if (b)
    return b;
  b = g_new0 (Binary, 1);
  b->path = g_strdup (m->path);
  if (s->only_dirs)
    ttv_debug_files_find_in (m, (const char *const *) s->dirs, &b->files);
  else
    ttv_debug_files_find (m, (const char *const *) s->dirs, (const char *const *) s->debug_dirs, &b->files);
  TtvElfSymbols *bin = b->files.binary, *dbg = b->files.debug;
  b->functions = dbg && ttv_elf_symbols_has_functions (dbg) ? dbg
               : bin && ttv_elf_symbols_has_functions (bin) ? bin : dbg ? dbg : bin;
  b->lines = dbg && ttv_elf_symbols_has_lines (dbg) ? dbg : bin && ttv_elf_symbols_has_lines (bin) ? bin : NULL;
  b->first_load = bin ? ttv_elf_symbols_get_first_load_address (bin)
                : dbg ? ttv_elf_symbols_get_first_load_address (dbg) : 0;
  g_hash_table_insert (s->binaries, g_steal_pointer (&owned), b);
  b->index = s->order->len;
  g_ptr_array_add (s->order, b);
  return b;
}

static void
resolve_in (TtvSymbolizer *s, const TtvBinMapping *m, guint64 addr, gboolean return_address, TtvSymbol *out)
{
  Binary *b = binary_of (s, m);
  out->binary = m->path;
  out->binary_index = b->index;
  out->binary_offset = addr - m->baddr;
  guint64 file_addr = out->binary_offset + b->first_load;
  /* A return address is after its call: the call's own instruction is
   * the one before it. */
  guint64 look = return_address && file_addr > 0 ? file_addr - 1 : file_addr;
  if (b->functions)
    {
      out->function = ttv_elf_symbols_lookup_function (b->functions, look, &out->offset);
      out->offset += file_addr - look;
    }
  /* A function's own address: where it is declared, rather than the line
   * its first instruction belongs to (the opening brace, or a prologue). */
  if (b->lines && out->function && out->offset == 0 && !return_address)
    out->file = ttv_elf_symbols_lookup_declaration (b->lines, look, &out->line);
  if (b->lines && out->file == NULL)
    out->file = ttv_elf_symbols_lookup_line (b->lines, look, &out->line);
}

gboolean
ttv_symbolizer_resolve (TtvSymbolizer *s, guint trace, gint64 vpid, guint64 addr, TtvTime time,
                        gboolean return_address, TtvSymbol *out)
{
  memset (out, 0, sizeof *out);
  g_mutex_lock (&s->lock);
  const TtvBinMapping *m = ttv_bin_map_lookup (s->map, trace, vpid, addr, time);
  if (m)
    {
      CacheKey key = { m, addr, return_address };
      CacheEntry *hit = g_hash_table_lookup (s->cache, &key);
      if (hit == NULL)
        {
          hit = g_new0 (CacheEntry, 1);
          hit->key = key;
          resolve_in (s, m, addr, return_address, &hit->symbol);
          g_hash_table_add (s->cache, hit);
        }
      *out = hit->symbol;
    }
  g_mutex_unlock (&s->lock);
  return m != NULL;
}

const TtvBinMap *
ttv_symbolizer_get_bin_map (TtvSymbolizer *s)
{
  return s->map;
}

const char *
ttv_symbolizer_describe (TtvSymbolizer *s, const TtvBinMapping *m)
{
  g_mutex_lock (&s->lock);
  const char *why = binary_of (s, m)->files.why;
  g_mutex_unlock (&s->lock);
  return why;
}

void
ttv_symbolizer_list_binaries (TtvSymbolizer *s, GPtrArray *paths, GPtrArray *found)
{
  g_mutex_lock (&s->lock);
  for (guint i = 0; i < s->order->len; i++)
    {
      Binary *b = g_ptr_array_index (s->order, i);
      g_ptr_array_add (paths, b->path);
      g_ptr_array_add (found, b->files.why);
    }
  g_mutex_unlock (&s->lock);
}

void
ttv_symbol_append (GString *out, const TtvSymbol *sym, guint64 addr, gboolean with_line)
{
  if (sym && sym->function)
    {
      g_string_append (out, sym->function);
      if (sym->offset)
        g_string_append_printf (out, "+0x%" G_GINT64_MODIFIER "x", sym->offset);
    }
  else if (sym && sym->binary)
    {
      /* No symbol covers it, but where it is in its binary is exact. */
      const char *base = strrchr (sym->binary, '/');
      g_string_append_printf (out, "%s+0x%" G_GINT64_MODIFIER "x", base ? base + 1 : sym->binary,
                              sym->binary_offset);
    }
  else
    g_string_append_printf (out, "0x%" G_GINT64_MODIFIER "x", addr);
  if (with_line && sym && sym->file)
    {
      const char *base = strrchr (sym->file, '/');
      g_string_append_printf (out, " (%s:%u)", base ? base + 1 : sym->file, sym->line);
    }
}
