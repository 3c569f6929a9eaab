/* fuzz-ltt-skeleton.h: the small valid LTT trace the LTT fuzz targets damage
 * one file of.  Written once per process with the writer; removed at exit. */
#pragma once

#include "ttv-ltt-private.h"
#include "ttv-ltt.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../fuzz-files.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

static char *skeleton_dir;

static void
skeleton_cleanup (void)
{
  if (skeleton_dir)
    {
      char *parent = g_path_get_dirname (skeleton_dir);
      fuzz_remove_tree (parent);
      g_free (parent);
    }
}

static TtvType *
skeleton_int (guint bits, gboolean is_signed, TtvNativeSize native)
{
  TtvType *t = ttv_type_new_integer (bits, is_signed, TTV_BYTE_ORDER_LITTLE, bits);
  t->native_size = native;
  return t;
}

/* Writes the skeleton (events of every kind on cpu/0, 256-byte blocks). */
static const char *
skeleton_get (void)
{
  if (skeleton_dir)
    return skeleton_dir;
  char *tmp = fuzz_make_tmp_dir ("ttv-fuzz-ltt");
  skeleton_dir = g_build_filename (tmp, "trace", NULL);
  g_free (tmp);
  atexit (skeleton_cleanup);

  TtvLttWriterOptions o = { .byte_order = TTV_BYTE_ORDER_LITTLE, .arch_size = TTV_LTT_ARCH_ILP32,
                            .block_size = 256, .start_time = (TtvTime) 1000 * TTV_NSEC_PER_SEC,
                            .n_cpu_slots = 1 };
  GError *error = NULL;
  TtvLttWriter *w = ttv_ltt_writer_new (skeleton_dir, &o, &error);
  g_assert_no_error (error);
  guint f = ttv_ltt_writer_add_facility (w, "core", NULL);
  TtvType *a = ttv_type_new_struct ();
  ttv_type_add_field (a, "pid", skeleton_int (32, FALSE, TTV_NATIVE_NONE), NULL);
  ttv_type_add_field (a, "arg", skeleton_int (32, TRUE, TTV_NATIVE_LONG), NULL);
  TtvType *b = ttv_type_new_struct ();
  ttv_type_add_field (b, "name", ttv_type_new_string (), NULL);
  ttv_type_add_field (b, "args", ttv_type_new_sequence_prefixed (skeleton_int (16, FALSE, TTV_NATIVE_NONE),
                                                                 skeleton_int (8, FALSE, TTV_NATIVE_NONE)), NULL);
  TtvType *u = ttv_type_new_variant_prefixed (skeleton_int (8, FALSE, TTV_NATIVE_NONE));
  ttv_type_add_field (u, "n", skeleton_int (64, FALSE, TTV_NATIVE_NONE), NULL);
  ttv_type_add_field (u, "s", ttv_type_new_string (), NULL);
  ttv_type_add_field (b, "u", u, NULL);
  TtvType *e = ttv_type_new_enum (skeleton_int (32, FALSE, TTV_NATIVE_INT));
  ttv_type_add_mapping (e, "A", 0, 0);
  ttv_type_add_mapping (e, "B", 1, 1);
  ttv_type_add_field (b, "e", e, NULL);
  ttv_type_add_field (b, "arr", ttv_type_new_array (ttv_type_new_float (64, TTV_BYTE_ORDER_LITTLE, 64), 2), NULL);
  gint ea = ttv_ltt_writer_add_event (w, f, "fixed", NULL, a, &error);
  gint eb = ttv_ltt_writer_add_event (w, f, "var", NULL, b, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < 40; i++)
    {
      /* A 5 s gap forces a time_heartbeat. */
      TtvTime t = o.start_time + (TtvTime) i * 1000 + (i >= 20 ? 5 * TTV_NSEC_PER_SEC : 0);
      TtvScalar va[] = { TTV_SCALAR_UINT (i), TTV_SCALAR_INT (-(gint64) i) };
      TtvScalar vb[] = { TTV_SCALAR_STRING ("bash"), TTV_SCALAR_UINT (2), TTV_SCALAR_UINT (1),
                         TTV_SCALAR_UINT (2), TTV_SCALAR_UINT (i % 2),
                         i % 2 ? TTV_SCALAR_STRING ("x") : TTV_SCALAR_UINT (i), TTV_SCALAR_UINT (1),
                         TTV_SCALAR_FLOAT (1.5), TTV_SCALAR_FLOAT (-2) };
      gboolean ok = i % 3 ? ttv_ltt_writer_write_event (w, 0, t, (guint) ea, va, 2, &error)
                          : ttv_ltt_writer_write_event (w, 0, t, (guint) eb, vb, G_N_ELEMENTS (vb), &error);
      g_assert_no_error (error);
      g_assert (ok);
    }
  gboolean closed = ttv_ltt_writer_close (w, &error);
  g_assert_no_error (error);
  g_assert (closed);
  ttv_type_unref (a);
  ttv_type_unref (b);

  /* TTV_FUZZ_WRITE_CORPUS=DIR: save the skeleton's files as seeds. */
  const char *out = g_getenv ("TTV_FUZZ_WRITE_CORPUS");
  if (out)
    {
      static const char * const files[] = { "cpu/0", "eventdefs/core.xml" };
      static const char * const names[] = { "cpu0", "core.xml" };
      for (guint i = 0; i < 2; i++)
        {
          char *src = g_build_filename (skeleton_dir, files[i], NULL);
          char *dst = g_build_filename (out, names[i], NULL);
          char *data;
          gsize len;
          if (g_file_get_contents (src, &data, &len, NULL))
            g_file_set_contents (dst, data, (gssize) len, NULL);
          g_free (data);
          g_free (src);
          g_free (dst);
        }
    }
  return skeleton_dir;
}

