/* test-state-resources.c: when IRQs, soft IRQs and block devices are busy,
 * worked out here from the raw events by a method of the test's own (one
 * span per handler run or per request, counted at each instant), against the
 * engine's state at random times and against the whole state history.  On
 * the real CTF kernel traces in ../shared/traces and on simulated traces in
 * every format. */
#include "ttv-state-test-util.h"
#include "ttv-context.h"
#include "ttv-state-block-requests.h"
#include "ttv-state-private.h"
#include "ttv-history.h"
#include "ttv-kernel-model.h"
#include "ttv-state-tracker.h"

#include <string.h>

typedef enum { R_IRQ, R_SOFTIRQ, R_BLOCKDEV, R_N } Resource;

static const TtvHistoryRowKind row_kind[R_N] = {
  TTV_HISTORY_ROW_IRQ, TTV_HISTORY_ROW_SOFTIRQ, TTV_HISTORY_ROW_BLOCKDEV
};
static const char *const resource_name[R_N] = { "irq", "softirq", "blockdev" };

/* [start, end): the handler ran / the request was on the device. */
typedef struct {
  TtvTime start, end;      /* end TTV_TIME_MAX: not over when the trace ends */
} Span;

/* What one CPU is handling: Linux runs no IRQ inside another (since 2.6.35)
 * and no soft IRQ inside another on one CPU, which keeps this model simple. */
typedef struct {
  gint64 irq, softirq;     /* -1: none */
  TtvTime irq_start, softirq_start;
} CpuTruth;

typedef struct {
  GHashTable *spans[R_N];  /* id -> GArray of Span */
  GArray *times;           /* of TtvTime: every event's */
  guint64 n_irq_spans, n_softirq_spans, n_requests;
} Truth;

static void
truth_clear (Truth *t)
{
  for (guint r = 0; r < R_N; r++)
    g_hash_table_unref (t->spans[r]);
  g_array_unref (t->times);
}

static void
add_span (Truth *t, Resource r, guint32 id, TtvTime start, TtvTime end)
{
  GArray *a = g_hash_table_lookup (t->spans[r], GUINT_TO_POINTER (id));
  if (a == NULL)
    {
      a = g_array_new (FALSE, FALSE, sizeof (Span));
      g_hash_table_insert (t->spans[r], GUINT_TO_POINTER (id), a);
    }
  Span s = { start, end };
  g_array_append_val (a, s);
}

/* The first of @names that the event has, as an unsigned number. */
static gboolean
get_field (TtvDecoder *dec, const TtvValue *root, const char *const *names, guint64 *out)
{
  for (; *names; names++)
    {
      const TtvValue *v = ttv_decoder_get_field (dec, root, *names);
      gint64 i;
      if (v && ttv_value_get_uint (v, out))
        return TRUE;
      if (v && ttv_value_get_int (v, &i))
        {
          *out = (guint64) i;
          return TRUE;
        }
    }
  return FALSE;
}

typedef enum {
  E_NONE, E_IRQ_ENTRY, E_IRQ_EXIT, E_SOFT_ENTRY, E_SOFT_EXIT, E_ISSUE, E_COMPLETE
} Kind;

/* Event names of LTTng 2.x, LTT (core., block.) and LTTng 0.x (kernel.). */
static Kind
kind_of (const char *name)
{
  static const struct { const char *name; Kind kind; } names[] = {
    { "irq_handler_entry", E_IRQ_ENTRY }, { "irq_entry", E_IRQ_ENTRY },
    { "irq_handler_exit", E_IRQ_EXIT }, { "irq_exit", E_IRQ_EXIT },
    { "softirq_entry", E_SOFT_ENTRY }, { "soft_irq_entry", E_SOFT_ENTRY },
    { "softirq_exit", E_SOFT_EXIT }, { "soft_irq_exit", E_SOFT_EXIT },
    { "block_rq_issue", E_ISSUE }, { "request_issue", E_ISSUE },
    { "block_rq_complete", E_COMPLETE }, { "request_complete", E_COMPLETE },
  };
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (g_str_equal (name, names[i].name))
      return names[i].kind;
  return E_NONE;
}

