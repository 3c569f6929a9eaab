/* ttv-flamegraph.c: the flame graph view: the calls of the selection (or
 * of the time window without one) aggregated by call path, each path a box
 * as wide as its time, its callees stacked on it, the processes at the
 * bottom.  Computed in a worker thread from the tab's call stack analysis.
 * A click on a box zooms to it (its ancestors full width below it), a
 * click at the bottom or Escape zooms out; the tooltip gives the path, its
 * calls, total and self time.  The same painting serves ttv --render
 * flamegraph. */
#include "ttv-flamegraph.h"
#include "ttv-view-text.h"

#include "ttv-callstacks-job.h"
#include "ttv-userspace-common.h"
#include "ttv-view-job.h"
#include "ttv-view-state.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <math.h>

#define ROW_HEIGHT 18
#define TITLE_HEIGHT 22

/* One graph: the nodes of an interval with their children, immutable. */
typedef struct {
  GArray *nodes;                /* of TtvViewerFlameNode, owned */
  GPtrArray *children;          /* per node: GArray of guint32 sorted by name, or NULL */
  GArray *roots;                /* of guint32 */
  TtvTime t0, t1;
  TtvTime total;                /* of the roots */
  guint max_depth;
} Graph;

static void
free_array (gpointer a)
{
  if (a)
    g_array_unref (a);
}

static void
graph_free (Graph *g)
{
  if (g == NULL)
    return;
  g_array_unref (g->nodes);
  g_ptr_array_unref (g->children);
  g_array_unref (g->roots);
  g_free (g);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Graph, graph_free)

static gint
compare_names (gconstpointer a, gconstpointer b, gpointer data)
{
  const GArray *nodes = data;
  return g_strcmp0 (g_array_index (nodes, TtvViewerFlameNode, *(const guint32 *) a).name,
                    g_array_index (nodes, TtvViewerFlameNode, *(const guint32 *) b).name);
}

static Graph *
graph_new (TtvViewerCallstacks *cs, TtvTime t0, TtvTime t1)
{
  Graph *g = g_new0 (Graph, 1);
  g->t0 = t0;
  g->t1 = t1;
  g->nodes = ttv_viewer_callstacks_dup_flame_graph (cs, t0, t1, NULL);
  g->children = g_ptr_array_new_full (g->nodes->len, free_array);
  g_ptr_array_set_size (g->children, g->nodes->len);
  g->roots = g_array_new (FALSE, FALSE, sizeof (guint32));
  for (guint32 i = 0; i < g->nodes->len; i++)
    {
      const TtvViewerFlameNode *n = &g_array_index (g->nodes, TtvViewerFlameNode, i);
      if (n->total <= 0)
        continue;
      g->max_depth = MAX (g->max_depth, n->depth);
      if (n->parent == TTV_VIEWER_NO_NODE)
        {
          g_array_append_val (g->roots, i);
          g->total += n->total;
          continue;
        }
      GArray *kids = g_ptr_array_index (g->children, n->parent);
      if (kids == NULL)
        kids = g->children->pdata[n->parent] = g_array_new (FALSE, FALSE, sizeof (guint32));
      g_array_append_val (kids, i);
    }
  for (guint i = 0; i < g->children->len; i++)
    if (g->children->pdata[i])
      g_array_sort_with_data (g->children->pdata[i], compare_names, g->nodes);
  g_array_sort_with_data (g->roots, compare_names, g->nodes);
  return g;
}

/* A box as drawn, for the pointer. */
typedef struct {
  double x, y, width;
  guint32 node;
} Box;

typedef struct {
  TtvTabState *state;
  const Graph *graph;           /* may be NULL */
  guint32 focus;                /* TTV_VIEWER_NO_NODE: the whole graph */
  const char *message;
  GArray *boxes;                /* of Box, may be NULL: filled while painting */
} Paint;

