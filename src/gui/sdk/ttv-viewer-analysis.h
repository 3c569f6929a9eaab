/* ttv-viewer-analysis.h: what the tab's background passes found, as viewer
 * modules read it: the event count and density (first read), the system
 * state and the statistics (state pass), the state history (third pass).
 * The types here are the SDK's own: the host fills them, whatever its
 * internals look like.  Part of the installed SDK: include ttv-viewer.h. */
#pragma once

#include "ttv-viewer-request.h"
#include "ttv-viewer-types.h"

G_BEGIN_DECLS

/* --- Event count and density ("density-ready") ------------------------------------ */

/* Events counted by the first read so far (0 while unknown); *@complete
 * (may be NULL) tells whether the read is done. */
guint64     ttv_tab_state_get_event_count (TtvTabState *state, gboolean *complete);
/* Events per bin over the traceset span; NULL until the first read
 * finished.  @event_name: NULL for every event, else one "facility.event"
 * name (all traces).  Transfer full (of guint32).  The bins are of equal
 * width, but the long idle gaps between far-apart traces are left out of
 * them (ttv-viewer-time-scale.h): a bin's times are given below. */
GArray     *ttv_tab_state_dup_density (TtvTabState *state, const char *event_name);
/* The first time of density bin @bin (the number of bins: the span's end;
 * SDK 13); a bin holds the events from its start up to the next bin's. */
TtvTime     ttv_tab_state_get_density_bin_start (TtvTabState *state, guint bin);
/* The density bin of an event at @time (SDK 13). */
guint       ttv_tab_state_get_density_bin_of (TtvTabState *state, TtvTime time);
/* The names ttv_tab_state_dup_density() knows, sorted; transfer full. */
GStrv       ttv_tab_state_dup_density_names (TtvTabState *state);

/* --- System state ("state-ready") ---------------------------------------------------
 * Checkpoints of the kernel state made by the state pass.  Main thread only. */

gboolean    ttv_tab_state_is_state_ready (TtvTabState *state);
/* The process running on @cpu after every event whose time is <= @time;
 * FALSE (info->pid = TTV_VIEWER_PID_NONE) when unknown or not ready. */
gboolean    ttv_tab_state_get_process_at (TtvTabState *state, TtvTime time, gint cpu,
                                          TtvViewerProcessInfo *info);

/* --- Statistics ("state-ready") --------------------------------------------------------
 * An immutable tree, safe to read from any thread while referenced: per
 * trace, per CPU, per process (events; CPU time per mode as children), per
 * event type, per syscall, IRQ and soft IRQ (count, total/min/max
 * duration). */

TtvViewerStatsNode *ttv_viewer_stats_node_ref (TtvViewerStatsNode *node);
void        ttv_viewer_stats_node_unref (TtvViewerStatsNode *node);
/* "CPU 0", "bash", "read", "user". */
const char *ttv_viewer_stats_node_get_name (const TtvViewerStatsNode *node);
/* A stable id for tests and files: "cpu/0", "process/42/user", "syscall/read". */
const char *ttv_viewer_stats_node_get_key (const TtvViewerStatsNode *node);
/* Events, or calls for syscalls and IRQs; 0: not applicable. */
guint64     ttv_viewer_stats_node_get_count (const TtvViewerStatsNode *node);
/* Durations in ns (CPU time for processes); -1: not applicable. */
TtvTime     ttv_viewer_stats_node_get_total (const TtvViewerStatsNode *node);
TtvTime     ttv_viewer_stats_node_get_min (const TtvViewerStatsNode *node);
TtvTime     ttv_viewer_stats_node_get_max (const TtvViewerStatsNode *node);
guint       ttv_viewer_stats_node_get_n_children (const TtvViewerStatsNode *node);
/* Borrowed from @node. */
TtvViewerStatsNode *ttv_viewer_stats_node_get_child (const TtvViewerStatsNode *node, guint index);

/* The whole traceset's statistics (borrowed; NULL until the state is
 * ready; replaced, never changed, when the pass runs again). */
TtvViewerStatsNode *ttv_tab_state_get_statistics (TtvTabState *state);
/* Statistics of the events with start <= time <= end, computed in a worker
 * thread: from the state at @start once the state is ready, else by a
 * replay from the start of the traceset. */
void        ttv_tab_state_compute_statistics_async (TtvTabState *state, TtvTime start, TtvTime end,
                                                    GCancellable *cancellable,
                                                    GAsyncReadyCallback callback, gpointer user_data);
/* Transfer full: ttv_viewer_stats_node_unref(). */
TtvViewerStatsNode *ttv_tab_state_compute_statistics_finish (TtvTabState *state, GAsyncResult *result,
                                                             GError **error);
/* The same, computed here and now (a render has nothing else to do). */
TtvViewerStatsNode *ttv_tab_state_compute_statistics (TtvTabState *state, TtvTime start, TtvTime end,
                                                      GCancellable *cancellable, GError **error);

/* --- State history ("history-changed") ---------------------------------------------------
 * Per process, CPU, IRQ, soft IRQ and block device: rows of state intervals,
 * marks and a multi-resolution summary, so that a view draws any zoom in
 * O(pixels).  Immutable: queries are safe from any thread while a reference
 * is held; strings it gives live as long as it does. */

