/* ttv-sim.c: the simulated kernel: CPUs, run queues, interrupts and devices
 * stepped in global time order; what the tasks are and do is the workload's
 * (ttv-sim-workload.c).  Used by ttv-gen, tests and benchmarks.
 *
 * Each CPU always has one planned next event (time + action).  The CPU with
 * the earliest planned time (lowest index on ties) fires it: the action's
 * effect is applied and its values computed at that moment, so that every
 * effect on other CPUs (wakeups, device completions) is ordered with the
 * events already emitted.  A CPU whose planned action is a free choice (not
 * inside an interrupt) is replanned when another CPU hands it work. */
#include "ttv-sim-private.h"

#include "ttv-error.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#define NONE TTV_SIM_NONE
#define T_INF TTV_SIM_T_INF
#define EPISODE_MAX_WORK 8
#define SLICE_TICKS 3

typedef TtvSimProc Proc;
typedef TtvSimCpu Cpu;
typedef TtvSimWake Wake;

typedef enum {
  ACT_IRQ_ENTRY,
  ACT_HARD_WAKEUP,
  ACT_IRQ_EXIT,
  ACT_SOFT_ENTRY,
  ACT_SOFT_COMPLETE,
  ACT_SOFT_RECEIVE,
  ACT_SOFT_WAKEUP,
  ACT_SOFT_FREE,
  ACT_SOFT_EXIT,
  ACT_SOFT_RAISE,           /* options.softirq_raise: the soft IRQ about to be raised */
  ACT_SWITCH,               /* preemption or idle task leaving */
  ACT_SYSCALL_ENTRY,
  ACT_SYSCALL_STEP,
  ACT_TRAP_ENTRY,
  ACT_TRAP_EXIT,
  ACT_KTHREAD_SLEEP,        /* a kernel thread's work is done */
} Act;

typedef enum { PH_NONE, PH_HARD, PH_SOFT_PENDING, PH_SOFT } Phase;

#define rnd ttv_sim_rnd
#define below ttv_sim_below
#define gap ttv_sim_gap
#define long_gap ttv_sim_long_gap

static inline TtvTime
quantize (TtvSim *sim, TtvTime t)
{
  TtvTime q = sim->opt.quantum_ns;
  TtvTime r = t % q;
  return r == 0 ? t : t + (q - r);
}

/* --- Addresses that fit the traced architecture -------------------------- */

static guint64
user_address (TtvSim *sim)
{
  if (sim->opt.pointer_bits == 32)
    return G_GUINT64_CONSTANT (0x08048000) + (below (sim, 0x100000) << 4);
  return G_GUINT64_CONSTANT (0x7f0000000000) + (below (sim, G_GUINT64_CONSTANT (1) << 32) << 4);
}

static guint64
kernel_address (TtvSim *sim)
{
  if (sim->opt.pointer_bits == 32)
    return G_GUINT64_CONSTANT (0xc0000000) + (below (sim, 0x100000) << 8);
  return G_GUINT64_CONSTANT (0xffff888000000000) + (below (sim, G_GUINT64_CONSTANT (1) << 28) << 8);
}

/* An address as a syscall's return value (a long). */
static gint64
mapped_address (TtvSim *sim)
{
  if (sim->opt.long_bits == 32)
    return 0x40000000 + (gint64) (below (sim, 0x10000) << 12);
  return (gint64) (G_GUINT64_CONSTANT (0x7f0000000000) + (below (sim, 1 << 24) << 12));
}

/* --- Wake heaps ------------------------------------------------------------ */

