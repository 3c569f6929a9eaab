/* ttv-event-details.c: the event details pane: the events at the current
 * time (the event list's selected row), or the next ones after it, each
 * with its trace and CPU, every payload field, its contexts and the process
 * running on its CPU once it is applied; Ctrl+C or Copy put it on the
 * clipboard as text. */
#include "ttv-event-details.h"

#include <glib/gi18n-lib.h>

/* At most this many events of one time are shown (a burst at one tick). */
#define MAX_EVENTS 32

enum { COL_NAME, COL_VALUE, N_COLS };

/* One row of the tree, made while the events are delivered (they are
 * valid only then) and shown when the request ends. */
typedef struct {
  guint depth;
  char *name;
  char *value;   /* may be NULL: a group */
} Row;

typedef struct {
  TtvTabState *state;   /* borrowed: the request belongs to it */
  GPtrArray *rows;      /* of Row * */
  TtvTime time;         /* of the events kept */
  guint n_events;
} Pending;

struct _TtvEventDetails {
  GtkBox parent_instance;

  TtvTabState *state;          /* owned */
  GtkWidget *header;
  GtkWidget *view;
  GtkTreeStore *store;
  gulong handlers[4];
};

G_DEFINE_FINAL_TYPE (TtvEventDetails, ttv_event_details, GTK_TYPE_BOX)

static void
row_free (gpointer data)
{
  Row *row = data;

  g_free (row->name);
  g_free (row->value);
  g_free (row);
}

/* A row of @name and @value (taken, may be NULL), made valid UTF-8 for
 * GTK's cells: a trace's names and strings may hold other bytes. */
static void
add_row (Pending *p, guint depth, const char *name, char *value /* taken */)
{
  Row *row = g_new0 (Row, 1);

  row->depth = depth;
  row->name = g_utf8_make_valid (name, -1);
  row->value = value ? g_utf8_make_valid (value, -1) : NULL;
  g_free (value);
  g_ptr_array_add (p->rows, row);
}

static void
pending_free (gpointer data)
{
  Pending *p = data;

  g_ptr_array_unref (p->rows);
  g_free (p);
}

static void
add_context (Pending *p, const TtvViewerEvent *event, TtvViewerEventContext which, const char *title)
{
  g_auto (GStrv) members = ttv_viewer_event_dup_context (event, which);

  if (!members || !members[0])
    return;
  add_row (p, 1, title, NULL);
  for (guint i = 0; members[i] && members[i + 1]; i += 2)
    add_row (p, 2, members[i], g_strdup (members[i + 1]));
}

static void
add_process (Pending *p, TtvEventRequest *request, gint cpu)
{
  TtvViewerProcessInfo info;

  if (!ttv_event_request_get_process (request, &info) || info.pid == TTV_VIEWER_PID_NONE)
    return;
  add_row (p, 1, _("Process"), NULL);
  add_row (p, 2, _("Name"), g_strdup (info.name[0] ? info.name : _("(unnamed)")));
  add_row (p, 2, _("Thread ID"), g_strdup_printf ("%u", info.pid));
  add_row (p, 2, _("Process ID"), g_strdup_printf ("%u", info.tgid));
  add_row (p, 2, _("Mode"), g_strdup (info.mode));
  if (info.syscall)
    add_row (p, 2, _("System call"), g_strdup (info.syscall));
  if (cpu >= 0)
    {
      add_row (p, 1, _("CPU state"), NULL);
      add_row (p, 2, _("CPU"), g_strdup_printf ("%d", cpu));
      add_row (p, 2, _("Running"), info.pid == 0 ? g_strdup (_("idle"))
                                   : g_strdup_printf ("%s (%u)", info.name, info.pid));
      add_row (p, 2, _("Mode"), g_strdup (info.mode));
    }
}

/* What the tracer says of the event's type (LTTng-UST tracepoints): its
 * log level and EMF URI, when it says them. */
