/* test-damage-promise.c: the exit-status promise on damaged traces.  The
 * generator (ttv-damage-gen.c) damages small traces of each format (ttv-gen's,
 * CTF 2 included, the committed tests/data ones, and real CTF traces of
 * ../shared, cut short): cuts, bit flips, sizes of zero, files that are not
 * files, missing files.  Each variant is read as ttv-report reads it: damage
 * that loses events must fail the reading or mark the trace damaged
 * (ttv_trace_is_damaged), and a reading that says nothing must deliver
 * every event and no more; reading on past damage must end.  Then
 * ttv-report itself, in every output mode, on a variant of each kind. */
#include "ttv-context.h"
#include "ttv-damage-gen.h"
#include "ttv-test-util.h"
#include "ttv-trace-damage.h"

#include <string.h>

static const char *tmp_base;   /* the program's temporary directory */

typedef struct {
  const char *format;   /* of the generator: ltt, lttng, ctf */
  const char *name;     /* of the test */
  char *dir;            /* owned: the good trace (NULL for a shared one until its test) */
  const char *shared;   /* NULL, or the trace of ../shared/traces to copy short into @dir */
  gsize max_stream_bytes;
  guint n_flips;        /* per tracefile, in the library test */
} Input;

static void
gen (const char *format, const char *dir)
{
  const char *argv[] = { TTV_GEN_PATH, "-q", "-f", format, "-n", "600", "-c", "2", "-b", "2048",
                         "-o", dir, NULL };
  g_free (ttv_test_run_ok (argv));
}

/* A shared input's good trace: the real trace cut short into the test's
 * folder (FALSE, the test skipped, when ../shared is absent). */
static gboolean
prepare (Input *in)
{
  if (in->shared == NULL)
    return TRUE;
  g_autofree char *src = ttv_test_dup_shared_trace (in->shared);
  if (src == NULL)
    return FALSE;
  g_autoptr (GError) error = NULL;
  g_clear_pointer (&in->dir, g_free);
  in->dir = ttv_test_dup_tmp_path ("good");
  g_assert_true (ttv_damage_copy_short (src, in->dir, in->max_stream_bytes, &error));
  g_assert_no_error (error);
  return TRUE;
}

/* Damage that removes files: the messages name what is missing. */
static gboolean
removes_files (const TtvDamageVariant *v)
{
  return v->kind == TTV_DAMAGE_MISSING || v->kind == TTV_DAMAGE_EMPTIED;
}

/* What ttv-report finds in a trace: whether it opens, the events read
 * before reading stops at damage (or all of them, skipping damage), and
 * whether it calls the trace damaged. */
typedef struct {
  gboolean opened;
  gboolean read_failed;
  gboolean damaged;
  guint64 n_events;
  char *warnings;       /* owned: the trace's warnings, one a line */
} Reading;

static void
reading_clear (Reading *r)
{
  g_clear_pointer (&r->warnings, g_free);
}
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Reading, reading_clear)

static Reading
read_trace (const char *dir, gboolean skip_damage, guint64 max_events)
{
  Reading r = { 0 };
  g_autoptr (GError) error = NULL;
  TtvTrace *t = ttv_trace_open (dir, &error);
  if (t == NULL)
    return r;
  r.opened = TRUE;
  g_ptr_array_add (t->warnings, NULL);
  r.warnings = g_strjoinv ("\n", (char **) t->warnings->pdata);
  g_ptr_array_remove_index (t->warnings, t->warnings->len - 1);
  g_autoptr (TtvTraceset) ts = ttv_traceset_new ();
  ttv_traceset_add_trace (ts, t);
  ttv_trace_set_skip_damage (t, skip_damage);
  TtvContext *ctx = ttv_context_new (ts, &error);
  if (ctx == NULL || !ttv_context_seek_begin (ctx, &error))
    r.read_failed = TRUE;
  while (!r.read_failed && r.n_events < max_events)
    {
      if (ttv_context_next (ctx, &error))
        r.n_events++;
      else
        {
          r.read_failed = error != NULL;
          break;
        }
    }
  ttv_context_free (ctx);
  r.damaged = ttv_trace_is_damaged (t, FALSE);
  return r;
}

