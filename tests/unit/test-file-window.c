/* test-file-window.c: trace files read through windows (ttv-file-window.c):
 * the bytes a window hands out are the file's wherever the range falls
 * (at the start, unaligned, across the end of the window, at the end of
 * the file, larger than a window), a window too large for the range asked
 * next is made again, a tail read reads only the bytes asked for, and a
 * range past the end of the file or of a file that shrank fails naming
 * the file, the window then holding nothing; a window read on maps the
 * file or copies it into the buffer it reuses, the way measured once per
 * process (or set by TTV_WINDOW_IO), and a program with the mapping guard
 * reports a mapped file that shrinks under it by its name and offset.
 * Every test but the measurement's runs with windows that map, the way
 * the mapping tests need. */
#include "ttv-error.h"
#include "ttv-file-window.h"
#include "ttv-mapping-guard.h"
#include "ttv-sanitizer.h"
#include "ttv-window-io.h"

#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#define FILE_BYTES (5 * TTV_FILE_WINDOW_BYTES + 1234)

static guint8
byte_at (guint64 offset)
{
  return (guint8) ((offset * 2654435761u) >> 13);
}

/* A file of FILE_BYTES bytes, byte_at() each; its path in @path. */
static TtvWindowedFile *
open_pattern_file (char **path)
{
  g_autoptr (GError) error = NULL;
  int fd = g_file_open_tmp ("ttv-file-window-XXXXXX", path, &error);
  g_assert_no_error (error);
  close (fd);
  g_autofree guint8 *bytes = g_malloc (FILE_BYTES);
  for (guint64 i = 0; i < FILE_BYTES; i++)
    bytes[i] = byte_at (i);
  g_file_set_contents (*path, (const char *) bytes, FILE_BYTES, &error);
  g_assert_no_error (error);
  TtvWindowedFile *f = ttv_windowed_file_open (*path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ttv_windowed_file_get_size (f), ==, FILE_BYTES);
  return f;
}

/* The bytes [@from, @to) of the range at file offset @offset, which @p
 * points to, are the file's. */
static void
assert_file_bytes (const guint8 *p, guint64 offset, guint64 from, guint64 to, const char *what)
{
  for (guint64 i = from; i < to; i++)
    if (p[i] != byte_at (offset + i))
      g_error ("byte %" G_GUINT64_FORMAT " of the %s differs", i, what);
}

static void
assert_range (TtvFileWindow *w, guint64 offset, guint64 length)
{
  g_autoptr (GError) error = NULL;
  const guint8 *p = ttv_file_window_get (w, offset, length, &error);
  g_assert_no_error (error);
  g_assert_nonnull (p);
  g_assert_cmpuint (ttv_file_window_get_available (w, offset), >=, length);
  assert_file_bytes (p, offset, 0, length, "range");
}