/* A request on the device: (dev, sector) names it; flushes carry no data and
 * end at the device's next completion without data. */
typedef struct {
  GHashTable *open;        /* "dev:sector" -> TtvTime * (issue time) */
  GHashTable *flushes;     /* dev -> GArray of TtvTime */
} Requests;

static void
request_event (Truth *t, Requests *rq, Kind k, guint32 dev, guint64 sector, guint64 n, TtvTime time)
{
  if (dev == 0)
    return;   /* no device: a command sent straight to a device node */
  if (n == 0)
    {
      GArray *f = g_hash_table_lookup (rq->flushes, GUINT_TO_POINTER (dev));
      if (f == NULL)
        {
          f = g_array_new (FALSE, FALSE, sizeof (TtvTime));
          g_hash_table_insert (rq->flushes, GUINT_TO_POINTER (dev), f);
        }
      if (k == E_ISSUE)
        g_array_append_val (f, time);
      else
        {
          for (guint i = 0; i < f->len; i++)
            add_span (t, R_BLOCKDEV, dev, g_array_index (f, TtvTime, i), time);
          g_array_set_size (f, 0);
        }
      return;
    }
  char *key = g_strdup_printf ("%u:%" G_GUINT64_FORMAT, dev, sector);
  TtvTime *start = g_hash_table_lookup (rq->open, key);
  if (k == E_ISSUE)
    {
      if (start == NULL)   /* issued again: still the same request */
        {
          g_hash_table_insert (rq->open, key, g_memdup2 (&time, sizeof time));
          t->n_requests++;
          return;
        }
    }
  else if (start)
    {
      add_span (t, R_BLOCKDEV, dev, *start, time);
      g_hash_table_remove (rq->open, key);
    }
  g_free (key);
}

static void
free_array (gpointer a)
{
  g_array_unref (a);
}

