/* test-ttv-gen-sim.c: the simulated kernel behind ttv-gen is deterministic,
 * consistent (pairing, one task per CPU, process lifecycle) and looks like a
 * Linux box (kernel threads and pid 1 never exec, fork or exit; commands are
 * forked then exec, threads take their leader's name; CPUs idle and tasks
 * block a fair share of the time), checked event by event. */
#include "ttv-sim.h"
#include "ttv-error.h"

#include <gio/gio.h>

#include <string.h>

enum { S_NEW, S_RUNNABLE, S_RUNNING, S_BLOCKED, S_EXITING, S_ZOMBIE };

typedef struct {
  guint state;
  gboolean in_syscall;
  gint cpu;
  gboolean kthread;     /* kthreadd or one of its children */
  gboolean forked;      /* forked during the trace */
  guint n_syscalls;     /* since its fork */
  guint n_execs;
  guint32 tgid;
} Proc;

typedef struct {
  guint32 running;
  guint irq;            /* nesting depth */
  gint softirq;         /* -1: none */
  gboolean trap;
  gboolean seen;        /* had an event */
  TtvTime since;        /* when the running task got the CPU */
  TtvTime idle;         /* time the idle task ran */
  TtvTime busy;
} Cpu;

typedef struct {
  TtvSim *sim;
  GHashTable *procs;    /* pid -> Proc* */
  GHashTable *cpus;     /* cpu id -> Cpu* */
  TtvTime last;
  gboolean cpu_seen;
  guint64 counts[TTV_SIM_N_EVENTS];
  guint pointer_bits;
  TtvTime end;
  TtvTime first;
  guint n_forked_processes, n_exec_first;   /* processes forked; of them, exec'ed at once */
  guint n_forked_threads;
  guint n_blocked_switches;
} Checker;

static Proc *
proc_get (Checker *k, guint32 pid)
{
  return g_hash_table_lookup (k->procs, GUINT_TO_POINTER (pid));
}

static Proc *
proc_add (Checker *k, guint32 pid, guint state)
{
  g_assert_null (proc_get (k, pid));
  Proc *p = g_new0 (Proc, 1);
  p->state = state;
  p->cpu = -1;
  g_hash_table_insert (k->procs, GUINT_TO_POINTER (pid), p);
  return p;
}

static Cpu *
cpu_get (Checker *k, gint id)
{
  Cpu *c = g_hash_table_lookup (k->cpus, GINT_TO_POINTER (id));
  if (!c)
    {
      c = g_new0 (Cpu, 1);
      c->softirq = -1;
      g_hash_table_insert (k->cpus, GINT_TO_POINTER (id), c);
    }
  return c;
}

