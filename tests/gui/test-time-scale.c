/* test-time-scale.c: the time views' shared scale (sdk/ttv-viewer-time-scale.h,
 * issue 19): linear without long gaps; two traces years apart share the
 * width at one rate with the gap in a few pixels; short gaps, a window
 * inside a gap and more gaps than the scale compresses; the mapping is
 * monotonic and its inverse lands on the same pixel; and the tab's scale
 * of two generated traces of different years, and the views drawn on it
 * (ttv --render): the gap's band in the control flow, the histogram, the
 * CPU usage, a latency view, whose scatter spreads the second trace's
 * records over its part of the plot, and the critical path of a thread of
 * the first, which stops where its machine's trace does.  No display
 * needed. */
#include "ttv-config.h"

#include "ttv-gui-test-util.h"
#include "ttv-tab-state-private.h"
#include "ttv-test-util.h"

#include <math.h>
#include <string.h>

#ifndef TTV_GEN_PATH
#error "TTV_GEN_PATH must be defined by the build"
#endif
#ifndef TTV_EXE_PATH
#error "TTV_EXE_PATH must be defined by the build"
#endif

#define S  ((TtvTime) 1000000000)
#define YEAR (365 * 24 * 3600 * S)

/* Every pixel's time maps back to that pixel, and x grows with time. */
static void
check_round_trip (const TtvTimeScale *s)
{
  double last = -1;

  for (double x = s->x; x <= s->x + s->width; x += 1)
    {
      TtvTime t = ttv_time_scale_time_of_x (s, x);
      double back = ttv_time_scale_x_of_time (s, t);

      g_assert_cmpfloat (fabs (back - x), <, 0.01);
      g_assert_cmpfloat (back, >=, last);
      last = back;
    }
  g_assert_cmpfloat (ttv_time_scale_x_of_time (s, s->t0), ==, s->x);
  g_assert_cmpfloat (fabs (ttv_time_scale_x_of_time (s, s->t1) - (s->x + s->width)), <, 1e-6);
  /* Beyond the ends, at the rate of the time read. */
  g_assert_cmpfloat (fabs ((double) (s->t0 - ttv_time_scale_time_of_x (s, s->x - 50)) - 50 * s->ns_per_px), <, 2);
  g_assert_cmpfloat (fabs (ttv_time_scale_x_of_time (s, s->t1 + (TtvTime) (10 * s->ns_per_px)) - (s->x + s->width + 10)),
                     <, 0.01);
}

static void
test_linear (void)
{
  TtvTimeScale s;

  ttv_time_scale_init (&s, 1000, 2000, 10, 100, NULL, 0);
  g_assert_true (ttv_time_scale_is_linear (&s));
  g_assert_cmpfloat (ttv_time_scale_x_of_time (&s, 1500), ==, 60);
  g_assert_cmpint (ttv_time_scale_time_of_x (&s, 35), ==, 1250);
  g_assert_cmpfloat (s.ns_per_px, ==, 10);
  check_round_trip (&s);
}

/* Two traces of 0.1 s, six years apart. */
static void
test_two_traces_years_apart (void)
{
  const TtvTime t0 = 1500000000 * S, t1 = t0 + 6 * YEAR;
  const TtvTime busy[2][2] = { { t0, t0 + S / 10 }, { t1 - S / 10, t1 } };
  TtvTimeScale s;

  ttv_time_scale_init (&s, t0, t1, 200, 1000, busy, 2);
  g_assert_false (ttv_time_scale_is_linear (&s));
  g_assert_cmpuint (s.n_pieces, ==, 3);
  g_assert_false (s.pieces[0].gap);
  g_assert_true (s.pieces[1].gap);
  g_assert_false (s.pieces[2].gap);
  g_assert_cmpint (s.pieces[1].t0, ==, t0 + S / 10);
  g_assert_cmpint (s.pieces[1].t1, ==, t1 - S / 10);
  g_assert_cmpfloat (s.pieces[1].x1 - s.pieces[1].x0, ==, TTV_TIME_SCALE_GAP_WIDTH);
  /* Both traces at one rate: 0.2 s over the 976 other pixels. */
  g_assert_cmpfloat (fabs (s.ns_per_px - 0.2e9 / 976), <, 1e-3);
  g_assert_cmpfloat (fabs (s.pieces[0].x1 - s.pieces[0].x0 - 488), <, 1e-6);
  g_assert_cmpfloat (fabs (s.pieces[2].x1 - s.pieces[2].x0 - 488), <, 1e-6);
  /* The first trace's middle at its piece's middle, the second's too. */
  g_assert_cmpfloat (fabs (ttv_time_scale_x_of_time (&s, t0 + S / 20) - (200 + 244)), <, 1e-3);
  g_assert_cmpfloat (fabs (ttv_time_scale_x_of_time (&s, t1 - S / 20) - (200 + 1000 - 244)), <, 1e-3);
  check_round_trip (&s);
}

