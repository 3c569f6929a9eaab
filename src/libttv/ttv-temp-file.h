/* ttv-temp-file.h: files for data that must not stay in memory
 * (checkpoints of the state, a state history without its cache): created
 * unnamed where the system allows, so that nothing is left behind if the
 * program dies. */
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

G_END_DECLS
