/* test-ltt-roundtrip.c: traces written by ttv-ltt-writer and read back by the
 * LTT reader: every type, both byte orders, every arch_size, seeks, flight recorder. */
#include "ttv-ltt.h"
#include "ttv-ltt-private.h"
#include "ttv-error.h"
#include "ltt-test-util.h"

#define START ((TtvTime) 1700000000 * TTV_NSEC_PER_SEC)

static const char * const strings[] = { "", "a", "hello", "kworker/0:1", "éèà", "x y z" };

/* --- a type with every kind --------------------------------------------- */

static TtvType *
native (TtvNativeSize n, gboolean is_signed)
{
  TtvType *t = ttv_type_new_integer (32, is_signed, TTV_BYTE_ORDER_NATIVE, 32);
  t->native_size = n;
  return t;
}

static TtvType *
fixed (guint bits, gboolean is_signed)
{
  return ttv_type_new_integer (bits, is_signed, TTV_BYTE_ORDER_NATIVE, bits);
}

static TtvType *
pair_type (void)
{
  TtvType *p = ttv_type_new_struct ();
  ttv_type_add_field (p, "first", fixed (32, FALSE), NULL);
  ttv_type_add_field (p, "second", fixed (32, FALSE), "the second one");
  p->name = g_strdup ("pair");
  return p;
}

static TtvType *
all_type (void)
{
  TtvType *s = ttv_type_new_struct ();
  static const guint sizes[] = { 8, 16, 32, 64 };
  for (guint i = 0; i < 4; i++)
    {
      g_autofree char *a = g_strdup_printf ("i%u", sizes[i] / 8);
      g_autofree char *b = g_strdup_printf ("u%u", sizes[i] / 8);
      ttv_type_add_field (s, a, fixed (sizes[i], TRUE), NULL);
      ttv_type_add_field (s, b, fixed (sizes[i], FALSE), NULL);
    }
  ttv_type_add_field (s, "short", native (TTV_NATIVE_SHORT, TRUE), NULL);
  ttv_type_add_field (s, "medium", native (TTV_NATIVE_INT, TRUE), NULL);
  ttv_type_add_field (s, "long", native (TTV_NATIVE_LONG, TRUE), NULL);
  ttv_type_add_field (s, "ushort", native (TTV_NATIVE_SHORT, FALSE), NULL);
  ttv_type_add_field (s, "umedium", native (TTV_NATIVE_INT, FALSE), NULL);
  ttv_type_add_field (s, "ulong", native (TTV_NATIVE_LONG, FALSE), NULL);
  ttv_type_add_field (s, "pointer", native (TTV_NATIVE_POINTER, FALSE), NULL);
  ttv_type_add_field (s, "f4", ttv_type_new_float (32, TTV_BYTE_ORDER_NATIVE, 32), NULL);
  ttv_type_add_field (s, "f8", ttv_type_new_float (64, TTV_BYTE_ORDER_NATIVE, 64), NULL);
  ttv_type_add_field (s, "str", ttv_type_new_string (), "a string");
  TtvType *e = ttv_type_new_enum (native (TTV_NATIVE_INT, FALSE));
  ttv_type_add_mapping (e, "Running", 0, 0);
  ttv_type_add_mapping (e, "Waiting", 1, 1);
  ttv_type_add_mapping (e, "Zombie", 2, 2);
  ttv_type_add_field (s, "state", e, NULL);
  ttv_type_add_field (s, "arr", ttv_type_new_array (fixed (16, FALSE), 3), NULL);
  ttv_type_add_field (s, "names", ttv_type_new_sequence_prefixed (ttv_type_new_string (),
                                                                  fixed (8, FALSE)), NULL);
  ttv_type_add_field (s, "nums", ttv_type_new_sequence_prefixed (fixed (32, TRUE),
                                                                 native (TTV_NATIVE_INT, FALSE)), NULL);
  TtvType *inner = ttv_type_new_struct ();
  ttv_type_add_field (inner, "a", fixed (8, FALSE), NULL);
  ttv_type_add_field (inner, "b", fixed (64, FALSE), NULL);
  ttv_type_add_field (s, "inner", inner, NULL);
  TtvType *u = ttv_type_new_variant_prefixed (fixed (8, FALSE));
  ttv_type_add_field (u, "x", fixed (32, FALSE), NULL);
  ttv_type_add_field (u, "y", ttv_type_new_string (), NULL);
  TtvType *z = ttv_type_new_struct ();
  ttv_type_add_field (z, "p", fixed (16, TRUE), NULL);
  ttv_type_add_field (z, "q", ttv_type_new_float (64, TTV_BYTE_ORDER_NATIVE, 64), NULL);
  ttv_type_add_field (u, "z", z, NULL);
  ttv_type_add_field (s, "choice", u, NULL);
  ttv_type_add_field (s, "p1", pair_type (), NULL);
  ttv_type_add_field (s, "tail", fixed (8, FALSE), NULL);
  ttv_type_add_field (s, "p2", pair_type (), NULL);
  return s;
}

static TtvType *
small_type (void)
{
  TtvType *s = ttv_type_new_struct ();
  ttv_type_add_field (s, "p", pair_type (), NULL);
  ttv_type_add_field (s, "n", fixed (32, FALSE), NULL);
  return s;
}

static TtvType *
process_type (void)
{
  static const char * const names[] = { "pid", "ppid", "tracer_pid", "uid", "euid", "suid", "fsuid",
                                        "gid", "egid", "sgid", "fsgid" };
  TtvType *s = ttv_type_new_struct ();
  ttv_type_add_field (s, "name", ttv_type_new_string (), NULL);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    ttv_type_add_field (s, names[i], fixed (32, FALSE), NULL);
  TtvType *e = ttv_type_new_enum (fixed (32, FALSE));
  static const char * const st[] = { "Running", "WaitInterruptible", "WaitUninterruptible", "Zombie",
                                     "Traced", "Paging" };
  for (guint i = 0; i < G_N_ELEMENTS (st); i++)
    ttv_type_add_mapping (e, st[i], i, i);
  ttv_type_add_field (s, "state", e, NULL);
  return s;
}

