/* ttv-state-history.c: building the state history in one read of a
 * traceset (an observer on the state) and answering interval queries.
 * Used by the control flow and resource views, ttv-bench and the tests. */
#include "ttv-state-history-private.h"
#include "ttv-context.h"
#include "ttv-error.h"
#include "ttv-kernel-model.h"
#include "ttv-state-private.h"

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#define MAX_CPU 4096

typedef struct {
  guint64 offset;          /* in the spill file */
  guint64 size;            /* bytes of coded records */
} SpillChunk;

typedef struct {
  TtvHistoryRowKind kind;
  guint32 id;
  gint cpu;
  guint32 tgid;
  guint32 ppid;
  GQuark name;
  gint64 birth;
  gint64 end;
  gboolean open;
  gboolean dead;
  gint64 cpu_time;
  guint64 n_events;
  TtvHistEncoder recs;     /* coded records; their bytes may be spilled */
  GArray *spilled;         /* of SpillChunk, or NULL */
  TtvHistEncoder *marks;   /* owned, or NULL */
  /* The last record, kept aside (not coded yet) so that a zero-length
   * interval after it can still continue it. */
  gboolean has_last;
  gint64 last_start;
  guint32 last_state;
  guint32 last_aux;
  guint32 last_count;
  gboolean has_cur;        /* the current (open) interval */
  gint64 cur_start;
  guint32 cur_state;
  guint32 cur_aux;
  guint32 cur_count;
} BRow;

typedef struct {
  BRow *row;
  const TtvProcessState *p;
} Dirty;

typedef struct {
  const TtvProcessState *p;   /* cache of the running task's row */
  BRow *row;
  BRow *cpu_row;
  BRow *idle_row;
} CpuCache;

typedef struct {
  TtvState *state;         /* weak */
  gint64 origin;
  GPtrArray *rows;         /* of BRow *, owned */
  GHashTable *processes;   /* pid -> BRow * (open lives, pid >= PID_PAGES << PID_PAGE_BITS) */
  BRow ***pid_pages;       /* the others: pages of BRow *, owned */
  guint n_pid_pages;
  GHashTable *resources[TTV_HISTORY_ROW_N_KINDS]; /* id -> BRow * (IRQ, soft IRQ, block devices) */
  CpuCache *cpus;          /* MAX_CPU */
  gint n_cpus;             /* highest CPU seen + 1 */
  GArray *dirty;           /* of Dirty */
  gint event_cpu;
  /* Memory bound: records beyond it go to the spill file. */
  gsize max_memory;
  gsize rec_memory;
  gsize mark_memory;
  FILE *spill;
  guint64 spill_size;
  gboolean spill_failed;
  char *spill_dir;         /* NULL: never spill */
  /* Strings of the representation. */
  GPtrArray *strings;      /* of char *, owned */
  GHashTable *string_index; /* char * (in strings) -> index + 1 */
  GHashTable *quark_index; /* GQuark -> index + 1 (large quarks) */
  GArray *quark_small;     /* of guint32: index + 1 by quark, for quarks < QUARK_SMALL */
} Builder;

/* Live processes by pid: a direct table of pages for the usual pids, the
 * hash table beyond (a lookup happens for many events). */
#define PID_PAGE_BITS 12
#define PID_PAGES 4096
#define QUARK_SMALL (1u << 24)

static inline BRow *
pid_lookup (Builder *b, guint32 pid)
{
  guint32 page = pid >> PID_PAGE_BITS;
  if (G_LIKELY (page < PID_PAGES))
    return page < b->n_pid_pages && b->pid_pages[page] ? b->pid_pages[page][pid & ((1u << PID_PAGE_BITS) - 1)]
                                                      : NULL;
  return g_hash_table_lookup (b->processes, GUINT_TO_POINTER (pid));
}

static void
pid_set (Builder *b, guint32 pid, BRow *r)
{
  guint32 page = pid >> PID_PAGE_BITS;
  if (page >= PID_PAGES)
    {
      if (r)
        g_hash_table_insert (b->processes, GUINT_TO_POINTER (pid), r);
      else
        g_hash_table_remove (b->processes, GUINT_TO_POINTER (pid));
      return;
    }
  if (page >= b->n_pid_pages)
    {
      if (r == NULL)
        return;
      b->pid_pages = g_renew (BRow **, b->pid_pages, page + 1);
      memset (b->pid_pages + b->n_pid_pages, 0, (page + 1 - b->n_pid_pages) * sizeof (BRow **));
      b->n_pid_pages = page + 1;
    }
  if (b->pid_pages[page] == NULL)
    {
      if (r == NULL)
        return;
      b->pid_pages[page] = g_new0 (BRow *, 1u << PID_PAGE_BITS);
    }
  b->pid_pages[page][pid & ((1u << PID_PAGE_BITS) - 1)] = r;
}

static gint64
clamp_time (Builder *b, TtvTime t)
{
  return t < b->origin ? b->origin : t;
}

static void
brow_free (BRow *r)
{
  ttv_hist_encoder_clear (&r->recs);
  if (r->spilled)
    g_array_unref (r->spilled);
  if (r->marks)
    {
      ttv_hist_encoder_clear (r->marks);
      g_free (r->marks);
    }
  g_free (r);
}

