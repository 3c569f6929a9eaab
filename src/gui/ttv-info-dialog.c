/* ttv-info-dialog.c: the trace information dialog: a notebook of a
 * summary grid and tree views (system, tracefiles, event types), built
 * from the tab state's traces; the event counts come from the first read. */
#include "ttv-config.h"

#include "ttv-info-dialog.h"

#include "ttv-type.h"

#include <glib/gi18n.h>
#include <stdlib.h>
#include <string.h>

enum { SYS_KEY, SYS_VALUE, SYS_N };
enum { TF_TRACE, TF_NAME, TF_CPU, TF_SIZE, TF_BLOCKS, TF_FIRST, TF_LAST, TF_LOST, TF_N };
enum { TY_NAME, TY_EVENTS, TY_FIELDS, TY_DESCRIPTION, TY_COUNT, TY_N };

struct _TtvInfoDialog {
  GtkDialog parent_instance;

  TtvTabState *state;           /* owned reference */
  GtkWidget *notebook;
  GtkWidget *summary;           /* GtkGrid, rebuilt when counts arrive */
  GtkTreeStore *system;         /* owned */
  GtkListStore *tracefiles;     /* owned */
  GtkTreeStore *types;          /* owned: facility rows, event type rows under them */
  GtkTreeView *types_view;
};

G_DEFINE_FINAL_TYPE (TtvInfoDialog, ttv_info_dialog, GTK_TYPE_DIALOG)

static char *
dup_time (TtvTime t)
{
  return t == TTV_TIME_MAX || t == TTV_TIME_MIN ? g_strdup ("—") : ttv_time_dup_string (t);
}

static char *
dup_count (guint64 n)
{
  return g_strdup_printf ("%" G_GUINT64_FORMAT, n);
}

/* --- Summary ------------------------------------------------------------------ */

static void
add_summary_row (TtvInfoDialog *self, guint *row, const char *label, const char *value)
{
  /* Names from a trace (its path, its warnings' names) may hold any byte,
   * and GTK warns of such text on every draw. */
  g_autofree char *valid = g_utf8_make_valid (value, -1);
  GtkWidget *l = gtk_label_new (label), *v = gtk_label_new (valid);

  gtk_label_set_xalign (GTK_LABEL (l), 1.0);
  gtk_widget_set_valign (l, GTK_ALIGN_START);
  gtk_style_context_add_class (gtk_widget_get_style_context (l), "dim-label");
  gtk_label_set_xalign (GTK_LABEL (v), 0.0);
  gtk_label_set_selectable (GTK_LABEL (v), TRUE);
  gtk_label_set_line_wrap (GTK_LABEL (v), TRUE);
  gtk_widget_set_can_focus (v, FALSE);
  gtk_grid_attach (GTK_GRID (self->summary), l, 0, (gint) *row, 1, 1);
  gtk_grid_attach (GTK_GRID (self->summary), v, 1, (gint) *row, 1, 1);
  (*row)++;
}

static int
compare_ints (gconstpointer a, gconstpointer b)
{
  return *(const gint *) a - *(const gint *) b;
}

/* "4 (0, 1, 2, 4)": the CPUs that have a tracefile. */
static char *
dup_cpus (TtvTabState *state)
{
  g_autoptr (GArray) cpus = g_array_new (FALSE, FALSE, sizeof (gint));
  g_autoptr (GString) out = g_string_new (NULL);
  const char *declared = NULL;

  for (guint t = 0; t < ttv_tab_state_get_n_traces (state); t++)
    {
      TtvTrace *trace = ttv_traceset_get_trace (ttv_tab_state_get_traceset (state), t);
      for (guint i = 0; i < trace->tracefiles->len; i++)
        {
          const TtvTracefile *tf = trace->tracefiles->pdata[i];
          gboolean seen = FALSE;
          for (guint j = 0; j < cpus->len; j++)
            seen |= g_array_index (cpus, gint, j) == tf->cpu;
          if (tf->cpu >= 0 && !seen)
            g_array_append_val (cpus, tf->cpu);
        }
      if (!declared)
        declared = ttv_trace_get_info (trace, "cpu");
    }
  g_array_sort (cpus, compare_ints);
  g_string_printf (out, "%u", cpus->len);
  for (guint j = 0; j < cpus->len; j++)
    g_string_append_printf (out, "%s%d", j ? ", " : " (", g_array_index (cpus, gint, j));
  if (cpus->len)
    g_string_append_c (out, ')');
  if (declared && g_strcmp0 (declared, out->str) != 0 && atoi (declared) != (int) cpus->len)
    g_string_append_printf (out, _(" — the system description says %s"), declared);
  return g_string_free (g_steal_pointer (&out), FALSE);
}