static TtvType *
interrupt_type (void)
{
  TtvType *s = ttv_type_new_struct ();
  ttv_type_add_field (s, "number", fixed (32, FALSE), NULL);
  ttv_type_add_field (s, "count", fixed (32, FALSE), NULL);
  ttv_type_add_field (s, "controller", ttv_type_new_string (), NULL);
  ttv_type_add_field (s, "name", ttv_type_new_string (), NULL);
  return s;
}

/* --- value generation ----------------------------------------------------- */

typedef struct {
  guint short_bits, int_bits, long_bits, pointer_bits;
} Arch;

static guint
resolved_bits (const TtvType *t, const Arch *a)
{
  switch (t->native_size)
    {
    case TTV_NATIVE_SHORT: return a->short_bits;
    case TTV_NATIVE_INT: return a->int_bits;
    case TTV_NATIVE_LONG: return a->long_bits;
    case TTV_NATIVE_POINTER: return a->pointer_bits;
    default: return t->size_bits;
    }
}

static guint64
random_bits (GRand *r, guint bits)
{
  guint64 v = ((guint64) g_rand_int (r) << 32) | g_rand_int (r);
  switch (g_rand_int_range (r, 0, 4))
    {
    case 0: v = 0; break;
    case 1: v = ~(guint64) 0; break;
    default: break;
    }
  return bits == 64 ? v : v & ((G_GUINT64_CONSTANT (1) << bits) - 1);
}

static void
gen (const TtvType *t, const Arch *a, GRand *r, GArray *out)
{
  TtvScalar s = { 0 };
  switch (t->kind)
    {
    case TTV_TYPE_INTEGER:
      {
        guint bits = resolved_bits (t, a);
        guint64 v = random_bits (r, bits);
        if (t->is_signed && bits < 64 && (v >> (bits - 1)) & 1)
          v |= ~(guint64) 0 << bits;   /* sign-extend */
        s = TTV_SCALAR_UINT (v);
      }
      break;
    case TTV_TYPE_ENUM:
      s = TTV_SCALAR_UINT (g_rand_int_range (r, 0, (gint32) t->mappings->len));
      break;
    case TTV_TYPE_FLOAT:
      s = TTV_SCALAR_FLOAT (t->size_bits == 32 ? (double) (float) g_rand_double_range (r, -1e6, 1e6)
                                               : g_rand_double_range (r, -1e300, 1e300));
      break;
    case TTV_TYPE_STRING:
      s = TTV_SCALAR_STRING (strings[g_rand_int_range (r, 0, G_N_ELEMENTS (strings))]);
      break;
    case TTV_TYPE_ARRAY:
      for (guint64 i = 0; i < t->length; i++)
        gen (t->element, a, r, out);
      return;
    case TTV_TYPE_SEQUENCE:
      {
        guint n = (guint) g_rand_int_range (r, 0, 4);
        s = TTV_SCALAR_UINT (n);
        g_array_append_val (out, s);
        for (guint i = 0; i < n; i++)
          gen (t->element, a, r, out);
      }
      return;
    case TTV_TYPE_VARIANT:
      {
        guint k = (guint) g_rand_int_range (r, 0, (gint32) t->fields->len);
        s = TTV_SCALAR_UINT (k);
        g_array_append_val (out, s);
        gen (((TtvField *) g_ptr_array_index (t->fields, k))->type, a, r, out);
      }
      return;
    case TTV_TYPE_STRUCT:
      for (guint i = 0; i < t->fields->len; i++)
        gen (((TtvField *) g_ptr_array_index (t->fields, i))->type, a, r, out);
      return;
    }
  g_array_append_val (out, s);
}

/* --- the round trip ------------------------------------------------------- */

typedef struct {
  gint stream;
  TtvTime time;
  guint event;                  /* writer handle */
  GArray *values;               /* of TtvScalar */
} Written;

static void
written_free (gpointer p)
{
  Written *w = p;
  g_array_unref (w->values);
  g_free (w);
}

typedef struct {
  TtvByteOrder order;
  TtvLttArchSize arch;
  guint64 freq;
} Config;

