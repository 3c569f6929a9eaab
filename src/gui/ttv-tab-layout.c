/* ttv-tab-layout.c: the panes of a tab's views: a tree of GtkPaned splits
 * whose leaves are notebooks of viewers, built from and kept in the
 * view-layout setting; views move between panes by drag and drop or the
 * window's View actions. */
#include "ttv-config.h"

#include "ttv-tab-layout.h"

#include "ttv-settings.h"
#include "ttv-viewer-registry.h"

#include <glib/gi18n.h>
#include <string.h>

/* Histogram as an overview strip on top, control flow above the event
 * list (as LTTV and Trace Compass show them); also the schema's default. */
#define DEFAULT_LAYOUT "V(0.180,[histogram],V(0.450,[controlflow],H(0.720,[events],[details])))"
#define LAYOUT_KEY "view-layout"
#define INFO_KEY "ttv-viewer-info"

struct _TtvTabLayout {
  GtkBin parent_instance;

  TtvTabState *state;        /* owned reference */
  GtkNotebook *active;       /* the pane acted on; a descendant, or NULL */
  char *group;               /* notebooks of this tab only exchange views */
  guint tidy_idle;           /* emptied panes to remove, the layout to save */
  gboolean loading;          /* building: nothing to save */
};

G_DEFINE_FINAL_TYPE (TtvTabLayout, ttv_tab_layout, GTK_TYPE_BIN)

static void schedule_tidy (TtvTabLayout *self);

/* --- Panes and views --------------------------------------------------------- */

static const TtvViewerInfo *
viewer_info (GtkWidget *viewer)
{
  return g_object_get_data (G_OBJECT (viewer), INFO_KEY);
}

static void
collect_notebooks (GtkWidget *widget, GPtrArray *out)
{
  if (GTK_IS_NOTEBOOK (widget))
    g_ptr_array_add (out, widget);
  else if (GTK_IS_PANED (widget))
    {
      collect_notebooks (gtk_paned_get_child1 (GTK_PANED (widget)), out);
      collect_notebooks (gtk_paned_get_child2 (GTK_PANED (widget)), out);
    }
}

/* The panes in reading order (top left first). */
static GPtrArray *
notebooks (TtvTabLayout *self)
{
  GPtrArray *out = g_ptr_array_new ();
  GtkWidget *root = gtk_bin_get_child (GTK_BIN (self));

  if (root)
    collect_notebooks (root, out);
  return out;
}

/* The active pane, or the last one. */
static GtkNotebook *
active_notebook (TtvTabLayout *self)
{
  g_autoptr (GPtrArray) nbs = notebooks (self);

  for (guint i = 0; i < nbs->len; i++)
    if (nbs->pdata[i] == (gpointer) self->active)
      return self->active;
  return nbs->len ? nbs->pdata[nbs->len - 1] : NULL;
}

static GtkWidget *
find_viewer (TtvTabLayout *self, const TtvViewerInfo *info, GtkNotebook **in)
{
  g_autoptr (GPtrArray) nbs = notebooks (self);

  for (guint n = 0; n < nbs->len; n++)
    for (gint i = 0; i < gtk_notebook_get_n_pages (nbs->pdata[n]); i++)
      {
        GtkWidget *v = gtk_notebook_get_nth_page (nbs->pdata[n], i);
        if (viewer_info (v) == info)
          {
            if (in)
              *in = nbs->pdata[n];
            return v;
          }
      }
  return NULL;
}

static void popup_view_menu (TtvTabLayout *self, GtkNotebook *nb, GtkWidget *viewer);

static gboolean
label_pressed (GtkWidget *label, GdkEventButton *event, gpointer viewer)
{
  GtkWidget *nb = gtk_widget_get_parent (viewer);
  GtkWidget *layout = gtk_widget_get_ancestor (label, TTV_TYPE_TAB_LAYOUT);

  if (!gdk_event_triggers_context_menu ((GdkEvent *) event) || !GTK_IS_NOTEBOOK (nb) || !layout)
    return FALSE;
  popup_view_menu (TTV_TAB_LAYOUT (layout), GTK_NOTEBOOK (nb), viewer);
  return TRUE;
}

