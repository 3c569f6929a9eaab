/* ttv-report-plain.h: the plain report, ttv-report's usual `ttv-report
 * TRACE`: every event from the report's start to its end as it comes, with
 * no state, selection, filter, timer, heading, statistics or follow.  It
 * has its own loop (the general one's tests, none of which apply here,
 * cost a tenth of what a babeltrace line costs), on one thread or with
 * the lines formatted by several (issue 15). */
#pragma once

#include "ttv-context.h"
#include "ttv-report.h"
#include "ttv-report-output.h"

G_BEGIN_DECLS

/* Makes the printer of a report's lines (once per thread that formats). */
typedef TtvReportPrinter *(*TtvPlainPrinterFunc) (gpointer data);

typedef struct {
  TtvTraceset *ts;
  TtvTime start;                /* the lost-events marks that end before it are passed over */
  TtvTime end;                  /* no event after it is printed */
  guint64 count;                /* at most this many events (G_MAXUINT64: all) */
  gboolean with_position;       /* each line carries its event's position token */
  TtvPlainPrinterFunc new_printer;
  gpointer printer_data;
} TtvPlainReport;

/* The report of what @ctx reads, on this thread, @ctx being at the
 * report's first event. */
void ttv_plain_report_print (const TtvPlainReport *report, TtvContext *ctx, TtvReportOutput *o, GError **error);

/* The report of every event from @report's start (the traceset's
 * beginning when it is TTV_TIME_MIN; @report's count must be G_MAXUINT64),
 * formatted by @n_threads worker threads in chunks cut from the
 * tracefiles' block index, written in order by this one: byte for byte
 * what ttv_plain_report_print () writes, warnings and errors included.
 * FALSE when the trace gives fewer than two chunks: nothing was done. */
gboolean ttv_plain_report_print_threads (const TtvPlainReport *report, guint n_threads, TtvReportOutput *o,
                                         GError **error);

G_END_DECLS
