/* ttv-tab-state.c: a tab's view model: its traceset, time window, current
 * time, selection, filter and bookmarks, and the signals every viewer of
 * the tab observes.  It owns the tab's request queue (ttv-request-queue.c)
 * and analysis results (ttv-tab-analysis.c), and announces what the
 * background passes hand over. */
#include "ttv-config.h"

#include "ttv-tab-state-private.h"

#include "ttv-filter-count.h"
#include "ttv-open-bench.h"
#include "ttv-request-queue.h"
#include "ttv-tab-analysis.h"
#include "ttv-time-display.h"

#include <string.h>

enum {
  SIG_TRACESET_CHANGED,
  SIG_TIME_WINDOW_CHANGED,
  SIG_CURRENT_TIME_CHANGED,
  SIG_SELECTION_CHANGED,
  SIG_FILTER_CHANGED,
  SIG_BOOKMARKS_CHANGED,
  SIG_TIME_FORMAT_CHANGED,
  SIG_DENSITY_READY,
  SIG_STATE_READY,
  SIG_HISTORY_CHANGED,
  SIG_KERNEL_READY,
  SIG_SELECTED_THREAD_CHANGED,
  SIG_USERSPACE_READY,
  SIG_FILTER_COUNT_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

struct _TtvTabState {
  GObject parent_instance;

  TtvTraceset *traceset;         /* owned reference */
  TtvTime span_start, span_end;
  TtvTime window_start, window_end;
  TtvTime current_time;
  gboolean has_selection;
  TtvTime selection_start, selection_end;
  guint32 selected_thread;       /* TTV_VIEWER_PID_NONE: none */
  guint selected_machine;        /* of the selected thread */
  char *filter;                  /* owned, "" when none */
  TtvViewerFilter *filter_prog;  /* owned, NULL when none */
  GPtrArray *bookmarks;          /* of TtvViewerBookmark *, owned */

