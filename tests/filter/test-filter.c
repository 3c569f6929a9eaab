/* test-filter.c: the filter language against predicates written by hand
 * over a simulated-kernel trace, and its compiled programs against the
 * reference evaluation (random filters over random events of every field
 * kind); parse errors with their columns; hook groups, format files, timers. */
#include "ttv-test-util.h"
#include "ttv-ltt-sim.h"
#include "ttv-context.h"
#include "ttv-error.h"
#include "ttv-filter.h"
#include "ttv-filter-private.h"
#include "ttv-format-file.h"
#include "ttv-glob.h"
#include "ttv-hook-groups.h"
#include "ttv-state-tracker.h"
#include "ttv-timer.h"
#include "ttv-traceset.h"

#include <glib/gstdio.h>
#include <string.h>

static char *trace_dir;

static void
make_trace (void)
{
  g_autoptr (GError) error = NULL;
  /* Made in main(): in the program's temporary directory, for every test. */
  trace_dir = g_build_filename (ttv_test_get_tmp_dir (), "trace", NULL);
  TtvSimOptions so;
  ttv_sim_options_init (&so);
  so.seed = 11;
  so.n_cpus = 3;
  so.n_processes = 20;
  so.max_events = 30000;
  g_autoptr (TtvSim) sim = ttv_sim_new (&so, &error);
  g_assert_no_error (error);
  ttv_test_write_ltt_simulation (trace_dir, sim, 16384, 3, NULL, NULL);
}

/* --- parse errors ------------------------------------------------------- */

static void
expect_error (const char *expr, gint code, const char *fragment)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvFilter) f = ttv_filter_new (expr, NULL, &error);
  g_assert_null (f);
  g_assert_error (error, TTV_FILTER_ERROR, code);
  if (strstr (error->message, fragment) == NULL)
    g_error ("'%s': message '%s' lacks '%s'", expr, error->message, fragment);
}

static void
test_syntax_errors (void)
{
  expect_error ("", TTV_FILTER_ERROR_SYNTAX, "column 1: expected an expression");
  expect_error ("event.name = (", TTV_FILTER_ERROR_SYNTAX, "column 14: expected a value after '='");
  expect_error ("(event.id = 1", TTV_FILTER_ERROR_SYNTAX, "column 14: expected ')'");
  expect_error ("event.id = 1 event.id = 2", TTV_FILTER_ERROR_SYNTAX, "column 14: expected '&', '|' or the end");
  expect_error ("evnt.name = x", TTV_FILTER_ERROR_UNKNOWN_NAME, "column 1: unknown name 'evnt.name'");
  expect_error ("cpu = 1 & event.time > abc", TTV_FILTER_ERROR_BAD_VALUE, "column 24: expected a time");
  expect_error ("state.pid = bash", TTV_FILTER_ERROR_BAD_VALUE, "column 13: expected an integer");
  expect_error ("event.name = \"open", TTV_FILTER_ERROR_SYNTAX, "column 14: unterminated string");
  expect_error ("event.group = nosuch", TTV_FILTER_ERROR_UNKNOWN_NAME, "column 15: unknown hook group 'nosuch'");
  expect_error ("cpu = 1 # 2", TTV_FILTER_ERROR_SYNTAX, "column 9: unexpected character '#'");
  expect_error ("event.field.a..b = 1", TTV_FILTER_ERROR_SYNTAX, "column 1: expected a field path");
  expect_error ("!", TTV_FILTER_ERROR_SYNTAX, "column 2: expected a name");
  /* Columns count characters, not bytes; any character is named as it is. */
  expect_error ("state.process_name = café & cpu = x#", TTV_FILTER_ERROR_SYNTAX, "column 36: unexpected character '#'");
  expect_error ("cpu = 1 &\xc2\xa0" "cpu = 2", TTV_FILTER_ERROR_SYNTAX, "column 10: unexpected character '\xc2\xa0'");
  expect_error ("cpu = 1 & \xef", TTV_FILTER_ERROR_SYNTAX, "column 11: unexpected byte 0xef (the expression is not UTF-8)");
  g_autoptr (TtvFilter) accent = ttv_filter_new ("state.process_name = café", NULL, NULL);
  g_assert_nonnull (accent);
  /* The operator is what is wrong with event.group < sched. */
  expect_error ("event.group < sched", TTV_FILTER_ERROR_BAD_VALUE, "column 13: expected '=' or '!=' with event.group, found '<'");
  /* "0x" alone is a typo, not a word. */
  expect_error ("event.field.ret < 0x", TTV_FILTER_ERROR_BAD_VALUE, "column 19: expected a hexadecimal number");
  expect_error ("cpu = -0xg", TTV_FILTER_ERROR_BAD_VALUE, "column 7: expected a hexadecimal number");
  /* Enumerated state values are checked: a misspelt mode matches nothing. */
  expect_error ("cpu = 0 | state.exec_mode = sycall", TTV_FILTER_ERROR_BAD_VALUE,
                "column 29: expected an execution mode: user, syscall, trap, irq, softirq or unknown, found 'sycall'");
  expect_error ("state.exec_mode != x*", TTV_FILTER_ERROR_BAD_VALUE, "column 20: expected a pattern matching an execution mode");
  g_autoptr (TtvFilter) ok = ttv_filter_new ("state.exec_mode = sys* | state.exec_mode != softirq | state.exec_mode", NULL, NULL);
  g_assert_nonnull (ok);
}

/* Hostile expressions: nesting deeper than the limit is a clear error
 * (never a stack overflow), long chains of '|' and '&' parse and evaluate
 * (a balanced tree, not a 100,000-deep one), lexing and parsing take time
 * in proportion to the text, and what an error quotes is escaped. */
static void
test_hostile_expressions (void)
{
  g_autoptr (GString) text = g_string_new (NULL);

  g_string_append (text, "cpu");
  for (guint i = 0; i < 40000; i++)
    g_string_prepend_c (text, '!');
  expect_error (text->str, TTV_FILTER_ERROR_SYNTAX, "column 257: the expression nests parentheses and '!' more than 256 deep");

  g_string_truncate (text, 0);
  for (guint i = 0; i < 50000; i++)
    g_string_append_c (text, '(');
  g_string_append (text, "cpu");
  for (guint i = 0; i < 50000; i++)
    g_string_append_c (text, ')');
  expect_error (text->str, TTV_FILTER_ERROR_SYNTAX, "column 257: the expression nests");

  /* 256 levels are fine. */
  g_string_truncate (text, 0);
  for (guint i = 0; i < 128; i++)
    g_string_append (text, "!(");
  g_string_append (text, "cpu = 0");
  for (guint i = 0; i < 128; i++)
    g_string_append_c (text, ')');
  g_autoptr (TtvFilter) deep = ttv_filter_new (text->str, NULL, NULL);
  g_assert_nonnull (deep);

  /* A chain of 30,000 terms (a million bytes, 300,000 tokens), then
   * twice as long: linear time. */
  gint64 took[2];
  for (guint round = 0; round < 2; round++)
    {
      g_string_truncate (text, 0);
      guint n = 30000 * (round + 1);
      for (guint i = 0; i < n; i++)
        g_string_append_printf (text, "%s(cpu = %u & event.name != \"x%u\")", i ? " | " : "", i % 7, i);
      gint64 t0 = g_get_monotonic_time ();
      g_autoptr (GError) error = NULL;
      g_autoptr (TtvFilter) chain = ttv_filter_new (text->str, NULL, &error);
      g_assert_no_error (error);
      took[round] = g_get_monotonic_time () - t0;
      g_autoptr (TtvTrace) t = ttv_trace_open (trace_dir, &error);
      g_assert_no_error (error);
      g_autoptr (TtvCursor) c = ttv_cursor_new (t->tracefiles->pdata[0], &error);
      TtvEvent ev;
      g_assert_true (ttv_cursor_next (c, &ev, &error));
      g_assert_true (ttv_filter_matches (chain, &ev, NULL));
    }
  g_test_message ("30,000 terms parsed in %" G_GINT64_FORMAT " µs, 60,000 in %" G_GINT64_FORMAT " µs",
                  took[0], took[1]);
  g_assert_cmpint (took[1], <, 5 * took[0] + 200000);

  /* Invalid UTF-8, a newline and a terminal escape in a string: escaped. */
  expect_error ("event.group = \"\xff\x1b[31mred\nline\"", TTV_FILTER_ERROR_UNKNOWN_NAME,
                "unknown hook group '\\xff\\e[31mred\\nline'");
  expect_error ("cpu = \"\xfe\x01\"", TTV_FILTER_ERROR_BAD_VALUE, "found '\\xfe\\x01'");
}

/* --- evaluation against hand-written predicates ------------------------- */

