/* ttv-time-gap-marks.c: the mark of a compressed idle gap of a time scale
 * (see ttv_viewer_draw_time_gaps() in sdk/ttv-viewer-widget.h), drawn by
 * the time bar and by every time view alike. */
#include "ttv-viewer.h"

#include <glib/gi18n-lib.h>

/* "2314 d" for long gaps, as every duration below two days. */
static char *
gap_label (TtvTime length)
{
  const TtvTime day = (TtvTime) 86400 * 1000000000;

  if (length >= 2 * day)
    return g_strdup_printf (_("%.0f d idle"), (double) length / (double) day);
  g_autofree char *d = ttv_viewer_format_duration (length);
  return g_strdup_printf (_("%s idle"), d);
}

/* A zigzag line down the band at @x: the mark of broken time. */
static void
zigzag (cairo_t *cr, double x, double y, double height)
{
  gboolean left = TRUE;

  cairo_move_to (cr, x, y);
  for (double yy = y + 4; yy < y + height; yy += 4, left = !left)
    cairo_line_to (cr, x + (left ? -2 : 2), yy);
  cairo_line_to (cr, x, y + height);
  cairo_stroke (cr);
}

void
ttv_viewer_draw_time_gaps (cairo_t *cr, const TtvTimeScale *scale, double y, double height)
{
  cairo_save (cr);
  cairo_set_line_width (cr, 1);
  cairo_set_font_size (cr, 9);
  for (guint i = 0; i < scale->n_pieces; i++)
    {
      const TtvTimeScalePiece *p = &scale->pieces[i];
      double w = p->x1 - p->x0;

      if (!p->gap)
        continue;
      cairo_set_source_rgb (cr, 0.90, 0.90, 0.92);
      cairo_rectangle (cr, p->x0, y, w, height);
      cairo_fill (cr);
      cairo_set_source_rgb (cr, 0.45, 0.45, 0.50);
      zigzag (cr, p->x0 + 2.5, y, height);
      zigzag (cr, p->x1 - 2.5, y, height);
      /* The idle time, written down the band when it fits. */
      g_autofree char *text = gap_label (p->t1 - p->t0);
      cairo_text_extents_t ext;

      cairo_text_extents (cr, text, &ext);
      if (w >= 12 && ext.x_advance + 8 <= height)
        {
          cairo_save (cr);
          cairo_set_source_rgb (cr, 0.25, 0.25, 0.30);
          cairo_move_to (cr, p->x0 + w / 2 + 3, y + height / 2 + ext.x_advance / 2);
          cairo_rotate (cr, -G_PI / 2);
          cairo_show_text (cr, text);
          cairo_restore (cr);
        }
    }
  cairo_restore (cr);
}