static void
test_ranges (void)
{
  g_autofree char *path = NULL;
  g_autoptr (TtvWindowedFile) f = open_pattern_file (&path);
  g_auto (TtvFileWindow) w = TTV_FILE_WINDOW_INIT (f);

  assert_range (&w, 0, 100);
  /* Inside the window held: no move. */
  const guint8 *held = w.bytes;
  assert_range (&w, 4097, 5000);
  g_assert_true (w.bytes == held);
  g_assert_cmpuint (w.bytes_offset, ==, 0);
  /* Across the window's end: the window moves to a page boundary. */
  assert_range (&w, TTV_FILE_WINDOW_BYTES - 10, 20);
  g_assert_cmpuint (w.bytes_offset % 4096, ==, 0);
  g_assert_cmpuint (w.bytes_offset, <=, TTV_FILE_WINDOW_BYTES - 10);
  /* The end of the file: the window holds what is left. */
  assert_range (&w, FILE_BYTES - 7, 7);
  g_assert_cmpuint (ttv_file_window_get_available (&w, FILE_BYTES - 7), ==, 7);
  g_assert_cmpuint (ttv_file_window_get_available (&w, 0), ==, 0);
  /* Larger than a window. */
  assert_range (&w, 3, 2 * TTV_FILE_WINDOW_BYTES + 5);
  /* Back from far larger than a window: that buffer is not kept. */
  g_assert_cmpuint (w.buf_size, >=, 2 * TTV_FILE_WINDOW_BYTES + 8);
  g_assert_true (ttv_file_window_read (&w, 0, FILE_BYTES, NULL) != NULL);
  /* (Whole windows: see test_growing_ranges.) */
  g_assert_cmpuint (w.buf_size, ==, 6 * TTV_FILE_WINDOW_BYTES);
  g_assert_true (ttv_file_window_read (&w, FILE_BYTES - 100, 10, NULL) != NULL);
  g_assert_cmpuint (w.buf_size, <=, 4 * TTV_FILE_WINDOW_BYTES);
  assert_range (&w, FILE_BYTES - 100, 10);

  ttv_file_window_clear (&w);
  g_assert_null (w.bytes);
  g_assert_null (w.buf);
  assert_range (&w, 12345, 678);
  g_unlink (path);
}

/* A tail read: the bytes from @from on are the file's, at their place
 * from @offset; only whole pages from @from's are read, no more than the
 * range; the bytes before them are never handed out as read. */
static void
test_tail (void)
{
  g_autofree char *path = NULL;
  g_autoptr (TtvWindowedFile) f = open_pattern_file (&path);
  g_auto (TtvFileWindow) w = TTV_FILE_WINDOW_INIT (f);
  g_autoptr (GError) error = NULL;
  const guint64 offset = 3 * 4096 + 10, length = 65536, from = offset + 5 * 4096 + 123;

  /* The window first holds other bytes, so that unread ones would show. */
  assert_range (&w, 2 * TTV_FILE_WINDOW_BYTES, 100);
  const guint8 *p = ttv_file_window_get_tail (&w, offset, length, from, &error);
  g_assert_no_error (error);
  assert_file_bytes (p, offset, from - offset, length, "tail");
  g_assert_cmpuint (w.bytes_offset, ==, 3 * 4096);
  g_assert_cmpuint (w.read_offset, ==, (from / 4096) * 4096);
  g_assert_cmpuint (w.bytes_offset + w.bytes_len, ==, offset + length);
  /* Held: the same tail, or a later one, is no read. */
  const guint8 *held = w.bytes;
  g_assert_true (ttv_file_window_get_tail (&w, offset, length, from + 1000, NULL) == p);
  g_assert_true (w.bytes == held);
  g_assert_cmpuint (ttv_file_window_get_available (&w, from), ==, offset + length - from);
  /* The bytes before the tail were not read: not available, and a range
   * or a tail holding them reads them. */
  g_assert_cmpuint (ttv_file_window_get_available (&w, offset), ==, 0);
  p = ttv_file_window_get_tail (&w, offset, length, offset + 4096, &error);
  g_assert_no_error (error);
  assert_file_bytes (p, offset, 4096, length, "longer tail");
  assert_range (&w, offset, length);
  g_assert_cmpuint (w.read_offset, ==, w.bytes_offset);

  /* A tail past the end of the file fails naming it. */
  g_assert_null (ttv_file_window_get_tail (&w, FILE_BYTES - 10, 20, FILE_BYTES + 5, &error));
  g_assert_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_TRUNCATED);
  g_assert_nonnull (strstr (error->message, path));
  g_assert_null (w.bytes);
  g_unlink (path);
}

/* A read of pages (a scan of packet heads): only the whole pages holding
 * the range are read, not a window; what the window holds then serves
 * later ranges inside it; the file's count of bytes read says so; past
 * the end of the file it fails naming it. */
