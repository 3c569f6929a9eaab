/* ttv-viewer.h: the plugin API of the ttv viewer, the one public header that
 * viewer modules (modules/NAME) include.  See docs/viewer-module.md. */
#pragma once

#include <gtk/gtk.h>

#include "ttv-trace.h"

G_BEGIN_DECLS

/* Bumped whenever this header changes incompatibly; a module built against
 * another version is refused at load time. */
#define TTV_VIEWER_API_VERSION 1

/* --- The tab's shared state ------------------------------------------------
 * One TtvTabState per tab: the traceset, its time window, current time,
 * selected interval, filter and bookmarks.  Every viewer observes it through
 * its signals; viewers never talk to each other.
 *
 * Signals (all without arguments, emitted after the value changed):
 *   "traceset-changed", "time-window-changed", "current-time-changed",
 *   "selection-changed", "filter-changed", "bookmarks-changed",
 *   "statistics-changed" (background indexing finished: event count,
 *   density histogram). */
#define TTV_TYPE_TAB_STATE (ttv_tab_state_get_type ())
G_DECLARE_FINAL_TYPE (TtvTabState, ttv_tab_state, TTV, TAB_STATE, GObject)

/* One user annotation (seed 000 info/bookmarks.xml). */
typedef struct {
  char *name;          /* owned, never NULL */
  char *text;          /* owned, never NULL */
  gint cpu;            /* -1: none */
  TtvTime start;
  TtvTime end;         /* == start for a point in time */
  guint trace_index;   /* the trace of the traceset it belongs to */
  /* Hand-written cycle= bookmarks keep their cycles (start/end are then
   * only an estimate, or the trace start). */
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
void        ttv_tab_state_set_filter (TtvTabState *state, const char *filter);
/* Case-insensitive substring match of the filter against "facility.event"
 * and the trace name; TRUE when no filter is set. */
gboolean    ttv_tab_state_event_matches_filter (TtvTabState *state, const TtvEvent *event);

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
typedef struct _TtvEventRequest TtvEventRequest;

typedef enum {
  TTV_REQUEST_DEFAULT = 0,
  /* A new request from the same owner cancels its older ones. */
  TTV_REQUEST_REPLACE = 1 << 0,
  /* Cancelled when the time window / current time / filter changes. */
  TTV_REQUEST_STALE_ON_TIME_WINDOW = 1 << 1,
  TTV_REQUEST_STALE_ON_CURRENT_TIME = 1 << 2,
  TTV_REQUEST_STALE_ON_FILTER = 1 << 3,
  /* Deliver only events that match the tab's filter. */
  TTV_REQUEST_FILTERED = 1 << 4,
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
void        ttv_tab_state_cancel_requests (TtvTabState *state, gpointer owner);
/* Requests queued or running (for tests and progress display). */
guint       ttv_tab_state_get_n_requests (TtvTabState *state);

/* --- Helpers (libttv is not exported to modules) --------------------------- */

/* "SSSS.NNNNNNNNN"; caller frees. */
char       *ttv_viewer_time_to_string (TtvTime time);
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

G_END_DECLS
