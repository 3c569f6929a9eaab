/* ttv-remove-tree.h: removing a folder and everything in it with
 * descriptor-relative calls, at any depth (a hostile archive's 3,000-level
 * tree is beyond PATH_MAX, where nftw and remove() fail) and with a bounded
 * number of open descriptors.  Used by the archive cache. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Removes the folder @name of the folder open on @parent_fd (AT_FDCWD:
 * the current folder) and everything below it, never following a
 * symbolic link.  FALSE, with errno set, when something could not be
 * removed (what could is gone) or the tree changed under it. */
gboolean ttv_remove_tree_at (int parent_fd, const char *name);
/* The same for the folder @path. */
gboolean ttv_remove_tree (const char *path);

G_END_DECLS
