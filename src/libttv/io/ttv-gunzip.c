/* ttv-gunzip.c: gzip inflated with zlib, CRC-32 and length checked, as
 * libarchive's read callback (see ttv-gunzip.h). */
#include "ttv-gunzip.h"

#include <errno.h>
#include <inttypes.h>
#include <glib/gi18n-lib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#define IN_BYTES (64u << 10)
#define OUT_BYTES (256u << 10)
/* libarchive's error number for data that is not what it says it is. */
#define ERRNO_DAMAGED EILSEQ

struct _TtvGunzip {
  int fd;                       /* -1: reading @mem */
  const guint8 *mem;            /* weak */
  gsize mem_len, mem_pos;
  z_stream z;
  gboolean z_ready;
  gboolean in_member;           /* inside a gzip member (its end not reached) */
  gboolean done;
  guint64 in_total;             /* bytes read from the source */
  guint8 in[IN_BYTES];
  guint8 out[OUT_BYTES];
};

gboolean
ttv_gunzip_is_gzip (const guint8 *head, gsize len)
{
  return len >= 2 && head[0] == 0x1f && head[1] == 0x8b;
}

static TtvGunzip *
gunzip_new (void)
{
  TtvGunzip *gz = g_new0 (TtvGunzip, 1);
  gz->fd = -1;
  gz->in_member = TRUE;
  /* 16 + MAX_WBITS: gzip headers and trailers, which zlib checks. */
  gz->z_ready = inflateInit2 (&gz->z, 16 + MAX_WBITS) == Z_OK;
  return gz;
}

TtvGunzip *
ttv_gunzip_new_fd (int fd)
{
  TtvGunzip *gz = gunzip_new ();
  gz->fd = fd;
  return gz;
}

TtvGunzip *
ttv_gunzip_new_memory (const guint8 *data, gsize len)
{
  TtvGunzip *gz = gunzip_new ();
  gz->mem = data;
  gz->mem_len = len;
  return gz;
}

void
ttv_gunzip_free (TtvGunzip *gz)
{
  if (gz == NULL)
    return;
  if (gz->z_ready)
    inflateEnd (&gz->z);
  g_free (gz);
}

guint64
ttv_gunzip_get_compressed_bytes (const TtvGunzip *gz)
{
  return gz->in_total - gz->z.avail_in;
}

/* Sets libarchive's error of @a to @message (freed). */
static void
set_error (struct archive *a, int code, char *message)
{
  archive_set_error (a, code, "%s", message);
  g_free (message);
}

/* More input: FALSE at the end of the source (or on a read error, set on @a). */
static gboolean
fill (TtvGunzip *gz, struct archive *a, gboolean *failed)
{
  gsize n;
  if (gz->fd < 0)
    {
      n = MIN ((gsize) IN_BYTES, gz->mem_len - gz->mem_pos);
      memcpy (gz->in, gz->mem + gz->mem_pos, n);
      gz->mem_pos += n;
    }
  else
    {
      ssize_t r;
      do
        r = read (gz->fd, gz->in, IN_BYTES);
      while (r < 0 && errno == EINTR);
      if (r < 0)
        {
          int errsv = errno;
          set_error (a, errsv, g_strdup_printf (_("cannot read the compressed data: %s"), g_strerror (errsv)));
          *failed = TRUE;
          return FALSE;
        }
      n = (gsize) r;
    }
  gz->z.next_in = gz->in;
  gz->z.avail_in = (uInt) n;
  gz->in_total += n;
  return n > 0;
}

/* After a member's end: another member, zero padding, or the end.  FALSE
 * with the error set on @a when something else follows. */
static gboolean
next_member (TtvGunzip *gz, struct archive *a, gboolean *failed)
{
  for (;;)
    {
      while (gz->z.avail_in > 0 && gz->z.next_in[0] == 0)
        {
          gz->z.next_in++;
          gz->z.avail_in--;
        }
      if (gz->z.avail_in > 0)
        break;
      if (!fill (gz, a, failed))
        {
          gz->done = !*failed;
          return !*failed;
        }
    }
  if (gz->z.next_in[0] != 0x1f)
    {
      set_error (a, ERRNO_DAMAGED,
                 g_strdup_printf (_("unexpected data after the end of the gzip data, at byte %" PRIu64),
                                  ttv_gunzip_get_compressed_bytes (gz)));
      *failed = TRUE;
      return FALSE;
    }
  inflateReset (&gz->z);
  gz->in_member = TRUE;
  return TRUE;
}

static la_ssize_t
gunzip_read (struct archive *a, void *data, const void **buf)
{
  TtvGunzip *gz = data;
  gboolean failed = FALSE;
  *buf = gz->out;
  if (!gz->z_ready)
    {
      set_error (a, ENOMEM, g_strdup (_("out of memory")));
      return -1;
    }
  while (!gz->done)
    {
      if (!gz->in_member)
        {
          if (!next_member (gz, a, &failed))
            return failed ? -1 : 0;
          if (gz->done)
            return 0;
        }
      if (gz->z.avail_in == 0 && !fill (gz, a, &failed))
        {
          if (failed)
            return -1;
          set_error (a, ERRNO_DAMAGED,
                     g_strdup_printf (_("the gzip data ends at byte %" PRIu64 " before its end: the file is "
                                        "truncated"), gz->in_total));
          return -1;
        }
      gz->z.next_out = gz->out;
      gz->z.avail_out = OUT_BYTES;
      int r = inflate (&gz->z, Z_NO_FLUSH);
      la_ssize_t produced = OUT_BYTES - gz->z.avail_out;
      if (r == Z_STREAM_END)
        gz->in_member = FALSE;   /* the CRC-32 and the length matched */
      else if (r == Z_DATA_ERROR && gz->z.msg && strcmp (gz->z.msg, "incorrect data check") == 0)
        {
          set_error (a, ERRNO_DAMAGED,
                     g_strdup_printf (_("the gzip data is damaged: its CRC-32 (at byte %" PRIu64 ") does not "
                                        "match the data"), ttv_gunzip_get_compressed_bytes (gz)));
          return -1;
        }
      else if (r == Z_DATA_ERROR && gz->z.msg && strcmp (gz->z.msg, "incorrect length check") == 0)
        {
          set_error (a, ERRNO_DAMAGED,
                     g_strdup_printf (_("the gzip data is damaged: its length (at byte %" PRIu64 ") does not "
                                        "match the data"), ttv_gunzip_get_compressed_bytes (gz)));
          return -1;
        }
      else if (r != Z_OK && r != Z_BUF_ERROR)
        {
          set_error (a, ERRNO_DAMAGED,
                     g_strdup_printf (_("the gzip data is damaged at byte %" PRIu64 ": %s"),
                                      ttv_gunzip_get_compressed_bytes (gz), gz->z.msg ? gz->z.msg : "?"));
          return -1;
        }
      if (produced > 0)
        return produced;
    }
  return 0;
}

int
ttv_gunzip_open_archive (TtvGunzip *gz, struct archive *a)
{
  return archive_read_open (a, gz, NULL, gunzip_read, NULL);
}

gboolean
ttv_gunzip_read_to_end (TtvGunzip *gz, struct archive *a)
{
  const void *buf;
  la_ssize_t n;
  while ((n = gunzip_read (a, gz, &buf)) > 0)
    ;
  return n == 0;
}
