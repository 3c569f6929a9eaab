/* ttv-critical-path-viewer.c: the critical path module: for the tab's
 * selected thread over the time window, what it waited for back through
 * the threads and devices that woke it, as rows (the thread first, then
 * each participant), with the time per participant under them.  A click
 * on a segment selects its interval; a double click on a thread's row
 * makes it the selected thread (follow the chain).  Computed in a worker
 * thread from the scheduling and CPU usage analyses; ttv --render
 * critical-path --thread TID draws the same. */
#include "ttv-critical-path-chart.h"
#include "ttv-view-text.h"
#include "ttv-view-bar.h"
#include "ttv-view-export.h"
#include "ttv-view-job.h"
#include "ttv-view-list.h"
#include "ttv-view-state.h"

#include <glib/gi18n-lib.h>

#define TTV_TYPE_CRITICAL_PATH_VIEWER (ttv_critical_path_viewer_get_type ())
G_DECLARE_FINAL_TYPE (TtvCriticalPathViewer, ttv_critical_path_viewer, TTV, CRITICAL_PATH_VIEWER, GtkBox)

enum { COL_LABEL, COL_TIME, COL_SHARE, COL_TIME_V, COL_ROW, N_COLS };

struct _TtvCriticalPathViewer {
  GtkBox parent_instance;

  TtvTabState *state;              /* owned reference */
  gulong handlers[6];
  GtkWidget *chart, *status, *rows_view;
  GtkListStore *store;             /* owned */
  TtvPathPicture *picture;         /* owned, may be NULL */
  GCancellable *computing;         /* owned, NULL when idle */
  guint progress_timer;
};

G_DEFINE_FINAL_TYPE (TtvCriticalPathViewer, ttv_critical_path_viewer, GTK_TYPE_BOX)

typedef struct {
  TtvTabState *state;              /* owned reference: read in the thread (immutable results) */
  guint32 tid;
  TtvTime t0, t1;
} Job;

static void
job_free (Job *job)
{
  g_object_unref (job->state);
  g_free (job);
}

static void
job_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancel)
{
  Job *job = data;
  GError *error = NULL;
  TtvPathPicture *p = ttv_path_picture_compute (job->state, job->tid, job->t0, job->t1, &error);
  ttv_view_job_return (task, p, (GDestroyNotify) ttv_path_picture_free, error);
}

static void
fill_rows (TtvCriticalPathViewer *self)
{
  gtk_list_store_clear (self->store);
  const TtvPathPicture *p = self->picture;
  for (guint r = 0; p && r < p->rows->len; r++)
    {
      const TtvPathRow *row = p->rows->pdata[r];
      g_autofree char *time = ttv_viewer_format_duration (row->total);
      g_autofree char *share = g_strdup_printf ("%.1f %%", 100.0 * row->total / (double) MAX (p->t1 - p->t0, 1));
      g_autofree char *valid = NULL;
      gtk_list_store_insert_with_values (self->store, NULL, -1, COL_LABEL, ttv_view_valid_text (row->label, &valid),
                                         COL_TIME, time, COL_SHARE,
                                         share, COL_TIME_V, row->total, COL_ROW, r, -1);
    }
}

static void
show_status (TtvCriticalPathViewer *self)
{
  g_autofree char *text = NULL;
  guint32 tid = ttv_tab_state_get_selected_thread (self->state);
  const GError *error = ttv_tab_state_get_kernel_error (self->state, TTV_VIEWER_KERNEL_SCHED);
  if (tid == TTV_VIEWER_PID_NONE)
    text = g_strdup (_("Select a thread (a row of the control flow, a record of a latency view, a thread of the "
                       "CPU usage) to see what it waited for"));
  else if (error)
    text = g_strdup_printf (_("The analysis failed: %s"), error->message);
  else if (self->picture == NULL)
    text = g_strdup_printf (_("Analysing the trace… %.0f%%"),
                            100 * ttv_tab_state_get_kernel_progress (self->state, TTV_VIEWER_KERNEL_SCHED));
  else
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u segment on the path; double-click a thread to follow it",
                                         "%u segments on the path; double-click a thread to follow it",
                                         self->picture->segments->len),
                            self->picture->segments->len);
  gtk_label_set_text (GTK_LABEL (self->status), text);
}