static inline gboolean
wake_less (const Wake *a, const Wake *b)
{
  return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

static void
heap_push (TtvSim *sim, Cpu *c, Wake w)
{
  if (c->heap_len == c->heap_cap)
    {
      c->heap_cap = c->heap_cap ? c->heap_cap * 2 : 16;
      c->heap = g_renew (Wake, c->heap, c->heap_cap);
    }
  w.seq = sim->seq++;
  guint i = c->heap_len++;
  while (i > 0)
    {
      guint parent = (i - 1) / 2;
      if (!wake_less (&w, &c->heap[parent]))
        break;
      c->heap[i] = c->heap[parent];
      i = parent;
    }
  c->heap[i] = w;
}

static Wake
heap_pop (Cpu *c)
{
  g_assert (c->heap_len > 0);
  Wake top = c->heap[0];
  Wake last = c->heap[--c->heap_len];
  guint i = 0, n = c->heap_len;
  for (;;)
    {
      guint child = 2 * i + 1;
      if (child >= n)
        break;
      if (child + 1 < n && wake_less (&c->heap[child + 1], &c->heap[child]))
        child++;
      if (!wake_less (&c->heap[child], &last))
        break;
      c->heap[i] = c->heap[child];
      i = child;
    }
  if (n > 0)
    c->heap[i] = last;
  return top;
}

static inline gboolean
heap_due (const Cpu *c, guint8 role)
{
  return c->heap_len > 0 && c->heap[0].time <= c->ep_time && c->heap[0].role == role;
}

/* --- Run queues ------------------------------------------------------------ */

static void
rq_push (TtvSim *sim, Cpu *c, guint32 p)
{
  sim->procs[p].next = NONE;
  sim->procs[p].cpu = (guint32) (c - sim->cpus);
  if (c->rq_tail == NONE)
    c->rq_head = p;
  else
    sim->procs[c->rq_tail].next = p;
  c->rq_tail = p;
  c->rq_len++;
}

/* A task that slept goes first (CFS picks the smallest vruntime, which a
 * sleeper has) unless it is a command: those queue behind. */
static void
rq_push_woken (TtvSim *sim, Cpu *c, guint32 p)
{
  if (sim->procs[p].role >= TTV_SIM_ROLE_JOB || c->rq_head == NONE)
    {
      rq_push (sim, c, p);
      return;
    }
  sim->procs[p].cpu = (guint32) (c - sim->cpus);
  sim->procs[p].next = c->rq_head;
  c->rq_head = p;
  c->rq_len++;
}

static guint32
rq_pop (TtvSim *sim, Cpu *c)
{
  guint32 p = c->rq_head;
  if (p == NONE)
    return NONE;
  c->rq_head = sim->procs[p].next;
  if (c->rq_head == NONE)
    c->rq_tail = NONE;
  c->rq_len--;
  return p;
}

static inline gboolean
is_idle_task (const TtvSim *sim, guint32 p)
{
  return p < sim->n_cpus;
}

static inline gboolean
cpu_idle (const TtvSim *sim, const Cpu *c)
{
  return is_idle_task (sim, c->cur) && c->rq_len == 0;
}

/* --- Planning --------------------------------------------------------------- */

/* The first tick after @t: ticks fall on the same instants on every CPU. */
static TtvTime
next_tick_after (TtvSim *sim, TtvTime t)
{
  TtvTime first = quantize (sim, sim->opt.start_time + sim->opt.tick_ns);
  if (t < first)
    return first;
  return first + ((t - first) / sim->opt.tick_ns + 1) * sim->opt.tick_ns;
}

/* The soft IRQ the hard IRQ being handled on @c raises, or -1. */
static gint
hard_softirq (const Cpu *c)
{
  switch (c->ep_role)
    {
    case TTV_SIM_IRQ_TIMER:
      return c->ep_tick ? TTV_SIM_SOFTIRQ_TIMER : -1;
    case TTV_SIM_IRQ_BLOCK:
      return TTV_SIM_SOFTIRQ_BLOCK;
    case TTV_SIM_IRQ_NET:
      return TTV_SIM_SOFTIRQ_NET_RX;
    default:
      return -1;
    }
}

static void
plan (TtvSim *sim, Cpu *c)
{
  TtvTime base = MAX (c->last, sim->now);
  TtvTime k = sim->opt.kernel_ns;
  Proc *p = &sim->procs[c->cur];

  c->replaceable = FALSE;
  switch (c->phase)
    {
    case PH_HARD:
      if (c->ep_role == TTV_SIM_IRQ_TIMER && c->ep_work < EPISODE_MAX_WORK
          && heap_due (c, TTV_SIM_IRQ_TIMER))
        c->act = ACT_HARD_WAKEUP;
      else if (sim->opt.softirq_raise && !c->raised && hard_softirq (c) >= 0)
        c->act = ACT_SOFT_RAISE;
      else
        c->act = ACT_IRQ_EXIT;
      c->next_time = quantize (sim, base + gap (sim, k / 2));
      return;
    case PH_SOFT_PENDING:
      c->act = ACT_SOFT_ENTRY;
      c->next_time = quantize (sim, base + gap (sim, k / 4));
      return;
    case PH_SOFT:
      if (c->pending_wake != NONE)
        c->act = ACT_SOFT_WAKEUP;
      else if (c->softirq == TTV_SIM_SOFTIRQ_BLOCK && c->ep_work < EPISODE_MAX_WORK
               && heap_due (c, TTV_SIM_IRQ_BLOCK))
        c->act = ACT_SOFT_COMPLETE;
      else if (c->softirq == TTV_SIM_SOFTIRQ_NET_RX && c->ep_work < EPISODE_MAX_WORK
               && heap_due (c, TTV_SIM_IRQ_NET))
        c->act = ACT_SOFT_RECEIVE;
      else if (c->softirq == TTV_SIM_SOFTIRQ_RCU && c->ep_work < 4 && sim->zombie_head != NONE)
        c->act = ACT_SOFT_FREE;
      else if (sim->opt.softirq_raise && c->softirq == TTV_SIM_SOFTIRQ_TIMER && !c->raised_rcu
               && sim->zombie_head != NONE)
        c->act = ACT_SOFT_RAISE;
      else
        c->act = ACT_SOFT_EXIT;
      c->next_time = quantize (sim, base + gap (sim, k / 2));
      return;
    default:
      break;
    }

  /* A free choice: the next interrupt, or what the current task does next.
   * An idle CPU takes no tick (NO_HZ idle): only its timers and devices
   * wake it. */
  c->replaceable = TRUE;
  TtvTime t_irq = T_INF;
  if (!cpu_idle (sim, c))
    {
      if (c->next_tick < base)
        c->next_tick = next_tick_after (sim, base - 1);
      t_irq = c->next_tick;
    }
  c->plan_line = sim->timer_line;
  c->plan_role = TTV_SIM_IRQ_TIMER;
  c->plan_tick = TRUE;
  if (c->heap_len > 0 && c->heap[0].time < t_irq)
    {
      t_irq = c->heap[0].time;
      c->plan_role = c->heap[0].role;
      c->plan_line = c->plan_role == TTV_SIM_IRQ_NET ? sim->net_line
                   : c->plan_role == TTV_SIM_IRQ_BLOCK ? sim->block_line : sim->timer_line;
      c->plan_tick = FALSE;
    }
  if (t_irq != T_INF)
    t_irq = MAX (t_irq, base);

  TtvTime t_proc = T_INF;
  Act act = ACT_SWITCH;
  if (is_idle_task (sim, c->cur))
    {
      if (c->rq_len > 0)
        t_proc = base + gap (sim, k);
    }
  else if (c->in_trap)
    {
      t_proc = base + gap (sim, k);
      act = ACT_TRAP_EXIT;
    }
  else if (p->in_syscall)
    {
      t_proc = base + gap (sim, k);
      act = ACT_SYSCALL_STEP;
    }
  else if (c->need_resched && c->rq_len > 0)
    t_proc = base + gap (sim, k / 2);
  else if (p->role == TTV_SIM_ROLE_KTHREAD)
    {
      /* No user mode: it works in the kernel, then sleeps. */
      t_proc = base + gap (sim, k * (TtvTime) (2 + below (sim, 8)));
      act = ACT_KTHREAD_SLEEP;
    }
  else
    {
      /* Which call is decided when it happens: a plan may be replaced. */
      t_proc = base + gap (sim, ttv_sim_user_run (sim, p));
      act = below (sim, p->faults ? 2 : 10) == 0 ? ACT_TRAP_ENTRY : ACT_SYSCALL_ENTRY;
    }

  if (t_irq == T_INF && t_proc == T_INF)
    {
      /* Idle with nothing due: another CPU will hand it work. */
      c->act = ACT_IRQ_ENTRY;
      c->next_time = T_INF;
    }
  else if (t_irq <= t_proc)
    {
      c->act = ACT_IRQ_ENTRY;
      c->next_time = quantize (sim, t_irq);
    }
  else
    {
      c->act = act;
      c->next_time = quantize (sim, t_proc);
    }
}

/* Another CPU gave @c work: plan again if it was only waiting. */
static void
nudge (TtvSim *sim, Cpu *c, Cpu *from, TtvTime when)
{
  if (c != from && c->replaceable && when < c->next_time)
    plan (sim, c);
}

/* --- Effects ------------------------------------------------------------------ */

#define V_UINT(i, x) (sim->values[i] = TTV_SCALAR_UINT (x))
#define V_INT(i, x) (sim->values[i] = TTV_SCALAR_INT (x))
#define V_STR(i, x) (sim->values[i] = TTV_SCALAR_STRING (x))

/* An idle CPU other than @c, or NULL. */
static Cpu *
find_idle_cpu (TtvSim *sim, const Cpu *c)
{
  for (guint i = 0; i < sim->n_cpus; i++)
    if (&sim->cpus[i] != c && cpu_idle (sim, &sim->cpus[i]))
      return &sim->cpus[i];
  return NULL;
}

/* A CPU about to idle pulls a waiting task from the busiest run queue (the
 * scheduler's new-idle balance); bound tasks stay. */
static guint32
steal_task (TtvSim *sim, Cpu *c)
{
  Cpu *busiest = NULL;
  for (guint i = 0; i < sim->n_cpus; i++)
    {
      Cpu *o = &sim->cpus[i];
      if (o != c && o->rq_len > 0 && !sim->procs[o->rq_head].bound
          && (busiest == NULL || o->rq_len > busiest->rq_len))
        busiest = o;
    }
  return busiest ? rq_pop (sim, busiest) : NONE;
}

static guint
do_switch (TtvSim *sim, Cpu *c, guint8 prev_state, const Wake *wake, Cpu *wake_cpu)
{
  guint32 prev = c->cur;
  guint32 next = rq_pop (sim, c);
  guint ci = (guint) (c - sim->cpus);
  Proc *pp = &sim->procs[prev];

  if (next == NONE && prev_state != TTV_SIM_TASK_RUNNING)
    next = steal_task (sim, c);
  if (next == NONE)
    next = ci;   /* the idle task */

  V_UINT (0, pp->pid);
  V_UINT (1, sim->procs[next].pid);
  V_UINT (2, prev_state);
  if (sim->truth)
    ttv_sim_truth_switch (sim->truth, (gint) c->id, pp->pid, prev_state, sim->procs[next].pid, sim->now);

  if (!is_idle_task (sim, prev))
    {
      switch (prev_state)
        {
        case TTV_SIM_TASK_RUNNING:
          {
            /* Preempted: another CPU that idles takes it at once. */
            Cpu *idle = pp->bound ? NULL : find_idle_cpu (sim, c);
            pp->state = P_RUNNABLE;
            rq_push (sim, idle ? idle : c, prev);
            if (idle)
              nudge (sim, idle, c, sim->now);
          }
          break;
        case TTV_SIM_TASK_ZOMBIE:
        case TTV_SIM_TASK_DEAD:
          /* Freed once RCU's soft IRQ gets to it. */
          pp->state = P_ZOMBIE;
          pp->next = NONE;
          if (sim->zombie_tail == NONE)
            sim->zombie_head = prev;
          else
            sim->procs[sim->zombie_tail].next = prev;
          sim->zombie_tail = prev;
          break;
        default:
          /* Without @wake, another task wakes it (a child ending). */
          pp->state = P_BLOCKED;
          if (wake)
            {
              heap_push (sim, wake_cpu, *wake);
              nudge (sim, wake_cpu, c, wake->time);
            }
          break;
        }
    }

  Proc *np = &sim->procs[next];
  np->state = P_RUNNING;
  np->cpu = ci;
  np->slice_end = sim->now + SLICE_TICKS * sim->opt.tick_ns;
  c->cur = next;
  c->need_resched = FALSE;
  return TTV_SIM_EVENT_SCHED_SWITCH;
}

static guint
do_wakeup (TtvSim *sim, Cpu *c, guint32 p)
{
  Proc *pp = &sim->procs[p];
  Cpu *target = &sim->cpus[pp->cpu];

  if (sim->truth)
    ttv_sim_truth_wakeup (sim->truth, (gint) c->id, pp->pid, pp->state == P_NEW, sim->now);
  /* To an idle CPU when its own is busy, unless it is bound to it. */
  if (!pp->bound && !cpu_idle (sim, target))
    for (guint i = 0; i < sim->n_cpus; i++)
      if (cpu_idle (sim, &sim->cpus[i]))
        {
          target = &sim->cpus[i];
          break;
        }
  pp->state = P_RUNNABLE;
  rq_push_woken (sim, target, p);
  if (is_idle_task (sim, target->cur))
    nudge (sim, target, c, sim->now);
  else if (pp->role != TTV_SIM_ROLE_JOB && pp->role != TTV_SIM_ROLE_WORKER
           && sim->procs[target->cur].role >= TTV_SIM_ROLE_JOB)
    {
      /* A task that slept preempts a command using its CPU (CFS's wakeup
       * preemption): interactive tasks and daemons barely wait. */
      target->need_resched = TRUE;
      nudge (sim, target, c, sim->now);
    }

  V_UINT (0, pp->pid);
  V_UINT (1, target->id);
  return TTV_SIM_EVENT_SCHED_WAKEUP;
}

static void files_after_call (TtvSim *sim, const Proc *p);
static void files_after_fork (TtvSim *sim, const Proc *parent, const Proc *child);

static guint
syscall_exit (TtvSim *sim, Proc *p)
{
  p->in_syscall = FALSE;
  V_INT (0, p->ret);
  files_after_call (sim, p);
  if (sim->truth)
    ttv_sim_truth_syscall_exit (sim->truth, (gint) sim->cpus[p->cpu].id, p->pid, p->ret, sim->now);
  return TTV_SIM_EVENT_SYSCALL_EXIT;
}

static guint32
alloc_pid (TtvSim *sim)
{
  for (;;)
    {
      guint32 pid = sim->next_pid++;
      if (sim->next_pid >= TTV_SIM_PROBE_PID)
        {
          sim->next_pid = 300;
          sim->pid_wrapped = TRUE;
        }
      gboolean used = FALSE;
      /* after a wrap, skip pids still in use */
      for (guint i = sim->n_cpus; sim->pid_wrapped && i < sim->n_procs && !used; i++)
        used = sim->procs[i].state != P_FREE && sim->procs[i].pid == pid;
      if (!used)
        return pid;
    }
}

/* The steps of a syscall after its entry, by kind (see TtvSimSyscallKind). */
static guint
syscall_step (TtvSim *sim, Cpu *c, Proc *p)
{
  const TtvSimSyscall *sc = &ttv_sim_syscalls[p->sc];
  guint ci = (guint) (c - sim->cpus);
  Wake w = { 0 };

  switch (sc->kind)
    {
    case TTV_SIM_SYSCALL_READ:
    case TTV_SIM_SYSCALL_WRITE:
      if (!p->io || p->step == 2 || (p->step == 1 && sc->kind == TTV_SIM_SYSCALL_WRITE))
        return syscall_exit (sim, p);
      if (p->step == 0)
        {
          p->step = 1;
          p->io_sector = below (sim, G_GUINT64_CONSTANT (1) << 30) * 8;
          p->io_nr = (guint32) (1 + below (sim, 32)) * 8;
          p->ret = p->io_nr * 512;
          V_UINT (0, (8u << 20) | 0);
          V_UINT (1, p->io_sector);
          V_UINT (2, p->io_nr);
          V_UINT (3, sc->kind == TTV_SIM_SYSCALL_WRITE);
          if (sim->truth)
            ttv_sim_truth_io_issue (sim->truth, (gint) c->id, (8u << 20) | 0, p->io_sector, p->io_nr,
                                    sc->kind == TTV_SIM_SYSCALL_WRITE, sim->now);
          if (sc->kind == TTV_SIM_SYSCALL_WRITE)
            {
              /* asynchronous writeback: completes later, nobody waits */
              w = (Wake) { .time = sim->now + long_gap (sim, sim->opt.io_ns), .proc = NONE,
                           .nr = p->io_nr, .sector = p->io_sector, .role = TTV_SIM_IRQ_BLOCK };
              heap_push (sim, &sim->cpus[sim->block_cpu], w);
              nudge (sim, &sim->cpus[sim->block_cpu], c, w.time);
            }
          return TTV_SIM_EVENT_REQUEST_ISSUE;
        }
      p->step = 2;
      w = (Wake) { .time = sim->now + long_gap (sim, sim->opt.io_ns),
                   .proc = c->cur, .nr = p->io_nr, .sector = p->io_sector,
                   .role = TTV_SIM_IRQ_BLOCK };
      return do_switch (sim, c, TTV_SIM_TASK_WAIT_UNINTERRUPTIBLE, &w, &sim->cpus[sim->block_cpu]);

    case TTV_SIM_SYSCALL_SEND:
      if (p->step == 0 && sim->net_line != NONE)
        {
          p->step = 1;
          p->ret = 64 + (gint64) below (sim, 1451);
          V_UINT (0, kernel_address (sim));
          V_UINT (1, p->ret);
          V_STR (2, sim->lines[sim->net_line].name);
          return TTV_SIM_EVENT_DEV_XMIT;
        }
      return syscall_exit (sim, p);

    case TTV_SIM_SYSCALL_RECV:
    case TTV_SIM_SYSCALL_SLEEP:
      if (p->step == 0)
        {
          p->step = 1;
          if (sc->kind == TTV_SIM_SYSCALL_RECV && sim->net_line != NONE)
            {
              p->ret = 64 + (gint64) below (sim, 1451);
              w = (Wake) { .time = sim->now + long_gap (sim, sim->opt.io_ns), .proc = c->cur,
                           .nr = (guint32) p->ret, .role = TTV_SIM_IRQ_NET };
              return do_switch (sim, c, TTV_SIM_TASK_WAIT_INTERRUPTIBLE, &w, &sim->cpus[sim->net_cpu]);
            }
          w = (Wake) { .time = sim->now + ttv_sim_nap (sim, p), .proc = c->cur,
                       .role = TTV_SIM_IRQ_TIMER };
          return do_switch (sim, c, TTV_SIM_TASK_WAIT_INTERRUPTIBLE, &w, c);
        }
      return syscall_exit (sim, p);

    case TTV_SIM_SYSCALL_FORK:
      if (p->step == 0)
        {
          guint32 slot = sim->free_head;
          if (slot == NONE)
            {
              p->ret = -11;   /* EAGAIN: a job gives that child up */
              if (p->to_start > 0)
                p->to_start--;
              return syscall_exit (sim, p);
            }
          sim->free_head = sim->procs[slot].next;
          Proc *child = &sim->procs[slot];
          memset (child, 0, sizeof *child);
          child->pid = alloc_pid (sim);
          if (sim->truth)
            ttv_sim_truth_forget (sim->truth, child->pid);
          child->state = P_NEW;
          child->cpu = ci;
          child->next = NONE;
          ttv_sim_start_child (sim, p, c->cur, child);
          files_after_fork (sim, p, child);
          sim->n_live++;
          p->step = 1;
          p->ret = slot;   /* the child's slot until its wakeup */
          V_UINT (0, p->pid);
          V_UINT (1, child->pid);
          V_UINT (2, child->tgid);
          return TTV_SIM_EVENT_PROCESS_FORK;
        }
      if (p->step == 1)
        {
          guint32 slot = (guint32) p->ret;
          p->step = 2;
          p->ret = sim->procs[slot].pid;
          return do_wakeup (sim, c, slot);
        }
      return syscall_exit (sim, p);

    case TTV_SIM_SYSCALL_EXEC:
      if (p->step == 0)
        {
          p->step = 1;
          p->ret = 0;
          V_UINT (0, p->pid);
          V_STR (1, ttv_sim_exec (sim, p));
          return TTV_SIM_EVENT_PROCESS_EXEC;
        }
      return syscall_exit (sim, p);

    case TTV_SIM_SYSCALL_EXIT:
      if (p->step == 0)
        {
          p->step = 1;
          sim->n_live--;
          if (p->parent != NONE)
            {
              Proc *parent = &sim->procs[p->parent];
              parent->n_ended++;
              parent->ended_pid = p->pid;
            }
          V_UINT (0, p->pid);
          return TTV_SIM_EVENT_PROCESS_EXIT;
        }
      if (p->step == 1 && p->parent != NONE && sim->procs[p->parent].waiting)
        {
          /* The parent waits in wait4 (a thread's leader in futex). */
          Proc *parent = &sim->procs[p->parent];
          p->step = 2;
          parent->waiting = FALSE;
          return do_wakeup (sim, c, p->parent);
        }
      /* A thread is released as it ends; a process stays a zombie until its
       * parent reaps it. */
      return do_switch (sim, c, p->tgid == p->pid ? TTV_SIM_TASK_ZOMBIE : TTV_SIM_TASK_DEAD, NULL, NULL);

    case TTV_SIM_SYSCALL_WAIT:
      if (p->step == 0 && p->n_ended == 0 && p->n_children > 0)
        {
          p->step = 1;
          p->waiting = TRUE;
          return do_switch (sim, c, TTV_SIM_TASK_WAIT_INTERRUPTIBLE, NULL, NULL);
        }
      if (p->n_ended > 0)
        {
          p->n_ended--;
          p->n_children--;
          p->ret = sc->number == 61 ? (gint64) p->ended_pid : 0;
        }
      else
        p->ret = sc->number == 61 ? -10 : 0;   /* ECHILD */
      return syscall_exit (sim, p);

    case TTV_SIM_SYSCALL_QUICK:
    default:
      return syscall_exit (sim, p);
    }
}

static gint64
quick_return (TtvSim *sim, Proc *p, guint number)
{
  switch (number)
    {
    case 2: case 257:    /* open, openat: above the statedump's files */
      return below (sim, 8) == 0 ? -2 : 10 + (gint64) below (sim, 53);
    case 4: case 5:      /* stat, fstat */
      return below (sim, 8) == 0 ? -2 : 0;
    case 8:
      return (gint64) below (sim, 1 << 20);
    case 9: case 12:     /* mmap, brk */
      return mapped_address (sim);
    case 16:
      return below (sim, 4) == 0 ? -25 : 0;
    case 39:
      return p->tgid;
    case 72:
      return (gint64) below (sim, 4);
    case 7: case 23: case 232:
      return (gint64) below (sim, 3);
    case 202:
      return below (sim, 4) == 0 ? -11 : 0;
    case 0: case 1:
      return 1 + (gint64) below (sim, 8192);
    default:
      return 0;
    }
}

/* --- System call arguments (LTTng 2.x traces carry them) ------------------- */

/* Processes alive at the start (leaders, not kernel threads) have files
 * 3 to 5 open; their reads and writes use one of them.  Opens return fds
 * from 10 on, which closes give back. */
#define FIRST_FILE_FD 3
#define N_FILES 3

static const Proc *
initial_leader (const TtvSim *sim, guint32 tgid)
{
  for (guint i = sim->n_cpus; i < sim->n_cpus + sim->n_initial && i < sim->n_procs; i++)
    {
      const Proc *q = &sim->procs[i];
      if (q->pid == tgid)
        return q->tgid == q->pid && q->role != TTV_SIM_ROLE_KTHREAD && q->state != P_FREE ? q : NULL;
    }
  return NULL;
}

static void
initial_file_name (const TtvSim *sim, guint32 tgid, gint fd, char *buf, gsize len)
{
  const char *name = g_hash_table_lookup (sim->initial_names, GUINT_TO_POINTER (tgid));
  if (sim->probe && tgid == TTV_SIM_PROBE_PID)
    name = ttv_sim_probe_get_name (sim->probe, tgid);
  g_snprintf (buf, len, "/var/lib/%s/%d.db", name ? name : "?", fd);
}

static void
set_call_args (TtvSim *sim, Cpu *c, Proc *p, guint number)
{
  TtvSimCallArgs *a = &sim->args;
  memset (a, 0, sizeof *a);
  a->fd = -1;
  sim->args_file[0] = '\0';
  sim->last_args_cpu = (guint32) (c - sim->cpus);
  switch (number)
    {
    case 0: case 1: case 5: case 8: case 16: case 17: case 72: case 74:
      a->fd = FIRST_FILE_FD + p->tgid % N_FILES;
      break;
    case 3:
      a->fd = 10 + p->tgid % 40;
      break;
    case 2: case 257:
      g_snprintf (sim->args_file, sizeof sim->args_file, "/etc/%s.conf", p->name);
      a->filename = sim->args_file;
      break;
    case 202:
      /* A lock or condition of the process; joining a thread waits on its tid. */
      a->futex = TRUE;
      a->uaddr = (sim->opt.pointer_bits == 32 ? G_GUINT64_CONSTANT (0x40000000) : G_GUINT64_CONSTANT (0x7f0000000000))
                 + ((guint64) (p->tgid & 0xffff) << 12)
                 + (ttv_sim_syscalls[p->sc].kind == TTV_SIM_SYSCALL_WAIT ? 0x100 : 0x40);
      a->op = 128;   /* FUTEX_WAIT | FUTEX_PRIVATE_FLAG */
      break;
    default:
      break;
    }
}

static char *
fd_key (guint32 tgid, gint64 fd)
{
  return g_strdup_printf ("%u/%" G_GINT64_FORMAT, tgid, fd);
}

/* The file the trace says the call's fd (or filename) is, or NULL: the
 * statedump's files, what opens returned until closed. */
static const char *
call_file (TtvSim *sim)
{
  const TtvSimCallArgs *a = &sim->args;
  if (a->filename)
    return a->filename;
  if (a->fd < 0)
    return NULL;
  Proc *p = &sim->procs[sim->cpus[sim->last_args_cpu].cur];
  g_autofree char *key = fd_key (p->tgid, a->fd);
  return g_hash_table_lookup (sim->files, key);
}

/* A call returns: opens and closes change what fds are. */
static void
files_after_call (TtvSim *sim, const Proc *p)
{
  guint number = ttv_sim_syscalls[p->sc].number;
  if ((number == 2 || number == 257) && p->ret >= 0)
    g_hash_table_replace (sim->files, fd_key (p->tgid, p->ret), g_strdup_printf ("/etc/%s.conf", p->name));
  else if (number == 3 && p->ret == 0)
    {
      g_autofree char *key = fd_key (p->tgid, 10 + p->tgid % 40);
      g_hash_table_remove (sim->files, key);
    }
}

static gboolean
key_of_process (gpointer key, gpointer value, gpointer prefix)
{
  return g_str_has_prefix (key, prefix);
}

/* A group leader freed: its process's files are closed (and its pid may
 * be given again, to a process without them). */
static void
files_after_free (TtvSim *sim, const Proc *p)
{
  if (sim->files == NULL || p->tgid != p->pid)
    return;
  g_autofree char *prefix = g_strdup_printf ("%u/", p->tgid);
  g_hash_table_foreach_remove (sim->files, key_of_process, prefix);
}

/* A new process has its parent's files (fork gives them). */
static void
files_after_fork (TtvSim *sim, const Proc *parent, const Proc *child)
{
  if (sim->files == NULL || child->tgid != child->pid)
    return;
  g_autofree char *prefix = g_strdup_printf ("%u/", parent->tgid);
  GHashTableIter it;
  gpointer key, name;
  g_autoptr (GPtrArray) copies = g_ptr_array_new ();
  g_hash_table_iter_init (&it, sim->files);
  while (g_hash_table_iter_next (&it, &key, &name))
    if (g_str_has_prefix (key, prefix))
      {
        g_ptr_array_add (copies, g_strdup_printf ("%u/%s", child->tgid, (const char *) key + strlen (prefix)));
        g_ptr_array_add (copies, g_strdup (name));
      }
  for (guint i = 0; i < copies->len; i += 2)
    g_hash_table_replace (sim->files, copies->pdata[i], copies->pdata[i + 1]);
}

gboolean
ttv_sim_get_call_args (const TtvSim *sim, guint cpu_id, TtvSimCallArgs *args)
{
  if (sim->probe && cpu_id == ttv_sim_probe_get_cpu (sim->probe))
    return ttv_sim_probe_get_call_args (sim->probe, args);
  if (sim->last_args_cpu >= sim->n_cpus || sim->cpus[sim->last_args_cpu].id != cpu_id)
    return FALSE;
  *args = sim->args;
  return TRUE;
}

gboolean
ttv_sim_get_process_file (const TtvSim *sim, guint pid, guint index, gint *fd, const char **filename)
{
  gboolean probe = sim->probe && pid == TTV_SIM_PROBE_PID;
  if (index >= N_FILES || (!probe && initial_leader (sim, pid) == NULL))
    return FALSE;
  *fd = FIRST_FILE_FD + (gint) index;
  initial_file_name (sim, pid, *fd, ((TtvSim *) sim)->file_buf, sizeof sim->file_buf);
  *filename = sim->file_buf;
  return TRUE;
}

static guint
do_syscall_entry (TtvSim *sim, Cpu *c, Proc *p, guint sc)
{
  const TtvSimSyscall *s = &ttv_sim_syscalls[sc];
  p->in_syscall = TRUE;
  p->sc = (guint16) sc;
  p->step = 0;
  p->fresh = FALSE;
  p->ret = quick_return (sim, p, s->number);
  p->io = FALSE;
  if (s->kind == TTV_SIM_SYSCALL_READ && sim->block_line != NONE)
    p->io = ttv_sim_does_io (sim, p, FALSE);
  else if (s->kind == TTV_SIM_SYSCALL_WRITE && sim->block_line != NONE)
    p->io = ttv_sim_does_io (sim, p, TRUE) && sim->cpus[sim->block_cpu].heap_len < sim->n_procs + 64;
  V_UINT (0, s->number);
  V_UINT (1, user_address (sim));
  set_call_args (sim, c, p, s->number);
  if (sim->truth)
    {
      ttv_sim_truth_syscall_entry (sim->truth, (gint) c->id, p->pid, p->tgid, s->number, call_file (sim), sim->now);
      if (sim->args.futex)
        ttv_sim_truth_futex_wait (sim->truth, p->pid, sim->args.uaddr, sim->now);
    }
  return TTV_SIM_EVENT_SYSCALL_ENTRY;
}

/* Applies @c's planned action at sim->now; returns the event, values in sim->values. */
static guint
fire (TtvSim *sim, Cpu *c)
{
  Proc *p = &sim->procs[c->cur];
  Wake w;

  switch ((Act) c->act)
    {
    case ACT_IRQ_ENTRY:
      c->phase = PH_HARD;
      c->ep_line = c->plan_line;
      c->ep_role = c->plan_role;
      c->ep_tick = c->plan_tick;
      c->ep_time = sim->now;
      c->ep_work = 0;
      if (c->ep_tick)
        {
          c->next_tick = next_tick_after (sim, sim->now);
          if (!is_idle_task (sim, c->cur) && sim->now >= p->slice_end)
            c->need_resched = TRUE;
        }
      c->raised = FALSE;
      V_UINT (0, sim->lines[c->ep_line].number);
      V_UINT (1, is_idle_task (sim, c->cur) || p->in_syscall || c->in_trap
                 || p->role == TTV_SIM_ROLE_KTHREAD);
      if (sim->truth)
        ttv_sim_truth_interrupt (sim->truth, (gint) c->id, FALSE, sim->lines[c->ep_line].number, TRUE, sim->now);
      return TTV_SIM_EVENT_IRQ_ENTRY;

    case ACT_HARD_WAKEUP:
      w = heap_pop (c);
      c->ep_work++;
      return do_wakeup (sim, c, w.proc);

    case ACT_IRQ_EXIT:
      if (sim->truth)
        ttv_sim_truth_interrupt (sim->truth, (gint) c->id, FALSE, 0, FALSE, sim->now);
      c->phase = PH_SOFT_PENDING;
      switch (c->ep_role)
        {
        case TTV_SIM_IRQ_TIMER:
          if (c->ep_tick)
            c->softirq = TTV_SIM_SOFTIRQ_TIMER;
          else
            c->phase = PH_NONE;
          break;
        case TTV_SIM_IRQ_BLOCK:
          c->softirq = TTV_SIM_SOFTIRQ_BLOCK;
          break;
        case TTV_SIM_IRQ_NET:
          c->softirq = TTV_SIM_SOFTIRQ_NET_RX;
          break;
        default:
          c->phase = PH_NONE;
          break;
        }
      return TTV_SIM_EVENT_IRQ_EXIT;

    case ACT_SOFT_ENTRY:
      c->phase = PH_SOFT;
      c->ep_work = 0;
      c->raised_rcu = FALSE;
      V_UINT (0, c->softirq);
      if (sim->truth)
        ttv_sim_truth_interrupt (sim->truth, (gint) c->id, TRUE, c->softirq, TRUE, sim->now);
      return TTV_SIM_EVENT_SOFT_IRQ_ENTRY;

    case ACT_SOFT_COMPLETE:
      w = heap_pop (c);
      c->ep_work++;
      c->pending_wake = w.proc;
      V_UINT (0, (8u << 20) | 0);
      V_UINT (1, w.sector);
      V_UINT (2, w.nr);
      V_INT (3, 0);
      if (sim->truth)
        ttv_sim_truth_io_complete (sim->truth, (8u << 20) | 0, w.sector, sim->now);
      return TTV_SIM_EVENT_REQUEST_COMPLETE;

    case ACT_SOFT_RECEIVE:
      w = heap_pop (c);
      c->ep_work++;
      c->pending_wake = w.proc;
      V_UINT (0, kernel_address (sim));
      V_UINT (1, w.nr);
      V_STR (2, sim->lines[sim->net_line].name);
      return TTV_SIM_EVENT_NETIF_RECEIVE;

    case ACT_SOFT_WAKEUP:
      {
        guint32 proc = c->pending_wake;
        c->pending_wake = NONE;
        return do_wakeup (sim, c, proc);
      }

    case ACT_SOFT_FREE:
      if (sim->zombie_head == NONE)   /* another CPU freed it meanwhile */
        goto soft_exit;
      {
        guint32 z = sim->zombie_head;
        Proc *zp = &sim->procs[z];
        c->ep_work++;
        sim->zombie_head = zp->next;
        if (sim->zombie_head == NONE)
          sim->zombie_tail = NONE;
        V_UINT (0, zp->pid);
        files_after_free (sim, zp);
        zp->state = P_FREE;
        zp->next = sim->free_head;
        sim->free_head = z;
        return TTV_SIM_EVENT_PROCESS_FREE;
      }

    case ACT_SOFT_EXIT:
    soft_exit:
      V_UINT (0, c->softirq);
      if (sim->truth)
        ttv_sim_truth_interrupt (sim->truth, (gint) c->id, TRUE, c->softirq, FALSE, sim->now);
      /* With raises, RCU runs when it was raised (another CPU may have
       * freed the zombies meanwhile: it then finds none). */
      if (c->softirq == TTV_SIM_SOFTIRQ_TIMER
          && (sim->opt.softirq_raise ? c->raised_rcu : sim->zombie_head != NONE))
        {
          c->phase = PH_SOFT_PENDING;
          c->softirq = TTV_SIM_SOFTIRQ_RCU;
        }
      else
        c->phase = PH_NONE;
      return TTV_SIM_EVENT_SOFT_IRQ_EXIT;

    case ACT_SOFT_RAISE:
      {
        guint32 vec = c->phase == PH_HARD ? (guint32) hard_softirq (c) : TTV_SIM_SOFTIRQ_RCU;
        if (c->phase == PH_HARD)
          c->raised = TRUE;
        else
          c->raised_rcu = TRUE;
        V_UINT (0, vec);
        if (sim->truth)
          ttv_sim_truth_raise (sim->truth, (gint) c->id, vec, sim->now);
        return TTV_SIM_EVENT_SOFT_IRQ_RAISE;
      }

    case ACT_SWITCH:
      return do_switch (sim, c, TTV_SIM_TASK_RUNNING, NULL, NULL);

    case ACT_SYSCALL_ENTRY:
      return do_syscall_entry (sim, c, p, ttv_sim_choose_syscall (sim, p));

    case ACT_KTHREAD_SLEEP:
      w = (Wake) { .time = sim->now + ttv_sim_nap (sim, p), .proc = c->cur, .role = TTV_SIM_IRQ_TIMER };
      return do_switch (sim, c, TTV_SIM_TASK_WAIT_INTERRUPTIBLE, &w, c);

    case ACT_SYSCALL_STEP:
      return syscall_step (sim, c, p);

    case ACT_TRAP_ENTRY:
      if (p->faults > 0)
        p->faults--;
      c->in_trap = TRUE;
      V_UINT (0, 14);
      V_UINT (1, user_address (sim));
      return TTV_SIM_EVENT_TRAP_ENTRY;

    case ACT_TRAP_EXIT:
    default:
      c->in_trap = FALSE;
      return TTV_SIM_EVENT_TRAP_EXIT;
    }
}

/* --- Setup -------------------------------------------------------------------- */

static const TtvSimIrqLine default_lines[] = {
  { 0, "timer", "IO-APIC-edge", TTV_SIM_IRQ_TIMER },
  { 1, "i8042", "IO-APIC-edge", TTV_SIM_IRQ_OTHER },
  { 19, "eth0", "IO-APIC-fasteoi", TTV_SIM_IRQ_NET },
  { 20, "ahci", "PCI-MSI-edge", TTV_SIM_IRQ_BLOCK },
};

void
ttv_sim_options_init (TtvSimOptions *options)
{
  g_return_if_fail (options != NULL);
  memset (options, 0, sizeof *options);
  options->n_cpus = 4;
  options->n_processes = 50;
  options->max_events = 1000000;
  options->start_time = G_GINT64_CONSTANT (1700000000) * TTV_NSEC_PER_SEC;
  options->pointer_bits = 64;
  options->long_bits = 64;
}

static gboolean
check_options (TtvSimOptions *o, GError **error)
{
  if (o->n_cpus == 0)
    o->n_cpus = 4;
  if (o->n_cpus > TTV_SIM_MAX_CPUS)
    {
      g_set_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT,
                   _("Too many CPUs: %u (at most %u)"), o->n_cpus, TTV_SIM_MAX_CPUS);
      return FALSE;
    }
  if (o->cpu_ids)
    for (guint i = 0; i < o->n_cpus; i++)
      if ((i > 0 && o->cpu_ids[i] <= o->cpu_ids[i - 1]) || o->cpu_ids[i] > G_MAXINT32)
        {
          g_set_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT,
                       _("CPU ids must be strictly increasing"));
          return FALSE;
        }
  if (o->n_processes == 0)
    o->n_processes = 50;
  if (o->n_processes > 1000000)
    {
      g_set_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT,
                   _("Too many processes: %u (at most 1000000)"), o->n_processes);
      return FALSE;
    }
  if (o->pointer_bits == 0)
    o->pointer_bits = 64;
  if (o->long_bits == 0)
    o->long_bits = 64;
  if ((o->pointer_bits != 32 && o->pointer_bits != 64) || (o->long_bits != 32 && o->long_bits != 64))
    {
      g_set_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT,
                   _("Pointers and longs must have 32 or 64 bits"));
      return FALSE;
    }
  if (o->start_time < 0 || o->duration < 0 || o->quantum_ns < 0 || o->tick_ns < 0
      || o->user_ns < 0 || o->kernel_ns < 0 || o->io_ns < 0 || o->sleep_ns < 0)
    {
      g_set_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT,
                   _("Times and rates must not be negative"));
      return FALSE;
    }
  if (o->start_time == 0)
    o->start_time = G_GINT64_CONSTANT (1700000000) * TTV_NSEC_PER_SEC;
  if (o->quantum_ns == 0)
    o->quantum_ns = 100;
  if (o->tick_ns == 0)
    o->tick_ns = 1000000;
  if (o->user_ns == 0)
    o->user_ns = 20000;
  if (o->kernel_ns == 0)
    o->kernel_ns = 1500;
  if (o->io_ns == 0)
    o->io_ns = 400000;
  if (o->sleep_ns == 0)
    o->sleep_ns = 2000000;
  if (o->tick_ns < o->quantum_ns)
    o->tick_ns = o->quantum_ns;
  o->tick_ns -= o->tick_ns % o->quantum_ns;
  return TRUE;
}

