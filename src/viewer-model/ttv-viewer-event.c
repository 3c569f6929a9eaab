/* ttv-viewer-event.c: the SDK's traces and events (sdk/ttv-viewer-event.h):
 * accessors over libttv's TtvTrace and TtvEvent, which modules never see
 * (the SDK's handles are those, cast), and field lookup by name through
 * libttv's decoder. */
#include "ttv-config.h"

#include "ttv-viewer-model.h"

#include "ttv-decoder.h"
#include "ttv-trace.h"

#include <glib/gi18n.h>
#include <string.h>

#define TRACE(t) ((const TtvTrace *) (t))
#define EVENT(e) ((const TtvEvent *) (e))

/* --- Traces ------------------------------------------------------------------------- */

const char *
ttv_viewer_trace_get_name (const TtvViewerTrace *trace)
{
  g_return_val_if_fail (trace != NULL, "");
  return TRACE (trace)->name;
}

const char *
ttv_viewer_trace_get_path (const TtvViewerTrace *trace)
{
  g_return_val_if_fail (trace != NULL, "");
  return TRACE (trace)->display_path ? TRACE (trace)->display_path : TRACE (trace)->path;
}

void
ttv_viewer_trace_get_time_span (const TtvViewerTrace *trace, TtvTime *start, TtvTime *end)
{
  g_return_if_fail (trace != NULL);
  if (start)
    *start = TRACE (trace)->start;
  if (end)
    *end = TRACE (trace)->end;
}

const char *
ttv_viewer_trace_get_info (const TtvViewerTrace *trace, const char *key)
{
  g_return_val_if_fail (trace != NULL && key != NULL, NULL);
  return ttv_trace_get_info (TRACE (trace), key);
}

guint
ttv_viewer_trace_get_n_streams (const TtvViewerTrace *trace)
{
  g_return_val_if_fail (trace != NULL, 0);
  return TRACE (trace)->tracefiles->len;
}

static const TtvTracefile *
stream_of (const TtvViewerTrace *trace, guint stream)
{
  g_return_val_if_fail (trace != NULL, NULL);
  g_return_val_if_fail (stream < TRACE (trace)->tracefiles->len, NULL);
  return TRACE (trace)->tracefiles->pdata[stream];
}

const char *
ttv_viewer_trace_get_stream_name (const TtvViewerTrace *trace, guint stream)
{
  const TtvTracefile *tf = stream_of (trace, stream);

  return tf ? tf->name : "";
}

gint
ttv_viewer_trace_get_stream_cpu (const TtvViewerTrace *trace, guint stream)
{
  const TtvTracefile *tf = stream_of (trace, stream);

  return tf ? tf->cpu : -1;
}

guint
ttv_viewer_trace_get_n_event_types (const TtvViewerTrace *trace)
{
  g_return_val_if_fail (trace != NULL, 0);
  return TRACE (trace)->event_types->len;
}

static const TtvEventType *
event_type_of (const TtvViewerTrace *trace, guint type)
{
  g_return_val_if_fail (trace != NULL, NULL);
  return type < TRACE (trace)->event_types->len ? TRACE (trace)->event_types->pdata[type] : NULL;
}

static const char *
type_name (const TtvEventType *type)
{
  return type->full_name ? type->full_name : type->name;
}

const char *
ttv_viewer_trace_get_event_type_name (const TtvViewerTrace *trace, guint type)
{
  const TtvEventType *et = event_type_of (trace, type);

  return et ? type_name (et) : NULL;
}

GStrv
ttv_viewer_trace_dup_event_type_fields (const TtvViewerTrace *trace, guint type)
{
  const TtvEventType *et = event_type_of (trace, type);
  g_autoptr (GStrvBuilder) names = g_strv_builder_new ();

  for (guint i = 0; et && et->fields && et->fields->fields && i < et->fields->fields->len; i++)
    {
      const TtvField *field = et->fields->fields->pdata[i];

      g_strv_builder_add (names, field->name);
    }
  return g_strv_builder_end (names);
}

