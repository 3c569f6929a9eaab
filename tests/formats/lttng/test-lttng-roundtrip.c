/* test-lttng-roundtrip.c: LTTng 0.x writer to reader round trips through every
 * header option, with seeks by time and by position checked against a linear scan. */
#include "lttng-test-util.h"
#include "ttv-lttng-private.h"

typedef struct {
  TtvByteOrder order;
  guint arch;
  guint align;
  gboolean tsc64;
  guint ring;          /* max_blocks_per_cpu */
  guint64 start_freq;
  guint32 freq_scale;
} Case;

#define START_TIME (G_GINT64_CONSTANT (1212364800) * TTV_NSEC_PER_SEC + 123456789)

typedef struct {
  TtvTime time;
  TtvTracefilePosition pos;
} Seen;

static void
check_seeks (TtvTracefile *tf, GArray *seen, GRand *r)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvCursor) c = ttv_cursor_new (tf, &error);
  g_assert_no_error (error);
  const Seen *first = &g_array_index (seen, Seen, 0);
  const Seen *last = &g_array_index (seen, Seen, seen->len - 1);
  for (guint k = 0; k < 60; k++)
    {
      TtvTime t;
      switch (k % 4)
        {
        case 0:
          t = g_array_index (seen, Seen, g_rand_int_range (r, 0, seen->len)).time;
          break;
        case 1:
          t = g_array_index (seen, Seen, g_rand_int_range (r, 0, seen->len)).time + 1;
          break;
        default:
          t = first->time - 1000 + (TtvTime) (g_rand_double (r) * (double) (last->time - first->time + 2000));
          break;
        }
      if (k == 0)
        t = TTV_TIME_MIN;
      if (k == 1)
        t = last->time + 1;
      guint want = 0;
      while (want < seen->len && g_array_index (seen, Seen, want).time < t)
        want++;
      g_assert_true (ttv_cursor_seek_time (c, t, &error));
      g_assert_no_error (error);
      TtvEvent ev;
      gboolean got = ttv_cursor_next (c, &ev, &error);
      g_assert_no_error (error);
      if (want == seen->len)
        g_assert_false (got);
      else
        {
          g_assert_true (got);
          const Seen *s = &g_array_index (seen, Seen, want);
          g_assert_cmpint (ev.time, ==, s->time);
          g_assert_cmpint (ttv_tracefile_position_compare (&ev.pos, &s->pos), ==, 0);
          g_assert_cmpuint (ev.pos.index, ==, s->pos.index);
        }
    }
  for (guint k = 0; k < 30; k++)
    {
      const Seen *s = &g_array_index (seen, Seen, g_rand_int_range (r, 0, seen->len));
      g_assert_true (ttv_cursor_seek_position (c, &s->pos, &error));
      g_assert_no_error (error);
      TtvEvent ev;
      g_assert_true (ttv_cursor_next (c, &ev, &error));
      g_assert_cmpint (ev.time, ==, s->time);
      g_assert_cmpint (ttv_tracefile_position_compare (&ev.pos, &s->pos), ==, 0);
    }
  /* A position that names no event is refused. */
  TtvTracefilePosition bad = first->pos;
  bad.offset += 1;
  g_assert_false (ttv_cursor_seek_position (c, &bad, &error));
  g_assert_error (error, TTV_ENGINE_ERROR, TTV_ENGINE_ERROR_BAD_POSITION);
}

