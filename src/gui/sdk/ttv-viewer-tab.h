/* ttv-viewer-tab.h: the tab's view model as viewer modules see it: the
 * traces, time window, current time, selection, filter and bookmarks, the
 * signals announcing their changes, and times shown as the user chose.
 * Part of the installed SDK: include ttv-viewer.h, not this file. */
#pragma once

#include "ttv-viewer-types.h"

G_BEGIN_DECLS

/* --- Signals ------------------------------------------------------------------
 * All without arguments, emitted on the main thread after the value changed:
 *
 *   "traceset-changed"     a trace was added (or the traceset replaced): the
 *                          traces, the span and the time window changed, and
 *                          every result of the background passes is gone
 *                          until announced again by the three below;
 *   "time-window-changed", "current-time-changed", "selection-changed",
 *   "bookmarks-changed";
 *   "filter-changed"       also emitted again once the state is ready when
 *                          the filter reads state.* (false until then);
 *   "filter-count-changed" the count of the events matching the filter
 *                          went on, is done, or starts again
 *                          (ttv_tab_state_get_filter_count());
 *   "time-format-changed"  the user chose another way of showing times;
 *
 * and one per result of the tab's background passes, which run in order
 * after a trace opens (and again after the traceset changed):
 *
 *   "density-ready"        the first read is done: the event count is
 *                          complete and the density answers
 *                          (ttv-viewer-analysis.h);
 *   "state-ready"          the state pass is done: the system state (process
 *                          queries, TTV_REQUEST_WITH_STATE) and the
 *                          statistics of the whole traceset, which the same
 *                          pass computes;
 *   "history-changed"      ttv_tab_state_dup_history() gives another history:
 *                          the one just built, or none (NULL) after the
 *                          traceset changed;
 *   "kernel-ready"         a kernel analysis a viewer asked for is there, or
 *                          they were dropped after the traceset changed
 *                          (ttv-viewer-kernel.h);
 *   "userspace-ready"      a userspace analysis asked for is there, or they
 *                          were dropped after the traceset changed
 *                          (ttv-viewer-userspace.h);
 *
 * and "selected-thread-changed" (see below). */

/* --- Traces and times --------------------------------------------------------- */

guint       ttv_tab_state_get_n_traces (TtvTabState *state);
/* Borrowed: valid until "traceset-changed" (see ttv-viewer-event.h). */
TtvViewerTrace *ttv_tab_state_get_trace (TtvTabState *state, guint index);
/* The machine @trace (one of the tab's) records (docs/multi-machine.md; 0
 * with one machine): what a tid or CPU of its events belongs to. */
guint       ttv_tab_state_get_trace_machine (TtvTabState *state, const TtvViewerTrace *trace);
/* The tab's machines (at least 1) and their names (a host name, else the
 * first trace's name; NULL past the last), since SDK 15: what a view
 * names a thread's or a process's machine with when there are several. */
guint       ttv_tab_state_get_n_machines (TtvTabState *state);
const char *ttv_tab_state_get_machine_name (TtvTabState *state, guint machine);
/* The whole traceset's span (its first to its last event). */
void        ttv_tab_state_get_time_span (TtvTabState *state, TtvTime *start, TtvTime *end);
void        ttv_tab_state_get_time_window (TtvTabState *state, TtvTime *start, TtvTime *end);
TtvTime     ttv_tab_state_get_current_time (TtvTabState *state);
/* FALSE when nothing is selected. */
gboolean    ttv_tab_state_get_selection (TtvTabState *state, TtvTime *start, TtvTime *end);

/* Setters clamp to the traceset span and emit the matching signal when the
 * value changes.  A current time set outside the time window moves the
 * window (centred on it, as wide; "time-window-changed" follows
 * "current-time-changed"). */
void        ttv_tab_state_set_time_window (TtvTabState *state, TtvTime start, TtvTime end);
void        ttv_tab_state_set_current_time (TtvTabState *state, TtvTime time);
void        ttv_tab_state_set_selection (TtvTabState *state, TtvTime start, TtvTime end);
void        ttv_tab_state_clear_selection (TtvTabState *state);

/* --- The selected thread ---------------------------------------------------------
 * The thread the user picked last: a row of the control flow, a point or
 * line of a latency view, a thread of the CPU usage.  Views that tell one
 * thread's story (the critical path) follow it, others highlight it;
 * "selected-thread-changed" tells when it or its machine changes.  It
 * stays when the traceset changes (a tid means the same thread in a
 * longer live trace).  With several machines (docs/multi-machine.md) a tid
 * is a thread of one machine: the selection is the pair. */
guint32     ttv_tab_state_get_selected_thread (TtvTabState *state);   /* TTV_VIEWER_PID_NONE: none */
/* The machine of the selected thread (0 with one machine). */
guint       ttv_tab_state_get_selected_machine (TtvTabState *state);
/* Selects @tid of @machine. */
void        ttv_tab_state_select_thread_on (TtvTabState *state, guint machine, guint32 tid);
/* Selects @tid of the machine selected last: for views whose records do
 * not say their machine. */
void        ttv_tab_state_set_selected_thread (TtvTabState *state, guint32 tid);

