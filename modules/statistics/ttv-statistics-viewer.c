/* ttv-statistics-viewer.c: the statistics viewer module: a sortable tree of
 * the tab's statistics (whole traceset, or the selected interval computed
 * in a worker thread) with durations written for people; copy (Ctrl+C),
 * export as CSV with exact numbers, as a PNG or SVG table of the rows
 * shown, and the headless render of ttv --render (statistics.* actions). */
#include "ttv-stats-format.h"
#include "ttv-view-text.h"
#include "ttv-stats-table.h"
#include "ttv-viewer.h"

#include <glib/gi18n-lib.h>
#include <string.h>

enum { COL_NAME, COL_COUNT, COL_TOTAL, COL_AVERAGE, COL_MIN, COL_MAX, COL_KEY, N_COLS };
#define N_SHOWN COL_KEY      /* the columns on screen, before the key */

static const char *const column_titles[N_SHOWN] = {
  N_("Name"), N_("Count"), N_("Total"), N_("Average"), N_("Min"), N_("Max"),
};

#define TTV_TYPE_STATISTICS_VIEWER (ttv_statistics_viewer_get_type ())
G_DECLARE_FINAL_TYPE (TtvStatisticsViewer, ttv_statistics_viewer, TTV, STATISTICS_VIEWER, GtkBox)

struct _TtvStatisticsViewer {
  GtkBox parent_instance;

  TtvTabState *state;          /* owned reference */
  gulong handlers[4];
  GtkTreeView *view;
  GtkTreeStore *store;         /* owned */
  GtkLabel *scope;
  GtkSpinner *spinner;
  GtkWidget *menu;             /* weak: the context menu, attached to the view */
  GCancellable *cancel;        /* owned: the interval job, NULL when none */
  TtvViewerStatsNode *shown;   /* owned reference: what the store holds */
  char *title;                 /* owned: what the statistics are of, for images */
};

G_DEFINE_FINAL_TYPE (TtvStatisticsViewer, ttv_statistics_viewer, GTK_TYPE_BOX)

/* --- The tree -------------------------------------------------------------- */

static void
fill (GtkTreeStore *store, GtkTreeIter *parent, const TtvViewerStatsNode *node)
{
  GtkTreeIter iter;
  guint64 count = ttv_viewer_stats_node_get_count (node);
  TtvTime total = ttv_viewer_stats_node_get_total (node), min = ttv_viewer_stats_node_get_min (node);
  /* An average only for durations (nodes with a minimum). */
  gint64 average = min >= 0 && count > 0 ? total / (gint64) count : -1;

  /* A task's name may hold bytes that are not UTF-8: GTK's cells take
   * only UTF-8. */
  g_autofree char *valid = NULL;
  const char *name = ttv_view_valid_text (ttv_viewer_stats_node_get_name (node), &valid);
  gtk_tree_store_insert_with_values (store, &iter, parent, -1, COL_NAME, name,
                                     COL_COUNT, count, COL_TOTAL, total, COL_AVERAGE, average,
                                     COL_MIN, min, COL_MAX, ttv_viewer_stats_node_get_max (node),
                                     COL_KEY, ttv_viewer_stats_node_get_key (node), -1);
  for (guint i = 0; i < ttv_viewer_stats_node_get_n_children (node); i++)
    fill (store, &iter, ttv_viewer_stats_node_get_child (node, i));
}

static char *
dup_key (GtkTreeModel *model, GtkTreePath *path)
{
  GtkTreeIter iter;
  char *key = NULL;

  if (gtk_tree_model_get_iter (model, &iter, path))
    gtk_tree_model_get (model, &iter, COL_KEY, &key, -1);
  return key;
}

static void
collect_expanded (GtkTreeView *view, GtkTreePath *path, gpointer keys)
{
  char *key = dup_key (gtk_tree_view_get_model (view), path);

  if (key)
    g_hash_table_add (keys, key);
}

