/* test-lttng-sim.c: the same simulated workload written as LTT (seed 000) and
 * as LTTng 0.x (seed 001) reads back as the same events (names, times, field
 * values) and gives the engine the same state. */
#include "lttng-test-util.h"
#include "ttv-lttng-sim.h"
#include "ttv-ltt-sim.h"
#include "ttv-state-tracker.h"

static void
write_ltt (const char *dir, const TtvSimOptions *so, TtvByteOrder order, gboolean lp64)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvSim) sim = ttv_sim_new (so, &error);
  g_assert_no_error (error);
  TtvLttWriterOptions wo = {
    .byte_order = order,
    .arch_size = lp64 ? TTV_LTT_ARCH_LP64 : TTV_LTT_ARCH_ILP32,
    .block_size = 8192,
    .cycles_per_second = 1000000000u,
    .start_time = ttv_sim_get_time (sim),
    .n_cpu_slots = 8,
  };
  g_assert_true (ttv_ltt_write_simulation (dir, sim, &wo, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
}

/* The state as text, with syscall names hidden: LTT's enum labels name
 * them, LTTng 0.x markers only number them. */
static char *
state_text_at (TtvStateTracker *tr, TtvTime t)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvState) s = ttv_state_tracker_dup_state_at (tr, t, &error);
  g_assert_no_error (error);
  g_autoptr (GString) text = g_string_new (NULL);
  ttv_state_append_text (s, text);
  g_autoptr (GRegex) re = g_regex_new ("syscall\\([^)]*\\)", 0, 0, NULL);
  return g_regex_replace_literal (re, text->str, -1, 0, "syscall(*)", 0, NULL);
}

