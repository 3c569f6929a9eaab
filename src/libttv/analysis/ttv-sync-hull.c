/* ttv-sync-hull.c: the convex-hull method of clock synchronization (Duda et
 * al., as LTTV and Trace Compass use it) on one pair of machines; ttv-sync.c calls it. */
#include "ttv-sync.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdlib.h>

/* Times are whole nanoseconds: a line through two points may miss a third
 * on the hull by rounding only. */
#define TOLERANCE_NS 0.5
/* A slope this far past a bound still separating: the drift is unbounded. */
#define UNBOUNDED_STEP 1e-3

static gint
compare_u (gconstpointer a, gconstpointer b)
{
  const TtvSyncPoint *x = a, *y = b;
  return x->u < y->u ? -1 : x->u > y->u ? 1 : x->v < y->v ? -1 : x->v > y->v;
}

static double
cross (const TtvSyncPoint *o, const TtvSyncPoint *a, const TtvSyncPoint *b)
{
  return (a->u - o->u) * (b->v - o->v) - (a->v - o->v) * (b->u - o->u);
}

/* The upper (@upper_hull) or lower hull of @points, by increasing u. */
static GArray *
hull (const TtvSyncPoint *points, guint n, gboolean upper_hull)
{
  g_autofree TtvSyncPoint *sorted = g_memdup2 (points, n * sizeof *points);
  qsort (sorted, n, sizeof *sorted, compare_u);
  GArray *h = g_array_new (FALSE, FALSE, sizeof (TtvSyncPoint));
  for (guint i = 0; i < n; i++)
    {
      while (h->len >= 2)
        {
          double c = cross (&g_array_index (h, TtvSyncPoint, h->len - 2),
                            &g_array_index (h, TtvSyncPoint, h->len - 1), &sorted[i]);
          if (upper_hull ? c < 0 : c > 0)
            break;
          g_array_set_size (h, h->len - 1);
        }
      g_array_append_val (h, sorted[i]);
    }
  return h;
}

/* The room left between the lines of slope @d through the highest lower
 * point and the lowest upper point: > 0 when such lines separate them. */
static double
room (const TtvSyncPoint *lower, guint n_lower, const TtvSyncPoint *upper, guint n_upper, double d,
      double *low, double *high)
{
  double lo = -INFINITY, hi = INFINITY;
  for (guint i = 0; i < n_lower; i++)
    lo = MAX (lo, lower[i].v - d * lower[i].u);
  for (guint i = 0; i < n_upper; i++)
    hi = MIN (hi, upper[i].v - d * upper[i].u);
  if (low)
    *low = lo;
  if (high)
    *high = hi;
  return hi - lo;
}

void
ttv_sync_fit (const TtvSyncPoint *lower, guint n_lower, const TtvSyncPoint *upper, guint n_upper,
              TtvSyncFit *fit)
{
  *fit = (TtvSyncFit) { .quality = TTV_SYNC_FAIL };
  if (n_lower == 0 || n_upper == 0)
    {
      fit->reason = n_lower == 0 ? N_("no packet from the reference machine was received")
                                 : N_("no packet to the reference machine was received");
      return;
    }
  g_autoptr (GArray) lh = hull (lower, n_lower, TRUE);
  g_autoptr (GArray) uh = hull (upper, n_upper, FALSE);
  g_autoptr (GArray) all = g_array_new (FALSE, FALSE, sizeof (TtvSyncPoint));
  g_array_append_vals (all, lh->data, lh->len);
  g_array_append_vals (all, uh->data, uh->len);

  /* Each vertex of the set of separating lines is a line through two hull
   * points: its extreme slopes and offsets are among those. */
  gboolean any = FALSE;
  double dmin = INFINITY, dmax = -INFINITY, cmin = INFINITY, cmax = -INFINITY;
  for (guint i = 0; i < all->len; i++)
    for (guint j = i + 1; j < all->len; j++)
      {
        const TtvSyncPoint *a = &g_array_index (all, TtvSyncPoint, i), *b = &g_array_index (all, TtvSyncPoint, j);
        if (b->u == a->u)
          continue;
        double d = (b->v - a->v) / (b->u - a->u);
        if (room (lower, n_lower, upper, n_upper, d, NULL, NULL) < -TOLERANCE_NS)
          continue;
        double c = a->v - d * a->u;
        any = TRUE;
        dmin = MIN (dmin, d);
        dmax = MAX (dmax, d);
        cmin = MIN (cmin, c);
        cmax = MAX (cmax, c);
      }
  gboolean bounded = any
    && room (lower, n_lower, upper, n_upper, dmin - UNBOUNDED_STEP, NULL, NULL) < 0
    && room (lower, n_lower, upper, n_upper, dmax + UNBOUNDED_STEP, NULL, NULL) < 0;
  double low, high;
  if (bounded)
    {
      fit->quality = TTV_SYNC_ACCURATE;
      fit->drift = (dmin + dmax) / 2;
      fit->drift_min = dmin;
      fit->drift_max = dmax;
      fit->offset_min = cmin;
      fit->offset_max = cmax;
      room (lower, n_lower, upper, n_upper, fit->drift, &low, &high);
      fit->offset = (low + high) / 2;
      return;
    }
  /* The drift is not bounded from both sides: assume none if that
   * separates the packets, else the nearest slope that does. */
  double d = 0;
  if (room (lower, n_lower, upper, n_upper, 0, NULL, NULL) < 0)
    {
      if (!any)
        {
          fit->reason = N_("the packets of the two directions contradict each other (the hulls cross)");
          return;
        }
      d = dmin > 0 ? dmin : dmax;
    }
  room (lower, n_lower, upper, n_upper, d, &low, &high);
  fit->quality = TTV_SYNC_APPROXIMATE;
  fit->reason = N_("too few packets to bound the drift: assumed constant");
  fit->drift = fit->drift_min = fit->drift_max = d;
  fit->offset = (low + high) / 2;
  fit->offset_min = low;
  fit->offset_max = high;
}
