/* ttv-callstack-report.c: ttv-report --analysis callstack: the threads,
 * the binaries and their symbols, function statistics and the call tree
 * as text or JSON lines, and the flame graph as folded stacks
 * ("prog;main;work 1200": self time in ns per call path, what
 * flamegraph.pl and speedscope read). */
#include "ttv-callstack-private.h"

#include "ttv-analysis-output.h"
#include "ttv-error.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>

typedef struct {
  const TtvCallstack *cs;
  TtvTime t0, t1;
  GArray *nodes;                /* of TtvCallstackNodeStats */
  GArray *functions;            /* of TtvCallstackFunctionStats */
  GArray *only;                 /* of guint: the threads reported (--tid), NULL: all */
  gboolean machines;            /* several machines: the threads and functions name theirs */
} Report;

static const char *
machine_name (const Report *r, guint machine)
{
  return ttv_traceset_get_machine_name_if_several (r->cs->traceset, machine);
}

/* The machine column's heading when the report has one, else NULL. */
static const char *
machine_heading (const Report *r, const char *heading)
{
  return r->machines ? heading : NULL;
}

static void
json_machine (const Report *r, guint machine, GString *out)
{
  const char *name = machine_name (r, machine);
  if (name)
    ttv_json_append_member_string (out, TTV_ANALYSIS_MACHINE_COLUMN, name);
}

static gboolean
reported (const Report *r, guint thread)
{
  if (r->only == NULL)
    return TRUE;
  for (guint i = 0; i < r->only->len; i++)
    if (g_array_index (r->only, guint, i) == thread)
      return TRUE;
  return FALSE;
}

static char *
duration (TtvTime t)
{
  return t < 0 ? g_strdup ("-") : ttv_time_dup_duration (t);
}

static char *
location (const TtvCallstackFunction *f)
{
  if (f->file)
    {
      const char *base = strrchr (f->file, '/');
      return g_strdup_printf ("%s:%u", base ? base + 1 : f->file, f->line);
    }
  return g_strdup (f->binary ? f->binary : "");
}

static void
text_threads (const Report *r, GString *out, guint max_rows)
{
  const char *headings[] = { _(">TID"), _(">PID"), _("THREAD"), _(">CALLS"), _(">DEPTHS"), _("TIME IN CALLS") };
  g_autoptr (TtvTable) table = ttv_table_new_after (machine_heading (r, _("MACHINE")), G_N_ELEMENTS (headings),
                                                    headings);
  for (guint i = 0; i < r->cs->threads->len; i++)
    {
      if (!reported (r, i))
        continue;
      const Thread *t = g_ptr_array_index (r->cs->threads, i);
      g_autoptr (GArray) only = g_array_new (FALSE, FALSE, sizeof (guint));
      g_array_append_val (only, i);
      g_autoptr (GArray) stats = ttv_callstack_dup_node_stats (r->cs, r->t0, r->t1, only);
      TtvTime in_calls = g_array_index (stats, TtvCallstackNodeStats, t->root).total;
      GPtrArray *row = ttv_table_row_new (machine_name (r, t->pub.machine));
      g_ptr_array_add (row, t->pub.tid == TTV_PID_NONE ? g_strdup ("?") : g_strdup_printf ("%u", t->pub.tid));
      g_ptr_array_add (row, t->pub.pid == TTV_PID_NONE ? g_strdup ("?") : g_strdup_printf ("%u", t->pub.pid));
      g_ptr_array_add (row, g_strdup (t->pub.name));
      g_ptr_array_add (row, g_strdup_printf ("%" G_GUINT64_FORMAT, t->pub.n_calls));
      g_ptr_array_add (row, g_strdup_printf ("%u", t->pub.n_depths));
      g_ptr_array_add (row, duration (in_calls));
      ttv_table_add_row_take (table, row);
    }
  g_string_append_printf (out, _("Threads:\n"));
  ttv_table_append_text (table, out, "  ", max_rows);
}

