/* ttv-stats-table.c: a table image of the statistics (see ttv-stats-table.h).
 * The layout is measured once with pango; then one drawing routine paints
 * it through a painter: cairo for PNG, SVG elements for SVG. */
#include "ttv-stats-table.h"
#include "ttv-view-text.h"
#include "ttv-viewer.h"

#include <cairo.h>
#include <gio/gio.h>
#include <glib/gi18n-lib.h>
#include <pango/pangocairo.h>
#include <string.h>

#define MARGIN 8
#define PAD_X 8
#define PAD_Y 3
#define INDENT 16             /* per level of depth */
#define EXPANDER 14           /* the triangle's room before a name */
#define MIN_NAME_WIDTH 60
#define MAX_SIZE 32767
#define FONT "Sans 10"
#define DPI 96.0

#define COLOR_BACKGROUND 0xffffff
#define COLOR_TEXT 0x000000
#define COLOR_DIM 0x606060
#define COLOR_HEADER 0xe6e6e6
#define COLOR_STRIPE 0xf4f4f4
#define COLOR_RULE 0xc8c8c8

TtvStatsTable *
ttv_stats_table_new (const char *title, guint n_columns)
{
  TtvStatsTable *t = g_new0 (TtvStatsTable, 1);

  g_return_val_if_fail (n_columns > 0 && n_columns <= TTV_STATS_TABLE_MAX_COLUMNS, NULL);
  t->title = g_strdup (title);
  t->n_columns = n_columns;
  t->rows = g_ptr_array_new ();
  return t;
}

static void
row_free (TtvStatsTableRow *row)
{
  for (guint c = 0; c < TTV_STATS_TABLE_MAX_COLUMNS; c++)
    g_free (row->cells[c]);
  g_free (row);
}

void
ttv_stats_table_free (TtvStatsTable *t)
{
  if (!t)
    return;
  g_ptr_array_set_free_func (t->rows, (GDestroyNotify) row_free);
  g_ptr_array_unref (t->rows);
  g_free (t->title);
  g_free (t);
}

void
ttv_stats_table_add_row (TtvStatsTable *t, guint depth, gboolean has_children, gboolean expanded,
                         const char *const *cells)
{
  TtvStatsTableRow *row = g_new0 (TtvStatsTableRow, 1);

  row->depth = depth;
  row->has_children = has_children;
  row->expanded = expanded;
  for (guint c = 0; c < t->n_columns; c++)
    row->cells[c] = g_strdup (cells[c] ? cells[c] : "");
  g_ptr_array_add (t->rows, row);
}

/* --- Layout ------------------------------------------------------------------ */

typedef struct {
  const TtvStatsTable *table;
  PangoContext *context;        /* owned */
  PangoFontDescription *font;   /* owned */
  PangoFontDescription *bold;   /* owned */
  PangoLayout *measure;         /* owned: for text widths */
  int row_h;                    /* every line: title, header, rows */
  int baseline;                 /* of the text, from the top of a line */
  int col_x[TTV_STATS_TABLE_MAX_COLUMNS + 1];
  int width, height;
  guint n_shown;                /* rows drawn */
  guint n_left_out;             /* rows that did not fit */
} Layout;

static int
text_width (const Layout *l, const char *text, gboolean bold)
{
  int w, h;

  pango_layout_set_font_description (l->measure, bold ? l->bold : l->font);
  ttv_view_layout_set_text (l->measure, text);
  pango_layout_get_pixel_size (l->measure, &w, &h);
  return w;
}

static int
name_offset (const TtvStatsTableRow *row)
{
  return (int) row->depth * INDENT + EXPANDER;
}

static char *
left_out_text (guint n)
{
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "… %u more row", "… %u more rows", n), n);
}

static void
layout_clear (Layout *l)
{
  g_clear_object (&l->measure);
  g_clear_object (&l->context);
  g_clear_pointer (&l->font, pango_font_description_free);
  g_clear_pointer (&l->bold, pango_font_description_free);
}

