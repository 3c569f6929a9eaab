/* ttv-latency-viewer.c: a latency view (system calls, scheduling, IRQs,
 * block I/O, futex waits): over the tab's time window, the scatter of
 * duration against time, the density of durations with p50/p90/p99, the
 * statistics per call (count, min, mean, max, stddev, percentiles) and
 * the longest records; everything or the selected thread's; for block
 * I/O, the throughput per device and per process; for system calls, the
 * longest calls' arguments, read back from the trace in a worker thread.  A click on a
 * point or a row selects that record's interval and thread in every view;
 * a drag on the scatter zooms the window.  Pictures are computed in worker
 * threads (ttv-latency-data.c) and drawn in O(pixels). */
#include "ttv-latency-viewer.h"
#include "ttv-view-text.h"
#include "ttv-view-drag.h"
#include "ttv-view-export.h"
#include "ttv-view-job.h"
#include "ttv-view-list.h"
#include "ttv-view-state.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#define TTV_TYPE_LATENCY_VIEWER (ttv_latency_viewer_get_type ())
G_DECLARE_FINAL_TYPE (TtvLatencyViewer, ttv_latency_viewer, TTV, LATENCY_VIEWER, GtkBox)

/* The statistics store's columns. */
enum {
  STAT_LABEL, STAT_COUNT, STAT_TOTAL, STAT_MIN, STAT_MEAN, STAT_MAX, STAT_STDDEV, STAT_P50, STAT_P90,
  STAT_P99, STAT_N_TEXT,
  /* the numbers the text columns sort by */
  STAT_COUNT_V = STAT_N_TEXT, STAT_TOTAL_V, STAT_MIN_V, STAT_MEAN_V, STAT_MAX_V, STAT_STDDEV_V, STAT_P50_V,
  STAT_P90_V, STAT_P99_V, STAT_N_COLUMNS
};

struct _TtvLatencyViewer {
  GtkBox parent_instance;

  TtvTabState *state;                /* owned reference */
  const TtvLatencyKind *kind;
  gulong handlers[8];
  GSimpleActionGroup *actions;       /* owned */
  GtkWidget *table_combo, *status, *scatter, *density, *stats_view, *longest_view;
  GtkWidget *devices_view, *processes_view;   /* block I/O's throughput, else NULL */
  GtkListStore *stats_store;         /* owned */
  GtkListStore *longest_store;       /* owned: one column of the record's index in data->order, then text */
  TtvViewerTable *table;             /* owned, NULL until the analysis is there */
  TtvLatencyData *picture;           /* owned: the scatter and density shown, may be NULL */
  TtvLatencyData *stats;             /* owned: the statistics and longest shown, may be NULL */
  GCancellable *computing;           /* owned: the picture's job */
  GCancellable *computing_stats;     /* owned: the statistics' job */
  GCancellable *reading_args;        /* owned: the longest calls' arguments being read */
  GStrv arguments;                   /* owned: those of stats->order's calls once read, else NULL */
  guint progress_timer;
  TtvViewDrag drag;
  gboolean filling;                  /* the longest list is being filled: no selection from it */
};

G_DEFINE_FINAL_TYPE (TtvLatencyViewer, ttv_latency_viewer, GTK_TYPE_BOX)

static gboolean
flag (TtvLatencyViewer *self, const char *name)
{
  g_autoptr (GVariant) v = g_action_group_get_action_state (G_ACTION_GROUP (self->actions), name);
  return g_variant_get_boolean (v);
}

static const char *
table_name (TtvLatencyViewer *self)
{
  const char *id = gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->table_combo));
  return id ? id : self->kind->tables[0];
}

/* The thread the pictures are of: the selected one with "thread-only". */
static guint32
shown_thread (TtvLatencyViewer *self)
{
  return flag (self, "thread-only") ? ttv_tab_state_get_selected_thread (self->state) : TTV_VIEWER_PID_NONE;
}

/* --- Jobs ------------------------------------------------------------------------- */

typedef struct {
  TtvViewerTable *table;
  TtvTime t0, t1;
  guint width;
  TtvTimeScale scale;                /* the window over the columns, the tab's */
  guint machine;                     /* @tid's */
  guint32 tid;
  gboolean with_stats;
  gboolean throughput;               /* with the block throughput */
} Job;

static void
job_free (Job *job)
{
  ttv_viewer_table_unref (job->table);
  g_free (job);
}

static void
job_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancel)
{
  Job *job = data;
  GError *error = NULL;
  TtvLatencyData *d = ttv_latency_data_compute (job->table, job->t0, job->t1, job->width, &job->scale, job->machine, job->tid,
                                                job->with_stats, cancel, &error);
  if (d && job->throughput && !ttv_latency_data_add_throughput (d, &error))
    g_clear_pointer (&d, ttv_latency_data_free);
  ttv_view_job_return (task, d, (GDestroyNotify) ttv_latency_data_free, error);
}

