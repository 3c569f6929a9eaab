/* ttv-sim.h: a deterministic simulated Linux kernel, the format-neutral event
 * source of ttv-gen (every output format), of the tests and of the benchmarks. */
#pragma once

#include "ttv-encoder.h"
#include "ttv-time.h"
#include "ttv-type.h"

G_BEGIN_DECLS

/* --- Schema ---------------------------------------------------------------- */

typedef enum {
  TTV_SIM_FACILITY_CORE,   /* scheduling, interrupts, faults, system calls, processes */
  TTV_SIM_FACILITY_BLOCK,  /* block I/O */
  TTV_SIM_FACILITY_NET,    /* network devices */
  TTV_SIM_N_FACILITIES
} TtvSimFacilityId;

/* Event indexes: the schema's order and the @event argument of TtvSimEmitFunc. */
typedef enum {
  TTV_SIM_EVENT_SYSCALL_ENTRY,     /* core */
  TTV_SIM_EVENT_SYSCALL_EXIT,
  TTV_SIM_EVENT_TRAP_ENTRY,
  TTV_SIM_EVENT_TRAP_EXIT,
  TTV_SIM_EVENT_IRQ_ENTRY,
  TTV_SIM_EVENT_IRQ_EXIT,
  TTV_SIM_EVENT_SOFT_IRQ_ENTRY,
  TTV_SIM_EVENT_SOFT_IRQ_EXIT,
  TTV_SIM_EVENT_SCHED_SWITCH,
  TTV_SIM_EVENT_SCHED_WAKEUP,
  TTV_SIM_EVENT_PROCESS_FORK,
  TTV_SIM_EVENT_PROCESS_EXEC,
  TTV_SIM_EVENT_PROCESS_EXIT,
  TTV_SIM_EVENT_PROCESS_FREE,
  TTV_SIM_EVENT_PROCESS,           /* core, control stream TTV_SIM_STREAM_PROCESSES */
  TTV_SIM_EVENT_INTERRUPT,         /* core, control stream TTV_SIM_STREAM_INTERRUPTS */
  TTV_SIM_EVENT_REQUEST_ISSUE,     /* block */
  TTV_SIM_EVENT_REQUEST_COMPLETE,
  TTV_SIM_EVENT_DEV_XMIT,          /* net */
  TTV_SIM_EVENT_NETIF_RECEIVE,
  TTV_SIM_EVENT_SOFT_IRQ_RAISE,    /* core, with options.softirq_raise only */
  TTV_SIM_N_EVENTS
} TtvSimEventId;

/* sched_switch prev_state (labels numbered 0, 1, 2... as LTT enums require). */
typedef enum {
  TTV_SIM_TASK_RUNNING,
  TTV_SIM_TASK_WAIT_INTERRUPTIBLE,
  TTV_SIM_TASK_WAIT_UNINTERRUPTIBLE,
  TTV_SIM_TASK_ZOMBIE,
  TTV_SIM_TASK_DEAD,
} TtvSimTaskState;

/* process.state (seed 000 control/processes). */
typedef enum {
  TTV_SIM_PROCESS_RUNNING,
  TTV_SIM_PROCESS_WAIT_INTERRUPTIBLE,
  TTV_SIM_PROCESS_WAIT_UNINTERRUPTIBLE,
  TTV_SIM_PROCESS_ZOMBIE,
  TTV_SIM_PROCESS_TRACED,
  TTV_SIM_PROCESS_PAGING,
} TtvSimProcessState;

/* soft_irq_entry/exit softirq_id (Linux numbering). */
typedef enum {
  TTV_SIM_SOFTIRQ_HI, TTV_SIM_SOFTIRQ_TIMER, TTV_SIM_SOFTIRQ_NET_TX, TTV_SIM_SOFTIRQ_NET_RX,
  TTV_SIM_SOFTIRQ_BLOCK, TTV_SIM_SOFTIRQ_IRQ_POLL, TTV_SIM_SOFTIRQ_TASKLET,
  TTV_SIM_SOFTIRQ_SCHED, TTV_SIM_SOFTIRQ_HRTIMER, TTV_SIM_SOFTIRQ_RCU,
} TtvSimSoftIrq;

