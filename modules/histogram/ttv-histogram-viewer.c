/* ttv-histogram-viewer.c: the histogram viewer module: event density over
 * the whole traceset (all events or one event type; with the tab's filter,
 * the matching events, counted by a filtered request), linear or log scale
 * with a count scale and a time ruler, lost-events ranges, the time window,
 * the selection and the current time; drag selects the time window.  Bars
 * come from an immutable cache built in a worker thread (each density bin
 * spread over the columns it covers); export as PNG or SVG (histogram.export
 * with a path, histogram.render for ttv --render). */
#include "ttv-view-action-state.h"
#include "ttv-view-axis.h"
#include "ttv-view-text.h"
#include "ttv-viewer.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#define RULER_HEIGHT 24
#define LOST_HEIGHT 6
#define TITLE_HEIGHT 16

#define TTV_TYPE_HISTOGRAM_VIEWER (ttv_histogram_viewer_get_type ())
G_DECLARE_FINAL_TYPE (TtvHistogramViewer, ttv_histogram_viewer, TTV, HISTOGRAM_VIEWER, GtkBox)

/* What one drawing needs, immutable once built. */
typedef struct {
  guint width;                 /* columns */
  gboolean log_scale;
  double *counts;              /* owned: events per column */
  double *heights;             /* owned: 0..1 per column */
  guint64 max_count;           /* the tallest column's events, rounded up */
  TtvTime span_start, span_end;
  TtvTimeScale scale;          /* the span over the columns (long idle gaps compressed) */
  GArray *lost;                /* of TtvViewerLostEvents, owned */
} Cache;

struct _TtvHistogramViewer {
  GtkBox parent_instance;

  TtvTabState *state;          /* owned reference */
  gulong handlers[8];
  GtkWidget *area;
  GtkComboBoxText *types;
  GtkLabel *status;
  GSimpleActionGroup *actions; /* owned */
  GArray *filtered;            /* owned, of guint32: matching events per bin, NULL without a filter */
  guint64 n_matched;
  gboolean counting;           /* the filtered request is running */
  gint64 last_partial;         /* monotonic time of the last partial redraw */
  Cache *cache;                /* owned, may be NULL */
  GSettings *settings;         /* owned, NULL without the schema: the palette's lost-events colour */
  GCancellable *building;      /* owned, NULL when idle */
  gboolean dragging;
  double drag_x0, drag_x1;
};

G_DEFINE_FINAL_TYPE (TtvHistogramViewer, ttv_histogram_viewer, GTK_TYPE_BOX)

static void
cache_free (Cache *c)
{
  if (!c)
    return;
  g_free (c->counts);
  g_free (c->heights);
  g_array_unref (c->lost);
  g_free (c);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Cache, cache_free)

/* --- Building the cache (worker thread) ------------------------------------ */

typedef struct {
  GArray *density;             /* owned, of guint32 */
  guint width;
  gboolean log_scale;
  TtvTime span_start, span_end;
  TtvTimeScale scale;          /* the span over the columns */
  GArray *bin_starts;          /* owned, of TtvTime: each bin's first time, then the span's end */
  GArray *lost;                /* owned, of TtvViewerLostEvents */
} BuildJob;

static void
build_job_free (BuildJob *job)
{
  g_clear_pointer (&job->density, g_array_unref);
  g_clear_pointer (&job->lost, g_array_unref);
  g_clear_pointer (&job->bin_starts, g_array_unref);
  g_free (job);
}

/* Adds @v events over the columns [@a, @b), in proportion. */
static void
spread (Cache *c, double v, double a, double b)
{
  for (guint x = (guint) MAX (floor (a), 0); x < c->width && x < b; x++)
    {
      double overlap = MIN (b, x + 1.0) - MAX (a, (double) x);

      if (overlap > 0)
        c->counts[x] += v * overlap / (b - a);
    }
}

/* Bin @i's @v events over the columns of its time outside compressed gaps
 * (a bin holding a gap's edge must not paint the gap). */
static void
spread_on_scale (Cache *c, const BuildJob *job, guint i, double v)
{
  TtvTime ta = g_array_index (job->bin_starts, TtvTime, i), tb = g_array_index (job->bin_starts, TtvTime, i + 1);
  const TtvTimeScale *scale = &job->scale;
  double length = 0;

  for (int pass = 0; pass < 2; pass++)
    for (guint k = 0; k < scale->n_pieces; k++)
      {
        const TtvTimeScalePiece *p = &scale->pieces[k];
        TtvTime a = MAX (ta, p->t0), b = MIN (tb, p->t1);

        if (p->gap || b <= a)
          continue;
        double xa = ttv_time_scale_x_of_time (scale, a), xb = ttv_time_scale_x_of_time (scale, b);
        if (pass == 0)
          length += xb - xa;
        else if (length > 0)
          spread (c, v * (xb - xa) / length, xa, xb);
      }
  if (length <= 0)
    {
      /* An instant (or all in a gap): the column of its start. */
      guint x = (guint) CLAMP (ttv_time_scale_x_of_time (scale, ta), 0, c->width - 1);
      c->counts[x] += v;
    }
}

