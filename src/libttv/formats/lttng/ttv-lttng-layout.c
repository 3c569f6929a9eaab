/* ttv-lttng-layout.c: the bytes of an LTTng 0.x block (headers, event
 * headers, cycle counts to time).  Shared by the reader and the writer so they agree. */
#include "ttv-lttng-private.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>

static guint64
get (const guint8 *p, guint off, guint bytes, TtvByteOrder order)
{
  return ttv_read_bits (p, (guint64) off * 8, bytes * 8, order);
}

static void
put (guint8 *p, guint off, guint bytes, guint64 v, TtvByteOrder order)
{
  for (guint i = 0; i < bytes; i++)
    {
      guint shift = order == TTV_BYTE_ORDER_LITTLE ? i * 8 : (bytes - 1 - i) * 8;
      p[off + i] = (guint8) (v >> shift);
    }
}

gboolean
ttv_lttng_header_read (const guint8 *p, gsize avail, TtvLttngHeader *h, const char *file,
                       guint64 file_offset, GError **error)
{
  if (avail < TTV_LTTNG_HEADER_SIZE)
    {
      g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_TRUNCATED,
                   _("%s: the file ends inside a block header at byte offset %" PRIu64
                     " (a header needs %u bytes, %zu are left)"),
                   file, file_offset, (guint) TTV_LTTNG_HEADER_SIZE, avail);
      return FALSE;
    }
  guint32 le = (guint32) get (p, TTV_LTTNG_OFF_MAGIC, 4, TTV_BYTE_ORDER_LITTLE);
  TtvByteOrder order;
  if (le == TTV_LTTNG_MAGIC)
    order = TTV_BYTE_ORDER_LITTLE;
  else if (GUINT32_SWAP_LE_BE (le) == TTV_LTTNG_MAGIC)
    order = TTV_BYTE_ORDER_BIG;
  else
    {
      g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_CORRUPT,
                   _("%s: wrong magic number 0x%08x at byte offset %" PRIu64
                     " (an LTTng 0.x block has 0x%08x in either byte order)"),
                   file, le, file_offset + TTV_LTTNG_OFF_MAGIC, TTV_LTTNG_MAGIC);
      return FALSE;
    }
  memset (h, 0, sizeof *h);
  h->byte_order = order;
  h->begin_cc = get (p, TTV_LTTNG_OFF_BEGIN_CC, 8, order);
  h->begin_freq = get (p, TTV_LTTNG_OFF_BEGIN_FREQ, 8, order);
  h->end_cc = get (p, TTV_LTTNG_OFF_END_CC, 8, order);
  h->end_freq = get (p, TTV_LTTNG_OFF_END_FREQ, 8, order);
  h->lost_size = (guint32) get (p, TTV_LTTNG_OFF_LOST_SIZE, 4, order);
  h->buf_size = (guint32) get (p, TTV_LTTNG_OFF_BUF_SIZE, 4, order);
  h->arch_type = (guint32) get (p, TTV_LTTNG_OFF_ARCH_TYPE, 4, order);
  h->arch_variant = (guint32) get (p, TTV_LTTNG_OFF_ARCH_VARIANT, 4, order);
  h->float_word_order = (guint32) get (p, TTV_LTTNG_OFF_FLOAT_WORD_ORDER, 4, order);
  h->arch_size = p[TTV_LTTNG_OFF_ARCH_SIZE];
  h->major_version = p[TTV_LTTNG_OFF_MAJOR];
  h->minor_version = p[TTV_LTTNG_OFF_MINOR];
  h->flight_recorder = p[TTV_LTTNG_OFF_FLIGHT_RECORDER];
  h->has_heartbeat = p[TTV_LTTNG_OFF_HAS_HEARTBEAT];
  h->alignment = p[TTV_LTTNG_OFF_ALIGNMENT];
  h->tsc_lsb_truncate = p[TTV_LTTNG_OFF_TSC_LSB_TRUNCATE];
  h->tscbits = p[TTV_LTTNG_OFF_TSCBITS];
  h->compact_data_shift = p[TTV_LTTNG_OFF_COMPACT_DATA_SHIFT];
  h->freq_scale = (guint32) get (p, TTV_LTTNG_OFF_FREQ_SCALE, 4, order);
  h->start_freq = get (p, TTV_LTTNG_OFF_START_FREQ, 8, order);
  h->start_tsc = get (p, TTV_LTTNG_OFF_START_TSC, 8, order);
  h->start_monotonic = get (p, TTV_LTTNG_OFF_START_MONOTONIC, 8, order);
  h->start_sec = (guint32) get (p, TTV_LTTNG_OFF_START_SEC, 4, order);
  h->start_nsec = (guint32) get (p, TTV_LTTNG_OFF_START_NSEC, 4, order);
  return TRUE;
}

