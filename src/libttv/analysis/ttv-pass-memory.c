/* ttv-pass-memory.c: giving back what background passes freed (see the
 * header). */
#include "ttv-pass-memory.h"

#ifdef __GLIBC__
#include <malloc.h>
#endif

void
ttv_pass_give_back_memory (void)
{
#ifdef __GLIBC__
  /* Every arena, the worker thread's included. */
  malloc_trim (0);
#endif
}

void
ttv_pass_memory_init (void)
{
#ifdef __GLIBC__
  if (g_getenv ("MALLOC_ARENA_MAX") == NULL)
    mallopt (M_ARENA_MAX, 1);
#endif
}
