/* ttv-statistics.c: statistics over a traceset (see ttv-statistics.h).
 * Durations and CPU time come from the state's observer callbacks, so they
 * follow the same kernel model as everything else. */
#include "ttv-statistics.h"
#include "ttv-state-private.h"
#include "ttv-id-table.h"
#include "ttv-kernel-model.h"
#include "ttv-traceset.h"

#include <string.h>

#define MAX_CPU_ID 65535

typedef struct {
  TtvCpuStats pub;
  TtvTime accounted_until;      /* CPU time before this is counted (account_until) */
  TtvProcessStats *last;        /* weak: the process of the CPU's last event */
} CpuSlot;

typedef struct {
  TtvDurationStats pub;
  GQuark name;                  /* IRQs: the last name the state gave it */
} DurationSlot;

/* The CPUs and processes of one machine (docs/multi-machine.md). */
typedef struct {
  GPtrArray *cpus;              /* of CpuSlot * (owned, NULL where unseen), indexed by cpu + 1 */
  TtvIdTable processes;         /* pid -> TtvProcessStats */
  TtvTime end;                  /* the end of its traces: its CPUs' time stops there */
} MachineStats;

struct _TtvStatistics {
  GPtrArray *traces;            /* weak TtvTrace * */
  GPtrArray *type_counts;       /* per trace: GArray of guint64 by type id */
  GPtrArray *machines;          /* of MachineStats *, owned, by machine id (at least one) */
  GPtrArray *machine_names;     /* of char *, owned */
  TtvIdTable syscalls;          /* GQuark of the name -> DurationSlot */
  TtvIdTable irqs;              /* irq -> DurationSlot */
  TtvIdTable softirqs;          /* vec -> DurationSlot */
  const TtvState *state;        /* weak: the state observed (IRQ names) */
  TtvTime start;                /* set_start(), TTV_TIME_MIN when not set */
  TtvTime first_event, last_event;
  TtvTime accounted_until;      /* the last account_until(), TTV_TIME_MIN when none */
  guint64 n_events;
};

static void
machine_stats_free (MachineStats *m)
{
  g_ptr_array_unref (m->cpus);
  ttv_id_table_clear (&m->processes);
  g_free (m);
}

static MachineStats *
machine_stats (TtvStatistics *st, guint machine)
{
  while (st->machines->len <= machine)
    {
      MachineStats *m = g_new0 (MachineStats, 1);
      m->cpus = g_ptr_array_new_with_free_func (g_free);
      ttv_id_table_init (&m->processes);
      m->end = TTV_TIME_MAX;
      g_ptr_array_add (st->machines, m);
    }
  return g_ptr_array_index (st->machines, machine);
}

/* The machine of what the state tells now. */
static MachineStats *
current_machine (TtvStatistics *st, const TtvState *state)
{
  return machine_stats (st, state ? ttv_state_get_machine (state) : 0);
}

TtvStatistics *
ttv_statistics_new (GPtrArray *traces)
{
  TtvStatistics *st = g_new0 (TtvStatistics, 1);
  st->traces = g_ptr_array_ref (traces);
  st->type_counts = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  for (guint i = 0; i < traces->len; i++)
    {
      const TtvTrace *t = g_ptr_array_index (traces, i);
      GArray *counts = g_array_sized_new (FALSE, TRUE, sizeof (guint64), t->event_types->len);
      g_array_set_size (counts, t->event_types->len);
      g_ptr_array_add (st->type_counts, counts);
    }
  st->machines = g_ptr_array_new_with_free_func ((GDestroyNotify) machine_stats_free);
  st->machine_names = g_ptr_array_new_with_free_func (g_free);
  g_autofree guint *trace_machine = g_new0 (guint, MAX (traces->len, 1));
  guint n_machines = ttv_traces_number_machines (traces, trace_machine, st->machine_names);
  machine_stats (st, n_machines - 1);
  if (n_machines > 1)
    {
      /* A machine's CPU time ends with its traces, not with the others'. */
      for (guint k = 0; k < n_machines; k++)
        machine_stats (st, k)->end = TTV_TIME_MIN;
      for (guint i = 0; i < traces->len; i++)
        {
          MachineStats *m = machine_stats (st, trace_machine[i]);
          m->end = MAX (m->end, ((const TtvTrace *) g_ptr_array_index (traces, i))->end);
        }
    }
  ttv_id_table_init (&st->syscalls);
  ttv_id_table_init (&st->irqs);
  ttv_id_table_init (&st->softirqs);
  st->start = TTV_TIME_MIN;
  st->accounted_until = TTV_TIME_MIN;
  return st;
}

