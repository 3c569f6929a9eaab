/* ttv-memory-analysis.c: the memory analysis' pass and queries (see
 * ttv-memory-analysis.h).  Per process, the blocks allocated and not yet
 * freed (by address), the bytes in use after every change, and the call
 * site of every block: at the end, what is still allocated is the leaks. */
#include "ttv-memory-private.h"

#include "ttv-analysis-output.h"
#include "ttv-ust-model.h"
#include "ttv-ust-thread.h"

#include <glib/gi18n-lib.h>
#include <string.h>

/* Usage points are summarised per block of this many for zoomed-out views. */
#define SUMMARY_BLOCK 256

typedef struct {
  guint64 size;
  TtvTime time;
  guint32 tid;
  guint32 site;
} Block;

typedef struct {
  TtvMemoryProcess pub;
  char *name;                   /* owned */
  gint64 vpid;
  GHashTable *live;             /* guint64 ptr -> Block *, owned */
  guint64 in_use;
  GArray *points;               /* of TtvMemoryPoint */
  GArray *block_min;            /* of guint64: per SUMMARY_BLOCK points, after the pass */
  GArray *block_max;
} Process;

typedef struct {
  guint64 trace;                /* 64 bits: keys are compared as bytes, no padding */
  gint64 vpid;
  guint64 kind;
  guint64 addr;
} SiteKey;

typedef struct {
  TtvMemorySite pub;
  guint trace;
  gint64 vpid;
  TtvTime first_seen;
} Site;

typedef struct {
  guint32 trace;
  guint32 tid;
  gint64 vpid;
} StackKey;

struct _TtvMemory {
  TtvTraceset *traceset;        /* owned reference */
  TtvAnalysisPass *pass;        /* weak: during the pass */
  TtvUstModel *model;           /* owned; NULL after the pass */
  TtvSymbolizer *symbolizer;    /* owned */
  GPtrArray *processes;         /* of Process *, owned */
  GHashTable *process_index;    /* "trace:pid" -> index + 1 */
  GArray *sites;                /* of Site */
  GHashTable *site_index;       /* SiteKey -> index + 1 */
  GHashTable *stacks;           /* StackKey -> GArray of guint64: the open functions */
  GArray *leaks;                /* of TtvMemoryLeak, after the pass */
  gboolean has_functions;       /* the traces have cyg-profile events */
  GStringChunk *strings;        /* owned */
};

static void
process_free (Process *p)
{
  g_hash_table_unref (p->live);
  g_array_unref (p->points);
  if (p->block_min)
    g_array_unref (p->block_min);
  if (p->block_max)
    g_array_unref (p->block_max);
  g_free (p->name);
  g_free (p);
}

static void
memory_free (gpointer self)
{
  TtvMemory *m = self;
  ttv_ust_model_free (m->model);
  ttv_symbolizer_free (m->symbolizer);
  g_ptr_array_unref (m->processes);
  g_hash_table_unref (m->process_index);
  g_array_unref (m->sites);
  g_hash_table_unref (m->site_index);
  g_hash_table_unref (m->stacks);
  if (m->leaks)
    g_array_unref (m->leaks);
  g_string_chunk_free (m->strings);
  ttv_traceset_unref (m->traceset);
  g_free (m);
}

static guint
bytes_hash (gconstpointer p, gsize n)
{
  const guint8 *b = p;
  guint h = 5381;
  for (gsize i = 0; i < n; i++)
    h = h * 33 + b[i];
  return h;
}

static guint
site_key_hash (gconstpointer p)
{
  return bytes_hash (p, sizeof (SiteKey));
}

static gboolean
site_key_equal (gconstpointer a, gconstpointer b)
{
  return memcmp (a, b, sizeof (SiteKey)) == 0;
}

static guint
stack_key_hash (gconstpointer p)
{
  return bytes_hash (p, sizeof (StackKey));
}

static gboolean
stack_key_equal (gconstpointer a, gconstpointer b)
{
  return memcmp (a, b, sizeof (StackKey)) == 0;
}

/* --- The pass ------------------------------------------------------------------ */

