/* ttv-tab.c: one tab of the window: shared state, time bar, filter bar,
 * viewers, bookmarks panel, messages over the views, the status bar, and
 * the background passes (first read, state, history) with progress,
 * Cancel and Restart. */
#include "ttv-config.h"

#include "ttv-tab.h"

#include "ttv-bookmarks.h"
#include "ttv-bookmarks-panel.h"
#include "ttv-escape.h"
#include "ttv-filter-bar.h"
#include "ttv-history-pass.h"
#include "ttv-indexer.h"
#include "ttv-notifications.h"
#include "ttv-settings.h"
#include "ttv-state-pass.h"
#include "ttv-status-bar.h"
#include "ttv-sync.h"
#include "ttv-tab-analysis.h"
#include "ttv-tab-bookmarks.h"
#include "ttv-tab-layout.h"
#include "ttv-time-bar.h"
#include "ttv-trace-damage.h"
#include "ttv-viewer-registry.h"

#include <glib/gi18n.h>
#include <string.h>


/* The background passes, in the order they run. */
typedef enum {
  STAGE_INDEX,          /* event count, density */
  STAGE_STATE,          /* checkpoints, statistics */
  STAGE_HISTORY,        /* control flow and resources */
  STAGE_DONE,
} Stage;

struct _TtvTab {
  GtkBox parent_instance;

  TtvTabState *state;           /* owned */
  GtkWidget *time_bar;
  GtkWidget *filter_bar;
  GtkWidget *notifications;     /* over the views */
  GtkWidget *status_bar;
  GtkWidget *paned;
  GtkWidget *layout;            /* TtvTabLayout: panes of viewer widgets */
  GtkWidget *bookmarks_panel;
  TtvTabBookmarks *bookmarks;   /* owned */

  Stage stage;                  /* running, or to restart after a cancel */
  GCancellable *index_cancel;   /* owned, NULL when no pass runs */
  gint *index_progress;         /* g_atomic_rc_box, owned reference */
  guint progress_timeout;
  guint follow_timeout;         /* following a live trace: the refresh timer */
  guint n_damage_shown;         /* damaged places the message names */
  gboolean damaged;             /* some events of the traceset are lost to damage */
  guint n_passes;               /* background passes whose thread still reads the traceset */
  GQueue changes;               /* of TracesetChange *: waiting for the readers to stop */
  guint change_timeout;         /* checks whether they stopped */
};

/* A change of the traceset (a trace added, clocks corrected): made once no
 * background thread reads it any more.  @apply changes it (nothing reads
 * it then); @then (may be NULL) runs once the state has the new one. */
typedef struct {
  void (*apply) (TtvTab *self, gpointer data);
  void (*then) (TtvTab *self, gpointer data);
  gpointer data;
  GDestroyNotify free;
} TracesetChange;

G_DEFINE_FINAL_TYPE (TtvTab, ttv_tab, GTK_TYPE_BOX)

enum { PROP_0, PROP_DAMAGED, N_PROPS };
static GParamSpec *props[N_PROPS];

static void start_stage (TtvTab *self, Stage stage);

void
ttv_tab_notify (TtvTab *self, const char *key, GtkMessageType type, const char *text)
{
  g_return_if_fail (TTV_IS_TAB (self));
  ttv_notifications_show (TTV_NOTIFICATIONS (self->notifications), key, type, text, NULL, NULL,
                          NULL, NULL);
}

TtvNotifications *
ttv_tab_get_notifications (TtvTab *self)
{
  g_return_val_if_fail (TTV_IS_TAB (self), NULL);
  return TTV_NOTIFICATIONS (self->notifications);
}

TtvStatusBar *
ttv_tab_get_status_bar (TtvTab *self)
{
  g_return_val_if_fail (TTV_IS_TAB (self), NULL);
  return TTV_STATUS_BAR (self->status_bar);
}

/* --- Bookmarks (ttv-tab-bookmarks.c) ----------------------------------------- */

void
ttv_tab_add_bookmark_interactive (TtvTab *self)
{
  g_return_if_fail (TTV_IS_TAB (self));
  ttv_tab_bookmarks_add_interactive (self->bookmarks);
}

void
ttv_tab_add_bookmark (TtvTab *self, TtvViewerBookmark *bookmark)
{
  g_return_if_fail (TTV_IS_TAB (self) && bookmark != NULL);
  ttv_tab_bookmarks_add (self->bookmarks, bookmark);
}