static BRow *
new_row (Builder *b, TtvHistoryRowKind kind, guint32 id, gint64 t)
{
  BRow *r = g_new0 (BRow, 1);
  r->kind = kind;
  r->id = id;
  r->cpu = -1;
  r->ppid = TTV_PID_NONE;
  r->birth = t;
  r->end = t;
  r->open = TRUE;
  ttv_hist_encoder_init (&r->recs);
  g_ptr_array_add (b->rows, r);
  return r;
}

static void spill_all (Builder *b);
static guint32 intern_quark (Builder *b, GQuark q);

/* Records hold string indices, not quarks (quarks differ between runs). */
static inline guint32
stored_aux (Builder *b, BRow *r, guint32 state, guint32 aux)
{
  if (r->kind == TTV_HISTORY_ROW_PROCESS && ((state >> 4) & 0xf) == TTV_MODE_SYSCALL)
    return intern_quark (b, aux);
  return aux;
}

/* Codes the last record kept aside. */
static void
flush_last (Builder *b, BRow *r)
{
  if (!r->has_last)
    return;
  r->has_last = FALSE;
  TtvHistRec rec = { r->last_start, (guint16) (r->last_state & 0xff),
                     (gint16) ((gint) ((r->last_state >> 8) & 0xfff) - 1),
                     stored_aux (b, r, r->last_state, r->last_aux), r->last_count };
  gsize before = r->recs.len;
  ttv_hist_encoder_push (&r->recs, &rec);
  b->rec_memory += r->recs.len - before;
  if (G_UNLIKELY (b->rec_memory > b->max_memory) && b->spill_dir && !b->spill_failed)
    spill_all (b);
}

/* The current interval ends: it becomes the last record. */
static void
push_cur (Builder *b, BRow *r)
{
  flush_last (b, r);
  r->has_last = TRUE;
  r->last_start = r->cur_start;
  r->last_state = r->cur_state;
  r->last_aux = r->cur_aux;
  r->last_count = r->cur_count;
}

/* The row's state becomes (@state, @aux) at @t. */
static void
row_set (Builder *b, BRow *r, gint64 t, guint32 state, guint32 aux)
{
  guint32 carry = 0;
  if (r->has_cur)
    {
      if (r->cur_state == state && r->cur_aux == aux)
        return;
      if (t > r->cur_start)
        push_cur (b, r);
      else
        {
          /* A zero-length interval: drop it, and continue the previous
           * record when it had this very state. */
          carry = r->cur_count;
          if (r->has_last && r->last_state == state && r->last_aux == aux
              && r->last_count + carry <= TTV_HIST_MAX_COUNT)
            {
              r->cur_start = r->last_start;
              r->cur_state = state;
              r->cur_aux = aux;
              r->cur_count = r->last_count + carry;
              r->has_last = FALSE;
              return;
            }
        }
    }
  r->has_cur = TRUE;
  r->cur_start = t;
  r->cur_state = state;
  r->cur_aux = aux;
  r->cur_count = carry;
}

/* One more event of the row at @t. */
static void
row_count (Builder *b, BRow *r, gint64 t)
{
  r->n_events++;
  if (!r->has_cur)
    return;
  if (r->cur_count >= TTV_HIST_MAX_COUNT)
    {
      push_cur (b, r);
      r->cur_start = MAX (t, r->cur_start);
      r->cur_count = 0;
    }
  r->cur_count++;
}

static void
close_row (Builder *b, BRow *r, gint64 t, gboolean dead)
{
  if (r->has_cur && t > r->cur_start)
    push_cur (b, r);
  flush_last (b, r);
  /* No record follows: the last block is coded, its buffer freed. */
  gsize before = r->recs.len;
  ttv_hist_encoder_finish (&r->recs);
  b->rec_memory += r->recs.len - before;
  if (r->marks)
    ttv_hist_encoder_finish (r->marks);
  r->has_cur = FALSE;
  r->end = MAX (t, r->birth);
  r->open = FALSE;
  r->dead = dead;
}

static void
add_mark (Builder *b, BRow *r, gint64 t, TtvHistoryMarkKind kind, guint32 other)
{
  if (r->marks == NULL)
    {
      r->marks = g_new (TtvHistEncoder, 1);
      ttv_hist_encoder_init (r->marks);
    }
  TtvHistRec m = { t, (guint16) kind, -1, other, 0 };
  gsize before = r->marks->len;
  ttv_hist_encoder_push (r->marks, &m);
  b->mark_memory += r->marks->len - before;
}

/* ---- rows of processes and CPUs ---- */

