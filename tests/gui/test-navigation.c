/* test-navigation.c: navigation that follows the user, under Xvfb (issue
 * 16): the time window follows the current time (End in the event list);
 * Escape and a click clear the selection, a double click in it (or Ctrl+9)
 * zooms to it; bookmarks drawn in the control flow and the histogram, and
 * next/previous bookmark; one time format everywhere: the rulers of the
 * control flow, resources and histogram and both scales of the time bar
 * follow the user's choice, and the time bar's overview lies under its own
 * labels; two traces six years apart share the width, the idle years
 * between them compressed to a mark, in the histogram too (issue 19).  Keys and clicks go to the
 * views' widgets. */
#include "ttv-config.h"

#include "ttv-gui-test-util.h"
#include "ttv-settings.h"
#include "ttv-tab-layout.h"
#include "ttv-notifications.h"
#include "ttv-tab.h"
#include "ttv-time-bar.h"
#include "ttv-time-display.h"
#include "ttv-test-util.h"
#include "ttv-viewer-registry.h"

#include <math.h>
#include <string.h>

static const char *const modules[] = { TTV_EVENTS_MODULE_PATH, TTV_TIMELINE_MODULE_PATH,
                                       TTV_HISTOGRAM_MODULE_PATH, NULL };

/* A click (or double click) at @x from the right edge of @area, low in it
 * (on the rows, right of the labels). */
static void
click (GtkWidget *area, double from_right, gboolean twice)
{
  double x = gtk_widget_get_allocated_width (area) - from_right, y = gtk_widget_get_allocated_height (area) - 8;

  ttv_gui_test_send_button (area, GDK_BUTTON_PRESS, x, y);
  ttv_gui_test_send_button (area, GDK_BUTTON_RELEASE, x, y);
  if (twice)
    {
      ttv_gui_test_send_button (area, GDK_BUTTON_PRESS, x, y);
      ttv_gui_test_send_button (area, GDK_2BUTTON_PRESS, x, y);
      ttv_gui_test_send_button (area, GDK_BUTTON_RELEASE, x, y);
    }
  ttv_gui_test_spin_pending ();
}

typedef struct {
  TtvTabState *state;
  TtvTime time;
} TimeWait;

static gboolean
current_is (gpointer data)
{
  TimeWait *w = data;
  return ttv_tab_state_get_current_time (w->state) == w->time;
}

/* End in the event list: the last event is current, and the window (a
 * tenth of the trace at its start) moves to show it, as wide. */
static void
test_follow (void)
{
  TtvGuiTestTab f;
  TtvTime start, end, w0, w1;

  if (!ttv_gui_test_tab_setup (&f, modules))
    return;
  ttv_tab_state_get_time_span (f.state, &start, &end);
  ttv_tab_state_set_time_window (f.state, start, start + (end - start) / 10);
  ttv_gui_test_spin_until (ttv_gui_test_no_requests, f.state);
  ttv_gui_test_send_key (ttv_gui_test_find_widget (ttv_gui_test_viewer (f.tab, "events"), GTK_TYPE_TREE_VIEW, NULL), GDK_KEY_End, 0);
  TimeWait w = { f.state, end };
  ttv_gui_test_spin_until (current_is, &w);
  ttv_tab_state_get_time_window (f.state, &w0, &w1);
  g_assert_cmpint (w1, ==, end);
  g_assert_cmpint (w1 - w0, ==, (end - start) / 10);
  /* Back in the middle: centred on it. */
  ttv_tab_state_set_current_time (f.state, start + (end - start) / 2);
  ttv_tab_state_get_time_window (f.state, &w0, &w1);
  g_assert_cmpint (w0 + (w1 - w0) / 2, ==, start + (end - start) / 2);
  g_assert_cmpint (w1 - w0, ==, (end - start) / 10);
  /* Inside the window: it stays. */
  ttv_tab_state_set_current_time (f.state, w0 + 1);
  TtvTime v0, v1;
  ttv_tab_state_get_time_window (f.state, &v0, &v1);
  g_assert_cmpint (v0, ==, w0);
  g_assert_cmpint (v1, ==, w1);
  ttv_gui_test_tab_teardown (&f);
}

/* Escape clears the selection; a click out of it too (setting the current
 * time); a double click in it zooms to it; so does Ctrl+9's action. */
