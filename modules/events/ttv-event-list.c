/* ttv-event-list.c: the detailed event list.  The tree view holds only the
 * rows that fit on screen; the scroll bar maps to time; rows are fetched
 * from the tab with event requests (forward from a position, or backward by
 * scanning a widening time window before it), so that any trace size works.
 * PID, process and mode come with the events once the tab's state pass is
 * done; lost-events ranges show as rows of their own. */
#include "ttv-event-list.h"
#include "ttv-event-matcher.h"

#include <glib/gi18n-lib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
  COL_TIME, COL_DELTA, COL_TRACE, COL_CPU, COL_EVENT, COL_PID, COL_PROCESS, COL_MODE,
  COL_FIELDS, N_TEXT_COLS
};

static const char *const column_titles[N_TEXT_COLS] = {
  N_("Time"), N_("Delta"), N_("Trace"), N_("CPU"), N_("Event"), N_("PID"), N_("Process"),
  N_("Mode"), N_("Fields"),
};

typedef struct {
  TtvTime time;
  TtvViewerPosition *pos;     /* owned; for a lost-events row, the next event's */
  char *text[N_TEXT_COLS];    /* owned; COL_DELTA filled when shown */
  gboolean lost;              /* a lost-events marker, not an event */
} Row;

/* A range of lost events of one tracefile. */
typedef struct {
  TtvTime start;
  guint64 count;
  const TtvTracefile *tracefile;   /* weak */
} LostMark;

#define EVENT_REQUEST_FLAGS (TTV_REQUEST_REPLACE | TTV_REQUEST_FILTERED | TTV_REQUEST_STALE_ON_FILTER \
                             | TTV_REQUEST_WITH_STATE)

typedef enum {
  SELECT_NONE,        /* keep the selected event if it is on screen */
  SELECT_FIRST,
  SELECT_LAST,
  SELECT_INDEX,       /* select_index, clamped */
  SELECT_TIME,        /* first row at or after select_time */
} SelectMode;

/* A backward scan: the last @want events before @anchor (NULL: the end),
 * matching @matcher when set, found in [anchor time - span, anchor). */
typedef struct {
  TtvEventList *list;          /* weak */
  TtvViewerPosition *anchor;   /* owned, NULL: end of traceset */
  TtvTime anchor_time;
  TtvTime span;
  guint want;
  TtvEventMatcher *matcher;    /* owned, NULL: every event */
  GPtrArray *ring;             /* of Row *, owned: the last @want found */
  gboolean for_find;
  SelectMode then_select;
  guint then_index;
} BackScan;

struct _TtvEventList {
  GtkBox parent_instance;

  TtvTabState *state;          /* owned reference */
  gulong handlers[5];

  GtkTreeView *view;
  GtkListStore *store;         /* owned: only the rows on screen */
  GtkWidget *scrolled;
  GtkAdjustment *vadj;         /* the time scroll bar */
  GtkWidget *search_bar;
  GtkEntry *search_entry;
  GtkToggleButton *search_expression;  /* Find by filter expression, not text */
  GtkLabel *search_status;

  GPtrArray *rows;             /* of Row *, owned: what the store shows */
  GPtrArray *incoming;         /* of Row *, owned: being fetched */
  TtvViewerPosition *selected; /* owned: the selected event, NULL if none */
  TtvTime prev_time;           /* the event before the first row, or TTV_TIME_MIN */
  SelectMode select_mode;
  guint select_index;
  TtvTime select_time;
  gint row_height;
  guint n_visible;
  gboolean updating;           /* programmatic change: ignore the signals it causes */
  guint scroll_idle;
  gboolean fetching;
  gboolean refetch_wanted;     /* size changed while fetching */
  gboolean rows_have_state;    /* the rows were fetched with the state ready */
  /* The rows end with the traceset's last event (End, or fewer rows than
   * fit): when a followed trace grows, the new events are shown. */
  gboolean tail;
  TtvTime tail_span_end;       /* the traceset's end when the rows were fetched */
  GArray *lost;                /* of LostMark, by start time */
  gboolean bench_pending;      /* TTV_BENCH_FIRST_PAINT: report the first drawn rows */
};

G_DEFINE_FINAL_TYPE (TtvEventList, ttv_event_list, GTK_TYPE_BOX)

static void row_free (Row *row);
static void fetch_from_position (TtvEventList *self, const TtvViewerPosition *pos,
                                 TtvTime prev_time, SelectMode mode, guint index);
static void fetch_from_time (TtvEventList *self, TtvTime time, SelectMode mode);
static void scan_back (TtvEventList *self, const TtvViewerPosition *anchor, guint want,
                       TtvEventMatcher *matcher, SelectMode mode, guint index);

static void
row_free (Row *row)
{
  if (!row)
    return;
  ttv_viewer_position_free (row->pos);
  for (guint i = 0; i < N_TEXT_COLS; i++)
    g_free (row->text[i]);
  g_free (row);
}

static Row *
row_new (TtvEventRequest *req, const TtvEvent *ev)
{
  Row *row = g_new0 (Row, 1);
  const TtvTracefile *tf = ev->tracefile;

  row->time = ev->time;
  row->pos = ttv_event_request_dup_position (req);
  row->text[COL_TIME] = ttv_viewer_time_to_string (ev->time);
  row->text[COL_TRACE] = g_strdup (tf->trace->name);
  row->text[COL_CPU] = tf->cpu >= 0 ? g_strdup_printf ("%d", tf->cpu) : g_strdup (tf->name);
  row->text[COL_EVENT] = g_strdup (ttv_viewer_event_get_name (ev));
  row->text[COL_FIELDS] = ttv_viewer_event_dup_fields (ev);
  {
    TtvViewerProcessInfo info;

    if (ttv_event_request_get_process (req, &info))
      {
        row->text[COL_PID] = g_strdup_printf ("%u", info.pid);
        row->text[COL_PROCESS] = g_strdup (info.name[0] ? info.name : "-");
        row->text[COL_MODE] = info.syscall ? g_strdup_printf ("%s %s", info.mode, info.syscall)
                                           : g_strdup (info.mode);
      }
  }
  return row;
}

