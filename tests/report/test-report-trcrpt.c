/* test-report-trcrpt.c: ttv-report's trcrpt-style options (-d -k -p -T,
 * columns, timestamps, headings, timers, format files, filters) run as a
 * user would, checked against what the test computes from the classic
 * report and from the engine (every cell of the column layout: the state
 * after each event read here); and --follow on a trace that grows while it
 * is read. */
#include "ttv-test-util.h"
#include "ttv-ltt-sim.h"
#include "ttv-state-tracker.h"
#include "ttv-traceset.h"

#include <glib/gstdio.h>
#include <string.h>
#include <sys/wait.h>

static char *trace_dir;
static TtvTime trace_start;

/* Runs ttv-report with @args (NULL-terminated); returns the exit status. */
static int
report (char **out, char **err, ...)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_ptr_array_add (argv, (char *) TTV_REPORT_PATH);
  va_list ap;
  va_start (ap, err);
  const char *a;
  while ((a = va_arg (ap, const char *)) != NULL)
    g_ptr_array_add (argv, (char *) a);
  va_end (ap);
  g_ptr_array_add (argv, NULL);
  int status = 0;
  g_autoptr (GError) error = NULL;
  g_autofree char *o = NULL, *e = NULL;
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL, &o, &e,
                               &status, &error));
  g_assert_no_error (error);
  if (out)
    *out = g_steal_pointer (&o);
  if (err)
    *err = g_steal_pointer (&e);
  return WIFEXITED (status) ? WEXITSTATUS (status) : -1;
}

/* The event name of a classic line "TIME WHERE NAME: fields" (word @index). */
static char *
word (const char *line, guint index)
{
  g_auto (GStrv) w = g_strsplit (line, " ", -1);
  if (g_strv_length (w) <= index)
    return g_strdup ("");
  char *s = g_strdup (w[index]);
  gsize n = strlen (s);
  if (n && s[n - 1] == ':')
    s[n - 1] = '\0';
  return s;
}

/* The event name of a --state line "TIME WHERE pid TID NAME MODE EVENT:
 * fields": after the process name, which may hold spaces ("Web Content"). */
static char *
state_line_event (const char *line)
{
  g_auto (GStrv) w = g_strsplit (line, " ", -1);
  for (guint i = 4; w[i]; i++)
    if (g_str_has_prefix (w[i], "core.") || g_str_has_prefix (w[i], "block.") || g_str_has_prefix (w[i], "net."))
      {
        gsize n = strlen (w[i]);
        return g_strndup (w[i], n && w[i][n - 1] == ':' ? n - 1 : n);
      }
  return g_strdup ("");
}

/* The cells of a row, split on runs of blanks, but for cell @exec_cell:
 * a process name may hold blanks ("Web Content"), so it is read as the
 * column's 16 characters. */
static GPtrArray *
cells_of (const char *line, guint exec_cell)
{
  GPtrArray *cells = g_ptr_array_new_with_free_func (g_free);
  const char *p = line;

  for (;;)
    {
      while (*p == ' ')
        p++;
      if (!*p)
        break;
      const char *end = cells->len == exec_cell ? p + MIN (16, strlen (p)) : p + strcspn (p, " ");
      g_ptr_array_add (cells, g_strchomp (g_strndup (p, (gsize) (end - p))));
      p = end;
    }
  return cells;
}

/* The process name of a --state line: the words between the thread id
 * and the mode word that precedes the event (a name may hold blanks). */
static char *
state_line_exec (const char *line)
{
  g_auto (GStrv) w = g_strsplit (line, " ", -1);
  g_autofree char *ev = state_line_event (line);
  g_autoptr (GString) name = g_string_new (NULL);
  guint end = 4;

  while (w[end] && !g_str_has_prefix (w[end], ev))
    end++;
  g_assert_nonnull (w[end]);
  g_assert_cmpuint (end, >, 5);
  for (guint i = 4; i < end - 1; i++)
    g_string_append_printf (name, "%s%s", i > 4 ? " " : "", w[i]);
  return g_string_free (g_steal_pointer (&name), FALSE);
}

static void
make_trace (void)
{
  g_autoptr (GError) error = NULL;
  /* Made in main(): in the program's temporary directory, for every test. */
  trace_dir = g_build_filename (ttv_test_get_tmp_dir (), "trace", NULL);
  TtvSimOptions so;
  ttv_sim_options_init (&so);
  so.seed = 5;
  so.n_cpus = 3;
  so.n_processes = 20;
  so.max_events = 20000;
  g_autoptr (TtvSim) sim = ttv_sim_new (&so, &error);
  g_assert_no_error (error);
  ttv_test_write_ltt_simulation (trace_dir, sim, 4096, 3, NULL, NULL);
  g_autoptr (TtvTraceset) ts = ttv_traceset_new ();
  g_assert_true (ttv_traceset_add_path (ts, trace_dir, &error));
  trace_start = ttv_traceset_get_start (ts);
}

static gboolean
in_list (const char *name, const char *const *names)
{
  return g_strv_contains (names, name);
}

static void
test_include_exclude (void)
{
  g_autofree char *all = NULL, *inc = NULL, *exc = NULL;
  g_assert_cmpint (report (&all, NULL, trace_dir, NULL), ==, 0);
  g_assert_cmpint (report (&inc, NULL, "-d", "@sched", "-d", "core.syscall_exit,core.trap_*", trace_dir, NULL), ==, 0);
  g_assert_cmpint (report (&exc, NULL, "-k", "@irq,@syscalls", trace_dir, NULL), ==, 0);
  g_autoptr (GPtrArray) a = ttv_test_lines_of (all);
  g_autoptr (GPtrArray) want_inc = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) want_exc = g_ptr_array_new_with_free_func (g_free);
  static const char *const inc_names[] = { "core.sched_switch", "core.sched_wakeup", "core.syscall_exit",
                                           "core.trap_entry", "core.trap_exit", NULL };
  static const char *const exc_names[] = { "core.irq_entry", "core.irq_exit", "core.soft_irq_entry",
                                           "core.soft_irq_exit", "core.syscall_entry", "core.syscall_exit", NULL };
  for (guint i = 0; i < a->len; i++)
    {
      g_autofree char *name = word (g_ptr_array_index (a, i), 2);
      if (in_list (name, inc_names))
        g_ptr_array_add (want_inc, g_strdup (g_ptr_array_index (a, i)));
      if (!in_list (name, exc_names))
        g_ptr_array_add (want_exc, g_strdup (g_ptr_array_index (a, i)));
    }
  g_assert_cmpuint (want_inc->len, >, 100);
  g_autoptr (GPtrArray) gi = ttv_test_lines_of (inc);
  g_autoptr (GPtrArray) ge = ttv_test_lines_of (exc);
  ttv_test_assert_same_lines (gi, want_inc);
  ttv_test_assert_same_lines (ge, want_exc);
}