static void
test_types (gconstpointer data)
{
  const Config *cfg = data;
  g_autofree char *dir = ltt_test_tmp_trace ("trace");
  static const guint sizes[4][4] = { { 16, 16, 32, 32 }, { 16, 32, 32, 32 }, { 16, 32, 64, 64 },
                                     { 16, 64, 64, 64 } };
  Arch arch = { sizes[cfg->arch][0], sizes[cfg->arch][1], sizes[cfg->arch][2], sizes[cfg->arch][3] };
  TtvLttWriterOptions o = {
    .byte_order = cfg->order, .arch_size = cfg->arch, .block_size = 1024,
    .cycles_per_second = cfg->freq, .start_time = START, .n_cpu_slots = 4,
    .description = "round trip <test> & more",
  };
  g_autoptr (GError) error = NULL;
  TtvLttWriter *w = ttv_ltt_writer_new (dir, &o, &error);
  g_assert_no_error (error);
  guint core = ttv_ltt_writer_add_facility (w, "core", "Core events");
  guint net = ttv_ltt_writer_add_facility (w, "net", NULL);
  g_autoptr (TtvType) all = all_type ();
  g_autoptr (TtvType) small = small_type ();
  g_autoptr (TtvType) empty = ttv_type_new_struct ();
  g_autoptr (TtvType) proc = process_type ();
  g_autoptr (TtvType) irq = interrupt_type ();
  gint ev_all = ttv_ltt_writer_add_event (w, core, "all", "every type", all, &error);
  g_assert_no_error (error);
  gint ev_small = ttv_ltt_writer_add_event (w, net, "small", NULL, small, &error);
  g_assert_no_error (error);
  gint ev_empty = ttv_ltt_writer_add_event (w, core, "empty", NULL, empty, &error);
  gint ev_proc = ttv_ltt_writer_add_event (w, core, "process", "Existing process", proc, &error);
  gint ev_irq = ttv_ltt_writer_add_event (w, core, "interrupt", NULL, irq, &error);
  g_assert_no_error (error);
  g_assert_cmpint (ev_irq, ==, 4);
  const TtvType *types[] = { all, small, empty, proc, irq };

  g_autoptr (GRand) r = g_rand_new_with_seed (42 + cfg->arch * 2 + cfg->order);
  g_autoptr (GPtrArray) written = g_ptr_array_new_with_free_func (written_free);
  TtvTime now[3] = { START, START + 5, START };
  for (guint i = 0; i < 600; i++)
    {
      Written *wr = g_new0 (Written, 1);
      wr->values = g_array_new (FALSE, FALSE, sizeof (TtvScalar));
      guint k = (guint) g_rand_int_range (r, 0, 3);
      wr->stream = k == 2 ? 3 : (gint) k;   /* cpus 0, 1, 3 (sparse) */
      /* Gaps up to 6 s force heartbeats now and then at 1 GHz and above. */
      now[k] += g_rand_int_range (r, 0, 50) == 0 ? (TtvTime) 6 * TTV_NSEC_PER_SEC
                                                : g_rand_int_range (r, 0, 3) * 1000;
      wr->time = now[k];
      gint e = g_rand_int_range (r, 0, 3) == 0 ? ev_small : (i % 7 == 0 ? ev_empty : ev_all);
      wr->event = (guint) e;
      gen (types[e], &arch, r, wr->values);
      g_assert_true (ttv_ltt_writer_write_event (w, wr->stream, wr->time, wr->event,
                                                 (TtvScalar *) wr->values->data, wr->values->len,
                                                 &error));
      g_assert_no_error (error);
      g_ptr_array_add (written, wr);
    }
  for (guint i = 0; i < 3; i++)
    {
      TtvScalar p[] = { TTV_SCALAR_STRING (strings[i + 1]), TTV_SCALAR_UINT (i + 1), TTV_SCALAR_UINT (0),
                        TTV_SCALAR_UINT (0), TTV_SCALAR_UINT (i), TTV_SCALAR_UINT (i), TTV_SCALAR_UINT (i),
                        TTV_SCALAR_UINT (i), TTV_SCALAR_UINT (7), TTV_SCALAR_UINT (7), TTV_SCALAR_UINT (7),
                        TTV_SCALAR_UINT (7), TTV_SCALAR_UINT (i) };
      g_assert_true (ttv_ltt_writer_write_event (w, TTV_LTT_STREAM_PROCESSES, START, (guint) ev_proc,
                                                 p, G_N_ELEMENTS (p), &error));
      TtvScalar q[] = { TTV_SCALAR_UINT (i + 10), TTV_SCALAR_UINT (100 * i), TTV_SCALAR_STRING ("IO-APIC"),
                        TTV_SCALAR_STRING (strings[i]) };
      g_assert_true (ttv_ltt_writer_write_event (w, TTV_LTT_STREAM_INTERRUPTS, START + i, (guint) ev_irq,
                                                 q, G_N_ELEMENTS (q), &error));
    }
  /* Bad calls are refused without harming the trace. */
  TtvScalar bad[] = { TTV_SCALAR_UINT (1) };
  g_assert_false (ttv_ltt_writer_write_event (w, 0, now[0], (guint) ev_small, bad, 1, &error));
  g_assert_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (ttv_ltt_writer_write_event (w, 0, now[0] - 1, (guint) ev_empty, NULL, 0, &error));
  g_clear_error (&error);
  g_assert_true (ttv_ltt_writer_close (w, &error));
  g_assert_no_error (error);

  /* Read back. */
  g_autoptr (TtvTrace) t = ttv_trace_open (dir, &error);
  g_assert_no_error (error);
  g_assert_nonnull (t);
  g_assert_cmpstr (t->format->name, ==, "ltt");
  g_assert_cmpuint (t->tracefiles->len, ==, 3);
  g_assert_cmpuint (t->warnings->len, ==, 0);
  g_assert_false (t->flags & TTV_TRACE_FLAG_BEGINNING_MISSING);
  static const char * const archs[] = { "LP32", "ILP32", "LP64", "ILP64" };
  g_assert_cmpstr (ttv_trace_get_info (t, "arch_size"), ==, archs[cfg->arch]);
  g_assert_cmpstr (ttv_trace_get_info (t, "description"), ==, "round trip <test> & more");
  const TtvEventType *et = ttv_trace_find_event_type (t, "core.all");
  g_assert_nonnull (et);
  g_assert_cmpstr (et->description, ==, "every type");
  g_assert_nonnull (ttv_trace_find_event_type (t, "net.small"));
  gint pi = ttv_type_find_field (et->fields, "p1");
  g_assert_cmpint (pi, >=, 0);
  g_assert_cmpstr (((TtvField *) g_ptr_array_index (et->fields->fields, pi))->type->name, ==, "pair");

  g_autoptr (TtvDecoder) d = ttv_decoder_new ();
  g_autoptr (GArray) got = g_array_new (FALSE, FALSE, sizeof (TtvScalar));
  guint n_read = 0;
  for (guint f = 0; f < t->tracefiles->len; f++)
    {
      TtvTracefile *tf = g_ptr_array_index (t->tracefiles, f);
      g_autoptr (TtvCursor) c = ttv_cursor_new (tf, &error);
      g_assert_no_error (error);
      guint k = 0;
      TtvEvent ev;
      while (ttv_cursor_next (c, &ev, &error))
        {
          while (k < written->len && ((Written *) g_ptr_array_index (written, k))->stream != tf->cpu)
            k++;
          g_assert_cmpuint (k, <, written->len);
          const Written *wr = g_ptr_array_index (written, k++);
          const char *names[] = { "all", "small", "empty" };
          g_assert_cmpstr (ev.type->name, ==, names[wr->event]);
          /* Exact at 1 GHz (the default) and 3 GHz; else rounded down to a cycle. */
          if (cfg->freq == 0 || cfg->freq == 3000000000u)
            g_assert_cmpint (ev.time, ==, wr->time);
          else
            {
              g_assert_cmpint (ev.time, <=, wr->time);
              g_assert_cmpint (wr->time - ev.time, <=, TTV_NSEC_PER_SEC / (gint64) cfg->freq + 1);
            }
          ttv_decoder_reset (d);
          gint32 root = ttv_event_decode_fields (&ev, d, &error);
          g_assert_no_error (error);
          g_array_set_size (got, 0);
          ltt_test_flatten (d, (guint32) root, got);
          ltt_test_assert_scalars ((TtvScalar *) wr->values->data, wr->values->len, got);
          n_read++;
        }
      g_assert_no_error (error);
    }
  g_assert_cmpuint (n_read, ==, written->len);

  const GArray *procs = ttv_trace_get_processes (t);
  g_assert_cmpuint (procs->len, ==, 3);
  const TtvTraceProcess *p2 = &g_array_index (procs, TtvTraceProcess, 2);
  g_assert_cmpstr (p2->name, ==, "kworker/0:1");
  g_assert_cmpuint (p2->pid, ==, 3);
  g_assert_cmpuint (p2->fsgid, ==, 7);
  g_assert_cmpstr (p2->state_name, ==, "WaitUninterruptible");
  g_assert_cmpint (p2->time, ==, START);
  const GArray *irqs = ttv_trace_get_interrupts (t);
  g_assert_cmpuint (irqs->len, ==, 3);
  const TtvTraceInterrupt *i1 = &g_array_index (irqs, TtvTraceInterrupt, 1);
  g_assert_cmpuint (i1->number, ==, 11);
  g_assert_cmpuint (i1->count, ==, 100);
  g_assert_cmpstr (i1->controller, ==, "IO-APIC");
  g_assert_cmpstr (i1->name, ==, "a");
  g_clear_pointer (&t, ttv_trace_close);
}

