/* ttv-ctf-private.h: the CTF 1.8 reader's internal model, shared by its passes
 * (metadata bytes, TSDL lexer and parser, stream index, cursor, text output). */
#pragma once

#include "ttv-file-window.h"
#include "ttv-trace.h"

G_BEGIN_DECLS

#define TTV_CTF_METADATA_MAGIC 0x75D11D57u
#define TTV_CTF_PACKET_MAGIC 0xC1FC1FC1u
#define TTV_CTF_INDEX_MAGIC 0xC1F1DCC1u
#define CTF_INDEX_HEADER_BYTES 16   /* LTTng index/NAME.idx: magic, major, minor, entry size */

/* --- Pass 1: metadata bytes -> TSDL text (ttv-ctf-metadata.c) ---------- */

/* Reads @path (plain text or packetized, either byte order); returns the
 * TSDL text (NUL-terminated, *len bytes without the NUL). */
char *ttv_ctf_metadata_read (const char *path, gsize *len, GError **error);
/* What ttv_ctf_metadata_read and the refresh share: reads @path whole
 * (*file_size, may be NULL, gets its size).  Packetized metadata comes
 * back unpacked to text (*packetized TRUE); with @live, only its whole
 * packets (one still being written is left for later).  Plain text comes
 * back as it is, unchecked (*packetized FALSE). */
char *ttv_ctf_metadata_load (const char *path, gboolean live, gsize *len, gboolean *packetized,
                             guint64 *file_size, GError **error);
/* A trace still being written: the metadata text as far as it is complete
 * (whole packets, and of their text the declarations up to the last
 * top-level "};", or for CTF 2 the whole fragments), NULL with @error;
 * *size gets the file's size. */
char *ttv_ctf_metadata_read_complete (const char *path, gsize *len, guint64 *size, GError **error);
/* TRUE when @data starts like CTF metadata (packet magic, "/ * CTF" text or
 * a CTF 2 JSON text sequence). */
gboolean ttv_ctf_metadata_looks_valid (const guint8 *data, gsize len);
typedef struct _CtfMeta CtfMeta;
/* The metadata text as a model: TSDL or, starting with RS, CTF 2 (see
 * ttv_ctf2_parse for @whole_only). */
CtfMeta *ttv_ctf_metadata_parse (const char *text, gsize len, const char *path, gboolean whole_only,
                                 GError **error);
/* Packetized metadata -> text; @path is only used in messages. */
char *ttv_ctf_metadata_unpack (const guint8 *data, gsize len, const char *path, gsize *out_len,
                               GError **error);

/* --- Pass 2: TSDL lexer (ttv-ctf-lexer.c) ------------------------------ */

typedef enum {
  CTF_TOK_EOF,
  CTF_TOK_IDENT,
  CTF_TOK_INTEGER,     /* value in .value (magnitude; sign is a separate token) */
  CTF_TOK_STRING,      /* "..." ; .text excludes the quotes, escapes kept raw */
  CTF_TOK_CHAR,        /* '...' */
  CTF_TOK_PUNCT,       /* one of { } ( ) [ ] ; : , = . < > * + - */
  CTF_TOK_ASSIGN_TYPE, /* := */
  CTF_TOK_ELLIPSIS,    /* ... */
  CTF_TOK_ARROW,       /* -> */
  CTF_TOK_ERROR,       /* lexical error; .text holds the message */
} CtfTokenKind;

typedef struct {
  CtfTokenKind kind;
  const char *text;    /* weak, into the source */
  guint len;
  guint line, column;  /* 1-based */
  guint64 value;
} CtfToken;

typedef struct {
  const char *src;     /* weak */
  gsize len;
  gsize pos;
  guint line, column;
} CtfLexer;

void     ttv_ctf_lexer_init (CtfLexer *lexer, const char *src, gsize len);
void     ttv_ctf_lexer_next (CtfLexer *lexer, CtfToken *token);
gboolean ttv_ctf_token_is (const CtfToken *token, const char *text);
char    *ttv_ctf_token_dup (const CtfToken *token);
/* Undoes C-style escapes of a string literal's text. */
char    *ttv_ctf_string_unescape (const char *text, gsize len);

/* --- Pass 3: the trace model the parser fills (ttv-ctf-parser.c) ------- */