/* The tracer's attributes of @type (none for a number it does not use). */
static TtvEventTypeAttributes
attributes_of (const TtvViewerTrace *trace, guint type)
{
  const TtvEventType *et = event_type_of (trace, type);
  TtvEventTypeAttributes attr = { -1, NULL };

  if (et)
    ttv_event_type_get_attributes (TRACE (trace), et, &attr);
  return attr;
}

char *
ttv_viewer_trace_dup_event_type_log_level (const TtvViewerTrace *trace, guint type)
{
  TtvEventTypeAttributes attr = attributes_of (trace, type);

  return attr.log_level >= 0 ? ttv_log_level_dup_text (attr.log_level) : NULL;
}

const char *
ttv_viewer_trace_get_event_type_emf_uri (const TtvViewerTrace *trace, guint type)
{
  return attributes_of (trace, type).emf_uri;
}

gboolean
ttv_viewer_trace_has_event_context (const TtvViewerTrace *trace, guint type, const char *name)
{
  g_return_val_if_fail (trace != NULL && name != NULL, FALSE);
  if (!ttv_trace_has_event_contexts (TRACE (trace)))
    return FALSE;
  if (type != G_MAXUINT)
    {
      const TtvEventType *et = event_type_of (trace, type);

      return et && ttv_event_type_has_context (TRACE (trace), et, name);
    }
  for (guint i = 0; i < TRACE (trace)->event_types->len; i++)
    {
      const TtvEventType *et = TRACE (trace)->event_types->pdata[i];

      if (et && ttv_event_type_has_context (TRACE (trace), et, name))
        return TRUE;
    }
  return FALSE;
}

/* --- Events ------------------------------------------------------------------------- */

TtvTime
ttv_viewer_event_get_time (const TtvViewerEvent *event)
{
  g_return_val_if_fail (event != NULL, 0);
  return EVENT (event)->time;
}

const char *
ttv_viewer_event_get_name (const TtvViewerEvent *event)
{
  g_return_val_if_fail (event != NULL && EVENT (event)->type != NULL, "");
  return type_name (EVENT (event)->type);
}

const TtvViewerTrace *
ttv_viewer_event_get_trace (const TtvViewerEvent *event)
{
  g_return_val_if_fail (event != NULL, NULL);
  return (const TtvViewerTrace *) EVENT (event)->tracefile->trace;
}

guint
ttv_viewer_event_get_stream (const TtvViewerEvent *event)
{
  g_return_val_if_fail (event != NULL, 0);
  return EVENT (event)->tracefile->index;
}

gint
ttv_viewer_event_get_cpu (const TtvViewerEvent *event)
{
  g_return_val_if_fail (event != NULL, -1);
  return EVENT (event)->tracefile->cpu;
}

guint
ttv_viewer_event_get_type_index (const TtvViewerEvent *event)
{
  g_return_val_if_fail (event != NULL && EVENT (event)->type != NULL, 0);
  return EVENT (event)->type->id;
}

/* The main thread only (as the events): one decoder reused for every call. */
static TtvDecoder *
scratch_decoder (void)
{
  static TtvDecoder *decoder;

  if (!decoder)
    decoder = ttv_decoder_new ();
  ttv_decoder_reset (decoder);
  return decoder;
}

void
ttv_viewer_event_append_fields (const TtvViewerEvent *event, GString *out)
{
  TtvDecoder *decoder = scratch_decoder ();
  g_autoptr (GError) error = NULL;
  gint32 root;

  g_return_if_fail (event != NULL && out != NULL);
  root = ttv_event_decode_fields (EVENT (event), decoder, &error);
  if (root < 0)
    g_string_append_printf (out, "<%s>", error ? error->message : _("undecodable"));
  else
    ttv_decoder_append_value (decoder, root, TTV_VALUE_STYLE_PLAIN, out);
}