void
ttv_statistics_free (TtvStatistics *st)
{
  if (st == NULL)
    return;
  g_ptr_array_unref (st->traces);
  g_ptr_array_unref (st->type_counts);
  g_ptr_array_unref (st->machines);
  g_ptr_array_unref (st->machine_names);
  ttv_id_table_clear (&st->syscalls);
  ttv_id_table_clear (&st->irqs);
  ttv_id_table_clear (&st->softirqs);
  g_free (st);
}

static guint
machine_id (const TtvStatistics *st, const MachineStats *m)
{
  guint id = 0;
  g_ptr_array_find (st->machines, m, &id);
  return id;
}

static TtvProcessStats *
process_stats (TtvStatistics *st, MachineStats *m, guint32 pid)
{
  TtvProcessStats *p = ttv_id_table_lookup (&m->processes, pid);
  if (p == NULL)
    {
      p = g_new0 (TtvProcessStats, 1);
      p->pid = pid;
      p->machine = machine_id (st, m);
      ttv_id_table_insert (&m->processes, pid, p);
    }
  return p;
}

/* NULL for CPU ids out of range (damaged traces). */
static CpuSlot *
cpu_slot (TtvStatistics *st, MachineStats *m, gint cpu)
{
  if (cpu < -1 || cpu > MAX_CPU_ID)
    return NULL;
  guint index = (guint) (cpu + 1);
  if (index >= m->cpus->len)
    g_ptr_array_set_size (m->cpus, index + 1);
  CpuSlot *slot = g_ptr_array_index (m->cpus, index);
  if (slot == NULL)
    {
      slot = g_new0 (CpuSlot, 1);
      slot->pub.cpu = cpu;
      slot->pub.machine = machine_id (st, m);
      slot->accounted_until = st->accounted_until;
      g_ptr_array_index (m->cpus, index) = slot;
    }
  return slot;
}

static DurationSlot *
add_duration (TtvIdTable *table, guint32 key, TtvTime d)
{
  DurationSlot *ds = ttv_id_table_lookup (table, key);
  if (ds == NULL)
    {
      ds = g_new0 (DurationSlot, 1);
      ds->pub.min = TTV_TIME_MAX;
      ttv_id_table_insert (table, key, ds);
    }
  ds->pub.count++;
  ds->pub.total += d;
  ds->pub.min = MIN (ds->pub.min, d);
  ds->pub.max = MAX (ds->pub.max, d);
  return ds;
}

static void
add_cpu_time (TtvStatistics *st, MachineStats *m, gint cpu, guint32 pid, TtvExecMode mode,
              TtvTime start, TtvTime end)
{
  CpuSlot *slot = cpu_slot (st, m, cpu);
  if (slot == NULL)
    return;
  start = MAX (start, MAX (st->start, slot->accounted_until));
  if (end <= start)
    return;
  if (pid == 0 && (mode == TTV_MODE_USER || mode == TTV_MODE_UNKNOWN))
    {
      slot->pub.idle += end - start;
      return;
    }
  slot->pub.busy[mode] += end - start;
  process_stats (st, m, pid)->cpu_time[mode] += end - start;
}

