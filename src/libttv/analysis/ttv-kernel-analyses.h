/* ttv-kernel-analyses.h: the kernel analyses that answer "why was it
 * slow": CPU usage, system calls, scheduling (wakeup latency and why each
 * thread was blocked), IRQs and soft IRQs, block I/O and futex waits, each
 * an analysis class over the kernel model's vocabulary (so LTT, LTTng 0.x
 * and every LTTng 2.x naming alike), with the records its tables hold.  docs/analyses.md says what
 * each measures, from which events, and its limits.  Used by ttv-report
 * --analysis, the viewer's analysis pass and the tests. */
#pragma once

#include "ttv-analysis.h"

G_BEGIN_DECLS

/* The classes (listed by ttv_analysis_list()). */
extern const TtvAnalysisClass ttv_cpu_usage_analysis;      /* "cpu" */
extern const TtvAnalysisClass ttv_syscall_analysis;        /* "syscalls" */
extern const TtvAnalysisClass ttv_sched_analysis;          /* "sched" */
extern const TtvAnalysisClass ttv_irq_analysis;            /* "irq" */
extern const TtvAnalysisClass ttv_block_analysis;          /* "block" */
extern const TtvAnalysisClass ttv_futex_analysis;          /* "futex" */

/* Values of a waker's kind (TTV_COLUMN_ENUM "waker_kind"). */
typedef enum {
  TTV_WAKER_NONE,          /* not seen (woken before the trace, or lost events) */
  TTV_WAKER_THREAD,        /* a thread, in @waker_tid */
  TTV_WAKER_IRQ,           /* an IRQ handler, line in @waker_id */
  TTV_WAKER_SOFTIRQ,       /* a soft IRQ, vector in @waker_id */
} TtvWakerKind;

#define TTV_ANALYSIS_NO_PRIO G_MININT64

/* --- Machines -------------------------------------------------------------------------
 * The kernel analyses key their series by thread and by CPU of a
 * machine, machine 0's keys being the plain numbers (so that one
 * machine's results are as before): a thread key holds the machine in its
 * top 8 bits (threads of machine 1 and up keep the low 24 bits of their
 * tid, which every Linux pid fits), a CPU key in its top 16.  Machines from TTV_ANALYSIS_MAX_MACHINES on are not
 * told apart from the last one. */
#define TTV_ANALYSIS_MAX_MACHINES 254u
static inline guint32
ttv_thread_key (guint machine, guint32 tid)
{
  machine = MIN (machine, TTV_ANALYSIS_MAX_MACHINES - 1);
  return machine == 0 ? tid : (guint32) machine << 24 | (tid & 0xffffffu);
}

static inline guint32
ttv_cpu_key (guint machine, gint32 cpu)
{
  machine = MIN (machine, TTV_ANALYSIS_MAX_MACHINES - 1);
  return (guint32) machine << 16 | ((guint32) cpu & 0xffffu);
}

static inline guint
ttv_cpu_key_machine (guint32 key)
{
  return key >> 16;
}

static inline gint32
ttv_cpu_key_cpu (guint32 key)
{
  return (gint32) (key & 0xffffu);
}

/* --- CPU usage: table "slices" ----------------------------------------------------
 * One record per stretch a task ran on a CPU without a break: busy time as
 * the statistics count it (everything but the idle task in its base
 * mode; the idle task's interrupts are busy time of "swapper").  Series 0:
 * by CPU (ttv_cpu_key); series 1: by thread (ttv_thread_key, or
 * TTV_CPU_USAGE_IDLE_KEY for each CPU's idle task). */
typedef struct {
  gint64 start, end;
  guint32 tid;
  gint32 cpu;
  guint32 name;            /* string: the task's name */
  guint32 tgid;
  guint32 key;             /* series 1: ttv_thread_key, or TTV_CPU_USAGE_IDLE_KEY */
  guint32 machine;
  guint32 cpu_key;         /* series 0: ttv_cpu_key */
  guint32 pad;
} TtvCpuSlice;

/* No thread key is one of these (machine 255 is none). */
#define TTV_CPU_USAGE_IDLE_KEY(machine, cpu) \
  (0xff000000u | (guint32) MIN ((guint) (machine), TTV_ANALYSIS_MAX_MACHINES - 1) << 12 | ((guint32) (cpu) & 0xfffu))
#define TTV_CPU_USAGE_IS_IDLE_KEY(key) (((key) >> 24) == 0xffu)

typedef struct {
  guint32 tid;             /* 0: the idle tasks' interrupts */
  guint32 tgid;
  const char *name;        /* borrowed from the result */
  TtvTime cpu_time;
  guint32 machine;
  guint32 pad;
} TtvThreadUsage;

/* The CPUs that ran anything, sorted: CPU keys (ttv_cpu_key; with one
 * machine, the CPUs' numbers). */
