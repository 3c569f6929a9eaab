/* lttng-test-util.h: helpers shared by the LTTng 0.x format tests: temporary
 * directories, a deterministic workload written with the writer, and reading it back. */
#pragma once

#include "ttv-test-util.h"

#include "ttv-lttng-writer.h"
#include "ttv-lttng.h"
#include "ttv-error.h"
#include "ttv-trace.h"

#include <glib/gstdio.h>
#include <string.h>

/* A fresh trace directory path (not created) in the test's temporary directory. */
static inline char *
lttng_test_tmp_trace (void)
{
  return ttv_test_dup_tmp_path ("trace");
}

/* --- The workload --------------------------------------------------------- */

#define LTTNG_TEST_MAX_VALUES 12

typedef struct {
  gint stream;
  TtvTime time;
  guint event;
  guint n_values;
  TtvScalar values[LTTNG_TEST_MAX_VALUES];
  char str[24];                  /* storage for the string value */
} LttngTestEvent;

typedef struct {
  const char *channel;
  const char *name;
  TtvType *fields;               /* owned */
} LttngTestMarker;

typedef struct {
  GPtrArray *markers;            /* of LttngTestMarker *, owned */
  GArray *events;                /* of LttngTestEvent, in write order */
} LttngTestWorkload;

static inline void
lttng_test_add_int (TtvType *st, const char *name, guint bits, gboolean is_signed, guint base,
                    TtvNativeSize native)
{
  TtvType *t = ttv_type_new_integer (bits, is_signed, TTV_BYTE_ORDER_NATIVE, bits);
  t->base = base;
  t->native_size = native;
  ttv_type_add_field (st, name, t, NULL);
}

static inline LttngTestMarker *
lttng_test_marker (LttngTestWorkload *wl, const char *channel, const char *name)
{
  LttngTestMarker *m = g_new0 (LttngTestMarker, 1);
  m->channel = channel;
  m->name = name;
  m->fields = ttv_type_new_struct ();
  g_ptr_array_add (wl->markers, m);
  return m;
}

static inline void
lttng_test_marker_free (LttngTestMarker *m)
{
  ttv_type_unref (m->fields);
  g_free (m);
}

static inline void
lttng_test_workload_free (LttngTestWorkload *wl)
{
  g_ptr_array_unref (wl->markers);
  g_array_unref (wl->events);
  g_free (wl);
}

static inline guint64
lttng_test_rand64 (GRand *r)
{
  return ((guint64) g_rand_int (r) << 32) | g_rand_int (r);
}

/* A random value for an integer of @bits (sign-extended when signed). */
static inline TtvScalar
lttng_test_random_int (GRand *r, guint bits, gboolean is_signed)
{
  guint64 v = lttng_test_rand64 (r);
  if (bits < 64)
    {
      v &= (G_GUINT64_CONSTANT (1) << bits) - 1;
      if (is_signed && (v >> (bits - 1)))
        v |= ~G_GUINT64_CONSTANT (0) << bits;
    }
  return (TtvScalar) { .kind = TTV_TYPE_INTEGER, .u = v };
}

/* @n events on CPUs 0, 2 and 5 (sparse) plus a few on the processes control
 * stream; gaps of up to 50 us and, when @long_gaps, some of 5 s (more than
 * 2^32 cycles at 1 GHz: heartbeats).  Longs and pointers get @arch_size bytes. */
