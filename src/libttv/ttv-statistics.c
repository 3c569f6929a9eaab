/* ttv-statistics.c: statistics over a traceset (see ttv-statistics.h).
 * Durations come from the state's observer callbacks, so they follow
 * the same kernel model as everything else. */
#include "ttv-statistics.h"
#include "ttv-state-private.h"
#include "ttv-id-table.h"

#include <string.h>

struct _TtvStatistics {
  GPtrArray *traces;            /* weak TtvTrace * */
  GPtrArray *type_counts;       /* per trace: GArray of guint64 by type id */
  GArray *cpu_counts;           /* of guint64, indexed by cpu + 1 (-1: no CPU) */
  GArray *cpu_process;          /* of TtvProcessStats * (weak), by cpu + 1: last one counted */
  TtvIdTable processes;         /* pid -> TtvProcessStats */
  TtvIdTable syscalls;          /* GQuark of the name -> TtvDurationStats */
  TtvIdTable irqs;              /* irq -> TtvDurationStats */
  TtvIdTable softirqs;          /* vec -> TtvDurationStats */
  guint64 n_events;
};

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
  st->cpu_counts = g_array_new (FALSE, TRUE, sizeof (guint64));
  st->cpu_process = g_array_new (FALSE, TRUE, sizeof (TtvProcessStats *));
  ttv_id_table_init (&st->processes);
  ttv_id_table_init (&st->syscalls);
  ttv_id_table_init (&st->irqs);
  ttv_id_table_init (&st->softirqs);
  return st;
}

void
ttv_statistics_free (TtvStatistics *st)
{
  if (st == NULL)
    return;
  g_ptr_array_unref (st->traces);
  g_ptr_array_unref (st->type_counts);
  g_array_unref (st->cpu_counts);
  g_array_unref (st->cpu_process);
  ttv_id_table_clear (&st->processes);
  ttv_id_table_clear (&st->syscalls);
  ttv_id_table_clear (&st->irqs);
  ttv_id_table_clear (&st->softirqs);
  g_free (st);
}

static TtvProcessStats *
process_stats (TtvStatistics *st, guint32 pid)
{
  TtvProcessStats *p = ttv_id_table_lookup (&st->processes, pid);
  if (p == NULL)
    {
      p = g_new0 (TtvProcessStats, 1);
      p->pid = pid;
      ttv_id_table_insert (&st->processes, pid, p);
    }
  return p;
}

static void
add_duration (TtvIdTable *table, guint32 key, TtvTime d)
{
  TtvDurationStats *ds = ttv_id_table_lookup (table, key);
  if (ds == NULL)
    {
      ds = g_new0 (TtvDurationStats, 1);
      ds->min = TTV_TIME_MAX;
      ttv_id_table_insert (table, key, ds);
    }
  ds->count++;
  ds->total += d;
  ds->min = MIN (ds->min, d);
  ds->max = MAX (ds->max, d);
}

static void
on_cpu_time (gpointer data, gint cpu, guint32 pid, TtvExecMode mode, guint32 id,
             TtvTime start, TtvTime end)
{
  process_stats (data, pid)->cpu_time[mode] += end - start;
}