/* The tab of @viewer: its icon and title; a right click offers the
 * layout's commands. */
static GtkWidget *
make_label (const TtvViewerInfo *info, GtkWidget *viewer)
{
  GtkWidget *events = gtk_event_box_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);

  gtk_event_box_set_visible_window (GTK_EVENT_BOX (events), FALSE);
  if (info->icon_name)
    gtk_box_pack_start (GTK_BOX (box), gtk_image_new_from_icon_name (info->icon_name, GTK_ICON_SIZE_MENU),
                        FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (box), gtk_label_new (info->title), FALSE, FALSE, 0);
  gtk_container_add (GTK_CONTAINER (events), box);
  g_signal_connect (events, "button-press-event", G_CALLBACK (label_pressed), viewer);
  gtk_widget_show_all (events);
  return events;
}

static void
add_page (GtkNotebook *nb, GtkWidget *viewer)
{
  gint page = gtk_notebook_append_page (nb, viewer, make_label (viewer_info (viewer), viewer));

  gtk_notebook_set_tab_reorderable (nb, viewer, TRUE);
  gtk_notebook_set_tab_detachable (nb, viewer, TRUE);
  gtk_notebook_set_current_page (nb, page);
}

/* Takes @viewer out of its pane into @to (its current view). */
static void
move_page (GtkWidget *viewer, GtkNotebook *to)
{
  GtkWidget *from = gtk_widget_get_parent (viewer);

  g_object_ref (viewer);
  gtk_container_remove (GTK_CONTAINER (from), viewer);
  /* The pane left shows its first view (the event list in the default
   * layout's), not whichever followed the one moved. */
  if (gtk_notebook_get_n_pages (GTK_NOTEBOOK (from)) > 0)
    gtk_notebook_set_current_page (GTK_NOTEBOOK (from), 0);
  add_page (to, viewer);
  g_object_unref (viewer);
}

static void
notebook_focused (GtkContainer *nb, GtkWidget *child, TtvTabLayout *self)
{
  if (child)
    self->active = GTK_NOTEBOOK (nb);
}

static void
notebook_switched (GtkNotebook *nb, GtkWidget *page, guint n, TtvTabLayout *self)
{
  if (!self->loading)
    self->active = nb;
  schedule_tidy (self);
}

static void
notebook_changed (GtkNotebook *nb, GtkWidget *page, guint n, TtvTabLayout *self)
{
  /* A view dropped here by the user: its tab gets the layout's menu. */
  if (gtk_notebook_get_tab_label (nb, page) && !GTK_IS_EVENT_BOX (gtk_notebook_get_tab_label (nb, page)))
    gtk_notebook_set_tab_label (nb, page, make_label (viewer_info (page), page));
  gtk_notebook_set_tab_detachable (nb, page, TRUE);
  gtk_notebook_set_tab_reorderable (nb, page, TRUE);
  schedule_tidy (self);
}

static void
notebook_removed (GtkNotebook *nb, GtkWidget *page, guint n, TtvTabLayout *self)
{
  schedule_tidy (self);
}

static GtkNotebook *
new_notebook (TtvTabLayout *self)
{
  GtkWidget *nb = gtk_notebook_new ();

  gtk_notebook_set_scrollable (GTK_NOTEBOOK (nb), TRUE);
  gtk_notebook_set_group_name (GTK_NOTEBOOK (nb), self->group);
  g_signal_connect (nb, "set-focus-child", G_CALLBACK (notebook_focused), self);
  g_signal_connect_after (nb, "switch-page", G_CALLBACK (notebook_switched), self);
  g_signal_connect (nb, "page-added", G_CALLBACK (notebook_changed), self);
  g_signal_connect (nb, "page-removed", G_CALLBACK (notebook_removed), self);
  gtk_widget_show (nb);
  return GTK_NOTEBOOK (nb);
}

