/* ttv-callstack.h: the call stack analysis.  From the function entry and
 * exit events of liblttng-ust-cyg-profile(-fast) (programs built with
 * -finstrument-functions), every call of every thread with its start, end
 * and depth (the flame chart), the calls aggregated by call path (the
 * flame graph, of any interval) and per function (duration statistics);
 * names and lines through the symbolizer.  Threads are the kernel's when a
 * kernel trace of the same machine is in the traceset, else the vtid
 * context's.  Threads, functions and processes are of one trace, so of
 * one machine (docs/multi-machine.md): they say which, and the reports
 * name it when there are several.  The call stack module and ttv-report
 * --analysis callstack show it. */
#pragma once

#include "ttv-analysis.h"
#include "ttv-symbolizer.h"

G_BEGIN_DECLS

extern const TtvAnalysisClass ttv_callstack_analysis;      /* "callstack" */

typedef struct _TtvCallstack TtvCallstack;

/* Flags of a call. */
typedef enum {
  TTV_CALL_BEGAN_BEFORE = 1 << 0,   /* its entry was not traced (before the trace, or lost):
                                     * it starts at the thread's first event */
  TTV_CALL_NO_EXIT = 1 << 1,        /* its exit was not traced (after the trace, lost, or a
                                     * longjmp): it ends at the next event that closed it */
} TtvCallFlags;

#define TTV_CALL_N_FLAG_BITS 2

typedef struct {
  TtvTime start;
  TtvTime end;
  guint32 function;             /* ttv_callstack_get_function() */
  guint32 node;                 /* its call path: ttv_callstack_get_node() */
  guint flags;                  /* TtvCallFlags */
  guint hidden;                 /* ttv_callstack_query_calls() with a resolution: the calls
                                 * after this one left out because they fell in its slot */
} TtvCallstackCall;

typedef struct {
  guint32 tid;                  /* thread (kernel tid or vtid); TTV_PID_NONE: unknown (no vtid context) */
  guint32 pid;                  /* its process; TTV_PID_NONE: unknown */
  const char *name;             /* the thread's name ("" when unknown) */
  guint trace;                  /* the trace its events are in */
  guint machine;                /* that trace's machine (ttv_traceset_get_machine_name()) */
  guint n_depths;               /* rows of the flame chart */
  guint64 n_calls;
  TtvTime first;                /* its first and last cyg-profile events */
  TtvTime last;
} TtvCallstackThread;

typedef struct {
  guint64 addr;                 /* the run-time address of the function */
  const char *name;             /* the function's name, or its address in hex ("0x401b23") */
  gboolean resolved;            /* @name is a symbol */
  const char *file;             /* source file of its first line, NULL: unknown */
  guint line;
  const char *binary;           /* the binary it is in, NULL: no binary known there */
  guint32 pid;                  /* the process it is in (TTV_PID_NONE: unknown) */
  guint machine;                /* that process's machine */
} TtvCallstackFunction;

/* A node of the call path tree: the roots are the processes, their
 * children the outermost functions, and so on.  With several machines a
 * process's name says its machine ("beta: prog"). */
typedef struct {
  guint32 parent;               /* G_MAXUINT32 for a process's root */
  guint32 function;             /* G_MAXUINT32 for a process's root */
  guint depth;                  /* 0: a process; 1: its outermost calls */
  const char *name;             /* function (or process) name */
  gboolean recursive;           /* the function is also an ancestor: its time is counted there */
} TtvCallstackNode;

TtvCallstack *ttv_callstack_from_analysis (const TtvAnalysis *analysis);   /* borrowed */

guint       ttv_callstack_get_n_threads (const TtvCallstack *cs);
const TtvCallstackThread *ttv_callstack_get_thread (const TtvCallstack *cs, guint thread);
/* The thread with this tid on @machine, or -1. */
gint        ttv_callstack_find_thread (const TtvCallstack *cs, guint machine, guint32 tid);
guint       ttv_callstack_get_n_functions (const TtvCallstack *cs);
const TtvCallstackFunction *ttv_callstack_get_function (const TtvCallstack *cs, guint32 function);
guint       ttv_callstack_get_n_nodes (const TtvCallstack *cs);
const TtvCallstackNode *ttv_callstack_get_node (const TtvCallstack *cs, guint32 node);
guint64     ttv_callstack_get_n_calls (const TtvCallstack *cs);
/* Exits that did not match the innermost open call (lost events, longjmp). */
guint64     ttv_callstack_get_n_mismatches (const TtvCallstack *cs);
TtvSymbolizer *ttv_callstack_get_symbolizer (const TtvCallstack *cs);   /* borrowed */

/* The calls of @thread at @depth overlapping [@t0, @t1], in time order
 * (of TtvCallstackCall).  @resolution > 0 thins them for drawing: of the
 * calls shorter than @resolution within one @resolution-wide slot only the
 * first is kept, so a window costs O(slots * log calls) at any zoom. */
GArray     *ttv_callstack_query_calls (const TtvCallstack *cs, guint thread, guint depth, TtvTime t0,
                                       TtvTime t1, TtvTime resolution);
/* The call of @thread at @depth running at @time. */
gboolean    ttv_callstack_get_call_at (const TtvCallstack *cs, guint thread, guint depth, TtvTime time,
                                       TtvCallstackCall *out);
/* The whole stack of @thread at @time, outermost first (of TtvCallstackCall). */
GArray     *ttv_callstack_dup_stack_at (const TtvCallstack *cs, guint thread, TtvTime time);

/* --- Aggregates over an interval ----------------------------------------------- */

/* Per call path node, over [@t0, @t1] (the part of each call inside it):
 * calls, total and self time.  Indexed by node id; roots total their
 * threads' time in calls. */
typedef struct {
  guint64 calls;
  TtvTime total;
  TtvTime self;
  guint64 incomplete;           /* calls among @calls with TTV_CALL_BEGAN_BEFORE / _NO_EXIT */
} TtvCallstackNodeStats;

/* @threads: of guint thread indexes to count, NULL for all.  Transfer full
 * (of TtvCallstackNodeStats, one per node). */
GArray     *ttv_callstack_dup_node_stats (const TtvCallstack *cs, TtvTime t0, TtvTime t1, GArray *threads);

/* Per function, over the calls inside [@t0, @t1] (whole calls: a call cut
 * by the interval counts with its part inside for total and self, and not
 * in min / max / percentiles). */
typedef struct {
  guint32 function;
  guint64 calls;
  guint64 incomplete;           /* calls with TTV_CALL_BEGAN_BEFORE / _NO_EXIT */
  TtvTime total;                /* outermost calls only: a recursive call is within its caller's */
  TtvTime self;
  TtvTime min, max;             /* of whole calls (-1 when none) */
  double mean;
  TtvTime p50, p90, p99;
} TtvCallstackFunctionStats;

/* Sorted by total time, largest first; transfer full. */
GArray     *ttv_callstack_dup_function_stats (const TtvCallstack *cs, TtvTime t0, TtvTime t1, GArray *threads);

/* The path of @node from its process's root, names joined with @separator
 * ("prog;main;top" with ";").  Transfer full. */
char       *ttv_callstack_dup_path (const TtvCallstack *cs, guint32 node, const char *separator);

G_END_DECLS
