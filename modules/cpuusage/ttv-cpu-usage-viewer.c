/* ttv-cpu-usage-viewer.c: the CPU usage module: an XY chart of each CPU's
 * busy share over the tab's time window, every CPU together and the
 * selected thread's share; under it the threads by CPU time over the
 * selection (or the window).  A thread picked in the list becomes the
 * tab's selected thread; a click on the chart sets the current time, a
 * drag zooms.  Pictures come from a worker thread, drawn in O(pixels);
 * ttv --render cpu-usage draws the same. */
#include "ttv-cpu-usage-chart.h"
#include "ttv-view-text.h"
#include "ttv-view-bar.h"
#include "ttv-view-drag.h"
#include "ttv-view-export.h"
#include "ttv-view-job.h"
#include "ttv-view-list.h"
#include "ttv-view-state.h"

#include <glib/gi18n-lib.h>
#include <time.h>

#define TTV_TYPE_CPU_USAGE_VIEWER (ttv_cpu_usage_viewer_get_type ())
G_DECLARE_FINAL_TYPE (TtvCpuUsageViewer, ttv_cpu_usage_viewer, TTV, CPU_USAGE_VIEWER, GtkBox)

enum { COL_TID, COL_PID, COL_NAME, COL_TIME, COL_SHARE, COL_TIME_V, COL_MACHINE, COL_MACHINE_NAME, N_COLS };

struct _TtvCpuUsageViewer {
  GtkBox parent_instance;

  TtvTabState *state;              /* owned reference */
  gulong handlers[8];
  GtkWidget *chart, *status, *threads_view;
  GtkListStore *store;             /* owned */
  TtvCpuUsagePicture *picture;     /* owned, may be NULL */
  GCancellable *computing;         /* owned, NULL when idle */
  guint progress_timer;
  gboolean filling;
  TtvViewDrag drag;
};

G_DEFINE_FINAL_TYPE (TtvCpuUsageViewer, ttv_cpu_usage_viewer, GTK_TYPE_BOX)

/* The threads' interval: the selection when there is one, else the window. */
static void
threads_range (TtvTabState *state, TtvTime *r0, TtvTime *r1)
{
  if (!ttv_tab_state_get_selection (state, r0, r1) || *r1 <= *r0)
    ttv_tab_state_get_time_window (state, r0, r1);
}

static guint
bins_for (double width)
{
  return (guint) MAX ((width - TTV_CPU_USAGE_LEFT - TTV_CPU_USAGE_RIGHT) / 3, 1);
}

/* The time window over the plot of a chart @width wide, as every view of
 * the tab maps it. */
static void
plot_scale (TtvTabState *state, double width, TtvTimeScale *scale)
{
  TtvTime t0, t1;

  ttv_tab_state_get_time_window (state, &t0, &t1);
  ttv_tab_state_get_time_scale (state, t0, MAX (t1, t0 + 1), TTV_CPU_USAGE_LEFT,
                                MAX (width - TTV_CPU_USAGE_LEFT - TTV_CPU_USAGE_RIGHT, 1), scale);
}

typedef struct {
  TtvViewerCpuUsage *usage;
  TtvTimeScale scale;
  TtvTime r0, r1;
  guint n_bins;
  guint machine;
  guint32 tid;
} Job;

static void
job_free (Job *job)
{
  ttv_viewer_cpu_usage_unref (job->usage);
  g_free (job);
}

static void
job_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancel)
{
  Job *job = data;
  GError *error = NULL;
  TtvCpuUsagePicture *p = ttv_cpu_usage_picture_compute (job->usage, &job->scale, job->n_bins, job->r0, job->r1,
                                                         job->machine, job->tid, &error);
  ttv_view_job_return (task, p, (GDestroyNotify) ttv_cpu_usage_picture_free, error);
}

