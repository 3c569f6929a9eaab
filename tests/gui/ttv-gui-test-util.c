/* ttv-gui-test-util.c: helpers of the in-process GUI tests (see the header). */
#include "ttv-config.h"

#include "ttv-gui-test-util.h"

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

GtkWidget *
ttv_gui_test_find_widget (GtkWidget *widget, GType type, const char *name)
{
  g_autoptr (GList) children = NULL;

  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type)
      && (!name || strcmp (gtk_widget_get_name (widget), name) == 0))
    return widget;
  if (!GTK_IS_CONTAINER (widget))
    return NULL;
  children = gtk_container_get_children (GTK_CONTAINER (widget));
  for (GList *l = children; l; l = l->next)
    {
      GtkWidget *found = ttv_gui_test_find_widget (l->data, type, name);
      if (found)
        return found;
    }
  return NULL;
}
