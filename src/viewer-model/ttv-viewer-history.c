/* ttv-viewer-history.c: the SDK's state history (sdk/ttv-viewer-analysis.h)
 * over libttv's: a refcounted, immutable TtvViewerHistory whose queries are
 * the history layer's.  The SDK's row, interval, mark and pixel types are
 * its own; while they are laid out as libttv's (checked below, at compile
 * time) the queries hand libttv's answers over as they are. */
#include "ttv-config.h"

#include "ttv-viewer-history.h"

#include <glib/gi18n-lib.h>
#include <stddef.h>

struct _TtvViewerHistory {
  TtvHistory *history;    /* owned, immutable: read from any thread */
  GStrv machine_names;    /* owned: one per machine of the history */
};

/* --- The SDK's types are laid out as the history's ------------------------------
 * When one of these fails, libttv changed: convert in the queries below
 * rather than change the SDK (its layouts are the modules' ABI). */

#define SAME_FIELD(sdk, lib, field)                                                     \
  G_STATIC_ASSERT (offsetof (sdk, field) == offsetof (lib, field)                       \
                   && sizeof (((sdk *) 0)->field) == sizeof (((lib *) 0)->field))

G_STATIC_ASSERT (sizeof (TtvViewerRowInfo) == sizeof (TtvHistoryRowInfo));
SAME_FIELD (TtvViewerRowInfo, TtvHistoryRowInfo, kind);
SAME_FIELD (TtvViewerRowInfo, TtvHistoryRowInfo, id);
SAME_FIELD (TtvViewerRowInfo, TtvHistoryRowInfo, cpu);
SAME_FIELD (TtvViewerRowInfo, TtvHistoryRowInfo, tgid);
SAME_FIELD (TtvViewerRowInfo, TtvHistoryRowInfo, ppid);
SAME_FIELD (TtvViewerRowInfo, TtvHistoryRowInfo, machine);
SAME_FIELD (TtvViewerRowInfo, TtvHistoryRowInfo, name);
SAME_FIELD (TtvViewerRowInfo, TtvHistoryRowInfo, birth);
SAME_FIELD (TtvViewerRowInfo, TtvHistoryRowInfo, end);
SAME_FIELD (TtvViewerRowInfo, TtvHistoryRowInfo, dead);
SAME_FIELD (TtvViewerRowInfo, TtvHistoryRowInfo, states_seen);
SAME_FIELD (TtvViewerRowInfo, TtvHistoryRowInfo, cpu_time);
SAME_FIELD (TtvViewerRowInfo, TtvHistoryRowInfo, n_events);
SAME_FIELD (TtvViewerRowInfo, TtvHistoryRowInfo, n_intervals);
SAME_FIELD (TtvViewerRowInfo, TtvHistoryRowInfo, n_marks);

G_STATIC_ASSERT (sizeof (TtvViewerInterval) == sizeof (TtvHistoryInterval));
SAME_FIELD (TtvViewerInterval, TtvHistoryInterval, start);
SAME_FIELD (TtvViewerInterval, TtvHistoryInterval, end);
SAME_FIELD (TtvViewerInterval, TtvHistoryInterval, state);
SAME_FIELD (TtvViewerInterval, TtvHistoryInterval, cpu);
SAME_FIELD (TtvViewerInterval, TtvHistoryInterval, aux);
SAME_FIELD (TtvViewerInterval, TtvHistoryInterval, n_events);

G_STATIC_ASSERT (sizeof (TtvViewerMark) == sizeof (TtvHistoryMark));
SAME_FIELD (TtvViewerMark, TtvHistoryMark, time);
SAME_FIELD (TtvViewerMark, TtvHistoryMark, kind);
SAME_FIELD (TtvViewerMark, TtvHistoryMark, other);
SAME_FIELD (TtvViewerMark, TtvHistoryMark, name);
SAME_FIELD (TtvViewerMark, TtvHistoryMark, cpu);

G_STATIC_ASSERT (sizeof (TtvViewerPixel) == sizeof (TtvHistoryPixel));
SAME_FIELD (TtvViewerPixel, TtvHistoryPixel, state);
SAME_FIELD (TtvViewerPixel, TtvHistoryPixel, n_states);
SAME_FIELD (TtvViewerPixel, TtvHistoryPixel, n_events);

