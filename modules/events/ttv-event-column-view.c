/* ttv-event-column-view.c: the event list's tree view columns.  Widths come
 * from what the traceset shows (its trace, CPU and event names, the time
 * format) unless the user resized a column; Fields takes the room left.
 * A menu (header right-click, Shift+F10, the Columns button) shows and
 * hides columns and picks the time format; the settings keep the choices
 * and every open list follows them.  The events of the tab's selected
 * thread are drawn in bold. */
#include "ttv-event-column-view.h"

#include <glib/gi18n-lib.h>

/* The narrowest Fields column: it takes whatever room is left beyond. */
#define FIELDS_MIN_WIDTH 150
/* Room around a cell's text (cell padding, column separator). */
#define CELL_PADDING 12
/* Room around a header title (button padding and border). */
#define TITLE_PADDING 20
/* Content wider than this is ellipsized rather than widening its column. */
#define NAME_MAX_WIDTH 300

struct _TtvEventColumnView {
  GtkWidget *owner;                          /* weak: holds the actions */
  GtkTreeView *view;                         /* weak */
  TtvTabState *state;                        /* owned reference */
  GSettings *settings;                       /* owned, NULL without the schema */
  GtkTreeViewColumn *columns[TTV_EVENT_N_COLUMNS];   /* weak: the view's */
  gint content[TTV_EVENT_N_COLUMNS];         /* the width from the content */
  gint applied[TTV_EVENT_N_COLUMNS];         /* the width last set, or seen */
  gint available;                            /* the view's width, 0: not known yet */
  gint pending[TTV_EVENT_N_COLUMNS];         /* resized by the user, to save; 0: none */
  guint save_id;
  GSimpleActionGroup *actions;               /* owned: column-NAME, time-format */
  GMenuModel *model;                         /* owned */
  GtkWidget *menu;                           /* owned */
  gulong settings_ids[2];
  gulong thread_id;                          /* "selected-thread-changed" */
  gint machine_column;                       /* the model's: each row's machine */
};

static gboolean
is_monospace (TtvEventColumn c)
{
  /* Digits line up from row to row. */
  return c == TTV_EVENT_COLUMN_TIME || c == TTV_EVENT_COLUMN_DELTA || c == TTV_EVENT_COLUMN_CPU
         || c == TTV_EVENT_COLUMN_PID;
}

/* --- Widths from the content ------------------------------------------------ */

/* The pixel width of @text in the font of column @c. */
static gint
text_width (TtvEventColumnView *self, TtvEventColumn c, const char *text)
{
  /* Names from the trace (event types) may hold bytes that are not UTF-8. */
  g_autofree char *valid = g_utf8_make_valid (text, -1);
  g_autoptr (PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (self->view), valid);
  gint width;

  if (is_monospace (c))
    {
      PangoFontDescription *font = pango_font_description_copy (
        pango_context_get_font_description (gtk_widget_get_pango_context (GTK_WIDGET (self->view))));

      pango_font_description_set_family (font, "Monospace");
      pango_layout_set_font_description (layout, font);
      pango_font_description_free (font);
    }
  pango_layout_get_pixel_size (layout, &width, NULL);
  return width;
}

/* What column @c may show that is the widest: real names of the traceset,
 * or typical values where they are not known beforehand. */
