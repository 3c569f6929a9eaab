/* ttv-history.c: answering queries on a state history (intervals,
 * marks, rows, the interval at a time) from its representation, in memory
 * or read from its file; the pixel queries are in
 * ttv-history-summary.c.  Used by the control flow and resource
 * views, ttv-bench and the tests. */
#include "ttv-history-private.h"

#include <unistd.h>


void
ttv_history_free (TtvHistory *h)
{
  if (h == NULL)
    return;
  g_free (h->heap);
  if (h->fd >= 0)
    close (h->fd);
  g_free (h->meta);
  g_free (h->meta_rows);
  g_free (h->index);
  g_free (h->infos);
  g_free (h->quarks);
  g_free (h->strings);
  g_free (h->cache_path);
  g_free (h);
}

guint
ttv_history_get_n_rows (const TtvHistory *h, TtvHistoryRowKind kind)
{
  if (kind >= TTV_HISTORY_ROW_N_KINDS)
    return 0;
  return h->row_base[kind + 1] - h->row_base[kind];
}

const TtvHistoryRowInfo *
ttv_history_get_row (const TtvHistory *h, TtvHistoryRowKind kind, guint row)
{
  if (row >= ttv_history_get_n_rows (h, kind))
    return NULL;
  return &h->infos[h->row_base[kind] + row];
}

static void
row_seq (const TtvHistory *h, const TtvHistoryBlock *dir, guint64 n_recs, TtvHistorySeq *seq)
{
  seq->data = h->data;
  seq->fd = h->fd;
  seq->unwritten = NULL;
  seq->unwritten_from = h->size;
  seq->size = h->size;
  seq->dir = dir;
  seq->n_recs = n_recs;
  seq->n_blocks = ttv_history_n_blocks (n_recs);
}

void
ttv_history_row_recs (const TtvHistory *h, guint64 i, TtvHistorySeq *seq)
{
  row_seq (h, h->index[i].dir, h->infos[i].n_intervals, seq);
}

void
ttv_history_row_marks (const TtvHistory *h, guint64 i, TtvHistorySeq *seq)
{
  row_seq (h, h->index[i].mark_dir, h->infos[i].n_marks, seq);
}

static void
fill_interval (const TtvHistory *h, const TtvHistoryRowInfo *r, const TtvHistoryRec *rec, gint64 end,
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
ttv_history_get_interval_at (const TtvHistory *h, TtvHistoryRowKind kind, guint row,
                                   TtvTime time, TtvHistoryInterval *out)
{
  const TtvHistoryRowInfo *r = ttv_history_get_row (h, kind, row);
  if (r == NULL || r->n_intervals == 0 || time >= r->end)
    return FALSE;
  TtvHistorySeq seq;
  ttv_history_row_recs (h, (guint64) (r - h->infos), &seq);
  TtvHistoryCursor c;
  TtvHistoryRec rec, next;
  if (ttv_history_seq_find (&seq, time, &c, &rec) < 0)
    return FALSE;
  fill_interval (h, r, &rec, ttv_history_cursor_next (&c, &next) ? next.start : r->end, out);
  return TRUE;
}

GArray *
ttv_history_query_intervals (const TtvHistory *h, TtvHistoryRowKind kind, guint row,
                                   TtvTime t0, TtvTime t1)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (TtvHistoryInterval));
  const TtvHistoryRowInfo *r = ttv_history_get_row (h, kind, row);
  if (r == NULL || r->n_intervals == 0 || t1 < t0)
    return out;
  TtvHistorySeq seq;
  ttv_history_row_recs (h, (guint64) (r - h->infos), &seq);
  TtvHistoryCursor c;
  TtvHistoryRec rec, next = { 0 };
  if (ttv_history_seq_find (&seq, t0, &c, &rec) < 0 && !ttv_history_cursor_next (&c, &rec))
    return out;
  for (gboolean have = TRUE; have && rec.start <= t1; rec = next)
    {
      have = ttv_history_cursor_next_inline (&c, &next);
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
ttv_history_query_marks (const TtvHistory *h, guint row, TtvTime t0, TtvTime t1)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (TtvHistoryMark));
  const TtvHistoryRowInfo *r = ttv_history_get_row (h, TTV_HISTORY_ROW_PROCESS, row);
  if (r == NULL || r->n_marks == 0 || t1 < t0)
    return out;
  TtvHistorySeq seq;
  ttv_history_row_marks (h, (guint64) (r - h->infos), &seq);
  TtvHistoryCursor c;
  TtvHistoryRec m;
  /* From the one after the last mark before @t0. */
  if (t0 == TTV_TIME_MIN || ttv_history_seq_find (&seq, t0 - 1, &c, &m) < 0)
    ttv_history_cursor_init (&c, &seq, 0);
  while (ttv_history_cursor_next_inline (&c, &m) && m.start <= t1)
    {
      if (m.start < t0)
        continue;
      TtvHistoryMark hm = { m.start, (TtvHistoryMarkKind) m.key, m.aux, NULL, m.cpu };
      if (hm.kind == TTV_HISTORY_MARK_EXEC)
        {
          hm.name = m.aux < h->n_strings ? h->strings[m.aux] : NULL;
          hm.other = TTV_PID_NONE;
        }
      g_array_append_val (out, hm);
    }
  return out;
}

