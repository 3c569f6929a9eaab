/* ttv-memory-view.c: the memory view: the bytes each process has allocated
 * and not freed, over the tab's time window (per pixel the least and the
 * most, so that no spike hides at any zoom), and below it the potential
 * leaks (blocks never freed) by call site.  From the tab's memory
 * analysis.  Ctrl+wheel zooms, a drag pans, a click sets the current time,
 * a right drag selects; the tooltip gives each process's bytes in use
 * there.  The same painting serves ttv --render memory. */
#include "ttv-memory-view.h"
#include "ttv-view-text.h"

#include "ttv-time-gestures.h"
#include "ttv-userspace-common.h"
#include "ttv-view-axis.h"
#include "ttv-view-state.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#define RULER_HEIGHT 24
#define AXIS_WIDTH 70
#define LEGEND_HEIGHT 18

static const double process_colors[][3] = {
  { 0.12, 0.47, 0.71 }, { 0.89, 0.10, 0.11 }, { 0.20, 0.63, 0.17 }, { 1.00, 0.50, 0.00 },
  { 0.42, 0.24, 0.60 }, { 0.65, 0.34, 0.16 }, { 0.97, 0.51, 0.75 }, { 0.40, 0.40, 0.40 },
};

typedef struct {
  TtvTabState *state;
  TtvViewerMemory *memory;      /* may be NULL */
  TtvTime t0, t1;
  const char *message;
} Paint;

/* "prog [42]", after its machine's name when the tab has several. */
static char *
process_label (TtvTabState *state, TtvViewerMemory *memory, guint process)
{
  TtvViewerMemoryProcess proc;
  ttv_viewer_memory_get_process (memory, process, &proc);
  g_autofree char *label = proc.pid == TTV_VIEWER_PID_NONE ? g_strdup (*proc.name ? proc.name : "?")
                                                           : g_strdup_printf ("%s [%u]", proc.name, proc.pid);
  return ttv_userspace_dup_machine_label (state, proc.machine, label);
}

