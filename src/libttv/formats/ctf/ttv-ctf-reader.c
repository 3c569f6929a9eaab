/* ttv-ctf-reader.c: the CTF format class: probe, open (metadata, stream
 * files, event types, trace info) and close.  Registered in ttv-formats.c. */
#include "ttv-ctf.h"
#include "ttv-ctf-private.h"
#include "ttv-ctf-jsonl.h"
#include "ttv-ctf-text.h"
#include "ttv-error.h"
#include "ttv-regular-file.h"

#include <errno.h>
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
  g_free (priv->babeltrace_prefix);
  g_free (priv->metadata_text);
  g_free (priv);
}

static gint
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(char * const *) a, *(char * const *) b);
}

/* Says why the entry @name of a trace folder, which is not a regular file
 * with data, is not read as a stream (@trace NULL: in silence).  An empty
 * file is normal (LTTng leaves one for a stream that recorded nothing);
 * anything else in a stream's place loses its events. */
static void
warn_not_a_stream (TtvTrace *trace, const char *full, const char *name)
{
  if (trace == NULL || (strcmp (name, "index") == 0 && g_file_test (full, G_FILE_TEST_IS_DIR)))
    return;                     /* LTTng's packet indexes */
  guint64 size = 0;
  g_autofree char *problem = ttv_regular_file_dup_problem (full, &size);
  if (problem)
    {
      ttv_trace_add_damage_warning (trace, _("%s; not read as a stream"), problem);
      return;
    }
  if (size > 0)
    return;
  /* LTTng's index of the stream says whether it had packets. */
  g_autofree char *dir = g_path_get_dirname (full);
  g_autofree char *idx_name = g_strconcat (name, ".idx", NULL);
  g_autofree char *idx = g_build_filename (dir, "index", idx_name, NULL);
  guint64 idx_size = 0;
  g_autofree char *idx_problem = ttv_regular_file_dup_problem (idx, &idx_size);
  if (idx_problem == NULL && idx_size > CTF_INDEX_HEADER_BYTES)
    ttv_trace_add_damage_warning (trace, _("%s is empty, but its index %s lists packets; not read"), full, idx);
  else
    ttv_trace_add_warning (trace, _("%s: empty stream file (no packet); nothing to read"), full);
}

/* Files that travel with traces as documentation, never data streams. */
static gboolean
is_documentation (const char *name)
{
  return g_str_has_prefix (name, "README") || g_str_has_suffix (name, ".md") || g_str_has_suffix (name, ".txt");
}

/* Streams that LTTng's index says had packets (index/NAME.idx longer than
 * its header) and whose file is not there: their events are lost.  A
 * stream without an index can go without a trace: nothing says it was
 * there.  A tail warning: a trace still being written may have an index
 * before its stream. */
static void
warn_missing_streams (TtvTrace *trace, const char *trace_path)
{
  g_autofree char *index = g_build_filename (trace_path, "index", NULL);
  g_autoptr (GDir) d = g_dir_open (index, 0, NULL);
  g_autoptr (GPtrArray) missing = g_ptr_array_new_with_free_func (g_free);
  for (const char *name; d && (name = g_dir_read_name (d));)
    {
      if (!g_str_has_suffix (name, ".idx") || name[0] == '.')
        continue;
      g_autofree char *stream = g_strndup (name, strlen (name) - strlen (".idx"));
      g_autofree char *full = g_build_filename (trace_path, stream, NULL);
      g_autofree char *idx = g_build_filename (index, name, NULL);
      GStatBuf st;
      if (g_lstat (full, &st) != 0 && errno == ENOENT && g_stat (idx, &st) == 0 && S_ISREG (st.st_mode)
          && st.st_size > CTF_INDEX_HEADER_BYTES)
        g_ptr_array_add (missing, g_strdup (name));
    }
  g_ptr_array_sort (missing, compare_names);
  for (guint i = 0; i < missing->len; i++)
    {
      const char *name = missing->pdata[i];
      g_autofree char *stream = g_strndup (name, strlen (name) - strlen (".idx"));
      g_autofree char *full = g_build_filename (trace_path, stream, NULL);
      g_autofree char *idx = g_build_filename (index, name, NULL);
      ttv_trace_add_tail_damage_warning (trace, _("%s is missing, but its index %s lists packets: the "
                                                  "stream's events are lost"), full, idx);
    }
}

