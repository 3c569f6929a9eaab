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

guint64  ttv_sim_get_n_events (const TtvSim *sim);
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

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvSim, ttv_sim_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvSimSchema, ttv_sim_schema_free)

G_END_DECLS
