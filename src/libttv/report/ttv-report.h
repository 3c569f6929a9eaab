/* ttv-report.h: the event lines of ttv-report (text, JSON lines), shared by
 * the CLI and the tests.  One printer per run; it reuses its buffers. */
#pragma once

#include "ttv-format-file.h"
#include "ttv-position.h"
#include "ttv-state.h"

G_BEGIN_DECLS

typedef enum {
  TTV_REPORT_TEXT,
  TTV_REPORT_JSONL,
  TTV_REPORT_BABELTRACE,   /* the line format of `babeltrace2 --clock-gmt` (CTF traces) */
} TtvReportFormat;

/* Time columns of the column layout (trcrpt's -O timestamp=0..3). */
typedef enum {
  TTV_REPORT_TIMESTAMP_ELAPSED,  /* ELAPSED_SEC (ns) + DELTA_MSEC (ns resolution) */
  TTV_REPORT_TIMESTAMP_US,       /* ELAPSED_SEC with microsecond resolution only */
  TTV_REPORT_TIMESTAMP_NS,       /* ELAPSED_SEC (ns) + DELTA_USEC (whole microseconds) */
  TTV_REPORT_TIMESTAMP_NONE,
} TtvReportTimestamp;

/* Optional columns of the column layout. */
typedef enum {
  TTV_REPORT_COLUMN_ID = 1 << 0,    /* the event type's id (the trace's numbering), hex */
  TTV_REPORT_COLUMN_CPU = 1 << 1,
  TTV_REPORT_COLUMN_PID = 1 << 2,   /* process (thread group) id */
  TTV_REPORT_COLUMN_TID = 1 << 3,   /* thread (kernel task) id */
  TTV_REPORT_COLUMN_EXEC = 1 << 4,  /* process name */
  TTV_REPORT_COLUMN_SVC = 1 << 5,   /* current system call */
} TtvReportColumns;

typedef struct {
  TtvReportFormat format;
  gboolean show_position;  /* the position token of each event */
  gboolean show_state;     /* pid, process name and execution mode at each event */
  gboolean show_trace;     /* the trace name (on by default with several traces) */
  /* Text only; all zero/NULL keeps the classic line. */
  gboolean column_layout;  /* trcrpt-style columns (TIME... EVENT DESCRIPTION) */
  TtvReportColumns columns;
  TtvReportTimestamp timestamp;
  gboolean two_line;       /* the description on a second line */
  TtvTime origin;          /* elapsed times count from here (the traceset start) */
  TtvFormatFile *format_file;  /* weak, may be NULL: describes events by templates */
} TtvReportOptions;

typedef struct _TtvReportPrinter TtvReportPrinter;

TtvReportPrinter *ttv_report_printer_new (const TtvReportOptions *options);
void              ttv_report_printer_free (TtvReportPrinter *printer);
/* For the tests that compare them: whether jsonl lines take the fields and
 * contexts from the format's direct writer when it has one (the default,
 * TRUE) or always from the decoded tree. */
void              ttv_report_printer_set_jsonl_direct (TtvReportPrinter *printer, gboolean direct);
/* Appends one line (with its newline).  @position and @state may be NULL
 * when the options do not ask for them. */
void              ttv_report_printer_append (TtvReportPrinter *printer, const TtvEvent *event,
                                             const TtvPosition *position, const TtvState *state,
                                             GString *out);

/* The same, with @suffix (may be NULL: a timer's "[12.345 us]") at the end
 * of the description. */
void              ttv_report_printer_append_full (TtvReportPrinter *printer, const TtvEvent *event,
                                                  const TtvPosition *position, const TtvState *state,
                                                  const char *suffix, GString *out);
/* Deferred lines (@defer TRUE): the lines' position tokens are written
 * eight at a time, faster (ttv_position_token_writer_set_deferred): each
 * appended line has the place of its token but not yet its text.  The
 * caller must call ttv_report_printer_finish() before it reads, writes
 * out, cuts or frees any text the printer appended to since the last
 * finish.  Setting FALSE finishes. */
void              ttv_report_printer_set_deferred (TtvReportPrinter *printer, gboolean defer);
/* Completes every line appended so far (deferred lines). */
void              ttv_report_printer_finish (TtvReportPrinter *printer);
/* Appends the column headings (column layout only; nothing otherwise). */
void              ttv_report_printer_append_headings (TtvReportPrinter *printer, GString *out);

/* Appends a line saying that @lost events (or packets) of @tracefile were
 * lost, to @out; in babeltrace2's format, what babeltrace2 prints on
 * stderr goes to @err instead (may be NULL: not printed). */
void              ttv_report_printer_append_lost (TtvReportPrinter *printer, const TtvTracefile *tracefile,
                                                  const TtvLostRange *lost, GString *out, GString *err);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvReportPrinter, ttv_report_printer_free)

G_END_DECLS
