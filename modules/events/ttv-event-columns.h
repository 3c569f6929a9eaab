/* ttv-event-columns.h: the columns of the detailed event list: their names
 * and titles, the text an event shows in each (for the rows and for Find),
 * and which ones the user shows, at which width (GSettings). */
#pragma once

#include "ttv-viewer.h"

G_BEGIN_DECLS

typedef enum {
  TTV_EVENT_COLUMN_TIME,
  TTV_EVENT_COLUMN_DELTA,
  TTV_EVENT_COLUMN_TRACE,
  TTV_EVENT_COLUMN_CPU,
  TTV_EVENT_COLUMN_EVENT,
  TTV_EVENT_COLUMN_PID,
  TTV_EVENT_COLUMN_PROCESS,
  TTV_EVENT_COLUMN_MODE,
  TTV_EVENT_COLUMN_SYMBOL,     /* the function of the event's ip context (userspace traces) */
  TTV_EVENT_COLUMN_FIELDS,
  TTV_EVENT_N_COLUMNS
} TtvEventColumn;

/* A set of columns: bit (1 << column). */
#define TTV_EVENT_COLUMN_BIT(column) (1u << (column))
#define TTV_EVENT_COLUMNS_ALL ((1u << TTV_EVENT_N_COLUMNS) - 1)
/* The columns that need the system state (the process running). */
#define TTV_EVENT_COLUMNS_STATE (TTV_EVENT_COLUMN_BIT (TTV_EVENT_COLUMN_PID)          \
                                 | TTV_EVENT_COLUMN_BIT (TTV_EVENT_COLUMN_PROCESS)    \
                                 | TTV_EVENT_COLUMN_BIT (TTV_EVENT_COLUMN_MODE))

/* "time", "cpu": the names in the settings. */
const char *ttv_event_column_get_name (TtvEventColumn column);
/* Translated: "Time", "CPU". */
const char *ttv_event_column_get_title (TtvEventColumn column);

/* The texts of @event (delivered by @request) in the columns of @columns,
 * into @text (owned, NULL where unknown: the process columns without the
 * state, the symbol before the userspace symbols are there).  The time is
 * in the user's format; the delta is never filled: it depends on the row
 * before. */
void        ttv_event_columns_fill (TtvTabState *state, TtvEventRequest *request,
                                    const TtvViewerEvent *event, guint columns,
                                    char *text[TTV_EVENT_N_COLUMNS]);
/* Appends to @out what @column shows for @event: @info is the process
 * running (from ttv_event_request_get_process()), NULL when unknown (the
 * process columns then show nothing).  The delta shows nothing here. */
void        ttv_event_columns_append_text (GString *out, TtvEventColumn column, TtvTabState *state,
                                           const TtvViewerEvent *event, const TtvViewerProcessInfo *info);
/* What @column shows for @event when it is a string the event or @info
 * already holds (Trace, Event, Process: no formatting, no copy), else
 * NULL (append it with ttv_event_columns_append_text()). */
const char *ttv_event_columns_peek_text (TtvEventColumn column, const TtvViewerEvent *event,
                                         const TtvViewerProcessInfo *info);
/* A CPU's text: stream @stream's CPU number, or its name when it has none. */
char       *ttv_event_columns_dup_cpu (const TtvViewerTrace *trace, guint stream);

/* --- What the user chose (GSettings org.ttv.Viewer, NULL: defaults) ---- */

/* Whether @column is shown: the user's choice, or by default every column
 * but Trace when the traceset of @state has a single trace, and Symbol
 * when no trace has an ip context. */
gboolean    ttv_event_columns_get_visible (GSettings *settings, TtvEventColumn column,
                                           TtvTabState *state);
/* Whether @event has an address the Symbol column names (an ip context). */
gboolean    ttv_event_columns_has_symbol (const TtvViewerEvent *event);
void        ttv_event_columns_set_visible (GSettings *settings, TtvEventColumn column,
                                           gboolean visible);
/* The width the user gave @column, or 0: none (a width from the content). */
gint        ttv_event_columns_get_width (GSettings *settings, TtvEventColumn column);
void        ttv_event_columns_set_width (GSettings *settings, TtvEventColumn column, gint width);
/* The settings of the list, or NULL when the schema (or its keys) is not
 * installed.  Transfer full. */
GSettings  *ttv_event_columns_new_settings (void);

G_END_DECLS
