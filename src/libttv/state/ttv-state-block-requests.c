/* ttv-state-block-requests.c: outstanding block requests (see the header).
 * A device holds at most its queue depth of requests at once, so a short
 * array searched linearly is both the smallest and the fastest choice, and
 * copies cheaply into every state checkpoint. */
#include "ttv-state-block-requests.h"

/* Requests that never complete in the trace (lost events, the trace's end)
 * must not pile up forever: beyond this, the oldest is forgotten. */
#define MAX_REQUESTS TTV_BLOCK_REQUESTS_MAX

struct _TtvBlockRequests {
  GArray *requests;        /* of TtvBlockRequest, oldest first */
};

TtvBlockRequests *
ttv_block_requests_new (void)
{
  TtvBlockRequests *set = g_new0 (TtvBlockRequests, 1);
  set->requests = g_array_new (FALSE, FALSE, sizeof (TtvBlockRequest));
  return set;
}

TtvBlockRequests *
ttv_block_requests_copy (const TtvBlockRequests *src)
{
  TtvBlockRequests *set = g_new0 (TtvBlockRequests, 1);
  set->requests = g_array_copy (src->requests);
  return set;
}

void
ttv_block_requests_free (TtvBlockRequests *set)
{
  if (set == NULL)
    return;
  g_array_unref (set->requests);
  g_free (set);
}

static TtvBlockRequest *
at (const TtvBlockRequests *set, guint i)
{
  return &g_array_index (set->requests, TtvBlockRequest, i);
}

/* The request with data at (@dev, @sector), or -1. */
static gint
find_data (const TtvBlockRequests *set, guint32 dev, guint64 sector)
{
  for (guint i = 0; i < set->requests->len; i++)
    {
      const TtvBlockRequest *r = at (set, i);
      if (r->dev == dev && r->n_sectors > 0 && !r->anonymous && r->sector == sector)
        return (gint) i;
    }
  return -1;
}

/* The oldest request of @dev that the trace could not name, or -1. */
static gint
find_anonymous (const TtvBlockRequests *set, guint32 dev)
{
  for (guint i = 0; i < set->requests->len; i++)
    if (at (set, i)->dev == dev && at (set, i)->anonymous)
      return (gint) i;
  return -1;
}

gint
ttv_block_requests_issue (TtvBlockRequests *set, const TtvBlockRequest *rq)
{
  if (rq->n_sectors > 0 && !rq->anonymous)
    {
      /* Issued again (after a requeue, or grown by a merge): still one. */
      gint i = find_data (set, rq->dev, rq->sector);
      if (i >= 0)
        {
          at (set, (guint) i)->n_sectors = rq->n_sectors;
          return 0;
        }
    }
  gint delta = 1;
  if (set->requests->len >= MAX_REQUESTS)
    {
      delta -= at (set, 0)->dev == rq->dev;
      g_array_remove_index (set->requests, 0);
    }
  g_array_append_val (set->requests, *rq);
  return delta;
}

gint
ttv_block_requests_complete (TtvBlockRequests *set, const TtvBlockRequest *rq)
{
  if (rq->anonymous)
    {
      gint i = find_anonymous (set, rq->dev);
      if (i < 0)
        return 0;
      g_array_remove_index (set->requests, (guint) i);
      return -1;
    }
  if (rq->n_sectors == 0)
    {
      /* A flush completes without data, and the sector it reports is
       * whatever the request last pointed at, not the -1 it was issued
       * with; Linux also folds pending flushes into one: this completion
       * ends every flush the device was given. */
      gint delta = 0;
      for (guint i = set->requests->len; i-- > 0;)
        if (at (set, i)->dev == rq->dev && at (set, i)->n_sectors == 0 && !at (set, i)->anonymous)
          {
            g_array_remove_index (set->requests, i);
            delta--;
          }
      return delta;
    }
  gint i = find_data (set, rq->dev, rq->sector);
  if (i < 0)
    return 0;   /* issued before the trace began */
  TtvBlockRequest *r = at (set, (guint) i);
  if (r->n_sectors > rq->n_sectors)
    {
      /* A partial completion: the rest goes on from the next sector. */
      r->sector += rq->n_sectors;
      r->n_sectors -= rq->n_sectors;
      return 0;
    }
  g_array_remove_index (set->requests, (guint) i);
  return -1;
}

void
ttv_block_requests_append_text (const TtvBlockRequests *set, guint32 dev, GString *out)
{
  for (guint i = 0; i < set->requests->len; i++)
    {
      const TtvBlockRequest *r = at (set, i);
      if (r->dev != dev)
        continue;
      if (r->anonymous)
        g_string_append (out, " ?");
      else if (r->n_sectors == 0)
        g_string_append (out, " flush");
      else
        g_string_append_printf (out, " %" G_GUINT64_FORMAT "+%u", r->sector, r->n_sectors);
    }
}

gsize
ttv_block_requests_get_memory_size (const TtvBlockRequests *set)
{
  return sizeof *set + set->requests->len * sizeof (TtvBlockRequest);
}

const TtvBlockRequest *
ttv_block_requests_peek (const TtvBlockRequests *set, guint *n_requests)
{
  *n_requests = set->requests->len;
  return (const TtvBlockRequest *) (gconstpointer) set->requests->data;
}

void
ttv_block_requests_restore (TtvBlockRequests *set, const TtvBlockRequest *requests, guint n_requests)
{
  g_array_append_vals (set->requests, requests, MIN (n_requests, MAX_REQUESTS));
}
