/* ttv-report-output.c: where ttv-report writes a report. */
#include "ttv-config.h"

#include "ttv-report-output.h"

#include <errno.h>
#include <gio/gio.h>
#include <glib/gi18n.h>
#include <unistd.h>

static gboolean
write_failed (GError **error)
{
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("cannot write the report: %s"), g_strerror (errno));
  return FALSE;
}

/* Straight to @out's descriptor, after what its stdio buffer holds: a
 * large piece through that 4 KiB buffer took two write calls (one to fill
 * the buffer, one for the rest), and a call costs more than its bytes'
 * copy (bench/README.md, issue 15). */
static gboolean
write_bytes (FILE *out, const char *data, gsize len, GError **error)
{
  if (fflush (out) != 0)
    return write_failed (error);
  int fd = fileno (out);
  while (len > 0)
    {
      ssize_t n = write (fd, data, len);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          if (n == 0)
            errno = EIO;
          return write_failed (error);
        }
      data += n;
      len -= (gsize) n;
    }
  return TRUE;
}

gboolean
ttv_report_output_flush (TtvReportOutput *o, gboolean force, GError **error)
{
  if (o->buf->len == 0 || (!force && o->buf->len < TTV_REPORT_OUTPUT_FLUSH_BYTES))
    return TRUE;
  if (!write_bytes (o->out, o->buf->str, o->buf->len, error))
    return FALSE;
  g_string_truncate (o->buf, 0);
  return TRUE;
}

gboolean
ttv_report_output_write (TtvReportOutput *o, const char *data, gsize len, GError **error)
{
  if (o->buf->len + len < TTV_REPORT_OUTPUT_FLUSH_BYTES)
    {
      g_string_append_len (o->buf, data, len);
      return TRUE;
    }
  return ttv_report_output_flush (o, TRUE, error) && write_bytes (o->out, data, len, error);
}

gboolean
ttv_report_output_warn (GString *warnings, gpointer output, GError **error)
{
  TtvReportOutput *o = output;
  if (!ttv_report_output_flush (o, TRUE, error))
    return FALSE;
  fflush (o->out);
  fputs (warnings->str, stderr);
  g_string_truncate (warnings, 0);
  return TRUE;
}