/* --- Splits ------------------------------------------------------------------- */

/* A split keeps its first child's share (per mille) whatever its size:
 * applied when its size changes, learnt when the user moves the handle. */
#define SHARE_KEY "ttv-share"
#define SIZE_KEY "ttv-size"
#define SET_KEY "ttv-set-position"

static gint
paned_size (GtkWidget *paned)
{
  return gtk_orientable_get_orientation (GTK_ORIENTABLE (paned)) == GTK_ORIENTATION_HORIZONTAL
         ? gtk_widget_get_allocated_width (paned) : gtk_widget_get_allocated_height (paned);
}

/* Applies the share on a new size, and again when the views' minimum sizes
 * change under the same size: a position the old minimums clamped would
 * otherwise stay where they pushed it (views fill in after the tab opens,
 * late on a loaded machine). */
static void
paned_allocated (GtkWidget *paned, GdkRectangle *allocation, TtvTabLayout *self)
{
  gint size = paned_size (paned);
  gint share = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (paned), SHARE_KEY));
  gint wanted = size * share / 1000;
  gint min, max;

  if (size <= 1)
    return;
  g_object_get (paned, "min-position", &min, "max-position", &max, NULL);
  /* Within the share's rounding (per mille), the position is the share's:
   * a handle the user drags is not pulled back by a pixel. */
  if (size == GPOINTER_TO_INT (g_object_get_data (G_OBJECT (paned), SIZE_KEY))
      && (min > max || ABS (gtk_paned_get_position (GTK_PANED (paned)) - CLAMP (wanted, min, max)) <= 1 + size / 1000))
    return;
  g_object_set_data (G_OBJECT (paned), SIZE_KEY, GINT_TO_POINTER (size));
  g_object_set_data (G_OBJECT (paned), SET_KEY, GINT_TO_POINTER (wanted));
  gtk_paned_set_position (GTK_PANED (paned), wanted);
}

static void
paned_moved (GtkWidget *paned, GParamSpec *pspec, TtvTabLayout *self)
{
  gint size = paned_size (paned);
  gint position = gtk_paned_get_position (GTK_PANED (paned));

  gint set = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (paned), SET_KEY));
  gint min, max;

  /* Not a resize (the share is applied after it), not ours, not the
   * panes' minimum sizes overriding ours: the user's. */
  g_object_get (paned, "min-position", &min, "max-position", &max, NULL);
  if (size <= 1 || size != GPOINTER_TO_INT (g_object_get_data (G_OBJECT (paned), SIZE_KEY))
      || position == set || (set < min && position == min) || (set > max && position == max))
    return;
  g_object_set_data (G_OBJECT (paned), SHARE_KEY, GINT_TO_POINTER (CLAMP (position * 1000 / size, 1, 999)));
  g_object_set_data (G_OBJECT (paned), SET_KEY, GINT_TO_POINTER (position));
  schedule_tidy (self);
}

static GtkWidget *
new_paned (TtvTabLayout *self, GtkOrientation orientation, gint share, GtkWidget *first, GtkWidget *second)
{
  GtkWidget *paned = gtk_paned_new (orientation);

  g_object_set_data (G_OBJECT (paned), SHARE_KEY, GINT_TO_POINTER (CLAMP (share, 1, 999)));
  gtk_paned_pack1 (GTK_PANED (paned), first, TRUE, FALSE);
  gtk_paned_pack2 (GTK_PANED (paned), second, TRUE, FALSE);
  g_signal_connect_after (paned, "size-allocate", G_CALLBACK (paned_allocated), self);
  g_signal_connect (paned, "notify::position", G_CALLBACK (paned_moved), self);
  gtk_widget_show (paned);
  return paned;
}

