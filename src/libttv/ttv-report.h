/* ttv-report.h: the event lines of ttv-report (text, JSON lines), shared by
 * the CLI and the tests.  One printer per run; it reuses its buffers. */
#pragma once

#include "ttv-position.h"
#include "ttv-state.h"

G_BEGIN_DECLS

typedef enum {
  TTV_REPORT_TEXT,
  TTV_REPORT_JSONL,
  TTV_REPORT_BABELTRACE,   /* the line format of `babeltrace2 --clock-gmt` (CTF traces) */
} TtvReportFormat;

typedef struct {
  TtvReportFormat format;
  gboolean show_position;  /* the position token of each event */
  gboolean show_state;     /* pid, process name and execution mode at each event */
  gboolean show_trace;     /* the trace name (on by default with several traces) */
} TtvReportOptions;

typedef struct _TtvReportPrinter TtvReportPrinter;

TtvReportPrinter *ttv_report_printer_new (const TtvReportOptions *options);
void              ttv_report_printer_free (TtvReportPrinter *printer);
/* Appends one line (with its newline).  @position and @state may be NULL
 * when the options do not ask for them. */
void              ttv_report_printer_append (TtvReportPrinter *printer, const TtvEvent *event,
                                             const TtvPosition *position, const TtvState *state,
                                             GString *out);

/* Appends a line saying that @lost events of @tracefile were lost. */
void              ttv_report_printer_append_lost (TtvReportPrinter *printer, const TtvTracefile *tracefile,
                                                  const TtvLostRange *lost, GString *out);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvReportPrinter, ttv_report_printer_free)

G_END_DECLS
