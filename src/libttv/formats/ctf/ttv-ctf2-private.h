/* ttv-ctf2-private.h: the CTF 2 metadata reader's passes (docs/ctf.md): a
 * JSON text sequence split into fragments, a JSON parser with limits, the
 * validation of fragments and field classes, and their conversion into the
 * model the CTF 1.8 reader builds (CtfMeta and TtvType trees). */
#pragma once

#include "ttv-ctf-private.h"

G_BEGIN_DECLS

/* Limits that hostile metadata cannot get past (each refused with the file
 * and byte offset): nesting of JSON values, and the metadata text size. */
#define CTF2_JSON_MAX_DEPTH 96
#define CTF2_METADATA_MAX_BYTES (G_GUINT64_CONSTANT (256) << 20)

/* --- Pass 1: the JSON text sequence (ttv-ctf2-sequence.c) -------------- */

typedef struct {
  gsize offset;        /* of the fragment's first byte (after RS) in the text */
  gsize len;
  gboolean ended;      /* followed by another RS or ending with a line feed */
} Ctf2Record;

/* TRUE when @text (@len bytes) is a CTF 2 metadata stream: an RS (0x1E)
 * first, perhaps after white space. */
gboolean ttv_ctf2_text_is_json_sequence (const char *text, gsize len);
/* Splits @text at its RS characters (RFC 7464) into records, of
 * Ctf2Record (blank ones left out). */
GArray  *ttv_ctf2_split_sequence (const char *text, gsize len);

/* --- Pass 2: JSON (ttv-ctf2-json.c) ------------------------------------- */

typedef enum {
  CTF2_JSON_NULL,
  CTF2_JSON_BOOL,
  CTF2_JSON_INT,       /* integral, from -2^63 to 2^64 - 1 */
  CTF2_JSON_REAL,      /* any other number */
  CTF2_JSON_STRING,
  CTF2_JSON_ARRAY,
  CTF2_JSON_OBJECT,
} Ctf2JsonKind;

typedef struct _Ctf2Json Ctf2Json;

struct _Ctf2Json {
  Ctf2JsonKind kind;
  gsize offset;                    /* of its first byte in the metadata text */
  union {
    gboolean b;
    struct {
      guint64 magnitude;
      gboolean negative;           /* value is -magnitude */
    } i;
    double d;
    char *s;                       /* owned, UTF-8 without NUL */
    struct {
      Ctf2Json **items;            /* owned */
      guint n;
    } a;
    struct {
      char **keys;                 /* owned, unique */
      Ctf2Json **values;           /* owned */
      guint n;
    } o;
  } v;
};

/* Parses one JSON text, @text[@offset .. @offset + @len), with offsets
 * relative to @text; errors name @path and the byte offset. */
Ctf2Json       *ttv_ctf2_json_parse (const char *text, gsize offset, gsize len, const char *path,
                                     GError **error);
void            ttv_ctf2_json_free (Ctf2Json *json);
/* Member @key of object @obj, or NULL. */
const Ctf2Json *ttv_ctf2_json_get (const Ctf2Json *obj, const char *key);
/* The string of member @key when it is one, else NULL. */
const char     *ttv_ctf2_json_get_string (const Ctf2Json *obj, const char *key);
/* Value of an integer node as signed (FALSE when out of range) / unsigned
 * (FALSE when negative). */
gboolean        ttv_ctf2_json_int (const Ctf2Json *json, gint64 *out);
gboolean        ttv_ctf2_json_uint (const Ctf2Json *json, guint64 *out);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Ctf2Json, ttv_ctf2_json_free)

/* "PATH:LINE:COLUMN (byte offset N)" for messages about @offset of @text. */
char *ttv_ctf2_where (const char *path, const char *text, gsize offset);
/* Sets *@error (when not set yet) to "WHERE: MESSAGE", WHERE as above:
 * the later passes' errors. */
void  ttv_ctf2_set_error_va (GError **error, gint code, const char *path, const char *text, gsize offset,
                             const char *format, va_list ap) G_GNUC_PRINTF (6, 0);

/* --- Pass 3: validation (ttv-ctf2-validate.c) ------------------------- */

/* Checks that @fragment (the object of a record) is a fragment this reader
 * knows, its properties of the right JSON types and values, its field
 * classes complete (the final CTF2-SPEC-2.0 names, and the late-draft
 * ones the ctf2/ test traces use).  Errors name the place (ttv_ctf2_where). */
gboolean ttv_ctf2_validate_fragment (const Ctf2Json *fragment, const char *path, const char *text,
                                     GError **error);

/* --- Pass 4: conversion (ttv-ctf2-convert.c) -------------------------- */

/* Parses CTF 2 metadata @text (a JSON text sequence) into the model the
 * CTF 1.8 reader builds: types finished, roles set, event classes linked to
 * their data stream classes, references resolved.  @path names the
 * metadata in messages.  With @whole_only, a last fragment still being
 * written is left for later (following a live trace). */
CtfMeta *ttv_ctf2_parse (const char *text, gsize len, const char *path, gboolean whole_only,
                         GError **error);

G_END_DECLS
