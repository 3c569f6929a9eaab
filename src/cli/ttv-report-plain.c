/* ttv-report-plain.c: the plain report, on one thread or with its lines
 * formatted by several. */
#include "ttv-config.h"

#include "ttv-report-plain.h"
#include "ttv-report-lost.h"
#include "ttv-large-buffer.h"

/* --- The lines, one event after another ------------------------------------- */

/* What formats a plain report's lines one event after another: the
 * printer and the lost-events marks due. */
typedef struct {
  const TtvPlainReport *report;
  TtvReportPrinter *printer;    /* owned, made at the first event */
  const GArray *lost;           /* of TtvLostMark */
  guint next_lost;
  TtvTime lost_at;              /* mark next_lost's start: due when an event's time reaches it */
  GString *warnings;            /* owned */
  TtvLostWarningsFunc warned;   /* what becomes of the marks' warnings, */
  gpointer warned_data;         /* with this */
  gboolean defer;               /* the printer's lines deferred (print_run) */
} PlainLines;

static void
plain_lines_set_next_lost (PlainLines *lines, guint next)
{
  lines->next_lost = next;
  lines->lost_at = ttv_lost_marks_start_at (lines->lost, next);
}

static void
plain_lines_init (PlainLines *lines, const TtvPlainReport *report, const GArray *lost, TtvLostWarningsFunc warned,
                  gpointer warned_data)
{
  *lines = (PlainLines) { report, NULL, lost, 0, 0, g_string_new (NULL), warned, warned_data, FALSE };
  plain_lines_set_next_lost (lines, 0);
}

static void
plain_lines_clear (PlainLines *lines)
{
  g_clear_pointer (&lines->printer, ttv_report_printer_free);
  g_string_free (lines->warnings, TRUE);
}

/* The line of @ev, which @ctx just read, after the marks due before it,
 * appended to @out.  A mark is due when an event's time reaches the next
 * one's start: one comparison.  FALSE when the marks' warnings could not
 * be written. */
static inline gboolean
plain_lines_append (PlainLines *lines, TtvContext *ctx, const TtvEvent *ev, GString *out, GError **error)
{
  /* Taken after next(), as the general loop does. */
  const TtvPosition *pos = lines->report->with_position ? ttv_context_peek_event_position (ctx) : NULL;
  /* Made at the first event, as the general loop does. */
  if (G_UNLIKELY (lines->printer == NULL))
    {
      lines->printer = lines->report->new_printer (lines->report->printer_data);
      ttv_report_printer_set_deferred (lines->printer, lines->defer);
    }
  if (G_UNLIKELY (ev->time >= lines->lost_at))
    {
      /* The marks' warnings write the text out first. */
      ttv_report_printer_finish (lines->printer);
      if (!ttv_lost_marks_append_until (lines->printer, lines->lost, &lines->next_lost, ev->time, lines->report->start,
                                        out, lines->warnings, lines->warned, lines->warned_data, error))
        return FALSE;
      lines->lost_at = ttv_lost_marks_start_at (lines->lost, lines->next_lost);
    }
  ttv_report_printer_append_full (lines->printer, ev, pos, NULL, NULL, out);
  return TRUE;
}

/* --- One thread ---------------------------------------------------------------- */

/* The lines of what @ctx reads until the report's end, into @o: their
 * position tokens deferred (ttv_report_printer_set_deferred), finished
 * before @o's text is written out and when the run ends, however it ends. */
static void
print_run (PlainLines *lines, TtvContext *ctx, TtvReportOutput *o, GError **error)
{
  const TtvPlainReport *report = lines->report;
  const TtvEvent *ev;
  lines->defer = TRUE;
  if (lines->printer)
    ttv_report_printer_set_deferred (lines->printer, TRUE);
  for (guint64 left = report->count; left > 0 && (ev = ttv_context_next (ctx, error)) != NULL && ev->time <= report->end;
       left--)
    {
      if (!plain_lines_append (lines, ctx, ev, o->buf, error))
        break;
      if (G_UNLIKELY (o->buf->len >= TTV_REPORT_OUTPUT_FLUSH_BYTES))
        {
          ttv_report_printer_finish (lines->printer);
          if (!ttv_report_output_flush (o, FALSE, error))
            break;
        }
    }
  if (lines->printer)
    ttv_report_printer_set_deferred (lines->printer, FALSE);
  lines->defer = FALSE;
}

