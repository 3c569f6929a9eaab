/* ttv-viewer.h: the plugin API of the ttv viewer, the one public header that
 * viewer modules (modules/NAME) include.  See docs/viewer-module.md. */
#pragma once

#include <gtk/gtk.h>

#include "ttv-palette.h"
#include "ttv-history.h"
#include "ttv-stats-tree.h"
#include "ttv-trace.h"

G_BEGIN_DECLS

/* Bumped whenever this header changes incompatibly; a module built against
 * another version is refused at load time. */
#define TTV_VIEWER_API_VERSION 2

/* --- The tab's shared state ------------------------------------------------
 * One TtvTabState per tab: the traceset, its time window, current time,
 * selected interval, filter and bookmarks.  Every viewer observes it through
 * its signals; viewers never talk to each other.
 *
 * Signals (all without arguments, emitted after the value changed):
 *   "traceset-changed", "time-window-changed", "current-time-changed",
 *   "selection-changed", "filter-changed", "bookmarks-changed",
 *   "statistics-changed" (background work finished a stage: the event count
 *   and density after the first read, then the state and statistics after
 *   the state pass: see ttv_tab_state_is_state_ready()),
 *   "time-format-changed" (the user chose another way of showing times:
 *   see "Showing times" below). */
#define TTV_TYPE_TAB_STATE (ttv_tab_state_get_type ())
G_DECLARE_FINAL_TYPE (TtvTabState, ttv_tab_state, TTV, TAB_STATE, GObject)

/* A viewer's request for events (see "Event requests" below). */
typedef struct _TtvEventRequest TtvEventRequest;

/* One user annotation (seed 000 info/bookmarks.xml). */
typedef struct {
  char *name;          /* owned, never NULL */
  char *text;          /* owned, never NULL */
  gint cpu;            /* -1: none */
  TtvTime start;
  TtvTime end;         /* == start for a point in time */
  guint trace_index;   /* the trace of the traceset it belongs to */
  /* Hand-written cycle= bookmarks keep their cycles; start and end are
   * their times through the trace's clock (the trace start when the
   * format has no cycle counter, as CTF). */
  gboolean has_cycles;
  guint64 start_cycle, end_cycle;
} TtvViewerBookmark;

guint       ttv_tab_state_get_n_traces (TtvTabState *state);
TtvTrace   *ttv_tab_state_get_trace (TtvTabState *state, guint index);   /* borrowed */
/* The whole traceset's span. */
void        ttv_tab_state_get_time_span (TtvTabState *state, TtvTime *start, TtvTime *end);
void        ttv_tab_state_get_time_window (TtvTabState *state, TtvTime *start, TtvTime *end);
TtvTime     ttv_tab_state_get_current_time (TtvTabState *state);
/* FALSE when nothing is selected. */
gboolean    ttv_tab_state_get_selection (TtvTabState *state, TtvTime *start, TtvTime *end);
const char *ttv_tab_state_get_filter (TtvTabState *state);
/* Of TtvViewerBookmark *, borrowed, sorted by start time. */
GPtrArray  *ttv_tab_state_get_bookmarks (TtvTabState *state);
/* Events counted by background indexing so far (0 while unknown). */
guint64     ttv_tab_state_get_event_count (TtvTabState *state, gboolean *complete);

/* Setters clamp to the traceset span and emit the matching signal when the
 * value changes. */
void        ttv_tab_state_set_time_window (TtvTabState *state, TtvTime start, TtvTime end);
void        ttv_tab_state_set_current_time (TtvTabState *state, TtvTime time);
void        ttv_tab_state_set_selection (TtvTabState *state, TtvTime start, TtvTime end);
void        ttv_tab_state_clear_selection (TtvTabState *state);
/* The tab's filter: an expression of the filter language (docs/filters.md;
 * a bare word such as `sched` stands for `event.name = "*sched*"`), "" or
 * NULL for none.  FALSE with @error (TTV_FILTER_ERROR, naming the column)
 * when it does not parse: the filter is then unchanged. */
gboolean    ttv_tab_state_set_filter (TtvTabState *state, const char *filter, GError **error);
/* Whether the filter reads state.* (then it is exact only once
 * ttv_tab_state_is_state_ready(); "filter-changed" is emitted again then). */
