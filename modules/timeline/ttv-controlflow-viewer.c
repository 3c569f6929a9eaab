/* ttv-controlflow-viewer.c: the control flow viewer of the time-line module: one row per
 * process (thread) of the state history with its states over time, marks
 * and wakeup arrows; the CPUs' idle tasks first; threads as expandable rows
 * under their process; columns (name, PID, TGID, PPID, CPU time, birth)
 * sorted by a click on their title, rows searched by any name the process
 * had, hidden when idle, and limited to the processes that ran the tab's
 * filter's events.  Drawing and navigation: ttv-timeline*.c. */
#include "ttv-controlflow-rows-kept.h"
#include "ttv-timeline-view.h"
#include "ttv-timeline-viewers.h"
#include "ttv-view-action-state.h"
#include "ttv-view-axis.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#define TTV_TYPE_CONTROLFLOW_VIEWER (ttv_controlflow_viewer_get_type ())
G_DECLARE_FINAL_TYPE (TtvControlflowViewer, ttv_controlflow_viewer, TTV, CONTROLFLOW_VIEWER, GtkBox)

/* The sort keys, in the order of the columns. */
typedef enum { SORT_NAME, SORT_PID, SORT_TGID, SORT_PPID, SORT_CPU_TIME, SORT_BIRTH, SORT_N_KEYS } SortKey;

static const char *const sort_ids[SORT_N_KEYS] = { "name", "pid", "tgid", "ppid", "cpu-time", "birth" };

/* One filter request: the threads that ran a matching event. */
typedef struct {
  TtvControlflowViewer *self;  /* weak: the viewer cancels its requests when it goes */
  GHashTable *pids;            /* owned: set of thread keys (thread_key()) */
} FilterJob;

/* A thread of one machine, as the filter's set and `shown-threads` hold
 * it: the machine in the high half, the pid in the low (pid 0, the idle
 * task, is every CPU's). */
static guint64
thread_key (guint machine, guint32 pid)
{
  return (guint64) machine << 32 | pid;
}

/* Which process rows hide-idle keeps in one time window of the history,
 * remembered while the window stays (and emptied with a new history): a
 * search typed with hide-idle on builds the rows at each keystroke, and
 * each row's check reads its intervals from the history (400 ms for the
 * 79,000 processes of the 1 GB bench trace). */
typedef struct {
  TtvTime t0, t1;
  GByteArray *rows;            /* owned: per process row, 0 (not known yet), BUSY or IDLE */
} BusyMemo;

enum { BUSY = 1, IDLE = 2 };

struct _TtvControlflowViewer {
  GtkBox parent_instance;

  TtvTabState *state;          /* owned reference */
  gulong handlers[7];
  GSimpleActionGroup *actions; /* owned */
  TtvTimeline *timeline;       /* weak: a child */
  GtkWidget *search;
  GtkWidget *count_label;
  GtkWidget *sort_combo;

  /* Per process row, the names it had (GStrv, NULL: one name), from a
   * worker thread; NULL until known. */
  GPtrArray *names;            /* owned, may be NULL */
  GCancellable *names_cancel;  /* owned, NULL when no job runs */

  BusyMemo busy;

  /* Groups: expanded unless collapse_all, except those in toggled (history
   * row of the leader + 1); forgotten with the history. */
  gboolean collapse_all;
  GHashTable *toggled;         /* owned */

  /* The tab's filter: NULL while none (every row), else the threads
   * (thread_key()) that ran a matching event in the time window, from the
   * last finished request. */
  GHashTable *filter_pids;     /* owned, may be NULL */
  FilterJob *job;              /* weak: the running request's, NULL when none */
  gboolean filter_pending;     /* a filter is set, its pids not yet known */

  /* The user's choices from a row's menu, by row key (row_key()): rows
   * hidden, rows pinned at the top (in the order pinned), the thread
   * followed (kept selected and scrolled to; TTV_VIEWER_PID_NONE: none)
   * and its machine. */
  GHashTable *hidden;          /* owned: set of keys (guint64 *) */
  GArray *pinned;              /* owned: of guint64 keys */
  guint32 followed;
  guint followed_machine;
};

G_DEFINE_FINAL_TYPE (TtvControlflowViewer, ttv_controlflow_viewer, GTK_TYPE_BOX)

static gboolean
flag (TtvControlflowViewer *self, const char *name)
{
  g_autoptr (GVariant) v = g_action_group_get_action_state (G_ACTION_GROUP (self->actions), name);

  return g_variant_get_boolean (v);
}

static SortKey
sort_key (TtvControlflowViewer *self)
{
  g_autoptr (GVariant) v = g_action_group_get_action_state (G_ACTION_GROUP (self->actions), "sort");
  const char *s = g_variant_get_string (v, NULL);

  for (guint k = 0; k < SORT_N_KEYS; k++)
    if (strcmp (s, sort_ids[k]) == 0)
      return k;
  return SORT_PID;
}

/* What the legend shows and the label area's columns (the sort keys'). */
static const TtvPaletteColor legend[] = {
  TTV_PALETTE_RUN_USER, TTV_PALETTE_RUN_SYSCALL, TTV_PALETTE_RUN_TRAP,
  TTV_PALETTE_RUN_IRQ, TTV_PALETTE_RUN_SOFTIRQ, TTV_PALETTE_RUN_UNKNOWN,
  TTV_PALETTE_WAIT_CPU, TTV_PALETTE_WAIT_FORK, TTV_PALETTE_BLOCKED,
  TTV_PALETTE_ZOMBIE, TTV_PALETTE_EXITED, TTV_PALETTE_UNKNOWN, TTV_PALETTE_CPU_IDLE,
  TTV_PALETTE_MIXED, TTV_PALETTE_MARK_FORK, TTV_PALETTE_MARK_EXEC, TTV_PALETTE_MARK_EXIT,
  TTV_PALETTE_WAKEUP,
};

#define N_COLUMNS SORT_N_KEYS

static void
get_columns (TtvTimelineColumn columns[N_COLUMNS])
{
  const TtvTimelineColumn all[N_COLUMNS] = {
    { _("Name"), 100, FALSE },
    { _("PID"), 50, TRUE },
    { _("TGID"), 50, TRUE },
    { _("PPID"), 50, TRUE },
    { _("CPU time"), 72, TRUE },
    { _("Birth"), 78, TRUE },
  };

  memcpy (columns, all, sizeof all);
}

/* What the rows are made of: the viewer's choices and what it learned
 * (a render makes them as a new viewer would: every row, by PID). */
typedef struct {
  SortKey key;
  gboolean descending;
  gboolean hide_idle;          /* rows that neither run nor wait for a CPU go */
  const char *needle;          /* the search, casefolded; "" for none */
  GPtrArray *names;            /* per process row, its names (GStrv, NULL: one); may be NULL */
  GHashTable *filter_pids;     /* the pids that ran the tab's filter's events; NULL: no filter */
  gboolean collapse_all;       /* groups collapsed, but those in @toggled */
  GHashTable *toggled;         /* history row of a leader + 1; may be NULL */
  GHashTable *hidden;          /* row keys never shown; may be NULL */
  GArray *pinned;              /* row keys shown first, whatever the search; may be NULL */
  guint32 followed;            /* a thread shown whatever the search (TTV_VIEWER_PID_NONE: none) */
  guint followed_machine;
  BusyMemo *busy;              /* may be NULL: every row checked */
} RowChoice;

/* What the row menu's choices hold a row by: its machine in the high half;
 * in the low half its pid, or for a CPU's idle task (pid 0 on every CPU)
 * its CPU with the top bits set.  It outlives a new history (a live
 * trace's), and the same pid on two machines is two rows. */
static guint64
row_key (const TtvViewerRowInfo *info)
{
  guint32 low = info->id == 0 && info->cpu >= 0 ? 0xff000000u | (guint32) info->cpu : info->id;

  return thread_key (info->machine, low);
}

static gint
pinned_rank (const RowChoice *c, guint64 key)
{
  for (guint i = 0; c->pinned && i < c->pinned->len; i++)
    if (g_array_index (c->pinned, guint64, i) == key)
      return (gint) i;
  return -1;
}

