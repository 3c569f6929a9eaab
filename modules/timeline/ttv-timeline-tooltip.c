/* ttv-timeline-tooltip.c: what the time line says about the point under the
 * pointer: the row, its state there (interval start, duration, syscall,
 * trap or IRQ), the task on a CPU, a mixed pixel, nearby marks, lost
 * events, the time relative to the traceset's start and absolute. */
#include "ttv-timeline-view.h"

#include "ttv-view-axis.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <math.h>

#define MARK_REACH 4.0   /* pixels either side of the pointer */

/* The frame of a running interval: syscall name, trap or IRQ number. */
static void
append_frame (GString *text, const TtvViewerInterval *iv)
{
  const char *syscall;

  switch (ttv_viewer_state_mode (iv->state))
    {
    case TTV_VIEWER_MODE_SYSCALL:
      syscall = ttv_viewer_history_get_syscall_name (iv->aux);
      if (syscall)
        g_string_append_printf (text, " (%s)", syscall);
      break;
    case TTV_VIEWER_MODE_TRAP:
      if (iv->aux != TTV_VIEWER_PID_NONE)
        g_string_append_printf (text, _(" (trap %u)"), iv->aux);
      break;
    case TTV_VIEWER_MODE_IRQ:
      if (iv->aux != TTV_VIEWER_PID_NONE)
        g_string_append_printf (text, _(" (IRQ %u)"), iv->aux);
      break;
    case TTV_VIEWER_MODE_SOFTIRQ:
      if (iv->aux != TTV_VIEWER_PID_NONE)
        g_string_append_printf (text, _(" (soft IRQ %u)"), iv->aux);
      break;
    default:
      break;
    }
}

static void
append_task (TtvTimelineView *self, GString *text, guint machine, guint32 pid, gint cpu, TtvTime t)
{
  gint prow = ttv_viewer_history_find_process (self->history, machine, pid, cpu, t);
  const char *name = prow >= 0 ? ttv_viewer_history_get_process_name_at (self->history, (guint) prow, t) : NULL;

  if (name && *name)
    g_string_append_printf (text, _("\nRunning %s (PID %u)"), name, pid);
  else
    g_string_append_printf (text, _("\nRunning PID %u"), pid);
}

/* Why a thread was not running at @t: the call it blocked in, its state,
 * and who woke it (the scheduling analysis, asked for on the first need). */
static void
append_why (TtvTimelineView *self, GString *text, const TtvViewerRowInfo *info, TtvTime t)
{
  TtvViewerBlocked b;

  if (!ttv_tab_state_request_kernel (self->state, TTV_VIEWER_KERNEL_SCHED))
    {
      if (!ttv_tab_state_get_kernel_error (self->state, TTV_VIEWER_KERNEL_SCHED))
        g_string_append_printf (text, _("\nWhy: the scheduling analysis is running (%.0f%%)"),
                                100 * ttv_tab_state_get_kernel_progress (self->state, TTV_VIEWER_KERNEL_SCHED));
      return;
    }
  if (!ttv_tab_state_get_blocked_at (self->state, info->machine, info->id, t, &b))
    return;
  static const char *const states[] = { N_("S, interruptible"), N_("D, uninterruptible"), N_("other") };
  g_autofree char *off = ttv_viewer_format_duration (b.end - b.start);
  if (*b.syscall)
    g_string_append_printf (text, _("\nWhy: blocked in %s (%s), off its CPU for %s"), b.syscall,
                            _(states[MIN ((guint) b.state, 2)]), off);
  else
    g_string_append_printf (text, _("\nWhy: blocked (%s), off its CPU for %s"), _(states[MIN ((guint) b.state, 2)]), off);
  if (b.unfinished && b.woken == b.end)
    {
      g_string_append (text, _("\nNot woken before the trace's end"));
      return;
    }
  g_autofree char *when = ttv_tab_state_format_time (self->state, b.woken);
  g_autofree char *wait = ttv_viewer_format_duration (b.end - b.woken);
  switch (b.waker_kind)
    {
    case TTV_VIEWER_WAKER_THREAD:
      g_string_append_printf (text, _("\nWoken by %s (TID %u) on CPU %d at %s, ran %s later"),
                              *b.waker_name ? b.waker_name : "?", b.waker_tid, b.waker_cpu, when, wait);
      break;
    case TTV_VIEWER_WAKER_IRQ:
      g_string_append_printf (text, _("\nWoken by IRQ %u %s on CPU %d at %s, ran %s later"), b.waker_id,
                              b.waker_name, b.waker_cpu, when, wait);
      break;
    case TTV_VIEWER_WAKER_SOFTIRQ:
      g_string_append_printf (text, _("\nWoken by soft IRQ %s on CPU %d at %s, ran %s later"), b.waker_name,
                              b.waker_cpu, when, wait);
      break;
    default:
      g_string_append (text, _("\nWoken by nothing the trace shows"));
      break;
    }
}