gboolean    ttv_tab_state_filter_needs_state (TtvTabState *state);
/* Whether @event matches the tab's filter (TRUE when none).  @request (may
 * be NULL) is the request delivering @event: its state answers state.*
 * terms; without one they are false. */
gboolean    ttv_tab_state_event_matches_filter (TtvTabState *state, TtvEventRequest *request,
                                                const TtvEvent *event);

/* --- Positions -------------------------------------------------------------
 * Where the merged traceset reader stands: seeking back to a position makes
 * the event that was next there the next one again. */
typedef struct _TtvViewerPosition TtvViewerPosition;

TtvViewerPosition *ttv_viewer_position_copy (const TtvViewerPosition *pos);
void        ttv_viewer_position_free (TtvViewerPosition *pos);
/* <0, 0, >0 like strcmp: traceset order. */
int         ttv_viewer_position_compare (const TtvViewerPosition *a, const TtvViewerPosition *b);
TtvTime     ttv_viewer_position_get_time (const TtvViewerPosition *pos);

/* --- Event requests --------------------------------------------------------
 * A viewer asks the tab for events; the tab serves them in chunks from an
 * idle handler on the main loop, so the window stays responsive. */
typedef enum {
  TTV_REQUEST_DEFAULT = 0,
  /* A new request from the same owner cancels its older ones. */
  TTV_REQUEST_REPLACE = 1 << 0,
  /* Cancelled when the time window / current time / filter changes. */
  TTV_REQUEST_STALE_ON_TIME_WINDOW = 1 << 1,
  TTV_REQUEST_STALE_ON_CURRENT_TIME = 1 << 2,
  TTV_REQUEST_STALE_ON_FILTER = 1 << 3,
  /* Deliver only events that match the tab's filter (when it reads
   * state.*, the request tracks the state as with TTV_REQUEST_WITH_STATE). */
  TTV_REQUEST_FILTERED = 1 << 4,
  /* Track the system state along the delivered events, so that
   * ttv_event_request_get_process() answers in the event callback.  Costs
   * a replay from the nearest checkpoint when the request starts; has no
   * effect until ttv_tab_state_is_state_ready(). */
  TTV_REQUEST_WITH_STATE = 1 << 5,
} TtvRequestFlags;

typedef enum {
  TTV_REQUEST_COMPLETED,    /* the end criterion was reached, or the traceset ended */
  TTV_REQUEST_STOPPED,      /* the event callback returned FALSE */
  TTV_REQUEST_CANCELLED,    /* cancelled by its owner, made stale, or the tab closed */
  TTV_REQUEST_FAILED,       /* a trace failed to read: see the error */
} TtvRequestStatus;

/* Called once per event; the event is valid only during the call.  Return
 * FALSE to stop the request. */
typedef gboolean (*TtvEventFunc) (TtvEventRequest *request, const TtvEvent *event,
                                  gpointer user_data);
/* Called exactly once per request, last; @error is set for FAILED only. */
typedef void (*TtvRequestDoneFunc) (TtvEventRequest *request, TtvRequestStatus status,
                                    const GError *error, gpointer user_data);

/* Events with start <= time <= end, at most @max_events (0: no limit). */
TtvEventRequest *ttv_tab_state_request_time_range (TtvTabState *state, gpointer owner,
                                                   TtvTime start, TtvTime end,
                                                   guint64 max_events, TtvRequestFlags flags,
                                                   TtvEventFunc event_func,
                                                   TtvRequestDoneFunc done_func,
                                                   gpointer user_data, GDestroyNotify destroy);
/* @n_events events (0: up to the end) from @pos, or from the traceset's
 * start when @pos is NULL. */
TtvEventRequest *ttv_tab_state_request_from_position (TtvTabState *state, gpointer owner,
                                                      const TtvViewerPosition *pos,
                                                      guint64 n_events, TtvRequestFlags flags,
                                                      TtvEventFunc event_func,
                                                      TtvRequestDoneFunc done_func,
                                                      gpointer user_data, GDestroyNotify destroy);
/* From an event callback: the position of the event being delivered. */
TtvViewerPosition *ttv_event_request_dup_position (TtvEventRequest *request);
/* The done callback runs (with CANCELLED) before this returns, unless the
 * request is delivering an event right now, in which case it stops after it. */
void        ttv_event_request_cancel (TtvEventRequest *request);

