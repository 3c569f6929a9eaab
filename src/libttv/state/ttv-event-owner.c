/* ttv-event-owner.c: the process of an event from its own contexts (see
 * ttv-event-owner.h). */
#include "ttv-event-owner.h"

static const TtvValue *
member (const TtvDecoder *decoder, const gint32 *scopes, guint n, const char *name)
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
ttv_event_owner_from_scopes (const TtvDecoder *decoder, const gint32 scopes[TTV_EVENT_N_CONTEXTS],
                             TtvEventOwner *out)
{
  *out = (TtvEventOwner) { -1, -1, "", FALSE, 0 };
  const TtvValue *v;
  if ((v = member (decoder, scopes, 2, "vpid")) && !ttv_value_get_int (v, &out->pid))
    out->pid = -1;
  if ((v = member (decoder, scopes, 2, "vtid")) && !ttv_value_get_int (v, &out->tid))
    out->tid = -1;
  if ((v = member (decoder, scopes, 2, "procname")) != NULL)
    ttv_decoder_copy_text (decoder, v, out->name, sizeof out->name);
  if ((v = member (decoder, scopes, 2, "ip")) != NULL)
    out->has_ip = ttv_value_get_uint (v, &out->ip);
  return out->pid >= 0 || out->tid >= 0 || out->name[0] != '\0';
}

gboolean
ttv_event_owner_from_context (const TtvEvent *ev, TtvDecoder *decoder, TtvEventOwner *out)
{
  *out = (TtvEventOwner) { -1, -1, "", FALSE, 0 };
  if (!ttv_trace_has_event_contexts (ev->tracefile->trace))
    return FALSE;
  gint32 scopes[TTV_EVENT_N_CONTEXTS];
  ttv_decoder_reset (decoder);
  if (ttv_event_decode_contexts (ev, decoder, scopes, NULL) < 0)
    return FALSE;
  return ttv_event_owner_from_scopes (decoder, scopes, out);
}