static void
paint_chart (const Paint *p, cairo_t *cr, int width, int height)
{
  double plot_x = AXIS_WIDTH, plot_y = RULER_HEIGHT + LEGEND_HEIGHT;
  guint plot_w = (guint) MAX (1, width - AXIS_WIDTH - 8);
  double plot_h = MAX (1, height - plot_y - 4);
  guint n = ttv_viewer_memory_get_n_processes (p->memory);
  g_autofree guint64 *lo = g_new (guint64, plot_w * MAX (n, 1));
  g_autofree guint64 *hi = g_new0 (guint64, plot_w * MAX (n, 1));
  /* Columns left unqueried (a gap's) are unknown, as outside a trace:
   * the least above the most. */
  memset (lo, 0xff, plot_w * MAX (n, 1) * sizeof *lo);
  guint64 top = 1;
  /* The tab's scale: each linear piece queried over its own columns. */
  TtvTimeScale scale;
  ttv_tab_state_get_time_scale (p->state, p->t0, MAX (p->t1, p->t0 + 1), plot_x, plot_w, &scale);
  for (guint i = 0; i < n; i++)
    {
      for (guint k = 0; k < scale.n_pieces; k++)
        {
          guint a, b;
          if (ttv_time_scale_get_piece_columns (&scale, k, &a, &b))
            ttv_viewer_memory_query_usage (p->memory, i, scale.pieces[k].t0, scale.pieces[k].t1, MIN (b, plot_w) - MIN (a, plot_w),
                                           lo + i * plot_w + MIN (a, plot_w), hi + i * plot_w + MIN (a, plot_w));
        }
      for (guint x = 0; x < plot_w; x++)
        top = MAX (top, hi[i * plot_w + x]);
    }
  /* A round scale: 1, 2 or 5 times a power of two's worth of bytes. */
  guint64 step = 1;
  while (step * 5 < top)
    step *= step < 1024 ? 2 : 4;
  guint64 max = (top + step - 1) / step * step;
  cairo_set_line_width (cr, 1);
  for (guint64 v = 0; v <= max; v += step)
    {
      double y = floor (plot_y + plot_h - (double) v / max * plot_h) + 0.5;
      cairo_set_source_rgb (cr, 0.88, 0.88, 0.88);
      cairo_move_to (cr, plot_x, y);
      cairo_line_to (cr, plot_x + plot_w, y);
      cairo_stroke (cr);
      g_autofree char *label = ttv_userspace_format_bytes (v);
      cairo_set_source_rgb (cr, 0.3, 0.3, 0.3);
      cairo_text_extents_t ext;
      ttv_view_text_extents (cr, label, &ext);
      cairo_move_to (cr, plot_x - ext.x_advance - 4, y + 4);
      ttv_view_show_text (cr, label);
    }
  double legend_x = plot_x;
  for (guint i = 0; i < n; i++)
    {
      const double *c = process_colors[i % G_N_ELEMENTS (process_colors)];
      for (guint x = 0; x < plot_w; x++)
        {
          if (lo[i * plot_w + x] > hi[i * plot_w + x])
            continue;           /* outside its trace: not known there */
          double y0 = plot_y + plot_h - (double) hi[i * plot_w + x] / max * plot_h;
          double y1 = plot_y + plot_h - (double) lo[i * plot_w + x] / max * plot_h;
          cairo_set_source_rgba (cr, c[0], c[1], c[2], 0.25);
          cairo_rectangle (cr, plot_x + x, y1, 1, plot_y + plot_h - y1);
          cairo_fill (cr);
          cairo_set_source_rgb (cr, c[0], c[1], c[2]);
          cairo_rectangle (cr, plot_x + x, y0, 1, MAX (1.5, y1 - y0));
          cairo_fill (cr);
        }
      TtvViewerMemoryProcess proc;
      ttv_viewer_memory_get_process (p->memory, i, &proc);
      g_autofree char *peak = ttv_userspace_format_bytes (proc.peak);
      g_autofree char *label = process_label (p->state, p->memory, i);
      /* TRANSLATORS: a process ("prog [42]"), then its most bytes in use ("2.5 MiB") */
      g_autofree char *name = g_strdup_printf (_("%s (peak %s)"), label, peak);
      cairo_set_source_rgb (cr, c[0], c[1], c[2]);
      cairo_rectangle (cr, legend_x, RULER_HEIGHT + 5, 10, 10);
      cairo_fill (cr);
      cairo_set_source_rgb (cr, 0.15, 0.15, 0.15);
      cairo_text_extents_t ext;
      ttv_view_text_extents (cr, name, &ext);
      cairo_move_to (cr, legend_x + 14, RULER_HEIGHT + 14);
      ttv_view_show_text (cr, name);
      legend_x += 24 + ext.x_advance;
    }
  /* Long idle gaps; the current time and the selection. */
  ttv_viewer_draw_time_gaps (cr, &scale, plot_y, plot_h);
  TtvTime s0, s1;
  GdkRGBA c;
  if (ttv_tab_state_get_selection (p->state, &s0, &s1) && s1 > p->t0 && s0 < p->t1)
    {
      ttv_viewer_get_marker_rgba (TTV_VIEWER_MARKER_SELECTION, &c);
      double a = ttv_time_scale_x_of_time (&scale, MAX (s0, p->t0)), b = ttv_time_scale_x_of_time (&scale, MIN (s1, p->t1));
      cairo_set_source_rgba (cr, c.red, c.green, c.blue, 0.18);
      cairo_rectangle (cr, a, plot_y, MAX (b - a, 1), plot_h);
      cairo_fill (cr);
    }
  TtvTime now = ttv_tab_state_get_current_time (p->state);
  if (now >= p->t0 && now <= p->t1)
    {
      ttv_viewer_get_marker_rgba (TTV_VIEWER_MARKER_CURRENT_TIME, &c);
      double x = floor (ttv_time_scale_x_of_time (&scale, now)) + 0.5;
      cairo_set_source_rgba (cr, c.red, c.green, c.blue, c.alpha);
      cairo_move_to (cr, x, plot_y);
      cairo_line_to (cr, x, plot_y + plot_h);
      cairo_stroke (cr);
    }
}

