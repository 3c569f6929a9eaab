/* ttv-event-reader.c: a merged reader over the traceset context that can
 * give the position of the event it just delivered; the viewer's request
 * servicing reads with it (see the header). */
#include "ttv-event-reader.h"

struct _TtvEventReader {
  TtvContext *context;    /* owned */
  gboolean peeked;        /* the last event returned was peeked, not consumed */
};

TtvEventReader *
ttv_event_reader_new (TtvTraceset *traceset, GError **error)
{
  TtvContext *context = ttv_context_new (traceset, error);
  TtvEventReader *r;

  if (!context)
    return NULL;
  r = g_new0 (TtvEventReader, 1);
  r->context = context;
  return r;
}

void
ttv_event_reader_free (TtvEventReader *r)
{
  if (!r)
    return;
  ttv_context_free (r->context);
  g_free (r);
}

gboolean
ttv_event_reader_seek_time (TtvEventReader *r, TtvTime time, GError **error)
{
  r->peeked = FALSE;
  return ttv_context_seek_time (r->context, time, error);
}

gboolean
ttv_event_reader_seek_position (TtvEventReader *r, const TtvPosition *pos, GError **error)
{
  r->peeked = FALSE;
  if (!pos)
    return ttv_context_seek_begin (r->context, error);
  return ttv_context_seek_position (r->context, pos, error);
}

gboolean
ttv_event_reader_next (TtvEventReader *r, const TtvEvent **event, GError **error)
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

TtvPosition *
ttv_event_reader_dup_event_position (TtvEventReader *r)
{
  return ttv_context_get_position (r->context, NULL);
}

TtvPosition *
ttv_event_reader_dup_next_position (TtvEventReader *r)
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
  return ttv_context_get_position (r->context, NULL);
}
