/* ttv-file-window.c: trace files read through small windows, buffers
 * filled by pread, or the file mapped where a window reads on (see
 * ttv-file-window.h). */
#include "ttv-file-window.h"
#include "ttv-error.h"
#include "ttv-large-buffer.h"
#include "ttv-mapping-guard.h"
#include "ttv-regular-file.h"
#include "ttv-sanitizer.h"
#include "ttv-window-io.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <sys/mman.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Linux 5.14; older headers lack the number (older kernels answer EINVAL,
 * and the file is then read by copies). */
#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif

struct _TtvWindowedFile {
  char *path;      /* owned */
  int fd;
  guint64 size;
  gsize bytes_read;  /* atomic: the file's windows may be read by several threads */
  gint cannot_map;   /* atomic: a mapping of the file failed once; windows read it */
};

TtvWindowedFile *
ttv_windowed_file_open (const char *path, GError **error)
{
  /* A FIFO or a device in a trace's place is refused, never waited on. */
  struct stat st;
  int fd = ttv_regular_file_open (path, &st, error);
  if (fd < 0)
    return NULL;
  TtvWindowedFile *f = g_new0 (TtvWindowedFile, 1);
  f->path = g_strdup (path);
  f->fd = fd;
  f->size = (guint64) st.st_size;
  return f;
}

void
ttv_windowed_file_free (TtvWindowedFile *f)
{
  if (f == NULL)
    return;
  close (f->fd);
  g_free (f->path);
  g_free (f);
}

const char *
ttv_windowed_file_get_path (const TtvWindowedFile *f)
{
  return f->path;
}

guint64
ttv_windowed_file_get_size (const TtvWindowedFile *f)
{
  return f->size;
}

guint64
ttv_windowed_file_get_bytes_read (const TtvWindowedFile *f)
{
  return (guint64) g_atomic_pointer_get (&((TtvWindowedFile *) f)->bytes_read);
}

gboolean
ttv_windowed_file_update_size (TtvWindowedFile *f, GError **error)
{
  struct stat st;
  if (fstat (f->fd, &st) != 0)
    {
      int e = errno;
      g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_IO, "%s: %s", f->path, g_strerror (e));
      return FALSE;
    }
  if ((guint64) st.st_size < f->size)
    {
      g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_TRUNCATED,
                   _("%s: the file shrank from %" PRIu64 " to %" PRIu64 " bytes while it was read"),
                   f->path, f->size, (guint64) st.st_size);
      return FALSE;
    }
  f->size = (guint64) st.st_size;
  return TRUE;
}

static guint64
page_size (void)
{
  static guint64 page;
  if (page == 0)
    {
      long p = sysconf (_SC_PAGESIZE);
      page = p > 0 ? (guint64) p : 4096;
    }
  return page;
}

/* The window holds @bytes, the @len bytes of the file at @start, of which
 * those from @from on were read. */
static void
hold_bytes (TtvFileWindow *w, guint8 *bytes, guint64 start, guint64 len, guint64 from)
{
  w->bytes = bytes;
  w->bytes_offset = start;
  w->bytes_len = len;
  w->read_offset = from;
}

/* The window holds no bytes (its buffer, if any, is kept). */
static void
forget_bytes (TtvFileWindow *w)
{
  if (w->mapped)
    {
      ttv_mapping_guard_remove (w->guard);
      munmap (w->bytes, w->bytes_len);
      w->mapped = FALSE;
    }
  hold_bytes (w, NULL, 0, 0, 0);
}

/* The window's buffer is freed (its bytes, if in it, are not held). */
static void
drop_buffer (TtvFileWindow *w)
{
  ttv_large_buffer_free (w->buf, w->buf_size);
  w->buf = NULL;
  w->buf_size = 0;
}

void
ttv_file_window_clear (TtvFileWindow *w)
{
  drop_buffer (w);
  forget_bytes (w);
}

/* Reads the @len bytes at file offset @at into @dst, not counted as read
 * (the window I/O measurement's reads). */
