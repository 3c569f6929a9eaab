/* ttv-ltt-sim.h: the simulated kernel (sim/ttv-sim.h) written as an LTT trace;
 * ttv-gen, the state tests and the benchmarks call it. */
#pragma once

#include "ttv-ltt-writer.h"
#include "ttv-sim.h"
#include "ttv-sim-net.h"

G_BEGIN_DECLS

typedef struct {
  guint64 n_events;
  TtvTime first, last;            /* times of the first and last events */
} TtvLttSimStats;

/* Runs @sim to its end, writing every event to a new LTT trace in @dir with
 * @options.  Sim facilities become LTT facilities.  @tap (may be NULL) is
 * called after each event is written, with the same arguments, so that a
 * test can read the simulator's truth at that point.  @stats may be NULL. */
gboolean ttv_ltt_write_simulation (const char *dir, TtvSim *sim, const TtvLttWriterOptions *options,
                                   TtvSimEmitFunc tap, gpointer tap_data, TtvLttSimStats *stats,
                                   GError **error);
/* The same, with @network's packets (a TtvSimNetEvent array in local time
 * order, sim/ttv-sim-net.h) as the events of LTTng 0.x kernels patched for
 * synchronization (sim/ttv-sim-net-lttng0.h) in a facility "net", on the
 * first CPU's stream: what ttv-gen --machines writes in LTT traces. */
gboolean ttv_ltt_write_simulation_network (const char *dir, TtvSim *sim, const TtvLttWriterOptions *options,
                                           const GArray *network, TtvLttSimStats *stats, GError **error);

G_END_DECLS
