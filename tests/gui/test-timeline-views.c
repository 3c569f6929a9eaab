/* test-timeline-views.c: what the analysis views show, checked against the
 * state history and the raw events under Xvfb: the time line widget
 * (compiled in) in a real window: Ctrl+wheel zooms in and out around the
 * pointer, tooltips give the interval under the pointer, wakeup arrows
 * appear zoomed in and not zoomed out, IRQ activity and short runs show at
 * whole-trace zoom as the history's intervals say, the CPUs' idle tasks
 * draw CPU idle only, an export draws the rows as scrolled, lost events in
 * the legend and tooltip; the ruler's ticks; the histogram
 * module's columns add up to the events counted from the trace, and
 * `ttv --render histogram` draws bars over (nearly) every column.  The
 * widget is compiled in: this process must not load the time-line module,
 * which registers the same type (test-timeline.c drives that module). */
#include "ttv-config.h"

#include "ttv-context.h"
#include "ttv-gui-test-util.h"
#include "ttv-history-pass.h"
#include "ttv-settings.h"
#include "ttv-viewer-history.h"
#include "ttv-indexer.h"
#include "ttv-history.h"
#include "ttv-tab-state-private.h"
#include "ttv-test-util.h"
#include "ttv-timeline-test-util.h"
#include "ttv-timeline.h"
#include "ttv-view-axis.h"
#include "ttv-viewer-registry.h"

#include <cairo.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#define MAX_HEADER (4 * TTV_TIMELINE_LEGEND_LINE + TTV_TIMELINE_RULER_HEIGHT)

/* One tab state on the sample trace with its history (built here, no
 * cache) and density (the first read), shared by the tests. */
typedef struct {
  TtvTraceset *ts;
  TtvTabState *state;
  TtvHistory *history;    /* weak: the state owns it */
  TtvViewerHistory *vh;        /* owned */
} Sample;

static Sample sample;

static gboolean
sample_setup (void)
{
  g_autoptr (GError) error = NULL;
  TtvHistoryOptions opt = { .no_cache = TRUE };
  g_autoptr (TtvIndexResult) index = NULL;

  if (sample.state)
    return TRUE;
  sample.ts = ttv_gui_test_open_sample ();
  if (!sample.ts)
    {
      g_test_skip ("TTV_SAMPLE_TRACE is not set: no sample trace");
      return FALSE;
    }
  sample.state = ttv_tab_state_new (sample.ts);
  sample.history = ttv_history_build (sample.ts, &opt, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  ttv_tab_state_set_history (sample.state, sample.history);
  sample.vh = ttv_tab_state_dup_history (sample.state);
  index = ttv_indexer_run (sample.ts, TTV_INDEXER_DENSITY_BINS, NULL, &error);
  g_assert_no_error (error);
  ttv_tab_state_set_density (sample.state, index->n_events, g_steal_pointer (&index->density),
                             g_steal_pointer (&index->type_density), &index->bins);
  return TRUE;
}

static void
sample_teardown (void)
{
  if (!sample.state)
    return;
  ttv_viewer_history_unref (sample.vh);
  ttv_tab_state_shutdown (sample.state);
  g_object_unref (sample.state);
  ttv_traceset_unref (sample.ts);
}

static const TtvHistory *
H (void)
{
  return sample.history;
}

static void
span (TtvTime *t0, TtvTime *t1)
{
  ttv_tab_state_get_time_span (sample.state, t0, t1);
}

/* --- Pixels ---------------------------------------------------------------- */

static guint32
palette_rgb (TtvPaletteColor c)
{
  GdkRGBA rgba;

  ttv_palette_get_rgba (NULL, c, &rgba);
  return ((guint32) (rgba.red * 255 + 0.5) << 16) | ((guint32) (rgba.green * 255 + 0.5) << 8)
         | (guint32) (rgba.blue * 255 + 0.5);
}

/* Colours within @tol per channel (anti-aliased lines). */
static gboolean
near_color (guint32 a, guint32 b, guint tol)
{
  for (guint shift = 0; shift < 24; shift += 8)
    if ((guint) ABS ((gint) ((a >> shift) & 0xff) - (gint) ((b >> shift) & 0xff)) > tol)
      return FALSE;
  return TRUE;
}

/* --- A time line of chosen rows, in a window --------------------------------- */

typedef struct {
  GtkWidget *window;
  TtvTimeline *timeline;
  GSimpleActionGroup *actions;
  GtkWidget *area;
} View;

static const TtvPaletteColor all_states[] = {
  TTV_PALETTE_RUN_USER, TTV_PALETTE_BLOCKED, TTV_PALETTE_CPU_IDLE, TTV_PALETTE_MIXED, TTV_PALETTE_WAKEUP,
};

/* Every row of @kind, in the history's order. */
static GPtrArray *
rows_of (TtvHistoryRowKind kind)
{
  GPtrArray *rows = g_ptr_array_new_with_free_func ((GDestroyNotify) ttv_timeline_row_free);

  for (guint i = 0; i < ttv_history_get_n_rows (H (), kind); i++)
    {
      g_autofree char *label = g_strdup_printf ("row %u", i);

      g_ptr_array_add (rows, ttv_timeline_row_new ((TtvViewerRowKind) kind, i, label));
    }
  return rows;
}

static gboolean
is_allocated (gpointer data)
{
  View *v = data;

  return gtk_widget_get_allocated_width (v->area) > 100;
}

static void
view_open (View *v, TtvHistoryRowKind kind, int width, int height)
{
  v->timeline = TTV_TIMELINE (ttv_timeline_new (sample.state, all_states, G_N_ELEMENTS (all_states)));
  v->actions = g_simple_action_group_new ();
  ttv_timeline_add_actions (v->timeline, G_ACTION_MAP (v->actions));
  ttv_timeline_set_history (v->timeline, sample.vh);
  ttv_timeline_set_rows (v->timeline, rows_of (kind));
  v->window = gtk_window_new (GTK_WINDOW_TOPLEVEL);
  gtk_window_set_default_size (GTK_WINDOW (v->window), width, height);
  gtk_container_add (GTK_CONTAINER (v->window), GTK_WIDGET (v->timeline));
  gtk_widget_show_all (v->window);
  v->area = ttv_gui_test_find_widget (GTK_WIDGET (v->timeline), GTK_TYPE_DRAWING_AREA, NULL);
  g_assert_nonnull (v->area);
  ttv_gui_test_spin_until (is_allocated, v);
  ttv_gui_test_spin_pending ();
}

static void
view_close (View *v)
{
  gtk_widget_destroy (v->window);
  g_object_unref (v->actions);
}

static cairo_surface_t *
view_render (View *v, int width, int height)
{
  g_autofree char *png = g_build_filename (ttv_test_get_tmp_dir (), "view.png", NULL);
  g_autoptr (GError) error = NULL;
  cairo_surface_t *s;

  g_assert_true (ttv_timeline_render (v->timeline, png, width, height, &error));
  g_assert_no_error (error);
  s = ttv_test_load_png (png);
  g_unlink (png);
  return s;
}

/* The x of @t in a drawing of @width with the label area's width. */
static double
x_of (View *v, int width, TtvTime t0, TtvTime t1, TtvTime t)
{
  double label = ttv_timeline_get_label_width (v->timeline);

  return label + (double) (t - t0) / (double) (t1 - t0) * floor (width - label);
}

/* --- The ruler's ticks ------------------------------------------------------- */

/* The ruler's labels when drawn over [@t0, @t1] (from @origin) in @width
 * pixels, one a line. */
static char *
ruler_text (TtvTime origin, TtvTime t0, TtvTime t1, double width)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, (int) width, 24);
  cairo_t *cr = cairo_create (surface);
  GString *labels = g_string_new (NULL);

  ttv_view_axis_draw_time (cr, 0, 0, width, 24, origin, t0, t1, labels);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  return g_string_free (labels, FALSE);
}

