/* ttv-ltt-writer.h: writes LTT traces (seed 000, docs/ltt-format.md) block by
 * block with bounded memory.  Used by ttv-gen and the format tests. */
#pragma once

#include "ttv-encoder.h"
#include "ttv-time.h"
#include "ttv-type.h"

G_BEGIN_DECLS

typedef enum {
  TTV_LTT_ARCH_LP32,
  TTV_LTT_ARCH_ILP32,
  TTV_LTT_ARCH_LP64,
  TTV_LTT_ARCH_ILP64,
} TtvLttArchSize;

#define TTV_LTT_STREAM_PROCESSES (-1)   /* control/processes */
#define TTV_LTT_STREAM_INTERRUPTS (-2)  /* control/interrupts */

typedef struct {
  TtvByteOrder byte_order;        /* payload byte order, written to system.xml endian= */
  TtvLttArchSize arch_size;
  guint32 block_size;             /* bytes per block; 0 = 65536 */
  guint64 cycles_per_second;      /* cycle counter frequency; 0 = 1000000000 */
  TtvTime start_time;             /* wall-clock time of cycle count 0; event times must be >= it */
  guint n_cpu_slots;              /* system.xml cpu= (raised to max CPU id + 1 if lower) */
  guint max_blocks_per_cpu;       /* 0 = keep all; N = flight recorder ring of N blocks per cpu file */
  const char *node_name;          /* system.xml; NULL = "ttv-gen" */
  const char *description;        /* system.xml text; may be NULL */
} TtvLttWriterOptions;

typedef struct _TtvLttWriter TtvLttWriter;

/* @dir must not exist or be empty. */
TtvLttWriter *ttv_ltt_writer_new (const char *dir, const TtvLttWriterOptions *options, GError **error);
guint    ttv_ltt_writer_add_facility (TtvLttWriter *w, const char *name, const char *description);
/* @fields: a STRUCT; native-size integers (TtvType.native_size) become
 * short/medium/long/pointer-sized per arch_size and are written as
 * size=short|medium|long in eventdefs; types with a name become <type name=>
 * definitions used through <typeref>.  Returns the event handle (>= 0) or -1. */
gint     ttv_ltt_writer_add_event (TtvLttWriter *w, guint facility, const char *name,
                                   const char *description, const TtvType *fields, GError **error);
/* @stream: a CPU id >= 0 (cpu/N created on first use; sparse ids fine) or
 * TTV_LTT_STREAM_*.  Times must not decrease within one stream. */
gboolean ttv_ltt_writer_write_event (TtvLttWriter *w, gint stream, TtvTime time, guint event,
                                     const TtvScalar *values, guint n_values, GError **error);
/* Flushes blocks, writes eventdefs/<facility>.xml, info/system.xml,
 * control/facilities; frees @w (also on failure). */
gboolean ttv_ltt_writer_close (TtvLttWriter *w, GError **error);
/* Frees without finishing (files written so far stay). */
void     ttv_ltt_writer_abort (TtvLttWriter *w);

G_END_DECLS
