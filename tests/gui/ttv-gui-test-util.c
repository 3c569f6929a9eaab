/* ttv-gui-test-util.c: helpers of the in-process GUI tests (see the header). */
#include "ttv-config.h"

#include "ttv-gui-test-util.h"

#include "ttv-viewer-registry.h"

#include <string.h>

TtvTraceset *
ttv_gui_test_open_sample (void)
{
  const char *path = g_getenv ("TTV_SAMPLE_TRACE");
  g_autoptr (GError) error = NULL;
  TtvTraceset *ts;

  if (!path || !g_file_test (path, G_FILE_TEST_IS_DIR))
    return NULL;
  ts = ttv_traceset_new ();
  g_assert_true (ttv_traceset_add_path (ts, path, &error));
  g_assert_no_error (error);
  return ts;
}

static gboolean
timeout_flag (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

void
ttv_gui_test_spin_until (gboolean (*cond) (gpointer), gpointer data)
{
  gboolean timed_out = FALSE;
  guint id = g_timeout_add_seconds (60, timeout_flag, &timed_out);

  while (!cond (data) && !timed_out)
    g_main_context_iteration (NULL, TRUE);
  if (!timed_out)
    g_source_remove (id);
  g_assert_false (timed_out);
}

void
ttv_gui_test_spin_for (guint ms)
{
  gboolean done = FALSE;

  g_timeout_add (ms, timeout_flag, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
}

void
ttv_gui_test_spin_pending (void)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

GStrv
ttv_gui_test_headless_environ (void)
{
  GStrv env = g_get_environ ();

  env = g_environ_unsetenv (env, "DISPLAY");
  return g_environ_unsetenv (env, "WAYLAND_DISPLAY");
}

gboolean
ttv_gui_test_state_ready (gpointer tab_state)
{
  return ttv_tab_state_is_state_ready (tab_state);
}

gboolean
ttv_gui_test_no_requests (gpointer tab_state)
{
  return ttv_tab_state_get_n_requests (tab_state) == 0;
}

gboolean
ttv_gui_test_history_ready (gpointer tab_state)
{
  g_autoptr (TtvViewerHistory) h = ttv_tab_state_dup_history (tab_state);

  return h != NULL;
}

void
ttv_gui_test_load_modules (const char *const *paths)
{
  static GHashTable *loaded;

  if (!loaded)
    loaded = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; paths[i]; i++)
    {
      g_autoptr (GError) error = NULL;

      if (g_hash_table_contains (loaded, paths[i]))
        continue;
      g_assert_true (ttv_module_loader_load (paths[i], &error));
      g_assert_no_error (error);
      g_hash_table_add (loaded, g_strdup (paths[i]));
    }
}

/* Depth first: @match decides for each widget. */
static GtkWidget *
find_first (GtkWidget *widget, gboolean (*match) (GtkWidget *, gconstpointer, gconstpointer),
            gconstpointer a, gconstpointer b)
{
  g_autoptr (GList) children = NULL;

  if (match (widget, a, b))
    return widget;
  if (!GTK_IS_CONTAINER (widget))
    return NULL;
  children = gtk_container_get_children (GTK_CONTAINER (widget));
  for (GList *l = children; l; l = l->next)
    {
      GtkWidget *found = find_first (l->data, match, a, b);
      if (found)
        return found;
    }
  return NULL;
}

static gboolean
type_and_name (GtkWidget *widget, gconstpointer type, gconstpointer name)
{
  return G_TYPE_CHECK_INSTANCE_TYPE (widget, *(const GType *) type)
         && (!name || strcmp (gtk_widget_get_name (widget), name) == 0
             || g_strcmp0 (gtk_buildable_get_name (GTK_BUILDABLE (widget)), name) == 0);
}

static gboolean
button_label (GtkWidget *widget, gconstpointer label, gconstpointer unused)
{
  return GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), label) == 0;
}

GtkWidget *
ttv_gui_test_find_button (GtkWidget *widget, const char *label)
{
  return find_first (widget, button_label, label, NULL);
}

GtkWidget *
ttv_gui_test_find_widget (GtkWidget *widget, GType type, const char *name)
{
  return find_first (widget, type_and_name, &type, name);
}

gboolean
ttv_gui_test_tab_setup (TtvGuiTestTab *f, const char *const *module_paths)
{
  TtvTraceset *ts = ttv_gui_test_open_sample ();

  if (!ts)
    {
      memset (f, 0, sizeof *f);
      g_test_skip ("TTV_SAMPLE_TRACE is not set or missing");
      return FALSE;
    }
  ttv_gui_test_tab_open (f, ts, module_paths);
  return TRUE;
}

void
ttv_gui_test_tab_open (TtvGuiTestTab *f, TtvTraceset *ts, const char *const *module_paths)
{
  memset (f, 0, sizeof *f);
  f->ts = ts;
  ttv_gui_test_load_modules (module_paths);
  f->window = gtk_window_new (GTK_WINDOW_TOPLEVEL);
  gtk_window_set_default_size (GTK_WINDOW (f->window), 1100, 700);
  f->tab = TTV_TAB (ttv_tab_new (f->ts));
  gtk_container_add (GTK_CONTAINER (f->window), GTK_WIDGET (f->tab));
  gtk_widget_show_all (f->window);
  f->state = ttv_tab_get_state (f->tab);
  ttv_gui_test_spin_until (ttv_gui_test_state_ready, f->state);
  ttv_gui_test_spin_until (ttv_gui_test_no_requests, f->state);
}

