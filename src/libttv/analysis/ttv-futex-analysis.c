/* ttv-futex-analysis.c: the "futex" analysis: the futex calls that wait
 * (lock and condition waits of user space), entry to exit, with the
 * address, the time off the CPU in the call and who woke the thread.
 * See ttv-kernel-analyses.h. */
#include "ttv-kernel-context.h"

#include <glib/gi18n-lib.h>

#include <string.h>

G_STATIC_ASSERT (sizeof (TtvFutexRecord) == 72);

/* linux/futex.h: the operations that wait, and the flag bits of op. */
#define FUTEX_WAIT 0
#define FUTEX_LOCK_PI 6
#define FUTEX_WAIT_BITSET 9
#define FUTEX_WAIT_REQUEUE_PI 11
#define FUTEX_LOCK_PI2 13
#define FUTEX_CMD_MASK 0x7f

static const char *const ops[] = {
  "wait", "wake", "fd", "requeue", "cmp_requeue", "wake_op", "lock_pi", "unlock_pi", "trylock_pi",
  "wait_bitset", "wake_bitset", "wait_requeue_pi", "cmp_requeue_pi", "lock_pi2", NULL
};

static const TtvAnalysisColumn wait_columns[] = {
  { "start", N_("Start"), TTV_COLUMN_TIME, G_STRUCT_OFFSET (TtvFutexRecord, start), NULL },
  { "end", N_("End"), TTV_COLUMN_TIME, G_STRUCT_OFFSET (TtvFutexRecord, end), NULL },
  { "duration", N_("Duration"), TTV_COLUMN_DURATION, -1, NULL },
  { "uaddr", N_("Address"), TTV_COLUMN_HEX, G_STRUCT_OFFSET (TtvFutexRecord, uaddr), NULL },
  { "op", N_("Operation"), TTV_COLUMN_ENUM, G_STRUCT_OFFSET (TtvFutexRecord, op), ops },
  { "blocked", N_("Blocked"), TTV_COLUMN_DURATION, G_STRUCT_OFFSET (TtvFutexRecord, blocked), NULL },
  { TTV_ANALYSIS_MACHINE_COLUMN, N_("Machine"), TTV_COLUMN_STRING, G_STRUCT_OFFSET (TtvFutexRecord, machine), NULL },
  { "tid", N_("TID"), TTV_COLUMN_TID, G_STRUCT_OFFSET (TtvFutexRecord, tid), NULL },
  { "tgid", N_("PID"), TTV_COLUMN_TID, G_STRUCT_OFFSET (TtvFutexRecord, tgid), NULL },
  { "name", N_("Name"), TTV_COLUMN_STRING, G_STRUCT_OFFSET (TtvFutexRecord, name), NULL },
  { "waker_tid", N_("Waker TID"), TTV_COLUMN_TID, G_STRUCT_OFFSET (TtvFutexRecord, waker_tid), NULL },
  { "waker_name", N_("Waker"), TTV_COLUMN_STRING, G_STRUCT_OFFSET (TtvFutexRecord, waker_name), NULL },
  { "ret", N_("Return"), TTV_COLUMN_INT, G_STRUCT_OFFSET (TtvFutexRecord, ret), NULL },
};

static const TtvAnalysisTableSpec waits_spec = {
  "waits", sizeof (TtvFutexRecord), wait_columns, G_N_ELEMENTS (wait_columns),
  { G_STRUCT_OFFSET (TtvFutexRecord, key), -1 }, G_STRUCT_OFFSET (TtvFutexRecord, uaddr), TRUE, TRUE,
};

static const TtvAnalysisTableSpec *const tables[] = { &waits_spec };

typedef struct {
  TtvFutexRecord r;
  TtvTime off_since;            /* when it left its CPU in the call, 0: on it */
} Wait;

typedef struct {
  TtvAnalysisBuilder *b;
  TtvTableBuilder *waits;
  TtvFdTracker *calls;
  TtvSyscallExit exit;
  GHashTable *waiting;          /* ttv_thread_key -> Wait *, owned: threads in a futex wait */
  GArray *machine_names;        /* per machine: guint32 string of its name (none with one machine) */
  GQuark futex;
  gint cpu;
  TtvKernelAction action;
} Futex;

static gpointer
futex_attach (TtvAnalysisPass *pass, const TtvAnalysisOptions *options, GError **error)
{
  TtvAnalysisBuilder *b = ttv_analysis_pass_get_builder (pass);
  Futex *f = g_new0 (Futex, 1);
  f->b = b;
  f->waits = ttv_analysis_builder_get_table (b, 0);
  f->calls = ttv_fd_tracker_new (TRUE);
  f->waiting = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  f->futex = g_quark_from_static_string ("futex");
  f->machine_names = ttv_kernel_machine_names (b);
  return f;
}

static void
futex_free (gpointer data)
{
  Futex *f = data;
  ttv_fd_tracker_free (f->calls);
  g_hash_table_unref (f->waiting);
  g_array_unref (f->machine_names);
  g_free (f);
}

static gboolean
op_waits (guint32 op)
{
  guint32 cmd = op & FUTEX_CMD_MASK;
  return cmd == FUTEX_WAIT || cmd == FUTEX_LOCK_PI || cmd == FUTEX_WAIT_BITSET || cmd == FUTEX_WAIT_REQUEUE_PI
         || cmd == FUTEX_LOCK_PI2;
}

