/* ttv-timeline.h: the time-line widget of the time-line module, which its
 * control flow and resources viewers are made of: rows of states drawn from
 * the state history, a label area with columns, navigation, selection,
 * wakeup and fork arrows, tooltips, export and render. */
#pragma once

#include "ttv-viewer.h"

G_BEGIN_DECLS

/* Layout of a drawing (tests compute pixel positions from it; the header's
 * height depends on how many lines the legend takes: see
 * ttv_timeline_get_header_height()). */
#define TTV_TIMELINE_LABEL_WIDTH 220    /* default width of the label area */
#define TTV_TIMELINE_PROCESS_LABEL_WIDTH 400   /* the control flow's (its columns) */
#define TTV_TIMELINE_LABEL_MIN 60
#define TTV_TIMELINE_LEGEND_LINE 16     /* one line of the legend */
#define TTV_TIMELINE_RULER_HEIGHT 24    /* column titles and time ruler, under the legend */
#define TTV_TIMELINE_ROW_HEIGHT 18
#define TTV_TIMELINE_BAR_INSET 4        /* the state bar: rows' y + inset .. y + height - inset */
#define TTV_TIMELINE_MIXED_HEIGHT 2     /* the mark of mixed pixels, at the bar's bottom */

/* The palette (names, labels, defaults) is the application's: ttv-palette.h
 * through ttv-viewer.h. */

/* Whether a process row is a CPU's idle task (pid 0, "swapper/N"). */
gboolean    ttv_timeline_is_idle_task (const TtvViewerRowInfo *info);
/* The colour of a row's visual state; FALSE when nothing is drawn there.
 * @idle_task: the row is a CPU's idle task (running means the CPU idles). */
gboolean    ttv_timeline_color_of_state (TtvViewerRowKind kind, gboolean idle_task, guint16 state,
                                         TtvPaletteColor *color);
/* A readable state name ("Running, user"); translated, static. */
const char *ttv_timeline_describe_state (TtvViewerRowKind kind, gboolean idle_task, guint16 state);
/* Whether a pixel hides activity under its dominant state: the state
 * changed within it, or the row had events in a state that makes none
 * (a process that is not running, an idle CPU, an inactive IRQ). */
gboolean    ttv_timeline_pixel_is_mixed (TtvViewerRowKind kind, const TtvViewerPixel *px);
/* Whether the row does something in [@t0, @t1): a process runs or waits
 * for a CPU, a CPU runs a task, an IRQ, soft IRQ or disk is active.
 * O(1) intervals read in practice (states alternate). */
gboolean    ttv_timeline_row_is_busy (TtvViewerHistory *history, TtvViewerRowKind kind, guint row,
                                      TtvTime t0, TtvTime t1);

/* Tree rows: a row with an expander stands for a group (a process and its
 * threads); a click on the triangle, or +/- on the keyboard
 * row, emits "toggle-row" and the owner rebuilds the rows. */
typedef enum {
  TTV_TIMELINE_EXPANDER_NONE,
  TTV_TIMELINE_EXPANDER_COLLAPSED,
  TTV_TIMELINE_EXPANDER_EXPANDED,
} TtvTimelineExpander;

#define TTV_TIMELINE_INDENT 14        /* pixels per depth level */
#define TTV_TIMELINE_EXPANDER_WIDTH 14 /* the triangle's column, at the row's indent */

/* What formats a row's other columns and details when they are drawn or
 * asked for (ttv-timeline-row-text.c), shared by the rows of a view and
 * reference counted: rows keep none of that text. */
typedef struct _TtvTimelineRowText TtvTimelineRowText;

/* A view has a row for every process of the trace: tens of thousands on
 * a large trace, so a row keeps little (40 bytes, its label shared). */