/* Expands the rows whose key is in @keys (what was open before a refresh). */
static gboolean
expand_if_kept (GtkTreeModel *model, GtkTreePath *path, GtkTreeIter *iter, gpointer data)
{
  TtvStatisticsViewer *self = data;
  GHashTable *keys = g_object_get_data (G_OBJECT (self), "expanded-keys");
  g_autofree char *key = NULL;

  gtk_tree_model_get (model, iter, COL_KEY, &key, -1);
  if (key && g_hash_table_contains (keys, key))
    gtk_tree_view_expand_row (self->view, path, FALSE);
  return FALSE;
}

static void
show_tree (TtvStatisticsViewer *self, TtvViewerStatsNode *root)
{
  g_autoptr (GHashTable) keys = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  gtk_tree_view_map_expanded_rows (self->view, collect_expanded, keys);
  g_clear_pointer (&self->shown, ttv_viewer_stats_node_unref);
  gtk_tree_store_clear (self->store);
  if (!root)
    return;
  self->shown = ttv_viewer_stats_node_ref (root);
  fill (self->store, NULL, root);
  g_hash_table_add (keys, g_strdup (ttv_viewer_stats_node_get_key (root)));
  g_object_set_data (G_OBJECT (self), "expanded-keys", keys);
  gtk_tree_model_foreach (GTK_TREE_MODEL (self->store), expand_if_kept, self);
  g_object_set_data (G_OBJECT (self), "expanded-keys", NULL);
}

static void
set_scope (TtvStatisticsViewer *self, const char *text)
{
  gtk_label_set_text (self->scope, text);
  g_free (self->title);
  self->title = g_strdup (text);
}

/* @selection: of the tab's selection, else of its time window; the times
 * as every view shows them (the user's time format). */
static char *
interval_scope (TtvTabState *state, gboolean selection, TtvTime start, TtvTime end)
{
  g_autofree char *a = ttv_tab_state_format_time (state, start);
  g_autofree char *b = ttv_tab_state_format_time (state, end);

  return selection ? g_strdup_printf (_("Statistics of the selection %s – %s"), a, b)
                   : g_strdup_printf (_("Statistics of the time window %s – %s"), a, b);
}

static void
interval_done (GObject *source, GAsyncResult *result, gpointer data)
{
  TtvStatisticsViewer *self = data;   /* owned reference */
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvViewerStatsNode) root = NULL;

  if (!self->state)
    {
      g_object_unref (self);
      return;
    }
  root = ttv_tab_state_compute_statistics_finish (self->state, result, &error);
  if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_clear_object (&self->cancel);
      gtk_spinner_stop (self->spinner);
      if (root)
        show_tree (self, root);
      else
        {
          g_autofree char *msg = g_strdup_printf (_("Statistics of the selection failed: %s"),
                                                  error->message);
          gtk_label_set_text (self->scope, msg);
        }
    }
  g_object_unref (self);
}

static void
cancel_job (TtvStatisticsViewer *self)
{
  if (self->cancel)
    g_cancellable_cancel (self->cancel);
  g_clear_object (&self->cancel);
  gtk_spinner_stop (self->spinner);
}

/* The selection's times in the new format; the figures stay. */
static void
format_changed (TtvStatisticsViewer *self)
{
  TtvTime start, end;
  g_autofree char *msg = NULL;

  if (!ttv_tab_state_is_state_ready (self->state) || !ttv_tab_state_get_selection (self->state, &start, &end)
      || end <= start || (self->title && !g_str_equal (gtk_label_get_text (self->scope), self->title)))
    return;   /* no selection shown, or its computation failed (that message stays) */
  msg = interval_scope (self->state, TRUE, start, end);
  set_scope (self, msg);
}