/* A gap shorter than the busy time shown is time like any other. */
static void
test_short_gap_linear (void)
{
  const TtvTime busy[2][2] = { { 0, 10 * S }, { 18 * S, 30 * S } };
  TtvTimeScale s;

  ttv_time_scale_init (&s, 0, 30 * S, 0, 300, busy, 2);
  g_assert_true (ttv_time_scale_is_linear (&s));
  /* Zoomed on the gap with a little of each side, it is long: compressed. */
  ttv_time_scale_init (&s, 9 * S, 19 * S, 0, 300, busy, 2);
  g_assert_cmpuint (s.n_pieces, ==, 3);
  g_assert_true (s.pieces[1].gap);
  /* Inside the gap, nothing busy: plain time. */
  ttv_time_scale_init (&s, 11 * S, 17 * S, 0, 300, busy, 2);
  g_assert_true (ttv_time_scale_is_linear (&s));
  check_round_trip (&s);
}

/* Unsorted and overlapping ranges merge; a gap at the window's start and
 * one at its end are compressed too. */
static void
test_merge_and_edges (void)
{
  const TtvTime busy[3][2] = { { 500 * S, 501 * S }, { 500 * S + S / 2, 500 * S }, { 501 * S, 500 * S + S / 3 } };
  TtvTimeScale s;

  ttv_time_scale_init (&s, 0, 1000 * S, 0, 500, busy, 3);
  g_assert_cmpuint (s.n_pieces, ==, 3);
  g_assert_true (s.pieces[0].gap);
  g_assert_false (s.pieces[1].gap);
  g_assert_true (s.pieces[2].gap);
  g_assert_cmpint (s.pieces[1].t0, ==, 500 * S);
  g_assert_cmpint (s.pieces[1].t1, ==, 501 * S);
  g_assert_cmpfloat (fabs (s.pieces[1].x1 - s.pieces[1].x0 - (500 - 2 * TTV_TIME_SCALE_GAP_WIDTH)), <, 1e-6);
  check_round_trip (&s);
}

/* Twelve traces of 1 s, hours apart by growing gaps: the eight longest
 * gaps are compressed, the other three stay at the common rate, and a
 * narrow view gives each gap a quarter of its width at most. */
static void
test_many_gaps (void)
{
  TtvTime busy[12][2];
  TtvTime t = 0;
  TtvTimeScale s;
  guint gaps = 0;

  for (guint i = 0; i < 12; i++)
    {
      busy[i][0] = t;
      busy[i][1] = t + S;
      t += S + (TtvTime) (i + 1) * 3600 * S;
    }
  ttv_time_scale_init (&s, 0, busy[11][1], 0, 1200, (const TtvTime (*)[2]) busy, 12);
  for (guint i = 0; i < s.n_pieces; i++)
    if (s.pieces[i].gap)
      {
        gaps++;
        g_assert_cmpint (s.pieces[i].t1 - s.pieces[i].t0, >=, 4 * 3600 * S);   /* the longest eight */
      }
  g_assert_cmpuint (gaps, ==, TTV_TIME_SCALE_MAX_GAPS);
  check_round_trip (&s);

  ttv_time_scale_init (&s, 0, busy[11][1], 0, 64, (const TtvTime (*)[2]) busy, 12);
  for (guint i = 0; i < s.n_pieces; i++)
    if (s.pieces[i].gap)
      g_assert_cmpfloat (s.pieces[i].x1 - s.pieces[i].x0, ==, 64.0 / (4 * TTV_TIME_SCALE_MAX_GAPS));
  check_round_trip (&s);
}

