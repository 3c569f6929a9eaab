/* ttv-live-source.c: following a live session: the attach, then the worker
 * thread's rounds over the session's streams (see ttv-live-source.h). */
#include "ttv-live-source.h"
#include "ttv-live-client.h"
#include "ttv-live-spool.h"
#include "ttv-error.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>

/* A round that brought nothing new is followed by this pause: lttng's live
 * timer (a second by default) is what makes data appear. */
#define IDLE_PAUSE_US (100 * G_TIME_SPAN_MILLISECOND)
/* GET_PACKET refused while the relay announces new metadata or streams is
 * asked again after those, at most this many times. */
#define PACKET_ATTEMPTS 4

typedef struct {
  guint64 ctf_trace_id;
  char *dir;                    /* owned: relative to the spool */
  guint64 metadata_stream;
  gboolean has_metadata_stream;
  gboolean metadata_closed;     /* the relay no longer has its metadata stream */
  gboolean need_metadata;
  guint64 metadata_bytes;       /* shared (lock) */
} LiveTrace;

typedef struct {
  guint64 id;
  LiveTrace *trace;             /* weak */
  char *channel;                /* owned */
  gboolean has_pending;         /* an index whose packet the relay asked to ask again for */
  TtvLiveIndex pending;
  /* Shared (lock). */
  gboolean hung_up;
  gboolean has_mark;
  guint64 mark;
} LiveStream;

struct _TtvLiveSource {
  TtvLiveSessionInfo *session;  /* owned */
  char *relay;                  /* owned */
  TtvLiveClient *client;        /* owned: the worker's once it runs */
  TtvLiveSpool *spool;          /* owned */
  GThread *thread;              /* owned */
  GCancellable *cancellable;    /* owned: stops the worker's exchanges */
  GByteArray *buffer;           /* owned: the worker's packet and metadata buffer */
  gboolean need_new_streams;    /* the worker's */
  gboolean session_closed;      /* the worker's */

  GMutex lock;
  GCond wake;
  /* Under the lock (the worker changes them only while holding it). */
  GPtrArray *traces;            /* of LiveTrace *, owned */
  GPtrArray *streams;           /* of LiveStream *, owned: the data streams */
  TtvLiveSourceState state;
  GError *error;                /* owned, set when FAILED */
  gboolean stop;
  guint64 received;
};

static void
live_trace_free (LiveTrace *t)
{
  g_free (t->dir);
  g_free (t);
}

static void
live_stream_free (LiveStream *s)
{
  g_free (s->channel);
  g_free (s);
}

/* --- Session lookup ------------------------------------------------------ */

GPtrArray *
ttv_live_list_sessions (const TtvLiveUrl *url, GCancellable *cancellable, guint32 *minor, GError **error)
{
  g_return_val_if_fail (url != NULL, NULL);
  g_autoptr (TtvLiveClient) client = ttv_live_client_connect (url->relay_host, url->port, cancellable, error);
  if (client == NULL)
    return NULL;
  GPtrArray *sessions = ttv_live_client_list_sessions (client, error);
  if (sessions == NULL)
    return NULL;
  for (guint i = sessions->len; url->target_host && i-- > 0;)
    if (g_strcmp0 (((TtvLiveSessionInfo *) sessions->pdata[i])->hostname, url->target_host) != 0)
      g_ptr_array_remove_index (sessions, i);
  if (minor)
    *minor = ttv_live_client_get_minor (client);
  return sessions;
}

static char *
describe_sessions (GPtrArray *sessions)
{
  if (sessions->len == 0)
    return g_strdup (_("it serves no live session"));
  g_autoptr (GString) list = g_string_new (NULL);
  for (guint i = 0; i < sessions->len; i++)
    {
      const TtvLiveSessionInfo *info = sessions->pdata[i];
      g_string_append_printf (list, "%s%s/%s", i ? ", " : "", info->hostname, info->name);
    }
  /* TRANSLATORS: %s is a list of HOST/SESSION, separated by commas. */
  return g_strdup_printf (_("it serves %s"), list->str);
}

/* The newest session of that host and name (a name is reused once a
 * session is destroyed and created again). */
