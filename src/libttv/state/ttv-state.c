/* ttv-state.c: the system state and its transitions (see ttv-state.h and
 * ttv-state-private.h).  pid 0 is one idle task per CPU, as in Linux. */
#include "ttv-state-private.h"
#include "ttv-id-table.h"

#include <string.h>

/* CPU ids are small; refuse absurd ones from damaged traces. */
#define MAX_CPU_ID 4096

typedef struct {
  TtvCpuState pub;
  TtvProcessState *idle;   /* owned: the pid 0 task of this CPU */
  TtvProcessState *running; /* weak: cache of the task running_pid names, or NULL */
  gboolean used;
  guint32 ended_syscall;   /* the syscall event number @ended_event ended here, or 0 */
  guint64 ended_event;
} CpuSlot;

/* What one machine of the traceset holds: its tasks, CPUs, interrupts and
 * devices.  A state has one per machine (docs/multi-machine.md); the
 * transitions and lookups act on the selected one. */
typedef struct {
  GQuark name;             /* the machine's host name, 0 when not set */
  TtvIdTable processes;    /* pid (> 0) -> TtvProcessState */
  GArray *cpus;            /* of CpuSlot, indexed by CPU id */
  TtvIdTable irqs;         /* id -> TtvIrqState */
  TtvIdTable softirqs;     /* id -> TtvIrqState */
  TtvIdTable blockdevs;    /* dev -> TtvBlockDevState */
  TtvBlockRequests *requests; /* owned: what the block devices have not completed */
} Machine;

/* Machine ids are small: one per trace at most. */
#define MAX_MACHINES 4096

struct _TtvState {
  TtvStateEventHead head;  /* first: see ttv_state_begin_event_on() */
  GPtrArray *machines;     /* of Machine *, owned, indexed by machine id; at least one */
  Machine *m;              /* weak: the selected machine (head.machine) */
  gint event_cpu;          /* that event's CPU */
  guint event_machine;     /* that event's machine */
  struct {
    const TtvStateObserver *observer;  /* weak, not copied */
    gpointer data;
  } observers[TTV_STATE_MAX_OBSERVERS];
  guint n_observers;
  gboolean frame_end_observed; /* some observer has frame_end */
};

/* Calls @cb of every observer that has it, with the observer's data first. */
#define NOTIFY(s, cb, ...) \
  for (guint notify_i_ = 0; notify_i_ < (s)->n_observers; notify_i_++) \
    if ((s)->observers[notify_i_].observer->cb) \
      (s)->observers[notify_i_].observer->cb ((s)->observers[notify_i_].data, __VA_ARGS__)

static Machine *
machine_new (void)
{
  Machine *m = g_new0 (Machine, 1);
  ttv_id_table_init (&m->processes);
  m->cpus = g_array_new (FALSE, TRUE, sizeof (CpuSlot));
  ttv_id_table_init (&m->irqs);
  ttv_id_table_init (&m->softirqs);
  ttv_id_table_init (&m->blockdevs);
  m->requests = ttv_block_requests_new ();
  return m;
}

static void
machine_free (Machine *m)
{
  for (guint i = 0; i < m->cpus->len; i++)
    g_free (g_array_index (m->cpus, CpuSlot, i).idle);
  g_array_unref (m->cpus);
  ttv_id_table_clear (&m->processes);
  ttv_id_table_clear (&m->irqs);
  ttv_id_table_clear (&m->softirqs);
  ttv_id_table_clear (&m->blockdevs);
  ttv_block_requests_free (m->requests);
  g_free (m);
}

static Machine *
machine_copy (const Machine *src)
{
  Machine *m = g_new0 (Machine, 1);
  m->name = src->name;
  ttv_id_table_copy (&m->processes, &src->processes, sizeof (TtvProcessState));
  ttv_id_table_copy (&m->irqs, &src->irqs, sizeof (TtvIrqState));
  ttv_id_table_copy (&m->softirqs, &src->softirqs, sizeof (TtvIrqState));
  ttv_id_table_copy (&m->blockdevs, &src->blockdevs, sizeof (TtvBlockDevState));
  m->requests = ttv_block_requests_copy (src->requests);
  m->cpus = g_array_copy (src->cpus);
  for (guint i = 0; i < m->cpus->len; i++)
    {
      CpuSlot *slot = &g_array_index (m->cpus, CpuSlot, i);
      if (slot->idle)
        slot->idle = g_memdup2 (slot->idle, sizeof (TtvProcessState));
      /* The cache pointed into the source state. */
      slot->running = NULL;
    }
  return m;
}

TtvState *
ttv_state_new (void)
{
  TtvState *s = g_new0 (TtvState, 1);
  s->head.time = TTV_TIME_MIN;
  s->head.event_tid = TTV_PID_NONE;
  s->machines = g_ptr_array_new_with_free_func ((GDestroyNotify) machine_free);
  g_ptr_array_add (s->machines, machine_new ());
  s->m = g_ptr_array_index (s->machines, 0);
  return s;
}

void
ttv_state_free (TtvState *s)
{
  if (s == NULL)
    return;
  g_ptr_array_unref (s->machines);
  g_free (s);
}

TtvState *
ttv_state_copy (const TtvState *src)
{
  TtvState *s = g_new0 (TtvState, 1);
  s->head = src->head;
  s->event_cpu = src->event_cpu;
  s->event_machine = src->event_machine;
  s->machines = g_ptr_array_new_full (src->machines->len, (GDestroyNotify) machine_free);
  for (guint i = 0; i < src->machines->len; i++)
    g_ptr_array_add (s->machines, machine_copy (g_ptr_array_index (src->machines, i)));
  s->m = g_ptr_array_index (s->machines, s->head.machine);
  return s;
}

guint
ttv_state_get_n_machines (const TtvState *s)
{
  return s->machines->len;
}

guint
ttv_state_get_machine (const TtvState *s)
{
  return s->head.machine;
}

void
ttv_state_select_machine (TtvState *s, guint machine)
{
  if (machine == s->head.machine)
    return;
  g_return_if_fail (machine < MAX_MACHINES);
  while (s->machines->len <= machine)
    g_ptr_array_add (s->machines, machine_new ());
  s->head.machine = machine;
  s->m = g_ptr_array_index (s->machines, machine);
}

void
ttv_state_set_machine_name (TtvState *s, guint machine, const char *name)
{
  guint saved = s->head.machine;
  ttv_state_select_machine (s, machine);
  s->m->name = name ? g_quark_from_string (name) : 0;
  ttv_state_select_machine (s, saved);
}

const char *
ttv_state_get_machine_name (const TtvState *s, guint machine)
{
  if (machine >= s->machines->len)
    return NULL;
  return g_quark_to_string (((const Machine *) g_ptr_array_index (s->machines, machine))->name);
}

/* The observers' frame_end, looked at once rather than at every frame's end
 * (the history builder has none). */
static void
observers_changed (TtvState *s)
{
  s->frame_end_observed = FALSE;
  for (guint i = 0; i < s->n_observers; i++)
    if (s->observers[i].observer->frame_end)
      s->frame_end_observed = TRUE;
}

void
ttv_state_add_observer (TtvState *s, const TtvStateObserver *observer, gpointer data)
{
  if (observer == NULL)
    return;
  for (guint i = 0; i < s->n_observers; i++)
    if (s->observers[i].observer == observer)
      {
        s->observers[i].data = data;
        return;
      }
  g_return_if_fail (s->n_observers < TTV_STATE_MAX_OBSERVERS);
  s->observers[s->n_observers].observer = observer;
  s->observers[s->n_observers].data = data;
  s->n_observers++;
  observers_changed (s);
}

void
ttv_state_remove_observer (TtvState *s, const TtvStateObserver *observer)
{
  for (guint i = 0; i < s->n_observers; i++)
    if (s->observers[i].observer == observer)
      {
        memmove (&s->observers[i], &s->observers[i + 1], (s->n_observers - i - 1) * sizeof s->observers[0]);
        s->n_observers--;
        observers_changed (s);
        return;
      }
}

