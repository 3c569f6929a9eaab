/* ttv-kernel-context.c: names, wakers, syscall exits and file
 * descriptors for the kernel analyses (see ttv-kernel-context.h). */
#include "ttv-kernel-context.h"

#include <string.h>

GArray *
ttv_kernel_machine_names (TtvAnalysisBuilder *b)
{
  GArray *names = g_array_new (FALSE, TRUE, sizeof (guint32));
  TtvTraceset *ts = ttv_analysis_builder_get_traceset (b);
  guint n = ttv_traceset_get_n_machines (ts);
  for (guint m = 0; m < n && n > 1; m++)
    {
      guint32 name = ttv_analysis_builder_intern (b, ttv_traceset_get_machine_name (ts, m));
      g_array_append_val (names, name);
    }
  return names;
}

guint32
ttv_kernel_machine_name (const GArray *names, guint machine)
{
  return machine < names->len ? g_array_index (names, guint32, machine) : TTV_ANALYSIS_NO_STRING;
}

guint32
ttv_kernel_thread_name (TtvAnalysisBuilder *b, const TtvState *state, guint32 pid, guint32 *tgid)
{
  const TtvProcessState *p = pid == TTV_PID_NONE ? NULL : ttv_state_get_process (state, pid);
  if (tgid)
    *tgid = p ? p->tgid : (pid == 0 ? 0 : pid);
  if (pid == 0)
    return ttv_analysis_builder_intern (b, "swapper");
  return p && p->name ? ttv_analysis_builder_intern_quark (b, p->name) : TTV_ANALYSIS_NO_STRING;
}

void
ttv_kernel_actor_on_cpu (TtvAnalysisBuilder *b, const TtvState *state, gint cpu, TtvKernelActor *out)
{
  memset (out, 0, sizeof *out);
  out->cpu = cpu;
  out->tid = TTV_PID_NONE;
  out->name = TTV_ANALYSIS_NO_STRING;
  const TtvCpuState *c = ttv_state_get_cpu (state, cpu);
  if (c && c->n_interrupts > 0)
    {
      const TtvExecFrame *f = &c->interrupts[c->n_interrupts - 1];
      out->id = f->id;
      if (f->mode == TTV_MODE_IRQ)
        {
          const TtvIrqState *irq = ttv_state_get_irq (state, f->id, FALSE);
          out->kind = TTV_WAKER_IRQ;
          if (irq && irq->name)
            out->name = ttv_analysis_builder_intern_quark (b, irq->name);
        }
      else
        {
          out->kind = TTV_WAKER_SOFTIRQ;
          out->name = ttv_analysis_builder_intern (b, ttv_kernel_model_get_softirq_name (f->id));
        }
      return;
    }
  const TtvProcessState *p = ttv_state_get_running (state, cpu);
  if (p)
    {
      out->kind = TTV_WAKER_THREAD;
      out->tid = p->pid;
      out->name = ttv_kernel_thread_name (b, state, p->pid, NULL);
    }
}

void
ttv_syscall_exit_before (TtvSyscallExit *x, const TtvAnalysisEvent *ev)
{
  x->active = ev->action == TTV_KM_SYSCALL_EXIT;
  if (!x->active)
    return;
  x->cpu = ev->event->tracefile->cpu;
  if (!ttv_kernel_model_get_int (ev->model, ev->trace, ev->event, TTV_KM_SYSCALL_RET, &x->ret))
    x->ret = 0;
}

gboolean
ttv_syscall_exit_matches (const TtvSyscallExit *x, gint cpu)
{
  return x->active && x->cpu == cpu;
}

/* ---- file descriptors ---- */

typedef struct {
  gboolean active;         /* in a call (or its exit being applied) */
  GQuark syscall;
  gint64 fd;               /* -1: no fd argument */
  char *filename;          /* owned, or NULL: its filename argument */
  const char *file;        /* the file its fd is (in @files), or its filename, or NULL */
  guint64 uaddr;
  guint32 op;
  gboolean has_futex;
  gint cpu;                /* where it entered */
} Call;

struct _TtvFdTracker {
  GHashTable *names;       /* every file name seen, owned: what @files and calls point to
                            * (a call keeps its file even when another thread closes it) */
  GHashTable *files;       /* tgid << 32 | fd (gint64 *, owned) -> name in @names */
  GHashTable *calls;       /* tid -> Call *, owned: each thread's last call, reused */
  Call *ended;             /* the call the last event ended, or NULL */
  /* The last call found: an exit and the records of the frame it ends
   * ask for the same thread's (calls are reused, never freed before the
   * tracker). */
  guint32 last_tid;
  Call *last_call;         /* or NULL */
  gboolean futex;          /* read calls' futex arguments */
  GQuark open, openat, creat, close;
};

