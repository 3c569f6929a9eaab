/* fuzz-ltt-tracefile.c: fuzz target for the LTT block index and cursor: the
 * input is read as a CPU's file of a small valid trace (fuzz-ltt-skeleton.h). */
#include "fuzz-ltt-skeleton.h"

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  /* Not cpu/0 itself: the skeleton's trace keeps that one mapped. */
  skeleton_write ("fuzz-cpu", data, size);
  skeleton_read_tracefile ("fuzz-cpu");
  return 0;
}