static void
paint (const Paint *p, cairo_t *cr, int width, int height)
{
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  cairo_select_font_face (cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size (cr, 11);
  TtvTime origin, end;
  ttv_tab_state_get_time_span (p->state, &origin, &end);
  if (p->t1 > p->t0)
    {
      TtvTimeScale scale;
      ttv_tab_state_get_time_scale (p->state, p->t0, MAX (p->t1, p->t0 + 1), AXIS_WIDTH, MAX (1, width - AXIS_WIDTH - 8),
                                    &scale);
      ttv_view_axis_draw_scale (cr, &scale, 0, RULER_HEIGHT, origin, NULL);
    }
  if (p->memory == NULL || ttv_viewer_memory_get_n_processes (p->memory) == 0 || p->t1 <= p->t0)
    {
      cairo_set_source_rgb (cr, 0.35, 0.35, 0.35);
      cairo_move_to (cr, 12, RULER_HEIGHT + 28);
      ttv_view_show_text (cr, p->message ? p->message : "");
      return;
    }
  paint_chart (p, cr, width, height);
}

/* --- The widget --------------------------------------------------------------------- */

enum { LEAK_PROCESS, LEAK_BLOCKS, LEAK_BYTES, LEAK_SITE, LEAK_WEIGHT, N_LEAK_COLS };

struct _TtvMemoryView {
  GtkBox parent_instance;

  TtvTabState *state;           /* owned reference */
  TtvViewerMemory *memory;      /* owned, NULL until the analysis is there */
  TtvUserspaceWait *wait;       /* owned */
  GtkWidget *area;
  GtkListStore *leaks;
  GtkLabel *status;
  gulong handlers[TTV_USERSPACE_TIME_VIEW_HANDLERS];
  TtvTimeGestures gestures;
};

G_DEFINE_FINAL_TYPE (TtvMemoryView, ttv_memory_view, GTK_TYPE_BOX)

static gboolean
draw (GtkWidget *area, cairo_t *cr, TtvMemoryView *self)
{
  Paint p = { self->state, self->memory, 0, 0, gtk_label_get_text (self->status) };
  ttv_tab_state_get_time_window (self->state, &p.t0, &p.t1);
  paint (&p, cr, gtk_widget_get_allocated_width (area), gtk_widget_get_allocated_height (area));
  return FALSE;
}

static void
fill_leaks (TtvMemoryView *self)
{
  gtk_list_store_clear (self->leaks);
  if (self->memory == NULL)
    return;
  g_autoptr (GArray) leaks = ttv_viewer_memory_dup_leaks (self->memory);
  guint64 kept = 0, kept_bytes = 0, blocks = 0, bytes = 0;
  for (guint i = 0; i < leaks->len; i++)
    {
      const TtvViewerLeak *l = &g_array_index (leaks, TtvViewerLeak, i);
      if (l->runtime)
        {
          kept += l->blocks;
          kept_bytes += l->bytes;
          continue;
        }
      blocks += l->blocks;
      bytes += l->bytes;
      g_autofree char *process = process_label (self->state, self->memory, l->process);
      GtkTreeIter it;
      g_autofree char *valid = NULL;
      gtk_list_store_insert_with_values (self->leaks, &it, -1, LEAK_PROCESS, ttv_view_valid_text (process, &valid),
                                         LEAK_BLOCKS, l->blocks,
                                         LEAK_BYTES, l->bytes, LEAK_SITE, l->site, LEAK_WEIGHT, PANGO_WEIGHT_NORMAL,
                                         -1);
    }
  g_autofree char *size = ttv_userspace_format_bytes (bytes);
  g_autofree char *kept_size = ttv_userspace_format_bytes (kept_bytes);
  g_autofree char *text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                        "Potential leaks: %" PRIu64 " block never freed (%s); "
                                                        "the loader and the tracer kept %" PRIu64 " (%s)",
                                                        "Potential leaks: %" PRIu64 " blocks never freed (%s); "
                                                        "the loader and the tracer kept %" PRIu64 " (%s)",
                                                        (gulong) MIN (blocks, G_MAXULONG)),
                                           blocks, size, kept, kept_size);
  gtk_label_set_text (self->status, text);
}

