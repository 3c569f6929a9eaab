/* ttv-live-dialog.c: the Open Live Session dialog: the relay's address, its
 * sessions listed by a worker thread (GTask), the chosen session's URL. */
#include "ttv-config.h"

#include "ttv-live-dialog.h"

#include "ttv-live-source.h"

#include <glib/gi18n.h>

enum { COL_NAME, COL_HOST, COL_STREAMS, COL_VIEWERS, COL_FORMAT, COL_TIMER, COL_URL };

struct _TtvLiveDialog {
  GtkDialog parent_instance;

  GtkEntry *relay_entry;
  GtkButton *list_button;
  GtkButton *open_button;
  GtkSpinner *spinner;
  GtkLabel *status_label;
  GtkTreeView *sessions_view;
  GtkListStore *sessions_store;
  GCancellable *listing;        /* owned, NULL when no listing runs */
};

G_DEFINE_FINAL_TYPE (TtvLiveDialog, ttv_live_dialog, GTK_TYPE_DIALOG)

/* "host", "host:port", "[address]:port" or a whole net:// URL. */
static TtvLiveUrl *
parse_relay (const char *text, GError **error)
{
  g_autofree char *stripped = g_strstrip (g_strdup (text));
  g_autofree char *url = NULL;

  if (stripped[0] == '\0')
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           _("Type the address of the relay: host or host:port."));
      return NULL;
    }
  url = ttv_live_url_is_live (stripped) ? g_strdup (stripped) : g_strconcat ("net://", stripped, NULL);
  return ttv_live_url_parse (url, error);
}

static void
list_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  GError *error = NULL;
  GPtrArray *sessions = ttv_live_list_sessions (data, cancellable, NULL, &error);

  if (sessions)
    g_task_return_pointer (task, sessions, (GDestroyNotify) g_ptr_array_unref);
  else
    g_task_return_error (task, error);
}

static void
set_status (TtvLiveDialog *self, const char *text)
{
  gtk_label_set_text (self->status_label, text);
}

static void
set_listing (TtvLiveDialog *self, gboolean listing)
{
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), listing);
  if (listing)
    gtk_spinner_start (self->spinner);
  else
    gtk_spinner_stop (self->spinner);
  gtk_widget_set_sensitive (GTK_WIDGET (self->list_button), !listing);
}

static char *
timer_text (guint32 us)
{
  return g_strdup_printf ("%g s", us / 1e6);
}

static void
fill_sessions (TtvLiveDialog *self, const TtvLiveUrl *relay, GPtrArray *sessions)
{
  g_autofree char *where = ttv_live_url_dup_relay (relay);
  GtkTreeIter iter;

  gtk_list_store_clear (self->sessions_store);
  for (guint i = 0; i < sessions->len; i++)
    {
      const TtvLiveSessionInfo *s = sessions->pdata[i];
      g_autofree char *url = ttv_live_url_build (relay->relay_host, relay->port, s->hostname, s->name);
      g_autofree char *timer = timer_text (s->live_timer_us);

      gtk_list_store_insert_with_values (self->sessions_store, &iter, -1, COL_NAME, s->name, COL_HOST, s->hostname,
                                         COL_STREAMS, s->streams, COL_VIEWERS, s->clients, COL_FORMAT,
                                         s->trace_format == TTV_LIVE_TRACE_FORMAT_CTF_2 ? "CTF 2" : "CTF 1.8",
                                         COL_TIMER, timer, COL_URL, url, -1);
    }
  if (sessions->len == 0)
    {
      g_autofree char *text = g_strdup_printf (_("The relay %s serves no live session."), where);
      set_status (self, text);
      return;
    }
  {
    g_autofree char *text = g_strdup_printf (ngettext ("The relay %s serves %u live session.",
                                                       "The relay %s serves %u live sessions.", sessions->len),
                                             where, sessions->len);
    set_status (self, text);
  }
  /* One session: it is the one to open. */
  if (sessions->len == 1 && gtk_tree_model_get_iter_first (GTK_TREE_MODEL (self->sessions_store), &iter))
    {
      gtk_tree_selection_select_iter (gtk_tree_view_get_selection (self->sessions_view), &iter);
      gtk_widget_grab_focus (GTK_WIDGET (self->open_button));
    }
}

static void
list_done (GObject *source, GAsyncResult *result, gpointer data)
{
  TtvLiveDialog *self = TTV_LIVE_DIALOG (source);
  const TtvLiveUrl *relay = g_task_get_task_data (G_TASK (result));
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) sessions = g_task_propagate_pointer (G_TASK (result), &error);

  /* Closed meanwhile: its cancellable was cancelled, its widgets are gone. */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  g_clear_object (&self->listing);
  set_listing (self, FALSE);
  if (sessions)
    fill_sessions (self, relay, sessions);
  else
    set_status (self, error->message);
}