void
ttv_tab_edit_bookmark (TtvTab *self, guint index)
{
  g_return_if_fail (TTV_IS_TAB (self));
  ttv_tab_bookmarks_edit (self->bookmarks, index);
}

void
ttv_tab_delete_bookmark (TtvTab *self, guint index)
{
  g_return_if_fail (TTV_IS_TAB (self));
  ttv_tab_bookmarks_delete (self->bookmarks, index);
}

gboolean
ttv_tab_undo_delete_bookmark (TtvTab *self)
{
  g_return_val_if_fail (TTV_IS_TAB (self), FALSE);
  return ttv_tab_bookmarks_undo_delete (self->bookmarks);
}

void
ttv_tab_jump_to_bookmark (TtvTab *self, guint index)
{
  g_return_if_fail (TTV_IS_TAB (self));
  ttv_tab_bookmarks_jump (self->bookmarks, index);
}

TtvTabBookmarks *
ttv_tab_get_bookmarks (TtvTab *self)
{
  g_return_val_if_fail (TTV_IS_TAB (self), NULL);
  return self->bookmarks;
}

void
ttv_tab_set_bookmarks_visible (TtvTab *self, gboolean visible)
{
  /* A hidden panel stays hidden when the window shows all its widgets. */
  gtk_widget_set_no_show_all (self->bookmarks_panel, !visible);
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
  g_return_val_if_fail (TTV_IS_TAB (self), FALSE);
  return ttv_tab_layout_show_viewer (TTV_TAB_LAYOUT (self->layout), name);
}

TtvTabLayout *
ttv_tab_get_layout (TtvTab *self)
{
  g_return_val_if_fail (TTV_IS_TAB (self), NULL);
  return TTV_TAB_LAYOUT (self->layout);
}

void
ttv_tab_find (TtvTab *self)
{
  GtkWidget *active = ttv_tab_layout_get_active_viewer (TTV_TAB_LAYOUT (self->layout));
  const TtvViewerInfo *info = active ? g_object_get_data (G_OBJECT (active), "ttv-viewer-info") : NULL;
  g_autoptr (GList) viewers = NULL;

  if (info && info->find)
    {
      info->find (active);
      return;
    }
  viewers = ttv_tab_layout_get_viewers (TTV_TAB_LAYOUT (self->layout));
  for (GList *l = viewers; l; l = l->next)
    {
      info = g_object_get_data (G_OBJECT (l->data), "ttv-viewer-info");
      if (info && info->find)
        {
          ttv_tab_layout_show_viewer (TTV_TAB_LAYOUT (self->layout), info->name);
          info->find (l->data);
          return;
        }
    }
}

/* --- Selection ------------------------------------------------------------- */

gboolean
ttv_tab_clear_selection (TtvTab *self)
{
  TtvTime s0, s1;

  g_return_val_if_fail (TTV_IS_TAB (self), FALSE);
  if (!ttv_tab_state_get_selection (self->state, &s0, &s1))
    return FALSE;
  ttv_tab_state_clear_selection (self->state);
  return TRUE;
}

gboolean
ttv_tab_zoom_to_selection (TtvTab *self)
{
  TtvTime s0, s1;

  g_return_val_if_fail (TTV_IS_TAB (self), FALSE);
  if (!ttv_tab_state_get_selection (self->state, &s0, &s1) || s1 <= s0)
    return FALSE;
  ttv_tab_state_set_time_window (self->state, s0, s1);
  return TRUE;
}

/* Escape that no view used (a search bar closes first): clears the
 * selection. */
static gboolean
tab_key_pressed (GtkWidget *widget, GdkEventKey *event)
{
  if (event->keyval == GDK_KEY_Escape && !(event->state & gtk_accelerator_get_default_mod_mask ())
      && ttv_tab_clear_selection (TTV_TAB (widget)))
    return GDK_EVENT_STOP;
  return GTK_WIDGET_CLASS (ttv_tab_parent_class)->key_press_event (widget, event);
}

/* --- Background passes ------------------------------------------------------ */

static const char *
stage_running_text (Stage stage)
{
  switch (stage)
    {
    case STAGE_INDEX:
      return _("Reading the traceset…");
    case STAGE_STATE:
      return _("Computing state and statistics…");
    case STAGE_HISTORY:
    default:
      return _("Building the state history…");
    }
}