static void
test_selection (void)
{
  TtvGuiTestTab f;
  TtvTime start, end, s0, s1, w0, w1;
  GtkWidget *area;

  if (!ttv_gui_test_tab_setup (&f, modules))
    return;
  ttv_tab_state_get_time_span (f.state, &start, &end);
  area = ttv_gui_test_find_widget (ttv_gui_test_viewer (f.tab, "controlflow"), GTK_TYPE_DRAWING_AREA, NULL);
  g_assert_nonnull (area);
  ttv_tab_state_set_selection (f.state, start, start + (end - start) / 10);
  ttv_gui_test_send_key (area, GDK_KEY_Escape, 0);
  g_assert_false (ttv_tab_state_get_selection (f.state, &s0, &s1));
  /* Escape with nothing selected: not used (FALSE), nothing breaks. */
  g_assert_false (ttv_tab_clear_selection (f.tab));

  /* A click near the right edge: out of a selection at the start. */
  ttv_tab_state_set_selection (f.state, start, start + (end - start) / 10);
  TtvTime before = ttv_tab_state_get_current_time (f.state);
  click (area, 10, FALSE);
  g_assert_false (ttv_tab_state_get_selection (f.state, &s0, &s1));
  g_assert_cmpint (ttv_tab_state_get_current_time (f.state), >, before);

  /* A double click in a selection at the end: the window becomes it. */
  ttv_tab_state_set_selection (f.state, end - (end - start) / 5, end);
  click (area, 10, TRUE);
  ttv_tab_state_get_time_window (f.state, &w0, &w1);
  g_assert_cmpint (w0, ==, end - (end - start) / 5);
  g_assert_cmpint (w1, ==, end);
  g_assert_true (ttv_tab_state_get_selection (f.state, &s0, &s1));

  /* The same in the histogram (its axis is the whole trace). */
  ttv_tab_state_set_time_window (f.state, start, end);
  GtkWidget *hist = ttv_gui_test_find_widget (ttv_gui_test_viewer (f.tab, "histogram"), GTK_TYPE_DRAWING_AREA, NULL);
  ttv_tab_state_set_selection (f.state, end - (end - start) / 4, end);
  click (hist, 3, TRUE);
  ttv_tab_state_get_time_window (f.state, &w0, &w1);
  g_assert_cmpint (w0, ==, end - (end - start) / 4);
  click (hist, gtk_widget_get_allocated_width (hist) - 3, FALSE);   /* at the start: out of it */
  g_assert_false (ttv_tab_state_get_selection (f.state, &s0, &s1));

  /* Zoom to selection (Ctrl+9): the window becomes the selection. */
  ttv_tab_state_set_time_window (f.state, start, end);
  g_assert_false (ttv_tab_zoom_to_selection (f.tab));
  ttv_tab_state_set_selection (f.state, start + 1000, start + 2000000);
  g_assert_true (ttv_tab_zoom_to_selection (f.tab));
  ttv_tab_state_get_time_window (f.state, &w0, &w1);
  g_assert_cmpint (w0, ==, start + 1000);
  g_assert_cmpint (w1, ==, start + 2000000);
  ttv_gui_test_tab_teardown (&f);
}

/* Pixels of about @rgb (#e69900: the bookmark colour) in @widget drawn. */
static guint
color_pixels (GtkWidget *widget, guint rgb)
{
  gint w = gtk_widget_get_allocated_width (widget), h = gtk_widget_get_allocated_height (widget);
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, w, h);
  cairo_t *cr = cairo_create (surface);
  guint n = 0;

  gtk_widget_draw (widget, cr);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  for (gint y = 0; y < h; y++)
    {
      const guint32 *row = (const guint32 *) (cairo_image_surface_get_data (surface)
                                              + y * cairo_image_surface_get_stride (surface));
      for (gint x = 0; x < w; x++)
        {
          guint32 p = row[x] & 0xffffff;
          gint dr = (gint) ((p >> 16) & 0xff) - (gint) ((rgb >> 16) & 0xff);
          gint dg = (gint) ((p >> 8) & 0xff) - (gint) ((rgb >> 8) & 0xff);
          gint db = (gint) (p & 0xff) - (gint) (rgb & 0xff);
          n += ABS (dr) + ABS (dg) + ABS (db) < 40;
        }
    }
  cairo_surface_destroy (surface);
  return n;
}