typedef gboolean (*Predicate) (const TtvEvent *ev, const TtvState *state, TtvDecoder *dec);

static gint64
field_int (const TtvEvent *ev, TtvDecoder *dec, const char *name, gboolean *found)
{
  ttv_decoder_reset (dec);
  gint32 root = ttv_event_decode_fields (ev, dec, NULL);
  *found = FALSE;
  if (root < 0)
    return 0;
  const TtvValue *v = ttv_decoder_get_field (dec, ttv_decoder_get (dec, (guint32) root), name);
  gint64 out = 0;
  if (v && ttv_value_get_int (v, &out))
    *found = TRUE;
  return out;
}

static gboolean
pred_sched_blocked (const TtvEvent *ev, const TtvState *state, TtvDecoder *dec)
{
  gboolean found;
  gint64 st = field_int (ev, dec, "prev_state", &found);
  return g_str_has_prefix (ev->type->name, "sched_") && found && st != 0;
}

static gboolean
pred_cpu_or_id (const TtvEvent *ev, const TtvState *state, TtvDecoder *dec)
{
  return ev->tracefile->cpu == 2 || ev->type->format_id == 1;
}

static TtvTime trace_start;

static gboolean
pred_window (const TtvEvent *ev, const TtvState *state, TtvDecoder *dec)
{
  return ev->time >= trace_start + 1000000 && ev->time < trace_start + 2500000
         && !strstr (ev->type->name, "irq_");
}

static const TtvProcessState *
run_proc (const TtvEvent *ev, const TtvState *state)
{
  return ttv_state_get_running (state, ev->tracefile->cpu);
}

static gboolean
pred_state (const TtvEvent *ev, const TtvState *state, TtvDecoder *dec)
{
  const TtvProcessState *p = run_proc (ev, state);
  if (p == NULL)
    return FALSE;
  const char *svc = ttv_process_state_get_syscall (p);
  return (p->name && g_str_has_prefix (g_quark_to_string (p->name), "b"))
         || (svc && strcmp (svc, "read") == 0 && ttv_process_state_get_mode (p) == TTV_MODE_SYSCALL);
}

static gboolean
pred_tid_field (const TtvEvent *ev, const TtvState *state, TtvDecoder *dec)
{
  const TtvProcessState *p = run_proc (ev, state);
  gboolean found;
  gint64 ret = field_int (ev, dec, "ret", &found);
  return (p && p->pid > 10 && p->pid <= 0x400) && found && ret > 10;
}

static gboolean
pred_not_group (const TtvEvent *ev, const TtvState *state, TtvDecoder *dec)
{
  return !(g_str_has_prefix (ev->type->name, "irq_") || g_str_has_prefix (ev->type->name, "soft_irq_"))
         && strcmp (ev->type->full_name, "core.syscall_exit") != 0;
}

static gboolean
pred_string_field (const TtvEvent *ev, const TtvState *state, TtvDecoder *dec)
{
  if (strcmp (ev->type->full_name, "net.dev_xmit") != 0 && strcmp (ev->type->full_name, "net.netif_receive") != 0)
    return FALSE;
  ttv_decoder_reset (dec);
  gint32 root = ttv_event_decode_fields (ev, dec, NULL);
  const TtvValue *v = ttv_decoder_get_field (dec, ttv_decoder_get (dec, (guint32) root), "name");
  const TtvValue *len = ttv_decoder_get_field (dec, ttv_decoder_get (dec, (guint32) root), "len");
  gint64 l;
  return v && g_str_has_prefix (v->v.string.str, "eth") && ttv_value_get_int (len, &l) && l >= 1000;
}

typedef struct {
  const char *expr;
  Predicate pred;
  gboolean min_matches;    /* expect at least one match and one miss */
} Case;

static const Case cases[] = {
  { "event.name = sched_* & event.field.prev_state != 0", pred_sched_blocked, TRUE },
  { "cpu = 2 | event.id = 0x1", pred_cpu_or_id, TRUE },
  { "event.time >= +0.001 and event.time < +0.0025 and not event.group = irq", pred_window, TRUE },
  { "state.process_name = \"b*\" || (state.syscall = read && state.exec_mode = syscall)", pred_state, TRUE },
  { "state.tid > 10 & state.tid <= 0x400 & event.field.ret > 10", pred_tid_field, TRUE },
  { "!(event.group = irq | event.name = core.syscall_exit)", pred_not_group, TRUE },
  { "event.facility = net & event.field.name = eth* & event.field.len >= 1000", pred_string_field, TRUE },
};

static void
test_evaluation (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvTraceset) ts = ttv_traceset_new ();
  g_assert_true (ttv_traceset_add_path (ts, trace_dir, &error));
  trace_start = ttv_traceset_get_start (ts);
  g_autoptr (TtvDecoder) dec = ttv_decoder_new ();
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr (TtvFilter) f = ttv_filter_new (cases[c].expr, NULL, &error);
      g_assert_no_error (error);
      g_autoptr (TtvStateTracker) tracker = ttv_state_tracker_new (ts, NULL);
      g_autoptr (TtvContext) ctx = ttv_context_new (ts, &error);
      g_assert_true (ttv_context_seek_begin (ctx, &error));
      const TtvEvent *ev;
      guint64 yes = 0, no = 0;
      while ((ev = ttv_context_next (ctx, &error)) != NULL)
        {
          ttv_state_tracker_apply (tracker, NULL, 0, ev);
          const TtvState *state = ttv_state_tracker_get_state (tracker);
          gboolean want = cases[c].pred (ev, state, dec);
          gboolean got = ttv_filter_matches (f, ev, state);
          if (want != got)
            g_error ("'%s' on %s at %" G_GINT64_FORMAT ": filter says %d, predicate %d", cases[c].expr,
                     ev->type->full_name, ev->time, got, want);
          if (got)
            yes++;
          else
            no++;
        }
      g_assert_no_error (error);
      g_test_message ("%s: %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT, cases[c].expr, yes, yes + no);
      g_assert_cmpuint (yes, >, 0);
      g_assert_cmpuint (no, >, 0);
    }
}

static void
test_verdicts (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvTrace) t = ttv_trace_open (trace_dir, &error);
  g_assert_no_error (error);
  const TtvEventType *sw = ttv_trace_find_event_type (t, "core.sched_switch");
  const TtvEventType *en = ttv_trace_find_event_type (t, "syscall_entry");
  g_assert_nonnull (sw);
  g_assert_nonnull (en);
  g_autoptr (TtvFilter) f1 = ttv_filter_new ("event.name = \"sched_*\"", NULL, &error);
  g_assert_cmpint (ttv_filter_check_type (f1, t, sw), ==, TTV_FILTER_ALWAYS);
  g_assert_cmpint (ttv_filter_check_type (f1, t, en), ==, TTV_FILTER_NEVER);
  g_autoptr (TtvFilter) f2 = ttv_filter_new ("event.group = syscalls & event.field.syscall_id = open", NULL, &error);
  g_assert_cmpint (ttv_filter_check_type (f2, t, sw), ==, TTV_FILTER_NEVER);
  g_assert_cmpint (ttv_filter_check_type (f2, t, en), ==, TTV_FILTER_DEPENDS);
  /* A field the type lacks folds to false. */
  g_autoptr (TtvFilter) f3 = ttv_filter_new ("event.field.nosuch = 1 | trace.name = trace", NULL, &error);
  g_assert_cmpint (ttv_filter_check_type (f3, t, sw), ==, TTV_FILTER_ALWAYS);
  g_assert_false (ttv_filter_needs_state (f2));
  g_autoptr (TtvFilter) f4 = ttv_filter_new ("state.pid = 1", NULL, &error);
  g_assert_true (ttv_filter_needs_state (f4));
  g_assert_cmpint (ttv_filter_check_type (f4, t, sw), ==, TTV_FILTER_DEPENDS);
}

/* --- hook groups ------------------------------------------------------- */

/* An event type's id as printf's "%03x" writes it: three digits at
 * least, every digit of the largest. */
static void
test_format_id (void)
{
  const guint64 ids[] = { 0, 0xf, 0x10, 0xfff, 0x1000, 0xabcdef, G_MAXUINT64 };
  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    {
      TtvEventType type = { .format_id = ids[i] };
      char buf[TTV_EVENT_ID_LEN];
      g_autofree char *want = g_strdup_printf ("%03" G_GINT64_MODIFIER "x", ids[i]);
      g_assert_cmpstr (ttv_event_type_format_id (&type, buf), ==, want);
    }
}

