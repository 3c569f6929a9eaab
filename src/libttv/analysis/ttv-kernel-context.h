/* ttv-kernel-context.h: what several kernel analyses need besides the
 * state: a task's name and thread group, who is waking a task (an IRQ, a
 * soft IRQ or a thread), the call a syscall exit ends, and the files behind
 * file descriptors where the trace says them.  Used by the kernel
 * analyses only. */
#pragma once

#include "ttv-kernel-analyses.h"

G_BEGIN_DECLS

/* Each machine's name as a string of @b, for the machine column of the
 * records of an analysis that is per machine: none with one machine,
 * whose records name no machine (their results are as before machines
 * existed).  ttv_kernel_machine_name() reads it. */
GArray  *ttv_kernel_machine_names (TtvAnalysisBuilder *b);
guint32  ttv_kernel_machine_name (const GArray *names, guint machine);

/* @pid's name (string of @b) and thread group, from @state. */
guint32  ttv_kernel_thread_name (TtvAnalysisBuilder *b, const TtvState *state, guint32 pid, guint32 *tgid);

/* Who acts on @cpu now: the innermost IRQ or soft IRQ it handles, else
 * its running task. */
typedef struct {
  TtvWakerKind kind;
  guint32 tid;             /* THREAD */
  guint32 id;              /* IRQ line, soft IRQ vector */
  guint32 name;            /* string of the builder */
  gint cpu;
} TtvKernelActor;

void     ttv_kernel_actor_on_cpu (TtvAnalysisBuilder *b, const TtvState *state, gint cpu, TtvKernelActor *out);

/* The syscall exit being applied: set before the event, read by the
 * observer's frame_end (a syscall frame ended by anything else is not a
 * call the trace saw return). */
typedef struct {
  gboolean active;
  gint cpu;
  gint64 ret;
} TtvSyscallExit;

void     ttv_syscall_exit_before (TtvSyscallExit *x, const TtvAnalysisEvent *ev);
/* Whether a syscall frame ending on @cpu is the one the exit ends. */
gboolean ttv_syscall_exit_matches (const TtvSyscallExit *x, gint cpu);

/* File descriptors: the statedump's, those open/openat/creat return,
 * forgotten by close; per thread group. */
typedef struct _TtvFdTracker TtvFdTracker;

/* @futex: whether calls' futex arguments are read (for
 * ttv_fd_tracker_get_futex; only the futex analysis asks). */
TtvFdTracker *ttv_fd_tracker_new (gboolean futex);
void     ttv_fd_tracker_free (TtvFdTracker *tracker);
/* Call for every event before the state applies it. */
void     ttv_fd_tracker_before_event (TtvFdTracker *tracker, const TtvAnalysisEvent *ev);
/* Keyed by machine: @tid below is ttv_thread_key (machine, tid). */
/* The file of the fd argument (or the filename argument) of the call
 * @tid is in, as a string of @b; TTV_ANALYSIS_NO_STRING when unknown.  A
 * tracker gives the strings of one builder. */
guint32  ttv_fd_tracker_get_file_string (TtvFdTracker *tracker, guint32 tid, TtvAnalysisBuilder *b);
/* The CPU where @tid entered the call it is in, @otherwise when unknown. */
gint     ttv_fd_tracker_get_entry_cpu (TtvFdTracker *tracker, guint32 tid, gint otherwise);
/* The futex address and operation of the call @tid is in; FALSE when it
 * is in none, the trace does not give them or the tracker does not read
 * them (ttv_fd_tracker_new). */
gboolean ttv_fd_tracker_get_futex (TtvFdTracker *tracker, guint32 tid, guint64 *uaddr, guint32 *op);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvFdTracker, ttv_fd_tracker_free)

G_END_DECLS
