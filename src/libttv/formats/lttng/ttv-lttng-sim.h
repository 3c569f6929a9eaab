/* ttv-lttng-sim.h: the simulated kernel (sim/ttv-sim.h) written as an LTTng 0.x
 * trace; ttv-gen --format lttng and the cross-format tests call it. */
#pragma once

#include "ttv-lttng-writer.h"
#include "ttv-sim.h"

G_BEGIN_DECLS

typedef struct {
  guint64 n_events;
  TtvTime first, last;            /* times of the first and last events */
} TtvLttngSimStats;

/* Runs a simulation with @sim (its long_bits and pointer_bits are set from
 * opts->arch_size) and writes it to @dir with @opts (start_time is the
 * simulation's start).  Sim facilities become channels, events markers.
 * @stats may be NULL. */
gboolean ttv_lttng_write_simulation (const char *dir, const TtvSimOptions *sim,
                                     const TtvLttngWriterOptions *opts, TtvLttngSimStats *stats,
                                     GError **error);
/* The same, with @network's packets (a TtvSimNetEvent array in local time
 * order, sim/ttv-sim-net.h) as the "net" channel events of LTTng 0.x
 * kernels patched for synchronization (sim/ttv-sim-net-lttng0.h), on the
 * first CPU's stream. */
gboolean ttv_lttng_write_simulation_network (const char *dir, const TtvSimOptions *sim,
                                             const TtvLttngWriterOptions *opts, const GArray *network,
                                             TtvLttngSimStats *stats, GError **error);

G_END_DECLS