typedef struct {
  guint row;                 /* index in the history's rows of @kind */
  guint8 kind;               /* TtvViewerRowKind, or TTV_TIMELINE_ROW_MACHINE */
  guint8 depth;              /* 0: top level; 1: a thread under its process */
  guint8 expander;           /* TtvTimelineExpander */
  guint8 pinned;             /* kept at the top by the user: marked at its left edge */
  /* The first column (and the tooltip's title), interned
   * (g_intern_string): rows mostly share a few names. */
  const char *label;
  TtvTimelineRowText *text;  /* a reference, may be NULL: the other columns and the details */
  char *details;             /* owned, may be NULL: more lines for the tooltip (wins over @text's) */
  /* Rows of the same kind drawn combined into this one (a collapsed
   * process: its threads), of guint; owned, NULL when none. */
  GArray *merged;
} TtvTimelineRow;

TtvTimelineRow *ttv_timeline_row_new (TtvViewerRowKind kind, guint row, const char *label);

/* With several machines in the traceset (docs/multi-machine.md), the
 * views put each machine's rows under a header row: its kind is
 * TTV_TIMELINE_ROW_MACHINE, its @row the machine, its label the machine's
 * name; it has no history row (queries on it find nothing) and draws no
 * states. */
#define TTV_TIMELINE_ROW_MACHINE ((TtvViewerRowKind) TTV_VIEWER_ROW_N_KINDS)
TtvTimelineRow *ttv_timeline_machine_row_new (TtvViewerHistory *history, guint machine);
static inline gboolean
ttv_timeline_row_is_machine (const TtvTimelineRow *row)
{
  return row->kind == TTV_TIMELINE_ROW_MACHINE;
}
void        ttv_timeline_row_free (TtvTimelineRow *row);

/* The text of a row's other columns (a new GStrv) and of its details (a new
 * string), from the row and what @data holds; NULL: none. */
typedef GStrv (*TtvTimelineCellsFunc) (gpointer data, const TtvTimelineRow *row);
typedef char *(*TtvTimelineDetailsFunc) (gpointer data, const TtvTimelineRow *row);
/* @destroy (may be NULL) frees @data with the last reference. */
TtvTimelineRowText *ttv_timeline_row_text_new (TtvTimelineCellsFunc cells, TtvTimelineDetailsFunc details,
                                               gpointer data, GDestroyNotify destroy);
TtvTimelineRowText *ttv_timeline_row_text_ref (TtvTimelineRowText *text);
void        ttv_timeline_row_text_unref (TtvTimelineRowText *text);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvTimelineRowText, ttv_timeline_row_text_unref)
/* Takes a reference on @text (may be NULL). */
void        ttv_timeline_row_set_text (TtvTimelineRow *row, TtvTimelineRowText *text);
/* The row's other columns, formatted now: a new GStrv, NULL when none. */
GStrv       ttv_timeline_row_dup_cells (const TtvTimelineRow *row);
/* The row's details (its own, else formatted now): new, NULL when none. */
char       *ttv_timeline_row_dup_details (const TtvTimelineRow *row);

/* A column of the label area; the first one holds the tree and the label
 * and takes what the others leave; columns that do not fit are left out,
 * from the last. */
typedef struct {
  const char *title;         /* translated */
  double width;              /* pixels (the first column: its minimum) */
  gboolean numeric;          /* right-aligned */
} TtvTimelineColumn;

#define TTV_TYPE_TIMELINE (ttv_timeline_get_type ())
G_DECLARE_FINAL_TYPE (TtvTimeline, ttv_timeline, TTV, TIMELINE, GtkGrid)

/* @legend: the palette entries the legend shows (copied); the lost-events
 * entry is added when the traceset lost some. */