/* Each density bin's events spread over the columns it covers, in
 * proportion: the bins and the columns have different widths, and a bin
 * put whole into the column under its centre left a comb of empty
 * columns between full ones.  With long idle gaps in the span, the scale
 * places each bin. */
static Cache *
build_cache (const BuildJob *job)
{
  Cache *c = g_new0 (Cache, 1);
  guint n = job->density ? job->density->len : 0;
  double max = 0;

  c->width = job->width;
  c->log_scale = job->log_scale;
  c->span_start = job->span_start;
  c->span_end = job->span_end;
  c->scale = job->scale;
  c->lost = g_array_ref (job->lost);
  c->counts = g_new0 (double, job->width);
  c->heights = g_new0 (double, job->width);
  for (guint i = 0; i < n; i++)
    {
      double v = g_array_index (job->density, guint32, i);

      if (v == 0)
        continue;
      if (!ttv_time_scale_is_linear (&job->scale) && job->bin_starts && job->bin_starts->len == n + 1)
        spread_on_scale (c, job, i, v);
      else
        /* The bin in column units: [a, b). */
        spread (c, v, (double) i * job->width / n, (double) (i + 1) * job->width / n);
    }
  for (guint x = 0; x < job->width; x++)
    max = MAX (max, c->counts[x]);
  c->max_count = (guint64) ceil (max - 1e-6);
  for (guint x = 0; x < job->width && c->max_count; x++)
    c->heights[x] = job->log_scale ? log1p (c->counts[x]) / log1p ((double) c->max_count)
                                   : c->counts[x] / (double) c->max_count;
  return c;
}

static void
build_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancel)
{
  g_task_return_pointer (task, build_cache (data), (GDestroyNotify) cache_free);
}

static void
publish_counts (TtvHistogramViewer *self)
{
  GAction *a = g_action_map_lookup_action (G_ACTION_MAP (self->actions), "column-counts");
  const Cache *c = self->cache;

  g_simple_action_set_state (G_SIMPLE_ACTION (a),
                             ttv_view_action_state_array (G_VARIANT_TYPE ("ad"), c ? c->counts : NULL,
                                                          c ? c->width * sizeof (double) : 0));
}

static void
build_done (GObject *source, GAsyncResult *result, gpointer data)
{
  TtvHistogramViewer *self = data;   /* owned reference */
  Cache *c = g_task_propagate_pointer (G_TASK (result), NULL);

  /* A newer build (or a render) replaced this one. */
  if (g_cancellable_is_cancelled (g_task_get_cancellable (G_TASK (result))))
    g_clear_pointer (&c, cache_free);
  if (c && self->state)
    {
      cache_free (self->cache);
      self->cache = c;
      g_clear_object (&self->building);
      publish_counts (self);
      gtk_widget_queue_draw (self->area);
    }
  else
    cache_free (c);
  g_object_unref (self);
}

static gboolean
log_scale (TtvHistogramViewer *self)
{
  GAction *a = g_action_map_lookup_action (G_ACTION_MAP (self->actions), "log-scale");
  g_autoptr (GVariant) v = g_action_get_state (a);

  return g_variant_get_boolean (v);
}

/* What a cache of @width columns of @state is built from: @density
 * (taken; NULL before the first read) and the scale. */
static BuildJob *
job_new (TtvTabState *state, GArray *density, guint width, gboolean log)
{
  BuildJob *job = g_new0 (BuildJob, 1);

  job->density = density;
  job->width = MAX (width, 1);
  job->log_scale = log;
  ttv_tab_state_get_time_span (state, &job->span_start, &job->span_end);
  ttv_tab_state_get_time_scale (state, job->span_start, MAX (job->span_end, job->span_start + 1), 0, job->width,
                                &job->scale);
  if (density && !ttv_time_scale_is_linear (&job->scale))
    {
      job->bin_starts = g_array_sized_new (FALSE, FALSE, sizeof (TtvTime), density->len + 1);
      for (guint i = 0; i <= density->len; i++)
        {
          TtvTime t = ttv_tab_state_get_density_bin_start (state, i);
          g_array_append_val (job->bin_starts, t);
        }
    }
  job->lost = ttv_tab_state_dup_lost_events (state, job->span_start, job->span_end);
  return job;
}

/* The cache's source as the viewer shows it: the event type, the filter,
 * the scale chosen. */