/* tgid << 32 | fd keys: g_int64_hash (the halves xored) collides for
 * every small tgid and fd. */
static guint
fd_hash (gconstpointer p)
{
  guint64 v = *(const guint64 *) p * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15);
  return (guint) (v >> 32);
}

static void
call_free (Call *c)
{
  g_free (c->filename);
  g_free (c);
}

TtvFdTracker *
ttv_fd_tracker_new (gboolean futex)
{
  TtvFdTracker *t = g_new0 (TtvFdTracker, 1);
  t->futex = futex;
  t->names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  t->files = g_hash_table_new_full (fd_hash, g_int64_equal, g_free, NULL);
  t->calls = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, (GDestroyNotify) call_free);
  t->open = g_quark_from_static_string ("open");
  t->openat = g_quark_from_static_string ("openat");
  t->creat = g_quark_from_static_string ("creat");
  t->close = g_quark_from_static_string ("close");
  return t;
}

void
ttv_fd_tracker_free (TtvFdTracker *t)
{
  if (t == NULL)
    return;
  g_hash_table_unref (t->files);
  g_hash_table_unref (t->calls);
  g_hash_table_unref (t->names);
  g_free (t);
}

static gint64
fd_key (guint32 tgid, gint64 fd)
{
  return (gint64) ((guint64) tgid << 32 | (guint32) fd);
}

/* @name (taken) as the file @fd of @tgid. */
static void
set_file (TtvFdTracker *t, guint32 tgid, gint64 fd, char *name)
{
  gint64 key = fd_key (tgid, fd);
  char *interned = g_hash_table_lookup (t->names, name);
  if (interned)
    g_free (name);
  else
    g_hash_table_add (t->names, interned = name);
  g_hash_table_replace (t->files, g_memdup2 (&key, sizeof key), interned);
}

/* Thread @tid's call (its last), or NULL. */
static Call *
find_call (TtvFdTracker *t, guint32 tid)
{
  if (t->last_call && t->last_tid == tid)
    return t->last_call;
  Call *c = g_hash_table_lookup (t->calls, GUINT_TO_POINTER (tid));
  if (c)
    {
      t->last_tid = tid;
      t->last_call = c;
    }
  return c;
}

static guint32
tgid_of (const TtvState *state, guint32 tid)
{
  const TtvProcessState *p = ttv_state_get_process (state, tid);
  return p ? p->tgid : tid;
}

/* Threads and processes of the event's machine (the state has it
 * selected): keys are ttv_thread_key (machine, id). */
static guint
event_machine (const TtvAnalysisEvent *ev)
{
  return MIN (ttv_state_get_machine (ev->state), TTV_ANALYSIS_MAX_MACHINES - 1);
}

/* The handlers below are kept out of line (G_GNUC_NO_INLINE): inlined,
 * their frames made every event's call to ttv_fd_tracker_before_event
 * save and restore registers, and most events are none of theirs. */

/* A statedump's file descriptor. */
static G_GNUC_NO_INLINE void
on_fd_description (TtvFdTracker *t, const TtvAnalysisEvent *ev)
{
  guint machine = event_machine (ev);
  gint64 pid, fd;
  char *name = ttv_kernel_model_dup_string (ev->model, ev->trace, ev->event, TTV_KM_FD_FILENAME);
  if (name && ttv_kernel_model_get_int (ev->model, ev->trace, ev->event, TTV_KM_FD_PID, &pid)
      && ttv_kernel_model_get_int (ev->model, ev->trace, ev->event, TTV_KM_FD_FD, &fd))
    set_file (t, ttv_thread_key (machine, (guint32) pid), fd, name);
  else
    g_free (name);
}

