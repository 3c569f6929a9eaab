/* ttv-stats-tree.c: the statistics tree of the viewer API built from a
 * TtvStatistics (see ttv-stats-tree.h); used by the state pass and the
 * interval statistics job, read by the statistics module. */
#include "ttv-config.h"

#include "ttv-stats-tree.h"

#include <glib/gi18n.h>
#include <stdlib.h>
#include <string.h>

static void
node_clear (TtvViewerStatsNode *node)
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

TtvViewerStatsNode *
ttv_viewer_stats_node_ref (TtvViewerStatsNode *node)
{
  g_return_val_if_fail (node != NULL, NULL);
  return g_atomic_rc_box_acquire (node);
}

void
ttv_viewer_stats_node_unref (TtvViewerStatsNode *node)
{
  if (node)
    g_atomic_rc_box_release_full (node, (GDestroyNotify) node_clear);
}

TtvViewerStatsNode *
ttv_stats_node_new (const char *name, const char *key, guint64 count, TtvTime total,
                    TtvTime min, TtvTime max)
{
  TtvViewerStatsNode *node = g_atomic_rc_box_new0 (TtvViewerStatsNode);
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

static TtvViewerStatsNode *
add (TtvViewerStatsNode *parent, TtvViewerStatsNode *child)
{
  if (parent->children->len == 0)
    {
      g_ptr_array_unref (parent->children);
      parent->children = g_ptr_array_new_with_free_func ((GDestroyNotify) ttv_viewer_stats_node_unref);
    }
  g_ptr_array_add (parent->children, child);
  return child;
}

static TtvViewerStatsNode *
add_group (TtvViewerStatsNode *parent, const char *name, const char *key)
{
  return add (parent, ttv_stats_node_new (name, key, 0, -1, -1, -1));
}

static void
add_duration (TtvViewerStatsNode *group, const char *name, const char *key,
              const TtvDurationStats *d)
{
  if (!d)
    return;
  add (group, ttv_stats_node_new (name, key, d->count, d->total, d->min, d->max));
  group->count += d->count;
  group->total = (group->total < 0 ? 0 : group->total) + d->total;
}

static gint
compare_cpu (gconstpointer a, gconstpointer b)
{
  gint x = *(const gint *) a, y = *(const gint *) b;
  return x < y ? -1 : x > y;
}

/* The syscall, IRQ and soft IRQ keys: the statistics only list them in
 * their text tables (ttv-report --stats), so they are read from there and
 * the numbers then fetched by key. */
static void
add_duration_groups (TtvViewerStatsNode *root, const TtvStatistics *stats)
{
  g_autoptr (GString) text = g_string_new (NULL);
  g_auto (GStrv) lines = NULL;
  TtvViewerStatsNode *group = NULL;
  int section = -1;   /* 0 syscall, 1 irq, 2 softirq */
  TtvViewerStatsNode *groups[3];

  groups[0] = add_group (root, _("System calls"), "syscall");
  groups[1] = add_group (root, _("IRQs"), "irq");
  groups[2] = add_group (root, _("Soft IRQs"), "softirq");
  ttv_statistics_append_text (stats, text);
  lines = g_strsplit (text->str, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      g_auto (GStrv) tok = g_strsplit_set (g_strstrip (lines[i]), " \t", -1);
      GPtrArray *words = g_ptr_array_new ();
      g_autofree char *key = NULL;

      for (guint j = 0; tok[j]; j++)
        if (tok[j][0])
          g_ptr_array_add (words, tok[j]);
      if (words->len == 0)
        {
          section = -1;
          g_ptr_array_unref (words);
          continue;
        }
      if (words->len >= 3 && strcmp (words->pdata[1], "count") == 0
          && strcmp (words->pdata[2], "total") == 0)
        {
          const char *t = words->pdata[0];
          section = strcmp (t, "syscall") == 0 ? 0 : strcmp (t, "irq") == 0 ? 1
                    : strcmp (t, "softirq") == 0 ? 2 : -1;
          g_ptr_array_unref (words);
          continue;
        }
      if (section >= 0)
        {
          const char *name = words->pdata[0];

          group = groups[section];
          key = g_strdup_printf ("%s/%s", group->key, name);
          if (section == 0)
            add_duration (group, name, key, ttv_statistics_get_syscall (stats, name));
          else
            {
              char *end = NULL;
              guint64 n = g_ascii_strtoull (name, &end, 10);

              if (end && !*end && n <= G_MAXUINT32)
                add_duration (group, name, key, ttv_statistics_get_irq (stats, (guint32) n, section == 2));
            }
        }
      g_ptr_array_unref (words);
    }
}

TtvViewerStatsNode *
ttv_stats_tree_new (const TtvStatistics *stats, TtvTraceset *ts)
{
  static const TtvExecMode modes[] = {
    TTV_MODE_USER, TTV_MODE_SYSCALL, TTV_MODE_TRAP, TTV_MODE_IRQ, TTV_MODE_SOFTIRQ
  };
  TtvViewerStatsNode *root = ttv_stats_node_new (_("Traceset"), "traceset",
                                                 ttv_statistics_get_n_events (stats), -1, -1, -1);
  TtvViewerStatsNode *group;
  g_autoptr (GHashTable) by_name = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GArray) cpus = g_array_new (FALSE, FALSE, sizeof (gint));
  g_autoptr (GPtrArray) procs = NULL;
  guint n_traces = ttv_traceset_get_n_traces (ts);

  /* Per trace, with its event types. */
  group = add_group (root, _("Traces"), "trace");
  for (guint t = 0; t < n_traces; t++)
    {
      TtvTrace *trace = ttv_traceset_get_trace (ts, t);
      g_autofree char *key = g_strdup_printf ("trace/%u", t);
      TtvViewerStatsNode *tn = add (group, ttv_stats_node_new (trace->name, key, 0, -1, -1, -1));

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

  /* Per CPU: the CPUs of the tracefiles, and -1 for the others. */
  group = add_group (root, _("CPUs"), "cpu");
  for (guint s = 0; s < ttv_traceset_get_n_tracefiles (ts); s++)
    {
      gint cpu = ttv_traceset_get_tracefile (ts, s)->cpu;
      gboolean seen = FALSE;

      for (guint i = 0; i < cpus->len && !seen; i++)
        seen = g_array_index (cpus, gint, i) == cpu;
      if (!seen)
        g_array_append_val (cpus, cpu);
    }
  g_array_sort (cpus, compare_cpu);
  for (guint i = 0; i < cpus->len; i++)
    {
      gint cpu = g_array_index (cpus, gint, i);
      guint64 n = ttv_statistics_get_cpu_count (stats, cpu);
      g_autofree char *name = cpu >= 0 ? g_strdup_printf (_("CPU %d"), cpu) : g_strdup (_("No CPU"));
      g_autofree char *key = g_strdup_printf ("cpu/%d", cpu);

      if (n)
        {
          add (group, ttv_stats_node_new (name, key, n, -1, -1, -1));
          group->count += n;
        }
    }

  /* Per process: events and CPU time, split by execution mode. */
  group = add_group (root, _("Processes"), "process");
  procs = ttv_statistics_list_processes (stats);
  for (guint i = 0; i < procs->len; i++)
    {
      const TtvProcessStats *p = procs->pdata[i];
      g_autofree char *name = g_strdup_printf ("%s (%u)", p->name ? g_quark_to_string (p->name) : "-",
                                               p->pid);
      g_autofree char *key = g_strdup_printf ("process/%u", p->pid);
      TtvViewerStatsNode *pn = add (group, ttv_stats_node_new (name, key, p->events, 0, -1, -1));

      for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
        {
          TtvTime time = p->cpu_time[modes[m]]
                         + (modes[m] == TTV_MODE_USER ? p->cpu_time[TTV_MODE_UNKNOWN] : 0);
          g_autofree char *mkey = g_strdup_printf ("%s/%s", key, ttv_exec_mode_name (modes[m]));

          add (pn, ttv_stats_node_new (ttv_exec_mode_name (modes[m]), mkey, 0, time, -1, -1));
          pn->total += time;
        }
      group->count += p->events;
      group->total = (group->total < 0 ? 0 : group->total) + pn->total;
    }

  /* Per event type, all traces together. */
  group = add_group (root, _("Event types"), "type");
  for (guint t = 0; t < n_traces; t++)
    {
      TtvTrace *trace = ttv_traceset_get_trace (ts, t);

      for (guint id = 0; id < trace->event_types->len; id++)
        {
          const TtvEventType *et = trace->event_types->pdata[id];
          const char *name = et->full_name ? et->full_name : et->name;
          guint64 n = ttv_statistics_get_type_count (stats, t, id);
          TtvViewerStatsNode *tn;

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

  add_duration_groups (root, stats);
  return root;
}
