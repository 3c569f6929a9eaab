/* ttv-viewer-event.h: traces, their streams and event types, events and
 * their fields, positions in the merged traceset, and filter expressions,
 * as viewer modules reach them: through accessors, never through the
 * host's structures.  Part of the installed SDK: include ttv-viewer.h. */
#pragma once

#include "ttv-viewer-types.h"

G_BEGIN_DECLS

/* --- Traces --------------------------------------------------------------------
 * One trace of the tab (ttv_tab_state_get_trace()), valid until
 * "traceset-changed".  A trace has streams (one per CPU, or per channel)
 * and event types, both numbered from 0. */

/* Its name for display ("sample-trace", "kernel"). */
const char *ttv_viewer_trace_get_name (const TtvViewerTrace *trace);
/* What the user opened (the directory, or the .tar.gz). */
const char *ttv_viewer_trace_get_path (const TtvViewerTrace *trace);
/* Its first and last events' times. */
void        ttv_viewer_trace_get_time_span (const TtvViewerTrace *trace, TtvTime *start, TtvTime *end);
/* A value describing the traced system ("hostname", "kernel_release", the
 * CTF environment, LTT's system.xml attributes), or NULL. */
const char *ttv_viewer_trace_get_info (const TtvViewerTrace *trace, const char *key);

guint       ttv_viewer_trace_get_n_streams (const TtvViewerTrace *trace);
/* "cpu/0", "channel0_1". */
const char *ttv_viewer_trace_get_stream_name (const TtvViewerTrace *trace, guint stream);
/* The CPU whose events the stream holds, -1 when it is not per CPU. */
gint        ttv_viewer_trace_get_stream_cpu (const TtvViewerTrace *trace, guint stream);

guint       ttv_viewer_trace_get_n_event_types (const TtvViewerTrace *trace);
/* What users read and type: "core.syscall_entry" (LTT), "sched_switch"
 * (CTF); NULL for a number the trace does not use. */
const char *ttv_viewer_trace_get_event_type_name (const TtvViewerTrace *trace, guint type);
/* The names of its payload fields, in order; transfer full, never NULL. */
GStrv       ttv_viewer_trace_dup_event_type_fields (const TtvViewerTrace *trace, guint type);
/* The log level of events of @type as LTTng names it, with its number
 * ("TRACE_DEBUG_LINE (13)"), or NULL when the trace gives none (CTF's
 * loglevel, LTTng-UST tracepoints); caller frees. */
char       *ttv_viewer_trace_dup_event_type_log_level (const TtvViewerTrace *trace, guint type);
/* Their EMF URI (an LTTng-UST tracepoint's model), or NULL; borrowed, the
 * trace's. */
const char *ttv_viewer_trace_get_event_type_emf_uri (const TtvViewerTrace *trace, guint type);
/* Whether events of @type carry the context member @name ("ip", "vtid":
 * CTF's contexts, what event.context.NAME filters read); FALSE when the
 * format has none.  @type G_MAXUINT: any of its event types. */
gboolean    ttv_viewer_trace_has_event_context (const TtvViewerTrace *trace, guint type, const char *name);

/* --- Events ---------------------------------------------------------------------
 * An event delivered to a request's callback (ttv-viewer-request.h): valid
 * only during the call.  Main thread only. */

TtvTime     ttv_viewer_event_get_time (const TtvViewerEvent *event);
/* "facility.event", or the plain name: what ttv_viewer_trace_get_event_type_name() gives. */
const char *ttv_viewer_event_get_name (const TtvViewerEvent *event);
/* Borrowed, the trace's (valid until "traceset-changed"). */
const TtvViewerTrace *ttv_viewer_event_get_trace (const TtvViewerEvent *event);
/* Its stream in its trace, and that stream's CPU (-1: not per CPU). */
guint       ttv_viewer_event_get_stream (const TtvViewerEvent *event);
gint        ttv_viewer_event_get_cpu (const TtvViewerEvent *event);
/* Its event type's number in its trace. */
guint       ttv_viewer_event_get_type_index (const TtvViewerEvent *event);
/* The fields as "name = value, ..." text; caller frees. */
char       *ttv_viewer_event_dup_fields (const TtvViewerEvent *event);
/* The same text appended to @out (no allocation per event: for passes over
 * millions of them, such as Find). */
