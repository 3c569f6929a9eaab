/* ttv-window.c: the main window: window actions (tabs, zoom, bookmarks,
 * find, information, preferences), opening traces in a worker thread, and
 * error dialogs that say what is wrong and where. */
#include "ttv-config.h"

#include "ttv-window.h"

#include "ttv-application.h"
#include "ttv-clock-offset-dialog.h"
#include "ttv-info-dialog.h"
#include "ttv-live-dialog.h"
#include "ttv-live-url.h"
#include "ttv-marker-colors.h"
#include "ttv-palette-editor.h"
#include "ttv-session.h"
#include "ttv-settings.h"
#include "ttv-tab.h"
#include "ttv-time-bar.h"
#include "ttv-time-display.h"
#include "ttv-time-format-chooser.h"
#include "ttv-viewer-registry.h"
#include "ttv-welcome.h"

#include <glib/gi18n.h>

struct _TtvWindow {
  GtkApplicationWindow parent_instance;

  GtkStack *stack;
  GtkNotebook *notebook;
  GtkWidget *busy_box;
  GtkLabel *busy_label;
  GtkProgressBar *busy_progress;
  GtkButton *busy_cancel;
  GCancellable *open_cancel;   /* owned, NULL when not opening */
  gint *open_progress;         /* g_atomic_rc_box, owned reference: archive extraction, 0..1000 */
  guint pulse_id;
  guint update_id;
  /* The size to remember (the last one not maximized) and whether maximized. */
  gint width, height;
  gboolean maximized;
};

G_DEFINE_FINAL_TYPE (TtvWindow, ttv_window, GTK_TYPE_APPLICATION_WINDOW)

static TtvTab *
current_tab (TtvWindow *self)
{
  gint page = gtk_notebook_get_current_page (self->notebook);

  return page < 0 ? NULL : TTV_TAB (gtk_notebook_get_nth_page (self->notebook, page));
}

GtkWidget *
ttv_window_get_current_tab (TtvWindow *self)
{
  return GTK_WIDGET (current_tab (self));
}

guint
ttv_window_get_n_tabs (TtvWindow *self)
{
  return gtk_notebook_get_n_pages (self->notebook);
}

static void
update_actions (TtvWindow *self)
{
  static const char *const need_tab[] = {
    "add-trace", "add-trace-archive", "close-tab", "zoom-in", "zoom-out", "zoom-fit", "add-bookmark", "find",
    "info", "show-bookmarks", "show-viewer", "follow", "filter", "split-view-right", "split-view-down",
    "move-view", "close-view", "reset-layout", "zoom-selection", "clear-selection", "next-bookmark",
    "previous-bookmark", "synchronize",
  };
  TtvTab *tab = current_tab (self);
  g_autofree char *title = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (need_tab); i++)
    g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (G_ACTION_MAP (self), need_tab[i])),
                                 tab != NULL);
  gtk_stack_set_visible_child_name (self->stack, tab ? "tabs" : "welcome");
  if (tab)
    {
      g_autofree char *name = ttv_tab_dup_title (tab);
      title = g_strdup_printf ("%s — ttv", name);
      g_action_group_change_action_state (G_ACTION_GROUP (self), "show-bookmarks",
                                          g_variant_new_boolean (ttv_tab_get_bookmarks_visible (tab)));
      g_action_group_change_action_state (G_ACTION_GROUP (self), "follow",
                                          g_variant_new_boolean (ttv_tab_get_following (tab)));
    }
  gtk_window_set_title (GTK_WINDOW (self), title ? title : "ttv");
}

static void
close_tab (TtvWindow *self, TtvTab *tab)
{
  gint page = gtk_notebook_page_num (self->notebook, GTK_WIDGET (tab));

  if (page < 0)
    return;
  ttv_tab_shutdown (tab);
  gtk_notebook_remove_page (self->notebook, page);
  update_actions (self);
}

static void
tab_close_clicked (GtkButton *button, TtvWindow *self)
{
  close_tab (self, g_object_get_data (G_OBJECT (button), "ttv-tab"));
}

/* The tab's title names its traces: again when they change (a trace
 * added, once nothing reads the traceset any more). */
static void
update_tab_title (GtkWidget *tab)
{
  GtkWidget *label = g_object_get_data (G_OBJECT (tab), "ttv-tab-label");
  g_autofree char *title = ttv_tab_dup_title (TTV_TAB (tab));

  if (label)
    gtk_label_set_text (GTK_LABEL (label), title);
}