/* --- Lost events ----------------------------------------------------------- */

static gint
compare_lost (gconstpointer a, gconstpointer b)
{
  const LostMark *x = a, *y = b;

  return x->start < y->start ? -1 : x->start > y->start;
}

static void
collect_lost (TtvEventList *self)
{
  g_array_set_size (self->lost, 0);
  for (guint t = 0; t < ttv_tab_state_get_n_traces (self->state); t++)
    {
      TtvTrace *trace = ttv_tab_state_get_trace (self->state, t);

      for (guint f = 0; f < trace->tracefiles->len; f++)
        {
          const TtvTracefile *tf = trace->tracefiles->pdata[f];

          for (guint i = 0; tf->lost && i < tf->lost->len; i++)
            {
              const TtvLostRange *r = &g_array_index (tf->lost, TtvLostRange, i);
              LostMark m = { r->start, r->count, tf };

              g_array_append_val (self->lost, m);
            }
        }
    }
  g_array_sort (self->lost, compare_lost);
}

static Row *
lost_row_new (const LostMark *m, const Row *next)
{
  Row *row = g_new0 (Row, 1);

  row->lost = TRUE;
  row->time = m->start;
  row->pos = ttv_viewer_position_copy (next->pos);
  row->text[COL_TIME] = ttv_viewer_time_to_string (m->start);
  row->text[COL_TRACE] = g_strdup (m->tracefile->trace->name);
  row->text[COL_CPU] = m->tracefile->cpu >= 0 ? g_strdup_printf ("%d", m->tracefile->cpu)
                                              : g_strdup (m->tracefile->name);
  if (m->count)
    {
      g_autofree char *n = g_strdup_printf ("%" G_GUINT64_FORMAT, m->count);
      row->text[COL_EVENT] = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s event lost",
                                                           "%s events lost", (gulong) MIN (m->count, G_MAXULONG)), n);
    }
  else
    row->text[COL_EVENT] = g_strdup (_("Events lost"));
  row->text[COL_FIELDS] = g_strdup (_("The tracer lost events here (buffers full)"));
  return row;
}

/* Puts each lost-events range before the first event at or after its start
 * (as ttv-report does), for the ranges between the rows shown. */
static void
insert_lost_rows (TtvEventList *self)
{
  GPtrArray *rows = self->rows;
  TtvTime prev = self->prev_time, ss;
  guint i = 0;

  ttv_tab_state_get_time_span (self->state, &ss, NULL);
  if (!self->lost->len || !rows->len)
    return;
  if (prev == TTV_TIME_MIN && ((Row *) rows->pdata[0])->time <= ss)
    prev = ss - 1;   /* the first event of the traceset */
  while (i < rows->len)
    {
      Row *row = rows->pdata[i];
      guint first, lo = 0, hi = self->lost->len;

      if (prev != TTV_TIME_MIN)
        {
          /* The first range with start > prev. */
          while (lo < hi)
            {
              guint mid = (lo + hi) / 2;

              if (g_array_index (self->lost, LostMark, mid).start > prev)
                hi = mid;
              else
                lo = mid + 1;
            }
          first = lo;
          for (guint k = first; k < self->lost->len; k++)
            {
              const LostMark *m = &g_array_index (self->lost, LostMark, k);

              if (m->start > row->time)
                break;
              g_ptr_array_insert (rows, i++, lost_row_new (m, row));
            }
        }
      prev = row->time;
      i++;
    }
}

/* --- Showing rows ---------------------------------------------------------- */

static guint
compute_visible (TtvEventList *self)
{
  gint height = gtk_widget_get_allocated_height (self->scrolled);
  gint header = 0;

  if (self->row_height <= 0)
    {
      GtkCellRenderer *cell = gtk_cell_renderer_text_new ();
      gint min, nat, sep = 0;

      g_object_ref_sink (cell);
      g_object_set (cell, "text", "0123456789", NULL);
      gtk_cell_renderer_get_preferred_height (cell, GTK_WIDGET (self->view), &min, &nat);
      gtk_widget_style_get (GTK_WIDGET (self->view), "vertical-separator", &sep, NULL);
      self->row_height = MAX (8, nat + sep);
      g_object_unref (cell);
    }
  if (gtk_widget_get_realized (GTK_WIDGET (self->view)))
    gtk_tree_view_convert_bin_window_to_widget_coords (self->view, 0, 0, NULL, &header);
  else
    header = self->row_height + 8;
  return MAX (1, (height - header) / self->row_height);
}

static void
update_scrollbar (TtvEventList *self)
{
  TtvTime ss, se, top, bottom;
  double span, page;

  ttv_tab_state_get_time_span (self->state, &ss, &se);
  span = (double) MAX (se - ss, 1);
  top = self->rows->len ? ((Row *) self->rows->pdata[0])->time : ss;
  bottom = self->rows->len ? ((Row *) self->rows->pdata[self->rows->len - 1])->time : top;
  page = MAX ((double) (bottom - top), span / 1000.0);
  self->updating = TRUE;
  /* upper = span + page: the last screenful is reachable by dragging. */
  gtk_adjustment_configure (self->vadj, (double) (top - ss), 0, span + page, page / 10, page, page);
  self->updating = FALSE;
}

