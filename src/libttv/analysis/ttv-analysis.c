/* ttv-analysis.c: running analyses over a traceset in one read (see
 * ttv-analysis.h): the cache lookup of analyses with tables, the pass
 * (the kernel model's state at TTV_PRIO_STATE, its observer fanned out to
 * the analyses, their hooks and calls before and after each event), the
 * results and their reports.  The list of classes is in
 * ttv-analysis-registry.c. */
#include "ttv-analysis-private.h"

#include "ttv-error.h"

#include <glib/gi18n-lib.h>
#include <string.h>

typedef struct {
  const TtvAnalysisClass *cls;  /* weak: static */
  gpointer self;                /* owned through cls->free until the analysis takes it */
  TtvAnalysisBuilder *builder;  /* owned, or NULL: a class without tables */
} Attached;

struct _TtvAnalysisPass {
  TtvTraceset *traceset;        /* weak: the run's */
  TtvHooks *hooks;              /* owned: hooks for every event */
  TtvHooksById *by_name;        /* owned: hooks by event name */
  TtvKernelModel *model;        /* owned, NULL when no class needs the state */
  TtvState *state;              /* owned, or NULL */
  GArray *attached;             /* of Attached */
  TtvAnalysisBuilder *attaching; /* weak: the builder of the class attach() runs for */
  TtvAnalysisEvent ev;          /* the event being delivered, as before/after_event see it */
  gboolean any_before, any_after;
  guint n_hooks;                /* hooks the analyses added (0: the pass reads events itself) */
  gboolean fanned_out;          /* the state tells the analyses through fanout_observer */
  /* One trace, one machine (the usual case): every event's trace is 0 and
   * the state's machine stays the one, without the calls that find them
   * for each event. */
  gboolean one_trace, one_machine;
};

TtvTraceset *
ttv_analysis_pass_get_traceset (TtvAnalysisPass *pass)
{
  return pass->traceset;
}

void
ttv_analysis_pass_add_hook (TtvAnalysisPass *pass, const char *event_name, TtvHook hook,
                            gpointer hook_data, guint prio)
{
  g_return_if_fail (pass != NULL && hook != NULL);
  pass->n_hooks++;
  ttv_hooks_add (event_name ? ttv_hooks_by_id_find (pass->by_name, event_name) : pass->hooks,
                 hook, hook_data, prio);
}

const TtvState *
ttv_analysis_pass_get_state (TtvAnalysisPass *pass)
{
  return pass->state;
}

TtvAnalysisBuilder *
ttv_analysis_pass_get_builder (TtvAnalysisPass *pass)
{
  return pass->attaching;
}

const char *
ttv_analysis_format_name (TtvAnalysisFormat format)
{
  static const char *const names[] = { "text", "jsonl", "csv", "folded" };
  return format < TTV_ANALYSIS_N_FORMATS ? names[format] : "?";
}

gboolean
ttv_analysis_format_parse (const char *name, TtvAnalysisFormat *format)
{
  for (guint f = 0; f < TTV_ANALYSIS_N_FORMATS; f++)
    if (g_strcmp0 (name, ttv_analysis_format_name (f)) == 0)
      {
        *format = f;
        return TRUE;
      }
  return FALSE;
}

const TtvAnalysisClass *
ttv_analysis_find (const char *name)
{
  for (const TtvAnalysisClass *const *c = ttv_analysis_list (); *c; c++)
    if (g_strcmp0 ((*c)->name, name) == 0)
      return *c;
  return NULL;
}

void
ttv_analysis_options_get_range (const TtvAnalysisOptions *options, TtvTraceset *ts,
                                TtvTime *start, TtvTime *end)
{
  gboolean set = options && (options->start != 0 || options->end != 0);
  *start = set ? options->start : ttv_traceset_get_start (ts);
  *end = set ? options->end : ttv_traceset_get_end (ts);
  /* An empty traceset has no span: start and end are unset. */
  if (*start > *end)
    *start = *end = 0;
}