static inline LttngTestWorkload *
lttng_test_workload_new (guint n, guint arch_size, gboolean long_gaps, TtvTime start, guint32 seed)
{
  LttngTestWorkload *wl = g_new0 (LttngTestWorkload, 1);
  wl->markers = g_ptr_array_new_with_free_func ((GDestroyNotify) lttng_test_marker_free);
  wl->events = g_array_new (FALSE, TRUE, sizeof (LttngTestEvent));
  LttngTestMarker *m = lttng_test_marker (wl, "kernel", "sched_switch");
  lttng_test_add_int (m->fields, "prev_pid", 32, TRUE, 10, TTV_NATIVE_NONE);
  lttng_test_add_int (m->fields, "next_pid", 32, TRUE, 10, TTV_NATIVE_NONE);
  lttng_test_add_int (m->fields, "prev_state", 64, TRUE, 10, TTV_NATIVE_LONG);
  ttv_type_add_field (m->fields, "comm", ttv_type_new_string (), NULL);
  lttng_test_add_int (m->fields, "flags", 8, FALSE, 10, TTV_NATIVE_NONE);
  lttng_test_add_int (m->fields, "mask", 16, FALSE, 16, TTV_NATIVE_NONE);
  lttng_test_add_int (m->fields, "ip", 64, FALSE, 16, TTV_NATIVE_POINTER);
  lttng_test_add_int (m->fields, "bytes", 64, FALSE, 10, TTV_NATIVE_NONE);
  lttng_test_add_int (m->fields, "c", 8, TRUE, 10, TTV_NATIVE_NONE);
  lttng_test_add_int (m->fields, "delta", 64, TRUE, 10, TTV_NATIVE_NONE);
  lttng_test_add_int (m->fields, "count", 64, FALSE, 10, TTV_NATIVE_LONG);
  lttng_test_add_int (m->fields, "small", 16, TRUE, 10, TTV_NATIVE_NONE);
  m = lttng_test_marker (wl, "kernel", "irq_entry");
  lttng_test_add_int (m->fields, "irq", 32, FALSE, 10, TTV_NATIVE_NONE);
  m = lttng_test_marker (wl, "fs", "open");
  ttv_type_add_field (m->fields, "name", ttv_type_new_string (), NULL);
  lttng_test_add_int (m->fields, "fd", 32, TRUE, 10, TTV_NATIVE_NONE);
  m = lttng_test_marker (wl, "fs", "sync");   /* no field */
  m = lttng_test_marker (wl, "kernel", "process_state");
  lttng_test_add_int (m->fields, "pid", 32, TRUE, 10, TTV_NATIVE_NONE);
  ttv_type_add_field (m->fields, "name", ttv_type_new_string (), NULL);

  GRand *r = g_rand_new_with_seed (seed);
  static const gint cpus[] = { 0, 2, 5 };
  TtvTime now[G_N_ELEMENTS (cpus)] = { start, start, start };
  for (guint i = 0; i < 3; i++)
    {
      LttngTestEvent e = { .stream = -1, .time = start + i * 10, .event = 4, .n_values = 2 };
      e.values[0] = (TtvScalar) { .kind = TTV_TYPE_INTEGER, .s = (gint64) i + 1 };
      e.values[1].kind = TTV_TYPE_STRING;
      g_array_append_val (wl->events, e);
    }
  for (guint i = 0; i < n; i++)
    {
      guint c = g_rand_int_range (r, 0, G_N_ELEMENTS (cpus));
      TtvTime gap = g_rand_int_range (r, 0, 50000);
      if (long_gaps && g_rand_int_range (r, 0, 200) == 0)
        gap += 5 * TTV_NSEC_PER_SEC + g_rand_int_range (r, 0, 1000000);
      now[c] += gap;
      LttngTestEvent e = { .stream = cpus[c], .time = now[c], .event = g_rand_int_range (r, 0, 4) };
      TtvScalar *v = e.values;
      guint lb = arch_size * 8;
      switch (e.event)
        {
        case 0:
          v[0] = lttng_test_random_int (r, 32, TRUE);
          v[1] = lttng_test_random_int (r, 32, TRUE);
          v[2] = lttng_test_random_int (r, lb, TRUE);
          v[3].kind = TTV_TYPE_STRING;
          v[4] = lttng_test_random_int (r, 8, FALSE);
          v[5] = lttng_test_random_int (r, 16, FALSE);
          v[6] = lttng_test_random_int (r, lb, FALSE);
          v[7] = lttng_test_random_int (r, 64, FALSE);
          v[8] = lttng_test_random_int (r, 8, TRUE);
          v[9] = lttng_test_random_int (r, 64, TRUE);
          v[10] = lttng_test_random_int (r, lb, FALSE);
          v[11] = lttng_test_random_int (r, 16, TRUE);
          e.n_values = 12;
          break;
        case 1:
          v[0] = lttng_test_random_int (r, 32, FALSE);
          e.n_values = 1;
          break;
        case 2:
          v[0].kind = TTV_TYPE_STRING;
          v[1] = lttng_test_random_int (r, 32, TRUE);
          e.n_values = 2;
          break;
        default:
          e.n_values = 0;
          break;
        }
      g_array_append_val (wl->events, e);
    }
  /* Strings point into the array's elements, fixed once the array is built. */
  for (guint i = 0; i < wl->events->len; i++)
    {
      LttngTestEvent *e = &g_array_index (wl->events, LttngTestEvent, i);
      g_snprintf (e->str, sizeof e->str, "s%u_%u", i, g_rand_int_range (r, 0, 100000));
      for (guint k = 0; k < e->n_values; k++)
        if (e->values[k].kind == TTV_TYPE_STRING)
          e->values[k].str = i % 17 == 0 ? "" : e->str;
    }
  g_rand_free (r);
  return wl;
}