/* Blocked until a timer fires at a random time of its first nap. */
static void
sleep_initially (TtvSim *sim, guint32 slot)
{
  Proc *p = &sim->procs[slot];
  p->state = P_BLOCKED;
  Wake w = { .time = sim->opt.start_time + (TtvTime) below (sim, (guint64) ttv_sim_nap (sim, p) * 2),
             .proc = slot, .role = TTV_SIM_IRQ_TIMER };
  heap_push (sim, &sim->cpus[p->cpu], w);
}

/* Blocked in @number, a call begun before the trace. */
static void
in_call_initially (TtvSim *sim, guint32 slot, guint number)
{
  Proc *p = &sim->procs[slot];
  p->in_syscall = TRUE;
  p->step = 1;
  p->sc = (guint16) ttv_sim_syscall_index (number);
  p->ret = 0;
}

/* The trace starts in the middle of things: most tasks wait (kernel
 * threads sleep, daemons are in their waiting call, shells think or wait
 * for a command), the others are runnable, and most CPUs run one of them
 * (a task the trace does not name until it leaves the CPU). */
static void
set_initial_states (TtvSim *sim)
{
  for (guint32 slot = sim->n_cpus; slot < sim->n_cpus + sim->n_initial; slot++)
    {
      Proc *p = &sim->procs[slot];
      gboolean runnable = FALSE;
      switch (p->role)
        {
        case TTV_SIM_ROLE_KTHREAD:
          if (!(runnable = below (sim, 10) == 0))
            sleep_initially (sim, slot);
          break;
        case TTV_SIM_ROLE_SHELL:
          if (p->waiting)
            {
              in_call_initially (sim, slot, 61);   /* wait4 for its command */
              p->state = P_BLOCKED;
              p->thinking = TRUE;
              p->burst = (guint16) (1 + below (sim, 3));
            }
          else
            {
              in_call_initially (sim, slot, 23);   /* select on the terminal */
              sleep_initially (sim, slot);
              p->thinking = FALSE;
              p->burst = (guint16) (2 + below (sim, 4));
            }
          break;
        case TTV_SIM_ROLE_JOB:
        case TTV_SIM_ROLE_WORKER:
          runnable = TRUE;
          break;
        default:
          if (!(runnable = below (sim, 10) == 0))
            {
              /* With no call left in its burst, its next call is its wait. */
              p->burst = 0;
              in_call_initially (sim, slot, ttv_sim_syscalls[ttv_sim_choose_syscall (sim, p)].number);
              sleep_initially (sim, slot);
            }
          break;
        }
      if (runnable)
        {
          p->state = P_RUNNABLE;
          rq_push (sim, &sim->cpus[p->cpu], slot);
        }
    }
  for (guint i = 0; i < sim->n_cpus; i++)
    {
      Cpu *c = &sim->cpus[i];
      if (c->rq_len == 0 || below (sim, 10) >= 7)
        continue;
      guint32 slot = rq_pop (sim, c);
      Proc *p = &sim->procs[slot];
      p->state = P_RUNNING;
      p->slice_end = sim->opt.start_time + SLICE_TICKS * sim->opt.tick_ns;
      c->cur = slot;
    }
}

