/* test-pass-memory.c: what the viewer sets up for its background passes'
 * memory (ttv-pass-memory.h): large blocks get mappings of their own even
 * after a larger one was freed, where glibc would have raised its mmap
 * threshold and served them from the heap. */
#include "ttv-pass-memory.h"

#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdlib.h>
#include <string.h>

static void
test_large_blocks_mapped (void)
{
#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__)
  ttv_pass_memory_init ();
  /* A mapped block freed: glibc's own rule would now take blocks up to its
   * size from the heap. */
  char *big = malloc (8 * TTV_PASS_MMAP_THRESHOLD);
  g_assert_nonnull (big);
  memset (big, 1, 8 * TTV_PASS_MMAP_THRESHOLD);
  free (big);
  size_t mapped = mallinfo2 ().hblks;
  char *table = malloc (2 * TTV_PASS_MMAP_THRESHOLD);
  g_assert_nonnull (table);
  g_assert_cmpuint (mallinfo2 ().hblks, ==, mapped + 1);
  free (table);
  g_assert_cmpuint (mallinfo2 ().hblks, ==, mapped);
#else
  g_test_skip ("glibc's malloc only (not under AddressSanitizer)");
#endif
}

int
main (int argc, char **argv)
{
  /* The user's own setting would win over the program's. */
  g_unsetenv ("MALLOC_MMAP_THRESHOLD_");
  g_unsetenv ("GLIBC_TUNABLES");
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/analysis/pass-memory/large-blocks-mapped", test_large_blocks_mapped);
  return g_test_run ();
}
