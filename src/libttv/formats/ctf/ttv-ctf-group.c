/* ttv-ctf-group.c: one CTF trace in several directories (a rotated LTTng
 * session's chunks, successive snapshots): labels for their files, packets
 * read once when two directories hold the same one, and what was lost
 * between them.  The reader's open calls it when the session layer groups
 * directories of one UUID (ttv_trace_open_group). */
#include "ttv-ctf-private.h"

#include <string.h>

GPtrArray *
ttv_ctf_group_labels (const char *const *dirs, guint n)
{
  GPtrArray *labels = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) split = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  guint shortest = G_MAXUINT;
  for (guint i = 0; i < n; i++)
    {
      char **parts = g_strsplit (dirs[i], G_DIR_SEPARATOR_S, -1);
      g_ptr_array_add (split, parts);
      shortest = MIN (shortest, g_strv_length (parts));
    }
  /* Components every path starts with, and ends with. */
  char **first = g_ptr_array_index (split, 0);
  guint len0 = g_strv_length (first), head = 0, tail = 0;
  while (head < shortest)
    {
      gboolean same = TRUE;
      for (guint i = 1; i < n && same; i++)
        same = strcmp (((char **) g_ptr_array_index (split, i))[head], first[head]) == 0;
      if (!same)
        break;
      head++;
    }
  while (tail < shortest - head)
    {
      gboolean same = TRUE;
      for (guint i = 1; i < n && same; i++)
        {
          char **p = g_ptr_array_index (split, i);
          same = strcmp (p[g_strv_length (p) - 1 - tail], first[len0 - 1 - tail]) == 0;
        }
      if (!same)
        break;
      tail++;
    }
  for (guint i = 0; i < n; i++)
    {
      char **p = g_ptr_array_index (split, i);
      guint len = g_strv_length (p);
      g_autoptr (GString) label = g_string_new (NULL);
      for (guint k = head; k + tail < len; k++)
        {
          if (label->len)
            g_string_append_c (label, G_DIR_SEPARATOR);
          g_string_append (label, p[k]);
        }
      if (label->len == 0)
        g_string_printf (label, "%u", i);
      g_ptr_array_add (labels, g_string_free (g_steal_pointer (&label), FALSE));
    }
  return labels;
}

/* Which stream a file belongs to: its class and instance id when the
 * packet header has one, else its file name (LTTng names a stream's files
 * alike in every chunk). */
static char *
stream_key (const CtfStreamFile *sf)
{
  g_autofree char *base = g_path_get_basename (sf->path);
  gboolean has_instance = sf->meta->packet_header
                          && (ttv_type_collect_roles (sf->meta->packet_header) & TTV_ROLE_STREAM_ID);
  if (has_instance)
    return g_strdup_printf ("%" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT, sf->sc ? sf->sc->id : 0,
                            sf->stream_instance_id);
  return g_strdup_printf ("%" G_GUINT64_FORMAT "/%s", sf->sc ? sf->sc->id : 0, base);
}

/* What tells a packet from another of the same stream: its sequence
 * number, else its times and size. */
static char *
packet_key (const CtfPacket *pk)
{
  if (pk->has_seq_num)
    return g_strdup_printf ("#%" G_GUINT64_FORMAT, pk->seq_num);
  return g_strdup_printf ("%" G_GUINT64_FORMAT "-%" G_GUINT64_FORMAT "-%" G_GUINT64_FORMAT "-%" G_GUINT64_FORMAT,
                          pk->ts_begin, pk->ts_end, pk->content_bits, pk->events_discarded);
}

static TtvTime
first_time (const CtfStreamFile *sf)
{
  for (guint i = 0; i < sf->packets->len; i++)
    {
      const CtfPacket *pk = &g_array_index (sf->packets, CtfPacket, i);
      if (pk->has_ts)
        return pk->t_begin;
    }
  return TTV_TIME_MAX;
}

static gint
by_first_time (gconstpointer a, gconstpointer b)
{
  TtvTime ta = first_time (*(CtfStreamFile * const *) a), tb = first_time (*(CtfStreamFile * const *) b);
  return ta < tb ? -1 : ta > tb;
}

/* The files of one stream in time order: packets seen in an earlier file
 * are dropped, and each file's losses count from the file before. */
static void
merge_chain (GPtrArray *chain)
{
  g_ptr_array_sort (chain, by_first_time);
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  CtfPacket before;
  gboolean have_before = FALSE;
  for (guint f = 0; f < chain->len; f++)
    {
      CtfStreamFile *sf = g_ptr_array_index (chain, f);
      guint kept = 0;
      for (guint i = 0; i < sf->packets->len; i++)
        {
          CtfPacket *pk = &g_array_index (sf->packets, CtfPacket, i);
          char *key = packet_key (pk);
          if (g_hash_table_contains (seen, key))
            {
              g_free (key);
              continue;
            }
          g_hash_table_add (seen, key);
          if (kept != i)
            g_array_index (sf->packets, CtfPacket, kept) = *pk;
          kept++;
        }
      g_array_set_size (sf->packets, kept);
      sf->stream_first = g_ptr_array_index (chain, 0);
      ttv_ctf_stream_file_reindex (sf, have_before ? &before : NULL);
      if (kept > 0)
        {
          before = g_array_index (sf->packets, CtfPacket, kept - 1);
          have_before = TRUE;
        }
    }
}

void
ttv_ctf_group_streams (GPtrArray *files)
{
  g_autoptr (GHashTable) chains = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                         (GDestroyNotify) g_ptr_array_unref);
  g_autoptr (GPtrArray) order = g_ptr_array_new ();
  for (guint i = 0; i < files->len; i++)
    {
      CtfStreamFile *sf = g_ptr_array_index (files, i);
      char *key = stream_key (sf);
      GPtrArray *chain = g_hash_table_lookup (chains, key);
      if (chain == NULL)
        {
          chain = g_ptr_array_new ();
          g_hash_table_insert (chains, key, chain);
          g_ptr_array_add (order, chain);
        }
      else
        g_free (key);
      g_ptr_array_add (chain, sf);
    }
  for (guint i = 0; i < order->len; i++)
    {
      GPtrArray *chain = g_ptr_array_index (order, i);
      if (chain->len > 1)
        merge_chain (chain);
    }
}