static void fill_stats (TtvLatencyViewer *self);
static void fill_longest (TtvLatencyViewer *self);
static void fill_throughput (TtvLatencyViewer *self);
static void read_arguments (TtvLatencyViewer *self);
static void show_status (TtvLatencyViewer *self);

static void
job_done (GObject *source, GAsyncResult *result, gpointer data)
{
  TtvLatencyViewer *self = data;    /* owned reference */
  GError *error = NULL;
  Job *job = g_task_get_task_data (G_TASK (result));
  TtvLatencyData *d = g_task_propagate_pointer (G_TASK (result), &error);
  gboolean stale = ttv_view_job_is_stale (result);

  if (!stale && self->state)
    {
      if (job->with_stats)
        {
          g_clear_object (&self->computing_stats);
          g_clear_pointer (&self->stats, ttv_latency_data_free);
          self->stats = d;
          g_clear_pointer (&self->arguments, g_strfreev);
          fill_stats (self);
          fill_longest (self);
          fill_throughput (self);
          read_arguments (self);
          gtk_widget_queue_draw (self->density);
        }
      else
        {
          g_clear_object (&self->computing);
          g_clear_pointer (&self->picture, ttv_latency_data_free);
          self->picture = d;
          gtk_widget_queue_draw (self->scatter);
          gtk_widget_queue_draw (self->density);
        }
      d = NULL;
      if (error)
        gtk_label_set_text (GTK_LABEL (self->status), error->message);
      else
        show_status (self);
    }
  if (d)
    ttv_latency_data_free (d);
  g_clear_error (&error);
  g_object_unref (self);
}

static void
start_job (TtvLatencyViewer *self, gboolean with_stats)
{
  GCancellable **slot = with_stats ? &self->computing_stats : &self->computing;
  ttv_view_job_cancel (slot);
  if (self->table == NULL)
    return;
  Job *job = g_new0 (Job, 1);
  job->table = ttv_viewer_table_ref (self->table);
  ttv_tab_state_get_time_window (self->state, &job->t0, &job->t1);
  job->width = (guint) MAX (gtk_widget_get_allocated_width (self->scatter) - 66, 1);
  ttv_tab_state_get_time_scale (self->state, job->t0, MAX (job->t1, job->t0 + 1), 0, job->width, &job->scale);
  job->tid = shown_thread (self);
  job->machine = ttv_tab_state_get_selected_machine (self->state);
  job->with_stats = with_stats;
  job->throughput = with_stats && self->kind->throughput;
  ttv_view_job_run (slot, self, job, (GDestroyNotify) job_free, job_thread, job_done);
}

/* The window, the thread or the table changed: both pictures again. */
static void
recompute (TtvLatencyViewer *self)
{
  start_job (self, FALSE);
  start_job (self, TRUE);
  show_status (self);
}

/* --- The analysis ------------------------------------------------------------------ */

static void
show_status (TtvLatencyViewer *self)
{
  g_autofree char *text = NULL;
  const GError *error = ttv_tab_state_get_kernel_error (self->state, self->kind->analysis);
  if (error)
    text = g_strdup_printf (_("The analysis failed: %s"), error->message);
  else if (self->table == NULL)
    text = g_strdup_printf (_("Analysing the trace… %.0f%%"),
                            100 * ttv_tab_state_get_kernel_progress (self->state, self->kind->analysis));
  else if (self->computing_stats)
    text = g_strdup (_("Computing the statistics of the window…"));
  else if (self->stats)
    {
      g_autofree char *n = g_strdup_printf ("%" G_GUINT64_FORMAT, self->stats->all.count);
      guint32 tid = self->stats->tid;
      if (tid != TTV_VIEWER_PID_NONE)
        text = g_strdup_printf (_("%s %s of thread %u start in the window"), n, _(self->kind->noun), tid);
      else
        text = g_strdup_printf (_("%s %s start in the window"), n, _(self->kind->noun));
    }
  gtk_label_set_text (GTK_LABEL (self->status), text ? text : "");
}

static gboolean
progress_tick (gpointer data)
{
  TtvLatencyViewer *self = data;
  show_status (self);
  return G_SOURCE_CONTINUE;
}