static GPtrArray *
width_samples (TtvEventColumnView *self, TtvEventColumn c)
{
  GPtrArray *samples = g_ptr_array_new_with_free_func (g_free);
  guint n_traces = ttv_tab_state_get_n_traces (self->state);
  TtvTime start, end;

  switch (c)
    {
    case TTV_EVENT_COLUMN_TIME:
      ttv_tab_state_get_time_span (self->state, &start, &end);
      g_ptr_array_add (samples, ttv_tab_state_format_time (self->state, start));
      g_ptr_array_add (samples, ttv_tab_state_format_time (self->state, end));
      break;
    case TTV_EVENT_COLUMN_DELTA:
      g_ptr_array_add (samples, g_strdup ("00.000000000"));
      break;
    case TTV_EVENT_COLUMN_PID:
      g_ptr_array_add (samples, g_strdup ("4194304"));   /* the largest pid_max */
      break;
    case TTV_EVENT_COLUMN_PROCESS:
      g_ptr_array_add (samples, g_strdup ("kworker/u16:3-e"));   /* 15 characters, as comm */
      break;
    case TTV_EVENT_COLUMN_MODE:
      g_ptr_array_add (samples, g_strdup ("syscall rt_sigprocmask"));
      break;
    case TTV_EVENT_COLUMN_SYMBOL:
      g_ptr_array_add (samples, g_strdup ("parse_request+0x1c4 (server.c:1234)"));
      break;
    case TTV_EVENT_COLUMN_TRACE:
    case TTV_EVENT_COLUMN_CPU:
    case TTV_EVENT_COLUMN_EVENT:
      for (guint t = 0; t < n_traces; t++)
        {
          const TtvViewerTrace *trace = ttv_tab_state_get_trace (self->state, t);

          if (c == TTV_EVENT_COLUMN_TRACE)
            g_ptr_array_add (samples, g_strdup (ttv_viewer_trace_get_name (trace)));
          for (guint f = 0; c == TTV_EVENT_COLUMN_CPU && f < ttv_viewer_trace_get_n_streams (trace); f++)
            g_ptr_array_add (samples, ttv_event_columns_dup_cpu (trace, f));
          for (guint e = 0; c == TTV_EVENT_COLUMN_EVENT && e < ttv_viewer_trace_get_n_event_types (trace); e++)
            {
              const char *name = ttv_viewer_trace_get_event_type_name (trace, e);

              if (name)
                g_ptr_array_add (samples, g_strdup (name));
            }
        }
      break;
    case TTV_EVENT_COLUMN_FIELDS:
    default:
      break;
    }
  return samples;
}

static gint
content_width (TtvEventColumnView *self, TtvEventColumn c)
{
  g_autoptr (GPtrArray) samples = width_samples (self, c);
  gint widest = 0;

  if (c == TTV_EVENT_COLUMN_FIELDS)
    return FIELDS_MIN_WIDTH;
  for (guint i = 0; i < samples->len; i++)
    widest = MAX (widest, MIN (text_width (self, c, samples->pdata[i]), NAME_MAX_WIDTH));
  return MAX (widest + CELL_PADDING,
              text_width (self, TTV_EVENT_COLUMN_EVENT, ttv_event_column_get_title (c)) + TITLE_PADDING);
}

/* --- What the user chose -------------------------------------------------------- */

static guint
n_visible (TtvEventColumnView *self)
{
  guint n = 0;

  for (guint c = 0; c < TTV_EVENT_N_COLUMNS; c++)
    n += gtk_tree_view_column_get_visible (self->columns[c]);
  return n;
}

static void
apply_visibility (TtvEventColumnView *self)
{
  for (guint c = 0; c < TTV_EVENT_N_COLUMNS; c++)
    {
      gboolean visible = ttv_event_columns_get_visible (self->settings, c, self->state);
      g_autofree char *name = g_strdup_printf ("column-%s", ttv_event_column_get_name (c));

      gtk_tree_view_column_set_visible (self->columns[c], visible);
      g_action_group_change_action_state (G_ACTION_GROUP (self->actions), name,
                                          g_variant_new_boolean (visible));
    }
  /* Every column hidden (edited settings): the time at least. */
  if (n_visible (self) == 0)
    gtk_tree_view_column_set_visible (self->columns[TTV_EVENT_COLUMN_TIME], TRUE);
}

/* Columns that may be narrower than their content (their text
 * ellipsizes), the first to give up room first, and what they should still
 * show when they can: a usual value. */
static const struct {
  TtvEventColumn column;
  const char *usual;
} shrinkable[] = {
  { TTV_EVENT_COLUMN_SYMBOL, "main+0x26" }, { TTV_EVENT_COLUMN_MODE, "syscall read" },
  { TTV_EVENT_COLUMN_PROCESS, "ksoftirqd/1" },
  { TTV_EVENT_COLUMN_TRACE, "kernel-trace" }, { TTV_EVENT_COLUMN_EVENT, "syscall_entry_read" },
};

/* The user's widths, else from the content; when the view is too narrow
 * for all of them and Fields, the names give up room (down to their
 * title, the mode first, the event name last) so that Fields stays in
 * sight. */
