/* ttv-tab-reader.c: the tab's merged reader over the traceset context, with
 * the position of the event just delivered; used by TtvTabState. */
#include "ttv-config.h"

#include "ttv-tab-reader.h"

#include "ttv-context.h"

/* TtvViewerPosition is the engine's TtvPosition under the API's name, so
 * that modules need no libttv symbol. */
#define ENGINE_POS(p) ((const TtvPosition *) (p))
#define VIEWER_POS(p) ((TtvViewerPosition *) (p))

struct _TtvTabReader {
  TtvContext *context;    /* owned */
  gboolean peeked;        /* the last event returned was peeked, not consumed */
};

TtvTabReader *
ttv_tab_reader_new (TtvTraceset *traceset, GError **error)
{
  TtvContext *context = ttv_context_new (traceset, error);
  TtvTabReader *r;

  if (!context)
    return NULL;
  r = g_new0 (TtvTabReader, 1);
  r->context = context;
  return r;
}

void
ttv_tab_reader_free (TtvTabReader *r)
{
  if (!r)
    return;
  ttv_context_free (r->context);
  g_free (r);
}

gboolean
ttv_tab_reader_seek_time (TtvTabReader *r, TtvTime time, GError **error)
{
  r->peeked = FALSE;
  return ttv_context_seek_time (r->context, time, error);
}

gboolean
ttv_tab_reader_seek_position (TtvTabReader *r, const TtvViewerPosition *pos, GError **error)
{
  r->peeked = FALSE;
  if (!pos)
    return ttv_context_seek_begin (r->context, error);
  return ttv_context_seek_position (r->context, ENGINE_POS (pos), error);
}

gboolean
ttv_tab_reader_next (TtvTabReader *r, const TtvEvent **event, GError **error)
{
  GError *local = NULL;

  /* Peek, and consume only on the following call: until then the context
   * still stands before the delivered event, so its position is at hand. */
  if (r->peeked)
    {
      r->peeked = FALSE;
      if (!ttv_context_next (r->context, &local))
        {
          if (local)
            g_propagate_error (error, local);
          return FALSE;
        }
    }
  *event = ttv_context_peek (r->context, &local);
  if (!*event)
    {
      if (local)   /* else: the end of the traceset */
        g_propagate_error (error, local);
      return FALSE;
    }
  r->peeked = TRUE;
  return TRUE;
}

TtvViewerPosition *
ttv_tab_reader_dup_event_position (TtvTabReader *r)
{
  return VIEWER_POS (ttv_context_get_position (r->context, NULL));
}

TtvViewerPosition *
ttv_tab_reader_dup_next_position (TtvTabReader *r)
{
  GError *local = NULL;

  if (r->peeked)
    {
      r->peeked = FALSE;
      if (!ttv_context_next (r->context, &local))
        {
          g_clear_error (&local);
          return NULL;
        }
    }
  if (!ttv_context_peek (r->context, &local))
    {
      g_clear_error (&local);
      return NULL;
    }
  return VIEWER_POS (ttv_context_get_position (r->context, NULL));
}

TtvViewerPosition *
ttv_viewer_position_copy (const TtvViewerPosition *pos)
{
  return pos ? VIEWER_POS (ttv_position_copy (ENGINE_POS (pos))) : NULL;
}

void
ttv_viewer_position_free (TtvViewerPosition *pos)
{
  if (pos)
    ttv_position_free ((TtvPosition *) pos);
}

int
ttv_viewer_position_compare (const TtvViewerPosition *a, const TtvViewerPosition *b)
{
  return ttv_position_compare (ENGINE_POS (a), ENGINE_POS (b));
}

TtvTime
ttv_viewer_position_get_time (const TtvViewerPosition *pos)
{
  return ttv_position_get_time (ENGINE_POS (pos));
}