/* The analysis came (or went with the traceset): the table again. */
static void
analysis_changed (TtvLatencyViewer *self)
{
  g_clear_pointer (&self->table, ttv_viewer_table_unref);
  if (ttv_tab_state_request_kernel (self->state, self->kind->analysis))
    self->table = ttv_tab_state_dup_kernel_table (self->state, self->kind->analysis, table_name (self));
  if (self->table && self->progress_timer)
    g_clear_handle_id (&self->progress_timer, g_source_remove);
  else if (!self->table && !self->progress_timer
           && !ttv_tab_state_get_kernel_error (self->state, self->kind->analysis))
    self->progress_timer = g_timeout_add (250, progress_tick, self);
  if (self->table == NULL)
    {
      g_clear_pointer (&self->picture, ttv_latency_data_free);
      g_clear_pointer (&self->stats, ttv_latency_data_free);
      g_clear_pointer (&self->arguments, g_strfreev);
      gtk_list_store_clear (self->stats_store);
      if (self->longest_store)
        gtk_list_store_clear (self->longest_store);
      fill_throughput (self);
      gtk_widget_queue_draw (self->scatter);
      gtk_widget_queue_draw (self->density);
    }
  recompute (self);
}

static void
thread_changed (TtvLatencyViewer *self)
{
  if (flag (self, "thread-only"))
    recompute (self);
}

/* --- Tables ---------------------------------------------------------------------------- */

static void
fill_stats (TtvLatencyViewer *self)
{
  gtk_list_store_clear (self->stats_store);
  if (self->stats == NULL || self->stats->groups == NULL)
    return;
  for (guint i = 0; i <= self->stats->groups->len; i++)
    {
      const TtvViewerDurationStats *s = i < self->stats->groups->len
                                        ? &g_array_index (self->stats->groups, TtvViewerDurationStats, i)
                                        : &self->stats->all;
      if (s->count == 0)
        continue;
      gint64 v[TTV_LATENCY_N_FIGURES];
      ttv_latency_stats_figures (s, v);
      g_auto (GStrv) t = g_new0 (char *, TTV_LATENCY_N_FIGURES + 1);
      for (guint f = 0; f < TTV_LATENCY_N_FIGURES; f++)
        t[f] = ttv_latency_figure_text (f, v[f]);
      g_autofree char *valid = NULL;
      const char *label = i < self->stats->groups->len ? ttv_view_valid_text (s->label, &valid) : _("all");
      gtk_list_store_insert_with_values (self->stats_store, NULL, -1,
                                         STAT_LABEL, label,
                                         STAT_COUNT, t[0], STAT_TOTAL, t[1], STAT_MIN, t[2], STAT_MEAN, t[3],
                                         STAT_MAX, t[4], STAT_STDDEV, t[5], STAT_P50, t[6], STAT_P90, t[7],
                                         STAT_P99, t[8],
                                         STAT_COUNT_V, v[0], STAT_TOTAL_V, v[1], STAT_MIN_V, v[2], STAT_MEAN_V, v[3],
                                         STAT_MAX_V, v[4], STAT_STDDEV_V, v[5], STAT_P50_V, v[6], STAT_P90_V, v[7],
                                         STAT_P99_V, v[8], -1);
    }
}

/* A record's cell as shown: times as the user chose, durations with units. */
static char *
cell_text (TtvLatencyViewer *self, TtvViewerRecords *r, guint index, guint column)
{
  switch (ttv_viewer_table_get_column_type (self->table, column))
    {
    case TTV_VIEWER_COLUMN_TIME:
      return ttv_tab_state_format_time (self->state, ttv_viewer_records_get_value (r, index, column));
    case TTV_VIEWER_COLUMN_DURATION:
      return ttv_viewer_format_duration (ttv_viewer_records_get_value (r, index, column));
    default:
      return ttv_viewer_records_dup_text (r, index, column);
    }
}

/* The longest records' list: columns as the table's, but the end. */
static void
setup_longest (TtvLatencyViewer *self)
{
  GtkTreeView *view = GTK_TREE_VIEW (self->longest_view);
  while (gtk_tree_view_get_n_columns (view) > 0)
    gtk_tree_view_remove_column (view, gtk_tree_view_get_column (view, 0));
  gtk_tree_view_set_model (view, NULL);
  g_clear_object (&self->longest_store);
  guint n = self->table ? ttv_viewer_table_get_n_columns (self->table) : 0;
  /* The record's index in the order, its columns, its arguments. */
  g_autofree GType *types = g_new (GType, n + 2);
  types[0] = G_TYPE_UINT;
  for (guint c = 0; c <= n; c++)
    types[c + 1] = G_TYPE_STRING;
  self->longest_store = gtk_list_store_newv ((gint) n + 2, types);
  gtk_tree_view_set_model (view, GTK_TREE_MODEL (self->longest_store));
  for (guint c = 0; c < n; c++)
    {
      if (g_str_equal (ttv_viewer_table_get_column_name (self->table, c), "end"))
        continue;
      GtkCellRenderer *cell = gtk_cell_renderer_text_new ();
      TtvViewerColumnType type = ttv_viewer_table_get_column_type (self->table, c);
      if (type != TTV_VIEWER_COLUMN_STRING && type != TTV_VIEWER_COLUMN_ENUM)
        g_object_set (cell, "xalign", 1.0, NULL);
      GtkTreeViewColumn *col = gtk_tree_view_column_new_with_attributes (
          ttv_viewer_table_get_column_title (self->table, c), cell, "text", (gint) c + 1, NULL);
      gtk_tree_view_column_set_resizable (col, TRUE);
      gtk_tree_view_column_set_expand (col, g_str_equal (ttv_viewer_table_get_column_name (self->table, c), "name"));
      gtk_tree_view_append_column (view, col);
    }
  if (self->kind->arguments && n > 0)
    {
      GtkTreeViewColumn *col = gtk_tree_view_column_new_with_attributes (_("Arguments"), gtk_cell_renderer_text_new (),
                                                                          "text", (gint) n + 1, NULL);
      gtk_tree_view_column_set_resizable (col, TRUE);
      gtk_tree_view_append_column (view, col);
    }
}

