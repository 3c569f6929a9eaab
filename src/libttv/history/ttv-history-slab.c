/* ttv-history-slab.c: memory kept until a build ends (the history
 * builder's rows and their marks' encoders, an analysis table's series),
 * taken from large chunks of its own and given back whole.
 *
 * Rows are made all through the read of a trace, while the viewer's
 * other passes allocate what they keep.  From malloc, the rows' small
 * blocks lay between those and, freed at the end of the build, left
 * holes no trim could give back (tens of MB for a trace of 80,000
 * threads, bench/README.md).  The first chunk is at the mmap threshold
 * the viewer fixes (ttv_pass_memory_init), the others larger, in regions
 * of huge pages (ttv-large-buffer.h): each a mapping of its own, unmapped
 * when the build ends. */
#include "ttv-history-private.h"
#include "ttv-large-buffer.h"

#include <string.h>

typedef struct {
  guint8 *bytes;
  gsize size;
} TtvHistorySlabChunk;

/* The blocks of one size given back, each holding the next's address. */
typedef struct {
  gsize size;
  gpointer head;
} TtvHistorySlabFreeList;

static void
chunk_clear (gpointer data)
{
  TtvHistorySlabChunk *c = data;
  ttv_large_buffer_free (c->bytes, c->size);
}

void
ttv_history_slab_init (TtvHistorySlab *s)
{
  memset (s, 0, sizeof *s);
  s->chunks = g_array_new (FALSE, FALSE, sizeof (TtvHistorySlabChunk));
  g_array_set_clear_func (s->chunks, chunk_clear);
  s->chunk_size = TTV_HISTORY_SLAB_FIRST_CHUNK;
}

/* A chunk of @size bytes of the slab's own. */
static guint8 *
add_chunk (TtvHistorySlab *s, gsize size)
{
  TtvHistorySlabChunk c = { ttv_large_buffer_new (size), size };
  g_array_append_val (s->chunks, c);
  s->size += size;
  return c.bytes;
}

/* Aligned for any member (gint64, pointers). */
static gsize
rounded (gsize size)
{
  return (MAX (size, 1) + 15) & ~(gsize) 15;
}

/* The free list of blocks of @size (rounded), or NULL when there is none
 * and @make is FALSE.  Few sizes are given back (an array's steps of
 * growth): a look at each. */
static TtvHistorySlabFreeList *
free_list (TtvHistorySlab *s, gsize size, gboolean make)
{
  if (s->free_lists == NULL)
    {
      if (!make)
        return NULL;
      s->free_lists = g_array_new (FALSE, FALSE, sizeof (TtvHistorySlabFreeList));
    }
  for (guint i = 0; i < s->free_lists->len; i++)
    {
      TtvHistorySlabFreeList *l = &g_array_index (s->free_lists, TtvHistorySlabFreeList, i);
      if (l->size == size)
        return l;
    }
  if (!make)
    return NULL;
  TtvHistorySlabFreeList l = { size, NULL };
  g_array_append_val (s->free_lists, l);
  return &g_array_index (s->free_lists, TtvHistorySlabFreeList, s->free_lists->len - 1);
}

void
ttv_history_slab_give_back (TtvHistorySlab *s, gpointer p, gsize size)
{
  if (p == NULL)
    return;
  TtvHistorySlabFreeList *l = free_list (s, rounded (size), TRUE);
  *(gpointer *) p = l->head;
  l->head = p;
}

gpointer
ttv_history_slab_alloc (TtvHistorySlab *s, gsize size)
{
  size = rounded (size);
  TtvHistorySlabFreeList *l = free_list (s, size, FALSE);
  if (l != NULL && l->head != NULL)
    {
      gpointer p = l->head;
      l->head = *(gpointer *) p;
      return p;
    }
  /* A large block (a long string from a trace) has a chunk of its own,
   * rather than waste the rest of the current one. */
  if (size > TTV_HISTORY_SLAB_CHUNK / 4)
    return add_chunk (s, size);
  if (size > s->left)
    {
      s->next = add_chunk (s, s->chunk_size);
      s->left = s->chunk_size;
      s->chunk_size = MIN (s->chunk_size * 2, TTV_HISTORY_SLAB_CHUNK);
    }
  gpointer p = s->next;
  s->next += size;
  s->left -= size;
  return p;
}

gpointer
ttv_history_slab_alloc0 (TtvHistorySlab *s, gsize size)
{
  return memset (ttv_history_slab_alloc (s, size), 0, size);
}

gsize
ttv_history_slab_size (const TtvHistorySlab *s)
{
  return s->size;
}

void
ttv_history_slab_clear (TtvHistorySlab *s)
{
  g_clear_pointer (&s->chunks, g_array_unref);
  g_clear_pointer (&s->free_lists, g_array_unref);
  s->next = NULL;
  s->left = 0;
  s->size = 0;
}
