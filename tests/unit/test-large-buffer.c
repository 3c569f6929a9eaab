/* Unit tests of ttv-large-buffer.c: buffers of every size hold their own
 * bytes, never another's; large ones share regions of huge pages. */
#include "ttv-large-buffer.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define MIB ((gsize) 1 << 20)

/* Fills @buf with a pattern of @tag, different at each offset, and @tag
 * in its last byte. */
static void
fill (guint8 *buf, gsize size, guint tag)
{
  for (gsize i = 0; i + 1 < size; i += 4093)
    buf[i] = (guint8) (tag * 31 + i / 4093);
  if (size > 0)
    buf[size - 1] = (guint8) tag;
}

static gboolean
holds (const guint8 *buf, gsize size, guint tag)
{
  for (gsize i = 0; i + 1 < size; i += 4093)
    if (buf[i] != (guint8) (tag * 31 + i / 4093))
      return FALSE;
  return size == 0 || buf[size - 1] == (guint8) tag;
}

static void
test_sizes (void)
{
  const gsize sizes[] = {
    1, 4096, TTV_LARGE_BUFFER_PIECE - 1, TTV_LARGE_BUFFER_PIECE, TTV_LARGE_BUFFER_PIECE + 1, MIB,
    MIB + 4096, 3 * MIB / 2, TTV_LARGE_BUFFER_REGION - 1, TTV_LARGE_BUFFER_REGION,
    TTV_LARGE_BUFFER_REGION + 1, 5 * MIB,
  };
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      guint8 *b = ttv_large_buffer_alloc (sizes[i]);
      g_assert_nonnull (b);
      g_assert_cmpuint ((guintptr) b % 16, ==, 0);
      memset (b, 0xa5, sizes[i]);
      fill (b, sizes[i], i);
      g_assert_true (holds (b, sizes[i], i));
      ttv_large_buffer_free (b, sizes[i]);
      /* The aborting variant, for the program's own sizes. */
      b = ttv_large_buffer_new (sizes[i]);
      fill (b, sizes[i], i + 1);
      g_assert_true (holds (b, sizes[i], i + 1));
      ttv_large_buffer_free (b, sizes[i]);
    }
  ttv_large_buffer_free (NULL, MIB);
}

/* Buffers of random sizes alive together, freed in random order while
 * others are made: each keeps its bytes to the end. */
static void
test_no_overlap (void)
{
  enum { N = 12, ROUNDS = 40 };
  guint8 *buf[N] = { 0 };
  gsize size[N] = { 0 };
  guint tag[N] = { 0 };
  for (guint round = 0; round < ROUNDS; round++)
    {
      guint i = (guint) g_test_rand_int_range (0, N);
      if (buf[i] != NULL)
        {
          g_assert_true (holds (buf[i], size[i], tag[i]));
          ttv_large_buffer_free (buf[i], size[i]);
        }
      size[i] = (gsize) g_test_rand_int_range (TTV_LARGE_BUFFER_PIECE / 2, (gint) (3 * MIB));
      tag[i] = round;
      buf[i] = ttv_large_buffer_alloc (size[i]);
      g_assert_nonnull (buf[i]);
      fill (buf[i], size[i], tag[i]);
      for (guint j = 0; j < N; j++)
        if (buf[j] != NULL)
          g_assert_true (holds (buf[j], size[j], tag[j]));
    }
  for (guint j = 0; j < N; j++)
    ttv_large_buffer_free (buf[j], size[j]);
}

/* Two windows of 1 MiB take one region of 2 MiB, four of 512 KiB too;
 * a region emptied is taken again (not unmapped and mapped anew). */
