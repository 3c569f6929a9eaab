/* ttv-fd-tracker.c: the files behind file descriptors, and each thread's
 * system call with its fd or file name argument, for the kernel analyses
 * (see ttv-kernel-context.h).
 *
 * Every system call entry and exit of the trace comes through here, so
 * its tables are keyed by integers without boxing (TtvFdTable,
 * TtvIdTable): GHashTable took about 90 instructions a lookup of a boxed
 * 64-bit fd key.  A file name is copied once, when first seen. */
#include "ttv-kernel-context.h"
#include "ttv-fd-table.h"
#include "ttv-id-table.h"

#include <string.h>

/* A file name, interned: one per distinct name, kept as long as the
 * tracker, so that a record's string for it is looked up once. */
typedef struct {
  guint32 string;          /* its string in the tracker's builder + 1, or 0: not asked yet */
  char name[];
} FdName;

typedef struct {
  gboolean active;         /* in a call (or its exit being applied) */
  GQuark syscall;
  gint64 fd;               /* -1: no fd argument */
  FdName *filename;        /* its filename argument, or NULL */
  FdName *file;            /* the file its fd is, or its filename, or NULL */
  guint64 uaddr;
  guint32 op;
  gboolean has_futex;
  gint cpu;                /* where it entered */
} Call;

/* A live process's files. */
typedef struct {
  TtvFdTable fds;          /* fd -> the name of an FdName in the tracker's @names */
} FdProcess;

struct _TtvFdTracker {
  GHashTable *names;       /* name -> FdName (owned): every file name seen, what processes and calls
                            * point to (a call keeps its file even when another thread closes it) */
  TtvAnalysisBuilder *builder;  /* whose strings FdName.string are (the first asked) */
  /* Thread group key -> FdProcess, dropped when the process is freed:
   * the kernel closes its files then, without a close the trace shows. */
  TtvIdTable processes;
  TtvIdTable calls;        /* thread key -> Call: each thread's last call, reused */
  Call *ended;             /* the call the last event ended, or NULL */
  /* The last call found: an exit and the records of the frame it ends
   * ask for the same thread's (calls are reused, never freed before the
   * tracker). */
  guint32 last_tid;
  Call *last_call;         /* or NULL */
  gboolean futex;          /* read calls' futex arguments */
  GQuark open, openat, creat, close;
};

/* ---- the tracker ---- */

TtvFdTracker *
ttv_fd_tracker_new (gboolean futex)
{
  TtvFdTracker *t = g_new0 (TtvFdTracker, 1);
  t->futex = futex;
  t->names = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  ttv_id_table_init (&t->processes);
  ttv_id_table_init (&t->calls);
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
  g_autoptr (GPtrArray) processes = ttv_id_table_list (&t->processes);
  for (guint i = 0; i < processes->len; i++)
    ttv_fd_table_clear (&((FdProcess *) g_ptr_array_index (processes, i))->fds);
  ttv_id_table_clear (&t->processes);
  ttv_id_table_clear (&t->calls);
  g_hash_table_unref (t->names);
  g_free (t);
}

/* @name's FdName (made the first time it is seen); NULL for NULL or an
 * empty name, which names no file (a call on its dfd with AT_EMPTY_PATH,
 * an fd the statedump names ""). */
static FdName *
intern_name (TtvFdTracker *t, const char *name)
{
  if (name == NULL || *name == '\0')
    return NULL;
  FdName *n = g_hash_table_lookup (t->names, name);
  if (n == NULL)
    {
      gsize len = strlen (name);
      n = g_malloc (sizeof *n + len + 1);
      n->string = 0;
      memcpy (n->name, name, len + 1);
      g_hash_table_insert (t->names, n->name, n);
    }
  return n;
}

/* The FdName whose name a process's table holds. */
static FdName *
name_record (const char *name)
{
  return name ? (FdName *) (gpointer) (name - G_STRUCT_OFFSET (FdName, name)) : NULL;
}

/* A process @tgid without files known yet (none must be there). */
static FdProcess *
add_process (TtvFdTracker *t, guint32 tgid)
{
  FdProcess *p = g_new (FdProcess, 1);
  ttv_fd_table_init (&p->fds);
  ttv_id_table_insert (&t->processes, tgid, p);
  return p;
}

/* @name as the file @fd of @tgid. */
static void
set_file (TtvFdTracker *t, guint32 tgid, gint64 fd, const FdName *name)
{
  if (name == NULL)
    return;
  FdProcess *p = ttv_id_table_lookup (&t->processes, tgid);
  ttv_fd_table_insert (p ? &p->fds : &add_process (t, tgid)->fds, fd, name->name);
}

static FdName *
get_file (TtvFdTracker *t, guint32 tgid, gint64 fd)
{
  FdProcess *p = ttv_id_table_lookup (&t->processes, tgid);
  return p ? name_record (ttv_fd_table_lookup (&p->fds, fd)) : NULL;
}

static void
forget_file (TtvFdTracker *t, guint32 tgid, gint64 fd)
{
  FdProcess *p = ttv_id_table_lookup (&t->processes, tgid);
  if (p)
    ttv_fd_table_remove (&p->fds, fd);
}

