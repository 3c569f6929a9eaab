/* ttv-bookmark-saver.c: a queue of bookmark saves served one at a time by
 * a GTask thread over ttv_bookmarks_save_for_trace_full. */
#include "ttv-config.h"

#include "ttv-bookmark-saver.h"

enum { SIG_STARTED, SIG_FINISHED, N_SIGNALS };
static guint signals[N_SIGNALS];

typedef struct {
  TtvTraceset *traceset;        /* owned reference: keeps @trace alive */
  TtvTrace *trace;              /* weak */
  TtvBookmarksPlace place;
  TtvBookmarks *bookmarks;      /* owned */
  gint *permille;               /* g_atomic_rc_box, owned reference */
} SaveJob;

struct _TtvBookmarkSaver {
  GObject parent_instance;

  GQueue waiting;               /* of SaveJob *, owned */
  SaveJob *running;             /* weak: owned by its GTask */
  GCancellable *cancellable;    /* owned, NULL when idle */
  gboolean holding;             /* holds the application while busy */
};

G_DEFINE_FINAL_TYPE (TtvBookmarkSaver, ttv_bookmark_saver, G_TYPE_OBJECT)

static void
save_job_free (SaveJob *job)
{
  ttv_traceset_unref (job->traceset);
  ttv_bookmarks_free (job->bookmarks);
  g_atomic_rc_box_release (job->permille);
  g_free (job);
}

static void
report_progress (guint64 done, guint64 total, gpointer data)
{
  gint *permille = data;

  if (total > 0)
    g_atomic_int_set (permille, (gint) MIN (1000, done * 1000 / total));
}

static void
save_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  SaveJob *job = data;
  GError *error = NULL;

  if (ttv_bookmarks_save_for_trace_full (job->bookmarks, job->trace, job->place, cancellable,
                                         report_progress, job->permille, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static void start_next (TtvBookmarkSaver *self);

/* The application must not quit halfway through rewriting an archive. */
static void
set_holding (TtvBookmarkSaver *self, gboolean hold)
{
  GApplication *app = g_application_get_default ();

  if (hold == self->holding || !app)
    return;
  self->holding = hold;
  if (hold)
    g_application_hold (app);
  else
    g_application_release (app);
}

static void
save_done (GObject *source, GAsyncResult *result, gpointer data)
{
  TtvBookmarkSaver *self = TTV_BOOKMARK_SAVER (source);
  SaveJob *job = g_task_get_task_data (G_TASK (result));
  g_autoptr (GError) error = NULL;

  g_task_propagate_boolean (G_TASK (result), &error);
  self->running = NULL;
  g_clear_object (&self->cancellable);
  g_signal_emit (self, signals[SIG_FINISHED], 0, job->trace, error);
  start_next (self);
}

static void
start_next (TtvBookmarkSaver *self)
{
  SaveJob *job = g_queue_pop_head (&self->waiting);
  g_autoptr (GTask) task = NULL;

  if (!job)
    {
      set_holding (self, FALSE);
      return;
    }
  set_holding (self, TRUE);
  self->running = job;
  self->cancellable = g_cancellable_new ();
  task = g_task_new (self, self->cancellable, save_done, NULL);
  g_task_set_task_data (task, job, (GDestroyNotify) save_job_free);
  g_task_set_return_on_cancel (task, FALSE);    /* the thread cleans up first */
  g_signal_emit (self, signals[SIG_STARTED], 0, job->trace);
  g_task_run_in_thread (task, save_thread);
}

void
ttv_bookmark_saver_save (TtvBookmarkSaver *self, TtvTraceset *traceset, TtvTrace *trace,
                         TtvBookmarksPlace place, TtvBookmarks *bookmarks)
{
  SaveJob *job;

  g_return_if_fail (TTV_IS_BOOKMARK_SAVER (self) && traceset && trace && bookmarks);
  for (GList *l = self->waiting.head; l; l = l->next)
    {
      SaveJob *old = l->data;
      if (old->trace == trace)
        {
          /* Only the latest list matters: it replaces the older one. */
          ttv_bookmarks_free (old->bookmarks);
          old->bookmarks = bookmarks;
          old->place = place;
          return;
        }
    }
  job = g_new0 (SaveJob, 1);
  job->traceset = ttv_traceset_ref (traceset);
  job->trace = trace;
  job->place = place;
  job->bookmarks = bookmarks;
  job->permille = g_atomic_rc_box_new0 (gint);
  g_queue_push_tail (&self->waiting, job);
  if (!self->running)
    start_next (self);
}

gboolean
ttv_bookmark_saver_is_busy (TtvBookmarkSaver *self)
{
  g_return_val_if_fail (TTV_IS_BOOKMARK_SAVER (self), FALSE);
  return self->running != NULL;
}

TtvTrace *
ttv_bookmark_saver_get_current (TtvBookmarkSaver *self)
{
  g_return_val_if_fail (TTV_IS_BOOKMARK_SAVER (self), NULL);
  return self->running ? self->running->trace : NULL;
}

double
ttv_bookmark_saver_get_fraction (TtvBookmarkSaver *self)
{
  g_return_val_if_fail (TTV_IS_BOOKMARK_SAVER (self), 0);
  return self->running ? g_atomic_int_get (self->running->permille) / 1000.0 : 0;
}

void
ttv_bookmark_saver_cancel (TtvBookmarkSaver *self)
{
  g_return_if_fail (TTV_IS_BOOKMARK_SAVER (self));
  g_queue_clear_full (&self->waiting, (GDestroyNotify) save_job_free);
  if (self->cancellable)
    g_cancellable_cancel (self->cancellable);
}

static void
ttv_bookmark_saver_finalize (GObject *object)
{
  TtvBookmarkSaver *self = TTV_BOOKMARK_SAVER (object);

  /* A running task holds a reference: nothing runs any more here. */
  g_queue_clear_full (&self->waiting, (GDestroyNotify) save_job_free);
  set_holding (self, FALSE);
  G_OBJECT_CLASS (ttv_bookmark_saver_parent_class)->finalize (object);
}

static void
ttv_bookmark_saver_class_init (TtvBookmarkSaverClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ttv_bookmark_saver_finalize;
  signals[SIG_STARTED] = g_signal_new ("started", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                       0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_POINTER);
  signals[SIG_FINISHED] = g_signal_new ("finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                        0, NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_POINTER,
                                        G_TYPE_POINTER);
}

static void
ttv_bookmark_saver_init (TtvBookmarkSaver *self)
{
  g_queue_init (&self->waiting);
}

TtvBookmarkSaver *
ttv_bookmark_saver_new (void)
{
  return g_object_new (TTV_TYPE_BOOKMARK_SAVER, NULL);
}
