/* ttv-temp-file.c: unnamed files for data that must not stay in memory,
 * whole reads and writes at an offset (see ttv-temp-file.h). */
#include "ttv-temp-file.h"
#include "ttv-error.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <unistd.h>

int
ttv_temp_file_new (const char *dir, char **tmp_path, GError **error)
{
  if (tmp_path)
    *tmp_path = NULL;
  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int err = errno;
      g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_IO, _("Cannot create %s: %s"), dir,
                   g_strerror (err));
      return -1;
    }
  int fd = -1;
#ifdef O_TMPFILE
  fd = open (dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd >= 0)
    return fd;
#endif
  g_autofree char *tmpl = g_build_filename (dir, "ttv-XXXXXX.tmp", NULL);
  fd = g_mkstemp_full (tmpl, O_RDWR | O_CLOEXEC, 0600);
  if (fd < 0)
    {
      int err = errno;
      g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_IO, _("Cannot create a file in %s: %s"), dir,
                   g_strerror (err));
      return -1;
    }
  if (tmp_path)
    *tmp_path = g_steal_pointer (&tmpl);
  else
    g_unlink (tmpl);
  return fd;
}

gboolean
ttv_temp_file_link (int fd, const char *path, GError **error)
{
  g_autofree char *proc = g_strdup_printf ("/proc/self/fd/%d", fd);
  if (linkat (AT_FDCWD, proc, AT_FDCWD, path, AT_SYMLINK_FOLLOW) != 0)
    {
      int err = errno;
      g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_IO, _("Cannot create %s: %s"), path,
                   g_strerror (err));
      return FALSE;
    }
  return TRUE;
}

gboolean
ttv_file_read_at (int fd, void *buf, gsize n, guint64 offset)
{
  guint8 *p = buf;
  while (n > 0)
    {
      ssize_t k = pread (fd, p, n, (off_t) offset);
      if (k < 0 && errno == EINTR)
        continue;
      if (k <= 0)
        {
          if (k == 0)
            errno = 0;
          return FALSE;
        }
      p += k;
      n -= (gsize) k;
      offset += (guint64) k;
    }
  return TRUE;
}

gboolean
ttv_file_write_at (int fd, const void *buf, gsize n, guint64 offset)
{
  const guint8 *p = buf;
  while (n > 0)
    {
      ssize_t k = pwrite (fd, p, n, (off_t) offset);
      if (k < 0 && errno == EINTR)
        continue;
      if (k <= 0)
        return FALSE;
      p += k;
      n -= (gsize) k;
      offset += (guint64) k;
    }
  return TRUE;
}
