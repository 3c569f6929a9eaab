/* ttv-history-builder.c: building the state history in one read of
 * a traceset (an observer on the state), written out to its cache file (or
 * memory) while it is built so that memory stays bounded: the records as
 * they come, a row that ends whole when it ends (its directories and
 * summary); then those of the rows alive at the end, and the row table.
 * Used by
 * ttv_history_build's callers: the history pass, ttv-bench, tests. */
#include "ttv-history-private.h"
#include "ttv-history-coding-thread.h"
#include "ttv-context.h"
#include "ttv-error.h"
#include "ttv-kernel-model.h"
#include "ttv-state-private.h"

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#define MAX_CPU 4096
/* Processes one event changes: a few (a switch, a fork, a wakeup). */
#define MAX_DIRTY 16
/* What the builder buffers by default before writing out (coded blocks). */
#define DEFAULT_MAX_MEMORY ((gsize) 8 << 20)

/* Threads a build uses: $TTV_HISTORY_THREADS, else 2 when there are two
 * cores (reading, and coding or summaries). */
static guint
n_threads (void)
{
  const char *env = g_getenv ("TTV_HISTORY_THREADS");
  guint n = env ? (guint) g_ascii_strtoull (env, NULL, 10) : MIN (g_get_num_processors (), 2);
  return CLAMP (n, 1, 2);
}

/* A row's current state and aux side by side: row_set () compares both
 * with one test, after every event. */
typedef union {
  struct {
    guint32 state;
    guint32 aux;
  };
  guint64 word;
} RowStateAux;

/* The state of a row without a current interval: no row takes it (a
 * process's state word holds 20 bits, a CPU's 8), so row_set () always
 * sees a change there. */
#define ROW_NO_STATE G_MAXUINT32

typedef struct {
  /* What every event reads or writes of its rows, together (and, in a row
   * the slab places on a line's start, in one line): the current interval,
   * the counts, the task's names; then the records' encoder, whose fields
   * of the reading thread come first. */
  /* The current (open) interval, while there is one (row_has_cur);
   * else cur.state is ROW_NO_STATE and cur_start G_MAXINT64, so that the
   * usual paths need no test of their own for it (row_clear_cur). */
  gint64 cur_start;
  RowStateAux cur;
  guint32 cur_count;
  gboolean open;
  guint64 n_events;
  gint64 cpu_time;
  TtvHistoryRowKind kind;
  guint32 tgid;
  guint32 ppid;
  GQuark name;
  TtvHistoryEncoder recs;     /* coded records, written out as they fill */
  guint machine;
  guint32 id;
  gint cpu;
  gboolean dead;
  gint64 birth;
  gint64 end;
  TtvHistoryEncoder *marks;   /* in the builder's slab, or NULL */
  guint index;             /* in Builder.rows */
} BRow;

/* A row that ended while the trace is read, its entry in the row table
 * made (Builder.entries) and its records handed to the coder to write out
 * with it: its memory goes back to the slab once the coder is done with
 * it (@ticket, ttv_history_coder_done). */
typedef struct {
  BRow *row;
  guint64 ticket;
} RetiredRow;

typedef struct {
  BRow *row;
  const TtvProcessState *p;
} Dirty;

/* A CPU's rows, and the row of the task last seen running there (or
 * named by its last event): while @p is set, @row is its open row and
 * @pid its pid.  A row that closes is forgotten at once
 * (forget_cached_row), so that a hit needs no other test. */
typedef struct {
  const TtvProcessState *p;
  BRow *row;               /* NULL with @p */
  guint32 pid;
  BRow *cpu_row;
  BRow *idle_row;
} CpuCache;

/* Resources whose id is below this are looked up without hashing: a
 * resource's event comes about once every five events. */
#define RESOURCE_SMALL 1024

/* The rows of one machine of the traceset, by what names them there
 * (docs/multi-machine.md): pid 5 of one machine is not pid 5 of another. */
typedef struct {
  guint id;                /* its number in the traceset */
  gint64 start;            /* its first trace's start (the origin when there is one machine) */
  gint64 last;             /* time of its last event */
  GHashTable *processes;   /* pid -> BRow * (open lives, pid >= PID_PAGES << PID_PAGE_BITS) */
  BRow ***pid_pages;       /* the others: pages of BRow *, owned */
  guint n_pid_pages;
  /* IRQs, soft IRQs and block devices: id -> BRow *, a direct table for
   * the small ids (IRQ numbers, vectors), the hash table beyond (block
   * devices' ids carry their major number in the high bits). */
  BRow *resources_small[TTV_HISTORY_ROW_N_KINDS][RESOURCE_SMALL];
  GHashTable *resources[TTV_HISTORY_ROW_N_KINDS];
  CpuCache *cpus;          /* MAX_CPU */
  gint n_cpus;             /* highest CPU seen + 1 */
  gint n_cached;           /* highest CPU whose cache was set + 1 */
} BMachine;

typedef struct {
  TtvState *state;         /* weak */
  gint64 origin;
  GPtrArray *rows;         /* of BRow * in @slab, their encoders owned: open, or not yet retired */
  TtvHistorySlab slab;     /* the rows, their marks' encoders, the strings, the ended rows' entries */
  /* The row table's entries (TtvHistoryRow * in @slab): of the rows that
   * ended while the trace was read (all that the build keeps of them once
   * the coder has written them out), then, in the tail, of the others; and
   * the rows waiting for the coder to be done with them (RetiredRow,
   * oldest first). */
  GPtrArray *entries;
  GArray *retired;
  GPtrArray *machines;     /* of BMachine *, owned, by number */
  BMachine *m;             /* the state's selected machine (weak) */
  /* m->id, m->start and m->cpus, read by every callback and event. */
  guint m_id;
  gint64 m_start;
  CpuCache *m_cpus;
  Dirty dirty[MAX_DIRTY];  /* processes an event changed */
  guint n_dirty;
  gint event_cpu;
  /* Where the representation goes, and what codes records into it
   * (written out beyond @max_memory bytes held). */
  TtvHistoryWriter w;
  gsize max_memory;
  TtvHistoryCoder *coder;     /* owned, while the trace is read */
  gboolean reading;        /* rows closed now end before the trace does */
  guint64 fingerprint_offset;
  guint64 fingerprint_size;
  /* Strings of the representation. */
  GPtrArray *strings;      /* of char * in @slab */
  GHashTable *string_index; /* char * (in strings) -> index + 1 */
  GHashTable *quark_index; /* GQuark -> index + 1 (large quarks) */
  GArray *quark_small;     /* of guint32: index + 1 by quark, for quarks < QUARK_SMALL */
} Builder;

/* Live processes by pid: a direct table of pages for the usual pids, the
 * hash table beyond (a lookup happens for many events). */
#define PID_PAGE_BITS 12
#define PID_PAGES 4096
#define QUARK_SMALL (1u << 24)

static BMachine *
machine_new (guint id, gint64 start)
{
  BMachine *m = g_new0 (BMachine, 1);
  m->id = id;
  m->start = start;
  m->last = start;
  m->processes = g_hash_table_new (g_direct_hash, g_direct_equal);
  for (guint k = TTV_HISTORY_ROW_IRQ; k < TTV_HISTORY_ROW_N_KINDS; k++)
    m->resources[k] = g_hash_table_new (g_direct_hash, g_direct_equal);
  m->cpus = g_new0 (CpuCache, MAX_CPU);
  return m;
}

