/* ttv-lttng-private.h: what the passes of the LTTng 0.x reader and its writer
 * share: the on-disk layout of seed 001 (docs/lttng-format.md) and the reader's state. */
#pragma once

#include "ttv-file-window.h"

#include "ttv-trace.h"
#include "ttv-error.h"

G_BEGIN_DECLS

#define TTV_LTTNG_MAGIC 0x00D6B7EDu

/* The block start/end header then the trace header, packed, in the trace's
 * byte order (docs/lttng-format.md, "Block header"). */
enum {
  TTV_LTTNG_OFF_BEGIN_CC = 0,
  TTV_LTTNG_OFF_BEGIN_FREQ = 8,
  TTV_LTTNG_OFF_END_CC = 16,
  TTV_LTTNG_OFF_END_FREQ = 24,
  TTV_LTTNG_OFF_LOST_SIZE = 32,
  TTV_LTTNG_OFF_BUF_SIZE = 36,
  TTV_LTTNG_OFF_MAGIC = 40,
  TTV_LTTNG_OFF_ARCH_TYPE = 44,
  TTV_LTTNG_OFF_ARCH_VARIANT = 48,
  TTV_LTTNG_OFF_FLOAT_WORD_ORDER = 52,
  TTV_LTTNG_OFF_ARCH_SIZE = 56,
  TTV_LTTNG_OFF_MAJOR = 57,
  TTV_LTTNG_OFF_MINOR = 58,
  TTV_LTTNG_OFF_FLIGHT_RECORDER = 59,
  TTV_LTTNG_OFF_HAS_HEARTBEAT = 60,
  TTV_LTTNG_OFF_ALIGNMENT = 61,
  TTV_LTTNG_OFF_TSC_LSB_TRUNCATE = 62,
  TTV_LTTNG_OFF_TSCBITS = 63,
  TTV_LTTNG_OFF_COMPACT_DATA_SHIFT = 64,
  TTV_LTTNG_OFF_FREQ_SCALE = 65,
  TTV_LTTNG_OFF_START_FREQ = 69,
  TTV_LTTNG_OFF_START_TSC = 77,
  TTV_LTTNG_OFF_START_MONOTONIC = 85,
  TTV_LTTNG_OFF_START_SEC = 93,
  TTV_LTTNG_OFF_START_NSEC = 97,
  TTV_LTTNG_HEADER_SIZE = 101,
};

#define TTV_LTTNG_MIN_BUF_SIZE 128u
#define TTV_LTTNG_MAX_BUF_SIZE (1u << 30)

/* The "core" facility: fixed ids, never described in the trace. */
#define TTV_LTTNG_CORE_FACILITY 0
#define TTV_LTTNG_CORE_MARKER_ID 0
#define TTV_LTTNG_CORE_MARKER_FORMAT 1
#define TTV_LTTNG_CORE_TIME_HEARTBEAT 2
#define TTV_LTTNG_MARKER_ID_FORMAT "channel %s name %s facility_id %hhu event_id %hhu"
#define TTV_LTTNG_MARKER_FORMAT_FORMAT "channel %s name %s format %s"

typedef struct {
  TtvByteOrder byte_order;
  guint64 begin_cc, begin_freq, end_cc, end_freq;
  guint32 lost_size, buf_size;
  guint32 arch_type, arch_variant, float_word_order;
  guint8 arch_size, major_version, minor_version, flight_recorder, has_heartbeat;
  guint8 alignment, tsc_lsb_truncate, tscbits, compact_data_shift;
  guint32 freq_scale;
  guint64 start_freq, start_tsc, start_monotonic;
  guint32 start_sec, start_nsec;
} TtvLttngHeader;

/* What decoding events of one file needs, derived from its header. */
typedef struct {
  TtvByteOrder byte_order;
  guint arch_size;           /* 4 or 8 */
  guint alignment;           /* 0 (packed) or 1, 2, 4, 8 */
  gboolean has_heartbeat;    /* 32-bit event TSC */
  guint payload_align;       /* 1 when packed, else max (alignment, arch_size) */
  guint32 first_event;       /* offset of the first event header in a block */
  guint32 buf_size;
  /* time = start_time + (tsc - start_tsc) * 1e9 * freq_scale / start_freq */
  TtvTime start_time;
  guint64 start_tsc;
  guint64 start_freq;
  guint32 freq_scale;
} TtvLttngLayout;

