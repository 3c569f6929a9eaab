/* ttv-timeline-view.h: what a time-line picture is drawn from, with or
 * without a widget: the tab, the history, the rows and columns, the
 * colours and the options; its layout, drawing (ttv-timeline-draw.c) and
 * tooltips (ttv-timeline-tooltip.c).  The widget (ttv-timeline.c) holds
 * one; a display-free render (ttv --render) makes its own. */
#pragma once

#include "ttv-timeline.h"

#include <cairo.h>

G_BEGIN_DECLS

typedef struct {
  char *title;                 /* owned */
  double width;
  gboolean numeric;
} Column;

/* A process row by machine and pid (for the arrows): a packed sorted
 * array rather than a hash table of allocated keys, 16 bytes a row. */
typedef struct {
  guint64 key;                 /* machine << 32 | pid */
  guint index;                 /* the display row */
  guint order;                 /* which of a pid's rows comes first */
} TtvTimelinePidRow;

typedef struct {
  TtvTabState *state;          /* owned reference */
  TtvViewerHistory *history;   /* owned, may be NULL */
  GPtrArray *rows;             /* owned, of TtvTimelineRow * */
  GArray *pid_rows;            /* owned: of TtvTimelinePidRow, sorted by key, one a pid */
  GArray *legend;              /* of TtvPaletteColor */
  GArray *columns;             /* of Column */
  double label_width;          /* wanted; a narrow view gets less unless set */
  gboolean label_width_set;    /* the user dragged the edge */
  gint sort_column;            /* -1: none */
  gboolean sort_descending;
  gboolean show_arrows;
  gboolean show_thread_arrows; /* the selected thread's, however many the others */
  guint n_arrows_drawn;        /* by the last drawing */
  guint n_thread_arrows_drawn; /* of which the selected thread's */
  guint n_cpu_names_drawn;     /* task names on CPU rows, by the last drawing */
  char *ruler_labels;          /* owned: the ruler's labels of the last drawing, one a line */
  double colors[TTV_PALETTE_N_COLORS][3];
  double now_color[3], sel_color[3], bookmark_color[3];
  gboolean has_tree;           /* a row has an expander or a depth */
  char *status;                /* owned, may be NULL */
  gint cursor;                 /* the keyboard row, -1: none */
  gboolean focused;            /* the keyboard row is framed (the widget has the focus) */
} TtvTimelineView;

/* Geometry of one drawing. */
typedef struct {
  double width, height;
  double label;                /* the label area's width */
  double header;               /* legend + ruler */
  double plot;                 /* the plot's width */
  TtvTime t0, t1;              /* the time window (t1 > t0) */
  TtvTimeScale scale;          /* the window over the plot: the tab's, long gaps compressed */
  double scroll;               /* pixels scrolled down */
} TimelineLayout;

/* ttv-timeline-view.c */
/* A view of @state with @legend (copied): no rows, the palette and marker
 * colours of @settings (may be NULL: the defaults). */
void        ttv_timeline_view_init (TtvTimelineView *v, TtvTabState *state, const TtvPaletteColor *legend,
                                    guint n_legend, GSettings *settings);
void        ttv_timeline_view_clear (TtvTimelineView *v);
/* The palette (@settings may be NULL) and the marker colours, again. */
void        ttv_timeline_view_load_colors (TtvTimelineView *v, GSettings *settings);
/* A new reference on @history (NULL: none); the rows go with the old one. */
void        ttv_timeline_view_set_history (TtvTimelineView *v, TtvViewerHistory *history);
/* @rows: of TtvTimelineRow *, transfer full, may be NULL. */
void        ttv_timeline_view_set_rows (TtvTimelineView *v, GPtrArray *rows);
/* Copied, the titles too. */
void        ttv_timeline_view_set_columns (TtvTimelineView *v, const TtvTimelineColumn *columns,
                                           guint n_columns);
void        ttv_timeline_view_get_window (TtvTimelineView *v, TtvTime *t0, TtvTime *t1);
TtvTime     ttv_timeline_view_origin (TtvTimelineView *v);
void        ttv_timeline_view_layout (TtvTimelineView *v, TimelineLayout *l, double width, double height,
                                      double scroll);
double      ttv_timeline_x_of_time (const TimelineLayout *l, TtvTime t);
TtvTime     ttv_timeline_time_of_x (const TimelineLayout *l, double x);
/* The display row of process @pid of @machine (its first life), -1 when
 * not shown. */
gint        ttv_timeline_view_find_pid_row (TtvTimelineView *v, guint machine, guint32 pid);
/* The display row at @y of layout @l, -1 when none. */
gint        ttv_timeline_view_row_at (TtvTimelineView *v, const TimelineLayout *l, double y);
/* Draws @v at @width x @height on @cr, from the top (no scroll): the
 * display-free render.  FALSE with @error when the size is too small. */
gboolean    ttv_timeline_view_render (TtvTimelineView *v, cairo_t *cr, int width, int height,
                                      double scroll, GError **error);

/* A view of @state as a new viewer starts: @legend and @columns (copied),
 * the palette and arrows settings, the tab's history (@v->history, NULL
 * while there is none); for a display-free render. */
void        ttv_timeline_view_init_render (TtvTimelineView *v, TtvTabState *state,
                                           const TtvPaletteColor *legend, guint n_legend,
                                           const TtvTimelineColumn *columns, guint n_columns);
/* Draws @v at @width x @height, from the top, and clears it. */
gboolean    ttv_timeline_view_render_once (TtvTimelineView *v, cairo_t *cr, int width, int height,
                                           GError **error);

/* ttv-timeline-draw.c */
/* The header's height at @width (the legend wraps). */
double      ttv_timeline_view_header_height (TtvTimelineView *v, double width);
/* The x of each column in the label area and how many fit, for @label px. */
guint       ttv_timeline_view_column_layout (TtvTimelineView *v, double label, double *x, double *w);
/* Everything but the pointer feedback; rows outside [clip_y0, clip_y1)
 * are not queried. */
void        ttv_timeline_view_draw (TtvTimelineView *v, cairo_t *cr, const TimelineLayout *l,
                                    double clip_y0, double clip_y1);

/* ttv-timeline-navigate.c */
/* The next (@forward) or previous time after or before @from when display
 * row @index changes state (a collapsed process: any of its threads), within
 * the traceset's span; FALSE when there is none. */
gboolean    ttv_timeline_view_find_change (TtvTimelineView *v, guint index, TtvTime from, gboolean forward,
                                           TtvTime *out);

/* ttv-timeline-tooltip.c */
/* The tooltip at (@x, @y) of a drawing laid out as @l, NULL when none;
 * @sortable: a click on a column title sorts. */
char       *ttv_timeline_view_dup_tooltip (TtvTimelineView *v, const TimelineLayout *l, double x, double y,
                                           gboolean sortable);

G_END_DECLS