static void
on_cpu_time (gpointer data, gint cpu, guint32 pid, TtvExecMode mode, guint32 id,
             TtvTime start, TtvTime end)
{
  TtvStatistics *st = data;
  add_cpu_time (st, current_machine (st, st->state), cpu, pid, mode, start, end);
}

static void
on_frame_end (gpointer data, gint cpu, guint32 pid, const TtvExecFrame *f, TtvTime end)
{
  TtvStatistics *st = data;
  TtvTime d = end - f->entry;
  if (end < st->start)
    return;
  switch (f->mode)
    {
    case TTV_MODE_SYSCALL:
      add_duration (&st->syscalls, f->id, d);
      break;
    case TTV_MODE_IRQ:
    case TTV_MODE_SOFTIRQ:
      {
        gboolean soft = f->mode == TTV_MODE_SOFTIRQ;
        DurationSlot *ds = add_duration (soft ? &st->softirqs : &st->irqs, f->id, d);
        const TtvIrqState *irq = st->state ? ttv_state_get_irq (st->state, f->id, soft) : NULL;
        if (irq && irq->name)
          ds->name = irq->name;
      }
      break;
    default:
      break;
    }
}

static const TtvStateObserver statistics_observer = {
  .cpu_time = on_cpu_time,
  .frame_end = on_frame_end,
};

void
ttv_statistics_observe (TtvStatistics *st, TtvState *state)
{
  st->state = state;
  ttv_state_set_observer (state, &statistics_observer, st);
}

void
ttv_statistics_set_start (TtvStatistics *st, TtvTime start)
{
  st->start = start;
}

/* What still runs on the CPUs of the selected machine of @state. */
static void
account_machine_until (TtvStatistics *st, const TtvState *state, TtvTime end)
{
  MachineStats *m = current_machine (st, state);
  end = MIN (end, m->end);
  g_autoptr (GPtrArray) cpus = ttv_state_list_cpus (state);
  for (guint i = 0; i < cpus->len; i++)
    {
      const TtvCpuState *c = g_ptr_array_index (cpus, i);
      const TtvProcessState *p = ttv_state_get_running (state, c->cpu);
      if (p)
        add_cpu_time (st, m, c->cpu, p->pid, ttv_process_state_get_mode (p), c->since, end);
    }
}

void
ttv_statistics_account_until (TtvStatistics *st, const TtvState *state, TtvTime end)
{
  if (ttv_state_get_n_machines (state) == 1)
    account_machine_until (st, state, end);
  else
    {
      /* Machines are read by selecting them: on a copy. */
      g_autoptr (TtvState) copy = ttv_state_copy (state);
      for (guint k = 0; k < ttv_state_get_n_machines (copy); k++)
        {
          ttv_state_select_machine (copy, k);
          account_machine_until (st, copy, end);
        }
    }
  for (guint k = 0; k < st->machines->len; k++)
    {
      const MachineStats *m = g_ptr_array_index (st->machines, k);
      for (guint i = 0; i < m->cpus->len; i++)
        {
          CpuSlot *slot = g_ptr_array_index (m->cpus, i);
          if (slot)
            slot->accounted_until = MAX (slot->accounted_until, end);
        }
    }
  st->accounted_until = MAX (st->accounted_until, end);
}

gboolean
ttv_statistics_get_time_range (const TtvStatistics *st, TtvTime *start, TtvTime *end)
{
  if (st->n_events == 0 && st->accounted_until == TTV_TIME_MIN)
    return FALSE;
  *start = st->start != TTV_TIME_MIN || st->n_events == 0 ? st->start : st->first_event;
  *end = st->accounted_until != TTV_TIME_MIN ? st->accounted_until : st->last_event;
  return *start != TTV_TIME_MIN && *end >= *start;
}

