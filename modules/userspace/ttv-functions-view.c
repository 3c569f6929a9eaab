/* ttv-functions-view.c: the function statistics view: per function of the
 * traced threads, over the selection (else the time window), its calls,
 * total and self time, and the minimum, mean, maximum and 50th, 90th and
 * 99th percentiles of its calls' durations, with where it is in the
 * source; any column sorts.  Computed in a worker thread from the tab's
 * call stack analysis; ttv --render functions draws the table. */
#include "ttv-functions-view.h"
#include "ttv-view-text.h"

#include "ttv-callstacks-job.h"
#include "ttv-userspace-common.h"
#include "ttv-view-job.h"
#include "ttv-view-state.h"

#include <glib/gi18n-lib.h>
#include <string.h>

enum {
  COL_FUNCTION, COL_CALLS, COL_TOTAL, COL_SELF, COL_MIN, COL_MEAN, COL_MAX, COL_P50, COL_P90, COL_P99,
  COL_LOCATION, N_COLS
};

static const char *const titles[N_COLS] = {
  N_("Function"), N_("Calls"), N_("Total"), N_("Self"), N_("Min"), N_("Mean"), N_("Max"), N_("P50"), N_("P90"),
  N_("P99"), N_("Location"),
};

/* One row as text and as the numbers the columns sort by. */
typedef struct {
  char *function;
  char *location;
  gint64 values[COL_P99 - COL_CALLS + 1];   /* calls, then durations in ns (-1: none) */
} Row;

static void
row_clear (gpointer data)
{
  Row *r = data;
  g_free (r->function);
  g_free (r->location);
}

/* @machines: the machines' names with several (a function is named after
 * its process's machine's), else NULL. */
static GArray *
compute_rows (TtvViewerCallstacks *cs, const char *const *machines, TtvTime t0, TtvTime t1)
{
  g_autoptr (GArray) stats = ttv_viewer_callstacks_dup_function_stats (cs, t0, t1, NULL);
  GArray *rows = g_array_sized_new (FALSE, TRUE, sizeof (Row), stats->len);
  g_array_set_clear_func (rows, row_clear);
  for (guint i = 0; i < stats->len; i++)
    {
      const TtvViewerFunctionStats *s = &g_array_index (stats, TtvViewerFunctionStats, i);
      TtvViewerFunction f;
      ttv_viewer_callstacks_get_function (cs, s->function, &f);
      Row r = { ttv_userspace_label_on_machine (machines, f.machine, f.name), NULL,
                { (gint64) s->calls, s->total, s->self, s->min, s->min < 0 ? -1 : (gint64) (s->mean + 0.5), s->max,
                  s->p50, s->p90, s->p99 } };
      if (f.file)
        {
          const char *base = strrchr (f.file, '/');
          r.location = g_strdup_printf ("%s:%u", base ? base + 1 : f.file, f.line);
        }
      else
        r.location = g_strdup (f.binary ? f.binary : "");
      g_array_append_val (rows, r);
    }
  return rows;
}

static char *
cell_text (const Row *r, guint col)
{
  if (col == COL_FUNCTION)
    return g_strdup (r->function);
  if (col == COL_LOCATION)
    return g_strdup (r->location);
  gint64 v = r->values[col - COL_CALLS];
  if (col == COL_CALLS)
    return g_strdup_printf ("%" G_GINT64_FORMAT, v);
  return v < 0 ? g_strdup ("–") : ttv_viewer_format_duration (v);
}

/* --- The widget ------------------------------------------------------------------- */

struct _TtvFunctionsView {
  GtkBox parent_instance;

  TtvTabState *state;           /* owned reference */
  TtvViewerCallstacks *cs;      /* owned, NULL until the analysis is there */
  TtvUserspaceWait *wait;       /* owned */
  GCancellable *building;       /* owned while rows are computed */
  GtkListStore *store;
  GtkLabel *status;
  gulong handlers[3];
};

G_DEFINE_FINAL_TYPE (TtvFunctionsView, ttv_functions_view, GTK_TYPE_BOX)

static void
compute_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancel)
{
  TtvCallstacksJob *job = data;
  GArray *rows = compute_rows (job->cs, (const char *const *) job->machines, job->t0, job->t1);
  g_task_return_pointer (task, rows, (GDestroyNotify) g_array_unref);
}

