/* ttv-trace-damage.c: skipping damaged blocks while reading, and the log of
 * what was skipped (shared by every thread reading the trace). */
#include "ttv-trace-damage.h"

#include "ttv-error.h"
#include "ttv-escape.h"

#include <string.h>

struct _TtvTraceDamage {
  GMutex lock;
  GPtrArray *messages;          /* of char *, owned, in the order found */
  GHashTable *seen;             /* the same strings, weak */
};

void
ttv_trace_damage_free (TtvTraceDamage *d)
{
  if (d == NULL)
    return;
  g_hash_table_unref (d->seen);
  g_ptr_array_unref (d->messages);
  g_mutex_clear (&d->lock);
  g_free (d);
}

void
ttv_trace_set_skip_damage (TtvTrace *trace, gboolean skip)
{
  g_return_if_fail (trace != NULL);
  if (skip && trace->damage == NULL)
    {
      TtvTraceDamage *d = g_new0 (TtvTraceDamage, 1);
      g_mutex_init (&d->lock);
      d->messages = g_ptr_array_new_with_free_func (g_free);
      d->seen = g_hash_table_new (g_str_hash, g_str_equal);
      trace->damage = d;
    }
  else if (!skip)
    g_clear_pointer (&trace->damage, ttv_trace_damage_free);
}

gboolean
ttv_trace_get_skip_damage (const TtvTrace *trace)
{
  g_return_val_if_fail (trace != NULL, FALSE);
  return trace->damage != NULL;
}

GPtrArray *
ttv_trace_dup_damage (const TtvTrace *trace)
{
  g_return_val_if_fail (trace != NULL, NULL);
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);
  TtvTraceDamage *d = trace->damage;
  if (d == NULL)
    return out;
  g_mutex_lock (&d->lock);
  for (guint i = 0; i < d->messages->len; i++)
    g_ptr_array_add (out, g_strdup (g_ptr_array_index (d->messages, i)));
  g_mutex_unlock (&d->lock);
  return out;
}

guint
ttv_trace_get_n_damage (const TtvTrace *trace)
{
  g_return_val_if_fail (trace != NULL, 0);
  TtvTraceDamage *d = trace->damage;
  guint n;
  if (d == NULL)
    return 0;
  g_mutex_lock (&d->lock);
  n = d->messages->len;
  g_mutex_unlock (&d->lock);
  return n;
}

gboolean
ttv_trace_is_damaged (const TtvTrace *trace, gboolean live)
{
  g_return_val_if_fail (trace != NULL, FALSE);
  for (guint i = 0; trace->damage_warnings && i < trace->damage_warnings->len; i++)
    if (!live || !ttv_trace_warning_is_tail (trace, trace->damage_warnings->pdata[i]))
      return TRUE;
  return ttv_trace_get_n_damage (trace) > 0;
}

static void
record (TtvTraceDamage *d, const char *raw)
{
  /* As the warnings: safe to print (names from the trace). */
  g_autofree char *message = ttv_text_for_display (raw);

  g_mutex_lock (&d->lock);
  if (!g_hash_table_contains (d->seen, message))
    {
      char *copy = g_strdup (message);
      g_ptr_array_add (d->messages, copy);
      g_hash_table_add (d->seen, copy);
    }
  g_mutex_unlock (&d->lock);
}

/* After a reader failed with @reader_error: TRUE when it was damage, now
 * recorded, and the cursor stands after it; FALSE with @error otherwise. */
static gboolean
skip_damage (TtvCursor *c, GError *reader_error, GError **error)
{
  TtvTrace *t = c->tracefile->trace;

  if (!g_error_matches (reader_error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_CORRUPT))
    {
      g_propagate_error (error, reader_error);
      return FALSE;
    }
  record (t->damage, reader_error->message);
  g_error_free (reader_error);
  if (t->format->cursor_skip_block)
    return t->format->cursor_skip_block (c, error);
  /* The reader cannot resynchronise: the rest of this tracefile is lost. */
  return t->format->cursor_seek_time (c, TTV_TIME_MAX, error);
}

gboolean
ttv_cursor_next_skipping_damage (TtvCursor *c, TtvEvent *event, GError **error)
{
  const TtvFormatClass *f = c->tracefile->trace->format;

  for (;;)
    {
      GError *local = NULL;
      if (f->cursor_next (c, event, &local))
        return TRUE;
      if (local == NULL)
        return FALSE;           /* the end */
      if (!skip_damage (c, local, error))
        return FALSE;
    }
}

gboolean
ttv_cursor_seek_time_skipping_damage (TtvCursor *c, TtvTime time, GError **error)
{
  const TtvFormatClass *f = c->tracefile->trace->format;
  GError *local = NULL;

  if (f->cursor_seek_time (c, time, &local))
    return TRUE;
  /* Damage in the block holding @time: the next block's events all come
   * after it (blocks are in time order). */
  return skip_damage (c, local, error);
}