static void
test_groups (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvTrace) t = ttv_trace_open (trace_dir, &error);
  g_autoptr (TtvHookGroups) g = ttv_hook_groups_new ();
  const TtvEventType *sw = ttv_trace_find_event_type (t, "core.sched_switch");
  const TtvEventType *fork = ttv_trace_find_event_type (t, "core.process_fork");
  const TtvEventType *irq = ttv_trace_find_event_type (t, "core.irq_entry");
  g_assert_true (ttv_hook_groups_match (g, "sched", sw));
  g_assert_false (ttv_hook_groups_match (g, "sched", irq));
  g_assert_true (ttv_hook_groups_match (g, "process", fork));
  g_assert_true (ttv_hook_groups_match (g, "irq", irq));
  g_assert_false (ttv_hook_groups_match (g, "nosuch", irq));
  const TtvEventType *sx = ttv_trace_find_event_type (t, "core.syscall_exit");
  g_autofree char *data = g_strdup_printf ("# mine\nmine: @sched core.irq_entry\n\nids: 0x%" G_GINT64_MODIFIER
                                           "x 99999 # by id\n", sx->format_id);
  g_assert_true (ttv_hook_groups_load_data (g, data, "groups.txt", &error));
  g_assert_no_error (error);
  g_assert_true (ttv_hook_groups_match (g, "mine", sw));
  g_assert_true (ttv_hook_groups_match (g, "mine", irq));
  g_assert_false (ttv_hook_groups_match (g, "mine", fork));
  g_assert_true (ttv_hook_groups_match (g, "ids", ttv_trace_find_event_type (t, "core.syscall_exit")));
  g_assert_false (ttv_hook_groups_match (g, "ids", sw));
  g_assert_false (ttv_hook_groups_load_data (g, "ok: a\n  bad line\n", "g.txt", &error));
  g_assert_error (error, TTV_FILTER_ERROR, TTV_FILTER_ERROR_SYNTAX);
  g_assert_nonnull (strstr (error->message, "g.txt:2:"));
  g_clear_error (&error);
  g_assert_false (ttv_hook_groups_load_data (g, "x: @missing\n", "g.txt", &error));
  g_assert_error (error, TTV_FILTER_ERROR, TTV_FILTER_ERROR_UNKNOWN_NAME);
  g_clear_error (&error);
  /* The unknown reference's line and column, even when checked at the end. */
  g_assert_false (ttv_hook_groups_load_data (g, "# c\nok: a\nbad: x  @nonexist\nlater: b\n", "g.txt", &error));
  g_assert_cmpstr (error->message, ==, "g.txt:3:9: unknown group @nonexist");
  g_clear_error (&error);
  /* Cycles do not hang. */
  g_assert_true (ttv_hook_groups_load_data (g, "a: @b\nb: @a\n", "g.txt", &error));
  g_assert_false (ttv_hook_groups_match (g, "a", sw));
  g_autoptr (TtvFilter) f = ttv_filter_new ("event.group = mine", g, &error);
  g_assert_no_error (error);
  g_assert_cmpint (ttv_filter_check_type (f, t, irq), ==, TTV_FILTER_ALWAYS);
}

/* --- format files ------------------------------------------------------ */

static void
expect_format_error (const char *text, const char *fragment)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvFormatFile) ff = ttv_format_file_parse (text, "f.ttvfmt", &error);
  g_assert_null (ff);
  g_assert_error (error, TTV_FILTER_ERROR, TTV_FILTER_ERROR_SYNTAX);
  if (strstr (error->message, fragment) == NULL)
    g_error ("format error '%s' lacks '%s'", error->message, fragment);
}

static void
test_format_file (void)
{
  expect_format_error ("# c\nevent x \"{a\"\n", "f.ttvfmt:2:12: expected '}'");
  expect_format_error ("event x \"abc\n", "f.ttvfmt:1:13: expected a closing '\"'");
  expect_format_error ("evnt x \"a\"\n", "f.ttvfmt:1:1: expected 'event', 'default', 'timer'");
  expect_format_error ("event x \"{$nope}\"\n", "f.ttvfmt:1:11: expected one of $name");
  expect_format_error ("event x \"{a?1}\"\n", "f.ttvfmt:1:14: expected ':'");
  expect_format_error ("event \"a\"\n", "f.ttvfmt:1:7: expected an event name");
  expect_format_error ("timer a\n", "f.ttvfmt:1:8: expected 'timer START END'");
  expect_format_error ("default \"a\"\ndefault \"b\"\n", "f.ttvfmt:2:1: expected one default");
  expect_format_error ("event x \"{a#d}\"\n", "f.ttvfmt:1:13: expected 'x'");
  expect_format_error ("event x \"{a.b[}\"\n", "f.ttvfmt:1:14: expected a field path");
  expect_format_error ("event x \"{a..b}\"\n", "f.ttvfmt:1:13: expected a field path");
  expect_format_error ("event x \"{list[x]}\"\n", "f.ttvfmt:1:16: expected a field path");

  g_autoptr (GError) error = NULL;
  g_autoptr (TtvTrace) trace = ttv_trace_open (trace_dir, &error);
  guint64 exit_id = ttv_trace_find_event_type (trace, "core.syscall_exit")->format_id;
  g_autofree char *text = g_strdup_printf (
    "event core.sched_switch \"SW {prev_pid}->{next_pid} {prev_state?RUNNING:run|WAIT_*:wait {prev_state#x}|*:other}\"\n"
    "event %" G_GINT64_MODIFIER "x \"EXIT \\\"{ret}\\\" {nosuch}\" # by id, in hex as -j lists it\n"
    "timer syscall_entry syscall_exit\n", exit_id);
  g_autoptr (TtvFormatFile) ff = ttv_format_file_parse (text, "f.ttvfmt", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ttv_format_file_get_n_templates (ff), ==, 2);
  g_assert_false (ttv_format_file_has_default (ff));
  g_autoptr (TtvTimerSet) timers = ttv_timer_set_new ();
  ttv_format_file_add_timers (ff, timers);
  g_assert_cmpuint (ttv_timer_set_get_n_rules (timers), ==, 1);

  g_autoptr (TtvTraceset) ts = ttv_traceset_new ();
  g_assert_true (ttv_traceset_add_path (ts, trace_dir, &error));
  g_autoptr (TtvContext) ctx = ttv_context_new (ts, &error);
  g_assert_true (ttv_context_seek_begin (ctx, &error));
  g_autoptr (TtvDecoder) dec = ttv_decoder_new ();
  g_autoptr (GString) out = g_string_new (NULL);
  g_autoptr (GString) want = g_string_new (NULL);
  const TtvEvent *ev;
  guint n_sw = 0, n_exit = 0;
  while ((ev = ttv_context_next (ctx, &error)) != NULL)
    {
      ttv_decoder_reset (dec);
      gint32 root = ttv_event_decode_fields (ev, dec, NULL);
      g_string_truncate (out, 0);
      g_string_truncate (want, 0);
      gboolean applied = ttv_format_file_append (ff, ev, dec, root, NULL, out);
      const TtvValue *r = ttv_decoder_get (dec, (guint32) root);
      if (strcmp (ev->type->full_name, "core.sched_switch") == 0)
        {
          guint64 prev, next, st;
          ttv_value_get_uint (ttv_decoder_get_field (dec, r, "prev_pid"), &prev);
          ttv_value_get_uint (ttv_decoder_get_field (dec, r, "next_pid"), &next);
          ttv_value_get_uint (ttv_decoder_get_field (dec, r, "prev_state"), &st);
          g_string_printf (want, "SW %" G_GUINT64_FORMAT "->%" G_GUINT64_FORMAT " %s", prev, next,
                           st == 0 ? "run" : st <= 2 ? "" : "other");
          if (st == 1 || st == 2)
            g_string_append_printf (want, "wait 0x%" G_GINT64_MODIFIER "x", st);
          g_assert_true (applied);
          g_assert_cmpstr (out->str, ==, want->str);
          n_sw++;
        }
      else if (ev->type->format_id == exit_id)
        {
          gint64 ret;
          ttv_value_get_int (ttv_decoder_get_field (dec, r, "ret"), &ret);
          g_string_printf (want, "EXIT \"%" G_GINT64_FORMAT "\" ?", ret);
          g_assert_true (applied);
          g_assert_cmpstr (out->str, ==, want->str);
          n_exit++;
        }
      else
        g_assert_false (applied);
    }
  g_assert_cmpuint (n_sw, >, 0);
  g_assert_cmpuint (n_exit, >, 0);

  /* The shipped file parses. */
  g_autofree char *kernel = g_build_filename (TTV_TEST_SRCDIR, "..", "data", "formats", "kernel.ttvfmt", NULL);
  g_autoptr (TtvFormatFile) k = ttv_format_file_load (kernel, &error);
  g_assert_no_error (error);
  g_assert_true (ttv_format_file_has_default (k));
}

/* --- timers ------------------------------------------------------------- */

