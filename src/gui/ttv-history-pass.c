/* ttv-history-pass.c: builds a tab's state history in a GTask thread and
 * exports it to viewer modules as a refcounted TtvViewerHistory whose
 * queries are the libttv ones (libttv itself is not exported to modules). */
#include "ttv-config.h"

#include "ttv-history-pass.h"

#include "ttv-settings.h"
#include "ttv-open-bench.h"
#include "ttv-pass-memory.h"

#include "ttv-tab-state-private.h"

#define HISTORY_KEY "ttv-viewer-history"

struct _TtvViewerHistory {
  TtvStateHistory *history;    /* owned, immutable: read from any thread */
};

/* --- The pass -------------------------------------------------------------- */

typedef struct {
  TtvTraceset *traceset;       /* owned reference */
  gint *progress;              /* owned reference (g_atomic_rc_box), may be NULL */
  guint64 cache_max;           /* read in the main thread (GSettings) */
} PassJob;

static void
pass_job_free (PassJob *job)
{
  ttv_traceset_unref (job->traceset);
  if (job->progress)
    g_atomic_rc_box_release (job->progress);
  g_free (job);
}

static void
pass_progress (double fraction, gpointer data)
{
  if (data)
    g_atomic_int_set ((gint *) data, (gint) CLAMP (fraction * 1000, 0, 1000));
}

/* The cap of the history cache in bytes: the history-cache-size setting
 * (MiB), unless $TTV_CACHE_MAX says otherwise (0: automatic). */
static guint64
cache_max_bytes (void)
{
  g_autoptr (GSettings) settings = g_getenv ("TTV_CACHE_MAX") ? NULL
                                  : ttv_settings_dup_with_key ("history-cache-size");

  if (!settings)
    return 0;
  return (guint64) g_settings_get_uint (settings, "history-cache-size") << 20;
}

static TtvStateHistory *
build (TtvTraceset *traceset, guint64 cache_max, gint *progress, GCancellable *cancellable,
       GError **error)
{
  TtvStateHistoryOptions opt = { 0 };

  opt.no_cache = g_getenv ("TTV_HISTORY_NO_CACHE") != NULL;
  opt.cache_max_bytes = cache_max;
  return ttv_state_history_build (traceset, &opt, pass_progress, progress, cancellable, error);
}

static void
pass_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  PassJob *job = data;
  GError *error = NULL;
  TtvStateHistory *h = build (job->traceset, job->cache_max, job->progress, cancellable, &error);

  if (!h)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, h, (GDestroyNotify) ttv_state_history_free);
  ttv_pass_give_back_memory ();
}