static void
test_pages (void)
{
  g_autofree char *path = NULL;
  g_autoptr (TtvWindowedFile) f = open_pattern_file (&path);
  g_auto (TtvFileWindow) w = TTV_FILE_WINDOW_INIT (f);
  g_autoptr (GError) error = NULL;
  g_assert_cmpuint (ttv_windowed_file_get_bytes_read (f), ==, 0);

  const guint8 *p = ttv_file_window_get_pages (&w, 5 * 4096 + 100, 200, &error);
  g_assert_no_error (error);
  assert_file_bytes (p, 5 * 4096 + 100, 0, 200, "pages");
  g_assert_cmpuint (w.bytes_offset, ==, 5 * 4096);
  g_assert_cmpuint (w.bytes_len, ==, 4096);
  g_assert_cmpuint (ttv_windowed_file_get_bytes_read (f), ==, 4096);
  /* Held: no read. */
  g_assert_true (ttv_file_window_get_pages (&w, 5 * 4096 + 3000, 1000, NULL) == w.bytes + 3000);
  g_assert_cmpuint (ttv_windowed_file_get_bytes_read (f), ==, 4096);
  /* Across a page boundary: both pages. */
  p = ttv_file_window_get_pages (&w, 9 * 4096 - 10, 20, &error);
  g_assert_no_error (error);
  assert_file_bytes (p, 9 * 4096 - 10, 0, 20, "pages across a boundary");
  g_assert_cmpuint (w.bytes_offset, ==, 8 * 4096);
  g_assert_cmpuint (w.bytes_len, ==, 2 * 4096);
  g_assert_cmpuint (ttv_windowed_file_get_bytes_read (f), ==, 3 * 4096);
  /* The end of the file: what is left of its last page. */
  p = ttv_file_window_get_pages (&w, FILE_BYTES - 7, 4096, &error);
  g_assert_no_error (error);
  assert_file_bytes (p, FILE_BYTES - 7, 0, 7, "last page");
  g_assert_cmpuint (ttv_file_window_get_available (&w, FILE_BYTES - 7), ==, 7);
  g_assert_cmpuint (w.bytes_len, ==, FILE_BYTES % 4096);
  /* Past it: an error naming the file, the window holding nothing. */
  g_assert_null (ttv_file_window_get_pages (&w, FILE_BYTES, 10, &error));
  g_assert_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_TRUNCATED);
  g_assert_nonnull (strstr (error->message, path));
  g_assert_null (w.bytes);
  g_unlink (path);
}

/* The ends of a range: its first bytes and a tail (a seek into a CTF
 * packet, which needs the packet's context and its events from one on).
 * The head's pages and the tail's are read; those between are not, and
 * the window says only the tail was read. */
static void
test_ends (void)
{
  g_autofree char *path = NULL;
  g_autoptr (TtvWindowedFile) f = open_pattern_file (&path);
  g_auto (TtvFileWindow) w = TTV_FILE_WINDOW_INIT (f);
  g_autoptr (GError) error = NULL;
  const guint64 offset = 3 * 4096 + 10, length = 65536, head = 150, from = offset + 5 * 4096 + 123;

  /* The window first holds other bytes, so that unread ones would show. */
  assert_range (&w, 2 * TTV_FILE_WINDOW_BYTES, 100);
  const guint8 *p = ttv_file_window_read_ends (&w, offset, length, head, from, &error);
  g_assert_no_error (error);
  assert_file_bytes (p, offset, 0, head, "head");
  assert_file_bytes (p, offset, from - offset, length, "tail");
  g_assert_cmpuint (w.read_offset, ==, (from / 4096) * 4096);
  g_assert_cmpuint (ttv_file_window_get_available (&w, offset), ==, 0);
  g_assert_false (ttv_file_window_holds (&w, offset, length, offset));

  /* A head that reaches the tail's page: the whole range is read. */
  p = ttv_file_window_read_ends (&w, offset, length, 4096, offset + 4096 + 100, &error);
  g_assert_no_error (error);
  assert_file_bytes (p, offset, 0, length, "whole range");
  assert_range (&w, offset, length);

  /* Past the end of the file: an error naming it. */
  g_assert_null (ttv_file_window_read_ends (&w, FILE_BYTES - 5 * 4096, 8 * 4096, 10, FILE_BYTES + 5, &error));
  g_assert_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_TRUNCATED);
  g_assert_nonnull (strstr (error->message, path));
  g_assert_null (w.bytes);
  g_unlink (path);
}

