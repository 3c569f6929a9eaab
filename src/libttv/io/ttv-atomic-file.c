/* ttv-atomic-file.c: replacing a file atomically and durably, and cleaning
 * what killed writers left (see ttv-atomic-file.h). */
#include "ttv-atomic-file.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define TMP_INFIX ".ttv-tmp-"
/* A temporary file younger than this may be one whose writer has not
 * locked it yet: it is never taken for stale. */
#define MIN_STALE_AGE_S 2

struct _TtvAtomicFile {
  char *path;                   /* owned: the file being replaced */
  char *tmp;                    /* owned: its temporary file */
  int fd;                       /* open on @tmp, locked */
};

static char *
dup_tmp_prefix (const char *path)
{
  g_autofree char *base = g_path_get_basename (path);
  return g_strconcat (".", base, TMP_INFIX, NULL);
}

guint
ttv_atomic_file_clean_stale (const char *path)
{
  g_return_val_if_fail (path != NULL, 0);
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *prefix = dup_tmp_prefix (path);
  int dir_fd = open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd < 0)
    return 0;
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  time_t now = time (NULL);
  guint n = 0;
  while (d && (name = g_dir_read_name (d)))
    {
      struct stat st;
      if (!g_str_has_prefix (name, prefix)
          || fstatat (dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG (st.st_mode)
          || now - st.st_mtime < MIN_STALE_AGE_S)
        continue;
      int fd = openat (dir_fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
      if (fd < 0)
        continue;
      /* A live writer holds the lock; a dead one released it with its life. */
      if (flock (fd, LOCK_EX | LOCK_NB) == 0 && unlinkat (dir_fd, name, 0) == 0)
        n++;
      close (fd);
    }
  close (dir_fd);
  return n;
}

#define set_errno_error(error, errsv, format, path) \
  g_set_error ((error), G_FILE_ERROR, g_file_error_from_errno (errsv), (format), (path), g_strerror (errsv))

TtvAtomicFile *
ttv_atomic_file_begin (const char *path, GError **error)
{
  g_return_val_if_fail (path != NULL, NULL);
  ttv_atomic_file_clean_stale (path);
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *prefix = dup_tmp_prefix (path);
  g_autofree char *name = g_strconcat (prefix, "XXXXXX", NULL);
  char *tmp = g_build_filename (dir, name, NULL);
  int fd = g_mkstemp_full (tmp, O_RDWR | O_CLOEXEC, 0600);
  if (fd < 0)
    {
      set_errno_error (error, errno, _("%s: cannot create a temporary file beside it: %s"), path);
      g_free (tmp);
      return NULL;
    }
  flock (fd, LOCK_EX);
  TtvAtomicFile *f = g_new0 (TtvAtomicFile, 1);
  f->path = g_strdup (path);
  f->tmp = tmp;
  f->fd = fd;
  return f;
}

int
ttv_atomic_file_get_fd (const TtvAtomicFile *f)
{
  g_return_val_if_fail (f != NULL, -1);
  return f->fd;
}

void
ttv_atomic_file_abort (TtvAtomicFile *f)
{
  if (f == NULL)
    return;
  g_unlink (f->tmp);
  close (f->fd);
  g_free (f->path);
  g_free (f->tmp);
  g_free (f);
}

gboolean
ttv_atomic_file_commit (TtvAtomicFile *f, int mode, GError **error)
{
  g_return_val_if_fail (f != NULL, FALSE);
  if (fchmod (f->fd, (mode_t) mode) != 0 || fsync (f->fd) != 0)
    {
      set_errno_error (error, errno, _("%s: cannot write: %s"), f->path);
      ttv_atomic_file_abort (f);
      return FALSE;
    }
  if (rename (f->tmp, f->path) != 0)
    {
      set_errno_error (error, errno, _("%s: cannot replace it: %s"), f->path);
      ttv_atomic_file_abort (f);
      return FALSE;
    }
  /* The rename itself must reach the disk too, or a crash can bring the
   * old file back (or none, for a new one). */
  g_autofree char *dir = g_path_get_dirname (f->path);
  int dir_fd = open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  gboolean ok = dir_fd >= 0 && fsync (dir_fd) == 0;
  int errsv = errno;
  if (dir_fd >= 0)
    close (dir_fd);
  if (!ok)
    set_errno_error (error, errsv, _("%s: cannot make the new file durable: %s"), f->path);
  close (f->fd);
  g_free (f->path);
  g_free (f->tmp);
  g_free (f);
  return ok;
}

gboolean
ttv_atomic_file_set_contents (const char *path, const char *data, gsize length, int mode, GError **error)
{
  TtvAtomicFile *f = ttv_atomic_file_begin (path, error);
  if (f == NULL)
    return FALSE;
  for (gsize done = 0; done < length;)
    {
      ssize_t n = write (f->fd, data + done, length - done);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          set_errno_error (error, n < 0 ? errno : EIO, _("%s: cannot write: %s"), path);
          ttv_atomic_file_abort (f);
          return FALSE;
        }
      done += (gsize) n;
    }
  return ttv_atomic_file_commit (f, mode, error);
}
