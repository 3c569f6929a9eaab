/* ttv-position-token.c: the position token writer of reports (see
 * ttv-position-token.h).  A position the context updates in place keeps
 * its token's bytes itself (ttv-position-bytes.h): the writer appends the
 * token from them.  Of any other position the writer keeps the bytes of
 * the last one and, for the next of the same traceset, rewrites the
 * tracefiles whose values changed. */
#include "ttv-position-token.h"
#include "ttv-position-bytes.h"

struct _TtvPositionTokenWriter {
  TtvPositionBytes *last;       /* of the last position without bytes; NULL: none yet */
  guint32 shape;                /* its traceset's */
  TtvPositionEntry *seen;       /* [last->n]: its tracefiles' values */
};

TtvPositionTokenWriter *
ttv_position_token_writer_new (void)
{
  return g_new0 (TtvPositionTokenWriter, 1);
}

void
ttv_position_token_writer_free (TtvPositionTokenWriter *w)
{
  if (w == NULL)
    return;
  ttv_position_bytes_free (w->last);
  g_free (w->seen);
  g_free (w);
}

static inline gboolean
entry_equal (const TtvPositionEntry *a, const TtvPositionEntry *b)
{
  return a->pos.block == b->pos.block && a->pos.offset == b->pos.offset
         && a->pos.index == b->pos.index && a->at_end == b->at_end;
}

/* Encodes all of @p (the first position, or of another traceset). */
static void
lay_out (TtvPositionTokenWriter *w, const TtvPosition *p)
{
  if (w->last == NULL || w->last->n != p->n)
    {
      ttv_position_bytes_free (w->last);
      w->last = ttv_position_bytes_new (p->n);
      w->seen = g_renew (TtvPositionEntry, w->seen, p->n);
    }
  w->shape = p->shape;
  ttv_position_bytes_lay_out (w->last, p);
  for (guint i = 0; i < p->n; i++)
    w->seen[i] = p->tf[i];
}

/* Rewrites what @p (same traceset) changes of the last position. */
static void
update (TtvPositionTokenWriter *w, const TtvPosition *p)
{
  ttv_position_bytes_put_next (w->last, p);
  for (guint i = 0; i < p->n; i++)
    if (!entry_equal (&p->tf[i], &w->seen[i]))
      {
        ttv_position_bytes_put_entry (w->last, i, &p->tf[i]);
        w->seen[i] = p->tf[i];
      }
}

/* The token of @p, which has no bytes of its own, from the writer's.
 * Out of line: the usual call (a peeked position, with its bytes) then
 * saves no registers. */
static G_NO_INLINE void
append_from_last (TtvPositionTokenWriter *w, const TtvPosition *p, GString *out)
{
  if (w->last != NULL && w->last->n == p->n && w->shape == p->shape)
    update (w, p);
  else
    lay_out (w, p);
  ttv_position_bytes_append_token (w->last, out);
}

void
ttv_position_token_writer_append (TtvPositionTokenWriter *w, const TtvPosition *p, GString *out)
{
  g_return_if_fail (w != NULL && p != NULL);
  if (p->bytes != NULL)
    ttv_position_bytes_append_token (p->bytes, out);
  else
    append_from_last (w, p, out);
}