GPtrArray *
ttv_ctf_list_stream_files (const char *trace_path, GHashTable *known, TtvTrace *trace, GError **error)
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
      if (name[0] == '.' || strcmp (name, "metadata") == 0 || is_documentation (name))
        continue;
      g_autofree char *full = g_build_filename (trace_path, name, NULL);
      if (known && g_hash_table_contains (known, full))
        continue;
      GStatBuf st;
      if (g_stat (full, &st) != 0 || !S_ISREG (st.st_mode) || st.st_size == 0)
        {
          warn_not_a_stream (trace, full, name);
          continue;
        }
      g_ptr_array_add (names, g_strdup (name));
    }
  g_ptr_array_sort (names, compare_names);
  if (trace)
    warn_missing_streams (trace, trace_path);
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

static const char *
env_entry (const CtfMeta *m, const char *key, gboolean *is_string)
{
  for (guint i = 0; i < m->env_keys->len; i++)
    if (strcmp (g_ptr_array_index (m->env_keys, i), key) == 0)
      {
        *is_string = GPOINTER_TO_INT (g_ptr_array_index (m->env_is_string, i));
        return g_ptr_array_index (m->env_values, i);
      }
  return NULL;
}

/* babeltrace2's default fields after the time: the environment's hostname,
 * procname and vpid (per-process userspace traces), joined by ':'. */
static char *
babeltrace_prefix (const CtfMeta *m)
{
  g_autoptr (GString) s = g_string_new (NULL);
  gboolean str;
  const char *host = env_entry (m, "hostname", &str);
  if (host && str)
    g_string_append (s, host);
  const char *proc = env_entry (m, "procname", &str);
  if (proc && str)
    g_string_append_printf (s, "%s%s", s->len ? ":" : "", proc);
  const char *vpid = env_entry (m, "vpid", &str);
  if (vpid && !str)
    g_string_append_printf (s, "%s(%s)", s->len ? ":" : "", vpid);
  if (s->len == 0)
    return NULL;
  g_string_append_c (s, ' ');
  return g_string_free (g_steal_pointer (&s), FALSE);
}

/* A clock whose offset overflows 64-bit nanoseconds since the epoch: its
 * times are relative to the offset (ttv-ctf-meta.c); say so, once. */
static void
warn_relative_clocks (TtvTrace *trace, const CtfMeta *m, const char *meta_path)
{
  for (guint i = 0; i < m->clocks->len; i++)
    {
      const CtfClock *c = g_ptr_array_index (m->clocks, i);
      if (!c->relative)
        continue;
      char secs[48], cycles[48];
      g_snprintf (secs, sizeof secs, "%s%" G_GUINT64_FORMAT, c->offset_s < 0 ? "-" : "",
                  (guint64) (c->offset_s < 0 ? -c->offset_s : c->offset_s));
      g_snprintf (cycles, sizeof cycles, "%s%" G_GUINT64_FORMAT, c->offset < 0 ? "-" : "",
                  (guint64) (c->offset < 0 ? -c->offset : c->offset));
      ttv_trace_add_warning (trace, _("%s: clock “%s”: its offset (%s s and %s cycles at %" PRIu64 " Hz) is"
                                      " out of the range of 64-bit nanoseconds since the epoch; its times"
                                      " are shown from that offset (as if it were 0), the spacing of the"
                                      " events kept"),
                             meta_path, c->name, secs, cycles, c->freq);
    }
}

