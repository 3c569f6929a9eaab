/* ttv-ctf-text.h: one event as the line `babeltrace2 --clock-gmt` prints,
 * for cross-checking the CTF reader (tests, ttv-report's babeltrace mode). */
#pragma once

#include "ttv-trace.h"

G_BEGIN_DECLS

/* Appends the line (with its trailing newline) for @event of a CTF trace:
 * "[HH:MM:SS.nnnnnnnnn] (+S.nnnnnnnnn) host name: { cpu_id = 0 }, ...".
 * @previous_time is the time of the line before, TTV_TIME_MIN for the first
 * ("(+?.?????????)").  @decoder is reset and reused. */
void ttv_ctf_append_babeltrace_line (GString *out, const TtvEvent *event, TtvTime previous_time,
                                     TtvDecoder *decoder);
/* The same line with every scope decoded then printed from the decoder's
 * nodes, never from the bytes: the general path, which tests compare the
 * direct one with. */
void ttv_ctf_append_babeltrace_line_decoded (GString *out, const TtvEvent *event, TtvTime previous_time,
                                             TtvDecoder *decoder);

/* Appends the warning babeltrace2 prints on stderr when the tracer lost
 * events or packets (@lost, of @tracefile of a CTF trace):
 * "WARNING: Tracer discarded 17 events between [...] and [...] in trace
 * \"HOST\" (UUID: ...) within stream \"PATH\" (stream class ID: 0, stream ID: 0).\n" */
void ttv_ctf_append_babeltrace_lost (GString *out, const TtvTracefile *tracefile, const TtvLostRange *lost);

/* For tests: the labels the line prints for @raw, a value of enum @t
 * ("\"A\", \"B\"" or "<unknown>"), as its plan finds them (@planned) or
 * computed from the mappings; NULL when the plan has no list for @raw
 * (bit maps and enums of many mappings, past the first 256 values).
 * Free with g_free(). */
char *ttv_ctf_text_enum_labels (const TtvType *t, guint64 raw, gboolean planned);

/* For tests: forgets, in this thread, the texts of the contexts the line
 * copies when their bytes repeat, so that the next line writes them. */
void ttv_ctf_text_forget_scopes (void);

/* For tests: @len bytes of @s as the line quotes and escapes them (up to
 * the first NUL when @nul_ends, as for a text array): by the scan for the
 * first byte to escape (@scan) or byte by byte.  Free with g_free(). */
char *ttv_ctf_text_escape (const char *s, gsize len, gboolean nul_ends, gboolean scan);

G_END_DECLS
