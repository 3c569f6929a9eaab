/* test-userspace-report.c: the Functions view (issue 18) in a real window
 * under Xvfb shows what `ttv-report --analysis callstack` prints for the
 * same interval, on the recorded glxgears trace of ../shared: every
 * function's calls, total and self time, minimum, mean, maximum and
 * percentiles, over the whole trace and then over a selection (calls cut
 * by it counted with their part inside, as the report does). */
#include "ttv-config.h"

#include "ttv-gui-test-util.h"
#include "ttv-test-util.h"

#include <string.h>

/* The view's columns (modules/userspace/ttv-functions-view.c): the
 * function, then calls and durations in ns (-1: none), then the location. */
enum { COL_FUNCTION, COL_CALLS, COL_TOTAL, COL_SELF, COL_MIN, COL_MEAN, COL_MAX, COL_P50, COL_P90, COL_P99 };

static const char *const modules[] = { TTV_USERSPACE_MODULE_PATH, NULL };

/* The raw value of @key in the flat JSON object @line, or NULL. */
static char *
json_raw (const char *line, const char *key)
{
  g_autofree char *pattern = g_strdup_printf ("\"%s\":", key);
  const char *p = strstr (line, pattern);
  if (p == NULL)
    return NULL;
  p += strlen (pattern);
  const char *e = p;
  if (*p == '"')
    for (e = p + 1; *e && *e != '"'; e++)
      e += *e == '\\' && e[1];
  while (*e && *e != ',' && *e != '}')
    e++;
  return g_strndup (p, (gsize) (e - p));
}

/* One function as the report gives it: its name and the view's numbers. */
typedef struct {
  char *name;
  gint64 values[COL_P99 - COL_CALLS + 1];
} Function;

static void
function_clear (gpointer data)
{
  g_free (((Function *) data)->name);
}

/* `ttv-report TRACE --analysis callstack [--start S --end E]`'s functions. */
static GArray *
report_functions (const char *trace, const char *start, const char *end)
{
  const char *argv[] = { TTV_REPORT_PATH, trace, "--analysis", "callstack", "--format=jsonl", "--no-cache",
                         start ? "--start" : NULL, start, "--end", end, NULL };
  g_autofree char *out = ttv_test_run_ok (argv);
  g_auto (GStrv) lines = g_strsplit (out, "\n", -1);
  GArray *functions = g_array_new (FALSE, TRUE, sizeof (Function));
  g_array_set_clear_func (functions, function_clear);
  static const char *const keys[] = { "calls", "total_ns", "self_ns", "min_ns", "mean_ns", "max_ns",
                                      "p50_ns", "p90_ns", "p99_ns" };
  for (guint i = 0; lines[i]; i++)
    {
      if (!g_str_has_prefix (lines[i], "{\"type\":\"function\""))
        continue;
      Function f = { 0 };
      g_autofree char *name = json_raw (lines[i], "name");
      f.name = g_strndup (name + 1, strlen (name) - 2);
      for (guint k = 0; k < G_N_ELEMENTS (keys); k++)
        {
          g_autofree char *raw = json_raw (lines[i], keys[k]);
          g_assert_nonnull (raw);
          /* The mean has decimals in the report; the view keeps whole ns. */
          f.values[k] = (gint64) g_ascii_strtod (raw, NULL);
        }
      g_array_append_val (functions, f);
    }
  return functions;
}

typedef struct {
  GtkTreeModel *model;
  GArray *want;
  GString *why;      /* the last difference seen */
} Compare;

/* TRUE when the view's rows are the report's functions, value for value;
 * else says the first difference in c->why. */
