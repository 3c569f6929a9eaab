/* fuzz-lttng-tracefile.c: libFuzzer target for the LTTng 0.x reader: the input
 * becomes cpu_0 of a small valid trace whose control files match its header. */
#include "ttv-lttng-private.h"
#include "ttv-lttng-writer.h"
#include "ttv-lttng.h"
#include "../fuzz-files.h"

#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

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
static char *dir;
static guint8 last_header[TTV_LTTNG_HEADER_SIZE];
static gboolean have_control;

static void
remove_base (void)
{
  fuzz_remove_tree (base);
  g_free (base);
  g_free (dir);
}

/* The control files depend only on the first header: rewritten when it
 * changes, not for each input (the writer costs far more than a read). */
static gboolean
update_control (const guint8 *data, size_t size)
{
  guint8 header[TTV_LTTNG_HEADER_SIZE] = { 0 };
  memcpy (header, data, MIN (size, sizeof header));
  if (have_control && memcmp (header, last_header, sizeof header) == 0)
    return TRUE;
  fuzz_remove_tree (dir);
  have_control = write_control (dir, data, size);
  memcpy (last_header, header, sizeof header);
  return have_control;
}

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  if (base == NULL)
    {
      base = fuzz_make_tmp_dir ("ttv-fuzz-lttng");
      dir = g_build_filename (base, "t", NULL);
      atexit (remove_base);
    }
  char *cpu0 = g_build_filename (dir, "cpu_0", NULL);
  if (update_control (data, size))
    {
      fuzz_write_file (cpu0, data, size);
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
                          ? trace->start + (TtvTime) (ttv_time_span_ns (trace->start, trace->end) / 3) : 0;
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
  g_free (cpu0);
  return 0;
}
