/* ttv-sched-analysis.c: the "sched" analysis: scheduling latency (a
 * task's wakeup to the switch that runs it) and why each thread was off
 * its CPU (the call it blocked in, sleeping or waiting for a disk, who woke
 * it), from the state's status changes.  See ttv-kernel-analyses.h. */
#include "ttv-kernel-context.h"

#include <glib/gi18n-lib.h>

#include <string.h>

G_STATIC_ASSERT (sizeof (TtvWakeupRecord) == 72);
G_STATIC_ASSERT (sizeof (TtvBlockedRecord) == 80);

static const char *const waker_kinds[] = { "", "thread", "irq", "softirq", NULL };
static const char *const blocked_states[] = { "sleeping", "disk", "other", NULL };
static const char *const yes_no[] = { "no", "yes", NULL };

static const TtvAnalysisColumn wakeup_columns[] = {
  { "start", N_("Woken"), TTV_COLUMN_TIME, G_STRUCT_OFFSET (TtvWakeupRecord, start), NULL },
  { "end", N_("Running"), TTV_COLUMN_TIME, G_STRUCT_OFFSET (TtvWakeupRecord, end), NULL },
  { "duration", N_("Latency"), TTV_COLUMN_DURATION, -1, NULL },
  { TTV_ANALYSIS_MACHINE_COLUMN, N_("Machine"), TTV_COLUMN_STRING, G_STRUCT_OFFSET (TtvWakeupRecord, machine), NULL },
  { "tid", N_("TID"), TTV_COLUMN_TID, G_STRUCT_OFFSET (TtvWakeupRecord, tid), NULL },
  { "tgid", N_("PID"), TTV_COLUMN_TID, G_STRUCT_OFFSET (TtvWakeupRecord, tgid), NULL },
  { "name", N_("Name"), TTV_COLUMN_STRING, G_STRUCT_OFFSET (TtvWakeupRecord, name), NULL },
  { "prio", N_("Priority"), TTV_COLUMN_INT, G_STRUCT_OFFSET (TtvWakeupRecord, prio), NULL },
  { "cpu", N_("CPU"), TTV_COLUMN_CPU, G_STRUCT_OFFSET (TtvWakeupRecord, cpu), NULL },
  { "waker_kind", N_("Woken by"), TTV_COLUMN_ENUM, G_STRUCT_OFFSET (TtvWakeupRecord, waker_kind), waker_kinds },
  { "waker_tid", N_("Waker TID"), TTV_COLUMN_TID, G_STRUCT_OFFSET (TtvWakeupRecord, waker_tid), NULL },
  { "waker_id", N_("Waker IRQ"), TTV_COLUMN_UINT, G_STRUCT_OFFSET (TtvWakeupRecord, waker_id), NULL },
  { "waker_name", N_("Waker"), TTV_COLUMN_STRING, G_STRUCT_OFFSET (TtvWakeupRecord, waker_name), NULL },
  { "waker_cpu", N_("Waker CPU"), TTV_COLUMN_CPU, G_STRUCT_OFFSET (TtvWakeupRecord, waker_cpu), NULL },
  { "new", N_("New task"), TTV_COLUMN_ENUM, G_STRUCT_OFFSET (TtvWakeupRecord, is_new), yes_no },
};