static void
add_type_attributes (Pending *p, const TtvViewerTrace *trace, guint type)
{
  char *level = ttv_viewer_trace_dup_event_type_log_level (trace, type);
  const char *uri = ttv_viewer_trace_get_event_type_emf_uri (trace, type);

  if (level)
    add_row (p, 1, _("Log level"), level);
  if (uri)
    add_row (p, 1, _("EMF URI"), g_strdup (uri));
}

static gboolean
on_event (TtvEventRequest *request, const TtvViewerEvent *event, gpointer data)
{
  Pending *p = data;
  TtvTime time = ttv_viewer_event_get_time (event);
  const TtvViewerTrace *trace = ttv_viewer_event_get_trace (event);
  g_auto (GStrv) fields = NULL;
  gint cpu = ttv_viewer_event_get_cpu (event);
  guint type = ttv_viewer_event_get_type_index (event);

  if (p->n_events > 0 && time != p->time)
    return FALSE;   /* the events of one time only */
  if (p->n_events++ == MAX_EVENTS)
    return FALSE;
  p->time = time;
  add_row (p, 0, ttv_viewer_event_get_name (event), ttv_tab_state_format_time (p->state, time));
  add_row (p, 1, _("Trace"), g_strdup (ttv_viewer_trace_get_name (trace)));
  add_row (p, 1, _("CPU"), cpu >= 0 ? g_strdup_printf ("%d", cpu) : g_strdup ("—"));
  add_type_attributes (p, trace, type);
  fields = ttv_viewer_trace_dup_event_type_fields (trace, type);
  add_row (p, 1, _("Fields"), fields[0] ? NULL : g_strdup (_("(none)")));
  for (guint i = 0; fields[i]; i++)
    {
      char *text = ttv_viewer_event_dup_field_text (event, fields[i]);
      add_row (p, 2, fields[i], text ? text : g_strdup ("?"));
    }
  add_context (p, event, TTV_VIEWER_CONTEXT_STREAM_EVENT, _("Stream event context"));
  add_context (p, event, TTV_VIEWER_CONTEXT_EVENT, _("Event context"));
  add_context (p, event, TTV_VIEWER_CONTEXT_PACKET, _("Packet context"));
  add_process (p, request, cpu);
  return TRUE;
}

static void
show_rows (TtvEventDetails *self, GPtrArray *rows)
{
  GtkTreeIter parents[3];

  gtk_tree_store_clear (self->store);
  for (guint i = 0; i < rows->len; i++)
    {
      Row *row = rows->pdata[i];
      GtkTreeIter it;
      gtk_tree_store_insert_with_values (self->store, &it, row->depth ? &parents[row->depth - 1] : NULL, -1,
                                         COL_NAME, row->name, COL_VALUE, row->value, -1);
      if (row->depth < G_N_ELEMENTS (parents))
        parents[row->depth] = it;
    }
  gtk_tree_view_expand_all (GTK_TREE_VIEW (self->view));
}

static void
on_done (TtvEventRequest *request, TtvRequestStatus status, const GError *error, gpointer data)
{
  Pending *p = data;
  TtvEventDetails *self;
  g_autofree char *now = NULL, *at = NULL, *header = NULL;

  /* Cancelled: replaced by a newer request, or the pane is going away. */
  if (status == TTV_REQUEST_CANCELLED)
    return;
  self = g_object_get_data (G_OBJECT (p->state), "ttv-event-details-pending") == p
         ? g_object_get_data (G_OBJECT (p->state), "ttv-event-details") : NULL;
  if (!self)
    return;
  now = ttv_tab_state_format_time (self->state, ttv_tab_state_get_current_time (self->state));
  if (status == TTV_REQUEST_FAILED)
    header = g_strdup_printf (_("The events could not be read: %s"), error ? error->message : "");
  else if (p->n_events == 0)
    header = g_strdup_printf (_("No event at or after %s"), now);
  else if (p->time == ttv_tab_state_get_current_time (self->state))
    header = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u event at %s", "%u events at %s",
                                           MIN (p->n_events, MAX_EVENTS)), MIN (p->n_events, MAX_EVENTS), now);
  else
    {
      at = ttv_tab_state_format_time (self->state, p->time);
      header = g_strdup_printf (_("No event at %s; the next one, at %s:"), now, at);
    }
  gtk_label_set_text (GTK_LABEL (self->header), header);
  show_rows (self, p->rows);
}

