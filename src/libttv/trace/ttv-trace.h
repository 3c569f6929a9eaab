/* ttv-trace.h: an opened trace, its tracefiles (streams), its event types and
 * the events that cursors deliver.  Format-neutral: readers fill these in,
 * the traceset engine, the CLI and the GUI only ever see these types. */
#pragma once

#include <gio/gio.h>

#include "ttv-clock-correction.h"
#include "ttv-decoder.h"
#include "ttv-time.h"
#include "ttv-type.h"

G_BEGIN_DECLS

typedef struct _TtvFormatClass TtvFormatClass;
typedef struct _TtvTrace TtvTrace;
typedef struct _TtvTracefile TtvTracefile;
typedef struct _TtvCursor TtvCursor;
typedef struct _TtvTraceDamage TtvTraceDamage;

/* One kind of event in one trace.  Ids are dense per trace (0..n-1), so
 * hooks and statistics can index arrays by them. */
typedef struct {
  guint id;
  char *name;          /* owned: "sched_switch", "syscall_entry" */
  char *facility;      /* owned, may be NULL: LTT facility, CTF provider ("lttng_ust_cyg_profile") */
  char *full_name;     /* owned: what users type and read: "core.syscall_entry" (LTT), CTF event name */
  char *description;   /* owned, may be NULL */
  TtvType *fields;     /* owned reference: a STRUCT (may have no field) */
  guint64 format_id;   /* the id in the trace's own numbering (LTT type code, CTF event id) */
  gpointer priv;       /* reader-private */
} TtvEventType;

/* What a tracer says of an event type besides its fields: LTTng's log
 * level (CTF 1.8 `loglevel`, CTF 2 lttng.org,2009 "log-level") and EMF URI
 * (`model.emf.uri`, "emf-uri"). */
typedef struct {
  gint log_level;         /* 0 (TRACE_EMERG) .. 14 (TRACE_DEBUG); -1: none */
  const char *emf_uri;    /* borrowed (the trace's); NULL: none */
} TtvEventTypeAttributes;

/* Where an event sits in its tracefile, with event granularity.  Ordered:
 * (block, offset) grows with the file; index counts events from the block's
 * start, so that a position can be checked when seeking back to it. */
typedef struct {
  guint64 block;       /* block / packet number in file order */
  guint64 offset;      /* byte offset of the event inside the block */
  guint64 index;       /* number of events before it in the block */
} TtvTracefilePosition;

/* One delivered event.  Valid until the cursor moves. */
typedef struct {
  TtvTime time;
  guint64 cycles;                 /* the raw clock value (for cycle= bookmarks) */
  const TtvEventType *type;       /* weak */
  TtvTracefile *tracefile;        /* weak */
  TtvTracefilePosition pos;
  const guint8 *data;             /* weak: base for decoding (block / packet start) */
  guint64 data_bits;              /* decodable bits from @data */
  guint64 payload_bit;            /* where the event's own fields start, from @data */
  gpointer priv;                  /* reader-private, e.g. context decode info */
} TtvEvent;

/* One process of the system state a trace recorded at its start, outside
 * the event stream (LTT control/processes, LTTng 0.x control/processes_N).
 * A field the trace lacks reads 0 / NULL. */
typedef struct {
  TtvTime time;
  char *name;                   /* owned, may be NULL */
  guint32 pid, ppid, tracer_pid;
  guint32 uid, euid, suid, fsuid;
  guint32 gid, egid, sgid, fsgid;
  guint32 state;                /* raw enum value */
  const char *state_name;       /* weak (seed 000's process state names), may be NULL */
} TtvTraceProcess;

/* One interrupt line of that recorded state (control/interrupts). */
typedef struct {
  TtvTime time;
  guint32 number;
  guint32 count;
  char *controller;             /* owned, may be NULL */
  char *name;                   /* owned, may be NULL */
} TtvTraceInterrupt;

/* Empty arrays of TtvTraceProcess and of TtvTraceInterrupt that free the
 * strings they own (the control files' readers fill them). */
GArray *ttv_trace_processes_new (void);
GArray *ttv_trace_interrupts_new (void);

