/* ttv-timer.h: trcrpt's starttimer/endtimer: the time between a start event
 * and the next end event of the same thread, shown on the end event.
 * Rules come from ttv-report --timer START:END or from format files. */
#pragma once

#include "ttv-trace.h"

G_BEGIN_DECLS

typedef struct _TtvTimerSet TtvTimerSet;

TtvTimerSet *ttv_timer_set_new (void);
void         ttv_timer_set_free (TtvTimerSet *timers);
/* Adds a rule "START:END"; each side is an event name, glob or id, as for
 * ttv_event_type_matches_pattern().  TTV_FILTER_ERROR when malformed. */
gboolean     ttv_timer_set_add_rule (TtvTimerSet *timers, const char *rule, GError **error);
void         ttv_timer_set_add (TtvTimerSet *timers, const char *start, const char *end);
guint        ttv_timer_set_get_n_rules (const TtvTimerSet *timers);
/* The START and END patterns of rule @index (borrowed). */
void         ttv_timer_set_get_rule (const TtvTimerSet *timers, guint index, const char **start,
                                     const char **end);
/* Feeds one event of thread @thread (any key unique per thread, e.g. the
 * tid).  Returns TRUE with *elapsed when @event ends a started timer (the
 * first rule wins); also starts the timers @event starts. */
gboolean     ttv_timer_set_process (TtvTimerSet *timers, const TtvEvent *event, gint64 thread,
                                    TtvTime *elapsed);
/* Appends " [S.UUU us]"-style text for an elapsed time: "[12.345 us]". */
void         ttv_timer_append_elapsed (GString *out, TtvTime elapsed);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvTimerSet, ttv_timer_set_free)

G_END_DECLS
