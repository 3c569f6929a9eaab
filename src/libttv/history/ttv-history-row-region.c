/* ttv-history-row-region.c: the region after a row's records (its
 * directories, summary levels and bins), planned and placed the same way
 * by the builder's tail and by the coder (ttv-history-private.h). */
#include "ttv-history-private.h"

#include <string.h>

void
ttv_history_row_region_plan (TtvHistoryRowRegion *g, const TtvHistorySeq *recs, guint64 n_marks,
                             gint64 origin, gint64 end)
{
  memset (g, 0, sizeof *g);
  g->dir_bytes = ttv_history_n_pieces (recs->n_blocks) * sizeof (TtvHistoryBlock);
  g->mark_dir_bytes = ttv_history_n_pieces (ttv_history_n_blocks (n_marks)) * sizeof (TtvHistoryBlock);
  g->n_levels = ttv_history_summary_plan (recs, origin, end, g->levels);
  gsize bins_at = ttv_history_row_region_levels_at (g) + g->n_levels * sizeof (TtvHistoryLevel);
  g->bins_bytes = ttv_history_summary_layout (g->levels, g->n_levels, bins_at);
  g->size = bins_at + g->bins_bytes;
}

gsize
ttv_history_row_region_levels_at (const TtvHistoryRowRegion *g)
{
  return g->dir_bytes + g->mark_dir_bytes;
}

void
ttv_history_row_region_place (TtvHistoryRowRegion *g, guint64 at, TtvHistoryRow *row)
{
  row->recs_dir_offset = at;
  row->marks_dir_offset = at + g->dir_bytes;
  row->levels_offset = at + ttv_history_row_region_levels_at (g);
  row->n_levels = g->n_levels;
  ttv_history_summary_layout (g->levels, g->n_levels,
                              row->levels_offset + g->n_levels * sizeof (TtvHistoryLevel));
}

void
ttv_history_row_region_reserve (TtvHistoryRowRegion *g, TtvHistoryWriter *w, const TtvHistoryBlock *dir,
                                const TtvHistoryBlock *mark_dir, TtvHistoryRow *row)
{
  ttv_history_writer_align (w);
  ttv_history_row_region_place (g, ttv_history_writer_reserve (w, g->size), row);
  /* An empty part writes nothing (its source may be NULL). */
  ttv_history_writer_pwrite (w, row->recs_dir_offset, dir, g->dir_bytes);
  ttv_history_writer_pwrite (w, row->marks_dir_offset, mark_dir, g->mark_dir_bytes);
  ttv_history_writer_pwrite (w, row->levels_offset, g->levels, g->n_levels * sizeof (TtvHistoryLevel));
}