GtkWidget  *ttv_timeline_new (TtvTabState *state, const TtvPaletteColor *legend, guint n_legend);
/* The history drawn from (a new reference is taken; NULL: none yet). */
void        ttv_timeline_set_history (TtvTimeline *self, TtvViewerHistory *history);
TtvViewerHistory *ttv_timeline_get_history (TtvTimeline *self);   /* borrowed */
/* @rows: of TtvTimelineRow *, transfer full, may be NULL. */
void        ttv_timeline_set_rows (TtvTimeline *self, GPtrArray *rows);
guint       ttv_timeline_get_n_rows (TtvTimeline *self);
const TtvTimelineRow *ttv_timeline_get_row (TtvTimeline *self, guint index);   /* borrowed */
/* The columns of the label area (copied; the titles too). */
void        ttv_timeline_set_columns (TtvTimeline *self, const TtvTimelineColumn *columns, guint n_columns);
/* The column marked as sorted in the header (-1: none). */
void        ttv_timeline_set_sort_column (TtvTimeline *self, gint column, gboolean descending);
/* Column @column's width: at least what its title and a sort arrow need. */
double      ttv_timeline_get_column_width (TtvTimeline *self, guint column);
/* The label area's width (the user drags its edge), clamped. */
double      ttv_timeline_get_label_width (TtvTimeline *self);
void        ttv_timeline_set_label_width (TtvTimeline *self, double width);
/* The header's height (legend lines and ruler) at the widget's width. */
double      ttv_timeline_get_header_height (TtvTimeline *self);
/* Wakeup and fork arrows (drawn when few enough are visible). */
void        ttv_timeline_set_show_arrows (TtvTimeline *self, gboolean show);
/* How many arrows the last drawing drew (tests, benchmarks). */
guint       ttv_timeline_get_n_arrows_drawn (TtvTimeline *self);
/* The task names on CPU rows the last drawing wrote. */
guint       ttv_timeline_get_n_cpu_names_drawn (TtvTimeline *self);
/* The keyboard row (display index), -1 when none.  Kept on the same history
 * row across ttv_timeline_set_rows(). */
gint        ttv_timeline_get_cursor (TtvTimeline *self);
void        ttv_timeline_set_cursor (TtvTimeline *self, gint index);
/* Pops up a menu of @model for display row @index, attached below the
 * widget (its actions are the owner's): at the pointer of @event (a button
 * press), or under the row when NULL (the keyboard).  See "row-menu". */
void        ttv_timeline_popup_row_menu (TtvTimeline *self, GMenuModel *model, guint index,
                                         const GdkEvent *event);
/* Sets the tab's filter to "@field = @value" (docs/filters.md): a row
 * menu's Filter on This... item; the filter bar shows it. */
void        ttv_timeline_filter_on (TtvTimeline *self, const char *field, guint32 value);
/* Appends an item activating @action with the target @value (a row's menu). */
void        ttv_timeline_menu_append (GMenu *menu, const char *label, const char *action, guint32 value);
/* The same with a 64-bit target (a row key holding its machine). */
void        ttv_timeline_menu_append_key (GMenu *menu, const char *label, const char *action, guint64 value);
/* The display row of process @pid of @machine (its first life), -1 when
 * not shown. */
gint        ttv_timeline_find_pid_row (TtvTimeline *self, guint machine, guint32 pid);
/* A line of text drawn at the bottom right of the view ("filtering…"),
 * NULL for none. */
void        ttv_timeline_set_status (TtvTimeline *self, const char *status);
/* The tooltip at (@x, @y) of the widget's drawing area, NULL when none
 * (what the pointer shows; tests read it here). */
char       *ttv_timeline_dup_tooltip (TtvTimeline *self, double x, double y);
/* Draws the view at @width x @height into @path (.svg: SVG, else PNG),
 * scrolled as the widget is, without a window. */
gboolean    ttv_timeline_render (TtvTimeline *self, const char *path, int width, int height,
                                 GError **error);
/* Adds "export" (s: a .png/.svg path, the widget's size and scroll),
 * "export-dialog", "render" ((sii): path, width, height), "edit-colors"
 * (opens the Preferences dialog, win.preferences, where the palette is
 * edited) and "show-arrows" (boolean state, bound to the GSettings key
 * timeline-arrows when the schema has it) and "thread-arrows" (the selected
 * thread's arrows, however many the others; bound to timeline-thread-arrows)
 * to @map.
 *
 * Signals: "toggle-row" (guint display index, gboolean expand): the user
 * asked to expand (TRUE) or collapse a row with an expander; "toggle-all"
 * (gboolean expand): every row (keys * and /); "column-clicked" (guint
 * column): a click on a column title; "row-menu" (guint display index,
 * GdkEvent *button press or NULL): a right click on a row's name, or the
 * Menu key or Shift+F10 on the keyboard row. */
void        ttv_timeline_add_actions (TtvTimeline *self, GActionMap *map);

G_END_DECLS
