/* ttv-time-ticks.c: tick steps and labels of a time ruler (the time bar,
 * the views' rulers), so that the labels stay short and round at any span,
 * from nanoseconds to traces recorded years apart. */
#include "ttv-time-ticks.h"

#include <stdio.h>

/* Clock steps between 20 s and a day. */
static const TtvTime clock_steps[] = {
  30 * TTV_NSEC_PER_SEC, TTV_NSEC_PER_MIN, 2 * TTV_NSEC_PER_MIN, 5 * TTV_NSEC_PER_MIN,
  10 * TTV_NSEC_PER_MIN, 15 * TTV_NSEC_PER_MIN, 30 * TTV_NSEC_PER_MIN, TTV_NSEC_PER_HOUR,
  2 * TTV_NSEC_PER_HOUR, 3 * TTV_NSEC_PER_HOUR, 6 * TTV_NSEC_PER_HOUR, 12 * TTV_NSEC_PER_HOUR,
  TTV_NSEC_PER_DAY,
};

/* The smallest 1, 2 or 5 times a power of ten (times @unit) >= @min. */
static TtvTime
one_two_five (TtvTime min, TtvTime unit, TtvTime limit)
{
  for (TtvTime p = unit; p <= limit / 10; p *= 10)
    for (int m = 1; m <= 5; m += m == 1 ? 1 : 3)
      if (m * p >= min)
        return m * p;
  return limit;
}

TtvTime
ttv_time_ticks_step (TtvTime min_step)
{
  if (min_step <= 1)
    return 1;
  if (min_step <= 20 * TTV_NSEC_PER_SEC)
    return one_two_five (min_step, 1, 100 * TTV_NSEC_PER_SEC);
  for (guint i = 0; i < G_N_ELEMENTS (clock_steps); i++)
    if (clock_steps[i] >= min_step)
      return clock_steps[i];
  return one_two_five (min_step, TTV_NSEC_PER_DAY, G_MAXINT64 / 2);
}

/* Where ticks count from: the time the labels show as round. */
static TtvTime
tick_base (TtvTime start, TtvTimeFormat format, TtvTime origin)
{
  if (format == TTV_TIME_FORMAT_RELATIVE)
    return origin;
  if (format == TTV_TIME_FORMAT_LOCAL)
    {
      g_autoptr (GTimeZone) zone = g_time_zone_new_local ();
      gint interval = g_time_zone_find_interval (zone, G_TIME_TYPE_UNIVERSAL,
                                                 start / TTV_NSEC_PER_SEC);

      if (interval >= 0)
        return -(TtvTime) g_time_zone_get_offset (zone, interval) * TTV_NSEC_PER_SEC;
    }
  return 0;
}

TtvTime
ttv_time_ticks_first (TtvTime start, TtvTime step, TtvTimeFormat format, TtvTime origin)
{
  TtvTime base = tick_base (start, format, origin);
  __int128 k, d = (__int128) start - base;

  g_return_val_if_fail (step > 0, start);
  /* ceil (d / step), d of either sign. */
  k = d >= 0 ? (d + step - 1) / step : -((-d) / step);
  d = base + k * step;
  return d > G_MAXINT64 ? G_MAXINT64 : (TtvTime) d;
}

/* Decimals of a second that show multiples of @step exactly (0 from 1 s). */
static guint
step_decimals (TtvTime step)
{
  guint decimals = 9;

  while (decimals > 0 && step % 10 == 0)
    {
      step /= 10;
      decimals--;
    }
  return decimals;
}

/* "+90 min", "+36 h", "+20 d": a relative tick of a clock step. */
static char *
relative_clock_label (TtvTime t, TtvTime step, TtvTime origin, char *buf, gsize buf_len)
{
  static const struct { TtvTime unit; const char *name; } units[] = {
    { TTV_NSEC_PER_DAY, "d" }, { TTV_NSEC_PER_HOUR, "h" }, { TTV_NSEC_PER_MIN, "min" },
    { TTV_NSEC_PER_SEC, "s" },
  };
  __int128 d = (__int128) t - origin;
  guint i = 0;

  while (i + 1 < G_N_ELEMENTS (units) && step % units[i].unit != 0)
    i++;
  g_snprintf (buf, buf_len, "%s%" G_GINT64_FORMAT " %s", d < 0 ? "+-" : "+",
              (gint64) ((d < 0 ? -d : d) / units[i].unit), units[i].name);
  return buf;
}

/* "10:15" or "2023-11-14": a time of day tick of a step of minutes or days. */
static char *
clock_label (TtvTime t, TtvTime step, TtvTimeFormat format, char *buf, gsize buf_len)
{
  g_autoptr (GTimeZone) zone = format == TTV_TIME_FORMAT_UTC ? g_time_zone_new_utc ()
                                                             : g_time_zone_new_local ();
  TtvTime sec = t / TTV_NSEC_PER_SEC - (t % TTV_NSEC_PER_SEC < 0);
  g_autoptr (GDateTime) utc = g_date_time_new_from_unix_utc (sec);
  g_autoptr (GDateTime) dt = utc ? g_date_time_to_timezone (utc, zone) : NULL;
  g_autofree char *text = NULL;

  if (!dt)
    return ttv_time_format_text (t, TTV_TIME_FORMAT_ABSOLUTE, 0, 0, buf, buf_len);
  text = g_date_time_format (dt, step % TTV_NSEC_PER_DAY == 0 ? "%Y-%m-%d" : "%H:%M");
  g_strlcpy (buf, text, buf_len);
  return buf;
}

char *
ttv_time_ticks_label (TtvTime t, TtvTime step, TtvTimeFormat format, TtvTime origin,
                      char *buf, gsize buf_len)
{
  char text[TTV_TIME_TEXT_MAX];

  switch (format)
    {
    case TTV_TIME_FORMAT_RELATIVE:
      if (step >= TTV_NSEC_PER_MIN)
        return relative_clock_label (t, step, origin, buf, buf_len);
      ttv_time_format_text (t, format, origin, step_decimals (step), text, sizeof text);
      g_snprintf (buf, buf_len, "%s s", text);
      return buf;
    case TTV_TIME_FORMAT_UTC:
    case TTV_TIME_FORMAT_LOCAL:
      if (step >= TTV_NSEC_PER_MIN)
        return clock_label (t, step, format, buf, buf_len);
      return ttv_time_format_text (t, format, origin, step_decimals (step), buf, buf_len);
    case TTV_TIME_FORMAT_ABSOLUTE:
    default:
      return ttv_time_format_text (t, format, origin, step_decimals (step), buf, buf_len);
    }
}