void        ttv_viewer_event_append_fields (const TtvViewerEvent *event, GString *out);

/* A search for text in the fields: tells, from an event's type, when its
 * fields' text cannot hold the text (no name, label or number of the type
 * has one of its characters, and no string could), so that a search of
 * millions of events formats only those that may. */
typedef struct _TtvViewerFieldsProbe TtvViewerFieldsProbe;
/* @needle is looked for ignoring ASCII case. */
TtvViewerFieldsProbe *ttv_viewer_fields_probe_new (const char *needle);
void        ttv_viewer_fields_probe_free (TtvViewerFieldsProbe *probe);
/* FALSE when the text ttv_viewer_event_append_fields() writes for @event
 * cannot hold the needle; TRUE when it may (then look). */
gboolean    ttv_viewer_fields_probe_may_match (TtvViewerFieldsProbe *probe, const TtvViewerEvent *event);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvViewerFieldsProbe, ttv_viewer_fields_probe_free)
/* One field by name: a payload field, else a member of its context (CTF's
 * stream event context, event context, packet context, in that order:
 * "vtid", "procname").  The integer or enumeration value; FALSE when the
 * event has no such field, it is not an integer, or it cannot be decoded. */
gboolean    ttv_viewer_event_get_field_int (const TtvViewerEvent *event, const char *name,
                                            gint64 *value);
gboolean    ttv_viewer_event_get_field_uint (const TtvViewerEvent *event, const char *name,
                                             guint64 *value);
/* Any field as text: a string's characters, an enumeration's label, a
 * number in decimal, a compound as ttv_viewer_event_dup_fields() writes
 * it; NULL when the event has no such field.  Caller frees. */
char       *ttv_viewer_event_dup_field_text (const TtvViewerEvent *event, const char *name);

/* The contexts an event carries besides its payload (CTF's scopes). */
typedef enum {
  TTV_VIEWER_CONTEXT_STREAM_EVENT,  /* its stream's per-event context: vtid, procname... */
  TTV_VIEWER_CONTEXT_EVENT,         /* its event type's own context */
  TTV_VIEWER_CONTEXT_PACKET,        /* its packet's context: cpu_id, timestamps... */
} TtvViewerEventContext;
/* The members of context @which: name, value text, name, value text...
 * (values as ttv_viewer_event_dup_field_text() gives them); NULL when the
 * event has no such context (LTT formats have none).  Caller frees. */
GStrv       ttv_viewer_event_dup_context (const TtvViewerEvent *event, TtvViewerEventContext which);

/* --- Positions --------------------------------------------------------------------
 * Where the merged traceset reader stands (ttv_event_request_dup_position()):
 * a request from a position makes the event that was next there the next
 * one again. */

TtvViewerPosition *ttv_viewer_position_copy (const TtvViewerPosition *pos);
void        ttv_viewer_position_free (TtvViewerPosition *pos);
/* <0, 0, >0 like strcmp: traceset order. */
int         ttv_viewer_position_compare (const TtvViewerPosition *a, const TtvViewerPosition *b);
TtvTime     ttv_viewer_position_get_time (const TtvViewerPosition *pos);

/* --- Filter expressions -------------------------------------------------------------
 * For a viewer's own searches (the event list's Find by expression): the
 * same language and bare-word rule as the tab's filter. */

/* NULL with @error (its message names the column) when @text does
 * not parse or is empty. */
TtvViewerFilter *ttv_viewer_filter_new (const char *text, GError **error);
void        ttv_viewer_filter_free (TtvViewerFilter *filter);
const char *ttv_viewer_filter_get_text (const TtvViewerFilter *filter);
/* Whether it reads state.*: ask for TTV_REQUEST_WITH_STATE then. */
gboolean    ttv_viewer_filter_needs_state (const TtvViewerFilter *filter);
/* @request (may be NULL) is the request delivering @event: its state, if
 * it has one, answers state.* terms.  Main thread only. */
gboolean    ttv_viewer_filter_matches (TtvViewerFilter *filter, TtvEventRequest *request,
                                       const TtvViewerEvent *event);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvViewerPosition, ttv_viewer_position_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvViewerFilter, ttv_viewer_filter_free)

G_END_DECLS
