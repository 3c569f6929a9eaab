/* ttv-tab-bookmarks.c: the bookmarks of one tab: libttv's bookmark files
 * <-> the tab state's list, background saves, read-only traces, dialogs,
 * delete with Undo.  Used by the tab (ttv-tab.c). */
#include "ttv-config.h"

#include "ttv-tab-bookmarks.h"

#include "ttv-bookmark-dialog.h"
#include "ttv-tab.h"
#include "ttv-archive.h"
#include "ttv-bookmarks.h"

#include <glib/gi18n.h>

#define UNDO_KEY "bookmark-undo"
#define SAVE_KEY "bookmark-save"

enum {
  RESPONSE_BESIDE = 1,
  RESPONSE_USER_DIR,
  RESPONSE_DONT_SAVE,
};

struct _TtvTabBookmarks {
  GtkWidget *tab;                /* weak: owns us */
  TtvTabState *state;            /* weak */
  TtvNotifications *notifications;       /* weak */
  TtvStatusBar *status;          /* weak */
  TtvBookmarkSaver *saver;       /* owned reference */
  GArray *choices;               /* of TtvSaveChoice, per trace index */
  GtkWidget *asking;             /* the read-only question on screen, or NULL */
  guint asking_trace;
  TtvViewerBookmark *deleted;    /* owned, NULL: nothing to undo */
  guint progress_timeout;
  GCancellable *load_cancel;     /* owned: the loads under way */
  GArray *loaded;                /* of gboolean, per trace index: its file was read */
  GArray *save_pending;          /* of gboolean, per trace index: changed while loading */
  GArray *clocks;                /* of TraceClock, per trace index: the clock offset its file
                                  * holds (ttv-report --save-offsets), written back with the
                                  * bookmarks */
  guint n_loading;               /* loads under way */
};

typedef struct {
  gboolean set;
  gint64 offset_ns;
} TraceClock;

static TraceClock
get_clock (TtvTabBookmarks *self, guint trace_index)
{
  TraceClock none = { FALSE, 0 };

  return trace_index < self->clocks->len ? g_array_index (self->clocks, TraceClock, trace_index) : none;
}

static void
set_clock (TtvTabBookmarks *self, guint trace_index, gboolean set, gint64 offset_ns)
{
  if (trace_index >= self->clocks->len)
    g_array_set_size (self->clocks, trace_index + 1);
  g_array_index (self->clocks, TraceClock, trace_index) = (TraceClock) { set, set ? offset_ns : 0 };
}

static GtkWindow *
parent_window (TtvTabBookmarks *self)
{
  GtkWidget *toplevel = gtk_widget_get_toplevel (self->tab);

  return GTK_IS_WINDOW (toplevel) ? GTK_WINDOW (toplevel) : NULL;
}

static void
notify (TtvTabBookmarks *self, const char *key, GtkMessageType type, const char *text)
{
  ttv_notifications_show (self->notifications, key, type, text, NULL, NULL, NULL, NULL);
}

static TtvSaveChoice
get_choice (TtvTabBookmarks *self, guint trace_index)
{
  if (trace_index >= self->choices->len)
    return TTV_SAVE_CHOICE_ASK;
  return g_array_index (self->choices, TtvSaveChoice, trace_index);
}

static void
set_choice (TtvTabBookmarks *self, guint trace_index, TtvSaveChoice choice)
{
  if (trace_index >= self->choices->len)
    g_array_set_size (self->choices, trace_index + 1);
  g_array_index (self->choices, TtvSaveChoice, trace_index) = choice;
}

/* --- libttv <-> viewer API ------------------------------------------------- */

static TtvViewerBookmark *
from_ttv_bookmark (const TtvBookmark *b, guint trace_index, const TtvTrace *trace)
{
  TtvViewerBookmark *v;

  if (b->kind == TTV_BOOKMARK_CYCLE || b->kind == TTV_BOOKMARK_CYCLE_INTERVAL)
    {
      TtvTime start = trace->start, end = trace->start;

      /* Placed through the trace's clock (at its start when it has none),
       * written back as cycles. */
      if (ttv_trace_cycles_to_time (trace, b->start_cycle, &start)
          && !ttv_trace_cycles_to_time (trace, b->end_cycle, &end))
        end = start;
      v = ttv_viewer_bookmark_new (b->name, b->text, b->cpu, start, MAX (start, end));
      v->has_cycles = TRUE;
      v->start_cycle = b->start_cycle;
      v->end_cycle = b->end_cycle;
    }
  else
    v = ttv_viewer_bookmark_new (b->name, b->text, b->cpu, b->start, b->end);
  v->trace_index = trace_index;
  return v;
}

