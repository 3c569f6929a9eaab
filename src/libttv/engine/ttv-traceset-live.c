/* ttv-traceset-live.c: a traceset that follows a live session: its traces
 * are opened from the live source's spool as they arrive, and each refresh
 * works on a still spool and says how far the session is known
 * (ttv_traceset_get_live_state).  docs/live.md. */
#include "ttv-traceset-private.h"

#include "ttv-error.h"
#include "ttv-live-url.h"

#include <glib/gi18n-lib.h>

struct _TtvTracesetLive {
  TtvLiveSource *source;        /* owned */
  char *url;                    /* owned: as given */
  GHashTable *traces;           /* trace dir (relative to the spool) -> TtvTrace *, weak */
  TtvLiveSourceState state;
  GError *error;                /* owned: a copy of the source's failure */
  TtvTime horizon;
  guint64 received;
};

void
ttv_traceset_live_free (TtvTracesetLive *live)
{
  if (live == NULL)
    return;
  ttv_live_source_close (live->source);
  g_hash_table_unref (live->traces);
  g_clear_error (&live->error);
  g_free (live->url);
  g_free (live);
}

/* Opens the traces that received metadata since the last refresh.  One that
 * does not open yet (no whole declaration of its trace yet) is tried again at
 * the next refresh; once the session ended, that is an error. */
static gboolean
open_new_traces (TtvTraceset *ts, TtvTracesetLive *live, GPtrArray *dirs, gboolean ended, gboolean *changed,
                 GError **error)
{
  const char *spool = ttv_live_source_get_spool_path (live->source);
  g_ptr_array_sort (dirs, (GCompareFunc) g_strcmp0);
  for (guint i = 0; i < dirs->len; i++)
    {
      const char *dir = dirs->pdata[i];
      if (g_hash_table_contains (live->traces, dir))
        continue;
      g_autofree char *path = g_build_filename (spool, dir, NULL);
      g_autoptr (GError) local = NULL;
      TtvTrace *trace = ttv_trace_open_growing (path, &local);
      if (trace == NULL)
        {
          if (!ended)
            continue;
          g_set_error (error, local->domain, local->code, _("live session %s, trace %s: %s"), live->url, dir,
                       local->message);
          return FALSE;
        }
      /* Its files are the spool's, removed at close: nothing (bookmarks)
       * is to be saved in them. */
      trace->flags |= TTV_TRACE_FLAG_READ_ONLY;
      g_free (trace->name);
      trace->name = g_strdup (dir);
      g_free (trace->display_path);
      trace->display_path = g_build_filename (live->url, dir, NULL);
      g_ptr_array_add (ts->traces, trace);
      ttv_traceset_number_machines (ts);
      g_hash_table_insert (live->traces, g_strdup (dir), trace);
      *changed = TRUE;
    }
  return TRUE;
}

/* The earliest time a stream still running may bring an event at, through
 * its trace's clock; TTV_TIME_MIN while a stream told nothing or its trace
 * is not open yet. */
static TtvTime
compute_horizon (TtvTracesetLive *live, GArray *marks)
{
  if (live->state != TTV_LIVE_SOURCE_RUNNING)
    return TTV_TIME_MAX;
  TtvTime horizon = TTV_TIME_MAX;
  for (guint i = 0; i < marks->len; i++)
    {
      const TtvLiveStreamMark *m = &g_array_index (marks, TtvLiveStreamMark, i);
      if (m->hung_up)
        continue;
      const TtvTrace *trace = g_hash_table_lookup (live->traces, m->trace_dir);
      TtvTime t;
      if (!m->has_mark || trace == NULL || !ttv_trace_cycles_to_time (trace, m->mark, &t))
        return TTV_TIME_MIN;
      horizon = MIN (horizon, t);
    }
  return horizon;
}