static void
refresh (TtvStatisticsViewer *self)
{
  TtvTime start, end;

  cancel_job (self);
  if (!ttv_tab_state_is_state_ready (self->state))
    {
      show_tree (self, NULL);
      set_scope (self, _("Statistics: waiting for the background pass…"));
      return;
    }
  if (ttv_tab_state_get_selection (self->state, &start, &end) && end > start)
    {
      g_autofree char *msg = interval_scope (self->state, TRUE, start, end);

      set_scope (self, msg);
      self->cancel = g_cancellable_new ();
      gtk_spinner_start (self->spinner);
      ttv_tab_state_compute_statistics_async (self->state, start, end, self->cancel,
                                              interval_done, g_object_ref (self));
      return;
    }
  set_scope (self, _("Statistics of the whole traceset"));
  show_tree (self, ttv_tab_state_get_statistics (self->state));
}

/* --- Cells as shown ---------------------------------------------------------- */

/* The text of column @column of a row as the view shows it. */
static char *
cell_text (GtkTreeModel *model, GtkTreeIter *iter, gint column)
{
  if (column == COL_NAME)
    {
      char *name = NULL;

      gtk_tree_model_get (model, iter, COL_NAME, &name, -1);
      return name ? name : g_strdup ("");
    }
  if (column == COL_COUNT)
    {
      guint64 n;

      gtk_tree_model_get (model, iter, COL_COUNT, &n, -1);
      return ttv_stats_format_count (n, TRUE);
    }
  {
    gint64 ns;

    gtk_tree_model_get (model, iter, column, &ns, -1);
    return ttv_stats_format_duration (ns);
  }
}

static void
number_cell (GtkTreeViewColumn *col, GtkCellRenderer *cell, GtkTreeModel *model, GtkTreeIter *iter,
             gpointer data)
{
  g_autofree char *text = cell_text (model, iter, GPOINTER_TO_INT (data));

  g_object_set (cell, "text", text, NULL);
}

/* Names sort as people count: "CPU 2" before "CPU 10". */
static gint
compare_names (GtkTreeModel *model, GtkTreeIter *a, GtkTreeIter *b, gpointer data)
{
  g_autofree char *x = NULL, *y = NULL, *kx = NULL, *ky = NULL;

  gtk_tree_model_get (model, a, COL_NAME, &x, -1);
  gtk_tree_model_get (model, b, COL_NAME, &y, -1);
  kx = g_utf8_collate_key_for_filename (x ? x : "", -1);
  ky = g_utf8_collate_key_for_filename (y ? y : "", -1);
  return strcmp (kx, ky);
}

static void
copy_selected (TtvStatisticsViewer *self)
{
  GtkTreeSelection *sel = gtk_tree_view_get_selection (self->view);
  GtkTreeModel *model;
  GList *rows = gtk_tree_selection_get_selected_rows (sel, &model);
  g_autoptr (GString) text = g_string_new (NULL);

  for (GList *l = rows; l; l = l->next)
    {
      GtkTreeIter iter;

      if (!gtk_tree_model_get_iter (model, &iter, l->data))
        continue;
      for (gint c = 0; c < N_SHOWN; c++)
        {
          g_autofree char *cell = cell_text (model, &iter, c);

          g_string_append_printf (text, "%s%s", c ? "\t" : "", cell);
        }
      g_string_append_c (text, '\n');
    }
  g_list_free_full (rows, (GDestroyNotify) gtk_tree_path_free);
  gtk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self->view), GDK_SELECTION_CLIPBOARD),
                          text->str, (gint) text->len);
}

/* --- CSV export: every row, exact numbers ----------------------------------- */

static void
csv_field (GString *out, const char *s)
{
  if (strpbrk (s, ",\"\n"))
    {
      g_string_append_c (out, '"');
      for (; *s; s++)
        {
          if (*s == '"')
            g_string_append_c (out, '"');
          g_string_append_c (out, *s);
        }
      g_string_append_c (out, '"');
    }
  else
    g_string_append (out, s);
}

/* Seconds with nanoseconds, "" when not applicable. */
static void
csv_seconds (GString *out, gint64 ns)
{
  g_string_append_c (out, ',');
  if (ns >= 0)
    g_string_append_printf (out, "%" G_GINT64_FORMAT ".%09" G_GINT64_FORMAT,
                            ns / 1000000000, ns % 1000000000);
}

