/* ttv-filter-private.h: what the passes of the filter share: tokens
 * (ttv-filter-lexer.c), the syntax tree (ttv-filter-parser.c), the
 * per-event-type programs (ttv-filter-compile.c) and ttv-filter.c. */
#pragma once

#include "ttv-filter.h"
#include "ttv-field-accessor.h"
#include "ttv-traceset.h"

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
  VAR_EVENT_FIELD, VAR_EVENT_CONTEXT, VAR_TRACE_NAME, VAR_TRACE_HOST, VAR_TRACEFILE_NAME, VAR_CPU,
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
  GArray *path;          /* owned, of TtvFilterPathStep: VAR_EVENT_FIELD, VAR_EVENT_CONTEXT */
  TtvFilterOp op;        /* CMP */
  TtvFilterLiteral lit;  /* CMP */
  guint column;
};

/* Parses tokens into a tree; NULL with @error naming the column. */
TtvFilterNode *ttv_filter_parse (GArray *tokens, const TtvHookGroups *groups, GError **error);
void           ttv_filter_node_free (TtvFilterNode *node);
gboolean       ttv_filter_node_uses_state (const TtvFilterNode *node);

/* --- per-(tracefile, event type) programs --- */
/* First the syntax tree is folded for the type (TtvFilterProgNode, a tree
 * that lives during compilation only)... */