static TtvLiveSessionInfo *
find_session (TtvLiveClient *client, const TtvLiveUrl *url, GError **error)
{
  g_autoptr (GPtrArray) sessions = ttv_live_client_list_sessions (client, error);
  if (sessions == NULL)
    return NULL;
  gint best = -1;
  for (guint i = 0; i < sessions->len; i++)
    {
      const TtvLiveSessionInfo *s = sessions->pdata[i];
      if (g_strcmp0 (s->name, url->session) == 0 && g_strcmp0 (s->hostname, url->target_host) == 0
          && (best < 0 || s->id > ((TtvLiveSessionInfo *) sessions->pdata[best])->id))
        best = (gint) i;
    }
  if (best < 0)
    {
      g_autofree char *served = describe_sessions (sessions);
      g_set_error (error, TTV_LIVE_ERROR, TTV_LIVE_ERROR_NO_SESSION,
                   _("the relay %s has no live session “%s” of host “%s”: %s"),
                   ttv_live_client_get_relay (client), url->session, url->target_host, served);
      return NULL;
    }
  return g_ptr_array_steal_index (sessions, (guint) best);
}

/* --- Streams -------------------------------------------------------------- */

static LiveTrace *
find_trace (TtvLiveSource *src, guint64 ctf_trace_id)
{
  for (guint i = 0; i < src->traces->len; i++)
    {
      LiveTrace *t = src->traces->pdata[i];
      if (t->ctf_trace_id == ctf_trace_id)
        return t;
    }
  return NULL;
}

static gboolean
stream_error (GError **error, const char *relay, const TtvLiveStreamInfo *info, const char *why)
{
  g_set_error (error, TTV_LIVE_ERROR, TTV_LIVE_ERROR_PROTOCOL, _("the relay %s announces stream %" PRIu64
                                                                 " (%s/%s): %s"),
               relay, info->id, info->path, info->channel, why);
  return FALSE;
}

/* Checks one announced stream, before anything of it is kept. */
static gboolean
check_stream (TtvLiveSource *src, const TtvLiveStreamInfo *info, GError **error)
{
  if (!ttv_live_spool_check_name (info->path, info->channel, error))
    return FALSE;
  if (!info->metadata && (strcmp (info->channel, "metadata") == 0 || strcmp (info->channel, "index") == 0))
    return stream_error (error, src->relay, info, _("a data stream cannot have that name"));
  LiveTrace *t = find_trace (src, info->ctf_trace_id);
  if (t && strcmp (t->dir, info->path) != 0)
    return stream_error (error, src->relay, info, _("its trace is in another directory"));
  for (guint i = 0; t == NULL && i < src->traces->len; i++)
    if (strcmp (((LiveTrace *) src->traces->pdata[i])->dir, info->path) == 0)
      return stream_error (error, src->relay, info, _("another trace is in that directory"));
  for (guint i = 0; i < src->streams->len; i++)
    {
      const LiveStream *s = src->streams->pdata[i];
      if (s->id == info->id)
        return stream_error (error, src->relay, info, _("it was announced already"));
      if (!info->metadata && s->trace == t && strcmp (s->channel, info->channel) == 0)
        return stream_error (error, src->relay, info, _("another stream has that name"));
    }
  return TRUE;
}

static gboolean
add_streams (TtvLiveSource *src, GPtrArray *infos, GError **error)
{
  if (src->streams->len + src->traces->len + infos->len > TTV_LIVE_MAX_SESSION_STREAMS)
    {
      g_set_error (error, TTV_LIVE_ERROR, TTV_LIVE_ERROR_TOO_LARGE,
                   _("the relay %s announces more than %u streams in session “%s”"), src->relay,
                   TTV_LIVE_MAX_SESSION_STREAMS, src->session->name);
      return FALSE;
    }
  /* Each checked against those before it, the same reply's included. */
  g_mutex_lock (&src->lock);
  for (guint i = 0; i < infos->len; i++)
    {
      const TtvLiveStreamInfo *info = infos->pdata[i];
      if (!check_stream (src, info, error))
        {
          g_mutex_unlock (&src->lock);
          return FALSE;
        }
      LiveTrace *t = find_trace (src, info->ctf_trace_id);
      if (t == NULL)
        {
          t = g_new0 (LiveTrace, 1);
          t->ctf_trace_id = info->ctf_trace_id;
          t->dir = g_strdup (info->path);
          g_ptr_array_add (src->traces, t);
        }
      if (info->metadata)
        {
          t->metadata_stream = info->id;
          t->has_metadata_stream = TRUE;
          t->metadata_closed = FALSE;
          t->need_metadata = TRUE;
          continue;
        }
      LiveStream *s = g_new0 (LiveStream, 1);
      s->id = info->id;
      s->trace = t;
      s->channel = g_strdup (info->channel);
      g_ptr_array_add (src->streams, s);
    }
  g_mutex_unlock (&src->lock);
  return TRUE;
}

