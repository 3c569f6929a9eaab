/* ttv-notifications.h: the messages a tab shows over its views (damaged
 * data, a read-only trace, "Bookmark deleted — Undo"), stacked in an
 * overlay so that they never push the event list down.  Used by the tab. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define TTV_TYPE_NOTIFICATIONS (ttv_notifications_get_type ())
G_DECLARE_FINAL_TYPE (TtvNotifications, ttv_notifications, TTV, NOTIFICATIONS, GtkBox)

typedef void (*TtvNotificationFunc) (gpointer user_data);

GtkWidget  *ttv_notifications_new (void);
/* Shows @text (selectable: paths and offsets can be copied) under @key,
 * replacing what was shown under the same key.  With @button_label, a
 * button that calls @func (@user_data) and closes the message; @destroy
 * frees @user_data when the message goes.  Every message has a close
 * button.  Returns the message's GtkInfoBar (borrowed). */
GtkWidget  *ttv_notifications_show (TtvNotifications *self, const char *key, GtkMessageType type,
                                    const char *text, const char *button_label,
                                    TtvNotificationFunc func, gpointer user_data,
                                    GDestroyNotify destroy);
/* Closes the message shown under @key, if any. */
void        ttv_notifications_withdraw (TtvNotifications *self, const char *key);
/* The text shown under @key, or NULL (for tests). */
const char *ttv_notifications_get_text (TtvNotifications *self, const char *key);
/* Presses the button of the message under @key (as a click would); FALSE
 * when there is none.  For tests and keyboard users. */
gboolean    ttv_notifications_activate (TtvNotifications *self, const char *key);

G_END_DECLS