static void
fill_threads (TtvCpuUsageViewer *self)
{
  self->filling = TRUE;
  gtk_list_store_clear (self->store);
  const TtvCpuUsagePicture *p = self->picture;
  guint32 selected = ttv_tab_state_get_selected_thread (self->state);
  guint selected_machine = ttv_tab_state_get_selected_machine (self->state);
  /* The machine column only when the CPU usage tells several apart. */
  gtk_tree_view_column_set_visible (gtk_tree_view_get_column (GTK_TREE_VIEW (self->threads_view), 0),
                                    p && p->n_machines > 1);
  GtkTreeIter it, found;
  gboolean has_found = FALSE;
  for (guint i = 0; p && i < p->threads->len; i++)
    {
      const TtvViewerThreadUsage *u = &g_array_index (p->threads, TtvViewerThreadUsage, i);
      g_autofree char *time = ttv_viewer_format_duration (u->cpu_time);
      g_autofree char *share = g_strdup_printf ("%.1f %%", 100.0 * ttv_cpu_usage_picture_share (p, u));
      const char *machine = p->n_machines > 1 ? ttv_viewer_cpu_usage_get_machine_name (p->usage, u->machine) : "";
      g_autofree char *valid = NULL;
      gtk_list_store_insert_with_values (self->store, &it, -1, COL_TID, u->tid, COL_PID, u->tgid, COL_NAME,
                                         u->name && *u->name ? ttv_view_valid_text (u->name, &valid) : "?",
                                         COL_TIME, time, COL_SHARE, share,
                                         COL_TIME_V, u->cpu_time, COL_MACHINE, u->machine, COL_MACHINE_NAME, machine,
                                         -1);
      if (u->tid == selected && (p->n_machines < 2 || u->machine == selected_machine) && !has_found)
        {
          found = it;
          has_found = TRUE;
        }
    }
  GtkTreeSelection *sel = gtk_tree_view_get_selection (GTK_TREE_VIEW (self->threads_view));
  if (has_found)
    gtk_tree_selection_select_iter (sel, &found);
  else
    gtk_tree_selection_unselect_all (sel);
  self->filling = FALSE;
}

static void
show_status (TtvCpuUsageViewer *self)
{
  g_autofree char *text = NULL;
  const GError *error = ttv_tab_state_get_kernel_error (self->state, TTV_VIEWER_KERNEL_CPU);
  if (error)
    text = g_strdup_printf (_("The analysis failed: %s"), error->message);
  else if (self->picture == NULL)
    text = g_strdup_printf (_("Analysing the trace… %.0f%%"),
                            100 * ttv_tab_state_get_kernel_progress (self->state, TTV_VIEWER_KERNEL_CPU));
  else
    {
      g_autofree char *from = ttv_tab_state_format_time (self->state, self->picture->r0);
      g_autofree char *length = ttv_viewer_format_duration (self->picture->r1 - self->picture->r0);
      g_autofree char *busy = ttv_viewer_format_duration (self->picture->busy_total);
      text = g_strdup_printf (_("Threads by CPU time from %s for %s (busy %s in all)"), from, length, busy);
    }
  gtk_label_set_text (GTK_LABEL (self->status), text);
}

static void
job_done (GObject *source, GAsyncResult *result, gpointer data)
{
  TtvCpuUsageViewer *self = data;   /* owned reference */
  GError *error = NULL;
  TtvCpuUsagePicture *p = g_task_propagate_pointer (G_TASK (result), &error);
  if (!ttv_view_job_is_stale (result) && self->state)
    {
      g_clear_object (&self->computing);
      if (p)
        {
          ttv_cpu_usage_picture_free (self->picture);
          self->picture = g_steal_pointer (&p);
          fill_threads (self);
          show_status (self);
        }
      else
        gtk_label_set_text (GTK_LABEL (self->status), error->message);
      gtk_widget_queue_draw (self->chart);
    }
  ttv_cpu_usage_picture_free (p);
  g_clear_error (&error);
  g_object_unref (self);
}

static void
recompute (TtvCpuUsageViewer *self)
{
  ttv_view_job_cancel (&self->computing);
  g_autoptr (TtvViewerCpuUsage) usage = ttv_tab_state_dup_cpu_usage (self->state);
  if (usage == NULL)
    return;
  Job *job = g_new0 (Job, 1);
  job->usage = g_steal_pointer (&usage);
  plot_scale (self->state, gtk_widget_get_allocated_width (self->chart), &job->scale);
  threads_range (self->state, &job->r0, &job->r1);
  job->n_bins = bins_for (gtk_widget_get_allocated_width (self->chart));
  job->tid = ttv_tab_state_get_selected_thread (self->state);
  job->machine = ttv_tab_state_get_selected_machine (self->state);
  ttv_view_job_run (&self->computing, self, job, (GDestroyNotify) job_free, job_thread, job_done);
}

static gboolean
progress_tick (gpointer data)
{
  show_status (data);
  return G_SOURCE_CONTINUE;
}

static void
analysis_changed (TtvCpuUsageViewer *self)
{
  gboolean ready = ttv_tab_state_request_kernel (self->state, TTV_VIEWER_KERNEL_CPU);
  if (!ready)
    {
      g_clear_pointer (&self->picture, ttv_cpu_usage_picture_free);
      gtk_list_store_clear (self->store);
      if (!self->progress_timer && !ttv_tab_state_get_kernel_error (self->state, TTV_VIEWER_KERNEL_CPU))
        self->progress_timer = g_timeout_add (250, progress_tick, self);
      show_status (self);
      gtk_widget_queue_draw (self->chart);
      return;
    }
  g_clear_handle_id (&self->progress_timer, g_source_remove);
  recompute (self);
}