/* The ids of the event types as -j lists them: name -> id. */
static GHashTable *
listed_ids (void)
{
  g_autofree char *list = NULL;
  g_assert_cmpint (report (&list, NULL, "-j", trace_dir, NULL), ==, 0);
  g_autoptr (GPtrArray) l = ttv_test_lines_of (list);
  GHashTable *ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  for (guint i = 0; i < l->len; i++)
    {
      char id[32], name[128];
      g_assert_cmpint (sscanf (g_ptr_array_index (l, i), "%31s %127s", id, name), ==, 2);
      g_hash_table_insert (ids, g_strdup (name), g_strdup (id));
    }
  g_assert_cmpuint (g_hash_table_size (ids), >, 10);
  return ids;
}

/* One id form everywhere: -j lists what the ID column prints, and -d, -k
 * and timers take it (hex as trcrpt's hook ids, 0x or not, any case). */
static void
test_event_ids (void)
{
  g_autoptr (GHashTable) ids = listed_ids ();
  /* The ID column names each event's type as -j does. */
  g_autofree char *cols = NULL, *all = NULL;
  g_assert_cmpint (report (&cols, NULL, "--columns", "id", "--timestamp", "none", "-h", trace_dir, NULL), ==, 0);
  g_assert_cmpint (report (&all, NULL, trace_dir, NULL), ==, 0);
  g_autoptr (GPtrArray) c = ttv_test_lines_of (cols), a = ttv_test_lines_of (all);
  g_assert_cmpuint (c->len, ==, a->len);
  for (guint i = 0; i < c->len; i++)
    {
      g_autofree char *id = word (g_ptr_array_index (c, i), 0);
      g_autofree char *name = word (g_ptr_array_index (a, i), 2);
      g_assert_cmpstr (id, ==, g_hash_table_lookup (ids, name));
      g_assert_true (g_regex_match_simple ("^[0-9a-f]{3,}$", id, 0, 0));
    }
  /* -d and -k by the listed id select exactly that type. */
  const char *sw = g_hash_table_lookup (ids, "core.sched_switch");
  const char *en = g_hash_table_lookup (ids, "core.syscall_entry");
  const char *ex = g_hash_table_lookup (ids, "core.syscall_exit");
  g_assert_nonnull (sw);
  g_autofree char *upper = g_ascii_strup (sw, -1);
  g_autofree char *prefixed = g_strdup_printf ("0x%s", upper);
  g_autofree char *both = g_strdup_printf ("%s %s", sw, en);
  const char *forms[] = { sw, upper, prefixed };
  g_autoptr (GPtrArray) want = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) want_not = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) want_two = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < a->len; i++)
    {
      g_autofree char *name = word (g_ptr_array_index (a, i), 2);
      GPtrArray *to = strcmp (name, "core.sched_switch") == 0 ? want : want_not;
      g_ptr_array_add (to, g_strdup (g_ptr_array_index (a, i)));
      if (to == want || strcmp (name, "core.syscall_entry") == 0)
        g_ptr_array_add (want_two, g_strdup (g_ptr_array_index (a, i)));
    }
  g_assert_cmpuint (want->len, >, 100);
  for (guint f = 0; f < G_N_ELEMENTS (forms); f++)
    {
      g_autofree char *out = NULL, *err = NULL;
      g_assert_cmpint (report (&out, &err, "-d", forms[f], trace_dir, NULL), ==, 0);
      g_autoptr (GPtrArray) o = ttv_test_lines_of (out);
      ttv_test_assert_same_lines (o, want);
      g_assert_cmpstr (err, ==, "");
    }
  g_autofree char *notsw = NULL, *two = NULL;
  g_assert_cmpint (report (&notsw, NULL, "-k", sw, trace_dir, NULL), ==, 0);
  g_autoptr (GPtrArray) ns = ttv_test_lines_of (notsw);
  ttv_test_assert_same_lines (ns, want_not);
  /* trcrpt's blank-separated list, as one argument. */
  g_assert_cmpint (report (&two, NULL, "-d", both, trace_dir, NULL), ==, 0);
  g_autoptr (GPtrArray) tw = ttv_test_lines_of (two);
  ttv_test_assert_same_lines (tw, want_two);
  /* A timer by ids times what the one by names does. */
  g_autofree char *by_name = NULL, *by_id = NULL;
  g_autofree char *rule = g_strdup_printf ("%s:%s", en, ex);
  g_assert_cmpint (report (&by_name, NULL, "--timer", "syscall_entry:syscall_exit", trace_dir, NULL), ==, 0);
  g_assert_cmpint (report (&by_id, NULL, "--timer", rule, trace_dir, NULL), ==, 0);
  g_assert_cmpstr (by_id, ==, by_name);
  g_assert_nonnull (strstr (by_id, " us]"));
}

/* What would select nothing, or everything, in silence is said. */
static void
test_silent_results (void)
{
  g_autofree char *out = NULL, *err = NULL;
  g_assert_cmpint (report (&out, &err, "-d", "nosuch_event,core.sched_switch", "-k", "@block,nosuch2", "-n", "5",
                           trace_dir, NULL), ==, 0);
  g_autoptr (GPtrArray) o = ttv_test_lines_of (out);
  g_assert_cmpuint (o->len, ==, 5);
  g_assert_nonnull (strstr (err, "warning: -d: 'nosuch_event' matches no event type"));
  g_assert_nonnull (strstr (err, "warning: -k: 'nosuch2' matches no event type"));
  g_assert_null (strstr (err, "sched_switch"));
  g_assert_null (strstr (err, "@block"));
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (report (NULL, &err, "--timer", "nosuch:syscall_exit", "-n", "1", trace_dir, NULL), ==, 0);
  g_assert_nonnull (strstr (err, "timer nosuch:syscall_exit: 'nosuch' matches no event type"));
  g_assert_null (strstr (err, "'syscall_exit'"));
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (report (NULL, &err, "--filter", "cpu = 0 & state.exec_mode = sycall", trace_dir, NULL), ==, 2);
  g_assert_nonnull (strstr (err, "column 29: expected an execution mode"));
  /* -t describes text lines: with jsonl it would be ignored. */
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (report (NULL, &err, "-t", TTV_KERNEL_FORMAT, "--format", "jsonl", trace_dir, NULL), ==, 2);
  g_assert_nonnull (strstr (err, "-t describes text lines"));
  static const char *const bad[][2] = {
    { "-p", "" }, { "-d", " , " }, { "-k", "" }, { "-T", "," }, { "--page-size", "0" }, { "--page-size", "-3" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_clear_pointer (&err, g_free);
      g_assert_cmpint (report (NULL, &err, bad[i][0], bad[i][1], trace_dir, NULL), ==, 2);
      g_assert_nonnull (strstr (err, bad[i][0]));
    }
}

/* --state lines: "TIME cpuN pid P NAME MODE EVENT: ..." */
static void
test_process_thread (void)
{
  g_autofree char *all = NULL, *byname = NULL, *bytid = NULL, *nottid = NULL;
  g_assert_cmpint (report (&all, NULL, "--state", trace_dir, NULL), ==, 0);
  g_autoptr (GPtrArray) a = ttv_test_lines_of (all);
  /* The process of the 1000th event, to have one that exists. */
  g_autofree char *name = state_line_exec (g_ptr_array_index (a, 1000));
  g_autofree char *tid = word (g_ptr_array_index (a, 1000), 3);
  g_assert_cmpint (report (&byname, NULL, "--state", "-p", name, trace_dir, NULL), ==, 0);
  g_autofree char *tids = g_strdup_printf ("%s,99999", tid);
  g_assert_cmpint (report (&bytid, NULL, "--state", "-T", tids, trace_dir, NULL), ==, 0);
  g_autofree char *not = g_strdup_printf ("!%s", tid);
  g_assert_cmpint (report (&nottid, NULL, "--state", "-T", not, trace_dir, NULL), ==, 0);
  g_autoptr (GPtrArray) wn = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) wt = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) wx = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < a->len; i++)
    {
      const char *l = g_ptr_array_index (a, i);
      g_autofree char *n = state_line_exec (l), *t = word (l, 3);
      if (strcmp (n, name) == 0)
        g_ptr_array_add (wn, g_strdup (l));
      if (strcmp (t, tid) == 0)
        g_ptr_array_add (wt, g_strdup (l));
      else
        g_ptr_array_add (wx, g_strdup (l));
    }
  g_assert_cmpuint (wt->len, >, 0);
  g_autoptr (GPtrArray) gn = ttv_test_lines_of (byname);
  g_autoptr (GPtrArray) gt = ttv_test_lines_of (bytid);
  g_autoptr (GPtrArray) gx = ttv_test_lines_of (nottid);
  ttv_test_assert_same_lines (gn, wn);
  ttv_test_assert_same_lines (gt, wt);
  ttv_test_assert_same_lines (gx, wx);
}