typedef struct {
  guint32 offset;            /* of the (aligned) event header in the block */
  guint32 payload;           /* of the payload in the block */
  guint32 next;              /* just after the payload */
  guint64 cycles;            /* full 64-bit cycle count */
  guint8 facility_id, event_id;
  guint16 size;
} TtvLttngEventHeader;

/* --- ttv-lttng-layout.c: bytes in (and out, for the writer) ------------ */

/* Reads the headers of the block at @p (@avail bytes readable); checks the
 * magic (which gives the byte order) and that the header fits.  @file and
 * @file_offset only name the place in errors. */
gboolean ttv_lttng_header_read (const guint8 *p, gsize avail, TtvLttngHeader *h,
                                const char *file, guint64 file_offset, GError **error);
/* Writes both headers at @p (TTV_LTTNG_HEADER_SIZE bytes) in h->byte_order. */
void     ttv_lttng_header_write (guint8 *p, const TtvLttngHeader *h);
/* Checks the trace-header values a reader depends on and fills @layout. */
gboolean ttv_lttng_layout_from_header (const TtvLttngHeader *h, TtvLttngLayout *layout,
                                       const char *file, guint64 file_offset, GError **error);
/* TRUE when @a and @b describe the same encoding and clock (buf_size may differ). */
gboolean ttv_lttng_layout_equal (const TtvLttngLayout *a, const TtvLttngLayout *b);
guint32  ttv_lttng_event_header_size (const TtvLttngLayout *layout);
TtvTime  ttv_lttng_cycles_to_time (const TtvLttngLayout *layout, guint64 cycles);
/* The smallest cycle count whose time is >= @time (the writer's inverse). */
guint64  ttv_lttng_time_to_cycles (const TtvLttngLayout *layout, TtvTime time);

static inline guint32
ttv_lttng_align (guint32 off, guint align)
{
  return align > 1 ? (off + align - 1) / align * align : off;
}

/* Reads the event header at *pos in the block at @block (whose events end at
 * @data_end) and advances *pos and *cycles past the event.  Returns 1 with an
 * event, 0 at the end of the block's data, -1 with @error. */
gint     ttv_lttng_event_header_read (const TtvLttngLayout *layout, const guint8 *block,
                                      guint32 data_end, guint32 *pos, guint64 *cycles,
                                      TtvLttngEventHeader *eh, const char *file,
                                      guint64 block_offset, GError **error);

/* --- ttv-lttng-marker.c: marker format strings ---------------------------- */

/* Parses "pid %d name %s" into a STRUCT of fields, resolved for the layout
 * (sizes for arch_size, alignment, byte order).  Errors are
 * TTV_FORMAT_ERROR_SYNTAX naming the column (callers add file and offset). */
TtvType *ttv_lttng_marker_parse (const char *format, const TtvLttngLayout *layout, GError **error);
/* The inverse: a marker format string for a STRUCT of integer and string
 * fields (the writer's); NULL with TTV_USAGE_ERROR for other types. */
char    *ttv_lttng_marker_format_from_type (const TtvType *fields, GError **error);

/* --- ttv-lttng-index.c: one tracefile and its blocks --------------------- */

typedef struct {
  guint64 file_offset;
  guint64 begin_cc, end_cc;
  TtvTime begin_time, end_time;
  guint32 data_end;          /* buf_size - lost_size */
  guint32 file_block;        /* slot in the file */
} TtvLttngBlock;

typedef struct {
  char *path;                /* owned */
  TtvWindowedFile *file;       /* owned: read through windows (cursors have their own) */
  gsize size;
  TtvLttngLayout layout;
  TtvLttngHeader first;      /* header of the first block in file order */
  GArray *blocks;            /* of TtvLttngBlock, owned: non-empty blocks in time order */
  guint64 n_file_blocks;
} TtvLttngFile;

