/* ttv-merge-private.h: the k-way merge of the traceset context, in (time,
 * stream index) order: ties go to the lowest stream index, and a stream at
 * its end loses to every event, even one at TTV_TIME_MAX.  Up to
 * TTV_MERGE_SMALL streams, the streams' keys in order, the winner's moved
 * down among them whenever another stream wins, and a single comparison
 * with the runner-up while it does not; above, a loser tree with a fast
 * path while one stream stays the oldest.  Either way winner is the stream of the next event
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

/* With this many streams or fewer, the streams' keys kept in order and the
 * winner's new key moved down among them when another stream wins costs
 * fewer instructions than replaying a loser tree and deciding between its
 * modes, and than the tournament over all the streams' times it replaced
 * (4 streams: about 40 against 60): the winner usually falls behind one or
 * two streams only. */
#define TTV_MERGE_SMALL 8

typedef struct {
  guint n;                      /* streams */
  guint size;                   /* tree: leaves, a power of two >= max (n, 1) */
  guint winner;                 /* the stream of the next event (of node[0] in a tree) */
  gboolean small;               /* n <= TTV_MERGE_SMALL: order, no tree */
  /* Small: the winner stays the winner while its next time is below this,
   * the runner-up's time (+ 1 when the winner's index is the lower one):
   * see ttv_merge_stays().  TTV_TIME_MIN in a tree, so that no time does. */
  TtvTime stay_below;
  /* Small: every stream's key, in order: order[0] the winner's, order[1]
   * the runner-up's, and order[n] a sentinel above every key, which ends
   * the walk of ttv_merge_small_step() without a bound check.  The
   * winner's entry is not written while it stays the winner (its time is
   * the caller's); every step that moves it writes it. */
  TtvMergeKey order[TTV_MERGE_SMALL + 1];
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

/* Above every key, even a padding leaf's: the end of a small merge's order. */
#define TTV_MERGE_KEY_SENTINEL TTV_MERGE_KEY (TTV_TIME_MAX, 4 * TTV_MERGE_RANK_END)

static inline gboolean
ttv_merge_at_end (const TtvMerge *m)
{
  return TTV_MERGE_KEY_RANK (m->small ? m->order[0] : m->node[0]) >= TTV_MERGE_RANK_END;
}

/* Small: order[0] is the winner's key; the winner and the bound of
 * ttv_merge_stays() against the runner-up, order[1].  A runner-up at
 * TTV_TIME_MAX may be a stream past its end (or the sentinel, with one
 * stream) or one whose event is at TTV_TIME_MAX: the winner then stays
 * only below TTV_TIME_MAX, and an event at TTV_TIME_MAX takes the full
 * step.  Below TTV_TIME_MAX the runner-up has an event, and a tie with it
 * goes to the lower index. */
G_ALWAYS_INLINE static inline void
ttv_merge_small_set_winner (TtvMerge *m)
{
  guint w = (guint) (TTV_MERGE_KEY_RANK (m->order[0]) & G_MAXUINT32);
  TtvTime second = TTV_MERGE_KEY_TIME (m->order[1]);
  m->winner = w;
  if (second == TTV_TIME_MAX)
    m->stay_below = TTV_TIME_MAX;
  else
    m->stay_below = w < TTV_MERGE_KEY_RANK (m->order[1]) ? second + 1 : second;
}

/* Small: the winner's key becomes @k, which may be behind other streams'
 * keys: it moves down past every key below it, and the stream of the new
 * order[0] wins.  Keys are unique (their rank holds the stream's index),
 * so the order is the one of (time, index). */
G_ALWAYS_INLINE static inline void
ttv_merge_small_step (TtvMerge *m, TtvMergeKey k)
{
  TtvMergeKey *o = m->order;
  while (TTV_MERGE_KEY_LESS (o[1], k))
    {
      o[0] = o[1];
      o++;
    }
  o[0] = k;
  ttv_merge_small_set_winner (m);
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

/* The winner's next event has time @t, and ttv_merge_stays() said no:
 * another stream may win now. */
G_ALWAYS_INLINE static inline void
ttv_merge_step (TtvMerge *m, TtvTime t)
{
  TtvMergeKey k = TTV_MERGE_KEY (t, m->winner);
  if (G_LIKELY (m->small))
    {
      ttv_merge_small_step (m, k);
      return;
    }
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

/* The winner's next event has time @t. */
G_ALWAYS_INLINE static inline void
ttv_merge_advance (TtvMerge *m, TtvTime t)
{
  if (G_LIKELY (ttv_merge_stays (m, t)))
    return;
  ttv_merge_step (m, t);
}

/* The winner's stream has no more events. */
static inline void
ttv_merge_advance_end (TtvMerge *m)
{
  TtvMergeKey k = TTV_MERGE_KEY (TTV_TIME_MAX, TTV_MERGE_RANK_END | m->winner);
  if (m->small)
    {
      ttv_merge_small_step (m, k);
      return;
    }
  ttv_merge_replay (m, k);
  ttv_merge_update_limit (m);
}

G_END_DECLS