typedef struct {
  const char *name;          /* "core" */
  const char *description;
} TtvSimFacility;

typedef struct {
  TtvSimFacilityId facility;
  const char *name;          /* "sched_switch" */
  const char *description;
  TtvType *fields;           /* owned reference: a STRUCT of scalars (finished) */
  guint n_values;            /* scalars per event, in field order */
} TtvSimEventType;

typedef struct {
  TtvSimFacility facilities[TTV_SIM_N_FACILITIES];
  TtvSimEventType events[TTV_SIM_N_EVENTS];
} TtvSimSchema;

/* Integers are byte aligned with natural alignment in @byte_order; addresses
 * and longs are native-size (TTV_NATIVE_POINTER / TTV_NATIVE_LONG, 64 bits
 * until a writer resolves them).  Enum labels carry the syscall (all x86_64
 * names from 0 to 257), softirq and task state names; every enum numbers its
 * labels 0, 1, 2... (LTT enums cannot do otherwise). */
TtvSimSchema *ttv_sim_schema_new (TtvByteOrder byte_order);
void          ttv_sim_schema_free (TtvSimSchema *schema);

/* --- Options ----------------------------------------------------------------- */

typedef enum {
  TTV_SIM_IRQ_TIMER,   /* the local timer: ticks and sleep timeouts, on every CPU */
  TTV_SIM_IRQ_NET,     /* network card: wakes receivers (NET_RX softirq) */
  TTV_SIM_IRQ_BLOCK,   /* disk controller: completes requests (BLOCK softirq) */
  TTV_SIM_IRQ_OTHER,   /* listed in control/interrupts only */
} TtvSimIrqRole;

typedef struct {
  guint number;
  const char *name;          /* "eth0" */
  const char *controller;    /* "IO-APIC-fasteoi" */
  TtvSimIrqRole role;
} TtvSimIrqLine;

typedef struct {
  guint64 seed;
  /* CPU ids (sparse allowed, strictly increasing); NULL: 0 .. n_cpus - 1. */
  const guint *cpu_ids;
  guint n_cpus;              /* default 4, at most TTV_SIM_MAX_CPUS */
  /* Target number of live tasks (threads included): as many exist at start
   * (control/processes); commands come and go around them.  Default 50. */
  guint n_processes;
  guint64 max_events;        /* stop after this many events (all streams); 0: no limit */
  TtvTime duration;          /* stop before start_time + duration (ns); 0: no limit */
  TtvTime start_time;        /* default 1700000000 s */
  /* Interrupt lines; NULL: timer (0), i8042 (1), eth0 (19), ahci (20).  Needs
   * exactly one TIMER line; NET and BLOCK lines are optional. */
  const TtvSimIrqLine *irq_lines;
  guint n_irq_lines;
  guint pointer_bits;        /* 32 or 64 (default): addresses fit the traced architecture */
  guint long_bits;           /* 32 or 64 (default) */
  /* Rates, in nanoseconds (0: default). */
  TtvTime quantum_ns;        /* clock granularity: every time is a multiple (default 100) */
  TtvTime tick_ns;           /* timer tick, same instants on every CPU (default 1000000) */
  TtvTime user_ns;           /* mean user-mode run between kernel entries (default 20000) */
  TtvTime kernel_ns;         /* mean step inside a syscall, trap or interrupt (default 1500) */
  TtvTime io_ns;             /* mean disk / network wait (default 400000) */
  TtvTime sleep_ns;          /* mean timed sleep (default 2000000) */
  /* Emit soft IRQ raises (core.soft_irq_raise) before the IRQ exit (or
   * soft IRQ exit) that raises them; off by default: traces without it
   * are as before. */
  gboolean softirq_raise;
  /* The probe: a process of three threads on a CPU of its own (the
   * highest id + 1) doing the same thing every 10 ms, with known
   * latencies, CPU share, disk time and wakeup chain (ttv-sim-probe.c);
   * off by default. */
  gboolean probe;
} TtvSimOptions;