static void
append_interval (TtvTimelineView *self, GString *text, const TtvTimelineRow *r, gboolean idle_task, TtvTime t)
{
  TtvViewerInterval iv;
  g_autofree char *from = NULL, *length = NULL;

  if (!ttv_viewer_history_get_interval_at (self->history, r->kind, r->row, t, &iv))
    {
      g_string_append (text, _("\nNot present"));
      return;
    }
  g_string_append_c (text, '\n');
  g_string_append (text, ttv_timeline_describe_state (r->kind, idle_task, iv.state));
  if ((r->kind == TTV_VIEWER_ROW_PROCESS && ttv_viewer_state_low (iv.state) == TTV_VIEWER_PROCESS_RUN)
      || (r->kind == TTV_VIEWER_ROW_CPU && ttv_viewer_state_low (iv.state) != TTV_VIEWER_CPU_UNKNOWN))
    append_frame (text, &iv);
  if (r->kind == TTV_VIEWER_ROW_PROCESS && iv.cpu >= 0)
    g_string_append_printf (text, _(", CPU %d"), iv.cpu);
  from = ttv_tab_state_format_time (self->state, iv.start);
  length = ttv_viewer_format_duration (iv.end - iv.start);
  g_string_append_printf (text, _("\nFrom %s for %s"), from, length);
  if (r->kind == TTV_VIEWER_ROW_PROCESS && !idle_task
      && (ttv_viewer_state_low (iv.state) == TTV_VIEWER_PROCESS_WAIT
          || ttv_viewer_state_low (iv.state) == TTV_VIEWER_PROCESS_WAIT_CPU))
    {
      const TtvViewerRowInfo *info = ttv_viewer_history_get_row (self->history, r->kind, r->row);
      if (info)
        append_why (self, text, info, t);
    }
  if (r->kind == TTV_VIEWER_ROW_CPU && iv.aux != TTV_VIEWER_PID_NONE
      && ttv_viewer_state_low (iv.state) == TTV_VIEWER_CPU_BUSY)
    {
      const TtvViewerRowInfo *cpu = ttv_viewer_history_get_row (self->history, r->kind, r->row);

      append_task (self, text, cpu ? cpu->machine : 0, iv.aux, cpu ? (gint) cpu->id : -1, t);
    }
  if ((r->kind == TTV_VIEWER_ROW_IRQ || r->kind == TTV_VIEWER_ROW_SOFTIRQ) && iv.aux > 1)
    g_string_append_printf (text, _(" (nested %u deep)"), iv.aux);
  if (r->kind == TTV_VIEWER_ROW_BLOCKDEV && iv.aux > 0)
    g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, ", %u request pending",
                                               ", %u requests pending", iv.aux), iv.aux);
}