static void
computed (GObject *source, GAsyncResult *result, gpointer data)
{
  TtvFunctionsView *self = data;
  g_autoptr (GArray) rows = g_task_propagate_pointer (G_TASK (result), NULL);
  if (rows && !ttv_view_job_is_stale (result))
    {
      g_clear_object (&self->building);
      gtk_list_store_clear (self->store);
      for (guint i = 0; i < rows->len; i++)
        {
          const Row *r = &g_array_index (rows, Row, i);
          GtkTreeIter it;
          g_autofree char *function = NULL, *location = NULL;
          gtk_list_store_insert_with_values (self->store, &it, -1,
                                             COL_FUNCTION, ttv_view_valid_text (r->function, &function),
                                             COL_LOCATION, ttv_view_valid_text (r->location, &location), -1);
          for (guint c = COL_CALLS; c <= COL_P99; c++)
            gtk_list_store_set (self->store, &it, c, r->values[c - COL_CALLS], -1);
        }
      g_autofree char *text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u function in the interval",
                                                            "%u functions in the interval", rows->len), rows->len);
      gtk_label_set_text (self->status, rows->len ? text : _("No call in this interval."));
      ttv_viewer_notify_first_paint (GTK_WIDGET (self), rows->len);
    }
  g_object_unref (self);
}

static void
recompute (TtvFunctionsView *self)
{
  ttv_callstacks_job_run (&self->building, self, self->state, self->cs, compute_thread, computed);
}

static void
analysis_ready (gpointer data)
{
  TtvFunctionsView *self = data;
  ttv_userspace_take_callstacks (self->state, self->wait, NULL, &self->cs);
  recompute (self);
}

static void
show_cell (GtkTreeViewColumn *column, GtkCellRenderer *cell, GtkTreeModel *model, GtkTreeIter *it, gpointer data)
{
  guint col = GPOINTER_TO_UINT (data);
  Row r = { NULL, NULL, { 0 } };
  gtk_tree_model_get (model, it, col, &r.values[col - COL_CALLS], -1);
  g_autofree char *text = cell_text (&r, col);
  g_object_set (cell, "text", text, NULL);
}

static void
traceset_changed (TtvFunctionsView *self)
{
  g_clear_pointer (&self->cs, ttv_viewer_callstacks_unref);
  gtk_list_store_clear (self->store);
  ttv_userspace_wait_start (self->wait);
}

static void
ttv_functions_view_dispose (GObject *object)
{
  TtvFunctionsView *self = TTV_FUNCTIONS_VIEW (object);
  ttv_view_job_cancel (&self->building);
  g_clear_pointer (&self->wait, ttv_userspace_wait_free);
  ttv_view_state_release (&self->state, self->handlers, G_N_ELEMENTS (self->handlers));
  g_clear_pointer (&self->cs, ttv_viewer_callstacks_unref);
  g_clear_object (&self->store);
  G_OBJECT_CLASS (ttv_functions_view_parent_class)->dispose (object);
}

static void
ttv_functions_view_class_init (TtvFunctionsViewClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = ttv_functions_view_dispose;
}

static void
ttv_functions_view_init (TtvFunctionsView *self)
{
  GType types[N_COLS];
  for (guint c = 0; c < N_COLS; c++)
    types[c] = c == COL_FUNCTION || c == COL_LOCATION ? G_TYPE_STRING : G_TYPE_INT64;
  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_VERTICAL);
  self->store = gtk_list_store_newv (N_COLS, types);
  GtkWidget *view = gtk_tree_view_new_with_model (GTK_TREE_MODEL (self->store));
  gtk_widget_set_name (view, "functions-table");
  for (guint c = 0; c < N_COLS; c++)
    {
      GtkCellRenderer *cell = gtk_cell_renderer_text_new ();
      GtkTreeViewColumn *column = gtk_tree_view_column_new ();
      gtk_tree_view_column_set_title (column, _(titles[c]));
      gtk_tree_view_column_pack_start (column, cell, TRUE);
      if (c == COL_FUNCTION || c == COL_LOCATION)
        gtk_tree_view_column_add_attribute (column, cell, "text", c);
      else
        {
          g_object_set (cell, "xalign", 1.0, NULL);
          gtk_tree_view_column_set_cell_data_func (column, cell, show_cell, GUINT_TO_POINTER (c), NULL);
        }
      gtk_tree_view_column_set_sort_column_id (column, (gint) c);
      gtk_tree_view_column_set_resizable (column, TRUE);
      gtk_tree_view_append_column (GTK_TREE_VIEW (view), column);
    }
  gtk_tree_sortable_set_sort_column_id (GTK_TREE_SORTABLE (self->store), COL_TOTAL, GTK_SORT_DESCENDING);
  GtkWidget *scroll = gtk_scrolled_window_new (NULL, NULL);
  gtk_container_add (GTK_CONTAINER (scroll), view);
  gtk_widget_set_vexpand (scroll, TRUE);
  self->status = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->status, 0);
  gtk_widget_set_margin_start (GTK_WIDGET (self->status), 6);
  gtk_box_pack_start (GTK_BOX (self), scroll, TRUE, TRUE, 0);
  gtk_box_pack_start (GTK_BOX (self), GTK_WIDGET (self->status), FALSE, FALSE, 2);
}