static void
analysis_ready (gpointer data)
{
  TtvMemoryView *self = data;
  g_clear_pointer (&self->memory, ttv_viewer_memory_unref);
  self->memory = ttv_tab_state_dup_memory (self->state);
  if (self->memory == NULL && ttv_tab_state_get_userspace_error (self->state, TTV_VIEWER_USERSPACE_MEMORY) == NULL)
    ttv_userspace_wait_start (self->wait);
  else if (self->memory && ttv_viewer_memory_get_n_processes (self->memory) == 0)
    gtk_label_set_text (self->status, _("No allocation in these traces: trace the program under "
                                        "LD_PRELOAD=liblttng-ust-libc-wrapper.so."));
  else if (self->memory)
    {
      fill_leaks (self);
      ttv_viewer_notify_first_paint (GTK_WIDGET (self), ttv_viewer_memory_get_n_processes (self->memory));
    }
  gtk_widget_queue_draw (self->area);
}

static TtvTime
time_at (TtvMemoryView *self, double x)
{
  return ttv_time_gestures_time_at (&self->gestures, self->area, x);
}

static gboolean
on_scroll (GtkWidget *area, GdkEventScroll *ev, TtvMemoryView *self)
{
  double dx = 0, dy = ev->direction == GDK_SCROLL_UP ? -1 : ev->direction == GDK_SCROLL_DOWN ? 1 : 0;
  if (ev->direction == GDK_SCROLL_SMOOTH)
    gdk_event_get_scroll_deltas ((GdkEvent *) ev, &dx, &dy);
  TtvTime t0, t1;
  ttv_tab_state_get_time_window (self->state, &t0, &t1);
  if (ev->state & GDK_CONTROL_MASK)
    ttv_time_gestures_zoom (&self->gestures, area, ev->x, dy);
  else
    {
      TtvTime shift = (TtvTime) ((dx != 0 ? dx : dy) * (double) (t1 - t0) / 10);
      ttv_tab_state_set_time_window (self->state, t0 + shift, t1 + shift);
    }
  return GDK_EVENT_STOP;
}

static gboolean
on_tooltip (GtkWidget *area, int x, int y, gboolean keyboard, GtkTooltip *tooltip, TtvMemoryView *self)
{
  if (self->memory == NULL || x < AXIS_WIDTH || ttv_viewer_memory_get_n_processes (self->memory) == 0)
    return FALSE;
  TtvTime at = time_at (self, x);
  g_autofree char *when = ttv_tab_state_format_time (self->state, at);
  g_autoptr (GString) text = g_string_new (when);
  for (guint i = 0; i < ttv_viewer_memory_get_n_processes (self->memory); i++)
    {
      TtvViewerMemoryProcess proc;
      ttv_viewer_memory_get_process (self->memory, i, &proc);
      if (at < proc.traced_from || at > proc.traced_to)
        continue;               /* not traced then: another capture's time */
      g_autofree char *name = process_label (self->state, self->memory, i);
      g_autofree char *bytes = ttv_userspace_format_bytes (ttv_viewer_memory_get_usage_at (self->memory, i, at));
      g_string_append_printf (text, _("\n%s: %s in use"), name, bytes);
    }
  ttv_view_set_tooltip_text (tooltip, text->str);
  return TRUE;
}

