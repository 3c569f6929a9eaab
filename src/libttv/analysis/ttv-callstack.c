/* ttv-callstack.c: the call stack analysis' pass (see ttv-callstack.h):
 * each thread's stack of open calls follows the function entries and
 * exits; a call is stored at its depth when it returns.  Exits that do not
 * match (their entry before the trace, lost events, longjmp) close what
 * they must, flagged, and are counted; at the end the depths are made
 * non-negative and the call paths built. */
#include "ttv-callstack-private.h"

#include "ttv-ust-thread.h"

#include <glib/gi18n-lib.h>
#include <string.h>

typedef struct {
  guint32 trace;                /* no padding: keys are compared as bytes */
  guint32 tid;
  gint64 vpid;                  /* only when the thread is unknown */
} ThreadKey;

typedef struct {
  guint64 trace;                /* 64 bits: no padding, keys are compared as bytes */
  gint64 vpid;
  guint64 addr;
} FunctionKey;

static guint
thread_key_hash (gconstpointer p)
{
  const ThreadKey *k = p;
  return (k->trace * 31u + k->tid) * 31u + (guint) k->vpid;
}

static gboolean
thread_key_equal (gconstpointer a, gconstpointer b)
{
  return memcmp (a, b, sizeof (ThreadKey)) == 0;
}

static guint
function_key_hash (gconstpointer p)
{
  const FunctionKey *k = p;
  return g_int64_hash (&k->addr) ^ (k->trace * 31u + (guint) k->vpid);
}

static gboolean
function_key_equal (gconstpointer a, gconstpointer b)
{
  return memcmp (a, b, sizeof (FunctionKey)) == 0;
}

static void
thread_free (Thread *t)
{
  if (t->frames)
    g_array_unref (t->frames);
  g_ptr_array_unref (t->levels);
  g_ptr_array_unref (t->below);
  g_free (t->name);
  g_free (t);
}

static void
callstack_free (gpointer self)
{
  TtvCallstack *cs = self;
  ttv_ust_model_free (cs->model);
  ttv_symbolizer_free (cs->symbolizer);
  g_ptr_array_unref (cs->threads);
  g_hash_table_unref (cs->thread_index);
  g_array_unref (cs->functions);
  g_clear_pointer (&cs->machine_binaries, g_array_unref);
  g_hash_table_unref (cs->function_index);
  for (guint i = 0; i < cs->nodes->len; i++)
    g_free (g_array_index (cs->nodes, Node, i).owned_name);
  g_array_unref (cs->nodes);
  g_string_chunk_free (cs->strings);
  ttv_traceset_unref (cs->traceset);
  g_free (cs);
}

/* --- Threads and functions ---------------------------------------------------- */

static Thread *
thread_for (TtvCallstack *cs, const TtvUstEvent *e)
{
  TtvUstThread who;
  ttv_ust_thread_of (ttv_analysis_pass_get_state (cs->pass), e, &who);
  /* Without a thread id, the process's events are one thread. */
  ThreadKey key = { who.trace, who.tid, who.tid == TTV_PID_NONE ? who.vpid : -1 };
  guint32 pid = who.pid;
  const char *name = who.name;
  guint index = GPOINTER_TO_UINT (g_hash_table_lookup (cs->thread_index, &key));
  Thread *t;
  if (index == 0)
    {
      t = g_new0 (Thread, 1);
      t->pub.tid = key.tid;
      t->pub.pid = pid;
      t->pub.trace = e->trace;
      t->pub.machine = ttv_traceset_get_trace_machine (cs->traceset, e->trace);
      t->pub.first = e->time;
      t->vpid = e->vpid;
      t->frames = g_array_new (FALSE, FALSE, sizeof (Frame));
      t->levels = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
      t->below = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
      g_ptr_array_add (cs->threads, t);
      g_hash_table_insert (cs->thread_index, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (cs->threads->len));
    }
  else
    t = g_ptr_array_index (cs->threads, index - 1);
  if (name && *name && g_strcmp0 (name, t->name) != 0)
    {
      g_free (t->name);
      t->name = g_strdup (name);
    }
  t->pub.last = e->time;
  return t;
}

#define UNKNOWN_FUNCTION 0u   /* an exit of the fast variant that closes nothing open */