static BRow *
idle_row (Builder *b, gint cpu, gint64 t)
{
  if (cpu < 0 || cpu >= MAX_CPU)
    return NULL;
  CpuCache *c = &b->cpus[cpu];
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

static void
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

static void
eval_cpu (Builder *b, BRow *r, const TtvCpuState *c, gint64 t)
{
  guint32 pid = c->running_pid;
  guint32 cls = pid == TTV_PID_NONE ? TTV_HISTORY_CPU_UNKNOWN
              : pid == 0 ? TTV_HISTORY_CPU_IDLE : TTV_HISTORY_CPU_BUSY;
  guint32 mode = ttv_state_get_cpu_mode (b->state, c->cpu);
  row_set (b, r, t, cls | mode << 4, pid);
}

/* After each event: the rows whose process changed, the event's CPU and
 * what runs on it; the event counts for them. */
static void
after_event (Builder *b, gint cpu, TtvTime time)
{
  gint64 t = clamp_time (b, time);
  for (guint i = 0; i < b->dirty->len; i++)
    {
      Dirty *d = &g_array_index (b->dirty, Dirty, i);
      if (d->row->open)
        eval_process (b, d->row, d->p, t);
    }
  g_array_set_size (b->dirty, 0);
  if (cpu < 0 || cpu >= MAX_CPU)
    return;
  const TtvCpuState *cs = ttv_state_get_cpu (b->state, cpu);
  if (cs == NULL)
    return;
  CpuCache *c = &b->cpus[cpu];
  if (c->cpu_row == NULL)
    {
      b->n_cpus = MAX (b->n_cpus, cpu + 1);
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
  const TtvProcessState *p = ttv_state_get_running (b->state, cpu);
  eval_cpu (b, c->cpu_row, cs, t);
  row_count (b, c->cpu_row, t);
  if (p == NULL)
    return;
  BRow *r;
  if (c->p == p && c->row && c->row->open && c->row->id == p->pid)
    r = c->row;
  else
    {
      r = process_row (b, p, t);
      c->p = p;
      c->row = r;
    }
  if (r == NULL)
    return;
  eval_process (b, r, p, t);
  row_count (b, r, t);
}

/* ---- the observer ---- */

static void
on_process_status (gpointer data, const TtvProcessState *p, TtvProcessStatus old, TtvTime time)
{
  Builder *b = data;
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
      for (guint i = b->dirty->len; i-- > 0;)
        if (g_array_index (b->dirty, Dirty, i).p == p)
          g_array_remove_index_fast (b->dirty, i);
      for (gint c = 0; c < b->n_cpus; c++)
        if (b->cpus[c].p == p)
          b->cpus[c].p = NULL;
      return;
    }
  Dirty d = { r, p };
  g_array_append_val (b->dirty, d);
}

static void
on_cpu_time (gpointer data, gint cpu, guint32 pid, TtvExecMode mode, guint32 id,
             TtvTime start, TtvTime end)
{
  Builder *b = data;
  if (cpu < 0 || cpu >= MAX_CPU)
    return;
  CpuCache *c = &b->cpus[cpu];
  BRow *r = pid == 0 ? c->idle_row
          : c->p && c->p->pid == pid && c->row && c->row->open ? c->row
          : pid_lookup (b, pid);
  if (r)
    r->cpu_time += end - start;
}

static void
on_mark (gpointer data, TtvStateMark kind, guint32 pid, guint32 other, TtvTime time)
{
  Builder *b = data;
  if (pid == 0)
    return;
  BRow *r = pid_lookup (b, pid);
  if (r == NULL)
    return;
  gint64 t = clamp_time (b, time);
  switch (kind)
    {
    case TTV_STATE_MARK_FORK:
      add_mark (b, r, t, TTV_HISTORY_MARK_FORK, other);
      break;
    case TTV_STATE_MARK_EXEC:
      {
        const TtvProcessState *p = ttv_state_get_process (b->state, pid);
        if (p && p->name)
          r->name = p->name;
        add_mark (b, r, t, TTV_HISTORY_MARK_EXEC, intern_quark (b, p ? p->name : 0));
      }
      break;
    case TTV_STATE_MARK_EXIT:
      add_mark (b, r, t, TTV_HISTORY_MARK_EXIT, TTV_PID_NONE);
      break;
    case TTV_STATE_MARK_WAKEUP:
      {
        const TtvProcessState *waker = ttv_state_get_running (b->state, b->event_cpu);
        add_mark (b, r, t, TTV_HISTORY_MARK_WAKEUP, waker ? waker->pid : TTV_PID_NONE);
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
  gint64 t = clamp_time (b, time);
  BRow *r = g_hash_table_lookup (b->resources[rk], GUINT_TO_POINTER (id));
  if (r == NULL)
    {
      r = new_row (b, rk, id, t);
      g_hash_table_insert (b->resources[rk], GUINT_TO_POINTER (id), r);
    }
  row_set (b, r, t, count > 0 ? 1 : 0, count);
  row_count (b, r, t);
}

static const TtvStateObserver history_observer = {
  .cpu_time = on_cpu_time,
  .process_status = on_process_status,
  .mark = on_mark,
  .resource = on_resource,
};

/* ---- spilling ---- */

static void
spill_all (Builder *b)
{
  if (b->spill == NULL)
    {
      if (g_mkdir_with_parents (b->spill_dir, 0700) != 0)
        {
          b->spill_failed = TRUE;
          return;
        }
      g_autofree char *tmpl = g_build_filename (b->spill_dir, "spill-XXXXXX", NULL);
      int fd = g_mkstemp_full (tmpl, O_RDWR, 0600);
      if (fd < 0)
        {
          b->spill_failed = TRUE;
          return;
        }
      g_unlink (tmpl);   /* gone when closed */
      b->spill = fdopen (fd, "w+b");
      if (b->spill == NULL)
        {
          close (fd);
          b->spill_failed = TRUE;
          return;
        }
    }
  for (guint i = 0; i < b->rows->len; i++)
    {
      BRow *r = g_ptr_array_index (b->rows, i);
      gsize n = r->recs.len;
      if (n == 0)
        continue;
      if (fseeko (b->spill, (off_t) b->spill_size, SEEK_SET) != 0
          || fwrite (r->recs.data, 1, n, b->spill) != n)
        {
          b->spill_failed = TRUE;
          return;
        }
      if (r->spilled == NULL)
        r->spilled = g_array_new (FALSE, FALSE, sizeof (SpillChunk));
      SpillChunk c = { b->spill_size, n };
      g_array_append_val (r->spilled, c);
      b->spill_size += n;
      r->recs.flushed += n;
      /* Give the memory back, not just the length. */
      g_clear_pointer (&r->recs.data, g_free);
      r->recs.len = r->recs.cap = 0;
    }
  b->rec_memory = 0;
}

/* ---- writing the representation ---- */

guint64
ttv_hist_hash (guint64 h, const guint8 *p, gsize n)
{
  /* FNV-1a, 64 bits: enough to tell a damaged cache file. */
  for (gsize i = 0; i < n; i++)
    h = (h ^ p[i]) * G_GUINT64_CONSTANT (0x100000001b3);
  return h;
}

void
ttv_hist_writer_put (TtvHistWriter *w, const void *data, gsize size)
{
  if (w->failed || size == 0)
    return;
  /* Only files need the checksum: memory is not damaged between runs. */
  if (w->file)
    w->hash = ttv_hist_hash (w->hash, data, size);
  if (w->bytes)
    g_byte_array_append (w->bytes, data, (guint) size);
  else if (fwrite (data, 1, size, w->file) != size)
    w->failed = TRUE;
  w->offset += size;
}

void
ttv_hist_writer_align (TtvHistWriter *w)
{
  static const guint8 zeros[8] = { 0 };
  if (w->offset % 8)
    ttv_hist_writer_put (w, zeros, 8 - w->offset % 8);
}

static guint32
intern_string (Builder *b, const char *s)
{
  if (s == NULL)
    return TTV_HIST_NO_STRING;
  gpointer v = g_hash_table_lookup (b->string_index, s);
  if (v)
    return GPOINTER_TO_UINT (v) - 1;
  char *copy = g_strdup (s);
  g_ptr_array_add (b->strings, copy);
  g_hash_table_insert (b->string_index, copy, GUINT_TO_POINTER (b->strings->len));
  return b->strings->len - 1;
}

static guint32
intern_quark (Builder *b, GQuark q)
{
  if (q == 0)
    return TTV_HIST_NO_STRING;
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

static gint
compare_rows (gconstpointer pa, gconstpointer pb)
{
  const BRow *a = *(BRow * const *) pa;
  const BRow *b = *(BRow * const *) pb;
  if (a->kind != b->kind)
    return a->kind < b->kind ? -1 : 1;
  if (a->id != b->id)
    return a->id < b->id ? -1 : 1;
  if (a->cpu != b->cpu)
    return a->cpu < b->cpu ? -1 : 1;
  if (a->birth != b->birth)
    return a->birth < b->birth ? -1 : 1;
  return a->end < b->end ? -1 : a->end > b->end;
}

/* The coded records of a row, contiguous: the spilled chunks read back,
 * then the ones in memory.  Returns NULL on a read failure. */
static guint8 *
row_bytes (Builder *b, BRow *r, guint64 *size, gboolean *owned)
{
  *size = r->recs.flushed + r->recs.len;
  if (r->spilled == NULL)
    {
      *owned = FALSE;
      return r->recs.data;
    }
  *owned = TRUE;
  guint8 *all = g_try_malloc (MAX (*size, 1));
  if (all == NULL)
    return NULL;
  guint64 k = 0;
  for (guint i = 0; i < r->spilled->len; i++)
    {
      SpillChunk *c = &g_array_index (r->spilled, SpillChunk, i);
      if (fseeko (b->spill, (off_t) c->offset, SEEK_SET) != 0
          || fread (all + k, 1, c->size, b->spill) != c->size)
        {
          g_free (all);
          return NULL;
        }
      k += c->size;
    }
  if (r->recs.len)
    memcpy (all + k, r->recs.data, r->recs.len);
  return all;
}

/* Writes a coded sequence: its bytes, then its block index. */
static void
write_seq (TtvHistWriter *w, const TtvHistSeq *seq, guint64 *bytes_offset, guint64 *blocks_offset)
{
  ttv_hist_writer_align (w);
  *bytes_offset = w->offset;
  ttv_hist_writer_put (w, seq->bytes, seq->size);
  ttv_hist_writer_align (w);
  *blocks_offset = w->offset;
  ttv_hist_writer_put (w, seq->blocks, seq->n_blocks * sizeof (TtvHistBlock));
}

static gboolean
write_representation (Builder *b, TtvHistWriter *w, const char *fingerprint, guint64 n_events,
                      gint64 start, gint64 end, GError **error)
{
  TtvHistHeader hd;
  memset (&hd, 0, sizeof hd);
  /* The header is written last; its place first, outside the checksum. */
  if (w->bytes)
    g_byte_array_append (w->bytes, (const guint8 *) &hd, sizeof hd);
  else if (fwrite (&hd, sizeof hd, 1, w->file) != 1)
    w->failed = TRUE;
  w->offset = sizeof hd;
  w->hash = TTV_HIST_HASH_SEED;

  hd.fingerprint_offset = w->offset;
  hd.fingerprint_size = strlen (fingerprint) + 1;
  ttv_hist_writer_put (w, fingerprint, hd.fingerprint_size);
  ttv_hist_writer_align (w);

  g_ptr_array_sort (b->rows, compare_rows);
  GArray *rows = g_array_sized_new (FALSE, TRUE, sizeof (TtvHistRow), b->rows->len);
  for (guint i = 0; i < b->rows->len && !w->failed; i++)
    {
      BRow *r = g_ptr_array_index (b->rows, i);
      TtvHistRow fr;
      memset (&fr, 0, sizeof fr);
      fr.kind = r->kind;
      fr.id = r->id;
      fr.cpu = r->kind == TTV_HISTORY_ROW_PROCESS && r->id == 0 ? r->cpu : -1;
      fr.tgid = r->tgid;
      fr.ppid = r->ppid;
      fr.name = intern_quark (b, r->name);
      fr.birth = r->birth;
      fr.end = r->end;
      fr.cpu_time = r->cpu_time;
      fr.n_events = r->n_events;
      fr.dead = r->dead;
      ttv_hist_encoder_finish (&r->recs);
      if (r->marks)
        ttv_hist_encoder_finish (r->marks);
      guint64 size;
      gboolean owned;
      guint8 *bytes = row_bytes (b, r, &size, &owned);
      if (bytes == NULL)
        {
          g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_IO,
                       _("Cannot read back the state history spill file"));
          g_array_unref (rows);
          return FALSE;
        }
      TtvHistSeq seq = { bytes, size, (const TtvHistBlock *) r->recs.blocks->data, r->recs.blocks->len,
                         r->recs.n_recs };
      fr.recs_size = size;
      fr.n_recs = seq.n_recs;
      write_seq (w, &seq, &fr.recs_offset, &fr.blocks_offset);
      if (r->marks)
        {
          TtvHistSeq marks;
          ttv_hist_encoder_view (r->marks, &marks);
          fr.marks_size = marks.size;
          fr.n_marks = marks.n_recs;
          write_seq (w, &marks, &fr.marks_offset, &fr.mark_blocks_offset);
        }
      ttv_hist_summary_write (w, &fr, &seq, b->origin, r->end);
      ttv_hist_writer_align (w);
      if (owned)
        g_free (bytes);
      g_array_append_val (rows, fr);
      hd.n_rows_by_kind[r->kind]++;
    }

  hd.strings_offset = w->offset;
  GArray *index = g_array_sized_new (FALSE, FALSE, sizeof (guint64), b->strings->len);
  for (guint i = 0; i < b->strings->len; i++)
    {
      const char *s = g_ptr_array_index (b->strings, i);
      guint64 off = w->offset - hd.strings_offset;
      g_array_append_val (index, off);
      ttv_hist_writer_put (w, s, strlen (s) + 1);
    }
  hd.strings_size = w->offset - hd.strings_offset;
  ttv_hist_writer_align (w);
  hd.string_index_offset = w->offset;
  hd.n_strings = b->strings->len;
  ttv_hist_writer_put (w, index->data, index->len * sizeof (guint64));
  g_array_unref (index);
  hd.rows_offset = w->offset;
  hd.n_rows = rows->len;
  ttv_hist_writer_put (w, rows->data, rows->len * sizeof (TtvHistRow));
  g_array_unref (rows);

  memcpy (hd.magic, TTV_HIST_MAGIC, sizeof hd.magic);
  hd.version = TTV_HIST_VERSION;
  hd.bom = TTV_HIST_BOM;
  hd.file_size = w->offset;
  hd.checksum = w->hash;
  hd.n_events = n_events;
  hd.origin = b->origin;
  hd.start = start;
  hd.end = end;
  if (w->bytes)
    memcpy (w->bytes->data, &hd, sizeof hd);
  else if (fseeko (w->file, 0, SEEK_SET) != 0 || fwrite (&hd, sizeof hd, 1, w->file) != 1
           || fflush (w->file) != 0)
    w->failed = TRUE;
  if (w->failed)
    {
      g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_IO,
                   _("Cannot write the state history: %s"), g_strerror (errno));
      return FALSE;
    }
  return TRUE;
}

/* Writes the cache file atomically and maps it. */
static TtvStateHistory *
write_cache (Builder *b, const char *path, const char *fingerprint, guint64 n_events,
             gint64 start, gint64 end, GError **error)
{
  g_autofree char *dir = g_path_get_dirname (path);
  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_IO, _("Cannot create %s: %s"), dir,
                   g_strerror (errno));
      return NULL;
    }
  g_autofree char *tmp = g_strdup_printf ("%s.XXXXXX", path);
  int fd = g_mkstemp_full (tmp, O_RDWR, 0600);
  if (fd < 0)
    {
      g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_IO, _("Cannot create %s: %s"), tmp,
                   g_strerror (errno));
      return NULL;
    }
  FILE *f = fdopen (fd, "w+b");
  if (f == NULL)
    {
      close (fd);
      g_unlink (tmp);
      g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_IO, _("Cannot write %s"), tmp);
      return NULL;
    }
  TtvHistWriter w = { NULL, f, 0, 0, FALSE };
  gboolean ok = write_representation (b, &w, fingerprint, n_events, start, end, error);
  if (fclose (f) != 0 && ok)
    {
      ok = FALSE;
      g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_IO, _("Cannot write %s"), tmp);
    }
  if (!ok || g_rename (tmp, path) != 0)
    {
      if (ok)
        g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_IO, _("Cannot rename %s: %s"), tmp,
                     g_strerror (errno));
      g_unlink (tmp);
      return NULL;
    }
  TtvStateHistory *h = ttv_hist_cache_load (path, fingerprint);
  if (h)
    h->from_cache = FALSE;
  else
    g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_CORRUPT,
                 _("The state history just written to %s does not read back"), path);
  return h;
}

