/* mem-format.h: an in-memory trace format for the engine tests and
 * benchmarks: tracefiles are arrays of (time, type) split into blocks. */
#pragma once

#include "ttv-trace.h"

G_BEGIN_DECLS

/* Every event occupies MEM_EVENT_SIZE bytes of its block: event i of a block
 * is at offset i * MEM_EVENT_SIZE. */
#define MEM_EVENT_SIZE 16

extern const TtvFormatClass mem_format;

/* A trace with @n_types event types named "ev0", "ev1", ... (facility "mem"). */
TtvTrace     *mem_trace_new (const char *name, guint n_types);
/* Appends a tracefile of @n events (times non-decreasing) in blocks of
 * @block_size events.  The arrays are copied. */
TtvTracefile *mem_trace_add_tracefile (TtvTrace *trace, const char *name,
                                       const TtvTime *times, const guint *types,
                                       guint n, guint block_size);
/* Reading event @index fails with a TTV_FORMAT_ERROR_CORRUPT (-1: never). */
void          mem_tracefile_set_corrupt (TtvTracefile *tf, gint64 index);
/* Computes the trace's start and end from its tracefiles. */
void          mem_trace_finish (TtvTrace *trace);

G_END_DECLS
