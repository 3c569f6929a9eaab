/* ttv-history.h: the state history of a traceset: per process, CPU,
 * IRQ, soft IRQ and block device, its state intervals, instant marks and a
 * multi-resolution summary.  Built in one read; the control flow and
 * resource views draw from it at any zoom in O(pixels). */
#pragma once

#include <gio/gio.h>

#include "ttv-state.h"
#include "ttv-traceset.h"

G_BEGIN_DECLS

typedef enum {
  TTV_HISTORY_ROW_PROCESS,
  TTV_HISTORY_ROW_CPU,
  TTV_HISTORY_ROW_IRQ,
  TTV_HISTORY_ROW_SOFTIRQ,
  TTV_HISTORY_ROW_BLOCKDEV,
  TTV_HISTORY_ROW_N_KINDS
} TtvHistoryRowKind;

/* A "visual state" (16 bits): what a row is doing, as drawn.
 * Process rows: TtvProcessStatus in bits 0-3, and when the status is RUN,
 * the TtvExecMode in bits 4-7.  CPU rows: TtvHistoryCpuClass in bits 0-3,
 * the running task's mode in bits 4-7.  IRQ / soft IRQ rows: 1 active, 0 not;
 * block devices: 1 busy, 0 idle.  TTV_HISTORY_STATE_NONE: no row there. */
#define TTV_HISTORY_STATE_NONE 0xffffu

typedef enum {
  TTV_HISTORY_CPU_UNKNOWN,  /* running task not known yet */
  TTV_HISTORY_CPU_IDLE,     /* pid 0 */
  TTV_HISTORY_CPU_BUSY,
} TtvHistoryCpuClass;

static inline guint
ttv_history_state_low (guint16 state)   /* status, CPU class, active flag */
{
  return state & 0xfu;
}

static inline TtvExecMode
ttv_history_state_mode (guint16 state)
{
  return (TtvExecMode) ((state >> 4) & 0xfu);
}

typedef struct {
  TtvHistoryRowKind kind;
  guint32 id;              /* pid, CPU, IRQ or soft IRQ number, block device */
  gint cpu;                /* process rows: the CPU of a pid 0 (idle) row, else -1 */
  guint32 tgid;            /* process rows (else 0) */
  guint32 ppid;            /* process rows: TTV_PID_NONE when unknown */
  guint machine;           /* the traceset's machine it belongs to
                            * (ttv_traceset_get_trace_machine()), 0 with one */
  const char *name;        /* last name (process, IRQ), or NULL */
  TtvTime birth;           /* fork time, or when the row first appeared */
  TtvTime end;             /* end of its last interval (death, or the trace's end) */
  gboolean dead;           /* the task was freed at @end */
  /* Bit k set: some interval of the row has a state whose
   * ttv_history_state_low () is k.  Whether a row ran in a window that
   * holds its whole life is then known without reading its intervals. */
  guint32 states_seen;
  TtvTime cpu_time;        /* process rows: time running */
  guint64 n_events;        /* events attributed to the row */
  guint64 n_intervals;     /* stored records (intervals may be split) */
  guint64 n_marks;
} TtvHistoryRowInfo;

typedef struct {
  TtvTime start;           /* [start, end) */
  TtvTime end;
  guint16 state;           /* visual state (see above) */
  gint16 cpu;              /* process rows: the CPU it is on or last ran on, -1 unknown */
  guint32 aux;             /* process rows, when running: the top frame's id (syscall:
                            * GQuark of its name; trap, IRQ, soft IRQ number);
                            * CPU rows: running pid (TTV_PID_NONE unknown);
                            * IRQs: nesting count; block devices: pending requests */
  guint64 n_events;        /* events of the row in the interval */
} TtvHistoryInterval;

typedef enum {
  TTV_HISTORY_MARK_FORK,   /* other: the parent */
  TTV_HISTORY_MARK_EXEC,   /* name: the new name */
  TTV_HISTORY_MARK_EXIT,
  TTV_HISTORY_MARK_WAKEUP, /* other: the waker (what ran on the event's CPU) */
} TtvHistoryMarkKind;

typedef struct {
  TtvTime time;
  TtvHistoryMarkKind kind;
  guint32 other;           /* pid, TTV_PID_NONE when unknown */
  const char *name;        /* exec: the new name, else NULL */
  gint cpu;                /* wakeup: the CPU the waker ran on; else -1 (unknown) */
} TtvHistoryMark;

typedef struct {
  guint16 state;           /* the state covering most of the pixel, TTV_HISTORY_STATE_NONE if none */
  guint16 n_states;        /* 1: one state over the pixel; more: it changed within */
  guint32 n_events;
} TtvHistoryPixel;

typedef struct {
  gsize max_memory;        /* bytes of coded history the builder buffers before
                            * writing them out (0: 8 MiB); the history itself
                            * goes to the cache file as it is built, so that
                            * memory stays bounded whatever the trace's size */
  gboolean no_cache;       /* never read nor write a cache file: the history
                            * stays in memory up to @max_memory, then goes on in
                            * an unlinked temporary file */
  const char *cache_dir;   /* NULL: $XDG_CACHE_HOME/ttv/history */
  guint64 cache_max_bytes; /* size cap of the cache directory, least recently
                            * used files evicted beyond it (0: $TTV_CACHE_MAX, else
                            * 2 GiB or a tenth of the free space when less) */
} TtvHistoryOptions;

