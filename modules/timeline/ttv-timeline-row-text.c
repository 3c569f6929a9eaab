/* ttv-timeline-row-text.c: the text of a row's other columns and of its
 * tooltip's details, formatted when drawn or asked for rather than stored:
 * a large trace has tens of thousands of process rows, of which a view
 * draws a few dozen, and five cell strings and the details kept for each
 * were some 200 bytes a row (issue 15, the viewer's memory). */
#include "ttv-timeline.h"

struct _TtvTimelineRowText {
  TtvTimelineCellsFunc cells;
  TtvTimelineDetailsFunc details;
  gpointer data;
  GDestroyNotify destroy;
};

static void
row_text_clear (gpointer p)
{
  TtvTimelineRowText *text = p;

  if (text->destroy)
    text->destroy (text->data);
}

TtvTimelineRowText *
ttv_timeline_row_text_new (TtvTimelineCellsFunc cells, TtvTimelineDetailsFunc details, gpointer data,
                           GDestroyNotify destroy)
{
  TtvTimelineRowText *text = g_rc_box_new0 (TtvTimelineRowText);

  text->cells = cells;
  text->details = details;
  text->data = data;
  text->destroy = destroy;
  return text;
}

TtvTimelineRowText *
ttv_timeline_row_text_ref (TtvTimelineRowText *text)
{
  return g_rc_box_acquire (text);
}

void
ttv_timeline_row_text_unref (TtvTimelineRowText *text)
{
  g_rc_box_release_full (text, row_text_clear);
}

void
ttv_timeline_row_set_text (TtvTimelineRow *row, TtvTimelineRowText *text)
{
  if (text)
    ttv_timeline_row_text_ref (text);
  g_clear_pointer (&row->text, ttv_timeline_row_text_unref);
  row->text = text;
}

GStrv
ttv_timeline_row_dup_cells (const TtvTimelineRow *row)
{
  if (!row->text || !row->text->cells)
    return NULL;
  return row->text->cells (row->text->data, row);
}

char *
ttv_timeline_row_dup_details (const TtvTimelineRow *row)
{
  /* Details set on the row (a machine's header, a pinned row) win. */
  if (row->details)
    return g_strdup (row->details);
  if (!row->text || !row->text->details)
    return NULL;
  return row->text->details (row->text->data, row);
}
