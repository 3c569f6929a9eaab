/* ttv-viewer-userspace.h: the userspace analyses of a tab as viewer
 * modules read them: the call stacks of the threads (flame chart, flame
 * graph, function statistics), the memory of the processes (bytes in use,
 * leaks), and the names of the addresses userspace events carry (the event
 * list's symbol columns).  They run in a worker thread the first time a
 * module asks for them; "userspace-ready" announces each result.  The types
 * here are the SDK's own.  Part of the installed SDK: include ttv-viewer.h. */
#pragma once

#include "ttv-viewer-types.h"

G_BEGIN_DECLS

/* --- Running them ------------------------------------------------------------------
 * Signal "userspace-ready" (no argument): a result below became available
 * (or, after "traceset-changed", they were all dropped: ask again).
 * Symbols are looked for as ttv-report --analysis does (the recorded paths,
 * /usr/lib/debug), after the directories of the "symbol-directories"
 * setting when the schema has it. */

typedef enum {
  TTV_VIEWER_USERSPACE_CALLSTACKS,
  TTV_VIEWER_USERSPACE_MEMORY,
  TTV_VIEWER_USERSPACE_SYMBOLS,
} TtvViewerUserspaceAnalysis;

/* Starts @analysis in a worker thread unless it ran or runs; TRUE when
 * its result is there. */
gboolean    ttv_tab_state_request_userspace (TtvTabState *state, TtvViewerUserspaceAnalysis analysis);
/* Its progress while it runs, 0..1 (1 when done, 0 when not started). */
double      ttv_tab_state_get_userspace_progress (TtvTabState *state, TtvViewerUserspaceAnalysis analysis);
/* The error that stopped it, or NULL (borrowed until it runs again). */
const GError *ttv_tab_state_get_userspace_error (TtvTabState *state, TtvViewerUserspaceAnalysis analysis);
/* Runs it here and now unless it is there (a render has nothing else to
 * do); FALSE with @error when it fails. */
gboolean    ttv_tab_state_compute_userspace (TtvTabState *state, TtvViewerUserspaceAnalysis analysis,
                                             GCancellable *cancellable, GError **error);

/* --- Call stacks (TTV_VIEWER_USERSPACE_CALLSTACKS) -------------------------------------
 * From lttng_ust_cyg_profile(_fast) events: every call of every thread at
 * its depth.  Immutable: safe to read from any thread while referenced;
 * the strings it gives live as long as it does. */

typedef struct _TtvViewerCallstacks TtvViewerCallstacks;

/* Transfer full, NULL until it ran. */
TtvViewerCallstacks *ttv_tab_state_dup_callstacks (TtvTabState *state);
TtvViewerCallstacks *ttv_viewer_callstacks_ref (TtvViewerCallstacks *callstacks);
void        ttv_viewer_callstacks_unref (TtvViewerCallstacks *callstacks);

typedef struct {
  guint32 tid;                 /* the kernel's tid, else the vtid; TTV_VIEWER_PID_NONE: unknown */
  guint32 pid;                 /* its process, TTV_VIEWER_PID_NONE: unknown */
  const char *name;            /* "" when unknown */
  guint n_depths;              /* rows of its flame chart */
  guint64 n_calls;
  TtvTime first, last;         /* its first and last function events */
  guint32 machine;             /* its machine (ttv_tab_state_get_machine_name(); SDK 15) */
} TtvViewerCallstackThread;

typedef enum {
  TTV_VIEWER_CALL_BEGAN_BEFORE = 1 << 0,  /* its entry is not in the trace: it starts at the
                                           * thread's first event */
  TTV_VIEWER_CALL_NO_EXIT = 1 << 1,       /* its exit is not in the trace */
} TtvViewerCallFlags;

typedef struct {
  TtvTime start, end;
  guint32 function;            /* ttv_viewer_callstacks_get_function() */
  guint32 node;                /* its call path in the flame graph's nodes */
  guint flags;                 /* TtvViewerCallFlags */
  guint hidden;                /* with a resolution: calls left out after it in its slot */
} TtvViewerCall;

typedef struct {
  guint64 addr;
  const char *name;            /* the symbol, else "libfoo.so+0x3c8", else the address in hex */
  gboolean resolved;
  const char *file;            /* NULL: unknown */
  guint line;
  const char *binary;          /* NULL: no binary known there */
  guint32 machine;             /* the machine of the process it is in (SDK 15) */
} TtvViewerFunction;

guint       ttv_viewer_callstacks_get_n_threads (TtvViewerCallstacks *callstacks);
gboolean    ttv_viewer_callstacks_get_thread (TtvViewerCallstacks *callstacks, guint thread,
                                              TtvViewerCallstackThread *out);
gboolean    ttv_viewer_callstacks_get_function (TtvViewerCallstacks *callstacks, guint32 function,
                                                TtvViewerFunction *out);
/* The calls of @thread at @depth overlapping [@t0, @t1], in time order
 * (of TtvViewerCall, transfer full); @resolution > 0 keeps the first call
 * of each slot that wide (the others counted in its hidden): a window
 * costs O(slots * log calls) at any zoom. */
GArray     *ttv_viewer_callstacks_query_calls (TtvViewerCallstacks *callstacks, guint thread, guint depth,
                                               TtvTime t0, TtvTime t1, TtvTime resolution);