/* The directory whose metadata to read: each directory of a trace in
 * several holds the metadata stream as far as it had gone; the longest
 * knows every class. */
static const char *
metadata_dir (const GPtrArray *dirs)
{
  const char *best = g_ptr_array_index (dirs, 0);
  guint64 best_size = 0;
  for (guint i = 0; i < dirs->len; i++)
    {
      g_autofree char *p = g_build_filename (g_ptr_array_index (dirs, i), "metadata", NULL);
      GStatBuf st;
      if (g_stat (p, &st) == 0 && (guint64) st.st_size > best_size)
        {
          best = g_ptr_array_index (dirs, i);
          best_size = (guint64) st.st_size;
        }
    }
  return best;
}

/* Opens the stream files of @dir; those of a trace in several
 * directories are named LABEL/FILE. */
static gboolean
open_streams (TtvTrace *trace, CtfTracePriv *priv, const char *dir, const char *label, GError **error)
{
  g_autoptr (GPtrArray) names = ttv_ctf_list_stream_files (dir, NULL, trace, error);
  if (names == NULL)
    return FALSE;
  for (guint i = 0; i < names->len; i++)
    {
      CtfStreamFile *sf = ttv_ctf_stream_file_open (priv->meta, dir, g_ptr_array_index (names, i), trace, error);
      if (sf == NULL)
        return FALSE;
      g_ptr_array_add (priv->files, sf);
      if (label)
        {
          g_free (sf->tracefile->name);
          sf->tracefile->name = g_build_filename (label, g_ptr_array_index (names, i), NULL);
        }
    }
  return TRUE;
}

static gboolean
ctf_open (TtvTrace *trace, GError **error)
{
  g_autoptr (GPtrArray) dirs = g_ptr_array_new ();
  g_ptr_array_add (dirs, trace->path);
  for (guint i = 0; trace->more_paths && i < trace->more_paths->len; i++)
    g_ptr_array_add (dirs, g_ptr_array_index (trace->more_paths, i));
  g_autofree char *meta_path = g_build_filename (metadata_dir (dirs), "metadata", NULL);
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
  g_autoptr (CtfMeta) meta = ttv_ctf_metadata_parse (text, len, meta_path, FALSE, error);
  if (meta == NULL)
    return FALSE;

  CtfTracePriv *priv = g_new0 (CtfTracePriv, 1);
  priv->meta = g_steal_pointer (&meta);
  priv->files = g_ptr_array_new_with_free_func ((GDestroyNotify) ttv_ctf_stream_file_free);
  trace->priv = priv;
  CtfMeta *m = priv->meta;
  priv->metadata_size = meta_size;
  priv->metadata_len = len;
  priv->metadata_text = g_steal_pointer (&text);

  /* Which CTF, then the environment the tracer recorded. */
  ttv_trace_set_info (trace, "ctf_version", m->major >= 2 ? "2" : "1.8");
  for (guint i = 0; i < m->env_keys->len; i++)
    ttv_trace_set_info (trace, g_ptr_array_index (m->env_keys, i), g_ptr_array_index (m->env_values, i));
  const char *host = ttv_trace_get_info (trace, "hostname");
  priv->hostname = g_strdup (host);
  priv->babeltrace_prefix = babeltrace_prefix (m);

  ttv_ctf_add_event_types (trace, m, 0, meta_path);
  warn_relative_clocks (trace, m, meta_path);
  /* At open only: a followed trace's metadata parsed again says them again. */
  for (guint i = 0; i < m->notes->len; i++)
    ttv_trace_add_warning (trace, "%s", (const char *) g_ptr_array_index (m->notes, i));

  g_autoptr (GPtrArray) labels = dirs->len > 1
                                   ? ttv_ctf_group_labels ((const char *const *) dirs->pdata, dirs->len) : NULL;
  for (guint i = 0; i < dirs->len; i++)
    if (!open_streams (trace, priv, g_ptr_array_index (dirs, i), labels ? g_ptr_array_index (labels, i) : NULL,
                       error))
      {
        priv_free (priv);
        trace->priv = NULL;
        return FALSE;
      }
  if (dirs->len > 1)
    ttv_ctf_group_streams (priv->files);
  return TRUE;
}