typedef struct {
  char *name;             /* owned */
  char *description;      /* owned, may be NULL */
  guint64 freq;           /* Hz, > 0 */
  /* As written (any 64-bit value, either sign): 128 bits so that the
   * conversion to nanoseconds never overflows before saturating. */
  __int128 offset_s;
  __int128 offset;        /* cycles */
  gboolean absolute;
  /* Precomputed: time = base_ns + value * 1e9 / freq (saturated). */
  __int128 base_ns;
  /* The offset puts times past what TtvTime (64-bit ns since the epoch)
   * holds: base_ns is 0, times are relative to the offset (their spacing
   * kept), and the trace says so in a warning. */
  gboolean relative;
} CtfClock;

typedef struct _CtfStreamClass CtfStreamClass;
/* What babeltrace2's line shows of an event class (ttv-ctf-text.c). */
typedef struct _CtfTextPlan CtfTextPlan;
void ttv_ctf_text_plan_free (CtfTextPlan *plan);
/* What ttv-report's jsonl line shows of an event class (ttv-ctf-jsonl.c). */
typedef struct _CtfJsonlPlan CtfJsonlPlan;
void ttv_ctf_jsonl_plan_free (CtfJsonlPlan *plan);

/* Where an event's fields start and where it ends, in bits from its
 * header's aligned start: constant for a start at a given place in a
 * 64-bit word (CTF_OFFSET_PLACES of them, a byte apart) when every
 * alignment divides 64 bits and every scope has a fixed size (else
 * end_bits is negative; payload_bits is -1 too unless the contexts have).
 * When the fields' only member of varying size is a string, last
 * (irq_handler_entry's name) or followed by members of constant places
 * (CtfEventClass.string_tail_bits), end_bits is minus where that string
 * starts (CTF_STRING_TAIL_BITS), else -1. */
typedef struct {
  gint32 payload_bits, end_bits;
} CtfEventOffsets;

#define CTF_HEADER_COMPACT 0
#define CTF_HEADER_EXTENDED 1
#define CTF_OFFSET_PLACES 8
/* Where the string ending an event's fields starts (see CtfEventOffsets),
 * or a value <= 1 when its fields do not end so. */
#define CTF_STRING_TAIL_BITS(o) (-(gint64) (o)->end_bits)

typedef struct {
  char *name;             /* owned: exact CTF name */
  guint64 id;
  guint64 stream_id;
  gboolean has_id, has_stream_id;
  gint64 loglevel;        /* -1 if absent */
  char *emf_uri;          /* owned, may be NULL */
  TtvType *context;       /* owned, may be NULL */
  TtvType *fields;        /* owned, may be NULL */
  CtfStreamClass *stream; /* weak */
  TtvEventType *type;     /* weak */
  /* Which other scopes its contexts and fields refer to (CTF_REFS_*, found
   * on first use by the cursor, which sets it last; 0 until then), and
   * what skipping an event takes after its header: for the stream event
   * context, the context and the fields, alignment - 1 and fixed size in
   * bits (-1: varies; 0 for a scope the class lacks). */
  gint refs;
  guint64 skip_mask[3];
  gint64 skip_bits[3];
  gint64 packet_context_bit;  /* where its packets' context starts (after a packet header of
                               * fixed size), or -1 */
  /* Its events' layout after a compact and after an extended LTTng
   * header (CTF_HEADER_COMPACT, CTF_HEADER_EXTENDED) that starts at each
   * byte of a 64-bit word. */
  CtfEventOffsets offsets[2][CTF_OFFSET_PLACES];
  /* Its fields' sequential layout (weak, the type's) when they vary in
   * size but read member by member (a payload with a string): the cursor
   * steps over them with it, after contexts at constant offsets. */
  const TtvSeqLayout *payload_seq;
  /* When the offsets have a string's start (CTF_STRING_TAIL_BITS): the
   * fields end past that string's NUL aligned to string_tail_align (bits,
   * a power of two), then string_tail_bits of members of constant size
   * and places (request_begin's client and ports); 8 and 0 when the
   * string is the last member. */
  guint string_tail_align;
  guint64 string_tail_bits;
  /* When they have no such layout but a decode plan (arrays, sequences):
   * the cursor steps over them by the plan (ttv_type_skip_by_plan). */
  gboolean payload_by_plan;
  /* CTF_REFS_FIELDS_ALONE and the packet context (if any) at a known
   * place: the usual event's scopes decode in one call (its chain).  Set
   * with refs (atomically, after the chain). */
  gint chain_ok;
  TtvDecoderChain chain;
  CtfTextPlan *text;      /* owned, made by the first line printed */
  CtfJsonlPlan *jsonl;    /* owned, made by the first jsonl line */
} CtfEventClass;

