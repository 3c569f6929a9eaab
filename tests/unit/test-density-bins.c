/* test-density-bins.c: the long idle gaps between busy ranges
 * (ttv-time-gaps.h) and the density's bins that leave them out
 * (ttv-density-bins.h, issue 19): without gaps the bins are the linear
 * ones they always were; with two captures years apart every bin covers
 * busy time, each bin's start is the first time of that bin, and the gap
 * is in no bin of its own. */
#include "ttv-density-bins.h"

#define S ((TtvTime) 1000000000)
#define YEAR (365 * 24 * 3600 * S)

static void
test_gaps (void)
{
  TtvTime gaps[TTV_TIME_MAX_IDLE_GAPS][2];
  const TtvTime two[2][2] = { { 6 * YEAR, 6 * YEAR + S }, { 0, S } };   /* unsorted */
  const TtvTime near[2][2] = { { 0, 10 * S }, { 18 * S, 30 * S } };

  g_assert_cmpuint (ttv_time_find_idle_gaps (0, 6 * YEAR + S, two, 2, gaps), ==, 1);
  g_assert_cmpint (gaps[0][0], ==, S);
  g_assert_cmpint (gaps[0][1], ==, 6 * YEAR);
  /* A hole shorter than the busy time is no gap; zoomed on it, it is. */
  g_assert_cmpuint (ttv_time_find_idle_gaps (0, 30 * S, near, 2, gaps), ==, 0);
  g_assert_cmpuint (ttv_time_find_idle_gaps (9 * S, 19 * S, near, 2, gaps), ==, 1);
  /* Nothing busy: nothing to compare a hole with. */
  g_assert_cmpuint (ttv_time_find_idle_gaps (11 * S, 17 * S, near, 2, gaps), ==, 0);
  g_assert_cmpuint (ttv_time_find_idle_gaps (0, S, NULL, 0, gaps), ==, 0);
}

/* Without gaps: bins of equal time, the first time of each exact. */
static void
test_linear_bins (void)
{
  TtvDensityBins b;
  const TtvTime start = 1700000000 * S + 123, end = start + 999999937;

  ttv_density_bins_init (&b, start, end, 1024, NULL, 0);
  g_assert_cmpuint (b.clock.busy, ==, (guint64) (end - start));
  g_assert_cmpuint (ttv_density_bins_bin_of (&b, start - 5), ==, 0);
  g_assert_cmpuint (ttv_density_bins_bin_of (&b, end), ==, 1023);
  g_assert_cmpuint (ttv_density_bins_bin_of (&b, end + S), ==, 1023);
  for (guint bin = 1; bin < 1024; bin++)
    {
      TtvTime t = ttv_density_bins_get_bin_start (&b, bin);
      double linear = (double) (t - start) / (double) (end - start) * 1024;

      g_assert_cmpuint (ttv_density_bins_bin_of (&b, t), ==, bin);
      g_assert_cmpuint (ttv_density_bins_bin_of (&b, t - 1), ==, bin - 1);
      g_assert_cmpuint ((guint) linear, ==, bin);
    }
  g_assert_cmpint (ttv_density_bins_get_bin_start (&b, 1024), ==, end);
}

/* Two captures of one second, six years apart: 1024 bins over the two
 * seconds, half each; the gap's years in none of their own. */
static void
test_gap_left_out (void)
{
  const TtvTime start = 1500000000 * S, end = start + 6 * YEAR + S;
  const TtvTime busy[2][2] = { { start, start + S }, { end - S, end } };
  TtvTime gaps[TTV_TIME_MAX_IDLE_GAPS][2];
  guint n = ttv_time_find_idle_gaps (start, end, busy, 2, gaps);
  TtvDensityBins b;

  ttv_density_bins_init (&b, start, end, 1024, (const TtvTime (*)[2]) gaps, n);
  g_assert_cmpuint (b.clock.n_gaps, ==, 1);
  g_assert_cmpuint (b.clock.busy, ==, (guint64) (2 * S));
  g_assert_cmpuint (ttv_density_bins_bin_of (&b, start + S / 2), ==, 256);
  g_assert_cmpuint (ttv_density_bins_bin_of (&b, start + S - 1), ==, 511);
  /* The first capture's last time, the gap and the second's first time
   * are one busy instant: the first of bin 512. */
  g_assert_cmpuint (ttv_density_bins_bin_of (&b, start + S), ==, 512);
  g_assert_cmpuint (ttv_density_bins_bin_of (&b, start + 3 * YEAR), ==, 512);
  g_assert_cmpuint (ttv_density_bins_bin_of (&b, end - S), ==, 512);
  g_assert_cmpuint (ttv_density_bins_bin_of (&b, end - S + 1), ==, 512);
  g_assert_cmpuint (ttv_density_bins_bin_of (&b, end), ==, 1023);
  /* Bin 512 starts where the gap does; every other bin is its share. */
  g_assert_cmpint (ttv_density_bins_get_bin_start (&b, 512), ==, start + S);
  for (guint bin = 1; bin < 1024; bin++)
    {
      TtvTime t = ttv_density_bins_get_bin_start (&b, bin), prev = ttv_density_bins_get_bin_start (&b, bin - 1);

      g_assert_cmpuint (ttv_density_bins_bin_of (&b, t), ==, bin);
      g_assert_cmpuint (ttv_density_bins_bin_of (&b, t - 1), ==, bin - 1);
      if (bin != 513)   /* bin 512 holds the gap */
        g_assert_cmpint (t - prev, <=, 2 * S / 1024 + 1);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/density-bins/gaps", test_gaps);
  g_test_add_func ("/core/density-bins/linear", test_linear_bins);
  g_test_add_func ("/core/density-bins/gap-left-out", test_gap_left_out);
  return g_test_run ();
}
