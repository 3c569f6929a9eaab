/* ttv-event-matcher.c: Find in the event list, by text (case-insensitive,
 * in what the visible columns show) or by a filter expression compiled once
 * by the viewer's filter API. */
#include "ttv-event-matcher.h"

#include <string.h>

struct _TtvEventMatcher {
  char *needle;               /* owned: text search (ASCII lower case), or NULL */
  gsize needle_len;
  char needle_up;             /* its first byte in upper case */
  TtvViewerFilter *filter;    /* owned: expression search, or NULL */
  TtvTabState *state;         /* owned reference: formats the times */
  guint columns;              /* where text is looked for */
  GString *text;              /* owned: a column's text */
  TtvViewerFieldsProbe *fields_probe;  /* owned: text search, or NULL */
  gboolean in_times;          /* the needle may be in a time */
  gboolean in_numbers;        /* the needle is digits only (a PID, a CPU number) */
};

TtvEventMatcher *
ttv_event_matcher_new (const char *text, gboolean expression, TtvTabState *state, guint columns,
                       GError **error)
{
  TtvEventMatcher *self;
  TtvViewerFilter *filter = NULL;

  g_return_val_if_fail (TTV_IS_TAB_STATE (state), NULL);
  if (!text || !*text)
    return NULL;
  if (expression && (filter = ttv_viewer_filter_new (text, error)) == NULL)
    return NULL;
  self = g_new0 (TtvEventMatcher, 1);
  self->filter = filter;
  self->needle = filter ? NULL : g_ascii_strdown (text, -1);
  self->needle_len = self->needle ? strlen (self->needle) : 0;
  self->needle_up = self->needle ? g_ascii_toupper (self->needle[0]) : 0;
  self->fields_probe = self->needle ? ttv_viewer_fields_probe_new (self->needle) : NULL;
  self->in_times = self->needle && ttv_time_display_may_contain (self->needle);
  self->in_numbers = self->needle && self->needle[strspn (self->needle, "0123456789")] == '\0';
  self->state = g_object_ref (state);
  /* The delta depends on the row shown before, which a search does not
   * know: it is not searched. */
  self->columns = columns & ~TTV_EVENT_COLUMN_BIT (TTV_EVENT_COLUMN_DELTA);
  self->text = g_string_new (NULL);
  return self;
}

void
ttv_event_matcher_free (TtvEventMatcher *self)
{
  if (!self)
    return;
  ttv_viewer_filter_free (self->filter);
  ttv_viewer_fields_probe_free (self->fields_probe);
  g_clear_object (&self->state);
  g_string_free (self->text, TRUE);
  g_free (self->needle);
  g_free (self);
}

gboolean
ttv_event_matcher_needs_state (const TtvEventMatcher *self)
{
  if (self->filter)
    return ttv_viewer_filter_needs_state (self->filter);
  return (self->columns & TTV_EVENT_COLUMNS_STATE) != 0;
}

/* Whether the @len bytes of @haystack hold @needle (@n bytes, ASCII lower
 * case; @up its first byte in upper case), ignoring ASCII case: a search
 * reads millions of texts, so the first byte is looked for with memchr in
 * both cases. */
static gboolean
contains_nocase (const char *haystack, gsize len, const char *needle, gsize n, char up)
{
  const char *end = haystack + len;
  char lo = needle[0];

  if (n == 0)
    return TRUE;
  for (const char *h = haystack; (gsize) (end - h) >= n;)
    {
      const char *a = memchr (h, lo, (gsize) (end - h) - n + 1);
      const char *b = lo == up ? NULL : memchr (h, up, (gsize) ((a ? a : end - n + 1) - h));
      const char *p = b ? b : a;

      if (!p)
        return FALSE;
      if (g_ascii_strncasecmp (p + 1, needle + 1, n - 1) == 0)
        return TRUE;
      h = p + 1;
    }
  return FALSE;
}

/* Whether what column @c shows for @event holds the needle: the strings
 * the event already has are searched where they are, the others
 * formatted into one buffer for every event (a search reads millions). */
static gboolean
column_contains (TtvEventMatcher *self, TtvEventColumn c, const TtvViewerEvent *event,
                 const TtvViewerProcessInfo *info)
{
  const char *plain = ttv_event_columns_peek_text (c, event, info);

  if (plain)
    return contains_nocase (plain, strlen (plain), self->needle, self->needle_len, self->needle_up);
  g_string_truncate (self->text, 0);
  ttv_event_columns_append_text (self->text, c, self->state, event, info);
  return contains_nocase (self->text->str, self->text->len, self->needle, self->needle_len, self->needle_up);
}

/* The columns in the order they are searched: cheap texts first, those
 * that are formatted or decoded last. */
static const TtvEventColumn search_order[] = {
  TTV_EVENT_COLUMN_EVENT, TTV_EVENT_COLUMN_PROCESS, TTV_EVENT_COLUMN_MODE, TTV_EVENT_COLUMN_PID,
  TTV_EVENT_COLUMN_CPU, TTV_EVENT_COLUMN_TRACE, TTV_EVENT_COLUMN_TIME, TTV_EVENT_COLUMN_SYMBOL,
  TTV_EVENT_COLUMN_FIELDS,
};

gboolean
ttv_event_matcher_matches (TtvEventMatcher *self, TtvEventRequest *request, const TtvViewerEvent *event)
{
  TtvViewerProcessInfo info;
  gboolean known;

  if (self->filter)
    return ttv_viewer_filter_matches (self->filter, request, event);
  known = (self->columns & TTV_EVENT_COLUMNS_STATE) && ttv_event_request_get_process (request, &info);
  for (guint i = 0; i < G_N_ELEMENTS (search_order); i++)
    {
      TtvEventColumn c = search_order[i];

      if (!(self->columns & TTV_EVENT_COLUMN_BIT (c)))
        continue;
      /* Formatting is most of a search's work: not for texts that cannot
       * show the needle (numbers, times, fields of some types). */
      if ((c == TTV_EVENT_COLUMN_TIME && !self->in_times)
          || (c == TTV_EVENT_COLUMN_PID && !self->in_numbers)
          || (c == TTV_EVENT_COLUMN_CPU && !self->in_numbers && ttv_viewer_event_get_cpu (event) >= 0)
          || (c == TTV_EVENT_COLUMN_FIELDS && !ttv_viewer_fields_probe_may_match (self->fields_probe, event)))
        continue;
      if (column_contains (self, c, event, known ? &info : NULL))
        return TRUE;
    }
  return FALSE;
}