/* Puts @with where @old is (in a split or as the root); @old is removed. */
static void
replace_widget (TtvTabLayout *self, GtkWidget *old, GtkWidget *with)
{
  GtkWidget *parent = gtk_widget_get_parent (old);

  g_object_ref (old);
  if (GTK_IS_PANED (parent))
    {
      gboolean first = gtk_paned_get_child1 (GTK_PANED (parent)) == old;
      gtk_container_remove (GTK_CONTAINER (parent), old);
      if (first)
        gtk_paned_pack1 (GTK_PANED (parent), with, TRUE, FALSE);
      else
        gtk_paned_pack2 (GTK_PANED (parent), with, TRUE, FALSE);
    }
  else
    {
      gtk_container_remove (GTK_CONTAINER (self), old);
      gtk_container_add (GTK_CONTAINER (self), with);
    }
  g_object_unref (old);
}

/* An emptied pane goes; its split's other side takes the split's place.
 * The last pane stays (empty) for the views shown next. */
static void
remove_empty_panes (TtvTabLayout *self)
{
  g_autoptr (GPtrArray) nbs = notebooks (self);

  for (guint i = 0; i < nbs->len; i++)
    {
      GtkWidget *nb = nbs->pdata[i], *paned = gtk_widget_get_parent (nb), *other;
      if (gtk_notebook_get_n_pages (GTK_NOTEBOOK (nb)) > 0 || !GTK_IS_PANED (paned))
        continue;
      other = gtk_paned_get_child1 (GTK_PANED (paned)) == nb ? gtk_paned_get_child2 (GTK_PANED (paned))
                                                              : gtk_paned_get_child1 (GTK_PANED (paned));
      g_object_ref (other);
      gtk_container_remove (GTK_CONTAINER (paned), other);
      replace_widget (self, paned, other);
      g_object_unref (other);
      if ((gpointer) self->active == (gpointer) nb)   /* gone: no cast */
        self->active = NULL;
    }
}

/* --- The setting ------------------------------------------------------------ */

static void
append_layout (GString *out, GtkWidget *widget)
{
  if (GTK_IS_PANED (widget))
    {
      char share[G_ASCII_DTOSTR_BUF_SIZE];
      g_ascii_formatd (share, sizeof share, "%.3f",
                       GPOINTER_TO_INT (g_object_get_data (G_OBJECT (widget), SHARE_KEY)) / 1000.0);
      g_string_append_printf (out, "%c(%s,",
                              gtk_orientable_get_orientation (GTK_ORIENTABLE (widget))
                              == GTK_ORIENTATION_HORIZONTAL ? 'H' : 'V', share);
      append_layout (out, gtk_paned_get_child1 (GTK_PANED (widget)));
      g_string_append_c (out, ',');
      append_layout (out, gtk_paned_get_child2 (GTK_PANED (widget)));
      g_string_append_c (out, ')');
      return;
    }
  g_string_append_c (out, '[');
  for (gint i = 0; GTK_IS_NOTEBOOK (widget) && i < gtk_notebook_get_n_pages (GTK_NOTEBOOK (widget)); i++)
    {
      g_string_append_printf (out, "%s%s", i ? "," : "",
                              i == gtk_notebook_get_current_page (GTK_NOTEBOOK (widget)) && i > 0 ? "*" : "");
      g_string_append (out, viewer_info (gtk_notebook_get_nth_page (GTK_NOTEBOOK (widget), i))->name);
    }
  g_string_append_c (out, ']');
}

char *
ttv_tab_layout_to_string (TtvTabLayout *self)
{
  GString *out = g_string_new (NULL);
  GtkWidget *root = gtk_bin_get_child (GTK_BIN (self));

  g_return_val_if_fail (TTV_IS_TAB_LAYOUT (self), NULL);
  if (root)
    append_layout (out, root);
  return g_string_free (out, FALSE);
}