void
ttv_plain_report_print (const TtvPlainReport *report, TtvContext *ctx, TtvReportOutput *o, GError **error)
{
  g_autoptr (GArray) lost = ttv_lost_marks_collect (report->ts);
  PlainLines lines;
  plain_lines_init (&lines, report, lost, ttv_report_output_warn, o);
  print_run (&lines, ctx, o, error);
  plain_lines_clear (&lines);
}

static gboolean
seek_report_start (TtvContext *ctx, const TtvPlainReport *report, GError **error)
{
  if (report->start != TTV_TIME_MIN)
    return ttv_context_seek_time (ctx, report->start, error);
  return ttv_context_seek_begin (ctx, error);
}

/* The report on one thread from the event at @after, printed last (NULL:
 * from the report's start): that event is read again to give the printer
 * what the next line needs (the babeltrace delta). */
static void
print_from (const TtvPlainReport *report, const TtvPosition *after, TtvReportOutput *o, GError **error)
{
  g_autoptr (TtvContext) ctx = ttv_context_new (report->ts, error);
  if (ctx == NULL)
    return;
  g_autoptr (GArray) lost = ttv_lost_marks_collect (report->ts);
  PlainLines lines;
  plain_lines_init (&lines, report, lost, ttv_report_output_warn, o);
  const TtvEvent *ev;
  if (after == NULL)
    {
      if (seek_report_start (ctx, report, error))
        print_run (&lines, ctx, o, error);
    }
  else if (ttv_context_seek_position (ctx, after, error) && (ev = ttv_context_next (ctx, error)) != NULL)
    {
      g_autoptr (GString) scratch = g_string_new (NULL);
      const TtvPosition *pos = report->with_position ? ttv_context_peek_event_position (ctx) : NULL;
      lines.printer = report->new_printer (report->printer_data);
      ttv_report_printer_append_full (lines.printer, ev, pos, NULL, NULL, scratch);
      plain_lines_set_next_lost (&lines, ttv_lost_marks_after (lost, ev->time));
      print_run (&lines, ctx, o, error);
    }
  plain_lines_clear (&lines);
}

/* --- Several threads (issue 15) ------------------------------------------------
 *
 * Formatting is most of a plain report's time, so worker threads format
 * chunks of it while this thread writes them in order.  The chunks are cut
 * by time from the tracefiles' block index (never by reading the trace);
 * each worker seeks its own context to its chunk's start (contexts on one
 * traceset may be read from different threads: the viewer's history pass
 * does) and formats with its own printer.
 *
 * What one thread would print is kept exactly:
 * - a chunk's first line needs the time of the event before it (the
 *   babeltrace delta) and the lost-events marks due since: the worker of the
 *   chunk before reads that event anyway (it stops there), so it formats it
 *   with its printer, as the chunk's "edge", and the writer prints the edge
 *   instead of the chunk's own first line;
 * - the event that stopped a chunk must be the first of the next one: the
 *   writer compares their positions; on any difference, and on any read
 *   error, it stops the workers and reads on alone from the last event
 *   written, as one thread does (so errors and their place are one
 *   thread's).
 * Memory: a chunk's worker hands its text over in pieces; only the chunk
 * being written may queue more than CHUNK_QUEUE_BYTES, and no more chunks
 * past it are started than there are threads: about (threads + 1) ×
 * CHUNK_QUEUE_BYTES at most, whatever the trace's size. */

/* The pieces a worker hands over (it hands one when it is this big). */
#define PIECE_BYTES (1u << 20)
/* A chunk not yet being written waits when it holds this much: more than
 * a chunk's babeltrace text, half its jsonl text (a worker then waits for
 * the one before halfway through). */
