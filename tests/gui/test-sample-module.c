/* test-sample-module.c: the sample module of docs/viewer-module.md, built
 * from the page by tests/gui/sample/, loaded and driven as a user would:
 * its summary follows the tab, its per-CPU counts, pages, filter toggle,
 * selection clearing and Ctrl+F do what the page says, checked against
 * values counted here independently. */
#include "ttv-config.h"

#include "ttv-context.h"
#include "ttv-gui-test-util.h"
#include "ttv-tab.h"

#include <glib/gi18n.h>
#include <string.h>

typedef struct {
  TtvGuiTestTab f;
  GtkWidget *viewer;
  GtkLabel *label;
} Sample;

static gboolean
sample_setup (Sample *s)
{
  /* $TTV_SAMPLE_MODULE: the same module built elsewhere (test-install.sh). */
  const char *path = g_getenv ("TTV_SAMPLE_MODULE") ? g_getenv ("TTV_SAMPLE_MODULE") : TTV_SAMPLE_MODULE_PATH;

  memset (s, 0, sizeof *s);
  g_test_message ("module %s", path);
  if (!ttv_gui_test_tab_setup (&s->f, (const char *const[]) { path, NULL }))
    return FALSE;
  g_assert_true (ttv_tab_show_viewer (s->f.tab, "inspector"));
  s->viewer = ttv_gui_test_find_widget (GTK_WIDGET (s->f.tab), GTK_TYPE_EVENT_BOX, NULL);
  g_assert_nonnull (s->viewer);
  s->label = GTK_LABEL (ttv_gui_test_find_widget (s->viewer, GTK_TYPE_LABEL, NULL));
  ttv_gui_test_spin_until (ttv_gui_test_no_requests, s->f.state);
  return TRUE;
}

static const char *
text (Sample *s)
{
  return gtk_label_get_text (s->label);
}

/* The sum of the "CPU n: N events in the window" lines. */
static guint64
per_cpu_total (Sample *s)
{
  g_auto (GStrv) lines = g_strsplit (text (s), "\n", -1);
  guint64 total = 0;

  for (guint i = 0; lines[i]; i++)
    {
      guint cpu;
      guint64 n;
      if (sscanf (lines[i], "CPU %u: %" G_GUINT64_FORMAT " events in the window", &cpu, &n) == 2)
        total += n;
    }
  return total;
}

static void
click (Sample *s, guint button)
{
  GdkEvent *ev = gdk_event_new (GDK_BUTTON_PRESS);
  gboolean handled = FALSE;

  ev->button.button = button;
  ev->button.window = g_object_ref (gtk_widget_get_window (s->viewer));
  g_signal_emit_by_name (s->viewer, "button-press-event", ev, &handled);
  g_assert_true (handled);
  gdk_event_free (ev);
}

/* Events counted by reading the traceset here: all, those whose name
 * holds "sched", and the time of event number @nth (from 1). */
static guint64
count (TtvTraceset *ts, guint64 *sched, guint64 nth, TtvTime *nth_time)
{
  g_autoptr (GError) error = NULL;
  TtvContext *ctx = ttv_context_new (ts, &error);
  const TtvEvent *ev;
  guint64 n = 0;

  *sched = 0;
  g_assert_true (ttv_context_seek_begin (ctx, &error));
  while ((ev = ttv_context_next (ctx, &error)))
    {
      if (++n == nth)
        *nth_time = ev->time;
      *sched += strstr (ev->type->full_name ? ev->type->full_name : ev->type->name, "sched") != NULL;
    }
  g_assert_no_error (error);
  ttv_context_free (ctx);
  return n;
}

static gboolean
paged (gpointer data)
{
  Sample *s = data;

  return strstr (text (s), (const char *) g_object_get_data (G_OBJECT (s->label), "want")) != NULL;
}