static void
compute_truth (TtvTraceset *ts, Truth *t)
{
  for (guint r = 0; r < R_N; r++)
    t->spans[r] = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, free_array);
  t->times = g_array_new (FALSE, FALSE, sizeof (TtvTime));
  t->n_irq_spans = t->n_softirq_spans = t->n_requests = 0;
  g_autoptr (GHashTable) cpus = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  Requests rq = { g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free),
                  g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, free_array) };
  static const char *const irq_field[] = { "irq", "irq_id", NULL };
  static const char *const soft_field[] = { "vec", "softirq_id", NULL };
  static const char *const dev_field[] = { "dev", NULL };
  static const char *const sector_field[] = { "sector", NULL };
  static const char *const n_field[] = { "nr_sector", NULL };

  g_autoptr (GError) error = NULL;
  g_autoptr (TtvDecoder) dec = ttv_decoder_new ();
  g_autoptr (TtvContext) ctx = ttv_context_new (ts, &error);
  g_assert_no_error (error);
  g_assert_true (ttv_context_seek_begin (ctx, &error));
  const TtvEvent *ev;
  while ((ev = ttv_context_next (ctx, &error)))
    {
      g_array_append_val (t->times, ev->time);
      Kind k = kind_of (ev->type->name);
      if (k == E_NONE)
        continue;
      ttv_decoder_reset (dec);
      gint32 root_id = ttv_event_decode_fields (ev, dec, &error);
      g_assert_no_error (error);
      const TtvValue *root = ttv_decoder_get (dec, (guint32) root_id);
      gint cpu = ev->tracefile->cpu;
      CpuTruth *c = g_hash_table_lookup (cpus, GINT_TO_POINTER (cpu));
      if (c == NULL)
        {
          c = g_new (CpuTruth, 1);
          c->irq = c->softirq = -1;
          g_hash_table_insert (cpus, GINT_TO_POINTER (cpu), c);
        }
      guint64 id, dev, sector, n;
      switch (k)
        {
        case E_IRQ_ENTRY:
          g_assert_true (get_field (dec, root, irq_field, &id));
          if (c->irq >= 0)
            g_error ("cpu %d: IRQ %" G_GUINT64_FORMAT " entered inside IRQ %" G_GINT64_FORMAT
                     " at %" G_GINT64_FORMAT ": this test's model has no nesting", cpu, id, c->irq, ev->time);
          c->irq = (gint64) id;
          c->irq_start = ev->time;
          break;
        case E_IRQ_EXIT:
          if (c->irq >= 0)   /* else the trace began inside the handler */
            {
              add_span (t, R_IRQ, (guint32) c->irq, c->irq_start, ev->time);
              t->n_irq_spans++;
            }
          c->irq = -1;
          break;
        case E_SOFT_ENTRY:
          g_assert_true (get_field (dec, root, soft_field, &id));
          if (c->softirq >= 0)
            g_error ("cpu %d: soft IRQ entered inside another at %" G_GINT64_FORMAT, cpu, ev->time);
          c->softirq = (gint64) id;
          c->softirq_start = ev->time;
          break;
        case E_SOFT_EXIT:
          if (c->softirq >= 0)
            {
              add_span (t, R_SOFTIRQ, (guint32) c->softirq, c->softirq_start, ev->time);
              t->n_softirq_spans++;
            }
          c->softirq = -1;
          break;
        case E_ISSUE:
        case E_COMPLETE:
          g_assert_true (get_field (dec, root, dev_field, &dev));
          g_assert_true (get_field (dec, root, sector_field, &sector));
          g_assert_true (get_field (dec, root, n_field, &n));
          request_event (t, &rq, k, (guint32) dev, sector, n, ev->time);
          break;
        case E_NONE:
          break;
        }
    }
  g_assert_no_error (error);

  /* What is still running when the trace ends. */
  GHashTableIter it;
  gpointer key, value;
  g_hash_table_iter_init (&it, cpus);
  while (g_hash_table_iter_next (&it, &key, &value))
    {
      CpuTruth *c = value;
      if (c->irq >= 0)
        add_span (t, R_IRQ, (guint32) c->irq, c->irq_start, TTV_TIME_MAX);
      if (c->softirq >= 0)
        add_span (t, R_SOFTIRQ, (guint32) c->softirq, c->softirq_start, TTV_TIME_MAX);
    }
  g_hash_table_iter_init (&it, rq.open);
  while (g_hash_table_iter_next (&it, &key, &value))
    {
      guint32 dev = (guint32) g_ascii_strtoull (key, NULL, 10);
      add_span (t, R_BLOCKDEV, dev, *(TtvTime *) value, TTV_TIME_MAX);
    }
  g_hash_table_iter_init (&it, rq.flushes);
  while (g_hash_table_iter_next (&it, &key, &value))
    for (guint i = 0; i < ((GArray *) value)->len; i++)
      add_span (t, R_BLOCKDEV, GPOINTER_TO_UINT (key), g_array_index ((GArray *) value, TtvTime, i), TTV_TIME_MAX);
  g_hash_table_unref (rq.open);
  g_hash_table_unref (rq.flushes);
}

/* How many spans of @id cover @time (the state after every event at @time). */
static guint
count_at (const Truth *t, Resource r, guint32 id, TtvTime time)
{
  GArray *a = g_hash_table_lookup (t->spans[r], GUINT_TO_POINTER (id));
  guint n = 0;
  for (guint i = 0; a && i < a->len; i++)
    {
      const Span *s = &g_array_index (a, Span, i);
      n += s->start <= time && time < s->end;
    }
  return n;
}

/* The engine's count for (@r, @id) in @s (0 when it does not know it). */
static guint
state_count (const TtvState *s, Resource r, guint32 id)
{
  g_autoptr (GPtrArray) list = r == R_BLOCKDEV ? ttv_state_list_block_devices (s)
                                               : ttv_state_list_irqs (s, r == R_SOFTIRQ);
  for (guint i = 0; i < list->len; i++)
    {
      if (r == R_BLOCKDEV)
        {
          const TtvBlockDevState *b = g_ptr_array_index (list, i);
          if (b->dev == id)
            return b->pending;
        }
      else
        {
          const TtvIrqState *q = g_ptr_array_index (list, i);
          if (q->id == id)
            return q->active;
        }
    }
  return 0;
}