static gboolean
pread_all (const TtvWindowedFile *f, guint8 *dst, guint64 at, gsize len, GError **error)
{
  gsize got = 0;
  while (got < len)
    {
      ssize_t r = pread (f->fd, dst + got, len - got, (off_t) (at + got));
      if (r < 0 && errno == EINTR)
        continue;
      if (r < 0)
        {
          int e = errno;
          g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_IO,
                       _("%s: cannot read %" PRIu64 " bytes at byte offset %" PRIu64 ": %s"),
                       f->path, (guint64) len, at, g_strerror (e));
          return FALSE;
        }
      if (r == 0)
        {
          /* The file shrank since its size was taken. */
          g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_TRUNCATED,
                       _("%s: the file ends at byte offset %" PRIu64 ", before the %" PRIu64
                         " bytes at byte offset %" PRIu64 " could be read"),
                       f->path, at + got, (guint64) len, at);
          return FALSE;
        }
      got += (gsize) r;
    }
  return TRUE;
}

/* Reads the @len bytes at file offset @at into @dst. */
static gboolean
read_into (const TtvWindowedFile *f, guint8 *dst, guint64 at, gsize len, GError **error)
{
  if (!pread_all (f, dst, at, len, error))
    return FALSE;
  g_atomic_pointer_add (&((TtvWindowedFile *) f)->bytes_read, len);
  return TRUE;
}

/* The size of a buffer with room for @room bytes: a multiple of the
 * window's size.  Packets of one stream hold a few bytes more or less
 * each (a CTF packet's content, in a packet of 1 MiB): a buffer of just
 * the room was made again whenever one was larger than the last, and
 * malloc gave back and took again the top of its heap each time, so
 * that every such packet's pages were faulted in anew (on a virtual
 * machine, half a read's time; bench/README.md, "the windows' buffers"). */
static gsize
buffer_size_for (gsize room)
{
  const gsize unit = TTV_FILE_WINDOW_BYTES;
  return room > G_MAXSIZE - unit ? room : (room + unit - 1) / unit * unit;
}

/* Reads the bytes [@start + @skip, @start + @len) into the window's buffer
 * at @skip, the buffer made again when it has no room for the @room bytes
 * from @start (@len <= @room), or far more than that (a large packet's
 * buffer is not kept once the reader has moved past it). */
static gboolean
fill (TtvFileWindow *w, guint64 start, gsize len, gsize room, gsize skip, GError **error)
{
  const TtvWindowedFile *f = w->file;
  gsize size = buffer_size_for (room);
  if (w->buf_size < room || w->buf_size > MAX (size, (gsize) 4 * TTV_FILE_WINDOW_BYTES))
    {
      drop_buffer (w);
      /* A packet claiming most of a huge file is an error, not an abort.
       * A large packet's buffer in huge pages (ttv-large-buffer.h). */
      if ((w->buf = ttv_large_buffer_alloc (size)) == NULL)
        {
          g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_IO,
                       _("%s: no memory for the %" PRIu64 " bytes at byte offset %" PRIu64),
                       f->path, (guint64) room, start);
          return FALSE;
        }
      w->buf_size = size;
    }
  return read_into (f, w->buf + skip, start + skip, len - skip, error);
}

static gboolean
check_length (const TtvWindowedFile *f, guint64 start, guint64 len, GError **error)
{
  if (len == (gsize) len && len <= (guint64) G_MAXSSIZE)
    return TRUE;
  g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_IO,
               _("%s: %" PRIu64 " bytes at byte offset %" PRIu64 " cannot be read at once"), f->path, len, start);
  return FALSE;
}

/* Reads the bytes [@start, @start + @len) of the file into the window,
 * those before @from excepted, into a buffer with room for @room bytes
 * from @start; they are then at @start's place in it. */
static const guint8 *
read_range_in (TtvFileWindow *w, guint64 start, guint64 len, guint64 room, guint64 from, GError **error)
{
  if (!check_length (w->file, start, room, error))
    return NULL;
  if (!fill (w, start, (gsize) len, (gsize) room, (gsize) (from - start), error))
    return NULL;
  hold_bytes (w, w->buf, start, len, from);
  return w->bytes;
}

static const guint8 *
read_range (TtvFileWindow *w, guint64 start, guint64 len, guint64 from, GError **error)
{
  return read_range_in (w, start, len, len, from, error);
}

/* Whether a read of the bytes from @offset on reads on from the window's
 * bytes (a cursor reading the file through), rather than moving it
 * elsewhere (a seek, the first read): a range after the window's start,
 * no further past its end than its length, which takes the next range
 * after the next too (the CTF cursor reads a stream's packets through two
 * windows in turn, keeping the last packet's). */