/* The trace's UUID: from the first metadata packet's header (LTTng
 * packetizes its metadata), else from the parsed metadata. */
static char *
ctf_identity (const char *path)
{
  g_autofree char *meta_path = g_build_filename (path, "metadata", NULL);
  guint8 uuid[16];
  gboolean have = FALSE;
  FILE *f = g_fopen (meta_path, "rb");
  if (f == NULL)
    return NULL;
  guint8 head[20];
  gsize n = fread (head, 1, sizeof head, f);
  fclose (f);
  static const guint8 zero[16] = { 0 };
  if (n == sizeof head && ttv_ctf_metadata_looks_valid (head, n) && head[0] != '/' && head[0] != 0x1e
      && memcmp (head + 4, zero, 16) != 0)
    {
      memcpy (uuid, head + 4, 16);
      have = TRUE;
    }
  else
    {
      gsize len = 0;
      g_autofree char *text = ttv_ctf_metadata_read (meta_path, &len, NULL);
      g_autoptr (CtfMeta) m = text ? ttv_ctf_metadata_parse (text, len, meta_path, FALSE, NULL) : NULL;
      if (m && m->has_uuid)
        {
          memcpy (uuid, m->uuid, 16);
          have = TRUE;
        }
    }
  if (!have)
    return NULL;
  GString *s = g_string_new (NULL);
  for (guint i = 0; i < 16; i++)
    g_string_append_printf (s, "%02x", uuid[i]);
  return g_string_free (s, FALSE);
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

/* LTTng's log level and EMF URI, from TSDL or from CTF 2's lttng.org,2009
 * attributes. */
static void
ctf_get_event_type_attributes (const TtvTrace *trace, const TtvEventType *type, TtvEventTypeAttributes *out)
{
  const CtfEventClass *ec = type->priv;

  if (ec == NULL)
    return;
  out->log_level = ec->loglevel >= 0 && ec->loglevel <= G_MAXINT ? (gint) ec->loglevel : -1;
  out->emf_uri = ec->emf_uri;
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

const TtvFormatClass ttv_ctf_format_class = {
  .name = "ctf",
  .description = N_("Common Trace Format 1.8 and 2 (LTTng 2.x)"),
  .probe = ctf_probe,
  .identity = ctf_identity,
  .open = ctf_open,
  .close = ctf_close,
  .cursor_new = ttv_ctf_cursor_new,
  .cursor_new_few = ttv_ctf_cursor_new_few,
  .cursor_free = ttv_ctf_cursor_free,
  .cursor_next = ttv_ctf_cursor_next,
  .cursor_seek_time = ttv_ctf_cursor_seek_time,
  .cursor_seek_position = ttv_ctf_cursor_seek_position,
  .cursor_skip_block = ttv_ctf_cursor_skip_block,
  .decode_fields = ttv_ctf_cursor_decode_fields,
  .refresh = ttv_ctf_refresh,
  .block_start = ctf_block_start,
  .cycles_to_time = ctf_cycles_to_time,
  .decode_contexts = ttv_ctf_cursor_decode_contexts,
  .decode_contexts_quick = ttv_ctf_cursor_decode_contexts_quick,
  .get_event_type_attributes = ctf_get_event_type_attributes,
  .event_type_has_context = ttv_ctf_event_type_has_context,
  .append_babeltrace_line = ttv_ctf_append_babeltrace_line,
  .append_babeltrace_lost = ttv_ctf_append_babeltrace_lost,
  .append_jsonl_scopes = ttv_ctf_append_jsonl_scopes,
};