static gboolean
tidy (gpointer data)
{
  TtvTabLayout *self = data;
  GSettings *settings = ttv_settings_dup_with_key (LAYOUT_KEY);
  g_autofree char *text = NULL, *kept = NULL;

  self->tidy_idle = 0;
  remove_empty_panes (self);
  text = ttv_tab_layout_to_string (self);
  if (settings)
    {
      kept = g_settings_get_string (settings, LAYOUT_KEY);
      if (strcmp (kept, text) != 0)
        g_settings_set_string (settings, LAYOUT_KEY, text);
      g_object_unref (settings);
    }
  return G_SOURCE_REMOVE;
}

static void
schedule_tidy (TtvTabLayout *self)
{
  if (!self->loading && !self->tidy_idle)
    self->tidy_idle = g_idle_add (tidy, self);
}

/* Parsing: a small recursive descent over the text of the setting; the
 * widgets are made as it goes, unknown viewers skipped, and a pane left
 * empty dropped with its split.  NULL (after a syntax error): nothing. */
typedef struct {
  TtvTabLayout *self;
  const char *p;
  gboolean error;
  GHashTable *shown;         /* viewer infos already placed */
} Parser;

static GtkWidget *parse_node (Parser *ps);

/* A widget made while parsing and not placed (its viewers go with it). */
static void
destroy_floating (GtkWidget *widget)
{
  if (!widget)
    return;
  g_object_ref_sink (widget);
  gtk_widget_destroy (widget);
  g_object_unref (widget);
}

static gboolean
expect (Parser *ps, char c)
{
  while (g_ascii_isspace (*ps->p))
    ps->p++;
  if (*ps->p != c)
    {
      ps->error = TRUE;
      return FALSE;
    }
  ps->p++;
  return TRUE;
}

static GtkWidget *
parse_pane (Parser *ps)
{
  GtkNotebook *nb = new_notebook (ps->self);
  gint current = 0;

  while (!ps->error && *ps->p && *ps->p != ']')
    {
      gboolean is_current = FALSE;
      gsize len;
      const TtvViewerInfo *info;
      GtkWidget *viewer;
      g_autofree char *name = NULL;

      if (*ps->p == ',')
        ps->p++;
      if (*ps->p == '*')
        {
          is_current = TRUE;
          ps->p++;
        }
      len = strcspn (ps->p, ",]");
      name = g_strstrip (g_strndup (ps->p, len));
      ps->p += len;
      info = ttv_viewer_registry_find (name);
      if (!info || g_hash_table_contains (ps->shown, info) || !(viewer = info->new_viewer (ps->self->state)))
        continue;
      g_hash_table_add (ps->shown, (gpointer) info);
      g_object_set_data (G_OBJECT (viewer), INFO_KEY, (gpointer) info);
      gtk_widget_show (viewer);
      add_page (nb, viewer);
      if (is_current)
        current = gtk_notebook_get_n_pages (nb) - 1;
    }
  expect (ps, ']');
  gtk_notebook_set_current_page (nb, current);
  if (ps->error || gtk_notebook_get_n_pages (nb) == 0)
    {
      destroy_floating (GTK_WIDGET (nb));
      return NULL;
    }
  return GTK_WIDGET (nb);
}

static GtkWidget *
parse_split (Parser *ps, GtkOrientation orientation)
{
  char *end;
  double share;
  GtkWidget *first, *second;

  if (!expect (ps, '('))
    return NULL;
  share = g_ascii_strtod (ps->p, &end);
  if (end == ps->p || !(share > 0 && share < 1))
    {
      ps->error = TRUE;
      return NULL;
    }
  ps->p = end;
  if (!expect (ps, ','))
    return NULL;
  first = parse_node (ps);
  if (!expect (ps, ','))
    second = NULL;
  else
    second = parse_node (ps);
  expect (ps, ')');
  if (ps->error)
    {
      destroy_floating (first);
      destroy_floating (second);
      return NULL;
    }
  if (!first || !second)
    return first ? first : second;
  return new_paned (ps->self, orientation, (gint) (share * 1000 + 0.5), first, second);
}

