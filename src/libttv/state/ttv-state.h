/* ttv-state.h: the system state at one point of a trace: processes with
 * their execution-mode stacks, CPUs, IRQs, soft IRQs, traps, block devices.
 * Changed only by ttv_state_apply() through the kernel model; copied whole
 * for checkpoints.  Used by the engine's PRIO_STATE hook, reports, viewers. */
#pragma once

#include "ttv-trace.h"

G_BEGIN_DECLS

typedef enum {
  TTV_PROCESS_UNNAMED,      /* known by pid only, before any name was seen */
  TTV_PROCESS_WAIT_FORK,    /* forked, not yet run */
  TTV_PROCESS_WAIT_CPU,     /* runnable, waiting for a CPU */
  TTV_PROCESS_RUN,
  TTV_PROCESS_WAIT,         /* blocked */
  TTV_PROCESS_ZOMBIE,       /* exited, not yet reaped */
  TTV_PROCESS_EXIT,         /* exiting (between exit and last switch away) */
  TTV_PROCESS_DEAD,         /* freed */
  TTV_PROCESS_N_STATUS
} TtvProcessStatus;

typedef enum {
  TTV_MODE_UNKNOWN,
  TTV_MODE_USER,
  TTV_MODE_SYSCALL,
  TTV_MODE_TRAP,
  TTV_MODE_IRQ,
  TTV_MODE_SOFTIRQ,
  TTV_MODE_N
} TtvExecMode;

#define TTV_STATE_MAX_NESTING 16
#define TTV_PID_NONE G_MAXUINT32

typedef struct {
  TtvExecMode mode;
  guint32 id;              /* syscall (GQuark of its name), trap, IRQ or soft IRQ number */
  TtvTime entry;
} TtvExecFrame;

typedef struct {
  guint32 pid;             /* kernel task id (thread) */
  guint32 tgid;            /* thread group (process) id */
  guint32 ppid;
  GQuark name;             /* 0 when unnamed */
  TtvTime creation_time;   /* TTV_TIME_MIN when it existed before the trace */
  TtvProcessStatus status;
  TtvTime status_since;
  gint cpu;                /* CPU it runs or last ran on, -1 unknown */
  guint depth;             /* frames in use; frames[0] is the base mode (user) */
  TtvExecFrame frames[TTV_STATE_MAX_NESTING];
} TtvProcessState;

/* A CPU's interrupt frames are its own, whatever task they interrupted (and
 * even when that task is not known yet): the IRQ and soft IRQ counts come
 * from them, never from a process's stack. */
typedef struct {
  gint cpu;                /* CPU id (sparse) */
  guint32 running_pid;     /* TTV_PID_NONE when unknown */
  TtvTime since;           /* time of the last mode/process change on this CPU */
  guint irq_depth;         /* IRQ frames in interrupts[] */
  guint softirq_depth;     /* soft IRQ frames in interrupts[] */
  guint n_interrupts;      /* frames in use, outermost first */
  TtvExecFrame interrupts[TTV_STATE_MAX_NESTING];
} TtvCpuState;

typedef struct {
  guint32 id;
  GQuark name;             /* from the trace's interrupt descriptions, 0 if unknown */
  guint active;            /* CPUs handling it now: a per-CPU line (the local
                            * timer) can be active on several at once */
  gint cpu;                /* where it last started */
  TtvTime since;           /* when it last started */
} TtvIrqState;

typedef struct {
  guint32 dev;             /* MAJOR << 20 | MINOR, as the kernel's dev_t */
  guint pending;           /* requests issued to the device, not completed */
  TtvTime since;           /* when @pending last became or left zero */
} TtvBlockDevState;

typedef struct _TtvState TtvState;

TtvState *ttv_state_new (void);
TtvState *ttv_state_copy (const TtvState *state);
void      ttv_state_free (TtvState *state);

/* Machines (docs/multi-machine.md): a state holds one set of processes,
 * CPUs, IRQs and devices per machine of the traceset, numbered from 0 (a
 * new state has machine 0 only).  Every transition and every lookup below
 * acts on the selected machine; the state tracker selects the machine of
 * each event before applying it, so that whoever reads the state for an
 * event (reports, filters, views' hooks) reads that event's machine.
 * select creates the machines up to @machine. */