static gboolean
is_hidden (const RowChoice *c, const TtvViewerRowInfo *info)
{
  guint64 key = row_key (info);

  return c->hidden && g_hash_table_contains (c->hidden, &key);
}

/* Whether @info is the row of thread @tid of @machine. */
static gboolean
is_thread (const TtvViewerRowInfo *info, guint machine, guint32 tid)
{
  return info->id != 0 && info->id == tid && info->machine == machine;
}

/* A process row and its place in the tree. */
typedef struct {
  const TtvViewerRowInfo *info;
  guint row;
  gint parent;                 /* index of the leader's node, -1: top level */
  GArray *children;            /* of guint node indices, NULL when none */
  gboolean match;              /* passes the search and the tab's filter */
  gboolean busy;               /* has events in the window, or hide idle is off */
} Node;

typedef struct {
  GArray *nodes;
  SortKey key;
  gboolean descending;
} SortData;

#define CMP(a, b) (((a) > (b)) - ((a) < (b)))

/* Each machine's rows together (several machines: under its header row);
 * in a machine, the CPUs' idle tasks first, by CPU, whatever the sort:
 * they are not processes competing for CPU time. */
static int
compare_nodes (gconstpointer a, gconstpointer b, gpointer data)
{
  const SortData *sd = data;
  const Node *x = &g_array_index (sd->nodes, Node, *(const guint *) a);
  const Node *y = &g_array_index (sd->nodes, Node, *(const guint *) b);
  gboolean xi = ttv_timeline_is_idle_task (x->info), yi = ttv_timeline_is_idle_task (y->info);
  int c = 0;

  if (x->info->machine != y->info->machine)
    return CMP (x->info->machine, y->info->machine);
  if (xi || yi)
    return xi && yi ? CMP (x->info->cpu, y->info->cpu) : xi ? -1 : 1;
  switch (sd->key)
    {
    case SORT_NAME: c = g_strcmp0 (x->info->name, y->info->name); break;
    case SORT_TGID: c = CMP (x->info->tgid, y->info->tgid); break;
    case SORT_PPID: c = CMP (x->info->ppid, y->info->ppid); break;
    /* Ascending like every key: the first click sorts it descending
     * (starts_descending), the arrow saying so. */
    case SORT_CPU_TIME: c = CMP (x->info->cpu_time, y->info->cpu_time); break;
    case SORT_BIRTH: c = CMP (x->info->birth, y->info->birth); break;
    default: break;
    }
  if (sd->descending)
    c = -c;
  if (c == 0)
    c = (x->info->id > y->info->id) - (x->info->id < y->info->id);
  if (c == 0)
    c = (x->info->birth > y->info->birth) - (x->info->birth < y->info->birth);
  if (c == 0)
    c = (x->row > y->row) - (x->row < y->row);
  return c;
}

/* "bash → gcc", "sh → … → make" (the first and the last); @names may be
 * NULL: @name. */
static char *
join_names (const char *const *names, const char *name)
{
  guint n = names ? g_strv_length ((char **) names) : 0;

  if (n == 0)
    return g_strdup (name ? name : "");
  if (n <= 2)
    return g_strjoinv (" → ", (char **) names);
  return g_strdup_printf ("%s → … → %s", names[0], names[n - 1]);
}

/* The names process row @row had, from @names (see RowChoice); NULL: one. */
static const char *const *
names_in (GPtrArray *names, guint row)
{
  return names && row < names->len ? names->pdata[row] : NULL;
}

/* The name column: every name the row had ("bash → gcc"); an idle task
 * is its CPU's ("swapper/1"). */
static const char *const *
names_of (const RowChoice *c, guint row)
{
  return names_in (c->names, row);
}

static char *
row_name (const RowChoice *c, const TtvViewerRowInfo *info, guint row)
{
  const char *name = info->name && *info->name ? info->name : _("(unnamed)");
  const char *const *names = names_of (c, row);

  if (ttv_timeline_is_idle_task (info) && !strchr (name, '/'))
    return g_strdup_printf ("%s/%d", name, info->cpu);
  return join_names (names, name);
}

/* What the rows' other columns and details are formatted from, when drawn
 * or asked for (ttv-timeline-row-text.c). */
typedef struct {
  TtvViewerHistory *history;   /* owned reference */
  GPtrArray *names;            /* owned reference, may be NULL: as RowChoice's */
  TtvTime origin;              /* the time span's start: births are counted from it */
} RowTextData;

static void
row_text_data_free (gpointer data)
{
  RowTextData *d = data;

  ttv_viewer_history_unref (d->history);
  g_clear_pointer (&d->names, g_ptr_array_unref);
  g_free (d);
}

/* The PID, TGID, PPID, CPU time and birth columns. */
static GStrv
process_cells (gpointer data, const TtvTimelineRow *r)
{
  const RowTextData *d = data;
  const TtvViewerRowInfo *info = ttv_viewer_history_get_row (d->history, TTV_VIEWER_ROW_PROCESS, r->row);
  g_autofree char *birth = NULL;
  GStrv cells;

  if (!info)
    return NULL;
  birth = ttv_viewer_format_duration (info->birth - d->origin);
  cells = g_new0 (char *, 6);
  cells[0] = g_strdup_printf ("%u", info->id);
  cells[1] = info->tgid == TTV_VIEWER_PID_NONE ? g_strdup ("—") : g_strdup_printf ("%u", info->tgid);
  cells[2] = info->ppid == TTV_VIEWER_PID_NONE ? g_strdup ("—") : g_strdup_printf ("%u", info->ppid);
  cells[3] = ttv_viewer_format_duration (info->cpu_time);
  cells[4] = g_strdup_printf ("+%s", birth);
  return cells;
}

/* Every name the process had, or what an idle task is. */
static char *
process_details (gpointer data, const TtvTimelineRow *r)
{
  const RowTextData *d = data;
  const TtvViewerRowInfo *info = ttv_viewer_history_get_row (d->history, TTV_VIEWER_ROW_PROCESS, r->row);
  const char *const *names = names_in (d->names, r->row);

  if (names)
    {
      g_autofree char *all = g_strjoinv (" → ", (char **) names);

      return g_strdup_printf (_("Names: %s"), all);
    }
  if (info && ttv_timeline_is_idle_task (info))
    return g_strdup_printf (_("The idle task of CPU %d: drawn when the CPU idles"), info->cpu);
  return NULL;
}

static TtvTimelineRowText *
process_row_text_new (TtvViewerHistory *h, GPtrArray *names, TtvTime origin)
{
  RowTextData *d = g_new0 (RowTextData, 1);

  d->history = ttv_viewer_history_ref (h);
  d->names = names ? g_ptr_array_ref (names) : NULL;
  d->origin = origin;
  return ttv_timeline_row_text_new (process_cells, process_details, d, row_text_data_free);
}

static TtvTimelineRow *
new_row (const RowChoice *c, const TtvViewerRowInfo *info, guint row, guint n_threads, TtvTimelineRowText *text)
{
  g_autofree char *name = row_name (c, info, row);
  g_autofree char *label = n_threads > 1 ? g_strdup_printf (_("%s (%u threads)"), name, n_threads)
                                         : g_strdup (name);
  TtvTimelineRow *r = ttv_timeline_row_new (TTV_VIEWER_ROW_PROCESS, row, label);

  ttv_timeline_row_set_text (r, text);
  return r;
}

static gboolean
is_thread_of_other (const TtvViewerRowInfo *info)
{
  return info->cpu < 0 && info->tgid != 0 && info->tgid != TTV_VIEWER_PID_NONE && info->tgid != info->id;
}

/* Links each thread to its process's leader row (id == tgid): the one born
 * last before the thread (pids are reused), else the thread stays on top. */