static void
paint_box (const Paint *p, cairo_t *cr, guint32 node, double x, double width, double bottom)
{
  const TtvViewerFlameNode *n = &g_array_index (p->graph->nodes, TtvViewerFlameNode, node);
  double y = bottom - (n->depth + 1) * ROW_HEIGHT;
  double rgb[3];
  if (n->function == TTV_VIEWER_NO_NODE)
    rgb[0] = 0.78, rgb[1] = 0.80, rgb[2] = 0.86;
  else
    ttv_userspace_function_rgb (n->function, rgb);
  cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
  cairo_rectangle (cr, x + 0.5, y + 0.5, MAX (width - 1, 0.5), ROW_HEIGHT - 1);
  cairo_fill (cr);
  if (width > 20)
    {
      cairo_set_source_rgb (cr, 0.1, 0.1, 0.1);
      ttv_userspace_show_text (cr, x + 3, y + ROW_HEIGHT - 5, width - 6, n->name);
    }
  if (p->boxes)
    {
      Box b = { x, y, width, node };
      g_array_append_val (p->boxes, b);
    }
}

static void
paint_subtree (const Paint *p, cairo_t *cr, guint32 node, double x, double width, double bottom)
{
  if (width < 0.5)
    return;
  paint_box (p, cr, node, x, width, bottom);
  const TtvViewerFlameNode *n = &g_array_index (p->graph->nodes, TtvViewerFlameNode, node);
  GArray *kids = g_ptr_array_index (p->graph->children, node);
  for (guint i = 0; kids && i < kids->len && n->total > 0; i++)
    {
      guint32 k = g_array_index (kids, guint32, i);
      double w = width * (double) g_array_index (p->graph->nodes, TtvViewerFlameNode, k).total / (double) n->total;
      paint_subtree (p, cr, k, x, w, bottom);
      x += w;
    }
}

static void
paint (const Paint *p, cairo_t *cr, int width, int height)
{
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  cairo_select_font_face (cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size (cr, 11);
  if (p->graph == NULL || p->graph->total <= 0)
    {
      cairo_set_source_rgb (cr, 0.35, 0.35, 0.35);
      cairo_move_to (cr, 12, 24);
      ttv_view_show_text (cr, p->message ? p->message : "");
      return;
    }
  g_autofree char *span = ttv_viewer_format_duration (p->graph->t1 - p->graph->t0);
  g_autofree char *total = ttv_viewer_format_duration (p->graph->total);
  g_autofree char *title = g_strdup_printf (_("Flame graph of %s: %s in calls (width: time, up: callees)"), span,
                                            total);
  cairo_set_source_rgb (cr, 0.2, 0.2, 0.2);
  ttv_userspace_show_text (cr, 8, 15, width - 16, title);
  double bottom = height - 2;
  if (p->focus != TTV_VIEWER_NO_NODE)
    {
      /* The focused path full width, its ancestors below it. */
      for (guint32 a = g_array_index (p->graph->nodes, TtvViewerFlameNode, p->focus).parent; a != TTV_VIEWER_NO_NODE;
           a = g_array_index (p->graph->nodes, TtvViewerFlameNode, a).parent)
        paint_box (p, cr, a, 0, width, bottom);
      paint_subtree (p, cr, p->focus, 0, width, bottom);
      return;
    }
  double x = 0;
  for (guint i = 0; i < p->graph->roots->len; i++)
    {
      guint32 r = g_array_index (p->graph->roots, guint32, i);
      double w = width * (double) g_array_index (p->graph->nodes, TtvViewerFlameNode, r).total / (double) p->graph->total;
      paint_subtree (p, cr, r, x, w, bottom);
      x += w;
    }
}

/* --- The widget ------------------------------------------------------------------- */

struct _TtvFlameGraph {
  GtkBox parent_instance;

  TtvTabState *state;           /* owned reference */
  TtvViewerCallstacks *cs;      /* owned, NULL until the analysis is there */
  TtvUserspaceWait *wait;       /* owned */
  Graph *graph;                 /* owned, NULL until built */
  GCancellable *building;       /* owned while a graph is built */
  guint32 focus;
  GArray *boxes;                /* of Box: the last painting's */
  GtkWidget *area;
  GtkLabel *status;
  gulong handlers[4];
};

G_DEFINE_FINAL_TYPE (TtvFlameGraph, ttv_flame_graph, GTK_TYPE_BOX)

static gboolean
draw (GtkWidget *area, cairo_t *cr, TtvFlameGraph *self)
{
  g_array_set_size (self->boxes, 0);
  Paint p = { self->state, self->graph, self->focus, gtk_label_get_text (self->status), self->boxes };
  paint (&p, cr, gtk_widget_get_allocated_width (area), gtk_widget_get_allocated_height (area));
  return FALSE;
}

static void
build_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancel)
{
  TtvCallstacksJob *job = data;
  g_task_return_pointer (task, graph_new (job->cs, job->t0, job->t1), (GDestroyNotify) graph_free);
}