static gboolean
reads_on (const TtvFileWindow *w, guint64 offset)
{
  return !TTV_SANITIZED && w->bytes != NULL && offset > w->bytes_offset
         && offset - w->bytes_offset <= 2 * w->bytes_len;
}

/* The @len bytes of @f from @start (page aligned) mapped, every page read
 * in by one call rather than a fault each (which costs microseconds on a
 * virtual machine), and registered with the mapping guard as *@guard;
 * NULL when they cannot be mapped (the file marked so when no range of it
 * can be: a file system that cannot map files, no address space, a kernel
 * without MADV_POPULATE_READ).  A file that shrank makes the call fail,
 * not a later read of the mapping. */
static guint8 *
map_pages (TtvWindowedFile *f, guint64 start, gsize len, gint *guard)
{
  void *m = mmap (NULL, len, PROT_READ, MAP_SHARED, f->fd, (off_t) start);
  if (m == MAP_FAILED)
    {
      g_atomic_int_set (&f->cannot_map, 1);
      return NULL;
    }
  if (madvise (m, len, MADV_POPULATE_READ) != 0)
    {
      if (errno == EINVAL)
        g_atomic_int_set (&f->cannot_map, 1);
      munmap (m, len);
      return NULL;
    }
  *guard = ttv_mapping_guard_add (m, len, f->path, start);
  if (*guard < 0)
    {
      munmap (m, len);
      return NULL;
    }
  return m;
}

/* Maps the window's next range (map_pages): the bytes from @start (page
 * aligned) up to @end, or TTV_FILE_WINDOW_MAP_BYTES of them when more,
 * within the file.  FALSE, the window holding nothing, when they cannot be
 * mapped: the caller reads them instead, and reports what fails then. */
static gboolean
map_range (TtvFileWindow *w, guint64 start, guint64 end)
{
  TtvWindowedFile *f = (TtvWindowedFile *) w->file;
  guint64 len = MIN (MAX (end - start, TTV_FILE_WINDOW_MAP_BYTES), f->size - start);
  if (len > TTV_FILE_WINDOW_MAP_MAX || len != (gsize) len || g_atomic_int_get (&f->cannot_map))
    return FALSE;
  gint guard;
  guint8 *m = map_pages (f, start, (gsize) len, &guard);
  if (m == NULL)
    return FALSE;
  hold_bytes (w, m, start, len, start);
  w->mapped = TRUE;
  w->guard = guard;
  /* A large packet's buffer is not kept once the reader has moved past
   * it (as fill does). */
  if (w->buf_size > 4 * TTV_FILE_WINDOW_BYTES)
    drop_buffer (w);
  g_atomic_pointer_add (&f->bytes_read, (gsize) len);
  return TRUE;
}

/* ---- the measurement of the two ways (ttv-window-io.h) ---- */

/* Less than this left in the file tells nothing: the next window tries. */
#define PROBE_MIN_BYTES ((guint64) 64 << 10)
/* Each way this many times, in turns; the fastest of each counts (a
 * thread put off the processor during one only makes that one slow). */
#define PROBE_ROUNDS 3
/* The reader looks at every line of the bytes it reads. */
#define LINE_BYTES 64

static gint64
now_ns (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (gint64) ts.tv_sec * G_GINT64_CONSTANT (1000000000) + ts.tv_nsec;
}

/* Reads one byte of every line, as a reader would, so that each way is
 * timed until the bytes reach the processor. */
static guint
look_at (const guint8 *bytes, gsize len)
{
  guint sum = 0;
  for (gsize i = 0; i < len; i += LINE_BYTES)
    sum += bytes[i];
  return sum;
}

/* Nanoseconds to copy the @len bytes of @f at @start into @buf, as a
 * window reads, and look at them; -1 when the read fails. */
static gint64
time_copy (TtvWindowedFile *f, guint8 *buf, guint64 start, gsize len, guint *sum)
{
  gint64 t0 = now_ns ();
  if (!pread_all (f, buf, start, len, NULL))
    return -1;
  *sum += look_at (buf, len);
  return now_ns () - t0;
}

/* Nanoseconds to map the @len bytes of @f at @start as a window does,
 * look at them and unmap them; -1 when they cannot be mapped. */
