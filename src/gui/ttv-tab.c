/* ttv-tab.c: one tab of the window: shared state, time bar, viewers,
 * bookmarks (loaded when the trace opens, saved atomically on each change)
 * and the background first read with progress and cancel. */
#include "ttv-config.h"

#include "ttv-tab.h"

#include "ttv-bookmark-dialog.h"
#include "ttv-bookmarks-panel.h"
#include "ttv-bookmarks.h"
#include "ttv-filter-bar.h"
#include "ttv-history-pass.h"
#include "ttv-indexer.h"
#include "ttv-state-pass.h"
#include "ttv-time-bar.h"
#include "ttv-trace-info.h"
#include "ttv-viewer-registry.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <string.h>


struct _TtvTab {
  GtkBox parent_instance;

  TtvTabState *state;           /* owned */
  GtkWidget *time_bar;
  GtkWidget *filter_bar;
  GtkWidget *info_bar;
  GtkWidget *info_label;
  GtkWidget *progress_box;
  GtkWidget *progress_bar;
  GtkWidget *progress_label;
  GtkWidget *paned;
  GtkWidget *viewers;           /* GtkNotebook of viewer widgets */
  GtkWidget *bookmarks_panel;

  GCancellable *index_cancel;   /* owned, NULL when not indexing */
  gint *index_progress;         /* g_atomic_rc_box, owned reference */
  guint progress_timeout;
  guint follow_timeout;         /* following a live trace: the refresh timer */
};

G_DEFINE_FINAL_TYPE (TtvTab, ttv_tab, GTK_TYPE_BOX)

static void start_indexing (TtvTab *self);
static void start_state_pass (TtvTab *self);
static void start_history_pass (TtvTab *self);

static void
show_message (TtvTab *self, GtkMessageType type, const char *message)
{
  gtk_info_bar_set_message_type (GTK_INFO_BAR (self->info_bar), type);
  gtk_label_set_text (GTK_LABEL (self->info_label), message);
  gtk_widget_show (self->info_bar);
}

static void
info_bar_response (GtkInfoBar *bar, gint response, TtvTab *self)
{
  gtk_widget_hide (GTK_WIDGET (bar));
}

/* --- Bookmarks: libttv <-> viewer API ------------------------------------- */