static gint
compare_u32 (gconstpointer a, gconstpointer b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;
  return x < y ? -1 : x > y;
}

/* The ids of @r the events show busy at some time, ascending. */
static GArray *
truth_ids (const Truth *t, Resource r)
{
  GArray *ids = g_array_new (FALSE, FALSE, sizeof (guint32));
  GHashTableIter it;
  gpointer key;
  g_hash_table_iter_init (&it, t->spans[r]);
  while (g_hash_table_iter_next (&it, &key, NULL))
    {
      guint32 id = GPOINTER_TO_UINT (key);
      g_array_append_val (ids, id);
    }
  g_array_sort (ids, compare_u32);
  return ids;
}

/* Every id the engine knows at @s is busy exactly as the truth says, and so
 * is every id of the truth. */
static void
check_state_at (const Truth *t, const TtvState *s, TtvTime time)
{
  for (guint r = 0; r < R_N; r++)
    {
      g_autoptr (GArray) ids = truth_ids (t, r);
      for (guint k = 0; k < ids->len; k++)
        {
          guint32 id = g_array_index (ids, guint32, k);
          guint want = count_at (t, r, id, time), got = state_count (s, r, id);
          if (want != got)
            g_error ("%s %u at %" G_GINT64_FORMAT ": the events say %u busy, the state %u",
                     resource_name[r], id, time, want, got);
        }
      g_autoptr (GPtrArray) list = r == R_BLOCKDEV ? ttv_state_list_block_devices (s)
                                                   : ttv_state_list_irqs (s, r == R_SOFTIRQ);
      for (guint i = 0; i < list->len; i++)
        {
          guint32 id = r == R_BLOCKDEV ? ((const TtvBlockDevState *) g_ptr_array_index (list, i))->dev
                                       : ((const TtvIrqState *) g_ptr_array_index (list, i))->id;
          if (!g_hash_table_contains (t->spans[r], GUINT_TO_POINTER (id)))
            g_assert_cmpuint (state_count (s, r, id), ==, 0);
        }
    }
}

typedef struct {
  TtvTime time;
  gint delta;
} Step;

static gint
compare_step (gconstpointer a, gconstpointer b)
{
  const Step *x = a, *y = b;
  return x->time < y->time ? -1 : x->time > y->time;
}

/* The busy count of @id as (time, count) at each change up to @end. */
static GArray *
truth_changes (const Truth *t, Resource r, guint32 id, TtvTime end)
{
  GArray *a = g_hash_table_lookup (t->spans[r], GUINT_TO_POINTER (id));
  g_autoptr (GArray) steps = g_array_new (FALSE, FALSE, sizeof (Step));
  for (guint i = 0; a && i < a->len; i++)
    {
      const Span *s = &g_array_index (a, Span, i);
      if (s->start == s->end)
        continue;
      Step up = { s->start, 1 }, down = { s->end, -1 };
      g_array_append_val (steps, up);
      if (s->end <= end)
        g_array_append_val (steps, down);
    }
  g_array_sort (steps, compare_step);
  GArray *out = g_array_new (FALSE, FALSE, sizeof (Step));
  gint count = 0;
  for (guint i = 0; i < steps->len;)
    {
      TtvTime time = g_array_index (steps, Step, i).time;
      for (; i < steps->len && g_array_index (steps, Step, i).time == time; i++)
        count += g_array_index (steps, Step, i).delta;
      Step c = { time, count };
      if (out->len == 0 ? count != 0 : g_array_index (out, Step, out->len - 1).delta != count)
        g_array_append_val (out, c);
    }
  return out;
}