static void
machine_free (BMachine *m)
{
  g_hash_table_unref (m->processes);
  for (guint i = 0; i < m->n_pid_pages; i++)
    g_free (m->pid_pages[i]);
  g_free (m->pid_pages);
  for (guint k = 0; k < TTV_HISTORY_ROW_N_KINDS; k++)
    if (m->resources[k])
      g_hash_table_unref (m->resources[k]);
  g_free (m->cpus);
  g_free (m);
}

/* The machine @id (created, starting at the origin, if the traceset did
 * not announce it). */
static BMachine *
get_machine (Builder *b, guint id)
{
  while (b->machines->len <= id)
    g_ptr_array_add (b->machines, machine_new (b->machines->len, b->origin));
  return g_ptr_array_index (b->machines, id);
}

/* The rows are the machine @id's from now on.  Out of line: rare (a
 * change of machine), and inline it made every observer callback save
 * registers. */
static G_NO_INLINE void
select_machine (Builder *b, guint id)
{
  b->m = get_machine (b, id);
  b->m_id = b->m->id;
  b->m_start = b->m->start;
  b->m_cpus = b->m->cpus;
}

/* The machine the state selected, read from its event head
 * (ttv-state-private.h), not through ttv_state_get_machine (): a call there
 * made each observer callback save and restore registers, several times
 * an event. */
static inline guint
selected_machine (const Builder *b)
{
  return ((const TtvStateEventHead *) b->state)->machine;
}

/* Follows the state's selection: called first by every observer callback
 * (the kernel model selects each event's machine before applying it). */
static inline void
follow_machine (Builder *b)
{
  guint k = selected_machine (b);
  if (G_UNLIKELY (k != b->m_id))
    select_machine (b, k);
}

/* The live process @pid beyond the pages (out of line: rare, and a call
 * inline would make its callers save registers). */
static G_NO_INLINE BRow *
pid_lookup_large (BMachine *m, guint32 pid)
{
  return g_hash_table_lookup (m->processes, GUINT_TO_POINTER (pid));
}

static inline BRow *
pid_lookup (Builder *b, guint32 pid)
{
  BMachine *m = b->m;
  guint32 page = pid >> PID_PAGE_BITS;
  if (G_LIKELY (page < PID_PAGES))
    return page < m->n_pid_pages && m->pid_pages[page] ? m->pid_pages[page][pid & ((1u << PID_PAGE_BITS) - 1)]
                                                      : NULL;
  return pid_lookup_large (m, pid);
}

static void
pid_set (Builder *b, guint32 pid, BRow *r)
{
  BMachine *m = b->m;
  guint32 page = pid >> PID_PAGE_BITS;
  if (page >= PID_PAGES)
    {
      if (r)
        g_hash_table_insert (m->processes, GUINT_TO_POINTER (pid), r);
      else
        g_hash_table_remove (m->processes, GUINT_TO_POINTER (pid));
      return;
    }
  if (page >= m->n_pid_pages)
    {
      if (r == NULL)
        return;
      m->pid_pages = g_renew (BRow **, m->pid_pages, page + 1);
      memset (m->pid_pages + m->n_pid_pages, 0, (page + 1 - m->n_pid_pages) * sizeof (BRow **));
      m->n_pid_pages = page + 1;
    }
  if (m->pid_pages[page] == NULL)
    {
      if (r == NULL)
        return;
      m->pid_pages[page] = g_new0 (BRow *, 1u << PID_PAGE_BITS);
    }
  m->pid_pages[page][pid & ((1u << PID_PAGE_BITS) - 1)] = r;
}

static inline BRow *
resource_lookup (BMachine *m, TtvHistoryRowKind kind, guint32 id)
{
  if (G_LIKELY (id < RESOURCE_SMALL))
    return m->resources_small[kind][id];
  return g_hash_table_lookup (m->resources[kind], GUINT_TO_POINTER (id));
}

static void
resource_set (BMachine *m, TtvHistoryRowKind kind, guint32 id, BRow *r)
{
  if (id < RESOURCE_SMALL)
    m->resources_small[kind][id] = r;
  else
    g_hash_table_insert (m->resources[kind], GUINT_TO_POINTER (id), r);
}

/* Rows of a machine begin no earlier than its traces (the origin when
 * there is one machine): a machine is not traced before. */
static gint64
clamp_time (Builder *b, TtvTime t)
{
  return t < b->m_start ? b->m_start : t;
}

static inline gboolean
row_has_cur (const BRow *r)
{
  return r->cur.state != ROW_NO_STATE;
}

/* The row has no current interval (see BRow). */
static void
row_clear_cur (BRow *r)
{
  r->cur_start = G_MAXINT64;
  r->cur.state = ROW_NO_STATE;
  r->cur.aux = 0;
}

/* What a row owns outside the slab. */
static void
brow_clear (BRow *r)
{
  if (r == NULL)
    return;
  ttv_history_encoder_clear (&r->recs);
  if (r->marks)
    ttv_history_encoder_clear (r->marks);
}

static BRow *
new_row (Builder *b, TtvHistoryRowKind kind, guint32 id, gint64 t)
{
  BRow *r = ttv_history_slab_alloc0 (&b->slab, sizeof (BRow));
  r->kind = kind;
  r->machine = b->m->id;
  r->id = id;
  r->cpu = -1;
  r->ppid = TTV_PID_NONE;
  r->birth = t;
  r->end = t;
  r->open = TRUE;
  row_clear_cur (r);
  ttv_history_encoder_init (&r->recs);
  r->index = b->rows->len;
  g_ptr_array_add (b->rows, r);
  return r;
}

static guint32 intern_quark (Builder *b, GQuark q);

/* Adds the record from @start of @word (ttv_history_pending_word) with
 * @count events to @e; a full block goes to the coder when the next
 * record comes (until then the last record may still be continued). */
static inline void
push_rec (Builder *b, TtvHistoryEncoder *e, gint64 start, guint64 word, guint32 count)
{
  if (G_UNLIKELY (e->n_pending == TTV_HISTORY_BLOCK))
    ttv_history_coder_submit (b->coder, e, FALSE);
  ttv_history_encoder_add_word (e, start, word, count);
}

static void
finish_encoder (Builder *b, TtvHistoryEncoder *e)
{
  if (!e->finished)
    ttv_history_coder_submit (b->coder, e, TRUE);
}

/* Records hold string indices, not quarks (quarks differ between runs). */
static inline guint32
stored_aux (Builder *b, BRow *r, guint32 state, guint32 aux)
{
  if (r->kind == TTV_HISTORY_ROW_PROCESS && ((state >> 4) & 0xf) == TTV_MODE_SYSCALL)
    return intern_quark (b, aux);
  return aux;
}

/* The record word (ttv_history_pending_word) of a row's @state, its aux
 * @stored as stored_aux () gives it.  A row's state word holds the key in
 * its low 8 bits and the CPU + 1 in the next 12 (eval_process, eval_cpu),
 * where the record word has them. */
static inline guint64
rec_word (guint32 state, guint32 stored)
{
  return (guint64) (state & 0xfffff) | (guint64) stored << 32;
}

/* The current interval ends: it becomes a record (the last pending one:
 * blocks go to the coder only when the next record comes).  Inline: it
 * comes about twice an event, and a call saves and restores half the
 * registers. */
G_ALWAYS_INLINE static inline void
push_cur (Builder *b, BRow *r)
{
  guint64 word = rec_word (r->cur.state, stored_aux (b, r, r->cur.state, r->cur.aux));
  push_rec (b, &r->recs, r->cur_start, word, r->cur_count);
}

/* The row's state becomes (@state, @aux) at @t (it changed): the general
 * case, for all that row_change () does not take. */