void
ttv_live_dialog_list (TtvLiveDialog *self)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GTask) task = NULL;
  TtvLiveUrl *relay;

  g_return_if_fail (TTV_IS_LIVE_DIALOG (self));
  if (self->listing)
    return;
  gtk_list_store_clear (self->sessions_store);
  relay = parse_relay (gtk_entry_get_text (self->relay_entry), &error);
  if (relay == NULL)
    {
      set_status (self, error->message);
      return;
    }
  {
    g_autofree char *where = ttv_live_url_dup_relay (relay);
    g_autofree char *text = g_strdup_printf (_("Asking %s for its sessions…"), where);
    set_status (self, text);
  }
  set_listing (self, TRUE);
  self->listing = g_cancellable_new ();
  task = g_task_new (self, self->listing, list_done, NULL);
  g_task_set_task_data (task, relay, (GDestroyNotify) ttv_live_url_free);
  g_task_run_in_thread (task, list_thread);
}

static void
list_clicked (TtvLiveDialog *self)
{
  ttv_live_dialog_list (self);
}

static void
selection_changed (TtvLiveDialog *self)
{
  gboolean any = gtk_tree_selection_get_selected (gtk_tree_view_get_selection (self->sessions_view), NULL, NULL);

  gtk_widget_set_sensitive (GTK_WIDGET (self->open_button), any);
}

static void
row_activated (TtvLiveDialog *self)
{
  gtk_dialog_response (GTK_DIALOG (self), GTK_RESPONSE_ACCEPT);
}

static void
ttv_live_dialog_dispose (GObject *object)
{
  TtvLiveDialog *self = TTV_LIVE_DIALOG (object);

  if (self->listing)
    g_cancellable_cancel (self->listing);
  g_clear_object (&self->listing);
  G_OBJECT_CLASS (ttv_live_dialog_parent_class)->dispose (object);
}

static void
ttv_live_dialog_class_init (TtvLiveDialogClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = ttv_live_dialog_dispose;
  gtk_widget_class_set_template_from_resource (widget_class, "/org/ttv/Viewer/ttv-live-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, TtvLiveDialog, relay_entry);
  gtk_widget_class_bind_template_child (widget_class, TtvLiveDialog, list_button);
  gtk_widget_class_bind_template_child (widget_class, TtvLiveDialog, open_button);
  gtk_widget_class_bind_template_child (widget_class, TtvLiveDialog, spinner);
  gtk_widget_class_bind_template_child (widget_class, TtvLiveDialog, status_label);
  gtk_widget_class_bind_template_child (widget_class, TtvLiveDialog, sessions_view);
  gtk_widget_class_bind_template_child (widget_class, TtvLiveDialog, sessions_store);
  gtk_widget_class_bind_template_callback (widget_class, list_clicked);
  gtk_widget_class_bind_template_callback (widget_class, selection_changed);
  gtk_widget_class_bind_template_callback (widget_class, row_activated);
}

static void
ttv_live_dialog_init (TtvLiveDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
ttv_live_dialog_new (GtkWindow *parent, const char *relay)
{
  TtvLiveDialog *self = g_object_new (TTV_TYPE_LIVE_DIALOG, "transient-for", parent, NULL);

  if (relay)
    gtk_entry_set_text (self->relay_entry, relay);
  return GTK_WIDGET (self);
}

const char *
ttv_live_dialog_get_relay (TtvLiveDialog *self)
{
  g_return_val_if_fail (TTV_IS_LIVE_DIALOG (self), NULL);
  return gtk_entry_get_text (self->relay_entry);
}

char *
ttv_live_dialog_dup_url (TtvLiveDialog *self)
{
  GtkTreeModel *model;
  GtkTreeIter iter;
  char *url = NULL;

  g_return_val_if_fail (TTV_IS_LIVE_DIALOG (self), NULL);
  if (gtk_tree_selection_get_selected (gtk_tree_view_get_selection (self->sessions_view), &model, &iter))
    gtk_tree_model_get (model, &iter, COL_URL, &url, -1);
  return url;
}

gboolean
ttv_live_dialog_is_listing (TtvLiveDialog *self)
{
  g_return_val_if_fail (TTV_IS_LIVE_DIALOG (self), FALSE);
  return self->listing != NULL;
}

const char *
ttv_live_dialog_get_status (TtvLiveDialog *self)
{
  g_return_val_if_fail (TTV_IS_LIVE_DIALOG (self), NULL);
  return gtk_label_get_text (self->status_label);
}
