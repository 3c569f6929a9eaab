/* ttv-callstack-private.h: the call stack analysis' data, shared by the
 * pass that builds it (ttv-callstack.c), its queries
 * (ttv-callstack-query.c) and its reports (ttv-callstack-report.c). */
#pragma once

#include "ttv-callstack.h"
#include "ttv-ust-model.h"

G_BEGIN_DECLS

/* One call as stored: 24 bytes. */
typedef struct {
  TtvTime start;
  TtvTime end;
  guint32 function_flags;       /* function << TTV_CALL_N_FLAG_BITS | TtvCallFlags */
  guint32 node;
} Call;

#define CALL_FUNCTION(c) ((c)->function_flags >> TTV_CALL_N_FLAG_BITS)
#define CALL_FLAGS(c) ((c)->function_flags & ((1u << TTV_CALL_N_FLAG_BITS) - 1))

/* A call not yet returned. */
typedef struct {
  guint64 addr;
  TtvTime start;
  guint32 function;
  guint flags;
} Frame;

typedef struct {
  TtvCallstackThread pub;
  gint64 vpid;                  /* the process as the trace's contexts name it (symbols) */
  char *name;                   /* owned: pub.name */
  GArray *frames;               /* of Frame, owned: open calls, outermost first; NULL once finished */
  gint floor;                   /* depth of frames[0] (< 0 after exits of calls begun before) */
  GPtrArray *levels;            /* of GArray of Call, owned: depth floor_min + i */
  GPtrArray *below;             /* of GArray of Call, owned: depth -1 - i, merged into levels at the end */
  guint32 root;                 /* its process's root node */
} Thread;

typedef struct {
  TtvCallstackFunction pub;
  guint trace;
  gint64 vpid;
  TtvTime first_seen;
} Function;

typedef struct {
  TtvCallstackNode pub;
  char *owned_name;             /* process roots: owned; functions: NULL (pub.name is the function's) */
} Node;

struct _TtvCallstack {
  TtvTraceset *traceset;        /* owned reference */
  TtvAnalysisPass *pass;        /* weak: during the pass only */
  TtvUstModel *model;           /* owned; NULL after finish */
  TtvSymbolizer *symbolizer;    /* owned */
  GPtrArray *threads;           /* of Thread *, owned, in order of appearance */
  GHashTable *thread_index;     /* ThreadKey -> index + 1 */
  GArray *functions;            /* of Function */
  GHashTable *function_index;   /* FunctionKey -> index + 1, owned keys */
  GArray *nodes;                /* of Node */
  GArray *machine_binaries;     /* of guint64, owned, sorted: machine << 32 | binary (its index in
                                 * ttv_symbolizer_list_binaries()), for each binary some traced
                                 * function of the machine lies in; NULL before the end */
  guint64 n_calls;
  guint64 n_mismatches;
  GStringChunk *strings;        /* owned: names */
};

/* A GDestroyNotify for arrays of arrays that may hold NULL. */
void ttv_callstack_free_array (gpointer array);
/* Merges each thread's levels and builds the call path tree (ttv-callstack.c). */
void ttv_callstack_finish_threads (TtvCallstack *cs, TtvTime end);
/* The report writer (ttv-callstack-report.c). */
gboolean ttv_callstack_write (gpointer self, TtvAnalysisFormat format, const TtvAnalysisOptions *options,
                              GString *out, GError **error);

G_END_DECLS