gboolean
ttv_analysis_write (const TtvAnalysis *a, TtvAnalysisFormat format, const TtvAnalysisOptions *options,
                    GString *out, GError **error)
{
  static const TtvAnalysisOptions whole = { 0 };
  if (format >= TTV_ANALYSIS_N_FORMATS || !(a->cls->formats & TTV_ANALYSIS_FORMAT_BIT (format)))
    {
      g_set_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT,
                   _("the %s analysis has no %s output"), a->cls->name, ttv_analysis_format_name (format));
      return FALSE;
    }
  options = options ? options : &whole;
  if (a->cls->write)
    return a->cls->write (a->data, format, options, out, error);
  return ttv_analysis_print (a, format, options, out, error);
}

/* --- One read for several analyses ---------------------------------------------- */

#define FANOUT(cb, ...) \
  G_STMT_START { \
    TtvAnalysisPass *p_ = data; \
    for (guint i_ = 0; i_ < p_->attached->len; i_++) \
      { \
        const Attached *a_ = &g_array_index (p_->attached, Attached, i_); \
        const TtvStateObserver *o_ = a_->cls->observer; \
        if (o_ && o_->cb) \
          o_->cb (a_->self, __VA_ARGS__); \
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

/* Before the state applies @event of trace @trace: the event as analyses
 * see it, and their calls before it. */
static inline void
before_event (TtvAnalysisPass *pass, guint trace, const TtvEvent *event)
{
  pass->ev.event = event;
  pass->ev.trace = trace;
  pass->ev.action = ttv_kernel_model_get_action (pass->model, trace, event->type);
  if (!pass->any_before)
    return;
  /* The state before the event is its machine's, as after it (the kernel
   * model selects it again when it applies the event). */
  if (!pass->one_machine)
    ttv_state_select_machine (pass->state, ttv_traceset_get_trace_machine (pass->traceset, trace));
  for (guint i = 0; i < pass->attached->len; i++)
    {
      const Attached *a = &g_array_index (pass->attached, Attached, i);
      if (a->cls->before_event)
        a->cls->before_event (a->self, &pass->ev);
    }
}

/* The state applies the event, then the analyses' calls after it. */
static inline void
apply_event (TtvAnalysisPass *pass, guint trace, const TtvEvent *event)
{
  ttv_kernel_model_apply (pass->model, pass->state, trace, event);
  if (pass->any_after)
    for (guint i = 0; i < pass->attached->len; i++)
      {
        const Attached *a = &g_array_index (pass->attached, Attached, i);
        if (a->cls->after_event)
          a->cls->after_event (a->self, &pass->ev);
      }
}

/* The hooks of the pass itself when analyses add hooks of their own:
 * before_event() just before the state, apply_event() at its priority. */
static gboolean
prologue_hook (gpointer data, gpointer call_data)
{
  const TtvHookCall *call = call_data;
  before_event (data, call->trace, call->event);
  return FALSE;
}

static gboolean
state_hook (gpointer data, gpointer call_data)
{
  const TtvHookCall *call = call_data;
  apply_event (data, call->trace, call->event);
  return FALSE;
}

typedef struct {
  void (*progress) (double, gpointer);
  gpointer data;
  TtvTime start, end;
  GCancellable *cancel;
} PassProgress;

/* Every SLICE events, a read looks at cancellation and tells progress. */
#define SLICE (1u << 16)

static void
report_progress (const PassProgress *pp, TtvTime next)
{
  if (pp->progress && pp->end > pp->start)
    pp->progress (0.9 * (double) (next - pp->start) / (double) (pp->end - pp->start), pp->data);
}

/* Reads the traceset through the pass's hooks in slices, so that progress
 * and cancellation are seen often; the last event's time in *@last. */
static gboolean
read_with_hooks (TtvAnalysisPass *pass, TtvContext *ctx, const PassProgress *pp, guint64 *n_events,
                 TtvTime *last, GError **error)
{
  g_autoptr (TtvHooks) hooks = ttv_hooks_new ();
  if (pass->state)
    {
      /* Just before the state: what analyses read of the state before the
       * event; the state, then what they read after it. */
      ttv_hooks_add (hooks, prologue_hook, pass, TTV_PRIO_STATE);
      ttv_hooks_add (hooks, state_hook, pass, TTV_PRIO_STATE);
    }
  ttv_hooks_add_list (hooks, pass->hooks);
  ttv_context_process_begin (ctx, NULL, NULL, NULL, hooks, pass->by_name);
  GError *local = NULL;
  const TtvEvent *next;
  guint64 n, total = 0;
  while ((n = ttv_context_process_middle (ctx, TTV_TIME_MAX, SLICE, NULL, &local)) > 0 && local == NULL)
    {
      total += n;
      if (pass->state)
        *last = MAX (*last, ttv_state_get_time (pass->state));
      if (g_cancellable_set_error_if_cancelled (pp->cancel, &local) || (next = ttv_context_peek (ctx, &local)) == NULL)
        break;
      report_progress (pp, next->time);
    }
  ttv_context_process_end (ctx, NULL, NULL, NULL, hooks, pass->by_name);
  if (local)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  *n_events = total;
  return TRUE;
}

/* The same read when the analyses added no hooks (the kernel analyses):
 * the pass calls the state and the analyses itself, as the state pass
 * does, without the hooks' dispatch for every event.  The same slices:
 * *@last is taken where read_with_hooks() takes it. */
static gboolean
read_events (TtvAnalysisPass *pass, TtvContext *ctx, const PassProgress *pp, guint64 *n_events, TtvTime *last,
             GError **error)
{
  GError *local = NULL;
  const TtvEvent *ev;
  guint64 total = 0;
  while ((ev = ttv_context_next (ctx, &local)) != NULL)
    {
      guint trace = pass->one_trace ? 0 : ttv_traceset_get_stream_trace (pass->traceset, ttv_context_get_stream (ctx));
      before_event (pass, trace, ev);
      apply_event (pass, trace, ev);
      if ((++total % SLICE) == 0)
        {
          *last = MAX (*last, ttv_state_get_time (pass->state));
          if (g_cancellable_set_error_if_cancelled (pp->cancel, &local))
            break;
          report_progress (pp, ev->time);
        }
    }
  if (local)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  if (total % SLICE)
    *last = MAX (*last, ttv_state_get_time (pass->state));
  *n_events = total;
  return TRUE;
}

static gboolean
read_traceset (TtvAnalysisPass *pass, const PassProgress *pp, guint64 *n_events, TtvTime *last, GError **error)
{
  g_autoptr (TtvContext) ctx = ttv_context_new (pass->traceset, error);
  if (ctx == NULL || !ttv_context_seek_begin (ctx, error))
    return FALSE;
  *last = pp->start == TTV_TIME_MAX ? 0 : pp->start;
  gboolean ok = pass->state && pass->n_hooks == 0 ? read_events (pass, ctx, pp, n_events, last, error)
                                                  : read_with_hooks (pass, ctx, pp, n_events, last, error);
  if (ok && pass->state == NULL)
    *last = pp->end;
  return ok;
}

/* The analyses observe the state each through its own observer when the
 * state has room for them all: the state then calls only what some
 * analysis observes (no CPU time to tell an analysis of system calls),
 * with no walk of the analyses for every change.  Else, or when a class
 * comes twice (an observer is added once), all through the fan-out. */
static void
observe_state (TtvAnalysisPass *pass)
{
  guint n = 0;
  for (guint i = 0; i < pass->attached->len; i++)
    {
      const TtvStateObserver *o = g_array_index (pass->attached, Attached, i).cls->observer;
      for (guint j = 0; o && j < i; j++)
        pass->fanned_out |= g_array_index (pass->attached, Attached, j).cls->observer == o;
      n += o != NULL;
    }
  pass->fanned_out |= n > TTV_STATE_MAX_OBSERVERS;
  if (pass->fanned_out)
    {
      ttv_state_add_observer (pass->state, &fanout_observer, pass);
      return;
    }
  for (guint i = 0; i < pass->attached->len; i++)
    {
      const Attached *a = &g_array_index (pass->attached, Attached, i);
      ttv_state_add_observer (pass->state, a->cls->observer, a->self);
    }
}

static void
pass_clear (TtvAnalysisPass *pass)
{
  for (guint i = 0; pass->attached && i < pass->attached->len; i++)
    {
      Attached *a = &g_array_index (pass->attached, Attached, i);
      if (a->self && a->cls->free)
        a->cls->free (a->self);
      ttv_analysis_builder_free (a->builder);
    }
  /* Its observers are not called again: they need no removing. */
  if (pass->state)
    ttv_state_free (pass->state);
  if (pass->attached)
    g_array_unref (pass->attached);
  if (pass->model)
    ttv_kernel_model_free (pass->model);
  ttv_hooks_free (pass->hooks);
  ttv_hooks_by_id_free (pass->by_name);
}

static gboolean
has_tables (const TtvAnalysisClass *cls)
{
  return cls->n_tables > 0;
}

/* Reads @ts once for @classes; the analyses in their order. */
static GPtrArray *
run_pass (TtvTraceset *ts, GPtrArray *classes, const TtvAnalysisOptions *options,
          void (*progress) (double, gpointer), gpointer progress_data, GCancellable *cancel, GError **error)
{
  TtvAnalysisPass pass = { ts, ttv_hooks_new (), ttv_hooks_by_id_new (), NULL, NULL,
                           g_array_new (FALSE, TRUE, sizeof (Attached)), NULL, { ts }, FALSE, FALSE };
  gboolean state = FALSE;
  for (guint i = 0; i < classes->len; i++)
    {
      const TtvAnalysisClass *cls = g_ptr_array_index (classes, i);
      state |= cls->needs_state || has_tables (cls);
    }
  g_autoptr (GPtrArray) traces = g_ptr_array_new ();
  for (guint i = 0; i < ttv_traceset_get_n_traces (ts); i++)
    g_ptr_array_add (traces, ttv_traceset_get_trace (ts, i));
  pass.one_trace = traces->len == 1;
  pass.one_machine = ttv_traceset_get_n_machines (ts) == 1;
  if (state)
    {
      pass.model = ttv_kernel_model_new (traces);
      pass.state = ttv_state_new ();
      pass.ev.model = pass.model;
      pass.ev.state = pass.state;
    }
  gboolean ok = TRUE;
  for (guint i = 0; i < classes->len && ok; i++)
    {
      Attached a = { g_ptr_array_index (classes, i), NULL, NULL };
      if (has_tables (a.cls))
        ok = (a.builder = ttv_analysis_builder_new (ts, a.cls, options, pass.state, error)) != NULL;
      pass.attaching = a.builder;
      if (ok)
        ok = (a.self = a.cls->attach (&pass, options, error)) != NULL;
      pass.attaching = NULL;
      pass.any_before |= a.cls->before_event != NULL;
      pass.any_after |= a.cls->after_event != NULL;
      g_array_append_val (pass.attached, a);
    }
  guint64 n_events = 0;
  TtvTime last = 0;
  if (ok && state)
    {
      observe_state (&pass);
      for (guint i = 0; i < traces->len; i++)
        ttv_kernel_model_apply_initial (pass.model, pass.state, g_ptr_array_index (traces, i));
    }
  PassProgress pp = { progress, progress_data, ttv_traceset_get_start (ts), ttv_traceset_get_end (ts), cancel };
  ok = ok && read_traceset (&pass, &pp, &n_events, &last, error);
  if (ok)
    for (guint i = 0; i < pass.attached->len; i++)
      {
        Attached *a = &g_array_index (pass.attached, Attached, i);
        if (a->cls->finish)
          a->cls->finish (a->self, last);
      }
  g_autoptr (GPtrArray) result = g_ptr_array_new_with_free_func ((GDestroyNotify) ttv_analysis_unref);
  for (guint i = 0; i < pass.attached->len && ok; i++)
    {
      Attached *a = &g_array_index (pass.attached, Attached, i);
      TtvAnalysis *done;
      if (a->builder == NULL)
        done = ttv_analysis_new_data (a->cls, g_steal_pointer (&a->self));
      else
        {
          /* The analysis is its tables: its data goes, then the tables are
           * written, before the next one's (memory). */
          if (a->cls->free)
            a->cls->free (g_steal_pointer (&a->self));
          ttv_analysis_builder_set_n_events (a->builder, n_events);
          ttv_analysis_builder_set_state (a->builder, NULL);
          done = ttv_analysis_builder_write_tail (a->builder, cancel, error)
                   ? ttv_analysis_builder_open (a->builder, options, error) : NULL;
          g_clear_pointer (&a->builder, ttv_analysis_builder_free);
        }
      ok = done != NULL;
      if (done)
        g_ptr_array_add (result, done);
    }
  pass_clear (&pass);
  return ok ? g_steal_pointer (&result) : NULL;
}

GPtrArray *
ttv_analysis_run_many (TtvTraceset *ts, GPtrArray *classes, const TtvAnalysisOptions *options,
                       void (*progress) (double, gpointer), gpointer progress_data,
                       GCancellable *cancel, GError **error)
{
  static const TtvAnalysisOptions defaults = { 0 };
  g_return_val_if_fail (ts != NULL && classes != NULL, NULL);
  options = options ? options : &defaults;
  if (g_cancellable_set_error_if_cancelled (cancel, error))
    return NULL;
  g_autoptr (GPtrArray) out = g_ptr_array_new_with_free_func ((GDestroyNotify) ttv_analysis_unref);
  g_ptr_array_set_size (out, classes->len);
  g_autoptr (GPtrArray) missing = g_ptr_array_new ();
  for (guint i = 0; i < classes->len; i++)
    {
      const TtvAnalysisClass *cls = g_ptr_array_index (classes, i);
      if (has_tables (cls) && cls->version > 0 && !options->no_cache)
        {
          g_autofree char *path = ttv_analysis_cache_path (ts, cls, options);
          g_autoptr (GError) load_error = NULL;
          TtvAnalysis *a = g_file_test (path, G_FILE_TEST_IS_REGULAR)
                             ? ttv_analysis_load (path, ts, cls, &load_error) : NULL;
          if (load_error)
            g_debug ("analysis cache not used: %s", load_error->message);
          if (a)
            {
              ttv_analysis_cache_reused (path, options);
              out->pdata[i] = a;
              continue;
            }
        }
      g_ptr_array_add (missing, (gpointer) cls);
    }
  if (missing->len > 0)
    {
      g_autoptr (GPtrArray) built = run_pass (ts, missing, options, progress, progress_data, cancel, error);
      if (built == NULL)
        return NULL;
      for (guint i = 0, j = 0; i < classes->len; i++)
        if (out->pdata[i] == NULL)
          out->pdata[i] = ttv_analysis_ref (g_ptr_array_index (built, j++));
    }
  if (progress)
    progress (1.0, progress_data);
  return g_steal_pointer (&out);
}

TtvAnalysis *
ttv_analysis_run (TtvTraceset *ts, const TtvAnalysisClass *cls, const TtvAnalysisOptions *options,
                  void (*progress) (double, gpointer), gpointer progress_data,
                  GCancellable *cancel, GError **error)
{
  g_autoptr (GPtrArray) classes = g_ptr_array_new ();
  g_ptr_array_add (classes, (gpointer) cls);
  g_autoptr (GPtrArray) done = ttv_analysis_run_many (ts, classes, options, progress, progress_data,
                                                     cancel, error);
  return done ? ttv_analysis_ref (g_ptr_array_index (done, 0)) : NULL;
}

TtvAnalysis *
ttv_analysis_load (const char *path, TtvTraceset *ts, const TtvAnalysisClass *cls, GError **error)
{
  g_autofree char *fingerprint = ts ? ttv_analysis_fingerprint (ts, cls) : NULL;
  return ttv_analysis_load_file (path, fingerprint, cls, error);
}

/* --- In a worker thread --------------------------------------------------------- */

typedef struct {
  TtvTraceset *traceset;        /* owned reference */
  GPtrArray *classes;           /* of const TtvAnalysisClass * */
  gboolean many;                /* returns the GPtrArray, not the one analysis */
  TtvAnalysisOptions options;   /* strings owned (debug_dirs a GStrv) */
  gint *progress;               /* owned reference (g_atomic_rc_box) */
} RunJob;

static void
run_job_free (RunJob *job)
{
  ttv_traceset_unref (job->traceset);
  g_ptr_array_unref (job->classes);
  g_strfreev ((char **) job->options.debug_dirs);
  g_free ((char *) job->options.table);
  g_free ((char *) job->options.group_by);
  g_free ((char *) job->options.machine);
  g_free ((char *) job->options.cache_dir);
  if (job->progress)
    g_atomic_rc_box_release (job->progress);
  g_free (job);
}

static void
job_progress (double fraction, gpointer data)
{
  RunJob *job = data;
  if (job->progress)
    g_atomic_int_set (job->progress, (gint) CLAMP (fraction * 1000, 0, 1000));
}

static void
run_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancel)
{
  RunJob *job = data;
  GError *error = NULL;
  GPtrArray *results = ttv_analysis_run_many (job->traceset, job->classes, &job->options, job_progress, job,
                                              cancel, &error);
  if (results == NULL)
    g_task_return_error (task, error);
  else if (job->many)
    g_task_return_pointer (task, results, (GDestroyNotify) g_ptr_array_unref);
  else
    {
      TtvAnalysis *a = ttv_analysis_ref (g_ptr_array_index (results, 0));
      g_ptr_array_unref (results);
      g_task_return_pointer (task, a, (GDestroyNotify) ttv_analysis_unref);
    }
}

static void
run_in_thread (TtvTraceset *ts, GPtrArray *classes, gboolean many, const TtvAnalysisOptions *options,
               gint *progress, GCancellable *cancel, GAsyncReadyCallback callback, gpointer user_data)
{
  RunJob *job = g_new0 (RunJob, 1);
  job->traceset = ttv_traceset_ref (ts);
  job->classes = g_ptr_array_copy (classes, NULL, NULL);
  job->many = many;
  if (options)
    job->options = *options;
  job->options.debug_dirs = (const char *const *) g_strdupv ((char **) job->options.debug_dirs);
  job->options.table = g_strdup (job->options.table);
  job->options.group_by = g_strdup (job->options.group_by);
  job->options.machine = g_strdup (job->options.machine);
  job->options.cache_dir = g_strdup (job->options.cache_dir);
  job->options.traceset = NULL;
  job->progress = progress ? g_atomic_rc_box_acquire (progress) : NULL;
  g_autoptr (GTask) task = g_task_new (NULL, cancel, callback, user_data);
  g_task_set_source_tag (task, many ? (gpointer) ttv_analysis_run_many_async : (gpointer) ttv_analysis_run_async);
  g_task_set_task_data (task, job, (GDestroyNotify) run_job_free);
  g_task_run_in_thread (task, run_thread);
}

void
ttv_analysis_run_async (TtvTraceset *ts, const TtvAnalysisClass *cls, const TtvAnalysisOptions *options,
                        gint *progress, GCancellable *cancel, GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr (GPtrArray) classes = g_ptr_array_new ();
  g_ptr_array_add (classes, (gpointer) cls);
  run_in_thread (ts, classes, FALSE, options, progress, cancel, callback, user_data);
}

void
ttv_analysis_run_many_async (TtvTraceset *ts, GPtrArray *classes, const TtvAnalysisOptions *options,
                             gint *progress, GCancellable *cancel, GAsyncReadyCallback callback,
                             gpointer user_data)
{
  g_return_if_fail (classes != NULL && classes->len > 0);
  run_in_thread (ts, classes, TRUE, options, progress, cancel, callback, user_data);
}

GPtrArray *
ttv_analysis_run_many_finish (GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

TtvAnalysis *
ttv_analysis_run_finish (GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}