static void
test_ruler (void)
{
  static const struct {
    const char *format;
    TtvTime t0, t1;
    double width;
    const char *labels;
  } rulers[] = {
    /* Half a second from the start: round steps from the start, 60 pixels
     * apart for short labels, more for longer ones. */
    { "relative", 1700000000000000000, 1700000000500000000, 600,
      "+0.00 s\n+0.05 s\n+0.10 s\n+0.15 s\n+0.20 s\n+0.25 s\n+0.30 s\n+0.35 s\n+0.40 s\n+0.45 s" },
    { "utc", 1700000000000000000, 1700000000500000000, 600,
      "22:13:20.0Z\n22:13:20.1Z\n22:13:20.2Z\n22:13:20.3Z\n22:13:20.4Z" },
    { "absolute", 1700000000000000000, 1700000000500000000, 600,
      "1700000000.0\n1700000000.1\n1700000000.2\n1700000000.3\n1700000000.4" },
    /* Ten minutes in UTC: clock steps on round minutes (the last one's
     * label would not fit). */
    { "utc", 1700000000000000000, 1700000600000000000, 600,
      "22:14\n22:15\n22:16\n22:17\n22:18\n22:19\n22:20\n22:21\n22:22" },
  };
  static const struct {
    double raw;
    guint64 step;
  } steps[] = { { 0.5, 1 }, { 1.2, 2 }, { 3, 5 }, { 7, 10 }, { 10, 10 }, { 4.1e8, 5e8 }, { 1.9e6, 2e6 } };

  GSettings *settings = ttv_settings_get ();

  /* The ruler in the user's format (as the time bar): it stayed relative
   * after the user chose UTC (issue 16). */
  for (guint i = 0; settings && i < G_N_ELEMENTS (rulers); i++)
    {
      g_autofree char *text = NULL;

      g_settings_set_string (settings, "time-format", rulers[i].format);
      text = ruler_text (1700000000000000000, rulers[i].t0, rulers[i].t1, rulers[i].width);
      g_assert_cmpstr (text, ==, rulers[i].labels);
    }
  if (settings)
    g_settings_reset (settings, "time-format");
  for (guint i = 0; i < G_N_ELEMENTS (steps); i++)
    g_assert_cmpuint (ttv_view_axis_nice_step (steps[i].raw), ==, steps[i].step);
  {
    g_autofree char *a = ttv_viewer_format_duration (0);
    g_autofree char *b = ttv_viewer_format_duration (12500);
    g_autofree char *c = ttv_viewer_format_duration (1500000000);

    g_assert_cmpstr (a, ==, "0 ns");
    g_assert_cmpstr (b, ==, "12.50 µs");
    g_assert_cmpstr (c, ==, "1.500 s");
  }
}

/* --- Zoom and pan --------------------------------------------------------------- */

/* Sends @ev (fields of its type set by the caller) to the area, as the
 * pointer would; frees it. */
static void
send (View *v, GdkEvent *ev)
{
  ev->any.window = g_object_ref (gtk_widget_get_window (v->area));
  ev->any.send_event = TRUE;
  gdk_event_set_device (ev, gdk_seat_get_pointer (gdk_display_get_default_seat (gdk_display_get_default ())));
  gtk_widget_event (v->area, ev);
  gdk_event_free (ev);
}

static void
send_scroll (View *v, double x, double y, GdkScrollDirection dir, GdkModifierType state)
{
  GdkEvent *ev = gdk_event_new (GDK_SCROLL);

  ev->scroll.x = x;
  ev->scroll.y = y;
  ev->scroll.direction = dir;
  ev->scroll.state = state;
  send (v, ev);
}

static void
send_button (View *v, GdkEventType type, double x, double y, guint button)
{
  GdkEvent *ev = gdk_event_new (type);

  ev->button.x = x;
  ev->button.y = y;
  ev->button.button = button;
  send (v, ev);
}

static void
send_motion (View *v, double x, double y)
{
  GdkEvent *ev = gdk_event_new (GDK_MOTION_NOTIFY);

  ev->motion.x = x;
  ev->motion.y = y;
  ev->motion.state = GDK_BUTTON1_MASK;
  send (v, ev);
}

/* The time at @x of the area, from the window (not the widget's code). */
static double
time_at (View *v, double x)
{
  TtvTime t0, t1;
  double label = ttv_timeline_get_label_width (v->timeline);
  double plot = floor (gtk_widget_get_allocated_width (v->area) - label);

  ttv_tab_state_get_time_window (sample.state, &t0, &t1);
  return (double) t0 + (x - label) / plot * (double) (t1 - t0);
}

static void
test_zoom (void)
{
  View v = { 0 };
  TtvTime s0, s1, t0, t1, a0, a1;
  double x, y, before, ns_per_px;

  if (!sample_setup ())
    return;
  view_open (&v, TTV_HISTORY_ROW_PROCESS, 1000, 500);
  span (&s0, &s1);
  ttv_tab_state_set_time_window (sample.state, s0 + (s1 - s0) / 4, s0 + (s1 - s0) / 2);
  x = ttv_timeline_get_label_width (v.timeline) + 200;
  y = ttv_timeline_get_header_height (v.timeline) + 30;
  for (guint step = 0; step < 3; step++)
    {
      ttv_tab_state_get_time_window (sample.state, &t0, &t1);
      before = time_at (&v, x);
      ns_per_px = (double) (t1 - t0) / (gtk_widget_get_allocated_width (v.area) - ttv_timeline_get_label_width (v.timeline));
      /* Ctrl+wheel up: zoom in, the time under the pointer stays there. */
      send_scroll (&v, x, y, GDK_SCROLL_UP, GDK_CONTROL_MASK);
      ttv_tab_state_get_time_window (sample.state, &a0, &a1);
      g_test_message ("zoom in: %" G_GINT64_FORMAT " -> %" G_GINT64_FORMAT " ns", t1 - t0, a1 - a0);
      g_assert_cmpfloat (fabs ((double) (a1 - a0) - 0.8 * (double) (t1 - t0)), <=, 2);
      g_assert_cmpint (a0, >, t0);
      g_assert_cmpint (a1, <, t1);
      g_assert_cmpfloat (fabs (time_at (&v, x) - before), <=, ns_per_px);
    }
  /* Ctrl+wheel down: out again, by 1.25. */
  ttv_tab_state_get_time_window (sample.state, &t0, &t1);
  before = time_at (&v, x);
  send_scroll (&v, x, y, GDK_SCROLL_DOWN, GDK_CONTROL_MASK);
  ttv_tab_state_get_time_window (sample.state, &a0, &a1);
  g_assert_cmpfloat (fabs ((double) (a1 - a0) - 1.25 * (double) (t1 - t0)), <=, 2);
  g_assert_cmpint (a0, <, t0);
  g_assert_cmpfloat (fabs (time_at (&v, x) - before), <=, (double) (a1 - a0) / 500);
  /* Shift+wheel down: a tenth of the window later, same width. */
  ttv_tab_state_get_time_window (sample.state, &t0, &t1);
  send_scroll (&v, x, y, GDK_SCROLL_DOWN, GDK_SHIFT_MASK);
  ttv_tab_state_get_time_window (sample.state, &a0, &a1);
  g_assert_cmpint (a0 - t0, ==, (t1 - t0) / 10);
  g_assert_cmpint (a1 - a0, ==, t1 - t0);
  /* A left drag of 100 px to the left pans 100 px later in time. */
  ttv_tab_state_get_time_window (sample.state, &t0, &t1);
  ns_per_px = (double) (t1 - t0) / (gtk_widget_get_allocated_width (v.area) - ttv_timeline_get_label_width (v.timeline));
  send_button (&v, GDK_BUTTON_PRESS, x + 100, y, 1);
  send_motion (&v, x + 50, y);
  send_motion (&v, x, y);
  send_button (&v, GDK_BUTTON_RELEASE, x, y, 1);
  ttv_tab_state_get_time_window (sample.state, &a0, &a1);
  g_assert_cmpfloat (fabs ((double) (a0 - t0) - 100 * ns_per_px), <=, ns_per_px);
  /* A click sets the current time under the pointer. */
  send_button (&v, GDK_BUTTON_PRESS, x, y, 1);
  send_button (&v, GDK_BUTTON_RELEASE, x, y, 1);
  g_assert_cmpfloat (fabs ((double) ttv_tab_state_get_current_time (sample.state) - time_at (&v, x)), <=, ns_per_px);
  /* Dragging the label area's edge resizes it. */
  {
    double label = ttv_timeline_get_label_width (v.timeline);

    send_button (&v, GDK_BUTTON_PRESS, label, y, 1);
    send_motion (&v, label + 60, y);
    send_button (&v, GDK_BUTTON_RELEASE, label + 60, y, 1);
    g_assert_cmpfloat (ttv_timeline_get_label_width (v.timeline), ==, label + 60);
  }
  ttv_tab_state_set_time_window (sample.state, s0, s1);
  view_close (&v);
}

