/* ttv-ust-model.c: the userspace model's table and the reading of its
 * events' arguments (see ttv-ust-model.h).  Arguments come from the
 * decoded payload and contexts by name, so every LTTng-UST version's
 * layout reads alike; anything malformed is refused, never guessed. */
#include "ttv-ust-model.h"

#include "ttv-event-owner.h"

#include <string.h>

typedef struct {
  const char *event;            /* the CTF event name */
  TtvUstAction action;
} Entry;

/* LTTng-UST 2.0 to 2.13.  statedump:soinfo and its sopath field are
 * 2.8's names for what 2.9 calls bin_info and path. */
static const Entry table[] = {
  { "lttng_ust_cyg_profile:func_entry", TTV_UST_FUNC_ENTRY },
  { "lttng_ust_cyg_profile:func_exit", TTV_UST_FUNC_EXIT },
  { "lttng_ust_cyg_profile_fast:func_entry", TTV_UST_FUNC_ENTRY },
  { "lttng_ust_cyg_profile_fast:func_exit", TTV_UST_FUNC_EXIT },
  { "lttng_ust_libc:malloc", TTV_UST_MALLOC },
  { "lttng_ust_libc:calloc", TTV_UST_CALLOC },
  { "lttng_ust_libc:realloc", TTV_UST_REALLOC },
  { "lttng_ust_libc:memalign", TTV_UST_MEMALIGN },
  { "lttng_ust_libc:posix_memalign", TTV_UST_POSIX_MEMALIGN },
  { "lttng_ust_libc:free", TTV_UST_FREE },
  { "lttng_ust_statedump:start", TTV_UST_STATEDUMP_START },
  { "lttng_ust_statedump:end", TTV_UST_STATEDUMP_END },
  { "lttng_ust_statedump:bin_info", TTV_UST_BIN_INFO },
  { "lttng_ust_statedump:soinfo", TTV_UST_BIN_INFO },
  { "lttng_ust_statedump:build_id", TTV_UST_BUILD_ID },
  { "lttng_ust_statedump:debug_link", TTV_UST_DEBUG_LINK },
  { "lttng_ust_statedump:procname", TTV_UST_PROCNAME },
  { "lttng_ust_dl:dlopen", TTV_UST_LOAD },
  { "lttng_ust_dl:dlmopen", TTV_UST_LOAD },
  { "lttng_ust_dl:dlclose", TTV_UST_UNLOAD },
  { "lttng_ust_dl:build_id", TTV_UST_BUILD_ID },
  { "lttng_ust_dl:debug_link", TTV_UST_DEBUG_LINK },
  { "lttng_ust_lib:load", TTV_UST_LOAD },
  { "lttng_ust_lib:unload", TTV_UST_UNLOAD },
  { "lttng_ust_lib:build_id", TTV_UST_BUILD_ID },
  { "lttng_ust_lib:debug_link", TTV_UST_DEBUG_LINK },
};

struct _TtvUstModel {
  GPtrArray *per_trace;         /* of GByteArray: TtvUstAction per event type id */
  GPtrArray *traces;            /* of TtvTrace *, weak */
  TtvDecoder *decoder;          /* owned */
  guint32 present;              /* 1 << action for the actions some trace has */
};

static TtvUstAction
action_of (const TtvEventType *type)
{
  for (guint i = 0; i < G_N_ELEMENTS (table); i++)
    if (g_str_equal (type->full_name, table[i].event) || g_str_equal (type->name, table[i].event))
      return table[i].action;
  return TTV_UST_NONE;
}

TtvUstModel *
ttv_ust_model_new (GPtrArray *traces)
{
  TtvUstModel *m = g_new0 (TtvUstModel, 1);
  m->per_trace = g_ptr_array_new_with_free_func ((GDestroyNotify) g_byte_array_unref);
  m->traces = g_ptr_array_new ();
  m->decoder = ttv_decoder_new ();
  for (guint t = 0; t < traces->len; t++)
    {
      const TtvTrace *trace = g_ptr_array_index (traces, t);
      GByteArray *actions = g_byte_array_sized_new (trace->event_types->len);
      g_byte_array_set_size (actions, trace->event_types->len);
      for (guint i = 0; i < trace->event_types->len; i++)
        {
          TtvUstAction a = action_of (g_ptr_array_index (trace->event_types, i));
          actions->data[i] = (guint8) a;
          m->present |= 1u << a;
        }
      g_ptr_array_add (m->per_trace, actions);
      g_ptr_array_add (m->traces, (gpointer) trace);
    }
  return m;
}

void
ttv_ust_model_free (TtvUstModel *m)
{
  if (m == NULL)
    return;
  g_ptr_array_unref (m->per_trace);
  g_ptr_array_unref (m->traces);
  ttv_decoder_free (m->decoder);
  g_free (m);
}

