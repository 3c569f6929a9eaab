/* ttv-mapped.c: giving back pages of mapped trace files (see ttv-mapped.h). */
#include "ttv-mapped.h"

#include <sys/mman.h>
#include <unistd.h>

void
ttv_mapped_release (const guint8 *data, gsize length)
{
  static gsize page;
  if (page == 0)
    page = (gsize) sysconf (_SC_PAGESIZE);
  if (data == NULL || page == 0)
    return;
  guintptr start = ((guintptr) data + page - 1) & ~(guintptr) (page - 1);
  guintptr end = ((guintptr) data + length) & ~(guintptr) (page - 1);
  if (end > start)
    madvise ((void *) start, end - start, MADV_DONTNEED);
}
