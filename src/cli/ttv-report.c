/* ttv-report.c: the trcrpt of ttv (seed 004): prints the events of one or
 * more traces merged in time order, their statistics, or the state at a time.
 * A thin program: everything it prints comes from libttv. */
#include "ttv-config.h"

#include "ttv-analysis-print.h"
#include "ttv-cli-text-option.h"
#include "ttv-stats-print.h"
#include "ttv-archive.h"
#include "ttv-context.h"
#include "ttv-error.h"
#include "ttv-escape.h"
#include "ttv-filter.h"
#include "ttv-format-file.h"
#include "ttv-hook-groups.h"
#include "ttv-live-url.h"
#include "ttv-locale.h"
#include "ttv-mapping-guard.h"
#include "ttv-report.h"
#include "ttv-report-lost.h"
#include "ttv-report-plain.h"
#include "ttv-state-pass.h"
#include "ttv-state-tracker.h"
#include "ttv-trace-damage.h"
#include "ttv-bookmarks.h"
#include "ttv-sync.h"
#include "ttv-trace-info.h"

#include <glib/gi18n.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

/* What is asked for: --stats, the viewer's statistics tree, or
 * --stats-tables, the tables --stats printed before. */
typedef enum {
  STATS_NONE,
  STATS_TREE,
  STATS_TABLES,
} StatsKind;

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
  gboolean stats_tree;
  gboolean stats_tables;
  StatsKind stats;          /* from the two above */
  gboolean density;
  gint64 density_bins;
  gboolean density_types;
  char **traces;
  /* trcrpt-style selection and layout (issue 8) */
  char **include;
  char **exclude;
  char **processes;
  char **threads;
  char *groups_file;
  char *filter;
  char **timers;
  char *format_file;
  char *check_format;
  char *columns;
  char *timestamp;
  gint64 page_size;
  gboolean no_headings;
  gboolean two_line;
  gboolean follow;
  gboolean keep_going;
  gboolean list_groups;
  gboolean help;
  /* kernel analyses (issue 17) */
  char *analysis;
  char *table;
  char *group_by;
  gboolean records;
  gboolean no_cache;
  gint64 top;
  gint64 bins;
  char *tid_text;          /* --tid: TID or HOST:TID */
  gint64 tid;              /* from it, -1: none */
  char *tid_machine;       /* from it: HOST, or NULL */
  /* userspace analyses (issue 18) */
  char **symbol_dirs;
  gboolean symbols_only;
  /* several machines (issue 19) */
  gboolean sync;
  char **offsets;
  gboolean save_offsets;
  /* the plain report on several threads (issue 15) */
  gint64 n_threads;
} ReportArgs;

/* NOT_GIVEN: an integer option that was not given (values below its
 * minimum are refused). */
#define NOT_GIVEN G_MININT64
static ReportArgs args = { .count = NOT_GIVEN, .checkpoint_interval = NOT_GIVEN, .page_size = NOT_GIVEN,
                           .density_bins = NOT_GIVEN, .tid = -1, .n_threads = NOT_GIVEN };

static const GOptionEntry entries[] = {
  { "format", 'f', 0, G_OPTION_ARG_FILENAME, &args.format, N_("Output format: text (default), jsonl or babeltrace; csv with --stats, --density and --analysis; folded with --analysis"), "FORMAT" },
  { "output", 'o', 0, G_OPTION_ARG_FILENAME, &args.output, N_("Write to FILE instead of standard output"), "FILE" },
  { "info", 0, 0, G_OPTION_ARG_NONE, &args.info, N_("Describe the traces: system, time span, tracefiles"), NULL },
  { "list-events", 'j', 0, G_OPTION_ARG_NONE, &args.list_events, N_("List the event types with their fields"), NULL },
  { "start", 0, 0, G_OPTION_ARG_FILENAME, &args.start, N_("First time to print: seconds since the epoch, or +seconds from the trace start"), "T" },
  { "end", 0, 0, G_OPTION_ARG_FILENAME, &args.end, N_("Last time to print (same forms as --start)"), "T" },
  { "count", 'n', 0, G_OPTION_ARG_INT64, &args.count, N_("Print at most N events"), "N" },
  { "after", 0, 0, G_OPTION_ARG_FILENAME, &args.after, N_("Print the events after the one at POSITION (a token printed by --position)"), "POSITION" },
  { "position", 0, 0, G_OPTION_ARG_NONE, &args.position, N_("Print each event's position token"), NULL },
  { "state", 0, 0, G_OPTION_ARG_NONE, &args.state, N_("Print the pid, process name and execution mode at each event"), NULL },
  { "state-at", 0, 0, G_OPTION_ARG_FILENAME, &args.state_at, N_("Print the whole system state at time T"), "T" },
  { "stats", 0, 0, G_OPTION_ARG_NONE, &args.stats_tree, N_("Print the statistics tree of the viewer's statistics view instead of events"), NULL },
  { "stats-tables", 0, 0, G_OPTION_ARG_NONE, &args.stats_tables, N_("Print the statistics as the aligned tables --stats printed before instead of events"), NULL },
  { "density", 0, 0, G_OPTION_ARG_NONE, &args.density, N_("Print the event density of the viewer's histogram: events per bin of time"), NULL },
  { "density-bins", 0, 0, G_OPTION_ARG_INT64, &args.density_bins, N_("With --density: N bins (default 1024, the histogram's)"), "N" },
  { "density-types", 0, 0, G_OPTION_ARG_NONE, &args.density_types, N_("With --density: the events of each event type too"), NULL },
  { "checkpoint-interval", 0, 0, G_OPTION_ARG_INT64, &args.checkpoint_interval, N_("Events between state checkpoints (default 100000)"), "N" },
  { "include", 'd', 0, G_OPTION_ARG_FILENAME_ARRAY, &args.include, N_("Print only these event types: names, globs, ids or @group, separated by commas or blanks"), "LIST" },
  { "exclude", 'k', 0, G_OPTION_ARG_FILENAME_ARRAY, &args.exclude, N_("Do not print these event types (same forms as -d)"), "LIST" },
  { "process", 'p', 0, G_OPTION_ARG_FILENAME_ARRAY, &args.processes, N_("Print only events of these processes: names or pids, separated by commas or blanks"), "LIST" },
  { "thread", 'T', 0, G_OPTION_ARG_FILENAME_ARRAY, &args.threads, N_("Print only events of these threads (tids); !TID excludes one"), "LIST" },
  { "groups", 0, 0, G_OPTION_ARG_FILENAME, &args.groups_file, N_("Read more hook groups from FILE (NAME: PATTERN…)"), "FILE" },
  { "list-groups", 0, 0, G_OPTION_ARG_NONE, &args.list_groups, N_("List the hook groups and their patterns"), NULL },
  { "filter", 0, 0, G_OPTION_ARG_FILENAME, &args.filter, N_("Print only events matching EXPR (see ttv-report(1), FILTERS)"), "EXPR" },
  { "timer", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &args.timers, N_("Show the time from a START event to the next END event of the same thread"), "START:END" },
  { "format-file", 't', 0, G_OPTION_ARG_FILENAME, &args.format_file, N_("Describe events with the templates of FILE"), "FILE" },
  { "check-format", 'c', 0, G_OPTION_ARG_FILENAME, &args.check_format, N_("Check the format file FILE and exit"), "FILE" },
  { "columns", 0, 0, G_OPTION_ARG_FILENAME, &args.columns, N_("Column layout with these columns: id,cpu,pid,tid,exec,svc (or all)"), "LIST" },
  { "timestamp", 0, 0, G_OPTION_ARG_FILENAME, &args.timestamp, N_("Column layout time columns: elapsed (default), us, ns or none"), "MODE" },
  { "no-headings", 'h', 0, G_OPTION_ARG_NONE, &args.no_headings, N_("Column layout without column headings"), NULL },
  { "page-size", 0, 0, G_OPTION_ARG_INT64, &args.page_size, N_("Column layout: repeat the headings every N events"), "N" },
  { "two-line", 0, 0, G_OPTION_ARG_NONE, &args.two_line, N_("Column layout: the description on a second line"), NULL },
  { "follow", 0, 0, G_OPTION_ARG_NONE, &args.follow, N_("Keep reading a trace still being written, until interrupted"), NULL },
  { "keep-going", 0, 0, G_OPTION_ARG_NONE, &args.keep_going,
    N_("Read on past damaged blocks or packets: each is named on stderr, and the exit status is 1"), NULL },
  { "analysis", 0, 0, G_OPTION_ARG_FILENAME, &args.analysis,
    N_("Print an analysis instead of events: cpu, syscalls, sched, irq, block, futex, critical-path, callstack, "
       "memory, symbols (list: all)"), "NAME" },
  { "records", 0, 0, G_OPTION_ARG_NONE, &args.records, N_("--analysis: every record instead of statistics"), NULL },
  { "table", 0, 0, G_OPTION_ARG_FILENAME, &args.table, N_("--analysis: only this table of the analysis"), "TABLE" },
  { "group-by", 0, 0, G_OPTION_ARG_FILENAME, &args.group_by, N_("--analysis: statistics per value of this column"), "COLUMN" },
  { "top", 0, 0, G_OPTION_ARG_INT64, &args.top, N_("--analysis: only the N longest records, or N busiest threads (callstack, memory: N rows per table)"), "N" },
  { "bins", 0, 0, G_OPTION_ARG_INT64, &args.bins, N_("--analysis cpu: CPU usage in N bins of the window"), "N" },
  { "tid", 0, 0, G_OPTION_ARG_STRING, &args.tid_text, N_("--analysis: this thread only (callstack too); the thread of critical-path (HOST:TID: of machine HOST)"), "[HOST:]TID" },
  { "no-cache", 0, 0, G_OPTION_ARG_NONE, &args.no_cache, N_("--analysis: neither read nor write the results' cache"), NULL },
  { "symbols", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &args.symbol_dirs,
    N_("--analysis callstack, memory, symbols: look for the traced binaries and their debug files in DIR first"), "DIR" },
  { "symbols-only", 0, 0, G_OPTION_ARG_NONE, &args.symbols_only,
    N_("--analysis callstack, memory, symbols: look for them in the --symbols directories only"), NULL },
  { "sync", 0, 0, G_OPTION_ARG_NONE, &args.sync,
    N_("Synchronize the machines' clocks from the network packets they exchanged: print each trace's correction (see ttv-report(1), SYNCHRONIZATION)"), NULL },
  { "offset", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &args.offsets,
    N_("Shift the clock of TRACE (as given, its name or its host name) by SECONDS (+ or -); repeatable"), N_("TRACE=SECONDS") },
  { "save-offsets", 0, 0, G_OPTION_ARG_NONE, &args.save_offsets,
    N_("Save each trace's clock offset (given by --offset) with its bookmarks, for the viewer and later reports, and exit"), NULL },
  { "threads", 0, 0, G_OPTION_ARG_INT64, &args.n_threads,
    N_("Format the events of a plain report on N threads (default 1: more take less wall time, more CPU time and memory)"), "N" },
  { "help", '?', 0, G_OPTION_ARG_NONE, &args.help, N_("Show help options"), NULL },
  { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &args.traces, NULL, N_("TRACE…") },
  { NULL }
};

