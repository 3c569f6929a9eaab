/* test-trace-span.c: a trace's time span is its first and last events, not
 * the bounds of the packets the tracer opened before and closed after them
 * (10 and 30 seconds away on the real arm64 and scp traces): against a full
 * read made here, on the real CTF traces and on simulated LTT, LTTng 0.x and
 * CTF traces; found without a full read (a damaged middle packet does not
 * matter); and printed so by ttv-report --info. */
#include "ttv-state-test-util.h"
#include "ttv-context.h"

#include <glib/gstdio.h>

#include <string.h>
#include <sys/wait.h>

typedef struct {
  GArray *first, *last;    /* of TtvTime, by tracefile */
  gboolean failed;         /* the read stopped on an error */
} FullRead;

static void
full_read_clear (FullRead *r)
{
  g_array_unref (r->first);
  g_array_unref (r->last);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (FullRead, full_read_clear)

/* Per tracefile, its earliest and latest event, by reading every event. */
static void
full_read (TtvTraceset *ts, FullRead *r)
{
  guint n = ttv_traceset_get_n_tracefiles (ts);
  GArray *first = r->first = g_array_sized_new (FALSE, FALSE, sizeof (TtvTime), n);
  GArray *last = r->last = g_array_sized_new (FALSE, FALSE, sizeof (TtvTime), n);
  g_array_set_size (first, n);
  g_array_set_size (last, n);
  for (guint i = 0; i < n; i++)
    {
      g_array_index (first, TtvTime, i) = TTV_TIME_MAX;
      g_array_index (last, TtvTime, i) = TTV_TIME_MIN;
    }
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvContext) ctx = ttv_context_new (ts, &error);
  g_assert_no_error (error);
  g_assert_true (ttv_context_seek_begin (ctx, &error));
  const TtvEvent *ev;
  while ((ev = ttv_context_next (ctx, &error)))
    {
      guint i;
      for (i = 0; i < n && ttv_traceset_get_tracefile (ts, i) != ev->tracefile; i++)
        ;
      g_assert_cmpuint (i, <, n);
      TtvTime *f = &g_array_index (first, TtvTime, i), *l = &g_array_index (last, TtvTime, i);
      *f = MIN (*f, ev->time);
      *l = MAX (*l, ev->time);
    }
  r->failed = error != NULL;
}

static TtvTraceset *
open_traceset (const char *path)
{
  g_autoptr (GError) error = NULL;
  TtvTraceset *ts = ttv_traceset_new ();
  if (!ttv_traceset_add_path (ts, path, &error))
    g_error ("%s: %s", path, error->message);
  return ts;
}

/* What --info prints on its "start" and "end" lines. */
static void
info_span (const char *path, char **start, char **end)
{
  const char *argv[] = { TTV_REPORT_PATH, "--info", path, NULL };
  g_autofree char *out = NULL;
  int status;
  g_autoptr (GError) error = NULL;
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out,
                               NULL, &status, &error));
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
  *start = *end = NULL;
  g_auto (GStrv) lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      g_auto (GStrv) w = g_strsplit_set (lines[i], " ", -1);
      if (w[0] == NULL || w[1] == NULL)
        continue;
      guint k = 1;
      while (w[k] && !*w[k])
        k++;
      if (w[k] == NULL)
        continue;
      if (g_str_equal (w[0], "start") && *start == NULL)
        *start = g_strdup (w[k]);
      else if (g_str_equal (w[0], "end") && *end == NULL)
        *end = g_strdup (w[k]);
    }
  g_assert_nonnull (*start);
  g_assert_nonnull (*end);
}

/* The span of @path against a full read; returns the traceset's span. */
static void
check_span (const char *path, TtvTime *start, TtvTime *end)
{
  g_autoptr (TtvTraceset) ts = open_traceset (path);
  g_auto (FullRead) r = { NULL };
  full_read (ts, &r);
  g_assert_false (r.failed);
  GArray *first = r.first, *last = r.last;
  TtvTime min = TTV_TIME_MAX, max = TTV_TIME_MIN;
  for (guint i = 0; i < first->len; i++)
    {
      const TtvTracefile *tf = ttv_traceset_get_tracefile (ts, i);
      g_assert_cmpint (tf->first_event, ==, g_array_index (first, TtvTime, i));
      g_assert_cmpint (tf->last_event, ==, g_array_index (last, TtvTime, i));
      min = MIN (min, g_array_index (first, TtvTime, i));
      max = MAX (max, g_array_index (last, TtvTime, i));
    }
  g_assert_cmpint (ttv_traceset_get_start (ts), ==, min);
  g_assert_cmpint (ttv_traceset_get_end (ts), ==, max);
  const TtvTrace *trace = ttv_traceset_get_trace (ts, 0);
  g_assert_cmpint (trace->start, ==, min);
  g_assert_cmpint (trace->end, ==, max);
  /* The packet bounds stay known. */
  g_assert_cmpint (trace->packets_start, <=, min);
  g_assert_cmpint (trace->packets_end, >=, max);

  char b1[32], b2[32];
  g_autofree char *s = NULL, *e = NULL;
  info_span (path, &s, &e);
  g_assert_cmpstr (s, ==, ttv_time_to_string (min, b1, sizeof b1));
  g_assert_cmpstr (e, ==, ttv_time_to_string (max, b2, sizeof b2));
  g_test_message ("%s: events %s .. %s, packets %" G_GINT64_FORMAT " ns before, %" G_GINT64_FORMAT " ns after",
                  path, b1, b2, min - trace->packets_start, trace->packets_end - max);
  *start = min;
  *end = max;
}

