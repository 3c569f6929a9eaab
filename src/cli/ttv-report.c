/* ttv-report.c: the trcrpt of ttv (seed 004): prints the events of one or
 * more traces merged in time order, their statistics, or the state at a time.
 * A thin program: everything it prints comes from libttv. */
#include "ttv-config.h"

#include "ttv-context.h"
#include "ttv-error.h"
#include "ttv-report.h"
#include "ttv-state-tracker.h"
#include "ttv-trace-info.h"

#include <glib/gi18n.h>
#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>

typedef struct {
  char *format;
  char *output;
  char *start;
  char *end;
  char *after;
  char *state_at;
  gint64 count;
  gint64 checkpoint_interval;
  gboolean info;
  gboolean list_events;
  gboolean position;
  gboolean state;
  gboolean stats;
  char **traces;
} ReportArgs;

static ReportArgs args = { .count = -1 };

static const GOptionEntry entries[] = {
  { "format", 'f', 0, G_OPTION_ARG_STRING, &args.format, N_("Output format: text (default), jsonl or babeltrace"), "FORMAT" },
  { "output", 'o', 0, G_OPTION_ARG_FILENAME, &args.output, N_("Write to FILE instead of standard output"), "FILE" },
  { "info", 0, 0, G_OPTION_ARG_NONE, &args.info, N_("Describe the traces: system, time span, tracefiles"), NULL },
  { "list-events", 'j', 0, G_OPTION_ARG_NONE, &args.list_events, N_("List the event types with their fields"), NULL },
  { "start", 0, 0, G_OPTION_ARG_STRING, &args.start, N_("First time to print: seconds since the epoch, or +seconds from the trace start"), "T" },
  { "end", 0, 0, G_OPTION_ARG_STRING, &args.end, N_("Last time to print (same forms as --start)"), "T" },
  { "count", 'n', 0, G_OPTION_ARG_INT64, &args.count, N_("Print at most N events"), "N" },
  { "after", 0, 0, G_OPTION_ARG_STRING, &args.after, N_("Print the events after the one at POSITION (a token printed by --position)"), "POSITION" },
  { "position", 0, 0, G_OPTION_ARG_NONE, &args.position, N_("Print each event's position token"), NULL },
  { "state", 0, 0, G_OPTION_ARG_NONE, &args.state, N_("Print the pid, process name and execution mode at each event"), NULL },
  { "state-at", 0, 0, G_OPTION_ARG_STRING, &args.state_at, N_("Print the whole system state at time T"), "T" },
  { "stats", 0, 0, G_OPTION_ARG_NONE, &args.stats, N_("Print statistics instead of events"), NULL },
  { "checkpoint-interval", 0, 0, G_OPTION_ARG_INT64, &args.checkpoint_interval, N_("Events between state checkpoints (default 100000)"), "N" },
  { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &args.traces, NULL, N_("TRACE…") },
  { NULL }
};

/* Exit codes: 0 success, 1 a trace could not be read, 2 wrong usage. */
enum { EXIT_READ = 1, EXIT_USAGE = 2 };

static int
fail (int code, const char *message)
{
  g_printerr ("ttv-report: %s\n", message);
  return code;
}

/* T is absolute seconds, or +seconds relative to the traceset start. */
static gboolean
parse_time_arg (const char *option, const char *text, TtvTraceset *ts, TtvTime *out, GError **error)
{
  gboolean relative = text[0] == '+';
  g_autoptr (GError) local = NULL;
  if (!ttv_time_parse (relative ? text + 1 : text, out, &local))
    {
      g_set_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT, "%s: %s", option, local->message);
      return FALSE;
    }
  if (relative)
    *out += ttv_traceset_get_start (ts);
  return TRUE;
}

typedef struct {
  FILE *out;
  GString *buf;
} Output;

static gboolean
output_flush (Output *o, gboolean force, GError **error)
{
  if (o->buf->len == 0 || (!force && o->buf->len < (1u << 16)))
    return TRUE;
  if (fwrite (o->buf->str, 1, o->buf->len, o->out) != o->buf->len)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("cannot write the report: %s"), g_strerror (errno));
      return FALSE;
    }
  g_string_truncate (o->buf, 0);
  return TRUE;
}

/* Brings @tracker's state to just before the next event of @ctx, by
 * replaying from the start (exact even among equal timestamps). */
static gboolean
replay_to_context (TtvStateTracker *tracker, TtvTraceset *ts, TtvContext *ctx, GError **error)
{
  g_autoptr (TtvPosition) target = ttv_context_get_position (ctx, error);
  if (target == NULL)
    return FALSE;
  g_autoptr (TtvContext) replay = ttv_context_new (ts, error);
  if (replay == NULL || !ttv_context_seek_begin (replay, error))
    return FALSE;
  GError *local = NULL;
  ttv_state_tracker_run (tracker, replay, TTV_TIME_MAX, target, &local);
  if (local)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  return TRUE;
}

