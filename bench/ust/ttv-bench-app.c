/* ttv-bench-app.c: the instrumented program of the recorded userspace
 * benchmark trace (bench/record-ust): THREADS threads each emit EVENTS
 * events of the ttv_bench provider, a deterministic mix of every kind. */
#define TRACEPOINT_CREATE_PROBES
#define TRACEPOINT_DEFINE
#include "ttv-bench-tp.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static long events_per_thread = 1000000;

static const char *const paths[] = {
  "/", "/index.html", "/api/v1/users/42", "/static/app.js", "/search?q=trace+viewer",
  "/api/v1/orders/7/items", "/favicon.ico", "/login",
};
static const char *const modules[] = { "net", "db", "cache", "auth", "http", "sched" };
static const char *const messages[] = {
  "connection accepted", "query took longer than expected", "cache miss",
  "token refreshed", "retrying after timeout", "worker idle",
};

static void *
worker (void *arg)
{
  unsigned seed = (unsigned) (uintptr_t) arg * 2654435761u + 1;
  int lock_word = 0;
  uint64_t id = (uint64_t) (uintptr_t) arg << 40;
  for (long i = 0; i < events_per_thread;)
    {
      seed = seed * 1103515245u + 12345u;
      unsigned r = seed >> 8;
      uint16_t ports[2] = { (uint16_t) (1024 + r % 60000), 443 };
      tracepoint (ttv_bench, request_begin, id, paths[r % 8], (int32_t) (r % 1000), ports);
      i++;
      for (unsigned k = 0; k < 1 + r % 3 && i < events_per_thread; k++, i++)
        tracepoint (ttv_bench, lock, &lock_word + k, (r >> k) % 5000);
      if (r % 4 == 0 && i < events_per_thread)
        {
          int32_t values[12];
          unsigned n = 1 + r % 12;
          long sum = 0;
          for (unsigned k = 0; k < n; k++)
            sum += values[k] = (int32_t) ((r * (k + 7)) % 100000) - 5000;
          tracepoint (ttv_bench, samples, values, n, (float) sum / (float) n);
          i++;
        }
      if (r % 16 == 0 && i < events_per_thread)
        {
          tracepoint (ttv_bench, log, (int) (r % 7), modules[r % 6], messages[(r >> 3) % 6]);
          i++;
        }
      if (i < events_per_thread)
        {
          static const int outcomes[] = { 0, 0, 0, 0, 0, 1, 404, 503 };
          tracepoint (ttv_bench, request_end, id, outcomes[r % 8], (double) (r % 100000) / 1000.0,
                      (uint32_t) (r % 65536));
          i++;
        }
      id++;
    }
  return NULL;
}

int
main (int argc, char **argv)
{
  int threads = argc > 1 ? atoi (argv[1]) : 4;
  if (argc > 2)
    events_per_thread = atol (argv[2]);
  if (threads < 1 || threads > 64 || events_per_thread < 1)
    {
      fprintf (stderr, "usage: ttv-bench-app [THREADS [EVENTS_PER_THREAD]]\n");
      return 2;
    }
  pthread_t tid[64];
  for (int t = 0; t < threads; t++)
    pthread_create (&tid[t], NULL, worker, (void *) (uintptr_t) (t + 1));
  for (int t = 0; t < threads; t++)
    pthread_join (tid[t], NULL);
  return 0;
}
