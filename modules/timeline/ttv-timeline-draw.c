/* ttv-timeline-draw.c: the time line's drawing: legend, column titles and
 * ruler, each visible row's states from one query_pixels() (O(width) at
 * any zoom) with mixed pixels marked, names on CPU rows, marks, wakeup
 * and fork arrows, lost events, selection and current time. */
#include "ttv-timeline-view.h"
#include "ttv-view-text.h"

#include "ttv-view-axis.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

/* Marks of a row are drawn when they are this many pixels apart on average. */
#define MARK_SPACING 6
/* Arrows are drawn when at most this many are visible, this far apart on
 * average: zoomed out they would be a wall of lines. */
#define MAX_ARROWS 120
#define ARROW_SPACING 8
/* Names on CPU rows: in busy intervals at least this many pixels wide. */
#define NAME_MIN_WIDTH 24
#define SWATCH 10

static void
set_rgb (cairo_t *cr, const double rgb[3])
{
  cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
}

/* --- Legend ------------------------------------------------------------------ */

/* What a legend entry's swatch looks like. */
static void
draw_swatch (TtvTimelineView *self, cairo_t *cr, TtvPaletteColor c, double x, double y)
{
  set_rgb (cr, self->colors[c]);
  switch (c)
    {
    case TTV_PALETTE_MARK_FORK:
    case TTV_PALETTE_MARK_EXEC:
    case TTV_PALETTE_MARK_EXIT:
      cairo_move_to (cr, x, y + 1);
      cairo_line_to (cr, x + SWATCH, y + 1);
      cairo_line_to (cr, x + SWATCH / 2.0, y + SWATCH - 1);
      cairo_close_path (cr);
      cairo_fill (cr);
      break;
    case TTV_PALETTE_WAKEUP:
      cairo_set_line_width (cr, 1.5);
      cairo_move_to (cr, x, y + SWATCH - 1);
      cairo_line_to (cr, x + SWATCH - 3, y + 3);
      cairo_stroke (cr);
      cairo_move_to (cr, x + SWATCH, y);
      cairo_line_to (cr, x + SWATCH - 6, y + 2);
      cairo_line_to (cr, x + SWATCH - 2, y + 6);
      cairo_close_path (cr);
      cairo_fill (cr);
      break;
    case TTV_PALETTE_LOST_EVENTS:
      cairo_rectangle (cr, x, y + SWATCH - 4, SWATCH, 4);
      cairo_fill (cr);
      break;
    case TTV_PALETTE_MIXED:
      cairo_set_source_rgb (cr, 0.8, 0.8, 0.8);
      cairo_rectangle (cr, x, y, SWATCH, SWATCH);
      cairo_fill (cr);
      set_rgb (cr, self->colors[c]);
      cairo_rectangle (cr, x, y + SWATCH - TTV_TIMELINE_MIXED_HEIGHT, SWATCH, TTV_TIMELINE_MIXED_HEIGHT);
      cairo_fill (cr);
      break;
    default:
      cairo_rectangle (cr, x, y, SWATCH, SWATCH);
      cairo_fill (cr);
      /* Pale colours (CPU idle) need an edge on white. */
      cairo_set_source_rgba (cr, 0, 0, 0, 0.25);
      cairo_set_line_width (cr, 1);
      cairo_rectangle (cr, x + 0.5, y + 0.5, SWATCH - 1, SWATCH - 1);
      cairo_stroke (cr);
      break;
    }
}

/* The legend's entries: the view's, and lost events when the traceset lost some. */
static GArray *
legend_entries (TtvTimelineView *self)
{
  GArray *entries = g_array_copy (self->legend);
  TtvTime s0, s1;
  g_autoptr (GArray) lost = NULL;

  ttv_tab_state_get_time_span (self->state, &s0, &s1);
  lost = ttv_tab_state_dup_lost_events (self->state, s0, s1);
  if (lost->len > 0)
    {
      TtvPaletteColor c = TTV_PALETTE_LOST_EVENTS;
      g_array_append_val (entries, c);
    }
  return entries;
}

/* Lays the legend out in lines of @width; draws it when @cr_draw is set.
 * Returns the number of lines. */
static guint
layout_legend (TtvTimelineView *self, cairo_t *cr, gboolean draw, double width)
{
  g_autoptr (GArray) entries = legend_entries (self);
  double x = 4;
  guint line = 0;

  cairo_set_font_size (cr, 10);
  for (guint i = 0; i < entries->len; i++)
    {
      TtvPaletteColor c = g_array_index (entries, TtvPaletteColor, i);
      const char *label = ttv_palette_get_label (c);
      cairo_text_extents_t ext;
      double w;

      ttv_view_text_extents (cr, label, &ext);
      w = SWATCH + 3 + ext.x_advance + 10;
      if (x > 4 && x + w > width)
        {
          line++;
          x = 4;
        }
      if (draw)
        {
          double y = line * TTV_TIMELINE_LEGEND_LINE;

          draw_swatch (self, cr, c, x, y + 3);
          cairo_set_source_rgb (cr, 0.2, 0.2, 0.2);
          cairo_move_to (cr, x + SWATCH + 3, y + 12);
          ttv_view_show_text (cr, label);
        }
      x += w;
    }
  return line + 1;
}