static void
futex_before_event (gpointer data, const TtvAnalysisEvent *ev)
{
  Futex *f = data;
  f->cpu = ev->event->tracefile->cpu;
  f->action = ev->action;
  ttv_syscall_exit_before (&f->exit, ev);
  ttv_fd_tracker_before_event (f->calls, ev);
}

static void
futex_after_event (gpointer data, const TtvAnalysisEvent *ev)
{
  Futex *f = data;
  if (ev->action != TTV_KM_SYSCALL_ENTRY
      || ttv_kernel_model_get_syscall (ev->model, ev->trace, ev->event) != f->futex)
    return;
  const TtvProcessState *p = ttv_state_get_running (ev->state, f->cpu);
  guint64 uaddr;
  guint32 op;
  guint machine = MIN (ttv_state_get_machine (ev->state), TTV_ANALYSIS_MAX_MACHINES - 1);
  if (p == NULL || p->pid == 0 || !ttv_fd_tracker_get_futex (f->calls, ttv_thread_key (machine, p->pid), &uaddr, &op)
      || !op_waits (op))
    return;
  Wait *w = g_new0 (Wait, 1);
  w->r.start = ev->event->time;
  w->r.uaddr = uaddr;
  w->r.op = op & FUTEX_CMD_MASK;
  w->r.tid = p->pid;
  w->r.key = ttv_thread_key (machine, p->pid);
  w->r.machine = ttv_kernel_machine_name (f->machine_names, machine);
  w->r.waker_tid = TTV_PID_NONE;
  w->r.waker_name = TTV_ANALYSIS_NO_STRING;
  g_hash_table_replace (f->waiting, GUINT_TO_POINTER (w->r.key), w);
}

/* Thread @tid of the machine the state has selected (the event's, in its
 * observer's calls). */
static gpointer
thread_key (Futex *f, guint32 tid)
{
  const TtvState *state = ttv_analysis_builder_get_state (f->b);
  return GUINT_TO_POINTER (ttv_thread_key (MIN (ttv_state_get_machine (state), TTV_ANALYSIS_MAX_MACHINES - 1), tid));
}

static void
on_process_status (gpointer data, const TtvProcessState *p, TtvProcessStatus old, TtvTime time)
{
  Futex *f = data;
  gpointer key = thread_key (f, p->pid);
  Wait *w = g_hash_table_lookup (f->waiting, key);
  if (w == NULL)
    return;
  if (p->status == TTV_PROCESS_WAIT && old == TTV_PROCESS_RUN)
    w->off_since = time;
  else if (p->status == TTV_PROCESS_WAIT_CPU && old == TTV_PROCESS_WAIT && f->action == TTV_KM_WAKEUP)
    {
      TtvKernelActor a;
      ttv_kernel_actor_on_cpu (f->b, ttv_analysis_builder_get_state (f->b), f->cpu, &a);
      if (a.kind == TTV_WAKER_THREAD)
        {
          w->r.waker_tid = a.tid;
          w->r.waker_name = a.name;
        }
    }
  else if (p->status == TTV_PROCESS_RUN && w->off_since)
    {
      w->r.blocked += time - w->off_since;
      w->off_since = 0;
    }
  else if (p->status == TTV_PROCESS_DEAD || p->status == TTV_PROCESS_ZOMBIE)
    g_hash_table_remove (f->waiting, key);
}

static void
on_frame_end (gpointer data, gint cpu, guint32 pid, const TtvExecFrame *frame, TtvTime end)
{
  Futex *f = data;
  if (frame->mode != TTV_MODE_SYSCALL || !ttv_syscall_exit_matches (&f->exit, cpu))
    return;
  gpointer key = thread_key (f, pid);
  Wait *w = g_hash_table_lookup (f->waiting, key);
  if (w == NULL)
    return;
  if (frame->id == f->futex && frame->entry == w->r.start)
    {
      w->r.end = end;
      w->r.ret = f->exit.ret;
      w->r.name = ttv_kernel_thread_name (f->b, ttv_analysis_builder_get_state (f->b), pid, &w->r.tgid);
      ttv_table_builder_push (f->waits, &w->r);
    }
  g_hash_table_remove (f->waiting, key);
}

static const TtvStateObserver futex_observer = { .frame_end = on_frame_end, .process_status = on_process_status };

const TtvAnalysisClass ttv_futex_analysis = {
  .name = "futex",
  .title = N_("Futex waits"),
  .description = N_("Time threads spend waiting on each futex (user-space locks and conditions)"),
  .formats = TTV_ANALYSIS_FORMAT_BIT (TTV_ANALYSIS_FORMAT_TEXT) | TTV_ANALYSIS_FORMAT_BIT (TTV_ANALYSIS_FORMAT_JSONL)
             | TTV_ANALYSIS_FORMAT_BIT (TTV_ANALYSIS_FORMAT_CSV),
  .needs_state = TRUE,
  .attach = futex_attach,
  .free = futex_free,
  .tables = tables,
  .n_tables = G_N_ELEMENTS (tables),
  .version = 2,
  .observer = &futex_observer,
  .before_event = futex_before_event,
  .after_event = futex_after_event,
};