/* Natural column widths, then fitted to @width x @height (0: natural). */
static void
layout_init (Layout *l, const TtvStatsTable *t, int width, int height)
{
  int col_w[TTV_STATS_TABLE_MAX_COLUMNS] = { 0 };
  int table_w = 2 * MARGIN, natural_w, fixed_h, fit;
  PangoRectangle ink, logical;

  memset (l, 0, sizeof *l);
  l->table = t;
  l->context = pango_font_map_create_context (pango_cairo_font_map_get_default ());
  pango_cairo_context_set_resolution (l->context, DPI);
  l->font = pango_font_description_from_string (FONT);
  l->bold = pango_font_description_copy (l->font);
  pango_font_description_set_weight (l->bold, PANGO_WEIGHT_BOLD);
  l->measure = pango_layout_new (l->context);
  pango_layout_set_font_description (l->measure, l->font);
  pango_layout_set_text (l->measure, "Ag", -1);
  pango_layout_get_pixel_extents (l->measure, &ink, &logical);
  l->row_h = logical.height + 2 * PAD_Y;
  l->baseline = PAD_Y + pango_layout_get_baseline (l->measure) / PANGO_SCALE;

  /* With a height, only the rows that fit are measured (a table of
   * thousands of rows drawn in a few dozen lines costs those lines). */
  guint measured = t->rows->len;
  if (height > 0)
    measured = MIN (measured, (guint) (MAX (height - 2 * MARGIN - 2 * l->row_h, 0) / l->row_h));
  for (guint c = 0; c < t->n_columns; c++)
    col_w[c] = text_width (l, t->headers[c] ? t->headers[c] : "", TRUE) + 2 * PAD_X;
  for (guint r = 0; r < measured; r++)
    {
      const TtvStatsTableRow *row = t->rows->pdata[r];

      for (guint c = 0; c < t->n_columns; c++)
        col_w[c] = MAX (col_w[c], text_width (l, row->cells[c], FALSE) + 2 * PAD_X
                                  + (c == 0 ? name_offset (row) : 0));
    }
  for (guint c = 0; c < t->n_columns; c++)
    table_w += col_w[c];
  natural_w = MAX (table_w, text_width (l, t->title ? t->title : "", TRUE) + 2 * MARGIN);
  fixed_h = 2 * MARGIN + 2 * l->row_h;   /* title and header */

  l->width = width > 0 ? width : MIN (natural_w, MAX_SIZE);
  l->height = height > 0 ? height : MIN (fixed_h + (int) t->rows->len * l->row_h, MAX_SIZE);
  /* The name column takes what is left (the table spans the image), or
   * gives up what is missing. */
  col_w[0] = MAX (col_w[0] + l->width - table_w, MIN_NAME_WIDTH);
  l->col_x[0] = MARGIN;
  for (guint c = 0; c < t->n_columns; c++)
    l->col_x[c + 1] = l->col_x[c] + col_w[c];

  fit = MAX (l->height - fixed_h, 0) / l->row_h;
  if ((guint) fit >= t->rows->len)
    l->n_shown = t->rows->len;
  else
    {
      l->n_shown = fit > 0 ? (guint) fit - 1 : 0;
      l->n_left_out = t->rows->len - l->n_shown;
    }
}

/* --- Drawing through a painter --------------------------------------------- */

typedef struct {
  void (*rect) (gpointer target, double x, double y, double w, double h, guint32 rgb);
  void (*triangle) (gpointer target, double x, double y, double size, gboolean down, guint32 rgb);
  /* @x: the left edge, or the right one when @right; @clip: the column's
   * right edge, text past it is cut (0: none). */
  void (*text) (gpointer target, const Layout *l, double x, double top, const char *text,
                gboolean right, gboolean bold, guint32 rgb, double clip);
} Painter;

static void
draw_cell (const Painter *p, gpointer target, const Layout *l, guint c, double top, const char *text,
           gboolean bold, double indent, guint32 rgb)
{
  gboolean right = l->table->right_aligned[c];
  double x = right ? l->col_x[c + 1] - PAD_X : l->col_x[c] + PAD_X + indent;

  p->text (target, l, x, top, text, right, bold, rgb, right ? 0 : l->col_x[c + 1] - PAD_X / 2);
}

static void
draw_table (const Layout *l, const Painter *p, gpointer target)
{
  const TtvStatsTable *t = l->table;
  double y = MARGIN;
  double right = l->col_x[t->n_columns];

  p->rect (target, 0, 0, l->width, l->height, COLOR_BACKGROUND);
  p->text (target, l, MARGIN, y, t->title ? t->title : "", FALSE, TRUE, COLOR_TEXT, l->width - MARGIN);
  y += l->row_h;

  p->rect (target, MARGIN, y, right - MARGIN, l->row_h, COLOR_HEADER);
  for (guint c = 0; c < t->n_columns; c++)
    {
      draw_cell (p, target, l, c, y, t->headers[c] ? t->headers[c] : "", TRUE, 0, COLOR_TEXT);
      if (c > 0)
        p->rect (target, l->col_x[c], y, 1, l->row_h, COLOR_RULE);
    }
  y += l->row_h;

  for (guint r = 0; r < l->n_shown; r++, y += l->row_h)
    {
      const TtvStatsTableRow *row = t->rows->pdata[r];

      if (r % 2 == 1)
        p->rect (target, MARGIN, y, right - MARGIN, l->row_h, COLOR_STRIPE);
      if (row->has_children)
        p->triangle (target, l->col_x[0] + PAD_X + row->depth * INDENT, y + (l->row_h - 8) / 2.0, 8,
                     row->expanded, COLOR_DIM);
      for (guint c = 0; c < t->n_columns; c++)
        draw_cell (p, target, l, c, y, row->cells[c], FALSE, c == 0 ? name_offset (row) : 0, COLOR_TEXT);
    }
  if (l->n_left_out)
    {
      g_autofree char *more = left_out_text (l->n_left_out);

      draw_cell (p, target, l, 0, y, more, FALSE, 0, COLOR_DIM);
      y += l->row_h;
    }
  p->rect (target, MARGIN, MIN (y, l->height - 1), right - MARGIN, 1, COLOR_RULE);
}

