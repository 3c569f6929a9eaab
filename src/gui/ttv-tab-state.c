/* ttv-tab-state.c: the shared, non-widget state of one tab and the servicing
 * of viewers' event requests in chunks on idle.  Every viewer observes it. */
#include "ttv-config.h"

#include "ttv-tab-state-private.h"
#include "ttv-event-reader.h"
#include "ttv-time-display.h"

#include "ttv-decoder.h"
#include "ttv-kernel-model.h"
#include "ttv-position.h"
#include "ttv-state-pass.h"
#include "ttv-stats-tree.h"

#include <glib/gi18n.h>
#include <string.h>

/* One idle round reads at most this long, so that drawing and input keep up. */
#define CHUNK_USEC 8000
#define CHUNK_EVENTS 4096

enum {
  SIG_TRACESET_CHANGED,
  SIG_TIME_WINDOW_CHANGED,
  SIG_CURRENT_TIME_CHANGED,
  SIG_SELECTION_CHANGED,
  SIG_FILTER_CHANGED,
  SIG_BOOKMARKS_CHANGED,
  SIG_STATISTICS_CHANGED,
  SIG_TIME_FORMAT_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

typedef enum {
  REQUEST_RANGE,
  REQUEST_FROM_POSITION,
} RequestKind;

struct _TtvEventRequest {
  TtvTabState *state;            /* weak */
  gpointer owner;                /* weak, compared only */
  RequestKind kind;
  TtvTime start, end;
  guint64 max_events;            /* 0: no limit */
  guint64 delivered;
  TtvViewerPosition *pos;        /* owned: start, then resume point */
  gboolean skip_one;             /* resuming: pos is the last delivered event */
  gboolean started;
  gboolean in_delivery;
  gboolean cancelled;
  TtvRequestFlags flags;
  TtvEventFunc event_func;
  TtvRequestDoneFunc done_func;
  gpointer user_data;
  GDestroyNotify destroy;
  TtvState *sys_state;           /* owned: TTV_REQUEST_WITH_STATE, once the state is ready */
  const TtvEvent *current;       /* weak: the event being delivered */
};

struct _TtvTabState {
  GObject parent_instance;

  TtvTraceset *traceset;         /* owned reference */
  TtvTime span_start, span_end;
  TtvTime window_start, window_end;
  TtvTime current_time;
  gboolean has_selection;
  TtvTime selection_start, selection_end;
  char *filter;                  /* owned, "" when none */
  TtvViewerFilter *filter_prog;  /* owned, NULL when none */
  GPtrArray *bookmarks;          /* of TtvViewerBookmark *, owned */

  guint64 n_events;
  gboolean n_events_complete;
  GArray *density;               /* owned, may be NULL */
  GHashTable *type_density;      /* owned, may be NULL: name -> GArray of guint32 */
  TtvSharedTracker *shared;      /* owned reference, NULL until the state pass is done */
  TtvKernelModel *model;         /* owned, with @shared: applies events to requests' states */
  TtvStatistics *statistics;     /* owned, with @shared */
  TtvViewerStatsNode *stats;     /* owned: their tree, made when first asked for */

  GQueue requests;               /* of TtvEventRequest *, owned */
  TtvEventReader *reader;          /* owned, created on first use */
  TtvEventRequest *positioned;   /* weak: the request the reader is positioned for */
  guint n_workers;               /* statistics computations reading the traceset in threads */
  guint idle_id;
  gboolean shut_down;
};

G_DEFINE_FINAL_TYPE (TtvTabState, ttv_tab_state, G_TYPE_OBJECT)

static void request_finish (TtvEventRequest *req, TtvRequestStatus status, const GError *error);

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