/* --- seeks on a multi-block trace ----------------------------------------- */

typedef struct {
  TtvTime time;
  TtvTracefilePosition pos;
  guint64 n;
} Seen;

/* @n_events ticks on @n_cpus CPUs in blocks of @block_size bytes (big
 * endian: the general path). */
static char *write_ticks_spaced (guint n_events, guint max_blocks, guint n_cpus, guint32 block_size, TtvTime step);

static char *
write_ticks (guint n_events, guint max_blocks, guint n_cpus, guint32 block_size)
{
  return write_ticks_spaced (n_events, max_blocks, n_cpus, block_size, 1000);
}

/* The same, every third event @step ns after the one before. */
static char *
write_ticks_spaced (guint n_events, guint max_blocks, guint n_cpus, guint32 block_size, TtvTime step)
{
  char *dir = ltt_test_tmp_trace ("seek");
  TtvLttWriterOptions o = { .byte_order = TTV_BYTE_ORDER_BIG, .arch_size = TTV_LTT_ARCH_LP64,
                            .block_size = block_size, .start_time = START, .max_blocks_per_cpu = max_blocks };
  g_autoptr (GError) error = NULL;
  TtvLttWriter *w = ttv_ltt_writer_new (dir, &o, &error);
  g_assert_no_error (error);
  guint f = ttv_ltt_writer_add_facility (w, "core", NULL);
  g_autoptr (TtvType) s = ttv_type_new_struct ();
  ttv_type_add_field (s, "n", fixed (64, FALSE), NULL);
  ttv_type_add_field (s, "name", ttv_type_new_string (), NULL);
  gint ev = ttv_ltt_writer_add_event (w, f, "tick", NULL, s, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < n_events; i++)
    {
      TtvScalar v[] = { TTV_SCALAR_UINT (i), TTV_SCALAR_STRING (strings[i % G_N_ELEMENTS (strings)]) };
      /* Several events share a time: seeks must find the first of them. */
      TtvTime t = START + (TtvTime) (i / 3) * step;
      g_assert_true (ttv_ltt_writer_write_event (w, (gint) (i % n_cpus), t, (guint) ev, v, 2, &error));
    }
  g_assert_true (ttv_ltt_writer_close (w, &error));
  g_assert_no_error (error);
  return dir;
}

static char *
write_small_trace (guint n_events, guint max_blocks, guint n_cpus)
{
  return write_ticks (n_events, max_blocks, n_cpus, 256);
}

static guint64
tick_n (TtvEvent *ev, TtvDecoder *d)
{
  ttv_decoder_reset (d);
  gint32 root = ttv_event_decode_fields (ev, d, NULL);
  g_assert_cmpint (root, >=, 0);
  guint64 n;
  g_assert_true (ttv_value_get_uint (ttv_decoder_get_field (d, ttv_decoder_get (d, (guint32) root), "n"), &n));
  return n;
}

/* Every tick @c reads to its end, in order (tick n is the n-th). */
static GArray *
read_ticks (TtvCursor *c, TtvDecoder *d)
{
  g_autoptr (GError) error = NULL;
  GArray *seen = g_array_new (FALSE, FALSE, sizeof (Seen));
  TtvEvent ev;
  while (ttv_cursor_next (c, &ev, &error))
    {
      Seen s = { ev.time, ev.pos, tick_n (&ev, d) };
      g_assert_cmpuint (s.n, ==, seen->len);
      g_array_append_val (seen, s);
    }
  g_assert_no_error (error);
  return seen;
}