static guint32
function_for (TtvCallstack *cs, const Thread *t, guint64 addr, TtvTime time)
{
  FunctionKey key = { t->pub.trace, t->vpid, addr };
  guint index = GPOINTER_TO_UINT (g_hash_table_lookup (cs->function_index, &key));
  if (index)
    return index - 1;
  Function f = { { addr, NULL, FALSE, NULL, 0, NULL, t->pub.pid, t->pub.machine }, t->pub.trace, t->vpid, time };
  g_array_append_val (cs->functions, f);
  g_hash_table_insert (cs->function_index, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (cs->functions->len));
  return cs->functions->len - 1;
}

/* --- Calls --------------------------------------------------------------------- */

static GArray *
level (Thread *t, gint depth)
{
  GPtrArray *side = depth >= 0 ? t->levels : t->below;
  guint i = depth >= 0 ? (guint) depth : (guint) (-1 - depth);
  while (side->len <= i)
    g_ptr_array_add (side, g_array_new (FALSE, FALSE, sizeof (Call)));
  return g_ptr_array_index (side, i);
}

static void
store_call (TtvCallstack *cs, Thread *t, gint depth, TtvTime start, TtvTime end, guint32 function, guint flags)
{
  Call c = { start, MAX (start, end), function << TTV_CALL_N_FLAG_BITS | flags, 0 };
  g_array_append_val (level (t, depth), c);
  t->pub.n_calls++;
  cs->n_calls++;
}

/* Returns the innermost open call, stored with @flags added. */
static void
pop (TtvCallstack *cs, Thread *t, TtvTime end, guint flags)
{
  Frame *f = &g_array_index (t->frames, Frame, t->frames->len - 1);
  store_call (cs, t, t->floor + (gint) t->frames->len - 1, f->start, end, f->function, f->flags | flags);
  g_array_set_size (t->frames, t->frames->len - 1);
}

static void
on_function_entry (TtvCallstack *cs, Thread *t, const TtvUstEvent *e)
{
  /* Deeper than any real program: a lost exit repeated; keep memory bounded. */
  if (t->frames->len >= 1u << 16)
    {
      cs->n_mismatches++;
      pop (cs, t, e->time, TTV_CALL_NO_EXIT);
    }
  Frame f = { e->addr, e->time, function_for (cs, t, e->addr, e->time), 0 };
  g_array_append_val (t->frames, f);
}

/* An exit whose call was entered before the trace began (or whose entry
 * was lost): a call below everything seen so far, from the thread's first
 * event. */
static void
exit_unseen (TtvCallstack *cs, Thread *t, guint32 function, TtvTime end)
{
  t->floor--;
  store_call (cs, t, t->floor, t->pub.first, end, function, TTV_CALL_BEGAN_BEFORE);
}

static void
on_function_exit (TtvCallstack *cs, Thread *t, const TtvUstEvent *e)
{
  if (!e->has_addr)
    {
      /* The fast variant names no function: the innermost call returns. */
      if (t->frames->len > 0)
        pop (cs, t, e->time, 0);
      else
        exit_unseen (cs, t, UNKNOWN_FUNCTION, e->time);
      return;
    }
  /* frames[i - 1] returns; none does when i is 0. */
  guint i = t->frames->len;
  while (i > 0 && g_array_index (t->frames, Frame, i - 1).addr != e->addr)
    i--;
  if (i != t->frames->len)
    cs->n_mismatches++;
  /* Calls above the one returning lost their exits (a longjmp, lost
   * events); with none matching, every open call did. */
  while (t->frames->len > i)
    pop (cs, t, e->time, TTV_CALL_NO_EXIT);
  if (i > 0)
    pop (cs, t, e->time, 0);
  else
    exit_unseen (cs, t, function_for (cs, t, e->addr, e->time), e->time);
}

static gboolean
on_function_event (gpointer data, gpointer call_data)
{
  TtvCallstack *cs = data;
  const TtvHookCall *call = call_data;
  TtvUstEvent e;
  if (!ttv_ust_model_read (cs->model, call->trace, call->event, &e))
    return FALSE;
  Thread *t = thread_for (cs, &e);
  if (e.action == TTV_UST_FUNC_ENTRY)
    on_function_entry (cs, t, &e);
  else
    on_function_exit (cs, t, &e);
  return FALSE;
}