static TtvViewerBookmark *
from_ttv_bookmark (const TtvBookmark *b, guint trace_index, const TtvTrace *trace)
{
  TtvViewerBookmark *v;

  if (b->kind == TTV_BOOKMARK_CYCLE || b->kind == TTV_BOOKMARK_CYCLE_INTERVAL)
    {
      /* No clock conversion here: shown at the trace start, by cycles. */
      v = ttv_viewer_bookmark_new (b->name, b->text, b->cpu, trace->start, trace->start);
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

static void
load_bookmarks (TtvTab *self)
{
  g_autoptr (GPtrArray) all = g_ptr_array_new_with_free_func ((GDestroyNotify) ttv_viewer_bookmark_free);
  g_autoptr (GString) problems = g_string_new (NULL);

  for (guint t = 0; t < ttv_tab_state_get_n_traces (self->state); t++)
    {
      TtvTrace *trace = ttv_tab_state_get_trace (self->state, t);
      g_autoptr (GError) error = NULL;
      g_autoptr (TtvBookmarks) list = ttv_bookmarks_load_for_trace (trace, &error);

      if (!list)
        {
          g_string_append_printf (problems, _("Bookmarks of %s not loaded: %s\n"),
                                  trace->display_path, error->message);
          continue;
        }
      for (guint i = 0; i < ttv_bookmarks_get_n (list); i++)
        g_ptr_array_add (all, from_ttv_bookmark (ttv_bookmarks_get (list, i), t, trace));
    }
  ttv_tab_state_set_bookmarks (self->state, g_steal_pointer (&all));
  if (problems->len)
    show_message (self, GTK_MESSAGE_WARNING, problems->str);
}

static void
save_bookmarks (TtvTab *self, guint trace_index)
{
  TtvTrace *trace = ttv_tab_state_get_trace (self->state, trace_index);
  GPtrArray *bookmarks = ttv_tab_state_get_bookmarks (self->state);
  g_autoptr (TtvBookmarks) list = ttv_bookmarks_new ();
  g_autoptr (GError) error = NULL;

  for (guint i = 0; i < bookmarks->len; i++)
    {
      const TtvViewerBookmark *v = bookmarks->pdata[i];
      if (v->trace_index == trace_index)
        ttv_bookmarks_add (list, to_ttv_bookmark (v));
    }

  if (ttv_bookmarks_trace_is_writable (trace))
    {
      if (!ttv_bookmarks_save_for_trace (list, trace, &error))
        {
          g_autofree char *msg = g_strdup_printf (_("Bookmarks not saved: %s"), error->message);
          show_message (self, GTK_MESSAGE_ERROR, msg);
        }
      return;
    }
  /* A read-only trace: say so and keep them beside it, in the user's data dir. */
  {
    g_autofree char *fallback = ttv_bookmarks_dup_fallback_path (trace);
    g_autofree char *dir = g_path_get_dirname (fallback);
    g_autofree char *msg = NULL;

    if (g_mkdir_with_parents (dir, 0700) != 0 || !ttv_bookmarks_save (list, fallback, &error))
      msg = g_strdup_printf (_("%s is read-only, and the bookmarks could not be saved in %s "
                               "either: %s"), trace->display_path, fallback,
                             error ? error->message : g_strerror (errno));
    else
      msg = g_strdup_printf (_("%s is read-only: the bookmarks were saved in %s instead."),
                             trace->display_path, fallback);
    show_message (self, GTK_MESSAGE_WARNING, msg);
  }
}

static guint
trace_for_time (TtvTab *self, TtvTime t)
{
  for (guint i = 0; i < ttv_tab_state_get_n_traces (self->state); i++)
    {
      TtvTrace *trace = ttv_tab_state_get_trace (self->state, i);
      if (t >= trace->start && t <= trace->end)
        return i;
    }
  return 0;
}

typedef struct {
  TtvTab *tab;          /* owned reference */
  gint index;           /* -1: adding */
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
  TtvTab *self = d->tab;
  g_autoptr (GError) error = NULL;
  TtvViewerBookmark *b;
  guint old_trace = G_MAXUINT, new_trace;

  if (response != GTK_RESPONSE_OK)
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
  if (d->index < 0 && !b->has_cycles)
    b->trace_index = trace_for_time (self, b->start);
  new_trace = b->trace_index;
  if (d->index < 0)
    ttv_tab_state_add_bookmark (self->state, b);
  else if ((guint) d->index < ttv_tab_state_get_bookmarks (self->state)->len)
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
    save_bookmarks (self, new_trace);
  if (old_trace != G_MAXUINT && old_trace != new_trace)
    save_bookmarks (self, old_trace);
}

static void
run_bookmark_dialog (TtvTab *self, const char *title, const TtvViewerBookmark *initial, gint index)
{
  GtkWidget *toplevel = gtk_widget_get_toplevel (GTK_WIDGET (self));
  GtkWidget *dialog = ttv_bookmark_dialog_new (GTK_IS_WINDOW (toplevel) ? GTK_WINDOW (toplevel) : NULL,
                                               title, initial);
  DialogData *d = g_new0 (DialogData, 1);

  d->tab = g_object_ref (self);
  d->index = index;
  g_signal_connect_data (dialog, "response", G_CALLBACK (bookmark_dialog_response), d,
                         (GClosureNotify) (void (*) (void)) dialog_data_free, 0);
  gtk_widget_show (dialog);
}

void
ttv_tab_add_bookmark_interactive (TtvTab *self)
{
  TtvTime start, end;
  g_autoptr (TtvViewerBookmark) b = NULL;

  g_return_if_fail (TTV_IS_TAB (self));
  if (!ttv_tab_state_get_selection (self->state, &start, &end))
    start = end = ttv_tab_state_get_current_time (self->state);
  b = ttv_viewer_bookmark_new ("", "", -1, start, end);
  run_bookmark_dialog (self, _("Add Bookmark"), b, -1);
}

void
ttv_tab_edit_bookmark (TtvTab *self, guint index)
{
  GPtrArray *all = ttv_tab_state_get_bookmarks (self->state);

  g_return_if_fail (index < all->len);
  run_bookmark_dialog (self, _("Edit Bookmark"), all->pdata[index], index);
}

void
ttv_tab_delete_bookmark (TtvTab *self, guint index)
{
  GPtrArray *all = ttv_tab_state_get_bookmarks (self->state);
  guint trace_index;

  g_return_if_fail (index < all->len);
  trace_index = ((TtvViewerBookmark *) all->pdata[index])->trace_index;
  ttv_tab_state_replace_bookmark (self->state, index, NULL);
  save_bookmarks (self, trace_index);
}

void
ttv_tab_jump_to_bookmark (TtvTab *self, guint index)
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
  else if (b->start < ws || b->start > we)
    ttv_tab_state_set_time_window (self->state, b->start - (we - ws) / 2, b->start + (we - ws) / 2);
  ttv_tab_state_set_current_time (self->state, b->start);
}

void
ttv_tab_set_bookmarks_visible (TtvTab *self, gboolean visible)
{
  gtk_widget_set_visible (self->bookmarks_panel, visible);
}

gboolean
ttv_tab_get_bookmarks_visible (TtvTab *self)
{
  return gtk_widget_get_visible (self->bookmarks_panel);
}

/* --- Viewers --------------------------------------------------------------- */

gboolean
ttv_tab_show_viewer (TtvTab *self, const char *name)
{
  GtkNotebook *nb = GTK_NOTEBOOK (self->viewers);
  const TtvViewerInfo *info = ttv_viewer_registry_find (name);
  GtkWidget *viewer, *label;

  if (!info)
    return FALSE;
  for (gint i = 0; i < gtk_notebook_get_n_pages (nb); i++)
    if (g_object_get_data (G_OBJECT (gtk_notebook_get_nth_page (nb, i)), "ttv-viewer-info") == info)
      {
        gtk_notebook_set_current_page (nb, i);
        return TRUE;
      }
  viewer = info->new_viewer (self->state);
  if (!viewer)
    return FALSE;
  g_object_set_data (G_OBJECT (viewer), "ttv-viewer-info", (gpointer) info);
  label = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  if (info->icon_name)
    gtk_box_pack_start (GTK_BOX (label), gtk_image_new_from_icon_name (info->icon_name, GTK_ICON_SIZE_MENU),
                        FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (label), gtk_label_new (info->title), FALSE, FALSE, 0);
  gtk_widget_show_all (label);
  gtk_widget_show (viewer);
  gtk_notebook_set_current_page (nb, gtk_notebook_append_page (nb, viewer, label));
  gtk_notebook_set_tab_reorderable (nb, viewer, TRUE);
  return TRUE;
}

void
ttv_tab_find (TtvTab *self)
{
  GtkNotebook *nb = GTK_NOTEBOOK (self->viewers);
  gint current = gtk_notebook_get_current_page (nb);
  const TtvViewerInfo *info;

  if (current >= 0)
    {
      GtkWidget *v = gtk_notebook_get_nth_page (nb, current);
      info = g_object_get_data (G_OBJECT (v), "ttv-viewer-info");
      if (info && info->find)
        {
          info->find (v);
          return;
        }
    }
  for (gint i = 0; i < gtk_notebook_get_n_pages (nb); i++)
    {
      GtkWidget *v = gtk_notebook_get_nth_page (nb, i);
      info = g_object_get_data (G_OBJECT (v), "ttv-viewer-info");
      if (info && info->find)
        {
          gtk_notebook_set_current_page (nb, i);
          info->find (v);
          return;
        }
    }
}

/* --- Background first read ------------------------------------------------- */

static gboolean
progress_tick (gpointer data)
{
  TtvTab *self = data;

  gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->progress_bar),
                                 g_atomic_int_get (self->index_progress) / 1000.0);
  return G_SOURCE_CONTINUE;
}