static guint n_checked;

static void
check_variant (const Input *in, const TtvDamageVariant *v, guint64 n_good)
{
  g_autofree char *dir = g_build_filename (tmp_base, "variant", NULL);
  g_autoptr (GError) error = NULL;
  ttv_test_remove_tree (dir);
  g_assert_true (ttv_damage_write (in->dir, v, dir, &error));
  g_assert_no_error (error);

  /* Plain reading: stops at damage or says the trace is damaged. */
  g_auto (Reading) plain = read_trace (dir, FALSE, G_MAXUINT64);
  gboolean said = !plain.opened || plain.read_failed || plain.damaged;
  if (v->only_warned && !said)
    {
      g_autofree char *file = g_build_filename (dir, v->file, NULL);
      if (strstr (plain.warnings, file) == NULL)
        g_error ("%s: %s: no warning names %s", in->dir, v->name, file);
      said = TRUE;
    }
  if (v->loses_events && !said)
    g_error ("%s: %s: %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " events read, and nothing says "
             "that the trace is damaged", in->dir, v->name, plain.n_events, n_good);
  if (removes_files (v) && plain.opened)
    {
      g_autofree char *file = g_build_filename (dir, v->file, NULL);
      if (strstr (plain.warnings, file) == NULL)
        g_error ("%s: %s: no warning names %s:\n%s", in->dir, v->name, file, plain.warnings);
    }
  if (!said && plain.n_events != n_good)
    g_error ("%s: %s: %" G_GUINT64_FORMAT " events read instead of %" G_GUINT64_FORMAT
             ", and nothing says that the trace is damaged", in->dir, v->name, plain.n_events, n_good);

  /* Reading on past damage ends (a loop would deliver events without end)
   * and still calls the trace damaged. */
  g_auto (Reading) on = read_trace (dir, TRUE, 4 * n_good + 1000);
  if (on.opened && on.n_events > 4 * n_good)
    g_error ("%s: %s: reading on past damage does not end", in->dir, v->name);
  g_assert_false (on.read_failed);
  if (said && !v->only_warned && on.opened && !on.damaged)
    g_error ("%s: %s: read on past damage, the trace is not called damaged", in->dir, v->name);
  n_checked++;
  ttv_test_remove_tree (dir);
}

static void
test_library (gconstpointer data)
{
  Input *in = (Input *) data;
  if (!prepare (in))
    return;
  g_auto (Reading) good = read_trace (in->dir, FALSE, G_MAXUINT64);
  g_assert_true (good.opened);
  g_assert_false (good.read_failed);
  g_assert_false (good.damaged);
  g_assert_cmpuint (good.n_events, >, 100);
  g_autoptr (GPtrArray) variants = ttv_damage_list (in->dir, in->format, 20240601, in->n_flips);
  n_checked = 0;
  for (guint i = 0; i < variants->len; i++)
    {
      check_variant (in, variants->pdata[i], good.n_events);
    }
  g_test_message ("%s: %u damaged variants", in->dir, n_checked);
}

/* --- ttv-report ----------------------------------------------------------------- */

/* The lines of a report but its lost-events marks ("--- N events lost
 * ... ---"): a flipped bit in a packet's discarded-events counter is a
 * trace that says it lost events, which the report shows, not damage. */
static guint
count_lines (const char *text)
{
  /* Line by line, within each line: strstr over the whole rest of a long
   * report (as g_strsplit does) is quadratic under ASan, whose strstr
   * measures the whole haystack at each call. */
  guint n = 0;
  for (const char *line = text, *nl; (nl = strchr (line, '\n')); line = nl + 1)
    {
      gssize len = nl - line;
      n += !(g_strstr_len (line, len, " --- ") && g_strstr_len (line, len, " lost "));
    }
  return n;
}

/* Runs ttv-report with @mode's options on @dir (a minute at most: more is
 * a loop). */
