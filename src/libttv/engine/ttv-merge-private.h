/* ttv-merge-private.h: the k-way merge of the traceset context, in (time,
 * stream index) order: ties go to the lowest stream index, and a stream at
 * its end loses to every event, even one at TTV_TIME_MAX.  Up to
 * TTV_MERGE_SMALL streams, a tournament over all the streams' next times
 * whenever the winner changes, and a single comparison with the runner-up
 * while it does not; above, a loser tree with a fast path while one stream
 * stays the oldest.  Either way winner is the stream of the next event
 * whenever the merge is not at its end. */
#pragma once

#include "ttv-time.h"

G_BEGIN_DECLS

/* A key orders (time, rank) as one unsigned integer so that comparisons
 * compile without branches.  rank is the stream index for a live stream;
 * streams at their end and the padding leaves get ranks >= 2^32 so that
 * they lose to every event, even one at TTV_TIME_MAX. */
#ifdef __SIZEOF_INT128__
typedef unsigned __int128 TtvMergeKey;
#define TTV_MERGE_KEY(time, rank) \
  (((TtvMergeKey) ((guint64) (time) ^ G_GUINT64_CONSTANT (0x8000000000000000)) << 64) | (guint64) (rank))
#define TTV_MERGE_KEY_TIME(k) ((TtvTime) ((guint64) ((k) >> 64) ^ G_GUINT64_CONSTANT (0x8000000000000000)))
#define TTV_MERGE_KEY_RANK(k) ((guint64) (k))
#define TTV_MERGE_KEY_LESS(a, b) ((a) < (b))
#else
typedef struct {
  TtvTime time;
  guint64 rank;
} TtvMergeKey;
static inline TtvMergeKey
ttv_merge_key (TtvTime time, guint64 rank)
{
  TtvMergeKey k = { time, rank };
  return k;
}
#define TTV_MERGE_KEY(time, rank) ttv_merge_key ((time), (rank))
#define TTV_MERGE_KEY_TIME(k) ((k).time)
#define TTV_MERGE_KEY_RANK(k) ((k).rank)
#define TTV_MERGE_KEY_LESS(a, b) ((a).time < (b).time || ((a).time == (b).time && (a).rank < (b).rank))
#endif

#define TTV_MERGE_RANK_END (G_GUINT64_CONSTANT (1) << 32)

/* With this many streams or fewer, taking the minimum of all the next
 * times again on every event costs fewer instructions than replaying a
 * loser tree and deciding between its modes (4 streams: about 30 against
 * 50).  GCC selects the upper levels' winner with a jump: written as a
 * mask instead, it cost 10 more instructions per event for no gain
 * measured. */
#define TTV_MERGE_SMALL 8

typedef struct {
  guint n;                      /* streams */
  guint size;                   /* leaves: a power of two >= max (n, 1) */
  guint winner;                 /* the stream of the next event (of node[0] in a tree) */
  guint small;                  /* size when n <= TTV_MERGE_SMALL (time and live, no tree), else 0 */
  /* Small: the winner stays the winner while its next time is below this,
   * the runner-up's time (+ 1 when the winner's index is the lower one):
   * see ttv_merge_stays().  TTV_TIME_MIN in a tree, so that no time does. */
  TtvTime stay_below;
  /* Small: the next time of each stream, TTV_TIME_MAX past its end and in
   * the padding up to size.  An event can be at TTV_TIME_MAX too: when the
   * minimum is TTV_TIME_MAX, live tells which streams have one.  The
   * winner's entry is not written while it stays the winner (its time is
   * the caller's); every step that finds the winner again writes it
   * first. */
  TtvTime time[TTV_MERGE_SMALL];
  guint live;                   /* small: bit i set while stream i has events */
  /* Tree */
  TtvMergeKey *node;            /* owned, [size]: node[0] the winner, node[1..] the losers */
  /* Fast mode: the winner stays the oldest while its next time <= limit,
   * with no replay.  Worth it only while streams come in runs; when they
   * interleave finely, computing the limit and mispredicting the test cost
   * more than replaying every time.  So the merge measures the share of
   * events whose stream stays the winner over windows of events and picks
   * the mode. */
  TtvTime limit;                /* valid in fast mode */
  gboolean fast;
  guint window;                 /* events in the current window */
  guint stays;                  /* of which the winner did not change */
} TtvMerge;