void
ttv_state_set_observer (TtvState *s, const TtvStateObserver *observer, gpointer data)
{
  ttv_state_add_observer (s, observer, data);
}

void
ttv_state_begin_event (TtvState *s, TtvTime time)
{
  s->head.time = time;
  s->head.n_events++;
  s->head.event_tid = TTV_PID_NONE;
}

void
ttv_state_begin_machine_event (TtvState *s, guint machine, TtvTime time)
{
  ttv_state_select_machine (s, machine);
  ttv_state_begin_event (s, time);
}

TtvTime
ttv_state_get_time (const TtvState *s)
{
  return s->head.time;
}

guint64
ttv_state_get_n_events (const TtvState *s)
{
  return s->head.n_events;
}

static CpuSlot *
cpu_slot (const TtvState *s, gint cpu)
{
  if (cpu < 0 || (guint) cpu >= s->m->cpus->len)
    return NULL;
  CpuSlot *slot = &g_array_index (s->m->cpus, CpuSlot, cpu);
  return slot->used ? slot : NULL;
}

static void
process_init (TtvProcessState *p, guint32 pid, TtvTime t)
{
  memset (p, 0, sizeof *p);
  p->pid = pid;
  p->tgid = pid;
  p->ppid = TTV_PID_NONE;
  p->creation_time = TTV_TIME_MIN;
  p->status = TTV_PROCESS_UNNAMED;
  p->status_since = t;
  p->cpu = -1;
  p->depth = 1;
  p->frames[0].mode = TTV_MODE_UNKNOWN;
  p->frames[0].entry = t;
}

/* A CPU seen for the first time: its slot and its idle task. */
static G_NO_INLINE CpuSlot *
add_cpu (TtvState *s, gint cpu)
{
  if (cpu < 0 || cpu >= MAX_CPU_ID)
    return NULL;
  if ((guint) cpu >= s->m->cpus->len)
    g_array_set_size (s->m->cpus, (guint) cpu + 1);
  CpuSlot *slot = &g_array_index (s->m->cpus, CpuSlot, cpu);
  if (!slot->used)
    {
      slot->used = TRUE;
      slot->pub.cpu = cpu;
      slot->pub.running_pid = TTV_PID_NONE;
      slot->pub.since = s->head.time;
      slot->idle = g_new (TtvProcessState, 1);
      process_init (slot->idle, 0, TTV_TIME_MIN);
      slot->idle->name = g_quark_from_static_string ("swapper");
      slot->idle->status = TTV_PROCESS_WAIT_CPU;
      slot->idle->frames[0].mode = TTV_MODE_USER;
      slot->idle->cpu = cpu;
    }
  return slot;
}

/* Inline: nearly every event looks up its CPU's slot, which exists but
 * for its first event. */
static inline CpuSlot *
ensure_cpu (TtvState *s, gint cpu)
{
  if (G_LIKELY ((guint) cpu < s->m->cpus->len))
    {
      CpuSlot *slot = &g_array_index (s->m->cpus, CpuSlot, cpu);
      if (G_LIKELY (slot->used))
        return slot;
    }
  return add_cpu (s, cpu);
}

/* The task @pid as seen from @cpu (pid 0 is that CPU's idle task). */
static TtvProcessState *
find_process (const TtvState *s, guint32 pid, gint cpu)
{
  if (pid == 0)
    {
      CpuSlot *slot = cpu_slot (s, cpu);
      return slot ? slot->idle : NULL;
    }
  return ttv_id_table_lookup (&s->m->processes, pid);
}

static void
notify_status (TtvState *s, TtvProcessState *p, TtvProcessStatus old)
{
  if (old != p->status)
    NOTIFY (s, process_status, p, old, s->head.time);
}

static void
set_status (TtvState *s, TtvProcessState *p, TtvProcessStatus status, TtvTime t)
{
  if (p->status == status)
    return;
  TtvProcessStatus old = p->status;
  p->status = status;
  p->status_since = t;
  notify_status (s, p, old);
}

static TtvProcessState *
ensure_process (TtvState *s, guint32 pid, gint cpu, TtvTime t)
{
  if (pid == 0)
    {
      CpuSlot *slot = ensure_cpu (s, cpu);
      return slot ? slot->idle : NULL;
    }
  TtvProcessState *p = ttv_id_table_lookup (&s->m->processes, pid);
  if (p == NULL)
    {
      p = g_new (TtvProcessState, 1);
      process_init (p, pid, t);
      ttv_id_table_insert (&s->m->processes, pid, p);
      notify_status (s, p, TTV_PROCESS_N_STATUS);
    }
  return p;
}

const TtvProcessState *
ttv_state_get_process (const TtvState *s, guint32 pid)
{
  return find_process (s, pid, -1);
}

const TtvCpuState *
ttv_state_get_cpu (const TtvState *s, gint cpu)
{
  CpuSlot *slot = cpu_slot (s, cpu);
  return slot ? &slot->pub : NULL;
}

/* The running task of a CPU, through the slot's cache: this lookup happens
 * for nearly every event, so it must not cost a hash lookup. */
static TtvProcessState *
slot_running (const TtvState *s, CpuSlot *slot)
{
  if (slot->pub.running_pid == TTV_PID_NONE)
    return NULL;
  if (slot->running == NULL)
    slot->running = find_process (s, slot->pub.running_pid, slot->pub.cpu);
  return slot->running;
}

const TtvProcessState *
ttv_state_get_running (const TtvState *s, gint cpu)
{
  CpuSlot *slot = cpu_slot (s, cpu);
  return slot ? slot_running (s, slot) : NULL;
}

/* The process of the last event applied, if it was on @cpu (@slot: its
 * slot, or NULL). */
static const TtvProcessState *
event_process (const TtvState *s, CpuSlot *slot, gint cpu)
{
  if (s->head.event_tid != TTV_PID_NONE && s->event_cpu == cpu && s->event_machine == s->head.machine)
    return find_process (s, s->head.event_tid, cpu);
  return slot ? slot_running (s, slot) : NULL;
}

const TtvProcessState *
ttv_state_get_event_process (const TtvState *s, gint cpu)
{
  return event_process (s, cpu_slot (s, cpu), cpu);
}

TtvExecMode
ttv_process_state_get_mode (const TtvProcessState *p)
{
  return p->frames[p->depth - 1].mode;
}

/* What @slot's CPU executes (see ttv_state_get_cpu_mode()). */
static TtvExecMode
slot_mode (const TtvState *s, CpuSlot *slot)
{
  if (slot->pub.n_interrupts > 0)
    return slot->pub.interrupts[slot->pub.n_interrupts - 1].mode;
  const TtvProcessState *p = slot_running (s, slot);
  return p ? ttv_process_state_get_mode (p) : TTV_MODE_UNKNOWN;
}

TtvExecMode
ttv_state_get_cpu_mode (const TtvState *s, gint cpu)
{
  CpuSlot *slot = cpu_slot (s, cpu);
  return slot ? slot_mode (s, slot) : TTV_MODE_UNKNOWN;
}

/* ttv_state_get_cpu_view () in any case (out of line: see there). */
static G_NO_INLINE const TtvCpuState *
cpu_view_general (const TtvState *s, gint cpu, TtvExecMode *mode, const TtvProcessState **process)
{
  CpuSlot *slot = cpu_slot (s, cpu);
  *mode = slot ? slot_mode (s, slot) : TTV_MODE_UNKNOWN;
  *process = event_process (s, slot, cpu);
  return slot ? &slot->pub : NULL;
}

/* The history builder asks this after every event.  Its usual case (a CPU
 * seen before, its running task cached, no userspace thread named by the
 * event) reads the slot once and makes no call, so it saves no registers;
 * any other goes to cpu_view_general (). */
