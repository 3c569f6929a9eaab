/* ttv-stats-tree.c: the statistics tree built from a TtvStatistics (see
 * ttv-stats-tree.h); used by the state pass and the interval statistics
 * job, read by the statistics module and ttv-report --stats. */
#include "ttv-stats-tree.h"
#include "ttv-trace-info.h"

#include <glib/gi18n-lib.h>
#include <string.h>

static void
node_clear (TtvStatsNode *node)
{
  g_free (node->name);   /* the key with it */
  g_ptr_array_unref (node->children);
}

/* Most nodes are leaves (a process's modes, syscalls...): they share one
 * empty array of children until they get one (a tree can have hundreds of
 * thousands of nodes). */
static GPtrArray *
no_children (void)
{
  static GPtrArray *empty;
  static gsize done;
  if (g_once_init_enter (&done))
    {
      empty = g_ptr_array_new ();
      g_once_init_leave (&done, 1);
    }
  return g_ptr_array_ref (empty);
}

TtvStatsNode *
ttv_stats_node_ref (TtvStatsNode *node)
{
  g_return_val_if_fail (node != NULL, NULL);
  return g_atomic_rc_box_acquire (node);
}

void
ttv_stats_node_unref (TtvStatsNode *node)
{
  if (node)
    g_atomic_rc_box_release_full (node, (GDestroyNotify) node_clear);
}

TtvStatsNode *
ttv_stats_node_new (const char *name, const char *key, guint64 count, TtvTime total,
                    TtvTime min, TtvTime max)
{
  TtvStatsNode *node = g_atomic_rc_box_new0 (TtvStatsNode);
  gsize name_len = name ? strlen (name) : 0, key_len = key ? strlen (key) : 0;

  /* Name and key in one block (freed with the name). */
  node->name = g_malloc (name_len + key_len + 2);
  memcpy (node->name, name ? name : "", name_len + 1);
  node->key = node->name + name_len + 1;
  memcpy (node->key, key ? key : "", key_len + 1);
  if (key == NULL)
    node->key = NULL;
  node->count = count;
  node->total = total;
  node->min = min;
  node->max = max;
  node->children = no_children ();
  return node;
}

/* @msgid in the user's language, or as written (ttv-report's output does
 * not change with the language). */
static const char *label (gboolean translate, const char *msgid) G_GNUC_FORMAT (2);

static const char *
label (gboolean translate, const char *msgid)
{
  return translate ? _(msgid) : msgid;
}

TtvTime
ttv_stats_node_get_average (const TtvStatsNode *node)
{
  return node->min >= 0 && node->count > 0 ? node->total / (TtvTime) node->count : -1;
}

static TtvStatsNode *
add (TtvStatsNode *parent, TtvStatsNode *child)
{
  if (parent->children->len == 0)
    {
      g_ptr_array_unref (parent->children);
      parent->children = g_ptr_array_new_with_free_func ((GDestroyNotify) ttv_stats_node_unref);
    }
  g_ptr_array_add (parent->children, child);
  return child;
}

static TtvStatsNode *
add_group (TtvStatsNode *parent, const char *name, const char *key)
{
  return add (parent, ttv_stats_node_new (name, key, 0, -1, -1, -1));
}

static void
add_duration (TtvStatsNode *group, const char *name, const char *key,
              const TtvDurationStats *d)
{
  add (group, ttv_stats_node_new (name, key, d->count, d->total, d->min, d->max));
  group->count += d->count;
  group->total = (group->total < 0 ? 0 : group->total) + d->total;
}

