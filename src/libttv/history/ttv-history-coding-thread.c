/* ttv-history-coding-thread.c: the coding of a state history's records
 * while the trace is read, in a second thread when there is a second core:
 * the reading thread hands over full blocks of records (copied), the
 * coding thread codes them, writes them out and keeps its buffers within
 * the memory bound; a row that ended is written out whole, its summary
 * with it, so that the build holds no more than its row table's entry
 * (some 120 bytes) for each row that ended: the rows of a trace grow with
 * it where its processes come and go.  Used by the builder
 * (ttv-history-builder.c). */
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
  /* The row @e is the records of, to write out whole after closing it
   * (with its marks' encoder @marks, closed before), or NULL. */
  TtvHistoryRow *row;      /* weak */
  TtvHistoryEncoder *marks;   /* weak, or NULL */
  gint64 origin;
  TtvHistoryPending recs[TTV_HISTORY_BLOCK];
} Job;

typedef struct {
  guint n_jobs;
  gboolean stop;           /* the last batch: the thread ends after it */
  gsize number;            /* of hand-over, from 1 */
  Job jobs[JOBS_PER_BATCH];
} Batch;

struct _TtvHistCoder {
  TtvHistoryWriter *w;        /* weak: used by the coding side only */
  gsize max_memory;
  gssize buffered;         /* bytes of coded blocks the encoders hold */
  GPtrArray *listed;       /* encoders holding some (weak), each at its listed_at */
  GByteArray *region;      /* a row's region, made before it is written out */
  /* Threaded: */
  GThread *thread;
  GAsyncQueue *todo;       /* of Batch *, to code */
  GAsyncQueue *free;       /* of Batch *, to fill */
  Batch *filling;          /* the reading side's, or NULL */
  Batch *batches;          /* owned: all of them */
  gsize handed;            /* batches handed over (the reading side's) */
  gsize done;              /* atomic: the number of the last batch coded */
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
      e->listed_at = c->listed->len;
      g_ptr_array_add (c->listed, e);
    }
  if (G_UNLIKELY (c->buffered > (gssize) c->max_memory))
    flush_listed (c);
}

/* @e (closed) leaves the list of encoders holding coded bytes. */
static void
unlist (TtvHistoryCoder *c, TtvHistoryEncoder *e)
{
  if (!e->listed)
    return;
  guint at = e->listed_at;
  g_ptr_array_steal_index_fast (c->listed, at);
  /* The last one took its place. */
  if (at < c->listed->len)
    ((TtvHistoryEncoder *) g_ptr_array_index (c->listed, at))->listed_at = at;
  e->listed = FALSE;
}

/* The records of the closed encoder @e, @n_recs of them, read back from
 * what the writer holds: from the file, and from its buffer the bytes not
 * yet written out (a write of the buffer and a read back of it for every
 * row that ended were most of this thread's system calls). */
static TtvHistorySeq
written_seq (const TtvHistoryWriter *w, const TtvHistoryEncoder *e, guint64 n_recs)
{
  return (TtvHistorySeq) {
    .data = w->bytes ? w->bytes->data : NULL,
    .fd = w->fd,
    .unwritten = w->fd >= 0 ? w->buf : NULL,
    .unwritten_from = w->offset - (w->fd >= 0 ? w->len : 0),
    .size = w->offset,
    .dir = ttv_history_encoder_dir (e),
    .n_blocks = ttv_history_n_blocks (n_recs),
    .n_recs = n_recs,
  };
}

/* write_row for a region of @g's size in place: reserved, then filled. */
static void
write_row_in_place (TtvHistoryCoder *c, const Job *job, TtvHistoryRowRegion *g)
{
  TtvHistoryWriter *w = c->w;
  TtvHistoryRow *row = job->row;
  ttv_history_row_region_reserve (g, w, ttv_history_encoder_dir (job->e),
                                  job->marks ? ttv_history_encoder_dir (job->marks) : NULL, row);
  /* Read back from where the reserve left the writer's bytes. */
  TtvHistorySeq seq = written_seq (w, job->e, row->n_recs);
  ttv_history_summary_write (w, &seq, job->origin, row->end, g->levels, g->n_levels);
}

/* The row of the job's closed encoders written out whole, after their
 * records: its region made in memory (the summary from its records read
 * back), then appended, so that the writer's checksum goes on in order.
 * The encoders' directories are freed with them, by their owner. */
