/* ttv-bench-chunked-read.h: a traceset read on several threads, each
 * taking slices of its time in turn, every event of a slice read (and
 * decoded) by one context: what a program that decodes a trace on every
 * core can do with libttv, reported beside the read on one thread. */
#pragma once

#include "ttv-traceset.h"

G_BEGIN_DECLS

typedef struct {
  guint64 events;          /* read, over every slice: the one-thread read's count */
  guint slices;
} TtvBenchChunkedRead;

/* Reads every event of @ts on @n_threads threads (1 to 64), decoding its
 * fields with @decode, into @out (the caller times the call).  FALSE with
 * @error where a read fails. */
gboolean ttv_bench_chunked_read (TtvTraceset *ts, guint n_threads, gboolean decode, TtvBenchChunkedRead *out,
                                 GError **error);

G_END_DECLS