TtvSim *
ttv_sim_new (const TtvSimOptions *options, GError **error)
{
  g_return_val_if_fail (options != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  TtvSimOptions o = *options;
  if (!check_options (&o, error))
    return NULL;

  const TtvSimIrqLine *lines = o.irq_lines ? o.irq_lines : default_lines;
  guint n_lines = o.irq_lines ? o.n_irq_lines : G_N_ELEMENTS (default_lines);
  guint32 timer_line = NONE, net_line = NONE, block_line = NONE;
  for (guint i = 0; i < n_lines; i++)
    {
      guint32 *slot = lines[i].role == TTV_SIM_IRQ_TIMER ? &timer_line
                    : lines[i].role == TTV_SIM_IRQ_NET ? &net_line
                    : lines[i].role == TTV_SIM_IRQ_BLOCK ? &block_line : NULL;
      if (lines[i].name == NULL || lines[i].controller == NULL
          || (slot && *slot != NONE))
        {
          g_set_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT,
                       _("Interrupt line %u: missing name or duplicate role"), lines[i].number);
          return NULL;
        }
      if (slot)
        *slot = i;
    }
  if (timer_line == NONE)
    {
      g_set_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT,
                   _("The simulated machine needs a timer interrupt line"));
      return NULL;
    }

  TtvSim *sim = g_new0 (TtvSim, 1);
  sim->opt = o;
  sim->opt.cpu_ids = NULL;
  sim->lines = g_memdup2 (lines, n_lines * sizeof *lines);
  sim->n_lines = n_lines;
  sim->opt.irq_lines = NULL;
  sim->timer_line = timer_line;
  sim->net_line = net_line;
  sim->block_line = block_line;
  sim->n_cpus = o.n_cpus;
  sim->net_cpu = sim->n_cpus > 1 ? 1 : 0;
  sim->block_cpu = sim->n_cpus > 2 ? 2 : 0;
  sim->now = o.start_time;
  sim->end_time = o.duration > 0 && o.duration <= T_INF - o.start_time ? o.start_time + o.duration : T_INF;

  guint64 x = o.seed;
  for (guint i = 0; i < 4; i++)
    sim->rng[i] = ttv_sim_splitmix64 (&x);

  sim->sc_clone = ttv_sim_syscall_index (56);
  sim->sc_execve = ttv_sim_syscall_index (59);
  sim->sc_exit = ttv_sim_syscall_index (60);
  sim->sc_wait4 = ttv_sim_syscall_index (61);
  sim->sc_futex = ttv_sim_syscall_index (202);
  sim->sc_futex_join = sim->sc_futex + 1;
  g_assert (ttv_sim_syscalls[sim->sc_futex_join].kind == TTV_SIM_SYSCALL_WAIT);
  sim->sc_exit_group = ttv_sim_syscall_index (231);

  /* Processes: the idle tasks, the initial population, free slots. */
  guint M = o.n_processes;
  /* Room for the commands that come and go. */
  sim->n_procs = sim->n_cpus + 2 * M + 16 + 16 * sim->n_cpus;
  sim->procs = g_new0 (Proc, sim->n_procs);
  sim->cpus = g_new0 (Cpu, sim->n_cpus);
  TtvTime first_tick = quantize (sim, o.start_time + o.tick_ns);
  for (guint i = 0; i < sim->n_cpus; i++)
    {
      Cpu *c = &sim->cpus[i];
      c->id = options->cpu_ids ? options->cpu_ids[i] : i;
      c->cur = i;
      c->rq_head = c->rq_tail = NONE;
      c->last = o.start_time;
      c->next_tick = first_tick;
      c->pending_wake = NONE;
      Proc *idle = &sim->procs[i];
      idle->state = P_RUNNING;
      idle->cpu = i;
      g_strlcpy (idle->name, "swapper", sizeof idle->name);
    }

  sim->n_initial = M;
  sim->n_live = M;
  /* Daemons nap longer on a crowded machine: most of its processes idle. */
  sim->daemon_nap = o.sleep_ns * 50 * (TtvTime) MAX (1u, M / (20 * sim->n_cpus));
  ttv_sim_populate (sim);
  set_initial_states (sim);
  sim->initial_names = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  sim->files = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  for (guint32 slot = sim->n_cpus; slot < sim->n_cpus + sim->n_initial; slot++)
    {
      const Proc *p = &sim->procs[slot];
      if (p->tgid == p->pid && p->role != TTV_SIM_ROLE_KTHREAD)
        g_hash_table_insert (sim->initial_names, GUINT_TO_POINTER (p->pid), g_strdup (p->name));
    }
  for (guint32 slot = sim->n_cpus; slot < sim->n_cpus + sim->n_initial; slot++)
    for (gint fd = FIRST_FILE_FD; fd < FIRST_FILE_FD + N_FILES && initial_leader (sim, sim->procs[slot].pid); fd++)
      {
        char name[64];
        initial_file_name (sim, sim->procs[slot].pid, fd, name, sizeof name);
        g_hash_table_insert (sim->files, fd_key (sim->procs[slot].pid, fd), g_strdup (name));
      }
  sim->free_head = NONE;
  for (guint32 slot = sim->n_procs; slot-- > sim->n_cpus + M;)
    {
      sim->procs[slot].next = sim->free_head;
      sim->free_head = slot;
    }
  sim->zombie_head = sim->zombie_tail = NONE;
  sim->n_control = sim->n_lines + M;

  for (guint i = 0; i < sim->n_cpus; i++)
    plan (sim, &sim->cpus[i]);
  if (o.probe)
    {
      guint id = 0;
      for (guint i = 0; i < sim->n_cpus; i++)
        id = MAX (id, sim->cpus[i].id + 1);
      sim->probe = ttv_sim_probe_new (sim, id);
      /* Its IRQ line and its three threads, described at the start. */
      sim->n_control += 4;
    }
  return sim;
}

