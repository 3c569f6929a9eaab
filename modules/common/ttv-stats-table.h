/* ttv-stats-table.h: the statistics viewer's and the analysis views' rows drawn as a table image,
 * PNG (cairo and pango) or SVG (written as text, so that its names and
 * numbers stay searchable and selectable); for export and ttv --render. */
#pragma once

#include <cairo.h>
#include <glib.h>

G_BEGIN_DECLS

#define TTV_STATS_TABLE_MAX_COLUMNS 10

typedef struct {
  guint depth;                   /* 0 for a top-level row */
  gboolean has_children;
  gboolean expanded;
  char *cells[TTV_STATS_TABLE_MAX_COLUMNS];   /* owned, as shown */
} TtvStatsTableRow;

typedef struct {
  char *title;                   /* owned: a line above the table */
  guint n_columns;
  const char *headers[TTV_STATS_TABLE_MAX_COLUMNS];   /* weak */
  gboolean right_aligned[TTV_STATS_TABLE_MAX_COLUMNS];
  GPtrArray *rows;               /* of TtvStatsTableRow *, owned */
} TtvStatsTable;

TtvStatsTable *ttv_stats_table_new (const char *title, guint n_columns);
void        ttv_stats_table_free (TtvStatsTable *table);
/* Appends a row; @cells: n_columns strings, copied. */
void        ttv_stats_table_add_row (TtvStatsTable *table, guint depth, gboolean has_children,
                                     gboolean expanded, const char *const *cells);

/* The size the whole table needs (capped at 32767 pixels each way). */
void        ttv_stats_table_get_natural_size (const TtvStatsTable *table, int *width, int *height);
/* Writes @path: SVG when it ends in .svg, else PNG, of @width x @height
 * pixels (0: the natural size).  A narrower image ellipsizes the names;
 * rows that do not fit end with a line saying how many were left out. */
gboolean    ttv_stats_table_write (const TtvStatsTable *table, const char *path, int width, int height,
                                   GError **error);

/* Draws the table on @cr as ttv_stats_table_write() writes a PNG of
 * @width x @height pixels. */
void        ttv_stats_table_draw (const TtvStatsTable *table, cairo_t *cr, int width, int height);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvStatsTable, ttv_stats_table_free)

G_END_DECLS