static gboolean
check (gpointer user_data, gint stream, TtvTime time, guint event, const TtvScalar *v,
       guint n_values, GError **error)
{
  Checker *k = user_data;
  g_assert_cmpint (time, >=, k->last);
  g_assert_cmpint (time, <, k->end);
  k->last = time;
  k->counts[event]++;

  if (stream < 0)
    {
      g_assert_false (k->cpu_seen);
      if (event == TTV_SIM_EVENT_PROCESS)
        {
          g_assert_cmpint (stream, ==, TTV_SIM_STREAM_PROCESSES);
          g_assert_cmpuint (n_values, ==, 13);
          g_assert_cmpint (v[0].kind, ==, TTV_TYPE_STRING);
          Proc *p = proc_add (k, (guint32) v[1].u, v[12].u == 0 ? S_RUNNABLE : S_BLOCKED);
          p->kthread = v[2].u == 2 || g_str_equal (v[0].str, "kthreadd");
          p->tgid = (guint32) v[1].u;
          /* Blocked tasks wait in a call begun before the trace; kernel
           * threads just sleep. */
          p->in_syscall = v[12].u != 0 && !p->kthread;
        }
      else
        {
          g_assert_cmpint (stream, ==, TTV_SIM_STREAM_INTERRUPTS);
          g_assert_cmpuint (event, ==, TTV_SIM_EVENT_INTERRUPT);
          g_assert_cmpuint (n_values, ==, 4);
        }
      return TRUE;
    }

  k->cpu_seen = TRUE;
  Cpu *c = cpu_get (k, stream);
  if (!c->seen)
    {
      /* The trace starts in the middle of things: the CPU may run a task,
       * not named until it leaves the CPU. */
      c->seen = TRUE;
      c->since = k->first;
      c->running = event == TTV_SIM_EVENT_SCHED_SWITCH ? (guint32) v[0].u
                   : (guint32) ttv_sim_get_running_pid (k->sim, (guint) stream);
      if (c->running)
        {
          Proc *r = proc_get (k, c->running);
          g_assert_nonnull (r);
          g_assert_cmpuint (r->state, ==, S_RUNNABLE);
          r->state = S_RUNNING;
          r->cpu = stream;
        }
    }
  Proc *cur = c->running ? proc_get (k, c->running) : NULL;
  gboolean in_interrupt = c->irq > 0 || c->softirq >= 0;
  if (c->running)
    {
      g_assert_nonnull (cur);
      g_assert_cmpint (cur->cpu, ==, stream);
    }

  switch (event)
    {
    case TTV_SIM_EVENT_SYSCALL_ENTRY:
      g_assert_false (in_interrupt || c->trap);
      g_assert_nonnull (cur);
      g_assert_false (cur->in_syscall);
      g_assert_false (cur->kthread);
      g_assert_cmpuint (v[1].u >> (k->pointer_bits - 1) >> 1, ==, 0);
      cur->in_syscall = TRUE;
      if (cur->forked && cur->n_syscalls++ == 0 && v[0].u == 59 && cur->tgid == c->running)
        k->n_exec_first++;
      break;
    case TTV_SIM_EVENT_SYSCALL_EXIT:
      g_assert_false (in_interrupt || c->trap);
      g_assert_nonnull (cur);
      g_assert_true (cur->in_syscall);
      cur->in_syscall = FALSE;
      break;
    case TTV_SIM_EVENT_TRAP_ENTRY:
      g_assert_false (in_interrupt || c->trap);
      g_assert_nonnull (cur);
      g_assert_false (cur->kthread);   /* no user mode to fault in */
      c->trap = TRUE;
      break;
    case TTV_SIM_EVENT_TRAP_EXIT:
      g_assert_false (in_interrupt);
      g_assert_true (c->trap);
      c->trap = FALSE;
      break;
    case TTV_SIM_EVENT_IRQ_ENTRY:
      g_assert_cmpuint (c->irq, ==, 0);
      g_assert_cmpint (c->softirq, <, 0);
      g_assert_cmpuint (v[1].u, ==, (cur == NULL || cur->in_syscall || c->trap || cur->kthread) ? 1 : 0);
      c->irq++;
      break;
    case TTV_SIM_EVENT_IRQ_EXIT:
      g_assert_cmpuint (c->irq, ==, 1);
      c->irq--;
      break;
    case TTV_SIM_EVENT_SOFT_IRQ_ENTRY:
      g_assert_cmpuint (c->irq, ==, 0);
      g_assert_cmpint (c->softirq, <, 0);
      c->softirq = (gint) v[0].u;
      break;
    case TTV_SIM_EVENT_SOFT_IRQ_EXIT:
      g_assert_cmpint (c->softirq, ==, (gint) v[0].u);
      c->softirq = -1;
      break;
    case TTV_SIM_EVENT_SOFT_IRQ_RAISE:
      /* In the hard IRQ that raises it, or RCU in the TIMER soft IRQ. */
      g_assert_true ((c->irq == 1 && c->softirq < 0)
                     || (c->softirq == TTV_SIM_SOFTIRQ_TIMER && v[0].u == TTV_SIM_SOFTIRQ_RCU));
      break;
    case TTV_SIM_EVENT_SCHED_SWITCH:
      {
        g_assert_false (in_interrupt || c->trap);
        g_assert_cmpuint (v[0].u, ==, c->running);
        guint32 next = (guint32) v[1].u;
        guint prev_state = (guint) v[2].u;
        if (c->running)
          c->busy += time - c->since;
        else
          c->idle += time - c->since;
        c->since = time;
        if (cur)
          {
            if (prev_state == TTV_SIM_TASK_RUNNING)
              {
                g_assert_false (cur->in_syscall);
                cur->state = S_RUNNABLE;
              }
            else if (prev_state == TTV_SIM_TASK_ZOMBIE || prev_state == TTV_SIM_TASK_DEAD)
              {
                /* A process stays a zombie for its parent; a thread is
                 * released at once (EXIT_DEAD). */
                g_assert_cmpuint (cur->state, ==, S_EXITING);
                g_assert_cmpuint (prev_state, ==, cur->tgid == c->running ? TTV_SIM_TASK_ZOMBIE : TTV_SIM_TASK_DEAD);
                cur->state = S_ZOMBIE;
              }
            else
              {
                g_assert_true (prev_state == TTV_SIM_TASK_WAIT_INTERRUPTIBLE
                               || prev_state == TTV_SIM_TASK_WAIT_UNINTERRUPTIBLE);
                /* Blocked in a call, or a kernel thread going to sleep. */
                g_assert_true (cur->in_syscall != cur->kthread);
                cur->state = S_BLOCKED;
                k->n_blocked_switches++;
              }
            cur->cpu = -1;
          }
        else
          g_assert_cmpuint (prev_state, ==, TTV_SIM_TASK_RUNNING);
        if (next)
          {
            Proc *np = proc_get (k, next);
            g_assert_nonnull (np);
            g_assert_cmpuint (np->state, ==, S_RUNNABLE);
            np->state = S_RUNNING;
            np->cpu = stream;
          }
        c->running = next;
      }
      break;
    case TTV_SIM_EVENT_SCHED_WAKEUP:
      {
        Proc *p = proc_get (k, (guint32) v[0].u);
        g_assert_nonnull (p);
        g_assert_true (p->state == S_BLOCKED || p->state == S_NEW);
        g_assert_cmpint (ttv_sim_get_running_pid (k->sim, (guint) v[1].u), >=, 0);
        p->state = S_RUNNABLE;
      }
      break;
    case TTV_SIM_EVENT_PROCESS_FORK:
      {
        g_assert_nonnull (cur);
        g_assert_true (cur->in_syscall);
        g_assert_cmpuint (v[0].u, ==, c->running);
        g_assert_false (cur->kthread);
        Proc *child = proc_add (k, (guint32) v[1].u, S_NEW);
        child->forked = TRUE;
        child->tgid = (guint32) v[2].u;
        /* A thread is named like its process (the sim's leader here); a
         * process like its parent until it execs. */
        const char *name = ttv_sim_get_process_name (k->sim, (guint) v[1].u);
        g_assert_nonnull (name);
        if (child->tgid == (guint32) v[1].u)
          {
            g_assert_cmpstr (name, ==, ttv_sim_get_process_name (k->sim, c->running));
            k->n_forked_processes++;
          }
        else
          {
            g_assert_cmpuint (child->tgid, ==, cur->tgid);
            g_assert_cmpstr (name, ==, ttv_sim_get_process_name (k->sim, cur->tgid));
            k->n_forked_threads++;
          }
      }
      break;
    case TTV_SIM_EVENT_PROCESS_EXEC:
      g_assert_nonnull (cur);
      g_assert_true (cur->in_syscall);
      g_assert_cmpuint (v[0].u, ==, c->running);
      g_assert_cmpint (v[1].kind, ==, TTV_TYPE_STRING);
      {
        /* The new name: the file's base name, cut as TASK_COMM_LEN cuts it. */
        const char *base = strrchr (v[1].str, '/') ? strrchr (v[1].str, '/') + 1 : v[1].str;
        g_autofree char *comm = g_strndup (base, 15);
        g_assert_cmpstr (ttv_sim_get_process_name (k->sim, c->running), ==, comm);
      }
      /* Only a process forked in the trace execs, once, as its first call:
       * never pid 1, a kernel thread, a daemon or a thread. */
      g_assert_true (cur->forked);
      g_assert_cmpuint (cur->tgid, ==, c->running);
      g_assert_cmpuint (cur->n_syscalls, ==, 1);
      g_assert_cmpuint (cur->n_execs++, ==, 0);
      break;
    case TTV_SIM_EVENT_PROCESS_EXIT:
      g_assert_nonnull (cur);
      g_assert_cmpuint (v[0].u, ==, c->running);
      g_assert_true (cur->in_syscall);
      /* pid 1 and kernel threads live for ever. */
      g_assert_cmpuint (c->running, !=, 1);
      g_assert_false (cur->kthread);
      cur->state = S_EXITING;
      break;
    case TTV_SIM_EVENT_PROCESS_FREE:
      {
        Proc *p = proc_get (k, (guint32) v[0].u);
        g_assert_nonnull (p);
        g_assert_cmpuint (p->state, ==, S_ZOMBIE);
        g_hash_table_remove (k->procs, GUINT_TO_POINTER ((guint32) v[0].u));
      }
      break;
    case TTV_SIM_EVENT_REQUEST_ISSUE:
      g_assert_nonnull (cur);
      g_assert_true (cur->in_syscall);
      break;
    case TTV_SIM_EVENT_REQUEST_COMPLETE:
      g_assert_cmpint (c->softirq, ==, TTV_SIM_SOFTIRQ_BLOCK);
      break;
    case TTV_SIM_EVENT_NETIF_RECEIVE:
      g_assert_cmpint (c->softirq, ==, TTV_SIM_SOFTIRQ_NET_RX);
      g_assert_cmpuint (v[0].u >> (k->pointer_bits - 1) >> 1, ==, 0);
      break;
    case TTV_SIM_EVENT_DEV_XMIT:
      g_assert_nonnull (cur);
      g_assert_true (cur->in_syscall);
      g_assert_cmpint (v[2].kind, ==, TTV_TYPE_STRING);
      break;
    default:
      g_assert_not_reached ();
    }

  /* The simulator's own state after the event agrees with ours. */
  g_assert_cmpint (ttv_sim_get_running_pid (k->sim, (guint) stream), ==, (gint) c->running);
  return TRUE;
}

