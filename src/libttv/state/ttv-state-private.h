/* ttv-state-private.h: the transitions that change a TtvState.  Only the
 * kernel model (ttv-kernel-model.c) calls these; everything else reads. */
#pragma once

#include "ttv-state.h"
#include "ttv-state-block-requests.h"

G_BEGIN_DECLS

/* Instant events about a process (the state history's marks). */
typedef enum {
  TTV_STATE_MARK_FORK,      /* @other: the parent */
  TTV_STATE_MARK_EXEC,
  TTV_STATE_MARK_EXIT,
  TTV_STATE_MARK_WAKEUP,    /* @other: TTV_PID_NONE (the waker is what runs on the event's CPU) */
} TtvStateMark;

typedef enum {
  TTV_STATE_RESOURCE_IRQ,
  TTV_STATE_RESOURCE_SOFTIRQ,
  TTV_STATE_RESOURCE_BLOCKDEV,
} TtvStateResource;

/* Told of every change that matters for time accounting (statistics, the
 * state history): each callback may be NULL. */
typedef struct {
  /* @pid ran on @cpu in @mode (@id: syscall quark / IRQ number...) from
   * @start to @end; called when that stretch ends. */
  void (*cpu_time) (gpointer data, gint cpu, guint32 pid, TtvExecMode mode, guint32 id,
                    TtvTime start, TtvTime end);
  /* A syscall, trap, IRQ or soft IRQ frame ended; entry time in the frame. */
  void (*frame_end) (gpointer data, gint cpu, guint32 pid, const TtvExecFrame *frame, TtvTime end);
  /* A process changed status (or was created: old == TTV_PROCESS_N_STATUS). */
  void (*process_status) (gpointer data, const TtvProcessState *process,
                          TtvProcessStatus old_status, TtvTime time);
  /* A fork, exec, exit or wakeup of @pid. */
  void (*mark) (gpointer data, TtvStateMark kind, guint32 pid, guint32 other, TtvTime time);
  /* The nesting count of an IRQ or soft IRQ, or the pending requests of a
   * block device, changed to @count. */
  void (*resource) (gpointer data, TtvStateResource kind, guint32 id, guint count, TtvTime time);
  /* What cpu_time tells, for observers that need only who ran where and
   * for how long: @pid ran on @cpu for @duration (> 0).  Cheaper to tell,
   * nearly once an event: four arguments, no frame read. */
  void (*cpu_spent) (gpointer data, gint cpu, guint32 pid, TtvTime duration);
} TtvStateObserver;

/* A state has up to TTV_STATE_MAX_OBSERVERS observers (not copied with the
 * state).  add: adds @observer, or changes its data if it is already there;
 * set_observer is the same (kept for the statistics). */
#define TTV_STATE_MAX_OBSERVERS 4
void ttv_state_add_observer (TtvState *state, const TtvStateObserver *observer, gpointer data);
void ttv_state_remove_observer (TtvState *state, const TtvStateObserver *observer);
void ttv_state_set_observer (TtvState *state, const TtvStateObserver *observer, gpointer data);
void ttv_state_begin_event (TtvState *state, TtvTime time);
/* select_machine (@machine) then begin_event. */
void ttv_state_begin_machine_event (TtvState *state, guint machine, TtvTime time);

/* What beginning an event changes in a state, the first member of every
 * TtvState: declared here so that the kernel model begins its events
 * inline (ttv_state_begin_event_on), with no call and no register saved
 * around one.  Only ttv-state.c and that function change it; the history
 * builder reads the machine from it (an observer's every callback). */
typedef struct {
  TtvTime time;
  guint64 n_events;
  guint machine;           /* the selected machine's id */
  guint32 event_tid;       /* the thread the last event applied names itself (userspace
                            * contexts), TTV_PID_NONE: the task running on its CPU */
} TtvStateEventHead;

/* ttv_state_begin_event() when @machine is the selected one (the kernel
 * model's every event but the first of a machine); FALSE, with nothing
 * changed, when it is not (then ttv_state_begin_machine_event()). */
static inline gboolean
ttv_state_begin_event_on (TtvState *state, guint machine, TtvTime time)
{
  TtvStateEventHead *head = (TtvStateEventHead *) state;
  if (G_UNLIKELY (machine != head->machine))
    return FALSE;
  head->time = time;
  head->n_events++;
  head->event_tid = TTV_PID_NONE;
  return TRUE;
}

/* Status values a scheduler switch may give the outgoing task.  Returns
 * which of the two tasks (idle tasks aside) have no name after it, so that
 * the caller reads names from the event only for those: both when @cpu is
 * none the state keeps (it did not look the tasks up). */
#define TTV_SWITCH_PREV_UNNAMED 1u
#define TTV_SWITCH_NEXT_UNNAMED 2u
guint ttv_state_sched_switch (TtvState *s, gint cpu, guint32 prev_pid, guint32 next_pid,
                              TtvProcessStatus prev_status, TtvTime t);
void ttv_state_fork (TtvState *s, guint32 parent_pid, guint32 child_pid, guint32 child_tgid,
                     const char *child_name, TtvTime t);
void ttv_state_exec (TtvState *s, guint32 pid, const char *filename, TtvTime t);
void ttv_state_exit (TtvState *s, guint32 pid, TtvTime t);
void ttv_state_free_process (TtvState *s, guint32 pid, TtvTime t);
void ttv_state_wakeup (TtvState *s, guint32 pid, TtvTime t);
/* An execution-mode frame entered / left by what runs on @cpu. */
void ttv_state_push_mode (TtvState *s, gint cpu, TtvExecMode mode, guint32 id, TtvTime t);
void ttv_state_pop_mode (TtvState *s, gint cpu, TtvExecMode mode, TtvTime t);
/* A syscall exit on @cpu: pops the syscall frame and remembers the call for
 * ttv_state_get_event_syscall(); @name: the call the event names, or 0. */
void ttv_state_syscall_exit (TtvState *s, gint cpu, GQuark name, TtvTime t);
/* A process that existed before the trace (LTT control/processes, LTTng statedump). */
void ttv_state_declare_process (TtvState *s, guint32 pid, guint32 tgid, guint32 ppid,
                                const char *name, TtvProcessStatus status, gint cpu, TtvTime t);
/* An event a userspace thread emitted on @cpu, naming itself through its
 * contexts (vtid @tid, vpid @tgid: TTV_PID_NONE when absent, procname
 * @name).  When the kernel's state says which task runs on @cpu, that task
 * is the event's (named @name if it has no name); otherwise the thread is
 * created on first sight (its status unknown) and named.  Either way,
 * ttv_state_get_event_process() answers with it until the next event. */
void ttv_state_user_event (TtvState *s, gint cpu, guint32 tid, guint32 tgid, const char *name, TtvTime t);
/* Gives a name to a task known only by its pid. */
void ttv_state_name_process (TtvState *s, guint32 pid, const char *name);
void ttv_state_name_irq (TtvState *s, guint32 irq, const char *name);
/* The same with a name borrowed from the trace data: its first @len bytes,
 * or up to a NUL; copied only when it is not the IRQ's name already. */
void ttv_state_name_irq_bytes (TtvState *s, guint32 irq, const char *name, gsize len);
/* A block request given to its device / completed (or requeued) by it. */
void ttv_state_block_issue (TtvState *s, const TtvBlockRequest *rq, TtvTime t);
void ttv_state_block_complete (TtvState *s, const TtvBlockRequest *rq, TtvTime t);

G_END_DECLS