static void
show_rows (TtvEventList *self)
{
  GtkTreeSelection *sel = gtk_tree_view_get_selection (self->view);
  TtvTime prev = self->prev_time;
  gint to_select = -1;

  self->updating = TRUE;
  gtk_list_store_clear (self->store);
  for (guint i = 0; i < self->rows->len; i++)
    {
      Row *row = self->rows->pdata[i];
      GtkTreeIter iter;

      g_free (row->text[COL_DELTA]);
      row->text[COL_DELTA] = prev == TTV_TIME_MIN || row->lost ? g_strdup ("")
        : g_strdup_printf ("%" G_GINT64_FORMAT ".%09" G_GINT64_FORMAT,
                           (row->time - prev) / 1000000000, (row->time - prev) % 1000000000);
      if (!row->lost)
        prev = row->time;
      gtk_list_store_insert_with_values (self->store, &iter, -1,
                                         COL_TIME, row->text[COL_TIME], COL_DELTA, row->text[COL_DELTA],
                                         COL_TRACE, row->text[COL_TRACE], COL_CPU, row->text[COL_CPU],
                                         COL_EVENT, row->text[COL_EVENT], COL_PID, row->text[COL_PID],
                                         COL_PROCESS, row->text[COL_PROCESS], COL_MODE, row->text[COL_MODE],
                                         COL_FIELDS, row->text[COL_FIELDS], -1);
      if (self->select_mode == SELECT_TIME && to_select < 0 && row->time >= self->select_time
          && !row->lost)
        to_select = i;
      if (self->select_mode == SELECT_NONE && self->selected
          && ttv_viewer_position_compare (row->pos, self->selected) == 0)
        to_select = i;
    }
  if (self->rows->len)
    switch (self->select_mode)
      {
      case SELECT_FIRST: to_select = 0; break;
      case SELECT_LAST: to_select = self->rows->len - 1; break;
      case SELECT_INDEX: to_select = MIN (self->select_index, self->rows->len - 1); break;
      default: break;
      }
  if (to_select >= 0)
    {
      g_autoptr (GtkTreePath) path = gtk_tree_path_new_from_indices (to_select, -1);
      Row *row = self->rows->pdata[to_select];

      gtk_tree_view_set_cursor (self->view, path, NULL, FALSE);
      g_clear_pointer (&self->selected, ttv_viewer_position_free);
      self->selected = ttv_viewer_position_copy (row->pos);
      if (self->select_mode != SELECT_NONE && self->select_mode != SELECT_TIME)
        {
          /* Moving the selection with the keyboard moves the current time. */
          self->updating = FALSE;
          ttv_tab_state_set_current_time (self->state, row->time);
          self->updating = TRUE;
        }
    }
  else
    gtk_tree_selection_unselect_all (sel);
  self->select_mode = SELECT_NONE;
  self->updating = FALSE;
  update_scrollbar (self);
}

/* --- Bench: TTV_BENCH_FIRST_PAINT ------------------------------------------ */

/* A "Field:   N kB" line of /proc/self/status, or -1. */
static gint64
status_kib (const char *field)
{
  g_autofree char *status = NULL;
  const char *line;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL))
    return -1;
  line = strstr (status, field);
  return line ? g_ascii_strtoll (line + strlen (field), NULL, 10) : -1;
}

/* After the first frame that shows rows: one JSON line, then quit (unless
 * the bench waits for the background passes, TTV_BENCH_BACKGROUND). */
static gboolean
bench_drawn (GtkWidget *widget, cairo_t *cr, TtvEventList *self)
{
  const char *t0 = g_getenv ("TTV_BENCH_T0");
  gint64 now = g_get_monotonic_time ();
  GApplication *app = g_application_get_default ();

  if (!self->bench_pending || !self->rows->len)
    return GDK_EVENT_PROPAGATE;
  self->bench_pending = FALSE;
  /* RssFile: pages of the memory-mapped trace (page cache, reclaimable);
   * RssAnon: the viewer's own memory. */
  printf ("{\"bench\": \"gui-first-paint\", \"seconds\": %.3f, \"rows\": %u, \"rss_kib\": %"
          G_GINT64_FORMAT ", \"rss_anon_kib\": %" G_GINT64_FORMAT ", \"rss_file_kib\": %"
          G_GINT64_FORMAT "}\n",
          t0 ? (now - g_ascii_strtoll (t0, NULL, 10)) / 1e6 : -1.0, self->rows->len,
          status_kib ("VmRSS:"), status_kib ("RssAnon:"), status_kib ("RssFile:"));
  fflush (stdout);
  if (app && !g_getenv ("TTV_BENCH_BACKGROUND"))
    g_application_quit (app);
  return GDK_EVENT_PROPAGATE;
}

/* --- Fetching forward ------------------------------------------------------ */

static gboolean
collect_event (TtvEventRequest *req, const TtvEvent *ev, gpointer data)
{
  TtvEventList *self = data;

  g_ptr_array_add (self->incoming, row_new (req, ev));
  return TRUE;
}

static void
collect_done (TtvEventRequest *req, TtvRequestStatus status, const GError *error, gpointer data)
{
  TtvEventList *self = data;
  GPtrArray *t;

  self->fetching = FALSE;
  if (status == TTV_REQUEST_CANCELLED)
    {
      g_ptr_array_set_size (self->incoming, 0);
      return;
    }
  if (status == TTV_REQUEST_FAILED)
    g_warning ("event list: %s", error ? error->message : "read failed");
  t = self->rows;
  self->rows = self->incoming;
  self->incoming = t;
  g_ptr_array_set_size (self->incoming, 0);
  self->rows_have_state = ttv_tab_state_is_state_ready (self->state);
  if (self->rows->len < self->n_visible)
    self->tail = TRUE;
  ttv_tab_state_get_time_span (self->state, NULL, &self->tail_span_end);
  insert_lost_rows (self);
  show_rows (self);
  if (self->refetch_wanted)
    {
      self->refetch_wanted = FALSE;
      if (self->rows->len)
        fetch_from_position (self, ((Row *) self->rows->pdata[0])->pos, self->prev_time,
                             SELECT_NONE, 0);
    }
}

static void
fetch_from_position (TtvEventList *self, const TtvViewerPosition *pos, TtvTime prev_time,
                     SelectMode mode, guint index)
{
  g_ptr_array_set_size (self->incoming, 0);
  self->prev_time = prev_time;
  self->select_mode = mode;
  self->select_index = index;
  self->fetching = TRUE;
  ttv_tab_state_request_from_position (self->state, self, pos, self->n_visible, EVENT_REQUEST_FLAGS,
                                       collect_event, collect_done, self, NULL);
}