static void
test_roundtrip (gconstpointer data)
{
  const Case *cs = data;
  g_autofree char *dir = lttng_test_tmp_trace ();
  LttngTestWorkload *wl = lttng_test_workload_new (1500, cs->arch, TRUE, START_TIME, 7 + cs->arch);
  TtvLttngWriterOptions opts = {
    .byte_order = cs->order,
    .arch_size = cs->arch,
    .alignment = cs->align,
    .tsc64 = cs->tsc64,
    .buf_size = 1024,
    .start_freq = cs->start_freq,
    .freq_scale = cs->freq_scale,
    /* 32-bit counters wrap a few microseconds in */
    .start_tsc = cs->tsc64 ? G_GUINT64_CONSTANT (5000000000000) : G_GUINT64_CONSTANT (0x3fffff000),
    .start_time = START_TIME,
    .max_blocks_per_cpu = cs->ring,
  };
  lttng_test_write (wl, dir, &opts);

  g_autoptr (GError) error = NULL;
  g_autoptr (TtvTrace) trace = ttv_trace_open (dir, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (trace->format->name, ==, "lttng");
  g_assert_cmpuint (trace->tracefiles->len, ==, 3);
  g_assert_cmpuint (trace->event_types->len, ==, wl->markers->len);
  if (cs->ring)
    {
      g_assert_true (trace->flags & TTV_TRACE_FLAG_BEGINNING_MISSING);
      g_assert_cmpuint (trace->warnings->len, >=, 1);
    }
  else
    {
      g_assert_false (trace->flags & TTV_TRACE_FLAG_BEGINNING_MISSING);
      g_assert_cmpuint (trace->warnings->len, ==, 0);
    }

  static const gint cpus[] = { 0, 2, 5 };
  g_autoptr (TtvDecoder) d = ttv_decoder_new ();
  GRand *r = g_rand_new_with_seed (99);
  for (guint i = 0; i < 3; i++)
    {
      TtvTracefile *tf = g_ptr_array_index (trace->tracefiles, i);
      g_autofree char *name = g_strdup_printf ("cpu_%d", cpus[i]);
      g_assert_cmpstr (tf->name, ==, name);
      g_assert_cmpint (tf->cpu, ==, cpus[i]);
      g_autoptr (GPtrArray) want = g_ptr_array_new ();
      for (guint k = 0; k < wl->events->len; k++)
        {
          LttngTestEvent *e = &g_array_index (wl->events, LttngTestEvent, k);
          if (e->stream == cpus[i])
            g_ptr_array_add (want, e);
        }
      g_autoptr (TtvCursor) c = ttv_cursor_new (tf, &error);
      g_assert_no_error (error);
      g_autoptr (GArray) seen = g_array_new (FALSE, FALSE, sizeof (Seen));
      TtvEvent ev;
      while (ttv_cursor_next (c, &ev, &error))
        {
          Seen s = { ev.time, ev.pos };
          g_array_append_val (seen, s);
        }
      g_assert_no_error (error);
      g_assert_cmpuint (seen->len, >, 0);
      /* A ring keeps the most recent blocks: the events read are the last ones written. */
      if (cs->ring)
        {
          g_assert_cmpuint (seen->len, <, want->len);
          g_assert_cmpuint (tf->n_blocks, <=, cs->ring);
        }
      else
        g_assert_cmpuint (seen->len, ==, want->len);
      guint skip = want->len - seen->len;
      g_assert_true (ttv_cursor_seek_time (c, TTV_TIME_MIN, &error));
      for (guint k = 0; k < seen->len; k++)
        {
          g_assert_true (ttv_cursor_next (c, &ev, &error));
          g_assert_no_error (error);
          lttng_test_check_event (wl, g_ptr_array_index (want, skip + k), &ev, d);
        }
      g_assert_false (ttv_cursor_next (c, &ev, &error));
      g_assert_no_error (error);
      g_assert_cmpint (tf->start, ==, g_array_index (seen, Seen, 0).time);
      g_assert_cmpint (tf->end, ==, g_array_index (seen, Seen, seen->len - 1).time);
      check_seeks (tf, seen, r);
    }
  g_rand_free (r);
  lttng_test_workload_free (wl);
}

/* The bytes of seed 001 at the offsets docs/lttng-format.md gives. */
static void
test_layout_bytes (gconstpointer data)
{
  TtvByteOrder order = GPOINTER_TO_INT (data);
  g_autofree char *dir = lttng_test_tmp_trace ();
  g_autoptr (GError) error = NULL;
  TtvLttngWriterOptions opts = {
    .byte_order = order, .arch_size = 8, .alignment = 0, .buf_size = 4096,
    .start_tsc = 1000, .start_time = 5 * TTV_NSEC_PER_SEC,
  };
  TtvLttngWriter *w = ttv_lttng_writer_new (dir, &opts, &error);
  g_assert_no_error (error);
  g_autoptr (TtvType) st = ttv_type_new_struct ();
  ttv_type_add_field (st, "irq", ttv_type_new_integer (32, FALSE, order, 32), NULL);
  g_autoptr (TtvType) empty = ttv_type_new_struct ();
  g_assert_cmpint (ttv_lttng_writer_add_event (w, "kernel", "nothing", empty, &error), ==, 0);
  g_assert_cmpint (ttv_lttng_writer_add_event (w, "kernel", "irq_entry", st, &error), ==, 1);
  TtvScalar v = TTV_SCALAR_UINT (0x11223344);
  g_assert_true (ttv_lttng_writer_write_event (w, 0, 5 * TTV_NSEC_PER_SEC + 5, 1, &v, 1, &error));
  g_assert_true (ttv_lttng_writer_close (w, &error));
  g_assert_no_error (error);

  g_autofree char *path = g_build_filename (dir, "cpu_0", NULL);
  g_autofree guint8 *b = NULL;
  gsize len;
  g_assert_true (g_file_get_contents (path, (char **) &b, &len, &error));
  g_assert_cmpuint (len, ==, 4096);
  gboolean le = order == TTV_BYTE_ORDER_LITTLE;
  static const guint8 magic_le[] = { 0xED, 0xB7, 0xD6, 0x00 };
  static const guint8 magic_be[] = { 0x00, 0xD6, 0xB7, 0xED };
  g_assert_cmpmem (b + 40, 4, le ? magic_le : magic_be, 4);
  g_assert_cmpuint (ttv_read_bits (b, 0, 64, order), ==, 1005);          /* begin cycle_count */
  g_assert_cmpuint (ttv_read_bits (b, 8 * 8, 64, order), ==, 1000000000); /* begin freq */
  g_assert_cmpuint (ttv_read_bits (b, 16 * 8, 64, order), ==, 1005);     /* end cycle_count */
  g_assert_cmpuint (ttv_read_bits (b, 32 * 8, 32, order), ==, 4096 - 113); /* lost_size */
  g_assert_cmpuint (ttv_read_bits (b, 36 * 8, 32, order), ==, 4096);     /* buf_size */
  g_assert_cmpuint (b[56], ==, 8);   /* arch_size */
  g_assert_cmpuint (b[59], ==, 0);   /* flight_recorder */
  g_assert_cmpuint (b[60], ==, 1);   /* has_heartbeat */
  g_assert_cmpuint (b[61], ==, 0);   /* alignment */
  g_assert_cmpuint (ttv_read_bits (b, 65 * 8, 32, order), ==, 1);        /* freq_scale */
  g_assert_cmpuint (ttv_read_bits (b, 69 * 8, 64, order), ==, 1000000000); /* start_freq */
  g_assert_cmpuint (ttv_read_bits (b, 77 * 8, 64, order), ==, 1000);     /* start_tsc */
  g_assert_cmpuint (ttv_read_bits (b, 93 * 8, 32, order), ==, 5);        /* start_time s */
  g_assert_cmpuint (ttv_read_bits (b, 97 * 8, 32, order), ==, 0);        /* start_time ns */
  /* event header: 32-bit TSC, facility_id, event_id, event_size; then the payload */
  g_assert_cmpuint (ttv_read_bits (b, 101 * 8, 32, order), ==, 1005);
  g_assert_cmpuint (b[105], ==, 1);
  g_assert_cmpuint (b[106], ==, 1);
  g_assert_cmpuint (ttv_read_bits (b, 107 * 8, 16, order), ==, 4);
  g_assert_cmpuint (ttv_read_bits (b, 109 * 8, 32, order), ==, 0x11223344);
  for (gsize i = 113; i < len; i++)
    g_assert_cmpuint (b[i], ==, 0);

  g_autofree char *fac = g_build_filename (dir, "control", "facilities_0", NULL);
  g_assert_true (g_file_test (fac, G_FILE_TEST_IS_REGULAR));
  for (guint i = 0; i < 5; i++)
    {
      static const char *ch[] = { "facilities", "interrupts", "modules", "network", "processes" };
      g_autofree char *n = g_strdup_printf ("%s_0", ch[i]);
      g_autofree char *p = g_build_filename (dir, "control", n, NULL);
      g_assert_true (g_file_test (p, G_FILE_TEST_IS_REGULAR));
    }
}

/* time = start_time + (tsc - start_tsc) * 1e9 * freq_scale / start_freq, floored. */
static void
test_time_formula (void)
{
  TtvLttngLayout l = {
    .start_time = 10 * TTV_NSEC_PER_SEC, .start_tsc = 1000,
    .start_freq = 4800000000u, .freq_scale = 2,   /* 2.4 GHz */
  };
  g_assert_cmpint (ttv_lttng_cycles_to_time (&l, 1000), ==, 10 * TTV_NSEC_PER_SEC);
  g_assert_cmpint (ttv_lttng_cycles_to_time (&l, 1000 + 2400), ==, 10 * TTV_NSEC_PER_SEC + 1000);
  g_assert_cmpint (ttv_lttng_cycles_to_time (&l, 1000 + 2401), ==, 10 * TTV_NSEC_PER_SEC + 1000);
  g_assert_cmpint (ttv_lttng_cycles_to_time (&l, 1000 - 24), ==, 10 * TTV_NSEC_PER_SEC - 10);
  g_assert_cmpint (ttv_lttng_cycles_to_time (&l, 1000 - 1), ==, 10 * TTV_NSEC_PER_SEC - 1);
  /* 1 hour later: no overflow */
  g_assert_cmpint (ttv_lttng_cycles_to_time (&l, 1000 + G_GUINT64_CONSTANT (2400000000) * 3600), ==,
                   (10 + 3600) * TTV_NSEC_PER_SEC);
  for (TtvTime t = 10 * TTV_NSEC_PER_SEC - 50; t < 10 * TTV_NSEC_PER_SEC + 50; t++)
    g_assert_cmpint (ttv_lttng_cycles_to_time (&l, ttv_lttng_time_to_cycles (&l, t)), ==, t);
  /* 500 MHz: 2 ns per cycle */
  TtvLttngLayout slow = { .start_time = 0, .start_tsc = 0, .start_freq = 500000000u, .freq_scale = 1 };
  g_assert_cmpint (ttv_lttng_cycles_to_time (&slow, 3), ==, 6);
  g_assert_cmpuint (ttv_lttng_time_to_cycles (&slow, 5), ==, 3);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_data_func ("/lttng/layout/bytes-little", GINT_TO_POINTER (TTV_BYTE_ORDER_LITTLE),
                        test_layout_bytes);
  g_test_add_data_func ("/lttng/layout/bytes-big", GINT_TO_POINTER (TTV_BYTE_ORDER_BIG),
                        test_layout_bytes);
  g_test_add_func ("/lttng/time/formula", test_time_formula);

  GPtrArray *cases = g_ptr_array_new_with_free_func (g_free);
  for (guint o = 0; o < 2; o++)
    for (guint a = 0; a < 2; a++)
      for (guint aligned = 0; aligned < 2; aligned++)
        for (guint t = 0; t < 2; t++)
          for (guint ring = 0; ring < 2; ring++)
            {
              Case *cs = g_new0 (Case, 1);
              cs->order = o ? TTV_BYTE_ORDER_BIG : TTV_BYTE_ORDER_LITTLE;
              cs->arch = a ? 8 : 4;
              cs->align = aligned ? cs->arch : 0;
              cs->tsc64 = t;
              cs->ring = ring ? 3 : 0;
              g_ptr_array_add (cases, cs);
            }
  /* Alignments other than arch_size, and a clock other than 1 GHz. */
  static const Case extra[] = {
    { TTV_BYTE_ORDER_LITTLE, 8, 2, FALSE, 0, 0, 0 },
    { TTV_BYTE_ORDER_BIG, 4, 8, FALSE, 0, 0, 0 },
    { TTV_BYTE_ORDER_LITTLE, 8, 1, TRUE, 0, 0, 0 },
    { TTV_BYTE_ORDER_BIG, 8, 8, FALSE, 0, 4800000000u, 2 },
    { TTV_BYTE_ORDER_LITTLE, 4, 0, FALSE, 2, 3000000000u, 1 },
  };
  for (guint i = 0; i < G_N_ELEMENTS (extra); i++)
    g_ptr_array_add (cases, g_memdup2 (&extra[i], sizeof extra[i]));
  for (guint i = 0; i < cases->len; i++)
    {
      const Case *cs = g_ptr_array_index (cases, i);
      g_autofree char *path = g_strdup_printf (
          "/lttng/roundtrip/%s-arch%u-%s%u-tsc%s%s%s", cs->order ? "be" : "le", cs->arch,
          cs->align ? "align" : "packed", cs->align, cs->tsc64 ? "64" : "32-heartbeat",
          cs->ring ? "-flight-recorder" : "", cs->start_freq ? "-freq" : "");
      g_test_add_data_func (path, cs, test_roundtrip);
    }
  int ret = g_test_run ();
  g_ptr_array_unref (cases);
  return ret;
}