const TtvCpuState *
ttv_state_get_cpu_view (const TtvState *s, gint cpu, TtvExecMode *mode, const TtvProcessState **process)
{
  if (G_LIKELY (cpu >= 0 && (guint) cpu < s->m->cpus->len && s->head.event_tid == TTV_PID_NONE))
    {
      CpuSlot *slot = &g_array_index (s->m->cpus, CpuSlot, cpu);
      const TtvProcessState *p = slot->running;
      if (G_LIKELY (slot->used && p != NULL && slot->pub.running_pid != TTV_PID_NONE))
        {
          *mode = slot->pub.n_interrupts > 0 ? slot->pub.interrupts[slot->pub.n_interrupts - 1].mode
                                             : p->frames[p->depth - 1].mode;
          *process = p;
          return &slot->pub;
        }
    }
  return cpu_view_general (s, cpu, mode, process);
}

const char *
ttv_process_state_get_syscall (const TtvProcessState *p)
{
  for (guint i = p->depth; i-- > 0;)
    if (p->frames[i].mode == TTV_MODE_SYSCALL)
      return g_quark_to_string (p->frames[i].id);
  return NULL;
}

/* Tells the observers that what runs on @slot's CPU ran until @t. */
static G_NO_INLINE void
notify_cpu_time_general (TtvState *s, CpuSlot *slot, TtvTime t)
{
  TtvProcessState *p = slot_running (s, slot);
  if (p)
    {
      const TtvExecFrame *top = &p->frames[p->depth - 1];
      NOTIFY (s, cpu_time, slot->pub.cpu, p->pid, top->mode, top->id, slot->pub.since, t);
      NOTIFY (s, cpu_spent, slot->pub.cpu, p->pid, t - slot->pub.since);
    }
}

/* notify_cpu_time_general () when there is one observer (the history
 * builder, an analysis) with one of the two callbacks and the running task
 * is cached: this comes nearly once an event, and the loop kept its
 * counter and the arguments in saved registers; without it nothing is
 * saved, and cpu_spent is a tail call. */
static G_NO_INLINE void
notify_cpu_time (TtvState *s, CpuSlot *slot, TtvTime t)
{
  const TtvProcessState *p = slot->running;
  if (G_LIKELY (p != NULL && s->n_observers == 1))
    {
      const TtvStateObserver *o = s->observers[0].observer;
      if (o->cpu_spent && !o->cpu_time)
        {
          o->cpu_spent (s->observers[0].data, slot->pub.cpu, p->pid, t - slot->pub.since);
          return;
        }
      if (!o->cpu_spent)
        {
          const TtvExecFrame *top = &p->frames[p->depth - 1];
          if (o->cpu_time)
            o->cpu_time (s->observers[0].data, slot->pub.cpu, p->pid, top->mode, top->id, slot->pub.since, t);
          return;
        }
    }
  notify_cpu_time_general (s, slot, t);
}

/* Ends the current accounting stretch of @cpu (before anything changes).
 * Inline: every mode change comes here, mostly without observers. */
static inline void
account_cpu (TtvState *s, CpuSlot *slot, TtvTime t)
{
  if (s->n_observers > 0 && slot->pub.running_pid != TTV_PID_NONE && t > slot->pub.since)
    notify_cpu_time (s, slot, t);
  slot->pub.since = t;
}

static TtvIdTable *
irq_table (TtvState *s, TtvExecMode mode)
{
  return mode == TTV_MODE_IRQ ? &s->m->irqs : mode == TTV_MODE_SOFTIRQ ? &s->m->softirqs : NULL;
}

static TtvIrqState *
ensure_irq (TtvIdTable *table, guint32 id)
{
  TtvIrqState *irq = ttv_id_table_lookup (table, id);
  if (irq == NULL)
    {
      irq = g_new0 (TtvIrqState, 1);
      irq->id = id;
      irq->cpu = -1;
      ttv_id_table_insert (table, id, irq);
    }
  return irq;
}

static gboolean
is_interrupt (TtvExecMode mode)
{
  return mode == TTV_MODE_IRQ || mode == TTV_MODE_SOFTIRQ;
}

/* Ends the interrupt frames of @slot from index @from up: each one leaves
 * its IRQ's count and is reported to the statistics. */
static void
end_cpu_interrupts (TtvState *s, CpuSlot *slot, guint from, TtvTime t)
{
  TtvCpuState *c = &slot->pub;
  while (c->n_interrupts > from)
    {
      const TtvExecFrame *f = &c->interrupts[--c->n_interrupts];
      TtvIrqState *irq = ttv_id_table_lookup (irq_table (s, f->mode), f->id);
      if (irq && irq->active > 0)
        {
          irq->active--;
          NOTIFY (s, resource, f->mode == TTV_MODE_IRQ ? TTV_STATE_RESOURCE_IRQ : TTV_STATE_RESOURCE_SOFTIRQ,
                  f->id, irq->active, t);
        }
      if (f->mode == TTV_MODE_IRQ)
        c->irq_depth--;
      else
        c->softirq_depth--;
      guint32 pid = c->running_pid;
      NOTIFY (s, frame_end, c->cpu, pid, f, t);
    }
}

/* Index of the innermost interrupt frame of @slot matching @mode (and @id
 * unless it is G_MAXUINT32), or -1. */
static gint
find_cpu_interrupt (const CpuSlot *slot, TtvExecMode mode, guint32 id)
{
  for (guint i = slot->pub.n_interrupts; i-- > 0;)
    if (slot->pub.interrupts[i].mode == mode && (id == G_MAXUINT32 || slot->pub.interrupts[i].id == id))
      return (gint) i;
  return -1;
}

/* Pops @p's frames from index @from up (the frames were left without their
 * exit event, or end now).  Interrupt frames are only a copy of the CPU's,
 * which reports them: only syscall and trap frames are reported here. */
static void
end_process_frames (TtvState *s, TtvProcessState *p, guint from, gint cpu, TtvTime t)
{
  while (p->depth > from)
    {
      const TtvExecFrame *f = &p->frames[--p->depth];
      if (!is_interrupt (f->mode))
        NOTIFY (s, frame_end, cpu, p->pid, f, t);
    }
}

/* Index of the innermost frame of @p in @mode above its base, or 0. */
static guint
find_process_frame (const TtvProcessState *p, TtvExecMode mode)
{
  for (guint i = p->depth; i-- > 1;)
    if (p->frames[i].mode == mode)
      return i;
  return 0;
}

/* Index of the outermost hard IRQ frame of @slot, or -1. */
static gint
outermost_cpu_irq (const CpuSlot *slot)
{
  for (guint i = 0; i < slot->pub.n_interrupts; i++)
    if (slot->pub.interrupts[i].mode == TTV_MODE_IRQ)
      return (gint) i;
  return -1;
}

/* Index of the outermost hard IRQ frame of @p above its base, or 0. */
static guint
outermost_process_irq (const TtvProcessState *p)
{
  for (guint i = 1; i < p->depth; i++)
    if (p->frames[i].mode == TTV_MODE_IRQ)
      return i;
  return 0;
}

/* @flag when @p (task @pid, not an idle one) has no name. */
static guint
unnamed_flag (guint32 pid, const TtvProcessState *p, guint flag)
{
  return pid != 0 && p != NULL && p->name == 0 ? flag : 0;
}

guint
ttv_state_sched_switch (TtvState *s, gint cpu, guint32 prev_pid, guint32 next_pid,
                        TtvProcessStatus prev_status, TtvTime t)
{
  CpuSlot *slot = ensure_cpu (s, cpu);
  if (slot == NULL)
    return TTV_SWITCH_PREV_UNNAMED | TTV_SWITCH_NEXT_UNNAMED;
  account_cpu (s, slot, t);
  TtvProcessState *prev = ensure_process (s, prev_pid, cpu, t);
  /* No task switch happens in a hard IRQ: IRQs still open lost their exit. */
  gint open_irq = outermost_cpu_irq (slot);
  if (open_irq >= 0)
    end_cpu_interrupts (s, slot, (guint) open_irq, t);
  if (prev)
    {
      guint i = outermost_process_irq (prev);
      if (i)
        end_process_frames (s, prev, i, cpu, t);
      /* A task that exited becomes a zombie as it leaves the CPU. */
      if (prev->status == TTV_PROCESS_EXIT && prev_status != TTV_PROCESS_DEAD)
        prev_status = TTV_PROCESS_ZOMBIE;
      set_status (s, prev, prev_status, t);
      prev->cpu = cpu;
    }
  TtvProcessState *next = ensure_process (s, next_pid, cpu, t);
  if (next)
    {
      /* Whatever we did not know about it, it is in user mode or in the
       * kernel below the scheduler: leave its stack alone. */
      set_status (s, next, TTV_PROCESS_RUN, t);
      next->cpu = cpu;
    }
  slot->pub.running_pid = next_pid;
  slot->running = next;
  return unnamed_flag (prev_pid, prev, TTV_SWITCH_PREV_UNNAMED) | unnamed_flag (next_pid, next, TTV_SWITCH_NEXT_UNNAMED);
}

