/* ttv-writer-common.c: errors and output folder shared by the trace writers
 * (ttv-ctf-writer.c, ttv-ltt-writer.c, ttv-lttng-writer.c). */
#include "ttv-writer-common.h"

#include "ttv-error.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

gboolean
ttv_writer_bad_argument (GError **error, const char *format, ...)
{
  va_list ap;
  va_start (ap, format);
  g_autofree char *msg = g_strdup_vprintf (format, ap);
  va_end (ap);
  g_set_error_literal (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT, msg);
  return FALSE;
}

gboolean
ttv_writer_io_error (GError **error, const char *path, int err)
{
  g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_IO, _("%s: cannot write: %s"), path,
               g_strerror (err));
  return FALSE;
}

gboolean
ttv_writer_make_dir (const char *dir, gboolean *empty, GError **error)
{
  g_return_val_if_fail (dir != NULL, FALSE);
  if (g_mkdir_with_parents (dir, 0755) != 0)
    return ttv_writer_io_error (error, dir, errno);
  if (empty != NULL)
    {
      g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
      *empty = !(d && g_dir_read_name (d));
    }
  return TRUE;
}