static void
fill_summary (TtvInfoDialog *self)
{
  guint row = 0, n_traces = ttv_tab_state_get_n_traces (self->state), n_types = 0, n_files = 0;
  guint64 lost = 0, lost_packets = 0;
  TtvTime start, end;
  gboolean complete;
  guint64 n_events = ttv_tab_state_get_event_count (self->state, &complete);
  g_autoptr (GList) children = gtk_container_get_children (GTK_CONTAINER (self->summary));

  for (GList *l = children; l; l = l->next)
    gtk_widget_destroy (l->data);
  for (guint t = 0; t < n_traces; t++)
    {
      TtvTrace *trace = ttv_traceset_get_trace (ttv_tab_state_get_traceset (self->state), t);
      /* The format's description is marked N_() in its table. */
      g_autofree char *what = g_strdup_printf ("%s\n%s", trace->display_path,
                                               _(trace->format->description));
      add_summary_row (self, &row, _("Trace"), what);
      n_types += trace->event_types->len;
      n_files += trace->tracefiles->len;
      for (guint i = 0; i < trace->tracefiles->len; i++)
        {
          const TtvTracefile *tf = trace->tracefiles->pdata[i];
          for (guint j = 0; tf->lost && j < tf->lost->len; j++)
            {
              lost += g_array_index (tf->lost, TtvLostRange, j).count;
              lost_packets += g_array_index (tf->lost, TtvLostRange, j).packets;
            }
        }
    }
  ttv_tab_state_get_time_span (self->state, &start, &end);
  {
    g_autofree char *s = dup_time (start), *e = dup_time (end);
    g_autofree char *d = end >= start ? ttv_time_dup_string (end - start) : g_strdup ("—");
    g_autofree char *duration = g_strdup_printf (_("%s s"), d);
    g_autofree char *cpus = dup_cpus (self->state);
    g_autofree char *files = dup_count (n_files), *types = dup_count (n_types);
    g_autofree char *events = complete ? dup_count (n_events) : g_strdup (_("still counting…"));

    add_summary_row (self, &row, _("Start"), s);
    add_summary_row (self, &row, _("End"), e);
    add_summary_row (self, &row, _("Duration"), duration);
    add_summary_row (self, &row, _("CPUs"), cpus);
    add_summary_row (self, &row, _("Tracefiles"), files);
    add_summary_row (self, &row, _("Event types"), types);
    add_summary_row (self, &row, _("Events"), events);
  }
  if (lost)
    {
      g_autofree char *n = dup_count (lost);
      add_summary_row (self, &row, _("Events lost by the tracer"), n);
    }
  if (lost_packets)
    {
      g_autofree char *n = dup_count (lost_packets);
      add_summary_row (self, &row, _("Packets lost by the tracer"), n);
    }
  for (guint t = 0; t < n_traces; t++)
    {
      TtvTrace *trace = ttv_traceset_get_trace (ttv_tab_state_get_traceset (self->state), t);
      if (trace->flags & TTV_TRACE_FLAG_BEGINNING_MISSING)
        add_summary_row (self, &row, _("Warning"),
                         _("the beginning of this trace is missing (flight recorder mode)"));
      for (guint i = 0; i < trace->warnings->len; i++)
        add_summary_row (self, &row, _("Warning"), trace->warnings->pdata[i]);
    }
  gtk_widget_show_all (self->summary);
}