static const TtvAnalysisColumn blocked_columns[] = {
  { "start", N_("Blocked"), TTV_COLUMN_TIME, G_STRUCT_OFFSET (TtvBlockedRecord, start), NULL },
  { "end", N_("Running"), TTV_COLUMN_TIME, G_STRUCT_OFFSET (TtvBlockedRecord, end), NULL },
  { "duration", N_("Duration"), TTV_COLUMN_DURATION, -1, NULL },
  { "woken", N_("Woken"), TTV_COLUMN_TIME, G_STRUCT_OFFSET (TtvBlockedRecord, woken), NULL },
  { TTV_ANALYSIS_MACHINE_COLUMN, N_("Machine"), TTV_COLUMN_STRING, G_STRUCT_OFFSET (TtvBlockedRecord, machine), NULL },
  { "tid", N_("TID"), TTV_COLUMN_TID, G_STRUCT_OFFSET (TtvBlockedRecord, tid), NULL },
  { "tgid", N_("PID"), TTV_COLUMN_TID, G_STRUCT_OFFSET (TtvBlockedRecord, tgid), NULL },
  { "name", N_("Name"), TTV_COLUMN_STRING, G_STRUCT_OFFSET (TtvBlockedRecord, name), NULL },
  { "cpu", N_("CPU"), TTV_COLUMN_CPU, G_STRUCT_OFFSET (TtvBlockedRecord, cpu), NULL },
  { "syscall", N_("In call"), TTV_COLUMN_STRING, G_STRUCT_OFFSET (TtvBlockedRecord, syscall), NULL },
  { "state", N_("State"), TTV_COLUMN_ENUM, G_STRUCT_OFFSET (TtvBlockedRecord, state), blocked_states },
  { "waker_kind", N_("Woken by"), TTV_COLUMN_ENUM, G_STRUCT_OFFSET (TtvBlockedRecord, waker_kind), waker_kinds },
  { "waker_tid", N_("Waker TID"), TTV_COLUMN_TID, G_STRUCT_OFFSET (TtvBlockedRecord, waker_tid), NULL },
  { "waker_id", N_("Waker IRQ"), TTV_COLUMN_UINT, G_STRUCT_OFFSET (TtvBlockedRecord, waker_id), NULL },
  { "waker_name", N_("Waker"), TTV_COLUMN_STRING, G_STRUCT_OFFSET (TtvBlockedRecord, waker_name), NULL },
  { "waker_cpu", N_("Waker CPU"), TTV_COLUMN_CPU, G_STRUCT_OFFSET (TtvBlockedRecord, waker_cpu), NULL },
  { "unfinished", N_("Unfinished"), TTV_COLUMN_ENUM, G_STRUCT_OFFSET (TtvBlockedRecord, unfinished), yes_no },
};

static const TtvAnalysisTableSpec wakeups_spec = {
  "wakeups", sizeof (TtvWakeupRecord), wakeup_columns, G_N_ELEMENTS (wakeup_columns),
  { G_STRUCT_OFFSET (TtvWakeupRecord, key), -1 }, G_STRUCT_OFFSET (TtvWakeupRecord, prio), TRUE, TRUE,
};

static const TtvAnalysisTableSpec blocked_spec = {
  "blocked", sizeof (TtvBlockedRecord), blocked_columns, G_N_ELEMENTS (blocked_columns),
  { G_STRUCT_OFFSET (TtvBlockedRecord, key), -1 }, G_STRUCT_OFFSET (TtvBlockedRecord, syscall), FALSE, TRUE,
};

static const TtvAnalysisTableSpec *const tables[] = { &wakeups_spec, &blocked_spec };

/* What is known of a thread between leaving its CPU and running again. */
typedef struct {
  gboolean blocked;             /* a blocked episode is open */
  TtvBlockedRecord episode;
  gboolean woken;               /* a wakeup waits for the switch that runs it */
  TtvWakeupRecord wakeup;
} Thread;

typedef struct {
  TtvAnalysisBuilder *b;
  TtvTableBuilder *wakeups, *blocked;
  GHashTable *threads;          /* ttv_thread_key -> Thread *, owned */
  GArray *last;                 /* per machine: TtvTime of its last event */
  GArray *machine_names;        /* per machine: guint32 string of its name */
  /* The event being applied. */
  guint machine;
  gint cpu;
  TtvKernelAction action;
  gint64 prev_state;            /* sched_switch: raw prev_state, -1 unknown */
  gint64 next_prio;             /* sched_switch: next_prio */
  gint64 wakeup_prio;
} Sched;