/* Installs @plan, made by the first line of an event class that needs it,
 * in @slot (its CtfTextPlan or CtfJsonlPlan) and returns it.  Lines may be
 * printed from several threads at once (the viewer's passes): when another
 * thread installed one first, @plan is freed with @free_plan and theirs
 * is returned. */
gpointer ttv_ctf_event_class_install_plan (gpointer *slot, gpointer plan, GDestroyNotify free_plan);

#define CTF_REFS_KNOWN 1
#define CTF_REFS_TRACE_PACKET 2   /* trace.packet.header */
#define CTF_REFS_STREAM_PACKET 4  /* stream.packet.context */
#define CTF_REFS_HEADER 8         /* stream.event.header */
#define CTF_REFS_FIELDS_ALONE 16  /* none of these, and its fields (at TtvEvent.payload_bit) and
                                   * contexts decode by plans: the fields decode alone */
#define CTF_REFS_PACKET_CONTEXT_NEEDS_HEADER 32  /* its stream's packet context refers to trace.packet.header */


typedef enum {
  CTF_HEADER_GENERIC,
  CTF_HEADER_LTTNG,       /* struct { enum id; variant <id> { compact {ts}; extended {id; ts} } v; } */
} CtfHeaderKind;

struct _CtfStreamClass {
  guint64 id;
  gboolean has_id;
  TtvType *packet_context;  /* owned, may be NULL */
  TtvType *event_header;    /* owned, may be NULL */
  TtvType *event_context;   /* owned, may be NULL */
  GPtrArray *events;        /* of CtfEventClass *, weak */
  GPtrArray *by_id;         /* of CtfEventClass *, weak, indexed by id (dense ids), may be NULL */
  GHashTable *by_id_hash;   /* guint64* -> CtfEventClass *, for sparse ids */
  CtfClock *clock;          /* weak: the clock of the timestamps, may be NULL */
  gboolean has_time;        /* its events have a time (a clock or timestamp fields) */
  /* LTTng header fast path (align and size in bits). */
  CtfHeaderKind header_kind;
  TtvByteOrder header_order;
  guint h_align, h_id_bits, h_id_align, h_ext_value;
  guint h_c_align, h_c_ts_bits, h_c_ts_align;
  guint h_e_align, h_e_id_bits, h_e_id_align, h_e_ts_bits, h_e_ts_align;
  guint64 h_compact_start, h_compact_end;
};

struct _CtfMeta {
  guint major, minor;
  guint8 uuid[16];
  gboolean has_uuid;
  TtvByteOrder byte_order;
  gboolean has_byte_order;
  TtvType *packet_header;   /* owned, may be NULL */
  GPtrArray *env_keys;      /* of char *, owned, in order */
  GPtrArray *env_values;    /* of char *, owned (display text) */
  GPtrArray *env_is_string; /* of GINT_TO_POINTER (TRUE for string values) */
  GPtrArray *clocks;        /* of CtfClock *, owned */
  GPtrArray *streams;       /* of CtfStreamClass *, owned */
  GPtrArray *events;        /* of CtfEventClass *, owned, in metadata order */
  char *path;               /* owned: metadata path, for messages */
  /* Of char *, owned: what the metadata declares that nothing reads (a
   * scope its block does not have), "PATH:LINE:COLUMN: ...", for the
   * trace's warnings. */
  GPtrArray *notes;
};

CtfMeta *ttv_ctf_meta_new (void);
void     ttv_ctf_meta_free (CtfMeta *meta);
/* Parses TSDL @text into a model (types finished, event classes linked to
 * stream classes, clocks resolved).  Errors name @path, line and column. */
CtfMeta *ttv_ctf_parse (const char *text, gsize len, const char *path, GError **error);
/* Checks every reference of the model (sequence and string lengths,
 * variant selectors) against what it names (ttv-ctf-resolve.c); @where
 * (TtvType * -> location text, may be NULL) says where each was declared
 * for the message. */