/* Exit codes: 0 success, 1 a trace could not be read, 2 wrong usage. */
enum { EXIT_READ = 1, EXIT_USAGE = 2 };

static int
fail (int code, const char *message)
{
  /* Messages quote file and member names of the trace. */
  g_autofree char *shown = ttv_text_for_display (message);

  g_printerr ("ttv-report: %s\n", shown);
  return code;
}

/* Whether the traces have no event because damage found while opening
 * lost them all: a time counted from the first event then fails for the
 * damage (already said), not for the argument. */
static gboolean
lost_every_event (TtvTraceset *ts)
{
  if (ttv_traceset_get_start (ts) <= ttv_traceset_get_end (ts))
    return FALSE;
  for (guint i = 0; i < ttv_traceset_get_n_traces (ts); i++)
    if (ttv_trace_is_damaged (ttv_traceset_get_trace (ts, i), args.follow))
      return TRUE;
  return FALSE;
}

/* T is absolute seconds, or +seconds relative to the traceset start (a
 * time past the representable range is its end: ttv_time_parse_argument). */
static gboolean
parse_time_arg (const char *option, const char *text, TtvTraceset *ts, TtvTime *out, GError **error)
{
  g_autoptr (GError) local = NULL;
  TtvTime start = ttv_traceset_get_start (ts);
  /* A traceset without events has no first event to count from. */
  gboolean has_start = start <= ttv_traceset_get_end (ts);
  if (!ttv_time_parse_argument (text, has_start ? &start : NULL, out, &local))
    {
      g_autofree char *shown = ttv_escape_for_display (local->message, -1);
      g_set_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT, "%s: %s", option, shown);
      return FALSE;
    }
  return TRUE;
}

/* --- Checking the arguments --------------------------------------------------------- */

/* The most --threads accepts. */
#define MAX_THREADS 64

/* The options whose values are text (not file names). */
static const TtvTextOption text_options[] = {
  { "--format", &args.format, NULL }, { "--start", &args.start, NULL }, { "--end", &args.end, NULL },
  { "--after", &args.after, NULL }, { "--state-at", &args.state_at, NULL }, { "--filter", &args.filter, NULL },
  { "--columns", &args.columns, NULL }, { "--timestamp", &args.timestamp, NULL },
  { "--analysis", &args.analysis, NULL }, { "--table", &args.table, NULL }, { "--group-by", &args.group_by, NULL },
  { "-d", NULL, &args.include }, { "-k", NULL, &args.exclude }, { "-p", NULL, &args.processes },
  { "-T", NULL, &args.threads }, { "--timer", NULL, &args.timers }, { "--offset", NULL, &args.offsets },
};

/* What GOption cannot check: text in the right encoding, counts in range. */
static gboolean
check_arguments (GError **error)
{
  if (!ttv_text_options_to_utf8 (text_options, G_N_ELEMENTS (text_options), error))
    return FALSE;
  if (args.count != NOT_GIVEN && args.count < 0)
    {
      g_set_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT,
                   _("-n: expected a number of events, 0 or more, not %" PRId64), args.count);
      return FALSE;
    }
  if (args.n_threads != NOT_GIVEN && (args.n_threads < 1 || args.n_threads > MAX_THREADS))
    {
      g_set_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT,
                   _("--threads: expected a number of threads from 1 to %d, not %" PRId64), MAX_THREADS,
                   args.n_threads);
      return FALSE;
    }
  if (args.checkpoint_interval != NOT_GIVEN && args.checkpoint_interval <= 0)
    {
      g_set_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT,
                   _("--checkpoint-interval: expected a number of events above 0, not %" PRId64),
                   args.checkpoint_interval);
      return FALSE;
    }
  return TRUE;
}

static TtvCheckpointPolicy
checkpoint_policy (void)
{
  /* 0: the default interval. */
  TtvCheckpointPolicy policy = { args.checkpoint_interval == NOT_GIVEN ? 0 : (guint64) args.checkpoint_interval,
                                 0 };
  return policy;
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
 * beginning) goes to stderr, so that the report itself stays clean; from
 * trace @from on (a live session's traces come as it goes). */
static void
print_warnings (TtvTraceset *ts, guint from)
{
  for (guint i = from; i < ttv_traceset_get_n_traces (ts); i++)
    {
      const TtvTrace *t = ttv_traceset_get_trace (ts, i);
      if (t->flags & TTV_TRACE_FLAG_BEGINNING_MISSING)
        g_printerr (_("ttv-report: warning: %s: the beginning of the trace is missing (flight recorder)\n"),
                    t->display_path);
      for (guint j = 0; j < t->warnings->len; j++)
        {
          /* A live trace's last block or packet is normally partly written:
           * --follow reads it once it is whole. */
          const char *w = g_ptr_array_index (t->warnings, j);
          if (args.follow && ttv_trace_warning_is_tail (t, w))
            continue;
          if (ttv_trace_warning_loses_events (t, w))
            g_printerr (_("ttv-report: damaged data skipped: %s\n"), w);
          else
            g_printerr (_("ttv-report: warning: %s\n"), w);
        }
    }
}

/* --keep-going: what was skipped while reading, each place once.  TRUE
 * when some trace lost events to damage, found then or while opening: the
 * report is incomplete, and says so by its exit status, whatever it prints. */
static gboolean
report_damage (TtvTraceset *ts)
{
  gboolean damaged = FALSE;

  for (guint i = 0; i < ttv_traceset_get_n_traces (ts); i++)
    {
      const TtvTrace *t = ttv_traceset_get_trace (ts, i);
      g_autoptr (GPtrArray) damage = ttv_trace_dup_damage (t);

      for (guint j = 0; j < damage->len; j++)
        g_printerr (_("ttv-report: damaged data skipped: %s\n"), (const char *) damage->pdata[j]);
      damaged |= ttv_trace_is_damaged (t, args.follow);
    }
  return damaged;
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

/* What selects and decorates events beyond the classic report. */
typedef struct {
  TtvHookGroups *groups;        /* owned */
  TtvFilter *selection;         /* owned, may be NULL: -d, -k, -p, -T */
  TtvFilter *user;              /* owned, may be NULL: --filter */
  TtvTimerSet *timers;          /* owned */
  TtvFormatFile *format_file;   /* owned, may be NULL */
  gboolean column_layout;
  TtvReportColumns columns;
  TtvReportTimestamp timestamp;
} Extras;

static void
extras_clear (Extras *x)
{
  g_clear_pointer (&x->selection, ttv_filter_free);
  g_clear_pointer (&x->user, ttv_filter_free);
  g_clear_pointer (&x->timers, ttv_timer_set_free);
  g_clear_pointer (&x->format_file, ttv_format_file_free);
  g_clear_pointer (&x->groups, ttv_hook_groups_free);
}

static void
append_quoted (GString *expr, const char *text)
{
  g_string_append_c (expr, '"');
  for (; *text; text++)
    {
      if (*text == '"' || *text == '\\')
        g_string_append_c (expr, '\\');
      g_string_append_c (expr, *text);
    }
  g_string_append_c (expr, '"');
}

static gboolean
is_number (const char *s)
{
  guint64 v;
  if (g_str_has_prefix (s, "0x") || g_str_has_prefix (s, "0X"))
    return g_ascii_string_to_unsigned (s + 2, 16, 0, G_MAXUINT64, &v, NULL);
  return g_ascii_string_to_unsigned (s, 10, 0, G_MAXUINT64, &v, NULL);
}

typedef enum { LIST_EVENTS, LIST_PROCESSES, LIST_THREADS } ListKind;

/* The items of a repeatable list option: separated by commas or blanks
 * (trcrpt takes "-d 'sched_switch irq_entry'").  An option given with
 * nothing in it is an error rather than a selection of everything. */
static GPtrArray *
split_list (char **lists, const char *option, GError **error)
{
  g_autoptr (GPtrArray) items = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; lists && lists[i]; i++)
    {
      g_auto (GStrv) parts = g_strsplit_set (lists[i], ", \t\n", -1);
      guint before = items->len;
      for (guint j = 0; parts[j]; j++)
        if (parts[j][0])
          g_ptr_array_add (items, g_strdup (parts[j]));
      if (items->len == before)
        {
          g_set_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT, _("%s: empty list"), option);
          return NULL;
        }
    }
  return g_steal_pointer (&items);
}

/* Appends "(a | b ...)" for the items of @lists to @expr (with a leading
 * " & " when @expr is not empty); @negated selects the items starting with
 * '!' (threads) instead of the others. */