static void
fetch_from_time (TtvEventList *self, TtvTime time, SelectMode mode)
{
  self->tail = FALSE;
  g_ptr_array_set_size (self->incoming, 0);
  self->prev_time = TTV_TIME_MIN;
  self->select_mode = mode;
  self->select_time = time;
  self->fetching = TRUE;
  ttv_tab_state_request_time_range (self->state, self, time, TTV_TIME_MAX, self->n_visible,
                                    EVENT_REQUEST_FLAGS, collect_event, collect_done, self, NULL);
}

/* --- Fetching backward ----------------------------------------------------- */

static void
back_scan_free (BackScan *scan)
{
  ttv_viewer_position_free (scan->anchor);
  ttv_event_matcher_free (scan->matcher);
  g_ptr_array_unref (scan->ring);
  g_free (scan);
}

static gboolean
back_event (TtvEventRequest *req, const TtvEvent *ev, gpointer data)
{
  BackScan *scan = data;
  g_autoptr (TtvViewerPosition) pos = NULL;

  if (scan->anchor && ev->time >= scan->anchor_time)
    {
      pos = ttv_event_request_dup_position (req);
      if (ttv_viewer_position_compare (pos, scan->anchor) >= 0)
        return FALSE;   /* reached the anchor */
    }
  if (scan->matcher && !ttv_event_matcher_matches (scan->matcher, req, ev))
    return TRUE;
  if (scan->ring->len == scan->want)
    g_ptr_array_remove_index (scan->ring, 0);
  g_ptr_array_add (scan->ring, row_new (req, ev));
  return TRUE;
}

static void start_back_scan (BackScan *scan);

static void
back_done (TtvEventRequest *req, TtvRequestStatus status, const GError *error, gpointer data)
{
  BackScan *scan = data;
  TtvEventList *self = scan->list;
  TtvTime ss, se;

  if (status == TTV_REQUEST_CANCELLED || status == TTV_REQUEST_FAILED)
    {
      self->fetching = FALSE;
      if (scan->for_find)
        gtk_label_set_text (self->search_status, status == TTV_REQUEST_FAILED
                            ? _("Read error") : "");
      back_scan_free (scan);
      return;
    }
  ttv_tab_state_get_time_span (self->state, &ss, &se);
  if (scan->ring->len < scan->want && scan->anchor_time - scan->span > ss)
    {
      /* Not enough before the anchor: look four times further back. */
      g_ptr_array_set_size (scan->ring, 0);
      scan->span = scan->span > G_MAXINT64 / 8 ? G_MAXINT64 / 2 : scan->span * 4;
      start_back_scan (scan);
      return;
    }
  if (scan->for_find)
    {
      if (scan->ring->len)
        {
          Row *hit = scan->ring->pdata[0];
          gtk_label_set_text (self->search_status, "");
          fetch_from_position (self, hit->pos, TTV_TIME_MIN, SELECT_FIRST, 0);
        }
      else
        {
          self->fetching = FALSE;
          gtk_label_set_text (self->search_status, _("Not found"));
        }
    }
  else if (scan->ring->len)
    {
      /* The list may have shrunk since the scan started (the progress bar
       * of a background pass appeared): start where the rows that fit now
       * still end with the anchor. */
      guint first = scan->ring->len > self->n_visible ? scan->ring->len - self->n_visible : 0;

      fetch_from_position (self, ((Row *) scan->ring->pdata[first])->pos, TTV_TIME_MIN,
                           scan->then_select, scan->then_index);
    }
  else
    fetch_from_position (self, NULL, TTV_TIME_MIN, scan->then_select, scan->then_index);
  back_scan_free (scan);
}

/* Requests that look for events: only the filtered ones, with the state
 * when the expression reads it. */
static TtvRequestFlags
find_flags (const TtvEventMatcher *matcher)
{
  TtvRequestFlags flags = TTV_REQUEST_REPLACE | TTV_REQUEST_FILTERED | TTV_REQUEST_STALE_ON_FILTER;

  if (matcher && ttv_event_matcher_needs_state (matcher))
    flags |= TTV_REQUEST_WITH_STATE;
  return flags;
}

static void
start_back_scan (BackScan *scan)
{
  TtvEventList *self = scan->list;
  TtvTime ss, se, from;

  ttv_tab_state_get_time_span (self->state, &ss, &se);
  from = scan->anchor_time - scan->span < ss ? ss : scan->anchor_time - scan->span;
  self->fetching = TRUE;
  ttv_tab_state_request_time_range (self->state, self, from, scan->anchor ? scan->anchor_time : se,
                                    0, find_flags (scan->matcher),
                                    back_event, back_done, scan, NULL);
}

static TtvTime
estimate_spacing (TtvEventList *self)
{
  TtvTime ss, se;
  guint64 n = ttv_tab_state_get_event_count (self->state, NULL);

  ttv_tab_state_get_time_span (self->state, &ss, &se);
  if (self->rows->len > 1)
    {
      TtvTime d = ((Row *) self->rows->pdata[self->rows->len - 1])->time - ((Row *) self->rows->pdata[0])->time;
      if (d > 0)
        return d / (self->rows->len - 1) + 1;
    }
  if (n > 0)
    return (se - ss) / (TtvTime) n + 1;
  return MAX (1, (se - ss) / 10000);
}

/* Takes @matcher (may be NULL: every event; else a Find). */
static void
scan_back (TtvEventList *self, const TtvViewerPosition *anchor, guint want, TtvEventMatcher *matcher,
           SelectMode mode, guint index)
{
  BackScan *scan = g_new0 (BackScan, 1);
  TtvTime ss, se;

  ttv_tab_state_get_time_span (self->state, &ss, &se);
  scan->list = self;
  scan->anchor = ttv_viewer_position_copy (anchor);
  scan->anchor_time = anchor ? ttv_viewer_position_get_time (anchor) : se;
  scan->want = MAX (1, want);
  scan->matcher = matcher;
  scan->for_find = matcher != NULL;
  scan->ring = g_ptr_array_new_with_free_func ((GDestroyNotify) row_free);
  scan->then_select = mode;
  scan->then_index = index;
  scan->span = MAX (1000, estimate_spacing (self) * (TtvTime) scan->want * 2);
  start_back_scan (scan);
}