static GtkWidget *
parse_node (Parser *ps)
{
  while (g_ascii_isspace (*ps->p))
    ps->p++;
  switch (*ps->p)
    {
    case '[':
      ps->p++;
      return parse_pane (ps);
    case 'H':
      ps->p++;
      return parse_split (ps, GTK_ORIENTATION_HORIZONTAL);
    case 'V':
      ps->p++;
      return parse_split (ps, GTK_ORIENTATION_VERTICAL);
    default:
      ps->error = TRUE;
      return NULL;
    }
}

/* Destroys the viewers (their requests go with them) and the splits. */
static void
clear (TtvTabLayout *self)
{
  GtkWidget *root = gtk_bin_get_child (GTK_BIN (self));

  self->active = NULL;
  if (root)
    gtk_widget_destroy (root);
}

/* The pane views go to until the user acts on another: the event list's,
 * else the last one. */
static GtkNotebook *
main_notebook (TtvTabLayout *self, GPtrArray *nbs)
{
  GtkNotebook *nb = NULL;
  const TtvViewerInfo *events = ttv_viewer_registry_find ("events");

  if (events && find_viewer (self, events, &nb))
    return nb;
  return nbs->pdata[nbs->len - 1];
}

static gboolean
load (TtvTabLayout *self, const char *text, gboolean add_defaults)
{
  Parser ps = { self, text, FALSE, g_hash_table_new (NULL, NULL) };
  GtkWidget *root;
  g_autoptr (GPtrArray) nbs = NULL;

  self->loading = TRUE;
  root = parse_node (&ps);
  while (root && g_ascii_isspace (*ps.p))
    ps.p++;
  if (root && *ps.p)
    {
      destroy_floating (root);
      root = NULL;
    }
  if (!root)
    {
      g_hash_table_unref (ps.shown);
      self->loading = FALSE;
      return FALSE;
    }
  clear (self);
  gtk_container_add (GTK_CONTAINER (self), root);
  /* The modules' default viewers the default layout does not name (a
   * module added since) go with the event list. */
  nbs = notebooks (self);
  self->active = main_notebook (self, nbs);
  for (guint i = 0; add_defaults && i < ttv_viewer_registry_get_n_viewers (); i++)
    {
      const TtvViewerInfo *info = ttv_viewer_registry_get_viewer (i);
      GtkNotebook *last = self->active;
      GtkWidget *viewer;
      gint current = gtk_notebook_get_current_page (last);
      if (!info->show_by_default || g_hash_table_contains (ps.shown, info)
          || !(viewer = info->new_viewer (self->state)))
        continue;
      g_object_set_data (G_OBJECT (viewer), INFO_KEY, (gpointer) info);
      gtk_widget_show (viewer);
      add_page (last, viewer);
      gtk_notebook_set_current_page (last, current);
    }
  g_hash_table_unref (ps.shown);
  self->loading = FALSE;
  return TRUE;
}

gboolean
ttv_tab_layout_load (TtvTabLayout *self, const char *text)
{
  g_return_val_if_fail (TTV_IS_TAB_LAYOUT (self) && text != NULL, FALSE);
  if (!load (self, text, FALSE))
    return FALSE;
  schedule_tidy (self);
  return TRUE;
}

/* The default layout with the viewers registered; an empty pane when none
 * of them is (a viewer shown later goes there). */
static void
load_default (TtvTabLayout *self)
{
  if (load (self, DEFAULT_LAYOUT, TRUE) || load (self, "[events]", TRUE))
    return;
  clear (self);
  gtk_container_add (GTK_CONTAINER (self), GTK_WIDGET (new_notebook (self)));
  for (guint i = 0; i < ttv_viewer_registry_get_n_viewers (); i++)
    if (ttv_viewer_registry_get_viewer (i)->show_by_default)
      ttv_tab_layout_show_viewer (self, ttv_viewer_registry_get_viewer (i)->name);
}