GArray     *ttv_cpu_usage_list_cpus (const TtvAnalysis *result);
/* Busy time of CPU key @cpu in [t0, t1] (all CPUs together: @cpu = -1). */
gboolean    ttv_cpu_usage_get_busy (const TtvAnalysis *result, gint cpu, TtvTime t0, TtvTime t1,
                                    TtvTime *busy, GError **error);
/* Busy time of @cpu (-1: all) in each of the @n_edges - 1 bins between
 * sorted @edges: an XY chart's points, O(n_edges) reads. */
gboolean    ttv_cpu_usage_get_busy_bins (const TtvAnalysis *result, gint cpu, const TtvTime *edges,
                                         guint n_edges, TtvTime *busy, GError **error);
/* CPU time of every thread that ran in [t0, t1], largest first (of
 * TtvThreadUsage; a "swapper" per machine); their sum is the CPUs' busy
 * time. */
GArray     *ttv_cpu_usage_top_threads (const TtvAnalysis *result, TtvTime t0, TtvTime t1, GError **error);

/* --- System calls: table "calls" ------------------------------------------------------
 * Every call whose entry and exit the trace holds, entry to exit.  Series
 * 0: by thread.  Statistics by call. */
typedef struct {
  gint64 start, end;
  gint64 ret;              /* return value (negative: -errno) */
  guint32 tid;
  guint32 tgid;
  gint32 cpu;              /* where it entered */
  guint32 syscall;         /* string: its name */
  guint32 name;            /* string: the thread's name */
  guint32 file;            /* string: the file of its fd argument, where the trace says it */
  guint32 key;             /* series 0: ttv_thread_key (its machine, tid) */
  guint32 machine;         /* string: its machine's name (a column with several machines) */
} TtvSyscallRecord;

/* The call's arguments as its entry event gives them ("fd = 3, count =
 * 512"), read back from @ts (a seek to its entry); caller frees, NULL
 * when the event is not found. */
char       *ttv_syscall_dup_arguments (TtvTraceset *ts, const TtvSyscallRecord *call, GError **error);

/* --- Scheduling: tables "wakeups" and "blocked" ------------------------------------------
 * wakeups: from a task's wakeup (sched_waking / sched_wakeup /
 * sched_wakeup_new, the first of them) to the switch that runs it.
 * blocked: from the switch that takes a blocked task off its CPU to the
 * one that runs it again, with when and by whom it was woken (a thread of
 * the same machine).  Series 0: by thread (ttv_thread_key).  Statistics:
 * wakeups by priority, blocked by syscall (per machine when there are
 * several). */
typedef struct {
  gint64 start, end;       /* woken, running */
  gint64 prio;             /* the priority it ran with, TTV_ANALYSIS_NO_PRIO when unknown */
  guint32 tid;
  guint32 tgid;
  gint32 cpu;              /* where it ran */
  gint32 waker_cpu;        /* where the wakeup happened */
  guint32 name;            /* string: the task */
  guint32 waker_kind;      /* TtvWakerKind */
  guint32 waker_tid;
  guint32 waker_id;        /* IRQ line or soft IRQ vector */
  guint32 waker_name;      /* string: the waking thread, IRQ or soft IRQ */
  guint32 is_new;          /* 1: a new task's first run */
  guint32 key;             /* series 0: ttv_thread_key (its machine, tid) */
  guint32 machine;         /* string: its machine's name (a column with several machines) */
} TtvWakeupRecord;

typedef enum {
  TTV_BLOCKED_SLEEPING,    /* TASK_INTERRUPTIBLE (S) */
  TTV_BLOCKED_DISK,        /* TASK_UNINTERRUPTIBLE (D) */
  TTV_BLOCKED_OTHER,
} TtvBlockedState;

typedef struct {
  gint64 start, end;       /* off the CPU, on it again (the trace's end when @unfinished) */
  gint64 woken;            /* when it was woken (@end when not seen) */
  guint32 tid;
  guint32 tgid;
  gint32 cpu;              /* where it blocked */
  gint32 waker_cpu;
  guint32 name;            /* string */
  guint32 syscall;         /* string: the call it blocked in, none when in no call */
  guint32 state;           /* TtvBlockedState */
  guint32 waker_kind;      /* TtvWakerKind */
  guint32 waker_tid;
  guint32 waker_id;
  guint32 waker_name;      /* string */
  guint32 unfinished;      /* 1: still blocked (or waiting) at the trace's end */
  guint32 key;             /* series 0: ttv_thread_key (its machine, tid) */
  guint32 machine;         /* string: its machine's name */
} TtvBlockedRecord;

/* --- IRQs: tables "irqs", "softirqs" and "raises" -----------------------------------------
 * irqs: handler entry to exit, by line; softirqs: entry to exit, by vector;
 * raises: a soft IRQ's raise to the entry that serves it (traces with
 * softirq_raise).  Statistics by line / vector (per machine when there
 * are several; a line's name is its machine's). */
typedef struct {
  gint64 start, end;
  gint32 cpu;
  guint32 irq;             /* line, or soft IRQ vector */
  guint32 name;            /* string */
  guint32 tid;             /* the task it interrupted */
  guint32 machine;         /* string: its machine's name (a column with several machines) */
  guint32 pad;
} TtvIrqRecord;

