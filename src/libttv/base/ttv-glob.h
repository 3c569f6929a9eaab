/* ttv-glob.h: shell-style patterns ('*' any run, '?' one character) over
 * text that may not be UTF-8.  Trace names and fields come from the trace
 * and patterns from the user: GPatternSpec needs valid UTF-8 on both sides
 * (it aborts on some invalid patterns and reads past the end of invalid
 * text), so anything else is matched byte by byte. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* @pattern against the @len bytes of @text, '?' taking one byte. */
gboolean ttv_glob_match_bytes (const char *pattern, const char *text, gsize len);

/* @pattern against @text: by characters when both are UTF-8, otherwise by
 * bytes. */
gboolean ttv_glob_match (const char *pattern, const char *text);

G_END_DECLS