static void
test_columns (void)
{
  g_autofree char *all = NULL, *cols = NULL;
  g_assert_cmpint (report (&all, NULL, "--state", "-n", "3000", trace_dir, NULL), ==, 0);
  g_assert_cmpint (report (&cols, NULL, "--columns", "cpu,tid,exec,id", "-n", "3000", trace_dir, NULL), ==, 0);
  g_autoptr (GPtrArray) a = ttv_test_lines_of (all);
  g_autoptr (GPtrArray) c = ttv_test_lines_of (cols);
  g_assert_cmpuint (c->len, ==, a->len + 1);
  g_assert_true (g_str_has_prefix (g_ptr_array_index (c, 0), "ID    ELAPSED_SEC    DELTA_MSEC     CPU  TID     EXEC"));
  TtvTime prev = trace_start;
  for (guint i = 0; i < a->len; i++)
    {
      const char *l = g_ptr_array_index (a, i);
      /* ID, ELAPSED_SEC, DELTA_MSEC, CPU, TID, then EXEC */
      g_autoptr (GPtrArray) cells = cells_of (g_ptr_array_index (c, i + 1), 5);
      TtvTime t;
      g_autofree char *ts = word (l, 0), *where = word (l, 1), *tid = word (l, 3), *exec = state_line_exec (l),
                      *ev = state_line_event (l);
      g_assert_true (ttv_time_parse (ts, &t, NULL));
      char buf[64];
      g_snprintf (buf, sizeof buf, "%" G_GINT64_FORMAT ".%09" G_GINT64_FORMAT, (t - trace_start) / 1000000000,
                  (t - trace_start) % 1000000000);
      g_assert_cmpstr (g_ptr_array_index (cells, 1), ==, buf);
      g_snprintf (buf, sizeof buf, "%" G_GINT64_FORMAT ".%06" G_GINT64_FORMAT, (t - prev) / 1000000,
                  (t - prev) % 1000000);
      g_assert_cmpstr (g_ptr_array_index (cells, 2), ==, buf);
      prev = t;
      g_assert_cmpstr (g_ptr_array_index (cells, 3), ==, g_str_has_prefix (where, "cpu") ? where + 3 : "-");
      g_assert_cmpstr (g_ptr_array_index (cells, 4), ==, tid);
      g_assert_cmpstr (g_ptr_array_index (cells, 5), ==, exec);
      g_assert_cmpstr (g_ptr_array_index (cells, 6), ==, ev);
    }

  /* Headings: -h none, --page-size every N, --two-line doubles. */
  g_autofree char *noh = NULL, *paged = NULL, *two = NULL, *us = NULL, *ns = NULL, *none = NULL;
  g_assert_cmpint (report (&noh, NULL, "-h", "-n", "50", trace_dir, NULL), ==, 0);
  g_assert_cmpint (report (&paged, NULL, "--page-size", "10", "-n", "35", trace_dir, NULL), ==, 0);
  g_assert_cmpint (report (&two, NULL, "--two-line", "-n", "20", trace_dir, NULL), ==, 0);
  g_autoptr (GPtrArray) l1 = ttv_test_lines_of (noh), l2 = ttv_test_lines_of (paged), l3 = ttv_test_lines_of (two);
  g_assert_cmpuint (l1->len, ==, 50);
  g_assert_cmpuint (l2->len, ==, 39);
  for (guint i = 0; i < l2->len; i++)
    g_assert_cmpint (g_str_has_prefix (g_ptr_array_index (l2, i), "ELAPSED_SEC"), ==, i % 11 == 0);
  guint newlines = 0;
  for (const char *q = two; *q; q++)
    newlines += *q == '\n';
  g_assert_cmpuint (newlines, ==, 42);   /* events without fields leave an empty second line */
  g_assert_true (g_str_has_prefix (g_ptr_array_index (l3, 1), "        DESCRIPTION"));
  g_assert_cmpint (report (&us, NULL, "--timestamp", "us", "-h", "-n", "3", trace_dir, NULL), ==, 0);
  g_assert_cmpint (report (&ns, NULL, "--timestamp", "ns", "-n", "3", trace_dir, NULL), ==, 0);
  g_assert_cmpint (report (&none, NULL, "--timestamp", "none", "-h", "-n", "1", trace_dir, NULL), ==, 0);
  g_assert_true (g_regex_match_simple ("^0\\.[0-9]{6} +core\\.", us, G_REGEX_MULTILINE, 0));
  g_assert_true (g_str_has_prefix (ns, "ELAPSED_SEC    DELTA_USEC "));
  g_assert_true (g_regex_match_simple ("^0\\.[0-9]{9} +[0-9]+ +core\\.", ns, G_REGEX_MULTILINE, 0));
  g_assert_true (g_str_has_prefix (none, "core."));
  g_autofree char *err = NULL;
  g_assert_cmpint (report (NULL, &err, "--columns", "cpu,bogus", trace_dir, NULL), ==, 2);
  g_assert_nonnull (strstr (err, "bogus"));
  g_assert_cmpint (report (NULL, NULL, "--timestamp", "5", trace_dir, NULL), ==, 2);
  g_assert_cmpint (report (NULL, NULL, "--columns", "cpu", "--format", "jsonl", trace_dir, NULL), ==, 2);
}

/* --- every cell against the engine -------------------------------------- */