static void
arguments_read (GObject *source, GAsyncResult *result, gpointer data)
{
  TtvLatencyViewer *self = data;    /* owned reference */
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) args = ttv_tab_state_read_syscall_arguments_finish (TTV_TAB_STATE (source), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || self->state == NULL)
    {
      g_object_unref (self);
      return;
    }
  g_clear_object (&self->reading_args);
  if (error)
    gtk_label_set_text (GTK_LABEL (self->status), error->message);
  /* They are the shown calls' (new statistics cancel the read): set in
   * place, so that the row picked and the scrolling stay. */
  g_strfreev (self->arguments);
  self->arguments = g_steal_pointer (&args);
  guint n_args = self->arguments ? g_strv_length (self->arguments) : 0;
  GtkTreeModel *model = GTK_TREE_MODEL (self->longest_store);
  gint column = gtk_tree_model_get_n_columns (model) - 1;
  GtkTreeIter it;
  for (gboolean ok = gtk_tree_model_get_iter_first (model, &it); ok; ok = gtk_tree_model_iter_next (model, &it))
    {
      guint i;
      gtk_tree_model_get (model, &it, 0, &i, -1);
      if (i < n_args)
        gtk_list_store_set (self->longest_store, &it, column, self->arguments[i], -1);
    }
  g_object_unref (self);
}

/* The arguments of the longest calls shown, read from the trace in a
 * worker thread (a seek per call). */
static void
read_arguments (TtvLatencyViewer *self)
{
  ttv_view_job_cancel (&self->reading_args);
  if (!self->kind->arguments || self->stats == NULL || self->stats->longest == NULL || self->stats->order->len == 0)
    return;
  self->reading_args = g_cancellable_new ();
  ttv_tab_state_read_syscall_arguments_async (self->state, self->stats->longest,
                                              (const guint *) self->stats->order->data, self->stats->order->len,
                                              self->reading_args, arguments_read, g_object_ref (self));
}

static void
fill_longest (TtvLatencyViewer *self)
{
  if (self->longest_store == NULL)
    return;
  self->filling = TRUE;
  gtk_list_store_clear (self->longest_store);
  if (self->stats && self->stats->longest && self->table)
    {
      guint n = ttv_viewer_table_get_n_columns (self->table);
      guint n_args = self->arguments ? g_strv_length (self->arguments) : 0;
      for (guint i = 0; i < self->stats->order->len; i++)
        {
          guint index = g_array_index (self->stats->order, guint, i);
          GtkTreeIter it;
          gtk_list_store_insert_with_values (self->longest_store, &it, -1, 0, i, -1);
          for (guint c = 0; c < n; c++)
            {
              g_autofree char *text = cell_text (self, self->stats->longest, index, c);
              g_autofree char *valid = NULL;
              gtk_list_store_set (self->longest_store, &it, (gint) c + 1, ttv_view_valid_text (text, &valid), -1);
            }
          g_autofree char *valid = NULL;
          if (i < n_args)
            gtk_list_store_set (self->longest_store, &it, (gint) n + 1,
                                ttv_view_valid_text (self->arguments[i], &valid), -1);
        }
    }
  self->filling = FALSE;
}

static void
fill_throughput (TtvLatencyViewer *self)
{
  if (self->devices_view == NULL)
    return;
  TtvViewerTable *table = self->stats ? self->stats->table : NULL;
  ttv_latency_throughput_fill (self->devices_view, table, self->stats ? self->stats->devices : NULL);
  ttv_latency_throughput_fill (self->processes_view, table, self->stats ? self->stats->processes : NULL);
}

/* Selects record @index of @r in every view: its interval, its start as
 * the current time, its thread on its machine. */
static void
select_record (TtvLatencyViewer *self, TtvViewerRecords *r, guint index)
{
  TtvTime start = ttv_viewer_records_get_start (r, index);
  guint32 tid = ttv_viewer_records_get_tid (r, index);
  ttv_tab_state_set_selection (self->state, start, ttv_viewer_records_get_end (r, index));
  ttv_tab_state_set_current_time (self->state, start);
  if (tid != TTV_VIEWER_PID_NONE)
    ttv_tab_state_select_thread_on (self->state, ttv_viewer_records_get_machine (r, index), tid);
}