static void
test_seek (void)
{
  g_autofree char *dir = write_small_trace (2000, 0, 1);
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvTrace) t = ttv_trace_open (dir, &error);
  g_assert_no_error (error);
  TtvTracefile *tf = g_ptr_array_index (t->tracefiles, 0);
  g_assert_cmpuint (tf->n_blocks, >, 50);
  g_assert_cmpint (tf->start, ==, START);
  g_assert_cmpint (tf->end, ==, START + 666 * 1000);
  g_autoptr (TtvCursor) c = ttv_cursor_new (tf, &error);
  g_autoptr (TtvDecoder) d = ttv_decoder_new ();
  g_autoptr (GArray) seen = read_ticks (c, d);
  TtvEvent ev;
  g_assert_cmpuint (seen->len, ==, 2000);

  for (TtvTime q = START - 5000; q <= START + 670 * 1000; q += 777)
    {
      guint want = 0;
      while (want < seen->len && g_array_index (seen, Seen, want).time < q)
        want++;
      g_assert_true (ttv_cursor_seek_time (c, q, &error));
      g_assert_no_error (error);
      gboolean more = ttv_cursor_next (c, &ev, &error);
      g_assert_no_error (error);
      if (want == seen->len)
        g_assert_false (more);
      else
        {
          g_assert_true (more);
          g_assert_cmpuint (tick_n (&ev, d), ==, want);
        }
    }
  for (guint i = 0; i < seen->len; i += 37)
    {
      const Seen *s = &g_array_index (seen, Seen, i);
      g_assert_true (ttv_cursor_seek_position (c, &s->pos, &error));
      g_assert_no_error (error);
      g_assert_true (ttv_cursor_next (c, &ev, &error));
      g_assert_cmpuint (tick_n (&ev, d), ==, i);
      g_assert_cmpint (ttv_tracefile_position_compare (&ev.pos, &s->pos), ==, 0);
      g_assert_cmpuint (ev.pos.index, ==, s->pos.index);
    }
  TtvTracefilePosition bogus = g_array_index (seen, Seen, 5).pos;
  bogus.offset += 1;
  g_assert_false (ttv_cursor_seek_position (c, &bogus, &error));
  g_assert_error (error, TTV_ENGINE_ERROR, TTV_ENGINE_ERROR_BAD_POSITION);
  g_clear_error (&error);
  bogus.block = 1u << 30;
  g_assert_false (ttv_cursor_seek_position (c, &bogus, &error));
  g_clear_error (&error);
  g_clear_pointer (&c, ttv_cursor_free);
  g_clear_pointer (&t, ttv_trace_close);
}

/* The event after a seek of @c to @i's position, and after a seek to its
 * time (the first event of that time), are those of the first read. */
static void
assert_seeks_to (TtvCursor *c, TtvDecoder *d, const GArray *seen, guint i)
{
  g_autoptr (GError) error = NULL;
  const Seen *s = &g_array_index (seen, Seen, i);
  TtvEvent ev;
  g_assert_true (ttv_cursor_seek_position (c, &s->pos, &error));
  g_assert_no_error (error);
  g_assert_true (ttv_cursor_next (c, &ev, &error));
  g_assert_cmpuint (tick_n (&ev, d), ==, i);
  guint first = i;
  while (first > 0 && g_array_index (seen, Seen, first - 1).time == s->time)
    first--;
  g_assert_true (ttv_cursor_seek_time (c, s->time, &error));
  g_assert_no_error (error);
  for (guint k = first; k < MIN (first + 5, seen->len); k++)
    {
      g_assert_true (ttv_cursor_next (c, &ev, &error));
      g_assert_cmpuint (tick_n (&ev, d), ==, k);
      g_assert_cmpint (ev.time, ==, g_array_index (seen, Seen, k).time);
    }
}

/* Seeks into blocks of 64 KiB whose fine index was recorded by a first
 * read: the cursor reads a block's bytes only from the event the seek
 * starts at, so every event after a seek, here decoded, must come from
 * bytes that were read, not from what the window held before; and a seek
 * to an earlier event of the same block must read the bytes it skipped. */
static void
seek_large_blocks (TtvTime step)
{
  g_autofree char *dir = write_ticks_spaced (30000, 0, 1, 65536, step);
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvTrace) t = ttv_trace_open (dir, &error);
  g_assert_no_error (error);
  TtvTracefile *tf = g_ptr_array_index (t->tracefiles, 0);
  g_assert_cmpuint (tf->n_blocks, >=, 8);
  g_autoptr (TtvCursor) c = ttv_cursor_new (tf, &error);
  g_autoptr (TtvDecoder) d = ttv_decoder_new ();
  g_autoptr (GArray) seen = read_ticks (c, d);
  g_assert_cmpuint (seen->len, ==, 30000);
  /* Many events a block, far past a page of it. */
  guint last = seen->len - 1;
  g_assert_cmpuint (g_array_index (seen, Seen, last).pos.index, >, 1000);

  g_autoptr (GRand) rand = g_rand_new_with_seed (15);
  for (guint k = 0; k < 300; k++)
    {
      guint i = (guint) g_rand_int_range (rand, 0, (gint32) seen->len);
      assert_seeks_to (c, d, seen, i);
      /* An earlier event of the same block, before the bytes read. */
      guint64 index = g_array_index (seen, Seen, i).pos.index;
      if (index >= 600)
        assert_seeks_to (c, d, seen, i - 600);
    }
  g_clear_pointer (&c, ttv_cursor_free);
  g_clear_pointer (&t, ttv_trace_close);
}

static void
test_seek_large_blocks (void)
{
  seek_large_blocks (1000);
}

/* The same where 128 events span more than 2^32 cycles (ns): the blocks'
 * fine indexes keep their entries whole. */
static void
test_seek_sparse_blocks (void)
{
  seek_large_blocks (200000000);
}

/* A block's fine index in half the memory when its entries are every
 * 128th event and span less than 2^32 cycles, whole otherwise; the same
 * entries and the same answers either way. */