static void
link_threads (TtvViewerHistory *h, GArray *nodes)
{
  g_autoptr (GHashTable) leaders = g_hash_table_new (NULL, NULL);   /* tgid -> first node + 1 */
  g_autoptr (GArray) next = g_array_new (FALSE, TRUE, sizeof (guint)); /* chain of leaders per tgid */

  g_array_set_size (next, nodes->len);
  for (guint i = 0; i < nodes->len; i++)
    {
      const Node *n = &g_array_index (nodes, Node, i);

      if (n->info->cpu < 0 && n->info->tgid == n->info->id && n->info->id != 0)
        {
          gpointer first = g_hash_table_lookup (leaders, GUINT_TO_POINTER (n->info->id));

          g_array_index (next, guint, i) = GPOINTER_TO_UINT (first);
          g_hash_table_insert (leaders, GUINT_TO_POINTER (n->info->id), GUINT_TO_POINTER (i + 1));
        }
    }
  for (guint i = 0; i < nodes->len; i++)
    {
      Node *n = &g_array_index (nodes, Node, i);
      gint best = -1;

      if (!is_thread_of_other (n->info))
        continue;
      for (guint l = GPOINTER_TO_UINT (g_hash_table_lookup (leaders, GUINT_TO_POINTER (n->info->tgid)));
           l; l = g_array_index (next, guint, l - 1))
        {
          const Node *cand = &g_array_index (nodes, Node, l - 1);

          /* A tgid names a process of the thread's own machine. */
          if (cand->info->machine != n->info->machine)
            continue;
          if (cand->info->birth <= n->info->birth
              && (best < 0 || cand->info->birth > g_array_index (nodes, Node, best).info->birth))
            best = (gint) l - 1;
        }
      if (best < 0)
        continue;
      n->parent = best;
      {
        Node *p = &g_array_index (nodes, Node, best);
        guint idx = i;

        if (!p->children)
          p->children = g_array_new (FALSE, FALSE, sizeof (guint));
        g_array_append_val (p->children, idx);
      }
    }
}

/* The search, worked out once for a build of the rows rather than once a
 * row: the PID it names (-1: none), and whether each name (by pointer: a
 * history's strings and the shared lists of names repeat the same few)
 * holds it, casefolded.  Per row, a formatted PID and a casefolded copy
 * of each name took most of the rows' 30-50 ms at each keystroke on a
 * trace of 79,000 processes. */
typedef struct {
  const char *needle;          /* casefolded; "" for none */
  gint64 pid;
  GHashTable *names;           /* const char * -> MATCH or NO_MATCH */
} Search;

enum { MATCH = 1, NO_MATCH = 2 };

/* The PID @needle names as "%u" formats it (no sign, no leading zero). */
static gint64
needle_pid (const char *needle)
{
  gsize len = strlen (needle);
  guint64 v = 0;

  if (len == 0 || len > 10 || (needle[0] == '0' && len > 1))
    return -1;
  for (gsize i = 0; i < len; i++)
    {
      if (!g_ascii_isdigit (needle[i]))
        return -1;
      v = v * 10 + (guint64) (needle[i] - '0');
    }
  return v <= G_MAXUINT32 ? (gint64) v : -1;
}

static void
search_init (Search *s, const char *needle)
{
  s->needle = needle;
  s->pid = needle_pid (needle);
  s->names = g_hash_table_new (NULL, NULL);
}

static void
search_clear (Search *s)
{
  g_clear_pointer (&s->names, g_hash_table_unref);
}

static gboolean
name_matches (Search *s, const char *name)
{
  gint known = GPOINTER_TO_INT (g_hash_table_lookup (s->names, name));

  if (known == 0)
    {
      g_autofree char *folded = g_utf8_casefold (name ? name : "", -1);

      known = strstr (folded, s->needle) != NULL ? MATCH : NO_MATCH;
      g_hash_table_insert (s->names, (gpointer) name, GINT_TO_POINTER (known));
    }
  return known == MATCH;
}

/* The search matches the PID or any name the process had. */
static gboolean
row_matches (const RowChoice *c, const TtvViewerRowInfo *info, guint row, Search *s)
{
  const char *const *names = names_of (c, row);

  guint64 key = thread_key (info->machine, info->id);

  if (c->filter_pids && !g_hash_table_contains (c->filter_pids, &key))
    return FALSE;
  if (*s->needle)
    {
      if ((gint64) info->id == s->pid || name_matches (s, info->name))
        return TRUE;
      for (guint i = 0; names && names[i]; i++)
        if (name_matches (s, names[i]))
          return TRUE;
      return FALSE;
    }
  return TRUE;
}

static gboolean
choice_expands (const RowChoice *c, guint leader_row)
{
  return c->collapse_all == (c->toggled && g_hash_table_contains (c->toggled, GUINT_TO_POINTER (leader_row + 1)));
}

static gboolean
is_expanded (TtvControlflowViewer *self, guint leader_row)
{
  RowChoice c = { .collapse_all = self->collapse_all, .toggled = self->toggled };

  return choice_expands (&c, leader_row);
}

/* The threads shown (thread_key()s, in row order): `shown-threads` as
 * (machine, pid) pairs, and `shown-pids` as pids alone (the same pid of two
 * machines twice), for scripts and tests.  Both are made from packed
 * arrays, in GVariant's serialised form: a GVariantBuilder would keep a
 * GVariant of each pair and of each number (some 300 bytes a thread, tens
 * of MB for the processes of a large trace). */
typedef struct
{
  guint32 machine;
  guint32 pid;
} ShownThread;

static void
publish_shown (TtvControlflowViewer *self, GArray *keys)
{
  GAction *pids_action = g_action_map_lookup_action (G_ACTION_MAP (self->actions), "shown-pids");
  GAction *threads_action = g_action_map_lookup_action (G_ACTION_MAP (self->actions), "shown-threads");
  g_autoptr (GArray) pids = g_array_sized_new (FALSE, FALSE, sizeof (guint32), keys->len);
  g_autoptr (GArray) threads = g_array_sized_new (FALSE, FALSE, sizeof (ShownThread), keys->len);

  for (guint i = 0; i < keys->len; i++)
    {
      guint64 key = g_array_index (keys, guint64, i);
      ShownThread t = { (guint32) (key >> 32), (guint32) key };

      g_array_append_val (pids, t.pid);
      g_array_append_val (threads, t);
    }
  G_STATIC_ASSERT (sizeof (ShownThread) == 8);   /* (uu): two 32-bit numbers, no padding */
  g_simple_action_set_state (G_SIMPLE_ACTION (pids_action),
                             ttv_view_action_state_array (G_VARIANT_TYPE ("au"), pids->data,
                                                          pids->len * sizeof (guint32)));
  g_simple_action_set_state (G_SIMPLE_ACTION (threads_action),
                             ttv_view_action_state_array (G_VARIANT_TYPE ("a(uu)"), threads->data,
                                                          threads->len * sizeof (ShownThread)));
}

/* A thread shows in its group: it passes the search and hide-idle, and is
 * neither hidden nor pinned (shown at the top instead). */
static gboolean
child_shown (const RowChoice *c, const Node *child)
{
  return child->match && child->busy && !is_hidden (c, child->info)
         && pinned_rank (c, row_key (child->info)) < 0;
}

/* The pinned rows, in the order pinned, whatever the search and hide-idle
 * say: each life of the pid, a process with its threads drawn combined.
 * Above the machines' headers, each says its machine when there are
 * several. */
