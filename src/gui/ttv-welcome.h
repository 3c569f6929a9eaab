/* ttv-welcome.h: what the window shows while it has no tab: Open buttons
 * and the recent traces to click.  Used by the window. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define TTV_TYPE_WELCOME (ttv_welcome_get_type ())
G_DECLARE_FINAL_TYPE (TtvWelcome, ttv_welcome, TTV, WELCOME, GtkBox)

GtkWidget  *ttv_welcome_new (void);
/* The recent traces listed (for tests). */
guint       ttv_welcome_get_n_recent (TtvWelcome *self);

G_END_DECLS