/* --- System state ------------------------------------------------------------
 * Computed by the tab's background state pass (checkpoints of the kernel
 * state); available once ttv_tab_state_is_state_ready() (announced by
 * "statistics-changed").  Main thread only. */
#define TTV_VIEWER_PID_NONE G_MAXUINT32

typedef struct {
  guint32 pid;               /* thread id; TTV_VIEWER_PID_NONE when unknown */
  guint32 tgid;
  const char *name;          /* static (interned), "" when unnamed */
  const char *mode;          /* static: "user", "syscall", "trap", "irq", "softirq", "unknown" */
  const char *syscall;       /* static: the syscall the task is in, or, on a syscall's exit
                              * event, the call it ends (@mode is then the one after the
                              * exit); NULL when neither */
} TtvViewerProcessInfo;

gboolean    ttv_tab_state_is_state_ready (TtvTabState *state);
/* From an event callback of a TTV_REQUEST_WITH_STATE request: the process
 * running on the event's CPU once the event is applied (what `ttv-report
 * --state` prints).  FALSE (info->pid = TTV_VIEWER_PID_NONE) when unknown. */
gboolean    ttv_event_request_get_process (TtvEventRequest *request, TtvViewerProcessInfo *info);
/* The process running on @cpu after every event whose time is <= @time. */
gboolean    ttv_tab_state_get_process_at (TtvTabState *state, TtvTime time, gint cpu,
                                          TtvViewerProcessInfo *info);

/* --- Statistics --------------------------------------------------------------
 * An immutable tree (safe to read from any thread): per trace, per CPU, per
 * process (events; CPU time per mode as children), per event type, per
 * syscall, IRQ and soft IRQ (count, total/min/max duration). */
/* The nodes are libttv's TtvStatsNode (analysis/ttv-stats-tree.h):
 *   name      "CPU 0", "bash", "read", "user"
 *   key       stable id for tests and CSV: "cpu/0", "process/42/user"
 *   count     events, or calls for syscalls and IRQs; 0: n/a
 *   total     durations in ns (CPU time for processes); -1: n/a
 *   min, max  -1: n/a
 *   children  of TtvViewerStatsNode *, owned; never NULL */
typedef TtvStatsNode TtvViewerStatsNode;

TtvViewerStatsNode *ttv_viewer_stats_node_ref (TtvViewerStatsNode *node);
void        ttv_viewer_stats_node_unref (TtvViewerStatsNode *node);
/* The whole traceset's statistics (borrowed; NULL until the state pass is
 * done; replaced, never changed, when it runs again). */
TtvViewerStatsNode *ttv_tab_state_get_statistics (TtvTabState *state);
/* Statistics of the events with start <= time <= end, computed in a worker
 * thread: from the state at @start once the state pass is done (else by a
 * replay from the start of the traceset). */
void        ttv_tab_state_compute_statistics_async (TtvTabState *state, TtvTime start, TtvTime end,
                                                    GCancellable *cancellable,
                                                    GAsyncReadyCallback callback, gpointer user_data);
/* Transfer full: ttv_viewer_stats_node_unref(). */
TtvViewerStatsNode *ttv_tab_state_compute_statistics_finish (TtvTabState *state, GAsyncResult *result,
                                                             GError **error);

/* --- Event density (from the first read) --------------------------------------
 * Events per bin, bins of equal width over the traceset span.  NULL until
 * the first read finished.  @event_name: NULL for every event, else one
 * "facility.event" name (all traces).  Transfer full (of guint32). */
GArray     *ttv_tab_state_dup_density (TtvTabState *state, const char *event_name);
/* The names ttv_tab_state_dup_density() knows, sorted; transfer full. */
GStrv       ttv_tab_state_dup_density_names (TtvTabState *state);
void        ttv_tab_state_cancel_requests (TtvTabState *state, gpointer owner);
/* Requests queued or running (for tests and progress display). */
guint       ttv_tab_state_get_n_requests (TtvTabState *state);

/* --- State history (the third background stage) -----------------------------
 * Per process, CPU, IRQ, soft IRQ and block device: state intervals, marks
 * and a multi-resolution summary (types from ttv-history.h; these
 * wrappers call libttv, which modules do not link).  NULL until built;
 * "statistics-changed" announces it (and its loss when the traceset
 * changes).  Immutable: queries are safe from any thread while a reference
 * is held. */