/* What the column layout must show for one event, computed here from the
 * engine (the state after the event) and the classic report's line. */
typedef struct {
  TtvTime time;
  char *id, *cpu, *pid, *tid, *exec, *svc, *name;
  char *description;        /* the classic line's fields ("" when none) */
  guint32 tgid;             /* of the running process, 0 when none */
  guint32 thread;
} Row;

static void
row_free (gpointer p)
{
  Row *r = p;
  g_free (r->id), g_free (r->cpu), g_free (r->pid), g_free (r->tid), g_free (r->exec), g_free (r->svc);
  g_free (r->name), g_free (r->description);
  g_free (r);
}

static GPtrArray *
engine_rows (void)
{
  static GPtrArray *rows;
  if (rows)
    return rows;
  g_autofree char *classic = NULL;
  g_assert_cmpint (report (&classic, NULL, trace_dir, NULL), ==, 0);
  g_autoptr (GPtrArray) lines = ttv_test_lines_of (classic);
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvTraceset) ts = ttv_traceset_new ();
  g_assert_true (ttv_traceset_add_path (ts, trace_dir, &error));
  g_autoptr (TtvStateTracker) tracker = ttv_state_tracker_new (ts, NULL);
  g_autoptr (TtvContext) ctx = ttv_context_new (ts, &error);
  g_assert_true (ttv_context_seek_begin (ctx, &error));
  rows = g_ptr_array_new_with_free_func (row_free);
  const TtvEvent *ev;
  while ((ev = ttv_context_next (ctx, &error)) != NULL)
    {
      /* On a syscall's exit event the SVC column names the call it ends:
       * the running task's call just before the event. */
      const TtvProcessState *before = ttv_state_get_running (ttv_state_tracker_get_state (tracker), ev->tracefile->cpu);
      g_autofree char *svc_before = g_strdup (before ? ttv_process_state_get_syscall (before) : NULL);
      ttv_state_tracker_apply (tracker, NULL, 0, ev);
      const TtvProcessState *p = ttv_state_get_running (ttv_state_tracker_get_state (tracker), ev->tracefile->cpu);
      Row *r = g_new0 (Row, 1);
      r->time = ev->time;
      r->id = g_strdup_printf ("%03" G_GINT64_MODIFIER "x", ev->type->format_id);
      r->cpu = ev->tracefile->cpu >= 0 ? g_strdup_printf ("%d", ev->tracefile->cpu) : g_strdup ("-");
      r->pid = p ? g_strdup_printf ("%u", p->tgid ? p->tgid : p->pid) : g_strdup ("-");
      r->tid = p ? g_strdup_printf ("%u", p->pid) : g_strdup ("-");
      r->exec = g_strdup (p && p->name ? g_quark_to_string (p->name) : "-");
      const char *svc = p ? ttv_process_state_get_syscall (p) : NULL;
      if (g_str_has_suffix (ev->type->full_name, "syscall_exit"))
        svc = svc_before;
      r->svc = g_strdup (svc ? svc : "-");
      r->name = g_strdup (ev->type->full_name);
      r->tgid = p ? (p->tgid ? p->tgid : p->pid) : 0;
      r->thread = p ? p->pid : 0;
      g_assert_cmpuint (rows->len, <, lines->len);
      const char *line = g_ptr_array_index (lines, rows->len);
      const char *colon = strstr (line, r->name);
      g_assert_nonnull (colon);
      colon += strlen (r->name);
      r->description = g_strdup (*colon == ':' ? colon + 2 : "");
      g_ptr_array_add (rows, r);
    }
  g_assert_no_error (error);
  g_assert_cmpuint (rows->len, ==, lines->len);
  return rows;
}

static char *
seconds (TtvTime t, guint decimals)
{
  guint64 u = (guint64) t, div = 1;
  for (guint i = decimals; i < 9; i++)
    div *= 10;
  return g_strdup_printf ("%" G_GUINT64_FORMAT ".%0*" G_GUINT64_FORMAT, u / 1000000000u, (int) decimals,
                          (u % 1000000000u) / div);
}


/* --columns all in each timestamp mode, with a selection so that deltas run
 * from the previous printed event: every cell, against the engine. */
static void
test_columns_all (void)
{
  GPtrArray *rows = engine_rows ();
  static const char *const modes[] = { "elapsed", "us", "ns", "none" };
  for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
    for (guint sel = 0; sel < 2; sel++)
      {
        g_autofree char *out = NULL;
        if (sel)
          g_assert_cmpint (report (&out, NULL, "--columns", "all", "--timestamp", modes[m], "-h", "-d",
                                   "@syscalls,@sched", trace_dir, NULL), ==, 0);
        else
          g_assert_cmpint (report (&out, NULL, "--columns", "all", "--timestamp", modes[m], "-h", trace_dir, NULL), ==, 0);
        g_autoptr (GPtrArray) got = ttv_test_lines_of (out);
        TtvTime start = g_ptr_array_index (rows, 0) ? ((Row *) g_ptr_array_index (rows, 0))->time : 0;
        g_assert_cmpint (start, ==, trace_start);
        TtvTime prev = trace_start;
        guint g = 0, svc_seen = 0, threads_seen = 0;
        for (guint i = 0; i < rows->len; i++)
          {
            const Row *r = g_ptr_array_index (rows, i);
            if (sel && !g_str_has_prefix (r->name, "core.sys") && !g_str_has_prefix (r->name, "core.sched"))
              continue;
            g_assert_cmpuint (g, <, got->len);
            const char *line = g_ptr_array_index (got, g++);
            /* ID, the time cells of the mode, CPU, PID, TID, then EXEC */
            static const guint n_time_cells[] = { 2, 1, 2, 0 };
            g_autoptr (GPtrArray) c = cells_of (line, 4 + n_time_cells[m]);
            guint k = 0;
            g_assert_cmpstr (g_ptr_array_index (c, k++), ==, r->id);
            g_autofree char *el = seconds (r->time - trace_start, m == 1 ? 6 : 9);
            g_autofree char *dms = g_strdup_printf ("%" G_GINT64_FORMAT ".%06" G_GINT64_FORMAT, (r->time - prev) / 1000000,
                                                    (r->time - prev) % 1000000);
            g_autofree char *dus = g_strdup_printf ("%" G_GINT64_FORMAT, (r->time - prev) / 1000);
            if (m != 3)
              g_assert_cmpstr (g_ptr_array_index (c, k++), ==, el);
            if (m == 0)
              g_assert_cmpstr (g_ptr_array_index (c, k++), ==, dms);
            if (m == 2)
              g_assert_cmpstr (g_ptr_array_index (c, k++), ==, dus);
            prev = r->time;
            g_assert_cmpstr (g_ptr_array_index (c, k++), ==, r->cpu);
            g_assert_cmpstr (g_ptr_array_index (c, k++), ==, r->pid);
            g_assert_cmpstr (g_ptr_array_index (c, k++), ==, r->tid);
            g_assert_cmpstr (g_ptr_array_index (c, k++), ==, r->exec);
            g_assert_cmpstr (g_ptr_array_index (c, k++), ==, r->svc);
            g_assert_cmpstr (g_ptr_array_index (c, k++), ==, r->name);
            g_assert_true (g_str_has_suffix (line, r->description));
            svc_seen += strcmp (r->svc, "-") != 0;
            threads_seen += strcmp (r->pid, r->tid) != 0;
          }
        g_assert_cmpuint (g, ==, got->len);
        /* The trace must exercise what the cells can get wrong. */
        g_assert_cmpuint (svc_seen, >, 100);
        g_assert_cmpuint (threads_seen, >, 10);
      }
}

