/* ttv-file-window.h: reading trace files through small windows.
 * Every reader (LTT, LTTng 0.x, CTF) reads its tracefiles through these. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* How trace data is read (measured in bench/README.md, "I/O", "the LTT
 * merged read ... perf22c" and "mapped windows read on"): a window that
 * is moved to a range, as a seek moves it, reads it into a buffer of the
 * reader's, reused as the window moves, by pread; 128 KiB windows read as
 * fast as 1 MiB ones with less memory (a packet or block larger than that
 * gets a window its size, in a buffer of whole windows kept for the next
 * packets that fit).  A window read on from its last range, as a cursor
 * reading a file through does, may map the next TTV_FILE_WINDOW_MAP_BYTES
 * of the file instead, every page at once (MADV_POPULATE_READ), and
 * unmap them when it moves on: on some machines that costs less than
 * pread's copy (8 to 17 % of a read), on others (the same kernel, another
 * host) three times more, every new page's first touch costing the host;
 * so the program measures both once and keeps the faster
 * (ttv-window-io.h).  Mapping whole files made the resident
 * memory grow to the trace's size.  Under a sanitizer windows always
 * read by copies (ttv-sanitizer.h).  A mapped file that another program
 * truncates raises SIGBUS when the window reads the pages it lost:
 * programs report it by ttv_mapping_guard_install(). */
#define TTV_FILE_WINDOW_BYTES (1u << 17)
/* A window read on maps this much of the file, or the range it needs when
 * larger, up to TTV_FILE_WINDOW_MAP_MAX (a larger range is read).  With
 * the cursors' prefetch, 256 KiB reads as fast as 512 KiB to 2 MiB, with
 * less memory (a cursor maps one window a stream); 128 KiB is 4-10 %
 * slower. */
#define TTV_FILE_WINDOW_MAP_BYTES ((guint64) 256 << 10)
#define TTV_FILE_WINDOW_MAP_MAX ((guint64) 64 << 20)

/* A cursor reading events in turn asks for the bytes this far past the
 * event it read (ttv_file_window_prefetch): a mapped window's bytes come
 * from memory, not from the cache a copy left them in, and the processor
 * fetches ahead only within a page.  512 bytes measured best of 512 to
 * 4096 (bench/README.md, "mapped windows read on"). */
#define TTV_FILE_WINDOW_PREFETCH_BYTES 512

/* Asks the processor for the bytes TTV_FILE_WINDOW_PREFETCH_BYTES past
 * @offset in @bytes, which may lie past the window's end (a prefetch
 * never faults). */
static inline void
ttv_file_window_prefetch (const guint8 *bytes, guint64 offset)
{
  __builtin_prefetch ((const void *) ((guintptr) bytes + offset + TTV_FILE_WINDOW_PREFETCH_BYTES));
}

/* An open tracefile: its descriptor and size, shared by its windows. */
typedef struct _TtvWindowedFile TtvWindowedFile;

TtvWindowedFile *ttv_windowed_file_open (const char *path, GError **error);
void           ttv_windowed_file_free (TtvWindowedFile *file);
const char    *ttv_windowed_file_get_path (const TtvWindowedFile *file);
guint64        ttv_windowed_file_get_size (const TtvWindowedFile *file);
/* Bytes read from the file so far, by all its windows: what a reader
 * costs in copies from the page cache (tests and benchmarks). */
guint64        ttv_windowed_file_get_bytes_read (const TtvWindowedFile *file);
/* For a trace still being written: takes the file's current size (never
 * smaller: a file that shrank is an error naming it).  No window of the
 * file may be in use across the call. */
gboolean       ttv_windowed_file_update_size (TtvWindowedFile *file, GError **error);

/* One range of a file held in memory; each cursor has its own.
 * Zero-initialized, or TTV_FILE_WINDOW_INIT, it holds nothing. */
typedef struct {
  const TtvWindowedFile *file;  /* weak */
  guint8 *bytes;              /* the bytes held (in buf), NULL when none */
  guint64 bytes_offset;       /* file offset of bytes[0] (page aligned) */
  guint64 bytes_len;
  /* The bytes from this file offset on were read; those between
   * bytes_offset and it were not (ttv_file_window_get_tail). */
  guint64 read_offset;
  guint8 *buf;                /* owned (ttv_large_buffer_alloc), buf_size bytes, reused as the window moves */
  gsize buf_size;
  /* The bytes are a mapping of the file (read only), not in buf: until
   * the window moves, registered with the mapping guard as guard. */
  gboolean mapped;
  gint guard;
} TtvFileWindow;

#define TTV_FILE_WINDOW_INIT(f) { .file = (f) }

/* Reads a window of at least TTV_FILE_WINDOW_BYTES holding the bytes
 * [@offset, @offset + @length) (those past the end of the file excluded:
 * see ttv_file_window_get_available).  NULL with @error when @offset is
 * past the end of the file or reading fails (the window then holds
 * nothing). */
const guint8 *ttv_file_window_read (TtvFileWindow *w, guint64 offset, guint64 length, GError **error);

/* A pointer to the bytes [@offset, @offset + @length) of the file, valid
 * until the window reads another range or is cleared: the window already
 * held them (no system call), or is moved to them. */
/* Whether the window holds the bytes [@offset, @offset + @length) in its
 * buffer, those from @from on (@offset <= @from) read. */
static inline gboolean
ttv_file_window_holds (const TtvFileWindow *w, guint64 offset, guint64 length, guint64 from)
{
  return w->bytes != NULL && from >= w->read_offset && offset >= w->bytes_offset && length <= w->bytes_len
         && offset - w->bytes_offset <= w->bytes_len - length;
}