/* --- System and tracefiles ------------------------------------------------------ */

static void
fill_system (TtvInfoDialog *self)
{
  guint n_traces = ttv_tab_state_get_n_traces (self->state);

  for (guint t = 0; t < n_traces; t++)
    {
      TtvTrace *trace = ttv_traceset_get_trace (ttv_tab_state_get_traceset (self->state), t);
      GtkTreeIter parent, iter;

      /* One group per trace when there are several. */
      if (n_traces > 1)
        gtk_tree_store_insert_with_values (self->system, &parent, NULL, -1,
                                           SYS_KEY, trace->name, SYS_VALUE, trace->display_path, -1);
      for (guint i = 0; i < trace->info_keys->len; i++)
        {
          const char *key = trace->info_keys->pdata[i];
          gtk_tree_store_insert_with_values (self->system, &iter, n_traces > 1 ? &parent : NULL, -1,
                                             SYS_KEY, key, SYS_VALUE, ttv_trace_get_info (trace, key),
                                             -1);
        }
    }
}

static void
fill_tracefiles (TtvInfoDialog *self)
{
  for (guint t = 0; t < ttv_tab_state_get_n_traces (self->state); t++)
    {
      TtvTrace *trace = ttv_traceset_get_trace (ttv_tab_state_get_traceset (self->state), t);
      for (guint i = 0; i < trace->tracefiles->len; i++)
        {
          const TtvTracefile *tf = trace->tracefiles->pdata[i];
          g_autofree char *cpu = tf->cpu >= 0 ? g_strdup_printf ("%d", tf->cpu) : g_strdup ("—");
          g_autofree char *first = dup_time (tf->start), *last = dup_time (tf->end);
          guint64 lost = 0;
          GtkTreeIter iter;

          for (guint j = 0; tf->lost && j < tf->lost->len; j++)
            lost += g_array_index (tf->lost, TtvLostRange, j).count;
          gtk_list_store_insert_with_values (self->tracefiles, &iter, -1, TF_TRACE, trace->name,
                                             TF_NAME, tf->name, TF_CPU, cpu, TF_SIZE, tf->size,
                                             TF_BLOCKS, tf->n_blocks, TF_FIRST, first,
                                             TF_LAST, last, TF_LOST, lost, -1);
        }
    }
}

/* --- Event types ----------------------------------------------------------------- */

static const char *
facility_of (const TtvEventType *et)
{
  return et->facility && *et->facility ? et->facility : _("(no facility)");
}

static void
fill_types (TtvInfoDialog *self)
{
  g_autoptr (GHashTable) groups = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint t = 0; t < ttv_tab_state_get_n_traces (self->state); t++)
    {
      TtvTrace *trace = ttv_traceset_get_trace (ttv_tab_state_get_traceset (self->state), t);
      for (guint i = 0; i < trace->event_types->len; i++)
        {
          const TtvEventType *et = trace->event_types->pdata[i];
          const char *name = et->full_name ? et->full_name : et->name;
          g_autofree char *sig = ttv_type_dup_signature (et->fields);
          g_autofree char *description = g_strdup (et->description ? et->description : "");
          GtkTreeIter *group, iter;

          /* Traces of one traceset often share types: one row per name. */
          if (g_hash_table_contains (seen, name))
            continue;
          g_hash_table_add (seen, (gpointer) name);
          group = g_hash_table_lookup (groups, facility_of (et));
          if (!group)
            {
              group = g_new0 (GtkTreeIter, 1);
              gtk_tree_store_insert_with_values (self->types, group, NULL, -1,
                                                 TY_NAME, facility_of (et), -1);
              g_hash_table_insert (groups, g_strdup (facility_of (et)), group);
            }
          g_strstrip (g_strdelimit (description, "\n\t", ' '));
          gtk_tree_store_insert_with_values (self->types, &iter, group, -1, TY_NAME, name,
                                             TY_FIELDS, sig, TY_DESCRIPTION, description, -1);
        }
    }
}