/* The pixel under the pointer, when it hides something. */
static void
append_pixel (TtvTimelineView *self, GString *text, const TtvTimelineRow *r, const TimelineLayout *l, double x)
{
  TtvViewerPixel px;
  TtvTime a = ttv_timeline_time_of_x (l, floor (x)), b = ttv_timeline_time_of_x (l, floor (x) + 1);

  if (b <= a)
    return;
  ttv_viewer_history_query_pixels (self->history, r->kind, r->row, a, b, 1, &px);
  if (!ttv_timeline_pixel_is_mixed (r->kind, &px))
    return;
  g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "\nThis pixel: %u event",
                                             "\nThis pixel: %u events", px.n_events), px.n_events);
  if (px.n_states > 1)
    g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, ", %u state", ", %u states", px.n_states),
                            px.n_states);
  g_string_append (text, _(" (zoom in to see them)"));
}

static const char *
pid_name (TtvTimelineView *self, guint machine, guint32 pid, TtvTime t)
{
  gint row;

  if (pid == TTV_VIEWER_PID_NONE)
    return NULL;
  row = ttv_viewer_history_find_process (self->history, machine, pid, -1, t);
  return row >= 0 ? ttv_viewer_history_get_process_name_at (self->history, (guint) row, t) : NULL;
}

static void
append_marks (TtvTimelineView *self, GString *text, const TtvTimelineRow *r, const TimelineLayout *l, double x)
{
  TtvTime a = ttv_timeline_time_of_x (l, x - MARK_REACH), b = ttv_timeline_time_of_x (l, x + MARK_REACH);
  g_autoptr (GArray) marks = NULL;
  const TtvViewerRowInfo *info;
  guint shown = 0;

  if (r->kind != TTV_VIEWER_ROW_PROCESS)
    return;
  info = ttv_viewer_history_get_row (self->history, r->kind, r->row);
  marks = ttv_viewer_history_query_marks (self->history, r->row, a, b);
  for (guint i = 0; marks && i < marks->len && shown < 5; i++, shown++)
    {
      const TtvViewerMark *m = &g_array_index (marks, TtvViewerMark, i);
      g_autofree char *when = ttv_tab_state_format_time (self->state, m->time);
      const char *other = pid_name (self, info ? info->machine : 0, m->other, m->time);

      switch (m->kind)
        {
        case TTV_VIEWER_MARK_FORK:
          g_string_append_printf (text, _("\nForked by %s (PID %u) at %s"), other ? other : "?", m->other, when);
          break;
        case TTV_VIEWER_MARK_EXEC:
          g_string_append_printf (text, _("\nExec of %s at %s"), m->name ? m->name : "?", when);
          break;
        case TTV_VIEWER_MARK_EXIT:
          g_string_append_printf (text, _("\nExit at %s"), when);
          break;
        default:
          if (m->other == TTV_VIEWER_PID_NONE)
            g_string_append_printf (text, _("\nWoken up at %s"), when);
          else if (m->other == 0 && m->cpu >= 0)
            /* PID 0 is the idle task: an interrupt on an idle CPU woke it. */
            g_string_append_printf (text, _("\nWoken up from idle on CPU %d (by an interrupt) at %s"),
                                    m->cpu, when);
          else if (m->other == 0)
            g_string_append_printf (text, _("\nWoken up from idle (by an interrupt) at %s"), when);
          else
            g_string_append_printf (text, _("\nWoken up by %s (PID %u) at %s"), other ? other : "?", m->other,
                                    when);
          break;
        }
    }
  if (marks && marks->len > shown)
    g_string_append_printf (text, _("\n… and %u more marks"), marks->len - shown);
}

