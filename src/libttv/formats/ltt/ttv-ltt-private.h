/* ttv-ltt-private.h: what the passes of the LTT reader and the writer share
 * (layout constants, system.xml, eventdefs, block index, code table). */
#pragma once

#include "ttv-ltt.h"
#include "ttv-ltt-writer.h"
#include "ttv-error.h"
#include "ttv-file-window.h"

#include "ttv-safe-xml.h"

#include <libxml/tree.h>

G_BEGIN_DECLS

/* Layout (docs/ltt-format.md). */
#define TTV_LTT_HEADER_SIZE 6               /* uint16 id, uint32 delta; packed */
#define TTV_LTT_CODE_FACILITY_LOAD 0
#define TTV_LTT_CODE_BLOCK_START 1
#define TTV_LTT_CODE_BLOCK_END 2
#define TTV_LTT_CODE_HEARTBEAT 3
#define TTV_LTT_BUILTIN_CODES 256           /* codes reserved for builtin */
#define TTV_LTT_BLOCK_TS_SIZE 20            /* block_timestamp payload */
#define TTV_LTT_HEARTBEAT_SIZE 16           /* timestamp payload */
#define TTV_LTT_FIRST_EVENT 28              /* block_start at 0, payload 8..28 */
#define TTV_LTT_MIN_BLOCK_SIZE 64
#define TTV_LTT_MAX_BLOCK_SIZE (1u << 30)

/* Payload offset of a builtin timestamp event whose header is at @off. */
static inline guint64
ttv_ltt_ts_payload (guint64 off)
{
  return (off + TTV_LTT_HEADER_SIZE + 7) & ~(guint64) 7;
}

/* --- info/system.xml (ttv-ltt-system.c) --- */
typedef struct {
  TtvByteOrder byte_order;
  TtvLttArchSize arch;
  guint short_bits, int_bits, long_bits, pointer_bits;
  guint32 block_size;
  guint n_cpu;
  guint64 freq;                 /* cycles per second */
  gboolean flight_recorder;
} TtvLttSystem;

void     ttv_ltt_arch_sizes (TtvLttArchSize arch, guint *short_bits, guint *int_bits,
                             guint *long_bits, guint *pointer_bits);
const char *ttv_ltt_arch_name (TtvLttArchSize arch);
/* Reads @path; fills @sys, and @trace's info when @trace is not NULL. */
gboolean ttv_ltt_system_read (const char *path, TtvTrace *trace, TtvLttSystem *sys, GError **error);
/* The same from @length bytes at @data (NULL: the file @path). */
gboolean ttv_ltt_system_parse (const char *path, const char *data, gsize length, TtvTrace *trace,
                               TtvLttSystem *sys, GError **error);

/* --- XML helpers (ttv-ltt-xml.c) --- */
/* Parses @data (or the file @path when @data is NULL); errors name @path and the line. */
xmlDoc  *ttv_ltt_xml_read (const char *path, const char *data, gsize len, GError **error);
guint32  ttv_ltt_crc32 (const guint8 *data, gsize len);
/* CRC-32 of the canonical text of a <facility> element. */
guint32  ttv_ltt_facility_checksum (xmlNode *facility);
/* Value of attribute @name, or NULL (g_free). */
char    *ttv_ltt_xml_attr (xmlNode *node, const char *name);

/* --- eventdefs (ttv-ltt-eventdefs.c) --- */
typedef struct {
  char *name;                   /* owned */
  char *description;            /* owned, may be NULL */
  TtvType *fields;              /* owned: a STRUCT, sizes resolved for the arch */
} TtvLttEventDef;

typedef struct {
  char *name;                   /* owned */
  char *description;            /* owned, may be NULL */
  char *file;                   /* owned: the eventdefs file it came from */
  guint32 checksum;
  GPtrArray *events;            /* of TtvLttEventDef *, owned, document order */
  GPtrArray *event_types;       /* of TtvEventType * (weak), once loaded by control/facilities */
} TtvLttFacility;

void     ttv_ltt_facility_free (TtvLttFacility *facility);
/* Appends the <facility> elements of @doc to @out. */
gboolean ttv_ltt_eventdefs_parse (xmlDoc *doc, const char *file, const TtvLttSystem *sys,
                                  GPtrArray *out, GError **error);
/* Every *.xml in @dir, in name order. */
gboolean ttv_ltt_eventdefs_read_dir (const char *dir, const TtvLttSystem *sys, GPtrArray *out,
                                     GError **error);
