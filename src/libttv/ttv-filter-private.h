/* ttv-filter-private.h: what the passes of the filter share: tokens
 * (ttv-filter-lexer.c), the syntax tree (ttv-filter-parser.c), the
 * per-event-type programs (ttv-filter-compile.c) and ttv-filter.c. */
#pragma once

#include "ttv-filter.h"
#include "ttv-field-accessor.h"

G_BEGIN_DECLS

/* --- tokens --- */
typedef enum {
  TOK_END,
  TOK_WORD,        /* a name or a bare value: event.name, sched_*, 12, 0x1f, 1.5 */
  TOK_STRING,      /* "quoted", escapes \" \\ */
  TOK_EQ, TOK_NE, TOK_LT, TOK_LE, TOK_GT, TOK_GE,
  TOK_AND, TOK_OR, TOK_NOT,
  TOK_LPAREN, TOK_RPAREN,
  TOK_ERROR,
} TtvFilterTokenKind;

typedef struct {
  TtvFilterTokenKind kind;
  guint column;    /* 1-based */
  char *text;      /* owned: WORD and STRING contents, NULL otherwise */
} TtvFilterToken;

/* Splits @expression into tokens (ending with TOK_END); NULL with @error. */
GArray *ttv_filter_lex (const char *expression, GError **error);
const char *ttv_filter_token_describe (TtvFilterTokenKind kind);
void     ttv_filter_tokens_free (GArray *tokens);

/* --- syntax tree --- */
typedef enum {
  VAR_EVENT_NAME, VAR_EVENT_FACILITY, VAR_EVENT_ID, VAR_EVENT_GROUP, VAR_EVENT_TIME,
  VAR_EVENT_FIELD, VAR_TRACE_NAME, VAR_TRACEFILE_NAME, VAR_CPU,
  VAR_STATE_PID, VAR_STATE_TID, VAR_STATE_PPID, VAR_STATE_PROCESS_NAME, VAR_STATE_EXEC_MODE,
  VAR_STATE_SYSCALL,
} TtvFilterVar;

typedef enum { OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE } TtvFilterOp;

typedef struct {
  char *name;      /* owned, NULL for an index step */
  guint64 index;
} TtvFilterPathStep;

typedef struct {
  char *text;            /* owned: as written (unquoted) */
  gboolean is_glob;      /* contains * or ? (and the operator is = or !=) */
  GPatternSpec *glob;    /* owned when is_glob */
  gboolean has_int;
  gint64 ival;
  gboolean has_time;     /* S, S.N or +S.N */
  gboolean time_relative;/* +S.N: from the start of the event's trace */
  TtvTime tval;
  gboolean has_double;
  double dval;
} TtvFilterLiteral;

typedef enum { NODE_AND, NODE_OR, NODE_NOT, NODE_CMP, NODE_TEST } TtvFilterNodeKind;

typedef struct _TtvFilterNode TtvFilterNode;
struct _TtvFilterNode {
  TtvFilterNodeKind kind;
  TtvFilterNode *a, *b;  /* owned: operands of AND/OR, a of NOT */
  TtvFilterVar var;      /* CMP, TEST */
  GArray *path;          /* owned, of TtvFilterPathStep: VAR_EVENT_FIELD */
  TtvFilterOp op;        /* CMP */
  TtvFilterLiteral lit;  /* CMP */
  guint column;
};

/* Parses tokens into a tree; NULL with @error naming the column. */
TtvFilterNode *ttv_filter_parse (GArray *tokens, const TtvHookGroups *groups, GError **error);
void           ttv_filter_node_free (TtvFilterNode *node);
gboolean       ttv_filter_node_uses_state (const TtvFilterNode *node);

/* --- per-event-type programs --- */
typedef enum {
  FETCH_TIME, FETCH_CPU, FETCH_TRACEFILE_NAME,
  FETCH_STATE_PID, FETCH_STATE_TID, FETCH_STATE_PPID, FETCH_STATE_NAME, FETCH_STATE_MODE,
  FETCH_STATE_SYSCALL,
  FETCH_FIELD_INT,       /* accessor, integer/enum value */
  FETCH_FIELD_STRING,    /* accessor, string/enum label/char array */
  FETCH_FIELD_DECODE,    /* decode the event and walk the path */
} TtvFilterFetch;

typedef enum { PROG_CONST, PROG_AND, PROG_OR, PROG_NOT, PROG_CMP, PROG_TEST } TtvFilterProgKind;

typedef struct {
  guint8 kind;            /* TtvFilterProgKind */
  guint8 fetch;           /* TtvFilterFetch */
  guint8 value;           /* PROG_CONST */
  guint32 a, b;           /* child program nodes */
  const TtvFilterNode *node;  /* weak: op, literal, path */
  TtvFieldAccessor acc;   /* FETCH_FIELD_INT / _STRING */
} TtvFilterProgNode;

typedef struct {
  TtvFilterVerdict verdict;
  GArray *nodes;          /* of TtvFilterProgNode, owned; NULL unless DEPENDS */
  guint32 root;
} TtvFilterProgram;

/* A value read for a comparison. */
typedef enum {
  TTV_FILTER_VAL_NONE,       /* the event has no such thing: comparisons are false */
  TTV_FILTER_VAL_INT,
  TTV_FILTER_VAL_STRING,
  TTV_FILTER_VAL_DOUBLE,
} TtvFilterValKind;

typedef struct {
  TtvFilterValKind kind;
  gint64 i;
  double d;
  const char *s;     /* NUL-terminated */
} TtvFilterVal;

/* The meaning of a comparison or a bare test on a value, shared by the
 * evaluator and by the compiler when it folds a term to a constant. */
gboolean ttv_filter_value_compare (const TtvFilterNode *src, const TtvFilterVal *v);
gboolean ttv_filter_value_test (const TtvFilterVal *v);

/* @tracefile may be NULL: terms about it are then left to evaluation. */
TtvFilterProgram *ttv_filter_program_new (const TtvFilterNode *root, const TtvHookGroups *groups,
                                          const TtvTrace *trace, const TtvTracefile *tracefile,
                                          const TtvEventType *type);
void              ttv_filter_program_free (TtvFilterProgram *program);
/* Comparisons shared by the compiler (constants) and the evaluator. */
gboolean ttv_filter_string_compare (const TtvFilterLiteral *lit, TtvFilterOp op, const char *s);
gboolean ttv_filter_int_compare (TtvFilterOp op, gint64 value, gint64 literal);

G_END_DECLS