static void
add_tab (TtvWindow *self, TtvTraceset *ts)
{
  GtkWidget *tab = ttv_tab_new (ts);
  GtkWidget *label_box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  g_autofree char *title = ttv_tab_dup_title (TTV_TAB (tab));
  GtkWidget *label = gtk_label_new (title);
  GtkWidget *close = gtk_button_new_from_icon_name ("window-close-symbolic", GTK_ICON_SIZE_MENU);
  gint page;

  gtk_button_set_relief (GTK_BUTTON (close), GTK_RELIEF_NONE);
  gtk_widget_set_focus_on_click (close, FALSE);
  gtk_widget_set_tooltip_text (close, _("Close this tab (Ctrl+W)"));
  g_object_set_data (G_OBJECT (close), "ttv-tab", tab);
  g_signal_connect (close, "clicked", G_CALLBACK (tab_close_clicked), self);
  /* A damaged traceset says so on its tab, whichever tab is shown. */
  GtkWidget *damaged = gtk_image_new_from_icon_name ("dialog-warning-symbolic", GTK_ICON_SIZE_MENU);
  gtk_widget_set_tooltip_text (damaged, _("Damaged data was skipped: some events of this traceset are "
                                          "missing"));
  gtk_widget_set_no_show_all (damaged, TRUE);
  g_object_bind_property (tab, "damaged", damaged, "visible", G_BINDING_SYNC_CREATE);
  gtk_box_pack_start (GTK_BOX (label_box), damaged, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (label_box), label, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (label_box), close, FALSE, FALSE, 0);
  gtk_widget_show_all (label_box);
  g_object_set_data (G_OBJECT (tab), "ttv-tab-label", label);
  g_signal_connect_object (ttv_tab_get_state (TTV_TAB (tab)), "traceset-changed", G_CALLBACK (update_tab_title),
                           tab, G_CONNECT_SWAPPED);
  page = gtk_notebook_append_page (self->notebook, tab, label_box);
  gtk_notebook_set_tab_reorderable (self->notebook, tab, TRUE);
  gtk_notebook_set_current_page (self->notebook, page);
  update_actions (self);
}

/* --- Opening in a worker thread ------------------------------------------- */

typedef struct {
  char **paths;           /* owned */
  gboolean add;
  GPtrArray *traces;      /* of TtvTrace *, owned (NULL slots for failures) */
  GArray *origins;        /* of guint: the index in @paths each trace came from */
  GPtrArray *errors;      /* of char * "path: message", owned */
  gint *progress;         /* g_atomic_rc_box, owned reference */
} OpenJob;

static void
open_job_free (OpenJob *job)
{
  g_atomic_rc_box_release (job->progress);
  g_strfreev (job->paths);
  g_ptr_array_unref (job->traces);
  g_array_unref (job->origins);
  g_ptr_array_unref (job->errors);
  g_free (job);
}

static void
trace_close0 (gpointer trace)
{
  if (trace)
    ttv_trace_close (trace);
}

static void
open_progress (guint64 done, guint64 total, gpointer data)
{
  if (total > 0)
    g_atomic_int_set ((gint *) data, (gint) MAX (1, MIN (1000, done * 1000 / total)));
}

static void
open_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  OpenJob *job = data;

  for (guint i = 0; job->paths[i] && !g_cancellable_is_cancelled (cancellable); i++)
    {
      g_autoptr (GError) error = NULL;
      TtvTrace *trace;

      g_autoptr (GPtrArray) below = NULL;

      g_atomic_int_set (job->progress, 0);
      /* An LTTng session (session/kernel, session/ust/uid/1000/64-bit):
       * its traces together, as ttv-report reads it. */
      if (g_file_test (job->paths[i], G_FILE_TEST_IS_DIR) && !ttv_session_is_trace_dir (job->paths[i]))
        below = ttv_session_find_traces (job->paths[i], TTV_SESSION_MAX_DEPTH);
      for (guint k = 0; k < (below && below->len ? below->len : 1) && !error; k++)
        {
          g_autofree char *path = below && below->len ? g_build_filename (job->paths[i], below->pdata[k], NULL)
                                                     : g_strdup (job->paths[i]);

          trace = ttv_trace_open_full (path, cancellable, open_progress, job->progress, &error);
          if (trace && below && below->len)
            {
              g_free (trace->name);
              trace->name = g_strdup (below->pdata[k]);
            }
          g_ptr_array_add (job->traces, trace);
          g_array_append_val (job->origins, i);
        }
      if (error && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        break;
      if (error)
        g_ptr_array_add (job->errors, g_strdup_printf (_("Cannot open “%s”:\n%s"), job->paths[i],
                                                       error->message));
    }
  g_task_return_boolean (task, TRUE);
}

static void
stop_busy (TtvWindow *self)
{
  g_clear_handle_id (&self->pulse_id, g_source_remove);
  gtk_widget_hide (self->busy_box);
}

static void
error_dialog (TtvWindow *self, const char *title, const char *message)
{
  GtkWidget *dialog = gtk_message_dialog_new (GTK_WINDOW (self), GTK_DIALOG_DESTROY_WITH_PARENT,
                                              GTK_MESSAGE_ERROR, GTK_BUTTONS_CLOSE, "%s", title);

  /* Messages name files, whose names may hold bytes that are not UTF-8. */
  g_autofree char *valid = g_utf8_make_valid (message, -1);
  gtk_window_set_title (GTK_WINDOW (dialog), title);
  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s", valid);
  /* Long messages (paths, offsets) must be selectable to be reported. */
  {
    GtkWidget *area = gtk_message_dialog_get_message_area (GTK_MESSAGE_DIALOG (dialog));
    GList *children = gtk_container_get_children (GTK_CONTAINER (area));
    for (GList *l = children; l; l = l->next)
      if (GTK_IS_LABEL (l->data))
        gtk_label_set_selectable (l->data, TRUE);
    g_list_free (children);
  }
  g_signal_connect (dialog, "response", G_CALLBACK (gtk_widget_destroy), NULL);
  gtk_widget_show (dialog);
}