static void
built (GObject *source, GAsyncResult *result, gpointer data)
{
  TtvFlameGraph *self = data;
  g_autoptr (Graph) graph = g_task_propagate_pointer (G_TASK (result), NULL);
  if (graph == NULL || ttv_view_job_is_stale (result))
    {
      g_object_unref (self);
      return;
    }
  g_clear_object (&self->building);
  graph_free (self->graph);
  self->graph = g_steal_pointer (&graph);
  self->focus = TTV_VIEWER_NO_NODE;
  if (self->graph->total <= 0)
    gtk_label_set_text (self->status, _("No call in this interval."));
  else
    {
      g_autofree char *text = g_strdup_printf (_("%u call paths; click a box to zoom to it, at the bottom or Escape "
                                                 "to zoom out; the selection (else the window) is shown"),
                                               self->graph->nodes->len);
      gtk_label_set_text (self->status, text);
      ttv_viewer_notify_first_paint (GTK_WIDGET (self), self->graph->nodes->len);
    }
  gtk_widget_queue_draw (self->area);
  g_object_unref (self);
}

static void
rebuild (TtvFlameGraph *self)
{
  ttv_callstacks_job_run (&self->building, self, self->state, self->cs, build_thread, built);
}

static void
analysis_ready (gpointer data)
{
  TtvFlameGraph *self = data;
  ttv_userspace_take_callstacks (self->state, self->wait, self->status, &self->cs);
  rebuild (self);
}

static const Box *
box_at (TtvFlameGraph *self, double x, double y)
{
  for (guint i = self->boxes->len; i-- > 0;)
    {
      const Box *b = &g_array_index (self->boxes, Box, i);
      if (x >= b->x && x < b->x + b->width && y >= b->y && y < b->y + ROW_HEIGHT)
        return b;
    }
  return NULL;
}

static gboolean
on_press (GtkWidget *area, GdkEventButton *ev, TtvFlameGraph *self)
{
  if (ev->type != GDK_BUTTON_PRESS || ev->button != 1 || self->graph == NULL)
    return GDK_EVENT_PROPAGATE;
  const Box *b = box_at (self, ev->x, ev->y);
  /* A process, or nothing: the whole graph again. */
  self->focus = b && g_array_index (self->graph->nodes, TtvViewerFlameNode, b->node).depth > 0 ? b->node
                                                                                           : TTV_VIEWER_NO_NODE;
  gtk_widget_grab_focus (area);
  gtk_widget_queue_draw (area);
  return GDK_EVENT_STOP;
}

static gboolean
on_key (GtkWidget *area, GdkEventKey *ev, TtvFlameGraph *self)
{
  if (ev->keyval != GDK_KEY_Escape)
    return GDK_EVENT_PROPAGATE;
  self->focus = TTV_VIEWER_NO_NODE;
  gtk_widget_queue_draw (area);
  return GDK_EVENT_STOP;
}

static gboolean
on_tooltip (GtkWidget *area, int x, int y, gboolean keyboard, GtkTooltip *tooltip, TtvFlameGraph *self)
{
  const Box *b = self->graph ? box_at (self, x, y) : NULL;
  if (b == NULL)
    return FALSE;
  const TtvViewerFlameNode *n = &g_array_index (self->graph->nodes, TtvViewerFlameNode, b->node);
  g_autoptr (GString) path = g_string_new (NULL);
  for (guint32 a = b->node; a != TTV_VIEWER_NO_NODE; a = g_array_index (self->graph->nodes, TtvViewerFlameNode, a).parent)
    {
      const char *name = g_array_index (self->graph->nodes, TtvViewerFlameNode, a).name;
      g_string_prepend (path, name);
      if (g_array_index (self->graph->nodes, TtvViewerFlameNode, a).parent != TTV_VIEWER_NO_NODE)
        g_string_prepend (path, " → ");
    }
  g_autofree char *total = ttv_viewer_format_duration (n->total);
  g_autofree char *own = ttv_viewer_format_duration (n->self);
  g_autofree char *text = NULL;
  double share = 100.0 * (double) n->total / (double) MAX (self->graph->total, 1);
  if (n->function == TTV_VIEWER_NO_NODE)
    text = g_strdup_printf (_("%s\n%s in calls (%.1f%%)"), path->str, total, share);
  else
    text = g_strdup_printf (_("%s\n%" PRIu64 " calls, %s (%.1f%%), %s in itself"), path->str, (guint64) n->calls,
                            total, share, own);
  ttv_view_set_tooltip_text (tooltip, text);
  return TRUE;
}

