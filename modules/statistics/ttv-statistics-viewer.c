/* ttv-statistics-viewer.c: the statistics viewer module: a sortable tree of
 * the tab's statistics (whole traceset, or the selected interval computed
 * in a worker thread), copy with Ctrl+C, export as CSV (stats.* actions). */
#include "ttv-viewer.h"

#include <glib/gi18n-lib.h>
#include <string.h>

enum { COL_NAME, COL_COUNT, COL_TOTAL, COL_MIN, COL_MAX, COL_KEY, N_COLS };

#define TTV_TYPE_STATISTICS_VIEWER (ttv_statistics_viewer_get_type ())
G_DECLARE_FINAL_TYPE (TtvStatisticsViewer, ttv_statistics_viewer, TTV, STATISTICS_VIEWER, GtkBox)

struct _TtvStatisticsViewer {
  GtkBox parent_instance;

  TtvTabState *state;          /* owned reference */
  gulong handlers[3];
  GtkTreeView *view;
  GtkTreeStore *store;         /* owned */
  GtkLabel *scope;
  GtkSpinner *spinner;
  GCancellable *cancel;        /* owned: the interval job, NULL when none */
  TtvViewerStatsNode *shown;   /* owned reference: what the store holds */
};

G_DEFINE_FINAL_TYPE (TtvStatisticsViewer, ttv_statistics_viewer, GTK_TYPE_BOX)

static void
fill (GtkTreeStore *store, GtkTreeIter *parent, const TtvViewerStatsNode *node)
{
  GtkTreeIter iter;

  gtk_tree_store_insert_with_values (store, &iter, parent, -1, COL_NAME, node->name,
                                     COL_COUNT, node->count, COL_TOTAL, node->total,
                                     COL_MIN, node->min, COL_MAX, node->max, COL_KEY, node->key, -1);
  for (guint i = 0; i < node->children->len; i++)
    fill (store, &iter, node->children->pdata[i]);
}

static void
show_tree (TtvStatisticsViewer *self, TtvViewerStatsNode *root)
{
  g_clear_pointer (&self->shown, ttv_viewer_stats_node_unref);
  gtk_tree_store_clear (self->store);
  if (!root)
    return;
  self->shown = ttv_viewer_stats_node_ref (root);
  fill (self->store, NULL, root);
  {
    g_autoptr (GtkTreePath) top = gtk_tree_path_new_first ();
    gtk_tree_view_expand_row (self->view, top, FALSE);
  }
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
refresh (TtvStatisticsViewer *self)
{
  TtvTime start, end;

  if (self->cancel)
    g_cancellable_cancel (self->cancel);
  g_clear_object (&self->cancel);
  gtk_spinner_stop (self->spinner);
  if (!ttv_tab_state_is_state_ready (self->state))
    {
      show_tree (self, NULL);
      gtk_label_set_text (self->scope, _("Statistics: waiting for the background pass…"));
      return;
    }
  if (ttv_tab_state_get_selection (self->state, &start, &end) && end > start)
    {
      g_autofree char *a = ttv_viewer_time_to_string (start);
      g_autofree char *b = ttv_viewer_time_to_string (end);
      g_autofree char *msg = g_strdup_printf (_("Statistics of the selection %s – %s"), a, b);

      gtk_label_set_text (self->scope, msg);
      self->cancel = g_cancellable_new ();
      gtk_spinner_start (self->spinner);
      ttv_tab_state_compute_statistics_async (self->state, start, end, self->cancel,
                                              interval_done, g_object_ref (self));
      return;
    }
  gtk_label_set_text (self->scope, _("Statistics of the whole traceset"));
  show_tree (self, ttv_tab_state_get_statistics (self->state));
}

/* --- Formatting ------------------------------------------------------------ */

static char *
format_ns (gint64 ns)
{
  return ns < 0 ? g_strdup ("") : ttv_viewer_time_to_string (ns);
}

static void
number_cell (GtkTreeViewColumn *col, GtkCellRenderer *cell, GtkTreeModel *model, GtkTreeIter *iter,
             gpointer data)
{
  gint column = GPOINTER_TO_INT (data);
  g_autofree char *text = NULL;

  if (column == COL_COUNT)
    {
      guint64 n;

      gtk_tree_model_get (model, iter, COL_COUNT, &n, -1);
      text = n ? g_strdup_printf ("%" G_GUINT64_FORMAT, n) : g_strdup ("");
    }
  else
    {
      gint64 ns;

      gtk_tree_model_get (model, iter, column, &ns, -1);
      text = format_ns (ns);
    }
  g_object_set (cell, "text", text, NULL);
}

/* One row as fields: name, count, total, min, max (empty when n/a). */
static GStrv
row_fields (GtkTreeModel *model, GtkTreeIter *iter, gboolean with_key)
{
  g_autofree char *name = NULL, *key = NULL;
  guint64 count;
  gint64 total, min, max;
  GStrv out = g_new0 (char *, 7);
  guint n = 0;

  gtk_tree_model_get (model, iter, COL_NAME, &name, COL_COUNT, &count, COL_TOTAL, &total,
                      COL_MIN, &min, COL_MAX, &max, COL_KEY, &key, -1);
  if (with_key)
    out[n++] = g_strdup (key ? key : "");
  out[n++] = g_strdup (name ? name : "");
  out[n++] = g_strdup_printf ("%" G_GUINT64_FORMAT, count);
  out[n++] = format_ns (total);
  out[n++] = format_ns (min);
  out[n++] = format_ns (max);
  return out;
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

      if (gtk_tree_model_get_iter (model, &iter, l->data))
        {
          g_auto (GStrv) f = row_fields (model, &iter, FALSE);
          g_autofree char *line = g_strjoinv ("\t", f);

          g_string_append_printf (text, "%s\n", line);
        }
    }
  g_list_free_full (rows, (GDestroyNotify) gtk_tree_path_free);
  gtk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self->view), GDK_SELECTION_CLIPBOARD),
                          text->str, (gint) text->len);
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

