/* ttv-history-test-util.c: what the state history tests share (see the
 * header); linked into test-history and test-history-codec. */
#include "ttv-history-test-util.h"

void
ttv_history_fixture_set_up (TtvHistoryFixture *f, const TtvSimOptions *so)
{
  g_autoptr (GError) error = NULL;
  f->dir = ttv_test_get_tmp_dir ();
  f->trace_dir = g_build_filename (f->dir, "trace", NULL);
  g_autoptr (TtvSim) sim = ttv_sim_new (so, &error);
  g_assert_no_error (error);
  guint n_cpu_slots = 0;
  for (guint i = 0; i < so->n_cpus; i++)
    n_cpu_slots = MAX (n_cpu_slots, so->cpu_ids[i] + 1);
  ttv_test_write_ltt_simulation (f->trace_dir, sim, 16384, n_cpu_slots, NULL, NULL);
  f->ts = ttv_history_test_open (f->trace_dir);
}

void
ttv_history_fixture_tear_down (TtvHistoryFixture *f, gconstpointer data)
{
  ttv_traceset_unref (f->ts);
  g_free (f->trace_dir);
}

TtvTraceset *
ttv_history_test_open (const char *path)
{
  g_autoptr (GError) error = NULL;
  TtvTraceset *ts = ttv_traceset_new ();
  if (!ttv_traceset_add_path (ts, path, &error))
    g_error ("%s: %s", path, error->message);
  return ts;
}

TtvHistory *
ttv_history_test_build (TtvTraceset *ts, gsize max_memory, gboolean no_cache, const char *cache_dir)
{
  g_autoptr (GError) error = NULL;
  TtvHistoryOptions opt = { max_memory, no_cache, cache_dir };
  TtvHistory *h = ttv_history_build (ts, &opt, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (h);
  return h;
}

void
ttv_history_test_assert_same (TtvHistory *a, TtvHistory *b)
{
  for (TtvHistoryRowKind kind = 0; kind < TTV_HISTORY_ROW_N_KINDS; kind++)
    {
      guint n = ttv_history_get_n_rows (a, kind);
      g_assert_cmpuint (n, ==, ttv_history_get_n_rows (b, kind));
      for (guint i = 0; i < n; i++)
        {
          const TtvHistoryRowInfo *ra = ttv_history_get_row (a, kind, i);
          const TtvHistoryRowInfo *rb = ttv_history_get_row (b, kind, i);
          g_assert_cmpuint (ra->id, ==, rb->id);
          g_assert_cmpstr (ra->name, ==, rb->name);
          g_assert_cmpint (ra->birth, ==, rb->birth);
          g_assert_cmpint (ra->end, ==, rb->end);
          g_assert_cmpuint (ra->n_events, ==, rb->n_events);
          g_autoptr (GArray) ia = ttv_history_query_intervals (a, kind, i, TTV_TIME_MIN, TTV_TIME_MAX);
          g_autoptr (GArray) ib = ttv_history_query_intervals (b, kind, i, TTV_TIME_MIN, TTV_TIME_MAX);
          g_assert_cmpmem (ia->data, ia->len * sizeof (TtvHistoryInterval), ib->data,
                           ib->len * sizeof (TtvHistoryInterval));
          /* The states the row takes: those of its intervals. */
          guint32 states = 0;
          for (guint k = 0; k < ia->len; k++)
            states |= 1u << ttv_history_state_low (g_array_index (ia, TtvHistoryInterval, k).state);
          g_assert_cmphex (ra->states_seen, ==, states);
          g_assert_cmphex (rb->states_seen, ==, states);
          if (kind == TTV_HISTORY_ROW_PROCESS)
            {
              g_autoptr (GArray) ma = ttv_history_query_marks (a, i, TTV_TIME_MIN, TTV_TIME_MAX);
              g_autoptr (GArray) mb = ttv_history_query_marks (b, i, TTV_TIME_MIN, TTV_TIME_MAX);
              g_assert_cmpuint (ma->len, ==, mb->len);
            }
          TtvHistoryPixel pa[300], pb[300];
          ttv_history_query_pixels (a, kind, i, ra->birth, ra->end, 300, pa);
          ttv_history_query_pixels (b, kind, i, ra->birth, ra->end, 300, pb);
          g_assert_cmpmem (pa, sizeof pa, pb, sizeof pb);
        }
    }
}

void
ttv_history_test_fix_checksum (char *data, gsize size)
{
  g_assert_cmpuint (size, >=, sizeof (TtvHistoryHeader));
  TtvHistoryHeader *hd = (TtvHistoryHeader *) data;
  hd->checksum = ttv_history_hash ((const guint8 *) data + sizeof *hd, size - sizeof *hd);
}
