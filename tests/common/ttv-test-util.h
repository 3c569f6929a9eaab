/* ttv-test-util.h: what many tests need: temporary trees, the shared real
 * traces, and simulated traces written as LTT.  Linked into the tests only. */
#pragma once

#include "formats/ltt/ttv-ltt-sim.h"

G_BEGIN_DECLS

/* Deletes @path and everything below it (a test's temporary directory). */
void  ttv_test_remove_tree (const char *path);

/* The path of ../shared/traces/ctf/@name (from $TTV_SHARED_DIR), or NULL
 * after marking the test skipped with a message saying why. */
char *ttv_test_dup_shared_ctf_trace (const char *name);

/* Writes @sim to @trace_dir as a little-endian LP64 LTT trace with blocks of
 * @block_size bytes; @tap (may be NULL) sees every event after it is
 * written.  Fails the test on error. */
void  ttv_test_write_ltt_simulation (const char *trace_dir, TtvSim *sim, guint32 block_size,
                                     guint n_cpu_slots, TtvSimEmitFunc tap, gpointer tap_data);

G_END_DECLS