#define CHUNK_QUEUE_BYTES (12u << 20)
/* Trace bytes of a chunk: a seek into a chunk reads the other streams'
 * packets up to its time (half a packet each, the cost of a thousand
 * lines or more for LTTng-UST's large packets), so not too small (the
 * environment's TTV_REPORT_CHUNK_BYTES: the tests' small chunks;
 * TTV_REPORT_CHUNK_STATS: say on stderr how the report went, for the tests). */
#define CHUNK_TRACE_BYTES (2u << 20)
/* Block start times sampled per tracefile to cut the chunks. */
#define CUT_SAMPLES_PER_TRACEFILE 4096

/* A warning for stderr, printed after the bytes of the piece before it. */
typedef struct {
  gsize offset;
  char *text;
} Note;

typedef struct {
  GString *out;
  GArray *notes;               /* of Note */
  TtvPosition *last;           /* owned, may be NULL: the position of its last event */
} Piece;

static void
note_clear (gpointer data)
{
  g_free (((Note *) data)->text);
}

/* A piece with room for @size bytes, its pages there: as many fresh
 * pieces as a chunk's queue holds (12 MiB) are taken before the first is
 * given back, and a page fault each cost a tenth of the CPU time of
 * `ttv-report --threads 2` on a virtual machine (bench/README.md). */
static Piece *
piece_new (gsize size)
{
  Piece *piece = g_new0 (Piece, 1);
  piece->out = g_string_sized_new (size);
  ttv_large_buffer_populate (piece->out->str, size);
  piece->notes = g_array_new (FALSE, FALSE, sizeof (Note));
  g_array_set_clear_func (piece->notes, note_clear);
  return piece;
}

static void
piece_free (Piece *piece)
{
  if (piece == NULL)
    return;
  g_string_free (piece->out, TRUE);
  g_array_unref (piece->notes);
  g_clear_pointer (&piece->last, ttv_position_free);
  g_free (piece);
}

typedef struct {
  TtvTime begin;               /* its events: from the first at or after it (chunk 0: the report's) */
  GQueue pieces;               /* of Piece *, handed over, not yet written */
  gsize queued_bytes;
  guint64 n_events;
  TtvPosition *first;          /* owned: its first event's position, once it has one */
  gsize first_line_end;        /* where that event's line ends in its first piece */
  Piece *edge;                 /* owned, may be NULL: the marks and line of the event after it */
  TtvPosition *stop;           /* owned, NULL: no event follows it in the report */
  GError *error;               /* owned: reading failed */
  gboolean done;
} Chunk;

typedef struct {
  const TtvPlainReport *report;
  GArray *lost;                /* of TtvLostMark, owned */
  Chunk *chunks;
  guint n_chunks;
  GMutex lock;
  GCond changed;               /* any of the three below, or a chunk's queue */
  guint next_claim;            /* the next chunk a worker takes */
  guint writing;               /* the chunk being written */
  guint max_ahead;             /* chunks past it that may be started */
  gboolean cancel;
  GPtrArray *spare;            /* of Piece *, owned: written, to fill again (fresh ones cost page faults) */
} Pool;

/* What one worker keeps from chunk to chunk. */
typedef struct {
  Pool *pool;
  TtvContext *ctx;             /* owned */
  PlainLines lines;            /* its printer made at its first event */
} Worker;

/* The block start times of the tracefiles in (@start, @end] (a sample of
 * each tracefile's blocks), each with the trace bytes from it to the next
 * sampled one: where chunks may begin, and what each holds. */
typedef struct {
  TtvTime time;
  guint64 bytes;
} CutPoint;

static gint
compare_cut_points (gconstpointer a, gconstpointer b)
{
  const CutPoint *x = a, *y = b;
  return x->time < y->time ? -1 : x->time > y->time;
}

