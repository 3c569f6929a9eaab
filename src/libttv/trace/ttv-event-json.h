/* ttv-event-json.h: an event's members as ttv-report's jsonl lines write
 * them, shared by its general writer (decoded nodes) and the formats that
 * write them straight from the bytes (ttv_event_append_jsonl_scopes). */
#pragma once

#include "ttv-decoder.h"

G_BEGIN_DECLS

/* How a member's value is written (ttv_event_json_append_value). */
typedef enum {
  TTV_EVENT_JSON_UNSIGNED,   /* an integer (not a boolean): its decimal number */
  TTV_EVENT_JSON_SIGNED,
  TTV_EVENT_JSON_STRING,
  TTV_EVENT_JSON_TEXT,       /* a text array: a string up to its first NUL */
  TTV_EVENT_JSON_VALUE,      /* anything else: the decoder's JSON */
} TtvEventJsonKind;

/* The kind of a value of @type. */
TtvEventJsonKind ttv_event_json_kind_of (const TtvType *type);

/* Appends @v (of a type of @kind) as a JSON value; @decoder holds its
 * children (NULL for a value without any). */
void ttv_event_json_append_value (GString *out, const TtvDecoder *decoder, const TtvValue *v,
                                  TtvEventJsonKind kind);

/* A member's key made once: ",\"name\":" (the comma becomes '{' for the
 * first member), newly allocated, its length in *len. */
char *ttv_event_json_key_new (const char *name, gsize *len);

G_END_DECLS