static void
run_report (TtvTestRun *r, const char *const *mode, const char *dir)
{
  static char *timeout;
  if (timeout == NULL)
    timeout = g_find_program_in_path ("timeout");
  g_assert_nonnull (timeout);
  const char *argv[16] = { timeout, "60", TTV_REPORT_PATH };
  guint n = 3;
  for (; *mode; mode++)
    argv[n++] = *mode;
  argv[n++] = dir;
  argv[n] = NULL;
  ttv_test_run (r, NULL, NULL, argv);
  if (r->status == 124)
    g_error ("ttv-report %s: does not end", dir);
}

/* The output modes: those that print a line per event first, then those
 * that print tables from the events, then those that read no event (the
 * babeltrace form is run on CTF only). */
static const char *const modes[][4] = {
  { NULL },
  { "--keep-going", NULL },
  { "-f", "jsonl", NULL },
  { "--state", NULL },
  { "--keep-going", "--state", NULL },
  { "-f", "babeltrace", NULL },
  { "--stats", NULL },
  { "--keep-going", "--stats", NULL },
  { "--state-at", "+0.001", NULL },
  { "--info", NULL },
  { "-j", NULL },
};
#define FIRST_MODE_WITHOUT_LINES 6
#define FIRST_MODE_WITHOUT_EVENTS 9

/* Damage the readers find while opening (not by reading events). */
static gboolean
found_at_open (const TtvDamageVariant *v)
{
  return v->kind != TTV_DAMAGE_FLIP && v->kind != TTV_DAMAGE_EQUAL_TIMES;
}

static gboolean
mode_applies (const Input *in, guint m)
{
  return !g_strv_contains (modes[m], "babeltrace") || strcmp (in->format, "ctf") == 0;
}

static void
test_report (gconstpointer data)
{
  Input *in = (Input *) data;
  if (!prepare (in))
    return;
  g_autoptr (GPtrArray) variants = ttv_damage_list (in->dir, in->format, 20240601, 2);
  g_autofree char *dir = g_build_filename (tmp_base, "report-variant", NULL);
  gboolean kind_seen[TTV_DAMAGE_N_KINDS] = { FALSE };
  guint good_lines[G_N_ELEMENTS (modes)];

  for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
    {
      g_auto (TtvTestRun) r;
      if (!mode_applies (in, m))
        continue;
      run_report (&r, modes[m], in->dir);
      g_assert_cmpint (r.status, ==, 0);
      good_lines[m] = count_lines (r.out);
    }
  for (guint i = 0; i < variants->len; i++)
    {
      const TtvDamageVariant *v = variants->pdata[i];
      if (kind_seen[v->kind])
        continue;
      kind_seen[v->kind] = TRUE;
      g_autoptr (GError) error = NULL;
      ttv_test_remove_tree (dir);
      g_assert_true (ttv_damage_write (in->dir, v, dir, &error));
      /* Every mode on the kinds that reach the readers' deepest paths;
       * the plain and --keep-going reports on the others. */
      gboolean all_modes = v->kind == TTV_DAMAGE_TRUNCATE || v->kind == TTV_DAMAGE_ZERO
                           || v->kind == TTV_DAMAGE_FIFO || v->kind == TTV_DAMAGE_EQUAL_TIMES;
      for (guint m = 0; m < (all_modes ? G_N_ELEMENTS (modes) : 2); m++)
        {
          g_auto (TtvTestRun) r;
          if (!mode_applies (in, m))
            continue;
          run_report (&r, modes[m], dir);
          g_autofree char *opts = g_strjoinv (" ", (char **) modes[m]);
          gboolean must_fail = v->loses_events && (m < FIRST_MODE_WITHOUT_EVENTS || found_at_open (v));
          if (must_fail && r.status == 0)
            g_error ("ttv-report %s on %s (%s): exit 0 after losing events", opts, in->dir, v->name);
          if (v->only_warned && r.status == 0 && strstr (r.err, "warning: ") == NULL)
            g_error ("ttv-report %s on %s (%s): no warning", opts, in->dir, v->name);
          /* A report that says nothing printed every event (tables change
           * with values, which a flipped bit may change without loss). */
          if (r.status == 0 && !v->only_warned && m < FIRST_MODE_WITHOUT_LINES && count_lines (r.out) != good_lines[m])
            g_error ("ttv-report %s on %s (%s): exit 0 with %u lines instead of %u", opts, in->dir, v->name,
                     count_lines (r.out), good_lines[m]);
          if (r.status != 0 && r.status != 1)
            g_error ("ttv-report %s on %s (%s): exit %d", opts, in->dir, v->name, r.status);
          /* Whatever was lost is named on stderr. */
          if (r.status == 1 && strstr (r.err, "ttv-report: ") == NULL)
            g_error ("ttv-report %s on %s (%s): exit 1 without a word", opts, in->dir, v->name);
          g_autofree char *file = g_build_filename (dir, v->file, NULL);
          if (removes_files (v) && strstr (r.err, file) == NULL)
            g_error ("ttv-report %s on %s (%s): %s is not named:\n%s", opts, in->dir, v->name, file, r.err);
        }
    }
  ttv_test_remove_tree (dir);
}