/* The context scopes an event can carry besides its payload (CTF's stream
 * event context, event context and packet context), in the order a name
 * is looked up in them. */
typedef enum {
  TTV_EVENT_CONTEXT_STREAM_EVENT,
  TTV_EVENT_CONTEXT_EVENT,
  TTV_EVENT_CONTEXT_PACKET,
  TTV_EVENT_N_CONTEXTS
} TtvEventContext;

/* Flags of a TtvLostRange. */
typedef enum {
  /* The stream's first packet counted discarded events (a snapshot, or a
   * trace whose beginning was overwritten): lost since the stream began,
   * up to @end. */
  TTV_LOST_SINCE_STREAM_START = 1 << 0,
  /* The packets have no times: where the loss happened is unknown. */
  TTV_LOST_TIME_UNKNOWN = 1 << 1,
} TtvLostFlags;

/* A range of events the tracer lost (CTF events_discarded and packet
 * sequence gaps, LTT/LTTng lost blocks). */
typedef struct {
  TtvTime start;
  TtvTime end;
  guint64 count;                  /* events lost; 0 if unknown */
  guint64 packets;                /* whole packets lost (CTF packet_seq_num gaps); 0: none */
  TtvLostFlags flags;
} TtvLostRange;

struct _TtvTracefile {
  TtvTrace *trace;                /* weak */
  guint index;                    /* in the trace's tracefiles */
  guint serial;                   /* unique in the process, in the order made: a key for caches (decoder memos) */
  char *name;                     /* owned: "cpu/0", "channel0_1" */
  gint cpu;                       /* -1 when not per CPU */
  guint64 size;                   /* bytes on disk */
  guint64 n_blocks;               /* blocks / packets */
  TtvTime start;                  /* begin of its first block / packet (from the index) */
  TtvTime end;                    /* end of its last block / packet (from the index) */
  TtvTime first_event;            /* time of its first event (TTV_TIME_MAX: none) */
  TtvTime last_event;             /* time of its last event (TTV_TIME_MIN: none) */
  GArray *lost;                   /* of TtvLostRange, owned, may be empty */
  gpointer priv;                  /* reader-private */
};

typedef enum {
  TTV_TRACE_FLAG_BEGINNING_MISSING = 1 << 0,  /* flight recorder: oldest data overwritten */
  TTV_TRACE_FLAG_READ_ONLY = 1 << 1,
  /* Still being written (ttv_trace_open_growing): what its end holds partly
   * written (a declaration, a packet) is left for a refresh, not refused. */
  TTV_TRACE_FLAG_GROWING = 1 << 2,
} TtvTraceFlags;

struct _TtvTrace {
  const TtvFormatClass *format;   /* weak: static */
  char *path;                     /* owned: the directory actually read */
  char *display_path;             /* owned: what the user gave (e.g. the .tar.gz) */
  char *name;                     /* owned: basename for display */
  GPtrArray *tracefiles;          /* of TtvTracefile *, owned, in a stable order */
  GPtrArray *event_types;         /* of TtvEventType *, owned, indexed by id */
  /* Description of the traced system (system.xml attributes, CTF env),
   * key/value, insertion ordered. */
  GPtrArray *info_keys;           /* of char *, owned */
  GHashTable *info;               /* char * -> char *, owned */
  /* The trace's time span: its first and last events (tracers open
   * packets long before the first event and close them long after the
   * last, so packet bounds would show mostly empty time). */
  TtvTime start;
  TtvTime end;
  TtvTime packets_start;          /* begin of the earliest block / packet */
  TtvTime packets_end;            /* end of the latest block / packet */
  TtvTraceFlags flags;
  GPtrArray *warnings;            /* of char *, owned: things the user should know */
  GPtrArray *tail_warnings;       /* of char *, weak, NULL when none: those of @warnings about a
                                   * partly written last block or packet, normal while a trace
                                   * is being written */
  GPtrArray *damage_warnings;     /* of char *, weak, NULL when none: those of @warnings about
                                   * damage found while opening that loses events (the reader
                                   * will not deliver them) */
  TtvTraceDamage *damage;         /* owned; NULL: reading stops at damaged data (ttv-trace-damage.h) */
  char *session_rel;              /* owned, may be NULL: its path inside the session directory it was
                                   * found in (ttv-session.c); NULL for a trace opened alone or one
                                   * found in several directories (as babeltrace2 names traces) */
  /* Other directories holding more of this same trace (LTTng session
   * chunks after a rotation, snapshots), in order; NULL for one
   * directory.  Only formats with an identity() are given several. */
  GPtrArray *more_paths;          /* of char *, owned */
  /* The correction of its clock (identity unless set): start, end and
   * packets_start/end are corrected times; its tracefiles' times and
   * cursors stay in the trace's own clock (the context corrects them). */
  TtvClockCorrection clock;
  gpointer priv;                  /* reader-private */
};