/* --- CSV export ------------------------------------------------------------ */

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

static void
csv_rows (GString *out, GtkTreeModel *model, GtkTreeIter *parent)
{
  GtkTreeIter iter;

  if (!gtk_tree_model_iter_children (model, &iter, parent))
    return;
  do
    {
      g_auto (GStrv) f = row_fields (model, &iter, TRUE);

      for (guint i = 0; f[i]; i++)
        {
          if (i)
            g_string_append_c (out, ',');
          csv_field (out, f[i]);
        }
      g_string_append_c (out, '\n');
      csv_rows (out, model, &iter);
    }
  while (gtk_tree_model_iter_next (model, &iter));
}

static gboolean
export_csv (TtvStatisticsViewer *self, const char *path, GError **error)
{
  g_autoptr (GString) out = g_string_new ("key,name,count,total_s,min_s,max_s\n");

  csv_rows (out, GTK_TREE_MODEL (self->store), NULL);
  return g_file_set_contents (path, out->str, (gssize) out->len, error);
}

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
chooser_response (GtkNativeDialog *dialog, gint response, TtvStatisticsViewer *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autofree char *path = gtk_file_chooser_get_filename (GTK_FILE_CHOOSER (dialog));
      g_autoptr (GError) error = NULL;

      if (path && !export_csv (self, path, &error))
        report_error (self, error);
    }
  g_object_unref (dialog);
  g_object_unref (self);
}

