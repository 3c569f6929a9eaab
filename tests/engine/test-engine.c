/* test-engine.c: the traceset context engine against brute force, over
 * generated in-memory tracesets with many equal timestamps (suite 'engine'). */
#include "ttv-context.h"
#include "ttv-error.h"
#include "mem-format.h"
#include "engine-bench.h"

#include "ttv-merge-private.h"
#include "ttv-position-private.h"
#include "ttv-position-token.h"

#include <stdio.h>
#include <string.h>

typedef struct {
  TtvTime time;
  guint stream;
  guint block;
  guint index;
  guint type;
} Ref;

typedef struct {
  TtvTraceset *ts;
  GArray *ref;                  /* of Ref, in expected delivery order */
} Set;

static int
ref_cmp (gconstpointer pa, gconstpointer pb)
{
  const Ref *a = pa, *b = pb;
  if (a->time != b->time)
    return a->time < b->time ? -1 : 1;
  if (a->stream != b->stream)
    return a->stream < b->stream ? -1 : 1;
  if (a->block != b->block)
    return a->block < b->block ? -1 : 1;
  return a->index < b->index ? -1 : a->index > b->index;
}

/* 1-3 traces of 1-5 tracefiles (some empty), times growing by 0-3 ns so that
 * equal timestamps are everywhere, blocks of 1-8 events. */
static Set
set_make (guint32 seed, guint max_events)
{
  g_autoptr (GRand) r = g_rand_new_with_seed (seed);
  Set s = { ttv_traceset_new (), g_array_new (FALSE, FALSE, sizeof (Ref)) };
  guint n_traces = g_rand_int_range (r, 1, 4);
  TtvTime base = (seed % 3 == 0) ? -5000 : G_GINT64_CONSTANT (1700000000000000000);
  guint stream = 0;
  for (guint t = 0; t < n_traces; t++)
    {
      g_autofree char *name = g_strdup_printf ("trace%u", t);
      guint n_types = g_rand_int_range (r, 1, 6);
      TtvTrace *trace = mem_trace_new (name, n_types);
      guint n_tf = g_rand_int_range (r, 1, 6);
      for (guint i = 0; i < n_tf; i++, stream++)
        {
          guint n = g_rand_int_range (r, 0, 8) == 0 ? 0 : g_rand_int_range (r, 1, max_events + 1);
          guint k = g_rand_int_range (r, 1, 9);
          g_autofree TtvTime *times = g_new (TtvTime, MAX (n, 1));
          g_autofree guint *types = g_new (guint, MAX (n, 1));
          TtvTime now = base + g_rand_int_range (r, 0, 6);
          for (guint e = 0; e < n; e++)
            {
              now += g_rand_int_range (r, 0, 4);
              times[e] = now;
              types[e] = g_rand_int_range (r, 0, n_types);
              Ref ref = { now, stream, e / k, e % k, types[e] };
              g_array_append_val (s.ref, ref);
            }
          g_autofree char *tf_name = g_strdup_printf ("cpu%u", i);
          mem_trace_add_tracefile (trace, tf_name, times, types, n, k);
        }
      mem_trace_finish (trace);
      ttv_traceset_add_trace (s.ts, trace);
    }
  g_array_sort (s.ref, ref_cmp);
  return s;
}

static void
set_clear (Set *s)
{
  ttv_traceset_unref (s->ts);
  g_array_unref (s->ref);
}

static void
check_event (const Set *s, const TtvEvent *ev, guint i)
{
  g_assert_cmpuint (i, <, s->ref->len);
  const Ref *ref = &g_array_index (s->ref, Ref, i);
  g_assert_nonnull (ev);
  g_assert_cmpint (ev->time, ==, ref->time);
  g_assert_true (ev->tracefile == ttv_traceset_get_tracefile (s->ts, ref->stream));
  g_assert_cmpuint (ev->pos.block, ==, ref->block);
  g_assert_cmpuint (ev->pos.index, ==, ref->index);
  g_assert_cmpuint (ev->pos.offset, ==, ref->index * MEM_EVENT_SIZE);
  g_assert_cmpuint (ev->type->id, ==, ref->type);
}

/* The next @count events of @ctx are the reference's from @i. */
static void
check_following (const Set *s, TtvContext *ctx, guint i, guint count)
{
  for (guint j = i; j < MIN (s->ref->len, i + count); j++)
    {
      g_autoptr (GError) error = NULL;
      const TtvEvent *ev = ttv_context_next (ctx, &error);
      g_assert_no_error (error);
      check_event (s, ev, j);
    }
  if (i + count >= s->ref->len)
    {
      g_autoptr (GError) error = NULL;
      g_assert_null (ttv_context_next (ctx, &error));
      g_assert_no_error (error);
    }
}

/* Index of the first reference event at or after @t, by linear scan. */
static guint
linear_seek (const Set *s, TtvTime t)
{
  guint i = 0;
  while (i < s->ref->len && g_array_index (s->ref, Ref, i).time < t)
    i++;
  return i;
}

static void
test_order (void)
{
  for (guint32 seed = 1; seed <= 40; seed++)
    {
      Set s = set_make (seed, 300);
      g_autoptr (GError) error = NULL;
      g_autoptr (TtvContext) ctx = ttv_context_new (s.ts, &error);
      g_assert_no_error (error);
      /* Twice: reading again after seek_begin gives the same order. */
      for (guint pass = 0; pass < 2; pass++)
        {
          if (pass == 1)
            g_assert_true (ttv_context_seek_begin (ctx, NULL));
          for (guint i = 0; i < s.ref->len; i++)
            {
              const TtvEvent *peek = ttv_context_peek (ctx, NULL);
              const TtvEvent *ev = ttv_context_next (ctx, &error);
              g_assert_no_error (error);
              g_assert_true (peek == ev);
              check_event (&s, ev, i);
              g_assert_cmpuint (ttv_context_get_stream (ctx), ==, g_array_index (s.ref, Ref, i).stream);
            }
          g_assert_null (ttv_context_next (ctx, &error));
          g_assert_no_error (error);
          g_assert_null (ttv_context_peek (ctx, &error));
          g_assert_no_error (error);
        }
      set_clear (&s);
    }
}

/* A trace with a clock correction: its events come at their corrected
 * times, merged with the others' (ttv_context_next()'s own path for them). */
static void
test_order_corrected (void)
{
  for (guint32 seed = 1; seed <= 40; seed++)
    {
      Set s = set_make (seed, 300);
      ttv_traceset_get_trace (s.ts, 0)->clock.offset_ns = 2;
      for (guint i = 0; i < s.ref->len; i++)
        {
          Ref *ref = &g_array_index (s.ref, Ref, i);
          if (ttv_traceset_get_stream_trace (s.ts, ref->stream) == 0)
            ref->time += 2;
        }
      g_array_sort (s.ref, ref_cmp);
      g_autoptr (GError) error = NULL;
      g_autoptr (TtvContext) ctx = ttv_context_new (s.ts, &error);
      g_assert_no_error (error);
      check_following (&s, ctx, 0, s.ref->len);
      set_clear (&s);
    }
}

/* Events at TTV_TIME_MAX, the time of a stream past its end in a small
 * merge: they still come, after the earlier ones and by stream index, and
 * only then does the merge end; both with a small merge and a tree. */