/* The events at the current time (or the first ones after it). */
static void
refresh (TtvEventDetails *self)
{
  TtvTime start, end;
  Pending *p = g_new0 (Pending, 1);

  p->state = self->state;
  p->rows = g_ptr_array_new_with_free_func (row_free);
  ttv_tab_state_get_time_span (self->state, &start, &end);
  /* The done callback finds the pane through the state (and only for the
   * latest request): it never dereferences a pane that went away. */
  g_object_set_data (G_OBJECT (self->state), "ttv-event-details-pending", p);
  ttv_tab_state_request_time_range (self->state, self, ttv_tab_state_get_current_time (self->state), end,
                                    MAX_EVENTS + 1, TTV_REQUEST_REPLACE | TTV_REQUEST_WITH_STATE,
                                    on_event, on_done, p, pending_free);
}

/* --- Copy ---------------------------------------------------------------------- */

static void
append_rows (GtkTreeModel *model, GtkTreeIter *it, guint depth, GString *out)
{
  do
    {
      g_autofree char *name = NULL, *value = NULL;
      GtkTreeIter child;
      gtk_tree_model_get (model, it, COL_NAME, &name, COL_VALUE, &value, -1);
      for (guint i = 0; i < depth; i++)
        g_string_append (out, "  ");
      g_string_append (out, name);
      if (value)
        g_string_append_printf (out, " = %s", value);
      g_string_append_c (out, '\n');
      if (gtk_tree_model_iter_children (model, &child, it))
        append_rows (model, &child, depth + 1, out);
    }
  while (depth > 0 && gtk_tree_model_iter_next (model, it));
}

char *
ttv_event_details_dup_text (TtvEventDetails *self)
{
  GtkTreeModel *model = GTK_TREE_MODEL (self->store);
  GString *out = g_string_new (gtk_label_get_text (GTK_LABEL (self->header)));
  GtkTreeIter it;

  g_string_append_c (out, '\n');
  if (gtk_tree_selection_get_selected (gtk_tree_view_get_selection (GTK_TREE_VIEW (self->view)), NULL, &it))
    {
      g_string_truncate (out, 0);
      append_rows (model, &it, 0, out);
    }
  else if (gtk_tree_model_get_iter_first (model, &it))
    do
      append_rows (model, &it, 0, out);
    while (gtk_tree_model_iter_next (model, &it));
  return g_string_free (out, FALSE);
}

static void
copy_activated (GSimpleAction *action, GVariant *parameter, gpointer data)
{
  g_autofree char *text = ttv_event_details_dup_text (data);

  gtk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (data), GDK_SELECTION_CLIPBOARD), text, -1);
}

static gboolean
key_pressed (GtkWidget *view, GdkEventKey *event, TtvEventDetails *self)
{
  if ((event->state & GDK_CONTROL_MASK) && (event->keyval == GDK_KEY_c || event->keyval == GDK_KEY_C
                                            || event->keyval == GDK_KEY_Insert))
    {
      copy_activated (NULL, NULL, self);
      return TRUE;
    }
  return FALSE;
}

/* --- Construction ------------------------------------------------------------------ */

static void
ttv_event_details_dispose (GObject *object)
{
  TtvEventDetails *self = TTV_EVENT_DETAILS (object);

  if (self->state)
    {
      if (g_object_get_data (G_OBJECT (self->state), "ttv-event-details") == self)
        g_object_set_data (G_OBJECT (self->state), "ttv-event-details", NULL);
      ttv_tab_state_cancel_requests (self->state, self);
      for (guint i = 0; i < G_N_ELEMENTS (self->handlers); i++)
        g_clear_signal_handler (&self->handlers[i], self->state);
    }
  g_clear_object (&self->state);
  g_clear_object (&self->store);
  G_OBJECT_CLASS (ttv_event_details_parent_class)->dispose (object);
}

static void
ttv_event_details_class_init (TtvEventDetailsClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = ttv_event_details_dispose;
}

static void
ttv_event_details_init (TtvEventDetails *self)
{
}