static BuildJob *
new_job (TtvHistogramViewer *self, guint width)
{
  const char *type = gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->types));

  return job_new (self->state, self->filtered ? g_array_copy (self->filtered)
                                              : ttv_tab_state_dup_density (self->state, type && *type ? type : NULL),
                  width, log_scale (self));
}

static void
rebuild (TtvHistogramViewer *self)
{
  if (self->state == NULL)
    return;
  BuildJob *job;
  g_autoptr (GTask) task = NULL;

  if (self->building)
    g_cancellable_cancel (self->building);
  g_clear_object (&self->building);
  job = new_job (self, (guint) MAX (gtk_widget_get_allocated_width (self->area), 1));
  self->building = g_cancellable_new ();
  task = g_task_new (NULL, self->building, build_done, g_object_ref (self));
  g_task_set_task_data (task, job, (GDestroyNotify) build_job_free);
  g_task_run_in_thread (task, build_thread);
}

/* --- Filtered density ------------------------------------------------------
 * The first read's density counts every event; with a filter the matching
 * ones are counted by a filtered request over the whole traceset, served in
 * chunks by the tab, and drawn as they come (every quarter second). */

static void
show_count (TtvHistogramViewer *self)
{
  g_autofree char *text = NULL;
  g_autofree char *count = g_strdup_printf ("%" G_GUINT64_FORMAT, self->n_matched);

  if (!self->filtered)
    text = g_strdup ("");
  else if (self->counting)
    text = g_strdup_printf (_("Counting matching events… %s"), count);
  else
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s matching event", "%s matching events",
                                         self->n_matched), count);
  gtk_label_set_text (self->status, text);
}

static gboolean
count_event (TtvEventRequest *req, const TtvViewerEvent *ev, gpointer data)
{
  TtvHistogramViewer *self = data;
  const char *type = gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->types));
  guint n = self->filtered->len;
  guint bin;
  gint64 now;

  if (type && *type && strcmp (type, ttv_viewer_event_get_name (ev)) != 0)
    return TRUE;
  /* The bins of the first read's density. */
  bin = ttv_tab_state_get_density_bin_of (self->state, ttv_viewer_event_get_time (ev));
  g_array_index (self->filtered, guint32, MIN (bin, n - 1))++;
  self->n_matched++;
  now = g_get_monotonic_time ();
  if (now - self->last_partial > G_USEC_PER_SEC / 4)
    {
      self->last_partial = now;
      show_count (self);
      rebuild (self);
    }
  return TRUE;
}

static void
count_done (TtvEventRequest *req, TtvRequestStatus status, const GError *error, gpointer data)
{
  TtvHistogramViewer *self = data;

  if (status == TTV_REQUEST_CANCELLED)
    return;   /* replaced by a newer count, or the viewer is going away */
  self->counting = FALSE;
  if (status == TTV_REQUEST_FAILED)
    {
      g_autofree char *text = g_strdup_printf (_("Counting stopped: %s"), error->message);
      gtk_label_set_text (self->status, text);
    }
  else
    show_count (self);
  rebuild (self);
}

/* (Re)counts the events matching the tab's filter, or goes back to the
 * first read's density when there is none. */
static void
recount (TtvHistogramViewer *self)
{
  g_autoptr (GArray) all = ttv_tab_state_dup_density (self->state, NULL);
  TtvTime ss, se;

  ttv_tab_state_cancel_requests (self->state, self);
  g_clear_pointer (&self->filtered, g_array_unref);
  self->n_matched = 0;
  self->counting = FALSE;
  if (*ttv_tab_state_get_filter (self->state) && all && all->len)
    {
      self->filtered = g_array_sized_new (FALSE, TRUE, sizeof (guint32), all->len);
      g_array_set_size (self->filtered, all->len);
      self->counting = TRUE;
      self->last_partial = g_get_monotonic_time ();
      ttv_tab_state_get_time_span (self->state, &ss, &se);
      ttv_tab_state_request_time_range (self->state, self, ss, se, 0,
                                        TTV_REQUEST_FILTERED | TTV_REQUEST_REPLACE
                                        | TTV_REQUEST_STALE_ON_FILTER,
                                        count_event, count_done, self, NULL);
    }
  show_count (self);
  rebuild (self);
}

static void
type_changed (TtvHistogramViewer *self)
{
  if (self->filtered)
    recount (self);
  else
    rebuild (self);
}

static void
fill_types (TtvHistogramViewer *self)
{
  g_auto (GStrv) names = ttv_tab_state_dup_density_names (self->state);
  g_autofree char *active = g_strdup (gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->types)));

  gtk_combo_box_text_remove_all (self->types);
  gtk_combo_box_text_append (self->types, "", _("All events"));
  for (guint i = 0; names && names[i]; i++)
    {
      /* The id is the name as the trace has it; the label valid UTF-8. */
      g_autofree char *valid = NULL;
      gtk_combo_box_text_append (self->types, names[i], ttv_view_valid_text (names[i], &valid));
    }
  if (!active || !gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->types), active))
    gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->types), "");
}