/* --- Tooltips ---------------------------------------------------------------------- */

static gboolean
find_interval (guint low, TtvExecMode mode, guint *row, TtvHistoryInterval *out)
{
  return ttv_test_find_interval (H (), low, mode, row, out);
}

static gboolean
has_exec (guint row)
{
  const TtvHistoryRowInfo *info = ttv_history_get_row (H (), TTV_HISTORY_ROW_PROCESS, row);
  g_autoptr (GArray) marks = ttv_history_query_marks (H (), row, info->birth, info->end);

  for (guint m = 0; marks && m < marks->len; m++)
    if (g_array_index (marks, TtvHistoryMark, m).kind == TTV_HISTORY_MARK_EXEC)
      return TRUE;
  return FALSE;
}

/* "+S.NNNNNNNNN" (the default time format, as every view writes times),
 * written here from the number. */
static char *
relative (TtvTime t, TtvTime origin)
{
  return g_strdup_printf ("+%" G_GINT64_FORMAT ".%09" G_GINT64_FORMAT, (t - origin) / 1000000000,
                          (t - origin) % 1000000000);
}

static char *
tooltip_in (View *v, guint display_row, TtvTime t)
{
  TtvTime t0, t1;
  double x, y;

  ttv_tab_state_get_time_window (sample.state, &t0, &t1);
  x = x_of (v, gtk_widget_get_allocated_width (v->area), t0, t1, t) + 0.5;
  y = ttv_timeline_get_header_height (v->timeline) + display_row * TTV_TIMELINE_ROW_HEIGHT
      + TTV_TIMELINE_ROW_HEIGHT / 2.0;
  return ttv_timeline_dup_tooltip (v->timeline, x, y);
}

static void
test_tooltips (void)
{
  View v = { 0 };
  TtvHistoryInterval iv;
  guint row = 0;
  TtvTime s0, s1, len;
  const TtvHistoryRowInfo *info;

  if (!sample_setup ())
    return;
  span (&s0, &s1);
  view_open (&v, TTV_HISTORY_ROW_PROCESS, 1000, 300);
  /* A user-mode run: state, start and duration, PID. */
  g_assert_true (find_interval (TTV_PROCESS_RUN, TTV_MODE_USER, &row, &iv));
  info = ttv_history_get_row (H (), TTV_HISTORY_ROW_PROCESS, row);
  len = iv.end - iv.start;
  ttv_tab_state_set_time_window (sample.state, iv.start - len, iv.end + len);
  gtk_adjustment_set_value (gtk_range_get_adjustment (GTK_RANGE (ttv_gui_test_find_widget (GTK_WIDGET (v.timeline), GTK_TYPE_SCROLLBAR, NULL))),
                            row * TTV_TIMELINE_ROW_HEIGHT);
  {
    double scroll = gtk_adjustment_get_value (gtk_range_get_adjustment (GTK_RANGE (ttv_gui_test_find_widget (GTK_WIDGET (v.timeline), GTK_TYPE_SCROLLBAR, NULL))));
    guint shown = row - (guint) (scroll / TTV_TIMELINE_ROW_HEIGHT);
    g_autofree char *text = tooltip_in (&v, shown, iv.start + len / 2);
    g_autofree char *from = relative (iv.start, s0);
    g_autofree char *pid = g_strdup_printf ("PID %u, TGID %u", info->id, info->tgid);
    g_autofree char *label = g_strdup_printf ("row %u", row);

    g_test_message ("tooltip: %s", text);
    g_assert_nonnull (text);
    g_assert_true (g_str_has_prefix (text, label));
    g_assert_nonnull (strstr (text, ttv_palette_get_label (TTV_PALETTE_RUN_USER)));
    g_assert_nonnull (strstr (text, from));
    g_assert_nonnull (strstr (text, pid));
    g_assert_nonnull (strstr (text, "\nTime +"));
  }
  /* A system call: its name; a duration in µs or ms. */
  if (find_interval (TTV_PROCESS_RUN, TTV_MODE_SYSCALL, &row, &iv) && iv.aux != TTV_PID_NONE)
    {
      const char *name = g_quark_to_string (iv.aux);
      g_autofree char *text = NULL;
      g_autofree char *from = relative (iv.start, s0);

      len = iv.end - iv.start;
      ttv_tab_state_set_time_window (sample.state, iv.start - len, iv.end + len);
      gtk_adjustment_set_value (gtk_range_get_adjustment (GTK_RANGE (ttv_gui_test_find_widget (GTK_WIDGET (v.timeline), GTK_TYPE_SCROLLBAR, NULL))),
                                row * TTV_TIMELINE_ROW_HEIGHT);
      text = tooltip_in (&v, row - (guint) (gtk_adjustment_get_value (gtk_range_get_adjustment (GTK_RANGE (ttv_gui_test_find_widget (GTK_WIDGET (v.timeline), GTK_TYPE_SCROLLBAR, NULL)))) / TTV_TIMELINE_ROW_HEIGHT),
                         iv.start + len / 2);
      g_test_message ("tooltip: %s", text);
      g_assert_nonnull (strstr (text, ttv_palette_get_label (TTV_PALETTE_RUN_SYSCALL)));
      if (name)
        {
          g_autofree char *paren = g_strdup_printf ("(%s)", name);
          g_assert_nonnull (strstr (text, paren));
        }
      g_assert_nonnull (strstr (text, from));
    }
  ttv_tab_state_set_time_window (sample.state, s0, s1);
  view_close (&v);

  /* A CPU row: the running task by name and PID. */
  view_open (&v, TTV_HISTORY_ROW_CPU, 1000, 300);
  {
    g_autoptr (GArray) ivs = ttv_history_query_intervals (H (), TTV_HISTORY_ROW_CPU, 0, s0, s1);
    const TtvHistoryInterval *busy = NULL;

    for (guint i = 0; i < ivs->len && !busy; i++)
      {
        const TtvHistoryInterval *c = &g_array_index (ivs, TtvHistoryInterval, i);

        gint prow;

        if (ttv_history_state_low (c->state) != TTV_HISTORY_CPU_BUSY || c->aux == TTV_PID_NONE || c->aux == 0
            || c->end - c->start < 1000)
          continue;
        /* A task that never changes its name: the name is its row's. */
        prow = ttv_history_find_row (H (), TTV_HISTORY_ROW_PROCESS, 0, c->aux, -1, c->start);
        if (prow >= 0 && !has_exec ((guint) prow))
          busy = c;
      }
    g_assert_nonnull (busy);
    len = busy->end - busy->start;
    ttv_tab_state_set_time_window (sample.state, busy->start - len, busy->end + len);
    {
      g_autofree char *text = tooltip_in (&v, 0, busy->start + len / 2);
      gint prow = ttv_history_find_row (H (), TTV_HISTORY_ROW_PROCESS, 0, busy->aux, -1, busy->start);
      g_autofree char *pid = g_strdup_printf ("\nRunning %s (PID %u)",
                                              ttv_history_get_row (H (), TTV_HISTORY_ROW_PROCESS, prow)->name,
                                              busy->aux);

      g_test_message ("tooltip: %s", text);
      g_assert_nonnull (strstr (text, pid));
    }
  }
  ttv_tab_state_set_time_window (sample.state, s0, s1);
  view_close (&v);
}