static Process *
process_for (TtvMemory *m, const TtvUstThread *who, const TtvUstEvent *e)
{
  char key[48];
  g_snprintf (key, sizeof key, "%u:%u", who->trace, who->pid);
  guint index = GPOINTER_TO_UINT (g_hash_table_lookup (m->process_index, key));
  Process *p;
  if (index == 0)
    {
      p = g_new0 (Process, 1);
      p->pub.pid = who->pid;
      p->pub.trace = who->trace;
      p->pub.machine = ttv_traceset_get_trace_machine (m->traceset, who->trace);
      p->pub.first = e->time;
      p->vpid = who->vpid;
      p->live = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
      p->points = g_array_new (FALSE, FALSE, sizeof (TtvMemoryPoint));
      g_ptr_array_add (m->processes, p);
      g_hash_table_insert (m->process_index, g_strdup (key), GUINT_TO_POINTER (m->processes->len));
    }
  else
    p = g_ptr_array_index (m->processes, index - 1);
  /* Named after its main thread when it is seen, else its first thread. */
  if (who->name && *who->name && (p->name == NULL || who->tid == who->pid))
    {
      g_free (p->name);
      p->name = g_strdup (who->name);
    }
  p->pub.last = e->time;
  return p;
}

static guint32
site_for (TtvMemory *m, const TtvUstThread *who, const TtvUstEvent *e)
{
  SiteKey key = { who->trace, who->vpid, TTV_MEMORY_SITE_UNKNOWN, 0 };
  if (e->has_ip)
    {
      key.kind = TTV_MEMORY_SITE_IP;
      key.addr = e->ip;
    }
  else
    {
      StackKey sk = { who->trace, who->tid, who->tid == TTV_PID_NONE ? who->vpid : -1 };
      GArray *stack = g_hash_table_lookup (m->stacks, &sk);
      if (stack && stack->len > 0)
        {
          key.kind = TTV_MEMORY_SITE_FUNCTION;
          key.addr = g_array_index (stack, guint64, stack->len - 1);
        }
    }
  if (key.kind == TTV_MEMORY_SITE_UNKNOWN)
    key.trace = 0, key.vpid = 0;   /* one "unknown" for all */
  guint index = GPOINTER_TO_UINT (g_hash_table_lookup (m->site_index, &key));
  if (index)
    return index - 1;
  Site s = { { (TtvMemorySiteKind) key.kind, key.addr, NULL, FALSE, NULL, NULL, 0, NULL }, who->trace,
             who->vpid, e->time };
  g_array_append_val (m->sites, s);
  g_hash_table_insert (m->site_index, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (m->sites->len));
  return m->sites->len - 1;
}

static void
record_usage (Process *p, TtvTime time)
{
  if (p->points->len > 0)
    {
      TtvMemoryPoint *last = &g_array_index (p->points, TtvMemoryPoint, p->points->len - 1);
      if (last->time == time)
        {
          last->bytes = p->in_use;
          goto peak;
        }
    }
  TtvMemoryPoint point = { time, p->in_use };
  g_array_append_val (p->points, point);
peak:
  if (p->in_use > p->pub.peak)
    {
      p->pub.peak = p->in_use;
      p->pub.peak_time = time;
    }
}

static void
allocate (TtvMemory *m, Process *p, const TtvUstThread *who, const TtvUstEvent *e, guint64 ptr, guint64 size)
{
  Block *b = g_new (Block, 1);
  b->size = size;
  b->time = e->time;
  b->tid = who->tid;
  b->site = site_for (m, who, e);
  Block *old = g_hash_table_lookup (p->live, &ptr);
  /* The same address again: its free was not traced. */
  if (old)
    p->in_use -= old->size;
  g_hash_table_insert (p->live, g_memdup2 (&ptr, sizeof ptr), b);
  p->in_use += size;
  p->pub.bytes_allocated += size;
}

/* FALSE when @ptr is no block of @p. */
static gboolean
release (Process *p, guint64 ptr)
{
  Block *b = g_hash_table_lookup (p->live, &ptr);
  if (b == NULL)
    return FALSE;
  p->in_use -= b->size;
  g_hash_table_remove (p->live, &ptr);
  return TRUE;
}