/* Opens @path and indexes its blocks from their headers only.  Blocks are
 * ordered by begin cycle count (file order for ties); blocks without events
 * are left out. */
TtvLttngFile *ttv_lttng_file_open (const char *path, GError **error);
/* The same for a file still being written (ttv-lttng-refresh.c): only its
 * whole blocks count (size is rounded down to them; no block at all gives a
 * file with size 0 and no block). */
TtvLttngFile *ttv_lttng_file_open_full (const char *path, gboolean live, GError **error);
void          ttv_lttng_file_free (TtvLttngFile *f);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvLttngFile, ttv_lttng_file_free)

/* --- ttv-lttng-facilities.c: event descriptions ------------------------- */

typedef struct {
  TtvLttngLayout layout;     /* of the cpu files (all agree) */
  TtvEventType **by_id[256]; /* owned arrays of 256 weak pointers, by facility then event id */
  GPtrArray *files;          /* of TtvLttngFile *, owned: one per tracefile */
  GArray *processes;         /* of TtvTraceProcess, owned */
  GArray *interrupts;        /* of TtvTraceInterrupt, owned */
  guint64 facilities_stamp;  /* sizes of control/facilities_N when last read live (0: never) */
} TtvLttngTrace;

/* Reads every control/facilities_N and adds an event type per marker that
 * has no type yet (all of them at open; those registered since, when
 * following a live trace: @live then reads whole blocks only, and a type
 * made while its marker_format was missing gets its fields).  Sets
 * *changed (may be NULL) when a type was added or completed. */
gboolean ttv_lttng_facilities_read (TtvTrace *trace, TtvLttngTrace *priv, gboolean live,
                                    gboolean *changed, GError **error);

/* --- ttv-lttng.c: the format class (open-time helpers the refresh reuses) */

/* Sorted CPU numbers N of the regular cpu_N files in @dir (N decimal,
 * without leading zeros). */
GArray  *ttv_lttng_list_cpus (const char *dir);
/* Points @tf at @f: its size, blocks and time range. */
void     ttv_lttng_tracefile_fill (TtvTracefile *tf, TtvLttngFile *f);

/* --- ttv-lttng-refresh.c: traces still being written -------------------- */

gboolean ttv_lttng_refresh (TtvTrace *trace, gboolean *changed, GError **error);

/* --- ttv-lttng-control.c: initial state from control/processes_N, interrupts_N */

gboolean ttv_lttng_control_read (TtvTrace *trace, TtvLttngTrace *priv, GError **error);
/* The `process` and `interrupt` events (any channel) of those files, in the
 * format-neutral types (state_name from seed 000's process state names,
 * since markers carry no enum labels): TtvFormatClass get_processes and
 * get_interrupts. */
const GArray *ttv_lttng_control_get_processes (const TtvTrace *trace);
const GArray *ttv_lttng_control_get_interrupts (const TtvTrace *trace);
/* The names in @dir (which may be NULL) that are one of @prefixes (a
 * NULL-terminated list) followed by a number, sorted by that number:
 * control/facilities_N, processes_N and interrupts_N. */
GPtrArray    *ttv_lttng_control_list_numbered (GDir *dir, const char * const *prefixes);

/* --- ttv-lttng-cursor.c ------------------------------------------------- */

TtvCursor *ttv_lttng_cursor_new (TtvTracefile *tracefile, GError **error);
void       ttv_lttng_cursor_free (TtvCursor *cursor);
gboolean   ttv_lttng_cursor_next (TtvCursor *cursor, TtvEvent *event, GError **error);
gboolean   ttv_lttng_cursor_seek_time (TtvCursor *cursor, TtvTime time, GError **error);
gboolean   ttv_lttng_cursor_skip_block (TtvCursor *cursor, GError **error);
gboolean   ttv_lttng_cycles_to_time_of_trace (const TtvTrace *trace, guint64 cycles, TtvTime *time);
gboolean   ttv_lttng_cursor_seek_position (TtvCursor *cursor, const TtvTracefilePosition *pos,
                                           GError **error);
gint32     ttv_lttng_decode_fields (const TtvEvent *event, TtvDecoder *decoder, GError **error);

G_END_DECLS