static void
test_fine_index (void)
{
  enum { N = 40 };
  /* The last entry's distance from the first: as written, 2^32 - 1, 2^32. */
  const guint64 spans[] = { 0, G_MAXUINT32, (guint64) G_MAXUINT32 + 1 };
  for (guint v = 0; v < 5; v++)
    {
      TtvLttFineEntry e[N];
      for (guint k = 0; k < N; k++)
        {
          e[k].offset = 28 + k * 4000 + (k % 3);
          e[k].index = k * TTV_LTT_FINE_STEP;
          e[k].cycles = (G_GUINT64_CONSTANT (1) << 40) + (guint64) k * 1000 + (k % 2);
        }
      gboolean compact = TRUE;
      if (v < G_N_ELEMENTS (spans))
        {
          if (spans[v])
            e[N - 1].cycles = e[0].cycles + spans[v];
          compact = spans[v] <= G_MAXUINT32;
        }
      else if (v == 3)
        {
          /* A block read around its damage: the indices jump. */
          for (guint k = 20; k < N; k++)
            e[k].index += 50;
          compact = FALSE;
        }
      else
        {
          e[N - 1].cycles = e[0].cycles - 1;     /* cycles that go back */
          compact = FALSE;
        }
      g_autofree TtvLttFineIndex *fi = ttv_ltt_fine_index_new (e, N);
      g_assert_cmpuint (ttv_ltt_fine_index_get_n (fi), ==, N);
      g_assert_cmpint (ttv_ltt_fine_index_is_compact (fi), ==, compact);
      g_assert_cmpuint (ttv_ltt_fine_index_get_size (fi), <=, compact ? 16 + N * 8 : 16 + N * 16);
      for (guint k = 0; k < N; k++)
        {
          TtvLttFineEntry got;
          ttv_ltt_fine_index_get (fi, k, &got);
          g_assert_cmpuint (got.offset, ==, e[k].offset);
          g_assert_cmpuint (got.index, ==, e[k].index);
          g_assert_cmpuint (got.cycles, ==, e[k].cycles);
          if (v == 4)
            continue;   /* not in order: no search */
          /* The last entry before, or at, each entry's own values. */
          g_assert_cmpint (ttv_ltt_fine_index_find_cycles (fi, e[k].cycles), ==, (gint) k - 1);
          g_assert_cmpint (ttv_ltt_fine_index_find_cycles (fi, e[k].cycles + 1), ==, (gint) k);
          g_assert_cmpint (ttv_ltt_fine_index_find_index (fi, e[k].index), ==, (gint) k);
          if (e[k].index > 0)
            g_assert_cmpint (ttv_ltt_fine_index_find_index (fi, e[k].index - 1), ==, (gint) k - 1);
        }
    }
  /* A block without events. */
  g_autofree TtvLttFineIndex *none = ttv_ltt_fine_index_new (NULL, 0);
  g_assert_cmpint (ttv_ltt_fine_index_find_cycles (none, G_MAXUINT64), ==, -1);
  g_assert_cmpint (ttv_ltt_fine_index_find_index (none, G_MAXUINT64), ==, -1);
}

/* The next event of @general (the plain cursor_next into an event of
 * garbage, so that each of its fields must be written) and of @kept
 * (cursor_next_kept into the same event every time, which leaves the
 * block's fields as they were): the same, field by field. */
static gboolean
step_both (TtvCursor *general, TtvCursor *kept, TtvEvent *kept_ev)
{
  g_autoptr (GError) error = NULL;
  TtvEvent ev;
  memset (&ev, 0xa5, sizeof ev);
  gboolean more = ttv_ltt_cursor_next (general, &ev, &error);
  g_assert_no_error (error);
  g_assert_cmpint (ttv_ltt_cursor_next_kept (kept, kept_ev, &error), ==, more);
  g_assert_no_error (error);
  if (more)
    ttv_test_assert_same_event (&ev, kept_ev);
  return more;
}

/* A trace whose events all take the cursor's fast path (the machine's
 * byte order, a 1 GHz clock, fixed sizes), of two sizes and alignments,
 * in small blocks. */
static char *
write_fast_trace (guint n_events)
{
  char *dir = ltt_test_tmp_trace ("fast");
  TtvLttWriterOptions o = { .byte_order = TTV_BYTE_ORDER_NATIVE, .arch_size = TTV_LTT_ARCH_LP64,
                            .block_size = 256, .start_time = START };
  g_autoptr (GError) error = NULL;
  TtvLttWriter *w = ttv_ltt_writer_new (dir, &o, &error);
  g_assert_no_error (error);
  guint f = ttv_ltt_writer_add_facility (w, "core", NULL);
  g_autoptr (TtvType) wide = ttv_type_new_struct ();
  ttv_type_add_field (wide, "n", fixed (64, FALSE), NULL);
  g_autoptr (TtvType) narrow = ttv_type_new_struct ();
  ttv_type_add_field (narrow, "b", fixed (8, FALSE), NULL);
  gint ids[2];
  ids[0] = ttv_ltt_writer_add_event (w, f, "wide", NULL, wide, &error);
  ids[1] = ttv_ltt_writer_add_event (w, f, "narrow", NULL, narrow, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < n_events; i++)
    {
      TtvScalar v[] = { TTV_SCALAR_UINT (i % 200) };
      TtvTime t = START + (TtvTime) (i / 3) * 1000;
      ttv_ltt_writer_write_event (w, 0, t, (guint) ids[i % 5 == 0], v, 1, &error);
      g_assert_no_error (error);
    }
  g_assert_true (ttv_ltt_writer_close (w, &error));
  g_assert_no_error (error);
  return dir;
}

/* The merged read's cursor_next_kept against the general cursor_next:
 * over the blocks of a trace and after seeks by time and by position to
 * other blocks (the seeks read events into their own, then step back). */
static void
test_next_kept (void)
{
  g_autofree char *dir = write_fast_trace (2000);
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvTrace) t = ttv_trace_open (dir, &error);
  g_assert_no_error (error);
  TtvTracefile *tf = g_ptr_array_index (t->tracefiles, 0);
  g_assert_cmpuint (tf->n_blocks, >, 50);
  g_autoptr (TtvCursor) general = ttv_cursor_new (tf, &error);
  g_autoptr (TtvCursor) kept = ttv_cursor_new (tf, &error);
  g_assert_no_error (error);
  g_assert_true (((TtvLttCursor *) kept)->fast);
  TtvEvent kept_ev;
  memset (&kept_ev, 0x5a, sizeof kept_ev);
  guint n = 0;
  while (step_both (general, kept, &kept_ev))
    n++;
  g_assert_cmpuint (n, ==, 2000);

  TtvTime span = tf->end - tf->start;
  for (guint k = 0; k < 20; k++)
    {
      /* Back and forth through the trace. */
      TtvTime q = tf->start + span * (k % 2 ? 19 - k : k) / 20;
      g_assert_true (ttv_cursor_seek_time (general, q, &error));
      g_assert_true (ttv_cursor_seek_time (kept, q, &error));
      g_assert_no_error (error);
      for (guint i = 0; i < 150 && step_both (general, kept, &kept_ev); i++)
        ;
      /* A position from the middle, sought by both. */
      TtvTracefilePosition pos = kept_ev.pos;
      g_assert_true (ttv_cursor_seek_position (general, &pos, &error));
      g_assert_true (ttv_cursor_seek_position (kept, &pos, &error));
      g_assert_no_error (error);
      for (guint i = 0; i < 150 && step_both (general, kept, &kept_ev); i++)
        ;
    }
  g_clear_pointer (&general, ttv_cursor_free);
  g_clear_pointer (&kept, ttv_cursor_free);
  g_clear_pointer (&t, ttv_trace_close);
}

