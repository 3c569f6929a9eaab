/* test-history.c: the state history against the engine's state_at (golden
 * checks at random times), per-pixel summaries against brute force, O(W)
 * queries at any zoom, and the cache file (reuse, invalidation, damage). */
#include "ttv-history-test-util.h"
#include "ttv-context.h"
#include "ttv-kernel-model.h"
#include "ttv-state-tracker.h"

#include <glib/gstdio.h>
#include <string.h>
#include <utime.h>

/* Sparse CPU numbers, one above 255 (as a large machine has): its number
 * goes through the records' coding in more than a byte. */
#define N_CPUS 4
static const guint cpu_ids[N_CPUS] = { 0, 1, 3, 300 };

typedef TtvHistoryFixture Fixture;

/* Forty processes on four CPUs, @data events. */
static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  TtvSimOptions so;
  ttv_sim_options_init (&so);
  so.seed = 5;
  so.cpu_ids = cpu_ids;
  so.n_cpus = N_CPUS;
  so.n_processes = 40;
  so.max_events = GPOINTER_TO_SIZE (data);
  ttv_history_fixture_set_up (f, &so);
}

/* In memory only, or spilled to the user's cache directory. */
static TtvHistory *
build (TtvTraceset *ts, gsize max_memory, gboolean no_cache)
{
  return ttv_history_test_build (ts, max_memory, no_cache, NULL);
}

/* ---- golden checks against state_at ---- */

static guint
count_rows_at (TtvHistory *h, TtvTime t)
{
  guint n = 0;
  TtvHistoryInterval iv;
  for (guint i = 0; i < ttv_history_get_n_rows (h, TTV_HISTORY_ROW_PROCESS); i++)
    if (ttv_history_get_row (h, TTV_HISTORY_ROW_PROCESS, i)->id != 0
        && ttv_history_get_interval_at (h, TTV_HISTORY_ROW_PROCESS, i, t, &iv))
      n++;
  return n;
}

static void
check_state (TtvHistory *h, const TtvState *s, TtvTime t)
{
  TtvHistoryInterval iv;
  g_autoptr (GPtrArray) procs = ttv_state_list_processes (s);
  guint n_live = 0;
  for (guint i = 0; i < procs->len; i++)
    {
      const TtvProcessState *p = g_ptr_array_index (procs, i);
      if (p->pid == 0 && ttv_history_find_row (h, TTV_HISTORY_ROW_CPU, 0, (guint32) p->cpu, -1, t) < 0)
        continue;   /* a CPU without events yet */
      n_live += p->pid != 0;
      gint row = ttv_history_find_row (h, TTV_HISTORY_ROW_PROCESS, 0, p->pid, p->cpu, t);
      if (row < 0)
        {
          for (guint j = 0; j < ttv_history_get_n_rows (h, TTV_HISTORY_ROW_PROCESS); j++)
            {
              const TtvHistoryRowInfo *r = ttv_history_get_row (h, TTV_HISTORY_ROW_PROCESS, j);
              if (r->id == p->pid)
                g_printerr ("row %u: cpu %d birth %" G_GINT64_FORMAT " end %" G_GINT64_FORMAT " dead %d n %" G_GUINT64_FORMAT "\n",
                            j, r->cpu, r->birth, r->end, r->dead, r->n_intervals);
            }
          g_error ("t=%" G_GINT64_FORMAT ": no history row for pid %u cpu %d (status %s)", t, p->pid, p->cpu,
                   ttv_process_status_name (p->status));
        }
      g_assert_true (ttv_history_get_interval_at (h, TTV_HISTORY_ROW_PROCESS, (guint) row, t, &iv));
      g_assert_cmpint (iv.start, <=, t);
      g_assert_cmpint (t, <, iv.end);
      if (ttv_history_state_low (iv.state) != p->status)
        g_error ("t=%" G_GINT64_FORMAT " pid %u: history %s, state %s", t, p->pid,
                 ttv_process_status_name (ttv_history_state_low (iv.state)),
                 ttv_process_status_name (p->status));
      if (p->status == TTV_PROCESS_RUN)
        {
          TtvExecMode mode = ttv_process_state_get_mode (p);
          if (ttv_history_state_mode (iv.state) != mode)
            g_error ("t=%" G_GINT64_FORMAT " pid %u: history mode %s, state %s", t, p->pid,
                     ttv_exec_mode_name (ttv_history_state_mode (iv.state)), ttv_exec_mode_name (mode));
          if (mode == TTV_MODE_SYSCALL)
            g_assert_cmpstr (g_quark_to_string (iv.aux), ==, ttv_process_state_get_syscall (p));
          else
            g_assert_cmpuint (iv.aux, ==, p->frames[p->depth - 1].id);
        }
      g_assert_cmpint (iv.cpu, ==, p->cpu);
      /* Its name then, as the exec and fork marks tell it (the idle tasks
       * and tasks the trace never named excepted). */
      if (p->pid != 0 && p->name)
        g_assert_cmpstr (ttv_history_get_process_name_at (h, (guint) row, t), ==, g_quark_to_string (p->name));
    }
  /* No row claims a task the state does not have. */
  g_assert_cmpuint (count_rows_at (h, t), ==, n_live);

  g_autoptr (GPtrArray) cpus = ttv_state_list_cpus (s);
  for (guint i = 0; i < cpus->len; i++)
    {
      const TtvCpuState *c = g_ptr_array_index (cpus, i);
      gint row = ttv_history_find_row (h, TTV_HISTORY_ROW_CPU, 0, (guint32) c->cpu, -1, t);
      if (row < 0)
        continue;
      g_assert_true (ttv_history_get_interval_at (h, TTV_HISTORY_ROW_CPU, (guint) row, t, &iv));
      g_assert_cmpuint (iv.aux, ==, c->running_pid);
      g_assert_cmpint (ttv_history_state_mode (iv.state), ==, ttv_state_get_cpu_mode (s, c->cpu));
      g_assert_cmpuint (ttv_history_state_low (iv.state), ==,
                        c->running_pid == TTV_PID_NONE ? TTV_HISTORY_CPU_UNKNOWN
                        : c->running_pid == 0 ? TTV_HISTORY_CPU_IDLE : TTV_HISTORY_CPU_BUSY);
    }
  for (int soft = 0; soft < 2; soft++)
    {
      TtvHistoryRowKind kind = soft ? TTV_HISTORY_ROW_SOFTIRQ : TTV_HISTORY_ROW_IRQ;
      g_autoptr (GPtrArray) irqs = ttv_state_list_irqs (s, soft);
      for (guint i = 0; i < irqs->len; i++)
        {
          const TtvIrqState *q = g_ptr_array_index (irqs, i);
          gint row = ttv_history_find_row (h, kind, 0, q->id, -1, t);
          if (row < 0)
            {
              g_assert_cmpuint (q->active, ==, 0);
              continue;
            }
          g_assert_true (ttv_history_get_interval_at (h, kind, (guint) row, t, &iv));
          g_assert_cmpuint (iv.aux, ==, q->active);
          g_assert_cmpuint (iv.state, ==, q->active > 0);
        }
    }
  g_autoptr (GPtrArray) devs = ttv_state_list_block_devices (s);
  for (guint i = 0; i < devs->len; i++)
    {
      const TtvBlockDevState *d = g_ptr_array_index (devs, i);
      gint row = ttv_history_find_row (h, TTV_HISTORY_ROW_BLOCKDEV, 0, d->dev, -1, t);
      if (row < 0)
        {
          g_assert_cmpuint (d->pending, ==, 0);
          continue;
        }
      g_assert_true (ttv_history_get_interval_at (h, TTV_HISTORY_ROW_BLOCKDEV, (guint) row, t, &iv));
      g_assert_cmpuint (iv.aux, ==, d->pending);
    }
}

