/* ttv-statistics.h: counts and durations over a traceset: events per type,
 * CPU and process; CPU time per process and execution mode; syscall, IRQ
 * and soft IRQ counts with total/min/max durations.  Fed by the state
 * (as its observer) and by every event; used by --stats and the viewer. */
#pragma once

#include "ttv-state.h"

G_BEGIN_DECLS

typedef struct {
  guint64 count;
  TtvTime total;
  TtvTime min;
  TtvTime max;
} TtvDurationStats;

typedef struct {
  guint32 pid;
  GQuark name;                       /* last name seen */
  guint64 events;
  TtvTime cpu_time[TTV_MODE_N];      /* indexed by TtvExecMode */
} TtvProcessStats;

typedef struct _TtvStatistics TtvStatistics;

/* @traces: the traceset's TtvTrace * (for event type names). */
TtvStatistics *ttv_statistics_new (GPtrArray *traces);
void           ttv_statistics_free (TtvStatistics *stats);

/* Call for every event, after the state has applied it. */
void           ttv_statistics_count_event (TtvStatistics *stats, guint trace_index,
                                           const TtvEvent *event, const TtvState *state);
/* Installs @stats as the observer of @state (CPU time and durations). */
void           ttv_statistics_observe (TtvStatistics *stats, TtvState *state);

guint64        ttv_statistics_get_n_events (const TtvStatistics *stats);
/* Events of event type @type_id in trace @trace_index. */
guint64        ttv_statistics_get_type_count (const TtvStatistics *stats, guint trace_index, guint type_id);
guint64        ttv_statistics_get_cpu_count (const TtvStatistics *stats, gint cpu);
/* Sorted by pid; elements owned by @stats. */
GPtrArray     *ttv_statistics_list_processes (const TtvStatistics *stats);
const TtvProcessStats *ttv_statistics_get_process (const TtvStatistics *stats, guint32 pid);
/* Keyed by syscall name; NULL if never seen. */
const TtvDurationStats *ttv_statistics_get_syscall (const TtvStatistics *stats, const char *name);
const TtvDurationStats *ttv_statistics_get_irq (const TtvStatistics *stats, guint32 irq, gboolean soft);

/* The statistics as aligned text tables (ttv-report --stats). */
void           ttv_statistics_append_text (const TtvStatistics *stats, GString *out);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvStatistics, ttv_statistics_free)

G_END_DECLS
