/* ttv-temp-file.h: files for data that must not stay in memory
 * (checkpoints of the state, state histories): created unnamed where the
 * system allows, so that nothing is left behind if the program dies; and
 * whole reads and writes at an offset. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A new file in @dir (created if needed, mode 0700), open for reading
 * and writing.  @tmp_path NULL: unnamed (or unlinked at once).  Else
 * *@tmp_path gets NULL for an unnamed file that can be given a name later
 * (ttv_temp_file_link), or the name of a file created under a temporary
 * name (".tmp" suffix).  Returns the descriptor, or -1 with @error set. */
int      ttv_temp_file_new (const char *dir, char **tmp_path, GError **error);
/* Gives the unnamed file @fd the name @path (which must not exist). */
gboolean ttv_temp_file_link (int fd, const char *path, GError **error);

/* All @n bytes at @offset (retrying short transfers and EINTR); FALSE
 * with errno set on failure (or 0 at the end of the file). */
gboolean ttv_file_read_at (int fd, void *buf, gsize n, guint64 offset);
gboolean ttv_file_write_at (int fd, const void *buf, gsize n, guint64 offset);

G_END_DECLS