/* The first row of @kind at or after (@machine, @id) in the order rows
 * are sorted in (machine, then id). */
guint
ttv_history_lower_bound (const TtvHistory *h, TtvHistoryRowKind kind, guint machine, guint32 id)
{
  guint n = ttv_history_get_n_rows (h, kind);
  const TtvHistoryRowInfo *rows = &h->infos[kind < TTV_HISTORY_ROW_N_KINDS ? h->row_base[kind] : 0];
  guint lo = 0, hi = n;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (rows[mid].machine < machine || (rows[mid].machine == machine && rows[mid].id < id))
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

gint
ttv_history_find_row (const TtvHistory *h, TtvHistoryRowKind kind, guint machine, guint32 id, gint cpu,
                            TtvTime time)
{
  guint n = ttv_history_get_n_rows (h, kind);
  const TtvHistoryRowInfo *rows = &h->infos[kind < TTV_HISTORY_ROW_N_KINDS ? h->row_base[kind] : 0];
  for (guint i = ttv_history_lower_bound (h, kind, machine, id); i < n && rows[i].id == id
       && rows[i].machine == machine; i++)
    {
      if (kind == TTV_HISTORY_ROW_PROCESS && id == 0 && rows[i].cpu != cpu)
        continue;
      if (rows[i].n_intervals > 0 && h->index[h->row_base[kind] + i].dir[0].start <= time && time < rows[i].end)
        return (gint) i;
    }
  return -1;
}

guint
ttv_history_get_n_machines (const TtvHistory *h)
{
  return MAX (h->header.n_machines, 1);
}

guint
ttv_history_get_machine_rows (const TtvHistory *h, TtvHistoryRowKind kind, guint machine, guint *first)
{
  guint lo = ttv_history_lower_bound (h, kind, machine, 0);
  guint hi = machine == G_MAXUINT ? ttv_history_get_n_rows (h, kind)
                                  : ttv_history_lower_bound (h, kind, machine + 1, 0);
  if (first)
    *first = lo;
  return hi - lo;
}

gsize
ttv_history_get_memory (const TtvHistory *h)
{
  guint64 n_rows = h->header.n_rows;
  gsize meta = 0;
  if (h->meta)
    {
      /* Directories and strings read from the file. */
      meta = h->header.strings_size;
      for (guint64 i = 0; i < n_rows; i++)
        {
          guint64 n_pieces = ttv_history_n_pieces (ttv_history_n_blocks (h->infos[i].n_intervals))
                             + ttv_history_n_pieces (ttv_history_n_blocks (h->infos[i].n_marks));
          meta += n_pieces * sizeof (TtvHistoryBlock);
        }
    }
  return sizeof *h + (h->heap ? h->size : 0) + meta
         + n_rows * (sizeof (TtvHistoryRowInfo) + sizeof (TtvHistoryRowIndex))
         + h->n_strings * (sizeof (GQuark) + sizeof (char *));
}

gsize
ttv_history_get_mapped_size (const TtvHistory *h)
{
  return h->fd >= 0 ? h->size : 0;
}

gsize
ttv_history_get_data_size (const TtvHistory *h)
{
  return h->size;
}

guint64
ttv_history_get_n_events (const TtvHistory *h)
{
  return h->header.n_events;
}

gboolean
ttv_history_is_from_cache (const TtvHistory *h)
{
  return h->from_cache;
}

const char *
ttv_history_get_cache_path (const TtvHistory *h)
{
  return h->cache_path;
}

const char *
ttv_history_row_kind_name (TtvHistoryRowKind kind)
{
  static const char *names[] = { "process", "cpu", "irq", "softirq", "blockdev" };
  return kind < G_N_ELEMENTS (names) ? names[kind] : "?";
}
