/* ttv-filter.h: the filter language of ttv (docs/filters.md): expressions
 * over an event and the state at that event, compiled once, specialised
 * per event type.  Used by ttv-report --filter and the viewer's filter bars. */
#pragma once

#include "ttv-hook-groups.h"
#include "ttv-state.h"

#include <string.h>

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
/* --- The inline fast path (filled by ttv-filter.c only) -----------------
 * Each (tracefile, event type) gets a straight-line form of its program:
 * one test of a 64-bit word of the event against a range, the same
 * instructions for every type, so that no branch depends on the event.
 * Branching on the type instead mispredicts on a good share of events,
 * which costs more than the test.  The word is the 8 bytes that end where
 * an integer field ends: the field is then its high bytes (little-endian),
 * and the range is scaled to them, so that no sign extension is needed.  A
 * type its name or CPU decides tests the first word of its payload against
 * the whole range (or none of it); an enum compared by label tests the raw
 * values of the labels that pass; event.time terms fold to constants per
 * window between the filter's time literals.  A negated test is the
 * complement range, and a slot that is slow has a word ending past any
 * block: each event pays one range test and one bound check, nothing else. */
typedef struct {
  guint64 lo;                /* passes when ((word << shift) - lo) mod 2^64 <= span */
  guint64 span;
  guint64 end_bits;          /* where the word ends, from the aligned payload: >= 64;
                              * TTV_FILTER_FAST_SLOW when the program must run */
  guint32 align_mask;        /* payload alignment in bits, minus 1 */
  guint8 shift;              /* brings the field to the word's high bits */
} TtvFilterFast;

/* Past the end of any block (data_bits < 2^61): the bound check fails. */
#define TTV_FILTER_FAST_SLOW (G_MAXUINT64 >> 2)

/* What ttv_filter_matches() reads for every event: the forms of the
 * (tracefile, event type) pairs of the trace seen last.  The first member
 * of a TtvFilter. */
typedef struct {
  const TtvTrace *trace;     /* weak: whose forms these are */
  guint shift;               /* slot (tracefile index << shift) + type id */
  guint64 n_types;           /* 1 << shift: type ids below it have a slot */
  guint64 n_slots;
  const TtvFilterFast *fast; /* weak: per slot */
  gboolean timed;            /* the forms hold for events in [t_lo, t_lo + t_span] only (time */
  TtvTime t_lo;              /* terms folded for that window)... */
  guint64 t_span;
  TtvTime start;             /* ...of a trace starting there (a live trace's start moves) */
} TtvFilterHot;

/* Events the fast path cannot decide: a longer program, a word past the
 * end of the event's block, a new trace, tracefile, type or time window. */
gboolean    ttv_filter_matches_slow (TtvFilter *filter, const TtvEvent *event, const TtvState *state);

/* Whether @hot holds the form of @event's (tracefile, type) and time
 * window; *@slot gets where. */
static inline gboolean
ttv_filter_hot_holds (const TtvFilterHot *hot, const TtvEvent *event, guint64 *slot)
{
  const TtvTracefile *tf = event->tracefile;
  guint64 id = event->type->id;
  *slot = ((guint64) tf->index << hot->shift) + id;
  return hot->trace == tf->trace && id < hot->n_types && *slot < hot->n_slots
         && (!hot->timed || ((guint64) event->time - (guint64) hot->t_lo <= hot->t_span
                             && tf->trace->start == hot->start));
}

/* Whether @event matches.  @state is the state at the event (may be NULL:
 * state comparisons are then false).  Allocates nothing once each event
 * type has been seen.  Not thread-safe: one filter per thread. */
static inline gboolean
ttv_filter_matches (TtvFilter *filter, const TtvEvent *event, const TtvState *state)
{
  const TtvFilterHot *hot = (const TtvFilterHot *) (gconstpointer) filter;
  guint64 slot;
  if (G_LIKELY (ttv_filter_hot_holds (hot, event, &slot)))
    {
      const TtvFilterFast *fx = &hot->fast[slot];
      guint64 end = ((event->payload_bit + fx->align_mask) & ~(guint64) fx->align_mask) + fx->end_bits;
      if (G_LIKELY (end <= event->data_bits))
        {
          guint64 word;
          memcpy (&word, event->data + (end >> 3) - 8, 8);
          word <<= fx->shift;
          return word - fx->lo <= fx->span;
        }
    }
  return ttv_filter_matches_slow (filter, event, state);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvFilter, ttv_filter_free)

G_END_DECLS
