/* ltt-speed.c: measures a full merged read of a generated 4-CPU LTT trace
 * (usage: ltt-speed [N_EVENTS [DIR]]).  A manual measurement, not a test. */
#include "formats/ltt/ttv-ltt.h"

#include <stdio.h>
#include <stdlib.h>

int
main (int argc, char **argv)
{
  guint64 n = argc > 1 ? g_ascii_strtoull (argv[1], NULL, 10) : 10000000;
  g_autofree char *dir = argc > 2 ? g_strdup (argv[2])
                                  : g_build_filename (g_get_tmp_dir (), "ttv-ltt-speed", NULL);
  g_autoptr (GError) error = NULL;
  g_autofree char *probe = g_build_filename (dir, "info", "system.xml", NULL);
  if (!g_file_test (probe, G_FILE_TEST_EXISTS))
    {
      TtvLttWriterOptions o = { .start_time = (TtvTime) 1700000000 * TTV_NSEC_PER_SEC };
      TtvLttWriter *w = ttv_ltt_writer_new (dir, &o, &error);
      if (w == NULL)
        goto fail;
      guint f = ttv_ltt_writer_add_facility (w, "core", NULL);
      g_autoptr (TtvType) s = ttv_type_new_struct ();
      ttv_type_add_field (s, "pid", ttv_type_new_integer (32, FALSE, TTV_BYTE_ORDER_LITTLE, 32), NULL);
      ttv_type_add_field (s, "arg", ttv_type_new_integer (64, FALSE, TTV_BYTE_ORDER_LITTLE, 64), NULL);
      gint e = ttv_ltt_writer_add_event (w, f, "syscall_entry", NULL, s, &error);
      gint64 t0 = g_get_monotonic_time ();
      for (guint64 i = 0; i < n; i++)
        {
          TtvScalar v[] = { TTV_SCALAR_UINT (i & 0xFFFF), TTV_SCALAR_UINT (i) };
          if (!ttv_ltt_writer_write_event (w, (gint) (i % 4), o.start_time + (TtvTime) (i * 100),
                                           (guint) e, v, 2, &error))
            goto fail;
        }
      if (!ttv_ltt_writer_close (w, &error))
        goto fail;
      double secs = (double) (g_get_monotonic_time () - t0) / 1e6;
      printf ("write: %" G_GUINT64_FORMAT " events in %.2f s: %.1f M events/s\n", n, secs, n / secs / 1e6);
    }

  g_autoptr (TtvTrace) t = ttv_trace_open (dir, &error);
  if (t == NULL)
    goto fail;
  guint nf = t->tracefiles->len;
  TtvCursor *c[64];
  TtvEvent ev[64];
  gboolean live[64];
  for (guint i = 0; i < nf && i < 64; i++)
    {
      c[i] = ttv_cursor_new (g_ptr_array_index (t->tracefiles, i), &error);
      live[i] = ttv_cursor_next (c[i], &ev[i], &error);
    }
  gint64 t0 = g_get_monotonic_time ();
  guint64 count = 0, sum = 0;
  for (;;)
    {
      /* Oldest of a few streams: a plain linear minimum. */
      gint best = -1;
      for (guint i = 0; i < nf; i++)
        if (live[i] && (best < 0 || ev[i].time < ev[best].time))
          best = (gint) i;
      if (best < 0)
        break;
      count++;
      sum += (guint64) ev[best].time;
      live[best] = ttv_cursor_next (c[best], &ev[best], &error);
    }
  if (error)
    goto fail;
  double secs = (double) (g_get_monotonic_time () - t0) / 1e6;
  printf ("merged read: %" G_GUINT64_FORMAT " events from %u cpu files in %.2f s: %.1f M events/s (checksum %" G_GUINT64_FORMAT ")\n",
          count, nf, secs, count / secs / 1e6, sum % 1000);
  for (guint i = 0; i < nf; i++)
    ttv_cursor_free (c[i]);
  return 0;

fail:
  fprintf (stderr, "ltt-speed: %s\n", error ? error->message : "failed");
  return 1;
}
