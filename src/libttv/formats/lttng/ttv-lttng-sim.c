/* ttv-lttng-sim.c: writes the simulated kernel's events with the LTTng 0.x
 * writer (one call for ttv-gen; the tests compare it with the LTT output). */
#include "ttv-lttng-sim.h"

typedef struct {
  TtvLttngWriter *writer;         /* weak */
  gint handles[TTV_SIM_N_EVENTS];
  TtvLttngSimStats *stats;        /* weak */
} Sink;

static gboolean
emit (gpointer user_data, gint stream, TtvTime time, guint event, const TtvScalar *values,
      guint n_values, GError **error)
{
  Sink *sink = user_data;
  if (sink->stats->n_events++ == 0)
    sink->stats->first = time;
  sink->stats->last = time;
  /* TTV_SIM_STREAM_* and TTV_LTTNG_STREAM_* share their values. */
  G_STATIC_ASSERT (TTV_SIM_STREAM_PROCESSES == TTV_LTTNG_STREAM_PROCESSES);
  G_STATIC_ASSERT (TTV_SIM_STREAM_INTERRUPTS == TTV_LTTNG_STREAM_INTERRUPTS);
  return ttv_lttng_writer_write_event (sink->writer, stream, time, (guint) sink->handles[event],
                                       values, n_values, error);
}

gboolean
ttv_lttng_write_simulation (const char *dir, const TtvSimOptions *sim_options,
                            const TtvLttngWriterOptions *opts, TtvLttngSimStats *stats,
                            GError **error)
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
  Sink sink = { w, { 0 }, stats ? stats : &local };
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
  if (!ttv_sim_run (sim, emit, &sink, error))
    {
      ttv_lttng_writer_abort (w);
      return FALSE;
    }
  return ttv_lttng_writer_close (w, error);
}
