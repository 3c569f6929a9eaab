/* ttv-viewer-kernel.h: the kernel analyses of a tab ("why was it slow",
 * docs/analyses.md) as viewer modules read them: latency tables (system
 * calls, wakeups, blocked intervals, IRQs, soft IRQs, block requests,
 * futex waits) with their scatter, duration density and statistics per
 * time range; block I/O throughput per device and process; CPU usage over
 * time; why a thread was blocked and who woke it; the critical path of a thread.  They run in a worker thread the first
 * time a module asks (read back from the cache when the trace was analysed
 * before); "kernel-ready" announces them.  The types here are the SDK's
 * own.  Part of the installed SDK: include ttv-viewer.h. */
#pragma once

#include "ttv-viewer-types.h"

G_BEGIN_DECLS

/* --- Running them ------------------------------------------------------------------
 * Signal "kernel-ready" (no argument): an analysis asked for is there (or
 * failed: see its error), or, after "traceset-changed", they were all
 * dropped: ask again.  Every analysis asked for while others run is run
 * with the next ones, in one read of the trace. */

typedef enum {
  TTV_VIEWER_KERNEL_CPU,        /* CPU usage: table "slices" */
  TTV_VIEWER_KERNEL_SYSCALLS,   /* table "calls" */
  TTV_VIEWER_KERNEL_SCHED,      /* tables "wakeups" and "blocked" */
  TTV_VIEWER_KERNEL_IRQ,        /* tables "irqs", "softirqs" and "raises" */
  TTV_VIEWER_KERNEL_BLOCK,      /* table "requests" */
  TTV_VIEWER_KERNEL_FUTEX,      /* table "waits" */
  TTV_VIEWER_KERNEL_N_ANALYSES
} TtvViewerKernelAnalysis;

/* Starts @analysis in a worker thread unless it ran or runs; TRUE when its
 * result is there. */
gboolean    ttv_tab_state_request_kernel (TtvTabState *state, TtvViewerKernelAnalysis analysis);
/* Its progress while it runs, 0..1 (1 when done, 0 when not started). */
double      ttv_tab_state_get_kernel_progress (TtvTabState *state, TtvViewerKernelAnalysis analysis);
/* The error that stopped it, or NULL (borrowed until it runs again). */
const GError *ttv_tab_state_get_kernel_error (TtvTabState *state, TtvViewerKernelAnalysis analysis);
/* Runs it here and now unless it is there (a render has nothing else to
 * do); FALSE with @error when it fails. */
gboolean    ttv_tab_state_compute_kernel (TtvTabState *state, TtvViewerKernelAnalysis analysis,
                                          GCancellable *cancellable, GError **error);

/* --- Tables -----------------------------------------------------------------------------
 * A table of records, each an interval (start, end) with the analysis's
 * columns.  Immutable: safe to read from any thread while referenced;
 * strings it gives live as long as it does.  Queries cost O(log n +
 * answer); scatter, density and statistics come from summaries, in
 * O(pixels) or O(bins) at any zoom. */

typedef struct _TtvViewerTable TtvViewerTable;

/* The table @name of @analysis (transfer full), NULL until it ran or when
 * it has no such table. */
TtvViewerTable *ttv_tab_state_dup_kernel_table (TtvTabState *state, TtvViewerKernelAnalysis analysis,
                                                const char *name);
TtvViewerTable *ttv_viewer_table_ref (TtvViewerTable *table);
void        ttv_viewer_table_unref (TtvViewerTable *table);
/* "calls" (a view says what it is for people). */
const char *ttv_viewer_table_get_name (TtvViewerTable *table);
guint64     ttv_viewer_table_get_n_records (TtvViewerTable *table);
/* The machines its analysis tells apart (1: one machine), and their
 * names (SDK 14). */
guint       ttv_viewer_table_get_n_machines (TtvViewerTable *table);
const char *ttv_viewer_table_get_machine_name (TtvViewerTable *table, guint machine);

typedef enum {
  TTV_VIEWER_COLUMN_TIME,       /* ns since the epoch */
  TTV_VIEWER_COLUMN_DURATION,   /* ns */
  TTV_VIEWER_COLUMN_INT,
  TTV_VIEWER_COLUMN_UINT,
  TTV_VIEWER_COLUMN_HEX,        /* an address */
  TTV_VIEWER_COLUMN_TID,        /* TTV_VIEWER_PID_NONE: none */
  TTV_VIEWER_COLUMN_CPU,        /* -1: none */
  TTV_VIEWER_COLUMN_STRING,
  TTV_VIEWER_COLUMN_ENUM,       /* a label */
} TtvViewerColumnType;

/* Columns, in the order ttv-report prints them: start, end, duration, then
 * the analysis's ("syscall", "tid", "name", "cpu", "ret", "file"...). */
