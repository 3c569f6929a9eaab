/* ttv-history-names.c: the names of each process row over its life, as the
 * kernel gives them: the history keeps a row's last name and an exec mark
 * per exec; the name at birth is the parent's at the fork (a child starts
 * with its parent's name), found through the parent's own execs.  Used by
 * the control flow view (its labels, search, tooltips) through the plugin
 * SDK. */
#include "ttv-history-private.h"

#include <gio/gio.h>

#define MAX_DEPTH 16   /* parents followed for a birth name */

/* --- One row at a time -------------------------------------------------------- */

gint
ttv_history_find_process (const TtvHistory *h, guint machine, guint32 pid, gint cpu, TtvTime time)
{
  gint row = ttv_history_find_row (h, TTV_HISTORY_ROW_PROCESS, machine, pid, cpu, time);

  if (row >= 0 || pid == 0)
    return row;
  /* Rows are sorted by machine, pid, then birth: the pid's first life,
   * when the task was known before its row began (at the trace start). */
  guint lo = ttv_history_lower_bound (h, TTV_HISTORY_ROW_PROCESS, machine, pid);
  const TtvHistoryRowInfo *info = ttv_history_get_row (h, TTV_HISTORY_ROW_PROCESS, lo);
  if (info && info->id == pid && info->machine == machine)
    return (gint) lo;
  return -1;
}

static const char *
name_at (const TtvHistory *h, guint row, TtvTime time, guint depth)
{
  const TtvHistoryRowInfo *info = ttv_history_get_row (h, TTV_HISTORY_ROW_PROCESS, row);
  g_autoptr (GArray) marks = NULL;
  const char *before = NULL;
  guint32 parent = TTV_PID_NONE;

  if (!info)
    return NULL;
  /* The row's name is its last: before an exec it had the previous exec's
   * name, or before the first one, its parent's at the fork. */
  marks = ttv_history_query_marks (h, row, info->birth, info->end);
  for (guint m = 0; marks && m < marks->len; m++)
    {
      const TtvHistoryMark *mk = &g_array_index (marks, TtvHistoryMark, m);

      if (mk->kind == TTV_HISTORY_MARK_FORK && parent == TTV_PID_NONE)
        parent = mk->other;
      if (mk->kind != TTV_HISTORY_MARK_EXEC || !mk->name)
        continue;
      if (mk->time > time)
        {
          gint prow;

          if (before || parent == TTV_PID_NONE || depth > 8)
            return before;
          prow = ttv_history_find_process (h, info->machine, parent, -1, info->birth);
          return prow >= 0 && (guint) prow != row ? name_at (h, (guint) prow, info->birth, depth + 1)
                                                  : NULL;
        }
      before = mk->name;
    }
  return info->name;
}

const char *
ttv_history_get_process_name_at (const TtvHistory *h, guint row, TtvTime time)
{
  g_return_val_if_fail (h != NULL, NULL);
  return name_at (h, row, time, 0);
}

/* --- Every row at once ---------------------------------------------------------
 * Each row's marks read once; birth names shared between the children of
 * a parent. */

typedef struct {
  TtvTime time;
  const char *name;            /* the history's */
} Exec;

typedef struct {
  gboolean read;               /* its marks were read */
  GArray *execs;               /* of Exec, owned, NULL when none */
  gboolean forked;             /* born in the trace (a fork mark) */
  guint32 parent;              /* the fork mark's parent pid */
  gboolean done;               /* birth name looked for */
  const char *birth_name;      /* the history's, may be NULL */
} RowNames;

typedef struct {
  const TtvHistory *h;
  RowNames *rows;              /* owned */
  guint n_rows;
} Names;

static const char *names_at (Names *n, guint row, TtvTime t, guint depth);

static const char *
birth_name (Names *n, guint row, guint depth)
{
  RowNames *rn = &n->rows[row];
  const TtvHistoryRowInfo *info;
  gint parent;

  if (rn->done || depth > MAX_DEPTH)
    return rn->birth_name;
  rn->done = TRUE;
  if (!rn->forked)
    return NULL;
  info = ttv_history_get_row (n->h, TTV_HISTORY_ROW_PROCESS, row);
  parent = ttv_history_find_row (n->h, TTV_HISTORY_ROW_PROCESS, info->machine, rn->parent, -1, info->birth);
  if (parent >= 0 && (guint) parent != row)
    rn->birth_name = names_at (n, (guint) parent, info->birth, depth + 1);
  return rn->birth_name;
}

static const char *
names_at (Names *n, guint row, TtvTime t, guint depth)
{
  RowNames *rn = &n->rows[row];

  for (guint i = rn->execs ? rn->execs->len : 0; i > 0; i--)
    {
      const Exec *e = &g_array_index (rn->execs, Exec, i - 1);

      if (e->time <= t)
        return e->name;
    }
  if (!rn->execs)
    return ttv_history_get_row (n->h, TTV_HISTORY_ROW_PROCESS, row)->name;
  return birth_name (n, row, depth);
}