/* What is missing when @stage was cancelled or failed. */
static const char *
stage_missing_text (Stage stage)
{
  switch (stage)
    {
    case STAGE_INDEX:
      return _("no event count, overview, state or statistics");
    case STAGE_STATE:
      return _("no process columns, statistics or control flow");
    case STAGE_HISTORY:
    default:
      return _("no control flow or resources view");
    }
}

static gboolean
progress_tick (gpointer data)
{
  TtvTab *self = data;

  ttv_status_bar_set_fraction (TTV_STATUS_BAR (self->status_bar), TTV_STATUS_JOB_BACKGROUND,
                               g_atomic_int_get (self->index_progress) / 1000.0);
  return G_SOURCE_CONTINUE;
}

static void
stop_progress (TtvTab *self)
{
  g_clear_handle_id (&self->progress_timeout, g_source_remove);
  ttv_status_bar_clear_job (TTV_STATUS_BAR (self->status_bar), TTV_STATUS_JOB_BACKGROUND);
}

static void
cancel_passes (TtvTab *self)
{
  if (self->index_cancel)
    g_cancellable_cancel (self->index_cancel);
}

static void
cancel_clicked (gpointer data)
{
  cancel_passes (data);
}

static void
restart_clicked (gpointer data)
{
  TtvTab *self = data;

  start_stage (self, self->stage);
}

/* Damage that loses events, found while opening a trace (its damage
 * warnings) or skipped by the readers while the passes read everything
 * else: one message names each place, file and byte offset, and the tab
 * is marked (the "damaged" property: the window shows it on the tab). */
static void
show_damage (TtvTab *self)
{
  g_autoptr (GString) text = g_string_new (_("Damaged data was skipped; the views show the rest "
                                             "of the traceset."));
  guint n = 0;

  for (guint t = 0; t < ttv_tab_state_get_n_traces (self->state); t++)
    {
      TtvTrace *trace = ttv_traceset_get_trace (ttv_tab_state_get_traceset (self->state), t);
      g_autoptr (GPtrArray) damage = ttv_trace_dup_damage (trace);
      for (guint i = 0; trace->damage_warnings && i < trace->damage_warnings->len; i++, n++)
        g_string_append_printf (text, "\n• %s", (const char *) trace->damage_warnings->pdata[i]);
      for (guint i = 0; i < damage->len; i++, n++)
        g_string_append_printf (text, "\n• %s", (const char *) damage->pdata[i]);
    }
  if (n == self->n_damage_shown)
    return;
  self->n_damage_shown = n;
  ttv_tab_notify (self, "damage", GTK_MESSAGE_WARNING, text->str);
  if (!self->damaged)
    {
      self->damaged = TRUE;
      g_object_notify_by_pspec (G_OBJECT (self), props[PROP_DAMAGED]);
    }
}

gboolean
ttv_tab_get_damaged (TtvTab *self)
{
  g_return_val_if_fail (TTV_IS_TAB (self), FALSE);
  return self->damaged;
}

static void
skip_damage (TtvTraceset *ts)
{
  for (guint t = 0; t < ttv_traceset_get_n_traces (ts); t++)
    ttv_trace_set_skip_damage (ttv_traceset_get_trace (ts, t), TRUE);
}

/* A pass ended: the next one, or what the user should know.  FALSE when
 * the tab was closed meanwhile (nothing to update). */
static gboolean
stage_ended (TtvTab *self, gboolean ok, const GError *error)
{
  TtvStatusBar *bar;
  gboolean cancelled = !ok && (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED)
                               || (self->index_cancel && g_cancellable_is_cancelled (self->index_cancel)));

  if (!self->state)
    return FALSE;   /* closed meanwhile: its widgets are gone */
  bar = TTV_STATUS_BAR (self->status_bar);
  g_clear_object (&self->index_cancel);
  stop_progress (self);
  show_damage (self);
  if (ok)
    {
      if (self->stage + 1 < STAGE_DONE)
        start_stage (self, self->stage + 1);
      else
        {
          self->stage = STAGE_DONE;
          ttv_status_bar_set_background (bar, NULL);
        }
      return TRUE;
    }
  if (cancelled)
    {
      g_autofree char *text = g_strdup_printf (_("Stopped: %s"), stage_missing_text (self->stage));
      ttv_status_bar_set_job (bar, TTV_STATUS_JOB_BACKGROUND, text, -1, _("_Restart"),
                              _("Run the stopped background work again"), restart_clicked, self);
      ttv_status_bar_set_background (bar, NULL);
    }
  else
    {
      g_autofree char *msg = g_strdup_printf ("%s %s", stage_running_text (self->stage),
                                              error ? error->message : "");
      g_autofree char *text = g_strdup_printf (_("Background work failed: %s"),
                                               stage_missing_text (self->stage));
      ttv_tab_notify (self, "background", GTK_MESSAGE_ERROR, msg);
      ttv_status_bar_set_job (bar, TTV_STATUS_JOB_BACKGROUND, text, -1, _("_Restart"),
                              _("Run the failed background work again"), restart_clicked, self);
    }
  return TRUE;
}