static TtvStateHistory *
write_memory (Builder *b, const char *fingerprint, guint64 n_events, gint64 start, gint64 end,
              GError **error)
{
  /* Records, their index, marks, about a third as much for the summary, rows. */
  gsize estimate = b->rec_memory * 3 / 2 + b->mark_memory * 2 + b->rows->len * (sizeof (TtvHistRow) + 256) + 4096;
  TtvHistWriter w = { g_byte_array_sized_new ((guint) MIN (estimate, G_MAXUINT)), NULL, 0, 0, FALSE };
  if (!write_representation (b, &w, fingerprint, n_events, start, end, error))
    {
      g_byte_array_unref (w.bytes);
      return NULL;
    }
  TtvStateHistory *h = g_new0 (TtvStateHistory, 1);
  h->size = w.bytes->len;
  h->heap = g_byte_array_free (w.bytes, FALSE);
  h->data = h->heap;
  if (!ttv_hist_open_data (h, fingerprint, error))
    {
      ttv_state_history_free (h);
      return NULL;
    }
  return h;
}

static void
builder_free (Builder *b)
{
  g_ptr_array_unref (b->rows);
  g_hash_table_unref (b->processes);
  for (guint i = 0; i < b->n_pid_pages; i++)
    g_free (b->pid_pages[i]);
  g_free (b->pid_pages);
  g_array_unref (b->quark_small);
  for (guint k = 0; k < TTV_HISTORY_ROW_N_KINDS; k++)
    if (b->resources[k])
      g_hash_table_unref (b->resources[k]);
  g_free (b->cpus);
  g_array_unref (b->dirty);
  if (b->spill)
    fclose (b->spill);
  g_free (b->spill_dir);
  g_hash_table_unref (b->string_index);
  g_hash_table_unref (b->quark_index);
  g_ptr_array_unref (b->strings);
  g_free (b);
}

