/* ttv-bookmarks-panel.c: the bookmarks list of a tab.  It reads the tab
 * state's bookmarks and asks the tab to add, edit, delete and jump. */
#include "ttv-config.h"

#include "ttv-bookmarks-panel.h"

#include <glib/gi18n.h>

enum { COL_TIME, COL_NAME, COL_CPU, COL_TEXT, COL_INDEX, N_COLS };

struct _TtvBookmarksPanel {
  GtkBox parent_instance;

  TtvTab *tab;               /* weak: the tab owns the panel */
  TtvTabState *state;        /* owned reference */
  GtkListStore *store;       /* owned: a handful of rows, one per bookmark */
  GtkTreeView *view;
  GtkLabel *location;        /* where they are saved ("Saved in …") */
  gboolean watching_saves;   /* show_location runs at each save's start */
  gulong changed_id;
  gulong format_id;          /* "time-format-changed" */
};

G_DEFINE_FINAL_TYPE (TtvBookmarksPanel, ttv_bookmarks_panel, GTK_TYPE_BOX)

/* "Saved in …": a CTF trace's file is hidden, and users look for it. */
static void
show_location (TtvBookmarksPanel *self)
{
  TtvTabBookmarks *bookmarks = ttv_tab_get_bookmarks (self->tab);
  g_autofree char *text = bookmarks ? ttv_tab_bookmarks_dup_location (bookmarks) : NULL;

  /* A save starts once the place is known (a read-only trace: after the
   * question): then the line says the place chosen. */
  if (bookmarks && !self->watching_saves)
    {
      g_signal_connect_object (ttv_tab_bookmarks_get_saver (bookmarks), "started",
                               G_CALLBACK (show_location), self, G_CONNECT_SWAPPED);
      self->watching_saves = TRUE;
    }
  /* A path: its bytes may not all be UTF-8. */
  g_autofree char *valid = g_utf8_make_valid (text ? text : "", -1);
  gtk_label_set_text (self->location, valid);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->location), text ? valid : NULL);
}

static void
refill (TtvBookmarksPanel *self)
{
  GPtrArray *bookmarks = ttv_tab_state_get_bookmarks (self->state);

  gtk_list_store_clear (self->store);
  for (guint i = 0; i < bookmarks->len; i++)
    {
      const TtvViewerBookmark *b = bookmarks->pdata[i];
      g_autofree char *time = NULL;
      GtkTreeIter iter;

      if (b->has_cycles)
        {
          g_autofree char *c0 = g_strdup_printf ("%" G_GUINT64_FORMAT, b->start_cycle);
          g_autofree char *c1 = g_strdup_printf ("%" G_GUINT64_FORMAT, b->end_cycle);
          time = b->start_cycle == b->end_cycle ? g_strdup_printf (_("cycle %s"), c0)
            : g_strdup_printf (_("cycles %s–%s"), c0, c1);
        }
      else if (b->start == b->end)
        time = ttv_tab_state_format_time (self->state, b->start);
      else
        {
          g_autofree char *s = ttv_tab_state_format_time (self->state, b->start);
          g_autofree char *e = ttv_tab_state_format_time (self->state, b->end);
          time = g_strdup_printf ("%s – %s", s, e);
        }
      g_autofree char *cpu = b->cpu >= 0 ? g_strdup_printf ("%d", b->cpu) : g_strdup ("");
      gtk_list_store_insert_with_values (self->store, &iter, -1, COL_TIME, time,
                                         COL_NAME, b->name, COL_CPU, cpu, COL_TEXT, b->text,
                                         COL_INDEX, i, -1);
    }
  show_location (self);
}

static gint
selected_index (TtvBookmarksPanel *self)
{
  GtkTreeModel *model;
  GtkTreeIter iter;
  guint index;

  if (!gtk_tree_selection_get_selected (gtk_tree_view_get_selection (self->view), &model, &iter))
    return -1;
  gtk_tree_model_get (model, &iter, COL_INDEX, &index, -1);
  return (gint) index;
}

static void
row_activated (GtkTreeView *view, GtkTreePath *path, GtkTreeViewColumn *column,
               TtvBookmarksPanel *self)
{
  gint index = selected_index (self);

  if (index >= 0)
    ttv_tab_jump_to_bookmark (self->tab, index);
}

static void
edit_clicked (TtvBookmarksPanel *self)
{
  gint index = selected_index (self);

  if (index >= 0)
    ttv_tab_edit_bookmark (self->tab, index);
}

static void
delete_clicked (TtvBookmarksPanel *self)
{
  gint index = selected_index (self);

  if (index >= 0)
    ttv_tab_delete_bookmark (self->tab, index);
}

static gboolean
key_pressed (GtkWidget *widget, GdkEventKey *ev, TtvBookmarksPanel *self)
{
  if (ev->keyval == GDK_KEY_Delete)
    {
      delete_clicked (self);
      return GDK_EVENT_STOP;
    }
  return GDK_EVENT_PROPAGATE;
}