static guint
n_live_streams (TtvLiveSource *src)
{
  guint n = 0;
  for (guint i = 0; i < src->streams->len; i++)
    n += !((LiveStream *) src->streams->pdata[i])->hung_up;
  return n;
}

/* --- The worker ----------------------------------------------------------- */

static gboolean
fetch_new_streams (TtvLiveSource *src, gboolean *progress, GError **error)
{
  g_autoptr (GPtrArray) infos = g_ptr_array_new_with_free_func ((GDestroyNotify) ttv_live_stream_info_free);
  guint32 status;
  if (!ttv_live_client_get_new_streams (src->client, src->session->id, &status, infos, error))
    return FALSE;
  src->need_new_streams = FALSE;
  switch (status)
    {
    case TTV_LIVE_NEW_STREAMS_OK:
      *progress |= infos->len > 0;
      return add_streams (src, infos, error);
    case TTV_LIVE_NEW_STREAMS_NO_NEW:
      return TRUE;
    case TTV_LIVE_NEW_STREAMS_HUP:
      src->session_closed = TRUE;
      return TRUE;
    case TTV_LIVE_NEW_STREAMS_ERROR:
      /* Once every stream ended, the relay may have forgotten the session. */
      if (n_live_streams (src) == 0)
        {
          src->session_closed = TRUE;
          return TRUE;
        }
      g_set_error (error, TTV_LIVE_ERROR, TTV_LIVE_ERROR_REFUSED,
                   _("the relay %s reports an error for the new streams of session “%s”"), src->relay,
                   src->session->name);
      return FALSE;
    default:
      g_set_error (error, TTV_LIVE_ERROR, TTV_LIVE_ERROR_PROTOCOL,
                   _("the relay %s answered GET_NEW_STREAMS with the unknown status %" PRIu32), src->relay, status);
      return FALSE;
    }
}

/* Everything the relay has of @t's metadata, appended to its file. */
static gboolean
fetch_metadata (TtvLiveSource *src, LiveTrace *t, gboolean *progress, GError **error)
{
  while (t->has_metadata_stream && !t->metadata_closed)
    {
      guint32 status;
      if (!ttv_live_client_get_metadata (src->client, t->metadata_stream, src->buffer, &status, error))
        return FALSE;
      if (status == TTV_LIVE_METADATA_NO_NEW)
        {
          t->need_metadata = FALSE;
          return TRUE;
        }
      if (status == TTV_LIVE_METADATA_ERROR)
        {
          t->metadata_closed = TRUE;    /* its stream is gone: nothing more will come */
          return TRUE;
        }
      if (status != TTV_LIVE_METADATA_OK)
        {
          g_set_error (error, TTV_LIVE_ERROR, TTV_LIVE_ERROR_PROTOCOL,
                       _("the relay %s answered GET_METADATA with the unknown status %" PRIu32), src->relay, status);
          return FALSE;
        }
      if (src->buffer->len == 0)
        return TRUE;            /* none for now (a clear in progress): ask again next round */
      if (t->metadata_bytes + src->buffer->len > TTV_LIVE_MAX_TRACE_METADATA)
        {
          g_set_error (error, TTV_LIVE_ERROR, TTV_LIVE_ERROR_TOO_LARGE,
                       _("the relay %s sends more than %" PRIu64 " bytes of metadata for trace %s"), src->relay,
                       TTV_LIVE_MAX_TRACE_METADATA, t->dir);
          return FALSE;
        }
      g_mutex_lock (&src->lock);
      gboolean ok = ttv_live_spool_append (src->spool, t->dir, "metadata", src->buffer->data, src->buffer->len, error);
      if (ok)
        {
          t->metadata_bytes += src->buffer->len;
          src->received += src->buffer->len;
        }
      g_mutex_unlock (&src->lock);
      if (!ok)
        return FALSE;
      *progress = TRUE;
    }
  return TRUE;
}

