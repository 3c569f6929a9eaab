/* ttv-ctf-reader.c: the CTF format class: probe, open (metadata, stream
 * files, event types, trace info) and close.  Registered in ttv-formats.c. */
#include "ttv-ctf.h"
#include "ttv-ctf-private.h"
#include "ttv-ctf-text.h"
#include "ttv-error.h"

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <inttypes.h>
#include <string.h>

static guint
ctf_probe (const char *path)
{
  g_autofree char *meta = g_build_filename (path, "metadata", NULL);
  if (!g_file_test (meta, G_FILE_TEST_IS_REGULAR))
    return 0;
  FILE *f = g_fopen (meta, "rb");
  if (f == NULL)
    return 0;
  guint8 buf[8];
  gsize n = fread (buf, 1, sizeof buf, f);
  fclose (f);
  return ttv_ctf_metadata_looks_valid (buf, n) ? 95 : 0;
}

static void
priv_free (CtfTracePriv *priv)
{
  if (priv == NULL)
    return;
  if (priv->files)
    g_ptr_array_unref (priv->files);
  ttv_ctf_meta_free (priv->meta);
  g_free (priv->hostname);
  g_free (priv->metadata_text);
  g_free (priv);
}

static gint
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(char * const *) a, *(char * const *) b);
}

GPtrArray *
ttv_ctf_list_stream_files (const char *trace_path, GHashTable *known, GError **error)
{
  /* Stream files: every regular, non-empty file but the metadata. */
  g_autoptr (GError) local = NULL;
  g_autoptr (GDir) dir = g_dir_open (trace_path, 0, &local);
  if (dir == NULL)
    {
      g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_IO, "%s", local->message);
      return NULL;
    }
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  for (const char *name; (name = g_dir_read_name (dir));)
    {
      if (name[0] == '.' || strcmp (name, "metadata") == 0)
        continue;
      g_autofree char *full = g_build_filename (trace_path, name, NULL);
      GStatBuf st;
      if ((known && g_hash_table_contains (known, full)) || g_stat (full, &st) != 0 || !S_ISREG (st.st_mode)
          || st.st_size == 0)
        continue;
      g_ptr_array_add (names, g_strdup (name));
    }
  g_ptr_array_sort (names, compare_names);
  return names;
}

void
ttv_ctf_add_event_types (TtvTrace *trace, CtfMeta *m, guint from, const char *meta_path)
{
  for (guint i = from; i < m->events->len; i++)
    {
      CtfEventClass *ec = g_ptr_array_index (m->events, i);
      if (ec->stream == NULL)
        {
          ttv_trace_add_warning (trace, _("%s: event “%s” names stream class %" PRIu64
                                          " which is not declared"),
                                 meta_path, ec->name ? ec->name : "?", ec->stream_id);
          continue;
        }
      /* LTTng names userspace events "provider:event": the provider is the
       * facility and the event its name, for filters and -d; the full name
       * stays as LTTng and babeltrace2 print it. */
      const char *full = ec->name ? ec->name : "";
      const char *colon = strchr (full, ':');
      g_autofree char *provider = colon && colon != full && colon[1] ? g_strndup (full, (gsize) (colon - full)) : NULL;
      TtvEventType *et = ttv_trace_add_event_type (trace, provider, provider ? colon + 1 : full,
                                                   ec->fields ? ttv_type_ref (ec->fields) : NULL);
      if (provider)
        {
          g_free (et->full_name);
          et->full_name = g_strdup (full);
        }
      et->format_id = ec->id;
      et->priv = ec;
      ec->type = et;
    }
}

static gboolean
ctf_open (TtvTrace *trace, GError **error)
{
  g_autofree char *meta_path = g_build_filename (trace->path, "metadata", NULL);
  gsize len = 0;
  /* Sized before reading: metadata growing meanwhile is seen by a refresh. */
  GStatBuf mst;
  guint64 meta_size = g_stat (meta_path, &mst) == 0 ? (guint64) mst.st_size : 0;
  /* Still being written, its last declaration may be partly there. */
  g_autofree char *text = trace->flags & TTV_TRACE_FLAG_GROWING
                            ? ttv_ctf_metadata_read_complete (meta_path, &len, &meta_size, error)
                            : ttv_ctf_metadata_read (meta_path, &len, error);
  if (text == NULL)
    return FALSE;
  g_autoptr (CtfMeta) meta = ttv_ctf_parse (text, len, meta_path, error);
  if (meta == NULL)
    return FALSE;
  if (meta->major != 1 || meta->minor != 8)
    {
      g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_UNSUPPORTED,
                   _("%s: CTF version %u.%u is not supported (only 1.8)"), meta_path,
                   meta->major, meta->minor);
      return FALSE;
    }

  g_autoptr (GPtrArray) names = ttv_ctf_list_stream_files (trace->path, NULL, error);
  if (names == NULL)
    return FALSE;

  CtfTracePriv *priv = g_new0 (CtfTracePriv, 1);
  priv->meta = g_steal_pointer (&meta);
  priv->files = g_ptr_array_new_with_free_func ((GDestroyNotify) ttv_ctf_stream_file_free);
  trace->priv = priv;
  CtfMeta *m = priv->meta;
  priv->metadata_size = meta_size;
  priv->metadata_len = len;
  priv->metadata_text = g_steal_pointer (&text);

  for (guint i = 0; i < m->env_keys->len; i++)
    ttv_trace_set_info (trace, g_ptr_array_index (m->env_keys, i), g_ptr_array_index (m->env_values, i));
  const char *host = ttv_trace_get_info (trace, "hostname");
  priv->hostname = g_strdup (host);

  ttv_ctf_add_event_types (trace, m, 0, meta_path);

  for (guint i = 0; i < names->len; i++)
    {
      CtfStreamFile *sf = ttv_ctf_stream_file_open (m, trace->path, g_ptr_array_index (names, i),
                                                    trace, error);
      if (sf == NULL)
        {
          priv_free (priv);
          trace->priv = NULL;
          return FALSE;
        }
      g_ptr_array_add (priv->files, sf);
    }
  return TRUE;
}