static void
index_done (GObject *source, GAsyncResult *result, gpointer data)
{
  TtvTab *self = data;   /* owned reference taken at start */
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvIndexResult) r = ttv_indexer_run_finish (result, &error);

  self->n_passes--;
  if (r && self->state)
    {
      ttv_tab_state_set_density (self->state, r->n_events, g_steal_pointer (&r->density),
                                 g_steal_pointer (&r->type_density), &r->bins);
    }
  stage_ended (self, r != NULL, error);
  g_object_unref (self);
}

static void
state_pass_done (GObject *source, GAsyncResult *result, gpointer data)
{
  TtvTab *self = data;   /* owned reference taken at start */
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvStatePassResult) r = ttv_state_pass_run_finish (result, &error);

  self->n_passes--;
  if (r && self->state)
    ttv_tab_state_set_state_pass (self->state, g_steal_pointer (&r->tracker),
                                  g_steal_pointer (&r->statistics));
  stage_ended (self, r != NULL, error);
  g_object_unref (self);
}

static void
history_pass_done (GObject *source, GAsyncResult *result, gpointer data)
{
  TtvTab *self = data;   /* owned reference taken at start */
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvHistory) h = ttv_history_pass_run_finish (result, &error);
  gboolean ok = h != NULL;

  self->n_passes--;
  if (h && self->state)
    ttv_tab_state_set_history (self->state, g_steal_pointer (&h));
  stage_ended (self, ok, error);
  g_object_unref (self);
}

/* The preference, or 0 (libttv's default) without the settings schema. */
static guint64
checkpoint_interval (void)
{
  GSettings *settings = ttv_settings_get ();

  return settings ? MAX (1000, g_settings_get_uint (settings, "checkpoint-interval")) : 0;
}

static void
start_stage (TtvTab *self, Stage stage)
{
  TtvTraceset *ts = ttv_tab_state_get_traceset (self->state);

  cancel_passes (self);
  g_clear_object (&self->index_cancel);
  self->index_cancel = g_cancellable_new ();
  self->stage = stage;
  g_atomic_int_set (self->index_progress, 0);
  ttv_status_bar_set_job (TTV_STATUS_BAR (self->status_bar), TTV_STATUS_JOB_BACKGROUND,
                          stage_running_text (stage), 0, _("_Cancel"),
                          _("Stop the background work: the event list keeps working; "
                            "Restart runs it again"), cancel_clicked, self);
  ttv_status_bar_set_background (TTV_STATUS_BAR (self->status_bar), NULL);
  if (!self->progress_timeout)
    self->progress_timeout = g_timeout_add (100, progress_tick, self);
  self->n_passes++;
  switch (stage)
    {
    case STAGE_INDEX:
      ttv_indexer_run_async (ts, TTV_INDEXER_DENSITY_BINS, self->index_progress, self->index_cancel,
                             index_done, g_object_ref (self));
      break;
    case STAGE_STATE:
      ttv_state_pass_run_async (ts, checkpoint_interval (), self->index_progress,
                                self->index_cancel, state_pass_done, g_object_ref (self));
      break;
    case STAGE_HISTORY:
    default:
      ttv_history_pass_run_async (ts, ttv_settings_get_history_cache_max (), self->index_progress,
                                  self->index_cancel,
                                  history_pass_done, g_object_ref (self));
      break;
    }
}

gboolean
ttv_tab_is_busy (TtvTab *self)
{
  g_return_val_if_fail (TTV_IS_TAB (self), FALSE);
  return self->index_cancel != NULL;
}

