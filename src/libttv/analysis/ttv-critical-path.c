/* ttv-critical-path.c: the critical path of a thread over a window, from
 * the "sched" analysis's blocked episodes: walking back from the window's
 * end, the thread's own running and waiting for a CPU, and for each time it
 * was blocked, what woke it: the waking thread's own path over that time
 * (recursively), or the IRQ or soft IRQ (a device, a timer).  As Trace
 * Compass's critical flow, from the records alone: O(segments) queries.
 * See ttv-kernel-analyses.h. */
#include "ttv-kernel-analyses.h"

#include <string.h>

/* Bounds against pathological chains: deeper wakers, more segments. */
#define MAX_DEPTH 256
#define MAX_SEGMENTS 200000

typedef struct {
  guint32 tid;
  TtvTime a, t;                 /* what is left to explain: [a, t] */
  GArray *episodes;             /* of TtvBlockedRecord, by start */
  gint next;                    /* the last episode not yet passed */
  const char *name;
  guint32 tgid;
  TtvTime birth;                /* the thread's first record: the path starts there */
  /* Set while a waker's frame explains a blocked episode: the part of the
   * episode before the waker's first record, unexplained (blocked), to
   * emit once the waker's frame is done (segments are emitted backward). */
  TtvTime unexplained_a, unexplained_t;
  const char *unexplained_syscall;
} Frame;

typedef struct {
  const TtvAnalysis *sched, *cpu;
  const TtvAnalysisTable *blocked;
  const TtvAnalysisTable *wakeups;
  const TtvAnalysisTable *slices;
  guint machine;                /* the path's: a waker is a thread of the same machine */
  GArray *out;                  /* of TtvPathSegment, backward */
  GError **error;
} Walk;

static const char *
string_of (const Walk *w, guint32 index)
{
  return ttv_analysis_get_string (w->sched, index);
}

static void
emit (Walk *w, const Frame *f, TtvPathKind kind, TtvTime start, TtvTime end, guint32 irq, gboolean soft,
      const char *name, const char *syscall)
{
  if (end <= start)
    return;
  TtvPathSegment s = { start, end, kind, f->tid, f->tgid, irq, soft, name ? name : f->name, syscall ? syscall : "" };
  /* Joined to the one after it when it continues it. */
  if (w->out->len > 0)
    {
      TtvPathSegment *last = &g_array_index (w->out, TtvPathSegment, w->out->len - 1);
      if (last->start == end && last->kind == kind && last->tid == s.tid && last->irq == irq && last->softirq == soft
          && g_strcmp0 (last->syscall, s.syscall) == 0)
        {
          last->start = start;
          return;
        }
    }
  g_array_append_val (w->out, s);
}

/* @f's thread runs over [start, end]: running where the CPU usage has
 * its slices, preempted in between (all running without it). */
static gboolean
emit_running (Walk *w, const Frame *f, TtvTime start, TtvTime end)
{
  if (w->slices == NULL || f->tid == 0)
    {
      emit (w, f, TTV_PATH_RUNNING, start, end, 0, FALSE, NULL, NULL);
      return TRUE;
    }
  g_autoptr (GArray) slices = ttv_analysis_table_query_series (w->slices, 1, ttv_thread_key (w->machine, f->tid),
                                                               start, end, w->error);
  if (slices == NULL)
    return FALSE;
  TtvTime t = end;
  for (guint i = slices->len; i-- > 0;)
    {
      const TtvCpuSlice *s = &g_array_index (slices, TtvCpuSlice, i);
      TtvTime hi = MIN (s->end, t), lo = MAX (s->start, start);
      if (hi <= lo)
        continue;
      emit (w, f, TTV_PATH_PREEMPTED, hi, t, 0, FALSE, NULL, NULL);
      emit (w, f, TTV_PATH_RUNNING, lo, hi, 0, FALSE, NULL, NULL);
      t = lo;
    }
  emit (w, f, TTV_PATH_PREEMPTED, start, t, 0, FALSE, NULL, NULL);
  return TRUE;
}

static gboolean
frame_init (Walk *w, Frame *f, guint32 tid, TtvTime a, TtvTime t, const char *name)
{
  memset (f, 0, sizeof *f);
  f->tid = tid;
  f->a = a;
  f->t = t;
  f->tgid = tid;
  f->name = name ? name : "";
  guint32 key = ttv_thread_key (w->machine, tid);
  f->episodes = ttv_analysis_table_query_series (w->blocked, 0, key, a, t, w->error);
  if (f->episodes == NULL)
    return FALSE;
  f->next = (gint) f->episodes->len - 1;
  /* Before its first record the thread did not exist (or the trace says
   * nothing of it): nothing to explain there. */
  TtvTime first, last;
  f->birth = G_MAXINT64;
  if (ttv_analysis_table_get_series_span (w->blocked, 0, key, &first, &last))
    f->birth = MIN (f->birth, first);
  if (ttv_analysis_table_get_series_span (w->wakeups, 0, key, &first, &last))
    f->birth = MIN (f->birth, first);
  if (w->slices && ttv_analysis_table_get_series_span (w->slices, 1, key, &first, &last))
    f->birth = MIN (f->birth, first);
  if (f->birth == G_MAXINT64 || tid == 0)
    f->birth = G_MININT64;
  f->a = MAX (f->a, MIN (f->birth, f->t));
  if (f->episodes->len > 0)
    {
      const TtvBlockedRecord *e = &g_array_index (f->episodes, TtvBlockedRecord, 0);
      f->name = string_of (w, e->name);
      f->tgid = e->tgid;
    }
  return TRUE;
}