static void
test_merge_time_max (void)
{
  for (guint n = 3; n <= 17; n += 14)
    {
      TtvMerge m;
      ttv_merge_init (&m, n);
      g_autofree TtvMergeKey *keys = g_new (TtvMergeKey, n);
      /* Stream 0 is empty, 1 has TTV_TIME_MAX, 2 has 5 then TTV_TIME_MAX,
       * the others are empty. */
      for (guint i = 0; i < n; i++)
        keys[i] = TTV_MERGE_KEY (TTV_TIME_MAX, TTV_MERGE_RANK_END | i);
      keys[1] = TTV_MERGE_KEY (TTV_TIME_MAX, 1);
      keys[2] = TTV_MERGE_KEY (5, 2);
      ttv_merge_build (&m, keys);
      g_assert_false (ttv_merge_at_end (&m));
      g_assert_cmpuint (ttv_merge_winner (&m), ==, 2);
      ttv_merge_advance (&m, TTV_TIME_MAX);
      g_assert_false (ttv_merge_at_end (&m));
      g_assert_cmpuint (ttv_merge_winner (&m), ==, 1);
      ttv_merge_advance_end (&m);
      g_assert_false (ttv_merge_at_end (&m));
      g_assert_cmpuint (ttv_merge_winner (&m), ==, 2);
      ttv_merge_advance_end (&m);
      g_assert_true (ttv_merge_at_end (&m));
      ttv_merge_clear (&m);
    }
}

/* Stream @stream's next event is at @t: in its times and, as a reference
 * event, in @all. */
static void
merge_add_event (GArray *all, GArray **times, guint stream, TtvTime t)
{
  Ref ref = { t, stream, 0, times[stream]->len, 0 };
  g_array_append_val (all, ref);
  g_array_append_val (times[stream], t);
}

/* Every stream's merge key where it is: the time of its event @next[i]
 * of @times[i], or at its end. */
static void
merge_keys_at (TtvMergeKey *keys, GArray **times, const guint *next, guint n)
{
  for (guint i = 0; i < n; i++)
    keys[i] = next[i] < times[i]->len
                ? TTV_MERGE_KEY (g_array_index (times[i], TtvTime, next[i]), i)
                : TTV_MERGE_KEY (TTV_TIME_MAX, TTV_MERGE_RANK_END | i);
}

/* The merge's winner is the stream of @all[*k], the reference order, at
 * the right event; then it moves that stream to its next event. */
static void
merge_check_step (TtvMerge *m, GArray *all, guint *k, GArray **times, guint *next)
{
  guint w = ttv_merge_winner (m);
  const Ref *ref = &g_array_index (all, Ref, (*k)++);
  g_assert_cmpuint (w, ==, ref->stream);
  g_assert_cmpuint (next[w], ==, ref->index);
  if (++next[w] < times[w]->len)
    ttv_merge_advance (m, g_array_index (times[w], TtvTime, next[w]));
  else
    ttv_merge_advance_end (m);
}

/* The merge alone, over segments where streams interleave finely and
 * segments where they come in long runs, so that it switches between its
 * replay and fast modes; the order must not depend on the mode. */
static void
test_merge_modes (void)
{
  g_autoptr (GRand) r = g_rand_new_with_seed (3);
  for (guint n = 1; n <= 17; n += 4)
    {
      g_autoptr (GArray) all = g_array_new (FALSE, FALSE, sizeof (Ref));
      GArray *times[17];
      for (guint i = 0; i < n; i++)
        times[i] = g_array_new (FALSE, FALSE, sizeof (TtvTime));
      TtvTime now = -100;
      guint stream = 0;
      for (guint e = 0; e < 40000; e++)
        {
          gboolean runs = (e / 5000) % 2 == 1;
          if (!runs || g_rand_int_range (r, 0, 100) == 0)
            stream = g_rand_int_range (r, 0, n);
          now += g_rand_int_range (r, 0, 2);
          merge_add_event (all, times, stream, now);
        }
      g_array_sort (all, ref_cmp);

      TtvMerge m;
      ttv_merge_init (&m, n);
      g_autofree TtvMergeKey *keys = g_new (TtvMergeKey, n);
      guint next[17] = { 0 };
      merge_keys_at (keys, times, next, n);
      ttv_merge_build (&m, keys);
      guint switches = 0, k = 0;
      gboolean fast = m.fast;
      while (!ttv_merge_at_end (&m))
        {
          merge_check_step (&m, all, &k, times, next);
          switches += m.fast != fast;
          fast = m.fast;
        }
      g_assert_cmpuint (k, ==, all->len);
      if (n > TTV_MERGE_SMALL)
        g_assert_cmpuint (switches, >=, 2);
      ttv_merge_clear (&m);
      for (guint i = 0; i < n; i++)
        g_array_unref (times[i]);
    }
}

/* The small merge's single comparison with the runner-up while the same
 * stream wins: over runs of one stream, ties between streams (equal
 * times, the lower index first, whichever stream won last), streams that
 * end at different points and rebuilds in the middle (what a seek does),
 * for every small size; the order must be the one of (time, stream). */
static void
test_merge_stays (void)
{
  g_autoptr (GRand) r = g_rand_new_with_seed (19);
  for (guint n = 1; n <= TTV_MERGE_SMALL; n++)
    for (guint round = 0; round < 20; round++)
      {
        g_autoptr (GArray) all = g_array_new (FALSE, FALSE, sizeof (Ref));
        GArray *times[TTV_MERGE_SMALL];
        for (guint i = 0; i < n; i++)
          times[i] = g_array_new (FALSE, FALSE, sizeof (TtvTime));
        TtvTime now = round % 2 ? TTV_TIME_MIN : 0;
        guint stream = 0;
        guint n_events = g_rand_int_range (r, 0, 3000);
        for (guint e = 0; e < n_events; e++)
          {
            /* Runs of about 30 events; a run goes on at the same time as
             * the last event of another stream half of the time. */
            if (g_rand_int_range (r, 0, 30) == 0)
              stream = g_rand_int_range (r, 0, n);
            now += g_rand_int_range (r, 0, 3) == 0;
            merge_add_event (all, times, stream, now);
          }
        /* Some rounds end with events at TTV_TIME_MAX on several streams. */
        if (round % 4 == 3)
          for (guint i = 0; i < n; i += 2)
            merge_add_event (all, times, i, TTV_TIME_MAX);
        g_array_sort (all, ref_cmp);

        TtvMerge m;
        ttv_merge_init (&m, n);
        TtvMergeKey keys[TTV_MERGE_SMALL];
        guint next[TTV_MERGE_SMALL] = { 0 };
        guint k = 0;
        do
          {
            /* (Re)build from where every stream is, as after a seek. */
            merge_keys_at (keys, times, next, n);
            ttv_merge_build (&m, keys);
            guint until = k + g_rand_int_range (r, 1, 2000);
            while (k < until && !ttv_merge_at_end (&m))
              merge_check_step (&m, all, &k, times, next);
          }
        while (!ttv_merge_at_end (&m));
        g_assert_cmpuint (k, ==, all->len);
        ttv_merge_clear (&m);
        for (guint i = 0; i < n; i++)
          g_array_unref (times[i]);
      }
}

