/* ttv-stats-tree.h: turns the engine's TtvStatistics into the immutable tree
 * of TtvStatsNode that the statistics viewer shows (as TtvStatsNode,
 * ttv-viewer.h) and ttv-report --stats prints. */
#pragma once

#include "ttv-statistics.h"
#include "ttv-traceset.h"

G_BEGIN_DECLS

/* One node of the tree; immutable once built, so safe to read from any
 * thread.  Reference counted (g_atomic_rc_box). */
typedef struct _TtvStatsNode TtvStatsNode;
struct _TtvStatsNode {
  char *name;                /* owned: "CPU 0", "bash", "read", "user" */
  char *key;                 /* owned: stable id for tests and CSV: "cpu/0", "process/42/user" */
  guint64 count;             /* events, or calls for syscalls and IRQs; 0: n/a */
  TtvTime total;             /* durations in ns (CPU time for processes); -1: n/a */
  TtvTime min, max;          /* -1: n/a */
  GPtrArray *children;       /* of TtvStatsNode *, owned; never NULL */
};

TtvStatsNode *ttv_stats_node_ref (TtvStatsNode *node);
void        ttv_stats_node_unref (TtvStatsNode *node);

/* A new node (reference count 1) with no children; @total/@min/@max -1
 * when not applicable. */
TtvStatsNode *ttv_stats_node_new (const char *name, const char *key, guint64 count,
                                        TtvTime total, TtvTime min, TtvTime max);
/* The average of a duration (a node with a minimum: a syscall, an IRQ...):
 * total / count, rounded down; -1 for other nodes (the statistics view's
 * Average column). */
TtvTime     ttv_stats_node_get_average (const TtvStatsNode *node);
/* The tree of @stats over the whole of @ts: root "Traceset" with groups
 * per trace (and its event types), the events and the packets the tracer
 * lost (by trace and tracefile; only when it lost any), CPU (events, busy
 * time by mode, idle), process (events, CPU time by mode), event type,
 * syscall, IRQ and soft IRQ (with names). */
TtvStatsNode *ttv_stats_tree_new (const TtvStatistics *stats, TtvTraceset *ts);
/* The same for statistics of [@start, @end] (TTV_TIME_MIN, TTV_TIME_MAX:
 * the whole traceset; the losses counted are those
 * ttv_lost_range_in_interval() keeps), with the names of groups, CPUs,
 * modes and interrupts in the user's language (@translate, as the viewer
 * shows them) or as written (ttv-report, whose output does not change
 * with the language). */
TtvStatsNode *ttv_stats_tree_new_full (const TtvStatistics *stats, TtvTraceset *ts, TtvTime start,
                                       TtvTime end, gboolean translate);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvStatsNode, ttv_stats_node_unref)

G_END_DECLS