static void
test_flight_recorder (void)
{
  g_autofree char *dir = write_small_trace (3000, 5, 2);
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvTrace) t = ttv_trace_open (dir, &error);
  g_assert_no_error (error);
  g_assert_true (t->flags & TTV_TRACE_FLAG_BEGINNING_MISSING);
  g_assert_cmpuint (t->warnings->len, ==, 2);
  g_assert_nonnull (strstr (g_ptr_array_index (t->warnings, 0), "cpu/0"));
  g_assert_cmpstr (ttv_trace_get_info (t, "flight_recorder"), ==, "1");
  g_autoptr (TtvDecoder) d = ttv_decoder_new ();
  for (guint f = 0; f < 2; f++)
    {
      TtvTracefile *tf = g_ptr_array_index (t->tracefiles, f);
      g_assert_cmpuint (tf->n_blocks, ==, 5);
      g_autoptr (TtvCursor) c = ttv_cursor_new (tf, &error);
      TtvEvent ev;
      guint64 prev = 0, count = 0;
      TtvTime prev_time = TTV_TIME_MIN;
      while (ttv_cursor_next (c, &ev, &error))
        {
          guint64 n = tick_n (&ev, d);
          g_assert_cmpuint (n % 2, ==, f);
          if (count)
            g_assert_cmpuint (n, ==, prev + 2);   /* a contiguous suffix, in time order */
          g_assert_cmpint (ev.time, >=, prev_time);
          prev = n;
          prev_time = ev.time;
          count++;
        }
      g_assert_no_error (error);
      g_assert_cmpuint (prev, ==, 2998 + f);
      g_assert_cmpuint (count, >, 10);
      g_assert_cmpuint (count, <, 1500);
      /* Seeking into the ring works too. */
      g_assert_true (ttv_cursor_seek_time (c, tf->start, &error));
      g_assert_true (ttv_cursor_next (c, &ev, &error));
      g_assert_cmpint (ev.time, ==, tf->start);
    }
  g_clear_pointer (&t, ttv_trace_close);
}