static TtvBookmark *
to_ttv_bookmark (const TtvViewerBookmark *v)
{
  TtvBookmark *b;

  if (v->has_cycles)
    b = ttv_bookmark_new_cycles (v->name, v->start_cycle, v->end_cycle,
                                 v->text[0] ? v->text : NULL);
  else
    b = ttv_bookmark_new (v->name, v->start, v->end, v->text[0] ? v->text : NULL);
  b->cpu = v->cpu;
  return b;
}

static TtvSaveChoice
choice_for_place (TtvBookmarksPlace place)
{
  return place == TTV_BOOKMARKS_BESIDE_TRACE ? TTV_SAVE_CHOICE_BESIDE : TTV_SAVE_CHOICE_USER_DIR;
}

static gboolean
flag_get (GArray *flags, guint i)
{
  return i < flags->len && g_array_index (flags, gboolean, i);
}

static void
flag_set (GArray *flags, guint i, gboolean value)
{
  if (i >= flags->len)
    g_array_set_size (flags, i + 1);
  g_array_index (flags, gboolean, i) = value;
}

/* What a load read in the background for one trace. */
typedef struct {
  TtvBookmarks *list;            /* owned, NULL when not read */
  GError *error;                 /* owned, why not */
  gboolean writable;
  gboolean found;                /* @place holds a bookmarks file */
  TtvBookmarksPlace place;
} TraceLoad;

typedef struct {
  TtvTraceset *traceset;         /* owned reference: keeps the traces alive */
  guint from, to;                /* trace indexes read */
  TtvTrace **traces;             /* owned array of weak pointers: traces from..to (the
                                  * traceset may grow meanwhile) */
  TraceLoad *results;            /* owned, to - from of them */
} LoadJob;

static void
load_job_free (LoadJob *job)
{
  for (guint i = 0; i < job->to - job->from; i++)
    {
      g_clear_pointer (&job->results[i].list, ttv_bookmarks_free);
      g_clear_error (&job->results[i].error);
    }
  g_free (job->results);
  g_free (job->traces);
  ttv_traceset_unref (job->traceset);
  g_free (job);
}

/* In a worker thread: files are read and parsed there, within limits and a
 * time bound (ttv-safe-xml.c), so a hostile or slow file never stalls the
 * window. */
static void
load_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  LoadJob *job = data;

  for (guint t = job->from; t < job->to && !g_cancellable_is_cancelled (cancellable); t++)
    {
      TtvTrace *trace = job->traces[t - job->from];
      TraceLoad *r = &job->results[t - job->from];
      r->list = ttv_bookmarks_load_for_trace (trace, &r->error);
      r->writable = ttv_bookmarks_trace_is_writable (trace);
      r->found = ttv_bookmarks_find_for_trace (trace, &r->place);
    }
  g_task_return_boolean (task, TRUE);
}

static void save (TtvTabBookmarks *self, guint trace_index);

/* Back in the main loop: the bookmarks read join those of the state (some
 * may have been added while reading), and the saves asked for meanwhile run. */