/* Generates alpha (2017, 2 CPUs) and beta (2023, 3 CPUs: its trace the
 * shorter, so that the pieces fall between pixels) once. */
static void
generate_far_apart (char **a, char **b)
{
  g_autofree char *dir = g_build_filename (ttv_test_get_tmp_dir (), "scale", NULL);

  *a = g_build_filename (dir, "a", NULL);
  *b = g_build_filename (dir, "b", NULL);
  if (!g_file_test (*a, G_FILE_TEST_IS_DIR))
    ttv_test_generate_machine (TTV_GEN_PATH, *a, "ctf", "alpha", "1", "2", "1500000000");
  if (!g_file_test (*b, G_FILE_TEST_IS_DIR))
    ttv_test_generate_machine (TTV_GEN_PATH, *b, "ctf", "beta", "2", "3", "1700000000");
}

/* The tab's scale: the spans of its traces, generated 2017 and 2023. */
static void
test_tab_scale (void)
{
  g_autofree char *a = NULL, *b = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvTraceset) ts = ttv_traceset_new ();
  TtvTime s0, s1, a1, b0;
  TtvTimeScale s;

  generate_far_apart (&a, &b);
  g_assert_true (ttv_traceset_add_path (ts, a, &error));
  g_assert_true (ttv_traceset_add_path (ts, b, &error));
  g_assert_no_error (error);
  g_autoptr (TtvTabState) state = ttv_tab_state_new (ts);
  ttv_tab_state_get_time_span (state, &s0, &s1);
  a1 = ttv_traceset_get_trace (ts, 0)->end;
  b0 = ttv_traceset_get_trace (ts, 1)->start;

  ttv_tab_state_get_time_scale (state, s0, s1, 0, 1000, &s);
  g_assert_cmpuint (s.n_pieces, ==, 3);
  g_assert_true (s.pieces[1].gap);
  g_assert_cmpint (s.pieces[1].t0, ==, a1);
  g_assert_cmpint (s.pieces[1].t1, ==, b0);
  check_round_trip (&s);
  /* Zoomed into the first trace: plain time. */
  ttv_tab_state_get_time_scale (state, s0, a1, 0, 1000, &s);
  g_assert_true (ttv_time_scale_is_linear (&s));
}

/* The views rendered on the two traces: in a row through the plot, one
 * run of the gap's ground (ttv-view-axis.c: 0.90, 0.90, 0.92) at most
 * TTV_TIME_SCALE_GAP_WIDTH wide, well inside the width. */