static gboolean
append_list (GString *expr, char **lists, ListKind kind, gboolean negate_all, gboolean negated,
             const TtvHookGroups *groups, const char *option, GError **error)
{
  g_autoptr (GString) alt = g_string_new (NULL);
  g_autoptr (GPtrArray) items = split_list (lists, option, error);
  if (items == NULL)
    return FALSE;
  for (guint j = 0; j < items->len; j++)
    {
        {
          const char *item = g_ptr_array_index (items, j);
          gboolean neg = item[0] == '!';
          if (kind == LIST_THREADS && neg != negated)
            continue;
          if (neg && kind == LIST_THREADS)
            item++;
          if (alt->len)
            g_string_append (alt, " | ");
          if (kind == LIST_EVENTS && item[0] == '@')
            {
              if (!ttv_hook_groups_has (groups, item + 1))
                {
                  g_autofree char *shown = ttv_escape_for_display (item, -1);
                  g_set_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT,
                               _("%s: unknown hook group %s (see --list-groups)"), option, shown);
                  return FALSE;
                }
              g_string_append (alt, "event.group = ");
              append_quoted (alt, item + 1);
            }
          else if (kind == LIST_EVENTS)
            {
              /* Ids as the ID column and -j show them: hex (trcrpt's
               * "-d 15b"); a word of hex digits may also be a name. */
              guint64 id;
              if (ttv_event_id_parse (item, &id))
                g_string_append_printf (alt, "event.id = 0x%" G_GINT64_MODIFIER "x | ", id);
              g_string_append (alt, "event.name = ");
              append_quoted (alt, item);
            }
          else if (kind == LIST_PROCESSES && !is_number (item))
            {
              g_string_append (alt, "state.process_name = ");
              append_quoted (alt, item);
            }
          else if (is_number (item))
            g_string_append_printf (alt, "%s = %s", kind == LIST_PROCESSES ? "state.pid" : "state.tid", item);
          else
            {
              g_autofree char *shown = ttv_escape_for_display (item, -1);
              g_set_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT,
                           _("%s: '%s' is not a thread id"), option, shown);
              return FALSE;
            }
        }
    }
  if (alt->len == 0)
    return TRUE;
  g_string_append_printf (expr, "%s%s(%s)", expr->len ? " & " : "", negate_all ? "!" : "", alt->str);
  return TRUE;
}

static gboolean
parse_columns (Extras *x, GError **error)
{
  static const struct { const char *name; TtvReportColumns flag; } names[] = {
    { "id", TTV_REPORT_COLUMN_ID }, { "ids", TTV_REPORT_COLUMN_ID }, { "cpu", TTV_REPORT_COLUMN_CPU },
    { "cpuid", TTV_REPORT_COLUMN_CPU }, { "pid", TTV_REPORT_COLUMN_PID }, { "tid", TTV_REPORT_COLUMN_TID },
    { "exec", TTV_REPORT_COLUMN_EXEC }, { "svc", TTV_REPORT_COLUMN_SVC },
  };
  g_auto (GStrv) items = g_strsplit (args.columns ? args.columns : "", ",", -1);
  for (guint i = 0; items[i]; i++)
    {
      const char *item = g_strstrip (items[i]);
      gboolean found = *item == '\0';
      if (g_str_equal (item, "all"))
        {
          x->columns |= TTV_REPORT_COLUMN_ID | TTV_REPORT_COLUMN_CPU | TTV_REPORT_COLUMN_PID
                        | TTV_REPORT_COLUMN_TID | TTV_REPORT_COLUMN_EXEC | TTV_REPORT_COLUMN_SVC;
          found = TRUE;
        }
      for (guint j = 0; j < G_N_ELEMENTS (names) && !found; j++)
        if (g_str_equal (item, names[j].name))
          {
            x->columns |= names[j].flag;
            found = TRUE;
          }
      if (!found)
        {
          g_autofree char *shown = ttv_escape_for_display (item, -1);
          g_set_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT,
                       _("--columns: unknown column '%s': expected id, cpu, pid, tid, exec, svc or all"), shown);
          return FALSE;
        }
    }
  static const char *const modes[] = { "elapsed", "us", "ns", "none" };
  x->timestamp = TTV_REPORT_TIMESTAMP_ELAPSED;
  if (args.timestamp)
    {
      gboolean found = FALSE;
      for (guint i = 0; i < G_N_ELEMENTS (modes); i++)
        if (g_str_equal (args.timestamp, modes[i])
            || (args.timestamp[0] == (char) ('0' + i) && args.timestamp[1] == '\0'))
          {
            x->timestamp = (TtvReportTimestamp) i;
            found = TRUE;
          }
      if (!found)
        {
          g_set_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT,
                       _("--timestamp: expected elapsed, us, ns or none (or trcrpt's 0 to 3)"));
          return FALSE;
        }
    }
  if (args.page_size != NOT_GIVEN && args.page_size <= 0)
    {
      g_set_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT,
                   _("--page-size: expected a number of events above 0, not %" PRId64), args.page_size);
      return FALSE;
    }
  x->column_layout = args.columns || args.timestamp || args.no_headings || args.page_size > 0 || args.two_line;
  return TRUE;
}

/* Builds everything from the options; FALSE with a usage error. */
static gboolean
extras_init (Extras *x, GError **error)
{
  x->groups = ttv_hook_groups_new ();
  if (args.groups_file && !ttv_hook_groups_load_file (x->groups, args.groups_file, error))
    return FALSE;
  g_autoptr (GString) expr = g_string_new (NULL);
  if (!append_list (expr, args.include, LIST_EVENTS, FALSE, FALSE, x->groups, "-d", error)
      || !append_list (expr, args.exclude, LIST_EVENTS, TRUE, FALSE, x->groups, "-k", error)
      || !append_list (expr, args.processes, LIST_PROCESSES, FALSE, FALSE, x->groups, "-p", error)
      || !append_list (expr, args.threads, LIST_THREADS, FALSE, FALSE, x->groups, "-T", error)
      || !append_list (expr, args.threads, LIST_THREADS, TRUE, TRUE, x->groups, "-T", error))
    return FALSE;
  if (expr->len && (x->selection = ttv_filter_new (expr->str, x->groups, error)) == NULL)
    {
      g_autofree char *shown = ttv_escape_for_display (expr->str, -1);
      g_prefix_error (error, "%s: ", shown);
      return FALSE;
    }
  if (args.filter && (x->user = ttv_filter_new (args.filter, x->groups, error)) == NULL)
    {
      g_prefix_error (error, "--filter: ");
      return FALSE;
    }
  x->timers = ttv_timer_set_new ();
  for (guint i = 0; args.timers && args.timers[i]; i++)
    if (!ttv_timer_set_add_rule (x->timers, args.timers[i], error))
      return FALSE;
  if (args.format_file)
    {
      if ((x->format_file = ttv_format_file_load (args.format_file, error)) == NULL)
        return FALSE;
      ttv_format_file_add_timers (x->format_file, x->timers);
    }
  return parse_columns (x, error);
}

/* Whether an item of -d/-k, a timer side or a group selects some event
 * type of the traceset. */
static gboolean
item_matches_some_type (TtvTraceset *ts, const TtvHookGroups *groups, const char *item)
{
  for (guint i = 0; i < ttv_traceset_get_n_traces (ts); i++)
    {
      const TtvTrace *t = ttv_traceset_get_trace (ts, i);
      for (guint j = 0; j < t->event_types->len; j++)
        {
          const TtvEventType *type = g_ptr_array_index (t->event_types, j);
          if (item[0] == '@' ? ttv_hook_groups_match (groups, item + 1, type)
                             : ttv_event_type_matches_pattern (type, item))
            return TRUE;
        }
    }
  return FALSE;
}

/* A misspelt name would select nothing, or exclude nothing, in silence:
 * say which items match no event type of these traces. */
static void
warn_unmatched (TtvTraceset *ts, const Extras *x)
{
  const struct { char **lists; const char *option; } opts[] = { { args.include, "-d" }, { args.exclude, "-k" } };
  for (guint o = 0; o < G_N_ELEMENTS (opts); o++)
    {
      g_autoptr (GPtrArray) items = split_list (opts[o].lists, opts[o].option, NULL);
      for (guint i = 0; items && i < items->len; i++)
        if (!item_matches_some_type (ts, x->groups, g_ptr_array_index (items, i)))
          {
            g_autofree char *shown = ttv_escape_for_display (g_ptr_array_index (items, i), -1);
            g_printerr (_("ttv-report: warning: %s: '%s' matches no event type of the traces (see -j)\n"),
                        opts[o].option, shown);
          }
    }
  for (guint i = 0; i < ttv_timer_set_get_n_rules (x->timers); i++)
    {
      const char *sides[2];
      ttv_timer_set_get_rule (x->timers, i, &sides[0], &sides[1]);
      for (guint k = 0; k < 2; k++)
        if (!item_matches_some_type (ts, x->groups, sides[k]))
          {
            g_autofree char *a = ttv_escape_for_display (sides[0], -1), *b = ttv_escape_for_display (sides[1], -1);
            g_printerr (_("ttv-report: warning: timer %s:%s: '%s' matches no event type of the traces (see -j)\n"),
                        a, b, k == 0 ? a : b);
          }
    }
}

static gboolean
extras_need_state (const Extras *x)
{
  return (x->column_layout && (x->columns & (TTV_REPORT_COLUMN_PID | TTV_REPORT_COLUMN_TID
                                             | TTV_REPORT_COLUMN_EXEC | TTV_REPORT_COLUMN_SVC)))
         || (x->selection && ttv_filter_needs_state (x->selection))
         || (x->user && ttv_filter_needs_state (x->user))
         || ttv_timer_set_get_n_rules (x->timers) > 0 || x->format_file != NULL;
}

/* --follow: SIGINT / SIGTERM end the report cleanly. */
static volatile sig_atomic_t interrupted;

static void
on_signal (int sig)
{
  (void) sig;
  interrupted = 1;
}