/* The same from the history's intervals of the row. */
static GArray *
history_changes (TtvHistory *h, Resource r, gint row, TtvTime start, TtvTime end)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (Step));
  if (row < 0)
    return out;
  g_autoptr (GArray) ivs = ttv_history_query_intervals (h, row_kind[r], (guint) row, start, end);
  for (guint i = 0; i < ivs->len; i++)
    {
      const TtvHistoryInterval *iv = &g_array_index (ivs, TtvHistoryInterval, i);
      g_assert_cmpuint (iv->state, ==, iv->aux > 0);
      Step c = { iv->start, (gint) iv->aux };
      if (out->len == 0 ? c.delta != 0 : g_array_index (out, Step, out->len - 1).delta != c.delta)
        g_array_append_val (out, c);
    }
  return out;
}

static void
check_history (const Truth *t, TtvTraceset *ts, TtvTime start, TtvTime end)
{
  g_autoptr (GError) error = NULL;
  TtvHistoryOptions opt = { 0, TRUE, NULL };
  g_autoptr (TtvHistory) h = ttv_history_build (ts, &opt, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  for (guint r = 0; r < R_N; r++)
    {
      g_autoptr (GArray) ids = truth_ids (t, r);
      for (guint k = 0; k < ids->len; k++)
        {
          guint32 id = g_array_index (ids, guint32, k);
          gint row = -1;
          for (guint i = 0; i < ttv_history_get_n_rows (h, row_kind[r]); i++)
            if (ttv_history_get_row (h, row_kind[r], i)->id == id)
              row = (gint) i;
          g_autoptr (GArray) want = truth_changes (t, r, id, end);
          g_autoptr (GArray) got = history_changes (h, r, row, start, end);
          for (guint i = 0; i < MAX (want->len, got->len); i++)
            {
              const Step *w = i < want->len ? &g_array_index (want, Step, i) : NULL;
              const Step *g = i < got->len ? &g_array_index (got, Step, i) : NULL;
              if (w == NULL || g == NULL || w->time != g->time || w->delta != g->delta)
                g_error ("%s %u, change %u: the events say %d busy from %" G_GINT64_FORMAT
                         ", the history %d from %" G_GINT64_FORMAT, resource_name[r], id, i,
                         w ? w->delta : -1, w ? w->time : -1, g ? g->delta : -1, g ? g->time : -1);
            }
        }
    }
}

/* The engine's state at event times, just before them and between them, and
 * the history over the whole trace, against the truth. */
static void
check_traceset (TtvTraceset *ts, guint n_samples)
{
  Truth t;
  compute_truth (ts, &t);
  g_assert_cmpuint (t.times->len, >, 10);
  g_test_message ("%u events, %" G_GUINT64_FORMAT " IRQ runs, %" G_GUINT64_FORMAT
                  " soft IRQ runs, %" G_GUINT64_FORMAT " block requests", t.times->len,
                  t.n_irq_spans, t.n_softirq_spans, t.n_requests);

  g_autoptr (GError) error = NULL;
  TtvCheckpointPolicy policy = { 1000, 0 };
  g_autoptr (TtvStateTracker) tr = ttv_state_tracker_new (ts, &policy);
  g_assert_true (ttv_state_tracker_build (tr, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  g_autoptr (GRand) rand = g_rand_new_with_seed (23);
  for (guint i = 0; i < n_samples; i++)
    {
      guint k = (guint) g_rand_int_range (rand, 0, (gint32) t.times->len);
      TtvTime time = g_array_index (t.times, TtvTime, k) - (i % 3 == 1);
      if (i % 3 == 2 && k + 1 < t.times->len)
        time += (g_array_index (t.times, TtvTime, k + 1) - time) / 2;
      g_autoptr (TtvState) s = ttv_state_tracker_dup_state_at (tr, time, &error);
      g_assert_no_error (error);
      check_state_at (&t, s, time);
    }
  TtvTime last = g_array_index (t.times, TtvTime, t.times->len - 1);
  check_state_at (&t, ttv_state_tracker_get_state (tr), last);
  check_history (&t, ts, g_array_index (t.times, TtvTime, 0), last);
  truth_clear (&t);
}

/* ---- IRQ names: the kernel model's memo against the entries' bytes ---- */

/* An LTTng IRQ entry's number, and where its name's bytes lie in the
 * event's data and how many there are before the NUL, as the decoder
 * reads them. */
static gboolean
read_irq_entry (const TtvEvent *ev, TtvDecoder *dec, guint32 *irq, gsize *at, gsize *len)
{
  if (!g_str_equal (ev->type->name, "irq_handler_entry"))
    return FALSE;
  ttv_decoder_reset (dec);
  gint32 root = ttv_event_decode_fields (ev, dec, NULL);
  g_assert_cmpint (root, >=, 0);
  const TtvValue *r = ttv_decoder_get (dec, (guint32) root);
  const TtvValue *name = ttv_decoder_get_field (dec, r, "name");
  gint64 number;
  g_assert_true (ttv_value_get_int (ttv_decoder_get_field (dec, r, "irq"), &number));
  g_assert_nonnull (name);
  *irq = (guint32) number;
  *at = (gsize) (name->v.string.str - (const char *) ev->data);
  *len = name->v.string.len;
  return TRUE;
}

static void
assert_irq_named (const TtvState *s, guint32 irq, const char *want)
{
  const TtvIrqState *q = ttv_state_get_irq (s, irq, FALSE);
  g_assert_nonnull (q);
  g_assert_cmpstr (g_quark_to_string (q->name), ==, want);
}

/* @e (a copy of an IRQ entry, its data @data) applied to @s names the IRQ
 * @want. */
static void
apply_irq_copy (TtvKernelModel *model, TtvState *s, guint trace, TtvEvent *e, const guint8 *data, guint32 irq,
                const char *want)
{
  e->data = data;
  ttv_kernel_model_apply (model, s, trace, e);
  assert_irq_named (s, irq, want);
}

/* The kernel model names an IRQ at every LTTng entry, and skips the
 * search for the name's end when the bytes spell the name it gave the IRQ
 * last and the state still has it.  Every entry of @ts names its IRQ in a
 * state fed the trace; and copies of it, their name's bytes changed, cut
 * short by a NUL, restored, or the data ending inside the name, name it in
 * another state as the bytes say, also after the state renamed the IRQ
 * itself.  Returns how many entries were checked. */
static guint64
check_irq_entry_names (TtvTraceset *ts)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) traces = g_ptr_array_new ();
  for (guint i = 0; i < ttv_traceset_get_n_traces (ts); i++)
    g_ptr_array_add (traces, ttv_traceset_get_trace (ts, i));
  g_autoptr (TtvKernelModel) model = ttv_kernel_model_new (traces);
  g_autoptr (TtvState) state = ttv_state_new ();
  g_autoptr (TtvState) tampered = ttv_state_new ();
  g_autoptr (TtvDecoder) dec = ttv_decoder_new ();
  g_autoptr (TtvContext) ctx = ttv_context_new (ts, &error);
  g_assert_true (ttv_context_seek_begin (ctx, &error));
  guint64 n = 0;
  const TtvEvent *ev;
  while ((ev = ttv_context_next (ctx, &error)))
    {
      guint trace = ttv_traceset_get_stream_trace (ts, ttv_context_get_stream (ctx));
      ttv_kernel_model_apply (model, state, trace, ev);
      guint32 irq;
      gsize at, len;
      if (!read_irq_entry (ev, dec, &irq, &at, &len) || len == 0)
        continue;
      g_autofree char *name = g_strndup ((const char *) ev->data + at, len);
      assert_irq_named (state, irq, name);

      TtvEvent e = *ev;
      g_autofree guint8 *copy = g_memdup2 (ev->data, at + len + 1);
      e.data_bits = (at + len + 1) * 8;
      char *bytes = (char *) copy + at;
      g_autofree char *changed = g_strdup (name);
      changed[0] = bytes[0] = name[0] == 'X' ? 'Y' : 'X';
      apply_irq_copy (model, tampered, trace, &e, copy, irq, changed);
      if (len > 1)
        {
          bytes[1] = '\0';
          changed[1] = '\0';
          apply_irq_copy (model, tampered, trace, &e, copy, irq, changed);
        }
      memcpy (bytes, name, len);
      apply_irq_copy (model, tampered, trace, &e, copy, irq, name);
      apply_irq_copy (model, tampered, trace, &e, copy, irq, name);
      ttv_state_name_irq (tampered, irq, "renamed");
      apply_irq_copy (model, tampered, trace, &e, copy, irq, name);
      /* No NUL before the data's end: no name, the IRQ keeps its own. */
      g_autofree guint8 *cut = g_memdup2 (ev->data, at + len);
      e.data_bits = (at + len) * 8;
      apply_irq_copy (model, tampered, trace, &e, cut, irq, name);
      ttv_state_name_irq (tampered, irq, "renamed");
      apply_irq_copy (model, tampered, trace, &e, cut, irq, "renamed");
      n++;
    }
  g_assert_no_error (error);
  return n;
}

static void
test_real_ctf (gconstpointer data)
{
  g_autofree char *path = ttv_test_dup_shared_ctf_trace (data);
  if (path == NULL)
    return;
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvTraceset) ts = ttv_traceset_new ();
  if (!ttv_traceset_add_path (ts, path, &error))
    g_error ("%s: %s", path, error->message);
  check_traceset (ts, 400);
  g_assert_cmpuint (check_irq_entry_names (ts), >, 0);
}