void
ttv_state_fork (TtvState *s, guint32 parent_pid, guint32 child_pid, guint32 child_tgid,
                const char *child_name, TtvTime t)
{
  if (child_pid == 0)
    return;
  TtvProcessState *parent = find_process (s, parent_pid, -1);
  TtvProcessState *child = ttv_id_table_lookup (&s->m->processes, child_pid);
  if (child == NULL)
    {
      child = g_new (TtvProcessState, 1);
      ttv_id_table_insert (&s->m->processes, child_pid, child);
    }
  /* A reused pid starts a new life. */
  process_init (child, child_pid, t);
  child->creation_time = t;
  child->tgid = child_tgid ? child_tgid : child_pid;
  /* A thread's parent is its process's parent (CLONE_THREAD), not the
   * thread that created it. */
  child->ppid = child->tgid != child_pid && parent ? parent->ppid : parent_pid;
  child->frames[0].mode = TTV_MODE_USER;
  if (child_name && *child_name)
    child->name = g_quark_from_string (child_name);
  else if (parent)
    child->name = parent->name;
  child->status = TTV_PROCESS_WAIT_FORK;
  notify_status (s, child, TTV_PROCESS_N_STATUS);
  NOTIFY (s, mark, TTV_STATE_MARK_FORK, child_pid, parent_pid, t);
}

void
ttv_state_exec (TtvState *s, guint32 pid, const char *filename, TtvTime t)
{
  TtvProcessState *p = find_process (s, pid, -1);
  if (p == NULL || filename == NULL)
    return;
  const char *base = strrchr (filename, '/');
  p->name = g_quark_from_string (base ? base + 1 : filename);
  if (p->status == TTV_PROCESS_UNNAMED)
    set_status (s, p, TTV_PROCESS_RUN, t);
  NOTIFY (s, mark, TTV_STATE_MARK_EXEC, pid, TTV_PID_NONE, t);
}

void
ttv_state_exit (TtvState *s, guint32 pid, TtvTime t)
{
  TtvProcessState *p = find_process (s, pid, -1);
  if (p)
    {
      set_status (s, p, TTV_PROCESS_EXIT, t);
      NOTIFY (s, mark, TTV_STATE_MARK_EXIT, pid, TTV_PID_NONE, t);
    }
}

void
ttv_state_free_process (TtvState *s, guint32 pid, TtvTime t)
{
  TtvProcessState *p = find_process (s, pid, -1);
  if (p == NULL || pid == 0)
    return;
  set_status (s, p, TTV_PROCESS_DEAD, t);
  for (guint i = 0; i < s->m->cpus->len; i++)
    if (g_array_index (s->m->cpus, CpuSlot, i).running == p)
      g_array_index (s->m->cpus, CpuSlot, i).running = NULL;
  ttv_id_table_remove (&s->m->processes, pid);
}

void
ttv_state_wakeup (TtvState *s, guint32 pid, TtvTime t)
{
  TtvProcessState *p = find_process (s, pid, -1);
  if (p && (p->status == TTV_PROCESS_WAIT || p->status == TTV_PROCESS_UNNAMED))
    set_status (s, p, TTV_PROCESS_WAIT_CPU, t);
  if (p)
    NOTIFY (s, mark, TTV_STATE_MARK_WAKEUP, pid, TTV_PID_NONE, t);
}

/* An IRQ or soft IRQ starts on @slot's CPU. */
static void
begin_cpu_interrupt (TtvState *s, CpuSlot *slot, TtvExecMode mode, guint32 id, TtvTime t)
{
  /* Linux never runs a soft IRQ inside another on one CPU, nor an IRQ line
   * inside itself: such an entry means the exit of the first was lost. */
  gint stale = find_cpu_interrupt (slot, mode, mode == TTV_MODE_SOFTIRQ ? G_MAXUINT32 : id);
  if (stale >= 0)
    end_cpu_interrupts (s, slot, (guint) stale, t);
  if (slot->pub.n_interrupts == TTV_STATE_MAX_NESTING)
    end_cpu_interrupts (s, slot, 0, t);
  TtvExecFrame *f = &slot->pub.interrupts[slot->pub.n_interrupts++];
  f->mode = mode;
  f->id = id;
  f->entry = t;
  if (mode == TTV_MODE_IRQ)
    slot->pub.irq_depth++;
  else
    slot->pub.softirq_depth++;
  TtvIrqState *irq = ensure_irq (irq_table (s, mode), id);
  irq->active++;
  irq->cpu = slot->pub.cpu;
  irq->since = t;
  NOTIFY (s, resource, mode == TTV_MODE_IRQ ? TTV_STATE_RESOURCE_IRQ : TTV_STATE_RESOURCE_SOFTIRQ,
          id, irq->active, t);
}

/* The transitions' common case: a CPU seen before, its running task known
 * and cached, no observer to tell.  Its code calls nothing, so it needs
 * no frame and saves no register; anything else goes to the general path.
 * Returns the running task of @cpu (and its @slot), or NULL. */
static inline TtvProcessState *
quiet_running (const TtvState *s, gint cpu, CpuSlot **slot)
{
  if (G_UNLIKELY (s->n_observers > 0 || (guint) cpu >= s->m->cpus->len))
    return NULL;
  CpuSlot *c = &g_array_index (s->m->cpus, CpuSlot, cpu);
  if (G_UNLIKELY (!c->used || c->pub.running_pid == TTV_PID_NONE))
    return NULL;
  *slot = c;
  return c->running;
}

static void
push_frame (TtvProcessState *p, TtvExecMode mode, guint32 id, TtvTime t)
{
  /* Entering a syscall from an unknown base tells us the base was user. */
  if (mode == TTV_MODE_SYSCALL && p->depth == 1 && p->frames[0].mode == TTV_MODE_UNKNOWN)
    p->frames[0].mode = TTV_MODE_USER;
  if (p->depth >= TTV_STATE_MAX_NESTING)
    return;
  TtvExecFrame *f = &p->frames[p->depth++];
  f->mode = mode;
  f->id = id;
  f->entry = t;
}

static G_NO_INLINE void
push_mode_general (TtvState *s, gint cpu, TtvExecMode mode, guint32 id, TtvTime t)
{
  CpuSlot *slot = ensure_cpu (s, cpu);
  if (slot == NULL)
    return;
  account_cpu (s, slot, t);
  if (is_interrupt (mode))
    begin_cpu_interrupt (s, slot, mode, id, t);
  TtvProcessState *p = slot_running (s, slot);
  if (p == NULL)
    return;
  if (is_interrupt (mode))
    {
      /* Keep the task's copy of the CPU's frames consistent with them. */
      guint stale = find_process_frame (p, mode);
      if (stale && (mode == TTV_MODE_SOFTIRQ || p->frames[stale].id == id))
        end_process_frames (s, p, stale, cpu, t);
    }
  push_frame (p, mode, id, t);
}

/* An IRQ or soft IRQ entered on @slot's CPU, running @p, when nothing
 * observes the state: push_mode_general() when none of its repairs
 * applies (no frame of the same interrupt left open on the CPU or in the
 * task, the nesting limit not reached) and the IRQ was seen before.
 * FALSE, with nothing changed, otherwise. */