static void
open_done (GObject *source, GAsyncResult *result, gpointer data)
{
  TtvWindow *self = data;  /* owned reference */
  OpenJob *job = g_task_get_task_data (G_TASK (result));
  gboolean cancelled = g_cancellable_is_cancelled (g_task_get_cancellable (G_TASK (result)));
  TtvApplication *app = TTV_APPLICATION (gtk_window_get_application (GTK_WINDOW (self)));

  g_clear_object (&self->open_cancel);
  stop_busy (self);
  if (!cancelled && gtk_widget_get_realized (GTK_WIDGET (self)))
    {
      g_autoptr (TtvTraceset) session = NULL;   /* the traces of one path, for a new tab */
      guint session_origin = 0;
      g_autoptr (GHashTable) failed = g_hash_table_new (NULL, NULL);   /* paths with a trace that failed */

      for (guint i = 0; i < job->traces->len; i++)
        if (!job->traces->pdata[i])
          g_hash_table_add (failed, GUINT_TO_POINTER (g_array_index (job->origins, guint, i)));

      for (guint i = 0; i < job->traces->len; i++)
        {
          TtvTrace *trace = job->traces->pdata[i];
          guint origin = g_array_index (job->origins, guint, i);
          TtvTab *tab = current_tab (self);

          /* A session's traces open together or not at all. */
          if (!trace || g_hash_table_contains (failed, GUINT_TO_POINTER (origin)))
            continue;
          job->traces->pdata[i] = NULL;
          if (app && (i == 0 || g_array_index (job->origins, guint, i - 1) != origin))
            ttv_application_add_recent (app, job->paths[origin]);
          if (!job->add && session && session_origin != origin)
            {
              add_tab (self, session);
              g_clear_pointer (&session, ttv_traceset_unref);
            }
          if (job->add && tab)
            {
              ttv_tab_add_trace (tab, trace);
            }
          else
            {
              if (!session)
                session = ttv_traceset_new ();
              session_origin = origin;
              ttv_traceset_add_trace (session, trace);
            }
        }
      if (session)
        add_tab (self, session);
      if (job->errors->len)
        {
          g_autofree char *all = NULL;
          g_ptr_array_add (job->errors, NULL);
          all = g_strjoinv ("\n\n", (char **) job->errors->pdata);
          g_ptr_array_remove_index (job->errors, job->errors->len - 1);
          error_dialog (self, ngettext ("Cannot open trace", "Cannot open traces", job->errors->len), all);
        }
      update_actions (self);
    }
  g_object_unref (self);
}

/* Extracting an archive says how far it is; the rest only pulses. */
static gboolean
pulse (gpointer data)
{
  TtvWindow *self = data;
  gint permille = g_atomic_int_get (self->open_progress);

  if (permille > 0)
    gtk_progress_bar_set_fraction (self->busy_progress, permille / 1000.0);
  else
    gtk_progress_bar_pulse (self->busy_progress);
  return G_SOURCE_CONTINUE;
}

gboolean
ttv_window_is_opening (TtvWindow *self)
{
  g_return_val_if_fail (TTV_IS_WINDOW (self), FALSE);
  return self->open_cancel != NULL;
}

double
ttv_window_get_open_fraction (TtvWindow *self)
{
  g_return_val_if_fail (TTV_IS_WINDOW (self), 0);
  return g_atomic_int_get (self->open_progress) / 1000.0;
}

void
ttv_window_cancel_open (TtvWindow *self)
{
  g_return_if_fail (TTV_IS_WINDOW (self));
  gtk_button_clicked (self->busy_cancel);
}

/* The busy box with Cancel, and a new cancellable for what starts (an
 * open still under way is cancelled). */
static void
start_busy (TtvWindow *self, const char *text)
{
  if (self->open_cancel)
    g_cancellable_cancel (self->open_cancel);
  g_clear_object (&self->open_cancel);
  self->open_cancel = g_cancellable_new ();
  g_atomic_int_set (self->open_progress, 0);
  gtk_label_set_text (self->busy_label, text);
  gtk_widget_show (self->busy_box);
  if (!self->pulse_id)
    self->pulse_id = g_timeout_add (100, pulse, self);
}

/* --- Live sessions (docs/live.md) ------------------------------------------ */

static void
live_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  g_autoptr (TtvTraceset) ts = ttv_traceset_new ();
  GError *error = NULL;

  if (ttv_traceset_add_live (ts, data, cancellable, &error))
    g_task_return_pointer (task, g_steal_pointer (&ts), (GDestroyNotify) ttv_traceset_unref);
  else
    g_task_return_error (task, error);
}

static void
live_done (GObject *source, GAsyncResult *result, gpointer data)
{
  TtvWindow *self = data;  /* owned reference */
  const char *url = g_task_get_task_data (G_TASK (result));
  gboolean cancelled = g_cancellable_is_cancelled (g_task_get_cancellable (G_TASK (result)));
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvTraceset) ts = g_task_propagate_pointer (G_TASK (result), &error);
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));

  if (g_task_get_cancellable (G_TASK (result)) == self->open_cancel)
    {
      g_clear_object (&self->open_cancel);
      stop_busy (self);
    }
  if (!cancelled && gtk_widget_get_realized (GTK_WIDGET (self)))
    {
      if (ts)
        {
          if (app)
            ttv_application_add_recent (TTV_APPLICATION (app), url);
          add_tab (self, ts);
          /* Its views follow the session as it goes, until it ends. */
          ttv_tab_set_following (current_tab (self), TRUE);
          update_actions (self);
        }
      else
        {
          g_autofree char *msg = g_strdup_printf (_("Cannot follow “%s”:\n%s"), url, error->message);
          error_dialog (self, _("Cannot open live session"), msg);
        }
    }
  g_object_unref (self);
}