/* The ends of a range read in part: its first bytes, and of its tail
 * only the bytes up to a point; then more, in place (a seek into a large
 * CTF packet, which reads on only as far as it must).  The window holds
 * no byte past what was read; extending it keeps the bytes it held where
 * they were, and stops at the end of the file. */
static void
test_ends_in_part (void)
{
  g_autofree char *path = NULL;
  g_autoptr (TtvWindowedFile) f = open_pattern_file (&path);
  g_auto (TtvFileWindow) w = TTV_FILE_WINDOW_INIT (f);
  g_autoptr (GError) error = NULL;
  const guint64 offset = 3 * 4096 + 10, length = 3 * TTV_FILE_WINDOW_BYTES, head = 150;
  const guint64 from = offset + 5 * 4096 + 123, until = from + 1000;

  assert_range (&w, 2 * TTV_FILE_WINDOW_BYTES, 100);
  const guint8 *p = ttv_file_window_read_ends_until (&w, offset, length, head, from, until, &error);
  g_assert_no_error (error);
  assert_file_bytes (p, offset, 0, head, "head");
  assert_file_bytes (p, offset, from - offset, until - offset, "tail");
  g_assert_cmpuint (ttv_file_window_get_available (&w, from), ==, until - from);
  g_assert_false (ttv_file_window_holds (&w, from, until - from + 1, from));
  g_assert_true (ttv_file_window_holds (&w, from, until - from, from));

  /* More, in place, then to the end of the range. */
  const guint8 *bytes = w.bytes;
  g_assert_true (ttv_file_window_extend (&w, until + 50000, &error));
  g_assert_no_error (error);
  g_assert_true (w.bytes == bytes);
  g_assert_cmpuint (ttv_file_window_get_available (&w, from), ==, until + 50000 - from);
  g_assert_true (ttv_file_window_extend (&w, offset + length, &error));
  assert_file_bytes (p, offset, from - offset, length, "extended tail");
  g_assert_cmpuint (ttv_file_window_get_available (&w, from), ==, offset + length - from);
  /* Extending to bytes it holds reads nothing. */
  g_assert_true (ttv_file_window_extend (&w, until, &error));
  g_assert_cmpuint (ttv_file_window_get_available (&w, from), ==, offset + length - from);

  /* A range at the end of the file: extended to the file's end, no more. */
  const guint64 o2 = FILE_BYTES - 2 * TTV_FILE_WINDOW_BYTES;
  p = ttv_file_window_read_ends_until (&w, o2, 2 * TTV_FILE_WINDOW_BYTES, 10, o2 + 20000, o2 + 30000, &error);
  g_assert_no_error (error);
  g_assert_true (ttv_file_window_extend (&w, FILE_BYTES, &error));
  g_assert_cmpuint (ttv_file_window_get_available (&w, o2 + 20000), ==, FILE_BYTES - (o2 + 20000));
  g_assert_cmpuint (p[FILE_BYTES - 1 - o2], ==, byte_at (FILE_BYTES - 1));

  /* The file shrinks under the window: an error naming it, the window
   * then holding nothing. */
  p = ttv_file_window_read_ends_until (&w, o2, 2 * TTV_FILE_WINDOW_BYTES, 10, o2 + 20000, o2 + 30000, &error);
  g_assert_no_error (error);
  g_assert_cmpint (truncate (path, o2 + 40000), ==, 0);
  g_assert_false (ttv_file_window_extend (&w, o2 + 60000, &error));
  g_assert_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_TRUNCATED);
  g_assert_nonnull (strstr (error->message, path));
  g_assert_null (w.bytes);
  g_unlink (path);
}

