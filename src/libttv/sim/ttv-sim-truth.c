/* ttv-sim-truth.c: what the simulated kernel did, recorded from its own
 * state as ttv-sim.c and the probe step it (see TtvSimTruth in ttv-sim.h):
 * the tests' oracle for the analyses.  Only what a trace can show is
 * recorded: a CPU's running task from its first context switch on. */
#include "ttv-sim-private.h"

#include <string.h>

#define MAX_CPU 4096

typedef struct {
  gboolean in_call;          /* a call entered on a known CPU, not yet returned */
  TtvTime call_start;
  gint call_cpu;
  guint call_number;
  guint32 tgid;
  char file[64];
  gboolean blocked;          /* switched out blocked on a known CPU */
  TtvSimTruthBlocked episode;
  gboolean woken;            /* a wakeup waits for the switch that runs it */
  TtvSimTruthWakeup wakeup;
  gboolean in_futex;
  TtvSimTruthFutex futex;
  TtvTime off_since;         /* in a futex call, off the CPU since (0: on it) */
} Task;

typedef struct {
  gboolean known;            /* a switch was seen: its running task is known */
  guint32 running;
  TtvTime since;             /* the running task's (or the idle task's interrupt's) slice start */
  guint interrupts;          /* IRQ and soft IRQ frames open */
  TtvSimTruthIrq open[8];
  TtvTime raised[32];        /* soft IRQ raises not served yet, by vector */
} Cpu;

typedef struct {
  GHashTable *tasks;         /* tid -> Task * */
  Cpu *cpus;                 /* MAX_CPU */
  GArray *io_pending;        /* of TtvSimTruthIo: issued, not completed */
} Open;

static Open *
open_of (TtvSimTruth *t)
{
  return t->priv;
}

TtvSimTruth *
ttv_sim_truth_new (void)
{
  TtvSimTruth *t = g_new0 (TtvSimTruth, 1);
  t->calls = g_array_new (FALSE, TRUE, sizeof (TtvSimTruthCall));
  t->wakeups = g_array_new (FALSE, TRUE, sizeof (TtvSimTruthWakeup));
  t->blocked = g_array_new (FALSE, TRUE, sizeof (TtvSimTruthBlocked));
  t->slices = g_array_new (FALSE, TRUE, sizeof (TtvSimTruthSlice));
  t->io = g_array_new (FALSE, TRUE, sizeof (TtvSimTruthIo));
  t->irqs = g_array_new (FALSE, TRUE, sizeof (TtvSimTruthIrq));
  t->futex = g_array_new (FALSE, TRUE, sizeof (TtvSimTruthFutex));
  Open *o = g_new0 (Open, 1);
  o->tasks = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  o->cpus = g_new0 (Cpu, MAX_CPU);
  o->io_pending = g_array_new (FALSE, TRUE, sizeof (TtvSimTruthIo));
  t->priv = o;
  return t;
}

void
ttv_sim_truth_free (TtvSimTruth *t)
{
  if (t == NULL)
    return;
  Open *o = open_of (t);
  g_hash_table_unref (o->tasks);
  g_free (o->cpus);
  g_array_unref (o->io_pending);
  g_free (o);
  g_array_unref (t->calls);
  g_array_unref (t->wakeups);
  g_array_unref (t->blocked);
  g_array_unref (t->slices);
  g_array_unref (t->io);
  g_array_unref (t->irqs);
  g_array_unref (t->futex);
  g_free (t);
}

static Task *
task (TtvSimTruth *t, guint32 tid)
{
  Open *o = open_of (t);
  Task *k = g_hash_table_lookup (o->tasks, GUINT_TO_POINTER (tid));
  if (k == NULL)
    {
      k = g_new0 (Task, 1);
      g_hash_table_insert (o->tasks, GUINT_TO_POINTER (tid), k);
    }
  return k;
}

static Cpu *
cpu_of (TtvSimTruth *t, gint cpu)
{
  return cpu >= 0 && cpu < MAX_CPU ? &open_of (t)->cpus[cpu] : NULL;
}

/* Who acts on @cpu: its innermost interrupt, else its running task (when known). */
static void
actor (TtvSimTruth *t, gint cpu, TtvSimWaker *kind, guint32 *id)
{
  Cpu *c = cpu_of (t, cpu);
  *kind = TTV_SIM_WAKER_NONE;
  *id = 0;
  if (c == NULL)
    return;
  if (c->interrupts > 0)
    {
      const TtvSimTruthIrq *f = &c->open[MIN (c->interrupts, G_N_ELEMENTS (c->open)) - 1];
      *kind = f->soft ? TTV_SIM_WAKER_SOFTIRQ : TTV_SIM_WAKER_IRQ;
      *id = f->id;
    }
  else if (c->known)
    {
      *kind = TTV_SIM_WAKER_THREAD;
      *id = c->running;
    }
}

