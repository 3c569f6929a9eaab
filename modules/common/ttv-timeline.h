/* ttv-timeline.h: the time-line widget shared by the control flow and
 * resources viewer modules (compiled into both): rows of states drawn from
 * the state history, navigation, selection, tooltips, export and render. */
#pragma once

#include "ttv-viewer.h"

G_BEGIN_DECLS

/* Layout of a drawing (tests compute pixel positions from it). */
#define TTV_TIMELINE_LABEL_WIDTH 220
#define TTV_TIMELINE_LEGEND_HEIGHT 18
#define TTV_TIMELINE_HEADER 40          /* legend + time scale */
#define TTV_TIMELINE_ROW_HEIGHT 18
#define TTV_TIMELINE_BAR_INSET 4        /* the state bar: rows' y + inset .. y + height - inset */

/* The palette: names are the keys of the GSettings dictionary
 * org.ttv.Viewer timeline-colors ("run-user" -> "#33a02c"). */
typedef enum {
  TTV_TIMELINE_COLOR_RUN_USER,
  TTV_TIMELINE_COLOR_RUN_SYSCALL,
  TTV_TIMELINE_COLOR_RUN_TRAP,
  TTV_TIMELINE_COLOR_RUN_IRQ,
  TTV_TIMELINE_COLOR_RUN_SOFTIRQ,
  TTV_TIMELINE_COLOR_RUN_UNKNOWN,
  TTV_TIMELINE_COLOR_WAIT_CPU,
  TTV_TIMELINE_COLOR_WAIT_FORK,
  TTV_TIMELINE_COLOR_BLOCKED,
  TTV_TIMELINE_COLOR_ZOMBIE,
  TTV_TIMELINE_COLOR_EXITED,
  TTV_TIMELINE_COLOR_UNKNOWN,
  TTV_TIMELINE_COLOR_CPU_IDLE,
  TTV_TIMELINE_COLOR_IRQ_ACTIVE,
  TTV_TIMELINE_COLOR_BLOCKDEV_BUSY,
  TTV_TIMELINE_N_COLORS
} TtvTimelineColor;

const char *ttv_timeline_color_get_name (TtvTimelineColor color);    /* "run-user" */
const char *ttv_timeline_color_get_label (TtvTimelineColor color);   /* translated */
/* The default colour of the schema (also used without the schema). */
const char *ttv_timeline_color_get_default (TtvTimelineColor color);
/* The colour of a row's visual state; FALSE when nothing is drawn there. */
gboolean    ttv_timeline_color_of_state (TtvHistoryRowKind kind, guint16 state,
                                         TtvTimelineColor *color);
/* A readable state name ("Running (user)"); translated, static. */
const char *ttv_timeline_describe_state (TtvHistoryRowKind kind, guint16 state);

typedef struct {
  TtvHistoryRowKind kind;
  guint row;                 /* index in the history's rows of @kind */
  char *label;               /* owned */
} TtvTimelineRow;

TtvTimelineRow *ttv_timeline_row_new (TtvHistoryRowKind kind, guint row, const char *label);
void        ttv_timeline_row_free (TtvTimelineRow *row);

#define TTV_TYPE_TIMELINE (ttv_timeline_get_type ())
G_DECLARE_FINAL_TYPE (TtvTimeline, ttv_timeline, TTV, TIMELINE, GtkGrid)

/* @legend: the palette entries the legend shows (copied). */
GtkWidget  *ttv_timeline_new (TtvTabState *state, const TtvTimelineColor *legend, guint n_legend);
/* The history drawn from (a new reference is taken; NULL: none yet). */
void        ttv_timeline_set_history (TtvTimeline *self, TtvViewerHistory *history);
TtvViewerHistory *ttv_timeline_get_history (TtvTimeline *self);   /* borrowed */
/* @rows: of TtvTimelineRow *, transfer full, may be NULL. */
void        ttv_timeline_set_rows (TtvTimeline *self, GPtrArray *rows);
guint       ttv_timeline_get_n_rows (TtvTimeline *self);
/* Draws the view at @width x @height into @path (.svg: SVG, else PNG),
 * from the first row, without a window. */
gboolean    ttv_timeline_render (TtvTimeline *self, const char *path, int width, int height,
                                 GError **error);
/* Adds "export" (s: a .png/.svg path, the widget's size), "export-dialog",
 * "render" ((sii): path, width, height) and "edit-colors" (a dialog writing
 * the timeline-colors setting) to @map. */
void        ttv_timeline_add_actions (TtvTimeline *self, GActionMap *map);

G_END_DECLS
