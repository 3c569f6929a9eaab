/* ttv-gui-test-util.h: what the in-process GUI tests share: the sample
 * trace, running the main loop until something happened, finding widgets. */
#pragma once

#include "ttv-traceset.h"

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* The sample trace ($TTV_SAMPLE_TRACE) as a traceset, or NULL when absent. */
TtvTraceset *ttv_gui_test_open_sample (void);
/* Runs the main loop until @cond (@data) is true; fails the test after 60 s. */
void        ttv_gui_test_spin_until (gboolean (*cond) (gpointer), gpointer data);
/* Runs the main loop for @ms milliseconds. */
void        ttv_gui_test_spin_for (guint ms);
/* The first descendant of @widget (itself included) of @type, and named
 * @name unless NULL; NULL when there is none. */
GtkWidget  *ttv_gui_test_find_widget (GtkWidget *widget, GType type, const char *name);

G_END_DECLS
