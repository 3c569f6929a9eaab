/* ttv-event-json.c: an event's members as jsonl lines write them (see
 * ttv-event-json.h).  Integers, most members, are written without the
 * decoder's dispatch: a number, signed or not whatever the display base,
 * as the decoder's JSON writes them. */
#include "ttv-event-json.h"
#include "ttv-json-out.h"
#include "ttv-text.h"

#include <string.h>

TtvEventJsonKind
ttv_event_json_kind_of (const TtvType *t)
{
  if (t->kind == TTV_TYPE_INTEGER && t->int_kind != TTV_INT_BOOLEAN)
    return t->is_signed ? TTV_EVENT_JSON_SIGNED : TTV_EVENT_JSON_UNSIGNED;
  if (t->kind == TTV_TYPE_STRING)
    return TTV_EVENT_JSON_STRING;
  if ((t->kind == TTV_TYPE_ARRAY || t->kind == TTV_TYPE_SEQUENCE) && ttv_type_is_text_array (t))
    return TTV_EVENT_JSON_TEXT;
  return TTV_EVENT_JSON_VALUE;
}

void
ttv_event_json_append_value (GString *out, const TtvDecoder *decoder, const TtvValue *v, TtvEventJsonKind kind)
{
  switch (kind)
    {
    case TTV_EVENT_JSON_UNSIGNED:
      ttv_text_commit (out, ttv_text_put_u64 (ttv_text_reserve (out, TTV_TEXT_NUMBER_MAX), v->v.u));
      break;
    case TTV_EVENT_JSON_SIGNED:
      ttv_text_commit (out, ttv_text_put_i64 (ttv_text_reserve (out, TTV_TEXT_NUMBER_MAX), v->v.s));
      break;
    case TTV_EVENT_JSON_STRING:
      ttv_json_append_string (out, v->v.string.str, v->v.string.len);
      break;
    case TTV_EVENT_JSON_TEXT:
      {
        /* Kernel task names (char[16]): as the decoder writes them, up to
         * the first NUL. */
        const char *text = v->v.string.str;
        ttv_json_append_string (out, text, text ? (gssize) strnlen (text, v->v.string.len) : 0);
      }
      break;
    case TTV_EVENT_JSON_VALUE:
      ttv_decoder_append_node (decoder, v, TTV_VALUE_STYLE_JSON, out);
      break;
    }
}

char *
ttv_event_json_key_new (const char *name, gsize *len)
{
  GString *key = g_string_new (",");
  ttv_json_append_string (key, name ? name : "", -1);
  g_string_append_c (key, ':');
  *len = key->len;
  return g_string_free (key, FALSE);
}