/* The numbers of the row kinds, mark kinds and visual states. */
G_STATIC_ASSERT ((int) TTV_VIEWER_ROW_PROCESS == (int) TTV_HISTORY_ROW_PROCESS);
G_STATIC_ASSERT ((int) TTV_VIEWER_ROW_CPU == (int) TTV_HISTORY_ROW_CPU);
G_STATIC_ASSERT ((int) TTV_VIEWER_ROW_IRQ == (int) TTV_HISTORY_ROW_IRQ);
G_STATIC_ASSERT ((int) TTV_VIEWER_ROW_SOFTIRQ == (int) TTV_HISTORY_ROW_SOFTIRQ);
G_STATIC_ASSERT ((int) TTV_VIEWER_ROW_BLOCKDEV == (int) TTV_HISTORY_ROW_BLOCKDEV);
G_STATIC_ASSERT ((int) TTV_VIEWER_ROW_N_KINDS == (int) TTV_HISTORY_ROW_N_KINDS);
G_STATIC_ASSERT ((int) TTV_VIEWER_MARK_FORK == (int) TTV_HISTORY_MARK_FORK);
G_STATIC_ASSERT ((int) TTV_VIEWER_MARK_EXEC == (int) TTV_HISTORY_MARK_EXEC);
G_STATIC_ASSERT ((int) TTV_VIEWER_MARK_EXIT == (int) TTV_HISTORY_MARK_EXIT);
G_STATIC_ASSERT ((int) TTV_VIEWER_MARK_WAKEUP == (int) TTV_HISTORY_MARK_WAKEUP);
G_STATIC_ASSERT (TTV_VIEWER_STATE_NONE == TTV_HISTORY_STATE_NONE);
G_STATIC_ASSERT ((int) TTV_VIEWER_PROCESS_UNNAMED == (int) TTV_PROCESS_UNNAMED);
G_STATIC_ASSERT ((int) TTV_VIEWER_PROCESS_WAIT_FORK == (int) TTV_PROCESS_WAIT_FORK);
G_STATIC_ASSERT ((int) TTV_VIEWER_PROCESS_WAIT_CPU == (int) TTV_PROCESS_WAIT_CPU);
G_STATIC_ASSERT ((int) TTV_VIEWER_PROCESS_RUN == (int) TTV_PROCESS_RUN);
G_STATIC_ASSERT ((int) TTV_VIEWER_PROCESS_WAIT == (int) TTV_PROCESS_WAIT);
G_STATIC_ASSERT ((int) TTV_VIEWER_PROCESS_ZOMBIE == (int) TTV_PROCESS_ZOMBIE);
G_STATIC_ASSERT ((int) TTV_VIEWER_PROCESS_EXIT == (int) TTV_PROCESS_EXIT);
G_STATIC_ASSERT ((int) TTV_VIEWER_PROCESS_DEAD == (int) TTV_PROCESS_DEAD);
G_STATIC_ASSERT ((int) TTV_VIEWER_MODE_UNKNOWN == (int) TTV_MODE_UNKNOWN);
G_STATIC_ASSERT ((int) TTV_VIEWER_MODE_USER == (int) TTV_MODE_USER);
G_STATIC_ASSERT ((int) TTV_VIEWER_MODE_SYSCALL == (int) TTV_MODE_SYSCALL);
G_STATIC_ASSERT ((int) TTV_VIEWER_MODE_TRAP == (int) TTV_MODE_TRAP);
G_STATIC_ASSERT ((int) TTV_VIEWER_MODE_IRQ == (int) TTV_MODE_IRQ);
G_STATIC_ASSERT ((int) TTV_VIEWER_MODE_SOFTIRQ == (int) TTV_MODE_SOFTIRQ);
G_STATIC_ASSERT ((int) TTV_VIEWER_CPU_UNKNOWN == (int) TTV_HISTORY_CPU_UNKNOWN);
G_STATIC_ASSERT ((int) TTV_VIEWER_CPU_IDLE == (int) TTV_HISTORY_CPU_IDLE);
G_STATIC_ASSERT ((int) TTV_VIEWER_CPU_BUSY == (int) TTV_HISTORY_CPU_BUSY);
G_STATIC_ASSERT (TTV_VIEWER_PID_NONE == TTV_PID_NONE);

#define KIND(k) ((TtvHistoryRowKind) (k))

/* --- The wrapper ------------------------------------------------------------------- */

static void
history_clear (TtvViewerHistory *vh)
{
  ttv_history_free (vh->history);
  g_strfreev (vh->machine_names);
}

