/* test-ttv-gen.c: ttv-gen run as a user would: reproducible output, archives,
 * argument and I/O errors, and traces that the readers open. */
#include "ttv-test-util.h"
#include "ttv-archive.h"
#include "ttv-decoder.h"
#include "ttv-field-accessor.h"
#include "ttv-traceset.h"
#include "ttv-trace.h"

#include <glib/gstdio.h>
#include <string.h>

#ifndef TTV_GEN_PATH
#error "TTV_GEN_PATH must be defined by the build"
#endif

typedef struct {
  int status;           /* exit code */
  char *out;
  char *err;
} Run;

static void
run_clear (Run *r)
{
  g_free (r->out);
  g_free (r->err);
}

static Run
run_gen (const char *first, ...)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_ptr_array_add (argv, (gpointer) TTV_GEN_PATH);
  va_list ap;
  va_start (ap, first);
  for (const char *a = first; a; a = va_arg (ap, const char *))
    g_ptr_array_add (argv, (gpointer) a);
  va_end (ap);
  g_ptr_array_add (argv, NULL);

  Run r = { 0 };
  int wait_status = 0;
  g_autoptr (GError) error = NULL;
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                               &r.out, &r.err, &wait_status, &error));
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (wait_status));
  r.status = WEXITSTATUS (wait_status);
  if (g_test_verbose ())
    g_printerr ("exit %d\nstdout: %s\nstderr: %s\n", r.status, r.out, r.err);
  return r;
}

/* Relative paths of all files under @dir, sorted. */
static void
list_files (const char *root, const char *rel, GPtrArray *out)
{
  g_autofree char *dir = rel ? g_build_filename (root, rel, NULL) : g_strdup (root);
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *n;
  while (d && (n = g_dir_read_name (d)))
    {
      g_autofree char *child_rel = rel ? g_build_filename (rel, n, NULL) : g_strdup (n);
      g_autofree char *child = g_build_filename (root, child_rel, NULL);
      if (g_file_test (child, G_FILE_TEST_IS_DIR))
        list_files (root, child_rel, out);
      else
        g_ptr_array_add (out, g_steal_pointer (&child_rel));
    }
}

static gint
cmp_str (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* TRUE when both trees hold the same files with the same bytes. */
static gboolean
trees_equal (const char *a, const char *b)
{
  g_autoptr (GPtrArray) fa = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) fb = g_ptr_array_new_with_free_func (g_free);
  list_files (a, NULL, fa);
  list_files (b, NULL, fb);
  g_assert_cmpuint (fa->len, >, 0);
  if (fa->len != fb->len)
    return FALSE;
  g_ptr_array_sort (fa, cmp_str);
  g_ptr_array_sort (fb, cmp_str);
  for (guint i = 0; i < fa->len; i++)
    {
      if (strcmp (fa->pdata[i], fb->pdata[i]) != 0)
        return FALSE;
      g_autofree char *pa = g_build_filename (a, fa->pdata[i], NULL);
      g_autofree char *pb = g_build_filename (b, fb->pdata[i], NULL);
      g_autofree char *ca = NULL, *cb = NULL;
      gsize la, lb;
      g_assert_true (g_file_get_contents (pa, &ca, &la, NULL));
      g_assert_true (g_file_get_contents (pb, &cb, &lb, NULL));
      if (la != lb || memcmp (ca, cb, la) != 0)
        {
          if (g_test_verbose ())
            g_printerr ("differs: %s\n", (char *) fa->pdata[i]);
          return FALSE;
        }
    }
  return TRUE;
}