  TtvRequestQueue *queue;        /* owned: the viewers' event requests */
  TtvTabAnalysis *analysis;      /* owned: what the background passes found */
  TtvFilterCount *filter_count;  /* owned: the events matching the filter */
};

G_DEFINE_FINAL_TYPE (TtvTabState, ttv_tab_state, G_TYPE_OBJECT)

static void
ttv_tab_state_dispose (GObject *object)
{
  TtvTabState *self = TTV_TAB_STATE (object);

  ttv_tab_state_shutdown (self);
  G_OBJECT_CLASS (ttv_tab_state_parent_class)->dispose (object);
}

static void
ttv_tab_state_finalize (GObject *object)
{
  TtvTabState *self = TTV_TAB_STATE (object);

  g_clear_pointer (&self->queue, ttv_request_queue_free);
  g_clear_pointer (&self->filter_count, ttv_filter_count_free);
  g_clear_pointer (&self->analysis, ttv_tab_analysis_free);
  g_clear_pointer (&self->traceset, ttv_traceset_unref);
  g_clear_pointer (&self->bookmarks, g_ptr_array_unref);
  g_free (self->filter);
  ttv_viewer_filter_free (self->filter_prog);
  G_OBJECT_CLASS (ttv_tab_state_parent_class)->finalize (object);
}

static void
ttv_tab_state_class_init (TtvTabStateClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  static const char *const names[N_SIGNALS] = {
    "traceset-changed", "time-window-changed", "current-time-changed", "selection-changed",
    "filter-changed", "bookmarks-changed", "time-format-changed", "density-ready", "state-ready",
    "history-changed", "kernel-ready", "selected-thread-changed", "userspace-ready",
    "filter-count-changed",
  };

  object_class->dispose = ttv_tab_state_dispose;
  object_class->finalize = ttv_tab_state_finalize;
  for (guint i = 0; i < N_SIGNALS; i++)
    signals[i] = g_signal_new (names[i], G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                               NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
emit_filter_count_changed (TtvTabState *self)
{
  g_signal_emit (self, signals[SIG_FILTER_COUNT_CHANGED], 0);
}

/* The count of the matching events starts again (the filter, or what it
 * reads, changed), then "filter-count-changed" says so. */
static void
recount_filter (TtvTabState *self)
{
  ttv_filter_count_restart (self->filter_count);
  emit_filter_count_changed (self);
}

static void
ttv_tab_state_init (TtvTabState *self)
{
  self->filter = g_strdup ("");
  self->selected_thread = TTV_VIEWER_PID_NONE;
  self->bookmarks = g_ptr_array_new_with_free_func ((GDestroyNotify) ttv_viewer_bookmark_free);
  self->queue = ttv_request_queue_new (self);
  self->analysis = ttv_tab_analysis_new ();
  self->filter_count = ttv_filter_count_new (self, emit_filter_count_changed);
  ttv_time_display_watch (self);
}

static void
update_span (TtvTabState *self)
{
  self->span_start = ttv_traceset_get_start (self->traceset);
  self->span_end = ttv_traceset_get_end (self->traceset);
  if (self->span_start > self->span_end)
    self->span_start = self->span_end = 0;   /* empty traceset */
}

TtvTabState *
ttv_tab_state_new (TtvTraceset *traceset)
{
  TtvTabState *self = g_object_new (TTV_TYPE_TAB_STATE, NULL);

  g_return_val_if_fail (traceset != NULL, self);
  self->traceset = ttv_traceset_ref (traceset);
  update_span (self);
  self->window_start = self->span_start;
  self->window_end = self->span_end;
  self->current_time = self->span_start;
  return self;
}

TtvTraceset *
ttv_tab_state_get_traceset (TtvTabState *self)
{
  g_return_val_if_fail (TTV_IS_TAB_STATE (self), NULL);
  return self->traceset;
}

TtvRequestQueue *
ttv_tab_state_get_request_queue (TtvTabState *self)
{
  return self->queue;
}

TtvTabAnalysis *
ttv_tab_state_get_analysis (TtvTabState *self)
{
  return self->analysis;
}

void
ttv_tab_state_set_traceset (TtvTabState *self, TtvTraceset *traceset)
{
  gboolean had_history;

  g_return_if_fail (TTV_IS_TAB_STATE (self));
  g_return_if_fail (traceset != NULL);

  ttv_request_queue_cancel (self->queue, NULL, 0, TRUE);
  ttv_request_queue_drop_reader (self->queue);
  ttv_traceset_ref (traceset);
  g_clear_pointer (&self->traceset, ttv_traceset_unref);
  self->traceset = traceset;
  update_span (self);
  self->window_start = self->span_start;
  self->window_end = self->span_end;
  self->current_time = CLAMP (self->current_time, self->span_start, self->span_end);
  had_history = ttv_tab_analysis_reset (self->analysis);
  g_signal_emit (self, signals[SIG_TRACESET_CHANGED], 0);
  g_signal_emit (self, signals[SIG_TIME_WINDOW_CHANGED], 0);
  if (had_history)
    g_signal_emit (self, signals[SIG_HISTORY_CHANGED], 0);
  recount_filter (self);
}

gboolean
ttv_tab_state_refresh (TtvTabState *self, gboolean *changed, GError **error)
{
  TtvTime old_start = self->span_start, old_end = self->span_end;
  gboolean was_empty;
  guint32 shape;

  g_return_val_if_fail (TTV_IS_TAB_STATE (self), FALSE);

  *changed = FALSE;
  /* Busy (requests, statistics in threads, or shut down): the caller tries
   * again later. */
  if (ttv_request_queue_get_length (self->queue) > 0 || ttv_tab_analysis_get_n_workers (self->analysis) > 0
      || ttv_request_queue_is_shut_down (self->queue))
    return TRUE;
  /* The formats refresh only without live cursors. */
  ttv_request_queue_drop_reader (self->queue);
  was_empty = ttv_traceset_get_n_tracefiles (self->traceset) == 0;
  shape = ttv_traceset_get_shape_hash (self->traceset);
  if (!ttv_traceset_refresh (self->traceset, changed, error))
    return FALSE;
  if (!*changed)
    return TRUE;
  update_span (self);
  /* New tracefiles (a live session's streams, traces): positions the views
   * keep no longer match; to them it is another traceset. */
  if (ttv_traceset_get_shape_hash (self->traceset) != shape)
    {
      /* The state pass's checkpoints hold positions of the old shape: drop
       * them until the passes, run again on the new data, bring new ones. */
      gboolean had_history = ttv_tab_analysis_reset (self->analysis);

      g_signal_emit (self, signals[SIG_TRACESET_CHANGED], 0);
      if (had_history)
        g_signal_emit (self, signals[SIG_HISTORY_CHANGED], 0);
    }
  if (was_empty)
    {
      /* The first events of a live session: show them all. */
      self->window_start = self->current_time = self->span_start;
      self->window_end = self->span_end;
      g_signal_emit (self, signals[SIG_TIME_WINDOW_CHANGED], 0);
    }
  else if (self->window_end == old_end && self->span_end > old_end)
    {
      /* A window that showed the end keeps showing it, as `tail -f`: the
       * whole span grows, a zoomed window slides. */
      if (self->window_start != old_start)
        self->window_start += self->span_end - old_end;
      self->window_end = self->span_end;
      g_signal_emit (self, signals[SIG_TIME_WINDOW_CHANGED], 0);
    }
  /* New events: the count of the matching ones is counted again. */
  if (*self->filter)
    recount_filter (self);
  return TRUE;
}

void
ttv_tab_state_shutdown (TtvTabState *self)
{
  if (self->queue)
    ttv_request_queue_shutdown (self->queue);
}

guint
ttv_tab_state_get_n_requests (TtvTabState *self)
{
  g_return_val_if_fail (TTV_IS_TAB_STATE (self), 0);
  return ttv_request_queue_get_length (self->queue);
}

/* --- Getters --------------------------------------------------------------- */

guint
ttv_tab_state_get_n_traces (TtvTabState *self)
{
  g_return_val_if_fail (TTV_IS_TAB_STATE (self), 0);
  return self->traceset ? ttv_traceset_get_n_traces (self->traceset) : 0;
}

TtvViewerTrace *
ttv_tab_state_get_trace (TtvTabState *self, guint index)
{
  g_return_val_if_fail (TTV_IS_TAB_STATE (self), NULL);
  g_return_val_if_fail (index < ttv_tab_state_get_n_traces (self), NULL);
  return (TtvViewerTrace *) ttv_traceset_get_trace (self->traceset, index);
}

guint
ttv_tab_state_get_trace_machine (TtvTabState *self, const TtvViewerTrace *trace)
{
  g_return_val_if_fail (TTV_IS_TAB_STATE (self), 0);
  /* A tab holds a handful of traces: a look along them is enough. */
  for (guint i = 0; i < ttv_tab_state_get_n_traces (self); i++)
    if ((const TtvViewerTrace *) ttv_traceset_get_trace (self->traceset, i) == trace)
      return ttv_traceset_get_trace_machine (self->traceset, i);
  g_return_val_if_reached (0);
}

guint
ttv_tab_state_get_n_machines (TtvTabState *self)
{
  g_return_val_if_fail (TTV_IS_TAB_STATE (self), 1);
  return ttv_traceset_get_n_machines (self->traceset);
}

const char *
ttv_tab_state_get_machine_name (TtvTabState *self, guint machine)
{
  g_return_val_if_fail (TTV_IS_TAB_STATE (self), NULL);
  return ttv_traceset_get_machine_name (self->traceset, machine);
}

void
ttv_tab_state_get_time_span (TtvTabState *self, TtvTime *start, TtvTime *end)
{
  g_return_if_fail (TTV_IS_TAB_STATE (self));
  if (start)
    *start = self->span_start;
  if (end)
    *end = self->span_end;
}

void
ttv_tab_state_get_time_window (TtvTabState *self, TtvTime *start, TtvTime *end)
{
  g_return_if_fail (TTV_IS_TAB_STATE (self));
  if (start)
    *start = self->window_start;
  if (end)
    *end = self->window_end;
}

TtvTime
ttv_tab_state_get_current_time (TtvTabState *self)
{
  g_return_val_if_fail (TTV_IS_TAB_STATE (self), 0);
  return self->current_time;
}

gboolean
ttv_tab_state_get_selection (TtvTabState *self, TtvTime *start, TtvTime *end)
{
  g_return_val_if_fail (TTV_IS_TAB_STATE (self), FALSE);
  if (start)
    *start = self->selection_start;
  if (end)
    *end = self->selection_end;
  return self->has_selection;
}

const char *
ttv_tab_state_get_filter (TtvTabState *self)
{
  g_return_val_if_fail (TTV_IS_TAB_STATE (self), "");
  return self->filter;
}

GPtrArray *
ttv_tab_state_get_bookmarks (TtvTabState *self)
{
  g_return_val_if_fail (TTV_IS_TAB_STATE (self), NULL);
  return self->bookmarks;
}

/* --- Setters --------------------------------------------------------------- */

void
ttv_tab_state_set_time_window (TtvTabState *self, TtvTime start, TtvTime end)
{
  g_return_if_fail (TTV_IS_TAB_STATE (self));

  if (end < start)
    {
      TtvTime t = start;
      start = end;
      end = t;
    }
  /* Keep the width when sliding past an edge. */
  if (start < self->span_start)
    {
      end = MIN (self->span_end, end + (self->span_start - start));
      start = self->span_start;
    }
  if (end > self->span_end)
    {
      start = MAX (self->span_start, start - (end - self->span_end));
      end = self->span_end;
    }
  if (end == start && self->span_end > self->span_start)
    end = MIN (self->span_end, start + 1);
  if (start == self->window_start && end == self->window_end)
    return;
  self->window_start = start;
  self->window_end = end;
  ttv_request_queue_cancel (self->queue, NULL, TTV_REQUEST_STALE_ON_TIME_WINDOW, FALSE);
  g_signal_emit (self, signals[SIG_TIME_WINDOW_CHANGED], 0);
}

void
ttv_tab_state_set_current_time (TtvTabState *self, TtvTime time)
{
  g_return_if_fail (TTV_IS_TAB_STATE (self));

  time = CLAMP (time, self->span_start, self->span_end);
  if (time == self->current_time)
    return;
  self->current_time = time;
  ttv_request_queue_cancel (self->queue, NULL, TTV_REQUEST_STALE_ON_CURRENT_TIME, FALSE);
  g_signal_emit (self, signals[SIG_CURRENT_TIME_CHANGED], 0);
  /* The window follows a current time that leaves it (End in the event
   * list, Find, a bookmark, a statistics row): centred on it, as wide. */
  if (time < self->window_start || time > self->window_end)
    {
      TtvTime half = (self->window_end - self->window_start) / 2;
      TtvTime start = time - MIN (half, time - self->span_start);
      ttv_tab_state_set_time_window (self, start, start + (self->window_end - self->window_start));
    }
}

void
ttv_tab_state_set_selection (TtvTabState *self, TtvTime start, TtvTime end)
{
  g_return_if_fail (TTV_IS_TAB_STATE (self));

  if (end < start)
    {
      TtvTime t = start;
      start = end;
      end = t;
    }
  start = CLAMP (start, self->span_start, self->span_end);
  end = CLAMP (end, self->span_start, self->span_end);
  if (self->has_selection && start == self->selection_start && end == self->selection_end)
    return;
  self->has_selection = TRUE;
  self->selection_start = start;
  self->selection_end = end;
  g_signal_emit (self, signals[SIG_SELECTION_CHANGED], 0);
}

void
ttv_tab_state_clear_selection (TtvTabState *self)
{
  g_return_if_fail (TTV_IS_TAB_STATE (self));
  if (!self->has_selection)
    return;
  self->has_selection = FALSE;
  g_signal_emit (self, signals[SIG_SELECTION_CHANGED], 0);
}

guint32
ttv_tab_state_get_selected_thread (TtvTabState *self)
{
  g_return_val_if_fail (TTV_IS_TAB_STATE (self), TTV_VIEWER_PID_NONE);
  return self->selected_thread;
}

guint
ttv_tab_state_get_selected_machine (TtvTabState *self)
{
  g_return_val_if_fail (TTV_IS_TAB_STATE (self), 0);
  return self->selected_machine;
}

void
ttv_tab_state_select_thread_on (TtvTabState *self, guint machine, guint32 tid)
{
  g_return_if_fail (TTV_IS_TAB_STATE (self));
  if (tid == self->selected_thread && machine == self->selected_machine)
    return;
  self->selected_thread = tid;
  self->selected_machine = machine;
  g_signal_emit (self, signals[SIG_SELECTED_THREAD_CHANGED], 0);
}

void
ttv_tab_state_set_selected_thread (TtvTabState *self, guint32 tid)
{
  g_return_if_fail (TTV_IS_TAB_STATE (self));
  ttv_tab_state_select_thread_on (self, self->selected_machine, tid);
}

/* Filtered requests are stale: their owners start again on the signal. */
static void
filter_changed (TtvTabState *self)
{
  ttv_request_queue_cancel (self->queue, NULL, TTV_REQUEST_STALE_ON_FILTER, FALSE);
  g_signal_emit (self, signals[SIG_FILTER_CHANGED], 0);
  recount_filter (self);
}

guint64
ttv_tab_state_get_filter_count (TtvTabState *self, gboolean *complete)
{
  g_return_val_if_fail (TTV_IS_TAB_STATE (self), 0);
  return ttv_filter_count_get (self->filter_count, complete);
}

gboolean
ttv_tab_state_set_filter (TtvTabState *self, const char *filter, GError **error)
{
  g_autofree char *text = g_strstrip (g_strdup (filter ? filter : ""));
  TtvViewerFilter *prog = NULL;

  g_return_val_if_fail (TTV_IS_TAB_STATE (self), FALSE);

  if (strcmp (text, self->filter) == 0)
    return TRUE;
  if (*text && (prog = ttv_viewer_filter_new (text, error)) == NULL)
    return FALSE;
  g_free (self->filter);
  self->filter = g_steal_pointer (&text);
  ttv_viewer_filter_free (self->filter_prog);
  self->filter_prog = prog;
  filter_changed (self);
  return TRUE;
}

gboolean
ttv_tab_state_filter_needs_state (TtvTabState *self)
{
  g_return_val_if_fail (TTV_IS_TAB_STATE (self), FALSE);
  return self->filter_prog && ttv_viewer_filter_needs_state (self->filter_prog);
}

gboolean
ttv_tab_state_event_matches_filter (TtvTabState *self, TtvEventRequest *request,
                                    const TtvViewerEvent *event)
{
  g_return_val_if_fail (TTV_IS_TAB_STATE (self), TRUE);

  return !self->filter_prog || ttv_viewer_filter_matches (self->filter_prog, request, event);
}

/* --- Bookmarks ------------------------------------------------------------- */

TtvViewerBookmark *
ttv_viewer_bookmark_new (const char *name, const char *text, gint cpu, TtvTime start, TtvTime end)
{
  TtvViewerBookmark *b = g_new0 (TtvViewerBookmark, 1);

  b->name = g_strdup (name ? name : "");
  b->text = g_strdup (text ? text : "");
  b->cpu = cpu;
  b->start = MIN (start, end);
  b->end = MAX (start, end);
  return b;
}

TtvViewerBookmark *
ttv_viewer_bookmark_copy (const TtvViewerBookmark *b)
{
  TtvViewerBookmark *c = ttv_viewer_bookmark_new (b->name, b->text, b->cpu, b->start, b->end);

  c->trace_index = b->trace_index;
  c->has_cycles = b->has_cycles;
  c->start_cycle = b->start_cycle;
  c->end_cycle = b->end_cycle;
  return c;
}

void
ttv_viewer_bookmark_free (TtvViewerBookmark *b)
{
  if (!b)
    return;
  g_free (b->name);
  g_free (b->text);
  g_free (b);
}

static gint
bookmark_compare (gconstpointer a, gconstpointer b)
{
  const TtvViewerBookmark *x = *(TtvViewerBookmark * const *) a;
  const TtvViewerBookmark *y = *(TtvViewerBookmark * const *) b;

  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  return g_strcmp0 (x->name, y->name);
}

void
ttv_tab_state_set_bookmarks (TtvTabState *self, GPtrArray *bookmarks)
{
  g_return_if_fail (TTV_IS_TAB_STATE (self));

  g_ptr_array_set_size (self->bookmarks, 0);
  if (bookmarks)
    {
      for (guint i = 0; i < bookmarks->len; i++)
        g_ptr_array_add (self->bookmarks, ttv_viewer_bookmark_copy (bookmarks->pdata[i]));
      g_ptr_array_unref (bookmarks);
    }
  g_ptr_array_sort (self->bookmarks, bookmark_compare);
  g_signal_emit (self, signals[SIG_BOOKMARKS_CHANGED], 0);
}

void
ttv_tab_state_add_bookmark (TtvTabState *self, TtvViewerBookmark *bookmark)
{
  g_return_if_fail (TTV_IS_TAB_STATE (self));
  g_return_if_fail (bookmark != NULL);

  g_ptr_array_add (self->bookmarks, bookmark);
  g_ptr_array_sort (self->bookmarks, bookmark_compare);
  g_signal_emit (self, signals[SIG_BOOKMARKS_CHANGED], 0);
}

void
ttv_tab_state_replace_bookmark (TtvTabState *self, guint index, TtvViewerBookmark *bookmark)
{
  g_return_if_fail (TTV_IS_TAB_STATE (self));
  g_return_if_fail (index < self->bookmarks->len);

  if (bookmark)
    {
      ttv_viewer_bookmark_free (self->bookmarks->pdata[index]);
      self->bookmarks->pdata[index] = bookmark;
      g_ptr_array_sort (self->bookmarks, bookmark_compare);
    }
  else
    g_ptr_array_remove_index (self->bookmarks, index);
  g_signal_emit (self, signals[SIG_BOOKMARKS_CHANGED], 0);
}

/* --- What the background passes hand over -------------------------------------- */

void
ttv_tab_state_set_density (TtvTabState *self, guint64 n_events, GArray *density,
                           GHashTable *type_density, const TtvDensityBins *bins)
{
  TtvDensityBins linear;

  g_return_if_fail (TTV_IS_TAB_STATE (self));
  if (!bins)
    {
      ttv_density_bins_init (&linear, self->span_start, self->span_end, density ? density->len : 1, NULL, 0);
      bins = &linear;
    }
  ttv_tab_analysis_set_density (self->analysis, n_events, density, type_density, bins);
  g_signal_emit (self, signals[SIG_DENSITY_READY], 0);
}

GArray *
ttv_tab_state_get_density (TtvTabState *self)
{
  g_return_val_if_fail (TTV_IS_TAB_STATE (self), NULL);
  return ttv_tab_analysis_get_density (self->analysis);
}

void
ttv_tab_state_set_state_pass (TtvTabState *self, TtvStateTracker *tracker, TtvStatistics *statistics)
{
  g_return_if_fail (TTV_IS_TAB_STATE (self));
  ttv_tab_analysis_set_state_pass (self->analysis, self->traceset, tracker, statistics);
  if (!tracker)
    return;
  g_signal_emit (self, signals[SIG_STATE_READY], 0);
  /* Until now state.* terms were false: filtered views start again. */
  if (ttv_tab_state_filter_needs_state (self))
    filter_changed (self);
}

void
ttv_tab_state_set_history (TtvTabState *self, TtvHistory *history)
{
  g_return_if_fail (TTV_IS_TAB_STATE (self));
  ttv_tab_analysis_set_history (self->analysis, self->traceset, history);
  g_signal_emit (self, signals[SIG_HISTORY_CHANGED], 0);
  if (history)
    ttv_open_bench_background_done (ttv_history_is_from_cache (history));
}

/* --- Lost events ------------------------------------------------------------- */

static gint
compare_lost (gconstpointer a, gconstpointer b)
{
  const TtvViewerLostEvents *x = a, *y = b;

  return x->start < y->start ? -1 : x->start > y->start;
}

GArray *
ttv_tab_state_dup_lost_events (TtvTabState *self, TtvTime t0, TtvTime t1)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (TtvViewerLostEvents));

  g_return_val_if_fail (TTV_IS_TAB_STATE (self), out);
  for (guint t = 0; t < ttv_traceset_get_n_traces (self->traceset); t++)
    {
      const TtvTrace *trace = ttv_traceset_get_trace (self->traceset, t);

      for (guint f = 0; f < trace->tracefiles->len; f++)
        {
          const TtvTracefile *tf = trace->tracefiles->pdata[f];

          for (guint i = 0; tf->lost && i < tf->lost->len; i++)
            {
              const TtvLostRange *r = &g_array_index (tf->lost, TtvLostRange, i);
              TtvViewerLostEvents l = { r->start, r->end, r->count, r->packets, t, f };

              if (r->end >= t0 && r->start <= t1)
                g_array_append_val (out, l);
            }
        }
    }
  g_array_sort (out, compare_lost);
  return out;
}