static void
text_functions (const Report *r, GString *out, guint max_rows)
{
  const char *headings[] = { _("FUNCTION"), _(">CALLS"), _(">TOTAL"), _(">SELF"), _(">MIN"), _(">MEAN"),
                             _(">MAX"), _(">P50"), _(">P90"), _(">P99"), _("LOCATION") };
  g_autoptr (TtvTable) table = ttv_table_new_after (machine_heading (r, _("MACHINE")), G_N_ELEMENTS (headings),
                                                    headings);
  for (guint i = 0; i < r->functions->len; i++)
    {
      const TtvCallstackFunctionStats *s = &g_array_index (r->functions, TtvCallstackFunctionStats, i);
      const TtvCallstackFunction *f = ttv_callstack_get_function (r->cs, s->function);
      GPtrArray *row = ttv_table_row_new (machine_name (r, f->machine));
      g_ptr_array_add (row, g_strdup (f->name));
      g_ptr_array_add (row, g_strdup_printf ("%" G_GUINT64_FORMAT, s->calls));
      g_ptr_array_add (row, duration (s->total));
      g_ptr_array_add (row, duration (s->self));
      g_ptr_array_add (row, duration (s->min));
      g_ptr_array_add (row, s->min < 0 ? g_strdup ("-") : duration ((TtvTime) (s->mean + 0.5)));
      g_ptr_array_add (row, duration (s->max));
      g_ptr_array_add (row, duration (s->p50));
      g_ptr_array_add (row, duration (s->p90));
      g_ptr_array_add (row, duration (s->p99));
      g_ptr_array_add (row, location (f));
      ttv_table_add_row_take (table, row);
    }
  g_string_append (out, _("\nFunctions, by total time (MIN to P99: calls wholly in the interval):\n"));
  ttv_table_append_text (table, out, "  ", max_rows);
}

/* The call tree, depth first, children by total time. */
static void
tree_rows (const Report *r, GPtrArray *children, guint32 node, TtvTable *table)
{
  const TtvCallstackNode *n = ttv_callstack_get_node (r->cs, node);
  const TtvCallstackNodeStats *s = &g_array_index (r->nodes, TtvCallstackNodeStats, node);
  if (n->function != G_MAXUINT32 && s->calls == 0)
    return;
  GPtrArray *row = g_ptr_array_new ();
  g_autofree char *indent = g_strnfill (2 * n->depth, ' ');
  g_ptr_array_add (row, g_strconcat (indent, n->name, NULL));
  g_ptr_array_add (row, n->function == G_MAXUINT32 ? g_strdup ("")
                                                   : g_strdup_printf ("%" G_GUINT64_FORMAT, s->calls));
  g_ptr_array_add (row, duration (s->total));
  g_ptr_array_add (row, n->function == G_MAXUINT32 ? g_strdup ("") : duration (s->self));
  ttv_table_add_row_take (table, row);
  GArray *kids = g_ptr_array_index (children, node);
  for (guint i = 0; kids && i < kids->len; i++)
    tree_rows (r, children, g_array_index (kids, guint32, i), table);
}

static gint
compare_by_total (gconstpointer a, gconstpointer b, gpointer data)
{
  const GArray *stats = data;
  TtvTime x = g_array_index (stats, TtvCallstackNodeStats, *(const guint32 *) a).total;
  TtvTime y = g_array_index (stats, TtvCallstackNodeStats, *(const guint32 *) b).total;
  return x > y ? -1 : x < y;
}

/* Per node, its children (GArray of guint32, by total time), or NULL. */
static GPtrArray *
children_of (const Report *r)
{
  GPtrArray *children = g_ptr_array_new_full (r->cs->nodes->len, ttv_callstack_free_array);
  g_ptr_array_set_size (children, r->cs->nodes->len);
  for (guint32 i = 0; i < r->cs->nodes->len; i++)
    {
      guint32 parent = ttv_callstack_get_node (r->cs, i)->parent;
      if (parent == G_MAXUINT32)
        continue;
      GArray *kids = g_ptr_array_index (children, parent);
      if (kids == NULL)
        kids = children->pdata[parent] = g_array_new (FALSE, FALSE, sizeof (guint32));
      g_array_append_val (kids, i);
    }
  for (guint32 i = 0; i < children->len; i++)
    if (children->pdata[i])
      g_array_sort_with_data (children->pdata[i], compare_by_total, r->nodes);
  return children;
}

