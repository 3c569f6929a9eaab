/* ttv-cpu-usage.c: the "cpu" analysis: which task kept each CPU busy and
 * when, as run slices (from the state's CPU time, the same busy time the
 * statistics count), and its queries: busy time per CPU over a window or
 * its bins, CPU time of every thread.  See ttv-kernel-analyses.h. */
#include "ttv-kernel-context.h"

#include <glib/gi18n-lib.h>

#include <string.h>

G_STATIC_ASSERT (sizeof (TtvCpuSlice) == 48);

#define MAX_CPU 4096

static const TtvAnalysisColumn slice_columns[] = {
  { "start", N_("Start"), TTV_COLUMN_TIME, G_STRUCT_OFFSET (TtvCpuSlice, start), NULL },
  { "end", N_("End"), TTV_COLUMN_TIME, G_STRUCT_OFFSET (TtvCpuSlice, end), NULL },
  { "duration", N_("Duration"), TTV_COLUMN_DURATION, -1, NULL },
  { "cpu", N_("CPU"), TTV_COLUMN_CPU, G_STRUCT_OFFSET (TtvCpuSlice, cpu), NULL },
  { "tid", N_("TID"), TTV_COLUMN_TID, G_STRUCT_OFFSET (TtvCpuSlice, tid), NULL },
  { "tgid", N_("PID"), TTV_COLUMN_TID, G_STRUCT_OFFSET (TtvCpuSlice, tgid), NULL },
  { "name", N_("Name"), TTV_COLUMN_STRING, G_STRUCT_OFFSET (TtvCpuSlice, name), NULL },
};

static const TtvAnalysisTableSpec slices_spec = {
  "slices", sizeof (TtvCpuSlice), slice_columns, G_N_ELEMENTS (slice_columns),
  { G_STRUCT_OFFSET (TtvCpuSlice, cpu_key), G_STRUCT_OFFSET (TtvCpuSlice, key) }, -1, FALSE, FALSE,
};

static const TtvAnalysisTableSpec *const tables[] = { &slices_spec };

typedef struct {
  gboolean open;
  TtvCpuSlice slice;
} Pending;

/* What the CPU time of threads is shown with, without a read: each
 * thread's last name and process, and whether it had another name before
 * (then the name of a window is read from its slices). */
typedef struct {
  guint32 name;
  guint32 tgid;
  gboolean renamed;
} ThreadName;

typedef struct {
  TtvAnalysisBuilder *b;
  TtvTableBuilder *slices;
  GPtrArray *machines;      /* per machine: Pending[MAX_CPU], owned, or NULL before it ran */
  GArray *last;             /* per machine: TtvTime of its last event, 0: none yet */
  GHashTable *names;        /* thread key -> ThreadName */
} CpuUsage;

/* The pending slices of machine @m's CPUs (made the first time). */
static Pending *
cpus_of (CpuUsage *u, guint m)
{
  m = MIN (m, TTV_ANALYSIS_MAX_MACHINES - 1);
  if (m >= u->machines->len)
    g_ptr_array_set_size (u->machines, m + 1);
  if (u->machines->pdata[m] == NULL)
    u->machines->pdata[m] = g_new0 (Pending, MAX_CPU);
  return u->machines->pdata[m];
}

static gpointer
cpu_attach (TtvAnalysisPass *pass, const TtvAnalysisOptions *options, GError **error)
{
  TtvAnalysisBuilder *b = ttv_analysis_pass_get_builder (pass);
  CpuUsage *u = g_new0 (CpuUsage, 1);
  u->b = b;
  u->slices = ttv_analysis_builder_get_table (b, 0);
  u->machines = g_ptr_array_new_with_free_func (g_free);
  u->last = g_array_new (FALSE, TRUE, sizeof (TtvTime));
  u->names = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  return u;
}

static void
cpu_free (gpointer data)
{
  CpuUsage *u = data;
  g_ptr_array_unref (u->machines);
  g_array_unref (u->last);
  g_hash_table_unref (u->names);
  g_free (u);
}