static void
load_done (GObject *source, GAsyncResult *result, gpointer data)
{
  GTask *task = G_TASK (result);
  LoadJob *job = g_task_get_task_data (task);
  TtvTabBookmarks *self = data;
  g_autoptr (GString) problems = g_string_new (NULL);
  g_autoptr (GString) read_only = g_string_new (NULL);

  if (g_cancellable_is_cancelled (g_task_get_cancellable (task)))
    return;     /* the tab is gone, and @self with it */
  self->n_loading--;
  GPtrArray *current = ttv_tab_state_get_bookmarks (self->state);
  g_autoptr (GPtrArray) all = g_ptr_array_new_with_free_func ((GDestroyNotify) ttv_viewer_bookmark_free);
  for (guint i = 0; i < current->len; i++)
    g_ptr_array_add (all, ttv_viewer_bookmark_copy (current->pdata[i]));
  for (guint t = job->from; t < job->to && t < ttv_tab_state_get_n_traces (self->state); t++)
    {
      TtvTrace *trace = ttv_traceset_get_trace (ttv_tab_state_get_traceset (self->state), t);
      TraceLoad *r = &job->results[t - job->from];

      if (!r->writable)
        {
          /* Bookmarks kept beside it or in the user folder before: the
           * choice was made then; keep it. */
          if (get_choice (self, t) == TTV_SAVE_CHOICE_ASK && r->found && r->place != TTV_BOOKMARKS_IN_TRACE)
            set_choice (self, t, choice_for_place (r->place));
          g_string_append_printf (read_only, "%s%s", read_only->len ? ", " : "", trace->display_path);
        }
      if (r->list == NULL)
        g_string_append_printf (problems, _("Bookmarks of %s not loaded: %s\n"), trace->display_path,
                                r->error->message);
      for (guint i = 0; r->list && i < ttv_bookmarks_get_n (r->list); i++)
        g_ptr_array_add (all, from_ttv_bookmark (ttv_bookmarks_get (r->list, i), t, trace));
      if (r->list)
        {
          gint64 offset = 0;
          gboolean set = ttv_bookmarks_get_clock_offset (r->list, &offset);

          set_clock (self, t, set, offset);
        }
      flag_set (self->loaded, t, TRUE);
    }
  ttv_tab_state_set_bookmarks (self->state, g_steal_pointer (&all));
  if (problems->len)
    {
      g_strchomp (problems->str);
      notify (self, "bookmark-load", GTK_MESSAGE_WARNING, problems->str);
    }
  if (read_only->len)
    {
      g_autofree char *text = g_strdup_printf (_("%s is read-only: bookmarks cannot be saved in it. "
                                                 "When you add one, you can save them beside it "
                                                 "or in your own folder."),
                                               read_only->str);
      notify (self, "read-only", GTK_MESSAGE_INFO, text);
    }
  for (guint t = job->from; t < job->to; t++)
    if (flag_get (self->save_pending, t))
      {
        flag_set (self->save_pending, t, FALSE);
        save (self, t);
      }
}

void
ttv_tab_bookmarks_load (TtvTabBookmarks *self, guint from)
{
  guint n = ttv_tab_state_get_n_traces (self->state);
  LoadJob *job;
  g_autoptr (GTask) task = NULL;

  if (from >= n)
    return;
  job = g_new0 (LoadJob, 1);
  job->traceset = ttv_traceset_ref (ttv_tab_state_get_traceset (self->state));
  job->from = from;
  job->to = n;
  job->results = g_new0 (TraceLoad, n - from);
  job->traces = g_new0 (TtvTrace *, n - from);
  for (guint t = from; t < n; t++)
    {
      job->traces[t - from] = ttv_traceset_get_trace (ttv_tab_state_get_traceset (self->state), t);
      flag_set (self->loaded, t, FALSE);
    }
  self->n_loading++;
  task = g_task_new (NULL, self->load_cancel, load_done, self);
  g_task_set_task_data (task, job, (GDestroyNotify) load_job_free);
  g_task_run_in_thread (task, load_thread);
}

gboolean
ttv_tab_bookmarks_is_loading (TtvTabBookmarks *self)
{
  return self->n_loading > 0;
}

/* --- Saving ------------------------------------------------------------------ */

static gint
trace_index_of (TtvTabBookmarks *self, TtvTrace *trace)
{
  for (guint t = 0; t < ttv_tab_state_get_n_traces (self->state); t++)
    if (ttv_traceset_get_trace (ttv_tab_state_get_traceset (self->state), t) == trace)
      return (gint) t;
  return -1;
}

