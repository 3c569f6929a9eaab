/* test-time.c: TtvTime text round trips and cycle conversion. */
#include "ttv-time.h"
#include "ttv-error.h"

static void
test_round_trip (void)
{
  const TtvTime cases[] = { 0, 1, 999999999, 1000000000, 1700000000123456789, -1, -1500000000,
                            TTV_TIME_MAX };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      char buf[32];
      TtvTime back = 0;
      ttv_time_to_string (cases[i], buf, sizeof buf);
      g_assert_true (ttv_time_parse (buf, &back, NULL));
      g_assert_cmpint (back, ==, cases[i]);
    }
}

static void
test_parse (void)
{
  TtvTime t;
  g_assert_true (ttv_time_parse ("12.5", &t, NULL));
  g_assert_cmpint (t, ==, 12500000000);
  g_assert_true (ttv_time_parse (".000000001", &t, NULL));
  g_assert_cmpint (t, ==, 1);
  const char *bad[] = { "", "-", "1.2.3", "abc", "1.0000000001", "1e9", "99999999999999999999" };
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr (GError) error = NULL;
      g_assert_false (ttv_time_parse (bad[i], &t, &error));
      g_assert_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT);
    }
}

static void
test_cycles (void)
{
  g_assert_cmpint (ttv_time_cycles_to_ns (3000000000u, 3000000000u), ==, 1000000000);
  g_assert_cmpint (ttv_time_cycles_to_ns (G_MAXUINT64 / 4, 4000000000u), ==,
                   (gint64) ((unsigned __int128) (G_MAXUINT64 / 4) * 1000000000u / 4000000000u));
  g_assert_cmpint (ttv_time_cycles_to_ns (5, 0), ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/time/round-trip", test_round_trip);
  g_test_add_func ("/core/time/parse", test_parse);
  g_test_add_func ("/core/time/cycles", test_cycles);
  return g_test_run ();
}