GtkWidget *
ttv_functions_view_new (TtvTabState *state)
{
  TtvFunctionsView *self = g_object_new (TTV_TYPE_FUNCTIONS_VIEW, NULL);
  self->state = g_object_ref (state);
  self->handlers[0] = g_signal_connect_swapped (state, "selection-changed", G_CALLBACK (recompute), self);
  self->handlers[1] = g_signal_connect_swapped (state, "time-window-changed", G_CALLBACK (recompute), self);
  self->handlers[2] = g_signal_connect_swapped (state, "traceset-changed", G_CALLBACK (traceset_changed), self);
  self->wait = ttv_userspace_wait_new (state, TTV_VIEWER_USERSPACE_CALLSTACKS, self->status, analysis_ready, self);
  analysis_ready (self);
  gtk_widget_show_all (GTK_WIDGET (self));
  return GTK_WIDGET (self);
}

/* --- The render: the table as drawn text ------------------------------------------------ */

gboolean
ttv_functions_view_render (TtvTabState *state, cairo_t *cr, int width, int height, GError **error)
{
  if (!ttv_tab_state_compute_userspace (state, TTV_VIEWER_USERSPACE_CALLSTACKS, NULL, error))
    return FALSE;
  g_autoptr (TtvViewerCallstacks) cs = ttv_tab_state_dup_callstacks (state);
  TtvTime t0, t1;
  ttv_userspace_get_interval (state, &t0, &t1);
  g_auto (GStrv) machines = ttv_userspace_dup_machine_names (state);
  g_autoptr (GArray) rows = compute_rows (cs, (const char *const *) machines, t0, t1);
  static const double widths[N_COLS] = { 3, 1, 1.2, 1.2, 1.2, 1.2, 1.2, 1.2, 1.2, 1.2, 2 };
  double sum = 0, x[N_COLS + 1];
  for (guint c = 0; c < N_COLS; c++)
    sum += widths[c];
  x[0] = 6;
  for (guint c = 0; c < N_COLS; c++)
    x[c + 1] = x[c] + (width - 12) * widths[c] / sum;
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  cairo_select_font_face (cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
  cairo_set_font_size (cr, 11);
  cairo_set_source_rgb (cr, 0.1, 0.1, 0.1);
  for (guint c = 0; c < N_COLS; c++)
    ttv_userspace_show_text (cr, x[c], 16, x[c + 1] - x[c] - 6, _(titles[c]));
  cairo_select_font_face (cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  for (guint i = 0; i < rows->len && 36 + i * 17 < (guint) height; i++)
    {
      const Row *r = &g_array_index (rows, Row, i);
      double y = 36 + i * 17;
      if (i % 2)
        {
          cairo_set_source_rgb (cr, 0.95, 0.95, 0.97);
          cairo_rectangle (cr, 0, y - 12, width, 17);
          cairo_fill (cr);
        }
      cairo_set_source_rgb (cr, 0.1, 0.1, 0.1);
      for (guint c = 0; c < N_COLS; c++)
        {
          g_autofree char *text = cell_text (r, c);
          ttv_userspace_show_text (cr, x[c], y, x[c + 1] - x[c] - 6, text);
        }
    }
  if (rows->len == 0)
    {
      cairo_move_to (cr, 6, 40);
      ttv_view_show_text (cr, _("No call in this interval."));
    }
  return TRUE;
}
