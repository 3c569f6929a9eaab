/* ttv-statistics.h: counts and durations over a traceset or an interval:
 * events per type, CPU and process; CPU time per CPU (busy by mode, idle)
 * and per process and mode; syscall, IRQ and soft IRQ counts with
 * total/min/max durations.  Fed by the state (as its observer) and by every
 * event; used by ttv-report --stats and the statistics viewer. */
#pragma once

#include "ttv-state.h"

G_BEGIN_DECLS

typedef struct {
  guint64 count;
  TtvTime total;
  TtvTime min;
  TtvTime max;
} TtvDurationStats;

/* CPU time is what ran between two state changes of a CPU.  The idle task
 * (pid 0) in its base mode is the CPU's idle time, not a process's: its
 * interrupts are busy time, of the CPU and of process 0. */
typedef struct {
  guint32 pid;
  guint machine;                     /* the machine it runs on (docs/multi-machine.md) */
  GQuark name;                       /* last name seen */
  guint64 events;
  TtvTime cpu_time[TTV_MODE_N];      /* indexed by TtvExecMode */
} TtvProcessStats;

typedef struct {
  gint cpu;                          /* -1: the events of tracefiles without a CPU */
  guint machine;                     /* the machine it belongs to */
  guint64 events;
  TtvTime busy[TTV_MODE_N];          /* what ran, by its mode (indexed by TtvExecMode) */
  TtvTime idle;                      /* the idle task in its base mode */
} TtvCpuStats;

typedef enum {
  TTV_DURATION_SYSCALL,
  TTV_DURATION_IRQ,
  TTV_DURATION_SOFTIRQ,
} TtvDurationKind;

typedef struct {
  guint32 id;                        /* syscall: the GQuark of its name; IRQ, soft IRQ: number */
  const char *name;                  /* syscall name; IRQ or soft IRQ name, NULL when unknown */
  const TtvDurationStats *stats;     /* borrowed from the statistics */
} TtvDurationEntry;

typedef struct _TtvStatistics TtvStatistics;

/* @traces: the traceset's TtvTrace * (for event type names). */
TtvStatistics *ttv_statistics_new (GPtrArray *traces);
void           ttv_statistics_free (TtvStatistics *stats);

/* Call for every event, after the state has applied it. */
void           ttv_statistics_count_event (TtvStatistics *stats, guint trace_index,
                                           const TtvEvent *event, const TtvState *state);
/* Installs @stats as the observer of @state (CPU time and durations). */
void           ttv_statistics_observe (TtvStatistics *stats, TtvState *state);

/* Statistics of an interval: CPU time before @start is not counted, nor
 * durations that end before it (a syscall that began before @start and
 * ends after it counts whole). */
void           ttv_statistics_set_start (TtvStatistics *stats, TtvTime start);
/* Counts, up to @end, the CPU time of what still runs in @state (the
 * stretches its CPUs have not ended yet).  Call once the events up to @end
 * are counted; CPU time before @end is not counted again afterwards. */
void           ttv_statistics_account_until (TtvStatistics *stats, const TtvState *state, TtvTime end);
/* The span the CPU times cover: from the start (set, or the first event
 * counted) to the last account_until() (or the last event counted).
 * FALSE when nothing was counted. */
gboolean       ttv_statistics_get_time_range (const TtvStatistics *stats, TtvTime *start, TtvTime *end);

guint64        ttv_statistics_get_n_events (const TtvStatistics *stats);
/* Events of event type @type_id in trace @trace_index. */
guint64        ttv_statistics_get_type_count (const TtvStatistics *stats, guint trace_index, guint type_id);
/* Machines: CPUs and processes are kept per machine of the traceset (the
 * numbering of ttv_traces_number_machines); durations are for all. */
guint          ttv_statistics_get_n_machines (const TtvStatistics *stats);
const char    *ttv_statistics_get_machine_name (const TtvStatistics *stats, guint machine);
/* Events of CPU @cpu on every machine, on one machine. */
guint64        ttv_statistics_get_cpu_count (const TtvStatistics *stats, gint cpu);
guint64        ttv_statistics_get_machine_cpu_count (const TtvStatistics *stats, guint machine, gint cpu);
/* The CPUs with events or CPU time, by machine then CPU id (-1 first);
 * elements owned by @stats. */
GPtrArray     *ttv_statistics_list_cpus (const TtvStatistics *stats);
/* By machine, then pid; elements owned by @stats. */
GPtrArray     *ttv_statistics_list_processes (const TtvStatistics *stats);
/* Process @pid of machine 0, of machine @machine. */
const TtvProcessStats *ttv_statistics_get_process (const TtvStatistics *stats, guint32 pid);
const TtvProcessStats *ttv_statistics_get_machine_process (const TtvStatistics *stats, guint machine,
                                                           guint32 pid);
/* Keyed by syscall name; NULL if never seen. */
const TtvDurationStats *ttv_statistics_get_syscall (const TtvStatistics *stats, const char *name);
const TtvDurationStats *ttv_statistics_get_irq (const TtvStatistics *stats, guint32 irq, gboolean soft);
/* Every syscall (by name), IRQ or soft IRQ (by number) seen: a GArray of
 * TtvDurationEntry, valid while @stats is not changed. */
GArray        *ttv_statistics_list_durations (const TtvStatistics *stats, TtvDurationKind kind);

/* Sums over the modes. */
TtvTime        ttv_process_stats_get_cpu_time (const TtvProcessStats *process);
TtvTime        ttv_cpu_stats_get_busy (const TtvCpuStats *cpu);

/* The statistics as aligned text tables (ttv-report --stats); times in
 * seconds with nanoseconds. */
void           ttv_statistics_append_text (const TtvStatistics *stats, GString *out);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvStatistics, ttv_statistics_free)

G_END_DECLS