void
ttv_sim_truth_syscall_entry (TtvSimTruth *t, gint cpu, guint32 tid, guint32 tgid, guint number, const char *file,
                             TtvTime now)
{
  Cpu *c = cpu_of (t, cpu);
  Task *k = task (t, tid);
  k->in_call = c && c->known;
  k->call_start = now;
  k->call_cpu = cpu;
  k->call_number = number;
  k->tgid = tgid;
  g_strlcpy (k->file, file ? file : "", sizeof k->file);
}

void
ttv_sim_truth_syscall_exit (TtvSimTruth *t, gint cpu, guint32 tid, gint64 ret, TtvTime now)
{
  Cpu *c = cpu_of (t, cpu);
  Task *k = task (t, tid);
  if (k->in_call && c && c->known)
    {
      TtvSimTruthCall call = { k->call_start, now, tid, k->tgid, k->call_cpu, k->call_number, ret, "" };
      g_strlcpy (call.file, k->file, sizeof call.file);
      g_array_append_val (t->calls, call);
    }
  if (k->in_futex)
    {
      k->futex.end = now;
      if (k->in_call && c && c->known)
        g_array_append_val (t->futex, k->futex);
      k->in_futex = FALSE;
    }
  k->in_call = FALSE;
}

void
ttv_sim_truth_futex_wait (TtvSimTruth *t, guint32 tid, guint64 uaddr, TtvTime now)
{
  Task *k = task (t, tid);
  k->in_futex = TRUE;
  memset (&k->futex, 0, sizeof k->futex);
  k->futex.start = now;
  k->futex.tid = tid;
  k->futex.uaddr = uaddr;
  k->futex.waker = G_MAXUINT32;
  k->off_since = 0;
}

void
ttv_sim_truth_wakeup (TtvSimTruth *t, gint cpu, guint32 tid, gboolean is_new, TtvTime now)
{
  Task *k = task (t, tid);
  TtvSimWaker kind;
  guint32 id;
  actor (t, cpu, &kind, &id);
  k->woken = TRUE;
  TtvSimTruthWakeup w = { now, 0, tid, -1, kind, id, is_new };
  k->wakeup = w;
  if (k->blocked)
    {
      k->episode.woken = now;
      k->episode.waker_kind = kind;
      k->episode.waker = id;
    }
  if (k->in_futex && kind == TTV_SIM_WAKER_THREAD)
    k->futex.waker = id;
}

static void
end_slice (TtvSimTruth *t, Cpu *c, gint cpu, guint32 tid, TtvTime now)
{
  if (now > c->since)
    {
      TtvSimTruthSlice s = { c->since, now, cpu, tid };
      g_array_append_val (t->slices, s);
    }
}

void
ttv_sim_truth_switch (TtvSimTruth *t, gint cpu, guint32 prev, guint prev_state, guint32 next, TtvTime now)
{
  Cpu *c = cpu_of (t, cpu);
  if (c == NULL)
    return;
  if (c->known && c->running != 0)
    end_slice (t, c, cpu, c->running, now);
  if (prev != 0)
    {
      Task *k = task (t, prev);
      gboolean blocked = prev_state == TTV_SIM_TASK_WAIT_INTERRUPTIBLE
                         || prev_state == TTV_SIM_TASK_WAIT_UNINTERRUPTIBLE;
      k->blocked = blocked;
      k->woken = FALSE;
      if (blocked)
        {
          TtvSimTruthBlocked e = { now, now, now, prev, cpu, k->in_call ? (gint) k->call_number : -1,
                                   prev_state == TTV_SIM_TASK_WAIT_UNINTERRUPTIBLE ? 2u : 1u,
                                   TTV_SIM_WAKER_NONE, 0, FALSE };
          k->episode = e;
        }
      if (k->in_futex && blocked)
        k->off_since = now;
    }
  if (next != 0)
    {
      Task *k = task (t, next);
      if (k->woken)
        {
          k->wakeup.running = now;
          k->wakeup.cpu = cpu;
          g_array_append_val (t->wakeups, k->wakeup);
        }
      if (k->blocked)
        {
          k->episode.running = now;
          if (!k->woken)
            k->episode.woken = now;
          g_array_append_val (t->blocked, k->episode);
        }
      if (k->in_futex && k->off_since)
        {
          k->futex.blocked += now - k->off_since;
          k->off_since = 0;
        }
      k->woken = k->blocked = FALSE;
    }
  c->known = TRUE;
  c->running = next;
  c->since = now;
}

