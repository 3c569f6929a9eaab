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

/* The palette (names, labels, defaults) is the application's: ttv-palette.h
 * through ttv-viewer.h. */

/* The colour of a row's visual state; FALSE when nothing is drawn there. */
gboolean    ttv_timeline_color_of_state (TtvHistoryRowKind kind, guint16 state,
                                         TtvPaletteColor *color);
/* A readable state name ("Running (user)"); translated, static. */
const char *ttv_timeline_describe_state (TtvHistoryRowKind kind, guint16 state);

/* Tree rows: a row with an expander stands for a group (a process and its
 * threads); a click on the triangle, or Left/Right/+/- on the keyboard
 * row, emits "toggle-row" and the owner rebuilds the rows. */
typedef enum {
  TTV_TIMELINE_EXPANDER_NONE,
  TTV_TIMELINE_EXPANDER_COLLAPSED,
  TTV_TIMELINE_EXPANDER_EXPANDED,
} TtvTimelineExpander;

#define TTV_TIMELINE_INDENT 14        /* pixels per depth level */
#define TTV_TIMELINE_EXPANDER_WIDTH 14 /* the triangle's column, at the row's indent */

typedef struct {
  TtvHistoryRowKind kind;
  guint row;                 /* index in the history's rows of @kind */
  char *label;               /* owned */
  guint depth;               /* 0: top level; 1: a thread under its process */
  TtvTimelineExpander expander;
  /* Rows of the same kind drawn combined into this one (a collapsed
   * process: its threads), of guint; owned, NULL when none. */
  GArray *merged;
} TtvTimelineRow;

TtvTimelineRow *ttv_timeline_row_new (TtvHistoryRowKind kind, guint row, const char *label);
void        ttv_timeline_row_free (TtvTimelineRow *row);

#define TTV_TYPE_TIMELINE (ttv_timeline_get_type ())
G_DECLARE_FINAL_TYPE (TtvTimeline, ttv_timeline, TTV, TIMELINE, GtkGrid)

/* @legend: the palette entries the legend shows (copied). */
GtkWidget  *ttv_timeline_new (TtvTabState *state, const TtvPaletteColor *legend, guint n_legend);
/* The history drawn from (a new reference is taken; NULL: none yet). */
void        ttv_timeline_set_history (TtvTimeline *self, TtvViewerHistory *history);
TtvViewerHistory *ttv_timeline_get_history (TtvTimeline *self);   /* borrowed */
/* @rows: of TtvTimelineRow *, transfer full, may be NULL. */
void        ttv_timeline_set_rows (TtvTimeline *self, GPtrArray *rows);
guint       ttv_timeline_get_n_rows (TtvTimeline *self);
const TtvTimelineRow *ttv_timeline_get_row (TtvTimeline *self, guint index);   /* borrowed */
/* The keyboard row (display index), -1 when none.  Kept on the same history
 * row across ttv_timeline_set_rows(). */
gint        ttv_timeline_get_cursor (TtvTimeline *self);
void        ttv_timeline_set_cursor (TtvTimeline *self, gint index);
/* A line of text drawn at the bottom right of the view ("filtering…"),
 * NULL for none. */
void        ttv_timeline_set_status (TtvTimeline *self, const char *status);
/* Draws the view at @width x @height into @path (.svg: SVG, else PNG),
 * from the first row, without a window. */
gboolean    ttv_timeline_render (TtvTimeline *self, const char *path, int width, int height,
                                 GError **error);
/* Adds "export" (s: a .png/.svg path, the widget's size), "export-dialog",
 * "render" ((sii): path, width, height) and "edit-colors" (opens the
 * Preferences dialog, win.preferences, where the palette is edited) to @map.
 *
 * Signal "toggle-row" (guint display index, gboolean expand): the user
 * asked to expand (TRUE) or collapse a row with an expander; "toggle-all"
 * (gboolean expand): every row (keys * and /). */
void        ttv_timeline_add_actions (TtvTimeline *self, GActionMap *map);

G_END_DECLS
