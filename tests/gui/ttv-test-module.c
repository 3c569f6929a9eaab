/* ttv-test-module.c: a viewer module built only for the tests: it records
 * every notification of its tab (as a log on its widget, and in the file
 * $TTV_TEST_MODULE_LOG with the bookmark names) so tests can check them. */
#include "ttv-viewer.h"

static const char *const signal_names[] = {
  "traceset-changed", "time-window-changed", "current-time-changed", "selection-changed",
  "filter-changed", "bookmarks-changed", "density-ready", "state-ready", "history-changed",
  "selected-thread-changed",
};

static void
write_log (GtkWidget *label, TtvTabState *state)
{
  const char *path = g_getenv ("TTV_TEST_MODULE_LOG");
  GString *log = g_object_get_data (G_OBJECT (label), "ttv-test-log");
  GPtrArray *bookmarks = ttv_tab_state_get_bookmarks (state);
  g_autoptr (GString) out = g_string_new (log->str);

  if (!path)
    return;
  g_string_append (out, "bookmarks:");
  for (guint i = 0; i < bookmarks->len; i++)
    g_string_append_printf (out, " [%s]", ((TtvViewerBookmark *) bookmarks->pdata[i])->name);
  g_string_append_c (out, '\n');
  g_file_set_contents (path, out->str, -1, NULL);
}

static void
notified (TtvTabState *state, gpointer data)
{
  GtkWidget *label = data;
  GString *log = g_object_get_data (G_OBJECT (label), "ttv-test-log");
  /* The signal's name is the hint stored with the handler. */
  const char *name = g_signal_name (GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (label), "ttv-test-current")));

  if (g_strcmp0 (name, "current-time-changed") == 0)
    {
      g_autofree char *t = ttv_viewer_time_to_string (ttv_tab_state_get_current_time (state));
      g_string_append_printf (log, "%s\ncurrent: %s\n", name, t);
    }
  else if (g_strcmp0 (name, "selected-thread-changed") == 0)
    g_string_append_printf (log, "%s\nthread: %u\n", name, ttv_tab_state_get_selected_thread (state));
  else if (g_strcmp0 (name, "filter-changed") == 0)
    g_string_append_printf (log, "%s\nfilter: %s\n", name, ttv_tab_state_get_filter (state));
  else
    g_string_append_printf (log, "%s\n", name);
  write_log (label, state);
}

/* One closure per signal, so each knows its name. */
typedef struct {
  GtkWidget *label;
  guint signal_id;
} Hook;

static void
hook_called (TtvTabState *state, Hook *hook)
{
  g_object_set_data (G_OBJECT (hook->label), "ttv-test-current", GUINT_TO_POINTER (hook->signal_id));
  notified (state, hook->label);
}

static void
label_destroyed (GtkWidget *label, TtvTabState *state)
{
  GArray *ids = g_object_get_data (G_OBJECT (label), "ttv-test-handlers");

  for (guint i = 0; i < ids->len; i++)
    g_signal_handler_disconnect (state, g_array_index (ids, gulong, i));
  g_array_set_size (ids, 0);
}

static void
log_free (gpointer log)
{
  g_string_free (log, TRUE);
}

static GtkWidget *
test_viewer_new (TtvTabState *state)
{
  GtkWidget *label = gtk_label_new ("test module");
  GArray *ids = g_array_new (FALSE, FALSE, sizeof (gulong));

  g_object_set_data_full (G_OBJECT (label), "ttv-test-log", g_string_new (NULL), log_free);
  g_object_set_data_full (G_OBJECT (label), "ttv-test-handlers", ids, (GDestroyNotify) g_array_unref);
  for (guint i = 0; i < G_N_ELEMENTS (signal_names); i++)
    {
      Hook *hook = g_new0 (Hook, 1);
      gulong id;

      hook->label = label;
      hook->signal_id = g_signal_lookup (signal_names[i], G_OBJECT_TYPE (state));
      id = g_signal_connect_data (state, signal_names[i], G_CALLBACK (hook_called), hook,
                                  (GClosureNotify) (void (*) (void)) g_free, 0);
      g_array_append_val (ids, id);
    }
  g_object_set_data_full (G_OBJECT (label), "ttv-test-state", g_object_ref (state), g_object_unref);
  g_signal_connect (label, "destroy", G_CALLBACK (label_destroyed), state);
  {
    TtvTime start, end;
    g_autofree char *s = NULL, *e = NULL;

    ttv_tab_state_get_time_span (state, &start, &end);
    s = ttv_viewer_time_to_string (start);
    e = ttv_viewer_time_to_string (end);
    g_string_append_printf (g_object_get_data (G_OBJECT (label), "ttv-test-log"),
                            "span: %s %s\n", s, e);
  }
  write_log (label, state);
  return label;
}

static const TtvViewerInfo info = {
  .name = "test",
  .title = "Test",
  .icon_name = NULL,
  .menu_label = "_Test Viewer",
  .new_viewer = test_viewer_new,
  .find = NULL,
  .show_by_default = TRUE,
};

TTV_VIEWER_MODULE (test_init)

static void
test_init (void)
{
  ttv_viewer_register (&info);
}