static gpointer
sched_attach (TtvAnalysisPass *pass, const TtvAnalysisOptions *options, GError **error)
{
  TtvAnalysisBuilder *b = ttv_analysis_pass_get_builder (pass);
  Sched *s = g_new0 (Sched, 1);
  s->b = b;
  s->wakeups = ttv_analysis_builder_get_table (b, 0);
  s->blocked = ttv_analysis_builder_get_table (b, 1);
  s->threads = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  s->last = g_array_new (FALSE, TRUE, sizeof (TtvTime));
  s->machine_names = ttv_kernel_machine_names (b);
  return s;
}

static void
sched_free (gpointer data)
{
  Sched *s = data;
  g_hash_table_unref (s->threads);
  g_array_unref (s->last);
  g_array_unref (s->machine_names);
  g_free (s);
}

/* Thread @tid of the event's machine. */
static gpointer
thread_key (Sched *s, guint32 tid)
{
  return GUINT_TO_POINTER (ttv_thread_key (s->machine, tid));
}

static Thread *
thread_find (Sched *s, guint32 tid)
{
  return g_hash_table_lookup (s->threads, thread_key (s, tid));
}

static Thread *
thread_get (Sched *s, guint32 tid)
{
  Thread *t = thread_find (s, tid);
  if (t == NULL)
    {
      t = g_new0 (Thread, 1);
      g_hash_table_insert (s->threads, thread_key (s, tid), t);
    }
  return t;
}

static guint32
machine_name (Sched *s)
{
  return ttv_kernel_machine_name (s->machine_names, s->machine);
}

static void note_wakeup (Sched *s, Thread *t, guint32 pid, TtvTime time, gboolean is_new);

static void
sched_before_event (gpointer data, const TtvAnalysisEvent *ev)
{
  Sched *s = data;
  s->machine = MIN (ttv_state_get_machine (ev->state), TTV_ANALYSIS_MAX_MACHINES - 1);
  if (s->machine >= s->last->len)
    g_array_set_size (s->last, s->machine + 1);
  g_array_index (s->last, TtvTime, s->machine) = ev->event->time;
  s->cpu = ev->event->tracefile->cpu;
  s->action = ev->action;
  s->prev_state = -1;
  s->next_prio = s->wakeup_prio = TTV_ANALYSIS_NO_PRIO;
  if (ev->action == TTV_KM_SCHED_SWITCH)
    {
      gint64 v;
      if (ttv_kernel_model_get_int (ev->model, ev->trace, ev->event, TTV_KM_SWITCH_PREV_STATE, &v))
        s->prev_state = v;
      if (ttv_kernel_model_get_int (ev->model, ev->trace, ev->event, TTV_KM_SWITCH_NEXT_PRIO, &v))
        s->next_prio = v;
    }
  else if (ev->action == TTV_KM_WAKEUP)
    {
      gint64 v, tid;
      if (ttv_kernel_model_get_int (ev->model, ev->trace, ev->event, TTV_KM_WAKEUP_PRIO, &v))
        s->wakeup_prio = v;
      /* A task the trace has not shown yet (no statedump, no switch): the
       * state learns of it when it runs, but it was blocked and is woken now. */
      if (ttv_kernel_model_get_int (ev->model, ev->trace, ev->event, TTV_KM_WAKEUP_TID, &tid) && tid > 0
          && ttv_state_get_process (ev->state, (guint32) tid) == NULL)
        {
          Thread *t = thread_get (s, (guint32) tid);
          if (!t->woken)
            note_wakeup (s, t, (guint32) tid, ev->event->time, FALSE);
        }
    }
}

/* TASK_INTERRUPTIBLE is 1 and TASK_UNINTERRUPTIBLE 2 in Linux's task
 * state bits, LTT's enum and LTTng 0.x's alike. */
static TtvBlockedState
blocked_state (gint64 prev_state)
{
  if (prev_state < 0)
    return TTV_BLOCKED_OTHER;
  if (prev_state & 2)
    return TTV_BLOCKED_DISK;
  return prev_state & 1 ? TTV_BLOCKED_SLEEPING : TTV_BLOCKED_OTHER;
}

static GQuark
innermost_syscall (const TtvProcessState *p)
{
  for (guint i = p->depth; i-- > 0;)
    if (p->frames[i].mode == TTV_MODE_SYSCALL)
      return p->frames[i].id;
  return 0;
}