/* Events before this time are final: every tracefile (a CPU's buffer, a
 * CTF stream with or without a CPU) has reached it, and a tracefile's next
 * block starts no earlier than its last one ends.  A live session knows
 * better: its relay says how far each stream is, packets or not. */
static TtvTime
follow_watermark (TtvTraceset *ts)
{
  TtvTime w = TTV_TIME_MAX;
  if (ttv_traceset_is_live (ts))
    {
      ttv_traceset_get_live_state (ts, &w, NULL);
      return w;
    }
  for (guint i = 0; i < ttv_traceset_get_n_tracefiles (ts); i++)
    {
      const TtvTracefile *tf = ttv_traceset_get_tracefile (ts, i);
      if (tf->n_blocks > 0)
        w = MIN (w, tf->end);
    }
  return w;
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Extras, extras_clear)

typedef struct {
  gboolean started;
  TtvTime last_time;        /* time of the last event read */
  guint64 n_at_last;        /* events read at exactly last_time */
} FollowMark;

/* A live session that ended or whose relay failed sends nothing more. */
static gboolean
live_is_over (TtvTraceset *ts)
{
  return ttv_traceset_is_live (ts) && ttv_traceset_get_live_state (ts, NULL, NULL) != TTV_LIVE_SOURCE_RUNNING;
}

/* What warn_late_streams() knows of one stream of a live session. */
typedef struct {
  gboolean caught_up;            /* its data reached the printed events: never late again */
  gboolean has_last;             /* @last is the last event counted late */
  TtvTracefilePosition last;
  TtvTime last_time;
} LateScan;

/* Counts the events of @tf, after those counted before, that come before
 * @until; TRUE in @caught_up when it has an event at or after @until. */
static guint64
count_late_events (TtvTracefile *tf, LateScan *scan, TtvTime until)
{
  g_autoptr (TtvCursor) c = ttv_cursor_new (tf, NULL);
  TtvEvent ev;
  guint64 n = 0;

  if (c == NULL || (scan->has_last && !ttv_cursor_seek_time (c, scan->last_time, NULL)))
    return 0;
  while (ttv_cursor_next (c, &ev, NULL))
    {
      if (scan->has_last && ttv_tracefile_position_compare (&ev.pos, &scan->last) <= 0)
        continue;
      if (ev.time >= until)
        {
          scan->caught_up = TRUE;
          break;
        }
      scan->has_last = TRUE;
      scan->last = ev.pos;
      scan->last_time = ev.time;
      n++;
    }
  return n;
}

/* A live session's stream that arrives after later events of other streams
 * were printed (a new application's buffers) brings events that can no
 * longer be printed in order: say how many, rather than nothing.  Until its
 * data reaches the printed events, each packet it gains may bring more.
 * @known maps the tracefiles seen so far to their LateScan. */
static void
warn_late_streams (TtvTraceset *ts, GHashTable *known, const FollowMark *mark)
{
  for (guint i = 0; i < ttv_traceset_get_n_tracefiles (ts); i++)
    {
      TtvTracefile *tf = ttv_traceset_get_tracefile (ts, i);
      LateScan *scan = g_hash_table_lookup (known, tf);
      if (scan == NULL)
        {
          scan = g_new0 (LateScan, 1);
          g_hash_table_insert (known, tf, scan);
        }
      if (scan->caught_up)
        continue;
      if (!mark->started || tf->first_event >= mark->last_time)
        {
          scan->caught_up = TRUE;       /* printed in order, as the others */
          continue;
        }
      guint64 n = count_late_events (tf, scan, mark->last_time);
      if (n > 0)
        g_printerr (_("ttv-report: warning: %s: %" PRIu64 " events of stream %s came after later events "
                      "were printed; they are not printed\n"),
                    tf->trace->display_path, n, tf->name);
    }
}

/* Refreshes the traceset (a new context is needed: cursors cannot live
 * across a refresh) and puts the context after the last event read. */
static TtvContext *
follow_refresh (TtvTraceset *ts, TtvContext *old, const FollowMark *mark, TtvTime start, GError **error)
{
  ttv_context_free (old);
  gboolean changed;
  if (!ttv_traceset_refresh (ts, &changed, error))
    return NULL;
  g_autoptr (TtvContext) ctx = ttv_context_new (ts, error);
  if (ctx == NULL)
    return NULL;
  if (!mark->started)
    return position_context (ctx, ts, start, error) ? g_steal_pointer (&ctx) : NULL;
  if (!ttv_context_seek_time (ctx, mark->last_time, error))
    return NULL;
  for (guint64 i = 0; i < mark->n_at_last; i++)
    {
      const TtvEvent *ev = ttv_context_next (ctx, error);
      if (ev == NULL)
        return *error ? NULL : g_steal_pointer (&ctx);
    }
  return g_steal_pointer (&ctx);
}

/* What every line of a report is made with. */
static TtvReportPrinter *
report_printer_new (TtvTraceset *ts, TtvReportFormat format, const Extras *x)
{
  TtvReportOptions options = { format, args.position, args.state, ttv_traceset_get_n_traces (ts) > 1,
                               x->column_layout, x->columns, x->timestamp, args.two_line,
                               ttv_traceset_get_start (ts), x->format_file };
  return ttv_report_printer_new (&options);
}

/* What report_printer_new () is given, for a printer made later. */
typedef struct {
  TtvTraceset *ts;
  TtvReportFormat format;
  const Extras *x;
} PrinterRecipe;

static TtvReportPrinter *
printer_from_recipe (gpointer data)
{
  const PrinterRecipe *recipe = data;
  return report_printer_new (recipe->ts, recipe->format, recipe->x);
}

/* Whether each event's line carries its position token: jsonl always. */
static gboolean
report_needs_position (TtvReportFormat format)
{
  return args.position || format == TTV_REPORT_JSONL;
}

/* Whether a report prints every event from its start to its end as it
 * comes, with no state, selection, filter, timer, heading, statistics or
 * follow: the usual `ttv-report TRACE`, which ttv-report-plain.c prints. */
static gboolean
report_is_plain (const Extras *x)
{
  return !args.follow && !args.state && args.stats != STATS_TABLES && !extras_need_state (x)
         && x->selection == NULL && x->user == NULL && !(x->column_layout && !args.no_headings);
}

/* How many threads format a plain report: one for what cannot be cut in
 * chunks (-n and --after count from one place, a live session grows,
 * --keep-going names damage in the order found).  One unless asked: on
 * two cores, two threads took 0.7-1.0 of the wall time, 1.4-1.7 times the
 * CPU time and 2.4-3 times the memory of one (bench/README.md). */
static guint
plain_report_threads (TtvTraceset *ts)
{
  if (args.count != NOT_GIVEN || args.after || args.keep_going || ttv_traceset_is_live (ts)
      || args.n_threads == NOT_GIVEN)
    return 1;
  return (guint) args.n_threads;
}

/* The end of a report that stopped on @error (taken; NULL: none): what is
 * left written, and its exit status. */
static int
finish_report (TtvTraceset *ts, TtvReportOutput *o, GError *error)
{
  g_autoptr (GError) local = error;
  g_autoptr (GError) flush_error = NULL;
  if (!ttv_report_output_flush (o, TRUE, &flush_error) && local == NULL)
    local = g_steal_pointer (&flush_error);
  if (local)
    return fail (EXIT_READ, local->message);
  /* Everything the relay sent is printed: now say why it stopped. */
  const GError *live_error = NULL;
  if (ttv_traceset_is_live (ts)
      && ttv_traceset_get_live_state (ts, NULL, &live_error) == TTV_LIVE_SOURCE_FAILED)
    {
      g_autofree char *msg = g_strdup_printf (_("the live session stopped: %s"), live_error->message);
      return fail (EXIT_READ, msg);
    }
  return 0;
}

