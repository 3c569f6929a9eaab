/* ttv-traceset.c: the traceset, an ordered list of traces with a flat
 * numbering of all their tracefiles (streams).  Used by the context engine. */
#include "ttv-traceset.h"
#include "ttv-traceset-private.h"

#include "ttv-archive.h"
#include "ttv-live-url.h"
#include "ttv-session.h"

#include <string.h>

static void
trace_free_cb (gpointer p)
{
  ttv_trace_close (p);
}

TtvTraceset *
ttv_traceset_new (void)
{
  TtvTraceset *ts = g_new0 (TtvTraceset, 1);
  ts->ref_count = 1;
  ts->traces = g_ptr_array_new_with_free_func (trace_free_cb);
  ts->streams = g_ptr_array_new ();
  ts->stream_trace = g_array_new (FALSE, FALSE, sizeof (guint));
  ts->first_stream = g_array_new (FALSE, FALSE, sizeof (guint));
  ts->start = TTV_TIME_MAX;
  ts->end = TTV_TIME_MIN;
  ts->n_machines = 1;
  ts->trace_machine = g_array_new (FALSE, FALSE, sizeof (guint));
  ts->machine_names = g_ptr_array_new_with_free_func (g_free);
  return ts;
}

TtvTraceset *
ttv_traceset_ref (TtvTraceset *ts)
{
  g_return_val_if_fail (ts != NULL, NULL);
  g_atomic_int_inc (&ts->ref_count);
  return ts;
}

void
ttv_traceset_unref (TtvTraceset *ts)
{
  if (ts == NULL || !g_atomic_int_dec_and_test (&ts->ref_count))
    return;
  g_ptr_array_unref (ts->streams);
  g_array_unref (ts->stream_trace);
  g_array_unref (ts->first_stream);
  g_array_unref (ts->trace_machine);
  g_ptr_array_unref (ts->machine_names);
  g_ptr_array_unref (ts->traces);
  /* After the traces: they read the spool. */
  ttv_traceset_live_free (ts->live);
  g_free (ts);
}

guint
ttv_traceset_add_trace (TtvTraceset *ts, TtvTrace *trace)
{
  g_return_val_if_fail (ts != NULL && trace != NULL, 0);
  guint index = ts->traces->len;
  g_ptr_array_add (ts->traces, trace);
  ttv_traceset_number_machines (ts);
  g_array_append_val (ts->first_stream, ts->streams->len);
  for (guint i = 0; i < trace->tracefiles->len; i++)
    {
      g_ptr_array_add (ts->streams, g_ptr_array_index (trace->tracefiles, i));
      g_array_append_val (ts->stream_trace, index);
    }
  if (trace->tracefiles->len > 0)
    {
      ts->start = MIN (ts->start, trace->start);
      ts->end = MAX (ts->end, trace->end);
    }
  return index;
}

gboolean
ttv_traceset_add_path (TtvTraceset *ts, const char *path, GError **error)
{
  g_return_val_if_fail (ts != NULL && path != NULL, FALSE);
  if (ttv_live_url_is_live (path))
    return ttv_traceset_add_live (ts, path, NULL, error);
  /* A session directory (or an archive of one): every trace below it. */
  g_autofree char *dir = NULL;
  if (ttv_archive_is_archive (path))
    {
      dir = ttv_archive_extract (path, error);
      if (dir == NULL)
        return FALSE;
    }
  else if (g_file_test (path, G_FILE_TEST_IS_DIR))
    dir = g_strdup (path);
  if (dir && !ttv_session_is_trace_dir (dir))
    {
      g_autoptr (GPtrArray) below = ttv_session_find_traces (dir, TTV_SESSION_MAX_DEPTH);
      if (below->len > 0)
        return ttv_session_add_traces (ts, dir, path, error);
    }
  TtvTrace *trace = ttv_trace_open (path, error);
  if (trace == NULL)
    return FALSE;
  ttv_traceset_add_trace (ts, trace);
  return TRUE;
}

void
ttv_traceset_set_clock_correction (TtvTraceset *ts, guint trace, const TtvClockCorrection *correction)
{
  g_return_if_fail (ts != NULL && trace < ts->traces->len);
  ttv_trace_set_clock_correction (g_ptr_array_index (ts->traces, trace), correction);
  ttv_traceset_renumber (ts);
}

void
ttv_traceset_renumber (TtvTraceset *ts)
{
  g_ptr_array_set_size (ts->streams, 0);
  g_array_set_size (ts->stream_trace, 0);
  g_array_set_size (ts->first_stream, 0);
  ts->start = TTV_TIME_MAX;
  ts->end = TTV_TIME_MIN;
  ttv_traceset_number_machines (ts);
  for (guint i = 0; i < ts->traces->len; i++)
    {
      TtvTrace *trace = g_ptr_array_index (ts->traces, i);
      g_array_append_val (ts->first_stream, ts->streams->len);
      for (guint j = 0; j < trace->tracefiles->len; j++)
        {
          g_ptr_array_add (ts->streams, g_ptr_array_index (trace->tracefiles, j));
          g_array_append_val (ts->stream_trace, i);
        }
      if (trace->tracefiles->len > 0)
        {
          ts->start = MIN (ts->start, trace->start);
          ts->end = MAX (ts->end, trace->end);
        }
    }
}