static void
act_export_csv (GSimpleAction *action, GVariant *param, gpointer data)
{
  TtvStatisticsViewer *self = data;
  GtkWidget *top = gtk_widget_get_toplevel (GTK_WIDGET (self));
  GtkFileChooserNative *chooser =
    gtk_file_chooser_native_new (_("Export Statistics as CSV"),
                                 GTK_IS_WINDOW (top) ? GTK_WINDOW (top) : NULL,
                                 GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"), _("_Cancel"));

  gtk_file_chooser_set_do_overwrite_confirmation (GTK_FILE_CHOOSER (chooser), TRUE);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), "statistics.csv");
  g_signal_connect (chooser, "response", G_CALLBACK (chooser_response), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
act_copy (GSimpleAction *action, GVariant *param, gpointer data)
{
  copy_selected (data);
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
ttv_statistics_viewer_new (TtvTabState *state)
{
  static const GActionEntry actions[] = {
    { "export-csv", act_export_csv, NULL, NULL, NULL, { 0 } },
    { "export-csv-to", act_export_csv_to, "s", NULL, NULL, { 0 } },
    { "copy", act_copy, NULL, NULL, NULL, { 0 } },
  };
  static const char *const titles[] = {
    N_("Name"), N_("Count"), N_("Total (s)"), N_("Min (s)"), N_("Max (s)"),
  };
  TtvStatisticsViewer *self = g_object_new (TTV_TYPE_STATISTICS_VIEWER,
                                            "orientation", GTK_ORIENTATION_VERTICAL, NULL);
  g_autoptr (GSimpleActionGroup) group = g_simple_action_group_new ();
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *button, *scrolled;

  self->state = g_object_ref (state);
  g_action_map_add_action_entries (G_ACTION_MAP (group), actions, G_N_ELEMENTS (actions), self);
  gtk_widget_insert_action_group (GTK_WIDGET (self), "stats", G_ACTION_GROUP (group));

  gtk_container_set_border_width (GTK_CONTAINER (bar), 4);
  self->scope = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->scope, 0);
  gtk_box_pack_start (GTK_BOX (bar), GTK_WIDGET (self->scope), TRUE, TRUE, 0);
  self->spinner = GTK_SPINNER (gtk_spinner_new ());
  gtk_box_pack_start (GTK_BOX (bar), GTK_WIDGET (self->spinner), FALSE, FALSE, 0);
  button = gtk_button_new_with_mnemonic (_("E_xport CSV…"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "stats.export-csv");
  gtk_box_pack_start (GTK_BOX (bar), button, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (self), bar, FALSE, FALSE, 0);

  self->store = gtk_tree_store_new (N_COLS, G_TYPE_STRING, G_TYPE_UINT64, G_TYPE_INT64,
                                    G_TYPE_INT64, G_TYPE_INT64, G_TYPE_STRING);
  self->view = GTK_TREE_VIEW (gtk_tree_view_new_with_model (GTK_TREE_MODEL (self->store)));
  gtk_tree_selection_set_mode (gtk_tree_view_get_selection (self->view), GTK_SELECTION_MULTIPLE);
  for (gint i = 0; i < COL_KEY; i++)
    {
      GtkCellRenderer *cell = gtk_cell_renderer_text_new ();
      GtkTreeViewColumn *col = gtk_tree_view_column_new ();

      gtk_tree_view_column_set_title (col, _(titles[i]));
      gtk_tree_view_column_pack_start (col, cell, TRUE);
      if (i == COL_NAME)
        gtk_tree_view_column_add_attribute (col, cell, "text", COL_NAME);
      else
        {
          g_object_set (cell, "xalign", 1.0, "family", "Monospace", NULL);
          gtk_tree_view_column_set_cell_data_func (col, cell, number_cell, GINT_TO_POINTER (i), NULL);
        }
      gtk_tree_view_column_set_sort_column_id (col, i);
      gtk_tree_view_column_set_resizable (col, TRUE);
      if (i == COL_NAME)
        gtk_tree_view_column_set_expand (col, TRUE);
      gtk_tree_view_append_column (self->view, col);
    }
  g_signal_connect (self->view, "key-press-event", G_CALLBACK (key_pressed), self);
  scrolled = gtk_scrolled_window_new (NULL, NULL);
  gtk_container_add (GTK_CONTAINER (scrolled), GTK_WIDGET (self->view));
  gtk_box_pack_start (GTK_BOX (self), scrolled, TRUE, TRUE, 0);

  self->handlers[0] = g_signal_connect_swapped (state, "statistics-changed", G_CALLBACK (refresh), self);
  self->handlers[1] = g_signal_connect_swapped (state, "selection-changed", G_CALLBACK (refresh), self);
  self->handlers[2] = g_signal_connect_swapped (state, "traceset-changed", G_CALLBACK (refresh), self);
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
};

TTV_VIEWER_MODULE (statistics_init)

static void
statistics_init (void)
{
  TtvViewerInfo copy = info;

  copy.title = g_dgettext (GETTEXT_PACKAGE, info.title);
  copy.menu_label = g_dgettext (GETTEXT_PACKAGE, info.menu_label);
  ttv_viewer_register (&copy);
}