/* The density (hence the bins) came, or went with the traceset. */
static void
density_changed (TtvHistogramViewer *self)
{
  g_signal_handlers_block_by_func (self->types, type_changed, self);
  fill_types (self);
  g_signal_handlers_unblock_by_func (self->types, type_changed, self);
  recount (self);
}

/* --- Drawing --------------------------------------------------------------- */

/* The plot's band: under the title, over the lost-events strip and the ruler. */
static void
plot_band (double height, double *top, double *plot_h)
{
  *top = TITLE_HEIGHT;
  *plot_h = MAX (height - TITLE_HEIGHT - LOST_HEIGHT - RULER_HEIGHT, 1);
}

/* The whole span over @width pixels, as every view of the tab maps it. */
static void
span_scale (TtvTabState *state, double width, TtvTimeScale *scale)
{
  TtvTime ss, se;

  ttv_tab_state_get_time_span (state, &ss, &se);
  ttv_tab_state_get_time_scale (state, ss, MAX (se, ss + 1), 0, MAX (width, 1), scale);
}

static double
x_of (const TtvTimeScale *scale, TtvTime t)
{
  return ttv_time_scale_x_of_time (scale, t);
}

static TtvTime
time_of (TtvHistogramViewer *self, double x)
{
  double w = MAX (gtk_widget_get_allocated_width (self->area), 1);
  TtvTimeScale scale;

  span_scale (self->state, w, &scale);
  return ttv_time_scale_time_of_x (&scale, CLAMP (x, 0, w));
}

/* "Events per 412.5 µs (log)": what a column counts. */
static void
draw_title (const Cache *c, cairo_t *cr, double width)
{
  g_autofree char *per = ttv_viewer_format_duration ((TtvTime) MAX (c->scale.ns_per_px, 1));
  g_autofree char *max = g_strdup_printf ("%" G_GUINT64_FORMAT, c->max_count);
  g_autofree char *title = g_strdup_printf (c->log_scale ? _("Events per %s (log scale), at most %s")
                                                         : _("Events per %s, at most %s"), per, max);

  cairo_set_font_size (cr, 10);
  cairo_set_source_rgb (cr, 0.2, 0.2, 0.2);
  cairo_move_to (cr, 4, TITLE_HEIGHT - 4);
  ttv_view_show_text (cr, title);
}

/* What one drawing is made of, with or without a widget. */
typedef struct {
  TtvTabState *state;          /* the time window, selection, current time */
  const Cache *cache;          /* may be NULL: no density yet */
  GSettings *settings;         /* may be NULL: the palette's defaults */
  gboolean dragging;           /* a drag selecting the time window, from x0 to x1 */
  double drag_x0, drag_x1;
  GString *ruler_labels;       /* may be NULL: gets the ruler's labels, one a line */
} Paint;

/* The bookmarks: a line at a point in time, a band for an interval. */
static void
draw_bookmarks (TtvTabState *state, cairo_t *cr, double top, double height, const TtvTimeScale *scale)
{
  GPtrArray *bookmarks = ttv_tab_state_get_bookmarks (state);
  GdkRGBA c;

  ttv_viewer_get_marker_rgba (TTV_VIEWER_MARKER_BOOKMARK, &c);
  for (guint i = 0; bookmarks && i < bookmarks->len; i++)
    {
      const TtvViewerBookmark *b = bookmarks->pdata[i];
      double a = floor (x_of (scale, b->start)), z = floor (x_of (scale, b->end));
      if (b->end > b->start)
        {
          cairo_set_source_rgba (cr, c.red, c.green, c.blue, 0.15);
          cairo_rectangle (cr, a, top, MAX (z - a, 1), height);
          cairo_fill (cr);
        }
      cairo_set_source_rgba (cr, c.red, c.green, c.blue, 0.9);
      cairo_rectangle (cr, a, top, 1, height);
      if (b->end > b->start)
        cairo_rectangle (cr, z, top, 1, height);
      cairo_fill (cr);
    }
}

