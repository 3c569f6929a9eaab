/* fuzz-lttng-tracefile.c: libFuzzer target for the LTTng 0.x reader: the input
 * becomes cpu_0 of a small valid trace whose control files match its header. */
#include "ttv-lttng-private.h"
#include "ttv-lttng-writer.h"
#include "ttv-lttng.h"

#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

static void
rmrf (const char *path)
{
  GDir *d = g_dir_open (path, 0, NULL);
  const char *n;
  while (d && (n = g_dir_read_name (d)))
    {
      char *p = g_build_filename (path, n, NULL);
      if (g_file_test (p, G_FILE_TEST_IS_DIR))
        rmrf (p);
      else
        g_unlink (p);
      g_free (p);
    }
  if (d)
    g_dir_close (d);
  g_rmdir (path);
}

static void
add_int (TtvType *st, const char *name, guint bits, gboolean is_signed, TtvNativeSize native)
{
  TtvType *t = ttv_type_new_integer (bits, is_signed, TTV_BYTE_ORDER_LITTLE, bits);
  t->native_size = native;
  ttv_type_add_field (st, name, t, NULL);
}

/* Writes the control files (markers) for the clock and encoding of @data's
 * first header, so that damaged events, not a mismatch, are what gets read. */
static gboolean
write_control (const char *dir, const guint8 *data, size_t size)
{
  TtvLttngWriterOptions opts = { .arch_size = 8, .buf_size = 4096 };
  TtvLttngHeader h;
  TtvLttngLayout l;
  if (ttv_lttng_header_read (data, size, &h, "fuzz", 0, NULL)
      && ttv_lttng_layout_from_header (&h, &l, "fuzz", 0, NULL) && l.start_time >= 0)
    {
      opts.byte_order = l.byte_order;
      opts.arch_size = l.arch_size;
      opts.alignment = l.alignment;
      opts.tsc64 = !l.has_heartbeat;
      opts.start_freq = l.start_freq;
      opts.freq_scale = l.freq_scale;
      opts.start_tsc = l.start_tsc;
      opts.start_time = l.start_time;
    }
  TtvLttngWriter *w = ttv_lttng_writer_new (dir, &opts, NULL);
  if (w == NULL)
    return FALSE;
  TtvType *a = ttv_type_new_struct ();
  add_int (a, "prev_pid", 32, TRUE, TTV_NATIVE_NONE);
  add_int (a, "next_pid", 32, TRUE, TTV_NATIVE_NONE);
  add_int (a, "prev_state", 64, TRUE, TTV_NATIVE_LONG);
  ttv_type_add_field (a, "comm", ttv_type_new_string (), NULL);
  TtvType *b = ttv_type_new_struct ();
  add_int (b, "irq", 32, FALSE, TTV_NATIVE_NONE);
  add_int (b, "ip", 64, FALSE, TTV_NATIVE_POINTER);
  TtvType *c = ttv_type_new_struct ();
  ttv_type_add_field (c, "name", ttv_type_new_string (), NULL);
  add_int (c, "fd", 32, TRUE, TTV_NATIVE_NONE);
  add_int (c, "flags", 8, FALSE, TTV_NATIVE_NONE);
  add_int (c, "mode", 16, FALSE, TTV_NATIVE_NONE);
  add_int (c, "size", 64, FALSE, TTV_NATIVE_NONE);
  gboolean ok = ttv_lttng_writer_add_event (w, "kernel", "sched_switch", a, NULL) >= 0
                && ttv_lttng_writer_add_event (w, "kernel", "irq_entry", b, NULL) >= 0
                && ttv_lttng_writer_add_event (w, "fs", "open", c, NULL) >= 0;
  ttv_type_unref (a);
  ttv_type_unref (b);
  ttv_type_unref (c);
  return ttv_lttng_writer_close (w, NULL) && ok;
}

static char *base;

static void
remove_base (void)
{
  rmrf (base);
}

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  static guint64 n;
  if (base == NULL)
    {
      base = g_dir_make_tmp ("ttv-fuzz-lttng-XXXXXX", NULL);
      g_assert (base != NULL);
      atexit (remove_base);
    }
  char *dir = g_strdup_printf ("%s/t%" G_GUINT64_FORMAT, base, n++);
  char *cpu0 = g_build_filename (dir, "cpu_0", NULL);
  if (write_control (dir, data, size) && g_file_set_contents (cpu0, (const char *) data, size, NULL))
    {
      GError *error = NULL;
      TtvTrace *trace = ttv_trace_open (dir, &error);
      if (trace)
        {
          TtvDecoder *d = ttv_decoder_new ();
          for (guint i = 0; i < trace->tracefiles->len; i++)
            {
              TtvCursor *cur = ttv_cursor_new (g_ptr_array_index (trace->tracefiles, i), &error);
              g_assert (cur != NULL);
              TtvEvent ev;
              TtvTracefilePosition mid = { 0 };
              guint64 k = 0;
              while (ttv_cursor_next (cur, &ev, &error))
                {
                  ttv_decoder_reset (d);
                  if (ttv_event_decode_fields (&ev, d, &error) < 0)
                    g_clear_error (&error);
                  if (k++ == 3)
                    mid = ev.pos;
                }
              g_clear_error (&error);
              TtvTime t = trace->start <= trace->end
                          ? trace->start + (trace->end - trace->start) / 3 : 0;
              ttv_cursor_seek_time (cur, t, &error);
              g_clear_error (&error);
              while (ttv_cursor_next (cur, &ev, &error))
                ;
              g_clear_error (&error);
              ttv_cursor_seek_position (cur, &mid, &error);
              g_clear_error (&error);
              ttv_cursor_free (cur);
            }
          ttv_decoder_free (d);
          ttv_trace_close (trace);
        }
      else
        {
          /* Every refusal names a file. */
          g_assert (error != NULL && strstr (error->message, dir) != NULL);
          g_error_free (error);
        }
    }
  rmrf (dir);
  g_free (cpu0);
  g_free (dir);
  return 0;
}