typedef struct _TtvViewerHistory TtvViewerHistory;

/* Transfer full (ttv_viewer_history_unref), NULL while not built. */
TtvViewerHistory *ttv_tab_state_dup_history (TtvTabState *state);
TtvViewerHistory *ttv_viewer_history_ref (TtvViewerHistory *history);
void        ttv_viewer_history_unref (TtvViewerHistory *history);
guint       ttv_viewer_history_get_n_rows (TtvViewerHistory *history, TtvHistoryRowKind kind);
const TtvHistoryRowInfo *ttv_viewer_history_get_row (TtvViewerHistory *history,
                                                     TtvHistoryRowKind kind, guint row);
gint        ttv_viewer_history_find_row (TtvViewerHistory *history, TtvHistoryRowKind kind,
                                         guint32 id, gint cpu, TtvTime time);
gboolean    ttv_viewer_history_get_interval_at (TtvViewerHistory *history, TtvHistoryRowKind kind,
                                                guint row, TtvTime time, TtvHistoryInterval *out);
/* Of TtvHistoryInterval; transfer full. */
GArray     *ttv_viewer_history_query_intervals (TtvViewerHistory *history, TtvHistoryRowKind kind,
                                                guint row, TtvTime t0, TtvTime t1);
/* O(@width) at any zoom; see ttv_history_query_pixels(). */
guint64     ttv_viewer_history_query_pixels (TtvViewerHistory *history, TtvHistoryRowKind kind,
                                             guint row, TtvTime t0, TtvTime t1, guint width,
                                             TtvHistoryPixel *out);
/* Of TtvHistoryMark (process rows); transfer full. */
GArray     *ttv_viewer_history_query_marks (TtvViewerHistory *history, guint row, TtvTime t0,
                                            TtvTime t1);
/* The syscall name of a running interval's aux (a GQuark), or NULL. */
const char *ttv_viewer_history_get_syscall_name (guint32 aux);

/* --- Filter expressions -------------------------------------------------------
 * For a viewer's own searches (the event list's Find by expression): the
 * same language and bare-word rule as the tab's filter. */
typedef struct _TtvViewerFilter TtvViewerFilter;

/* NULL with @error (TTV_FILTER_ERROR, naming the column) when @text does
 * not parse or is empty. */
TtvViewerFilter *ttv_viewer_filter_new (const char *text, GError **error);
void        ttv_viewer_filter_free (TtvViewerFilter *filter);
const char *ttv_viewer_filter_get_text (const TtvViewerFilter *filter);
/* Whether it reads state.*: ask for TTV_REQUEST_WITH_STATE then. */
gboolean    ttv_viewer_filter_needs_state (const TtvViewerFilter *filter);
/* @request (may be NULL) is the request delivering @event: its state, if
 * it has one, answers state.* terms.  Main thread only. */
gboolean    ttv_viewer_filter_matches (TtvViewerFilter *filter, TtvEventRequest *request,
                                       const TtvEvent *event);

/* --- Showing times ----------------------------------------------------------
 * Every time a viewer shows or reads goes through these, so that the user's
 * choice (the "time-format" setting) applies to every view alike: relative
 * to the traceset's start ("+0.000001100", the default), seconds since the
 * epoch ("1700000000.000001100"), or the time of day in UTC
 * ("22:13:20.000001100Z") or the local zone ("23:13:20.000001100").
 * "time-format-changed" tells when the choice changes. */
TtvTimeFormat ttv_viewer_get_time_format (void);
/* @time as the user chose, to the nanosecond; caller frees. */
char       *ttv_tab_state_format_time (TtvTabState *state, TtvTime time);
/* Reads any form that any format shows, and "+S.N" from the traceset's
 * start; a time of day without a date is taken on the day that puts it
 * closest to @near (typically the time the entry showed).  FALSE with
 * @error naming the text when it is no time. */
gboolean    ttv_tab_state_parse_time (TtvTabState *state, const char *text, TtvTime near,
                                      TtvTime *time, GError **error);
/* A time ruler in the user's format: a round step >= @min_step (1-2-5
 * below a minute, clock steps above), the first tick at or after @start,
 * and a tick's label, as short as the step allows ("+0.25 s", "+90 min",
 * "22:15"; caller frees). */
