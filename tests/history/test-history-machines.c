/* test-history-machines.c: the state history of a traceset of several
 * machines (issue 19, docs/multi-machine.md): two generated traces of
 * different hosts, with the same pids and different CPU counts, opened
 * together have each machine's rows and intervals equal to those of its
 * trace opened alone, in memory and through the cache file; a cache file
 * of the version before machines is rebuilt, one with a bad machine
 * refused. */
#include "ttv-history-test-util.h"

#include "ttv-error.h"

#include <string.h>

#ifndef TTV_GEN_PATH
#error "TTV_GEN_PATH must be defined by the build"
#endif

typedef struct {
  char *alpha;     /* LTT, host alpha, 2 CPUs */
  char *beta;      /* CTF, host beta, 3 CPUs, starts 0.5 ms later, the same pids */
} Traces;

static Traces traces;

static void
generate (const char *out, const char *format, const char *host, const char *seed, const char *cpus,
          const char *start)
{
  ttv_test_generate_machine (TTV_GEN_PATH, out, format, host, seed, cpus, start);
}

static TtvTraceset *
open_traces (const char *a, const char *b)
{
  g_autoptr (GError) error = NULL;
  TtvTraceset *ts = ttv_traceset_new ();
  g_assert_true (ttv_traceset_add_path (ts, a, &error));
  g_assert_no_error (error);
  if (b)
    {
      g_assert_true (ttv_traceset_add_path (ts, b, &error));
      g_assert_no_error (error);
    }
  return ts;
}

static TtvHistory *
build (const char *a, const char *b)
{
  g_autoptr (TtvTraceset) ts = open_traces (a, b);
  return ttv_history_test_build (ts, 0, TRUE, NULL);
}

/* Row @i of @both (of @machine) is row @j of @alone: the same task or
 * resource, intervals and marks. */
static void
assert_same_row (TtvHistory *both, TtvHistory *alone, TtvHistoryRowKind kind, guint i, guint j,
                 guint machine)
{
  const TtvHistoryRowInfo *a = ttv_history_get_row (both, kind, i);
  const TtvHistoryRowInfo *b = ttv_history_get_row (alone, kind, j);
  g_assert_cmpuint (a->machine, ==, machine);
  g_assert_cmpuint (b->machine, ==, 0);
  g_assert_cmpuint (a->id, ==, b->id);
  g_assert_cmpint (a->cpu, ==, b->cpu);
  g_assert_cmpuint (a->tgid, ==, b->tgid);
  g_assert_cmpuint (a->ppid, ==, b->ppid);
  g_assert_cmpstr (a->name, ==, b->name);
  g_assert_cmpint (a->birth, ==, b->birth);
  g_assert_cmpint (a->end, ==, b->end);
  g_assert_cmpint (a->dead, ==, b->dead);
  g_assert_cmpint (a->cpu_time, ==, b->cpu_time);
  g_assert_cmpuint (a->n_events, ==, b->n_events);
  g_assert_cmpuint (a->n_marks, ==, b->n_marks);
  g_autoptr (GArray) ia = ttv_history_query_intervals (both, kind, i, TTV_TIME_MIN, TTV_TIME_MAX);
  g_autoptr (GArray) ib = ttv_history_query_intervals (alone, kind, j, TTV_TIME_MIN, TTV_TIME_MAX);
  g_assert_cmpuint (ia->len, ==, ib->len);
  g_assert_cmpuint (ia->len, >, 0);
  g_assert_cmpmem (ia->data, ia->len * sizeof (TtvHistoryInterval), ib->data, ib->len * sizeof (TtvHistoryInterval));
  if (kind != TTV_HISTORY_ROW_PROCESS)
    return;
  g_autoptr (GArray) ma = ttv_history_query_marks (both, i, TTV_TIME_MIN, TTV_TIME_MAX);
  g_autoptr (GArray) mb = ttv_history_query_marks (alone, j, TTV_TIME_MIN, TTV_TIME_MAX);
  g_assert_cmpuint (ma->len, ==, mb->len);
  for (guint k = 0; k < ma->len; k++)
    {
      const TtvHistoryMark *x = &g_array_index (ma, TtvHistoryMark, k);
      const TtvHistoryMark *y = &g_array_index (mb, TtvHistoryMark, k);
      g_assert_cmpint (x->time, ==, y->time);
      g_assert_cmpint (x->kind, ==, y->kind);
      g_assert_cmpuint (x->other, ==, y->other);
      g_assert_cmpstr (x->name, ==, y->name);
      g_assert_cmpint (x->cpu, ==, y->cpu);
    }
}

/* Machine @machine of @both holds exactly the rows of @alone; returns its
 * process rows. */