/* --- Block I/O: table "requests" -----------------------------------------------------------
 * A request from its issue to the device to its completion, matched by
 * machine, device and sector.  Series 0: by issuing thread
 * (ttv_thread_key).  Statistics by device (per machine when there are
 * several: a device is of one machine). */
typedef struct {
  gint64 start, end;
  guint64 sector;
  guint64 bytes;
  guint32 dev;             /* major << 20 | minor */
  guint32 nr_sector;
  guint32 write;           /* 0 read, 1 write */
  guint32 tid;             /* the task running when it was issued */
  guint32 tgid;
  guint32 name;            /* string: that task */
  guint32 file;            /* string: the file of the call that issued it, where known */
  guint32 device;          /* string: "8:0" */
  gint32 cpu;
  guint32 machine;         /* string: its machine's name (a column with several machines) */
  guint32 key;             /* series 0: ttv_thread_key (its machine, tid) */
  guint32 pad;
} TtvBlockRecord;

typedef struct {
  guint32 key;             /* device (dev_t), or tgid */
  guint32 machine;         /* its machine (ttv_analysis_get_machine_name), 0 with one */
  const char *name;        /* borrowed: "8:0", or the process's name */
  guint64 requests;
  guint64 read_bytes, write_bytes;
  TtvTime busy;            /* sum of the requests' latencies */
  double read_rate, write_rate;  /* bytes per second over [t0, t1] within its machine's traces */
} TtvBlockUsage;

/* Bytes and requests completed in [t0, t1], per device (@by_process
 * FALSE) or per issuing process of each machine, most bytes first (of
 * TtvBlockUsage; a machine's rows in the order they have on its traces
 * alone); the rates over [t0, t1] clamped to the span of the machine's
 * traces (what ttv-report and the Block I/O view print, computed once
 * here so they agree). */
GArray     *ttv_block_usage (const TtvAnalysis *result, gboolean by_process, TtvTime t0, TtvTime t1,
                             GError **error);

/* --- Futex waits: table "waits" --------------------------------------------------------------
 * Every futex call that waits (FUTEX_WAIT, _BITSET, LOCK_PI,
 * WAIT_REQUEUE_PI), entry to exit, with its address and the thread that
 * woke it.  Series 0: by thread (ttv_thread_key).  Statistics by address
 * (per machine when there are several: an address is of one machine). */
typedef struct {
  gint64 start, end;
  guint64 uaddr;
  gint64 blocked;          /* off the CPU within the call */
  gint64 ret;
  guint32 tid;
  guint32 tgid;
  guint32 op;              /* the futex operation (FUTEX_PRIVATE_FLAG and clock bits cleared) */
  guint32 name;            /* string */
  guint32 waker_tid;       /* G_MAXUINT32: none seen */
  guint32 waker_name;      /* string */
  guint32 key;             /* series 0: ttv_thread_key (its machine, tid) */
  guint32 machine;         /* string: its machine's name (a column with several machines) */
} TtvFutexRecord;

/* --- The critical path ------------------------------------------------------------------------ */

typedef enum {
  TTV_PATH_RUNNING,        /* the thread ran (or was preempted: see TTV_PATH_PREEMPTED) */
  TTV_PATH_PREEMPTED,      /* runnable, a CPU taken by another task (with the CPU usage) */
  TTV_PATH_WAIT_CPU,       /* woken, waiting for a CPU */
  TTV_PATH_DEVICE,         /* waiting for an IRQ or soft IRQ (a device, a timer) */
  TTV_PATH_BLOCKED,        /* blocked, woken by nothing the trace shows */
} TtvPathKind;

typedef struct {
  TtvTime start, end;
  TtvPathKind kind;
  guint32 tid;             /* the thread on the path (DEVICE: the one waiting) */
  guint32 tgid;
  guint32 irq;             /* DEVICE: line or vector */
  gboolean softirq;        /* DEVICE: a soft IRQ */
  const char *name;        /* borrowed from the results: the thread, IRQ or soft IRQ */
  const char *syscall;     /* borrowed: what the waiting thread was blocked in, or "" */
} TtvPathSegment;

/* What @tid of @machine (0 with one machine) waited for over [t0, t1],
 * back through the threads of that machine and the devices that woke it,
 * as segments in time order covering [t0, t1] (of TtvPathSegment).  The
 * caller keeps [t0, t1] within the machine's own span
 * (ttv_traceset_get_machine_span()): beyond it the trace says nothing,
 * and the thread would seem preempted there.
 * @sched is the "sched" result; @cpu (may be NULL) the "cpu" result, which
 * splits the running segments from the preempted. */
GArray     *ttv_critical_path_compute (const TtvAnalysis *sched, const TtvAnalysis *cpu, guint machine,
                                       guint32 tid, TtvTime t0, TtvTime t1, GError **error);
const char *ttv_path_kind_name (TtvPathKind kind);

G_END_DECLS
