/* ttv-timeline-states.c: what a history row's states look like and mean in
 * the time lines: colours (the idle task's running is the CPU idling),
 * names, mixed pixels, busy rows; and the rows' records. */
#include "ttv-timeline.h"

#include <glib/gi18n-lib.h>

static TtvPaletteColor
mode_color (TtvViewerExecMode mode)
{
  switch (mode)
    {
    case TTV_VIEWER_MODE_USER: return TTV_PALETTE_RUN_USER;
    case TTV_VIEWER_MODE_SYSCALL: return TTV_PALETTE_RUN_SYSCALL;
    case TTV_VIEWER_MODE_TRAP: return TTV_PALETTE_RUN_TRAP;
    case TTV_VIEWER_MODE_IRQ: return TTV_PALETTE_RUN_IRQ;
    case TTV_VIEWER_MODE_SOFTIRQ: return TTV_PALETTE_RUN_SOFTIRQ;
    default: return TTV_PALETTE_RUN_UNKNOWN;
    }
}

/* An idle CPU (or idle task) serving an interrupt shows it; otherwise it idles. */
static TtvPaletteColor
idle_color (TtvViewerExecMode mode)
{
  return mode == TTV_VIEWER_MODE_IRQ || mode == TTV_VIEWER_MODE_SOFTIRQ ? mode_color (mode) : TTV_PALETTE_CPU_IDLE;
}

gboolean
ttv_timeline_is_idle_task (const TtvViewerRowInfo *info)
{
  return info->kind == TTV_VIEWER_ROW_PROCESS && info->id == 0 && info->cpu >= 0;
}

gboolean
ttv_timeline_color_of_state (TtvViewerRowKind kind, gboolean idle_task, guint16 state,
                             TtvPaletteColor *color)
{
  guint low = ttv_viewer_state_low (state);

  if (state == TTV_VIEWER_STATE_NONE)
    return FALSE;
  switch (kind)
    {
    case TTV_VIEWER_ROW_PROCESS:
      if (idle_task)
        {
          /* The idle task "runs" while its CPU idles; when other tasks run,
           * it is not waiting for anything: nothing to draw. */
          if (low != TTV_VIEWER_PROCESS_RUN)
            return FALSE;
          *color = idle_color (ttv_viewer_state_mode (state));
          return TRUE;
        }
      switch ((TtvViewerProcessStatus) low)
        {
        case TTV_VIEWER_PROCESS_RUN: *color = mode_color (ttv_viewer_state_mode (state)); return TRUE;
        case TTV_VIEWER_PROCESS_WAIT_CPU: *color = TTV_PALETTE_WAIT_CPU; return TRUE;
        case TTV_VIEWER_PROCESS_WAIT_FORK: *color = TTV_PALETTE_WAIT_FORK; return TRUE;
        case TTV_VIEWER_PROCESS_WAIT: *color = TTV_PALETTE_BLOCKED; return TRUE;
        case TTV_VIEWER_PROCESS_ZOMBIE: *color = TTV_PALETTE_ZOMBIE; return TRUE;
        case TTV_VIEWER_PROCESS_EXIT: *color = TTV_PALETTE_EXITED; return TRUE;
        case TTV_VIEWER_PROCESS_DEAD: return FALSE;
        default: *color = TTV_PALETTE_UNKNOWN; return TRUE;
        }
    case TTV_VIEWER_ROW_CPU:
      if (low == TTV_VIEWER_CPU_IDLE)
        *color = idle_color (ttv_viewer_state_mode (state));
      else if (low == TTV_VIEWER_CPU_BUSY)
        *color = mode_color (ttv_viewer_state_mode (state));
      else
        *color = TTV_PALETTE_UNKNOWN;
      return TRUE;
    case TTV_VIEWER_ROW_IRQ:
    case TTV_VIEWER_ROW_SOFTIRQ:
      *color = TTV_PALETTE_IRQ_ACTIVE;
      return low != 0;
    case TTV_VIEWER_ROW_BLOCKDEV:
      *color = TTV_PALETTE_BLOCKDEV_BUSY;
      return low != 0;
    default:
      return FALSE;
    }
}

const char *
ttv_timeline_describe_state (TtvViewerRowKind kind, gboolean idle_task, guint16 state)
{
  TtvPaletteColor color;
  guint low = ttv_viewer_state_low (state);

  if (state == TTV_VIEWER_STATE_NONE)
    return _("Not present");
  if (kind == TTV_VIEWER_ROW_PROCESS && low == TTV_VIEWER_PROCESS_DEAD)
    return _("Exited");
  if (kind == TTV_VIEWER_ROW_PROCESS && idle_task && low != TTV_VIEWER_PROCESS_RUN)
    return _("Not running (the CPU runs another task)");
  if ((kind == TTV_VIEWER_ROW_IRQ || kind == TTV_VIEWER_ROW_SOFTIRQ || kind == TTV_VIEWER_ROW_BLOCKDEV)
      && low == 0)
    return _("Inactive");
  if (!ttv_timeline_color_of_state (kind, idle_task, state, &color))
    return _("Unknown");
  return ttv_palette_get_label (color);
}

