/* ttv-history-coding-thread.c: the coding of a state history's records
 * while the trace is read, in a second thread when there is a second core:
 * the reading thread hands over full blocks of records (copied), the
 * coding thread codes them, writes them out and keeps its buffers within
 * the memory bound.  Used by the builder (ttv-history-builder.c). */
#include "ttv-history-coding-thread.h"

/* Blocks handed over at a time, and batches under way at most (their
 * memory: some 1.6 MB).  A hand-over wakes the coding thread, which codes
 * faster than the trace is read and so waits for most batches: on these
 * virtual machines each wake-up cost the reading thread a system call
 * and an interrupt to the other core.  Batches of 64 blocks made 5,569
 * hand-overs for 5 M events (697 now), 13 % of the reading thread's time
 * (the build 0.458 s against 0.415 s, median of seven). */
#define JOBS_PER_BATCH 512
#define N_BATCHES 4

typedef struct {
  TtvHistoryEncoder *e;       /* weak */
  guint n;
  gboolean finish;         /* the encoder's last records: close it after */
  TtvHistoryEarlySummary *summary;   /* weak: to make after closing it, or NULL */
  TtvHistoryPending recs[TTV_HISTORY_BLOCK];
} Job;

typedef struct {
  guint n_jobs;
  gboolean stop;           /* the last batch: the thread ends after it */
  Job jobs[JOBS_PER_BATCH];
} Batch;

struct _TtvHistCoder {
  TtvHistoryWriter *w;        /* weak: used by the coding side only */
  gsize max_memory;
  gssize buffered;         /* bytes of coded blocks the encoders hold */
  TtvHistorySlab *summaries;  /* weak: the early summaries' bins */
  gsize summary_bytes;     /* bytes of them */
  GPtrArray *listed;       /* encoders holding some (weak) */
  /* Threaded: */
  GThread *thread;
  GAsyncQueue *todo;       /* of Batch *, to code */
  GAsyncQueue *free;       /* of Batch *, to fill */
  Batch *filling;          /* the reading side's, or NULL */
  Batch *batches;          /* owned: all of them */
};

/* Writes out the coded blocks every encoder holds. */
static void
flush_listed (TtvHistoryCoder *c)
{
  for (guint i = 0; i < c->listed->len; i++)
    {
      TtvHistoryEncoder *e = g_ptr_array_index (c->listed, i);
      ttv_history_encoder_flush (e, c->w);
      e->listed = FALSE;
    }
  g_ptr_array_set_size (c->listed, 0);
  c->buffered = 0;
}

/* The coding side of a block. */
static void
code (TtvHistoryCoder *c, TtvHistoryEncoder *e, const TtvHistoryPending *recs, guint n, gboolean finish)
{
  gsize before = e->len;
  ttv_history_encoder_code (e, c->w, recs, n);
  if (finish)
    ttv_history_encoder_close (e, c->w);
  c->buffered += (gssize) e->len - (gssize) before;
  if (e->len > 0 && !e->listed)
    {
      e->listed = TRUE;
      g_ptr_array_add (c->listed, e);
    }
  if (G_UNLIKELY (c->buffered > (gssize) c->max_memory))
    flush_listed (c);
}

/* @s from the closed encoder @e's records, read back from what the
 * writer holds: from the file, and from its buffer the bytes not yet
 * written out (a write of the buffer and a read back of it for every
 * row that closed were most of this thread's system calls). */
static void
summarize_early (TtvHistoryCoder *c, TtvHistoryEncoder *e, TtvHistoryEarlySummary *s)
{
  TtvHistoryWriter *w = c->w;
  TtvHistorySeq seq = {
    .data = w->bytes ? w->bytes->data : NULL,
    .fd = w->fd,
    .unwritten = w->fd >= 0 ? w->buf : NULL,
    .unwritten_from = w->offset - (w->fd >= 0 ? w->len : 0),
    .size = w->offset,
    .dir = e->dir ? e->dir : &e->dir_first,
    .n_blocks = ttv_history_n_blocks (s->n_recs),
    .n_recs = s->n_recs,
  };
  s->n_levels = ttv_history_summary_plan (&seq, s->origin, s->end, s->levels);
  gsize size = ttv_history_summary_layout (s->levels, s->n_levels, 0);
  if (c->summary_bytes + size > c->max_memory)
    return;
  c->summary_bytes += size;
  if (size)
    {
      s->bins = ttv_history_slab_alloc0 (c->summaries, size);
      ttv_history_summary_compute (&seq, s->origin, s->end, s->levels, s->n_levels, s->bins);
    }
  s->made = TRUE;
}