static GArray *
sample_block_starts (TtvTraceset *ts, TtvTime start, TtvTime end)
{
  GArray *points = g_array_new (FALSE, FALSE, sizeof (CutPoint));
  for (guint i = 0; i < ttv_traceset_get_n_tracefiles (ts); i++)
    {
      const TtvTracefile *tf = ttv_traceset_get_tracefile (ts, i);
      const TtvTrace *t = tf->trace;
      if (t->format->block_start == NULL || tf->n_blocks == 0)
        continue;
      guint64 step = MAX (1, tf->n_blocks / CUT_SAMPLES_PER_TRACEFILE);
      guint64 bytes = tf->size / tf->n_blocks * step;
      for (guint64 b = 0; b < tf->n_blocks; b += step)
        {
          TtvTime begin = t->format->block_start (tf, b);
          if (begin == TTV_TIME_MIN)
            continue;           /* a packet without times */
          CutPoint p = { ttv_clock_correction_apply (&t->clock, begin), bytes };
          if (p.time > start && p.time <= end)
            g_array_append_val (points, p);
        }
    }
  g_array_sort (points, compare_cut_points);
  return points;
}

/* The chunks' begin times: the report's start, then a block start each
 * time @chunk_bytes of trace bytes were passed. */
static GArray *
cut_chunks (TtvTraceset *ts, TtvTime start, TtvTime end, guint64 chunk_bytes)
{
  g_autoptr (GArray) points = sample_block_starts (ts, start, end);
  GArray *begins = g_array_new (FALSE, FALSE, sizeof (TtvTime));
  guint64 bytes = 0;
  g_array_append_val (begins, start);
  for (guint i = 0; i < points->len; i++)
    {
      const CutPoint *p = &g_array_index (points, CutPoint, i);
      if (bytes >= chunk_bytes && p->time > g_array_index (begins, TtvTime, begins->len - 1))
        {
          g_array_append_val (begins, p->time);
          bytes = 0;
        }
      bytes += p->bytes;
    }
  return begins;
}

static guint64
chunk_trace_bytes (void)
{
  const char *env = g_getenv ("TTV_REPORT_CHUNK_BYTES");
  guint64 n = env ? g_ascii_strtoull (env, NULL, 10) : 0;
  return n > 0 ? n : CHUNK_TRACE_BYTES;
}

/* The warnings of a mark as a note of @data, the Piece they go with:
 * printed after the lines before them. */
static gboolean
note_in_piece (GString *warnings, gpointer data, GError **error)
{
  Piece *piece = data;
  Note note = { piece->out->len, g_strdup (warnings->str) };
  g_array_append_val (piece->notes, note);
  g_string_truncate (warnings, 0);
  return TRUE;
}

/* An empty piece to fill. */
static Piece *
pool_get_piece (Pool *pool)
{
  g_mutex_lock (&pool->lock);
  Piece *piece = pool->spare->len ? g_ptr_array_steal_index_fast (pool->spare, pool->spare->len - 1) : NULL;
  g_mutex_unlock (&pool->lock);
  return piece ? piece : piece_new (PIECE_BYTES + PIECE_BYTES / 8);
}

/* @piece (taken), written, to fill again.  All are kept: the queues
 * bound how many there are, and memory given back to the system costs
 * page faults when taken again. */
static void
pool_give_back_piece (Pool *pool, Piece *piece)
{
  g_string_truncate (piece->out, 0);
  g_array_set_size (piece->notes, 0);
  g_clear_pointer (&piece->last, ttv_position_free);
  g_mutex_lock (&pool->lock);
  g_ptr_array_add (pool->spare, piece);
  g_mutex_unlock (&pool->lock);
}

/* Hands @piece (taken) over to the writer; waits while chunk @k is not
 * the one being written and holds enough.  FALSE when the report stops. */
static gboolean
chunk_hand_over (Pool *pool, guint k, Piece *piece)
{
  Chunk *c = &pool->chunks[k];
  g_mutex_lock (&pool->lock);
  while (!pool->cancel && pool->writing != k && c->queued_bytes >= CHUNK_QUEUE_BYTES)
    g_cond_wait (&pool->changed, &pool->lock);
  gboolean go_on = !pool->cancel;
  if (go_on)
    {
      c->queued_bytes += piece->out->len;
      g_queue_push_tail (&c->pieces, piece);
      g_cond_broadcast (&pool->changed);
    }
  g_mutex_unlock (&pool->lock);
  if (!go_on)
    piece_free (piece);
  return go_on;
}