#define TTV_MERGE_WINDOW 1024
/* Fast mode pays off above about 3/4 of the events staying. */
#define TTV_MERGE_FAST_STAYS (TTV_MERGE_WINDOW * 3 / 4)

void     ttv_merge_init (TtvMerge *m, guint n);
void     ttv_merge_clear (TtvMerge *m);
/* Builds the merge from every stream's key: keys[i] = KEY (time of its next
 * event, i), or KEY (TTV_TIME_MAX, TTV_MERGE_RANK_END | i) at its end. */
void     ttv_merge_build (TtvMerge *m, const TtvMergeKey *keys);

static inline gboolean
ttv_merge_at_end (const TtvMerge *m)
{
  if (m->small)
    return m->live == 0;
  return TTV_MERGE_KEY_RANK (m->node[0]) >= TTV_MERGE_RANK_END;
}

/* The best of some leaves of a small merge, and the runner-up: the best of
 * the others. */
typedef struct {
  TtvTime time, second_time;
  guint index, second_index;
} TtvMergeBest;

/* The better of two neighbouring groups of leaves, @left's all before
 * @right's: a tie keeps the left one, the lower index.  The runner-up is
 * the best of the one that lost and the winning side's own runner-up. */
G_ALWAYS_INLINE static inline TtvMergeBest
ttv_merge_best_of (TtvMergeBest left, TtvMergeBest right)
{
  TtvMergeBest b;
  gboolean right_wins = right.time < left.time;
  /* The candidates for second place, the lower index first. */
  TtvTime lo_t = right_wins ? left.time : left.second_time;
  guint lo_i = right_wins ? left.index : left.second_index;
  TtvTime hi_t = right_wins ? right.second_time : right.time;
  guint hi_i = right_wins ? right.second_index : right.index;
  gboolean hi_second = hi_t < lo_t;
  b.time = right_wins ? right.time : left.time;
  b.index = right_wins ? right.index : left.index;
  b.second_time = hi_second ? hi_t : lo_t;
  b.second_index = hi_second ? hi_i : lo_i;
  return b;
}

/* The smallest of @time[0..size) (size a power of two, a constant where
 * inlined) and, among equal ones, the lowest index, with the runner-up:
 * pairs of neighbours first, then pairs of pairs.  With a single leaf the
 * runner-up is TTV_TIME_MAX (no other stream). */
G_ALWAYS_INLINE static inline TtvMergeBest
ttv_merge_small_best (const TtvTime *time, guint size)
{
  TtvMergeBest b[TTV_MERGE_SMALL];
  for (guint i = 0; i < size; i++)
    {
      b[i].time = time[i];
      b[i].index = i;
      b[i].second_time = TTV_TIME_MAX;
      b[i].second_index = i;
    }
  for (guint half = size / 2; half > 0; half /= 2)
    for (guint i = 0; i < half; i++)
      b[i] = ttv_merge_best_of (b[2 * i], b[2 * i + 1]);
  return b[0];
}

/* Small: the bound of ttv_merge_stays() for winner @w against runner-up
 * @b.  A runner-up at TTV_TIME_MAX may be a stream past its end or one
 * whose event is at TTV_TIME_MAX: the winner then stays only below
 * TTV_TIME_MAX, and an event at TTV_TIME_MAX takes the full step (which
 * looks at live).  Below TTV_TIME_MAX the runner-up has an event, and a
 * tie with it goes to the lower index. */
G_ALWAYS_INLINE static inline TtvTime
ttv_merge_small_stay_below (guint w, const TtvMergeBest *b)
{
  if (b->second_time == TTV_TIME_MAX)
    return TTV_TIME_MAX;
  return w < b->second_index ? b->second_time + 1 : b->second_time;
}

/* Small: stream @w now has time @t (TTV_TIME_MAX past its end); finds the
 * winner again among @size leaves (a constant where inlined). */
G_ALWAYS_INLINE static inline void
ttv_merge_small_set (TtvMerge *m, guint w, TtvTime t, guint size)
{
  m->time[w] = t;
  TtvMergeBest b = ttv_merge_small_best (m->time, size);
  w = b.index;
  /* Every stream left is at TTV_TIME_MAX or past its end: the lowest one
   * with an event wins. */
  if (G_UNLIKELY (b.time == TTV_TIME_MAX))
    w = m->live ? (guint) g_bit_nth_lsf (m->live, -1) : 0;
  m->winner = w;
  m->stay_below = ttv_merge_small_stay_below (w, &b);
}

