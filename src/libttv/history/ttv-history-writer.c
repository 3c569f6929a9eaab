/* ttv-history-writer.c: where a state history's representation is
 * written while it is built: memory, an unlinked temporary file, or the
 * cache file (committed under its name when complete), and its checksum.
 * Used by the builder and the cache. */
#include "ttv-history-private.h"
#include "ttv-error.h"
#include "ttv-large-buffer.h"
#include "ttv-temp-file.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Appends to a file gather in a buffer this large, in huge pages where
 * the kernel gives them: a build's first megabyte then takes one page
 * fault, not 256 (ttv-large-buffer.h). */
#define WRITE_BUFFER (1u << 20)

/* ---- the checksum ---- */

#define P1 G_GUINT64_CONSTANT (0x9E3779B185EBCA87)
#define P2 G_GUINT64_CONSTANT (0xC2B2AE3D27D4EB4F)
#define P3 G_GUINT64_CONSTANT (0x165667B19E3779F9)
#define P4 G_GUINT64_CONSTANT (0x85EBCA77C2B2AE63)
#define P5 G_GUINT64_CONSTANT (0x27D4EB2F165667C5)

static inline guint64
rotl64 (guint64 x, int r)
{
  return (x << r) | (x >> (64 - r));
}

static inline guint64
hash_round (guint64 acc, guint64 input)
{
  acc += input * P2;
  return rotl64 (acc, 31) * P1;
}

static inline guint64
le64 (const guint8 *p)
{
  guint64 x;
  memcpy (&x, p, 8);
  return GUINT64_FROM_LE (x);
}

void
ttv_history_hasher_init (TtvHistoryHasher *s)
{
  memset (s, 0, sizeof *s);
  s->v[0] = P1 + P2;
  s->v[1] = P2;
  s->v[2] = 0;
  s->v[3] = (guint64) 0 - P1;
}

static inline void
hash_stripe (guint64 v[4], const guint8 *p)
{
  v[0] = hash_round (v[0], le64 (p));
  v[1] = hash_round (v[1], le64 (p + 8));
  v[2] = hash_round (v[2], le64 (p + 16));
  v[3] = hash_round (v[3], le64 (p + 24));
}

void
ttv_history_hasher_update (TtvHistoryHasher *s, const guint8 *p, gsize n)
{
  s->total += n;
  if (s->tail_len)
    {
      gsize take = MIN (n, 32 - s->tail_len);
      memcpy (s->tail + s->tail_len, p, take);
      s->tail_len += take;
      p += take;
      n -= take;
      if (s->tail_len < 32)
        return;
      hash_stripe (s->v, s->tail);
      s->tail_len = 0;
    }
  guint64 v[4] = { s->v[0], s->v[1], s->v[2], s->v[3] };
  for (; n >= 32; p += 32, n -= 32)
    hash_stripe (v, p);
  memcpy (s->v, v, sizeof v);
  memcpy (s->tail, p, n);
  s->tail_len = n;
}

guint64
ttv_history_hasher_finish (const TtvHistoryHasher *s)
{
  guint64 h = rotl64 (s->v[0], 1) + rotl64 (s->v[1], 7) + rotl64 (s->v[2], 12) + rotl64 (s->v[3], 18);
  for (guint k = 0; k < 4; k++)
    h = (h ^ hash_round (0, s->v[k])) * P1 + P4;
  h += s->total;
  for (gsize i = 0; i < s->tail_len; i++)
    h = rotl64 (h ^ (s->tail[i] * P5), 11) * P1;
  h ^= h >> 33;
  h *= P2;
  h ^= h >> 29;
  h *= P3;
  h ^= h >> 32;
  return h;
}

guint64
ttv_history_hash (const guint8 *data, gsize size)
{
  TtvHistoryHasher s;
  ttv_history_hasher_init (&s);
  ttv_history_hasher_update (&s, data, size);
  return ttv_history_hasher_finish (&s);
}