static void
csv_rows (GString *out, GtkTreeModel *model, GtkTreeIter *parent)
{
  GtkTreeIter iter;

  if (!gtk_tree_model_iter_children (model, &iter, parent))
    return;
  do
    {
      g_autofree char *name = NULL, *key = NULL;
      guint64 count;
      gint64 total, average, min, max;

      gtk_tree_model_get (model, &iter, COL_NAME, &name, COL_COUNT, &count, COL_TOTAL, &total,
                          COL_AVERAGE, &average, COL_MIN, &min, COL_MAX, &max, COL_KEY, &key, -1);
      csv_field (out, key ? key : "");
      g_string_append_c (out, ',');
      csv_field (out, name ? name : "");
      g_string_append_printf (out, ",%" G_GUINT64_FORMAT, count);
      csv_seconds (out, total);
      csv_seconds (out, min);
      csv_seconds (out, max);
      csv_seconds (out, average);
      g_string_append_c (out, '\n');
      csv_rows (out, model, &iter);
    }
  while (gtk_tree_model_iter_next (model, &iter));
}

static gboolean
export_csv (TtvStatisticsViewer *self, const char *path, GError **error)
{
  g_autoptr (GString) out = g_string_new ("key,name,count,total_s,min_s,max_s,average_s\n");

  csv_rows (out, GTK_TREE_MODEL (self->store), NULL);
  return g_file_set_contents (path, out->str, (gssize) out->len, error);
}

/* --- Image export: the rows shown, as a table -------------------------------- */

static void
table_rows (TtvStatisticsViewer *self, TtvStatsTable *table, GtkTreeIter *parent, guint depth)
{
  GtkTreeModel *model = GTK_TREE_MODEL (self->store);
  GtkTreeIter iter;

  if (!gtk_tree_model_iter_children (model, &iter, parent))
    return;
  do
    {
      g_autoptr (GtkTreePath) path = gtk_tree_model_get_path (model, &iter);
      gboolean expanded = gtk_tree_view_row_expanded (self->view, path);
      char *cells[N_SHOWN];

      for (gint c = 0; c < N_SHOWN; c++)
        cells[c] = cell_text (model, &iter, c);
      ttv_stats_table_add_row (table, depth, gtk_tree_model_iter_has_child (model, &iter), expanded,
                               (const char *const *) cells);
      for (gint c = 0; c < N_SHOWN; c++)
        g_free (cells[c]);
      if (expanded)
        table_rows (self, table, &iter, depth + 1);
    }
  while (gtk_tree_model_iter_next (model, &iter));
}

/* "trace, trace: Statistics of…": an image says what it shows. */
static char *
image_title (TtvTabState *state, const char *scope)
{
  g_autoptr (GString) title = g_string_new (NULL);
  guint n = ttv_tab_state_get_n_traces (state);

  for (guint i = 0; i < n && i < 3; i++)
    g_string_append_printf (title, "%s%s", i ? ", " : "",
                            ttv_viewer_trace_get_name (ttv_tab_state_get_trace (state, i)));
  if (n > 3)
    g_string_append (title, ", …");
  g_string_append_printf (title, ": %s", scope ? scope : "");
  return g_string_free (g_steal_pointer (&title), FALSE);
}

/* A table with the view's columns, no rows yet. */
static TtvStatsTable *
new_table (const char *title)
{
  TtvStatsTable *table = ttv_stats_table_new (title, N_SHOWN);

  for (guint c = 0; c < N_SHOWN; c++)
    {
      table->headers[c] = g_dgettext (GETTEXT_PACKAGE, column_titles[c]);
      table->right_aligned[c] = c != COL_NAME;
    }
  return table;
}

static TtvStatsTable *
shown_table (TtvStatisticsViewer *self)
{
  g_autofree char *title = image_title (self->state, self->title);
  TtvStatsTable *table = new_table (title);

  table_rows (self, table, NULL, 0);
  return table;
}