static void
test_real (gconstpointer data)
{
  g_autofree char *path = ttv_test_dup_shared_ctf_trace (data);
  if (path == NULL)
    return;
  TtvTime start, end;
  check_span (path, &start, &end);
}

/* The real arm64 trace's packets begin 10 s before its first event: the
 * span must not start there. */
static void
test_real_arm64_gap (void)
{
  g_autofree char *path = ttv_test_dup_shared_ctf_trace ("arm64-kernel");
  if (path == NULL)
    return;
  g_autoptr (TtvTraceset) ts = open_traceset (path);
  const TtvTrace *trace = ttv_traceset_get_trace (ts, 0);
  g_assert_cmpint (ttv_traceset_get_start (ts) - trace->packets_start, >, 5 * TTV_NSEC_PER_SEC);
  g_assert_cmpint (trace->packets_end - ttv_traceset_get_end (ts), >, 5 * TTV_NSEC_PER_SEC);
}

#define BLOCK 4096

static void
write_trace (TtvTestFormat format, const char *dir)
{
  TtvSimOptions so;
  ttv_sim_options_init (&so);
  so.seed = 13;
  so.n_cpus = 2;
  so.n_processes = 20;
  so.max_events = 30000;
  ttv_state_test_write_sim (dir, format, &so, TTV_BYTE_ORDER_LITTLE, BLOCK);
}

/* The largest regular file below @dir (a CPU's stream). */
static char *
largest_stream (const char *dir)
{
  g_autoptr (GPtrArray) todo = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (todo, g_strdup (dir));
  char *best = NULL;
  goffset best_size = 0;
  while (todo->len > 0)
    {
      g_autofree char *d = g_ptr_array_steal_index (todo, todo->len - 1);
      g_autoptr (GDir) gd = g_dir_open (d, 0, NULL);
      const char *name;
      while (gd && (name = g_dir_read_name (gd)))
        {
          g_autofree char *p = g_build_filename (d, name, NULL);
          GStatBuf st;
          if (g_stat (p, &st) != 0)
            continue;
          if (S_ISDIR (st.st_mode))
            g_ptr_array_add (todo, g_steal_pointer (&p));
          else if (st.st_size > best_size && !g_str_has_suffix (name, ".xml") && strcmp (name, "metadata") != 0)
            {
              best_size = st.st_size;
              g_free (best);
              best = g_steal_pointer (&p);
            }
        }
    }
  g_assert_nonnull (best);
  return best;
}

/* Garbage in the events of a middle block: a full read fails, the span is
 * found all the same (so it was found without reading that block). */
static void
damage_middle_block (const char *dir)
{
  g_autofree char *path = largest_stream (dir);
  g_autofree char *data = NULL;
  gsize len;
  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  g_assert_cmpuint (len, >=, 6 * BLOCK);
  gsize block = len / BLOCK / 2;
  memset (data + block * BLOCK + BLOCK / 4, 0xff, BLOCK / 2);
  g_assert_true (g_file_set_contents (path, data, (gssize) len, NULL));
}

static void
test_simulated (gconstpointer data)
{
  TtvTestFormat format = GPOINTER_TO_UINT (data);
  const char *tmp = ttv_test_get_tmp_dir ();
  g_autofree char *dir = g_build_filename (tmp, "trace", NULL);
  write_trace (format, dir);
  TtvTime start, end;
  check_span (dir, &start, &end);

  damage_middle_block (dir);
  g_autoptr (TtvTraceset) ts = open_traceset (dir);
  g_auto (FullRead) r = { NULL };
  full_read (ts, &r);
  g_assert_true (r.failed);
  g_assert_cmpint (ttv_traceset_get_start (ts), ==, start);
  g_assert_cmpint (ttv_traceset_get_end (ts), ==, end);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_data_func ("/trace/span/sim-ltt", GUINT_TO_POINTER (TTV_TEST_FORMAT_LTT), test_simulated);
  g_test_add_data_func ("/trace/span/sim-lttng", GUINT_TO_POINTER (TTV_TEST_FORMAT_LTTNG), test_simulated);
  g_test_add_data_func ("/trace/span/sim-ctf", GUINT_TO_POINTER (TTV_TEST_FORMAT_CTF), test_simulated);
  g_test_add_func ("/trace/span/ctf/arm64-kernel-gap", test_real_arm64_gap);
  g_test_add_data_func ("/trace/span/ctf/arm64-kernel", "arm64-kernel", test_real);
  g_test_add_data_func ("/trace/span/ctf/bigendian-kernel", "bigendian-kernel", test_real);
  g_test_add_data_func ("/trace/span/ctf/scp-kernel", "scp-kernel", test_real);
  g_test_add_data_func ("/trace/span/ctf/glxgears-ust", "glxgears-ust", test_real);
  return g_test_run ();
}