static void
test_timers (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvTimerSet) t = ttv_timer_set_new ();
  g_assert_false (ttv_timer_set_add_rule (t, "syscall_entry", &error));
  g_assert_error (error, TTV_FILTER_ERROR, TTV_FILTER_ERROR_SYNTAX);
  g_clear_error (&error);
  g_assert_false (ttv_timer_set_add_rule (t, ":x", &error));
  g_clear_error (&error);
  g_assert_true (ttv_timer_set_add_rule (t, "syscall_entry:syscall_exit", &error));

  g_autoptr (TtvTrace) trace = ttv_trace_open (trace_dir, &error);
  TtvTracefile tf = { .trace = trace, .cpu = 0 };
  TtvEvent entry = { .time = 100, .type = ttv_trace_find_event_type (trace, "syscall_entry"), .tracefile = &tf };
  TtvEvent exit_ = { .time = 350, .type = ttv_trace_find_event_type (trace, "syscall_exit"), .tracefile = &tf };
  TtvTime el = 0;
  g_assert_false (ttv_timer_set_process (t, &exit_, 7, &el));     /* no start yet */
  g_assert_false (ttv_timer_set_process (t, &entry, 7, &el));
  g_assert_false (ttv_timer_set_process (t, &exit_, 8, &el));     /* another thread */
  g_assert_true (ttv_timer_set_process (t, &exit_, 7, &el));
  g_assert_cmpint (el, ==, 250);
  g_assert_false (ttv_timer_set_process (t, &exit_, 7, &el));     /* consumed */
  g_autoptr (GString) s = g_string_new (NULL);
  ttv_timer_append_elapsed (s, 1234567);
  g_assert_cmpstr (s->str, ==, "[1234.567 us]");
}

/* --- compiled programs against the reference ---------------------------- */

/* A trace built in memory: event types with every field layout the
 * instructions specialise (sizes, signs, byte orders, bit fields, enums,
 * floats, strings, char arrays) and ones they leave to decoding (nested,
 * arrays, fields after a string); events of random bytes. */
static gint32
synth_decode_fields (const TtvEvent *ev, TtvDecoder *decoder, GError **error)
{
  guint64 bit = ev->payload_bit;
  return ttv_decoder_decode (decoder, ev->type->fields, "event.fields", ev->data, ev->data_bits, &bit, error);
}

static const TtvFormatClass synth_format = { .name = "synth", .decode_fields = synth_decode_fields };

static TtvType *
int_type (guint bits, gboolean is_signed, TtvByteOrder order, guint align)
{
  return ttv_type_new_integer (bits, is_signed, order, align);
}

static TtvType *
enum_type (guint bits, gboolean is_signed, TtvByteOrder order, gboolean direct)
{
  TtvType *e = ttv_type_new_enum (int_type (bits, is_signed, order, 8));
  if (direct)
    {
      const char *labels[] = { "RUN", "WAIT_A", "WAIT_B", "ZOMBIE", "ab" };
      for (guint i = 0; i < G_N_ELEMENTS (labels); i++)
        ttv_type_add_mapping (e, labels[i], i, i);
    }
  else
    {
      ttv_type_add_mapping (e, "low", (guint64) -100, 0x60);   /* signed: -100..0x60 */
      ttv_type_add_mapping (e, "a", 0x61, 0x61);
      ttv_type_add_mapping (e, "bc", 0x62, 0x63);
      ttv_type_add_mapping (e, "WAIT_X", 0x64, 0x7f);
    }
  return e;
}

static TtvTrace *
synth_trace_new (void)
{
  TtvTrace *t = g_new0 (TtvTrace, 1);
  t->format = &synth_format;
  t->path = g_strdup ("synth");
  t->display_path = g_strdup ("synth");
  t->name = g_strdup ("synth");
  t->tracefiles = g_ptr_array_new ();
  t->event_types = g_ptr_array_new ();
  t->info_keys = g_ptr_array_new_with_free_func (g_free);
  t->info = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  t->warnings = g_ptr_array_new_with_free_func (g_free);
  t->start = 1000000000;
  ttv_trace_add_tracefile (t, "cpu/0", 0);
  ttv_trace_add_tracefile (t, "cpu/1", 1);
  ttv_trace_add_tracefile (t, "metadata", -1);

  const TtvByteOrder orders[] = { TTV_BYTE_ORDER_LITTLE, TTV_BYTE_ORDER_BIG };
  for (guint o = 0; o < 2; o++)
    {
      TtvByteOrder bo = orders[o];
      /* Byte-aligned integers of every size, both signs. */
      TtvType *s = ttv_type_new_struct ();
      ttv_type_add_field (s, "u8", int_type (8, FALSE, bo, 8), NULL);
      ttv_type_add_field (s, "s8", int_type (8, TRUE, bo, 8), NULL);
      ttv_type_add_field (s, "u16", int_type (16, FALSE, bo, 16), NULL);
      ttv_type_add_field (s, "s16", int_type (16, TRUE, bo, 16), NULL);
      ttv_type_add_field (s, "u32", int_type (32, FALSE, bo, 32), NULL);
      ttv_type_add_field (s, "s32", int_type (32, TRUE, bo, 32), NULL);
      ttv_type_add_field (s, "u64", int_type (64, FALSE, bo, 64), NULL);
      ttv_type_add_field (s, "s64", int_type (64, TRUE, bo, 64), NULL);
      ttv_type_add_field (s, "f32", ttv_type_new_float (32, bo, 32), NULL);
      ttv_type_add_field (s, "f64", ttv_type_new_float (64, bo, 64), NULL);
      ttv_type_add_field (s, "e8", enum_type (8, TRUE, bo, FALSE), NULL);
      ttv_type_add_field (s, "e16", enum_type (16, FALSE, bo, TRUE), NULL);
      ttv_type_add_field (s, "e32", enum_type (32, TRUE, bo, FALSE), NULL);
      ttv_type_add_field (s, "name", ttv_type_new_string (), NULL);
      ttv_type_add_field (s, "u24", int_type (24, FALSE, bo, 8), NULL);   /* after a string: decoded */
      ttv_trace_add_event_type (t, o ? "be" : "le", "ints", s);

      /* Bit fields, odd sizes, a char array, an array, a nested struct. */
      s = ttv_type_new_struct ();
      ttv_type_add_field (s, "b3", int_type (3, FALSE, bo, 1), NULL);
      ttv_type_add_field (s, "sb5", int_type (5, TRUE, bo, 1), NULL);
      ttv_type_add_field (s, "b13", int_type (13, FALSE, bo, 1), NULL);
      ttv_type_add_field (s, "s24", int_type (24, TRUE, bo, 8), NULL);
      ttv_type_add_field (s, "e5", enum_type (5, FALSE, bo, TRUE), NULL);
      ttv_type_add_field (s, "comm", ttv_type_new_array (int_type (8, FALSE, bo, 8), 6), NULL);
      ttv_type_add_field (s, "arr", ttv_type_new_array (int_type (16, TRUE, bo, 16), 3), NULL);
      TtvType *inner = ttv_type_new_struct ();
      ttv_type_add_field (inner, "x", int_type (32, FALSE, bo, 32), NULL);
      ttv_type_add_field (inner, "label", ttv_type_new_string (), NULL);
      ttv_type_add_field (s, "nest", inner, NULL);
      ttv_type_add_field (s, "seq", ttv_type_new_sequence_prefixed (int_type (8, FALSE, bo, 8),
                                                                    int_type (8, FALSE, bo, 8)), NULL);
      ttv_type_add_field (s, "after", ttv_type_new_string (), NULL);
      ttv_type_add_field (s, "comm2", ttv_type_new_array (int_type (8, FALSE, bo, 8), 4), NULL);
      ttv_trace_add_event_type (t, o ? "be" : "le", "bits", s);
    }
  /* A type with a field of the same name as another's but another kind,
   * and one with no field. */
  TtvType *s = ttv_type_new_struct ();
  ttv_type_add_field (s, "u32", ttv_type_new_string (), NULL);
  ttv_type_add_field (s, "name", int_type (32, TRUE, TTV_BYTE_ORDER_NATIVE, 32), NULL);
  ttv_trace_add_event_type (t, NULL, "swapped_kinds", s);
  ttv_trace_add_event_type (t, "core", "empty", NULL);
  for (guint i = 0; i < t->event_types->len; i++)
    ((TtvEventType *) g_ptr_array_index (t->event_types, i))->format_id = 100 + i;
  return t;
}

#define SYNTH_BYTES 512

typedef struct {
  TtvEvent ev;
  guint8 *data;
} SynthEvent;

/* Random payload bytes from a small alphabet, so that strings end soon and
 * integers take values literals name; the tail is NUL so that the event
 * always decodes (when @cut is 0) and the reference sees every field. */
