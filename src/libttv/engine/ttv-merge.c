/* ttv-merge.c: building the merge (keys in order or loser tree) behind the
 * traceset context's merged reading (ttv-context.c); the per-event steps
 * are inline in ttv-merge-private.h. */
#include "ttv-merge-private.h"

void
ttv_merge_init (TtvMerge *m, guint n)
{
  m->n = n;
  m->size = 1;
  while (m->size < n)
    m->size <<= 1;
  m->small = n <= TTV_MERGE_SMALL;
  /* No stream, or none built yet: at the end. */
  m->order[0] = TTV_MERGE_KEY (TTV_TIME_MAX, 2 * TTV_MERGE_RANK_END);
  for (guint i = 1; i <= TTV_MERGE_SMALL; i++)
    m->order[i] = TTV_MERGE_KEY_SENTINEL;
  m->node = NULL;
  if (!m->small)
    {
      m->node = g_new0 (TtvMergeKey, m->size);
      m->node[0] = TTV_MERGE_KEY (TTV_TIME_MAX, 2 * TTV_MERGE_RANK_END);
    }
  m->winner = 0;
  m->stay_below = TTV_TIME_MIN;
  m->limit = TTV_TIME_MIN;
  m->fast = TRUE;
  m->window = 0;
  m->stays = 0;
}

void
ttv_merge_clear (TtvMerge *m)
{
  g_clear_pointer (&m->node, g_free);
}

/* The keys sorted by insertion (there are a few), the sentinel after. */
static void
build_small (TtvMerge *m, const TtvMergeKey *keys)
{
  for (guint i = 0; i < m->n; i++)
    {
      guint j = i;
      for (; j > 0 && TTV_MERGE_KEY_LESS (keys[i], m->order[j - 1]); j--)
        m->order[j] = m->order[j - 1];
      m->order[j] = keys[i];
    }
  m->order[m->n] = TTV_MERGE_KEY_SENTINEL;
  if (m->n == 0)
    m->order[0] = TTV_MERGE_KEY (TTV_TIME_MAX, 2 * TTV_MERGE_RANK_END);
  ttv_merge_small_set_winner (m);
}

void
ttv_merge_build (TtvMerge *m, const TtvMergeKey *keys)
{
  if (m->small)
    {
      build_small (m, keys);
      return;
    }
  g_autofree TtvMergeKey *win = g_new (TtvMergeKey, 2 * m->size);
  for (guint i = 0; i < m->size; i++)
    win[m->size + i] = i < m->n ? keys[i] : TTV_MERGE_KEY (TTV_TIME_MAX, 2 * TTV_MERGE_RANK_END + i);
  for (guint i = m->size - 1; i > 0; i--)
    {
      TtvMergeKey a = win[2 * i], b = win[2 * i + 1];
      gboolean a_wins = TTV_MERGE_KEY_LESS (a, b);
      win[i] = a_wins ? a : b;
      m->node[i] = a_wins ? b : a;
    }
  m->node[0] = win[1];
  m->winner = (guint) (TTV_MERGE_KEY_RANK (win[1]) & G_MAXUINT32);
  ttv_merge_update_limit (m);
}

void
ttv_merge_adapt (TtvMerge *m)
{
  gboolean fast = m->stays >= TTV_MERGE_FAST_STAYS;
  if (fast && !m->fast)
    ttv_merge_update_limit (m);
  m->fast = fast;
  m->window = 0;
  m->stays = 0;
}
