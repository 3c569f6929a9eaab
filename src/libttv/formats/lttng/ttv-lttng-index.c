/* ttv-lttng-index.c: maps one LTTng 0.x tracefile and indexes its blocks from
 * their headers only (never reading events), in time order for flight recorder rings. */
#include "ttv-lttng-private.h"
#include "ttv-regular-file.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>

void
ttv_lttng_file_free (TtvLttngFile *f)
{
  if (f == NULL)
    return;
  ttv_windowed_file_free (f->file);
  if (f->blocks)
    g_array_unref (f->blocks);
  g_free (f->path);
  g_free (f);
}

static gint
block_compare (gconstpointer a, gconstpointer b)
{
  const TtvLttngBlock *x = a, *y = b;
  if (x->begin_cc != y->begin_cc)
    return x->begin_cc < y->begin_cc ? -1 : 1;
  return x->file_block < y->file_block ? -1 : x->file_block > y->file_block;
}

TtvLttngFile *
ttv_lttng_file_open (const char *path, GError **error)
{
  return ttv_lttng_file_open_full (path, FALSE, error);
}

TtvLttngFile *
ttv_lttng_file_open_full (const char *path, gboolean live, GError **error)
{
  g_autoptr (TtvLttngFile) f = g_new0 (TtvLttngFile, 1);
  f->path = g_strdup (path);
  f->blocks = g_array_new (FALSE, FALSE, sizeof (TtvLttngBlock));
  g_autoptr (GError) local = NULL;
  /* A FIFO or a device in a tracefile's place is refused, not waited on. */
  f->file = ttv_windowed_file_open (path, &local);
  if (f->file == NULL)
    {
      g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_IO, "%s", local->message);
      return NULL;
    }
  f->size = ttv_windowed_file_get_size (f->file);
  /* Still being written: a file without a whole block has none yet. */
  if (live && f->size < TTV_LTTNG_HEADER_SIZE)
    {
      f->size = 0;
      return g_steal_pointer (&f);
    }
  if (f->size == 0)
    {
      g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_TRUNCATED,
                   _("%s: the file is empty at byte offset 0 (a tracefile holds at least one block)"),
                   path);
      return NULL;
    }
  /* Block headers only are read, through one window moving along the
   * file, or as their pages when the blocks are large (see
   * TTV_FILE_WINDOW_SPARSE_BYTES). */
  g_auto (TtvFileWindow) w = TTV_FILE_WINDOW_INIT (f->file);
  const guint8 *first = ttv_file_window_get_pages (&w, 0, MIN (f->size, TTV_LTTNG_HEADER_SIZE), error);
  if (first == NULL || !ttv_lttng_header_read (first, MIN (f->size, TTV_LTTNG_HEADER_SIZE), &f->first, path, 0, error)
      || !ttv_lttng_layout_from_header (&f->first, &f->layout, path, 0, error))
    return NULL;
  guint32 bs = f->layout.buf_size;
  if (live)
    f->size = f->size / bs * bs;   /* the last block is being written */
  if (f->size % bs != 0)
    {
      g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_TRUNCATED,
                   _("%s: truncated: the file size %zu is not a multiple of "
                     "buf_size %u; the last block, at byte offset %zu, is incomplete"),
                   path, f->size, bs, f->size / bs * bs);
      return NULL;
    }
  f->n_file_blocks = f->size / bs;
  for (guint64 i = 0; i < f->n_file_blocks; i++)
    {
      guint64 off = i * bs;
      gboolean sparse = bs >= TTV_FILE_WINDOW_SPARSE_BYTES;
      gsize head = sparse ? TTV_LTTNG_HEADER_SIZE : bs;
      const guint8 *p = ttv_file_window_get_in_block (&w, off, bs, 0, head, sparse, error);
      if (p == NULL)
        return NULL;
      TtvLttngHeader h;
      TtvLttngLayout l;
      if (!ttv_lttng_header_read (p, head, &h, path, off, error))
        return NULL;
      if (h.buf_size != bs)
        {
          g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_CORRUPT,
                       _("%s: buf_size %u at byte offset %" PRIu64
                         " differs from the first block's %u"),
                       path, h.buf_size, off + TTV_LTTNG_OFF_BUF_SIZE, bs);
          return NULL;
        }
      if (!ttv_lttng_layout_from_header (&h, &l, path, off, error))
        return NULL;
      if (!ttv_lttng_layout_equal (&l, &f->layout))
        {
          g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_CORRUPT,
                       _("%s: the trace header of the block at byte offset %" PRIu64
                         " differs from the first block's (byte order, arch_size, alignment, "
                         "heartbeat or clock)"),
                       path, off);
          return NULL;
        }
      if (h.lost_size > bs - l.first_event)
        {
          g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_CORRUPT,
                       _("%s: lost_size %u at byte offset %" PRIu64
                         " runs past the block (buf_size %u, events start at %u)"),
                       path, h.lost_size, off + TTV_LTTNG_OFF_LOST_SIZE, bs, l.first_event);
          return NULL;
        }
      TtvLttngBlock b = {
        .file_offset = off,
        .begin_cc = h.begin_cc,
        .end_cc = h.end_cc,
        .begin_time = ttv_lttng_cycles_to_time (&l, h.begin_cc),
        .end_time = ttv_lttng_cycles_to_time (&l, h.end_cc),
        .data_end = bs - h.lost_size,
        .file_block = (guint32) i,
      };
      if (b.data_end > l.first_event)
        g_array_append_val (f->blocks, b);
    }
  g_array_sort (f->blocks, block_compare);
  return g_steal_pointer (&f);
}
