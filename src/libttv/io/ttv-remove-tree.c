/* ttv-remove-tree.c: removing a tree of any depth with openat/unlinkat and
 * one open folder at a time (see ttv-remove-tree.h). */
#include "ttv-remove-tree.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct {
  dev_t dev;
  ino_t ino;
} Id;

/* Empties the folder open on @fd of everything but folders that are not
 * empty; returns the name of the first such folder (caller frees), NULL
 * when @fd is now empty, or NULL with *@failed when something could not
 * be removed. */
static char *
clear_until_subfolder (int fd, gboolean *failed)
{
  int dup_fd = dup (fd);
  if (dup_fd < 0)
    {
      *failed = TRUE;
      return NULL;
    }
  DIR *d = fdopendir (dup_fd);
  if (d == NULL)
    {
      close (dup_fd);
      *failed = TRUE;
      return NULL;
    }
  rewinddir (d);
  char *descend = NULL;
  struct dirent *e;
  while (descend == NULL && (e = readdir (d)) != NULL)
    {
      if (strcmp (e->d_name, ".") == 0 || strcmp (e->d_name, "..") == 0)
        continue;
      if (unlinkat (fd, e->d_name, 0) == 0 || errno == ENOENT)
        continue;
      if (errno != EISDIR && errno != EPERM)
        {
          *failed = TRUE;
          continue;
        }
      /* A folder: gone at once when empty, else to be emptied first. */
      if (unlinkat (fd, e->d_name, AT_REMOVEDIR) == 0 || errno == ENOENT)
        continue;
      if (errno == ENOTEMPTY || errno == EEXIST)
        descend = g_strdup (e->d_name);
      else
        *failed = TRUE;
    }
  closedir (d);
  return descend;
}

gboolean
ttv_remove_tree_at (int parent_fd, const char *name)
{
  g_return_val_if_fail (name != NULL, FALSE);
  int fd = openat (parent_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0)
    return errno == ENOENT;
  /* The folders above the current one, to check that ".." leads back to
   * the one we came from (nothing was moved meanwhile). */
  g_autoptr (GArray) path = g_array_new (FALSE, FALSE, sizeof (Id));
  gboolean failed = FALSE;
  struct stat st;
  for (;;)
    {
      char *child = clear_until_subfolder (fd, &failed);
      if (child != NULL)
        {
          int next = openat (fd, child, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
          g_free (child);
          if (next < 0 || fstat (fd, &st) != 0)
            {
              if (next >= 0)
                close (next);
              failed = TRUE;
              break;
            }
          Id here = { st.st_dev, st.st_ino };
          g_array_append_val (path, here);
          close (fd);
          fd = next;
          continue;
        }
      if (path->len == 0 || failed)
        break;
      /* Empty: up again, where the next pass removes it. */
      int up = openat (fd, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
      Id want = g_array_index (path, Id, path->len - 1);
      if (up < 0 || fstat (up, &st) != 0 || st.st_dev != want.dev || st.st_ino != want.ino)
        {
          if (up >= 0)
            close (up);
          failed = TRUE;
          errno = ESTALE;
          break;
        }
      g_array_set_size (path, path->len - 1);
      close (fd);
      fd = up;
    }
  int errsv = errno;
  close (fd);
  if (failed)
    {
      errno = errsv;
      return FALSE;
    }
  return unlinkat (parent_fd, name, AT_REMOVEDIR) == 0 || errno == ENOENT;
}

gboolean
ttv_remove_tree (const char *path)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *base = g_path_get_basename (path);
  int parent = open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (parent < 0)
    return FALSE;
  gboolean ok = ttv_remove_tree_at (parent, base);
  int errsv = errno;
  close (parent);
  errno = errsv;
  return ok;
}