/* A column title longer than its width (French "Temps processeur" in 72
 * px) widens the column: its text and sort arrow fit, not cut. */
static void
test_column_titles_fit (void)
{
  const TtvTimelineColumn columns[] = {
    { "Nom", 100, FALSE }, { "PID", 50, TRUE }, { "Temps processeur", 72, TRUE },
  };
  View v = { 0 };
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_A8, 1, 1);
  cairo_t *cr = cairo_create (surface);
  cairo_text_extents_t ext;

  if (!sample_setup ())
    {
      cairo_destroy (cr);
      cairo_surface_destroy (surface);
      return;
    }
  cairo_set_font_size (cr, 10);
  cairo_text_extents (cr, "Temps processeur ▼", &ext);
  view_open (&v, TTV_HISTORY_ROW_PROCESS, 1000, 300);
  ttv_timeline_set_columns (v.timeline, columns, G_N_ELEMENTS (columns));
  ttv_timeline_set_sort_column (v.timeline, 2, TRUE);
  g_assert_cmpfloat (ttv_timeline_get_column_width (v.timeline, 2), >=, ext.x_advance + 8);
  g_assert_cmpfloat (ttv_timeline_get_column_width (v.timeline, 1), ==, 50);   /* fits: kept */
  view_close (&v);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

/* A wakeup by PID 0 (an interrupt on an idle CPU): the tooltip names the
 * idle CPU, not "? (PID 0)". */
static void
test_idle_wakeup_tooltip (void)
{
  View v = { 0 };
  TtvTime s0, s1;
  guint n, tested = 0;

  if (!sample_setup ())
    return;
  span (&s0, &s1);
  n = ttv_history_get_n_rows (H (), TTV_HISTORY_ROW_PROCESS);
  view_open (&v, TTV_HISTORY_ROW_PROCESS, 1000, 300);
  for (guint r = 0; r < n && tested < 3; r++)
    {
      const TtvHistoryRowInfo *info = ttv_history_get_row (H (), TTV_HISTORY_ROW_PROCESS, r);
      g_autoptr (GArray) marks = ttv_history_query_marks (H (), r, info->birth, info->end);

      for (guint m = 0; marks && m < marks->len && tested < 3; m++)
        {
          const TtvHistoryMark *mk = &g_array_index (marks, TtvHistoryMark, m);
          GtkAdjustment *adj;
          g_autofree char *text = NULL, *idle = NULL;

          /* Alone within a few µs, so that the tooltip shows this one. */
          if (mk->kind != TTV_HISTORY_MARK_WAKEUP || mk->other != 0
              || (m > 0 && mk->time - g_array_index (marks, TtvHistoryMark, m - 1).time < 20000)
              || (m + 1 < marks->len && g_array_index (marks, TtvHistoryMark, m + 1).time - mk->time < 20000))
            continue;
          g_assert_cmpint (mk->cpu, >=, 0);
          ttv_tab_state_set_time_window (sample.state, MAX (s0, mk->time - 50000), MIN (s1, mk->time + 50000));
          adj = gtk_range_get_adjustment (GTK_RANGE (ttv_gui_test_find_widget (GTK_WIDGET (v.timeline), GTK_TYPE_SCROLLBAR, NULL)));
          gtk_adjustment_set_value (adj, r * TTV_TIMELINE_ROW_HEIGHT);
          text = tooltip_in (&v, r - (guint) (gtk_adjustment_get_value (adj) / TTV_TIMELINE_ROW_HEIGHT), mk->time);
          g_test_message ("tooltip: %s", text);
          idle = g_strdup_printf ("Woken up from idle on CPU %d (by an interrupt) at ", mk->cpu);
          g_assert_nonnull (text);
          g_assert_nonnull (strstr (text, idle));
          g_assert_null (strstr (text, "(PID 0)"));
          tested++;
        }
    }
  g_assert_cmpuint (tested, >, 0);
  ttv_tab_state_set_time_window (sample.state, s0, s1);
  view_close (&v);
}

/* --- Wakeup arrows ---------------------------------------------------------------- */

/* The first row of @pid (the view lists the history's rows in order and
 * draws arrows from a pid's first row). */
static gint
first_row_of_pid (guint32 pid)
{
  for (guint r = 0; r < ttv_history_get_n_rows (H (), TTV_HISTORY_ROW_PROCESS); r++)
    if (ttv_history_get_row (H (), TTV_HISTORY_ROW_PROCESS, r)->id == pid)
      return (gint) r;
  return -1;
}

/* The first run of @row from @t: its start, -1 when none. */
static TtvTime
run_after (guint row, TtvTime t)
{
  g_autoptr (GArray) ivs = ttv_history_query_intervals (H (), TTV_HISTORY_ROW_PROCESS, row, t, G_MAXINT64);

  for (guint i = 0; i < ivs->len; i++)
    {
      const TtvHistoryInterval *iv = &g_array_index (ivs, TtvHistoryInterval, i);

      if (ttv_history_state_low (iv->state) == TTV_PROCESS_RUN)
        return MAX (iv->start, t);
    }
  return -1;
}

/* A pixel of the wakeup colour (teal, #0097a7 by default), blended by
 * anti-aliasing with what is under it: no red, green and blue alike (not
 * the system call blue, not the states' greens, lavender or white). */
static gboolean
is_teal (guint32 p)
{
  int r = (p >> 16) & 0xff, g = (p >> 8) & 0xff, b = p & 0xff;

  return g - r > 50 && b - r > 50 && g > 0.8 * b;
}

/* Whether the line from (x0, y0) to (x1, y1) is drawn around its quarter,
 * half and three-quarter points. */
static guint
points_on_line (cairo_surface_t *s, double x0, double y0, double x1, double y1)
{
  guint found = 0;

  for (guint k = 1; k <= 3; k++)
    {
      int cx = (int) (x0 + (x1 - x0) * k / 4), cy = (int) (y0 + (y1 - y0) * k / 4);
      gboolean hit = FALSE;

      for (int dx = -1; dx <= 1 && !hit; dx++)
        for (int dy = -1; dy <= 1 && !hit; dy++)
          hit = is_teal (ttv_test_pixel (s, cx + dx, cy + dy));
      found += hit;
    }
  return found;
}

/* Task names on CPU rows: every busy interval wide enough holds its task's
 * name, whatever the rest of the trace is like (a whole-trace average of
 * the CPU's intervals decided before, and a long run among many short ones
 * stayed unnamed); zoomed out, a bounded number of names. */