static void
write_row (TtvHistoryCoder *c, const Job *job)
{
  TtvHistoryWriter *w = c->w;
  TtvHistoryRow *row = job->row;
  TtvHistorySeq seq = written_seq (w, job->e, row->n_recs);
  TtvHistoryRowRegion g;
  ttv_history_row_region_plan (&g, &seq, row->n_marks, job->origin, row->end);
  row->states_seen = job->e->states_seen;
  /* A region within the memory bound (8 MiB by default: a row of some
   * eight million records) is made in memory and appended; a larger one
   * is written in place, as the tail writes a row's, and the checksum is
   * then read back at the end. */
  if (g.size > c->max_memory)
    {
      write_row_in_place (c, job, &g);
      return;
    }
  g_byte_array_set_size (c->region, (guint) g.size);
  /* Zeros where nothing is written (the bins a summary does not reach),
   * as the writer's reserve gives them: the same bytes in one thread or
   * two. */
  guint8 *r = memset (c->region->data, 0, g.size);
  if (g.dir_bytes)
    memcpy (r, ttv_history_encoder_dir (job->e), g.dir_bytes);
  if (g.mark_dir_bytes)
    memcpy (r + g.dir_bytes, ttv_history_encoder_dir (job->marks), g.mark_dir_bytes);
  /* The bins at the levels' offsets from the region's start. */
  ttv_history_summary_compute (&seq, job->origin, row->end, g.levels, g.n_levels, r);
  ttv_history_writer_align (w);
  ttv_history_row_region_place (&g, w->offset, row);
  if (g.n_levels)
    memcpy (r + ttv_history_row_region_levels_at (&g), g.levels, g.n_levels * sizeof (TtvHistoryLevel));
  ttv_history_writer_append (w, r, g.size);
  /* A large row's region is not kept for the next. */
  if (g.size > (1u << 20))
    {
      g_byte_array_unref (c->region);
      c->region = g_byte_array_new ();
    }
}

/* The job's encoders closed: its row written out, the coder done with
 * them. */
static void
row_done (TtvHistoryCoder *c, const Job *job)
{
  unlist (c, job->e);
  if (job->marks)
    unlist (c, job->marks);
  if (!c->w->failed)
    write_row (c, job);
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
          const Job *job = &b->jobs[i];
          code (c, job->e, job->recs, job->n, job->finish);
          if (job->row)
            row_done (c, job);
        }
      gboolean stop = b->stop;
      /* Before the batch goes back: its rows are the reading side's
       * again once it sees this. */
      g_atomic_pointer_set (&c->done, (gsize) b->number);
      b->n_jobs = 0;
      b->stop = FALSE;
      g_async_queue_push (c->free, b);
      if (stop)
        return NULL;
    }
}

TtvHistoryCoder *
ttv_history_coder_new (TtvHistoryWriter *w, gsize max_memory, gboolean threaded)
{
  TtvHistoryCoder *c = g_new0 (TtvHistoryCoder, 1);
  c->w = w;
  c->max_memory = max_memory;
  c->listed = g_ptr_array_new ();
  c->region = g_byte_array_new ();
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
  c->filling->number = ++c->handed;
  g_async_queue_push (c->todo, g_steal_pointer (&c->filling));
}

/* The job of @e's pending records (all of them when @finish), with @row
 * and @marks to write out after it (see Job), done now or handed over. */
static void
submit (TtvHistoryCoder *c, TtvHistoryEncoder *e, gboolean finish, TtvHistoryRow *row, TtvHistoryEncoder *marks,
        gint64 origin);

void
ttv_history_coder_submit (TtvHistoryCoder *c, TtvHistoryEncoder *e, gboolean finish)
{
  submit (c, e, finish, NULL, NULL, 0);
}

void
ttv_history_coder_finish_row (TtvHistoryCoder *c, TtvHistoryEncoder *recs, TtvHistoryEncoder *marks,
                              TtvHistoryRow *row, gint64 origin)
{
  /* The marks first: the row's job writes both directories. */
  if (marks && !marks->finished)
    submit (c, marks, TRUE, NULL, NULL, 0);
  submit (c, recs, TRUE, row, marks, origin);
}

guint64
ttv_history_coder_ticket (const TtvHistoryCoder *c)
{
  /* The batch being filled (or the next) is handed over under this
   * number; a job in the batch handed over just before is done first. */
  return c->handed + 1;
}

gboolean
ttv_history_coder_done (TtvHistoryCoder *c, guint64 ticket)
{
  /* In one thread, every job is done when it is submitted. */
  return c->thread == NULL || (guint64) g_atomic_pointer_get (&c->done) >= ticket;
}

static void
submit (TtvHistoryCoder *c, TtvHistoryEncoder *e, gboolean finish, TtvHistoryRow *row, TtvHistoryEncoder *marks,
        gint64 origin)
{
  if (c->thread == NULL)
    {
      /* The records where they are, not copied. */
      code (c, e, e->pending, e->n_pending, finish);
      e->n_pending = 0;
      if (row)
        {
          Job job = { .e = e, .finish = TRUE, .row = row, .marks = marks, .origin = origin };
          row_done (c, &job);
        }
    }
  else
    {
      if (c->filling == NULL)
        c->filling = g_async_queue_pop (c->free);   /* waits while the coder is behind */
      Job *job = &c->filling->jobs[c->filling->n_jobs++];
      job->e = e;
      job->n = e->n_pending;
      job->finish = finish;
      job->row = row;
      job->marks = marks;
      job->origin = origin;
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
  g_byte_array_unref (c->region);
  g_free (c);
}