struct _TtvViewerFieldsProbe {
  char *needle;                /* owned */
  GHashTable *cannot;          /* TtvEventType * whose fields' text cannot hold it -> TRUE,
                                * those that can -> FALSE (GINT_TO_POINTER + 1) */
};

TtvViewerFieldsProbe *
ttv_viewer_fields_probe_new (const char *needle)
{
  TtvViewerFieldsProbe *probe = g_new0 (TtvViewerFieldsProbe, 1);

  g_return_val_if_fail (needle != NULL, probe);
  probe->needle = g_strdup (needle);
  probe->cannot = g_hash_table_new (NULL, NULL);
  return probe;
}

void
ttv_viewer_fields_probe_free (TtvViewerFieldsProbe *probe)
{
  if (!probe)
    return;
  g_free (probe->needle);
  g_clear_pointer (&probe->cannot, g_hash_table_unref);
  g_free (probe);
}

gboolean
ttv_viewer_fields_probe_may_match (TtvViewerFieldsProbe *probe, const TtvViewerEvent *event)
{
  const TtvEventType *type;
  gpointer verdict;

  g_return_val_if_fail (probe != NULL && event != NULL, TRUE);
  type = EVENT (event)->type;
  if (!type || !probe->cannot)
    return TRUE;
  verdict = g_hash_table_lookup (probe->cannot, type);
  if (!verdict)
    {
      verdict = GINT_TO_POINTER (ttv_type_plain_text_may_contain (type->fields, probe->needle) ? 1 : 2);
      g_hash_table_insert (probe->cannot, (gpointer) type, verdict);
    }
  if (verdict == GINT_TO_POINTER (1))
    return TRUE;
  /* Fields that cannot be decoded show the error instead, which may. */
  return ttv_event_decode_fields (EVENT (event), scratch_decoder (), NULL) < 0;
}

char *
ttv_viewer_event_dup_fields (const TtvViewerEvent *event)
{
  GString *out = g_string_new (NULL);

  g_return_val_if_fail (event != NULL, g_string_free (out, FALSE));
  ttv_viewer_event_append_fields (event, out);
  return g_string_free (out, FALSE);
}

/* The field @name of @event decoded into the scratch decoder: the payload's
 * member, else a context's (stream event, event, packet); NULL when none. */
static const TtvValue *
find_field (const TtvViewerEvent *event, const char *name, const TtvDecoder **decoder_out)
{
  TtvDecoder *decoder = scratch_decoder ();
  gint32 scopes[TTV_EVENT_N_CONTEXTS];
  gint32 payload;
  const TtvValue *v = NULL;

  g_return_val_if_fail (event != NULL && name != NULL, NULL);
  payload = ttv_event_decode_contexts (EVENT (event), decoder, scopes, NULL);
  if (payload < 0)
    return NULL;
  v = ttv_decoder_get_field (decoder, ttv_decoder_get (decoder, payload), name);
  for (guint s = 0; !v && s < TTV_EVENT_N_CONTEXTS; s++)
    if (scopes[s] >= 0)
      v = ttv_decoder_get_field (decoder, ttv_decoder_get (decoder, scopes[s]), name);
  *decoder_out = decoder;
  return v;
}

gboolean
ttv_viewer_event_get_field_int (const TtvViewerEvent *event, const char *name, gint64 *value)
{
  const TtvDecoder *decoder;
  const TtvValue *v = find_field (event, name, &decoder);

  return v && v->type->kind != TTV_TYPE_FLOAT && ttv_value_get_int (v, value);
}

gboolean
ttv_viewer_event_get_field_uint (const TtvViewerEvent *event, const char *name, guint64 *value)
{
  const TtvDecoder *decoder;
  const TtvValue *v = find_field (event, name, &decoder);

  return v && v->type->kind != TTV_TYPE_FLOAT && ttv_value_get_uint (v, value);
}