void
ttv_tab_layout_reset (TtvTabLayout *self)
{
  GSettings *settings = ttv_settings_dup_with_key (LAYOUT_KEY);

  g_return_if_fail (TTV_IS_TAB_LAYOUT (self));
  if (settings)
    {
      g_settings_reset (settings, LAYOUT_KEY);
      g_object_unref (settings);
    }
  load_default (self);
}

/* --- Commands ----------------------------------------------------------------- */

gboolean
ttv_tab_layout_show_viewer (TtvTabLayout *self, const char *name)
{
  const TtvViewerInfo *info = ttv_viewer_registry_find (name);
  GtkNotebook *nb = NULL;
  GtkWidget *viewer;

  g_return_val_if_fail (TTV_IS_TAB_LAYOUT (self), FALSE);
  if (!info)
    return FALSE;
  viewer = find_viewer (self, info, &nb);
  if (viewer)
    {
      gtk_notebook_set_current_page (nb, gtk_notebook_page_num (nb, viewer));
      self->active = nb;
      return TRUE;
    }
  nb = active_notebook (self);
  if (!nb || !(viewer = info->new_viewer (self->state)))
    return FALSE;
  g_object_set_data (G_OBJECT (viewer), INFO_KEY, (gpointer) info);
  gtk_widget_show (viewer);
  add_page (nb, viewer);
  self->active = nb;
  return TRUE;
}

GtkWidget *
ttv_tab_layout_get_active_viewer (TtvTabLayout *self)
{
  GtkNotebook *nb;
  gint page;

  g_return_val_if_fail (TTV_IS_TAB_LAYOUT (self), NULL);
  nb = active_notebook (self);
  page = nb ? gtk_notebook_get_current_page (nb) : -1;
  return page < 0 ? NULL : gtk_notebook_get_nth_page (nb, page);
}

GList *
ttv_tab_layout_get_viewers (TtvTabLayout *self)
{
  g_autoptr (GPtrArray) nbs = notebooks (self);
  GList *out = NULL;

  for (guint n = 0; n < nbs->len; n++)
    for (gint i = 0; i < gtk_notebook_get_n_pages (nbs->pdata[n]); i++)
      out = g_list_prepend (out, gtk_notebook_get_nth_page (nbs->pdata[n], i));
  return g_list_reverse (out);
}

gboolean
ttv_tab_layout_split (TtvTabLayout *self, GtkOrientation orientation)
{
  GtkWidget *viewer = ttv_tab_layout_get_active_viewer (self);
  GtkNotebook *nb, *fresh;
  GtkWidget *paned;

  if (!viewer)
    return FALSE;
  nb = GTK_NOTEBOOK (gtk_widget_get_parent (viewer));
  if (gtk_notebook_get_n_pages (nb) < 2)
    return FALSE;
  fresh = new_notebook (self);
  g_object_ref (nb);
  paned = new_paned (self, orientation, 500, gtk_label_new (NULL), GTK_WIDGET (fresh));
  replace_widget (self, GTK_WIDGET (nb), paned);
  gtk_container_remove (GTK_CONTAINER (paned), gtk_paned_get_child1 (GTK_PANED (paned)));
  gtk_paned_pack1 (GTK_PANED (paned), GTK_WIDGET (nb), TRUE, FALSE);
  g_object_unref (nb);
  move_page (viewer, fresh);
  self->active = fresh;
  gtk_widget_grab_focus (viewer);
  schedule_tidy (self);
  return TRUE;
}