gboolean
ttv_timeline_pixel_is_mixed (TtvViewerRowKind kind, const TtvViewerPixel *px)
{
  guint low = ttv_viewer_state_low (px->state);

  if (px->n_states > 1)
    return TRUE;
  if (px->n_events == 0)
    return FALSE;
  /* Events in a state that makes none: something else happened in the
   * pixel (the summary of a zoomed-out view keeps only each bin's
   * dominant state, but all of its events). */
  switch (kind)
    {
    case TTV_VIEWER_ROW_PROCESS:
      return px->state == TTV_VIEWER_STATE_NONE || low != TTV_VIEWER_PROCESS_RUN;
    case TTV_VIEWER_ROW_CPU:
      return px->state == TTV_VIEWER_STATE_NONE || low != TTV_VIEWER_CPU_BUSY;
    default:
      return px->state == TTV_VIEWER_STATE_NONE || low == 0;
    }
}

static gboolean
state_is_busy (TtvViewerRowKind kind, guint16 state)
{
  guint low = ttv_viewer_state_low (state);

  if (state == TTV_VIEWER_STATE_NONE)
    return FALSE;
  switch (kind)
    {
    case TTV_VIEWER_ROW_PROCESS:
      return low == TTV_VIEWER_PROCESS_RUN || low == TTV_VIEWER_PROCESS_WAIT_CPU || low == TTV_VIEWER_PROCESS_WAIT_FORK;
    case TTV_VIEWER_ROW_CPU:
      return low == TTV_VIEWER_CPU_BUSY;
    default:
      return low != 0;
    }
}

/* The state lows state_is_busy () takes for @kind, as bits. */
static guint32
busy_lows (TtvViewerRowKind kind)
{
  switch (kind)
    {
    case TTV_VIEWER_ROW_PROCESS:
      return 1u << TTV_VIEWER_PROCESS_RUN | 1u << TTV_VIEWER_PROCESS_WAIT_CPU
             | 1u << TTV_VIEWER_PROCESS_WAIT_FORK;
    case TTV_VIEWER_ROW_CPU:
      return 1u << TTV_VIEWER_CPU_BUSY;
    default:
      return ~1u;
    }
}

gboolean
ttv_timeline_row_is_busy (TtvViewerHistory *history, TtvViewerRowKind kind, guint row, TtvTime t0,
                          TtvTime t1)
{
  const TtvViewerRowInfo *info = ttv_viewer_history_get_row (history, kind, row);
  TtvViewerInterval iv;
  TtvTime t;

  if (!info || info->end <= t0 || info->birth >= t1)
    return FALSE;
  /* The states the row takes in its life say it without a read when it
   * takes no busy one, or when its whole life (every interval, from its
   * birth on) lies in the window.  Most rows of a large trace are short
   * lives or asleep, and a view opens on the whole trace: hide-idle there
   * read every row's file blocks (0.2-0.4 s for 79,000 processes). */
  if (!(info->states_seen & busy_lows (kind)))
    return FALSE;
  if (info->birth >= t0 && info->end <= t1)
    return TRUE;
  t = MAX (t0, info->birth);
  /* Interval after interval: a row that is neither busy nor gone changes
   * state only to become busy, so this stops after a few. */
  for (guint step = 0; step < 64 && t < t1; step++)
    {
      if (!ttv_viewer_history_get_interval_at (history, kind, row, t, &iv))
        return FALSE;
      if (state_is_busy (kind, iv.state))
        return TRUE;
      if (iv.end <= t)
        return FALSE;
      t = iv.end;
    }
  /* Many states in the window: it surely did something. */
  return t < t1;
}

TtvTimelineRow *
ttv_timeline_row_new (TtvViewerRowKind kind, guint row, const char *label)
{
  TtvTimelineRow *r = g_new0 (TtvTimelineRow, 1);

  r->kind = kind;
  r->row = row;
  r->label = g_intern_string (label);
  return r;
}

TtvTimelineRow *
ttv_timeline_machine_row_new (TtvViewerHistory *history, guint machine)
{
  TtvTimelineRow *r = ttv_timeline_row_new (TTV_TIMELINE_ROW_MACHINE, machine,
                                            ttv_viewer_history_get_machine_name (history, machine));

  r->details = g_strdup (_("The rows below are this machine's"));
  return r;
}

void
ttv_timeline_row_free (TtvTimelineRow *row)
{
  if (!row)
    return;
  g_clear_pointer (&row->merged, g_array_unref);
  g_clear_pointer (&row->text, ttv_timeline_row_text_unref);
  g_free (row->details);
  g_free (row);
}
