/* ttv-pass-memory.h: what the tab's background passes do when they end,
 * so that the viewer's memory is what it holds, not what passes held. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Gives the memory the pass freed back to the system.  Worker threads
 * allocate from malloc arenas of their own, which keep freed memory
 * (hundreds of MB after reading a large trace) unless asked to trim. */
void ttv_pass_give_back_memory (void);

G_END_DECLS