static void
run_checked (TtvSimOptions *o, Checker *k)
{
  g_autoptr (GError) error = NULL;
  memset (k, 0, sizeof *k);
  k->sim = ttv_sim_new (o, &error);
  g_assert_no_error (error);
  k->procs = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  k->cpus = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  k->pointer_bits = o->pointer_bits ? o->pointer_bits : 64;
  k->end = o->duration ? o->start_time + o->duration : G_MAXINT64;
  k->first = ttv_sim_get_time (k->sim);
  g_assert_true (ttv_sim_run (k->sim, check, k, &error));
  g_assert_no_error (error);
  GHashTableIter it;
  gpointer key, value;
  g_hash_table_iter_init (&it, k->cpus);
  while (g_hash_table_iter_next (&it, &key, &value))
    {
      Cpu *c = value;
      *(c->running ? &c->busy : &c->idle) += k->last - c->since;
    }
}

/* Every CPU idles a fair share of the time, and no CPU is idle all along:
 * neither a machine where all wait for a CPU nor one doing nothing. */
static void
assert_realistic_load (Checker *k, double min_idle, double max_idle)
{
  GHashTableIter it;
  gpointer key, value;
  g_hash_table_iter_init (&it, k->cpus);
  while (g_hash_table_iter_next (&it, &key, &value))
    {
      Cpu *c = value;
      double idle = (double) c->idle / (double) (c->idle + c->busy);
      g_test_message ("cpu %d: %.0f%% idle", GPOINTER_TO_INT (key), 100 * idle);
      g_assert_cmpfloat (idle, >=, min_idle);
      g_assert_cmpfloat (idle, <=, max_idle);
    }
  /* Most forked processes run a program at once: fork, then exec. */
  g_test_message ("%u processes and %u threads forked, %u exec'ed first thing, %u blocking switches",
                  k->n_forked_processes, k->n_forked_threads, k->n_exec_first, k->n_blocked_switches);
  g_assert_cmpuint (k->n_exec_first * 10, >=, k->n_forked_processes * 7);
  g_assert_cmpuint (k->n_blocked_switches, >, 0);
}