/* Bookmarks drawn in the control flow and the histogram; F2 / Shift+F2. */
static void
test_bookmarks (void)
{
  TtvGuiTestTab f;
  TtvTime start, end;
  GtkWidget *cf, *hist;

  if (!ttv_gui_test_tab_setup (&f, modules))
    return;
  ttv_tab_state_get_time_span (f.state, &start, &end);
  cf = ttv_gui_test_find_widget (ttv_gui_test_viewer (f.tab, "controlflow"), GTK_TYPE_DRAWING_AREA, NULL);
  hist = ttv_gui_test_find_widget (ttv_gui_test_viewer (f.tab, "histogram"), GTK_TYPE_DRAWING_AREA, NULL);
  ttv_gui_test_spin_for (200);
  guint cf_before = color_pixels (cf, 0xe69900), hist_before = color_pixels (hist, 0xe69900);
  /* (In the state only: saving them is the tab's business, and the sample
   * trace is shared by the tests.) */
  ttv_tab_state_add_bookmark (f.state, ttv_viewer_bookmark_new ("point", "", -1, start + (end - start) / 4,
                                                                start + (end - start) / 4));
  ttv_tab_state_add_bookmark (f.state, ttv_viewer_bookmark_new ("interval", "", -1, start + (end - start) / 2,
                                                                start + (end - start) * 3 / 4));
  ttv_gui_test_spin_pending ();
  guint cf_after = color_pixels (cf, 0xe69900), hist_after = color_pixels (hist, 0xe69900);
  g_test_message ("bookmark pixels: control flow %u -> %u, histogram %u -> %u", cf_before, cf_after, hist_before,
                  hist_after);
  /* Three lines (a point, an interval's two edges) the height of the rows
   * or of the histogram's strip. */
  g_assert_cmpuint (cf_after, >, cf_before + 200);
  g_assert_cmpuint (hist_after, >, hist_before + 40);

  /* Next / previous from the start. */
  TtvTabBookmarks *b = ttv_tab_get_bookmarks (f.tab);
  TtvTime s0, s1;
  ttv_tab_state_set_current_time (f.state, start);
  g_assert_true (ttv_tab_bookmarks_jump_next (b, TRUE));
  g_assert_cmpint (ttv_tab_state_get_current_time (f.state), ==, start + (end - start) / 4);
  g_assert_false (ttv_tab_state_get_selection (f.state, &s0, &s1));
  g_assert_true (ttv_tab_bookmarks_jump_next (b, TRUE));
  g_assert_cmpint (ttv_tab_state_get_current_time (f.state), ==, start + (end - start) / 2);
  g_assert_true (ttv_tab_state_get_selection (f.state, &s0, &s1));   /* the interval */
  g_assert_cmpint (s1, ==, start + (end - start) * 3 / 4);
  g_assert_false (ttv_tab_bookmarks_jump_next (b, TRUE));
  g_assert_true (ttv_tab_bookmarks_jump_next (b, FALSE));
  g_assert_cmpint (ttv_tab_state_get_current_time (f.state), ==, start + (end - start) / 4);
  g_assert_false (ttv_tab_bookmarks_jump_next (b, FALSE));
  ttv_gui_test_tab_teardown (&f);
}

/* A time typed wrong makes the Current entry red; once the current time is
 * set otherwise (a click, a key), the entry shows it, no longer red. */
static void
test_time_entry (void)
{
  TtvGuiTestTab f;
  TtvTime start, end;
  GtkWidget *entry;

  if (!ttv_gui_test_tab_setup (&f, modules))
    return;
  ttv_tab_state_get_time_span (f.state, &start, &end);
  entry = ttv_gui_test_find_widget (GTK_WIDGET (f.tab), GTK_TYPE_ENTRY, "time-bar-current");
  g_assert_nonnull (entry);
  gtk_entry_set_text (GTK_ENTRY (entry), "not a time");
  g_signal_emit_by_name (entry, "activate");
  g_assert_true (gtk_style_context_has_class (gtk_widget_get_style_context (entry), "error"));
  ttv_tab_state_set_current_time (f.state, start + 5000);
  ttv_gui_test_spin_pending ();
  g_assert_false (gtk_style_context_has_class (gtk_widget_get_style_context (entry), "error"));
  g_assert_cmpstr (gtk_entry_get_text (GTK_ENTRY (entry)), ==, "+0.000005000");
  ttv_gui_test_tab_teardown (&f);
}

/* Types @text in @entry and presses Enter ("activate", what Enter does). */
static void
type_time (GtkWidget *entry, const char *text)
{
  gtk_widget_grab_focus (entry);
  gtk_entry_set_text (GTK_ENTRY (entry), text);
  g_signal_emit_by_name (entry, "activate");
  ttv_gui_test_spin_pending ();
}

/* A time typed after the traceset's end is clamped to the end, the entry
 * shows the end, and the tab says so; a time inside it then withdraws the
 * message and the entry's tooltip is its help again, not empty. */
static void
test_time_entry_clamped (void)
{
  TtvGuiTestTab f;
  TtvTime start, end;
  GtkWidget *entry;
  TtvNotifications *notes;
  g_autofree char *help = NULL, *end_text = NULL;
  const char *said;

  if (!ttv_gui_test_tab_setup (&f, modules))
    return;
  ttv_tab_state_get_time_span (f.state, &start, &end);
  notes = ttv_tab_get_notifications (f.tab);
  entry = ttv_gui_test_find_widget (GTK_WIDGET (f.tab), GTK_TYPE_ENTRY, "time-bar-current");
  g_assert_nonnull (entry);
  help = gtk_widget_get_tooltip_text (entry);
  g_assert_nonnull (help);

  type_time (entry, "+99999");
  g_assert_cmpint (ttv_tab_state_get_current_time (f.state), ==, end);
  end_text = ttv_tab_state_format_time (f.state, end);
  g_assert_cmpstr (gtk_entry_get_text (GTK_ENTRY (entry)), ==, end_text);
  said = ttv_notifications_get_text (notes, "time-bar");
  g_assert_nonnull (said);
  g_assert_nonnull (strstr (said, "after the traceset"));
  g_assert_nonnull (strstr (said, end_text));

  type_time (entry, "+0.000005");
  g_assert_cmpint (ttv_tab_state_get_current_time (f.state), ==, start + 5000);
  g_assert_null (ttv_notifications_get_text (notes, "time-bar"));
  {
    g_autofree char *tip = gtk_widget_get_tooltip_text (entry);
    g_assert_cmpstr (tip, ==, help);
  }
  ttv_gui_test_tab_teardown (&f);
}

