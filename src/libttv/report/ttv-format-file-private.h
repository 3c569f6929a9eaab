/* ttv-format-file-private.h: the parsed form of a format file, shared by
 * the parser (ttv-format-file-parser.c) and the renderer (ttv-format-file.c). */
#pragma once

#include "ttv-format-file.h"

G_BEGIN_DECLS

typedef enum {
  PIECE_TEXT,        /* literal text */
  PIECE_FIELD,       /* {path} or {path#x} */
  PIECE_VAR,         /* {$name} ... */
  PIECE_COND,        /* {path?V:TEXT|V:TEXT|*:TEXT} */
} TtvFormatPieceKind;

typedef struct {
  TtvFormatPieceKind kind;
  char *text;            /* owned: TEXT, or the field path / variable name */
  gboolean hex;          /* FIELD: print integers as 0x hex */
  GPtrArray *cases;      /* COND: of TtvFormatCase *, owned */
} TtvFormatPiece;

typedef struct {
  char *pattern;         /* owned, NULL for the '*' case */
  GArray *pieces;        /* of TtvFormatPiece, owned */
} TtvFormatCase;

typedef struct {
  GPtrArray *patterns;   /* of char *, owned: event names, globs or ids */
  GArray *pieces;        /* of TtvFormatPiece, owned */
  guint line;
} TtvFormatTemplate;

struct _TtvFormatFile {
  GPtrArray *templates;  /* of TtvFormatTemplate *, owned, file order */
  TtvFormatTemplate *default_template;  /* owned, may be NULL */
  GPtrArray *timers;     /* of char * pairs (start, end), owned */
  GHashTable *cache;     /* TtvEventType * -> TtvFormatTemplate * (weak) or &no_template */
  GString *scratch;      /* owned */
};

void ttv_format_pieces_free (GArray *pieces);
void ttv_format_template_free (TtvFormatTemplate *t);

G_END_DECLS