void
ttv_sim_truth_interrupt (TtvSimTruth *t, gint cpu, gboolean soft, guint32 id, gboolean entry, TtvTime now)
{
  Cpu *c = cpu_of (t, cpu);
  if (c == NULL)
    return;
  if (entry)
    {
      /* The idle task's interrupts are busy time (of "swapper"). */
      if (c->interrupts == 0 && c->known && c->running == 0)
        c->since = now;
      TtvSimTruthIrq f = { now, 0, 0, cpu, id, soft };
      if (soft && id < G_N_ELEMENTS (c->raised) && c->raised[id])
        {
          f.raise = c->raised[id];
          c->raised[id] = 0;
        }
      if (c->interrupts < G_N_ELEMENTS (c->open))
        c->open[c->interrupts] = f;
      c->interrupts++;
      return;
    }
  if (c->interrupts == 0)
    return;
  c->interrupts--;
  if (c->interrupts < G_N_ELEMENTS (c->open))
    {
      TtvSimTruthIrq f = c->open[c->interrupts];
      f.exit = now;
      g_array_append_val (t->irqs, f);
    }
  if (c->interrupts == 0 && c->known && c->running == 0)
    end_slice (t, c, cpu, 0, now);
}

void
ttv_sim_truth_raise (TtvSimTruth *t, gint cpu, guint32 vec, TtvTime now)
{
  Cpu *c = cpu_of (t, cpu);
  if (c && vec < G_N_ELEMENTS (c->raised) && c->raised[vec] == 0)
    c->raised[vec] = now;
}

void
ttv_sim_truth_io_issue (TtvSimTruth *t, gint cpu, guint32 dev, guint64 sector, guint32 nr, gboolean write,
                        TtvTime now)
{
  Cpu *c = cpu_of (t, cpu);
  TtvSimTruthIo io = { now, 0, dev, sector, nr, c && c->known ? c->running : G_MAXUINT32, write, "" };
  if (c && c->known)
    {
      /* Issued in a call whose fd names a file. */
      Task *k = task (t, c->running);
      if (k->in_call)
        g_strlcpy (io.file, k->file, sizeof io.file);
    }
  g_array_append_val (open_of (t)->io_pending, io);
}

void
ttv_sim_truth_io_complete (TtvSimTruth *t, guint32 dev, guint64 sector, TtvTime now)
{
  GArray *p = open_of (t)->io_pending;
  for (guint i = 0; i < p->len; i++)
    {
      TtvSimTruthIo *io = &g_array_index (p, TtvSimTruthIo, i);
      if (io->dev == dev && io->sector == sector)
        {
          io->complete = now;
          g_array_append_val (t->io, *io);
          g_array_remove_index (p, i);
          return;
        }
    }
}

static gint
compare_tid (gconstpointer a, gconstpointer b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;
  return x < y ? -1 : x > y;
}

void
ttv_sim_truth_finish (TtvSimTruth *t, TtvTime end)
{
  Open *o = open_of (t);
  for (gint cpu = 0; cpu < MAX_CPU; cpu++)
    {
      Cpu *c = &o->cpus[cpu];
      if (c->known && (c->running != 0 || c->interrupts > 0))
        end_slice (t, c, cpu, c->running, end);
    }
  /* Still blocked at the end: unfinished episodes, by thread. */
  g_autoptr (GArray) tids = g_array_new (FALSE, FALSE, sizeof (guint32));
  GHashTableIter it;
  gpointer key, value;
  g_hash_table_iter_init (&it, o->tasks);
  while (g_hash_table_iter_next (&it, &key, &value))
    if (((Task *) value)->blocked)
      {
        guint32 tid = GPOINTER_TO_UINT (key);
        g_array_append_val (tids, tid);
      }
  g_array_sort (tids, compare_tid);
  for (guint i = 0; i < tids->len; i++)
    {
      Task *k = g_hash_table_lookup (o->tasks, GUINT_TO_POINTER (g_array_index (tids, guint32, i)));
      k->episode.running = MAX (end, k->episode.blocked);
      if (!k->woken)
        k->episode.woken = k->episode.running;
      k->episode.unfinished = TRUE;
      g_array_append_val (t->blocked, k->episode);
      k->blocked = FALSE;
    }
}

void
ttv_sim_truth_forget (TtvSimTruth *t, guint32 tid)
{
  g_hash_table_remove (open_of (t)->tasks, GUINT_TO_POINTER (tid));
}