/* --two-line: the row, then the description indented on its own line. */
static void
test_two_line (void)
{
  GPtrArray *rows = engine_rows ();
  g_autofree char *out = NULL;
  g_assert_cmpint (report (&out, NULL, "--two-line", "--columns", "cpu", "-n", "400", trace_dir, NULL), ==, 0);
  g_auto (GStrv) l = g_strsplit (out, "\n", -1);
  g_assert_cmpstr (l[0], ==, "ELAPSED_SEC    DELTA_MSEC     CPU  EVENT");
  g_assert_cmpstr (l[1], ==, "        DESCRIPTION");
  for (guint i = 0; i < 400; i++)
    {
      const Row *r = g_ptr_array_index (rows, i);
      g_autoptr (GPtrArray) c = cells_of (l[2 + 2 * i], G_MAXUINT);
      g_assert_cmpuint (c->len, ==, 4);
      g_assert_cmpstr (g_ptr_array_index (c, 2), ==, r->cpu);
      g_assert_cmpstr (g_ptr_array_index (c, 3), ==, r->name);
      g_autofree char *second = *r->description ? g_strdup_printf ("        %s", r->description) : g_strdup ("");
      g_assert_cmpstr (l[3 + 2 * i], ==, second);
    }
}

/* -p by pid selects every thread of the process (the thread group), -T the
 * thread alone; both against the engine. */
static void
test_process_pid (void)
{
  GPtrArray *rows = engine_rows ();
  /* A process with several threads. */
  guint32 tgid = 0;
  for (guint i = 0; i < rows->len && tgid == 0; i++)
    {
      const Row *r = g_ptr_array_index (rows, i);
      if (r->tgid && r->tgid != r->thread)
        tgid = r->tgid;
    }
  g_assert_cmpuint (tgid, !=, 0);
  g_autofree char *pid = g_strdup_printf ("%u", tgid);
  g_autofree char *byp = NULL, *byt = NULL;
  g_assert_cmpint (report (&byp, NULL, "--columns", "tid", "--timestamp", "none", "-h", "-p", pid, trace_dir, NULL), ==, 0);
  g_assert_cmpint (report (&byt, NULL, "--columns", "tid", "--timestamp", "none", "-h", "-T", pid, trace_dir, NULL), ==, 0);
  g_autoptr (GPtrArray) wp = g_ptr_array_new_with_free_func (g_free), wt = g_ptr_array_new_with_free_func (g_free);
  guint others = 0;
  for (guint i = 0; i < rows->len; i++)
    {
      const Row *r = g_ptr_array_index (rows, i);
      if (r->tgid == tgid)
        g_ptr_array_add (wp, g_strdup_printf ("%s %s", r->tid, r->name));
      if (r->thread == tgid)
        g_ptr_array_add (wt, g_strdup_printf ("%s %s", r->tid, r->name));
      others += r->tgid == tgid && r->thread != tgid;
    }
  g_assert_cmpuint (others, >, 0);
  GPtrArray *outs[] = { ttv_test_lines_of (byp), ttv_test_lines_of (byt) };
  GPtrArray *wants[] = { wp, wt };
  for (guint k = 0; k < 2; k++)
    {
      g_autoptr (GPtrArray) got = g_ptr_array_new_with_free_func (g_free);
      for (guint i = 0; i < outs[k]->len; i++)
        {
          g_autoptr (GPtrArray) c = cells_of (g_ptr_array_index (outs[k], i), G_MAXUINT);
          g_ptr_array_add (got, g_strdup_printf ("%s %s", (char *) g_ptr_array_index (c, 0),
                                                 (char *) g_ptr_array_index (c, 1)));
        }
      ttv_test_assert_same_lines (got, wants[k]);
      g_ptr_array_unref (outs[k]);
    }
}

/* --start/--end, absolute and +S from the trace start: the classic lines
 * whose times fall inside, both ends included. */
static void
test_time_window (void)
{
  GPtrArray *rows = engine_rows ();
  TtvTime last = ((const Row *) g_ptr_array_index (rows, rows->len - 1))->time;
  TtvTime a = (last - trace_start) / 3, b = 2 * (last - trace_start) / 3;
  TtvTime ta = ((const Row *) g_ptr_array_index (rows, rows->len / 3))->time;   /* an event's own time */
  g_autofree char *rel_a = seconds (a, 9), *rel_b = seconds (b, 9), *abs_a = seconds (ta, 9), *abs_b = seconds (trace_start + b, 9);
  g_autofree char *plus_a = g_strdup_printf ("+%s", rel_a), *plus_b = g_strdup_printf ("+%s", rel_b);
  const struct { const char *start, *end; TtvTime lo, hi; } cases[] = {
    { plus_a, plus_b, trace_start + a, trace_start + b },
    { abs_a, plus_b, ta, trace_start + b },
    { plus_a, abs_b, trace_start + a, trace_start + b },
  };
  for (guint k = 0; k < G_N_ELEMENTS (cases); k++)
    {
      g_autofree char *out = NULL;
      g_assert_cmpint (report (&out, NULL, "--start", cases[k].start, "--end", cases[k].end, "--columns", "id",
                               "--timestamp", "ns", "-h", trace_dir, NULL), ==, 0);
      g_autoptr (GPtrArray) got = ttv_test_lines_of (out);
      guint n = 0;
      for (guint i = 0; i < rows->len; i++)
        {
          const Row *r = g_ptr_array_index (rows, i);
          if (r->time < cases[k].lo || r->time > cases[k].hi)
            continue;
          g_assert_cmpuint (n, <, got->len);
          g_autoptr (GPtrArray) c = cells_of (g_ptr_array_index (got, n++), G_MAXUINT);
          g_autofree char *el = seconds (r->time - trace_start, 9);
          g_assert_cmpstr (g_ptr_array_index (c, 1), ==, el);
        }
      g_assert_cmpuint (n, ==, got->len);
      g_assert_cmpuint (n, >, 100);
    }
}

/* --list-groups prints each group's patterns: -d with those patterns
 * selects what -d @group does. */