guint     ttv_state_get_n_machines (const TtvState *state);
guint     ttv_state_get_machine (const TtvState *state);
void      ttv_state_select_machine (TtvState *state, guint machine);
/* The host name of a machine (for texts), NULL when not set. */
void        ttv_state_set_machine_name (TtvState *state, guint machine, const char *name);
const char *ttv_state_get_machine_name (const TtvState *state, guint machine);

TtvTime   ttv_state_get_time (const TtvState *state);   /* time of the last event applied */
guint64   ttv_state_get_n_events (const TtvState *state); /* events applied since new() */

/* Lookups; NULL when unknown.  Pointers are valid until the next change. */
const TtvProcessState *ttv_state_get_process (const TtvState *state, guint32 pid);
const TtvCpuState     *ttv_state_get_cpu (const TtvState *state, gint cpu);
/* The process running on @cpu, or NULL. */
const TtvProcessState *ttv_state_get_running (const TtvState *state, gint cpu);
/* The process that emitted the last event applied, if it was on @cpu: the
 * thread a userspace event names through its contexts (vtid, vpid,
 * procname) when no kernel state says who runs on its CPU, else the task
 * running on @cpu; NULL when unknown.  What reports, filters and views
 * show as an event's process. */
const TtvProcessState *ttv_state_get_event_process (const TtvState *state, gint cpu);
/* ttv_state_get_cpu(), ttv_state_get_cpu_mode() (in @mode) and
 * ttv_state_get_event_process() (in @event_process) in one lookup of @cpu:
 * what a pass building views after every event asks. */
const TtvCpuState *ttv_state_get_cpu_view (const TtvState *state, gint cpu, TtvExecMode *mode,
                                           const TtvProcessState **event_process);
/* All processes, sorted by pid (caller frees the array, not the elements). */
GPtrArray *ttv_state_list_processes (const TtvState *state);
GPtrArray *ttv_state_list_cpus (const TtvState *state);
GPtrArray *ttv_state_list_irqs (const TtvState *state, gboolean soft);
/* IRQ (@soft: soft IRQ) @id, or NULL when never seen. */
const TtvIrqState     *ttv_state_get_irq (const TtvState *state, guint32 id, gboolean soft);
GPtrArray *ttv_state_list_block_devices (const TtvState *state);
/* Approximate bytes held, for bounding checkpoint memory. */
gsize     ttv_state_get_memory_size (const TtvState *state);
/* The state as bytes (for checkpoints kept in a file by this process:
 * quarks are stored as numbers), and back; NULL on bytes that do not
 * hold a snapshot.  Observers are not part of it. */
void      ttv_state_snapshot (const TtvState *state, GByteArray *out);
TtvState *ttv_state_from_snapshot (const guint8 *data, gsize size);

const char *ttv_process_status_name (TtvProcessStatus status);
const char *ttv_exec_mode_name (TtvExecMode mode);
/* What @cpu executes: its innermost IRQ or soft IRQ, else the mode of the
 * task running there, else TTV_MODE_UNKNOWN. */
TtvExecMode ttv_state_get_cpu_mode (const TtvState *state, gint cpu);
/* The process (thread group) id of @process, -1 when unknown (a userspace
 * thread of a trace without the vpid context). */
static inline gint64
ttv_process_state_get_tgid (const TtvProcessState *process)
{
  if (process->tgid == TTV_PID_NONE)
    return -1;
  return process->tgid ? process->tgid : process->pid;
}
/* The mode at the top of the process's stack. */
TtvExecMode ttv_process_state_get_mode (const TtvProcessState *process);
/* The system call of the last event applied, if it happened on @cpu:
 * the call it ended (a syscall exit), else the innermost call of the task
 * running on @cpu; NULL when none.  The state after a syscall exit is
 * already back in user mode, yet a report names the call on its exit line
 * as trcrpt does: reports and filters ask this, not the process. */
const char *ttv_state_get_event_syscall (const TtvState *state, gint cpu);
/* Name of the innermost syscall, or NULL when not in one. */
const char *ttv_process_state_get_syscall (const TtvProcessState *process);

/* Full text dump (ttv-report --state-at): CPUs, processes, IRQs, devices;
 * with several machines, each under a line "machine N HOST". */
void      ttv_state_append_text (const TtvState *state, GString *out);
/* Equal content (for tests: state through checkpoints == state by replay). */
gboolean  ttv_state_equal (const TtvState *a, const TtvState *b, GString *first_difference);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvState, ttv_state_free)

G_END_DECLS