gboolean        ttv_ctf_resolve_refs (const CtfMeta *meta, GHashTable *where, GError **error);
/* Resolution pass (ttv-ctf-meta.c), run by ttv_ctf_parse(). */
void            ttv_ctf_meta_finish (CtfMeta *meta);
CtfStreamClass *ttv_ctf_meta_find_stream (const CtfMeta *meta, guint64 id);
CtfEventClass  *ttv_ctf_stream_find_event (const CtfStreamClass *sc, guint64 id);
/* (Re)builds the id lookup of @sc from sc->events (the first of equal ids wins). */
void            ttv_ctf_stream_index_events (CtfStreamClass *sc);
CtfClock       *ttv_ctf_meta_find_clock (const CtfMeta *meta, const char *name);
/* Clock value -> TtvTime, saturating at TTV_TIME_MIN / TTV_TIME_MAX. */
TtvTime         ttv_ctf_clock_to_time (const CtfClock *clock, guint64 value);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CtfMeta, ttv_ctf_meta_free)

/* --- Pass 4: data streams (ttv-ctf-stream.c) --------------------------- */

typedef struct {
  guint64 offset;           /* byte offset of the packet in the file */
  guint64 packet_bits;      /* packet size */
  guint64 content_bits;     /* content size (<= packet_bits) */
  guint64 ts_begin, ts_end; /* raw clock values (0 when absent) */
  TtvTime t_begin, t_end;
  guint64 events_discarded; /* running counter */
  guint64 events_bit;       /* where the first event starts; 0 = not read yet */
  gint64 cpu_id;            /* -1 when absent */
  gboolean has_ts;
  gboolean has_ts_end;      /* ts_end is the packet's own (else ts_begin) */
  guint64 seq_num;          /* packet sequence number, when has_seq_num */
  gboolean has_seq_num;
  gboolean truncated;       /* the file ends inside its content (content_bits is what is
                             * there): its events end at the last whole one, */
  guint64 ts_last;          /* whose raw clock value ends it (t_end), not ts_end */
} CtfPacket;

/* Where a seek may start reading inside a packet (ttv-ctf-fine-index.c):
 * an event noted every CTF_FINE_STEP_BITS or so of a packet read from its
 * first event to its end, with its index and the clock before it. */
#define CTF_FINE_STEP_BITS (4096 * 8)
typedef struct {
  guint32 bit;              /* where the event starts in its packet (packets of
                             * less than 512 MiB are noted) */
  guint32 index;            /* its index in the packet */
  guint64 clock_before;     /* the clock value before its header */
} CtfFineEntry;

typedef struct {
  guint64 packet_offset;    /* of the packet it was noted in */
  guint n;
  CtfFineEntry entries[];   /* in the packet's order */
} CtfFineIndex;

/* A stream file's fine indexes, one per packet read through, published by
 * the cursors of every thread that reads it. */
typedef struct {
  GMutex lock;
  GPtrArray *by_packet;     /* of CtfFineIndex * (owned), NULL where none; NULL until one */
} CtfFineIndexes;

typedef struct {
  TtvTracefile *tracefile;  /* weak */
  CtfMeta *meta;            /* weak */
  char *path;               /* owned */
  TtvWindowedFile *file;      /* owned: read through windows (cursors have their own) */
  guint64 size;
  CtfStreamClass *sc;       /* weak: from the first packet */
  guint64 stream_instance_id;
  GArray *packets;          /* of CtfPacket */
  gboolean from_index;      /* packets came from index/NAME.idx */
  gboolean overlapping;     /* some packet begins before the previous one ends */
  /* Bumped whenever the index is (re)built, @overlapping with it: a
   * cursor that decided to read directly compares it with its own copy
   * before each usual turn (ttv-ctf-cursor.c). */
  guint64 index_generation;
  gboolean saturated;       /* some packet's times are past what TtvTime holds (said once) */
  guint64 index_claimed_end; /* where LTTng's index says the last packet ends, when past the file */
  GError *open_error;       /* owned: damage that makes the stream unreadable at open */
  /* The first file of the same stream when it continues in several
   * directories (ttv-ctf-group.c), else NULL; babeltrace2 names the stream
   * after it. */
  const void *stream_first; /* weak: a CtfStreamFile * */
  CtfFineIndexes fine;
} CtfStreamFile;