/* Every file of the process @tgid. */
static void
forget_process (TtvFdTracker *t, guint32 tgid)
{
  FdProcess *p = ttv_id_table_lookup (&t->processes, tgid);
  if (p == NULL)
    return;
  ttv_fd_table_clear (&p->fds);
  ttv_id_table_remove (&t->processes, tgid);
}

/* Thread @tid's call (its last), or NULL. */
static Call *
find_call (TtvFdTracker *t, guint32 tid)
{
  if (t->last_call && t->last_tid == tid)
    return t->last_call;
  Call *c = ttv_id_table_lookup (&t->calls, tid);
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
  g_autofree char *name = ttv_kernel_model_dup_string (ev->model, ev->trace, ev->event, TTV_KM_FD_FILENAME);
  if (name && ttv_kernel_model_get_int (ev->model, ev->trace, ev->event, TTV_KM_FD_PID, &pid)
      && ttv_kernel_model_get_int (ev->model, ev->trace, ev->event, TTV_KM_FD_FD, &fd))
    set_file (t, ttv_thread_key (machine, (guint32) pid), fd, intern_name (t, name));
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
      ttv_id_table_insert (&t->calls, key, c);
    }
  c->filename = NULL;
  c->active = TRUE;
  c->file = NULL;
  c->has_futex = FALSE;
  c->cpu = ev->event->tracefile->cpu;
  c->syscall = ttv_kernel_model_get_syscall (ev->model, ev->trace, ev->event);
  if (!ttv_kernel_model_get_int (ev->model, ev->trace, ev->event, TTV_KM_SYSCALL_FD, &c->fd))
    c->fd = -1;
  if (c->fd >= 0)
    c->file = get_file (t, ttv_thread_key (machine, p->tgid), c->fd);
  else
    {
      g_autofree char *filename = ttv_kernel_model_dup_string (ev->model, ev->trace, ev->event,
                                                               TTV_KM_SYSCALL_FILENAME);
      c->file = c->filename = intern_name (t, filename);
    }
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
    set_file (t, tgid, ret, c->filename);
  else if (closes && ret == 0 && c->fd >= 0)
    forget_file (t, tgid, c->fd);
}

/* A task freed: when it leads its thread group, the process is gone
 * (Linux frees a group's leader after its other threads) and so are its
 * files.  Kept, they would name the fds of a later process given the same
 * pid, and the table would grow with every process the trace saw. */
static G_GNUC_NO_INLINE void
on_task_free (TtvFdTracker *t, const TtvAnalysisEvent *ev)
{
  gint64 pid;
  if (!ttv_kernel_model_get_int (ev->model, ev->trace, ev->event, TTV_KM_TASK_PID, &pid))
    {
      const TtvProcessState *running = ttv_state_get_running (ev->state, ev->event->tracefile->cpu);
      if (running == NULL)
        return;
      pid = running->pid;
    }
  const TtvProcessState *p = ttv_state_get_process (ev->state, (guint32) pid);
  if (p == NULL || p->tgid == (guint32) pid)
    forget_process (t, ttv_thread_key (event_machine (ev), (guint32) pid));
}

/* A new process (a task that leads its own group) has its parent's
 * files, as fork gives them; any files still known under its pid were a
 * freed process's whose free the trace lost.  (A new thread shares its
 * group's: nothing to do.) */
static G_GNUC_NO_INLINE void
on_fork (TtvFdTracker *t, const TtvAnalysisEvent *ev)
{
  gint64 parent, child, tgid;
  if (!ttv_kernel_model_get_int (ev->model, ev->trace, ev->event, TTV_KM_FORK_CHILD, &child))
    return;
  if (!ttv_kernel_model_get_int (ev->model, ev->trace, ev->event, TTV_KM_FORK_CHILD_TGID, &tgid))
    tgid = child;
  if (tgid != child)
    return;
  guint machine = event_machine (ev);
  guint32 key = ttv_thread_key (machine, (guint32) child);
  forget_process (t, key);
  if (!ttv_kernel_model_get_int (ev->model, ev->trace, ev->event, TTV_KM_FORK_PARENT, &parent))
    return;
  const FdProcess *from = ttv_id_table_lookup (&t->processes, ttv_thread_key (machine, tgid_of (ev->state, (guint32) parent)));
  if (from == NULL || ttv_fd_table_size (&from->fds) == 0)
    return;
  FdProcess *p = add_process (t, key);
  ttv_fd_table_copy (&p->fds, &from->fds);
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
    case TTV_KM_FREE:
      on_task_free (t, ev);
      break;
    case TTV_KM_FORK:
      on_fork (t, ev);
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

guint32
ttv_fd_tracker_get_file_string (TtvFdTracker *t, guint32 tid, TtvAnalysisBuilder *b)
{
  g_return_val_if_fail (t->builder == NULL || t->builder == b, TTV_ANALYSIS_NO_STRING);
  t->builder = b;
  Call *c = active_call (t, tid);
  if (c == NULL || c->file == NULL)
    return TTV_ANALYSIS_NO_STRING;
  /* Found through the name's hash once, not once a record. */
  if (c->file->string == 0)
    c->file->string = ttv_analysis_builder_intern (b, c->file->name) + 1;
  return c->file->string - 1;
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