/* --- Lost events ---------------------------------------------------------------
 * Ranges of events the tracer lost (CTF events_discarded, LTT and LTTng lost
 * blocks), of every stream of every trace. */
typedef struct {
  TtvTime start;
  TtvTime end;                 /* the first time known again */
  guint64 count;               /* events lost; 0 when unknown */
  guint64 packets;             /* whole packets lost (CTF packet sequence numbers missing) */
  guint trace;                 /* index of the trace in the tab */
  guint stream;                /* index of the stream in its trace */
} TtvViewerLostEvents;

/* The ranges that meet [@t0, @t1], sorted by start; of TtvViewerLostEvents,
 * transfer full, never NULL. */
GArray     *ttv_tab_state_dup_lost_events (TtvTabState *state, TtvTime t0, TtvTime t1);

/* --- The filter -------------------------------------------------------------------
 * An expression of the filter language (docs/filters.md); a bare word such
 * as `sched` stands for `event.name = "*sched*"`; "" for none. */
const char *ttv_tab_state_get_filter (TtvTabState *state);
/* FALSE with @error (its message names the column) when @filter
 * does not parse: the filter is then unchanged.  NULL or "": none. */
gboolean    ttv_tab_state_set_filter (TtvTabState *state, const char *filter, GError **error);
/* The events of the whole traceset that match the filter, counted in the
 * background after each change ("filter-count-changed" as it goes): how
 * many so far; *@complete (may be NULL) whether the count is done.  0 and
 * complete without a filter. */
guint64     ttv_tab_state_get_filter_count (TtvTabState *state, gboolean *complete);
/* Whether the filter reads state.* (then it is exact only once the state is
 * ready; "filter-changed" is emitted again then). */
gboolean    ttv_tab_state_filter_needs_state (TtvTabState *state);
/* Whether @event matches the tab's filter (TRUE when none).  @request (may
 * be NULL) is the request delivering @event: its state answers state.*
 * terms; without one they are false. */
gboolean    ttv_tab_state_event_matches_filter (TtvTabState *state, TtvEventRequest *request,
                                                const TtvViewerEvent *event);

/* --- Bookmarks -----------------------------------------------------------------
 * The user's annotations (seed 000 info/bookmarks.xml); the tab keeps them
 * sorted by start and saves them. */
typedef struct {
  char *name;          /* owned, never NULL */
  char *text;          /* owned, never NULL */
  gint cpu;            /* -1: none */
  TtvTime start;
  TtvTime end;         /* == start for a point in time */
  guint trace_index;   /* the trace of the tab it belongs to */
  /* Hand-written cycle= bookmarks keep their cycles; start and end are
   * their times through the trace's clock (the trace start when the
   * format has no cycle counter, as CTF). */
  gboolean has_cycles;
  guint64 start_cycle, end_cycle;
} TtvViewerBookmark;

/* Of TtvViewerBookmark *, borrowed, sorted by start time. */
GPtrArray  *ttv_tab_state_get_bookmarks (TtvTabState *state);

/* --- Showing times -------------------------------------------------------------
 * Every time a viewer shows goes through these, so that the user's choice
 * (the "time-format" setting) applies to every view alike: relative to the
 * traceset's start ("+0.000001100", the default), seconds since the epoch
 * ("1700000000.000001100"), or the time of day in UTC ("22:13:20.000001100Z")
 * or the local zone ("23:13:20.000001100").  "time-format-changed" tells when
 * the choice changes. */

/* @time as the user chose, to the nanosecond; caller frees. */
char       *ttv_tab_state_format_time (TtvTabState *state, TtvTime time);
/* Whether a time written in any of these formats can hold @needle
 * (ignoring ASCII case): for a search to skip the times when it cannot. */
gboolean    ttv_time_display_may_contain (const char *needle);
/* "SSSS.NNNNNNNNN" whatever the user's format (for logs and files); caller frees. */
char       *ttv_viewer_time_to_string (TtvTime time);
/* A duration with its unit, four significant digits ("12.35 µs", "1.000
 * ms"), as every view writes lengths; caller frees. */
char       *ttv_viewer_format_duration (TtvTime duration);
/* A time ruler in the user's format, as the time bar draws it: the round
 * step >= @min_step (1-2-5 below a minute, clock steps above), the first
 * tick at or after @start (ticks fall on multiples of the step from the
 * traceset's start in the relative format, from the epoch or midnight in
 * the others) and a tick's label, as short as the step allows ("+0.25 s",
 * "+90 min", "10:13:20.25Z", "22:15"; caller frees).  @origin is the
 * traceset's start (ttv_tab_state_get_time_span()). */
TtvTime     ttv_viewer_tick_step (TtvTime min_step);
TtvTime     ttv_viewer_first_tick (TtvTime start, TtvTime step, TtvTime origin);
char       *ttv_viewer_format_tick (TtvTime tick, TtvTime step, TtvTime origin);
/* For a viewer's own menus: a section choosing the format, its items using
 * the action "@prefix.time-format", and that action (stateful, a string;
 * it writes the setting) to add to the viewer's "@prefix" action group.
 * The action is NULL when the settings schema is not installed. */
GMenuModel *ttv_viewer_time_format_menu_new (const char *prefix);
GAction    *ttv_viewer_time_format_action_new (void);

G_END_DECLS