static int
print_events (TtvTraceset *ts, TtvTime start, TtvTime end, TtvReportOutput *o, TtvReportFormat format, Extras *x)
{
  g_autoptr (GError) error = NULL;
  TtvContext *ctx = ttv_context_new (ts, &error);
  if (ctx == NULL || !position_context (ctx, ts, start, &error))
    {
      ttv_context_free (ctx);
      return fail (g_error_matches (error, TTV_ENGINE_ERROR, TTV_ENGINE_ERROR_BAD_POSITION) ? EXIT_USAGE : EXIT_READ,
                   error->message);
    }

  TtvCheckpointPolicy policy = checkpoint_policy ();
  g_autoptr (TtvStateTracker) tracker = NULL;
  if (args.state || args.stats == STATS_TABLES || extras_need_state (x))
    {
      tracker = ttv_state_tracker_new (ts, &policy);
      if (!replay_to_context (tracker, ts, ctx, &error))
        {
          ttv_context_free (ctx);
          return fail (EXIT_READ, error->message);
        }
      /* Statistics of what follows: CPU time from @start on. */
      if (args.stats == STATS_TABLES)
        ttv_statistics_set_start (ttv_state_tracker_get_statistics (tracker), start);
    }

  if (report_is_plain (x))
    {
      PrinterRecipe recipe = { ts, format, x };
      TtvPlainReport plain = { ts, start, end, args.count != NOT_GIVEN ? (guint64) args.count : G_MAXUINT64,
                               report_needs_position (format), printer_from_recipe, &recipe };
      guint n_threads = plain_report_threads (ts);
      /* The threads read from the start: @ctx is left unread. */
      if (n_threads == 1 || !ttv_plain_report_print_threads (&plain, n_threads, o, &error))
        ttv_plain_report_print (&plain, ctx, o, &error);
      ttv_context_free (ctx);
      return finish_report (ts, o, g_steal_pointer (&error));
    }

  /* Made at the first event: a live session has no trace before. */
  g_autoptr (TtvReportPrinter) printer = NULL;
  g_autoptr (GArray) lost = ttv_lost_marks_collect (ts);
  guint n_traces = ttv_traceset_get_n_traces (ts);
  g_autoptr (GHashTable) known_streams = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  for (guint i = 0; i < ttv_traceset_get_n_tracefiles (ts); i++)
    {
      LateScan *scan = g_new0 (LateScan, 1);

      scan->caught_up = TRUE;           /* read in order from the start */
      g_hash_table_insert (known_streams, ttv_traceset_get_tracefile (ts, i), scan);
    }
  g_autoptr (GString) suffix = g_string_new (NULL);
  g_autoptr (GString) warnings = g_string_new (NULL);
  gboolean headings = x->column_layout && !args.no_headings && args.stats != STATS_TABLES;
  guint next_lost = 0;
  guint64 printed = 0;
  FollowMark mark = { FALSE, 0, 0 };
  gboolean past_end = FALSE;         /* stopped at an event after @end */
  gboolean final = FALSE;
  for (;;)
    {
      if (args.count != NOT_GIVEN && printed >= (guint64) args.count)
        break;
      if (args.follow)
        {
          const TtvEvent *next = ttv_context_peek (ctx, &error);
          if (error)
            break;
          if (next && next->time > end)
            break;
          /* At the watermark itself too: another stream's next packet may
           * begin exactly there, and its events must come in order. */
          if (next == NULL || (!final && next->time >= follow_watermark (ts)))
            {
              if (final)
                break;
              if (!ttv_report_output_flush (o, TRUE, &error))
                break;
              fflush (o->out);
              for (guint i = 0; i < 2 && !interrupted; i++)
                g_usleep (50000);
              final = interrupted;
              /* Interrupted: one last refresh, then everything left. */
              if ((ctx = follow_refresh (ts, ctx, &mark, start, &error)) == NULL)
                break;
              /* A live session that is over has everything in the spool now. */
              final = final || live_is_over (ts);
              g_array_unref (lost);
              lost = ttv_lost_marks_collect (ts);
              next_lost = mark.started ? ttv_lost_marks_after (lost, mark.last_time) : 0;
              /* Traces a live session gained: their warnings, and the state
               * must know them. */
              print_warnings (ts, n_traces);
              if (ttv_traceset_is_live (ts))
                warn_late_streams (ts, known_streams, &mark);
              if (tracker && ttv_traceset_get_n_traces (ts) != n_traces)
                {
                  g_clear_pointer (&tracker, ttv_state_tracker_free);
                  tracker = ttv_state_tracker_new (ts, &policy);
                  if (!replay_to_context (tracker, ts, ctx, &error))
                    break;
                }
              n_traces = ttv_traceset_get_n_traces (ts);
              continue;
            }
        }
      const TtvEvent *ev = ttv_context_next (ctx, &error);
      past_end = ev != NULL && ev->time > end;
      if (ev == NULL || ev->time > end)
        break;
      /* Taken after next(), not peeked before it: the same position (the
       * event's), without reading ahead twice. */
      const TtvPosition *pos = report_needs_position (format) ? ttv_context_peek_event_position (ctx) : NULL;
      if (mark.started && ev->time == mark.last_time)
        mark.n_at_last++;
      else
        {
          mark.started = TRUE;
          mark.last_time = ev->time;
          mark.n_at_last = 1;
        }
      const TtvState *state = NULL;
      if (tracker)
        {
          ttv_state_tracker_apply (tracker, NULL,
                                   ttv_traceset_get_stream_trace (ts, ttv_context_get_stream (ctx)), ev);
          state = ttv_state_tracker_get_state (tracker);
        }
      /* Timers see every event, printed or not (trcrpt's semantics):
       * "-d syscall_exit --timer syscall_entry:syscall_exit" times calls. */
      if (ttv_timer_set_get_n_rules (x->timers) > 0)
        {
          g_string_truncate (suffix, 0);
          const TtvProcessState *proc = state ? ttv_state_get_running (state, ev->tracefile->cpu) : NULL;
          TtvTime elapsed;
          if (ttv_timer_set_process (x->timers, ev, proc ? (gint64) proc->pid : -2 - (gint64) ttv_context_get_stream (ctx),
                                     &elapsed))
            ttv_timer_append_elapsed (suffix, elapsed);
        }
      if ((x->selection && !ttv_filter_matches (x->selection, ev, state))
          || (x->user && !ttv_filter_matches (x->user, ev, state)))
        continue;
      printed++;
      if (args.stats == STATS_TABLES)
        continue;
      if (printer == NULL)
        printer = report_printer_new (ts, format, x);
      if (headings && (printed == 1 || (args.page_size > 0 && (printed - 1) % (guint64) args.page_size == 0)))
        ttv_report_printer_append_headings (printer, o->buf);
      if (!ttv_lost_marks_append_until (printer, lost, &next_lost, ev->time, start, o->buf, warnings,
                                        ttv_report_output_warn, o, &error))
        break;
      ttv_report_printer_append_full (printer, ev, pos, state, suffix->len ? suffix->str : NULL, o->buf);
      if (!ttv_report_output_flush (o, FALSE, &error))
        break;
    }
  ttv_context_free (ctx);
  if (args.stats == STATS_TABLES && error == NULL)
    {
      TtvStatistics *stats = ttv_state_tracker_get_statistics (tracker);
      const TtvState *state = ttv_state_tracker_get_state (tracker);
      /* CPU time up to --end, or to the last event when they end before
       * it: what follows the last event is not known. */
      ttv_statistics_account_until (stats, state, past_end ? end : ttv_state_get_time (state));
      ttv_statistics_append_text (stats, o->buf);
      ttv_lost_marks_append_summary (lost, start, end, o->buf);
    }
  return finish_report (ts, o, g_steal_pointer (&error));
}

/* --- What the viewer computes: the statistics tree, the density -------------- */

/* --stats: the tree of the statistics view, of the events from @start to
 * @end (TTV_TIME_MIN, TTV_TIME_MAX: the whole traceset), with the names
 * as written whatever the language. */
static int
print_stats_tree (TtvTraceset *ts, TtvTime start, TtvTime end, TtvAnalysisFormat format, TtvReportOutput *o)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvStatistics) stats = ttv_interval_statistics_run (ts, start, end, NULL, &error);
  g_autoptr (TtvStatsNode) root = NULL;

  if (!stats)
    return fail (EXIT_READ, error->message);
  root = ttv_stats_tree_new_full (stats, ts, start, end, FALSE);
  ttv_stats_tree_append (root, format, o->buf);
  if (!ttv_report_output_flush (o, TRUE, &error))
    return fail (EXIT_READ, error->message);
  return 0;
}

/* --density: the histogram's bins over the traceset's span, or over the
 * window --start and --end give. */
static int
print_density (TtvTraceset *ts, TtvTime start, TtvTime end, TtvAnalysisFormat format, TtvReportOutput *o)
{
  g_autoptr (GError) error = NULL;
  guint bins = args.density_bins != G_MININT64 ? (guint) args.density_bins : TTV_INDEXER_DENSITY_BINS;
  g_autoptr (TtvIndexResult) density = args.start || args.end
                                         ? ttv_indexer_run_range (ts, bins, start, end, NULL, &error)
                                         : ttv_indexer_run (ts, bins, NULL, &error);

  if (!density)
    return fail (EXIT_READ, error->message);
  ttv_density_append (density, args.density_types, format, o->buf);
  if (!ttv_report_output_flush (o, TRUE, &error))
    return fail (EXIT_READ, error->message);
  return 0;
}

/* The --format of --stats and --density: one of the analyses' formats. */
static gboolean
parse_print_format (TtvAnalysisFormat *format)
{
  *format = TTV_ANALYSIS_FORMAT_TEXT;
  return args.format == NULL
         || (ttv_analysis_format_parse (args.format, format)
             && (TTV_STATS_PRINT_FORMATS & TTV_ANALYSIS_FORMAT_BIT (*format)));
}

/* What the arguments alone say is wrong (options that cannot go together,
 * numbers out of range), before any file is read; NULL when nothing.
 * What needs the parsed --format or the extra files is checked in run(). */
/* --tid TID, or HOST:TID (a host name may hold ':', the tid not): sets
 * args.tid and args.tid_machine. */
static gboolean
parse_tid (const char *text)
{
  const char *colon = strrchr (text, ':');
  const char *number = colon ? colon + 1 : text;
  guint64 tid;
  if (colon == text || !g_ascii_string_to_unsigned (number, 10, 0, G_MAXUINT32, &tid, NULL))
    return FALSE;
  args.tid = (gint64) tid;
  g_clear_pointer (&args.tid_machine, g_free);
  if (colon)
    args.tid_machine = g_strndup (text, colon - text);
  return TRUE;
}

static const char *
usage_error (void)
{
  if (args.stats_tree && args.stats_tables)
    return _("--stats and --stats-tables cannot be used together");
  args.stats = args.stats_tree ? STATS_TREE : args.stats_tables ? STATS_TABLES : STATS_NONE;
  if (args.density && args.stats != STATS_NONE)
    return _("--density and --stats cannot be used together");
  if ((args.density_bins != G_MININT64 || args.density_types) && !args.density)
    return _("--density-bins and --density-types go with --density");
  /* Per event type, each bin of each type takes memory: 16384 bins of
   * the 541 types of a real kernel trace take 35 MB. */
  if (args.density_bins != G_MININT64 && (args.density_bins < 1 || args.density_bins > 16384))
    return _("--density-bins: expected a number of bins from 1 to 16384");
  if (args.stats == STATS_TABLES && args.format && !g_str_equal (args.format, "text"))
    return _("--stats-tables prints text tables only: --format=jsonl and csv go with --stats");
  if (args.tid_text && !parse_tid (args.tid_text))
    return _("--tid: expected a thread's number (0 or more), or HOST:TID for a thread of machine HOST");
  if (!args.analysis && (args.records || args.table || args.group_by || args.top || args.bins || args.tid >= 0
                         || args.no_cache || args.symbol_dirs || args.symbols_only))
    return _("--records, --table, --group-by, --top, --bins, --tid, --no-cache, --symbols and "
             "--symbols-only go with --analysis");
  if (args.analysis && (args.stats != STATS_NONE || args.density || args.state_at || args.info || args.list_events
                        || args.follow || args.after || args.state
                        || (args.format && g_str_equal (args.format, "babeltrace"))))
    return _("--analysis prints an analysis: it cannot be used with --stats, --stats-tables, "
             "--density, --state, --state-at, --info, --list-events, --follow, --after or "
             "--format=babeltrace");
  if (args.top < 0 || args.bins < 0 || args.bins > 100000 || args.tid > G_MAXUINT32)
    return _("--top, --bins and --tid take a number of 0 or more (at most 100000 bins)");
  if (args.follow && (args.stats || args.density || args.state_at || args.info || args.list_events || args.after))
    return _("--follow prints events: it cannot be used with --stats, --density, --state-at, "
             "--info, --list-events or --after");
  return NULL;
}

