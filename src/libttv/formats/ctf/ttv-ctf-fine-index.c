/* ttv-ctf-fine-index.c: where a seek may start reading inside a packet.
 *
 * A seek into a packet read its events from the first one up to the time
 * sought: a few thousand events for a packet of 64 KiB, the most of a seek's
 * time (bench/README.md, "CTF seeks").  A cursor that reads a packet from
 * its first event to its end notes, every CTF_FINE_STEP_BITS or so, where
 * an event starts, its index and the clock before it; published once per
 * packet, these let every later seek start a few dozen events before the
 * one it wants.  The LTT reader keeps the same kind of index per block
 * (TtvLttFineIndex). */
#include "ttv-ctf-private.h"

void
ttv_ctf_fine_indexes_init (CtfFineIndexes *fine)
{
  g_mutex_init (&fine->lock);
  fine->by_packet = NULL;
}

void
ttv_ctf_fine_indexes_clear (CtfFineIndexes *fine)
{
  g_mutex_clear (&fine->lock);
  g_clear_pointer (&fine->by_packet, g_ptr_array_unref);
}

const CtfFineIndex *
ttv_ctf_fine_index_lookup (CtfStreamFile *sf, guint64 packet)
{
  const CtfFineIndex *fi = NULL;
  g_mutex_lock (&sf->fine.lock);
  if (sf->fine.by_packet != NULL && packet < sf->fine.by_packet->len)
    fi = g_ptr_array_index (sf->fine.by_packet, packet);
  g_mutex_unlock (&sf->fine.lock);
  /* A followed trace reads its last packet again once whole; an index of
   * another packet at that place is not this one's. */
  if (fi != NULL && (packet >= sf->packets->len
                     || g_array_index (sf->packets, CtfPacket, packet).offset != fi->packet_offset))
    return NULL;
  return fi;
}

void
ttv_ctf_fine_index_publish (CtfStreamFile *sf, guint64 packet, const GArray *entries)
{
  if (entries->len == 0 || packet >= sf->packets->len)
    return;
  CtfFineIndex *fi = g_malloc (sizeof *fi + entries->len * sizeof (CtfFineEntry));
  fi->packet_offset = g_array_index (sf->packets, CtfPacket, packet).offset;
  fi->n = entries->len;
  memcpy (fi->entries, entries->data, entries->len * sizeof (CtfFineEntry));
  g_mutex_lock (&sf->fine.lock);
  if (sf->fine.by_packet == NULL)
    sf->fine.by_packet = g_ptr_array_new_with_free_func (g_free);
  GPtrArray *by = sf->fine.by_packet;
  if (packet >= by->len)
    g_ptr_array_set_size (by, (guint) packet + 1);
  /* Two cursors may have read the packet at once: the first index stays,
   * since a lookup may have handed it out. */
  if (g_ptr_array_index (by, packet) == NULL)
    {
      g_ptr_array_index (by, packet) = fi;
      fi = NULL;
    }
  g_mutex_unlock (&sf->fine.lock);
  g_free (fi);
}

const CtfFineEntry *
ttv_ctf_fine_index_find (const CtfFineIndex *fi, CtfFineBefore before, gconstpointer data)
{
  guint lo = 0, hi = fi->n;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (before (&fi->entries[mid], data))
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo > 0 ? &fi->entries[lo - 1] : NULL;
}