static void
skeleton_write (const char *rel, const guint8 *data, size_t size)
{
  char *path = g_build_filename (skeleton_get (), rel, NULL);
  fuzz_write_file (path, data, size);
  g_free (path);
}

/* Opens the skeleton, reads and decodes every event; errors are expected. */
static void skeleton_read_cursor (TtvCursor *c, TtvDecoder *d);

static inline void
skeleton_read_all (void)
{
  GError *error = NULL;
  TtvTrace *t = ttv_trace_open (skeleton_dir, &error);
  if (t == NULL)
    {
      g_clear_error (&error);
      return;
    }
  TtvDecoder *d = ttv_decoder_new ();
  for (guint f = 0; f < t->tracefiles->len; f++)
    {
      TtvCursor *c = ttv_cursor_new (g_ptr_array_index (t->tracefiles, f), &error);
      if (c)
        {
          skeleton_read_cursor (c, d);
          ttv_cursor_free (c);
        }
      g_clear_error (&error);
    }
  ttv_decoder_free (d);
  ttv_trace_close (t);
}

/* Reads every event of @c (decoding each), seeking back and forth once. */
static void
skeleton_read_cursor (TtvCursor *c, TtvDecoder *d)
{
  GError *error = NULL;
  TtvEvent ev;
  guint n = 0;
  while (ttv_cursor_next (c, &ev, &error))
    {
      ttv_decoder_reset (d);
      if (ttv_event_decode_fields (&ev, d, &error) < 0)
        g_clear_error (&error);
      if (++n == 20)
        {
          TtvTracefilePosition pos = ev.pos;
          if (!ttv_cursor_seek_time (c, ev.time, &error))
            break;
          if (!ttv_cursor_seek_position (c, &pos, &error))
            break;
        }
    }
  g_clear_error (&error);
}

/* The skeleton opened once (system.xml, eventdefs and control files are
 * most of the cost of opening); the file @rel (beside cpu/0, which the
 * trace keeps mapped) is opened in it for each input and read as a CPU's
 * tracefile of the trace would be. */
static inline void
skeleton_read_tracefile (const char *rel)
{
  static TtvTrace *trace;
  GError *error = NULL;
  if (trace == NULL)
    {
      trace = ttv_trace_open (skeleton_get (), &error);
      g_assert_no_error (error);
    }
  char *path = g_build_filename (skeleton_dir, rel, NULL);
  TtvLttTrace *lt = trace->priv;
  TtvLttFile *f = ttv_ltt_file_open (path, &lt->sys, NULL, &error);
  g_free (path);
  if (f == NULL)
    {
      g_clear_error (&error);
      return;
    }
  TtvTracefile tf = { .trace = trace, .name = (char *) "cpu/0", .cpu = 0 };
  ttv_ltt_tracefile_fill (&tf, f);
  TtvCursor *c = ttv_cursor_new (&tf, &error);
  TtvDecoder *d = ttv_decoder_new ();
  g_assert_no_error (error);
  skeleton_read_cursor (c, d);
  ttv_cursor_free (c);
  ttv_decoder_free (d);
  ttv_ltt_file_free (f);
}