struct _TtvFormatClass {
  const char *name;               /* "ltt", "lttng", "ctf" */
  const char *description;
  /* 0: not mine; 100: certainly mine.  Must not fail loudly. */
  guint     (*probe)        (const char *path);
  /* Optional: what identifies the trace in directory @path (a CTF trace's
   * UUID), so that directories of the same trace (session chunks,
   * snapshots) open as one trace (ttv_trace_open_group); NULL when @path
   * holds no such identity.  Newly allocated. */
  char     *(*identity)     (const char *path);
  /* Fills a trace allocated by ttv_trace_new(): tracefiles with their
   * index, event types, info, start/end. */
  gboolean  (*open)         (TtvTrace *trace, GError **error);
  void      (*close)        (TtvTrace *trace);   /* frees trace->priv and tracefile priv */

  TtvCursor *(*cursor_new)  (TtvTracefile *tracefile, GError **error);
  /* Optional (NULL: cursor_new): a cursor for a caller that reads few
   * events (a tracefile's first, its last packet's), which may read large
   * packets or blocks in part, as far as the events asked for. */
  TtvCursor *(*cursor_new_few) (TtvTracefile *tracefile, GError **error);
  void      (*cursor_free)  (TtvCursor *cursor);
  /* Delivers the next event; FALSE at the end (error unset) or on error
   * (the position in @event then stays that of the event before: the
   * engine names it in the message). */
  gboolean  (*cursor_next)  (TtvCursor *cursor, TtvEvent *event, GError **error);
  /* Optional (NULL: cursor_next): cursor_next for a caller that hands it
   * the same event on every call and writes nothing in it but its time
   * (the merged read's streams), so that fields the same as at the last
   * call (the block's) need not be written again. */
  gboolean  (*cursor_next_kept) (TtvCursor *cursor, TtvEvent *event, GError **error);
  /* Positions the cursor so that the next event is the first at or after @time. */
  gboolean  (*cursor_seek_time) (TtvCursor *cursor, TtvTime time, GError **error);
  /* Positions the cursor so that the next event is the one at @pos. */
  gboolean  (*cursor_seek_position) (TtvCursor *cursor, const TtvTracefilePosition *pos, GError **error);
  /* Decodes the event's payload (and contexts) into @decoder; returns the
   * root node (a struct of named members), or -1 with @error. */
  gint32    (*decode_fields) (const TtvEvent *event, TtvDecoder *decoder, GError **error);
  /* Optional (NULL: the trace never grows).  Picks up data appended since
   * open (a trace still being written): new complete blocks or packets,
   * new tracefiles (appended to trace->tracefiles).  Sets *changed when
   * anything was added.  Only called when no cursor of the trace exists. */
  gboolean  (*refresh)      (TtvTrace *trace, gboolean *changed, GError **error);
  /* Optional: when block @block (in cursor order) begins, so that the last
   * event can be found by reading the last blocks only (TTV_TIME_MIN:
   * unknown).  NULL: the packet bounds stand for the first and last events. */
  TtvTime   (*block_start)  (const TtvTracefile *tracefile, guint64 block);
  /* Optional (NULL: damage ends the tracefile).  After cursor_next or
   * cursor_seek_time failed with TTV_FORMAT_ERROR_CORRUPT: the next event
   * is the first of the following block or packet. */
  gboolean  (*cursor_skip_block) (TtvCursor *cursor, GError **error);
  /* Optional (NULL: the trace cannot say).  The time of count @cycles of
   * the trace's cycle counter, through the reader's own cycle/time anchors
   * (what its cursors compute for an event with those cycles). */
  gboolean  (*cycles_to_time) (const TtvTrace *trace, guint64 cycles, TtvTime *time);
  /* Optional (NULL: events carry no contexts).  Decodes the event's
   * context scopes into @scopes (a struct node each, -1 for a scope the
   * trace lacks) and its payload, whose node it returns (-1 with @error),
   * into @decoder, which it resets first. */
  gint32    (*decode_contexts) (const TtvEvent *event, TtvDecoder *decoder,
                                gint32 scopes[TTV_EVENT_N_CONTEXTS], GError **error);
  /* Optional (NULL: none), with decode_contexts: its usual way, for the
   * events it knows how to decode without looking further: the same
   * nodes, or -1 without a message when that way does not apply or
   * fails (decode_contexts then decodes the event and reports what is
   * wrong).  No GError and no event kept after the decoder's call, so
   * that this call can be the reader's last: no frame around it. */
  gint32    (*decode_contexts_quick) (const TtvEvent *event, TtvDecoder *decoder,
                                      gint32 scopes[TTV_EVENT_N_CONTEXTS]);
  /* Optional (NULL: none): what the tracer says of @type besides its
   * fields (see TtvEventTypeAttributes). */
  void      (*get_event_type_attributes) (const TtvTrace *trace, const TtvEventType *type,
                                          TtvEventTypeAttributes *attributes);
  /* Optional: whether events of @type carry a context member @name. */
  gboolean  (*event_type_has_context) (const TtvTrace *trace, const TtvEventType *type,
                                       const char *name);
  /* Optional: appends the line `babeltrace2 --clock-gmt` prints for @event
   * (see ttv_event_append_babeltrace_line). */
  void      (*append_babeltrace_line) (GString *out, const TtvEvent *event, TtvTime previous_time,
                                       TtvDecoder *decoder);
  /* Optional (NULL: the caller decodes): appends the fields and contexts
   * of @event as ttv-report's jsonl line writes them (see
   * ttv_event_append_jsonl_scopes). */
  gboolean  (*append_jsonl_scopes) (GString *out, const TtvEvent *event, TtvDecoder *decoder);
  /* Optional: appends the warning babeltrace2 prints on stderr for @lost
   * of @tracefile (see ttv_tracefile_append_babeltrace_lost). */
  void      (*append_babeltrace_lost) (GString *out, const TtvTracefile *tracefile,
                                       const TtvLostRange *lost);
  /* Optional (NULL: none): the processes and interrupts the trace recorded
   * at its start, of TtvTraceProcess / TtvTraceInterrupt, borrowed. */
  const GArray *(*get_processes)  (const TtvTrace *trace);
  const GArray *(*get_interrupts) (const TtvTrace *trace);
};