typedef enum {
  FETCH_TIME, FETCH_CPU, FETCH_TRACEFILE_NAME,
  FETCH_STATE_PID, FETCH_STATE_TID, FETCH_STATE_PPID, FETCH_STATE_NAME, FETCH_STATE_MODE,
  FETCH_STATE_SYSCALL,
  FETCH_FIELD_INT,       /* accessor, integer/enum value */
  FETCH_FIELD_STRING,    /* accessor, string/enum label/char array */
  FETCH_FIELD_DECODE,    /* decode the event and walk the path */
  FETCH_CONTEXT,         /* decode the CTF contexts and walk the path in the first that has it */
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

/* ...then flattened into instructions that each read one
 * value, test it against a range and jump: no recursion, no stack, and
 * each comparison specialised to what the field's layout allows. */
typedef enum {
  INS_INT8, INS_INT16, INS_INT32, INS_INT64,  /* byte-aligned integer at a fixed offset */
  INS_INT_BITS,     /* any other integer at a fixed offset */
  INS_FLOAT32, INS_FLOAT64,  /* byte-aligned float at a fixed offset */
  INS_ENUM_LABEL,   /* enum at a fixed offset compared by label: verdict per mapping */
  INS_STRING,       /* NUL-terminated string at a fixed offset */
  INS_CHARS,        /* char array at a fixed offset */
  INS_TIME,         /* event time */
  INS_TIME_REL,     /* event time from the start of its trace */
  INS_STATE_INT,    /* state.pid, tid, ppid of the running process (fetch says which) */
  INS_STATE_NAME,   /* state.process_name: the verdict of each name, memoized by quark */
  INS_STATE_MODE,   /* state.exec_mode: the verdict of each mode, by table */
  INS_GENERIC,      /* fetch () and compare as the reference does */
} TtvFilterOpcode;

/* How a string instruction turns text into the value it tests. */
typedef enum {
  STR_ORDER,        /* sign of the byte comparison with the literal */
  STR_LENGTH,       /* the length (bare test: non-empty) */
  STR_PREFIX,       /* glob "abc*": 1 when it matches */
  STR_SUFFIX,       /* glob "*abc" */
  STR_BYTES,        /* other ASCII glob: ttv_glob_match_bytes on ASCII text */
  STR_PATTERN,      /* any other glob: ttv_filter_glob_match */
} TtvFilterStrMatch;

#define TTV_FILTER_PC_REJECT  (G_MAXUINT32 - 1)
#define TTV_FILTER_PC_ACCEPT  G_MAXUINT32

typedef struct {
  guint8 code;            /* TtvFilterOpcode */
  guint8 invert;          /* the range test is negated (!=, bare tests) */
  guint8 swap;            /* INT/FLOAT: bytes in the other order than the machine's */
  guint8 shift;           /* INT: 64 - size for signed (sign extension), else 0 */
  guint8 str_match;       /* STRING, CHARS: TtvFilterStrMatch */
  guint8 is_test;         /* GENERIC, FLOAT: a bare test */
  guint8 fetch;           /* GENERIC: TtvFilterFetch */
  guint8 order;           /* INT_BITS, ENUM_LABEL: TtvByteOrder */
  guint32 on_true, on_false;  /* next instruction, or TTV_FILTER_PC_ACCEPT / _REJECT */
  guint32 payload_align;  /* alignment of the payload struct */
  guint32 size_bits;      /* INT_BITS, ENUM_LABEL; CHARS: the array length in bytes */
  guint32 align_bits;     /* STRING, CHARS: alignment of the text */
  guint64 offset_bits;    /* from the aligned payload start */
  guint64 end_bits;       /* offset_bits + size: the event must hold that much */
  gint64 lo;              /* the value passes when lo <= value <= lo + span */
  guint64 span;
  double k;               /* FLOAT: the literal */
  const TtvType *type;    /* weak: ENUM_LABEL */
  guint8 *label_ok;       /* owned: ENUM_LABEL, the verdict for each mapping */
  guint8 *dense;          /* owned: ENUM_LABEL, by raw value below dense_len: 0 no label,
                           * 1 the label fails, 2 it passes */
  guint32 dense_len;
  guint8 bytes;           /* ENUM_LABEL: load width when byte-aligned (1, 2, 4, 8), else 0 */
  guint8 *memo;           /* owned: STATE_NAME, by quark: 0 not seen, 1 fails, 2 passes;
                           * STATE_MODE, by mode: 1 fails, 2 passes */
  guint32 memo_len;
  const char *text;       /* weak: STRING, CHARS: the literal or the glob's fixed part */
  guint32 text_len;
  const TtvFilterNode *node;  /* weak: GENERIC, STR_BYTES, STR_PATTERN */
  TtvFieldAccessor acc;   /* GENERIC: FETCH_FIELD_INT / _STRING */
} TtvFilterInsn;

typedef struct {
  TtvFilterVerdict verdict;
  GArray *code;           /* of TtvFilterInsn, owned; NULL unless DEPENDS */
  const TtvFilterInsn *insns;  /* code->data */
  guint32 entry;
  gboolean decodes;       /* some instruction decodes the event's fields */
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

/* Times between two of a filter's time literals (inclusive): every
 * event.time term has one value for all of them, so it folds away. */
typedef struct {
  TtvTime lo, hi;
} TtvFilterTimeWindow;

/* @tracefile may be NULL: terms about it are then left to evaluation; so
 * are time terms when @window is NULL. */
TtvFilterProgram *ttv_filter_program_new (const TtvFilterNode *root, const TtvHookGroups *groups,
                                          const TtvTrace *trace, const TtvTracefile *tracefile,
                                          const TtvEventType *type, const TtvFilterTimeWindow *window);
void              ttv_filter_program_free (TtvFilterProgram *program);
void              ttv_filter_program_free_code (GArray *code);
/* Comparisons shared by the compiler (constants) and the evaluator. */
gboolean ttv_filter_string_compare (const TtvFilterLiteral *lit, TtvFilterOp op, const char *s);
gboolean ttv_filter_int_compare (TtvFilterOp op, gint64 value, gint64 literal);
/* Index of the mapping ttv_type_enum_label() would take the label of, or -1. */
gint     ttv_filter_enum_mapping (const TtvType *enum_type, guint64 raw);
/* A glob ('*' and '?') against @len bytes, byte by byte: the meaning
 * GPatternSpec has on ASCII text. */
/* A glob literal against text NUL-terminated at @len: GPatternSpec, or
 * bytes for text that is not valid UTF-8. */
gboolean ttv_filter_glob_match (const TtvFilterLiteral *lit, const char *s, gsize len);

/* The slow and simple meaning of a filter: walks the syntax tree for each
 * event, decoding fields; the tests check the compiled programs against it. */
gboolean ttv_filter_matches_reference (TtvFilter *filter, const TtvEvent *event, const TtvState *state);

G_END_DECLS