static void
job_done (GObject *source, GAsyncResult *result, gpointer data)
{
  TtvCriticalPathViewer *self = data;   /* owned reference */
  GError *error = NULL;
  TtvPathPicture *p = g_task_propagate_pointer (G_TASK (result), &error);
  if (!ttv_view_job_is_stale (result) && self->state)
    {
      g_clear_object (&self->computing);
      ttv_path_picture_free (self->picture);
      self->picture = g_steal_pointer (&p);
      fill_rows (self);
      if (error)
        gtk_label_set_text (GTK_LABEL (self->status), error->message);
      else
        show_status (self);
      gtk_widget_queue_draw (self->chart);
    }
  ttv_path_picture_free (p);
  g_clear_error (&error);
  g_object_unref (self);
}

/* Both analyses the path is made of, asked for; TRUE when there. */
static gboolean
analyses_ready (TtvTabState *state)
{
  gboolean sched = ttv_tab_state_request_kernel (state, TTV_VIEWER_KERNEL_SCHED);
  gboolean cpu = ttv_tab_state_request_kernel (state, TTV_VIEWER_KERNEL_CPU);
  return sched && (cpu || ttv_tab_state_get_kernel_error (state, TTV_VIEWER_KERNEL_CPU));
}

static gboolean
progress_tick (gpointer data)
{
  show_status (data);
  return G_SOURCE_CONTINUE;
}

static void
recompute (TtvCriticalPathViewer *self)
{
  ttv_view_job_cancel (&self->computing);
  guint32 tid = ttv_tab_state_get_selected_thread (self->state);
  gboolean ready = analyses_ready (self->state);
  if (!ready && !self->progress_timer && !ttv_tab_state_get_kernel_error (self->state, TTV_VIEWER_KERNEL_SCHED))
    self->progress_timer = g_timeout_add (250, progress_tick, self);
  else if (ready)
    g_clear_handle_id (&self->progress_timer, g_source_remove);
  if (tid == TTV_VIEWER_PID_NONE || !ready)
    {
      g_clear_pointer (&self->picture, ttv_path_picture_free);
      fill_rows (self);
      show_status (self);
      gtk_widget_queue_draw (self->chart);
      return;
    }
  Job *job = g_new0 (Job, 1);
  job->state = g_object_ref (self->state);
  job->tid = tid;
  ttv_tab_state_get_time_window (self->state, &job->t0, &job->t1);
  ttv_view_job_run (&self->computing, self, job, (GDestroyNotify) job_free, job_thread, job_done);
}

static gboolean
chart_draw (GtkWidget *area, cairo_t *cr, TtvCriticalPathViewer *self)
{
  double w = gtk_widget_get_allocated_width (area), h = gtk_widget_get_allocated_height (area);
  if (self->picture == NULL)
    {
      cairo_set_source_rgb (cr, 1, 1, 1);
      cairo_paint (cr);
      return GDK_EVENT_STOP;
    }
  TtvTime ss, se;
  ttv_tab_state_get_time_span (self->state, &ss, &se);
  ttv_path_draw_chart (cr, self->picture, 0, 0, w, h, ss);
  return GDK_EVENT_STOP;
}

static gboolean
chart_press (GtkWidget *area, GdkEventButton *ev, TtvCriticalPathViewer *self)
{
  if (self->picture == NULL || ev->button != GDK_BUTTON_PRIMARY)
    return GDK_EVENT_PROPAGATE;
  double w = gtk_widget_get_allocated_width (area);
  if (ev->type == GDK_2BUTTON_PRESS)
    {
      /* A thread's row: follow it. */
      gint r = ttv_path_row_at (self->picture, ev->y);
      const TtvPathRow *row = r >= 0 ? self->picture->rows->pdata[r] : NULL;
      if (row && !row->device)
        ttv_tab_state_set_selected_thread (self->state, row->id);
      return GDK_EVENT_STOP;
    }
  gint i = ttv_path_segment_at (self->picture, w, ev->x, ev->y);
  if (i >= 0)
    {
      const TtvViewerPathSegment *s = &g_array_index (self->picture->segments, TtvViewerPathSegment, i);
      ttv_tab_state_set_selection (self->state, s->start, s->end);
      ttv_tab_state_set_current_time (self->state, s->start);
    }
  return GDK_EVENT_STOP;
}