static void
on_memory_event (TtvMemory *m, const TtvUstEvent *e)
{
  TtvUstThread who;
  ttv_ust_thread_of (ttv_analysis_pass_get_state (m->pass), e, &who);
  Process *p = process_for (m, &who, e);
  guint64 size = e->size;
  switch (e->action)
    {
    case TTV_UST_CALLOC:
      if (e->nmemb != 0 && size > G_MAXUINT64 / e->nmemb)
        size = G_MAXUINT64;   /* calloc refuses it: it returned NULL */
      else
        size *= e->nmemb;
      G_GNUC_FALLTHROUGH;
    case TTV_UST_MALLOC:
    case TTV_UST_MEMALIGN:
      if (e->ptr == 0)
        p->pub.n_failures++;
      else
        {
          allocate (m, p, &who, e, e->ptr, size);
          p->pub.n_allocations++;
        }
      break;
    case TTV_UST_POSIX_MEMALIGN:
      if (e->result != 0 || e->ptr == 0)
        p->pub.n_failures++;
      else
        {
          allocate (m, p, &who, e, e->ptr, size);
          p->pub.n_allocations++;
        }
      break;
    case TTV_UST_REALLOC:
      if (e->ptr == 0 && size != 0)
        p->pub.n_failures++;             /* the old block stays */
      else if (e->in_ptr == 0)
        {
          allocate (m, p, &who, e, e->ptr, size);
          p->pub.n_allocations++;
        }
      else
        {
          if (!release (p, e->in_ptr))
            p->pub.n_unknown_frees++;
          if (e->ptr != 0)               /* realloc (p, 0) frees */
            {
              allocate (m, p, &who, e, e->ptr, size);
              p->pub.n_reallocations++;
            }
          else
            p->pub.n_frees++;
        }
      break;
    case TTV_UST_FREE:
      if (e->ptr == 0)
        break;
      if (release (p, e->ptr))
        p->pub.n_frees++;
      else
        p->pub.n_unknown_frees++;
      break;
    default:
      return;
    }
  record_usage (p, e->time);
}

/* The functions each thread is in, for the call site of what it allocates
 * when the trace has no ip context. */
static void
on_function_event (TtvMemory *m, const TtvUstEvent *e)
{
  TtvUstThread who;
  ttv_ust_thread_of (ttv_analysis_pass_get_state (m->pass), e, &who);
  StackKey key = { who.trace, who.tid, who.tid == TTV_PID_NONE ? who.vpid : -1 };
  GArray *stack = g_hash_table_lookup (m->stacks, &key);
  if (stack == NULL)
    {
      stack = g_array_new (FALSE, FALSE, sizeof (guint64));
      g_hash_table_insert (m->stacks, g_memdup2 (&key, sizeof key), stack);
    }
  if (e->action == TTV_UST_FUNC_ENTRY)
    {
      if (stack->len < (1u << 16))
        g_array_append_val (stack, e->addr);
      return;
    }
  /* Back to the call that returns (calls above it lost their exits). */
  guint i = stack->len;
  while (e->has_addr && i > 0 && g_array_index (stack, guint64, i - 1) != e->addr)
    i--;
  g_array_set_size (stack, i > 0 ? i - 1 : 0);
}

static gboolean
on_event (gpointer data, gpointer call_data)
{
  TtvMemory *m = data;
  const TtvHookCall *call = call_data;
  TtvUstEvent e;
  if (!ttv_ust_model_read (m->model, call->trace, call->event, &e))
    return FALSE;
  switch (e.action)
    {
    case TTV_UST_FUNC_ENTRY:
    case TTV_UST_FUNC_EXIT:
      on_function_event (m, &e);
      break;
    case TTV_UST_BIN_INFO:
    case TTV_UST_LOAD:
    case TTV_UST_UNLOAD:
    case TTV_UST_BUILD_ID:
    case TTV_UST_DEBUG_LINK:
      ttv_symbolizer_apply (m->symbolizer, &e);
      break;
    default:
      on_memory_event (m, &e);
      break;
    }
  return FALSE;
}