void
ttv_tab_cancel_background (TtvTab *self)
{
  g_return_if_fail (TTV_IS_TAB (self));
  cancel_passes (self);
}

gboolean
ttv_tab_restart_background (TtvTab *self)
{
  g_return_val_if_fail (TTV_IS_TAB (self), FALSE);
  if (self->index_cancel || self->stage == STAGE_DONE)
    return FALSE;
  start_stage (self, self->stage);
  return TRUE;
}

/* --- Changing the traceset ------------------------------------------------------ */

static gboolean
traceset_readers_busy (TtvTab *self)
{
  return self->n_passes > 0 || ttv_tab_analysis_get_n_workers (ttv_tab_state_get_analysis (self->state)) > 0;
}

/* Makes the changes waiting, once the background threads that read the
 * traceset stopped (a cancelled pass stops at its next check): the state
 * drops its reader, each change is made, the passes start again. */
static gboolean
apply_changes (gpointer data)
{
  TtvTab *self = data;
  TtvTraceset *ts;
  TracesetChange *c;
  GQueue done = G_QUEUE_INIT;

  if (!self->state || traceset_readers_busy (self))
    return G_SOURCE_CONTINUE;
  self->change_timeout = 0;
  ts = ttv_traceset_ref (ttv_tab_state_get_traceset (self->state));
  ttv_tab_state_set_traceset (self->state, ts);   /* drops the state's reader */
  while ((c = g_queue_pop_head (&self->changes)) != NULL)
    {
      c->apply (self, c->data);
      g_queue_push_tail (&done, c);
    }
  ttv_tab_state_set_traceset (self->state, ts);
  ttv_traceset_unref (ts);
  start_stage (self, STAGE_INDEX);
  while ((c = g_queue_pop_head (&done)) != NULL)
    {
      if (c->then)
        c->then (self, c->data);
      if (c->free)
        c->free (c->data);
      g_free (c);
    }
  return G_SOURCE_REMOVE;
}

static void
change_traceset (TtvTab *self, void (*apply) (TtvTab *, gpointer), void (*then) (TtvTab *, gpointer),
                 gpointer data, GDestroyNotify free)
{
  TracesetChange *c = g_new0 (TracesetChange, 1);

  *c = (TracesetChange) { apply, then, data, free };
  g_queue_push_tail (&self->changes, c);
  cancel_passes (self);
  if (!traceset_readers_busy (self))
    {
      g_clear_handle_id (&self->change_timeout, g_source_remove);
      apply_changes (self);
    }
  else if (!self->change_timeout)
    self->change_timeout = g_timeout_add (20, apply_changes, self);
}

/* A trace to add: the traceset's once added, closed with the change if the
 * tab goes first. */
typedef struct {
  TtvTrace *trace;
  gboolean added;
} AddedTrace;

static void
added_trace_free (gpointer data)
{
  AddedTrace *a = data;

  if (!a->added)
    ttv_trace_close (a->trace);
  g_free (a);
}

static void
add_trace_apply (TtvTab *self, gpointer data)
{
  AddedTrace *a = data;
  TtvTraceset *ts = ttv_tab_state_get_traceset (self->state);

  ttv_traceset_add_trace (ts, a->trace);
  a->added = TRUE;
  skip_damage (ts);
}

static void
add_trace_then (TtvTab *self, gpointer data)
{
  AddedTrace *a = data;
  TtvTraceset *ts = ttv_tab_state_get_traceset (self->state);

  for (guint t = 0; t < ttv_traceset_get_n_traces (ts); t++)
    if (ttv_traceset_get_trace (ts, t) == a->trace)
      ttv_tab_bookmarks_load (self->bookmarks, t);
}

void
ttv_tab_add_trace (TtvTab *self, TtvTrace *trace)
{
  AddedTrace *a = g_new0 (AddedTrace, 1);

  a->trace = trace;
  change_traceset (self, add_trace_apply, add_trace_then, a, added_trace_free);
}

/* --- Clocks ------------------------------------------------------------------- */

/* The offsets saved with the traces' bookmarks (ttv-report --save-offsets):
 * the views show the times the reports print. */
