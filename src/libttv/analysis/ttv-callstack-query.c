/* ttv-callstack-query.c: what views and reports ask of a finished call
 * stack analysis (see ttv-callstack.h).  Calls of one depth never overlap
 * and are sorted, so their ends are sorted too: every lookup is a binary
 * search. */
#include "ttv-callstack-private.h"

#include <string.h>

void
ttv_callstack_free_array (gpointer array)
{
  if (array)
    g_array_unref (array);
}

TtvCallstack *
ttv_callstack_from_analysis (const TtvAnalysis *analysis)
{
  g_return_val_if_fail (analysis != NULL, NULL);
  g_return_val_if_fail (ttv_analysis_get_class (analysis) == &ttv_callstack_analysis, NULL);
  return ttv_analysis_get_data (analysis);
}

guint
ttv_callstack_get_n_threads (const TtvCallstack *cs)
{
  return cs->threads->len;
}

const TtvCallstackThread *
ttv_callstack_get_thread (const TtvCallstack *cs, guint thread)
{
  g_return_val_if_fail (thread < cs->threads->len, NULL);
  return &((Thread *) g_ptr_array_index (cs->threads, thread))->pub;
}

gint
ttv_callstack_find_thread (const TtvCallstack *cs, guint machine, guint32 tid)
{
  for (guint i = 0; i < cs->threads->len; i++)
    {
      const Thread *t = g_ptr_array_index (cs->threads, i);
      if (t->pub.tid == tid && t->pub.machine == machine)
        return (gint) i;
    }
  return -1;
}

guint
ttv_callstack_get_n_functions (const TtvCallstack *cs)
{
  return cs->functions->len;
}

const TtvCallstackFunction *
ttv_callstack_get_function (const TtvCallstack *cs, guint32 function)
{
  g_return_val_if_fail (function < cs->functions->len, NULL);
  return &g_array_index (cs->functions, Function, function).pub;
}

guint
ttv_callstack_get_n_nodes (const TtvCallstack *cs)
{
  return cs->nodes->len;
}

const TtvCallstackNode *
ttv_callstack_get_node (const TtvCallstack *cs, guint32 node)
{
  g_return_val_if_fail (node < cs->nodes->len, NULL);
  return &g_array_index (cs->nodes, Node, node).pub;
}

guint64
ttv_callstack_get_n_calls (const TtvCallstack *cs)
{
  return cs->n_calls;
}

guint64
ttv_callstack_get_n_mismatches (const TtvCallstack *cs)
{
  return cs->n_mismatches;
}

TtvSymbolizer *
ttv_callstack_get_symbolizer (const TtvCallstack *cs)
{
  return cs->symbolizer;
}

static GArray *
calls_of (const TtvCallstack *cs, guint thread, guint depth)
{
  if (thread >= cs->threads->len)
    return NULL;
  const Thread *t = g_ptr_array_index (cs->threads, thread);
  return depth < t->levels->len ? g_ptr_array_index (t->levels, depth) : NULL;
}

/* The first call at or after index @from whose end is >= @time. */
static guint
first_ending_after (GArray *calls, guint from, TtvTime time)
{
  guint lo = from, hi = calls->len;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (g_array_index (calls, Call, mid).end < time)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

static void
to_public (const Call *c, TtvCallstackCall *out)
{
  out->start = c->start;
  out->end = c->end;
  out->function = CALL_FUNCTION (c);
  out->node = c->node;
  out->flags = CALL_FLAGS (c);
  out->hidden = 0;
}

GArray *
ttv_callstack_query_calls (const TtvCallstack *cs, guint thread, guint depth, TtvTime t0, TtvTime t1,
                           TtvTime resolution)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (TtvCallstackCall));
  GArray *calls = calls_of (cs, thread, depth);
  if (calls == NULL || t1 < t0)
    return out;
  guint i = first_ending_after (calls, 0, t0);
  while (i < calls->len)
    {
      const Call *c = &g_array_index (calls, Call, i);
      if (c->start > t1)
        break;
      TtvCallstackCall pub;
      to_public (c, &pub);
      guint next = i + 1;
      if (resolution > 0)
        {
          /* Skip what ends inside this call's slot: one call per slot. */
          /* (Unsigned spans and a saturating end: a damaged trace's times
           * can be 2^63 ns apart.) */
          TtvTime slot = c->start <= t0 ? t0
                         : t0 + (TtvTime) (ttv_time_span_ns (t0, c->start) / (guint64) resolution
                                           * (guint64) resolution);
          TtvTime until = MAX (c->end, ttv_time_add_saturating (slot, resolution));
          next = first_ending_after (calls, i + 1, until);
          pub.hidden = next - i - 1;
        }
      g_array_append_val (out, pub);
      i = next;
    }
  return out;
}