static void
flush (CpuUsage *u, Pending *p)
{
  if (p->open && p->slice.end > p->slice.start)
    {
      ttv_table_builder_push (u->slices, &p->slice);
      ThreadName *n = g_hash_table_lookup (u->names, GUINT_TO_POINTER (p->slice.key));
      if (n == NULL)
        {
          n = g_new0 (ThreadName, 1);
          n->name = p->slice.name;
          g_hash_table_insert (u->names, GUINT_TO_POINTER (p->slice.key), n);
        }
      n->renamed |= n->name != p->slice.name;
      n->name = p->slice.name;
      n->tgid = p->slice.tgid;
    }
  p->open = FALSE;
}

static void
on_cpu_time (gpointer data, gint cpu, guint32 pid, TtvExecMode mode, guint32 id, TtvTime start, TtvTime end)
{
  CpuUsage *u = data;
  if (cpu < 0 || cpu >= MAX_CPU || end <= start)
    return;
  /* The state calls with the event's machine selected. */
  const TtvState *state = ttv_analysis_builder_get_state (u->b);
  guint machine = MIN (ttv_state_get_machine (state), TTV_ANALYSIS_MAX_MACHINES - 1);
  Pending *p = &cpus_of (u, machine)[cpu];
  gboolean busy = !(pid == 0 && (mode == TTV_MODE_USER || mode == TTV_MODE_UNKNOWN));
  if (p->open && (!busy || p->slice.tid != pid || p->slice.end != start))
    flush (u, p);
  if (!busy)
    return;
  if (p->open)
    {
      p->slice.end = end;
      return;
    }
  p->open = TRUE;
  memset (&p->slice, 0, sizeof p->slice);
  p->slice.start = start;
  p->slice.end = end;
  p->slice.tid = pid;
  p->slice.cpu = cpu;
  p->slice.machine = machine;
  p->slice.cpu_key = ttv_cpu_key (machine, cpu);
  p->slice.name = ttv_kernel_thread_name (u->b, state, pid, &p->slice.tgid);
  p->slice.key = pid == 0 ? TTV_CPU_USAGE_IDLE_KEY (machine, cpu) : ttv_thread_key (machine, pid);
}

/* A slice ends when its CPU runs another task, or idles: at that very
 * event, so that a thread's slices come in the order they end. */
static void
cpu_after_event (gpointer data, const TtvAnalysisEvent *ev)
{
  CpuUsage *u = data;
  guint machine = MIN (ttv_state_get_machine (ev->state), TTV_ANALYSIS_MAX_MACHINES - 1);
  if (machine >= u->last->len)
    g_array_set_size (u->last, machine + 1);
  g_array_index (u->last, TtvTime, machine) = ev->event->time;
  gint cpu = ev->event->tracefile->cpu;
  if (cpu < 0 || cpu >= MAX_CPU)
    return;
  Pending *p = &cpus_of (u, machine)[cpu];
  if (!p->open)
    return;
  const TtvProcessState *run = ttv_state_get_running (ev->state, cpu);
  if (run == NULL || run->pid != p->slice.tid
      || (run->pid == 0 && ttv_state_get_cpu_mode (ev->state, cpu) != TTV_MODE_IRQ
          && ttv_state_get_cpu_mode (ev->state, cpu) != TTV_MODE_SOFTIRQ))
    flush (u, p);
}