void
ttv_window_open_live (TtvWindow *self, const char *url)
{
  g_autoptr (GTask) task = NULL;

  g_return_if_fail (TTV_IS_WINDOW (self) && url != NULL);
  start_busy (self, _("Connecting to the relay…"));
  task = g_task_new (NULL, self->open_cancel, live_done, g_object_ref (self));
  g_task_set_task_data (task, g_strdup (url), g_free);
  g_task_run_in_thread (task, live_thread);
}

static void
live_dialog_response (GtkDialog *dialog, gint response, TtvWindow *self)
{
  g_autofree char *url = ttv_live_dialog_dup_url (TTV_LIVE_DIALOG (dialog));
  GSettings *settings = ttv_settings_get ();

  if (response == GTK_RESPONSE_ACCEPT && url)
    {
      if (settings)
        g_settings_set_string (settings, "live-relay", ttv_live_dialog_get_relay (TTV_LIVE_DIALOG (dialog)));
      ttv_window_open_live (self, url);
    }
  gtk_widget_destroy (GTK_WIDGET (dialog));
}

GtkWidget *
ttv_window_choose_live (TtvWindow *self)
{
  GSettings *settings = ttv_settings_get ();
  g_autofree char *relay = settings ? g_settings_get_string (settings, "live-relay") : NULL;
  GtkWidget *dialog;

  g_return_val_if_fail (TTV_IS_WINDOW (self), NULL);
  dialog = ttv_live_dialog_new (GTK_WINDOW (self), relay);
  g_signal_connect (dialog, "response", G_CALLBACK (live_dialog_response), self);
  gtk_widget_show (dialog);
  return dialog;
}

/* A live URL among @paths: it is opened alone, as a live session. */
static gboolean
open_live_path (TtvWindow *self, const char *const *paths, gboolean add_to_current)
{
  const char *live = NULL;
  guint n = 0;

  for (; paths[n]; n++)
    if (ttv_live_url_is_live (paths[n]))
      live = paths[n];
  if (live == NULL)
    return FALSE;
  if (n > 1 || add_to_current)
    error_dialog (self, _("Cannot open live session"),
                  _("A live session opens in a tab of its own, without other traces."));
  else
    ttv_window_open_live (self, live);
  return TRUE;
}

void
ttv_window_open (TtvWindow *self, const char *const *paths, gboolean add_to_current)
{
  g_autoptr (GTask) task = NULL;
  OpenJob *job;

  g_return_if_fail (TTV_IS_WINDOW (self));
  if (!paths || !paths[0] || open_live_path (self, paths, add_to_current))
    return;
  start_busy (self, _("Opening…"));

  job = g_new0 (OpenJob, 1);
  job->paths = g_strdupv ((char **) paths);
  job->add = add_to_current;
  job->traces = g_ptr_array_new_with_free_func (trace_close0);
  job->origins = g_array_new (FALSE, FALSE, sizeof (guint));
  job->errors = g_ptr_array_new_with_free_func (g_free);
  job->progress = g_atomic_rc_box_acquire (self->open_progress);

  task = g_task_new (NULL, self->open_cancel, open_done, g_object_ref (self));
  g_task_set_task_data (task, job, (GDestroyNotify) open_job_free);
  g_task_run_in_thread (task, open_thread);
}

static void
busy_cancel_clicked (TtvWindow *self)
{
  if (self->open_cancel)
    g_cancellable_cancel (self->open_cancel);
  stop_busy (self);
}

/* --- Actions --------------------------------------------------------------- */

static void
choose_response (GtkNativeDialog *chooser, gint response, TtvWindow *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GSList) files = gtk_file_chooser_get_filenames (GTK_FILE_CHOOSER (chooser));
      g_autoptr (GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
      gboolean add = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (chooser), "ttv-add"));

      /* A folder of a trace is the trace: typing a trace's path and
       * pressing Enter in the folder chooser enters it and selects its
       * first folder (an LTTng trace's index/). */
      for (GSList *l = files; l; l = l->next)
        {
          char *enclosing = ttv_trace_dup_enclosing (l->data);
          char *path = enclosing ? enclosing : l->data;
          if (enclosing)
            g_free (l->data);
          if (g_ptr_array_find_with_equal_func (paths, path, g_str_equal, NULL))
            g_free (path);
          else
            g_ptr_array_add (paths, path);
        }
      g_ptr_array_add (paths, NULL);
      ttv_window_open (self, (const char *const *) paths->pdata, add);
    }
  g_object_unref (chooser);
}

/* Where a chooser starts: the folder holding the current tab's first
 * trace, else the most recent trace's, else the home folder (never an
 * empty Recent view). */
