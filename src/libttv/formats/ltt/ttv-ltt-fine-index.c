/* ttv-ltt-fine-index.c: a block's fine index (every TTV_LTT_FINE_STEP-th
 * event: its offset and the cycle count before it), as the cursor keeps it
 * once a block was read whole.  The viewer reads every block of the trace
 * in its background passes, so it keeps one for every block: 16 bytes
 * every 128 events, 7.5 MB of a 60M-event trace.  Most blocks are stored
 * in half that: the entries' event indices are 0, 128, 256... (so not
 * stored), and their cycle counts span less than 2^32 from the first
 * (stored as 32-bit differences).  A block that is not so (a damaged
 * block read around its damage, or one that spans more than 2^32 cycles)
 * keeps the entries whole. */
#include "ttv-ltt-private.h"

#include <string.h>

struct _TtvLttFineIndex {
  guint n;
  gboolean compact;
  guint64 first_cycles;         /* compact: what the differences are from */
  /* Compact: n pairs (offset, cycles - first_cycles) of guint32; else n
   * TtvLttFineEntry. */
  guint64 data[];
};

static gsize
entry_size (gboolean compact)
{
  return compact ? 2 * sizeof (guint32) : sizeof (TtvLttFineEntry);
}

static gboolean
fits_compact (const TtvLttFineEntry *entries, guint n)
{
  for (guint k = 0; k < n; k++)
    if (entries[k].index != (guint64) k * TTV_LTT_FINE_STEP || entries[k].cycles < entries[0].cycles
        || entries[k].cycles - entries[0].cycles > G_MAXUINT32)
      return FALSE;
  return TRUE;
}

TtvLttFineIndex *
ttv_ltt_fine_index_new (const TtvLttFineEntry *entries, guint n)
{
  gboolean compact = fits_compact (entries, n);
  TtvLttFineIndex *fi = g_malloc (sizeof *fi + (gsize) n * entry_size (compact));
  fi->n = n;
  fi->compact = compact;
  fi->first_cycles = n > 0 ? entries[0].cycles : 0;
  if (!compact)
    {
      if (n > 0)
        memcpy (fi->data, entries, (gsize) n * sizeof (TtvLttFineEntry));
      return fi;
    }
  guint32 *pairs = (guint32 *) fi->data;
  for (guint k = 0; k < n; k++)
    {
      pairs[2 * k] = entries[k].offset;
      pairs[2 * k + 1] = (guint32) (entries[k].cycles - fi->first_cycles);
    }
  return fi;
}

guint
ttv_ltt_fine_index_get_n (const TtvLttFineIndex *fi)
{
  return fi->n;
}

gboolean
ttv_ltt_fine_index_is_compact (const TtvLttFineIndex *fi)
{
  return fi->compact;
}

gsize
ttv_ltt_fine_index_get_size (const TtvLttFineIndex *fi)
{
  return sizeof *fi + (gsize) fi->n * entry_size (fi->compact);
}

static guint64
cycles_of (const TtvLttFineIndex *fi, guint k)
{
  if (fi->compact)
    return fi->first_cycles + ((const guint32 *) fi->data)[2 * k + 1];
  return ((const TtvLttFineEntry *) fi->data)[k].cycles;
}

static guint64
index_of (const TtvLttFineIndex *fi, guint k)
{
  return fi->compact ? (guint64) k * TTV_LTT_FINE_STEP : ((const TtvLttFineEntry *) fi->data)[k].index;
}

static guint32
offset_of (const TtvLttFineIndex *fi, guint k)
{
  if (fi->compact)
    return ((const guint32 *) fi->data)[2 * k];
  return ((const TtvLttFineEntry *) fi->data)[k].offset;
}

void
ttv_ltt_fine_index_get (const TtvLttFineIndex *fi, guint k, TtvLttFineEntry *out)
{
  g_assert (k < fi->n);
  out->offset = offset_of (fi, k);
  out->index = (guint32) index_of (fi, k);
  out->cycles = cycles_of (fi, k);
}

/* The last entry k with at (fi, k) < @bound (TRUE) or <= @bound (FALSE),
 * the entries being in increasing order; -1 when even the first is not. */
static gint
find_last (const TtvLttFineIndex *fi, guint64 (*at) (const TtvLttFineIndex *, guint), guint64 bound,
           gboolean strictly)
{
  if (fi->n == 0 || (strictly ? at (fi, 0) >= bound : at (fi, 0) > bound))
    return -1;
  guint lo = 0, hi = fi->n;
  while (hi - lo > 1)
    {
      guint mid = lo + (hi - lo) / 2;
      guint64 v = at (fi, mid);
      if (strictly ? v < bound : v <= bound)
        lo = mid;
      else
        hi = mid;
    }
  return (gint) lo;
}

gint
ttv_ltt_fine_index_find_cycles (const TtvLttFineIndex *fi, guint64 target)
{
  return find_last (fi, cycles_of, target, TRUE);
}

gint
ttv_ltt_fine_index_find_index (const TtvLttFineIndex *fi, guint64 index)
{
  return find_last (fi, index_of, index, FALSE);
}
