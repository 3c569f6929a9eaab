/* ttv-cpu.c: the processor's features (see ttv-cpu.h). */
#include "ttv-cpu.h"

gboolean
ttv_cpu_has_avx2 (void)
{
#if defined(__x86_64__) || defined(__i386__)
  static gsize ready;
  static gboolean has;
  if (g_once_init_enter (&ready))
    {
      __builtin_cpu_init ();
      has = __builtin_cpu_supports ("avx2") != 0;
      g_once_init_leave (&ready, 1);
    }
  return has;
#else
  return FALSE;
#endif
}