/* Real traces of ../shared/traces, cut short to keep the test fast (also
 * under ASan): packetized metadata (ctf/), big-endian, LTTng indexes,
 * CTF 2.  ctf/arm64-kernel's packets (200 KiB) cannot be cut short. */
static const struct {
  const char *name, *path;
  gsize max_stream_bytes;
  gboolean report;      /* ttv-report runs on it too */
} shared[] = {
  { "scp-kernel", "ctf/scp-kernel", 48 * 1024, FALSE },
  { "bigendian-kernel", "ctf/bigendian-kernel", 48 * 1024, TRUE },
  { "bt2-trace-with-index", "bt2-suite/succeed/trace-with-index", 32 * 1024, FALSE },
  { "glxgears-ust", "ctf/glxgears-ust", 32 * 1024, FALSE },
  { "ctf2-trace-with-index", "ctf2/trace-with-index", 32 * 1024, TRUE },
};

static void
add_tests (Input *in, gboolean report)
{
  g_autofree char *path = g_strdup_printf ("/damage/promise/library/%s", in->name);
  g_test_add_data_func (path, in, test_library);
  if (!report)
    return;
  g_autofree char *rpath = g_strdup_printf ("/damage/promise/report/%s", in->name);
  g_test_add_data_func (rpath, in, test_report);
}

int
main (int argc, char **argv)
{
  /* ttv-gen's formats, and the generator's format for each. */
  static const char *const generated[][3] = {
    { "ltt", "ltt", "ttv-gen-ltt" }, { "lttng", "lttng", "ttv-gen-lttng" }, { "ctf", "ctf", "ttv-gen-ctf" },
    { "ctf2", "ctf", "ttv-gen-ctf2" },
  };
  static const char *const committed[][2] = {
    { "ltt", "small-ltt" }, { "ltt", "small-ltt-be32" }, { "lttng", "small-lttng" },
  };
  const guint n_inputs = G_N_ELEMENTS (generated) + G_N_ELEMENTS (committed) + G_N_ELEMENTS (shared);
  int ret;

  g_test_init (&argc, &argv, NULL);
  tmp_base = ttv_test_get_tmp_dir ();
  Input *all = g_new0 (Input, n_inputs), *in = all;
  for (guint i = 0; i < G_N_ELEMENTS (generated); i++, in++)
    {
      in->format = generated[i][1];
      in->name = generated[i][2];
      in->dir = g_build_filename (tmp_base, generated[i][0], NULL);
      in->n_flips = 8;
      gen (generated[i][0], in->dir);
      add_tests (in, TRUE);
    }
  for (guint i = 0; i < G_N_ELEMENTS (committed); i++, in++)
    {
      in->format = committed[i][0];
      in->name = committed[i][1];
      in->dir = g_build_filename (TTV_TEST_SRCDIR, "data", "traces", "good", committed[i][1], NULL);
      in->n_flips = 8;
      add_tests (in, FALSE);
    }
  for (guint i = 0; i < G_N_ELEMENTS (shared); i++, in++)
    {
      in->format = "ctf";
      in->name = shared[i].name;
      in->shared = shared[i].path;
      in->max_stream_bytes = shared[i].max_stream_bytes;
      in->n_flips = 4;
      add_tests (in, shared[i].report);
    }
  ret = g_test_run ();
  for (guint i = 0; i < n_inputs; i++)
    g_free (all[i].dir);
  g_free (all);
  return ret;
}
