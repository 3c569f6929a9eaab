/* test-lttng-follow.c: LTTng 0.x traces still being written: a writer in the
 * test appends the blocks (and markers) of a generated trace to a live copy
 * while the library refreshes it and while ttv-report --follow reads it. */
#include "ttv-test-util.h"
#include "ttv-lttng-sim.h"
#include "ttv-lttng-private.h"
#include "ttv-error.h"
#include "ttv-trace.h"

#include <glib/gstdio.h>
#include <string.h>

#define PACKET 1024u   /* buf_size: the writer's blocks */

static char *src_dir;   /* the finished trace */

/* --- The finished trace, block by block ------------------------------- */

static void
make_source (void)
{
  static const guint cpu_ids[] = { 0, 1, 3 };
  TtvSimOptions so;
  ttv_sim_options_init (&so);
  so.seed = 7;
  so.cpu_ids = cpu_ids;
  so.n_cpus = G_N_ELEMENTS (cpu_ids);
  so.n_processes = 20;
  so.max_events = 5000;
  TtvLttngWriterOptions wo = { .byte_order = TTV_BYTE_ORDER_LITTLE, .arch_size = 8, .buf_size = PACKET };
  g_autoptr (GError) error = NULL;
  g_assert_true (ttv_lttng_write_simulation (src_dir, &so, &wo, NULL, &error));
  g_assert_no_error (error);
}

/* Cursor blocks are the non-empty ones in time order: back to file blocks. */
static guint
file_block (TtvTracefile *tf, const TtvEvent *ev)
{
  const TtvLttngFile *f = tf->priv;
  g_assert_cmpuint (ev->pos.block, <, f->blocks->len);
  return g_array_index (f->blocks, TtvLttngBlock, ev->pos.block).file_block;
}

static guint
n_file_blocks (TtvTracefile *tf)
{
  return ((const TtvLttngFile *) tf->priv)->n_file_blocks;
}

/* The cpu files of the finished trace, to be written to @name in the tmp dir. */
static TtvTestLive *
live_new (const char *name)
{
  g_autofree char *dir = g_build_filename (ttv_test_get_tmp_dir (), name, NULL);
  TtvTestLive *l = ttv_test_live_new (src_dir, dir, PACKET, file_block, n_file_blocks);
  g_assert_cmpuint (l->streams->len, ==, 3);
  return l;
}

/* The control files (markers, processes, interrupts) of the finished trace;
 * with @first_facility_block, only the first block of facilities_0 (the
 * other control files would use markers it does not describe yet). */
static void
copy_control (const char *to_dir, gboolean first_facility_block)
{
  g_autofree char *from = g_build_filename (src_dir, "control", NULL);
  g_autofree char *to = g_build_filename (to_dir, "control", NULL);
  if (!first_facility_block)
    {
      ttv_test_copy_dir (from, to);
      return;
    }
  g_assert_cmpint (g_mkdir_with_parents (to, 0755), ==, 0);
  g_autofree char *a = g_build_filename (from, "facilities_0", NULL);
  g_autofree char *b = g_build_filename (to, "facilities_0", NULL);
  g_autofree char *data = NULL;
  gsize len;
  g_assert_true (g_file_get_contents (a, &data, &len, NULL));
  g_assert_cmpuint (len, >=, 2 * PACKET);
  g_assert_true (g_file_set_contents (b, data, PACKET, NULL));
}

/* --- (a) the library refresh ------------------------------------------ */

static void
test_refresh (void)
{
  g_autoptr (TtvTestLive) l = live_new ("live-refresh");
  copy_control (l->dir, FALSE);
  /* cpu_0 and cpu_1 have a block; cpu_3 does not exist yet. */
  ttv_test_live_packets (l, 0, 1);
  ttv_test_live_packets (l, 1, 1);
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvTrace) t = ttv_trace_open (l->dir, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (t->tracefiles->len, ==, 2);
  ttv_test_live_check (l, t);

  /* The first bytes of the next block: nothing to read yet. */
  ttv_test_live_write (l, 0, PACKET + 40);
  gboolean changed = TRUE;
  g_assert_true (ttv_trace_refresh (t, &changed, &error));
  g_assert_no_error (error);
  g_assert_false (changed);

  ttv_test_live_refresh_rest (l, t);
}

/* --- Markers registered while tracing ---------------------------------- */