/* Events per type (and per facility) from the first read's density. */
static void
fill_type_counts (TtvInfoDialog *self)
{
  GtkTreeModel *model = GTK_TREE_MODEL (self->types);
  gboolean complete;
  GtkTreeIter group, iter;

  ttv_tab_state_get_event_count (self->state, &complete);
  if (!gtk_tree_model_get_iter_first (model, &group))
    return;
  do
    {
      guint64 group_total = 0;

      if (gtk_tree_model_iter_children (model, &iter, &group))
        do
          {
            g_autofree char *name = NULL, *text = NULL;
            g_autoptr (GArray) bins = NULL;
            guint64 n = 0;

            gtk_tree_model_get (model, &iter, TY_NAME, &name, -1);
            bins = complete ? ttv_tab_state_dup_density (self->state, name) : NULL;
            for (guint b = 0; bins && b < bins->len; b++)
              n += g_array_index (bins, guint32, b);
            group_total += n;
            text = complete ? dup_count (n) : g_strdup (_("counting…"));
            gtk_tree_store_set (self->types, &iter, TY_EVENTS, text, TY_COUNT, n, -1);
          }
        while (gtk_tree_model_iter_next (model, &iter));
      {
        g_autofree char *text = complete ? dup_count (group_total) : g_strdup (_("counting…"));
        gtk_tree_store_set (self->types, &group, TY_EVENTS, text, TY_COUNT, group_total, -1);
      }
    }
  while (gtk_tree_model_iter_next (model, &group));
}

static void
density_ready (TtvInfoDialog *self)
{
  fill_summary (self);
  fill_type_counts (self);
}

/* --- Copying -------------------------------------------------------------------- */

static void
append_row (GString *out, GtkTreeModel *model, GtkTreeIter *iter, const gint *columns,
            guint n_columns, guint depth)
{
  for (guint d = 0; d < depth; d++)
    g_string_append (out, "  ");
  for (guint c = 0; c < n_columns; c++)
    {
      GValue v = G_VALUE_INIT;
      GValue s = G_VALUE_INIT;

      gtk_tree_model_get_value (model, iter, columns[c], &v);
      g_value_init (&s, G_TYPE_STRING);
      g_value_transform (&v, &s);
      if (c)
        g_string_append_c (out, '\t');
      g_string_append (out, g_value_get_string (&s) ? g_value_get_string (&s) : "");
      g_value_unset (&v);
      g_value_unset (&s);
    }
  g_string_append_c (out, '\n');
}

static void
append_tree (GString *out, GtkTreeModel *model, GtkTreeIter *parent, const gint *columns,
             guint n_columns, guint depth)
{
  GtkTreeIter iter;

  if (!gtk_tree_model_iter_children (model, &iter, parent))
    return;
  do
    {
      append_row (out, model, &iter, columns, n_columns, depth);
      append_tree (out, model, &iter, columns, n_columns, depth + 1);
    }
  while (gtk_tree_model_iter_next (model, &iter));
}

