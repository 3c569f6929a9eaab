/* ttv-state-private.h: the transitions that change a TtvState.  Only the
 * kernel model (ttv-kernel-model.c) calls these; everything else reads. */
#pragma once

#include "ttv-state.h"

G_BEGIN_DECLS

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
} TtvStateObserver;

void ttv_state_set_observer (TtvState *state, const TtvStateObserver *observer, gpointer data);
void ttv_state_begin_event (TtvState *state, TtvTime time);

/* Status values a scheduler switch may give the outgoing task. */
void ttv_state_sched_switch (TtvState *s, gint cpu, guint32 prev_pid, guint32 next_pid,
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
/* A process that existed before the trace (LTT control/processes, LTTng statedump). */
void ttv_state_declare_process (TtvState *s, guint32 pid, guint32 tgid, guint32 ppid,
                                const char *name, TtvProcessStatus status, gint cpu, TtvTime t);
/* Gives a name to a task known only by its pid. */
void ttv_state_name_process (TtvState *s, guint32 pid, const char *name);
void ttv_state_name_irq (TtvState *s, guint32 irq, const char *name);
void ttv_state_block_issue (TtvState *s, guint32 dev, TtvTime t);
void ttv_state_block_complete (TtvState *s, guint32 dev, TtvTime t);

G_END_DECLS
