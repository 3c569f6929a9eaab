/* ttv-kernel-model.h: what kernel events mean for the state.  One table per
 * format family maps event names and fields to state transitions; this is
 * the only place that knows "sched_switch" or "core.irq_entry". */
#pragma once

#include "ttv-state.h"

G_BEGIN_DECLS

typedef enum {
  TTV_KM_NONE,
  TTV_KM_SCHED_SWITCH,     /* prev pid, next pid, prev state */
  TTV_KM_FORK,             /* parent pid, child pid, child tgid, child name */
  TTV_KM_EXEC,             /* filename, pid */
  TTV_KM_EXIT,             /* pid */
  TTV_KM_FREE,             /* pid */
  TTV_KM_WAKEUP,           /* pid */
  TTV_KM_SYSCALL_ENTRY,    /* syscall id (enum label or number); or name from the event name */
  TTV_KM_SYSCALL_EXIT,
  TTV_KM_TRAP_ENTRY,       /* trap id */
  TTV_KM_TRAP_EXIT,
  TTV_KM_IRQ_ENTRY,        /* irq, name */
  TTV_KM_IRQ_EXIT,
  TTV_KM_SOFTIRQ_ENTRY,    /* vector */
  TTV_KM_SOFTIRQ_EXIT,
  TTV_KM_PROCESS_DESCRIPTION, /* pid, tgid, ppid, name, status (statedump, LTT control/processes) */
  TTV_KM_IRQ_DESCRIPTION,  /* irq, name */
  TTV_KM_BLOCK_ISSUE,      /* dev, sector, nr_sector, rw flags, comm */
  TTV_KM_BLOCK_COMPLETE,   /* dev, sector, nr_sector, rw flags */
  TTV_KM_BLOCK_REQUEUE,    /* dev, sector, nr_sector, rw flags: back in the queue, issued again later */
  /* No state transition: what analyses read besides the state. */
  TTV_KM_SOFTIRQ_RAISE,    /* vector */
  TTV_KM_FD_DESCRIPTION,   /* pid, fd, filename (a file open when the trace started) */
} TtvKernelAction;

#define TTV_KM_MAX_FIELDS 6

/* The fields of an action, by index into a table row's fields (what
 * ttv_kernel_model_get_int() and _dup_string() read). */
enum {
  TTV_KM_SWITCH_PREV = 0, TTV_KM_SWITCH_NEXT = 1, TTV_KM_SWITCH_PREV_STATE = 2,
  TTV_KM_SWITCH_NEXT_PRIO = 5,
  TTV_KM_WAKEUP_TID = 0, TTV_KM_WAKEUP_PRIO = 1, TTV_KM_WAKEUP_TARGET_CPU = 2,
  /* Arguments by their Linux names (fd, filename, uaddr, op), for the
   * calls that have them; the call's number where the event does not name it. */
  TTV_KM_SYSCALL_ID = 0, TTV_KM_SYSCALL_FD = 1, TTV_KM_SYSCALL_FILENAME = 2,
  TTV_KM_SYSCALL_UADDR = 3, TTV_KM_SYSCALL_OP = 4,
  TTV_KM_SYSCALL_RET = 0,
  TTV_KM_BLOCK_DEV = 0, TTV_KM_BLOCK_SECTOR = 1, TTV_KM_BLOCK_NR_SECTOR = 2,
  /* Bit 0 set for a write, in LTT's rw enum as in LTTng's rwbs flags. */
  TTV_KM_BLOCK_RW = 3, TTV_KM_BLOCK_COMM = 4,
  TTV_KM_SOFTIRQ_VEC = 0,
  TTV_KM_FD_PID = 0, TTV_KM_FD_FD = 1, TTV_KM_FD_FILENAME = 2,
  TTV_KM_FORK_PARENT = 0, TTV_KM_FORK_CHILD = 1, TTV_KM_FORK_CHILD_TGID = 2, TTV_KM_FORK_CHILD_NAME = 3,
  TTV_KM_TASK_PID = 0,       /* of exit, free and wakeup (TTV_KM_WAKEUP_TID) */
};

/* One row of a table.  @event is a full name, a plain name, or a prefix
 * ending in '*' (the rest of the name is then the syscall name). */
typedef struct {
  const char *event;
  TtvKernelAction action;
  const char *fields[TTV_KM_MAX_FIELDS];   /* NULL: not available in this family */
} TtvKernelModelEntry;

typedef struct _TtvKernelModel TtvKernelModel;

/* Binds the tables to every event type of @traces (an array of TtvTrace *),
 * resolving field accessors once. */
TtvKernelModel *ttv_kernel_model_new (GPtrArray *traces);
void            ttv_kernel_model_free (TtvKernelModel *model);
/* The action for an event type (TTV_KM_NONE when the state ignores it). */
TtvKernelAction ttv_kernel_model_get_action (const TtvKernelModel *model, guint trace_index,
                                             const TtvEventType *event_type);
/* Field @field (see the enum above) of @event, whose action the model
 * knows: FALSE when this family's event lacks it. */
gboolean        ttv_kernel_model_get_int (TtvKernelModel *model, guint trace_index,
                                          const TtvEvent *event, guint field, gint64 *out);
/* The same for a text field; caller frees, NULL when absent. */
char           *ttv_kernel_model_dup_string (TtvKernelModel *model, guint trace_index,
                                             const TtvEvent *event, guint field);
/* The system call an entry or exit event names (from its event name or its
 * number), as a quark; 0 when the event names none (an LTTng 2.x exit
 * without its call's name). */
GQuark          ttv_kernel_model_get_syscall (TtvKernelModel *model, guint trace_index,
                                              const TtvEvent *event);
/* Applies one event of trace @trace_index to @state, on the machine of
 * that trace (ttv_traces_number_machines over the traces given to new();
 * the machine stays selected afterwards). */
void            ttv_kernel_model_apply (TtvKernelModel *model, TtvState *state,
                                        guint trace_index, const TtvEvent *event);
/* Declares what a format keeps outside the event stream (LTT control files:
 * processes and interrupt names that existed when the trace started), on
 * the machine of @trace. */
void            ttv_kernel_model_apply_initial (TtvKernelModel *model, TtvState *state,
                                                const TtvTrace *trace);

/* The Linux name of soft IRQ vector @vec ("TIMER", "NET_RX"...), NULL when
 * the kernel has no such vector (the numbering is the same in every kernel
 * LTT and LTTng trace: include/linux/interrupt.h, since 2.6.36). */
const char     *ttv_kernel_model_get_softirq_name (guint32 vec);

/* The name trace @trace_index gives soft IRQ vector @vec: the label of
 * its soft IRQ entry event's enumeration when it has one (LTT), else
 * Linux's for the LTTng 2 family, whose events give the bare number; NULL
 * when unknown (LTTng 0.x). */
const char     *ttv_kernel_model_get_trace_softirq_name (const TtvKernelModel *model,
                                                         guint trace_index, guint32 vec);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvKernelModel, ttv_kernel_model_free)

G_END_DECLS