/* What a reader noticed but could live with (a truncated file, a missing
 * beginning) goes to stderr, so that the report itself stays clean. */
static void
print_warnings (TtvTraceset *ts)
{
  for (guint i = 0; i < ttv_traceset_get_n_traces (ts); i++)
    {
      const TtvTrace *t = ttv_traceset_get_trace (ts, i);
      if (t->flags & TTV_TRACE_FLAG_BEGINNING_MISSING)
        g_printerr (_("ttv-report: warning: %s: the beginning of the trace is missing (flight recorder)\n"),
                    t->display_path);
      for (guint j = 0; j < t->warnings->len; j++)
        g_printerr ("ttv-report: warning: %s\n", (const char *) g_ptr_array_index (t->warnings, j));
    }
}

static gboolean
position_context (TtvContext *ctx, TtvTraceset *ts, TtvTime start, GError **error)
{
  if (args.after)
    {
      g_autoptr (TtvPosition) pos = ttv_position_parse (args.after, ts, error);
      if (pos == NULL || !ttv_context_seek_position (ctx, pos, error))
        return FALSE;
      GError *local = NULL;
      /* The position names an event already printed: skip it. */
      if (ttv_context_next (ctx, &local) == NULL && local)
        {
          g_propagate_error (error, local);
          return FALSE;
        }
      return TRUE;
    }
  if (start != TTV_TIME_MIN)
    return ttv_context_seek_time (ctx, start, error);
  return ttv_context_seek_begin (ctx, error);
}

typedef struct {
  const TtvTracefile *tracefile;
  TtvLostRange range;
} LostMark;

static gint
compare_lost (gconstpointer a, gconstpointer b)
{
  const LostMark *x = a, *y = b;
  return x->range.start < y->range.start ? -1 : x->range.start > y->range.start;
}

/* Every lost-events range of the traceset, by start time. */
static GArray *
collect_lost (TtvTraceset *ts)
{
  GArray *marks = g_array_new (FALSE, FALSE, sizeof (LostMark));
  for (guint i = 0; i < ttv_traceset_get_n_tracefiles (ts); i++)
    {
      const TtvTracefile *tf = ttv_traceset_get_tracefile (ts, i);
      for (guint j = 0; tf->lost && j < tf->lost->len; j++)
        {
          LostMark m = { tf, g_array_index (tf->lost, TtvLostRange, j) };
          g_array_append_val (marks, m);
        }
    }
  g_array_sort (marks, compare_lost);
  return marks;
}

static int
print_events (TtvTraceset *ts, TtvTime start, TtvTime end, Output *o, TtvReportFormat format)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvContext) ctx = ttv_context_new (ts, &error);
  if (ctx == NULL || !position_context (ctx, ts, start, &error))
    return fail (g_error_matches (error, TTV_ENGINE_ERROR, TTV_ENGINE_ERROR_BAD_POSITION) ? EXIT_USAGE : EXIT_READ,
                 error->message);

  TtvCheckpointPolicy policy = { (guint64) MAX (args.checkpoint_interval, 0), 0 };
  g_autoptr (TtvStateTracker) tracker = NULL;
  if (args.state || args.stats)
    {
      tracker = ttv_state_tracker_new (ts, &policy);
      if (!replay_to_context (tracker, ts, ctx, &error))
        return fail (EXIT_READ, error->message);
      if (args.stats)
        ttv_state_tracker_get_statistics (tracker);
    }

  TtvReportOptions options = { format, args.position, args.state, ttv_traceset_get_n_traces (ts) > 1 };
  g_autoptr (TtvReportPrinter) printer = ttv_report_printer_new (&options);
  g_autoptr (GArray) lost = collect_lost (ts);
  guint next_lost = 0;
  guint64 printed = 0;
  for (;;)
    {
      if (args.count >= 0 && printed >= (guint64) args.count)
        break;
      g_autoptr (TtvPosition) pos = args.position || format == TTV_REPORT_JSONL
                                      ? ttv_context_get_position (ctx, &error) : NULL;
      if (error)
        break;
      const TtvEvent *ev = ttv_context_next (ctx, &error);
      if (ev == NULL || ev->time > end)
        break;
      if (tracker)
        ttv_state_tracker_apply (tracker, NULL,
                                 ttv_traceset_get_stream_trace (ts, ttv_context_get_stream (ctx)), ev);
      printed++;
      if (args.stats)
        continue;
      /* Lost events are shown where they happened, before the first event
       * that follows them. */
      for (; next_lost < lost->len && g_array_index (lost, LostMark, next_lost).range.start <= ev->time; next_lost++)
        {
          const LostMark *mark = &g_array_index (lost, LostMark, next_lost);
          if (mark->range.end >= start)
            ttv_report_printer_append_lost (printer, mark->tracefile, &mark->range, o->buf);
        }
      ttv_report_printer_append (printer, ev, pos, tracker ? ttv_state_tracker_get_state (tracker) : NULL, o->buf);
      if (!output_flush (o, FALSE, &error))
        break;
    }
  if (args.stats && error == NULL)
    ttv_statistics_append_text (ttv_state_tracker_get_statistics (tracker), o->buf);
  GError *flush_error = NULL;
  if (!output_flush (o, TRUE, &flush_error) && error == NULL)
    error = flush_error;
  if (error)
    return fail (EXIT_READ, error->message);
  return 0;
}