static void
test_past_end (void)
{
  g_autofree char *path = NULL;
  g_autoptr (TtvWindowedFile) f = open_pattern_file (&path);
  g_auto (TtvFileWindow) w = TTV_FILE_WINDOW_INIT (f);
  g_autoptr (GError) error = NULL;

  g_assert_null (ttv_file_window_get (&w, FILE_BYTES, 1, &error));
  g_assert_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_TRUNCATED);
  g_assert_nonnull (strstr (error->message, path));
  g_clear_error (&error);

  /* The file shrinks after its size was taken: an error, not a crash. */
  assert_range (&w, 0, 10);
  g_assert_cmpint (truncate (path, TTV_FILE_WINDOW_BYTES + 100), ==, 0);
  g_assert_null (ttv_file_window_get (&w, 2 * TTV_FILE_WINDOW_BYTES, 10, &error));
  g_assert_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_TRUNCATED);
  g_assert_nonnull (strstr (error->message, path));
  g_assert_null (w.bytes);
  g_assert_cmpuint (ttv_file_window_get_available (&w, 2 * TTV_FILE_WINDOW_BYTES), ==, 0);
  g_unlink (path);
}

/* Ranges larger than a window, each a few bytes larger than the last (a
 * stream's packets of 1 MiB, each with its own content size), one after
 * the other: read into one buffer, not one made for each.  Made again
 * each time, the buffer's pages were faulted in anew every packet (7x the
 * time of a header-only read of a recorded LTTng-UST trace). */
static void
test_growing_ranges (void)
{
  g_autofree char *path = NULL;
  g_autoptr (TtvWindowedFile) f = open_pattern_file (&path);
  g_auto (TtvFileWindow) w = TTV_FILE_WINDOW_INIT (f);
  const guint64 packet = TTV_FILE_WINDOW_BYTES + 4096;

  /* A buffer of whole windows, kept for them all.  The packets are read
   * out of order, as seeks read them: read on, the window would map them
   * instead (test_mapped). */
  assert_range (&w, 0, packet - 100);
  const guint8 *buf = w.buf;
  g_assert_cmpuint (w.buf_size, ==, 2 * TTV_FILE_WINDOW_BYTES);
  static const guint order[] = { 2, 1 };
  for (guint k = 0; k < G_N_ELEMENTS (order); k++)
    {
      guint i = order[k];
      assert_range (&w, i * packet, packet - 100 + 40 * i);
      g_assert_false (w.mapped);
      g_assert_true (w.buf == buf);
    }
  assert_range (&w, 3 * packet, packet);
  g_assert_false (w.mapped);
  g_assert_true (w.buf == buf);
  g_assert_cmpuint (w.buf_size, ==, 2 * TTV_FILE_WINDOW_BYTES);
  g_unlink (path);
}

/* A window read on from its range maps the file's next range (outside the
 * sanitizers): the first read and a seek's read by copies, every range
 * read on by a mapping of at least TTV_FILE_WINDOW_MAP_BYTES (up to the
 * end of the file), the bytes the file's, counted as read; tails read on
 * map too; a window read in part for a seek is never mapped, so it can be
 * extended. */