typedef struct _TtvStateHistory TtvHistory;

/* Reads @ts once (or reuses a matching cache file).  @opt, @progress and
 * @cancel may be NULL. */
TtvHistory *ttv_history_build (TtvTraceset *ts, const TtvHistoryOptions *opt,
                                          void (*progress) (double fraction, gpointer data),
                                          gpointer progress_data, GCancellable *cancel,
                                          GError **error);
void             ttv_history_free (TtvHistory *h);

guint            ttv_history_get_n_rows (const TtvHistory *h, TtvHistoryRowKind kind);
/* Rows of a kind are sorted by machine, then id (process rows: pid, then
 * birth). */
const TtvHistoryRowInfo *ttv_history_get_row (const TtvHistory *h, TtvHistoryRowKind kind,
                                                    guint row);
/* Machines of the traceset it was built from (docs/multi-machine.md): at
 * least 1.  Processes, CPUs, IRQs, soft IRQs and block devices are rows of
 * one machine each; pid 5 of one machine is another row than pid 5 of
 * another. */
guint            ttv_history_get_n_machines (const TtvHistory *h);
/* The rows of @kind of @machine: [*first, *first + return value). */
guint            ttv_history_get_machine_rows (const TtvHistory *h, TtvHistoryRowKind kind,
                                               guint machine, guint *first);
/* The row of @kind with @id on @machine existing at @time (process rows:
 * that life of the pid; pid 0: the idle task of CPU @cpu, ignored
 * otherwise), or -1. */
gint             ttv_history_find_row (const TtvHistory *h, TtvHistoryRowKind kind, guint machine,
                                             guint32 id, gint cpu, TtvTime time);

/* Intervals of one row overlapping [t0, t1] (GArray of TtvHistoryInterval). */
GArray          *ttv_history_query_intervals (const TtvHistory *h, TtvHistoryRowKind kind,
                                                    guint row, TtvTime t0, TtvTime t1);
/* The interval of a row containing @time; FALSE when the row does not exist then. */
gboolean         ttv_history_get_interval_at (const TtvHistory *h, TtvHistoryRowKind kind,
                                                    guint row, TtvTime time, TtvHistoryInterval *out);
/* For each of @width pixels splitting [t0, t1) evenly, the dominant state and
 * the events of the row.  Costs O(@width) at any zoom; returns the number of
 * stored cells (intervals, summary bins) read, for tests and benches. */
guint64          ttv_history_query_pixels (const TtvHistory *h, TtvHistoryRowKind kind,
                                                 guint row, TtvTime t0, TtvTime t1, guint width,
                                                 TtvHistoryPixel *out);
/* Marks of a process row in [t0, t1] (GArray of TtvHistoryMark). */
GArray          *ttv_history_query_marks (const TtvHistory *h, guint row, TtvTime t0, TtvTime t1);

/* Heap bytes held; and bytes of the file it reads from (0 when it is in
 * memory).  A file is read a few KiB at a time, as queries need it: none
 * of it stays in the process's memory. */
gsize            ttv_history_get_memory (const TtvHistory *h);
gsize            ttv_history_get_mapped_size (const TtvHistory *h);
/* Bytes of the compact representation (intervals, marks, bins, rows). */
gsize            ttv_history_get_data_size (const TtvHistory *h);
guint64          ttv_history_get_n_events (const TtvHistory *h);
/* TRUE when it was loaded from a cache file instead of reading the trace. */
gboolean         ttv_history_is_from_cache (const TtvHistory *h);
/* The cache file it lives in or was written to, or NULL. */
const char      *ttv_history_get_cache_path (const TtvHistory *h);

const char      *ttv_history_row_kind_name (TtvHistoryRowKind kind);

/* Process names over time (ttv-history-names.c), as the kernel gives them:
 * a child starts with its parent's name at the fork, each exec names it
 * anew; a row's own name is its last. */

/* The process row of @pid of @machine at @time (pid 0: the idle task of
 * CPU @cpu), else the pid's first row there (its first life: a task the
 * trace knew before its row began); -1 when none. */
gint             ttv_history_find_process (const TtvHistory *h, guint machine, guint32 pid, gint cpu,
                                           TtvTime time);
/* The name process row @row had at @time (the history's string), or NULL. */
const char      *ttv_history_get_process_name_at (const TtvHistory *h, guint row, TtvTime time);
/* Every name process row @row had, oldest first, without repeats; NULL
 * when it had one name only (its row's). */
GStrv            ttv_history_dup_process_names (const TtvHistory *h, guint row);
/* The same for every process row, reading each row's marks once: of
 * NULL-terminated lists of names (const char *const *; NULL entries: one
 * name), which rows with the same names share and which stay for the
 * program's life, as interned strings do (the array does not own them:
 * never free one).  NULL with @error when @cancellable was cancelled.
 * Safe from any thread. */
GPtrArray       *ttv_history_dup_all_process_names (const TtvHistory *h, GCancellable *cancellable,
                                                    GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvHistory, ttv_history_free)

G_END_DECLS