static void
text_tree (const Report *r, GString *out, guint max_rows)
{
  const char *headings[] = { _("CALL PATH"), _(">CALLS"), _(">TOTAL"), _(">SELF") };
  g_autoptr (TtvTable) table = ttv_table_new (G_N_ELEMENTS (headings), headings);
  g_autoptr (GPtrArray) children = children_of (r);
  for (guint32 i = 0; i < r->cs->nodes->len; i++)
    if (ttv_callstack_get_node (r->cs, i)->parent == G_MAXUINT32)
      tree_rows (r, children, i, table);
  g_string_append (out, _("\nCall tree (processes, then calls; TOTAL of a process: its threads' time in calls):\n"));
  ttv_table_append_text (table, out, "  ", max_rows);
}

typedef struct {
  guint machine;
  const char *path;             /* as recorded */
  const char *found;            /* where its symbols come from, or why none */
} BinaryRow;

/* The binaries the report lists: with one machine every binary the
 * symbolizer met, as before machines; with several, each machine's that
 * its traced functions lie in (one path may be two files, one per
 * machine), machine by machine. */
static GArray *
binary_rows (const Report *r)
{
  g_autoptr (GPtrArray) paths = g_ptr_array_new ();
  g_autoptr (GPtrArray) found = g_ptr_array_new ();
  ttv_symbolizer_list_binaries (r->cs->symbolizer, paths, found);
  GArray *rows = g_array_new (FALSE, FALSE, sizeof (BinaryRow));
  if (!r->machines)
    for (guint i = 0; i < paths->len; i++)
      {
        BinaryRow row = { 0, g_ptr_array_index (paths, i), g_ptr_array_index (found, i) };
        g_array_append_val (rows, row);
      }
  else
    for (guint i = 0; i < r->cs->machine_binaries->len; i++)
      {
        guint64 pair = g_array_index (r->cs->machine_binaries, guint64, i);
        guint binary = (guint) (pair & G_MAXUINT32);
        BinaryRow row = { (guint) (pair >> 32), g_ptr_array_index (paths, binary), g_ptr_array_index (found, binary) };
        g_array_append_val (rows, row);
      }
  return rows;
}

static void
text_binaries (const Report *r, GString *out)
{
  g_autoptr (GArray) rows = binary_rows (r);
  if (rows->len == 0)
    {
      g_string_append (out, ttv_symbolizer_has_binaries (r->cs->symbolizer)
                              ? _("\nSymbols: no traced function lies in a binary the trace describes.\n")
                              : _("\nSymbols: the trace describes no binary (record the lttng_ust_statedump "
                                  "and lttng_ust_dl events for names): addresses stay in hex.\n"));
      return;
    }
  const char *headings[] = { _("BINARY"), _("SYMBOLS FROM") };
  g_autoptr (TtvTable) table = ttv_table_new_after (machine_heading (r, _("MACHINE")), G_N_ELEMENTS (headings),
                                                    headings);
  for (guint i = 0; i < rows->len; i++)
    {
      const BinaryRow *b = &g_array_index (rows, BinaryRow, i);
      GPtrArray *row = ttv_table_row_new (machine_name (r, b->machine));
      g_ptr_array_add (row, g_strdup (b->path));
      g_ptr_array_add (row, g_strdup (b->found));
      ttv_table_add_row_take (table, row);
    }
  g_string_append (out, _("\nBinaries of the traced functions:\n"));
  ttv_table_append_text (table, out, "  ", 0);
}