static void
test_simulated (gconstpointer data)
{
  static const guint cpu_ids[] = { 0, 1, 3, 6 };
  TtvTestFormat format = GPOINTER_TO_UINT (data);
  g_autoptr (GError) error = NULL;
  const char *dir = ttv_test_get_tmp_dir ();
  g_autofree char *trace_dir = g_build_filename (dir, "trace", NULL);
  TtvSimOptions so;
  ttv_sim_options_init (&so);
  so.seed = 31;
  so.cpu_ids = cpu_ids;
  so.n_cpus = G_N_ELEMENTS (cpu_ids);
  so.n_processes = 30;
  so.max_events = 60000;
  ttv_state_test_write_sim (trace_dir, format, &so, TTV_BYTE_ORDER_BIG, 16384);
  g_autoptr (TtvTraceset) ts = ttv_traceset_new ();
  g_assert_true (ttv_traceset_add_path (ts, trace_dir, &error));
  g_assert_no_error (error);
  check_traceset (ts, 300);
  guint64 entries = check_irq_entry_names (ts);
  g_test_message ("%" G_GUINT64_FORMAT " named IRQ entries", entries);
}

/* ---- the request matching on its own: what real traces rarely show ---- */

static gint
issue (TtvBlockRequests *set, guint32 dev, guint64 sector, guint32 n)
{
  TtvBlockRequest rq = { dev, sector, n, FALSE };
  return ttv_block_requests_issue (set, &rq);
}

