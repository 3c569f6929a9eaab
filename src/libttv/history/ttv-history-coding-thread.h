/* ttv-history-coding-thread.h: coding a state history's records while the
 * trace is read, in a second thread when there is one (see the .c). */
#pragma once

#include "ttv-history-private.h"

G_BEGIN_DECLS

typedef struct _TtvHistCoder TtvHistoryCoder;

/* The summary of a row that ends while the trace is read, made by the
 * coding thread right after the row's last block, so that the reading
 * thread's share of the summaries at the end is smaller; held in memory
 * until the tail writes the bins where the row's levels go.  Filled by
 * the reading side: @n_recs, @origin, @end; by the coding side: the rest. */
typedef struct {
  guint64 n_recs;          /* of the row */
  gint64 origin;
  gint64 end;              /* of the row */
  gboolean made;           /* FALSE: left to the tail (over the memory bound) */
  TtvHistoryLevel levels[TTV_HISTORY_MAX_LEVELS];   /* offsets from @bins' start */
  guint n_levels;
  guint8 *bins;            /* in the coder's slab, or NULL (no levels) */
} TtvHistoryEarlySummary;

/* Codes into @w (weak; used by the coding side only until the coder is
 * freed), writing coded blocks out beyond @max_memory bytes held.
 * @threaded FALSE: in the caller's thread.  @summaries (weak): where the
 * early summaries' bins go, used by the coding side only until the coder
 * is freed. */
TtvHistoryCoder *ttv_history_coder_new (TtvHistoryWriter *w, gsize max_memory, gboolean threaded,
                                        TtvHistorySlab *summaries);
/* Takes the pending records of @e (a block, or its last records when
 * @finish: the encoder is then finished). */
void          ttv_history_coder_submit (TtvHistoryCoder *c, TtvHistoryEncoder *e, gboolean finish);
/* ttv_history_coder_submit (@c, @e, TRUE), then @s (not NULL) made from
 * @e's records once they are written out, when the coder has a thread of
 * its own and the summaries it holds stay within its memory bound; @s is
 * the caller's until the coder is freed. */
void          ttv_history_coder_finish_summarized (TtvHistoryCoder *c, TtvHistoryEncoder *e,
                                                   TtvHistoryEarlySummary *s);
/* Waits until everything submitted is coded and written out, then frees. */
void          ttv_history_coder_free (TtvHistoryCoder *c);

G_END_DECLS