void
ttv_statistics_count_event (TtvStatistics *st, guint trace_index, const TtvEvent *ev,
                            const TtvState *state)
{
  if (st->n_events++ == 0)
    st->first_event = st->last_event = ev->time;
  st->first_event = MIN (st->first_event, ev->time);
  st->last_event = MAX (st->last_event, ev->time);
  if (trace_index < st->type_counts->len)
    {
      GArray *counts = g_ptr_array_index (st->type_counts, trace_index);
      if (ev->type->id < counts->len)
        g_array_index (counts, guint64, ev->type->id)++;
    }
  gint cpu = ev->tracefile->cpu;
  MachineStats *m = current_machine (st, state);
  CpuSlot *slot = cpu_slot (st, m, cpu);
  if (slot == NULL)
    return;
  slot->pub.events++;
  const TtvProcessState *p = state ? ttv_state_get_event_process (state, cpu) : NULL;
  if (p)
    {
      /* Consecutive events of a CPU mostly come from the same process. */
      TtvProcessStats *ps = slot->last;
      if (ps == NULL || ps->pid != p->pid)
        slot->last = ps = process_stats (st, m, p->pid);
      ps->events++;
      if (p->name)
        ps->name = p->name;
    }
}

guint64
ttv_statistics_get_n_events (const TtvStatistics *st)
{
  return st->n_events;
}

guint64
ttv_statistics_get_type_count (const TtvStatistics *st, guint trace_index, guint type_id)
{
  if (trace_index >= st->type_counts->len)
    return 0;
  GArray *counts = g_ptr_array_index (st->type_counts, trace_index);
  return type_id < counts->len ? g_array_index (counts, guint64, type_id) : 0;
}

guint64
ttv_statistics_get_cpu_count (const TtvStatistics *st, gint cpu)
{
  guint64 n = 0;
  for (guint k = 0; k < st->machines->len; k++)
    n += ttv_statistics_get_machine_cpu_count (st, k, cpu);
  return n;
}

guint64
ttv_statistics_get_machine_cpu_count (const TtvStatistics *st, guint machine, gint cpu)
{
  if (machine >= st->machines->len)
    return 0;
  const MachineStats *m = g_ptr_array_index (st->machines, machine);
  guint index = (guint) (cpu + 1);
  const CpuSlot *slot = cpu >= -1 && index < m->cpus->len ? g_ptr_array_index (m->cpus, index) : NULL;
  return slot ? slot->pub.events : 0;
}

guint
ttv_statistics_get_n_machines (const TtvStatistics *st)
{
  return st->machines->len;
}

const char *
ttv_statistics_get_machine_name (const TtvStatistics *st, guint machine)
{
  return machine < st->machine_names->len ? g_ptr_array_index (st->machine_names, machine) : NULL;
}

GPtrArray *
ttv_statistics_list_cpus (const TtvStatistics *st)
{
  GPtrArray *out = g_ptr_array_new ();
  for (guint k = 0; k < st->machines->len; k++)
    {
      const MachineStats *m = g_ptr_array_index (st->machines, k);
      for (guint i = 0; i < m->cpus->len; i++)
        {
          CpuSlot *slot = g_ptr_array_index (m->cpus, i);
          if (slot)
            g_ptr_array_add (out, &slot->pub);
        }
    }
  return out;
}

GPtrArray *
ttv_statistics_list_processes (const TtvStatistics *st)
{
  GPtrArray *out = g_ptr_array_new ();
  for (guint k = 0; k < st->machines->len; k++)
    {
      const MachineStats *m = g_ptr_array_index (st->machines, k);
      g_autoptr (GPtrArray) procs = ttv_id_table_list (&m->processes);
      g_ptr_array_extend (out, procs, NULL, NULL);
    }
  return out;
}

const TtvProcessStats *
ttv_statistics_get_process (const TtvStatistics *st, guint32 pid)
{
  return ttv_statistics_get_machine_process (st, 0, pid);
}

const TtvProcessStats *
ttv_statistics_get_machine_process (const TtvStatistics *st, guint machine, guint32 pid)
{
  if (machine >= st->machines->len)
    return NULL;
  const MachineStats *m = g_ptr_array_index (st->machines, machine);
  return ttv_id_table_lookup (&m->processes, pid);
}