static void
add_pinned_rows (const RowChoice *c, TtvViewerHistory *h, GArray *nodes, TtvTimelineRowText *text,
                 GPtrArray *rows, GArray *shown)
{
  gboolean machines = ttv_viewer_history_get_n_machines (h) > 1;

  for (guint p = 0; c->pinned && p < c->pinned->len; p++)
    for (guint i = 0; i < nodes->len; i++)
      {
        const Node *node = &g_array_index (nodes, Node, i);
        guint n_threads = 1 + (node->children ? node->children->len : 0);
        TtvTimelineRow *r;

        if (row_key (node->info) != g_array_index (c->pinned, guint64, p) || is_hidden (c, node->info))
          continue;
        r = new_row (c, node->info, node->row, n_threads, text);
        if (node->children)
          {
            r->merged = g_array_sized_new (FALSE, FALSE, sizeof (guint), node->children->len);
            for (guint k = 0; k < node->children->len; k++)
              g_array_append_val (r->merged, g_array_index (nodes, Node,
                                                            g_array_index (node->children, guint, k)).row);
          }
        r->details = g_strdup (_("Pinned at the top (the row's menu unpins it)"));
        if (machines)
          {
            /* TRANSLATORS: a pinned row's name and its machine's. */
            const char *machine = ttv_viewer_history_get_machine_name (h, node->info->machine);
            g_autofree char *label = g_strdup_printf (_("%s (%s)"), r->label, machine);

            r->label = g_intern_string (label);
          }
        r->pinned = TRUE;
        g_ptr_array_add (rows, r);
        if (shown)
          {
            guint64 key = thread_key (node->info->machine, node->info->id);

            g_array_append_val (shown, key);
          }
      }
}

/* Readies @memo (may be NULL) for @n process rows in [@t0, @t1):
 * forgotten when it was for another window, or emptied. */
static void
busy_memo_prepare (BusyMemo *memo, guint n, TtvTime t0, TtvTime t1)
{
  if (memo == NULL || (memo->t0 == t0 && memo->t1 == t1 && memo->rows->len == n))
    return;
  memo->t0 = t0;
  memo->t1 = t1;
  g_byte_array_set_size (memo->rows, n);
  memset (memo->rows->data, 0, n);
}

/* Whether process row @row runs or waits for a CPU in [@t0, @t1), from
 * @memo (prepared for them) when it knows. */
static gboolean
row_busy (BusyMemo *memo, TtvViewerHistory *h, guint row, TtvTime t0, TtvTime t1)
{
  if (memo && memo->rows->data[row])
    return memo->rows->data[row] == BUSY;
  gboolean busy = ttv_timeline_row_is_busy (h, TTV_VIEWER_ROW_PROCESS, row, t0, t1);
  if (memo)
    memo->rows->data[row] = busy ? BUSY : IDLE;
  return busy;
}

/* The rows of @h as @c says: a group (leader + threads) shows when the
 * leader or one of its threads passes hide-idle, the search and the
 * filter; a match inside a group that its leader does not match opens the
 * group, showing the matching threads.  @shown (may be NULL) gets the
 * rows' thread_key()s, in order. */
static GPtrArray *
build_rows (TtvViewerHistory *h, TtvTabState *state, const RowChoice *c, GArray *shown)
{
  g_autoptr (GArray) nodes = g_array_new (FALSE, FALSE, sizeof (Node));
  g_autoptr (GArray) top = g_array_new (FALSE, FALSE, sizeof (guint));
  GPtrArray *rows;
  g_autoptr (TtvTimelineRowText) text = NULL;   /* shared by the rows */
  TtvTime t0, t1, origin, span_end;
  SortData sd;
  guint n, n_machines = ttv_viewer_history_get_n_machines (h);
  gint header_of = -1;         /* the machine whose header row is the last added */

  Search search;

  ttv_tab_state_get_time_window (state, &t0, &t1);
  ttv_tab_state_get_time_span (state, &origin, &span_end);
  search_init (&search, c->needle);
  n = ttv_viewer_history_get_n_rows (h, TTV_VIEWER_ROW_PROCESS);
  if (c->hide_idle)
    busy_memo_prepare (c->busy, n, t0, t1);
  for (guint i = 0; i < n; i++)
    {
      Node node = { ttv_viewer_history_get_row (h, TTV_VIEWER_ROW_PROCESS, i), i, -1, NULL, TRUE, TRUE };

      /* Running or waiting for a CPU in the window (a few intervals read
       * per row); the idle tasks are idle by nature. */
      if (c->hide_idle)
        node.busy = !ttv_timeline_is_idle_task (node.info) && row_busy (c->busy, h, i, t0, t1);
      node.match = row_matches (c, node.info, i, &search);
      /* The followed thread stays in sight. */
      if (is_thread (node.info, c->followed_machine, c->followed))
        node.match = node.busy = TRUE;
      g_array_append_val (nodes, node);
    }
  search_clear (&search);
  link_threads (h, nodes);
  sd.nodes = nodes;
  sd.key = c->key;
  sd.descending = c->descending;
  for (guint i = 0; i < nodes->len; i++)
    {
      Node *node = &g_array_index (nodes, Node, i);

      if (node->parent < 0)
        g_array_append_val (top, i);
      if (node->children)
        g_array_sort_with_data (node->children, compare_nodes, &sd);
    }
  g_array_sort_with_data (top, compare_nodes, &sd);

  rows = g_ptr_array_new_full (nodes->len, (GDestroyNotify) ttv_timeline_row_free);
  text = process_row_text_new (h, c->names, origin);
  add_pinned_rows (c, h, nodes, text, rows, shown);
  for (guint t = 0; t < top->len; t++)
    {
      const Node *node = &g_array_index (nodes, Node, g_array_index (top, guint, t));
      gboolean self_ok = node->match && node->busy;

      if (is_hidden (c, node->info) || pinned_rank (c, row_key (node->info)) >= 0)
        continue;
      guint n_ok = 0, n_threads = 1 + (node->children ? node->children->len : 0);
      gboolean expanded, forced;
      TtvTimelineRow *r;

      for (guint k = 0; node->children && k < node->children->len; k++)
        {
          const Node *child = &g_array_index (nodes, Node, g_array_index (node->children, guint, k));

          n_ok += child_shown (c, child);
        }
      if (!self_ok && n_ok == 0)
        continue;
      if (n_machines > 1 && header_of != (gint) node->info->machine)
        {
          header_of = (gint) node->info->machine;
          g_ptr_array_add (rows, ttv_timeline_machine_row_new (h, node->info->machine));
        }
      /* A match inside the group, not on the leader: shown open. */
      forced = !node->match && n_ok > 0;
      expanded = forced || choice_expands (c, node->row);
      /* "(N threads)" only on a row that draws them combined. */
      r = new_row (c, node->info, node->row, n_ok > 0 && !expanded ? n_threads : 1, text);
      if (n_ok > 0)
        r->expander = expanded ? TTV_TIMELINE_EXPANDER_EXPANDED : TTV_TIMELINE_EXPANDER_COLLAPSED;
      if (n_ok > 0 && !expanded)
        {
          /* Collapsed: the row shows the whole process (every thread). */
          r->merged = g_array_sized_new (FALSE, FALSE, sizeof (guint), node->children->len);
          for (guint k = 0; k < node->children->len; k++)
            g_array_append_val (r->merged, g_array_index (nodes, Node,
                                                          g_array_index (node->children, guint, k)).row);
        }
      g_ptr_array_add (rows, r);
      if (shown)
        {
          guint64 key = thread_key (node->info->machine, node->info->id);

          g_array_append_val (shown, key);
        }
      for (guint k = 0; expanded && node->children && k < node->children->len; k++)
        {
          const Node *child = &g_array_index (nodes, Node, g_array_index (node->children, guint, k));

          if (!child_shown (c, child))
            continue;
          r = new_row (c, child->info, child->row, 1, text);
          r->depth = 1;
          g_ptr_array_add (rows, r);
          if (shown)
            {
              guint64 key = thread_key (child->info->machine, child->info->id);

              g_array_append_val (shown, key);
            }
        }
    }
  for (guint i = 0; i < nodes->len; i++)
    g_clear_pointer (&g_array_index (nodes, Node, i).children, g_array_unref);
  return rows;
}

static void show_followed (TtvControlflowViewer *self);

