/* ttv-process-names.h: the names each process row of a state history had,
 * in order (its name at birth, then one per exec that changed it), found
 * in a worker thread; the control flow labels and searches them. */
#pragma once

#include "ttv-viewer.h"

G_BEGIN_DECLS

/* Reads the exec and fork marks of every process row of @history (a
 * reference is held) in a thread. */
void        ttv_process_names_run_async (TtvViewerHistory *history, GCancellable *cancellable,
                                         GAsyncReadyCallback callback, gpointer user_data);
/* Per process row, its names oldest first (GStrv; NULL when it had only
 * its row's name); transfer full. */
GPtrArray  *ttv_process_names_run_finish (GAsyncResult *result, GError **error);

/* "bash → gcc", "sh → … → make" (the first and the last); @names may be
 * NULL: @name. */
char       *ttv_process_names_join (const char *const *names, const char *name);

G_END_DECLS
