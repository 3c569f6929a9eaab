/* ttv-defects-app.c: the instrumented program of the recorded-session tests
 * (tests/formats/ctf-sessions): "fields" emits every_field over values that
 * showed ttv's defects; "ticks N [PAUSE_FILE]" emits N ticks, then waits
 * for PAUSE_FILE to disappear (so a session can rotate or snapshot while it
 * runs), then N more. */
#define TRACEPOINT_CREATE_PROBES
#define TRACEPOINT_DEFINE
#include "ttv-defects-tp.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void
fields (void)
{
  /* Strings that are not UTF-8: a lone continuation byte, a truncated
   * sequence, an overlong NUL, Latin-1, a surrogate. */
  static const char *const texts[] = {
    "plain", "caf\xc3\xa9", "bad \x80 byte", "cut \xe2\x82", "overlong \xc0\x80", "latin \xe9t\xe9",
    "surrogate \xed\xa0\x80", "ctl \x01\x1f\x7f",
  };
  static const uint64_t wides[] = {
    0, 9, 10, 9223372036854775807ULL, 9223372036854775808ULL, 18446744073709551614ULL, 18446744073709551615ULL,
  };
  /* Values that %g prints alike (824161.5 and 824162.5 both "824162"). */
  static const double reals[] = { 824161.5, 824162.5, 0.1, -1.0 / 3.0, 1e300, 5e-324, 3.4028234663852886e38 };
  uint8_t bytes[8] = { 0xde, 0xad, 0xbe, 0xef, 0, 1, 2, 3 };
  for (unsigned i = 0; i < 8; i++)
    tracepoint (ttv_defects, every_field, (int64_t) i * 3 - 4, wides[i % 7], texts[i], bytes, i % 5,
                reals[i % 7]);
}

static void
ticks (unsigned long n, const char *pause_file)
{
  for (unsigned long i = 0; i < n; i++)
    tracepoint (ttv_defects, tick, i);
  if (pause_file)
    {
      /* At most 30 s: the test removes the file when its session has
       * rotated or taken its snapshot. */
      for (int k = 0; k < 3000 && access (pause_file, F_OK) == 0; k++)
        usleep (10000);
      for (unsigned long i = 0; i < n; i++)
        tracepoint (ttv_defects, tick, n + i);
    }
}

int
main (int argc, char **argv)
{
  if (argc >= 2 && strcmp (argv[1], "fields") == 0)
    fields ();
  else if (argc >= 3 && strcmp (argv[1], "ticks") == 0)
    ticks (strtoul (argv[2], NULL, 10), argc > 3 ? argv[3] : NULL);
  else
    return 2;
  return 0;
}