/* --- Opening ------------------------------------------------------------ */

/* The trace directory that holds the directory @dir when @dir is not a
 * trace itself (an LTTng trace's index/, an LTT trace's cpu/), else NULL:
 * what a user who picked @dir meant to open. */
char       *ttv_trace_dup_enclosing (const char *dir);
/* Opens a trace directory or archive with the best reader. */
TtvTrace   *ttv_trace_open (const char *path, GError **error);
/* The same; extracting an archive (the long part of opening one) stops with
 * G_IO_ERROR_CANCELLED when @cancellable is cancelled and reports its
 * progress through @progress (may be NULL; see ttv_archive_extract_full). */
TtvTrace   *ttv_trace_open_full (const char *path, GCancellable *cancellable,
                                 void (*progress) (guint64 done, guint64 total, gpointer data),
                                 gpointer progress_data, GError **error);
/* Opens the trace directory @path, which a tracer or a live session is
 * still writing (TTV_TRACE_FLAG_GROWING, for the reader's open): a partly
 * written end waits for ttv_trace_refresh. */
TtvTrace   *ttv_trace_open_growing (const char *path, GError **error);
void        ttv_trace_close (TtvTrace *trace);
/* Opens the directories @paths (@n of them, of one format with the same
 * identity()) as one trace: trace->path is the first, the others
 * trace->more_paths.  One path: ttv_trace_open. */