static void
check_golden (TtvTraceset *ts, TtvHistory *h, guint n_times)
{
  g_autoptr (GError) error = NULL;
  TtvCheckpointPolicy policy = { 2000, 0 };
  g_autoptr (TtvStateTracker) tr = ttv_state_tracker_new (ts, &policy);
  g_assert_true (ttv_state_tracker_build (tr, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (ttv_history_get_n_events (h), ==,
                    ttv_state_get_n_events (ttv_state_tracker_get_state (tr)));

  g_autoptr (GArray) times = ttv_test_event_times (ts);
  g_assert_cmpuint (times->len, >, 10);

  g_autoptr (GRand) rand = g_rand_new_with_seed (17);
  for (guint i = 0; i < n_times; i++)
    {
      guint k = (guint) g_rand_int_range (rand, 0, (gint32) times->len - 1);
      TtvTime t = g_array_index (times, TtvTime, k);
      if (i % 2)
        {
          /* Between two events. */
          TtvTime next = g_array_index (times, TtvTime, k + 1);
          if (next > t + 1)
            t += 1 + g_rand_int_range (rand, 0, (gint32) MIN (next - t - 1, G_MAXINT32 - 1));
        }
      g_autoptr (TtvState) s = ttv_state_tracker_dup_state_at (tr, t, &error);
      g_assert_no_error (error);
      check_state (h, s, t);
    }
  /* And after the last event. */
  g_autoptr (TtvState) s = ttv_state_tracker_dup_state_at (tr, g_array_index (times, TtvTime, times->len - 1), &error);
  check_state (h, s, g_array_index (times, TtvTime, times->len - 1));
}

static void
test_golden_sim (Fixture *f, gconstpointer data)
{
  g_autoptr (TtvHistory) h = build (f->ts, 0, TRUE);
  g_assert_cmpuint (ttv_history_get_n_rows (h, TTV_HISTORY_ROW_CPU), ==, N_CPUS);
  g_assert_cmpuint (ttv_history_get_n_rows (h, TTV_HISTORY_ROW_PROCESS), >, 40);
  g_assert_cmpuint (ttv_history_get_n_rows (h, TTV_HISTORY_ROW_IRQ), >, 0);
  g_assert_false (ttv_history_is_from_cache (h));
  g_assert_null (ttv_history_get_cache_path (h));
  g_assert_cmpuint (ttv_history_get_memory (h), >, 0);
  check_golden (f->ts, h, 300);
}

/* Rows, names, marks: consistent with each other. */
static void
test_rows_and_marks (Fixture *f, gconstpointer data)
{
  g_autoptr (TtvHistory) h = build (f->ts, 0, TRUE);
  guint n_fork = 0, n_wakeup = 0, n_exec = 0, n_exit = 0, n_named = 0, n_thread_forks = 0;
  guint n = ttv_history_get_n_rows (h, TTV_HISTORY_ROW_PROCESS);
  const TtvHistoryRowInfo *prev = NULL;
  for (guint i = 0; i < n; i++)
    {
      const TtvHistoryRowInfo *r = ttv_history_get_row (h, TTV_HISTORY_ROW_PROCESS, i);
      g_assert_cmpint (r->kind, ==, TTV_HISTORY_ROW_PROCESS);
      if (prev)
        g_assert_cmpuint (prev->id, <=, r->id);
      prev = r;
      n_named += r->name != NULL;
      g_assert_cmpint (r->birth, <=, r->end);
      g_autoptr (GArray) marks = ttv_history_query_marks (h, i, TTV_TIME_MIN, TTV_TIME_MAX);
      g_assert_cmpuint (marks->len, ==, r->n_marks);
      for (guint k = 0; k < marks->len; k++)
        {
          const TtvHistoryMark *m = &g_array_index (marks, TtvHistoryMark, k);
          g_assert_cmpint (m->time, >=, r->birth);
          g_assert_cmpint (m->time, <=, r->end);
          if (k)
            g_assert_cmpint (m->time, >=, g_array_index (marks, TtvHistoryMark, k - 1).time);
          switch (m->kind)
            {
            case TTV_HISTORY_MARK_FORK:
              n_fork++;
              g_assert_cmpint (m->time, ==, r->birth);
              if (r->tgid == r->id)
                g_assert_cmpuint (m->other, ==, r->ppid);
              else
                {
                  /* A thread: made by a thread of its process, whose
                   * parent it shares. */
                  gint creator = ttv_history_find_row (h, TTV_HISTORY_ROW_PROCESS, 0, m->other, -1, m->time);
                  g_assert_cmpint (creator, >=, 0);
                  const TtvHistoryRowInfo *c = ttv_history_get_row (h, TTV_HISTORY_ROW_PROCESS, (guint) creator);
                  g_assert_cmpuint (c->tgid, ==, r->tgid);
                  g_assert_cmpuint (c->ppid, ==, r->ppid);
                  n_thread_forks++;
                }
              break;
            case TTV_HISTORY_MARK_EXEC:
              n_exec++;
              g_assert_nonnull (m->name);
              break;
            case TTV_HISTORY_MARK_EXIT:
              n_exit++;
              break;
            case TTV_HISTORY_MARK_WAKEUP:
              n_wakeup++;
              break;
            }
        }
      /* Intervals tile the row's life. */
      g_autoptr (GArray) ivs = ttv_history_query_intervals (h, TTV_HISTORY_ROW_PROCESS, i, TTV_TIME_MIN, TTV_TIME_MAX);
      for (guint k = 1; k < ivs->len; k++)
        {
          const TtvHistoryInterval *a = &g_array_index (ivs, TtvHistoryInterval, k - 1);
          const TtvHistoryInterval *b = &g_array_index (ivs, TtvHistoryInterval, k);
          g_assert_cmpint (a->end, ==, b->start);
          g_assert_cmpint (a->start, <, a->end);
        }
      if (ivs->len)
        g_assert_cmpint (g_array_index (ivs, TtvHistoryInterval, ivs->len - 1).end, ==, r->end);
    }
  g_assert_cmpuint (n_named, >, n / 2);
  g_assert_cmpuint (n_wakeup, >, 10);
  g_test_message ("marks: %u forks (%u of threads), %u execs, %u exits, %u wakeups", n_fork, n_thread_forks,
                  n_exec, n_exit, n_wakeup);
  /* CPU rows: running time adds up to the rows' cpu_time. */
  TtvTime cpu_time = 0;
  for (guint i = 0; i < n; i++)
    cpu_time += ttv_history_get_row (h, TTV_HISTORY_ROW_PROCESS, i)->cpu_time;
  g_assert_cmpint (cpu_time, >, 0);
  /* Out-of-range queries are empty, not crashes. */
  g_autoptr (GArray) none = ttv_history_query_intervals (h, TTV_HISTORY_ROW_CPU, 999, 0, TTV_TIME_MAX);
  g_assert_cmpuint (none->len, ==, 0);
  g_assert_null (ttv_history_get_row (h, TTV_HISTORY_ROW_N_KINDS, 0));
  g_assert_cmpint (ttv_history_find_row (h, TTV_HISTORY_ROW_PROCESS, 0, 987654, -1, 0), ==, -1);
}

/* ---- pixels ---- */

typedef struct {
  guint16 key;
  double w;
} KW;

/* Brute force: for each pixel, the key covering the most time (ties: the
 * smaller key), and the events of intervals starting in it. */
static void
brute_pixels (GArray *ivs, TtvTime t0, TtvTime t1, guint width, TtvHistoryPixel *out, double *share)
{
  guint64 span = (guint64) (t1 - t0);
  for (guint p = 0; p < width; p++)
    {
      TtvTime a = t0 + (TtvTime) ((span / width) * p + (span % width) * p / width);
      TtvTime b = t0 + (TtvTime) ((span / width) * (p + 1) + (span % width) * (p + 1) / width);
      KW kw[32];
      guint n = 0;
      out[p].n_events = 0;
      for (guint i = 0; i < ivs->len; i++)
        {
          const TtvHistoryInterval *iv = &g_array_index (ivs, TtvHistoryInterval, i);
          if (iv->start >= a && iv->start < b)
            out[p].n_events += (guint32) iv->n_events;
          TtvTime lo = MAX (a, iv->start), hi = MIN (b, iv->end);
          if (lo >= hi)
            continue;
          guint k;
          for (k = 0; k < n && kw[k].key != iv->state; k++)
            ;
          if (k == n && n < 32)
            kw[n++] = (KW) { iv->state, 0 };
          if (k < n)
            kw[k].w += (double) (hi - lo);
        }
      guint best = 0;
      for (guint k = 1; k < n; k++)
        if (kw[k].w > kw[best].w || (kw[k].w == kw[best].w && kw[k].key < kw[best].key))
          best = k;
      out[p].state = n ? kw[best].key : TTV_HISTORY_STATE_NONE;
      out[p].n_states = (guint16) n;
      share[p] = n && b > a ? kw[best].w / (double) (b - a) : 0;
    }
}

static void
check_pixels (TtvHistory *h, TtvHistoryRowKind kind, guint row, TtvTime t0, TtvTime t1, guint width,
              guint *n_exact, guint *n_summary)
{
  g_autoptr (GArray) ivs = ttv_history_query_intervals (h, kind, row, t0, t1);
  g_autofree TtvHistoryPixel *got = g_new (TtvHistoryPixel, width);
  g_autofree TtvHistoryPixel *want = g_new (TtvHistoryPixel, width);
  g_autofree double *share = g_new (double, width);
  gboolean exact;
  guint64 cost = ttv_history_query_pixels_full (h, kind, row, t0, t1, width, got, &exact);
  brute_pixels (ivs, t0, t1, width, want, share);
  /* O(W): a bounded number of cells per pixel, at any zoom. */
  g_assert_cmpuint (cost, <=, 64 * (guint64) width + 4);
  guint64 got_events = 0, want_events = 0;
  guint clear = 0, agree = 0;
  for (guint p = 0; p < width; p++)
    {
      got_events += got[p].n_events;
      want_events += want[p].n_events;
      if (exact)
        {
          g_assert_cmpuint (got[p].state, ==, want[p].state);
          g_assert_cmpuint (got[p].n_events, ==, want[p].n_events);
          g_assert_cmpuint (got[p].n_states, ==, want[p].n_states);
        }
      else if (share[p] >= 0.9)
        {
          clear++;
          agree += got[p].state == want[p].state;
        }
    }
  if (exact)
    (*n_exact)++;
  else
    {
      (*n_summary)++;
      g_assert_cmpuint (agree, >=, clear * 9 / 10);
      /* Events near the window's edges may fall in bins straddling it. */
      g_assert_cmpfloat ((double) got_events, <=, want_events * 1.1 + 200);
      g_assert_cmpfloat ((double) got_events, >=, want_events * 0.9 - 200);
    }
}

/* ---- summary bins ---- */

/* The finest level's bin [a, b) of a row computed from its intervals: the
 * key covering the most time (ties: the smaller key; the first 16 keys in
 * time order, as the summary keeps), its cover in 255ths, and the events
 * of intervals starting in it.  @from: the first interval that may reach
 * the bin, moved on. */
static void
brute_bin (GArray *ivs, guint *from, TtvTime a, TtvTime b, guint8 *key, guint8 *cover, guint64 *events)
{
  guint16 keys[16];
  guint64 weights[16];
  guint n = 0;
  *events = 0;
  while (*from < ivs->len && g_array_index (ivs, TtvHistoryInterval, *from).end <= a
         && g_array_index (ivs, TtvHistoryInterval, *from).start < a)
    (*from)++;
  for (guint i = *from; i < ivs->len; i++)
    {
      const TtvHistoryInterval *iv = &g_array_index (ivs, TtvHistoryInterval, i);
      if (iv->start >= b)
        break;
      if (iv->start >= a)
        *events += iv->n_events;
      TtvTime lo = MAX (a, iv->start), hi = MIN (b, iv->end);
      if (lo >= hi)
        continue;
      guint k;
      for (k = 0; k < n && keys[k] != (iv->state & 0xff); k++)
        ;
      if (k == n && n < G_N_ELEMENTS (keys))
        {
          keys[n] = iv->state & 0xff;
          weights[n++] = 0;
        }
      if (k < n)
        weights[k] += (guint64) (hi - lo);
    }
  guint best = 0;
  for (guint k = 1; k < n; k++)
    if (weights[k] > weights[best] || (weights[k] == weights[best] && keys[k] < keys[best]))
      best = k;
  *key = n ? (guint8) keys[best] : 0xff;
  *cover = n ? (guint8) CLAMP ((double) weights[best] * 255.0 / (double) (b - a) + 0.5, 1.0, 255.0) : 0;
}

/* The finest summary level of every row that has one, bin for bin,
 * against its intervals: the summary takes most records within the bin
 * under way on a short path, which must agree with the general one. */
static void
test_summary_bins (Fixture *f, gconstpointer data)
{
  g_autoptr (TtvHistory) h = build (f->ts, (gsize) 1 << 30, TRUE);
  g_assert_nonnull (h->data);
  guint64 n_bins = 0;
  for (guint64 ri = 0; ri < h->header.n_rows; ri++)
    {
      const TtvHistoryRowIndex *index = &h->index[ri];
      if (index->n_levels == 0)
        continue;
      const TtvHistoryRowInfo *r = &h->infos[ri];
      TtvHistoryLevel level0;
      ttv_history_row_level (index, 0, &level0);
      const TtvHistoryLevel *lv = &level0;
      guint row = (guint) (ri - h->row_base[r->kind]);
      g_autoptr (GArray) ivs = ttv_history_query_intervals (h, r->kind, row, r->birth, r->end);
      guint from = 0;
      for (guint64 j = lv->first_bin; j < lv->first_bin + lv->n_bins; j++, n_bins++)
        {
          TtvTime a = h->header.origin + (TtvTime) (j << lv->shift);
          TtvTime b = h->header.origin + (TtvTime) ((j + 1) << lv->shift);
          guint8 key, cover;
          guint64 events;
          brute_bin (ivs, &from, a, b, &key, &cover, &events);
          const guint8 *bin = h->data + lv->offset + (j - lv->first_bin) * TTV_HISTORY_BIN_SIZE;
          g_assert_cmpuint (bin[1], ==, cover);
          g_assert_cmpuint (bin[0], ==, key);
          g_assert_cmpuint (bin[2] | bin[3] << 8, ==, ttv_history_count_encode (events));
        }
    }
  g_test_message ("%" G_GUINT64_FORMAT " bins", n_bins);
  g_assert_cmpuint (n_bins, >, 1000);
}

static void
test_pixels (Fixture *f, gconstpointer data)
{
  g_autoptr (TtvHistory) h = build (f->ts, 0, TRUE);
  TtvTime start = ttv_traceset_get_start (f->ts), end = ttv_traceset_get_end (f->ts);
  g_autoptr (GRand) rand = g_rand_new_with_seed (23);
  guint n_exact = 0, n_summary = 0;
  for (TtvHistoryRowKind kind = TTV_HISTORY_ROW_PROCESS; kind <= TTV_HISTORY_ROW_CPU; kind++)
    {
      /* The busiest row and a few random ones. */
      guint n = ttv_history_get_n_rows (h, kind), busiest = 0;
      for (guint i = 0; i < n; i++)
        if (ttv_history_get_row (h, kind, i)->n_intervals
            > ttv_history_get_row (h, kind, busiest)->n_intervals)
          busiest = i;
      for (guint j = 0; j < 6; j++)
        {
          guint row = j == 0 ? busiest : (guint) g_rand_int_range (rand, 0, (gint32) n);
          static const guint widths[] = { 7, 200, 1920 };
          for (guint w = 0; w < G_N_ELEMENTS (widths); w++)
            for (guint zoom = 1; zoom <= 100000; zoom *= 10)
              {
                TtvTime span = (end - start) / zoom + 1;
                TtvTime t0 = start + (TtvTime) (g_rand_double (rand) * (double) (end - start - span + 1));
                check_pixels (h, kind, row, t0, t0 + span, widths[w], &n_exact, &n_summary);
              }
          check_pixels (h, kind, row, start - 1000, end + 1000, 1920, &n_exact, &n_summary);
        }
    }
  g_test_message ("%u exact, %u from the summary", n_exact, n_summary);
  g_assert_cmpuint (n_exact, >, 10);
  g_assert_cmpuint (n_summary, >, 5);

  /* Degenerate windows. */
  TtvHistoryPixel px[4];
  g_assert_cmpuint (ttv_history_query_pixels (h, TTV_HISTORY_ROW_CPU, 0, end, start, 4, px), ==, 0);
  g_assert_cmpuint (px[0].state, ==, TTV_HISTORY_STATE_NONE);
  ttv_history_query_pixels (h, TTV_HISTORY_ROW_CPU, 0, start, start + 2, 4, px);
  ttv_history_query_pixels (h, TTV_HISTORY_ROW_CPU, 99, start, end, 4, px);
  ttv_history_query_pixels (h, TTV_HISTORY_ROW_CPU, 0, TTV_TIME_MIN, TTV_TIME_MAX, 4, px);
  g_assert_cmpuint (px[2].state, !=, TTV_HISTORY_STATE_NONE);
  g_assert_cmpuint (px[3].state, ==, TTV_HISTORY_STATE_NONE);
}

/* ---- the cache ---- */

/* Some regular file of the trace. */
static char *
find_file (const char *path)
{
  if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
    return g_strdup (path);
  g_autoptr (GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;
  while (dir && (name = g_dir_read_name (dir)))
    {
      g_autofree char *child = g_build_filename (path, name, NULL);
      char *found = find_file (child);
      if (found)
        return found;
    }
  return NULL;
}

static void
test_cache (Fixture *f, gconstpointer data)
{
  /* The reference, in memory. */
  g_autoptr (TtvHistory) ref = build (f->ts, 0, TRUE);

  /* A tiny memory limit: rows spill, the result lives in the cache file. */
  g_autoptr (TtvHistory) h1 = build (f->ts, 4096, FALSE);
  g_assert_false (ttv_history_is_from_cache (h1));
  const char *path = ttv_history_get_cache_path (h1);
  g_assert_nonnull (path);
  g_assert_true (g_str_has_prefix (path, g_get_user_cache_dir ()));
  g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
  g_assert_cmpuint (ttv_history_get_mapped_size (h1), >, 0);
  g_assert_cmpuint (ttv_history_get_memory (h1), <, ttv_history_get_memory (ref));
  ttv_history_test_assert_same (ref, h1);
  g_autofree char *cache = g_strdup (path);

  /* Reopened unchanged: reused, no read. */
  {
    g_autoptr (TtvTraceset) ts = ttv_history_test_open (f->trace_dir);
    g_autoptr (TtvHistory) h2 = build (ts, 4096, FALSE);
    g_assert_true (ttv_history_is_from_cache (h2));
    ttv_history_test_assert_same (ref, h2);
  }

  /* A tracefile touched: rebuilt, then reused again. */
  {
    g_autofree char *victim = find_file (f->trace_dir);
    g_assert_nonnull (victim);
    struct utimbuf times = { 1000000000, 1000000000 };
    g_assert_cmpint (g_utime (victim, &times), ==, 0);
    g_autoptr (TtvTraceset) ts = ttv_history_test_open (f->trace_dir);
    g_autoptr (TtvHistory) h3 = build (ts, 4096, FALSE);
    g_assert_false (ttv_history_is_from_cache (h3));
    ttv_history_test_assert_same (ref, h3);
    g_autoptr (TtvHistory) h4 = build (ts, 4096, FALSE);
    g_assert_true (ttv_history_is_from_cache (h4));
  }

  /* Damaged cache files are rebuilt, never trusted. */
  g_autofree char *contents = NULL;
  gsize size;
  g_assert_true (g_file_get_contents (cache, &contents, &size, NULL));
  g_assert_cmpuint (size, >, 4096);
  for (guint damage = 0; damage < 5; damage++)
    {
      g_autofree char *copy = g_memdup2 (contents, size);
      gsize len = size;
      switch (damage)
        {
        case 0: /* one bit flipped in the middle */
          copy[size / 2] ^= 0x10;
          break;
        case 1: /* truncated */
          len = size / 3;
          break;
        case 2: /* header garbage */
          memset (copy, 0xff, 64);
          break;
        case 3: /* empty */
          len = 0;
          break;
        case 4: /* a row table pointing outside, checksum made right */
          {
            TtvHistoryRow *rows = (TtvHistoryRow *) (copy + ((TtvHistoryHeader *) copy)->rows_offset);
            rows[0].recs_dir_offset = G_MAXUINT64 - 7;
            ttv_history_test_fix_checksum (copy, size);
          }
          break;
        }
      g_assert_true (g_file_set_contents (cache, copy, (gssize) len, NULL));
      g_autoptr (TtvTraceset) ts = ttv_history_test_open (f->trace_dir);
      g_autoptr (TtvHistory) h = build (ts, 4096, FALSE);
      g_assert_false (ttv_history_is_from_cache (h));
      ttv_history_test_assert_same (ref, h);
    }

  /* no_cache never reads it. */
  g_autoptr (TtvHistory) h5 = build (f->ts, 4096, TRUE);
  g_assert_false (ttv_history_is_from_cache (h5));
  g_assert_null (ttv_history_get_cache_path (h5));
  ttv_history_test_assert_same (ref, h5);
  g_remove (cache);
}

/* Coding and summaries in a second thread, or all in one: the same
 * history, in memory and in a file written under memory pressure. */
static void
test_threads (Fixture *f, gconstpointer data)
{
  g_autofree char *cache_dir = g_build_filename (f->dir, "cache-threads", NULL);
  g_setenv ("TTV_HISTORY_THREADS", "1", TRUE);
  g_autoptr (TtvHistory) one = build (f->ts, 0, TRUE);
  g_autoptr (TtvHistory) one_file = ttv_history_test_build (f->ts, 2048, FALSE, cache_dir);
  g_remove (ttv_history_get_cache_path (one_file));
  g_setenv ("TTV_HISTORY_THREADS", "2", TRUE);
  g_autoptr (TtvHistory) two = build (f->ts, 0, TRUE);
  g_autoptr (TtvHistory) two_file = ttv_history_test_build (f->ts, 2048, FALSE, cache_dir);
  g_unsetenv ("TTV_HISTORY_THREADS");
  g_assert_false (ttv_history_is_from_cache (two_file));
  ttv_history_test_assert_same (one, two);
  ttv_history_test_assert_same (one, one_file);
  ttv_history_test_assert_same (one, two_file);
  g_remove (ttv_history_get_cache_path (two_file));
}

/* The file a build wrote, whole. */
static GBytes *
file_bytes (TtvHistory *h)
{
  g_autoptr (GError) error = NULL;
  char *data;
  gsize len;
  g_assert_true (g_file_get_contents (ttv_history_get_cache_path (h), &data, &len, &error));
  g_assert_no_error (error);
  return g_bytes_new_take (data, len);
}

/* Where the rows' regions (directories, summary levels, bins) lie in
 * @file: those of rows that ended before the trace (end < the header's)
 * before that of every row alive at the end, which the tail writes; how
 * many ended. */
static guint
check_ended_rows_written_first (GBytes *file)
{
  gsize size;
  const guint8 *data = g_bytes_get_data (file, &size);
  g_assert_cmpuint (size, >=, sizeof (TtvHistoryHeader));
  const TtvHistoryHeader *hd = (const TtvHistoryHeader *) data;
  g_assert_cmpuint (hd->rows_offset + hd->n_rows * sizeof (TtvHistoryRow), <=, size);
  const TtvHistoryRow *rows = (const TtvHistoryRow *) (data + hd->rows_offset);
  guint64 tail_first = G_MAXUINT64;
  for (guint64 i = 0; i < hd->n_rows; i++)
    if (rows[i].end >= hd->end)
      tail_first = MIN (tail_first, rows[i].recs_dir_offset);
  guint n_ended = 0;
  for (guint64 i = 0; i < hd->n_rows; i++)
    if (rows[i].end < hd->end)
      {
        g_assert_cmpuint (rows[i].recs_dir_offset, <, tail_first);
        g_assert_cmpuint (rows[i].levels_offset + rows[i].n_levels * sizeof (TtvHistoryLevel), <=, tail_first);
        n_ended++;
      }
  return n_ended;
}

/* Rows that end while the trace is read are written out whole when they
 * end (their directories, their summary made from their records read
 * back), by the coding thread when there is one: the build keeps only
 * their entries in the row table, whatever the number of processes that
 * come and go.  The file is the one-thread build's byte for byte, with
 * the default memory bound and with one of 2 KiB (the regions larger
 * than it written in place; the blocks lie elsewhere than with 8 MiB, so
 * compared with the one thread's at 2 KiB). */
static void
test_ended_rows (Fixture *f, gconstpointer data)
{
  g_autofree char *dir_one = g_build_filename (f->dir, "cache-ended-one", NULL);
  g_autofree char *dir_two = g_build_filename (f->dir, "cache-ended-two", NULL);
  g_autofree char *dir_small = g_build_filename (f->dir, "cache-ended-small", NULL);
  g_autofree char *dir_one_small = g_build_filename (f->dir, "cache-ended-one-small", NULL);
  g_setenv ("TTV_HISTORY_THREADS", "1", TRUE);
  g_autoptr (TtvHistory) one = ttv_history_test_build (f->ts, 0, FALSE, dir_one);
  g_autoptr (TtvHistory) one_small = ttv_history_test_build (f->ts, 2048, FALSE, dir_one_small);
  g_setenv ("TTV_HISTORY_THREADS", "2", TRUE);
  g_autoptr (TtvHistory) two = ttv_history_test_build (f->ts, 0, FALSE, dir_two);
  g_autoptr (TtvHistory) small = ttv_history_test_build (f->ts, 2048, FALSE, dir_small);
  g_unsetenv ("TTV_HISTORY_THREADS");

  /* Rows that end before the trace (dead tasks among them) with records
   * enough for levels: written out when they end, summaries and all. */
  guint n_ended = 0;
  for (guint i = 0; i < ttv_history_get_n_rows (one, TTV_HISTORY_ROW_PROCESS); i++)
    {
      const TtvHistoryRowInfo *r = ttv_history_get_row (one, TTV_HISTORY_ROW_PROCESS, i);
      n_ended += r->dead && r->n_intervals >= 256;
    }
  g_assert_cmpuint (n_ended, >=, 5);

  g_autoptr (GBytes) b_one = file_bytes (one);
  g_autoptr (GBytes) b_two = file_bytes (two);
  g_autoptr (GBytes) b_small = file_bytes (small);
  g_autoptr (GBytes) b_one_small = file_bytes (one_small);
  g_assert_cmpuint (check_ended_rows_written_first (b_one), >=, n_ended);
  g_assert_cmpuint (check_ended_rows_written_first (b_small), >=, n_ended);
  g_assert_true (g_bytes_equal (b_one, b_two));
  g_assert_true (g_bytes_equal (b_one_small, b_small));
  ttv_history_test_assert_same (one, two);
  ttv_history_test_assert_same (one, small);
  g_remove (ttv_history_get_cache_path (one));
  g_remove (ttv_history_get_cache_path (one_small));
  g_remove (ttv_history_get_cache_path (two));
  g_remove (ttv_history_get_cache_path (small));
}

/* Cancelling stops the build with an error. */
static void
test_cancel (Fixture *f, gconstpointer data)
{
  g_autoptr (GCancellable) cancel = g_cancellable_new ();
  g_cancellable_cancel (cancel);
  g_autoptr (GError) error = NULL;
  TtvHistoryOptions opt = { 0, TRUE, NULL };
  g_autoptr (TtvHistory) h = ttv_history_build (f->ts, &opt, NULL, NULL, cancel, &error);
  g_assert_null (h);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

/* ---- names: processes over time, soft IRQs ---- */

/* Soft IRQ rows carry the kernel's names of their vectors. */
static void
assert_softirqs_named (TtvHistory *h)
{
  guint n = ttv_history_get_n_rows (h, TTV_HISTORY_ROW_SOFTIRQ);

  g_assert_cmpuint (n, >, 0);
  for (guint i = 0; i < n; i++)
    {
      const TtvHistoryRowInfo *r = ttv_history_get_row (h, TTV_HISTORY_ROW_SOFTIRQ, i);

      g_assert_nonnull (ttv_kernel_model_get_softirq_name (r->id));
      g_assert_cmpstr (r->name, ==, ttv_kernel_model_get_softirq_name (r->id));
    }
}

/* Every process row's names, one row at a time and all at once, agree;
 * the last is the row's own; some rows changed names (execs). */
static void
test_names (Fixture *f, gconstpointer data)
{
  g_autoptr (TtvHistory) h = build (f->ts, 0, TRUE);
  g_autoptr (GPtrArray) all = ttv_history_dup_all_process_names (h, NULL, NULL);
  g_autoptr (GCancellable) cancel = g_cancellable_new ();
  g_autoptr (GError) error = NULL;
  guint n = ttv_history_get_n_rows (h, TTV_HISTORY_ROW_PROCESS), renamed = 0, shared = 0;
  g_autoptr (GHashTable) lists = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  g_assert_nonnull (all);
  g_assert_cmpuint (all->len, ==, n);
  for (guint i = 0; i < n; i++)
    {
      const TtvHistoryRowInfo *r = ttv_history_get_row (h, TTV_HISTORY_ROW_PROCESS, i);
      g_auto (GStrv) one = ttv_history_dup_process_names (h, i);
      const char *const *names = all->pdata[i];

      g_assert_true ((one == NULL) == (names == NULL));
      if (!names)
        continue;
      g_assert_true (g_strv_equal ((const char *const *) one, names));
      renamed++;
      guint len = g_strv_length ((char **) names);
      g_assert_cmpuint (len, >=, 2);
      g_assert_cmpstr (names[len - 1], ==, r->name);
      /* Rows with the same names share one list. */
      g_autofree char *joined = g_strjoinv ("\n", (char **) names);
      const char *const *before = g_hash_table_lookup (lists, joined);
      if (before)
        {
          g_assert_true (before == names);
          shared++;
        }
      else
        g_hash_table_insert (lists, g_steal_pointer (&joined), (gpointer) names);
      g_assert_cmpstr (ttv_history_get_process_name_at (h, i, r->end), ==, r->name);
    }
  g_assert_cmpuint (renamed, >, 0);
  g_test_message ("%u rows renamed, %u of them sharing another's list", renamed, shared);
  g_assert_cmpuint (shared, >, 0);
  g_assert_null (ttv_history_dup_process_names (h, n));
  assert_softirqs_named (h);
  /* A cancelled pass says so. */
  g_cancellable_cancel (cancel);
  g_assert_null (ttv_history_dup_all_process_names (h, cancel, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

/* ---- CPU time ---- */

/* A process row's time on a CPU (running, or exiting until its last
 * switch away), from its intervals. */
static TtvTime
running_time (TtvHistory *h, guint row)
{
  g_autoptr (GArray) ivs = ttv_history_query_intervals (h, TTV_HISTORY_ROW_PROCESS, row, TTV_TIME_MIN, TTV_TIME_MAX);
  TtvTime t = 0;
  for (guint k = 0; k < ivs->len; k++)
    {
      const TtvHistoryInterval *iv = &g_array_index (ivs, TtvHistoryInterval, k);
      if ((iv->state & 0xf) == TTV_PROCESS_RUN || (iv->state & 0xf) == TTV_PROCESS_EXIT)
        t += iv->end - iv->start;
    }
  return t;
}

/* Every ended life's CPU time (the state's cpu_time notifications, added
 * to the row the CPU's cache knows or to the one the general case looks
 * up) is its time on a CPU as its intervals tell it: a notification added
 * to the wrong row, or lost, shows. */
static guint
check_cpu_time (TtvHistory *h)
{
  guint n_checked = 0;
  for (guint i = 0; i < ttv_history_get_n_rows (h, TTV_HISTORY_ROW_PROCESS); i++)
    {
      const TtvHistoryRowInfo *r = ttv_history_get_row (h, TTV_HISTORY_ROW_PROCESS, i);
      if (r->id == 0 || !r->dead)
        continue;
      g_assert_cmpint (r->cpu_time, ==, running_time (h, i));
      n_checked++;
    }
  g_test_message ("%u ended lives", n_checked);
  return n_checked;
}

static void
test_cpu_time (Fixture *f, gconstpointer data)
{
  g_autoptr (TtvHistory) h = build (f->ts, 0, TRUE);
  g_assert_cmpuint (check_cpu_time (h), >, 10);
}

/* ---- a pid reused while its former life still runs ---- */

enum { REUSE_SWITCH, REUSE_FORK, REUSE_WAKEUP, REUSE_FREE };

static void
reuse_write (TtvCtfWriter *w, guint cpu, TtvTime t, guint event, const TtvScalar *v, guint n)
{
  g_autoptr (GError) error = NULL;
  g_assert_true (ttv_ctf_writer_write_event (w, cpu, t, event, v, n, &error));
}

static void
reuse_switch (TtvCtfWriter *w, guint cpu, TtvTime t, const char *prev, gint prev_tid, const char *next, gint next_tid)
{
  TtvScalar v[] = { TTV_SCALAR_STRING (prev), TTV_SCALAR_INT (prev_tid), TTV_SCALAR_INT (120),
                    TTV_SCALAR_INT (prev_tid ? 1 : 0), TTV_SCALAR_STRING (next), TTV_SCALAR_INT (next_tid),
                    TTV_SCALAR_INT (120) };
  reuse_write (w, cpu, t, REUSE_SWITCH, v, G_N_ELEMENTS (v));
}

/* The rows of @pid in order of birth. */
static GArray *
rows_of_pid (TtvHistory *h, guint32 pid)
{
  GArray *rows = g_array_new (FALSE, FALSE, sizeof (TtvHistoryRowInfo));
  for (guint i = 0; i < ttv_history_get_n_rows (h, TTV_HISTORY_ROW_PROCESS); i++)
    {
      const TtvHistoryRowInfo *r = ttv_history_get_row (h, TTV_HISTORY_ROW_PROCESS, i);
      if (r->id != pid)
        continue;
      guint k = 0;
      while (k < rows->len && g_array_index (rows, TtvHistoryRowInfo, k).birth <= r->birth)
        k++;
      g_array_insert_val (rows, k, *r);
    }
  return rows;
}

/* A trace that lost the exit of task 10 (running on CPU 0) forks a new
 * task 10 on CPU 1, after freeing the first when @freed: the state starts
 * the new life in the same task, or in a new one (where the allocator
 * mostly puts it where the freed one was), and CPU 0 still runs it.  The
 * events CPU 0 has after the fork, and its time there, belong to the new
 * life's row, not to the one the fork or the free ended (the builder's
 * cache of CPU 0's task must not hand out that row again). */
static void
test_pid_reused_while_running (gconstpointer data)
{
  gboolean freed = GPOINTER_TO_INT (data);
  g_autoptr (GError) error = NULL;
  g_autofree char *trace = ttv_test_dup_tmp_path ("pid-reused");
  TtvCtfWriter *w = ttv_test_kernel_ctf_writer_new (trace);
  const char *const switch_fields[] = { "prev_comm", "prev_tid", "prev_prio", "prev_state",
                                        "next_comm", "next_tid", "next_prio", NULL };
  const char *const fork_fields[] = { "parent_comm", "parent_tid", "parent_pid",
                                      "child_comm", "child_tid", "child_pid", NULL };
  const char *const wakeup_fields[] = { "comm", "tid", "prio", "target_cpu", NULL };
  const char *const free_fields[] = { "comm", "tid", "prio", NULL };
  const struct { const char *name; const char *const *fields; } events[] = {
    { "sched_switch", switch_fields }, { "sched_process_fork", fork_fields }, { "sched_wakeup", wakeup_fields },
    { "sched_process_free", free_fields },
  };
  for (guint i = 0; i < G_N_ELEMENTS (events); i++)
    {
      g_autoptr (TtvType) fields = ttv_test_kernel_fields (events[i].fields);
      g_assert_cmpint (ttv_ctf_writer_add_event (w, events[i].name, fields, &error), ==, (gint) i);
    }
  const TtvTime base = 1000000000;
  reuse_switch (w, 0, base + 1000, "swapper/0", 0, "old", 10);
  reuse_switch (w, 1, base + 2000, "swapper/1", 0, "parent", 20);
  if (freed)
    {
      TtvScalar free[] = { TTV_SCALAR_STRING ("old"), TTV_SCALAR_INT (10), TTV_SCALAR_INT (120) };
      reuse_write (w, 1, base + 2500, REUSE_FREE, free, G_N_ELEMENTS (free));
    }
  TtvScalar fork[] = { TTV_SCALAR_STRING ("parent"), TTV_SCALAR_INT (20), TTV_SCALAR_INT (20),
                       TTV_SCALAR_STRING ("new"), TTV_SCALAR_INT (10), TTV_SCALAR_INT (10) };
  reuse_write (w, 1, base + 3000, REUSE_FORK, fork, G_N_ELEMENTS (fork));
  TtvScalar wakeup[] = { TTV_SCALAR_STRING ("parent"), TTV_SCALAR_INT (20), TTV_SCALAR_INT (120), TTV_SCALAR_INT (1) };
  reuse_write (w, 0, base + 4000, REUSE_WAKEUP, wakeup, G_N_ELEMENTS (wakeup));
  reuse_write (w, 0, base + 5000, REUSE_WAKEUP, wakeup, G_N_ELEMENTS (wakeup));
  reuse_switch (w, 0, base + 6000, "new", 10, "swapper/0", 0);
  reuse_switch (w, 1, base + 7000, "parent", 20, "new", 10);
  reuse_switch (w, 1, base + 8000, "new", 10, "swapper/1", 0);
  g_assert_true (ttv_ctf_writer_close (w, &error));

  g_autoptr (TtvTraceset) ts = ttv_history_test_open (trace);
  g_autoptr (TtvHistory) h = build (ts, 0, TRUE);
  g_autoptr (GArray) rows = rows_of_pid (h, 10);
  g_assert_cmpuint (rows->len, ==, 2);
  const TtvHistoryRowInfo *old = &g_array_index (rows, TtvHistoryRowInfo, 0);
  const TtvHistoryRowInfo *new = &g_array_index (rows, TtvHistoryRowInfo, 1);
  /* The first life: its switch in only, and no time told after the fork. */
  g_assert_cmpint (old->end, ==, base + (freed ? 2500 : 3000));
  g_assert_cmpint (old->dead, ==, freed);
  g_assert_cmpuint (old->n_events, ==, 1);
  g_assert_cmpint (old->cpu_time, ==, 0);
  /* The new life: CPU 0's two wakeups and CPU 1's switch in (an event
   * counts for what runs after it); CPU 0's time told at its switch out
   * (from the first switch in: the state's accounting stretch), CPU 1's at
   * its own. */
  g_assert_cmpint (new->birth, ==, base + 3000);
  g_assert_cmpuint (new->n_events, ==, 3);
  g_assert_cmpint (new->cpu_time, ==, 5000 + 1000);
  ttv_test_remove_tree (trace);
}

/* ---- the real CTF kernel traces ---- */

static void
test_real_ctf (gconstpointer data)
{
  const char *name = data;
  g_autofree char *path = ttv_test_dup_shared_ctf_trace (name);
  if (path == NULL)
    return;
  g_autoptr (TtvTraceset) ts = ttv_history_test_open (path);
  g_autoptr (TtvHistory) h = build (ts, 0, TRUE);
  g_assert_cmpuint (ttv_history_get_n_rows (h, TTV_HISTORY_ROW_CPU), >, 0);
  g_assert_cmpuint (ttv_history_get_n_rows (h, TTV_HISTORY_ROW_PROCESS), >, 0);
  check_golden (ts, h, 200);
  check_cpu_time (h);
  /* LTTng 2 gives bare vector numbers: Linux's names. */
  if (ttv_history_get_n_rows (h, TTV_HISTORY_ROW_SOFTIRQ) > 0)
    assert_softirqs_named (h);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/history/sim/golden", Fixture, GSIZE_TO_POINTER (60000), fixture_set_up, test_golden_sim, ttv_history_fixture_tear_down);
  g_test_add ("/history/sim/rows-marks", Fixture, GSIZE_TO_POINTER (40000), fixture_set_up, test_rows_and_marks, ttv_history_fixture_tear_down);
  g_test_add ("/history/sim/pixels", Fixture, GSIZE_TO_POINTER (80000), fixture_set_up, test_pixels, ttv_history_fixture_tear_down);
  g_test_add ("/history/sim/summary-bins", Fixture, GSIZE_TO_POINTER (80000), fixture_set_up, test_summary_bins, ttv_history_fixture_tear_down);
  g_test_add ("/history/sim/cache", Fixture, GSIZE_TO_POINTER (30000), fixture_set_up, test_cache, ttv_history_fixture_tear_down);
  g_test_add ("/history/sim/threads", Fixture, GSIZE_TO_POINTER (50000), fixture_set_up, test_threads, ttv_history_fixture_tear_down);
  g_test_add ("/history/sim/ended-rows", Fixture, GSIZE_TO_POINTER (80000), fixture_set_up, test_ended_rows,
              ttv_history_fixture_tear_down);
  g_test_add ("/history/sim/names", Fixture, GSIZE_TO_POINTER (40000), fixture_set_up, test_names, ttv_history_fixture_tear_down);
  g_test_add ("/history/sim/cpu-time", Fixture, GSIZE_TO_POINTER (60000), fixture_set_up, test_cpu_time, ttv_history_fixture_tear_down);
  g_test_add ("/history/sim/cancel", Fixture, GSIZE_TO_POINTER (5000), fixture_set_up, test_cancel, ttv_history_fixture_tear_down);
  g_test_add_data_func ("/history/pid-reused-while-running", GINT_TO_POINTER (FALSE), test_pid_reused_while_running);
  g_test_add_data_func ("/history/pid-freed-and-reused-while-running", GINT_TO_POINTER (TRUE),
                        test_pid_reused_while_running);
  g_test_add_data_func ("/history/ctf/arm64-kernel", "arm64-kernel", test_real_ctf);
  g_test_add_data_func ("/history/ctf/bigendian-kernel", "bigendian-kernel", test_real_ctf);
  g_test_add_data_func ("/history/ctf/scp-kernel", "scp-kernel", test_real_ctf);
  return g_test_run ();
}
