/* test-lttng-bad.c: damaged LTTng 0.x traces give a clear error naming the file
 * and the byte offset, never a crash; reading never changes the trace. */
#include "lttng-test-util.h"
#include "ttv-lttng-private.h"

#include <unistd.h>

#define BS 512
#define START (G_GINT64_CONSTANT (1212364800) * TTV_NSEC_PER_SEC)

/* A valid trace of @n events in blocks of @bs bytes: cpu_0 only, little
 * endian, packed, 32-bit TSC. */
static char *
make_trace_blocks (guint32 bs, guint n)
{
  char *dir = lttng_test_tmp_trace ();
  LttngTestWorkload *wl = lttng_test_workload_new (n, 8, FALSE, START, 3);
  for (guint i = 0; i < wl->events->len; i++)
    {
      LttngTestEvent *e = &g_array_index (wl->events, LttngTestEvent, i);
      if (e->stream > 0)
        e->stream = 0;
    }
  /* per-stream times must not decrease: rebuild them in order */
  TtvTime t = START;
  for (guint i = 0; i < wl->events->len; i++)
    g_array_index (wl->events, LttngTestEvent, i).time = (t += 1000);
  TtvLttngWriterOptions opts = {
    .byte_order = TTV_BYTE_ORDER_LITTLE, .arch_size = 8, .buf_size = bs, .start_time = START,
  };
  lttng_test_write (wl, dir, &opts);
  lttng_test_workload_free (wl);
  return dir;
}

/* A small one: 300 events in blocks of BS bytes. */
static char *
make_trace (void)
{
  return make_trace_blocks (BS, 300);
}

static void
patch (const char *dir, const char *file, gsize offset, const void *bytes, gsize n)
{
  g_autofree char *path = g_build_filename (dir, file, NULL);
  g_autofree char *data = NULL;
  gsize len;
  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  g_assert_cmpuint (offset + n, <=, len);
  memcpy (data + offset, bytes, n);
  g_assert_true (g_file_set_contents (path, data, len, NULL));
}

static void
patch_u32 (const char *dir, const char *file, gsize offset, guint32 v)
{
  guint32 le = GUINT32_TO_LE (v);
  patch (dir, file, offset, &le, 4);
}

static void
assert_message (const GError *error, const char *a, const char *b)
{
  g_test_message ("error: %s", error->message);
  g_assert_nonnull (strstr (error->message, a));
  if (b)
    g_assert_nonnull (strstr (error->message, b));
}

/* Opens, reads and decodes everything; returns the first error. */
static GError *
read_all (const char *dir)
{
  GError *error = NULL;
  g_autoptr (TtvTrace) trace = ttv_trace_open (dir, &error);
  if (trace == NULL)
    return error;
  g_autoptr (TtvDecoder) d = ttv_decoder_new ();
  for (guint i = 0; i < trace->tracefiles->len; i++)
    {
      g_autoptr (TtvCursor) c = ttv_cursor_new (g_ptr_array_index (trace->tracefiles, i), &error);
      if (c == NULL)
        return error;
      TtvEvent ev;
      guint64 n = 0;
      while (ttv_cursor_next (c, &ev, &error))
        {
          ttv_decoder_reset (d);
          if (ttv_event_decode_fields (&ev, d, &error) < 0)
            return error;
          n++;
        }
      if (error)
        return error;
      TtvTime middle = trace->start <= trace->end ? trace->start + (trace->end - trace->start) / 2 : 0;
      if (!ttv_cursor_seek_time (c, middle, &error))
        return error;
      while (ttv_cursor_next (c, &ev, &error))
        ;
      if (error)
        return error;
    }
  return NULL;
}

static void
test_valid (void)
{
  g_autofree char *dir = make_trace ();
  GError *error = read_all (dir);
  g_assert_no_error (error);
}