static void
read_marks (Names *n, guint row)
{
  const TtvHistoryRowInfo *info = ttv_history_get_row (n->h, TTV_HISTORY_ROW_PROCESS, row);
  g_autoptr (GArray) marks = NULL;
  RowNames *rn = &n->rows[row];

  if (rn->read || !info || info->n_marks == 0)
    return;
  rn->read = TRUE;
  marks = ttv_history_query_marks (n->h, row, info->birth, info->end);
  for (guint m = 0; marks && m < marks->len; m++)
    {
      const TtvHistoryMark *mk = &g_array_index (marks, TtvHistoryMark, m);

      if (mk->kind == TTV_HISTORY_MARK_FORK && !rn->forked)
        {
          rn->forked = TRUE;
          rn->parent = mk->other;
        }
      else if (mk->kind == TTV_HISTORY_MARK_EXEC && mk->name)
        {
          Exec e = { mk->time, mk->name };

          if (!rn->execs)
            rn->execs = g_array_new (FALSE, FALSE, sizeof (Exec));
          g_array_append_val (rn->execs, e);
        }
    }
}

/* The names of @row, oldest first, without repeats, into @out (not
 * owned: the history's); FALSE for one name. */
static gboolean
row_names (Names *n, guint row, GPtrArray *out)
{
  RowNames *rn = &n->rows[row];
  const char *last;

  g_ptr_array_set_size (out, 0);
  if (!rn->execs)
    return FALSE;
  last = birth_name (n, row, 0);
  if (last)
    g_ptr_array_add (out, (gpointer) last);
  for (guint i = 0; i < rn->execs->len; i++)
    {
      const Exec *e = &g_array_index (rn->execs, Exec, i);

      if (g_strcmp0 (e->name, last) == 0)
        continue;
      g_ptr_array_add (out, (gpointer) e->name);
      last = e->name;
    }
  return out->len > 1;
}

/* --- Lists of names, shared ----------------------------------------------------
 * Thousands of processes have the same names ("bash → gcc"): each list is
 * kept once, for the program's life, as the strings are (g_intern_string),
 * rather than once for each row (2.5 MB of a viewer on a trace of 79,000
 * processes). */

static GMutex shared_lock;
/* Keyed by the list's interned strings, as bytes: a list's pointers name
 * it whatever bytes its names hold (names joined by a separator would
 * not: a process may put any byte in its name). */
static GHashTable *shared_lists;   /* GBytes over a list's pointers -> the list (const char **) */

/* The list of @names (@n_names of them), shared. */
static const char *const *
shared_names (const char *const *names, guint n_names)
{
  g_autofree const char **interned = g_new (const char *, n_names + 1);
  for (guint i = 0; i < n_names; i++)
    interned[i] = g_intern_string (names[i]);
  interned[n_names] = NULL;
  g_autoptr (GBytes) key = g_bytes_new_static (interned, n_names * sizeof (char *));

  g_mutex_lock (&shared_lock);
  if (shared_lists == NULL)
    shared_lists = g_hash_table_new_full (g_bytes_hash, g_bytes_equal, (GDestroyNotify) g_bytes_unref, NULL);
  const char **list = g_hash_table_lookup (shared_lists, key);
  if (list == NULL)
    {
      list = g_steal_pointer (&interned);
      g_hash_table_insert (shared_lists, g_bytes_new_static (list, n_names * sizeof (char *)), list);
    }
  g_mutex_unlock (&shared_lock);
  return list;
}

static void
names_clear (Names *n)
{
  for (guint i = 0; n->rows && i < n->n_rows; i++)
    g_clear_pointer (&n->rows[i].execs, g_array_unref);
  g_free (n->rows);
}

GPtrArray *
ttv_history_dup_all_process_names (const TtvHistory *h, GCancellable *cancellable, GError **error)
{
  Names n = { h, NULL, ttv_history_get_n_rows (h, TTV_HISTORY_ROW_PROCESS) };
  GPtrArray *out;

  n.rows = g_new0 (RowNames, MAX (n.n_rows, 1));
  for (guint r = 0; r < n.n_rows; r++)
    {
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          names_clear (&n);
          return NULL;
        }
      read_marks (&n, r);
    }
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  out = g_ptr_array_new_full (n.n_rows, NULL);
  for (guint r = 0; r < n.n_rows; r++)
    {
      const char *const *list = NULL;
      if (row_names (&n, r, names))
        list = shared_names ((const char *const *) names->pdata, names->len);
      g_ptr_array_add (out, (gpointer) list);
    }
  names_clear (&n);
  return out;
}

GStrv
ttv_history_dup_process_names (const TtvHistory *h, guint row)
{
  guint n_rows = ttv_history_get_n_rows (h, TTV_HISTORY_ROW_PROCESS);
  Names n = { h, NULL, n_rows };
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  GStrv out = NULL;

  if (row >= n_rows)
    return NULL;
  /* The row's own marks, and its ancestors' as far as its birth name
   * needs: one sparse table, filled on demand. */
  n.rows = g_new0 (RowNames, n_rows);
  read_marks (&n, row);
  for (guint r = row, depth = 0; depth <= MAX_DEPTH && n.rows[r].forked; depth++)
    {
      const TtvHistoryRowInfo *info = ttv_history_get_row (h, TTV_HISTORY_ROW_PROCESS, r);
      gint parent = ttv_history_find_row (h, TTV_HISTORY_ROW_PROCESS, info->machine, n.rows[r].parent, -1,
                                  info->birth);

      if (parent < 0 || (guint) parent == r || n.rows[parent].read)
        break;
      read_marks (&n, (guint) parent);
      r = (guint) parent;
    }
  if (row_names (&n, row, names))
    {
      g_ptr_array_add (names, NULL);
      out = g_strdupv ((char **) names->pdata);
    }
  names_clear (&n);
  return out;
}
