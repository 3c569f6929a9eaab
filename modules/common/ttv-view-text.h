/* ttv-view-text.h: cairo's and GTK's text calls for the views, with text
 * that may come from a trace (process, function, IRQ and file names).
 * cairo refuses a string that is not UTF-8 by putting the whole context
 * in an error state, and GTK then draws nothing more of the window; Pango
 * warns of it on every draw: such bytes are shown as U+FFFD instead. */
#pragma once

#include <gtk/gtk.h>

void ttv_view_show_text (cairo_t *cr, const char *text);
void ttv_view_text_extents (cairo_t *cr, const char *text, cairo_text_extents_t *extents);
void ttv_view_set_tooltip_text (GtkTooltip *tooltip, const char *text);