static void
test_cpu_names (void)
{
  View v = { 0 };
  TtvTime s0, s1;
  guint n, tested = 0;
  int width = 1400, height;

  if (!sample_setup ())
    return;
  n = ttv_history_get_n_rows (H (), TTV_HISTORY_ROW_CPU);
  height = MAX_HEADER + (int) n * TTV_TIMELINE_ROW_HEIGHT + 10;
  span (&s0, &s1);
  view_open (&v, TTV_HISTORY_ROW_CPU, 1000, 300);
  ttv_tab_state_set_time_window (sample.state, s0, s1);
  cairo_surface_destroy (view_render (&v, width, height));
  g_assert_cmpuint (ttv_timeline_get_n_cpu_names_drawn (v.timeline), <=, n * (guint) width / 24);

  for (guint r = 0; r < n; r++)
    {
      const TtvHistoryRowInfo *info = ttv_history_get_row (H (), TTV_HISTORY_ROW_CPU, r);
      g_autoptr (GArray) ivs = ttv_history_query_intervals (H (), TTV_HISTORY_ROW_CPU, r, info->birth, info->end);
      const TtvHistoryInterval *longest = NULL;

      /* Its longest run of a task, a 35th of the window around it (wider
       * than 24 pixels), among the many short ones of the window. */
      for (guint i = 0; ivs && i < ivs->len; i++)
        {
          const TtvHistoryInterval *iv = &g_array_index (ivs, TtvHistoryInterval, i);
          if (ttv_viewer_state_low (iv->state) == TTV_VIEWER_CPU_BUSY && iv->aux != TTV_PID_NONE && iv->aux != 0
              && (!longest || iv->end - iv->start > longest->end - longest->start))
            longest = iv;
        }
      if (!longest || longest->end - longest->start < 1000)
        continue;
      TtvTime d = longest->end - longest->start;
      g_test_message ("CPU row %u: %" G_GUINT64_FORMAT " intervals over %" G_GINT64_FORMAT " ns, the longest run %"
                      G_GINT64_FORMAT " ns", r, (guint64) info->n_intervals, info->end - info->birth, d);
      /* That row alone, so that the names counted are its own. */
      {
        GPtrArray *one = g_ptr_array_new_with_free_func ((GDestroyNotify) ttv_timeline_row_free);
        g_ptr_array_add (one, ttv_timeline_row_new (TTV_VIEWER_ROW_CPU, r, "cpu"));
        ttv_timeline_set_rows (v.timeline, one);
      }
      ttv_tab_state_set_time_window (sample.state, MAX (s0, longest->start - 17 * d), MIN (s1, longest->end + 17 * d));
      cairo_surface_destroy (view_render (&v, width, height));
      if (ttv_timeline_get_n_cpu_names_drawn (v.timeline) == 0)
        g_error ("CPU row %u: no task name drawn for its run of %" G_GINT64_FORMAT " ns of pid %u", r, d,
                 longest->aux);
      tested++;
    }
  g_test_message ("%u CPU rows with a long run named", tested);
  g_assert_cmpuint (tested, >, 0);
  view_close (&v);
}

static void
test_arrows (void)
{
  View v = { 0 };
  guint n, tries = 0;
  TtvTime s0, s1;
  gboolean tested = FALSE;
  int width = 1400, height;

  if (!sample_setup ())
    return;
  g_assert_true (is_teal (palette_rgb (TTV_PALETTE_WAKEUP)));
  n = ttv_history_get_n_rows (H (), TTV_HISTORY_ROW_PROCESS);
  height = MAX_HEADER + (int) n * TTV_TIMELINE_ROW_HEIGHT + 10;
  span (&s0, &s1);
  view_open (&v, TTV_HISTORY_ROW_PROCESS, 1000, 400);
  ttv_timeline_set_show_arrows (v.timeline, TRUE);

  /* Whole trace: far too many wakeups: no arrow. */
  ttv_tab_state_set_time_window (sample.state, s0, s1);
  cairo_surface_destroy (view_render (&v, width, height));
  g_assert_cmpuint (ttv_timeline_get_n_arrows_drawn (v.timeline), ==, 0);

  /* A wakeup by a task of another row, at least 3 rows apart, whose
   * woken task runs after it: zoomed in around it, an arrow from the
   * waker's row at the wakeup to the woken row at its run. */
  for (guint r = 0; r < n && !tested && tries <= 200; r++)
    {
      const TtvHistoryRowInfo *info = ttv_history_get_row (H (), TTV_HISTORY_ROW_PROCESS, r);
      g_autoptr (GArray) marks = ttv_history_query_marks (H (), r, info->birth, info->end);

      for (guint m = 0; marks && m < marks->len && !tested && tries <= 200; m++)
        {
          const TtvHistoryMark *mk = &g_array_index (marks, TtvHistoryMark, m);
          gint from;
          TtvTime run, t0, t1;
          cairo_surface_t *s;
          double x0, x1, yf, yt;
          int header;

          if (mk->kind != TTV_HISTORY_MARK_WAKEUP || mk->other == TTV_PID_NONE || mk->other == 0)
            continue;
          from = first_row_of_pid (mk->other);
          run = run_after (r, mk->time);
          /* The waker's row must be the one alive then. */
          if (from < 0 || ABS ((gint) r - from) < 3 || run < 0 || run - mk->time > 250000
              || ttv_history_find_row (H (), TTV_HISTORY_ROW_PROCESS, 0, mk->other, -1, mk->time) != from)
            continue;
          /* A window where the arrow spans about a fifth of the plot
           * (woken tasks often run a few microseconds after the wakeup). */
          if (++tries > 200)
            break;
          t0 = mk->time - 2 * MAX (run - mk->time, 2000);
          t1 = run + 2 * MAX (run - mk->time, 2000);
          ttv_tab_state_set_time_window (sample.state, MAX (t0, s0), MIN (t1, s1));
          ttv_tab_state_get_time_window (sample.state, &t0, &t1);
          s = view_render (&v, width, height);
          if (ttv_timeline_get_n_arrows_drawn (v.timeline) == 0)
            {
              /* Too many wakeups around it: another one. */
              cairo_surface_destroy (s);
              continue;
            }
          header = ttv_test_header_of (s);
          x0 = x_of (&v, width, t0, t1, mk->time);
          x1 = x_of (&v, width, t0, t1, run);
          /* A slanted arrow: a vertical line at the wakeup would not do. */
          if (x1 - x0 < 16)
            {
              cairo_surface_destroy (s);
              continue;
            }
          yf = header + from * TTV_TIMELINE_ROW_HEIGHT + TTV_TIMELINE_ROW_HEIGHT / 2.0;
          yt = header + r * TTV_TIMELINE_ROW_HEIGHT + TTV_TIMELINE_ROW_HEIGHT / 2.0 + (yf < header + r * TTV_TIMELINE_ROW_HEIGHT ? -3 : 3);
          g_test_message ("wakeup of row %u by pid %u (row %d) at x %.1f, run at x %.1f: %u arrows",
                          r, mk->other, from, x0, x1, ttv_timeline_get_n_arrows_drawn (v.timeline));
          g_assert_cmpuint (points_on_line (s, x0, yf, x1, yt), ==, 3);
          cairo_surface_destroy (s);
          /* Turned off (the action, as the menu does): no arrow. */
          g_action_group_change_action_state (G_ACTION_GROUP (v.actions), "show-arrows", g_variant_new_boolean (FALSE));
          s = view_render (&v, width, height);
          g_assert_cmpuint (ttv_timeline_get_n_arrows_drawn (v.timeline), ==, 0);
          g_assert_cmpuint (points_on_line (s, x0, yf, x1, yt), ==, 0);
          cairo_surface_destroy (s);
          g_action_group_change_action_state (G_ACTION_GROUP (v.actions), "show-arrows", g_variant_new_boolean (TRUE));
          tested = TRUE;
        }
    }
  g_assert_true (tested);
  ttv_tab_state_set_time_window (sample.state, s0, s1);
  view_close (&v);
}