static void
test_magic (void)
{
  g_autofree char *dir = make_trace ();
  patch_u32 (dir, "cpu_0", BS + 40, 0x12345678);
  g_autoptr (GError) error = read_all (dir);
  g_assert_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_CORRUPT);
  assert_message (error, "cpu_0", "byte offset 552");
  assert_message (error, "magic", NULL);
  g_clear_error (&error);

  /* The first block: the trace is still picked as LTTng (probe 50) to say why. */
  patch_u32 (dir, "cpu_0", 40, 0);
  g_assert_cmpuint (ttv_lttng_format_class.probe (dir), ==, 50);
  error = read_all (dir);
  g_assert_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_CORRUPT);
  assert_message (error, "cpu_0", "byte offset 40");
}

static void
test_lost_size (void)
{
  g_autofree char *dir = make_trace ();
  patch_u32 (dir, "cpu_0", BS + 32, BS - 50);
  g_autoptr (GError) error = read_all (dir);
  g_assert_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_CORRUPT);
  assert_message (error, "cpu_0", "byte offset 544");
  assert_message (error, "lost_size", NULL);
}

static void
test_event_size (void)
{
  g_autofree char *dir = make_trace ();
  guint16 big = GUINT16_TO_LE (0xffff);
  patch (dir, "cpu_0", 101 + 6, &big, 2);
  g_autoptr (GError) error = read_all (dir);
  g_assert_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_CORRUPT);
  assert_message (error, "cpu_0", "byte offset 101");
  assert_message (error, "event_size", NULL);
}

static void
test_unknown_event (void)
{
  g_autofree char *dir = make_trace ();
  guint8 id = 200;
  patch (dir, "cpu_0", 101 + 5, &id, 1);
  g_autoptr (GError) error = read_all (dir);
  g_assert_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_CORRUPT);
  assert_message (error, "cpu_0", "byte offset 101");
}

static void
test_marker_format (void)
{
  g_autofree char *dir = make_trace ();
  g_autofree char *path = g_build_filename (dir, "control", "facilities_0", NULL);
  g_autofree char *data = NULL;
  gsize len;
  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  char *hit = memmem (data, len, "prev_pid %d", 11);
  g_assert_nonnull (hit);
  hit[10] = 'q';
  g_assert_true (g_file_set_contents (path, data, len, NULL));
  g_autoptr (GError) error = read_all (dir);
  g_assert_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_SYNTAX);
  assert_message (error, "facilities_0", "byte offset");
  assert_message (error, "%q", "kernel.sched_switch");
}

static void
test_truncated (void)
{
  g_autofree char *dir = make_trace ();
  g_autofree char *path = g_build_filename (dir, "cpu_0", NULL);
  g_assert_cmpint (truncate (path, BS + 100), ==, 0);
  g_autoptr (GError) error = read_all (dir);
  g_assert_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_TRUNCATED);
  assert_message (error, "cpu_0", "byte offset 512");
  g_clear_error (&error);
  g_assert_cmpint (truncate (path, 50), ==, 0);
  error = read_all (dir);
  g_assert_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_TRUNCATED);
  assert_message (error, "cpu_0", "byte offset 0");
  g_clear_error (&error);
  g_assert_cmpint (truncate (path, 0), ==, 0);
  error = read_all (dir);
  g_assert_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_TRUNCATED);
  assert_message (error, "cpu_0", "byte offset 0");
}

static void
test_header_values (void)
{
  g_autofree char *dir = make_trace ();
  guint8 three = 3;
  patch (dir, "cpu_0", 61, &three, 1);
  g_autoptr (GError) error = read_all (dir);
  g_assert_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_INVALID);
  assert_message (error, "cpu_0", "byte offset 61");
  g_clear_error (&error);
  guint8 zero = 0;
  patch (dir, "cpu_0", 61, &zero, 1);
  guint8 two = 2;
  patch (dir, "cpu_0", BS + 56, &two, 1);
  error = read_all (dir);
  g_assert_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_UNSUPPORTED);
  assert_message (error, "cpu_0", "byte offset 568");
  g_clear_error (&error);
  patch (dir, "cpu_0", BS + 56, (guint8[]) { 8 }, 1);
  /* a block whose clock differs from the first block's */
  patch_u32 (dir, "cpu_0", BS + 65, 7);
  error = read_all (dir);
  g_assert_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_CORRUPT);
  assert_message (error, "cpu_0", "byte offset 512");
}