const TtvDurationStats *
ttv_statistics_get_syscall (const TtvStatistics *st, const char *name)
{
  GQuark q = g_quark_try_string (name);
  return q ? ttv_id_table_lookup (&st->syscalls, q) : NULL;
}

const TtvDurationStats *
ttv_statistics_get_irq (const TtvStatistics *st, guint32 irq, gboolean soft)
{
  return ttv_id_table_lookup (soft ? &st->softirqs : &st->irqs, irq);
}

static gint
compare_entries_by_name (gconstpointer a, gconstpointer b)
{
  return strcmp (((const TtvDurationEntry *) a)->name, ((const TtvDurationEntry *) b)->name);
}

GArray *
ttv_statistics_list_durations (const TtvStatistics *st, TtvDurationKind kind)
{
  const TtvIdTable *table = kind == TTV_DURATION_SYSCALL ? &st->syscalls
                            : kind == TTV_DURATION_IRQ ? &st->irqs : &st->softirqs;
  g_autoptr (GArray) ids = ttv_id_table_list_ids (table);
  GArray *out = g_array_sized_new (FALSE, FALSE, sizeof (TtvDurationEntry), ids->len);
  for (guint i = 0; i < ids->len; i++)
    {
      guint32 id = g_array_index (ids, guint32, i);
      const DurationSlot *ds = ttv_id_table_lookup (table, id);
      TtvDurationEntry e = { id, NULL, &ds->pub };
      if (kind == TTV_DURATION_SYSCALL)
        e.name = g_quark_to_string (id);
      else if (ds->name)
        e.name = g_quark_to_string (ds->name);
      else if (kind == TTV_DURATION_SOFTIRQ)
        e.name = ttv_kernel_model_get_softirq_name (id);
      g_array_append_val (out, e);
    }
  /* IRQs come in number order from the table. */
  if (kind == TTV_DURATION_SYSCALL)
    g_array_sort (out, compare_entries_by_name);
  return out;
}

static TtvTime
sum_modes (const TtvTime *times)
{
  TtvTime sum = 0;
  for (guint m = 0; m < TTV_MODE_N; m++)
    sum += times[m];
  return sum;
}

TtvTime
ttv_process_stats_get_cpu_time (const TtvProcessStats *p)
{
  return sum_modes (p->cpu_time);
}

TtvTime
ttv_cpu_stats_get_busy (const TtvCpuStats *c)
{
  return sum_modes (c->busy);
}

/* --- Text ------------------------------------------------------------------ */

/* The modes in the order of the tables' columns (unknown last). */
static const TtvExecMode text_modes[] = {
  TTV_MODE_USER, TTV_MODE_SYSCALL, TTV_MODE_TRAP, TTV_MODE_IRQ, TTV_MODE_SOFTIRQ, TTV_MODE_UNKNOWN,
};

static void
append_seconds (GString *out, TtvTime ns)
{
  char buf[32];
  g_string_append_printf (out, " %14s", ttv_time_to_string (ns, buf, sizeof buf));
}

static void
append_mode_headings (GString *out)
{
  for (guint i = 0; i < G_N_ELEMENTS (text_modes); i++)
    {
      g_autofree char *h = g_strdup_printf ("%s s", ttv_exec_mode_name (text_modes[i]));
      g_string_append_printf (out, " %14s", h);
    }
  g_string_append_c (out, '\n');
}

static void
append_modes (GString *out, const TtvTime *times)
{
  for (guint i = 0; i < G_N_ELEMENTS (text_modes); i++)
    append_seconds (out, times[text_modes[i]]);
  g_string_append_c (out, '\n');
}