/* Two versions of facility "core" (a module reloaded with changed events). */
static void
test_facility_versions (void)
{
  g_autofree char *dir = ltt_test_tmp_trace ("versions");
  TtvLttWriterOptions o = { .start_time = START };
  g_autoptr (GError) error = NULL;
  TtvLttWriter *w = ttv_ltt_writer_new (dir, &o, &error);
  guint a = ttv_ltt_writer_add_facility (w, "core", NULL);
  guint b = ttv_ltt_writer_add_facility (w, "core", NULL);
  g_autoptr (TtvType) s1 = ttv_type_new_struct ();
  ttv_type_add_field (s1, "x", fixed (32, FALSE), NULL);
  g_autoptr (TtvType) s2 = ttv_type_new_struct ();
  ttv_type_add_field (s2, "x", fixed (64, FALSE), NULL);
  gint e1 = ttv_ltt_writer_add_event (w, a, "ev", NULL, s1, &error);
  gint e2 = ttv_ltt_writer_add_event (w, b, "ev", NULL, s2, &error);
  g_assert_no_error (error);
  TtvScalar v1 = TTV_SCALAR_UINT (7), v2 = TTV_SCALAR_UINT (G_MAXUINT64);
  g_assert_true (ttv_ltt_writer_write_event (w, 0, START, (guint) e1, &v1, 1, &error));
  g_assert_true (ttv_ltt_writer_write_event (w, 0, START + 1, (guint) e2, &v2, 1, &error));
  g_assert_true (ttv_ltt_writer_close (w, &error));
  g_assert_no_error (error);

  g_autoptr (TtvTrace) t = ttv_trace_open (dir, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (t->event_types->len, ==, 2);
  g_autoptr (TtvCursor) c = ttv_cursor_new (g_ptr_array_index (t->tracefiles, 0), &error);
  g_autoptr (TtvDecoder) d = ttv_decoder_new ();
  TtvEvent ev1, ev2;
  g_assert_true (ttv_cursor_next (c, &ev1, &error));
  const TtvEventType *t1 = ev1.type;
  g_assert_true (ttv_cursor_next (c, &ev2, &error));
  g_assert_true (t1 != ev2.type);
  g_assert_cmpstr (t1->full_name, ==, ev2.type->full_name);
  gint32 root = ttv_event_decode_fields (&ev2, d, &error);
  guint64 x;
  g_assert_true (ttv_value_get_uint (ttv_decoder_get_field (d, ttv_decoder_get (d, (guint32) root), "x"), &x));
  g_assert_cmphex (x, ==, G_MAXUINT64);
  g_clear_pointer (&c, ttv_cursor_free);
  g_clear_pointer (&t, ttv_trace_close);
}

/* The seed's own system.xml style: unquoted attribute values. */
static void
test_seed_xml (void)
{
  g_autofree char *dir = write_small_trace (10, 0, 1);
  g_autofree char *sys = g_build_filename (dir, "info", "system.xml", NULL);
  const char *text =
    "<system \n node_name=\"vaucluse\"\n domainname=\"polymtl.ca\" \n cpu=4\n arch_size=\"LP64\" \n"
    " endian=\"big\" \n kernel_name=\"Linux\" \n ltt_major_version=\"2\"\n ltt_block_size=256\n>\n"
    "Some comments about the system\n</system>\n";
  g_assert_true (g_file_set_contents (sys, text, -1, NULL));
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvTrace) t = ttv_trace_open (dir, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (ttv_trace_get_info (t, "cpu"), ==, "4");
  g_assert_cmpstr (ttv_trace_get_info (t, "node_name"), ==, "vaucluse");
  g_assert_cmpstr (ttv_trace_get_info (t, "description"), ==, "Some comments about the system");
  g_clear_pointer (&t, ttv_trace_close);

  /* An eventdefs file in the seed's style: unquoted values, typerefs, union. */
  g_autofree char *defs = g_build_filename (TTV_TEST_SRCDIR, "..", "fuzz", "ltt", "corpus", "eventdefs",
                                            "seed-style.xml", NULL);
  TtvLttSystem lsys = { .byte_order = TTV_BYTE_ORDER_BIG, .arch = TTV_LTT_ARCH_LP64, .block_size = 4096,
                       .freq = 1000000000u };
  ttv_ltt_arch_sizes (lsys.arch, &lsys.short_bits, &lsys.int_bits, &lsys.long_bits, &lsys.pointer_bits);
  g_autoptr (xmlDoc) doc = ttv_ltt_xml_read (defs, NULL, 0, &error);
  g_assert_no_error (error);
  g_autoptr (GPtrArray) out = g_ptr_array_new_with_free_func ((GDestroyNotify) ttv_ltt_facility_free);
  g_assert_true (ttv_ltt_eventdefs_parse (doc, defs, &lsys, out, &error));
  g_assert_no_error (error);
  const TtvLttEventDef *e = g_ptr_array_index (((TtvLttFacility *) g_ptr_array_index (out, 0))->events, 0);
  g_autofree char *sig = ttv_type_dup_signature (e->fields);
  g_assert_cmpstr (sig, ==, "struct { string name; uint32 pid; enum32 { Running, WaitInterruptible, "
                   "WaitUninterruptible, Zombie, Traced, Paging } state; struct { struct { uint32 seconds; "
                   "uint32 nanoseconds; } time; uint64 cycle_count; } ts; variant { int64 a; float32[uint16] b; } u; }");
}

/* Deltas that do not fit 32 bits get a time_heartbeat before the event. */
static void
test_heartbeat (void)
{
  g_autofree char *dir = ltt_test_tmp_trace ("heartbeat");
  TtvLttWriterOptions o = { .block_size = 4096, .start_time = START };
  g_autoptr (GError) error = NULL;
  TtvLttWriter *w = ttv_ltt_writer_new (dir, &o, &error);
  guint f = ttv_ltt_writer_add_facility (w, "core", NULL);
  g_autoptr (TtvType) empty = ttv_type_new_struct ();
  gint e = ttv_ltt_writer_add_event (w, f, "e", NULL, empty, &error);
  const TtvTime times[] = { START + 1, START + 1 + 10 * TTV_NSEC_PER_SEC, START + 2 + 10 * TTV_NSEC_PER_SEC,
                            START + 2 + 100 * TTV_NSEC_PER_SEC };
  for (guint i = 0; i < G_N_ELEMENTS (times); i++)
    g_assert_true (ttv_ltt_writer_write_event (w, 0, times[i], (guint) e, NULL, 0, &error));
  g_assert_true (ttv_ltt_writer_close (w, &error));
  g_assert_no_error (error);
  /* event at 28 (6 bytes), heartbeat at 34 (payload 40..56), event at 56. */
  g_autofree char *cpu = g_build_filename (dir, "cpu", "0", NULL);
  g_autofree char *data = NULL;
  g_assert_true (g_file_get_contents (cpu, &data, NULL, NULL));
  g_assert_cmpint (data[34], ==, 3);
  g_assert_cmpint (data[56], ==, (char) 0);   /* code 256: low byte 0, high byte 1 */
  g_assert_cmpint (data[57], ==, 1);
  g_autoptr (TtvTrace) t = ttv_trace_open (dir, &error);
  g_assert_no_error (error);
  g_autoptr (TtvCursor) c = ttv_cursor_new (g_ptr_array_index (t->tracefiles, 0), &error);
  TtvEvent ev;
  for (guint i = 0; i < G_N_ELEMENTS (times); i++)
    {
      g_assert_true (ttv_cursor_next (c, &ev, &error));
      g_assert_cmpint (ev.time, ==, times[i]);
      g_assert_cmpuint (ev.cycles, ==, (guint64) (times[i] - START));
    }
  g_assert_false (ttv_cursor_next (c, &ev, &error));
  g_assert_no_error (error);
  g_clear_pointer (&c, ttv_cursor_free);
  g_clear_pointer (&t, ttv_trace_close);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  static Config configs[2 * 4 + 2];
  static const char * const arch_names[] = { "LP32", "ILP32", "LP64", "ILP64" };
  guint n = 0;
  for (guint order = 0; order < 2; order++)
    for (guint arch = 0; arch < 4; arch++)
      {
        configs[n] = (Config) { order, arch, 0 };
        g_autofree char *path = g_strdup_printf ("/ltt/roundtrip/types/%s/%s",
                                                 order ? "big" : "little", arch_names[arch]);
        g_test_add_data_func (path, &configs[n++], test_types);
      }
  configs[n] = (Config) { TTV_BYTE_ORDER_LITTLE, TTV_LTT_ARCH_LP64, 3000000000u };
  g_test_add_data_func ("/ltt/roundtrip/types/freq-3GHz", &configs[n++], test_types);
  configs[n] = (Config) { TTV_BYTE_ORDER_BIG, TTV_LTT_ARCH_ILP32, 1000000u };
  g_test_add_data_func ("/ltt/roundtrip/types/freq-1MHz", &configs[n++], test_types);
  g_test_add_func ("/ltt/roundtrip/heartbeat", test_heartbeat);
  g_test_add_func ("/ltt/roundtrip/seek", test_seek);
  g_test_add_func ("/ltt/roundtrip/seek-large-blocks", test_seek_large_blocks);
  g_test_add_func ("/ltt/roundtrip/seek-sparse-blocks", test_seek_sparse_blocks);
  g_test_add_func ("/ltt/roundtrip/fine-index", test_fine_index);
  g_test_add_func ("/ltt/roundtrip/next-kept", test_next_kept);
  g_test_add_func ("/ltt/roundtrip/flight-recorder", test_flight_recorder);
  g_test_add_func ("/ltt/roundtrip/facility-versions", test_facility_versions);
  g_test_add_func ("/ltt/roundtrip/seed-xml", test_seed_xml);
  return g_test_run ();
}