static int
print_state_at (TtvTraceset *ts, TtvTime at, TtvReportOutput *o)
{
  g_autoptr (GError) error = NULL;
  TtvCheckpointPolicy policy = checkpoint_policy ();
  g_autoptr (TtvStateTracker) tracker = ttv_state_tracker_new (ts, &policy);
  if (!ttv_state_tracker_build (tracker, NULL, NULL, NULL, &error))
    return fail (EXIT_READ, error->message);
  g_autoptr (TtvState) state = ttv_state_tracker_dup_state_at (tracker, at, &error);
  if (state == NULL)
    return fail (EXIT_READ, error->message);
  ttv_state_append_text (state, o->buf);
  if (!ttv_report_output_flush (o, TRUE, &error))
    return fail (EXIT_READ, error->message);
  return 0;
}

static int
list_analyses (void)
{
  for (const TtvAnalysisClass *const *c = ttv_analysis_list (); *c; c++)
    {
      g_print ("%-14s %s: %s\n", (*c)->name, _((*c)->title), _((*c)->description));
      for (guint k = 0; k < (*c)->n_tables; k++)
        {
          const TtvAnalysisTableSpec *spec = (*c)->tables[k];
          g_print ("  %s:", spec->name);
          for (guint i = 0; i < spec->n_columns; i++)
            g_print (" %s", spec->columns[i].name);
          g_print ("\n");
        }
    }
  g_print ("%-14s %s\n", "critical-path", _("What a thread (--tid) waited for, back through the threads and devices "
                                              "that woke it (from sched and cpu)"));
  return 0;
}

static void
analysis_progress (double fraction, gpointer data)
{
}

static void
analysis_options (TtvAnalysisOptions *opt, TtvTraceset *ts, TtvTime start, TtvTime end)
{
  memset (opt, 0, sizeof *opt);
  /* 0 / 0 is the whole traceset. */
  if (start != TTV_TIME_MIN || end != TTV_TIME_MAX)
    {
      opt->start = start == TTV_TIME_MIN ? ttv_traceset_get_start (ts) : start;
      opt->end = end == TTV_TIME_MAX ? ttv_traceset_get_end (ts) : end;
    }
  opt->records = args.records;
  opt->table = args.table;
  opt->group_by = args.group_by;
  opt->top = (guint64) args.top;
  opt->bins = (guint) args.bins;
  opt->one_thread = args.tid >= 0;
  opt->tid = args.tid >= 0 ? (guint32) args.tid : 0;
  opt->machine = args.tid_machine;
  opt->traceset = ts;
  opt->no_cache = args.no_cache || g_getenv ("TTV_HISTORY_NO_CACHE") != NULL;
  opt->debug_dirs = (const char *const *) args.symbol_dirs;
  opt->symbols_only_in_dirs = args.symbols_only;
  opt->max_rows = (guint) MIN ((guint64) MAX (args.top, 0), G_MAXUINT);
}

/* The machine --tid HOST:TID names (0 without HOST); FALSE with a message
 * when the traceset has no machine HOST. */
static gboolean
tid_machine (TtvTraceset *ts, guint *machine)
{
  *machine = 0;
  if (args.tid_machine == NULL)
    return TRUE;
  for (guint m = 0; m < ttv_traceset_get_n_machines (ts); m++)
    if (g_strcmp0 (ttv_traceset_get_machine_name (ts, m), args.tid_machine) == 0)
      {
        *machine = m;
        return TRUE;
      }
  g_autofree char *names = ttv_traceset_dup_machine_names (ts);
  g_autofree char *msg = g_strdup_printf (_("--tid: no machine %s in the traces (their machines: %s)"),
                                          args.tid_machine, names);
  fail (EXIT_USAGE, msg);
  return FALSE;
}

static int
print_critical_path (TtvTraceset *ts, const TtvAnalysisOptions *opt, TtvAnalysisFormat format, TtvReportOutput *o)
{
  g_autoptr (GError) error = NULL;
  if (!opt->one_thread)
    return fail (EXIT_USAGE, _("--analysis critical-path: which thread? (--tid TID)"));
  guint machine;
  if (!tid_machine (ts, &machine))
    return EXIT_USAGE;
  if (args.tid_machine == NULL && ttv_traceset_get_n_machines (ts) > 1)
    {
      g_autofree char *names = ttv_traceset_dup_machine_names (ts);
      g_autofree char *msg = g_strdup_printf (_("--analysis critical-path: the traces hold several machines (%s): "
                                                "which one's thread? (--tid HOST:TID)"), names);
      return fail (EXIT_USAGE, msg);
    }
  if (format != TTV_ANALYSIS_FORMAT_TEXT && format != TTV_ANALYSIS_FORMAT_JSONL && format != TTV_ANALYSIS_FORMAT_CSV)
    return fail (EXIT_USAGE, _("--analysis critical-path: --format is text, jsonl or csv"));
  g_autoptr (TtvAnalysis) sched = ttv_analysis_run (ts, &ttv_sched_analysis, opt, analysis_progress, NULL, NULL, &error);
  g_autoptr (TtvAnalysis) cpu = sched ? ttv_analysis_run (ts, &ttv_cpu_usage_analysis, opt, analysis_progress, NULL,
                                                          NULL, &error) : NULL;
  if (cpu == NULL)
    return fail (EXIT_READ, error->message);
  TtvTime t0, t1, m0, m1;
  ttv_analysis_options_get_range (opt, ts, &t0, &t1);
  /* Where the thread's machine was traced (not another machine's years). */
  if (ttv_traceset_get_machine_span (ts, machine, &m0, &m1))
    {
      t0 = MAX (t0, m0);
      t1 = MIN (t1, m1);
    }
  g_autoptr (GArray) path = ttv_critical_path_compute (sched, cpu, machine, opt->tid, t0, t1, &error);
  if (path == NULL)
    return fail (EXIT_READ, error->message);
  ttv_critical_path_print (path, opt->tid, format, o->buf);
  return 0;
}

/* --analysis NAME: one read of the traces (or their cached results), then
 * the analysis's report over --start..--end. */
static int
print_analysis (TtvTraceset *ts, TtvTime start, TtvTime end, TtvReportOutput *o)
{
  g_autoptr (GError) error = NULL;
  TtvAnalysisFormat format = TTV_ANALYSIS_FORMAT_TEXT;
  if (args.format && !ttv_analysis_format_parse (args.format, &format))
    return fail (EXIT_USAGE, _("--format: expected text, jsonl, csv or folded with --analysis"));
  TtvAnalysisOptions opt;
  analysis_options (&opt, ts, start, end);
  int status = 0;
  if (g_str_equal (args.analysis, "critical-path"))
    status = print_critical_path (ts, &opt, format, o);
  else
    {
      const TtvAnalysisClass *cls = ttv_analysis_find (args.analysis);
      if (cls == NULL)
        {
          g_autofree char *msg = g_strdup_printf (_("--analysis: no analysis %s (--analysis list names them)"),
                                                  args.analysis);
          return fail (EXIT_USAGE, msg);
        }
      guint machine;
      if (!tid_machine (ts, &machine))
        return EXIT_USAGE;
      if (!(cls->formats & TTV_ANALYSIS_FORMAT_BIT (format)))
        {
          g_autofree char *msg = g_strdup_printf (_("--analysis %s has no %s output"), cls->name,
                                                  ttv_analysis_format_name (format));
          return fail (EXIT_USAGE, msg);
        }
      if (cls->n_tables == 0 && (args.records || args.table || args.group_by || args.bins))
        {
          g_autofree char *msg = g_strdup_printf (_("--analysis %s has no tables: --records, --table, --group-by "
                                                    "and --bins do not apply"), cls->name);
          return fail (EXIT_USAGE, msg);
        }
      g_autoptr (TtvAnalysis) analysis = ttv_analysis_run (ts, cls, &opt, analysis_progress, NULL, NULL, &error);
      if (analysis == NULL)
        return fail (EXIT_READ, error->message);
      if (!ttv_analysis_write (analysis, format, &opt, o->buf, &error))
        return fail (g_error_matches (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT) ? EXIT_USAGE : EXIT_READ,
                     error->message);
    }
  if (status == 0 && !ttv_report_output_flush (o, TRUE, &error))
    return fail (EXIT_READ, error->message);
  return status;
}

static gboolean
parse_format (TtvReportFormat *format)
{
  /* CSV and folded are an analysis's; --analysis checks them. */
  if (args.format == NULL || g_str_equal (args.format, "text") || g_str_equal (args.format, "csv")
      || g_str_equal (args.format, "folded"))
    *format = TTV_REPORT_TEXT;
  else if (g_str_equal (args.format, "jsonl"))
    *format = TTV_REPORT_JSONL;
  else if (g_str_equal (args.format, "babeltrace"))
    *format = TTV_REPORT_BABELTRACE;
  else
    return FALSE;
  return TRUE;
}