static void
apply_widths (TtvEventColumnView *self)
{
  gint width[TTV_EVENT_N_COLUMNS];
  gint need = FIELDS_MIN_WIDTH;

  for (guint c = 0; c < TTV_EVENT_N_COLUMNS; c++)
    {
      gint user = ttv_event_columns_get_width (self->settings, c);

      width[c] = user > 0 && c != TTV_EVENT_COLUMN_FIELDS ? user : self->content[c];
      if (gtk_tree_view_column_get_visible (self->columns[c]) && c != TTV_EVENT_COLUMN_FIELDS)
        need += width[c];
    }
  /* Down to a usual value first, then down to the title. */
  for (guint pass = 0; pass < 2; pass++)
    for (guint i = 0; i < G_N_ELEMENTS (shrinkable) && self->available > 0 && need > self->available; i++)
      {
        TtvEventColumn c = shrinkable[i].column;
        gint least = pass == 0 ? text_width (self, c, shrinkable[i].usual) + CELL_PADDING
                               : text_width (self, c, ttv_event_column_get_title (c)) + TITLE_PADDING;
        gint give = MIN (need - self->available, width[c] - least);

        if (give <= 0 || ttv_event_columns_get_width (self->settings, c) > 0
            || !gtk_tree_view_column_get_visible (self->columns[c]))
          continue;
        width[c] -= give;
        need -= give;
      }
  for (guint c = 0; c < TTV_EVENT_N_COLUMNS; c++)
    {
      self->applied[c] = width[c];
      gtk_tree_view_column_set_fixed_width (self->columns[c], width[c]);
    }
}

void
ttv_event_column_view_update (TtvEventColumnView *self)
{
  for (guint c = 0; c < TTV_EVENT_N_COLUMNS; c++)
    self->content[c] = content_width (self, c);
  apply_visibility (self);
  apply_widths (self);
}

void
ttv_event_column_view_fit (TtvEventColumnView *self, gint available)
{
  if (available == self->available || available <= 1)
    return;
  self->available = available;
  apply_widths (self);
}

static gboolean
save_widths (gpointer data)
{
  TtvEventColumnView *self = data;

  self->save_id = 0;
  for (guint c = 0; c < TTV_EVENT_N_COLUMNS; c++)
    if (self->pending[c] > 0)
      {
        ttv_event_columns_set_width (self->settings, c, self->pending[c]);
        self->pending[c] = 0;
      }
  return G_SOURCE_REMOVE;
}

/* A column changed width without us: the user dragged its edge. */
static void
width_changed (GtkTreeViewColumn *column, GParamSpec *pspec, TtvEventColumnView *self)
{
  TtvEventColumn c = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (column), "ttv-column"));
  gint width = gtk_tree_view_column_get_width (column);

  /* Fields takes what is left: its width says nothing the user chose. */
  if (c == TTV_EVENT_COLUMN_FIELDS || width <= 0 || width == self->applied[c]
      || !gtk_tree_view_column_get_visible (column) || !self->settings)
    return;
  self->applied[c] = width;
  self->pending[c] = width;
  /* Dragging sends many widths: save the last. */
  if (!self->save_id)
    self->save_id = g_timeout_add (300, save_widths, self);
}

/* "evlist.column-NAME" toggled from a menu. */
static void
column_state_changed (GSimpleAction *action, GVariant *value, TtvEventColumnView *self)
{
  TtvEventColumn c = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (action), "ttv-column"));
  gboolean visible = g_variant_get_boolean (value);

  /* The list never loses its last column. */
  if (!visible && gtk_tree_view_column_get_visible (self->columns[c]) && n_visible (self) <= 1)
    return;
  g_simple_action_set_state (action, value);
  if (gtk_tree_view_column_get_visible (self->columns[c]) == visible)
    return;
  gtk_tree_view_column_set_visible (self->columns[c], visible);
  ttv_event_columns_set_visible (self->settings, c, visible);
  apply_widths (self);
}

static void
settings_changed (GSettings *settings, const char *key, TtvEventColumnView *self)
{
  /* Another list (or the user's dconf edit) changed them. */
  if (g_str_equal (key, "event-list-columns"))
    apply_visibility (self);
  apply_widths (self);
}

/* --- The menu ---------------------------------------------------------------------- */