/* --- Whole-trace zoom: what the dominant state hides ------------------------------ */


static gboolean
process_runs (guint16 state)
{
  return ttv_history_state_low (state) == TTV_PROCESS_RUN;
}

/* Per pixel, whether a run of @row starts in it (the process was not
 * running just before). */
static gboolean *
run_starts (guint row, TtvTime t0, TtvTime t1, guint w)
{
  g_autoptr (GArray) ivs = ttv_history_query_intervals (H (), TTV_HISTORY_ROW_PROCESS, row, t0, t1);
  gboolean *out = g_new0 (gboolean, w);

  for (guint i = 1; i < ivs->len; i++)
    {
      const TtvHistoryInterval *iv = &g_array_index (ivs, TtvHistoryInterval, i);
      const TtvHistoryInterval *prev = &g_array_index (ivs, TtvHistoryInterval, i - 1);

      if (process_runs (iv->state) && !process_runs (prev->state) && iv->start >= t0 && iv->start < t1)
        out[MIN ((guint) ((double) (iv->start - t0) / (double) (t1 - t0) * w), w - 1)] = TRUE;
    }
  return out;
}

static gboolean
around (const gboolean *v, guint w, guint x)
{
  return v[x] || (x > 0 && v[x - 1]) || (x + 1 < w && v[x + 1]);
}

static void
test_whole_trace (void)
{
  View v = { 0 };
  TtvTime s0, s1;
  int width, height = 400;
  guint plot = 1000;
  guint32 active = palette_rgb (TTV_PALETTE_IRQ_ACTIVE), mixed = palette_rgb (TTV_PALETTE_MIXED);
  guint32 blocked = palette_rgb (TTV_PALETTE_BLOCKED);

  if (!sample_setup ())
    return;
  span (&s0, &s1);
  ttv_tab_state_set_time_window (sample.state, s0, s1);

  /* IRQ rows: a pixel shows the active colour (full or thin bar) exactly
   * where the IRQ was active (±1 pixel: the summary bins). */
  view_open (&v, TTV_HISTORY_ROW_IRQ, 1000, 300);
  width = (int) (ttv_timeline_get_label_width (v.timeline) + plot);
  {
    cairo_surface_t *s = view_render (&v, width, height);
    int header = ttv_test_header_of (s);
    guint n_irq = ttv_history_get_n_rows (H (), TTV_HISTORY_ROW_IRQ);
    TtvTime now = ttv_tab_state_get_current_time (sample.state);
    guint now_x = now >= s0 && now < s1 ? (guint) ((double) (now - s0) / (double) (s1 - s0) * plot) : G_MAXUINT - 1;

    g_assert_cmpuint (n_irq, >, 0);
    for (guint r = 0; r < n_irq; r++)
      {
        g_autofree gboolean *expected = ttv_test_active_pixels (H (), TTV_HISTORY_ROW_IRQ, r, s0, s1, plot,
                                                                ttv_test_irq_active);
        g_autofree gboolean *drawn = g_new0 (gboolean, plot);
        /* The bar's middle: both the full and the thin bar cover it. */
        int y = header + r * TTV_TIMELINE_ROW_HEIGHT + TTV_TIMELINE_ROW_HEIGHT / 2;
        guint n_expected = 0, n_drawn = 0;

        for (guint x = 0; x < plot; x++)
          {
            drawn[x] = ttv_test_pixel (s, (int) ttv_timeline_get_label_width (v.timeline) + x, y) == active;
            n_expected += expected[x];
            n_drawn += drawn[x];
          }
        for (guint x = 0; x < plot; x++)
          {
            /* The current time's line is drawn over the bars. */
            if (x + 1 >= now_x && x <= now_x + 1)
              continue;
            if (expected[x])
              g_assert_true (around (drawn, plot, x));
            if (drawn[x])
              g_assert_true (around (expected, plot, x));
          }
        g_test_message ("IRQ row %u: active in %u of %u pixels, %u drawn", r, n_expected, plot, n_drawn);
      }
    cairo_surface_destroy (s);
  }
  view_close (&v);

  /* Process rows: where a process started to run in a pixel blocked
   * for most of it, the pixel or one beside it is marked (the strip at the
   * bar's bottom) or shows the run. */
  view_open (&v, TTV_HISTORY_ROW_PROCESS, 1000, 300);
  width = (int) (ttv_timeline_get_label_width (v.timeline) + plot);
  {
    guint n = ttv_history_get_n_rows (H (), TTV_HISTORY_ROW_PROCESS), checked = 0;
    cairo_surface_t *s = view_render (&v, width, MAX_HEADER + (int) n * TTV_TIMELINE_ROW_HEIGHT + 10);
    int header = ttv_test_header_of (s), label = (int) ttv_timeline_get_label_width (v.timeline);

    for (guint r = 0; r < n; r++)
      {
        g_autofree gboolean *starts = run_starts (r, s0, s1, plot);
        int y = header + r * TTV_TIMELINE_ROW_HEIGHT;
        int bottom = y + TTV_TIMELINE_ROW_HEIGHT - TTV_TIMELINE_BAR_INSET - 1, middle = y + TTV_TIMELINE_ROW_HEIGHT / 2;

        for (guint x = 1; x + 1 < plot; x++)
          {
            gboolean seen = FALSE;

            if (!starts[x] || ttv_test_pixel (s, label + x, middle) != blocked)
              continue;
            for (int dx = -1; dx <= 1; dx++)
              seen |= ttv_test_pixel (s, label + x + dx, bottom) == mixed
                      || (ttv_test_pixel (s, label + x + dx, middle) != blocked && ttv_test_pixel (s, label + x + dx, middle) != 0xffffff);
            g_assert_true (seen);
            checked++;
          }
      }
    g_test_message ("%u runs starting in a blocked pixel, all marked", checked);
    g_assert_cmpuint (checked, >, 10);
    cairo_surface_destroy (s);
  }
  view_close (&v);
}

/* --- Idle tasks ------------------------------------------------------------------ */

