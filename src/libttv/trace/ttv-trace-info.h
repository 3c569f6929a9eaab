/* ttv-trace-info.h: human-readable descriptions of an opened trace, for
 * `ttv-report --info` / `--list-events` and the viewer's information dialog. */
#pragma once

#include "ttv-trace.h"

G_BEGIN_DECLS

/* System description, time span, tracefiles with their event spans and
 * blocks, lost events, warnings. */
void ttv_trace_append_info (const TtvTrace *trace, GString *out);
/* One indented line for a lost range: "    3 events lost between A and B",
 * "    2 packets lost between ...", "... lost before B (counted since the
 * stream began)". */
void ttv_lost_range_append_text (const TtvLostRange *lost, GString *out);
/* Whether the range @lost of @tracefile counts in [@start, @end]
 * (TTV_TIME_MIN, TTV_TIME_MAX: everything): when it overlaps it, or, when
 * its time is unknown, when the interval holds the whole tracefile.  What
 * ttv-report --stats, --stats-tables and the statistics view count. */
gboolean ttv_lost_range_in_interval (const TtvTracefile *tracefile, const TtvLostRange *lost,
                                     TtvTime start, TtvTime end);
/* One line per event type: id, full name, field signature, LTTng's log
 * level and EMF URI when the trace gives them, description (trcrpt -j). */
void ttv_trace_append_event_types (const TtvTrace *trace, GString *out);

G_END_DECLS
