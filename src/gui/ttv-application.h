/* ttv-application.h: the GtkApplication org.ttv.Viewer: single instance,
 * opens files from the command line or the desktop, app actions, settings. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define TTV_TYPE_APPLICATION (ttv_application_get_type ())
G_DECLARE_FINAL_TYPE (TtvApplication, ttv_application, TTV, APPLICATION, GtkApplication)

TtvApplication *ttv_application_new (void);
/* Puts @path first in the recent traces list. */
void        ttv_application_add_recent (TtvApplication *self, const char *path);
/* File > Recent: one item per path (app.open-recent), or a greyed "No
 * Recent Traces" when there is none. */
void        ttv_application_fill_recent_menu (GMenu *menu, const char *const *recent);

G_END_DECLS
