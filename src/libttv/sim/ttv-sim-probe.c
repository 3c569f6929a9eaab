/* ttv-sim-probe.c: the probe, a process of three threads on a CPU of its
 * own that does the same thing every 10 ms, so that tests know what the
 * analyses must find whatever the rest of the simulation does: a client
 * (A) blocks in read(), woken by a server (B) that waits on a futex for a
 * worker (C), which reads from a disk (8:16) that takes exactly 1 ms; the
 * timer wakes all three each period.  Its latencies, CPU share, disk time
 * and wakeup chain are in docs/analyses.md (the probe).  Used by ttv-sim.c
 * with options.probe. */
#include "ttv-sim-private.h"

#include <string.h>

#define US G_GINT64_CONSTANT (1000)
#define PERIOD (10000 * US)
#define FIRST (1000 * US)
#define PROBE_DEV ((8u << 20) | 16u)

enum { A, B, C, IDLE };

typedef enum {
  S_IRQ_ENTRY, S_IRQ_EXIT, S_WAKEUP, S_SWITCH, S_ENTRY, S_EXIT, S_ISSUE, S_COMPLETE,
} StepKind;

typedef struct {
  gint64 at_us;            /* from the period's base */
  StepKind kind;
  guint8 who;              /* the thread (switch: prev) */
  guint8 other;            /* switch: next; */
  guint16 number;          /* syscall; IRQ: 0 timer, 1 disk */
  guint8 state;            /* switch: prev_state */
  gint64 value;            /* exit: ret; entry: fd (-1 none) */
} Step;

/* One period (see the file's comment; docs/analyses.md draws it). */
static const Step script[] = {
  { -30, S_IRQ_ENTRY, IDLE, 0, 0, 0, 0 },
  { -20, S_WAKEUP, A, 0, 0, 0, 0 },
  { -15, S_WAKEUP, B, 0, 0, 0, 0 },
  { -10, S_WAKEUP, C, 0, 0, 0, 0 },
  { -5, S_IRQ_EXIT, IDLE, 0, 0, 0, 0 },
  { 0, S_SWITCH, IDLE, A, 0, TTV_SIM_TASK_RUNNING, 0 },
  { 5, S_EXIT, A, 0, 35, 0, 0 },
  { 100, S_ENTRY, A, 0, 0, 0, 3 },
  { 110, S_SWITCH, A, B, 0, TTV_SIM_TASK_WAIT_INTERRUPTIBLE, 0 },
  { 115, S_EXIT, B, 0, 35, 0, 0 },
  { 300, S_ENTRY, B, 0, 202, 0, -1 },
  { 310, S_SWITCH, B, C, 0, TTV_SIM_TASK_WAIT_INTERRUPTIBLE, 0 },
  { 315, S_EXIT, C, 0, 35, 0, 0 },
  { 400, S_ENTRY, C, 0, 0, 0, 4 },
  { 410, S_ISSUE, C, 0, 0, 0, 0 },
  { 420, S_SWITCH, C, IDLE, 0, TTV_SIM_TASK_WAIT_UNINTERRUPTIBLE, 0 },
  { 1400, S_IRQ_ENTRY, IDLE, 0, 1, 0, 0 },
  { 1410, S_COMPLETE, IDLE, 0, 0, 0, 0 },
  { 1440, S_WAKEUP, C, 0, 0, 0, 0 },
  { 1450, S_IRQ_EXIT, IDLE, 0, 0, 0, 0 },
  { 1500, S_SWITCH, IDLE, C, 0, TTV_SIM_TASK_RUNNING, 0 },
  { 1510, S_EXIT, C, 0, 0, 0, 4096 },
  { 1600, S_ENTRY, C, 0, 202, 1, -1 },
  { 1610, S_WAKEUP, B, 0, 0, 0, 0 },
  { 1620, S_EXIT, C, 0, 202, 0, 1 },
  { 1700, S_ENTRY, C, 0, 35, 0, -1 },
  { 1710, S_SWITCH, C, B, 0, TTV_SIM_TASK_WAIT_INTERRUPTIBLE, 0 },
  { 1720, S_EXIT, B, 0, 202, 0, 0 },
  { 1800, S_ENTRY, B, 0, 1, 0, 5 },
  { 1810, S_WAKEUP, A, 0, 0, 0, 0 },
  { 1820, S_EXIT, B, 0, 1, 0, 512 },
  { 1900, S_ENTRY, B, 0, 35, 0, -1 },
  { 1910, S_SWITCH, B, A, 0, TTV_SIM_TASK_WAIT_INTERRUPTIBLE, 0 },
  { 1920, S_EXIT, A, 0, 0, 0, 512 },
  { 2000, S_ENTRY, A, 0, 35, 0, -1 },
  { 2010, S_SWITCH, A, IDLE, 0, TTV_SIM_TASK_WAIT_INTERRUPTIBLE, 0 },
};

static const char *const names[] = { "probe-client", "probe-server", "probe-worker" };

struct _TtvSimProbe {
  TtvSim *sim;             /* weak: the owner */
  guint cpu;
  guint64 period;
  guint index;             /* of the next step */
  guint running;           /* A, B, C or IDLE */
  TtvScalar values[TTV_SIM_MAX_VALUES];
  TtvSimCallArgs args;     /* of the last call entered */
  char file[64];
};

TtvSimProbe *
ttv_sim_probe_new (TtvSim *sim, guint cpu_id)
{
  TtvSimProbe *p = g_new0 (TtvSimProbe, 1);
  p->sim = sim;
  p->cpu = cpu_id;
  p->running = IDLE;
  return p;
}

void
ttv_sim_probe_free (TtvSimProbe *p)
{
  g_free (p);
}