static void
build_menu (TtvEventColumnView *self)
{
  g_autoptr (GMenu) menu = g_menu_new ();
  g_autoptr (GMenu) columns = g_menu_new ();
  g_autoptr (GAction) time_format = ttv_viewer_time_format_action_new ();

  self->actions = g_simple_action_group_new ();
  for (guint c = 0; c < TTV_EVENT_N_COLUMNS; c++)
    {
      g_autofree char *name = g_strdup_printf ("column-%s", ttv_event_column_get_name (c));
      g_autofree char *detailed = g_strdup_printf ("evlist.%s", name);
      GSimpleAction *action = g_simple_action_new_stateful (name, NULL, g_variant_new_boolean (TRUE));

      g_object_set_data (G_OBJECT (action), "ttv-column", GUINT_TO_POINTER (c));
      g_signal_connect (action, "change-state", G_CALLBACK (column_state_changed), self);
      g_action_map_add_action (G_ACTION_MAP (self->actions), G_ACTION (action));
      g_object_unref (action);
      g_menu_append (columns, ttv_event_column_get_title (c), detailed);
    }
  g_menu_append_section (menu, _("Columns"), G_MENU_MODEL (columns));
  if (time_format)
    {
      g_autoptr (GMenuModel) formats = ttv_viewer_time_format_menu_new ("evlist");

      g_action_map_add_action (G_ACTION_MAP (self->actions), time_format);
      g_menu_append_section (menu, _("Times"), formats);
    }
  gtk_widget_insert_action_group (self->owner, "evlist", G_ACTION_GROUP (self->actions));
  self->model = G_MENU_MODEL (g_steal_pointer (&menu));
  self->menu = g_object_ref_sink (gtk_menu_new_from_model (self->model));
  gtk_widget_set_name (self->menu, "event-list-menu");
  gtk_menu_attach_to_widget (GTK_MENU (self->menu), self->owner, NULL);
}

void
ttv_event_column_view_popup (TtvEventColumnView *self, const GdkEvent *event)
{
  if (event)
    gtk_menu_popup_at_pointer (GTK_MENU (self->menu), event);
  else
    gtk_menu_popup_at_widget (GTK_MENU (self->menu), GTK_WIDGET (self->view), GDK_GRAVITY_NORTH_WEST,
                              GDK_GRAVITY_NORTH_WEST, NULL);
}

static gboolean
header_pressed (GtkWidget *button, GdkEventButton *ev, TtvEventColumnView *self)
{
  if (!gdk_event_triggers_context_menu ((GdkEvent *) ev))
    return GDK_EVENT_PROPAGATE;
  ttv_event_column_view_popup (self, (GdkEvent *) ev);
  return GDK_EVENT_STOP;
}

GtkWidget *
ttv_event_column_view_new_button (TtvEventColumnView *self)
{
  GtkWidget *button = gtk_menu_button_new ();

  gtk_widget_set_name (button, "columns-button");
  gtk_button_set_image (GTK_BUTTON (button), gtk_image_new_from_icon_name ("view-more-symbolic",
                                                                          GTK_ICON_SIZE_MENU));
  gtk_button_set_relief (GTK_BUTTON (button), GTK_RELIEF_NONE);
  gtk_widget_set_tooltip_text (button, _("Columns and time format (also: right-click a column header)"));
  gtk_menu_button_set_menu_model (GTK_MENU_BUTTON (button), self->model);
  return button;
}

/* --- Construction ---------------------------------------------------------------- */

/* The events of the tab's selected thread (picked or followed in the
 * control flow, a latency view...) in bold: its story stands out in the
 * list without hiding the rest (the filter does that). */
static void
thread_weight (GtkTreeViewColumn *column, GtkCellRenderer *cell, GtkTreeModel *model, GtkTreeIter *iter,
               gpointer data)
{
  TtvEventColumnView *self = data;
  guint32 tid = ttv_tab_state_get_selected_thread (self->state);
  g_autofree char *pid = NULL;
  guint machine = 0;
  gboolean bold = FALSE;

  if (tid != TTV_VIEWER_PID_NONE && tid != 0)
    {
      gtk_tree_model_get (model, iter, TTV_EVENT_COLUMN_PID, &pid, self->machine_column, &machine, -1);
      bold = pid && g_ascii_strtoull (pid, NULL, 10) == tid && *pid
             && machine == ttv_tab_state_get_selected_machine (self->state);
    }
  g_object_set (cell, "weight", bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL, NULL);
}

static void
selected_thread_changed (TtvEventColumnView *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self->view));
}

