/* ttv-window.h: the main window: menus and toolbar actions, tabs, opening
 * traces in the background and reporting what went wrong. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define TTV_TYPE_WINDOW (ttv_window_get_type ())
G_DECLARE_FINAL_TYPE (TtvWindow, ttv_window, TTV, WINDOW, GtkApplicationWindow)

GtkWidget  *ttv_window_new (GtkApplication *app);
/* Opens each path (a trace directory or archive) in a new tab, or, with
 * @add_to_current, adds them to the current tab's traceset.  Runs in a
 * worker thread; failures show a dialog naming the path and the problem. */
void        ttv_window_open (TtvWindow *self, const char *const *paths, gboolean add_to_current);
/* The current tab, or NULL. */
GtkWidget  *ttv_window_get_current_tab (TtvWindow *self);
guint       ttv_window_get_n_tabs (TtvWindow *self);
/* Asks for trace folders (@folder) or archives to open in new tabs. */
void        ttv_window_choose (TtvWindow *self, gboolean folder);
/* Follows the live session at @url (net://RELAY[:PORT]/host/HOSTNAME/SESSION)
 * in a new tab, attaching in a worker thread (ttv_window_open sends live
 * URLs here too). */
void        ttv_window_open_live (TtvWindow *self, const char *url);
/* File > Open Live Session: the dialog (returned, for tests) that lists a
 * relay's sessions and opens the chosen one. */
GtkWidget  *ttv_window_choose_live (TtvWindow *self);

/* Whether an open started by ttv_window_open is still under way (also
 * while a cancelled one winds down); cancel it as the Cancel button does. */
gboolean    ttv_window_is_opening (TtvWindow *self);
void        ttv_window_cancel_open (TtvWindow *self);
/* How far the extraction of the archive being opened is, 0 to 1 (0 when
 * none is under way). */
double      ttv_window_get_open_fraction (TtvWindow *self);

G_END_DECLS
