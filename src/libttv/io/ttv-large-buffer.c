/* ttv-large-buffer.c: buffers of half a megabyte and more, in regions of
 * huge pages (see ttv-large-buffer.h). */
#include "ttv-large-buffer.h"

#include <sys/mman.h>
#include <unistd.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

#if TTV_LARGE_BUFFER_REGIONS

#define PIECE TTV_LARGE_BUFFER_PIECE
#define REGION TTV_LARGE_BUFFER_REGION
#define PIECES_PER_REGION ((guint) (REGION / PIECE))

/* A region of REGION bytes aligned on REGION, and which of its pieces
 * are taken (bit i: piece i). */
typedef struct Region {
  guint8 *base;
  guint used;
  struct Region *next;
} Region;

static GMutex lock;
static Region *regions;   /* each with a piece taken */
/* One empty region kept, its pages still there: a reader that closes a
 * packet's window and opens the next one's finds them. */
static Region *spare;

/* @len bytes (a multiple of REGION) mapped at an address aligned on
 * REGION, which the kernel may back with huge pages; NULL when it
 * cannot map them. */
static guint8 *
map_aligned (gsize len)
{
  if (len > G_MAXSIZE - REGION)
    return NULL;
  guint8 *raw = mmap (NULL, len + REGION, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED)
    return NULL;
  guint8 *p = (guint8 *) (((guintptr) raw + REGION - 1) & ~(guintptr) (REGION - 1));
  if (p > raw)
    munmap (raw, (gsize) (p - raw));
  gsize tail = (gsize) ((raw + len + REGION) - (p + len));
  if (tail > 0)
    munmap (p + len, tail);
#ifdef MADV_HUGEPAGE
  /* A hint: where the kernel has no huge page to give, pages of 4 KiB. */
  madvise (p, len, MADV_HUGEPAGE);
#endif
  return p;
}

/* @size rounded up to whole regions (0 when that overflows). */
static gsize
whole_regions (gsize size)
{
  return size > G_MAXSIZE - (REGION - 1) ? 0 : (size + REGION - 1) & ~(REGION - 1);
}

static guint
pieces_for (gsize size)
{
  return (guint) ((size + PIECE - 1) / PIECE);
}

/* The first @n consecutive free pieces of @r, taken; NULL when it has
 * none. */
static guint8 *
take_pieces (Region *r, guint n)
{
  guint mask = (1u << n) - 1;
  for (guint i = 0; i + n <= PIECES_PER_REGION; i++)
    if ((r->used & (mask << i)) == 0)
      {
        r->used |= mask << i;
        return r->base + i * PIECE;
      }
  return NULL;
}

/* A region with no piece taken, in the list: the spare, else a new one;
 * NULL when there is no memory for it. */
static Region *
add_region (void)
{
  Region *r = spare;
  spare = NULL;
  if (r == NULL)
    {
      guint8 *base = map_aligned (REGION);
      if (base == NULL)
        return NULL;
      r = g_new0 (Region, 1);
      r->base = base;
    }
  r->next = regions;
  regions = r;
  return r;
}

static guint8 *
alloc_pieces (guint n)
{
  guint8 *p = NULL;
  g_mutex_lock (&lock);
  for (Region *r = regions; r != NULL && p == NULL; r = r->next)
    p = take_pieces (r, n);
  if (p == NULL)
    {
      Region *r = add_region ();
      if (r != NULL)
        p = take_pieces (r, n);
    }
  g_mutex_unlock (&lock);
  return p;
}

static void
free_pieces (guint8 *buf, guint n)
{
  guint8 *base = (guint8 *) ((guintptr) buf & ~(guintptr) (REGION - 1));
  g_mutex_lock (&lock);
  Region **at = &regions;
  while (*at != NULL && (*at)->base != base)
    at = &(*at)->next;
  Region *r = *at;
  if (r == NULL)
    {
      g_mutex_unlock (&lock);
      g_critical ("ttv_large_buffer_free: %p was not allocated here", (void *) buf);
      return;
    }
  r->used &= ~(((1u << n) - 1) << (guint) ((buf - base) / PIECE));
  if (r->used == 0)
    {
      *at = r->next;
      if (spare == NULL)
        spare = r;
      else
        {
          munmap (r->base, REGION);
          g_free (r);
        }
    }
  g_mutex_unlock (&lock);
}

#endif /* TTV_LARGE_BUFFER_REGIONS */

guint8 *
ttv_large_buffer_alloc (gsize size)
{
#if TTV_LARGE_BUFFER_REGIONS
  if (size > REGION)
    {
      gsize len = whole_regions (size);
      return len > 0 ? map_aligned (len) : NULL;
    }
  if (size >= PIECE)
    return alloc_pieces (pieces_for (size));
#endif
  return g_try_malloc (size);
}

guint8 *
ttv_large_buffer_new (gsize size)
{
  guint8 *buf = ttv_large_buffer_alloc (size);
  if (buf == NULL && size > 0)
    g_error ("%s: failed to allocate %" G_GSIZE_FORMAT " bytes", G_STRLOC, size);
  return buf;
}

void
ttv_large_buffer_free (guint8 *buf, gsize size)
{
  if (buf == NULL)
    return;
#if TTV_LARGE_BUFFER_REGIONS
  if (size > REGION)
    {
      munmap (buf, whole_regions (size));
      return;
    }
  if (size >= PIECE)
    {
      free_pieces (buf, pieces_for (size));
      return;
    }
#endif
  g_free (buf);
}

void
ttv_large_buffer_populate (void *buf, gsize size)
{
  static gsize page;
  if (g_once_init_enter (&page))
    {
      long n = sysconf (_SC_PAGESIZE);
      g_once_init_leave (&page, n > 0 ? (gsize) n : 4096);
    }
  guintptr start = ((guintptr) buf + page - 1) & ~(guintptr) (page - 1);
  guintptr end = ((guintptr) buf + size) & ~(guintptr) (page - 1);
  /* A hint: an error (an older kernel: EINVAL) leaves the pages to fault
   * in as before. */
  if (size <= G_MAXSIZE - (guintptr) buf && end > start)
    (void) madvise ((void *) start, end - start, MADV_POPULATE_WRITE);
}