char *
ttv_info_dialog_dup_text (TtvInfoDialog *self)
{
  static const gint sys_cols[] = { SYS_KEY, SYS_VALUE };
  static const gint tf_cols[] = { TF_TRACE, TF_NAME, TF_CPU, TF_SIZE, TF_BLOCKS, TF_FIRST, TF_LAST, TF_LOST };
  static const gint ty_cols[] = { TY_NAME, TY_EVENTS, TY_DESCRIPTION, TY_FIELDS };
  GString *out = g_string_new (NULL);

  g_return_val_if_fail (TTV_IS_INFO_DIALOG (self), NULL);
  /* The summary grid in reading order: label, value. */
  for (gint row = 0;; row++)
    {
      GtkWidget *l = gtk_grid_get_child_at (GTK_GRID (self->summary), 0, row);
      GtkWidget *v = gtk_grid_get_child_at (GTK_GRID (self->summary), 1, row);
      g_autofree char *value = NULL;

      if (!l || !v)
        break;
      value = g_strdup (gtk_label_get_text (GTK_LABEL (v)));
      g_string_append_printf (out, "%s: %s\n", gtk_label_get_text (GTK_LABEL (l)),
                              g_strdelimit (value, "\n", ' '));
    }
  g_string_append_printf (out, "\n%s\n", _("System"));
  append_tree (out, GTK_TREE_MODEL (self->system), NULL, sys_cols, G_N_ELEMENTS (sys_cols), 1);
  g_string_append_printf (out, "\n%s\n", _("Tracefiles"));
  append_tree (out, GTK_TREE_MODEL (self->tracefiles), NULL, tf_cols, G_N_ELEMENTS (tf_cols), 1);
  g_string_append_printf (out, "\n%s\n", _("Event types"));
  append_tree (out, GTK_TREE_MODEL (self->types), NULL, ty_cols, G_N_ELEMENTS (ty_cols), 1);
  return g_string_free (out, FALSE);
}

static void
copy_all (TtvInfoDialog *self)
{
  g_autofree char *text = ttv_info_dialog_dup_text (self);

  gtk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self), GDK_SELECTION_CLIPBOARD),
                          text, -1);
}

/* Ctrl+C in a tree view: the selected rows, tab-separated. */
static gboolean
tree_key_press (GtkWidget *view, GdkEventKey *event, gpointer data)
{
  GtkTreeSelection *selection;
  GtkTreeModel *model;
  g_autoptr (GString) out = NULL;
  GList *rows;
  gint n_columns;
  g_autofree gint *columns = NULL;

  if (!(event->state & GDK_CONTROL_MASK) || (event->keyval != GDK_KEY_c && event->keyval != GDK_KEY_C))
    return GDK_EVENT_PROPAGATE;
  selection = gtk_tree_view_get_selection (GTK_TREE_VIEW (view));
  rows = gtk_tree_selection_get_selected_rows (selection, &model);
  n_columns = gtk_tree_model_get_n_columns (model);
  columns = g_new (gint, n_columns);
  for (gint c = 0; c < n_columns; c++)
    columns[c] = c;
  if (model == GTK_TREE_MODEL (TTV_INFO_DIALOG (data)->types))
    n_columns = TY_COUNT;       /* the hidden sort column stays out */
  out = g_string_new (NULL);
  for (GList *l = rows; l; l = l->next)
    {
      GtkTreeIter iter;
      if (gtk_tree_model_get_iter (model, &iter, l->data))
        append_row (out, model, &iter, columns, n_columns, 0);
    }
  g_list_free_full (rows, (GDestroyNotify) gtk_tree_path_free);
  gtk_clipboard_set_text (gtk_widget_get_clipboard (view, GDK_SELECTION_CLIPBOARD), out->str, -1);
  return GDK_EVENT_STOP;
}

/* --- Construction ------------------------------------------------------------------ */

/* A text column's cell: its string made valid UTF-8 (the model keeps
 * the trace's bytes, which the counts and copies use: event type and
 * tracefile names, the values of its description may hold any byte). */
static void
set_valid_text (GtkTreeViewColumn *col, GtkCellRenderer *cell, GtkTreeModel *model, GtkTreeIter *iter,
                gpointer column)
{
  g_autofree char *text = NULL, *valid = NULL;

  gtk_tree_model_get (model, iter, GPOINTER_TO_INT (column), &text, -1);
  valid = text ? g_utf8_make_valid (text, -1) : NULL;
  g_object_set (cell, "text", valid, NULL);
}