static inline gboolean
push_quiet_interrupt (TtvState *s, CpuSlot *slot, TtvProcessState *p, TtvExecMode mode, guint32 id, TtvTime t)
{
  TtvCpuState *c = &slot->pub;
  if (c->n_interrupts >= TTV_STATE_MAX_NESTING
      || find_cpu_interrupt (slot, mode, mode == TTV_MODE_SOFTIRQ ? G_MAXUINT32 : id) >= 0)
    return FALSE;
  guint stale = find_process_frame (p, mode);
  if (stale && (mode == TTV_MODE_SOFTIRQ || p->frames[stale].id == id))
    return FALSE;
  TtvIrqState *irq = ttv_id_table_lookup (irq_table (s, mode), id);
  if (irq == NULL)
    return FALSE;
  c->since = t;
  TtvExecFrame *f = &c->interrupts[c->n_interrupts++];
  f->mode = mode;
  f->id = id;
  f->entry = t;
  if (mode == TTV_MODE_IRQ)
    c->irq_depth++;
  else
    c->softirq_depth++;
  irq->active++;
  irq->cpu = c->cpu;
  irq->since = t;
  push_frame (p, mode, id, t);
  return TRUE;
}

/* The running task of @cpu when its slot caches it, observers or not:
 * what quiet_running () gives without its test of the observers. */
static inline TtvProcessState *
cached_running (const TtvState *s, gint cpu, CpuSlot **slot)
{
  if (G_UNLIKELY ((guint) cpu >= s->m->cpus->len))
    return NULL;
  CpuSlot *c = &g_array_index (s->m->cpus, CpuSlot, cpu);
  if (G_UNLIKELY (!c->used || c->pub.running_pid == TTV_PID_NONE))
    return NULL;
  *slot = c;
  return c->running;
}

/* ttv_state_push_mode () when the state has observers (the history
 * builder's every syscall and trap entry): a syscall or trap entered by
 * a cached running task is push_mode_general () without its lookups and
 * interrupt tests, the CPU's time told first as there; anything else goes
 * to push_mode_general (). */
static G_NO_INLINE void
push_mode_observed (TtvState *s, gint cpu, TtvExecMode mode, guint32 id, TtvTime t)
{
  CpuSlot *slot;
  TtvProcessState *p = cached_running (s, cpu, &slot);
  if (G_LIKELY (p != NULL && !is_interrupt (mode)))
    {
      account_cpu (s, slot, t);
      push_frame (p, mode, id, t);
      return;
    }
  push_mode_general (s, cpu, mode, id, t);
}

void
ttv_state_push_mode (TtvState *s, gint cpu, TtvExecMode mode, guint32 id, TtvTime t)
{
  if (G_UNLIKELY (s->n_observers > 0))
    {
      push_mode_observed (s, cpu, mode, id, t);
      return;
    }
  CpuSlot *slot;
  TtvProcessState *p = quiet_running (s, cpu, &slot);
  /* A syscall or trap entry: push_mode_general() without its interrupt bookkeeping. */
  if (G_LIKELY (p != NULL && !is_interrupt (mode)))
    {
      slot->pub.since = t;
      push_frame (p, mode, id, t);
      return;
    }
  if (p != NULL && push_quiet_interrupt (s, slot, p, mode, id, t))
    return;
  push_mode_general (s, cpu, mode, id, t);
}

/* Pops @p's innermost frame if it is in @mode (a syscall or a trap): what
 * pop_mode() comes to in the common case, when nothing observes the state.
 * @id: the frame's. */
static inline gboolean
pop_quiet_top_frame (TtvProcessState *p, TtvExecMode mode, guint32 *id)
{
  if (G_UNLIKELY (p->depth <= 1 || p->frames[p->depth - 1].mode != mode || is_interrupt (mode)))
    return FALSE;
  *id = p->frames[--p->depth].id;
  return TRUE;
}

/* Ends the innermost frame of @mode on @cpu; returns its id, or 0 when the
 * running task is unknown or the trace began inside the frame. */
static guint32
pop_mode (TtvState *s, CpuSlot *slot, TtvExecMode mode, TtvTime t)
{
  gint cpu = slot->pub.cpu;
  account_cpu (s, slot, t);
  if (is_interrupt (mode))
    {
      /* Frames above the innermost one of @mode lost their exit event and
       * end here too.  None: the trace began inside it. */
      gint i = find_cpu_interrupt (slot, mode, G_MAXUINT32);
      if (i >= 0)
        end_cpu_interrupts (s, slot, (guint) i, t);
    }
  TtvProcessState *p = slot_running (s, slot);
  if (p == NULL)
    return 0;
  guint i = find_process_frame (p, mode);
  if (i == 0)
    {
      /* No such frame: the trace began inside it.  Leaving a syscall or a
       * trap returns to user mode, which is then the known base. */
      if ((mode == TTV_MODE_SYSCALL || mode == TTV_MODE_TRAP) && p->depth == 1)
        p->frames[0].mode = TTV_MODE_USER;
      return 0;
    }
  guint32 id = p->frames[i].id;
  end_process_frames (s, p, i, cpu, t);
  return id;
}

static G_NO_INLINE void
pop_mode_general (TtvState *s, gint cpu, TtvExecMode mode, TtvTime t)
{
  CpuSlot *slot = ensure_cpu (s, cpu);
  if (slot)
    pop_mode (s, slot, mode, t);
}

/* An IRQ or soft IRQ left on @slot's CPU, running @p, when nothing
 * observes the state: pop_mode() when the interrupt is the innermost
 * frame of both the CPU and the task (no frame above it lost its exit).
 * FALSE, with nothing changed, otherwise. */
static inline gboolean
pop_quiet_interrupt (TtvState *s, CpuSlot *slot, TtvProcessState *p, TtvExecMode mode, TtvTime t)
{
  TtvCpuState *c = &slot->pub;
  if (c->n_interrupts == 0 || c->interrupts[c->n_interrupts - 1].mode != mode || p->depth <= 1
      || p->frames[p->depth - 1].mode != mode)
    return FALSE;
  c->since = t;
  const TtvExecFrame *f = &c->interrupts[--c->n_interrupts];
  TtvIrqState *irq = ttv_id_table_lookup (irq_table (s, mode), f->id);
  if (irq && irq->active > 0)
    irq->active--;
  if (mode == TTV_MODE_IRQ)
    c->irq_depth--;
  else
    c->softirq_depth--;
  p->depth--;
  return TRUE;
}

/* With observers none of which has frame_end: @p's innermost frame, a
 * syscall or trap, ends (what pop_mode () does then, after the CPU's time
 * is told); its id. */
static inline guint32
pop_observed_top_frame (TtvState *s, CpuSlot *slot, TtvProcessState *p, TtvTime t)
{
  account_cpu (s, slot, t);
  return p->frames[--p->depth].id;
}

/* Whether pop_observed_top_frame () may end @p's innermost frame as the
 * end of @mode: a syscall or trap in @mode above its base, that no
 * observer's frame_end waits for. */
static inline gboolean
top_frame_is (const TtvState *s, const TtvProcessState *p, TtvExecMode mode)
{
  return p->depth > 1 && p->frames[p->depth - 1].mode == mode && !is_interrupt (mode)
         && !s->frame_end_observed;
}

/* ttv_state_pop_mode () when the state has observers (see
 * push_mode_observed ()): anything but a syscall or trap left by a cached
 * running task goes to pop_mode_general (). */
static G_NO_INLINE void
pop_mode_observed (TtvState *s, gint cpu, TtvExecMode mode, TtvTime t)
{
  CpuSlot *slot;
  TtvProcessState *p = cached_running (s, cpu, &slot);
  if (G_LIKELY (p != NULL && top_frame_is (s, p, mode)))
    pop_observed_top_frame (s, slot, p, t);
  else
    pop_mode_general (s, cpu, mode, t);
}