static TtvBookmarks *
dup_trace_list (TtvTabBookmarks *self, guint trace_index)
{
  GPtrArray *bookmarks = ttv_tab_state_get_bookmarks (self->state);
  TtvBookmarks *list = ttv_bookmarks_new ();
  TraceClock clock = get_clock (self, trace_index);

  /* The file's clock offset stays (a save used to drop it). */
  ttv_bookmarks_set_clock_offset (list, clock.set, clock.offset_ns);
  for (guint i = 0; i < bookmarks->len; i++)
    {
      const TtvViewerBookmark *v = bookmarks->pdata[i];
      if (v->trace_index == trace_index)
        ttv_bookmarks_add (list, to_ttv_bookmark (v));
    }
  return list;
}

static void ask_where (TtvTabBookmarks *self, guint trace_index);

static void
save (TtvTabBookmarks *self, guint trace_index)
{
  TtvTrace *trace;
  TtvBookmarksPlace place = TTV_BOOKMARKS_IN_TRACE;

  if (trace_index >= ttv_tab_state_get_n_traces (self->state))
    return;
  if (!flag_get (self->loaded, trace_index))
    {
      /* Saving now would drop the file's bookmarks not read yet. */
      flag_set (self->save_pending, trace_index, TRUE);
      return;
    }
  trace = ttv_traceset_get_trace (ttv_tab_state_get_traceset (self->state), trace_index);
  if (!ttv_bookmarks_trace_is_writable (trace))
    switch (get_choice (self, trace_index))
      {
      case TTV_SAVE_CHOICE_ASK:
        ask_where (self, trace_index);
        return;
      case TTV_SAVE_CHOICE_DONT_SAVE:
        return;
      case TTV_SAVE_CHOICE_BESIDE:
        place = TTV_BOOKMARKS_BESIDE_TRACE;
        break;
      case TTV_SAVE_CHOICE_USER_DIR:
      default:
        place = TTV_BOOKMARKS_USER_DIR;
        break;
      }
  ttv_bookmark_saver_save (self->saver, ttv_tab_state_get_traceset (self->state), trace, place,
                           dup_trace_list (self, trace_index));
}

static void
ask_response (GtkDialog *dialog, gint response, TtvTabBookmarks *self)
{
  guint trace_index = self->asking_trace;

  self->asking = NULL;
  gtk_widget_destroy (GTK_WIDGET (dialog));
  switch (response)
    {
    case RESPONSE_BESIDE:
      set_choice (self, trace_index, TTV_SAVE_CHOICE_BESIDE);
      break;
    case RESPONSE_USER_DIR:
      set_choice (self, trace_index, TTV_SAVE_CHOICE_USER_DIR);
      break;
    case RESPONSE_DONT_SAVE:
      set_choice (self, trace_index, TTV_SAVE_CHOICE_DONT_SAVE);
      notify (self, SAVE_KEY, GTK_MESSAGE_INFO,
              _("The bookmarks of this read-only trace are kept only until the tab closes."));
      return;
    default:
      return;   /* closed: asked again at the next change */
    }
  save (self, trace_index);
}

/* A read-only trace, first save: where should its bookmarks go? */
static void
ask_where (TtvTabBookmarks *self, guint trace_index)
{
  TtvTrace *trace = ttv_traceset_get_trace (ttv_tab_state_get_traceset (self->state), trace_index);
  g_autofree char *beside = ttv_bookmarks_dup_path (trace, TTV_BOOKMARKS_BESIDE_TRACE);
  g_autofree char *user = ttv_bookmarks_dup_path (trace, TTV_BOOKMARKS_USER_DIR);
  gboolean beside_ok = ttv_bookmarks_place_is_writable (trace, TTV_BOOKMARKS_BESIDE_TRACE);
  GtkWidget *dialog, *button;

  if (self->asking)
    return;     /* already on screen: its answer saves the latest list */
  dialog = gtk_message_dialog_new (parent_window (self), GTK_DIALOG_DESTROY_WITH_PARENT,
                                   GTK_MESSAGE_QUESTION, GTK_BUTTONS_NONE,
                                   _("Where should the bookmarks be saved?"));
  gtk_widget_set_name (dialog, "ttv-read-only-dialog");
  gtk_window_set_title (GTK_WINDOW (dialog), _("Read-Only Trace"));
  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog),
    _("%s is read-only, so its bookmarks cannot be saved in it.\n\n"
      "Beside it, as a copy: %s%s\n"
      "In your folder: %s\n\n"
      "ttv finds them there the next time it opens the trace."),
    trace->display_path, beside, beside_ok ? "" : _(" (that folder is read-only too)"), user);
  gtk_dialog_add_button (GTK_DIALOG (dialog), _("_Don’t Save"), RESPONSE_DONT_SAVE);
  button = gtk_dialog_add_button (GTK_DIALOG (dialog), _("Save _Beside the Trace"), RESPONSE_BESIDE);
  gtk_widget_set_sensitive (button, beside_ok);
  gtk_dialog_add_button (GTK_DIALOG (dialog), _("Save in _My Folder"), RESPONSE_USER_DIR);
  gtk_dialog_set_default_response (GTK_DIALOG (dialog),
                                   beside_ok ? RESPONSE_BESIDE : RESPONSE_USER_DIR);
  self->asking = dialog;
  self->asking_trace = trace_index;
  g_signal_connect (dialog, "response", G_CALLBACK (ask_response), self);
  gtk_widget_show (dialog);
}

