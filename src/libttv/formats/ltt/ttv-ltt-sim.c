/* ttv-ltt-sim.c: writes the simulated kernel as an LTT trace (see the
 * header), with a simulated network's packets for ttv-gen --machines. */
#include "ttv-ltt-sim.h"
#include "ttv-sim-net-lttng0.h"

typedef struct {
  TtvLttWriter *writer;           /* weak */
  gint handles[TTV_SIM_N_EVENTS];
  TtvSimEmitFunc tap;
  gpointer tap_data;
  TtvLttSimStats *stats;
  const GArray *network;          /* weak, may be NULL: TtvSimNetEvent in time order */
  guint network_next;
  gint net_handles[TTV_SIM_NET_LTTNG0_N_EVENTS];
  gint net_cpu;                   /* the stream the packets go to */
  gboolean wide;                  /* 64-bit pointers */
  guint64 n_skbs;
} LttSink;

/* One event of a packet, on the first CPU's stream. */
static gboolean
write_packet_event (gpointer data, TtvTime time, TtvSimNetLttng0Event event, const TtvScalar *values,
                    guint n_values, GError **error)
{
  LttSink *sink = data;
  sink->stats->n_events++;
  return ttv_ltt_writer_write_event (sink->writer, sink->net_cpu, time, (guint) sink->net_handles[event], values,
                                     n_values, error);
}

static gboolean
ltt_emit (gpointer user_data, gint stream, TtvTime time, guint event, const TtvScalar *values,
          guint n_values, GError **error)
{
  LttSink *sink = user_data;
  if (sink->network && !ttv_sim_net_lttng0_write_due (sink->network, &sink->network_next, time, &sink->n_skbs,
                                                       sink->wide, write_packet_event, sink, error))
    return FALSE;
  if (sink->stats->n_events++ == 0)
    sink->stats->first = time;
  sink->stats->last = time;
  if (!ttv_ltt_writer_write_event (sink->writer, stream, time, (guint) sink->handles[event],
                                   values, n_values, error))
    return FALSE;
  return sink->tap == NULL || sink->tap (sink->tap_data, stream, time, event, values, n_values, error);
}

/* The facility "net" and its three events. */
static gboolean
add_network_events (TtvLttWriter *w, LttSink *sink, TtvByteOrder order, GError **error)
{
  guint net = ttv_ltt_writer_add_facility (w, TTV_SIM_NET_LTTNG0_CHANNEL,
                                           "Packets of kernels patched for trace synchronization");
  for (guint e = 0; e < TTV_SIM_NET_LTTNG0_N_EVENTS; e++)
    {
      g_autoptr (TtvType) fields = ttv_sim_net_lttng0_event_type (e, order);
      sink->net_handles[e] = ttv_ltt_writer_add_event (w, net, ttv_sim_net_lttng0_event_name (e),
                                                       ttv_sim_net_lttng0_event_name (e), fields, error);
      if (sink->net_handles[e] < 0)
        return FALSE;
    }
  return TRUE;
}

static gboolean
write_simulation (const char *dir, TtvSim *sim, const TtvLttWriterOptions *options, const GArray *network,
                  TtvSimEmitFunc tap, gpointer tap_data, TtvLttSimStats *stats, GError **error)
{
  TtvLttSimStats local_stats = { 0 };
  TtvLttWriter *w = ttv_ltt_writer_new (dir, options, error);
  if (w == NULL)
    return FALSE;

  g_autoptr (TtvSimSchema) schema = ttv_sim_schema_new (options->byte_order);
  LttSink sink = {
    .writer = w, .tap = tap, .tap_data = tap_data, .stats = stats ? stats : &local_stats,
    .network = network, .net_cpu = (gint) ttv_sim_get_cpu_id (sim, 0),
    .wide = options->arch_size == TTV_LTT_ARCH_LP64 || options->arch_size == TTV_LTT_ARCH_ILP64,
  };
  guint facilities[TTV_SIM_N_FACILITIES];
  for (guint f = 0; f < TTV_SIM_N_FACILITIES; f++)
    facilities[f] = ttv_ltt_writer_add_facility (w, schema->facilities[f].name,
                                                 schema->facilities[f].description);
  for (guint e = 0; e < TTV_SIM_N_EVENTS; e++)
    {
      const TtvSimEventType *et = &schema->events[e];
      sink.handles[e] = ttv_ltt_writer_add_event (w, facilities[et->facility], et->name,
                                                  et->description, et->fields, error);
      if (sink.handles[e] < 0)
        {
          ttv_ltt_writer_abort (w);
          return FALSE;
        }
    }
  if ((network && !add_network_events (w, &sink, options->byte_order, error))
      || !ttv_sim_run (sim, ltt_emit, &sink, error))
    {
      ttv_ltt_writer_abort (w);
      return FALSE;
    }
  return ttv_ltt_writer_close (w, error);
}

gboolean
ttv_ltt_write_simulation (const char *dir, TtvSim *sim, const TtvLttWriterOptions *options,
                          TtvSimEmitFunc tap, gpointer tap_data, TtvLttSimStats *stats, GError **error)
{
  return write_simulation (dir, sim, options, NULL, tap, tap_data, stats, error);
}

gboolean
ttv_ltt_write_simulation_network (const char *dir, TtvSim *sim, const TtvLttWriterOptions *options,
                                  const GArray *network, TtvLttSimStats *stats, GError **error)
{
  g_return_val_if_fail (network != NULL, FALSE);
  return write_simulation (dir, sim, options, network, NULL, NULL, stats, error);
}