/* Rebuilds the row list from the history and the toolbar's choices. */
static void
refresh_rows (TtvControlflowViewer *self)
{
  TtvViewerHistory *h = ttv_timeline_get_history (self->timeline);
  g_autoptr (GArray) shown = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autofree char *needle = g_utf8_casefold (gtk_entry_get_text (GTK_ENTRY (self->search)), -1);
  RowChoice c = {
    sort_key (self), flag (self, "sort-descending"), flag (self, "hide-idle"), needle, self->names,
    self->filter_pids, self->collapse_all, self->toggled, self->hidden, self->pinned, self->followed,
    self->followed_machine, &self->busy,
  };
  g_autofree char *text = NULL;
  GPtrArray *rows;
  guint n, n_shown = 0;

  if (!h)
    {
      gtk_label_set_text (GTK_LABEL (self->count_label), "");
      ttv_timeline_set_rows (self->timeline, NULL);
      publish_shown (self, shown);
      return;
    }
  rows = build_rows (h, self->state, &c, shown);
  n = ttv_viewer_history_get_n_rows (h, TTV_VIEWER_ROW_PROCESS);
  for (guint i = 0; i < rows->len; i++)
    n_shown += !ttv_timeline_row_is_machine (g_ptr_array_index (rows, i));
  text = self->filter_pending && !self->filter_pids
         ? g_strdup_printf (_("%u of %u processes, filtering…"), n_shown, n)
         : g_strdup_printf (_("%u of %u processes"), n_shown, n);
  if (self->hidden && g_hash_table_size (self->hidden) > 0)
    {
      g_autofree char *more = g_strdup_printf (_("%s, %u hidden"), text, g_hash_table_size (self->hidden));

      g_free (text);
      text = g_steal_pointer (&more);
    }
  if (self->followed != TTV_VIEWER_PID_NONE)
    {
      g_autofree char *more = g_strdup_printf (_("%s; following %u"), text, self->followed);

      g_free (text);
      text = g_steal_pointer (&more);
    }
  gtk_label_set_text (GTK_LABEL (self->count_label), text);
  ttv_timeline_set_rows (self->timeline, rows);
  publish_shown (self, shown);
  show_followed (self);
}

/* --- Rows of the tab's filter ------------------------------------------------ */

static void
filter_job_free (gpointer data)
{
  FilterJob *job = data;

  if (job->self && job->self->job == job)
    job->self->job = NULL;
  g_clear_pointer (&job->pids, g_hash_table_unref);
  g_free (job);
}

static gboolean
filter_event (TtvEventRequest *request, const TtvViewerEvent *event, gpointer data)
{
  FilterJob *job = data;
  TtvViewerProcessInfo info;

  if (job->self && ttv_event_request_get_process (request, &info) && info.pid != TTV_VIEWER_PID_NONE)
    {
      guint machine = ttv_tab_state_get_trace_machine (job->self->state, ttv_viewer_event_get_trace (event));
      guint64 key = thread_key (machine, info.pid);

      if (!g_hash_table_contains (job->pids, &key))
        g_hash_table_add (job->pids, g_memdup2 (&key, sizeof key));
    }
  return TRUE;
}

static void
filter_done (TtvEventRequest *request, TtvRequestStatus status, const GError *error, gpointer data)
{
  FilterJob *job = data;
  TtvControlflowViewer *self = job->self;

  if (!self || self->job != job)
    return;
  self->job = NULL;
  if (status == TTV_REQUEST_CANCELLED)
    return;   /* made stale: a newer request follows */
  if (status == TTV_REQUEST_FAILED)
    g_warning ("control flow: filtering failed: %s", error ? error->message : "?");
  g_clear_pointer (&self->filter_pids, g_hash_table_unref);
  self->filter_pids = g_steal_pointer (&job->pids);
  self->filter_pending = FALSE;
  ttv_timeline_set_status (self->timeline, NULL);
  refresh_rows (self);
}

/* Asks the tab for the events of the window that match its filter, with
 * the process running on each one's CPU.  Keeps showing the previous rows
 * until the answer is complete. */
static void
start_filter (TtvControlflowViewer *self)
{
  const char *filter = ttv_tab_state_get_filter (self->state);
  g_autoptr (TtvViewerHistory) h = ttv_tab_state_dup_history (self->state);
  TtvTime t0, t1;
  FilterJob *job;

  if (self->job)
    {
      self->job->self = NULL;
      self->job = NULL;
    }
  ttv_tab_state_cancel_requests (self->state, self);
  if (!filter || !*filter)
    {
      gboolean had = self->filter_pids != NULL || self->filter_pending;

      g_clear_pointer (&self->filter_pids, g_hash_table_unref);
      self->filter_pending = FALSE;
      ttv_timeline_set_status (self->timeline, NULL);
      if (had)
        refresh_rows (self);
      return;
    }
  self->filter_pending = TRUE;
  ttv_timeline_set_status (self->timeline, _("filtering…"));
  /* The pids come with the state: wait for it ("state-ready"). */
  if (!h || !ttv_tab_state_is_state_ready (self->state))
    return;
  ttv_tab_state_get_time_window (self->state, &t0, &t1);
  job = g_new0 (FilterJob, 1);
  job->self = self;
  job->pids = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  self->job = job;
  ttv_tab_state_request_time_range (self->state, self, t0, t1, 0,
                                    TTV_REQUEST_FILTERED | TTV_REQUEST_WITH_STATE | TTV_REQUEST_REPLACE
                                    | TTV_REQUEST_STALE_ON_FILTER | TTV_REQUEST_STALE_ON_TIME_WINDOW,
                                    filter_event, filter_done, job, filter_job_free);
}

static void
names_done (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr (GError) error = NULL;
  GPtrArray *names = g_task_propagate_pointer (G_TASK (result), &error);
  TtvControlflowViewer *self = data;   /* owned reference */

  if (names && self->state)
    {
      g_clear_pointer (&self->names, g_ptr_array_unref);
      self->names = names;
      g_clear_object (&self->names_cancel);
      refresh_rows (self);
    }
  else if (names)
    g_ptr_array_unref (names);
  else if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_warning ("control flow: process names: %s", error->message);
  g_object_unref (self);
}

static void
names_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancel)
{
  GError *error = NULL;
  GPtrArray *names = ttv_viewer_history_dup_all_process_names (data, cancel, &error);

  if (names)
    g_task_return_pointer (task, names, (GDestroyNotify) g_ptr_array_unref);
  else
    g_task_return_error (task, error);
}

/* The names the processes had come later, from a worker thread, once the
 * view is shown (a headless render or a hidden tab does not pay for it). */
static void
find_names (TtvControlflowViewer *self)
{
  TtvViewerHistory *h = ttv_timeline_get_history (self->timeline);
  g_autoptr (GTask) task = NULL;

  if (!h || self->names || self->names_cancel)
    return;
  self->names_cancel = g_cancellable_new ();
  task = g_task_new (NULL, self->names_cancel, names_done, g_object_ref (self));
  g_task_set_task_data (task, ttv_viewer_history_ref (h), (GDestroyNotify) ttv_viewer_history_unref);
  g_task_run_in_thread (task, names_thread);
}

/* A filter waits for the state and the history: it can start now. */
static void
start_waiting_filter (TtvControlflowViewer *self)
{
  if (self->filter_pending && !self->job)
    start_filter (self);
}

static void
update_show_hidden (TtvControlflowViewer *self)
{
  GAction *a = g_action_map_lookup_action (G_ACTION_MAP (self->actions), "show-hidden");

  g_simple_action_set_enabled (G_SIMPLE_ACTION (a), g_hash_table_size (self->hidden) > 0);
}

static void
history_changed (TtvControlflowViewer *self)
{
  g_autoptr (TtvViewerHistory) h = ttv_tab_state_dup_history (self->state);

  start_waiting_filter (self);
  if (h == ttv_timeline_get_history (self->timeline))
    return;
  g_hash_table_remove_all (self->toggled);
  g_byte_array_set_size (self->busy.rows, 0);
  g_clear_pointer (&self->names, g_ptr_array_unref);
  if (self->names_cancel)
    g_cancellable_cancel (self->names_cancel);
  g_clear_object (&self->names_cancel);
  /* The rows the user hid and pinned in this traceset, last time too. */
  g_hash_table_remove_all (self->hidden);
  g_array_set_size (self->pinned, 0);
  ttv_controlflow_rows_load (self->state, self->hidden, self->pinned);
  update_show_hidden (self);
  ttv_timeline_set_history (self->timeline, h);
  refresh_rows (self);
  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    find_names (self);
}

