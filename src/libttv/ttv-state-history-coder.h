/* ttv-state-history-coder.h: coding a state history's records while the
 * trace is read, in a second thread when there is one (see the .c). */
#pragma once

#include "ttv-state-history-private.h"

G_BEGIN_DECLS

typedef struct _TtvHistCoder TtvHistCoder;

/* Codes into @w (weak; used by the coding side only until the coder is
 * freed), writing coded blocks out beyond @max_memory bytes held.
 * @threaded FALSE: in the caller's thread. */
TtvHistCoder *ttv_hist_coder_new (TtvHistWriter *w, gsize max_memory, gboolean threaded);
/* Takes the pending records of @e (a block, or its last records when
 * @finish: the encoder is then finished). */
void          ttv_hist_coder_submit (TtvHistCoder *c, TtvHistEncoder *e, gboolean finish);
/* Waits until everything submitted is coded and written out, then frees. */
void          ttv_hist_coder_free (TtvHistCoder *c);

G_END_DECLS