/* builtin facility_load payload type. */
TtvType *ttv_ltt_facility_load_type_new (TtvByteOrder order);

/* --- one tracefile: bytes and block index (ttv-ltt-tracefile.c) --- */
typedef struct {
  guint64 slot;                 /* block number in file order */
  TtvTime start, end;
  guint64 start_cycles, end_cycles;
  guint32 block_id;
  guint32 end_offset;           /* offset of block_end */
} TtvLttBlock;

typedef struct {
  char *path;                   /* owned: full path, for messages */
  TtvWindowedFile *file;          /* owned: read through windows (cursors have their own) */
  guint64 size;
  guint32 block_size;
  TtvByteOrder order;
  guint64 freq;
  GArray *blocks;               /* of TtvLttBlock, in (start time, block_id) order */
  guint32 min_block_id;
  /* Per block (same order), a TtvLttFineIndex published atomically by the
   * first cursor that reads the whole block; NULL until then.  Lets a seek
   * scan a few dozen events instead of up to a whole block. */
  gpointer *fine;               /* owned, n_fine slots */
  guint64 n_fine;
} TtvLttFile;

/* Every TTV_LTT_FINE_STEP-th event of a block: where it starts and the
 * cycle count before it, so a cursor can resume there. */
#define TTV_LTT_FINE_STEP 128
typedef struct {
  guint32 offset;
  guint32 index;
  guint64 cycles;
} TtvLttFineEntry;

/* A block's fine index as kept (ttv-ltt-fine-index.c): @entries in the
 * order read (increasing index and cycles), in half the memory when they
 * allow it; freed with g_free. */
typedef struct _TtvLttFineIndex TtvLttFineIndex;
TtvLttFineIndex *ttv_ltt_fine_index_new (const TtvLttFineEntry *entries, guint n);
guint    ttv_ltt_fine_index_get_n (const TtvLttFineIndex *fi);
gboolean ttv_ltt_fine_index_is_compact (const TtvLttFineIndex *fi);
/* Bytes it takes. */
gsize    ttv_ltt_fine_index_get_size (const TtvLttFineIndex *fi);
void     ttv_ltt_fine_index_get (const TtvLttFineIndex *fi, guint k, TtvLttFineEntry *out);
/* The last entry whose cycle count is below @target, or -1. */
gint     ttv_ltt_fine_index_find_cycles (const TtvLttFineIndex *fi, guint64 target);
/* The last entry whose event index is at most @index, or -1. */
gint     ttv_ltt_fine_index_find_index (const TtvLttFineIndex *fi, guint64 index);

/* Opens @path and indexes its blocks; @trace receives warnings (may be NULL). */
TtvLttFile *ttv_ltt_file_open (const char *path, const TtvLttSystem *sys, TtvTrace *trace,
                               GError **error);
void     ttv_ltt_file_free (TtvLttFile *file);
TtvTime  ttv_ltt_time_from_cycles (TtvTime anchor_time, guint64 anchor_cycles, guint64 cycles,
                                   guint64 freq);

/* --- event codes --- */
typedef enum {
  TTV_LTT_CODE_KIND_UNKNOWN = 0,
  TTV_LTT_CODE_KIND_EVENT,      /* delivered */
  TTV_LTT_CODE_KIND_SKIP,       /* builtin, skipped (facility_load in a cpu file) */
  TTV_LTT_CODE_KIND_BLOCK_START,
  TTV_LTT_CODE_KIND_BLOCK_END,
  TTV_LTT_CODE_KIND_HEARTBEAT,
} TtvLttCodeKind;

typedef struct {
  guint8 kind;                  /* TtvLttCodeKind */
  guint32 align_mask;           /* payload alignment in bytes - 1 */
  /* Payload bytes of a delivered event (kind EVENT) of fixed size; else
   * G_MAXUINT32, so that an event's end computed with it lies past any
   * block (2^30 bytes at most) and the cursor's fast path rejects it. */
  guint32 fixed_size;
  const TtvType *fields;        /* weak */
  const TtvEventType *type;     /* weak, NULL for builtin */
  /* From an event's header at byte offset o to the next event's:
   * step[o % 8] bytes (the header, the payload's padding, which depends
   * only on o % 8 for an alignment of 8 or less, and the payload).  The
   * cursor's fast path then goes from one event to the next with one load
   * after the id's, where aligning took two and three operations more.
   * G_MAXUINT32 where fixed_size is, and for alignments above 8. */
  guint32 step[8];
} TtvLttCode;