#define TTV_SIM_MAX_CPUS 1024
#define TTV_SIM_STREAM_PROCESSES (-1)
#define TTV_SIM_STREAM_INTERRUPTS (-2)

/* Fills @options with the defaults (max_events 1000000). */
void ttv_sim_options_init (TtvSimOptions *options);

/* --- Running ------------------------------------------------------------------ */

/* Called once per event, in globally non-decreasing time order (ties: control
 * streams first, then CPUs in id order).  @stream: a CPU id, or
 * TTV_SIM_STREAM_*.  @values: the event's scalars in field order (strings
 * stay valid during the call only).  Queries on the simulator made inside
 * the call see the state after the event.  Return FALSE with @error to stop. */
typedef gboolean (*TtvSimEmitFunc) (gpointer user_data, gint stream, TtvTime time, guint event,
                                    const TtvScalar *values, guint n_values, GError **error);

typedef struct _TtvSim TtvSim;

/* Memory is O(processes + cpus); no allocation per event once warmed up. */
TtvSim  *ttv_sim_new (const TtvSimOptions *options, GError **error);
void     ttv_sim_free (TtvSim *sim);
/* Emits one event.  FALSE when the simulation is over (error unset) or the
 * callback failed (error set). */
gboolean ttv_sim_step (TtvSim *sim, TtvSimEmitFunc emit, gpointer user_data, GError **error);
/* Runs to the end (max_events / duration). */
gboolean ttv_sim_run (TtvSim *sim, TtvSimEmitFunc emit, gpointer user_data, GError **error);

/* --- The truth, for tests ------------------------------------------------- */

/* What the simulated kernel did, recorded from its own state as it runs
 * (not from its events), with exact times: what the analyses must find.
 * It holds only what the trace can show: a CPU's running task is known from
 * its first context switch, so calls, run slices and wakers on a CPU count
 * from then on; a call counts when its entry and exit were both seen. */
typedef enum { TTV_SIM_WAKER_NONE, TTV_SIM_WAKER_THREAD, TTV_SIM_WAKER_IRQ, TTV_SIM_WAKER_SOFTIRQ } TtvSimWaker;

typedef struct {
  TtvTime start, end;
  guint32 tid;
  guint32 tgid;
  gint cpu;                  /* where it entered */
  guint number;              /* x86_64 syscall number */
  gint64 ret;
  char file[64];             /* the file of its fd argument, where the trace says it, or "" */
} TtvSimTruthCall;

typedef struct {
  TtvTime woken, running;
  guint32 tid;
  gint cpu;                  /* where it ran */
  TtvSimWaker waker_kind;
  guint32 waker;             /* tid, IRQ line or soft IRQ vector */
  gboolean is_new;
} TtvSimTruthWakeup;

typedef struct {
  TtvTime blocked, woken, running;   /* woken = running, running = the end when not woken */
  guint32 tid;
  gint cpu;                  /* where it blocked */
  gint number;               /* the call it blocked in (entered in the trace), -1: none */
  guint state;               /* 1: interruptible (S), 2: uninterruptible (D) */
  TtvSimWaker waker_kind;
  guint32 waker;
  gboolean unfinished;
} TtvSimTruthBlocked;

typedef struct {
  TtvTime start, end;
  gint cpu;
  guint32 tid;               /* 0: the idle task's interrupts */
} TtvSimTruthSlice;

typedef struct {
  TtvTime issue, complete;
  guint32 dev;
  guint64 sector;
  guint32 nr_sector;
  guint32 tid;               /* G_MAXUINT32: issued where the running task is not known */
  gboolean write;
  char file[64];             /* the file of the call that issued it, where the trace says it, or "" */
} TtvSimTruthIo;