static GArray *
synth_events (TtvTrace *t, GRand *rand, guint n, gboolean cut)
{
  static const guint8 alphabet[] = { 0, 0, 0, 'a', 'b', 'c', 'W', 'A', 0x61, 0xff, 0x80, 0x7f, 0x01, '*', 0xc3 };
  GArray *events = g_array_new (FALSE, TRUE, sizeof (SynthEvent));
  for (guint i = 0; i < n; i++)
    {
      SynthEvent se = { 0 };
      se.data = g_malloc (SYNTH_BYTES);
      guint head = (guint) g_rand_int_range (rand, 0, 4);    /* payload start, in bytes */
      for (guint b = 0; b < SYNTH_BYTES; b++)
        se.data[b] = b >= 192 ? 0 : alphabet[g_rand_int_range (rand, 0, G_N_ELEMENTS (alphabet))];
      se.ev.time = t->start + g_rand_int_range (rand, 0, 3000000);
      se.ev.type = g_ptr_array_index (t->event_types, g_rand_int_range (rand, 0, (gint32) t->event_types->len));
      se.ev.tracefile = g_ptr_array_index (t->tracefiles, g_rand_int_range (rand, 0, (gint32) t->tracefiles->len));
      se.ev.data = se.data;
      se.ev.payload_bit = head * 8;
      se.ev.data_bits = cut ? (guint64) g_rand_int_range (rand, 0, 40 * 8) : SYNTH_BYTES * 8;
      g_array_append_val (events, se);
    }
  return events;
}

static void
synth_events_free (GArray *events)
{
  for (guint i = 0; i < events->len; i++)
    g_free (g_array_index (events, SynthEvent, i).data);
  g_array_unref (events);
}

static const char *const synth_fields[] = {
  "u8", "s8", "u16", "s16", "u32", "s32", "u64", "s64", "f32", "f64", "e8", "e16", "e32", "name", "u24",
  "b3", "sb5", "b13", "s24", "e5", "comm", "arr[0]", "arr[2]", "arr[3]", "nest.x", "nest.label", "nest",
  "seq", "seq[0]", "after", "comm2", "nosuch", "name.x",
};

static const char *const int_literals[] = {
  "0", "1", "-1", "97", "0x61", "0x6161", "24929", "-128", "127", "255", "0xff", "-97", "0x7f",
  "2147483647", "-2147483648", "4294967295", "0x8080", "-32640", "0x6162636461626364",
  "9223372036854775807", "-9223372036854775808", "0x80", "7", "-3", "1.5", "-0.5", "97.0", "1e300",
};

static const char *const word_literals[] = {
  "a", "ab", "\"\"", "abc", "b*", "*a", "*ab*", "a?c", "?", "*", "a*b", "ba*", "WAIT*", "RUN", "WAIT_X",
  "\"*a*b*\"", "W*A*", "*c", "low", "bc", "b", "\"a b\"", "z*", "\"\\xc3*\"", "aa*", "*aa",
  /* Patterns of bytes that are not UTF-8 (GPatternSpec aborts on them;
   * found by fuzz-filter): matched byte by byte. */
  "\"\xff*\"", "\"*\xc3\"", "\"a*b\xe3\"", "\"?\xe3\"",
};

static char *
random_literal (GRand *rand)
{
  if (g_rand_boolean (rand))
    return g_strdup (int_literals[g_rand_int_range (rand, 0, G_N_ELEMENTS (int_literals))]);
  return g_strdup (word_literals[g_rand_int_range (rand, 0, G_N_ELEMENTS (word_literals))]);
}

static void
random_term (GRand *rand, GString *out, gboolean with_state, const char *const *fields, guint n_fields)
{
  static const char *const ops[] = { "=", "!=", "<", "<=", ">", ">=" };
  const char *op = ops[g_rand_int_range (rand, 0, G_N_ELEMENTS (ops))];
  g_autofree char *lit = random_literal (rand);
  switch (g_rand_int_range (rand, 0, with_state ? 14 : 11))
    {
    case 0:
    case 1:
    case 2:
    case 3:
    case 4:
      if (g_rand_int_range (rand, 0, 6) == 0)
        g_string_append_printf (out, "event.field.%s", fields[g_rand_int_range (rand, 0, (gint32) n_fields)]);
      else
        g_string_append_printf (out, "event.field.%s %s %s",
                                fields[g_rand_int_range (rand, 0, (gint32) n_fields)], op, lit);
      break;
    case 5:
      {
        static const char *const names[] = { "ints", "le.*", "*bits", "be.ints", "empty", "sched_*",
                                             "syscall_exit", "core.*", "*_*" };
        g_string_append_printf (out, "event.name %s %s", g_rand_boolean (rand) ? "=" : "!=",
                                names[g_rand_int_range (rand, 0, G_N_ELEMENTS (names))]);
        break;
      }
    case 6:
      g_string_append_printf (out, "event.time %s %s%d.%06d", op, g_rand_boolean (rand) ? "+" : "",
                              g_rand_boolean (rand) ? 0 : 1000000000 / 1000000000, g_rand_int_range (rand, 0, 3000000));
      break;
    case 7:
      g_string_append_printf (out, "cpu %s %d", op, g_rand_int_range (rand, -1, 3));
      break;
    case 8:
      g_string_append_printf (out, "tracefile.name %s %s", op, g_rand_boolean (rand) ? "cpu*" : "cpu/1");
      break;
    case 9:
      g_string_append_printf (out, "event.id %s %d", op, g_rand_int_range (rand, 0, 110));
      break;
    case 10:
      g_string_append_printf (out, "event.facility %s %s", op, g_rand_boolean (rand) ? "le" : "b*");
      break;
    case 11:
      g_string_append_printf (out, "state.tid %s %d", op, g_rand_int_range (rand, 0, 40));
      break;
    case 12:
      g_string_append_printf (out, "state.process_name %s %s", op, g_rand_boolean (rand) ? "b*" : lit);
      break;
    default:
      g_string_append (out, g_rand_boolean (rand) ? "state.syscall" : "state.exec_mode = sys*");
      break;
    }
}

/* A random expression of up to @depth levels of & | ! and parentheses. */
static void
random_expr (GRand *rand, GString *out, guint depth, gboolean with_state, const char *const *fields, guint n_fields)
{
  guint pick = depth == 0 ? 0 : (guint) g_rand_int_range (rand, 0, 5);
  switch (pick)
    {
    case 0:
    case 1:
      random_term (rand, out, with_state, fields, n_fields);
      break;
    case 2:
      g_string_append (out, "!");
      G_GNUC_FALLTHROUGH;
    case 3:
      g_string_append (out, "(");
      random_expr (rand, out, depth - 1, with_state, fields, n_fields);
      g_string_append (out, g_rand_boolean (rand) ? " | " : " & ");
      random_expr (rand, out, depth - 1, with_state, fields, n_fields);
      g_string_append (out, ")");
      break;
    default:
      random_expr (rand, out, depth - 1, with_state, fields, n_fields);
      g_string_append (out, g_rand_boolean (rand) ? " | " : " & ");
      random_expr (rand, out, depth - 1, with_state, fields, n_fields);
      break;
    }
}

/* Compiled evaluation, reference evaluation and check_type agree. */
static void
check_agreement (TtvFilter *f, const TtvEvent *ev, const TtvState *state, guint64 *yes)
{
  gboolean got = ttv_filter_matches (f, ev, state);
  gboolean want = ttv_filter_matches_reference (f, ev, state);
  if (got != want)
    {
      g_autoptr (TtvDecoder) dec = ttv_decoder_new ();
      g_autoptr (GString) fields = g_string_new (NULL);
      gint32 root = ttv_event_decode_fields (ev, dec, NULL);
      if (root >= 0)
        ttv_decoder_append_value (dec, (guint32) root, TTV_VALUE_STYLE_PLAIN, fields);
      g_error ("'%s' on %s (%s, t=%" G_GINT64_FORMAT ", payload_bit %" G_GUINT64_FORMAT "): compiled %d, reference %d; %s",
               ttv_filter_get_expression (f), ev->type->full_name, ev->tracefile->name, ev->time,
               ev->payload_bit, got, want, fields->str);
    }
  TtvFilterVerdict v = ttv_filter_check_type (f, ev->tracefile->trace, ev->type);
  if ((v == TTV_FILTER_NEVER && got) || (v == TTV_FILTER_ALWAYS && !got))
    g_error ("'%s' on %s: check_type says %d, the event %d", ttv_filter_get_expression (f),
             ev->type->full_name, v, got);
  *yes += got;
}

