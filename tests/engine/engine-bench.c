/* engine-bench.c: measures the traceset context's merge and seek over the
 * in-memory test format (see engine-bench.h).  Used by test-engine --bench. */
#include "engine-bench.h"
#include "mem-format.h"
#include "ttv-context.h"

#include <time.h>

/* CPU time of this thread, in seconds: figures stay meaningful on a
 * machine shared with other jobs. */
static double
cpu_now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static guint64
xorshift (guint64 *s)
{
  guint64 x = *s;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  return *s = x;
}

/* @burst: mean run length of one tracefile before another takes over
 * (1: events of all tracefiles interleave at random). */
static TtvTraceset *
make (guint n_tf, guint n_events, guint burst)
{
  TtvTrace *trace = mem_trace_new ("bench", 8);
  guint64 seed = 0x9e3779b97f4a7c15ull;
  guint per = n_events / n_tf;
  g_autofree TtvTime *times = g_new (TtvTime, per);
  g_autofree guint *types = g_new (guint, per);
  for (guint f = 0; f < n_tf; f++)
    {
      TtvTime now = G_GINT64_CONSTANT (1700000000000000000);
      for (guint i = 0; i < per; i++)
        {
          guint64 r = xorshift (&seed);
          /* Bursts: a run of ~@burst events 1 ns apart, then a gap that
           * lets the other tracefiles run. */
          if (burst > 1 && r % burst != 0)
            now += 1;
          else
            now += 1 + (TtvTime) ((r >> 8) % (200u * (burst > 1 ? burst * n_tf : 1)));
          times[i] = now;
          types[i] = (guint) ((r >> 40) % 8);
        }
      g_autofree char *name = g_strdup_printf ("cpu%u", f);
      mem_trace_add_tracefile (trace, name, times, types, per, 1024);
    }
  mem_trace_finish (trace);
  TtvTraceset *ts = ttv_traceset_new ();
  ttv_traceset_add_trace (ts, trace);
  return ts;
}

static gboolean
count_hook (gpointer hook_data, gpointer call_data)
{
  (*(guint64 *) hook_data)++;
  return FALSE;
}

static void
bench_one (GString *out, guint n_tf, guint n_events, guint burst, guint n_seeks)
{
  g_autoptr (TtvTraceset) ts = make (n_tf, n_events, burst);
  g_autoptr (TtvContext) ctx = ttv_context_new (ts, NULL);
  const char *mode = burst > 1 ? "bursts" : "random";

  /* next() */
  ttv_context_seek_begin (ctx, NULL);
  guint64 n = 0, sum = 0;
  double t0 = cpu_now ();
  const TtvEvent *ev;
  while ((ev = ttv_context_next (ctx, NULL)) != NULL)
    {
      sum += (guint64) ev->time;
      n++;
    }
  double s = cpu_now () - t0;
  g_string_append_printf (out, "{\"bench\":\"engine_next\",\"tracefiles\":%u,\"interleave\":\"%s\","
                          "\"events\":%" G_GUINT64_FORMAT ",\"cpu_seconds\":%.4f,\"events_per_s\":%.0f,"
                          "\"check\":%" G_GUINT64_FORMAT "}\n",
                          n_tf, mode, n, s, n / MAX (s, 1e-9), sum & 0xffff);

  /* process_middle with one event hook */
  g_autoptr (TtvHooks) hooks = ttv_hooks_new ();
  guint64 calls = 0;
  ttv_hooks_add (hooks, count_hook, &calls, TTV_PRIO_DEFAULT);
  ttv_context_seek_begin (ctx, NULL);
  ttv_context_process_begin (ctx, NULL, NULL, NULL, hooks, NULL);
  t0 = cpu_now ();
  n = ttv_context_process_middle (ctx, TTV_TIME_MAX, TTV_CONTEXT_NO_LIMIT, NULL, NULL);
  s = cpu_now () - t0;
  ttv_context_process_end (ctx, NULL, NULL, NULL, hooks, NULL);
  g_string_append_printf (out, "{\"bench\":\"engine_middle_1hook\",\"tracefiles\":%u,\"interleave\":\"%s\","
                          "\"events\":%" G_GUINT64_FORMAT ",\"cpu_seconds\":%.4f,\"events_per_s\":%.0f}\n",
                          n_tf, mode, n, s, n / MAX (s, 1e-9));
  g_assert (calls == n);

  /* seek_time + first event, random times */
  TtvTime start = ttv_traceset_get_start (ts), end = ttv_traceset_get_end (ts);
  guint64 seed = 12345;
  t0 = cpu_now ();
  for (guint i = 0; i < n_seeks; i++)
    {
      TtvTime t = start + (TtvTime) (xorshift (&seed) % (guint64) MAX (end - start, 1));
      ttv_context_seek_time (ctx, t, NULL);
      ttv_context_next (ctx, NULL);
    }
  s = cpu_now () - t0;
  g_string_append_printf (out, "{\"bench\":\"engine_seek_time\",\"tracefiles\":%u,\"interleave\":\"%s\","
                          "\"events\":%u,\"seeks\":%u,\"us_per_seek\":%.3f}\n",
                          n_tf, mode, n_events, n_seeks, s * 1e6 / MAX (n_seeks, 1));
}

void
ttv_engine_bench_run (GString *out, guint n_events, guint n_seeks)
{
  static const guint n_tfs[] = { 1, 4, 16 };
  for (guint i = 0; i < G_N_ELEMENTS (n_tfs); i++)
    {
      bench_one (out, n_tfs[i], n_events, 1, n_seeks);
      if (n_tfs[i] > 1)
        bench_one (out, n_tfs[i], n_events, 32, n_seeks);
    }
}