void
ttv_sim_free (TtvSim *sim)
{
  if (sim == NULL)
    return;
  for (guint i = 0; i < sim->n_cpus; i++)
    g_free (sim->cpus[i].heap);
  g_free (sim->cpus);
  g_free (sim->procs);
  g_free (sim->lines);
  if (sim->initial_names)
    g_hash_table_unref (sim->initial_names);
  if (sim->files)
    g_hash_table_unref (sim->files);
  ttv_sim_probe_free (sim->probe);
  g_free (sim);
}

/* --- Running ------------------------------------------------------------------ */

/* The probe's IRQ line (@j 0), then its threads, blocked in nanosleep. */
static gboolean
step_probe_control (TtvSim *sim, guint j, TtvSimEmitFunc emit, gpointer user_data, GError **error)
{
  if (j == 0)
    {
      V_UINT (0, TTV_SIM_PROBE_IRQ);
      V_UINT (1, 0);
      V_STR (2, "PCI-MSI-edge");
      V_STR (3, "probe-disk");
      return emit (user_data, TTV_SIM_STREAM_INTERRUPTS, sim->opt.start_time, TTV_SIM_EVENT_INTERRUPT,
                   sim->values, 4, error);
    }
  guint32 pid = TTV_SIM_PROBE_PID + j - 1;
  V_STR (0, ttv_sim_probe_get_name (sim->probe, pid));
  V_UINT (1, pid);
  V_UINT (2, 1);
  for (guint k = 3; k < 12; k++)
    V_UINT (k, 0);
  V_UINT (12, TTV_SIM_PROCESS_WAIT_INTERRUPTIBLE);
  return emit (user_data, TTV_SIM_STREAM_PROCESSES, sim->opt.start_time, TTV_SIM_EVENT_PROCESS, sim->values, 13,
               error);
}