/* @width, @height 0: the size of the whole table. */
static gboolean
export_image (TtvStatisticsViewer *self, const char *path, int width, int height, GError **error)
{
  g_autoptr (TtvStatsTable) table = shown_table (self);

  return ttv_stats_table_write (table, path, width, height, error);
}

/* --- Display-free render (ttv --render statistics) ------------------------------
 * The tree a new viewer of the time window would show, its groups open,
 * as a table: drawn with cairo, or written as SVG text. */

/* What a node's row shows, as the view writes it (cell_text). */
static void
node_cells (const TtvViewerStatsNode *node, char *cells[N_SHOWN])
{
  guint64 count = ttv_viewer_stats_node_get_count (node);
  TtvTime total = ttv_viewer_stats_node_get_total (node), min = ttv_viewer_stats_node_get_min (node);

  cells[COL_NAME] = g_strdup (ttv_viewer_stats_node_get_name (node));
  cells[COL_COUNT] = ttv_stats_format_count (count, TRUE);
  cells[COL_TOTAL] = ttv_stats_format_duration (total);
  cells[COL_AVERAGE] = ttv_stats_format_duration (min >= 0 && count > 0 ? total / (gint64) count : -1);
  cells[COL_MIN] = ttv_stats_format_duration (min);
  cells[COL_MAX] = ttv_stats_format_duration (ttv_viewer_stats_node_get_max (node));
}

/* @node's row and, when open (the root and its groups), its children's. */
static void
tree_rows (TtvStatsTable *table, const TtvViewerStatsNode *node, guint depth)
{
  guint n = ttv_viewer_stats_node_get_n_children (node);
  gboolean open = depth < 2 && n > 0;
  char *cells[N_SHOWN];

  node_cells (node, cells);
  ttv_stats_table_add_row (table, depth, n > 0, open, (const char *const *) cells);
  for (gint c = 0; c < N_SHOWN; c++)
    g_free (cells[c]);
  for (guint i = 0; open && i < n; i++)
    tree_rows (table, ttv_viewer_stats_node_get_child (node, i), depth + 1);
}

/* The statistics of @state's time window (the whole traceset when it shows
 * it all), computed here and now, as a table titled with what it is of. */
static TtvStatsTable *
window_table (TtvTabState *state, GError **error)
{
  g_autoptr (TtvViewerStatsNode) root = NULL;
  g_autofree char *scope = NULL, *title = NULL;
  TtvStatsTable *table;
  TtvTime w0, w1, s0, s1;

  ttv_tab_state_get_time_window (state, &w0, &w1);
  ttv_tab_state_get_time_span (state, &s0, &s1);
  if (w0 <= s0 && w1 >= s1)
    {
      scope = g_strdup (_("Statistics of the whole traceset"));
      if (ttv_tab_state_get_statistics (state))
        root = ttv_viewer_stats_node_ref (ttv_tab_state_get_statistics (state));
    }
  else
    scope = interval_scope (state, FALSE, w0, w1);
  if (!root)
    root = ttv_tab_state_compute_statistics (state, w0, w1, NULL, error);
  if (!root)
    return NULL;
  title = image_title (state, scope);
  table = new_table (title);
  tree_rows (table, root, 0);
  return table;
}

static gboolean
render (TtvTabState *state, cairo_t *cr, int width, int height, GError **error)
{
  g_autoptr (TtvStatsTable) table = window_table (state, error);

  if (!table)
    return FALSE;
  ttv_stats_table_draw (table, cr, width, height);
  return TRUE;
}

/* The SVG as text, so that its names and numbers stay searchable. */
static gboolean
write_svg (TtvTabState *state, const char *path, int width, int height, GError **error)
{
  g_autoptr (TtvStatsTable) table = window_table (state, error);

  return table && ttv_stats_table_write (table, path, width, height, error);
}

/* --- Actions ---------------------------------------------------------------- */

static void
report_error (TtvStatisticsViewer *self, const GError *error)
{
  g_autofree char *msg = g_strdup_printf (_("Export failed: %s"), error->message);
  gtk_label_set_text (self->scope, msg);
}

