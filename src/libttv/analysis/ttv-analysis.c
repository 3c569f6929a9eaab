/* ttv-analysis.c: running analyses (see ttv-analysis.h): the cache
 * lookup, the one read that feeds every analysis not found there (the
 * kernel model's state, its observer fanned out to the analyses, their
 * calls before and after each event), and the results. */
#include "ttv-analysis-private.h"
#include "ttv-context.h"
#include "ttv-error.h"

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

/* What a build buffers by default before going on in a file (no cache). */
#define DEFAULT_MAX_MEMORY ((gsize) 8 << 20)

struct _TtvAnalysisBuilder {
  const TtvAnalysisClass *klass;      /* weak: static */
  gpointer self;                      /* the analysis's own data */
  TtvTraceset *traceset;              /* weak */
  TtvState *state;                    /* weak */
  TtvHistoryWriter w;
  char *cache_path;                   /* owned: committed there when done, or NULL */
  char *fingerprint;                  /* owned */
  TtvTableBuilder **tables;           /* owned, klass->n_tables */
  GPtrArray *strings;                 /* of char *, owned */
  GHashTable *string_index;           /* char * (in strings) -> index + 1 */
  GHashTable *quark_index;            /* GQuark -> index + 1 */
  GArray *values;                     /* of gint64 pairs (string index, value) */
  const TtvAnalysisOptions *options;  /* weak: the run's */
  guint64 n_events;
  TtvTime start, end;
};

/* ---- the builder's API ---- */

TtvTableBuilder *
ttv_analysis_builder_get_table (TtvAnalysisBuilder *b, guint index)
{
  g_return_val_if_fail (index < b->klass->n_tables, NULL);
  return b->tables[index];
}

TtvHistoryWriter *
ttv_analysis_builder_get_writer (TtvAnalysisBuilder *b)
{
  return &b->w;
}

guint32
ttv_analysis_builder_intern (TtvAnalysisBuilder *b, const char *text)
{
  if (text == NULL)
    return TTV_ANALYSIS_NO_STRING;
  gpointer found = g_hash_table_lookup (b->string_index, text);
  if (found)
    return GPOINTER_TO_UINT (found) - 1;
  char *copy = g_strdup (text);
  g_ptr_array_add (b->strings, copy);
  g_hash_table_insert (b->string_index, copy, GUINT_TO_POINTER (b->strings->len));
  return b->strings->len - 1;
}

guint32
ttv_analysis_builder_intern_quark (TtvAnalysisBuilder *b, GQuark quark)
{
  if (quark == 0)
    return TTV_ANALYSIS_NO_STRING;
  gpointer found = g_hash_table_lookup (b->quark_index, GUINT_TO_POINTER (quark));
  if (found)
    return GPOINTER_TO_UINT (found) - 1;
  guint32 index = ttv_analysis_builder_intern (b, g_quark_to_string (quark));
  g_hash_table_insert (b->quark_index, GUINT_TO_POINTER (quark), GUINT_TO_POINTER (index + 1));
  return index;
}

void
ttv_analysis_builder_set_value (TtvAnalysisBuilder *b, const char *key, gint64 value)
{
  gint64 pair[2] = { ttv_analysis_builder_intern (b, key), value };
  for (guint i = 0; i < b->values->len; i += 2)
    if (g_array_index (b->values, gint64, i) == pair[0])
      {
        g_array_index (b->values, gint64, i + 1) = value;
        return;
      }
  g_array_append_vals (b->values, pair, 2);
}

const TtvAnalysisOptions *
ttv_analysis_builder_get_options (TtvAnalysisBuilder *b)
{
  return b->options;
}

TtvTraceset *
ttv_analysis_builder_get_traceset (TtvAnalysisBuilder *b)
{
  return b->traceset;
}

const TtvState *
ttv_analysis_builder_get_state (TtvAnalysisBuilder *b)
{
  return b->state;
}

void
ttv_analysis_writer_source (TtvHistoryWriter *w, TtvAnalysisSource *src)
{
  ttv_history_writer_flush (w);
  src->data = w->bytes ? w->bytes->data : NULL;
  src->fd = w->bytes ? -1 : w->fd;
  src->size = w->offset;
  src->what = "analysis results";
}

static void
builder_free (TtvAnalysisBuilder *b)
{
  if (b == NULL)
    return;
  if (b->self && b->klass->free)
    b->klass->free (b->self);
  for (guint i = 0; b->tables && i < b->klass->n_tables; i++)
    ttv_table_builder_free (b->tables[i]);
  g_free (b->tables);
  ttv_history_writer_clear (&b->w);
  g_free (b->cache_path);
  g_free (b->fingerprint);
  g_ptr_array_unref (b->strings);
  g_hash_table_unref (b->string_index);
  g_hash_table_unref (b->quark_index);
  g_array_unref (b->values);
  g_free (b);
}