static gint
complete (TtvBlockRequests *set, guint32 dev, guint64 sector, guint32 n)
{
  TtvBlockRequest rq = { dev, sector, n, FALSE };
  return ttv_block_requests_complete (set, &rq);
}

static void
assert_requests (const TtvBlockRequests *set, guint32 dev, const char *want)
{
  g_autoptr (GString) got = g_string_new (NULL);
  ttv_block_requests_append_text (set, dev, got);
  g_assert_cmpstr (got->str, ==, want);
}

static void
test_block_requests (void)
{
  g_autoptr (TtvBlockRequests) set = ttv_block_requests_new ();
  g_assert_cmpint (complete (set, 1, 100, 8), ==, 0);     /* issued before the trace */
  g_assert_cmpint (issue (set, 1, 100, 8), ==, 1);
  g_assert_cmpint (issue (set, 2, 100, 8), ==, 1);        /* another device, same sector */
  g_assert_cmpint (issue (set, 1, 100, 16), ==, 0);       /* issued again, grown by a merge */
  g_assert_cmpint (issue (set, 1, G_MAXUINT64, 0), ==, 1); /* a flush */
  g_assert_cmpint (issue (set, 1, G_MAXUINT64, 0), ==, 1);
  assert_requests (set, 1, " 100+16 flush flush");
  g_autoptr (TtvBlockRequests) copy = ttv_block_requests_copy (set);
  g_assert_cmpint (complete (set, 1, 100, 4), ==, 0);     /* partial */
  assert_requests (set, 1, " 104+12 flush flush");
  g_assert_cmpint (complete (set, 1, 777, 0), ==, -2);    /* a flush ends the flushes */
  g_assert_cmpint (complete (set, 1, 104, 12), ==, -1);
  assert_requests (set, 1, "");
  assert_requests (set, 2, " 100+8");
  assert_requests (copy, 1, " 100+16 flush flush");       /* copies are deep */

  /* Anonymous requests (no sector in the trace) end in order. */
  TtvBlockRequest anon = { 3, 0, 0, TRUE };
  g_assert_cmpint (ttv_block_requests_issue (set, &anon), ==, 1);
  g_assert_cmpint (ttv_block_requests_issue (set, &anon), ==, 1);
  g_assert_cmpint (ttv_block_requests_complete (set, &anon), ==, -1);
  assert_requests (set, 3, " ?");

  /* Requests that never complete do not pile up without bound. */
  gint total = 0;
  for (guint i = 0; i < 10000; i++)
    total += issue (set, 4, i * 8, 8);
  g_assert_cmpint (total, <, 10000);
  g_assert_cmpuint (ttv_block_requests_get_memory_size (set), <, 4097 * sizeof (TtvBlockRequest) + 64);
}