static gint64
time_map (TtvWindowedFile *f, guint64 start, gsize len, guint *sum)
{
  gint64 t0 = now_ns ();
  gint guard;
  guint8 *m = map_pages (f, start, len, &guard);
  if (m == NULL)
    return -1;
  *sum += look_at (m, len);
  ttv_mapping_guard_remove (guard);
  munmap (m, len);
  return now_ns () - t0;
}

typedef struct {
  TtvWindowedFile *file;
  guint64 offset;
} ReadOn;

/* TtvWindowIoMeasure: both ways on the TTV_FILE_WINDOW_MAP_BYTES of the
 * file a window is about to read on (@data, a ReadOn): the faster, or
 * UNDECIDED when too few bytes are left to tell.  The copy's buffer is
 * written first, since a window's buffer is reused, its pages long in
 * place.  The bytes are not counted as read. */
static TtvWindowIo
measure_read_on (gpointer data)
{
  const ReadOn *r = data;
  TtvWindowedFile *f = r->file;
  guint64 start = r->offset & ~(page_size () - 1);
  if (start >= f->size || f->size - start < PROBE_MIN_BYTES)
    return TTV_WINDOW_IO_UNDECIDED;
  gsize len = (gsize) MIN (f->size - start, TTV_FILE_WINDOW_MAP_BYTES);
  g_autofree guint8 *buf = g_malloc (len);
  memset (buf, 0, len);
  gint64 best_copy = G_MAXINT64, best_map = G_MAXINT64;
  guint sum = 0;
  for (guint round = 0; round < PROBE_ROUNDS; round++)
    {
      gint64 copy = -1, map = -1;
      if (round % 2 == 0)
        copy = time_copy (f, buf, start, len, &sum), map = time_map (f, start, len, &sum);
      else
        map = time_map (f, start, len, &sum), copy = time_copy (f, buf, start, len, &sum);
      if (copy < 0 || map < 0)
        return TTV_WINDOW_IO_COPY;
      best_copy = MIN (best_copy, copy);
      best_map = MIN (best_map, map);
    }
  TtvWindowIo io = best_map < best_copy ? TTV_WINDOW_IO_MAP : TTV_WINDOW_IO_COPY;
  g_debug ("windows read on %s: %" G_GSIZE_FORMAT " bytes mapped in %.1f us, copied in %.1f us (%u)",
           ttv_window_io_name (io), len, best_map / 1e3, best_copy / 1e3, sum & 1);
  return io;
}

/* A window that reads on (reads_on, from @from), moved by a mapping to
 * the range [@offset, @offset + @length) (@offset <= @from): a pointer to
 * the bytes at @offset; NULL when it does not read on, @from is past the
 * end of the file, copies cost less on this machine (ttv-window-io.h), or
 * the mapping fails (the window then holds nothing): the caller reads the
 * range, and reports what fails. */
static const guint8 *
map_read_on (TtvFileWindow *w, guint64 offset, guint64 length, guint64 from)
{
  TtvWindowedFile *f = (TtvWindowedFile *) w->file;
  ReadOn read_on = { f, offset };
  if (!reads_on (w, from) || from >= f->size
      || ttv_window_io_choose (measure_read_on, &read_on) != TTV_WINDOW_IO_MAP)
    return NULL;
  forget_bytes (w);
  /* From a page boundary, as the copies. */
  guint64 start = offset & ~(page_size () - 1);
  return map_range (w, start, offset + length) ? w->bytes + (offset - start) : NULL;
}

/* Fails, the window then holding nothing, when @offset is past the end of
 * the file. */
static gboolean
check_offset (TtvFileWindow *w, guint64 offset, GError **error)
{
  const TtvWindowedFile *f = w->file;
  forget_bytes (w);
  if (offset < f->size)
    return TRUE;
  g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_TRUNCATED,
               _("%s: byte offset %" PRIu64 " is past the end of the file (%" PRIu64 " bytes)"),
               f->path, offset, f->size);
  return FALSE;
}