static void
row_change_general (Builder *b, BRow *r, gint64 t, guint32 state, guint32 aux)
{
  guint32 carry = 0;
  if (row_has_cur (r))
    {
      if (t > r->cur_start)
        push_cur (b, r);
      else
        {
          /* A zero-length interval: drop it, and continue the record
           * before when it had this very state (and is still pending). */
          carry = r->cur_count;
          TtvHistoryEncoder *e = &r->recs;
          if (e->n_pending > 0)
            {
              const TtvHistoryPending *last = &e->pending[e->n_pending - 1];
              if (last->word == rec_word (state, stored_aux (b, r, state, aux))
                  && last->count + carry <= TTV_HISTORY_MAX_COUNT)
                {
                  r->cur_start = last->start;
                  r->cur.state = state;
                  r->cur.aux = aux;
                  r->cur_count = last->count + carry;
                  ttv_history_encoder_take_back (e);
                  return;
                }
            }
        }
    }
  r->cur_start = t;
  r->cur.state = state;
  r->cur.aux = aux;
  r->cur_count = carry;
}

/* What stored_aux () gives without interning a new string: FALSE when
 * the quark is not interned yet. */
static inline gboolean
stored_aux_known (Builder *b, BRow *r, guint32 state, guint32 aux, guint32 *stored)
{
  if (r->kind != TTV_HISTORY_ROW_PROCESS || ((state >> 4) & 0xf) != TTV_MODE_SYSCALL)
    *stored = aux;
  else if (aux == 0)
    *stored = TTV_HISTORY_NO_STRING;
  else if (aux < b->quark_small->len && g_array_index (b->quark_small, guint32, aux))
    *stored = g_array_index (b->quark_small, guint32, aux) - 1;
  else
    return FALSE;
  return TRUE;
}

/* The row's state becomes (@state, @aux) at @t (it changed).  The common
 * case (about two an event): the interval under way, longer than zero,
 * becomes a pending record with room for it in its block, its string
 * already interned.  It makes no call, so it saves no registers; any other
 * case goes to row_change_general (), which does the same for it.  A row
 * without a current interval fails the test of its start (G_MAXINT64), and
 * a block's room is the encoder's (pending_cap is at most a block). */
static inline void
row_change (Builder *b, BRow *r, gint64 t, guint32 state, guint32 aux)
{
  TtvHistoryEncoder *e = &r->recs;
  guint32 stored;
  if (G_UNLIKELY (t <= r->cur_start || e->n_pending >= e->pending_cap
                  || !stored_aux_known (b, r, r->cur.state, r->cur.aux, &stored)))
    {
      row_change_general (b, r, t, state, aux);
      return;
    }
  ttv_history_encoder_add_word (e, r->cur_start, rec_word (r->cur.state, stored), r->cur_count);
  r->cur_start = t;
  r->cur.state = state;
  r->cur.aux = aux;
  r->cur_count = 0;
}

/* The row's state is (@state, @aux) at @t: mostly what it was already
 * (this is called after every event).  A row without a current interval
 * holds ROW_NO_STATE, which differs. */
static inline void
row_set (Builder *b, BRow *r, gint64 t, guint32 state, guint32 aux)
{
  RowStateAux now = { .state = state, .aux = aux };
  if (G_LIKELY (r->cur.word == now.word))
    return;
  row_change (b, r, t, state, aux);
}

/* The row's events since its current interval began are as many as a
 * record holds: the interval goes on in a new record from @t.  Without a
 * current interval the count means nothing (the next interval sets it):
 * it starts again.  Rare, and out of line so that row_count () stays small
 * enough to inline. */
static G_NO_INLINE void
row_split_full (Builder *b, BRow *r, gint64 t)
{
  if (row_has_cur (r))
    {
      push_cur (b, r);
      r->cur_start = MAX (t, r->cur_start);
    }
  r->cur_count = 0;
}

/* One more event of the row at @t.  Inline: it comes about twice an event,
 * and as a call it paid more in register saves than in its work.  The
 * count goes on without a current interval too (row_split_full). */
static inline void
row_count (Builder *b, BRow *r, gint64 t)
{
  r->n_events++;
  if (G_UNLIKELY (r->cur_count >= TTV_HISTORY_MAX_COUNT))
    row_split_full (b, r, t);
  r->cur_count++;
}

/* @r's entry in the row table but for its region's place and size
 * (ttv_history_row_region_place) and the states its records take. */
static void
row_entry (Builder *b, const BRow *r, TtvHistoryRow *fr)
{
  memset (fr, 0, sizeof *fr);
  fr->kind = r->kind;
  fr->machine = r->machine;
  fr->id = r->id;
  fr->cpu = r->kind == TTV_HISTORY_ROW_PROCESS && r->id == 0 ? r->cpu : -1;
  fr->tgid = r->tgid;
  fr->ppid = r->ppid;
  fr->name = intern_quark (b, r->name);
  fr->birth = r->birth;
  fr->end = r->end;
  fr->cpu_time = r->cpu_time;
  fr->n_events = r->n_events;
  fr->dead = r->dead;
  fr->n_recs = r->recs.n_recs;
  fr->n_marks = r->marks ? r->marks->n_recs : 0;
}

/* @r ended while the trace is read (it takes no more records or time):
 * its entry in the row table made now, its records and region handed to
 * the coder to write out, the row itself retired until the coder is done
 * with it. */
static void
end_row (Builder *b, BRow *r)
{
  TtvHistoryRow *fr = ttv_history_slab_alloc (&b->slab, sizeof (TtvHistoryRow));
  row_entry (b, r, fr);
  g_ptr_array_add (b->entries, fr);
  ttv_history_coder_finish_row (b->coder, &r->recs, r->marks, fr, b->origin);
  RetiredRow retired = { r, ttv_history_coder_ticket (b->coder) };
  g_array_append_val (b->retired, retired);
}

static void
close_row (Builder *b, BRow *r, gint64 t, gboolean dead)
{
  if (row_has_cur (r) && t > r->cur_start)
    push_cur (b, r);
  r->end = MAX (t, r->birth);
  row_clear_cur (r);
  r->open = FALSE;
  r->dead = dead;
  /* No record follows: everything is written out, the buffers freed. */
  if (b->reading)
    {
      end_row (b, r);
      return;
    }
  finish_encoder (b, &r->recs);
  if (r->marks)
    finish_encoder (b, r->marks);
}

/* The rows without the holes recycle_retired left, in their order: the
 * order in which the rows left at the end are written out, which must not
 * depend on when the coding thread was done with the others. */
static void
rows_close_holes (Builder *b)
{
  guint n = 0;
  for (guint i = 0; i < b->rows->len; i++)
    {
      BRow *r = g_ptr_array_index (b->rows, i);
      if (r == NULL)
        continue;
      r->index = n;
      b->rows->pdata[n++] = r;
    }
  /* What is dropped is NULL: the free function clears nothing. */
  for (guint i = n; i < b->rows->len; i++)
    b->rows->pdata[i] = NULL;
  g_ptr_array_set_size (b->rows, n);
}

/* The rows retired whose coder is done with them, out of the rows and
 * back to the slab for the rows to come.  Called between events, when no
 * cache or list of the builder's holds a row that ended. */
static void
recycle_retired (Builder *b)
{
  guint i = 0;
  for (; i < b->retired->len; i++)
    {
      const RetiredRow *rr = &g_array_index (b->retired, RetiredRow, i);
      /* Without a coder, it is done with every row. */
      if (b->coder && !ttv_history_coder_done (b->coder, rr->ticket))
        break;
      BRow *r = rr->row;
      b->rows->pdata[r->index] = NULL;
      brow_clear (r);
      if (r->marks)
        ttv_history_slab_give_back (&b->slab, r->marks, sizeof (TtvHistoryEncoder));
      ttv_history_slab_give_back (&b->slab, r, sizeof (BRow));
    }
  if (i > 0)
    {
      rows_close_holes (b);
      g_array_remove_range (b->retired, 0, i);
    }
}