gboolean
ttv_traceset_refresh_traces (TtvTraceset *ts, gboolean *changed, GError **error)
{
  for (guint i = 0; i < ts->traces->len; i++)
    {
      gboolean c = FALSE;
      if (!ttv_trace_refresh (g_ptr_array_index (ts->traces, i), &c, error))
        return FALSE;
      *changed |= c;
    }
  return TRUE;
}

gboolean
ttv_traceset_refresh (TtvTraceset *ts, gboolean *changed, GError **error)
{
  g_return_val_if_fail (ts != NULL && changed != NULL, FALSE);
  *changed = FALSE;
  if (ts->live)
    return ttv_traceset_live_refresh (ts, changed, error);
  if (!ttv_traceset_refresh_traces (ts, changed, error))
    return FALSE;
  if (*changed)
    ttv_traceset_renumber (ts);
  return TRUE;
}

guint
ttv_traceset_get_n_traces (const TtvTraceset *ts)
{
  g_return_val_if_fail (ts != NULL, 0);
  return ts->traces->len;
}

TtvTrace *
ttv_traceset_get_trace (const TtvTraceset *ts, guint i)
{
  g_return_val_if_fail (ts != NULL && i < ts->traces->len, NULL);
  return g_ptr_array_index (ts->traces, i);
}

TtvTime
ttv_traceset_get_start (const TtvTraceset *ts)
{
  g_return_val_if_fail (ts != NULL, TTV_TIME_MAX);
  return ts->start;
}

TtvTime
ttv_traceset_get_end (const TtvTraceset *ts)
{
  g_return_val_if_fail (ts != NULL, TTV_TIME_MIN);
  return ts->end;
}

guint
ttv_traceset_find_idle_gaps (const TtvTraceset *ts, TtvTime t0, TtvTime t1, TtvTime gaps[TTV_TIME_MAX_IDLE_GAPS][2])
{
  g_autofree TtvTime (*busy)[2] = (TtvTime (*)[2]) g_new0 (TtvTime, 2 * (gsize) MAX (ts->traces->len, 1));
  guint n_busy = 0;

  for (guint i = 0; i < ts->traces->len; i++)
    {
      const TtvTrace *trace = g_ptr_array_index (ts->traces, i);

      if (trace->tracefiles->len == 0 || trace->start > trace->end)
        continue;
      busy[n_busy][0] = trace->start;
      busy[n_busy][1] = trace->end;
      n_busy++;
    }
  return ttv_time_find_idle_gaps (t0, t1, (const TtvTime (*)[2]) busy, n_busy, gaps);
}

guint
ttv_traceset_get_n_tracefiles (const TtvTraceset *ts)
{
  g_return_val_if_fail (ts != NULL, 0);
  return ts->streams->len;
}

TtvTracefile *
ttv_traceset_get_tracefile (const TtvTraceset *ts, guint stream)
{
  g_return_val_if_fail (ts != NULL && stream < ts->streams->len, NULL);
  return g_ptr_array_index (ts->streams, stream);
}

guint
ttv_traceset_get_stream_trace (const TtvTraceset *ts, guint stream)
{
  g_return_val_if_fail (ts != NULL && stream < ts->streams->len, 0);
  return g_array_index (ts->stream_trace, guint, stream);
}

guint
ttv_traceset_get_trace_first_stream (const TtvTraceset *ts, guint trace)
{
  g_return_val_if_fail (ts != NULL && trace < ts->traces->len, 0);
  return g_array_index (ts->first_stream, guint, trace);
}

/* FNV-1a, 32 bits: stable across runs and machines (unlike g_str_hash's
 * documented freedom to change). */
static guint32
fnv_bytes (guint32 h, const void *data, gsize len)
{
  const guint8 *p = data;
  for (gsize i = 0; i < len; i++)
    {
      h ^= p[i];
      h *= 16777619u;
    }
  return h;
}

static guint32
fnv_u64 (guint32 h, guint64 v)
{
  guint8 b[8];
  for (guint i = 0; i < 8; i++)
    b[i] = (guint8) (v >> (8 * i));
  return fnv_bytes (h, b, 8);
}

guint32
ttv_traceset_get_shape_hash (const TtvTraceset *ts)
{
  g_return_val_if_fail (ts != NULL, 0);
  /* Content, not paths: the same trace opened from its directory or from
   * an archive gives the same hash, so bookmarks survive.  Nothing that
   * grows while a tracer appends (block counts, end times): positions
   * taken before a refresh stay valid (seeking checks them anyway). */
  guint32 h = 2166136261u;
  h = fnv_u64 (h, ts->traces->len);
  for (guint t = 0; t < ts->traces->len; t++)
    {
      const TtvTrace *trace = g_ptr_array_index (ts->traces, t);
      h = fnv_u64 (h, trace->tracefiles->len);
      for (guint i = 0; i < trace->tracefiles->len; i++)
        {
          const TtvTracefile *tf = g_ptr_array_index (trace->tracefiles, i);
          h = fnv_bytes (h, tf->name ? tf->name : "", tf->name ? strlen (tf->name) + 1 : 1);
          h = fnv_u64 (h, (guint64) (tf->n_blocks > 0 ? tf->start : TTV_TIME_MAX));
        }
    }
  return h;
}