/* --- Navigation ------------------------------------------------------------ */

static gint
cursor_index (TtvEventList *self)
{
  g_autoptr (GtkTreePath) path = NULL;

  gtk_tree_view_get_cursor (self->view, &path, NULL);
  return path ? gtk_tree_path_get_indices (path)[0] : -1;
}

static TtvTime
last_time (TtvEventList *self)
{
  return self->rows->len ? ((Row *) self->rows->pdata[self->rows->len - 1])->time : TTV_TIME_MIN;
}

/* Scrolls by @delta rows (negative: up), keeping the cursor at @cursor. */
static void
scroll_rows (TtvEventList *self, gint delta, SelectMode mode, guint index)
{
  if (!self->rows->len)
    return;
  if (delta > 0)
    {
      guint d = MIN ((guint) delta, self->rows->len - 1);

      if (d == 0 || self->rows->len < self->n_visible)
        {
          /* Already showing the end: only the cursor moves. */
          if (mode == SELECT_LAST || mode == SELECT_INDEX)
            {
              self->select_mode = SELECT_INDEX;
              self->select_index = self->rows->len - 1;
              show_rows (self);
            }
          return;
        }
      fetch_from_position (self, ((Row *) self->rows->pdata[d])->pos,
                           ((Row *) self->rows->pdata[d - 1])->time, mode, index);
    }
  else if (delta < 0)
    {
      self->tail = FALSE;
      scan_back (self, ((Row *) self->rows->pdata[0])->pos, (guint) -delta, NULL, mode, index);
    }
}

static void
go_home (TtvEventList *self)
{
  self->tail = FALSE;
  fetch_from_position (self, NULL, TTV_TIME_MIN, SELECT_FIRST, 0);
}

static void
go_end (TtvEventList *self)
{
  self->tail = TRUE;
  scan_back (self, NULL, self->n_visible, NULL, SELECT_LAST, 0);
}

static gboolean
key_pressed (GtkWidget *widget, GdkEventKey *ev, TtvEventList *self)
{
  gint cur = cursor_index (self);
  guint n = self->n_visible;

  switch (ev->keyval)
    {
    case GDK_KEY_Down:
    case GDK_KEY_KP_Down:
      if (cur >= 0 && (guint) cur + 1 < self->rows->len)
        return GDK_EVENT_PROPAGATE;
      scroll_rows (self, 1, SELECT_LAST, 0);
      return GDK_EVENT_STOP;
    case GDK_KEY_Up:
    case GDK_KEY_KP_Up:
      if (cur > 0)
        return GDK_EVENT_PROPAGATE;
      scroll_rows (self, -1, SELECT_FIRST, 0);
      return GDK_EVENT_STOP;
    case GDK_KEY_Page_Down:
    case GDK_KEY_KP_Page_Down:
      scroll_rows (self, MAX (1, (gint) n - 1), SELECT_INDEX, MAX (cur, 0));
      return GDK_EVENT_STOP;
    case GDK_KEY_Page_Up:
    case GDK_KEY_KP_Page_Up:
      scroll_rows (self, -MAX (1, (gint) n - 1), SELECT_INDEX, MAX (cur, 0));
      return GDK_EVENT_STOP;
    case GDK_KEY_Home:
    case GDK_KEY_KP_Home:
      go_home (self);
      return GDK_EVENT_STOP;
    case GDK_KEY_End:
    case GDK_KEY_KP_End:
      go_end (self);
      return GDK_EVENT_STOP;
    case GDK_KEY_F3:
      ttv_event_list_find (GTK_WIDGET (self));
      return GDK_EVENT_STOP;
    default:
      return GDK_EVENT_PROPAGATE;
    }
}

static gboolean
scrolled (GtkWidget *widget, GdkEventScroll *ev, TtvEventList *self)
{
  double dx, dy;

  if (ev->direction == GDK_SCROLL_UP)
    scroll_rows (self, -3, SELECT_NONE, 0);
  else if (ev->direction == GDK_SCROLL_DOWN)
    scroll_rows (self, 3, SELECT_NONE, 0);
  else if (gdk_event_get_scroll_deltas ((GdkEvent *) ev, &dx, &dy) && dy != 0)
    scroll_rows (self, dy > 0 ? 3 : -3, SELECT_NONE, 0);
  else
    return GDK_EVENT_PROPAGATE;
  return GDK_EVENT_STOP;
}

static gboolean
scroll_bar_idle (gpointer data)
{
  TtvEventList *self = data;
  TtvTime ss, se;
  double value = gtk_adjustment_get_value (self->vadj);

  self->scroll_idle = 0;
  ttv_tab_state_get_time_span (self->state, &ss, &se);
  if (value >= gtk_adjustment_get_upper (self->vadj) - gtk_adjustment_get_page_size (self->vadj) - 0.5)
    go_end (self);
  else
    fetch_from_time (self, ss + (TtvTime) value, SELECT_NONE);
  return G_SOURCE_REMOVE;
}

static void
scroll_bar_moved (GtkAdjustment *adj, TtvEventList *self)
{
  /* Dragging sends many values: fetch for the latest only. */
  if (!self->updating && !self->scroll_idle)
    self->scroll_idle = g_timeout_add (30, scroll_bar_idle, self);
}

static void
selection_changed (GtkTreeSelection *sel, TtvEventList *self)
{
  gint i = cursor_index (self);
  Row *row;

  if (self->updating || i < 0 || (guint) i >= self->rows->len)
    return;
  row = self->rows->pdata[i];
  g_clear_pointer (&self->selected, ttv_viewer_position_free);
  self->selected = ttv_viewer_position_copy (row->pos);
  ttv_tab_state_set_current_time (self->state, row->time);
}