static void
on_frame_end (gpointer data, gint cpu, guint32 pid, const TtvExecFrame *f, TtvTime end)
{
  TtvStatistics *st = data;
  TtvTime d = end - f->entry;
  switch (f->mode)
    {
    case TTV_MODE_SYSCALL:
      add_duration (&st->syscalls, f->id, d);
      break;
    case TTV_MODE_IRQ:
      add_duration (&st->irqs, f->id, d);
      break;
    case TTV_MODE_SOFTIRQ:
      add_duration (&st->softirqs, f->id, d);
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
  ttv_state_set_observer (state, &statistics_observer, st);
}

void
ttv_statistics_count_event (TtvStatistics *st, guint trace_index, const TtvEvent *ev,
                            const TtvState *state)
{
  st->n_events++;
  if (trace_index < st->type_counts->len)
    {
      GArray *counts = g_ptr_array_index (st->type_counts, trace_index);
      if (ev->type->id < counts->len)
        g_array_index (counts, guint64, ev->type->id)++;
    }
  gint cpu = ev->tracefile->cpu;
  guint slot = (guint) (cpu + 1);
  if (cpu < -1 || cpu > 65535)
    return;
  if (slot >= st->cpu_counts->len)
    {
      g_array_set_size (st->cpu_counts, slot + 1);
      g_array_set_size (st->cpu_process, slot + 1);
    }
  g_array_index (st->cpu_counts, guint64, slot)++;
  const TtvProcessState *p = state ? ttv_state_get_running (state, cpu) : NULL;
  if (p)
    {
      /* Consecutive events of a CPU mostly come from the same process. */
      TtvProcessStats *ps = g_array_index (st->cpu_process, TtvProcessStats *, slot);
      if (ps == NULL || ps->pid != p->pid)
        g_array_index (st->cpu_process, TtvProcessStats *, slot) = ps = process_stats (st, p->pid);
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
  guint slot = (guint) (cpu + 1);
  return cpu >= -1 && slot < st->cpu_counts->len ? g_array_index (st->cpu_counts, guint64, slot) : 0;
}

GPtrArray *
ttv_statistics_list_processes (const TtvStatistics *st)
{
  return ttv_id_table_list (&st->processes);
}

const TtvProcessStats *
ttv_statistics_get_process (const TtvStatistics *st, guint32 pid)
{
  return ttv_id_table_lookup (&st->processes, pid);
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

static void
append_ns_as_seconds (GString *out, TtvTime ns)
{
  char buf[32];
  g_string_append_printf (out, "%14s", ttv_time_to_string (ns, buf, sizeof buf));
}

typedef struct {
  guint32 key;
  const char *name;                  /* for syscalls; NULL for numbered IRQs */
  const TtvDurationStats *stats;
} DurationRow;

static gint
compare_rows (gconstpointer a, gconstpointer b)
{
  const DurationRow *x = a, *y = b;
  if (x->name && y->name)
    return strcmp (x->name, y->name);
  return x->key < y->key ? -1 : x->key > y->key;
}

static void
append_duration_table (GString *out, const char *title, const TtvIdTable *table, gboolean quark_keys)
{
  if (ttv_id_table_size (table) == 0)
    return;
  g_string_append_printf (out, "\n%-24s %10s %14s %14s %14s\n", title, "count", "total s", "min s", "max s");
  g_autoptr (GArray) rows = g_array_new (FALSE, FALSE, sizeof (DurationRow));
  g_autoptr (GArray) ids = ttv_id_table_list_ids (table);
  for (guint i = 0; i < ids->len; i++)
    {
      guint32 id = g_array_index (ids, guint32, i);
      DurationRow row = { id, quark_keys ? g_quark_to_string (id) : NULL, ttv_id_table_lookup (table, id) };
      g_array_append_val (rows, row);
    }
  g_array_sort (rows, compare_rows);
  for (guint i = 0; i < rows->len; i++)
    {
      const DurationRow *row = &g_array_index (rows, DurationRow, i);
      char label[32];
      if (!row->name)
        g_snprintf (label, sizeof label, "%u", row->key);
      g_string_append_printf (out, "%-24s %10" G_GUINT64_FORMAT " ", row->name ? row->name : label,
                              row->stats->count);
      append_ns_as_seconds (out, row->stats->total);
      g_string_append_c (out, ' ');
      append_ns_as_seconds (out, row->stats->min);
      g_string_append_c (out, ' ');
      append_ns_as_seconds (out, row->stats->max);
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

  g_string_append_printf (out, "\n%-8s %12s\n", "cpu", "events");
  for (guint slot = 0; slot < st->cpu_counts->len; slot++)
    {
      guint64 n = g_array_index (st->cpu_counts, guint64, slot);
      if (n)
        g_string_append_printf (out, "%-8d %12" G_GUINT64_FORMAT "\n", (gint) slot - 1, n);
    }

  g_string_append_printf (out, "\n%-8s %-16s %10s %14s %14s %14s %14s %14s\n", "pid", "name", "events",
                          "user s", "syscall s", "trap s", "irq s", "softirq s");
  g_autoptr (GPtrArray) procs = ttv_statistics_list_processes (st);
  for (guint i = 0; i < procs->len; i++)
    {
      const TtvProcessStats *p = g_ptr_array_index (procs, i);
      g_string_append_printf (out, "%-8u %-16s %10" G_GUINT64_FORMAT " ", p->pid,
                              p->name ? g_quark_to_string (p->name) : "-", p->events);
      for (TtvExecMode m = TTV_MODE_USER; m < TTV_MODE_N; m++)
        {
          append_ns_as_seconds (out, p->cpu_time[m] + (m == TTV_MODE_USER ? p->cpu_time[TTV_MODE_UNKNOWN] : 0));
          g_string_append_c (out, m + 1 < TTV_MODE_N ? ' ' : '\n');
        }
    }
  append_duration_table (out, "syscall", &st->syscalls, TRUE);
  append_duration_table (out, "irq", &st->irqs, FALSE);
  append_duration_table (out, "softirq", &st->softirqs, FALSE);
}
