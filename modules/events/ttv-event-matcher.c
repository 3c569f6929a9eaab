/* ttv-event-matcher.c: Find in the event list, by text (case-insensitive,
 * in the name, the trace name and the fields' text) or by a filter
 * expression compiled once by the viewer's filter API. */
#include "ttv-event-matcher.h"

#include <string.h>

struct _TtvEventMatcher {
  char *needle;               /* owned: text search, or NULL */
  TtvViewerFilter *filter;    /* owned: expression search, or NULL */
};

TtvEventMatcher *
ttv_event_matcher_new (const char *text, gboolean expression, GError **error)
{
  TtvEventMatcher *self;
  TtvViewerFilter *filter = NULL;

  if (!text || !*text)
    return NULL;
  if (expression && (filter = ttv_viewer_filter_new (text, error)) == NULL)
    return NULL;
  self = g_new0 (TtvEventMatcher, 1);
  self->filter = filter;
  self->needle = filter ? NULL : g_strdup (text);
  return self;
}

void
ttv_event_matcher_free (TtvEventMatcher *self)
{
  if (!self)
    return;
  ttv_viewer_filter_free (self->filter);
  g_free (self->needle);
  g_free (self);
}

gboolean
ttv_event_matcher_needs_state (const TtvEventMatcher *self)
{
  return self->filter && ttv_viewer_filter_needs_state (self->filter);
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
  g_autofree char *fields = NULL;

  if (self->filter)
    return ttv_viewer_filter_matches (self->filter, request, event);
  if (contains_nocase (ttv_viewer_event_get_name (event), self->needle)
      || contains_nocase (event->tracefile->trace->name, self->needle))
    return TRUE;
  fields = ttv_viewer_event_dup_fields (event);
  return contains_nocase (fields, self->needle);
}