static void
cpu_finish (gpointer data, TtvTime end)
{
  CpuUsage *u = data;
  /* What still runs counts up to the last event of its machine, as in the
   * statistics (a machine whose traces end early is not traced after). */
  TtvState *state = (TtvState *) ttv_analysis_builder_get_state (u->b);
  guint selected = ttv_state_get_machine (state);
  for (guint m = 0; m < ttv_state_get_n_machines (state) && m < TTV_ANALYSIS_MAX_MACHINES; m++)
    {
      TtvTime last = m < u->last->len ? g_array_index (u->last, TtvTime, m) : 0;
      if (ttv_state_get_n_machines (state) == 1 || last == 0)
        last = end;
      ttv_state_select_machine (state, m);
      g_autoptr (GPtrArray) cpus = ttv_state_list_cpus (state);
      for (guint i = 0; i < cpus->len; i++)
        {
          const TtvCpuState *c = g_ptr_array_index (cpus, i);
          const TtvProcessState *p = ttv_state_get_running (state, c->cpu);
          if (p)
            on_cpu_time (u, c->cpu, p->pid, ttv_process_state_get_mode (p), 0, c->since, last);
        }
    }
  ttv_state_select_machine (state, selected);
  for (guint m = 0; m < u->machines->len; m++)
    {
      Pending *cpus = u->machines->pdata[m];
      for (gint cpu = 0; cpus && cpu < MAX_CPU; cpu++)
        flush (u, &cpus[cpu]);
    }
  GHashTableIter it;
  gpointer key, value;
  g_hash_table_iter_init (&it, u->names);
  while (g_hash_table_iter_next (&it, &key, &value))
    {
      const ThreadName *n = value;
      char name[48];
      g_snprintf (name, sizeof name, "thread/%u", GPOINTER_TO_UINT (key));
      /* The name's string, the tgid, the renaming: one value. */
      ttv_analysis_builder_set_value (u->b, name, (gint64) ((guint64) n->tgid << 32 | n->name));
      if (n->renamed)
        {
          g_snprintf (name, sizeof name, "renamed/%u", GPOINTER_TO_UINT (key));
          ttv_analysis_builder_set_value (u->b, name, 1);
        }
    }
}

static const TtvStateObserver cpu_observer = { .cpu_time = on_cpu_time };

const TtvAnalysisClass ttv_cpu_usage_analysis = {
  .name = "cpu",
  .title = N_("CPU usage"),
  .description = N_("Busy time per CPU and CPU time per thread over time"),
  .formats = TTV_ANALYSIS_FORMAT_BIT (TTV_ANALYSIS_FORMAT_TEXT) | TTV_ANALYSIS_FORMAT_BIT (TTV_ANALYSIS_FORMAT_JSONL)
             | TTV_ANALYSIS_FORMAT_BIT (TTV_ANALYSIS_FORMAT_CSV),
  .needs_state = TRUE,
  .attach = cpu_attach,
  .finish = cpu_finish,
  .free = cpu_free,
  .tables = tables,
  .n_tables = G_N_ELEMENTS (tables),
  .version = 3,
  .observer = &cpu_observer,
  .after_event = cpu_after_event,
};

/* ---- queries ---- */

static const TtvAnalysisTable *
slices_of (const TtvAnalysis *r)
{
  return ttv_analysis_get_class (r) == &ttv_cpu_usage_analysis ? ttv_analysis_get_table (r, 0) : NULL;
}

GArray *
ttv_cpu_usage_list_cpus (const TtvAnalysis *r)
{
  const TtvAnalysisTable *t = slices_of (r);
  return t ? ttv_analysis_table_dup_series_keys (t, 0) : g_array_new (FALSE, FALSE, sizeof (guint32));
}

gboolean
ttv_cpu_usage_get_busy_bins (const TtvAnalysis *r, gint cpu, const TtvTime *edges, guint n_edges,
                             TtvTime *busy, GError **error)
{
  const TtvAnalysisTable *t = slices_of (r);
  g_return_val_if_fail (t != NULL, FALSE);
  for (guint i = 0; i + 1 < n_edges; i++)
    busy[i] = 0;
  if (cpu >= 0)
    return ttv_analysis_table_sum_series_bins (t, 0, (guint32) cpu, edges, n_edges, busy, error);
  g_autoptr (GArray) cpus = ttv_analysis_table_dup_series_keys (t, 0);
  g_autofree TtvTime *one = g_new0 (TtvTime, MAX (n_edges, 1));
  for (guint c = 0; c < cpus->len; c++)
    {
      if (!ttv_analysis_table_sum_series_bins (t, 0, g_array_index (cpus, guint32, c), edges, n_edges, one, error))
        return FALSE;
      for (guint i = 0; i + 1 < n_edges; i++)
        busy[i] = ttv_time_add_saturating (busy[i], one[i]);   /* a damaged cache can hold anything */
    }
  return TRUE;
}