static guint
assert_machine (TtvHistory *both, TtvHistory *alone, guint machine)
{
  g_assert_cmpuint (ttv_history_get_n_machines (alone), ==, 1);
  for (TtvHistoryRowKind kind = 0; kind < TTV_HISTORY_ROW_N_KINDS; kind++)
    {
      guint first = G_MAXUINT;
      guint n = ttv_history_get_machine_rows (both, kind, machine, &first);
      g_assert_cmpuint (n, ==, ttv_history_get_n_rows (alone, kind));
      for (guint j = 0; j < n; j++)
        assert_same_row (both, alone, kind, first + j, j, machine);
    }
  return ttv_history_get_n_rows (alone, TTV_HISTORY_ROW_PROCESS);
}

/* The rows of @h are grouped by machine, 0 then 1, within each kind. */
static void
assert_grouped (TtvHistory *h)
{
  for (TtvHistoryRowKind kind = 0; kind < TTV_HISTORY_ROW_N_KINDS; kind++)
    {
      guint first0, first1;
      guint n0 = ttv_history_get_machine_rows (h, kind, 0, &first0);
      guint n1 = ttv_history_get_machine_rows (h, kind, 1, &first1);
      g_assert_cmpuint (first0, ==, 0);
      g_assert_cmpuint (first1, ==, n0);
      g_assert_cmpuint (n0 + n1, ==, ttv_history_get_n_rows (h, kind));
    }
}

/* When row @row begins its first interval. */
static TtvTime
first_start (TtvHistory *h, guint row)
{
  g_autoptr (GArray) iv = ttv_history_query_intervals (h, TTV_HISTORY_ROW_PROCESS, row, TTV_TIME_MIN, TTV_TIME_MAX);
  g_assert_cmpuint (iv->len, >, 0);
  return g_array_index (iv, TtvHistoryInterval, 0).start;
}

static void
test_per_machine (void)
{
  g_autoptr (TtvHistory) both = build (traces.alpha, traces.beta);
  g_autoptr (TtvHistory) alpha = build (traces.alpha, NULL);
  g_autoptr (TtvHistory) beta = build (traces.beta, NULL);

  g_assert_cmpuint (ttv_history_get_n_machines (both), ==, 2);
  assert_grouped (both);
  g_assert_cmpuint (assert_machine (both, alpha, 0), >, 10);
  g_assert_cmpuint (assert_machine (both, beta, 1), >, 10);
  g_assert_cmpuint (ttv_history_get_n_rows (both, TTV_HISTORY_ROW_CPU), ==, 5);

  /* A pid of both machines is two rows, each its machine's, found by
   * (machine, pid); the third CPU is beta's only. */
  guint n_shared = 0;
  for (guint j = 0; j < ttv_history_get_n_rows (alpha, TTV_HISTORY_ROW_PROCESS); j++)
    {
      const TtvHistoryRowInfo *ra = ttv_history_get_row (alpha, TTV_HISTORY_ROW_PROCESS, j);
      gint k = ra->id ? ttv_history_find_process (beta, 0, ra->id, -1, TTV_TIME_MIN) : -1;
      if (k < 0)
        continue;
      TtvTime ta = first_start (alpha, j), tb = first_start (beta, (guint) k);
      gint in_alpha = ttv_history_find_row (both, TTV_HISTORY_ROW_PROCESS, 0, ra->id, -1, ta);
      gint in_beta = ttv_history_find_row (both, TTV_HISTORY_ROW_PROCESS, 1, ra->id, -1, tb);
      g_assert_cmpint (in_alpha, >=, 0);
      g_assert_cmpint (in_beta, >=, 0);
      g_assert_cmpint (in_alpha, !=, in_beta);
      g_assert_cmpuint (ttv_history_get_row (both, TTV_HISTORY_ROW_PROCESS, (guint) in_alpha)->machine, ==, 0);
      g_assert_cmpuint (ttv_history_get_row (both, TTV_HISTORY_ROW_PROCESS, (guint) in_beta)->machine, ==, 1);
      g_assert_cmpint (ttv_history_find_process (both, 1, ra->id, -1, tb), ==, in_beta);
      g_assert_cmpint (ttv_history_find_process (both, 0, ra->id, -1, ta), ==, in_alpha);
      n_shared++;
    }
  g_assert_cmpuint (n_shared, >, 3);
  const TtvHistoryRowInfo *last = ttv_history_get_row (both, TTV_HISTORY_ROW_CPU, 4);
  g_assert_cmpuint (last->machine, ==, 1);
  g_assert_cmpuint (last->id, ==, 2);
  TtvTime t = last->end - 1;
  g_assert_cmpint (ttv_history_find_row (both, TTV_HISTORY_ROW_CPU, 0, 2, -1, t), ==, -1);
  g_assert_cmpint (ttv_history_find_row (both, TTV_HISTORY_ROW_CPU, 1, 2, -1, t), ==, 4);
  /* Each CPU's idle task is its machine's. */
  g_assert_cmpint (ttv_history_find_row (both, TTV_HISTORY_ROW_PROCESS, 0, 0, 2, t), ==, -1);
  gint idle = ttv_history_find_row (both, TTV_HISTORY_ROW_PROCESS, 1, 0, 2, t);
  g_assert_cmpint (idle, >=, 0);
  g_assert_cmpuint (ttv_history_get_row (both, TTV_HISTORY_ROW_PROCESS, (guint) idle)->machine, ==, 1);

  /* The other order: beta is machine 0. */
  g_autoptr (TtvHistory) swapped = build (traces.beta, traces.alpha);
  assert_machine (swapped, beta, 0);
  assert_machine (swapped, alpha, 1);
}

