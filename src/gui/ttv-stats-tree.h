/* ttv-stats-tree.h: turns the engine's TtvStatistics into the immutable tree
 * of TtvViewerStatsNode that the statistics viewer shows (ttv-viewer.h). */
#pragma once

#include "ttv-statistics.h"
#include "ttv-traceset.h"
#include "ttv-viewer.h"

G_BEGIN_DECLS

/* A new node (reference count 1) with no children; @total/@min/@max -1
 * when not applicable. */
TtvViewerStatsNode *ttv_stats_node_new (const char *name, const char *key, guint64 count,
                                        TtvTime total, TtvTime min, TtvTime max);
/* The tree of @stats over @ts: root "Traceset" with groups per trace (and
 * its event types), CPU (events, busy time by mode, idle), process (events,
 * CPU time by mode), event type, syscall, IRQ and soft IRQ (with names). */
TtvViewerStatsNode *ttv_stats_tree_new (const TtvStatistics *stats, TtvTraceset *ts);

G_END_DECLS