static gpointer
coding_thread (gpointer data)
{
  TtvHistoryCoder *c = data;
  for (;;)
    {
      Batch *b = g_async_queue_pop (c->todo);
      for (guint i = 0; i < b->n_jobs; i++)
        {
          Job *job = &b->jobs[i];
          code (c, job->e, job->recs, job->n, job->finish);
          if (job->summary && !c->w->failed)
            summarize_early (c, job->e, job->summary);
        }
      gboolean stop = b->stop;
      b->n_jobs = 0;
      b->stop = FALSE;
      g_async_queue_push (c->free, b);
      if (stop)
        return NULL;
    }
}

TtvHistoryCoder *
ttv_history_coder_new (TtvHistoryWriter *w, gsize max_memory, gboolean threaded, TtvHistorySlab *summaries)
{
  TtvHistoryCoder *c = g_new0 (TtvHistoryCoder, 1);
  c->w = w;
  c->summaries = summaries;
  c->max_memory = max_memory;
  c->listed = g_ptr_array_new ();
  if (!threaded)
    return c;
  c->todo = g_async_queue_new ();
  c->free = g_async_queue_new ();
  c->batches = g_new0 (Batch, N_BATCHES);
  for (guint i = 0; i < N_BATCHES; i++)
    g_async_queue_push (c->free, &c->batches[i]);
  c->thread = g_thread_new ("ttv-history-coder", coding_thread, c);
  return c;
}

/* Hands the batch being filled over to the coding thread. */
static void
hand_over (TtvHistoryCoder *c, gboolean stop)
{
  if (c->filling == NULL)
    c->filling = g_async_queue_pop (c->free);
  c->filling->stop = stop;
  g_async_queue_push (c->todo, g_steal_pointer (&c->filling));
}

static void submit (TtvHistoryCoder *c, TtvHistoryEncoder *e, gboolean finish, TtvHistoryEarlySummary *s);

void
ttv_history_coder_submit (TtvHistoryCoder *c, TtvHistoryEncoder *e, gboolean finish)
{
  submit (c, e, finish, NULL);
}

void
ttv_history_coder_finish_summarized (TtvHistoryCoder *c, TtvHistoryEncoder *e, TtvHistoryEarlySummary *s)
{
  /* In one thread the summary would cost the same now as at the end. */
  submit (c, e, TRUE, c->thread ? s : NULL);
}

static void
submit (TtvHistoryCoder *c, TtvHistoryEncoder *e, gboolean finish, TtvHistoryEarlySummary *s)
{
  if (c->thread == NULL)
    {
      code (c, e, e->pending, e->n_pending, finish);
      e->n_pending = 0;
    }
  else
    {
      if (c->filling == NULL)
        c->filling = g_async_queue_pop (c->free);   /* waits while the coder is behind */
      Job *job = &c->filling->jobs[c->filling->n_jobs++];
      job->e = e;
      job->n = e->n_pending;
      job->finish = finish;
      job->summary = s;
      if (e->n_pending > 0)   /* none pending: e->pending may be NULL */
        memcpy (job->recs, e->pending, e->n_pending * sizeof (TtvHistoryPending));
      e->n_pending = 0;
      if (c->filling->n_jobs == JOBS_PER_BATCH)
        hand_over (c, FALSE);
    }
  if (finish)
    {
      g_clear_pointer (&e->pending, g_free);
      e->pending_cap = 0;
      e->finished = TRUE;
    }
}

void
ttv_history_coder_free (TtvHistoryCoder *c)
{
  if (c == NULL)
    return;
  if (c->thread)
    {
      hand_over (c, TRUE);
      g_thread_join (c->thread);
      g_async_queue_unref (c->todo);
      g_async_queue_unref (c->free);
      g_free (c->batches);
    }
  g_ptr_array_unref (c->listed);
  g_free (c);
}