static void
add_mark (Builder *b, BRow *r, gint64 t, TtvHistoryMarkKind kind, guint32 other, gint cpu)
{
  if (r->marks == NULL)
    {
      r->marks = ttv_history_slab_alloc0 (&b->slab, sizeof (TtvHistoryEncoder));
      ttv_history_encoder_init (r->marks);
    }
  guint64 word = ttv_history_pending_word (kind, cpu >= 0 && cpu < G_MAXINT16 ? cpu : -1, other);
  push_rec (b, r->marks, t, word, 0);
}

/* ---- rows of processes and CPUs ---- */

static BRow *
idle_row (Builder *b, gint cpu, gint64 t)
{
  if (cpu < 0 || cpu >= MAX_CPU)
    return NULL;
  CpuCache *c = &b->m_cpus[cpu];
  if (c->idle_row == NULL)
    {
      c->idle_row = new_row (b, TTV_HISTORY_ROW_PROCESS, 0, t);
      c->idle_row->cpu = cpu;
      c->idle_row->ppid = TTV_PID_NONE;
    }
  return c->idle_row;
}

static BRow *
process_row (Builder *b, const TtvProcessState *p, gint64 t)
{
  if (p->pid == 0)
    return idle_row (b, p->cpu, t);
  BRow *r = pid_lookup (b, p->pid);
  if (r == NULL)
    {
      r = new_row (b, TTV_HISTORY_ROW_PROCESS, p->pid, t);
      if (p->creation_time != TTV_TIME_MIN)
        r->birth = clamp_time (b, p->creation_time);
      pid_set (b, p->pid, r);
    }
  return r;
}

static inline void
eval_process (Builder *b, BRow *r, const TtvProcessState *p, gint64 t)
{
  guint32 state = p->status & 0xf;
  guint32 aux = 0;
  if (p->status == TTV_PROCESS_RUN)
    {
      const TtvExecFrame *top = &p->frames[p->depth - 1];
      state |= (top->mode & 0xf) << 4;
      aux = top->id;
    }
  gint cpu = p->cpu >= 0 && p->cpu < 0xffe ? p->cpu : -1;
  state |= (guint32) (cpu + 1) << 8;
  r->name = p->name ? p->name : r->name;
  r->tgid = p->tgid;
  r->ppid = p->ppid;
  row_set (b, r, t, state, aux);
}

/* @mode: what the CPU executes (ttv_state_get_cpu_mode()). */
static inline void
eval_cpu (Builder *b, BRow *r, const TtvCpuState *c, TtvExecMode mode, gint64 t)
{
  guint32 pid = c->running_pid;
  guint32 cls = pid == TTV_PID_NONE ? TTV_HISTORY_CPU_UNKNOWN
              : pid == 0 ? TTV_HISTORY_CPU_IDLE : TTV_HISTORY_CPU_BUSY;
  row_set (b, r, t, cls | (guint32) mode << 4, pid);
}

/* @p's open row @r becomes @cpu's cached task row (see CpuCache). */
static void
cache_row (BMachine *m, gint cpu, const TtvProcessState *p, BRow *r)
{
  CpuCache *c = &m->cpus[cpu];
  c->p = p;
  c->row = r;
  c->pid = p->pid;
  m->n_cached = MAX (m->n_cached, cpu + 1);
}

/* Row @r closes: no CPU's cache may hand it out again (the task's object
 * may live on in a new life, or be freed). */
static void
forget_cached_row (BMachine *m, const BRow *r)
{
  for (gint i = 0; i < m->n_cached; i++)
    if (m->cpus[i].row == r)
      {
        m->cpus[i].p = NULL;
        m->cpus[i].row = NULL;
      }
}

/* After each event: the rows whose process changed, the event's CPU and
 * what runs on it; the event counts for them. */
static void
after_event (Builder *b, gint cpu, TtvTime time)
{
  follow_machine (b);
  gint64 t = clamp_time (b, time);
  for (guint i = 0; i < b->n_dirty; i++)
    {
      Dirty *d = &b->dirty[i];
      if (d->row->open)
        eval_process (b, d->row, d->p, t);
    }
  b->n_dirty = 0;
  if (cpu < 0 || cpu >= MAX_CPU)
    return;
  /* The CPU, its mode and the event's own process (the task running on
   * the CPU, or the userspace thread the event names: a userspace trace
   * has no CPU state), in one lookup; the builder changes no state. */
  TtvExecMode mode;
  const TtvProcessState *p;
  const TtvCpuState *cs = ttv_state_get_cpu_view (b->state, cpu, &mode, &p);
  CpuCache *c = &b->m_cpus[cpu];
  if (cs && c->cpu_row == NULL)
    {
      b->m->n_cpus = MAX (b->m->n_cpus, cpu + 1);
      c->cpu_row = new_row (b, TTV_HISTORY_ROW_CPU, (guint32) cpu, t);
      c->cpu_row->cpu = cpu;
      /* The CPU's idle task exists from now on too (once per CPU). */
      g_autoptr (GPtrArray) all = ttv_state_list_processes (b->state);
      for (guint i = 0; i < all->len && ((TtvProcessState *) g_ptr_array_index (all, i))->pid == 0; i++)
        {
          const TtvProcessState *idle = g_ptr_array_index (all, i);
          if (idle->cpu == cpu)
            eval_process (b, idle_row (b, cpu, t), idle, t);
        }
    }
  if (cs)
    {
      eval_cpu (b, c->cpu_row, cs, mode, t);
      row_count (b, c->cpu_row, t);
    }
  if (p == NULL)
    return;
  BRow *r = c->row;
  if (G_UNLIKELY (c->p != p))
    {
      r = process_row (b, p, t);
      if (r == NULL)
        return;
      cache_row (b->m, cpu, p, r);
    }
  eval_process (b, r, p, t);
  row_count (b, r, t);
}

/* ---- the observer ---- */

static void
on_process_status (gpointer data, const TtvProcessState *p, TtvProcessStatus old, TtvTime time)
{
  Builder *b = data;
  follow_machine (b);
  gint64 t = clamp_time (b, time);
  BRow *r;
  if (old == TTV_PROCESS_N_STATUS && p->pid != 0)
    {
      /* A new life of the pid (fork, or first sight). */
      r = pid_lookup (b, p->pid);
      if (r)
        {
          close_row (b, r, t, FALSE);
          pid_set (b, p->pid, NULL);
          forget_cached_row (b->m, r);
        }
    }
  r = process_row (b, p, t);
  if (r == NULL)
    return;
  if (p->status == TTV_PROCESS_DEAD && p->pid != 0)
    {
      r->name = p->name ? p->name : r->name;
      close_row (b, r, t, TRUE);
      pid_set (b, p->pid, NULL);
      /* The task is freed after this call: forget it. */
      for (guint i = b->n_dirty; i-- > 0;)
        if (b->dirty[i].p == p)
          b->dirty[i] = b->dirty[--b->n_dirty];
      forget_cached_row (b->m, r);
      return;
    }
  Dirty d = { r, p };
  if (b->n_dirty < MAX_DIRTY)
    b->dirty[b->n_dirty++] = d;
  else
    eval_process (b, r, p, t);   /* now, then: the event goes on changing it */
}