static void
raise_mark (TtvLiveSource *src, LiveStream *s, guint64 mark)
{
  g_mutex_lock (&src->lock);
  s->mark = s->has_mark ? MAX (s->mark, mark) : mark;
  s->has_mark = TRUE;
  g_mutex_unlock (&src->lock);
}

static void
hang_up (TtvLiveSource *src, LiveStream *s)
{
  g_mutex_lock (&src->lock);
  s->hung_up = TRUE;
  ttv_live_spool_close_file (src->spool, s->trace->dir, s->channel);
  g_mutex_unlock (&src->lock);
}

static void
note_flags (TtvLiveSource *src, LiveStream *s, guint32 flags)
{
  if (flags & TTV_LIVE_FLAG_NEW_METADATA)
    s->trace->need_metadata = TRUE;
  if (flags & TTV_LIVE_FLAG_NEW_STREAM)
    src->need_new_streams = TRUE;
}

/* Fetches the packet of index @idx into the spool; *again when the relay
 * asks to be asked later. */
static gboolean
fetch_packet (TtvLiveSource *src, LiveStream *s, const TtvLiveIndex *idx, gboolean *again, GError **error)
{
  guint32 len = (guint32) (idx->packet_size / 8);   /* checked by the protocol reader */
  *again = FALSE;
  for (guint attempt = 0; attempt < PACKET_ATTEMPTS; attempt++)
    {
      guint32 status, flags;
      gboolean unused = FALSE;
      if (!ttv_live_client_get_packet (src->client, s->id, idx->offset, len, src->buffer, &status, &flags, error))
        return FALSE;
      switch (status)
        {
        case TTV_LIVE_PACKET_OK:
          {
            g_mutex_lock (&src->lock);
            gboolean ok = ttv_live_spool_append (src->spool, s->trace->dir, s->channel, src->buffer->data,
                                                 src->buffer->len, error);
            if (ok)
              {
                s->mark = s->has_mark ? MAX (s->mark, idx->timestamp_end) : idx->timestamp_end;
                s->has_mark = TRUE;
                src->received += src->buffer->len;
              }
            g_mutex_unlock (&src->lock);
            return ok;
          }
        case TTV_LIVE_PACKET_RETRY:
          *again = TRUE;
          return TRUE;
        case TTV_LIVE_PACKET_EOF:
          hang_up (src, s);
          return TRUE;
        case TTV_LIVE_PACKET_ERROR:
          if (!(flags & (TTV_LIVE_FLAG_NEW_METADATA | TTV_LIVE_FLAG_NEW_STREAM)))
            {
              g_set_error (error, TTV_LIVE_ERROR, TTV_LIVE_ERROR_REFUSED,
                           _("the relay %s cannot send the packet at byte offset %" PRIu64 " of stream %s/%s"),
                           src->relay, idx->offset, s->trace->dir, s->channel);
              return FALSE;
            }
          /* What the relay announces first, then the packet again. */
          note_flags (src, s, flags);
          if ((flags & TTV_LIVE_FLAG_NEW_METADATA) && !fetch_metadata (src, s->trace, &unused, error))
            return FALSE;
          if (src->need_new_streams && !fetch_new_streams (src, &unused, error))
            return FALSE;
          continue;
        default:
          g_set_error (error, TTV_LIVE_ERROR, TTV_LIVE_ERROR_PROTOCOL,
                       _("the relay %s answered GET_PACKET with the unknown status %" PRIu32), src->relay, status);
          return FALSE;
        }
    }
  g_set_error (error, TTV_LIVE_ERROR, TTV_LIVE_ERROR_REFUSED,
               _("the relay %s refused the packet at byte offset %" PRIu64 " of stream %s/%s %u times"), src->relay,
               idx->offset, s->trace->dir, s->channel, PACKET_ATTEMPTS);
  return FALSE;
}

