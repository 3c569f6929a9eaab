/* ttv-event-list.c: the detailed event list.  The tree view holds only the
 * rows that fit on screen; the scroll bar maps to time; rows are fetched
 * from the tab with event requests (forward from a position, or backward by
 * scanning a widening time window before it), so that any trace size works.
 * PID, process and mode come with the events once the tab's state pass is
 * done; lost-events ranges show as rows of their own, set apart.  Columns
 * are shown, hidden and resized by the user (header menu, Columns button)
 * and remembered in the settings. */
#include "ttv-event-list.h"
#include "ttv-event-column-view.h"
#include "ttv-event-matcher.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#define COL_TIME TTV_EVENT_COLUMN_TIME
#define COL_DELTA TTV_EVENT_COLUMN_DELTA
#define COL_TRACE TTV_EVENT_COLUMN_TRACE
#define COL_CPU TTV_EVENT_COLUMN_CPU
#define COL_EVENT TTV_EVENT_COLUMN_EVENT
#define COL_PID TTV_EVENT_COLUMN_PID
#define COL_FIELDS TTV_EVENT_COLUMN_FIELDS
#define N_TEXT_COLS TTV_EVENT_N_COLUMNS

/* The store: the texts, then how a row looks (lost-events markers differ). */
enum {
  MODEL_STYLE = N_TEXT_COLS,  /* PangoStyle */
  MODEL_FOREGROUND,           /* colour name, NULL: the theme's */
  MODEL_MACHINE,              /* guint: the machine of the event's trace */
  N_MODEL_COLS
};

/* How lost-events rows stand out (a colour that reads on light and dark themes). */
#define LOST_FOREGROUND "#c01c28"
/* Before the count: a warning sign, so that the row reads as no event even
 * without colours. */
#define LOST_SIGN "\u26a0"

typedef struct {
  TtvTime time;
  TtvViewerPosition *pos;     /* owned; for a lost-events row, the next event's */
  char *text[N_TEXT_COLS];    /* owned; time and delta filled when shown */
  gboolean lost;              /* a lost-events marker, not an event */
  gboolean awaits_symbol;     /* has an ip whose symbol was not there yet */
  guint machine;              /* of its trace: its PID is a thread of that machine */
} Row;

/* A range of lost events of one stream (the tab's, sorted by start). */
typedef TtvViewerLostEvents LostMark;

#define EVENT_REQUEST_FLAGS (TTV_REQUEST_REPLACE | TTV_REQUEST_FILTERED | TTV_REQUEST_STALE_ON_FILTER \
                             | TTV_REQUEST_WITH_STATE)

typedef enum {
  SELECT_NONE,        /* keep the selected event if it is on screen */
  SELECT_FIRST,
  SELECT_LAST,
  SELECT_INDEX,       /* select_index, clamped */
  SELECT_TIME,        /* first row at or after select_time */
} SelectMode;

/* What a backward scan is for. */
typedef enum {
  BACK_ROWS,          /* the rows before the first one (Page Up, End) */
  BACK_FIND,          /* Find previous */
  BACK_DELTA,         /* the event before the first row: its delta */
} BackPurpose;

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
  BackPurpose purpose;
  SelectMode then_select;
  guint then_index;
} BackScan;

struct _TtvEventList {
  GtkBox parent_instance;

  TtvTabState *state;          /* owned reference */
  gulong handlers[8];

  GtkTreeView *view;
  TtvEventColumnView *column_view;   /* owned: columns, their menu and settings */
  gboolean focus_given;        /* the list took the focus when first shown */
  gboolean focus_entry_when_shown;   /* Find opened the search bar */
  GtkListStore *store;         /* owned: only the rows on screen */
  GtkWidget *scrolled;
  GtkAdjustment *vadj;         /* the time scroll bar */
  GtkWidget *search_bar;
  GtkEntry *search_entry;
  GtkToggleButton *search_expression;  /* Find by filter expression, not text */
  GtkLabel *search_status;
  GtkWidget *search_stop;      /* shown while a Find reads */

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
  gboolean first_paint_pending;  /* the first drawn rows are not announced yet */
};

G_DEFINE_FINAL_TYPE (TtvEventList, ttv_event_list, GTK_TYPE_BOX)