static void
redraw (TtvMemoryView *self)
{
  gtk_widget_queue_draw (self->area);
}

static void
traceset_changed (TtvMemoryView *self)
{
  g_clear_pointer (&self->memory, ttv_viewer_memory_unref);
  gtk_list_store_clear (self->leaks);
  ttv_userspace_wait_start (self->wait);
  redraw (self);
}

static void
ttv_memory_view_dispose (GObject *object)
{
  TtvMemoryView *self = TTV_MEMORY_VIEW (object);
  g_clear_pointer (&self->wait, ttv_userspace_wait_free);
  ttv_view_state_release (&self->state, self->handlers, G_N_ELEMENTS (self->handlers));
  g_clear_pointer (&self->memory, ttv_viewer_memory_unref);
  g_clear_object (&self->leaks);
  G_OBJECT_CLASS (ttv_memory_view_parent_class)->dispose (object);
}

static void
ttv_memory_view_class_init (TtvMemoryViewClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = ttv_memory_view_dispose;
}

static void
show_bytes (GtkTreeViewColumn *column, GtkCellRenderer *cell, GtkTreeModel *model, GtkTreeIter *it, gpointer data)
{
  guint64 bytes;
  gtk_tree_model_get (model, it, LEAK_BYTES, &bytes, -1);
  g_autofree char *text = ttv_userspace_format_bytes (bytes);
  g_object_set (cell, "text", text, NULL);
}

static void
ttv_memory_view_init (TtvMemoryView *self)
{
  static const char *const titles[] = { N_("Process"), N_("Blocks"), N_("Bytes"), N_("Allocated at") };
  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_VERTICAL);
  self->area = gtk_drawing_area_new ();
  gtk_widget_set_size_request (self->area, -1, 220);
  gtk_widget_set_has_tooltip (self->area, TRUE);
  gtk_widget_add_events (self->area, GDK_SCROLL_MASK | GDK_SMOOTH_SCROLL_MASK | GDK_BUTTON_PRESS_MASK
                                     | GDK_BUTTON_RELEASE_MASK | GDK_POINTER_MOTION_MASK);
  self->leaks = gtk_list_store_new (N_LEAK_COLS, G_TYPE_STRING, G_TYPE_UINT64, G_TYPE_UINT64, G_TYPE_STRING,
                                    G_TYPE_INT);
  GtkWidget *view = gtk_tree_view_new_with_model (GTK_TREE_MODEL (self->leaks));
  gtk_widget_set_name (view, "leaks-table");
  for (guint c = 0; c < G_N_ELEMENTS (titles); c++)
    {
      GtkCellRenderer *cell = gtk_cell_renderer_text_new ();
      GtkTreeViewColumn *column = gtk_tree_view_column_new_with_attributes (_(titles[c]), cell, NULL);
      if (c == LEAK_BYTES)
        gtk_tree_view_column_set_cell_data_func (column, cell, show_bytes, NULL, NULL);
      else
        gtk_tree_view_column_add_attribute (column, cell, "text", c);
      if (c == LEAK_BLOCKS || c == LEAK_BYTES)
        g_object_set (cell, "xalign", 1.0, NULL);
      gtk_tree_view_column_set_sort_column_id (column, (gint) c);
      gtk_tree_view_column_set_resizable (column, TRUE);
      gtk_tree_view_append_column (GTK_TREE_VIEW (view), column);
    }
  GtkWidget *scroll = gtk_scrolled_window_new (NULL, NULL);
  gtk_container_add (GTK_CONTAINER (scroll), view);
  GtkWidget *paned = gtk_paned_new (GTK_ORIENTATION_VERTICAL);
  gtk_paned_pack1 (GTK_PANED (paned), self->area, TRUE, FALSE);
  gtk_paned_pack2 (GTK_PANED (paned), scroll, TRUE, TRUE);
  gtk_box_pack_start (GTK_BOX (self), paned, TRUE, TRUE, 0);
  self->status = ttv_userspace_status_new (GTK_BOX (self));
  g_signal_connect (self->area, "draw", G_CALLBACK (draw), self);
  g_signal_connect (self->area, "scroll-event", G_CALLBACK (on_scroll), self);
  g_signal_connect (self->area, "button-press-event", G_CALLBACK (ttv_time_gestures_press), &self->gestures);
  g_signal_connect (self->area, "motion-notify-event", G_CALLBACK (ttv_time_gestures_motion), &self->gestures);
  g_signal_connect (self->area, "button-release-event", G_CALLBACK (ttv_time_gestures_release), &self->gestures);
  g_signal_connect (self->area, "query-tooltip", G_CALLBACK (on_tooltip), self);
}