static void
act_export_csv_to (GSimpleAction *action, GVariant *param, gpointer data)
{
  TtvStatisticsViewer *self = data;
  g_autoptr (GError) error = NULL;

  if (!export_csv (self, g_variant_get_string (param, NULL), &error))
    report_error (self, error);
}

static void
act_export (GSimpleAction *action, GVariant *param, gpointer data)
{
  TtvStatisticsViewer *self = data;
  g_autoptr (GError) error = NULL;

  if (!export_image (self, g_variant_get_string (param, NULL), 0, 0, &error))
    report_error (self, error);
}

/* The Export… dialogs' writers: what the user chose, as the actions write it. */
static gboolean
save_csv (GtkWidget *view, const char *path, GError **error)
{
  return export_csv (TTV_STATISTICS_VIEWER (view), path, error);
}

static gboolean
save_image (GtkWidget *view, const char *path, GError **error)
{
  return export_image (TTV_STATISTICS_VIEWER (view), path, 0, 0, error);
}

static void
act_export_csv (GSimpleAction *action, GVariant *param, gpointer data)
{
  ttv_viewer_export_dialog (data, _("Export Statistics as CSV"), "statistics.csv", save_csv);
}

static void
act_export_dialog (GSimpleAction *action, GVariant *param, gpointer data)
{
  ttv_viewer_export_dialog (data, _("Export Statistics (.png or .svg)"), "statistics.png", save_image);
}

static void
act_copy (GSimpleAction *action, GVariant *param, gpointer data)
{
  copy_selected (data);
}

static void
act_expand_all (GSimpleAction *action, GVariant *param, gpointer data)
{
  gtk_tree_view_expand_all (TTV_STATISTICS_VIEWER (data)->view);
}

static void
act_collapse_all (GSimpleAction *action, GVariant *param, gpointer data)
{
  TtvStatisticsViewer *self = data;
  g_autoptr (GtkTreePath) root = gtk_tree_path_new_first ();

  /* Back to the groups: the root stays open. */
  gtk_tree_view_collapse_all (self->view);
  gtk_tree_view_expand_row (self->view, root, FALSE);
}

static gboolean
key_pressed (GtkWidget *widget, GdkEventKey *ev, TtvStatisticsViewer *self)
{
  if ((ev->state & GDK_CONTROL_MASK) && (ev->keyval == GDK_KEY_c || ev->keyval == GDK_KEY_C))
    {
      copy_selected (self);
      return GDK_EVENT_STOP;
    }
  return GDK_EVENT_PROPAGATE;
}

/* Right click: the menu, on the row under the pointer (added to a
 * selection it is not part of). */
static gboolean
button_pressed (GtkWidget *widget, GdkEventButton *ev, TtvStatisticsViewer *self)
{
  GtkTreeSelection *sel = gtk_tree_view_get_selection (self->view);
  g_autoptr (GtkTreePath) path = NULL;

  if (!gdk_event_triggers_context_menu ((GdkEvent *) ev))
    return GDK_EVENT_PROPAGATE;
  if (gtk_tree_view_get_path_at_pos (self->view, (gint) ev->x, (gint) ev->y, &path, NULL, NULL, NULL)
      && !gtk_tree_selection_path_is_selected (sel, path))
    {
      gtk_tree_selection_unselect_all (sel);
      gtk_tree_selection_select_path (sel, path);
    }
  gtk_menu_popup_at_pointer (GTK_MENU (self->menu), (GdkEvent *) ev);
  return GDK_EVENT_STOP;
}

/* --- Construction ---------------------------------------------------------- */