gboolean
ttv_callstack_get_call_at (const TtvCallstack *cs, guint thread, guint depth, TtvTime time,
                           TtvCallstackCall *out)
{
  GArray *calls = calls_of (cs, thread, depth);
  if (calls == NULL)
    return FALSE;
  guint i = first_ending_after (calls, 0, time);
  if (i >= calls->len || g_array_index (calls, Call, i).start > time)
    return FALSE;
  to_public (&g_array_index (calls, Call, i), out);
  return TRUE;
}

GArray *
ttv_callstack_dup_stack_at (const TtvCallstack *cs, guint thread, TtvTime time)
{
  GArray *stack = g_array_new (FALSE, FALSE, sizeof (TtvCallstackCall));
  if (thread >= cs->threads->len)
    return stack;
  const Thread *t = g_ptr_array_index (cs->threads, thread);
  TtvCallstackCall c;
  for (guint d = 0; d < t->levels->len && ttv_callstack_get_call_at (cs, thread, d, time, &c); d++)
    g_array_append_val (stack, c);
  return stack;
}

/* --- Aggregates -------------------------------------------------------------- */

static gboolean
counts_thread (GArray *threads, guint thread)
{
  if (threads == NULL)
    return TRUE;
  for (guint i = 0; i < threads->len; i++)
    if (g_array_index (threads, guint, i) == thread)
      return TRUE;
  return FALSE;
}

/* Calls @visit for the part inside [t0, t1] of every call overlapping it. */
static void
for_each_call (const TtvCallstack *cs, TtvTime t0, TtvTime t1, GArray *threads,
               void (*visit) (const Call *c, TtvTime clipped, gpointer data), gpointer data)
{
  for (guint t = 0; t < cs->threads->len; t++)
    {
      if (!counts_thread (threads, t))
        continue;
      const Thread *th = g_ptr_array_index (cs->threads, t);
      for (guint d = 0; d < th->levels->len; d++)
        {
          GArray *calls = g_ptr_array_index (th->levels, d);
          for (guint i = first_ending_after (calls, 0, t0); i < calls->len; i++)
            {
              const Call *c = &g_array_index (calls, Call, i);
              if (c->start > t1)
                break;
              visit (c, MIN (c->end, t1) - MAX (c->start, t0), data);
            }
        }
    }
}

typedef struct {
  const TtvCallstack *cs;
  GArray *stats;                /* of TtvCallstackNodeStats */
} NodeStatsJob;

static void
add_node_stats (const Call *c, TtvTime clipped, gpointer data)
{
  NodeStatsJob *job = data;
  TtvCallstackNodeStats *s = &g_array_index (job->stats, TtvCallstackNodeStats, c->node);
  s->calls++;
  s->total += clipped;
  s->self += clipped;
  if (CALL_FLAGS (c))
    s->incomplete++;
  guint32 parent = g_array_index (job->cs->nodes, Node, c->node).pub.parent;
  if (parent == G_MAXUINT32)
    return;
  TtvCallstackNodeStats *ps = &g_array_index (job->stats, TtvCallstackNodeStats, parent);
  /* A process's root holds its threads' time in calls. */
  if (g_array_index (job->cs->nodes, Node, parent).pub.function == G_MAXUINT32)
    ps->total += clipped;
  else
    ps->self -= clipped;
}

GArray *
ttv_callstack_dup_node_stats (const TtvCallstack *cs, TtvTime t0, TtvTime t1, GArray *threads)
{
  NodeStatsJob job = { cs, g_array_sized_new (FALSE, TRUE, sizeof (TtvCallstackNodeStats), cs->nodes->len) };
  g_array_set_size (job.stats, cs->nodes->len);
  for_each_call (cs, t0, t1, threads, add_node_stats, &job);
  return job.stats;
}

typedef struct {
  TtvTime t0, t1;
  GPtrArray *durations;         /* per function: GArray of TtvTime (whole calls), or NULL */
} DurationsJob;