/* One step of @f: explains the latest part of what is left, or returns a
 * waker's frame to explain it first (*child set). */
static gboolean
frame_step (Walk *w, Frame *f, guint depth, Frame *child, gboolean *pushed)
{
  *pushed = FALSE;
  while (f->next >= 0 && g_array_index (f->episodes, TtvBlockedRecord, f->next).start >= f->t)
    f->next--;
  if (f->next < 0)
    {
      gboolean ok = emit_running (w, f, f->a, f->t);
      f->t = f->a;
      return ok;
    }
  const TtvBlockedRecord *e = &g_array_index (f->episodes, TtvBlockedRecord, f->next);
  if (e->end < f->t)
    {
      TtvTime lo = MAX (e->end, f->a);
      gboolean ok = emit_running (w, f, lo, f->t);
      f->t = lo;
      return ok;
    }
  const char *syscall = string_of (w, e->syscall);
  if (e->woken < f->t && !e->unfinished)
    {
      TtvTime lo = MAX (e->woken, f->a);
      emit (w, f, TTV_PATH_WAIT_CPU, lo, f->t, 0, FALSE, NULL, syscall);
      f->t = lo;
      return TRUE;
    }
  TtvTime lo = MAX (e->start, f->a);
  if (e->unfinished && e->woken == e->end)
    emit (w, f, TTV_PATH_BLOCKED, lo, f->t, 0, FALSE, NULL, syscall);
  /* The idle task wakes nobody itself: outside any traced handler, its
   * wakeups come from interrupts the trace does not record (the local
   * timer, an IPI), and its "running" is idling: blocked, not its path. */
  else if (e->waker_kind == TTV_WAKER_THREAD && e->waker_tid != f->tid && e->waker_tid != TTV_PID_NONE
           && e->waker_tid != 0 && depth < MAX_DEPTH)
    {
      if (!frame_init (w, child, e->waker_tid, lo, f->t, string_of (w, e->waker_name)))
        return FALSE;
      /* Before the waker's first record the trace cannot say: blocked. */
      f->unexplained_a = lo;
      f->unexplained_t = child->a;
      f->unexplained_syscall = syscall;
      *pushed = TRUE;
    }
  else if (e->waker_kind == TTV_WAKER_IRQ || e->waker_kind == TTV_WAKER_SOFTIRQ)
    emit (w, f, TTV_PATH_DEVICE, lo, f->t, e->waker_id, e->waker_kind == TTV_WAKER_SOFTIRQ,
          string_of (w, e->waker_name), syscall);
  else
    emit (w, f, TTV_PATH_BLOCKED, lo, f->t, 0, FALSE, NULL, syscall);
  f->next--;
  f->t = lo;
  return TRUE;
}

GArray *
ttv_critical_path_compute (const TtvAnalysis *sched, const TtvAnalysis *cpu, guint machine, guint32 tid,
                           TtvTime t0, TtvTime t1, GError **error)
{
  g_return_val_if_fail (ttv_analysis_get_class (sched) == &ttv_sched_analysis, NULL);
  g_return_val_if_fail (cpu == NULL || ttv_analysis_get_class (cpu) == &ttv_cpu_usage_analysis, NULL);
  Walk w = { sched, cpu, ttv_analysis_find_table (sched, "blocked"), ttv_analysis_find_table (sched, "wakeups"),
             cpu ? ttv_analysis_find_table (cpu, "slices") : NULL, machine,
             g_array_new (FALSE, TRUE, sizeof (TtvPathSegment)), error };
  if (t1 <= t0)
    return w.out;
  g_autoptr (GArray) stack = g_array_new (FALSE, TRUE, sizeof (Frame));
  Frame root;
  gboolean ok = frame_init (&w, &root, tid, t0, t1, NULL);
  if (ok)
    g_array_append_val (stack, root);
  while (ok && stack->len > 0 && w.out->len < MAX_SEGMENTS)
    {
      Frame *f = &g_array_index (stack, Frame, stack->len - 1);
      if (f->t <= f->a)
        {
          g_array_unref (f->episodes);
          g_array_set_size (stack, stack->len - 1);
          if (stack->len > 0)
            {
              Frame *parent = &g_array_index (stack, Frame, stack->len - 1);
              emit (&w, parent, TTV_PATH_BLOCKED, parent->unexplained_a, parent->unexplained_t, 0, FALSE, NULL,
                    parent->unexplained_syscall);
              parent->unexplained_a = parent->unexplained_t = 0;
            }
          continue;
        }
      Frame child;
      gboolean pushed;
      ok = frame_step (&w, f, stack->len, &child, &pushed);
      if (ok && pushed)
        g_array_append_val (stack, child);
    }
  for (guint i = 0; i < stack->len; i++)
    g_array_unref (g_array_index (stack, Frame, i).episodes);
  if (!ok)
    {
      g_array_unref (w.out);
      return NULL;
    }
  /* Backward in time as it was walked: forward now. */
  GArray *out = g_array_sized_new (FALSE, FALSE, sizeof (TtvPathSegment), w.out->len);
  for (guint i = w.out->len; i-- > 0;)
    g_array_append_vals (out, &g_array_index (w.out, TtvPathSegment, i), 1);
  g_array_unref (w.out);
  return out;
}

const char *
ttv_path_kind_name (TtvPathKind kind)
{
  static const char *const names[] = { "running", "preempted", "wait-cpu", "device", "blocked" };
  return kind < G_N_ELEMENTS (names) ? names[kind] : "?";
}