static gpointer
memory_attach (TtvAnalysisPass *pass, const TtvAnalysisOptions *options, GError **error)
{
  static const TtvUstAction actions[] = {
    TTV_UST_MALLOC, TTV_UST_CALLOC, TTV_UST_REALLOC, TTV_UST_MEMALIGN, TTV_UST_POSIX_MEMALIGN, TTV_UST_FREE,
    TTV_UST_FUNC_ENTRY, TTV_UST_FUNC_EXIT, TTV_UST_BIN_INFO, TTV_UST_LOAD, TTV_UST_UNLOAD, TTV_UST_BUILD_ID,
    TTV_UST_DEBUG_LINK,
  };
  TtvTraceset *ts = ttv_analysis_pass_get_traceset (pass);
  TtvMemory *m = g_new0 (TtvMemory, 1);
  m->traceset = ttv_traceset_ref (ts);
  m->pass = pass;
  g_autoptr (GPtrArray) traces = g_ptr_array_new ();
  for (guint i = 0; i < ttv_traceset_get_n_traces (ts); i++)
    g_ptr_array_add (traces, ttv_traceset_get_trace (ts, i));
  m->model = ttv_ust_model_new (traces);
  m->has_functions = ttv_ust_model_has_action (m->model, TTV_UST_FUNC_ENTRY);
  m->symbolizer = ttv_symbolizer_new (options->debug_dirs, NULL, options->symbols_only_in_dirs);
  m->processes = g_ptr_array_new_with_free_func ((GDestroyNotify) process_free);
  m->process_index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  m->sites = g_array_new (FALSE, FALSE, sizeof (Site));
  m->site_index = g_hash_table_new_full (site_key_hash, site_key_equal, g_free, NULL);
  m->stacks = g_hash_table_new_full (stack_key_hash, stack_key_equal, g_free, (GDestroyNotify) g_array_unref);
  m->strings = g_string_chunk_new (4096);
  for (guint a = 0; a < G_N_ELEMENTS (actions); a++)
    {
      g_autoptr (GPtrArray) names = ttv_ust_model_dup_event_names (m->model, actions[a]);
      for (guint i = 0; i < names->len; i++)
        ttv_analysis_pass_add_hook (pass, g_ptr_array_index (names, i), on_event, m, TTV_PRIO_DEFAULT);
    }
  return m;
}

/* --- The end ----------------------------------------------------------------- */

/* The loader and the tracer by their file names: ld-linux-x86-64.so.2,
 * ld-linux-aarch64.so.1, ld.so...; liblttng-ust.so.1, liblttng-ust-*. */
static TtvMemoryOwner
owner_of (const char *binary)
{
  g_autofree char *base = binary ? g_path_get_basename (binary) : NULL;
  if (base && (g_str_has_prefix (base, "ld-linux") || g_str_has_prefix (base, "ld.so")
               || g_str_has_prefix (base, "ld64.so")))
    return TTV_MEMORY_OWNER_LOADER;
  if (base && g_str_has_prefix (base, "liblttng-ust"))
    return TTV_MEMORY_OWNER_TRACER;
  return TTV_MEMORY_OWNER_PROGRAM;
}