void
ttv_lttng_header_write (guint8 *p, const TtvLttngHeader *h)
{
  TtvByteOrder o = h->byte_order;
  put (p, TTV_LTTNG_OFF_BEGIN_CC, 8, h->begin_cc, o);
  put (p, TTV_LTTNG_OFF_BEGIN_FREQ, 8, h->begin_freq, o);
  put (p, TTV_LTTNG_OFF_END_CC, 8, h->end_cc, o);
  put (p, TTV_LTTNG_OFF_END_FREQ, 8, h->end_freq, o);
  put (p, TTV_LTTNG_OFF_LOST_SIZE, 4, h->lost_size, o);
  put (p, TTV_LTTNG_OFF_BUF_SIZE, 4, h->buf_size, o);
  put (p, TTV_LTTNG_OFF_MAGIC, 4, TTV_LTTNG_MAGIC, o);
  put (p, TTV_LTTNG_OFF_ARCH_TYPE, 4, h->arch_type, o);
  put (p, TTV_LTTNG_OFF_ARCH_VARIANT, 4, h->arch_variant, o);
  put (p, TTV_LTTNG_OFF_FLOAT_WORD_ORDER, 4, h->float_word_order, o);
  p[TTV_LTTNG_OFF_ARCH_SIZE] = h->arch_size;
  p[TTV_LTTNG_OFF_MAJOR] = h->major_version;
  p[TTV_LTTNG_OFF_MINOR] = h->minor_version;
  p[TTV_LTTNG_OFF_FLIGHT_RECORDER] = h->flight_recorder;
  p[TTV_LTTNG_OFF_HAS_HEARTBEAT] = h->has_heartbeat;
  p[TTV_LTTNG_OFF_ALIGNMENT] = h->alignment;
  p[TTV_LTTNG_OFF_TSC_LSB_TRUNCATE] = h->tsc_lsb_truncate;
  p[TTV_LTTNG_OFF_TSCBITS] = h->tscbits;
  p[TTV_LTTNG_OFF_COMPACT_DATA_SHIFT] = h->compact_data_shift;
  put (p, TTV_LTTNG_OFF_FREQ_SCALE, 4, h->freq_scale, o);
  put (p, TTV_LTTNG_OFF_START_FREQ, 8, h->start_freq, o);
  put (p, TTV_LTTNG_OFF_START_TSC, 8, h->start_tsc, o);
  put (p, TTV_LTTNG_OFF_START_MONOTONIC, 8, h->start_monotonic, o);
  put (p, TTV_LTTNG_OFF_START_SEC, 4, h->start_sec, o);
  put (p, TTV_LTTNG_OFF_START_NSEC, 4, h->start_nsec, o);
}

static gboolean
invalid (GError **error, gint code, const char *file, guint64 offset, const char *what, guint64 value)
{
  g_set_error (error, TTV_FORMAT_ERROR, code,
               _("%s: unusable trace header at byte offset %" PRIu64 ": %s (%" PRIu64 ")"),
               file, offset, what, value);
  return FALSE;
}

gboolean
ttv_lttng_layout_from_header (const TtvLttngHeader *h, TtvLttngLayout *l, const char *file,
                              guint64 off, GError **error)
{
  if (h->arch_size != 4 && h->arch_size != 8)
    return invalid (error, TTV_FORMAT_ERROR_UNSUPPORTED, file, off + TTV_LTTNG_OFF_ARCH_SIZE,
                    _("arch_size must be 4 or 8"), h->arch_size);
  if (h->alignment != 0 && h->alignment != 1 && h->alignment != 2 && h->alignment != 4
      && h->alignment != 8)
    return invalid (error, TTV_FORMAT_ERROR_INVALID, file, off + TTV_LTTNG_OFF_ALIGNMENT,
                    _("alignment must be 0, 1, 2, 4 or 8"), h->alignment);
  if (h->has_heartbeat > 1)
    return invalid (error, TTV_FORMAT_ERROR_INVALID, file, off + TTV_LTTNG_OFF_HAS_HEARTBEAT,
                    _("has_heartbeat must be 0 or 1"), h->has_heartbeat);
  if (h->buf_size < TTV_LTTNG_MIN_BUF_SIZE || h->buf_size > TTV_LTTNG_MAX_BUF_SIZE)
    return invalid (error, TTV_FORMAT_ERROR_INVALID, file, off + TTV_LTTNG_OFF_BUF_SIZE,
                    _("buf_size must be between 128 bytes and 1 GiB"), h->buf_size);
  if (h->freq_scale == 0)
    return invalid (error, TTV_FORMAT_ERROR_INVALID, file, off + TTV_LTTNG_OFF_FREQ_SCALE,
                    _("freq_scale is zero"), 0);
  if (h->start_freq == 0)
    return invalid (error, TTV_FORMAT_ERROR_INVALID, file, off + TTV_LTTNG_OFF_START_FREQ,
                    _("start_freq is zero"), 0);
  if (h->start_nsec >= 1000000000u)
    return invalid (error, TTV_FORMAT_ERROR_INVALID, file, off + TTV_LTTNG_OFF_START_NSEC,
                    _("start_time nanoseconds must be below 1000000000"), h->start_nsec);
  memset (l, 0, sizeof *l);
  l->byte_order = h->byte_order;
  l->arch_size = h->arch_size;
  l->alignment = h->alignment;
  l->has_heartbeat = h->has_heartbeat != 0;
  l->payload_align = h->alignment ? MAX (h->alignment, h->arch_size) : 1;
  l->first_event = ttv_lttng_align (TTV_LTTNG_HEADER_SIZE, h->alignment);
  l->buf_size = h->buf_size;
  l->start_time = (TtvTime) h->start_sec * TTV_NSEC_PER_SEC + h->start_nsec;
  l->start_tsc = h->start_tsc;
  l->start_freq = h->start_freq;
  l->freq_scale = h->freq_scale;
  return TRUE;
}