static void
stop_progress (TtvTab *self)
{
  g_clear_handle_id (&self->progress_timeout, g_source_remove);
  gtk_widget_hide (self->progress_box);
}

static void
index_done (GObject *source, GAsyncResult *result, gpointer data)
{
  TtvTab *self = data;   /* owned reference taken at start */
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvIndexResult) r = ttv_indexer_run_finish (result, &error);
  gboolean cancelled = g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);

  if (!self->state)
    {
      /* The tab was closed meanwhile: its widgets are gone. */
      g_object_unref (self);
      return;
    }
  if (self->index_cancel && g_cancellable_is_cancelled (self->index_cancel) && !cancelled && !r)
    cancelled = TRUE;
  g_clear_object (&self->index_cancel);
  stop_progress (self);
  if (r && !self->state)
    ;   /* the tab was closed meanwhile */
  else if (r)
    {
      ttv_tab_state_set_type_density (self->state, g_steal_pointer (&r->type_density));
      ttv_tab_state_set_statistics (self->state, r->n_events, TRUE, g_steal_pointer (&r->density));
      start_state_pass (self);
    }
  else if (!cancelled)
    {
      g_autofree char *msg = g_strdup_printf (_("Reading the traceset failed: %s"), error->message);
      show_message (self, GTK_MESSAGE_ERROR, msg);
    }
  else if (gtk_widget_get_parent (GTK_WIDGET (self)))
    show_message (self, GTK_MESSAGE_INFO, _("Indexing cancelled: the event count and overview "
                                            "are not available."));
  g_object_unref (self);
}

