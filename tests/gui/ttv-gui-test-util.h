/* ttv-gui-test-util.h: what the in-process GUI tests share: the sample
 * trace, running the main loop until something happened, finding widgets. */
#pragma once

#include "ttv-tab-state-private.h"
#include "ttv-tab.h"

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* The SDK's handle of a libttv event (the application hands its events to
 * modules so; tests compare what modules show with what libttv reads). */
#define TTV_GUI_TEST_EVENT(ev) ((const TtvViewerEvent *) (ev))

/* The sample trace ($TTV_SAMPLE_TRACE) as a traceset, or NULL when absent. */
TtvTraceset *ttv_gui_test_open_sample (void);
/* This process's environment without DISPLAY and WAYLAND_DISPLAY: what
 * `ttv --render` runs with in the tests, to prove it needs no display.
 * Transfer full. */
GStrv       ttv_gui_test_headless_environ (void);
/* Runs the main loop until @cond (@data) is true; fails the test after 60 s. */
void        ttv_gui_test_spin_until (gboolean (*cond) (gpointer), gpointer data);
/* Runs the main loop for @ms milliseconds. */
void        ttv_gui_test_spin_for (guint ms);
/* Runs the main loop until nothing is pending. */
void        ttv_gui_test_spin_pending (void);
/* Conditions for ttv_gui_test_spin_until on a TtvTabState. */
gboolean    ttv_gui_test_state_ready (gpointer tab_state);
gboolean    ttv_gui_test_no_requests (gpointer tab_state);
/* Whether the tab's state history is built (the control flow's and the
 * resources' rows are all known then). */
gboolean    ttv_gui_test_history_ready (gpointer tab_state);
/* Loads the viewer modules at @paths (NULL-terminated), each once per
 * process; fails the test on error. */
void        ttv_gui_test_load_modules (const char *const *paths);
/* The first descendant of @widget (itself included) of @type, and named
 * @name unless NULL (its widget name, or its id in a .ui file or template;
 * GTK_TYPE_WIDGET: by name only); NULL when none. */
GtkWidget  *ttv_gui_test_find_widget (GtkWidget *widget, GType type, const char *name);
/* The viewer registered as @name shown in @tab's panes, or NULL. */
GtkWidget  *ttv_gui_test_viewer (TtvTab *tab, const char *name);
/* A key press sent to @widget (focused first), then up its parents until
 * one uses it, as GTK sends the focus widget's keys. */
void        ttv_gui_test_send_key (GtkWidget *widget, guint keyval, GdkModifierType state);
/* A button-1 event of @type (press, release, double press) at (@x, @y) of
 * @widget, sent to it. */
void        ttv_gui_test_send_button (GtkWidget *widget, GdkEventType type, double x, double y);
/* The action group @prefix of @widget or of the first widget below it
 * that has one (a viewer's "latency", "controlflow"...), NULL if none. */
GActionGroup *ttv_gui_test_find_actions (GtkWidget *widget, const char *prefix);
/* The first button below @widget whose label is @label. */
GtkWidget  *ttv_gui_test_find_button (GtkWidget *widget, const char *label);

/* A window with a tab on the sample trace. */
typedef struct {
  TtvTraceset *ts;
  GtkWidget *window;
  TtvTab *tab;
  TtvTabState *state;      /* the tab's */
} TtvGuiTestTab;

/* Loads the modules at @module_paths (NULL-terminated), opens the window
 * and waits for the state pass and for every request to be served.  FALSE
 * (the test marked skipped) without the sample trace. */
gboolean    ttv_gui_test_tab_setup (TtvGuiTestTab *f, const char *const *module_paths);
/* The same on the trace at @path (fails the test when it does not open). */
void        ttv_gui_test_tab_setup_path (TtvGuiTestTab *f, const char *path, const char *const *module_paths);
/* The same on @ts (taken: unreferenced at teardown). */
void        ttv_gui_test_tab_open (TtvGuiTestTab *f, TtvTraceset *ts, const char *const *module_paths);
void        ttv_gui_test_tab_teardown (TtvGuiTestTab *f);

/* Every @name (four bytes, NUL-terminated in the trace) in the stream
 * files of the CTF trace at @trace given a byte 0xff for its third: a
 * task name that is not UTF-8, as a comm may hold. */
void        ttv_gui_test_spoil_names (const char *trace, const char *name);
/* The first `@key = "@value"` of the metadata of the CTF trace at @trace
 * (an event type's name, a value of its env) with @value's byte @byte
 * made 0xff: a name that is not UTF-8. */
void        ttv_gui_test_spoil_metadata_value (const char *trace, const char *key, const char *value, gsize byte);

G_END_DECLS