static gboolean
progress_tick (gpointer data)
{
  TtvTabBookmarks *self = data;

  ttv_status_bar_set_fraction (self->status, TTV_STATUS_JOB_SAVE,
                               ttv_bookmark_saver_get_fraction (self->saver));
  return G_SOURCE_CONTINUE;
}

static void
cancel_save (gpointer data)
{
  TtvTabBookmarks *self = data;

  ttv_bookmark_saver_cancel (self->saver);
}

static void
save_started (TtvBookmarkSaver *saver, TtvTrace *trace, TtvTabBookmarks *self)
{
  g_autofree char *text = g_strdup_printf (_("Saving the bookmarks of %s…"), trace->name);

  ttv_status_bar_set_job (self->status, TTV_STATUS_JOB_SAVE, text, 0, _("_Cancel"),
                          _("Stop saving: the file or archive stays as it was"), cancel_save, self);
  if (!self->progress_timeout)
    self->progress_timeout = g_timeout_add (100, progress_tick, self);
}

typedef struct {
  TtvTabBookmarks *self;        /* weak: the notification dies with the tab */
  TtvTrace *trace;              /* weak, checked against the traceset */
} Retry;

static void
retry_save (gpointer data)
{
  Retry *r = data;
  gint index = trace_index_of (r->self, r->trace);

  if (index >= 0)
    save (r->self, (guint) index);
}

static void
save_finished (TtvBookmarkSaver *saver, TtvTrace *trace, const GError *error,
               TtvTabBookmarks *self)
{
  g_autofree char *text = NULL;
  Retry *retry;

  if (!ttv_bookmark_saver_is_busy (saver))
    {
      g_clear_handle_id (&self->progress_timeout, g_source_remove);
      ttv_status_bar_clear_job (self->status, TTV_STATUS_JOB_SAVE);
    }
  if (!error)
    {
      ttv_notifications_withdraw (self->notifications, SAVE_KEY);
      return;
    }
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    text = g_strdup_printf (_("Saving the bookmarks of %s was cancelled: %s is as it was, "
                              "without the latest changes."), trace->name, trace->display_path);
  else
    text = g_strdup_printf (_("Bookmarks not saved: %s"), error->message);
  retry = g_new0 (Retry, 1);
  retry->self = self;
  retry->trace = trace;
  ttv_notifications_show (self->notifications, SAVE_KEY, GTK_MESSAGE_WARNING, text,
                          _("_Save Again"), retry_save, retry, g_free);
}

/* --- Dialogs ----------------------------------------------------------------- */

static guint
trace_for_time (TtvTabBookmarks *self, TtvTime t)
{
  for (guint i = 0; i < ttv_tab_state_get_n_traces (self->state); i++)
    {
      TtvTrace *trace = ttv_traceset_get_trace (ttv_tab_state_get_traceset (self->state), i);
      if (t >= trace->start && t <= trace->end)
        return i;
    }
  return 0;
}

typedef struct {
  GtkWidget *tab;          /* owned reference; its bookmarks are gone once it is closed */
  gint index;              /* -1: adding */
} DialogData;

