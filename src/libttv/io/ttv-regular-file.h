/* ttv-regular-file.h: opening the files a trace or a user names as data
 * (tracefiles, metadata, XML, bookmarks, groups and format files) so that a
 * FIFO, a device, a folder or a link loop in their place is refused with a
 * message saying what it is, instead of blocking, or being read forever.
 * Used by every reader (tracefiles through ttv-file-window.c) and by the
 * bookmarks. */
#pragma once

#include <glib.h>
#include <sys/stat.h>

G_BEGIN_DECLS

/* "a folder", "a FIFO", "a character device", ...: what @mode is, for
 * messages ("%s is a FIFO, not a file"). */
const char  *ttv_file_kind_describe (mode_t mode);

/* Why @path, an entry of a trace folder, cannot be read as a data file:
 * NULL when it is a regular file (or a link to one; *@size gets its size
 * when not NULL), else a message naming it ("PATH is a FIFO, not a file",
 * "PATH is a symbolic link to a character device, not a file", "PATH: a
 * symbolic link that leads nowhere (...)").  Caller frees. */
char        *ttv_regular_file_dup_problem (const char *path, guint64 *size);

/* Opens @path read-only, never blocking (O_NONBLOCK, cleared once the file
 * is known to be regular), and refuses anything but a regular file: -1
 * with @error (G_FILE_ERROR: NOENT, LOOP for a link loop, ISDIR, INVAL for
 * any other kind, ...) whose message names @path and says what it is.
 * *@st receives the file's status when not NULL. */
int          ttv_regular_file_open (const char *path, struct stat *st, GError **error);

/* Reads the whole regular file @path when it holds at most @max_bytes
 * (checked before reading, and again while reading, as the file may grow):
 * FALSE with @error otherwise (G_FILE_ERROR_FAILED "larger than ...").
 * *@contents is NUL-terminated. */
gboolean     ttv_regular_file_read (const char *path, gsize max_bytes, char **contents,
                                    gsize *length, GError **error);

G_END_DECLS