static void row_free (Row *row);
static void fetch_from_position (TtvEventList *self, const TtvViewerPosition *pos,
                                 TtvTime prev_time, SelectMode mode, guint index);
static void fetch_from_time (TtvEventList *self, TtvTime time, SelectMode mode);
static void find_next (TtvEventList *self, gboolean backward);
static void search_running (TtvEventList *self, gboolean running);
static void scan_back (TtvEventList *self, BackPurpose purpose, const TtvViewerPosition *anchor,
                       guint want, TtvEventMatcher *matcher, SelectMode mode, guint index);
static void set_first_delta (TtvEventList *self, const TtvViewerPosition *first, TtvTime prev);

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
row_new (TtvEventList *self, TtvEventRequest *req, const TtvViewerEvent *ev)
{
  Row *row = g_new0 (Row, 1);

  row->time = ttv_viewer_event_get_time (ev);
  row->pos = ttv_event_request_dup_position (req);
  /* The time and delta are written when shown: they follow the time format. */
  ttv_event_columns_fill (self->state, req, ev, TTV_EVENT_COLUMNS_ALL
                          & ~(TTV_EVENT_COLUMN_BIT (COL_TIME) | TTV_EVENT_COLUMN_BIT (COL_DELTA)),
                          row->text);
  row->awaits_symbol = !row->text[TTV_EVENT_COLUMN_SYMBOL] && ttv_event_columns_has_symbol (ev);
  row->machine = ttv_tab_state_get_trace_machine (self->state, ttv_viewer_event_get_trace (ev));
  return row;
}

/* --- Lost events ----------------------------------------------------------- */

static void
collect_lost (TtvEventList *self)
{
  g_array_unref (self->lost);
  self->lost = ttv_tab_state_dup_lost_events (self->state, TTV_TIME_MIN, TTV_TIME_MAX);
}

static Row *
lost_row_new (TtvEventList *self, const LostMark *m, const Row *next)
{
  g_autofree char *end = ttv_tab_state_format_time (self->state, m->end);
  Row *row = g_new0 (Row, 1);

  row->lost = TRUE;
  row->time = m->start;
  row->machine = ttv_tab_state_get_trace_machine (self->state, ttv_tab_state_get_trace (self->state, m->trace));
  row->pos = ttv_viewer_position_copy (next->pos);
  row->text[COL_TRACE] = g_strdup (ttv_viewer_trace_get_name (ttv_tab_state_get_trace (self->state, m->trace)));
  row->text[COL_CPU] = ttv_event_columns_dup_cpu (ttv_tab_state_get_trace (self->state, m->trace), m->stream);
  if (m->count)
    {
      g_autofree char *n = g_strdup_printf ("%" G_GUINT64_FORMAT, m->count);
      g_autofree char *text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s event lost", "%s events lost",
                                                            (gulong) MIN (m->count, G_MAXULONG)), n);

      row->text[COL_EVENT] = g_strconcat (LOST_SIGN " ", text, NULL);
    }
  else if (m->packets)
    {
      /* A gap in the packets' sequence numbers: how many events they held
       * is unknown. */
      g_autofree char *n = g_strdup_printf ("%" G_GUINT64_FORMAT, m->packets);
      g_autofree char *text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s packet lost", "%s packets lost",
                                                            (gulong) MIN (m->packets, G_MAXULONG)), n);

      row->text[COL_EVENT] = g_strconcat (LOST_SIGN " ", text, NULL);
    }
  else
    row->text[COL_EVENT] = g_strconcat (LOST_SIGN " ", _("Events lost"), NULL);
  if (m->packets && !m->count)
    row->text[COL_FIELDS] = g_strdup_printf (_("Packets lost whole from here until %s: their sequence numbers "
                                               "are missing from the stream"), end);
  else
    row->text[COL_FIELDS] = g_strdup_printf (_("Events lost from here until %s: the tracer's buffers were full"),
                                             end);
  return row;
}

/* Inserts before the event row at *@i a lost-events row for each range
 * that starts in (@prev, its time]; *@i moves on to the event row. */