typedef enum {
  TTV_VIEWER_ROW_PROCESS,
  TTV_VIEWER_ROW_CPU,
  TTV_VIEWER_ROW_IRQ,
  TTV_VIEWER_ROW_SOFTIRQ,
  TTV_VIEWER_ROW_BLOCKDEV,
  TTV_VIEWER_ROW_N_KINDS
} TtvViewerRowKind;

/* A "visual state" (16 bits): what a row is doing, as drawn.  Process rows:
 * a TtvViewerProcessStatus in bits 0-3 and, when it is RUN, the
 * TtvViewerExecMode in bits 4-7.  CPU rows: a TtvViewerCpuClass in bits
 * 0-3, the running task's mode in bits 4-7.  IRQ and soft IRQ rows: 1
 * active, 0 not; block devices: 1 busy, 0 idle.  TTV_VIEWER_STATE_NONE: no
 * row there. */
#define TTV_VIEWER_STATE_NONE 0xffffu

typedef enum {
  TTV_VIEWER_PROCESS_UNNAMED,     /* known by pid only, before any name was seen */
  TTV_VIEWER_PROCESS_WAIT_FORK,   /* forked, not yet run */
  TTV_VIEWER_PROCESS_WAIT_CPU,    /* runnable, waiting for a CPU */
  TTV_VIEWER_PROCESS_RUN,
  TTV_VIEWER_PROCESS_WAIT,        /* blocked */
  TTV_VIEWER_PROCESS_ZOMBIE,      /* exited, not yet reaped */
  TTV_VIEWER_PROCESS_EXIT,        /* exiting (between exit and last switch away) */
  TTV_VIEWER_PROCESS_DEAD,        /* freed */
} TtvViewerProcessStatus;

typedef enum {
  TTV_VIEWER_MODE_UNKNOWN,
  TTV_VIEWER_MODE_USER,
  TTV_VIEWER_MODE_SYSCALL,
  TTV_VIEWER_MODE_TRAP,
  TTV_VIEWER_MODE_IRQ,
  TTV_VIEWER_MODE_SOFTIRQ,
} TtvViewerExecMode;

typedef enum {
  TTV_VIEWER_CPU_UNKNOWN,         /* running task not known yet */
  TTV_VIEWER_CPU_IDLE,            /* pid 0 */
  TTV_VIEWER_CPU_BUSY,
} TtvViewerCpuClass;

/* The status, CPU class or active flag of a visual state. */
static inline guint
ttv_viewer_state_low (guint16 state)
{
  return state & 0xfu;
}

/* The execution mode of a running process's or busy CPU's visual state. */
static inline TtvViewerExecMode
ttv_viewer_state_mode (guint16 state)
{
  return (TtvViewerExecMode) ((state >> 4) & 0xfu);
}

typedef struct {
  TtvViewerRowKind kind;
  guint32 id;              /* pid, CPU, IRQ or soft IRQ number, block device */
  gint cpu;                /* process rows: the CPU of a pid 0 (idle task) row, else -1 */
  guint32 tgid;            /* process rows (else 0) */
  guint32 ppid;            /* process rows: TTV_VIEWER_PID_NONE when unknown */
  guint machine;           /* the machine it belongs to (0 .. n_machines - 1) */
  const char *name;        /* the last name (process, IRQ, soft IRQ, device), or NULL */
  TtvTime birth;           /* fork time, or when the row first appeared */
  TtvTime end;             /* end of its last interval (death, or the trace's end) */
  gboolean dead;           /* the task was freed at @end */
  /* Bit k set: some interval of the row has a state whose
   * ttv_viewer_state_low () is k (a row whose whole life lies in a
   * window is busy there, or not, without reading its intervals). */
  guint32 states_seen;
  TtvTime cpu_time;        /* process rows: time running */
  guint64 n_events;        /* events attributed to the row */
  guint64 n_intervals;     /* stored records (intervals may be split) */
  guint64 n_marks;
} TtvViewerRowInfo;

typedef struct {
  TtvTime start;           /* [start, end) */
  TtvTime end;
  guint16 state;           /* visual state (see above) */
  gint16 cpu;              /* process rows: the CPU it is on or last ran on, -1 unknown */
  guint32 aux;             /* process rows, when running: the top frame's id (a syscall:
                            * see ttv_viewer_history_get_syscall_name(); a trap, IRQ or
                            * soft IRQ number); CPU rows: the running pid
                            * (TTV_VIEWER_PID_NONE unknown); IRQs: nesting count; block
                            * devices: pending requests */
  guint64 n_events;        /* events of the row in the interval */
} TtvViewerInterval;

typedef enum {
  TTV_VIEWER_MARK_FORK,    /* other: the parent */
  TTV_VIEWER_MARK_EXEC,    /* name: the new name */
  TTV_VIEWER_MARK_EXIT,
  TTV_VIEWER_MARK_WAKEUP,  /* other: the waker (what ran on the event's CPU) */
} TtvViewerMarkKind;