/* Many streams with events at the same times, every stream at most times
 * and a few only at some, so that the stream that wins falls behind most
 * of the others (the small merge's walk down its order, to the sentinel
 * at the end) and the order of equal times is all by stream index; with
 * every small size and a tree.  The order must be the one of (time,
 * stream). */
static void
test_merge_equal_times (void)
{
  g_autoptr (GRand) r = g_rand_new_with_seed (23);
  for (guint n = 1; n <= TTV_MERGE_SMALL + 1; n++)
    {
      g_autoptr (GArray) all = g_array_new (FALSE, FALSE, sizeof (Ref));
      GArray *times[TTV_MERGE_SMALL + 1];
      for (guint i = 0; i < n; i++)
        times[i] = g_array_new (FALSE, FALSE, sizeof (TtvTime));
      for (TtvTime t = 0; t < 600; t++)
        for (guint i = 0; i < n; i++)
          if (g_rand_int_range (r, 0, 8) != 0)
            merge_add_event (all, times, i, t / 3);
      g_array_sort (all, ref_cmp);

      TtvMerge m;
      ttv_merge_init (&m, n);
      TtvMergeKey keys[TTV_MERGE_SMALL + 1];
      guint next[TTV_MERGE_SMALL + 1] = { 0 };
      merge_keys_at (keys, times, next, n);
      ttv_merge_build (&m, keys);
      guint k = 0;
      while (!ttv_merge_at_end (&m))
        merge_check_step (&m, all, &k, times, next);
      g_assert_cmpuint (k, ==, all->len);
      ttv_merge_clear (&m);
      for (guint i = 0; i < n; i++)
        g_array_unref (times[i]);
    }
}

static void
test_seek_time (void)
{
  g_autoptr (GRand) r = g_rand_new_with_seed (7);
  for (guint32 seed = 100; seed < 120; seed++)
    {
      Set s = set_make (seed, 200);
      g_autoptr (TtvContext) ctx = ttv_context_new (s.ts, NULL);
      TtvTime start = ttv_traceset_get_start (s.ts), end = ttv_traceset_get_end (s.ts);
      for (guint k = 0; k < 300; k++)
        {
          TtvTime t;
          switch (k % 4)
            {
            case 0: /* exact hit, often a duplicated time */
              t = s.ref->len ? g_array_index (s.ref, Ref, g_rand_int_range (r, 0, s.ref->len)).time : 0;
              break;
            case 1:
              t = start - 10 + g_rand_int_range (r, 0, (gint32) MIN (end - start + 20, 100000));
              break;
            case 2:
              t = k % 8 == 2 ? TTV_TIME_MIN : start - g_rand_int_range (r, 1, 100);
              break;
            default:
              t = k % 8 == 3 ? TTV_TIME_MAX : end + g_rand_int_range (r, 0, 100);
              break;
            }
          g_autoptr (GError) error = NULL;
          g_assert_true (ttv_context_seek_time (ctx, t, &error));
          g_assert_no_error (error);
          check_following (&s, ctx, linear_seek (&s, t), 6);
        }
      set_clear (&s);
    }
}

/* Positions saved before each event, with the tokens. */
static GPtrArray *
save_all_positions (const Set *s, TtvContext *ctx)
{
  GPtrArray *positions = g_ptr_array_new_with_free_func ((GDestroyNotify) ttv_position_free);
  g_assert_true (ttv_context_seek_begin (ctx, NULL));
  for (guint i = 0; i <= s->ref->len; i++)
    {
      g_autoptr (GError) error = NULL;
      TtvPosition *p = ttv_context_get_position (ctx, &error);
      g_assert_no_error (error);
      g_ptr_array_add (positions, p);
      if (i < s->ref->len)
        {
          check_event (s, ttv_context_next (ctx, NULL), i);
          g_assert_cmpint (ttv_position_get_time (p), ==, g_array_index (s->ref, Ref, i).time);
          g_assert_cmpuint (ttv_position_get_stream (p), ==, g_array_index (s->ref, Ref, i).stream);
          g_assert_false (ttv_position_is_end (p));
        }
      else
        g_assert_true (ttv_position_is_end (p));
    }
  return positions;
}

static void
test_seek_position (void)
{
  g_autoptr (GRand) r = g_rand_new_with_seed (11);
  for (guint32 seed = 200; seed < 215; seed++)
    {
      Set s = set_make (seed, 150);
      g_autoptr (TtvContext) ctx = ttv_context_new (s.ts, NULL);
      g_autoptr (GPtrArray) positions = save_all_positions (&s, ctx);
      for (guint k = 0; k < 300; k++)
        {
          guint i = g_rand_int_range (r, 0, positions->len);
          const TtvPosition *p = g_ptr_array_index (positions, i);
          g_autoptr (GError) error = NULL;
          /* Through the token half of the time. */
          g_autofree char *token = ttv_position_to_string (p);
          g_autoptr (TtvPosition) back = ttv_position_parse (token, s.ts, &error);
          g_assert_no_error (error);
          g_assert_true (ttv_position_equal (back, p));
          g_assert_cmpint (ttv_position_compare (back, p), ==, 0);
          g_autofree char *again = ttv_position_to_string (back);
          g_assert_cmpstr (token, ==, again);
          g_assert_true (ttv_context_seek_position (ctx, k % 2 ? back : p, &error));
          g_assert_no_error (error);
          /* Saving right after the seek gives the same position. */
          g_autoptr (TtvPosition) now = ttv_context_get_position (ctx, NULL);
          g_assert_true (ttv_position_equal (now, p));
          check_following (&s, ctx, i, 8);

          /* compare agrees with delivery order. */
          guint j = g_rand_int_range (r, 0, positions->len);
          int c = ttv_position_compare (p, g_ptr_array_index (positions, j));
          g_assert_cmpint (c, ==, i < j ? -1 : i > j ? 1 : 0);
        }
      set_clear (&s);
    }
}