static void
test_list_groups (void)
{
  g_autofree char *list = NULL;
  g_assert_cmpint (report (&list, NULL, "--list-groups", NULL), ==, 0);
  g_autoptr (GPtrArray) l = ttv_test_lines_of (list);
  static const char *const builtin[] = { "@sched", "@syscalls", "@irq", "@trap", "@process", "@block", "@net" };
  guint found = 0;
  for (guint i = 0; i < l->len; i++)
    {
      g_autoptr (GPtrArray) c = cells_of (g_ptr_array_index (l, i), G_MAXUINT);
      g_assert_cmpuint (c->len, >=, 2);
      const char *group = g_ptr_array_index (c, 0);
      found += g_strv_contains (builtin, group);
      g_autoptr (GString) patterns = g_string_new (NULL);
      for (guint k = 1; k < c->len; k++)
        g_string_append_printf (patterns, "%s%s", k > 1 ? "," : "", (char *) g_ptr_array_index (c, k));
      g_autofree char *by_group = NULL, *by_patterns = NULL;
      g_assert_cmpint (report (&by_group, NULL, "-d", group, trace_dir, NULL), ==, 0);
      g_assert_cmpint (report (&by_patterns, NULL, "-d", patterns->str, trace_dir, NULL), ==, 0);
      g_assert_cmpstr (by_group, ==, by_patterns);
      if (strcmp (group, "@sched") == 0)
        g_assert_cmpuint (strlen (by_group), >, 1000);
    }
  g_assert_cmpuint (found, ==, G_N_ELEMENTS (builtin));
}

static void
test_timer (void)
{
  g_autofree char *out = NULL;
  g_assert_cmpint (report (&out, NULL, "--state", "--timer", "syscall_entry:syscall_exit", trace_dir, NULL), ==, 0);
  g_autoptr (GPtrArray) l = ttv_test_lines_of (out);
  g_autoptr (GHashTable) pending = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  guint timed = 0;
  for (guint i = 0; i < l->len; i++)
    {
      const char *line = g_ptr_array_index (l, i);
      g_autofree char *ts = word (line, 0), *tid = word (line, 3), *ev = state_line_event (line);
      if (g_str_equal (tid, "-"))
        {
          /* The running task is not known yet: timers go by CPU. */
          g_free (tid);
          tid = word (line, 1);
        }
      TtvTime t;
      g_assert_true (ttv_time_parse (ts, &t, NULL));
      const char *bracket = strrchr (line, '[');
      gboolean has = bracket && g_str_has_suffix (line, " us]");
      if (strcmp (ev, "core.syscall_exit") == 0 && g_hash_table_contains (pending, tid))
        {
          TtvTime start = GPOINTER_TO_SIZE (g_hash_table_lookup (pending, tid)) + trace_start;
          g_autofree char *want = g_strdup_printf ("[%" G_GINT64_FORMAT ".%03d us]", (t - start) / 1000,
                                                   (int) ((t - start) % 1000));
          g_assert_true (has);
          g_assert_cmpstr (bracket, ==, want);
          g_hash_table_remove (pending, tid);
          timed++;
        }
      else if (has)
        g_error ("unexpected timer: %s", line);
      if (strcmp (ev, "core.syscall_entry") == 0)
        g_hash_table_insert (pending, g_strdup (tid), GSIZE_TO_POINTER ((gsize) (t - trace_start)));
    }
  g_assert_cmpuint (timed, >, 100);
  /* Timers see the events that are not printed: the exits alone carry the
   * same durations as in the full report. */
  g_autofree char *exits = NULL;
  g_assert_cmpint (report (&exits, NULL, "--state", "-d", "syscall_exit", "--timer", "syscall_entry:syscall_exit",
                           trace_dir, NULL), ==, 0);
  g_autoptr (GPtrArray) want = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < l->len; i++)
    {
      g_autofree char *ev = state_line_event (g_ptr_array_index (l, i));
      if (strcmp (ev, "core.syscall_exit") == 0)
        g_ptr_array_add (want, g_strdup (g_ptr_array_index (l, i)));
    }
  g_autoptr (GPtrArray) got = ttv_test_lines_of (exits);
  ttv_test_assert_same_lines (got, want);
  g_autofree char *err = NULL;
  g_assert_cmpint (report (NULL, &err, "--timer", "syscall_entry", trace_dir, NULL), ==, 2);
  g_assert_nonnull (strstr (err, "START:END"));
}

static void
test_format_file (void)
{
  g_autofree char *classic = NULL, *out = NULL;
  g_assert_cmpint (report (&classic, NULL, "-d", "core.process_fork,core.sched_wakeup", trace_dir, NULL), ==, 0);
  g_assert_cmpint (report (&out, NULL, "-t", TTV_KERNEL_FORMAT, "-d", "core.process_fork,core.sched_wakeup",
                           trace_dir, NULL), ==, 0);
  g_autoptr (GPtrArray) c = ttv_test_lines_of (classic), o = ttv_test_lines_of (out);
  g_assert_cmpuint (c->len, ==, o->len);
  g_assert_cmpuint (c->len, >, 10);
  for (guint i = 0; i < c->len; i++)
    {
      const char *l = g_ptr_array_index (c, i);
      g_autofree char *ts = word (l, 0), *where = word (l, 1), *ev = word (l, 2);
      guint a, b, x;
      g_autofree char *want = NULL;
      if (strcmp (ev, "core.process_fork") == 0)
        {
          g_assert_cmpint (sscanf (strchr (l, ':') + 1, " parent_pid = %u, child_pid = %u, child_tgid = %u", &a, &b, &x), ==, 3);
          want = g_strdup_printf ("%s %s FORK parent=%u child=%u tgid=%u", ts, where, a, b, x);
        }
      else
        {
          g_assert_cmpint (sscanf (strchr (l, ':') + 1, " pid = %u, target_cpu = %u", &a, &b), ==, 2);
          want = g_strdup_printf ("%s %s WAKEUP pid=%u on cpu %u", ts, where, a, b);
        }
      g_assert_cmpstr (g_ptr_array_index (o, i), ==, want);
    }
  /* -c: a good file, a bad one (exit 2, file:line:column). */
  g_autofree char *ok = NULL, *err = NULL;
  g_assert_cmpint (report (&ok, NULL, "-c", TTV_KERNEL_FORMAT, NULL), ==, 0);
  g_assert_nonnull (strstr (ok, "OK"));
  g_autofree char *bad = g_build_filename (ttv_test_get_tmp_dir (), "bad.ttvfmt", NULL);
  g_assert_true (g_file_set_contents (bad, "# fine\nevent x \"{pid\"\n", -1, NULL));
  g_assert_cmpint (report (NULL, &err, "-c", bad, NULL), ==, 2);
  g_autofree char *where = g_strdup_printf ("%s:2:14:", bad);
  g_assert_nonnull (strstr (err, where));
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (report (NULL, &err, "-t", bad, trace_dir, NULL), ==, 2);
  g_assert_nonnull (strstr (err, where));
}

/* A format file's default stanza and timers, end to end: every line
 * against the classic report, the engine's ids and --timer. */