guint       ttv_viewer_table_get_n_columns (TtvViewerTable *table);
const char *ttv_viewer_table_get_column_name (TtvViewerTable *table, guint column);   /* "tid" */
const char *ttv_viewer_table_get_column_title (TtvViewerTable *table, guint column);  /* translated */
TtvViewerColumnType ttv_viewer_table_get_column_type (TtvViewerTable *table, guint column);
/* The column named @name, or -1. */
gint        ttv_viewer_table_find_column (TtvViewerTable *table, const char *name);
/* The column the statistics group by ("syscall", "prio", "irq", "vec",
 * "device", "uaddr"), or -1. */
gint        ttv_viewer_table_get_group_column (TtvViewerTable *table);

/* --- Records ----------------------------------------------------------------------------- */

typedef struct _TtvViewerRecords TtvViewerRecords;

typedef enum {
  TTV_VIEWER_QUERY_OVERLAP,     /* records that overlap [t0, t1] (time lines) */
  TTV_VIEWER_QUERY_START_IN,    /* records that start in it (latency counts) */
} TtvViewerQueryMode;

/* The records selected by @mode over [@t0, @t1] of thread @tid
 * (TTV_VIEWER_PID_NONE: every thread), sorted by start; NULL with @error
 * when the table's file cannot be read.  Transfer full. */
TtvViewerRecords *ttv_viewer_table_query (TtvViewerTable *table, TtvViewerQueryMode mode, TtvTime t0, TtvTime t1,
                                          guint32 tid, GError **error);
/* The same for thread @tid of @machine (ttv_tab_state_get_selected_machine()):
 * with several machines, a tid is a thread of each; ttv_viewer_table_query()
 * gives them all (SDK 14). */
TtvViewerRecords *ttv_viewer_table_query_thread (TtvViewerTable *table, TtvViewerQueryMode mode, TtvTime t0,
                                                 TtvTime t1, guint machine, guint32 tid, GError **error);
/* The @max longest records that start in [@t0, @t1], longest first: only
 * the places where the summaries say such records are are read. */
TtvViewerRecords *ttv_viewer_table_query_longest (TtvViewerTable *table, TtvTime t0, TtvTime t1, guint max,
                                                  GError **error);
void        ttv_viewer_records_free (TtvViewerRecords *records);
guint       ttv_viewer_records_get_n (TtvViewerRecords *records);
TtvTime     ttv_viewer_records_get_start (TtvViewerRecords *records, guint index);
TtvTime     ttv_viewer_records_get_end (TtvViewerRecords *records, guint index);
/* The record's thread (its "tid" column), TTV_VIEWER_PID_NONE when none. */
guint32     ttv_viewer_records_get_tid (TtvViewerRecords *records, guint index);
/* The machine of the record's thread (docs/multi-machine.md): 0 with one
 * machine, and for the records of analyses that read every machine as
 * one (block I/O). */
guint       ttv_viewer_records_get_machine (TtvViewerRecords *records, guint index);
/* @column's value as a number (times and durations in ns; strings: an index). */
gint64      ttv_viewer_records_get_value (TtvViewerRecords *records, guint index, guint column);
/* As ttv-report writes it ("" for none): times in seconds since the epoch,
 * durations in seconds, strings and labels by name; caller frees. */
char       *ttv_viewer_records_dup_text (TtvViewerRecords *records, guint index, guint column);

/* The arguments of system calls (records of TTV_VIEWER_KERNEL_SYSCALLS's
 * "calls"), read back from the tab's trace in a worker thread, as
 * `ttv-report --analysis syscalls --records` prints them ("fd = 3, count =
 * 512"): those of the @n records of @records at @indices.  The result
 * (finish) is a NULL-terminated array of @n strings, "" where the trace
 * does not say (LTT, a lost entry event); NULL with @error when cancelled
 * or the trace cannot be read. */
void        ttv_tab_state_read_syscall_arguments_async (TtvTabState *state, TtvViewerRecords *records,
                                                        const guint *indices, guint n, GCancellable *cancellable,
                                                        GAsyncReadyCallback callback, gpointer user_data);
GStrv       ttv_tab_state_read_syscall_arguments_finish (TtvTabState *state, GAsyncResult *result, GError **error);

/* --- Scatter, density, statistics of what starts in a range ------------------------------
 * Durations fall in buckets of a log scale, four per power of two from
 * 1 ns to 2^40 ns (18 minutes). */

#define TTV_VIEWER_DURATION_BUCKETS 160
guint       ttv_viewer_duration_bucket (TtvTime duration);
/* The shortest duration of @bucket. */
TtvTime     ttv_viewer_duration_bucket_lower (guint bucket);

/* A column of a scatter plot of duration against time: which buckets
 * hold a record (bit b of mask[b / 64]) among those starting in it. */