/* ---- cache files ---- */

static void
history_options (const TtvAnalysisOptions *opt, TtvHistoryOptions *h)
{
  memset (h, 0, sizeof *h);
  if (opt)
    {
      h->cache_dir = opt->cache_dir;
      h->cache_max_bytes = opt->cache_max_bytes;
      h->no_cache = opt->no_cache;
    }
}

char *
ttv_analysis_cache_path (TtvTraceset *ts, const TtvAnalysisClass *klass, const TtvAnalysisOptions *opt)
{
  TtvHistoryOptions h;
  history_options (opt, &h);
  g_autofree char *history = ttv_history_cache_path (ts, &h);
  /* Beside the state history ("<sha>.hist"), under one cap. */
  gsize n = strlen (history);
  if (g_str_has_suffix (history, ".hist"))
    history[n - 5] = '\0';
  return g_strdup_printf ("%s.%s.ttva", history, klass->name);
}

/* What a result must match: the trace (as the state history's), and the
 * analysis with the version of what it stores. */
static char *
fingerprint_of (TtvTraceset *ts, const TtvAnalysisClass *klass)
{
  g_autofree char *trace = ttv_history_fingerprint (ts);
  return g_strdup_printf ("%sanalysis %s %u layout %u\n", trace, klass->name, klass->version,
                          TTV_ANALYSIS_VERSION);
}

/* ---- the one read ---- */

typedef struct {
  TtvAnalysisBuilder **builders;
  guint n;
} Fanout;

#define FANOUT(cb, ...) \
  G_STMT_START { \
    Fanout *f_ = data; \
    for (guint i_ = 0; i_ < f_->n; i_++) \
      { \
        const TtvStateObserver *o_ = f_->builders[i_]->klass->observer; \
        if (o_ && o_->cb) \
          o_->cb (f_->builders[i_]->self, __VA_ARGS__); \
      } \
  } G_STMT_END

static void
fan_cpu_time (gpointer data, gint cpu, guint32 pid, TtvExecMode mode, guint32 id, TtvTime start, TtvTime end)
{
  FANOUT (cpu_time, cpu, pid, mode, id, start, end);
}

static void
fan_frame_end (gpointer data, gint cpu, guint32 pid, const TtvExecFrame *frame, TtvTime end)
{
  FANOUT (frame_end, cpu, pid, frame, end);
}

static void
fan_process_status (gpointer data, const TtvProcessState *p, TtvProcessStatus old, TtvTime time)
{
  FANOUT (process_status, p, old, time);
}

static void
fan_mark (gpointer data, TtvStateMark kind, guint32 pid, guint32 other, TtvTime time)
{
  FANOUT (mark, kind, pid, other, time);
}

static void
fan_resource (gpointer data, TtvStateResource kind, guint32 id, guint count, TtvTime time)
{
  FANOUT (resource, kind, id, count, time);
}

static const TtvStateObserver fanout_observer = {
  fan_cpu_time, fan_frame_end, fan_process_status, fan_mark, fan_resource,
};

