/* ttv-notifications.c: a stack of info bars, one per key, shown over a
 * tab's views in an overlay.  Used by the tab (ttv-tab.c). */
#include "ttv-config.h"

#include "ttv-notifications.h"

#define RESPONSE_ACTION 1

struct _TtvNotifications {
  GtkBox parent_instance;
};

G_DEFINE_FINAL_TYPE (TtvNotifications, ttv_notifications, GTK_TYPE_BOX)

typedef struct {
  TtvNotificationFunc func;
  gpointer user_data;
  GDestroyNotify destroy;
} Action;

static void
action_free (Action *a)
{
  if (a->destroy)
    a->destroy (a->user_data);
  g_free (a);
}

static GtkWidget *
find (TtvNotifications *self, const char *key)
{
  g_autoptr (GList) children = gtk_container_get_children (GTK_CONTAINER (self));

  for (GList *l = children; l; l = l->next)
    if (g_strcmp0 (g_object_get_data (l->data, "ttv-key"), key) == 0)
      return l->data;
  return NULL;
}

/* An empty stack is hidden: it would otherwise catch clicks over the views. */
static void
update_visibility (TtvNotifications *self)
{
  g_autoptr (GList) children = gtk_container_get_children (GTK_CONTAINER (self));
  gboolean any = FALSE;

  for (GList *l = children; l; l = l->next)
    any |= !gtk_widget_in_destruction (l->data);
  gtk_widget_set_visible (GTK_WIDGET (self), any);
}

static void
close_bar (TtvNotifications *self, GtkWidget *bar)
{
  gtk_widget_destroy (bar);
  update_visibility (self);
}

static void
bar_response (GtkInfoBar *bar, gint response, TtvNotifications *self)
{
  if (response == RESPONSE_ACTION)
    {
      Action *a = g_object_get_data (G_OBJECT (bar), "ttv-action");

      /* Closed first: the action may show another message under this key. */
      g_object_ref (bar);
      close_bar (self, GTK_WIDGET (bar));
      if (a && a->func)
        a->func (a->user_data);
      g_object_unref (bar);
      return;
    }
  close_bar (self, GTK_WIDGET (bar));
}

GtkWidget *
ttv_notifications_show (TtvNotifications *self, const char *key, GtkMessageType type,
                        const char *text, const char *button_label, TtvNotificationFunc func,
                        gpointer user_data, GDestroyNotify destroy)
{
  GtkWidget *bar, *label, *old;

  g_return_val_if_fail (TTV_IS_NOTIFICATIONS (self) && key != NULL, NULL);
  old = find (self, key);
  if (old)
    gtk_widget_destroy (old);

  bar = gtk_info_bar_new ();
  gtk_info_bar_set_message_type (GTK_INFO_BAR (bar), type);
  gtk_info_bar_set_show_close_button (GTK_INFO_BAR (bar), TRUE);
  /* Messages name files, whose names may hold bytes that are not UTF-8. */
  g_autofree char *valid = g_utf8_make_valid (text, -1);
  label = gtk_label_new (valid);
  gtk_label_set_line_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_container_add (GTK_CONTAINER (gtk_info_bar_get_content_area (GTK_INFO_BAR (bar))), label);
  g_object_set_data_full (G_OBJECT (bar), "ttv-key", g_strdup (key), g_free);
  g_object_set_data (G_OBJECT (bar), "ttv-label", label);
  if (button_label)
    {
      Action *a = g_new0 (Action, 1);

      a->func = func;
      a->user_data = user_data;
      a->destroy = destroy;
      g_object_set_data_full (G_OBJECT (bar), "ttv-action", a, (GDestroyNotify) action_free);
      gtk_info_bar_add_button (GTK_INFO_BAR (bar), button_label, RESPONSE_ACTION);
    }
  else if (destroy)
    destroy (user_data);
  g_signal_connect (bar, "response", G_CALLBACK (bar_response), self);
  gtk_widget_show_all (bar);
  gtk_box_pack_start (GTK_BOX (self), bar, FALSE, FALSE, 0);
  update_visibility (self);
  return bar;
}

void
ttv_notifications_withdraw (TtvNotifications *self, const char *key)
{
  GtkWidget *bar;

  g_return_if_fail (TTV_IS_NOTIFICATIONS (self));
  bar = find (self, key);
  if (bar)
    close_bar (self, bar);
}

const char *
ttv_notifications_get_text (TtvNotifications *self, const char *key)
{
  GtkWidget *bar;

  g_return_val_if_fail (TTV_IS_NOTIFICATIONS (self), NULL);
  bar = find (self, key);
  return bar ? gtk_label_get_text (g_object_get_data (G_OBJECT (bar), "ttv-label")) : NULL;
}

gboolean
ttv_notifications_activate (TtvNotifications *self, const char *key)
{
  GtkWidget *bar;

  g_return_val_if_fail (TTV_IS_NOTIFICATIONS (self), FALSE);
  bar = find (self, key);
  if (!bar || !g_object_get_data (G_OBJECT (bar), "ttv-action"))
    return FALSE;
  gtk_info_bar_response (GTK_INFO_BAR (bar), RESPONSE_ACTION);
  return TRUE;
}

static void
ttv_notifications_class_init (TtvNotificationsClass *klass)
{
}

static void
ttv_notifications_init (TtvNotifications *self)
{
  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_VERTICAL);
  gtk_box_set_spacing (GTK_BOX (self), 4);
  g_object_set (self, "margin", 8, "valign", GTK_ALIGN_END, NULL);
  gtk_widget_set_no_show_all (GTK_WIDGET (self), TRUE);
}

GtkWidget *
ttv_notifications_new (void)
{
  return g_object_new (TTV_TYPE_NOTIFICATIONS, NULL);
}