/* --- cairo ---------------------------------------------------------------------- */

typedef struct {
  cairo_t *cr;
  PangoLayout *layout;          /* one for every text */
} CairoTarget;

static void
set_color (cairo_t *cr, guint32 rgb)
{
  cairo_set_source_rgb (cr, ((rgb >> 16) & 0xff) / 255.0, ((rgb >> 8) & 0xff) / 255.0, (rgb & 0xff) / 255.0);
}

static void
cairo_rect (gpointer target, double x, double y, double w, double h, guint32 rgb)
{
  cairo_t *cr = ((CairoTarget *) target)->cr;

  set_color (cr, rgb);
  cairo_rectangle (cr, x, y, w, h);
  cairo_fill (cr);
}

static void
cairo_triangle (gpointer target, double x, double y, double size, gboolean down, guint32 rgb)
{
  cairo_t *cr = ((CairoTarget *) target)->cr;

  set_color (cr, rgb);
  if (down)
    {
      cairo_move_to (cr, x, y + size * 0.2);
      cairo_line_to (cr, x + size, y + size * 0.2);
      cairo_line_to (cr, x + size / 2, y + size * 0.9);
    }
  else
    {
      cairo_move_to (cr, x + size * 0.2, y);
      cairo_line_to (cr, x + size * 0.9, y + size / 2);
      cairo_line_to (cr, x + size * 0.2, y + size);
    }
  cairo_close_path (cr);
  cairo_fill (cr);
}

static void
cairo_text (gpointer target, const Layout *l, double x, double top, const char *text, gboolean right,
            gboolean bold, guint32 rgb, double clip)
{
  cairo_t *cr = ((CairoTarget *) target)->cr;
  PangoLayout *layout = ((CairoTarget *) target)->layout;
  int w, h;

  pango_layout_set_font_description (layout, bold ? l->bold : l->font);
  ttv_view_layout_set_text (layout, text);
  pango_layout_set_width (layout, clip > x ? (int) ((clip - x) * PANGO_SCALE) : -1);
  pango_layout_get_pixel_size (layout, &w, &h);
  set_color (cr, rgb);
  cairo_move_to (cr, right ? x - w : x, top + PAD_Y);
  pango_cairo_show_layout (cr, layout);
}

static const Painter cairo_painter = { cairo_rect, cairo_triangle, cairo_text };

static void
draw_png (gpointer data, cairo_t *cr, int width, int height)
{
  const Layout *l = data;
  CairoTarget target = { cr, pango_cairo_create_layout (cr) };

  pango_cairo_context_set_resolution (pango_layout_get_context (target.layout), DPI);
  pango_layout_context_changed (target.layout);
  pango_layout_set_ellipsize (target.layout, PANGO_ELLIPSIZE_END);
  draw_table (l, &cairo_painter, &target);
  g_object_unref (target.layout);
}

/* cairo's SVG surface turns text into glyph outlines: SVG is written by
 * hand below, the shared export draws PNG only. */
static gboolean
write_png (const Layout *l, const char *path, GError **error)
{
  return ttv_viewer_write_image (path, l->width, l->height, draw_png, (gpointer) l, error);
}

void
ttv_stats_table_draw (const TtvStatsTable *t, cairo_t *cr, int width, int height)
{
  Layout l;

  layout_init (&l, t, width, height);
  draw_png (&l, cr, l.width, l.height);
  layout_clear (&l);
}

/* --- SVG ------------------------------------------------------------------------ */

static void
svg_rect (gpointer target, double x, double y, double w, double h, guint32 rgb)
{
  g_string_append_printf (target, "<rect x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\" fill=\"#%06x\"/>\n",
                          x, y, w, h, rgb);
}