static void
test_mapped (void)
{
  g_autofree char *path = NULL;
  g_autoptr (TtvWindowedFile) f = open_pattern_file (&path);
  g_auto (TtvFileWindow) w = TTV_FILE_WINDOW_INIT (f);
  g_autoptr (GError) error = NULL;
  const gboolean maps = !TTV_SANITIZED;

  assert_range (&w, 0, 100);
  g_assert_false (w.mapped);
  /* Through the file in steps of 64 KiB, as a cursor reads its blocks. */
  for (guint64 at = 65536; at + 65536 <= FILE_BYTES; at += 65536)
    {
      gboolean held = ttv_file_window_holds (&w, at, 65536, at);
      guint64 before = ttv_windowed_file_get_bytes_read (f);
      assert_range (&w, at, 65536);
      if (held || !maps)
        continue;
      g_assert_true (w.mapped);
      g_assert_cmpuint (w.bytes_offset, ==, at);
      g_assert_cmpuint (w.bytes_len, ==, MIN (TTV_FILE_WINDOW_MAP_BYTES, FILE_BYTES - at));
      g_assert_cmpuint (ttv_windowed_file_get_bytes_read (f) - before, ==, w.bytes_len);
      assert_file_bytes (w.bytes, w.bytes_offset, 0, w.bytes_len, "mapped window");
    }
  g_assert_cmpint (w.mapped, ==, maps);
  /* The end of the file, read on: mapped up to it, no further. */
  assert_range (&w, FILE_BYTES - 7, 7);
  g_assert_cmpuint (w.bytes_offset + w.bytes_len, ==, FILE_BYTES);
  /* Back to the start (a seek): read by a copy, the mapping gone. */
  assert_range (&w, 4096, 10);
  g_assert_false (w.mapped);
  g_assert_cmpuint (w.bytes_len, ==, TTV_FILE_WINDOW_BYTES);

  /* A range larger than a mapping, read on: mapped whole. */
  assert_range (&w, 3 * 4096, TTV_FILE_WINDOW_MAP_BYTES + 3);
  g_assert_cmpuint (w.bytes_len, ==, TTV_FILE_WINDOW_MAP_BYTES + 3);
  g_assert_cmpint (w.mapped, ==, maps);
  /* Tails: a seek's back to the first block is a copy, the next block's
   * read on is mapped. */
  const guint64 block = 65536;
  const guint8 *p = ttv_file_window_get_tail (&w, 0, block, 5000, &error);
  g_assert_no_error (error);
  assert_file_bytes (p, 0, 5000, block, "seek's tail");
  g_assert_false (w.mapped);
  p = ttv_file_window_get_tail (&w, block, block, block, &error);
  g_assert_no_error (error);
  assert_file_bytes (p, block, 0, block, "tail read on");
  g_assert_cmpint (w.mapped, ==, maps);
  g_assert_cmpuint (ttv_file_window_get_available (&w, block), >=, block);

  /* A seek's read in part, after a mapped window: a copy, extended. */
  const guint64 o = 3 * block;
  p = ttv_file_window_read_ends_until (&w, o, 2 * block, 10, o + 20000, o + 30000, &error);
  g_assert_no_error (error);
  g_assert_false (w.mapped);
  g_assert_true (ttv_file_window_extend (&w, o + 2 * block, &error));
  g_assert_no_error (error);
  assert_file_bytes (p, o, 20000, 2 * block, "extended tail");
  g_unlink (path);
}

/* The child of test_mapped_shrinks: a file mapped by a window read on,
 * then truncated by "another program", then read. */
static void
read_shrunk_mapping (const char *path)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvWindowedFile) f = ttv_windowed_file_open (path, &error);
  g_assert_no_error (error);
  g_auto (TtvFileWindow) w = TTV_FILE_WINDOW_INIT (f);
  ttv_mapping_guard_install ("test-file-window");
  assert_range (&w, 0, 100);
  assert_range (&w, TTV_FILE_WINDOW_BYTES - 10, 20);
  g_assert_true (w.mapped);
  g_assert_cmpint (truncate (path, 4096), ==, 0);
  /* A byte of a page the file no longer has. */
  volatile guint8 b = w.bytes[3 * 4096 + 17];
  (void) b;
  g_error ("the byte of the page the file lost was read");
}