static gboolean
chart_tooltip (GtkWidget *area, gint x, gint y, gboolean keyboard, GtkTooltip *tooltip, TtvCriticalPathViewer *self)
{
  if (self->picture == NULL)
    return FALSE;
  gint i = ttv_path_segment_at (self->picture, gtk_widget_get_allocated_width (area), x, y);
  if (i < 0)
    return FALSE;
  const TtvViewerPathSegment *s = &g_array_index (self->picture->segments, TtvViewerPathSegment, i);
  g_autofree char *from = ttv_tab_state_format_time (self->state, s->start);
  g_autofree char *length = ttv_viewer_format_duration (s->end - s->start);
  g_autoptr (GString) text = g_string_new (NULL);
  g_string_append_printf (text, _("%s: %s from %s for %s"), s->name && *s->name ? s->name : "?",
                          ttv_path_kind_label (s->kind), from, length);
  if (s->kind == TTV_VIEWER_PATH_DEVICE)
    g_string_append_printf (text, _("\nThread %u waits for it"), s->tid);
  if (s->syscall && *s->syscall)
    g_string_append_printf (text, _("\nIn %s"), s->syscall);
  g_string_append (text, _("\nClick to select it; double-click a thread's row to follow that thread"));
  ttv_view_set_tooltip_text (tooltip, text->str);
  return TRUE;
}

static void
draw_to (gpointer data, cairo_t *cr, int width, int height)
{
  TtvCriticalPathViewer *self = data;
  if (self->picture)
    ttv_path_draw_picture (self->state, self->picture, cr, width, height);
}

static void
ttv_critical_path_viewer_dispose (GObject *object)
{
  TtvCriticalPathViewer *self = TTV_CRITICAL_PATH_VIEWER (object);
  ttv_view_job_cancel (&self->computing);
  g_clear_handle_id (&self->progress_timer, g_source_remove);
  ttv_view_state_release (&self->state, self->handlers, G_N_ELEMENTS (self->handlers));
  g_clear_object (&self->store);
  g_clear_pointer (&self->picture, ttv_path_picture_free);
  G_OBJECT_CLASS (ttv_critical_path_viewer_parent_class)->dispose (object);
}

static void
ttv_critical_path_viewer_class_init (TtvCriticalPathViewerClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = ttv_critical_path_viewer_dispose;
}

static void
ttv_critical_path_viewer_init (TtvCriticalPathViewer *self)
{
}

static GtkWidget *
rows_view_new (TtvCriticalPathViewer *self)
{
  self->store = gtk_list_store_new (N_COLS, G_TYPE_STRING, G_TYPE_STRING, G_TYPE_STRING, G_TYPE_INT64, G_TYPE_UINT);
  const TtvViewListColumn cols[] = {
    { _("Participant"), COL_LABEL, COL_LABEL }, { _("Time on the path"), COL_TIME, COL_TIME_V },
    { _("Share of the window"), COL_SHARE, COL_TIME_V },
  };
  GtkWidget *view = ttv_view_list_new (GTK_TREE_MODEL (self->store), cols, G_N_ELEMENTS (cols), FALSE);
  gtk_widget_set_name (view, "critical-path-participants");
  self->rows_view = view;
  return ttv_view_list_scrolled (view);
}