gboolean
ttv_lttng_layout_equal (const TtvLttngLayout *a, const TtvLttngLayout *b)
{
  return a->byte_order == b->byte_order && a->arch_size == b->arch_size
         && a->alignment == b->alignment && a->has_heartbeat == b->has_heartbeat
         && a->start_time == b->start_time
         && a->start_tsc == b->start_tsc && a->start_freq == b->start_freq
         && a->freq_scale == b->freq_scale;
}

guint32
ttv_lttng_event_header_size (const TtvLttngLayout *l)
{
  return (l->has_heartbeat ? 4 : 8) + 1 + 1 + 2;
}

/* floor (a / b) for b > 0 */
static __int128
floor_div (__int128 a, __int128 b)
{
  __int128 q = a / b;
  if ((a % b) != 0 && a < 0)
    q--;
  return q;
}

TtvTime
ttv_lttng_cycles_to_time (const TtvLttngLayout *l, guint64 cycles)
{
  /* The counter may be behind start_tsc (events recorded while tracing
   * started on another CPU): the difference is signed. */
  __int128 delta = (gint64) (cycles - l->start_tsc);
  __int128 ns = floor_div (delta * 1000000000 * l->freq_scale, l->start_freq);
  __int128 t = ns + l->start_time;
  if (t > G_MAXINT64)
    return TTV_TIME_MAX;
  if (t < G_MININT64)
    return TTV_TIME_MIN;
  return (TtvTime) t;
}

guint64
ttv_lttng_time_to_cycles (const TtvLttngLayout *l, TtvTime time)
{
  __int128 ns = (__int128) time - l->start_time;
  __int128 den = (__int128) 1000000000 * l->freq_scale;
  /* ceil (ns * freq / den) = -floor (-ns * freq / den) */
  __int128 cycles = -floor_div (-ns * l->start_freq, den);
  return l->start_tsc + (guint64) cycles;
}

gint
ttv_lttng_event_header_read (const TtvLttngLayout *l, const guint8 *block, guint32 data_end,
                             guint32 *pos, guint64 *cycles, TtvLttngEventHeader *eh,
                             const char *file, guint64 block_offset, GError **error)
{
  if (*pos >= data_end)
    return 0;
  guint32 off = ttv_lttng_align (*pos, l->alignment);
  guint32 hs = ttv_lttng_event_header_size (l);
  if (off > data_end || data_end - off < hs)
    {
      g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_CORRUPT,
                   _("%s: event header at byte offset %" PRIu64
                     " runs past the end of the block's data (at byte offset %" PRIu64
                     ", from lost_size)"),
                   file, block_offset + off, block_offset + data_end);
      return -1;
    }
  TtvByteOrder o = l->byte_order;
  guint64 c;
  guint32 p = off;
  if (l->has_heartbeat)
    {
      /* 32 low bits: the high bits come from the previous event (or the
       * block's begin cycle count), plus one wrap when the low bits went back. */
      guint32 low = (guint32) ttv_read_bits (block, (guint64) p * 8, 32, o);
      c = *cycles;
      if (low < (guint32) c)
        c += G_GUINT64_CONSTANT (1) << 32;
      c = (c & ~G_GUINT64_CONSTANT (0xffffffff)) | low;
      p += 4;
    }
  else
    {
      c = ttv_read_bits (block, (guint64) p * 8, 64, o);
      p += 8;
    }
  eh->facility_id = block[p];
  eh->event_id = block[p + 1];
  eh->size = (guint16) ttv_read_bits (block, (guint64) (p + 2) * 8, 16, o);
  p += 4;
  guint32 payload = ttv_lttng_align (p, l->payload_align);
  if (payload > data_end || data_end - payload < eh->size)
    {
      g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_CORRUPT,
                   _("%s: event_size %u of the event at byte offset %" PRIu64
                     " runs past the end of the block's data (at byte offset %" PRIu64 ")"),
                   file, eh->size, block_offset + off, block_offset + data_end);
      return -1;
    }
  eh->offset = off;
  eh->payload = payload;
  eh->next = payload + eh->size;
  eh->cycles = c;
  *cycles = c;
  *pos = eh->next;
  return 1;
}