static gboolean
step_control (TtvSim *sim, TtvSimEmitFunc emit, gpointer user_data, GError **error)
{
  guint i = sim->control_index++;
  sim->n_events++;
  if (i < sim->n_lines)
    {
      const TtvSimIrqLine *l = &sim->lines[i];
      guint64 count = l->role == TTV_SIM_IRQ_TIMER ? 1000000 + below (sim, 100000000)
                                                    : below (sim, 1000000);
      V_UINT (0, l->number);
      V_UINT (1, count);
      V_STR (2, l->controller);
      V_STR (3, l->name);
      return emit (user_data, TTV_SIM_STREAM_INTERRUPTS, sim->opt.start_time,
                   TTV_SIM_EVENT_INTERRUPT, sim->values, 4, error);
    }
  if (i >= sim->n_lines + sim->n_initial)
    return step_probe_control (sim, i - sim->n_lines - sim->n_initial, emit, user_data, error);
  const Proc *p = &sim->procs[sim->n_cpus + (i - sim->n_lines)];
  V_STR (0, p->name);
  V_UINT (1, p->pid);
  V_UINT (2, p->ppid);
  V_UINT (3, 0);
  for (guint k = 4; k < 12; k++)
    V_UINT (k, p->uid);   /* uid, euid, suid, fsuid, gid, egid, sgid, fsgid */
  V_UINT (12, p->state == P_BLOCKED ? TTV_SIM_PROCESS_WAIT_INTERRUPTIBLE : TTV_SIM_PROCESS_RUNNING);
  return emit (user_data, TTV_SIM_STREAM_PROCESSES, sim->opt.start_time,
               TTV_SIM_EVENT_PROCESS, sim->values, 13, error);
}