static void
ttv_statistics_viewer_dispose (GObject *object)
{
  TtvStatisticsViewer *self = TTV_STATISTICS_VIEWER (object);

  if (self->cancel)
    g_cancellable_cancel (self->cancel);
  g_clear_object (&self->cancel);
  if (self->state)
    for (guint i = 0; i < G_N_ELEMENTS (self->handlers); i++)
      g_clear_signal_handler (&self->handlers[i], self->state);
  g_clear_object (&self->state);
  g_clear_object (&self->store);
  g_clear_pointer (&self->shown, ttv_viewer_stats_node_unref);
  g_clear_pointer (&self->title, g_free);
  G_OBJECT_CLASS (ttv_statistics_viewer_parent_class)->dispose (object);
}

static void
ttv_statistics_viewer_class_init (TtvStatisticsViewerClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = ttv_statistics_viewer_dispose;
}

static void
ttv_statistics_viewer_init (TtvStatisticsViewer *self)
{
}

static GtkWidget *
make_menu (TtvStatisticsViewer *self)
{
  g_autoptr (GMenu) menu = g_menu_new ();
  g_autoptr (GMenu) tree = g_menu_new ();
  g_autoptr (GMenu) export = g_menu_new ();
  GtkWidget *widget;

  g_menu_append (menu, _("_Copy"), "statistics.copy");
  g_menu_append (tree, _("_Expand All"), "statistics.expand-all");
  g_menu_append (tree, _("C_ollapse All"), "statistics.collapse-all");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (tree));
  g_menu_append (export, _("Export as _CSV…"), "statistics.export-csv");
  g_menu_append (export, _("Export as _Image…"), "statistics.export-dialog");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (export));
  widget = gtk_menu_new_from_model (G_MENU_MODEL (menu));
  gtk_menu_attach_to_widget (GTK_MENU (widget), GTK_WIDGET (self->view), NULL);
  return widget;
}

static void
add_columns (TtvStatisticsViewer *self)
{
  g_autoptr (PangoAttrList) tabular = pango_attr_list_new ();

  /* Digits of equal width, so that numbers line up. */
  pango_attr_list_insert (tabular, pango_attr_font_features_new ("tnum=1"));
  for (gint i = 0; i < N_SHOWN; i++)
    {
      GtkCellRenderer *cell = gtk_cell_renderer_text_new ();
      GtkTreeViewColumn *col = gtk_tree_view_column_new ();

      gtk_tree_view_column_set_title (col, _(column_titles[i]));
      gtk_tree_view_column_pack_start (col, cell, TRUE);
      if (i == COL_NAME)
        {
          gtk_tree_view_column_add_attribute (col, cell, "text", COL_NAME);
          gtk_tree_view_column_set_expand (col, TRUE);
          g_object_set (cell, "ellipsize", PANGO_ELLIPSIZE_END, NULL);
          gtk_tree_view_column_set_min_width (col, 160);
        }
      else
        {
          g_object_set (cell, "xalign", 1.0, "attributes", tabular, NULL);
          gtk_tree_view_column_set_alignment (col, 1.0);
          gtk_tree_view_column_set_cell_data_func (col, cell, number_cell, GINT_TO_POINTER (i), NULL);
        }
      gtk_tree_view_column_set_sort_column_id (col, i);
      gtk_tree_view_column_set_resizable (col, TRUE);
      gtk_tree_view_append_column (self->view, col);
    }
}