static void
test_idle_tasks (void)
{
  View v = { 0 };
  guint32 idle = palette_rgb (TTV_PALETTE_CPU_IDLE);
  guint checked_run = 0, checked_other = 0;

  if (!sample_setup ())
    return;
  view_open (&v, TTV_HISTORY_ROW_PROCESS, 1000, 300);
  for (guint r = 0; r < ttv_history_get_n_rows (H (), TTV_HISTORY_ROW_PROCESS); r++)
    {
      const TtvHistoryRowInfo *info = ttv_history_get_row (H (), TTV_HISTORY_ROW_PROCESS, r);
      g_autoptr (GArray) ivs = NULL;

      if (info->id != 0 || info->cpu < 0)
        continue;
      g_assert_true (ttv_timeline_is_idle_task ((const TtvViewerRowInfo *) info));
      ivs = ttv_history_query_intervals (H (), TTV_HISTORY_ROW_PROCESS, r, G_MININT64, G_MAXINT64);
      /* A long idle stretch, and a long stretch of others running: zoomed
       * on each, the row's middle is CPU idle, then nothing. */
      for (guint i = 0; i < ivs->len; i++)
        {
          const TtvHistoryInterval *iv = &g_array_index (ivs, TtvHistoryInterval, i);
          guint low = ttv_history_state_low (iv->state);
          TtvExecMode mode = ttv_history_state_mode (iv->state);
          cairo_surface_t *s;
          guint32 p;
          int label = (int) ttv_timeline_get_label_width (v.timeline);

          if (iv->end - iv->start < 20000 || (low == TTV_PROCESS_RUN && checked_run >= 3)
              || (low != TTV_PROCESS_RUN && checked_other >= 3)
              || (low == TTV_PROCESS_RUN && mode != TTV_MODE_USER && mode != TTV_MODE_UNKNOWN))
            continue;
          ttv_tab_state_set_time_window (sample.state, iv->start, iv->end);
          s = view_render (&v, label + 400, MAX_HEADER + (int) (r + 1) * TTV_TIMELINE_ROW_HEIGHT + 10);
          p = ttv_test_pixel (s, label + 200, ttv_test_header_of (s) + r * TTV_TIMELINE_ROW_HEIGHT + TTV_TIMELINE_ROW_HEIGHT / 2);
          if (low == TTV_PROCESS_RUN)
            {
              g_assert_cmphex (p, ==, idle);
              checked_run++;
            }
          else
            {
              /* Not running: nothing drawn (the plot's white). */
              g_assert_cmphex (p, ==, 0xffffff);
              checked_other++;
            }
          cairo_surface_destroy (s);
        }
    }
  g_test_message ("idle tasks: %u idle and %u busy stretches checked", checked_run, checked_other);
  g_assert_cmpuint (checked_run, >, 0);
  g_assert_cmpuint (checked_other, >, 0);
  {
    TtvTime s0, s1;

    span (&s0, &s1);
    ttv_tab_state_set_time_window (sample.state, s0, s1);
  }
  view_close (&v);
}

/* --- Export of a scrolled view --------------------------------------------------- */

static void
test_export_scrolled (void)
{
  View v = { 0 };
  g_autofree char *png = NULL;
  cairo_surface_t *all, *shown;
  GtkAdjustment *adj;
  guint k = 7, n;
  int w, h, label, ha, hs;

  if (!sample_setup ())
    return;
  png = g_build_filename (ttv_test_get_tmp_dir (), "scrolled.png", NULL);
  view_open (&v, TTV_HISTORY_ROW_PROCESS, 1000, 400);
  n = ttv_history_get_n_rows (H (), TTV_HISTORY_ROW_PROCESS);
  g_assert_cmpuint (n, >, k + 20);
  w = gtk_widget_get_allocated_width (v.area);
  h = gtk_widget_get_allocated_height (v.area);
  label = (int) ttv_timeline_get_label_width (v.timeline);
  /* Every row, unscrolled, at the widget's width. */
  all = view_render (&v, w, MAX_HEADER + (int) n * TTV_TIMELINE_ROW_HEIGHT + 10);
  adj = gtk_range_get_adjustment (GTK_RANGE (ttv_gui_test_find_widget (GTK_WIDGET (v.timeline), GTK_TYPE_SCROLLBAR, NULL)));
  gtk_adjustment_set_value (adj, k * TTV_TIMELINE_ROW_HEIGHT);
  g_assert_cmpfloat (gtk_adjustment_get_value (adj), ==, k * TTV_TIMELINE_ROW_HEIGHT);
  g_action_group_activate_action (G_ACTION_GROUP (v.actions), "export", g_variant_new_string (png));
  shown = ttv_test_load_png (png);
  g_assert_cmpint (cairo_image_surface_get_width (shown), ==, w);
  g_assert_cmpint (cairo_image_surface_get_height (shown), ==, h);
  ha = ttv_test_header_of (all);
  hs = ttv_test_header_of (shown);
  g_assert_cmpint (ha, ==, hs);
  /* The export's rows are rows k, k+1… of the full drawing (the stripes'
   * parity aside: compared in the plot). */
  for (int y = hs; y < h - TTV_TIMELINE_ROW_HEIGHT; y++)
    for (int x = label; x < w; x += 3)
      g_assert_cmphex (ttv_test_pixel (shown, x, y), ==, ttv_test_pixel (all, x, y + (int) k * TTV_TIMELINE_ROW_HEIGHT));
  cairo_surface_destroy (all);
  cairo_surface_destroy (shown);
  g_unlink (png);
  view_close (&v);
}

/* --- Lost events ------------------------------------------------------------------- */

static void
test_lost_events (void)
{
  View v = { 0 };
  TtvTrace *trace;
  TtvTracefile *tf;
  TtvLostRange lost = { 0 };
  TtvTime s0, s1;
  guint32 color = palette_rgb (TTV_PALETTE_LOST_EVENTS);
  cairo_surface_t *s;
  guint in_legend = 0;

  if (!sample_setup ())
    return;
  span (&s0, &s1);
  ttv_tab_state_set_time_window (sample.state, s0, s1);
  view_open (&v, TTV_HISTORY_ROW_CPU, 1000, 300);
  /* None in the sample: no legend entry. */
  s = view_render (&v, 1000, 200);
  for (int y = 0; y < ttv_test_header_of (s) - TTV_TIMELINE_RULER_HEIGHT; y++)
    for (int x = 0; x < 1000; x++)
      in_legend += ttv_test_pixel (s, x, y) == color;
  g_assert_cmpuint (in_legend, ==, 0);
  cairo_surface_destroy (s);

  trace = ttv_traceset_get_trace (sample.ts, 0);
  tf = trace->tracefiles->pdata[0];
  lost.start = s0 + (s1 - s0) * 40 / 100;
  lost.end = s0 + (s1 - s0) * 45 / 100;
  lost.count = 123;
  g_array_append_val (tf->lost, lost);
  s = view_render (&v, 1000, 200);
  for (int y = 0; y < ttv_test_header_of (s) - TTV_TIMELINE_RULER_HEIGHT; y++)
    for (int x = 0; x < 1000; x++)
      in_legend += ttv_test_pixel (s, x, y) == color;
  g_assert_cmpuint (in_legend, >, 10);
  /* The mark under the ruler, in the palette's colour. */
  g_assert_cmphex (ttv_test_pixel (s, (int) x_of (&v, 1000, s0, s1, s0 + (s1 - s0) * 42 / 100), ttv_test_header_of (s) - 2), ==, color);
  cairo_surface_destroy (s);
  {
    double x = x_of (&v, gtk_widget_get_allocated_width (v.area), s0, s1, s0 + (s1 - s0) * 42 / 100);
    g_autofree char *text = ttv_timeline_dup_tooltip (v.timeline, x, ttv_timeline_get_header_height (v.timeline) - 3);
    g_autofree char *away = ttv_timeline_dup_tooltip (v.timeline,
                                                      x_of (&v, gtk_widget_get_allocated_width (v.area), s0, s1,
                                                            s0 + (s1 - s0) * 20 / 100),
                                                      ttv_timeline_get_header_height (v.timeline) - 3);

    g_test_message ("ruler tooltip: %s", text);
    g_assert_nonnull (strstr (text, "Lost events: 123 events"));
    g_assert_null (strstr (away, "Lost events"));
  }
  /* Whole packets lost (a gap in CTF packet sequence numbers): how many
   * events is unknown, the packets are counted. */
  lost.start = s0 + (s1 - s0) * 60 / 100;
  lost.end = s0 + (s1 - s0) * 62 / 100;
  lost.count = 0;
  lost.packets = 3;
  g_array_append_val (tf->lost, lost);
  {
    double x = x_of (&v, gtk_widget_get_allocated_width (v.area), s0, s1, s0 + (s1 - s0) * 61 / 100);
    g_autofree char *text = ttv_timeline_dup_tooltip (v.timeline, x, ttv_timeline_get_header_height (v.timeline) - 3);

    g_test_message ("ruler tooltip: %s", text);
    g_assert_nonnull (strstr (text, "Lost packets: 3 packets lost whole here"));
    g_assert_null (strstr (text, "Lost events"));
  }
  g_array_set_size (tf->lost, tf->lost->len - 2);
  view_close (&v);
}