static inline void
lttng_test_write (const LttngTestWorkload *wl, const char *dir, const TtvLttngWriterOptions *opts)
{
  g_autoptr (GError) error = NULL;
  TtvLttngWriter *w = ttv_lttng_writer_new (dir, opts, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < wl->markers->len; i++)
    {
      const LttngTestMarker *m = g_ptr_array_index (wl->markers, i);
      g_assert_cmpint (ttv_lttng_writer_add_event (w, m->channel, m->name, m->fields, &error), ==, i);
      g_assert_no_error (error);
    }
  for (guint i = 0; i < wl->events->len; i++)
    {
      const LttngTestEvent *e = &g_array_index (wl->events, LttngTestEvent, i);
      gboolean ok = ttv_lttng_writer_write_event (w, e->stream, e->time, e->event, e->values,
                                                  e->n_values, &error);
      g_assert_no_error (error);
      g_assert_true (ok);
    }
  g_assert_true (ttv_lttng_writer_close (w, &error));
  g_assert_no_error (error);
}

/* Checks one decoded event against what was written. */
static inline void
lttng_test_check_event (const LttngTestWorkload *wl, const LttngTestEvent *want, const TtvEvent *ev,
                        TtvDecoder *d)
{
  const LttngTestMarker *m = g_ptr_array_index (wl->markers, want->event);
  g_assert_cmpstr (ev->type->name, ==, m->name);
  g_assert_cmpstr (ev->type->facility, ==, m->channel);
  g_assert_cmpint (ev->time, ==, want->time);
  g_autoptr (GError) error = NULL;
  ttv_decoder_reset (d);
  gint32 root = ttv_event_decode_fields (ev, d, &error);
  g_assert_no_error (error);
  const TtvValue *rv = ttv_decoder_get (d, (guint32) root);
  g_assert_cmpuint (rv->n_children, ==, want->n_values);
  for (guint k = 0; k < want->n_values; k++)
    {
      const TtvValue *v = ttv_decoder_get (d, rv->first_child + k);
      const TtvField *f = g_ptr_array_index (m->fields->fields, k);
      g_assert_cmpstr (v->name, ==, f->name);
      if (want->values[k].kind == TTV_TYPE_STRING)
        {
          g_assert_cmpint (v->type->kind, ==, TTV_TYPE_STRING);
          g_assert_cmpstr (v->v.string.str, ==, want->values[k].str);
        }
      else
        {
          g_assert_cmpint (v->type->kind, ==, TTV_TYPE_INTEGER);
          g_assert_cmpuint (v->v.u, ==, want->values[k].u);
        }
    }
}