/* A file image's header and first row of machine 1, with the checksum
 * made right after a change. */
static void
save_damaged (const char *path, const char *contents, gsize size, guint32 version, guint32 machine)
{
  g_autofree char *copy = g_memdup2 (contents, size);
  TtvHistoryHeader *hd = (TtvHistoryHeader *) copy;
  TtvHistoryRow *rows = (TtvHistoryRow *) (copy + hd->rows_offset);
  hd->version = version;
  for (guint64 i = 0; i < hd->n_rows; i++)
    if (rows[i].machine == 1)
      {
        rows[i].machine = machine;
        break;
      }
  ttv_history_test_fix_checksum (copy, size);
  g_assert_true (g_file_set_contents (path, copy, (gssize) size, NULL));
}

static void
test_cache (void)
{
  g_autofree char *cache_dir = g_build_filename (ttv_test_get_tmp_dir (), "cache", NULL);
  g_autoptr (TtvTraceset) ts = open_traces (traces.alpha, traces.beta);
  g_autoptr (TtvHistory) built = ttv_history_test_build (ts, 0, FALSE, cache_dir);
  g_assert_false (ttv_history_is_from_cache (built));
  const char *path = ttv_history_get_cache_path (built);
  g_assert_nonnull (path);
  g_autofree char *saved = g_strdup (path);

  /* Reloaded from its file: the same machines and rows. */
  g_autoptr (TtvHistory) loaded = ttv_history_test_build (ts, 0, FALSE, cache_dir);
  g_assert_true (ttv_history_is_from_cache (loaded));
  g_assert_cmpuint (ttv_history_get_n_machines (loaded), ==, 2);
  g_autoptr (TtvHistory) alpha = build (traces.alpha, NULL);
  g_autoptr (TtvHistory) beta = build (traces.beta, NULL);
  assert_machine (loaded, alpha, 0);
  assert_machine (loaded, beta, 1);
  ttv_history_test_assert_same (built, loaded);

  g_autofree char *contents = NULL;
  gsize size = 0;
  g_assert_true (g_file_get_contents (saved, &contents, &size, NULL));
  g_autofree char *fingerprint = ttv_history_fingerprint (ts);

  /* A row of a machine the traceset has not: refused, naming the row. */
  save_damaged (saved, contents, size, TTV_HISTORY_VERSION, 9);
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvHistory) bad = ttv_history_cache_load_full (saved, fingerprint, &error);
  g_assert_null (bad);
  g_assert_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_CORRUPT);
  g_assert_nonnull (strstr (error->message, "bad row at byte"));
  g_clear_error (&error);

  /* A file of the version before machines (rows without them) is not
   * misread but rebuilt, and replaced. */
  save_damaged (saved, contents, size, 5, 1);
  g_autoptr (TtvHistory) old = ttv_history_cache_load_full (saved, fingerprint, &error);
  g_assert_null (old);
  g_assert_nonnull (strstr (error->message, "not a state history of this version"));
  g_autoptr (TtvHistory) rebuilt = ttv_history_test_build (ts, 0, FALSE, cache_dir);
  g_assert_false (ttv_history_is_from_cache (rebuilt));
  ttv_history_test_assert_same (built, rebuilt);
  g_autoptr (TtvHistory) again = ttv_history_test_build (ts, 0, FALSE, cache_dir);
  g_assert_true (ttv_history_is_from_cache (again));
  ttv_history_test_assert_same (built, again);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  traces.alpha = ttv_test_dup_tmp_path ("alpha");
  traces.beta = ttv_test_dup_tmp_path ("beta");
  generate (traces.alpha, "ltt", "alpha", "1", "2", "1700000000");
  generate (traces.beta, "ctf", "beta", "2", "3", "1700000000.0005");
  g_test_add_func ("/history/machines/per-machine", test_per_machine);
  g_test_add_func ("/history/machines/cache", test_cache);
  int status = g_test_run ();
  g_free (traces.alpha);
  g_free (traces.beta);
  return status;
}