/* The kernel model names an IRQ from the bytes of its entry event
 * (ttv_state_name_irq_bytes, which compares before it copies): the name
 * must be a copy of those bytes (up to a NUL), whatever the IRQ was named
 * before. */
static void
test_irq_names (void)
{
  static const struct {
    const char *bytes;
    gsize len;
  } names[] = {
    { "eth0", 4 }, { "eth0", 4 },         /* named again: unchanged */
    { "eth0xyz", 3 }, { "eth0", 4 },      /* a prefix of the name, then longer */
    { "eth0xyz", 5 }, { "ahci\0junk", 9 }, /* bytes after a NUL are not the name */
    { "", 0 }, { "x", 0 }, { "\0x", 2 },   /* empty: the name stays */
    { "timer", 5 }, { "timer0", 6 }, { "timer", 5 },
  };
  g_autoptr (TtvState) state = ttv_state_new ();
  g_autofree char *want = NULL;
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      /* An empty name leaves the IRQ as it was. */
      g_autofree char *copy = g_strndup (names[i].bytes, names[i].len);
      if (*copy)
        {
          g_free (want);
          want = g_strdup (copy);
        }
      ttv_state_name_irq_bytes (state, 7, names[i].bytes, names[i].len);
      const TtvIrqState *got = ttv_state_get_irq (state, 7, FALSE);
      g_assert_true ((want == NULL) == (got == NULL));
      if (want)
        g_assert_cmpstr (g_quark_to_string (got->name), ==, want);
    }
  g_assert_cmpstr (want, ==, "timer");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/state/resources/block-requests", test_block_requests);
  g_test_add_func ("/state/resources/irq-names", test_irq_names);
  g_test_add_data_func ("/state/resources/sim-ltt", GUINT_TO_POINTER (TTV_TEST_FORMAT_LTT), test_simulated);
  g_test_add_data_func ("/state/resources/sim-lttng", GUINT_TO_POINTER (TTV_TEST_FORMAT_LTTNG), test_simulated);
  g_test_add_data_func ("/state/resources/sim-ctf", GUINT_TO_POINTER (TTV_TEST_FORMAT_CTF), test_simulated);
  g_test_add_data_func ("/state/resources/ctf/arm64-kernel", "arm64-kernel", test_real_ctf);
  g_test_add_data_func ("/state/resources/ctf/bigendian-kernel", "bigendian-kernel", test_real_ctf);
  g_test_add_data_func ("/state/resources/ctf/scp-kernel", "scp-kernel", test_real_ctf);
  return g_test_run ();
}
