/* ttv-window-io.c: mapped or copied, measured once per process (see
 * ttv-window-io.h). */
#include "ttv-window-io.h"
#include "ttv-file-window.h"
#include "ttv-mapping-guard.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif

/* Bytes each way reads: what a window read on maps. */
#define PROBE_BYTES TTV_FILE_WINDOW_MAP_BYTES
/* Less than this left in the file tells nothing: the next window tries. */
#define PROBE_MIN_BYTES ((guint64) 64 << 10)
/* Each way this many times, in turns; the fastest of each counts (a
 * thread put off the processor during one only makes that one slow). */
#define PROBE_ROUNDS 3
/* The reader looks at every line of the bytes it reads. */
#define LINE_BYTES 64

static gint window_io = TTV_WINDOW_IO_UNDECIDED;  /* atomic */
static gint measuring;                            /* atomic: a thread measures */

TtvWindowIo
ttv_window_io_get (void)
{
  return (TtvWindowIo) g_atomic_int_get (&window_io);
}

void
ttv_window_io_set (TtvWindowIo io)
{
  g_atomic_int_set (&window_io, (gint) io);
}

const char *
ttv_window_io_name (TtvWindowIo io)
{
  switch (io)
    {
    case TTV_WINDOW_IO_MAP: return "map";
    case TTV_WINDOW_IO_COPY: return "copy";
    case TTV_WINDOW_IO_UNDECIDED: break;
    }
  return "undecided";
}

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

/* Nanoseconds to pread the @len bytes at @offset into @buf and look at
 * them; -1 when the read fails. */
static gint64
time_copy (int fd, guint8 *buf, guint64 offset, gsize len, guint *sum)
{
  gint64 t0 = now_ns ();
  gsize got = 0;
  while (got < len)
    {
      ssize_t r = pread (fd, buf + got, len - got, (off_t) (offset + got));
      if (r < 0 && errno == EINTR)
        continue;
      if (r <= 0)
        return -1;
      got += (gsize) r;
    }
  *sum += look_at (buf, len);
  return now_ns () - t0;
}

/* Nanoseconds to map the @len bytes at @offset (page aligned) of @path as
 * a window does, look at them and unmap them; -1 when the file cannot be
 * mapped so.  The mapping is in the guard as a window's is: a file that
 * another program truncates meanwhile stops the program with a message,
 * not a SIGBUS. */
static gint64
time_map (int fd, const char *path, guint64 offset, gsize len, guint *sum)
{
  gint64 t0 = now_ns ();
  void *m = mmap (NULL, len, PROT_READ, MAP_SHARED, fd, (off_t) offset);
  if (m == MAP_FAILED)
    return -1;
  gint guard = -1;
  if (madvise (m, len, MADV_POPULATE_READ) != 0 || (guard = ttv_mapping_guard_add (m, len, path, offset)) < 0)
    {
      munmap (m, len);
      return -1;
    }
  *sum += look_at (m, len);
  ttv_mapping_guard_remove (guard);
  munmap (m, len);
  return now_ns () - t0;
}

/* Both ways on the bytes of the file from @offset on: the faster, or
 * UNDECIDED when too few bytes are left to tell.  The copy's buffer is
 * written first, since a window's buffer is reused, its pages long in
 * place. */
static TtvWindowIo
measure (int fd, const char *path, guint64 offset, guint64 size)
{
  guint64 start = offset & ~(guint64) (sysconf (_SC_PAGESIZE) - 1);
  if (start >= size || size - start < PROBE_MIN_BYTES)
    return TTV_WINDOW_IO_UNDECIDED;
  gsize len = (gsize) MIN (size - start, PROBE_BYTES);
  g_autofree guint8 *buf = g_malloc (len);
  memset (buf, 0, len);
  gint64 best_copy = G_MAXINT64, best_map = G_MAXINT64;
  guint sum = 0;
  for (guint round = 0; round < PROBE_ROUNDS; round++)
    {
      gint64 copy = -1, map = -1;
      if (round % 2 == 0)
        copy = time_copy (fd, buf, start, len, &sum), map = time_map (fd, path, start, len, &sum);
      else
        map = time_map (fd, path, start, len, &sum), copy = time_copy (fd, buf, start, len, &sum);
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

/* TTV_WINDOW_IO's way, or UNDECIDED when it is unset or "auto". */
static TtvWindowIo
from_environment (void)
{
  const char *v = g_getenv ("TTV_WINDOW_IO");
  if (v == NULL || *v == '\0' || g_str_equal (v, "auto"))
    return TTV_WINDOW_IO_UNDECIDED;
  if (g_str_equal (v, "map"))
    return TTV_WINDOW_IO_MAP;
  if (g_str_equal (v, "copy"))
    return TTV_WINDOW_IO_COPY;
  g_warning ("TTV_WINDOW_IO=%s: expected map, copy or auto; measuring instead", v);
  return TTV_WINDOW_IO_UNDECIDED;
}

TtvWindowIo
ttv_window_io_choose (int fd, const char *path, guint64 offset, guint64 size)
{
  TtvWindowIo io = ttv_window_io_get ();
  if (G_LIKELY (io != TTV_WINDOW_IO_UNDECIDED))
    return io;
  /* Another thread measures: this window copies meanwhile. */
  if (!g_atomic_int_compare_and_exchange (&measuring, 0, 1))
    return TTV_WINDOW_IO_COPY;
  static gboolean environment_read;
  if (!environment_read)
    {
      environment_read = TRUE;
      io = from_environment ();
    }
  if (io == TTV_WINDOW_IO_UNDECIDED)
    io = measure (fd, path, offset, size);
  if (io != TTV_WINDOW_IO_UNDECIDED)
    ttv_window_io_set (io);
  g_atomic_int_set (&measuring, 0);
  return io == TTV_WINDOW_IO_UNDECIDED ? TTV_WINDOW_IO_COPY : io;
}