static void
test_determinism (void)
{
  const char *root = ttv_test_get_tmp_dir ();
  g_autofree char *a = g_build_filename (root, "a", NULL);
  g_autofree char *b = g_build_filename (root, "b", NULL);
  g_autofree char *c = g_build_filename (root, "c", NULL);
  const char *common[] = { "--cpu-ids", "0,1,2,4,6,7", "--processes", "30", "--events", "50000",
                           "--block-size", "4096" };
  Run r = run_gen (common[0], common[1], common[2], common[3], common[4], common[5], common[6],
                   common[7], "--seed", "5", "-o", a, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "wrote 50000 events"));
  run_clear (&r);
  r = run_gen (common[0], common[1], common[2], common[3], common[4], common[5], common[6],
               common[7], "--seed", "5", "-o", b, "-q", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==, "");
  run_clear (&r);
  r = run_gen (common[0], common[1], common[2], common[3], common[4], common[5], common[6],
               common[7], "--seed", "6", "-o", c, "-q", NULL);
  g_assert_cmpint (r.status, ==, 0);
  run_clear (&r);

  g_assert_true (trees_equal (a, b));
  g_assert_false (trees_equal (a, c));
  /* the sparse CPU ids give cpu files of those ids only */
  for (guint id = 0; id < 8; id++)
    {
      g_autofree char *name = g_strdup_printf ("cpu/%u", id);
      g_autofree char *p = g_build_filename (a, name, NULL);
      gboolean expected = id != 3 && id != 5;
      g_assert_true (g_file_test (p, G_FILE_TEST_EXISTS) == expected);
    }
}

/* Counts the events of @path's tracefiles through the format-neutral API.
 * The LTT reader keeps the control events (one per interrupt line, 4 by
 * default, and one per initial process) as trace state, not as a tracefile. */
static guint64
count_events (const char *path, TtvTrace **out_trace)
{
  g_autoptr (GError) error = NULL;
  TtvTrace *trace = ttv_trace_open (path, &error);
  g_assert_no_error (error);
  g_assert_nonnull (trace);
  guint64 n = 0;
  for (guint i = 0; i < trace->tracefiles->len; i++)
    {
      g_autoptr (TtvCursor) cur = ttv_cursor_new (trace->tracefiles->pdata[i], &error);
      g_assert_no_error (error);
      TtvEvent ev;
      TtvTime last = TTV_TIME_MIN;
      while (ttv_cursor_next (cur, &ev, &error))
        {
          g_assert_cmpint (ev.time, >=, last);
          last = ev.time;
          if (ev.type->facility == NULL || strcmp (ev.type->facility, "builtin") != 0)
            n++;
        }
      g_assert_no_error (error);
    }
  *out_trace = trace;
  return n;
}

static void
test_read_back (void)
{
  if (ttv_format_find ("ltt") == NULL)
    {
      g_test_skip ("the LTT reader is not registered");
      return;
    }
  const char *root = ttv_test_get_tmp_dir ();
  static const char * const arch[] = { "LP64", "ILP32", "LP32", "ILP64" };
  static const char * const endian[] = { "little", "big", "little", "big" };
  for (guint i = 0; i < G_N_ELEMENTS (arch); i++)
    {
      g_autofree char *dir = g_strdup_printf ("%s/t%u", root, i);
      Run r = run_gen ("--events", "20000", "--cpus", "3", "--processes", "20", "--arch-size", arch[i], "--endian",
                       endian[i], "--block-size", "8192", "--seed", "9", "-o", dir, NULL);
      g_assert_cmpint (r.status, ==, 0);
      run_clear (&r);
      TtvTrace *trace = NULL;
      g_assert_cmpuint (count_events (dir, &trace), ==, 20000 - 4 - 20);
      g_assert_nonnull (ttv_trace_find_event_type (trace, "sched_switch"));
      g_assert_nonnull (ttv_trace_find_event_type (trace, "core.syscall_entry"));
      g_assert_nonnull (ttv_trace_find_event_type (trace, "net.netif_receive"));
      g_assert_cmpint (trace->start, >=, G_GINT64_CONSTANT (1700000000) * TTV_NSEC_PER_SEC);
      ttv_trace_close (trace);
    }

  /* a flight recorder keeps only the end */
  g_autofree char *fr = g_build_filename (root, "fr", NULL);
  Run r = run_gen ("--events", "100000", "--block-size", "4096", "--flight-recorder=2", "-q",
                   "-o", fr, NULL);
  g_assert_cmpint (r.status, ==, 0);
  run_clear (&r);
  TtvTrace *trace = NULL;
  guint64 n = count_events (fr, &trace);
  g_assert_cmpuint (n, >, 0);
  g_assert_cmpuint (n, <, 100000);
  g_assert_true (trace->flags & TTV_TRACE_FLAG_BEGINNING_MISSING);
  ttv_trace_close (trace);
}

