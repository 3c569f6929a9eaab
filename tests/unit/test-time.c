/* test-time.c: TtvTime text round trips, the viewer's time formats and
 * ruler ticks, and cycle conversion. */
#include "ttv-time.h"
#include "ttv-time-ticks.h"
#include "ttv-error.h"

#include <string.h>

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

/* The text is printf's "%s%lu.%09lu" of sign and magnitude, for every
 * time (G_MININT64 too), and a short buffer gets its start, as from
 * g_snprintf. */
static void
test_to_string_text (void)
{
  const TtvTime cases[] = { 0, 1, -1, 999999999, -999999999, 1000000000, -1000000000, 1700000000123456789,
                            -1700000000000000001, G_MAXINT64, G_MININT64, TTV_TIME_MAX, TTV_TIME_MIN };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      TtvTime t = cases[i];
      guint64 mag = t < 0 ? (guint64) 0 - (guint64) t : (guint64) t;
      char want[64], got[32];
      g_snprintf (want, sizeof want, "%s%" G_GUINT64_FORMAT ".%09" G_GUINT64_FORMAT, t < 0 ? "-" : "",
                  mag / 1000000000u, mag % 1000000000u);
      g_assert_cmpstr (ttv_time_to_string (t, got, sizeof got), ==, want);
      char shorter[6];
      ttv_time_to_string (t, shorter, sizeof shorter);
      g_assert_cmpint (strncmp (shorter, want, sizeof shorter - 1), ==, 0);
      g_assert_cmpuint (strlen (shorter), ==, MIN (strlen (want), sizeof shorter - 1));
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

/* 2023-11-14 22:13:20 UTC; the local zone of these tests is UTC+5:30. */
#define T0 (G_GINT64_CONSTANT (1700000000) * TTV_NSEC_PER_SEC)

static void
test_format_text (void)
{
  static const struct {
    TtvTime t;
    TtvTimeFormat format;
    guint decimals;
    const char *text;
  } cases[] = {
    { T0 + 1100, TTV_TIME_FORMAT_RELATIVE, 9, "+0.000001100" },
    { T0 + 1100, TTV_TIME_FORMAT_ABSOLUTE, 9, "1700000000.000001100" },
    { T0 + 1100, TTV_TIME_FORMAT_UTC, 9, "22:13:20.000001100Z" },
    { T0 + 1100, TTV_TIME_FORMAT_LOCAL, 9, "03:43:20.000001100" },
    { T0 + 61 * TTV_NSEC_PER_SEC + 987654321, TTV_TIME_FORMAT_RELATIVE, 3, "+61.987" },
    { T0 - 500000000, TTV_TIME_FORMAT_RELATIVE, 9, "+-0.500000000" },
    { T0 + 999999999, TTV_TIME_FORMAT_UTC, 0, "22:13:20Z" },
    { -1, TTV_TIME_FORMAT_UTC, 9, "23:59:59.999999999Z" },
    { -1, TTV_TIME_FORMAT_ABSOLUTE, 9, "-0.000000001" },
    { T0 + 50000000 * TTV_NSEC_PER_SEC, TTV_TIME_FORMAT_RELATIVE, 1, "+50000000.0" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      char buf[TTV_TIME_TEXT_MAX];

      g_assert_cmpstr (ttv_time_format_text (cases[i].t, cases[i].format, T0, cases[i].decimals,
                                             buf, sizeof buf), ==, cases[i].text);
    }
}

/* Whatever the format chosen, every form printed in any format reads back. */
static void
test_parse_text_round_trip (void)
{
  const TtvTime times[] = { T0, T0 + 1, T0 + 615703100, T0 + 86399 * TTV_NSEC_PER_SEC,
                            T0 - 3 * TTV_NSEC_PER_SEC, T0 + 40 * TTV_NSEC_PER_DAY };

  for (guint i = 0; i < G_N_ELEMENTS (times); i++)
    for (TtvTimeFormat shown = 0; shown <= TTV_TIME_FORMAT_LOCAL; shown++)
      for (TtvTimeFormat chosen = 0; chosen <= TTV_TIME_FORMAT_LOCAL; chosen++)
        {
          char buf[TTV_TIME_TEXT_MAX];
          TtvTime back = 0;
          g_autoptr (GError) error = NULL;

          ttv_time_format_text (times[i], shown, T0, 9, buf, sizeof buf);
          /* A time of day is read on the day closest to the time given as
           * "near" (for an entry: the time it showed). */
          g_assert_true (ttv_time_parse_text (buf, chosen, T0, times[i] + 3 * TTV_NSEC_PER_HOUR,
                                              &back, &error));
          g_assert_no_error (error);
          if (shown == TTV_TIME_FORMAT_LOCAL && chosen == TTV_TIME_FORMAT_UTC)
            /* No "Z": read as the chosen zone's, 5 h 30 min off. */
            g_assert_cmpint (back, ==, times[i] + 330 * TTV_NSEC_PER_MIN);
          else
            g_assert_cmpint (back, ==, times[i]);
        }
}

static void
test_parse_text (void)
{
  static const struct {
    const char *text;
    TtvTimeFormat format;
    TtvTime near;
    TtvTime expect;
  } cases[] = {
    { "+0.2", TTV_TIME_FORMAT_ABSOLUTE, T0, T0 + 200000000 },
    { " +1 ", TTV_TIME_FORMAT_RELATIVE, T0, T0 + TTV_NSEC_PER_SEC },
    { "+-1.5", TTV_TIME_FORMAT_RELATIVE, T0, T0 - 1500000000 },
    { "1700000000.5", TTV_TIME_FORMAT_RELATIVE, 0, T0 + 500000000 },
    { "22:13:21", TTV_TIME_FORMAT_UTC, T0, T0 + TTV_NSEC_PER_SEC },
    { "22:13", TTV_TIME_FORMAT_UTC, T0, T0 - 20 * TTV_NSEC_PER_SEC },
    { "22:13:21.25 UTC", TTV_TIME_FORMAT_LOCAL, T0, T0 + 1250000000 },
    /* After midnight, near a time before it: the next day. */
    { "00:00:01Z", TTV_TIME_FORMAT_LOCAL, T0 + 6000 * TTV_NSEC_PER_SEC,
      T0 + (86400 - 80000 + 1) * TTV_NSEC_PER_SEC },
    /* Before midnight, near a time after it: the day before. */
    { "23:59:59.000000001Z", TTV_TIME_FORMAT_UTC, T0 + 7000 * TTV_NSEC_PER_SEC,
      T0 + (86400 - 80000 - 1) * TTV_NSEC_PER_SEC + 1 },
    { "2023-11-15 22:13:20Z", TTV_TIME_FORMAT_UTC, 0, T0 + TTV_NSEC_PER_DAY },
    { "2023-11-15T03:43:20", TTV_TIME_FORMAT_LOCAL, 0, T0 },
  };
  const char *bad[] = { "", "+", "+abc", "++1", "24:00:00", "10:60", "10:13:61", "10:13:20.",
                        "10:13:20.1234567890", "2023-13-01 10:00", "2023-11-14", "10:13:20 Z",
                        "1e9", "+99999999999999999999", "10h", ":10" };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      TtvTime t = 0;
      g_autoptr (GError) error = NULL;

      g_assert_true (ttv_time_parse_text (cases[i].text, cases[i].format, T0, cases[i].near, &t, &error));
      g_assert_no_error (error);
      g_assert_cmpint (t, ==, cases[i].expect);
    }
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      TtvTime t = 42;
      g_autoptr (GError) error = NULL;

      g_assert_false (ttv_time_parse_text (bad[i], TTV_TIME_FORMAT_RELATIVE, T0, T0, &t, &error));
      g_assert_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT);
      g_assert_nonnull (strstr (error->message, bad[i]));
      g_assert_cmpint (t, ==, 42);
    }
}

