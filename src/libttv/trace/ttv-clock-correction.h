/* ttv-clock-correction.h: a linear correction of one trace's clock (offset
 * and drift): what synchronization and manual offsets set on a trace, and
 * what the traceset context applies to its event times. */
#pragma once

#include "ttv-time.h"

#include <glib.h>

G_BEGIN_DECLS

/* corrected = t + offset_ns + drift * (t - origin).  The origin (a time of
 * the trace, usually its start) keeps the numbers small: offset_ns is the
 * correction there.  All zero: no correction. */
typedef struct {
  TtvTime origin;
  double offset_ns;
  double drift;                 /* -50e-6: the trace's clock ran 50 ppm fast */
} TtvClockCorrection;

gboolean ttv_clock_correction_is_identity (const TtvClockCorrection *c);
TtvTime  ttv_clock_correction_apply (const TtvClockCorrection *c, TtvTime t);
/* The first trace time whose corrected time is at or after @corrected:
 * where a tracefile seeks for a corrected time (TTV_TIME_MIN and
 * TTV_TIME_MAX stay). */
TtvTime  ttv_clock_correction_invert (const TtvClockCorrection *c, TtvTime corrected);
/* @then after @first, as one correction with @first's origin: what a fit
 * made on times @first already corrected amounts to. */
void     ttv_clock_correction_compose (const TtvClockCorrection *first, const TtvClockCorrection *then,
                                       TtvClockCorrection *out);
/* "t + 0.250000000 s" or "t - 0.300012345 s + 49.998 ppm * (t - 1700000000.300000000)"
 * (ASCII: it goes to terminals of any locale). */
char    *ttv_clock_correction_to_string (const TtvClockCorrection *c);
/* A manual offset as users type it: seconds with an optional sign and
 * decimals ("+0.25", "-1.5", "3"), at most 10^9 s either way; FALSE when
 * @text is not that (surrounding blanks allowed). */
gboolean ttv_clock_offset_parse (const char *text, gint64 *offset_ns);

G_END_DECLS
