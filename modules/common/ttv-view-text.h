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

/* @text, or a copy of it made valid UTF-8 into *@copy (to free). */
static inline const char *
ttv_view_valid_text (const char *text, char **copy)
{
  *copy = NULL;
  if (text == NULL || g_utf8_validate (text, -1, NULL))
    return text;
  *copy = g_utf8_make_valid (text, -1);
  return *copy;
}

/* Inline: the table images (ttv-stats-table.c) are built into modules
 * that do not all link the rest. */
static inline void
ttv_view_layout_set_text (PangoLayout *layout, const char *text)
{
  g_autofree char *copy = NULL;
  pango_layout_set_text (layout, ttv_view_valid_text (text, &copy), -1);
}