/* Whether @type holds text as bytes (CTF's char arrays). */
static gboolean
is_text_bytes (const TtvType *type)
{
  const TtvType *e = type->element;

  return (type->kind == TTV_TYPE_ARRAY || type->kind == TTV_TYPE_SEQUENCE) && e
         && e->kind == TTV_TYPE_INTEGER && e->size_bits == 8 && e->encoding == TTV_ENCODING_UTF8;
}

/* A decoded value as users read it: a string's characters, an
 * enumeration's label, a number in decimal, text bytes as text, a
 * compound as ttv_viewer_event_dup_fields() writes it. */
static char *
value_text (const TtvDecoder *decoder, const TtvValue *v)
{
  GString *out;

  switch (v->type->kind)
    {
    case TTV_TYPE_STRING:
      return g_strndup (v->v.string.str, v->v.string.len);
    case TTV_TYPE_ENUM:
      {
        const char *label = ttv_type_enum_label (v->type, v->v.u);

        if (label)
          return g_strdup (label);
        return v->type->is_signed ? g_strdup_printf ("%" G_GINT64_FORMAT, v->v.s)
                                  : g_strdup_printf ("%" G_GUINT64_FORMAT, v->v.u);
      }
    case TTV_TYPE_INTEGER:
      return v->type->is_signed ? g_strdup_printf ("%" G_GINT64_FORMAT, v->v.s)
                                : g_strdup_printf ("%" G_GUINT64_FORMAT, v->v.u);
    default:
      break;
    }
  if (is_text_bytes (v->type))
    {
      /* Up to its first NUL, however the decoder holds the bytes (a
       * decode plan keeps a text array as one node, without children). */
      char text[4096];

      ttv_decoder_copy_text (decoder, v, text, sizeof text);
      return g_strdup (text);
    }
  out = g_string_new (NULL);
    ttv_decoder_append_value (decoder, (guint32) (v - ttv_decoder_get (decoder, 0)),
                              TTV_VALUE_STYLE_PLAIN, out);
  return g_string_free (out, FALSE);
}

char *
ttv_viewer_event_dup_field_text (const TtvViewerEvent *event, const char *name)
{
  const TtvDecoder *decoder;
  const TtvValue *v = find_field (event, name, &decoder);

  return v ? value_text (decoder, v) : NULL;
}

GStrv
ttv_viewer_event_dup_context (const TtvViewerEvent *event, TtvViewerEventContext which)
{
  static const TtvEventContext scope_of[] = {
    [TTV_VIEWER_CONTEXT_STREAM_EVENT] = TTV_EVENT_CONTEXT_STREAM_EVENT,
    [TTV_VIEWER_CONTEXT_EVENT] = TTV_EVENT_CONTEXT_EVENT,
    [TTV_VIEWER_CONTEXT_PACKET] = TTV_EVENT_CONTEXT_PACKET,
  };
  TtvDecoder *decoder = scratch_decoder ();
  gint32 scopes[TTV_EVENT_N_CONTEXTS];
  const TtvValue *context;
  GPtrArray *out;

  g_return_val_if_fail (event != NULL && (guint) which < G_N_ELEMENTS (scope_of), NULL);
  if (ttv_event_decode_contexts (EVENT (event), decoder, scopes, NULL) < 0 || scopes[scope_of[which]] < 0)
    return NULL;
  context = ttv_decoder_get (decoder, scopes[scope_of[which]]);
  out = g_ptr_array_new ();
  for (guint32 i = 0; i < context->n_children; i++)
    {
      const TtvValue *member = ttv_decoder_get (decoder, context->first_child + i);
      g_ptr_array_add (out, g_strdup (member->name ? member->name : ""));
      g_ptr_array_add (out, value_text (decoder, member));
    }
  g_ptr_array_add (out, NULL);
  return (GStrv) g_ptr_array_free (out, FALSE);
}
