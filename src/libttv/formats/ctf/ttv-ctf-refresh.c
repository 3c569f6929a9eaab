/* ttv-ctf-refresh.c: the CTF reader's refresh for traces still being written
 * (ttv-report --follow): metadata that grew, packets appended, new stream files. */
#include "ttv-ctf2-private.h"
#include "ttv-regular-file.h"
#include "ttv-error.h"

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <inttypes.h>
#include <string.h>

static gboolean
cannot_follow (GError **error, const char *path, const char *why)
{
  g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_UNSUPPORTED,
               _("%s: the metadata changed while the trace was followed (%s); reopen the trace"),
               path, why);
  return FALSE;
}

/* Moves what @m2 (the whole grown metadata) adds to the trace's model:
 * event classes and stream classes declared after the known ones.  What
 * is already known keeps its objects (cursors, event types and filters
 * point at them). */
static gboolean
merge_meta (TtvTrace *trace, CtfTracePriv *priv, CtfMeta *m2, const char *path, GError **error)
{
  CtfMeta *m1 = priv->meta;
  guint ns = m1->streams->len, ne = m1->events->len;
  if (m2->clocks->len != m1->clocks->len)
    return cannot_follow (error, path, _("clocks were added"));
  if (m2->streams->len < ns || m2->events->len < ne)
    return cannot_follow (error, path, _("declarations were removed"));
  for (guint i = 0; i < ns; i++)
    if (((CtfStreamClass *) g_ptr_array_index (m1->streams, i))->id
        != ((CtfStreamClass *) g_ptr_array_index (m2->streams, i))->id)
      return cannot_follow (error, path, _("a stream class was redeclared"));
  for (guint i = 0; i < ne; i++)
    {
      const CtfEventClass *a = g_ptr_array_index (m1->events, i), *b = g_ptr_array_index (m2->events, i);
      if (a->id != b->id || a->stream_id != b->stream_id || g_strcmp0 (a->name, b->name) != 0)
        return cannot_follow (error, path, _("an event class was redeclared"));
    }

  /* New stream classes: their clock becomes the known one of that name. */
  for (guint i = ns; i < m2->streams->len; i++)
    {
      CtfStreamClass *s = g_ptr_array_index (m2->streams, i);
      if (s->clock)
        s->clock = ttv_ctf_meta_find_clock (m1, s->clock->name);
      g_ptr_array_set_size (s->events, 0);
      g_ptr_array_add (m1->streams, s);
    }
  /* Streams whose id lookup must be rebuilt: the new ones (their lookup
   * may name m2's objects) and those that gain event classes. */
  g_autoptr (GHashTable) touched = g_hash_table_new (g_direct_hash, g_direct_equal);
  for (guint i = ns; i < m1->streams->len; i++)
    g_hash_table_add (touched, g_ptr_array_index (m1->streams, i));
  for (guint i = ne; i < m2->events->len; i++)
    {
      CtfEventClass *e = g_ptr_array_index (m2->events, i);
      if (e->stream)
        {
          guint si = 0;
          gboolean found = g_ptr_array_find (m2->streams, e->stream, &si);
          g_assert (found);
          e->stream = g_ptr_array_index (m1->streams, si);
          g_ptr_array_add (e->stream->events, e);
          g_hash_table_add (touched, e->stream);
        }
      g_ptr_array_add (m1->events, e);
    }
  /* m2 keeps (and frees) only what m1 already had. */
  g_ptr_array_remove_range (m2->streams, ns, m2->streams->len - ns);
  g_ptr_array_remove_range (m2->events, ne, m2->events->len - ne);
  GHashTableIter it;
  gpointer key;
  g_hash_table_iter_init (&it, touched);
  while (g_hash_table_iter_next (&it, &key, NULL))
    ttv_ctf_stream_index_events (key);

  ttv_ctf_add_event_types (trace, m1, ne, path);
  return TRUE;
}