static void
current_time_changed (TtvTabState *state, TtvEventList *self)
{
  TtvTime t = ttv_tab_state_get_current_time (state);
  gint cur = cursor_index (self);

  if (self->updating)
    return;
  if (cur >= 0 && (guint) cur < self->rows->len && ((Row *) self->rows->pdata[cur])->time == t)
    return;   /* we set it */
  if (self->rows->len && t >= ((Row *) self->rows->pdata[0])->time && t <= last_time (self))
    {
      self->select_mode = SELECT_TIME;
      self->select_time = t;
      show_rows (self);
      return;
    }
  fetch_from_time (self, t, SELECT_TIME);
}

static void
restart (TtvEventList *self)
{
  collect_lost (self);
  fetch_from_time (self, ttv_tab_state_get_current_time (self->state), SELECT_TIME);
}

/* The state pass finished: the rows on screen get their process columns. */
/* A followed trace grew (File > Follow Live Trace): rows that showed the
 * end show the new events, the last one selected if it was. */
static void
follow_tail (TtvEventList *self)
{
  TtvTime span_end;
  gboolean last_selected;

  ttv_tab_state_get_time_span (self->state, NULL, &span_end);
  if (!self->tail || self->fetching || span_end <= self->tail_span_end || !self->rows->len)
    return;
  last_selected = self->selected
                  && ttv_viewer_position_compare (((Row *) self->rows->pdata[self->rows->len - 1])->pos,
                                                  self->selected) == 0;
  /* By time, not by the first row's position: in a position taken before
   * the refresh, the tracefiles that had ended stay ended. */
  if (last_selected)
    go_end (self);
  else
    {
      fetch_from_time (self, ((Row *) self->rows->pdata[0])->time, SELECT_TIME);
      self->select_time = ttv_tab_state_get_current_time (self->state);   /* the selected row's */
    }
}

static void
statistics_changed (TtvTabState *state, TtvEventList *self)
{
  update_scrollbar (self);
  follow_tail (self);
  if (self->rows_have_state || !ttv_tab_state_is_state_ready (state) || self->fetching)
    return;
  if (self->rows->len)
    fetch_from_position (self, ((Row *) self->rows->pdata[0])->pos, self->prev_time, SELECT_NONE, 0);
}

static void
size_allocated (GtkWidget *widget, GdkRectangle *alloc, TtvEventList *self)
{
  guint n = compute_visible (self);

  if (n == self->n_visible)
    return;
  self->n_visible = n;
  if (self->fetching)
    self->refetch_wanted = TRUE;
  else if (self->rows->len)
    fetch_from_position (self, ((Row *) self->rows->pdata[0])->pos, self->prev_time, SELECT_NONE, 0);
  else
    fetch_from_position (self, NULL, TTV_TIME_MIN, SELECT_NONE, 0);
}

/* --- Find ------------------------------------------------------------------ */

typedef struct {
  TtvEventList *list;
  TtvEventMatcher *matcher;    /* owned */
  gboolean skip_first;
  TtvViewerPosition *hit;
} FindJob;

static void
find_job_free (FindJob *job)
{
  ttv_event_matcher_free (job->matcher);
  ttv_viewer_position_free (job->hit);
  g_free (job);
}

static gboolean
find_event (TtvEventRequest *req, const TtvEvent *ev, gpointer data)
{
  FindJob *job = data;

  if (job->skip_first)
    {
      job->skip_first = FALSE;
      return TRUE;
    }
  if (!ttv_event_matcher_matches (job->matcher, req, ev))
    return TRUE;
  job->hit = ttv_event_request_dup_position (req);
  return FALSE;
}

static void
find_done (TtvEventRequest *req, TtvRequestStatus status, const GError *error, gpointer data)
{
  FindJob *job = data;
  TtvEventList *self = job->list;

  self->fetching = FALSE;
  if (job->hit)
    {
      gtk_label_set_text (self->search_status, "");
      fetch_from_position (self, job->hit, TTV_TIME_MIN, SELECT_FIRST, 0);
    }
  else if (status != TTV_REQUEST_CANCELLED)
    gtk_label_set_text (self->search_status, _("Not found"));
}

static void
find_next (TtvEventList *self, gboolean backward)
{
  const TtvViewerPosition *from = self->selected;
  gboolean expression = gtk_toggle_button_get_active (self->search_expression);
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvEventMatcher) matcher = ttv_event_matcher_new (gtk_entry_get_text (self->search_entry),
                                                               expression, &error);
  FindJob *job;

  if (!matcher)
    {
      gtk_label_set_text (self->search_status, error ? error->message : "");
      return;
    }
  if (!from && self->rows->len)
    from = ((Row *) self->rows->pdata[0])->pos;
  gtk_label_set_text (self->search_status, _("Searching…"));
  if (backward)
    {
      scan_back (self, from, 1, g_steal_pointer (&matcher), SELECT_FIRST, 0);
      return;
    }
  job = g_new0 (FindJob, 1);
  job->list = self;
  job->matcher = g_steal_pointer (&matcher);
  job->skip_first = from != NULL;
  self->fetching = TRUE;
  ttv_tab_state_request_from_position (self->state, self, from, 0, find_flags (job->matcher),
                                       find_event, find_done, job, (GDestroyNotify) find_job_free);
}

static void
search_mode_toggled (TtvEventList *self)
{
  gboolean expression = gtk_toggle_button_get_active (self->search_expression);

  gtk_entry_set_placeholder_text (self->search_entry, expression
                                  ? _("Filter expression, e.g. state.pid = 42")
                                  : _("Find text in events"));
  gtk_label_set_text (self->search_status, "");
}

static void
search_activate (GtkEntry *entry, TtvEventList *self)
{
  find_next (self, FALSE);
}

static void
find_next_clicked (TtvEventList *self)
{
  find_next (self, FALSE);
}

static void
find_prev_clicked (TtvEventList *self)
{
  find_next (self, TRUE);
}