static void
test_differential_synthetic (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (8);
  TtvTrace *t = synth_trace_new ();
  GArray *events = synth_events (t, rand, 600, FALSE);
  guint n_filters = g_test_slow () ? 3000 : 400;
  guint64 any_yes = 0, total = 0;
  for (guint i = 0; i < n_filters; i++)
    {
      g_autoptr (GString) expr = g_string_new (NULL);
      random_expr (rand, expr, i % 4, FALSE, synth_fields, G_N_ELEMENTS (synth_fields));
      g_autoptr (GError) error = NULL;
      g_autoptr (TtvFilter) f = ttv_filter_new (expr->str, NULL, &error);
      if (f == NULL)
        g_error ("'%s': %s", expr->str, error->message);
      guint64 yes = 0;
      for (guint e = 0; e < events->len; e++)
        check_agreement (f, &g_array_index (events, SynthEvent, e).ev, NULL, &yes);
      any_yes += yes > 0 && yes < events->len;
      total++;
    }
  /* The random filters must not be all trivially true or false. */
  g_test_message ("%" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " filters split the events", any_yes, total);
  g_assert_cmpuint (any_yes, >, total / 4);

  /* Every field with every operator and literal, one at a time. */
  static const char *const ops[] = { "=", "!=", "<", "<=", ">", ">=" };
  for (guint fi = 0; fi < G_N_ELEMENTS (synth_fields); fi++)
    for (guint oi = 0; oi < G_N_ELEMENTS (ops); oi++)
      for (guint li = 0; li < G_N_ELEMENTS (int_literals) + G_N_ELEMENTS (word_literals) + 1; li++)
        {
          g_autofree char *expr = NULL;
          if (li == G_N_ELEMENTS (int_literals) + G_N_ELEMENTS (word_literals))
            expr = g_strdup_printf ("!event.field.%s", synth_fields[fi]);
          else
            expr = g_strdup_printf ("event.field.%s %s %s", synth_fields[fi], ops[oi],
                                    li < G_N_ELEMENTS (int_literals) ? int_literals[li]
                                    : word_literals[li - G_N_ELEMENTS (int_literals)]);
          g_autoptr (TtvFilter) f = ttv_filter_new (expr, NULL, NULL);
          g_assert_nonnull (f);
          guint64 yes = 0;
          for (guint e = 0; e < events->len; e += 5)
            check_agreement (f, &g_array_index (events, SynthEvent, e).ev, NULL, &yes);
        }
  synth_events_free (events);

  /* Truncated events: nothing is read past the data (ASan checks), and a
   * field that is not wholly there never matches. */
  events = synth_events (t, rand, 400, TRUE);
  for (guint fi = 0; fi < G_N_ELEMENTS (synth_fields); fi++)
    {
      g_autofree char *expr = g_strdup_printf ("event.field.%s = a* | event.field.%s != 1 | event.field.%s",
                                               synth_fields[fi], synth_fields[fi], synth_fields[fi]);
      g_autoptr (TtvFilter) f = ttv_filter_new (expr, NULL, NULL);
      for (guint e = 0; e < events->len; e++)
        {
          const TtvEvent *ev = &g_array_index (events, SynthEvent, e).ev;
          if (ev->data_bits <= ev->payload_bit && ttv_filter_matches (f, ev, NULL))
            g_error ("'%s' matches an event with no payload", expr);
        }
    }
  synth_events_free (events);
  ttv_trace_close (t);
}

/* The same on the simulated kernel trace, with the state. */
static void
test_differential_sim (void)
{
  static const char *const sim_fields[] = {
    "ret", "prev_state", "next_pid", "prev_pid", "syscall_id", "name", "len", "pid", "filename",
    "irq_id", "softirq_id", "nosuch", "address", "trap_id", "kernel_mode", "controller",
  };
  static const char *const fixed[] = {
    "cpu != 3 & (event.field.ret < 0 | event.name = \"sched_*\")",
    "event.name = sched_switch & event.field.next_pid > 10 & event.field.prev_state = WAIT*",
    "event.time >= +0.0005 & event.time < +0.0015 & cpu = 1",
    "!(event.name = \"syscall_*\") | event.field.ret != 0 & cpu < 2",
    "event.field.syscall_id = open* | event.field.irq_id = 14 | event.field.name = \"eth*\"",
    "event.field.ret >= 0 & event.field.ret <= 100 & event.name != sched_wakeup",
    "event.field.pid < 50 | event.field.prev_pid = 0 | event.id = 2",
    "state.process_name = \"b*\" || (state.syscall = read && state.exec_mode = syscall)",
    "state.pid > 3 & state.ppid != 0 & !state.syscall",
    "event.field.filename = \"*bin*\" | event.field.prev_state < WAIT",
  };
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvTraceset) ts = ttv_traceset_new ();
  g_assert_true (ttv_traceset_add_path (ts, trace_dir, &error));
  g_autoptr (GRand) rand = g_rand_new_with_seed (88);
  guint n_random = g_test_slow () ? 200 : 30;
  for (guint i = 0; i < G_N_ELEMENTS (fixed) + n_random; i++)
    {
      g_autoptr (GString) expr = g_string_new (NULL);
      if (i < G_N_ELEMENTS (fixed))
        g_string_append (expr, fixed[i]);
      else
        random_expr (rand, expr, 1 + i % 3, TRUE, sim_fields, G_N_ELEMENTS (sim_fields));
      g_autoptr (TtvFilter) f = ttv_filter_new (expr->str, NULL, &error);
      if (f == NULL)
        g_error ("'%s': %s", expr->str, error->message);
      g_autoptr (TtvStateTracker) tracker = ttv_state_tracker_new (ts, NULL);
      g_autoptr (TtvContext) ctx = ttv_context_new (ts, &error);
      g_assert_true (ttv_context_seek_begin (ctx, &error));
      const TtvEvent *ev;
      guint64 yes = 0, n = 0;
      while ((ev = ttv_context_next (ctx, &error)) != NULL && n < 8000)
        {
          ttv_state_tracker_apply (tracker, NULL, 0, ev);
          check_agreement (f, ev, ttv_state_tracker_get_state (tracker), &yes);
          n++;
        }
      g_assert_no_error (error);
      if (i < G_N_ELEMENTS (fixed))
        {
          g_test_message ("%s: %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT, expr->str, yes, n);
          g_assert_cmpuint (yes, >, 0);
        }
    }
}

/* Recorded CTF traces (kernel ones of two machines and byte orders, a
 * userspace one): every payload integer test (signed or not, negated,
 * joined by &) on the fast path, against the reference, on events that
 * have the field and events that do not. */
static void
test_differential_ctf (void)
{
  static const char *const traces[] = { "scp-kernel", "arm64-kernel", "bigendian-kernel", "glxgears-ust" };
  static const char *const fields[] = { "ret", "fd", "prev_state", "next_prio", "cpu_id", "vtid", "nosuch" };
  static const char *const tests[] = {
    "= 3", "!= 3", "< 0", ">= 0", "= -1", "> 1", "<= -2", "!= 0",
  };
  guint64 total_yes = 0, total_no = 0;
  guint found = 0;
  for (guint ti = 0; ti < G_N_ELEMENTS (traces); ti++)
    {
      g_autofree char *path = ttv_test_dup_shared_ctf_trace (traces[ti]);
      if (path == NULL)
        continue;
      found++;
      g_autoptr (GError) error = NULL;
      g_autoptr (TtvTraceset) ts = ttv_traceset_new ();
      g_assert_true (ttv_traceset_add_path (ts, path, &error));
      g_autoptr (GPtrArray) exprs = g_ptr_array_new_with_free_func (g_free);
      for (guint fi = 0; fi < G_N_ELEMENTS (fields); fi++)
        {
          const char *fd = fields[fi];
          for (guint k = 0; k < G_N_ELEMENTS (tests); k++)
            {
              g_ptr_array_add (exprs, g_strdup_printf ("event.field.%s %s", fd, tests[k]));
              g_ptr_array_add (exprs, g_strdup_printf ("!(event.field.%s %s)", fd, tests[k]));
            }
          g_ptr_array_add (exprs, g_strdup_printf ("event.field.%s >= -1 & event.field.%s <= 3", fd, fd));
          g_ptr_array_add (exprs, g_strdup_printf ("event.field.%s > 3 & event.field.%s < 2", fd, fd));
          g_ptr_array_add (exprs, g_strdup_printf ("!event.field.%s", fd));
          g_ptr_array_add (exprs, g_strdup_printf ("event.field.%s", fd));
        }
      g_ptr_array_add (exprs, g_strdup ("event.name = \"sched_*\""));
      g_ptr_array_add (exprs, g_strdup ("!(cpu = 1)"));
      for (guint e = 0; e < exprs->len; e++)
        {
          const char *expr = g_ptr_array_index (exprs, e);
          g_autoptr (TtvFilter) f = ttv_filter_new (expr, NULL, &error);
          g_assert_no_error (error);
          g_autoptr (TtvContext) ctx = ttv_context_new (ts, &error);
          g_assert_true (ttv_context_seek_begin (ctx, &error));
          const TtvEvent *ev;
          guint64 yes = 0, n = 0;
          while ((ev = ttv_context_next (ctx, &error)) != NULL && n < 6000)
            {
              check_agreement (f, ev, NULL, &yes);
              n++;
            }
          g_assert_no_error (error);
          total_yes += yes;
          total_no += n - yes;
        }
    }
  /* None of the traces beside the project: the test is marked skipped. */
  if (found == 0)
    return;
  g_assert_cmpuint (total_yes, >, 0);
  g_assert_cmpuint (total_no, >, 0);
}

