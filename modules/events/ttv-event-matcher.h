/* ttv-event-matcher.h: what the event list's Find looks for: text in an
 * event's name, trace or fields, or a filter expression. */
#pragma once

#include "ttv-viewer.h"

G_BEGIN_DECLS

typedef struct _TtvEventMatcher TtvEventMatcher;

/* @expression: parse @text as a filter expression (errors: TTV_FILTER_ERROR
 * naming the column) rather than look for it as text.  Empty text: NULL,
 * no error. */
TtvEventMatcher *ttv_event_matcher_new (const char *text, gboolean expression, GError **error);
void        ttv_event_matcher_free (TtvEventMatcher *matcher);
/* Whether the request delivering events must track the state. */
gboolean    ttv_event_matcher_needs_state (const TtvEventMatcher *matcher);
/* @request: the request delivering @event. */
gboolean    ttv_event_matcher_matches (TtvEventMatcher *matcher, TtvEventRequest *request,
                                       const TtvEvent *event);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvEventMatcher, ttv_event_matcher_free)

G_END_DECLS