static void
add_duration (const Call *c, TtvTime clipped, gpointer data)
{
  DurationsJob *job = data;
  if (c->start < job->t0 || c->end > job->t1)
    return;
  guint32 f = CALL_FUNCTION (c);
  GArray *d = g_ptr_array_index (job->durations, f);
  if (d == NULL)
    d = job->durations->pdata[f] = g_array_new (FALSE, FALSE, sizeof (TtvTime));
  TtvTime length = ttv_time_span_saturating (c->start, c->end);   /* a damaged trace's times may be 2^63 ns apart */
  g_array_append_val (d, length);
}

static gint
compare_time (gconstpointer a, gconstpointer b)
{
  TtvTime x = *(const TtvTime *) a, y = *(const TtvTime *) b;
  return x < y ? -1 : x > y;
}

static gint
compare_total (gconstpointer a, gconstpointer b)
{
  const TtvCallstackFunctionStats *x = a, *y = b;
  if (x->total != y->total)
    return x->total > y->total ? -1 : 1;
  return x->function < y->function ? -1 : x->function > y->function;
}

/* The value below which @p of the sorted @d lie (nearest rank). */
static TtvTime
percentile (GArray *d, double p)
{
  guint rank = (guint) (p * d->len + 0.999999);
  return g_array_index (d, TtvTime, CLAMP (rank, 1u, d->len) - 1);
}

GArray *
ttv_callstack_dup_function_stats (const TtvCallstack *cs, TtvTime t0, TtvTime t1, GArray *threads)
{
  g_autoptr (GArray) nodes = ttv_callstack_dup_node_stats (cs, t0, t1, threads);
  g_autoptr (GArray) per = g_array_sized_new (FALSE, TRUE, sizeof (TtvCallstackFunctionStats), cs->functions->len);
  g_array_set_size (per, cs->functions->len);
  for (guint32 n = 0; n < cs->nodes->len; n++)
    {
      const TtvCallstackNode *node = &g_array_index (cs->nodes, Node, n).pub;
      const TtvCallstackNodeStats *s = &g_array_index (nodes, TtvCallstackNodeStats, n);
      if (node->function == G_MAXUINT32 || s->calls == 0)
        continue;
      TtvCallstackFunctionStats *f = &g_array_index (per, TtvCallstackFunctionStats, node->function);
      f->calls += s->calls;
      f->incomplete += s->incomplete;
      f->self += s->self;
      if (!node->recursive)
        f->total += s->total;
    }
  DurationsJob job = { t0, t1, g_ptr_array_new_full (cs->functions->len, ttv_callstack_free_array) };
  g_ptr_array_set_size (job.durations, cs->functions->len);
  for_each_call (cs, t0, t1, threads, add_duration, &job);
  GArray *out = g_array_new (FALSE, FALSE, sizeof (TtvCallstackFunctionStats));
  for (guint32 i = 0; i < per->len; i++)
    {
      TtvCallstackFunctionStats *f = &g_array_index (per, TtvCallstackFunctionStats, i);
      if (f->calls == 0)
        continue;
      f->function = i;
      f->min = f->max = f->p50 = f->p90 = f->p99 = -1;
      GArray *d = g_ptr_array_index (job.durations, i);
      if (d && d->len > 0)
        {
          g_array_sort (d, compare_time);
          double sum = 0;
          for (guint k = 0; k < d->len; k++)
            sum += (double) g_array_index (d, TtvTime, k);
          f->min = g_array_index (d, TtvTime, 0);
          f->max = g_array_index (d, TtvTime, d->len - 1);
          f->mean = sum / d->len;
          f->p50 = percentile (d, 0.50);
          f->p90 = percentile (d, 0.90);
          f->p99 = percentile (d, 0.99);
        }
      g_array_append_val (out, *f);
    }
  g_ptr_array_unref (job.durations);
  g_array_sort (out, compare_total);
  return out;
}

char *
ttv_callstack_dup_path (const TtvCallstack *cs, guint32 node, const char *separator)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  for (guint32 n = node; n != G_MAXUINT32 && n < cs->nodes->len; n = g_array_index (cs->nodes, Node, n).pub.parent)
    g_ptr_array_add (names, (gpointer) g_array_index (cs->nodes, Node, n).pub.name);
  GString *path = g_string_new (NULL);
  for (guint i = names->len; i-- > 0;)
    {
      g_string_append (path, g_ptr_array_index (names, i));
      if (i > 0)
        g_string_append (path, separator);
    }
  return g_string_free (path, FALSE);
}