/* --- The histogram module ---------------------------------------------------------- */

/* Events of the sample counted by reading it (all, or of one type). */
static guint64
count_events (const char *type)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvContext) ctx = ttv_context_new (sample.ts, &error);
  const TtvEvent *ev;
  guint64 n = 0;

  g_assert_true (ttv_context_seek_begin (ctx, &error));
  while ((ev = ttv_context_next (ctx, &error)))
    if (!type || g_strcmp0 (ttv_viewer_event_get_name (TTV_GUI_TEST_EVENT (ev)), type) == 0)
      n++;
  g_assert_no_error (error);
  return n;
}

static double
column_sum (GtkWidget *hist, guint *n_columns, guint *n_empty)
{
  g_autoptr (GVariant) v = g_action_group_get_action_state (gtk_widget_get_action_group (hist, "histogram"),
                                                            "column-counts");
  gsize n = 0;
  const double *cols = g_variant_get_fixed_array (v, &n, sizeof (double));
  double sum = 0;

  *n_columns = (guint) n;
  *n_empty = 0;
  for (gsize i = 0; i < n; i++)
    {
      sum += cols[i];
      *n_empty += cols[i] == 0;
    }
  return sum;
}

static void
test_histogram_counts (void)
{
  const char *const modules[] = { TTV_HISTOGRAM_MODULE_PATH, NULL };
  g_autofree char *png = NULL;
  GtkWidget *hist, *combo;
  GActionGroup *group;
  guint64 all;
  guint n_columns, n_empty;
  const char *type = NULL;
  g_auto (GStrv) names = NULL;

  if (!sample_setup ())
    return;
  ttv_gui_test_load_modules (modules);
  png = g_build_filename (ttv_test_get_tmp_dir (), "hist.png", NULL);
  hist = g_object_ref_sink (ttv_viewer_registry_find ("histogram")->new_viewer (sample.state));
  group = gtk_widget_get_action_group (hist, "histogram");
  all = count_events (NULL);
  /* Several widths, fewer and more columns than density bins. */
  for (guint i = 0; i < 3; i++)
    {
      int width = i == 0 ? 300 : i == 1 ? 1024 : 2500;
      double sum;

      g_action_group_activate_action (group, "render", g_variant_new ("(sii)", png, width, 200));
      sum = column_sum (hist, &n_columns, &n_empty);
      g_test_message ("%d columns: %.3f events (%" G_GUINT64_FORMAT " read), %u empty", width, sum, all, n_empty);
      g_assert_cmpuint (n_columns, ==, (guint) width);
      g_assert_cmpfloat (fabs (sum - (double) all), <, 0.5);
      /* Events all along the sample: no comb of empty columns. */
      g_assert_cmpuint (n_empty, <, n_columns / 50 + 1);
    }
  /* One event type. */
  names = ttv_tab_state_dup_density_names (sample.state);
  g_assert_nonnull (names);
  type = names[0];
  combo = ttv_gui_test_find_widget (hist, GTK_TYPE_COMBO_BOX_TEXT, NULL);
  g_assert_true (gtk_combo_box_set_active_id (GTK_COMBO_BOX (combo), type));
  g_action_group_activate_action (group, "render", g_variant_new ("(sii)", png, 700, 200));
  g_assert_cmpfloat (fabs (column_sum (hist, &n_columns, &n_empty) - (double) count_events (type)), <, 0.5);
  /* The current time's line in the colour chosen in Preferences. */
  {
    g_autoptr (GSettings) settings = ttv_viewer_dup_settings ("current-time-color");
    TtvTime s0, s1;
    cairo_surface_t *img;
    guint green = 0;

    g_assert_nonnull (settings);
    g_settings_set_string (settings, "current-time-color", "#00ff00");
    span (&s0, &s1);
    ttv_tab_state_set_current_time (sample.state, s0 + (s1 - s0) / 2);
    g_action_group_activate_action (group, "render", g_variant_new ("(sii)", png, 700, 200));
    img = ttv_test_load_png (png);
    for (int x = 348; x <= 352; x++)
      green += ttv_test_pixel (img, x, 100) == 0x00ff00;
    cairo_surface_destroy (img);
    g_settings_reset (settings, "current-time-color");
    g_assert_cmpuint (green, ==, 1);
  }
  gtk_widget_destroy (hist);
  g_object_unref (hist);
  g_unlink (png);
}

/* ttv --render histogram: a PNG of the size with bars over (nearly) every
 * column of the plot, the ruler under them. */
static void
test_histogram_render (void)
{
  g_autofree char *png = NULL, *err = NULL;
  g_autoptr (GError) error = NULL;
  const char *path = g_getenv ("TTV_SAMPLE_TRACE");
  gint status;
  cairo_surface_t *s;
  guint with_bar = 0;
  int width = 2000, height = 300;

  if (!sample_setup ())
    return;
  png = g_build_filename (ttv_test_get_tmp_dir (), "hist-render.png", NULL);
  {
    const char *argv[] = { TTV_EXE_PATH, "--render", "histogram", "--trace", path, "--size", "2000x300",
                           "-o", png, NULL };

    g_auto (GStrv) env = ttv_gui_test_headless_environ ();   /* no display: none is needed */

    g_assert_true (g_spawn_sync (NULL, (char **) argv, env, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL,
                                 &err, &status, &error));
    g_assert_no_error (error);
    g_test_message ("%s", err);
    g_assert_true (g_spawn_check_wait_status (status, &error));
  }
  s = ttv_test_load_png (png);
  g_assert_cmpint (cairo_image_surface_get_width (s), ==, width);
  g_assert_cmpint (cairo_image_surface_get_height (s), ==, height);
  /* The bars' colour just above the lost-events strip and the ruler. */
  for (int x = 0; x < width; x++)
    {
      guint32 p = ttv_test_pixel (s, x, height - 24 - 6 - 2);

      with_bar += near_color (p, 0x3366bf, 8);
    }
  g_test_message ("%u of %d columns with a bar", with_bar, width);
  g_assert_cmpuint (with_bar, >, (guint) width * 95 / 100);
  cairo_surface_destroy (s);
  g_unlink (png);
}

int
main (int argc, char **argv)
{
  int status;

  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  gtk_test_init (&argc, &argv, NULL);
  g_test_add_func ("/timeline-views/ruler", test_ruler);
  g_test_add_func ("/timeline-views/zoom", test_zoom);
  g_test_add_func ("/timeline-views/tooltips", test_tooltips);
  g_test_add_func ("/timeline-views/idle-wakeup-tooltip", test_idle_wakeup_tooltip);
  g_test_add_func ("/timeline-views/column-titles-fit", test_column_titles_fit);
  g_test_add_func ("/timeline-views/arrows", test_arrows);
  g_test_add_func ("/timeline-views/cpu-names", test_cpu_names);
  g_test_add_func ("/timeline-views/whole-trace", test_whole_trace);
  g_test_add_func ("/timeline-views/idle-tasks", test_idle_tasks);
  g_test_add_func ("/timeline-views/export-scrolled", test_export_scrolled);
  g_test_add_func ("/timeline-views/lost-events", test_lost_events);
  g_test_add_func ("/timeline-views/histogram-counts", test_histogram_counts);
  g_test_add_func ("/timeline-views/histogram-render", test_histogram_render);
  status = g_test_run ();
  sample_teardown ();
  return status;
}