gboolean
ttv_tab_layout_move_to_next_pane (TtvTabLayout *self)
{
  GtkWidget *viewer = ttv_tab_layout_get_active_viewer (self);
  g_autoptr (GPtrArray) nbs = notebooks (self);
  guint at;
  GtkNotebook *to;

  if (!viewer || nbs->len < 2 || !g_ptr_array_find (nbs, gtk_widget_get_parent (viewer), &at))
    return FALSE;
  to = nbs->pdata[(at + 1) % nbs->len];
  move_page (viewer, to);
  self->active = to;
  remove_empty_panes (self);
  schedule_tidy (self);
  return TRUE;
}

gboolean
ttv_tab_layout_close_viewer (TtvTabLayout *self)
{
  GtkWidget *viewer = ttv_tab_layout_get_active_viewer (self);

  if (!viewer)
    return FALSE;
  gtk_widget_destroy (viewer);
  remove_empty_panes (self);
  schedule_tidy (self);
  return TRUE;
}

/* --- The views' menu ------------------------------------------------------------ */

static void
popup_view_menu (TtvTabLayout *self, GtkNotebook *nb, GtkWidget *viewer)
{
  g_autoptr (GMenu) model = g_menu_new ();
  GtkWidget *menu;

  gtk_notebook_set_current_page (nb, gtk_notebook_page_num (nb, viewer));
  self->active = nb;
  g_menu_append (model, _("Split View _Right"), "win.split-view-right");
  g_menu_append (model, _("Split View _Down"), "win.split-view-down");
  g_menu_append (model, _("_Move View to Next Pane"), "win.move-view");
  g_menu_append (model, _("Close _View"), "win.close-view");
  g_menu_append (model, _("Reset _Layout"), "win.reset-layout");
  menu = gtk_menu_new_from_model (G_MENU_MODEL (model));
  gtk_menu_attach_to_widget (GTK_MENU (menu), viewer, NULL);
  g_signal_connect (menu, "deactivate", G_CALLBACK (gtk_widget_destroy), NULL);
  gtk_menu_popup_at_pointer (GTK_MENU (menu), NULL);
}

/* --- Construction ---------------------------------------------------------------- */

static void
ttv_tab_layout_dispose (GObject *object)
{
  TtvTabLayout *self = TTV_TAB_LAYOUT (object);

  g_clear_handle_id (&self->tidy_idle, g_source_remove);
  self->loading = TRUE;   /* the views going away change nothing to keep */
  self->active = NULL;
  G_OBJECT_CLASS (ttv_tab_layout_parent_class)->dispose (object);
  g_clear_object (&self->state);
}

static void
ttv_tab_layout_finalize (GObject *object)
{
  g_free (TTV_TAB_LAYOUT (object)->group);
  G_OBJECT_CLASS (ttv_tab_layout_parent_class)->finalize (object);
}

static void
ttv_tab_layout_class_init (TtvTabLayoutClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = ttv_tab_layout_dispose;
  G_OBJECT_CLASS (klass)->finalize = ttv_tab_layout_finalize;
}

static void
ttv_tab_layout_init (TtvTabLayout *self)
{
  self->group = g_strdup_printf ("ttv-views-%p", (void *) self);
}

GtkWidget *
ttv_tab_layout_new (TtvTabState *state)
{
  TtvTabLayout *self = g_object_new (TTV_TYPE_TAB_LAYOUT, NULL);
  GSettings *settings = ttv_settings_dup_with_key (LAYOUT_KEY);

  self->state = g_object_ref (state);
  if (settings)
    {
      g_autoptr (GVariant) user = g_settings_get_user_value (settings, LAYOUT_KEY);
      g_autofree char *text = g_settings_get_string (settings, LAYOUT_KEY);
      g_object_unref (settings);
      /* The user's layout is what they left; the default one also takes
       * the viewers modules show by default. */
      if (user && load (self, text, FALSE))
        return GTK_WIDGET (self);
    }
  load_default (self);
  return GTK_WIDGET (self);
}