static TtvAnalysisBuilder *
builder_new (TtvTraceset *ts, const TtvAnalysisClass *klass, const TtvAnalysisOptions *opt, TtvState *state,
             GError **error)
{
  static const TtvAnalysisOptions defaults = { 0 };
  TtvAnalysisBuilder *b = g_new0 (TtvAnalysisBuilder, 1);
  b->klass = klass;
  b->options = opt ? opt : &defaults;
  b->traceset = ts;
  b->state = state;
  b->fingerprint = fingerprint_of (ts, klass);
  b->strings = g_ptr_array_new_with_free_func (g_free);
  b->string_index = g_hash_table_new (g_str_hash, g_str_equal);
  b->quark_index = g_hash_table_new (g_direct_hash, g_direct_equal);
  b->values = g_array_new (FALSE, FALSE, sizeof (gint64));
  b->start = ttv_traceset_get_start (ts);
  b->end = ttv_traceset_get_end (ts);
  if (b->start == TTV_TIME_MAX)
    b->start = b->end = 0;
  gsize max_memory = opt && opt->max_memory ? opt->max_memory : DEFAULT_MAX_MEMORY;
  g_autoptr (GError) cache_error = NULL;
  gboolean in_file = FALSE;
  if (!(opt && opt->no_cache) && klass->steal_data == NULL)
    {
      b->cache_path = ttv_analysis_cache_path (ts, klass, opt);
      g_autofree char *dir = g_path_get_dirname (b->cache_path);
      in_file = ttv_history_writer_init_file (&b->w, dir, FALSE, &cache_error);
      if (!in_file)
        {
          g_warning ("The %s analysis is not cached: %s", klass->name, cache_error->message);
          g_clear_pointer (&b->cache_path, g_free);
        }
    }
  if (!in_file)
    ttv_history_writer_init_memory (&b->w, max_memory, NULL);
  b->w.header_size = sizeof (TtvAnalysisHeader);
  /* The header's place, written last; the fingerprint first, so that a
   * stale file is told by its first bytes. */
  ttv_history_writer_reserve (&b->w, sizeof (TtvAnalysisHeader));
  ttv_history_writer_append (&b->w, b->fingerprint, strlen (b->fingerprint) + 1);
  ttv_history_writer_align (&b->w);
  b->tables = g_new0 (TtvTableBuilder *, MAX (klass->n_tables, 1));
  for (guint i = 0; i < klass->n_tables; i++)
    b->tables[i] = ttv_table_builder_new (b, klass->tables[i], b->start, b->end);
  b->self = klass->begin (b);
  if (b->w.failed)
    {
      ttv_history_writer_set_error (&b->w, klass->name, error);
      builder_free (b);
      return NULL;
    }
  return b;
}

/* Everything after the tables' data: table headers, values, strings,
 * then the header at the start. */
static gboolean
builder_write_tail (TtvAnalysisBuilder *b, GCancellable *cancel, GError **error)
{
  TtvHistoryWriter *w = &b->w;
  g_autoptr (GArray) headers = g_array_new (FALSE, TRUE, sizeof (TtvAnalysisTableHeader));
  for (guint i = 0; i < b->klass->n_tables; i++)
    {
      TtvAnalysisTableHeader th;
      guint32 name = ttv_analysis_builder_intern (b, b->klass->tables[i]->name);
      if (!ttv_table_builder_finish (b->tables[i], w, &th, name, cancel, error))
        return FALSE;
      g_array_append_val (headers, th);
      /* Its buffers go now. */
      ttv_table_builder_free (g_steal_pointer (&b->tables[i]));
    }
  TtvAnalysisHeader hd;
  memset (&hd, 0, sizeof hd);
  ttv_history_writer_align (w);
  hd.tables_offset = ttv_history_writer_append (w, headers->data, headers->len * sizeof (TtvAnalysisTableHeader));
  hd.n_tables = headers->len;
  ttv_history_writer_align (w);
  hd.values_offset = ttv_history_writer_append (w, b->values->data, b->values->len * sizeof (gint64));
  hd.n_values = b->values->len / 2;
  hd.strings_offset = w->offset;
  g_autoptr (GArray) index = g_array_sized_new (FALSE, FALSE, sizeof (guint64), b->strings->len);
  for (guint i = 0; i < b->strings->len; i++)
    {
      const char *s = g_ptr_array_index (b->strings, i);
      guint64 off = ttv_history_writer_append (w, s, strlen (s) + 1) - hd.strings_offset;
      g_array_append_val (index, off);
    }
  hd.strings_size = w->offset - hd.strings_offset;
  ttv_history_writer_align (w);
  hd.string_index_offset = ttv_history_writer_append (w, index->data, index->len * sizeof (guint64));
  hd.n_strings = b->strings->len;
  memcpy (hd.magic, TTV_ANALYSIS_MAGIC, sizeof hd.magic);
  hd.version = TTV_ANALYSIS_VERSION;
  hd.bom = TTV_ANALYSIS_BOM;
  hd.file_size = w->offset;
  hd.fingerprint_offset = sizeof hd;
  hd.fingerprint_size = strlen (b->fingerprint) + 1;
  hd.n_events = b->n_events;
  hd.start = b->start;
  hd.end = b->end;
  /* Memory is not damaged between runs: only files carry a checksum. */
  hd.checksum = w->bytes ? 0 : ttv_history_writer_checksum (w);
  ttv_history_writer_pwrite (w, 0, &hd, sizeof hd);
  if (!ttv_history_writer_flush (w))
    {
      ttv_history_writer_set_error (w, b->klass->name, error);
      return FALSE;
    }
  return TRUE;
}

