/* ttv-report-lost.h: the lost-events marks of a report.  What a tracer
 * lost is shown where it happened, before the first event that follows
 * it: a report walks the marks of every tracefile in time order as it
 * prints events. */
#pragma once

#include "ttv-report.h"
#include "ttv-traceset.h"

G_BEGIN_DECLS

typedef struct {
  const TtvTracefile *tracefile;
  TtvLostRange range;
} TtvLostMark;

/* Every lost-events range of @ts, by start time (a GArray of TtvLostMark). */
GArray *ttv_lost_marks_collect (TtvTraceset *ts);

/* The start of the first mark of @lost from @next on (TTV_TIME_MAX: none). */
static inline TtvTime
ttv_lost_marks_start_at (const GArray *lost, guint next)
{
  return next < lost->len ? g_array_index (lost, TtvLostMark, next).range.start : TTV_TIME_MAX;
}

/* The first mark of @lost that starts after @time: the next one due after
 * an event at @time was printed. */
guint ttv_lost_marks_after (const GArray *lost, TtvTime time);

/* What becomes of the warnings for stderr that a mark gave (in @warnings,
 * to empty): FALSE with @error when the report cannot go on. */
typedef gboolean (*TtvLostWarningsFunc) (GString *warnings, gpointer data, GError **error);

/* The marks of @lost from *@next_lost on that start at or before @time
 * (those that end before the report's @start are passed over), appended
 * to @out by @printer, each mark's warnings given to @warned with @data.
 * FALSE when @warned says the report cannot go on. */
gboolean ttv_lost_marks_append_until (TtvReportPrinter *printer, const GArray *lost, guint *next_lost, TtvTime time,
                                      TtvTime start, GString *out, GString *warnings, TtvLostWarningsFunc warned,
                                      gpointer data, GError **error);

/* --stats-tables: what the tracer lost in [@start, @end], by tracefile. */
void ttv_lost_marks_append_summary (const GArray *lost, TtvTime start, TtvTime end, GString *out);

G_END_DECLS