/* Time terms fold per window between the time literals: events in random
 * time order switch windows all the time, and a live trace whose start
 * moves moves the windows of its +S.N times. */
static void
test_time_windows (void)
{
  static const char *const exprs[] = {
    "event.time >= +0.0005 & event.field.u8 = 0x61",
    "event.time < +0.001 | event.time > +0.002 & event.field.s16 < 0",
    "event.time = +0.0015 | event.field.u32 >= 0x61616161 & event.time <= 1.002",
    "!(event.time > 1.002) & event.time & cpu = 1",
    "event.time",
  };
  g_autoptr (GRand) rand = g_rand_new_with_seed (12);
  TtvTrace *t = synth_trace_new ();
  GArray *events = synth_events (t, rand, 600, FALSE);
  /* Some events exactly on the literals and one nanosecond either side. */
  for (guint i = 0; i < 60; i++)
    g_array_index (events, SynthEvent, i).ev.time = t->start + 1500000 + (TtvTime) (i % 3) - 1;
  for (guint e = 0; e < G_N_ELEMENTS (exprs); e++)
    {
      g_autoptr (TtvFilter) f = ttv_filter_new (exprs[e], NULL, NULL);
      g_assert_nonnull (f);
      guint64 yes = 0;
      for (guint round = 0; round < 2; round++)
        {
          for (guint i = 0; i < events->len; i++)
            check_agreement (f, &g_array_index (events, SynthEvent, i).ev, NULL, &yes);
          t->start -= 700000;   /* the start moves, as a refreshed live trace's may */
        }
      t->start += 1400000;
      g_assert_cmpuint (yes, >, 0);
    }
  /* All in one window, before and after the start moves across them. */
  g_autoptr (TtvFilter) f = ttv_filter_new ("event.time > +0.002", NULL, NULL);
  for (guint i = 0; i < events->len; i++)
    g_array_index (events, SynthEvent, i).ev.time = t->start + 1500000 + (TtvTime) i;
  for (guint round = 0; round < 2; round++)
    {
      guint64 yes = 0;
      for (guint i = 0; i < events->len; i++)
        check_agreement (f, &g_array_index (events, SynthEvent, i).ev, NULL, &yes);
      g_assert_cmpuint (yes, ==, round == 0 ? 0 : events->len);
      t->start -= 1000000;
    }
  synth_events_free (events);
  ttv_trace_close (t);
}

/* An LTTng userspace trace: "provider:event" is the facility and the name
 * (the full name prints as babeltrace2 does), and the stream and event
 * contexts (procname, vtid, cpu_id) are reachable as event.context.NAME and,
 * when the payload has no such field, event.field.NAME. */
static void
test_ctf_userspace (void)
{
  g_autofree char *path = ttv_test_dup_shared_ctf_trace ("glxgears-ust");
  if (path == NULL)
    return;
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvTraceset) ts = ttv_traceset_new ();
  g_assert_true (ttv_traceset_add_path (ts, path, &error));
  const TtvTrace *t = ttv_traceset_get_trace (ts, 0);
  const TtvEventType *exit_type = ttv_trace_find_event_type (t, "lttng_ust_cyg_profile:func_exit");
  g_assert_nonnull (exit_type);
  g_assert_cmpstr (exit_type->facility, ==, "lttng_ust_cyg_profile");
  g_assert_cmpstr (exit_type->name, ==, "func_exit");
  g_assert_true (ttv_trace_find_event_type (t, "func_exit") == exit_type);
  static const char *const ust_cases[] = {
    "event.facility = lttng_ust_cyg_profile",
    "event.name = func_exit",
    "event.name = \"lttng_ust_cyg_profile:func_*\" & event.name != func_entry",
    "event.context.procname = glx*",
    "event.field.procname = glxgears & event.context.cpu_id = 1",
    "event.context.vtid = 16073 | event.field.vtid > 16073",
    "event.context.nosuch | event.context.addr",
    /* No kernel state: the process from the contexts (no vpid here). */
    "state.tid = 16073 & state.process_name = glxgears & !state.pid & !state.ppid",
    "state.tid != 16073 | state.process_name != \"glx*\"",
  };
  guint64 counts[G_N_ELEMENTS (ust_cases)] = { 0 };
  guint64 n = 0, exits = 0, cpu1 = 0;
  for (guint c = 0; c < G_N_ELEMENTS (ust_cases); c++)
    {
      g_autoptr (TtvFilter) f = ttv_filter_new (ust_cases[c], NULL, &error);
      g_assert_no_error (error);
      g_autoptr (TtvContext) ctx = ttv_context_new (ts, &error);
      g_assert_true (ttv_context_seek_begin (ctx, &error));
      const TtvEvent *ev;
      n = exits = cpu1 = 0;
      while ((ev = ttv_context_next (ctx, &error)) != NULL)
        {
          check_agreement (f, ev, NULL, &counts[c]);
          n++;
          exits += ev->type == exit_type;
          cpu1 += ev->tracefile->cpu == 1;
        }
      g_assert_no_error (error);
    }
  g_assert_cmpuint (n, >, 1000);
  g_assert_cmpuint (counts[0], ==, n);
  g_assert_cmpuint (counts[1], ==, exits);
  g_assert_cmpuint (counts[2], ==, exits);
  g_assert_cmpuint (counts[3], ==, n);         /* every event is glxgears' */
  g_assert_cmpuint (counts[4], ==, cpu1);
  g_assert_cmpuint (counts[5], >, 0);
  g_assert_cmpuint (counts[6], ==, 0);         /* no such context; addr is a field, not a context */
  g_assert_cmpuint (counts[7], ==, n);
  g_assert_cmpuint (counts[8], ==, 0);
}

/* Programs and the cache: several traces through one filter, a trace whose
 * types grow, the same filter asked for types before and after events. */
static void
test_program_cache (void)
{
  TtvTrace *a = synth_trace_new ();
  TtvTrace *b = synth_trace_new ();
  g_autoptr (GRand) rand = g_rand_new_with_seed (3);
  GArray *ea = synth_events (a, rand, 200, FALSE);
  GArray *eb = synth_events (b, rand, 200, FALSE);
  g_autoptr (TtvFilter) f = ttv_filter_new ("event.field.u8 = 0x61 | event.field.name = a* | cpu = 1", NULL, NULL);
  g_assert_cmpint (ttv_filter_check_type (f, a, g_ptr_array_index (a->event_types, 0)), ==, TTV_FILTER_DEPENDS);
  g_assert_cmpint (ttv_filter_check_type (f, a, g_ptr_array_index (a->event_types, 3)), ==, TTV_FILTER_DEPENDS);
  g_assert_cmpint (ttv_filter_check_type (f, a, g_ptr_array_index (a->event_types, 5)), ==, TTV_FILTER_DEPENDS);   /* cpu */
  guint64 yes = 0;
  for (guint i = 0; i < 200; i++)
    {
      check_agreement (f, &g_array_index (ea, SynthEvent, i).ev, NULL, &yes);
      check_agreement (f, &g_array_index (eb, SynthEvent, i).ev, NULL, &yes);
    }
  check_agreement (f, &g_array_index (ea, SynthEvent, 0).ev, NULL, &yes);
  /* New types and tracefiles after the first events (a live trace). */
  for (guint i = 0; i < 40; i++)
    {
      g_autofree char *name = g_strdup_printf ("late%u", i);
      TtvType *s = ttv_type_new_struct ();
      ttv_type_add_field (s, "u8", int_type (8, FALSE, TTV_BYTE_ORDER_LITTLE, 8), NULL);
      ttv_trace_add_event_type (a, "late", name, s);
    }
  /* check_type on a new type rebuilds the cache of the trace read last:
   * the next event of an old type must not read its old forms (ASan). */
  ttv_filter_check_type (f, a, g_ptr_array_index (a->event_types, a->event_types->len - 1));
  check_agreement (f, &g_array_index (ea, SynthEvent, 1).ev, NULL, &yes);
  for (guint i = 0; i < 5; i++)
    ttv_trace_add_tracefile (a, "cpu/n", 2 + (gint) i);
  GArray *late = synth_events (a, rand, 300, FALSE);
  for (guint i = 0; i < late->len; i++)
    check_agreement (f, &g_array_index (late, SynthEvent, i).ev, NULL, &yes);
  g_assert_cmpuint (yes, >, 0);
  synth_events_free (ea);
  synth_events_free (eb);
  synth_events_free (late);
  ttv_trace_close (a);
  ttv_trace_close (b);
}