static void
apply_saved_clocks (TtvTraceset *ts)
{
  for (guint t = 0; t < ttv_traceset_get_n_traces (ts); t++)
    {
      gint64 offset;
      if (ttv_bookmarks_load_clock_offset (ttv_traceset_get_trace (ts, t), &offset, NULL))
        {
          TtvClockCorrection c = { .offset_ns = (double) offset };
          ttv_traceset_set_clock_correction (ts, t, &c);
        }
    }
}

static void
sync_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  GError *error = NULL;
  TtvSyncResult *r = ttv_sync_traceset (data, &error);
  if (r)
    g_task_return_pointer (task, r, (GDestroyNotify) ttv_sync_result_free);
  else
    g_task_return_error (task, error);
}

static void
sync_apply (TtvTab *self, gpointer r)
{
  ttv_sync_result_apply (r, ttv_tab_state_get_traceset (self->state));
}

/* What synchronization found, for each trace. */
static void
sync_then (TtvTab *self, gpointer data)
{
  TtvSyncResult *r = data;
  gboolean failed = FALSE;
  g_autoptr (GString) text = g_string_new (NULL);

  for (guint k = 0; k < r->n_machines; k++)
    failed |= r->machines[k].quality == TTV_SYNC_FAIL;
  ttv_sync_append_text (r, ttv_tab_state_get_traceset (self->state), text);
  g_strchomp (text->str);
  ttv_tab_notify (self, "sync", failed ? GTK_MESSAGE_WARNING : GTK_MESSAGE_INFO, text->str);
}

static void
sync_done (GObject *source, GAsyncResult *result, gpointer data)
{
  TtvTab *self = TTV_TAB (source);
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvSyncResult) r = g_task_propagate_pointer (G_TASK (result), &error);
  if (gtk_widget_in_destruction (GTK_WIDGET (self)))
    return;
  if (r == NULL)
    {
      ttv_tab_notify (self, "sync", GTK_MESSAGE_WARNING, error->message);
      return;
    }
  change_traceset (self, sync_apply, sync_then, g_steal_pointer (&r), (GDestroyNotify) ttv_sync_result_free);
}

typedef struct {
  guint n;
  gint64 offsets_ns[];
} ClockOffsets;

static void
clock_offsets_apply (TtvTab *self, gpointer data)
{
  ClockOffsets *o = data;
  TtvTraceset *ts = ttv_tab_state_get_traceset (self->state);

  for (guint t = 0; t < o->n && t < ttv_traceset_get_n_traces (ts); t++)
    {
      TtvClockCorrection c = { .origin = 0, .offset_ns = (double) o->offsets_ns[t], .drift = 0 };
      ttv_traceset_set_clock_correction (ts, t, o->offsets_ns[t] != 0 ? &c : NULL);
    }
}

/* Kept with each trace's bookmarks, once the traceset has them. */
static void
clock_offsets_then (TtvTab *self, gpointer data)
{
  ClockOffsets *o = data;

  for (guint t = 0; t < o->n && t < ttv_tab_state_get_n_traces (self->state); t++)
    ttv_tab_bookmarks_set_clock_offset (self->bookmarks, t, o->offsets_ns[t] != 0, o->offsets_ns[t]);
}

void
ttv_tab_set_clock_offsets (TtvTab *self, const gint64 *offsets_ns)
{
  g_return_if_fail (TTV_IS_TAB (self));
  guint n = ttv_tab_state_get_n_traces (self->state);
  ClockOffsets *o = g_malloc (sizeof (ClockOffsets) + n * sizeof (gint64));

  o->n = n;
  memcpy (o->offsets_ns, offsets_ns, n * sizeof (gint64));
  change_traceset (self, clock_offsets_apply, clock_offsets_then, o, g_free);
}

void
ttv_tab_synchronize (TtvTab *self)
{
  g_return_if_fail (TTV_IS_TAB (self));
  TtvTraceset *ts = ttv_tab_state_get_traceset (self->state);
  g_autoptr (GTask) task = g_task_new (self, NULL, sync_done, NULL);
  ttv_tab_notify (self, "sync", GTK_MESSAGE_INFO, _("Synchronizing the clocks from the network packets…"));
  g_task_set_task_data (task, ttv_traceset_ref (ts), (GDestroyNotify) ttv_traceset_unref);
  g_task_run_in_thread (task, sync_thread);
}

/* --- Following a live trace ------------------------------------------------- */

#define FOLLOW_INTERVAL_MS 1000

/* A live session that ended, or whose relay failed, sends nothing more:
 * say so (the views keep everything received) and stop following. */
