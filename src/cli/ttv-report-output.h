/* ttv-report-output.h: where ttv-report writes a report: its stream and the
 * lines kept to write them in large pieces. */
#pragma once

#include <glib.h>
#include <stdio.h>

G_BEGIN_DECLS

typedef struct {
  FILE *out;
  GString *buf;                 /* lines not yet written */
} TtvReportOutput;

/* Below this, a report keeps its lines to write them in one go: 256 KiB,
 * a write call per thousand jsonl lines, and still within a core's L2. */
#define TTV_REPORT_OUTPUT_FLUSH_BYTES (1u << 18)

/* Writes what @o keeps when it is TTV_REPORT_OUTPUT_FLUSH_BYTES or more,
 * or whatever it is when @force: FALSE with @error when writing failed. */
gboolean ttv_report_output_flush (TtvReportOutput *o, gboolean force, GError **error);

/* Writes @len bytes of @data after what @o keeps. */
gboolean ttv_report_output_write (TtvReportOutput *o, const char *data, gsize len, GError **error);

/* As babeltrace2: @warnings on stderr after the lines before them, which
 * @output (a TtvReportOutput) keeps; @warnings is emptied.  FALSE with
 * @error when those lines could not be written (a TtvLostWarningsFunc). */
gboolean ttv_report_output_warn (GString *warnings, gpointer output, GError **error);

G_END_DECLS