static void
write_text (const Report *r, const TtvAnalysisOptions *options, GString *out)
{
  g_autofree char *span = duration (r->t1 - r->t0);
  guint n_threads = 0;
  guint64 n_calls = 0;
  for (guint i = 0; i < r->cs->threads->len; i++)
    if (reported (r, i))
      {
        n_threads++;
        n_calls += ((const Thread *) g_ptr_array_index (r->cs->threads, i))->pub.n_calls;
      }
  g_string_append_printf (out, _("Call stacks over %s: "), span);
  g_string_append_printf (out, g_dngettext (GETTEXT_PACKAGE, "%u thread", "%u threads", n_threads), n_threads);
  g_string_append_printf (out, g_dngettext (GETTEXT_PACKAGE, ", %" PRIu64 " call", ", %" PRIu64 " calls",
                                            (gulong) MIN (n_calls, G_MAXULONG)), n_calls);
  if (r->cs->n_mismatches)
    g_string_append_printf (out, _(", %" PRIu64 " exits without their entry on the stack (lost "
                                   "events or longjmp)"), (guint64) r->cs->n_mismatches);
  g_string_append (out, "\n");
  if (r->cs->threads->len == 0)
    {
      g_string_append (out, _("No lttng_ust_cyg_profile events: trace a program built with "
                              "-finstrument-functions under LD_PRELOAD=liblttng-ust-cyg-profile.so.\n"));
      return;
    }
  text_threads (r, out, options->max_rows);
  text_functions (r, out, options->max_rows);
  text_tree (r, out, options->max_rows);
  text_binaries (r, out);
}

static void
jsonl_function (const Report *r, const TtvCallstackFunctionStats *s, GString *out)
{
  const TtvCallstackFunction *f = ttv_callstack_get_function (r->cs, s->function);
  g_autofree char *addr = g_strdup_printf ("0x%" G_GINT64_MODIFIER "x", f->addr);
  g_string_append (out, "{\"type\":\"function\"");
  json_machine (r, f->machine, out);
  ttv_json_append_member_string (out, "name", f->name);
  ttv_json_append_member_string (out, "address", addr);
  g_string_append_printf (out, ",\"resolved\":%s", f->resolved ? "true" : "false");
  ttv_json_append_member_string (out, "file", f->file);
  ttv_json_append_member_int (out, "line", f->line);
  ttv_json_append_member_string (out, "binary", f->binary);
  ttv_json_append_member_int (out, "calls", (gint64) s->calls);
  ttv_json_append_member_int (out, "incomplete", (gint64) s->incomplete);
  ttv_json_append_member_int (out, "total_ns", s->total);
  ttv_json_append_member_int (out, "self_ns", s->self);
  ttv_json_append_member_int (out, "min_ns", s->min);
  ttv_json_append_member_double (out, "mean_ns", s->min < 0 ? -1 : s->mean);
  ttv_json_append_member_int (out, "max_ns", s->max);
  ttv_json_append_member_int (out, "p50_ns", s->p50);
  ttv_json_append_member_int (out, "p90_ns", s->p90);
  ttv_json_append_member_int (out, "p99_ns", s->p99);
  g_string_append (out, "}\n");
}

static void
jsonl_node (const Report *r, guint32 node, GString *out)
{
  const TtvCallstackNodeStats *s = &g_array_index (r->nodes, TtvCallstackNodeStats, node);
  const TtvCallstackNode *n = ttv_callstack_get_node (r->cs, node);
  if (n->function != G_MAXUINT32 && s->calls == 0)
    return;
  g_string_append (out, "{\"type\":\"node\",\"path\":[");
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  for (guint32 a = node; a != G_MAXUINT32; a = ttv_callstack_get_node (r->cs, a)->parent)
    g_ptr_array_add (names, (gpointer) ttv_callstack_get_node (r->cs, a)->name);
  for (guint i = names->len; i-- > 0;)
    {
      ttv_json_append_string (out, g_ptr_array_index (names, i), -1);
      if (i > 0)
        g_string_append_c (out, ',');
    }
  g_string_append_c (out, ']');
  ttv_json_append_member_int (out, "calls", (gint64) s->calls);
  ttv_json_append_member_int (out, "incomplete", (gint64) s->incomplete);
  ttv_json_append_member_int (out, "total_ns", s->total);
  ttv_json_append_member_int (out, "self_ns", s->self);
  g_string_append (out, "}\n");
}