GtkWidget *
ttv_memory_view_new (TtvTabState *state)
{
  TtvMemoryView *self = g_object_new (TTV_TYPE_MEMORY_VIEW, NULL);
  self->state = g_object_ref (state);
  ttv_time_gestures_init (&self->gestures, state, AXIS_WIDTH, 8);
  ttv_userspace_follow_time_view (state, self->handlers, G_CALLBACK (redraw), G_CALLBACK (traceset_changed), self);
  ttv_viewer_watch_marker_colors (self->area);
  self->wait = ttv_userspace_wait_new (state, TTV_VIEWER_USERSPACE_MEMORY, self->status, analysis_ready, self);
  analysis_ready (self);
  gtk_widget_show_all (GTK_WIDGET (self));
  return GTK_WIDGET (self);
}

gboolean
ttv_memory_view_render (TtvTabState *state, cairo_t *cr, int width, int height, GError **error)
{
  if (!ttv_tab_state_compute_userspace (state, TTV_VIEWER_USERSPACE_MEMORY, NULL, error))
    return FALSE;
  g_autoptr (TtvViewerMemory) memory = ttv_tab_state_dup_memory (state);
  Paint p = { state, memory, 0, 0, _("No allocation in these traces.") };
  ttv_tab_state_get_time_window (state, &p.t0, &p.t1);
  /* The chart above, the leaks below as lines of text. */
  int chart = memory && ttv_viewer_memory_get_n_processes (memory) ? height * 2 / 3 : height;
  cairo_save (cr);
  cairo_rectangle (cr, 0, 0, width, chart);
  cairo_clip (cr);
  paint (&p, cr, width, chart);
  cairo_restore (cr);
  if (chart == height)
    return TRUE;
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_rectangle (cr, 0, chart, width, height - chart);
  cairo_fill (cr);
  g_autoptr (GArray) leaks = ttv_viewer_memory_dup_leaks (memory);
  double y = chart + 18;
  cairo_set_source_rgb (cr, 0.1, 0.1, 0.1);
  cairo_select_font_face (cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
  ttv_userspace_show_text (cr, 8, y, width - 16, _("Potential leaks (blocks never freed), by call site:"));
  cairo_select_font_face (cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  for (guint i = 0; i < leaks->len && y + 16 < height; i++)
    {
      const TtvViewerLeak *l = &g_array_index (leaks, TtvViewerLeak, i);
      if (l->runtime)
        continue;
      y += 16;
      g_autofree char *process = process_label (state, memory, l->process);
      g_autofree char *bytes = ttv_userspace_format_bytes (l->bytes);
      g_autofree char *line = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s: %" PRIu64 " block, %s, at %s",
                                                            "%s: %" PRIu64 " blocks, %s, at %s",
                                                            (gulong) MIN (l->blocks, G_MAXULONG)),
                                               process, (guint64) l->blocks, bytes, l->site);
      ttv_userspace_show_text (cr, 16, y, width - 24, line);
    }
  return TRUE;
}