static void
checker_clear (Checker *k)
{
  ttv_sim_free (k->sim);
  g_hash_table_unref (k->procs);
  g_hash_table_unref (k->cpus);
}

static void
test_consistency (void)
{
  static const guint ids[] = { 0, 1, 2, 4, 6, 7 };
  TtvSimOptions o;
  ttv_sim_options_init (&o);
  o.seed = 7;
  o.cpu_ids = ids;
  o.n_cpus = G_N_ELEMENTS (ids);
  o.n_processes = 40;
  o.softirq_raise = TRUE;
  o.max_events = 600000;
  Checker k;
  run_checked (&o, &k);
  g_assert_cmpuint (ttv_sim_get_n_events (k.sim), ==, 600000);
  /* every kind of event happens */
  for (guint i = 0; i < TTV_SIM_N_EVENTS; i++)
    {
      if (g_test_verbose ())
        g_printerr ("event %u: %" G_GUINT64_FORMAT "\n", i, k.counts[i]);
      g_assert_cmpuint (k.counts[i], >, 0);
    }
  g_assert_cmpuint (k.counts[TTV_SIM_EVENT_PROCESS], ==, 40);
  /* the population stays near its target */
  g_assert_cmpuint (ttv_sim_get_n_processes (k.sim), >, 20);
  g_assert_cmpuint (ttv_sim_get_n_processes (k.sim), <, 80);
  /* all six CPUs worked */
  g_assert_cmpuint (g_hash_table_size (k.cpus), ==, 6);
  g_assert_cmpint (ttv_sim_get_running_pid (k.sim, 3), ==, -1);
  assert_realistic_load (&k, 0.05, 0.98);
  g_assert_cmpuint (k.n_forked_threads, >, 0);
  checker_clear (&k);
}

