/* ttv-time-scale.c: the time views' shared mapping of times to pixels
 * (sdk/ttv-viewer-time-scale.h): linear pieces, with the long idle gaps
 * between far-apart traces compressed to a few pixels each. */
#include "ttv-config.h"

#include "ttv-viewer-model.h"
#include "ttv-tab-state-private.h"
#include "ttv-time-gaps.h"
#include "ttv-traceset.h"

#include <math.h>
#include <string.h>

/* The SDK's bound is libttv's (modules do not see libttv's headers). */
G_STATIC_ASSERT (TTV_TIME_SCALE_MAX_GAPS == TTV_TIME_MAX_IDLE_GAPS);

static void
set_piece (TtvTimeScalePiece *p, TtvTime t0, TtvTime t1, double x0, double x1, gboolean gap)
{
  p->t0 = t0;
  p->t1 = t1;
  p->x0 = x0;
  p->x1 = x1;
  p->gap = gap;
}

void
ttv_time_scale_init_linear (TtvTimeScale *scale, TtvTime t0, TtvTime t1, double x, double width)
{
  memset (scale, 0, sizeof *scale);
  scale->t0 = t0;
  scale->t1 = MAX (t0, t1);
  scale->x = x;
  scale->width = MAX (width, 0);
  scale->ns_per_px = scale->width > 0 ? (double) (scale->t1 - scale->t0) / scale->width : 0;
  scale->n_pieces = 1;
  set_piece (&scale->pieces[0], scale->t0, scale->t1, x, x + scale->width, FALSE);
}

/* The scale of [@t0, @t1] with @n_gaps gaps (in time order) compressed. */
static void
init_with_gaps (TtvTimeScale *scale, TtvTime t0, TtvTime t1, double x, double width,
                const TtvTime (*gaps)[2], guint n_gaps)
{
  TtvTime gap_total = 0;

  ttv_time_scale_init_linear (scale, t0, t1, x, width);
  if (n_gaps == 0 || width < 8)
    return;
  double gap_px = MIN (TTV_TIME_SCALE_GAP_WIDTH, width / (4.0 * n_gaps));
  for (guint i = 0; i < n_gaps; i++)
    gap_total += gaps[i][1] - gaps[i][0];
  scale->ns_per_px = (double) (t1 - t0 - gap_total) / (width - n_gaps * gap_px);

  /* Time read at ns_per_px, then each gap in gap_px, to the end. */
  TtvTime t = t0;
  double px = x;
  scale->n_pieces = 0;
  for (guint i = 0; i < n_gaps; i++)
    {
      if (gaps[i][0] > t)
        {
          double w = (double) (gaps[i][0] - t) / scale->ns_per_px;
          set_piece (&scale->pieces[scale->n_pieces++], t, gaps[i][0], px, px + w, FALSE);
          px += w;
        }
      set_piece (&scale->pieces[scale->n_pieces++], gaps[i][0], gaps[i][1], px, px + gap_px, TRUE);
      px += gap_px;
      t = gaps[i][1];
    }
  if (t1 > t)
    set_piece (&scale->pieces[scale->n_pieces++], t, t1, px, x + width, FALSE);
  /* Rounding: the last piece ends at the edge. */
  scale->pieces[scale->n_pieces - 1].x1 = x + width;
}

void
ttv_time_scale_init (TtvTimeScale *scale, TtvTime t0, TtvTime t1, double x, double width,
                     const TtvTime (*busy)[2], guint n_busy)
{
  TtvTime gaps[TTV_TIME_MAX_IDLE_GAPS][2];
  guint n_gaps = ttv_time_find_idle_gaps (t0, t1, busy, n_busy, gaps);

  init_with_gaps (scale, t0, t1, x, width, (const TtvTime (*)[2]) gaps, n_gaps);
}

void
ttv_time_scale_place (TtvTimeScale *scale, double x, double width)
{
  double f = scale->width > 0 ? width / scale->width : 0;

  for (guint i = 0; i < scale->n_pieces; i++)
    {
      scale->pieces[i].x0 = x + (scale->pieces[i].x0 - scale->x) * f;
      scale->pieces[i].x1 = x + (scale->pieces[i].x1 - scale->x) * f;
    }
  scale->ns_per_px = f > 0 ? scale->ns_per_px / f : scale->ns_per_px;
  scale->x = x;
  scale->width = width;
}

gboolean
ttv_time_scale_get_piece_columns (const TtvTimeScale *scale, guint index, guint *first, guint *end)
{
  const double n = floor (scale->width);
  double prev_end = 0;

  g_return_val_if_fail (index < scale->n_pieces, FALSE);
  if (scale->pieces[index].gap)
    return FALSE;
  /* The column where the busy piece before this one stops. */
  for (guint i = 0; i < index; i++)
    if (!scale->pieces[i].gap)
      prev_end = CLAMP (ceil (scale->pieces[i].x1 - scale->x), 0, n);
  double a = CLAMP (floor (scale->pieces[index].x0 - scale->x), prev_end, n);
  double b = CLAMP (ceil (scale->pieces[index].x1 - scale->x), a, n);
  *first = (guint) a;
  *end = (guint) b;
  return b > a;
}

gboolean
ttv_time_scale_is_linear (const TtvTimeScale *scale)
{
  return scale->n_pieces <= 1;
}

double
ttv_time_scale_x_of_time (const TtvTimeScale *scale, TtvTime t)
{
  const TtvTimeScalePiece *p = &scale->pieces[0];

  /* Beyond the ends (an arrow to a run after the window), at the rate of
   * the time read. */
  if (t < scale->t0)
    return scale->x - ((double) scale->t0 - (double) t) / MAX (scale->ns_per_px, 1e-9);
  if (t > scale->t1)
    return scale->x + scale->width + ((double) t - (double) scale->t1) / MAX (scale->ns_per_px, 1e-9);
  for (guint i = 0; i < scale->n_pieces && t > scale->pieces[i].t0; i++)
    p = &scale->pieces[i];
  if (p->t1 <= p->t0)
    return p->x0;
  return p->x0 + (double) (t - p->t0) / (double) (p->t1 - p->t0) * (p->x1 - p->x0);
}

TtvTime
ttv_time_scale_time_of_x (const TtvTimeScale *scale, double x)
{
  const TtvTimeScalePiece *p = &scale->pieces[0];

  if (x < scale->x)
    return scale->t0 - (TtvTime) MIN ((scale->x - x) * scale->ns_per_px, 4e18);
  if (x > scale->x + scale->width)
    return scale->t1 + (TtvTime) MIN ((x - scale->x - scale->width) * scale->ns_per_px, 4e18);
  for (guint i = 0; i < scale->n_pieces && x > scale->pieces[i].x0; i++)
    p = &scale->pieces[i];
  if (p->x1 <= p->x0)
    return p->t0;
  return p->t0 + (TtvTime) ((x - p->x0) / (p->x1 - p->x0) * (double) (p->t1 - p->t0));
}

void
ttv_tab_state_get_time_scale (TtvTabState *state, TtvTime t0, TtvTime t1, double x, double width,
                              TtvTimeScale *scale)
{
  TtvTraceset *ts = ttv_tab_state_get_traceset (state);
  TtvTime gaps[TTV_TIME_MAX_IDLE_GAPS][2];
  guint n_gaps = ts && t1 > t0 ? ttv_traceset_find_idle_gaps (ts, t0, t1, gaps) : 0;

  init_with_gaps (scale, t0, t1, x, width, (const TtvTime (*)[2]) gaps, n_gaps);
}