static char *
dup_start_folder (TtvWindow *self)
{
  TtvTab *tab = current_tab (self);
  GSettings *settings = ttv_settings_get ();
  g_auto (GStrv) recent = settings ? g_settings_get_strv (settings, "recent-traces") : NULL;
  const char *near = NULL;

  if (tab && ttv_tab_state_get_n_traces (ttv_tab_get_state (tab)) > 0)
    near = ttv_traceset_get_trace (ttv_tab_state_get_traceset (ttv_tab_get_state (tab)), 0)->display_path;
  else if (recent && recent[0])
    near = recent[0];
  if (near)
    {
      g_autofree char *abs = g_canonicalize_filename (near, NULL);
      g_autofree char *dir = g_path_get_dirname (abs);
      if (g_file_test (dir, G_FILE_TEST_IS_DIR))
        return g_steal_pointer (&dir);
    }
  return g_strdup (g_get_home_dir ());
}

static void
choose (TtvWindow *self, gboolean folder, gboolean add)
{
  GtkFileChooserNative *chooser;
  g_autofree char *start = dup_start_folder (self);

  chooser = gtk_file_chooser_native_new (add ? (folder ? _("Add Trace Folder to Traceset")
                                                : _("Add Trace Archive to Traceset"))
                                         : folder ? _("Open Trace Folder") : _("Open Trace Archive"),
                                         GTK_WINDOW (self),
                                         folder ? GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER
                                         : GTK_FILE_CHOOSER_ACTION_OPEN,
                                         _("_Open"), _("_Cancel"));
  gtk_file_chooser_set_select_multiple (GTK_FILE_CHOOSER (chooser), TRUE);
  if (!folder)
    {
      GtkFileFilter *filter = gtk_file_filter_new ();
      gtk_file_filter_set_name (filter, _("Trace archives (.tar.gz, .tgz, .tar)"));
      gtk_file_filter_add_pattern (filter, "*.tar.gz");
      gtk_file_filter_add_pattern (filter, "*.tgz");
      gtk_file_filter_add_pattern (filter, "*.tar");
      gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
    }
  gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (chooser), start);
  g_object_set_data (G_OBJECT (chooser), "ttv-add", GINT_TO_POINTER (add));
  g_signal_connect (chooser, "response", G_CALLBACK (choose_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

void
ttv_window_choose (TtvWindow *self, gboolean folder)
{
  choose (self, folder, FALSE);
}

static void
act_add_trace (GSimpleAction *a, GVariant *p, gpointer self)
{
  choose (self, TRUE, TRUE);
}

static void
act_add_trace_archive (GSimpleAction *a, GVariant *p, gpointer self)
{
  choose (self, FALSE, TRUE);
}

static void
act_close_tab (GSimpleAction *a, GVariant *p, gpointer self)
{
  TtvTab *tab = current_tab (self);

  if (tab)
    close_tab (self, tab);
}

static void
act_zoom_in (GSimpleAction *a, GVariant *p, gpointer self)
{
  if (current_tab (self))
    ttv_time_bar_zoom (ttv_tab_get_state (current_tab (self)), 0.5);
}

static void
act_zoom_out (GSimpleAction *a, GVariant *p, gpointer self)
{
  if (current_tab (self))
    ttv_time_bar_zoom (ttv_tab_get_state (current_tab (self)), 2.0);
}

static void
act_zoom_fit (GSimpleAction *a, GVariant *p, gpointer self)
{
  if (current_tab (self))
    ttv_time_bar_zoom_fit (ttv_tab_get_state (current_tab (self)));
}

static void
act_add_bookmark (GSimpleAction *a, GVariant *p, gpointer self)
{
  if (current_tab (self))
    ttv_tab_add_bookmark_interactive (current_tab (self));
}

static void
act_find (GSimpleAction *a, GVariant *p, gpointer self)
{
  if (current_tab (self))
    ttv_tab_find (current_tab (self));
}

static void
act_show_viewer (GSimpleAction *a, GVariant *p, gpointer self)
{
  if (current_tab (self))
    ttv_tab_show_viewer (current_tab (self), g_variant_get_string (p, NULL));
}

/* Escape that nothing used (the focus out of the tab's views, or in one
 * that ignores it): clears the selection of the current tab. */
static gboolean
escape_pressed (GtkWidget *window, GdkEventKey *event)
{
  TtvTab *tab = current_tab (TTV_WINDOW (window));

  return event->keyval == GDK_KEY_Escape && !(event->state & gtk_accelerator_get_default_mod_mask ()) && tab
         && ttv_tab_clear_selection (tab);
}

static void
act_zoom_selection (GSimpleAction *a, GVariant *p, gpointer self)
{
  if (current_tab (self))
    ttv_tab_zoom_to_selection (current_tab (self));
}

static void
act_clear_selection (GSimpleAction *a, GVariant *p, gpointer self)
{
  if (current_tab (self))
    ttv_tab_clear_selection (current_tab (self));
}

static void
act_next_bookmark (GSimpleAction *a, GVariant *p, gpointer self)
{
  if (current_tab (self))
    ttv_tab_bookmarks_jump_next (ttv_tab_get_bookmarks (current_tab (self)), TRUE);
}

static void
act_previous_bookmark (GSimpleAction *a, GVariant *p, gpointer self)
{
  if (current_tab (self))
    ttv_tab_bookmarks_jump_next (ttv_tab_get_bookmarks (current_tab (self)), FALSE);
}

static void
act_split_view_right (GSimpleAction *a, GVariant *p, gpointer self)
{
  if (current_tab (self))
    ttv_tab_layout_split (ttv_tab_get_layout (current_tab (self)), GTK_ORIENTATION_HORIZONTAL);
}

static void
act_split_view_down (GSimpleAction *a, GVariant *p, gpointer self)
{
  if (current_tab (self))
    ttv_tab_layout_split (ttv_tab_get_layout (current_tab (self)), GTK_ORIENTATION_VERTICAL);
}

static void
act_move_view (GSimpleAction *a, GVariant *p, gpointer self)
{
  if (current_tab (self))
    ttv_tab_layout_move_to_next_pane (ttv_tab_get_layout (current_tab (self)));
}

static void
act_close_view (GSimpleAction *a, GVariant *p, gpointer self)
{
  if (current_tab (self))
    ttv_tab_layout_close_viewer (ttv_tab_get_layout (current_tab (self)));
}

static void
act_reset_layout (GSimpleAction *a, GVariant *p, gpointer self)
{
  if (current_tab (self))
    ttv_tab_layout_reset (ttv_tab_get_layout (current_tab (self)));
}

static void
act_show_bookmarks (GSimpleAction *a, GVariant *state, gpointer self)
{
  g_simple_action_set_state (a, state);
  if (current_tab (self))
    ttv_tab_set_bookmarks_visible (current_tab (self), g_variant_get_boolean (state));
}

static void
act_open_live (GSimpleAction *a, GVariant *p, gpointer self)
{
  ttv_window_choose_live (self);
}

static void
act_info (GSimpleAction *a, GVariant *p, gpointer self)
{
  TtvTab *tab = current_tab (self);

  if (tab)
    gtk_widget_show (ttv_info_dialog_new (GTK_WINDOW (self), ttv_tab_get_state (tab)));
}

/* The symbol-directories setting (a list) shown as one line, separated by
 * ':' as PATH is. */
static gboolean
dirs_to_text (GValue *value, GVariant *variant, gpointer data)
{
  g_autofree const char **dirs = g_variant_get_strv (variant, NULL);
  g_value_take_string (value, g_strjoinv (":", (char **) dirs));
  return TRUE;
}

static GVariant *
text_to_dirs (const GValue *value, const GVariantType *type, gpointer data)
{
  g_auto (GStrv) parts = g_strsplit (g_value_get_string (value) ? g_value_get_string (value) : "", ":", -1);
  g_autoptr (GStrvBuilder) dirs = g_strv_builder_new ();
  for (guint i = 0; parts[i]; i++)
    {
      g_strstrip (parts[i]);
      if (parts[i][0])
        g_strv_builder_add (dirs, parts[i]);
    }
  g_auto (GStrv) list = g_strv_builder_end (dirs);
  return g_variant_new_strv ((const char *const *) list, -1);
}

static void
act_preferences (GSimpleAction *a, GVariant *p, gpointer self)
{
  GSettings *settings = ttv_settings_get ();
  GtkWidget *dialog, *grid, *spin, *combo, *check, *label;
  guint row = 0;

  if (!settings)
    {
      error_dialog (self, _("Preferences are not available"),
                    _("The settings schema org.ttv.Viewer is not installed."));
      return;
    }
  dialog = gtk_dialog_new_with_buttons (_("Preferences"), GTK_WINDOW (self),
                                        GTK_DIALOG_DESTROY_WITH_PARENT, _("_Close"),
                                        GTK_RESPONSE_CLOSE, NULL);
  gtk_widget_set_name (dialog, "ttv-preferences");
  grid = gtk_grid_new ();
  g_object_set (grid, "margin", 12, "row-spacing", 6, "column-spacing", 12, NULL);
  spin = gtk_spin_button_new_with_range (1000, 100000000, 1000);
  gtk_widget_set_name (spin, "checkpoint-interval");
  g_settings_bind (settings, "checkpoint-interval", spin, "value", G_SETTINGS_BIND_DEFAULT);
  label = gtk_label_new_with_mnemonic (_("State _checkpoint every (events)"));
  gtk_label_set_xalign (GTK_LABEL (label), 1.0);
  gtk_label_set_mnemonic_widget (GTK_LABEL (label), spin);
  gtk_grid_attach (GTK_GRID (grid), label, 0, row, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), spin, 1, row++, 1, 1);
  combo = ttv_time_format_chooser_new ();
  gtk_widget_set_name (combo, "time-format");
  label = gtk_label_new_with_mnemonic (_("_Times shown as"));
  gtk_label_set_xalign (GTK_LABEL (label), 1.0);
  gtk_label_set_mnemonic_widget (GTK_LABEL (label), combo);
  gtk_grid_attach (GTK_GRID (grid), label, 0, row, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), combo, 1, row++, 1, 1);
  /* The same colour buttons as the time-line palette below. */
  row = ttv_marker_editor_attach (settings, GTK_GRID (grid), row);
  /* Where the userspace analyses look first for the traced binaries. */
  g_autoptr (GSettings) with_symbols = ttv_settings_dup_with_key ("symbol-directories");
  if (with_symbols)
    {
      GtkWidget *entry = gtk_entry_new ();
      gtk_widget_set_name (entry, "symbol-directories");
      gtk_widget_set_hexpand (entry, TRUE);
      gtk_entry_set_placeholder_text (GTK_ENTRY (entry), _("/path/to/build:/path/to/debug"));
      gtk_widget_set_tooltip_text (entry, _("Searched first for the traced programs, their libraries and their "
                                            "debug files (separated by ':'), then the paths the trace recorded "
                                            "and /usr/lib/debug; used by the call stack and memory views of "
                                            "traces opened afterwards"));
      g_settings_bind_with_mapping (settings, "symbol-directories", entry, "text", G_SETTINGS_BIND_DEFAULT,
                                    dirs_to_text, text_to_dirs, NULL, NULL);
      label = gtk_label_new_with_mnemonic (_("_Symbols of traced programs in"));
      gtk_label_set_xalign (GTK_LABEL (label), 1.0);
      gtk_label_set_mnemonic_widget (GTK_LABEL (label), entry);
      gtk_grid_attach (GTK_GRID (grid), label, 0, row, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), entry, 1, row++, 1, 1);
    }
  check = gtk_check_button_new_with_mnemonic (_("Show the _bookmarks panel in new tabs"));
  gtk_widget_set_name (check, "show-bookmarks-panel");
  g_settings_bind (settings, "show-bookmarks-panel", check, "active", G_SETTINGS_BIND_DEFAULT);
  gtk_grid_attach (GTK_GRID (grid), check, 0, row++, 2, 1);
  /* The control flow and resources views' palette (their "Colours…" entry
   * opens this dialog). */
  gtk_grid_attach (GTK_GRID (grid), ttv_palette_editor_new (settings), 0, row++, 2, 1);
  gtk_box_pack_start (GTK_BOX (gtk_dialog_get_content_area (GTK_DIALOG (dialog))), grid,
                      TRUE, TRUE, 0);
  g_signal_connect (dialog, "response", G_CALLBACK (gtk_widget_destroy), NULL);
  gtk_widget_show_all (dialog);
}