static GtkTreeViewColumn *
new_column (TtvEventColumnView *self, TtvEventColumn c, gint style_column)
{
  GtkTreeViewColumn *column = gtk_tree_view_column_new ();
  GtkCellRenderer *cell = gtk_cell_renderer_text_new ();

  gtk_tree_view_column_set_title (column, ttv_event_column_get_title (c));
  gtk_tree_view_column_pack_start (column, cell, TRUE);
  gtk_tree_view_column_set_attributes (column, cell, "text", c, "style", style_column,
                                       "foreground", style_column + 1, NULL);
  gtk_tree_view_column_set_cell_data_func (column, cell, thread_weight, self, NULL);
  if (is_monospace (c))
    g_object_set (cell, "family", "Monospace", NULL);
  else
    g_object_set (cell, "ellipsize", PANGO_ELLIPSIZE_END, NULL);
  gtk_tree_view_column_set_resizable (column, TRUE);
  gtk_tree_view_column_set_sizing (column, GTK_TREE_VIEW_COLUMN_FIXED);
  gtk_tree_view_column_set_expand (column, c == TTV_EVENT_COLUMN_FIELDS);
  /* Clickable: the header is a button, which gets the right-click. */
  gtk_tree_view_column_set_clickable (column, TRUE);
  g_object_set_data (G_OBJECT (column), "ttv-column", GUINT_TO_POINTER (c));
  return column;
}

TtvEventColumnView *
ttv_event_column_view_new (GtkWidget *owner, GtkTreeView *view, TtvTabState *state, gint style_column)
{
  TtvEventColumnView *self = g_new0 (TtvEventColumnView, 1);

  self->owner = owner;
  self->view = view;
  self->state = g_object_ref (state);
  self->machine_column = style_column + 2;
  self->settings = ttv_event_columns_new_settings ();
  build_menu (self);
  for (guint c = 0; c < TTV_EVENT_N_COLUMNS; c++)
    {
      self->columns[c] = new_column (self, c, style_column);
      gtk_tree_view_append_column (view, self->columns[c]);
      g_signal_connect (gtk_tree_view_column_get_button (self->columns[c]), "button-press-event",
                        G_CALLBACK (header_pressed), self);
      g_signal_connect (self->columns[c], "notify::width", G_CALLBACK (width_changed), self);
    }
  if (self->settings)
    {
      self->settings_ids[0] = g_signal_connect (self->settings, "changed::event-list-columns",
                                                G_CALLBACK (settings_changed), self);
      self->settings_ids[1] = g_signal_connect (self->settings, "changed::event-list-column-widths",
                                                G_CALLBACK (settings_changed), self);
    }
  self->thread_id = g_signal_connect_swapped (state, "selected-thread-changed",
                                              G_CALLBACK (selected_thread_changed), self);
  ttv_event_column_view_update (self);
  return self;
}

void
ttv_event_column_view_free (TtvEventColumnView *self)
{
  if (!self)
    return;
  if (self->save_id)
    {
      g_source_remove (self->save_id);
      save_widths (self);
    }
  for (guint c = 0; c < TTV_EVENT_N_COLUMNS; c++)
    {
      g_signal_handlers_disconnect_by_data (self->columns[c], self);
      g_signal_handlers_disconnect_by_data (gtk_tree_view_column_get_button (self->columns[c]), self);
    }
  for (guint i = 0; i < G_N_ELEMENTS (self->settings_ids); i++)
    if (self->settings_ids[i])
      g_signal_handler_disconnect (self->settings, self->settings_ids[i]);
  g_clear_signal_handler (&self->thread_id, self->state);
  for (guint c = 0; c < TTV_EVENT_N_COLUMNS; c++)
    {
      g_autofree char *name = g_strdup_printf ("column-%s", ttv_event_column_get_name (c));
      GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self->actions), name);

      g_signal_handlers_disconnect_by_data (action, self);
    }
  gtk_widget_destroy (self->menu);
  g_object_unref (self->menu);
  g_object_unref (self->model);
  g_object_unref (self->actions);
  g_clear_object (&self->settings);
  g_object_unref (self->state);
  g_free (self);
}

guint
ttv_event_column_view_get_visible (TtvEventColumnView *self)
{
  guint set = 0;

  for (guint c = 0; c < TTV_EVENT_N_COLUMNS; c++)
    if (gtk_tree_view_column_get_visible (self->columns[c]))
      set |= TTV_EVENT_COLUMN_BIT (c);
  return set;
}
