/* ttv-viewer-types.h: the plugin SDK's basic types: times, the tab's
 * shared state, and the opaque handles the other SDK headers work on.
 * Part of the installed SDK: include ttv-viewer.h, not this file. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Signed 64-bit nanoseconds since the Unix epoch: every time the SDK takes
 * or gives.  (The same definition as the host's own; C11 allows the
 * repeat where both are seen.) */
typedef gint64 TtvTime;

#ifndef TTV_TIME_MIN
#define TTV_TIME_MIN G_MININT64
#endif
#ifndef TTV_TIME_MAX
#define TTV_TIME_MAX G_MAXINT64
#endif

/* A pid, tgid or CPU's running task that is not known. */
#define TTV_VIEWER_PID_NONE G_MAXUINT32

/* One per tab: the traceset, its time window, current time, selection,
 * filter and bookmarks, the results of its background passes, and the
 * servicing of viewers' event requests.  Every viewer of the tab observes
 * it (ttv-viewer-tab.h); viewers never talk to each other. */
#define TTV_TYPE_TAB_STATE (ttv_tab_state_get_type ())
G_DECLARE_FINAL_TYPE (TtvTabState, ttv_tab_state, TTV, TAB_STATE, GObject)

/* Opaque handles, described where their functions are declared. */
typedef struct _TtvViewerTrace TtvViewerTrace;          /* ttv-viewer-event.h */
typedef struct _TtvViewerEvent TtvViewerEvent;          /* ttv-viewer-event.h */
typedef struct _TtvViewerPosition TtvViewerPosition;    /* ttv-viewer-event.h */
typedef struct _TtvViewerFilter TtvViewerFilter;        /* ttv-viewer-event.h */
typedef struct _TtvEventRequest TtvEventRequest;        /* ttv-viewer-request.h */
typedef struct _TtvViewerStatsNode TtvViewerStatsNode;  /* ttv-viewer-analysis.h */
typedef struct _TtvViewerHistory TtvViewerHistory;      /* ttv-viewer-analysis.h */

G_END_DECLS