void
ttv_state_pop_mode (TtvState *s, gint cpu, TtvExecMode mode, TtvTime t)
{
  if (G_UNLIKELY (s->n_observers > 0))
    {
      pop_mode_observed (s, cpu, mode, t);
      return;
    }
  CpuSlot *slot;
  guint32 id;
  TtvProcessState *p = quiet_running (s, cpu, &slot);
  if (G_LIKELY (p != NULL && pop_quiet_top_frame (p, mode, &id)))
    {
      slot->pub.since = t;
      return;
    }
  if (p != NULL && is_interrupt (mode) && pop_quiet_interrupt (s, slot, p, mode, t))
    return;
  pop_mode_general (s, cpu, mode, t);
}

/* The event's own name of the call, when it has one, wins over a frame
 * that lost events may have left. */
static void
end_syscall_event (const TtvState *s, CpuSlot *slot, GQuark name, guint32 id)
{
  slot->ended_syscall = name ? name : id;
  slot->ended_event = s->head.n_events;
}

static G_NO_INLINE void
syscall_exit_general (TtvState *s, gint cpu, GQuark name, TtvTime t)
{
  CpuSlot *slot = ensure_cpu (s, cpu);
  if (slot == NULL)
    return;
  end_syscall_event (s, slot, name, pop_mode (s, slot, TTV_MODE_SYSCALL, t));
}

/* ttv_state_syscall_exit () when the state has observers (see
 * push_mode_observed ()). */
static G_NO_INLINE void
syscall_exit_observed (TtvState *s, gint cpu, GQuark name, TtvTime t)
{
  CpuSlot *slot;
  TtvProcessState *p = cached_running (s, cpu, &slot);
  if (G_LIKELY (p != NULL && top_frame_is (s, p, TTV_MODE_SYSCALL)))
    end_syscall_event (s, slot, name, pop_observed_top_frame (s, slot, p, t));
  else
    syscall_exit_general (s, cpu, name, t);
}

void
ttv_state_syscall_exit (TtvState *s, gint cpu, GQuark name, TtvTime t)
{
  if (G_UNLIKELY (s->n_observers > 0))
    {
      syscall_exit_observed (s, cpu, name, t);
      return;
    }
  CpuSlot *slot;
  guint32 id;
  TtvProcessState *p = quiet_running (s, cpu, &slot);
  if (G_LIKELY (p != NULL && pop_quiet_top_frame (p, TTV_MODE_SYSCALL, &id)))
    {
      slot->pub.since = t;
      end_syscall_event (s, slot, name, id);
      return;
    }
  syscall_exit_general (s, cpu, name, t);
}

const char *
ttv_state_get_event_syscall (const TtvState *s, gint cpu)
{
  CpuSlot *slot = cpu_slot (s, cpu);
  if (slot == NULL)
    return NULL;
  if (slot->ended_syscall && slot->ended_event == s->head.n_events)
    return g_quark_to_string (slot->ended_syscall);
  const TtvProcessState *p = slot_running (s, slot);
  return p ? ttv_process_state_get_syscall (p) : NULL;
}

void
ttv_state_declare_process (TtvState *s, guint32 pid, guint32 tgid, guint32 ppid,
                           const char *name, TtvProcessStatus status, gint cpu, TtvTime t)
{
  TtvProcessState *p = ensure_process (s, pid, cpu, t);
  if (p == NULL)
    return;
  p->tgid = tgid ? tgid : pid;
  p->ppid = ppid;
  if (name && *name)
    p->name = g_quark_from_string (name);
  if (p->frames[0].mode == TTV_MODE_UNKNOWN)
    p->frames[0].mode = TTV_MODE_USER;
  /* What the trace has already shown wins over a description. */
  if (p->status == TTV_PROCESS_UNNAMED)
    set_status (s, p, status, t);
}

void
ttv_state_user_event (TtvState *s, gint cpu, guint32 tid, guint32 tgid, const char *name, TtvTime t)
{
  /* The kernel knows who runs there: it is the thread that emitted the
   * event, under its real tid (a vtid is the thread's id in its own pid
   * namespace). */
  const TtvProcessState *running = ttv_state_get_running (s, cpu);
  if (running)
    {
      s->head.event_tid = running->pid;
      s->event_cpu = cpu;
      s->event_machine = s->head.machine;
      if (running->name == 0 && name && *name)
        ttv_state_name_process (s, running->pid, name);
      return;
    }
  if (tid == 0 || tid == TTV_PID_NONE)
    return;
  TtvProcessState *p = find_process (s, tid, -1);
  if (p == NULL)
    {
      /* Known from its events only: alive, what it does between them unknown. */
      p = ensure_process (s, tid, cpu, t);
      p->tgid = tgid;
    }
  if (name && *name)
    p->name = g_quark_from_string (name);
  if (cpu >= 0)
    p->cpu = cpu;
  s->head.event_tid = tid;
  s->event_cpu = cpu;
  s->event_machine = s->head.machine;
}

void
ttv_state_name_process (TtvState *s, guint32 pid, const char *name)
{
  TtvProcessState *p = find_process (s, pid, -1);
  if (p && name && *name)
    p->name = g_quark_from_string (name);
}

void
ttv_state_name_irq (TtvState *s, guint32 irq, const char *name)
{
  if (name)
    ttv_state_name_irq_bytes (s, irq, name, strlen (name));
}

void
ttv_state_name_irq_bytes (TtvState *s, guint32 irq, const char *name, gsize len)
{
  len = strnlen (name, len);
  if (len == 0)
    return;
  /* Named again at every entry in some traces (LTTng's irq_handler_entry):
   * comparing first spares a copy, g_quark_from_string()'s lock and hash. */
  TtvIrqState *q = ensure_irq (&s->m->irqs, irq);
  if (q->name != 0)
    {
      const char *old = g_quark_to_string (q->name);
      if (strncmp (old, name, len) == 0 && old[len] == '\0')
        return;
    }
  g_autofree char *copy = g_strndup (name, len);
  q->name = g_quark_from_string (copy);
}

static TtvBlockDevState *
ensure_blockdev (TtvState *s, guint32 dev)
{
  TtvBlockDevState *b = ttv_id_table_lookup (&s->m->blockdevs, dev);
  if (b == NULL)
    {
      b = g_new0 (TtvBlockDevState, 1);
      b->dev = dev;
      ttv_id_table_insert (&s->m->blockdevs, dev, b);
    }
  return b;
}

/* Requests without a device (dev 0: commands sent straight to a device node,
 * such as a CD-ROM drive polled for media) are no block device's work. */
static void
block_request (TtvState *s, const TtvBlockRequest *rq, gboolean issue, TtvTime t)
{
  if (rq->dev == 0)
    return;
  gint delta = issue ? ttv_block_requests_issue (s->m->requests, rq)
                     : ttv_block_requests_complete (s->m->requests, rq);
  TtvBlockDevState *b = ensure_blockdev (s, rq->dev);
  if (delta == 0)
    return;
  guint before = b->pending;
  b->pending = (guint) MAX ((gint) b->pending + delta, 0);
  if ((before == 0) != (b->pending == 0))
    b->since = t;
  NOTIFY (s, resource, TTV_STATE_RESOURCE_BLOCKDEV, rq->dev, b->pending, t);
}

void
ttv_state_block_issue (TtvState *s, const TtvBlockRequest *rq, TtvTime t)
{
  block_request (s, rq, TRUE, t);
}

void
ttv_state_block_complete (TtvState *s, const TtvBlockRequest *rq, TtvTime t)
{
  block_request (s, rq, FALSE, t);
}

static gint
compare_process (gconstpointer a, gconstpointer b)
{
  const TtvProcessState *pa = *(TtvProcessState * const *) a;
  const TtvProcessState *pb = *(TtvProcessState * const *) b;
  if (pa->pid != pb->pid)
    return pa->pid < pb->pid ? -1 : 1;
  return pa->cpu < pb->cpu ? -1 : pa->cpu > pb->cpu;
}

