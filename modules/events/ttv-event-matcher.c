/* ttv-event-matcher.c: Find in the event list, by text (case-insensitive,
 * in what the visible columns show) or by a filter expression compiled once
 * by the viewer's filter API. */
#include "ttv-event-matcher.h"

#include <string.h>

struct _TtvEventMatcher {
  char *needle;               /* owned: text search, or NULL */
  TtvViewerFilter *filter;    /* owned: expression search, or NULL */
  TtvTabState *state;         /* owned reference: formats the times */
  guint columns;              /* where text is looked for */
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
  self->needle = filter ? NULL : g_strdup (text);
  self->state = g_object_ref (state);
  /* The delta depends on the row shown before, which a search does not
   * know: it is not searched. */
  self->columns = columns & ~TTV_EVENT_COLUMN_BIT (TTV_EVENT_COLUMN_DELTA);
  return self;
}

void
ttv_event_matcher_free (TtvEventMatcher *self)
{
  if (!self)
    return;
  ttv_viewer_filter_free (self->filter);
  g_clear_object (&self->state);
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

static gboolean
contains_nocase (const char *haystack, const char *needle)
{
  gsize n = strlen (needle);

  for (const char *h = haystack; h && *h; h++)
    if (g_ascii_strncasecmp (h, needle, n) == 0)
      return TRUE;
  return n == 0;
}

gboolean
ttv_event_matcher_matches (TtvEventMatcher *self, TtvEventRequest *request, const TtvEvent *event)
{
  char *text[TTV_EVENT_N_COLUMNS] = { NULL };
  gboolean found = FALSE;

  if (self->filter)
    return ttv_viewer_filter_matches (self->filter, request, event);
  ttv_event_columns_fill (self->state, request, event, self->columns, text);
  for (guint i = 0; i < TTV_EVENT_N_COLUMNS; i++)
    {
      found = found || (text[i] && contains_nocase (text[i], self->needle));
      g_free (text[i]);
    }
  return found;
}