typedef struct {
  CtfMeta *meta;            /* owned */
  GPtrArray *files;         /* of CtfStreamFile *, owned */
  char *hostname;           /* owned, may be NULL */
  /* What babeltrace2 prints after the time from the trace's environment:
   * "HOST:PROCNAME:(VPID) " (each part when present), NULL for none. */
  char *babeltrace_prefix;  /* owned */
  /* What was parsed, so that a refresh sees metadata that grew. */
  char *metadata_text;      /* owned */
  gsize metadata_len;
  guint64 metadata_size;    /* bytes of the metadata file */
} CtfTracePriv;

/* The last value with @role among @v's members and below (structs and
 * variants), NULL when none has it. */
const TtvValue *ttv_ctf_find_role (const TtvDecoder *decoder, const TtvValue *v, guint32 role);
/* Opens a data stream file and builds its packet index. */
CtfStreamFile *ttv_ctf_stream_file_open (CtfMeta *meta, const char *dir, const char *name,
                                         TtvTrace *trace, GError **error);
void     ttv_ctf_stream_file_free (CtfStreamFile *sf);

/* Fine indexes (ttv-ctf-fine-index.c). */
void ttv_ctf_fine_indexes_init (CtfFineIndexes *fine);
void ttv_ctf_fine_indexes_clear (CtfFineIndexes *fine);
/* Packet @packet's fine index, NULL when none was published; it lives as
 * long as @sf. */
const CtfFineIndex *ttv_ctf_fine_index_lookup (CtfStreamFile *sf, guint64 packet);
/* Publishes @entries (of CtfFineEntry, copied) as packet @packet's fine
 * index, unless it has one. */
void ttv_ctf_fine_index_publish (CtfStreamFile *sf, guint64 packet, const GArray *entries);
/* Whether a seek may skip every event before @entry (@data is the seek's). */
typedef gboolean (*CtfFineBefore) (const CtfFineEntry *entry, gconstpointer data);
/* The last entry of @fi that @before holds for (it holds for a first part
 * of the entries, then for none), NULL when none: the packet's start. */
const CtfFineEntry *ttv_ctf_fine_index_find (const CtfFineIndex *fi, CtfFineBefore before, gconstpointer data);
/* Recomputes @sf's times, range and lost events from its packets (after
 * some were dropped); @before, may be NULL, is the same stream's packet
 * just before them in another file. */
void     ttv_ctf_stream_file_reindex (CtfStreamFile *sf, const CtfPacket *before);
/* Directories of one trace (ttv-ctf-group.c): the label of each for its
 * tracefiles' names (what tells them apart: "archives/CHUNK"), of char *. */
GPtrArray *ttv_ctf_group_labels (const char *const *dirs, guint n);
/* Files of one stream found in several directories: packets already read
 * from an earlier one are dropped, losses between files found
 * (ttv-ctf-group.c). */
void     ttv_ctf_group_streams (GPtrArray *files);
/* A trace still being written (ttv-ctf-refresh.c): after the caller took
 * the grown file's size (sf->file, size), indexes the whole packets after the
 * known ones; an incomplete trailing packet is left for later, a damaged
 * one is an error naming the file and offset.  Updates sf->tracefile
 * (range, packet count, size, lost events), adding it to @trace once a
 * file that had none gets its first whole packet. */
gboolean ttv_ctf_stream_file_index_more (CtfStreamFile *sf, TtvTrace *trace, GError **error);

/* --- Live traces (ttv-ctf-refresh.c) ---------------------------------- */

gboolean ttv_ctf_refresh (TtvTrace *trace, gboolean *changed, GError **error);
/* Adds to @trace an event type for each of @m's event classes from index
 * @from on (all of them at open, those declared since at a refresh); a
 * class naming an undeclared stream class gets a warning naming
 * @meta_path instead (ttv-ctf-reader.c). */
/* The sorted names of @trace_path's stream files: its regular, non-empty
 * files but "metadata" and hidden ones, less those whose full path is in
 * @known (may be NULL); NULL with @error when the directory cannot be
 * read (ttv-ctf-reader.c).  What is skipped is said in @trace's warnings
 * (@trace NULL: nothing is said): an empty file, and as damage, anything
 * but a regular file (a folder but index/, a FIFO, a device, a dead link). */
