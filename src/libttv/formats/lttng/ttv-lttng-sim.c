/* ttv-lttng-sim.c: writes the simulated kernel's events with the LTTng 0.x
 * writer (one call for ttv-gen; the tests compare it with the LTT output),
 * with a simulated network's packets for ttv-gen --machines. */
#include "ttv-lttng-sim.h"
#include "ttv-sim-net-lttng0.h"

typedef struct {
  TtvLttngWriter *writer;         /* weak */
  gint handles[TTV_SIM_N_EVENTS];
  TtvLttngSimStats *stats;        /* weak */
  const GArray *network;          /* weak, may be NULL: TtvSimNetEvent in time order */
  guint network_next;
  gint net_handles[TTV_SIM_NET_LTTNG0_N_EVENTS];
  gint net_cpu;                   /* the stream the packets go to */
  guint arch_size;
  guint64 n_skbs;
} Sink;

/* One event of a packet, on the first CPU's stream. */
static gboolean
write_packet_event (gpointer data, TtvTime time, TtvSimNetLttng0Event event, const TtvScalar *values,
                    guint n_values, GError **error)
{
  Sink *sink = data;
  sink->stats->n_events++;
  return ttv_lttng_writer_write_event (sink->writer, sink->net_cpu, time, (guint) sink->net_handles[event], values,
                                       n_values, error);
}

static gboolean
emit (gpointer user_data, gint stream, TtvTime time, guint event, const TtvScalar *values,
      guint n_values, GError **error)
{
  Sink *sink = user_data;
  if (sink->network && !ttv_sim_net_lttng0_write_due (sink->network, &sink->network_next, time, &sink->n_skbs,
                                                       sink->arch_size == 8, write_packet_event, sink, error))
    return FALSE;
  if (sink->stats->n_events++ == 0)
    sink->stats->first = time;
  sink->stats->last = time;
  /* TTV_SIM_STREAM_* and TTV_LTTNG_STREAM_* share their values. */
  G_STATIC_ASSERT (TTV_SIM_STREAM_PROCESSES == TTV_LTTNG_STREAM_PROCESSES);
  G_STATIC_ASSERT (TTV_SIM_STREAM_INTERRUPTS == TTV_LTTNG_STREAM_INTERRUPTS);
  return ttv_lttng_writer_write_event (sink->writer, stream, time, (guint) sink->handles[event],
                                       values, n_values, error);
}

static gboolean
add_network_events (TtvLttngWriter *w, Sink *sink, TtvByteOrder order, GError **error)
{
  for (guint e = 0; e < TTV_SIM_NET_LTTNG0_N_EVENTS; e++)
    {
      g_autoptr (TtvType) fields = ttv_sim_net_lttng0_event_type (e, order);
      sink->net_handles[e] = ttv_lttng_writer_add_event (w, TTV_SIM_NET_LTTNG0_CHANNEL,
                                                         ttv_sim_net_lttng0_event_name (e), fields, error);
      if (sink->net_handles[e] < 0)
        return FALSE;
    }
  return TRUE;
}

static gboolean
write_simulation (const char *dir, const TtvSimOptions *sim_options, const TtvLttngWriterOptions *opts,
                  const GArray *network, TtvLttngSimStats *stats, GError **error)
{
  g_return_val_if_fail (dir != NULL && sim_options != NULL && opts != NULL, FALSE);
  TtvLttngWriterOptions wo = *opts;
  if (wo.arch_size == 0)
    wo.arch_size = 8;
  TtvSimOptions so = *sim_options;
  so.long_bits = so.pointer_bits = wo.arch_size * 8;
  g_autoptr (TtvSim) sim = ttv_sim_new (&so, error);
  if (sim == NULL)
    return FALSE;
  wo.start_time = ttv_sim_get_time (sim);

  TtvLttngWriter *w = ttv_lttng_writer_new (dir, &wo, error);
  if (w == NULL)
    return FALSE;
  TtvLttngSimStats local = { 0 };
  Sink sink = {
    .writer = w,
    .stats = stats ? stats : &local,
    .network = network,
    .net_cpu = (gint) ttv_sim_get_cpu_id (sim, 0),
    .arch_size = wo.arch_size,
  };
  *sink.stats = (TtvLttngSimStats) { 0 };
  g_autoptr (TtvSimSchema) schema = ttv_sim_schema_new (wo.byte_order);
  for (guint e = 0; e < TTV_SIM_N_EVENTS; e++)
    {
      const TtvSimEventType *et = &schema->events[e];
      sink.handles[e] = ttv_lttng_writer_add_event (w, schema->facilities[et->facility].name,
                                                    et->name, et->fields, error);
      if (sink.handles[e] < 0)
        {
          ttv_lttng_writer_abort (w);
          return FALSE;
        }
    }
  if ((network && !add_network_events (w, &sink, wo.byte_order, error)) || !ttv_sim_run (sim, emit, &sink, error))
    {
      ttv_lttng_writer_abort (w);
      return FALSE;
    }
  return ttv_lttng_writer_close (w, error);
}

gboolean
ttv_lttng_write_simulation (const char *dir, const TtvSimOptions *sim_options,
                            const TtvLttngWriterOptions *opts, TtvLttngSimStats *stats,
                            GError **error)
{
  return write_simulation (dir, sim_options, opts, NULL, stats, error);
}

gboolean
ttv_lttng_write_simulation_network (const char *dir, const TtvSimOptions *sim_options,
                                    const TtvLttngWriterOptions *opts, const GArray *network,
                                    TtvLttngSimStats *stats, GError **error)
{
  g_return_val_if_fail (network != NULL, FALSE);
  return write_simulation (dir, sim_options, opts, network, stats, error);
}