static gboolean
search_key (GtkWidget *widget, GdkEventKey *ev, TtvEventList *self)
{
  if ((ev->keyval == GDK_KEY_Return || ev->keyval == GDK_KEY_KP_Enter || ev->keyval == GDK_KEY_F3)
      && (ev->state & GDK_SHIFT_MASK))
    {
      find_next (self, TRUE);
      return GDK_EVENT_STOP;
    }
  if (ev->keyval == GDK_KEY_F3)
    {
      find_next (self, FALSE);
      return GDK_EVENT_STOP;
    }
  if (ev->keyval == GDK_KEY_Escape)
    {
      ttv_tab_state_cancel_requests (self->state, self);
      gtk_search_bar_set_search_mode (GTK_SEARCH_BAR (self->search_bar), FALSE);
      gtk_widget_grab_focus (GTK_WIDGET (self->view));
      return GDK_EVENT_STOP;
    }
  return GDK_EVENT_PROPAGATE;
}

void
ttv_event_list_find (GtkWidget *widget)
{
  TtvEventList *self = TTV_EVENT_LIST (widget);

  if (gtk_search_bar_get_search_mode (GTK_SEARCH_BAR (self->search_bar))
      && gtk_widget_has_focus (GTK_WIDGET (self->search_entry)))
    {
      find_next (self, FALSE);
      return;
    }
  gtk_search_bar_set_search_mode (GTK_SEARCH_BAR (self->search_bar), TRUE);
  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
}

/* --- Columns: shown / hidden from the header's context menu ---------------- */

static void
toggle_column (GtkCheckMenuItem *item, GtkTreeViewColumn *col)
{
  gtk_tree_view_column_set_visible (col, gtk_check_menu_item_get_active (item));
}

static gboolean
header_pressed (GtkWidget *button, GdkEventButton *ev, TtvEventList *self)
{
  GtkWidget *menu;

  if (!gdk_event_triggers_context_menu ((GdkEvent *) ev))
    return GDK_EVENT_PROPAGATE;
  menu = gtk_menu_new ();
  for (guint i = 0; i < N_TEXT_COLS; i++)
    {
      GtkTreeViewColumn *col = gtk_tree_view_get_column (self->view, i);
      GtkWidget *item = gtk_check_menu_item_new_with_label (_(column_titles[i]));

      gtk_check_menu_item_set_active (GTK_CHECK_MENU_ITEM (item), gtk_tree_view_column_get_visible (col));
      g_signal_connect (item, "toggled", G_CALLBACK (toggle_column), col);
      gtk_menu_shell_append (GTK_MENU_SHELL (menu), item);
    }
  gtk_widget_show_all (menu);
  gtk_menu_attach_to_widget (GTK_MENU (menu), button, NULL);
  g_signal_connect (menu, "deactivate", G_CALLBACK (gtk_widget_destroy), NULL);
  gtk_menu_popup_at_pointer (GTK_MENU (menu), (GdkEvent *) ev);
  return GDK_EVENT_STOP;
}

/* --- Construction ---------------------------------------------------------- */

static void
ttv_event_list_dispose (GObject *object)
{
  TtvEventList *self = TTV_EVENT_LIST (object);

  g_clear_handle_id (&self->scroll_idle, g_source_remove);
  if (self->state)
    {
      ttv_tab_state_cancel_requests (self->state, self);
      for (guint i = 0; i < G_N_ELEMENTS (self->handlers); i++)
        g_clear_signal_handler (&self->handlers[i], self->state);
    }
  g_clear_object (&self->state);
  g_clear_object (&self->store);
  G_OBJECT_CLASS (ttv_event_list_parent_class)->dispose (object);
}

static void
ttv_event_list_finalize (GObject *object)
{
  TtvEventList *self = TTV_EVENT_LIST (object);

  g_ptr_array_unref (self->rows);
  g_ptr_array_unref (self->incoming);
  g_array_unref (self->lost);
  ttv_viewer_position_free (self->selected);
  G_OBJECT_CLASS (ttv_event_list_parent_class)->finalize (object);
}

static void
ttv_event_list_class_init (TtvEventListClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = ttv_event_list_dispose;
  G_OBJECT_CLASS (klass)->finalize = ttv_event_list_finalize;
}

static void
ttv_event_list_init (TtvEventList *self)
{
  self->rows = g_ptr_array_new_with_free_func ((GDestroyNotify) row_free);
  self->incoming = g_ptr_array_new_with_free_func ((GDestroyNotify) row_free);
  self->prev_time = TTV_TIME_MIN;
  self->lost = g_array_new (FALSE, FALSE, sizeof (LostMark));
}

