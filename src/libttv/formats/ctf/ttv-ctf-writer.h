/* ttv-ctf-writer.h: writes CTF 1.8 and CTF 2 traces laid out as LTTng 2.x
 * kernel traces (ttv-gen --format ctf/ctf2, tests and benchmarks of the CTF
 * reader). */
#pragma once

#include "ttv-encoder.h"
#include "ttv-time.h"
#include "ttv-type.h"

G_BEGIN_DECLS

/* The metadata a writer writes, and with it the packet layout. */
typedef enum {
  /* CTF 1.8: plain TSDL text as lttng-modules 2.5 writes it. */
  TTV_CTF_METADATA_TSDL,
  /* CTF 2, as LTTng 2.15 writes it by default: packetized metadata (major
   * 2) holding the JSON text sequence lttng-modules' CTF 2 serializer
   * writes (field class aliases, roles), and packets with a
   * stream_instance_id and a packet_seq_num. */
  TTV_CTF_METADATA_CTF2,
} TtvCtfMetadataFormat;

typedef enum {
  TTV_CTF_HEADER_COMPACT,  /* 5-bit id + 27-bit time; id 31: 32-bit id + 64-bit time */
  TTV_CTF_HEADER_LARGE,    /* 16-bit id + 32-bit time; id 65535: 32-bit id + 64-bit time */
} TtvCtfHeaderKind;

typedef struct {
  TtvByteOrder byte_order;
  TtvCtfHeaderKind header;
  guint32 packet_size;      /* bytes, multiple of 8, 512 .. 1 GiB; 0: 65536 */
  guint long_bits;          /* 32 or 64 (0: 64): size of events_discarded ("unsigned long") */
  /* Time (ns since the epoch) of the clock's value 0: written as offset_s and
   * offset; every event time must be at or after it. */
  TtvTime clock_offset;
  const char *clock_name;   /* default "monotonic" */
  const char *channel;      /* stream files are CHANNEL_CPU; default "channel0" */
  /* env block; NULL: "ttv-gen", "kernel", "lttng-modules", "Linux", "ttv-sim", "#1 SMP" */
  const char *hostname;
  const char *domain;
  const char *tracer_name;
  const char *sysname;
  const char *kernel_release;
  const char *kernel_version;
  guint8 uuid[16];          /* all zero: derived from the options (deterministic) */
  TtvCtfMetadataFormat metadata;
} TtvCtfWriterOptions;

typedef struct _TtvCtfWriter TtvCtfWriter;

/* Creates @dir (and its parents) if needed; refuses a directory that already
 * holds a `metadata` file.  Nothing else is written before close. */
TtvCtfWriter *ttv_ctf_writer_new (const char *dir, const TtvCtfWriterOptions *options,
                                  GError **error);

/* Declares an event class before the first event is written; ids follow the
 * order of the calls (put frequent events first: ids 0..30 get compact
 * headers).  @fields is a struct (a reference is taken) of integers and
 * enums of 1 to 64 bits (not a multiple of 8 bits or of a byte's alignment:
 * CTF bit fields, as lttng-modules' IP and TCP headers; each in its own byte
 * order, which may not be the trace's), floats of 32/64 bits, strings,
 * arrays, sequences with a length reference (CTF style), structs, and
 * variants with a tag reference (ttv_type_new_variant_ref) to an enum
 * member before them in the same struct, one label of which names each
 * option.  An array of 8-bit UTF8 integers is a text array
 * (ctf_array_text): it takes one string scalar, truncated or padded with
 * NULs.  Field names are written with a leading underscore as LTTng does
 * (readers drop it), variant options without (their tag's labels).  Returns
 * the event's handle (its CTF id), -1 with @error
 * (TTV_USAGE_ERROR_BAD_ARGUMENT). */
gint     ttv_ctf_writer_add_event (TtvCtfWriter *w, const char *name, TtvType *fields,
                                   GError **error);

/* Appends one event to the stream of @cpu_id (created at its first event,
 * file CHANNEL_CPUID).  Times must not decrease within a stream.  @values
 * are in the order of ttv_encode(): one per integer/enum/float/string, a
 * text array one string, a sequence its count then its elements, a variant
 * the index of its option (the one its tag's value selects) then the
 * option's values. */
gboolean ttv_ctf_writer_write_event (TtvCtfWriter *w, guint cpu_id, TtvTime time, guint event,
                                     const TtvScalar *values, guint n_values, GError **error);

/* Number of events and packets written so far (packets: with the pending ones). */
guint64  ttv_ctf_writer_get_n_events (const TtvCtfWriter *w);
guint64  ttv_ctf_writer_get_n_packets (const TtvCtfWriter *w);

/* Flushes the last packets, writes `metadata` (plain TSDL text starting with
 * the CTF 1.8 signature comment, or CTF 2 metadata packets) and frees @w,
 * even on failure. */
gboolean ttv_ctf_writer_close (TtvCtfWriter *w, GError **error);
/* Frees @w; the files already written stay (incomplete trace). */
void     ttv_ctf_writer_abort (TtvCtfWriter *w);

G_END_DECLS