void
ttv_history_pass_run_async (TtvTraceset *traceset, gint *progress, GCancellable *cancellable,
                            GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr (GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  PassJob *job = g_new0 (PassJob, 1);

  job->traceset = ttv_traceset_ref (traceset);
  job->progress = progress ? g_atomic_rc_box_acquire (progress) : NULL;
  job->cache_max = cache_max_bytes ();
  g_task_set_task_data (task, job, (GDestroyNotify) pass_job_free);
  g_task_run_in_thread (task, pass_thread);
}

TtvStateHistory *
ttv_history_pass_run_finish (GAsyncResult *result, GError **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

TtvStateHistory *
ttv_history_pass_build (TtvTraceset *traceset, GCancellable *cancellable, GError **error)
{
  return build (traceset, cache_max_bytes (), NULL, cancellable, error);
}

/* --- Hand-over to the tab's state ------------------------------------------ */

static void
history_clear (TtvViewerHistory *vh)
{
  ttv_state_history_free (vh->history);
}

static void
forget_history (TtvTabState *state)
{
  if (!g_object_get_data (G_OBJECT (state), HISTORY_KEY))
    return;
  g_object_set_data (G_OBJECT (state), HISTORY_KEY, NULL);
  /* Viewers that saw "traceset-changed" before this handler ran learn it now. */
  g_signal_emit_by_name (state, "statistics-changed");
}

void
ttv_tab_state_set_history (TtvTabState *state, TtvStateHistory *history)
{
  TtvViewerHistory *vh = NULL;

  g_return_if_fail (TTV_IS_TAB_STATE (state));
  if (!g_object_get_data (G_OBJECT (state), HISTORY_KEY "-hooked"))
    {
      g_object_set_data (G_OBJECT (state), HISTORY_KEY "-hooked", GINT_TO_POINTER (1));
      g_signal_connect (state, "traceset-changed", G_CALLBACK (forget_history), NULL);
    }
  if (history)
    {
      vh = g_atomic_rc_box_new0 (TtvViewerHistory);
      vh->history = history;
    }
  g_object_set_data_full (G_OBJECT (state), HISTORY_KEY, vh, (GDestroyNotify) ttv_viewer_history_unref);
  g_signal_emit_by_name (state, "statistics-changed");
  if (history)
    ttv_open_bench_background_done (ttv_state_history_is_from_cache (history));
}

/* --- The module API -------------------------------------------------------- */

TtvViewerHistory *
ttv_tab_state_dup_history (TtvTabState *state)
{
  TtvViewerHistory *vh;

  g_return_val_if_fail (TTV_IS_TAB_STATE (state), NULL);
  vh = g_object_get_data (G_OBJECT (state), HISTORY_KEY);
  return vh ? ttv_viewer_history_ref (vh) : NULL;
}

TtvViewerHistory *
ttv_viewer_history_ref (TtvViewerHistory *history)
{
  return g_atomic_rc_box_acquire (history);
}

void
ttv_viewer_history_unref (TtvViewerHistory *history)
{
  if (history)
    g_atomic_rc_box_release_full (history, (GDestroyNotify) history_clear);
}

guint
ttv_viewer_history_get_n_rows (TtvViewerHistory *vh, TtvHistoryRowKind kind)
{
  g_return_val_if_fail (vh != NULL, 0);
  return ttv_state_history_get_n_rows (vh->history, kind);
}

const TtvHistoryRowInfo *
ttv_viewer_history_get_row (TtvViewerHistory *vh, TtvHistoryRowKind kind, guint row)
{
  g_return_val_if_fail (vh != NULL, NULL);
  return ttv_state_history_get_row (vh->history, kind, row);
}

gint
ttv_viewer_history_find_row (TtvViewerHistory *vh, TtvHistoryRowKind kind, guint32 id, gint cpu,
                             TtvTime time)
{
  g_return_val_if_fail (vh != NULL, -1);
  return ttv_state_history_find_row (vh->history, kind, id, cpu, time);
}

gboolean
ttv_viewer_history_get_interval_at (TtvViewerHistory *vh, TtvHistoryRowKind kind, guint row,
                                    TtvTime time, TtvHistoryInterval *out)
{
  g_return_val_if_fail (vh != NULL, FALSE);
  return ttv_state_history_get_interval_at (vh->history, kind, row, time, out);
}

GArray *
ttv_viewer_history_query_intervals (TtvViewerHistory *vh, TtvHistoryRowKind kind, guint row,
                                    TtvTime t0, TtvTime t1)
{
  g_return_val_if_fail (vh != NULL, NULL);
  return ttv_state_history_query_intervals (vh->history, kind, row, t0, t1);
}

guint64
ttv_viewer_history_query_pixels (TtvViewerHistory *vh, TtvHistoryRowKind kind, guint row,
                                 TtvTime t0, TtvTime t1, guint width, TtvHistoryPixel *out)
{
  g_return_val_if_fail (vh != NULL, 0);
  return ttv_state_history_query_pixels (vh->history, kind, row, t0, t1, width, out);
}

GArray *
ttv_viewer_history_query_marks (TtvViewerHistory *vh, guint row, TtvTime t0, TtvTime t1)
{
  g_return_val_if_fail (vh != NULL, NULL);
  return ttv_state_history_query_marks (vh->history, row, t0, t1);
}

const char *
ttv_viewer_history_get_syscall_name (guint32 aux)
{
  return aux ? g_quark_to_string ((GQuark) aux) : NULL;
}