static GtkWidget *
ttv_critical_path_viewer_new (TtvTabState *state)
{
  TtvCriticalPathViewer *self = g_object_new (TTV_TYPE_CRITICAL_PATH_VIEWER, "orientation", GTK_ORIENTATION_VERTICAL,
                                              NULL);
  self->state = g_object_ref (state);
  GSimpleActionGroup *group = g_simple_action_group_new ();
  ttv_view_export_add_actions (G_ACTION_MAP (group), GTK_WIDGET (self), _("Export Critical Path (.png or .svg)"),
                               "critical-path.png", draw_to);
  gtk_widget_insert_action_group (GTK_WIDGET (self), "criticalpath", G_ACTION_GROUP (group));
  g_object_unref (group);

  gtk_box_pack_start (GTK_BOX (self),
                      ttv_view_bar_new ("critical-path-status", "criticalpath.export-dialog", &self->status), FALSE,
                      FALSE, 0);

  self->chart = gtk_drawing_area_new ();
  gtk_widget_set_name (self->chart, "critical-path-chart");
  gtk_widget_set_size_request (self->chart, 300, 160);
  gtk_widget_add_events (self->chart, GDK_BUTTON_PRESS_MASK);
  gtk_widget_set_has_tooltip (self->chart, TRUE);
  g_signal_connect (self->chart, "draw", G_CALLBACK (chart_draw), self);
  g_signal_connect (self->chart, "button-press-event", G_CALLBACK (chart_press), self);
  g_signal_connect (self->chart, "query-tooltip", G_CALLBACK (chart_tooltip), self);
  GtkWidget *split = gtk_paned_new (GTK_ORIENTATION_VERTICAL);
  gtk_paned_pack1 (GTK_PANED (split), self->chart, TRUE, FALSE);
  gtk_paned_pack2 (GTK_PANED (split), rows_view_new (self), TRUE, FALSE);
  gtk_paned_set_position (GTK_PANED (split), 320);
  gtk_box_pack_start (GTK_BOX (self), split, TRUE, TRUE, 0);

  self->handlers[0] = g_signal_connect_swapped (state, "kernel-ready", G_CALLBACK (recompute), self);
  self->handlers[1] = g_signal_connect_swapped (state, "traceset-changed", G_CALLBACK (recompute), self);
  self->handlers[2] = g_signal_connect_swapped (state, "time-window-changed", G_CALLBACK (recompute), self);
  self->handlers[3] = g_signal_connect_swapped (state, "selected-thread-changed", G_CALLBACK (recompute), self);
  /* The chart's time ruler follows the time format. */
  self->handlers[4] = g_signal_connect_swapped (state, "time-format-changed", G_CALLBACK (gtk_widget_queue_draw),
                                                self->chart);
  recompute (self);
  gtk_widget_show_all (GTK_WIDGET (self));
  return GTK_WIDGET (self);
}

/* ttv --render critical-path --thread TID: both analyses here and now. */
static gboolean
render (TtvTabState *state, cairo_t *cr, int width, int height, GError **error)
{
  guint32 tid = ttv_tab_state_get_selected_thread (state);
  if (tid == TTV_VIEWER_PID_NONE)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           _("The critical path is a thread's: give one with --thread"));
      return FALSE;
    }
  if (width < 400 || height < 160)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("The critical path needs at least 400x160 pixels, not %dx%d"), width, height);
      return FALSE;
    }
  if (!ttv_tab_state_compute_kernel (state, TTV_VIEWER_KERNEL_SCHED, NULL, error)
      || !ttv_tab_state_compute_kernel (state, TTV_VIEWER_KERNEL_CPU, NULL, error))
    return FALSE;
  TtvTime t0, t1;
  ttv_tab_state_get_time_window (state, &t0, &t1);
  g_autoptr (TtvPathPicture) p = ttv_path_picture_compute (state, tid, t0, t1, error);
  if (p == NULL)
    return FALSE;
  ttv_path_draw_picture (state, p, cr, width, height);
  return TRUE;
}

static const TtvViewerInfo info = {
  .name = "critical-path",
  .title = N_("Critical Path"),
  .icon_name = "media-playlist-consecutive-symbolic",
  .menu_label = N_("Cri_tical Path"),
  .new_viewer = ttv_critical_path_viewer_new,
  .render = render,
  .translation_domain = GETTEXT_PACKAGE,
};

TTV_VIEWER_MODULE (critical_path_init)

static void
critical_path_init (void)
{
  ttv_viewer_register (&info);
}
