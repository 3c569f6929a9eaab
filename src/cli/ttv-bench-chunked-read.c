/* ttv-bench-chunked-read.c: a traceset read on several threads by slices
 * of its time (ttv-bench-chunked-read.h). */
#include "ttv-config.h"

#include "ttv-bench-chunked-read.h"
#include "ttv-bench-cpu.h"
#include "ttv-context.h"

/* Slices per thread: enough that a thread that met dense slices does not
 * leave the other waiting at the end, few enough that the seek at each
 * slice's start (the packets around it read again) stays a small part. */
#define SLICES_PER_THREAD 8

typedef struct {
  TtvTraceset *ts;
  gboolean decode;
  guint n_slices;
  TtvTime start, end;          /* the traceset's */
  gint next_slice;             /* atomic: the next slice a thread takes */
  GMutex lock;
  GError *error;               /* the first failure; the threads stop at it */
  guint64 events;              /* under lock */
} Slices;

/* Where slice @k begins: its share of [start, end], whole nanoseconds. */
static TtvTime
slice_begin (const Slices *s, guint k)
{
  /* span * k / n without overflow: (q n + r) k / n = q k + r k / n, with
   * r k < n k small. */
  guint64 span = (guint64) s->end - (guint64) s->start;
  guint64 q = span / s->n_slices, r = span % s->n_slices;
  return (TtvTime) ((guint64) s->start + q * k + r * k / s->n_slices);
}

/* Every event of slice @k (its time from the slice's begin to the next
 * one's, the last slice to the end) read by @ctx; how many in *@n. */
static gboolean
read_slice (Slices *s, TtvContext *ctx, TtvDecoder *decoder, guint k, guint64 *n, GError **error)
{
  gboolean last = k + 1 == s->n_slices;
  TtvTime stop = last ? TTV_TIME_MAX : slice_begin (s, k + 1);
  if (!ttv_context_seek_time (ctx, slice_begin (s, k), error))
    return FALSE;
  gint32 scopes[TTV_EVENT_N_CONTEXTS];
  const TtvEvent *ev;
  GError *local = NULL;
  while ((ev = ttv_context_next (ctx, &local)) != NULL && (last || ev->time < stop))
    {
      if (s->decode)
        ttv_event_decode_contexts (ev, decoder, scopes, NULL);
      (*n)++;
    }
  if (local)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  return TRUE;
}

static gboolean
failed (Slices *s)
{
  g_mutex_lock (&s->lock);
  gboolean f = s->error != NULL;
  g_mutex_unlock (&s->lock);
  return f;
}

static gpointer
slice_worker (gpointer data)
{
  Slices *s = data;
  /* Where the bench compares programs it runs on one CPU: not here. */
  ttv_bench_cpu_unpin_self (NULL);
  GError *error = NULL;
  g_autoptr (TtvContext) ctx = ttv_context_new (s->ts, &error);
  g_autoptr (TtvDecoder) decoder = ttv_decoder_new ();
  guint64 n = 0;
  while (ctx != NULL && !failed (s))
    {
      guint k = (guint) g_atomic_int_add (&s->next_slice, 1);
      if (k >= s->n_slices || !read_slice (s, ctx, decoder, k, &n, &error))
        break;
    }
  g_mutex_lock (&s->lock);
  s->events += n;
  if (error && s->error == NULL)
    s->error = g_steal_pointer (&error);
  g_mutex_unlock (&s->lock);
  g_clear_error (&error);
  return NULL;
}

gboolean
ttv_bench_chunked_read (TtvTraceset *ts, guint n_threads, gboolean decode, TtvBenchChunkedRead *out,
                        GError **error)
{
  g_return_val_if_fail (n_threads >= 1 && n_threads <= 64, FALSE);
  Slices s = { .ts = ts, .decode = decode, .n_slices = n_threads * SLICES_PER_THREAD,
                .start = ttv_traceset_get_start (ts), .end = ttv_traceset_get_end (ts) };
  g_mutex_init (&s.lock);
  /* An empty traceset: one slice, which finds nothing. */
  if (s.start > s.end)
    {
      s.n_slices = 1;
      s.end = s.start;
    }
  GThread *threads[64];
  for (guint i = 0; i < n_threads; i++)
    threads[i] = g_thread_new ("ttv-bench-read", slice_worker, &s);
  for (guint i = 0; i < n_threads; i++)
    g_thread_join (threads[i]);
  *out = (TtvBenchChunkedRead) { s.events, s.n_slices };
  g_mutex_clear (&s.lock);
  if (s.error)
    {
      g_propagate_error (error, s.error);
      return FALSE;
    }
  return TRUE;
}
