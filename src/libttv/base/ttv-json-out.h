/* ttv-json-out.h: pieces of JSON text that any bytes can be written as: the
 * report's jsonl lines and the decoder's JSON values use them. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Appends @s (@len bytes, or up to its NUL when @len is -1) as a JSON
 * string.  Quotes, backslashes and control characters are escaped; bytes
 * that are not UTF-8 (invalid, truncated or overlong sequences, surrogates)
 * each become U+FFFD, so that the line is valid JSON whatever the trace
 * holds (docs/ttv-report.1, JSON LINES). */
void ttv_json_append_string (GString *out, const char *s, gssize len);

/* Appends a floating-point number that reads back to the same value: the
 * shortest decimal form that round-trips at @bits precision (32: binary32,
 * 64: binary64).  Infinities and NaN, which JSON numbers cannot hold, are
 * the strings "Infinity", "-Infinity" and "NaN". */
void ttv_json_append_double (GString *out, double value, guint bits);

G_END_DECLS