static gboolean
on_binary_event (gpointer data, gpointer call_data)
{
  TtvCallstack *cs = data;
  const TtvHookCall *call = call_data;
  TtvUstEvent e;
  if (ttv_ust_model_read (cs->model, call->trace, call->event, &e))
    ttv_symbolizer_apply (cs->symbolizer, &e);
  return FALSE;
}

/* Every event of these actions goes to @hook. */
static void
hook_actions (TtvCallstack *cs, const TtvUstAction *actions, guint n, TtvHook hook)
{
  for (guint a = 0; a < n; a++)
    {
      g_autoptr (GPtrArray) names = ttv_ust_model_dup_event_names (cs->model, actions[a]);
      for (guint i = 0; i < names->len; i++)
        ttv_analysis_pass_add_hook (cs->pass, g_ptr_array_index (names, i), hook, cs, TTV_PRIO_DEFAULT);
    }
}

static gpointer
callstack_attach (TtvAnalysisPass *pass, const TtvAnalysisOptions *options, GError **error)
{
  static const TtvUstAction functions[] = { TTV_UST_FUNC_ENTRY, TTV_UST_FUNC_EXIT };
  static const TtvUstAction binaries[] = { TTV_UST_BIN_INFO, TTV_UST_LOAD, TTV_UST_UNLOAD, TTV_UST_BUILD_ID,
                                           TTV_UST_DEBUG_LINK };
  TtvTraceset *ts = ttv_analysis_pass_get_traceset (pass);
  TtvCallstack *cs = g_new0 (TtvCallstack, 1);
  cs->traceset = ttv_traceset_ref (ts);
  cs->pass = pass;
  g_autoptr (GPtrArray) traces = g_ptr_array_new ();
  for (guint i = 0; i < ttv_traceset_get_n_traces (ts); i++)
    g_ptr_array_add (traces, ttv_traceset_get_trace (ts, i));
  cs->model = ttv_ust_model_new (traces);
  cs->symbolizer = ttv_symbolizer_new (options->debug_dirs, NULL, options->symbols_only_in_dirs);
  cs->threads = g_ptr_array_new_with_free_func ((GDestroyNotify) thread_free);
  cs->thread_index = g_hash_table_new_full (thread_key_hash, thread_key_equal, g_free, NULL);
  cs->functions = g_array_new (FALSE, FALSE, sizeof (Function));
  cs->function_index = g_hash_table_new_full (function_key_hash, function_key_equal, g_free, NULL);
  cs->nodes = g_array_new (FALSE, FALSE, sizeof (Node));
  cs->strings = g_string_chunk_new (4096);
  /* Function 0 stands for the unnamed function of a fast-variant exit. */
  Function unknown = { { 0, N_("[unknown]"), FALSE, NULL, 0, NULL, TTV_PID_NONE, 0 }, 0, -1, 0 };
  g_array_append_val (cs->functions, unknown);
  hook_actions (cs, functions, G_N_ELEMENTS (functions), on_function_event);
  hook_actions (cs, binaries, G_N_ELEMENTS (binaries), on_binary_event);
  return cs;
}

/* --- The end ----------------------------------------------------------------- */

static int
compare_guint64 (gconstpointer a, gconstpointer b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;
  return x < y ? -1 : x > y;
}

/* Resolves every function's name, and lists which machine's functions lie
 * in which binary (a binary's path can be another file on another machine:
 * the report lists each machine's). */