typedef struct {
  TtvTime entry, exit;
  TtvTime raise;             /* soft IRQs with softirq_raise: when it was raised, else 0 */
  gint cpu;
  guint32 id;                /* IRQ line or soft IRQ vector */
  gboolean soft;
} TtvSimTruthIrq;

typedef struct {
  TtvTime start, end;
  guint32 tid;
  guint64 uaddr;
  TtvTime blocked;           /* off the CPU within the call */
  guint32 waker;             /* the thread that woke it, G_MAXUINT32: none */
} TtvSimTruthFutex;

typedef struct {
  GArray *calls;             /* of TtvSimTruthCall, by exit */
  GArray *wakeups;           /* of TtvSimTruthWakeup, by running */
  GArray *blocked;           /* of TtvSimTruthBlocked, by running */
  GArray *slices;            /* of TtvSimTruthSlice, by end */
  GArray *io;                /* of TtvSimTruthIo, by completion */
  GArray *irqs;              /* of TtvSimTruthIrq, by exit */
  GArray *futex;             /* of TtvSimTruthFutex, by end */
  gpointer priv;             /* what is open, by task and CPU */
} TtvSimTruth;

TtvSimTruth *ttv_sim_truth_new (void);
void     ttv_sim_truth_free (TtvSimTruth *truth);
/* Records what @sim does from now on into @truth (borrowed: it must
 * outlive the run); call before the first step. */
void     ttv_sim_set_truth (TtvSim *sim, TtvSimTruth *truth);
/* After the run: what is still open ends at the last event (@end), as
 * the analyses close it. */
void     ttv_sim_truth_finish (TtvSimTruth *truth, TtvTime end);

guint64  ttv_sim_get_n_events (const TtvSim *sim);
/* A writer's own event, one the simulation does not emit (the files a
 * CTF statedump names): it counts towards the events asked for (-n).
 * TRUE when there is room for it (it is then counted), FALSE when the
 * count is reached: the writer leaves it out. */
gboolean ttv_sim_take_event (TtvSim *sim);
/* Time of the last emitted event (start time before the first). */
TtvTime  ttv_sim_get_time (const TtvSim *sim);
guint    ttv_sim_get_n_cpus (const TtvSim *sim);
guint    ttv_sim_get_cpu_id (const TtvSim *sim, guint index);
/* The pid running on CPU @cpu_id (0: idle), or -1 for an unknown CPU. */
gint     ttv_sim_get_running_pid (const TtvSim *sim, guint cpu_id);
/* Live processes (not zombies, not the idle tasks). */
guint    ttv_sim_get_n_processes (const TtvSim *sim);
/* Name of a live or zombie process, or NULL. */
const char *ttv_sim_get_process_name (const TtvSim *sim, guint pid);
/* Thread group (process) of a live or zombie task, or 0. */
guint    ttv_sim_get_process_tgid (const TtvSim *sim, guint pid);

/* The arguments of a system call, as LTTng 2.x kernel traces name them
 * (the format-neutral events carry none). */
typedef struct {
  gint64 fd;                 /* -1: no fd argument */
  const char *filename;      /* NULL: none (valid during the emit call) */
  gboolean futex;            /* uaddr and op are set */
  guint64 uaddr;
  guint32 op;
} TtvSimCallArgs;

/* From the emit callback of a syscall entry on @cpu_id: the arguments of
 * the call that begins. */
gboolean ttv_sim_get_call_args (const TtvSim *sim, guint cpu_id, TtvSimCallArgs *args);
/* The @index-th file (0, 1, 2...) open in process @pid when the trace
 * starts (its statedump): FALSE past the last, or for a process created
 * later, a thread or a kernel thread.  @filename is valid until the next
 * call. */
gboolean ttv_sim_get_process_file (const TtvSim *sim, guint pid, guint index, gint *fd, const char **filename);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvSim, ttv_sim_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvSimTruth, ttv_sim_truth_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvSimSchema, ttv_sim_schema_free)

G_END_DECLS
