/* ttv-bench-cpu.c: the one CPU on which ttv-bench compares two programs
 * (ttv-bench-cpu.h). */
#include "ttv-config.h"

#include "ttv-bench-cpu.h"

#include <sched.h>

static cpu_set_t cpus_before;
static int pinned_cpu = -1;

int
ttv_bench_cpu_pin (void)
{
  if (pinned_cpu >= 0)
    return pinned_cpu;
  cpu_set_t one;
  int cpu = sched_getcpu ();
  if (cpu < 0 || cpu >= CPU_SETSIZE || sched_getaffinity (0, sizeof cpus_before, &cpus_before) != 0)
    return -1;
  CPU_ZERO (&one);
  CPU_SET (cpu, &one);
  if (sched_setaffinity (0, sizeof one, &one) != 0)
    return -1;
  pinned_cpu = cpu;
  return cpu;
}

int
ttv_bench_cpu_pinned (void)
{
  return pinned_cpu;
}

void
ttv_bench_cpu_unpin_self (gpointer unused)
{
  (void) unused;
  /* A thread's own mask (Linux); after fork, before exec, a plain system
   * call. */
  if (pinned_cpu >= 0)
    sched_setaffinity (0, sizeof cpus_before, &cpus_before);
}