static void
test_archive (void)
{
  const char *root = ttv_test_get_tmp_dir ();
  g_autofree char *tgz = g_build_filename (root, "sample.tar.gz", NULL);
  g_autofree char *tar = g_build_filename (root, "sample.tar", NULL);
  Run r = run_gen ("--events", "5000", "-o", tgz, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, tgz));
  run_clear (&r);
  r = run_gen ("--events", "5000", "-q", "-o", tar, NULL);
  g_assert_cmpint (r.status, ==, 0);
  run_clear (&r);
  g_assert_true (g_file_test (tgz, G_FILE_TEST_IS_REGULAR));
  g_assert_true (g_file_test (tar, G_FILE_TEST_IS_REGULAR));
  /* only the two archives are left: the temporary trace directories are gone */
  g_autoptr (GDir) d = g_dir_open (root, 0, NULL);
  guint n = 0;
  while (g_dir_read_name (d))
    n++;
  g_assert_cmpuint (n, ==, 2);

  g_autoptr (GError) error = NULL;
  g_autofree char *dir = ttv_archive_extract (tgz, &error);
  g_assert_no_error (error);
  g_autofree char *base = g_path_get_basename (dir);
  g_assert_cmpstr (base, ==, "sample");
  g_autofree char *cpu0 = g_build_filename (dir, "cpu", "0", NULL);
  g_assert_true (g_file_test (cpu0, G_FILE_TEST_IS_REGULAR));
  if (ttv_format_find ("ltt"))
    {
      TtvTrace *trace = NULL;
      g_assert_cmpuint (count_events (tgz, &trace), ==, 5000 - 4 - 50);
      ttv_trace_close (trace);
    }
}

static void
test_bad_arguments (void)
{
  static const struct {
    const char *args[4];
    const char *mention;
  } cases[] = {
    { { "--cpus", "0" }, "--cpus" },
    { { "--cpus", "many" }, "--cpus" },
    { { "--cpu-ids", "0,4,2" }, "--cpu-ids" },
    { { "--cpu-ids", "0,x" }, "--cpu-ids" },
    { { "--cpus", "2", "--cpu-ids", "0,1,2" }, "--cpus" },
    { { "--seed", "-3" }, "--seed" },
    { { "--processes", "0" }, "--processes" },
    { { "--events", "0" }, "--events" },
    { { "--duration", "soon" }, "--duration" },
    { { "--start-time", "yesterday" }, "--start-time" },
    { { "--block-size", "12" }, "--block-size" },
    { { "--endian", "middle" }, "--endian" },
    { { "--arch-size", "LP128" }, "--arch-size" },
    { { "--format", "xyz" }, "--format" },
    { { "--flight-recorder=none" }, "--flight-recorder" },
    { { "--no-such-option" }, "--no-such-option" },
  };
  const char *root = ttv_test_get_tmp_dir ();
  g_autofree char *out = g_build_filename (root, "t", NULL);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const char *const *a = cases[i].args;
      Run r = run_gen (a[0], a[1] ? a[1] : "-q", a[1] && a[2] ? a[2] : "-q",
                       a[1] && a[2] && a[3] ? a[3] : "-q", "-o", out, NULL);
      g_assert_cmpint (r.status, ==, 2);
      g_assert_nonnull (strstr (r.err, cases[i].mention));
      run_clear (&r);
      g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
    }
  Run r = run_gen ("--events", "10", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "-o"));
  run_clear (&r);
  r = run_gen ("--events", "10", "-o", out, "extra", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "extra"));
  run_clear (&r);
}