static void
test_views_mark_gap (gconstpointer data)
{
  const char *view = data;
  g_autofree char *a = NULL, *b = NULL;
  g_autofree char *png = g_strdup_printf ("%s/gap-%s.png", ttv_test_get_tmp_dir (), view);
  g_autoptr (GError) error = NULL;

  generate_far_apart (&a, &b);
  gboolean path = strcmp (view, "critical-path") == 0;
  /* The critical path of alpha's thread 7 (the first machine's). */
  const char *argv[] = { TTV_EXE_PATH, "--render", view, "--trace", a, "--trace", b, "--size", "1200x500",
                         "-o", png, path ? "--thread" : NULL, "7", NULL };
  g_free (ttv_test_run_ok (argv));
  g_autoptr (GdkPixbuf) img = gdk_pixbuf_new_from_file (png, &error);
  g_assert_no_error (error);
  int w = gdk_pixbuf_get_width (img), stride = gdk_pixbuf_get_rowstride (img), nc = gdk_pixbuf_get_n_channels (img);
  /* A row through the plot (the critical path: its first rows). */
  int y = path ? 55 : gdk_pixbuf_get_height (img) / 3, first = -1, last = -1, runs = 0;
  const guint8 *row = gdk_pixbuf_read_pixels (img) + y * stride;

  for (int x = 0; x < w; x++)
    {
      const guint8 *px = row + x * nc;
      gboolean ground = px[0] >= 228 && px[0] <= 231 && px[1] >= 228 && px[1] <= 231 && px[2] >= 233 && px[2] <= 236;

      if (ground && (last < 0 || x > last + 6))
        runs++;
      if (ground)
        {
          first = first < 0 ? x : first;
          last = x;
        }
    }
  g_test_message ("%s: the gap's ground at x %d..%d of %d, %d runs", view, first, last, w, runs);
  g_assert_cmpint (runs, ==, 1);
  g_assert_cmpint (first, >, w / 4);
  g_assert_cmpint (last, <, w - 20);
  g_assert_cmpint (last - first, <, (int) TTV_TIME_SCALE_GAP_WIDTH);
  if (strcmp (view, "controlflow") == 0)
    {
      /* Beta's rows (the lower half): its states across its part of the
       * plot, not piled at its end (each piece queried over its times). */
      int drawn = 0, height = gdk_pixbuf_get_height (img);
      for (int x = last + 4; x < w; x++)
        for (int yy = height / 2; yy < height; yy++)
          {
            const guint8 *px = gdk_pixbuf_read_pixels (img) + yy * stride + x * nc;
            if (px[0] < 250 || px[1] < 250 || px[2] < 250)
              {
                drawn++;
                break;
              }
          }
      g_test_message ("%s: %d of %d columns drawn right of the gap", view, drawn, w - last - 4);
      g_assert_cmpint (drawn, >=, (w - last - 4) * 8 / 10);
    }
  if (path)
    {
      /* Nothing of alpha's thread in beta's time: its machine was not
       * traced then (it was drawn preempted, orange, to the end). */
      guint orange = 0;
      for (int x = last + 1; x < w; x++)
        for (int yy = 0; yy < gdk_pixbuf_get_height (img) / 3; yy++)
          {
            const guint8 *px = gdk_pixbuf_read_pixels (img) + yy * stride + x * nc;
            orange += px[0] > 200 && px[1] > 100 && px[1] < 190 && px[2] < 110;
          }
      g_test_message ("%s: %u orange pixels right of the gap", view, orange);
      g_assert_cmpuint (orange, ==, 0);
    }
  if (strcmp (view, "syscall-latency") != 0)
    return;
  /* The scatter's marks (blue) right of the gap: beta's calls spread over
   * its part of the plot, not piled in its last column (each piece is
   * queried over its own times). */
  guint columns = 0;
  for (int x = last + 1; x < w * 6 / 10; x++)   /* the scatter, not the density right of it */
    for (int yy = 0; yy < gdk_pixbuf_get_height (img); yy++)
      {
        const guint8 *px = gdk_pixbuf_read_pixels (img) + yy * stride + x * nc;
        if (px[2] > px[0] + 80)
          {
            columns++;
            break;
          }
      }
  g_test_message ("%s: %u columns with marks right of the gap", view, columns);
  g_assert_cmpuint (columns, >=, 12);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/time-scale/linear", test_linear);
  g_test_add_func ("/time-scale/two-traces-years-apart", test_two_traces_years_apart);
  g_test_add_func ("/time-scale/short-gap-linear", test_short_gap_linear);
  g_test_add_func ("/time-scale/merge-and-edges", test_merge_and_edges);
  g_test_add_func ("/time-scale/many-gaps", test_many_gaps);
  g_test_add_func ("/time-scale/tab-scale", test_tab_scale);
  g_test_add_data_func ("/time-scale/views/controlflow", "controlflow", test_views_mark_gap);
  g_test_add_data_func ("/time-scale/views/histogram", "histogram", test_views_mark_gap);
  g_test_add_data_func ("/time-scale/views/cpu-usage", "cpu-usage", test_views_mark_gap);
  g_test_add_data_func ("/time-scale/views/syscall-latency", "syscall-latency", test_views_mark_gap);
  g_test_add_data_func ("/time-scale/views/critical-path", "critical-path", test_views_mark_gap);
  return g_test_run ();
}