static void
test_format_names (void)
{
  for (TtvTimeFormat f = 0; f <= TTV_TIME_FORMAT_LOCAL; f++)
    {
      TtvTimeFormat back = 99;

      g_assert_true (ttv_time_format_from_name (ttv_time_format_to_name (f), &back));
      g_assert_cmpint (back, ==, f);
    }
  g_assert_false (ttv_time_format_from_name ("epoch", &(TtvTimeFormat) { 0 }));
  g_assert_false (ttv_time_format_from_name (NULL, &(TtvTimeFormat) { 0 }));
}

static void
test_ticks_step (void)
{
  static const struct { TtvTime min, step; } cases[] = {
    { 0, 1 }, { 1, 1 }, { 2, 2 }, { 3, 5 }, { 6, 10 }, { 11, 20 }, { 1500, 2000 },
    { 150000000, 200000000 }, { 3 * TTV_NSEC_PER_SEC, 5 * TTV_NSEC_PER_SEC },
    { 19 * TTV_NSEC_PER_SEC, 20 * TTV_NSEC_PER_SEC }, { 21 * TTV_NSEC_PER_SEC, 30 * TTV_NSEC_PER_SEC },
    { 31 * TTV_NSEC_PER_SEC, TTV_NSEC_PER_MIN }, { 11 * TTV_NSEC_PER_MIN, 15 * TTV_NSEC_PER_MIN },
    { 4 * TTV_NSEC_PER_HOUR, 6 * TTV_NSEC_PER_HOUR }, { 13 * TTV_NSEC_PER_HOUR, TTV_NSEC_PER_DAY },
    { 3 * TTV_NSEC_PER_DAY, 5 * TTV_NSEC_PER_DAY }, { 150 * TTV_NSEC_PER_DAY, 200 * TTV_NSEC_PER_DAY },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    g_assert_cmpint (ttv_time_ticks_step (cases[i].min), ==, cases[i].step);
  /* Any span: the largest step still covers the whole TtvTime range. */
  g_assert_cmpint (ttv_time_ticks_step (G_MAXINT64 / 4), >=, G_MAXINT64 / 4);
}

static void
test_ticks_labels (void)
{
  static const struct {
    TtvTime t;
    TtvTime step;
    TtvTimeFormat format;
    const char *label;
  } cases[] = {
    { T0 + 612400000, 200000, TTV_TIME_FORMAT_RELATIVE, "+0.6124 s" },
    { T0 + 3 * TTV_NSEC_PER_SEC, TTV_NSEC_PER_SEC, TTV_TIME_FORMAT_RELATIVE, "+3 s" },
    { T0 + 90 * TTV_NSEC_PER_MIN, 15 * TTV_NSEC_PER_MIN, TTV_TIME_FORMAT_RELATIVE, "+90 min" },
    { T0 + 36 * TTV_NSEC_PER_HOUR, 6 * TTV_NSEC_PER_HOUR, TTV_TIME_FORMAT_RELATIVE, "+36 h" },
    /* Two traces 50 000 000 s apart: whole days, not "50000000 s". */
    { T0 + 500 * TTV_NSEC_PER_DAY, 100 * TTV_NSEC_PER_DAY, TTV_TIME_FORMAT_RELATIVE, "+500 d" },
    { T0 + 500000000, 100000000, TTV_TIME_FORMAT_ABSOLUTE, "1700000000.5" },
    { T0 + 250000000, 50000000, TTV_TIME_FORMAT_UTC, "22:13:20.25Z" },
    { T0 + 100 * TTV_NSEC_PER_SEC, 2 * TTV_NSEC_PER_MIN, TTV_TIME_FORMAT_UTC, "22:15" },
    { T0 + 100 * TTV_NSEC_PER_SEC, 2 * TTV_NSEC_PER_MIN, TTV_TIME_FORMAT_LOCAL, "03:45" },
    { T0, 2 * TTV_NSEC_PER_DAY, TTV_TIME_FORMAT_UTC, "2023-11-14" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      char buf[TTV_TIME_TEXT_MAX];

      g_assert_cmpstr (ttv_time_ticks_label (cases[i].t, cases[i].step, cases[i].format, T0,
                                             buf, sizeof buf), ==, cases[i].label);
    }
}

static void
test_ticks_first (void)
{
  /* Relative: multiples of the step from the origin. */
  g_assert_cmpint (ttv_time_ticks_first (T0 + 1, 1000, TTV_TIME_FORMAT_RELATIVE, T0 + 1), ==, T0 + 1);
  g_assert_cmpint (ttv_time_ticks_first (T0 + 2, 1000, TTV_TIME_FORMAT_RELATIVE, T0 + 1), ==, T0 + 1001);
  /* Absolute and UTC: multiples from the epoch; local: from local midnight. */
  g_assert_cmpint (ttv_time_ticks_first (T0 + 1, TTV_NSEC_PER_SEC, TTV_TIME_FORMAT_ABSOLUTE, 0), ==,
                   T0 + TTV_NSEC_PER_SEC);
  g_assert_cmpint (ttv_time_ticks_first (T0, TTV_NSEC_PER_DAY, TTV_TIME_FORMAT_UTC, 0), ==,
                   T0 + (86400 - 80000) * TTV_NSEC_PER_SEC);
  g_assert_cmpint (ttv_time_ticks_first (T0, TTV_NSEC_PER_HOUR, TTV_TIME_FORMAT_LOCAL, 0), ==,
                   T0 + 1000 * TTV_NSEC_PER_SEC);   /* 03:43:20 -> 04:00 local */
  g_assert_cmpint (ttv_time_ticks_first (-5, 10, TTV_TIME_FORMAT_ABSOLUTE, 0), ==, 0);
  g_assert_cmpint (ttv_time_ticks_first (-15, 10, TTV_TIME_FORMAT_ABSOLUTE, 0), ==, -10);
}

static void
test_cycles (void)
{
  g_assert_cmpint (ttv_time_cycles_to_ns (3000000000u, 3000000000u), ==, 1000000000);
  g_assert_cmpint (ttv_time_cycles_to_ns (G_MAXUINT64 / 4, 4000000000u), ==,
                   (gint64) ((unsigned __int128) (G_MAXUINT64 / 4) * 1000000000u / 4000000000u));
  g_assert_cmpint (ttv_time_cycles_to_ns (5, 0), ==, 0);
}

/* Durations: four significant digits with a unit, rounding carried into
 * the next unit, a minus sign before negative ones. */
static void
test_duration (void)
{
  static const struct { TtvTime ns; const char *text; } cases[] = {
    { 0, "0 ns" }, { 999, "999 ns" }, { 1000, "1.000 µs" }, { 12500, "12.50 µs" },
    { 999949, "999.9 µs" }, { 999960, "1.000 ms" }, { 2462766300, "2.463 s" },
    { 3725400000000, "3725.4 s" }, { -12500, "−12.50 µs" }, { -5, "−5 ns" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = ttv_time_dup_duration (cases[i].ns);
      g_assert_cmpstr (text, ==, cases[i].text);
    }
}

/* Command-line times: absolute, or after an origin, saturating at the ends
 * of TtvTime instead of overflowing; no origin for "+S" without events. */
static void
test_parse_argument (void)
{
  g_autoptr (GError) error = NULL;
  TtvTime t;

  TtvTime origin = 1000;
  g_assert_true (ttv_time_parse_argument ("12.5", &origin, &t, &error));
  g_assert_cmpint (t, ==, 12500000000);
  g_assert_true (ttv_time_parse_argument ("+0.000000005", &origin, &t, &error));
  g_assert_cmpint (t, ==, 1005);
  origin = 1700000000 * TTV_NSEC_PER_SEC;
  g_assert_true (ttv_time_parse_argument ("+9223372036.854775807", &origin, &t, &error));
  g_assert_cmpint (t, ==, TTV_TIME_MAX);
  origin = -1700000000 * TTV_NSEC_PER_SEC;
  g_assert_true (ttv_time_parse_argument ("+-9223372036.854775807", &origin, &t, &error));
  g_assert_cmpint (t, ==, TTV_TIME_MIN);
  origin = TTV_TIME_MAX - 1;
  g_assert_true (ttv_time_parse_argument ("+0.5", &origin, &t, &error));
  g_assert_cmpint (t, ==, TTV_TIME_MAX);
  g_assert_no_error (error);
  /* No origin: a traceset without events. */
  g_assert_false (ttv_time_parse_argument ("+0.5", NULL, &t, &error));
  g_assert_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "no event"));
  g_clear_error (&error);
  g_assert_true (ttv_time_parse_argument ("3", NULL, &t, &error));
  origin = 0;
  g_assert_false (ttv_time_parse_argument ("+", &origin, &t, &error));
  g_clear_error (&error);
  g_assert_false (ttv_time_parse_argument ("9223372036.854775808", &origin, &t, &error));
  g_clear_error (&error);
}

/* ttv_time_text_may_contain() allows every character of every format's
 * text (Find skips the Time column otherwise), and refuses letters. */
static void
test_text_alphabet (void)
{
  static const TtvTimeFormat formats[] = { TTV_TIME_FORMAT_RELATIVE, TTV_TIME_FORMAT_ABSOLUTE,
                                           TTV_TIME_FORMAT_UTC, TTV_TIME_FORMAT_LOCAL };
  GRand *rand = g_rand_new_with_seed (11);
  for (guint i = 0; i < 4000; i++)
    {
      TtvTime t = (TtvTime) ((guint64) g_rand_int (rand) << 32 | g_rand_int (rand)) >> (g_rand_int_range (rand, 0, 40));
      if (g_rand_boolean (rand))
        t = -t;
      for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
        {
          char buf[TTV_TIME_TEXT_MAX];
          const char *text = ttv_time_format_text (t, formats[f], 1700000000000000000, 9, buf, sizeof buf);
          g_assert_true (ttv_time_text_may_contain (text));
        }
    }
  g_rand_free (rand);
  g_assert_true (ttv_time_text_may_contain ("22:13:20.5z"));
  g_assert_false (ttv_time_text_may_contain ("sched"));
  g_assert_false (ttv_time_text_may_contain ("1 s"));
}

int
main (int argc, char **argv)
{
  /* The local zone of the time of day tests: UTC+5:30 (POSIX rule, no tzdata). */
  g_setenv ("TZ", "IST-5:30", TRUE);
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/time/duration", test_duration);
  g_test_add_func ("/core/time/round-trip", test_round_trip);
  g_test_add_func ("/core/time/to-string-text", test_to_string_text);
  g_test_add_func ("/core/time/parse", test_parse);
  g_test_add_func ("/core/time/parse-argument", test_parse_argument);
  g_test_add_func ("/core/time/format-text", test_format_text);
  g_test_add_func ("/core/time/format-names", test_format_names);
  g_test_add_func ("/core/time/parse-text", test_parse_text);
  g_test_add_func ("/core/time/parse-text-round-trip", test_parse_text_round_trip);
  g_test_add_func ("/core/time/ticks-step", test_ticks_step);
  g_test_add_func ("/core/time/ticks-labels", test_ticks_labels);
  g_test_add_func ("/core/time/ticks-first", test_ticks_first);
  g_test_add_func ("/core/time/cycles", test_cycles);
  g_test_add_func ("/core/time/text-alphabet", test_text_alphabet);
  return g_test_run ();
}
