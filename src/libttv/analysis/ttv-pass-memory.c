/* ttv-pass-memory.c: giving back what background passes freed (see the
 * header). */
#include "ttv-pass-memory.h"

#ifdef __GLIBC__
#include <malloc.h>
#include <string.h>
#endif

void
ttv_pass_give_back_memory (void)
{
#ifdef __GLIBC__
  /* Every arena, the worker thread's included. */
  malloc_trim (0);
#endif
}

#ifdef __GLIBC__
/* Whether the user chose the mmap threshold (glibc reads both). */
static gboolean
mmap_threshold_set (void)
{
  const char *tunables = g_getenv ("GLIBC_TUNABLES");

  return g_getenv ("MALLOC_MMAP_THRESHOLD_") != NULL || (tunables && strstr (tunables, "mmap_threshold"));
}
#endif

void
ttv_pass_memory_init (void)
{
#ifdef __GLIBC__
  if (g_getenv ("MALLOC_ARENA_MAX") == NULL)
    mallopt (M_ARENA_MAX, 1);
  if (!mmap_threshold_set ())
    mallopt (M_MMAP_THRESHOLD, TTV_PASS_MMAP_THRESHOLD);
#endif
}
