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
/* File > Recent: one item per entry (app.open-recent), or a greyed "No
 * Recent Traces" when there is none. */
void        ttv_application_fill_recent_menu (GMenu *menu, const char *const *recent);

/* The recent traces are kept as text (GSettings strings, action targets):
 * a path as it is when it is UTF-8, else as a file URI, whose escapes
 * keep any byte.  An entry of @path; NULL when neither can be made. */
char       *ttv_recent_entry_from_path (const char *path);
/* The path (or live URL) an entry names. */
char       *ttv_recent_entry_to_path (const char *entry);
/* An entry's path as a user reads it. */
char       *ttv_recent_entry_display_name (const char *entry);

G_END_DECLS