static void
dialog_data_free (DialogData *d)
{
  g_object_unref (d->tab);
  g_free (d);
}

static void
bookmark_dialog_response (GtkDialog *dialog, gint response, DialogData *d)
{
  /* NULL when the tab was closed while the dialog was open. */
  TtvTabBookmarks *self = ttv_tab_get_bookmarks (TTV_TAB (d->tab));
  g_autoptr (GError) error = NULL;
  TtvViewerBookmark *b;
  guint old_trace = G_MAXUINT, new_trace;

  if (response != GTK_RESPONSE_OK || !self)
    {
      gtk_widget_destroy (GTK_WIDGET (dialog));
      return;
    }
  b = ttv_bookmark_dialog_dup_bookmark (TTV_BOOKMARK_DIALOG (dialog), &error);
  if (!b)
    {
      /* A typing mistake: say which entry, keep the dialog open. */
      ttv_bookmark_dialog_show_error (TTV_BOOKMARK_DIALOG (dialog), error->message);
      return;
    }
  if (d->index < 0)
    {
      gtk_widget_destroy (GTK_WIDGET (dialog));
      ttv_tab_bookmarks_add (self, b);
      return;
    }
  new_trace = b->trace_index;
  if ((guint) d->index < ttv_tab_state_get_bookmarks (self->state)->len)
    {
      const TtvViewerBookmark *old = ttv_tab_state_get_bookmarks (self->state)->pdata[d->index];
      old_trace = old->trace_index;
      ttv_tab_state_replace_bookmark (self->state, d->index, b);
    }
  else
    {
      ttv_viewer_bookmark_free (b);   /* deleted meanwhile */
      new_trace = G_MAXUINT;
    }
  gtk_widget_destroy (GTK_WIDGET (dialog));
  if (new_trace != G_MAXUINT)
    save (self, new_trace);
  if (old_trace != G_MAXUINT && old_trace != new_trace)
    save (self, old_trace);
}

static void
run_bookmark_dialog (TtvTabBookmarks *self, const char *title, const TtvViewerBookmark *initial,
                     gint index)
{
  GtkWidget *dialog = ttv_bookmark_dialog_new (parent_window (self), title, self->state, initial);
  DialogData *d = g_new0 (DialogData, 1);

  d->tab = g_object_ref (self->tab);
  d->index = index;
  g_signal_connect_data (dialog, "response", G_CALLBACK (bookmark_dialog_response), d,
                         (GClosureNotify) (void (*) (void)) dialog_data_free, 0);
  gtk_widget_show (dialog);
}

void
ttv_tab_bookmarks_add (TtvTabBookmarks *self, TtvViewerBookmark *b)
{
  guint trace_index;

  if (!b->has_cycles)
    b->trace_index = trace_for_time (self, b->start);
  trace_index = b->trace_index;
  ttv_tab_state_add_bookmark (self->state, b);
  save (self, trace_index);
}

void
ttv_tab_bookmarks_add_interactive (TtvTabBookmarks *self)
{
  TtvTime start, end;
  g_autoptr (TtvViewerBookmark) b = NULL;

  if (!ttv_tab_state_get_selection (self->state, &start, &end))
    start = end = ttv_tab_state_get_current_time (self->state);
  b = ttv_viewer_bookmark_new ("", "", -1, start, end);
  run_bookmark_dialog (self, _("Add Bookmark"), b, -1);
}

void
ttv_tab_bookmarks_edit (TtvTabBookmarks *self, guint index)
{
  GPtrArray *all = ttv_tab_state_get_bookmarks (self->state);

  g_return_if_fail (index < all->len);
  run_bookmark_dialog (self, _("Edit Bookmark"), all->pdata[index], index);
}

/* --- Delete and Undo --------------------------------------------------------- */

static void
undo_clicked (gpointer data)
{
  ttv_tab_bookmarks_undo_delete (data);
}

