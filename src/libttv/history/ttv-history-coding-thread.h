/* ttv-history-coding-thread.h: coding a state history's records while the
 * trace is read, in a second thread when there is one (see the .c). */
#pragma once

#include "ttv-history-private.h"

G_BEGIN_DECLS

typedef struct _TtvHistCoder TtvHistoryCoder;

/* Codes into @w (weak; used by the coding side only until the coder is
 * freed), writing coded blocks out beyond @max_memory bytes held.
 * @threaded FALSE: in the caller's thread. */
TtvHistoryCoder *ttv_history_coder_new (TtvHistoryWriter *w, gsize max_memory, gboolean threaded);
/* Takes the pending records of @e (a block, or its last records when
 * @finish: the encoder is then finished). */
void          ttv_history_coder_submit (TtvHistoryCoder *c, TtvHistoryEncoder *e, gboolean finish);
/* A row that ended while the trace is read, written out whole: the
 * last records of @recs and of @marks (or NULL) submitted as
 * ttv_history_coder_submit (.., TRUE) does, then, once they are written
 * out, the row's region (ttv_history_row_region_plan: directories,
 * summary levels made from its records, their bins) after them, and
 * @row's offsets, n_levels and states_seen set.  @row must hold the rest
 * (n_recs, n_marks and end above all); it and both encoders are the
 * coder's until ttv_history_coder_done (@c, a ticket taken after this
 * call) says it is done with them. */
void          ttv_history_coder_finish_row (TtvHistoryCoder *c, TtvHistoryEncoder *recs,
                                            TtvHistoryEncoder *marks, TtvHistoryRow *row, gint64 origin);
/* The number the jobs submitted from now on are done under, for
 * ttv_history_coder_done. */
guint64       ttv_history_coder_ticket (const TtvHistoryCoder *c);
/* Whether every job submitted before the ticket @ticket was taken, and
 * under it, is done (and the coder holds none of their encoders or rows). */
gboolean      ttv_history_coder_done (TtvHistoryCoder *c, guint64 ticket);
/* Waits until everything submitted is coded and written out, then frees. */
void          ttv_history_coder_free (TtvHistoryCoder *c);

G_END_DECLS