static void
write_jsonl (const Report *r, GString *out)
{
  g_string_append (out, "{\"type\":\"summary\"");
  ttv_json_append_member_int (out, "start", r->t0);
  ttv_json_append_member_int (out, "end", r->t1);
  ttv_json_append_member_int (out, "threads", r->cs->threads->len);
  ttv_json_append_member_int (out, "calls", (gint64) r->cs->n_calls);
  ttv_json_append_member_int (out, "mismatched_exits", (gint64) r->cs->n_mismatches);
  g_string_append (out, "}\n");
  for (guint i = 0; i < r->cs->threads->len; i++)
    {
      if (!reported (r, i))
        continue;
      const Thread *t = g_ptr_array_index (r->cs->threads, i);
      g_string_append (out, "{\"type\":\"thread\"");
      json_machine (r, t->pub.machine, out);
      ttv_json_append_member_int (out, "tid", t->pub.tid == TTV_PID_NONE ? -1 : (gint64) t->pub.tid);
      ttv_json_append_member_int (out, "pid", t->pub.pid == TTV_PID_NONE ? -1 : (gint64) t->pub.pid);
      ttv_json_append_member_string (out, "name", t->pub.name);
      ttv_json_append_member_int (out, "calls", (gint64) t->pub.n_calls);
      ttv_json_append_member_int (out, "depths", t->pub.n_depths);
      ttv_json_append_member_int (out, "first", t->pub.first);
      ttv_json_append_member_int (out, "last", t->pub.last);
      g_string_append (out, "}\n");
    }
  g_autoptr (GArray) binaries = binary_rows (r);
  for (guint i = 0; i < binaries->len; i++)
    {
      const BinaryRow *b = &g_array_index (binaries, BinaryRow, i);
      g_string_append (out, "{\"type\":\"binary\"");
      json_machine (r, b->machine, out);
      ttv_json_append_member_string (out, "path", b->path);
      ttv_json_append_member_string (out, "symbols", b->found);
      g_string_append (out, "}\n");
    }
  for (guint i = 0; i < r->functions->len; i++)
    jsonl_function (r, &g_array_index (r->functions, TtvCallstackFunctionStats, i), out);
  for (guint32 i = 0; i < r->cs->nodes->len; i++)
    jsonl_node (r, i, out);
}

/* flamegraph.pl splits frames on ';' and the count off the last space. */
static void
append_frame (GString *out, const char *name)
{
  for (const char *c = name; *c; c++)
    g_string_append_c (out, *c == ';' || *c == '\n' ? '_' : *c);
}

static void
write_folded (const Report *r, GString *out)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  for (guint32 i = 0; i < r->cs->nodes->len; i++)
    {
      const TtvCallstackNodeStats *s = &g_array_index (r->nodes, TtvCallstackNodeStats, i);
      if (ttv_callstack_get_node (r->cs, i)->function == G_MAXUINT32 || s->self <= 0)
        continue;
      g_ptr_array_set_size (names, 0);
      for (guint32 a = i; a != G_MAXUINT32; a = ttv_callstack_get_node (r->cs, a)->parent)
        g_ptr_array_add (names, (gpointer) ttv_callstack_get_node (r->cs, a)->name);
      for (guint k = names->len; k-- > 0;)
        {
          append_frame (out, g_ptr_array_index (names, k));
          g_string_append_c (out, k > 0 ? ';' : ' ');
        }
      g_string_append_printf (out, "%" G_GINT64_FORMAT "\n", s->self);
    }
}