static void
chunk_finish (Pool *pool, guint k, Piece *last, GError *error)
{
  Chunk *c = &pool->chunks[k];
  g_mutex_lock (&pool->lock);
  if (last && last->out->len)
    {
      c->queued_bytes += last->out->len;
      g_queue_push_tail (&c->pieces, last);
      last = NULL;
    }
  c->error = error;
  c->done = TRUE;
  g_cond_broadcast (&pool->changed);
  g_mutex_unlock (&pool->lock);
  if (last)
    pool_give_back_piece (pool, last);
}

/* Formats chunk @k: its events from its begin to the next chunk's, then,
 * as its edge, the event that stopped it. */
static void
worker_run_chunk (Worker *w, guint k)
{
  Pool *pool = w->pool;
  const TtvPlainReport *report = pool->report;
  Chunk *c = &pool->chunks[k];
  PlainLines *lines = &w->lines;
  GError *error = NULL;
  gboolean last_chunk = k + 1 == pool->n_chunks;
  TtvTime limit = last_chunk ? TTV_TIME_MAX : pool->chunks[k + 1].begin;
  Piece *piece = pool_get_piece (pool);
  const TtvEvent *ev = NULL;

  plain_lines_set_next_lost (lines, 0);
  lines->warned_data = piece;
  gboolean ok = k == 0 ? seek_report_start (w->ctx, report, &error) : ttv_context_seek_time (w->ctx, c->begin, &error);
  while (ok && (ev = ttv_context_next (w->ctx, &error)) != NULL && ev->time <= report->end
         && (last_chunk || ev->time < limit))
    {
      /* The marks due before a later chunk's first event are its edge's. */
      if (G_UNLIKELY (c->n_events == 0 && k > 0))
        plain_lines_set_next_lost (lines, ttv_lost_marks_after (pool->lost, ev->time));
      plain_lines_append (lines, w->ctx, ev, piece->out, NULL);   /* notes cannot fail */
      if (G_UNLIKELY (++c->n_events == 1))
        {
          c->first = ttv_context_get_event_position (w->ctx);
          c->first_line_end = piece->out->len;
        }
      if (G_UNLIKELY (piece->out->len >= PIECE_BYTES))
        {
          piece->last = ttv_context_get_event_position (w->ctx);
          if (!chunk_hand_over (pool, k, piece))
            {
              chunk_finish (pool, k, NULL, NULL);
              return;
            }
          piece = pool_get_piece (pool);
          lines->warned_data = piece;
        }
    }
  if (error)
    {
      /* The writer reads on alone from the last piece handed over. */
      chunk_finish (pool, k, NULL, error);
      pool_give_back_piece (pool, piece);
      return;
    }
  if (ev != NULL && ev->time <= report->end)
    {
      c->stop = ttv_context_get_event_position (w->ctx);
      /* Only the first chunk's printer and marks are right without events
       * of its own before. */
      if (k == 0 || c->n_events > 0)
        {
          c->edge = piece_new (256);
          lines->warned_data = c->edge;
          plain_lines_append (lines, w->ctx, ev, c->edge->out, NULL);
        }
    }
  chunk_finish (pool, k, piece, NULL);
}

static gpointer
worker_main (gpointer data)
{
  Worker *w = data;
  Pool *pool = w->pool;
  for (;;)
    {
      g_mutex_lock (&pool->lock);
      while (!pool->cancel && pool->next_claim < pool->n_chunks
             && pool->next_claim > pool->writing + pool->max_ahead)
        g_cond_wait (&pool->changed, &pool->lock);
      guint k = pool->next_claim;
      gboolean go_on = !pool->cancel && k < pool->n_chunks;
      if (go_on)
        pool->next_claim++;
      g_mutex_unlock (&pool->lock);
      if (!go_on)
        break;
      worker_run_chunk (w, k);
    }
  return NULL;
}