static GtkWidget *
make_view (TtvEventDetails *self)
{
  GtkWidget *scrolled = gtk_scrolled_window_new (NULL, NULL);
  GtkCellRenderer *cell;
  GtkTreeViewColumn *column;

  self->store = gtk_tree_store_new (N_COLS, G_TYPE_STRING, G_TYPE_STRING);
  self->view = gtk_tree_view_new_with_model (GTK_TREE_MODEL (self->store));
  gtk_widget_set_name (self->view, "event-details");
  cell = gtk_cell_renderer_text_new ();
  column = gtk_tree_view_column_new_with_attributes (_("Field"), cell, "text", COL_NAME, NULL);
  gtk_tree_view_column_set_resizable (column, TRUE);
  gtk_tree_view_append_column (GTK_TREE_VIEW (self->view), column);
  cell = gtk_cell_renderer_text_new ();
  column = gtk_tree_view_column_new_with_attributes (_("Value"), cell, "text", COL_VALUE, NULL);
  gtk_tree_view_column_set_resizable (column, TRUE);
  gtk_tree_view_append_column (GTK_TREE_VIEW (self->view), column);
  gtk_tree_view_set_tooltip_column (GTK_TREE_VIEW (self->view), COL_VALUE);
  g_signal_connect (self->view, "key-press-event", G_CALLBACK (key_pressed), self);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_AUTOMATIC, GTK_POLICY_AUTOMATIC);
  gtk_container_add (GTK_CONTAINER (scrolled), self->view);
  gtk_widget_set_vexpand (scrolled, TRUE);
  return scrolled;
}

GtkWidget *
ttv_event_details_new (TtvTabState *state)
{
  TtvEventDetails *self = g_object_new (TTV_TYPE_EVENT_DETAILS, "orientation", GTK_ORIENTATION_VERTICAL,
                                        "spacing", 4, NULL);
  static const GActionEntry entries[] = { { "copy", copy_activated, NULL, NULL, NULL, { 0 } } };
  g_autoptr (GSimpleActionGroup) actions = g_simple_action_group_new ();
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6), *copy;

  self->state = g_object_ref (state);
  g_object_set_data (G_OBJECT (state), "ttv-event-details", self);
  g_action_map_add_action_entries (G_ACTION_MAP (actions), entries, G_N_ELEMENTS (entries), self);
  gtk_widget_insert_action_group (GTK_WIDGET (self), "details", G_ACTION_GROUP (actions));
  self->header = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->header), 0);
  gtk_label_set_ellipsize (GTK_LABEL (self->header), PANGO_ELLIPSIZE_END);
  gtk_label_set_selectable (GTK_LABEL (self->header), TRUE);
  gtk_widget_set_hexpand (self->header, TRUE);
  gtk_widget_set_name (self->header, "event-details-header");
  copy = gtk_button_new_with_mnemonic (_("_Copy"));
  gtk_widget_set_tooltip_text (copy, _("Copy the selected row, or every row, as text (Ctrl+C)"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (copy), "details.copy");
  gtk_box_pack_start (GTK_BOX (bar), self->header, TRUE, TRUE, 0);
  gtk_box_pack_end (GTK_BOX (bar), copy, FALSE, FALSE, 0);
  gtk_container_set_border_width (GTK_CONTAINER (bar), 4);
  gtk_box_pack_start (GTK_BOX (self), bar, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (self), make_view (self), TRUE, TRUE, 0);
  gtk_widget_set_size_request (GTK_WIDGET (self), 220, -1);
  self->handlers[0] = g_signal_connect_swapped (state, "current-time-changed", G_CALLBACK (refresh), self);
  self->handlers[1] = g_signal_connect_swapped (state, "traceset-changed", G_CALLBACK (refresh), self);
  self->handlers[2] = g_signal_connect_swapped (state, "state-ready", G_CALLBACK (refresh), self);
  self->handlers[3] = g_signal_connect_swapped (state, "time-format-changed", G_CALLBACK (refresh), self);
  refresh (self);
  gtk_widget_show_all (GTK_WIDGET (self));
  return GTK_WIDGET (self);
}
