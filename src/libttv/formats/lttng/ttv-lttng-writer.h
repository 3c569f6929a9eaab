/* ttv-lttng-writer.h: writes LTTng 0.x traces (seed 001, docs/lttng-format.md)
 * block by block with bounded memory.  Used by ttv-gen and the format tests. */
#pragma once

#include "ttv-encoder.h"
#include "ttv-time.h"
#include "ttv-type.h"

G_BEGIN_DECLS

#define TTV_LTTNG_STREAM_PROCESSES (-1)   /* control/processes_0 */
#define TTV_LTTNG_STREAM_INTERRUPTS (-2)  /* control/interrupts_0 */

typedef struct {
  TtvByteOrder byte_order;        /* of every header and payload */
  guint arch_size;                /* bytes in a pointer and a long: 4 or 8; 0 = 8 */
  guint alignment;                /* 0: packed; 1, 2, 4 or 8: aligned headers and fields */
  gboolean tsc64;                 /* 64-bit event timestamps (has_heartbeat 0); FALSE:
                                   * 32-bit timestamps and time_heartbeat events */
  guint32 buf_size;               /* bytes per block; 0 = 65536 */
  guint64 start_freq;             /* trace header start_freq; 0 = 1000000000 */
  guint32 freq_scale;             /* cycles per second = start_freq / freq_scale; 0 = 1 */
  guint64 start_tsc;              /* cycle count at start_time */
  TtvTime start_time;             /* wall-clock time of start_tsc; event times must be >= it */
  guint max_blocks_per_cpu;       /* 0 = keep all; N = flight recorder ring of N blocks per cpu file */
  guint32 arch_type, arch_variant; /* copied to the trace header */
} TtvLttngWriterOptions;

typedef struct _TtvLttngWriter TtvLttngWriter;

/* @dir must not exist or be empty. */
TtvLttngWriter *ttv_lttng_writer_new (const char *dir, const TtvLttngWriterOptions *options,
                                      GError **error);
/* Describes marker @name of @channel; the marker format string is derived
 * from @fields (a STRUCT of integers, enums and strings: "pid %d name %s";
 * TTV_NATIVE_LONG integers become %ld/%lu, TTV_NATIVE_POINTER ones %p).
 * Returns the event handle (>= 0) or -1. */
gint     ttv_lttng_writer_add_event (TtvLttngWriter *w, const char *channel, const char *name,
                                     const TtvType *fields, GError **error);
/* @stream: a CPU id >= 0 (cpu_N created on first use; sparse ids fine) or
 * TTV_LTTNG_STREAM_*.  Times must not decrease within one stream.  @values
 * as for ttv_encode(), one per field. */
gboolean ttv_lttng_writer_write_event (TtvLttngWriter *w, gint stream, TtvTime time, guint event,
                                       const TtvScalar *values, guint n_values, GError **error);
/* Flushes blocks, writes control/facilities_N and the other control files;
 * frees @w (also on failure). */
gboolean ttv_lttng_writer_close (TtvLttngWriter *w, GError **error);
/* Frees without finishing (files written so far stay). */
void     ttv_lttng_writer_abort (TtvLttngWriter *w);

G_END_DECLS