static void
note_wakeup (Sched *s, Thread *t, guint32 pid, TtvTime time, gboolean is_new)
{
  const TtvState *state = ttv_analysis_builder_get_state (s->b);
  TtvKernelActor a;
  ttv_kernel_actor_on_cpu (s->b, state, s->cpu, &a);
  t->woken = TRUE;
  TtvWakeupRecord *w = &t->wakeup;
  memset (w, 0, sizeof *w);
  w->start = time;
  w->tid = pid;
  w->key = ttv_thread_key (s->machine, pid);
  w->machine = machine_name (s);
  w->prio = s->wakeup_prio;
  w->waker_cpu = s->cpu;
  w->waker_kind = a.kind;
  w->waker_tid = a.tid;
  w->waker_id = a.id;
  w->waker_name = a.name;
  w->is_new = is_new;
  if (t->blocked)
    {
      TtvBlockedRecord *e = &t->episode;
      e->woken = time;
      e->waker_cpu = s->cpu;
      e->waker_kind = a.kind;
      e->waker_tid = a.tid;
      e->waker_id = a.id;
      e->waker_name = a.name;
    }
}

static void
on_process_status (gpointer data, const TtvProcessState *p, TtvProcessStatus old, TtvTime time)
{
  Sched *s = data;
  /* The state calls with the event's machine selected. */
  s->machine = MIN (ttv_state_get_machine (ttv_analysis_builder_get_state (s->b)), TTV_ANALYSIS_MAX_MACHINES - 1);
  if (p->pid == 0)
    return;
  switch (p->status)
    {
    case TTV_PROCESS_WAIT:
      /* Off its CPU, blocked: only a switch says so (a statedump describes). */
      if (s->action == TTV_KM_SCHED_SWITCH)
        {
          Thread *t = thread_get (s, p->pid);
          t->blocked = TRUE;
          t->woken = FALSE;
          TtvBlockedRecord *e = &t->episode;
          memset (e, 0, sizeof *e);
          e->start = e->woken = time;
          e->tid = p->pid;
          e->key = ttv_thread_key (s->machine, p->pid);
          e->machine = machine_name (s);
          e->cpu = s->cpu;
          e->waker_cpu = -1;
          e->waker_tid = TTV_PID_NONE;
          e->waker_name = TTV_ANALYSIS_NO_STRING;
          e->syscall = ttv_analysis_builder_intern_quark (s->b, innermost_syscall (p));
          e->state = blocked_state (s->prev_state);
        }
      break;
    case TTV_PROCESS_WAIT_CPU:
      if (s->action == TTV_KM_WAKEUP && (old == TTV_PROCESS_WAIT || old == TTV_PROCESS_UNNAMED))
        note_wakeup (s, thread_get (s, p->pid), p->pid, time, FALSE);
      else if (old == TTV_PROCESS_RUN)
        {
          /* Preempted: not a wakeup; a wakeup still pending is not either. */
          Thread *t = thread_find (s, p->pid);
          if (t)
            t->woken = t->blocked = FALSE;
        }
      break;
    case TTV_PROCESS_RUN:
      {
        Thread *t = thread_find (s, p->pid);
        if (t == NULL)
          break;
        const TtvState *state = ttv_analysis_builder_get_state (s->b);
        guint32 tgid;
        guint32 name = ttv_kernel_thread_name (s->b, state, p->pid, &tgid);
        if (t->woken)
          {
            TtvWakeupRecord *w = &t->wakeup;
            w->end = time;
            w->cpu = s->cpu;
            w->name = name;
            w->tgid = tgid;
            if (s->next_prio != TTV_ANALYSIS_NO_PRIO)
              w->prio = s->next_prio;
            ttv_table_builder_push (s->wakeups, w);
          }
        if (t->blocked)
          {
            TtvBlockedRecord *e = &t->episode;
            e->end = time;
            if (!t->woken)
              e->woken = time;
            e->name = name;
            e->tgid = tgid;
            ttv_table_builder_push (s->blocked, e);
          }
        g_hash_table_remove (s->threads, thread_key (s, p->pid));
      }
      break;
    case TTV_PROCESS_ZOMBIE:
    case TTV_PROCESS_EXIT:
    case TTV_PROCESS_DEAD:
    case TTV_PROCESS_WAIT_FORK:
      g_hash_table_remove (s->threads, thread_key (s, p->pid));
      break;
    default:
      break;
    }
}