/* @piece from byte @from on, its notes on stderr after the lines before them. */
static gboolean
write_piece (TtvReportOutput *o, const Piece *piece, gsize from, GError **error)
{
  for (guint i = 0; i < piece->notes->len; i++)
    {
      const Note *note = &g_array_index (piece->notes, Note, i);
      if (note->offset < from)
        continue;
      if (!ttv_report_output_write (o, piece->out->str + from, note->offset - from, error) || !ttv_report_output_flush (o, TRUE, error))
        return FALSE;
      fflush (o->out);
      fputs (note->text, stderr);
      from = note->offset;
    }
  return ttv_report_output_write (o, piece->out->str + from, piece->out->len - from, error);
}

static gboolean
same_position (const TtvPosition *a, const TtvPosition *b)
{
  return a == NULL || b == NULL ? a == b : ttv_position_equal (a, b);
}

/* The next piece of chunk @k to write, NULL once it is done and written. */
static Piece *
chunk_take_piece (Pool *pool, guint k)
{
  Chunk *c = &pool->chunks[k];
  g_mutex_lock (&pool->lock);
  while (g_queue_is_empty (&c->pieces) && !c->done)
    g_cond_wait (&pool->changed, &pool->lock);
  Piece *piece = g_queue_pop_head (&c->pieces);
  if (piece)
    {
      c->queued_bytes -= piece->out->len;
      g_cond_broadcast (&pool->changed);
    }
  g_mutex_unlock (&pool->lock);
  return piece;
}

static void
pool_set_writing (Pool *pool, guint k)
{
  g_mutex_lock (&pool->lock);
  pool->writing = k;
  g_cond_broadcast (&pool->changed);
  g_mutex_unlock (&pool->lock);
}

typedef enum {
  WRITE_DONE,          /* everything is written */
  WRITE_FAILED,        /* writing failed: the error is set */
  WRITE_READ_ON,       /* what is left is read on by one thread from the event given */
} WriteEnd;

/* Writes the chunks in order, each after the edge of the one before (the
 * last that had events, or chunk 0).  On WRITE_READ_ON, *@read_on is the
 * position of the last event written (NULL: none was). */
static WriteEnd
write_chunks (Pool *pool, TtvReportOutput *o, TtvPosition **read_on, GError **error)
{
  g_autoptr (TtvPosition) written = NULL;   /* the last event written, when a piece ended there */
  g_autoptr (TtvPosition) stop = NULL;      /* the event after the last chunk with events */
  Piece *edge = NULL;                       /* its line */
  WriteEnd end = WRITE_DONE;
  for (guint k = 0; k < pool->n_chunks; k++)
    {
      Chunk *c = &pool->chunks[k];
      gboolean first_piece = TRUE;
      Piece *piece;
      pool_set_writing (pool, k);
      while ((piece = chunk_take_piece (pool, k)) != NULL)
        {
          gsize from = 0;
          if (first_piece && k > 0)
            {
              if (!same_position (stop, c->first))
                {
                  piece_free (piece);
                  goto read_on_after_edge;
                }
              if (!write_piece (o, edge, 0, error))
                goto failed;
              from = c->first_line_end;
            }
          first_piece = FALSE;
          gboolean ok = write_piece (o, piece, from, error);
          g_clear_pointer (&written, ttv_position_free);
          written = g_steal_pointer (&piece->last);
          pool_give_back_piece (pool, piece);
          if (!ok)
            goto failed;
        }
      if (c->error)
        {
          if (first_piece && k > 0)
            goto read_on_after_edge;
          *read_on = g_steal_pointer (&written);
          end = WRITE_READ_ON;
          goto out;
        }
      if (first_piece && k > 0)
        {
          /* No event of its own: it must have stopped where the one before did. */
          if (!same_position (stop, c->stop))
            goto read_on_after_edge;
          continue;
        }
      g_clear_pointer (&written, ttv_position_free);
      g_clear_pointer (&stop, ttv_position_free);
      piece_free (edge);
      stop = g_steal_pointer (&c->stop);
      edge = g_steal_pointer (&c->edge);
    }
  goto out;

read_on_after_edge:
  /* One thread would have printed the edge next, and then read on. */
  if (stop != NULL)
    {
      if (!write_piece (o, edge, 0, error))
        goto failed;
      *read_on = g_steal_pointer (&stop);
      end = WRITE_READ_ON;
    }
  goto out;

failed:
  end = WRITE_FAILED;
out:
  piece_free (edge);
  return end;
}