gboolean
ttv_history_hash_file (int fd, guint64 from, guint64 size, guint64 *sum, guint64 *bad_at)
{
  TtvHistoryHasher s;
  ttv_history_hasher_init (&s);
  /* A buffer in huge pages: read once, a cache file's check takes one
   * page fault for it, not 256 (ttv-large-buffer.h). */
  guint8 *buf = ttv_large_buffer_new (WRITE_BUFFER);
  gboolean ok = TRUE;
  guint64 at = from;
  while (ok && at < size)
    {
      gsize n = (gsize) MIN ((guint64) WRITE_BUFFER, size - at);
      ok = ttv_file_read_at (fd, buf, n, at);
      if (ok)
        {
          ttv_history_hasher_update (&s, buf, n);
          at += n;
        }
    }
  ttv_large_buffer_free (buf, WRITE_BUFFER);
  *sum = ttv_history_hasher_finish (&s);
  *bad_at = at;
  return ok;
}

/* ---- the checksum as the bytes go out ---- */

typedef struct _TtvHistoryRunningHash TtvHistoryRunningHash;

struct _TtvHistoryRunningHash {
  TtvHistoryHasher hasher;
  guint64 to;              /* the bytes before this offset are hashed */
  gboolean broken;         /* bytes went out of order: read back instead */
  gboolean stopped;        /* the bytes from @to on are read back */
};

static gsize
checksum_head (const TtvHistoryWriter *w)
{
  return w->header_size ? w->header_size : sizeof (TtvHistoryHeader);
}

void
ttv_history_writer_hash_as_written (TtvHistoryWriter *w)
{
  g_return_if_fail (w->running == NULL && w->offset == 0);
  w->running = g_new0 (TtvHistoryRunningHash, 1);
  ttv_history_hasher_init (&w->running->hasher);
  w->running->to = checksum_head (w);
}

/* @data, @n bytes, goes to the file at @at. */
static void
hash_written (TtvHistoryWriter *w, const guint8 *data, gsize n, guint64 at)
{
  TtvHistoryRunningHash *r = w->running;
  guint64 head = checksum_head (w);
  if (r == NULL || r->broken || r->stopped || at + n <= head)
    return;
  if (at < head)
    {
      data += head - at;
      n -= head - at;
      at = head;
    }
  if (at != r->to)
    {
      r->broken = TRUE;
      return;
    }
  ttv_history_hasher_update (&r->hasher, data, n);
  r->to += n;
}

void
ttv_history_writer_hash_stop (TtvHistoryWriter *w)
{
  if (w->running == NULL || w->running->broken)
    return;
  ttv_history_writer_flush (w);
  w->running->stopped = TRUE;
}

/* Bytes already hashed are written again. */
static void
hash_overwritten (TtvHistoryWriter *w, guint64 offset, gsize size)
{
  if (w->running && offset + size > checksum_head (w) && offset < w->running->to)
    w->running->broken = TRUE;
}

/* ---- the writer ---- */

static void
fail (TtvHistoryWriter *w, int err)
{
  if (!w->failed)
    {
      w->failed = TRUE;
      w->err = err ? err : EIO;
    }
}

void
ttv_history_writer_init_memory (TtvHistoryWriter *w, guint64 spill_limit, const char *spill_dir)
{
  memset (w, 0, sizeof *w);
  w->fd = -1;
  w->bytes = g_byte_array_new ();
  w->spill_limit = spill_limit;
  w->spill_dir = g_strdup (spill_dir);
}

gboolean
ttv_history_writer_init_file (TtvHistoryWriter *w, const char *dir, gboolean anonymous, GError **error)
{
  memset (w, 0, sizeof *w);
  w->fd = ttv_temp_file_new (dir, anonymous ? NULL : &w->tmp_path, error);
  if (w->fd < 0)
    return FALSE;
  w->buf = ttv_large_buffer_new (WRITE_BUFFER);
  return TRUE;
}