/* The row of what ran on @c, when its cache knows it: the CPU's idle
 * task, or the task last seen running there, still alive (an empty cache
 * holds no row); else NULL. */
static inline BRow *
cpu_time_row_cached (const CpuCache *c, guint32 pid)
{
  return pid == 0 ? c->idle_row : c->pid == pid ? c->row : NULL;
}

/* @pid ran on @cpu for @time: the general case, any machine, any pid. */
static G_NO_INLINE void
add_cpu_time_general (Builder *b, gint cpu, guint32 pid, gint64 time)
{
  follow_machine (b);
  CpuCache *c = &b->m_cpus[cpu];
  BRow *r = cpu_time_row_cached (c, pid);
  if (r == NULL && pid != 0)
    r = pid_lookup (b, pid);
  if (r)
    r->cpu_time += time;
}

/* Nearly once an event.  The usual case (the selected machine, the row in
 * the CPU's cache) makes no call, so it saves no registers; any other goes
 * to add_cpu_time_general (), which does the same for it. */
static void
on_cpu_spent (gpointer data, gint cpu, guint32 pid, TtvTime duration)
{
  Builder *b = data;
  if (cpu < 0 || cpu >= MAX_CPU)
    return;
  if (G_LIKELY (selected_machine (b) == b->m_id))
    {
      BRow *r = cpu_time_row_cached (&b->m_cpus[cpu], pid);
      if (G_LIKELY (r != NULL))
        {
          r->cpu_time += duration;
          return;
        }
    }
  add_cpu_time_general (b, cpu, pid, duration);
}

static void
on_mark (gpointer data, TtvStateMark kind, guint32 pid, guint32 other, TtvTime time)
{
  Builder *b = data;
  if (pid == 0)
    return;
  follow_machine (b);
  BRow *r = pid_lookup (b, pid);
  if (r == NULL)
    return;
  gint64 t = clamp_time (b, time);
  switch (kind)
    {
    case TTV_STATE_MARK_FORK:
      add_mark (b, r, t, TTV_HISTORY_MARK_FORK, other, -1);
      break;
    case TTV_STATE_MARK_EXEC:
      {
        const TtvProcessState *p = ttv_state_get_process (b->state, pid);
        if (p && p->name)
          r->name = p->name;
        add_mark (b, r, t, TTV_HISTORY_MARK_EXEC, intern_quark (b, p ? p->name : 0), -1);
      }
      break;
    case TTV_STATE_MARK_EXIT:
      add_mark (b, r, t, TTV_HISTORY_MARK_EXIT, TTV_PID_NONE, -1);
      break;
    case TTV_STATE_MARK_WAKEUP:
      {
        const TtvProcessState *waker = ttv_state_get_running (b->state, b->event_cpu);
        /* The CPU too: a waker of PID 0 is that CPU's idle task (an
         * interrupt woke the process while the CPU was idle). */
        add_mark (b, r, t, TTV_HISTORY_MARK_WAKEUP, waker ? waker->pid : TTV_PID_NONE, b->event_cpu);
      }
      break;
    }
}

static void
on_resource (gpointer data, TtvStateResource kind, guint32 id, guint count, TtvTime time)
{
  Builder *b = data;
  TtvHistoryRowKind rk = kind == TTV_STATE_RESOURCE_IRQ ? TTV_HISTORY_ROW_IRQ
                       : kind == TTV_STATE_RESOURCE_SOFTIRQ ? TTV_HISTORY_ROW_SOFTIRQ
                       : TTV_HISTORY_ROW_BLOCKDEV;
  follow_machine (b);
  gint64 t = clamp_time (b, time);
  BRow *r = resource_lookup (b->m, rk, id);
  if (r == NULL)
    {
      r = new_row (b, rk, id, t);
      resource_set (b->m, rk, id, r);
    }
  row_set (b, r, t, count > 0 ? 1 : 0, count);
  row_count (b, r, t);
}

static const TtvStateObserver history_observer = {
  .cpu_spent = on_cpu_spent,
  .process_status = on_process_status,
  .mark = on_mark,
  .resource = on_resource,
};

/* ---- strings ---- */

static guint32
intern_string (Builder *b, const char *s)
{
  if (s == NULL)
    return TTV_HISTORY_NO_STRING;
  gpointer v = g_hash_table_lookup (b->string_index, s);
  if (v)
    return GPOINTER_TO_UINT (v) - 1;
  gsize size = strlen (s) + 1;
  char *copy = memcpy (ttv_history_slab_alloc0 (&b->slab, size), s, size);
  g_ptr_array_add (b->strings, copy);
  g_hash_table_insert (b->string_index, copy, GUINT_TO_POINTER (b->strings->len));
  return b->strings->len - 1;
}

static guint32
intern_quark (Builder *b, GQuark q)
{
  if (q == 0)
    return TTV_HISTORY_NO_STRING;
  if (G_LIKELY (q < QUARK_SMALL))
    {
      if (q < b->quark_small->len && g_array_index (b->quark_small, guint32, q))
        return g_array_index (b->quark_small, guint32, q) - 1;
      guint32 i = intern_string (b, g_quark_to_string (q));
      if (q >= b->quark_small->len)
        g_array_set_size (b->quark_small, q + 1);
      g_array_index (b->quark_small, guint32, q) = i + 1;
      return i;
    }
  gpointer v = g_hash_table_lookup (b->quark_index, GUINT_TO_POINTER (q));
  if (v)
    return GPOINTER_TO_UINT (v) - 1;
  guint32 i = intern_string (b, g_quark_to_string (q));
  g_hash_table_insert (b->quark_index, GUINT_TO_POINTER (q), GUINT_TO_POINTER (i + 1));
  return i;
}

/* The row table's order: by kind, machine, id (a CPU's idle task by its
 * CPU), then lives in time; of its entries (pointers). */
static gint
compare_row_entries (gconstpointer pa, gconstpointer pb)
{
  const TtvHistoryRow *a = *(TtvHistoryRow * const *) pa;
  const TtvHistoryRow *b = *(TtvHistoryRow * const *) pb;
  if (a->kind != b->kind)
    return a->kind < b->kind ? -1 : 1;
  if (a->machine != b->machine)
    return a->machine < b->machine ? -1 : 1;
  if (a->id != b->id)
    return a->id < b->id ? -1 : 1;
  if (a->cpu != b->cpu)
    return a->cpu < b->cpu ? -1 : 1;
  if (a->birth != b->birth)
    return a->birth < b->birth ? -1 : 1;
  return a->end < b->end ? -1 : a->end > b->end;
}

/* The summary of one row, to compute once every row has its place. */
typedef struct {
  TtvHistorySeq recs;      /* its directory: @dir, else @dir_first */
  TtvHistoryBlock *dir;       /* owned, taken from the row's encoder (its row is gone), or NULL */
  TtvHistoryBlock dir_first;
  TtvHistoryLevel levels[TTV_HISTORY_MAX_LEVELS];
  guint n_levels;
  gint64 end;
} SummaryJob;

static void
summary_job_clear (SummaryJob *job)
{
  g_free (job->dir);
}

/* The summaries' jobs, shared by the threads that do them: each takes the
 * next job not taken, so that neither waits on the other's last large row
 * (a split fixed in advance left one thread idle for a good part). */
typedef struct {
  Builder *b;
  GArray *jobs;            /* of SummaryJob, largest first */
  gint next;               /* atomic: the first job not taken */
  gint cancelled;          /* atomic */
} SummaryWork;

/* Takes the next job and does it; FALSE when none is left (or the build
 * is cancelled).  @taken: the job's index. */