static void
name_sites (TtvMemory *m)
{
  g_autoptr (GString) text = g_string_new (NULL);
  for (guint i = 0; i < m->sites->len; i++)
    {
      Site *s = &g_array_index (m->sites, Site, i);
      g_string_truncate (text, 0);
      if (s->pub.kind == TTV_MEMORY_SITE_UNKNOWN)
        g_string_append (text, m->has_functions ? _("outside the traced functions (no ip context)")
                                                : _("unknown (no ip context)"));
      else
        {
          TtvSymbol sym;
          gboolean ip = s->pub.kind == TTV_MEMORY_SITE_IP;
          ttv_symbolizer_resolve (m->symbolizer, s->trace, s->vpid, s->pub.addr, s->first_seen, ip, &sym);
          ttv_symbol_append (text, &sym, s->pub.addr, TRUE);
          if (!ip)
            {
              /* Not where the call is: the function the thread was in. */
              g_autofree char *in = g_strdup_printf (_("in %s"), text->str);
              g_string_assign (text, in);
            }
          s->pub.resolved = sym.function != NULL;
          s->pub.function = sym.function ? g_string_chunk_insert_const (m->strings, sym.function) : NULL;
          s->pub.file = sym.file ? g_string_chunk_insert_const (m->strings, sym.file) : NULL;
          s->pub.line = sym.line;
          s->pub.binary = sym.binary ? g_string_chunk_insert_const (m->strings, sym.binary) : NULL;
          s->pub.owner = ip ? owner_of (sym.binary) : TTV_MEMORY_OWNER_PROGRAM;
        }
      s->pub.name = g_string_chunk_insert_const (m->strings, text->str);
    }
}

static gint
compare_leaks (gconstpointer a, gconstpointer b)
{
  const TtvMemoryLeak *x = a, *y = b;
  if (x->process != y->process)
    return x->process < y->process ? -1 : 1;
  if (x->time != y->time)
    return x->time < y->time ? -1 : 1;
  return x->ptr < y->ptr ? -1 : x->ptr > y->ptr;
}

static void
summarise_points (Process *p)
{
  guint n = (p->points->len + SUMMARY_BLOCK - 1) / SUMMARY_BLOCK;
  p->block_min = g_array_sized_new (FALSE, FALSE, sizeof (guint64), n);
  p->block_max = g_array_sized_new (FALSE, FALSE, sizeof (guint64), n);
  for (guint b = 0; b < n; b++)
    {
      guint64 lo = G_MAXUINT64, hi = 0;
      for (guint i = b * SUMMARY_BLOCK; i < MIN ((b + 1) * SUMMARY_BLOCK, p->points->len); i++)
        {
          guint64 v = g_array_index (p->points, TtvMemoryPoint, i).bytes;
          lo = MIN (lo, v);
          hi = MAX (hi, v);
        }
      g_array_append_val (p->block_min, lo);
      g_array_append_val (p->block_max, hi);
    }
}

static gint
compare_process_machine (gconstpointer a, gconstpointer b)
{
  guint x = (*(Process *const *) a)->pub.machine, y = (*(Process *const *) b)->pub.machine;
  return x < y ? -1 : x > y;
}

static void
memory_finish (gpointer self, TtvTime end)
{
  TtvMemory *m = self;
  name_sites (m);
  /* Each machine's processes together, in order of appearance (a stable
   * sort: one machine's order is unchanged); their index is of the pass,
   * over now. */
  g_ptr_array_sort (m->processes, compare_process_machine);
  g_hash_table_remove_all (m->process_index);
  m->leaks = g_array_new (FALSE, FALSE, sizeof (TtvMemoryLeak));
  for (guint i = 0; i < m->processes->len; i++)
    {
      Process *p = g_ptr_array_index (m->processes, i);
      p->pub.name = p->name ? p->name : "";
      p->pub.in_use_at_end = p->in_use;
      /* Its trace's span now, not when its first event came: a live
       * trace grows. */
      const TtvTrace *trace = ttv_traceset_get_trace (m->traceset, p->pub.trace);
      p->pub.traced_from = MIN (trace->start, p->pub.first);
      p->pub.traced_to = MAX (trace->end, p->pub.last);
      GHashTableIter it;
      gpointer key, value;
      g_hash_table_iter_init (&it, p->live);
      while (g_hash_table_iter_next (&it, &key, &value))
        {
          const Block *b = value;
          TtvMemoryLeak leak = { *(const guint64 *) key, b->size, b->time, b->tid, b->site, i };
          g_array_append_val (m->leaks, leak);
          if (g_array_index (m->sites, Site, b->site).pub.owner != TTV_MEMORY_OWNER_PROGRAM)
            {
              p->pub.n_kept_blocks++;
              p->pub.kept_bytes += b->size;
            }
          else
            p->pub.n_leaks++;
        }
      g_hash_table_remove_all (p->live);
      summarise_points (p);
    }
  g_array_sort (m->leaks, compare_leaks);
  g_hash_table_remove_all (m->stacks);
  g_clear_pointer (&m->model, ttv_ust_model_free);
  m->pass = NULL;
}