static void
svg_triangle (gpointer target, double x, double y, double size, gboolean down, guint32 rgb)
{
  if (down)
    g_string_append_printf (target, "<path d=\"M%g %gH%gL%g %gZ\" fill=\"#%06x\"/>\n", x, y + size * 0.2,
                            x + size, x + size / 2, y + size * 0.9, rgb);
  else
    g_string_append_printf (target, "<path d=\"M%g %gL%g %gL%g %gZ\" fill=\"#%06x\"/>\n", x + size * 0.2, y,
                            x + size * 0.9, y + size / 2, x + size * 0.2, y + size, rgb);
}

static void
svg_text (gpointer target, const Layout *l, double x, double top, const char *text, gboolean right,
          gboolean bold, guint32 rgb, double clip)
{
  GString *out = target;
  g_autofree char *valid = NULL;
  g_autofree char *escaped = g_markup_escape_text (ttv_view_valid_text (text, &valid), -1);

  if (!*text)
    return;
  g_string_append_printf (out, "<text x=\"%g\" y=\"%g\"", x, top + l->baseline);
  if (right)
    g_string_append (out, " text-anchor=\"end\"");
  if (bold)
    g_string_append (out, " font-weight=\"bold\"");
  if (rgb != COLOR_TEXT)
    g_string_append_printf (out, " fill=\"#%06x\"", rgb);
  /* Names past their column are cut there (the viewer's font may differ). */
  if (clip > x)
    g_string_append_printf (out, " clip-path=\"url(#clip%d)\"", (int) clip);
  g_string_append_printf (out, ">%s</text>\n", escaped);
}

static const Painter svg_painter = { svg_rect, svg_triangle, svg_text };

static gboolean
write_svg (const Layout *l, const char *path, GError **error)
{
  g_autoptr (GString) out = g_string_new ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
  double px = pango_font_description_get_size (l->font) / (double) PANGO_SCALE * DPI / 72.0;
  g_autoptr (GArray) clips = g_array_new (FALSE, FALSE, sizeof (int));
  int title_clip = l->width - MARGIN;

  /* The clip paths svg_text() names by their right edge: one per
   * left-aligned column and one for the title. */
  g_array_append_val (clips, title_clip);
  for (guint c = 0; c < l->table->n_columns; c++)
    if (!l->table->right_aligned[c])
      {
        int edge = l->col_x[c + 1] - PAD_X / 2;
        gboolean seen = FALSE;

        for (guint i = 0; i < clips->len; i++)
          seen |= g_array_index (clips, int, i) == edge;
        if (!seen)
          g_array_append_val (clips, edge);
      }

  g_string_append_printf (out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                          "viewBox=\"0 0 %d %d\" font-family=\"%s, sans-serif\" font-size=\"%.2fpx\">\n",
                          l->width, l->height, l->width, l->height,
                          pango_font_description_get_family (l->font), px);
  if (l->table->title)
    {
      g_autofree char *valid = NULL;
      g_autofree char *title = g_markup_escape_text (ttv_view_valid_text (l->table->title, &valid), -1);
      g_string_append_printf (out, "<title>%s</title>\n", title);
    }
  g_string_append (out, "<defs>\n");
  for (guint i = 0; i < clips->len; i++)
    g_string_append_printf (out, "<clipPath id=\"clip%d\"><rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\"/>"
                            "</clipPath>\n", g_array_index (clips, int, i), g_array_index (clips, int, i), l->height);
  g_string_append (out, "</defs>\n");
  draw_table (l, &svg_painter, out);
  g_string_append (out, "</svg>\n");
  return g_file_set_contents (path, out->str, (gssize) out->len, error);
}

/* --- Entry points --------------------------------------------------------------- */

void
ttv_stats_table_get_natural_size (const TtvStatsTable *t, int *width, int *height)
{
  Layout l;

  layout_init (&l, t, 0, 0);
  *width = l.width;
  *height = l.height;
  layout_clear (&l);
}

gboolean
ttv_stats_table_write (const TtvStatsTable *t, const char *path, int width, int height, GError **error)
{
  gboolean svg = g_str_has_suffix (path, ".svg") || g_str_has_suffix (path, ".SVG");
  Layout l;
  gboolean ok;

  if (width < 0 || height < 0 || width > MAX_SIZE || height > MAX_SIZE)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("Cannot draw %dx%d: the size must be from 1x1 to 32767x32767"), width, height);
      return FALSE;
    }
  layout_init (&l, t, width, height);
  ok = svg ? write_svg (&l, path, error) : write_png (&l, path, error);
  layout_clear (&l);
  return ok;
}