static void
test_format_default (void)
{
  GPtrArray *rows = engine_rows ();
  g_autofree char *ff = g_build_filename (ttv_test_get_tmp_dir (), "default.ttvfmt", NULL);
  g_assert_true (g_file_set_contents (ff, "event core.sched_switch \"SW {next_pid}\"\n"
                                          "default \"D {$name} {$id}\"\n"
                                          "timer syscall_entry syscall_exit\n", -1, NULL));
  g_autofree char *out = NULL, *classic = NULL, *timed = NULL, *checked = NULL;
  g_assert_cmpint (report (&checked, NULL, "-c", ff, NULL), ==, 0);
  g_assert_nonnull (strstr (checked, "1 templates, a default, 1 timers"));
  g_assert_cmpint (report (&out, NULL, "-t", ff, trace_dir, NULL), ==, 0);
  g_assert_cmpint (report (&classic, NULL, trace_dir, NULL), ==, 0);
  g_assert_cmpint (report (&timed, NULL, "--timer", "syscall_entry:syscall_exit", trace_dir, NULL), ==, 0);
  g_autoptr (GPtrArray) o = ttv_test_lines_of (out), c = ttv_test_lines_of (classic), t = ttv_test_lines_of (timed);
  g_assert_cmpuint (o->len, ==, rows->len);
  guint brackets = 0;
  for (guint i = 0; i < rows->len; i++)
    {
      const Row *r = g_ptr_array_index (rows, i);
      g_autofree char *ts = word (g_ptr_array_index (c, i), 0), *where = word (g_ptr_array_index (c, i), 1);
      g_autofree char *want = NULL;
      if (strcmp (r->name, "core.sched_switch") == 0)
        {
          guint prev, next;
          g_assert_cmpint (sscanf (r->description, "prev_pid = %u, next_pid = %u", &prev, &next), ==, 2);
          want = g_strdup_printf ("%s %s SW %u", ts, where, next);
        }
      else
        want = g_strdup_printf ("%s %s D %s %s", ts, where, r->name, r->id);
      const char *bracket = strrchr (g_ptr_array_index (t, i), '[');
      if (bracket && g_str_has_suffix (g_ptr_array_index (t, i), " us]"))
        {
          g_autofree char *w = want;
          want = g_strdup_printf ("%s %s", w, bracket);
          brackets++;
        }
      g_assert_cmpstr (g_ptr_array_index (o, i), ==, want);
    }
  g_assert_cmpuint (brackets, >, 100);
}

static void
test_filter (void)
{
  g_autofree char *all = NULL, *out = NULL, *err = NULL;
  g_assert_cmpint (report (&all, NULL, trace_dir, NULL), ==, 0);
  g_assert_cmpint (report (&out, NULL, "--filter", "cpu = 1 & (event.name = core.irq_* | event.group = block)",
                           trace_dir, NULL), ==, 0);
  g_autoptr (GPtrArray) a = ttv_test_lines_of (all), o = ttv_test_lines_of (out);
  g_autoptr (GPtrArray) want = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < a->len; i++)
    {
      const char *l = g_ptr_array_index (a, i);
      g_autofree char *where = word (l, 1), *ev = word (l, 2);
      if (strcmp (where, "cpu1") == 0 && (g_str_has_prefix (ev, "core.irq_") || g_str_has_prefix (ev, "block.")))
        g_ptr_array_add (want, g_strdup (l));
    }
  g_assert_cmpuint (want->len, >, 10);
  ttv_test_assert_same_lines (o, want);
  g_assert_cmpint (report (NULL, &err, "--filter", "cpu = 1 & (event.name = ", trace_dir, NULL), ==, 2);
  g_assert_nonnull (strstr (err, "column 25: expected a value after '='"));
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (report (NULL, &err, "-d", "@nosuch", trace_dir, NULL), ==, 2);
  g_assert_nonnull (strstr (err, "unknown hook group @nosuch"));
  g_clear_pointer (&err, g_free);
  g_autofree char *groups = g_build_filename (ttv_test_get_tmp_dir (), "groups.txt", NULL);
  g_assert_true (g_file_set_contents (groups, "mine: core.process_exit core.process_free\n", -1, NULL));
  g_autofree char *mine = NULL, *plain = NULL;
  g_assert_cmpint (report (&mine, NULL, "--groups", groups, "-d", "@mine", trace_dir, NULL), ==, 0);
  g_assert_cmpint (report (&plain, NULL, "-d", "core.process_exit,core.process_free", trace_dir, NULL), ==, 0);
  g_assert_cmpstr (mine, ==, plain);
  g_assert_true (g_file_set_contents (groups, "ok: a\nbroken\n", -1, NULL));
  g_assert_cmpint (report (NULL, &err, "--groups", groups, trace_dir, NULL), ==, 2);
  g_assert_nonnull (strstr (err, "groups.txt:2:"));
}

/* A userspace trace has no kernel state: the TID and EXEC columns and -T
 * come from each event's vtid and procname contexts, checked against the
 * babeltrace2-style line of the same event. */
static void
test_userspace_process (void)
{
  g_autofree char *path = ttv_test_dup_shared_ctf_trace ("glxgears-ust");
  if (path == NULL)
    return;
  g_autofree char *cols = NULL, *bt = NULL, *byt = NULL;
  g_assert_cmpint (report (&cols, NULL, "--columns", "pid,tid,exec", "--timestamp", "none", "-h", path, NULL), ==, 0);
  g_assert_cmpint (report (&bt, NULL, "-f", "babeltrace", path, NULL), ==, 0);
  g_autoptr (GPtrArray) c = ttv_test_lines_of (cols), b = ttv_test_lines_of (bt);
  g_assert_cmpuint (c->len, ==, b->len);
  g_autoptr (GHashTable) per_tid = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; i < c->len; i++)
    {
      g_autoptr (GPtrArray) cells = cells_of (g_ptr_array_index (c, i), 2);
      g_autoptr (GMatchInfo) m = NULL;
      g_autoptr (GRegex) re = g_regex_new ("procname = \"([^\"]*)\", vtid = ([0-9]+)", 0, 0, NULL);
      g_assert_true (g_regex_match (re, g_ptr_array_index (b, i), 0, &m));
      g_autofree char *name = g_match_info_fetch (m, 1), *vtid = g_match_info_fetch (m, 2);
      g_assert_cmpstr (g_ptr_array_index (cells, 0), ==, "-");     /* no vpid context */
      g_assert_cmpstr (g_ptr_array_index (cells, 1), ==, vtid);
      g_assert_cmpstr (g_ptr_array_index (cells, 2), ==, name);
      g_hash_table_insert (per_tid, g_strdup (vtid),
                           GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (per_tid, vtid)) + 1));
    }
  GHashTableIter it;
  gpointer key, count;
  g_hash_table_iter_init (&it, per_tid);
  g_assert_true (g_hash_table_iter_next (&it, &key, &count));
  g_assert_cmpint (report (&byt, NULL, "-T", key, path, NULL), ==, 0);
  g_autoptr (GPtrArray) t = ttv_test_lines_of (byt);
  g_assert_cmpuint (t->len, ==, GPOINTER_TO_UINT (count));
}

/* --- follow ------------------------------------------------------------- */