/* --- Queries ------------------------------------------------------------------- */

TtvMemory *
ttv_memory_from_analysis (const TtvAnalysis *analysis)
{
  g_return_val_if_fail (analysis != NULL, NULL);
  g_return_val_if_fail (ttv_analysis_get_class (analysis) == &ttv_memory_analysis, NULL);
  return ttv_analysis_get_data (analysis);
}

guint
ttv_memory_get_n_processes (const TtvMemory *m)
{
  return m->processes->len;
}

const TtvMemoryProcess *
ttv_memory_get_process (const TtvMemory *m, guint process)
{
  g_return_val_if_fail (process < m->processes->len, NULL);
  return &((Process *) g_ptr_array_index (m->processes, process))->pub;
}

gint
ttv_memory_find_process (const TtvMemory *m, guint machine, guint32 pid)
{
  for (guint i = 0; i < m->processes->len; i++)
    {
      const Process *p = g_ptr_array_index (m->processes, i);
      if (p->pub.pid == pid && p->pub.machine == machine)
        return (gint) i;
    }
  return -1;
}

guint
ttv_memory_get_n_sites (const TtvMemory *m)
{
  return m->sites->len;
}

const TtvMemorySite *
ttv_memory_get_site (const TtvMemory *m, guint32 site)
{
  g_return_val_if_fail (site < m->sites->len, NULL);
  return &g_array_index (m->sites, Site, site).pub;
}

TtvSymbolizer *
ttv_memory_get_symbolizer (const TtvMemory *m)
{
  return m->symbolizer;
}

/* The number of points at or before @time. */
static guint
points_until (GArray *points, TtvTime time)
{
  guint lo = 0, hi = points->len;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (g_array_index (points, TtvMemoryPoint, mid).time <= time)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

guint64
ttv_memory_get_usage_at (const TtvMemory *m, guint process, TtvTime time)
{
  g_return_val_if_fail (process < m->processes->len, 0);
  GArray *points = ((Process *) g_ptr_array_index (m->processes, process))->points;
  guint n = points_until (points, time);
  return n ? g_array_index (points, TtvMemoryPoint, n - 1).bytes : 0;
}

/* Least and most of points [from, to): whole summary blocks, and the
 * points at both edges. */
static void
range_min_max (const Process *p, guint from, guint to, guint64 *lo, guint64 *hi)
{
  guint i = from;
  while (i < to)
    {
      if (i % SUMMARY_BLOCK == 0 && i + SUMMARY_BLOCK <= to)
        {
          *lo = MIN (*lo, g_array_index (p->block_min, guint64, i / SUMMARY_BLOCK));
          *hi = MAX (*hi, g_array_index (p->block_max, guint64, i / SUMMARY_BLOCK));
          i += SUMMARY_BLOCK;
          continue;
        }
      guint64 v = g_array_index (p->points, TtvMemoryPoint, i).bytes;
      *lo = MIN (*lo, v);
      *hi = MAX (*hi, v);
      i++;
    }
}

void
ttv_memory_query_usage (const TtvMemory *m, guint process, TtvTime t0, TtvTime t1, guint width,
                        guint64 *min, guint64 *max)
{
  g_return_if_fail (process < m->processes->len && width > 0 && t1 > t0);
  const Process *p = g_ptr_array_index (m->processes, process);
  guint start = points_until (p->points, t0);
  TtvTime a = t0;
  for (guint x = 0; x < width; x++)
    {
      /* Unsigned: a damaged trace's times may be more than 2^63 ns apart. */
      TtvTime b = x + 1 == width ? t1
                                 : (TtvTime) ((guint64) t0
                                              + (guint64) ((double) ttv_time_span_ns (t0, t1) * (x + 1) / width));
      /* The value entering the pixel, then every change within it. */
      guint64 entering = start ? g_array_index (p->points, TtvMemoryPoint, start - 1).bytes : 0;
      guint end = points_until (p->points, b > TTV_TIME_MIN ? b - 1 : b);
      guint64 lo = entering, hi = entering;
      range_min_max (p, start, MAX (start, end), &lo, &hi);
      /* Outside its trace, its usage is not known: not the last value
       * drawn on through the years before another capture. */
      gboolean traced = b > p->pub.traced_from && a <= p->pub.traced_to;
      min[x] = traced ? lo : G_MAXUINT64;
      max[x] = traced ? hi : 0;
      start = MAX (start, end);
      a = b;
    }
}

GArray *
ttv_memory_dup_usage (const TtvMemory *m, guint process, TtvTime t0, TtvTime t1)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (TtvMemoryPoint));
  g_return_val_if_fail (process < m->processes->len, out);
  GArray *points = ((Process *) g_ptr_array_index (m->processes, process))->points;
  guint i = points_until (points, t0);
  TtvMemoryPoint first = { t0, i ? g_array_index (points, TtvMemoryPoint, i - 1).bytes : 0 };
  g_array_append_val (out, first);
  for (; i < points->len && g_array_index (points, TtvMemoryPoint, i).time <= t1; i++)
    g_array_append_val (out, g_array_index (points, TtvMemoryPoint, i));
  return out;
}