/* Small: ttv_merge_small_set() with its size a constant: one jump on the
 * size (a tree takes the default) where there would be two.  FALSE for a
 * tree. */
G_ALWAYS_INLINE static inline gboolean
ttv_merge_small_set_any (TtvMerge *m, guint w, TtvTime t)
{
  switch (m->small)
    {
    case 1:
      ttv_merge_small_set (m, w, t, 1);
      return TRUE;
    case 2:
      ttv_merge_small_set (m, w, t, 2);
      return TRUE;
    case 4:
      ttv_merge_small_set (m, w, t, 4);
      return TRUE;
    case TTV_MERGE_SMALL:
      ttv_merge_small_set (m, w, t, TTV_MERGE_SMALL);
      return TRUE;
    default:
      return FALSE;
    }
}

static inline guint
ttv_merge_winner (const TtvMerge *m)
{
  return m->winner;
}

/* The next key of any stream other than the winner is one of the losers on
 * the winner's leaf-to-root path (each is the best of a sibling subtree),
 * so the smallest of them bounds how long the winner stays the oldest. */
static inline void
ttv_merge_update_limit (TtvMerge *m)
{
  TtvMergeKey w = m->node[0];
  TtvMergeKey best = TTV_MERGE_KEY (TTV_TIME_MAX, 4 * TTV_MERGE_RANK_END);
  for (guint i = (m->winner + m->size) >> 1; i > 0; i >>= 1)
    best = TTV_MERGE_KEY_LESS (m->node[i], best) ? m->node[i] : best;
  TtvTime bt = TTV_MERGE_KEY_TIME (best);
  if (TTV_MERGE_KEY_RANK (w) >= TTV_MERGE_RANK_END)
    m->limit = TTV_TIME_MIN;            /* all at end: nothing advances */
  else if (TTV_MERGE_KEY_RANK (w) < TTV_MERGE_KEY_RANK (best))
    m->limit = bt;
  else
    m->limit = bt - 1;                  /* bt > the winner's time >= TTV_TIME_MIN */
}

/* The winner's stream got key @k: replays its matches up to the root. */
G_ALWAYS_INLINE static inline void
ttv_merge_replay (TtvMerge *m, TtvMergeKey k)
{
  for (guint i = (m->winner + m->size) >> 1; i > 0; i >>= 1)
    {
      TtvMergeKey n = m->node[i];
      gboolean swap = TTV_MERGE_KEY_LESS (n, k);
      m->node[i] = swap ? k : n;
      k = swap ? n : k;
    }
  m->node[0] = k;
  m->winner = (guint) (TTV_MERGE_KEY_RANK (k) & G_MAXUINT32);
}

void     ttv_merge_adapt (TtvMerge *m);

/* Small: TRUE when the winner's next event, at @t, is still before every
 * other stream's (in (time, index) order), so that the merge stays as it
 * is; always FALSE in a tree. */
static inline gboolean
ttv_merge_stays (const TtvMerge *m, TtvTime t)
{
  return t < m->stay_below;
}

/* The winner's next event has time @t. */
G_ALWAYS_INLINE static inline void
ttv_merge_advance (TtvMerge *m, TtvTime t)
{
  if (G_LIKELY (ttv_merge_stays (m, t)))
    return;
  if (G_LIKELY (ttv_merge_small_set_any (m, m->winner, t)))
    return;
  TtvMergeKey k = TTV_MERGE_KEY (t, m->winner);
  if (m->fast)
    {
      if (G_LIKELY (t <= m->limit))
        {
          m->node[0] = k;
          m->stays++;
        }
      else
        {
          ttv_merge_replay (m, k);
          ttv_merge_update_limit (m);
        }
    }
  else
    {
      guint before = m->winner;
      ttv_merge_replay (m, k);
      m->stays += m->winner == before;
    }
  if (G_UNLIKELY (++m->window == TTV_MERGE_WINDOW))
    ttv_merge_adapt (m);
}

/* The winner's stream has no more events. */
static inline void
ttv_merge_advance_end (TtvMerge *m)
{
  if (m->small)
    {
      m->live &= ~(1u << m->winner);
      ttv_merge_small_set_any (m, m->winner, TTV_TIME_MAX);
      return;
    }
  ttv_merge_replay (m, TTV_MERGE_KEY (TTV_TIME_MAX, TTV_MERGE_RANK_END | m->winner));
  ttv_merge_update_limit (m);
}

G_END_DECLS