gboolean
ttv_ust_model_has_action (const TtvUstModel *m, TtvUstAction action)
{
  return action != TTV_UST_NONE && (m->present & (1u << action)) != 0;
}

TtvUstAction
ttv_ust_model_get_action (const TtvUstModel *m, guint trace, const TtvEventType *type)
{
  if (trace >= m->per_trace->len)
    return TTV_UST_NONE;
  GByteArray *actions = g_ptr_array_index (m->per_trace, trace);
  return type->id < actions->len ? (TtvUstAction) actions->data[type->id] : TTV_UST_NONE;
}

GPtrArray *
ttv_ust_model_dup_event_names (const TtvUstModel *m, TtvUstAction action)
{
  GPtrArray *names = g_ptr_array_new ();
  for (guint t = 0; t < m->traces->len; t++)
    {
      const TtvTrace *trace = g_ptr_array_index (m->traces, t);
      for (guint i = 0; i < trace->event_types->len; i++)
        {
          const TtvEventType *type = g_ptr_array_index (trace->event_types, i);
          if (ttv_ust_model_get_action (m, t, type) != action)
            continue;
          gboolean seen = FALSE;
          for (guint k = 0; k < names->len && !seen; k++)
            seen = g_str_equal (g_ptr_array_index (names, k), type->full_name);
          if (!seen)
            g_ptr_array_add (names, type->full_name);
        }
    }
  return names;
}

/* --- Arguments --------------------------------------------------------------- */

typedef struct {
  const TtvDecoder *decoder;
  const TtvValue *payload;
} Fields;

static gboolean
get_uint (const Fields *f, const char *name, guint64 *out)
{
  const TtvValue *v = ttv_decoder_get_field (f->decoder, f->payload, name);
  *out = 0;
  return v != NULL && ttv_value_get_uint (v, out);
}

static gboolean
get_flag (const Fields *f, const char *name)
{
  guint64 v;
  return get_uint (f, name, &v) && v != 0;
}

/* A string argument: NULL when absent, not text, or longer than a path. */
static const char *
get_path (const Fields *f, const char *name)
{
  const TtvValue *v = ttv_decoder_get_field (f->decoder, f->payload, name);
  if (v == NULL || v->type->kind != TTV_TYPE_STRING || v->v.string.len >= TTV_UST_MAX_PATH
      || strlen (v->v.string.str) != v->v.string.len)
    return NULL;
  return v->v.string.str;
}

/* The build id: a sequence (or array) of bytes, 1..TTV_UST_MAX_BUILD_ID long. */
static gboolean
get_build_id (const Fields *f, TtvUstEvent *out)
{
  const TtvValue *v = ttv_decoder_get_field (f->decoder, f->payload, "build_id");
  if (v == NULL || (v->type->kind != TTV_TYPE_SEQUENCE && v->type->kind != TTV_TYPE_ARRAY)
      || v->type->element == NULL || v->type->element->kind != TTV_TYPE_INTEGER
      || v->type->element->size_bits != 8)
    return FALSE;
  /* Its elements (a text array has no children: one node views its bytes). */
  guint32 n = ttv_value_get_n_elements (v);
  if (n == 0 || n > TTV_UST_MAX_BUILD_ID)
    return FALSE;
  for (guint32 i = 0; i < n; i++)
    {
      TtvValue scratch;
      out->build_id[i] = (guint8) ttv_decoder_get_element (f->decoder, v, i, &scratch)->v.u;
    }
  out->build_id_len = n;
  return TRUE;
}