static void
test_sample (void)
{
  Sample s;
  guint64 total, sched;
  TtvTime t1000 = 0, start, end, before;
  g_autofree char *want = NULL;

  if (!sample_setup (&s))
    return;
  total = count (s.f.ts, &sched, 1000, &t1000);

  /* Registered as the page says; its summary follows the tab. */
  g_assert_nonnull (strstr (text (&s), "1 trace(s), first sample-trace"));
  want = g_strdup_printf ("%" G_GUINT64_FORMAT " events\n", total);
  g_test_message ("%s", text (&s));
  g_assert_nonnull (strstr (text (&s), want));
  g_assert_cmpuint (per_cpu_total (&s), ==, total);
  ttv_gui_test_spin_until (ttv_gui_test_history_ready, s.f.state);
  g_assert_nonnull (strstr (text (&s), "statistics of "));
  ttv_tab_state_get_time_span (s.f.state, &start, &end);
  ttv_tab_state_set_current_time (s.f.state, start + (end - start) / 2);
  g_assert_nonnull (strstr (text (&s), "CPU 0 runs "));
  /* In the current-time marker's colour (Preferences). */
  g_assert_nonnull (strstr (gtk_label_get_label (s.label), "#d91a1a"));

  /* Selection, bookmarks: shown; right click clears the selection. */
  ttv_tab_state_set_selection (s.f.state, start, start + 500000);
  g_assert_nonnull (strstr (text (&s), "selection 0.000500 s"));
  ttv_tab_state_add_bookmark (s.f.state, ttv_viewer_bookmark_new ("b", "", -1, start, start));
  g_assert_nonnull (strstr (text (&s), "1 bookmark(s)"));
  click (&s, 3);
  g_assert_false (ttv_tab_state_get_selection (s.f.state, NULL, NULL));

  /* Left clicks page 1000 events at a time from the last position. */
  ttv_tab_state_set_current_time (s.f.state, start);
  click (&s, 1);
  g_object_set_data (G_OBJECT (s.label), "want", (gpointer) "paged 1000,");
  ttv_gui_test_spin_until (paged, &s);
  click (&s, 1);
  g_assert_cmpint (ttv_tab_state_get_current_time (s.f.state), ==, t1000);
  g_object_set_data (G_OBJECT (s.label), "want", (gpointer) "paged 2000,");
  ttv_gui_test_spin_until (paged, &s);

  /* Middle click: the filter "sched"; the window counts only those. */
  click (&s, 2);
  g_assert_cmpstr (ttv_tab_state_get_filter (s.f.state), ==, "sched");
  ttv_gui_test_spin_until (ttv_gui_test_no_requests, s.f.state);
  g_assert_nonnull (strstr (text (&s), "filter “sched”"));
  g_assert_cmpuint (per_cpu_total (&s), ==, sched);
  click (&s, 2);
  g_assert_cmpstr (ttv_tab_state_get_filter (s.f.state), ==, "");
  ttv_gui_test_spin_until (ttv_gui_test_no_requests, s.f.state);
  g_assert_cmpuint (per_cpu_total (&s), ==, total);

  /* Ctrl+F: the next scheduling event, selected. */
  before = ttv_tab_state_get_current_time (s.f.state);
  ttv_tab_find (s.f.tab);
  ttv_gui_test_spin_until (ttv_gui_test_no_requests, s.f.state);
  g_assert_cmpint (ttv_tab_state_get_current_time (s.f.state), >, before);
  {
    TtvTime a, b;
    g_assert_true (ttv_tab_state_get_selection (s.f.state, &a, &b));
    g_assert_cmpint (a, ==, ttv_tab_state_get_current_time (s.f.state));
  }

  /* Closed while paging: its request is cancelled, nothing breaks. */
  click (&s, 1);
  g_assert_cmpuint (ttv_tab_state_get_n_requests (s.f.state), >, 0);
  ttv_gui_test_tab_teardown (&s.f);
  ttv_gui_test_spin_pending ();
}

int
main (int argc, char **argv)
{
  gtk_test_init (&argc, &argv, NULL);
  g_test_add_func ("/gui/sample-module", test_sample);
  return g_test_run ();
}
