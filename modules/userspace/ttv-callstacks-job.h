/* ttv-callstacks-job.h: a userspace view's computation over the tab's call
 * stacks in the interval it describes (the flame graph's graph, the
 * functions view's rows), in a worker thread. */
#pragma once

#include "ttv-viewer.h"

#include <gio/gio.h>

G_BEGIN_DECLS

/* What @thread gets as its task data. */
typedef struct {
  TtvViewerCallstacks *cs;      /* owned reference */
  TtvTime t0, t1;               /* the selection, else the time window */
  GStrv machines;               /* owned: the machines' names with several, else NULL */
} TtvCallstacksJob;

/* Cancels the computation of *@building; then, when there are call stacks
 * @cs, runs @thread on them over @state's interval under a new *@building,
 * @done getting a reference to @view as its data, which it releases. */
void        ttv_callstacks_job_run (GCancellable **building, gpointer view, TtvTabState *state,
                                    TtvViewerCallstacks *cs, GTaskThreadFunc thread, GAsyncReadyCallback done);

G_END_DECLS