/* --- One time format everywhere ---------------------------------------------------- */

/* The time a ruler's @label names: "+0.25 s" and "1700000000.5" and
 * "22:13:20.25Z" (a time of day: the one closest to @near). */
static TtvTime
label_time (TtvTabState *state, const char *label, TtvTime near)
{
  g_autofree char *text = g_strdup (label);
  g_autoptr (GError) error = NULL;
  TtvTime t = 0;

  if (g_str_has_suffix (text, " s"))
    text[strlen (text) - 2] = '\0';
  if (!ttv_time_display_parse (state, text, near, &t, &error))
    g_error ("ruler label '%s' is no time in the chosen format: %s", label, error->message);
  return t;
}

/* Whether @label is written in @format: relative ones start with '+', UTC
 * ones are a time of day ending in Z (or HH:MM on clock steps), epoch ones
 * are seconds. */
static gboolean
label_in_format (const char *label, const char *format)
{
  if (strcmp (format, "relative") == 0)
    return label[0] == '+';
  if (strcmp (format, "utc") == 0)
    return g_regex_match_simple ("^[0-2][0-9]:[0-5][0-9](:[0-5][0-9](\\.[0-9]+)?Z)?$", label, 0, 0);
  return g_regex_match_simple ("^[0-9]{10}(\\.[0-9]+)?$", label, 0, 0);
}

/* Draws @widget as the screen would, into an image. */
static void
draw_widget (GtkWidget *widget)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, gtk_widget_get_allocated_width (widget),
                                                         gtk_widget_get_allocated_height (widget));
  cairo_t *cr = cairo_create (surface);

  gtk_widget_draw (widget, cr);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

static void
draw_viewer (TtvTab *tab, const char *viewer)
{
  GtkWidget *area = ttv_gui_test_find_widget (ttv_gui_test_viewer (tab, viewer), GTK_TYPE_DRAWING_AREA, NULL);

  g_assert_nonnull (area);
  draw_widget (area);
}

/* The ruler labels @viewer's drawing area wrote at its last drawing. */
static char **
ruler_labels (TtvTab *tab, const char *viewer)
{
  GtkWidget *area = ttv_gui_test_find_widget (ttv_gui_test_viewer (tab, viewer), GTK_TYPE_DRAWING_AREA, NULL);
  const char *labels;

  g_assert_nonnull (area);
  labels = g_object_get_data (G_OBJECT (area), "ttv-ruler-labels");
  return labels && *labels ? g_strsplit (labels, "\n", -1) : NULL;
}

/* Spins until @viewer's ruler has redrawn itself in @format (the format's
 * change is all that asks it to), then checks every label: in the format,
 * within [@t0, @t1]. */
static void
check_ruler (TtvGuiTestTab *f, const char *viewer, const char *format, TtvTime t0, TtvTime t1)
{
  g_auto (GStrv) labels = NULL;

  for (int i = 0; i < 100; i++)
    {
      g_clear_pointer (&labels, g_strfreev);
      labels = ruler_labels (f->tab, viewer);
      if (labels && label_in_format (labels[0], format))
        break;
      ttv_gui_test_spin_for (20);
    }
  g_assert_nonnull (labels);
  g_test_message ("%s, %s: %u labels, first '%s'", viewer, format, g_strv_length (labels), labels[0]);
  g_assert_cmpuint (g_strv_length (labels), >=, 2);
  for (guint i = 0; labels[i]; i++)
    {
      TtvTime t;

      if (!label_in_format (labels[i], format))
        g_error ("%s's ruler in the %s format says '%s'", viewer, format, labels[i]);
      t = label_time (f->state, labels[i], t0);
      g_assert_cmpint (t, >=, t0);
      g_assert_cmpint (t, <=, t1);
    }
}

/* The time bar's ticks of @scale: each label names the tick's time, in
 * @format. */
static void
check_time_bar_labels (TtvTimeBar *bar, TtvTabState *state, TtvTimeBarScale scale, const char *format)
{
  const GArray *ticks = ttv_time_bar_get_ticks (bar, scale);

  g_assert_cmpuint (ticks->len, >=, 2);
  for (guint i = 0; i < ticks->len; i++)
    {
      const TtvTimeBarTick *tick = &g_array_index (ticks, TtvTimeBarTick, i);

      g_assert_true (label_in_format (tick->label, format));
      g_assert_cmpint (label_time (state, tick->label, tick->time), ==, tick->time);
    }
}

/* A tab on the sample trace, the format relative to begin with; FALSE
 * (skipped) without the settings schema or the trace. */