static void
state_pass_done (GObject *source, GAsyncResult *result, gpointer data)
{
  TtvTab *self = data;   /* owned reference taken at start */
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvStatePassResult) r = ttv_state_pass_run_finish (result, &error);

  if (!self->state)
    {
      /* The tab was closed meanwhile: its widgets are gone. */
      g_object_unref (self);
      return;
    }
  g_clear_object (&self->index_cancel);
  stop_progress (self);
  if (r && self->state)
    {
      ttv_tab_state_set_state_pass (self->state, g_steal_pointer (&r->tracker),
                                    g_steal_pointer (&r->statistics));
      start_history_pass (self);
    }
  else if (!r && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_autofree char *msg = g_strdup_printf (_("Computing the state failed: %s"), error->message);
      show_message (self, GTK_MESSAGE_ERROR, msg);
    }
  else if (!r && gtk_widget_get_parent (GTK_WIDGET (self)))
    show_message (self, GTK_MESSAGE_INFO, _("State computation cancelled: process columns and "
                                            "statistics are not available."));
  g_object_unref (self);
}

static guint64
checkpoint_interval (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr (GSettingsSchema) schema = source ? g_settings_schema_source_lookup (source, "org.ttv.Viewer", TRUE)
                                              : NULL;
  g_autoptr (GSettings) settings = NULL;

  if (!schema || !g_settings_schema_has_key (schema, "checkpoint-interval"))
    return 50000;
  settings = g_settings_new ("org.ttv.Viewer");
  return MAX (1000, g_settings_get_uint (settings, "checkpoint-interval"));
}

/* The second background stage: state checkpoints and statistics. */
static void
start_state_pass (TtvTab *self)
{
  g_clear_object (&self->index_cancel);
  self->index_cancel = g_cancellable_new ();
  g_atomic_int_set (self->index_progress, 0);
  gtk_label_set_text (GTK_LABEL (self->progress_label), _("Computing state and statistics…"));
  gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->progress_bar), 0);
  gtk_widget_show (self->progress_box);
  if (!self->progress_timeout)
    self->progress_timeout = g_timeout_add (100, progress_tick, self);
  ttv_state_pass_run_async (ttv_tab_state_get_traceset (self->state), checkpoint_interval (),
                            self->index_progress, self->index_cancel, state_pass_done,
                            g_object_ref (self));
}