/* A thread picked in the list: the tab's selected thread. */
static void
thread_picked (TtvCpuUsageViewer *self)
{
  GtkTreeModel *model;
  GtkTreeIter it;
  if (self->filling
      || !gtk_tree_selection_get_selected (gtk_tree_view_get_selection (GTK_TREE_VIEW (self->threads_view)), &model,
                                           &it))
    return;
  guint tid, machine;
  gtk_tree_model_get (model, &it, COL_TID, &tid, COL_MACHINE, &machine, -1);
  /* The thread of its own machine (with one machine, machine 0). */
  ttv_tab_state_select_thread_on (self->state, machine, tid);
}

static gboolean
chart_draw (GtkWidget *area, cairo_t *cr, TtvCpuUsageViewer *self)
{
  double w = gtk_widget_get_allocated_width (area), h = gtk_widget_get_allocated_height (area);
  if (self->picture == NULL)
    {
      cairo_set_source_rgb (cr, 1, 1, 1);
      cairo_paint (cr);
      cairo_set_source_rgb (cr, 0.4, 0.4, 0.4);
      cairo_set_font_size (cr, 12);
      cairo_move_to (cr, 8, h / 2);
      ttv_view_show_text (cr, _("Waiting for the analysis…"));
      return GDK_EVENT_STOP;
    }
  TtvTime ss, se;
  ttv_tab_state_get_time_span (self->state, &ss, &se);
  ttv_cpu_usage_draw_chart (cr, self->picture, 0, 0, w, h, ss, ttv_tab_state_get_current_time (self->state));
  ttv_view_drag_draw_band (&self->drag, cr, TTV_CPU_USAGE_TOP, h - TTV_CPU_USAGE_TOP - TTV_CPU_USAGE_BOTTOM);
  return GDK_EVENT_STOP;
}

static TtvTime
time_at (TtvCpuUsageViewer *self, double x)
{
  TtvTimeScale scale;

  plot_scale (self->state, gtk_widget_get_allocated_width (self->chart), &scale);
  return ttv_time_scale_time_of_x (&scale, CLAMP (x, scale.x, scale.x + scale.width));
}

/* A drag zooms the window to its span, a click sets the current time. */
static gboolean
chart_release (GtkWidget *area, GdkEventButton *ev, TtvCpuUsageViewer *self)
{
  double a, b;
  switch (ttv_view_drag_release (&self->drag, ev, &a, &b))
    {
    case TTV_VIEW_DRAG_NONE:
      return GDK_EVENT_PROPAGATE;
    case TTV_VIEW_DRAG_SPAN:
      ttv_tab_state_set_time_window (self->state, time_at (self, a), time_at (self, b));
      break;
    case TTV_VIEW_DRAG_CLICK:
      ttv_tab_state_set_current_time (self->state, time_at (self, a));
      break;
    }
  gtk_widget_queue_draw (area);
  return GDK_EVENT_STOP;
}

/* The shares under the pointer. */
static gboolean
chart_tooltip (GtkWidget *area, gint x, gint y, gboolean keyboard, GtkTooltip *tooltip, TtvCpuUsageViewer *self)
{
  const TtvCpuUsagePicture *p = self->picture;
  double pw = MAX (gtk_widget_get_allocated_width (area) - TTV_CPU_USAGE_LEFT - TTV_CPU_USAGE_RIGHT, 1);
  if (p == NULL || x < TTV_CPU_USAGE_LEFT || x >= TTV_CPU_USAGE_LEFT + pw)
    return FALSE;
  guint i = MIN ((guint) ((x - TTV_CPU_USAGE_LEFT) / pw * p->n_bins), p->n_bins - 1);
  g_autofree char *from = ttv_tab_state_format_time (self->state, p->edges[i]);
  g_autofree char *length = ttv_viewer_format_duration (p->edges[i + 1] - p->edges[i]);
  g_autoptr (GString) text = g_string_new (NULL);
  g_string_append_printf (text, _("From %s for %s: all CPUs %.1f %%"), from, length, 100 * p->all[i]);
  for (guint c = 0; c < p->cpus->len; c++)
    {
      g_autofree char *label = ttv_cpu_usage_picture_dup_cpu_label (p, c);
      g_string_append_printf (text, _("\n%s: %.1f %%"), label, 100 * p->busy[c * p->n_bins + i]);
    }
  if (p->thread)
    {
      g_autofree char *label = ttv_cpu_usage_picture_dup_thread_label (p);
      g_string_append_printf (text, _("\n%s: %.1f %%"), label, 100 * p->thread[i]);
    }
  ttv_view_set_tooltip_text (tooltip, text->str);
  return TRUE;
}