GPtrArray *ttv_ctf_list_stream_files (const char *trace_path, GHashTable *known, TtvTrace *trace,
                                      GError **error);
void     ttv_ctf_add_event_types (TtvTrace *trace, CtfMeta *m, guint from, const char *meta_path);
/* Decodes packet @index's header and context into @decoder (scopes
 * "trace.packet.header" and "stream.packet.context") from @data, the
 * packet's bytes, and fills events_bit. */
gboolean ttv_ctf_packet_read_context (CtfStreamFile *sf, guint64 index, const guint8 *data,
                                      TtvDecoder *decoder, gint32 *header_node, gint32 *context_node,
                                      GError **error);
/* The same, from the pages of the packet's header and context read from
 * its file: for a cursor that reads the packet in part from its first
 * event, which must know where the events start when an index file gave
 * the packet (events_bit 0 then). */
gboolean ttv_ctf_packet_read_head_pages (CtfStreamFile *sf, guint64 index, TtvDecoder *d, GError **error);

/* --- Pass 5: cursors (ttv-ctf-cursor.c) ------------------------------- */

TtvCursor *ttv_ctf_cursor_new (TtvTracefile *tracefile, GError **error);
TtvCursor *ttv_ctf_cursor_new_few (TtvTracefile *tracefile, GError **error);
/* The raw clock value of the last whole event of packet @index, a truncated
 * one (its begin when it has none): where what can be read of it ends. */
guint64    ttv_ctf_packet_last_clock (TtvTracefile *tracefile, guint64 index);
void       ttv_ctf_cursor_free (TtvCursor *cursor);
gboolean   ttv_ctf_cursor_next (TtvCursor *cursor, TtvEvent *event, GError **error);
gboolean   ttv_ctf_cursor_seek_time (TtvCursor *cursor, TtvTime time, GError **error);
gboolean   ttv_ctf_cursor_skip_block (TtvCursor *cursor, GError **error);
gboolean   ttv_ctf_cursor_seek_position (TtvCursor *cursor, const TtvTracefilePosition *pos,
                                         GError **error);
gint32     ttv_ctf_cursor_decode_fields (const TtvEvent *event, TtvDecoder *decoder, GError **error);
/* The trace's decode_contexts, after its decode_contexts_quick returned
 * -1: every scope by decode_all, which reports errors (its arguments are
 * the class's to check). */
gint32     ttv_ctf_cursor_decode_contexts (const TtvEvent *event, TtvDecoder *decoder,
                                           gint32 scopes[TTV_EVENT_N_CONTEXTS], GError **error);
gint32     ttv_ctf_cursor_decode_contexts_quick (const TtvEvent *event, TtvDecoder *decoder,
                                                 gint32 scopes[TTV_EVENT_N_CONTEXTS]);
/* @ec's CTF_REFS_* (and skip sizes, packet_context_bit), worked out on first use. */
gint       ttv_ctf_event_class_refs (const CtfStreamFile *sf, CtfEventClass *ec);
/* Tests: makes @cursor read every event the general way, to compare the
 * path of constant offsets with it. */
void       ttv_ctf_cursor_use_general_path (TtvCursor *cursor);

/* Per-event decode information kept in TtvEvent.priv (no allocation): the
 * bit offset of the event header from the packet start, and its length in
 * bits when it is an LTTng header shorter than 2^16 (else 0: decode it). */
#define CTF_EVENT_PRIV(hdr_bit, hdr_end) \
  GSIZE_TO_POINTER (((gsize) (hdr_bit) << 16) \
                    | ((gsize) ((hdr_end) - (hdr_bit)) < 0x10000 ? (gsize) ((hdr_end) - (hdr_bit)) : 0))
#define CTF_EVENT_HEADER_BIT(ev) ((guint64) GPOINTER_TO_SIZE ((ev)->priv) >> 16)
#define CTF_EVENT_HEADER_END(ev) \
  ((GPOINTER_TO_SIZE ((ev)->priv) & 0xffff) ? CTF_EVENT_HEADER_BIT (ev) + (GPOINTER_TO_SIZE ((ev)->priv) & 0xffff) : 0)

G_END_DECLS