static void
history_pass_done (GObject *source, GAsyncResult *result, gpointer data)
{
  TtvTab *self = data;   /* owned reference taken at start */
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvStateHistory) h = ttv_history_pass_run_finish (result, &error);

  if (!self->state)
    {
      /* The tab was closed meanwhile: its widgets are gone. */
      g_object_unref (self);
      return;
    }
  g_clear_object (&self->index_cancel);
  stop_progress (self);
  if (h)
    ttv_tab_state_set_history (self->state, g_steal_pointer (&h));
  else if (!h && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_autofree char *msg = g_strdup_printf (_("Building the state history failed: %s"),
                                              error->message);
      show_message (self, GTK_MESSAGE_ERROR, msg);
    }
  else if (!h && gtk_widget_get_parent (GTK_WIDGET (self)))
    show_message (self, GTK_MESSAGE_INFO, _("State history cancelled: the control flow and "
                                            "resources views are not available."));
  g_object_unref (self);
}

/* The third background stage: the state history (control flow, resources). */
static void
start_history_pass (TtvTab *self)
{
  g_clear_object (&self->index_cancel);
  self->index_cancel = g_cancellable_new ();
  g_atomic_int_set (self->index_progress, 0);
  gtk_label_set_text (GTK_LABEL (self->progress_label), _("Building the state history…"));
  gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->progress_bar), 0);
  gtk_widget_show (self->progress_box);
  if (!self->progress_timeout)
    self->progress_timeout = g_timeout_add (100, progress_tick, self);
  ttv_history_pass_run_async (ttv_tab_state_get_traceset (self->state), self->index_progress,
                              self->index_cancel, history_pass_done, g_object_ref (self));
}

static void
cancel_indexing (TtvTab *self)
{
  if (self->index_cancel)
    g_cancellable_cancel (self->index_cancel);
}

static void
start_indexing (TtvTab *self)
{
  cancel_indexing (self);
  g_clear_object (&self->index_cancel);
  self->index_cancel = g_cancellable_new ();
  g_atomic_int_set (self->index_progress, 0);
  gtk_label_set_text (GTK_LABEL (self->progress_label), _("Reading the traceset…"));
  gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->progress_bar), 0);
  gtk_widget_show (self->progress_box);
  if (!self->progress_timeout)
    self->progress_timeout = g_timeout_add (100, progress_tick, self);
  ttv_indexer_run_async (ttv_tab_state_get_traceset (self->state), TTV_INDEXER_DENSITY_BINS,
                         self->index_progress, self->index_cancel, index_done,
                         g_object_ref (self));
}

void
ttv_tab_add_trace (TtvTab *self, TtvTrace *trace)
{
  TtvTraceset *ts = ttv_tab_state_get_traceset (self->state);

  /* Stop everything that reads the traceset before it changes. */
  cancel_indexing (self);
  ttv_traceset_ref (ts);
  ttv_tab_state_set_traceset (self->state, ts);   /* drops the state's reader */
  ttv_traceset_add_trace (ts, trace);
  ttv_tab_state_set_traceset (self->state, ts);
  ttv_traceset_unref (ts);
  load_bookmarks (self);
  start_indexing (self);
}

/* --- Following a live trace ------------------------------------------------- */

#define FOLLOW_INTERVAL_MS 1000

/* Once a second: what the tracer appended, unless background passes or
 * requests are reading the traceset (then next time).  New data runs the
 * background passes again, which bring the views up to date. */
static gboolean
follow_tick (gpointer data)
{
  TtvTab *self = data;
  g_autoptr (GError) error = NULL;
  gboolean changed;

  if (self->index_cancel)
    return G_SOURCE_CONTINUE;
  if (!ttv_tab_state_refresh (self->state, &changed, &error))
    {
      g_autofree char *msg = g_strdup_printf (_("Following stopped: %s"), error->message);
      show_message (self, GTK_MESSAGE_ERROR, msg);
      self->follow_timeout = 0;
      return G_SOURCE_REMOVE;
    }
  if (changed)
    start_indexing (self);
  return G_SOURCE_CONTINUE;
}

void
ttv_tab_focus_filter (TtvTab *self)
{
  g_return_if_fail (TTV_IS_TAB (self));
  ttv_filter_bar_focus (TTV_FILTER_BAR (self->filter_bar));
}