/* The calls running at @time, outermost first (of TtvViewerCall). */
GArray     *ttv_viewer_callstacks_dup_stack_at (TtvViewerCallstacks *callstacks, guint thread, TtvTime time);

/* The flame graph of [@t0, @t1]: one entry per node of the call path
 * tree, in node order (roots: the processes, parent TTV_VIEWER_NO_NODE),
 * with the part of each call inside the interval; @threads (of guint, may
 * be NULL: all) restricts it.  Transfer full, of TtvViewerFlameNode. */
#define TTV_VIEWER_NO_NODE G_MAXUINT32
typedef struct {
  guint32 parent;              /* TTV_VIEWER_NO_NODE for a process */
  guint32 function;            /* TTV_VIEWER_NO_NODE for a process */
  guint depth;                 /* 0: a process */
  const char *name;
  guint64 calls;
  TtvTime total;               /* a process: its threads' time in calls */
  TtvTime self;
} TtvViewerFlameNode;
GArray     *ttv_viewer_callstacks_dup_flame_graph (TtvViewerCallstacks *callstacks, TtvTime t0, TtvTime t1,
                                                   GArray *threads);

/* Per function over the calls inside [@t0, @t1], by total time, largest
 * first (of TtvViewerFunctionStats, transfer full). */
typedef struct {
  guint32 function;
  guint64 calls;
  guint64 incomplete;          /* calls begun before or without exit */
  TtvTime total;               /* outermost calls of a recursive function only */
  TtvTime self;
  TtvTime min, max;            /* of the calls wholly inside; -1: none */
  double mean;
  TtvTime p50, p90, p99;
} TtvViewerFunctionStats;
GArray     *ttv_viewer_callstacks_dup_function_stats (TtvViewerCallstacks *callstacks, TtvTime t0, TtvTime t1,
                                                      GArray *threads);

/* --- Memory (TTV_VIEWER_USERSPACE_MEMORY) --------------------------------------------
 * From the libc wrapper's events: per process, the bytes in use over time
 * and the blocks never freed.  Immutable, as above. */

typedef struct _TtvViewerMemory TtvViewerMemory;

TtvViewerMemory *ttv_tab_state_dup_memory (TtvTabState *state);
TtvViewerMemory *ttv_viewer_memory_ref (TtvViewerMemory *memory);
void        ttv_viewer_memory_unref (TtvViewerMemory *memory);

typedef struct {
  guint32 pid;                 /* TTV_VIEWER_PID_NONE: unknown */
  const char *name;
  guint64 n_allocations, n_frees, n_unknown_frees, n_failures;
  guint64 bytes_allocated, peak, in_use_at_end;
  TtvTime peak_time;
  guint64 n_leaks;             /* blocks never freed that the program allocated */
  TtvTime first, last;
  guint32 machine;             /* its machine (ttv_tab_state_get_machine_name(); SDK 15) */
  TtvTime traced_from;         /* the span of its trace, where its usage is known (SDK 15) */
  TtvTime traced_to;
} TtvViewerMemoryProcess;

guint       ttv_viewer_memory_get_n_processes (TtvViewerMemory *memory);
gboolean    ttv_viewer_memory_get_process (TtvViewerMemory *memory, guint process, TtvViewerMemoryProcess *out);
/* Bytes in use after every event at or before @time. */
guint64     ttv_viewer_memory_get_usage_at (TtvViewerMemory *memory, guint process, TtvTime time);
/* The least and most bytes in use within each of @width pixels splitting
 * [@t0, @t1) evenly: O(@width) at any zoom.  A pixel wholly outside
 * traced_from..traced_to gets @min G_MAXUINT64 and @max 0: not known
 * there (SDK 15). */
void        ttv_viewer_memory_query_usage (TtvViewerMemory *memory, guint process, TtvTime t0, TtvTime t1,
                                           guint width, guint64 *min, guint64 *max);

typedef struct {
  guint process;
  guint64 blocks, bytes;
  TtvTime first, last;         /* the first and last of those allocations */
  const char *site;            /* "make_leak+0x17 (prog.c:60)", "in parse", "outside the traced functions" */
  const char *function, *file; /* NULL: unknown */
  guint line;
  gboolean runtime;            /* kept by the dynamic loader or the tracer: not the program's */
} TtvViewerLeak;

/* The blocks never freed by call site and process, most bytes first (of
 * TtvViewerLeak, transfer full). */
GArray     *ttv_viewer_memory_dup_leaks (TtvViewerMemory *memory);

/* --- Symbols (TTV_VIEWER_USERSPACE_SYMBOLS) -------------------------------------------- */

/* The name of the address in @event's field or context member @field
 * ("ip": where the traced call returns to, named with the call's line;
 * of a cyg-profile event, the function itself; "addr", "call_site"):
 * "main+0x26 (prog.c:11)", "libfoo.so+0x3c8", or the address in hex.
 * NULL when the event has no such integer, or the symbols are not there
 * yet (it asks for them).  Main thread only; caller frees. */
char       *ttv_tab_state_dup_event_symbol (TtvTabState *state, const TtvViewerEvent *event, const char *field);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvViewerCallstacks, ttv_viewer_callstacks_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvViewerMemory, ttv_viewer_memory_unref)

G_END_DECLS