gboolean
ttv_traceset_live_refresh (TtvTraceset *ts, gboolean *changed, GError **error)
{
  TtvTracesetLive *live = ts->live;
  /* What the source knew before the spool is read: the marks and the end
   * speak of data that is all in the spool by then. */
  ttv_live_source_lock (live->source);
  const GError *failure = NULL;
  TtvLiveSourceState state = ttv_live_source_get_state (live->source, &failure);
  g_autoptr (GArray) marks = ttv_live_source_dup_marks (live->source);
  g_autoptr (GPtrArray) dirs = ttv_live_source_dup_trace_dirs (live->source);
  live->received = ttv_live_source_get_received (live->source);
  if (failure && live->error == NULL)
    live->error = g_error_copy (failure);
  gboolean ok = ttv_traceset_refresh_traces (ts, changed, error)
                && open_new_traces (ts, live, dirs, state == TTV_LIVE_SOURCE_ENDED, changed, error);
  ttv_live_source_unlock (live->source);
  if (!ok)
    return FALSE;
  *changed |= state != live->state;
  live->state = state;
  live->horizon = compute_horizon (live, marks);
  if (*changed)
    ttv_traceset_renumber (ts);
  return TRUE;
}

gboolean
ttv_traceset_add_live (TtvTraceset *ts, const char *url, GCancellable *cancellable, GError **error)
{
  g_return_val_if_fail (ts != NULL && url != NULL, FALSE);
  if (ts->traces->len > 0 || ts->live)
    {
      g_set_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT,
                   _("%s: a live session is followed on its own, not together with other traces"), url);
      return FALSE;
    }
  g_autoptr (TtvLiveUrl) parsed = ttv_live_url_parse (url, error);
  if (parsed == NULL)
    return FALSE;
  if (parsed->session == NULL)
    {
      g_set_error (error, TTV_LIVE_ERROR, TTV_LIVE_ERROR_URL,
                   _("%s names no session: a live session is net://RELAY[:PORT]/host/HOSTNAME/SESSION"), url);
      return FALSE;
    }
  TtvLiveSource *source = ttv_live_source_open (parsed, cancellable, error);
  if (source == NULL)
    return FALSE;
  TtvTracesetLive *live = g_new0 (TtvTracesetLive, 1);
  live->source = source;
  live->url = g_strdup (url);
  live->traces = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  live->horizon = TTV_TIME_MIN;
  ts->live = live;
  gboolean changed = FALSE;
  if (!ttv_traceset_live_refresh (ts, &changed, error))
    {
      g_ptr_array_set_size (ts->traces, 0);
      ttv_traceset_renumber (ts);
      ttv_traceset_live_free (g_steal_pointer (&ts->live));
      return FALSE;
    }
  return TRUE;
}

gboolean
ttv_traceset_is_live (const TtvTraceset *ts)
{
  g_return_val_if_fail (ts != NULL, FALSE);
  return ts->live != NULL;
}

TtvLiveSourceState
ttv_traceset_get_live_state (const TtvTraceset *ts, TtvTime *horizon, const GError **error)
{
  g_return_val_if_fail (ts != NULL, TTV_LIVE_SOURCE_ENDED);
  const TtvTracesetLive *live = ts->live;
  if (horizon)
    *horizon = live ? live->horizon : TTV_TIME_MAX;
  if (error)
    *error = live ? live->error : NULL;
  return live ? live->state : TTV_LIVE_SOURCE_ENDED;
}

const TtvLiveSessionInfo *
ttv_traceset_get_live_session (const TtvTraceset *ts)
{
  g_return_val_if_fail (ts != NULL, NULL);
  return ts->live ? ttv_live_source_get_session (ts->live->source) : NULL;
}

const char *
ttv_traceset_get_live_url (const TtvTraceset *ts)
{
  g_return_val_if_fail (ts != NULL, NULL);
  return ts->live ? ts->live->url : NULL;
}

guint64
ttv_traceset_get_live_received (const TtvTraceset *ts)
{
  g_return_val_if_fail (ts != NULL, 0);
  return ts->live ? ts->live->received : 0;
}