/* Every code of a table is set by this, even the unknown ones: a zeroed
 * code would have a fixed_size of 0. */
void     ttv_ltt_code_set (TtvLttCode *code, TtvLttCodeKind kind, const TtvType *fields,
                           const TtvEventType *type);

/* --- iteration (ttv-ltt-cursor.c) --- */
typedef struct {
  guint64 block;                /* index in file->blocks; == n_blocks at the end */
  guint64 offset;               /* next event header */
  guint64 end_offset;           /* block_end of the current block */
  guint64 index;                /* delivered events before offset in the block */
  guint64 cycles;
  guint64 block_cycles;
  TtvTime block_time;
  /* block_time - block_cycles, modulo 2^64: with a 1 GHz clock an event's
   * time is this + its cycles (the same sum, one subtraction fewer). */
  guint64 time_base;
  const guint8 *base;           /* current block */
  GArray *fine;                 /* of TtvLttFineEntry while recording a block read from its start, else NULL */
  guint64 fast_end;             /* end_offset when the cursor is fast, else 0 (no event takes the fast path) */
  /* The event of ttv_ltt_cursor_next_kept()'s caller whose fields the same
   * for the whole block hold this block's, else NULL: cleared with the
   * iterator whenever it moves to another block or is restored. */
  const TtvEvent *kept;
} TtvLttIter;

typedef struct {
  TtvCursor parent;
  TtvLttFile *file;             /* weak */
  const TtvLttCode *codes;      /* weak */
  guint n_codes;
  TtvLttIter it;
  TtvFileWindow window;         /* owned: holds it.base */
  gboolean fast;                /* native byte order and a 1 GHz clock (it.fast_end) */
  GError *load_error;           /* owned: the first block could not be read (next() reports it) */
  TtvDecoder *skipper;          /* owned: walks variable-size payloads */
} TtvLttCursor;

void     ttv_ltt_cursor_init (TtvLttCursor *c, TtvLttFile *file, const TtvLttCode *codes,
                              guint n_codes);
void     ttv_ltt_cursor_clear (TtvLttCursor *c);
gboolean ttv_ltt_cursor_next (TtvCursor *cursor, TtvEvent *event, GError **error);
/* The format's cursor_next_kept: ttv_ltt_cursor_next() for a caller that
 * hands it the same event every time, untouched but for its time. */
gboolean ttv_ltt_cursor_next_kept (TtvCursor *cursor, TtvEvent *event, GError **error);
gboolean ttv_ltt_cursor_seek_time (TtvCursor *cursor, TtvTime time, GError **error);
gboolean ttv_ltt_cursor_skip_block (TtvCursor *cursor, GError **error);
gboolean ttv_ltt_cycles_to_time (const TtvTrace *trace, guint64 cycles, TtvTime *time);
gboolean ttv_ltt_cursor_seek_position (TtvCursor *cursor, const TtvTracefilePosition *pos,
                                       GError **error);
TtvCursor *ttv_ltt_cursor_new (TtvTracefile *tracefile, GError **error);
void     ttv_ltt_cursor_free (TtvCursor *cursor);

/* --- control files and the trace (ttv-ltt-control.c, ttv-ltt-format.c) --- */
typedef struct {
  TtvLttSystem sys;
  GPtrArray *facilities;        /* of TtvLttFacility *, owned */
  TtvLttCode *codes;            /* owned, n_codes entries */
  guint n_codes;
  GArray *processes;            /* of TtvTraceProcess, owned */
  GArray *interrupts;           /* of TtvTraceInterrupt, owned */
  TtvType *facility_load_type;  /* owned */
} TtvLttTrace;

/* Reads control/facilities and assigns codes; registers event types. */
gboolean ttv_ltt_control_load_facilities (TtvTrace *trace, TtvLttTrace *lt, GError **error);
/* Reads control/processes and control/interrupts. */
gboolean ttv_ltt_control_load_state (TtvTrace *trace, TtvLttTrace *lt, GError **error);
void     ttv_ltt_control_clear (TtvLttTrace *lt);
/* Points @tf at @f: its size, block count and time span (open and refresh). */
void ttv_ltt_tracefile_fill (TtvTracefile *tf, TtvLttFile *f);

/* TtvFormatClass.refresh (ttv-ltt-refresh.c). */
gboolean ttv_ltt_refresh (TtvTrace *trace, gboolean *changed, GError **error);

G_END_DECLS