static void
draw_histogram (const Paint *p, cairo_t *cr, double width, double height)
{
  const Cache *c = p->cache;
  TtvTime ws, we, now, s0, s1;
  TtvTimeScale scale;
  double top, plot_h, bottom, lost_rgb[3];
  GdkRGBA lost_color;

  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  cairo_select_font_face (cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  if (!c)
    {
      cairo_set_source_rgb (cr, 0.4, 0.4, 0.4);
      cairo_set_font_size (cr, 12);
      cairo_move_to (cr, 8, height / 2);
      ttv_view_show_text (cr, _("Waiting for the first read of the traceset…"));
      return;
    }
  ttv_tab_state_get_time_scale (p->state, c->span_start, MAX (c->span_end, c->span_start + 1), 0, width, &scale);
  ttv_palette_get_rgba (p->settings, TTV_PALETTE_LOST_EVENTS, &lost_color);
  lost_rgb[0] = lost_color.red;
  lost_rgb[1] = lost_color.green;
  lost_rgb[2] = lost_color.blue;
  plot_band (height, &top, &plot_h);
  bottom = top + plot_h;
  /* The time window, shaded. */
  ttv_tab_state_get_time_window (p->state, &ws, &we);
  cairo_set_source_rgb (cr, 0.88, 0.93, 1.0);
  cairo_rectangle (cr, x_of (&scale, ws), top, MAX (1, x_of (&scale, we) - x_of (&scale, ws)), plot_h);
  cairo_fill (cr);
  /* The bars, scaled from the cache's columns to this width. */
  cairo_set_source_rgb (cr, 0.2, 0.4, 0.75);
  for (guint x = 0; x < c->width; x++)
    {
      double h = c->heights[x] * plot_h;
      double x0 = x * width / c->width, x1 = (x + 1) * width / c->width;

      if (c->counts[x] > 0)
        cairo_rectangle (cr, x0, bottom - MAX (h, 1), MAX (x1 - x0, 1), MAX (h, 1));
    }
  cairo_fill (cr);
  ttv_view_axis_draw_counts (cr, 0, top, width, plot_h, c->max_count, c->log_scale);
  /* The selection: a tint and its edges. */
  if (ttv_tab_state_get_selection (p->state, &s0, &s1))
    {
      double a = x_of (&scale, s0), b = x_of (&scale, s1);
      GdkRGBA sel;

      ttv_viewer_get_marker_rgba (TTV_VIEWER_MARKER_SELECTION, &sel);
      cairo_set_source_rgba (cr, sel.red, sel.green, sel.blue, 0.18);
      cairo_rectangle (cr, a, top, MAX (b - a, 1), plot_h + LOST_HEIGHT + RULER_HEIGHT);
      cairo_fill (cr);
      cairo_set_source_rgba (cr, sel.red, sel.green, sel.blue, 0.8);
      cairo_rectangle (cr, floor (a), top, 1, plot_h + LOST_HEIGHT + RULER_HEIGHT);
      cairo_rectangle (cr, MAX (floor (b) - 1, floor (a)), top, 1, plot_h + LOST_HEIGHT + RULER_HEIGHT);
      cairo_fill (cr);
    }
  draw_bookmarks (p->state, cr, top, plot_h + LOST_HEIGHT + RULER_HEIGHT, &scale);
  /* Long idle gaps between traces over the bars; lost events under the
   * bars, the ruler under them. */
  ttv_viewer_draw_time_gaps (cr, &scale, top, plot_h);
  ttv_view_axis_draw_lost_scale (cr, c->lost, &scale, bottom + 1, LOST_HEIGHT - 1, lost_rgb);
  cairo_set_source_rgb (cr, 0.93, 0.93, 0.93);
  cairo_rectangle (cr, 0, bottom + LOST_HEIGHT, width, RULER_HEIGHT);
  cairo_fill (cr);
  ttv_view_axis_draw_scale (cr, &scale, bottom + LOST_HEIGHT, RULER_HEIGHT, c->span_start, p->ruler_labels);
  /* The current time. */
  now = ttv_tab_state_get_current_time (p->state);
  {
    GdkRGBA now_color;

    ttv_viewer_get_marker_rgba (TTV_VIEWER_MARKER_CURRENT_TIME, &now_color);
    gdk_cairo_set_source_rgba (cr, &now_color);
  }
  cairo_rectangle (cr, floor (x_of (&scale, now)), top, 1, plot_h + LOST_HEIGHT);
  cairo_fill (cr);
  draw_title (c, cr, width);
  if (p->dragging)
    {
      double a = MIN (p->drag_x0, p->drag_x1), b = MAX (p->drag_x0, p->drag_x1);

      cairo_set_source_rgba (cr, 0.1, 0.3, 0.9, 0.25);
      cairo_rectangle (cr, a, top, MAX (b - a, 1), plot_h);
      cairo_fill (cr);
    }
}

/* What the widget shows. */
static Paint
shown (TtvHistogramViewer *self)
{
  Paint p = { self->state, self->cache, self->settings, self->dragging, self->drag_x0, self->drag_x1, NULL };

  return p;
}

static gboolean
area_draw (GtkWidget *area, cairo_t *cr, TtvHistogramViewer *self)
{
  Paint p = shown (self);

  p.ruler_labels = g_string_new (NULL);
  draw_histogram (&p, cr, gtk_widget_get_allocated_width (area), gtk_widget_get_allocated_height (area));
  /* What the ruler says, for tests (the plugin API has no getter). */
  g_object_set_data_full (G_OBJECT (area), "ttv-ruler-labels", g_string_free (p.ruler_labels, FALSE), g_free);
  return GDK_EVENT_STOP;
}

static void
area_size (GtkWidget *area, GdkRectangle *alloc, TtvHistogramViewer *self)
{
  if (!self->cache || self->cache->width != (guint) MAX (alloc->width, 1))
    rebuild (self);
}

static gboolean
area_press (GtkWidget *area, GdkEventButton *ev, TtvHistogramViewer *self)
{
  TtvTime s0, s1, t;

  if (ev->button == GDK_BUTTON_PRIMARY && ev->type == GDK_2BUTTON_PRESS)
    {
      /* A double click in the selection zooms to it. */
      t = time_of (self, ev->x);
      if (ttv_tab_state_get_selection (self->state, &s0, &s1) && s1 > s0 && t >= s0 && t <= s1)
        {
          ttv_tab_state_set_time_window (self->state, s0, s1);
          return GDK_EVENT_STOP;
        }
    }
  if (ev->button != GDK_BUTTON_PRIMARY || ev->type != GDK_BUTTON_PRESS)
    return GDK_EVENT_PROPAGATE;
  self->dragging = TRUE;
  self->drag_x0 = self->drag_x1 = ev->x;
  return GDK_EVENT_STOP;
}

static gboolean
area_motion (GtkWidget *area, GdkEventMotion *ev, TtvHistogramViewer *self)
{
  if (!self->dragging)
    return GDK_EVENT_PROPAGATE;
  self->drag_x1 = ev->x;
  gtk_widget_queue_draw (area);
  return GDK_EVENT_STOP;
}

static gboolean
area_release (GtkWidget *area, GdkEventButton *ev, TtvHistogramViewer *self)
{
  if (!self->dragging || ev->button != GDK_BUTTON_PRIMARY)
    return GDK_EVENT_PROPAGATE;
  self->dragging = FALSE;
  self->drag_x1 = ev->x;
  if (fabs (self->drag_x1 - self->drag_x0) >= 3)
    ttv_tab_state_set_time_window (self->state, time_of (self, MIN (self->drag_x0, self->drag_x1)),
                                   time_of (self, MAX (self->drag_x0, self->drag_x1)));
  else
    {
      TtvTime t = time_of (self, ev->x), s0, s1;
      /* A click out of the selection clears it (in it: a double click zooms). */
      if (ttv_tab_state_get_selection (self->state, &s0, &s1) && (t < s0 || t > s1))
        ttv_tab_state_clear_selection (self->state);
      ttv_tab_state_set_current_time (self->state, t);
    }
  gtk_widget_queue_draw (area);
  return GDK_EVENT_STOP;
}

/* The column under the pointer: its time range and events, lost events. */
static gboolean
area_tooltip (GtkWidget *area, gint x, gint y, gboolean keyboard, GtkTooltip *tooltip,
              TtvHistogramViewer *self)
{
  const Cache *c = self->cache;
  double width = MAX (gtk_widget_get_allocated_width (area), 1);
  g_autoptr (GString) text = NULL;
  g_autofree char *from = NULL, *length = NULL;
  g_autoptr (GArray) lost = NULL;
  TtvTime a, b;
  guint col;
  guint64 n_lost, n_lost_packets;

  if (!c || c->width == 0)
    return FALSE;
  col = MIN ((guint) (x / width * c->width), c->width - 1);
  a = ttv_time_scale_time_of_x (&c->scale, col);
  b = ttv_time_scale_time_of_x (&c->scale, col + 1);
  from = ttv_tab_state_format_time (self->state, a);
  length = ttv_viewer_format_duration (b - a);
  text = g_string_new (NULL);
  g_string_append_printf (text, _("%.0f events from %s for %s"), c->counts[col], from, length);
  lost = ttv_tab_state_dup_lost_events (self->state, a, b);
  if (ttv_view_axis_lost_between (lost, a, b, &n_lost, &n_lost_packets))
    {
      if (n_lost)
        g_string_append_printf (text, _("\nLost events: %" PRIu64 " lost by the tracer here"), n_lost);
      if (n_lost_packets)
        g_string_append_printf (text, _("\nLost packets: %" PRIu64 " lost whole here"), n_lost_packets);
      if (!n_lost && !n_lost_packets)
        g_string_append (text, _("\nLost events: the tracer lost events here"));
    }
  g_string_append (text, _("\nDrag to select the time window, click to set the current time"));
  ttv_view_set_tooltip_text (tooltip, text->str);
  return TRUE;
}

/* --- Actions --------------------------------------------------------------- */

static void
change_log_scale (GSimpleAction *action, GVariant *value, gpointer data)
{
  g_simple_action_set_state (action, value);
  rebuild (data);
}

static void
draw_to (gpointer data, cairo_t *cr, int width, int height)
{
  Paint p = shown (data);

  draw_histogram (&p, cr, width, height);
}

static gboolean
save_shown (GtkWidget *widget, const char *path, GError **error)
{
  TtvHistogramViewer *self = TTV_HISTOGRAM_VIEWER (widget);

  return ttv_viewer_write_image (path, MAX (gtk_widget_get_allocated_width (self->area), 1),
                                  MAX (gtk_widget_get_allocated_height (self->area), 1), draw_to, self,
                                  error);
}

static void
act_export (GSimpleAction *action, GVariant *param, gpointer data)
{
  g_autoptr (GError) error = NULL;

  if (!save_shown (data, g_variant_get_string (param, NULL), &error))
    g_warning ("%s", error->message);
}

/* ttv --render histogram: the cache built at the image's width, now. */
static void
act_render (GSimpleAction *action, GVariant *param, gpointer data)
{
  TtvHistogramViewer *self = data;
  g_autoptr (GError) error = NULL;
  BuildJob *job;
  const char *path;
  gint32 w, h;

  g_variant_get (param, "(&sii)", &path, &w, &h);
  if (w < 1 || h < 1)
    {
      g_warning (_("Cannot render %dx%d"), w, h);
      return;
    }
  job = new_job (self, (guint) w);
  if (self->building)
    g_cancellable_cancel (self->building);
  g_clear_object (&self->building);
  cache_free (self->cache);
  self->cache = job->density ? build_cache (job) : NULL;
  build_job_free (job);
  publish_counts (self);
  if (!ttv_viewer_write_image (path, w, h, draw_to, self, &error))
    g_warning ("%s", error->message);
}

static void
act_export_dialog (GSimpleAction *action, GVariant *param, gpointer data)
{
  ttv_viewer_export_dialog (data, _("Export Histogram (.png or .svg)"), "histogram.png", save_shown);
}

/* --- Construction ---------------------------------------------------------- */

static void
ttv_histogram_viewer_dispose (GObject *object)
{
  TtvHistogramViewer *self = TTV_HISTOGRAM_VIEWER (object);

  if (self->building)
    g_cancellable_cancel (self->building);
  g_clear_object (&self->building);
  if (self->state)
    {
      for (guint i = 0; i < G_N_ELEMENTS (self->handlers); i++)
        g_clear_signal_handler (&self->handlers[i], self->state);
      ttv_tab_state_cancel_requests (self->state, self);
    }
  g_clear_object (&self->state);
  g_clear_pointer (&self->filtered, g_array_unref);
  g_clear_object (&self->actions);
  g_clear_pointer (&self->cache, cache_free);
  g_clear_object (&self->settings);
  G_OBJECT_CLASS (ttv_histogram_viewer_parent_class)->dispose (object);
}

static void
ttv_histogram_viewer_class_init (TtvHistogramViewerClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = ttv_histogram_viewer_dispose;
}

static void
ttv_histogram_viewer_init (TtvHistogramViewer *self)
{
}

static GtkWidget *
ttv_histogram_viewer_new (TtvTabState *state)
{
  static const GActionEntry actions[] = {
    { "log-scale", NULL, NULL, "false", change_log_scale, { 0 } },
    { "export", act_export, "s", NULL, NULL, { 0 } },
    { "export-dialog", act_export_dialog, NULL, NULL, NULL, { 0 } },
    { "render", act_render, "(sii)", NULL, NULL, { 0 } },
    /* Read-only: the events of each column of the last drawing (tests). */
    { "column-counts", NULL, NULL, "@ad []", NULL, { 0 } },
  };
  TtvHistogramViewer *self = g_object_new (TTV_TYPE_HISTOGRAM_VIEWER,
                                           "orientation", GTK_ORIENTATION_VERTICAL, NULL);
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *w;

  self->state = g_object_ref (state);
  self->actions = g_simple_action_group_new ();
  g_action_map_add_action_entries (G_ACTION_MAP (self->actions), actions, G_N_ELEMENTS (actions), self);
  gtk_widget_insert_action_group (GTK_WIDGET (self), "histogram", G_ACTION_GROUP (self->actions));
  self->settings = ttv_viewer_dup_settings (TTV_PALETTE_SETTINGS_KEY);
  if (self->settings)
    g_signal_connect_object (self->settings, "changed::" TTV_PALETTE_SETTINGS_KEY,
                             G_CALLBACK (gtk_widget_queue_draw), self, G_CONNECT_SWAPPED);

  gtk_container_set_border_width (GTK_CONTAINER (bar), 4);
  gtk_box_pack_start (GTK_BOX (bar), gtk_label_new (_("Events:")), FALSE, FALSE, 0);
  self->types = GTK_COMBO_BOX_TEXT (gtk_combo_box_text_new ());
  gtk_box_pack_start (GTK_BOX (bar), GTK_WIDGET (self->types), FALSE, FALSE, 0);
  w = gtk_check_button_new_with_mnemonic (_("_Log scale"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (w), "histogram.log-scale");
  gtk_box_pack_start (GTK_BOX (bar), w, FALSE, FALSE, 0);
  w = gtk_button_new_with_mnemonic (_("E_xport…"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (w), "histogram.export-dialog");
  gtk_box_pack_end (GTK_BOX (bar), w, FALSE, FALSE, 0);
  self->status = GTK_LABEL (gtk_label_new (""));
  gtk_widget_set_name (GTK_WIDGET (self->status), "histogram-status");
  gtk_box_pack_start (GTK_BOX (bar), GTK_WIDGET (self->status), FALSE, FALSE, 0);
  w = gtk_label_new (_("Drag to select the time window"));
  gtk_widget_set_opacity (w, 0.7);
  gtk_box_pack_end (GTK_BOX (bar), w, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (self), bar, FALSE, FALSE, 0);

  self->area = gtk_drawing_area_new ();
  gtk_widget_set_size_request (self->area, 200, 64);   /* an overview strip above other views */
  gtk_widget_add_events (self->area, GDK_BUTTON_PRESS_MASK | GDK_BUTTON_RELEASE_MASK
                         | GDK_BUTTON1_MOTION_MASK);
  gtk_widget_set_has_tooltip (self->area, TRUE);
  g_signal_connect (self->area, "query-tooltip", G_CALLBACK (area_tooltip), self);
  g_signal_connect (self->area, "draw", G_CALLBACK (area_draw), self);
  ttv_viewer_watch_marker_colors (self->area);
  g_signal_connect (self->area, "size-allocate", G_CALLBACK (area_size), self);
  g_signal_connect (self->area, "button-press-event", G_CALLBACK (area_press), self);
  g_signal_connect (self->area, "motion-notify-event", G_CALLBACK (area_motion), self);
  g_signal_connect (self->area, "button-release-event", G_CALLBACK (area_release), self);
  gtk_box_pack_start (GTK_BOX (self), self->area, TRUE, TRUE, 0);

  fill_types (self);
  g_signal_connect_swapped (self->types, "changed", G_CALLBACK (type_changed), self);
  self->handlers[0] = g_signal_connect_swapped (state, "density-ready", G_CALLBACK (density_changed), self);
  self->handlers[1] = g_signal_connect_swapped (state, "traceset-changed", G_CALLBACK (density_changed), self);
  self->handlers[2] = g_signal_connect_swapped (state, "time-window-changed", G_CALLBACK (gtk_widget_queue_draw), self->area);
  self->handlers[3] = g_signal_connect_swapped (state, "current-time-changed", G_CALLBACK (gtk_widget_queue_draw), self->area);
  self->handlers[5] = g_signal_connect_swapped (state, "selection-changed", G_CALLBACK (gtk_widget_queue_draw), self->area);
  self->handlers[4] = g_signal_connect_swapped (state, "filter-changed", G_CALLBACK (recount), self);
  self->handlers[6] = g_signal_connect_swapped (state, "bookmarks-changed", G_CALLBACK (gtk_widget_queue_draw), self->area);
  /* The ruler's labels follow the user's time format. */
  self->handlers[7] = g_signal_connect_swapped (state, "time-format-changed", G_CALLBACK (gtk_widget_queue_draw), self->area);
  /* Opened under a filter: its matching events from the start. */
  recount (self);
  gtk_widget_show_all (GTK_WIDGET (self));
  return GTK_WIDGET (self);
}

/* ttv --render histogram: every event of the traceset, linear scale, as a
 * new viewer shows it; the bars built at the image's width, here. */
static gboolean
render (TtvTabState *state, cairo_t *cr, int width, int height, GError **error)
{
  g_autoptr (GSettings) settings = ttv_viewer_dup_settings (TTV_PALETTE_SETTINGS_KEY);
  BuildJob *job = job_new (state, ttv_tab_state_dup_density (state, NULL), (guint) width, FALSE);
  g_autoptr (Cache) cache = job->density ? build_cache (job) : NULL;
  Paint p = { state, cache, settings, FALSE, 0, 0 };

  build_job_free (job);
  draw_histogram (&p, cr, width, height);
  return TRUE;
}

static const TtvViewerInfo info = {
  .name = "histogram",
  .title = N_("Histogram"),
  .icon_name = "network-cellular-signal-excellent-symbolic",
  .menu_label = N_("_Histogram"),
  .new_viewer = ttv_histogram_viewer_new,
  .render = render,
  .translation_domain = GETTEXT_PACKAGE,
};

TTV_VIEWER_MODULE (histogram_init)

static void
histogram_init (void)
{
  ttv_viewer_register (&info);
}