const guint8 *
ttv_file_window_read (TtvFileWindow *w, guint64 offset, guint64 length, GError **error)
{
  const guint8 *mapped = map_read_on (w, offset, length, offset);
  if (mapped)
    return mapped;
  if (!check_offset (w, offset, error))
    return NULL;
  /* From a page boundary, so that the bytes keep the alignment of their
   * file offsets to the buffer's (16 bytes at least). */
  guint64 start = offset & ~(page_size () - 1);
  guint64 want = MAX ((guint64) TTV_FILE_WINDOW_BYTES, (offset - start) + length);
  guint64 len = MIN (want, w->file->size - start);
  const guint8 *bytes = read_range (w, start, len, start, error);
  return bytes ? bytes + (offset - start) : NULL;
}

const guint8 *
ttv_file_window_read_pages (TtvFileWindow *w, guint64 offset, guint64 length, GError **error)
{
  if (!check_offset (w, offset, error))
    return NULL;
  guint64 page = page_size ();
  guint64 start = offset & ~(page - 1);
  guint64 left = w->file->size - start;
  guint64 want = MIN ((offset - start) + length, left);
  guint64 len = MIN ((want + page - 1) & ~(page - 1), left);
  const guint8 *bytes = read_range (w, start, len, start, error);
  return bytes ? bytes + (offset - start) : NULL;
}

/* ttv_file_window_read_tail, with the bytes read ending at @until
 * (@offset + @length at most), the buffer's room for all @length. */
static const guint8 *
read_tail_until (TtvFileWindow *w, guint64 offset, guint64 length, guint64 from, guint64 until,
                 GError **error)
{
  if (!check_offset (w, from, error))
    return NULL;
  guint64 start = offset & ~(page_size () - 1);
  guint64 room = (offset - start) + length;
  guint64 len = MIN (until - start, w->file->size - start);
  /* Whole pages: the page cache copies no faster for less. */
  guint64 first = from & ~(page_size () - 1);
  const guint8 *bytes = read_range_in (w, start, len, room, first, error);
  return bytes ? bytes + (offset - start) : NULL;
}

const guint8 *
ttv_file_window_read_tail (TtvFileWindow *w, guint64 offset, guint64 length, guint64 from, GError **error)
{
  g_return_val_if_fail (from >= offset && from - offset <= length, NULL);
  const guint8 *mapped = map_read_on (w, offset, length, from);
  if (mapped)
    return mapped;
  return read_tail_until (w, offset, length, from, offset + length, error);
}

const guint8 *
ttv_file_window_read_ends (TtvFileWindow *w, guint64 offset, guint64 length, guint64 head, guint64 from,
                           GError **error)
{
  return ttv_file_window_read_ends_until (w, offset, length, head, from, offset + length, error);
}

const guint8 *
ttv_file_window_read_ends_until (TtvFileWindow *w, guint64 offset, guint64 length, guint64 head, guint64 from,
                                 guint64 until, GError **error)
{
  g_return_val_if_fail (from >= offset && from - offset <= length && head <= from - offset, NULL);
  g_return_val_if_fail (until >= from && until <= offset + length, NULL);
  guint64 page = page_size ();
  guint64 start = offset & ~(page - 1);
  guint64 head_end = (offset + head + page - 1) & ~(page - 1);
  if (head_end >= (from & ~(page - 1)))
    return read_tail_until (w, offset, length, offset, until, error);
  const guint8 *bytes = read_tail_until (w, offset, length, from, until, error);
  if (bytes == NULL)
    return NULL;
  /* The head's pages; the window says only the tail was read, so that
   * nothing else takes the bytes between for read. */
  if (!read_into (w->file, w->bytes, start, (gsize) (head_end - start), error))
    {
      forget_bytes (w);
      return NULL;
    }
  return bytes;
}

gboolean
ttv_file_window_extend (TtvFileWindow *w, guint64 until, GError **error)
{
  g_return_val_if_fail (w->bytes != NULL && until >= w->bytes_offset, FALSE);
  guint64 end = w->bytes_offset + w->bytes_len;
  until = MIN (until, w->file->size);
  if (until <= end)
    return TRUE;
  /* A mapped window holds all the range it was read for. */
  g_return_val_if_fail (!w->mapped && until - w->bytes_offset <= w->buf_size, FALSE);
  if (!read_into (w->file, w->bytes + w->bytes_len, end, (gsize) (until - end), error))
    {
      forget_bytes (w);
      return FALSE;
    }
  w->bytes_len = until - w->bytes_offset;
  return TRUE;
}