GArray *
ttv_memory_dup_leaks (const TtvMemory *m)
{
  return g_array_copy (m->leaks);
}

static gint
compare_groups (gconstpointer a, gconstpointer b)
{
  const TtvMemoryLeakGroup *x = a, *y = b;
  if (x->bytes != y->bytes)
    return x->bytes > y->bytes ? -1 : 1;
  if (x->count != y->count)
    return x->count > y->count ? -1 : 1;
  if (x->process != y->process)
    return x->process < y->process ? -1 : 1;
  return x->site < y->site ? -1 : x->site > y->site;
}

GArray *
ttv_memory_dup_leak_groups (const TtvMemory *m)
{
  GArray *groups = g_array_new (FALSE, FALSE, sizeof (TtvMemoryLeakGroup));
  g_autoptr (GHashTable) index = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  for (guint i = 0; i < m->leaks->len; i++)
    {
      const TtvMemoryLeak *l = &g_array_index (m->leaks, TtvMemoryLeak, i);
      gint64 key = (gint64) l->process << 32 | l->site;
      guint found = GPOINTER_TO_UINT (g_hash_table_lookup (index, &key));
      if (found == 0)
        {
          TtvMemoryLeakGroup fresh = { l->process, l->site, 0, 0, l->time, l->time };
          g_array_append_val (groups, fresh);
          g_hash_table_insert (index, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (groups->len));
          found = groups->len;
        }
      TtvMemoryLeakGroup *g = &g_array_index (groups, TtvMemoryLeakGroup, found - 1);
      g->count++;
      g->bytes += l->size;
      g->first = MIN (g->first, l->time);
      g->last = MAX (g->last, l->time);
    }
  g_array_sort (groups, compare_groups);
  return groups;
}

TtvTraceset *
ttv_memory_get_traceset (const TtvMemory *m)
{
  return m->traceset;
}

const TtvAnalysisClass ttv_memory_analysis = {
  .name = "memory",
  .title = N_("Memory"),
  .description = N_("Memory in use per process and potential leaks, from lttng-ust-libc-wrapper events "
                    "(text, jsonl, csv)"),
  .formats = TTV_ANALYSIS_FORMAT_BIT (TTV_ANALYSIS_FORMAT_TEXT) | TTV_ANALYSIS_FORMAT_BIT (TTV_ANALYSIS_FORMAT_JSONL)
             | TTV_ANALYSIS_FORMAT_BIT (TTV_ANALYSIS_FORMAT_CSV),
  .needs_state = TRUE,
  .attach = memory_attach,
  .finish = memory_finish,
  .free = memory_free,
  .write = ttv_memory_write,
};