/* File > Follow Live Trace: per tab; the check mark follows the current tab. */
static void
act_follow (GSimpleAction *a, GVariant *state, gpointer self)
{
  g_simple_action_set_state (a, state);
  if (current_tab (self))
    ttv_tab_set_following (current_tab (self), g_variant_get_boolean (state));
}

static void
act_filter (GSimpleAction *a, GVariant *p, gpointer self)
{
  if (current_tab (self))
    ttv_tab_focus_filter (current_tab (self));
}

static void
act_clock_offsets (GSimpleAction *a, GVariant *p, gpointer self)
{
  TtvTab *tab = current_tab (self);

  if (tab)
    gtk_widget_show (ttv_clock_offset_dialog_new (GTK_WINDOW (self), tab));
}

static void
act_synchronize (GSimpleAction *a, GVariant *p, gpointer self)
{
  TtvTab *tab = current_tab (self);

  if (tab)
    ttv_tab_synchronize (tab);
}

static const GActionEntry win_entries[] = {
  { "synchronize", act_synchronize, NULL, NULL, NULL, { 0 } },
  { "clock-offsets", act_clock_offsets, NULL, NULL, NULL, { 0 } },
  { "add-trace", act_add_trace, NULL, NULL, NULL, { 0 } },
  { "add-trace-archive", act_add_trace_archive, NULL, NULL, NULL, { 0 } },
  { "close-tab", act_close_tab, NULL, NULL, NULL, { 0 } },
  { "zoom-in", act_zoom_in, NULL, NULL, NULL, { 0 } },
  { "zoom-out", act_zoom_out, NULL, NULL, NULL, { 0 } },
  { "zoom-fit", act_zoom_fit, NULL, NULL, NULL, { 0 } },
  { "add-bookmark", act_add_bookmark, NULL, NULL, NULL, { 0 } },
  { "find", act_find, NULL, NULL, NULL, { 0 } },
  { "info", act_info, NULL, NULL, NULL, { 0 } },
  { "preferences", act_preferences, NULL, NULL, NULL, { 0 } },
  { "show-viewer", act_show_viewer, "s", NULL, NULL, { 0 } },
  { "split-view-right", act_split_view_right, NULL, NULL, NULL, { 0 } },
  { "zoom-selection", act_zoom_selection, NULL, NULL, NULL, { 0 } },
  { "next-bookmark", act_next_bookmark, NULL, NULL, NULL, { 0 } },
  { "previous-bookmark", act_previous_bookmark, NULL, NULL, NULL, { 0 } },
  { "clear-selection", act_clear_selection, NULL, NULL, NULL, { 0 } },
  { "split-view-down", act_split_view_down, NULL, NULL, NULL, { 0 } },
  { "move-view", act_move_view, NULL, NULL, NULL, { 0 } },
  { "close-view", act_close_view, NULL, NULL, NULL, { 0 } },
  { "reset-layout", act_reset_layout, NULL, NULL, NULL, { 0 } },
  { "show-bookmarks", NULL, NULL, "true", act_show_bookmarks, { 0 } },
  { "follow", NULL, NULL, "false", act_follow, { 0 } },
  { "open-live", act_open_live, NULL, NULL, NULL, { 0 } },
  { "filter", act_filter, NULL, NULL, NULL, { 0 } },
};