static void
resolve_functions (TtvCallstack *cs)
{
  g_autoptr (GString) text = g_string_new (NULL);
  cs->machine_binaries = g_array_new (FALSE, FALSE, sizeof (guint64));
  Function *unknown = &g_array_index (cs->functions, Function, UNKNOWN_FUNCTION);
  unknown->pub.name = g_string_chunk_insert_const (cs->strings, _(unknown->pub.name));
  for (guint i = UNKNOWN_FUNCTION + 1; i < cs->functions->len; i++)
    {
      Function *f = &g_array_index (cs->functions, Function, i);
      TtvSymbol sym;
      ttv_symbolizer_resolve (cs->symbolizer, f->trace, f->vpid, f->pub.addr, f->first_seen, FALSE, &sym);
      g_string_truncate (text, 0);
      ttv_symbol_append (text, &sym, f->pub.addr, FALSE);
      f->pub.name = g_string_chunk_insert_const (cs->strings, text->str);
      f->pub.resolved = sym.function != NULL;
      f->pub.file = sym.file ? g_string_chunk_insert_const (cs->strings, sym.file) : NULL;
      f->pub.line = sym.line;
      f->pub.binary = sym.binary ? g_string_chunk_insert_const (cs->strings, sym.binary) : NULL;
      guint64 pair = (guint64) f->pub.machine << 32 | sym.binary_index;
      if (sym.binary)
        g_array_append_val (cs->machine_binaries, pair);
    }
  g_array_sort (cs->machine_binaries, compare_guint64);
  guint kept = 0;
  for (guint i = 0; i < cs->machine_binaries->len; i++)
    {
      guint64 pair = g_array_index (cs->machine_binaries, guint64, i);
      if (kept == 0 || g_array_index (cs->machine_binaries, guint64, kept - 1) != pair)
        g_array_index (cs->machine_binaries, guint64, kept++) = pair;
    }
  g_array_set_size (cs->machine_binaries, kept);
}

/* The child of @parent for @function, made on first need. */
static guint32
child_node (TtvCallstack *cs, GHashTable *index, guint32 parent, guint32 function)
{
  guint64 key = (guint64) parent << 32 | function;
  gpointer found;
  if (g_hash_table_lookup_extended (index, &key, NULL, &found))
    return GPOINTER_TO_UINT (found);
  const Node *p = &g_array_index (cs->nodes, Node, parent);
  Node n = { { parent, function, p->pub.depth + 1,
               g_array_index (cs->functions, Function, function).pub.name, FALSE }, NULL };
  for (guint32 a = parent; a != G_MAXUINT32 && !n.pub.recursive;
       a = g_array_index (cs->nodes, Node, a).pub.parent)
    n.pub.recursive = g_array_index (cs->nodes, Node, a).pub.function == function;
  g_array_append_val (cs->nodes, n);
  guint32 id = cs->nodes->len - 1;
  g_hash_table_insert (index, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (id));
  return id;
}

/* A process root's name: @name, after its machine's with several
 * machines, so that the flame graph and the folded stacks of two machines
 * tell their processes apart. */
static char *
root_name (const TtvCallstack *cs, const Thread *t, const char *name)
{
  const char *machine = ttv_traceset_get_machine_name_if_several (cs->traceset, t->pub.machine);
  return machine ? g_strdup_printf ("%s: %s", machine, name) : g_strdup (name);
}

/* The root of @t's process: one per (trace, pid), named after the main
 * thread when it is known, else after the first thread seen. */
static guint32
process_root (TtvCallstack *cs, GHashTable *roots, const Thread *t)
{
  guint64 key = (guint64) t->pub.trace << 32 | t->pub.pid;
  gpointer found;
  if (g_hash_table_lookup_extended (roots, &key, NULL, &found))
    {
      Node *n = &g_array_index (cs->nodes, Node, GPOINTER_TO_UINT (found));
      if (t->pub.tid == t->pub.pid && t->name)
        {
          g_free (n->owned_name);
          n->pub.name = n->owned_name = root_name (cs, t, t->name);
        }
      return GPOINTER_TO_UINT (found);
    }
  g_autofree char *pid = t->pub.pid != TTV_PID_NONE ? g_strdup_printf ("%u", t->pub.pid) : NULL;
  char *name = root_name (cs, t, t->name ? t->name : pid ? pid : _("[process]"));
  Node n = { { G_MAXUINT32, G_MAXUINT32, 0, name, FALSE }, name };
  g_array_append_val (cs->nodes, n);
  g_hash_table_insert (roots, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (cs->nodes->len - 1));
  return cs->nodes->len - 1;
}

/* The last call of @calls starting at or before @time (calls of one depth
 * never overlap, so it is the one containing @time if any). */
static gint
call_before (GArray *calls, TtvTime time)
{
  guint lo = 0, hi = calls->len;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (g_array_index (calls, Call, mid).start <= time)
        lo = mid + 1;
      else
        hi = mid;
    }
  return (gint) lo - 1;
}