static gboolean
summary_do_next (SummaryWork *sw, guint *taken)
{
  if (g_atomic_int_get (&sw->cancelled))
    return FALSE;
  guint i = (guint) g_atomic_int_add (&sw->next, 1);
  if (i >= sw->jobs->len)
    return FALSE;
  TtvHistoryWriter *w = &sw->b->w;
  SummaryJob *job = &g_array_index (sw->jobs, SummaryJob, i);
  /* Read back from memory, or from the file (all written out). */
  job->recs.data = w->bytes ? w->bytes->data : NULL;
  job->recs.fd = w->fd;
  job->recs.size = w->offset;
  job->recs.dir = job->dir ? job->dir : &job->dir_first;
  ttv_history_summary_write (w, &job->recs, sw->b->origin, job->end, job->levels, job->n_levels);
  *taken = i;
  return TRUE;
}

static gpointer
summary_work (gpointer data)
{
  guint taken;
  while (summary_do_next (data, &taken))
    ;
  return NULL;
}

static gint
compare_jobs (gconstpointer a, gconstpointer b)
{
  guint64 x = ((const SummaryJob *) a)->recs.n_recs, y = ((const SummaryJob *) b)->recs.n_recs;
  return x > y ? -1 : x < y;
}

/* The summaries, on two threads when there are two cores: each reads its
 * rows' records and writes their bins in place. */
static gboolean
write_summaries (Builder *b, GArray *jobs, void (*progress) (double, gpointer), gpointer progress_data,
                 GCancellable *cancel, GError **error)
{
  g_array_sort (jobs, compare_jobs);
  SummaryWork sw = { b, jobs, 0, 0 };
  GThread *thread = n_threads () > 1 ? g_thread_new ("ttv-history-summary", summary_work, &sw) : NULL;
  /* This thread's share, a job at a time, with progress and cancel. */
  guint taken;
  while (summary_do_next (&sw, &taken))
    {
      if (g_cancellable_is_cancelled (cancel))
        g_atomic_int_set (&sw.cancelled, 1);
      if (progress)
        progress (0.9 + 0.1 * (taken + 1) / jobs->len, progress_data);
    }
  if (thread)
    g_thread_join (thread);
  return !g_cancellable_set_error_if_cancelled (cancel, error) && !b->w.failed;
}

/* After the records: per row its directories and summary levels, then the
 * strings, the row table and the header.  The summary of a row is
 * computed reading its records back (from memory, or from the file a
 * window at a time). */
static gboolean
write_tail (Builder *b, guint64 n_events, gint64 end, void (*progress) (double, gpointer),
            gpointer progress_data, GCancellable *cancel, GError **error)
{
  TtvHistoryWriter *w = &b->w;
  g_assert (b->coder == NULL);
  for (guint i = 0; i < b->rows->len; i++)
    {
      BRow *r = g_ptr_array_index (b->rows, i);
      ttv_history_encoder_finish (&r->recs, w);
      if (r->marks)
        ttv_history_encoder_finish (r->marks, w);
    }
  ttv_history_writer_align (w);

  TtvHistoryHeader hd;
  memset (&hd, 0, sizeof hd);
  g_autoptr (GArray) jobs = g_array_new (FALSE, FALSE, sizeof (SummaryJob));
  g_array_set_clear_func (jobs, (GDestroyNotify) summary_job_clear);
  /* The tail's regions are filled in place: read back for the checksum. */
  ttv_history_writer_hash_stop (w);
  /* First every row's place (the writer may move its memory), then the
   * summaries, filled in place. */
  for (guint i = 0; i < b->rows->len && !w->failed; i++)
    {
      BRow *r = g_ptr_array_index (b->rows, i);
      TtvHistoryRow *e = ttv_history_slab_alloc (&b->slab, sizeof (TtvHistoryRow));
      row_entry (b, r, e);
      e->states_seen = r->recs.states_seen;
      TtvHistorySeq recs;
      ttv_history_encoder_seq (&r->recs, NULL, 0, &recs);
      TtvHistoryRowRegion g;
      ttv_history_row_region_plan (&g, &recs, e->n_marks, b->origin, r->end);
      ttv_history_row_region_reserve (&g, w, recs.dir, r->marks ? ttv_history_encoder_dir (r->marks) : NULL,
                                      e);
      if (g.n_levels)
        {
          SummaryJob job = { recs, g_steal_pointer (&r->recs.dir), r->recs.dir_first, { { 0 } }, g.n_levels, r->end };
          memcpy (job.levels, g.levels, g.n_levels * sizeof (TtvHistoryLevel));
          g_array_append_val (jobs, job);
        }
      g_ptr_array_add (b->entries, e);
      /* Written: what the row holds outside the slab (its directories,
       * unless a summary took one) goes now, not after every row. */
      brow_clear (g_steal_pointer (&b->rows->pdata[i]));
    }
  /* With the rows that ended while the trace was read, in their order. */
  g_ptr_array_sort (b->entries, compare_row_entries);
  for (guint i = 0; i < b->entries->len; i++)
    hd.n_rows_by_kind[((const TtvHistoryRow *) g_ptr_array_index (b->entries, i))->kind]++;
  /* The summaries write from two threads: from here on, nothing of the
   * writer's may wait in its buffer (ttv_history_writer_pwrite ()). */
  ttv_history_writer_flush (w);
  if (w->failed || !write_summaries (b, jobs, progress, progress_data, cancel, error))
    {
      if (error && *error == NULL)
        ttv_history_writer_set_error (w, w->bytes ? "memory" : "its file", error);
      return FALSE;
    }

  TtvHistoryStringTable strings = ttv_history_writer_append_strings (w, b->strings);
  hd.strings_offset = strings.strings_offset;
  hd.strings_size = strings.strings_size;
  hd.string_index_offset = strings.index_offset;
  hd.n_strings = b->strings->len;
  /* The table an entry at a time (in the writer's buffer): not copied
   * whole, some 110 bytes a row. */
  hd.rows_offset = w->offset;
  for (guint i = 0; i < b->entries->len; i++)
    ttv_history_writer_append (w, g_ptr_array_index (b->entries, i), sizeof (TtvHistoryRow));
  hd.n_rows = b->entries->len;

  memcpy (hd.magic, TTV_HISTORY_MAGIC, sizeof hd.magic);
  hd.version = TTV_HISTORY_VERSION;
  hd.bom = TTV_HISTORY_BOM;
  hd.file_size = w->offset;
  hd.fingerprint_offset = b->fingerprint_offset;
  hd.fingerprint_size = b->fingerprint_size;
  hd.n_events = n_events;
  hd.origin = b->origin;
  hd.start = b->origin;
  hd.end = end;
  hd.n_machines = b->machines->len;
  /* Memory is not damaged between runs: only files carry a checksum. */
  hd.checksum = w->bytes ? 0 : ttv_history_writer_checksum (w);
  ttv_history_writer_pwrite (w, 0, &hd, sizeof hd);
  if (!ttv_history_writer_flush (w))
    {
      ttv_history_writer_set_error (w, w->bytes ? "memory" : "its file", error);
      return FALSE;
    }
  return TRUE;
}

