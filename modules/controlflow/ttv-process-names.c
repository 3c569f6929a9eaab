/* ttv-process-names.c: the names of each process row over its life.  The
 * history keeps a row's last name and an exec mark per exec; the name at
 * birth is the parent's at the fork (a child starts with its parent's
 * name), found through the parent's own execs.  Reading every row's marks
 * costs a pass over them all: done in a worker thread. */
#include "ttv-process-names.h"

#include <string.h>

#define MAX_DEPTH 16   /* parents followed for a birth name */

typedef struct {
  GArray *execs;               /* of Exec, owned, NULL when none */
  gboolean forked;             /* born in the trace (a fork mark) */
  guint32 parent;              /* the fork mark's parent pid */
  gboolean done;               /* birth name looked for */
  const char *birth_name;      /* static (history strings), may be NULL */
} RowNames;

typedef struct {
  TtvTime time;
  const char *name;            /* static: the history's */
} Exec;

typedef struct {
  TtvViewerHistory *history;   /* owned reference */
  RowNames *rows;              /* owned */
  guint n_rows;
} Job;

static void
job_free (Job *job)
{
  for (guint i = 0; job->rows && i < job->n_rows; i++)
    g_clear_pointer (&job->rows[i].execs, g_array_unref);
  g_free (job->rows);
  ttv_viewer_history_unref (job->history);
  g_free (job);
}

static const char *name_at (Job *job, guint row, TtvTime t, guint depth);

static const char *
birth_name (Job *job, guint row, guint depth)
{
  RowNames *rn = &job->rows[row];
  const TtvHistoryRowInfo *info;
  gint parent;

  if (rn->done || depth > MAX_DEPTH)
    return rn->birth_name;
  rn->done = TRUE;
  if (!rn->forked)
    return NULL;
  info = ttv_viewer_history_get_row (job->history, TTV_HISTORY_ROW_PROCESS, row);
  parent = ttv_viewer_history_find_row (job->history, TTV_HISTORY_ROW_PROCESS, rn->parent, -1, info->birth);
  if (parent >= 0 && (guint) parent != row)
    rn->birth_name = name_at (job, (guint) parent, info->birth, depth + 1);
  return rn->birth_name;
}

static const char *
name_at (Job *job, guint row, TtvTime t, guint depth)
{
  RowNames *rn = &job->rows[row];

  for (guint i = rn->execs ? rn->execs->len : 0; i > 0; i--)
    {
      const Exec *e = &g_array_index (rn->execs, Exec, i - 1);

      if (e->time <= t)
        return e->name;
    }
  if (!rn->execs)
    return ttv_viewer_history_get_row (job->history, TTV_HISTORY_ROW_PROCESS, row)->name;
  return birth_name (job, row, depth);
}

static void
read_marks (Job *job, guint row)
{
  const TtvHistoryRowInfo *info = ttv_viewer_history_get_row (job->history, TTV_HISTORY_ROW_PROCESS, row);
  g_autoptr (GArray) marks = NULL;
  RowNames *rn = &job->rows[row];

  if (!info || info->n_marks == 0)
    return;
  marks = ttv_viewer_history_query_marks (job->history, row, info->birth, info->end);
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

/* The names of @row, oldest first, without repeats; NULL for one name. */
static GStrv
row_names (Job *job, guint row)
{
  RowNames *rn = &job->rows[row];
  g_autoptr (GStrvBuilder) builder = NULL;
  const char *last = NULL;
  guint n = 0;

  if (!rn->execs)
    return NULL;
  builder = g_strv_builder_new ();
  last = birth_name (job, row, 0);
  if (last)
    {
      g_strv_builder_add (builder, last);
      n++;
    }
  for (guint i = 0; i < rn->execs->len; i++)
    {
      const Exec *e = &g_array_index (rn->execs, Exec, i);

      if (g_strcmp0 (e->name, last) == 0)
        continue;
      g_strv_builder_add (builder, e->name);
      last = e->name;
      n++;
    }
  return n > 1 ? g_strv_builder_end (builder) : NULL;
}

static void
names_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancel)
{
  Job *job = data;
  GPtrArray *out;

  for (guint r = 0; r < job->n_rows; r++)
    {
      if (g_cancellable_is_cancelled (cancel))
        {
          g_task_return_error_if_cancelled (task);
          return;
        }
      read_marks (job, r);
    }
  out = g_ptr_array_new_full (job->n_rows, (GDestroyNotify) g_strfreev);
  for (guint r = 0; r < job->n_rows; r++)
    g_ptr_array_add (out, row_names (job, r));
  g_task_return_pointer (task, out, (GDestroyNotify) g_ptr_array_unref);
}

void
ttv_process_names_run_async (TtvViewerHistory *history, GCancellable *cancellable,
                             GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr (GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  Job *job = g_new0 (Job, 1);

  job->history = ttv_viewer_history_ref (history);
  job->n_rows = ttv_viewer_history_get_n_rows (history, TTV_HISTORY_ROW_PROCESS);
  job->rows = g_new0 (RowNames, MAX (job->n_rows, 1));
  g_task_set_task_data (task, job, (GDestroyNotify) job_free);
  g_task_run_in_thread (task, names_thread);
}

GPtrArray *
ttv_process_names_run_finish (GAsyncResult *result, GError **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

char *
ttv_process_names_join (const char *const *names, const char *name)
{
  guint n = names ? g_strv_length ((char **) names) : 0;

  if (n == 0)
    return g_strdup (name ? name : "");
  if (n <= 2)
    return g_strjoinv (" → ", (char **) names);
  return g_strdup_printf ("%s → … → %s", names[0], names[n - 1]);
}