/* A file that shrinks while a window maps it: the program (with the
 * guard) stops with status 1 and a message naming the file and the byte
 * offset of the read, rather than dying of SIGBUS; a SIGBUS of another
 * cause keeps its default action. */
static void
test_mapped_shrinks (void)
{
  if (TTV_SANITIZED)
    {
      g_test_skip ("windows read by copies under a sanitizer: nothing is mapped");
      return;
    }
  const char *child_path = g_getenv ("TTV_TEST_SHRUNK_FILE");
  if (g_test_subprocess ())
    {
      if (child_path)
        read_shrunk_mapping (child_path);
      else
        {
          ttv_mapping_guard_install ("test-file-window");
          raise (SIGBUS);
        }
      return;
    }
  g_autofree char *path = NULL;
  g_autoptr (TtvWindowedFile) f = open_pattern_file (&path);
  guint64 page = (TTV_FILE_WINDOW_BYTES - 10) & ~(guint64) 4095;
  g_setenv ("TTV_TEST_SHRUNK_FILE", path, TRUE);
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_unsetenv ("TTV_TEST_SHRUNK_FILE");
  g_test_trap_assert_failed ();
  g_autofree char *want = g_strdup_printf ("*test-file-window: %s: the file shrank while it was read: its bytes at "
                                           "byte offset %" G_GUINT64_FORMAT " are gone; stopping*",
                                           path, page + 3 * 4096 + 17);
  g_test_trap_assert_stderr (want);
  g_assert_false (g_test_trap_has_passed ());

  /* SIGBUS outside every mapping: the default action, no message. */
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_failed ();
  g_test_trap_assert_stderr_unmatched ("*shrank*");
  g_unlink (path);
}

/* Windows read on that copy (TTV_WINDOW_IO=copy, or copies measured
 * faster): never mapped, every range in the one buffer the window reuses
 * (its pages stay in place), the bytes the file's, counted as read. */
static void
test_copied (void)
{
  g_autofree char *path = NULL;
  g_autoptr (TtvWindowedFile) f = open_pattern_file (&path);
  g_auto (TtvFileWindow) w = TTV_FILE_WINDOW_INIT (f);
  ttv_window_io_set (TTV_WINDOW_IO_COPY);
  assert_range (&w, 0, 100);
  const guint8 *buf = w.buf;
  for (guint64 at = 65536; at + 65536 <= FILE_BYTES; at += 65536)
    {
      guint64 before = ttv_windowed_file_get_bytes_read (f);
      gboolean held = ttv_file_window_holds (&w, at, 65536, at);
      assert_range (&w, at, 65536);
      g_assert_false (w.mapped);
      g_assert_true (w.buf == buf && w.bytes == buf);
      if (!held)
        g_assert_cmpuint (ttv_windowed_file_get_bytes_read (f) - before, ==, w.bytes_len);
    }
  ttv_window_io_set (TTV_WINDOW_IO_MAP);
  g_unlink (path);
}

/* The way measured by the first window read on (outside the sanitizers,
 * where windows never map and nothing is measured): decided then, for
 * good, and what the next windows read on do; a file too short to tell
 * leaves it undecided, its windows copying. */