/* One step of one data stream: its next packet, a beacon, or its end. */
static gboolean
step_stream (TtvLiveSource *src, LiveStream *s, gboolean *progress, GError **error)
{
  TtvLiveIndex idx;
  if (s->has_pending)
    idx = s->pending;
  else
    {
      if (!ttv_live_client_get_next_index (src->client, s->id, &idx, error))
        return FALSE;
      note_flags (src, s, idx.flags);
    }
  if (s->trace->need_metadata && !fetch_metadata (src, s->trace, progress, error))
    return FALSE;
  switch (idx.status)
    {
    case TTV_LIVE_INDEX_OK:
      {
        gboolean again;
        if (!fetch_packet (src, s, &idx, &again, error))
          return FALSE;
        s->has_pending = again;
        s->pending = idx;
        *progress |= !again;
        return TRUE;
      }
    case TTV_LIVE_INDEX_INACTIVE:
      raise_mark (src, s, idx.timestamp_end);
      return TRUE;
    case TTV_LIVE_INDEX_RETRY:
      return TRUE;
    case TTV_LIVE_INDEX_HUP:
    case TTV_LIVE_INDEX_EOF:
      hang_up (src, s);
      *progress = TRUE;
      return TRUE;
    case TTV_LIVE_INDEX_ERROR:
      g_set_error (error, TTV_LIVE_ERROR, TTV_LIVE_ERROR_REFUSED,
                   _("the relay %s reports an error for stream %s/%s"), src->relay, s->trace->dir, s->channel);
      return FALSE;
    default:
      g_set_error (error, TTV_LIVE_ERROR, TTV_LIVE_ERROR_PROTOCOL,
                   _("the relay %s answered GET_NEXT_INDEX with the unknown status %" PRIu32), src->relay, idx.status);
      return FALSE;
    }
}

/* One pass over the session: *ended once every stream ended and the relay
 * says the session did too. */
static gboolean
worker_round (TtvLiveSource *src, gboolean *progress, gboolean *ended, GError **error)
{
  /* Without a live stream, nothing would announce new ones: ask. */
  if ((src->need_new_streams || n_live_streams (src) == 0) && !fetch_new_streams (src, progress, error))
    return FALSE;
  for (guint i = 0; i < src->traces->len; i++)
    {
      LiveTrace *t = src->traces->pdata[i];
      if (t->need_metadata && !fetch_metadata (src, t, progress, error))
        return FALSE;
    }
  for (guint i = 0; i < src->streams->len; i++)
    {
      LiveStream *s = src->streams->pdata[i];
      if (!s->hung_up && !step_stream (src, s, progress, error))
        return FALSE;
    }
  if (src->session_closed && n_live_streams (src) == 0)
    {
      /* The last declarations, if any came after the last packet. */
      for (guint i = 0; i < src->traces->len; i++)
        if (!fetch_metadata (src, src->traces->pdata[i], progress, error))
          return FALSE;
      *ended = TRUE;
    }
  return TRUE;
}

/* FALSE when the source is being closed. */
static gboolean
idle_pause (TtvLiveSource *src)
{
  gint64 until = g_get_monotonic_time () + IDLE_PAUSE_US;
  g_mutex_lock (&src->lock);
  while (!src->stop && g_cond_wait_until (&src->wake, &src->lock, until))
    ;
  gboolean go_on = !src->stop;
  g_mutex_unlock (&src->lock);
  return go_on;
}

static gpointer
worker_main (gpointer data)
{
  TtvLiveSource *src = data;
  GError *error = NULL;
  gboolean ended = FALSE;
  while (!ended)
    {
      gboolean progress = FALSE;
      if (!worker_round (src, &progress, &ended, &error))
        break;
      if (!ended && !progress && !idle_pause (src))
        break;
    }
  g_mutex_lock (&src->lock);
  if (ended)
    src->state = TTV_LIVE_SOURCE_ENDED;
  else if (error && !src->stop)
    {
      src->state = TTV_LIVE_SOURCE_FAILED;
      src->error = g_steal_pointer (&error);
    }
  g_mutex_unlock (&src->lock);
  g_clear_error (&error);
  return NULL;
}

/* --- Life cycle ----------------------------------------------------------- */

static void
cancel_source (GCancellable *caller, gpointer data)
{
  (void) caller;
  g_cancellable_cancel (data);
}

static TtvLiveSource *
source_new (void)
{
  TtvLiveSource *src = g_new0 (TtvLiveSource, 1);
  g_mutex_init (&src->lock);
  g_cond_init (&src->wake);
  src->cancellable = g_cancellable_new ();
  src->buffer = g_byte_array_new ();
  src->traces = g_ptr_array_new_with_free_func ((GDestroyNotify) live_trace_free);
  src->streams = g_ptr_array_new_with_free_func ((GDestroyNotify) live_stream_free);
  return src;
}