TtvTime     ttv_tab_state_get_tick_step (TtvTabState *state, TtvTime min_step);
TtvTime     ttv_tab_state_get_first_tick (TtvTabState *state, TtvTime start, TtvTime step);
char       *ttv_tab_state_format_tick (TtvTabState *state, TtvTime tick, TtvTime step);
/* For a viewer's own menus: a section choosing the format, its items using
 * the action "@prefix.time-format", and that action (stateful, a string;
 * it writes the setting) to add to the viewer's "@prefix" action group.
 * The action is NULL when the settings schema is not installed. */
GMenuModel *ttv_viewer_time_format_menu_new (const char *prefix);
GAction    *ttv_viewer_time_format_action_new (void);
/* --- Marker colours ----------------------------------------------------------
 * The colours of the current time, the selected interval and bookmark marks,
 * as chosen in Preferences (GSettings org.ttv.Viewer current-time-color,
 * selection-color, bookmark-color), or their defaults. */
typedef enum {
  TTV_VIEWER_MARKER_CURRENT_TIME,
  TTV_VIEWER_MARKER_SELECTION,
  TTV_VIEWER_MARKER_BOOKMARK,
} TtvViewerMarker;

void        ttv_viewer_get_marker_rgba (TtvViewerMarker marker, GdkRGBA *rgba);
/* Redraws @widget whenever one of these colours changes (until it is
 * destroyed). */
void        ttv_viewer_watch_marker_colors (GtkWidget *widget);

/* --- Preferences -------------------------------------------------------------
 * The viewer's GSettings (org.ttv.Viewer), shared by the application and
 * every module: a new reference when the installed schema has @key, NULL
 * when there is no schema or an older one without the key (then use the
 * default and keep nothing). */
GSettings  *ttv_viewer_dup_settings (const char *key);

/* --- Helpers (libttv is not exported to modules) --------------------------- */

/* "SSSS.NNNNNNNNN" whatever the user's time format (for logs and files;
 * see ttv_tab_state_format_time() for what users read); caller frees. */
char       *ttv_viewer_time_to_string (TtvTime time);
/* A duration with its unit, four significant digits ("12.35 µs", "1.000
 * ms"), as every view writes lengths; caller frees. */
char       *ttv_viewer_format_duration (TtvTime duration);
gboolean    ttv_viewer_time_parse (const char *text, TtvTime *time, GError **error);
/* The event's fields as "name = value, ..." text; caller frees. */
char       *ttv_viewer_event_dup_fields (const TtvEvent *event);
/* "facility.event" (or the plain name). */
const char *ttv_viewer_event_get_name (const TtvEvent *event);

/* --- Registration ---------------------------------------------------------- */

typedef GtkWidget *(*TtvViewerNewFunc) (TtvTabState *state);

typedef struct {
  const char *name;        /* unique, [a-z0-9-]+: "events" */
  const char *title;       /* translated: tab / menu title */
  const char *icon_name;   /* themed icon, may be NULL */
  const char *menu_label;  /* translated, with mnemonic: "_Detailed events" */
  TtvViewerNewFunc new_viewer;
  /* Optional: start a text search in this viewer (Ctrl+F); may be NULL. */
  void (*find) (GtkWidget *viewer);
  /* Shown when a tab opens (else only from the View menu). */
  gboolean show_by_default;
} TtvViewerInfo;

/* Copies @info (the strings must stay valid: they are usually static). */
void        ttv_viewer_register (const TtvViewerInfo *info);

/* A module defines, with this macro, the entry point the loader calls:
 *   TTV_VIEWER_MODULE (my_module_init)
 *   static void my_module_init (void) { ttv_viewer_register (&info); } */
#define TTV_VIEWER_MODULE(init_func)                                          \
  static void init_func (void);                                               \
  G_MODULE_EXPORT guint ttv_viewer_module_api_version (void);                 \
  G_MODULE_EXPORT guint ttv_viewer_module_api_version (void)                  \
  { return TTV_VIEWER_API_VERSION; }                                          \
  G_MODULE_EXPORT void ttv_viewer_module_init (void);                         \
  G_MODULE_EXPORT void ttv_viewer_module_init (void) { init_func (); }

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvViewerPosition, ttv_viewer_position_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvViewerFilter, ttv_viewer_filter_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvViewerStatsNode, ttv_viewer_stats_node_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvViewerHistory, ttv_viewer_history_unref)

G_END_DECLS