static void
chart_size (GtkWidget *area, GdkRectangle *alloc, TtvCpuUsageViewer *self)
{
  if (self->picture == NULL || self->picture->n_bins != bins_for (alloc->width))
    recompute (self);
}

static void
draw_to (gpointer data, cairo_t *cr, int width, int height)
{
  TtvCpuUsageViewer *self = data;
  if (self->picture)
    ttv_cpu_usage_draw_picture (self->state, self->picture, cr, width, height);
}

static void
ttv_cpu_usage_viewer_dispose (GObject *object)
{
  TtvCpuUsageViewer *self = TTV_CPU_USAGE_VIEWER (object);
  ttv_view_job_cancel (&self->computing);
  g_clear_handle_id (&self->progress_timer, g_source_remove);
  ttv_view_state_release (&self->state, self->handlers, G_N_ELEMENTS (self->handlers));
  g_clear_object (&self->store);
  g_clear_pointer (&self->picture, ttv_cpu_usage_picture_free);
  G_OBJECT_CLASS (ttv_cpu_usage_viewer_parent_class)->dispose (object);
}

static void
ttv_cpu_usage_viewer_class_init (TtvCpuUsageViewerClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = ttv_cpu_usage_viewer_dispose;
}

static void
ttv_cpu_usage_viewer_init (TtvCpuUsageViewer *self)
{
}

static GtkWidget *
threads_view_new (TtvCpuUsageViewer *self)
{
  self->store = gtk_list_store_new (N_COLS, G_TYPE_UINT, G_TYPE_UINT, G_TYPE_STRING, G_TYPE_STRING, G_TYPE_STRING,
                                    G_TYPE_INT64, G_TYPE_UINT, G_TYPE_STRING);
  /* The machine first, shown only with several (fill_threads). */
  const TtvViewListColumn cols[] = {
    { _("Machine"), COL_MACHINE_NAME, COL_MACHINE_NAME }, { _("Name"), COL_NAME, COL_NAME }, { _("TID"), COL_TID, COL_TID }, { _("PID"), COL_PID, COL_PID },
    { _("CPU time"), COL_TIME, COL_TIME_V }, { _("Share of busy time"), COL_SHARE, COL_TIME_V },
  };
  GtkWidget *view = ttv_view_list_new (GTK_TREE_MODEL (self->store), cols, G_N_ELEMENTS (cols), TRUE);
  gtk_widget_set_name (view, "cpu-usage-threads");
  g_signal_connect_swapped (gtk_tree_view_get_selection (GTK_TREE_VIEW (view)), "changed", G_CALLBACK (thread_picked),
                            self);
  self->threads_view = view;
  return ttv_view_list_scrolled (view);
}