static gboolean
attach (TtvLiveSource *src, const TtvLiveUrl *url, GError **error)
{
  src->client = ttv_live_client_connect (url->relay_host, url->port, src->cancellable, error);
  if (src->client == NULL)
    return FALSE;
  src->relay = g_strdup (ttv_live_client_get_relay (src->client));
  src->session = find_session (src->client, url, error);
  if (src->session == NULL)
    return FALSE;
  g_autoptr (GPtrArray) streams = ttv_live_client_attach (src->client, src->session->id, error);
  if (streams == NULL)
    return FALSE;
  if ((src->spool = ttv_live_spool_new (error)) == NULL)
    return FALSE;
  return add_streams (src, streams, error);
}

TtvLiveSource *
ttv_live_source_open (const TtvLiveUrl *url, GCancellable *cancellable, GError **error)
{
  g_return_val_if_fail (url != NULL && url->session != NULL && url->target_host != NULL, NULL);
  g_autoptr (TtvLiveSource) src = source_new ();
  gulong handler = cancellable ? g_cancellable_connect (cancellable, G_CALLBACK (cancel_source), src->cancellable,
                                                        NULL)
                               : 0;
  gboolean ok = attach (src, url, error);
  if (cancellable)
    g_cancellable_disconnect (cancellable, handler);
  if (!ok)
    return NULL;
  src->thread = g_thread_try_new ("ttv-live", worker_main, src, error);
  if (src->thread == NULL)
    return NULL;
  return g_steal_pointer (&src);
}

void
ttv_live_source_close (TtvLiveSource *src)
{
  if (src == NULL)
    return;
  g_mutex_lock (&src->lock);
  src->stop = TRUE;
  g_cond_signal (&src->wake);
  g_mutex_unlock (&src->lock);
  g_cancellable_cancel (src->cancellable);
  if (src->thread)
    g_thread_join (src->thread);
  ttv_live_client_free (src->client);
  ttv_live_spool_free (src->spool);
  ttv_live_session_info_free (src->session);
  g_ptr_array_unref (src->streams);
  g_ptr_array_unref (src->traces);
  g_byte_array_unref (src->buffer);
  g_object_unref (src->cancellable);
  g_clear_error (&src->error);
  g_free (src->relay);
  g_cond_clear (&src->wake);
  g_mutex_clear (&src->lock);
  g_free (src);
}

const char *
ttv_live_source_get_spool_path (const TtvLiveSource *src)
{
  return ttv_live_spool_get_path (src->spool);
}

const TtvLiveSessionInfo *
ttv_live_source_get_session (const TtvLiveSource *src)
{
  return src->session;
}

const char *
ttv_live_source_get_relay (const TtvLiveSource *src)
{
  return src->relay;
}

void
ttv_live_source_lock (TtvLiveSource *src)
{
  g_mutex_lock (&src->lock);
}

void
ttv_live_source_unlock (TtvLiveSource *src)
{
  g_mutex_unlock (&src->lock);
}

TtvLiveSourceState
ttv_live_source_get_state (TtvLiveSource *src, const GError **error)
{
  if (error)
    *error = src->error;
  return src->state;
}

GPtrArray *
ttv_live_source_dup_trace_dirs (TtvLiveSource *src)
{
  GPtrArray *dirs = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < src->traces->len; i++)
    {
      const LiveTrace *t = src->traces->pdata[i];
      if (t->metadata_bytes > 0)
        g_ptr_array_add (dirs, g_strdup (t->dir));
    }
  return dirs;
}

GArray *
ttv_live_source_dup_marks (TtvLiveSource *src)
{
  GArray *marks = g_array_sized_new (FALSE, FALSE, sizeof (TtvLiveStreamMark), src->streams->len);
  for (guint i = 0; i < src->streams->len; i++)
    {
      const LiveStream *s = src->streams->pdata[i];
      TtvLiveStreamMark m = { s->trace->dir, s->hung_up, s->has_mark, s->mark };
      g_array_append_val (marks, m);
    }
  return marks;
}

guint64
ttv_live_source_get_received (TtvLiveSource *src)
{
  return src->received;
}