  g_clear_pointer (&self->reader, ttv_event_reader_free);
  g_clear_pointer (&self->traceset, ttv_traceset_unref);
  g_clear_pointer (&self->bookmarks, g_ptr_array_unref);
  g_clear_pointer (&self->density, g_array_unref);
  g_clear_pointer (&self->type_density, g_hash_table_unref);
  g_clear_pointer (&self->shared, ttv_shared_tracker_unref);
  g_clear_pointer (&self->model, ttv_kernel_model_free);
  g_clear_pointer (&self->stats, ttv_viewer_stats_node_unref);
  g_clear_pointer (&self->statistics, ttv_statistics_free);
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
    "filter-changed", "bookmarks-changed", "statistics-changed", "time-format-changed",
  };

  object_class->dispose = ttv_tab_state_dispose;
  object_class->finalize = ttv_tab_state_finalize;
  for (guint i = 0; i < N_SIGNALS; i++)
    signals[i] = g_signal_new (names[i], G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                               NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
ttv_tab_state_init (TtvTabState *self)
{
  self->filter = g_strdup ("");
  self->bookmarks = g_ptr_array_new_with_free_func ((GDestroyNotify) ttv_viewer_bookmark_free);
  g_queue_init (&self->requests);
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

static void
cancel_matching (TtvTabState *self, gpointer owner, TtvRequestFlags flags, gboolean all)
{
  /* Copy first: done callbacks may queue new requests. */
  g_autoptr (GPtrArray) victims = g_ptr_array_new ();

  for (GList *l = self->requests.head; l; l = l->next)
    {
      TtvEventRequest *req = l->data;

      if (all || (owner && req->owner == owner) || (req->flags & flags))
        g_ptr_array_add (victims, req);
    }
  for (guint i = 0; i < victims->len; i++)
    ttv_event_request_cancel (victims->pdata[i]);
}

void
ttv_tab_state_set_traceset (TtvTabState *self, TtvTraceset *traceset)
{
  g_return_if_fail (TTV_IS_TAB_STATE (self));
  g_return_if_fail (traceset != NULL);

  cancel_matching (self, NULL, 0, TRUE);
  g_clear_pointer (&self->reader, ttv_event_reader_free);
  self->positioned = NULL;
  ttv_traceset_ref (traceset);
  g_clear_pointer (&self->traceset, ttv_traceset_unref);
  self->traceset = traceset;
  update_span (self);
  self->window_start = self->span_start;
  self->window_end = self->span_end;
  self->current_time = CLAMP (self->current_time, self->span_start, self->span_end);
  self->n_events = 0;
  self->n_events_complete = FALSE;
  g_clear_pointer (&self->density, g_array_unref);
  g_clear_pointer (&self->type_density, g_hash_table_unref);
  g_clear_pointer (&self->shared, ttv_shared_tracker_unref);
  g_clear_pointer (&self->model, ttv_kernel_model_free);
  g_clear_pointer (&self->stats, ttv_viewer_stats_node_unref);
  g_clear_pointer (&self->statistics, ttv_statistics_free);
  g_signal_emit (self, signals[SIG_TRACESET_CHANGED], 0);
  g_signal_emit (self, signals[SIG_TIME_WINDOW_CHANGED], 0);
}

gboolean
ttv_tab_state_refresh (TtvTabState *self, gboolean *changed, GError **error)
{
  TtvTime old_start = self->span_start, old_end = self->span_end;
  gboolean was_empty;
  guint32 shape;

  g_return_val_if_fail (TTV_IS_TAB_STATE (self), FALSE);

  *changed = FALSE;
  if (!g_queue_is_empty (&self->requests) || self->n_workers > 0 || self->shut_down)
    return TRUE;   /* busy: the caller tries again later */
  /* The formats refresh only without live cursors. */
  g_clear_pointer (&self->reader, ttv_event_reader_free);
  self->positioned = NULL;
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
    g_signal_emit (self, signals[SIG_TRACESET_CHANGED], 0);
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
  return TRUE;
}

void
ttv_tab_state_shutdown (TtvTabState *self)
{
  self->shut_down = TRUE;
  cancel_matching (self, NULL, 0, TRUE);
  g_clear_handle_id (&self->idle_id, g_source_remove);
}

/* --- Getters --------------------------------------------------------------- */

guint
ttv_tab_state_get_n_traces (TtvTabState *self)
{
  g_return_val_if_fail (TTV_IS_TAB_STATE (self), 0);
  return self->traceset ? ttv_traceset_get_n_traces (self->traceset) : 0;
}

TtvTrace *
ttv_tab_state_get_trace (TtvTabState *self, guint index)
{
  g_return_val_if_fail (TTV_IS_TAB_STATE (self), NULL);
  g_return_val_if_fail (index < ttv_tab_state_get_n_traces (self), NULL);
  return ttv_traceset_get_trace (self->traceset, index);
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

guint64
ttv_tab_state_get_event_count (TtvTabState *self, gboolean *complete)
{
  g_return_val_if_fail (TTV_IS_TAB_STATE (self), 0);
  if (complete)
    *complete = self->n_events_complete;
  return self->n_events;
}

GArray *
ttv_tab_state_get_density (TtvTabState *self)
{
  g_return_val_if_fail (TTV_IS_TAB_STATE (self), NULL);
  return self->density;
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
  cancel_matching (self, NULL, TTV_REQUEST_STALE_ON_TIME_WINDOW, FALSE);
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
  cancel_matching (self, NULL, TTV_REQUEST_STALE_ON_CURRENT_TIME, FALSE);
  g_signal_emit (self, signals[SIG_CURRENT_TIME_CHANGED], 0);
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

/* Filtered requests are stale: their owners start again on the signal. */
static void
filter_changed (TtvTabState *self)
{
  cancel_matching (self, NULL, TTV_REQUEST_STALE_ON_FILTER, FALSE);
  g_signal_emit (self, signals[SIG_FILTER_CHANGED], 0);
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
ttv_tab_state_event_matches_filter (TtvTabState *self, TtvEventRequest *request, const TtvEvent *event)
{
  g_return_val_if_fail (TTV_IS_TAB_STATE (self), TRUE);

  return !self->filter_prog || ttv_viewer_filter_matches (self->filter_prog, request, event);
}

const TtvState *
ttv_event_request_get_state (TtvEventRequest *request)
{
  return request->sys_state;
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

void
ttv_tab_state_set_statistics (TtvTabState *self, guint64 n_events, gboolean complete, GArray *density)
{
  g_return_if_fail (TTV_IS_TAB_STATE (self));

  self->n_events = n_events;
  self->n_events_complete = complete;
  if (density)
    {
      g_clear_pointer (&self->density, g_array_unref);
      self->density = density;
    }
  g_signal_emit (self, signals[SIG_STATISTICS_CHANGED], 0);
}

/* --- Requests -------------------------------------------------------------- */

static gboolean serve_idle (gpointer data);

static void
ensure_idle (TtvTabState *self)
{
  if (!self->idle_id && !g_queue_is_empty (&self->requests) && !self->shut_down)
    self->idle_id = g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, serve_idle, self, NULL);
}

static TtvEventRequest *
request_new (TtvTabState *self, gpointer owner, TtvRequestFlags flags, TtvEventFunc event_func,
             TtvRequestDoneFunc done_func, gpointer user_data, GDestroyNotify destroy)
{
  TtvEventRequest *req;

  if (flags & TTV_REQUEST_REPLACE && owner)
    cancel_matching (self, owner, 0, FALSE);
  req = g_new0 (TtvEventRequest, 1);
  req->state = self;
  req->owner = owner;
  req->flags = flags;
  req->event_func = event_func;
  req->done_func = done_func;
  req->user_data = user_data;
  req->destroy = destroy;
  return req;
}

static TtvEventRequest *
request_queue (TtvTabState *self, TtvEventRequest *req)
{
  if (self->shut_down)
    {
      /* Still exactly one done call. */
      g_queue_push_tail (&self->requests, req);
      request_finish (req, TTV_REQUEST_CANCELLED, NULL);
      return NULL;
    }
  g_queue_push_tail (&self->requests, req);
  ensure_idle (self);
  return req;
}

TtvEventRequest *
ttv_tab_state_request_time_range (TtvTabState *self, gpointer owner, TtvTime start, TtvTime end,
                                  guint64 max_events, TtvRequestFlags flags,
                                  TtvEventFunc event_func, TtvRequestDoneFunc done_func,
                                  gpointer user_data, GDestroyNotify destroy)
{
  TtvEventRequest *req;

  g_return_val_if_fail (TTV_IS_TAB_STATE (self), NULL);
  g_return_val_if_fail (event_func != NULL, NULL);

  req = request_new (self, owner, flags, event_func, done_func, user_data, destroy);
  req->kind = REQUEST_RANGE;
  req->start = start;
  req->end = end;
  req->max_events = max_events;
  return request_queue (self, req);
}

TtvEventRequest *
ttv_tab_state_request_from_position (TtvTabState *self, gpointer owner,
                                     const TtvViewerPosition *pos, guint64 n_events,
                                     TtvRequestFlags flags, TtvEventFunc event_func,
                                     TtvRequestDoneFunc done_func, gpointer user_data,
                                     GDestroyNotify destroy)
{
  TtvEventRequest *req;

  g_return_val_if_fail (TTV_IS_TAB_STATE (self), NULL);
  g_return_val_if_fail (event_func != NULL, NULL);

  req = request_new (self, owner, flags, event_func, done_func, user_data, destroy);
  req->kind = REQUEST_FROM_POSITION;
  req->pos = ttv_viewer_position_copy (pos);
  req->start = TTV_TIME_MIN;
  req->end = TTV_TIME_MAX;
  req->max_events = n_events;
  return request_queue (self, req);
}

TtvViewerPosition *
ttv_event_request_dup_position (TtvEventRequest *req)
{
  g_return_val_if_fail (req != NULL, NULL);
  g_return_val_if_fail (req->in_delivery, NULL);
  return (TtvViewerPosition *) ttv_event_reader_dup_event_position (req->state->reader);
}

static void
request_finish (TtvEventRequest *req, TtvRequestStatus status, const GError *error)
{
  TtvTabState *self = req->state;

  g_queue_remove (&self->requests, req);
  if (self->positioned == req)
    self->positioned = NULL;
  if (req->done_func)
    req->done_func (req, status, error, req->user_data);
  if (req->destroy)
    req->destroy (req->user_data);
  ttv_viewer_position_free (req->pos);
  ttv_state_free (req->sys_state);
  g_free (req);
}

void
ttv_event_request_cancel (TtvEventRequest *req)
{
  g_return_if_fail (req != NULL);

  if (req->in_delivery)
    req->cancelled = TRUE;
  else
    request_finish (req, TTV_REQUEST_CANCELLED, NULL);
}

void
ttv_tab_state_cancel_requests (TtvTabState *self, gpointer owner)
{
  g_return_if_fail (TTV_IS_TAB_STATE (self));
  if (owner)
    cancel_matching (self, owner, 0, FALSE);
}

guint
ttv_tab_state_get_n_requests (TtvTabState *self)
{
  g_return_val_if_fail (TTV_IS_TAB_STATE (self), 0);
  return self->requests.length;
}

static guint
trace_index_of (TtvTabState *self, const TtvEvent *ev)
{
  guint n = ttv_traceset_get_n_traces (self->traceset);

  for (guint i = 0; i < n; i++)
    if (ttv_traceset_get_trace (self->traceset, i) == ev->tracefile->trace)
      return i;
  return 0;
}

/* The state just before the event at @pos: the state at the time before
 * it (nearest checkpoint and replay), then the events of the same time that
 * come before it in traceset order. */
static TtvState *
dup_state_before (TtvTabState *self, const TtvPosition *pos, GError **error)
{
  TtvTime t0 = ttv_position_get_time (pos);
  g_autoptr (TtvState) state = ttv_shared_tracker_dup_state_at (self->shared,
                                                                t0 == TTV_TIME_MIN ? t0 : t0 - 1,
                                                                error);
  g_autoptr (TtvContext) ctx = NULL;

  if (!state)
    return NULL;
  ctx = ttv_context_new (self->traceset, error);
  if (!ctx || !ttv_context_seek_time (ctx, t0, error))
    return NULL;
  for (guint guard = 0; guard < 1000000; guard++)
    {
      g_autoptr (TtvPosition) here = ttv_context_get_position (ctx, NULL);
      const TtvEvent *ev;
      GError *local = NULL;

      if (!here || ttv_position_compare (here, pos) >= 0)
        break;
      ev = ttv_context_next (ctx, &local);
      if (!ev)
        {
          if (local)
            {
              g_propagate_error (error, local);
              return NULL;
            }
          break;
        }
      ttv_kernel_model_apply (self->model, state,
                              ttv_traceset_get_stream_trace (self->traceset, ttv_context_get_stream (ctx)),
                              ev);
    }
  return g_steal_pointer (&state);
}

/* Whether @req tracks the state along its events: asked for, or needed by
 * the tab's filter. */
static gboolean
needs_state (TtvTabState *self, TtvEventRequest *req)
{
  return (req->flags & TTV_REQUEST_WITH_STATE)
         || ((req->flags & TTV_REQUEST_FILTERED) && ttv_tab_state_filter_needs_state (self));
}

/* Positions the reader for @req; FALSE with @error on failure. */
static gboolean
position_for (TtvTabState *self, TtvEventRequest *req, GError **error)
{
  if (!self->reader)
    {
      self->reader = ttv_event_reader_new (self->traceset, error);
      if (!self->reader)
        return FALSE;
    }
  if (self->positioned == req)
    return TRUE;
  self->positioned = NULL;
  if (req->pos)
    {
      if (!ttv_event_reader_seek_position (self->reader, (const TtvPosition *) req->pos, error))
        return FALSE;
      if (req->skip_one)
        {
          const TtvEvent *ev;

          if (!ttv_event_reader_next (self->reader, &ev, error) && error && *error)
            return FALSE;
        }
    }
  else if (!ttv_event_reader_seek_time (self->reader, req->start, error))
    return FALSE;
  if (needs_state (self, req) && self->shared && !req->sys_state)
    {
      g_autoptr (TtvViewerPosition) next = (TtvViewerPosition *) ttv_event_reader_dup_next_position (self->reader);

      /* At the end of the traceset there is nothing to deliver. */
      if (next)
        {
          req->sys_state = dup_state_before (self, (const TtvPosition *) next, error);
          if (!req->sys_state)
            return FALSE;
        }
    }
  req->started = TRUE;
  self->positioned = req;
  return TRUE;
}

static gboolean
serve_idle (gpointer data)
{
  TtvTabState *self = data;
  TtvEventRequest *req = g_queue_peek_head (&self->requests);
  gint64 deadline = g_get_monotonic_time () + CHUNK_USEC;
  g_autoptr (GError) error = NULL;

  if (!req)
    {
      self->idle_id = 0;
      return G_SOURCE_REMOVE;
    }
  g_object_ref (self);
  if (!position_for (self, req, &error))
    {
      request_finish (req, TTV_REQUEST_FAILED, error);
      goto out;
    }

  for (guint n = 0;; n++)
    {
      const TtvEvent *ev;
      gboolean go_on;

      if (req->max_events && req->delivered >= req->max_events)
        {
          request_finish (req, TTV_REQUEST_COMPLETED, NULL);
          goto out;
        }
      if (!ttv_event_reader_next (self->reader, &ev, &error))
        {
          self->positioned = NULL;
          request_finish (req, error ? TTV_REQUEST_FAILED : TTV_REQUEST_COMPLETED, error);
          goto out;
        }
      if (ev->time > req->end)
        {
          request_finish (req, TTV_REQUEST_COMPLETED, NULL);
          goto out;
        }
      if (req->sys_state)
        ttv_kernel_model_apply (self->model, req->sys_state, trace_index_of (self, ev), ev);
      if (ev->time >= req->start
          && (!(req->flags & TTV_REQUEST_FILTERED) || ttv_tab_state_event_matches_filter (self, req, ev)))
        {
          req->delivered++;
          req->in_delivery = TRUE;
          req->current = ev;
          go_on = req->event_func (req, ev, req->user_data);
          req->current = NULL;
          req->in_delivery = FALSE;
          if (req->cancelled || self->shut_down)
            {
              request_finish (req, TTV_REQUEST_CANCELLED, NULL);
              goto out;
            }
          if (!go_on)
            {
              request_finish (req, TTV_REQUEST_STOPPED, NULL);
              goto out;
            }
          /* The callback may have queued requests: they wait their turn. */
        }
      if (n % 64 == 63 && (n >= CHUNK_EVENTS || g_get_monotonic_time () > deadline))
        break;
    }

  /* Give the others a turn: remember where this one stands. */
  if (self->requests.length > 1)
    {
      ttv_viewer_position_free (req->pos);
      req->pos = (TtvViewerPosition *) ttv_event_reader_dup_event_position (self->reader);
      req->skip_one = TRUE;
      g_queue_remove (&self->requests, req);
      g_queue_push_tail (&self->requests, req);
    }

out:
  if (g_queue_is_empty (&self->requests) || self->shut_down)
    {
      self->idle_id = 0;
      g_object_unref (self);
      return G_SOURCE_REMOVE;
    }
  g_object_unref (self);
  return G_SOURCE_CONTINUE;
}

/* --- State and statistics -------------------------------------------------- */

void
ttv_tab_state_set_type_density (TtvTabState *self, GHashTable *type_density)
{
  g_return_if_fail (TTV_IS_TAB_STATE (self));
  g_clear_pointer (&self->type_density, g_hash_table_unref);
  self->type_density = type_density;
}

void
ttv_tab_state_set_state_pass (TtvTabState *self, TtvStateTracker *tracker, TtvStatistics *statistics)
{
  g_autoptr (GPtrArray) traces = g_ptr_array_new ();

  g_return_if_fail (TTV_IS_TAB_STATE (self));
  g_clear_pointer (&self->shared, ttv_shared_tracker_unref);
  g_clear_pointer (&self->model, ttv_kernel_model_free);
  g_clear_pointer (&self->stats, ttv_viewer_stats_node_unref);
  g_clear_pointer (&self->statistics, ttv_statistics_free);
  if (tracker)
    {
      for (guint i = 0; i < ttv_traceset_get_n_traces (self->traceset); i++)
        g_ptr_array_add (traces, ttv_traceset_get_trace (self->traceset, i));
      self->shared = ttv_shared_tracker_new (tracker);
      self->model = ttv_kernel_model_new (traces);
      self->statistics = statistics;
    }
  else
    ttv_statistics_free (statistics);
  g_signal_emit (self, signals[SIG_STATISTICS_CHANGED], 0);
  /* Until now state.* terms were false: filtered views start again. */
  if (tracker && ttv_tab_state_filter_needs_state (self))
    filter_changed (self);
}

gboolean
ttv_tab_state_is_state_ready (TtvTabState *self)
{
  g_return_val_if_fail (TTV_IS_TAB_STATE (self), FALSE);
  return self->shared != NULL;
}

static gboolean
fill_process_info (const TtvState *state, gint cpu, TtvViewerProcessInfo *info)
{
  const TtvProcessState *p = state && cpu >= 0 ? ttv_state_get_running (state, cpu) : NULL;

  memset (info, 0, sizeof *info);
  info->pid = TTV_VIEWER_PID_NONE;
  info->tgid = TTV_VIEWER_PID_NONE;
  info->name = "";
  info->mode = ttv_exec_mode_name (TTV_MODE_UNKNOWN);
  if (!p)
    return FALSE;
  info->pid = p->pid;
  info->tgid = p->tgid;
  info->name = p->name ? g_quark_to_string (p->name) : "";
  info->mode = ttv_exec_mode_name (ttv_process_state_get_mode (p));
  info->syscall = ttv_state_get_event_syscall (state, cpu);
  return TRUE;
}

gboolean
ttv_event_request_get_process (TtvEventRequest *req, TtvViewerProcessInfo *info)
{
  g_return_val_if_fail (req != NULL && info != NULL, FALSE);
  return fill_process_info (req->current ? req->sys_state : NULL,
                            req->current ? req->current->tracefile->cpu : -1, info);
}

gboolean
ttv_tab_state_get_process_at (TtvTabState *self, TtvTime time, gint cpu, TtvViewerProcessInfo *info)
{
  g_autoptr (TtvState) state = NULL;
  g_autoptr (GError) error = NULL;

  g_return_val_if_fail (TTV_IS_TAB_STATE (self), FALSE);
  g_return_val_if_fail (info != NULL, FALSE);
  if (self->shared)
    state = ttv_shared_tracker_dup_state_at (self->shared, time, &error);
  if (error)
    g_warning ("state at %" G_GINT64_FORMAT ": %s", time, error->message);
  return fill_process_info (state, cpu, info);
}

/* The plugin API's names for the analysis layer's tree nodes. */
TtvViewerStatsNode *
ttv_viewer_stats_node_ref (TtvViewerStatsNode *node)
{
  return ttv_stats_node_ref (node);
}

void
ttv_viewer_stats_node_unref (TtvViewerStatsNode *node)
{
  ttv_stats_node_unref (node);
}

TtvViewerStatsNode *
ttv_tab_state_get_statistics (TtvTabState *self)
{
  g_return_val_if_fail (TTV_IS_TAB_STATE (self), NULL);
  if (self->stats == NULL && self->statistics)
    self->stats = ttv_stats_tree_new (self->statistics, self->traceset);
  return self->stats;
}

/* A statistics computation in a thread: counted, so that the traceset is
 * not refreshed under its feet. */
typedef struct {
  TtvTabState *self;             /* owned reference */
  GAsyncReadyCallback callback;
  gpointer user_data;
} StatsCall;

static void
stats_call_done (GObject *source, GAsyncResult *result, gpointer data)
{
  StatsCall *call = data;

  call->self->n_workers--;
  call->callback (source, result, call->user_data);
  g_object_unref (call->self);
  g_free (call);
}

void
ttv_tab_state_compute_statistics_async (TtvTabState *self, TtvTime start, TtvTime end,
                                        GCancellable *cancellable, GAsyncReadyCallback callback,
                                        gpointer user_data)
{
  StatsCall *call;

  g_return_if_fail (TTV_IS_TAB_STATE (self));
  call = g_new0 (StatsCall, 1);
  call->self = g_object_ref (self);
  call->callback = callback;
  call->user_data = user_data;
  self->n_workers++;
  ttv_interval_stats_run_async (self->traceset, self->shared, MIN (start, end), MAX (start, end),
                                cancellable, stats_call_done, call);
}

TtvViewerStatsNode *
ttv_tab_state_compute_statistics_finish (TtvTabState *self, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (TTV_IS_TAB_STATE (self), NULL);
  return ttv_interval_stats_run_finish (result, error);
}

GArray *
ttv_tab_state_dup_density (TtvTabState *self, const char *event_name)
{
  GArray *src, *copy;

  g_return_val_if_fail (TTV_IS_TAB_STATE (self), NULL);
  if (!event_name)
    src = self->density;
  else
    src = self->type_density ? g_hash_table_lookup (self->type_density, event_name) : NULL;
  if (!src)
    return event_name && self->density ? g_array_set_size (g_array_sized_new (FALSE, TRUE, sizeof (guint32),
                                                                              self->density->len),
                                                           self->density->len)
                                       : NULL;
  copy = g_array_sized_new (FALSE, FALSE, sizeof (guint32), src->len);
  g_array_append_vals (copy, src->data, src->len);
  return copy;
}

static gint
compare_strings (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(char * const *) a, *(char * const *) b);
}

GStrv
ttv_tab_state_dup_density_names (TtvTabState *self)
{
  GPtrArray *names = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer key;

  g_return_val_if_fail (TTV_IS_TAB_STATE (self), NULL);
  if (self->type_density)
    {
      g_hash_table_iter_init (&iter, self->type_density);
      while (g_hash_table_iter_next (&iter, &key, NULL))
        g_ptr_array_add (names, g_strdup (key));
    }
  g_ptr_array_sort (names, compare_strings);
  g_ptr_array_add (names, NULL);
  return (GStrv) g_ptr_array_free (names, FALSE);
}

/* --- Helpers for modules --------------------------------------------------- */

char *
ttv_viewer_time_to_string (TtvTime time)
{
  return ttv_time_dup_string (time);
}

char *
ttv_viewer_format_duration (TtvTime duration)
{
  return ttv_time_dup_duration (duration);
}

gboolean
ttv_viewer_time_parse (const char *text, TtvTime *time, GError **error)
{
  return ttv_time_parse (text, time, error);
}

const char *
ttv_viewer_event_get_name (const TtvEvent *event)
{
  g_return_val_if_fail (event != NULL && event->type != NULL, "");
  return event->type->full_name ? event->type->full_name : event->type->name;
}

char *
ttv_viewer_event_dup_fields (const TtvEvent *event)
{
  /* The main thread only: one decoder reused for every call. */
  static TtvDecoder *decoder;
  g_autoptr (GError) error = NULL;
  GString *out = g_string_new (NULL);
  gint32 root;

  if (!decoder)
    decoder = ttv_decoder_new ();
  ttv_decoder_reset (decoder);
  root = ttv_event_decode_fields (event, decoder, &error);
  if (root < 0)
    g_string_append_printf (out, "<%s>", error ? error->message : _("undecodable"));
  else
    ttv_decoder_append_value (decoder, root, TTV_VALUE_STYLE_PLAIN, out);
  return g_string_free (out, FALSE);
}