void
ttv_tab_set_following (TtvTab *self, gboolean follow)
{
  g_return_if_fail (TTV_IS_TAB (self));

  if (follow && !self->follow_timeout)
    self->follow_timeout = g_timeout_add (FOLLOW_INTERVAL_MS, follow_tick, self);
  else if (!follow)
    g_clear_handle_id (&self->follow_timeout, g_source_remove);
}

gboolean
ttv_tab_get_following (TtvTab *self)
{
  g_return_val_if_fail (TTV_IS_TAB (self), FALSE);
  return self->follow_timeout != 0;
}

void
ttv_tab_shutdown (TtvTab *self)
{
  ttv_tab_set_following (self, FALSE);
  cancel_indexing (self);
  stop_progress (self);
  ttv_tab_state_shutdown (self->state);
}

char *
ttv_tab_dup_title (TtvTab *self)
{
  guint n = ttv_tab_state_get_n_traces (self->state);

  if (n == 0)
    return g_strdup (_("(empty)"));
  if (n == 1)
    return g_strdup (ttv_tab_state_get_trace (self->state, 0)->name);
  return g_strdup_printf ("%s +%u", ttv_tab_state_get_trace (self->state, 0)->name, n - 1);
}

char *
ttv_tab_dup_info_text (TtvTab *self)
{
  GString *out = g_string_new (NULL);
  gboolean complete;
  guint64 n = ttv_tab_state_get_event_count (self->state, &complete);

  for (guint t = 0; t < ttv_tab_state_get_n_traces (self->state); t++)
    {
      TtvTrace *trace = ttv_tab_state_get_trace (self->state, t);

      g_string_append_printf (out, _("Trace %u: %s\n"), t, trace->display_path);
      ttv_trace_append_info (trace, out);
      g_string_append_printf (out, "\n%s\n", _("Event types:"));
      ttv_trace_append_event_types (trace, out);
      g_string_append_c (out, '\n');
    }
  if (complete)
    {
      g_autofree char *count = g_strdup_printf ("%" G_GUINT64_FORMAT, n);
      g_string_append_printf (out, _("Events in the traceset: %s\n"), count);
    }
  else
    g_string_append (out, _("Events in the traceset: still counting\n"));
  return g_string_free (out, FALSE);
}

/* --- Construction ---------------------------------------------------------- */

static void
ttv_tab_dispose (GObject *object)
{
  TtvTab *self = TTV_TAB (object);

  if (self->state)
    ttv_tab_shutdown (self);
  g_clear_object (&self->state);
  G_OBJECT_CLASS (ttv_tab_parent_class)->dispose (object);
}

static void
ttv_tab_finalize (GObject *object)
{
  TtvTab *self = TTV_TAB (object);

  g_clear_object (&self->index_cancel);
  g_atomic_rc_box_release (self->index_progress);
  G_OBJECT_CLASS (ttv_tab_parent_class)->finalize (object);
}

static void
ttv_tab_class_init (TtvTabClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = ttv_tab_dispose;
  G_OBJECT_CLASS (klass)->finalize = ttv_tab_finalize;
}

static void
ttv_tab_init (TtvTab *self)
{
  self->index_progress = g_atomic_rc_box_new0 (gint);
}