typedef struct {
  guint64 mask[(TTV_VIEWER_DURATION_BUCKETS + 63) / 64];
  guint64 count;
} TtvViewerScatterColumn;

/* @width columns splitting [@t0, @t1) evenly, into @columns. */
gboolean    ttv_viewer_table_query_scatter (TtvViewerTable *table, TtvTime t0, TtvTime t1, guint width,
                                            TtvViewerScatterColumn *columns, GError **error);
/* The records starting in [@t0, @t1] per duration bucket, exactly. */
gboolean    ttv_viewer_table_query_density (TtvViewerTable *table, TtvTime t0, TtvTime t1,
                                            guint64 counts[TTV_VIEWER_DURATION_BUCKETS], GError **error);

typedef struct {
  gint64 key;                  /* the group column's value; -1: every record */
  const char *label;           /* the group as text ("read", "21 probe-disk", "8:16"); "" for all */
  guint64 count;
  TtvTime total, min, max;
  double mean, stddev;         /* stddev of the population */
  TtvTime p50, p90, p99;       /* exact: the least duration with that share at or below it */
} TtvViewerDurationStats;

/* Statistics per group of the records starting in [@t0, @t1], largest
 * total first (of TtvViewerDurationStats, transfer full); with several
 * machines (ttv_viewer_table_get_n_machines()) per group of each machine,
 * the label naming the machine ("beta: 8:0", since SDK 14); @all (may be
 * NULL) gets every record's. */
GArray     *ttv_viewer_table_dup_statistics (TtvViewerTable *table, TtvTime t0, TtvTime t1,
                                             TtvViewerDurationStats *all, GError **error);

/* --- Block I/O throughput (TTV_VIEWER_KERNEL_BLOCK, table "requests") ----------------------- */

typedef struct {
  guint32 key;                 /* the device's number (dev_t), or the issuing process's PID
                                * (TTV_VIEWER_PID_NONE: unknown) */
  guint32 machine;             /* its machine (ttv_viewer_table_get_machine_name(); SDK 14) */
  const char *name;            /* the device ("8:16"), or the process's name; "" when unknown */
  guint64 requests;
  guint64 read_bytes, write_bytes;
  TtvTime busy;                /* the requests' latencies together */
  double read_rate, write_rate; /* bytes per second over the range (clamped to the trace) */
} TtvViewerBlockUsage;

/* The requests completed in [@t0, @t1] and their bytes, per device
 * (@by_process FALSE) or per issuing process of each machine, most bytes
 * first, the rates over the time the machine's traces cover: what
 * `ttv-report --analysis block` prints (of TtvViewerBlockUsage, transfer
 * full; strings live as long as @table).  NULL with @error when the table
 * cannot be read; @table must be TTV_VIEWER_KERNEL_BLOCK's. */
GArray     *ttv_viewer_table_dup_block_usage (TtvViewerTable *table, gboolean by_process, TtvTime t0, TtvTime t1,
                                              GError **error);

/* --- CPU usage (TTV_VIEWER_KERNEL_CPU) ------------------------------------------------------ */

typedef struct _TtvViewerCpuUsage TtvViewerCpuUsage;

/* Transfer full, NULL until it ran. */
TtvViewerCpuUsage *ttv_tab_state_dup_cpu_usage (TtvTabState *state);
TtvViewerCpuUsage *ttv_viewer_cpu_usage_ref (TtvViewerCpuUsage *usage);
void        ttv_viewer_cpu_usage_unref (TtvViewerCpuUsage *usage);
/* The CPUs that ran anything, sorted, as CPU keys (of gint, transfer
 * full): with one machine, the CPUs' numbers; with several
 * (docs/multi-machine.md), each machine's CPUs in turn, the key saying
 * the machine and the CPU (below). */
GArray     *ttv_viewer_cpu_usage_dup_cpus (TtvViewerCpuUsage *usage);
static inline guint
ttv_viewer_cpu_key_machine (gint key)
{
  return (guint) key >> 16;
}

static inline gint
ttv_viewer_cpu_key_cpu (gint key)
{
  return key & 0xffff;
}

/* The machines it tells apart (1: one machine), and their names. */
guint       ttv_viewer_cpu_usage_get_n_machines (TtvViewerCpuUsage *usage);
const char *ttv_viewer_cpu_usage_get_machine_name (TtvViewerCpuUsage *usage, guint machine);
/* Busy time of CPU key @cpu (-1: all CPUs of every machine together) in
 * each of the @n_edges - 1 bins between sorted @edges, into @busy: an XY
 * chart's points, O(n_edges). */
gboolean    ttv_viewer_cpu_usage_get_busy (TtvViewerCpuUsage *usage, gint cpu, const TtvTime *edges, guint n_edges,
                                           TtvTime *busy, GError **error);