static inline const guint8 *
ttv_file_window_get (TtvFileWindow *w, guint64 offset, guint64 length, GError **error)
{
  if (G_LIKELY (ttv_file_window_holds (w, offset, length, offset)))
    return w->bytes + (offset - w->bytes_offset);
  return ttv_file_window_read (w, offset, length, error);
}

/* A reader that needs a few bytes of each of a file's blocks or packets
 * (their headers, to index them) reads them by ttv_file_window_read_pages()
 * when the blocks are at least this long, a system call for each, rather
 * than through windows, which copy every byte: on these machines a call
 * costs about what copying 10 KiB does. */
#define TTV_FILE_WINDOW_SPARSE_BYTES (16u << 10)

/* Reads the whole pages holding the bytes [@offset, @offset + @length)
 * (those past the end of the file excluded), and no more: not a window.
 * For the scan of a stream's packets, which needs the few hundred bytes
 * of each packet's header and context: with packets of 64 KiB or more, a
 * window's read copied all their events too (the whole trace, before the
 * first event was read).  NULL with @error as ttv_file_window_read. */
const guint8 *ttv_file_window_read_pages (TtvFileWindow *w, guint64 offset, guint64 length, GError **error);

/* ttv_file_window_get, the bytes read with ttv_file_window_read_pages()
 * when the window does not hold them. */
static inline const guint8 *
ttv_file_window_get_pages (TtvFileWindow *w, guint64 offset, guint64 length, GError **error)
{
  if (ttv_file_window_holds (w, offset, length, offset))
    return w->bytes + (offset - w->bytes_offset);
  return ttv_file_window_read_pages (w, offset, length, error);
}

/* The @length bytes at @offset in the block of @block_bytes at file offset
 * @at, for a reader that indexes a file's blocks or packets (their heads,
 * their ends): the pages that hold them when @sparse (blocks of
 * TTV_FILE_WINDOW_SPARSE_BYTES or more), else through a window holding the
 * whole block, which serves the next blocks too. */
static inline const guint8 *
ttv_file_window_get_in_block (TtvFileWindow *w, guint64 at, guint64 block_bytes, guint64 offset, guint64 length,
                              gboolean sparse, GError **error)
{
  if (sparse)
    return ttv_file_window_get_pages (w, at + offset, length, error);
  const guint8 *b = ttv_file_window_get (w, at, block_bytes, error);
  return b ? b + offset : NULL;
}

/* Reads the bytes [@from, @offset + @length) of the file (@offset <= @from)
 * into a buffer that has room for those from @offset on, and no more: the
 * bytes before @from are not read.  For a seek, which needs a block's bytes
 * from an event in its middle on, and would otherwise copy a whole window
 * to look at a few events.  NULL with @error as ttv_file_window_read. */
const guint8 *ttv_file_window_read_tail (TtvFileWindow *w, guint64 offset, guint64 length, guint64 from,
                                         GError **error);

/* ttv_file_window_read_tail, and the first @head bytes of the range
 * besides (@head <= @from - @offset): for a seek into a CTF packet, which
 * needs the packet's header and context, and its events from one in its
 * middle on. */
const guint8 *ttv_file_window_read_ends (TtvFileWindow *w, guint64 offset, guint64 length, guint64 head,
                                         guint64 from, GError **error);

/* ttv_file_window_read_ends, of which the bytes from @from up to @until
 * only (@from <= @until <= @offset + @length) are read, in a buffer with
 * room for all of them: the window holds the bytes up to @until, and
 * ttv_file_window_extend reads more in place.  For a seek into a large
 * packet, which mostly reads a few events past the one it seeks. */
const guint8 *ttv_file_window_read_ends_until (TtvFileWindow *w, guint64 offset, guint64 length, guint64 head,
                                               guint64 from, guint64 until, GError **error);

/* The window, which holds bytes up to an offset below @until, reads those
 * up to @until (or the end of the file) into its buffer after them, which
 * stays where it was: pointers into it stay valid.  Only for a window
 * ttv_file_window_read_ends_until read, up to the range it gave room for.
 * FALSE with @error as ttv_file_window_read (the window then holds
 * nothing). */
gboolean ttv_file_window_extend (TtvFileWindow *w, guint64 until, GError **error);

/* A pointer to where the bytes [@offset, @offset + @length) of the file
 * are, of which only those from @from on (@offset <= @from) may be read:
 * the window already held them, or reads them with
 * ttv_file_window_read_tail(). */
static inline const guint8 *
ttv_file_window_get_tail (TtvFileWindow *w, guint64 offset, guint64 length, guint64 from, GError **error)
{
  if (G_LIKELY (ttv_file_window_holds (w, offset, length, from)))
    return w->bytes + (offset - w->bytes_offset);
  return ttv_file_window_read_tail (w, offset, length, from, error);
}

/* Bytes of the file the window holds from @offset on (0 when it does not
 * hold @offset). */
static inline guint64
ttv_file_window_get_available (const TtvFileWindow *w, guint64 offset)
{
  if (w->bytes == NULL || offset < w->read_offset || offset - w->bytes_offset >= w->bytes_len)
    return 0;
  return w->bytes_len - (offset - w->bytes_offset);
}

/* Empties the window and frees its buffer. */
void ttv_file_window_clear (TtvFileWindow *w);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvWindowedFile, ttv_windowed_file_free)
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (TtvFileWindow, ttv_file_window_clear)

G_END_DECLS
