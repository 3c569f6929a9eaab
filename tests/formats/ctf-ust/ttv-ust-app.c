/* ttv-ust-app.c: the instrumented program of the recorded userspace trace
 * test (tests/formats/ctf-ust) and of the live session tests (tests/live):
 * emits each ttv_test event over a range of values, including the extremes
 * of every integer size.  Usage: ttv-ust-app [ROUNDS [PAUSE_US]]: 14 events,
 * then ROUNDS rounds of 4 events, PAUSE_US microseconds apart (a known rate). */
#define TRACEPOINT_CREATE_PROBES
#define TRACEPOINT_DEFINE
#include "ttv-test-tp.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int
main (int argc, char **argv)
{
  int rounds = argc > 1 ? atoi (argv[1]) : 20;
  int pause_us = argc > 2 ? atoi (argv[2]) : 0;
  static const int64_t extremes[] = {
    0, 1, -1, 127, -128, 255, 32767, -32768, 65535, 2147483647, -2147483647 - 1,
    4294967295LL, INT64_MAX, INT64_MIN,
  };
  static const char * const texts[] = {
    /* no empty string here: babeltrace2 2.0.4 prints a stale earlier string
     * for some empty ones (see docs/ctf.md); the "empty" field has one. */
    "hello", "x", "a \"quoted\" \\ string?", "tab\tnew\nline", "0123456789abcdef", "\xc3\xa9t\xc3\xa9",
  };
  static const int colors[] = { 0, 1, 10, 15, 19, -3, 7 };
  for (unsigned i = 0; i < sizeof extremes / sizeof extremes[0]; i++)
    tracepoint (ttv_test, integers, extremes[i]);
  for (int r = 0; r < rounds; r++)
    {
      int32_t values[8] = { r, -r, r * 1000, -7, 0x7fffffff, (int32_t) 0x80000000u, 3, 4 };
      const char *s = texts[r % (sizeof texts / sizeof texts[0])];
      tracepoint (ttv_test, integers, (int64_t) r * 7919 - 1000);
      tracepoint (ttv_test, enums_floats, colors[r % 7], r * 0.125 - 1.0 / 3.0);
      char padded[16] = { 0 };
      strncpy (padded, s, sizeof padded - 1);
      tracepoint (ttv_test, texts, s, padded, values, (unsigned) (strlen (s) < 8 ? strlen (s) : 8));
      tracepoint (ttv_test, empty);
      if (pause_us > 0)
        usleep ((useconds_t) pause_us);
    }
  return 0;
}