/* The function statistics as CSV. */
static void
write_csv (const Report *r, GString *out)
{
  const char *headings[] = { "function", "address", "file", "line", "binary", "calls", "incomplete", "total_ns",
                             "self_ns", "min_ns", "mean_ns", "max_ns", "p50_ns", "p90_ns", "p99_ns" };
  g_autoptr (TtvTable) table = ttv_table_new_after (machine_heading (r, TTV_ANALYSIS_MACHINE_COLUMN),
                                                    G_N_ELEMENTS (headings), headings);
  for (guint i = 0; i < r->functions->len; i++)
    {
      const TtvCallstackFunctionStats *s = &g_array_index (r->functions, TtvCallstackFunctionStats, i);
      const TtvCallstackFunction *f = ttv_callstack_get_function (r->cs, s->function);
      GPtrArray *row = ttv_table_row_new (machine_name (r, f->machine));
      g_ptr_array_add (row, g_strdup (f->name));
      g_ptr_array_add (row, g_strdup_printf ("0x%" G_GINT64_MODIFIER "x", f->addr));
      g_ptr_array_add (row, g_strdup (f->file ? f->file : ""));
      g_ptr_array_add (row, f->line ? g_strdup_printf ("%u", f->line) : g_strdup (""));
      g_ptr_array_add (row, g_strdup (f->binary ? f->binary : ""));
      g_ptr_array_add (row, g_strdup_printf ("%" G_GUINT64_FORMAT, s->calls));
      g_ptr_array_add (row, g_strdup_printf ("%" G_GUINT64_FORMAT, s->incomplete));
      const TtvTime values[] = { s->total, s->self, s->min, (TtvTime) (s->mean + 0.5), s->max, s->p50, s->p90,
                                 s->p99 };
      for (guint k = 0; k < G_N_ELEMENTS (values); k++)
        g_ptr_array_add (row, s->min < 0 && k >= 2 ? g_strdup ("") : g_strdup_printf ("%" G_GINT64_FORMAT, values[k]));
      ttv_table_add_row_take (table, row);
    }
  ttv_table_append_csv (table, out);
}

/* --tid: the threads of @tid, on the machine named @machine (NULL: any).
 * A tid may name a thread on each of several machines, and a vtid one in
 * each of several PID namespaces: each of them.  NULL when none. */
static GArray *
threads_of_tid (const TtvCallstack *cs, guint32 tid, const char *machine)
{
  GArray *only = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint i = 0; i < cs->threads->len; i++)
    {
      const Thread *t = g_ptr_array_index (cs->threads, i);
      const char *its = ttv_traceset_get_machine_name (cs->traceset, t->pub.machine);
      if (t->pub.tid == tid && (machine == NULL || g_strcmp0 (its, machine) == 0))
        g_array_append_val (only, i);
    }
  if (only->len == 0)
    g_clear_pointer (&only, g_array_unref);
  return only;
}

gboolean
ttv_callstack_write (gpointer self, TtvAnalysisFormat format, const TtvAnalysisOptions *options,
                     GString *out, GError **error)
{
  TtvCallstack *cs = self;
  Report r = { cs, 0, 0, NULL, NULL, NULL, ttv_traceset_get_n_machines (cs->traceset) > 1 };
  ttv_analysis_options_get_range (options, cs->traceset, &r.t0, &r.t1);
  if (options->one_thread)
    {
      r.only = threads_of_tid (cs, options->tid, options->machine);
      if (r.only == NULL)
        {
          if (options->machine)
            g_set_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT,
                         _("--tid %s:%u: no thread %u of machine %s made calls in the traces"), options->machine,
                         options->tid, options->tid, options->machine);
          else
            g_set_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT,
                         _("--tid %u: no thread %u made calls in the trace"), options->tid, options->tid);
          return FALSE;
        }
    }
  r.nodes = ttv_callstack_dup_node_stats (cs, r.t0, r.t1, r.only);
  r.functions = ttv_callstack_dup_function_stats (cs, r.t0, r.t1, r.only);
  if (format == TTV_ANALYSIS_FORMAT_TEXT)
    write_text (&r, options, out);
  else if (format == TTV_ANALYSIS_FORMAT_JSONL)
    write_jsonl (&r, out);
  else if (format == TTV_ANALYSIS_FORMAT_CSV)
    write_csv (&r, out);
  else
    write_folded (&r, out);
  g_array_unref (r.nodes);
  g_array_unref (r.functions);
  if (r.only)
    g_array_unref (r.only);
  return TRUE;
}