static void
window_changed (TtvControlflowViewer *self)
{
  if (self->filter_pending || self->filter_pids)
    start_filter (self);
  if (flag (self, "hide-idle"))
    refresh_rows (self);
  else
    show_followed (self);
}

static void
change_state (GSimpleAction *action, GVariant *value, gpointer data)
{
  g_simple_action_set_state (action, value);
  refresh_rows (data);
}

/* The sort key and direction, shown in the combo box and the titles. */
static void
change_sort (GSimpleAction *action, GVariant *value, gpointer data)
{
  TtvControlflowViewer *self = data;

  g_simple_action_set_state (action, value);
  g_signal_handlers_block_matched (self->sort_combo, G_SIGNAL_MATCH_DATA, 0, 0, NULL, NULL, self);
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->sort_combo), g_variant_get_string (value, NULL));
  g_signal_handlers_unblock_matched (self->sort_combo, G_SIGNAL_MATCH_DATA, 0, 0, NULL, NULL, self);
  ttv_timeline_set_sort_column (self->timeline, (gint) sort_key (self), flag (self, "sort-descending"));
  refresh_rows (self);
}

static void
change_descending (GSimpleAction *action, GVariant *value, gpointer data)
{
  TtvControlflowViewer *self = data;

  g_simple_action_set_state (action, value);
  ttv_timeline_set_sort_column (self->timeline, (gint) sort_key (self), g_variant_get_boolean (value));
  refresh_rows (self);
}

/* The direction a key sorts in when chosen: the largest first for an
 * amount (CPU time: who used the CPU most), else ascending. */
static gboolean
starts_descending (SortKey key)
{
  return key == SORT_CPU_TIME;
}

/* Sorts by @key, in its first direction. */
static void
sort_by (TtvControlflowViewer *self, SortKey key)
{
  GActionGroup *group = G_ACTION_GROUP (self->actions);

  g_action_group_change_action_state (group, "sort-descending", g_variant_new_boolean (starts_descending (key)));
  g_action_group_change_action_state (group, "sort", g_variant_new_string (sort_ids[key]));
}

/* A click on a column's title sorts by it; on the sorted one, reverses. */
static void
column_clicked (TtvControlflowViewer *self, guint column)
{
  if (column >= SORT_N_KEYS)
    return;
  if ((SortKey) column == sort_key (self))
    g_action_group_change_action_state (G_ACTION_GROUP (self->actions), "sort-descending",
                                        g_variant_new_boolean (!flag (self, "sort-descending")));
  else
    sort_by (self, (SortKey) column);
}

static void
set_all (TtvControlflowViewer *self, gboolean collapse)
{
  self->collapse_all = collapse;
  g_hash_table_remove_all (self->toggled);
  refresh_rows (self);
}

static void
toggle_all (TtvControlflowViewer *self, gboolean expand)
{
  set_all (self, !expand);
}

static void
act_expand_all (GSimpleAction *action, GVariant *param, gpointer data)
{
  set_all (data, FALSE);
}

static void
act_collapse_all (GSimpleAction *action, GVariant *param, gpointer data)
{
  set_all (data, TRUE);
}

/* "toggle-row" of the time line, and the action (u: a display index) that
 * scripts and tests use. */
static void
toggle_row (TtvControlflowViewer *self, guint index, gboolean expand)
{
  const TtvTimelineRow *r = ttv_timeline_get_row (self->timeline, index);
  gpointer key;

  if (!r || r->expander == TTV_TIMELINE_EXPANDER_NONE)
    return;
  key = GUINT_TO_POINTER (r->row + 1);
  if (is_expanded (self, r->row) == expand)
    return;
  if (!g_hash_table_remove (self->toggled, key))
    g_hash_table_add (self->toggled, key);
  refresh_rows (self);
}

static void
act_toggle_row (GSimpleAction *action, GVariant *param, gpointer data)
{
  TtvControlflowViewer *self = data;
  const TtvTimelineRow *r = ttv_timeline_get_row (self->timeline, g_variant_get_uint32 (param));

  if (r)
    toggle_row (self, g_variant_get_uint32 (param), r->expander == TTV_TIMELINE_EXPANDER_COLLAPSED);
}

static void
sort_changed (GtkComboBox *combo, TtvControlflowViewer *self)
{
  const char *id = gtk_combo_box_get_active_id (combo);

  for (guint k = 0; id && k < SORT_N_KEYS; k++)
    if (strcmp (id, sort_ids[k]) == 0)
      sort_by (self, (SortKey) k);
}

/* --- The row menu: follow, filter, hide, pin ---------------------------------- */

/* The followed thread's row is the keyboard row, scrolled into view (as
 * the time moves, rows come and go with hide-idle and the filter). */
static void
show_followed (TtvControlflowViewer *self)
{
  gint row;

  if (self->followed == TTV_VIEWER_PID_NONE)
    return;
  row = ttv_timeline_find_pid_row (self->timeline, self->followed_machine, self->followed);
  if (row >= 0)
    ttv_timeline_set_cursor (self->timeline, row);
}

static void
set_followed (TtvControlflowViewer *self, guint machine, guint32 tid)
{
  GAction *stop = g_action_map_lookup_action (G_ACTION_MAP (self->actions), "stop-following");

  self->followed = tid;
  self->followed_machine = machine;
  g_simple_action_set_enabled (G_SIMPLE_ACTION (stop), tid != TTV_VIEWER_PID_NONE);
  if (tid != TTV_VIEWER_PID_NONE)
    ttv_tab_state_select_thread_on (self->state, machine, tid);
  refresh_rows (self);
}

/* The target: the thread's row key (its machine and tid). */
static void
act_follow_thread (GSimpleAction *action, GVariant *param, gpointer data)
{
  guint64 key = g_variant_get_uint64 (param);
  guint32 tid = (guint32) key;

  if (tid != 0 && tid < 0xff000000u)
    set_followed (data, (guint) (key >> 32), tid);
}

static void
act_stop_following (GSimpleAction *action, GVariant *param, gpointer data)
{
  set_followed (data, 0, TTV_VIEWER_PID_NONE);
}

/* The tab's filter becomes the process (docs/filters.md: state.pid is the
 * thread group); the filter bar shows it, where the user edits or clears it. */
static void
act_filter_process (GSimpleAction *action, GVariant *param, gpointer data)
{
  TtvControlflowViewer *self = data;

  ttv_timeline_filter_on (self->timeline, "state.pid", g_variant_get_uint32 (param));
}

static void
act_hide_row (GSimpleAction *action, GVariant *param, gpointer data)
{
  TtvControlflowViewer *self = data;

  guint64 key = g_variant_get_uint64 (param);

  g_hash_table_add (self->hidden, g_memdup2 (&key, sizeof key));
  ttv_controlflow_rows_save (self->state, self->hidden, self->pinned);
  update_show_hidden (self);
  refresh_rows (self);
}

static void
act_show_hidden (GSimpleAction *action, GVariant *param, gpointer data)
{
  TtvControlflowViewer *self = data;

  g_hash_table_remove_all (self->hidden);
  ttv_controlflow_rows_save (self->state, self->hidden, self->pinned);
  update_show_hidden (self);
  refresh_rows (self);
}

/* Pins the row at the top, or unpins it. */
static void
act_pin_row (GSimpleAction *action, GVariant *param, gpointer data)
{
  TtvControlflowViewer *self = data;
  guint64 key = g_variant_get_uint64 (param);
  RowChoice c = { .pinned = self->pinned };
  gint rank = pinned_rank (&c, key);

  if (rank >= 0)
    g_array_remove_index (self->pinned, (guint) rank);
  else
    g_array_append_val (self->pinned, key);
  ttv_controlflow_rows_save (self->state, self->hidden, self->pinned);
  refresh_rows (self);
  /* The row keeps the keyboard where it went. */
  {
    TtvViewerHistory *h = ttv_timeline_get_history (self->timeline);

    for (guint i = 0; h && i < ttv_timeline_get_n_rows (self->timeline); i++)
      {
        const TtvTimelineRow *r = ttv_timeline_get_row (self->timeline, i);

        const TtvViewerRowInfo *info = ttv_viewer_history_get_row (h, r->kind, r->row);

        if (info && row_key (info) == key)
          {
            ttv_timeline_set_cursor (self->timeline, (gint) i);
            break;
          }
      }
  }
}