void
ttv_gui_test_tab_setup_path (TtvGuiTestTab *f, const char *path, const char *const *module_paths)
{
  g_autoptr (GError) error = NULL;
  TtvTraceset *ts = ttv_traceset_new ();

  if (!ttv_traceset_add_path (ts, path, &error))
    g_error ("%s: %s", path, error->message);
  ttv_gui_test_tab_open (f, ts, module_paths);
}

void
ttv_gui_test_tab_teardown (TtvGuiTestTab *f)
{
  if (f->window)
    gtk_widget_destroy (f->window);
  g_clear_pointer (&f->ts, ttv_traceset_unref);
}

GtkWidget *
ttv_gui_test_viewer (TtvTab *tab, const char *name)
{
  g_autoptr (GList) viewers = ttv_tab_layout_get_viewers (ttv_tab_get_layout (tab));

  for (GList *l = viewers; l; l = l->next)
    {
      const TtvViewerInfo *info = g_object_get_data (G_OBJECT (l->data), "ttv-viewer-info");
      if (strcmp (info->name, name) == 0)
        return l->data;
    }
  return NULL;
}

GActionGroup *
ttv_gui_test_find_actions (GtkWidget *widget, const char *prefix)
{
  GActionGroup *group = gtk_widget_get_action_group (widget, prefix);
  if (group == NULL && GTK_IS_CONTAINER (widget))
    {
      g_autoptr (GList) children = gtk_container_get_children (GTK_CONTAINER (widget));
      for (GList *l = children; l && !group; l = l->next)
        group = ttv_gui_test_find_actions (l->data, prefix);
    }
  return group;
}

void
ttv_gui_test_send_button (GtkWidget *widget, GdkEventType type, double x, double y)
{
  GdkEvent *ev = gdk_event_new (type);

  ev->button.window = g_object_ref (gtk_widget_get_window (widget));
  ev->button.x = x;
  ev->button.y = y;
  ev->button.button = 1;
  ev->button.time = GDK_CURRENT_TIME;
  gdk_event_set_device (ev, gdk_seat_get_pointer (gdk_display_get_default_seat (gdk_display_get_default ())));
  gtk_widget_event (widget, ev);
  gdk_event_free (ev);
}

void
ttv_gui_test_send_key (GtkWidget *widget, guint keyval, GdkModifierType state)
{
  GdkEvent *ev = gdk_event_new (GDK_KEY_PRESS);

  ev->key.window = g_object_ref (gtk_widget_get_window (widget));
  ev->key.keyval = keyval;
  ev->key.state = state;
  gdk_event_set_device (ev, gdk_seat_get_keyboard (gdk_display_get_default_seat (gdk_display_get_default ())));
  gtk_widget_grab_focus (widget);
  for (GtkWidget *w = widget; w; w = gtk_widget_get_parent (w))
    if (gtk_widget_event (w, ev))
      break;
  gdk_event_free (ev);
}

void
ttv_gui_test_spoil_names (const char *trace, const char *name)
{
  g_autoptr (GDir) dir = g_dir_open (trace, 0, NULL);
  g_assert_nonnull (dir);
  g_assert_cmpuint (strlen (name), ==, 4);
  guint spoiled = 0;
  const char *file;
  while ((file = g_dir_read_name (dir)) != NULL)
    {
      if (!g_str_has_prefix (file, "channel"))
        continue;
      g_autofree char *path = g_build_filename (trace, file, NULL);
      g_autofree char *bytes = NULL;
      gsize len = 0;
      g_assert_true (g_file_get_contents (path, &bytes, &len, NULL));
      for (char *at = bytes; (at = memmem (at, len - (gsize) (at - bytes), name, 5)) != NULL; at += 5)
        {
          at[2] = (char) 0xff;
          spoiled++;
        }
      g_assert_true (g_file_set_contents (path, bytes, (gssize) len, NULL));
    }
  g_assert_cmpuint (spoiled, >, 0);
}

void
ttv_gui_test_spoil_metadata_value (const char *trace, const char *key, const char *value, gsize byte)
{
  g_autofree char *path = g_build_filename (trace, "metadata", NULL);
  g_autofree char *text = NULL;
  gsize len = 0;
  g_assert_cmpuint (byte, <, strlen (value));
  g_assert_true (g_file_get_contents (path, &text, &len, NULL));
  g_autofree char *quoted = g_strdup_printf ("%s = \"%s\"", key, value);
  char *at = strstr (text, quoted);
  g_assert_nonnull (at);
  at[strlen (key) + strlen (" = \"") + byte] = (char) 0xff;
  g_assert_true (g_file_set_contents (path, text, (gssize) len, NULL));
}