TtvTrace   *ttv_trace_open_group (const char *const *paths, guint n, GError **error);
/* Called by readers from their open(). */
TtvTracefile *ttv_trace_add_tracefile (TtvTrace *trace, const char *name, gint cpu);
TtvEventType *ttv_trace_add_event_type (TtvTrace *trace, const char *facility, const char *name,
                                        TtvType *fields /* transfer full, may be NULL */);
void        ttv_trace_set_info (TtvTrace *trace, const char *key, const char *value);
const char *ttv_trace_get_info (const TtvTrace *trace, const char *key);
void        ttv_trace_add_warning (TtvTrace *trace, const char *format, ...) G_GNUC_PRINTF (2, 3);
/* The same for a partly written last block or packet (also in tail_warnings). */
void        ttv_trace_add_tail_warning (TtvTrace *trace, const char *format, ...) G_GNUC_PRINTF (2, 3);
/* Damage found while opening that drops or skips events: a file or the
 * rest of a stream that will not be read (also in damage_warnings).  Such
 * a trace is not whole: ttv-report exits non-zero and the viewer says so. */
void        ttv_trace_add_damage_warning (TtvTrace *trace, const char *format, ...) G_GNUC_PRINTF (2, 3);
/* The same for a partly written last block or packet whose events are
 * dropped, or a tracefile that the trace says exists and is not there
 * (in tail_warnings and damage_warnings: not damage while the trace is
 * still being written). */
void        ttv_trace_add_tail_damage_warning (TtvTrace *trace, const char *format, ...) G_GNUC_PRINTF (2, 3);
/* Whether warning @warning (an element of trace->warnings) is in
 * tail_warnings / damage_warnings. */
gboolean    ttv_trace_warning_is_tail (const TtvTrace *trace, const char *warning);
gboolean    ttv_trace_warning_loses_events (const TtvTrace *trace, const char *warning);
/* Re-reads what a live trace appended (TtvFormatClass.refresh) and updates
 * the trace's start and end; *changed tells whether anything was added.
 * No cursor of the trace may exist during the call. */
gboolean    ttv_trace_refresh (TtvTrace *trace, gboolean *changed, GError **error);
/* The time of cycle count @cycles (seed 000's cycle= bookmarks): FALSE
 * when the trace's format has no cycle counter to convert. */
gboolean    ttv_trace_cycles_to_time (const TtvTrace *trace, guint64 cycles, TtvTime *time);
/* The system state the trace recorded at its start (TtvFormatClass
 * get_processes / get_interrupts): of TtvTraceProcess / TtvTraceInterrupt,
 * borrowed, NULL when the trace's format records none. */
const GArray *ttv_trace_get_processes (const TtvTrace *trace);
const GArray *ttv_trace_get_interrupts (const TtvTrace *trace);
/* Whether the trace's events carry context scopes (ttv_event_decode_contexts). */
gboolean    ttv_trace_has_event_contexts (const TtvTrace *trace);
/* Whether events of @type carry a context member @name (filters'
 * event.context.NAME); FALSE when the format has no contexts. */
gboolean    ttv_event_type_has_context (const TtvTrace *trace, const TtvEventType *type, const char *name);
/* The log level and EMF URI of events of @type (-1 and NULL when the trace
 * gives none). */
void        ttv_event_type_get_attributes (const TtvTrace *trace, const TtvEventType *type,
                                           TtvEventTypeAttributes *attributes);
/* Log level @level as LTTng names it, with its number:
 * "TRACE_DEBUG_LINE (13)"; the number alone outside 0..14. */
char       *ttv_log_level_dup_text (gint level);
/* Sets the correction of the trace's clock (NULL: none) and its span in
 * corrected time.  No context may be reading the trace. */
void        ttv_trace_set_clock_correction (TtvTrace *trace, const TtvClockCorrection *correction);
/* First event type with this full name or plain name, or NULL. */
const TtvEventType *ttv_trace_find_event_type (const TtvTrace *trace, const char *name);

/* The registered readers, in probe order. */
const TtvFormatClass * const *ttv_formats_list (void);
const TtvFormatClass *ttv_format_find (const char *name);