static void
on_mark (gpointer data, TtvStateMark kind, guint32 pid, guint32 other, TtvTime time)
{
  Sched *s = data;
  if (kind != TTV_STATE_MARK_WAKEUP || pid == 0)
    return;
  s->machine = MIN (ttv_state_get_machine (ttv_analysis_builder_get_state (s->b)), TTV_ANALYSIS_MAX_MACHINES - 1);
  /* A new task's first wakeup (sched_wakeup_new): it leaves WAIT_FORK
   * only when it runs. */
  const TtvProcessState *p = ttv_state_get_process (ttv_analysis_builder_get_state (s->b), pid);
  if (p == NULL || p->status != TTV_PROCESS_WAIT_FORK)
    return;
  Thread *t = thread_get (s, pid);
  if (!t->woken)
    note_wakeup (s, t, pid, time, TRUE);
}

static gint
compare_tid (gconstpointer a, gconstpointer b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;
  return x < y ? -1 : x > y;
}

static void
sched_finish (gpointer data, TtvTime end)
{
  Sched *s = data;
  TtvState *state = (TtvState *) ttv_analysis_builder_get_state (s->b);
  guint selected = ttv_state_get_machine (state);
  /* Episodes still open: blocked (or woken, not yet run) at the end. */
  g_autoptr (GArray) tids = g_array_new (FALSE, FALSE, sizeof (guint32));
  GHashTableIter it;
  gpointer key, value;
  g_hash_table_iter_init (&it, s->threads);
  while (g_hash_table_iter_next (&it, &key, &value))
    if (((Thread *) value)->blocked)
      {
        guint32 tid = GPOINTER_TO_UINT (key);
        g_array_append_val (tids, tid);
      }
  g_array_sort (tids, compare_tid);
  for (guint i = 0; i < tids->len; i++)
    {
      guint32 k = g_array_index (tids, guint32, i);
      Thread *t = g_hash_table_lookup (s->threads, GUINT_TO_POINTER (k));
      TtvBlockedRecord *e = &t->episode;
      /* Open until its own machine's last event (a machine whose traces
       * end early is not traced after). */
      guint machine = k >> 24;
      TtvTime last = machine < s->last->len && s->last->len > 1 ? g_array_index (s->last, TtvTime, machine) : 0;
      e->end = MAX (last ? last : end, e->start);
      if (!t->woken)
        e->woken = e->end;
      e->unfinished = 1;
      ttv_state_select_machine (state, machine);
      e->name = ttv_kernel_thread_name (s->b, state, e->tid, &e->tgid);
      ttv_table_builder_push (s->blocked, e);
    }
  ttv_state_select_machine (state, selected);
}

static const TtvStateObserver sched_observer = { .process_status = on_process_status, .mark = on_mark };

const TtvAnalysisClass ttv_sched_analysis = {
  .name = "sched",
  .title = N_("Scheduling"),
  .description = N_("Wakeup to running latency, and why each thread was off its CPU"),
  .formats = TTV_ANALYSIS_FORMAT_BIT (TTV_ANALYSIS_FORMAT_TEXT) | TTV_ANALYSIS_FORMAT_BIT (TTV_ANALYSIS_FORMAT_JSONL)
             | TTV_ANALYSIS_FORMAT_BIT (TTV_ANALYSIS_FORMAT_CSV),
  .needs_state = TRUE,
  .attach = sched_attach,
  .finish = sched_finish,
  .free = sched_free,
  .tables = tables,
  .n_tables = G_N_ELEMENTS (tables),
  .version = 2,
  .observer = &sched_observer,
  .before_event = sched_before_event,
};