static gboolean
format_tab_setup (TtvGuiTestTab *f)
{
  if (!ttv_settings_get ())
    {
      g_test_skip ("no settings schema");
      return FALSE;
    }
  g_settings_set_string (ttv_settings_get (), "time-format", "relative");
  return ttv_gui_test_tab_setup (f, modules);
}

/* Control flow, resources and histogram: their rulers follow the format
 * the user picks (they stayed relative after UTC, issue 16). */
static void
test_rulers_format (void)
{
  static const char *const formats[] = { "utc", "absolute", "relative" };
  GSettings *settings = ttv_settings_get ();
  TtvGuiTestTab f;
  TtvTime start, end, w0, w1;

  if (!format_tab_setup (&f))
    return;
  g_assert_true (ttv_tab_show_viewer (f.tab, "resources"));
  ttv_tab_state_get_time_span (f.state, &start, &end);
  w0 = start + (end - start) / 3;
  w1 = w0 + (end - start) / 50;
  ttv_tab_state_set_time_window (f.state, w0, w1);
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      g_settings_set_string (settings, "time-format", formats[i]);
      /* The views shown redraw themselves: the resources view is the
       * visible page; the control flow and the histogram are drawn here. */
      check_ruler (&f, "resources", formats[i], w0, w1);
      draw_viewer (f.tab, "controlflow");
      check_ruler (&f, "controlflow", formats[i], w0, w1);
      draw_viewer (f.tab, "histogram");
      check_ruler (&f, "histogram", formats[i], start, end);
    }
  g_settings_reset (settings, "time-format");
  ttv_gui_test_tab_teardown (&f);
}

/* The time bar: its ruler (the time window) and the overview's scale (the
 * whole traceset) in the user's format; the marks of the overview lie
 * over the overview's own labels, not the ruler's (issue 16: the window's
 * ruler sat directly on the overview, whose marks stood under the wrong
 * labels). */
static void
test_time_bar_scales (void)
{
  static const char *const formats[] = { "utc", "relative" };
  GSettings *settings = ttv_settings_get ();
  TtvGuiTestTab f;
  TtvTime start, end, w0, w1, now;
  TtvTimeBar *bar;
  GtkWidget *area;

  if (!format_tab_setup (&f))
    return;
  bar = TTV_TIME_BAR (ttv_gui_test_find_widget (GTK_WIDGET (f.tab), TTV_TYPE_TIME_BAR, NULL));
  area = ttv_gui_test_find_widget (GTK_WIDGET (bar), GTK_TYPE_DRAWING_AREA, NULL);
  ttv_tab_state_get_time_span (f.state, &start, &end);
  /* A window of a tenth of the trace, well right of its start: the ruler's
   * times and the overview's differ everywhere. */
  w0 = start + (end - start) * 6 / 10;
  w1 = start + (end - start) * 7 / 10;
  ttv_tab_state_set_time_window (f.state, w0, w1);
  now = w0 + (w1 - w0) / 3;
  ttv_tab_state_set_current_time (f.state, now);
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      double top[TTV_TIME_BAR_N_SCALES], height[TTV_TIME_BAR_N_SCALES];
      double labels_top[TTV_TIME_BAR_N_SCALES], labels_height[TTV_TIME_BAR_N_SCALES];
      double best = G_MAXDOUBLE, now_x;
      TtvTimeBarScale next_to_overview = TTV_TIME_BAR_RULER;
      const GArray *ticks;
      TtvTime before = start, after = end;

      g_settings_set_string (settings, "time-format", formats[i]);
      ttv_gui_test_spin_pending ();
      draw_widget (area);
      check_time_bar_labels (bar, f.state, TTV_TIME_BAR_RULER, formats[i]);
      check_time_bar_labels (bar, f.state, TTV_TIME_BAR_OVERVIEW, formats[i]);

      /* The labels nearest the overview strip (touching it) are its own. */
      for (guint s = 0; s < TTV_TIME_BAR_N_SCALES; s++)
        ttv_time_bar_get_strip (bar, s, &top[s], &height[s], &labels_top[s], &labels_height[s]);
      for (guint s = 0; s < TTV_TIME_BAR_N_SCALES; s++)
        {
          double o0 = top[TTV_TIME_BAR_OVERVIEW], o1 = o0 + height[TTV_TIME_BAR_OVERVIEW];
          double gap = MAX (0, MAX (labels_top[s] - o1, o0 - (labels_top[s] + labels_height[s])));

          if (gap < best || (gap == best && s == TTV_TIME_BAR_OVERVIEW))
            {
              best = gap;
              next_to_overview = s;
            }
        }
      g_assert_cmpfloat (best, <=, 1);
      /* Each of those labels stands at the overview's x of its time. */
      ticks = ttv_time_bar_get_ticks (bar, next_to_overview);
      for (guint k = 0; k < ticks->len; k++)
        {
          const TtvTimeBarTick *tick = &g_array_index (ticks, TtvTimeBarTick, k);
          double x = ttv_time_bar_time_to_x (bar, TTV_TIME_BAR_OVERVIEW, tick->time);

          if (fabs (x - tick->x) > 1)
            g_error ("%s: the label '%s' next to the overview stands at x %.1f, the overview shows its time "
                     "at x %.1f", formats[i], tick->label, tick->x, x);
        }
      /* The overview's current time mark between the labels around it. */
      now_x = ttv_time_bar_time_to_x (bar, TTV_TIME_BAR_OVERVIEW, now);
      for (guint k = 0; k < ticks->len; k++)
        {
          const TtvTimeBarTick *tick = &g_array_index (ticks, TtvTimeBarTick, k);

          if (tick->x <= now_x)
            before = label_time (f.state, tick->label, tick->time);
          else if (after == end)
            after = label_time (f.state, tick->label, tick->time);
        }
      g_assert_cmpint (before, <=, now);
      g_assert_cmpint (now, <=, after);
    }
  g_settings_reset (settings, "time-format");
  ttv_gui_test_tab_teardown (&f);
}