static void
test_markers (void)
{
  g_autoptr (TtvTestLive) l = live_new ("live-markers");
  copy_control (l->dir, TRUE);
  ttv_test_live_packets (l, 0, 1);
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvTrace) src = ttv_trace_open (src_dir, &error);
  g_assert_no_error (error);
  g_autoptr (TtvTrace) t = ttv_trace_open (l->dir, &error);
  g_assert_no_error (error);
  guint n_open = t->event_types->len;
  g_assert_cmpuint (n_open, <, src->event_types->len);

  /* The rest of the facilities files, a part of a block first. */
  g_autofree char *from = g_build_filename (src_dir, "control", NULL);
  g_autofree char *to = g_build_filename (l->dir, "control", NULL);
  g_autoptr (GDir) d = g_dir_open (from, 0, NULL);
  const char *name;
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  while ((name = g_dir_read_name (d)))
    if (g_str_has_prefix (name, "facilities_"))
      g_ptr_array_add (names, g_strdup (name));
  g_autofree char *f0 = g_build_filename (from, "facilities_0", NULL);
  g_autofree char *live_f0 = g_build_filename (to, "facilities_0", NULL);
  g_autofree char *f0_data = NULL;
  gsize f0_len;
  g_assert_true (g_file_get_contents (f0, &f0_data, &f0_len, NULL));
  FILE *f = fopen (live_f0, "ab");
  g_assert_nonnull (f);
  g_assert_cmpuint (fwrite (f0_data + PACKET, 1, 300, f), ==, 300);
  fflush (f);
  gboolean changed = TRUE;
  g_assert_true (ttv_trace_refresh (t, &changed, &error));
  g_assert_no_error (error);
  g_assert_false (changed);
  g_assert_cmpuint (t->event_types->len, ==, n_open);
  g_assert_cmpuint (fwrite (f0_data + PACKET + 300, 1, f0_len - PACKET - 300, f), ==, f0_len - PACKET - 300);
  fclose (f);
  for (guint i = 0; i < names->len; i++)
    {
      const char *n = g_ptr_array_index (names, i);
      if (strcmp (n, "facilities_0") == 0)
        continue;
      g_autofree char *a = g_build_filename (from, n, NULL), *b = g_build_filename (to, n, NULL);
      ttv_test_copy_file (a, b);
    }
  g_assert_true (ttv_trace_refresh (t, &changed, &error));
  g_assert_no_error (error);
  g_assert_true (changed);
  g_assert_cmpuint (t->event_types->len, ==, src->event_types->len);
  for (guint i = 0; i < src->event_types->len; i++)
    {
      const TtvEventType *want = g_ptr_array_index (src->event_types, i);
      const TtvEventType *got = ttv_trace_find_event_type (t, want->full_name);
      g_assert_nonnull (got);
      g_assert_cmpuint (got->format_id, ==, want->format_id);
      g_assert_cmpuint (got->fields->fields->len, ==, want->fields->fields->len);
    }

  /* Every block: all events decode. */
  ttv_test_live_finish (l, t);
  g_assert_cmpuint (ttv_test_decode_all (t), >, 1000);
}

/* --- A damaged block appended ----------------------------------------- */

static void
test_corrupt (void)
{
  g_autoptr (TtvTestLive) l = live_new ("live-corrupt");
  copy_control (l->dir, FALSE);
  /* cpu_1's second block with a bad magic. */
  ttv_test_live_corrupt (l, TTV_REPORT_PATH, ttv_test_get_tmp_dir (), TTV_LTTNG_OFF_MAGIC);
}

/* --- (b) ttv-report --follow ------------------------------------------ */

static void
test_report (void)
{
  g_autoptr (TtvTestLive) l = live_new ("live-report");
  copy_control (l->dir, FALSE);
  /* Every cpu file starts with a block (so that the report knows how far
   * each CPU got). */
  for (guint i = 0; i < l->streams->len; i++)
    ttv_test_live_packets (l, i, 1);
  g_autofree char *out_path = g_build_filename (ttv_test_get_tmp_dir (), "follow-lttng.txt", NULL);
  /* Opening refuses a cpu file that ends inside a block (docs/lttng-format.md):
   * half blocks are written once the report has opened the trace and
   * printed what the first blocks hold. */
  ttv_test_live_follow_report (l, TTV_REPORT_PATH, out_path, TRUE);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  /* The finished trace, in the program's temporary directory, for every test. */
  src_dir = g_build_filename (ttv_test_get_tmp_dir (), "src", NULL);
  make_source ();
  g_test_add_func ("/lttng/follow/refresh", test_refresh);
  g_test_add_func ("/lttng/follow/markers", test_markers);
  g_test_add_func ("/lttng/follow/corrupt", test_corrupt);
  g_test_add_func ("/lttng/follow/report", test_report);
  int status = g_test_run ();
  g_free (src_dir);
  return status;
}
