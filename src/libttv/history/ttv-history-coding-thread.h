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
/* Waits until everything submitted is coded and written out, then frees. */
void          ttv_history_coder_free (TtvHistoryCoder *c);

G_END_DECLS
