/* ttv-timeline-private.h: the time line's instance, shared by its files
 * (widget and input: ttv-timeline.c; drawing: ttv-timeline-draw.c;
 * tooltips: ttv-timeline-tooltip.c). */
#pragma once

#include "ttv-timeline.h"

G_BEGIN_DECLS

typedef struct {
  char *title;                 /* owned */
  double width;
  gboolean numeric;
} Column;

struct _TtvTimeline {
  GtkGrid parent_instance;

  TtvTabState *state;          /* owned reference */
  gulong handlers[4];
  GSettings *settings;         /* owned, NULL without the schema */
  GActionMap *actions;         /* weak: the owner's, holding show-arrows */
  TtvViewerHistory *history;   /* owned, may be NULL */
  GPtrArray *rows;             /* owned, of TtvTimelineRow * */
  GHashTable *pid_rows;        /* owned: pid -> display index + 1 (process rows) */
  GArray *legend;              /* of TtvPaletteColor */
  GArray *columns;             /* of Column */
  double label_width;          /* wanted; a narrow view gets less unless set */
  gboolean label_width_set;    /* the user dragged the edge */
  gint sort_column;            /* -1: none */
  gboolean sort_descending;
  gboolean show_arrows;
  guint n_arrows_drawn;
  double colors[TTV_PALETTE_N_COLORS][3];
  double now_color[3], sel_color[3];
  GtkWidget *area;
  GtkAdjustment *vadj;         /* weak: the scrollbar's */
  gint cursor;                 /* the keyboard row, -1: none */
  guint adjust_id;             /* idle updating the scroll bar after an allocation */
  gboolean has_tree;           /* a row has an expander or a depth */
  char *status;                /* owned, may be NULL */
  double header;               /* the header's height at the area's width (last layout) */

  /* Pointer interaction. */
  gboolean pressed, panning, banding, resizing;
  double press_x, press_y, cur_x;
  TtvTime press_t0, press_t1;
  double press_label_width;
};

/* Geometry of one drawing. */
typedef struct {
  double width, height;
  double label;                /* the label area's width */
  double header;               /* legend + ruler */
  double plot;                 /* the plot's width */
  TtvTime t0, t1;              /* the time window (t1 > t0) */
  double scroll;               /* pixels scrolled down */
} TimelineLayout;

/* ttv-timeline.c */
void        ttv_timeline_get_window (TtvTimeline *self, TtvTime *t0, TtvTime *t1);
TtvTime     ttv_timeline_origin (TtvTimeline *self);
void        ttv_timeline_layout (TtvTimeline *self, TimelineLayout *l, double width, double height,
                                 double scroll);
double      ttv_timeline_x_of_time (const TimelineLayout *l, TtvTime t);
TtvTime     ttv_timeline_time_of_x (const TimelineLayout *l, double x);
/* The display row at @y of layout @l, -1 when none. */
gint        ttv_timeline_row_at (TtvTimeline *self, const TimelineLayout *l, double y);
/* The process row of @pid at @time (pid 0: the idle task of @cpu), else
 * the pid's first row; -1 when none. */
gint        ttv_timeline_find_process (TtvViewerHistory *history, guint32 pid, gint cpu, TtvTime time);

/* ttv-timeline-draw.c */
/* The header's height at @width (the legend wraps). */
double      ttv_timeline_header_height (TtvTimeline *self, double width);
/* The x of each column in the label area and how many fit, for @label px. */
guint       ttv_timeline_column_layout (TtvTimeline *self, double label, double *x, double *w);
/* Everything but the pointer feedback; rows outside [clip_y0, clip_y1)
 * are not queried. */
void        ttv_timeline_draw_view (TtvTimeline *self, cairo_t *cr, const TimelineLayout *l,
                                    double clip_y0, double clip_y1);

G_END_DECLS