/* Reads what @action needs; FALSE when something it needs is missing. */
static gboolean
read_arguments (const Fields *f, TtvUstEvent *e)
{
  switch (e->action)
    {
    case TTV_UST_FUNC_ENTRY:
      e->has_call_site = get_uint (f, "call_site", &e->call_site);
      return (e->has_addr = get_uint (f, "addr", &e->addr));
    case TTV_UST_FUNC_EXIT:
      e->has_call_site = get_uint (f, "call_site", &e->call_site);
      e->has_addr = get_uint (f, "addr", &e->addr);
      return TRUE;
    case TTV_UST_MALLOC:
      return get_uint (f, "size", &e->size) && get_uint (f, "ptr", &e->ptr);
    case TTV_UST_CALLOC:
      return get_uint (f, "nmemb", &e->nmemb) && get_uint (f, "size", &e->size) && get_uint (f, "ptr", &e->ptr);
    case TTV_UST_REALLOC:
      return get_uint (f, "in_ptr", &e->in_ptr) && get_uint (f, "size", &e->size) && get_uint (f, "ptr", &e->ptr);
    case TTV_UST_MEMALIGN:
      return get_uint (f, "alignment", &e->alignment) && get_uint (f, "size", &e->size)
             && get_uint (f, "ptr", &e->ptr);
    case TTV_UST_POSIX_MEMALIGN:
      {
        guint64 result = 0;
        gboolean ok = get_uint (f, "out_ptr", &e->ptr) && get_uint (f, "alignment", &e->alignment)
                      && get_uint (f, "size", &e->size) && get_uint (f, "result", &result);
        e->result = (gint32) result;
        return ok;
      }
    case TTV_UST_FREE:
      return get_uint (f, "ptr", &e->ptr);
    case TTV_UST_BIN_INFO:
    case TTV_UST_LOAD:
      e->path = get_path (f, "path");
      if (e->path == NULL)
        e->path = get_path (f, "sopath");
      e->is_pic = get_flag (f, "is_pic");
      e->has_build_id = get_flag (f, "has_build_id");
      e->has_debug_link = get_flag (f, "has_debug_link");
      return get_uint (f, "baddr", &e->baddr) && get_uint (f, "memsz", &e->memsz) && e->path != NULL;
    case TTV_UST_UNLOAD:
      return get_uint (f, "baddr", &e->baddr);
    case TTV_UST_BUILD_ID:
      return get_uint (f, "baddr", &e->baddr) && get_build_id (f, e);
    case TTV_UST_DEBUG_LINK:
      {
        guint64 crc;
        e->path = get_path (f, "filename");
        e->crc = get_uint (f, "crc", &crc) ? (guint32) crc : 0;
        return get_uint (f, "baddr", &e->baddr) && e->path != NULL && e->path[0] != '\0';
      }
    case TTV_UST_PROCNAME:
      {
        const TtvValue *v = ttv_decoder_get_field (f->decoder, f->payload, "procname");
        return v != NULL && ttv_decoder_copy_text (f->decoder, v, e->procname, sizeof e->procname);
      }
    case TTV_UST_STATEDUMP_START:
    case TTV_UST_STATEDUMP_END:
      return TRUE;
    case TTV_UST_NONE:
    case TTV_UST_N_ACTIONS:
    default:
      return FALSE;
    }
}

gboolean
ttv_ust_model_read (TtvUstModel *m, guint trace, const TtvEvent *ev, TtvUstEvent *out)
{
  TtvUstAction action = ttv_ust_model_get_action (m, trace, ev->type);
  if (action == TTV_UST_NONE)
    return FALSE;
  memset (out, 0, offsetof (TtvUstEvent, build_id));
  out->action = action;
  out->time = ev->time;
  out->cpu = ev->tracefile->cpu;
  out->trace = trace;
  gint32 scopes[TTV_EVENT_N_CONTEXTS];
  ttv_decoder_reset (m->decoder);
  gint32 root = ttv_event_decode_contexts (ev, m->decoder, scopes, NULL);
  if (root < 0)
    return FALSE;
  TtvEventOwner owner;
  ttv_event_owner_from_scopes (m->decoder, scopes, &owner);
  out->vpid = owner.pid;
  out->vtid = owner.tid;
  out->has_ip = owner.has_ip;
  out->ip = owner.ip;
  memcpy (out->procname, owner.name, sizeof out->procname);
  Fields f = { m->decoder, ttv_decoder_get (m->decoder, (guint32) root) };
  return read_arguments (&f, out);
}

gboolean
ttv_ust_field_is_return_address (const char *event_name, const char *field)
{
  if (g_str_equal (field, "call_site"))
    return TRUE;
  return g_str_equal (field, "ip") && !g_str_has_prefix (event_name, "lttng_ust_cyg_profile");
}

void
ttv_ust_build_id_to_hex (const guint8 *id, guint len, char *out)
{
  static const char digits[] = "0123456789abcdef";
  for (guint i = 0; i < len; i++)
    {
      out[2 * i] = digits[id[i] >> 4];
      out[2 * i + 1] = digits[id[i] & 15];
    }
  out[2 * len] = '\0';
}

gboolean
ttv_ust_build_id_from_hex (const char *hex, guint8 *id, guint *len)
{
  gsize n = strlen (hex);
  if (n < 2 || n % 2 != 0 || n > 2 * TTV_UST_MAX_BUILD_ID)
    return FALSE;
  for (gsize i = 0; i < n; i += 2)
    {
      gint hi = g_ascii_xdigit_value (hex[i]), lo = g_ascii_xdigit_value (hex[i + 1]);
      if (hi < 0 || lo < 0)
        return FALSE;
      id[i / 2] = (guint8) (hi << 4 | lo);
    }
  *len = (guint) (n / 2);
  return TRUE;
}
