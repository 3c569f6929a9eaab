/* fuzz-ltt-tracefile.c: fuzz target for the LTT block index and cursor: the
 * input becomes cpu/0 of a small valid trace (fuzz-ltt-skeleton.h). */
#include "fuzz-ltt-skeleton.h"

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  skeleton_write ("cpu/0", data, size);
  skeleton_read_all ();
  return 0;
}