/* Names of rows known only at the end: IRQs, block devices, live tasks. */
static void
name_rows (Builder *b)
{
  for (guint i = 0; i < b->rows->len; i++)
    {
      BRow *r = g_ptr_array_index (b->rows, i);
      if (r->kind == TTV_HISTORY_ROW_PROCESS && r->open && r->id != 0)
        {
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
    }
  g_autoptr (GPtrArray) irqs = ttv_state_list_irqs (b->state, FALSE);
  for (guint i = 0; i < irqs->len; i++)
    {
      const TtvIrqState *q = g_ptr_array_index (irqs, i);
      BRow *r = g_hash_table_lookup (b->resources[TTV_HISTORY_ROW_IRQ], GUINT_TO_POINTER (q->id));
      if (r && q->name)
        r->name = q->name;
    }
}

TtvStateHistory *
ttv_state_history_build (TtvTraceset *ts, const TtvStateHistoryOptions *opt,
                         void (*progress) (double, gpointer), gpointer progress_data,
                         GCancellable *cancel, GError **error)
{
  TtvStateHistoryOptions defaults = { 0 };
  if (opt == NULL)
    opt = &defaults;
  if (g_cancellable_set_error_if_cancelled (cancel, error))
    return NULL;
  g_autofree char *fingerprint = ttv_hist_fingerprint (ts);
  g_autofree char *cache_path = opt->no_cache ? NULL : ttv_hist_cache_path (ts, opt);
  if (cache_path && g_file_test (cache_path, G_FILE_TEST_IS_REGULAR))
    {
      TtvStateHistory *h = ttv_hist_cache_load (cache_path, fingerprint);
      if (h)
        {
          if (progress)
            progress (1.0, progress_data);
          return h;
        }
      /* Stale or damaged: rebuilt below and replaced. */
    }

  g_autoptr (TtvContext) ctx = ttv_context_new (ts, error);
  if (ctx == NULL || !ttv_context_seek_begin (ctx, error))
    return NULL;
  g_autoptr (GPtrArray) traces = g_ptr_array_new ();
  for (guint i = 0; i < ttv_traceset_get_n_traces (ts); i++)
    g_ptr_array_add (traces, ttv_traceset_get_trace (ts, i));
  g_autoptr (TtvKernelModel) model = ttv_kernel_model_new (traces);
  g_autoptr (TtvState) state = ttv_state_new ();

  TtvTime start = ttv_traceset_get_start (ts), end = ttv_traceset_get_end (ts);
  Builder *b = g_new0 (Builder, 1);
  b->state = state;
  b->origin = start == TTV_TIME_MAX ? 0 : start;
  b->rows = g_ptr_array_new_with_free_func ((GDestroyNotify) brow_free);
  b->processes = g_hash_table_new (g_direct_hash, g_direct_equal);
  for (guint k = TTV_HISTORY_ROW_IRQ; k < TTV_HISTORY_ROW_N_KINDS; k++)
    b->resources[k] = g_hash_table_new (g_direct_hash, g_direct_equal);
  b->cpus = g_new0 (CpuCache, MAX_CPU);
  b->dirty = g_array_new (FALSE, FALSE, sizeof (Dirty));
  b->event_cpu = -1;
  b->max_memory = opt->max_memory ? opt->max_memory : (gsize) 256 << 20;
  b->spill_dir = cache_path ? g_path_get_dirname (cache_path) : NULL;
  b->strings = g_ptr_array_new_with_free_func (g_free);
  b->string_index = g_hash_table_new (g_str_hash, g_str_equal);
  b->quark_index = g_hash_table_new (g_direct_hash, g_direct_equal);
  b->quark_small = g_array_new (FALSE, TRUE, sizeof (guint32));

  ttv_state_add_observer (state, &history_observer, b);
  for (guint i = 0; i < traces->len; i++)
    ttv_kernel_model_apply_initial (model, state, g_ptr_array_index (traces, i));
  after_event (b, -1, b->origin);

  guint64 n = 0;
  gint64 last = b->origin;
  const TtvEvent *ev;
  GError *local = NULL;
  while ((ev = ttv_context_next (ctx, &local)) != NULL)
    {
      guint trace = ttv_traceset_get_stream_trace (ts, ttv_context_get_stream (ctx));
      b->event_cpu = ev->tracefile->cpu;
      ttv_kernel_model_apply (model, state, trace, ev);
      after_event (b, b->event_cpu, ev->time);
      last = MAX (last, ev->time);
      if ((++n & 0xffff) == 0)
        {
          if (g_cancellable_set_error_if_cancelled (cancel, &local))
            break;
          if (progress && end > start)
            progress ((double) (ev->time - start) / (double) (end - start), progress_data);
        }
    }
  if (local)
    {
      g_propagate_error (error, local);
      builder_free (b);
      return NULL;
    }
  /* Rows alive at the end cover the last event's time too. */
  gint64 hend = MAX (last, end == TTV_TIME_MIN ? last : end);
  hend = MAX (hend, b->origin) + 1;
  name_rows (b);
  for (guint i = 0; i < b->rows->len; i++)
    {
      BRow *r = g_ptr_array_index (b->rows, i);
      if (r->open)
        {
          close_row (b, r, hend, FALSE);
          r->open = TRUE;   /* alive at the end */
        }
    }
  ttv_state_remove_observer (state, &history_observer);

  gsize total = b->rec_memory + b->spill_size + b->mark_memory;
  TtvStateHistory *h = NULL;
  if (cache_path && (b->spill_size > 0 || total > b->max_memory))
    {
      g_autoptr (GError) cache_error = NULL;
      h = write_cache (b, cache_path, fingerprint, n, b->origin, hend, &cache_error);
      if (h == NULL)
        g_warning ("%s", cache_error->message);
    }
  if (h == NULL)
    h = write_memory (b, fingerprint, n, b->origin, hend, error);
  builder_free (b);
  if (h && progress)
    progress (1.0, progress_data);
  return h;
}

/* ---- queries ---- */

void
ttv_state_history_free (TtvStateHistory *h)
{
  if (h == NULL)
    return;
  g_free (h->heap);
  if (h->mapped)
    g_mapped_file_unref (h->mapped);
  g_free (h->infos);
  g_free (h->quarks);
  g_free (h->strings);
  g_free (h->cache_path);
  g_free (h);
}

guint
ttv_state_history_get_n_rows (const TtvStateHistory *h, TtvHistoryRowKind kind)
{
  if (kind >= TTV_HISTORY_ROW_N_KINDS)
    return 0;
  return h->row_base[kind + 1] - h->row_base[kind];
}

static const TtvHistRow *
get_row (const TtvStateHistory *h, TtvHistoryRowKind kind, guint row)
{
  if (row >= ttv_state_history_get_n_rows (h, kind))
    return NULL;
  return &h->rows[h->row_base[kind] + row];
}

const TtvHistoryRowInfo *
ttv_state_history_get_row (const TtvStateHistory *h, TtvHistoryRowKind kind, guint row)
{
  if (get_row (h, kind, row) == NULL)
    return NULL;
  return &h->infos[h->row_base[kind] + row];
}

void
ttv_hist_row_recs (const TtvStateHistory *h, const TtvHistRow *r, TtvHistSeq *seq)
{
  seq->bytes = h->data + r->recs_offset;
  seq->size = r->recs_size;
  seq->blocks = (const TtvHistBlock *) (h->data + r->blocks_offset);
  seq->n_recs = r->n_recs;
  seq->n_blocks = (r->n_recs + TTV_HIST_BLOCK - 1) / TTV_HIST_BLOCK;
}

void
ttv_hist_row_marks (const TtvStateHistory *h, const TtvHistRow *r, TtvHistSeq *seq)
{
  seq->bytes = h->data + r->marks_offset;
  seq->size = r->marks_size;
  seq->blocks = (const TtvHistBlock *) (h->data + r->mark_blocks_offset);
  seq->n_recs = r->n_marks;
  seq->n_blocks = (r->n_marks + TTV_HIST_BLOCK - 1) / TTV_HIST_BLOCK;
}

static void
fill_interval (const TtvStateHistory *h, const TtvHistRow *r, const TtvHistRec *rec, gint64 end,
               TtvHistoryInterval *out)
{
  out->start = rec->start;
  out->end = end;
  out->state = rec->key;
  out->cpu = (gint16) (r->kind == TTV_HISTORY_ROW_PROCESS ? rec->cpu : -1);
  out->aux = rec->aux;
  if (r->kind == TTV_HISTORY_ROW_PROCESS && ttv_history_state_mode (out->state) == TTV_MODE_SYSCALL)
    out->aux = out->aux < h->n_strings ? h->quarks[out->aux] : 0;
  out->n_events = rec->count;
}

gboolean
ttv_state_history_get_interval_at (const TtvStateHistory *h, TtvHistoryRowKind kind, guint row,
                                   TtvTime time, TtvHistoryInterval *out)
{
  const TtvHistRow *r = get_row (h, kind, row);
  if (r == NULL || r->n_recs == 0 || time >= r->end)
    return FALSE;
  TtvHistSeq seq;
  ttv_hist_row_recs (h, r, &seq);
  TtvHistCursor c;
  TtvHistRec rec, next;
  if (ttv_hist_seq_find (&seq, time, &c, &rec) < 0)
    return FALSE;
  fill_interval (h, r, &rec, ttv_hist_cursor_next (&c, &next) ? next.start : r->end, out);
  return TRUE;
}

GArray *
ttv_state_history_query_intervals (const TtvStateHistory *h, TtvHistoryRowKind kind, guint row,
                                   TtvTime t0, TtvTime t1)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (TtvHistoryInterval));
  const TtvHistRow *r = get_row (h, kind, row);
  if (r == NULL || r->n_recs == 0 || t1 < t0)
    return out;
  TtvHistSeq seq;
  ttv_hist_row_recs (h, r, &seq);
  TtvHistCursor c;
  TtvHistRec rec, next = { 0 };
  if (ttv_hist_seq_find (&seq, t0, &c, &rec) < 0 && !ttv_hist_cursor_next (&c, &rec))
    return out;
  for (gboolean have = TRUE; have && rec.start <= t1; rec = next)
    {
      have = ttv_hist_cursor_next_inline (&c, &next);
      TtvHistoryInterval iv;
      fill_interval (h, r, &rec, have ? next.start : r->end, &iv);
      if (iv.end <= iv.start || iv.end <= t0)
        continue;
      /* Records split only to hold their event count are one interval. */
      if (out->len > 0)
        {
          TtvHistoryInterval *last = &g_array_index (out, TtvHistoryInterval, out->len - 1);
          if (last->end == iv.start && last->state == iv.state && last->aux == iv.aux && last->cpu == iv.cpu)
            {
              last->end = iv.end;
              last->n_events += iv.n_events;
              continue;
            }
        }
      g_array_append_val (out, iv);
    }
  return out;
}