static void
interval_changed (TtvFlameGraph *self)
{
  rebuild (self);
}

static void
traceset_changed (TtvFlameGraph *self)
{
  g_clear_pointer (&self->cs, ttv_viewer_callstacks_unref);
  g_clear_pointer (&self->graph, graph_free);
  ttv_userspace_wait_start (self->wait);
  gtk_widget_queue_draw (self->area);
}

static void
ttv_flame_graph_dispose (GObject *object)
{
  TtvFlameGraph *self = TTV_FLAME_GRAPH (object);
  ttv_view_job_cancel (&self->building);
  g_clear_pointer (&self->wait, ttv_userspace_wait_free);
  ttv_view_state_release (&self->state, self->handlers, G_N_ELEMENTS (self->handlers));
  g_clear_pointer (&self->cs, ttv_viewer_callstacks_unref);
  g_clear_pointer (&self->graph, graph_free);
  g_clear_pointer (&self->boxes, g_array_unref);
  G_OBJECT_CLASS (ttv_flame_graph_parent_class)->dispose (object);
}

static void
ttv_flame_graph_class_init (TtvFlameGraphClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = ttv_flame_graph_dispose;
}

static void
ttv_flame_graph_init (TtvFlameGraph *self)
{
  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_VERTICAL);
  self->focus = TTV_VIEWER_NO_NODE;
  self->boxes = g_array_new (FALSE, FALSE, sizeof (Box));
  self->area = gtk_drawing_area_new ();
  gtk_widget_set_can_focus (self->area, TRUE);
  gtk_widget_set_vexpand (self->area, TRUE);
  gtk_widget_set_has_tooltip (self->area, TRUE);
  gtk_widget_add_events (self->area, GDK_BUTTON_PRESS_MASK | GDK_KEY_PRESS_MASK);
  gtk_box_pack_start (GTK_BOX (self), self->area, TRUE, TRUE, 0);
  self->status = ttv_userspace_status_new (GTK_BOX (self));
  g_signal_connect (self->area, "draw", G_CALLBACK (draw), self);
  g_signal_connect (self->area, "button-press-event", G_CALLBACK (on_press), self);
  g_signal_connect (self->area, "key-press-event", G_CALLBACK (on_key), self);
  g_signal_connect (self->area, "query-tooltip", G_CALLBACK (on_tooltip), self);
}

GtkWidget *
ttv_flame_graph_new (TtvTabState *state)
{
  TtvFlameGraph *self = g_object_new (TTV_TYPE_FLAME_GRAPH, NULL);
  self->state = g_object_ref (state);
  self->handlers[0] = g_signal_connect_swapped (state, "selection-changed", G_CALLBACK (interval_changed), self);
  self->handlers[1] = g_signal_connect_swapped (state, "time-window-changed", G_CALLBACK (interval_changed), self);
  self->handlers[2] = g_signal_connect_swapped (state, "traceset-changed", G_CALLBACK (traceset_changed), self);
  self->handlers[3] = g_signal_connect_swapped (state, "time-format-changed", G_CALLBACK (gtk_widget_queue_draw),
                                                self->area);
  self->wait = ttv_userspace_wait_new (state, TTV_VIEWER_USERSPACE_CALLSTACKS, self->status, analysis_ready, self);
  analysis_ready (self);
  gtk_widget_show_all (GTK_WIDGET (self));
  return GTK_WIDGET (self);
}

gboolean
ttv_flame_graph_render (TtvTabState *state, cairo_t *cr, int width, int height, GError **error)
{
  if (!ttv_tab_state_compute_userspace (state, TTV_VIEWER_USERSPACE_CALLSTACKS, NULL, error))
    return FALSE;
  g_autoptr (TtvViewerCallstacks) cs = ttv_tab_state_dup_callstacks (state);
  TtvTime t0, t1;
  ttv_userspace_get_interval (state, &t0, &t1);
  g_autoptr (Graph) graph = graph_new (cs, t0, t1);
  Paint p = { state, graph, TTV_VIEWER_NO_NODE, _("No call in this interval."), NULL };
  paint (&p, cr, width, height);
  return TRUE;
}
