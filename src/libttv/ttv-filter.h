/* ttv-filter.h: the filter language of ttv (docs/filters.md): expressions
 * over an event and the state at that event, compiled once, specialised
 * per event type.  Used by ttv-report --filter and the viewer's filter bars. */
#pragma once

#include "ttv-hook-groups.h"
#include "ttv-state.h"

G_BEGIN_DECLS

typedef struct _TtvFilter TtvFilter;

typedef enum {
  TTV_FILTER_NEVER,        /* no event of this type can match */
  TTV_FILTER_ALWAYS,       /* every event of this type matches */
  TTV_FILTER_DEPENDS,      /* the event's data or the state decides */
} TtvFilterVerdict;

/* Parses @expression.  @groups (may be NULL: the built-in groups) is
 * referenced by name at parse time and kept (weak): it must outlive the
 * filter.  Errors: TTV_FILTER_ERROR, the message names the column (1-based)
 * and what was expected there. */
TtvFilter  *ttv_filter_new (const char *expression, const TtvHookGroups *groups, GError **error);
void        ttv_filter_free (TtvFilter *filter);
const char *ttv_filter_get_expression (const TtvFilter *filter);
/* Whether the expression reads state.* (the caller must then pass a state). */
gboolean    ttv_filter_needs_state (const TtvFilter *filter);
/* What the event type alone decides (specialises on first use). */
TtvFilterVerdict ttv_filter_check_type (TtvFilter *filter, const TtvTrace *trace,
                                        const TtvEventType *type);
/* Whether @event matches.  @state is the state at the event (may be NULL:
 * state comparisons are then false).  Allocates nothing once each event
 * type has been seen.  Not thread-safe: one filter per thread. */
gboolean    ttv_filter_matches (TtvFilter *filter, const TtvEvent *event, const TtvState *state);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvFilter, ttv_filter_free)

G_END_DECLS