static void
add_duration_group (TtvStatsNode *root, const TtvStatistics *stats, TtvDurationKind kind, gboolean tr)
{
  static const char *const keys[] = { "syscall", "irq", "softirq" };
  static const char *const titles[] = { N_("System calls"), N_("IRQs"), N_("Soft IRQs") };
  TtvStatsNode *group = add_group (root, label (tr, titles[kind]), keys[kind]);
  g_autoptr (GArray) entries = ttv_statistics_list_durations (stats, kind);

  for (guint i = 0; i < entries->len; i++)
    {
      const TtvDurationEntry *e = &g_array_index (entries, TtvDurationEntry, i);
      g_autofree char *key = NULL, *name = NULL;

      if (kind == TTV_DURATION_SYSCALL)
        {
          key = g_strdup_printf ("syscall/%s", e->name);
          name = g_strdup (e->name);
        }
      else
        {
          gboolean soft = kind == TTV_DURATION_SOFTIRQ;

          key = g_strdup_printf ("%s/%u", keys[kind], e->id);
          if (e->name)
            name = soft ? g_strdup_printf (label (tr, N_("Soft IRQ %u %s")), e->id, e->name)
                        : g_strdup_printf (label (tr, N_("IRQ %u %s")), e->id, e->name);
          else
            name = soft ? g_strdup_printf (label (tr, N_("Soft IRQ %u")), e->id)
                        : g_strdup_printf (label (tr, N_("IRQ %u")), e->id);
        }
      add_duration (group, name, key, e->stats);
    }
}

/* The CPU time of a CPU or a process split by mode, as children of @node
 * (whose total is their sum); the unknown mode only when it is not empty. */
static void
add_modes (TtvStatsNode *node, const TtvTime *times, gboolean tr)
{
  static const struct { TtvExecMode mode; const char *label; } modes[] = {
    { TTV_MODE_USER, N_("User") },
    { TTV_MODE_SYSCALL, N_("System call") },
    { TTV_MODE_TRAP, N_("Trap") },
    { TTV_MODE_IRQ, N_("IRQ") },
    { TTV_MODE_SOFTIRQ, N_("Soft IRQ") },
    { TTV_MODE_UNKNOWN, N_("Unknown mode") },
  };

  node->total = 0;
  for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
    {
      TtvTime time = times[modes[m].mode];
      g_autofree char *key = NULL;

      if (modes[m].mode == TTV_MODE_UNKNOWN && time == 0)
        continue;
      key = g_strdup_printf ("%s/%s", node->key, ttv_exec_mode_name (modes[m].mode));
      add (node, ttv_stats_node_new (label (tr, modes[m].label), key, 0, time, -1, -1));
      node->total += time;
    }
}

/* A CPU or a process under @group: its events and, unless @times is NULL,
 * its time by mode; the group sums them. */
static TtvStatsNode *
add_timed (TtvStatsNode *group, const char *name, const char *key, guint64 events,
           const TtvTime *times, gboolean tr)
{
  TtvStatsNode *node = add (group, ttv_stats_node_new (name, key, events, 0, -1, -1));

  if (times)
    add_modes (node, times, tr);
  group->count += events;
  group->total = (group->total < 0 ? 0 : group->total) + node->total;
  return node;
}

/* With several machines, a group per machine under @group (its key
 * GROUP/machine/M), which sums into @group once filled; else @group. */
static TtvStatsNode *
machine_group (TtvStatsNode *group, const TtvStatistics *stats, guint machine)
{
  if (ttv_statistics_get_n_machines (stats) == 1)
    return group;
  g_autofree char *key = g_strdup_printf ("%s/machine/%u", group->key, machine);
  for (guint i = 0; i < group->children->len; i++)
    {
      TtvStatsNode *child = group->children->pdata[i];
      if (strcmp (child->key, key) == 0)
        return child;
    }
  const char *name = ttv_statistics_get_machine_name (stats, machine);
  return add_group (group, name ? name : key, key);
}

/* The per-machine groups of @group sum into it. */
static void
sum_machine_groups (TtvStatsNode *group, const TtvStatistics *stats)
{
  if (ttv_statistics_get_n_machines (stats) == 1)
    return;
  for (guint i = 0; i < group->children->len; i++)
    {
      const TtvStatsNode *m = group->children->pdata[i];
      group->count += m->count;
      if (m->total >= 0)
        group->total = (group->total < 0 ? 0 : group->total) + m->total;
    }
}