static gboolean
refresh_metadata (TtvTrace *trace, CtfTracePriv *priv, gboolean *changed, GError **error)
{
  g_autofree char *path = g_build_filename (trace->path, "metadata", NULL);
  GStatBuf st;
  if (g_stat (path, &st) != 0 || (guint64) st.st_size == priv->metadata_size)
    return TRUE;
  gsize len = 0;
  guint64 size = 0;
  g_autofree char *text = ttv_ctf_metadata_read_complete (path, &len, &size, error);
  if (text == NULL)
    return FALSE;
  if (len <= priv->metadata_len)
    {
      /* Nothing whole was added yet, or the file was rewritten. */
      if (memcmp (text, priv->metadata_text, len) != 0)
        return cannot_follow (error, path, _("it was rewritten, not appended to"));
      return TRUE;
    }
  if (memcmp (text, priv->metadata_text, priv->metadata_len) != 0)
    return cannot_follow (error, path, _("it was rewritten, not appended to"));
  g_autoptr (CtfMeta) m2 = ttv_ctf_metadata_parse (text, len, path, TRUE, error);
  if (m2 == NULL)
    return FALSE;
  guint n_types = trace->event_types->len;
  if (!merge_meta (trace, priv, m2, path, error))
    return FALSE;
  g_free (priv->metadata_text);
  priv->metadata_text = g_steal_pointer (&text);
  priv->metadata_len = len;
  priv->metadata_size = size;
  *changed |= trace->event_types->len > n_types;
  return TRUE;
}

/* Takes @sf's new size when its file grew and indexes the new whole packets. */
static gboolean
refresh_stream (TtvTrace *trace, CtfStreamFile *sf, gboolean *changed, GError **error)
{
  GStatBuf st;
  if (g_stat (sf->path, &st) != 0 || (guint64) st.st_size == sf->size)
    return TRUE;
  if ((guint64) st.st_size < sf->size)
    {
      g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_TRUNCATED,
                   _("%s: the stream file shrank from %" PRIu64 " to %" PRIu64
                     " bytes while the trace was followed"),
                   sf->path, sf->size, (guint64) st.st_size);
      return FALSE;
    }
  if (sf->file == NULL)
    {
      g_autoptr (GError) local = NULL;
      if ((sf->file = ttv_windowed_file_open (sf->path, &local)) == NULL)
        {
          g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_IO, "%s", local->message);
          return FALSE;
        }
    }
  else if (!ttv_windowed_file_update_size (sf->file, error))
    return FALSE;
  sf->size = ttv_windowed_file_get_size (sf->file);
  guint n = sf->packets->len;
  if (!ttv_ctf_stream_file_index_more (sf, trace, error))
    return FALSE;
  *changed |= sf->packets->len > n;
  return TRUE;
}

/* Stream files that appeared since open, once they hold a whole packet. */
static gboolean
add_new_streams (TtvTrace *trace, CtfTracePriv *priv, gboolean *changed, GError **error)
{
  g_autoptr (GHashTable) known = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < priv->files->len; i++)
    {
      CtfStreamFile *sf = g_ptr_array_index (priv->files, i);
      g_hash_table_add (known, sf->path);
    }
  g_autoptr (GPtrArray) names = ttv_ctf_list_stream_files (trace->path, known, NULL, NULL);
  if (names == NULL)
    return TRUE;
  for (guint i = 0; i < names->len; i++)
    {
      CtfStreamFile *sf = g_new0 (CtfStreamFile, 1);
      ttv_ctf_fine_indexes_init (&sf->fine);
      sf->meta = priv->meta;
      sf->path = g_build_filename (trace->path, g_ptr_array_index (names, i), NULL);
      sf->packets = g_array_new (FALSE, TRUE, sizeof (CtfPacket));
      gboolean grew = FALSE;
      if (!refresh_stream (trace, sf, &grew, error))
        {
          ttv_ctf_stream_file_free (sf);
          return FALSE;
        }
      if (!grew)
        {
          ttv_ctf_stream_file_free (sf);   /* no whole packet yet */
          continue;
        }
      g_ptr_array_add (priv->files, sf);
      *changed = TRUE;
    }
  return TRUE;
}

gboolean
ttv_ctf_refresh (TtvTrace *trace, gboolean *changed, GError **error)
{
  CtfTracePriv *priv = trace->priv;
  *changed = FALSE;
  /* A trace in several directories is archived chunks or snapshots: they
   * do not grow. */
  if (priv == NULL || trace->more_paths)
    return TRUE;
  /* Metadata first: new packets may use the classes it adds. */
  if (!refresh_metadata (trace, priv, changed, error))
    return FALSE;
  for (guint i = 0; i < priv->files->len; i++)
    if (!refresh_stream (trace, g_ptr_array_index (priv->files, i), changed, error))
      return FALSE;
  return add_new_streams (trace, priv, changed, error);
}