/* The same for thread @tid of @machine's CPU time, on all its CPUs. */
gboolean    ttv_viewer_cpu_usage_get_thread_time (TtvViewerCpuUsage *usage, guint machine, guint32 tid,
                                                  const TtvTime *edges, guint n_edges, TtvTime *cpu_time,
                                                  GError **error);

typedef struct {
  guint32 tid;                 /* 0: the idle tasks' interrupts ("swapper") */
  guint32 tgid;
  const char *name;            /* "" when unknown */
  TtvTime cpu_time;
  guint32 machine;             /* its machine (ttv_viewer_history_get_machine_name) */
  guint32 pad;
} TtvViewerThreadUsage;

/* CPU time of every thread that ran in [@t0, @t1], largest first (of
 * TtvViewerThreadUsage, transfer full). */
GArray     *ttv_viewer_cpu_usage_dup_threads (TtvViewerCpuUsage *usage, TtvTime t0, TtvTime t1, GError **error);

/* --- Why a thread was not running (TTV_VIEWER_KERNEL_SCHED) -------------------------------- */

typedef enum {
  TTV_VIEWER_WAKER_NONE,       /* not seen (before the trace, lost events) */
  TTV_VIEWER_WAKER_THREAD,
  TTV_VIEWER_WAKER_IRQ,
  TTV_VIEWER_WAKER_SOFTIRQ,
} TtvViewerWakerKind;

typedef enum {
  TTV_VIEWER_BLOCKED_SLEEPING, /* S: interruptible */
  TTV_VIEWER_BLOCKED_DISK,     /* D: uninterruptible */
  TTV_VIEWER_BLOCKED_OTHER,
} TtvViewerBlockedState;

typedef struct {
  TtvTime start, end;          /* off its CPU, on one again (the trace's end when unfinished) */
  TtvTime woken;               /* its wakeup (@end when none was seen) */
  guint32 tid;
  gint cpu;                    /* where it blocked */
  const char *syscall;         /* the call it blocked in, "" when none */
  TtvViewerBlockedState state;
  TtvViewerWakerKind waker_kind;
  guint32 waker_tid;           /* THREAD */
  guint32 waker_id;            /* IRQ line, soft IRQ vector */
  const char *waker_name;      /* the thread, IRQ or soft IRQ, "" when unknown */
  gint waker_cpu;
  gboolean unfinished;         /* still blocked at the trace's end */
} TtvViewerBlocked;

/* The blocked interval of thread @tid of @machine containing @time; FALSE
 * when it was not blocked then, or the analysis has not run. @out's
 * strings live as long as the tab's analysis (until "traceset-changed"). */
gboolean    ttv_tab_state_get_blocked_at (TtvTabState *state, guint machine, guint32 tid, TtvTime time,
                                          TtvViewerBlocked *out);

/* --- The critical path (TTV_VIEWER_KERNEL_SCHED, TTV_VIEWER_KERNEL_CPU) -------------------- */

typedef enum {
  TTV_VIEWER_PATH_RUNNING,     /* the thread on the path ran */
  TTV_VIEWER_PATH_PREEMPTED,   /* runnable, its CPU taken by another task */
  TTV_VIEWER_PATH_WAIT_CPU,    /* woken, waiting for a CPU */
  TTV_VIEWER_PATH_DEVICE,      /* waiting for an IRQ or soft IRQ (a device, a timer) */
  TTV_VIEWER_PATH_BLOCKED,     /* blocked, woken by nothing the trace shows */
} TtvViewerPathKind;

typedef struct {
  TtvTime start, end;
  TtvViewerPathKind kind;
  guint32 tid;                 /* the thread on the path (DEVICE: the one waiting) */
  guint32 tgid;
  guint32 irq;                 /* DEVICE: line or vector */
  gboolean softirq;            /* DEVICE: a soft IRQ */
  const char *name;            /* the thread, IRQ or soft IRQ */
  const char *syscall;         /* what the waiting thread was blocked in, or "" */
} TtvViewerPathSegment;

/* What @tid of @machine waited for over [@t0, @t1], back through the
 * threads and devices of that machine that woke it: segments in time order covering it (of
 * TtvViewerPathSegment, transfer full; strings live until
 * "traceset-changed").  NULL with @error when the scheduling analysis is
 * not there (ask for it), or cannot be read.  The CPU usage, when there,
 * tells running from preempted. */
GArray     *ttv_tab_state_dup_critical_path (TtvTabState *state, guint machine, guint32 tid, TtvTime t0,
                                             TtvTime t1, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvViewerTable, ttv_viewer_table_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvViewerRecords, ttv_viewer_records_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvViewerCpuUsage, ttv_viewer_cpu_usage_unref)

G_END_DECLS
