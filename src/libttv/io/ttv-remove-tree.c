/* ttv-remove-tree.c: removing a directory tree without following links
 * (see ttv-remove-tree.h). */
#include "ttv-remove-tree.h"

#include <ftw.h>
#include <stdio.h>

static int
remove_one (const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
  (void) sb;
  (void) flag;
  (void) ftw;
  remove (path);
  return 0;
}

void
ttv_remove_tree (const char *path)
{
  g_return_if_fail (path != NULL);
  nftw (path, remove_one, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
}
