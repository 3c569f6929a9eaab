/* ttv-view-text.c: cairo's and GTK's text calls with any bytes (see
 * ttv-view-text.h). */
#include "ttv-view-text.h"

#include <glib.h>

void
ttv_view_show_text (cairo_t *cr, const char *text)
{
  g_autofree char *copy = NULL;
  cairo_show_text (cr, ttv_view_valid_text (text, &copy));
}

void
ttv_view_text_extents (cairo_t *cr, const char *text, cairo_text_extents_t *extents)
{
  g_autofree char *copy = NULL;
  cairo_text_extents (cr, ttv_view_valid_text (text, &copy), extents);
}

void
ttv_view_set_tooltip_text (GtkTooltip *tooltip, const char *text)
{
  g_autofree char *copy = NULL;
  gtk_tooltip_set_text (tooltip, ttv_view_valid_text (text, &copy));
}