static void
chunk_clear (Chunk *c)
{
  g_queue_clear_full (&c->pieces, (GDestroyNotify) piece_free);
  g_clear_pointer (&c->first, ttv_position_free);
  g_clear_pointer (&c->stop, ttv_position_free);
  g_clear_pointer (&c->edge, piece_free);
  g_clear_error (&c->error);
}

/* A pool of chunks that begin at @begins, no more started past the one
 * being written than @max_ahead. */
static void
pool_init (Pool *pool, const TtvPlainReport *report, const GArray *begins, guint max_ahead)
{
  *pool = (Pool) { report, ttv_lost_marks_collect (report->ts) };
  pool->n_chunks = begins->len;
  pool->chunks = g_new0 (Chunk, pool->n_chunks);
  pool->max_ahead = max_ahead;
  pool->spare = g_ptr_array_new_with_free_func ((GDestroyNotify) piece_free);
  for (guint k = 0; k < pool->n_chunks; k++)
    {
      g_queue_init (&pool->chunks[k].pieces);
      pool->chunks[k].begin = g_array_index (begins, TtvTime, k);
    }
  g_mutex_init (&pool->lock);
  g_cond_init (&pool->changed);
}

static void
pool_clear (Pool *pool)
{
  for (guint k = 0; k < pool->n_chunks; k++)
    chunk_clear (&pool->chunks[k]);
  g_free (pool->chunks);
  g_array_unref (pool->lost);
  g_ptr_array_unref (pool->spare);
  g_mutex_clear (&pool->lock);
  g_cond_clear (&pool->changed);
}

/* Stops the workers: those waiting return, those formatting return at
 * their next piece. */
static void
pool_cancel (Pool *pool)
{
  g_mutex_lock (&pool->lock);
  pool->cancel = TRUE;
  g_cond_broadcast (&pool->changed);
  g_mutex_unlock (&pool->lock);
}

gboolean
ttv_plain_report_print_threads (const TtvPlainReport *report, guint n_threads, TtvReportOutput *o, GError **error)
{
  g_return_val_if_fail (report->count == G_MAXUINT64, FALSE);
  g_autoptr (GArray) begins = cut_chunks (report->ts, report->start, report->end, chunk_trace_bytes ());
  if (begins->len < 2)
    return FALSE;

  Pool pool;
  pool_init (&pool, report, begins, n_threads);
  n_threads = MIN (n_threads, pool.n_chunks);
  Worker *workers = g_new0 (Worker, n_threads);
  GThread **threads = g_new0 (GThread *, n_threads);
  guint started = 0;
  for (; started < n_threads; started++)
    {
      Worker *w = &workers[started];
      w->pool = &pool;
      plain_lines_init (&w->lines, report, pool.lost, note_in_piece, NULL);
      if ((w->ctx = ttv_context_new (report->ts, NULL)) == NULL)
        {
          plain_lines_clear (&w->lines);
          break;
        }
      threads[started] = g_thread_new ("ttv-report", worker_main, w);
    }

  g_autoptr (TtvPosition) read_on = NULL;
  /* Without a worker, one thread reads from the start. */
  WriteEnd how = started > 0 ? write_chunks (&pool, o, &read_on, error) : WRITE_READ_ON;

  pool_cancel (&pool);
  for (guint i = 0; i < started; i++)
    {
      g_thread_join (threads[i]);
      ttv_context_free (workers[i].ctx);
      plain_lines_clear (&workers[i].lines);
    }
  g_free (threads);
  g_free (workers);
  pool_clear (&pool);

  /* For the tests: whether the chunks were cut and written as they were. */
  if (g_getenv ("TTV_REPORT_CHUNK_STATS"))
    g_printerr ("ttv-report: %u chunks on %u threads, %s\n", pool.n_chunks, started,
                how == WRITE_READ_ON ? "then read on alone" : "all written");
  if (how == WRITE_READ_ON)
    print_from (report, read_on, o, error);
  return TRUE;
}