/* A right click on a row's name, the Menu key or Shift+F10: what can be
 * done with that row (Trace Compass's and LTTV's row menus). */
static void
row_menu (TtvControlflowViewer *self, guint index, const GdkEvent *event)
{
  const TtvTimelineRow *r = ttv_timeline_get_row (self->timeline, index);
  TtvViewerHistory *h = ttv_timeline_get_history (self->timeline);
  const TtvViewerRowInfo *info = r && h ? ttv_viewer_history_get_row (h, r->kind, r->row) : NULL;
  g_autoptr (GMenu) menu = g_menu_new ();
  g_autoptr (GMenu) follow = g_menu_new ();
  g_autoptr (GMenu) rows = g_menu_new ();
  g_autoptr (GMenu) more = g_menu_new ();
  RowChoice c = { .pinned = self->pinned };
  guint64 key;
  if (!info)
    return;
  key = row_key (info);
  if (is_thread (info, self->followed_machine, self->followed))
    g_menu_append (follow, _("Stop _Following"), "controlflow.stop-following");
  else if (info->id != 0)
    ttv_timeline_menu_append_key (follow, _("_Follow This Thread"), "controlflow.follow-thread", key);
  ttv_timeline_menu_append (follow, _("Filter on This _Process"), "controlflow.filter-process",
               info->tgid != 0 && info->tgid != TTV_VIEWER_PID_NONE ? info->tgid : info->id);
  g_menu_append_section (menu, NULL, G_MENU_MODEL (follow));
  ttv_timeline_menu_append_key (rows, _("_Hide Row"), "controlflow.hide-row", key);
  ttv_timeline_menu_append_key (rows, pinned_rank (&c, key) >= 0 ? _("_Unpin Row") : _("_Pin Row to the Top"),
               "controlflow.pin-row", key);
  g_menu_append_section (menu, NULL, G_MENU_MODEL (rows));
  g_menu_append (more, _("_Show Hidden Rows"), "controlflow.show-hidden");
  g_menu_append (more, _("Wakeup Arrows of the Selected _Thread"), "controlflow.thread-arrows");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (more));
  ttv_timeline_popup_row_menu (self->timeline, G_MENU_MODEL (menu), index, event);
}

static void
ttv_controlflow_viewer_dispose (GObject *object)
{
  TtvControlflowViewer *self = TTV_CONTROLFLOW_VIEWER (object);

  if (self->job)
    {
      self->job->self = NULL;
      self->job = NULL;
    }
  if (self->state)
    {
      for (guint i = 0; i < G_N_ELEMENTS (self->handlers); i++)
        g_clear_signal_handler (&self->handlers[i], self->state);
      ttv_tab_state_cancel_requests (self->state, self);
    }
  g_clear_object (&self->state);
  g_clear_object (&self->actions);
  g_clear_pointer (&self->filter_pids, g_hash_table_unref);
  if (self->names_cancel)
    g_cancellable_cancel (self->names_cancel);
  g_clear_object (&self->names_cancel);
  g_clear_pointer (&self->names, g_ptr_array_unref);
  G_OBJECT_CLASS (ttv_controlflow_viewer_parent_class)->dispose (object);
}

static void
ttv_controlflow_viewer_finalize (GObject *object)
{
  TtvControlflowViewer *self = TTV_CONTROLFLOW_VIEWER (object);

  g_hash_table_unref (self->toggled);
  g_hash_table_unref (self->hidden);
  g_array_unref (self->pinned);
  g_byte_array_unref (self->busy.rows);
  G_OBJECT_CLASS (ttv_controlflow_viewer_parent_class)->finalize (object);
}

static void
ttv_controlflow_viewer_class_init (TtvControlflowViewerClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = ttv_controlflow_viewer_dispose;
  G_OBJECT_CLASS (klass)->finalize = ttv_controlflow_viewer_finalize;
}

static void
ttv_controlflow_viewer_init (TtvControlflowViewer *self)
{
  self->toggled = g_hash_table_new (NULL, NULL);
  self->hidden = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  self->pinned = g_array_new (FALSE, FALSE, sizeof (guint64));
  self->followed = TTV_VIEWER_PID_NONE;
  self->busy.rows = g_byte_array_new ();
}

/* The keyboard row moved to a thread: the tab's selected thread. */
static void
cursor_changed (TtvControlflowViewer *self)
{
  gint c = ttv_timeline_get_cursor (self->timeline);
  const TtvTimelineRow *r = c >= 0 ? ttv_timeline_get_row (self->timeline, (guint) c) : NULL;
  TtvViewerHistory *history = ttv_timeline_get_history (self->timeline);
  const TtvViewerRowInfo *info = r && history && r->kind == TTV_VIEWER_ROW_PROCESS
                                 ? ttv_viewer_history_get_row (history, r->kind, r->row) : NULL;
  if (info && info->id != 0)
    ttv_tab_state_select_thread_on (self->state, info->machine, info->id);
}

/* Another view selected a thread: its row becomes the keyboard row. */
static void
selected_thread_changed (TtvControlflowViewer *self)
{
  guint32 tid = ttv_tab_state_get_selected_thread (self->state);
  guint machine = ttv_tab_state_get_selected_machine (self->state);
  gint row;

  /* The user picked another thread: the follow ends. */
  if (self->followed != TTV_VIEWER_PID_NONE && (tid != self->followed || machine != self->followed_machine))
    set_followed (self, 0, TTV_VIEWER_PID_NONE);
  row = tid == TTV_VIEWER_PID_NONE ? -1 : ttv_timeline_find_pid_row (self->timeline, machine, tid);
  if (row >= 0 && row != ttv_timeline_get_cursor (self->timeline))
    ttv_timeline_set_cursor (self->timeline, row);
}