/* The result @b wrote: committed to the cache when it has a path. */
static TtvAnalysisResult *
builder_open (TtvAnalysisBuilder *b, const TtvAnalysisOptions *opt, GError **error)
{
  TtvAnalysisSource src = { NULL, -1, b->w.offset, NULL };
  guint8 *heap = NULL;
  if (b->w.bytes)
    {
      src.size = b->w.bytes->len;
      heap = g_byte_array_free (g_steal_pointer (&b->w.bytes), FALSE);
      src.data = heap;
    }
  else
    {
      src.fd = dup (b->w.fd);
      if (src.fd < 0)
        {
          ttv_history_writer_set_error (&b->w, b->klass->name, error);
          return NULL;
        }
    }
  TtvAnalysisResult *r = ttv_analysis_result_new (b->klass, &src, heap);
  if (b->cache_path)
    {
      g_autoptr (GError) commit_error = NULL;
      if (ttv_history_writer_commit (&b->w, b->cache_path, &commit_error))
        {
          r->cache_path = g_strdup (b->cache_path);
          TtvHistoryOptions h;
          history_options (opt, &h);
          g_autofree char *dir = g_path_get_dirname (b->cache_path);
          if (!ttv_history_cache_evict (dir, ttv_history_cache_limit (&h, dir), b->cache_path))
            g_clear_pointer (&r->cache_path, g_free);
        }
      else
        /* Still right, only not kept for the next time. */
        g_warning ("%s", commit_error->message);
    }
  r->src.what = r->cache_path ? r->cache_path : "analysis results";
  /* Just built: trusted, not read through again. */
  if (!ttv_analysis_result_open (r, r->src.what, NULL, error))
    {
      ttv_analysis_result_unref (r);
      return NULL;
    }
  return r;
}

/* Reads @ts once for @builders (n of them); FALSE with @error. */
static gboolean
read_traceset (TtvTraceset *ts, TtvAnalysisBuilder **builders, guint n, TtvKernelModel *model, TtvState *state,
               void (*progress) (double, gpointer), gpointer progress_data, GCancellable *cancel, GError **error)
{
  g_autoptr (TtvContext) ctx = ttv_context_new (ts, error);
  if (ctx == NULL || !ttv_context_seek_begin (ctx, error))
    return FALSE;
  TtvTime start = ttv_traceset_get_start (ts), end = ttv_traceset_get_end (ts);
  TtvAnalysisEvent ae = { ts, model, state, NULL, 0, TTV_KM_NONE };
  gboolean any_before = FALSE, any_after = FALSE;
  for (guint i = 0; i < n; i++)
    {
      any_before |= builders[i]->klass->before_event != NULL;
      any_after |= builders[i]->klass->after_event != NULL;
    }
  guint64 count = 0;
  TtvTime last = start == TTV_TIME_MAX ? 0 : start;
  const TtvEvent *ev;
  GError *local = NULL;
  while ((ev = ttv_context_next (ctx, &local)) != NULL)
    {
      ae.trace = ttv_traceset_get_stream_trace (ts, ttv_context_get_stream (ctx));
      ae.event = ev;
      ae.action = ttv_kernel_model_get_action (model, ae.trace, ev->type);
      if (any_before)
        for (guint i = 0; i < n; i++)
          if (builders[i]->klass->before_event)
            builders[i]->klass->before_event (builders[i]->self, &ae);
      ttv_kernel_model_apply (model, state, ae.trace, ev);
      if (any_after)
        for (guint i = 0; i < n; i++)
          if (builders[i]->klass->after_event)
            builders[i]->klass->after_event (builders[i]->self, &ae);
      last = MAX (last, ev->time);
      if ((++count & 0xffff) == 0)
        {
          if (g_cancellable_set_error_if_cancelled (cancel, &local))
            break;
          if (progress && end > start)
            progress (0.9 * (double) (ev->time - start) / (double) (end - start), progress_data);
        }
    }
  if (local)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  for (guint i = 0; i < n; i++)
    {
      builders[i]->n_events = count;
      if (builders[i]->klass->end)
        builders[i]->klass->end (builders[i]->self, state, last);
    }
  return TRUE;
}