static void
test_bad_token (void)
{
  Set s = set_make (300, 50);
  Set other = set_make (301, 50);
  g_autoptr (TtvContext) ctx = ttv_context_new (s.ts, NULL);
  g_autoptr (TtvContext) other_ctx = ttv_context_new (other.ts, NULL);
  ttv_context_next (ctx, NULL);
  g_autoptr (TtvPosition) p = ttv_context_get_position (ctx, NULL);
  g_autofree char *token = ttv_position_to_string (p);

  const char *garbage[] = { "", "x", "hello world", "!!!!!!!!!!!!", "00000000000000000000",
                            "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz" };
  for (guint i = 0; i < G_N_ELEMENTS (garbage); i++)
    {
      g_autoptr (GError) error = NULL;
      g_assert_null (ttv_position_parse (garbage[i], s.ts, &error));
      g_assert_error (error, TTV_ENGINE_ERROR, TTV_ENGINE_ERROR_BAD_POSITION);
      g_assert_nonnull (strstr (error->message, "not a valid position"));
    }
  /* Every single-character change and every truncation is refused. */
  for (gsize i = 0; token[i]; i++)
    {
      g_autofree char *bad = g_strdup (token);
      bad[i] = bad[i] == 'q' ? 'r' : 'q';
      g_autoptr (GError) error = NULL;
      g_assert_null (ttv_position_parse (bad, s.ts, &error));
      g_assert_error (error, TTV_ENGINE_ERROR, TTV_ENGINE_ERROR_BAD_POSITION);
      g_autofree char *cut = g_strndup (token, i);
      g_autoptr (GError) error2 = NULL;
      g_assert_null (ttv_position_parse (cut, s.ts, &error2));
      g_assert_error (error2, TTV_ENGINE_ERROR, TTV_ENGINE_ERROR_BAD_POSITION);
    }
  /* Upper case is accepted. */
  g_autofree char *upper = g_ascii_strup (token, -1);
  g_autoptr (TtvPosition) up = ttv_position_parse (upper, s.ts, NULL);
  g_assert_nonnull (up);

  /* A token of another traceset. */
  g_autoptr (GError) error = NULL;
  g_assert_null (ttv_position_parse (token, other.ts, &error));
  g_assert_error (error, TTV_ENGINE_ERROR, TTV_ENGINE_ERROR_BAD_POSITION);
  g_assert_nonnull (strstr (error->message, "another traceset"));
  g_clear_error (&error);
  g_assert_false (ttv_context_seek_position (other_ctx, p, &error));
  g_assert_error (error, TTV_ENGINE_ERROR, TTV_ENGINE_ERROR_BAD_POSITION);
  g_clear_error (&error);
  /* A foreign position is refused before anything moves: the context
   * still reads from where it was. */
  check_following (&other, other_ctx, 0, 3);
  g_assert_cmpuint (ttv_context_process_middle (other_ctx, TTV_TIME_MAX, 10, p, &error), ==, 0);
  g_assert_error (error, TTV_ENGINE_ERROR, TTV_ENGINE_ERROR_BAD_POSITION);
  g_clear_error (&error);
  check_following (&other, other_ctx, 3, 3);

  set_clear (&s);
  set_clear (&other);
}

/* A position whose tracefile positions do not name events of this traceset
 * (same shape: a bookmark of a modified trace) is refused by seek_position. */
static void
test_position_mismatch (void)
{
  Set s = set_make (310, 80);
  g_autoptr (TtvContext) ctx = ttv_context_new (s.ts, NULL);
  g_autoptr (GPtrArray) positions = save_all_positions (&s, ctx);
  const TtvPosition *p = g_ptr_array_index (positions, 3);
  guint w = p->next;
  for (guint k = 0; k < 4; k++)
    {
      g_autoptr (TtvPosition) q = ttv_position_copy (p);
      switch (k)
        {
        case 0: q->tf[w].pos.block += 1000; break;                 /* no such block */
        case 1: q->tf[w].pos.offset += 1; break;                   /* not an event start */
        case 2: q->next_time += 1; break;                          /* not the next event */
        default: q->next = (w + 1) % q->n; q->tf[q->next].at_end = FALSE; break;
        }
      g_autoptr (GError) error = NULL;
      g_assert_false (ttv_context_seek_position (ctx, q, &error));
      g_assert_error (error, TTV_ENGINE_ERROR, TTV_ENGINE_ERROR_BAD_POSITION);
      g_test_message ("%s", error->message);
      g_clear_error (&error);
      g_assert_null (ttv_context_next (ctx, &error));
      g_assert_error (error, TTV_ENGINE_ERROR, TTV_ENGINE_ERROR_BAD_POSITION);
    }
  g_assert_true (ttv_context_seek_position (ctx, p, NULL));
  check_following (&s, ctx, 3, 5);
  g_assert_true (ttv_context_seek_position (ctx, g_ptr_array_index (positions, positions->len - 1), NULL));
  g_assert_null (ttv_context_next (ctx, NULL));
  set_clear (&s);
}

/* --- Processing --------------------------------------------------------- */

typedef struct {
  GArray *seen;                 /* of Ref-like: time, stream, block, index */
  guint stop_after;             /* return TRUE at this call (0: never) */
  guint calls;
} Recorder;

static gboolean
record_hook (gpointer hook_data, gpointer call_data)
{
  Recorder *rec = hook_data;
  const TtvHookCall *call = call_data;
  const TtvEvent *ev = call->event;
  Ref ref = { ev->time, call->stream, (guint) ev->pos.block, (guint) ev->pos.index, ev->type->id };
  g_assert_true (ev->tracefile == ttv_traceset_get_tracefile (ttv_context_get_traceset (call->context),
                                                              call->stream));
  g_assert_cmpuint (call->trace, ==, ttv_traceset_get_stream_trace (ttv_context_get_traceset (call->context),
                                                                   call->stream));
  g_array_append_val (rec->seen, ref);
  rec->calls++;
  return rec->stop_after != 0 && rec->calls == rec->stop_after;
}

static void
check_seen (const Set *s, const Recorder *rec, guint from)
{
  for (guint i = 0; i < rec->seen->len; i++)
    {
      const Ref *a = &g_array_index (rec->seen, Ref, i);
      g_assert_cmpuint (from + i, <, s->ref->len);
      g_assert_cmpint (ref_cmp (a, &g_array_index (s->ref, Ref, from + i)), ==, 0);
      g_assert_cmpuint (a->type, ==, g_array_index (s->ref, Ref, from + i).type);
    }
}

