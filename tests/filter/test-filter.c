/* test-filter.c: the filter language against predicates written by hand
 * over a simulated-kernel trace; parse errors with their columns; hook
 * groups, format files and timers. */
#include "ttv-test-util.h"
#include "formats/ltt/ttv-ltt-sim.h"
#include "ttv-context.h"
#include "ttv-error.h"
#include "ttv-filter.h"
#include "ttv-format-file.h"
#include "ttv-hook-groups.h"
#include "ttv-state-tracker.h"
#include "ttv-timer.h"

#include <glib/gstdio.h>
#include <string.h>

static char *tmp_dir;
static char *trace_dir;

static void
make_trace (void)
{
  g_autoptr (GError) error = NULL;
  tmp_dir = g_dir_make_tmp ("ttv-filter-XXXXXX", &error);
  g_assert_no_error (error);
  trace_dir = g_build_filename (tmp_dir, "trace", NULL);
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
  expect_error ("event.group < sched", TTV_FILTER_ERROR_BAD_VALUE, "'=' or '!='");
  expect_error ("cpu = 1 # 2", TTV_FILTER_ERROR_SYNTAX, "column 9: unexpected character '#'");
  expect_error ("event.field.a..b = 1", TTV_FILTER_ERROR_SYNTAX, "column 1: expected a field path");
  expect_error ("!", TTV_FILTER_ERROR_SYNTAX, "column 2: expected a name");
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
  return (p && p->pid > 300 && p->pid <= 0x400) && found && ret > 10;
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
  { "state.tid > 300 & state.tid <= 0x400 & event.field.ret > 10", pred_tid_field, TRUE },
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

  g_autoptr (GError) error = NULL;
  g_autoptr (TtvTrace) trace = ttv_trace_open (trace_dir, &error);
  guint64 exit_id = ttv_trace_find_event_type (trace, "core.syscall_exit")->format_id;
  g_autofree char *text = g_strdup_printf (
    "event core.sched_switch \"SW {prev_pid}->{next_pid} {prev_state?RUNNING:run|WAIT_*:wait {prev_state#x}|*:other}\"\n"
    "event %" G_GUINT64_FORMAT " \"EXIT \\\"{ret}\\\" {nosuch}\" # by id\n"
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

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  make_trace ();
  g_test_add_func ("/filter/syntax-errors", test_syntax_errors);
  g_test_add_func ("/filter/evaluation", test_evaluation);
  g_test_add_func ("/filter/verdicts", test_verdicts);
  g_test_add_func ("/filter/groups", test_groups);
  g_test_add_func ("/filter/format-file", test_format_file);
  g_test_add_func ("/filter/timers", test_timers);
  int status = g_test_run ();
  ttv_test_remove_tree (tmp_dir);
  g_free (trace_dir);
  g_free (tmp_dir);
  return status;
}
