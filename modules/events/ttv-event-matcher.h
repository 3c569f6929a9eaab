/* ttv-event-matcher.h: what the event list's Find looks for: text in what
 * an event shows in the visible columns, or a filter expression. */
#pragma once

#include "ttv-event-columns.h"

G_BEGIN_DECLS

typedef struct _TtvEventMatcher TtvEventMatcher;

/* @expression: parse @text as a filter expression (errors: TTV_FILTER_ERROR
 * naming the column) rather than look for it as text in the @columns (a
 * set of TTV_EVENT_COLUMN_BIT; the delta is never searched) of @state's
 * event list.  Empty text: NULL, no error. */
TtvEventMatcher *ttv_event_matcher_new (const char *text, gboolean expression, TtvTabState *state,
                                        guint columns, GError **error);
void        ttv_event_matcher_free (TtvEventMatcher *matcher);
/* Whether the request delivering events must track the state. */
gboolean    ttv_event_matcher_needs_state (const TtvEventMatcher *matcher);
/* @request: the request delivering @event. */
gboolean    ttv_event_matcher_matches (TtvEventMatcher *matcher, TtvEventRequest *request,
                                       const TtvViewerEvent *event);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvEventMatcher, ttv_event_matcher_free)

G_END_DECLS