static void
test_middle (void)
{
  g_autoptr (GRand) r = g_rand_new_with_seed (13);
  for (guint32 seed = 400; seed < 412; seed++)
    {
      Set s = set_make (seed, 150);
      g_autoptr (TtvContext) ctx = ttv_context_new (s.ts, NULL);
      g_autoptr (GPtrArray) positions = save_all_positions (&s, ctx);
      g_autoptr (TtvHooks) hooks = ttv_hooks_new ();
      Recorder rec = { g_array_new (FALSE, FALSE, sizeof (Ref)), 0, 0 };
      ttv_hooks_add (hooks, record_hook, &rec, TTV_PRIO_DEFAULT);
      ttv_context_process_begin (ctx, NULL, NULL, NULL, hooks, NULL);
      guint n = s.ref->len;

      for (guint k = 0; k < 60; k++)
        {
          guint from = g_rand_int_range (r, 0, n + 1);
          g_autoptr (GError) error = NULL;
          g_assert_true (ttv_context_seek_position (ctx, g_ptr_array_index (positions, from), NULL));
          g_array_set_size (rec.seen, 0);
          rec.calls = 0;
          rec.stop_after = 0;
          guint expect;
          guint64 got;
          switch (k % 4)
            {
            case 0: /* end time, inclusive */
              {
                TtvTime t = n ? g_array_index (s.ref, Ref, g_rand_int_range (r, 0, n)).time : 0;
                t += g_rand_int_range (r, -1, 2);
                expect = from;
                while (expect < n && g_array_index (s.ref, Ref, expect).time <= t)
                  expect++;
                got = ttv_context_process_middle (ctx, t, TTV_CONTEXT_NO_LIMIT, NULL, &error);
                break;
              }
            case 1: /* count */
              {
                guint64 max = g_rand_int_range (r, 0, 40);
                expect = MIN (n, from + max);
                got = ttv_context_process_middle (ctx, TTV_TIME_MAX, max, NULL, &error);
                break;
              }
            case 2: /* end position, before or after the start */
              {
                guint to = g_rand_int_range (r, 0, n + 1);
                expect = MAX (from, to);
                got = ttv_context_process_middle (ctx, TTV_TIME_MAX, TTV_CONTEXT_NO_LIMIT,
                                                  g_ptr_array_index (positions, to), &error);
                break;
              }
            default: /* a hook stops */
              {
                rec.stop_after = g_rand_int_range (r, 1, 30);
                expect = MIN (n, from + rec.stop_after);
                got = ttv_context_process_middle (ctx, TTV_TIME_MAX, TTV_CONTEXT_NO_LIMIT, NULL, &error);
                break;
              }
            }
          g_assert_no_error (error);
          g_assert_cmpuint (got, ==, expect - from);
          g_assert_cmpuint (rec.seen->len, ==, expect - from);
          check_seen (&s, &rec, from);
          /* The context is at the resume point. */
          g_autoptr (TtvPosition) here = ttv_context_get_position (ctx, NULL);
          g_assert_true (ttv_position_equal (here, g_ptr_array_index (positions, expect)));
          /* Resuming delivers the rest. */
          g_array_set_size (rec.seen, 0);
          rec.stop_after = 0;
          got = ttv_context_process_middle (ctx, TTV_TIME_MAX, TTV_CONTEXT_NO_LIMIT, NULL, &error);
          g_assert_cmpuint (got, ==, n - expect);
          check_seen (&s, &rec, expect);
        }

      /* Chunks of random sizes concatenate to the whole. */
      g_assert_true (ttv_context_seek_begin (ctx, NULL));
      g_array_set_size (rec.seen, 0);
      guint64 total = 0, got;
      do
        {
          got = ttv_context_process_middle (ctx, TTV_TIME_MAX, g_rand_int_range (r, 1, 20), NULL, NULL);
          total += got;
        }
      while (got > 0);
      g_assert_cmpuint (total, ==, n);
      check_seen (&s, &rec, 0);

      /* After end, no hook is called. */
      ttv_context_process_end (ctx, NULL, NULL, NULL, hooks, NULL);
      g_assert_true (ttv_context_seek_begin (ctx, NULL));
      g_array_set_size (rec.seen, 0);
      g_assert_cmpuint (ttv_context_process_middle (ctx, TTV_TIME_MAX, TTV_CONTEXT_NO_LIMIT, NULL, NULL), ==, n);
      g_assert_cmpuint (rec.seen->len, ==, 0);
      g_array_unref (rec.seen);
      set_clear (&s);
    }
}

typedef struct {
  GPtrArray *positions;         /* saved before each event */
  guint i;
} PosCheck;

static gboolean
event_position_hook (gpointer hook_data, gpointer call_data)
{
  PosCheck *pc = hook_data;
  const TtvHookCall *call = call_data;
  g_autoptr (TtvPosition) p = ttv_context_get_event_position (call->context);
  g_assert_true (ttv_position_equal (p, g_ptr_array_index (pc->positions, pc->i)));
  /* Moving the context from a hook is refused. */
  g_test_expect_message (NULL, G_LOG_LEVEL_CRITICAL, "*in_hooks*");
  g_assert_null (ttv_context_next (call->context, NULL));
  g_test_assert_expected_messages ();
  pc->i++;
  return FALSE;
}

/* Inside a hook, the event's position is the one saved before it. */
static void
test_event_position (void)
{
  Set s = set_make (450, 100);
  g_autoptr (TtvContext) ctx = ttv_context_new (s.ts, NULL);
  g_assert_null (ttv_context_get_event_position (ctx));
  g_autoptr (GPtrArray) positions = save_all_positions (&s, ctx);
  PosCheck pc = { positions, 0 };
  g_autoptr (TtvHooks) hooks = ttv_hooks_new ();
  ttv_hooks_add (hooks, event_position_hook, &pc, TTV_PRIO_STATE);
  g_assert_true (ttv_context_seek_begin (ctx, NULL));
  ttv_context_process_begin (ctx, NULL, NULL, NULL, hooks, NULL);
  g_assert_cmpuint (ttv_context_process_middle (ctx, TTV_TIME_MAX, TTV_CONTEXT_NO_LIMIT, NULL, NULL),
                    ==, s.ref->len);
  g_assert_cmpuint (pc.i, ==, s.ref->len);
  ttv_context_process_end (ctx, NULL, NULL, NULL, hooks, NULL);
  /* After next(), the event position is the returned event's. */
  g_assert_true (ttv_context_seek_begin (ctx, NULL));
  for (guint i = 0; i < MIN (s.ref->len, 20); i++)
    {
      ttv_context_next (ctx, NULL);
      g_autoptr (TtvPosition) p = ttv_context_get_event_position (ctx);
      g_assert_true (ttv_position_equal (p, g_ptr_array_index (positions, i)));
    }
  set_clear (&s);
}

/* The peeked positions, updated in place and saying which tracefile moved,
 * against fresh snapshots: equal, with the same token through a writer
 * that goes by what they say moved (one next() between two peeks, the
 * report's case) and when more moved (several next(), seeks, peeks
 * before next()). */
static void
check_peeked (TtvPositionTokenWriter *w, const TtvPosition *peeked, const TtvPosition *snap)
{
  g_assert_true (ttv_position_equal (peeked, snap));
  g_assert_cmpint (ttv_position_get_time (peeked), ==, ttv_position_get_time (snap));
  g_assert_cmpuint (ttv_position_get_stream (peeked), ==, ttv_position_get_stream (snap));
  g_autoptr (GString) got = g_string_new (NULL);
  ttv_position_token_writer_append (w, peeked, got);
  g_autofree char *want = ttv_position_to_string (snap);
  g_assert_cmpstr (got->str, ==, want);
}

static void
test_peeked_in_place (void)
{
  g_autoptr (GRand) r = g_rand_new_with_seed (18);
  guint64 told = 0;
  for (guint32 seed = 600; seed < 612; seed++)
    {
      Set s = set_make (seed, 200);
      g_autoptr (TtvContext) ctx = ttv_context_new (s.ts, NULL);
      g_autoptr (GPtrArray) positions = save_all_positions (&s, ctx);
      g_autoptr (TtvPositionTokenWriter) w = ttv_position_token_writer_new ();
      g_assert_true (ttv_context_seek_begin (ctx, NULL));
      for (guint k = 0; k < 2000; k++)
        {
          guint action = g_rand_int_range (r, 0, 24);
          if (action == 0)
            {
              const TtvPosition *to = g_ptr_array_index (positions, g_rand_int_range (r, 0, positions->len));
              g_assert_true (ttv_context_seek_position (ctx, to, NULL));
            }
          else if (action == 1)
            {
              g_autoptr (TtvPosition) snap = ttv_context_get_position (ctx, NULL);
              check_peeked (w, ttv_context_peek_position (ctx, NULL), snap);
              continue;
            }
          else if (action == 3)
            {
              const Ref *at = &g_array_index (s.ref, Ref, g_rand_int_range (r, 0, s.ref->len));
              g_assert_true (ttv_context_seek_time (ctx, at->time, NULL));
            }
          else if (action == 4)
            ttv_context_process_middle (ctx, TTV_TIME_MAX, g_rand_int_range (r, 1, 6), NULL, NULL);
          else if (action == 5)
            ttv_context_peek (ctx, NULL);
          /* Several next() between two peeks: over replays of the merge
           * (another stream's event) too. */
          guint n_next = action == 2 ? g_rand_int_range (r, 2, 5) : 1;
          const TtvEvent *ev = NULL;
          for (guint i = 0; i < n_next; i++)
            ev = ttv_context_next (ctx, NULL);
          if (ev == NULL)
            {
              g_assert_true (ttv_context_seek_begin (ctx, NULL));
              continue;
            }
          g_autoptr (TtvPosition) snap = ttv_context_get_event_position (ctx);
          const TtvPosition *peeked = ttv_context_peek_event_position (ctx);
          told += peeked->bytes != NULL;
          check_peeked (w, peeked, snap);
        }
      set_clear (&s);
    }
  /* The peeked positions brought their bytes: the writer took them. */
  g_assert_cmpuint (told, >, 10000);
}