GArray *
ttv_state_history_query_marks (const TtvStateHistory *h, guint row, TtvTime t0, TtvTime t1)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (TtvHistoryMark));
  const TtvHistRow *r = get_row (h, TTV_HISTORY_ROW_PROCESS, row);
  if (r == NULL || r->n_marks == 0 || t1 < t0)
    return out;
  TtvHistSeq seq;
  ttv_hist_row_marks (h, r, &seq);
  TtvHistCursor c;
  TtvHistRec m;
  /* From the block before the first mark at or after @t0. */
  /* From the one after the last mark before @t0. */
  if (t0 == TTV_TIME_MIN || ttv_hist_seq_find (&seq, t0 - 1, &c, &m) < 0)
    ttv_hist_cursor_init (&c, &seq, 0);
  while (ttv_hist_cursor_next_inline (&c, &m) && m.start <= t1)
    {
      if (m.start < t0)
        continue;
      TtvHistoryMark hm = { m.start, (TtvHistoryMarkKind) m.key, m.aux, NULL };
      if (hm.kind == TTV_HISTORY_MARK_EXEC)
        {
          hm.name = m.aux < h->n_strings ? h->strings[m.aux] : NULL;
          hm.other = TTV_PID_NONE;
        }
      g_array_append_val (out, hm);
    }
  return out;
}

