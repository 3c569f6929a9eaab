/* ttv-time.h: TtvTime, the one time representation of the toolkit.
 * Every reader converts its clock to TtvTime once; everything above uses it. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Signed 64-bit nanoseconds since the Unix epoch (covers years 1678..2262). */
typedef gint64 TtvTime;

#define TTV_TIME_MIN G_MININT64
#define TTV_TIME_MAX G_MAXINT64
#define TTV_NSEC_PER_SEC G_GINT64_CONSTANT (1000000000)

/* "SSSSSSSSSS.NNNNNNNNN" (negative times get a leading '-'); buf >= 32 bytes. */
char   *ttv_time_to_string   (TtvTime t, char *buf, gsize buf_len);
char   *ttv_time_dup_string  (TtvTime t);
/* Accepts "S", "S.N" (1 to 9 decimals), optional leading '-'. */
gboolean ttv_time_parse      (const char *text, TtvTime *out, GError **error);
/* Converts a count of cycles at freq Hz into nanoseconds without overflow. */
gint64  ttv_time_cycles_to_ns (guint64 cycles, guint64 freq_hz);

G_END_DECLS