static GtkTreeView *
add_tree_page (TtvInfoDialog *self, GtkTreeModel *model, const char *title, const char *name,
               const char *const *headings, const gint *columns, guint n_columns)
{
  GtkWidget *scrolled = gtk_scrolled_window_new (NULL, NULL);
  GtkWidget *view = gtk_tree_view_new_with_model (model);

  gtk_widget_set_name (view, name);
  for (guint i = 0; i < n_columns; i++)
    {
      GtkCellRenderer *cell = gtk_cell_renderer_text_new ();
      GtkTreeViewColumn *col = gtk_tree_view_column_new ();
      gtk_tree_view_column_set_title (col, _(headings[i]));
      gtk_tree_view_column_pack_start (col, cell, TRUE);
      gtk_tree_view_column_set_resizable (col, TRUE);
      gtk_tree_view_column_set_sort_column_id (col, columns[i]);
      if (g_type_is_a (gtk_tree_model_get_column_type (model, columns[i]), G_TYPE_STRING))
        gtk_tree_view_column_set_cell_data_func (col, cell, set_valid_text, GINT_TO_POINTER (columns[i]), NULL);
      else
        gtk_tree_view_column_add_attribute (col, cell, "text", columns[i]);
      if (g_type_is_a (gtk_tree_model_get_column_type (model, columns[i]), G_TYPE_UINT64))
        g_object_set (cell, "xalign", 1.0, NULL);
      gtk_tree_view_append_column (GTK_TREE_VIEW (view), col);
    }
  gtk_tree_selection_set_mode (gtk_tree_view_get_selection (GTK_TREE_VIEW (view)),
                               GTK_SELECTION_MULTIPLE);
  gtk_tree_view_set_enable_search (GTK_TREE_VIEW (view), TRUE);
  gtk_widget_set_tooltip_text (view, _("Ctrl+C copies the selected rows"));
  g_signal_connect (view, "key-press-event", G_CALLBACK (tree_key_press), self);
  gtk_container_add (GTK_CONTAINER (scrolled), view);
  gtk_notebook_append_page (GTK_NOTEBOOK (self->notebook), scrolled, gtk_label_new (title));
  return GTK_TREE_VIEW (view);
}

static void
build_pages (TtvInfoDialog *self)
{
  static const char *const sys_headings[] = { N_("Key"), N_("Value") };
  static const gint sys_cols[] = { SYS_KEY, SYS_VALUE };
  static const char *const tf_headings[] = {
    N_("Trace"), N_("Tracefile"), N_("CPU"), N_("Bytes"), N_("Blocks"), N_("First event"),
    N_("Last event"), N_("Lost events"),
  };
  static const gint tf_cols[] = { TF_TRACE, TF_NAME, TF_CPU, TF_SIZE, TF_BLOCKS, TF_FIRST, TF_LAST, TF_LOST };
  static const char *const ty_headings[] = { N_("Event type"), N_("Events"), N_("Description"), N_("Fields") };
  static const gint ty_cols[] = { TY_NAME, TY_EVENTS, TY_DESCRIPTION, TY_FIELDS };
  GtkWidget *scrolled = gtk_scrolled_window_new (NULL, NULL);
  GtkTreeViewColumn *events_col;
  GtkTreeView *system_view;

  self->summary = gtk_grid_new ();
  gtk_widget_set_name (self->summary, "info-summary");
  g_object_set (self->summary, "margin", 12, "row-spacing", 6, "column-spacing", 12, NULL);
  gtk_container_add (GTK_CONTAINER (scrolled), self->summary);
  gtk_notebook_append_page (GTK_NOTEBOOK (self->notebook), scrolled,
                            gtk_label_new (_("Summary")));
  system_view = add_tree_page (self, GTK_TREE_MODEL (self->system),
                               ttv_tab_state_get_n_traces (self->state) == 1
                               && ttv_trace_get_info (ttv_traceset_get_trace (ttv_tab_state_get_traceset (self->state), 0), "tracer_name")
                               ? _("Environment") : _("System"),
                               "info-system", sys_headings, sys_cols, G_N_ELEMENTS (sys_cols));
  gtk_tree_view_expand_all (system_view);
  add_tree_page (self, GTK_TREE_MODEL (self->tracefiles), _("Tracefiles"), "info-tracefiles",
                 tf_headings, tf_cols, G_N_ELEMENTS (tf_cols));
  self->types_view = add_tree_page (self, GTK_TREE_MODEL (self->types), _("Event Types"),
                                    "info-types", ty_headings, ty_cols, G_N_ELEMENTS (ty_cols));
  /* Events sort by number, not by their text. */
  events_col = gtk_tree_view_get_column (self->types_view, 1);
  gtk_tree_view_column_set_sort_column_id (events_col, TY_COUNT);
  gtk_tree_view_set_search_column (self->types_view, TY_NAME);
  gtk_tree_view_set_tooltip_column (self->types_view, TY_DESCRIPTION);
  gtk_tree_view_expand_all (self->types_view);
}