static void
insert_lost_before (TtvEventList *self, guint *i, TtvTime prev)
{
  Row *row = self->rows->pdata[*i];
  guint lo = 0, hi = self->lost->len;

  /* The first range with start > prev. */
  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;

      if (g_array_index (self->lost, LostMark, mid).start > prev)
        hi = mid;
      else
        lo = mid + 1;
    }
  for (guint k = lo; k < self->lost->len; k++)
    {
      const LostMark *m = &g_array_index (self->lost, LostMark, k);

      if (m->start > row->time)
        break;
      g_ptr_array_insert (self->rows, (*i)++, lost_row_new (self, m, row));
    }
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

      /* Before the first row, unknown until the event before it is. */
      if (prev != TTV_TIME_MIN)
        insert_lost_before (self, &i, prev);
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

/* The time since the row shown before (@prev: its time, TTV_TIME_MIN when
 * unknown yet); lost-events rows have none. */
static char *
delta_text (TtvTime prev, const Row *row)
{
  if (prev == TTV_TIME_MIN || row->lost)
    return g_strdup ("");
  return g_strdup_printf ("%" G_GINT64_FORMAT ".%09" G_GINT64_FORMAT,
                          (row->time - prev) / 1000000000, (row->time - prev) % 1000000000);
}

/* Appends @row to the store, lost-events markers in italics, in colour,
 * with a warning sign: they are no events. */
static GType
model_column_type (guint column)
{
  switch (column)
    {
    case MODEL_STYLE:
      return PANGO_TYPE_STYLE;
    case MODEL_MACHINE:
      return G_TYPE_UINT;
    default:
      return G_TYPE_STRING;
    }
}

