/* ttv-viewer-history.c: a tab's state history (built by the analysis
 * layer's history pass) handed to its TtvTabState and exported to viewer
 * modules as a refcounted TtvViewerHistory whose queries are the libttv
 * ones (libttv itself is not exported to modules). */
#include "ttv-config.h"

#include "ttv-viewer-history.h"

#include "ttv-open-bench.h"

#include "ttv-tab-state-private.h"

#define HISTORY_KEY "ttv-viewer-history"

struct _TtvViewerHistory {
  TtvHistory *history;    /* owned, immutable: read from any thread */
};

/* --- Hand-over to the tab's state ------------------------------------------ */

static void
history_clear (TtvViewerHistory *vh)
{
  ttv_history_free (vh->history);
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
ttv_tab_state_set_history (TtvTabState *state, TtvHistory *history)
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
    ttv_open_bench_background_done (ttv_history_is_from_cache (history));
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
  return ttv_history_get_n_rows (vh->history, kind);
}

const TtvHistoryRowInfo *
ttv_viewer_history_get_row (TtvViewerHistory *vh, TtvHistoryRowKind kind, guint row)
{
  g_return_val_if_fail (vh != NULL, NULL);
  return ttv_history_get_row (vh->history, kind, row);
}

gint
ttv_viewer_history_find_row (TtvViewerHistory *vh, TtvHistoryRowKind kind, guint32 id, gint cpu,
                             TtvTime time)
{
  g_return_val_if_fail (vh != NULL, -1);
  return ttv_history_find_row (vh->history, kind, id, cpu, time);
}

gboolean
ttv_viewer_history_get_interval_at (TtvViewerHistory *vh, TtvHistoryRowKind kind, guint row,
                                    TtvTime time, TtvHistoryInterval *out)
{
  g_return_val_if_fail (vh != NULL, FALSE);
  return ttv_history_get_interval_at (vh->history, kind, row, time, out);
}

GArray *
ttv_viewer_history_query_intervals (TtvViewerHistory *vh, TtvHistoryRowKind kind, guint row,
                                    TtvTime t0, TtvTime t1)
{
  g_return_val_if_fail (vh != NULL, NULL);
  return ttv_history_query_intervals (vh->history, kind, row, t0, t1);
}

guint64
ttv_viewer_history_query_pixels (TtvViewerHistory *vh, TtvHistoryRowKind kind, guint row,
                                 TtvTime t0, TtvTime t1, guint width, TtvHistoryPixel *out)
{
  g_return_val_if_fail (vh != NULL, 0);
  return ttv_history_query_pixels (vh->history, kind, row, t0, t1, width, out);
}

GArray *
ttv_viewer_history_query_marks (TtvViewerHistory *vh, guint row, TtvTime t0, TtvTime t1)
{
  g_return_val_if_fail (vh != NULL, NULL);
  return ttv_history_query_marks (vh->history, row, t0, t1);
}

const char *
ttv_viewer_history_get_syscall_name (guint32 aux)
{
  return aux ? g_quark_to_string ((GQuark) aux) : NULL;
}