/* net://RELAY[:PORT][/host/HOSTNAME]: the sessions the relay serves, one
 * URL to follow a line. */
static int
list_live_sessions (const TtvLiveUrl *url, TtvReportOutput *o)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) sessions = ttv_live_list_sessions (url, NULL, NULL, &error);
  if (sessions == NULL)
    return fail (EXIT_READ, error->message);
  if (sessions->len == 0)
    {
      g_autofree char *relay = ttv_live_url_dup_relay (url);
      g_autofree char *msg = url->target_host
                               ? g_strdup_printf (_("the relay %s serves no live session of host %s"), relay,
                                                  url->target_host)
                               : g_strdup_printf (_("the relay %s serves no live session"), relay);
      g_printerr ("ttv-report: %s\n", msg);
      return 0;
    }
  for (guint i = 0; i < sessions->len; i++)
    {
      const TtvLiveSessionInfo *s = sessions->pdata[i];
      g_autofree char *session_url = ttv_live_url_build (url->relay_host, url->port, s->hostname, s->name);
      g_string_append_printf (o->buf, _("%s (%s; streams: %u; viewers attached: %u; live timer: %u µs)\n"),
                              session_url, s->trace_format == TTV_LIVE_TRACE_FORMAT_CTF_2 ? "CTF 2" : "CTF 1.8",
                              s->streams, s->clients, s->live_timer_us);
    }
  if (!ttv_report_output_flush (o, TRUE, &error))
    return fail (EXIT_READ, error->message);
  return 0;
}

/* A live session (a net:// URL) is read alone and followed as it goes;
 * without a session, the URL asks for the list.  *list gets the URL to list. */
static int
check_live_args (TtvLiveUrl **list)
{
  g_autoptr (GError) error = NULL;
  guint n = g_strv_length (args.traces);
  for (guint i = 0; i < n; i++)
    if (ttv_live_url_is_live (args.traces[i]) && n > 1)
      return fail (EXIT_USAGE, _("a live session is read on its own: give one net:// URL and no other trace"));
  if (!ttv_live_url_is_live (args.traces[0]))
    return 0;
  g_autoptr (TtvLiveUrl) url = ttv_live_url_parse (args.traces[0], &error);
  if (url == NULL)
    return fail (EXIT_USAGE, error->message);
  if (url->session == NULL)
    {
      *list = g_steal_pointer (&url);
      return 0;
    }
  if (args.stats || args.density || args.state_at || args.info || args.list_events || args.after)
    return fail (EXIT_USAGE, _("a live session is printed as it goes: --stats, --density, --state-at, --info, "
                               "--list-events and --after need a trace that is complete"));
  if ((args.start && args.start[0] == '+') || (args.end && args.end[0] == '+'))
    return fail (EXIT_USAGE, _("with a live session, --start and --end take absolute times (the session's start "
                               "is not known yet)"));
  args.follow = TRUE;
  return 0;
}

/* --sync: the machines' clocks fitted from their packets, each trace
 * corrected; *@result for printing.  Exit 1 when a machine could not be
 * synchronized (it stays uncorrected), 2 when nothing can be. */
static int
apply_sync (TtvTraceset *ts, TtvSyncResult **result)
{
  g_autoptr (GError) error = NULL;
  *result = ttv_sync_traceset (ts, &error);
  if (*result == NULL)
    return fail (g_error_matches (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT) ? EXIT_USAGE : EXIT_READ,
                 error->message);
  ttv_sync_result_apply (*result, ts);
  return 0;
}

static void
report_sync_failures (const TtvSyncResult *r, int *status)
{
  for (guint k = 0; k < r->n_machines; k++)
    if (r->machines[k].quality == TTV_SYNC_FAIL)
      {
        g_autofree char *msg = g_strdup_printf (_("machine %s cannot be synchronized: %s"), r->machines[k].name,
                                                r->machines[k].reason);
        *status = fail (EXIT_READ, msg);
      }
}

/* The traces --offset TRACE=SECONDS names: the path given, the trace's
 * name or its host name. */
static gboolean
trace_matches (const TtvTrace *t, const char *name)
{
  return g_strcmp0 (t->display_path, name) == 0 || g_strcmp0 (t->path, name) == 0 || g_strcmp0 (t->name, name) == 0
         || g_strcmp0 (ttv_trace_get_host (t), name) == 0;
}

/* The offsets saved with each trace's bookmarks (the viewer's trace
 * properties, --save-offsets): what the viewer shows, ttv-report uses. */
static void
apply_saved_offsets (TtvTraceset *ts)
{
  for (guint t = 0; t < ttv_traceset_get_n_traces (ts); t++)
    {
      TtvTrace *trace = ttv_traceset_get_trace (ts, t);
      g_autoptr (GError) error = NULL;
      gint64 offset;
      if (ttv_bookmarks_load_clock_offset (trace, &offset, &error))
        {
          TtvClockCorrection c = { .offset_ns = (double) offset };
          ttv_traceset_set_clock_correction (ts, t, &c);
        }
      else if (error)
        g_printerr (_("ttv-report: warning: the clock offset saved with %s is not used: %s\n"),
                    trace->display_path ? trace->display_path : trace->path, error->message);
    }
}

/* --save-offsets: each trace's clock offset saved with its bookmarks, where
 * they are (in the trace, beside it, or in the user's folder when the
 * trace is read-only). */
static int
save_offsets (TtvTraceset *ts, const gboolean *named)
{
  int status = 0;
  for (guint t = 0; t < ttv_traceset_get_n_traces (ts); t++)
    {
      TtvTrace *trace = ttv_traceset_get_trace (ts, t);
      if (!named[t])
        continue;
      g_autoptr (GError) error = NULL;
      g_autoptr (TtvBookmarks) l = ttv_bookmarks_load_for_trace (trace, &error);
      TtvBookmarksPlace place = TTV_BOOKMARKS_IN_TRACE;
      if (!ttv_bookmarks_find_for_trace (trace, &place) && !ttv_bookmarks_trace_is_writable (trace))
        place = TTV_BOOKMARKS_USER_DIR;
      gboolean set = !ttv_clock_correction_is_identity (&trace->clock);
      if (l != NULL)
        ttv_bookmarks_set_clock_offset (l, set, (gint64) trace->clock.offset_ns);
      if (l == NULL
          || !ttv_bookmarks_save_for_trace_full (l, trace, place, NULL, NULL, NULL, &error))
        {
          status = fail (EXIT_READ, error->message);
          continue;
        }
      g_autofree char *file = ttv_bookmarks_dup_path (trace, place);
      g_autofree char *formula = ttv_clock_correction_to_string (&trace->clock);
      g_print (_("%s: clock %s saved in %s\n"), trace->display_path ? trace->display_path : trace->path,
               set ? formula : _("uncorrected"), file);
    }
  return status;
}

/* --offset: each a constant correction of the traces it names (@named[t]
 * set), in place of what --sync found for them or what was saved. */
static gboolean
apply_offsets (TtvTraceset *ts, gboolean *named, GError **error)
{
  for (guint i = 0; args.offsets && args.offsets[i]; i++)
    {
      const char *spec = args.offsets[i];
      const char *eq = strrchr (spec, '=');
      gint64 offset_ns = 0;
      if (eq == NULL || eq == spec || !ttv_clock_offset_parse (eq + 1, &offset_ns))
        {
          g_set_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT,
                       _("--offset: “%s” is not TRACE=SECONDS (such as kernel=+0.25 or host2=-1.5)"), spec);
          return FALSE;
        }
      g_autofree char *name = g_strndup (spec, (gsize) (eq - spec));
      guint found = 0;
      for (guint t = 0; t < ttv_traceset_get_n_traces (ts); t++)
        {
          TtvTrace *trace = ttv_traceset_get_trace (ts, t);
          if (!trace_matches (trace, name))
            continue;
          TtvClockCorrection c = { .origin = 0, .offset_ns = (double) offset_ns, .drift = 0 };
          ttv_traceset_set_clock_correction (ts, t, &c);
          named[t] = TRUE;
          found++;
        }
      if (found == 0)
        {
          g_set_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT,
                       _("--offset: no trace is named “%s” (give a trace as given on the command line, its "
                         "name or its host name)"), name);
          return FALSE;
        }
    }
  return TRUE;
}

/* Whether another report than --sync's own is asked for: then --sync
 * corrects it and prints its summary on the standard error. */
static gboolean
other_report_asked (void)
{
  return args.info || args.list_events || args.state || args.state_at || args.stats != STATS_NONE || args.density
         || args.analysis || args.start || args.end || args.count != NOT_GIVEN || args.after || args.position
         || args.filter || args.include || args.exclude || args.processes || args.threads || args.timers
         || args.format_file || args.columns || args.format || args.follow;
}

