/* ttv-memory-analysis.h: the memory analysis.  From the libc wrapper's
 * events (LD_PRELOAD=liblttng-ust-libc-wrapper.so: malloc, calloc,
 * realloc, memalign, posix_memalign, free), the bytes each process has
 * allocated and not freed over time, and the potential leaks: the blocks
 * still allocated when the trace ends, grouped by call site (the ip
 * context, else the innermost traced function of the thread).  Sizes are
 * what the program asked for, not what the allocator took.  A process is
 * of one trace, so of one machine (docs/multi-machine.md): the reports
 * name it when there are several.  The memory module and ttv-report
 * --analysis memory show it. */
#pragma once

#include "ttv-analysis.h"
#include "ttv-symbolizer.h"

G_BEGIN_DECLS

extern const TtvAnalysisClass ttv_memory_analysis;         /* "memory" */

typedef struct _TtvMemory TtvMemory;

typedef struct {
  guint32 pid;                  /* TTV_PID_NONE: unknown (no vpid context) */
  guint trace;
  guint machine;                /* its trace's machine (ttv_traceset_get_machine_name()) */
  TtvTime traced_from;          /* its trace's span: outside it, its usage is not known */
  TtvTime traced_to;
  const char *name;             /* "" when unknown */
  guint64 n_allocations;        /* successful malloc, calloc, memalign, posix_memalign, and
                                 * realloc of NULL */
  guint64 n_reallocations;      /* realloc of a block */
  guint64 n_frees;              /* free of a known block (and realloc to 0) */
  guint64 n_unknown_frees;      /* free of a block allocated before the trace (or untraced) */
  guint64 n_failures;           /* allocations that returned NULL or an error */
  guint64 bytes_allocated;      /* all the bytes asked for */
  guint64 peak;                 /* the most bytes in use at once */
  TtvTime peak_time;
  guint64 in_use_at_end;        /* bytes still allocated at the end */
  guint64 n_leaks;              /* blocks still allocated at the end that the program
                                 * allocated: the potential leaks */
  guint64 n_kept_blocks;        /* blocks still allocated at the end that the loader or the
                                 * tracer allocated */
  guint64 kept_bytes;
  TtvTime first;                /* its first and last libc events */
  TtvTime last;
} TtvMemoryProcess;

/* Who a call site's code belongs to. */
typedef enum {
  TTV_MEMORY_OWNER_PROGRAM,     /* the program and its libraries (libc included: strdup...) */
  TTV_MEMORY_OWNER_LOADER,      /* the dynamic loader (ld-linux*.so): its own bookkeeping for
                                 * dlopen and threads, which the program cannot free */
  TTV_MEMORY_OWNER_TRACER,      /* LTTng-UST's own libraries (liblttng-ust*) */
} TtvMemoryOwner;

/* Where blocks were allocated. */
typedef enum {
  TTV_MEMORY_SITE_UNKNOWN,      /* no ip context and no traced function */
  TTV_MEMORY_SITE_IP,           /* the ip context: the call's return address */
  TTV_MEMORY_SITE_FUNCTION,     /* the innermost function the thread was in (cyg-profile) */
} TtvMemorySiteKind;

typedef struct {
  TtvMemorySiteKind kind;
  guint64 addr;                 /* the ip, or the function's address */
  const char *name;             /* "main+0x2a (prog.c:14)", "in main", "0x7f3c…", or "unknown" */
  gboolean resolved;            /* a symbol names it */
  const char *function;         /* NULL: unknown */
  const char *file;             /* NULL: unknown */
  guint line;
  const char *binary;           /* NULL: no binary known there */
  TtvMemoryOwner owner;         /* known from the binary, so for ip sites only */
} TtvMemorySite;

/* A block never freed. */
typedef struct {
  guint64 ptr;
  guint64 size;
  TtvTime time;                 /* when it was allocated */
  guint32 tid;
  guint32 site;                 /* ttv_memory_get_site() */
  guint process;                /* ttv_memory_get_process() index */
} TtvMemoryLeak;

/* The leaks of one call site in one process. */
typedef struct {
  guint process;
  guint32 site;
  guint64 count;
  guint64 bytes;
  TtvTime first, last;          /* the first and last of those allocations */
} TtvMemoryLeakGroup;

typedef struct {
  TtvTime time;
  guint64 bytes;                /* in use from @time on */
} TtvMemoryPoint;

TtvMemory  *ttv_memory_from_analysis (const TtvAnalysis *analysis);   /* borrowed */

guint       ttv_memory_get_n_processes (const TtvMemory *memory);
const TtvMemoryProcess *ttv_memory_get_process (const TtvMemory *memory, guint process);
/* The first process with this pid on @machine, or -1. */
gint        ttv_memory_find_process (const TtvMemory *memory, guint machine, guint32 pid);
guint       ttv_memory_get_n_sites (const TtvMemory *memory);
const TtvMemorySite *ttv_memory_get_site (const TtvMemory *memory, guint32 site);
TtvSymbolizer *ttv_memory_get_symbolizer (const TtvMemory *memory);   /* borrowed */

/* Bytes in use at @time (after every event at or before it). */
guint64     ttv_memory_get_usage_at (const TtvMemory *memory, guint process, TtvTime time);
/* For each of @width pixels splitting [t0, t1) evenly, the least and most
 * bytes in use within it: O(width * log points) at any zoom.  A pixel
 * wholly outside the process's trace (traced_from..traced_to: before its
 * capture, or in a later capture's time) gets @min G_MAXUINT64 and @max 0:
 * nothing is known there. */
void        ttv_memory_query_usage (const TtvMemory *memory, guint process, TtvTime t0, TtvTime t1,
                                    guint width, guint64 *min, guint64 *max);
/* The changes of usage in [t0, t1], with the value at t0 first (of
 * TtvMemoryPoint); transfer full. */
GArray     *ttv_memory_dup_usage (const TtvMemory *memory, guint process, TtvTime t0, TtvTime t1);
/* Every block never freed (of TtvMemoryLeak), by process then time; the
 * loader's and the tracer's (TtvMemorySite.owner) included. */
GArray     *ttv_memory_dup_leaks (const TtvMemory *memory);
/* The leaks per call site and process, most bytes first (of
 * TtvMemoryLeakGroup); the loader's and the tracer's included. */
GArray     *ttv_memory_dup_leak_groups (const TtvMemory *memory);

G_END_DECLS