static gboolean
live_session_over (TtvTab *self)
{
  TtvTraceset *ts = ttv_tab_state_get_traceset (self->state);
  const GError *error = NULL;
  g_autofree char *msg = NULL;

  if (!ttv_traceset_is_live (ts))
    return FALSE;
  switch (ttv_traceset_get_live_state (ts, NULL, &error))
    {
    case TTV_LIVE_SOURCE_RUNNING:
      return FALSE;
    case TTV_LIVE_SOURCE_ENDED:
      msg = g_strdup_printf (_("The live session “%s” ended; the views show all of it."),
                             ttv_traceset_get_live_session (ts)->name);
      ttv_tab_notify (self, "follow", GTK_MESSAGE_INFO, msg);
      break;
    case TTV_LIVE_SOURCE_FAILED:
    default:
      msg = g_strdup_printf (_("The live session “%s” stopped: %s. The views show what was received."),
                             ttv_traceset_get_live_session (ts)->name, error ? error->message : "");
      ttv_tab_notify (self, "follow", GTK_MESSAGE_ERROR, msg);
      break;
    }
  self->follow_timeout = 0;
  return TRUE;
}

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
      ttv_tab_notify (self, "follow", GTK_MESSAGE_ERROR, msg);
      self->follow_timeout = 0;
      return G_SOURCE_REMOVE;
    }
  if (changed)
    start_stage (self, STAGE_INDEX);
  return live_session_over (self) ? G_SOURCE_REMOVE : G_SOURCE_CONTINUE;
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
  TracesetChange *c;

  /* Changes still waiting are dropped with the tab. */
  g_clear_handle_id (&self->change_timeout, g_source_remove);
  while ((c = g_queue_pop_head (&self->changes)) != NULL)
    {
      if (c->free)
        c->free (c->data);
      g_free (c);
    }
  ttv_tab_set_following (self, FALSE);
  cancel_passes (self);
  stop_progress (self);
  ttv_tab_state_shutdown (self->state);
}

char *
ttv_tab_dup_title (TtvTab *self)
{
  guint n = ttv_tab_state_get_n_traces (self->state);

  /* A live session is named after itself, whatever traces came yet. */
  if (ttv_traceset_is_live (ttv_tab_state_get_traceset (self->state)))
    return g_strdup (ttv_traceset_get_live_session (ttv_tab_state_get_traceset (self->state))->name);
  if (n == 0)
    return g_strdup (_("(empty)"));
  if (n == 1)
    return g_strdup (ttv_traceset_get_trace (ttv_tab_state_get_traceset (self->state), 0)->name);
  return g_strdup_printf ("%s +%u", ttv_traceset_get_trace (ttv_tab_state_get_traceset (self->state), 0)->name, n - 1);
}

/* --- Construction ---------------------------------------------------------- */

static void
ttv_tab_dispose (GObject *object)
{
  TtvTab *self = TTV_TAB (object);

  if (self->state)
    ttv_tab_shutdown (self);
  g_clear_pointer (&self->bookmarks, ttv_tab_bookmarks_free);
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
ttv_tab_get_property (GObject *object, guint id, GValue *value, GParamSpec *pspec)
{
  TtvTab *self = TTV_TAB (object);

  switch (id)
    {
    case PROP_DAMAGED:
      g_value_set_boolean (value, self->damaged);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, pspec);
    }
}

static void
ttv_tab_class_init (TtvTabClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = ttv_tab_dispose;
  object_class->finalize = ttv_tab_finalize;
  object_class->get_property = ttv_tab_get_property;
  GTK_WIDGET_CLASS (klass)->key_press_event = tab_key_pressed;
  props[PROP_DAMAGED] = g_param_spec_boolean ("damaged", NULL, NULL, FALSE,
                                              G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY
                                              | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, props);
}

static void
ttv_tab_init (TtvTab *self)
{
  self->index_progress = g_atomic_rc_box_new0 (gint);
}

/* The viewers and the bookmarks panel, with the messages floating over
 * them (they never push the event list down). */
