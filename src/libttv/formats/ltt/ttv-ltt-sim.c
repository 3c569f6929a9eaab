/* ttv-ltt-sim.c: writes the simulated kernel as an LTT trace (see the header). */
#include "ttv-ltt-sim.h"

typedef struct {
  TtvLttWriter *writer;           /* weak */
  gint handles[TTV_SIM_N_EVENTS];
  TtvSimEmitFunc tap;
  gpointer tap_data;
  TtvLttSimStats *stats;
} LttSink;

static gboolean
ltt_emit (gpointer user_data, gint stream, TtvTime time, guint event, const TtvScalar *values,
          guint n_values, GError **error)
{
  LttSink *sink = user_data;
  if (sink->stats->n_events++ == 0)
    sink->stats->first = time;
  sink->stats->last = time;
  if (!ttv_ltt_writer_write_event (sink->writer, stream, time, (guint) sink->handles[event],
                                   values, n_values, error))
    return FALSE;
  return sink->tap == NULL || sink->tap (sink->tap_data, stream, time, event, values, n_values, error);
}

gboolean
ttv_ltt_write_simulation (const char *dir, TtvSim *sim, const TtvLttWriterOptions *options,
                          TtvSimEmitFunc tap, gpointer tap_data, TtvLttSimStats *stats, GError **error)
{
  TtvLttSimStats local_stats = { 0 };
  TtvLttWriter *w = ttv_ltt_writer_new (dir, options, error);
  if (w == NULL)
    return FALSE;

  g_autoptr (TtvSimSchema) schema = ttv_sim_schema_new (options->byte_order);
  LttSink sink = { w, { 0 }, tap, tap_data, stats ? stats : &local_stats };
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
  if (!ttv_sim_run (sim, ltt_emit, &sink, error))
    {
      ttv_ltt_writer_abort (w);
      return FALSE;
    }
  return ttv_ltt_writer_close (w, error);
}