static void
build_paths (TtvCallstack *cs, GHashTable *index, Thread *t)
{
  for (guint d = 0; d < t->levels->len; d++)
    {
      GArray *calls = g_ptr_array_index (t->levels, d);
      GArray *above = d > 0 ? g_ptr_array_index (t->levels, d - 1) : NULL;
      for (guint i = 0; i < calls->len; i++)
        {
          Call *c = &g_array_index (calls, Call, i);
          guint32 parent = t->root;
          gint j = above ? call_before (above, c->start) : -1;
          if (j >= 0 && g_array_index (above, Call, j).end >= c->end)
            parent = g_array_index (above, Call, j).node;
          c->node = child_node (cs, index, parent, CALL_FUNCTION (c));
        }
    }
}

static gint
compare_call_start (gconstpointer a, gconstpointer b)
{
  const Call *x = a, *y = b;
  return x->start < y->start ? -1 : x->start > y->start;
}

static gint
compare_thread_machine (gconstpointer a, gconstpointer b)
{
  guint x = (*(Thread *const *) a)->pub.machine, y = (*(Thread *const *) b)->pub.machine;
  return x < y ? -1 : x > y;
}

void
ttv_callstack_finish_threads (TtvCallstack *cs, TtvTime end)
{
  g_autoptr (GHashTable) index = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  g_autoptr (GHashTable) roots = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  /* Each machine's threads together, in order of appearance (a stable
   * sort: one machine's order is unchanged).  The threads' index is of
   * the pass, over now. */
  g_ptr_array_sort (cs->threads, compare_thread_machine);
  g_hash_table_remove_all (cs->thread_index);
  for (guint i = 0; i < cs->threads->len; i++)
    {
      Thread *t = g_ptr_array_index (cs->threads, i);
      /* Calls still open at the end of the trace end with the thread's
       * last event: what follows is not known. */
      while (t->frames->len > 0)
        pop (cs, t, t->pub.last, TTV_CALL_NO_EXIT);
      g_clear_pointer (&t->frames, g_array_unref);
      /* Depths below 0 (calls begun before the trace) come first. */
      GPtrArray *levels = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
      for (guint k = t->below->len; k-- > 0;)
        g_ptr_array_add (levels, g_ptr_array_steal_index (t->below, k));
      for (guint k = 0; k < t->levels->len; k++)
        g_ptr_array_add (levels, g_steal_pointer (&g_ptr_array_index (t->levels, k)));
      g_ptr_array_set_free_func (t->levels, NULL);
      g_ptr_array_unref (t->levels);
      t->levels = levels;
      /* Stored at their exits: in time order, but for the calls closed
       * together by an unmatched exit. */
      for (guint k = 0; k < levels->len; k++)
        g_array_sort (g_ptr_array_index (levels, k), compare_call_start);
      t->pub.n_depths = levels->len;
      t->pub.name = t->name ? t->name : "";
      t->root = process_root (cs, roots, t);
    }
  resolve_functions (cs);
  for (guint i = 0; i < cs->nodes->len; i++)
    {
      Node *n = &g_array_index (cs->nodes, Node, i);
      if (n->pub.function != G_MAXUINT32)
        n->pub.name = g_array_index (cs->functions, Function, n->pub.function).pub.name;
    }
  for (guint i = 0; i < cs->threads->len; i++)
    build_paths (cs, index, g_ptr_array_index (cs->threads, i));
}

static void
callstack_finish (gpointer self, TtvTime end)
{
  TtvCallstack *cs = self;
  ttv_callstack_finish_threads (cs, end);
  g_clear_pointer (&cs->model, ttv_ust_model_free);
  cs->pass = NULL;
}

const TtvAnalysisClass ttv_callstack_analysis = {
  .name = "callstack",
  .title = N_("Call stacks"),
  .description = N_("Function calls per thread from lttng-ust-cyg-profile events: flame graph and function "
                    "statistics (text, jsonl, csv, folded)"),
  .formats = TTV_ANALYSIS_FORMAT_BIT (TTV_ANALYSIS_FORMAT_TEXT) | TTV_ANALYSIS_FORMAT_BIT (TTV_ANALYSIS_FORMAT_JSONL)
             | TTV_ANALYSIS_FORMAT_BIT (TTV_ANALYSIS_FORMAT_CSV) | TTV_ANALYSIS_FORMAT_BIT (TTV_ANALYSIS_FORMAT_FOLDED),
  .needs_state = TRUE,
  .attach = callstack_attach,
  .finish = callstack_finish,
  .free = callstack_free,
  .write = ttv_callstack_write,
};