static gboolean
update_idle (gpointer data)
{
  TtvWindow *self = data;

  self->update_id = 0;
  update_actions (self);
  return G_SOURCE_REMOVE;
}

static void
switch_page (GtkNotebook *nb, GtkWidget *page, guint num, TtvWindow *self)
{
  /* The notebook's current page changes after this signal. */
  if (!self->update_id && !gtk_widget_in_destruction (GTK_WIDGET (self)))
    self->update_id = g_idle_add_full (G_PRIORITY_HIGH_IDLE, update_idle, self, NULL);
}

/* --- Size, remembered in GSettings ------------------------------------------ */

#define DEFAULT_WIDTH 1400
#define DEFAULT_HEIGHT 900

static void
restore_size (TtvWindow *self)
{
  GSettings *settings = ttv_settings_get ();

  GdkDisplay *display = gdk_display_get_default ();
  GdkMonitor *monitor = display ? gdk_display_get_primary_monitor (display) : NULL;
  GdkRectangle area;

  self->width = settings ? g_settings_get_int (settings, "window-width") : DEFAULT_WIDTH;
  self->height = settings ? g_settings_get_int (settings, "window-height") : DEFAULT_HEIGHT;
  if (!monitor && display && gdk_display_get_n_monitors (display) > 0)
    monitor = gdk_display_get_monitor (display, 0);
  if (monitor)
    {
      /* Never larger than the screen (a smaller laptop, a test's Xvfb). */
      gdk_monitor_get_workarea (monitor, &area);
      self->width = MIN (self->width, area.width);
      self->height = MIN (self->height, area.height);
    }
  gtk_window_set_default_size (GTK_WINDOW (self), self->width, self->height);
  if (settings && g_settings_get_boolean (settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));
}