GtkWidget *
ttv_controlflow_viewer_new (TtvTabState *state)
{
  static const GActionEntry actions[] = {
    { "sort", NULL, "s", "'pid'", change_sort, { 0 } },
    { "sort-descending", NULL, NULL, "false", change_descending, { 0 } },
    { "hide-idle", NULL, NULL, "false", change_state, { 0 } },
    { "expand-all", act_expand_all, NULL, NULL, NULL, { 0 } },
    { "collapse-all", act_collapse_all, NULL, NULL, NULL, { 0 } },
    { "toggle-row", act_toggle_row, "u", NULL, NULL, { 0 } },
    { "follow-thread", act_follow_thread, "t", NULL, NULL, { 0 } },
    { "stop-following", act_stop_following, NULL, NULL, NULL, { 0 } },
    { "filter-process", act_filter_process, "u", NULL, NULL, { 0 } },
    { "hide-row", act_hide_row, "t", NULL, NULL, { 0 } },
    { "show-hidden", act_show_hidden, NULL, NULL, NULL, { 0 } },
    { "pin-row", act_pin_row, "t", NULL, NULL, { 0 } },
    /* Read-only: the pids of the rows shown, in order (tests, scripts). */
    { "shown-pids", NULL, NULL, "@au []", NULL, { 0 } },
    { "shown-threads", NULL, NULL, "@a(uu) []", NULL, { 0 } },
  };
  TtvTimelineColumn columns[N_COLUMNS];
  TtvControlflowViewer *self = g_object_new (TTV_TYPE_CONTROLFLOW_VIEWER,
                                             "orientation", GTK_ORIENTATION_VERTICAL, NULL);
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *w;

  self->state = g_object_ref (state);
  self->actions = g_simple_action_group_new ();
  g_action_map_add_action_entries (G_ACTION_MAP (self->actions), actions, G_N_ELEMENTS (actions), self);
  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (G_ACTION_MAP (self->actions),
                                                                            "stop-following")), FALSE);
  update_show_hidden (self);
  self->timeline = TTV_TIMELINE (ttv_timeline_new (state, legend, G_N_ELEMENTS (legend)));
  get_columns (columns);
  ttv_timeline_set_columns (self->timeline, columns, N_COLUMNS);
  ttv_timeline_set_label_width (self->timeline, TTV_TIMELINE_PROCESS_LABEL_WIDTH);
  ttv_timeline_set_sort_column (self->timeline, SORT_PID, FALSE);
  ttv_timeline_add_actions (self->timeline, G_ACTION_MAP (self->actions));
  gtk_widget_insert_action_group (GTK_WIDGET (self), "controlflow", G_ACTION_GROUP (self->actions));

  gtk_container_set_border_width (GTK_CONTAINER (bar), 4);
  gtk_box_pack_start (GTK_BOX (bar), gtk_label_new (_("Sort by:")), FALSE, FALSE, 0);
  w = self->sort_combo = gtk_combo_box_text_new ();
  gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (w), "pid", _("PID"));
  gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (w), "name", _("Name"));
  gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (w), "tgid", _("TGID"));
  gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (w), "ppid", _("PPID"));
  gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (w), "cpu-time", _("CPU time"));
  gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (w), "birth", _("Birth"));
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (w), "pid");
  g_signal_connect (w, "changed", G_CALLBACK (sort_changed), self);
  gtk_box_pack_start (GTK_BOX (bar), w, FALSE, FALSE, 0);
  self->search = gtk_search_entry_new ();
  gtk_entry_set_placeholder_text (GTK_ENTRY (self->search), _("Find a process (any name it had, or PID)"));
  gtk_entry_set_width_chars (GTK_ENTRY (self->search), 28);
  g_signal_connect_swapped (self->search, "search-changed", G_CALLBACK (refresh_rows), self);
  gtk_box_pack_start (GTK_BOX (bar), self->search, FALSE, FALSE, 0);
  w = gtk_check_button_new_with_mnemonic (_("_Hide idle"));
  gtk_widget_set_tooltip_text (w, _("Show only the processes that run or wait for a CPU in the time "
                                    "window (the CPUs' idle tasks are hidden too)"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (w), "controlflow.hide-idle");
  gtk_box_pack_start (GTK_BOX (bar), w, FALSE, FALSE, 0);
  {
    g_autoptr (GMenu) menu = g_menu_new ();
    g_autoptr (GMenu) groups = g_menu_new ();
    g_autoptr (GMenu) view = g_menu_new ();
    g_autoptr (GMenu) other = g_menu_new ();

    g_menu_append (groups, _("_Expand All"), "controlflow.expand-all");
    g_menu_append (groups, _("C_ollapse All"), "controlflow.collapse-all");
    g_menu_append (groups, _("_Show Hidden Rows"), "controlflow.show-hidden");
    g_menu_append (groups, _("Stop _Following"), "controlflow.stop-following");
    g_menu_append_section (menu, NULL, G_MENU_MODEL (groups));
    g_menu_append (view, _("_Wakeup and Fork Arrows"), "controlflow.show-arrows");
    g_menu_append (view, _("Wakeup Arrows of the Selected _Thread"), "controlflow.thread-arrows");
    g_menu_append (view, _("_Reverse Sort Order"), "controlflow.sort-descending");
    g_menu_append_section (menu, NULL, G_MENU_MODEL (view));
    g_menu_append (other, _("Co_lours…"), "controlflow.edit-colors");
    g_menu_append (other, _("E_xport…"), "controlflow.export-dialog");
    g_menu_append_section (menu, NULL, G_MENU_MODEL (other));
    w = gtk_menu_button_new ();
    gtk_widget_set_name (w, "controlflow-menu");
    gtk_button_set_image (GTK_BUTTON (w), gtk_image_new_from_icon_name ("open-menu-symbolic",
                                                                       GTK_ICON_SIZE_BUTTON));
    gtk_widget_set_tooltip_text (w, _("Expand or collapse every process, arrows, colours, export"));
    gtk_menu_button_set_menu_model (GTK_MENU_BUTTON (w), G_MENU_MODEL (menu));
    gtk_box_pack_end (GTK_BOX (bar), w, FALSE, FALSE, 0);
  }
  w = gtk_toggle_button_new ();
  gtk_widget_set_name (w, "controlflow-arrows");
  gtk_button_set_image (GTK_BUTTON (w), gtk_image_new_from_icon_name ("mail-forward-symbolic",
                                                                     GTK_ICON_SIZE_BUTTON));
  gtk_widget_set_tooltip_text (w, _("Wakeup and fork arrows (drawn when few enough are visible)"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (w), "controlflow.show-arrows");
  gtk_box_pack_end (GTK_BOX (bar), w, FALSE, FALSE, 0);
  self->count_label = gtk_label_new (NULL);
  gtk_widget_set_opacity (self->count_label, 0.7);
  gtk_widget_set_tooltip_text (self->count_label, _("Ctrl+wheel zooms, drag pans, Shift+wheel scrolls "
                                                    "in time, click sets the current time, "
                                                    "right-drag or Shift+drag selects; Left/Right go "
                                                    "to the selected row's previous/next state change, "
                                                    "Up/Down to another row; a click on a triangle "
                                                    "or +/- open and close a process's threads, * and "
                                                    "/ all of them; a click on a column title sorts, "
                                                    "its edge resizes"));
  gtk_box_pack_end (GTK_BOX (bar), self->count_label, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (self), bar, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (self), GTK_WIDGET (self->timeline), TRUE, TRUE, 0);

  self->handlers[0] = g_signal_connect_swapped (state, "history-changed", G_CALLBACK (history_changed), self);
  self->handlers[4] = g_signal_connect_swapped (state, "state-ready", G_CALLBACK (start_waiting_filter), self);
  self->handlers[1] = g_signal_connect_swapped (state, "traceset-changed", G_CALLBACK (history_changed), self);
  self->handlers[2] = g_signal_connect_swapped (state, "time-window-changed", G_CALLBACK (window_changed), self);
  self->handlers[3] = g_signal_connect_swapped (state, "filter-changed", G_CALLBACK (start_filter), self);
  g_signal_connect_swapped (self->timeline, "toggle-row", G_CALLBACK (toggle_row), self);
  g_signal_connect_swapped (self->timeline, "toggle-all", G_CALLBACK (toggle_all), self);
  g_signal_connect_swapped (self->timeline, "column-clicked", G_CALLBACK (column_clicked), self);
  g_signal_connect_swapped (self->timeline, "cursor-changed", G_CALLBACK (cursor_changed), self);
  g_signal_connect_swapped (self->timeline, "row-menu", G_CALLBACK (row_menu), self);
  self->handlers[6] = g_signal_connect_swapped (state, "current-time-changed", G_CALLBACK (show_followed), self);
  self->handlers[5] = g_signal_connect_swapped (state, "selected-thread-changed", G_CALLBACK (selected_thread_changed),
                                                self);
  g_signal_connect (self, "map", G_CALLBACK (find_names), NULL);
  history_changed (self);
  start_filter (self);
  gtk_widget_show_all (GTK_WIDGET (self));
  return GTK_WIDGET (self);
}

/* ttv --render controlflow: every process row of the history, as a new
 * viewer shows them (by PID, groups open, no search, the names a view
 * finds once shown left out). */
gboolean
ttv_controlflow_viewer_render (TtvTabState *state, cairo_t *cr, int width, int height, GError **error)
{
  RowChoice c = { .key = SORT_PID, .needle = "" };
  TtvTimelineColumn columns[N_COLUMNS];
  TtvTimelineView v;

  get_columns (columns);
  ttv_timeline_view_init_render (&v, state, legend, G_N_ELEMENTS (legend), columns, N_COLUMNS);
  v.label_width = TTV_TIMELINE_PROCESS_LABEL_WIDTH;
  v.sort_column = SORT_PID;
  if (v.history)
    ttv_timeline_view_set_rows (&v, build_rows (v.history, state, &c, NULL));
  return ttv_timeline_view_render_once (&v, cr, width, height, error);
}