/* A crowded machine (bench size: a thousand tasks) still idles and blocks
 * realistically: its daemons sleep, its CPUs are not all taken. */
static void
test_crowded_machine (void)
{
  TtvSimOptions o;
  ttv_sim_options_init (&o);
  o.seed = 11;
  o.n_cpus = 4;
  o.n_processes = 1000;
  o.max_events = 400000;
  Checker k;
  run_checked (&o, &k);
  assert_realistic_load (&k, 0.05, 0.98);
  /* Most of the machine sleeps at any time. */
  guint blocked = 0, total = 0;
  GHashTableIter it;
  gpointer key, value;
  g_hash_table_iter_init (&it, k.procs);
  while (g_hash_table_iter_next (&it, &key, &value))
    {
      total++;
      blocked += ((Proc *) value)->state == S_BLOCKED;
    }
  g_assert_cmpuint (blocked * 10, >=, total * 8);
  checker_clear (&k);
}

static void
test_small_machine (void)
{
  /* one CPU, two processes, 32-bit addresses, a duration instead of a count */
  TtvSimOptions o;
  ttv_sim_options_init (&o);
  o.seed = 3;
  o.n_cpus = 1;
  o.n_processes = 2;
  o.max_events = 0;
  o.duration = TTV_NSEC_PER_SEC / 5;
  o.pointer_bits = 32;
  o.long_bits = 32;
  Checker k;
  run_checked (&o, &k);
  g_assert_cmpuint (ttv_sim_get_n_events (k.sim), >, 1000);
  g_assert_cmpint (k.last, >, o.start_time + o.duration * 9 / 10);
  checker_clear (&k);
}

typedef struct {
  GChecksum *sum;
  guint64 same_time;    /* events with the time of the previous one, on another CPU */
  TtvTime last;
  gint last_stream;
} Hasher;

static gboolean
hash_event (gpointer user_data, gint stream, TtvTime time, guint event, const TtvScalar *v,
            guint n_values, GError **error)
{
  Hasher *h = user_data;
  if (time == h->last && stream != h->last_stream && stream >= 0)
    h->same_time++;
  h->last = time;
  h->last_stream = stream;
  g_checksum_update (h->sum, (const guchar *) &stream, sizeof stream);
  g_checksum_update (h->sum, (const guchar *) &time, sizeof time);
  g_checksum_update (h->sum, (const guchar *) &event, sizeof event);
  for (guint i = 0; i < n_values; i++)
    if (v[i].kind == TTV_TYPE_STRING)
      g_checksum_update (h->sum, (const guchar *) v[i].str, (gssize) strlen (v[i].str) + 1);
    else
      g_checksum_update (h->sum, (const guchar *) &v[i].u, sizeof v[i].u);
  return TRUE;
}

static char *
run_hash (guint64 seed, guint64 *same_time)
{
  TtvSimOptions o;
  ttv_sim_options_init (&o);
  o.seed = seed;
  o.max_events = 200000;
  g_autoptr (TtvSim) sim = ttv_sim_new (&o, NULL);
  Hasher h = { g_checksum_new (G_CHECKSUM_SHA256), 0, 0, 0 };
  g_assert_true (ttv_sim_run (sim, hash_event, &h, NULL));
  char *s = g_strdup (g_checksum_get_string (h.sum));
  g_checksum_free (h.sum);
  if (same_time)
    *same_time = h.same_time;
  return s;
}

static void
test_determinism (void)
{
  guint64 same_time = 0;
  g_autofree char *a = run_hash (1, &same_time);
  g_autofree char *b = run_hash (1, NULL);
  g_autofree char *c = run_hash (2, NULL);
  g_assert_cmpstr (a, ==, b);
  g_assert_cmpstr (a, !=, c);
  /* ticks land on the same instant on every CPU */
  g_assert_cmpuint (same_time, >, 100);
}