static void
select_longest (TtvLatencyViewer *self, guint i)
{
  if (self->stats == NULL || i >= self->stats->order->len)
    return;
  guint index = g_array_index (self->stats->order, guint, i);
  select_record (self, self->stats->longest, index);
}

static void
longest_activated (TtvLatencyViewer *self)
{
  GtkTreeModel *model;
  GtkTreeIter it;
  if (self->filling
      || !gtk_tree_selection_get_selected (gtk_tree_view_get_selection (GTK_TREE_VIEW (self->longest_view)), &model,
                                           &it))
    return;
  guint i;
  gtk_tree_model_get (model, &it, 0, &i, -1);
  select_longest (self, i);
}

/* --- The charts ----------------------------------------------------------------------- */

static void
chart_frame (TtvLatencyViewer *self, GtkWidget *area, TtvLatencyFrame *f)
{
  ttv_latency_frame_init (f, 0, 0, gtk_widget_get_allocated_width (area), gtk_widget_get_allocated_height (area));
}

static gboolean
draw_scatter (GtkWidget *area, cairo_t *cr, TtvLatencyViewer *self)
{
  TtvLatencyFrame f;
  chart_frame (self, area, &f);
  if (self->picture == NULL)
    {
      ttv_latency_draw_message (cr, 0, 0, f.width, f.height,
                                self->table ? _("Computing…") : _("Waiting for the analysis…"));
      return GDK_EVENT_STOP;
    }
  TtvLatencyScale s;
  ttv_latency_scale_init (&s, self->picture);
  TtvTime ss, se, sel[2];
  ttv_tab_state_get_time_span (self->state, &ss, &se);
  gboolean has_sel = ttv_tab_state_get_selection (self->state, &sel[0], &sel[1]);
  ttv_latency_draw_scatter (cr, self->picture, &s, &f, ss, has_sel ? sel : NULL);
  ttv_view_drag_draw_band (&self->drag, cr, f.py, f.ph);
  return GDK_EVENT_STOP;
}

static gboolean
draw_density (GtkWidget *area, cairo_t *cr, TtvLatencyViewer *self)
{
  TtvLatencyFrame f;
  chart_frame (self, area, &f);
  /* The statistics' picture when it is of the same window, for its percentiles. */
  const TtvLatencyData *d = self->stats ? self->stats : self->picture;
  if (d == NULL)
    {
      ttv_latency_draw_message (cr, 0, 0, f.width, f.height, "");
      return GDK_EVENT_STOP;
    }
  TtvLatencyScale s;
  ttv_latency_scale_init (&s, d);
  ttv_latency_draw_density (cr, d, &s, &f, flag (self, "log-scale"));
  return GDK_EVENT_STOP;
}

static TtvTime
time_at (TtvLatencyViewer *self, double x)
{
  TtvLatencyFrame f;
  TtvTime t0, t1;
  chart_frame (self, self->scatter, &f);
  ttv_tab_state_get_time_window (self->state, &t0, &t1);
  return t0 + (TtvTime) (CLAMP ((x - f.px) / f.pw, 0, 1) * (double) (t1 - t0));
}

/* The record nearest a click: in the column under it (and its neighbours),
 * the one whose duration is nearest on the log scale; NULL when none is
 * near, else the records read, *@index the one picked (transfer full). */
static TtvViewerRecords *
pick_record (TtvLatencyViewer *self, double x, double y, guint *index)
{
  TtvLatencyFrame f;
  TtvLatencyScale s;
  guint column;
  TtvTime want;
  if (self->picture == NULL || self->table == NULL)
    return NULL;
  chart_frame (self, self->scatter, &f);
  ttv_latency_scale_init (&s, self->picture);
  if (!ttv_latency_scatter_pick (self->picture, &s, &f, x, y, &column, &want))
    return NULL;
  TtvTime a, b, unused;
  ttv_latency_column_range (self->picture, column > 0 ? column - 1 : 0, &a, &unused);
  ttv_latency_column_range (self->picture, MIN (column + 1, self->picture->width - 1), &unused, &b);
  g_autoptr (TtvViewerRecords) r = ttv_viewer_table_query_thread (self->table, TTV_VIEWER_QUERY_START_IN, a, b,
                                                                  self->picture->machine, self->picture->tid, NULL);
  double best = G_MAXDOUBLE;
  for (guint i = 0; r && i < ttv_viewer_records_get_n (r); i++)
    {
      TtvTime s0 = ttv_viewer_records_get_start (r, i), s1 = ttv_viewer_records_get_end (r, i);
      double px = f.px + (double) (s0 - self->picture->t0) / (double) MAX (self->picture->t1 - self->picture->t0, 1) * f.pw;
      double dist = fabs (log10 (MAX ((double) (s1 - s0), 1)) - log10 ((double) MAX (want, 1))) * f.ph
                    / (s.hi - s.lo) + fabs (px - x);
      if (dist < best)
        {
          best = dist;
          *index = i;
        }
    }
  return best < 12 ? g_steal_pointer (&r) : NULL;
}