void
ttv_tab_bookmarks_delete (TtvTabBookmarks *self, guint index)
{
  GPtrArray *all = ttv_tab_state_get_bookmarks (self->state);
  const TtvViewerBookmark *b;
  g_autofree char *text = NULL;
  guint trace_index;

  g_return_if_fail (index < all->len);
  b = all->pdata[index];
  trace_index = b->trace_index;
  g_clear_pointer (&self->deleted, ttv_viewer_bookmark_free);
  self->deleted = ttv_viewer_bookmark_copy (b);
  text = *b->name ? g_strdup_printf (_("Bookmark “%s” deleted."), b->name)
                  : g_strdup (_("Bookmark deleted."));
  ttv_tab_state_replace_bookmark (self->state, index, NULL);
  save (self, trace_index);
  ttv_notifications_show (self->notifications, UNDO_KEY, GTK_MESSAGE_INFO, text, _("_Undo"),
                          undo_clicked, self, NULL);
}

gboolean
ttv_tab_bookmarks_undo_delete (TtvTabBookmarks *self)
{
  TtvViewerBookmark *b = g_steal_pointer (&self->deleted);
  guint trace_index;

  if (!b)
    return FALSE;
  ttv_notifications_withdraw (self->notifications, UNDO_KEY);
  trace_index = b->trace_index;
  ttv_tab_state_add_bookmark (self->state, b);
  save (self, trace_index);
  return TRUE;
}

void
ttv_tab_bookmarks_jump (TtvTabBookmarks *self, guint index)
{
  GPtrArray *all = ttv_tab_state_get_bookmarks (self->state);
  const TtvViewerBookmark *b;
  TtvTime ws, we;

  g_return_if_fail (index < all->len);
  b = all->pdata[index];
  ttv_tab_state_get_time_window (self->state, &ws, &we);
  if (b->end > b->start)
    {
      ttv_tab_state_set_selection (self->state, b->start, b->end);
      if (b->start < ws || b->end > we)
        {
          TtvTime margin = (b->end - b->start) / 10;
          ttv_tab_state_set_time_window (self->state, b->start - margin, b->end + margin);
        }
    }
  else
    {
      /* A point in time: a selection made before would be stale. */
      ttv_tab_state_clear_selection (self->state);
      if (b->start < ws || b->start > we)
        ttv_tab_state_set_time_window (self->state, b->start - (we - ws) / 2, b->start + (we - ws) / 2);
    }
  ttv_tab_state_set_current_time (self->state, b->start);
}

gboolean
ttv_tab_bookmarks_jump_next (TtvTabBookmarks *self, gboolean forward)
{
  GPtrArray *all = ttv_tab_state_get_bookmarks (self->state);
  TtvTime now = ttv_tab_state_get_current_time (self->state);

  /* Sorted by start: the first after the current time, or the last before. */
  for (guint i = 0; forward && i < all->len; i++)
    if (((const TtvViewerBookmark *) all->pdata[i])->start > now)
      {
        ttv_tab_bookmarks_jump (self, i);
        return TRUE;
      }
  for (guint i = all->len; !forward && i > 0; i--)
    if (((const TtvViewerBookmark *) all->pdata[i - 1])->start < now)
      {
        ttv_tab_bookmarks_jump (self, i - 1);
        return TRUE;
      }
  ttv_notifications_show (self->notifications, "bookmark-next", GTK_MESSAGE_INFO,
                          forward ? _("No bookmark after the current time.")
                                  : _("No bookmark before the current time."), NULL, NULL, NULL, NULL);
  return FALSE;
}

/* --- Life ---------------------------------------------------------------------- */

TtvTabBookmarks *
ttv_tab_bookmarks_new (GtkWidget *tab, TtvTabState *state, TtvNotifications *notifications,
                       TtvStatusBar *status)
{
  TtvTabBookmarks *self = g_new0 (TtvTabBookmarks, 1);

  self->tab = tab;
  self->state = state;
  self->notifications = notifications;
  self->status = status;
  self->saver = ttv_bookmark_saver_new ();
  self->choices = g_array_new (FALSE, TRUE, sizeof (TtvSaveChoice));
  self->loaded = g_array_new (FALSE, TRUE, sizeof (gboolean));
  self->save_pending = g_array_new (FALSE, TRUE, sizeof (gboolean));
  self->clocks = g_array_new (FALSE, TRUE, sizeof (TraceClock));
  self->load_cancel = g_cancellable_new ();
  g_signal_connect (self->saver, "started", G_CALLBACK (save_started), self);
  g_signal_connect (self->saver, "finished", G_CALLBACK (save_finished), self);
  return self;
}