static int
run (void)
{
  g_autoptr (GError) error = NULL;
  TtvReportFormat format = TTV_REPORT_TEXT;
  TtvAnalysisFormat print_format = TTV_ANALYSIS_FORMAT_TEXT;
  const char *usage = usage_error ();
  if (usage)
    return fail (EXIT_USAGE, usage);
  gboolean pass_report = args.stats == STATS_TREE || args.density;
  if (pass_report && !parse_print_format (&print_format))
    return fail (EXIT_USAGE, _("--format: --stats and --density print text, jsonl or csv"));
  if (!pass_report && !parse_format (&format))
    return fail (EXIT_USAGE, _("--format: expected text, jsonl, babeltrace, csv or folded"));
  if (!pass_report && args.format && (g_str_equal (args.format, "csv") || g_str_equal (args.format, "folded"))
      && !args.analysis)
    return fail (EXIT_USAGE, _("--format=csv goes with --stats, --density and --analysis, folded with --analysis"));
  if (args.analysis && g_str_equal (args.analysis, "list"))
    return list_analyses ();
  if (args.check_format)
    {
      g_autoptr (TtvFormatFile) ff = ttv_format_file_load (args.check_format, &error);
      if (ff == NULL)
        return fail (EXIT_USAGE, error->message);
      g_autoptr (TtvTimerSet) timers = ttv_timer_set_new ();
      ttv_format_file_add_timers (ff, timers);
      g_print (_("%s: OK: %u templates, %s default, %u timers\n"), args.check_format,
               ttv_format_file_get_n_templates (ff), ttv_format_file_has_default (ff) ? _("a") : _("no"),
               ttv_timer_set_get_n_rules (timers));
      return 0;
    }
  g_auto (Extras) x = { 0 };
  if (!extras_init (&x, &error))
    return fail (EXIT_USAGE, error->message);
  if (args.list_groups)
    {
      g_autoptr (GPtrArray) names = ttv_hook_groups_list (x.groups);
      for (guint i = 0; i < names->len; i++)
        {
          g_autofree char *patterns = ttv_hook_groups_dup_patterns (x.groups, g_ptr_array_index (names, i));
          g_print ("@%-10s %s\n", (const char *) g_ptr_array_index (names, i), patterns);
        }
      return 0;
    }
  if (x.column_layout && format != TTV_REPORT_TEXT)
    return fail (EXIT_USAGE, _("--columns, --timestamp, -h, --page-size and --two-line need --format=text"));
  if (x.format_file && format == TTV_REPORT_JSONL)
    return fail (EXIT_USAGE, _("-t describes text lines: --format=jsonl prints every field as it is"));
  if (args.traces == NULL || args.traces[0] == NULL)
    return fail (EXIT_USAGE, _("no trace given (try --help)"));
  g_autoptr (TtvLiveUrl) list_url = NULL;
  int live_status = check_live_args (&list_url);
  if (live_status != 0)
    return live_status;
  if (list_url)
    {
      TtvReportOutput lo = { stdout, g_string_new (NULL) };
      int status = list_live_sessions (list_url, &lo);
      g_string_free (lo.buf, TRUE);
      return status;
    }

  /* An archive is extracted once: nothing written to the trace later
   * would ever reach the copy, so following it would wait forever. */
  for (guint i = 0; args.follow && args.traces[i]; i++)
    if (ttv_archive_is_archive (args.traces[i]))
      {
        g_autofree char *msg = g_strdup_printf (_("--follow: %s is an archive, which cannot grow: follow the "
                                                  "trace directory being written instead"), args.traces[i]);
        return fail (EXIT_USAGE, msg);
      }
  g_autoptr (TtvTraceset) ts = ttv_traceset_new ();
  for (guint i = 0; args.traces[i]; i++)
    if (!ttv_traceset_add_path (ts, args.traces[i], &error))
      return fail (EXIT_READ, error->message);
  print_warnings (ts, 0);
  if (!ttv_traceset_is_live (ts))       /* its event types are still to come */
    warn_unmatched (ts, &x);
  for (guint i = 0; args.keep_going && i < ttv_traceset_get_n_traces (ts); i++)
    ttv_trace_set_skip_damage (ttv_traceset_get_trace (ts, i), TRUE);

  /* Clocks first: every time below, --start's included, is corrected. */
  g_autoptr (TtvSyncResult) sync = NULL;
  if (args.save_offsets && (args.offsets == NULL || args.sync))
    return fail (EXIT_USAGE, _("--save-offsets saves the offsets --offset gives (not --sync's corrections)"));
  if (args.sync && (args.follow || ttv_traceset_is_live (ts)))
    return fail (EXIT_USAGE, _("--sync reads the traces whole: it cannot follow a trace being written"));
  if (args.sync)
    {
      int sync_status = apply_sync (ts, &sync);
      if (sync_status == EXIT_USAGE || sync == NULL)
        return sync_status;
      if (other_report_asked ())
        {
          g_autoptr (GString) summary = g_string_new (NULL);
          ttv_sync_append_text (sync, ts, summary);
          g_printerr ("%s", summary->str);
        }
    }
  else
    apply_saved_offsets (ts);
  g_autofree gboolean *named = g_new0 (gboolean, MAX (ttv_traceset_get_n_traces (ts), 1));
  if (!apply_offsets (ts, named, &error))
    return fail (EXIT_USAGE, error->message);
  if (args.save_offsets)
    return save_offsets (ts, named);

  TtvTime start = TTV_TIME_MIN, end = TTV_TIME_MAX, at = 0;
  if ((args.start && !parse_time_arg ("--start", args.start, ts, &start, &error))
      || (args.end && !parse_time_arg ("--end", args.end, ts, &end, &error))
      || (args.state_at && !parse_time_arg ("--state-at", args.state_at, ts, &at, &error)))
    return fail (lost_every_event (ts) ? EXIT_READ : EXIT_USAGE, error->message);
  if (start > end)
    {
      g_autofree char *msg = g_strdup_printf (_("--start %s is after --end %s: no event can be printed"),
                                              args.start, args.end);
      return fail (EXIT_USAGE, msg);
    }
  if (args.after && args.start)
    return fail (EXIT_USAGE, _("--after and --start cannot be used together"));
  /* --density's bins cover the span, or what --start and --end give of it. */
  if (args.density && !args.start)
    start = ttv_traceset_get_start (ts);
  if (args.density && !args.end)
    end = ttv_traceset_get_end (ts);
  if (args.density && start > end)
    return fail (EXIT_USAGE, _("--density: --start is after the end of the traces"));

  TtvReportOutput o = { stdout, g_string_sized_new (1u << 17) };
  int status = 0;
  if (args.output && (o.out = fopen (args.output, "w")) == NULL)
    {
      g_autofree char *msg = g_strdup_printf (_("cannot write %s: %s"), args.output, g_strerror (errno));
      g_string_free (o.buf, TRUE);
      return fail (EXIT_READ, msg);
    }

  if (sync && !other_report_asked ())
    {
      ttv_sync_append_text (sync, ts, o.buf);
      if (!ttv_report_output_flush (&o, TRUE, &error))
        status = fail (EXIT_READ, error->message);
      report_sync_failures (sync, &status);
    }
  else if (args.info || args.list_events)
    {
      for (guint i = 0; i < ttv_traceset_get_n_traces (ts); i++)
        {
          TtvTrace *t = ttv_traceset_get_trace (ts, i);
          if (args.info)
            ttv_trace_append_info (t, o.buf);
          if (args.list_events)
            ttv_trace_append_event_types (t, o.buf);
        }
      if (!ttv_report_output_flush (&o, TRUE, &error))
        status = fail (EXIT_READ, error->message);
    }
  else if (args.state_at)
    status = print_state_at (ts, at, &o);
  else if (args.stats == STATS_TREE)
    status = print_stats_tree (ts, start, end, print_format, &o);
  else if (args.density)
    status = print_density (ts, start, end, print_format, &o);
  else if (args.analysis)
    status = print_analysis (ts, start, end, &o);
  else
    {
      if (args.follow)
        {
          struct sigaction sa = { 0 };
          sa.sa_handler = on_signal;
          /* Restarted, not cut: a write of the report the signal lands in
           * would otherwise lose the rest of its buffer mid-line. */
          sa.sa_flags = SA_RESTART;
          sigemptyset (&sa.sa_mask);
          sigaction (SIGINT, &sa, NULL);
          sigaction (SIGTERM, &sa, NULL);
        }
      status = print_events (ts, start, end, &o, format, &x);
    }

  if (sync && other_report_asked ())
    report_sync_failures (sync, &status);
  if (o.out != stdout && fclose (o.out) != 0 && status == 0)
    status = fail (EXIT_READ, g_strerror (errno));
  if (report_damage (ts) && status == 0)
    status = EXIT_READ;
  g_string_free (o.buf, TRUE);
  return status;
}

int
main (int argc, char **argv)
{
  ttv_locale_init ();
  ttv_mapping_guard_install ("ttv-report");
  /* What an archive extraction killed midway left in the cache goes now. */
  ttv_archive_clean_dead ();

  g_autoptr (GOptionContext) oc = g_option_context_new (_("TRACE… — print trace events, statistics or state"));
  g_option_context_add_main_entries (oc, entries, GETTEXT_PACKAGE);
  g_option_context_set_description (oc, _("A TRACE is a trace directory (LTT, LTTng 0.x, CTF) or a .tar.gz, .tgz or .tar of one.\n"
                                          "Several traces are merged into one traceset in time order.\n"
                                          "net://RELAY[:PORT]/host/HOSTNAME/SESSION follows a live LTTng session "
                                          "through lttng-relayd until it ends;\n"
                                          "net://RELAY[:PORT] lists the sessions the relay serves."));
  /* -h is trcrpt's "no headings"; help stays on --help and -?. */
  g_option_context_set_help_enabled (oc, FALSE);
  g_autoptr (GError) error = NULL;
  if (!g_option_context_parse (oc, &argc, &argv, &error) || !check_arguments (&error))
    {
      g_autofree char *shown = ttv_escape_for_display (error->message, -1);
      return fail (EXIT_USAGE, shown);
    }
  if (args.help)
    {
      g_autofree char *help = g_option_context_get_help (oc, TRUE, NULL);
      g_print ("%s", help);
      return 0;
    }
  int status = run ();
  g_strfreev (args.traces);
  g_free (args.format);
  g_free (args.tid_text);
  g_free (args.tid_machine);
  g_free (args.output);
  g_free (args.start);
  g_free (args.end);
  g_free (args.after);
  g_free (args.state_at);
  g_strfreev (args.include);
  g_strfreev (args.exclude);
  g_strfreev (args.processes);
  g_strfreev (args.threads);
  g_strfreev (args.timers);
  g_free (args.groups_file);
  g_free (args.filter);
  g_free (args.format_file);
  g_free (args.check_format);
  g_free (args.columns);
  g_free (args.timestamp);
  g_strfreev (args.symbol_dirs);
  g_strfreev (args.offsets);
  g_free (args.analysis);
  g_free (args.table);
  g_free (args.group_by);
  return status;
}