/* A drag zooms the window to its span; a click selects the record under
 * it, else sets the current time. */
static gboolean
scatter_release (GtkWidget *area, GdkEventButton *ev, TtvLatencyViewer *self)
{
  double a, b;
  g_autoptr (TtvViewerRecords) picked = NULL;
  guint index;
  switch (ttv_view_drag_release (&self->drag, ev, &a, &b))
    {
    case TTV_VIEW_DRAG_NONE:
      return GDK_EVENT_PROPAGATE;
    case TTV_VIEW_DRAG_SPAN:
      ttv_tab_state_set_time_window (self->state, time_at (self, a), time_at (self, b));
      break;
    case TTV_VIEW_DRAG_CLICK:
      if ((picked = pick_record (self, ev->x, ev->y, &index)))
        select_record (self, picked, index);
      else
        ttv_tab_state_set_current_time (self->state, time_at (self, a));
      break;
    }
  gtk_widget_queue_draw (area);
  return GDK_EVENT_STOP;
}

static gboolean
scatter_tooltip (GtkWidget *area, gint x, gint y, gboolean keyboard, GtkTooltip *tooltip, TtvLatencyViewer *self)
{
  guint index;
  g_autoptr (TtvViewerRecords) r = pick_record (self, x, y, &index);
  if (r == NULL)
    return FALSE;
  TtvTime s0 = ttv_viewer_records_get_start (r, index), s1 = ttv_viewer_records_get_end (r, index);
  guint32 tid = ttv_viewer_records_get_tid (r, index);
  g_autofree char *when = ttv_tab_state_format_time (self->state, s0);
  g_autofree char *length = ttv_viewer_format_duration (s1 - s0);
  g_autofree char *text = tid != TTV_VIEWER_PID_NONE
                          ? g_strdup_printf (_("%s at %s, thread %u\nClick to select it in every view"), length, when, tid)
                          : g_strdup_printf (_("%s at %s\nClick to select it in every view"), length, when);
  ttv_view_set_tooltip_text (tooltip, text);
  return TRUE;
}

static void
scatter_size (GtkWidget *area, GdkRectangle *alloc, TtvLatencyViewer *self)
{
  if (self->picture == NULL || self->picture->width != (guint) MAX (alloc->width - 66, 1))
    start_job (self, FALSE);
}

/* --- Actions ---------------------------------------------------------------------------- */

static void
change_flag (GSimpleAction *action, GVariant *value, gpointer data)
{
  TtvLatencyViewer *self = data;
  g_simple_action_set_state (action, value);
  if (g_str_equal (g_action_get_name (G_ACTION (action)), "thread-only"))
    recompute (self);
  else
    gtk_widget_queue_draw (self->density);
}

/* latency.select-longest(i): selects the i-th longest record (tests, keyboard). */
static void
act_select_longest (GSimpleAction *action, GVariant *param, gpointer data)
{
  select_longest (data, g_variant_get_uint32 (param));
}

static void
draw_to (gpointer data, cairo_t *cr, int width, int height)
{
  TtvLatencyViewer *self = data;
  ttv_latency_draw_picture (self->state, self->kind, self->stats ? self->stats : self->picture,
                            flag (self, "log-scale"), cr, width, height);
}


/* --- Construction ---------------------------------------------------------------------- */

static void
ttv_latency_viewer_dispose (GObject *object)
{
  TtvLatencyViewer *self = TTV_LATENCY_VIEWER (object);

  ttv_view_job_cancel (&self->computing);
  ttv_view_job_cancel (&self->computing_stats);
  ttv_view_job_cancel (&self->reading_args);
  g_clear_handle_id (&self->progress_timer, g_source_remove);
  ttv_view_state_release (&self->state, self->handlers, G_N_ELEMENTS (self->handlers));
  g_clear_object (&self->actions);
  g_clear_object (&self->stats_store);
  g_clear_object (&self->longest_store);
  g_clear_pointer (&self->table, ttv_viewer_table_unref);
  g_clear_pointer (&self->picture, ttv_latency_data_free);
  g_clear_pointer (&self->stats, ttv_latency_data_free);
  g_clear_pointer (&self->arguments, g_strfreev);
  G_OBJECT_CLASS (ttv_latency_viewer_parent_class)->dispose (object);
}

static void
ttv_latency_viewer_class_init (TtvLatencyViewerClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = ttv_latency_viewer_dispose;
}