void
ttv_history_writer_clear (TtvHistoryWriter *w)
{
  if (w->bytes)
    g_byte_array_unref (w->bytes);
  if (w->fd >= 0)
    close (w->fd);
  if (w->tmp_path)
    g_unlink (w->tmp_path);
  g_free (w->tmp_path);
  ttv_large_buffer_free (w->buf, WRITE_BUFFER);
  g_free (w->spill_dir);
  g_free (w->running);
  memset (w, 0, sizeof *w);
  w->fd = -1;
}

gboolean
ttv_history_writer_flush (TtvHistoryWriter *w)
{
  if (w->fd < 0 || w->len == 0)
    return !w->failed;
  hash_written (w, w->buf, w->len, w->offset - w->len);
  if (!w->failed && !ttv_file_write_at (w->fd, w->buf, w->len, w->offset - w->len))
    fail (w, errno);
  w->len = 0;
  return !w->failed;
}

/* In memory past the limit: the bytes so far go to an unlinked file, and
 * everything after them too. */
static void
spill_to_file (TtvHistoryWriter *w)
{
  g_autoptr (GError) error = NULL;
  int fd = ttv_temp_file_new (w->spill_dir ? w->spill_dir : g_get_tmp_dir (), NULL, &error);
  w->spill_limit = 0;
  if (fd < 0)
    {
      /* Memory it is, then: the history is still right, only larger. */
      g_debug ("state history stays in memory: %s", error->message);
      return;
    }
  if (!ttv_file_write_at (fd, w->bytes->data, w->bytes->len, 0))
    {
      g_debug ("state history stays in memory: %s", g_strerror (errno));
      close (fd);
      return;
    }
  hash_written (w, w->bytes->data, w->bytes->len, 0);
  g_byte_array_unref (w->bytes);
  w->bytes = NULL;
  w->fd = fd;
  w->buf = ttv_large_buffer_new (WRITE_BUFFER);
  w->len = 0;
}

guint64
ttv_history_writer_append (TtvHistoryWriter *w, const void *data, gsize size)
{
  guint64 at = w->offset;
  if (size == 0)
    return at;
  if (w->bytes)
    {
      if (w->spill_limit && w->bytes->len + size > w->spill_limit)
        spill_to_file (w);
      if (w->bytes)
        {
          g_byte_array_append (w->bytes, data, (guint) size);
          w->offset += size;
          return at;
        }
    }
  if (w->len + size > WRITE_BUFFER)
    ttv_history_writer_flush (w);
  if (size >= WRITE_BUFFER)
    {
      hash_written (w, data, size, at);
      if (!w->failed && !ttv_file_write_at (w->fd, data, size, at))
        fail (w, errno);
    }
  else
    {
      memcpy (w->buf + w->len, data, size);
      w->len += size;
    }
  w->offset += size;
  return at;
}

void
ttv_history_writer_align (TtvHistoryWriter *w)
{
  static const guint8 zeros[8] = { 0 };
  if (w->offset % 8)
    ttv_history_writer_append (w, zeros, 8 - w->offset % 8);
}

TtvHistoryStringTable
ttv_history_writer_append_strings (TtvHistoryWriter *w, const GPtrArray *strings)
{
  TtvHistoryStringTable t = { .strings_offset = w->offset };
  g_autoptr (GArray) index = g_array_sized_new (FALSE, FALSE, sizeof (guint64), strings->len);
  for (guint i = 0; i < strings->len; i++)
    {
      const char *s = g_ptr_array_index (strings, i);
      guint64 off = ttv_history_writer_append (w, s, strlen (s) + 1) - t.strings_offset;
      g_array_append_val (index, off);
    }
  t.strings_size = w->offset - t.strings_offset;
  ttv_history_writer_align (w);
  t.index_offset = ttv_history_writer_append (w, index->data, index->len * sizeof (guint64));
  return t;
}