/* The key of a CPU or process node: GROUP/ID with one machine, else
 * GROUP/machine/M/ID. */
static char *
member_key (const TtvStatsNode *parent, const TtvStatistics *stats, const char *group, const char *id)
{
  if (ttv_statistics_get_n_machines (stats) == 1)
    return g_strdup_printf ("%s/%s", group, id);
  return g_strdup_printf ("%s/%s", parent->key, id);
}

static void
add_cpus (TtvStatsNode *root, const TtvStatistics *stats, gboolean tr)
{
  TtvStatsNode *group = add_group (root, label (tr, N_("CPUs")), "cpu");
  g_autoptr (GPtrArray) cpus = ttv_statistics_list_cpus (stats);

  for (guint i = 0; i < cpus->len; i++)
    {
      const TtvCpuStats *c = cpus->pdata[i];
      TtvStatsNode *parent = machine_group (group, stats, c->machine);
      g_autofree char *name = c->cpu >= 0 ? g_strdup_printf (label (tr, N_("CPU %d")), c->cpu)
                                           : g_strdup (label (tr, N_("No CPU")));
      g_autofree char *id = g_strdup_printf ("%d", c->cpu);
      g_autofree char *key = member_key (parent, stats, "cpu", id);
      g_autofree char *idle_key = g_strdup_printf ("%s/idle", key);
      TtvStatsNode *cn = add_timed (parent, name, key, c->events, c->cpu >= 0 ? c->busy : NULL, tr);

      /* The idle time beside the busy time, not part of the total. */
      if (c->cpu >= 0)
        add (cn, ttv_stats_node_new (label (tr, N_("Idle")), idle_key, 0, c->idle, -1, -1));
    }
  sum_machine_groups (group, stats);
}

static void
add_processes (TtvStatsNode *root, const TtvStatistics *stats, gboolean tr)
{
  TtvStatsNode *group = add_group (root, label (tr, N_("Processes")), "process");
  g_autoptr (GPtrArray) procs = ttv_statistics_list_processes (stats);

  for (guint i = 0; i < procs->len; i++)
    {
      const TtvProcessStats *p = procs->pdata[i];
      TtvStatsNode *parent = machine_group (group, stats, p->machine);
      g_autofree char *name = g_strdup_printf ("%s (%u)", p->name ? g_quark_to_string (p->name) : "-",
                                               p->pid);
      g_autofree char *id = g_strdup_printf ("%u", p->pid);
      g_autofree char *key = member_key (parent, stats, "process", id);

      add_timed (parent, name, key, p->events, p->cpu_time, tr);
    }
  sum_machine_groups (group, stats);
}

/* What the tracer lost of @trace's tracefile @tf in [@start, @end]: its
 * events, or with @packets its whole packets. */
static guint64
lost_in (const TtvTracefile *tf, gboolean packets, TtvTime start, TtvTime end)
{
  guint64 n = 0;

  for (guint i = 0; tf->lost && i < tf->lost->len; i++)
    {
      const TtvLostRange *r = &g_array_index (tf->lost, TtvLostRange, i);

      if (ttv_lost_range_in_interval (tf, r, start, end))
        n += packets ? r->packets : r->count;
    }
  return n;
}

/* The events (or with @packets the whole packets) the tracer lost in
 * [@start, @end]: a group, its traces, their tracefiles, only those that
 * lost any.  No group when nothing was lost, so the tree of a trace without
 * losses has none. */