static const guint8 n_values_of[TTV_SIM_N_EVENTS] = {
  [TTV_SIM_EVENT_SYSCALL_ENTRY] = 2, [TTV_SIM_EVENT_SYSCALL_EXIT] = 1,
  [TTV_SIM_EVENT_TRAP_ENTRY] = 2, [TTV_SIM_EVENT_TRAP_EXIT] = 0,
  [TTV_SIM_EVENT_IRQ_ENTRY] = 2, [TTV_SIM_EVENT_IRQ_EXIT] = 0,
  [TTV_SIM_EVENT_SOFT_IRQ_ENTRY] = 1, [TTV_SIM_EVENT_SOFT_IRQ_EXIT] = 1,
  [TTV_SIM_EVENT_SCHED_SWITCH] = 3, [TTV_SIM_EVENT_SCHED_WAKEUP] = 2,
  [TTV_SIM_EVENT_PROCESS_FORK] = 3, [TTV_SIM_EVENT_PROCESS_EXEC] = 2,
  [TTV_SIM_EVENT_PROCESS_EXIT] = 1, [TTV_SIM_EVENT_PROCESS_FREE] = 1,
  [TTV_SIM_EVENT_PROCESS] = 13, [TTV_SIM_EVENT_INTERRUPT] = 4,
  [TTV_SIM_EVENT_REQUEST_ISSUE] = 4, [TTV_SIM_EVENT_REQUEST_COMPLETE] = 4,
  [TTV_SIM_EVENT_DEV_XMIT] = 3, [TTV_SIM_EVENT_NETIF_RECEIVE] = 3, [TTV_SIM_EVENT_SOFT_IRQ_RAISE] = 1,
};