/* The history of the representation @b wrote, in memory or in its file. */
static TtvHistory *
open_written (Builder *b, GError **error)
{
  TtvHistory *h = g_new0 (TtvHistory, 1);
  h->fd = -1;
  if (b->w.bytes)
    {
      h->size = b->w.bytes->len;
      h->heap = g_byte_array_free (g_steal_pointer (&b->w.bytes), FALSE);
      h->data = h->heap;
    }
  else
    {
      /* The writer keeps its descriptor to give the file its name. */
      h->fd = dup (b->w.fd);
      h->size = (gsize) b->w.offset;
      if (h->fd < 0)
        {
          ttv_history_writer_set_error (&b->w, "its file", error);
          ttv_history_free (h);
          return NULL;
        }
      posix_fadvise (h->fd, 0, 0, POSIX_FADV_RANDOM);
    }
  /* Just built: trusted, not read through again. */
  if (!ttv_history_open_data (h, TRUE, error))
    {
      ttv_history_free (h);
      return NULL;
    }
  return h;
}

/* What the build kept to write the representation (rows, strings, the
 * slab): given back once it is written, before the history's own tables
 * are read in (on a trace of 100 M events, 129,000 rows, the two together
 * made most of the build's peak). */
static void
builder_drop_tables (Builder *b)
{
  g_clear_pointer (&b->rows, g_ptr_array_unref);
  g_clear_pointer (&b->machines, g_ptr_array_unref);
  g_clear_pointer (&b->quark_small, g_array_unref);
  g_clear_pointer (&b->string_index, g_hash_table_unref);
  g_clear_pointer (&b->quark_index, g_hash_table_unref);
  g_clear_pointer (&b->strings, g_ptr_array_unref);
  g_clear_pointer (&b->entries, g_ptr_array_unref);
  g_clear_pointer (&b->retired, g_array_unref);
  ttv_history_slab_clear (&b->slab);
}

static void
builder_free (Builder *b)
{
  /* The coding thread first: it writes into the rows. */
  ttv_history_coder_free (b->coder);
  builder_drop_tables (b);
  ttv_history_writer_clear (&b->w);
  g_free (b);
}

/* Names of rows known only at the end: IRQs, block devices, live tasks;
 * soft IRQs as the first trace that names the vector does. */
static void
name_rows (Builder *b, const TtvKernelModel *model, TtvTraceset *ts)
{
  guint n_traces = ttv_traceset_get_n_traces (ts);
  for (guint i = 0; i < b->rows->len; i++)
    {
      BRow *r = g_ptr_array_index (b->rows, i);
      if (r->kind == TTV_HISTORY_ROW_PROCESS && r->open && r->id != 0)
        {
          ttv_state_select_machine (b->state, r->machine);
          const TtvProcessState *p = ttv_state_get_process (b->state, r->id);
          if (p && p->name)
            r->name = p->name;
        }
      else if (r->kind == TTV_HISTORY_ROW_BLOCKDEV)
        {
          char name[32];
          g_snprintf (name, sizeof name, "%u:%u", r->id >> 20, r->id & 0xfffff);
          r->name = g_quark_from_string (name);
        }
      else if (r->kind == TTV_HISTORY_ROW_SOFTIRQ)
        for (guint t = 0; t < n_traces && !r->name; t++)
          {
            if (b->machines->len > 1 && ttv_traceset_get_trace_machine (ts, t) != r->machine)
              continue;
            const char *name = ttv_kernel_model_get_trace_softirq_name (model, t, r->id);

            if (name)
              r->name = g_quark_from_string (name);
          }
    }
  for (guint k = 0; k < b->machines->len; k++)
    {
      BMachine *m = g_ptr_array_index (b->machines, k);
      ttv_state_select_machine (b->state, k);
      g_autoptr (GPtrArray) irqs = ttv_state_list_irqs (b->state, FALSE);
      for (guint i = 0; i < irqs->len; i++)
        {
          const TtvIrqState *q = g_ptr_array_index (irqs, i);
          BRow *r = resource_lookup (m, TTV_HISTORY_ROW_IRQ, q->id);
          if (r && q->name)
            r->name = q->name;
        }
    }
}

/* The traceset's machines, each starting with its first trace (clamped to
 * the origin); one machine starts at the origin, as before machines. */
static void
add_machines (Builder *b, TtvTraceset *ts)
{
  guint n = ttv_traceset_get_n_machines (ts);
  for (guint k = 0; k < n; k++)
    g_ptr_array_add (b->machines, machine_new (k, b->origin));
  if (n < 2)
    return;
  for (guint k = 0; k < n; k++)
    ((BMachine *) g_ptr_array_index (b->machines, k))->start = G_MAXINT64;
  for (guint i = 0; i < ttv_traceset_get_n_traces (ts); i++)
    {
      BMachine *m = g_ptr_array_index (b->machines, ttv_traceset_get_trace_machine (ts, i));
      TtvTime start = ttv_traceset_get_trace (ts, i)->start;
      m->start = MIN (m->start, MAX (start, b->origin));
    }
  for (guint k = 0; k < n; k++)
    {
      BMachine *m = g_ptr_array_index (b->machines, k);
      if (m->start == G_MAXINT64)
        m->start = b->origin;
      m->last = m->start;
    }
}

/* Where the rows alive at the end end, per machine: @hend with one
 * machine; else just after the machine's last trace end or last event (a
 * machine whose traces end early is not traced afterwards). */
static gint64 *
machine_ends (Builder *b, TtvTraceset *ts, gint64 hend)
{
  guint n = b->machines->len;
  gint64 *ends = g_new (gint64, n);
  for (guint k = 0; k < n; k++)
    {
      BMachine *m = g_ptr_array_index (b->machines, k);
      ends[k] = n == 1 ? hend : m->last;
    }
  if (n == 1)
    return ends;
  for (guint i = 0; i < ttv_traceset_get_n_traces (ts); i++)
    {
      guint k = ttv_traceset_get_trace_machine (ts, i);
      TtvTime end = ttv_traceset_get_trace (ts, i)->end;
      if (k < n && end != TTV_TIME_MIN)
        ends[k] = MAX (ends[k], end);
    }
  for (guint k = 0; k < n; k++)
    ends[k] = MAX (ends[k], ((BMachine *) g_ptr_array_index (b->machines, k))->start) + 1;
  return ends;
}

/* Reads @ts once into the representation @w (taken) is writing; the
 * writer is left in @b for the caller to commit. */