GPtrArray *
ttv_state_list_processes (const TtvState *s)
{
  GPtrArray *out = g_ptr_array_new ();
  for (guint i = 0; i < s->m->cpus->len; i++)
    {
      CpuSlot *slot = &g_array_index (s->m->cpus, CpuSlot, i);
      if (slot->used)
        g_ptr_array_add (out, slot->idle);
    }
  g_autoptr (GPtrArray) procs = ttv_id_table_list (&s->m->processes);
  for (guint i = 0; i < procs->len; i++)
    g_ptr_array_add (out, g_ptr_array_index (procs, i));
  g_ptr_array_sort (out, compare_process);
  return out;
}

GPtrArray *
ttv_state_list_cpus (const TtvState *s)
{
  GPtrArray *out = g_ptr_array_new ();
  for (guint i = 0; i < s->m->cpus->len; i++)
    {
      CpuSlot *slot = &g_array_index (s->m->cpus, CpuSlot, i);
      if (slot->used)
        g_ptr_array_add (out, &slot->pub);
    }
  return out;
}

GPtrArray *
ttv_state_list_irqs (const TtvState *s, gboolean soft)
{
  return ttv_id_table_list (soft ? &s->m->softirqs : &s->m->irqs);
}

const TtvIrqState *
ttv_state_get_irq (const TtvState *s, guint32 id, gboolean soft)
{
  return ttv_id_table_lookup (soft ? &s->m->softirqs : &s->m->irqs, id);
}

GPtrArray *
ttv_state_list_block_devices (const TtvState *s)
{
  return ttv_id_table_list (&s->m->blockdevs);
}

gsize
ttv_state_get_memory_size (const TtvState *s)
{
  gsize size = sizeof *s;
  for (guint i = 0; i < s->machines->len; i++)
    {
      const Machine *m = g_ptr_array_index (s->machines, i);
      size += sizeof *m
              + (ttv_id_table_size (&m->processes) + m->cpus->len) * (sizeof (TtvProcessState) + 16)
              + ttv_id_table_get_memory (&m->processes)
              + m->cpus->len * sizeof (CpuSlot)
              + (ttv_id_table_size (&m->irqs) + ttv_id_table_size (&m->softirqs)) * (sizeof (TtvIrqState) + 16)
              + ttv_id_table_size (&m->blockdevs) * (sizeof (TtvBlockDevState) + 16)
              + ttv_block_requests_get_memory_size (m->requests);
    }
  return size;
}

const char *
ttv_process_status_name (TtvProcessStatus status)
{
  static const char *names[] = { "unnamed", "wait-fork", "wait-cpu", "run", "wait",
                                 "zombie", "exit", "dead" };
  return status < G_N_ELEMENTS (names) ? names[status] : "?";
}

const char *
ttv_exec_mode_name (TtvExecMode mode)
{
  static const char *names[] = { "unknown", "user", "syscall", "trap", "irq", "softirq" };
  return mode < G_N_ELEMENTS (names) ? names[mode] : "?";
}

static void
append_frame_id (GString *out, const TtvExecFrame *f)
{
  if (f->mode == TTV_MODE_SYSCALL)
    g_string_append_printf (out, "(%s)", g_quark_to_string (f->id));
  else if (f->mode != TTV_MODE_USER && f->mode != TTV_MODE_UNKNOWN)
    g_string_append_printf (out, "(%u)", f->id);
}

static void
append_process (GString *out, const TtvProcessState *p)
{
  char buf[32];
  g_string_append_printf (out, "process %u tgid %u ppid %d name %s status %s cpu %d created %s mode",
                          p->pid, p->tgid, p->ppid == TTV_PID_NONE ? -1 : (gint) p->ppid,
                          p->name ? g_quark_to_string (p->name) : "-",
                          ttv_process_status_name (p->status), p->cpu,
                          p->creation_time == TTV_TIME_MIN ? "-" : ttv_time_to_string (p->creation_time, buf, sizeof buf));
  for (guint i = 0; i < p->depth; i++)
    {
      g_string_append_printf (out, "%s%s", i ? " > " : " ", ttv_exec_mode_name (p->frames[i].mode));
      append_frame_id (out, &p->frames[i]);
    }
  g_string_append_c (out, '\n');
}

/* The CPUs, processes, IRQs and devices of the selected machine of @s. */
static void
append_machine_text (const TtvState *s, GString *out)
{
  g_autoptr (GPtrArray) cpus = ttv_state_list_cpus (s);
  for (guint i = 0; i < cpus->len; i++)
    {
      const TtvCpuState *c = g_ptr_array_index (cpus, i);
      const TtvProcessState *p = ttv_state_get_running (s, c->cpu);
      g_string_append_printf (out, "cpu %d running %d (%s) mode %s irqs %u softirqs %u", c->cpu,
                              c->running_pid == TTV_PID_NONE ? -1 : (gint) c->running_pid,
                              p && p->name ? g_quark_to_string (p->name) : "-",
                              ttv_exec_mode_name (ttv_state_get_cpu_mode (s, c->cpu)),
                              c->irq_depth, c->softirq_depth);
      for (guint j = 0; j < c->n_interrupts; j++)
        {
          g_string_append_printf (out, "%s%s", j ? " > " : " in ", ttv_exec_mode_name (c->interrupts[j].mode));
          append_frame_id (out, &c->interrupts[j]);
        }
      g_string_append_c (out, '\n');
    }
  g_autoptr (GPtrArray) procs = ttv_state_list_processes (s);
  for (guint i = 0; i < procs->len; i++)
    append_process (out, g_ptr_array_index (procs, i));
  for (int soft = 0; soft < 2; soft++)
    {
      g_autoptr (GPtrArray) irqs = ttv_state_list_irqs (s, soft);
      for (guint i = 0; i < irqs->len; i++)
        {
          const TtvIrqState *q = g_ptr_array_index (irqs, i);
          g_string_append_printf (out, "%s %u name %s active %u cpu %d\n", soft ? "softirq" : "irq",
                                  q->id, q->name ? g_quark_to_string (q->name) : "-", q->active, q->cpu);
        }
    }
  g_autoptr (GPtrArray) devs = ttv_state_list_block_devices (s);
  for (guint i = 0; i < devs->len; i++)
    {
      const TtvBlockDevState *b = g_ptr_array_index (devs, i);
      g_string_append_printf (out, "blockdev %u:%u pending %u", b->dev >> 20, b->dev & 0xfffff, b->pending);
      if (b->pending > 0)
        {
          g_string_append (out, " requests");
          ttv_block_requests_append_text (s->m->requests, b->dev, out);
        }
      g_string_append_c (out, '\n');
    }
}

void
ttv_state_append_text (const TtvState *s, GString *out)
{
  char buf[32];
  g_string_append_printf (out, "state at %s after %" G_GUINT64_FORMAT " events\n",
                          s->head.time == TTV_TIME_MIN ? "-" : ttv_time_to_string (s->head.time, buf, sizeof buf),
                          s->head.n_events);
  if (s->machines->len == 1)
    {
      append_machine_text (s, out);
      return;
    }
  for (guint i = 0; i < s->machines->len; i++)
    {
      /* A shallow view of @s with machine @i selected, read only. */
      TtvState view = *s;
      view.head.machine = i;
      view.m = g_ptr_array_index (s->machines, i);
      const char *name = g_quark_to_string (view.m->name);
      g_string_append_printf (out, "machine %u %s\n", i, name ? name : "-");
      append_machine_text (&view, out);
    }
}

gboolean
ttv_state_equal (const TtvState *a, const TtvState *b, GString *diff)
{
  /* The text dump covers every field that matters; comparing it line by
   * line also tells a test where the two differ. */
  g_autoptr (GString) ta = g_string_new (NULL);
  g_autoptr (GString) tb = g_string_new (NULL);
  ttv_state_append_text (a, ta);
  ttv_state_append_text (b, tb);
  if (g_str_equal (ta->str, tb->str))
    return TRUE;
  if (diff)
    {
      g_auto (GStrv) la = g_strsplit (ta->str, "\n", -1);
      g_auto (GStrv) lb = g_strsplit (tb->str, "\n", -1);
      for (guint i = 0; la[i] || lb[i]; i++)
        if (g_strcmp0 (la[i], lb[i]) != 0)
          {
            g_string_append_printf (diff, "line %u: «%s» vs «%s»", i + 1, la[i] ? la[i] : "(none)",
                                    lb[i] ? lb[i] : "(none)");
            break;
          }
    }
  return FALSE;
}

