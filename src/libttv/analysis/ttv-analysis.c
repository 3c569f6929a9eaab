/* ttv-analysis.c: running analyses over a traceset in one read (see
 * ttv-analysis.h); the list of classes is in ttv-analysis-registry.c. */
#include "ttv-analysis.h"

#include "ttv-error.h"
#include "ttv-state-tracker.h"

#include <glib/gi18n-lib.h>

struct _TtvAnalysisPass {
  TtvTraceset *traceset;        /* weak: the run's */
  TtvHooks *hooks;              /* owned: hooks for every event */
  TtvHooksById *by_name;        /* owned: hooks by event name */
  TtvStateTracker *tracker;     /* owned, NULL when no class needs the state */
};

struct _TtvAnalysis {
  const TtvAnalysisClass *cls;  /* weak: static */
  gpointer data;                /* owned through cls->free */
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
  ttv_hooks_add (event_name ? ttv_hooks_by_id_find (pass->by_name, event_name) : pass->hooks,
                 hook, hook_data, prio);
}

const TtvState *
ttv_analysis_pass_get_state (TtvAnalysisPass *pass)
{
  return pass->tracker ? ttv_state_tracker_get_state (pass->tracker) : NULL;
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
}

static TtvAnalysis *
analysis_new (const TtvAnalysisClass *cls, gpointer data)
{
  TtvAnalysis *a = g_atomic_rc_box_new0 (TtvAnalysis);
  a->cls = cls;
  a->data = data;
  return a;
}

static void
analysis_clear (TtvAnalysis *a)
{
  if (a->data)
    a->cls->free (a->data);
}

TtvAnalysis *
ttv_analysis_ref (TtvAnalysis *a)
{
  return g_atomic_rc_box_acquire (a);
}

void
ttv_analysis_unref (TtvAnalysis *a)
{
  if (a)
    g_atomic_rc_box_release_full (a, (GDestroyNotify) analysis_clear);
}

const TtvAnalysisClass *
ttv_analysis_get_class (const TtvAnalysis *a)
{
  return a->cls;
}

gpointer
ttv_analysis_get_data (const TtvAnalysis *a)
{
  return a->data;
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
  return a->cls->write (a->data, format, options ? options : &whole, out, error);
}

/* --- One read for several analyses ---------------------------------------------- */

typedef struct {
  void (*progress) (double, gpointer);
  gpointer data;
  TtvTime start, end;
  GCancellable *cancel;
} PassProgress;

/* Reads the traceset through the pass's hooks in slices, so that progress
 * and cancellation are seen often. */
static gboolean
read_traceset (TtvAnalysisPass *pass, const PassProgress *pp, GError **error)
{
  g_autoptr (TtvContext) ctx = ttv_context_new (pass->traceset, error);
  if (ctx == NULL || !ttv_context_seek_begin (ctx, error))
    return FALSE;
  g_autoptr (TtvHooks) hooks = ttv_hooks_new ();
  if (pass->tracker)
    ttv_hooks_add (hooks, ttv_state_tracker_hook, pass->tracker, TTV_PRIO_STATE);
  ttv_hooks_add_list (hooks, pass->hooks);
  ttv_context_process_begin (ctx, NULL, NULL, NULL, hooks, pass->by_name);
  GError *local = NULL;
  const TtvEvent *next;
  while (ttv_context_process_middle (ctx, TTV_TIME_MAX, 1u << 16, NULL, &local) > 0 && local == NULL
         && !g_cancellable_set_error_if_cancelled (pp->cancel, &local)
         && (next = ttv_context_peek (ctx, &local)) != NULL)
    if (pp->progress && pp->end > pp->start)
      pp->progress ((double) (next->time - pp->start) / (double) (pp->end - pp->start), pp->data);
  ttv_context_process_end (ctx, NULL, NULL, NULL, hooks, pass->by_name);
  if (local)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  return TRUE;
}