/* The instruction a single term becomes for a type (G_MAXUINT8: folded). */
static guint
first_opcode (TtvTrace *t, guint type_index, const char *expr, TtvFilterVerdict *verdict)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvHookGroups) groups = ttv_hook_groups_new ();
  GArray *tokens = ttv_filter_lex (expr, &error);
  g_assert_no_error (error);
  TtvFilterNode *root = ttv_filter_parse (tokens, groups, &error);
  g_assert_no_error (error);
  ttv_filter_tokens_free (tokens);
  TtvFilterProgram *prog = ttv_filter_program_new (root, groups, t, g_ptr_array_index (t->tracefiles, 0),
                                                   g_ptr_array_index (t->event_types, type_index), NULL);
  *verdict = prog->verdict;
  guint code = prog->code ? prog->insns[prog->entry].code : G_MAXUINT8;
  if (prog->code)
    g_assert_cmpuint (prog->code->len, ==, 1);
  ttv_filter_program_free (prog);
  ttv_filter_node_free (root);
  return code;
}

/* Which terms become which specialised instructions (the differential
 * tests check what they compute). */
static void
test_opcodes (void)
{
  TtvTrace *t = synth_trace_new ();
  static const struct {
    guint type;       /* 0 le.ints, 1 le.bits, 2 be.ints, 3 be.bits, 4 swapped_kinds, 5 core.empty */
    const char *expr;
    guint code;
    TtvFilterVerdict verdict;
  } opcode_cases[] = {
    { 0, "event.field.u8 = 1", INS_INT8, TTV_FILTER_DEPENDS },
    { 0, "event.field.s16 < -3", INS_INT16, TTV_FILTER_DEPENDS },
    { 2, "event.field.u32 != 0x61", INS_INT32, TTV_FILTER_DEPENDS },
    { 2, "event.field.s64 >= 0", INS_INT64, TTV_FILTER_DEPENDS },
    { 0, "event.field.e16 = 2", INS_INT16, TTV_FILTER_DEPENDS },
    { 0, "event.field.u8", INS_INT8, TTV_FILTER_DEPENDS },
    { 1, "event.field.b13 > 7", INS_INT_BITS, TTV_FILTER_DEPENDS },
    { 1, "event.field.s24 <= 7", INS_INT_BITS, TTV_FILTER_DEPENDS },
    { 0, "event.field.e8 = low", INS_ENUM_LABEL, TTV_FILTER_DEPENDS },
    { 3, "event.field.e5 != WAIT*", INS_ENUM_LABEL, TTV_FILTER_DEPENDS },
    { 0, "event.field.f32 > 1.5", INS_FLOAT32, TTV_FILTER_DEPENDS },
    { 2, "event.field.f64", INS_FLOAT64, TTV_FILTER_DEPENDS },
    { 0, "event.field.name = \"a*\"", INS_STRING, TTV_FILTER_DEPENDS },
    { 0, "event.field.name < b", INS_STRING, TTV_FILTER_DEPENDS },
    { 1, "event.field.comm = \"*b?\"", INS_CHARS, TTV_FILTER_DEPENDS },
    { 0, "event.time < +1.5", INS_TIME_REL, TTV_FILTER_DEPENDS },
    { 0, "event.time >= 1.5", INS_TIME, TTV_FILTER_DEPENDS },
    { 0, "event.field.u24 = 1", INS_GENERIC, TTV_FILTER_DEPENDS },      /* after a string */
    { 1, "event.field.comm2 = a", INS_GENERIC, TTV_FILTER_DEPENDS },    /* after a sequence */
    { 1, "event.field.nest.x = 1", INS_GENERIC, TTV_FILTER_DEPENDS },
    { 1, "event.field.arr[1] = 1", INS_GENERIC, TTV_FILTER_DEPENDS },
    { 0, "event.field.u8 = 0.5", INS_GENERIC, TTV_FILTER_DEPENDS },
    { 0, "state.pid = 1", INS_STATE_INT, TTV_FILTER_DEPENDS },
    { 0, "state.process_name = \"b*\"", INS_STATE_NAME, TTV_FILTER_DEPENDS },
    { 0, "state.exec_mode != user", INS_STATE_MODE, TTV_FILTER_DEPENDS },
    /* Folded away. */
    { 0, "event.field.s64 < -9223372036854775808", G_MAXUINT8, TTV_FILTER_NEVER },
    { 0, "!(event.field.u8 > 9223372036854775807)", G_MAXUINT8, TTV_FILTER_ALWAYS },
    { 0, "event.field.u8 = abc", G_MAXUINT8, TTV_FILTER_NEVER },
    { 5, "event.field.u8 = 1", G_MAXUINT8, TTV_FILTER_NEVER },
    { 4, "event.field.u32 = 1 | cpu = 0", G_MAXUINT8, TTV_FILTER_ALWAYS },
  };
  for (guint i = 0; i < G_N_ELEMENTS (opcode_cases); i++)
    {
      TtvFilterVerdict verdict;
      guint code = first_opcode (t, opcode_cases[i].type, opcode_cases[i].expr, &verdict);
      if (code != opcode_cases[i].code || verdict != opcode_cases[i].verdict)
        g_error ("'%s': opcode %u verdict %d, expected %u and %d", opcode_cases[i].expr, code, verdict,
                 opcode_cases[i].code, opcode_cases[i].verdict);
    }
  ttv_trace_close (t);
}

/* Globs byte by byte, as GPatternSpec reads them on ASCII text. */
static void
test_stars (void)
{
  static const char *const pats[] = { "*", "a*", "*a", "*a*", "a*b", "a*b*c", "*ab*ba*", "**a", "a**", "ab*ab",
                                      "*aa*a", "x", "", "?", "a?", "?b*", "*?", "a*?b", "??", "*a?a*" };
  static const char *const texts[] = { "", "a", "b", "ab", "ba", "aab", "abab", "abc", "aXbYc", "acb",
                                       "abba", "ababba", "aaa", "aa", "x", "xa" };
  for (guint p = 0; p < G_N_ELEMENTS (pats); p++)
    for (guint t = 0; t < G_N_ELEMENTS (texts); t++)
      {
        gboolean want = g_pattern_match_simple (pats[p], texts[t]);
        gboolean got = ttv_glob_match_bytes (pats[p], texts[t], strlen (texts[t]));
        if (want != got)
          g_error ("'%s' against '%s': %d, GPatternSpec %d", pats[p], texts[t], got, want);
      }
  /* Names, fields and patterns that are not UTF-8 go byte by byte:
   * GPatternSpec aborts on the first two patterns and says '*a*' matches
   * "b\xe3" (it reads past the end). */
  g_assert_true (ttv_glob_match ("a*b\xe3", "axb\xe3"));
  g_assert_true (ttv_glob_match ("?\xe3", "x\xe3"));
  g_assert_false (ttv_glob_match ("*a*", "b\xe3"));
  g_assert_true (ttv_glob_match ("*\xe3", "b\xe3"));
  g_assert_true (ttv_glob_match ("caf?", "café"));    /* UTF-8: '?' is one character */
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  make_trace ();
  g_test_add_func ("/filter/syntax-errors", test_syntax_errors);
  g_test_add_func ("/filter/hostile-expressions", test_hostile_expressions);
  g_test_add_func ("/filter/evaluation", test_evaluation);
  g_test_add_func ("/filter/verdicts", test_verdicts);
  g_test_add_func ("/filter/differential/synthetic", test_differential_synthetic);
  g_test_add_func ("/filter/differential/sim", test_differential_sim);
  g_test_add_func ("/filter/differential/ctf", test_differential_ctf);
  g_test_add_func ("/filter/program-cache", test_program_cache);
  g_test_add_func ("/filter/time-windows", test_time_windows);
  g_test_add_func ("/filter/ctf-userspace", test_ctf_userspace);
  g_test_add_func ("/filter/stars", test_stars);
  g_test_add_func ("/filter/opcodes", test_opcodes);
  g_test_add_func ("/filter/groups", test_groups);
  g_test_add_func ("/filter/format-id", test_format_id);
  g_test_add_func ("/filter/format-file", test_format_file);
  g_test_add_func ("/filter/timers", test_timers);
  int status = g_test_run ();
  g_free (trace_dir);
  return status;
}