gboolean
ttv_cpu_usage_get_busy (const TtvAnalysis *r, gint cpu, TtvTime t0, TtvTime t1, TtvTime *busy,
                        GError **error)
{
  TtvTime edges[2] = { t0, MAX (t0, t1) };
  return ttv_cpu_usage_get_busy_bins (r, cpu, edges, 2, busy, error);
}

static gint
compare_usage (gconstpointer a, gconstpointer b)
{
  const TtvThreadUsage *x = a, *y = b;
  if (x->cpu_time != y->cpu_time)
    return x->cpu_time > y->cpu_time ? -1 : 1;
  if (x->machine != y->machine)
    return x->machine < y->machine ? -1 : 1;
  return x->tid < y->tid ? -1 : x->tid > y->tid;
}

GArray *
ttv_cpu_usage_top_threads (const TtvAnalysis *r, TtvTime t0, TtvTime t1, GError **error)
{
  const TtvAnalysisTable *t = slices_of (r);
  g_return_val_if_fail (t != NULL, NULL);
  GArray *out = g_array_new (FALSE, TRUE, sizeof (TtvThreadUsage));
  g_autoptr (GArray) keys = ttv_analysis_table_dup_series_keys (t, 1);
  /* The idle tasks' interrupts: one "swapper" per machine. */
  TtvThreadUsage idle[TTV_ANALYSIS_MAX_MACHINES];
  for (guint m = 0; m < G_N_ELEMENTS (idle); m++)
    idle[m] = (TtvThreadUsage) { 0, 0, "swapper", 0, m, 0 };
  for (guint i = 0; i < keys->len; i++)
    {
      guint32 key = g_array_index (keys, guint32, i);
      TtvTime sum;
      if (!ttv_analysis_table_sum_series (t, 1, key, t0, t1, &sum, error))
        {
          g_array_unref (out);
          return NULL;
        }
      if (sum <= 0)
        continue;
      if (TTV_CPU_USAGE_IS_IDLE_KEY (key))
        {
          TtvThreadUsage *swapper = &idle[MIN ((key >> 12) & 0xfffu, TTV_ANALYSIS_MAX_MACHINES - 1)];
          swapper->cpu_time = ttv_time_add_saturating (swapper->cpu_time, sum);
          continue;
        }
      /* Its last name (the one it had last in the window when it had several). */
      guint machine = key >> 24;
      guint32 tid = machine == 0 ? key : key & 0xffffffu;
      TtvThreadUsage u = { tid, tid, "", sum, machine, 0 };
      char name_key[48];
      gint64 v;
      g_snprintf (name_key, sizeof name_key, "thread/%u", key);
      if (ttv_analysis_get_value (r, name_key, &v))
        {
          u.name = ttv_analysis_get_string (r, (guint32) v);
          u.tgid = (guint32) ((guint64) v >> 32);
        }
      /* A thread renamed, whose last slice is not in the window: the
       * name of the last slice in the window is read. */
      g_snprintf (name_key, sizeof name_key, "renamed/%u", key);
      if (ttv_analysis_get_value (r, name_key, &v) && !ttv_analysis_table_series_last_overlaps (t, 1, key, t0, t1))
        {
          TtvCpuSlice last;
          gboolean found;
          if (!ttv_analysis_table_last_in_series (t, 1, key, t0, t1, &last, &found, error))
            {
              g_array_unref (out);
              return NULL;
            }
          if (found)
            {
              u.tgid = last.tgid;
              u.name = ttv_analysis_get_string (r, last.name);
            }
        }
      if (u.name == NULL)
        u.name = "";
      g_array_append_val (out, u);
    }
  for (guint m = 0; m < G_N_ELEMENTS (idle); m++)
    if (idle[m].cpu_time > 0)
      g_array_append_val (out, idle[m]);
  g_array_sort (out, compare_usage);
  return out;
}