static int
print_state_at (TtvTraceset *ts, TtvTime at, Output *o)
{
  g_autoptr (GError) error = NULL;
  TtvCheckpointPolicy policy = { (guint64) MAX (args.checkpoint_interval, 0), 0 };
  g_autoptr (TtvStateTracker) tracker = ttv_state_tracker_new (ts, &policy);
  if (!ttv_state_tracker_build (tracker, NULL, NULL, NULL, &error))
    return fail (EXIT_READ, error->message);
  g_autoptr (TtvState) state = ttv_state_tracker_dup_state_at (tracker, at, &error);
  if (state == NULL)
    return fail (EXIT_READ, error->message);
  ttv_state_append_text (state, o->buf);
  if (!output_flush (o, TRUE, &error))
    return fail (EXIT_READ, error->message);
  return 0;
}

static gboolean
parse_format (TtvReportFormat *format)
{
  if (args.format == NULL || g_str_equal (args.format, "text"))
    *format = TTV_REPORT_TEXT;
  else if (g_str_equal (args.format, "jsonl"))
    *format = TTV_REPORT_JSONL;
  else if (g_str_equal (args.format, "babeltrace"))
    *format = TTV_REPORT_BABELTRACE;
  else
    return FALSE;
  return TRUE;
}

static int
run (void)
{
  g_autoptr (GError) error = NULL;
  TtvReportFormat format;
  if (!parse_format (&format))
    return fail (EXIT_USAGE, _("--format: expected text, jsonl or babeltrace"));
  if (args.traces == NULL || args.traces[0] == NULL)
    return fail (EXIT_USAGE, _("no trace given (try --help)"));

  g_autoptr (TtvTraceset) ts = ttv_traceset_new ();
  for (guint i = 0; args.traces[i]; i++)
    if (!ttv_traceset_add_path (ts, args.traces[i], &error))
      return fail (EXIT_READ, error->message);
  print_warnings (ts);

  TtvTime start = TTV_TIME_MIN, end = TTV_TIME_MAX, at = 0;
  if ((args.start && !parse_time_arg ("--start", args.start, ts, &start, &error))
      || (args.end && !parse_time_arg ("--end", args.end, ts, &end, &error))
      || (args.state_at && !parse_time_arg ("--state-at", args.state_at, ts, &at, &error)))
    return fail (EXIT_USAGE, error->message);
  if (args.after && args.start)
    return fail (EXIT_USAGE, _("--after and --start cannot be used together"));

  Output o = { stdout, g_string_sized_new (1u << 17) };
  int status = 0;
  if (args.output && (o.out = fopen (args.output, "w")) == NULL)
    {
      g_autofree char *msg = g_strdup_printf (_("cannot write %s: %s"), args.output, g_strerror (errno));
      g_string_free (o.buf, TRUE);
      return fail (EXIT_READ, msg);
    }

  if (args.info || args.list_events)
    {
      for (guint i = 0; i < ttv_traceset_get_n_traces (ts); i++)
        {
          TtvTrace *t = ttv_traceset_get_trace (ts, i);
          if (args.info)
            ttv_trace_append_info (t, o.buf);
          if (args.list_events)
            ttv_trace_append_event_types (t, o.buf);
        }
      if (!output_flush (&o, TRUE, &error))
        status = fail (EXIT_READ, error->message);
    }
  else if (args.state_at)
    status = print_state_at (ts, at, &o);
  else
    status = print_events (ts, start, end, &o, format);

  if (o.out != stdout && fclose (o.out) != 0 && status == 0)
    status = fail (EXIT_READ, g_strerror (errno));
  g_string_free (o.buf, TRUE);
  return status;
}

int
main (int argc, char **argv)
{
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, TTV_LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  g_autoptr (GOptionContext) oc = g_option_context_new (_("TRACE… — print trace events, statistics or state"));
  g_option_context_add_main_entries (oc, entries, GETTEXT_PACKAGE);
  g_option_context_set_description (oc, _("A TRACE is a trace directory (LTT, LTTng 0.x, CTF) or a .tar.gz, .tgz or .tar of one.\n"
                                          "Several traces are merged into one traceset in time order."));
  g_autoptr (GError) error = NULL;
  if (!g_option_context_parse (oc, &argc, &argv, &error))
    return fail (EXIT_USAGE, error->message);
  int status = run ();
  g_strfreev (args.traces);
  g_free (args.format);
  g_free (args.output);
  g_free (args.start);
  g_free (args.end);
  g_free (args.after);
  g_free (args.state_at);
  return status;
}
