/* ttv-pass-memory.h: what the tab's background passes do when they end,
 * so that the viewer's memory is what it holds, not what passes held. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Gives the memory the pass freed back to the system.  Worker threads
 * allocate from malloc arenas of their own, which keep freed memory
 * (hundreds of MB after reading a large trace) unless asked to trim. */
void ttv_pass_give_back_memory (void);

/* Call once at start, before any thread: every thread then allocates from
 * the one malloc arena (unless MALLOC_ARENA_MAX says otherwise).  With an
 * arena per thread, what a pass keeps (a history's tables, statistics)
 * lands among what it freed, in its thread's arena, and the pages around
 * it stay resident whatever malloc_trim does: some 30-40 MB of a viewer
 * that built the history of a 1 GB trace (bench/gui-open).  Small blocks
 * come from each thread's own cache all the same.
 * Blocks of TTV_PASS_MMAP_THRESHOLD bytes or more get mappings of their own
 * (unless MALLOC_MMAP_THRESHOLD_ or GLIBC_TUNABLES say otherwise): glibc
 * would otherwise raise its threshold to the largest block freed, up to
 * 32 MB, and the passes' large tables and arrays (a row per thread of the
 * trace) would come from the heap, whose holes they leave stay resident
 * among what is kept; mapped, they go back to the system when freed. */
#define TTV_PASS_MMAP_THRESHOLD (256 * 1024)
void ttv_pass_memory_init (void);

G_END_DECLS