static void
test_probe (void)
{
  g_autofree char *dir = make_trace ();
  g_assert_cmpuint (ttv_lttng_format_class.probe (dir), ==, 90);
  g_autofree char *parent = g_path_get_dirname (dir);
  g_assert_cmpuint (ttv_lttng_format_class.probe (parent), ==, 0);
  g_autofree char *fac = g_build_filename (dir, "control", "facilities_0", NULL);
  g_autofree char *moved = g_build_filename (dir, "control", "other", NULL);
  g_assert_cmpint (g_rename (fac, moved), ==, 0);
  g_assert_cmpuint (ttv_lttng_format_class.probe (dir), ==, 0);
}

static char *
checksum_dir (const char *dir)
{
  g_autoptr (GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
  static const char *files[] = { "cpu_0", "control/facilities_0", "control/processes_0" };
  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *path = g_build_filename (dir, files[i], NULL);
      g_autofree char *data = NULL;
      gsize len;
      g_assert_true (g_file_get_contents (path, &data, &len, NULL));
      g_checksum_update (sum, (const guchar *) data, len);
    }
  return g_strdup (g_checksum_get_string (sum));
}

/* Random damage to cpu_0: any outcome but a crash, and the files are never written. */
static void
test_random_damage (void)
{
  g_autofree char *dir = make_trace ();
  g_autofree char *path = g_build_filename (dir, "cpu_0", NULL);
  g_autofree char *orig = NULL;
  gsize len;
  g_assert_true (g_file_get_contents (path, &orig, &len, NULL));
  GRand *r = g_rand_new_with_seed (2008);
  guint n_errors = 0;
  for (guint iter = 0; iter < 300; iter++)
    {
      g_autofree char *data = g_memdup2 (orig, len);
      guint n = g_rand_int_range (r, 1, 6);
      for (guint k = 0; k < n; k++)
        {
          gsize at = g_rand_int_range (r, 0, (gint32) len);
          /* aim at headers half of the time */
          if (k % 2 == 0)
            at = (at / BS) * BS + g_rand_int_range (r, 0, 140);
          data[at] = (char) g_rand_int_range (r, 0, 256);
        }
      g_assert_true (g_file_set_contents (path, data, len, NULL));
      g_autofree char *before = checksum_dir (dir);
      GError *error = read_all (dir);
      g_autofree char *after = checksum_dir (dir);
      g_assert_cmpstr (before, ==, after);
      if (error)
        {
          n_errors++;
          g_assert_true (error->domain == TTV_FORMAT_ERROR);
          g_assert_true (strstr (error->message, "cpu_0") || strstr (error->message, "facilities_0"));
          g_error_free (error);
        }
    }
  g_test_message ("%u of 300 damaged traces were refused", n_errors);
  g_assert_cmpuint (n_errors, >, 0);
  g_rand_free (r);
}