static void
ctf_close (TtvTrace *trace)
{
  priv_free (trace->priv);
  trace->priv = NULL;
  for (guint i = 0; i < trace->tracefiles->len; i++)
    ((TtvTracefile *) g_ptr_array_index (trace->tracefiles, i))->priv = NULL;
}

static gboolean
scope_has (const TtvType *scope, const char *name)
{
  return scope && scope->kind == TTV_TYPE_STRUCT && ttv_type_find_field (scope, name) >= 0;
}

gboolean
ttv_ctf_event_type_has_context (const TtvTrace *trace, const TtvEventType *type, const char *name)
{
  if (!ttv_ctf_trace_is_ctf (trace) || type->priv == NULL)
    return FALSE;
  const CtfEventClass *ec = type->priv;
  return scope_has (ec->context, name)
         || (ec->stream && (scope_has (ec->stream->event_context, name) || scope_has (ec->stream->packet_context, name)));
}

gboolean
ttv_ctf_trace_is_ctf (const TtvTrace *trace)
{
  return trace != NULL && trace->format == &ttv_ctf_format_class;
}

/* Packets without timestamps give no time to start reading from. */
static TtvTime
ctf_block_start (const TtvTracefile *tf, guint64 block)
{
  const CtfStreamFile *sf = tf->priv;
  const CtfPacket *pk = &g_array_index (sf->packets, CtfPacket, block);
  return pk->has_ts ? pk->t_begin : TTV_TIME_MIN;
}

/* Through the clock of the first stream class that has one: LTTng gives
 * every stream class of a trace the same clock (live beacons, cycle=
 * bookmarks). */
static gboolean
ctf_cycles_to_time (const TtvTrace *trace, guint64 cycles, TtvTime *time)
{
  const CtfTracePriv *priv = trace->priv;
  for (guint i = 0; priv && i < priv->meta->streams->len; i++)
    {
      const CtfStreamClass *sc = g_ptr_array_index (priv->meta->streams, i);
      if (sc->clock)
        {
          *time = ttv_ctf_clock_to_time (sc->clock, cycles);
          return TRUE;
        }
    }
  return FALSE;
}

static gint32
ctf_decode_contexts (const TtvEvent *event, TtvDecoder *decoder, gint32 scopes[TTV_EVENT_N_CONTEXTS],
                     GError **error)
{
  return ttv_ctf_event_decode_contexts (event, decoder, &scopes[TTV_EVENT_CONTEXT_STREAM_EVENT],
                                        &scopes[TTV_EVENT_CONTEXT_EVENT],
                                        &scopes[TTV_EVENT_CONTEXT_PACKET], error);
}

const TtvFormatClass ttv_ctf_format_class = {
  .name = "ctf",
  .description = N_("Common Trace Format 1.8 (LTTng 2.x)"),
  .probe = ctf_probe,
  .open = ctf_open,
  .close = ctf_close,
  .cursor_new = ttv_ctf_cursor_new,
  .cursor_free = ttv_ctf_cursor_free,
  .cursor_next = ttv_ctf_cursor_next,
  .cursor_seek_time = ttv_ctf_cursor_seek_time,
  .cursor_seek_position = ttv_ctf_cursor_seek_position,
  .decode_fields = ttv_ctf_cursor_decode_fields,
  .refresh = ttv_ctf_refresh,
  .block_start = ctf_block_start,
  .cycles_to_time = ctf_cycles_to_time,
  .decode_contexts = ctf_decode_contexts,
  .event_type_has_context = ttv_ctf_event_type_has_context,
  .append_babeltrace_line = ttv_ctf_append_babeltrace_line,
};