void
ttv_tab_bookmarks_free (TtvTabBookmarks *self)
{
  if (!self)
    return;
  g_signal_handlers_disconnect_by_data (self->saver, self);
  g_clear_object (&self->saver);
  g_clear_handle_id (&self->progress_timeout, g_source_remove);
  if (self->asking)
    {
      g_signal_handlers_disconnect_by_data (self->asking, self);
      gtk_widget_destroy (self->asking);
    }
  g_array_unref (self->choices);
  /* A load under way finishes alone, and then sees the cancellation. */
  g_cancellable_cancel (self->load_cancel);
  g_clear_object (&self->load_cancel);
  g_array_unref (self->loaded);
  g_array_unref (self->save_pending);
  g_array_unref (self->clocks);
  g_clear_pointer (&self->deleted, ttv_viewer_bookmark_free);
  g_free (self);
}

TtvBookmarkSaver *
ttv_tab_bookmarks_get_saver (TtvTabBookmarks *self)
{
  return self->saver;
}

/* Where save () puts @trace's bookmarks, in words. */
static char *
dup_trace_location (TtvTabBookmarks *self, guint trace_index, const TtvTrace *trace)
{
  g_autofree char *path = NULL;

  if (ttv_bookmarks_trace_is_writable (trace))
    {
      /* An archive: rewritten with the member. */
      if (trace->display_path && g_strcmp0 (trace->display_path, trace->path) != 0
          && ttv_archive_is_archive (trace->display_path))
        return g_strdup_printf (_("Saved in %s, as its member %s"), trace->display_path,
                                ttv_bookmarks_get_member_path (trace));
      path = ttv_bookmarks_dup_path (trace, TTV_BOOKMARKS_IN_TRACE);
      return g_strdup_printf (_("Saved in %s"), path);
    }
  switch (get_choice (self, trace_index))
    {
    case TTV_SAVE_CHOICE_ASK:
      return g_strdup_printf (_("%s is read-only: where to save is asked at the first change"),
                              trace->display_path ? trace->display_path : trace->path);
    case TTV_SAVE_CHOICE_DONT_SAVE:
      return g_strdup_printf (_("Not saved (%s is read-only)"),
                              trace->display_path ? trace->display_path : trace->path);
    case TTV_SAVE_CHOICE_BESIDE:
      path = ttv_bookmarks_dup_path (trace, TTV_BOOKMARKS_BESIDE_TRACE);
      return g_strdup_printf (_("Saved in %s"), path);
    case TTV_SAVE_CHOICE_USER_DIR:
    default:
      path = ttv_bookmarks_dup_path (trace, TTV_BOOKMARKS_USER_DIR);
      return g_strdup_printf (_("Saved in %s"), path);
    }
}

char *
ttv_tab_bookmarks_dup_location (TtvTabBookmarks *self)
{
  TtvTraceset *ts = ttv_tab_state_get_traceset (self->state);
  g_autoptr (GString) text = g_string_new (NULL);

  for (guint t = 0; t < ttv_tab_state_get_n_traces (self->state); t++)
    {
      g_autofree char *line = dup_trace_location (self, t, ttv_traceset_get_trace (ts, t));

      if (text->len)
        g_string_append_c (text, '\n');
      g_string_append (text, line);
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
}

TtvSaveChoice
ttv_tab_bookmarks_get_choice (TtvTabBookmarks *self, guint trace_index)
{
  return get_choice (self, trace_index);
}

void
ttv_tab_bookmarks_set_clock_offset (TtvTabBookmarks *self, guint trace_index, gboolean set, gint64 offset_ns)
{
  TraceClock now = get_clock (self, trace_index);

  /* Unchanged: its file is not written again (an archive's takes seconds). */
  if (now.set == set && (!set || now.offset_ns == offset_ns))
    return;
  set_clock (self, trace_index, set, offset_ns);
  save (self, trace_index);
}