gboolean
ttv_sim_step (TtvSim *sim, TtvSimEmitFunc emit, gpointer user_data, GError **error)
{
  g_return_val_if_fail (sim != NULL && emit != NULL, FALSE);

  if (sim->done)
    return FALSE;
  if (sim->opt.max_events && sim->n_events >= sim->opt.max_events)
    {
      sim->done = TRUE;
      return FALSE;
    }
  if (sim->control_index < sim->n_control)
    {
      if (step_control (sim, emit, user_data, error))
        return TRUE;
      sim->done = TRUE;
      return FALSE;
    }

  Cpu *c = &sim->cpus[0];
  for (guint i = 1; i < sim->n_cpus; i++)
    if (sim->cpus[i].next_time < c->next_time)
      c = &sim->cpus[i];
  /* The probe's CPU has the highest id: it goes last on equal times. */
  if (sim->probe && ttv_sim_probe_next_time (sim->probe) < MIN (c->next_time, sim->end_time))
    {
      sim->now = ttv_sim_probe_next_time (sim->probe);
      sim->n_events++;
      if (ttv_sim_probe_step (sim->probe, emit, user_data, error))
        return TRUE;
      sim->done = TRUE;
      return FALSE;
    }
  if (c->next_time >= sim->end_time)
    {
      sim->done = TRUE;
      return FALSE;
    }

  sim->now = c->next_time;
  c->last = sim->now;
  guint event = fire (sim, c);
  plan (sim, c);
  sim->n_events++;
  if (!emit (user_data, (gint) c->id, sim->now, event, sim->values, n_values_of[event], error))
    {
      sim->done = TRUE;
      return FALSE;
    }
  return TRUE;
}

gboolean
ttv_sim_run (TtvSim *sim, TtvSimEmitFunc emit, gpointer user_data, GError **error)
{
  GError *local = NULL;
  while (ttv_sim_step (sim, emit, user_data, &local))
    ;
  if (local)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  return TRUE;
}

/* --- Queries ------------------------------------------------------------------ */

void
ttv_sim_set_truth (TtvSim *sim, TtvSimTruth *truth)
{
  sim->truth = truth;
}

gboolean
ttv_sim_take_event (TtvSim *sim)
{
  g_return_val_if_fail (sim != NULL, FALSE);
  if (sim->opt.max_events && sim->n_events >= sim->opt.max_events)
    return FALSE;
  sim->n_events++;
  return TRUE;
}

guint64
ttv_sim_get_n_events (const TtvSim *sim)
{
  return sim->n_events;
}

TtvTime
ttv_sim_get_time (const TtvSim *sim)
{
  return sim->now;
}

guint
ttv_sim_get_n_cpus (const TtvSim *sim)
{
  return sim->n_cpus + (sim->probe ? 1 : 0);
}

guint
ttv_sim_get_cpu_id (const TtvSim *sim, guint index)
{
  if (sim->probe && index == sim->n_cpus)
    return ttv_sim_probe_get_cpu (sim->probe);
  g_return_val_if_fail (index < sim->n_cpus, 0);
  return sim->cpus[index].id;
}

gint
ttv_sim_get_running_pid (const TtvSim *sim, guint cpu_id)
{
  if (sim->probe && cpu_id == ttv_sim_probe_get_cpu (sim->probe))
    return (gint) ttv_sim_probe_get_running (sim->probe);
  for (guint i = 0; i < sim->n_cpus; i++)
    if (sim->cpus[i].id == cpu_id)
      return (gint) sim->procs[sim->cpus[i].cur].pid;
  return -1;
}

guint
ttv_sim_get_n_processes (const TtvSim *sim)
{
  return sim->n_live;
}

static const Proc *
find_task (const TtvSim *sim, guint pid)
{
  for (guint i = sim->n_cpus; i < sim->n_procs; i++)
    if (sim->procs[i].state != P_FREE && sim->procs[i].pid == pid)
      return &sim->procs[i];
  return NULL;
}

const char *
ttv_sim_get_process_name (const TtvSim *sim, guint pid)
{
  if (pid == 0)
    return "swapper";
  if (sim->probe && ttv_sim_probe_get_name (sim->probe, pid))
    return ttv_sim_probe_get_name (sim->probe, pid);
  const Proc *p = find_task (sim, pid);
  return p ? p->name : NULL;
}

guint
ttv_sim_get_process_tgid (const TtvSim *sim, guint pid)
{
  if (sim->probe && ttv_sim_probe_get_name (sim->probe, pid))
    return TTV_SIM_PROBE_PID;
  const Proc *p = pid ? find_task (sim, pid) : NULL;
  return p ? p->tgid : 0;
}