typedef struct {
  GString *log;
  const char *tag;
  gboolean result;
} Tag;

static gboolean
tag_hook (gpointer hook_data, gpointer call_data)
{
  Tag *t = hook_data;
  g_string_append_printf (t->log, "%s ", t->tag);
  return t->result;
}

static void
test_hook_priority (void)
{
  g_autoptr (GString) log = g_string_new (NULL);
  Tag a = { log, "a", FALSE }, b = { log, "b", FALSE }, c = { log, "c", TRUE }, d = { log, "d", FALSE },
      e = { log, "e", FALSE };
  g_autoptr (TtvHooks) h = ttv_hooks_new ();
  ttv_hooks_add (h, tag_hook, &a, TTV_PRIO_DEFAULT);
  ttv_hooks_add (h, tag_hook, &b, TTV_PRIO_STATE);
  ttv_hooks_add (h, tag_hook, &c, TTV_PRIO_LAST);
  ttv_hooks_add (h, tag_hook, &d, TTV_PRIO_DEFAULT);
  ttv_hooks_add (h, tag_hook, &e, TTV_PRIO_FIRST);
  g_assert_cmpuint (ttv_hooks_get_n_hooks (h), ==, 5);
  /* All are called even after one returned TRUE; the result is their OR. */
  g_assert_true (ttv_hooks_call (h, NULL));
  g_assert_cmpstr (log->str, ==, "e b a d c ");
  guint prio;
  gpointer data;
  g_assert_true (ttv_hooks_get (h, 1, &data, &prio) == tag_hook);
  g_assert_true (data == &b);
  g_assert_cmpuint (prio, ==, TTV_PRIO_STATE);

  g_autoptr (TtvHooks) h2 = ttv_hooks_new ();
  Tag x = { log, "x", FALSE }, y = { log, "y", FALSE };
  ttv_hooks_add (h2, tag_hook, &x, TTV_PRIO_DEFAULT);
  ttv_hooks_add (h2, tag_hook, &y, 10);
  g_string_truncate (log, 0);
  g_assert_true (ttv_hooks_call_merge (h, NULL, h2, NULL));
  g_assert_cmpstr (log->str, ==, "e y b a d x c ");

  g_assert_cmpuint (ttv_hooks_remove (h, tag_hook, &c), ==, 1);
  g_string_truncate (log, 0);
  g_assert_false (ttv_hooks_call (h, NULL));
  g_assert_cmpstr (log->str, ==, "e b a d ");
  g_assert_false (ttv_hooks_call (NULL, NULL));
}

/* Calls @hooks, whose hooks log to @log: it answers @result and logs
 * @logged. */
static void
assert_call (TtvHooks *hooks, GString *log, gboolean result, const char *logged)
{
  g_string_truncate (log, 0);
  g_assert_cmpint (ttv_hooks_call (hooks, NULL), ==, result);
  g_assert_cmpstr (log->str, ==, logged);
}

/* A list of one hook is called without the loop (ttv_hooks_run): it must
 * answer as the loop does over the same hooks, TRUE and FALSE, and call its
 * hook once with its data, whatever the list held before. */
static void
test_hook_single (void)
{
  g_autoptr (GString) log = g_string_new (NULL);
  for (int result = 0; result < 2; result++)
    {
      Tag only = { log, "o", result }, other = { log, "p", FALSE };
      g_autoptr (TtvHooks) one = ttv_hooks_new ();
      ttv_hooks_add (one, tag_hook, &only, TTV_PRIO_STATE);
      g_autoptr (TtvHooks) two = ttv_hooks_new ();
      ttv_hooks_add (two, tag_hook, &only, TTV_PRIO_STATE);
      ttv_hooks_add (two, tag_hook, &other, TTV_PRIO_LAST);
      assert_call (one, log, result, "o ");
      assert_call (two, log, result, "o p ");
      /* The list's one hook follows its changes: the other one left when
       * the first goes, none, then another. */
      g_assert_cmpuint (ttv_hooks_remove (two, tag_hook, &only), ==, 1);
      assert_call (two, log, FALSE, "p ");
      g_assert_cmpuint (ttv_hooks_remove (two, tag_hook, &other), ==, 1);
      assert_call (two, log, FALSE, "");
      ttv_hooks_add (two, tag_hook, &only, TTV_PRIO_STATE);
      assert_call (two, log, result, "o ");
      /* A second hook ahead of it: both, in order. */
      ttv_hooks_add (two, tag_hook, &other, TTV_PRIO_FIRST);
      assert_call (two, log, result, "p o ");
      /* A list of one whose hook goes: nothing is called. */
      g_assert_cmpuint (ttv_hooks_remove (one, tag_hook, &only), ==, 1);
      assert_call (one, log, FALSE, "");
    }
}

typedef struct {
  GString *log;
  const char *tag;
  guint trace;
  guint type;
  guint calls;
} Only;

static gboolean
only_hook (gpointer hook_data, gpointer call_data)
{
  Only *o = hook_data;
  const TtvHookCall *call = call_data;
  if (call->event)
    {
      if (o->trace != G_MAXUINT)
        g_assert_cmpuint (call->trace, ==, o->trace);
      if (o->type != G_MAXUINT)
        g_assert_cmpuint (call->event->type->id, ==, o->type);
    }
  if (o->log)
    g_string_append_printf (o->log, "%s%u.%u ", o->tag, call->trace == G_MAXUINT ? 9 : call->trace,
                            call->stream == G_MAXUINT ? 9 : call->stream);
  o->calls++;
  return FALSE;
}