static void
ttv_latency_viewer_init (TtvLatencyViewer *self)
{
}

/* The statistics' first column is named after the group column. */
static void
name_groups (TtvLatencyViewer *self)
{
  GtkTreeViewColumn *col = gtk_tree_view_get_column (GTK_TREE_VIEW (self->stats_view), 0);
  gint group = self->table ? ttv_viewer_table_get_group_column (self->table) : -1;
  gtk_tree_view_column_set_title (col, group >= 0 ? ttv_viewer_table_get_column_title (self->table, (guint) group)
                                                  : _("Group"));
}

static void
table_changed (TtvLatencyViewer *self)
{
  analysis_changed (self);
  setup_longest (self);
  name_groups (self);
}

static GtkWidget *
stats_view_new (TtvLatencyViewer *self)
{
  GType types[STAT_N_COLUMNS];
  for (guint c = 0; c < STAT_N_COLUMNS; c++)
    types[c] = c < STAT_N_TEXT ? G_TYPE_STRING : G_TYPE_INT64;
  self->stats_store = gtk_list_store_newv (STAT_N_COLUMNS, types);
  const char *titles[STAT_N_TEXT] = {
    _("Group"), _("Count"), _("Total"), _("Min"), _("Mean"), _("Max"), _("Std dev"), _("P50"), _("P90"), _("P99"),
  };
  /* Each figure sorts by its number, stored after the text columns. */
  TtvViewListColumn cols[STAT_N_TEXT];
  for (guint c = 0; c < STAT_N_TEXT; c++)
    cols[c] = (TtvViewListColumn) { titles[c], (gint) c, c == 0 ? STAT_LABEL : (gint) (STAT_N_TEXT + c - 1) };
  GtkWidget *view = ttv_view_list_new (GTK_TREE_MODEL (self->stats_store), cols, STAT_N_TEXT, TRUE);
  gtk_widget_set_name (view, "latency-statistics");
  return view;
}