static GtkWidget *
ttv_statistics_viewer_new (TtvTabState *state)
{
  static const GActionEntry actions[] = {
    { "export-csv", act_export_csv, NULL, NULL, NULL, { 0 } },
    { "export-csv-to", act_export_csv_to, "s", NULL, NULL, { 0 } },
    { "export", act_export, "s", NULL, NULL, { 0 } },
    { "export-dialog", act_export_dialog, NULL, NULL, NULL, { 0 } },
    { "copy", act_copy, NULL, NULL, NULL, { 0 } },
    { "expand-all", act_expand_all, NULL, NULL, NULL, { 0 } },
    { "collapse-all", act_collapse_all, NULL, NULL, NULL, { 0 } },
  };
  TtvStatisticsViewer *self = g_object_new (TTV_TYPE_STATISTICS_VIEWER,
                                            "orientation", GTK_ORIENTATION_VERTICAL, NULL);
  g_autoptr (GSimpleActionGroup) group = g_simple_action_group_new ();
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *button, *scrolled;

  self->state = g_object_ref (state);
  g_action_map_add_action_entries (G_ACTION_MAP (group), actions, G_N_ELEMENTS (actions), self);
  gtk_widget_insert_action_group (GTK_WIDGET (self), "statistics", G_ACTION_GROUP (group));

  gtk_container_set_border_width (GTK_CONTAINER (bar), 4);
  self->scope = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->scope, 0);
  gtk_label_set_ellipsize (self->scope, PANGO_ELLIPSIZE_END);
  gtk_box_pack_start (GTK_BOX (bar), GTK_WIDGET (self->scope), TRUE, TRUE, 0);
  self->spinner = GTK_SPINNER (gtk_spinner_new ());
  gtk_box_pack_start (GTK_BOX (bar), GTK_WIDGET (self->spinner), FALSE, FALSE, 0);
  button = gtk_button_new_with_mnemonic (_("E_xport CSV…"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "statistics.export-csv");
  gtk_widget_set_tooltip_text (button, _("Every row with exact numbers (seconds with nanoseconds)"));
  gtk_box_pack_start (GTK_BOX (bar), button, FALSE, FALSE, 0);
  button = gtk_button_new_with_mnemonic (_("Export _Image…"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "statistics.export-dialog");
  gtk_widget_set_tooltip_text (button, _("The rows shown, as a PNG or SVG table"));
  gtk_box_pack_start (GTK_BOX (bar), button, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (self), bar, FALSE, FALSE, 0);

  self->store = gtk_tree_store_new (N_COLS, G_TYPE_STRING, G_TYPE_UINT64, G_TYPE_INT64, G_TYPE_INT64,
                                    G_TYPE_INT64, G_TYPE_INT64, G_TYPE_STRING);
  gtk_tree_sortable_set_sort_func (GTK_TREE_SORTABLE (self->store), COL_NAME, compare_names, NULL, NULL);
  self->view = GTK_TREE_VIEW (gtk_tree_view_new_with_model (GTK_TREE_MODEL (self->store)));
  gtk_tree_selection_set_mode (gtk_tree_view_get_selection (self->view), GTK_SELECTION_MULTIPLE);
  gtk_tree_view_set_search_column (self->view, COL_NAME);
  add_columns (self);
  self->menu = make_menu (self);
  g_signal_connect (self->view, "key-press-event", G_CALLBACK (key_pressed), self);
  g_signal_connect (self->view, "button-press-event", G_CALLBACK (button_pressed), self);
  scrolled = gtk_scrolled_window_new (NULL, NULL);
  gtk_container_add (GTK_CONTAINER (scrolled), GTK_WIDGET (self->view));
  gtk_box_pack_start (GTK_BOX (self), scrolled, TRUE, TRUE, 0);

  self->handlers[0] = g_signal_connect_swapped (state, "state-ready", G_CALLBACK (refresh), self);
  self->handlers[1] = g_signal_connect_swapped (state, "selection-changed", G_CALLBACK (refresh), self);
  self->handlers[2] = g_signal_connect_swapped (state, "traceset-changed", G_CALLBACK (refresh), self);
  self->handlers[3] = g_signal_connect_swapped (state, "time-format-changed", G_CALLBACK (format_changed), self);
  refresh (self);
  gtk_widget_show_all (GTK_WIDGET (self));
  return GTK_WIDGET (self);
}

static const TtvViewerInfo info = {
  .name = "statistics",
  .title = N_("Statistics"),
  .icon_name = "x-office-spreadsheet-symbolic",
  .menu_label = N_("_Statistics"),
  .new_viewer = ttv_statistics_viewer_new,
  .render = render,
  .write_svg = write_svg,
  .translation_domain = GETTEXT_PACKAGE,
};

TTV_VIEWER_MODULE (statistics_init)

static void
statistics_init (void)
{
  ttv_viewer_register (&info);
}