static void
test_follow (void)
{
  g_autofree char *live = g_build_filename (ttv_test_get_tmp_dir (), "live", NULL);
  g_autofree char *out_path = g_build_filename (ttv_test_get_tmp_dir (), "follow.txt", NULL);
  const char *const sub[] = { "info", "eventdefs", "control" };
  for (guint i = 0; i < G_N_ELEMENTS (sub); i++)
    {
      g_autofree char *a = g_build_filename (trace_dir, sub[i], NULL), *b = g_build_filename (live, sub[i], NULL);
      ttv_test_copy_dir (a, b);
    }
  g_autofree char *cpu_live = g_build_filename (live, "cpu", NULL);
  g_mkdir_with_parents (cpu_live, 0755);
  /* The blocks of every cpu file, appended a round at a time. */
  g_autoptr (GPtrArray) datas = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  GArray *sizes = g_array_new (FALSE, FALSE, sizeof (gsize));
  g_autofree char *cpu_dir = g_build_filename (trace_dir, "cpu", NULL);
  g_autoptr (GDir) d = g_dir_open (cpu_dir, 0, NULL);
  const char *name;
  gsize max_blocks = 0;
  while ((name = g_dir_read_name (d)))
    {
      g_autofree char *p = g_build_filename (cpu_dir, name, NULL);
      char *data;
      gsize len;
      g_assert_true (g_file_get_contents (p, &data, &len, NULL));
      g_ptr_array_add (datas, data);
      g_ptr_array_add (names, g_build_filename (cpu_live, name, NULL));
      g_array_append_val (sizes, len);
      max_blocks = MAX (max_blocks, len / 4096);
    }
  g_assert_cmpuint (max_blocks, >, 4);
  GPtrArray *files = g_ptr_array_new ();
  for (guint i = 0; i < names->len; i++)
    {
      FILE *f = fopen (g_ptr_array_index (names, i), "wb");
      g_assert_nonnull (f);
      g_assert_cmpuint (fwrite (g_ptr_array_index (datas, i), 1, 4096, f), ==, 4096);
      fflush (f);
      g_ptr_array_add (files, f);
    }

  GPid pid = ttv_test_follow_start (TTV_REPORT_PATH, live, out_path, NULL);
  gsize seen_midway = 0;
  for (gsize b = 1; b < max_blocks; b++)
    {
      for (guint i = 0; i < files->len; i++)
        if ((b + 1) * 4096 <= g_array_index (sizes, gsize, i))
          {
            FILE *f = g_ptr_array_index (files, i);
            g_assert_cmpuint (fwrite ((char *) g_ptr_array_index (datas, i) + b * 4096, 1, 4096, f), ==, 4096);
            fflush (f);
          }
      g_usleep (60000);
      if (b == max_blocks / 2)
        seen_midway = ttv_test_follow_midway (out_path);
    }
  for (guint i = 0; i < files->len; i++)
    fclose (g_ptr_array_index (files, i));
  g_ptr_array_unref (files);
  g_array_unref (sizes);
  ttv_test_follow_stop (pid, 400);
  /* Output came while the trace grew, and in the end every event once, in order. */
  ttv_test_follow_assert_complete (TTV_REPORT_PATH, trace_dir, out_path, seen_midway);
}

/* --follow refuses an archive (extracted once, it cannot grow: the report
 * would wait forever), and does not warn at start about a last block that
 * is still being written, which a plain read reports. */
static void
test_follow_start (void)
{
  g_autofree char *archive = g_build_filename (ttv_test_get_tmp_dir (), "t.tar.gz", NULL);
  g_autofree char *err = NULL;
  g_autofree char *bin = g_path_get_dirname (TTV_REPORT_PATH);
  g_autofree char *gen = g_build_filename (bin, "ttv-gen", NULL);
  const char *argv[] = { gen, "-q", "--events", "2000", "-o", archive, NULL };
  int status;
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, &status, NULL));
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_cmpint (report (NULL, &err, "--follow", archive, NULL), ==, 2);
  g_assert_nonnull (strstr (err, "is an archive, which cannot grow"));

  /* A copy whose first CPU file ends in the middle of a block. */
  g_autofree char *live = g_build_filename (ttv_test_get_tmp_dir (), "partial", NULL);
  const char *const sub[] = { "info", "eventdefs", "control", "cpu" };
  for (guint i = 0; i < G_N_ELEMENTS (sub); i++)
    {
      g_autofree char *a = g_build_filename (trace_dir, sub[i], NULL), *b = g_build_filename (live, sub[i], NULL);
      ttv_test_copy_dir (a, b);
    }
  g_autofree char *cpu0 = g_build_filename (live, "cpu", "0", NULL);
  g_autofree char *data = NULL;
  gsize len;
  g_assert_true (g_file_get_contents (cpu0, &data, &len, NULL));
  g_assert_true (g_file_set_contents (cpu0, data, (gssize) (len - 100), NULL));
  g_clear_pointer (&err, g_free);
  /* Read as it is, the partial block's events are lost: exit 1. */
  g_assert_cmpint (report (NULL, &err, "-n", "1", live, NULL), ==, 1);
  g_assert_nonnull (strstr (err, "truncated"));
  g_autofree char *out_path = g_build_filename (ttv_test_get_tmp_dir (), "partial.txt", NULL);
  g_autofree char *err_path = g_build_filename (ttv_test_get_tmp_dir (), "partial.err", NULL);
  GPid pid = ttv_test_follow_start (TTV_REPORT_PATH, live, out_path, err_path);
  ttv_test_follow_wait_output (out_path);
  /* The rest of the block arrives: it is read. */
  g_assert_true (g_file_set_contents (cpu0, data, (gssize) len, NULL));
  ttv_test_follow_stop (pid, 400);
  g_autofree char *follow_err = NULL;
  g_assert_true (g_file_get_contents (err_path, &follow_err, NULL, NULL));
  g_assert_null (strstr (follow_err, "truncated"));
  ttv_test_follow_assert_complete (TTV_REPORT_PATH, trace_dir, out_path, 1);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  make_trace ();
  g_test_add_func ("/report/include-exclude", test_include_exclude);
  g_test_add_func ("/report/event-ids", test_event_ids);
  g_test_add_func ("/report/silent-results", test_silent_results);
  g_test_add_func ("/report/process-thread", test_process_thread);
  g_test_add_func ("/report/columns", test_columns);
  g_test_add_func ("/report/columns-all", test_columns_all);
  g_test_add_func ("/report/two-line", test_two_line);
  g_test_add_func ("/report/process-pid", test_process_pid);
  g_test_add_func ("/report/time-window", test_time_window);
  g_test_add_func ("/report/list-groups", test_list_groups);
  g_test_add_func ("/report/timer", test_timer);
  g_test_add_func ("/report/format-file", test_format_file);
  g_test_add_func ("/report/format-default", test_format_default);
  g_test_add_func ("/report/filter", test_filter);
  g_test_add_func ("/report/userspace-process", test_userspace_process);
  g_test_add_func ("/report/follow", test_follow);
  g_test_add_func ("/report/follow-start", test_follow_start);
  int status = g_test_run ();
  g_free (trace_dir);
  return status;
}
