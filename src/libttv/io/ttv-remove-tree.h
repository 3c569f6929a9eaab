/* ttv-remove-tree.h: removing a directory tree that ttv made (an extracted
 * archive, a live session's spool, ttv-gen's work folder) without ever
 * following a link out of it. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Removes @path and everything below it, as far as it can: links are
 * removed, never followed, and other file systems are not entered. */
void ttv_remove_tree (const char *path);

G_END_DECLS