static gboolean
view_equals_report (gpointer data)
{
  Compare *c = data;
  g_string_truncate (c->why, 0);
  guint n = (guint) gtk_tree_model_iter_n_children (c->model, NULL);
  if (n != c->want->len)
    {
      g_string_printf (c->why, "%u rows in the view, %u functions in the report", n, c->want->len);
      return FALSE;
    }
  for (guint i = 0; i < c->want->len; i++)
    {
      const Function *f = &g_array_index (c->want, Function, i);
      gboolean found = FALSE;
      GtkTreeIter it;
      for (gboolean ok = gtk_tree_model_get_iter_first (c->model, &it); ok && !found;
           ok = gtk_tree_model_iter_next (c->model, &it))
        {
          g_autofree char *name = NULL;
          gtk_tree_model_get (c->model, &it, COL_FUNCTION, &name, -1);
          if (g_strcmp0 (name, f->name) != 0)
            continue;
          found = TRUE;
          for (gint col = COL_CALLS; col <= COL_P99; col++)
            {
              gint64 shown;
              gtk_tree_model_get (c->model, &it, col, &shown, -1);
              gint64 want = f->values[col - COL_CALLS];
              /* The mean: the report's truncated, the view's rounded. */
              gboolean same = col == COL_MEAN ? shown - want >= -1 && shown - want <= 1 : shown == want;
              if (!same)
                {
                  g_string_printf (c->why, "%s, column %d: %" G_GINT64_FORMAT " in the view, %" G_GINT64_FORMAT
                                   " in the report", f->name, col, shown, want);
                  return FALSE;
                }
            }
        }
      if (!found)
        {
          g_string_printf (c->why, "%s is not in the view", f->name);
          return FALSE;
        }
    }
  return TRUE;
}

static gboolean
equal_or_late (gpointer data)
{
  Compare *c = data;
  return view_equals_report (c) || GPOINTER_TO_INT (g_object_get_data (G_OBJECT (c->model), "late"));
}

static gboolean
mark_late (gpointer model)
{
  g_object_set_data (model, "late", GINT_TO_POINTER (1));
  return G_SOURCE_REMOVE;
}

/* Waits (at most 30 s: the view computes in a worker thread) until the
 * view shows @want, and fails with the last difference if it never does. */
static void
assert_view_shows (GtkTreeModel *model, GArray *want)
{
  g_autoptr (GString) why = g_string_new (NULL);
  Compare c = { model, want, why };
  g_object_set_data (G_OBJECT (model), "late", NULL);
  guint timer = g_timeout_add_seconds (30, mark_late, model);
  ttv_gui_test_spin_until (equal_or_late, &c);
  if (!GPOINTER_TO_INT (g_object_get_data (G_OBJECT (model), "late")))
    g_source_remove (timer);
  if (!view_equals_report (&c))
    g_error ("the Functions view differs from ttv-report --analysis callstack: %s", why->str);
}

static void
test_functions (void)
{
  g_autofree char *trace = ttv_test_dup_shared_ctf_trace ("glxgears-ust");
  if (trace == NULL)
    return;
  TtvGuiTestTab f;
  ttv_gui_test_tab_setup_path (&f, trace, modules);
  gtk_window_resize (GTK_WINDOW (f.window), 1200, 800);
  g_assert_true (ttv_tab_show_viewer (f.tab, "functions"));
  ttv_gui_test_spin_pending ();
  GtkWidget *view = ttv_gui_test_viewer (f.tab, "functions");
  g_assert_nonnull (view);
  GtkWidget *table = ttv_gui_test_find_widget (view, GTK_TYPE_TREE_VIEW, "functions-table");
  g_assert_nonnull (table);
  GtkTreeModel *model = gtk_tree_view_get_model (GTK_TREE_VIEW (table));

  /* The whole trace: its time window when nothing is selected. */
  g_autoptr (GArray) whole = report_functions (trace, NULL, NULL);
  g_assert_cmpuint (whole->len, >, 5);
  assert_view_shows (model, whole);

  /* Two seconds selected, from 1.4 s after the start: the calls cut by
   * the selection count with their part inside. */
  TtvTime t0 = ttv_traceset_get_start (f.ts) + 1400000000;
  TtvTime t1 = t0 + 2000000000;
  char start[32], end[32];
  ttv_time_to_string (t0, start, sizeof start);
  ttv_time_to_string (t1, end, sizeof end);
  g_autoptr (GArray) part = report_functions (trace, start, end);
  g_assert_cmpuint (part->len, >, 0);
  TtvTabState *state = ttv_tab_get_state (f.tab);
  ttv_tab_state_set_selection (state, t0, t1);
  assert_view_shows (model, part);
  ttv_gui_test_tab_teardown (&f);
}

int
main (int argc, char **argv)
{
  gtk_test_init (&argc, &argv, NULL);
  g_test_add_func ("/gui/userspace/functions-vs-report", test_functions);
  return g_test_run ();
}