GtkWidget *
ttv_latency_viewer_new (TtvTabState *state, const TtvLatencyKind *kind)
{
  static const GActionEntry actions[] = {
    { "thread-only", NULL, NULL, "false", change_flag, { 0 } },
    { "log-scale", NULL, NULL, "false", change_flag, { 0 } },
    { "select-longest", act_select_longest, "u", NULL, NULL, { 0 } },
  };
  TtvLatencyViewer *self = g_object_new (TTV_TYPE_LATENCY_VIEWER, "orientation", GTK_ORIENTATION_VERTICAL, NULL);
  self->state = g_object_ref (state);
  self->kind = kind;
  self->actions = g_simple_action_group_new ();
  g_action_map_add_action_entries (G_ACTION_MAP (self->actions), actions, G_N_ELEMENTS (actions), self);
  g_autofree char *file = g_strdup_printf ("%s.png", kind->name);
  ttv_view_export_add_actions (G_ACTION_MAP (self->actions), GTK_WIDGET (self), _("Export Latency View (.png or .svg)"),
                               file, draw_to);
  gtk_widget_insert_action_group (GTK_WIDGET (self), "latency", G_ACTION_GROUP (self->actions));

  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_container_set_border_width (GTK_CONTAINER (bar), 4);
  self->table_combo = gtk_combo_box_text_new ();
  gtk_widget_set_name (self->table_combo, "latency-table");
  guint n_tables = 0;
  for (const char *const *t = kind->tables; *t; t++, n_tables++)
    gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (self->table_combo), *t, ttv_latency_table_title (*t));
  gtk_combo_box_set_active (GTK_COMBO_BOX (self->table_combo), 0);
  gtk_box_pack_start (GTK_BOX (bar), self->table_combo, FALSE, FALSE, 0);
  GtkWidget *w = gtk_check_button_new_with_mnemonic (_("Selected _thread only"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (w), "latency.thread-only");
  gtk_box_pack_start (GTK_BOX (bar), w, FALSE, FALSE, 0);
  w = gtk_check_button_new_with_mnemonic (_("_Log counts"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (w), "latency.log-scale");
  gtk_box_pack_start (GTK_BOX (bar), w, FALSE, FALSE, 0);
  self->status = gtk_label_new ("");
  gtk_widget_set_name (self->status, "latency-status");
  gtk_label_set_ellipsize (GTK_LABEL (self->status), PANGO_ELLIPSIZE_END);
  gtk_box_pack_start (GTK_BOX (bar), self->status, TRUE, TRUE, 0);
  w = gtk_button_new_with_mnemonic (_("E_xport…"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (w), "latency.export-dialog");
  gtk_box_pack_end (GTK_BOX (bar), w, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (self), bar, FALSE, FALSE, 0);

  self->scatter = gtk_drawing_area_new ();
  gtk_widget_set_name (self->scatter, "latency-scatter");
  gtk_widget_set_size_request (self->scatter, 300, 160);
  gtk_widget_add_events (self->scatter, GDK_BUTTON_PRESS_MASK | GDK_BUTTON_RELEASE_MASK | GDK_BUTTON1_MOTION_MASK);
  gtk_widget_set_has_tooltip (self->scatter, TRUE);
  g_signal_connect (self->scatter, "draw", G_CALLBACK (draw_scatter), self);
  g_signal_connect (self->scatter, "size-allocate", G_CALLBACK (scatter_size), self);
  g_signal_connect (self->scatter, "button-press-event", G_CALLBACK (ttv_view_drag_press), &self->drag);
  g_signal_connect (self->scatter, "motion-notify-event", G_CALLBACK (ttv_view_drag_motion), &self->drag);
  g_signal_connect (self->scatter, "button-release-event", G_CALLBACK (scatter_release), self);
  g_signal_connect (self->scatter, "query-tooltip", G_CALLBACK (scatter_tooltip), self);
  ttv_viewer_watch_marker_colors (self->scatter);
  self->density = gtk_drawing_area_new ();
  gtk_widget_set_name (self->density, "latency-density");
  gtk_widget_set_size_request (self->density, 200, 160);
  g_signal_connect (self->density, "draw", G_CALLBACK (draw_density), self);
  GtkWidget *charts = gtk_paned_new (GTK_ORIENTATION_HORIZONTAL);
  gtk_paned_pack1 (GTK_PANED (charts), self->scatter, TRUE, FALSE);
  gtk_paned_pack2 (GTK_PANED (charts), self->density, TRUE, FALSE);
  gtk_paned_set_position (GTK_PANED (charts), 620);

  GtkWidget *notebook = gtk_notebook_new ();
  self->stats_view = stats_view_new (self);
  gtk_notebook_append_page (GTK_NOTEBOOK (notebook), ttv_view_list_scrolled (self->stats_view),
                            gtk_label_new (_("Statistics")));
  self->longest_view = gtk_tree_view_new ();
  gtk_widget_set_name (self->longest_view, "latency-longest");
  gtk_notebook_append_page (GTK_NOTEBOOK (notebook), ttv_view_list_scrolled (self->longest_view),
                            gtk_label_new (_("Longest")));
  g_signal_connect_swapped (gtk_tree_view_get_selection (GTK_TREE_VIEW (self->longest_view)), "changed",
                            G_CALLBACK (longest_activated), self);
  if (kind->throughput)
    {
      /* Of the requests completed in the window, every thread's. */
      self->devices_view = ttv_latency_throughput_view_new (FALSE);
      gtk_notebook_append_page (GTK_NOTEBOOK (notebook), ttv_view_list_scrolled (self->devices_view),
                                gtk_label_new (_("Throughput per Device")));
      self->processes_view = ttv_latency_throughput_view_new (TRUE);
      gtk_notebook_append_page (GTK_NOTEBOOK (notebook), ttv_view_list_scrolled (self->processes_view),
                                gtk_label_new (_("Throughput per Process")));
    }
  GtkWidget *split = gtk_paned_new (GTK_ORIENTATION_VERTICAL);
  gtk_paned_pack1 (GTK_PANED (split), charts, TRUE, FALSE);
  gtk_paned_pack2 (GTK_PANED (split), notebook, TRUE, FALSE);
  gtk_paned_set_position (GTK_PANED (split), 300);
  gtk_box_pack_start (GTK_BOX (self), split, TRUE, TRUE, 0);

  g_signal_connect_swapped (self->table_combo, "changed", G_CALLBACK (table_changed), self);
  self->handlers[0] = g_signal_connect_swapped (state, "kernel-ready", G_CALLBACK (table_changed), self);
  self->handlers[1] = g_signal_connect_swapped (state, "time-window-changed", G_CALLBACK (recompute), self);
  self->handlers[2] = g_signal_connect_swapped (state, "selection-changed", G_CALLBACK (gtk_widget_queue_draw),
                                                self->scatter);
  self->handlers[3] = g_signal_connect_swapped (state, "selected-thread-changed", G_CALLBACK (thread_changed), self);
  self->handlers[4] = g_signal_connect_swapped (state, "time-format-changed", G_CALLBACK (fill_longest), self);
  self->handlers[5] = g_signal_connect_swapped (state, "traceset-changed", G_CALLBACK (table_changed), self);
  /* The scatter's time ruler follows the time format too. */
  self->handlers[6] = g_signal_connect_swapped (state, "time-format-changed", G_CALLBACK (gtk_widget_queue_draw),
                                                self->scatter);
  table_changed (self);
  gtk_widget_show_all (GTK_WIDGET (self));
  if (n_tables < 2)
    gtk_widget_hide (self->table_combo);
  return GTK_WIDGET (self);
}