static void
test_measured (void)
{
  if (TTV_SANITIZED)
    {
      g_test_skip ("windows read by copies under a sanitizer: nothing is measured");
      return;
    }
  g_autofree char *path = NULL;
  g_autoptr (TtvWindowedFile) f = open_pattern_file (&path);
  g_auto (TtvFileWindow) w = TTV_FILE_WINDOW_INIT (f);
  ttv_window_io_set (TTV_WINDOW_IO_UNDECIDED);
  /* The last 60 KiB of the file, read on: too few bytes to tell. */
  assert_range (&w, FILE_BYTES - 200000, 10);
  g_assert_false (ttv_file_window_holds (&w, FILE_BYTES - 60000, 10, FILE_BYTES - 60000));
  assert_range (&w, FILE_BYTES - 60000, 10);
  g_assert_false (w.mapped);
  g_assert_cmpint (ttv_window_io_get (), ==, TTV_WINDOW_IO_UNDECIDED);
  /* From the start on: decided at the first range read on. */
  assert_range (&w, 0, 100);
  assert_range (&w, 65536 * 3, 65536);
  TtvWindowIo io = ttv_window_io_get ();
  g_assert_true (io == TTV_WINDOW_IO_MAP || io == TTV_WINDOW_IO_COPY);
  g_test_message ("windows read on here: %s", ttv_window_io_name (io));
  assert_range (&w, 65536 * 6, 65536);
  g_assert_cmpint (w.mapped, ==, io == TTV_WINDOW_IO_MAP);
  assert_file_bytes (w.bytes, w.bytes_offset, 0, w.bytes_len, "window read on after the measurement");
  ttv_window_io_set (TTV_WINDOW_IO_MAP);
  g_unlink (path);
}

/* TTV_WINDOW_IO sets the way with no measurement; a value it does not
 * know is a warning naming the variable. */
static void
test_io_from_environment (void)
{
  if (TTV_SANITIZED)
    {
      g_test_skip ("windows read by copies under a sanitizer: nothing is measured");
      return;
    }
  const char *child = g_getenv ("TTV_TEST_WINDOW_IO");
  if (g_test_subprocess ())
    {
      g_autofree char *path = NULL;
      g_autoptr (TtvWindowedFile) f = open_pattern_file (&path);
      g_auto (TtvFileWindow) w = TTV_FILE_WINDOW_INIT (f);
      g_setenv ("TTV_WINDOW_IO", child, TRUE);
      ttv_window_io_set (TTV_WINDOW_IO_UNDECIDED);
      assert_range (&w, 0, 100);
      assert_range (&w, 65536 * 3, 65536);
      g_unlink (path);
      g_print ("way %s mapped %d\n", ttv_window_io_name (ttv_window_io_get ()), w.mapped);
      return;
    }
  const struct {
    const char *value;
    const char *out;
  } cases[] = {
    { "copy", "*way copy mapped 0*" },
    { "map", "*way map mapped 1*" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_setenv ("TTV_TEST_WINDOW_IO", cases[i].value, TRUE);
      g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
      g_test_trap_assert_passed ();
      g_test_trap_assert_stdout (cases[i].out);
    }
  g_setenv ("TTV_TEST_WINDOW_IO", "mmap", TRUE);
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_failed ();
  g_test_trap_assert_stderr ("*TTV_WINDOW_IO=mmap: expected map, copy or auto*");
  g_unsetenv ("TTV_TEST_WINDOW_IO");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  /* The user's TTV_WINDOW_IO is not the measurement's test's. */
  if (!g_test_subprocess ())
    g_unsetenv ("TTV_WINDOW_IO");
  ttv_window_io_set (TTV_WINDOW_IO_MAP);
  g_test_add_func ("/core/file-window/ranges", test_ranges);
  g_test_add_func ("/core/file-window/growing-ranges", test_growing_ranges);
  g_test_add_func ("/core/file-window/past-end", test_past_end);
  g_test_add_func ("/core/file-window/tail", test_tail);
  g_test_add_func ("/core/file-window/pages", test_pages);
  g_test_add_func ("/core/file-window/ends", test_ends);
  g_test_add_func ("/core/file-window/ends-in-part", test_ends_in_part);
  g_test_add_func ("/core/file-window/mapped", test_mapped);
  g_test_add_func ("/core/file-window/mapped-shrinks", test_mapped_shrinks);
  g_test_add_func ("/core/file-window/copied", test_copied);
  g_test_add_func ("/core/file-window/measured", test_measured);
  g_test_add_func ("/core/file-window/io-from-environment", test_io_from_environment);
  return g_test_run ();
}