guint64
ttv_history_writer_reserve (TtvHistoryWriter *w, gsize size)
{
  guint64 at = w->offset;
  if (w->bytes && w->spill_limit && w->bytes->len + size > w->spill_limit)
    spill_to_file (w);
  if (w->bytes)
    {
      g_byte_array_set_size (w->bytes, (guint) (w->bytes->len + size));
      memset (w->bytes->data + at, 0, size);
    }
  else if (w->len + size <= WRITE_BUFFER)
    {
      /* Zeros in the buffer, filled in place by ttv_history_writer_pwrite ():
       * the regions of many rows go out in one write, where a system call
       * per row (the extension, then each part written) took a third of a
       * build's time. */
      memset (w->buf + w->len, 0, size);
      w->len += size;
    }
  else
    {
      /* Later appends go after the region: nothing may wait before it. */
      ttv_history_writer_flush (w);
      if (!w->failed && ftruncate (w->fd, (off_t) (at + size)) != 0)
        fail (w, errno);
    }
  w->offset += size;
  return at;
}

void
ttv_history_writer_pwrite (TtvHistoryWriter *w, guint64 offset, const void *data, gsize size)
{
  g_return_if_fail (offset + size <= w->offset);
  /* An empty directory may have no bytes at all (@data NULL). */
  if (size == 0)
    return;
  if (w->bytes)
    {
      memcpy (w->bytes->data + offset, data, size);
      return;
    }
  guint64 buffered_from = w->offset - w->len;
  if (offset >= buffered_from)
    {
      memcpy (w->buf + (offset - buffered_from), data, size);
      return;
    }
  if (offset + size > buffered_from)
    ttv_history_writer_flush (w);
  hash_overwritten (w, offset, size);
  if (!w->failed && !ttv_file_write_at (w->fd, data, size, offset))
    fail (w, errno);
}

guint64
ttv_history_writer_checksum (TtvHistoryWriter *w)
{
  gsize head = checksum_head (w);
  if (w->offset <= head)
    return ttv_history_hash (NULL, 0);
  if (w->bytes)
    return ttv_history_hash (w->bytes->data + head, w->bytes->len - head);
  if (!ttv_history_writer_flush (w))
    return 0;
  /* The bytes hashed as they went out, in order and not written again,
   * are not read back: the rest is, after them. */
  TtvHistoryHasher s;
  guint64 at = head;
  if (w->running && !w->running->broken)
    {
      s = w->running->hasher;
      at = w->running->to;
    }
  else
    ttv_history_hasher_init (&s);
  /* Read back rather than mapped: the pages stay out of this process. */
  while (at < w->offset)
    {
      gsize n = (gsize) MIN ((guint64) WRITE_BUFFER, w->offset - at);
      if (!ttv_file_read_at (w->fd, w->buf, n, at))
        {
          fail (w, errno);
          return 0;
        }
      ttv_history_hasher_update (&s, w->buf, n);
      at += n;
    }
  return ttv_history_hasher_finish (&s);
}

gboolean
ttv_history_writer_commit (TtvHistoryWriter *w, const char *path, GError **error)
{
  if (!ttv_history_writer_flush (w))
    {
      ttv_history_writer_set_error (w, path, error);
      return FALSE;
    }
  g_autofree char *tmp = NULL;
  if (w->tmp_path)
    tmp = g_steal_pointer (&w->tmp_path);
  else
    {
      /* An unnamed file gets a temporary name first: rename() replaces an
       * older file atomically, linkat() would not. */
      tmp = g_strdup_printf ("%s.%d-%08x.tmp", path, (int) getpid (), g_random_int ());
      if (!ttv_temp_file_link (w->fd, tmp, error))
        return FALSE;
    }
  if (g_rename (tmp, path) != 0)
    {
      int err = errno;
      g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_IO, _("Cannot rename %s: %s"), tmp,
                   g_strerror (err));
      g_unlink (tmp);
      return FALSE;
    }
  return TRUE;
}

void
ttv_history_writer_set_error (TtvHistoryWriter *w, const char *what, GError **error)
{
  g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_IO, _("Cannot write the state history to %s: %s"),
               what, g_strerror (w->err ? w->err : EIO));
}