guint
ttv_sim_probe_get_cpu (const TtvSimProbe *p)
{
  return p->cpu;
}

static guint32
pid_of (guint who)
{
  return who == IDLE ? 0 : TTV_SIM_PROBE_PID + who;
}

guint32
ttv_sim_probe_get_running (const TtvSimProbe *p)
{
  return pid_of (p->running);
}

const char *
ttv_sim_probe_get_name (const TtvSimProbe *p, guint pid)
{
  return pid >= TTV_SIM_PROBE_PID && pid < TTV_SIM_PROBE_PID + 3 ? names[pid - TTV_SIM_PROBE_PID] : NULL;
}

gboolean
ttv_sim_probe_get_call_args (const TtvSimProbe *p, TtvSimCallArgs *args)
{
  *args = p->args;
  return TRUE;
}

TtvTime
ttv_sim_probe_next_time (const TtvSimProbe *p)
{
  const Step *s = &script[p->index];
  return p->sim->opt.start_time + FIRST + (TtvTime) p->period * PERIOD + s->at_us * US;
}

#define V_UINT(i, x) (p->values[i] = TTV_SCALAR_UINT (x))
#define V_INT(i, x) (p->values[i] = TTV_SCALAR_INT (x))

gboolean
ttv_sim_probe_step (TtvSimProbe *p, TtvSimEmitFunc emit, gpointer user_data, GError **error)
{
  const Step *s = &script[p->index];
  TtvTime now = ttv_sim_probe_next_time (p);
  TtvSimTruth *truth = p->sim->truth;
  gint cpu = (gint) p->cpu;
  guint64 sector = G_GUINT64_CONSTANT (1) << 20 | (p->period * 8);
  /* A lock of the process, an address that fits the traced architecture. */
  guint64 uaddr = p->sim->opt.pointer_bits == 32 ? 0x0dead040u : G_GUINT64_CONSTANT (0x7f00dead0040);
  guint event, n = 0;
  switch (s->kind)
    {
    case S_IRQ_ENTRY:
      {
        guint32 line = s->number ? TTV_SIM_PROBE_IRQ : p->sim->lines[p->sim->timer_line].number;
        V_UINT (0, line);
        V_UINT (1, 1);
        n = 2;
        event = TTV_SIM_EVENT_IRQ_ENTRY;
        if (truth)
          ttv_sim_truth_interrupt (truth, cpu, FALSE, line, TRUE, now);
      }
      break;
    case S_IRQ_EXIT:
      event = TTV_SIM_EVENT_IRQ_EXIT;
      if (truth)
        ttv_sim_truth_interrupt (truth, cpu, FALSE, 0, FALSE, now);
      break;
    case S_WAKEUP:
      V_UINT (0, pid_of (s->who));
      V_UINT (1, p->cpu);
      n = 2;
      event = TTV_SIM_EVENT_SCHED_WAKEUP;
      if (truth)
        ttv_sim_truth_wakeup (truth, cpu, pid_of (s->who), FALSE, now);
      break;
    case S_SWITCH:
      V_UINT (0, pid_of (s->who));
      V_UINT (1, pid_of (s->other));
      V_UINT (2, s->state);
      n = 3;
      event = TTV_SIM_EVENT_SCHED_SWITCH;
      p->running = s->other;
      if (truth)
        ttv_sim_truth_switch (truth, cpu, pid_of (s->who), s->state, pid_of (s->other), now);
      break;
    case S_ENTRY:
      {
        memset (&p->args, 0, sizeof p->args);
        p->args.fd = s->value;
        const char *file = NULL;
        if (s->value >= 0)
          {
            g_snprintf (p->file, sizeof p->file, "/var/lib/%s/%" G_GINT64_FORMAT ".db", names[A], s->value);
            file = p->file;
          }
        if (s->number == 202)
          {
            p->args.futex = TRUE;
            p->args.uaddr = uaddr;
            p->args.op = 128 | s->state;   /* FUTEX_WAIT or FUTEX_WAKE, private */
          }
        V_UINT (0, s->number);
        V_UINT (1, G_GUINT64_CONSTANT (0x400000) + s->at_us);
        n = 2;
        event = TTV_SIM_EVENT_SYSCALL_ENTRY;
        if (truth)
          {
            ttv_sim_truth_syscall_entry (truth, cpu, pid_of (s->who), TTV_SIM_PROBE_PID, s->number, file, now);
            if (s->number == 202 && s->state == 0)
              ttv_sim_truth_futex_wait (truth, pid_of (s->who), uaddr, now);
          }
      }
      break;
    case S_EXIT:
      V_INT (0, s->value);
      n = 1;
      event = TTV_SIM_EVENT_SYSCALL_EXIT;
      if (truth)
        ttv_sim_truth_syscall_exit (truth, cpu, pid_of (s->who), s->value, now);
      break;
    case S_ISSUE:
      V_UINT (0, PROBE_DEV);
      V_UINT (1, sector);
      V_UINT (2, 8);
      V_UINT (3, 0);
      n = 4;
      event = TTV_SIM_EVENT_REQUEST_ISSUE;
      if (truth)
        ttv_sim_truth_io_issue (truth, cpu, PROBE_DEV, sector, 8, FALSE, now);
      break;
    case S_COMPLETE:
    default:
      V_UINT (0, PROBE_DEV);
      V_UINT (1, sector);
      V_UINT (2, 8);
      V_INT (3, 0);
      n = 4;
      event = TTV_SIM_EVENT_REQUEST_COMPLETE;
      if (truth)
        ttv_sim_truth_io_complete (truth, PROBE_DEV, sector, now);
      break;
    }
  if (++p->index == G_N_ELEMENTS (script))
    {
      p->index = 0;
      p->period++;
    }
  return emit (user_data, cpu, now, event, p->values, n, error);
}