static void
save_size (TtvWindow *self)
{
  GSettings *settings = ttv_settings_get ();

  if (!settings || self->width <= 0)
    return;
  g_settings_set_int (settings, "window-width", MAX (400, self->width));
  g_settings_set_int (settings, "window-height", MAX (300, self->height));
  g_settings_set_boolean (settings, "window-maximized", self->maximized);
  self->width = 0;      /* saved once */
}

static void
ttv_window_size_allocate (GtkWidget *widget, GtkAllocation *allocation)
{
  TtvWindow *self = TTV_WINDOW (widget);

  GTK_WIDGET_CLASS (ttv_window_parent_class)->size_allocate (widget, allocation);
  /* A maximized size is the screen's, not one to come back to. */
  if (!self->maximized && self->width > 0)
    gtk_window_get_size (GTK_WINDOW (self), &self->width, &self->height);
}

static gboolean
ttv_window_state_event (GtkWidget *widget, GdkEventWindowState *event)
{
  TtvWindow *self = TTV_WINDOW (widget);

  self->maximized = (event->new_window_state & GDK_WINDOW_STATE_MAXIMIZED) != 0;
  return GTK_WIDGET_CLASS (ttv_window_parent_class)->window_state_event (widget, event);
}

static void
ttv_window_dispose (GObject *object)
{
  TtvWindow *self = TTV_WINDOW (object);

  save_size (self);
  if (self->open_cancel)
    g_cancellable_cancel (self->open_cancel);
  g_clear_object (&self->open_cancel);
  g_clear_handle_id (&self->pulse_id, g_source_remove);
  if (self->notebook)
    g_signal_handlers_disconnect_by_func (self->notebook, switch_page, self);
  g_clear_handle_id (&self->update_id, g_source_remove);
  G_OBJECT_CLASS (ttv_window_parent_class)->dispose (object);
}

static void
ttv_window_finalize (GObject *object)
{
  g_atomic_rc_box_release (TTV_WINDOW (object)->open_progress);
  G_OBJECT_CLASS (ttv_window_parent_class)->finalize (object);
}

static void
ttv_window_class_init (TtvWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = ttv_window_dispose;
  G_OBJECT_CLASS (klass)->finalize = ttv_window_finalize;
  widget_class->size_allocate = ttv_window_size_allocate;
  widget_class->window_state_event = ttv_window_state_event;
  g_type_ensure (TTV_TYPE_WELCOME);
  gtk_widget_class_set_template_from_resource (widget_class, "/org/ttv/Viewer/ttv-window.ui");
  gtk_widget_class_bind_template_child (widget_class, TtvWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, TtvWindow, notebook);
  gtk_widget_class_bind_template_child (widget_class, TtvWindow, busy_box);
  gtk_widget_class_bind_template_child (widget_class, TtvWindow, busy_label);
  gtk_widget_class_bind_template_child (widget_class, TtvWindow, busy_progress);
  gtk_widget_class_bind_template_child (widget_class, TtvWindow, busy_cancel);
  gtk_widget_class_bind_template_callback (widget_class, busy_cancel_clicked);
}

static void
ttv_window_init (TtvWindow *self)
{
  self->open_progress = g_atomic_rc_box_new0 (gint);
  restore_size (self);
  gtk_widget_init_template (GTK_WIDGET (self));
  g_signal_connect_after (self, "key-press-event", G_CALLBACK (escape_pressed), NULL);
  g_action_map_add_action_entries (G_ACTION_MAP (self), win_entries, G_N_ELEMENTS (win_entries), self);
  g_signal_connect (self->notebook, "switch-page", G_CALLBACK (switch_page), self);
  update_actions (self);
}

GtkWidget *
ttv_window_new (GtkApplication *app)
{
  return g_object_new (TTV_TYPE_WINDOW, "application", app, NULL);
}