typedef struct {
  TtvTime time;
  TtvViewerMarkKind kind;
  guint32 other;           /* a pid, TTV_VIEWER_PID_NONE when unknown */
  const char *name;        /* exec: the new name, else NULL */
  gint cpu;                /* wakeup: the CPU the waker ran on (other 0: that
                            * CPU's idle task); else -1 (unknown) */
} TtvViewerMark;

typedef struct {
  guint16 state;           /* the state covering most of the pixel, TTV_VIEWER_STATE_NONE if none */
  guint16 n_states;        /* 1: one state over the pixel; more: it changed within */
  guint32 n_events;
} TtvViewerPixel;

/* Transfer full (ttv_viewer_history_unref), NULL while not built. */
TtvViewerHistory *ttv_tab_state_dup_history (TtvTabState *state);
TtvViewerHistory *ttv_viewer_history_ref (TtvViewerHistory *history);
void        ttv_viewer_history_unref (TtvViewerHistory *history);
guint       ttv_viewer_history_get_n_rows (TtvViewerHistory *history, TtvViewerRowKind kind);
/* Rows of a kind are sorted by machine, then id (process rows: pid, then
 * birth).  Borrowed from @history; NULL when @row is out of range. */
const TtvViewerRowInfo *ttv_viewer_history_get_row (TtvViewerHistory *history,
                                                    TtvViewerRowKind kind, guint row);
/* The machines of the traceset (docs/multi-machine.md), at least 1: every
 * row is of one (TtvViewerRowInfo.machine); pid 5 of one machine is
 * another row than pid 5 of another. */
guint       ttv_viewer_history_get_n_machines (TtvViewerHistory *history);
/* A machine's name (its host name, else its first trace's name), for
 * labels; borrowed, never NULL. */
const char *ttv_viewer_history_get_machine_name (TtvViewerHistory *history, guint machine);
/* The row of @kind with @id on @machine existing at @time (process rows:
 * that life of the pid; pid 0: the idle task of CPU @cpu, ignored
 * otherwise), or -1. */
gint        ttv_viewer_history_find_row (TtvViewerHistory *history, TtvViewerRowKind kind,
                                         guint machine, guint32 id, gint cpu, TtvTime time);
/* The process row of @pid on @machine at @time (pid 0: the idle task of
 * CPU @cpu), else the pid's first row there (a task the trace knew before
 * its row began, at the trace's start); -1 when none. */
gint        ttv_viewer_history_find_process (TtvViewerHistory *history, guint machine, guint32 pid,
                                             gint cpu, TtvTime time);
/* The interval of a row containing @time; FALSE when the row does not exist then. */
gboolean    ttv_viewer_history_get_interval_at (TtvViewerHistory *history, TtvViewerRowKind kind,
                                                guint row, TtvTime time, TtvViewerInterval *out);
/* The intervals of a row overlapping [@t0, @t1], of TtvViewerInterval;
 * transfer full. */
GArray     *ttv_viewer_history_query_intervals (TtvViewerHistory *history, TtvViewerRowKind kind,
                                                guint row, TtvTime t0, TtvTime t1);
/* For each of @width pixels splitting [@t0, @t1) evenly, into @out: the
 * dominant state and the events of the row.  O(@width) at any zoom; returns
 * the number of stored cells read (for tests and benchmarks). */
guint64     ttv_viewer_history_query_pixels (TtvViewerHistory *history, TtvViewerRowKind kind,
                                             guint row, TtvTime t0, TtvTime t1, guint width,
                                             TtvViewerPixel *out);
/* The marks of process row @row in [@t0, @t1], of TtvViewerMark; transfer full. */
GArray     *ttv_viewer_history_query_marks (TtvViewerHistory *history, guint row, TtvTime t0,
                                            TtvTime t1);
/* The syscall name of a running interval's @aux, or NULL. */
const char *ttv_viewer_history_get_syscall_name (guint32 aux);

/* Process names over time, as the kernel gives them: a child starts with
 * its parent's name at the fork, each exec names it anew; the row's own
 * name is its last. */

/* The name process row @row had at @time (borrowed from @history), or NULL. */
const char *ttv_viewer_history_get_process_name_at (TtvViewerHistory *history, guint row,
                                                    TtvTime time);
/* Every name process row @row had, oldest first, without repeats; NULL
 * when it had one name only (its row's).  Transfer full. */
GStrv       ttv_viewer_history_dup_process_names (TtvViewerHistory *history, guint row);
/* The same for every process row at once (what a view labels its rows
 * with: a pass over every row's marks, meant for a worker thread): of
 * NULL-terminated lists of names (const char *const *; NULL entries: one
 * name), indexed by row; NULL with @error (G_IO_ERROR_CANCELLED) when
 * @cancellable was cancelled.  The lists are shared between rows and
 * stay for the program's life, as interned strings do: the array owns
 * none of them (never free one). */
GPtrArray  *ttv_viewer_history_dup_all_process_names (TtvViewerHistory *history,
                                                      GCancellable *cancellable, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvViewerStatsNode, ttv_viewer_stats_node_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvViewerHistory, ttv_viewer_history_unref)

G_END_DECLS