/* The engine's state over both traces is the same at any time. */
static void
check_same_state (const char *ltt_dir, const char *lttng_dir)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvTraceset) ta = ttv_traceset_new ();
  g_autoptr (TtvTraceset) tb = ttv_traceset_new ();
  g_assert_true (ttv_traceset_add_path (ta, ltt_dir, &error));
  g_assert_true (ttv_traceset_add_path (tb, lttng_dir, &error));
  g_autoptr (TtvStateTracker) ra = ttv_state_tracker_new (ta, NULL);
  g_autoptr (TtvStateTracker) rb = ttv_state_tracker_new (tb, NULL);
  g_assert_true (ttv_state_tracker_build (ra, NULL, NULL, NULL, &error));
  g_assert_true (ttv_state_tracker_build (rb, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  TtvTime start = ttv_traceset_get_start (ta), end = ttv_traceset_get_end (ta);
  for (guint i = 0; i <= 40; i++)
    {
      TtvTime t = start + (end - start) / 40 * (TtvTime) i;
      g_autofree char *a = state_text_at (ra, t);
      g_autofree char *b = state_text_at (rb, t);
      g_assert_cmpstr (a, ==, b);
    }
}

static void
compare_values (const TtvDecoder *da, const TtvValue *a, const TtvDecoder *db, const TtvValue *b)
{
  g_assert_cmpstr (a->name, ==, b->name);
  if (a->type->kind == TTV_TYPE_STRING || b->type->kind == TTV_TYPE_STRING)
    {
      g_assert_cmpint (a->type->kind, ==, b->type->kind);
      g_assert_cmpstr (a->v.string.str, ==, b->v.string.str);
      return;
    }
  if (a->type->kind == TTV_TYPE_STRUCT)
    {
      g_assert_cmpint (b->type->kind, ==, TTV_TYPE_STRUCT);
      g_assert_cmpuint (a->n_children, ==, b->n_children);
      for (guint32 i = 0; i < a->n_children; i++)
        compare_values (da, ttv_decoder_get (da, a->first_child + i), db,
                        ttv_decoder_get (db, b->first_child + i));
      return;
    }
  /* LTT keeps enum labels, LTTng 0.x markers have plain integers. */
  gint64 x, y;
  g_assert_true (ttv_value_get_int (a, &x));
  g_assert_true (ttv_value_get_int (b, &y));
  g_assert_cmpint (x, ==, y);
}

typedef struct {
  TtvByteOrder order;
  gboolean lp64;
  guint alignment;
  gboolean tsc64;
} SimCase;

static void
test_same_as_ltt (gconstpointer data)
{
  const SimCase *cs = data;
  g_autofree char *ltt_dir = lttng_test_tmp_trace ();
  g_autofree char *lttng_dir = lttng_test_tmp_trace ();
  static const guint cpu_ids[] = { 0, 1, 3 };
  TtvSimOptions so;
  ttv_sim_options_init (&so);
  so.seed = 42;
  so.cpu_ids = cpu_ids;
  so.n_cpus = G_N_ELEMENTS (cpu_ids);
  so.n_processes = 20;
  so.max_events = 20000;
  so.long_bits = so.pointer_bits = cs->lp64 ? 64 : 32;
  write_ltt (ltt_dir, &so, cs->order, cs->lp64);
  TtvLttngWriterOptions wo = {
    .byte_order = cs->order, .arch_size = cs->lp64 ? 8 : 4, .alignment = cs->alignment,
    .tsc64 = cs->tsc64, .buf_size = 8192,
  };
  g_autoptr (GError) error = NULL;
  TtvLttngSimStats stats;
  g_assert_true (ttv_lttng_write_simulation (lttng_dir, &so, &wo, &stats, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (stats.n_events, ==, 20000);

  g_autoptr (TtvTrace) a = ttv_trace_open (ltt_dir, &error);
  g_assert_no_error (error);
  g_autoptr (TtvTrace) b = ttv_trace_open (lttng_dir, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (a->format->name, ==, "ltt");
  g_assert_cmpstr (b->format->name, ==, "lttng");
  g_assert_cmpuint (a->tracefiles->len, ==, b->tracefiles->len);
  g_assert_cmpint (a->start, ==, b->start);
  g_assert_cmpint (a->end, ==, b->end);
  /* The initial state from the control files. */
  const GArray *pa = ttv_trace_get_processes (a), *pb = ttv_trace_get_processes (b);
  g_assert_nonnull (pa);
  g_assert_nonnull (pb);
  g_assert_true (pa != pb);
  g_assert_cmpuint (pa->len, ==, so.n_processes);
  g_assert_cmpuint (pa->len, ==, pb->len);
  for (guint i = 0; i < pa->len; i++)
    {
      const TtvTraceProcess *x = &g_array_index (pa, TtvTraceProcess, i);
      const TtvTraceProcess *y = &g_array_index (pb, TtvTraceProcess, i);
      g_assert_cmpint (x->time, ==, y->time);
      g_assert_cmpstr (x->name, ==, y->name);
      g_assert_cmpuint (x->pid, ==, y->pid);
      g_assert_cmpuint (x->ppid, ==, y->ppid);
      g_assert_cmpuint (x->state, ==, y->state);
      g_assert_cmpstr (x->state_name, ==, y->state_name);
    }
  const GArray *ia = ttv_trace_get_interrupts (a), *ib = ttv_trace_get_interrupts (b);
  g_assert_cmpuint (ia->len, >, 0);
  g_assert_cmpuint (ia->len, ==, ib->len);
  for (guint i = 0; i < ia->len; i++)
    {
      const TtvTraceInterrupt *x = &g_array_index (ia, TtvTraceInterrupt, i);
      const TtvTraceInterrupt *y = &g_array_index (ib, TtvTraceInterrupt, i);
      g_assert_cmpuint (x->number, ==, y->number);
      g_assert_cmpstr (x->name, ==, y->name);
      g_assert_cmpstr (x->controller, ==, y->controller);
    }

  g_autoptr (TtvDecoder) da = ttv_decoder_new ();
  g_autoptr (TtvDecoder) db = ttv_decoder_new ();
  guint64 total = 0;
  for (guint i = 0; i < a->tracefiles->len; i++)
    {
      TtvTracefile *ta = g_ptr_array_index (a->tracefiles, i);
      TtvTracefile *tb = g_ptr_array_index (b->tracefiles, i);
      g_assert_cmpint (ta->cpu, ==, tb->cpu);
      g_autoptr (TtvCursor) ca = ttv_cursor_new (ta, &error);
      g_autoptr (TtvCursor) cb = ttv_cursor_new (tb, &error);
      g_assert_no_error (error);
      TtvEvent ea, eb;
      while (TRUE)
        {
          gboolean ga = ttv_cursor_next (ca, &ea, &error);
          g_assert_no_error (error);
          gboolean gb = ttv_cursor_next (cb, &eb, &error);
          g_assert_no_error (error);
          g_assert_cmpint (ga, ==, gb);
          if (!ga)
            break;
          total++;
          g_assert_cmpstr (ea.type->name, ==, eb.type->name);
          g_assert_cmpstr (ea.type->facility, ==, eb.type->facility);
          g_assert_cmpint (ea.time, ==, eb.time);
          ttv_decoder_reset (da);
          ttv_decoder_reset (db);
          gint32 ra = ttv_event_decode_fields (&ea, da, &error);
          g_assert_no_error (error);
          gint32 rb = ttv_event_decode_fields (&eb, db, &error);
          g_assert_no_error (error);
          compare_values (da, ttv_decoder_get (da, (guint32) ra), db, ttv_decoder_get (db, (guint32) rb));
        }
    }
  g_test_message ("%" G_GUINT64_FORMAT " cpu events compared", total);
  g_assert_cmpuint (total, >, 10000);
  check_same_state (ltt_dir, lttng_dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  static const SimCase cases[] = {
    { TTV_BYTE_ORDER_LITTLE, TRUE, 8, FALSE },
    { TTV_BYTE_ORDER_BIG, FALSE, 0, TRUE },
    { TTV_BYTE_ORDER_BIG, TRUE, 0, FALSE },
    { TTV_BYTE_ORDER_LITTLE, FALSE, 4, TRUE },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const SimCase *cs = &cases[i];
      g_autofree char *path = g_strdup_printf ("/lttng/sim/same-as-ltt/%s-%s-%s%u-tsc%s",
                                               cs->order ? "be" : "le", cs->lp64 ? "lp64" : "ilp32",
                                               cs->alignment ? "align" : "packed", cs->alignment,
                                               cs->tsc64 ? "64" : "32");
      g_test_add_data_func (path, cs, test_same_as_ltt);
    }
  return g_test_run ();
}
