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