static void
test_regions_shared (void)
{
  if (!TTV_LARGE_BUFFER_REGIONS)
    {
      g_test_skip ("buffers come from malloc in this build (AddressSanitizer)");
      return;
    }
  const guintptr region_mask = ~(guintptr) (TTV_LARGE_BUFFER_REGION - 1);
  guint8 *a = ttv_large_buffer_alloc (MIB);
  guint8 *b = ttv_large_buffer_alloc (MIB);
  g_assert_cmphex ((guintptr) a & region_mask, ==, (guintptr) b & region_mask);
  g_assert_cmpuint ((gsize) (MAX (a, b) - MIN (a, b)), ==, MIB);
  /* That region is full: the next buffer takes another. */
  guint8 *c = ttv_large_buffer_alloc (TTV_LARGE_BUFFER_PIECE);
  g_assert_cmphex ((guintptr) c & region_mask, !=, (guintptr) a & region_mask);
  ttv_large_buffer_free (a, MIB);
  /* Three pieces more fit in the regions mapped. */
  guint8 *d = ttv_large_buffer_alloc (TTV_LARGE_BUFFER_PIECE);
  guint8 *e = ttv_large_buffer_alloc (TTV_LARGE_BUFFER_PIECE + 1);
  g_assert_true (((guintptr) d & region_mask) == ((guintptr) b & region_mask)
                 || ((guintptr) d & region_mask) == ((guintptr) c & region_mask));
  ttv_large_buffer_free (b, MIB);
  ttv_large_buffer_free (c, TTV_LARGE_BUFFER_PIECE);
  ttv_large_buffer_free (d, TTV_LARGE_BUFFER_PIECE);
  ttv_large_buffer_free (e, TTV_LARGE_BUFFER_PIECE + 1);
  /* Every region is empty now; one is kept and handed out again. */
  guint8 *f = ttv_large_buffer_alloc (2 * MIB);
  g_assert_true (((guintptr) f & region_mask) == ((guintptr) a & region_mask)
                 || ((guintptr) f & region_mask) == ((guintptr) c & region_mask));
  g_assert_cmphex ((guintptr) f & ~region_mask, ==, 0);
  ttv_large_buffer_free (f, 2 * MIB);
}

static gpointer
churn (gpointer data)
{
  guint seed = GPOINTER_TO_UINT (data);
  GRand *rand = g_rand_new_with_seed (seed);
  for (guint k = 0; k < 200; k++)
    {
      gsize size = (gsize) g_rand_int_range (rand, (gint) TTV_LARGE_BUFFER_PIECE, (gint) (2 * MIB));
      guint8 *b = ttv_large_buffer_alloc (size);
      g_assert_nonnull (b);
      fill (b, size, seed + k);
      g_thread_yield ();
      g_assert_true (holds (b, size, seed + k));
      ttv_large_buffer_free (b, size);
    }
  g_rand_free (rand);
  return NULL;
}

/* The viewer's passes read on threads of their own. */
static void
test_threads (void)
{
  GThread *t[4];
  for (guint i = 0; i < G_N_ELEMENTS (t); i++)
    t[i] = g_thread_new ("churn", churn, GUINT_TO_POINTER (i * 1000 + 1));
  for (guint i = 0; i < G_N_ELEMENTS (t); i++)
    g_thread_join (t[i]);
}

/* How many of the @n_pages pages at @base (page aligned) are in memory. */
static gsize
resident_pages (guint8 *base, gsize n_pages, gsize page)
{
  g_autofree unsigned char *in = g_new0 (unsigned char, n_pages);
  g_assert_no_errno (mincore (base, n_pages * page, in));
  gsize n = 0;
  for (gsize i = 0; i < n_pages; i++)
    n += in[i] & 1;
  return n;
}

/* ttv_large_buffer_populate: the whole pages of a fresh buffer in memory
 * before it is written (where the kernel can), the bytes of one already
 * written kept, and a range of no whole page left alone. */
static void
test_populate (void)
{
  gsize page = (gsize) sysconf (_SC_PAGESIZE);
  gsize n_pages = 64;
  guint8 *base = mmap (NULL, n_pages * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  g_assert_true (base != MAP_FAILED);
  g_assert_cmpuint (resident_pages (base, n_pages, page), ==, 0);
  /* From the middle of the first page to the middle of the last: the
   * pages between. */
  ttv_large_buffer_populate (base + page / 2, (n_pages - 1) * page);
  gsize in = resident_pages (base, n_pages, page);
  if (in == 0 && madvise (base, page, 23 /* MADV_POPULATE_WRITE */) != 0 && errno == EINVAL)
    g_test_message ("this kernel has no MADV_POPULATE_WRITE: pages fault in as written");
  else
    {
      g_assert_cmpuint (in, ==, n_pages - 2);
      g_assert_cmpuint (resident_pages (base, 1, page), ==, 0);
    }
  munmap (base, n_pages * page);

  /* A buffer already written keeps its bytes. */
  gsize size = 3 * MIB + 17;
  guint8 *b = g_malloc (size);
  fill (b, size, 7);
  ttv_large_buffer_populate (b, size);
  g_assert_true (holds (b, size, 7));
  /* Less than a page, and nothing at all. */
  ttv_large_buffer_populate (b + 1, 100);
  ttv_large_buffer_populate (b, 0);
  g_assert_true (holds (b, size, 7));
  g_free (b);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/large-buffer/sizes", test_sizes);
  g_test_add_func ("/core/large-buffer/no-overlap", test_no_overlap);
  g_test_add_func ("/core/large-buffer/regions-shared", test_regions_shared);
  g_test_add_func ("/core/large-buffer/threads", test_threads);
  g_test_add_func ("/core/large-buffer/populate", test_populate);
  return g_test_run ();
}