GtkWidget *
ttv_event_list_new (TtvTabState *state)
{
  TtvEventList *self = g_object_new (TTV_TYPE_EVENT_LIST, "orientation", GTK_ORIENTATION_VERTICAL, NULL);
  GtkWidget *hbox = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  GtkWidget *search_box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *scrollbar, *b;
  GType types[N_TEXT_COLS];

  self->state = g_object_ref (state);

  /* Search bar (Ctrl+F). */
  self->search_bar = gtk_search_bar_new ();
  self->search_entry = GTK_ENTRY (gtk_search_entry_new ());
  gtk_entry_set_width_chars (self->search_entry, 32);
  gtk_widget_set_name (GTK_WIDGET (self->search_entry), "find-entry");
  gtk_entry_set_placeholder_text (self->search_entry, _("Find text in events"));
  g_signal_connect (self->search_entry, "activate", G_CALLBACK (search_activate), self);
  g_signal_connect (self->search_entry, "key-press-event", G_CALLBACK (search_key), self);
  gtk_box_pack_start (GTK_BOX (search_box), GTK_WIDGET (self->search_entry), FALSE, FALSE, 0);
  b = gtk_button_new_from_icon_name ("go-up-symbolic", GTK_ICON_SIZE_BUTTON);
  gtk_widget_set_tooltip_text (b, _("Find previous (Shift+Enter)"));
  g_signal_connect_swapped (b, "clicked", G_CALLBACK (find_prev_clicked), self);
  gtk_box_pack_start (GTK_BOX (search_box), b, FALSE, FALSE, 0);
  b = gtk_button_new_from_icon_name ("go-down-symbolic", GTK_ICON_SIZE_BUTTON);
  gtk_widget_set_tooltip_text (b, _("Find next (Enter)"));
  g_signal_connect_swapped (b, "clicked", G_CALLBACK (find_next_clicked), self);
  gtk_box_pack_start (GTK_BOX (search_box), b, FALSE, FALSE, 0);
  self->search_expression = GTK_TOGGLE_BUTTON (gtk_check_button_new_with_mnemonic (_("E_xpression")));
  gtk_widget_set_name (GTK_WIDGET (self->search_expression), "find-expression");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->search_expression),
                               _("Find events matching a filter expression (as in the filter bar) "
                                 "instead of text"));
  g_signal_connect_swapped (self->search_expression, "toggled", G_CALLBACK (search_mode_toggled), self);
  gtk_box_pack_start (GTK_BOX (search_box), GTK_WIDGET (self->search_expression), FALSE, FALSE, 0);
  self->search_status = GTK_LABEL (gtk_label_new (NULL));
  gtk_box_pack_start (GTK_BOX (search_box), GTK_WIDGET (self->search_status), FALSE, FALSE, 0);
  gtk_container_add (GTK_CONTAINER (self->search_bar), search_box);
  gtk_search_bar_set_show_close_button (GTK_SEARCH_BAR (self->search_bar), TRUE);
  gtk_box_pack_start (GTK_BOX (self), self->search_bar, FALSE, FALSE, 0);

  /* The list: a screenful of rows in a store, never the whole trace. */
  for (guint i = 0; i < N_TEXT_COLS; i++)
    types[i] = G_TYPE_STRING;
  self->store = gtk_list_store_newv (N_TEXT_COLS, types);
  self->view = GTK_TREE_VIEW (gtk_tree_view_new_with_model (GTK_TREE_MODEL (self->store)));
  gtk_tree_view_set_enable_search (self->view, FALSE);
  for (guint i = 0; i < N_TEXT_COLS; i++)
    {
      GtkCellRenderer *cell = gtk_cell_renderer_text_new ();
      GtkTreeViewColumn *col = gtk_tree_view_column_new_with_attributes (_(column_titles[i]), cell,
                                                                         "text", i, NULL);
      if (i == COL_TIME || i == COL_DELTA || i == COL_CPU || i == COL_PID)
        g_object_set (cell, "family", "Monospace", NULL);
      gtk_tree_view_column_set_resizable (col, TRUE);
      gtk_tree_view_column_set_sizing (col, GTK_TREE_VIEW_COLUMN_FIXED);
      gtk_tree_view_column_set_fixed_width (col, i == COL_FIELDS ? 600 : i == COL_TIME ? 190
                                            : i == COL_EVENT ? 180 : i == COL_DELTA ? 120 : 70);
      gtk_tree_view_column_set_clickable (col, TRUE);
      gtk_tree_view_append_column (self->view, col);
      g_signal_connect (gtk_tree_view_column_get_button (col), "button-press-event",
                        G_CALLBACK (header_pressed), self);
    }
  gtk_tree_view_set_fixed_height_mode (self->view, TRUE);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->view),
                               _("Right-click a column header to show or hide columns"));
  gtk_widget_set_has_tooltip (GTK_WIDGET (self->view), FALSE);
  g_signal_connect (self->view, "key-press-event", G_CALLBACK (key_pressed), self);
  g_signal_connect (self->view, "scroll-event", G_CALLBACK (scrolled), self);
  g_signal_connect (gtk_tree_view_get_selection (self->view), "changed",
                    G_CALLBACK (selection_changed), self);

  self->scrolled = gtk_scrolled_window_new (NULL, NULL);
  /* EXTERNAL: no vertical scrolling inside; our own scroll bar maps to time. */
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (self->scrolled), GTK_POLICY_AUTOMATIC,
                                  GTK_POLICY_EXTERNAL);
  gtk_container_add (GTK_CONTAINER (self->scrolled), GTK_WIDGET (self->view));
  g_signal_connect (self->scrolled, "size-allocate", G_CALLBACK (size_allocated), self);
  gtk_box_pack_start (GTK_BOX (hbox), self->scrolled, TRUE, TRUE, 0);

  self->vadj = gtk_adjustment_new (0, 0, 1, 1, 1, 1);
  scrollbar = gtk_scrollbar_new (GTK_ORIENTATION_VERTICAL, self->vadj);
  gtk_widget_set_tooltip_text (scrollbar, _("Drag to move through the traceset by time"));
  g_signal_connect (self->vadj, "value-changed", G_CALLBACK (scroll_bar_moved), self);
  gtk_box_pack_start (GTK_BOX (hbox), scrollbar, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (self), hbox, TRUE, TRUE, 0);

  self->handlers[0] = g_signal_connect (state, "current-time-changed",
                                        G_CALLBACK (current_time_changed), self);
  self->handlers[1] = g_signal_connect_swapped (state, "filter-changed", G_CALLBACK (restart), self);
  self->handlers[2] = g_signal_connect_swapped (state, "traceset-changed", G_CALLBACK (restart), self);
  self->handlers[4] = g_signal_connect_swapped (state, "time-window-changed", G_CALLBACK (follow_tail), self);
  self->handlers[3] = g_signal_connect (state, "statistics-changed",
                                        G_CALLBACK (statistics_changed), self);
  collect_lost (self);
  if (g_getenv ("TTV_BENCH_FIRST_PAINT"))
    {
      self->bench_pending = TRUE;
      g_signal_connect_after (self->view, "draw", G_CALLBACK (bench_drawn), self);
    }

  self->n_visible = 40;   /* until the first allocation */
  fetch_from_position (self, NULL, TTV_TIME_MIN, SELECT_NONE, 0);
  gtk_widget_show_all (GTK_WIDGET (self));
  gtk_widget_set_can_focus (GTK_WIDGET (self->view), TRUE);
  return GTK_WIDGET (self);
}