static G_GNUC_NO_INLINE void
on_syscall_entry (TtvFdTracker *t, const TtvAnalysisEvent *ev)
{
  const TtvProcessState *p = ttv_state_get_running (ev->state, ev->event->tracefile->cpu);
  if (p == NULL || p->pid == 0)
    return;
  guint machine = event_machine (ev);
  guint32 key = ttv_thread_key (machine, p->pid);
  Call *c = find_call (t, key);
  if (c == NULL)
    {
      c = g_new0 (Call, 1);
      g_hash_table_insert (t->calls, GUINT_TO_POINTER (key), c);
    }
  g_clear_pointer (&c->filename, g_free);
  c->active = TRUE;
  c->file = NULL;
  c->has_futex = FALSE;
  c->cpu = ev->event->tracefile->cpu;
  c->syscall = ttv_kernel_model_get_syscall (ev->model, ev->trace, ev->event);
  if (!ttv_kernel_model_get_int (ev->model, ev->trace, ev->event, TTV_KM_SYSCALL_FD, &c->fd))
    c->fd = -1;
  if (c->fd >= 0)
    {
      gint64 file_key = fd_key (ttv_thread_key (machine, p->tgid), c->fd);
      c->file = g_hash_table_lookup (t->files, &file_key);
    }
  else if ((c->filename = ttv_kernel_model_dup_string (ev->model, ev->trace, ev->event, TTV_KM_SYSCALL_FILENAME)))
    c->file = c->filename;
  gint64 uaddr, op;
  if (t->futex && ttv_kernel_model_get_int (ev->model, ev->trace, ev->event, TTV_KM_SYSCALL_UADDR, &uaddr)
      && ttv_kernel_model_get_int (ev->model, ev->trace, ev->event, TTV_KM_SYSCALL_OP, &op))
    {
      c->uaddr = (guint64) uaddr;
      c->op = (guint32) op;
      c->has_futex = TRUE;
    }
}

static G_GNUC_NO_INLINE void
on_syscall_exit (TtvFdTracker *t, const TtvAnalysisEvent *ev)
{
  guint machine = event_machine (ev);
  const TtvProcessState *p = ttv_state_get_running (ev->state, ev->event->tracefile->cpu);
  Call *c = p ? find_call (t, ttv_thread_key (machine, p->pid)) : NULL;
  if (c == NULL || !c->active)
    return;
  t->ended = c;
  gboolean opens = c->syscall == t->open || c->syscall == t->openat || c->syscall == t->creat;
  gboolean closes = c->syscall == t->close;
  /* The return value only for the calls it changes the files of: most
   * calls are none of them. */
  gint64 ret;
  if ((!opens && !closes) || !ttv_kernel_model_get_int (ev->model, ev->trace, ev->event, TTV_KM_SYSCALL_RET, &ret))
    return;
  guint32 tgid = ttv_thread_key (machine, tgid_of (ev->state, p->pid));
  if (opens && ret >= 0 && c->filename)
    set_file (t, tgid, ret, g_strdup (c->filename));
  else if (closes && ret == 0 && c->fd >= 0)
    {
      gint64 key = fd_key (tgid, c->fd);
      g_hash_table_remove (t->files, &key);
    }
}

void
ttv_fd_tracker_before_event (TtvFdTracker *t, const TtvAnalysisEvent *ev)
{
  /* A call stays known while its exit is applied, then goes. */
  if (t->ended)
    {
      t->ended->active = FALSE;
      t->ended = NULL;
    }
  /* Most events are none of these. */
  switch (ev->action)
    {
    case TTV_KM_FD_DESCRIPTION:
      on_fd_description (t, ev);
      break;
    case TTV_KM_SYSCALL_ENTRY:
      on_syscall_entry (t, ev);
      break;
    case TTV_KM_SYSCALL_EXIT:
      on_syscall_exit (t, ev);
      break;
    default:
      break;
    }
}

static Call *
active_call (TtvFdTracker *t, guint32 tid)
{
  Call *c = find_call (t, tid);
  return c && c->active ? c : NULL;
}

const char *
ttv_fd_tracker_get_file (TtvFdTracker *t, guint32 tid)
{
  Call *c = active_call (t, tid);
  return c ? c->file : NULL;
}

gint
ttv_fd_tracker_get_entry_cpu (TtvFdTracker *t, guint32 tid, gint otherwise)
{
  Call *c = active_call (t, tid);
  return c ? c->cpu : otherwise;
}

gboolean
ttv_fd_tracker_get_futex (TtvFdTracker *t, guint32 tid, guint64 *uaddr, guint32 *op)
{
  Call *c = active_call (t, tid);
  if (c == NULL || !c->has_futex)
    return FALSE;
  *uaddr = c->uaddr;
  *op = c->op;
  return TRUE;
}
