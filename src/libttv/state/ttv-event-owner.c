/* ttv-event-owner.c: the process of an event from its own contexts (see
 * ttv-event-owner.h). */
#include "ttv-event-owner.h"

static const TtvValue *
member (TtvDecoder *decoder, const gint32 *scopes, guint n, const char *name)
{
  for (guint i = 0; i < n; i++)
    if (scopes[i] >= 0)
      {
        const TtvValue *v = ttv_decoder_get_field (decoder, ttv_decoder_get (decoder, (guint32) scopes[i]), name);
        if (v)
          return v;
      }
  return NULL;
}

gboolean
ttv_event_owner_from_context (const TtvEvent *ev, TtvDecoder *decoder, TtvEventOwner *out)
{
  *out = (TtvEventOwner) { -1, -1, "" };
  if (!ttv_trace_has_event_contexts (ev->tracefile->trace))
    return FALSE;
  gint32 scopes[TTV_EVENT_N_CONTEXTS];
  ttv_decoder_reset (decoder);
  if (ttv_event_decode_contexts (ev, decoder, scopes, NULL) < 0)
    return FALSE;
  const TtvValue *v;
  if ((v = member (decoder, scopes, 2, "vpid")) && !ttv_value_get_int (v, &out->pid))
    out->pid = -1;
  if ((v = member (decoder, scopes, 2, "vtid")) && !ttv_value_get_int (v, &out->tid))
    out->tid = -1;
  if ((v = member (decoder, scopes, 2, "procname")) != NULL)
    {
      if (v->type->kind == TTV_TYPE_STRING)
        g_strlcpy (out->name, v->v.string.str, sizeof out->name);
      else if (v->type->kind == TTV_TYPE_ARRAY && v->type->element->kind == TTV_TYPE_INTEGER
               && v->type->element->size_bits == 8)
        {
          /* char procname[17]: the text up to the first NUL */
          guint32 n = MIN (ttv_value_get_n_elements (v), (guint32) sizeof out->name - 1);
          for (guint32 i = 0; i < n; i++)
            {
              TtvValue scratch;
              char c = (char) (guint8) ttv_decoder_get_element (decoder, v, i, &scratch)->v.u;
              if (c == '\0')
                break;
              out->name[i] = c;
            }
        }
    }
  return out->pid >= 0 || out->tid >= 0 || out->name[0] != '\0';
}
