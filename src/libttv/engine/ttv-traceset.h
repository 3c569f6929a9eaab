/* ttv-traceset.h: an ordered list of opened traces, read together.
 * The traceset context merges their tracefiles; tabs, the CLI and bench hold one. */
#pragma once

#include "ttv-live-source.h"
#include "ttv-time-gaps.h"
#include "ttv-trace.h"

G_BEGIN_DECLS

typedef struct _TtvTraceset TtvTraceset;

/* Reference counted: a context keeps a reference on its traceset.  Do not
 * add traces while a context on the traceset exists. */
TtvTraceset *ttv_traceset_new (void);
TtvTraceset *ttv_traceset_ref (TtvTraceset *ts);
void        ttv_traceset_unref (TtvTraceset *ts);
/* Appends @trace (transfer full); its index is the previous trace count. */
guint       ttv_traceset_add_trace (TtvTraceset *ts, TtvTrace *trace);
/* Opens @path with the best reader and appends it. */
gboolean    ttv_traceset_add_path (TtvTraceset *ts, const char *path, GError **error);
guint       ttv_traceset_get_n_traces (const TtvTraceset *ts);
TtvTrace   *ttv_traceset_get_trace (const TtvTraceset *ts, guint i);        /* borrowed */
TtvTime     ttv_traceset_get_start (const TtvTraceset *ts);                 /* TTV_TIME_MAX if empty */
TtvTime     ttv_traceset_get_end (const TtvTraceset *ts);                   /* TTV_TIME_MIN if empty */
/* All tracefiles of all traces, numbered in (trace, tracefile) order: the
 * "stream index" the context uses to break timestamp ties. */
guint       ttv_traceset_get_n_tracefiles (const TtvTraceset *ts);
TtvTracefile *ttv_traceset_get_tracefile (const TtvTraceset *ts, guint stream);   /* borrowed */
/* The trace index of stream @stream. */
guint       ttv_traceset_get_stream_trace (const TtvTraceset *ts, guint stream);
/* The stream index of the first tracefile of trace @trace. */
guint       ttv_traceset_get_trace_first_stream (const TtvTraceset *ts, guint trace);
/* Machines (docs/multi-machine.md): each trace records one machine; traces
 * with the same host name, or without one from one LTTng session directory
 * (kernel/ and ust/), record the same machine.  Machines are numbered from
 * 0 in the order of their first trace; an empty traceset has one. */
guint       ttv_traceset_get_n_machines (const TtvTraceset *ts);
guint       ttv_traceset_get_trace_machine (const TtvTraceset *ts, guint trace);
/* Its host name, else the name of its first trace; NULL when out of range. */
const char *ttv_traceset_get_machine_name (const TtvTraceset *ts, guint machine);
/* The same, but NULL when the traceset holds one machine: reports and
 * views name a machine (a column, a member, a prefix) only when there are
 * several, so that one machine's output is what it was before machines. */
const char *ttv_traceset_get_machine_name_if_several (const TtvTraceset *ts, guint machine);
/* The span of @machine's traces (its first event to its last): what its
 * state and its analyses can speak of.  FALSE when it has no event. */
gboolean    ttv_traceset_get_machine_span (const TtvTraceset *ts, guint machine, TtvTime *start, TtvTime *end);
/* Every machine's name, "alpha, beta", each escaped for display
 * (ttv_text_for_display), for messages that name them all. */
char       *ttv_traceset_dup_machine_names (const TtvTraceset *ts);
/* The same numbering for @traces (TtvTrace *): trace_machine[i] gets the
 * machine of trace i; @names (may be NULL) gets each machine's name (newly
 * allocated strings).  Returns the number of machines (at least 1). */
guint       ttv_traces_number_machines (GPtrArray *traces, guint *trace_machine, GPtrArray *names);
/* The long idle gaps of [@t0, @t1] between the spans of the traces
 * (ttv_time_find_idle_gaps(): an old capture beside a new one), in time
 * order, into @gaps; returns how many. */
guint       ttv_traceset_find_idle_gaps (const TtvTraceset *ts, TtvTime t0, TtvTime t1,
                                         TtvTime gaps[TTV_TIME_MAX_IDLE_GAPS][2]);
/* Corrects trace @trace's clock (NULL: no correction): every context made
 * afterwards delivers its events at corrected times, seeks in corrected
 * time, and the traceset's span is in corrected time
 * (docs/multi-machine.md).  No context on @ts may exist during the call. */
void        ttv_traceset_set_clock_correction (TtvTraceset *ts, guint trace, const TtvClockCorrection *correction);
/* The traced system's host name (CTF env hostname, LTT node_name), or NULL. */
const char *ttv_trace_get_host (const TtvTrace *trace);
/* Refreshes every trace (ttv_trace_refresh: a trace still being written)
 * and renumbers the streams when tracefiles appeared (new ones come after
 * the existing ones of their trace).  No context on @ts may exist during the
 * call; positions taken before a change no longer match the shape. */
gboolean    ttv_traceset_refresh (TtvTraceset *ts, gboolean *changed, GError **error);
/* A checksum of the traceset's shape (trace and tracefile counts, tracefile
 * names, block counts and time ranges), stored in positions so that a
 * position saved for another traceset is refused. */
guint32     ttv_traceset_get_shape_hash (const TtvTraceset *ts);

/* --- Live sessions (docs/live.md) ---------------------------------------- */

/* Follows the live LTTng session that @url names
 * (net://RELAY[:PORT]/host/HOSTNAME/SESSION): attaches to it through the
 * relay from its beginning and opens the traces that arrived already; then
 * each ttv_traceset_refresh adds what arrived since, new traces included
 * (after the others).  @ts must be empty.  Waits for the relay's answers
 * (each at most ttv_live_client_get_timeout); @cancellable stops that. */
gboolean    ttv_traceset_add_live (TtvTraceset *ts, const char *url, GCancellable *cancellable, GError **error);
gboolean    ttv_traceset_is_live (const TtvTraceset *ts);
/* As of the last refresh: whether the session goes on, ended, or its relay
 * failed (*error, borrowed, says how); *horizon: no event before it is
 * still to come (TTV_TIME_MAX once the session ended or failed, TTV_TIME_MIN
 * while some stream has told nothing yet). */
TtvLiveSourceState ttv_traceset_get_live_state (const TtvTraceset *ts, TtvTime *horizon, const GError **error);
/* The live session (NULL when @ts is not live) and the URL it was given. */
const TtvLiveSessionInfo *ttv_traceset_get_live_session (const TtvTraceset *ts);
const char *ttv_traceset_get_live_url (const TtvTraceset *ts);
/* Bytes received from the relay, as of the last refresh. */
guint64     ttv_traceset_get_live_received (const TtvTraceset *ts);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvTraceset, ttv_traceset_unref)

G_END_DECLS