static GtkWidget *
build_views (TtvTab *self)
{
  GtkWidget *overlay = gtk_overlay_new ();

  self->paned = gtk_paned_new (GTK_ORIENTATION_HORIZONTAL);
  self->layout = ttv_tab_layout_new (self->state);
  gtk_paned_pack1 (GTK_PANED (self->paned), self->layout, TRUE, FALSE);
  self->bookmarks_panel = ttv_bookmarks_panel_new (self);
  gtk_widget_set_size_request (self->bookmarks_panel, 260, -1);
  gtk_paned_pack2 (GTK_PANED (self->paned), self->bookmarks_panel, FALSE, TRUE);
  gtk_widget_show_all (self->paned);
  gtk_container_add (GTK_CONTAINER (overlay), self->paned);
  self->notifications = ttv_notifications_new ();
  gtk_overlay_add_overlay (GTK_OVERLAY (overlay), self->notifications);
  gtk_widget_show (overlay);
  return overlay;
}

static void
warn_no_viewers (TtvTab *self)
{
  if (ttv_viewer_registry_get_n_viewers () == 0)
    ttv_tab_notify (self, "modules", GTK_MESSAGE_WARNING,
                    _("No viewer module was found: set TTV_MODULE_DIR or reinstall ttv."));
}

static void
show_trace_warnings (TtvTab *self)
{
  for (guint t = 0; t < ttv_tab_state_get_n_traces (self->state); t++)
    {
      TtvTrace *trace = ttv_traceset_get_trace (ttv_tab_state_get_traceset (self->state), t);
      for (guint w = 0; trace->warnings && w < trace->warnings->len; w++)
        {
          g_autofree char *key = g_strdup_printf ("warning-%u-%u", t, w);
          /* Damage is in the damage message (show_damage). */
          if (ttv_trace_warning_loses_events (trace, trace->warnings->pdata[w]))
            continue;
          ttv_tab_notify (self, key, GTK_MESSAGE_WARNING, trace->warnings->pdata[w]);
        }
    }
}

/* The time bar's word on a time just typed: shown over the views, gone
 * once a time in the traceset is typed. */
static void
time_bar_notice (GtkWidget *time_bar, const char *text, TtvTab *self)
{
  if (text)
    ttv_tab_notify (self, "time-bar", GTK_MESSAGE_INFO, text);
  else
    ttv_notifications_withdraw (TTV_NOTIFICATIONS (self->notifications), "time-bar");
}

GtkWidget *
ttv_tab_new (TtvTraceset *traceset)
{
  TtvTab *self = g_object_new (TTV_TYPE_TAB, "orientation", GTK_ORIENTATION_VERTICAL, NULL);

  /* Before any reader exists: damage is skipped and reported, not fatal;
   * saved clock offsets apply. */
  skip_damage (traceset);
  apply_saved_clocks (traceset);
  self->state = ttv_tab_state_new (traceset);
  self->time_bar = ttv_time_bar_new (self->state);
  gtk_box_pack_start (GTK_BOX (self), self->time_bar, FALSE, FALSE, 0);
  self->filter_bar = ttv_filter_bar_new (self->state);
  gtk_box_pack_start (GTK_BOX (self), self->filter_bar, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (self), build_views (self), TRUE, TRUE, 0);
  g_signal_connect (self->time_bar, "notice", G_CALLBACK (time_bar_notice), self);
  gtk_box_pack_start (GTK_BOX (self), gtk_separator_new (GTK_ORIENTATION_HORIZONTAL),
                      FALSE, FALSE, 0);
  self->status_bar = ttv_status_bar_new (self->state);
  gtk_box_pack_start (GTK_BOX (self), self->status_bar, FALSE, FALSE, 0);
  self->bookmarks = ttv_tab_bookmarks_new (GTK_WIDGET (self), self->state,
                                           TTV_NOTIFICATIONS (self->notifications),
                                           TTV_STATUS_BAR (self->status_bar));

  warn_no_viewers (self);
  show_trace_warnings (self);
  show_damage (self);
  ttv_tab_bookmarks_load (self->bookmarks, 0);
  start_stage (self, STAGE_INDEX);
  gtk_widget_show_all (GTK_WIDGET (self));
  if (ttv_settings_get ())
    ttv_tab_set_bookmarks_visible (self, g_settings_get_boolean (ttv_settings_get (),
                                                                 "show-bookmarks-panel"));
  return GTK_WIDGET (self);
}

TtvTabState *
ttv_tab_get_state (TtvTab *self)
{
  g_return_val_if_fail (TTV_IS_TAB (self), NULL);
  return self->state;
}