/* --- Reading one tracefile --------------------------------------------- */

TtvCursor  *ttv_cursor_new (TtvTracefile *tracefile, GError **error);
/* The same, for reading few events (see TtvFormatClass.cursor_new_few):
 * opening a trace reads its tracefiles' first and last events so. */
TtvCursor  *ttv_cursor_new_few (TtvTracefile *tracefile, GError **error);
void        ttv_cursor_free (TtvCursor *cursor);
gboolean    ttv_cursor_next (TtvCursor *cursor, TtvEvent *event, GError **error);
gboolean    ttv_cursor_seek_time (TtvCursor *cursor, TtvTime time, GError **error);
gboolean    ttv_cursor_seek_position (TtvCursor *cursor, const TtvTracefilePosition *pos, GError **error);
TtvTracefile *ttv_cursor_get_tracefile (TtvCursor *cursor);

/* Every reader's cursor struct starts with this header. */
struct _TtvCursor {
  TtvTracefile *tracefile;        /* weak */
};

gint32      ttv_event_decode_fields (const TtvEvent *event, TtvDecoder *decoder, GError **error);
/* ttv_event_decode_contexts without the format's quick way: the format's
 * decode_contexts, which reports errors. */
gint32      ttv_event_decode_contexts_slow (const TtvEvent *event, TtvDecoder *decoder,
                                            gint32 scopes[TTV_EVENT_N_CONTEXTS], GError **error);
/* Decodes the event's context scopes (each -1 when absent, all -1 when the
 * format has none) and its payload, whose node it returns (-1 with @error)
 * into @decoder, reset here (what it held before is gone).  Inline: the
 * format's quick way first, in the caller's own frame, which keeps @event
 * for the slow way when the quick one returns -1. */
static inline gint32
ttv_event_decode_contexts (const TtvEvent *event, TtvDecoder *decoder,
                           gint32 scopes[TTV_EVENT_N_CONTEXTS], GError **error)
{
  gint32 (*quick) (const TtvEvent *, TtvDecoder *, gint32 *) = event->tracefile->trace->format->decode_contexts_quick;
  if (G_LIKELY (quick != NULL))
    {
      gint32 r = quick (event, decoder, scopes);
      if (G_LIKELY (r >= 0))
        return r;
    }
  return ttv_event_decode_contexts_slow (event, decoder, scopes, error);
}
/* Appends the line `babeltrace2 --clock-gmt` prints for @event, with its
 * newline ("[HH:MM:SS.nnnnnnnnn] (+S.nnnnnnnnn) host name: { ... }");
 * @previous_time is the time of the line before (TTV_TIME_MIN for the
 * first); @decoder is reset and reused.  FALSE, appending nothing, when
 * the event's format has no babeltrace2 form. */
gboolean    ttv_event_append_babeltrace_line (GString *out, const TtvEvent *event,
                                              TtvTime previous_time, TtvDecoder *decoder);
/* Appends what ttv-report's jsonl line says of @event's fields and
 * contexts, ",\"fields\":{...}" and, when any shows,
 * ",\"contexts\":{\"packet\":{...},...}", written straight from the
 * event's bytes (@decoder is reset and reused).  FALSE, appending nothing,
 * when its format cannot or the bytes are too few: the caller then decodes
 * the event, which says why. */
gboolean    ttv_event_append_jsonl_scopes (GString *out, const TtvEvent *event, TtvDecoder *decoder);
/* Appends the warning `babeltrace2` prints on stderr for the events or
 * packets @lost in @tracefile ("WARNING: Tracer discarded 3 events between
 * [...] and [...] in trace ..."), with its newline; FALSE, appending
 * nothing, when the tracefile's format has no babeltrace2 form. */
gboolean    ttv_tracefile_append_babeltrace_lost (GString *out, const TtvTracefile *tracefile,
                                                  const TtvLostRange *lost);
int         ttv_tracefile_position_compare (const TtvTracefilePosition *a, const TtvTracefilePosition *b);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvTrace, ttv_trace_close)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvCursor, ttv_cursor_free)

G_END_DECLS