static void
test_hook_by_id (void)
{
  /* A traceset of several traces whose trace 1 has types 0 and 1. */
  Set s;
  for (guint32 seed = 500;; seed++)
    {
      s = set_make (seed, 200);
      if (ttv_traceset_get_n_traces (s.ts) >= 2
          && ttv_traceset_get_trace (s.ts, 1)->event_types->len >= 2)
        break;
      set_clear (&s);
    }
  g_autoptr (TtvContext) ctx = ttv_context_new (s.ts, NULL);
  g_autoptr (TtvHooksById) by_id = ttv_hooks_by_id_new ();
  /* "ev0" by plain name (every trace), "mem.ev1" by full name, and trace 1's
   * type 0 by id. */
  Only by_name = { NULL, "", G_MAXUINT, 0, 0 }, by_full = { NULL, "", G_MAXUINT, 1, 0 },
       by_tid = { NULL, "", 1, 0, 0 }, all = { NULL, "", G_MAXUINT, G_MAXUINT, 0 };
  ttv_hooks_add (ttv_hooks_by_id_find (by_id, "ev0"), only_hook, &by_name, TTV_PRIO_DEFAULT);
  ttv_hooks_add (ttv_hooks_by_id_find (by_id, "mem.ev1"), only_hook, &by_full, TTV_PRIO_DEFAULT);
  ttv_hooks_add (ttv_hooks_by_id_find_id (by_id, 1, 0), only_hook, &by_tid, TTV_PRIO_DEFAULT);
  g_assert_cmpuint (ttv_hooks_by_id_get_n_names (by_id), ==, 2);
  g_assert_cmpstr (ttv_hooks_by_id_get_name (by_id, 1), ==, "mem.ev1");
  g_assert_null (ttv_hooks_by_id_get (by_id, "nothing"));
  g_autoptr (TtvHooks) event = ttv_hooks_new ();
  ttv_hooks_add (event, only_hook, &all, TTV_PRIO_DEFAULT);

  /* Begin hooks: traceset, traces, tracefiles in order; end in reverse nesting. */
  g_autoptr (GString) log = g_string_new (NULL);
  Only bts = { log, "S", G_MAXUINT, G_MAXUINT, 0 }, bt = { log, "T", G_MAXUINT, G_MAXUINT, 0 },
       btf = { log, "F", G_MAXUINT, G_MAXUINT, 0 };
  g_autoptr (TtvHooks) h_ts = ttv_hooks_new ();
  g_autoptr (TtvHooks) h_t = ttv_hooks_new ();
  g_autoptr (TtvHooks) h_tf = ttv_hooks_new ();
  ttv_hooks_add (h_ts, only_hook, &bts, TTV_PRIO_DEFAULT);
  ttv_hooks_add (h_t, only_hook, &bt, TTV_PRIO_DEFAULT);
  ttv_hooks_add (h_tf, only_hook, &btf, TTV_PRIO_DEFAULT);
  ttv_context_process_begin (ctx, h_ts, h_t, h_tf, event, by_id);
  g_autoptr (GString) want = g_string_new ("S9.9 ");
  g_autoptr (GString) want_end = g_string_new (NULL);
  for (guint t = 0; t < ttv_traceset_get_n_traces (s.ts); t++)
    {
      g_string_append_printf (want, "T%u.9 ", t);
      guint first = ttv_traceset_get_trace_first_stream (s.ts, t);
      for (guint i = 0; i < ttv_traceset_get_trace (s.ts, t)->tracefiles->len; i++)
        {
          g_string_append_printf (want, "F%u.%u ", t, first + i);
          g_string_append_printf (want_end, "F%u.%u ", t, first + i);
        }
      g_string_append_printf (want_end, "T%u.9 ", t);
    }
  g_string_append (want_end, "S9.9 ");
  g_assert_cmpstr (log->str, ==, want->str);

  guint64 n = ttv_context_process_middle (ctx, TTV_TIME_MAX, TTV_CONTEXT_NO_LIMIT, NULL, NULL);
  g_assert_cmpuint (n, ==, s.ref->len);
  guint n_ev0 = 0, n_ev1 = 0, n_t1_0 = 0;
  for (guint i = 0; i < s.ref->len; i++)
    {
      const Ref *ref = &g_array_index (s.ref, Ref, i);
      n_ev0 += ref->type == 0;
      n_ev1 += ref->type == 1;
      n_t1_0 += ref->type == 0 && ttv_traceset_get_stream_trace (s.ts, ref->stream) == 1;
    }
  g_assert_cmpuint (all.calls, ==, s.ref->len);
  g_assert_cmpuint (by_name.calls, ==, n_ev0);
  g_assert_cmpuint (by_full.calls, ==, n_ev1);
  g_assert_cmpuint (by_tid.calls, ==, n_t1_0);
  g_assert_cmpuint (n_ev0, >, 0);

  g_string_truncate (log, 0);
  ttv_context_process_end (ctx, h_ts, h_t, h_tf, event, by_id);
  g_assert_cmpstr (log->str, ==, want_end->str);
  set_clear (&s);
}

/* Priorities across the general list and the by-id lists, and two begins. */
static void
test_hook_merge_order (void)
{
  Set s = set_make (501, 20);
  g_autoptr (TtvContext) ctx = ttv_context_new (s.ts, NULL);
  g_autoptr (GString) log = g_string_new (NULL);
  Tag state = { log, "state", FALSE }, view = { log, "view", FALSE }, late = { log, "late", FALSE },
      other = { log, "other", FALSE }, first = { log, "first", FALSE };
  g_autoptr (TtvHooks) ev1 = ttv_hooks_new ();
  g_autoptr (TtvHooksById) id1 = ttv_hooks_by_id_new ();
  ttv_hooks_add (ev1, tag_hook, &view, TTV_PRIO_DEFAULT);
  ttv_hooks_add (ttv_hooks_by_id_find (id1, "ev0"), tag_hook, &state, TTV_PRIO_STATE);
  ttv_hooks_add (ttv_hooks_by_id_find (id1, "ev0"), tag_hook, &late, TTV_PRIO_LAST);
  g_autoptr (TtvHooks) ev2 = ttv_hooks_new ();
  ttv_hooks_add (ev2, tag_hook, &other, TTV_PRIO_DEFAULT);
  ttv_hooks_add (ev2, tag_hook, &first, TTV_PRIO_FIRST);
  ttv_context_process_begin (ctx, NULL, NULL, NULL, ev1, id1);
  ttv_context_process_begin (ctx, NULL, NULL, NULL, ev2, NULL);
  guint i = 0;
  while (i < s.ref->len)
    {
      g_string_truncate (log, 0);
      g_assert_cmpuint (ttv_context_process_middle (ctx, TTV_TIME_MAX, 1, NULL, NULL), ==, 1);
      const Ref *ref = &g_array_index (s.ref, Ref, i++);
      g_assert_cmpstr (log->str, ==, ref->type == 0 ? "first state view other late " : "first view other ");
    }
  /* Ending the first begin leaves the second's hooks. */
  ttv_context_process_end (ctx, NULL, NULL, NULL, ev1, id1);
  g_assert_true (ttv_context_seek_begin (ctx, NULL));
  g_string_truncate (log, 0);
  g_assert_cmpuint (ttv_context_process_middle (ctx, TTV_TIME_MAX, 1, NULL, NULL), ==, 1);
  g_assert_cmpstr (log->str, ==, "first other ");
  ttv_context_process_end (ctx, NULL, NULL, NULL, ev2, NULL);
  set_clear (&s);
}