GtkWidget *
ttv_tab_new (TtvTraceset *traceset)
{
  TtvTab *self = g_object_new (TTV_TYPE_TAB, "orientation", GTK_ORIENTATION_VERTICAL, NULL);
  GtkWidget *label, *cancel;

  self->state = ttv_tab_state_new (traceset);
  self->time_bar = ttv_time_bar_new (self->state);
  gtk_box_pack_start (GTK_BOX (self), self->time_bar, FALSE, FALSE, 0);
  self->filter_bar = ttv_filter_bar_new (self->state);
  gtk_box_pack_start (GTK_BOX (self), self->filter_bar, FALSE, FALSE, 0);

  self->info_bar = gtk_info_bar_new ();
  gtk_info_bar_set_show_close_button (GTK_INFO_BAR (self->info_bar), TRUE);
  self->info_label = gtk_label_new (NULL);
  gtk_label_set_line_wrap (GTK_LABEL (self->info_label), TRUE);
  gtk_label_set_xalign (GTK_LABEL (self->info_label), 0);
  gtk_label_set_selectable (GTK_LABEL (self->info_label), TRUE);
  gtk_widget_show (self->info_label);
  gtk_container_add (GTK_CONTAINER (gtk_info_bar_get_content_area (GTK_INFO_BAR (self->info_bar))),
                     self->info_label);
  g_signal_connect (self->info_bar, "response", G_CALLBACK (info_bar_response), self);
  gtk_widget_set_no_show_all (self->info_bar, TRUE);
  gtk_box_pack_start (GTK_BOX (self), self->info_bar, FALSE, FALSE, 0);

  self->progress_box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_container_set_border_width (GTK_CONTAINER (self->progress_box), 2);
  label = self->progress_label = gtk_label_new (_("Reading the traceset…"));
  self->progress_bar = gtk_progress_bar_new ();
  gtk_widget_set_valign (self->progress_bar, GTK_ALIGN_CENTER);
  cancel = gtk_button_new_with_mnemonic (_("_Cancel"));
  gtk_widget_set_tooltip_text (cancel, _("Stop reading: the event list keeps working, "
                                         "the overview and event count stay unknown"));
  g_signal_connect_swapped (cancel, "clicked", G_CALLBACK (cancel_indexing), self);
  gtk_box_pack_start (GTK_BOX (self->progress_box), label, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (self->progress_box), self->progress_bar, TRUE, TRUE, 0);
  gtk_box_pack_start (GTK_BOX (self->progress_box), cancel, FALSE, FALSE, 0);
  gtk_widget_show_all (self->progress_box);
  gtk_widget_set_no_show_all (self->progress_box, TRUE);
  gtk_box_pack_start (GTK_BOX (self), self->progress_box, FALSE, FALSE, 0);

  self->paned = gtk_paned_new (GTK_ORIENTATION_HORIZONTAL);
  self->viewers = gtk_notebook_new ();
  gtk_notebook_set_scrollable (GTK_NOTEBOOK (self->viewers), TRUE);
  gtk_paned_pack1 (GTK_PANED (self->paned), self->viewers, TRUE, FALSE);
  self->bookmarks_panel = ttv_bookmarks_panel_new (self);
  gtk_widget_set_size_request (self->bookmarks_panel, 220, -1);
  gtk_paned_pack2 (GTK_PANED (self->paned), self->bookmarks_panel, FALSE, TRUE);
  gtk_widget_show_all (self->paned);
  gtk_box_pack_start (GTK_BOX (self), self->paned, TRUE, TRUE, 0);

  /* The event list first and in front, whatever order the modules were
   * loaded in (by file name: controlflow comes before events). */
  if (ttv_viewer_registry_find ("events"))
    ttv_tab_show_viewer (self, "events");
  for (guint i = 0; i < ttv_viewer_registry_get_n_viewers (); i++)
    {
      const TtvViewerInfo *info = ttv_viewer_registry_get_viewer (i);
      if (info->show_by_default && strcmp (info->name, "events") != 0)
        ttv_tab_show_viewer (self, info->name);
    }
  if (gtk_notebook_get_n_pages (GTK_NOTEBOOK (self->viewers)) > 0)
    gtk_notebook_set_current_page (GTK_NOTEBOOK (self->viewers), 0);
  if (ttv_viewer_registry_get_n_viewers () == 0)
    show_message (self, GTK_MESSAGE_WARNING,
                  _("No viewer module was found: set TTV_MODULE_DIR or reinstall ttv."));
  for (guint t = 0; t < ttv_tab_state_get_n_traces (self->state); t++)
    {
      TtvTrace *trace = ttv_tab_state_get_trace (self->state, t);
      for (guint w = 0; trace->warnings && w < trace->warnings->len; w++)
        show_message (self, GTK_MESSAGE_WARNING, trace->warnings->pdata[w]);
    }
  load_bookmarks (self);
  start_indexing (self);
  gtk_widget_show (GTK_WIDGET (self));
  return GTK_WIDGET (self);
}

TtvTabState *
ttv_tab_get_state (TtvTab *self)
{
  g_return_val_if_fail (TTV_IS_TAB (self), NULL);
  return self->state;
}