/* ---- snapshots: checkpoints kept in a file (ttv-state-tracker.c) ---- */

#define SNAPSHOT_MAGIC 0x53565454u   /* "TTVS" */

/* A process without its unused frames. */
static void
put_process (GByteArray *out, const TtvProcessState *p)
{
  guint depth = MIN (p->depth, TTV_STATE_MAX_NESTING);
  g_byte_array_append (out, (const guint8 *) p, G_STRUCT_OFFSET (TtvProcessState, frames));
  g_byte_array_append (out, (const guint8 *) p->frames, depth * sizeof (TtvExecFrame));
}

static void
put_u32 (GByteArray *out, guint32 v)
{
  g_byte_array_append (out, (const guint8 *) &v, sizeof v);
}

static void
put_table (GByteArray *out, const TtvIdTable *t, gsize record_size)
{
  g_autoptr (GPtrArray) records = ttv_id_table_list (t);
  put_u32 (out, records->len);
  for (guint i = 0; i < records->len; i++)
    g_byte_array_append (out, g_ptr_array_index (records, i), (guint) record_size);
}

/* The tables of machine @m. */
static void
put_machine (GByteArray *out, const Machine *m)
{
  put_u32 (out, m->name);
  g_autoptr (GPtrArray) procs = ttv_id_table_list (&m->processes);
  put_u32 (out, procs->len);
  for (guint i = 0; i < procs->len; i++)
    put_process (out, g_ptr_array_index (procs, i));
  put_u32 (out, m->cpus->len);
  for (guint i = 0; i < m->cpus->len; i++)
    {
      const CpuSlot *slot = &g_array_index (m->cpus, CpuSlot, i);
      put_u32 (out, slot->used);
      if (!slot->used)
        continue;
      g_byte_array_append (out, (const guint8 *) &slot->pub, sizeof slot->pub);
      g_byte_array_append (out, (const guint8 *) &slot->ended_syscall, sizeof slot->ended_syscall);
      g_byte_array_append (out, (const guint8 *) &slot->ended_event, sizeof slot->ended_event);
      put_process (out, slot->idle);
    }
  put_table (out, &m->irqs, sizeof (TtvIrqState));
  put_table (out, &m->softirqs, sizeof (TtvIrqState));
  put_table (out, &m->blockdevs, sizeof (TtvBlockDevState));
  guint n_requests;
  const TtvBlockRequest *requests = ttv_block_requests_peek (m->requests, &n_requests);
  put_u32 (out, n_requests);
  g_byte_array_append (out, (const guint8 *) requests, n_requests * (guint) sizeof *requests);
}

void
ttv_state_snapshot (const TtvState *s, GByteArray *out)
{
  put_u32 (out, SNAPSHOT_MAGIC);
  g_byte_array_append (out, (const guint8 *) &s->head.time, sizeof s->head.time);
  g_byte_array_append (out, (const guint8 *) &s->head.n_events, sizeof s->head.n_events);
  put_u32 (out, s->machines->len);
  for (guint i = 0; i < s->machines->len; i++)
    put_machine (out, g_ptr_array_index (s->machines, i));
  put_u32 (out, s->head.machine);
}

typedef struct {
  const guint8 *p, *end;
  gboolean bad;
} Reader;

static gboolean
get (Reader *r, void *dst, gsize n)
{
  if (r->bad || (gsize) (r->end - r->p) < n)
    {
      r->bad = TRUE;
      return FALSE;
    }
  memcpy (dst, r->p, n);
  r->p += n;
  return TRUE;
}

static TtvProcessState *
get_process (Reader *r)
{
  TtvProcessState *p = g_new0 (TtvProcessState, 1);
  if (!get (r, p, G_STRUCT_OFFSET (TtvProcessState, frames)) || p->depth > TTV_STATE_MAX_NESTING
      || !get (r, p->frames, p->depth * sizeof (TtvExecFrame)))
    {
      r->bad = TRUE;
      g_free (p);
      return NULL;
    }
  return p;
}

/* Records of a table, keyed by the id at @id_offset in each. */
static void
get_table (Reader *r, TtvIdTable *t, gsize record_size, gsize id_offset)
{
  guint32 n = 0;
  get (r, &n, sizeof n);
  for (guint32 i = 0; i < n && !r->bad; i++)
    {
      guint8 *record = g_malloc (record_size);
      guint32 id;
      if (!get (r, record, record_size))
        {
          g_free (record);
          break;
        }
      memcpy (&id, record + id_offset, sizeof id);
      ttv_id_table_insert (t, id, record);
    }
}

/* The tables of the selected machine of @s (see put_machine). */
static void
get_machine (Reader *r, TtvState *s)
{
  Machine *m = s->m;
  guint32 n = 0, name = 0;
  get (r, &name, sizeof name);
  m->name = name;
  get (r, &n, sizeof n);
  for (guint32 i = 0; i < n && !r->bad; i++)
    {
      TtvProcessState *p = get_process (r);
      if (p)
        ttv_id_table_insert (&m->processes, p->pid, p);
    }
  n = 0;
  get (r, &n, sizeof n);
  if (n > MAX_CPU_ID)
    r->bad = TRUE;
  else
    g_array_set_size (m->cpus, n);
  for (guint32 i = 0; i < n && !r->bad; i++)
    {
      CpuSlot *slot = &g_array_index (m->cpus, CpuSlot, i);
      guint32 used = 0;
      get (r, &used, sizeof used);
      if (!used)
        continue;
      slot->used = TRUE;
      get (r, &slot->pub, sizeof slot->pub);
      get (r, &slot->ended_syscall, sizeof slot->ended_syscall);
      get (r, &slot->ended_event, sizeof slot->ended_event);
      slot->idle = get_process (r);
    }
  get_table (r, &m->irqs, sizeof (TtvIrqState), G_STRUCT_OFFSET (TtvIrqState, id));
  get_table (r, &m->softirqs, sizeof (TtvIrqState), G_STRUCT_OFFSET (TtvIrqState, id));
  get_table (r, &m->blockdevs, sizeof (TtvBlockDevState), G_STRUCT_OFFSET (TtvBlockDevState, dev));
  n = 0;
  get (r, &n, sizeof n);
  if (n > TTV_BLOCK_REQUESTS_MAX)
    r->bad = TRUE;
  else if (n > 0)
    {
      g_autofree TtvBlockRequest *requests = g_new (TtvBlockRequest, n);
      if (get (r, requests, n * sizeof *requests))
        ttv_block_requests_restore (m->requests, requests, n);
    }
}

TtvState *
ttv_state_from_snapshot (const guint8 *data, gsize size)
{
  Reader r = { data, data + size, FALSE };
  guint32 magic = 0, n_machines = 0, selected = 0;
  if (!get (&r, &magic, sizeof magic) || magic != SNAPSHOT_MAGIC)
    return NULL;
  TtvState *s = ttv_state_new ();
  get (&r, &s->head.time, sizeof s->head.time);
  get (&r, &s->head.n_events, sizeof s->head.n_events);
  get (&r, &n_machines, sizeof n_machines);
  if (n_machines == 0 || n_machines > MAX_MACHINES)
    r.bad = TRUE;
  for (guint32 i = 0; i < n_machines && !r.bad; i++)
    {
      ttv_state_select_machine (s, i);
      get_machine (&r, s);
    }
  get (&r, &selected, sizeof selected);
  if (r.bad || r.p != r.end || selected >= s->machines->len)
    {
      ttv_state_free (s);
      return NULL;
    }
  ttv_state_select_machine (s, selected);
  return s;
}
