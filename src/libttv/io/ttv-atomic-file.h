/* ttv-atomic-file.h: replacing a file so that it is always either the old
 * one or the new one, even if the program dies: the new contents go to a
 * temporary file beside it (".NAME.ttv-tmp-XXXXXX", locked while it is
 * written), fsync'ed, renamed over it, and the folder fsync'ed.  What a
 * killed writer leaves is found by its free lock and removed by the next
 * writer or reader of the same file.  Used by bookmarks and archive rewrites. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _TtvAtomicFile TtvAtomicFile;

/* Starts replacing @path: creates and locks its temporary file (mode 0600
 * until committed), after removing the stale ones of earlier writers.
 * NULL with @error (G_FILE_ERROR) when it cannot be created. */
TtvAtomicFile *ttv_atomic_file_begin (const char *path, GError **error);
/* The descriptor to write the new contents to. */
int            ttv_atomic_file_get_fd (const TtvAtomicFile *file);
/* fsync, @mode, rename over @path, fsync of the folder; the temporary file
 * is removed on failure.  Frees @file. */
gboolean       ttv_atomic_file_commit (TtvAtomicFile *file, int mode, GError **error);
/* Removes the temporary file and frees @file (NULL is ignored). */
void           ttv_atomic_file_abort (TtvAtomicFile *file);

/* The whole file at once. */
gboolean       ttv_atomic_file_set_contents (const char *path, const char *data, gsize length, int mode,
                                             GError **error);

/* Removes the temporary files that writers of @path left when they died
 * (those whose lock is free); returns how many. */
guint          ttv_atomic_file_clean_stale (const char *path);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvAtomicFile, ttv_atomic_file_abort)

G_END_DECLS