static void
add_lost (TtvStatsNode *root, TtvTraceset *ts, gboolean packets, TtvTime start, TtvTime end, gboolean tr)
{
  const char *gkey = packets ? "lost-packets" : "lost-events";
  TtvStatsNode *group = NULL;

  for (guint t = 0; t < ttv_traceset_get_n_traces (ts); t++)
    {
      TtvTrace *trace = ttv_traceset_get_trace (ts, t);
      TtvStatsNode *tn = NULL;

      for (guint i = 0; i < trace->tracefiles->len; i++)
        {
          const TtvTracefile *tf = trace->tracefiles->pdata[i];
          guint64 n = lost_in (tf, packets, start, end);
          g_autofree char *key = NULL;

          if (n == 0)
            continue;
          if (!group)
            group = add_group (root, packets ? label (tr, N_("Lost packets")) : label (tr, N_("Lost events")), gkey);
          if (!tn)
            {
              g_autofree char *tkey = g_strdup_printf ("%s/trace/%u", gkey, t);
              tn = add_group (group, trace->name, tkey);
            }
          key = g_strdup_printf ("%s/%s", tn->key, tf->name);
          add (tn, ttv_stats_node_new (tf->name, key, n, -1, -1, -1));
          tn->count += n;
          group->count += n;
        }
    }
}

TtvStatsNode *
ttv_stats_tree_new (const TtvStatistics *stats, TtvTraceset *ts)
{
  return ttv_stats_tree_new_full (stats, ts, TTV_TIME_MIN, TTV_TIME_MAX, TRUE);
}

TtvStatsNode *
ttv_stats_tree_new_full (const TtvStatistics *stats, TtvTraceset *ts, TtvTime start, TtvTime end, gboolean tr)
{
  TtvStatsNode *root = ttv_stats_node_new (label (tr, N_("Traceset")), "traceset",
                                           ttv_statistics_get_n_events (stats), -1, -1, -1);
  TtvStatsNode *group;
  g_autoptr (GHashTable) by_name = g_hash_table_new (g_str_hash, g_str_equal);
  guint n_traces = ttv_traceset_get_n_traces (ts);

  /* Per trace, with its event types. */
  group = add_group (root, label (tr, N_("Traces")), "trace");
  for (guint t = 0; t < n_traces; t++)
    {
      TtvTrace *trace = ttv_traceset_get_trace (ts, t);
      g_autofree char *key = g_strdup_printf ("trace/%u", t);
      TtvStatsNode *tn = add (group, ttv_stats_node_new (trace->name, key, 0, -1, -1, -1));

      for (guint id = 0; id < trace->event_types->len; id++)
        {
          const TtvEventType *et = trace->event_types->pdata[id];
          const char *name = et->full_name ? et->full_name : et->name;
          guint64 n = ttv_statistics_get_type_count (stats, t, id);
          g_autofree char *tkey = NULL;

          if (!n)
            continue;
          tkey = g_strdup_printf ("trace/%u/type/%s", t, name);
          add (tn, ttv_stats_node_new (name, tkey, n, -1, -1, -1));
          tn->count += n;
        }
      group->count += tn->count;
    }
  add_lost (root, ts, FALSE, start, end, tr);
  add_lost (root, ts, TRUE, start, end, tr);

  add_cpus (root, stats, tr);
  add_processes (root, stats, tr);

  /* Per event type, all traces together. */
  group = add_group (root, label (tr, N_("Event types")), "type");
  for (guint t = 0; t < n_traces; t++)
    {
      TtvTrace *trace = ttv_traceset_get_trace (ts, t);

      for (guint id = 0; id < trace->event_types->len; id++)
        {
          const TtvEventType *et = trace->event_types->pdata[id];
          const char *name = et->full_name ? et->full_name : et->name;
          guint64 n = ttv_statistics_get_type_count (stats, t, id);
          TtvStatsNode *tn;

          if (!n)
            continue;
          tn = g_hash_table_lookup (by_name, name);
          if (!tn)
            {
              g_autofree char *key = g_strdup_printf ("type/%s", name);
              tn = add (group, ttv_stats_node_new (name, key, 0, -1, -1, -1));
              g_hash_table_insert (by_name, tn->name, tn);
            }
          tn->count += n;
          group->count += n;
        }
    }

  add_duration_group (root, stats, TTV_DURATION_SYSCALL, tr);
  add_duration_group (root, stats, TTV_DURATION_IRQ, tr);
  add_duration_group (root, stats, TTV_DURATION_SOFTIRQ, tr);
  return root;
}
