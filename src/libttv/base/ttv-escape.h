/* ttv-escape.h: text from files and users made safe to print: names read
 * from an archive, a filter, a command line.  Used by every message that
 * quotes such text, and by the programs for their own arguments. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* @text (@length bytes, -1: NUL-terminated) as it can be shown on a
 * terminal or in a dialog: valid UTF-8 and printable characters as they
 * are; control characters as \n, \t, \r, \e or \xNN (so that a name with a
 * newline or an ANSI escape cannot forge lines or colours); bytes that are
 * not UTF-8, and a backslash itself, as \xNN and \\.  Caller frees. */
char *ttv_escape_for_display (const char *text, gssize length);
/* A message that quotes such text, as it can be shown: unchanged when it
 * is valid UTF-8 without control characters (so text escaped before is not
 * escaped twice), else ttv_escape_for_display().  Caller frees. */
char *ttv_text_for_display (const char *text);

G_END_DECLS
