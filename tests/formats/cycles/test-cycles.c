/* test-cycles.c: ttv_trace_cycles_to_time gives, for the cycle count of
 * every event of a trace, the time the reader gave that event (LTT at
 * several clock rates, with heartbeats and sparse CPUs; LTTng 0.x; CTF,
 * through its stream classes' clock, what live beacons need). */
#include "ttv-ltt-writer.h"
#include "ttv-test-util.h"

#include <stdlib.h>

#define START ((TtvTime) 1700000000 * TTV_NSEC_PER_SEC)

/* Every event of every tracefile of @t against the conversion; @slack ns
 * allowed (the reader anchors each event on its own block; a cycle count
 * alone may be anchored on another CPU's block: rounding may differ by 1). */
static guint64
check_all_events (TtvTrace *t, TtvTime slack)
{
  guint64 n = 0;

  for (guint i = 0; i < t->tracefiles->len; i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (TtvCursor) c = ttv_cursor_new (t->tracefiles->pdata[i], &error);
      TtvEvent ev;

      g_assert_no_error (error);
      while (ttv_cursor_next (c, &ev, &error))
        {
          TtvTime time = 0;
          g_assert_true (ttv_trace_cycles_to_time (t, ev.cycles, &time));
          if (llabs (time - ev.time) > slack)
            g_error ("%s: cycles %" G_GUINT64_FORMAT ": %" G_GINT64_FORMAT " instead of %"
                     G_GINT64_FORMAT, ((TtvTracefile *) t->tracefiles->pdata[i])->name,
                     ev.cycles, time, ev.time);
          n++;
        }
      g_assert_no_error (error);
    }
  return n;
}

static void
test_ltt (gconstpointer data)
{
  guint64 freq = GPOINTER_TO_SIZE (data);
  g_autofree char *name = g_strdup_printf ("ltt-%" G_GUINT64_FORMAT, freq);
  g_autofree char *dir = g_build_filename (ttv_test_get_tmp_dir (), name, NULL);
  TtvLttWriterOptions o = {
    .byte_order = TTV_BYTE_ORDER_LITTLE, .arch_size = TTV_LTT_ARCH_LP64, .block_size = 512,
    .cycles_per_second = freq, .start_time = START, .n_cpu_slots = 4,
  };
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvType) empty = ttv_type_new_struct ();
  g_autoptr (GRand) r = g_rand_new_with_seed (7);
  TtvLttWriter *w = ttv_ltt_writer_new (dir, &o, &error);
  TtvTime now[2] = { START + 100, START + 3 };
  TtvTrace *t;
  guint facility;
  gint ev;

  g_assert_no_error (error);
  facility = ttv_ltt_writer_add_facility (w, "core", NULL);
  ev = ttv_ltt_writer_add_event (w, facility, "tick", NULL, empty, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < 3000; i++)
    {
      guint k = (guint) g_rand_int_range (r, 0, 2);
      /* Now and then a gap of seconds: heartbeats in the blocks. */
      now[k] += g_rand_int_range (r, 0, 200) == 0 ? 5 * TTV_NSEC_PER_SEC
                                                : g_rand_int_range (r, 1, 5000);
      g_assert_true (ttv_ltt_writer_write_event (w, k ? 3 : 0, now[k], (guint) ev, NULL, 0, &error));
    }
  g_assert_true (ttv_ltt_writer_close (w, &error));

  t = ttv_trace_open (dir, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (check_all_events (t, freq == TTV_NSEC_PER_SEC ? 0 : 1), ==, 3000);
  /* Before the first block: extrapolated back from it. */
  {
    TtvTime time;
    g_assert_true (ttv_trace_cycles_to_time (t, 0, &time));
    g_assert_cmpint (llabs (time - START), <=, 1);
  }
  ttv_trace_close (t);
}

static TtvTrace *
gen_and_open (const char *format)
{
  g_autofree char *dir = g_build_filename (ttv_test_get_tmp_dir (), format, NULL);
  g_autofree char *cmd = g_strdup_printf ("'%s' -q -f %s -n 20000 -c 2 -b 4096 -o '%s'",
                                          TTV_GEN_PATH, format, dir);
  g_autoptr (GError) error = NULL;
  int status;
  TtvTrace *t;

  g_assert_true (g_spawn_command_line_sync (cmd, NULL, NULL, &status, NULL));
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  t = ttv_trace_open (dir, &error);
  g_assert_no_error (error);
  return t;
}

static void
test_lttng (void)
{
  TtvTrace *t = gen_and_open ("lttng");

  g_assert_cmpuint (check_all_events (t, 0), >, 0);
  ttv_trace_close (t);
}

static void
test_ctf (void)
{
  TtvTrace *t = gen_and_open ("ctf");

  g_assert_cmpuint (check_all_events (t, 0), >, 0);
  ttv_trace_close (t);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_data_func ("/cycles/ltt/1GHz", GSIZE_TO_POINTER (1000000000), test_ltt);
  g_test_add_data_func ("/cycles/ltt/2.4GHz", GSIZE_TO_POINTER (2400000000), test_ltt);
  g_test_add_data_func ("/cycles/ltt/33.3MHz", GSIZE_TO_POINTER (33333333), test_ltt);
  g_test_add_func ("/cycles/lttng", test_lttng);
  g_test_add_func ("/cycles/ctf", test_ctf);
  return g_test_run ();
}