GPtrArray *
ttv_analysis_run_many (TtvTraceset *ts, GPtrArray *classes, const TtvAnalysisOptions *options,
                       void (*progress) (double, gpointer), gpointer progress_data,
                       GCancellable *cancel, GError **error)
{
  static const TtvAnalysisOptions defaults = { 0 };
  g_return_val_if_fail (ts != NULL && classes != NULL, NULL);
  options = options ? options : &defaults;

  TtvAnalysisPass pass = { ts, ttv_hooks_new (), ttv_hooks_by_id_new (), NULL };
  gboolean state = FALSE;
  for (guint i = 0; i < classes->len; i++)
    state |= ((const TtvAnalysisClass *) g_ptr_array_index (classes, i))->needs_state;
  if (state)
    pass.tracker = ttv_state_tracker_new (ts, NULL);

  g_autoptr (GPtrArray) result = g_ptr_array_new_with_free_func ((GDestroyNotify) ttv_analysis_unref);
  gboolean ok = TRUE;
  for (guint i = 0; i < classes->len && ok; i++)
    {
      const TtvAnalysisClass *cls = g_ptr_array_index (classes, i);
      gpointer data = cls->attach (&pass, options, error);
      ok = data != NULL;
      if (ok)
        g_ptr_array_add (result, analysis_new (cls, data));
    }
  PassProgress pp = { progress, progress_data, ttv_traceset_get_start (ts), ttv_traceset_get_end (ts), cancel };
  ok = ok && read_traceset (&pass, &pp, error);
  if (ok)
    for (guint i = 0; i < result->len; i++)
      {
        TtvAnalysis *a = g_ptr_array_index (result, i);
        if (a->cls->finish)
          a->cls->finish (a->data, ttv_traceset_get_end (ts));
      }
  ttv_hooks_free (pass.hooks);
  ttv_hooks_by_id_free (pass.by_name);
  if (pass.tracker)
    ttv_state_tracker_free (pass.tracker);
  if (!ok)
    return NULL;
  if (progress)
    progress (1.0, progress_data);
  return g_steal_pointer (&result);
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

/* --- In a worker thread --------------------------------------------------------- */

typedef struct {
  TtvTraceset *traceset;        /* owned reference */
  const TtvAnalysisClass *cls;
  TtvAnalysisOptions options;   /* debug_dirs owned (a GStrv) */
  gint *progress;               /* owned reference (g_atomic_rc_box) */
} RunJob;

static void
run_job_free (RunJob *job)
{
  ttv_traceset_unref (job->traceset);
  g_strfreev ((char **) job->options.debug_dirs);
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
  TtvAnalysis *a = ttv_analysis_run (job->traceset, job->cls, &job->options, job_progress, job,
                                     cancel, &error);
  if (a)
    g_task_return_pointer (task, a, (GDestroyNotify) ttv_analysis_unref);
  else
    g_task_return_error (task, error);
}

void
ttv_analysis_run_async (TtvTraceset *ts, const TtvAnalysisClass *cls, const TtvAnalysisOptions *options,
                        gint *progress, GCancellable *cancel, GAsyncReadyCallback callback, gpointer user_data)
{
  RunJob *job = g_new0 (RunJob, 1);
  job->traceset = ttv_traceset_ref (ts);
  job->cls = cls;
  if (options)
    job->options = *options;
  job->options.debug_dirs = (const char *const *) g_strdupv ((char **) job->options.debug_dirs);
  job->progress = progress ? g_atomic_rc_box_acquire (progress) : NULL;
  g_autoptr (GTask) task = g_task_new (NULL, cancel, callback, user_data);
  g_task_set_source_tag (task, ttv_analysis_run_async);
  g_task_set_task_data (task, job, (GDestroyNotify) run_job_free);
  g_task_run_in_thread (task, run_thread);
}

TtvAnalysis *
ttv_analysis_run_finish (GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}