/* One machine's packets: "seq/ack" -> true time (ns) they left or arrived. */
static GHashTable *
read_packets (const char *dir, const char *event_name, gint64 offset_ns, double drift, TtvTime epoch)
{
  g_autoptr (GError) error = NULL;
  TtvTrace *trace = ttv_trace_open (dir, &error);
  g_assert_no_error (error);
  const TtvEventType *type = ttv_trace_find_event_type (trace, event_name);
  g_assert_nonnull (type);
  TtvFieldAccessor seq, ack;
  ttv_field_accessor_init (&seq, type, "seq");
  ttv_field_accessor_init (&ack, type, "ack_seq");
  g_autoptr (TtvDecoder) scratch = ttv_decoder_new ();
  GHashTable *out = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  for (guint i = 0; i < trace->tracefiles->len; i++)
    {
      g_autoptr (TtvCursor) cur = ttv_cursor_new (trace->tracefiles->pdata[i], &error);
      TtvEvent ev;
      while (ttv_cursor_next (cur, &ev, &error))
        if (ev.type == type)
          {
            gint64 s, a;
            g_assert_true (ttv_field_accessor_get_int (&seq, &ev, scratch, &s));
            g_assert_true (ttv_field_accessor_get_int (&ack, &ev, scratch, &a));
            /* local = true + offset + drift (true - epoch) */
            double true_time = (double) epoch + ((double) (ev.time - epoch) - (double) offset_ns) / (1.0 + drift);
            g_hash_table_insert (out, g_strdup_printf ("%" G_GINT64_FORMAT "/%" G_GINT64_FORMAT, s, a),
                                 g_memdup2 (&true_time, sizeof true_time));
          }
      g_assert_no_error (error);
    }
  g_assert_cmpstr (ttv_trace_get_host (trace), !=, NULL);
  ttv_trace_close (trace);
  return out;
}

/* --machines: a trace per machine with its host name, the clocks written
 * down, and every packet received after it left, in true time. */
static void
test_machines (void)
{
  const char *root = ttv_test_get_tmp_dir ();
  g_autofree char *dir = g_build_filename (root, "net", NULL);
  Run r = run_gen ("-f", "ctf", "--machines", "3", "--clock-offset", "-0.5", "--clock-drift", "30", "-d", "0.05",
                   "-c", "2", "-p", "10", "--host", "node", "-o", dir, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "machine node-3 offset -1.000000000 s drift 60.000000 ppm"));
  run_clear (&r);
  g_autofree char *clocks_path = g_build_filename (dir, "clocks", NULL);
  g_autofree char *clocks = NULL;
  g_assert_true (g_file_get_contents (clocks_path, &clocks, NULL, NULL));
  g_assert_nonnull (strstr (clocks, "machine node-1 offset 0.000000000 s drift 0.000000 ppm\n"));
  g_assert_nonnull (strstr (clocks, "machine node-2 offset -0.500000000 s drift 30.000000 ppm\n"));
  TtvTime epoch = G_GINT64_CONSTANT (1700000000) * TTV_NSEC_PER_SEC;
  g_autofree char *d1 = g_build_filename (dir, "node-1", NULL);
  for (guint k = 2; k <= 3; k++)
    {
      g_autofree char *dk = g_strdup_printf ("%s/node-%u", dir, k);
      gint64 offset = -500000000 * (gint64) (k - 1);
      double drift = 30e-6 * (k - 1);
      g_autoptr (GHashTable) out1 = read_packets (d1, "inet_sock_local_out", 0, 0, epoch);
      g_autoptr (GHashTable) in1 = read_packets (d1, "inet_sock_local_in", 0, 0, epoch);
      g_autoptr (GHashTable) outk = read_packets (dk, "inet_sock_local_out", offset, drift, epoch);
      g_autoptr (GHashTable) ink = read_packets (dk, "inet_sock_local_in", offset, drift, epoch);
      guint matched = 0;
      GHashTableIter it;
      gpointer key, value;
      g_hash_table_iter_init (&it, ink);
      while (g_hash_table_iter_next (&it, &key, &value))
        {
          double *sent = g_hash_table_lookup (out1, key);
          g_assert_nonnull (sent);
          g_assert_cmpfloat (*(double *) value - *sent, >=, 30000 - 2);
          g_assert_cmpfloat (*(double *) value - *sent, <, 300000);
          matched++;
        }
      g_hash_table_iter_init (&it, outk);
      while (g_hash_table_iter_next (&it, &key, &value))
        {
          double *received = g_hash_table_lookup (in1, key);
          if (received == NULL)
            continue;             /* machine 1 talks to the others too: keys differ */
          g_assert_cmpfloat (*received - *(double *) value, >=, 30000 - 2);
          matched++;
        }
      /* 50 ms at one message a millisecond, each way */
      g_assert_cmpuint (matched, >=, 90);
    }

  /* the same options give the same files */
  g_autofree char *again = g_build_filename (root, "net2", NULL);
  r = run_gen ("-f", "ctf", "--machines", "3", "--clock-offset", "-0.5", "--clock-drift", "30", "-d", "0.05",
               "-c", "2", "-p", "10", "--host", "node", "-q", "-o", again, NULL);
  g_assert_cmpint (r.status, ==, 0);
  run_clear (&r);
  g_assert_true (trees_equal (dir, again));
  /* LTTng 0.x machines too */
  g_autofree char *lttng_a = g_build_filename (root, "lttng-a", NULL), *lttng_b = g_build_filename (root, "lttng-b", NULL);
  for (guint i = 0; i < 2; i++)
    {
      r = run_gen ("-f", "lttng", "--machines", "2", "--net-events", "dev-xmit-mixed", "-d", "0.02", "-c", "1",
                   "--host", "node", "-q", "-o", i ? lttng_b : lttng_a, NULL);
      g_assert_cmpint (r.status, ==, 0);
      run_clear (&r);
    }
  g_assert_true (trees_equal (lttng_a, lttng_b));

  /* wrong uses */
  static const struct {
    const char *args[6];
    const char *mention;
  } bad[] = {
    { { "--machines", "17", "-f", "ctf", "-q", "-q" }, "--machines" },
    { { "--machines", "2", "-f", "ltt", "--net-events", "inet-sock" }, "dev-xmit or dev-xmit-mixed" },
    { { "--machines", "2", "-f", "ctf", "--clock-drift", "x" }, "--clock-drift" },
    { { "--machines", "2", "-f", "ctf", "--clock-offset", "1e9" }, "--clock-offset" },
    { { "--clock-offset", "1", "-q", "-q", "-q", "-q" }, "--machines" },
    { { "--machines", "2", "-f", "lttng", "--net-events", "net-dev" }, "dev-xmit or dev-xmit-mixed" },
    { { "--machines", "2", "-f", "ctf", "--net-events", "dev-xmit" }, "inet-sock, net-dev" },
  };
  g_autofree char *none = g_build_filename (root, "none", NULL);
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      const char *const *a = bad[i].args;
      r = run_gen (a[0], a[1], a[2], a[3], a[4], a[5], "-o", none, NULL);
      g_assert_cmpint (r.status, ==, 2);
      g_assert_nonnull (strstr (r.err, bad[i].mention));
      run_clear (&r);
      g_assert_false (g_file_test (none, G_FILE_TEST_EXISTS));
    }
}