static void
append_duration_table (GString *out, const TtvStatistics *st, TtvDurationKind kind)
{
  static const char *const titles[] = { "syscall", "irq", "softirq" };
  g_autoptr (GArray) rows = ttv_statistics_list_durations (st, kind);
  if (rows->len == 0)
    return;
  if (kind == TTV_DURATION_SYSCALL)
    g_string_append_printf (out, "\n%-24s", titles[kind]);
  else
    g_string_append_printf (out, "\n%-8s %-15s", titles[kind], "name");
  g_string_append_printf (out, " %10s %14s %14s %14s\n", "count", "total s", "min s", "max s");
  for (guint i = 0; i < rows->len; i++)
    {
      const TtvDurationEntry *e = &g_array_index (rows, TtvDurationEntry, i);
      if (kind == TTV_DURATION_SYSCALL)
        g_string_append_printf (out, "%-24s", e->name);
      else
        g_string_append_printf (out, "%-8u %-15s", e->id, e->name ? e->name : "-");
      g_string_append_printf (out, " %10" G_GUINT64_FORMAT, e->stats->count);
      append_seconds (out, e->stats->total);
      append_seconds (out, e->stats->min);
      append_seconds (out, e->stats->max);
      g_string_append_c (out, '\n');
    }
}

void
ttv_statistics_append_text (const TtvStatistics *st, GString *out)
{
  g_string_append_printf (out, "events %" G_GUINT64_FORMAT "\n", st->n_events);

  g_string_append_printf (out, "\n%-40s %12s\n", "event type", "count");
  for (guint i = 0; i < st->traces->len; i++)
    {
      const TtvTrace *t = g_ptr_array_index (st->traces, i);
      for (guint j = 0; j < t->event_types->len; j++)
        {
          guint64 n = ttv_statistics_get_type_count (st, i, j);
          if (n == 0)
            continue;
          const TtvEventType *et = g_ptr_array_index (t->event_types, j);
          if (st->traces->len > 1)
            g_string_append_printf (out, "%s:", t->name);
          g_string_append_printf (out, "%-40s %12" G_GUINT64_FORMAT "\n", et->full_name, n);
        }
    }

  g_string_append_printf (out, "\n%-8s %12s %14s %14s", "cpu", "events", "busy s", "idle s");
  append_mode_headings (out);
  g_autoptr (GPtrArray) cpus = ttv_statistics_list_cpus (st);
  for (guint i = 0; i < cpus->len; i++)
    {
      const TtvCpuStats *c = g_ptr_array_index (cpus, i);
      if (st->machines->len > 1)
        {
          g_autofree char *id = g_strdup_printf ("%s/%d", ttv_statistics_get_machine_name (st, c->machine), c->cpu);
          g_string_append_printf (out, "%-8s %12" G_GUINT64_FORMAT, id, c->events);
        }
      else
        g_string_append_printf (out, "%-8d %12" G_GUINT64_FORMAT, c->cpu, c->events);
      append_seconds (out, ttv_cpu_stats_get_busy (c));
      append_seconds (out, c->idle);
      append_modes (out, c->busy);
    }

  g_string_append_printf (out, "\n%-8s %-16s %10s %14s", "pid", "name", "events", "cpu s");
  append_mode_headings (out);
  g_autoptr (GPtrArray) procs = ttv_statistics_list_processes (st);
  for (guint i = 0; i < procs->len; i++)
    {
      const TtvProcessStats *p = g_ptr_array_index (procs, i);
      g_autofree char *id = st->machines->len > 1
                              ? g_strdup_printf ("%s/%u", ttv_statistics_get_machine_name (st, p->machine), p->pid)
                              : g_strdup_printf ("%u", p->pid);
      g_string_append_printf (out, "%-8s %-16s %10" G_GUINT64_FORMAT, id,
                              p->name ? g_quark_to_string (p->name) : "-", p->events);
      append_seconds (out, ttv_process_stats_get_cpu_time (p));
      append_modes (out, p->cpu_time);
    }
  append_duration_table (out, st, TTV_DURATION_SYSCALL);
  append_duration_table (out, st, TTV_DURATION_IRQ);
  append_duration_table (out, st, TTV_DURATION_SOFTIRQ);
}