TtvViewerHistory *
ttv_viewer_history_new (TtvHistory *history, TtvTraceset *traceset)
{
  TtvViewerHistory *vh = g_atomic_rc_box_new0 (TtvViewerHistory);
  guint n = ttv_history_get_n_machines (history);

  vh->history = history;
  vh->machine_names = g_new0 (char *, n + 1);
  for (guint k = 0; k < n; k++)
    {
      const char *name = traceset && k < ttv_traceset_get_n_machines (traceset)
                         ? ttv_traceset_get_machine_name (traceset, k) : NULL;

      /* TRANSLATORS: a machine of the traceset without a name, numbered from 1. */
      vh->machine_names[k] = name && *name ? g_strdup (name) : g_strdup_printf (_("Machine %u"), k + 1);
    }
  return vh;
}

const TtvHistory *
ttv_viewer_history_get_history (TtvViewerHistory *vh)
{
  return vh->history;
}

TtvViewerHistory *
ttv_viewer_history_ref (TtvViewerHistory *history)
{
  g_return_val_if_fail (history != NULL, NULL);
  return g_atomic_rc_box_acquire (history);
}

void
ttv_viewer_history_unref (TtvViewerHistory *history)
{
  if (history)
    g_atomic_rc_box_release_full (history, (GDestroyNotify) history_clear);
}

/* --- Queries ------------------------------------------------------------------------- */

guint
ttv_viewer_history_get_n_rows (TtvViewerHistory *vh, TtvViewerRowKind kind)
{
  g_return_val_if_fail (vh != NULL, 0);
  return ttv_history_get_n_rows (vh->history, KIND (kind));
}

const TtvViewerRowInfo *
ttv_viewer_history_get_row (TtvViewerHistory *vh, TtvViewerRowKind kind, guint row)
{
  g_return_val_if_fail (vh != NULL, NULL);
  return (const TtvViewerRowInfo *) ttv_history_get_row (vh->history, KIND (kind), row);
}

guint
ttv_viewer_history_get_n_machines (TtvViewerHistory *vh)
{
  g_return_val_if_fail (vh != NULL, 1);
  return ttv_history_get_n_machines (vh->history);
}

const char *
ttv_viewer_history_get_machine_name (TtvViewerHistory *vh, guint machine)
{
  g_return_val_if_fail (vh != NULL, "");
  return machine < g_strv_length (vh->machine_names) ? vh->machine_names[machine] : "";
}

gint
ttv_viewer_history_find_row (TtvViewerHistory *vh, TtvViewerRowKind kind, guint machine, guint32 id,
                             gint cpu, TtvTime time)
{
  g_return_val_if_fail (vh != NULL, -1);
  return ttv_history_find_row (vh->history, KIND (kind), machine, id, cpu, time);
}

gint
ttv_viewer_history_find_process (TtvViewerHistory *vh, guint machine, guint32 pid, gint cpu, TtvTime time)
{
  g_return_val_if_fail (vh != NULL, -1);
  return ttv_history_find_process (vh->history, machine, pid, cpu, time);
}

gboolean
ttv_viewer_history_get_interval_at (TtvViewerHistory *vh, TtvViewerRowKind kind, guint row,
                                    TtvTime time, TtvViewerInterval *out)
{
  g_return_val_if_fail (vh != NULL && out != NULL, FALSE);
  return ttv_history_get_interval_at (vh->history, KIND (kind), row, time, (TtvHistoryInterval *) out);
}

GArray *
ttv_viewer_history_query_intervals (TtvViewerHistory *vh, TtvViewerRowKind kind, guint row,
                                    TtvTime t0, TtvTime t1)
{
  g_return_val_if_fail (vh != NULL, NULL);
  return ttv_history_query_intervals (vh->history, KIND (kind), row, t0, t1);
}

guint64
ttv_viewer_history_query_pixels (TtvViewerHistory *vh, TtvViewerRowKind kind, guint row,
                                 TtvTime t0, TtvTime t1, guint width, TtvViewerPixel *out)
{
  g_return_val_if_fail (vh != NULL, 0);
  return ttv_history_query_pixels (vh->history, KIND (kind), row, t0, t1, width, (TtvHistoryPixel *) out);
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

const char *
ttv_viewer_history_get_process_name_at (TtvViewerHistory *vh, guint row, TtvTime time)
{
  g_return_val_if_fail (vh != NULL, NULL);
  return ttv_history_get_process_name_at (vh->history, row, time);
}

GStrv
ttv_viewer_history_dup_process_names (TtvViewerHistory *vh, guint row)
{
  g_return_val_if_fail (vh != NULL, NULL);
  return ttv_history_dup_process_names (vh->history, row);
}

GPtrArray *
ttv_viewer_history_dup_all_process_names (TtvViewerHistory *vh, GCancellable *cancellable,
                                          GError **error)
{
  g_return_val_if_fail (vh != NULL, NULL);
  return ttv_history_dup_all_process_names (vh->history, cancellable, error);
}
