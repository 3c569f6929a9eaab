/* test-ttv-gen-sim.c: the simulated kernel behind ttv-gen is deterministic and
 * consistent (pairing, one task per CPU, process lifecycle), checked event by event. */
#include "sim/ttv-sim.h"
#include "ttv-error.h"

#include <gio/gio.h>

#include <string.h>

enum { S_NEW, S_RUNNABLE, S_RUNNING, S_BLOCKED, S_EXITING, S_ZOMBIE };

typedef struct {
  guint state;
  gboolean in_syscall;
  gint cpu;
} Proc;

typedef struct {
  guint32 running;
  guint irq;            /* nesting depth */
  gint softirq;         /* -1: none */
  gboolean trap;
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
          p->in_syscall = v[12].u != 0;
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
      g_assert_cmpuint (v[1].u >> (k->pointer_bits - 1) >> 1, ==, 0);
      cur->in_syscall = TRUE;
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
      g_assert_cmpuint (v[1].u, ==, (cur == NULL || cur->in_syscall || c->trap) ? 1 : 0);
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
    case TTV_SIM_EVENT_SCHED_SWITCH:
      {
        g_assert_false (in_interrupt || c->trap);
        g_assert_cmpuint (v[0].u, ==, c->running);
        guint32 next = (guint32) v[1].u;
        guint prev_state = (guint) v[2].u;
        if (cur)
          {
            if (prev_state == TTV_SIM_TASK_RUNNING)
              {
                g_assert_false (cur->in_syscall);
                cur->state = S_RUNNABLE;
              }
            else if (prev_state == TTV_SIM_TASK_ZOMBIE)
              {
                g_assert_cmpuint (cur->state, ==, S_EXITING);
                cur->state = S_ZOMBIE;
              }
            else
              {
                g_assert_true (prev_state == TTV_SIM_TASK_WAIT_INTERRUPTIBLE
                               || prev_state == TTV_SIM_TASK_WAIT_UNINTERRUPTIBLE);
                g_assert_true (cur->in_syscall);
                cur->state = S_BLOCKED;
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
      g_assert_nonnull (cur);
      g_assert_true (cur->in_syscall);
      g_assert_cmpuint (v[0].u, ==, c->running);
      proc_add (k, (guint32) v[1].u, S_NEW);
      break;
    case TTV_SIM_EVENT_PROCESS_EXEC:
      g_assert_nonnull (cur);
      g_assert_true (cur->in_syscall);
      g_assert_cmpuint (v[0].u, ==, c->running);
      g_assert_cmpint (v[1].kind, ==, TTV_TYPE_STRING);
      g_assert_true (g_str_has_suffix (v[1].str, ttv_sim_get_process_name (k->sim, c->running)));
      break;
    case TTV_SIM_EVENT_PROCESS_EXIT:
      g_assert_nonnull (cur);
      g_assert_cmpuint (v[0].u, ==, c->running);
      g_assert_true (cur->in_syscall);
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
  g_assert_true (ttv_sim_run (k->sim, check, k, &error));
  g_assert_no_error (error);
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
  g_test_add_func ("/cli/gen/sim/determinism", test_determinism);
  g_test_add_func ("/cli/gen/sim/errors", test_errors);
  return g_test_run ();
}