double
ttv_timeline_view_header_height (TtvTimelineView *self, double width)
{
  static cairo_surface_t *scratch;
  cairo_t *cr;
  guint lines;

  /* Text extents need a context; the toy font API measures the same on
   * any surface. */
  if (!scratch)
    scratch = cairo_image_surface_create (CAIRO_FORMAT_A8, 1, 1);
  cr = cairo_create (scratch);
  cairo_select_font_face (cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  lines = layout_legend (self, cr, FALSE, width);
  cairo_destroy (cr);
  return lines * TTV_TIMELINE_LEGEND_LINE + TTV_TIMELINE_RULER_HEIGHT;
}

/* --- Label area ---------------------------------------------------------------- */

guint
ttv_timeline_view_column_layout (TtvTimelineView *self, double label, double *x, double *w)
{
  guint n = self->columns->len;
  double others = 0;

  if (n == 0)
    {
      /* No columns: the label takes the area. */
      x[0] = 0;
      w[0] = label;
      return 1;
    }
  for (guint i = 1; i < n; i++)
    others += g_array_index (self->columns, Column, i).width;
  /* Leave out columns from the last until the first one has its minimum. */
  while (n > 1 && label - others < g_array_index (self->columns, Column, 0).width)
    {
      n--;
      others -= g_array_index (self->columns, Column, n).width;
    }
  x[0] = 0;
  w[0] = MAX (label - others, 1);
  for (guint i = 1; i < n; i++)
    {
      x[i] = x[i - 1] + w[i - 1];
      w[i] = g_array_index (self->columns, Column, i).width;
    }
  return n;
}

static void
show_text_in (cairo_t *cr, const char *text, double x, double w, double baseline, gboolean right)
{
  cairo_text_extents_t ext;

  if (!text || !*text)
    return;
  cairo_save (cr);
  cairo_rectangle (cr, x, baseline - 12, MAX (w - 4, 1), 16);
  cairo_clip (cr);
  if (right)
    {
      ttv_view_text_extents (cr, text, &ext);
      cairo_move_to (cr, x + MAX (w - 6 - ext.x_advance, 2), baseline);
    }
  else
    cairo_move_to (cr, x + 2, baseline);
  ttv_view_show_text (cr, text);
  cairo_restore (cr);
}

/* The column titles over the label area, the sorted one marked. */
static void
draw_titles (TtvTimelineView *self, cairo_t *cr, const TimelineLayout *l, double y)
{
  double x[16], w[16];
  guint n = self->columns->len ? ttv_timeline_view_column_layout (self, l->label, x, w) : 0;

  cairo_set_font_size (cr, 10);
  for (guint i = 0; i < n && i < 16; i++)
    {
      const Column *c = &g_array_index (self->columns, Column, i);
      g_autofree char *title = (gint) i == self->sort_column
                               ? g_strdup_printf ("%s %s", c->title, self->sort_descending ? "▼" : "▲")
                               : g_strdup (c->title);

      cairo_set_source_rgb (cr, 0.15, 0.15, 0.15);
      show_text_in (cr, title, x[i] + (i == 0 ? 2 : 0), w[i], y + TTV_TIMELINE_RULER_HEIGHT - 8,
                    c->numeric);
      if (i > 0)
        {
          cairo_set_source_rgb (cr, 0.78, 0.78, 0.78);
          cairo_rectangle (cr, x[i], y + 3, 1, TTV_TIMELINE_RULER_HEIGHT - 6);
          cairo_fill (cr);
        }
    }
}

/* A row's label area: stripe, indent, expander triangle, columns; the
 * keyboard row framed. */
static void
draw_label (TtvTimelineView *self, cairo_t *cr, const TimelineLayout *l, const TtvTimelineRow *r,
            gint index, double y)
{
  double x[16], w[16];
  guint n = ttv_timeline_view_column_layout (self, l->label, x, w);
  double tx = 4 + r->depth * TTV_TIMELINE_INDENT;
  double baseline = y + TTV_TIMELINE_ROW_HEIGHT - 5;

  /* Striped so that rows can be told (and counted). */
  if (index % 2 == 0)
    cairo_set_source_rgb (cr, 230 / 255.0, 230 / 255.0, 230 / 255.0);
  else
    cairo_set_source_rgb (cr, 247 / 255.0, 247 / 255.0, 247 / 255.0);
  cairo_rectangle (cr, 0, y, l->label, TTV_TIMELINE_ROW_HEIGHT);
  cairo_fill (cr);
  /* The tab's selected thread (what the critical path and the latency
   * views follow), tinted in the selection's colour. */
  if (r->kind == TTV_VIEWER_ROW_PROCESS && self->history)
    {
      const TtvViewerRowInfo *info = ttv_viewer_history_get_row (self->history, r->kind, r->row);
      if (info && info->id != 0 && info->id == ttv_tab_state_get_selected_thread (self->state)
          && info->machine == ttv_tab_state_get_selected_machine (self->state))
        {
          cairo_set_source_rgba (cr, self->sel_color[0], self->sel_color[1], self->sel_color[2], 0.35);
          cairo_rectangle (cr, 0, y, l->label, TTV_TIMELINE_ROW_HEIGHT);
          cairo_fill (cr);
        }
    }
  cairo_save (cr);
  cairo_rectangle (cr, 0, y, MAX (w[0] - 2, 1), TTV_TIMELINE_ROW_HEIGHT);
  cairo_clip (cr);
  if (r->expander != TTV_TIMELINE_EXPANDER_NONE)
    {
      double cx = tx + TTV_TIMELINE_EXPANDER_WIDTH / 2.0 - 2, cy = y + TTV_TIMELINE_ROW_HEIGHT / 2.0;

      cairo_set_source_rgb (cr, 0.25, 0.25, 0.25);
      if (r->expander == TTV_TIMELINE_EXPANDER_COLLAPSED)
        {
          cairo_move_to (cr, cx - 3, cy - 5);
          cairo_line_to (cr, cx + 3, cy);
          cairo_line_to (cr, cx - 3, cy + 5);
        }
      else
        {
          cairo_move_to (cr, cx - 5, cy - 3);
          cairo_line_to (cr, cx + 5, cy - 3);
          cairo_line_to (cr, cx, cy + 3);
        }
      cairo_close_path (cr);
      cairo_fill (cr);
    }
  /* In a tree, every row keeps the triangles' column: names align. */
  if (self->has_tree)
    tx += TTV_TIMELINE_EXPANDER_WIDTH;
  cairo_set_source_rgb (cr, 0.1, 0.1, 0.1);
  cairo_move_to (cr, tx, baseline);
  ttv_view_show_text (cr, r->label);
  cairo_restore (cr);
  if (n > 1)
    {
      g_auto (GStrv) cells = ttv_timeline_row_dup_cells (r);

      for (guint i = 1; i < n && cells && i - 1 < g_strv_length (cells); i++)
        {
          cairo_set_source_rgb (cr, 0.2, 0.2, 0.2);
          show_text_in (cr, cells[i - 1], x[i], w[i], baseline, g_array_index (self->columns, Column, i).numeric);
        }
    }
  if (r->pinned)
    {
      /* A pinned row: a bar at its left edge, and a line under the last one. */
      const TtvTimelineRow *next = (guint) index + 1 < self->rows->len ? self->rows->pdata[index + 1] : NULL;

      cairo_set_source_rgb (cr, 0.35, 0.35, 0.35);
      cairo_rectangle (cr, 0, y + 2, 3, TTV_TIMELINE_ROW_HEIGHT - 4);
      cairo_fill (cr);
      if (!next || !next->pinned)
        {
          cairo_rectangle (cr, 0, y + TTV_TIMELINE_ROW_HEIGHT - 1, l->label, 1);
          cairo_fill (cr);
        }
    }
  if (index == self->cursor && self->focused)
    {
      /* Inside the stripe's edge, so that the stripe colour stays countable. */
      cairo_set_source_rgb (cr, 0.2, 0.4, 0.9);
      cairo_set_line_width (cr, 1);
      cairo_rectangle (cr, 2.5, y + 0.5, l->label - 5, TTV_TIMELINE_ROW_HEIGHT - 1);
      cairo_stroke (cr);
    }
}

/* --- States ------------------------------------------------------------------- */

/* How much a process state says about its process, for a collapsed row:
 * running beats waiting for a CPU beats blocked, so that a pixel shows
 * the busiest thread. */
static guint
state_weight (guint16 state)
{
  if (state == TTV_VIEWER_STATE_NONE)
    return 0;
  switch ((TtvViewerProcessStatus) ttv_viewer_state_low (state))
    {
    case TTV_VIEWER_PROCESS_RUN: return 7;
    case TTV_VIEWER_PROCESS_WAIT_CPU: return 6;
    case TTV_VIEWER_PROCESS_WAIT_FORK: return 5;
    case TTV_VIEWER_PROCESS_WAIT: return 4;
    case TTV_VIEWER_PROCESS_ZOMBIE: return 3;
    case TTV_VIEWER_PROCESS_EXIT: return 2;
    case TTV_VIEWER_PROCESS_DEAD: return 0;
    default: return 1;
    }
}

/* The @w pixels of row @row across the plot: each linear piece of the
 * scale queried evenly over its pixels, a compressed gap left empty
 * (ttv_viewer_draw_time_gaps() marks it). */
static void
query_pixels (TtvTimelineView *self, const TimelineLayout *l, TtvViewerRowKind kind, guint row, guint w,
              TtvViewerPixel *px)
{
  const TtvTimeScale *scale = &l->scale;

  if (ttv_time_scale_is_linear (scale))
    {
      ttv_viewer_history_query_pixels (self->history, kind, row, l->t0, l->t1, w, px);
      return;
    }
  for (guint j = 0; j < w; j++)
    px[j] = (TtvViewerPixel) { .state = TTV_VIEWER_STATE_NONE };
  for (guint i = 0; i < scale->n_pieces; i++)
    {
      const TtvTimeScalePiece *p = &scale->pieces[i];
      guint a, b;

      if (ttv_time_scale_get_piece_columns (scale, i, &a, &b))
        ttv_viewer_history_query_pixels (self->history, kind, row, p->t0, p->t1, MIN (b, w) - MIN (a, w),
                                         px + MIN (a, w));
    }
}

/* A collapsed process row shows its threads combined, not the leader's
 * own state: a server's leader often sleeps in poll() while its workers
 * run, and the collapsed row must not look idle then.  Per pixel, the
 * busiest state of the group (state_weight); O(width) per thread. */
static void
merge_pixels (TtvTimelineView *self, const TtvTimelineRow *r, const TimelineLayout *l, guint w,
              TtvViewerPixel *px)
{
  g_autofree TtvViewerPixel *other = g_new (TtvViewerPixel, MAX (w, 1));

  for (guint m = 0; m < r->merged->len; m++)
    {
      query_pixels (self, l, r->kind, g_array_index (r->merged, guint, m), w, other);
      for (guint x = 0; x < w; x++)
        {
          if (other[x].state != TTV_VIEWER_STATE_NONE && px[x].state != TTV_VIEWER_STATE_NONE
              && other[x].state != px[x].state)
            px[x].n_states = MAX (px[x].n_states, 2);
          if (state_weight (other[x].state) > state_weight (px[x].state))
            px[x].state = other[x].state;
          px[x].n_states = MAX (px[x].n_states, other[x].n_states);
          px[x].n_events += other[x].n_events;
        }
    }
}

static gboolean
is_resource_kind (TtvViewerRowKind kind)
{
  return kind == TTV_VIEWER_ROW_IRQ || kind == TTV_VIEWER_ROW_SOFTIRQ || kind == TTV_VIEWER_ROW_BLOCKDEV;
}

/* Whether a pixel needs a mark for what its dominant state hides (an
 * IRQ row active for all of it needs none). */
static gboolean
hides_activity (TtvViewerRowKind kind, const TtvViewerPixel *px)
{
  TtvPaletteColor color;

  if (!ttv_timeline_pixel_is_mixed (kind, px))
    return FALSE;
  return !is_resource_kind (kind) || !ttv_timeline_color_of_state (kind, FALSE, px->state, &color);
}

/* Runs of pixels drawn alike: the dominant state's colour over the bar;
 * IRQ, soft IRQ and disk rows show any activity (a thinner bar where it
 * is not dominant); other rows mark mixed pixels at the bar's bottom. */
static void
draw_states (TtvTimelineView *self, cairo_t *cr, const TimelineLayout *l, const TtvTimelineRow *r,
             gboolean idle_task, const TtvViewerPixel *px, guint w, double y)
{
  double top = y + TTV_TIMELINE_BAR_INSET, bar = TTV_TIMELINE_ROW_HEIGHT - 2 * TTV_TIMELINE_BAR_INSET;
  gboolean resource = is_resource_kind (r->kind);
  guint x = 0;

  while (x < w)
    {
      guint end = x + 1;
      TtvPaletteColor color;

      while (end < w && px[end].state == px[x].state)
        end++;
      if (ttv_timeline_color_of_state (r->kind, idle_task, px[x].state, &color))
        {
          set_rgb (cr, self->colors[color]);
          cairo_rectangle (cr, l->label + x, top, end - x, bar);
          cairo_fill (cr);
        }
      x = end;
    }
  /* Mixed pixels, as runs, in one path (one colour). */
  {
    TtvPaletteColor color = TTV_PALETTE_MIXED;
    gboolean any = FALSE;

    if (resource)
      ttv_timeline_color_of_state (r->kind, FALSE, 1, &color);
    for (x = 0; x < w;)
      {
        guint end;

        if (!hides_activity (r->kind, &px[x]))
          {
            x++;
            continue;
          }
        for (end = x + 1; end < w && hides_activity (r->kind, &px[end]); end++)
          ;
        /* Resources: active within the pixel, a thinner bar of the active
         * colour; others: the strip at the bar's bottom. */
        if (resource)
          cairo_rectangle (cr, l->label + x, top + bar / 4, end - x, bar / 2);
        else
          cairo_rectangle (cr, l->label + x, top + bar - TTV_TIMELINE_MIXED_HEIGHT, end - x,
                           TTV_TIMELINE_MIXED_HEIGHT);
        any = TRUE;
        x = end;
      }
    if (any)
      {
        set_rgb (cr, self->colors[color]);
        cairo_fill (cr);
      }
  }
}

/* The name of @iv's task, centred in [@a, @b] (clipped to it); FALSE when
 * it has none. */
static gboolean
draw_cpu_name (TtvTimelineView *self, cairo_t *cr, const TtvViewerRowInfo *info, const TtvViewerInterval *iv,
               double a, double b, double y)
{
  gint prow = ttv_viewer_history_find_process (self->history, info->machine, iv->aux, (gint) info->id,
                                               iv->start);
  const char *name = prow >= 0 ? ttv_viewer_history_get_process_name_at (self->history, (guint) prow, iv->start)
                               : NULL;
  cairo_text_extents_t ext;

  if (!name || !*name)
    return FALSE;
  ttv_view_text_extents (cr, name, &ext);
  cairo_save (cr);
  cairo_rectangle (cr, a + 1, y, b - a - 2, TTV_TIMELINE_ROW_HEIGHT);
  cairo_clip (cr);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_move_to (cr, a + MAX ((b - a - ext.x_advance) / 2, 2), y + TTV_TIMELINE_ROW_HEIGHT / 2.0 + 3);
  ttv_view_show_text (cr, name);
  cairo_restore (cr);
  return TRUE;
}

/* On a CPU row, the name of the task in each busy interval at least
 * NAME_MIN_WIDTH pixels wide, at any zoom and whatever the rest of the trace
 * looks like: the row is probed every half of that width (an interval that
 * wide holds a probe), jumping over each interval found, so a redraw costs
 * O(width) lookups however many intervals the window holds. */
static void
draw_cpu_names (TtvTimelineView *self, cairo_t *cr, const TimelineLayout *l, const TtvTimelineRow *r,
                double y)
{
  const TtvViewerRowInfo *info = ttv_viewer_history_get_row (self->history, r->kind, r->row);
  TtvTime named = TTV_TIME_MIN;      /* start of the interval named last */

  if (!info)
    return;
  cairo_save (cr);
  cairo_set_font_size (cr, 9);
  for (double x = l->label; x < l->width;)
    {
      TtvViewerInterval iv;
      double a, b;

      if (!ttv_viewer_history_get_interval_at (self->history, r->kind, r->row, ttv_timeline_time_of_x (l, x), &iv))
        {
          x += NAME_MIN_WIDTH / 2.0;
          continue;
        }
      a = MAX (ttv_timeline_x_of_time (l, iv.start), l->label);
      b = MIN (ttv_timeline_x_of_time (l, iv.end), l->width);
      if (ttv_viewer_state_low (iv.state) == TTV_VIEWER_CPU_BUSY && iv.aux != TTV_VIEWER_PID_NONE
          && b - a >= NAME_MIN_WIDTH && iv.start != named)
        {
          self->n_cpu_names_drawn += draw_cpu_name (self, cr, info, &iv, a, b, y);
          named = iv.start;
        }
      x = MAX (x + NAME_MIN_WIDTH / 2.0, b);
    }
  cairo_restore (cr);
}

/* --- Marks and arrows --------------------------------------------------------- */

typedef struct {
  guint index;                 /* display row */
  GArray *marks;               /* owned, of TtvViewerMark */
} RowMarks;

static void
row_marks_clear (gpointer data)
{
  RowMarks *rm = data;

  g_clear_pointer (&rm->marks, g_array_unref);
}

/* The marks of a visible process row, unless too dense to tell apart
 * (estimated from the row's total first: a frame stays O(width)). */
static GArray *
query_marks (TtvTimelineView *self, const TimelineLayout *l, const TtvTimelineRow *r, gboolean *too_dense)
{
  const TtvViewerRowInfo *info = ttv_viewer_history_get_row (self->history, r->kind, r->row);
  GArray *marks;
  TtvTime life, seen;

  *too_dense = FALSE;
  if (!info || info->n_marks == 0)
    return NULL;
  life = MAX (info->end - info->birth, 1);
  seen = MIN (l->t1, info->end) - MAX (l->t0, info->birth);
  if (seen < 0)
    return NULL;
  if ((double) info->n_marks * ((double) seen / (double) life) * MARK_SPACING > 4 * l->plot)
    {
      *too_dense = TRUE;
      return NULL;
    }
  marks = ttv_viewer_history_query_marks (self->history, r->row, l->t0, l->t1);
  if (marks && marks->len * MARK_SPACING > l->plot)
    {
      *too_dense = TRUE;
      g_clear_pointer (&marks, g_array_unref);
    }
  return marks;
}

static TtvPaletteColor
mark_color (TtvViewerMarkKind kind)
{
  switch (kind)
    {
    case TTV_VIEWER_MARK_FORK: return TTV_PALETTE_MARK_FORK;
    case TTV_VIEWER_MARK_EXEC: return TTV_PALETTE_MARK_EXEC;
    case TTV_VIEWER_MARK_EXIT: return TTV_PALETTE_MARK_EXIT;
    default: return TTV_PALETTE_WAKEUP;
    }
}

static void
draw_marks (TtvTimelineView *self, cairo_t *cr, const TimelineLayout *l, const GArray *marks, double y)
{
  for (guint i = 0; i < marks->len; i++)
    {
      const TtvViewerMark *m = &g_array_index (marks, TtvViewerMark, i);
      double x = floor (ttv_timeline_x_of_time (l, m->time)) + 0.5;

      set_rgb (cr, self->colors[mark_color (m->kind)]);
      cairo_move_to (cr, x - 3, y);
      cairo_line_to (cr, x + 3, y);
      cairo_line_to (cr, x, y + TTV_TIMELINE_BAR_INSET);
      cairo_close_path (cr);
      cairo_fill (cr);
    }
}

/* When the woken (or forked) row next runs from @from: the start of its
 * next running interval (@from itself when it already runs) and its CPU,
 * or -1. */
static TtvTime
next_run (TtvTimelineView *self, guint row, TtvTime from, TtvTime limit, gint *cpu)
{
  TtvViewerInterval iv;
  TtvTime t = from;

  *cpu = -1;
  for (guint step = 0; step < 32 && t <= limit; step++)
    {
      if (!ttv_viewer_history_get_interval_at (self->history, TTV_VIEWER_ROW_PROCESS, row, t, &iv))
        return -1;
      if (ttv_viewer_state_low (iv.state) == TTV_VIEWER_PROCESS_RUN)
        {
          *cpu = iv.cpu;
          return MAX (iv.start, from);
        }
      if (iv.end <= t)
        return -1;
      t = iv.end;
    }
  return -1;
}

static gint
idle_task_row (TtvTimelineView *self, guint machine, gint cpu)
{
  for (guint i = 0; i < self->rows->len; i++)
    {
      const TtvTimelineRow *r = self->rows->pdata[i];
      const TtvViewerRowInfo *info = r->kind == TTV_VIEWER_ROW_PROCESS
                                      ? ttv_viewer_history_get_row (self->history, r->kind, r->row)
                                      : NULL;

      if (info && ttv_timeline_is_idle_task (info) && info->cpu == cpu && info->machine == machine)
        return (gint) i;
    }
  return -1;
}

/* The display row of the process that woke or forked at @time.  Pid 0 is
 * ambiguous (one idle task per CPU): the idle task of the CPU the woken
 * task runs on next if that CPU idled then (an interrupt on an idle CPU
 * wakes a task there), else of the only CPU that idled. */
static gint
source_row (TtvTimelineView *self, guint machine, guint32 pid, TtvTime time, gint run_cpu)
{
  guint found = 0, n_cpus;
  gint idle_cpu = -1;

  if (pid == TTV_VIEWER_PID_NONE)
    return -1;
  if (pid != 0)
    return ttv_timeline_view_find_pid_row (self, machine, pid);
  n_cpus = ttv_viewer_history_get_n_rows (self->history, TTV_VIEWER_ROW_CPU);
  for (guint c = 0; c < n_cpus; c++)
    {
      TtvViewerInterval iv;
      const TtvViewerRowInfo *cpu = ttv_viewer_history_get_row (self->history, TTV_VIEWER_ROW_CPU, c);

      if (cpu->machine != machine)
        continue;
      if (ttv_viewer_history_get_interval_at (self->history, TTV_VIEWER_ROW_CPU, c, time, &iv)
          && ttv_viewer_state_low (iv.state) == TTV_VIEWER_CPU_IDLE)
        {
          if ((gint) cpu->id == run_cpu)
            return idle_task_row (self, machine, run_cpu);
          idle_cpu = (gint) cpu->id;
          found++;
        }
    }
  return found == 1 ? idle_task_row (self, machine, idle_cpu) : -1;
}

static void
draw_arrow (cairo_t *cr, double x0, double y0, double x1, double y1)
{
  double dx = x1 - x0, dy = y1 - y0, len = sqrt (dx * dx + dy * dy), ux, uy;

  if (len < 1)
    return;
  ux = dx / len;
  uy = dy / len;
  cairo_move_to (cr, x0, y0);
  cairo_line_to (cr, x1 - ux * 5, y1 - uy * 5);
  cairo_stroke (cr);
  cairo_move_to (cr, x1, y1);
  cairo_line_to (cr, x1 - ux * 7 - uy * 3.5, y1 - uy * 7 + ux * 3.5);
  cairo_line_to (cr, x1 - ux * 7 + uy * 3.5, y1 - uy * 7 - ux * 3.5);
  cairo_close_path (cr);
  cairo_fill (cr);
  /* The source: a dot on the waker's row. */
  cairo_arc (cr, x0, y0, 1.8, 0, 2 * G_PI);
  cairo_fill (cr);
}

/* The arrows into display row @index from its wakeup and fork @marks;
 * how many were drawn. */
static guint
draw_row_arrows (TtvTimelineView *self, cairo_t *cr, const TimelineLayout *l, guint index, const GArray *marks)
{
  const TtvTimelineRow *r = self->rows->pdata[index];
  const TtvViewerRowInfo *info = ttv_viewer_history_get_row (self->history, r->kind, r->row);
  double yt = l->header + index * TTV_TIMELINE_ROW_HEIGHT - l->scroll + TTV_TIMELINE_ROW_HEIGHT / 2.0;
  guint drawn = 0;

  for (guint k = 0; k < marks->len; k++)
    {
      const TtvViewerMark *m = &g_array_index (marks, TtvViewerMark, k);
      gint from, cpu;
      TtvTime run;
      double yf, x0, x1;

      if ((m->kind != TTV_VIEWER_MARK_WAKEUP && m->kind != TTV_VIEWER_MARK_FORK)
          || m->other == TTV_VIEWER_PID_NONE)
        continue;
      run = next_run (self, r->row, m->time, l->t1 + (l->t1 - l->t0), &cpu);
      from = source_row (self, info ? info->machine : 0, m->other, m->time, cpu);
      if (from < 0 || (guint) from == index)
        continue;
      yf = l->header + from * TTV_TIMELINE_ROW_HEIGHT - l->scroll + TTV_TIMELINE_ROW_HEIGHT / 2.0;
      x0 = ttv_timeline_x_of_time (l, m->time);
      x1 = ttv_timeline_x_of_time (l, run >= 0 ? run : m->time);
      /* Off the right edge: the line leaves the plot towards the run. */
      x1 = MIN (x1, l->width + 50);
      set_rgb (cr, self->colors[m->kind == TTV_VIEWER_MARK_FORK ? TTV_PALETTE_MARK_FORK : TTV_PALETTE_WAKEUP]);
      draw_arrow (cr, x0, yf, x1, yt + (yt > yf ? -3 : 3));
      drawn++;
    }
  return drawn;
}

/* Arrows from the waker's (parent's) row at the wakeup (fork) to the
 * woken (child) row where it next runs, when few enough are visible. */
static void
draw_arrows (TtvTimelineView *self, cairo_t *cr, const TimelineLayout *l, const GArray *visible)
{
  guint n = 0;

  for (guint i = 0; i < visible->len; i++)
    {
      const RowMarks *rm = &g_array_index (visible, RowMarks, i);

      for (guint k = 0; k < rm->marks->len; k++)
        {
          const TtvViewerMark *m = &g_array_index (rm->marks, TtvViewerMark, k);

          n += (m->kind == TTV_VIEWER_MARK_WAKEUP || m->kind == TTV_VIEWER_MARK_FORK)
               && m->other != TTV_VIEWER_PID_NONE;
        }
    }
  if (n == 0 || n > MAX_ARROWS || n * ARROW_SPACING > l->plot)
    return;
  cairo_save (cr);
  cairo_rectangle (cr, l->label, l->header, l->plot, MAX (l->height - l->header, 0));
  cairo_clip (cr);
  cairo_set_line_width (cr, 1.2);
  for (guint i = 0; i < visible->len; i++)
    {
      const RowMarks *rm = &g_array_index (visible, RowMarks, i);

      self->n_arrows_drawn += draw_row_arrows (self, cr, l, rm->index, rm->marks);
    }
  cairo_restore (cr);
}

/* The selected thread's wakeup and fork arrows, thicker, drawn whenever
 * they are few enough to tell apart, however many the other rows have
 * (who woke this thread, when: Trace Compass's and LTTV's question). */
static void
draw_thread_arrows (TtvTimelineView *self, cairo_t *cr, const TimelineLayout *l)
{
  guint32 tid = ttv_tab_state_get_selected_thread (self->state);
  gint index = tid != TTV_VIEWER_PID_NONE && tid != 0
                 ? ttv_timeline_view_find_pid_row (self, ttv_tab_state_get_selected_machine (self->state), tid)
                 : -1;
  const TtvTimelineRow *r;
  g_autoptr (GArray) marks = NULL;
  guint n = 0;

  if (index < 0)
    return;
  r = self->rows->pdata[index];
  marks = ttv_viewer_history_query_marks (self->history, r->row, l->t0, l->t1);
  for (guint k = 0; marks && k < marks->len; k++)
    n += g_array_index (marks, TtvViewerMark, k).kind == TTV_VIEWER_MARK_WAKEUP
         || g_array_index (marks, TtvViewerMark, k).kind == TTV_VIEWER_MARK_FORK;
  if (n == 0 || n > MAX_ARROWS || n * 2 > l->plot)
    return;
  cairo_save (cr);
  cairo_rectangle (cr, l->label, l->header, l->plot, MAX (l->height - l->header, 0));
  cairo_clip (cr);
  cairo_set_line_width (cr, 2.2);
  self->n_thread_arrows_drawn = draw_row_arrows (self, cr, l, (guint) index, marks);
  cairo_restore (cr);
}

/* --- Header overlays ------------------------------------------------------------- */

static void
draw_status (TtvTimelineView *self, cairo_t *cr, double width, double height)
{
  cairo_text_extents_t ext;

  if (!self->status || !*self->status)
    return;
  cairo_set_font_size (cr, 11);
  ttv_view_text_extents (cr, self->status, &ext);
  cairo_set_source_rgba (cr, 1, 1, 0.85, 0.95);
  cairo_rectangle (cr, width - ext.x_advance - 16, height - 20, ext.x_advance + 12, 18);
  cairo_fill (cr);
  cairo_set_source_rgb (cr, 0.2, 0.2, 0.2);
  cairo_move_to (cr, width - ext.x_advance - 10, height - 7);
  ttv_view_show_text (cr, self->status);
}

/* The selection: its edges over the rows and a tint in the ruler band
 * only, so that the states inside stay readable. */
static void
draw_selection (TtvTimelineView *self, cairo_t *cr, const TimelineLayout *l)
{
  TtvTime s0, s1;
  double a, b, ruler = l->header - TTV_TIMELINE_RULER_HEIGHT;

  if (!ttv_tab_state_get_selection (self->state, &s0, &s1) || s1 < l->t0 || s0 > l->t1)
    return;
  a = ttv_timeline_x_of_time (l, MAX (s0, l->t0));
  b = ttv_timeline_x_of_time (l, MIN (s1, l->t1));
  cairo_set_source_rgba (cr, self->sel_color[0], self->sel_color[1], self->sel_color[2], 0.3);
  cairo_rectangle (cr, a, ruler, MAX (b - a, 1), TTV_TIMELINE_RULER_HEIGHT);
  cairo_fill (cr);
  cairo_set_source_rgba (cr, self->sel_color[0], self->sel_color[1], self->sel_color[2], 0.7);
  if (s0 >= l->t0)
    cairo_rectangle (cr, floor (a), ruler, 1, l->height - ruler);
  if (s1 <= l->t1)
    cairo_rectangle (cr, MAX (floor (b) - 1, floor (a)), ruler, 1, l->height - ruler);
  cairo_fill (cr);
}

/* The bookmarks in the window: a line and a flag on the ruler at a point
 * in time, a band between two lines for an interval. */
static void
draw_bookmarks (TtvTimelineView *self, cairo_t *cr, const TimelineLayout *l)
{
  GPtrArray *bookmarks = ttv_tab_state_get_bookmarks (self->state);
  double ruler = l->header - TTV_TIMELINE_RULER_HEIGHT;
  const double *c = self->bookmark_color;

  for (guint i = 0; bookmarks && i < bookmarks->len; i++)
    {
      const TtvViewerBookmark *b = bookmarks->pdata[i];
      double a, z;
      if (b->end < l->t0 || b->start > l->t1)
        continue;
      a = floor (ttv_timeline_x_of_time (l, MAX (b->start, l->t0)));
      z = floor (ttv_timeline_x_of_time (l, MIN (b->end, l->t1)));
      if (b->end > b->start)
        {
          cairo_set_source_rgba (cr, c[0], c[1], c[2], 0.12);
          cairo_rectangle (cr, a, ruler, MAX (z - a, 1), l->height - ruler);
          cairo_fill (cr);
        }
      cairo_set_source_rgba (cr, c[0], c[1], c[2], 0.9);
      if (b->start >= l->t0)
        {
          cairo_rectangle (cr, a, ruler, 1, l->height - ruler);
          cairo_move_to (cr, a, ruler);
          cairo_rel_line_to (cr, 7, 3.5);
          cairo_rel_line_to (cr, -7, 3.5);
          cairo_close_path (cr);
        }
      if (b->end > b->start && b->end <= l->t1)
        cairo_rectangle (cr, z, ruler, 1, l->height - ruler);
      cairo_fill (cr);
    }
}

static void
draw_header (TtvTimelineView *self, cairo_t *cr, const TimelineLayout *l)
{
  double ruler = l->header - TTV_TIMELINE_RULER_HEIGHT;
  g_autoptr (GArray) lost = ttv_tab_state_dup_lost_events (self->state, l->t0, l->t1);

  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_rectangle (cr, 0, 0, l->width, ruler);
  cairo_fill (cr);
  layout_legend (self, cr, TRUE, l->width);
  cairo_set_source_rgb (cr, 0.93, 0.93, 0.93);
  cairo_rectangle (cr, 0, ruler, l->width, TTV_TIMELINE_RULER_HEIGHT);
  cairo_fill (cr);
  draw_titles (self, cr, l, ruler);
  {
    GString *labels = g_string_new (NULL);

    ttv_view_axis_draw_scale (cr, &l->scale, ruler, TTV_TIMELINE_RULER_HEIGHT, ttv_timeline_view_origin (self),
                              labels);
    g_free (self->ruler_labels);
    self->ruler_labels = g_string_free (labels, FALSE);
  }
  /* Lost events: marks along the ruler's bottom. */
  ttv_view_axis_draw_lost_scale (cr, lost, &l->scale, l->header - 4, 4, self->colors[TTV_PALETTE_LOST_EVENTS]);
  /* The label area's edge, which the pointer drags. */
  cairo_set_source_rgb (cr, 0.7, 0.7, 0.7);
  cairo_rectangle (cr, l->label - 1, ruler, 1, TTV_TIMELINE_RULER_HEIGHT);
  cairo_fill (cr);
}

/* A machine's header row: its name in bold on a band across the view. */
static void
draw_machine_row (cairo_t *cr, const TimelineLayout *l, const TtvTimelineRow *r, double y)
{
  cairo_set_source_rgb (cr, 0.80, 0.85, 0.93);
  cairo_rectangle (cr, 0, y, l->width, TTV_TIMELINE_ROW_HEIGHT);
  cairo_fill (cr);
  cairo_set_source_rgb (cr, 0.45, 0.52, 0.65);
  cairo_rectangle (cr, 0, y + TTV_TIMELINE_ROW_HEIGHT - 1, l->width, 1);
  cairo_fill (cr);
  cairo_save (cr);
  cairo_rectangle (cr, 0, y, l->width, TTV_TIMELINE_ROW_HEIGHT);
  cairo_clip (cr);
  cairo_select_font_face (cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
  cairo_set_font_size (cr, 11);
  cairo_set_source_rgb (cr, 0.1, 0.1, 0.2);
  cairo_move_to (cr, 4, y + TTV_TIMELINE_ROW_HEIGHT - 5);
  ttv_view_show_text (cr, r->label);
  cairo_restore (cr);
}

void
ttv_timeline_view_draw (TtvTimelineView *self, cairo_t *cr, const TimelineLayout *l, double clip_y0,
                        double clip_y1)
{
  guint w = (guint) l->plot;
  g_autofree TtvViewerPixel *px = g_new (TtvViewerPixel, MAX (w, 1));
  g_autoptr (GArray) visible = g_array_new (FALSE, FALSE, sizeof (RowMarks));
  gboolean dense = FALSE;
  guint first;
  TtvTime now;

  g_array_set_clear_func (visible, row_marks_clear);
  self->n_arrows_drawn = 0;
  self->n_cpu_names_drawn = 0;
  self->n_thread_arrows_drawn = 0;
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  cairo_select_font_face (cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  if (!self->history)
    {
      draw_header (self, cr, l);
      cairo_set_source_rgb (cr, 0.4, 0.4, 0.4);
      cairo_set_font_size (cr, 12);
      cairo_move_to (cr, 8, l->header + 14);
      ttv_view_show_text (cr, _("Waiting for the state history…"));
      return;
    }

  cairo_save (cr);
  cairo_rectangle (cr, 0, l->header, l->width, MAX (l->height - l->header, 0));
  cairo_clip (cr);
  cairo_set_font_size (cr, 11);
  first = (guint) MAX (floor (l->scroll / TTV_TIMELINE_ROW_HEIGHT), 0);
  for (guint i = first; i < self->rows->len; i++)
    {
      const TtvTimelineRow *r = self->rows->pdata[i];
      const TtvViewerRowInfo *info = ttv_viewer_history_get_row (self->history, r->kind, r->row);
      gboolean idle_task = r->kind == TTV_VIEWER_ROW_PROCESS && info && ttv_timeline_is_idle_task (info);
      double y = l->header + (double) i * TTV_TIMELINE_ROW_HEIGHT - l->scroll;

      gboolean damaged = y + TTV_TIMELINE_ROW_HEIGHT > clip_y0 && y < clip_y1;

      if (y >= l->height)
        break;
      if (damaged && ttv_timeline_row_is_machine (r))
        draw_machine_row (cr, l, r, y);
      else if (damaged)
        {
          cairo_set_font_size (cr, 11);
          draw_label (self, cr, l, r, (gint) i, y);
          query_pixels (self, l, r->kind, r->row, w, px);
          if (r->merged && r->merged->len > 0)
            merge_pixels (self, r, l, w, px);
          draw_states (self, cr, l, r, idle_task, px, w, y);
          if (r->kind == TTV_VIEWER_ROW_CPU)
            draw_cpu_names (self, cr, l, r, y);
        }
      /* The marks of every visible row, damaged or not: the arrows (and
       * whether any is drawn) must not depend on what is redrawn. */
      if (r->kind == TTV_VIEWER_ROW_PROCESS)
        {
          gboolean too_dense;
          RowMarks rm = { i, query_marks (self, l, r, &too_dense) };

          dense |= too_dense;
          if (rm.marks)
            {
              if (damaged)
                draw_marks (self, cr, l, rm.marks, y);
              g_array_append_val (visible, rm);
            }
        }
    }
  cairo_restore (cr);
  /* Long idle gaps between traces, across every row. */
  ttv_viewer_draw_time_gaps (cr, &l->scale, l->header, MAX (l->height - l->header, 0));
  /* One dense row and arrows would be a part of the picture: none then. */
  if (self->show_arrows && !dense)
    draw_arrows (self, cr, l, visible);
  if (self->show_thread_arrows)
    draw_thread_arrows (self, cr, l);

  draw_header (self, cr, l);
  draw_bookmarks (self, cr, l);
  draw_selection (self, cr, l);
  now = ttv_tab_state_get_current_time (self->state);
  if (now >= l->t0 && now <= l->t1)
    {
      set_rgb (cr, self->now_color);
      cairo_rectangle (cr, floor (ttv_timeline_x_of_time (l, now)), l->header - TTV_TIMELINE_RULER_HEIGHT,
                       1, l->height);
      cairo_fill (cr);
    }
  draw_status (self, cr, l->width, l->height);
}
