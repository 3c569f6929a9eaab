/* ttv-cpu.h: what the processor running ttv can do, for the few loops
 * that have a vector way beside their general one (the report's position
 * tokens).  Asked once, then remembered. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Whether this processor runs AVX2 instructions (FALSE off x86). */
gboolean ttv_cpu_has_avx2 (void);

G_END_DECLS