static TtvHistory *
build_into (TtvTraceset *ts, TtvHistoryWriter *w, gsize max_memory, const char *fingerprint,
            void (*progress) (double, gpointer), gpointer progress_data, GCancellable *cancel,
            Builder **builder, GError **error)
{
  *builder = NULL;
  g_autoptr (TtvContext) ctx = ttv_context_new (ts, error);
  if (ctx == NULL || !ttv_context_seek_begin (ctx, error))
    {
      ttv_history_writer_clear (w);
      return NULL;
    }
  g_autoptr (GPtrArray) traces = g_ptr_array_new ();
  for (guint i = 0; i < ttv_traceset_get_n_traces (ts); i++)
    g_ptr_array_add (traces, ttv_traceset_get_trace (ts, i));
  g_autoptr (TtvKernelModel) model = ttv_kernel_model_new (traces);
  g_autoptr (TtvState) state = ttv_state_new ();

  TtvTime start = ttv_traceset_get_start (ts), end = ttv_traceset_get_end (ts);
  Builder *b = g_new0 (Builder, 1);
  *builder = b;
  b->w = *w;
  /* The records go out in order while the trace is read: hashed then
   * (by the thread writing them), not read back for the checksum. */
  ttv_history_writer_hash_as_written (&b->w);
  b->state = state;
  b->origin = start == TTV_TIME_MAX ? 0 : start;
  b->rows = g_ptr_array_new_with_free_func ((GDestroyNotify) brow_clear);
  ttv_history_slab_init (&b->slab);
  b->entries = g_ptr_array_new ();
  b->retired = g_array_new (FALSE, FALSE, sizeof (RetiredRow));
  b->machines = g_ptr_array_new_with_free_func ((GDestroyNotify) machine_free);
  add_machines (b, ts);
  select_machine (b, 0);
  b->event_cpu = -1;
  b->max_memory = max_memory;
  b->strings = g_ptr_array_new ();
  b->string_index = g_hash_table_new (g_str_hash, g_str_equal);
  b->quark_index = g_hash_table_new (g_direct_hash, g_direct_equal);
  b->quark_small = g_array_new (FALSE, TRUE, sizeof (guint32));

  /* The header's place, written last; the fingerprint first, so that a
   * stale file is told by its first bytes. */
  ttv_history_writer_reserve (&b->w, sizeof (TtvHistoryHeader));
  b->fingerprint_size = strlen (fingerprint) + 1;
  b->fingerprint_offset = ttv_history_writer_append (&b->w, fingerprint, b->fingerprint_size);
  ttv_history_writer_align (&b->w);
  b->coder = ttv_history_coder_new (&b->w, max_memory, n_threads () > 1);

  ttv_state_add_observer (state, &history_observer, b);
  /* Each machine's initial processes, evaluated at its start. */
  for (guint k = 0; k < b->machines->len; k++)
    {
      BMachine *m = g_ptr_array_index (b->machines, k);
      ttv_state_select_machine (state, k);
      for (guint i = 0; i < traces->len; i++)
        if (b->machines->len == 1 || ttv_traceset_get_trace_machine (ts, i) == k)
          ttv_kernel_model_apply_initial (model, state, g_ptr_array_index (traces, i));
      after_event (b, -1, m->start);
    }

  guint64 n = 0;
  gint64 last = b->origin;
  const TtvEvent *ev;
  GError *local = NULL;
  /* One trace (the usual case): every event's trace is 0, without the two
   * calls a lookup takes. */
  gboolean one_trace = traces->len == 1;
  b->reading = TRUE;
  while ((ev = ttv_context_next (ctx, &local)) != NULL)
    {
      guint trace = one_trace ? 0 : ttv_traceset_get_stream_trace (ts, ttv_context_get_stream (ctx));
      b->event_cpu = ev->tracefile->cpu;
      ttv_kernel_model_apply (model, state, trace, ev);
      after_event (b, b->event_cpu, ev->time);
      last = MAX (last, ev->time);
      b->m->last = MAX (b->m->last, ev->time);
      /* Rows that ended go back to the slab in batches. */
      if (G_UNLIKELY ((++n & 0x3ff) == 0) && b->retired->len)
        recycle_retired (b);
      if ((n & 0xffff) == 0)
        {
          if (g_cancellable_set_error_if_cancelled (cancel, &local))
            break;
          if (progress && end > start)
            progress (0.9 * (double) (ev->time - start) / (double) (end - start), progress_data);
        }
    }
  if (local)
    {
      g_propagate_error (error, local);
      return NULL;
    }
  /* Rows alive at the end cover the last event's time too. */
  b->reading = FALSE;
  gint64 hend = MAX (last, end == TTV_TIME_MIN ? last : end);
  hend = MAX (hend, b->origin) + 1;
  name_rows (b, model, ts);
  g_autofree gint64 *machine_end = machine_ends (b, ts, hend);
  for (guint i = 0; i < b->rows->len; i++)
    {
      BRow *r = g_ptr_array_index (b->rows, i);
      if (r->open)
        {
          close_row (b, r, machine_end[r->machine], FALSE);
          r->open = TRUE;   /* alive at the end */
        }
    }
  ttv_state_remove_observer (state, &history_observer);
  b->state = NULL;
  g_clear_pointer (&b->coder, ttv_history_coder_free);
  recycle_retired (b);
  if (!write_tail (b, n, hend, progress, progress_data, cancel, error))
    return NULL;
  builder_drop_tables (b);
  return open_written (b, error);
}

static gsize
max_memory_of (const TtvHistoryOptions *opt)
{
  return opt->max_memory ? opt->max_memory : DEFAULT_MAX_MEMORY;
}

/* Without the cache: in memory up to max_memory, then in an unlinked
 * temporary file. */
static TtvHistory *
build_uncached (TtvTraceset *ts, const TtvHistoryOptions *opt, const char *fingerprint,
                void (*progress) (double, gpointer), gpointer progress_data, GCancellable *cancel,
                GError **error)
{
  TtvHistoryWriter w;
  Builder *b = NULL;
  ttv_history_writer_init_memory (&w, max_memory_of (opt), NULL);
  TtvHistory *h = build_into (ts, &w, max_memory_of (opt), fingerprint, progress, progress_data,
                                   cancel, &b, error);
  if (b)
    builder_free (b);
  return h;
}

TtvHistory *
ttv_history_build (TtvTraceset *ts, const TtvHistoryOptions *opt,
                         void (*progress) (double, gpointer), gpointer progress_data,
                         GCancellable *cancel, GError **error)
{
  TtvHistoryOptions defaults = { 0 };
  if (opt == NULL)
    opt = &defaults;
  if (g_cancellable_set_error_if_cancelled (cancel, error))
    return NULL;
  g_autofree char *fingerprint = ttv_history_fingerprint (ts);
  g_autofree char *cache_path = opt->no_cache ? NULL : ttv_history_cache_path (ts, opt);
  TtvHistory *h = NULL;
  if (cache_path && g_file_test (cache_path, G_FILE_TEST_IS_REGULAR))
    {
      h = ttv_history_cache_load (cache_path, fingerprint);
      if (h)
        {
          /* The most recently used now; and the cap may have changed. */
          ttv_history_cache_touch (cache_path);
          g_autofree char *dir = g_path_get_dirname (cache_path);
          if (!ttv_history_cache_evict (dir, ttv_history_cache_limit (opt, dir), cache_path))
            g_clear_pointer (&h->cache_path, g_free);
          if (progress)
            progress (1.0, progress_data);
          return h;
        }
      /* Stale or damaged: rebuilt below and replaced. */
    }
  g_autoptr (GError) cache_error = NULL;
  g_autofree char *dir = cache_path ? g_path_get_dirname (cache_path) : NULL;
  TtvHistoryWriter w;
  if (cache_path && ttv_history_writer_init_file (&w, dir, FALSE, &cache_error))
    {
      Builder *b = NULL;
      h = build_into (ts, &w, max_memory_of (opt), fingerprint, progress, progress_data, cancel, &b,
                      &cache_error);
      if (h && !ttv_history_writer_commit (&b->w, cache_path, &cache_error))
        {
          /* Still right, only not kept for the next time. */
          g_warning ("%s", cache_error->message);
          g_clear_error (&cache_error);
        }
      else if (h)
        {
          h->cache_path = g_strdup (cache_path);
          if (!ttv_history_cache_evict (dir, ttv_history_cache_limit (opt, dir), cache_path))
            g_clear_pointer (&h->cache_path, g_free);
        }
      if (b)
        builder_free (b);
      if (h || g_error_matches (cache_error, G_IO_ERROR, G_IO_ERROR_CANCELLED)
          || !g_error_matches (cache_error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_IO))
        {
          if (h == NULL)
            g_propagate_error (error, g_steal_pointer (&cache_error));
          else if (progress)
            progress (1.0, progress_data);
          return h;
        }
    }
  if (cache_error)
    g_warning ("The state history is not cached: %s", cache_error->message);
  h = build_uncached (ts, opt, fingerprint, progress, progress_data, cancel, error);
  if (h && progress)
    progress (1.0, progress_data);
  return h;
}