static void
test_corrupt (void)
{
  Set s = set_make (600, 100);
  /* The stream with the most events fails at its 10th. */
  guint worst = 0;
  guint64 most = 0;
  for (guint i = 0; i < ttv_traceset_get_n_tracefiles (s.ts); i++)
    {
      TtvTracefile *tf = ttv_traceset_get_tracefile (s.ts, i);
      if (tf->size > most)
        {
          most = tf->size;
          worst = i;
        }
    }
  TtvTracefile *bad = ttv_traceset_get_tracefile (s.ts, worst);
  mem_tracefile_set_corrupt (bad, 10);
  guint fail_at = 0, prev_at = 0;      /* delivery index of the corrupt event, of the one before it */
  guint seen = 0;
  while (1)
    {
      const Ref *ref = &g_array_index (s.ref, Ref, fail_at);
      if (ref->stream == worst && seen == 9)
        prev_at = fail_at;
      if (ref->stream == worst && seen++ == 10)
        break;
      fail_at++;
    }
  g_autoptr (TtvContext) ctx = ttv_context_new (s.ts, NULL);
  g_autoptr (GError) error = NULL;
  guint i = 0;
  const TtvEvent *ev;
  while ((ev = ttv_context_next (ctx, &error)) != NULL)
    check_event (&s, ev, i++);
  /* Reading stops right after the event before the corrupt one in its
   * tracefile: the merge cannot know what comes next without it. */
  g_assert_error (error, TTV_ENGINE_ERROR, TTV_ENGINE_ERROR_READ);
  g_assert_cmpuint (i, ==, prev_at + 1);
  g_assert_nonnull (strstr (error->message, "trace"));
  g_assert_nonnull (strstr (error->message, bad->name));
  g_assert_nonnull (strstr (error->message, "block"));
  g_test_message ("%s", error->message);
  g_clear_error (&error);
  /* The error stays until a seek. */
  g_assert_null (ttv_context_next (ctx, &error));
  g_assert_error (error, TTV_ENGINE_ERROR, TTV_ENGINE_ERROR_READ);
  g_clear_error (&error);
  g_assert_null (ttv_context_get_position (ctx, &error));
  g_assert_error (error, TTV_ENGINE_ERROR, TTV_ENGINE_ERROR_READ);
  g_clear_error (&error);
  /* Seeking before it works again; middle reports the error too. */
  g_assert_true (ttv_context_seek_begin (ctx, &error));
  g_assert_no_error (error);
  guint64 n = ttv_context_process_middle (ctx, TTV_TIME_MAX, TTV_CONTEXT_NO_LIMIT, NULL, &error);
  g_assert_error (error, TTV_ENGINE_ERROR, TTV_ENGINE_ERROR_READ);
  g_assert_cmpuint (n, ==, i);
  g_clear_error (&error);
  /* Seeking at the corrupt event's time fails, at once or when reading. */
  const Ref *cref = &g_array_index (s.ref, Ref, fail_at);
  if (ttv_context_seek_time (ctx, cref->time, &error))
    while (ttv_context_next (ctx, &error) != NULL)
      ;
  g_assert_error (error, TTV_ENGINE_ERROR, TTV_ENGINE_ERROR_READ);
  g_clear_error (&error);
  set_clear (&s);
}

static void
test_empty (void)
{
  g_autoptr (TtvTraceset) ts = ttv_traceset_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvContext) ctx = ttv_context_new (ts, &error);
  g_assert_no_error (error);
  g_assert_null (ttv_context_next (ctx, &error));
  g_assert_no_error (error);
  g_assert_true (ttv_context_seek_time (ctx, 5, &error));
  g_autoptr (TtvPosition) p = ttv_context_get_position (ctx, &error);
  g_assert_true (ttv_position_is_end (p));
  g_autofree char *token = ttv_position_to_string (p);
  g_autoptr (TtvPosition) back = ttv_position_parse (token, ts, &error);
  g_assert_no_error (error);
  g_assert_true (ttv_context_seek_position (ctx, back, &error));
  g_assert_cmpuint (ttv_context_process_middle (ctx, TTV_TIME_MAX, TTV_CONTEXT_NO_LIMIT, NULL, &error), ==, 0);
  g_assert_no_error (error);

  /* A trace whose tracefiles are all empty. */
  TtvTrace *t = mem_trace_new ("empty", 1);
  mem_trace_add_tracefile (t, "cpu0", NULL, NULL, 0, 4);
  mem_trace_add_tracefile (t, "cpu1", NULL, NULL, 0, 4);
  mem_trace_finish (t);
  g_autoptr (TtvTraceset) ts2 = ttv_traceset_new ();
  ttv_traceset_add_trace (ts2, t);
  g_assert_cmpuint (ttv_traceset_get_n_tracefiles (ts2), ==, 2);
  g_autoptr (TtvContext) ctx2 = ttv_context_new (ts2, &error);
  g_assert_null (ttv_context_peek (ctx2, &error));
  g_assert_no_error (error);
  g_assert_true (ttv_context_seek_time (ctx2, 0, &error));
  g_assert_null (ttv_context_next (ctx2, &error));
  g_assert_no_error (error);
}

static void
test_bench_smoke (void)
{
  /* The benchmark runs (tiny sizes) and prints JSON lines. */
  g_autoptr (GString) out = g_string_new (NULL);
  ttv_engine_bench_run (out, 20000, 50);
  g_assert_nonnull (strstr (out->str, "\"events_per_s\""));
  g_test_message ("%s", out->str);
}

int
main (int argc, char **argv)
{
  if (argc > 1 && strcmp (argv[1], "--bench") == 0)
    {
      guint events = argc > 2 ? (guint) g_ascii_strtoull (argv[2], NULL, 10) : 4000000;
      g_autoptr (GString) out = g_string_new (NULL);
      guint seeks = argc > 3 ? (guint) g_ascii_strtoull (argv[3], NULL, 10) : 20000;
      ttv_engine_bench_run (out, events ? events : 4000000, seeks);
      fputs (out->str, stdout);
      return 0;
    }
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/engine/merge/order", test_order);
  g_test_add_func ("/engine/merge/order-corrected", test_order_corrected);
  g_test_add_func ("/engine/merge/modes", test_merge_modes);
  g_test_add_func ("/engine/merge/time-max", test_merge_time_max);
  g_test_add_func ("/engine/merge/stays", test_merge_stays);
  g_test_add_func ("/engine/merge/equal-times", test_merge_equal_times);
  g_test_add_func ("/engine/seek/time", test_seek_time);
  g_test_add_func ("/engine/seek/position", test_seek_position);
  g_test_add_func ("/engine/position/bad-token", test_bad_token);
  g_test_add_func ("/engine/position/mismatch", test_position_mismatch);
  g_test_add_func ("/engine/process/middle", test_middle);
  g_test_add_func ("/engine/process/event-position", test_event_position);
  g_test_add_func ("/engine/position/peeked-in-place", test_peeked_in_place);
  g_test_add_func ("/engine/hooks/priority", test_hook_priority);
  g_test_add_func ("/engine/hooks/single", test_hook_single);
  g_test_add_func ("/engine/hooks/by-id", test_hook_by_id);
  g_test_add_func ("/engine/hooks/merge-order", test_hook_merge_order);
  g_test_add_func ("/engine/error/corrupt", test_corrupt);
  g_test_add_func ("/engine/empty", test_empty);
  g_test_add_func ("/engine/bench/smoke", test_bench_smoke);
  return g_test_run ();
}