static void
ttv_bookmarks_panel_dispose (GObject *object)
{
  TtvBookmarksPanel *self = TTV_BOOKMARKS_PANEL (object);

  if (self->state)
    {
      g_clear_signal_handler (&self->changed_id, self->state);
      g_clear_signal_handler (&self->format_id, self->state);
    }
  g_clear_object (&self->state);
  g_clear_object (&self->store);
  G_OBJECT_CLASS (ttv_bookmarks_panel_parent_class)->dispose (object);
}

static void
ttv_bookmarks_panel_class_init (TtvBookmarksPanelClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = ttv_bookmarks_panel_dispose;
}

static void
ttv_bookmarks_panel_init (TtvBookmarksPanel *self)
{
}

static GtkWidget *
tool_button (const char *icon, const char *tooltip)
{
  GtkWidget *b = gtk_button_new_from_icon_name (icon, GTK_ICON_SIZE_SMALL_TOOLBAR);

  gtk_widget_set_tooltip_text (b, tooltip);
  gtk_button_set_relief (GTK_BUTTON (b), GTK_RELIEF_NONE);
  return b;
}

GtkWidget *
ttv_bookmarks_panel_new (TtvTab *tab)
{
  TtvBookmarksPanel *self = g_object_new (TTV_TYPE_BOOKMARKS_PANEL,
                                          "orientation", GTK_ORIENTATION_VERTICAL, NULL);
  GtkWidget *header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 2);
  GtkWidget *title = gtk_label_new (NULL);
  GtkWidget *scrolled = gtk_scrolled_window_new (NULL, NULL);
  GtkWidget *b;
  static const char *const titles[] = { N_("Time"), N_("Name"), N_("CPU"), N_("Text") };

  self->tab = tab;
  self->state = g_object_ref (ttv_tab_get_state (tab));
  self->store = gtk_list_store_new (N_COLS, G_TYPE_STRING, G_TYPE_STRING, G_TYPE_STRING,
                                    G_TYPE_STRING, G_TYPE_UINT);

  gtk_label_set_markup (GTK_LABEL (title), _("<b>Bookmarks</b>"));
  gtk_box_pack_start (GTK_BOX (header), title, FALSE, FALSE, 4);
  b = tool_button ("list-remove-symbolic", _("Delete the selected bookmark (Delete)"));
  g_signal_connect_swapped (b, "clicked", G_CALLBACK (delete_clicked), self);
  gtk_box_pack_end (GTK_BOX (header), b, FALSE, FALSE, 0);
  b = tool_button ("document-edit-symbolic", _("Edit the selected bookmark"));
  g_signal_connect_swapped (b, "clicked", G_CALLBACK (edit_clicked), self);
  gtk_box_pack_end (GTK_BOX (header), b, FALSE, FALSE, 0);
  b = tool_button ("list-add-symbolic", _("Bookmark the current time or selection (Ctrl+D)"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (b), "win.add-bookmark");
  gtk_box_pack_end (GTK_BOX (header), b, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (self), header, FALSE, FALSE, 0);

  self->view = GTK_TREE_VIEW (gtk_tree_view_new_with_model (GTK_TREE_MODEL (self->store)));
  for (guint i = 0; i < G_N_ELEMENTS (titles); i++)
    {
      GtkCellRenderer *cell = gtk_cell_renderer_text_new ();
      GtkTreeViewColumn *col = gtk_tree_view_column_new_with_attributes (_(titles[i]), cell,
                                                                         "text", i, NULL);
      gtk_tree_view_column_set_resizable (col, TRUE);
      gtk_tree_view_append_column (self->view, col);
    }
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->view), _("Double-click a bookmark to go to it"));
  g_signal_connect (self->view, "row-activated", G_CALLBACK (row_activated), self);
  g_signal_connect (self->view, "key-press-event", G_CALLBACK (key_pressed), self);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_AUTOMATIC,
                                  GTK_POLICY_AUTOMATIC);
  gtk_container_add (GTK_CONTAINER (scrolled), GTK_WIDGET (self->view));
  gtk_box_pack_start (GTK_BOX (self), scrolled, TRUE, TRUE, 0);
  self->location = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_set_name (GTK_WIDGET (self->location), "bookmarks-location");
  gtk_label_set_xalign (self->location, 0);
  gtk_label_set_ellipsize (self->location, PANGO_ELLIPSIZE_START);
  gtk_label_set_selectable (self->location, TRUE);
  gtk_widget_set_can_focus (GTK_WIDGET (self->location), FALSE);
  gtk_style_context_add_class (gtk_widget_get_style_context (GTK_WIDGET (self->location)), "dim-label");
  gtk_box_pack_start (GTK_BOX (self), GTK_WIDGET (self->location), FALSE, FALSE, 2);
  /* The tab's bookmarks exist once the tab is built: shown, the panel
   * says where they go. */
  g_signal_connect_swapped (self, "map", G_CALLBACK (show_location), self);

  self->changed_id = g_signal_connect_swapped (self->state, "bookmarks-changed",
                                               G_CALLBACK (refill), self);
  /* Times as in every other view (the time-format setting). */
  self->format_id = g_signal_connect_swapped (self->state, "time-format-changed",
                                              G_CALLBACK (refill), self);
  refill (self);
  gtk_widget_show_all (GTK_WIDGET (self));
  return GTK_WIDGET (self);
}