static void
test_writer_misuse (void)
{
  g_autofree char *dir = lttng_test_tmp_trace ();
  g_autoptr (GError) error = NULL;
  TtvLttngWriterOptions opts = { .alignment = 3 };
  g_assert_null (ttv_lttng_writer_new (dir, &opts, &error));
  g_assert_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT);
  g_clear_error (&error);
  opts = (TtvLttngWriterOptions) { .buf_size = 256, .start_time = START };
  TtvLttngWriter *w = ttv_lttng_writer_new (dir, &opts, &error);
  g_assert_no_error (error);
  g_autoptr (TtvType) st = ttv_type_new_struct ();
  ttv_type_add_field (st, "s", ttv_type_new_string (), NULL);
  gint ev = ttv_lttng_writer_add_event (w, "kernel", "big", st, &error);
  g_assert_cmpint (ev, ==, 0);
  g_assert_cmpint (ttv_lttng_writer_add_event (w, "kernel", "big", st, &error), ==, -1);
  g_assert_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT);
  g_clear_error (&error);
  char text[300];
  memset (text, 'x', sizeof text - 1);
  text[sizeof text - 1] = '\0';
  TtvScalar v = TTV_SCALAR_STRING (text);
  g_assert_false (ttv_lttng_writer_write_event (w, 0, START + 10, 0, &v, 1, &error));
  g_assert_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT);
  g_clear_error (&error);
  v = TTV_SCALAR_STRING ("ok");
  g_assert_true (ttv_lttng_writer_write_event (w, 0, START + 10, 0, &v, 1, &error));
  g_assert_false (ttv_lttng_writer_write_event (w, 0, START + 5, 0, &v, 1, &error));
  g_assert_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (ttv_lttng_writer_write_event (w, 0, START - 5, 0, &v, 1, &error));
  g_assert_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT);
  g_clear_error (&error);
  g_assert_true (ttv_lttng_writer_close (w, &error));
  g_assert_no_error (error);
  /* not empty any more */
  g_assert_null (ttv_lttng_writer_new (dir, &opts, &error));
  g_assert_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_IO);
}

/* Blocks of 64 KiB are indexed by the pages of their headers, not read
 * whole (the opening read every event of the trace): few bytes are read
 * at open, every event is read after, and a damaged header is reported as
 * with small blocks, at its offset. */
static void
test_index_sparse (void)
{
  const guint32 bs = 64u << 10;
  g_autofree char *dir = make_trace_blocks (bs, 60000);
  g_autoptr (GError) error = NULL;
  {
    g_autoptr (TtvTrace) trace = ttv_trace_open (dir, &error);
    g_assert_no_error (error);
    const TtvTracefile *tf = NULL;
    for (guint i = 0; i < trace->tracefiles->len; i++)
      if (g_str_equal (((TtvTracefile *) g_ptr_array_index (trace->tracefiles, i))->name, "cpu_0"))
        tf = g_ptr_array_index (trace->tracefiles, i);
    g_assert_nonnull (tf);
    const TtvLttngFile *f = tf->priv;
    g_assert_cmpuint (f->n_file_blocks, >=, 8);
    /* A page a block; besides, the opening reads the events of the first
     * block (a window) and of the last (the trace's first and last times). */
    guint64 read = ttv_windowed_file_get_bytes_read (f->file);
    g_test_message ("cpu_0: %" G_GUINT64_FORMAT " bytes read at open, of %" G_GUINT64_FORMAT, read,
                    (guint64) f->size);
    g_assert_cmpuint (read, <=, f->n_file_blocks * 4096 + TTV_FILE_WINDOW_BYTES + 2 * bs);
    g_assert_cmpuint (read, <, f->size / 3);
  }
  GError *got = read_all (dir);
  g_assert_no_error (got);
  patch_u32 (dir, "cpu_0", 5 * bs + 40, 0x12345678);
  error = read_all (dir);
  g_assert_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_CORRUPT);
  g_autofree char *where = g_strdup_printf ("byte offset %u", 5 * bs + 40);
  assert_message (error, "cpu_0", where);
  assert_message (error, "magic", NULL);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/lttng/bad/valid", test_valid);
  g_test_add_func ("/lttng/bad/magic", test_magic);
  g_test_add_func ("/lttng/bad/index-sparse", test_index_sparse);
  g_test_add_func ("/lttng/bad/lost-size", test_lost_size);
  g_test_add_func ("/lttng/bad/event-size", test_event_size);
  g_test_add_func ("/lttng/bad/unknown-event", test_unknown_event);
  g_test_add_func ("/lttng/bad/marker-format", test_marker_format);
  g_test_add_func ("/lttng/bad/truncated", test_truncated);
  g_test_add_func ("/lttng/bad/header-values", test_header_values);
  g_test_add_func ("/lttng/bad/probe", test_probe);
  g_test_add_func ("/lttng/bad/random-damage", test_random_damage);
  g_test_add_func ("/lttng/bad/writer-misuse", test_writer_misuse);
  return g_test_run ();
}