/* Whether the pixel at (@x, @y) of @surface is the ground of a compressed
 * gap (ttv-view-axis.c: 0.90, 0.90, 0.92). */
static gboolean
is_gap_ground (cairo_surface_t *surface, int x, int y)
{
  const guint32 *row = (const guint32 *) (cairo_image_surface_get_data (surface)
                                          + y * cairo_image_surface_get_stride (surface));
  guint r = (row[x] >> 16) & 0xff, g = (row[x] >> 8) & 0xff, b = row[x] & 0xff;

  return r >= 228 && r <= 231 && g >= 228 && g <= 231 && b >= 233 && b <= 236;
}

/* Two machines traced in 2017 and 2023 (issue 19: "+200 d" axes with both
 * traces squeezed against the edges): the time bar's overview gives both
 * traces the width at one rate and the years between them a few pixels,
 * no tick falls in those years, and the control flow marks them across
 * its rows between the two traces' drawn states. */
static void
test_time_gap (void)
{
  g_autofree char *dir = g_build_filename (ttv_test_get_tmp_dir (), "gap", NULL);
  g_autofree char *a = g_build_filename (dir, "alpha", NULL), *b = g_build_filename (dir, "beta", NULL);
  g_autoptr (GError) error = NULL;
  TtvTraceset *ts = ttv_traceset_new ();
  TtvGuiTestTab f;
  TtvTime a0, a1, b0, b1;

  ttv_test_generate_machine (TTV_GEN_PATH, a, "ctf", "alpha", "1", "2", "1500000000");
  ttv_test_generate_machine (TTV_GEN_PATH, b, "ctf", "beta", "2", "2", "1700000000");
  g_assert_true (ttv_traceset_add_path (ts, a, &error));
  g_assert_true (ttv_traceset_add_path (ts, b, &error));
  g_assert_no_error (error);
  a0 = ttv_traceset_get_trace (ts, 0)->start;
  a1 = ttv_traceset_get_trace (ts, 0)->end;
  b0 = ttv_traceset_get_trace (ts, 1)->start;
  b1 = ttv_traceset_get_trace (ts, 1)->end;
  ttv_gui_test_tab_open (&f, ts, modules);
  /* The control flow's rows come from the history, built after the
   * state: without it the bottom row scanned below is empty (a loaded
   * machine failed here). */
  ttv_gui_test_spin_until (ttv_gui_test_history_ready, f.state);
  ttv_gui_test_spin_pending ();

  TtvTimeBar *bar = TTV_TIME_BAR (ttv_gui_test_find_widget (GTK_WIDGET (f.tab), TTV_TYPE_TIME_BAR, NULL));
  draw_widget (ttv_gui_test_find_widget (GTK_WIDGET (bar), GTK_TYPE_DRAWING_AREA, NULL));
  double xa0 = ttv_time_bar_time_to_x (bar, TTV_TIME_BAR_OVERVIEW, a0);
  double xa1 = ttv_time_bar_time_to_x (bar, TTV_TIME_BAR_OVERVIEW, a1);
  double xb0 = ttv_time_bar_time_to_x (bar, TTV_TIME_BAR_OVERVIEW, b0);
  double xb1 = ttv_time_bar_time_to_x (bar, TTV_TIME_BAR_OVERVIEW, b1);
  g_test_message ("alpha at x %.1f..%.1f, beta at %.1f..%.1f", xa0, xa1, xb0, xb1);
  /* The years between in a few pixels; both traces at one rate. */
  g_assert_cmpfloat (xb0 - xa1, >, 2);
  g_assert_cmpfloat (xb0 - xa1, <=, TTV_TIME_SCALE_GAP_WIDTH + 0.5);
  g_assert_cmpfloat (fabs ((xa1 - xa0) / (double) (a1 - a0) / ((xb1 - xb0) / (double) (b1 - b0)) - 1), <, 0.01);
  /* No tick in the idle years: every tick is a time of one of the traces. */
  const GArray *ticks = ttv_time_bar_get_ticks (bar, TTV_TIME_BAR_OVERVIEW);
  g_assert_cmpuint (ticks->len, >=, 2);
  for (guint k = 0; k < ticks->len; k++)
    {
      TtvTime t = g_array_index (ticks, TtvTimeBarTick, k).time;
      g_assert_true ((t >= a0 && t <= a1) || (t >= b0 && t <= b1));
    }

  /* The control flow: the mark across the rows, states on both sides
   * (alpha's rows first, then beta's: scrolled to the end). */
  GtkWidget *viewer = ttv_gui_test_viewer (f.tab, "controlflow");
  GtkWidget *area = ttv_gui_test_find_widget (viewer, GTK_TYPE_DRAWING_AREA, NULL);
  int gap_first = -1, gap_last = -1, drawn_before = 0, drawn_after = 0;

  for (int end = 0; end < 2; end++)
    {
      if (end)
        {
          GtkRange *bar_v = GTK_RANGE (ttv_gui_test_find_widget (viewer, GTK_TYPE_SCROLLBAR, NULL));
          GtkAdjustment *adj = gtk_range_get_adjustment (bar_v);
          gtk_adjustment_set_value (adj, gtk_adjustment_get_upper (adj));
          ttv_gui_test_spin_pending ();
        }
      int w = gtk_widget_get_allocated_width (area), h = gtk_widget_get_allocated_height (area), y = h - 6;
      cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, w, h);
      cairo_t *cr = cairo_create (surface);
      const guint32 *row = (const guint32 *) (cairo_image_surface_get_data (surface)
                                              + y * cairo_image_surface_get_stride (surface));

      gtk_widget_draw (area, cr);
      cairo_destroy (cr);
      cairo_surface_flush (surface);
      gap_first = gap_last = -1;
      for (int x = 0; x < w; x++)
        if (is_gap_ground (surface, x, y))
          {
            gap_first = gap_first < 0 ? x : gap_first;
            gap_last = x;
          }
      g_test_message ("control flow %dx%d: gap ground at x %d..%d", w, h, gap_first, gap_last);
      g_assert_cmpint (gap_first, >, w / 4);
      g_assert_cmpint (gap_last - gap_first, <, (int) TTV_TIME_SCALE_GAP_WIDTH);
      for (int x = 0; x < w; x++)
        if ((row[x] & 0xffffff) != 0xffffff && !is_gap_ground (surface, x, y))
          drawn_before += !end && x < gap_first - 4 && x > w / 2 - 100;
      /* Beta's rows: its states across its part of the plot (each piece of
       * the scale queried over its own times), not piled at the end. */
      for (int x = gap_last + 4; end && x < w; x++)
        for (int yy = h / 2; yy < h; yy++)
          {
            const guint32 *r = (const guint32 *) (cairo_image_surface_get_data (surface)
                                                  + yy * cairo_image_surface_get_stride (surface));
            if ((r[x] & 0xffffff) != 0xffffff && !is_gap_ground (surface, x, yy))
              {
                drawn_after++;
                break;
              }
          }
      if (end)
        g_test_message ("beta's columns drawn: %d of %d", drawn_after, w - gap_last - 4);
      if (end)
        g_assert_cmpint (drawn_after, >=, (w - gap_last - 4) * 8 / 10);
      cairo_surface_destroy (surface);
    }
  g_assert_cmpint (drawn_before, >, 50);
  g_assert_cmpint (drawn_after, >, 5);

  /* The histogram: its bins leave the gap out, so both captures are
   * binned finely (not one bin each); every event in a column, none in the
   * gap's columns. */
  GtkWidget *hist = ttv_gui_test_viewer (f.tab, "histogram");
  guint64 n_events = ttv_tab_state_get_event_count (f.state, NULL);
  const double *cols = NULL;
  gsize n = 0;
  double sum = 0;
  g_autoptr (GVariant) v = NULL;

  g_assert_cmpuint (n_events, >, 0);
  for (int i = 0; i < 200 && (n == 0 || fabs (sum - (double) n_events) > 0.5); i++)
    {
      ttv_gui_test_spin_for (20);
      g_clear_pointer (&v, g_variant_unref);
      v = g_action_group_get_action_state (gtk_widget_get_action_group (hist, "histogram"), "column-counts");
      cols = g_variant_get_fixed_array (v, &n, sizeof (double));
      sum = 0;
      for (gsize x = 0; x < n; x++)
        sum += cols[x];
    }
  g_assert_cmpfloat (fabs (sum - (double) n_events), <=, 0.5);
  TtvTimeScale scale;
  guint busy_left = 0, busy_right = 0;
  double max_left = 0, sum_left = 0;
  ttv_tab_state_get_time_scale (f.state, a0, b1, 0, n, &scale);
  g_assert_cmpuint (scale.n_pieces, ==, 3);
  g_assert_true (scale.pieces[1].gap);
  for (gsize x = 0; x < n; x++)
    {
      if (x >= ceil (scale.pieces[1].x0) && x + 1 <= floor (scale.pieces[1].x1))
        g_assert_cmpfloat (cols[x], ==, 0);
      busy_left += x + 1 < scale.pieces[1].x0 && cols[x] > 0;
      if (x + 1 < scale.pieces[1].x0)
        {
          max_left = MAX (max_left, cols[x]);
          sum_left += cols[x];
        }
      busy_right += x > scale.pieces[1].x1 && cols[x] > 0;
    }
  g_test_message ("histogram: %zu columns, %u busy left of the gap, %u right", n, busy_left, busy_right);
  g_assert_cmpuint (busy_left, >, 100);
  g_assert_cmpuint (busy_right, >, 100);
  /* Binned finely: the columns vary (one bin spread over a capture would
   * make them all equal). */
  g_assert_cmpfloat (max_left, >, 3 * sum_left / busy_left);
  ttv_gui_test_tab_teardown (&f);
}