static void
test_unwritable (void)
{
  const char *root = ttv_test_get_tmp_dir ();
  g_autofree char *file = g_build_filename (root, "plain-file", NULL);
  g_assert_true (g_file_set_contents (file, "x", 1, NULL));

  /* a directory below a regular file cannot be created */
  g_autofree char *below = g_build_filename (file, "trace", NULL);
  Run r = run_gen ("--events", "100", "-o", below, NULL);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, file));
  run_clear (&r);

  /* nor an archive */
  g_autofree char *tgz = g_build_filename (file, "trace.tar.gz", NULL);
  r = run_gen ("--events", "100", "-o", tgz, NULL);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, file));
  run_clear (&r);

  /* a trace is never written into a directory holding something else */
  r = run_gen ("--events", "100", "-o", root, NULL);
  g_assert_cmpint (r.status, !=, 0);
  g_assert_nonnull (strstr (r.err, root));
  run_clear (&r);
  g_autofree char *contents = NULL;
  g_assert_true (g_file_get_contents (file, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "x");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cli/gen/determinism", test_determinism);
  g_test_add_func ("/cli/gen/read-back", test_read_back);
  g_test_add_func ("/cli/gen/archive", test_archive);
  g_test_add_func ("/cli/gen/bad-arguments", test_bad_arguments);
  g_test_add_func ("/cli/gen/unwritable", test_unwritable);
  g_test_add_func ("/cli/gen/machines", test_machines);
  return g_test_run ();
}