gint
ttv_state_history_find_row (const TtvStateHistory *h, TtvHistoryRowKind kind, guint32 id, gint cpu,
                            TtvTime time)
{
  guint n = ttv_state_history_get_n_rows (h, kind);
  const TtvHistRow *rows = &h->rows[kind < TTV_HISTORY_ROW_N_KINDS ? h->row_base[kind] : 0];
  guint lo = 0, hi = n;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (rows[mid].id < id)
        lo = mid + 1;
      else
        hi = mid;
    }
  for (guint i = lo; i < n && rows[i].id == id; i++)
    {
      if (kind == TTV_HISTORY_ROW_PROCESS && id == 0 && rows[i].cpu != cpu)
        continue;
      if (rows[i].n_recs > 0 && ((const TtvHistBlock *) (h->data + rows[i].blocks_offset))[0].start <= time
          && time < rows[i].end)
        return (gint) i;
    }
  return -1;
}

gsize
ttv_state_history_get_memory (const TtvStateHistory *h)
{
  guint64 n_rows = h->header->n_rows;
  return sizeof *h + (h->heap ? h->size : 0) + n_rows * sizeof (TtvHistoryRowInfo)
         + h->n_strings * (sizeof (GQuark) + sizeof (char *));
}

gsize
ttv_state_history_get_mapped_size (const TtvStateHistory *h)
{
  return h->mapped ? h->size : 0;
}

gsize
ttv_state_history_get_data_size (const TtvStateHistory *h)
{
  return h->size;
}

guint64
ttv_state_history_get_n_events (const TtvStateHistory *h)
{
  return h->header->n_events;
}

gboolean
ttv_state_history_is_from_cache (const TtvStateHistory *h)
{
  return h->from_cache;
}

const char *
ttv_state_history_get_cache_path (const TtvStateHistory *h)
{
  return h->cache_path;
}

const char *
ttv_history_row_kind_name (TtvHistoryRowKind kind)
{
  static const char *names[] = { "process", "cpu", "irq", "softirq", "blockdev" };
  return kind < G_N_ELEMENTS (names) ? names[kind] : "?";
}