static void
store_row (TtvEventList *self, const Row *row)
{
  gint cols[N_MODEL_COLS];
  GValue values[N_MODEL_COLS] = { G_VALUE_INIT };
  GtkTreeIter iter;

  for (guint c = 0; c < N_MODEL_COLS; c++)
    {
      cols[c] = (gint) c;
      g_value_init (&values[c], model_column_type (c));
    }
  for (guint c = 0; c < N_TEXT_COLS; c++)
    g_value_set_string (&values[c], row->text[c]);
  g_value_set_enum (&values[MODEL_STYLE], row->lost ? PANGO_STYLE_ITALIC : PANGO_STYLE_NORMAL);
  g_value_set_static_string (&values[MODEL_FOREGROUND], row->lost ? LOST_FOREGROUND : NULL);
  g_value_set_uint (&values[MODEL_MACHINE], row->machine);
  gtk_list_store_insert_with_valuesv (self->store, &iter, -1, cols, values, N_MODEL_COLS);
  for (guint c = 0; c < N_MODEL_COLS; c++)
    g_value_unset (&values[c]);
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

      g_free (row->text[COL_TIME]);
      row->text[COL_TIME] = ttv_tab_state_format_time (self->state, row->time);
      g_free (row->text[COL_DELTA]);
      row->text[COL_DELTA] = delta_text (prev, row);
      if (!row->lost)
        prev = row->time;
      store_row (self, row);
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

/* --- The first drawn rows --------------------------------------------------- */

/* The first frame that shows rows is announced to the host once (its open
 * benchmark measures the time to it), then the handler goes. */
static gboolean
first_rows_drawn (GtkWidget *widget, cairo_t *cr, TtvEventList *self)
{
  if (!self->first_paint_pending || !self->rows->len)
    return GDK_EVENT_PROPAGATE;
  self->first_paint_pending = FALSE;
  g_signal_handlers_disconnect_by_func (widget, first_rows_drawn, self);
  ttv_viewer_notify_first_paint (GTK_WIDGET (self), self->rows->len);
  return GDK_EVENT_PROPAGATE;
}

/* --- The delta of the first row -------------------------------------------- */

/* The index of the first row that is an event, or -1. */
static gint
first_event_row (TtvEventList *self)
{
  for (guint i = 0; i < self->rows->len; i++)
    if (!((Row *) self->rows->pdata[i])->lost)
      return (gint) i;
  return -1;
}

/* After a jump the event before the rows is unknown: look for it (a short
 * backward scan) so that the first row's delta is not blank. */
static void
request_first_delta (TtvEventList *self)
{
  gint i = first_event_row (self);

  if (self->prev_time != TTV_TIME_MIN || i < 0)
    return;
  scan_back (self, BACK_DELTA, ((Row *) self->rows->pdata[i])->pos, 1, NULL, SELECT_NONE, 0);
}

/* The event before the first row (at @first, if the rows are still the
 * same) is at @prev: its delta, and the lost-events rows between them. */
static void
set_first_delta (TtvEventList *self, const TtvViewerPosition *first, TtvTime prev)
{
  gint i = first_event_row (self);
  guint at = 0;

  if (i < 0 || self->prev_time != TTV_TIME_MIN
      || ttv_viewer_position_compare (((Row *) self->rows->pdata[i])->pos, first) != 0)
    return;
  self->prev_time = prev;
  if (i == 0 && self->lost->len)
    insert_lost_before (self, &at, prev);
  show_rows (self);
}

/* --- Fetching forward ------------------------------------------------------ */

static gboolean
collect_event (TtvEventRequest *req, const TtvViewerEvent *ev, gpointer data)
{
  TtvEventList *self = data;

  g_ptr_array_add (self->incoming, row_new (self, req, ev));
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
  else
    request_first_delta (self);
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
back_event (TtvEventRequest *req, const TtvViewerEvent *ev, gpointer data)
{
  BackScan *scan = data;
  g_autoptr (TtvViewerPosition) pos = NULL;

  if (scan->anchor && ttv_viewer_event_get_time (ev) >= scan->anchor_time)
    {
      pos = ttv_event_request_dup_position (req);
      if (ttv_viewer_position_compare (pos, scan->anchor) >= 0)
        return FALSE;   /* reached the anchor */
    }
  if (scan->matcher && !ttv_event_matcher_matches (scan->matcher, req, ev))
    return TRUE;
  if (scan->ring->len == scan->want)
    g_ptr_array_remove_index (scan->ring, 0);
  g_ptr_array_add (scan->ring, row_new (scan->list, req, ev));
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
      if (scan->purpose != BACK_DELTA)
        self->fetching = FALSE;
      if (scan->purpose == BACK_FIND)
        {
          gtk_label_set_text (self->search_status, status == TTV_REQUEST_FAILED
                              ? _("Read error") : "");
          search_running (self, FALSE);
        }
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
  if (scan->purpose == BACK_DELTA)
    {
      if (scan->ring->len)
        set_first_delta (self, scan->anchor, ((Row *) scan->ring->pdata[0])->time);
    }
  else if (scan->purpose == BACK_FIND)
    {
      search_running (self, FALSE);
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

      fetch_from_position (self, ((Row *) scan->ring->pdata[first])->pos,
                           first > 0 ? ((Row *) scan->ring->pdata[first - 1])->time : TTV_TIME_MIN,
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
  /* Looking for the delta is no fetch: the list may fetch rows meanwhile
   * (which cancels it). */
  if (scan->purpose != BACK_DELTA)
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

/* Takes @matcher (may be NULL: every event). */
static void
scan_back (TtvEventList *self, BackPurpose purpose, const TtvViewerPosition *anchor, guint want,
           TtvEventMatcher *matcher, SelectMode mode, guint index)
{
  BackScan *scan = g_new0 (BackScan, 1);
  TtvTime ss, se;

  ttv_tab_state_get_time_span (self->state, &ss, &se);
  scan->list = self;
  scan->anchor = ttv_viewer_position_copy (anchor);
  scan->anchor_time = anchor ? ttv_viewer_position_get_time (anchor) : se;
  scan->want = MAX (1, want);
  scan->matcher = matcher;
  scan->purpose = purpose;
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
      scan_back (self, BACK_ROWS, ((Row *) self->rows->pdata[0])->pos, (guint) -delta, NULL, mode, index);
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
  scan_back (self, BACK_ROWS, NULL, self->n_visible, NULL, SELECT_LAST, 0);
}

/* F3 (Shift+F3, Ctrl+G, Ctrl+Shift+G) in the list: the next (previous)
 * match of what the find bar holds; with nothing to find, the bar opens. */
static void
find_again (TtvEventList *self, gboolean backward)
{
  if (!*gtk_entry_get_text (self->search_entry))
    {
      ttv_event_list_find (GTK_WIDGET (self));
      return;
    }
  gtk_search_bar_set_search_mode (GTK_SEARCH_BAR (self->search_bar), TRUE);
  find_next (self, backward);
}

static gboolean
key_pressed (GtkWidget *widget, GdkEventKey *ev, TtvEventList *self)
{
  gint cur = cursor_index (self);
  guint n = self->n_visible;

  /* No row selected yet (the list just opened): a moving key selects the
   * first row rather than move from an imaginary one. */
  if (cur < 0 && self->rows->len
      && (ev->keyval == GDK_KEY_Down || ev->keyval == GDK_KEY_KP_Down || ev->keyval == GDK_KEY_Up
          || ev->keyval == GDK_KEY_KP_Up || ev->keyval == GDK_KEY_Page_Down
          || ev->keyval == GDK_KEY_KP_Page_Down || ev->keyval == GDK_KEY_Page_Up
          || ev->keyval == GDK_KEY_KP_Page_Up))
    {
      self->select_mode = SELECT_FIRST;
      show_rows (self);
      return GDK_EVENT_STOP;
    }
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
      find_again (self, (ev->state & GDK_SHIFT_MASK) != 0);
      return GDK_EVENT_STOP;
    case GDK_KEY_g:
    case GDK_KEY_G:
      if (!(ev->state & GDK_CONTROL_MASK))
        return GDK_EVENT_PROPAGATE;
      find_again (self, (ev->state & GDK_SHIFT_MASK) != 0);
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

/* The first read is done: the scroll bar's scale (the event count), and a
 * followed trace's new events. */
static void
density_ready (TtvEventList *self)
{
  update_scrollbar (self);
  follow_tail (self);
}

/* The state pass is done: the rows on screen get their process columns. */
static void
state_ready (TtvEventList *self)
{
  if (self->rows_have_state || !ttv_tab_state_is_state_ready (self->state) || self->fetching)
    return;
  if (self->rows->len)
    fetch_from_position (self, ((Row *) self->rows->pdata[0])->pos, self->prev_time, SELECT_NONE, 0);
}

/* A userspace analysis is done: rows that wait for their symbol get it
 * (the symbols are looked up in the background the first time a row asks). */
static void
userspace_ready (TtvEventList *self)
{
  gboolean waiting = FALSE;

  for (guint i = 0; i < self->rows->len && !waiting; i++)
    waiting = ((Row *) self->rows->pdata[i])->awaits_symbol;
  if (!waiting)
    return;
  if (self->fetching)
    self->refetch_wanted = TRUE;
  else
    fetch_from_position (self, ((Row *) self->rows->pdata[0])->pos, self->prev_time, SELECT_NONE, 0);
}

static void
size_allocated (GtkWidget *widget, GdkRectangle *alloc, TtvEventList *self)
{
  guint n = compute_visible (self);

  ttv_event_column_view_fit (self->column_view, alloc->width);
  if (n == self->n_visible)
    return;
  self->n_visible = n;
  /* Tests compute where Page Down lands from it (G_MESSAGES_DEBUG=ttv-events). */
  g_debug ("event list: %u rows fit", n);
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
  TtvTime from, to;            /* the times searched: for the progress shown */
  guint64 n_read;
  gint64 shown_at;             /* monotonic time of the last progress shown */
} FindJob;

/* How often a Find says how far it is (microseconds). */
#define FIND_PROGRESS_INTERVAL 100000

static void
find_job_free (FindJob *job)
{
  ttv_event_matcher_free (job->matcher);
  ttv_viewer_position_free (job->hit);
  g_free (job);
}

static gboolean
find_event (TtvEventRequest *req, const TtvViewerEvent *ev, gpointer data)
{
  FindJob *job = data;

  if (job->skip_first)
    {
      job->skip_first = FALSE;
      return TRUE;
    }
  if (!ttv_event_matcher_matches (job->matcher, req, ev))
    {
      /* A search through millions of events says how far it is. */
      if ((++job->n_read & 4095) == 0 && g_get_monotonic_time () - job->shown_at >= FIND_PROGRESS_INTERVAL)
        {
          TtvTime t = ttv_viewer_event_get_time (ev);
          double done = job->to > job->from ? (double) (t - job->from) / (double) (job->to - job->from) : 0;
          g_autofree char *text = g_strdup_printf (_("Searching… %d %%"), (int) CLAMP (done * 100, 0, 99));

          gtk_label_set_text (job->list->search_status, text);
          job->shown_at = g_get_monotonic_time ();
        }
      return TRUE;
    }
  job->hit = ttv_event_request_dup_position (req);
  return FALSE;
}

static void
find_done (TtvEventRequest *req, TtvRequestStatus status, const GError *error, gpointer data)
{
  FindJob *job = data;
  TtvEventList *self = job->list;

  self->fetching = FALSE;
  search_running (self, FALSE);
  if (job->hit)
    {
      gtk_label_set_text (self->search_status, "");
      fetch_from_position (self, job->hit, TTV_TIME_MIN, SELECT_FIRST, 0);
    }
  else if (status == TTV_REQUEST_FAILED)
    gtk_label_set_text (self->search_status, _("Read error"));
  else if (status != TTV_REQUEST_CANCELLED)
    gtk_label_set_text (self->search_status, _("Not found"));
}

/* The Stop button beside the status, while a Find reads. */
static void
search_running (TtvEventList *self, gboolean running)
{
  gtk_widget_set_visible (self->search_stop, running);
}

/* Stop (or Escape in the entry): the Find's reading ends, the list stays
 * where it was. */
static void
search_stop_clicked (TtvEventList *self)
{
  ttv_tab_state_cancel_requests (self->state, self);
  self->fetching = FALSE;
  search_running (self, FALSE);
  gtk_label_set_text (self->search_status, _("Stopped"));
}

static void
find_next (TtvEventList *self, gboolean backward)
{
  const TtvViewerPosition *from = self->selected;
  gboolean expression = gtk_toggle_button_get_active (self->search_expression);
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvEventMatcher) matcher = ttv_event_matcher_new (gtk_entry_get_text (self->search_entry),
                                                               expression, self->state,
                                                               ttv_event_column_view_get_visible (self->column_view),
                                                               &error);
  FindJob *job;

  if (!matcher)
    {
      gtk_label_set_text (self->search_status, error ? error->message : "");
      return;
    }
  if (!from && self->rows->len)
    from = ((Row *) self->rows->pdata[0])->pos;
  if (backward)
    {
      scan_back (self, BACK_FIND, from, 1, g_steal_pointer (&matcher), SELECT_FIRST, 0);
      /* After the request: the one it replaced said it ended. */
      gtk_label_set_text (self->search_status, _("Searching…"));
      search_running (self, TRUE);
      return;
    }
  job = g_new0 (FindJob, 1);
  job->list = self;
  job->matcher = g_steal_pointer (&matcher);
  job->skip_first = from != NULL;
  ttv_tab_state_get_time_span (self->state, &job->from, &job->to);
  if (from)
    job->from = ttv_viewer_position_get_time (from);
  job->shown_at = g_get_monotonic_time ();
  self->fetching = TRUE;
  ttv_tab_state_request_from_position (self->state, self, from, 0, find_flags (job->matcher),
                                       find_event, find_done, job, (GDestroyNotify) find_job_free);
  gtk_label_set_text (self->search_status, _("Searching…"));
  search_running (self, TRUE);
}

static void
search_mode_toggled (TtvEventList *self)
{
  gboolean expression = gtk_toggle_button_get_active (self->search_expression);

  gtk_entry_set_placeholder_text (self->search_entry, expression
                                  ? _("Filter expression, e.g. state.pid = 42")
                                  : _("Find text in the visible columns"));
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
  /* The bar appears at the next frame: an entry not shown yet must not
   * take the keys (the release of the key that opened the bar). */
  if (gtk_widget_get_mapped (GTK_WIDGET (self->search_entry)))
    gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
  else
    self->focus_entry_when_shown = TRUE;
}

static void
search_entry_mapped (GtkWidget *entry, TtvEventList *self)
{
  if (!self->focus_entry_when_shown)
    return;
  self->focus_entry_when_shown = FALSE;
  gtk_widget_grab_focus (entry);
}

/* --- Focus and context menu ---------------------------------------------------- */

/* A new tab (or a list just asked for) has the keyboard in the list, not
 * in the first entry of the window: the list is what one reads and moves
 * through with the keys. */
static void
list_mapped (GtkWidget *view, TtvEventList *self)
{
  if (self->focus_given)
    return;
  self->focus_given = TRUE;
  gtk_widget_grab_focus (view);
}

/* A cell's whole text (names and fields are cut to fit their column). */
static gboolean
query_tooltip (GtkWidget *widget, gint x, gint y, gboolean keyboard, GtkTooltip *tooltip,
               TtvEventList *self)
{
  GtkTreeModel *model;
  GtkTreeIter iter;
  GtkTreeViewColumn *column = NULL;
  g_autoptr (GtkTreePath) path = NULL;
  g_autofree char *text = NULL;
  gint bx = x, by = y;
  guint c;

  if (!gtk_tree_view_get_tooltip_context (self->view, &bx, &by, keyboard, &model, &path, &iter))
    return FALSE;
  if (keyboard)
    gtk_tree_view_get_cursor (self->view, NULL, &column);
  else
    gtk_tree_view_get_path_at_pos (self->view, bx, by, NULL, &column, NULL, NULL);
  if (!column)
    return FALSE;
  c = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (column), "ttv-column"));
  gtk_tree_model_get (model, &iter, c, &text, -1);
  if (!text || !*text)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  gtk_tree_view_set_tooltip_cell (self->view, tooltip, path, column, NULL);
  return TRUE;
}

static gboolean
rows_pressed (GtkWidget *view, GdkEventButton *ev, TtvEventList *self)
{
  if (!gdk_event_triggers_context_menu ((GdkEvent *) ev))
    return GDK_EVENT_PROPAGATE;
  ttv_event_column_view_popup (self->column_view, (GdkEvent *) ev);
  return GDK_EVENT_STOP;
}

static gboolean
menu_key (GtkWidget *view, TtvEventList *self)
{
  ttv_event_column_view_popup (self->column_view, NULL);
  return TRUE;
}

static void
time_format_changed (TtvEventList *self)
{
  ttv_event_column_view_update (self->column_view);
  show_rows (self);
}

static void
traceset_changed (TtvEventList *self)
{
  ttv_event_column_view_update (self->column_view);
  restart (self);
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
  g_clear_pointer (&self->column_view, ttv_event_column_view_free);
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
  GtkWidget *scrollbar, *b, *side;
  GType types[N_MODEL_COLS];

  self->state = g_object_ref (state);

  /* Search bar (Ctrl+F). */
  self->search_bar = gtk_search_bar_new ();
  self->search_entry = GTK_ENTRY (gtk_search_entry_new ());
  gtk_entry_set_width_chars (self->search_entry, 32);
  gtk_widget_set_name (GTK_WIDGET (self->search_entry), "find-entry");
  gtk_entry_set_placeholder_text (self->search_entry, _("Find text in the visible columns"));
  g_signal_connect (self->search_entry, "activate", G_CALLBACK (search_activate), self);
  g_signal_connect (self->search_entry, "key-press-event", G_CALLBACK (search_key), self);
  g_signal_connect (self->search_entry, "map", G_CALLBACK (search_entry_mapped), self);
  gtk_box_pack_start (GTK_BOX (search_box), GTK_WIDGET (self->search_entry), FALSE, FALSE, 0);
  b = gtk_button_new_from_icon_name ("go-up-symbolic", GTK_ICON_SIZE_BUTTON);
  gtk_widget_set_tooltip_text (b, _("Find previous (Shift+Enter; Shift+F3 in the list)"));
  g_signal_connect_swapped (b, "clicked", G_CALLBACK (find_prev_clicked), self);
  gtk_box_pack_start (GTK_BOX (search_box), b, FALSE, FALSE, 0);
  b = gtk_button_new_from_icon_name ("go-down-symbolic", GTK_ICON_SIZE_BUTTON);
  gtk_widget_set_tooltip_text (b, _("Find next (Enter; F3 in the list)"));
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
  gtk_widget_set_name (GTK_WIDGET (self->search_status), "find-status");
  gtk_box_pack_start (GTK_BOX (search_box), GTK_WIDGET (self->search_status), FALSE, FALSE, 0);
  self->search_stop = gtk_button_new_with_mnemonic (_("_Stop"));
  gtk_widget_set_name (self->search_stop, "find-stop");
  gtk_widget_set_tooltip_text (self->search_stop, _("Stop searching (Escape)"));
  gtk_widget_set_no_show_all (self->search_stop, TRUE);
  g_signal_connect_swapped (self->search_stop, "clicked", G_CALLBACK (search_stop_clicked), self);
  gtk_box_pack_start (GTK_BOX (search_box), self->search_stop, FALSE, FALSE, 0);
  gtk_container_add (GTK_CONTAINER (self->search_bar), search_box);
  gtk_search_bar_set_show_close_button (GTK_SEARCH_BAR (self->search_bar), TRUE);
  gtk_box_pack_start (GTK_BOX (self), self->search_bar, FALSE, FALSE, 0);

  /* The list: a screenful of rows in a store, never the whole trace. */
  for (guint i = 0; i < N_MODEL_COLS; i++)
    types[i] = model_column_type (i);
  self->store = gtk_list_store_newv (N_MODEL_COLS, types);
  self->view = GTK_TREE_VIEW (gtk_tree_view_new_with_model (GTK_TREE_MODEL (self->store)));
  gtk_widget_set_name (GTK_WIDGET (self->view), "event-list-view");
  gtk_tree_view_set_enable_search (self->view, FALSE);
  self->column_view = ttv_event_column_view_new (GTK_WIDGET (self), self->view, state, MODEL_STYLE);
  gtk_tree_view_set_fixed_height_mode (self->view, TRUE);
  g_signal_connect (self->view, "key-press-event", G_CALLBACK (key_pressed), self);
  g_signal_connect (self->view, "button-press-event", G_CALLBACK (rows_pressed), self);
  g_signal_connect (self->view, "popup-menu", G_CALLBACK (menu_key), self);
  g_signal_connect (self->view, "map", G_CALLBACK (list_mapped), self);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self->view), TRUE);
  g_signal_connect (self->view, "query-tooltip", G_CALLBACK (query_tooltip), self);
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
  /* The Columns button above the scroll bar, beside the column headers. */
  side = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_box_pack_start (GTK_BOX (side), ttv_event_column_view_new_button (self->column_view), FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (side), scrollbar, TRUE, TRUE, 0);
  gtk_box_pack_start (GTK_BOX (hbox), side, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (self), hbox, TRUE, TRUE, 0);

  self->handlers[0] = g_signal_connect (state, "current-time-changed",
                                        G_CALLBACK (current_time_changed), self);
  self->handlers[1] = g_signal_connect_swapped (state, "filter-changed", G_CALLBACK (restart), self);
  self->handlers[2] = g_signal_connect_swapped (state, "traceset-changed", G_CALLBACK (traceset_changed), self);
  self->handlers[5] = g_signal_connect_swapped (state, "time-format-changed",
                                                G_CALLBACK (time_format_changed), self);
  self->handlers[4] = g_signal_connect_swapped (state, "time-window-changed", G_CALLBACK (follow_tail), self);
  self->handlers[3] = g_signal_connect_swapped (state, "density-ready", G_CALLBACK (density_ready), self);
  self->handlers[6] = g_signal_connect_swapped (state, "state-ready", G_CALLBACK (state_ready), self);
  self->handlers[7] = g_signal_connect_swapped (state, "userspace-ready", G_CALLBACK (userspace_ready), self);
  collect_lost (self);
  self->first_paint_pending = TRUE;
  g_signal_connect_after (self->view, "draw", G_CALLBACK (first_rows_drawn), self);

  self->n_visible = 40;   /* until the first allocation */
  fetch_from_position (self, NULL, TTV_TIME_MIN, SELECT_NONE, 0);
  gtk_widget_show_all (GTK_WIDGET (self));
  gtk_widget_set_can_focus (GTK_WIDGET (self->view), TRUE);
  return GTK_WIDGET (self);
}
