/* ttv-regular-file.c: opening data files as regular files only, without
 * blocking (see ttv-regular-file.h). */
#include "ttv-regular-file.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <sys/types.h>
#include <unistd.h>

const char *
ttv_file_kind_describe (mode_t mode)
{
  if (S_ISDIR (mode))
    return _("a folder");
  if (S_ISFIFO (mode))
    return _("a FIFO");
  if (S_ISCHR (mode))
    return _("a character device");
  if (S_ISBLK (mode))
    return _("a block device");
  if (S_ISSOCK (mode))
    return _("a socket");
  if (S_ISLNK (mode))
    return _("a symbolic link");
  if (S_ISREG (mode))
    return _("a file");
  return _("not a file");
}

char *
ttv_regular_file_dup_problem (const char *path, guint64 *size)
{
  struct stat lst, st;
  if (lstat (path, &lst) != 0)
    return g_strdup_printf (_("%s: %s"), path, g_strerror (errno));
  if (!S_ISLNK (lst.st_mode))
    st = lst;
  else if (stat (path, &st) != 0)
    return g_strdup_printf (_("%s: a symbolic link that leads nowhere (%s)"), path, g_strerror (errno));
  if (S_ISREG (st.st_mode))
    {
      if (size)
        *size = (guint64) st.st_size;
      return NULL;
    }
  if (S_ISLNK (lst.st_mode))
    return g_strdup_printf (_("%s is a symbolic link to %s, not a file"), path,
                            ttv_file_kind_describe (st.st_mode));
  return g_strdup_printf (_("%s is %s, not a file"), path, ttv_file_kind_describe (st.st_mode));
}

static void
set_errno_error (GError **error, const char *path, int errsv)
{
  if (errsv == ELOOP)
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_LOOP,
                 _("%s: too many levels of symbolic links (a link loop)"), path);
  else
    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errsv), _("%s: cannot open: %s"), path,
                 g_strerror (errsv));
}

int
ttv_regular_file_open (const char *path, struct stat *st_out, GError **error)
{
  g_return_val_if_fail (path != NULL, -1);
  /* Non-blocking: opening a FIFO for reading would wait for a writer. */
  int fd = open (path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0)
    {
      set_errno_error (error, path, errno);
      return -1;
    }
  struct stat st;
  if (fstat (fd, &st) != 0)
    {
      int errsv = errno;
      close (fd);
      set_errno_error (error, path, errsv);
      return -1;
    }
  if (!S_ISREG (st.st_mode))
    {
      struct stat lst;
      close (fd);
      if (lstat (path, &lst) == 0 && S_ISLNK (lst.st_mode))
        g_set_error (error, G_FILE_ERROR, S_ISDIR (st.st_mode) ? G_FILE_ERROR_ISDIR : G_FILE_ERROR_INVAL,
                     _("%s is a symbolic link to %s, not a file"), path, ttv_file_kind_describe (st.st_mode));
      else
        g_set_error (error, G_FILE_ERROR, S_ISDIR (st.st_mode) ? G_FILE_ERROR_ISDIR : G_FILE_ERROR_INVAL,
                     _("%s is %s, not a file"), path, ttv_file_kind_describe (st.st_mode));
      return -1;
    }
  /* Reads of a regular file never block anyway; clear the flag so that no
   * code path sees EAGAIN. */
  int flags = fcntl (fd, F_GETFL);
  if (flags >= 0)
    fcntl (fd, F_SETFL, flags & ~O_NONBLOCK);
  if (st_out)
    *st_out = st;
  return fd;
}

static gboolean
too_large (GError **error, const char *path, gsize max_bytes)
{
  g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED,
               _("%s is larger than %zu bytes; not read"), path, max_bytes);
  return FALSE;
}

gboolean
ttv_regular_file_read (const char *path, gsize max_bytes, char **contents, gsize *length,
                       GError **error)
{
  g_return_val_if_fail (contents != NULL, FALSE);
  struct stat st;
  int fd = ttv_regular_file_open (path, &st, error);
  if (fd < 0)
    return FALSE;
  if ((guint64) st.st_size > max_bytes)
    {
      close (fd);
      return too_large (error, path, max_bytes);
    }
  gsize cap = (gsize) st.st_size + 1, n = 0;
  char *buf = g_malloc (cap + 1);
  for (;;)
    {
      if (n == cap)
        {
          /* Grown since fstat: read on, up to the limit. */
          if (cap > max_bytes)
            {
              g_free (buf);
              close (fd);
              return too_large (error, path, max_bytes);
            }
          cap = MIN (cap * 2, max_bytes + 1);
          buf = g_realloc (buf, cap + 1);
        }
      ssize_t r = read (fd, buf + n, cap - n);
      if (r < 0 && errno == EINTR)
        continue;
      if (r < 0)
        {
          int errsv = errno;
          g_free (buf);
          close (fd);
          g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errsv), _("%s: cannot read: %s"),
                       path, g_strerror (errsv));
          return FALSE;
        }
      if (r == 0)
        break;
      n += (gsize) r;
    }
  close (fd);
  if (n > max_bytes)
    {
      g_free (buf);
      return too_large (error, path, max_bytes);
    }
  buf[n] = '\0';
  *contents = buf;
  if (length)
    *length = n;
  return TRUE;
}