static void
append_lost (TtvTimelineView *self, GString *text, const TimelineLayout *l, double x)
{
  /* The marks are at least 2 px wide: a pixel either side counts. */
  TtvTime a = ttv_timeline_time_of_x (l, x - 1), b = ttv_timeline_time_of_x (l, x + 2);
  g_autoptr (GArray) lost = ttv_tab_state_dup_lost_events (self->state, a, b);
  guint64 count, packets;

  if (!ttv_view_axis_lost_between (lost, a, b, &count, &packets))
    return;
  if (count > 0)
    g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "\nLost events: %" PRIu64
                                               " event lost by the tracer here",
                                               "\nLost events: %" PRIu64
                                               " events lost by the tracer here", count), count);
  if (packets > 0)
    g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "\nLost packets: %" PRIu64
                                               " packet lost whole here (its sequence number is missing)",
                                               "\nLost packets: %" PRIu64
                                               " packets lost whole here (their sequence numbers are missing)",
                                               packets), packets);
  if (count == 0 && packets == 0)
    g_string_append (text, _("\nLost events: the tracer lost events here"));
  for (guint i = 0; i < lost->len && i < 3; i++)
    {
      const TtvViewerLostEvents *r = &g_array_index (lost, TtvViewerLostEvents, i);
      g_autofree char *from = ttv_tab_state_format_time (self->state, r->start);
      g_autofree char *length = ttv_viewer_format_duration (r->end - r->start);

      g_string_append_printf (text, _("\n  from %s for %s"), from, length);
    }
}

char *
ttv_timeline_view_dup_tooltip (TtvTimelineView *self, const TimelineLayout *layout, double x, double y,
                               gboolean sortable)
{
  TimelineLayout l = *layout;
  gint i;
  const TtvTimelineRow *r;
  const TtvViewerRowInfo *info;
  gboolean idle_task;
  TtvTime t;
  g_autofree char *when = NULL;
  g_autofree char *details = NULL;
  GString *text;

  if (y >= l.header - TTV_TIMELINE_RULER_HEIGHT && y < l.header)
    {
      if (x < l.label)
        return fabs (x - l.label) <= 4 ? g_strdup (_("Drag to resize the labels"))
               : sortable ? g_strdup (_("Click a title to sort by it; drag the edge to resize"))
               : NULL;
      /* The ruler: the time, and lost events. */
      t = ttv_timeline_time_of_x (&l, x);
      when = ttv_tab_state_format_time (self->state, t);
      text = g_string_new (NULL);
      g_string_append_printf (text, _("Time %s"), when);
      append_lost (self, text, &l, x);
      return g_string_free (text, FALSE);
    }
  i = ttv_timeline_view_row_at (self, &l, y);
  if (i < 0 || !self->history || x < l.label)
    return NULL;
  r = self->rows->pdata[i];
  if (ttv_timeline_row_is_machine (r))
    return g_strdup_printf ("%s\n%s", r->label, r->details);
  info = ttv_viewer_history_get_row (self->history, r->kind, r->row);
  idle_task = r->kind == TTV_VIEWER_ROW_PROCESS && info && ttv_timeline_is_idle_task (info);
  t = ttv_timeline_time_of_x (&l, x);
  when = ttv_tab_state_format_time (self->state, t);
  text = g_string_new (r->label);
  if (info && r->kind == TTV_VIEWER_ROW_PROCESS && !idle_task)
    {
      /* The name as of @t, if the row's name changed. */
      const char *then = ttv_viewer_history_get_process_name_at (self->history, r->row, t);

      if (then && g_strcmp0 (then, info->name) != 0)
        g_string_append_printf (text, _(" (named %s then)"), then);
    }
  append_interval (self, text, r, idle_task, t);
  append_pixel (self, text, r, &l, x);
  append_marks (self, text, r, &l, x);
  if (info && r->kind == TTV_VIEWER_ROW_PROCESS)
    {
      if (info->tgid == TTV_VIEWER_PID_NONE)   /* a userspace thread of a trace without vpid */
        g_string_append_printf (text, _("\nPID %u, process unknown"), info->id);
      else
        g_string_append_printf (text, _("\nPID %u, TGID %u"), info->id, info->tgid);
      if (info->ppid != TTV_VIEWER_PID_NONE)
        g_string_append_printf (text, _(", PPID %u"), info->ppid);
    }
  details = ttv_timeline_row_dup_details (r);
  if (details)
    g_string_append_printf (text, "\n%s", details);
  append_lost (self, text, &l, x);
  g_string_append_printf (text, _("\nTime %s"), when);
  return g_string_free (text, FALSE);
}