static GtkWidget *
ttv_cpu_usage_viewer_new (TtvTabState *state)
{
  TtvCpuUsageViewer *self = g_object_new (TTV_TYPE_CPU_USAGE_VIEWER, "orientation", GTK_ORIENTATION_VERTICAL, NULL);
  self->state = g_object_ref (state);
  GSimpleActionGroup *group = g_simple_action_group_new ();
  ttv_view_export_add_actions (G_ACTION_MAP (group), GTK_WIDGET (self), _("Export CPU Usage (.png or .svg)"),
                               "cpu-usage.png", draw_to);
  gtk_widget_insert_action_group (GTK_WIDGET (self), "cpuusage", G_ACTION_GROUP (group));
  g_object_unref (group);

  gtk_box_pack_start (GTK_BOX (self), ttv_view_bar_new ("cpu-usage-status", "cpuusage.export-dialog", &self->status),
                      FALSE, FALSE, 0);

  self->chart = gtk_drawing_area_new ();
  gtk_widget_set_name (self->chart, "cpu-usage-chart");
  gtk_widget_set_size_request (self->chart, 300, 160);
  gtk_widget_add_events (self->chart, GDK_BUTTON_PRESS_MASK | GDK_BUTTON_RELEASE_MASK | GDK_BUTTON1_MOTION_MASK);
  gtk_widget_set_has_tooltip (self->chart, TRUE);
  g_signal_connect (self->chart, "draw", G_CALLBACK (chart_draw), self);
  g_signal_connect (self->chart, "size-allocate", G_CALLBACK (chart_size), self);
  g_signal_connect (self->chart, "button-press-event", G_CALLBACK (ttv_view_drag_press), &self->drag);
  g_signal_connect (self->chart, "motion-notify-event", G_CALLBACK (ttv_view_drag_motion), &self->drag);
  g_signal_connect (self->chart, "button-release-event", G_CALLBACK (chart_release), self);
  g_signal_connect (self->chart, "query-tooltip", G_CALLBACK (chart_tooltip), self);
  ttv_viewer_watch_marker_colors (self->chart);
  GtkWidget *split = gtk_paned_new (GTK_ORIENTATION_VERTICAL);
  gtk_paned_pack1 (GTK_PANED (split), self->chart, TRUE, FALSE);
  gtk_paned_pack2 (GTK_PANED (split), threads_view_new (self), TRUE, FALSE);
  gtk_paned_set_position (GTK_PANED (split), 300);
  gtk_box_pack_start (GTK_BOX (self), split, TRUE, TRUE, 0);

  self->handlers[0] = g_signal_connect_swapped (state, "kernel-ready", G_CALLBACK (analysis_changed), self);
  self->handlers[1] = g_signal_connect_swapped (state, "traceset-changed", G_CALLBACK (analysis_changed), self);
  self->handlers[2] = g_signal_connect_swapped (state, "time-window-changed", G_CALLBACK (recompute), self);
  self->handlers[3] = g_signal_connect_swapped (state, "selection-changed", G_CALLBACK (recompute), self);
  self->handlers[4] = g_signal_connect_swapped (state, "selected-thread-changed", G_CALLBACK (recompute), self);
  self->handlers[5] = g_signal_connect_swapped (state, "current-time-changed", G_CALLBACK (gtk_widget_queue_draw),
                                                self->chart);
  self->handlers[6] = g_signal_connect_swapped (state, "time-format-changed", G_CALLBACK (show_status), self);
  /* The chart's time ruler follows the time format too. */
  self->handlers[7] = g_signal_connect_swapped (state, "time-format-changed", G_CALLBACK (gtk_widget_queue_draw),
                                                self->chart);
  analysis_changed (self);
  gtk_widget_show_all (GTK_WIDGET (self));
  return GTK_WIDGET (self);
}

/* This thread's CPU time, µs (the benchmarks' figures on a busy machine). */
static gint64
cpu_now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (gint64) ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
}

/* ttv --render cpu-usage: the analysis here and now, the window's chart
 * over the threads of the selection (or the window). */
static gboolean
render (TtvTabState *state, cairo_t *cr, int width, int height, GError **error)
{
  if (width < 320 || height < 200)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("The CPU usage needs at least 320x200 pixels, not %dx%d"), width, height);
      return FALSE;
    }
  if (!ttv_tab_state_compute_kernel (state, TTV_VIEWER_KERNEL_CPU, NULL, error))
    return FALSE;
  g_autoptr (TtvViewerCpuUsage) usage = ttv_tab_state_dup_cpu_usage (state);
  TtvTime r0, r1;
  TtvTimeScale scale;
  plot_scale (state, width, &scale);
  threads_range (state, &r0, &r1);
  gint64 start = g_get_monotonic_time (), cpu_start = cpu_now ();
  g_autoptr (TtvCpuUsagePicture) p = ttv_cpu_usage_picture_compute (usage, &scale, bins_for (width), r0, r1,
                                                                    ttv_tab_state_get_selected_machine (state),
                                                                    ttv_tab_state_get_selected_thread (state), error);
  if (p == NULL)
    return FALSE;
  ttv_cpu_usage_draw_picture (state, p, cr, width, height);
  cairo_surface_flush (cairo_get_target (cr));
  /* bench/render: the frame (the chart's points and the threads, computed
   * then drawn) without the PNG encoding. */
  if (g_getenv ("TTV_BENCH_RENDER"))
    g_print ("{\"bench\": \"view-draw\", \"view\": \"cpu-usage\", \"threads\": %u, \"draw_ms\": %.2f, "
             "\"draw_cpu_ms\": %.2f}\n", p->threads->len, (g_get_monotonic_time () - start) / 1000.0,
             (cpu_now () - cpu_start) / 1000.0);
  return TRUE;
}

static const TtvViewerInfo info = {
  .name = "cpu-usage",
  .title = N_("CPU Usage"),
  .icon_name = "power-profile-performance-symbolic",
  .menu_label = N_("C_PU Usage"),
  .new_viewer = ttv_cpu_usage_viewer_new,
  .render = render,
  .translation_domain = GETTEXT_PACKAGE,
};

TTV_VIEWER_MODULE (cpu_usage_init)

static void
cpu_usage_init (void)
{
  ttv_viewer_register (&info);
}