static void
ttv_info_dialog_response (GtkDialog *dialog, gint response)
{
  if (response == TTV_INFO_DIALOG_RESPONSE_COPY)
    copy_all (TTV_INFO_DIALOG (dialog));
  else
    gtk_widget_destroy (GTK_WIDGET (dialog));
}

static void
ttv_info_dialog_dispose (GObject *object)
{
  TtvInfoDialog *self = TTV_INFO_DIALOG (object);

  if (self->state)
    g_signal_handlers_disconnect_by_data (self->state, self);
  g_clear_object (&self->state);
  g_clear_object (&self->system);
  g_clear_object (&self->tracefiles);
  g_clear_object (&self->types);
  G_OBJECT_CLASS (ttv_info_dialog_parent_class)->dispose (object);
}

static void
ttv_info_dialog_class_init (TtvInfoDialogClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = ttv_info_dialog_dispose;
  GTK_DIALOG_CLASS (klass)->response = ttv_info_dialog_response;
}

static void
ttv_info_dialog_init (TtvInfoDialog *self)
{
  self->system = gtk_tree_store_new (SYS_N, G_TYPE_STRING, G_TYPE_STRING);
  self->tracefiles = gtk_list_store_new (TF_N, G_TYPE_STRING, G_TYPE_STRING, G_TYPE_STRING,
                                         G_TYPE_UINT64, G_TYPE_UINT64, G_TYPE_STRING,
                                         G_TYPE_STRING, G_TYPE_UINT64);
  self->types = gtk_tree_store_new (TY_N, G_TYPE_STRING, G_TYPE_STRING, G_TYPE_STRING,
                                    G_TYPE_STRING, G_TYPE_UINT64);
  self->notebook = gtk_notebook_new ();
  gtk_widget_set_name (self->notebook, "info-notebook");
}

GtkWidget *
ttv_info_dialog_new (GtkWindow *parent, TtvTabState *state)
{
  TtvInfoDialog *self = g_object_new (TTV_TYPE_INFO_DIALOG, "transient-for", parent,
                                      "destroy-with-parent", TRUE,
                                      "title", _("Trace Information"),
                                      "use-header-bar", FALSE, NULL);

  self->state = g_object_ref (state);
  gtk_dialog_add_button (GTK_DIALOG (self), _("Copy _All"), TTV_INFO_DIALOG_RESPONSE_COPY);
  gtk_dialog_add_button (GTK_DIALOG (self), _("_Close"), GTK_RESPONSE_CLOSE);
  gtk_window_set_default_size (GTK_WINDOW (self), 860, 600);
  gtk_box_pack_start (GTK_BOX (gtk_dialog_get_content_area (GTK_DIALOG (self))), self->notebook,
                      TRUE, TRUE, 0);
  build_pages (self);
  fill_system (self);
  fill_tracefiles (self);
  fill_types (self);
  gtk_tree_view_expand_all (self->types_view);
  density_ready (self);
  g_signal_connect_swapped (state, "density-ready", G_CALLBACK (density_ready), self);
  gtk_widget_show_all (self->notebook);
  return GTK_WIDGET (self);
}
