/* ttv-bench-cpu.h: the one CPU on which ttv-bench compares two programs.
 *
 * The CPUs of a virtual machine need not run at the same speed: on one
 * of these machines, every program ran 1.4 to 1.6 times slower on its
 * first CPU than on its second, the guest idle (the host's load).  Two
 * programs timed in turns, each where the scheduler put it, then measure
 * where they ran as much as what they do; on the same CPU they do not. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Binds this process, and so every child it starts afterwards, to the CPU
 * it runs on now (once; later calls keep it).  That CPU, or -1 where the
 * process cannot be bound (it then runs as before). */
int      ttv_bench_cpu_pin (void);

/* The CPU ttv_bench_cpu_pin bound the process to, -1 before or where it
 * could not. */
int      ttv_bench_cpu_pinned (void);

/* The calling thread, or a child between fork and exec (a
 * GSpawnChildSetupFunc), may run on every CPU the process could before it
 * was bound: a run on several threads. */
void     ttv_bench_cpu_unpin_self (gpointer unused);

G_END_DECLS