/* The histogram's event types, one of them named with a byte that is not
 * UTF-8 (the generated trace's "trap_entry" spoiled in its metadata): the
 * combo's labels are valid UTF-8 (the byte as U+FFFD), the type is chosen
 * by its name as the trace has it and counted, and drawing the combo with
 * it warns of nothing (a warning fails the test). */
static void
test_histogram_type_not_utf8 (void)
{
  g_autofree char *trace = g_build_filename (ttv_test_get_tmp_dir (), "type-not-utf8", NULL);
  const char *gen[] = { TTV_GEN_PATH, "-q", "-f", "ctf", "--cpus", "2", "--events", "20000", "-o", trace, NULL };
  const char *spoiled = "trap\xff" "entry";
  TtvGuiTestTab f;

  g_free (ttv_test_run_ok (gen));
  ttv_gui_test_spoil_metadata_value (trace, "name", "trap_entry", 4);
  ttv_gui_test_tab_setup_path (&f, trace, modules);
  GtkWidget *hist = ttv_gui_test_viewer (f.tab, "histogram");
  g_assert_nonnull (hist);
  GtkComboBox *combo = GTK_COMBO_BOX (ttv_gui_test_find_widget (hist, GTK_TYPE_COMBO_BOX_TEXT, NULL));
  /* The types come with the density pass. */
  for (int i = 0; i < 500 && !gtk_combo_box_set_active_id (combo, spoiled); i++)
    ttv_gui_test_spin_for (20);
  g_assert_cmpstr (gtk_combo_box_get_active_id (combo), ==, spoiled);
  g_autofree char *label = gtk_combo_box_text_get_active_text (GTK_COMBO_BOX_TEXT (combo));
  g_assert_cmpstr (label, ==, "trap\xef\xbf\xbd" "entry");
  GtkTreeModel *model = gtk_combo_box_get_model (combo);
  GtkTreeIter iter;
  guint n_types = 0;
  for (gboolean ok = gtk_tree_model_get_iter_first (model, &iter); ok; ok = gtk_tree_model_iter_next (model, &iter))
    {
      g_autofree char *text = NULL;
      gtk_tree_model_get (model, &iter, gtk_combo_box_get_entry_text_column (combo), &text, -1);
      g_assert_true (g_utf8_validate (text, -1, NULL));
      n_types++;
    }
  g_assert_cmpuint (n_types, >, 2);
  /* The chosen type's events counted (a name that matched nothing would
   * count none). */
  double sum = 0;
  for (int i = 0; i < 200 && sum == 0; i++)
    {
      ttv_gui_test_spin_for (20);
      g_autoptr (GVariant) v = g_action_group_get_action_state (gtk_widget_get_action_group (hist, "histogram"),
                                                                "column-counts");
      gsize n = 0;
      const double *cols = g_variant_get_fixed_array (v, &n, sizeof (double));
      sum = 0;
      for (gsize x = 0; x < n; x++)
        sum += cols[x];
    }
  g_test_message ("%u types; %.0f events of the spoiled one", n_types, sum);
  g_assert_cmpfloat (sum, >, 0);
  g_assert_cmpfloat (sum, <, (double) ttv_tab_state_get_event_count (f.state, NULL));
  draw_widget (GTK_WIDGET (combo));
  ttv_gui_test_tab_teardown (&f);
}

int
main (int argc, char **argv)
{
  gtk_test_init (&argc, &argv, NULL);
  g_test_add_func ("/gui/navigation/follow", test_follow);
  g_test_add_func ("/gui/navigation/selection", test_selection);
  g_test_add_func ("/gui/navigation/bookmarks", test_bookmarks);
  g_test_add_func ("/gui/navigation/time-entry", test_time_entry);
  g_test_add_func ("/gui/navigation/time-entry-clamped", test_time_entry_clamped);
  g_test_add_func ("/gui/navigation/rulers-format", test_rulers_format);
  g_test_add_func ("/gui/navigation/time-bar-scales", test_time_bar_scales);
  g_test_add_func ("/gui/navigation/time-gap", test_time_gap);
  g_test_add_func ("/gui/navigation/histogram-type-not-utf8", test_histogram_type_not_utf8);
  return g_test_run ();
}