static gboolean
fail_later (gpointer user_data, gint stream, TtvTime time, guint event, const TtvScalar *v,
            guint n_values, GError **error)
{
  guint *left = user_data;
  if ((*left)-- == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE, "disk full");
      return FALSE;
    }
  return TRUE;
}

static void
test_errors (void)
{
  g_autoptr (GError) error = NULL;
  TtvSimOptions o;
  ttv_sim_options_init (&o);

  static const guint bad_ids[] = { 0, 2, 2 };
  o.cpu_ids = bad_ids;
  o.n_cpus = 3;
  g_assert_null (ttv_sim_new (&o, &error));
  g_assert_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT);
  g_clear_error (&error);

  ttv_sim_options_init (&o);
  o.pointer_bits = 16;
  g_assert_null (ttv_sim_new (&o, &error));
  g_assert_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT);
  g_clear_error (&error);

  static const TtvSimIrqLine no_timer[] = { { 19, "eth0", "MSI", TTV_SIM_IRQ_NET } };
  ttv_sim_options_init (&o);
  o.irq_lines = no_timer;
  o.n_irq_lines = 1;
  g_assert_null (ttv_sim_new (&o, &error));
  g_assert_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT);
  g_clear_error (&error);

  /* a failing callback stops the run with its error */
  ttv_sim_options_init (&o);
  g_autoptr (TtvSim) sim = ttv_sim_new (&o, &error);
  g_assert_no_error (error);
  guint left = 1000;
  g_assert_false (ttv_sim_run (sim, fail_later, &left, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE);
  g_assert_cmpuint (ttv_sim_get_n_events (sim), ==, 1001);
  g_assert_false (ttv_sim_step (sim, fail_later, &left, NULL));
}

static void
test_schema (void)
{
  g_autoptr (TtvSimSchema) s = ttv_sim_schema_new (TTV_BYTE_ORDER_BIG);
  g_assert_cmpstr (s->facilities[TTV_SIM_FACILITY_CORE].name, ==, "core");
  g_assert_cmpstr (s->events[TTV_SIM_EVENT_SCHED_SWITCH].name, ==, "sched_switch");
  g_autofree char *sig = ttv_type_dup_signature (s->events[TTV_SIM_EVENT_SCHED_SWITCH].fields);
  g_assert_nonnull (strstr (sig, "prev_pid"));
  const TtvType *entry = s->events[TTV_SIM_EVENT_SYSCALL_ENTRY].fields;
  const TtvField *id = g_ptr_array_index (entry->fields, 0);
  g_assert_cmpstr (ttv_type_enum_label (id->type, 202), ==, "futex");
  g_assert_cmpstr (ttv_type_enum_label (id->type, 59), ==, "execve");
  g_assert_cmpuint (id->type->mappings->len, ==, 258);
  g_assert_cmpstr (ttv_type_enum_label (id->type, 257), ==, "openat");
  const TtvField *addr = g_ptr_array_index (entry->fields, 1);
  g_assert_cmpint (addr->type->native_size, ==, TTV_NATIVE_POINTER);
  g_assert_cmpint (addr->type->byte_order, ==, TTV_BYTE_ORDER_BIG);
  const TtvField *soft = g_ptr_array_index (s->events[TTV_SIM_EVENT_SOFT_IRQ_EXIT].fields->fields, 0);
  g_assert_cmpstr (ttv_type_enum_label (soft->type, TTV_SIM_SOFTIRQ_RCU), ==, "RCU");
  g_assert_cmpuint (s->events[TTV_SIM_EVENT_PROCESS].n_values, ==, 13);
  g_assert_cmpuint (s->events[TTV_SIM_EVENT_TRAP_EXIT].n_values, ==, 0);
  g_assert_cmpint (s->events[TTV_SIM_EVENT_DEV_XMIT].facility, ==, TTV_SIM_FACILITY_NET);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cli/gen/sim/schema", test_schema);
  g_test_add_func ("/cli/gen/sim/consistency", test_consistency);
  g_test_add_func ("/cli/gen/sim/small-machine", test_small_machine);
  g_test_add_func ("/cli/gen/sim/crowded-machine", test_crowded_machine);
  g_test_add_func ("/cli/gen/sim/determinism", test_determinism);
  g_test_add_func ("/cli/gen/sim/errors", test_errors);
  return g_test_run ();
}