static GPtrArray *
build (TtvTraceset *ts, const TtvAnalysisClass *const *classes, guint n, const TtvAnalysisOptions *opt,
       void (*progress) (double, gpointer), gpointer progress_data, GCancellable *cancel, GError **error)
{
  g_autoptr (GPtrArray) traces = g_ptr_array_new ();
  for (guint i = 0; i < ttv_traceset_get_n_traces (ts); i++)
    g_ptr_array_add (traces, ttv_traceset_get_trace (ts, i));
  g_autoptr (TtvKernelModel) model = ttv_kernel_model_new (traces);
  g_autoptr (TtvState) state = ttv_state_new ();
  g_autofree TtvAnalysisBuilder **builders = g_new0 (TtvAnalysisBuilder *, MAX (n, 1));
  GPtrArray *results = g_ptr_array_new_with_free_func ((GDestroyNotify) ttv_analysis_result_unref);
  gboolean ok = TRUE;
  for (guint i = 0; i < n && ok; i++)
    ok = (builders[i] = builder_new (ts, classes[i], opt, state, error)) != NULL;
  Fanout fan = { builders, n };
  if (ok)
    {
      ttv_state_add_observer (state, &fanout_observer, &fan);
      for (guint i = 0; i < traces->len; i++)
        ttv_kernel_model_apply_initial (model, state, g_ptr_array_index (traces, i));
      ok = read_traceset (ts, builders, n, model, state, progress, progress_data, cancel, error);
      ttv_state_remove_observer (state, &fanout_observer);
    }
  for (guint i = 0; i < n && ok; i++)
    {
      builders[i]->state = NULL;
      ok = builder_write_tail (builders[i], cancel, error);
      TtvAnalysisResult *r = ok ? builder_open (builders[i], opt, error) : NULL;
      ok = r != NULL;
      if (r && classes[i]->steal_data)
        {
          r->data = classes[i]->steal_data (builders[i]->self);
          builders[i]->self = NULL;
        }
      if (r)
        g_ptr_array_add (results, r);
      /* Written: its memory goes before the next one writes. */
      g_clear_pointer (&builders[i], builder_free);
    }
  for (guint i = 0; i < n; i++)
    builder_free (builders[i]);
  if (!ok)
    g_clear_pointer (&results, g_ptr_array_unref);
  return results;
}

GPtrArray *
ttv_analysis_run (TtvTraceset *ts, const TtvAnalysisClass *const *classes, guint n, const TtvAnalysisOptions *opt,
                  void (*progress) (double, gpointer), gpointer progress_data, GCancellable *cancel, GError **error)
{
  if (g_cancellable_set_error_if_cancelled (cancel, error))
    return NULL;
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) ttv_analysis_result_unref);
  g_ptr_array_set_size (out, n);
  g_autoptr (GPtrArray) missing = g_ptr_array_new ();
  for (guint i = 0; i < n; i++)
    {
      if ((opt && opt->no_cache) || classes[i]->steal_data)
        {
          g_ptr_array_add (missing, (gpointer) classes[i]);
          continue;
        }
      g_autofree char *path = ttv_analysis_cache_path (ts, classes[i], opt);
      TtvAnalysisResult *r = NULL;
      if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
        {
          g_autoptr (GError) load_error = NULL;
          r = ttv_analysis_result_load (path, ts, classes[i], &load_error);
          if (r == NULL)
            g_debug ("analysis cache not used: %s", load_error->message);
        }
      if (r)
        {
          /* The most recently used now; and the cap may have changed. */
          ttv_history_cache_touch (path);
          TtvHistoryOptions h;
          history_options (opt, &h);
          g_autofree char *dir = g_path_get_dirname (path);
          ttv_history_cache_evict (dir, ttv_history_cache_limit (&h, dir), path);
          out->pdata[i] = r;
        }
      else
        g_ptr_array_add (missing, (gpointer) classes[i]);
    }
  if (missing->len > 0)
    {
      g_autoptr (GPtrArray) built = build (ts, (const TtvAnalysisClass *const *) missing->pdata, missing->len, opt,
                                           progress, progress_data, cancel, error);
      if (built == NULL)
        {
          g_ptr_array_unref (out);
          return NULL;
        }
      for (guint i = 0, j = 0; i < n; i++)
        if (out->pdata[i] == NULL)
          out->pdata[i] = ttv_analysis_result_ref (g_ptr_array_index (built, j++));
    }
  if (progress)
    progress (1.0, progress_data);
  return out;
}

TtvAnalysisResult *
ttv_analysis_run_one (TtvTraceset *ts, const TtvAnalysisClass *klass, const TtvAnalysisOptions *opt,
                      void (*progress) (double, gpointer), gpointer progress_data, GCancellable *cancel,
                      GError **error)
{
  g_autoptr (GPtrArray) results = ttv_analysis_run (ts, &klass, 1, opt, progress, progress_data, cancel, error);
  return results ? ttv_analysis_result_ref (g_ptr_array_index (results, 0)) : NULL;
}

TtvAnalysisResult *
ttv_analysis_result_load (const char *path, TtvTraceset *ts, const TtvAnalysisClass *klass, GError **error)
{
  g_autofree char *fingerprint = ts ? fingerprint_of (ts, klass) : NULL;
  return ttv_analysis_result_load_file (path, fingerprint, klass, error);
}
