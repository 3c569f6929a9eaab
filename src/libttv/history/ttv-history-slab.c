/* ttv-history-slab.c: memory the history builder keeps for every row
 * until the build ends (its rows, their marks' encoders), taken from
 * large chunks of its own and given back whole.
 *
 * Rows are made all through the read of a trace, while the viewer's
 * other passes allocate what they keep.  From malloc, the rows' small
 * blocks lay between those and, freed at the end of the build, left
 * holes no trim could give back (tens of MB for a trace of 80,000
 * threads, bench/README.md).  A chunk is above the mmap threshold the
 * viewer fixes (ttv_pass_memory_init), so it is a mapping of its own,
 * unmapped when the build ends. */
#include "ttv-history-private.h"

#include <string.h>

void
ttv_history_slab_init (TtvHistorySlab *s)
{
  memset (s, 0, sizeof *s);
  s->chunks = g_ptr_array_new_with_free_func (g_free);
}

/* A chunk of @size bytes of the slab's own. */
static guint8 *
add_chunk (TtvHistorySlab *s, gsize size)
{
  guint8 *chunk = g_malloc (size);
  g_ptr_array_add (s->chunks, chunk);
  s->size += size;
  return chunk;
}

gpointer
ttv_history_slab_alloc0 (TtvHistorySlab *s, gsize size)
{
  /* Aligned for any member (gint64, pointers). */
  size = (MAX (size, 1) + 15) & ~(gsize) 15;
  /* A large block (a long string from a trace) has a chunk of its own,
   * rather than waste the rest of the current one. */
  if (size > TTV_HISTORY_SLAB_CHUNK / 4)
    return memset (add_chunk (s, size), 0, size);
  if (size > s->left)
    {
      s->next = add_chunk (s, TTV_HISTORY_SLAB_CHUNK);
      s->left = TTV_HISTORY_SLAB_CHUNK;
    }
  gpointer p = s->next;
  s->next += size;
  s->left -= size;
  return memset (p, 0, size);
}

gsize
ttv_history_slab_size (const TtvHistorySlab *s)
{
  return s->size;
}

void
ttv_history_slab_clear (TtvHistorySlab *s)
{
  g_clear_pointer (&s->chunks, g_ptr_array_unref);
  s->next = NULL;
  s->left = 0;
  s->size = 0;
}
